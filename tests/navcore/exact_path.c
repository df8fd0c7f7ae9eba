// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Exact path mode (Polyanya): the Polyanya arena scenarios against their
// published optima on one tile and tiled, hand-made meshes with known
// answers (a U-shaped corridor, two floors joined by a ramp), bad input,
// running out of nodes, unreachable goals, and time slicing.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_scenarios.h"

#include "test_hooks.h"
#include "test_meshes.h"
#include "wayfarer/query.h"

#define MAX_CORRIDOR 4096u
#define MAX_POINTS 512u

static wf_query_filter exact_filter(void) {
    wf_query_filter f = wf_query_filter_defaults();
    f.path_mode = WF_PATH_MODE_EXACT;
    return f;
}

static wf_query* make_query(const wf_mesh* mesh, uint32_t max_nodes) {
    wf_query* q = NULL;
    assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = mesh, .max_nodes = max_nodes}, &q),
                     WF_OK);
    return q;
}

static bool nearest(wf_query* q, wf_vec3 p, wf_vec3 half, wf_poly_ref* ref, wf_vec3* at) {
    wf_query_filter f = wf_query_filter_defaults();
    return wf_query_find_nearest_poly(q, p, half, &f, ref, at) == WF_OK;
}

typedef struct answer {
    wf_status status;
    wf_path_result result;
    double length_xz; ///< of the straight path
    double length_3d;
    uint32_t corners;
} answer;

/// find_path with `filter`, then the straight path over its corridor.
static answer solve(wf_query* q, wf_poly_ref sr, wf_poly_ref gr, wf_vec3 sp, wf_vec3 gp,
                    const wf_query_filter* filter) {
    static wf_poly_ref corridor[MAX_CORRIDOR];
    static wf_straight_point points[MAX_POINTS];
    answer a;
    memset(&a, 0, sizeof a);
    a.status = wf_query_find_path(q, sr, gr, sp, gp, filter, corridor, MAX_CORRIDOR, &a.result);
    if (a.status < 0 || a.result.count == 0) {
        return a;
    }
    uint32_t n = 0;
    wf_status ss =
        wf_query_find_straight_path(q, sp, gp, corridor, a.result.count, points, MAX_POINTS, 0, &n);
    assert_true(ss >= 0);
    for (uint32_t i = 1; i < n; ++i) {
        wf_vec3 d = wf_v3_sub(points[i].pos, points[i - 1].pos);
        a.length_xz += sqrt((double)d.x * d.x + (double)d.z * d.z);
        a.length_3d += wf_v3_length(d);
    }
    a.corners = n;
    return a;
}

/* ---------------------------------------------------------------------------
 * The arena scenarios (shared test data; skipped when absent)
 */

#define ARENA_DIR WF_TESTDATA_DIR "/polyanya"

static void run_arena(const char* mesh_file, float tile_size) {
    size_t size;
    char* text = test_read_all(mesh_file, &size);
    assert_non_null(text);
    static arena_row rows[512];
    size_t count = test_read_arena_rows(ARENA_DIR "/expected/arena_euclidean.tsv", rows, 512);
    assert_int_equal(count, 160);
    wf_polyanya_import_desc d;
    memset(&d, 0, sizeof d);
    d.tile_size = tile_size;
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_import_polyanya(&d, text, size, &mesh), WF_OK);
    free(text);
    wf_query* q = make_query(mesh, 8192);
    wf_query_filter exact = exact_filter();
    wf_vec3 half = wf_v3(0.01f, 1.0f, 0.01f);
    size_t failures = 0;
    double worst = 0.0;
    for (size_t i = 0; i < count; ++i) {
        wf_poly_ref sr, gr;
        wf_vec3 sp, gp;
        assert_true(nearest(q, wf_v3(rows[i].sx, 0, rows[i].sy), half, &sr, &sp));
        assert_true(nearest(q, wf_v3(rows[i].gx, 0, rows[i].gy), half, &gr, &gp));
        answer a = solve(q, sr, gr, sp, gp, &exact);
        double error = fabs(a.length_xz - rows[i].euclidean);
        if (a.status != WF_OK || error > 1e-4 || fabs(a.result.cost - rows[i].euclidean) > 1e-3) {
            print_message("row %zu: status %d, straight %.6f, cost %.6f, optimum %.6f\n", i,
                          (int)a.status, a.length_xz, (double)a.result.cost, rows[i].euclidean);
            failures++;
        }
        worst = error > worst ? error : worst;
    }
    print_message("%s tile_size %g: worst error %.2e\n", strrchr(mesh_file, '/') + 1,
                  (double)tile_size, worst);
    assert_int_equal(failures, 0);
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
}

