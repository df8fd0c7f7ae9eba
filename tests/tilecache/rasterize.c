// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Span heightfield: initialisation, the span merge rules, and triangle
// rasterization (covered cells, span heights, slope, clipping to the
// field's bounds, a full span pool, bad input) on hand-built triangles.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "navcore/arena.h"
#include "test_hooks.h"
#include "tilecache/heightfield.h"

#define ARENA_BYTES (256u * 1024u)
#define MAX_COLUMN 32
/// Recorded from the rasterizer before the 2026-11-29 row sweep (see the test).
#define LATTICE_SOUP_HASH 0x424abd365914e88bull

typedef struct fixture {
    counting_allocator counter;
    wf_allocator allocator;
    wf_arena arena;
} fixture;

static int setup(void** state) {
    fixture* f = test_calloc(1, sizeof *f);
    counting_allocator_init(&f->counter);
    f->allocator = counting_allocator_hooks(&f->counter);
    if (wf_arena_create(&f->arena, &f->allocator, ARENA_BYTES) != WF_OK) {
        return -1;
    }
    *state = f;
    return 0;
}

static int teardown(void** state) {
    fixture* f = *state;
    wf_arena_destroy(&f->arena, &f->allocator);
    assert_int_equal(counting_allocator_live(&f->counter), 0);
    test_free(f);
    return 0;
}

/// A field of width x depth cells of size cs (cell (x, z) covers
/// [x * cs, (x + 1) * cs) on each axis from the origin), y from 0 to top.
static wf_heightfield make_field(fixture* f, int32_t width, int32_t depth, float cs, float ch,
                                 float top, uint32_t span_capacity) {
    const float bmin[3] = {0.0f, 0.0f, 0.0f};
    const float bmax[3] = {(float)width * cs, top, (float)depth * cs};
    wf_heightfield hf;
    assert_int_equal(
        wf_heightfield_init(&hf, &f->arena, width, depth, bmin, bmax, cs, ch, span_capacity),
        WF_OK);
    return hf;
}

typedef struct column_spans {
    int count;
    wf_span spans[MAX_COLUMN];
} column_spans;

/// The spans of one column, bottom up, checking the list is sorted and
/// its spans neither overlap nor touch.
static column_spans read_column(const wf_heightfield* hf, int32_t x, int32_t z) {
    column_spans c;
    memset(&c, 0, sizeof c);
    uint32_t i = hf->columns[x + z * hf->width];
    for (; i != WF_NO_SPAN; i = hf->spans[i].next) {
        assert_true(i < hf->span_count);
        assert_true(c.count < MAX_COLUMN);
        const wf_span* s = &hf->spans[i];
        assert_true(s->smin < s->smax);
        if (c.count > 0) {
            assert_true(c.spans[c.count - 1].smax < s->smin);
        }
        c.spans[c.count++] = *s;
    }
    return c;
}

/// Two columns hold the same spans (bounds and areas), bottom up.
static void assert_same_column(const column_spans* a, const column_spans* b) {
    assert_int_equal(a->count, b->count);
    for (int i = 0; i < a->count; ++i) {
        assert_int_equal(a->spans[i].smin, b->spans[i].smin);
        assert_int_equal(a->spans[i].smax, b->spans[i].smax);
        assert_int_equal(a->spans[i].area, b->spans[i].area);
    }
}

static void assert_column(const wf_heightfield* hf, int32_t x, int32_t z, int count,
                          const uint16_t* smin, const uint16_t* smax, const uint8_t* area) {
    column_spans c = read_column(hf, x, z);
    assert_int_equal(c.count, count);
    for (int i = 0; i < count; ++i) {
        assert_int_equal(c.spans[i].smin, smin[i]);
        assert_int_equal(c.spans[i].smax, smax[i]);
        assert_int_equal(c.spans[i].area, area[i]);
    }
}

static void assert_single(const wf_heightfield* hf, int32_t x, int32_t z, uint16_t smin,
                          uint16_t smax, uint8_t area) {
    assert_column(hf, x, z, 1, &smin, &smax, &area);
}

static uint32_t spans_in_field(const wf_heightfield* hf) {
    uint32_t n = 0;
    for (int32_t z = 0; z < hf->depth; ++z) {
        for (int32_t x = 0; x < hf->width; ++x) {
            n += (uint32_t)read_column(hf, x, z).count;
        }
    }
    return n;
}

/* ---------------------------------------------------------------------------
 * Initialisation
 */

static void test_init_gives_empty_columns(void** state) {
    fixture* f = *state;
    wf_heightfield hf = make_field(f, 3, 2, 0.5f, 0.25f, 4.0f, 10);
    assert_int_equal(hf.width, 3);
    assert_int_equal(hf.depth, 2);
    assert_true(hf.cs == 0.5f && hf.ch == 0.25f);
    assert_true(hf.bmax[0] == 1.5f && hf.bmax[1] == 4.0f && hf.bmax[2] == 1.0f);
    assert_int_equal(hf.span_count, 0);
    assert_int_equal(hf.span_capacity, 10);
    assert_int_equal(hf.free_span, WF_NO_SPAN);
    for (int i = 0; i < 6; ++i) {
        assert_int_equal(hf.columns[i], WF_NO_SPAN);
    }
    // columns (6 x 4 bytes) and 10 spans come from the arena
    assert_true(f->arena.used >= 6 * sizeof(uint32_t) + 10 * sizeof(wf_span));
}

