// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The compact heightfield: the open space above each walkable span, stored
// cell by cell in one array, with links to the neighbour spans an agent can
// step to.
#include <string.h>

#include "navcore/check.h"
#include "tilecache/heightfield.h"

/// Connections store the neighbour's index within its cell in 6 bits and
/// WF_NOT_CONNECTED (63) means none, so a cell may hold 63 spans at most.
#define MAX_SPANS_PER_CELL ((uint32_t)WF_NOT_CONNECTED)
/// Open space above a column's top span reaches this height.
#define OPEN_TOP ((int32_t)WF_SPAN_MAX_HEIGHT)
/// wf_compact_span.h holds 8 bits; agents are far shorter.
#define MAX_FREE_HEIGHT 0xff

/// Whether an agent steps between floors y and ny with tops top and ntop:
/// the openings overlap by its height and the floors are within climb.
static inline bool can_step(int32_t y, int32_t top, int32_t ny, int32_t ntop,
                            int32_t walkable_height, int32_t walkable_climb) {
    int32_t gap = (top < ntop ? top : ntop) - (y > ny ? y : ny);
    return gap >= walkable_height && ny - y >= -walkable_climb && ny - y <= walkable_climb;
}

/// Links the spans of cell a to those of cell b next door in direction dir
/// (b's side is the opposite direction). Each span links to the first span
/// of the other cell it can step to; the test is symmetric, so one sweep
/// over the pairs sets both sides' links. Spans are sorted by floor, so
/// once b's floors are above a span's climb no later one can match it.
static inline void link_cells(wf_compact_span* spans, uint32_t* links, uint32_t a_first,
                              uint32_t a_count, uint32_t b_first, uint32_t b_count, int dir,
                              int32_t walkable_height, int32_t walkable_climb) {
    const int back = (dir + 2) & 3;
    for (uint32_t i = 0; i < a_count; ++i) {
        wf_compact_span* sa = &spans[a_first + i];
        const int32_t y = sa->y;
        const int32_t top = y + sa->h;
        bool linked = false;
        for (uint32_t k = 0; k < b_count; ++k) {
            wf_compact_span* sb = &spans[b_first + k];
            int32_t ny = sb->y;
            if (ny - y > walkable_climb) {
                break;
            }
            if (!can_step(y, top, ny, ny + sb->h, walkable_height, walkable_climb)) {
                continue;
            }
            if (!linked) {
                wf_compact_set_con(sa, dir, k);
                links[4u * (size_t)(a_first + i) + (uint32_t)dir] = b_first + k;
                linked = true;
            }
            if (wf_compact_get_con(sb, back) == WF_NOT_CONNECTED) {
                wf_compact_set_con(sb, back, i); // the first of a's spans to reach it
                links[4u * (size_t)(b_first + k) + (uint32_t)back] = a_first + i;
            }
        }
    }
}

/// link_cells for one span on each side, the common case on open ground:
/// a link is index 0 both ways, set by clearing the bits of its field
/// (every field starts as WF_NOT_CONNECTED and only this pair writes them).
static inline void link_single(wf_compact_span* spans, uint32_t* links, uint32_t a, uint32_t b,
                               int dir, int32_t walkable_height, int32_t walkable_climb) {
    const int32_t y = spans[a].y, ny = spans[b].y;
    if (can_step(y, y + spans[a].h, ny, ny + spans[b].h, walkable_height, walkable_climb)) {
        spans[a].con &= ~(WF_NOT_CONNECTED << (dir * 6));
        spans[b].con &= ~(WF_NOT_CONNECTED << (((dir + 2) & 3) * 6));
        links[4u * (size_t)a + (uint32_t)dir] = b;
        links[4u * (size_t)b + (uint32_t)((dir + 2) & 3)] = a;
    }
}

