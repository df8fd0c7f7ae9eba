// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The default search's shortcuts give the answers of the long way: find_path
// leaves dead-end polygons unrelaxed (and searches again with them when it
// finds no path), and a straight path over the corridor the query's last
// search found reuses that search's portals. Checked against the sliced
// search (which relaxes every polygon) and against a straight path after
// another search has cleared the node pool, over seeded random tiled grids.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "test_meshes.h"
#include "wayfarer/query.h"
#include "wayfarer/rng.h"

enum { TILES = 2, CELLS_PER_TILE = 5, CELLS = TILES * CELLS_PER_TILE, MAX_PATH = CELLS * CELLS };

static wf_query* make_query(const wf_mesh* mesh, counting_allocator* counter, uint32_t nodes) {
    wf_query_desc qd = {
        .mesh = mesh, .max_nodes = nodes, .allocator = counting_allocator_hooks(counter)};
    wf_query* q = NULL;
    assert_int_equal(wf_query_create(&qd, &q), WF_OK);
    return q;
}

static wf_vec3 random_point_in_cell(wf_rng* rng, uint32_t cell) {
    return wf_v3((float)(cell % CELLS) + wf_rng_range(rng, 0.1f, 0.9f), 0.0f,
                 (float)(cell / CELLS) + wf_rng_range(rng, 0.1f, 0.9f));
}

/// A straight path's length on XZ.
static float points_length(const wf_straight_point* pts, uint32_t n) {
    float length = 0.0f;
    for (uint32_t i = 1; i < n; ++i) {
        wf_vec3 d = wf_v3_sub(pts[i].pos, pts[i - 1].pos);
        length += sqrtf(d.x * d.x + d.z * d.z);
    }
    return length;
}

/// The same search run sliced: it relaxes every polygon it meets.
static wf_status sliced_path(wf_query* q, wf_poly_ref sr, wf_poly_ref er, wf_vec3 sp, wf_vec3 ep,
                             wf_poly_ref* path, wf_path_result* out) {
    wf_query_filter f = wf_query_filter_defaults();
    assert_int_equal(wf_query_begin_path(q, sr, er, sp, ep, &f), WF_OK);
    wf_status s;
    do {
        s = wf_query_update_path(q, 3, NULL);
    } while (s == WF_IN_PROGRESS);
    return wf_query_finish_path(q, path, MAX_PATH, out);
}

static void test_dead_ends_change_no_answer(void** state) {
    (void)state;
    counting_allocator counter;
    counting_allocator_init(&counter);
    wf_allocator a = counting_allocator_hooks(&counter);
    wf_rng rng = wf_rng_make(2026, 11);
    uint32_t found = 0, partial = 0, out_of_nodes = 0, more_found = 0;
    for (int round = 0; round < 300; ++round) {
        // Dense walls make many dead ends and many unreachable goals.
        uint8_t blocked[CELLS * CELLS];
        for (int i = 0; i < CELLS * CELLS; ++i) {
            blocked[i] = wf_rng_below(&rng, 100) < 38;
        }
        uint32_t s = wf_rng_below(&rng, CELLS * CELLS), e = wf_rng_below(&rng, CELLS * CELLS);
        blocked[s] = 0;
        blocked[e] = 0;
        wf_mesh* mesh = test_mesh_grid(TILES, TILES, CELLS_PER_TILE, 1.0f, blocked, NULL, &a);
        assert_non_null(mesh);
        // Some rounds with a pool too small for the whole grid.
        wf_query* q = make_query(mesh, &counter, round % 5 == 0 ? 12u : 256u);
        wf_vec3 sp = random_point_in_cell(&rng, s), ep = random_point_in_cell(&rng, e);
        wf_poly_ref sr = test_grid_poly(mesh, CELLS_PER_TILE, s % CELLS, s / CELLS);
        wf_poly_ref er = test_grid_poly(mesh, CELLS_PER_TILE, e % CELLS, e / CELLS);
        wf_query_filter f = wf_query_filter_defaults();
        wf_poly_ref path[MAX_PATH], sliced[MAX_PATH];
        wf_path_result pr, spr;
        wf_status st = wf_query_find_path(q, sr, er, sp, ep, &f, path, MAX_PATH, &pr);
        wf_status sst = sliced_path(q, sr, er, sp, ep, sliced, &spr);
        if (st == WF_OK && sst == WF_PARTIAL && (spr.flags & WF_PATH_OUT_OF_NODES) != 0) {
            // Dead ends take no nodes: a small pool can now hold the way.
            assert_true(path[0].bits == sr.bits && path[pr.count - 1].bits == er.bits);
            more_found++;
            wf_query_destroy(q);
            wf_mesh_destroy(mesh);
            continue;
        }
        assert_int_equal(st, sst);
        assert_int_equal(pr.flags, spr.flags);
        if (st == WF_OK) {
            // Dead ends carry no way to the goal: the same cost (equal
            // totals may pick another corridor of that cost).
            assert_true(fabsf(pr.cost - spr.cost) <= 1e-4f * (1.0f + spr.cost));
            assert_true(path[0].bits == sr.bits && path[pr.count - 1].bits == er.bits);
            found++;
        } else {
            // No path: searched again with the dead ends, the partial path
            // is the sliced search's, polygon for polygon.
            assert_int_equal(st, WF_PARTIAL);
            assert_int_equal(pr.count, spr.count);
            assert_memory_equal(path, sliced, sizeof path[0] * pr.count);
            assert_true(pr.cost == spr.cost);
            partial++;
            out_of_nodes += (pr.flags & WF_PATH_OUT_OF_NODES) != 0;
        }
        wf_query_destroy(q);
        wf_mesh_destroy(mesh);
    }
    assert_true(found >= 100 && partial >= 30 && out_of_nodes >= 5);
    (void)more_found;
    assert_int_equal(counting_allocator_live(&counter), 0);
}