static void test_arena_scenarios_are_optimal(void** state) {
    (void)state;
    FILE* probe = fopen(ARENA_DIR "/meshes/arena.mesh", "rb");
    if (probe == NULL) {
        print_message("no test data at %s: skipped\n", ARENA_DIR);
        skip();
    }
    fclose(probe);
    run_arena(ARENA_DIR "/meshes/arena.mesh", 0.0f);
    run_arena(ARENA_DIR "/meshes/arena.mesh", 16.0f);
    run_arena(ARENA_DIR "/meshes/arena-merged.mesh", 0.0f);
    run_arena(ARENA_DIR "/meshes/arena-merged.mesh", 16.0f);
    run_arena(ARENA_DIR "/meshes/arena-merged.mesh", 7.0f);
}

/* ---------------------------------------------------------------------------
 * Hand-made meshes
 */

/// A 10 x 10 grid of 1 m cells with a block over cells x 3..6, z 0..7: from
/// (1.5, 1.5) to (8.5, 1.5) the way is round the block's corners (3, 8) and
/// (7, 8): 2 * sqrt(1.5^2 + 6.5^2) + 4.
#define U_LENGTH (2.0 * sqrt(1.5 * 1.5 + 6.5 * 6.5) + 4.0)

typedef struct grid {
    wf_mesh* mesh;
    wf_query* q;
    uint32_t cells_per_tile;
} grid;

static grid make_u(uint32_t tiles, uint32_t max_nodes) {
    static uint8_t blocked[100];
    memset(blocked, 0, sizeof blocked);
    for (uint32_t z = 0; z <= 7; ++z) {
        for (uint32_t x = 3; x <= 6; ++x) {
            blocked[z * 10 + x] = 1;
        }
    }
    grid g;
    g.cells_per_tile = 10 / tiles;
    g.mesh = test_mesh_grid(tiles, tiles, g.cells_per_tile, 1.0f, blocked, NULL, NULL);
    assert_non_null(g.mesh);
    g.q = make_query(g.mesh, max_nodes);
    return g;
}

static void free_grid(grid* g) {
    wf_query_destroy(g->q);
    wf_mesh_destroy(g->mesh);
}

static wf_poly_ref cell(const grid* g, uint32_t x, uint32_t z) {
    return test_grid_poly(g->mesh, g->cells_per_tile, x, z);
}

static wf_vec3 centre(uint32_t x, uint32_t z) {
    return wf_v3((float)x + 0.5f, 0.0f, (float)z + 0.5f);
}

static void test_u_corridor_goes_round_both_corners(void** state) {
    (void)state;
    const uint32_t tilings[] = {1, 2, 5};
    for (int t = 0; t < 3; ++t) {
        grid g = make_u(tilings[t], 256);
        wf_query_filter exact = exact_filter();
        answer a = solve(g.q, cell(&g, 1, 1), cell(&g, 8, 1), centre(1, 1), centre(8, 1), &exact);
        assert_int_equal(a.status, WF_OK);
        assert_true(fabs(a.length_xz - U_LENGTH) < 1e-4);
        assert_true(fabs(a.result.cost - U_LENGTH) < 1e-4);
        assert_int_equal(a.corners, 4); // start, two corners, end
        // The default mode is never shorter.
        wf_query_filter def = wf_query_filter_defaults();
        answer d = solve(g.q, cell(&g, 1, 1), cell(&g, 8, 1), centre(1, 1), centre(8, 1), &def);
        assert_int_equal(d.status, WF_OK);
        assert_true(d.length_xz >= U_LENGTH - 1e-4);
        free_grid(&g);
    }
}