static void test_init_rejects_bad_arguments(void** state) {
    fixture* f = *state;
    const float lo[3] = {0, 0, 0};
    const float hi[3] = {1, 1, 1};
    const float nan3[3] = {NAN, 0, 0};
    const float inverted[3] = {0, -1, 0};
    wf_heightfield hf;
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    assert_int_equal(wf_heightfield_init(NULL, &f->arena, 1, 1, lo, hi, 1, 1, 1),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_heightfield_init(&hf, NULL, 1, 1, lo, hi, 1, 1, 1), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_heightfield_init(&hf, &f->arena, 0, 1, lo, hi, 1, 1, 1),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_heightfield_init(&hf, &f->arena, 1, -2, lo, hi, 1, 1, 1),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_heightfield_init(&hf, &f->arena, 1, 1, lo, hi, 0, 1, 1),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_heightfield_init(&hf, &f->arena, 1, 1, lo, hi, 1, NAN, 1),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_heightfield_init(&hf, &f->arena, 1, 1, nan3, hi, 1, 1, 1),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_heightfield_init(&hf, &f->arena, 1, 1, lo, inverted, 1, 1, 1),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_heightfield_init(&hf, &f->arena, 1, 1, lo, hi, 1, 1, WF_NO_SPAN),
                     WF_ERR_INVALID_ARG);
    wf_set_assert_hook(previous);
    assert_int_equal(f->arena.used, 0);
}

static void test_init_reports_a_full_arena(void** state) {
    (void)state;
    unsigned char buffer[256];
    wf_arena small;
    wf_arena_init(&small, buffer, sizeof buffer);
    const float lo[3] = {0, 0, 0};
    const float hi[3] = {10, 1, 10};
    wf_heightfield hf;
    // 100 columns need 400 bytes
    assert_int_equal(wf_heightfield_init(&hf, &small, 10, 10, lo, hi, 1, 1, 0), WF_ERR_CAPACITY);
    assert_int_equal(small.used, 0);
    // the columns fit, the span pool does not: nothing stays allocated
    assert_int_equal(wf_heightfield_init(&hf, &small, 4, 4, lo, hi, 1, 1, 100), WF_ERR_CAPACITY);
    assert_int_equal(small.used, 0);
    assert_int_equal(wf_heightfield_init(&hf, &small, 4, 4, lo, hi, 1, 1, 0), WF_OK);
}

/* ---------------------------------------------------------------------------
 * Span insertion and merging
 */

static void test_add_keeps_columns_sorted(void** state) {
    fixture* f = *state;
    wf_heightfield hf = make_field(f, 2, 2, 1, 1, 100, 16);
    assert_int_equal(wf_heightfield_add_span(&hf, 1, 0, 10, 12, 3, 1), WF_OK);
    assert_int_equal(wf_heightfield_add_span(&hf, 1, 0, 20, 25, 4, 1), WF_OK); // above
    assert_int_equal(wf_heightfield_add_span(&hf, 1, 0, 2, 5, 5, 1), WF_OK);   // below
    assert_int_equal(wf_heightfield_add_span(&hf, 1, 0, 14, 16, 6, 1), WF_OK); // between
    const uint16_t lo[] = {2, 10, 14, 20};
    const uint16_t hi[] = {5, 12, 16, 25};
    const uint8_t area[] = {5, 3, 6, 4};
    assert_column(&hf, 1, 0, 4, lo, hi, area);
    assert_int_equal(read_column(&hf, 0, 0).count, 0);
    assert_int_equal(read_column(&hf, 0, 1).count, 0);
    assert_int_equal(read_column(&hf, 1, 1).count, 0);
    assert_int_equal(hf.span_count, 4);
}

static void test_add_merges_overlapping_and_touching(void** state) {
    fixture* f = *state;
    wf_heightfield hf = make_field(f, 3, 1, 1, 1, 100, 16);
    // overlap: [10,20) + [15,30) -> [10,30)
    assert_int_equal(wf_heightfield_add_span(&hf, 0, 0, 10, 20, 1, 0), WF_OK);
    assert_int_equal(wf_heightfield_add_span(&hf, 0, 0, 15, 30, 1, 0), WF_OK);
    assert_single(&hf, 0, 0, 10, 30, 1);
    // touching from below and from above both join
    assert_int_equal(wf_heightfield_add_span(&hf, 0, 0, 5, 10, 1, 0), WF_OK);
    assert_int_equal(wf_heightfield_add_span(&hf, 0, 0, 30, 31, 1, 0), WF_OK);
    assert_single(&hf, 0, 0, 5, 31, 1);
    // a span inside another changes nothing but the area rule
    assert_int_equal(wf_heightfield_add_span(&hf, 0, 0, 12, 14, 1, 0), WF_OK);
    assert_single(&hf, 0, 0, 5, 31, 1);
    // a gap of one voxel keeps two spans
    assert_int_equal(wf_heightfield_add_span(&hf, 0, 0, 32, 40, 1, 0), WF_OK);
    const uint16_t lo[] = {5, 32};
    const uint16_t hi[] = {31, 40};
    const uint8_t area[] = {1, 1};
    assert_column(&hf, 0, 0, 2, lo, hi, area);
    // merges reuse the slot in place: only two spans were ever needed
    assert_int_equal(hf.span_count, 2);
}

