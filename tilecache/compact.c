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

    wf_arena_mark mark = wf_arena_get_mark(arena);
    uint32_t* cell_index = WF_ARENA_ARRAY(arena, uint32_t, cell_count);
    uint8_t* cell_spans = WF_ARENA_ARRAY(arena, uint8_t, cell_count);
    // At least one element each, so an empty field still gets valid arrays.
    size_t array_count = span_count > 0 ? span_count : 1u;
    wf_compact_span* spans = WF_ARENA_ARRAY(arena, wf_compact_span, array_count);
    uint8_t* areas = WF_ARENA_ARRAY(arena, uint8_t, array_count);
    if (cell_index == NULL || cell_spans == NULL || spans == NULL || areas == NULL) {
        wf_arena_reset_to(arena, mark);
        return WF_ERR_CAPACITY;
    }

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
    chf->cell_index = cell_index;
    chf->cell_count = cell_spans;
    chf->spans = spans;
    chf->areas = areas;
    chf->span_count = span_count;

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

    // Link each span to the first span next door whose opening overlaps its
    // own by an agent's height and whose floor is within climb.
    for (int32_t z = 0; z < hf->depth; ++z) {
        for (int32_t x = 0; x < hf->width; ++x) {
            size_t c = (size_t)x + (size_t)z * (size_t)hf->width;
            for (uint32_t i = cell_index[c]; i < cell_index[c] + cell_spans[c]; ++i) {
                const int32_t y = spans[i].y;
                const int32_t top = y + spans[i].h;
                uint32_t con = 0;
                for (int dir = 0; dir < WF_DIR_COUNT; ++dir) {
                    uint32_t link = WF_NOT_CONNECTED;
                    int32_t nx = x + wf_dir_dx[dir];
                    int32_t nz = z + wf_dir_dz[dir];
                    if (nx >= 0 && nz >= 0 && nx < hf->width && nz < hf->depth) {
                        size_t nc = (size_t)nx + (size_t)nz * (size_t)hf->width;
                        const wf_compact_span* ns = &spans[cell_index[nc]];
                        for (uint32_t k = 0; k < cell_spans[nc]; ++k) {
                            int32_t ny = ns[k].y;
                            int32_t ntop = ny + ns[k].h;
                            int32_t gap = (top < ntop ? top : ntop) - (y > ny ? y : ny);
                            if (gap >= walkable_height && ny - y >= -walkable_climb &&
                                ny - y <= walkable_climb) {
                                link = k;
                                break;
                            }
                        }
                    }
                    con |= link << (dir * 6);
                }
                spans[i].con = con;
            }
        }
    }
    return WF_OK;
}
