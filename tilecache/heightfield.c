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
    memcpy(hf->frame_bmin, bmin, sizeof hf->frame_bmin);
    memcpy(hf->frame_bmax, bmax, sizeof hf->frame_bmax);
    hf->frame_width = width;
    hf->frame_depth = depth;
    hf->columns = columns;
    hf->spans = spans;
    hf->span_count = 0;
    hf->span_capacity = span_capacity;
    hf->free_span = WF_NO_SPAN;
    return WF_OK;
}

void wf_heightfield_set_frame(wf_heightfield* hf, const float* frame_bmin, const float* frame_bmax,
                              int32_t frame_width, int32_t frame_depth, int32_t first_x,
                              int32_t first_z) {
    memcpy(hf->frame_bmin, frame_bmin, sizeof hf->frame_bmin);
    memcpy(hf->frame_bmax, frame_bmax, sizeof hf->frame_bmax);
    hf->frame_width = frame_width;
    hf->frame_depth = frame_depth;
    hf->window_first[0] = first_x;
    hf->window_first[1] = first_z;
}

wf_status wf_heightfield_add_span(wf_heightfield* hf, int32_t x, int32_t z, uint16_t smin,
                                  uint16_t smax, uint8_t area, int32_t merge_climb) {
    WF_CHECK_ARG(hf != NULL && hf->columns != NULL);
    WF_CHECK_ARG(x >= 0 && x < hf->width && z >= 0 && z < hf->depth);
    WF_CHECK_ARG(smin < smax);
    WF_CHECK_ARG(merge_climb >= 0);

    return wf_heightfield_insert_span(hf, (size_t)x + (size_t)z * (size_t)hf->width, smin, smax,
                                      area, merge_climb);
}