static void test_add_bridging_span_frees_the_swallowed(void** state) {
    fixture* f = *state;
    wf_heightfield hf = make_field(f, 2, 1, 1, 1, 100, 3);
    assert_int_equal(wf_heightfield_add_span(&hf, 0, 0, 0, 4, 0, 0), WF_OK);
    assert_int_equal(wf_heightfield_add_span(&hf, 0, 0, 8, 10, 0, 0), WF_OK);
    assert_int_equal(wf_heightfield_add_span(&hf, 0, 0, 14, 20, 0, 0), WF_OK);
    assert_int_equal(hf.span_count, 3);
    // [3, 15) reaches all three: one span remains, two go to the free list
    assert_int_equal(wf_heightfield_add_span(&hf, 0, 0, 3, 15, 0, 0), WF_OK);
    assert_single(&hf, 0, 0, 0, 20, 0);
    assert_true(hf.free_span != WF_NO_SPAN);
    // the pool is used up, yet two more spans fit in the freed slots
    assert_int_equal(wf_heightfield_add_span(&hf, 1, 0, 1, 2, 0, 0), WF_OK);
    assert_int_equal(wf_heightfield_add_span(&hf, 1, 0, 5, 6, 0, 0), WF_OK);
    assert_int_equal(hf.free_span, WF_NO_SPAN);
    assert_int_equal(wf_heightfield_add_span(&hf, 1, 0, 9, 10, 0, 0), WF_ERR_CAPACITY);
    const uint16_t lo[] = {1, 5};
    const uint16_t hi[] = {2, 6};
    const uint8_t area[] = {0, 0};
    assert_column(&hf, 1, 0, 2, lo, hi, area);
    assert_single(&hf, 0, 0, 0, 20, 0);
}

static void test_full_pool_leaves_column_unchanged(void** state) {
    fixture* f = *state;
    wf_heightfield hf = make_field(f, 1, 1, 1, 1, 100, 2);
    assert_int_equal(wf_heightfield_add_span(&hf, 0, 0, 10, 12, 2, 1), WF_OK);
    assert_int_equal(wf_heightfield_add_span(&hf, 0, 0, 20, 22, 3, 1), WF_OK);
    // a new span needs a slot: refused; the list is as it was
    assert_int_equal(wf_heightfield_add_span(&hf, 0, 0, 15, 17, 4, 1), WF_ERR_CAPACITY);
    assert_int_equal(wf_heightfield_add_span(&hf, 0, 0, 0, 1, 4, 1), WF_ERR_CAPACITY);
    const uint16_t lo[] = {10, 20};
    const uint16_t hi[] = {12, 22};
    const uint8_t area[] = {2, 3};
    assert_column(&hf, 0, 0, 2, lo, hi, area);
    // a span that merges needs no slot: still accepted when full
    assert_int_equal(wf_heightfield_add_span(&hf, 0, 0, 11, 14, 2, 1), WF_OK);
    const uint16_t lo2[] = {10, 20};
    const uint16_t hi2[] = {14, 22};
    assert_column(&hf, 0, 0, 2, lo2, hi2, area);
}

static void test_merged_area_follows_the_highest_top(void** state) {
    fixture* f = *state;
    const int32_t climb = 2;
    wf_heightfield hf = make_field(f, 8, 1, 1, 1, 100, 16);
    // new top higher by more than climb: the new area
    assert_int_equal(wf_heightfield_add_span(&hf, 0, 0, 0, 10, 5, climb), WF_OK);
    assert_int_equal(wf_heightfield_add_span(&hf, 0, 0, 5, 13, 1, climb), WF_OK);
    assert_single(&hf, 0, 0, 0, 13, 1);
    // the old top higher by more than climb: the old area, even an
    // unwalkable one over a walkable newcomer
    assert_int_equal(wf_heightfield_add_span(&hf, 1, 0, 0, 13, WF_AREA_NULL, climb), WF_OK);
    assert_int_equal(wf_heightfield_add_span(&hf, 1, 0, 0, 10, 7, climb), WF_OK);
    assert_single(&hf, 1, 0, 0, 13, WF_AREA_NULL);
    // tops within climb (either way): the larger walkable id
    assert_int_equal(wf_heightfield_add_span(&hf, 2, 0, 0, 10, 4, climb), WF_OK);
    assert_int_equal(wf_heightfield_add_span(&hf, 2, 0, 0, 12, 2, climb), WF_OK);
    assert_single(&hf, 2, 0, 0, 12, 4);
    assert_int_equal(wf_heightfield_add_span(&hf, 3, 0, 0, 12, 2, climb), WF_OK);
    assert_int_equal(wf_heightfield_add_span(&hf, 3, 0, 0, 10, 4, climb), WF_OK);
    assert_single(&hf, 3, 0, 0, 12, 4);
    // within climb, walkable beats unwalkable whatever the order
    assert_int_equal(wf_heightfield_add_span(&hf, 4, 0, 0, 10, WF_AREA_NULL, climb), WF_OK);
    assert_int_equal(wf_heightfield_add_span(&hf, 4, 0, 0, 11, 0, climb), WF_OK);
    assert_single(&hf, 4, 0, 0, 11, 0);
    assert_int_equal(wf_heightfield_add_span(&hf, 5, 0, 0, 11, 0, climb), WF_OK);
    assert_int_equal(wf_heightfield_add_span(&hf, 5, 0, 0, 10, WF_AREA_NULL, climb), WF_OK);
    assert_single(&hf, 5, 0, 0, 11, 0);
    // the new top higher by more than climb and unwalkable: a wall top
    assert_int_equal(wf_heightfield_add_span(&hf, 6, 0, 0, 10, 3, climb), WF_OK);
    assert_int_equal(wf_heightfield_add_span(&hf, 6, 0, 2, 13, WF_AREA_NULL, climb), WF_OK);
    assert_single(&hf, 6, 0, 0, 13, WF_AREA_NULL);
    // exactly climb apart counts as within
    assert_int_equal(wf_heightfield_add_span(&hf, 7, 0, 0, 10, 6, climb), WF_OK);
    assert_int_equal(wf_heightfield_add_span(&hf, 7, 0, 0, 12, WF_AREA_NULL, climb), WF_OK);
    assert_single(&hf, 7, 0, 0, 12, 6);
}

