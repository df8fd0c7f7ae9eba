// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Compact heightfield -> 2D layers: a sweep partitions the tile's walkable
// spans into monotone regions, a flood fill groups regions that never share
// a column, close groups merge, and each group is written as one layer.
#include <stdlib.h>
#include <string.h>

#include "navcore/check.h"
#include "tilecache/layer.h"

/// Region (and group) id of a span that belongs to none (unwalkable, border).
/// Ids are 32-bit: a tile has at most one region per walkable span, and a
/// tile of stacked fragmented floors can have more than 65535 of those.
#define NO_REGION 0xffffffffu
/// The layer index is one byte of the serialized header (layer_format.c).
#define MAX_LAYERS 256u
/// Cell heights are bytes above hmin and 0xff marks an empty cell, so a
/// layer spans at most this many cell-height units.
#define MAX_LAYER_RANGE ((int32_t)WF_LAYER_EMPTY - 1)
/// Whole layers merge when the vertical gap between their height ranges is
/// at most this many agent heights: fewer, larger layers mean fewer tiles to
/// cache and rebuild (the factor Recast's layer builder uses).
#define MERGE_GAP_AGENT_HEIGHTS 4
/// Most bytes an arena allocation can lose to alignment here.
#define ALIGN_SLACK 16u
/// Neighbour lists up to this long are sorted by insertion, longer by qsort.
#define SMALL_SORT 16u

// Regions and groups keep no neighbour or overlap sets (those are quadratic
// in the region count): neighbours are listed from a region's cells when the
// flood reaches it, and "shares a column with" is answered by walking the
// columns of the smaller side and reading the other spans' groups. Memory
// is linear in the walkable spans (wf_layers_build_scratch_size).

typedef struct region {
    uint16_t ymin, ymax;
    uint32_t group;    ///< NO_REGION until the flood takes it
    uint32_t next;     ///< next member of its group, NO_REGION ends
    uint32_t seen;     ///< 1 + the region whose neighbour list holds it
    uint32_t rejected; ///< 1 + the group whose flood could not take it (for good)
} region;

/// A set of regions that will become one layer.
typedef struct group {
    uint16_t ymin, ymax;
    uint32_t first_region; ///< lowest member id: the tie-break of the layer order
    uint32_t head, tail;   ///< member list, in the order they joined
    uint32_t cells;        ///< cells of all members
    uint32_t next_live;    ///< next group not absorbed, in id order
    uint32_t incompatible; ///< 1 + the group it can never merge into
    uint32_t layer;
    bool absorbed; ///< merged into another group
} group;

/// A run of connected spans along one row, the unit of the sweep.
typedef struct sweep {
    uint32_t below;      ///< region on the previous row (-z) its links go to
    uint32_t region;     ///< final region id
    uint16_t links;      ///< -z links into `below`
    uint16_t ymin, ymax; ///< floor heights of its spans
    bool mixed;          ///< links into two different regions
} sweep;

typedef struct split {
    const wf_compact_heightfield* chf;
    int32_t x0, z0, x1, z1; ///< tile cells [x0, x1) x [z0, z1), border excluded
    uint32_t* span_region;  ///< per span; sweep id while its row is swept, layer at the end
    uint32_t* links;        ///< 4 per span, walkable spans of the tile only: linked_span
    uint32_t max_regions;   ///< spans in the field: at most one region each
    region* regions;
    uint32_t region_count;
    uint32_t* region_first; ///< region_count + 1: region r's cells are [first[r], first[r + 1])
    uint32_t* region_cells; ///< field cell of each region span, grouped by region, row order
    group* groups;
    uint32_t group_count;
    uint32_t* queue;      ///< flood queue
    uint32_t* neighbours; ///< one region's neighbour list
} split;

// The span that span s of cell c = (x, z) connects to in direction dir, or
// WF_NO_SPAN; links that leave the grid or the neighbour cell are ignored.
static uint32_t linked_span(const wf_compact_heightfield* chf, size_t c, int32_t x, int32_t z,
                            uint32_t s, int dir) {
    uint32_t con = wf_compact_get_con(&chf->spans[s], dir);
    if (con == WF_NOT_CONNECTED) {
        return WF_NO_SPAN;
    }
    int32_t nx = x + wf_dir_dx[dir];
    int32_t nz = z + wf_dir_dz[dir];
    if (nx < 0 || nz < 0 || nx >= chf->width || nz >= chf->depth) {
        return WF_NO_SPAN;
    }
    size_t cell = c + (size_t)wf_dir_dx[dir] + (size_t)((ptrdiff_t)wf_dir_dz[dir] * chf->width);
    if (con >= chf->cell_count[cell]) {
        return WF_NO_SPAN;
    }
    return chf->cell_index[cell] + con;
}

