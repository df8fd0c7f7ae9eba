// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Contours -> convex polygons: ear clipping, greedy merging of triangles
// across their longest shared edges, vertex welding.
#include "tilecache/polymesh.h"

#include <string.h>

#include "navcore/alloc.h"

#define NO_INDEX 0xffffu
/// Vertices at one x, z whose heights differ by at most this many units
/// become one. Recast allows 2 because its contours may give one corner
/// slightly different heights; ours give every cell connected around a
/// corner the same height (contours.c), so only equal heights weld: a
/// tolerance would join polygons across steps the layer left unconnected.
#define WELD_HEIGHT 0
/// Most vertices in a polygon while two are being merged.
#define MERGE_MAX (2 * WF_MAX_VERTS_PER_POLY)

typedef wf_contour_vertex vertex;

static int32_t cross(const vertex* a, const vertex* b, const vertex* c) {
    // wf_v2_triangle_area2 on the integer grid: > 0 is counter-clockwise.
    return ((int32_t)b->z - a->z) * ((int32_t)c->x - a->x) -
           ((int32_t)b->x - a->x) * ((int32_t)c->z - a->z);
}

static bool same_position(const vertex* a, const vertex* b) { return a->x == b->x && a->z == b->z; }

static uint32_t distance_sq(const vertex* a, const vertex* b) {
    int32_t dx = (int32_t)a->x - b->x, dz = (int32_t)a->z - b->z;
    return (uint32_t)(dx * dx + dz * dz);
}

/* ---------------------------------------------------------------------------
 * Welding
 */

typedef struct welder {
    wf_polymesh_vertex* verts;
    uint16_t* next;
    uint16_t* buckets;
    uint32_t shift; // hash = 32-bit product >> shift
    uint32_t count, capacity;
} welder;

static uint32_t weld(welder* w, const vertex* v) {
    uint32_t h = (((uint32_t)v->x | (uint32_t)v->z << 8) * 2654435761u) >> w->shift;
    for (uint32_t i = w->buckets[h]; i != NO_INDEX; i = w->next[i]) {
        const wf_polymesh_vertex* o = &w->verts[i];
        int32_t dy = (int32_t)o->y - v->y;
        if (o->x == v->x && o->z == v->z && dy <= WELD_HEIGHT && dy >= -WELD_HEIGHT) {
            return i;
        }
    }
    if (w->count == w->capacity) {
        return NO_INDEX;
    }
    uint32_t i = w->count++;
    w->verts[i] = (wf_polymesh_vertex){v->x, v->y, v->z, 0};
    w->next[i] = w->buckets[h];
    w->buckets[h] = (uint16_t)i;
    return i;
}

/* ---------------------------------------------------------------------------
 * Ear clipping. Only vertices that are not strictly convex can lie in an
 * ear of a simple polygon, so ears are tested against those alone; they
 * only become convex as ears go (never the reverse), so their list only
 * shrinks.
 */

enum {
    CLIP_REFLEX = 1, // not strictly convex
};

typedef struct clipper {
    const vertex* v;
    uint16_t* prev;
    uint16_t* next;
    uint8_t* state;
    /// Per original vertex: the squared length of its ear's diagonal, or
    /// UINT32_MAX when it is no ear (or clipped): the best ear is a flat
    /// scan, no walk along the list.
    uint32_t* ear_key;
    uint16_t* reflex;
    uint16_t* reflex_at;
    uint32_t reflex_count;
    uint16_t* owner; // triangle whose diagonal is the edge from i to next[i]
} clipper;

/// Triangles and the diagonals between them, in contour-local indices.
typedef struct triangulation {
    uint16_t* tris; // 3 per triangle, counter-clockwise
    uint32_t tri_count;
    uint16_t* diags; // 4 per diagonal: triangle, triangle, end, end
    uint32_t diag_count;
} triangulation;

