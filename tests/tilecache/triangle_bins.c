// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Triangle bins: each piece lists exactly the triangles whose footprint
// reaches it, in triangle order; the lists, totals and areas are the same
// whether one worker counts or several count in chunks (inline and on a
// thread pool); a bad triangle and a limit passed by a chunk's share are
// named as one worker names them, and the chunks' logs of a refused count
// hold no more than one count's; a failed allocation leaves nothing, or the
// same lists when counting again in one go saved the build; random soups
// (with limits drawn about their totals, some with a bad triangle) give the
// same status, message and bins for 1, 2, 3 and 5 workers.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "test_inline_jobs.h"
#include "test_log_capture.h"
#include "tilecache/triangle_bins.h"

#define CS 0.3f
#define TILE 16
#define BORDER 5
#define TILES_X 5
#define TILES_Z 4
#define QUADS_X 80
#define QUADS_Z 60
#define SLIVERS 40
#define VERTS ((QUADS_X + 1) * (QUADS_Z + 1) + 3 * SLIVERS)
#define TRIS (2 * QUADS_X * QUADS_Z + SLIVERS)

static const wf_vec3 BMIN = {-1.5f, -2.0f, 2.25f};

typedef struct scene {
    float verts[VERTS * 3];
    uint32_t tris[TRIS * 3];
    uint8_t areas[TRIS];
    wf_geom geom;
} scene;

/// Rolling ground over the tiles (cells a little over the level's edge on
/// every side, some steep enough to fail the slope test), with jitter so
/// that corners fall on and off cell lines, plus long thin slivers across
/// many pieces.
static void make_scene(scene* s) {
    memset(s, 0, sizeof *s);
    const float w = TILES_X * TILE * CS, d = TILES_Z * TILE * CS;
    uint32_t seed = 777u, v = 0, t = 0;
    for (int z = 0; z <= QUADS_Z; ++z) {
        for (int x = 0; x <= QUADS_X; ++x) {
            seed = seed * 1664525u + 1013904223u;
            const float jitter = (float)((seed >> 9) % 100u) * 0.002f;
            float* p = &s->verts[3u * v++];
            p[0] = BMIN.x - 0.4f + (w + 0.8f) * (float)x / QUADS_X + (x % 3 == 1 ? jitter : 0.0f);
            p[1] = BMIN.y + 1.5f * sinf((float)x * 0.7f) * cosf((float)z * 0.5f);
            p[2] = BMIN.z - 0.4f + (d + 0.8f) * (float)z / QUADS_Z + (z % 4 == 2 ? jitter : 0.0f);
        }
    }
    for (int z = 0; z < QUADS_Z; ++z) {
        for (int x = 0; x < QUADS_X; ++x) {
            const uint32_t a = (uint32_t)(z * (QUADS_X + 1) + x), b = a + 1u;
            const uint32_t c = a + QUADS_X + 1u, e = c + 1u;
            uint32_t* q = &s->tris[3u * t];
            q[0] = a, q[1] = c, q[2] = e, q[3] = a, q[4] = e, q[5] = b;
            s->areas[t] = (uint8_t)(t % 3u);
            s->areas[t + 1u] = (uint8_t)((t + 1u) % 3u);
            t += 2u;
        }
    }
    for (int i = 0; i < SLIVERS; ++i) {
        seed = seed * 1664525u + 1013904223u;
        const float x0 = BMIN.x + (float)((seed >> 8) % 240u) * 0.1f;
        const float z0 = BMIN.z + (float)((seed >> 16) % 190u) * 0.1f;
        const float x1 = BMIN.x + (float)((seed >> 3) % 240u) * 0.1f;
        const float z1 = BMIN.z + (float)((seed >> 20) % 190u) * 0.1f;
        const float c[9] = {x0, 0.5f, z0, x1, 0.5f, z1, x1 + 0.05f, 0.5f, z1 + 0.02f};
        memcpy(&s->verts[3u * v], c, sizeof c);
        uint32_t* q = &s->tris[3u * t];
        q[0] = v, q[1] = v + 2u, q[2] = v + 1u;
        s->areas[t] = 5u;
        v += 3u;
        t += 1u;
    }
    assert_int_equal(v, VERTS);
    assert_int_equal(t, TRIS);
    s->geom = (wf_geom){s->verts, VERTS, s->tris, TRIS, s->areas, NULL, 0};
}