/// Two floors over the same ground: floor A (y 0) along x 0..10, z 0..2;
/// a turn (y 0) at x 10..12, z 0..4; a ramp back along z 2..4 rising from
/// y 0 at x 10 to y 3 at x 2; a landing (y 3) at x 0..2, z 2..4; floor B
/// (y 3) right above A. From (1, 1) on A to (1, 1) on B the way in XZ is
/// (1,1) -> (10,2) -> (2,2) -> (1,1).
static wf_mesh* make_two_floors(void) {
    static const float verts[] = {
        0,  0, 0, 0,  0, 2, 10, 0, 2, 10, 0, 0, // 0-3: A
        12, 0, 2, 12, 0, 0, 10, 0, 4, 12, 0, 4, // 4-7: turn
        2,  3, 2, 2,  3, 4, 0,  3, 2, 0,  3, 4, // 8-11: ramp top, landing
        0,  3, 0, 2,  3, 0, 10, 3, 2, 10, 3, 0, // 12-15: B
    };
    const uint16_t N = WF_NULL_INDEX;
    static uint16_t polys[7 * WF_MAX_VERTS_PER_POLY];
    const uint16_t quads[7][4] = {
        {0, 1, 2, 3},    // A
        {3, 2, 4, 5},    // turn, z 0..2
        {2, 6, 7, 4},    // turn, z 2..4
        {8, 9, 6, 2},    // ramp
        {10, 11, 9, 8},  // landing
        {12, 10, 8, 13}, // B, x 0..2
        {13, 8, 14, 15}, // B, x 2..10
    };
    for (int p = 0; p < 7; ++p) {
        for (int k = 0; k < WF_MAX_VERTS_PER_POLY; ++k) {
            polys[p * WF_MAX_VERTS_PER_POLY + k] = k < 4 ? quads[p][k] : N;
        }
    }
    wf_tile_build_desc d;
    memset(&d, 0, sizeof d);
    d.bmin = wf_v3(0, -1, 0);
    d.bmax = wf_v3(12, 4, 4);
    d.verts = verts;
    d.vert_count = 16;
    d.polys = polys;
    d.poly_count = 7;
    d.walkable_climb = 0.5f;
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&(wf_mesh_desc){.tile_width = 12, .tile_depth = 4}, &mesh),
                     WF_OK);
    void* blob = NULL;
    size_t size = 0;
    assert_int_equal(wf_tile_build(&d, &blob, &size), WF_OK);
    wf_tile_ref tile;
    assert_int_equal(
        wf_mesh_add_tile(mesh, blob, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &tile), WF_OK);
    return mesh;
}

static void test_two_floors_joined_by_a_ramp(void** state) {
    (void)state;
    wf_mesh* mesh = make_two_floors();
    wf_query* q = make_query(mesh, 64);
    wf_vec3 half = wf_v3(0.1f, 0.5f, 0.1f);
    wf_poly_ref sr, gr;
    wf_vec3 sp, gp;
    assert_true(nearest(q, wf_v3(1, 0, 1), half, &sr, &sp));
    assert_true(nearest(q, wf_v3(1, 3, 1), half, &gr, &gp));
    assert_false(wf_poly_ref_equal(sr, gr)); // same XZ, other floor
    wf_query_filter exact = exact_filter();
    answer a = solve(q, sr, gr, sp, gp, &exact);
    double expected = sqrt(82.0) + 8.0 + sqrt(2.0);
    assert_int_equal(a.status, WF_OK);
    assert_int_equal(a.result.count, 6); // A, turn, turn, ramp, landing, B
    assert_true(fabs(a.result.cost - expected) < 1e-4);
    assert_true(fabs(a.length_xz - expected) < 1e-4);
    assert_true(a.length_3d > a.length_xz + 0.5); // the ramp climbs 3 m over 8
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
}