static void test_add_rejects_bad_arguments(void** state) {
    fixture* f = *state;
    wf_heightfield hf = make_field(f, 2, 2, 1, 1, 100, 4);
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    assert_int_equal(wf_heightfield_add_span(NULL, 0, 0, 0, 1, 0, 0), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_heightfield_add_span(&hf, -1, 0, 0, 1, 0, 0), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_heightfield_add_span(&hf, 2, 0, 0, 1, 0, 0), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_heightfield_add_span(&hf, 0, 2, 0, 1, 0, 0), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_heightfield_add_span(&hf, 0, 0, 5, 5, 0, 0), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_heightfield_add_span(&hf, 0, 0, 6, 5, 0, 0), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_heightfield_add_span(&hf, 0, 0, 0, 1, 0, -1), WF_ERR_INVALID_ARG);
    wf_set_assert_hook(previous);
    assert_int_equal(hf.span_count, 0);
}

/* ---------------------------------------------------------------------------
 * Rasterization
 */

/// Two triangles of a horizontal quad [x0, x1] x [z0, z1] at height y,
/// counter-clockwise seen from above.
typedef struct quad {
    float verts[12];
    uint32_t tris[6];
} quad;

static quad make_quad(float x0, float z0, float x1, float z1, float y) {
    quad q = {{x0, y, z0, x0, y, z1, x1, y, z1, x1, y, z0}, {0, 1, 2, 0, 2, 3}};
    return q;
}

static wf_geom quad_geom(const quad* q) {
    wf_geom g = {q->verts, 4, q->tris, 2, NULL, NULL, 0};
    return g;
}

static void test_flat_quad_covers_its_cells(void** state) {
    fixture* f = *state;
    // 4 x 4 cells of 1 m, ch 0.5; the quad spans x 0.5..2.5, z 1.5..3.5 at
    // y 2.3 (4.6 voxels): it touches cells x 0..2, z 1..3, each [4, 5).
    wf_heightfield hf = make_field(f, 4, 4, 1.0f, 0.5f, 10.0f, 64);
    quad q = make_quad(0.5f, 1.5f, 2.5f, 3.5f, 2.3f);
    wf_geom g = quad_geom(&q);
    assert_int_equal(wf_rasterize_triangles(&hf, &g, 45.0f, 1), WF_OK);
    for (int32_t z = 0; z < 4; ++z) {
        for (int32_t x = 0; x < 4; ++x) {
            if (x <= 2 && z >= 1) {
                assert_single(&hf, x, z, 4, 5, 0);
            } else {
                assert_int_equal(read_column(&hf, x, z).count, 0);
            }
        }
    }
    // the second triangle merged into the first one's spans: 9 slots used
    assert_int_equal(hf.span_count, 9);
}

static void test_triangle_areas_are_used(void** state) {
    fixture* f = *state;
    // One triangle over cells (0..1, 0..1) minus the far corner cell.
    wf_heightfield hf = make_field(f, 3, 3, 1.0f, 0.5f, 10.0f, 64);
    const float verts[] = {0.25f, 1.1f, 0.25f, 0.25f, 1.1f, 1.75f, 1.75f, 1.1f, 0.25f};
    const uint32_t tris[] = {0, 1, 2};
    const uint8_t areas[] = {17};
    wf_geom g = {verts, 3, tris, 1, areas, NULL, 0};
    assert_int_equal(wf_rasterize_triangles(&hf, &g, 45.0f, 1), WF_OK);
    // y 1.1 = 2.2 voxels -> [2, 3)
    assert_single(&hf, 0, 0, 2, 3, 17);
    assert_single(&hf, 1, 0, 2, 3, 17);
    assert_single(&hf, 0, 1, 2, 3, 17);
    // the hypotenuse x + z = 2 passes the corner of cell (1, 1): not covered
    assert_int_equal(read_column(&hf, 1, 1).count, 0);
    assert_int_equal(spans_in_field(&hf), 3);
}

static void test_ramp_spans_follow_the_slope(void** state) {
    fixture* f = *state;
    // A ramp y = x / 2 over the whole 4 x 2 field (26.6 degrees); ch 0.25,
    // so column x holds [2x, 2x + 2).
    const float verts[] = {0, 0, 0, 0, 0, 2, 4, 2, 2, 4, 2, 0};
    const uint32_t tris[] = {0, 1, 2, 0, 2, 3};
    wf_geom g = {verts, 4, tris, 2, NULL, NULL, 0};
    wf_heightfield gentle = make_field(f, 4, 2, 1.0f, 0.25f, 10.0f, 64);
    assert_int_equal(wf_rasterize_triangles(&gentle, &g, 30.0f, 1), WF_OK);
    wf_heightfield steep = make_field(f, 4, 2, 1.0f, 0.25f, 10.0f, 64);
    assert_int_equal(wf_rasterize_triangles(&steep, &g, 20.0f, 1), WF_OK);
    for (int32_t z = 0; z < 2; ++z) {
        for (int32_t x = 0; x < 4; ++x) {
            uint16_t lo = (uint16_t)(2 * x);
            assert_single(&gentle, x, z, lo, (uint16_t)(lo + 2), 0);
            // too steep for 20 degrees: same solid, unwalkable top
            assert_single(&steep, x, z, lo, (uint16_t)(lo + 2), WF_AREA_NULL);
        }
    }
}