// Link each span to the first span next door whose opening overlaps its
// own by an agent's height and whose floor is within climb (every link
// starts as WF_NOT_CONNECTED, and in the table as WF_NO_SPAN: the builders
// write both with the spans). Each cell pairs with its +x and +z
// neighbours, which sets the -x and -z links of those too.
static void link_spans(wf_compact_heightfield* chf) {
    const int32_t width = chf->width, depth = chf->depth;
    const uint32_t* cell_index = chf->cell_index;
    const uint8_t* cell_spans = chf->cell_count;
    // In locals: the link stores (uint32_t) may alias chf's int32_t fields.
    wf_compact_span* spans = chf->spans;
    uint32_t* links = chf->links;
    const int32_t walkable_height = chf->walkable_height, walkable_climb = chf->walkable_climb;
    for (int32_t z = 0; z < depth; ++z) {
        for (int32_t x = 0; x < width; ++x) {
            size_t c = (size_t)x + (size_t)z * (size_t)width;
            uint32_t count = cell_spans[c];
            if (count == 0) {
                continue;
            }
            const uint32_t a = cell_index[c];
            if (x + 1 < width && cell_spans[c + 1] > 0) {
                const uint32_t b_count = cell_spans[c + 1];
                if ((count | b_count) == 1u) {
                    link_single(spans, links, a, cell_index[c + 1], 2, walkable_height,
                                walkable_climb);
                } else {
                    link_cells(spans, links, a, count, cell_index[c + 1], b_count, 2,
                               walkable_height, walkable_climb);
                }
            }
            size_t up = c + (size_t)width;
            if (z + 1 < depth && cell_spans[up] > 0) {
                const uint32_t b_count = cell_spans[up];
                if ((count | b_count) == 1u) {
                    link_single(spans, links, a, cell_index[up], 1, walkable_height,
                                walkable_climb);
                } else {
                    link_cells(spans, links, a, count, cell_index[up], b_count, 1, walkable_height,
                               walkable_climb);
                }
            }
        }
    }
}

/// The fields every build sets; the arrays are the caller's.
static void compact_init(wf_compact_heightfield* chf, const wf_heightfield* hf, int32_t border,
                         int32_t walkable_height, int32_t walkable_climb) {
    memset(chf, 0, sizeof *chf);
    chf->width = hf->width;
    chf->depth = hf->depth;
    chf->border = border;
    chf->walkable_height = walkable_height;
    chf->walkable_climb = walkable_climb;
    memcpy(chf->bmin, hf->bmin, sizeof chf->bmin);
    memcpy(chf->bmax, hf->bmax, sizeof chf->bmax);
    // The open space above the highest floor reaches an agent's height up.
    chf->bmax[1] += (float)walkable_height * hf->ch;
    chf->cs = hf->cs;
    chf->ch = hf->ch;
}

/// The compact arrays from the arena and the header filled in;
/// WF_ERR_CAPACITY (arena unchanged) when they do not fit.
static wf_status compact_alloc(wf_compact_heightfield* chf, wf_arena* arena,
                               const wf_heightfield* hf, int32_t border, int32_t walkable_height,
                               int32_t walkable_climb, size_t cell_count, uint32_t span_count) {
    wf_arena_mark mark = wf_arena_get_mark(arena);
    uint32_t* cell_index = WF_ARENA_ARRAY(arena, uint32_t, cell_count);
    uint8_t* cell_spans = WF_ARENA_ARRAY(arena, uint8_t, cell_count);
    // At least one element each, so an empty field still gets valid arrays.
    size_t array_count = span_count > 0 ? span_count : 1u;
    wf_compact_span* spans = WF_ARENA_ARRAY(arena, wf_compact_span, array_count);
    uint8_t* areas = WF_ARENA_ARRAY(arena, uint8_t, array_count);
    uint32_t* links = WF_ARENA_ARRAY(arena, uint32_t, 4u * array_count);
    if (cell_index == NULL || cell_spans == NULL || spans == NULL || areas == NULL ||
        links == NULL) {
        wf_arena_reset_to(arena, mark);
        return WF_ERR_CAPACITY;
    }
    compact_init(chf, hf, border, walkable_height, walkable_climb);
    chf->cell_index = cell_index;
    chf->cell_count = cell_spans;
    chf->spans = spans;
    chf->areas = areas;
    chf->links = links;
    chf->span_count = span_count;
    return WF_OK;
}