static wf_triangle_bins_desc desc_for(const wf_geom* geom, const wf_allocator* a,
                                      const wf_logger* logger, const wf_job_system* jobs) {
    const float w = TILES_X * TILE * CS, d = TILES_Z * TILE * CS;
    return (wf_triangle_bins_desc){
        .geom = geom,
        .grid = wf_piece_grid_make(TILE, BORDER, TILES_X, TILES_Z),
        .bmin = BMIN,
        .bmax = {BMIN.x + w, BMIN.y + 3.0f, BMIN.z + d},
        .cs = CS,
        .tile_width = TILE * CS,
        .max_slope_deg = 45.0f,
        .max_refs = UINT32_MAX,
        .max_cells = UINT64_MAX,
        .allocator = a,
        .logger = logger,
        .jobs = jobs,
    };
}

static void assert_same_bins(const wf_triangle_bins* a, const wf_triangle_bins* b) {
    assert_int_equal(a->piece_count, b->piece_count);
    assert_int_equal(a->tri_count, b->tri_count);
    assert_int_equal(a->refs, b->refs);
    assert_int_equal(a->total_cells, b->total_cells);
    assert_memory_equal(a->start, b->start, (a->piece_count + 1u) * sizeof *a->start);
    assert_memory_equal(a->tris, b->tris, a->refs * sizeof *a->tris);
    assert_memory_equal(a->cells, b->cells, a->piece_count * sizeof *a->cells);
    assert_memory_equal(a->areas, b->areas, a->tri_count);
}

static wf_allocator default_allocator(void) {
    wf_allocator a;
    assert_int_equal(wf_allocator_resolve(&(wf_allocator){0}, &a), WF_OK);
    return a;
}

/// Whether the triangle's XZ footprint meets the closed rectangle, grown
/// by `grow` on every side: the triangle clipped to it keeps a point.
static bool footprint_meets(const wf_geom* g, uint32_t t, const double rect[4], double grow) {
    double poly[2][16][2];
    int n = 3, cur = 0;
    for (int k = 0; k < 3; ++k) {
        const float* p = &g->verts[3u * g->tris[3u * t + (uint32_t)k]];
        poly[0][k][0] = p[0];
        poly[0][k][1] = p[2];
    }
    // Four half-planes: x >= x0, x <= x1, z >= z0, z <= z1.
    for (int side = 0; side < 4 && n > 0; ++side) {
        const int axis = side / 2;
        const double sign = side % 2 == 0 ? 1.0 : -1.0;
        const double limit = side % 2 == 0 ? rect[side] - grow : rect[side] + grow;
        int m = 0;
        for (int i = 0; i < n; ++i) {
            const double* a = poly[cur][i];
            const double* b = poly[cur][(i + 1) % n];
            const double da = sign * (a[axis] - limit), db = sign * (b[axis] - limit);
            if (da >= 0.0) {
                poly[1 - cur][m][0] = a[0], poly[1 - cur][m][1] = a[1], m++;
            }
            if ((da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0)) {
                const double f = da / (da - db);
                poly[1 - cur][m][0] = a[0] + f * (b[0] - a[0]);
                poly[1 - cur][m][1] = a[1] + f * (b[1] - a[1]);
                m++;
            }
        }
        n = m;
        cur = 1 - cur;
    }
    return n > 0;
}

/// The scene (test_free it) and its bins counted by one worker.
static scene* scene_with_bins(const wf_allocator* a, wf_triangle_bins* out) {
    scene* s = test_malloc(sizeof *s);
    make_scene(s);
    wf_triangle_bins_desc d = desc_for(&s->geom, a, NULL, NULL);
    assert_int_equal(wf_triangle_bins_build(out, &d), WF_OK);
    return s;
}