/// Span k of `cell`, or WF_NO_SPAN when the cell has no such span (a link
/// field of WF_NOT_CONNECTED is never below a cell's count).
static inline uint32_t link_in_cell(const uint32_t* cell_index, const uint8_t* cell_count,
                                    size_t cell, uint32_t k) {
    return k < cell_count[cell] ? cell_index[cell] + k : WF_NO_SPAN;
}

// Every walkable span of the tile is linked (partition), listed (neighbour
// lists) and written (its layer's cons), each asking for its four linked
// spans: checked once here into a table, then read three times.
static void link_table(split* sp) {
    const wf_compact_heightfield* chf = sp->chf;
    // In locals: the table's stores are uint32_t, which may alias chf's
    // int32_t fields (width, depth), so those would be reloaded.
    const int32_t width = chf->width, depth = chf->depth;
    const ptrdiff_t w = width;
    const uint32_t* cell_index = chf->cell_index;
    const uint8_t* cell_count = chf->cell_count;
    const uint8_t* areas = chf->areas;
    const wf_compact_span* spans = chf->spans;
    uint32_t* links = sp->links;
    const int32_t x0 = sp->x0, z0 = sp->z0, x1 = sp->x1, z1 = sp->z1;
    for (int32_t z = z0; z < z1; ++z) {
        const bool edge_row = z == 0 || z == depth - 1;
        for (int32_t x = x0; x < x1; ++x) {
            size_t c = (size_t)x + (size_t)z * (size_t)width;
            uint32_t first = cell_index[c];
            uint32_t end = first + cell_count[c];
            // Away from the grid's edge every neighbour cell exists: only
            // the link's index in it is checked.
            bool edge = edge_row || x == 0 || x == width - 1;
            for (uint32_t s = first; s < end; ++s) {
                if (areas[s] == WF_AREA_NULL) {
                    continue;
                }
                uint32_t* out = &links[4u * (size_t)s];
                if (edge) {
                    for (int dir = 0; dir < WF_DIR_COUNT; ++dir) {
                        out[dir] = linked_span(chf, c, x, z, s, dir);
                    }
                    continue;
                }
                // Unrolled: constant shifts and offsets (gcc -O2 keeps the
                // loop, with a variable shift per direction).
                const uint32_t con = spans[s].con;
                out[0] = link_in_cell(cell_index, cell_count, c - 1, con & 0x3fu);
                out[1] = link_in_cell(cell_index, cell_count, c + (size_t)w, (con >> 6) & 0x3fu);
                out[2] = link_in_cell(cell_index, cell_count, c + 1, (con >> 12) & 0x3fu);
                out[3] = link_in_cell(cell_index, cell_count, c - (size_t)w, (con >> 18) & 0x3fu);
            }
        }
    }
}

static size_t cell_of(const wf_compact_heightfield* chf, int32_t x, int32_t z) {
    return (size_t)x + (size_t)z * (size_t)chf->width;
}

static bool range_fits(uint16_t amin, uint16_t amax, uint16_t bmin, uint16_t bmax) {
    int32_t lo = amin < bmin ? amin : bmin;
    int32_t hi = amax > bmax ? amax : bmax;
    return hi - lo <= MAX_LAYER_RANGE;
}

/// The sweep's arrays; region_first, region_ymin and region_ymax (indexed by
/// region id) outlive it: it counts each region's cells into
/// region_first[r + 1] and keeps its height range.
typedef struct partition_scratch {
    sweep* sweeps;       ///< one per span of the longest row
    uint32_t* touched;   ///< regions links_into counts this row, to clear
    uint32_t* row_spans; ///< the row's walkable spans in sweep order, to relabel
    uint32_t* links_into;
    uint16_t* region_ymin;
    uint16_t* region_ymax;
} partition_scratch;