wf_status wf_compact_build(wf_compact_heightfield* chf, wf_arena* arena, const wf_heightfield* hf,
                           int32_t border, int32_t walkable_height, int32_t walkable_climb) {
    WF_CHECK_ARG(chf != NULL && arena != NULL && hf != NULL && hf->columns != NULL);
    WF_CHECK_ARG(border >= 0 && walkable_height >= 0 && walkable_climb >= 0);

    const size_t cell_count = (size_t)hf->width * (size_t)hf->depth;
    uint32_t span_count = 0;
    for (size_t c = 0; c < cell_count; ++c) {
        uint32_t in_cell = 0;
        for (uint32_t i = hf->columns[c]; i != WF_NO_SPAN; i = hf->spans[i].next) {
            if (hf->spans[i].area != WF_AREA_NULL) {
                in_cell++;
            }
        }
        if (in_cell > MAX_SPANS_PER_CELL) {
            return WF_ERR_CAPACITY;
        }
        span_count += in_cell;
    }

    wf_status st = compact_alloc(chf, arena, hf, border, walkable_height, walkable_climb,
                                 cell_count, span_count);
    if (st != WF_OK) {
        return st;
    }
    uint32_t* cell_index = chf->cell_index;
    uint8_t* cell_spans = chf->cell_count;
    wf_compact_span* spans = chf->spans;
    uint8_t* areas = chf->areas;

    memset(chf->links, 0xff, 4u * sizeof *chf->links * (size_t)span_count); // WF_NO_SPAN
    uint32_t next = 0;
    for (size_t c = 0; c < cell_count; ++c) {
        cell_index[c] = next;
        uint8_t in_cell = 0;
        for (uint32_t i = hf->columns[c]; i != WF_NO_SPAN; i = hf->spans[i].next) {
            const wf_span* s = &hf->spans[i];
            if (s->area == WF_AREA_NULL) {
                continue;
            }
            int32_t floor = (int32_t)s->smax;
            int32_t ceiling = s->next == WF_NO_SPAN ? OPEN_TOP : (int32_t)hf->spans[s->next].smin;
            int32_t free_height = ceiling - floor;
            if (free_height > MAX_FREE_HEIGHT) {
                free_height = MAX_FREE_HEIGHT;
            }
            wf_compact_span* out = &spans[next];
            out->y = (uint16_t)floor;
            out->region = 0;
            out->h = (uint8_t)(free_height > 0 ? free_height : 0);
            out->con = 0xffffffu; // all four directions WF_NOT_CONNECTED
            areas[next] = s->area;
            next++;
            in_cell++;
        }
        cell_spans[c] = in_cell;
    }

    link_spans(chf);
    return WF_OK;
}

wf_status wf_compact_build_columns(wf_compact_heightfield* chf, wf_arena* arena,
                                   const wf_span_columns* cols, const wf_heightfield* hf,
                                   int32_t border, int32_t walkable_height,
                                   int32_t walkable_climb) {
    WF_CHECK_ARG(chf != NULL && arena != NULL && cols != NULL && hf != NULL);
    WF_CHECK_ARG(cols->width == hf->width && cols->depth == hf->depth);
    WF_CHECK_ARG(border >= 0 && walkable_height >= 0 && walkable_climb >= 0);

    const size_t cell_count = (size_t)cols->width * (size_t)cols->depth;
    wf_arena_mark mark = wf_arena_get_mark(arena);
    // Sized for every span, walkable or not (an upper bound, which saves a
    // counting pass); span_count is set to the walkable ones written.
    wf_status st = compact_alloc(chf, arena, hf, border, walkable_height, walkable_climb,
                                 cell_count, cols->span_count);
    if (st != WF_OK) {
        return st;
    }
    uint32_t* cell_index = chf->cell_index;
    uint8_t* cell_spans = chf->cell_count;
    wf_compact_span* spans = chf->spans;
    uint8_t* areas = chf->areas;

    // In locals: the byte stores may alias the pointers in cols.
    const uint32_t* first = cols->first;
    const uint16_t* floors = cols->floor;
    const uint16_t* ceilings = cols->ceiling;
    const uint8_t* col_areas = cols->area;
    uint32_t* links = chf->links;
    static const uint32_t no_links[4] = {WF_NO_SPAN, WF_NO_SPAN, WF_NO_SPAN, WF_NO_SPAN};
    uint32_t next = 0;
    for (size_t c = 0; c < cell_count; ++c) {
        cell_index[c] = next;
        for (uint32_t i = first[c], end = first[c + 1]; i < end; ++i) {
            if (col_areas[i] == WF_AREA_NULL) {
                continue;
            }
            int32_t free_height = (int32_t)ceilings[i] - (int32_t)floors[i];
            free_height = free_height > MAX_FREE_HEIGHT ? MAX_FREE_HEIGHT : free_height;
            spans[next] = (wf_compact_span){.y = floors[i],
                                            .region = 0,
                                            .con = 0xffffffu, // all four WF_NOT_CONNECTED
                                            .h = (uint8_t)(free_height > 0 ? free_height : 0)};
            areas[next] = col_areas[i];
            memcpy(&links[4u * (size_t)next], no_links, sizeof no_links);
            next++;
        }
        uint32_t in_cell = next - cell_index[c];
        if (in_cell > MAX_SPANS_PER_CELL) {
            wf_arena_reset_to(arena, mark);
            return WF_ERR_CAPACITY;
        }
        cell_spans[c] = (uint8_t)in_cell;
    }
    chf->span_count = next;
    link_spans(chf);
    return WF_OK;
}