static void test_each_piece_lists_exactly_the_triangles_reaching_it(void** state) {
    (void)state;
    wf_allocator a = default_allocator();
    wf_triangle_bins bins;
    scene* s = scene_with_bins(&a, &bins);
    const wf_piece_grid grid = wf_piece_grid_make(TILE, BORDER, TILES_X, TILES_Z);
    assert_int_equal(bins.piece_count, (TILES_X + 2) * (TILES_Z + 2));
    assert_true(bins.refs > TRIS); // slivers and seams meet several pieces
    uint64_t pairs = 0;
    for (uint32_t p = 0; p < bins.piece_count; ++p) {
        int32_t c0, cols, r0, rows;
        wf_piece_columns(&grid, (int32_t)(p % (uint32_t)grid.pieces_x), &c0, &cols);
        wf_piece_rows(&grid, (int32_t)(p / (uint32_t)grid.pieces_x), &r0, &rows);
        const double rect[4] = {BMIN.x + c0 * (double)CS, BMIN.x + (c0 + cols) * (double)CS,
                                BMIN.z + r0 * (double)CS, BMIN.z + (r0 + rows) * (double)CS};
        uint32_t k = bins.start[p];
        for (uint32_t t = 0; t < TRIS; ++t) {
            const bool listed = k < bins.start[p + 1] && bins.tris[k] == t;
            if (listed) {
                k++;
                // Listed: within a hair (the bins' rounding slack) of it.
                assert_true(footprint_meets(&s->geom, t, rect, 0.01));
            } else {
                // Not listed: the footprint stays clear of its cells.
                assert_false(footprint_meets(&s->geom, t, rect, 0.0));
            }
        }
        assert_int_equal(k, bins.start[p + 1]); // in triangle order, none twice
        pairs += bins.start[p + 1] - bins.start[p];
    }
    assert_int_equal(pairs, bins.refs);
    // Areas: the given ids, NULL where the slope test fails (the sides of
    // the ground's steeper waves) or the triangle faces down.
    uint32_t nulls = 0;
    for (uint32_t t = 0; t < TRIS; ++t) {
        assert_true(bins.areas[t] == s->areas[t] || bins.areas[t] == WF_AREA_NULL);
        nulls += bins.areas[t] == WF_AREA_NULL;
    }
    assert_true(nulls > 0 && nulls < TRIS);
    wf_triangle_bins_free(&bins, &a);
    test_free(s);
}

static void test_the_same_bins_for_any_worker_count(void** state) {
    (void)state;
    scene* s = test_malloc(sizeof *s);
    make_scene(s);
    counting_allocator one_count, many_count;
    counting_allocator_init(&one_count);
    wf_allocator one_alloc = counting_allocator_hooks(&one_count);
    wf_triangle_bins_desc d = desc_for(&s->geom, &one_alloc, NULL, NULL);
    wf_triangle_bins one;
    assert_int_equal(wf_triangle_bins_build(&one, &d), WF_OK);
    const unsigned long one_allocations = one_count.allocations;
    // Inline job systems of 2, 3 and 7 workers: 2, 3 and 4 chunks (of at
    // least 2,048 of the 9,640 triangles), and a thread pool of 4.
    const uint32_t workers[] = {2, 3, 7};
    for (size_t i = 0; i < sizeof workers / sizeof workers[0]; ++i) {
        counting_allocator_init(&many_count);
        wf_allocator many_alloc = counting_allocator_hooks(&many_count);
        wf_job_system jobs = test_inline_jobs(workers[i]);
        d = desc_for(&s->geom, &many_alloc, NULL, &jobs);
        wf_triangle_bins many;
        assert_int_equal(wf_triangle_bins_build(&many, &d), WF_OK);
        assert_same_bins(&one, &many);
        // Counted in chunks: each chunk past the first has arrays of its own.
        assert_true(many_count.allocations > one_allocations);
        wf_triangle_bins_free(&many, &many_alloc);
        assert_int_equal(counting_allocator_live(&many_count), 0);
    }
    wf_thread_pool* pool = NULL;
    assert_int_equal(wf_thread_pool_create(&(wf_thread_pool_desc){.thread_count = 3}, &pool),
                     WF_OK);
    wf_job_system jobs = wf_thread_pool_job_system(pool);
    for (int run = 0; run < 4; ++run) {
        d = desc_for(&s->geom, &one_alloc, NULL, &jobs);
        wf_triangle_bins many;
        assert_int_equal(wf_triangle_bins_build(&many, &d), WF_OK);
        assert_same_bins(&one, &many);
        wf_triangle_bins_free(&many, &one_alloc);
    }
    wf_thread_pool_destroy(pool);
    wf_triangle_bins_free(&one, &one_alloc);
    assert_int_equal(counting_allocator_live(&one_count), 0);
    test_free(s);
}