static void test_wall_and_downward_triangles_are_unwalkable(void** state) {
    fixture* f = *state;
    wf_heightfield hf = make_field(f, 3, 3, 1.0f, 0.5f, 10.0f, 64);
    // a vertical wall in the plane z = 0.5 from x 0.2 to 2.8, y 1 to 3
    const float wall[] = {0.2f, 1, 0.5f, 0.2f, 3, 0.5f, 2.8f, 3, 0.5f, 2.8f, 1, 0.5f};
    const uint32_t wall_tris[] = {0, 1, 2, 0, 2, 3};
    wf_geom g = {wall, 4, wall_tris, 2, NULL, NULL, 0};
    assert_int_equal(wf_rasterize_triangles(&hf, &g, 89.0f, 1), WF_OK);
    for (int32_t x = 0; x < 3; ++x) {
        assert_single(&hf, x, 0, 2, 6, WF_AREA_NULL);
    }
    // a floor wound clockwise seen from above faces down: unwalkable
    const float floor_cw[] = {0.2f, 4.1f, 1.2f, 0.8f, 4.1f, 1.2f, 0.2f, 4.1f, 1.8f};
    const uint32_t tri[] = {0, 1, 2};
    wf_geom down = {floor_cw, 3, tri, 1, NULL, NULL, 0};
    assert_int_equal(wf_rasterize_triangles(&hf, &down, 45.0f, 1), WF_OK);
    assert_single(&hf, 0, 1, 8, 9, WF_AREA_NULL);
    // the same triangle wound the other way faces up
    const uint32_t tri_ccw[] = {0, 2, 1};
    wf_geom up = {floor_cw, 3, tri_ccw, 1, NULL, NULL, 0};
    assert_int_equal(wf_rasterize_triangles(&hf, &up, 45.0f, 1), WF_OK);
    assert_single(&hf, 0, 1, 8, 9, 0);
    assert_int_equal(spans_in_field(&hf), 4);
}

static void test_overlapping_triangles_merge(void** state) {
    fixture* f = *state;
    wf_heightfield hf = make_field(f, 3, 3, 1.0f, 0.5f, 10.0f, 64);
    // y 2.3 -> [4, 5) and y 2.6 -> [5, 6): they touch and merge to [4, 6)
    quad low = make_quad(0.2f, 0.2f, 1.8f, 1.8f, 2.3f);
    quad high = make_quad(0.3f, 0.3f, 1.7f, 1.7f, 2.6f);
    wf_geom g = quad_geom(&low);
    assert_int_equal(wf_rasterize_triangles(&hf, &g, 45.0f, 1), WF_OK);
    g = quad_geom(&high);
    assert_int_equal(wf_rasterize_triangles(&hf, &g, 45.0f, 1), WF_OK);
    for (int32_t z = 0; z < 2; ++z) {
        for (int32_t x = 0; x < 2; ++x) {
            assert_single(&hf, x, z, 4, 6, 0);
        }
    }
    assert_int_equal(spans_in_field(&hf), 4);
}

static void test_overhang_gives_two_spans(void** state) {
    fixture* f = *state;
    wf_heightfield hf = make_field(f, 3, 3, 1.0f, 0.5f, 10.0f, 64);
    // a floor at 1.1 ([2, 3)) under the whole field, a slab at 4.1
    // ([8, 9)) over cells x 1..2 only
    quad floor = make_quad(0.1f, 0.1f, 2.9f, 2.9f, 1.1f);
    quad slab = make_quad(1.1f, 0.1f, 2.9f, 2.9f, 4.1f);
    wf_geom g = quad_geom(&floor);
    assert_int_equal(wf_rasterize_triangles(&hf, &g, 45.0f, 1), WF_OK);
    g = quad_geom(&slab);
    assert_int_equal(wf_rasterize_triangles(&hf, &g, 45.0f, 1), WF_OK);
    const uint16_t lo[] = {2, 8};
    const uint16_t hi[] = {3, 9};
    const uint8_t area[] = {0, 0};
    for (int32_t z = 0; z < 3; ++z) {
        assert_single(&hf, 0, z, 2, 3, 0);
        assert_column(&hf, 1, z, 2, lo, hi, area);
        assert_column(&hf, 2, z, 2, lo, hi, area);
    }
}

static void test_clipping_to_the_field_bounds(void** state) {
    fixture* f = *state;
    // field x, z in [0, 3), y in [0, 5]
    wf_heightfield hf = make_field(f, 3, 3, 1.0f, 0.5f, 5.0f, 64);
    // wholly above and wholly below: nothing
    quad above = make_quad(0.1f, 0.1f, 2.9f, 2.9f, 5.2f);
    quad below = make_quad(0.1f, 0.1f, 2.9f, 2.9f, -0.3f);
    wf_geom g = quad_geom(&above);
    assert_int_equal(wf_rasterize_triangles(&hf, &g, 45.0f, 1), WF_OK);
    g = quad_geom(&below);
    assert_int_equal(wf_rasterize_triangles(&hf, &g, 45.0f, 1), WF_OK);
    assert_int_equal(spans_in_field(&hf), 0);
    // beside the field on x: nothing
    quad beside = make_quad(3.2f, 0.1f, 5.0f, 2.9f, 1.0f);
    g = quad_geom(&beside);
    assert_int_equal(wf_rasterize_triangles(&hf, &g, 45.0f, 1), WF_OK);
    assert_int_equal(spans_in_field(&hf), 0);
    // a quad from x = -5 to 1.5 and z = 1.2 to 9 keeps cells x 0..1, z 1..2
    quad over_edge = make_quad(-5.0f, 1.2f, 1.5f, 9.0f, 1.1f);
    g = quad_geom(&over_edge);
    assert_int_equal(wf_rasterize_triangles(&hf, &g, 45.0f, 1), WF_OK);
    for (int32_t z = 0; z < 3; ++z) {
        for (int32_t x = 0; x < 3; ++x) {
            if (x <= 1 && z >= 1) {
                assert_single(&hf, x, z, 2, 3, 0);
            } else {
                assert_int_equal(read_column(&hf, x, z).count, 0);
            }
        }
    }
    // a steep ramp y = 2x - 1 over x 0..4 in a field 4.5 m tall: cut at
    // 0 below, clamped to the top, and the column wholly above is skipped
    wf_heightfield ramp_field = make_field(f, 4, 1, 1.0f, 0.5f, 4.5f, 64);
    const float ramp[] = {0, -1, 0.2f, 0, -1, 0.8f, 4, 7, 0.8f, 4, 7, 0.2f};
    const uint32_t tris[] = {0, 1, 2, 0, 2, 3};
    wf_geom rg = {ramp, 4, tris, 2, NULL, NULL, 0};
    assert_int_equal(wf_rasterize_triangles(&ramp_field, &rg, 45.0f, 1), WF_OK);
    // column 0: y -1..1 -> [0, 2); column 1: 1..3 -> [2, 6); column 2:
    // 3..5 -> [6, 9) (4.5 m is 9 voxels); column 3: 5..7 lies above
    assert_single(&ramp_field, 0, 0, 0, 2, WF_AREA_NULL);
    assert_single(&ramp_field, 1, 0, 2, 6, WF_AREA_NULL);
    assert_single(&ramp_field, 2, 0, 6, 9, WF_AREA_NULL);
    assert_int_equal(read_column(&ramp_field, 3, 0).count, 0);
}