static bool in_closed_triangle(const vertex* p, const vertex* a, const vertex* b, const vertex* c) {
    return cross(a, b, p) >= 0 && cross(b, c, p) >= 0 && cross(c, a, p) >= 0;
}

static void update_reflex(clipper* c, uint32_t i) {
    bool reflex = cross(&c->v[c->prev[i]], &c->v[i], &c->v[c->next[i]]) <= 0;
    bool was = (c->state[i] & CLIP_REFLEX) != 0;
    if (reflex && !was) {
        c->reflex_at[i] = (uint16_t)c->reflex_count;
        c->reflex[c->reflex_count++] = (uint16_t)i;
        c->state[i] |= CLIP_REFLEX;
    } else if (!reflex && was) {
        uint32_t at = c->reflex_at[i];
        uint16_t moved = c->reflex[--c->reflex_count];
        c->reflex[at] = moved;
        c->reflex_at[moved] = (uint16_t)at;
        c->state[i] &= (uint8_t)~CLIP_REFLEX;
    }
}

static void update_ear(clipper* c, uint32_t i) {
    c->ear_key[i] = UINT32_MAX;
    if (c->state[i] & CLIP_REFLEX) {
        return;
    }
    uint32_t p = c->prev[i], q = c->next[i];
    const vertex *vp = &c->v[p], *vi = &c->v[i], *vq = &c->v[q];
    for (uint32_t k = 0; k < c->reflex_count; ++k) {
        uint32_t r = c->reflex[k];
        const vertex* vr = &c->v[r];
        if (r == p || r == q || same_position(vr, vp) || same_position(vr, vq)) {
            continue;
        }
        if (in_closed_triangle(vr, vp, vi, vq)) {
            return;
        }
    }
    c->ear_key[i] = distance_sq(vp, vq);
}

static void add_triangle(clipper* c, triangulation* t, uint32_t a, uint32_t b, uint32_t d) {
    uint32_t id = t->tri_count++;
    uint16_t* tri = &t->tris[3 * id];
    tri[0] = (uint16_t)a;
    tri[1] = (uint16_t)b;
    tri[2] = (uint16_t)d;
    // Edges a->b and b->d may be diagonals made by earlier ears.
    uint32_t ends[2][2] = {{a, b}, {b, d}};
    for (int k = 0; k < 2; ++k) {
        uint32_t from = ends[k][0];
        if (c->owner[from] != NO_INDEX) {
            uint16_t* g = &t->diags[4 * t->diag_count++];
            g[0] = c->owner[from];
            g[1] = (uint16_t)id;
            g[2] = (uint16_t)from;
            g[3] = (uint16_t)ends[k][1];
        }
    }
}

