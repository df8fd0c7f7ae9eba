// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Regions of a layer: a monotone sweep cuts the walkable cells into stacks
// of runs, small isolated islands are dropped, and neighbouring regions of
// one area merge while their union stays a simple polygon.
#include "tilecache/regions.h"

#include <string.h>

#include "navcore/alloc.h"

enum {
    NEI_UNSET = 0xffff,
    NEI_MULTI = 0xfffe,
};

/// A monotone region: one run per row, each run overlapping the one below.
/// Such a region is a disk, and the merge rule below keeps unions disks.
typedef struct mono_region {
    uint16_t first_cell;
    uint16_t cells; ///< of the whole group while it is a group's root
    uint8_t area;
    uint8_t flags;
} mono_region;

enum {
    MONO_BORDER = 1,  // has a cell on the tile's edge
    MONO_DROPPED = 2, // part of an island below min_region_area
};

/// How two monotone regions touch. One entry per shared stretch of edges
/// along a row line, one per corner where they touch only diagonally.
typedef enum contact_kind {
    CONTACT_EDGE = 0,     // same area, connected cells side by side
    CONTACT_DIAG = 1,     // same area, cells meeting only at a corner
    CONTACT_CONFLICT = 2, // same area, side by side but not connected
    CONTACT_LINK = 3,     // different areas, connected (islands only)
} contact_kind;

typedef struct contact {
    uint16_t a, b;
    uint16_t kind;
} contact;

/// A run of same-area cells linked along a row.
typedef struct sweep_run {
    uint8_t x0, x1; // first and last cell
    uint8_t area;
    uint8_t blocked; // a same-area cell below is there but not connected
    uint16_t nei;    // run of the row below every same-area link goes to
    /// Links down: all of them while the row is split into runs, then the
    /// same-area ones (to nei); for a run of the row below, links into it.
    uint16_t links;
    uint16_t region;
} sweep_run;

/// Monotone regions grow up from the start of the arena's free space and
/// contacts grow down from its end, as neither count is known in advance.
typedef struct growing {
    unsigned char* base;
    size_t bytes;
    uint32_t mono_count;
    uint32_t contact_count;
    uint32_t last[4]; // last contact of each kind: runs repeat them
} growing;

static mono_region* mono_at(const growing* g, uint32_t i) {
    return (mono_region*)(void*)(g->base + (size_t)i * sizeof(mono_region));
}

static contact* contact_at(const growing* g, uint32_t i) {
    return (contact*)(void*)(g->base + g->bytes - (size_t)(i + 1u) * sizeof(contact));
}

static bool grow_fits(const growing* g, uint32_t monos, uint32_t contacts) {
    return (size_t)monos * sizeof(mono_region) + (size_t)contacts * sizeof(contact) <= g->bytes;
}

static bool push_contact(growing* g, uint32_t a, uint32_t b, contact_kind kind) {
    if (a > b) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    uint32_t key = a << 16 | b;
    if (kind != CONTACT_DIAG) { // a diagonal touch is one point: each one counts
        if (g->last[kind] == key) {
            return true;
        }
        g->last[kind] = key;
    }
    if (!grow_fits(g, g->mono_count, g->contact_count + 1u)) {
        return false;
    }
    contact* c = contact_at(g, g->contact_count++);
    c->a = (uint16_t)a;
    c->b = (uint16_t)b;
    c->kind = (uint16_t)kind;
    return true;
}

static bool areas_equal(const wf_layer* layer, uint32_t i, uint32_t j) {
    return layer->areas[i] == layer->areas[j];
}

// Diagonal touch at a corner: cells p and q meet there, the two other
// cells around the corner belong to neither.
static bool diagonal_touch(uint32_t p, uint32_t q, uint32_t o1, uint32_t o2) {
    return p != WF_REGION_NONE && q != WF_REGION_NONE && p != q && o1 != p && o1 != q && o2 != p &&
           o2 != q;
}

/// Sweep state: the runs of the current row and of the row below.
typedef struct sweep {
    sweep_run* runs;
    sweep_run* below;
    uint32_t run_count;
    uint32_t below_count;
} sweep;