static void test_full_span_pool_reports_capacity(void** state) {
    fixture* f = *state;
    wf_heightfield hf = make_field(f, 4, 4, 1.0f, 0.5f, 10.0f, 5);
    quad q = make_quad(0.5f, 1.5f, 2.5f, 3.5f, 2.3f); // needs 9 spans
    wf_geom g = quad_geom(&q);
    assert_int_equal(wf_rasterize_triangles(&hf, &g, 45.0f, 1), WF_ERR_CAPACITY);
    assert_int_equal(hf.span_count, 5);
    // what went in is intact: 5 single spans [4, 5) in the quad's cells
    uint32_t spans = 0;
    for (int32_t z = 0; z < 4; ++z) {
        for (int32_t x = 0; x < 4; ++x) {
            column_spans c = read_column(&hf, x, z);
            if (c.count > 0) {
                assert_true(x <= 2 && z >= 1);
                assert_int_equal(c.count, 1);
                assert_int_equal(c.spans[0].smin, 4);
                assert_int_equal(c.spans[0].smax, 5);
                spans++;
            }
        }
    }
    assert_int_equal(spans, 5);
}

static void test_rasterize_rejects_bad_input(void** state) {
    fixture* f = *state;
    wf_heightfield hf = make_field(f, 3, 3, 1.0f, 0.5f, 10.0f, 64);
    quad q = make_quad(0.5f, 0.5f, 2.5f, 2.5f, 2.3f);
    const uint32_t bad_index[] = {0, 1, 2, 0, 2, 4};
    wf_geom g = {q.verts, 4, bad_index, 2, NULL, NULL, 0};
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    // the first triangle is fine, the second is not: nothing is written
    assert_int_equal(wf_rasterize_triangles(&hf, &g, 45.0f, 1), WF_ERR_INVALID_ARG);
    quad nan_quad = make_quad(0.5f, 0.5f, 2.5f, 2.5f, 2.3f);
    nan_quad.verts[10] = NAN;
    g = quad_geom(&nan_quad);
    assert_int_equal(wf_rasterize_triangles(&hf, &g, 45.0f, 1), WF_ERR_INVALID_ARG);
    const uint8_t bad_areas[] = {0, 64};
    g = quad_geom(&q);
    g.tri_areas = bad_areas;
    assert_int_equal(wf_rasterize_triangles(&hf, &g, 45.0f, 1), WF_ERR_INVALID_ARG);
    g.tri_areas = NULL;
    assert_int_equal(wf_rasterize_triangles(&hf, &g, -1.0f, 1), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_rasterize_triangles(&hf, &g, 91.0f, 1), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_rasterize_triangles(&hf, &g, NAN, 1), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_rasterize_triangles(&hf, &g, 45.0f, -1), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_rasterize_triangles(NULL, &g, 45.0f, 1), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_rasterize_triangles(&hf, NULL, 45.0f, 1), WF_ERR_INVALID_ARG);
    wf_geom missing = {NULL, 4, q.tris, 2, NULL, NULL, 0};
    assert_int_equal(wf_rasterize_triangles(&hf, &missing, 45.0f, 1), WF_ERR_INVALID_ARG);
    wf_set_assert_hook(previous);
    assert_int_equal(hf.span_count, 0);
    // an empty mesh is fine, as are area ids 63 and WF_AREA_NULL
    wf_geom empty = {NULL, 0, NULL, 0, NULL, NULL, 0};
    assert_int_equal(wf_rasterize_triangles(&hf, &empty, 45.0f, 1), WF_OK);
    const uint8_t edge_areas[] = {63, WF_AREA_NULL};
    g.tri_areas = edge_areas;
    assert_int_equal(wf_rasterize_triangles(&hf, &g, 45.0f, 1), WF_OK);
    assert_single(&hf, 0, 2, 4, 5, 63);           // first triangle only
    assert_single(&hf, 2, 0, 4, 5, WF_AREA_NULL); // second triangle only
    assert_single(&hf, 1, 1, 4, 5, 63);           // both: walkable wins
}

