// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The span heightfield: per column a sorted list of solid spans taken from a
// fixed pool, and the insertion that merges overlapping or touching spans.
#include <math.h>
#include <string.h>

#include "navcore/check.h"
#include "tilecache/heightfield.h"

static bool all_finite3(const float* v) {
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

wf_status wf_heightfield_init(wf_heightfield* hf, wf_arena* arena, int32_t width, int32_t depth,
                              const float* bmin, const float* bmax, float cs, float ch,
                              uint32_t span_capacity) {
    WF_CHECK_ARG(hf != NULL && arena != NULL && bmin != NULL && bmax != NULL);
    WF_CHECK_ARG(width > 0 && depth > 0);
    WF_CHECK_ARG(isfinite(cs) && cs > 0.0f && isfinite(ch) && ch > 0.0f);
    WF_CHECK_ARG(all_finite3(bmin) && all_finite3(bmax));
    WF_CHECK_ARG(bmin[0] <= bmax[0] && bmin[1] <= bmax[1] && bmin[2] <= bmax[2]);
    // WF_NO_SPAN is the list terminator, so it can never be a pool index.
    WF_CHECK_ARG(span_capacity < WF_NO_SPAN);

    wf_arena_mark mark = wf_arena_get_mark(arena);
    size_t cell_count = wf_size_mul((size_t)width, (size_t)depth);
    uint32_t* columns = WF_ARENA_ARRAY(arena, uint32_t, cell_count);
    wf_span* spans = span_capacity > 0 ? WF_ARENA_ARRAY(arena, wf_span, span_capacity) : NULL;
    if (columns == NULL || (span_capacity > 0 && spans == NULL)) {
        wf_arena_reset_to(arena, mark);
        return WF_ERR_CAPACITY;
    }
    for (size_t i = 0; i < cell_count; ++i) {
        columns[i] = WF_NO_SPAN;
    }

    memset(hf, 0, sizeof *hf);
    hf->width = width;
    hf->depth = depth;
    memcpy(hf->bmin, bmin, sizeof hf->bmin);
    memcpy(hf->bmax, bmax, sizeof hf->bmax);
    hf->cs = cs;
    hf->ch = ch;
    hf->columns = columns;
    hf->spans = spans;
    hf->span_count = 0;
    hf->span_capacity = span_capacity;
    hf->free_span = WF_NO_SPAN;
    return WF_OK;
}

/// Area precedence when two tops meet: any walkable id beats WF_AREA_NULL,
/// and among walkable ids the larger one wins (as in Recast, where the null
/// area is 0 and a plain max does the same).
static uint8_t merge_area(uint8_t a, uint8_t b) {
    if (a == WF_AREA_NULL) {
        return b;
    }
    if (b == WF_AREA_NULL) {
        return a;
    }
    return a > b ? a : b;
}

static uint32_t take_span(wf_heightfield* hf) {
    if (hf->free_span != WF_NO_SPAN) {
        uint32_t index = hf->free_span;
        hf->free_span = hf->spans[index].next;
        return index;
    }
    if (hf->span_count < hf->span_capacity) {
        return hf->span_count++;
    }
    return WF_NO_SPAN;
}

static void release_span(wf_heightfield* hf, uint32_t index) {
    hf->spans[index].next = hf->free_span;
    hf->free_span = index;
}

wf_status wf_heightfield_add_span(wf_heightfield* hf, int32_t x, int32_t z, uint16_t smin,
                                  uint16_t smax, uint8_t area, int32_t merge_climb) {
    WF_CHECK_ARG(hf != NULL && hf->columns != NULL);
    WF_CHECK_ARG(x >= 0 && x < hf->width && z >= 0 && z < hf->depth);
    WF_CHECK_ARG(smin < smax);
    WF_CHECK_ARG(merge_climb >= 0);

    uint32_t* column = &hf->columns[(size_t)x + (size_t)z * (size_t)hf->width];
    if (*column == WF_NO_SPAN) {
        // The common first visit of a column: no list to walk.
        uint32_t slot = take_span(hf);
        if (slot == WF_NO_SPAN) {
            return WF_ERR_CAPACITY;
        }
        hf->spans[slot] = (wf_span){.smin = smin, .smax = smax, .area = area, .next = WF_NO_SPAN};
        *column = slot;
        return WF_OK;
    }

    // First pass: find the spans the new one overlaps or touches and the
    // merged result, without changing anything, so a full pool leaves the
    // column as it was.
    uint32_t prev = WF_NO_SPAN; // last span entirely below the new one
    uint32_t first_hit = WF_NO_SPAN;
    uint16_t new_min = smin;
    uint16_t new_max = smax;
    uint8_t new_area = area;
    for (uint32_t s = *column; s != WF_NO_SPAN; s = hf->spans[s].next) {
        const wf_span* cur = &hf->spans[s];
        if (cur->smin > new_max) {
            break; // sorted: everything from here up is clear of the new span
        }
        if (cur->smax < new_min) {
            prev = s;
            continue;
        }
        if (first_hit == WF_NO_SPAN) {
            first_hit = s;
        }
        if (cur->smin < new_min) {
            new_min = cur->smin;
        }
        // The merged top belongs to the higher surface; tops within the
        // merge climb are one surface and the stronger area wins.
        int32_t diff = (int32_t)cur->smax - (int32_t)new_max;
        if (diff > merge_climb) {
            new_area = cur->area;
        } else if (diff >= -merge_climb) {
            new_area = merge_area(new_area, cur->area);
        }
        if (cur->smax > new_max) {
            new_max = cur->smax;
        }
    }

    uint32_t slot = first_hit;
    if (slot == WF_NO_SPAN) {
        slot = take_span(hf);
        if (slot == WF_NO_SPAN) {
            return WF_ERR_CAPACITY;
        }
        uint32_t above = prev == WF_NO_SPAN ? *column : hf->spans[prev].next;
        hf->spans[slot].next = above;
        if (prev == WF_NO_SPAN) {
            *column = slot;
        } else {
            hf->spans[prev].next = slot;
        }
    } else {
        // Reuse the lowest merged span and free the others it swallowed.
        uint32_t s = hf->spans[slot].next;
        while (s != WF_NO_SPAN && hf->spans[s].smin <= new_max) {
            uint32_t next = hf->spans[s].next;
            release_span(hf, s);
            s = next;
        }
        hf->spans[slot].next = s;
    }
    hf->spans[slot].smin = new_min;
    hf->spans[slot].smax = new_max;
    hf->spans[slot].area = new_area;
    return WF_OK;
}