// Classic monotone partition: along each row, a span continues the sweep of
// its -x neighbour; at the end of the row a sweep whose -z links all go to one
// region, which no other sweep of the row touches, continues that region.
// Sweeps and regions also stop growing where their height range would no
// longer fit a layer, so no single region is too tall to store. Every region
// starts from a sweep of at least one walkable span: at most max_regions.
static void partition(split* sp, const partition_scratch* ps) {
    const wf_compact_heightfield* chf = sp->chf;
    sweep* sweeps = ps->sweeps;
    uint32_t* links_into = ps->links_into;
    uint16_t* region_ymin = ps->region_ymin;
    uint16_t* region_ymax = ps->region_ymax;
    uint32_t* cell_count = sp->region_first + 1;
    for (uint32_t r = 0; r < sp->max_regions; ++r) {
        links_into[r] = 0;
        cell_count[r] = 0;
    }
    // In locals: the uint32_t and uint16_t stores below may alias the
    // int32_t and uint32_t fields of chf and sp, which would be reloaded.
    const uint32_t* cell_index = chf->cell_index;
    const uint8_t* cells = chf->cell_count;
    const uint8_t* areas = chf->areas;
    const wf_compact_span* spans = chf->spans;
    const uint32_t* links = sp->links;
    uint32_t* span_region = sp->span_region;
    uint32_t* touched_regions = ps->touched;
    uint32_t* row_spans = ps->row_spans;
    const size_t field_width = (size_t)chf->width;
    const int32_t x0 = sp->x0, z0 = sp->z0, x1 = sp->x1, z1 = sp->z1;
    uint32_t region_count = sp->region_count;
    for (int32_t z = z0; z < z1; ++z) {
        uint32_t touched = 0;
        uint32_t sweep_count = 0;
        uint32_t row_count = 0;
        for (int32_t x = x0; x < x1; ++x) {
            size_t c = (size_t)x + (size_t)z * field_width;
            uint32_t first = cell_index[c];
            uint32_t end = first + cells[c];
            for (uint32_t s = first; s < end; ++s) {
                if (areas[s] == WF_AREA_NULL) {
                    continue;
                }
                uint16_t y = spans[s].y;
                uint32_t id = NO_REGION;
                uint32_t left = links[4u * (size_t)s];
                if (left != WF_NO_SPAN && span_region[left] != NO_REGION) {
                    id = span_region[left];
                    if (!range_fits(sweeps[id].ymin, sweeps[id].ymax, y, y)) {
                        id = NO_REGION;
                    }
                    // A sweep holds one span per cell, so a region never
                    // overlaps itself even when two spans link to one.
                    for (uint32_t t = first; t < s; ++t) {
                        if (span_region[t] == id) {
                            id = NO_REGION;
                        }
                    }
                }
                if (id == NO_REGION) {
                    id = sweep_count++;
                    sweeps[id] = (sweep){NO_REGION, NO_REGION, 0, y, y, false};
                }
                sweep* sw = &sweeps[id];
                sw->ymin = y < sw->ymin ? y : sw->ymin;
                sw->ymax = y > sw->ymax ? y : sw->ymax;
                uint32_t back = links[4u * (size_t)s + 3u];
                if (back != WF_NO_SPAN && span_region[back] != NO_REGION) {
                    uint32_t r = span_region[back];
                    if (links_into[r]++ == 0) {
                        touched_regions[touched++] = r;
                    }
                    if (sw->links == 0 && !sw->mixed) {
                        sw->below = r;
                    }
                    if (sw->below == r) {
                        sw->links++;
                    } else {
                        sw->mixed = true;
                    }
                }
                span_region[s] = id;
                row_spans[row_count++] = s;
            }
        }
        for (uint32_t i = 0; i < sweep_count; ++i) {
            sweep* sw = &sweeps[i];
            if (!sw->mixed && sw->links > 0 && links_into[sw->below] == sw->links &&
                range_fits(region_ymin[sw->below], region_ymax[sw->below], sw->ymin, sw->ymax)) {
                sw->region = sw->below;
            } else {
                sw->region = region_count++;
                region_ymin[sw->region] = sw->ymin;
                region_ymax[sw->region] = sw->ymax;
            }
            uint32_t r = sw->region;
            region_ymin[r] = sw->ymin < region_ymin[r] ? sw->ymin : region_ymin[r];
            region_ymax[r] = sw->ymax > region_ymax[r] ? sw->ymax : region_ymax[r];
        }
        for (uint32_t i = 0; i < touched; ++i) {
            links_into[touched_regions[i]] = 0;
        }
        for (uint32_t i = 0; i < row_count; ++i) {
            const uint32_t s = row_spans[i];
            uint32_t r = sweeps[span_region[s]].region;
            span_region[s] = r;
            cell_count[r]++;
        }
    }
    sp->region_count = region_count;
}

// Each region's cells (a counting sort of the tile's cells by region, the
// counts from the sweep; a region holds at most one span per cell).
static void describe_regions(split* sp, const partition_scratch* ps) {
    const wf_compact_heightfield* chf = sp->chf;
    uint32_t* first = sp->region_first;
    for (uint32_t r = 0; r < sp->region_count; ++r) {
        sp->regions[r] =
            (region){ps->region_ymin[r], ps->region_ymax[r], NO_REGION, NO_REGION, 0, 0};
    }
    first[0] = 0;
    for (uint32_t r = 0; r < sp->region_count; ++r) {
        first[r + 1] += first[r];
    }
    // Fill moving each start up to the next region's, then shift back
    // (arrays in locals, as in partition).
    const uint32_t* cell_index = chf->cell_index;
    const uint8_t* cells = chf->cell_count;
    const uint32_t* span_region = sp->span_region;
    uint32_t* region_cells = sp->region_cells;
    const size_t field_width = (size_t)chf->width;
    const int32_t x0 = sp->x0, z0 = sp->z0, x1 = sp->x1, z1 = sp->z1;
    for (int32_t z = z0; z < z1; ++z) {
        for (int32_t x = x0; x < x1; ++x) {
            size_t c = (size_t)x + (size_t)z * field_width;
            uint32_t begin = cell_index[c];
            for (uint32_t s = begin, end = begin + cells[c]; s < end; ++s) {
                uint32_t r = span_region[s];
                if (r != NO_REGION) {
                    region_cells[first[r]++] = (uint32_t)c;
                }
            }
        }
    }
    for (uint32_t r = sp->region_count; r > 0; --r) {
        first[r] = first[r - 1];
    }
    first[0] = 0;
}