/// Builds with one worker and with four inline, expecting `status` from
/// both, the same message, and nothing left.
static void assert_both_fail_alike(const wf_geom* geom, uint64_t max_refs, uint64_t max_cells,
                                   wf_status status, const char* expected) {
    test_log_capture logs[2];
    memset(logs, 0, sizeof logs);
    wf_job_system four = test_inline_jobs(4);
    for (int k = 0; k < 2; ++k) {
        counting_allocator count;
        counting_allocator_init(&count);
        wf_allocator a = counting_allocator_hooks(&count);
        wf_logger logger = test_log_capture_logger(&logs[k]);
        wf_triangle_bins_desc d = desc_for(geom, &a, &logger, k == 0 ? NULL : &four);
        d.max_refs = max_refs;
        d.max_cells = max_cells;
        wf_triangle_bins bins;
        assert_int_equal(wf_triangle_bins_build(&bins, &d), status);
        assert_null(bins.start);
        assert_null(bins.tris);
        assert_int_equal(counting_allocator_live(&count), 0);
        assert_int_equal(count.size_mismatches, 0);
        assert_int_equal(logs[k].count, 1);
    }
    assert_string_equal(logs[0].last, logs[1].last);
    assert_non_null(strstr(logs[0].last, expected));
}

static void test_a_bad_triangle_is_named_alike(void** state) {
    (void)state;
    scene* s = test_malloc(sizeof *s);
    make_scene(s);
    // Two bad triangles in different chunks of four: the first is named.
    s->tris[3u * 4000u + 1u] = VERTS;
    s->areas[5000u] = 64u;
    assert_both_fail_alike(&s->geom, UINT32_MAX, UINT64_MAX, WF_ERR_INVALID_ARG, "triangle 4000 ");
    s->tris[3u * 4000u + 1u] = 0u;
    assert_both_fail_alike(&s->geom, UINT32_MAX, UINT64_MAX, WF_ERR_INVALID_ARG, "triangle 5000 ");
    test_free(s);
}

static void test_limits_passed_by_a_chunks_share_are_named_alike(void** state) {
    (void)state;
    wf_allocator a = default_allocator();
    wf_triangle_bins bins;
    scene* s = scene_with_bins(&a, &bins);
    // Limits one under the totals: some chunk of four passes its quarter
    // (none passes the whole limit), and counting again in one go names
    // the last triangle that adds a pair, as one worker does.
    uint32_t last = 0;
    for (uint32_t p = 0; p < bins.piece_count; ++p) {
        for (uint32_t k = bins.start[p]; k < bins.start[p + 1]; ++k) {
            last = bins.tris[k] > last ? bins.tris[k] : last;
        }
    }
    char expected[128];
    snprintf(expected, sizeof expected, "the first %u of %u triangles already overlap %llu",
             last + 1u, TRIS, (unsigned long long)bins.refs);
    assert_both_fail_alike(&s->geom, bins.refs - 1u, UINT64_MAX, WF_ERR_CAPACITY, expected);
    snprintf(expected, sizeof expected, "the first %u of %u triangles already cover %llu cells",
             last + 1u, TRIS, (unsigned long long)bins.total_cells);
    assert_both_fail_alike(&s->geom, UINT32_MAX, bins.total_cells - 1u, WF_ERR_CAPACITY, expected);
    // A limit the first chunk alone passes: the first triangle past it.
    assert_both_fail_alike(&s->geom, 100u, UINT64_MAX, WF_ERR_CAPACITY,
                           "more than max_triangle_refs 100");
    // Limits exactly at the totals: a chunk's share passed, the count in
    // one go passes, and the bins are one worker's.
    wf_job_system four = test_inline_jobs(4);
    wf_triangle_bins_desc d = desc_for(&s->geom, &a, NULL, &four);
    d.max_refs = bins.refs;
    d.max_cells = bins.total_cells;
    wf_triangle_bins again;
    assert_int_equal(wf_triangle_bins_build(&again, &d), WF_OK);
    assert_same_bins(&bins, &again);
    wf_triangle_bins_free(&again, &a);
    wf_triangle_bins_free(&bins, &a);
    test_free(s);
}

