// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Local boundary: walls around a point on grid meshes with hand-counted
// answers and against a reference (all walls of the polygons, stably
// sorted), truncation, open space, stale polygons after a tile removal,
// and point-segment distances.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "crowd/local_boundary.h"
#include "test_grid_fixture.h"
#include "test_hooks.h"
#include "test_meshes.h"
#include "wayfarer/rng.h"

#define MAX_WALLS 64u
#define ALL_WALLS (WF_LOCAL_BOUNDARY_MAX_POLYS * WF_LOCAL_BOUNDARY_MAX_POLY_WALLS)

/// Reference: every wall of the given polygons within range, in the order
/// read, stably sorted by distance, cut to max.
static uint32_t reference_walls(grid_fixture* f, const wf_poly_ref* polys, uint32_t poly_count,
                                wf_vec3 pos, float range, wf_vec3* out, uint32_t max) {
    static wf_vec3 all[2u * ALL_WALLS];
    static float dist[ALL_WALLS];
    uint32_t n = 0;
    for (uint32_t p = 0; p < poly_count; ++p) {
        wf_vec3 segs[2u * WF_LOCAL_BOUNDARY_MAX_POLY_WALLS];
        uint32_t count = 0;
        assert_true(wf_succeeded(wf_query_get_poly_wall_segments(
            f->query, polys[p], &f->filter, segs, NULL, WF_LOCAL_BOUNDARY_MAX_POLY_WALLS, &count)));
        for (uint32_t s = 0; s < count; ++s) {
            float d = wf_segment_distance_sq_2d(pos, segs[2u * s], segs[2u * s + 1u]);
            if (d <= range * range) {
                all[2u * n] = segs[2u * s];
                all[2u * n + 1u] = segs[2u * s + 1u];
                dist[n++] = d;
            }
        }
    }
    // Selection of the minimum, first one on ties: a stable order.
    uint32_t out_n = 0;
    static bool used[ALL_WALLS];
    memset(used, 0, sizeof used);
    while (out_n < max && out_n < n) {
        uint32_t best = UINT32_MAX;
        for (uint32_t i = 0; i < n; ++i) {
            if (!used[i] && (best == UINT32_MAX || dist[i] < dist[best])) {
                best = i;
            }
        }
        used[best] = true;
        out[2u * out_n] = all[2u * best];
        out[2u * out_n + 1u] = all[2u * best + 1u];
        out_n++;
    }
    return out_n;
}

static void assert_same_walls(const wf_vec3* a, const wf_vec3* b, uint32_t count) {
    assert_memory_equal(a, b, 2u * count * sizeof(wf_vec3));
}

static float wall_dist(const wf_vec3* walls, uint32_t i, wf_vec3 pos) {
    return wf_segment_distance_sq_2d(pos, walls[2u * i], walls[2u * i + 1u]);
}

/// Collects, checks against the reference and the ordering, returns count.
static uint32_t collect_checked(grid_fixture* f, wf_poly_ref start, wf_vec3 pos, float range,
                                wf_vec3* walls, uint32_t max_walls, uint32_t* out_poly_count) {
    wf_poly_ref polys[WF_LOCAL_BOUNDARY_MAX_POLYS];
    uint32_t poly_count = 99;
    unsigned long allocations = f->counter.allocations;
    uint32_t n = wf_local_boundary_collect(f->query, start, pos, range, &f->filter, walls,
                                           max_walls, polys, &poly_count);
    assert_int_equal(f->counter.allocations, allocations);
    assert_true(poly_count >= 1 && poly_count <= WF_LOCAL_BOUNDARY_MAX_POLYS);
    assert_true(wf_poly_ref_equal(polys[0], start));
    assert_true(n <= max_walls);
    for (uint32_t i = 0; i < n; ++i) {
        assert_true(wall_dist(walls, i, pos) <= range * range);
        assert_true(i == 0 || wall_dist(walls, i - 1u, pos) <= wall_dist(walls, i, pos));
    }
    wf_vec3 expected[2u * MAX_WALLS];
    assert_int_equal(reference_walls(f, polys, poly_count, pos, range, expected, max_walls), n);
    assert_same_walls(walls, expected, n);
    // Deterministic, and the poly outputs are optional.
    wf_vec3 again[2u * MAX_WALLS];
    assert_int_equal(wf_local_boundary_collect(f->query, start, pos, range, &f->filter, again,
                                               max_walls, NULL, NULL),
                     n);
    assert_same_walls(walls, again, n);
    if (out_poly_count != NULL) {
        *out_poly_count = poly_count;
    }
    return n;
}