static uint32_t linked_down(const uint8_t* conn, uint32_t from, uint32_t to) {
    uint32_t n = 0;
    for (uint32_t i = from; i <= to; ++i) {
        n += conn[i] & 8u; // the shift once at the end: vectorizes
    }
    return n >> 3;
}

/// One row's links with everything unwalkable cleared (0 for a cell without
/// floor or area), between two zero cells so that x - 1 and x + 1 exist.
/// Returns nonzero when a walkable cell has an area id out of range.
static uint32_t walkable_links(const uint8_t* restrict heights, const uint8_t* restrict areas,
                               const uint8_t* restrict cons, uint32_t w, uint8_t* restrict out) {
    uint32_t bad = 0;
    out[0] = 0;
    out[w + 1u] = 0;
    for (uint32_t x = 0; x < w; ++x) { // branch-free: vectorizes
        uint8_t walk = (uint8_t)((areas[x] != WF_AREA_NULL) & (heights[x] != WF_LAYER_EMPTY));
        bad |= walk & (areas[x] >= WF_MAX_AREAS);
        out[x + 1u] = (uint8_t)(cons[x] & (uint8_t)(0u - walk));
    }
    return bad;
}

// Bit d needs the neighbour's opposite bit: left bit 2, up bit 3, right
// bit 0, down bit 1 (rows padded by one cell on each side).
static void clean_row(const uint8_t* restrict below, const uint8_t* restrict cur,
                      const uint8_t* restrict above, size_t w, uint8_t* restrict out) {
    const uint8_t* left = cur;
    const uint8_t* right = cur + 2;
    cur++;
    below++;
    above++;
    for (size_t x = 0; x < w; ++x) {
        uint8_t e = cur[x];
        uint8_t back = (uint8_t)((left[x] >> 2 & 1u) | (above[x] >> 2 & 2u) | (right[x] << 2 & 4u) |
                                 (below[x] << 2 & 8u));
        out[x] = (uint8_t)((e & 0xf0u) | (e & back));
    }
}

/// Cleans the connections of every cell (both sides must agree, both
/// cells walkable) into conn, a row at a time from the rows' masked links
/// (walkable_links) kept in three rotating buffers of width + 2.
static wf_status clean_links(const wf_layer* layer, uint8_t* conn, uint8_t* rows) {
    uint32_t w = layer->width, d = layer->depth, stride = w + 2u;
    uint8_t* below = rows;
    uint8_t* cur = rows + stride;
    uint8_t* above = rows + 2u * stride;
    memset(below, 0, stride);
    uint32_t bad = walkable_links(layer->heights, layer->areas, layer->cons, w, cur);
    for (uint32_t z = 0; z < d; ++z) {
        size_t next = (size_t)(z + 1u) * w;
        if (z + 1u < d) {
            bad |= walkable_links(layer->heights + next, layer->areas + next, layer->cons + next, w,
                                  above);
        } else {
            memset(above, 0, stride);
        }
        clean_row(below, cur, above, w, conn + (size_t)z * w);
        uint8_t* t = below;
        below = cur;
        cur = above;
        above = t;
    }
    return bad ? WF_ERR_BAD_DATA : WF_OK;
}

/// Row flags for find_runs: starts[x] when a run begins at x, stops[x]
/// when x continues no run from x - 1 (so an empty cell too). Each has 8
/// bytes past the row: zeros and ones, so that a scan reads whole words.
static void run_flags(const uint8_t* restrict heights, const uint8_t* restrict areas,
                      const uint8_t* restrict conn, size_t w, uint8_t* restrict starts,
                      uint8_t* restrict stops) {
    starts[0] = (uint8_t)((areas[0] != WF_AREA_NULL) & (heights[0] != WF_LAYER_EMPTY));
    stops[0] = 1;
    const uint8_t* left = areas;
    areas++;
    heights++;
    conn++;
    for (size_t x = 0; x + 1u < w; ++x) { // branch-free: vectorizes
        uint8_t walk = (uint8_t)((areas[x] != WF_AREA_NULL) & (heights[x] != WF_LAYER_EMPTY));
        uint8_t same = (uint8_t)(areas[x] == left[x]);
        uint8_t stop = (uint8_t)((conn[x] & same) ^ 1u); // a left link: both walkable
        starts[x + 1u] = (uint8_t)(walk & stop);
        stops[x + 1u] = stop;
    }
}