static void test_start_and_goal_in_one_polygon(void** state) {
    (void)state;
    grid g = make_u(1, 64);
    wf_query_filter exact = exact_filter();
    wf_poly_ref path[4];
    wf_path_result r;
    wf_vec3 a = wf_v3(1.1f, 0, 1.2f), b = wf_v3(1.9f, 0, 1.8f);
    assert_int_equal(
        wf_query_find_path(g.q, cell(&g, 1, 1), cell(&g, 1, 1), a, b, &exact, path, 4, &r), WF_OK);
    assert_int_equal(r.count, 1);
    assert_true(wf_poly_ref_equal(path[0], cell(&g, 1, 1)));
    assert_float_equal(r.cost, 1.0f, 1e-5f);
    free_grid(&g);
}

static void test_bad_input_is_refused(void** state) {
    (void)state;
    grid g = make_u(2, 64);
    wf_query_filter exact = exact_filter();
    wf_poly_ref path[64];
    wf_path_result r;
    wf_poly_ref s = cell(&g, 1, 1), e = cell(&g, 8, 1);
    wf_vec3 sp = centre(1, 1), ep = centre(8, 1);
    // A sliced exact search in progress survives every refused call.
    assert_int_equal(wf_query_begin_path(g.q, s, e, sp, ep, &exact), WF_OK);
    assert_int_equal(wf_query_update_path(g.q, 2, NULL), WF_IN_PROGRESS);

    wf_assert_fn* prev = wf_set_assert_hook(test_ignore_assert);
    wf_vec3 nan = wf_v3(NAN, 0, 0.5f);
    assert_int_equal(wf_query_begin_path(g.q, s, e, nan, ep, &exact), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_begin_path(g.q, s, e, sp, wf_v3(1, INFINITY, 1), &exact),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_begin_path(g.q, (wf_poly_ref){0}, e, sp, ep, &exact),
                     WF_ERR_INVALID_ARG);
    wf_query_filter costly = exact;
    costly.area_cost[5] = 2.0f;
    assert_int_equal(wf_query_begin_path(g.q, s, e, sp, ep, &costly), WF_ERR_INVALID_ARG);
    costly.area_cost[5] = 0.5f;
    assert_int_equal(wf_query_begin_path(g.q, s, e, sp, ep, &costly), WF_ERR_INVALID_ARG);
    wf_query_filter unknown = exact;
    unknown.path_mode = 2;
    assert_int_equal(wf_query_begin_path(g.q, s, e, sp, ep, &unknown), WF_ERR_INVALID_ARG);
    unknown.path_mode = 0xffffffffu;
    bool exists;
    assert_int_equal(wf_query_path_exists(g.q, s, e, sp, ep, &unknown, &exists),
                     WF_ERR_INVALID_ARG);
    wf_set_assert_hook(prev);

    // The search goes on to the right answer.
    wf_status st;
    do {
        st = wf_query_update_path(g.q, 3, NULL);
    } while (st == WF_IN_PROGRESS);
    assert_int_equal(st, WF_OK);
    assert_int_equal(wf_query_finish_path(g.q, path, 64, &r), WF_OK);
    assert_true(fabs(r.cost - U_LENGTH) < 1e-4);
    // Finished: no search left.
    prev = wf_set_assert_hook(test_ignore_assert);
    assert_int_equal(wf_query_update_path(g.q, 1, NULL), WF_ERR_INVALID_ARG);
    wf_set_assert_hook(prev);

    // A stale polygon: refused up front, and met by a sliced search.
    wf_tile_ref start_tile;
    assert_int_equal(wf_mesh_find_tile(g.mesh, 0, 0, 0, &start_tile), WF_OK);
    assert_int_equal(wf_query_begin_path(g.q, s, e, sp, ep, &exact), WF_OK);
    assert_int_equal(wf_query_update_path(g.q, 1, NULL), WF_IN_PROGRESS);
    // The start's neighbours (all in its tile) are next.
    assert_int_equal(wf_mesh_remove_tile(g.mesh, start_tile, NULL, NULL), WF_OK);
    assert_int_equal(wf_query_update_path(g.q, 1000, NULL), WF_ERR_STALE_REF);
    assert_int_equal(wf_query_finish_path(g.q, path, 64, &r), WF_ERR_STALE_REF);
    assert_int_equal(r.count, 0);
    assert_int_equal(wf_query_find_path(g.q, s, e, sp, ep, &exact, path, 64, &r), WF_ERR_STALE_REF);
    free_grid(&g);
}