static void test_straight_path_reuses_portals_exactly(void** state) {
    (void)state;
    counting_allocator counter;
    counting_allocator_init(&counter);
    wf_allocator a = counting_allocator_hooks(&counter);
    wf_rng rng = wf_rng_make(2026, 12);
    uint32_t checked = 0;
    const uint32_t options[2] = {0, WF_STRAIGHT_ALL_CROSSINGS};
    for (int round = 0; round < 200; ++round) {
        uint8_t blocked[CELLS * CELLS];
        for (int i = 0; i < CELLS * CELLS; ++i) {
            blocked[i] = wf_rng_below(&rng, 100) < 25;
        }
        uint32_t s = wf_rng_below(&rng, CELLS * CELLS), e = wf_rng_below(&rng, CELLS * CELLS);
        blocked[s] = 0;
        blocked[e] = 0;
        wf_mesh* mesh = test_mesh_grid(TILES, TILES, CELLS_PER_TILE, 1.0f, blocked, NULL, &a);
        assert_non_null(mesh);
        wf_query* q = make_query(mesh, &counter, 256);
        wf_vec3 sp = random_point_in_cell(&rng, s), ep = random_point_in_cell(&rng, e);
        wf_poly_ref sr = test_grid_poly(mesh, CELLS_PER_TILE, s % CELLS, s / CELLS);
        wf_poly_ref er = test_grid_poly(mesh, CELLS_PER_TILE, e % CELLS, e / CELLS);
        wf_query_filter f = wf_query_filter_defaults();
        wf_poly_ref path[MAX_PATH];
        wf_path_result pr;
        if (wf_query_find_path(q, sr, er, sp, ep, &f, path, MAX_PATH, &pr) != WF_OK) {
            wf_query_destroy(q);
            wf_mesh_destroy(mesh);
            continue;
        }
        uint32_t opt = options[round % 2];
        wf_straight_point reused[2 * MAX_PATH], fresh[2 * MAX_PATH];
        uint32_t n_reused = 0, n_fresh = 0;
        wf_status s1 = wf_query_find_straight_path(q, sp, ep, path, pr.count, reused, 2 * MAX_PATH,
                                                   opt, &n_reused);
        // Another search clears the pool: the portals are looked up again.
        wf_poly_ref around[8];
        uint32_t around_count = 0;
        assert_true(wf_query_find_polys_around_circle(q, sr, sp, 1.0f, &f, around, NULL, NULL, 8,
                                                      &around_count) >= 0);
        wf_status s2 = wf_query_find_straight_path(q, sp, ep, path, pr.count, fresh, 2 * MAX_PATH,
                                                   opt, &n_fresh);
        assert_int_equal(s1, WF_OK);
        assert_int_equal(s1, s2);
        assert_int_equal(n_reused, n_fresh);
        for (uint32_t i = 0; i < n_fresh; ++i) {
            assert_memory_equal(&reused[i].pos, &fresh[i].pos, sizeof fresh[i].pos);
            assert_true(reused[i].ref.bits == fresh[i].ref.bits);
            assert_int_equal(reused[i].flags, fresh[i].flags);
        }
        // The search's price for the corridor is its pulled length.
        if (opt == 0) {
            assert_true(fabsf(points_length(fresh, n_fresh) - pr.cost) <= 1e-3f);
        }
        checked++;
        wf_query_destroy(q);
        wf_mesh_destroy(mesh);
    }
    assert_true(checked >= 100);
    assert_int_equal(counting_allocator_live(&counter), 0);
}