static bool any8(const uint8_t* p) {
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v != 0;
}

/// Splits row z into runs of same-area cells linked along the row (conn
/// already cleaned). On the demo levels a third of the cells are walkable
/// and runs are long, so the flags are scanned a word at a time.
static void find_runs(const wf_layer* layer, const uint8_t* conn, uint32_t z, sweep* s,
                      uint8_t* starts, uint8_t* stops) {
    uint32_t w = layer->width, row = z * w;
    const uint8_t* areas = layer->areas + row;
    const uint8_t* c = conn + row;
    run_flags(layer->heights + row, areas, c, w, starts, stops);
    uint32_t count = 0;
    uint32_t x = 0;
    for (;;) {
        while (x < w && !starts[x]) {
            x += any8(starts + x) ? 1u : 8u;
        }
        if (x >= w) {
            break;
        }
        uint32_t x0 = x++, links = (uint32_t)c[x0] >> 3 & 1u;
        while (!stops[x]) { // the ones past the row end it
            if (!any8(stops + x)) {
                links += linked_down(c, x, x + 7u);
                x += 8u;
                continue;
            }
            links += (uint32_t)c[x] >> 3 & 1u;
            x++;
        }
        sweep_run* r = &s->runs[count++];
        r->x0 = (uint8_t)x0;
        r->x1 = (uint8_t)(x - 1u);
        r->area = areas[x0];
        r->links = (uint16_t)links;
    }
    s->run_count = count;
}

/// Same-area links of each run to the runs below (both lists go by x).
static void count_links(const uint8_t* conn, uint32_t row, sweep* s) {
    for (uint32_t k = 0; k < s->below_count; ++k) {
        s->below[k].links = 0;
    }
    uint32_t first = 0;
    for (uint32_t k = 0; k < s->run_count; ++k) {
        sweep_run* r = &s->runs[k];
        uint32_t all_links = r->links; // any area, counted by find_runs
        r->nei = NEI_UNSET;
        r->links = 0;
        r->blocked = 0;
        while (first < s->below_count && s->below[first].x1 < r->x0) {
            first++;
        }
        if (first < s->below_count && s->below[first].x0 <= r->x0 && s->below[first].x1 >= r->x1 &&
            s->below[first].area == r->area) {
            // The usual case: one same-area run below spans this one.
            sweep_run* b = &s->below[first];
            if (all_links > 0) {
                b->links = (uint16_t)(b->links + all_links);
                r->links = (uint16_t)all_links;
                r->nei = (uint16_t)first;
            }
            r->blocked = all_links < r->x1 - r->x0 + 1u;
            continue;
        }
        for (uint32_t j = first; j < s->below_count && s->below[j].x0 <= r->x1; ++j) {
            sweep_run* b = &s->below[j];
            if (b->area != r->area) {
                continue;
            }
            uint32_t lo = b->x0 > r->x0 ? b->x0 : r->x0, hi = b->x1 < r->x1 ? b->x1 : r->x1;
            uint32_t links = linked_down(conn, row + lo, row + hi);
            if (links > 0) {
                b->links = (uint16_t)(b->links + links);
                r->links = (uint16_t)(r->links + links);
                r->nei = r->nei == NEI_UNSET ? (uint16_t)j : NEI_MULTI;
            }
            if (links < hi - lo + 1u) {
                r->blocked = 1;
            }
        }
    }
}

