// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The three walkable-span filters of Recast's pipeline, run on the span
// heightfield between rasterization and the compact heightfield.
#include <stddef.h>

#include "tilecache/heightfield.h"

/// Open space above the topmost span of a column reaches this height.
#define OPEN_TOP ((int32_t)WF_SPAN_MAX_HEIGHT)

static int32_t ceiling_of(const wf_heightfield* hf, const wf_span* s) {
    return s->next == WF_NO_SPAN ? OPEN_TOP : (int32_t)hf->spans[s->next].smin;
}

void wf_filter_low_hanging_obstacles(wf_heightfield* hf, int32_t walkable_climb) {
    if (hf == NULL || hf->columns == NULL) {
        return;
    }
    size_t cell_count = (size_t)hf->width * (size_t)hf->depth;
    for (size_t c = 0; c < cell_count; ++c) {
        // Whether the span below was walkable before this pass: a fixed span
        // does not lift the one above it, so a stack of kerbs stays a wall.
        bool below_walkable = false;
        uint8_t below_area = WF_AREA_NULL;
        int32_t below_top = 0;
        for (uint32_t i = hf->columns[c]; i != WF_NO_SPAN; i = hf->spans[i].next) {
            wf_span* s = &hf->spans[i];
            bool walkable = s->area != WF_AREA_NULL;
            if (!walkable && below_walkable && (int32_t)s->smax - below_top <= walkable_climb) {
                s->area = below_area;
            }
            below_walkable = walkable;
            below_area = s->area;
            below_top = (int32_t)s->smax;
        }
    }
}

/// Lowest neighbour floor relative to `floor` (a value below -climb means a
/// drop the agent could walk off) and the range of neighbour floors it can
/// step to, over the openings at least walkable_height tall.
typedef struct ledge_probe {
    int32_t lowest_drop;
    int32_t reach_min, reach_max;
} ledge_probe;

static bool probe_neighbour(const wf_heightfield* hf, int32_t nx, int32_t nz, int32_t floor,
                            int32_t ceiling, int32_t walkable_height, int32_t walkable_climb,
                            ledge_probe* probe) {
    if (nx < 0 || nz < 0 || nx >= hf->width || nz >= hf->depth) {
        return false; // the edge of the field: nothing known beyond, a ledge
    }
    uint32_t first = hf->columns[(size_t)nx + (size_t)nz * (size_t)hf->width];
    // The opening beneath the neighbour's lowest span reaches down forever.
    int32_t below_ceiling = first == WF_NO_SPAN ? OPEN_TOP : (int32_t)hf->spans[first].smin;
    if ((below_ceiling < ceiling ? below_ceiling : ceiling) - floor >= walkable_height) {
        return false;
    }
    for (uint32_t i = first; i != WF_NO_SPAN; i = hf->spans[i].next) {
        const wf_span* ns = &hf->spans[i];
        int32_t nfloor = (int32_t)ns->smax;
        int32_t nceiling = ceiling_of(hf, ns);
        int32_t gap_top = nceiling < ceiling ? nceiling : ceiling;
        int32_t gap_bottom = nfloor > floor ? nfloor : floor;
        if (gap_top - gap_bottom < walkable_height) {
            continue; // too low to pass between the two
        }
        int32_t drop = nfloor - floor;
        if (drop < probe->lowest_drop) {
            probe->lowest_drop = drop;
        }
        if (drop >= -walkable_climb && drop <= walkable_climb) {
            if (nfloor < probe->reach_min) {
                probe->reach_min = nfloor;
            }
            if (nfloor > probe->reach_max) {
                probe->reach_max = nfloor;
            }
        } else if (drop < -walkable_climb) {
            return false; // already a ledge
        }
    }
    return true;
}

void wf_filter_ledge_spans(wf_heightfield* hf, int32_t walkable_height, int32_t walkable_climb) {
    if (hf == NULL || hf->columns == NULL) {
        return;
    }
    for (int32_t z = 0; z < hf->depth; ++z) {
        for (int32_t x = 0; x < hf->width; ++x) {
            uint32_t i = hf->columns[(size_t)x + (size_t)z * (size_t)hf->width];
            for (; i != WF_NO_SPAN; i = hf->spans[i].next) {
                wf_span* s = &hf->spans[i];
                if (s->area == WF_AREA_NULL) {
                    continue;
                }
                int32_t floor = (int32_t)s->smax;
                int32_t ceiling = ceiling_of(hf, s);
                ledge_probe probe = {OPEN_TOP, floor, floor};
                bool is_ledge = false;
                for (int dir = 0; dir < WF_DIR_COUNT && !is_ledge; ++dir) {
                    is_ledge = !probe_neighbour(hf, x + wf_dir_dx[dir], z + wf_dir_dz[dir], floor,
                                                ceiling, walkable_height, walkable_climb, &probe);
                }
                // A drop beyond climb next door, or neighbours spread over
                // more than climb (a slope too steep to stand on).
                if (is_ledge || probe.lowest_drop < -walkable_climb ||
                    probe.reach_max - probe.reach_min > walkable_climb) {
                    s->area = WF_AREA_NULL;
                }
            }
        }
    }
}

