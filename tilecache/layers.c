// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Compact heightfield -> 2D layers: a sweep partitions the tile's walkable
// spans into monotone regions, a flood fill groups regions that never share
// a column, close groups merge, and each group is written as one layer.
#include <string.h>

#include "navcore/check.h"
#include "tilecache/layer.h"

/// Region id of a span that belongs to no region (unwalkable, border).
#define NO_REGION 0xffffu
/// Region ids index 256-bit sets and byte maps; 0xff stays free for "none".
#define MAX_REGIONS 255u
/// Cell heights are bytes above hmin and 0xff marks an empty cell, so a
/// layer spans at most this many cell-height units.
#define MAX_LAYER_RANGE ((int32_t)WF_LAYER_EMPTY - 1)
/// Whole layers merge when the vertical gap between their height ranges is
/// at most this many agent heights: fewer, larger layers mean fewer tiles to
/// cache and rebuild (the factor Recast's layer builder uses).
#define MERGE_GAP_AGENT_HEIGHTS 4

typedef struct region_set {
    uint64_t bits[4];
} region_set;

static void set_add(region_set* s, uint32_t i) { s->bits[i >> 6] |= (uint64_t)1 << (i & 63u); }
static bool set_has(const region_set* s, uint32_t i) {
    return (s->bits[i >> 6] >> (i & 63u)) & 1u;
}
static void set_union(region_set* dst, const region_set* src) {
    for (int i = 0; i < 4; ++i) {
        dst->bits[i] |= src->bits[i];
    }
}
static bool set_intersects(const region_set* a, const region_set* b) {
    for (int i = 0; i < 4; ++i) {
        if (a->bits[i] & b->bits[i]) {
            return true;
        }
    }
    return false;
}

typedef struct region {
    region_set neighbours; ///< regions connected to this one across a cell edge
    region_set overlaps;   ///< regions with a span in one of this region's columns
    uint16_t ymin, ymax;
    uint8_t group;
} region;

/// A set of regions that will become one layer.
typedef struct group {
    region_set members;
    region_set overlaps; ///< union of the members' overlaps
    uint16_t ymin, ymax;
    uint8_t first_region; ///< lowest member id: the tie-break of the layer order
    bool absorbed;        ///< merged into another group
} group;

/// A run of connected spans along one row, the unit of the sweep.
typedef struct sweep {
    uint16_t below;      ///< region on the previous row (-z) its links go to
    uint16_t links;      ///< -z links into `below`
    uint16_t region;     ///< final region id
    uint16_t ymin, ymax; ///< floor heights of its spans
    bool mixed;          ///< links into two different regions
} sweep;

typedef struct split {
    const wf_compact_heightfield* chf;
    int32_t x0, z0, x1, z1; ///< tile cells [x0, x1) x [z0, z1), border excluded
    uint16_t* span_region;  ///< per span; sweep id while its row is swept
    region* regions;
    uint32_t region_count;
    group* groups;
    uint32_t group_count;
} split;

static bool walkable(const wf_compact_heightfield* chf, uint32_t s) {
    return chf->areas[s] != WF_AREA_NULL;
}

// The span that span s of cell (x, z) connects to in direction dir, or
// WF_NO_SPAN; links that leave the grid or the neighbour cell are ignored.
static uint32_t linked_span(const wf_compact_heightfield* chf, int32_t x, int32_t z, uint32_t s,
                            int dir) {
    uint32_t con = wf_compact_get_con(&chf->spans[s], dir);
    if (con == WF_NOT_CONNECTED) {
        return WF_NO_SPAN;
    }
    int32_t nx = x + wf_dir_dx[dir];
    int32_t nz = z + wf_dir_dz[dir];
    if (nx < 0 || nz < 0 || nx >= chf->width || nz >= chf->depth) {
        return WF_NO_SPAN;
    }
    size_t cell = (size_t)nx + (size_t)nz * (size_t)chf->width;
    if (con >= chf->cell_count[cell]) {
        return WF_NO_SPAN;
    }
    return chf->cell_index[cell] + con;
}