static void test_reused_portals_follow_the_corridor_given(void** state) {
    (void)state;
    // A corridor other than the search's (here its first half, then a
    // detour) must not take the search's portals for pairs it did not
    // enter: the straight path is the one of a cleared pool.
    counting_allocator counter;
    counting_allocator_init(&counter);
    wf_allocator a = counting_allocator_hooks(&counter);
    wf_mesh* mesh = test_mesh_grid(TILES, TILES, CELLS_PER_TILE, 1.0f, NULL, NULL, &a);
    assert_non_null(mesh);
    wf_query* q = make_query(mesh, &counter, 256);
    wf_query_filter f = wf_query_filter_defaults();
    wf_poly_ref cell[CELLS][CELLS];
    for (uint32_t z = 0; z < CELLS; ++z) {
        for (uint32_t x = 0; x < CELLS; ++x) {
            cell[z][x] = test_grid_poly(mesh, CELLS_PER_TILE, x, z);
        }
    }
    wf_vec3 sp = wf_v3(0.5f, 0.0f, 0.5f), ep = wf_v3(7.5f, 0.0f, 0.5f);
    wf_poly_ref path[MAX_PATH];
    wf_path_result pr;
    assert_int_equal(wf_query_find_path(q, cell[0][0], cell[0][7], sp, ep, &f, path, MAX_PATH, &pr),
                     WF_OK);
    // Along row 0 to x = 3, up to row 2, along it to x = 7, back down.
    wf_poly_ref detour[16];
    uint32_t n = 0;
    for (uint32_t x = 0; x <= 3; ++x) {
        detour[n++] = cell[0][x];
    }
    detour[n++] = cell[1][3];
    for (uint32_t x = 3; x <= 7; ++x) {
        detour[n++] = cell[2][x];
    }
    detour[n++] = cell[1][7];
    detour[n++] = cell[0][7];
    wf_straight_point reused[32], fresh[32];
    uint32_t n_reused = 0, n_fresh = 0;
    assert_int_equal(wf_query_find_straight_path(q, sp, ep, detour, n, reused, 32, 0, &n_reused),
                     WF_OK);
    wf_poly_ref around[4];
    uint32_t around_count = 0;
    assert_true(wf_query_find_polys_around_circle(q, cell[0][0], sp, 0.5f, &f, around, NULL, NULL,
                                                  4, &around_count) >= 0);
    assert_int_equal(wf_query_find_straight_path(q, sp, ep, detour, n, fresh, 32, 0, &n_fresh),
                     WF_OK);
    assert_int_equal(n_reused, n_fresh);
    assert_true(n_fresh >= 4); // it goes up and comes back down
    for (uint32_t i = 0; i < n_fresh; ++i) {
        assert_memory_equal(&reused[i].pos, &fresh[i].pos, sizeof fresh[i].pos);
        assert_true(reused[i].ref.bits == fresh[i].ref.bits);
    }
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
    assert_int_equal(counting_allocator_live(&counter), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dead_ends_change_no_answer),
        cmocka_unit_test(test_straight_path_reuses_portals_exactly),
        cmocka_unit_test(test_reused_portals_follow_the_corridor_given),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