static uint32_t region_cell_count(const split* sp, uint32_t r) {
    return sp->region_first[r + 1] - sp->region_first[r];
}

/// Whether a span of another region in one of r's columns belongs to group g.
static bool region_overlaps_group(const split* sp, uint32_t r, uint32_t g) {
    const wf_compact_heightfield* chf = sp->chf;
    for (uint32_t k = sp->region_first[r]; k < sp->region_first[r + 1]; ++k) {
        uint32_t c = sp->region_cells[k];
        uint32_t begin = chf->cell_index[c];
        for (uint32_t t = begin; t < begin + chf->cell_count[c]; ++t) {
            uint32_t other = sp->span_region[t];
            if (other != NO_REGION && other != r && sp->regions[other].group == g) {
                return true;
            }
        }
    }
    return false;
}

/// Whether groups a and b share a column (walks the smaller one).
static bool groups_overlap(const split* sp, uint32_t a, uint32_t b) {
    if (sp->groups[a].cells > sp->groups[b].cells) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    for (uint32_t r = sp->groups[a].head; r != NO_REGION; r = sp->regions[r].next) {
        if (region_overlaps_group(sp, r, b)) {
            return true;
        }
    }
    return false;
}

static void sort_ids(uint32_t* ids, uint32_t count);

/// Adds the region of span n (a link of one of r's spans) to r's neighbour
/// list when it is another region not listed yet; the new count.
static inline uint32_t note_region(const uint32_t* span_region, region* regions,
                                   uint32_t* neighbours, uint32_t count, uint32_t r, uint32_t n) {
    if (n == WF_NO_SPAN) {
        return count;
    }
    uint32_t nr = span_region[n];
    if (nr != NO_REGION && nr != r && regions[nr].seen != r + 1u) {
        regions[nr].seen = r + 1u;
        neighbours[count++] = nr;
    }
    return count;
}

/// Regions connected to r across a cell edge, ascending, into sp->neighbours.
static uint32_t list_neighbours(split* sp, uint32_t r) {
    // Arrays in locals: the uint32_t stores may alias sp's uint32_t fields.
    const uint32_t* cell_index = sp->chf->cell_index;
    const uint32_t* span_region = sp->span_region;
    const uint32_t* links = sp->links;
    const uint32_t* region_cells = sp->region_cells;
    region* regions = sp->regions;
    uint32_t* neighbours = sp->neighbours;
    uint32_t count = 0;
    for (uint32_t k = sp->region_first[r], end = sp->region_first[r + 1]; k < end; ++k) {
        uint32_t s = cell_index[region_cells[k]];
        while (span_region[s] != r) {
            ++s;
        }
        // Unrolled over the four directions, as in write_span.
        const uint32_t* span_links = &links[4u * (size_t)s];
        count = note_region(span_region, regions, neighbours, count, r, span_links[0]);
        count = note_region(span_region, regions, neighbours, count, r, span_links[1]);
        count = note_region(span_region, regions, neighbours, count, r, span_links[2]);
        count = note_region(span_region, regions, neighbours, count, r, span_links[3]);
    }
    sort_ids(neighbours, count);
    return count;
}

static int compare_ids(const void* a, const void* b) {
    uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
    return (x > y) - (x < y);
}

static void sort_ids(uint32_t* ids, uint32_t count) {
    if (count > SMALL_SORT) {
        qsort(ids, count, sizeof *ids, compare_ids);
        return;
    }
    for (uint32_t i = 1; i < count; ++i) {
        uint32_t v = ids[i], k = i;
        for (; k > 0 && ids[k - 1] > v; --k) {
            ids[k] = ids[k - 1];
        }
        ids[k] = v;
    }
}

static void add_member(split* sp, uint32_t g, uint32_t r) {
    group* gr = &sp->groups[g];
    region* reg = &sp->regions[r];
    reg->group = g;
    reg->next = NO_REGION;
    if (gr->tail == NO_REGION) {
        gr->head = r;
    } else {
        sp->regions[gr->tail].next = r;
    }
    gr->tail = r;
    gr->cells += region_cell_count(sp, r);
    gr->ymin = reg->ymin < gr->ymin ? reg->ymin : gr->ymin;
    gr->ymax = reg->ymax > gr->ymax ? reg->ymax : gr->ymax;
}