static size_t cell_of(const wf_compact_heightfield* chf, int32_t x, int32_t z) {
    return (size_t)x + (size_t)z * (size_t)chf->width;
}

static bool range_fits(uint16_t amin, uint16_t amax, uint16_t bmin, uint16_t bmax) {
    int32_t lo = amin < bmin ? amin : bmin;
    int32_t hi = amax > bmax ? amax : bmax;
    return hi - lo <= MAX_LAYER_RANGE;
}

// Classic monotone partition: along each row, a span continues the sweep of
// its -x neighbour; at the end of the row a sweep whose -z links all go to one
// region, which no other sweep of the row touches, continues that region.
// Sweeps and regions also stop growing where their height range would no
// longer fit a layer, so no single region is too tall to store.
static wf_status partition(split* sp, sweep* sweeps) {
    const wf_compact_heightfield* chf = sp->chf;
    uint32_t links_into[MAX_REGIONS];
    uint16_t region_ymin[MAX_REGIONS], region_ymax[MAX_REGIONS];
    for (int32_t z = sp->z0; z < sp->z1; ++z) {
        memset(links_into, 0, sizeof links_into);
        uint32_t sweep_count = 0;
        for (int32_t x = sp->x0; x < sp->x1; ++x) {
            size_t c = cell_of(chf, x, z);
            uint32_t first = chf->cell_index[c];
            uint32_t end = first + chf->cell_count[c];
            for (uint32_t s = first; s < end; ++s) {
                if (!walkable(chf, s)) {
                    continue;
                }
                uint16_t y = chf->spans[s].y;
                uint32_t id = NO_REGION;
                uint32_t left = linked_span(chf, x, z, s, 0);
                if (left != WF_NO_SPAN && sp->span_region[left] != NO_REGION) {
                    id = sp->span_region[left];
                    if (!range_fits(sweeps[id].ymin, sweeps[id].ymax, y, y)) {
                        id = NO_REGION;
                    }
                    // A sweep holds one span per cell, so a region never
                    // overlaps itself even when two spans link to one.
                    for (uint32_t t = first; t < s; ++t) {
                        if (sp->span_region[t] == id) {
                            id = NO_REGION;
                        }
                    }
                }
                if (id == NO_REGION) {
                    id = sweep_count++;
                    sweeps[id] = (sweep){NO_REGION, 0, NO_REGION, y, y, false};
                }
                sweep* sw = &sweeps[id];
                sw->ymin = y < sw->ymin ? y : sw->ymin;
                sw->ymax = y > sw->ymax ? y : sw->ymax;
                uint32_t back = linked_span(chf, x, z, s, 3);
                if (back != WF_NO_SPAN && sp->span_region[back] != NO_REGION) {
                    uint16_t r = sp->span_region[back];
                    links_into[r]++;
                    if (sw->links == 0 && !sw->mixed) {
                        sw->below = r;
                    }
                    if (sw->below == r) {
                        sw->links++;
                    } else {
                        sw->mixed = true;
                    }
                }
                sp->span_region[s] = (uint16_t)id;
            }
        }
        for (uint32_t i = 0; i < sweep_count; ++i) {
            sweep* sw = &sweeps[i];
            if (!sw->mixed && sw->links > 0 && links_into[sw->below] == sw->links &&
                range_fits(region_ymin[sw->below], region_ymax[sw->below], sw->ymin, sw->ymax)) {
                sw->region = sw->below;
            } else {
                if (sp->region_count == MAX_REGIONS) {
                    return WF_ERR_CAPACITY;
                }
                sw->region = (uint16_t)sp->region_count++;
                region_ymin[sw->region] = sw->ymin;
                region_ymax[sw->region] = sw->ymax;
            }
            uint16_t r = sw->region;
            region_ymin[r] = sw->ymin < region_ymin[r] ? sw->ymin : region_ymin[r];
            region_ymax[r] = sw->ymax > region_ymax[r] ? sw->ymax : region_ymax[r];
        }
        for (int32_t x = sp->x0; x < sp->x1; ++x) {
            size_t c = cell_of(chf, x, z);
            uint32_t first = chf->cell_index[c];
            for (uint32_t s = first; s < first + chf->cell_count[c]; ++s) {
                if (walkable(chf, s)) {
                    sp->span_region[s] = sweeps[sp->span_region[s]].region;
                }
            }
        }
    }
    return WF_OK;
}