/// Ear clipping, shortest diagonal first (Recast's choice: it keeps
/// triangles fat). A polygon that is not simple (possible after
/// simplification of very thin regions) falls back to any convex vertex,
/// and stops when there is none.
static void triangulate(clipper* c, uint32_t n, triangulation* t) {
    for (uint32_t i = 0; i < n; ++i) {
        c->prev[i] = (uint16_t)(i == 0 ? n - 1u : i - 1u);
        c->next[i] = (uint16_t)(i + 1u == n ? 0u : i + 1u);
        c->state[i] = 0;
        c->owner[i] = NO_INDEX;
    }
    c->reflex_count = 0;
    for (uint32_t i = 0; i < n; ++i) {
        update_reflex(c, i);
    }
    for (uint32_t i = 0; i < n; ++i) {
        update_ear(c, i);
    }
    uint32_t head = 0;
    for (uint32_t left = n; left > 3; --left) {
        // The first shortest ear in list order from head: the list keeps
        // the original cyclic order, so scan from head to the end, then
        // from the start (strict <: the earlier one wins a tie).
        uint32_t best = NO_INDEX, best_len = UINT32_MAX;
        const uint32_t* key = c->ear_key;
        for (uint32_t k = head; k < n; ++k) {
            if (key[k] < best_len) {
                best = k;
                best_len = key[k];
            }
        }
        for (uint32_t k = 0; k < head; ++k) {
            if (key[k] < best_len) {
                best = k;
                best_len = key[k];
            }
        }
        if (best == NO_INDEX) {
            uint32_t i = head;
            for (uint32_t k = 0; k < left; ++k, i = c->next[i]) {
                uint32_t len = distance_sq(&c->v[c->prev[i]], &c->v[c->next[i]]);
                if (!(c->state[i] & CLIP_REFLEX) && len < best_len) {
                    best = i;
                    best_len = len;
                }
            }
            if (best == NO_INDEX) {
                return;
            }
        }
        uint32_t p = c->prev[best], q = c->next[best];
        add_triangle(c, t, p, best, q);
        c->ear_key[best] = UINT32_MAX; // clipped
        c->owner[p] = (uint16_t)(t->tri_count - 1u);
        c->next[p] = (uint16_t)q;
        c->prev[q] = (uint16_t)p;
        head = q;
        update_reflex(c, p);
        update_reflex(c, q);
        update_ear(c, p);
        update_ear(c, q);
    }
    uint32_t a = head, b = c->next[a], d = c->next[b];
    if (cross(&c->v[a], &c->v[b], &c->v[d]) > 0) {
        add_triangle(c, t, a, b, d);
        // The closing edge d->a may also be a diagonal.
        if (c->owner[d] != NO_INDEX) {
            uint16_t* g = &t->diags[4 * t->diag_count++];
            g[0] = c->owner[d];
            g[1] = (uint16_t)(t->tri_count - 1u);
            g[2] = (uint16_t)d;
            g[3] = (uint16_t)a;
        }
    }
}

/* ---------------------------------------------------------------------------
 * Merging: the triangles of one contour form a tree across its diagonals,
 * so two polygons share at most one diagonal. Taking diagonals longest
 * first and merging whenever the union stays convex is the same greedy as
 * repeatedly merging the pair with the longest shared edge, because a
 * merge that fails never succeeds later (polygons only grow).
 */

typedef struct merger {
    const vertex* v;
    uint16_t* verts; // WF_MAX_VERTS_PER_POLY per triangle, the polygon at a root
    uint8_t* count;
    uint16_t* parent;
    uint32_t max_verts;
} merger;