/// 8,192 copies of a triangle over most of the level's 42 pieces.
enum { COPIES = 8192 };
typedef struct copies {
    float verts[9];
    uint32_t tris[3 * COPIES];
    wf_geom geom;
} copies;

static void make_copies(copies* c) {
    const float w = TILES_X * TILE * CS, d = TILES_Z * TILE * CS;
    const float v[9] = {BMIN.x - 1.0f,     0.0f, BMIN.z - 1.0f,
                        BMIN.x - 1.0f,     0.0f, BMIN.z + 2.0f * d,
                        BMIN.x + 2.0f * w, 0.0f, BMIN.z - 1.0f};
    memcpy(c->verts, v, sizeof v);
    for (uint32_t i = 0; i < COPIES; ++i) {
        c->tris[3u * i] = 0u, c->tris[3u * i + 1u] = 1u, c->tris[3u * i + 2u] = 2u;
    }
    c->geom = (wf_geom){c->verts, 3, c->tris, COPIES, NULL, NULL, 0};
}

/// Peak bytes of a count refused at `max_refs`, with one worker or four.
static long refused_peak(const wf_geom* g, uint64_t max_refs, uint32_t workers) {
    counting_allocator count;
    counting_allocator_init(&count);
    wf_allocator a = counting_allocator_hooks(&count);
    wf_logger quiet = {NULL, NULL, true};
    wf_job_system jobs = test_inline_jobs(workers);
    wf_triangle_bins_desc d = desc_for(g, &a, &quiet, &jobs);
    d.max_refs = max_refs;
    wf_triangle_bins bins;
    assert_int_equal(wf_triangle_bins_build(&bins, &d), WF_ERR_CAPACITY);
    assert_int_equal(counting_allocator_live(&count), 0);
    assert_int_equal(count.size_mismatches, 0);
    return (long)count.peak_bytes;
}

static void test_a_refused_count_holds_no_more_over_workers(void** state) {
    (void)state;
    // The pairs pass max_refs a quarter of the way in. Four chunks share
    // the limit, so their logs together hold what one count's does (not
    // four logs each up to the limit); the extra chunks' per-piece arrays
    // are all they add.
    copies* c = test_malloc(sizeof *c);
    make_copies(c);
    const uint64_t max_refs = 100000u;
    const long one = refused_peak(&c->geom, max_refs, 1),
               four = refused_peak(&c->geom, max_refs, 4);
    const long pieces = (TILES_X + 2) * (TILES_Z + 2);
    assert_true(one > (long)(max_refs * sizeof(uint32_t)));
    assert_true(four <= one + 3 * pieces * 12 + 4 * 64);
    test_free(c);
}

/// Fails each allocation of a build in turn (and, with `after`, every one
/// after it too): each build fails with WF_ERR_OUT_OF_MEMORY leaving
/// nothing, or gives `reference`'s bins (counting again in one go saved
/// it). Returns how many were saved.
static int sweep_failures(const wf_geom* g, const wf_triangle_bins* reference, uint32_t workers,
                          bool after) {
    wf_job_system jobs = test_inline_jobs(workers);
    int saved = 0, failed = 0;
    for (unsigned long k = 1;; ++k) {
        counting_allocator count;
        counting_allocator_init(&count);
        count.fail_at = k;
        count.fail_after = after;
        wf_allocator a = counting_allocator_hooks(&count);
        wf_logger quiet = {NULL, NULL, true};
        wf_triangle_bins_desc d = desc_for(g, &a, &quiet, &jobs);
        wf_triangle_bins bins;
        wf_status st = wf_triangle_bins_build(&bins, &d);
        if (count.failed == 0) {
            assert_int_equal(st, WF_OK); // every allocation tried
            wf_triangle_bins_free(&bins, &a);
            break;
        }
        if (st == WF_OK) {
            assert_same_bins(reference, &bins);
            wf_triangle_bins_free(&bins, &a);
            saved++;
        } else {
            assert_int_equal(st, WF_ERR_OUT_OF_MEMORY);
            assert_null(bins.start);
            failed++;
        }
        assert_int_equal(counting_allocator_live(&count), 0);
        assert_int_equal(count.size_mismatches, 0);
    }
    assert_true(failed > 0);
    return saved;
}