// Height range, neighbours across cell edges and regions sharing a column.
static void describe_regions(split* sp) {
    const wf_compact_heightfield* chf = sp->chf;
    for (uint32_t r = 0; r < sp->region_count; ++r) {
        memset(&sp->regions[r], 0, sizeof sp->regions[r]);
        sp->regions[r].ymin = 0xffffu;
        sp->regions[r].group = 0xffu;
    }
    for (int32_t z = sp->z0; z < sp->z1; ++z) {
        for (int32_t x = sp->x0; x < sp->x1; ++x) {
            size_t c = cell_of(chf, x, z);
            uint32_t first = chf->cell_index[c];
            uint32_t end = first + chf->cell_count[c];
            for (uint32_t s = first; s < end; ++s) {
                uint32_t r = sp->span_region[s];
                if (r == NO_REGION) {
                    continue;
                }
                region* reg = &sp->regions[r];
                uint16_t y = chf->spans[s].y;
                reg->ymin = y < reg->ymin ? y : reg->ymin;
                reg->ymax = y > reg->ymax ? y : reg->ymax;
                for (int dir = 0; dir < WF_DIR_COUNT; ++dir) {
                    uint32_t n = linked_span(chf, x, z, s, dir);
                    if (n != WF_NO_SPAN && sp->span_region[n] != NO_REGION &&
                        sp->span_region[n] != r) {
                        set_add(&reg->neighbours, sp->span_region[n]);
                    }
                }
                for (uint32_t t = first; t < s; ++t) {
                    uint32_t other = sp->span_region[t];
                    if (other != NO_REGION && other != r) {
                        set_add(&reg->overlaps, other);
                        set_add(&sp->regions[other].overlaps, r);
                    }
                }
            }
        }
    }
}

// Breadth-first flood from each unassigned region (in id order) through its
// neighbours, taking a region only if it shares no column with the group
// and keeps the group's height range storable.
static void grow_groups(split* sp) {
    uint8_t queue[MAX_REGIONS];
    for (uint32_t root = 0; root < sp->region_count; ++root) {
        if (sp->regions[root].group != 0xffu) {
            continue;
        }
        uint32_t gi = sp->group_count++;
        group* g = &sp->groups[gi];
        memset(g, 0, sizeof *g);
        set_add(&g->members, root);
        g->overlaps = sp->regions[root].overlaps;
        g->ymin = sp->regions[root].ymin;
        g->ymax = sp->regions[root].ymax;
        g->first_region = (uint8_t)root;
        sp->regions[root].group = (uint8_t)gi;
        uint32_t head = 0, tail = 0;
        queue[tail++] = (uint8_t)root;
        while (head < tail) {
            const region* cur = &sp->regions[queue[head++]];
            for (uint32_t n = 0; n < sp->region_count; ++n) {
                region* nb = &sp->regions[n];
                if (!set_has(&cur->neighbours, n) || nb->group != 0xffu ||
                    set_has(&g->overlaps, n) || !range_fits(g->ymin, g->ymax, nb->ymin, nb->ymax)) {
                    continue;
                }
                nb->group = (uint8_t)gi;
                set_add(&g->members, n);
                set_union(&g->overlaps, &nb->overlaps);
                g->ymin = nb->ymin < g->ymin ? nb->ymin : g->ymin;
                g->ymax = nb->ymax > g->ymax ? nb->ymax : g->ymax;
                queue[tail++] = (uint8_t)n;
            }
        }
    }
}