// Contacts of a run of row z (regions set) with the row below and its
// left neighbour, and the diagonal touches at its ends.
static bool run_contacts(const wf_layer* layer, const uint16_t* reg, const uint8_t* conn,
                         uint32_t z, const sweep* s, uint32_t k, uint32_t* first, growing* g) {
    uint32_t w = layer->width, row = z * w;
    const sweep_run* r = &s->runs[k];
    uint32_t b = r->region;
    bool ok = true;
    if (r->x0 > 0 && reg[row + r->x0 - 1u] != WF_REGION_NONE) {
        uint32_t a = reg[row + r->x0 - 1u];
        if (areas_equal(layer, row + r->x0 - 1u, row + r->x0)) {
            ok &= push_contact(g, a, b, CONTACT_CONFLICT); // linked would be one run
        } else if (conn[row + r->x0] & 1u) {
            ok &= push_contact(g, a, b, CONTACT_LINK);
        }
    }
    if (z == 0) {
        return ok;
    }
    while (*first < s->below_count && s->below[*first].x1 < r->x0) {
        (*first)++;
    }
    for (uint32_t j = *first; j < s->below_count && s->below[j].x0 <= r->x1; ++j) {
        const sweep_run* p = &s->below[j];
        if (p->region == b) {
            continue;
        }
        uint32_t lo = p->x0 > r->x0 ? p->x0 : r->x0, hi = p->x1 < r->x1 ? p->x1 : r->x1;
        uint32_t links = linked_down(conn, row + lo, row + hi);
        if (p->area == r->area) {
            if (links > 0) {
                ok &= push_contact(g, p->region, b, CONTACT_EDGE);
            }
            if (links < hi - lo + 1u) {
                ok &= push_contact(g, p->region, b, CONTACT_CONFLICT);
            }
        } else if (links > 0) {
            ok &= push_contact(g, p->region, b, CONTACT_LINK);
        }
    }
    // Corners where this row changes region: at the run's start, and past
    // its end unless the next run starts there.
    uint32_t corners[2] = {r->x0, (uint32_t)r->x1 + 1u};
    for (int e = 0; e < 2; ++e) {
        uint32_t x = corners[e];
        if (x == 0 || x >= w || (e == 1 && reg[row + x] != WF_REGION_NONE)) {
            continue;
        }
        uint32_t i = row + x;
        uint32_t r00 = reg[i - w - 1], r10 = reg[i - w], r01 = reg[i - 1], r11 = reg[i];
        if (diagonal_touch(r00, r11, r10, r01) && areas_equal(layer, i - w - 1, i)) {
            ok &= push_contact(g, r00, r11, CONTACT_DIAG);
        }
        if (diagonal_touch(r10, r01, r00, r11) && areas_equal(layer, i - w, i - 1)) {
            ok &= push_contact(g, r10, r01, CONTACT_DIAG);
        }
    }
    return ok;
}

/// Monotone partition (Recast's "monotone" flavour): a row's run continues
/// the region below when all its same-area links go to one run of that row
/// and no other run links to it; otherwise it starts a region.
static wf_status sweep_layer(const wf_layer* layer, uint16_t* reg, uint8_t* conn, sweep* s,
                             uint8_t* flags, growing* g) {
    uint32_t w = layer->width, d = layer->depth;
    s->below_count = 0;
    for (uint32_t z = 0; z < d; ++z) {
        uint32_t row = z * w;
        find_runs(layer, conn, z, s, flags, flags + (size_t)w + 8u);
        count_links(conn, row, s);
        bool edge_row = z == 0 || z + 1 == d;
        for (uint32_t k = 0; k < s->run_count; ++k) {
            sweep_run* r = &s->runs[k];
            if (r->nei < NEI_MULTI && !r->blocked && s->below[r->nei].links == r->links) {
                r->region = s->below[r->nei].region;
            } else {
                if (!grow_fits(g, g->mono_count + 1u, g->contact_count)) {
                    return WF_ERR_CAPACITY;
                }
                r->region = (uint16_t)g->mono_count;
                mono_region* m = mono_at(g, g->mono_count++);
                m->first_cell = (uint16_t)(row + r->x0);
                m->cells = 0;
                m->area = r->area;
                m->flags = 0;
            }
            mono_region* m = mono_at(g, r->region);
            m->cells = (uint16_t)(m->cells + r->x1 - r->x0 + 1u);
            if (edge_row || r->x0 == 0 || r->x1 + 1u == w) {
                m->flags |= MONO_BORDER;
            }
            for (uint32_t x = r->x0; x <= r->x1; ++x) {
                reg[row + x] = r->region;
            }
        }
        uint32_t first = 0;
        for (uint32_t k = 0; k < s->run_count; ++k) {
            if (!run_contacts(layer, reg, conn, z, s, k, &first, g)) {
                return WF_ERR_CAPACITY;
            }
        }
        sweep_run* t = s->below;
        s->below = s->runs;
        s->runs = t;
        s->below_count = s->run_count;
    }
    return WF_OK;
}