static void test_failed_allocations_leave_nothing(void** state) {
    (void)state;
    scene* s = test_malloc(sizeof *s);
    make_scene(s);
    copies* c = test_malloc(sizeof *c);
    make_copies(c);
    wf_allocator plain = default_allocator();
    wf_triangle_bins_desc d = desc_for(&s->geom, &plain, NULL, NULL);
    wf_triangle_bins scene_bins, copies_bins;
    assert_int_equal(wf_triangle_bins_build(&scene_bins, &d), WF_OK);
    d = desc_for(&c->geom, &plain, NULL, NULL);
    assert_int_equal(wf_triangle_bins_build(&copies_bins, &d), WF_OK);
    assert_true(copies_bins.refs > 20u * COPIES); // the logs grow
    // A chunk's failure is saved by the count in one go; one worker's, or
    // every allocation from one on, are not.
    assert_true(sweep_failures(&s->geom, &scene_bins, 4, false) > 0);
    assert_int_equal(sweep_failures(&s->geom, &scene_bins, 4, true), 0);
    assert_int_equal(sweep_failures(&s->geom, &scene_bins, 1, false), 0);
    assert_true(sweep_failures(&c->geom, &copies_bins, 4, false) > 0);
    assert_int_equal(sweep_failures(&c->geom, &copies_bins, 1, false), 0);
    wf_triangle_bins_free(&copies_bins, &plain);
    wf_triangle_bins_free(&scene_bins, &plain);
    test_free(c);
    test_free(s);
}

/// A random soup of TRIS triangles, each with its own corners.
typedef struct soup {
    float verts[9 * TRIS];
    uint32_t tris[3 * TRIS];
    uint8_t areas[TRIS];
    wf_geom geom;
} soup;

/// Small triangles round random centres, some long ones, a few over the
/// whole level, some past its edges, random areas (NULL among them) and,
/// when `bad` is set, one bad triangle somewhere.
static void make_soup(soup* s, uint32_t seed, bool bad) {
    memset(s, 0, sizeof *s);
    const float w = TILES_X * TILE * CS, d = TILES_Z * TILE * CS;
    uint32_t state = seed * 2654435761u + 1u;
#define NEXT() (state = state * 1664525u + 1013904223u, (float)(state >> 8) / 16777216.0f)
    for (uint32_t t = 0; t < TRIS; ++t) {
        const float kind = NEXT();
        const float size = kind < 0.8f ? 0.6f : kind < 0.97f ? 6.0f : 40.0f;
        const float cx = BMIN.x - 3.0f + (w + 6.0f) * NEXT();
        const float cz = BMIN.z - 3.0f + (d + 6.0f) * NEXT();
        for (uint32_t k = 0; k < 3; ++k) {
            float* v = &s->verts[9u * t + 3u * k];
            v[0] = cx + size * (NEXT() - 0.5f);
            v[1] = BMIN.y + 2.0f * NEXT();
            v[2] = cz + size * (NEXT() - 0.5f);
            s->tris[3u * t + k] = 3u * t + k;
        }
        s->areas[t] = NEXT() < 0.1f ? (uint8_t)WF_AREA_NULL : (uint8_t)(NEXT() * 8.0f);
    }
#undef NEXT
    if (bad) {
        const uint32_t t = (seed * 7919u) % TRIS;
        if (seed % 2u == 0u) {
            s->tris[3u * t + 2u] = 3u * TRIS + seed;
        } else {
            s->areas[t] = (uint8_t)(WF_MAX_AREAS + seed % 10u);
        }
    }
    s->geom = (wf_geom){s->verts, 3u * TRIS, s->tris, TRIS, s->areas, NULL, 0};
}

