// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Random points: reproducible from a seed, always on the mesh, never in
// blocked or refused cells, spread by area, and around a start only over
// what is reachable from it; bad input.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "test_grid_fixture.h"
#include "test_hooks.h"
#include "test_meshes.h"
#include "wayfarer/query.h"

/// Checks that p lies on polygon ref, which is the grid cell under p.
static void assert_on_cell(const grid_fixture* f, wf_poly_ref ref, wf_vec3 p, uint32_t width,
                           uint32_t depth) {
    assert_true(p.x >= 0.0f && p.x <= (float)width && p.z >= 0.0f && p.z <= (float)depth);
    assert_true(p.y == 0.0f);
    float h = -1.0f;
    assert_int_equal(wf_query_poly_height(f->query, ref, p, &h), WF_OK);
    assert_true(h == 0.0f);
    float fx = floorf(p.x), fz = floorf(p.z);
    if (fx != p.x && fz != p.z) { // not on a cell edge, so the cell is known
        assert_true(wf_poly_ref_equal(ref, grid_cell(f, (uint32_t)fx, (uint32_t)fz)));
    }
}

static void test_same_seed_same_points(void** state) {
    (void)state;
    grid_fixture f;
    grid_open(&f, 2, 1, 4, 1.0f, NULL, NULL, 256);
    wf_query_filter filter = wf_query_filter_defaults();
    wf_rng a = wf_rng_make(42, 7), b = wf_rng_make(42, 7), c = wf_rng_make(43, 7);
    bool any_differs = false;
    for (int i = 0; i < 20; ++i) {
        wf_poly_ref ra, rb, rc;
        wf_vec3 pa, pb, pc;
        assert_int_equal(wf_query_find_random_point(f.query, &filter, &a, &ra, &pa), WF_OK);
        assert_int_equal(wf_query_find_random_point(f.query, &filter, &b, &rb, &pb), WF_OK);
        assert_int_equal(wf_query_find_random_point(f.query, &filter, &c, &rc, &pc), WF_OK);
        assert_true(wf_poly_ref_equal(ra, rb));
        assert_true(wf_v3_equal(pa, pb));
        any_differs = any_differs || !wf_v3_equal(pa, pc);
    }
    assert_true(any_differs);
    // Around a start too.
    wf_vec3 center = wf_v3(3.5f, 0.0f, 1.5f);
    for (int i = 0; i < 20; ++i) {
        wf_poly_ref ra, rb;
        wf_vec3 pa, pb;
        assert_int_equal(wf_query_find_random_point_around(f.query, grid_cell(&f, 3, 1), center,
                                                           2.0f, &filter, &a, &ra, &pa),
                         WF_OK);
        assert_int_equal(wf_query_find_random_point_around(f.query, grid_cell(&f, 3, 1), center,
                                                           2.0f, &filter, &b, &rb, &pb),
                         WF_OK);
        assert_true(wf_poly_ref_equal(ra, rb));
        assert_true(wf_v3_equal(pa, pb));
    }
    grid_close(&f);
}

/*
 * 8 x 4 cells over two tiles; the right tile keeps only its first row, so
 * the left tile holds 16 of the 20 square metres: 80 % of the points.
 */
static void test_points_spread_by_area_and_avoid_blocked_cells(void** state) {
    (void)state;
    uint8_t blocked[32] = {0};
    for (uint32_t z = 1; z < 4; ++z) {
        for (uint32_t x = 4; x < 8; ++x) {
            blocked[z * 8 + x] = 1;
        }
    }
    grid_fixture f;
    grid_open(&f, 2, 1, 4, 1.0f, blocked, NULL, 256);
    wf_query_filter filter = wf_query_filter_defaults();
    wf_rng rng = wf_rng_make(2026, 1);
    enum { SAMPLES = 4000 };
    uint32_t per_cell[32] = {0};
    for (int i = 0; i < SAMPLES; ++i) {
        wf_poly_ref ref;
        wf_vec3 p;
        assert_int_equal(wf_query_find_random_point(f.query, &filter, &rng, &ref, &p), WF_OK);
        assert_on_cell(&f, ref, p, 8, 4);
        uint32_t cx = (uint32_t)p.x, cz = (uint32_t)p.z;
        cx = cx > 7 ? 7 : cx;
        cz = cz > 3 ? 3 : cz;
        assert_false(blocked[cz * 8 + cx] && fmodf(p.x, 1.0f) != 0.0f && fmodf(p.z, 1.0f) != 0.0f);
        per_cell[cz * 8 + cx]++;
    }
    uint32_t left = 0;
    for (uint32_t z = 0; z < 4; ++z) {
        for (uint32_t x = 0; x < 4; ++x) {
            left += per_cell[z * 8 + x];
        }
    }
    // Binomial(4000, 0.8): mean 3200, sd 25; allow 6 sd.
    assert_in_range(left, 3200 - 150, 3200 + 150);
    // Each open cell: mean 200, sd 14; allow 5 sd.
    for (uint32_t i = 0; i < 32; ++i) {
        if (!blocked[i]) {
            assert_in_range(per_cell[i], 200 - 70, 200 + 70);
        }
    }
    grid_close(&f);
}