void wf_filter_low_height_spans(wf_heightfield* hf, int32_t walkable_height) {
    if (hf == NULL || hf->columns == NULL) {
        return;
    }
    size_t cell_count = (size_t)hf->width * (size_t)hf->depth;
    for (size_t c = 0; c < cell_count; ++c) {
        for (uint32_t i = hf->columns[c]; i != WF_NO_SPAN; i = hf->spans[i].next) {
            wf_span* s = &hf->spans[i];
            if (ceiling_of(hf, s) - (int32_t)s->smax < walkable_height) {
                s->area = WF_AREA_NULL;
            }
        }
    }
}

/* ---------------------------------------------------------------------------
 * The same filters on flattened columns (the tile cache build's path)
 */

wf_status wf_span_columns_alloc(wf_span_columns* cols, wf_arena* arena, int32_t width,
                                int32_t depth, size_t spans) {
    const size_t cells = (size_t)width * (size_t)depth;
    spans = spans > 0 ? spans : 1u;
    wf_arena_mark mark = wf_arena_get_mark(arena);
    cols->first = WF_ARENA_ARRAY(arena, uint32_t, cells + 1u);
    cols->bottom = WF_ARENA_ARRAY(arena, uint16_t, cells);
    cols->floor = WF_ARENA_ARRAY(arena, uint16_t, spans);
    cols->ceiling = WF_ARENA_ARRAY(arena, uint16_t, spans);
    cols->area = WF_ARENA_ARRAY(arena, uint8_t, spans);
    if (cols->first == NULL || cols->bottom == NULL || cols->floor == NULL ||
        cols->ceiling == NULL || cols->area == NULL || spans > UINT32_MAX) {
        wf_arena_reset_to(arena, mark);
        return WF_ERR_CAPACITY;
    }
    cols->width = width;
    cols->depth = depth;
    cols->span_count = 0;
    return WF_OK;
}

wf_status wf_span_columns_build(wf_span_columns* cols, wf_arena* arena, const wf_heightfield* hf) {
    size_t cell_count = (size_t)hf->width * (size_t)hf->depth;
    // Spans in use: the pool's high mark less the recycled ones is not
    // tracked, so size for the high mark (an upper bound).
    wf_status s = wf_span_columns_alloc(cols, arena, hf->width, hf->depth, hf->span_count);
    if (s != WF_OK) {
        return s;
    }
    const wf_span* spans = hf->spans;
    const uint32_t* columns = hf->columns;
    // In locals: the area stores are bytes, which may alias the pointers.
    uint32_t* first = cols->first;
    uint16_t* bottom = cols->bottom;
    uint16_t* floors = cols->floor;
    uint16_t* ceilings = cols->ceiling;
    uint8_t* area = cols->area;
    uint32_t n = 0;
    for (size_t c = 0; c < cell_count; ++c) {
        first[c] = n;
        uint32_t i = columns[c];
        bottom[c] = i == WF_NO_SPAN ? (uint16_t)OPEN_TOP : spans[i].smin;
        for (; i != WF_NO_SPAN; i = spans[i].next) {
            uint32_t next = spans[i].next;
            floors[n] = spans[i].smax;
            ceilings[n] = next == WF_NO_SPAN ? (uint16_t)OPEN_TOP : spans[next].smin;
            area[n] = spans[i].area;
            n++;
        }
    }
    first[cell_count] = n;
    cols->span_count = n;
    return WF_OK;
}

/// The ledge probe of one span against one neighbour column (its spans
/// [k, end), the bottom of its lowest one): true when the span is a ledge
/// there, else the neighbour floors it can step to widen the reach. The
/// floors of a column rise with k, so the walk stops at the first floor
/// above `limit` (the lower of ceiling - walkable_height, above which no
/// opening is tall enough, and floor + climb, above which a floor neither
/// drops nor is in reach): the spans past it would change nothing.
/// drop_below is floor - climb and head_room floor + walkable_height
/// (at most ceiling: low spans are cleared before the probes), passed in
/// so the four probes share them.
static inline bool ledge_beside(const uint16_t* floors, const uint16_t* ceilings, uint32_t k,
                                uint32_t end, int32_t bottom, int32_t floor, int32_t limit,
                                int32_t walkable_height, int32_t drop_below, int32_t head_room,
                                int32_t* reach_min, int32_t* reach_max) {
    // The opening beneath the neighbour's lowest span reaches down forever:
    // min(bottom, ceiling) - floor >= walkable_height, which is bottom >=
    // head_room since ceiling >= head_room.
    if (bottom >= head_room) {
        return true;
    }
    // An empty column's bottom is OPEN_TOP, at least head_room (which is at
    // most the span's ceiling): past the test above the column has a span.
    do {
        int32_t nfloor = floors[k];
        if (nfloor > limit) {
            break;
        }
        // The opening between the two is min(nceiling, ceiling) -
        // max(nfloor, floor); past the test above both floors lie at least
        // walkable_height below ceiling, so only nceiling can make it low.
        int32_t nceiling = ceilings[k];
        int32_t gap_bottom = nfloor > floor ? nfloor : floor;
        if (nceiling - gap_bottom < walkable_height) {
            continue; // too low to pass between the two
        }
        if (nfloor < drop_below) {
            return true; // a drop past climb
        }
        *reach_min = nfloor < *reach_min ? nfloor : *reach_min;
        *reach_max = nfloor > *reach_max ? nfloor : *reach_max;
    } while (++k < end);
    return false;
}