static void test_walls_of_a_3x3_block(void** state) {
    (void)state;
    grid_fixture f;
    grid_open(&f, 1, 1, 3, 1.0f, NULL, NULL, 256);
    wf_vec3 walls[2u * MAX_WALLS];
    wf_vec3 pos = wf_v3(1.5f, 0.0f, 1.5f);
    wf_poly_ref start = grid_cell(&f, 1, 1);
    uint32_t polys = 0;
    // The 12 unit border segments: the 4 in the middle of a side are 1.5
    // away, the 8 at the corners sqrt(2.5).
    assert_int_equal(collect_checked(&f, start, pos, 5.0f, walls, MAX_WALLS, &polys), 12);
    assert_int_equal(polys, 9);
    for (uint32_t i = 0; i < 12; ++i) {
        assert_float_equal(wall_dist(walls, i, pos), i < 4 ? 2.25f : 2.5f, 0.0f);
    }
    wf_vec3 full[2u * MAX_WALLS];
    memcpy(full, walls, sizeof full);
    // Cut to 6: the 4 nearest and the first 2 of the tie, as in the full list.
    assert_int_equal(collect_checked(&f, start, pos, 5.0f, walls, 6, NULL), 6);
    assert_same_walls(walls, full, 6);
    assert_int_equal(collect_checked(&f, start, pos, 5.0f, walls, 1, NULL), 1);
    assert_same_walls(walls, full, 1);
    assert_int_equal(collect_checked(&f, start, pos, 5.0f, NULL, 0, &polys), 0);
    assert_int_equal(polys, 9);
    // The range is inclusive.
    assert_int_equal(collect_checked(&f, start, pos, 1.5f, walls, MAX_WALLS, NULL), 4);
    assert_same_walls(walls, full, 4);
    assert_int_equal(collect_checked(&f, start, pos, 1.49f, walls, MAX_WALLS, NULL), 0);
    // From a corner cell: its two own walls touch the point's cell.
    pos = wf_v3(0.25f, 0.0f, 0.5f);
    assert_int_equal(collect_checked(&f, grid_cell(&f, 0, 0), pos, 0.6f, walls, MAX_WALLS, NULL),
                     3);
    assert_float_equal(wall_dist(walls, 0, pos), 0.0625f, 1e-7f); // x = 0
    grid_close(&f);
}

static void test_walls_around_a_blocked_cell(void** state) {
    (void)state;
    uint8_t blocked[25] = {0};
    blocked[2 * 5 + 3] = 1; // cell (3, 2)
    grid_fixture f;
    grid_open(&f, 1, 1, 5, 1.0f, blocked, NULL, 256);
    wf_vec3 walls[2u * MAX_WALLS];
    wf_vec3 pos = wf_v3(2.5f, 0.0f, 2.5f);
    wf_poly_ref start = grid_cell(&f, 2, 2);
    // The blocked cell's face x = 3 (0.5 away), its faces z = 2 and z = 3
    // from cells (3, 1) and (3, 3) (sqrt(0.5) away).
    assert_int_equal(collect_checked(&f, start, pos, 1.0f, walls, MAX_WALLS, NULL), 3);
    assert_float_equal(walls[0].x, 3.0f, 0.0f);
    assert_float_equal(walls[1].x, 3.0f, 0.0f);
    assert_float_equal(wall_dist(walls, 0, pos), 0.25f, 0.0f);
    assert_float_equal(wall_dist(walls, 1, pos), 0.5f, 0.0f);
    assert_float_equal(wall_dist(walls, 2, pos), 0.5f, 0.0f);
    wf_vec3 full[2u * MAX_WALLS];
    memcpy(full, walls, sizeof full);
    // Truncation keeps the nearest, ties in the order found.
    assert_int_equal(collect_checked(&f, start, pos, 1.0f, walls, 1, NULL), 1);
    assert_same_walls(walls, full, 1);
    assert_int_equal(collect_checked(&f, start, pos, 1.0f, walls, 2, NULL), 2);
    assert_same_walls(walls, full, 2);
    // Farther out: the border and more faces, always in range and sorted.
    for (float r = 0.0f; r <= 4.0f; r += 0.25f) {
        collect_checked(&f, start, pos, r, walls, MAX_WALLS, NULL);
        collect_checked(&f, start, pos, r, walls, 5, NULL);
        collect_checked(&f, grid_cell(&f, 4, 4), wf_v3(4.2f, 0.0f, 4.9f), r, walls, 8, NULL);
    }
    // Random points, ranges and small max_walls: nearer walls often come
    // after the output is full and must push farther ones out.
    wf_rng rng = wf_rng_make(2026, 7);
    const uint32_t maxes[] = {1, 2, 3, 5, 8, MAX_WALLS};
    for (int i = 0; i < 400; ++i) {
        uint32_t cx = wf_rng_below(&rng, 5), cz = wf_rng_below(&rng, 5);
        if (cx == 3 && cz == 2) {
            continue;
        }
        wf_vec3 p = wf_v3((float)cx + wf_rng_float01(&rng), 0.0f, (float)cz + wf_rng_float01(&rng));
        collect_checked(&f, grid_cell(&f, cx, cz), p, wf_rng_range(&rng, 0.0f, 3.0f), walls,
                        maxes[wf_rng_below(&rng, 6)], NULL);
    }
    grid_close(&f);
}