/// Inside one square polygon (a fan of two triangles from corner (0, 0))
/// each quarter of the square gets a quarter of the points: the triangle
/// is picked by area and the point in it is uniform, not bunched at the
/// fan's corner.
static void test_points_are_uniform_inside_a_polygon(void** state) {
    (void)state;
    grid_fixture f;
    grid_open(&f, 1, 1, 1, 1.0f, NULL, NULL, 256); // one 1 x 1 cell
    wf_query_filter filter = wf_query_filter_defaults();
    wf_rng rng = wf_rng_make(5, 5);
    uint32_t quarter[4] = {0};
    for (int i = 0; i < 4000; ++i) {
        wf_poly_ref ref;
        wf_vec3 p;
        assert_int_equal(wf_query_find_random_point(f.query, &filter, &rng, &ref, &p), WF_OK);
        assert_on_cell(&f, ref, p, 1, 1);
        quarter[(p.x >= 0.5f ? 1 : 0) + (p.z >= 0.5f ? 2 : 0)]++;
    }
    // Binomial(4000, 1/4): mean 1000, sd 27; allow 6 sd.
    for (int i = 0; i < 4; ++i) {
        assert_in_range(quarter[i], 1000 - 165, 1000 + 165);
    }
    grid_close(&f);
}

static void test_filter_decides_where_points_go(void** state) {
    (void)state;
    grid_fixture f;
    grid_open(&f, 1, 1, 4, 1.0f, NULL, NULL, 256);
    // Refuse the first row.
    for (uint32_t x = 0; x < 4; ++x) {
        assert_int_equal(wf_mesh_set_poly_flags(f.mesh, grid_cell(&f, x, 0), 0x2), WF_OK);
    }
    wf_query_filter filter = wf_query_filter_defaults();
    filter.exclude_flags = 0x2;
    wf_rng rng = wf_rng_make(9, 9);
    for (int i = 0; i < 500; ++i) {
        wf_poly_ref ref;
        wf_vec3 p;
        assert_int_equal(wf_query_find_random_point(f.query, &filter, &rng, &ref, &p), WF_OK);
        assert_on_cell(&f, ref, p, 4, 4);
        assert_true(p.z >= 1.0f);
        assert_int_equal(wf_query_find_random_point_around(f.query, grid_cell(&f, 1, 2),
                                                           wf_v3(1.5f, 0.0f, 2.5f), 0.0f, &filter,
                                                           &rng, &ref, &p),
                         WF_OK);
        assert_true(p.z >= 1.0f);
    }
    // Nothing passes: not found, for both.
    filter.include_flags = 0;
    wf_poly_ref ref;
    wf_vec3 p;
    assert_int_equal(wf_query_find_random_point(f.query, &filter, &rng, &ref, &p),
                     WF_ERR_NOT_FOUND);
    assert_int_equal(wf_query_find_random_point_around(f.query, grid_cell(&f, 1, 2),
                                                       wf_v3(1.5f, 0.0f, 2.5f), 1.0f, &filter, &rng,
                                                       &ref, &p),
                     WF_ERR_NOT_FOUND);
    // A start the filter refuses: not found either.
    filter = wf_query_filter_defaults();
    filter.exclude_flags = 0x2;
    assert_int_equal(wf_query_find_random_point_around(f.query, grid_cell(&f, 1, 0),
                                                       wf_v3(1.5f, 0.0f, 0.5f), 1.0f, &filter, &rng,
                                                       &ref, &p),
                     WF_ERR_NOT_FOUND);
    grid_close(&f);
}

/*
 * 5 x 5 cells with column x = 2 blocked: two islands, x in [0, 2) and
 * [3, 5). Points around a start on the left island stay on it.
 */