// Breadth-first flood from each unassigned region (in id order) through its
// neighbours (in id order), taking a region only if it shares no column
// with the group and keeps the group's height range storable. A group only
// grows, so a region it once refused it refuses for good: `rejected`
// spares the column walk next time.
static void grow_groups(split* sp) {
    for (uint32_t root = 0; root < sp->region_count; ++root) {
        if (sp->regions[root].group != NO_REGION) {
            continue;
        }
        uint32_t gi = sp->group_count++;
        group* g = &sp->groups[gi];
        *g = (group){0xffffu, 0, root, NO_REGION, NO_REGION, 0, NO_REGION, 0, 0, false};
        add_member(sp, gi, root);
        uint32_t head = 0, tail = 0;
        sp->queue[tail++] = root;
        while (head < tail) {
            uint32_t count = list_neighbours(sp, sp->queue[head++]);
            for (uint32_t i = 0; i < count; ++i) {
                uint32_t n = sp->neighbours[i];
                region* nb = &sp->regions[n];
                if (nb->group != NO_REGION || nb->rejected == gi + 1u) {
                    continue;
                }
                if (!range_fits(g->ymin, g->ymax, nb->ymin, nb->ymax) ||
                    region_overlaps_group(sp, n, gi)) {
                    nb->rejected = gi + 1u;
                    continue;
                }
                add_member(sp, gi, n);
                sp->queue[tail++] = n;
            }
        }
    }
}

// Greedy merge of whole groups that are close in height, share no column
// and stay within the storable range (they need not touch). After each merge
// the search starts over from the first live group, as closeness can appear
// when a range widens; a column shared or a range too tall never goes away,
// so those pairs are marked and not tested again.
static void merge_groups(split* sp, int32_t walkable_height) {
    int64_t gap = MERGE_GAP_AGENT_HEIGHTS * (int64_t)walkable_height;
    for (uint32_t g = 0; g < sp->group_count; ++g) {
        sp->groups[g].next_live = g + 1 < sp->group_count ? g + 1 : NO_REGION;
    }
    uint32_t live_head = sp->group_count > 0 ? 0 : NO_REGION;
    for (uint32_t i = 0; i < sp->group_count; ++i) {
        group* gi = &sp->groups[i];
        if (gi->absorbed) {
            continue;
        }
        for (;;) {
            uint32_t found = NO_REGION, prev = NO_REGION;
            for (uint32_t j = live_head; j != NO_REGION; prev = j, j = sp->groups[j].next_live) {
                group* gj = &sp->groups[j];
                if (j == i || gj->incompatible == i + 1u) {
                    continue;
                }
                bool close = gj->ymin <= gi->ymax + gap && gi->ymin <= gj->ymax + gap;
                if (!close) {
                    continue;
                }
                if (!range_fits(gi->ymin, gi->ymax, gj->ymin, gj->ymax) ||
                    groups_overlap(sp, i, j)) {
                    gj->incompatible = i + 1u;
                    continue;
                }
                found = j;
                break;
            }
            if (found == NO_REGION) {
                break;
            }
            group* gj = &sp->groups[found];
            if (prev == NO_REGION) {
                live_head = gj->next_live;
            } else {
                sp->groups[prev].next_live = gj->next_live;
            }
            for (uint32_t r = gj->head; r != NO_REGION; r = sp->regions[r].next) {
                sp->regions[r].group = i;
            }
            sp->regions[gi->tail].next = gj->head;
            gi->tail = gj->tail;
            gi->cells += gj->cells;
            gi->ymin = gj->ymin < gi->ymin ? gj->ymin : gi->ymin;
            gi->ymax = gj->ymax > gi->ymax ? gj->ymax : gi->ymax;
            gi->first_region =
                gj->first_region < gi->first_region ? gj->first_region : gi->first_region;
            gj->absorbed = true;
        }
    }
}

typedef struct layer_key {
    uint16_t ymin;
    uint32_t first_region;
    uint32_t group;
} layer_key;

static int compare_layer_keys(const void* a, const void* b) {
    const layer_key* x = a;
    const layer_key* y = b;
    if (x->ymin != y->ymin) {
        return x->ymin < y->ymin ? -1 : 1;
    }
    // Groups have disjoint members: first_region never ties, the order is total.
    return (x->first_region > y->first_region) - (x->first_region < y->first_region);
}