static uint32_t find_root(uint16_t* parent, uint32_t i) {
    while (parent[i] != i) {
        parent[i] = parent[parent[i]]; // path halving
        i = parent[i];
    }
    return i;
}

/// Merge state: groups of monotone regions as union-find trees with member
/// lists, and a same-area adjacency list per monotone region.
typedef struct merger {
    mono_region* mono;
    uint32_t count;
    uint16_t* parent;
    uint16_t* next;      // next member of the same group, NONE ends
    uint16_t* last;      // last member, at the group's root
    uint32_t* adj_start; // count + 1 offsets into adj
    uint32_t* adj;       // neighbour << 2 | kind
    uint8_t* acc;        // per group while one evaluation runs
    uint16_t* touched;
} merger;

enum {
    ACC_EDGES = 3, // low bits: shared edge stretches, saturating at 2
    ACC_BAD = 4,   // a diagonal touch or an unconnected side
    ACC_TOUCHED = 8,
};

/// The union of two disks is a disk exactly when they meet along one
/// stretch of edges: one EDGE contact, no corner touch (that pinches) and
/// no unconnected side (a slit). Picks the largest such neighbour.
static uint32_t best_merge(merger* m, uint32_t root) {
    uint32_t touched = 0;
    for (uint32_t i = root; i != WF_REGION_NONE; i = m->next[i]) {
        for (uint32_t k = m->adj_start[i]; k < m->adj_start[i + 1]; ++k) {
            uint32_t g = find_root(m->parent, m->adj[k] >> 2);
            if (g == root) {
                continue;
            }
            uint8_t a = m->acc[g];
            if (!(a & ACC_TOUCHED)) {
                a = ACC_TOUCHED;
                m->touched[touched++] = (uint16_t)g;
            }
            if ((m->adj[k] & 3u) == CONTACT_EDGE) {
                if ((a & ACC_EDGES) < 2u) {
                    a++;
                }
            } else {
                a |= ACC_BAD;
            }
            m->acc[g] = a;
        }
    }
    uint32_t best = WF_REGION_NONE;
    for (uint32_t t = 0; t < touched; ++t) {
        uint32_t g = m->touched[t];
        if ((m->acc[g] & (ACC_EDGES | ACC_BAD)) == 1u) {
            if (best == WF_REGION_NONE || m->mono[g].cells > m->mono[best].cells ||
                (m->mono[g].cells == m->mono[best].cells && g < best)) {
                best = g;
            }
        }
        m->acc[g] = 0;
    }
    return best;
}

static void merge_into(merger* m, uint32_t root, uint32_t target) {
    m->parent[root] = (uint16_t)target;
    m->mono[target].cells = (uint16_t)(m->mono[target].cells + m->mono[root].cells);
    m->next[m->last[target]] = (uint16_t)root;
    m->last[target] = m->last[root];
}

// One pass over the groups in index order; returns the merges made.
static uint32_t merge_pass(merger* m, uint32_t below_cells) {
    uint32_t merges = 0;
    for (uint32_t i = 0; i < m->count; ++i) {
        if (m->parent[i] != i || (m->mono[i].flags & MONO_DROPPED) ||
            m->mono[i].cells >= below_cells) {
            continue;
        }
        uint32_t target = best_merge(m, i);
        if (target != WF_REGION_NONE) {
            merge_into(m, i, target);
            merges++;
        }
    }
    return merges;
}