static uint32_t find_root(uint16_t* parent, uint32_t i) {
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

// Convex at b, counting a straight angle as convex but not a fold back.
static bool convex_corner(const vertex* a, const vertex* b, const vertex* c) {
    int32_t turn = cross(a, b, c);
    if (turn != 0) {
        return turn > 0;
    }
    int32_t dot = ((int32_t)a->x - b->x) * ((int32_t)c->x - b->x) +
                  ((int32_t)a->z - b->z) * ((int32_t)c->z - b->z);
    return dot < 0;
}

static uint32_t wrap(uint32_t i, uint32_t n) { return i >= n ? i - n : i; }

static void try_merge(merger* m, uint32_t ta, uint32_t tb, uint32_t u, uint32_t w) {
    uint32_t pa = find_root(m->parent, ta), pb = find_root(m->parent, tb);
    if (pa == pb) {
        return;
    }
    uint32_t na = m->count[pa], nb = m->count[pb];
    if (na + nb - 2u > m->max_verts) {
        return;
    }
    const uint16_t* a = &m->verts[WF_MAX_VERTS_PER_POLY * pa];
    const uint16_t* b = &m->verts[WF_MAX_VERTS_PER_POLY * pb];
    // Edge x -> y in a, y -> x in b. Indices wrap by subtraction: no
    // division in these short loops.
    uint32_t ia = na, ib = nb;
    for (uint32_t i = 0; i < na; ++i) {
        uint32_t x = a[i], y = a[wrap(i + 1u, na)];
        if ((x == u && y == w) || (x == w && y == u)) {
            ia = i;
            break;
        }
    }
    if (ia == na) {
        return;
    }
    uint32_t x = a[ia], y = a[wrap(ia + 1u, na)];
    for (uint32_t j = 0; j < nb; ++j) {
        if (b[j] == y && b[wrap(j + 1u, nb)] == x) {
            ib = j;
            break;
        }
    }
    if (ib == nb) {
        return;
    }
    const vertex* v = m->v;
    if (!convex_corner(&v[a[wrap(ia + na - 1u, na)]], &v[x], &v[b[wrap(ib + 2u, nb)]]) ||
        !convex_corner(&v[b[wrap(ib + nb - 1u, nb)]], &v[y], &v[a[wrap(ia + 2u, na)]])) {
        return;
    }
    uint16_t merged[MERGE_MAX];
    uint32_t n = 0;
    for (uint32_t k = 0, i = wrap(ia + 1u, na); k < na; ++k, i = wrap(i + 1u, na)) {
        merged[n++] = a[i]; // y ... x along a
    }
    for (uint32_t k = 2, j = wrap(ib + 2u, nb); k < nb; ++k, j = wrap(j + 1u, nb)) {
        merged[n++] = b[j]; // after x ... before y along b
    }
    uint16_t* out = &m->verts[WF_MAX_VERTS_PER_POLY * pa];
    for (uint32_t k = 0; k < n; ++k) {
        out[k] = merged[k];
    }
    m->count[pa] = (uint8_t)n;
    m->parent[pb] = (uint16_t)pa;
}

// Heap sort, descending (a min-heap drained to the back).
static void sift_down(uint64_t* keys, uint32_t root, uint32_t count) {
    for (;;) {
        uint32_t child = 2u * root + 1u;
        if (child >= count) {
            return;
        }
        if (child + 1u < count && keys[child + 1u] < keys[child]) {
            child++;
        }
        if (keys[root] <= keys[child]) {
            return;
        }
        uint64_t t = keys[root];
        keys[root] = keys[child];
        keys[child] = t;
        root = child;
    }
}

static void sort_descending(uint64_t* keys, uint32_t count) {
    for (uint32_t i = count / 2u; i-- > 0;) {
        sift_down(keys, i, count);
    }
    for (uint32_t end = count; end-- > 1;) {
        uint64_t t = keys[0];
        keys[0] = keys[end];
        keys[end] = t;
        sift_down(keys, 0, end);
    }
}

/* ---------------------------------------------------------------------------
 * One contour
 */

static wf_status add_contour(const vertex* verts, uint32_t n, uint8_t area, uint32_t max_verts,
                             welder* wd, wf_layer_polymesh* out, uint32_t poly_capacity,
                             wf_arena* arena) {
    if (n >= NO_INDEX) {
        return WF_ERR_CAPACITY; // could not fit a tile's vertex indices anyway
    }
    int64_t area2 = 0;
    for (uint32_t i = 1; i + 1u < n; ++i) {
        area2 += cross(&verts[0], &verts[i], &verts[i + 1u]);
    }
    if (area2 <= 0) {
        return WF_OK; // collapsed by simplification
    }
    clipper c;
    triangulation t;
    merger m;
    c.v = verts;
    c.prev = WF_ARENA_ARRAY(arena, uint16_t, n);
    c.next = WF_ARENA_ARRAY(arena, uint16_t, n);
    c.state = WF_ARENA_ARRAY(arena, uint8_t, n);
    c.ear_key = WF_ARENA_ARRAY(arena, uint32_t, n);
    c.reflex = WF_ARENA_ARRAY(arena, uint16_t, n);
    c.reflex_at = WF_ARENA_ARRAY(arena, uint16_t, n);
    c.owner = WF_ARENA_ARRAY(arena, uint16_t, n);
    t.tris = WF_ARENA_ARRAY(arena, uint16_t, 3u * (n - 2u));
    t.diags = WF_ARENA_ARRAY(arena, uint16_t, 4u * n);
    t.tri_count = 0;
    t.diag_count = 0;
    uint16_t* global = WF_ARENA_ARRAY(arena, uint16_t, n);
    if (c.prev == NULL || c.next == NULL || c.state == NULL || c.ear_key == NULL ||
        c.reflex == NULL || c.reflex_at == NULL || c.owner == NULL || t.tris == NULL ||
        t.diags == NULL || global == NULL) {
        return WF_ERR_CAPACITY;
    }
    triangulate(&c, n, &t);

    uint32_t tc = t.tri_count;
    m.v = verts;
    m.max_verts = max_verts;
    m.verts = WF_ARENA_ARRAY(arena, uint16_t, (size_t)WF_MAX_VERTS_PER_POLY * tc);
    m.count = WF_ARENA_ARRAY(arena, uint8_t, tc);
    m.parent = WF_ARENA_ARRAY(arena, uint16_t, tc);
    uint64_t* keys = WF_ARENA_ARRAY(arena, uint64_t, t.diag_count);
    if ((tc > 0 && (m.verts == NULL || m.count == NULL || m.parent == NULL)) ||
        (t.diag_count > 0 && keys == NULL)) {
        return WF_ERR_CAPACITY;
    }
    for (uint32_t i = 0; i < tc; ++i) {
        memcpy(&m.verts[WF_MAX_VERTS_PER_POLY * i], &t.tris[3 * i], sizeof(uint16_t) * 3u);
        m.count[i] = 3;
        m.parent[i] = (uint16_t)i;
    }
    if (max_verts > 3) {
        for (uint32_t k = 0; k < t.diag_count; ++k) {
            const uint16_t* g = &t.diags[4 * k];
            uint64_t len = distance_sq(&verts[g[2]], &verts[g[3]]);
            keys[k] = len << 32 | (uint32_t)(UINT32_MAX - k); // ties: earlier first
        }
        sort_descending(keys, t.diag_count);
        for (uint32_t k = 0; k < t.diag_count; ++k) {
            const uint16_t* g = &t.diags[4 * (UINT32_MAX - (uint32_t)keys[k])];
            try_merge(&m, g[0], g[1], g[2], g[3]);
        }
    }

    for (uint32_t i = 0; i < n; ++i) {
        global[i] = NO_INDEX;
    }
    for (uint32_t i = 0; i < tc; ++i) {
        if (m.parent[i] != i) {
            continue;
        }
        if (out->poly_count == poly_capacity) {
            return WF_ERR_CAPACITY;
        }
        uint16_t* poly = &out->polys[WF_MAX_VERTS_PER_POLY * out->poly_count];
        for (uint32_t k = 0; k < WF_MAX_VERTS_PER_POLY; ++k) {
            poly[k] = WF_NULL_INDEX;
        }
        for (uint32_t k = 0; k < m.count[i]; ++k) {
            uint32_t local = m.verts[WF_MAX_VERTS_PER_POLY * i + k];
            if (global[local] == NO_INDEX) {
                uint32_t g = weld(wd, &verts[local]);
                if (g == NO_INDEX) {
                    return WF_ERR_CAPACITY;
                }
                global[local] = (uint16_t)g;
            }
            poly[k] = global[local];
        }
        out->areas[out->poly_count++] = area;
    }
    return WF_OK;
}

wf_status wf_layer_polymesh_build(const wf_layer_contours* contours, const uint8_t* region_areas,
                                  uint32_t max_verts_per_poly, wf_arena* arena,
                                  wf_layer_polymesh* out) {
    memset(out, 0, sizeof *out);
    uint32_t total = contours->starts[contours->count];
    uint32_t max_polys = 0;
    for (uint32_t i = 0; i < contours->count; ++i) {
        uint32_t n = contours->starts[i + 1u] - contours->starts[i];
        max_polys += n >= 3u ? n - 2u : 0u;
    }
    // Tile vertex indices are 16-bit: more than 65534 cannot be built.
    uint32_t vert_capacity = total < NO_INDEX - 1u ? total : NO_INDEX - 1u;
    uint32_t bucket_bits = 6;
    while (bucket_bits < 16 && (1u << bucket_bits) < vert_capacity) {
        bucket_bits++;
    }
    welder wd;
    wd.verts = WF_ARENA_ARRAY(arena, wf_polymesh_vertex, vert_capacity > 0 ? vert_capacity : 1u);
    wd.next = WF_ARENA_ARRAY(arena, uint16_t, vert_capacity > 0 ? vert_capacity : 1u);
    wd.buckets = WF_ARENA_ARRAY(arena, uint16_t, (size_t)1u << bucket_bits);
    wd.shift = 32u - bucket_bits;
    wd.count = 0;
    wd.capacity = vert_capacity;
    out->polys = WF_ARENA_ARRAY(arena, uint16_t,
                                (size_t)WF_MAX_VERTS_PER_POLY * (max_polys > 0 ? max_polys : 1u));
    out->areas = WF_ARENA_ARRAY(arena, uint8_t, max_polys > 0 ? max_polys : 1u);
    if (wd.verts == NULL || wd.next == NULL || wd.buckets == NULL || out->polys == NULL ||
        out->areas == NULL) {
        return WF_ERR_CAPACITY;
    }
    memset(wd.buckets, 0xff, sizeof(uint16_t) << bucket_bits);
    for (uint32_t i = 0; i < contours->count; ++i) {
        uint32_t start = contours->starts[i];
        uint32_t n = contours->starts[i + 1u] - start;
        if (n < 3u) {
            continue;
        }
        wf_arena_mark mark = wf_arena_get_mark(arena);
        wf_status s = add_contour(&contours->verts[start], n, region_areas[i], max_verts_per_poly,
                                  &wd, out, max_polys, arena);
        wf_arena_reset_to(arena, mark);
        if (s != WF_OK) {
            return s;
        }
    }
    out->verts = wd.verts;
    out->vert_count = wd.count;
    return WF_OK;
}

static size_t mesh_vert_bound(uint32_t width, uint32_t depth) {
    size_t v = wf_layer_contours_max_verts(width, depth);
    return v < NO_INDEX - 1u ? v : NO_INDEX - 1u;
}

size_t wf_layer_polymesh_kept_size(uint32_t width, uint32_t depth) {
    size_t verts = mesh_vert_bound(width, depth);
    size_t buckets = 64;
    while (buckets < 65536u && buckets < verts) {
        buckets *= 2u;
    }
    // A region of A cells has at most 2A + 2 outline vertices, so at most
    // 2A triangles: 2 polygons per cell in all.
    size_t polys = 2u * (size_t)width * depth;
    return verts * (sizeof(wf_polymesh_vertex) + 2u) + buckets * 2u +
           polys * (WF_MAX_VERTS_PER_POLY * 2u + 1u) + 5u * WF_SCRATCH_ALIGN_SLACK;
}

size_t wf_layer_polymesh_temp_size(uint32_t width, uint32_t depth) {
    // One contour at a time, of at most 2 * cells + 2 vertices.
    size_t n = 2u * (size_t)width * depth + 2u;
    n = n < NO_INDEX ? n : NO_INDEX;
    size_t clip = n * (2u + 2u + 1u + 4u + 2u + 2u + 2u) + 3u * 2u * n + 4u * 2u * n + 2u * n;
    size_t merge = n * (WF_MAX_VERTS_PER_POLY * 2u + 1u + 2u) + n * sizeof(uint64_t);
    return clip + merge + 14u * WF_SCRATCH_ALIGN_SLACK;
}