// Live groups ordered by (ymin, lowest region) become layers 0, 1, ...; each
// span's region id is replaced by its layer.
static wf_status order_layers(split* sp, uint16_t* layer_hmin, uint32_t* out_count) {
    layer_key keys[MAX_LAYERS];
    uint32_t count = 0;
    for (uint32_t g = 0; g < sp->group_count; ++g) {
        if (sp->groups[g].absorbed) {
            continue;
        }
        if (count == MAX_LAYERS) {
            return WF_ERR_CAPACITY;
        }
        keys[count++] = (layer_key){sp->groups[g].ymin, sp->groups[g].first_region, g};
    }
    qsort(keys, count, sizeof *keys, compare_layer_keys);
    for (uint32_t l = 0; l < count; ++l) {
        layer_hmin[l] = keys[l].ymin;
        sp->groups[keys[l].group].layer = l;
    }
    // Arrays in locals, as in partition.
    const wf_compact_heightfield* chf = sp->chf;
    const uint32_t* cell_index = chf->cell_index;
    const uint8_t* cells = chf->cell_count;
    uint32_t* span_region = sp->span_region;
    const region* regions = sp->regions;
    const group* groups = sp->groups;
    const size_t field_width = (size_t)chf->width;
    const int32_t x0 = sp->x0, z0 = sp->z0, x1 = sp->x1, z1 = sp->z1;
    for (int32_t z = z0; z < z1; ++z) {
        for (int32_t x = x0; x < x1; ++x) {
            size_t c = (size_t)x + (size_t)z * field_width;
            uint32_t begin = cell_index[c];
            for (uint32_t s = begin, end = begin + cells[c]; s < end; ++s) {
                uint32_t r = span_region[s];
                if (r != NO_REGION) {
                    span_region[s] = groups[regions[r].group].layer;
                }
            }
        }
    }
    *out_count = count;
    return WF_OK;
}

/// What write_span reads, in locals: the layer stores are bytes, which may
/// alias any field of sp, chf or the layer, so through the structs every
/// pointer would be reloaded after each store.
typedef struct span_writer {
    const wf_compact_span* spans;
    const uint8_t* areas;
    const uint32_t* links;
    const uint32_t* span_region;
    int32_t x0, z0;
} span_writer;

/// One direction of write_span: a link within the layer (bit 1 << dir), or
/// a portal to another layer (bit 0x10 << dir), whose floor then raises the
/// stored height so the portal edge keeps its step.
static inline void note_neighbour(const span_writer* wr, uint32_t n, uint32_t l, int32_t hmin,
                                  int dir, uint32_t* cons, int32_t* h) {
    if (n == WF_NO_SPAN || wr->areas[n] == WF_AREA_NULL) {
        return;
    }
    if (wr->span_region[n] == l) {
        *cons |= 1u << dir;
    } else {
        *cons |= 0x10u << dir;
        int32_t nh = (int32_t)wr->spans[n].y - hmin;
        *h = nh > *h ? nh : *h;
    }
}

static void write_span(const span_writer* wr, wf_layer* layers, uint8_t* tops, int32_t x, int32_t z,
                       uint32_t s) {
    const uint32_t l = wr->span_region[s];
    wf_layer* layer = &layers[l];
    const size_t idx = (size_t)(x - wr->x0) + (size_t)(z - wr->z0) * layer->width;
    const int32_t hmin = (int32_t)layer->hmin;
    int32_t h = (int32_t)wr->spans[s].y - hmin;
    const uint32_t* links = &wr->links[4u * (size_t)s];
    // Unrolled, so each direction's bits are constants.
    uint32_t cons = 0;
    note_neighbour(wr, links[0], l, hmin, 0, &cons, &h);
    note_neighbour(wr, links[1], l, hmin, 1, &cons, &h);
    note_neighbour(wr, links[2], l, hmin, 2, &cons, &h);
    note_neighbour(wr, links[3], l, hmin, 3, &cons, &h);
    uint8_t* heights = layer->heights;
    uint8_t* areas = layer->areas;
    uint8_t* layer_cons = layer->cons;
    const uint8_t stored = (uint8_t)(h < MAX_LAYER_RANGE ? h : MAX_LAYER_RANGE);
    heights[idx] = stored;
    tops[l] = stored > tops[l] ? stored : tops[l];
    areas[idx] = wr->areas[s];
    layer_cons[idx] = (uint8_t)cons;
}