// Islands (regions linked by connected cells, any area) smaller than
// min_area and away from the tile's edge are dropped, as Recast does: a
// region on the edge may continue in the neighbouring tile.
static wf_status drop_islands(const growing* g, const contact* contacts, uint32_t min_area,
                              wf_arena* arena) {
    uint32_t n = g->mono_count;
    wf_arena_mark mark = wf_arena_get_mark(arena);
    uint16_t* island = WF_ARENA_ARRAY(arena, uint16_t, n);
    uint32_t* cells = WF_ARENA_ARRAY(arena, uint32_t, n);
    if (island == NULL || cells == NULL) {
        return WF_ERR_CAPACITY;
    }
    for (uint32_t i = 0; i < n; ++i) {
        island[i] = (uint16_t)i;
        cells[i] = 0;
    }
    for (uint32_t k = 0; k < g->contact_count; ++k) {
        const contact* c = &contacts[k];
        if (c->kind == CONTACT_EDGE || c->kind == CONTACT_LINK) {
            uint32_t ra = find_root(island, c->a), rb = find_root(island, c->b);
            if (ra != rb) { // the lower index stays root: order-independent
                island[ra > rb ? ra : rb] = (uint16_t)(ra < rb ? ra : rb);
            }
        }
    }
    for (uint32_t i = 0; i < n; ++i) {
        const mono_region* m = mono_at(g, i);
        uint32_t r = find_root(island, i);
        cells[r] += m->cells;
        if (m->flags & MONO_BORDER) {
            cells[r] = UINT32_MAX / 2u; // counts as large enough
        }
    }
    for (uint32_t i = 0; i < n; ++i) {
        if (cells[find_root(island, i)] < min_area) {
            mono_at(g, i)->flags |= MONO_DROPPED;
        }
    }
    wf_arena_reset_to(arena, mark);
    return WF_OK;
}

static wf_status build_merger(merger* m, mono_region* mono, uint32_t n, const contact* contacts,
                              uint32_t contact_count, wf_arena* arena) {
    m->mono = mono;
    m->count = n;
    m->parent = WF_ARENA_ARRAY(arena, uint16_t, n);
    m->next = WF_ARENA_ARRAY(arena, uint16_t, n);
    m->last = WF_ARENA_ARRAY(arena, uint16_t, n);
    m->adj_start = WF_ARENA_ARRAY(arena, uint32_t, (size_t)n + 1u);
    m->acc = WF_ARENA_ARRAY(arena, uint8_t, n);
    m->touched = WF_ARENA_ARRAY(arena, uint16_t, n);
    if (m->parent == NULL || m->next == NULL || m->last == NULL || m->adj_start == NULL ||
        m->acc == NULL || m->touched == NULL) {
        return WF_ERR_CAPACITY;
    }
    memset(m->adj_start, 0, sizeof(uint32_t) * ((size_t)n + 1u));
    memset(m->acc, 0, n);
    for (uint32_t i = 0; i < n; ++i) {
        m->parent[i] = (uint16_t)i;
        m->next[i] = WF_REGION_NONE;
        m->last[i] = (uint16_t)i;
    }
    // Adjacency (compressed rows) of the contacts that matter for merging.
    uint32_t total = 0;
    for (uint32_t k = 0; k < contact_count; ++k) {
        const contact* c = &contacts[k];
        if (c->kind != CONTACT_LINK && !((mono[c->a].flags | mono[c->b].flags) & MONO_DROPPED)) {
            m->adj_start[c->a + 1u]++;
            m->adj_start[c->b + 1u]++;
            total += 2u;
        }
    }
    for (uint32_t i = 0; i < n; ++i) {
        m->adj_start[i + 1u] += m->adj_start[i];
    }
    m->adj = WF_ARENA_ARRAY(arena, uint32_t, total > 0 ? total : 1u);
    uint32_t* fill = WF_ARENA_ARRAY(arena, uint32_t, n);
    if (m->adj == NULL || fill == NULL) {
        return WF_ERR_CAPACITY;
    }
    memcpy(fill, m->adj_start, sizeof(uint32_t) * n);
    for (uint32_t k = 0; k < contact_count; ++k) {
        const contact* c = &contacts[k];
        if (c->kind != CONTACT_LINK && !((mono[c->a].flags | mono[c->b].flags) & MONO_DROPPED)) {
            m->adj[fill[c->a]++] = (uint32_t)c->b << 2 | c->kind;
            m->adj[fill[c->b]++] = (uint32_t)c->a << 2 | c->kind;
        }
    }
    return WF_OK;
}