static void test_cut_neighbourhood_still_gives_walls(void** state) {
    (void)state;
    grid_fixture f;
    grid_open(&f, 1, 1, 8, 1.0f, NULL, NULL, 256);
    wf_vec3 walls[2u * MAX_WALLS];
    uint32_t polys = 0;
    // 64 cells in range, 16 searched: the walls of those are used.
    wf_vec3 pos = wf_v3(1.5f, 0.0f, 1.5f);
    uint32_t n = collect_checked(&f, grid_cell(&f, 1, 1), pos, 100.0f, walls, MAX_WALLS, &polys);
    assert_int_equal(polys, WF_LOCAL_BOUNDARY_MAX_POLYS);
    assert_true(n >= 2);
    assert_float_equal(wall_dist(walls, 0, pos), 2.25f, 0.0f); // x = 0 and z = 0 beside it
    assert_float_equal(wall_dist(walls, 1, pos), 2.25f, 0.0f);
    grid_close(&f);
}

static void test_open_polygon_has_no_walls_nearby(void** state) {
    (void)state;
    grid_fixture f;
    grid_open(&f, 1, 1, 1, 20.0f, NULL, NULL, 256); // one 20 x 20 polygon
    wf_vec3 walls[2u * MAX_WALLS];
    wf_vec3 pos = wf_v3(10.0f, 0.0f, 10.0f);
    wf_poly_ref start = grid_cell(&f, 0, 0);
    uint32_t polys = 0;
    assert_int_equal(collect_checked(&f, start, pos, 5.0f, walls, MAX_WALLS, &polys), 0);
    assert_int_equal(polys, 1);
    assert_int_equal(collect_checked(&f, start, pos, 9.99f, walls, MAX_WALLS, NULL), 0);
    assert_int_equal(collect_checked(&f, start, pos, 10.0f, walls, MAX_WALLS, NULL), 4);
    for (uint32_t i = 0; i < 4; ++i) {
        assert_float_equal(wall_dist(walls, i, pos), 100.0f, 0.0f);
    }
    grid_close(&f);
}

static void test_polys_go_stale_when_a_tile_is_removed(void** state) {
    (void)state;
    grid_fixture f;
    grid_open(&f, 2, 1, 3, 1.0f, NULL, NULL, 256); // tiles of 3 x 3 cells side by side
    wf_vec3 walls[2u * MAX_WALLS];
    wf_poly_ref polys[WF_LOCAL_BOUNDARY_MAX_POLYS];
    uint32_t poly_count = 0;
    wf_vec3 pos = wf_v3(2.8f, 0.0f, 1.5f);
    uint32_t n = wf_local_boundary_collect(f.query, grid_cell(&f, 2, 1), pos, 1.5f, &f.filter,
                                           walls, MAX_WALLS, polys, &poly_count);
    assert_true(n > 0);
    bool other_tile = false;
    wf_tile_ref tile1;
    assert_int_equal(wf_mesh_find_tile(f.mesh, 1, 0, 0, &tile1), WF_OK);
    for (uint32_t i = 0; i < poly_count; ++i) {
        other_tile |= wf_poly_ref_tile_ref(polys[i]).bits == tile1.bits;
    }
    assert_true(other_tile); // the walls came from both tiles
    assert_true(wf_local_boundary_polys_valid(f.mesh, polys, poly_count));
    assert_true(wf_local_boundary_polys_valid(f.mesh, NULL, 0));

    wf_poly_ref in_tile1 = grid_cell(&f, 3, 1);
    assert_int_equal(wf_mesh_remove_tile(f.mesh, tile1, NULL, NULL), WF_OK);
    assert_false(wf_local_boundary_polys_valid(f.mesh, polys, poly_count));
    // Collected again: now a wall at x = 3 where the tile was.
    uint32_t again = 0;
    n = wf_local_boundary_collect(f.query, grid_cell(&f, 2, 1), pos, 1.5f, &f.filter, walls,
                                  MAX_WALLS, polys, &again);
    assert_true(wf_local_boundary_polys_valid(f.mesh, polys, again));
    assert_true(n > 0);
    assert_float_equal(wall_dist(walls, 0, pos), 0.04f, 1e-6f);
    // From a polygon of the removed tile: nothing, no polygons.
    again = 99;
    assert_int_equal(wf_local_boundary_collect(f.query, in_tile1, wf_v3(3.5f, 0.0f, 1.5f), 1.5f,
                                               &f.filter, walls, MAX_WALLS, polys, &again),
                     0);
    assert_int_equal(again, 0);
    assert_false(wf_local_boundary_polys_valid(f.mesh, &in_tile1, 1));
    grid_close(&f);
}