// Greedy merge of whole groups that are close in height, share no column
// and stay within the storable range (they need not touch).
static void merge_groups(split* sp, int32_t walkable_height) {
    int64_t gap = MERGE_GAP_AGENT_HEIGHTS * (int64_t)walkable_height;
    for (uint32_t i = 0; i < sp->group_count; ++i) {
        group* gi = &sp->groups[i];
        if (gi->absorbed) {
            continue;
        }
        for (;;) {
            uint32_t found = sp->group_count;
            for (uint32_t j = 0; j < sp->group_count && found == sp->group_count; ++j) {
                const group* gj = &sp->groups[j];
                if (j == i || gj->absorbed) {
                    continue;
                }
                bool close = gj->ymin <= gi->ymax + gap && gi->ymin <= gj->ymax + gap;
                if (close && range_fits(gi->ymin, gi->ymax, gj->ymin, gj->ymax) &&
                    !set_intersects(&gi->overlaps, &gj->members)) {
                    found = j;
                }
            }
            if (found == sp->group_count) {
                break;
            }
            group* gj = &sp->groups[found];
            set_union(&gi->members, &gj->members);
            set_union(&gi->overlaps, &gj->overlaps);
            gi->ymin = gj->ymin < gi->ymin ? gj->ymin : gi->ymin;
            gi->ymax = gj->ymax > gi->ymax ? gj->ymax : gi->ymax;
            gi->first_region = gj->first_region < gi->first_region ? gj->first_region
                                                                   : gi->first_region;
            gj->absorbed = true;
        }
    }
}

// Layer index of every region: live groups ordered by (ymin, lowest region).
static uint32_t order_layers(const split* sp, uint8_t* layer_of_region, uint16_t* layer_hmin) {
    uint8_t order[MAX_REGIONS];
    uint32_t count = 0;
    for (uint32_t g = 0; g < sp->group_count; ++g) {
        if (sp->groups[g].absorbed) {
            continue;
        }
        // Insertion sort: at most 255 groups.
        uint32_t k = count++;
        while (k > 0) {
            const group* a = &sp->groups[order[k - 1]];
            const group* b = &sp->groups[g];
            if (a->ymin < b->ymin || (a->ymin == b->ymin && a->first_region < b->first_region)) {
                break;
            }
            order[k] = order[k - 1];
            --k;
        }
        order[k] = (uint8_t)g;
    }
    for (uint32_t l = 0; l < count; ++l) {
        const group* g = &sp->groups[order[l]];
        layer_hmin[l] = g->ymin;
        for (uint32_t r = 0; r < sp->region_count; ++r) {
            if (set_has(&g->members, r)) {
                layer_of_region[r] = (uint8_t)l;
            }
        }
    }
    return count;
}

// Cell data of one span: height above hmin, area, and per direction either
// a link inside the layer (low nibble) or a portal (high nibble) to a
// walkable neighbour in another layer or beyond the tile edge. Portal cells
// take the higher floor of the two sides so both agree on the edge height.
static void write_span(const split* sp, const uint8_t* layer_of_region, wf_layer* layers,
                       int32_t x, int32_t z, uint32_t s) {
    const wf_compact_heightfield* chf = sp->chf;
    uint32_t l = layer_of_region[sp->span_region[s]];
    wf_layer* layer = &layers[l];
    size_t idx = (size_t)(x - sp->x0) + (size_t)(z - sp->z0) * layer->width;
    int32_t h = (int32_t)chf->spans[s].y - (int32_t)layer->hmin;
    uint8_t cons = 0;
    for (int dir = 0; dir < WF_DIR_COUNT; ++dir) {
        uint32_t n = linked_span(chf, x, z, s, dir);
        if (n == WF_NO_SPAN || !walkable(chf, n)) {
            continue;
        }
        uint32_t nr = sp->span_region[n];
        if (nr != NO_REGION && layer_of_region[nr] == l) {
            cons |= (uint8_t)(1u << dir);
        } else {
            cons |= (uint8_t)(0x10u << dir);
            int32_t nh = (int32_t)chf->spans[n].y - (int32_t)layer->hmin;
            h = nh > h ? nh : h;
        }
    }
    layer->heights[idx] = (uint8_t)(h < MAX_LAYER_RANGE ? h : MAX_LAYER_RANGE);
    layer->areas[idx] = chf->areas[s];
    layer->cons[idx] = cons;
}