wf_status wf_layer_regions_build(const wf_layer* layer, uint32_t min_region_area,
                                 uint32_t merge_region_area, wf_arena* arena,
                                 wf_layer_regions* out) {
    uint32_t w = layer->width, d = layer->depth;
    size_t cells = (size_t)w * d;
    memset(out, 0, sizeof *out);
    out->width = w;
    out->depth = d;
    out->conn = WF_ARENA_ARRAY(arena, uint8_t, cells);
    out->cells = WF_ARENA_ARRAY(arena, uint16_t, cells);
    if (out->conn == NULL || out->cells == NULL) {
        return WF_ERR_CAPACITY;
    }
    wf_arena_mark kept = wf_arena_get_mark(arena);

    sweep s;
    s.runs = WF_ARENA_ARRAY(arena, sweep_run, w);
    s.below = WF_ARENA_ARRAY(arena, sweep_run, w);
    // Three padded rows for clean_links, then the two run flag rows.
    uint8_t* rows = WF_ARENA_ARRAY(arena, uint8_t, 3u * ((size_t)w + 2u) + 2u * ((size_t)w + 8u));
    if (s.runs == NULL || s.below == NULL || rows == NULL) {
        return WF_ERR_CAPACITY;
    }
    memset(out->cells, 0xff, sizeof(uint16_t) * cells); // WF_REGION_NONE outside runs
    wf_status st = clean_links(layer, out->conn, rows);
    if (st != WF_OK) {
        return st;
    }

    growing g;
    memset(&g, 0, sizeof g);
    memset(g.last, 0xff, sizeof g.last);
    g.base = wf_arena_tail(arena, _Alignof(mono_region), &g.bytes);
    g.bytes &= ~(size_t)1u; // contacts from the end stay 2-byte aligned
    uint8_t* flags = rows + 3u * ((size_t)w + 2u);
    memset(flags + w, 0, 8);                   // no start past the row
    memset(flags + 2u * (size_t)w + 8u, 1, 8); // every stop past the row
    st = sweep_layer(layer, out->cells, out->conn, &s, flags, &g);
    if (st != WF_OK) {
        return st;
    }
    // The two ends grew towards each other: together they needed this much.
    (void)wf_arena_note_tail(arena, _Alignof(mono_region),
                             g.mono_count * sizeof(mono_region) +
                                 g.contact_count * sizeof(contact));
    // Take the two grown arrays: monotone regions where they are, contacts
    // moved down behind them.
    wf_arena_reset_to(arena, kept);
    mono_region* mono = WF_ARENA_ARRAY(arena, mono_region, g.mono_count);
    if (g.mono_count == 0) {
        wf_arena_reset_to(arena, kept);
        return WF_OK; // nothing walkable
    }
    contact* contacts = NULL;
    if (mono != NULL) {
        // The tail was taken after the sweep arrays; they are released now,
        // so the regions move down too.
        memmove(mono, g.base, sizeof(mono_region) * g.mono_count);
        contact* grown = contact_at(&g, g.contact_count - 1u);
        contacts = WF_ARENA_ARRAY(arena, contact, g.contact_count > 0 ? g.contact_count : 1u);
        if (contacts != NULL && g.contact_count > 0) {
            memmove(contacts, grown, sizeof(contact) * g.contact_count);
        }
    }
    if (mono == NULL || contacts == NULL) {
        return WF_ERR_CAPACITY;
    }
    g.base = (unsigned char*)mono; // for mono_at

    if (min_region_area > 0) {
        st = drop_islands(&g, contacts, min_region_area, arena);
        if (st != WF_OK) {
            return st;
        }
    }
    merger m;
    st = build_merger(&m, mono, g.mono_count, contacts, g.contact_count, arena);
    if (st != WF_OK) {
        return st;
    }
    // Small regions first, so that large ones do not close around them,
    // then everything that can still merge (fewer, larger regions give
    // fewer polygons), until a pass changes nothing.
    if (merge_region_area > 0) {
        (void)merge_pass(&m, merge_region_area);
    }
    while (merge_pass(&m, UINT32_MAX) > 0) {
    }

    // Final ids in order of each group's first cell.
    uint16_t* final_id = m.touched; // free again: reuse
    uint8_t* areas = WF_ARENA_ARRAY(arena, uint8_t, g.mono_count);
    uint16_t* first = WF_ARENA_ARRAY(arena, uint16_t, g.mono_count);
    if (areas == NULL || first == NULL) {
        return WF_ERR_CAPACITY;
    }
    uint32_t count = 0;
    for (uint32_t i = 0; i < g.mono_count; ++i) {
        final_id[i] = WF_REGION_NONE;
    }
    for (uint32_t i = 0; i < g.mono_count; ++i) {
        if (mono[i].flags & MONO_DROPPED) {
            continue;
        }
        uint32_t r = find_root(m.parent, i);
        if (final_id[r] == WF_REGION_NONE) {
            final_id[r] = (uint16_t)count;
            areas[count] = mono[i].area;
            first[count] = mono[i].first_cell; // lowest index: earliest cell
            count++;
        }
        final_id[i] = final_id[r];
    }
    // Keep only the per-region arrays, moved down to the kept mark (all
    // sources lie above where they go).
    wf_arena_reset_to(arena, kept);
    out->count = count;
    out->region_of = WF_ARENA_ARRAY(arena, uint16_t, g.mono_count);
    if (out->region_of != NULL) {
        memmove(out->region_of, final_id, sizeof(uint16_t) * g.mono_count);
    }
    out->areas = WF_ARENA_ARRAY(arena, uint8_t, count > 0 ? count : 1u);
    if (out->areas != NULL) {
        memmove(out->areas, areas, count);
    }
    out->first_cells = WF_ARENA_ARRAY(arena, uint16_t, count > 0 ? count : 1u);
    if (out->region_of == NULL || out->areas == NULL || out->first_cells == NULL) {
        return WF_ERR_CAPACITY;
    }
    memmove(out->first_cells, first, sizeof(uint16_t) * count);
    return WF_OK;
}