static void test_bad_arguments(void** state) {
    (void)state;
    grid_fixture f;
    grid_open(&f, 1, 1, 3, 1.0f, NULL, NULL, 256);
    wf_vec3 walls[2u * MAX_WALLS];
    wf_poly_ref polys[WF_LOCAL_BOUNDARY_MAX_POLYS];
    uint32_t count = 99;
    wf_vec3 pos = wf_v3(1.5f, 0.0f, 1.5f);
    wf_poly_ref start = grid_cell(&f, 1, 1);
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    assert_int_equal(
        wf_local_boundary_collect(NULL, start, pos, 1.0f, &f.filter, walls, 8, polys, &count), 0);
    assert_int_equal(count, 0);
    assert_int_equal(
        wf_local_boundary_collect(f.query, start, pos, 1.0f, NULL, walls, 8, polys, &count), 0);
    assert_int_equal(
        wf_local_boundary_collect(f.query, start, pos, -1.0f, &f.filter, walls, 8, polys, &count),
        0);
    assert_int_equal(
        wf_local_boundary_collect(f.query, start, pos, NAN, &f.filter, walls, 8, polys, &count), 0);
    assert_int_equal(
        wf_local_boundary_collect(f.query, start, pos, 1.0f, &f.filter, NULL, 8, polys, &count), 0);
    assert_false(wf_local_boundary_polys_valid(NULL, polys, 1));
    wf_set_assert_hook(previous);
    count = 99;
    assert_int_equal(wf_local_boundary_collect(f.query, (wf_poly_ref){0}, pos, 1.0f, &f.filter,
                                               walls, 8, polys, &count),
                     0);
    assert_int_equal(count, 0);
    assert_false(wf_local_boundary_polys_valid(f.mesh, &(wf_poly_ref){0}, 1));
    grid_close(&f);
}

static void test_segment_distance(void** state) {
    (void)state;
    wf_vec3 a = wf_v3(1.0f, 5.0f, 1.0f), b = wf_v3(4.0f, -3.0f, 5.0f); // length 5 in XZ
    // Ends (y ignored), exactly.
    assert_float_equal(wf_segment_distance_sq_2d(a, a, b), 0.0f, 0.0f);
    assert_float_equal(wf_segment_distance_sq_2d(b, a, b), 0.0f, 0.0f);
    assert_float_equal(wf_segment_distance_sq_2d(wf_v3(1.0f, 9.0f, -1.0f), a, b), 4.0f, 0.0f);
    assert_float_equal(wf_segment_distance_sq_2d(wf_v3(-2.0f, 0.0f, -3.0f), a, b), 25.0f, 0.0f);
    assert_float_equal(wf_segment_distance_sq_2d(wf_v3(7.0f, 0.0f, 9.0f), a, b), 25.0f, 0.0f);
    assert_float_equal(wf_segment_distance_sq_2d(wf_v3(4.0f, 0.0f, 8.0f), b, a), 9.0f, 0.0f);
    // Interior: 2.5 along, 5 to the side along the normal (4, -3) / 5.
    wf_vec3 mid = wf_v3(2.5f + 4.0f, 0.0f, 3.0f - 3.0f);
    assert_float_equal(wf_segment_distance_sq_2d(mid, a, b), 25.0f, 1e-4f);
    assert_float_equal(wf_segment_distance_sq_2d(mid, b, a), 25.0f, 1e-4f);
    assert_float_equal(wf_segment_distance_sq_2d(wf_v3(2.5f, 7.0f, 3.0f), a, b), 0.0f, 1e-6f);
    // Axis-aligned interior, exactly.
    assert_float_equal(
        wf_segment_distance_sq_2d(wf_v3(-3.0f, 0.0f, 0.5f), wf_v3(0, 0, 0), wf_v3(0, 0, 2)), 9.0f,
        0.0f);
    // Degenerate segment: the distance to the point.
    assert_float_equal(wf_segment_distance_sq_2d(wf_v3(4.0f, 1.0f, 5.0f), a, a), 25.0f, 0.0f);
    assert_float_equal(wf_segment_distance_sq_2d(a, a, a), 0.0f, 0.0f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walls_of_a_3x3_block),
        cmocka_unit_test(test_walls_around_a_blocked_cell),
        cmocka_unit_test(test_cut_neighbourhood_still_gives_walls),
        cmocka_unit_test(test_open_polygon_has_no_walls_nearby),
        cmocka_unit_test(test_polys_go_stale_when_a_tile_is_removed),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_segment_distance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