static wf_status write_layers(const split* sp, wf_arena* arena, int32_t tile_x, int32_t tile_z,
                              const uint16_t* layer_hmin, uint32_t count, wf_layer_set* out) {
    const wf_compact_heightfield* chf = sp->chf;
    uint32_t width = (uint32_t)(sp->x1 - sp->x0);
    uint32_t depth = (uint32_t)(sp->z1 - sp->z0);
    size_t cells = (size_t)width * depth;
    wf_layer* layers = WF_ARENA_ARRAY(arena, wf_layer, count);
    if (layers == NULL) {
        return WF_ERR_CAPACITY;
    }
    for (uint32_t l = 0; l < count; ++l) {
        uint8_t* data = wf_arena_alloc(arena, 3u * cells, 16u);
        if (data == NULL) {
            return WF_ERR_CAPACITY;
        }
        wf_layer* layer = &layers[l];
        memset(layer, 0, sizeof *layer);
        layer->tile_x = tile_x;
        layer->tile_z = tile_z;
        layer->layer = (int32_t)l;
        layer->width = width;
        layer->depth = depth;
        layer->cs = chf->cs;
        layer->ch = chf->ch;
        layer->hmin = layer_hmin[l];
        layer->heights = data;
        layer->areas = data + cells;
        layer->cons = data + 2u * cells;
        memset(layer->heights, WF_LAYER_EMPTY, cells);
        memset(layer->areas, WF_AREA_NULL, cells);
        memset(layer->cons, 0, cells);
    }
    const span_writer wr = {chf->spans, chf->areas, sp->links, sp->span_region, sp->x0, sp->z0};
    const uint32_t* cell_index = chf->cell_index;
    const uint8_t* cell_count = chf->cell_count;
    const size_t field_width = (size_t)chf->width;
    const int32_t x0 = sp->x0, z0 = sp->z0, x1 = sp->x1, z1 = sp->z1;
    // Each layer's highest stored height, kept as the spans are written
    // (no stored height is WF_LAYER_EMPTY: they stop at MAX_LAYER_RANGE).
    uint8_t tops[MAX_LAYERS] = {0};
    for (int32_t z = z0; z < z1; ++z) {
        for (int32_t x = x0; x < x1; ++x) {
            size_t c = (size_t)x + (size_t)z * field_width;
            uint32_t first = cell_index[c], end = first + cell_count[c];
            for (uint32_t s = first; s < end; ++s) {
                if (wr.span_region[s] != NO_REGION) {
                    write_span(&wr, layers, tops, x, z, s);
                }
            }
        }
    }
    for (uint32_t l = 0; l < count; ++l) {
        wf_layer* layer = &layers[l];
        // hmax covers what is stored, portal heights included.
        layer->hmax = (uint16_t)(layer->hmin + tops[l]);
        layer->bmin[0] = chf->bmin[0] + (float)chf->border * chf->cs;
        layer->bmin[1] = chf->bmin[1];
        layer->bmin[2] = chf->bmin[2] + (float)chf->border * chf->cs;
        layer->bmax[0] = layer->bmin[0] + (float)width * chf->cs;
        layer->bmax[1] = chf->bmin[1] + (float)layer->hmax * chf->ch;
        layer->bmax[2] = layer->bmin[2] + (float)depth * chf->cs;
    }
    out->layers = layers;
    out->count = count;
    return WF_OK;
}

// Cells must own disjoint runs of the span array, in cell order (the
// compact build lays them out so); anything else is rejected up front.
static bool cells_valid(const wf_compact_heightfield* chf) {
    size_t cells = (size_t)chf->width * (size_t)chf->depth;
    uint32_t end = 0;
    for (size_t c = 0; c < cells; ++c) {
        uint32_t first = chf->cell_index[c];
        uint32_t count = chf->cell_count[c];
        if (count == 0) {
            continue;
        }
        if (first < end || first > chf->span_count || count > chf->span_count - first) {
            return false;
        }
        end = first + count;
    }
    return true;
}