static void test_degenerate_triangles(void** state) {
    fixture* f = *state;
    wf_heightfield hf = make_field(f, 3, 3, 1.0f, 0.5f, 10.0f, 64);
    // all three corners at one point, and three points on a line in XZ
    const float verts[] = {1.5f, 2.3f, 1.5f, 0.2f, 2.3f, 0.2f, 1.5f, 2.3f, 1.5f, 2.8f, 2.3f, 2.8f};
    const uint32_t tris[] = {0, 0, 0, 1, 2, 3};
    wf_geom g = {verts, 4, tris, 2, NULL, NULL, 0};
    assert_int_equal(wf_rasterize_triangles(&hf, &g, 45.0f, 1), WF_OK);
    // no area on the ground: whatever is written is unwalkable
    for (int32_t z = 0; z < 3; ++z) {
        for (int32_t x = 0; x < 3; ++x) {
            column_spans c = read_column(&hf, x, z);
            for (int i = 0; i < c.count; ++i) {
                assert_int_equal(c.spans[i].area, WF_AREA_NULL);
            }
        }
    }
}

/// A field of width x depth cells from a given corner (cells of size cs).
static wf_heightfield make_field_at(fixture* f, const float* corner, int32_t width, int32_t depth,
                                    float cs, float ch, float top, uint32_t span_capacity) {
    const float bmax[3] = {corner[0] + (float)width * cs, corner[1] + top,
                           corner[2] + (float)depth * cs};
    wf_heightfield hf;
    assert_int_equal(
        wf_heightfield_init(&hf, &f->arena, width, depth, corner, bmax, cs, ch, span_capacity),
        WF_OK);
    return hf;
}

/// A triangle soup over verts: triangle i is corners 3i, 3i + 1, 3i + 2
/// (tris, 3 x tri_count, is filled here).
static wf_geom soup_geom(float* verts, uint32_t* tris, uint32_t tri_count) {
    for (uint32_t i = 0; i < tri_count * 3u; ++i) {
        tris[i] = i;
    }
    return (wf_geom){verts, tri_count * 3u, tris, tri_count, NULL, NULL, 0};
}

/// The tile cache's path: areas classified once, then every triangle as
/// a list.
static void rasterize_as_list(wf_heightfield* hf, const wf_geom* g) {
    uint8_t* areas = test_malloc(g->tri_count);
    uint32_t* list = test_malloc(sizeof *list * g->tri_count);
    wf_rasterize_classify(g, 45.0f, 0, g->tri_count, areas);
    for (uint32_t i = 0; i < g->tri_count; ++i) {
        list[i] = i;
    }
    assert_int_equal(wf_rasterize_triangle_list(hf, g, areas, list, g->tri_count, 2), WF_OK);
    test_free(list);
    test_free(areas);
}

static void test_wide_and_deep_fields_match_a_small_one(void** state) {
    // The rasterizer tables the cell edges for fields up to 1023 cells a
    // side and computes them otherwise; both must give the same spans. One
    // small field (tabled), one 1100 cells wide and one 1100 deep (edges
    // computed), all from the same corner, each through the checked entry
    // and (small and wide) the tile cache's list entry: over the small
    // field's cells all must agree span for span.
    fixture* f = *state;
    const float corner[3] = {-12.34f, -1.0f, 5.67f};
    const float cs = 0.3f, ch = 0.1f, top = 6.0f;
    wf_heightfield small = make_field_at(f, corner, 8, 6, cs, ch, top, 512);
    wf_heightfield wide = make_field_at(f, corner, 1100, 6, cs, ch, top, 4096);
    wf_heightfield deep = make_field_at(f, corner, 8, 1100, cs, ch, top, 4096);
    // and the tile cache's path (areas classified once, then a list)
    wf_heightfield wide_list = make_field_at(f, corner, 1100, 6, cs, ch, top, 4096);
    wf_heightfield small_list = make_field_at(f, corner, 8, 6, cs, ch, top, 512);
    // Triangles over and around the small field (some leave it), from a
    // fixed linear congruential sequence.
    enum { TRIS = 40 };
    float verts[TRIS * 9];
    uint32_t tris[TRIS * 3];
    uint32_t seed = 12345u;
    for (int i = 0; i < TRIS * 9; ++i) {
        seed = seed * 1664525u + 1013904223u;
        const float unit = (float)(seed >> 8) / 16777216.0f; // [0, 1)
        const int axis = i % 3;
        const float span = axis == 0 ? 3.2f : axis == 1 ? 5.0f : 2.6f;
        verts[i] = corner[axis] - 0.4f + unit * span;
    }
    const wf_geom g = soup_geom(verts, tris, TRIS);
    assert_int_equal(wf_rasterize_triangles(&small, &g, 45.0f, 2), WF_OK);
    assert_int_equal(wf_rasterize_triangles(&wide, &g, 45.0f, 2), WF_OK);
    assert_int_equal(wf_rasterize_triangles(&deep, &g, 45.0f, 2), WF_OK);
    rasterize_as_list(&wide_list, &g);
    rasterize_as_list(&small_list, &g);
    uint32_t compared = 0;
    for (int32_t z = 0; z < small.depth; ++z) {
        for (int32_t x = 0; x < small.width; ++x) {
            const column_spans a = read_column(&small, x, z);
            const column_spans b = read_column(&wide, x, z);
            const column_spans c = read_column(&deep, x, z);
            const column_spans d = read_column(&wide_list, x, z);
            const column_spans e = read_column(&small_list, x, z);
            assert_same_column(&a, &b);
            assert_same_column(&a, &c);
            assert_same_column(&a, &d);
            assert_same_column(&a, &e);
            compared += (uint32_t)a.count;
        }
    }
    assert_true(compared > 40); // the triangles do cover the small field
}