static void test_points_around_stay_reachable(void** state) {
    (void)state;
    uint8_t blocked[25] = {0};
    for (uint32_t z = 0; z < 5; ++z) {
        blocked[z * 5 + 2] = 1;
    }
    grid_fixture f;
    grid_open(&f, 1, 1, 5, 1.0f, blocked, NULL, 256);
    wf_query_filter filter = wf_query_filter_defaults();
    wf_rng rng = wf_rng_make(77, 3);
    wf_poly_ref start = grid_cell(&f, 0, 0);
    wf_vec3 center = wf_v3(0.5f, 0.0f, 0.5f);
    const float unlimited[] = {0.0f, -1.0f, INFINITY};
    uint32_t far_row = 0;
    for (int r = 0; r < 3; ++r) {
        for (int i = 0; i < 400; ++i) {
            wf_poly_ref ref;
            wf_vec3 p;
            assert_int_equal(wf_query_find_random_point_around(f.query, start, center, unlimited[r],
                                                               &filter, &rng, &ref, &p),
                             WF_OK);
            assert_on_cell(&f, ref, p, 5, 5);
            assert_true(p.x <= 2.0f);
            far_row += p.z >= 4.0f;
        }
    }
    // No limit means the whole island: its far row (1/5 of it) gets points.
    assert_true(far_row > 100);

    // Radius 0.6 from the centre of (0, 0) reaches (1, 0) and (0, 1) through
    // edges 0.5 away, not (1, 1) (its edges are 0.707 away): three cells of
    // equal area, a third of the points each.
    uint32_t hits[3] = {0};
    for (int i = 0; i < 3000; ++i) {
        wf_poly_ref ref;
        wf_vec3 p;
        assert_int_equal(wf_query_find_random_point_around(f.query, start, center, 0.6f, &filter,
                                                           &rng, &ref, &p),
                         WF_OK);
        assert_on_cell(&f, ref, p, 5, 5);
        if (wf_poly_ref_equal(ref, start)) {
            hits[0]++;
        } else if (wf_poly_ref_equal(ref, grid_cell(&f, 1, 0))) {
            hits[1]++;
        } else {
            assert_true(wf_poly_ref_equal(ref, grid_cell(&f, 0, 1)));
            hits[2]++;
        }
    }
    // Binomial(3000, 1/3): mean 1000, sd 26; allow 6 sd.
    for (int i = 0; i < 3; ++i) {
        assert_in_range(hits[i], 1000 - 155, 1000 + 155);
    }

    // A node pool of 2 reaches two cells: partial, but a point all the same.
    wf_query_destroy(f.query);
    grid_make_query(&f, 2);
    wf_poly_ref ref;
    wf_vec3 p;
    assert_int_equal(
        wf_query_find_random_point_around(f.query, start, center, 0.0f, &filter, &rng, &ref, &p),
        WF_PARTIAL);
    assert_true(p.x < 2.0f && p.z < 2.0f);
    grid_close(&f);
}

static void test_bad_arguments_and_stale_refs(void** state) {
    (void)state;
    grid_fixture f;
    grid_open(&f, 2, 1, 2, 1.0f, NULL, NULL, 256);
    wf_query_filter filter = wf_query_filter_defaults();
    wf_rng rng = wf_rng_make(1, 1);
    wf_poly_ref ref, start = grid_cell(&f, 0, 0);
    wf_vec3 p, c = wf_v3(0.5f, 0.0f, 0.5f);

    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    assert_int_equal(wf_query_find_random_point(NULL, &filter, &rng, &ref, &p), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_random_point(f.query, NULL, &rng, &ref, &p), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_random_point(f.query, &filter, NULL, &ref, &p),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_random_point(f.query, &filter, &rng, NULL, &p),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_random_point(f.query, &filter, &rng, &ref, NULL),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(
        wf_query_find_random_point_around(NULL, start, c, 1.0f, &filter, &rng, &ref, &p),
        WF_ERR_INVALID_ARG);
    assert_int_equal(
        wf_query_find_random_point_around(f.query, start, c, 1.0f, &filter, NULL, &ref, &p),
        WF_ERR_INVALID_ARG);
    assert_int_equal(
        wf_query_find_random_point_around(f.query, start, c, 1.0f, NULL, &rng, &ref, &p),
        WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_random_point_around(f.query, start, wf_v3(NAN, 0.0f, 0.0f), 1.0f,
                                                       &filter, &rng, &ref, &p),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(
        wf_query_find_random_point_around(f.query, start, c, NAN, &filter, &rng, &ref, &p),
        WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_random_point_around(f.query, (wf_poly_ref){0}, c, 1.0f, &filter,
                                                       &rng, &ref, &p),
                     WF_ERR_INVALID_ARG);
    wf_set_assert_hook(previous);

    wf_poly_ref in_removed = grid_cell(&f, 3, 1);
    wf_tile_ref tile;
    assert_int_equal(wf_mesh_find_tile(f.mesh, 1, 0, 0, &tile), WF_OK);
    assert_int_equal(wf_mesh_remove_tile(f.mesh, tile, NULL, NULL), WF_OK);
    assert_int_equal(wf_query_find_random_point_around(f.query, in_removed, wf_v3(3.5f, 0.0f, 1.5f),
                                                       1.0f, &filter, &rng, &ref, &p),
                     WF_ERR_STALE_REF);
    // Points now come only from the tile that is left.
    for (int i = 0; i < 200; ++i) {
        assert_int_equal(wf_query_find_random_point(f.query, &filter, &rng, &ref, &p), WF_OK);
        assert_true(p.x <= 2.0f);
        assert_int_equal(wf_mesh_check_poly(f.mesh, ref), WF_OK);
    }
    // An empty mesh has no points.
    assert_int_equal(wf_mesh_find_tile(f.mesh, 0, 0, 0, &tile), WF_OK);
    assert_int_equal(wf_mesh_remove_tile(f.mesh, tile, NULL, NULL), WF_OK);
    assert_int_equal(wf_query_find_random_point(f.query, &filter, &rng, &ref, &p),
                     WF_ERR_NOT_FOUND);
    grid_close(&f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_seed_same_points),
        cmocka_unit_test(test_points_spread_by_area_and_avoid_blocked_cells),
        cmocka_unit_test(test_points_are_uniform_inside_a_polygon),
        cmocka_unit_test(test_filter_decides_where_points_go),
        cmocka_unit_test(test_points_around_stay_reachable),
        cmocka_unit_test(test_bad_arguments_and_stale_refs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