wf_status wf_layers_build(const wf_compact_heightfield* chf, wf_arena* arena, int32_t tile_x,
                          int32_t tile_z, int32_t walkable_height, wf_layer_set* out) {
    WF_CHECK_ARG(out != NULL);
    out->layers = NULL;
    out->count = 0;
    WF_CHECK_ARG(chf != NULL && arena != NULL && walkable_height >= 0);
    int64_t tile_width = (int64_t)chf->width - 2 * (int64_t)chf->border;
    int64_t tile_depth = (int64_t)chf->depth - 2 * (int64_t)chf->border;
    WF_CHECK_ARG(chf->border >= 0 && tile_width >= 1 && tile_depth >= 1);
    WF_CHECK_ARG(tile_width <= WF_LAYER_MAX_SIZE && tile_depth <= WF_LAYER_MAX_SIZE);
    WF_CHECK_ARG(chf->cell_index != NULL && chf->cell_count != NULL);
    WF_CHECK_ARG(chf->span_count == 0 || (chf->spans != NULL && chf->areas != NULL));
    // A field with a link table came from a compact builder, whose cell
    // ranges tile the span array by construction; a hand-filled one is
    // checked.
    if (chf->links == NULL && !cells_valid(chf)) {
        return WF_ERR_BAD_DATA;
    }

    split sp = {.chf = chf,
                .x0 = chf->border,
                .z0 = chf->border,
                .x1 = chf->width - chf->border,
                .z1 = chf->depth - chf->border};
    // A row has at most one sweep per span in it.
    size_t max_row_spans = 1;
    for (int32_t z = sp.z0; z < sp.z1; ++z) {
        size_t row = 0;
        for (int32_t x = sp.x0; x < sp.x1; ++x) {
            row += chf->cell_count[cell_of(chf, x, z)];
        }
        max_row_spans = row > max_row_spans ? row : max_row_spans;
    }
    sp.max_regions = chf->span_count;

    wf_arena_mark start = wf_arena_get_mark(arena);
    sp.span_region = WF_ARENA_ARRAY(arena, uint32_t, chf->span_count);
    if (sp.span_region == NULL && chf->span_count > 0) {
        return WF_ERR_CAPACITY;
    }
    for (uint32_t s = 0; s < chf->span_count; ++s) {
        sp.span_region[s] = NO_REGION;
    }
    if (chf->links != NULL) {
        sp.links = chf->links; // the compact build's table: the same links
    } else {
        sp.links = WF_ARENA_ARRAY(arena, uint32_t, 4u * (size_t)chf->span_count);
        if (sp.links == NULL && chf->span_count > 0) {
            wf_arena_reset_to(arena, start);
            return WF_ERR_CAPACITY;
        }
        link_table(&sp);
    }
    // The region bookkeeping is scratch, released before the layers are
    // allocated; only the per-span ids (layers by then) stay in the arena.
    // Of the sweep's arrays, the per-region counts and ranges stay for the
    // grouping; the rest makes way for the per-region arrays.
    wf_arena_mark scratch = wf_arena_get_mark(arena);
    size_t regions = (size_t)sp.max_regions + 1u;
    partition_scratch ps;
    sp.region_first = WF_ARENA_ARRAY(arena, uint32_t, regions);
    ps.region_ymin = WF_ARENA_ARRAY(arena, uint16_t, regions);
    ps.region_ymax = WF_ARENA_ARRAY(arena, uint16_t, regions);
    wf_arena_mark sweep_mark = wf_arena_get_mark(arena);
    ps.sweeps = WF_ARENA_ARRAY(arena, sweep, max_row_spans);
    ps.touched = WF_ARENA_ARRAY(arena, uint32_t, max_row_spans);
    ps.row_spans = WF_ARENA_ARRAY(arena, uint32_t, max_row_spans);
    ps.links_into = WF_ARENA_ARRAY(arena, uint32_t, regions);
    if (sp.region_first == NULL || ps.region_ymin == NULL || ps.region_ymax == NULL ||
        ps.sweeps == NULL || ps.touched == NULL || ps.row_spans == NULL || ps.links_into == NULL) {
        wf_arena_reset_to(arena, start);
        return WF_ERR_CAPACITY;
    }
    partition(&sp, &ps);
    wf_arena_reset_to(arena, sweep_mark);
    regions = (size_t)sp.region_count + 1u;
    sp.regions = WF_ARENA_ARRAY(arena, region, regions);
    sp.region_cells = WF_ARENA_ARRAY(arena, uint32_t, (size_t)sp.max_regions + 1u);
    sp.groups = WF_ARENA_ARRAY(arena, group, regions);
    sp.queue = WF_ARENA_ARRAY(arena, uint32_t, regions);
    sp.neighbours = WF_ARENA_ARRAY(arena, uint32_t, regions);
    if (sp.regions == NULL || sp.region_cells == NULL || sp.groups == NULL || sp.queue == NULL ||
        sp.neighbours == NULL) {
        wf_arena_reset_to(arena, start);
        return WF_ERR_CAPACITY;
    }
    describe_regions(&sp, &ps);
    grow_groups(&sp);
    merge_groups(&sp, walkable_height);
    uint16_t layer_hmin[MAX_LAYERS];
    uint32_t count = 0;
    wf_status st = order_layers(&sp, layer_hmin, &count);
    wf_arena_reset_to(arena, scratch);
    if (st != WF_OK || count == 0) {
        wf_arena_reset_to(arena, start);
        return st;
    }
    st = write_layers(&sp, arena, tile_x, tile_z, layer_hmin, count, out);
    if (st != WF_OK) {
        out->layers = NULL;
        out->count = 0;
        wf_arena_reset_to(arena, start);
    }
    return st;
}

static size_t max_size(size_t a, size_t b) { return a > b ? a : b; }

size_t wf_layers_build_scratch_size(uint32_t span_count) {
    // Every span its own region and one row holding them all: the ids, the
    // link table, the per-region counts and ranges, then the rest of the sweep's arrays or
    // the per-region ones (see wf_layers_build).
    size_t n = (size_t)span_count + 1u;
    size_t kept = n * (6u * sizeof(uint32_t) + 2u * sizeof(uint16_t)) + 5u * ALIGN_SLACK;
    size_t sweep_phase = n * (sizeof(sweep) + 3u * sizeof(uint32_t)) + 4u * ALIGN_SLACK;
    size_t region_phase =
        n * (sizeof(region) + sizeof(group) + 3u * sizeof(uint32_t)) + 5u * ALIGN_SLACK;
    return kept + max_size(sweep_phase, region_phase);
}