static void test_random_soups_bin_alike_for_any_worker_count(void** state) {
    (void)state;
    // Twenty soups, each binned by one worker and by 2, 3 and 5 (inline:
    // 2, 3 and 4 chunks), with no limits, with limits drawn about the
    // totals, and some with a bad triangle: the same status, the same
    // message and the same bins every time.
    soup* s = test_malloc(sizeof *s);
    wf_allocator a = default_allocator();
    wf_logger quiet = {NULL, NULL, true};
    int refused = 0, passed = 0;
    for (uint32_t seed = 1; seed <= 20; ++seed) {
        make_soup(s, seed, seed % 5u == 0u);
        wf_triangle_bins_desc d = desc_for(&s->geom, &a, &quiet, NULL);
        wf_triangle_bins free_run;
        wf_status st = wf_triangle_bins_build(&free_run, &d);
        const uint64_t refs = st == WF_OK ? free_run.refs : 1000u;
        const uint64_t cells = st == WF_OK ? free_run.total_cells : 100000u;
        for (int limits = 0; limits < 3; ++limits) {
            test_log_capture logs[4];
            memset(logs, 0, sizeof logs);
            wf_triangle_bins bins[4];
            wf_status status[4];
            const uint32_t workers[4] = {1, 2, 3, 5};
            for (int k = 0; k < 4; ++k) {
                wf_job_system jobs = test_inline_jobs(workers[k]);
                wf_logger logger = test_log_capture_logger(&logs[k]);
                d = desc_for(&s->geom, &a, &logger, &jobs);
                if (limits == 1) {
                    d.max_refs = refs / 2u + (seed * 131u) % (refs / 2u + 2u);
                } else if (limits == 2) {
                    d.max_cells = cells / 2u + (seed * 7877u) % (cells / 2u + 2u);
                }
                status[k] = wf_triangle_bins_build(&bins[k], &d);
                assert_int_equal(status[k], status[0]);
                assert_string_equal(logs[k].all, logs[0].all);
                if (status[k] == WF_OK) {
                    assert_same_bins(&bins[0], &bins[k]);
                } else {
                    assert_null(bins[k].start);
                }
            }
            refused += status[0] != WF_OK;
            passed += status[0] == WF_OK;
            for (int k = 0; k < 4; ++k) {
                wf_triangle_bins_free(&bins[k], &a);
            }
        }
        if (st == WF_OK) {
            wf_triangle_bins_free(&free_run, &a);
        }
    }
    assert_true(refused > 10 && passed > 10);
    test_free(s);
}

static void test_no_triangles(void** state) {
    (void)state;
    wf_allocator a = default_allocator();
    const float v[3] = {0};
    wf_geom g = {v, 1, NULL, 0, NULL, NULL, 0};
    wf_job_system four = test_inline_jobs(4);
    wf_triangle_bins_desc d = desc_for(&g, &a, NULL, &four);
    wf_triangle_bins bins;
    assert_int_equal(wf_triangle_bins_build(&bins, &d), WF_OK);
    assert_int_equal(bins.refs, 0);
    for (uint32_t p = 0; p <= bins.piece_count; ++p) {
        assert_int_equal(bins.start[p], 0);
    }
    wf_triangle_bins_free(&bins, &a);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_piece_lists_exactly_the_triangles_reaching_it),
        cmocka_unit_test(test_the_same_bins_for_any_worker_count),
        cmocka_unit_test(test_a_bad_triangle_is_named_alike),
        cmocka_unit_test(test_limits_passed_by_a_chunks_share_are_named_alike),
        cmocka_unit_test(test_a_refused_count_holds_no_more_over_workers),
        cmocka_unit_test(test_failed_allocations_leave_nothing),
        cmocka_unit_test(test_random_soups_bin_alike_for_any_worker_count),
        cmocka_unit_test(test_no_triangles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