static void test_out_of_nodes_gives_a_partial_path(void** state) {
    (void)state;
    grid g = make_u(1, 1); // 4 interval nodes
    wf_query_filter exact = exact_filter();
    wf_poly_ref path[64];
    wf_path_result r;
    assert_int_equal(wf_query_find_path(g.q, cell(&g, 1, 1), cell(&g, 8, 1), centre(1, 1),
                                        centre(8, 1), &exact, path, 64, &r),
                     WF_PARTIAL);
    assert_int_equal(r.flags, WF_PATH_PARTIAL | WF_PATH_OUT_OF_NODES);
    assert_true(r.count >= 1);
    assert_true(wf_poly_ref_equal(path[0], cell(&g, 1, 1)));
    free_grid(&g);
}

static void test_unreachable_goal_gives_a_partial_path(void** state) {
    (void)state;
    // A wall down column 5: the goal at (8.5, 2.5) is cut off.
    uint8_t blocked[100] = {0};
    for (uint32_t z = 0; z < 10; ++z) {
        blocked[z * 10 + 5] = 1;
    }
    grid g;
    g.cells_per_tile = 5;
    g.mesh = test_mesh_grid(2, 2, 5, 1.0f, blocked, NULL, NULL);
    assert_non_null(g.mesh);
    g.q = make_query(g.mesh, 1024);
    wf_query_filter exact = exact_filter();
    wf_poly_ref path[64];
    wf_path_result r;
    assert_int_equal(wf_query_find_path(g.q, cell(&g, 1, 2), cell(&g, 8, 2), centre(1, 2),
                                        centre(8, 2), &exact, path, 64, &r),
                     WF_PARTIAL);
    assert_int_equal(r.flags, WF_PATH_PARTIAL);
    // It leads to the wall, next to the goal's row: the goal's cell row
    // (4, 2), or (4, 3) or (4, 1), which reach the wall at (5, 3) and
    // (5, 2), equally near the goal (start and goal lie on z = 2.5, so
    // the two are mirror images and tie).
    wf_poly_ref last = path[r.count - 1];
    assert_true(wf_poly_ref_equal(last, cell(&g, 4, 2)) ||
                wf_poly_ref_equal(last, cell(&g, 4, 3)) || wf_poly_ref_equal(last, cell(&g, 4, 1)));
    free_grid(&g);
}

/// Runs a sliced exact search in slices of `slice` expansions.
static wf_status sliced(wf_query* q, wf_poly_ref s, wf_poly_ref e, wf_vec3 sp, wf_vec3 ep,
                        uint32_t slice, wf_poly_ref* path, uint32_t max, wf_path_result* r) {
    wf_query_filter exact = exact_filter();
    assert_int_equal(wf_query_begin_path(q, s, e, sp, ep, &exact), WF_OK);
    wf_status st;
    do {
        uint32_t done = 0;
        st = wf_query_update_path(q, slice, &done);
        assert_true(done <= slice);
        if (st == WF_IN_PROGRESS) {
            assert_int_equal(done, slice);
        }
    } while (st == WF_IN_PROGRESS);
    return wf_query_finish_path(q, path, max, r);
}