static wf_status write_layers(const split* sp, wf_arena* arena, int32_t tile_x, int32_t tile_z,
                              const uint8_t* layer_of_region, const uint16_t* layer_hmin,
                              uint32_t count, wf_layer_set* out) {
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
    for (int32_t z = sp->z0; z < sp->z1; ++z) {
        for (int32_t x = sp->x0; x < sp->x1; ++x) {
            size_t c = cell_of(chf, x, z);
            uint32_t first = chf->cell_index[c];
            for (uint32_t s = first; s < first + chf->cell_count[c]; ++s) {
                if (sp->span_region[s] != NO_REGION) {
                    write_span(sp, layer_of_region, layers, x, z, s);
                }
            }
        }
    }
    for (uint32_t l = 0; l < count; ++l) {
        wf_layer* layer = &layers[l];
        // hmax covers what is stored, portal heights included.
        uint32_t top = 0;
        for (size_t i = 0; i < cells; ++i) {
            if (layer->heights[i] != WF_LAYER_EMPTY && layer->heights[i] > top) {
                top = layer->heights[i];
            }
        }
        layer->hmax = (uint16_t)(layer->hmin + top);
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
    if (!cells_valid(chf)) {
        return WF_ERR_BAD_DATA;
    }

    split sp = {.chf = chf,
                .x0 = chf->border,
                .z0 = chf->border,
                .x1 = chf->width - chf->border,
                .z1 = chf->depth - chf->border};
    // A row has at most one sweep per walkable span in it.
    size_t max_row_spans = 1;
    for (int32_t z = sp.z0; z < sp.z1; ++z) {
        size_t row = 0;
        for (int32_t x = sp.x0; x < sp.x1; ++x) {
            row += chf->cell_count[cell_of(chf, x, z)];
        }
        max_row_spans = row > max_row_spans ? row : max_row_spans;
    }

    wf_arena_mark start = wf_arena_get_mark(arena);
    sp.span_region = WF_ARENA_ARRAY(arena, uint16_t, chf->span_count);
    if (sp.span_region == NULL && chf->span_count > 0) {
        return WF_ERR_CAPACITY;
    }
    for (uint32_t s = 0; s < chf->span_count; ++s) {
        sp.span_region[s] = NO_REGION;
    }
    // The region bookkeeping is scratch, released before the layers are
    // allocated; only the per-span region ids stay in the arena.
    wf_arena_mark scratch = wf_arena_get_mark(arena);
    sweep* sweeps = WF_ARENA_ARRAY(arena, sweep, max_row_spans);
    sp.regions = WF_ARENA_ARRAY(arena, region, MAX_REGIONS);
    sp.groups = WF_ARENA_ARRAY(arena, group, MAX_REGIONS);
    if (sweeps == NULL || sp.regions == NULL || sp.groups == NULL) {
        wf_arena_reset_to(arena, start);
        return WF_ERR_CAPACITY;
    }
    wf_status st = partition(&sp, sweeps);
    if (st != WF_OK) {
        wf_arena_reset_to(arena, start);
        return st;
    }
    describe_regions(&sp);
    grow_groups(&sp);
    merge_groups(&sp, walkable_height);
    uint8_t layer_of_region[MAX_REGIONS];
    uint16_t layer_hmin[MAX_REGIONS];
    uint32_t count = order_layers(&sp, layer_of_region, layer_hmin);
    wf_arena_reset_to(arena, scratch);
    if (count == 0) {
        wf_arena_reset_to(arena, start);
        return WF_OK;
    }
    st = write_layers(&sp, arena, tile_x, tile_z, layer_of_region, layer_hmin, count, out);
    if (st != WF_OK) {
        out->layers = NULL;
        out->count = 0;
        wf_arena_reset_to(arena, start);
    }
    return st;
}
