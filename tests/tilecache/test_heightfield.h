// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// A span heightfield on a counted arena, and a check of one column's spans,
// for the tile cache's input tests (include after cmocka.h).
#ifndef WF_TESTS_TILECACHE_TEST_HEIGHTFIELD_H
#define WF_TESTS_TILECACHE_TEST_HEIGHTFIELD_H

#include <stdarg.h>
#include <stdint.h>

#include "counting_allocator.h"
#include "tilecache/heightfield.h"

typedef struct hf_fixture {
    counting_allocator ca;
    wf_allocator allocator;
    wf_arena arena;
    wf_heightfield hf;
} hf_fixture;

static inline void hf_setup(hf_fixture* f, int32_t width, int32_t depth, const float* bmin,
                            const float* bmax, float cs, float ch, uint32_t span_capacity) {
    counting_allocator_init(&f->ca);
    f->allocator = counting_allocator_hooks(&f->ca);
    assert_int_equal(wf_arena_create(&f->arena, &f->allocator, 1u << 16), WF_OK);
    assert_int_equal(
        wf_heightfield_init(&f->hf, &f->arena, width, depth, bmin, bmax, cs, ch, span_capacity),
        WF_OK);
}

static inline void hf_teardown(hf_fixture* f) {
    wf_arena_destroy(&f->arena, &f->allocator);
    assert_int_equal(counting_allocator_live(&f->ca), 0);
}

/// Column (x, z) must hold exactly the spans given as (smin, smax, area)
/// triples, bottom up; count 0 = an empty column.
static inline void assert_column(const wf_heightfield* hf, int32_t x, int32_t z, int count, ...) {
    va_list args;
    va_start(args, count);
    uint32_t s = hf->columns[x + z * hf->width];
    for (int i = 0; i < count; ++i) {
        int smin = va_arg(args, int);
        int smax = va_arg(args, int);
        int area = va_arg(args, int);
        if (s == WF_NO_SPAN) {
            print_error("column (%d, %d): span %d missing\n", x, z, i);
        }
        assert_int_not_equal(s, WF_NO_SPAN);
        const wf_span* span = &hf->spans[s];
        if (span->smin != smin || span->smax != smax || span->area != area) {
            print_error("column (%d, %d) span %d: [%u, %u) area %u, expected [%d, %d) area %d\n", x,
                        z, i, span->smin, span->smax, span->area, smin, smax, area);
        }
        assert_int_equal(span->smin, smin);
        assert_int_equal(span->smax, smax);
        assert_int_equal(span->area, area);
        s = span->next;
    }
    va_end(args);
    assert_int_equal(s, WF_NO_SPAN);
}

#endif