static void check_sliced_equals_one_shot(wf_query* q, wf_poly_ref s, wf_poly_ref e, wf_vec3 sp,
                                         wf_vec3 ep) {
    static wf_poly_ref one[MAX_CORRIDOR], other[MAX_CORRIDOR];
    wf_query_filter exact = exact_filter();
    wf_path_result r1, r2;
    wf_status s1 = wf_query_find_path(q, s, e, sp, ep, &exact, one, MAX_CORRIDOR, &r1);
    const uint32_t slices[] = {1, 7};
    for (int k = 0; k < 2; ++k) {
        wf_status s2 = sliced(q, s, e, sp, ep, slices[k], other, MAX_CORRIDOR, &r2);
        assert_int_equal(s1, s2);
        assert_int_equal(r1.count, r2.count);
        assert_int_equal(r1.flags, r2.flags);
        assert_true(r1.cost == r2.cost);
        assert_memory_equal(one, other, r1.count * sizeof one[0]);
    }
}

static void test_time_sliced_equals_one_shot(void** state) {
    (void)state;
    grid g = make_u(2, 256);
    check_sliced_equals_one_shot(g.q, cell(&g, 1, 1), cell(&g, 8, 1), centre(1, 1), centre(8, 1));
    check_sliced_equals_one_shot(g.q, cell(&g, 0, 9), cell(&g, 9, 0), centre(0, 9), centre(9, 0));
    free_grid(&g);
    // And on every arena row, when the test data is there.
    size_t size;
    char* text = test_read_all(ARENA_DIR "/meshes/arena-merged.mesh", &size);
    if (text == NULL) {
        return;
    }
    wf_polyanya_import_desc d;
    memset(&d, 0, sizeof d);
    d.tile_size = 16.0f;
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_import_polyanya(&d, text, size, &mesh), WF_OK);
    free(text);
    wf_query* q = make_query(mesh, 8192);
    static arena_row rows[512];
    size_t count = test_read_arena_rows(ARENA_DIR "/expected/arena_euclidean.tsv", rows, 512);
    wf_vec3 half = wf_v3(0.01f, 1.0f, 0.01f);
    for (size_t i = 0; i < count; i += 4) {
        wf_poly_ref sr, gr;
        wf_vec3 sp, gp;
        assert_true(nearest(q, wf_v3(rows[i].sx, 0, rows[i].sy), half, &sr, &sp));
        assert_true(nearest(q, wf_v3(rows[i].gx, 0, rows[i].gy), half, &gr, &gp));
        check_sliced_equals_one_shot(q, sr, gr, sp, gp);
    }
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
}

/* ---------------------------------------------------------------------------
 * Cones cut at open vertices: a field of small triangles
 */

/// A 12 x 12 m field of 1 m cells, each cut into two triangles (the
/// diagonals alternate, so open vertices have four to eight triangles
/// round them), with a block over x 5..7, z 2..10: nearly every expansion
/// cuts its cone at an open vertex, and the halves are walked round it and
/// joined. Polyanya text (neighbours are worked out by the import).
static wf_mesh* make_triangle_field(float tile_size) {
    static char text[64 * 1024];
    size_t at = 0;
    uint32_t polys = 0;
    for (uint32_t z = 0; z < 12; ++z) {
        for (uint32_t x = 0; x < 12; ++x) {
            polys += (x >= 5 && x < 7 && z >= 2 && z < 10) ? 0u : 2u;
        }
    }
    at += (size_t)snprintf(text + at, sizeof text - at, "mesh\n2\n%u %u\n", 13u * 13u, polys);
    for (uint32_t z = 0; z <= 12; ++z) {
        for (uint32_t x = 0; x <= 12; ++x) {
            at += (size_t)snprintf(text + at, sizeof text - at, "%u %u 0\n", x, z);
        }
    }
    for (uint32_t z = 0; z < 12; ++z) {
        for (uint32_t x = 0; x < 12; ++x) {
            if (x >= 5 && x < 7 && z >= 2 && z < 10) {
                continue;
            }
            uint32_t a = z * 13 + x, b = a + 1, c = a + 14, d = a + 13; // CCW from (x, z)
            if ((x + z) % 2 == 0) {
                at += (size_t)snprintf(text + at, sizeof text - at,
                                       "3 %u %u %u -1 -1 -1\n3 %u %u %u -1 -1 -1\n", a, b, c, a, c,
                                       d);
            } else {
                at += (size_t)snprintf(text + at, sizeof text - at,
                                       "3 %u %u %u -1 -1 -1\n3 %u %u %u -1 -1 -1\n", a, b, d, b, c,
                                       d);
            }
        }
    }
    wf_polyanya_import_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.tile_size = tile_size;
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_import_polyanya(&desc, text, at, &mesh), WF_OK);
    return mesh;
}