/// FNV-1a over the spans (bounds and area) of the columns x < width,
/// z < depth, bottom up, column by column.
static uint64_t field_hash(const wf_heightfield* hf, int32_t width, int32_t depth) {
    uint64_t h = 14695981039346656037ull;
    for (int32_t z = 0; z < depth; ++z) {
        for (int32_t x = 0; x < width; ++x) {
            const column_spans c = read_column(hf, x, z);
            const unsigned char count = (unsigned char)c.count;
            h = (h ^ count) * 1099511628211ull;
            for (int i = 0; i < c.count; ++i) {
                const unsigned char b[5] = {(unsigned char)(c.spans[i].smin & 0xffu),
                                            (unsigned char)(c.spans[i].smin >> 8),
                                            (unsigned char)(c.spans[i].smax & 0xffu),
                                            (unsigned char)(c.spans[i].smax >> 8), c.spans[i].area};
                for (int k = 0; k < 5; ++k) {
                    h = (h ^ b[k]) * 1099511628211ull;
                }
            }
        }
    }
    return h;
}

static void test_lattice_soup_keeps_its_spans(void** state) {
    // Triangles whose corners sit on a lattice of half cells, so that rows
    // have corners of equal x, corners on cell edges and upright walls (the
    // cases the row sweep must settle as before), stacked over each other
    // in a field 30 x 30 cells. The spans' hash was recorded from the
    // rasterizer of main 4af084c, before its row sweep was rewritten for
    // speed (2026-11-29): the same spans, bit for bit, through both entries
    // and in a field 1100 cells wide (cell edges computed, not tabled). A
    // chain that stops a corner early changes the hash; a change meant to
    // move spans must record it again.
    fixture* f = *state;
    const float cs = 0.3f, ch = 0.1f, top = 8.0f;
    wf_heightfield direct = make_field(f, 30, 30, cs, ch, top, 8192);
    wf_heightfield listed = make_field(f, 30, 30, cs, ch, top, 8192);
    wf_arena wide_arena;
    assert_int_equal(wf_arena_create(&wide_arena, &f->allocator, 512u * 1024u), WF_OK);
    wf_heightfield wide;
    const float bmin[3] = {0.0f, 0.0f, 0.0f};
    const float wide_max[3] = {1100.0f * cs, top, 30.0f * cs};
    assert_int_equal(
        wf_heightfield_init(&wide, &wide_arena, 1100, 30, bmin, wide_max, cs, ch, 16384), WF_OK);
    enum { TRIS = 300 };
    static float verts[TRIS * 9];
    static uint32_t tris[TRIS * 3];
    uint32_t seed = 2026u;
    for (int i = 0; i < TRIS * 9; ++i) {
        seed = seed * 1664525u + 1013904223u;
        const uint32_t r = seed >> 8;
        const int axis = i % 3;
        // x, z: from -0.3 m in steps of 0.15 m (half cells) or 0.3 m, up to
        // 18.6 m, over the field and past it; y: 0.05 m steps.
        verts[i] = axis == 1 ? (float)(r % 150u) * 0.05f
                             : -0.3f + (float)(r % 64u) * 0.15f * (float)(1 + (r >> 20) % 2);
        if (axis == 2 && (r >> 12) % 5u == 0u) {
            verts[i] = verts[i - 2]; // z = x: some triangles with corners on the diagonal
        }
    }
    for (int t = 0; t < TRIS; t += 7) {
        verts[t * 9 + 3] = verts[t * 9]; // upright walls: two corners over one point
        verts[t * 9 + 5] = verts[t * 9 + 2];
    }
    const wf_geom g = soup_geom(verts, tris, TRIS);
    assert_int_equal(wf_rasterize_triangles(&direct, &g, 45.0f, 2), WF_OK);
    rasterize_as_list(&listed, &g);
    assert_int_equal(wf_rasterize_triangles(&wide, &g, 45.0f, 2), WF_OK);
    assert_true(spans_in_field(&direct) > 900); // the soup covers the field, in layers
    const uint64_t hash = field_hash(&direct, 30, 30);
    print_message("lattice soup: %u spans, hash 0x%016llx\n", spans_in_field(&direct),
                  (unsigned long long)hash);
    assert_int_equal(field_hash(&listed, 30, 30), hash);
    assert_int_equal(field_hash(&wide, 30, 30), hash);
    assert_int_equal(hash, LATTICE_SOUP_HASH);
    wf_arena_destroy(&wide_arena, &f->allocator);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_init_gives_empty_columns, setup, teardown),
        cmocka_unit_test_setup_teardown(test_init_rejects_bad_arguments, setup, teardown),
        cmocka_unit_test(test_init_reports_a_full_arena),
        cmocka_unit_test_setup_teardown(test_add_keeps_columns_sorted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_add_merges_overlapping_and_touching, setup, teardown),
        cmocka_unit_test_setup_teardown(test_add_bridging_span_frees_the_swallowed, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_full_pool_leaves_column_unchanged, setup, teardown),
        cmocka_unit_test_setup_teardown(test_merged_area_follows_the_highest_top, setup, teardown),
        cmocka_unit_test_setup_teardown(test_add_rejects_bad_arguments, setup, teardown),
        cmocka_unit_test_setup_teardown(test_flat_quad_covers_its_cells, setup, teardown),
        cmocka_unit_test_setup_teardown(test_triangle_areas_are_used, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ramp_spans_follow_the_slope, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wall_and_downward_triangles_are_unwalkable, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_overlapping_triangles_merge, setup, teardown),
        cmocka_unit_test_setup_teardown(test_overhang_gives_two_spans, setup, teardown),
        cmocka_unit_test_setup_teardown(test_clipping_to_the_field_bounds, setup, teardown),
        cmocka_unit_test_setup_teardown(test_full_span_pool_reports_capacity, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rasterize_rejects_bad_input, setup, teardown),
        cmocka_unit_test_setup_teardown(test_degenerate_triangles, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wide_and_deep_fields_match_a_small_one, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_lattice_soup_keeps_its_spans, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