/// The low-hanging filter on one non-empty column, begin < end (reads and
/// writes only it).
static inline void lift_low_hanging(const uint16_t* floors, uint8_t* area, uint32_t begin,
                                    uint32_t end, int32_t walkable_climb) {
    // The lowest span has nothing below it to lift it.
    bool below_walkable = area[begin] != WF_AREA_NULL;
    uint8_t below_area = area[begin];
    int32_t below_top = (int32_t)floors[begin];
    for (uint32_t i = begin + 1; i < end; ++i) {
        bool walkable = area[i] != WF_AREA_NULL;
        if (!walkable && below_walkable && (int32_t)floors[i] - below_top <= walkable_climb) {
            area[i] = below_area;
        }
        below_walkable = walkable;
        below_area = area[i];
        below_top = (int32_t)floors[i];
    }
}

void wf_filter_span_columns(wf_span_columns* cols, int32_t walkable_height, int32_t walkable_climb,
                            bool ledges) {
    const int32_t width = cols->width, depth = cols->depth;
    const size_t w = (size_t)width;
    // The arrays in locals: the area stores are bytes, which may alias
    // anything, so reading them through cols would reload every pointer
    // after each store.
    const uint32_t* first = cols->first;
    const uint16_t* bottom = cols->bottom;
    const uint16_t* floors = cols->floor;
    const uint16_t* ceilings = cols->ceiling;
    uint8_t* area = cols->area;
    if (!ledges) {
        // Low ceilings only: a span-by-span pass.
        for (uint32_t i = 0; i < cols->span_count; ++i) {
            if ((int32_t)ceilings[i] - (int32_t)floors[i] < walkable_height) {
                area[i] = WF_AREA_NULL;
            }
        }
        return;
    }
    // The low-hanging filter reads and writes only its own column, the
    // ledge filter reads its own span's area and only the geometry of the
    // neighbours, and the low-ceiling filter only its own span: so one pass
    // per column in that order gives what three whole passes give. A span
    // the low-ceiling filter clears needs no ledge probe.
    for (int32_t z = 0; z < depth; ++z) {
        const bool inside_row = z > 0 && z < depth - 1;
        for (int32_t x = 0; x < width; ++x) {
            size_t c = (size_t)x + (size_t)z * w;
            uint32_t begin = first[c], end = first[c + 1];
            if (begin == end) {
                continue; // an empty column: nothing to filter
            }
            lift_low_hanging(floors, area, begin, end, walkable_climb);
            if (!inside_row || x == 0 || x == width - 1) {
                // The edge of the field: nothing known beyond, a ledge.
                for (uint32_t i = begin; i < end; ++i) {
                    area[i] = WF_AREA_NULL;
                }
                continue;
            }
            const size_t cw = c - 1, cn = c + w, ce = c + 1, cs = c - w;
            uint32_t i = begin;
            do { // the column is not empty
                if (area[i] == WF_AREA_NULL) {
                    continue;
                }
                int32_t floor = floors[i];
                int32_t ceiling = ceilings[i];
                if (ceiling - floor < walkable_height) {
                    area[i] = WF_AREA_NULL;
                    continue;
                }
                int32_t limit = ceiling - walkable_height;
                limit = floor + walkable_climb < limit ? floor + walkable_climb : limit;
                int32_t reach_min = floor, reach_max = floor;
                const int32_t drop_below = floor - walkable_climb;
                const int32_t head_room = floor + walkable_height;
                // A drop beyond climb next door, or neighbours spread over
                // more than climb (a slope too steep to stand on).
                if (ledge_beside(floors, ceilings, first[cw], first[cw + 1], bottom[cw], floor,
                                 limit, walkable_height, drop_below, head_room, &reach_min,
                                 &reach_max) ||
                    ledge_beside(floors, ceilings, first[cn], first[cn + 1], bottom[cn], floor,
                                 limit, walkable_height, drop_below, head_room, &reach_min,
                                 &reach_max) ||
                    ledge_beside(floors, ceilings, first[ce], first[ce + 1], bottom[ce], floor,
                                 limit, walkable_height, drop_below, head_room, &reach_min,
                                 &reach_max) ||
                    ledge_beside(floors, ceilings, first[cs], first[cs + 1], bottom[cs], floor,
                                 limit, walkable_height, drop_below, head_room, &reach_min,
                                 &reach_max) ||
                    reach_max - reach_min > walkable_climb) {
                    area[i] = WF_AREA_NULL;
                }
            } while (++i < end);
        }
    }
}