static double dist_xz(double ax, double az, double bx, double bz) {
    return sqrt((ax - bx) * (ax - bx) + (az - bz) * (az - bz));
}

static void test_cones_cut_at_open_vertices_stay_exact(void** state) {
    (void)state;
    // start x, z, goal x, z, optimum (worked out by hand round the block).
    const double cases[][5] = {
        // Along the bottom, in sight.
        {0.4, 0.6, 11.5, 1.2, dist_xz(0.4, 0.6, 11.5, 1.2)},
        // Across the block: round its two lower or two upper corners.
        {0.3, 6.2, 11.7, 5.8,
         fmin(dist_xz(0.3, 6.2, 5, 2) + 2 + dist_xz(7, 2, 11.7, 5.8),
              dist_xz(0.3, 6.2, 5, 10) + 2 + dist_xz(7, 10, 11.7, 5.8))},
        // Corner to corner: round (7, 10) or (5, 2), one corner each.
        {0.5, 11.5, 11.5, 0.5,
         fmin(dist_xz(0.5, 11.5, 7, 10) + dist_xz(7, 10, 11.5, 0.5),
              dist_xz(0.5, 11.5, 5, 2) + dist_xz(5, 2, 11.5, 0.5))},
        // Diagonal in sight across open vertices only.
        {0.2, 2.9, 4.8, 11.7, dist_xz(0.2, 2.9, 4.8, 11.7)},
    };
    const float tilings[] = {0.0f, 4.0f, 5.0f};
    wf_query_filter exact = exact_filter();
    wf_query_filter def = wf_query_filter_defaults();
    wf_vec3 half = wf_v3(0.01f, 1.0f, 0.01f);
    for (int t = 0; t < 3; ++t) {
        wf_mesh* mesh = make_triangle_field(tilings[t]);
        wf_query* q = make_query(mesh, 2048);
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
            const double* c = cases[i];
            wf_poly_ref sr, gr;
            wf_vec3 sp, gp;
            assert_true(nearest(q, wf_v3((float)c[0], 0, (float)c[1]), half, &sr, &sp));
            assert_true(nearest(q, wf_v3((float)c[2], 0, (float)c[3]), half, &gr, &gp));
            answer a = solve(q, sr, gr, sp, gp, &exact);
            if (a.status != WF_OK || fabs(a.length_xz - c[4]) > 1e-4 ||
                fabs(a.result.cost - c[4]) > 1e-3) {
                print_message("tile size %g, case %zu: status %d, straight %.6f, cost %.6f, "
                              "optimum %.6f\n",
                              (double)tilings[t], i, (int)a.status, a.length_xz,
                              (double)a.result.cost, c[4]);
            }
            assert_int_equal(a.status, WF_OK);
            assert_true(fabs(a.length_xz - c[4]) < 1e-4);
            assert_true(fabs(a.result.cost - c[4]) < 1e-3);
            answer d = solve(q, sr, gr, sp, gp, &def);
            assert_int_equal(d.status, WF_OK);
            assert_true(d.length_xz >= c[4] - 1e-4);
            check_sliced_equals_one_shot(q, sr, gr, sp, gp);
        }
        // Too few nodes: a partial path, not a wrong one.
        wf_query* small = make_query(mesh, 4);
        wf_poly_ref sr, gr;
        wf_vec3 sp, gp;
        assert_true(nearest(small, wf_v3(0.3f, 0, 6.2f), half, &sr, &sp));
        assert_true(nearest(small, wf_v3(11.7f, 0, 5.8f), half, &gr, &gp));
        answer p = solve(small, sr, gr, sp, gp, &exact);
        assert_int_equal(p.status, WF_PARTIAL);
        assert_true((p.result.flags & WF_PATH_OUT_OF_NODES) != 0);
        wf_query_destroy(small);
        wf_query_destroy(q);
        wf_mesh_destroy(mesh);
    }
}