size_t wf_layer_regions_kept_size(uint32_t width, uint32_t depth) {
    size_t cells = (size_t)width * depth;
    // conn + cells, then the region of each monotone region, areas and
    // first cells (at most one of each per cell).
    return cells * (1u + 2u) + cells * (2u + 1u + 2u) + 5u * WF_SCRATCH_ALIGN_SLACK;
}

size_t wf_layer_regions_temp_size(uint32_t width, uint32_t depth) {
    size_t cells = (size_t)width * depth;
    size_t monos = cells;         // a monotone region has at least one cell
    size_t contacts = 4u * cells; // per cell: left, below, two diagonals
    size_t sweep_bytes = (size_t)width * 2u * sizeof(sweep_run) + 3u * ((size_t)width + 2u) +
                         2u * ((size_t)width + 8u) + 3u * WF_SCRATCH_ALIGN_SLACK;
    size_t grown =
        monos * sizeof(mono_region) + contacts * sizeof(contact) + 2u + 2u * WF_SCRATCH_ALIGN_SLACK;
    size_t islands = monos * (2u + 4u) + 2u * WF_SCRATCH_ALIGN_SLACK;
    size_t merge = monos * (2u + 2u + 2u + 1u + 2u + 4u) + 4u + 2u * contacts * 4u +
                   8u * WF_SCRATCH_ALIGN_SLACK;
    size_t final_ids = monos * (1u + 2u) + 2u * WF_SCRATCH_ALIGN_SLACK;
    size_t after = islands > merge + final_ids ? islands : merge + final_ids;
    return (sweep_bytes + grown > grown + after) ? sweep_bytes + grown : grown + after;
}