static void test_finish_partial_path_keeps_the_old_corridor(void** state) {
    (void)state;
    grid g = make_u(1, 256);
    wf_query_filter exact = exact_filter();
    wf_poly_ref old[64], path[64];
    wf_path_result r;
    assert_int_equal(wf_query_find_path(g.q, cell(&g, 1, 1), cell(&g, 8, 1), centre(1, 1),
                                        centre(8, 1), &exact, old, 64, &r),
                     WF_OK);
    uint32_t old_count = r.count;
    assert_true(old_count > 4);
    // A few expansions in, the furthest old polygon reached ends the path,
    // and the path is the old corridor's start up to it.
    assert_int_equal(
        wf_query_begin_path(g.q, old[0], old[old_count - 1], centre(1, 1), centre(8, 1), &exact),
        WF_OK);
    assert_int_equal(wf_query_update_path(g.q, 3, NULL), WF_IN_PROGRESS);
    assert_int_equal(wf_query_finish_partial_path(g.q, old, old_count, path, 64, &r), WF_OK);
    assert_true(r.count >= 1);
    bool on_old = false;
    for (uint32_t i = 0; i < old_count; ++i) {
        on_old |= wf_poly_ref_equal(old[i], path[r.count - 1]);
    }
    assert_true(on_old);
    assert_true(wf_poly_ref_equal(path[0], old[0]));
    // Finished searches: the whole old corridor when the goal is on it.
    assert_int_equal(
        wf_query_begin_path(g.q, old[0], old[old_count - 1], centre(1, 1), centre(8, 1), &exact),
        WF_OK);
    assert_int_equal(wf_query_update_path(g.q, 100000, NULL), WF_OK);
    assert_int_equal(wf_query_finish_partial_path(g.q, old, old_count, path, 64, &r), WF_OK);
    assert_int_equal(r.count, old_count);
    // The buffer cut: BUFFER_FULL with the start part.
    assert_int_equal(wf_query_find_path(g.q, cell(&g, 1, 1), cell(&g, 8, 1), centre(1, 1),
                                        centre(8, 1), &exact, path, 3, &r),
                     WF_PARTIAL);
    assert_int_equal(r.flags, WF_PATH_BUFFER_FULL);
    assert_int_equal(r.count, 3);
    assert_memory_equal(path, old, 3 * sizeof path[0]);
    free_grid(&g);
}

static void test_memory_includes_exact_storage(void** state) {
    (void)state;
    grid g = make_u(1, 1000);
    wf_query* small = make_query(g.mesh, 10);
    // 4 interval nodes per max_node, each with an open entry, plus a
    // turning point.
    size_t per_node = wf_query_get_stats(g.q).memory_bytes - wf_query_get_stats(small).memory_bytes;
    assert_true(per_node > 990u * (4u * (104u + 24u) + 40u));
    wf_query_destroy(small);
    free_grid(&g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arena_scenarios_are_optimal),
        cmocka_unit_test(test_u_corridor_goes_round_both_corners),
        cmocka_unit_test(test_two_floors_joined_by_a_ramp),
        cmocka_unit_test(test_start_and_goal_in_one_polygon),
        cmocka_unit_test(test_bad_input_is_refused),
        cmocka_unit_test(test_out_of_nodes_gives_a_partial_path),
        cmocka_unit_test(test_unreachable_goal_gives_a_partial_path),
        cmocka_unit_test(test_time_sliced_equals_one_shot),
        cmocka_unit_test(test_cones_cut_at_open_vertices_stay_exact),
        cmocka_unit_test(test_finish_partial_path_keeps_the_old_corridor),
        cmocka_unit_test(test_memory_includes_exact_storage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
