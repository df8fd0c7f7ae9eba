// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The budgeted update on small grid levels: obstacles change paths and
// areas, every tile under them is rebuilt and nothing else, the budget
// bounds commits and time, results match a fresh build for any worker
// count, steady state allocates nothing, and bad input is refused.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_hooks.h"
#include "test_world.h"
#include "tilecache/tilecache_internal.h"
#include "wayfarer/rng.h"

/* ---------------------------------------------------------------------------
 * Obstacles and paths
 */

/// A 16 x 8 m room, walkable on [0.5, 15.5] x [0.5, 7.5] after erosion:
/// 4 x 2 tiles. A cylinder of radius 1 at (8, 4), widened by the agent
/// radius to 1.5 m, sits on the corner of four tiles and blocks the
/// straight line from (1.5, 4) to (14.5, 4).
static void test_cylinder_makes_path_go_around(void** state) {
    (void)state;
    level* l = level_new(16, 8);
    world w = world_make(l, no_jobs(), NULL);
    wf_query_filter f = wf_query_filter_defaults();
    wf_vec3 a = wf_v3(1.5f, 0.0f, 4.0f), b = wf_v3(14.5f, 0.0f, 4.0f);
    route before = world_route(&w, a, b, &f);
    assert_int_equal(before.status, WF_OK);
    assert_int_equal(before.point_count, 2);
    assert_float_equal(before.length, 13.0, 1e-4);
    wf_poly_ref in_hole = world_poly_at(&w, wf_v3(8.0f, 0.0f, 4.0f));
    wf_poly_ref far_away = world_poly_at(&w, wf_v3(1.0f, 0.0f, 1.0f)); // tile (0, 0)
    wf_tile_ref old_tiles[4];
    for (int i = 0; i < 4; ++i) {
        assert_int_equal(wf_mesh_find_tile(w.mesh, 1 + i % 2, i / 2, 0, &old_tiles[i]), WF_OK);
    }

    wf_obstacle_id id = obstacle_add(w.tc, obstacle_cylinder(8.0f, 4.0f, 1.0f));
    assert_int_equal(wf_tilecache_obstacle_count(w.tc), 1);
    wf_tilecache_update_result r = world_settle(&w);
    assert_int_equal(r.requests_applied, 1);
    // Stamp bounds [6.5, 9.5] x [2.5, 5.5]: tiles x 1..2, z 0..1, one
    // layer each, replaced once each, in layer order.
    assert_int_equal(r.tiles_committed, 4);
    assert_int_equal(r.layers_rebuilt, 4);
    assert_int_equal(r.changed_count, 4);
    assert_true(r.up_to_date);
    assert_int_equal(r.builds_in_flight, 0);
    assert_int_equal(r.layers_pending, 0);
    for (int i = 0; i < 4; ++i) {
        const wf_tilecache_changed_tile* c = &r.changed[i];
        int32_t x = 1 + i % 2, z = i / 2; // layers are in tile order: z, then x
        assert_int_equal(c->tile_x, x);
        assert_int_equal(c->tile_z, z);
        assert_int_equal(c->layer, 0);
        assert_int_equal(c->old_tile.bits, old_tiles[i].bits);
        wf_tile_ref now;
        assert_int_equal(wf_mesh_find_tile(w.mesh, x, z, 0, &now), WF_OK);
        assert_int_equal(c->new_tile.bits, now.bits);
        assert_true(now.bits != old_tiles[i].bits);
    }
    // Refs into replaced tiles are stale; the untouched tile's stay valid.
    assert_false(wf_mesh_poly_is_valid(w.mesh, in_hole));
    assert_int_equal(wf_mesh_check_poly(w.mesh, in_hole), WF_ERR_STALE_REF);
    assert_true(wf_mesh_poly_is_valid(w.mesh, far_away));
    // Carved: cells whose centre lies within 1.5 m. The walkable edge is
    // within [1.07, 1.93] m of the centre (half a cell diagonal for the
    // cell corners, 0.25 m for the contour simplification).
    wf_query_filter f0 = wf_query_filter_defaults();
    wf_poly_ref edge_ref;
    wf_vec3 edge;
    assert_int_equal(wf_query_find_nearest_poly(w.q, wf_v3(8.0f, 0.0f, 4.0f),
                                                wf_v3(2.0f, 1.0f, 2.0f), &f0, &edge_ref, &edge),
                     WF_OK);
    double gap = wf_v2_distance(edge, wf_v3(8.0f, 0.0f, 4.0f));
    assert_true(gap > 1.07 && gap < 1.93);

    // Around a disc of radius r centred between start and goal (6.5 m
    // from each): 2 sqrt(6.5^2 - r^2) + r (pi - 2 acos(r / 6.5)). The
    // hole's outline lies within [1.07, 1.93] m of the centre (1.5 m, +-
    // half a cell diagonal, +- 0.25 m simplification): 13.17 .. 13.60 m.
    route around = world_route(&w, a, b, &f);
    assert_int_equal(around.status, WF_OK);
    assert_true(around.point_count >= 3);
    assert_true(around.length > 13.17 && around.length < 13.60);

    assert_int_equal(wf_tilecache_remove_obstacle(w.tc, id), WF_OK);
    assert_int_equal(wf_tilecache_obstacle_count(w.tc), 0);
    r = world_settle(&w);
    assert_int_equal(r.tiles_committed, 4);
    route after = world_route(&w, a, b, &f);
    assert_int_equal(after.status, WF_OK);
    assert_int_equal(after.point_count, 2);
    assert_float_equal(after.length, 13.0, 1e-4);
    assert_same_as_original(l, w.mesh);
    // Stale ids are refused.
    assert_int_equal(wf_tilecache_remove_obstacle(w.tc, id), WF_ERR_STALE_REF);
    world_free(&w);
    free(l);
}

/// Area 5 painted over [6.5, 9.5] x [0, 5.5] (a box widened by 0.5 m)
/// leaves a free lane z in [5.5, 7.5] beside it. From (1.5, 2.5) to
/// (14.5, 2.5): 13 m straight through 3 m of paint, or about 14.2 m
/// around it. Cost 10 on area 5 makes the paint 27 m dearer: around; cost
/// 0.5 makes it cheaper: straight through.
static void test_painted_area_follows_filter_cost(void** state) {
    (void)state;
    level* l = level_new(16, 8);
    world w = world_make(l, no_jobs(), NULL);
    wf_obstacle_desc mud = obstacle_box(8.0f, 2.5f, 1.0f, 2.5f);
    mud.paint = true;
    mud.area = 5;
    obstacle_add(w.tc, mud);
    world_settle(&w);
    uint8_t area = 0;
    wf_poly_ref painted = world_poly_at(&w, wf_v3(8.0f, 0.0f, 2.0f));
    assert_int_equal(wf_mesh_get_poly_area(w.mesh, painted, &area), WF_OK);
    assert_int_equal(area, 5);
    wf_poly_ref lane = world_poly_at(&w, wf_v3(8.0f, 0.0f, 7.0f));
    assert_int_equal(wf_mesh_get_poly_area(w.mesh, lane, &area), WF_OK);
    assert_int_equal(area, 0);

    wf_vec3 a = wf_v3(1.5f, 0.0f, 2.5f), b = wf_v3(14.5f, 0.0f, 2.5f);
    wf_query_filter f = wf_query_filter_defaults();
    f.area_cost[5] = 10.0f;
    route avoid = world_route(&w, a, b, &f);
    assert_int_equal(avoid.status, WF_OK);
    assert_false(route_has_area(&w, &avoid, 5));
    assert_true(avoid.length > 13.5);
    for (uint32_t i = 0; i < avoid.point_count; ++i) {
        wf_vec3 p = avoid.points[i].pos;
        assert_true(p.x < 6.5f || p.x > 9.5f || p.z >= 5.4f); // never over the paint
    }
    f.area_cost[5] = 0.5f;
    route prefer = world_route(&w, a, b, &f);
    assert_int_equal(prefer.status, WF_OK);
    assert_true(route_has_area(&w, &prefer, 5));
    assert_int_equal(prefer.point_count, 2);
    assert_float_equal(prefer.length, 13.0, 1e-4);
    world_free(&w);
    free(l);
}

/// A 64 x 64 m floor (16 x 16 tiles) under a 40 x 40 m box centred at
/// (32, 32): widened, it covers [11.5, 52.5] on both axes, tiles 2..13:
/// 144 tiles change; the 100 tiles 3..12 lie wholly under it and lose
/// every polygon (removed, no new tile).
static void test_huge_box_carves_every_tile_under_it(void** state) {
    (void)state;
    level* l = level_new(64, 64);
    world w = world_make(l, no_jobs(), NULL);
    assert_int_equal(wf_mesh_get_stats(w.mesh).tile_count, 256);
    wf_obstacle_id id = obstacle_add(w.tc, obstacle_box(32.0f, 32.0f, 20.0f, 20.0f));
    wf_tilecache_update_result r = world_settle(&w);
    assert_int_equal(r.changed_count, 144);
    assert_int_equal(r.tiles_committed, 144);
    uint32_t removed = 0;
    for (uint32_t i = 0; i < r.changed_count; ++i) {
        const wf_tilecache_changed_tile* c = &r.changed[i];
        assert_true(c->tile_x >= 2 && c->tile_x <= 13 && c->tile_z >= 2 && c->tile_z <= 13);
        assert_true(c->old_tile.bits != 0);
        bool inside = c->tile_x >= 3 && c->tile_x <= 12 && c->tile_z >= 3 && c->tile_z <= 12;
        assert_int_equal(c->new_tile.bits == 0, inside);
        removed += c->new_tile.bits == 0;
    }
    assert_int_equal(removed, 100);
    assert_int_equal(wf_mesh_get_stats(w.mesh).tile_count, 256 - 100);
    wf_obstacle_desc d = obstacle_box(32.0f, 32.0f, 20.0f, 20.0f);
    assert_equals_fresh_build(l, w.mesh, &d, 1);
    // Removing it brings all 144 back as they were.
    assert_int_equal(wf_tilecache_remove_obstacle(w.tc, id), WF_OK);
    r = world_settle(&w);
    assert_int_equal(r.changed_count, 144);
    for (uint32_t i = 0; i < r.changed_count; ++i) {
        assert_true(r.changed[i].new_tile.bits != 0);
    }
    assert_int_equal(wf_mesh_get_stats(w.mesh).tile_count, 256);
    assert_same_as_original(l, w.mesh);
    world_free(&w);
    free(l);
}

/// Added and removed before an update: nothing to rebuild. Then a stamped
/// obstacle removed and another added and removed in one frame: the four
/// tiles under the first come back exactly.
static void test_add_and_remove_in_one_frame(void** state) {
    (void)state;
    level* l = level_new(16, 8);
    world w = world_make(l, no_jobs(), NULL);
    wf_obstacle_id id = obstacle_add(w.tc, obstacle_cylinder(8.0f, 4.0f, 1.0f));
    assert_int_equal(wf_tilecache_remove_obstacle(w.tc, id), WF_OK);
    wf_tilecache_update_result r = world_settle(&w);
    assert_int_equal(r.requests_applied, 2);
    assert_int_equal(r.changed_count, 0);
    assert_true(r.up_to_date);
    assert_same_as_original(l, w.mesh);

    id = obstacle_add(w.tc, obstacle_cylinder(2.0f, 2.0f, 0.5f));
    world_settle(&w);
    assert_int_equal(wf_tilecache_remove_obstacle(w.tc, id), WF_OK);
    // The next add may reuse the removed obstacle's slot.
    wf_obstacle_id other = obstacle_add(w.tc, obstacle_cylinder(12.0f, 6.0f, 0.5f));
    assert_int_equal(wf_tilecache_remove_obstacle(w.tc, other), WF_OK);
    r = world_settle(&w);
    assert_int_equal(r.requests_applied, 3);
    assert_int_equal(r.changed_count, 1); // (2, 2) widened: [1, 3], tile (0, 0) only
    assert_same_as_original(l, w.mesh);
    world_free(&w);
    free(l);
}

/// A wall across the room at x in [7.5, 8.5) with one 2 m opening at z in
/// [3, 5) (1 m after erosion): a box over the opening makes (14, 4)
/// unreachable from (2, 4); opening it restores the straight 12 m path.
static void test_door_closes_and_opens(void** state) {
    (void)state;
    level* l = level_new(16, 8);
    level_wall(l, 7.5f, 0.0f, 8.5f, 3.0f);
    level_wall(l, 7.5f, 5.0f, 8.5f, 8.0f);
    world w = world_make(l, no_jobs(), NULL);
    wf_query_filter f = wf_query_filter_defaults();
    wf_vec3 a = wf_v3(2.0f, 0.0f, 4.0f), b = wf_v3(14.0f, 0.0f, 4.0f);
    route open = world_route(&w, a, b, &f);
    assert_int_equal(open.status, WF_OK);
    assert_float_equal(open.length, 12.0, 1e-4);

    wf_obstacle_id door = obstacle_add(w.tc, obstacle_box(8.0f, 4.0f, 0.5f, 1.0f));
    world_settle(&w);
    route closed = world_route(&w, a, b, &f);
    assert_int_equal(closed.status, WF_PARTIAL);
    // The partial path ends on the near side of the wall.
    assert_true(closed.points[closed.point_count - 1].pos.x < 7.5f);

    assert_int_equal(wf_tilecache_remove_obstacle(w.tc, door), WF_OK);
    world_settle(&w);
    route reopened = world_route(&w, a, b, &f);
    assert_int_equal(reopened.status, WF_OK);
    assert_int_equal(reopened.point_count, 2);
    assert_float_equal(reopened.length, 12.0, 1e-4);
    assert_same_as_original(l, w.mesh);
    world_free(&w);
    free(l);
}

/* ---------------------------------------------------------------------------
 * Budget
 */

/// Four tiles under the cylinder; one commit per call: three calls report
/// work left, the fourth is up to date, for inline builds and a pool.
static void check_one_commit_per_call(wf_job_system jobs) {
    level* l = level_new(16, 8);
    world w = world_make(l, jobs, NULL);
    obstacle_add(w.tc, obstacle_cylinder(8.0f, 4.0f, 1.0f));
    wf_tilecache_budget b = {0, 1};
    wf_tilecache_update_result r;
    for (int call = 0; call < 4; ++call) {
        assert_int_equal(wf_tilecache_update(w.tc, w.mesh, &b, &r), WF_OK);
        assert_int_equal(r.requests_applied, call == 0 ? 1 : 0);
        assert_int_equal(r.tiles_committed, 1);
        assert_int_equal(r.changed_count, 1);
        assert_int_equal(r.up_to_date, call == 3);
        assert_int_equal(r.builds_in_flight + r.layers_pending, (uint32_t)(3 - call));
    }
    assert_int_equal(wf_tilecache_update(w.tc, w.mesh, &b, &r), WF_OK);
    assert_int_equal(r.tiles_committed, 0);
    assert_true(r.up_to_date);
    wf_obstacle_desc d = obstacle_cylinder(8.0f, 4.0f, 1.0f);
    assert_equals_fresh_build(l, w.mesh, &d, 1);
    world_free(&w);
    free(l);
}

static void test_max_commits(void** state) {
    (void)state;
    check_one_commit_per_call(no_jobs());
    wf_thread_pool* pool = make_pool(2);
    check_one_commit_per_call(wf_thread_pool_job_system(pool));
    wf_thread_pool_destroy(pool);
}

/// A 1 us budget: every call still commits a tile (or at least finishes a
/// build) and returns; the 4 tiles converge within 4 calls.
static void check_tiny_time_budget(wf_job_system jobs) {
    level* l = level_new(16, 8);
    world w = world_make(l, jobs, NULL);
    obstacle_add(w.tc, obstacle_cylinder(8.0f, 4.0f, 1.0f));
    wf_tilecache_budget b = {1, 0};
    wf_tilecache_update_result r;
    uint32_t calls = 0, committed = 0;
    do {
        assert_int_equal(wf_tilecache_update(w.tc, w.mesh, &b, &r), WF_OK);
        assert_true(r.tiles_committed + r.layers_rebuilt >= 1);
        committed += r.tiles_committed;
        calls++;
    } while (!r.up_to_date && calls < 10);
    assert_true(r.up_to_date);
    assert_true(calls <= 4);
    assert_int_equal(committed, 4);
    wf_obstacle_desc d = obstacle_cylinder(8.0f, 4.0f, 1.0f);
    assert_equals_fresh_build(l, w.mesh, &d, 1);
    world_free(&w);
    free(l);
}

static void test_tiny_time_budget(void** state) {
    (void)state;
    check_tiny_time_budget(no_jobs());
    wf_thread_pool* pool = make_pool(2);
    check_tiny_time_budget(wf_thread_pool_job_system(pool));
    wf_thread_pool_destroy(pool);
}

/// Builds left in flight by a one-commit budget with a time limit (with
/// none, a call builds only what it commits); the obstacle moves twice
/// meanwhile (the layers it left and the ones it reaches are touched while
/// their builds run). The result equals a fresh build with the final place.
static void test_layer_touched_while_in_flight(void** state) {
    (void)state;
    wf_thread_pool* pool = make_pool(2);
    level* l = level_new(16, 8);
    world w = world_make(l, wf_thread_pool_job_system(pool), NULL);
    wf_obstacle_id id = obstacle_add(w.tc, obstacle_box(8.0f, 4.0f, 2.5f, 2.5f));
    wf_tilecache_budget one = {1, 1}; // a time limit: slots build ahead
    wf_tilecache_update_result r;
    assert_int_equal(wf_tilecache_update(w.tc, w.mesh, &one, &r), WF_OK);
    assert_true(r.builds_in_flight >= 1);
    assert_false(r.up_to_date);
    wf_obstacle_desc d = obstacle_box(7.0f, 3.0f, 2.5f, 2.0f);
    assert_int_equal(wf_tilecache_move_obstacle(w.tc, id, &d), WF_OK);
    assert_int_equal(wf_tilecache_update(w.tc, w.mesh, &one, &r), WF_OK);
    assert_false(r.up_to_date);
    d = obstacle_cylinder(9.0f, 5.0f, 1.5f);
    assert_int_equal(wf_tilecache_move_obstacle(w.tc, id, &d), WF_OK);
    assert_int_equal(wf_tilecache_update(w.tc, w.mesh, &one, &r), WF_OK);
    assert_false(r.up_to_date);
    uint32_t calls = 0;
    while (!r.up_to_date && calls++ < 20) {
        assert_int_equal(wf_tilecache_update(w.tc, w.mesh, &one, &r), WF_OK);
    }
    assert_true(r.up_to_date);
    assert_equals_fresh_build(l, w.mesh, &d, 1);
    world_free(&w);
    wf_thread_pool_destroy(pool);
    free(l);
}

/* ---------------------------------------------------------------------------
 * Determinism, memory, teardown
 */

#define CHURN_OBSTACLES 12

/// A 32 x 32 m level with a few walls; obstacles added, moved and removed
/// with mixed budgets. Writes the surviving descs to `out`.
static world run_sequence(const level* l, wf_job_system jobs, wf_obstacle_desc* out,
                          uint32_t* out_count) {
    world w = world_make(l, jobs, NULL);
    wf_rng rng = wf_rng_make(42, 3);
    wf_obstacle_id ids[CHURN_OBSTACLES];
    wf_obstacle_desc descs[CHURN_OBSTACLES];
    bool live[CHURN_OBSTACLES];
    wf_tilecache_budget budgets[3] = {{0, 2}, {1, 0}, {0, 0}};
    wf_tilecache_update_result r;
    for (uint32_t i = 0; i < CHURN_OBSTACLES; ++i) {
        float x = wf_rng_range(&rng, 2.0f, 30.0f), z = wf_rng_range(&rng, 2.0f, 30.0f);
        descs[i] = i % 3 == 0 ? obstacle_box(x, z, wf_rng_range(&rng, 0.3f, 2.0f), 1.0f)
                              : obstacle_cylinder(x, z, wf_rng_range(&rng, 0.3f, 1.5f));
        if (i % 4 == 1) {
            descs[i].paint = true;
            descs[i].area = (uint8_t)(2 + i % 5);
        }
        ids[i] = obstacle_add(w.tc, descs[i]);
        live[i] = true;
        if (i % 3 == 2) {
            assert_true(wf_succeeded(wf_tilecache_update(w.tc, w.mesh, &budgets[i % 2], &r)));
        }
    }
    for (uint32_t i = 0; i < CHURN_OBSTACLES; ++i) {
        if (i % 3 == 1) {
            descs[i].position.x += 1.5f;
            descs[i].position.z -= 1.0f;
            assert_int_equal(wf_tilecache_move_obstacle(w.tc, ids[i], &descs[i]), WF_OK);
        } else if (i % 4 == 0) {
            assert_int_equal(wf_tilecache_remove_obstacle(w.tc, ids[i]), WF_OK);
            live[i] = false;
        }
        assert_true(wf_succeeded(wf_tilecache_update(w.tc, w.mesh, &budgets[i % 3], &r)));
    }
    world_settle(&w);
    *out_count = 0;
    for (uint32_t i = 0; i < CHURN_OBSTACLES; ++i) {
        if (live[i]) {
            out[(*out_count)++] = descs[i];
        }
    }
    return w;
}

static void test_same_navmesh_for_any_worker_count(void** state) {
    (void)state;
    level* l = level_new(32, 32);
    level_wall(l, 10.0f, 4.0f, 11.0f, 20.0f);
    level_wall(l, 18.0f, 14.0f, 28.0f, 15.0f);
    wf_obstacle_desc survivors[CHURN_OBSTACLES];
    uint32_t count = 0;
    world ref = run_sequence(l, no_jobs(), survivors, &count);
    assert_true(count > 0 && count < CHURN_OBSTACLES);
    assert_equals_fresh_build(l, ref.mesh, survivors, count);
    for (uint32_t threads = 1; threads <= 2; ++threads) {
        wf_thread_pool* pool = make_pool(threads);
        uint32_t n = 0;
        world got = run_sequence(l, wf_thread_pool_job_system(pool), survivors, &n);
        assert_int_equal(n, count);
        assert_same_tiles(ref.mesh, got.mesh);
        world_free(&got);
        wf_thread_pool_destroy(pool);
    }
    world_free(&ref);
    free(l);
}

/// After one add/update/remove/update cycle has sized every tile's memory,
/// further cycles allocate nothing in the cache or the mesh.
static void check_steady_state(wf_job_system jobs) {
    counting_allocator c;
    counting_allocator_init(&c);
    level* l = level_new(16, 8);
    world w = world_make(l, jobs, &c);
    wf_obstacle_desc descs[2] = {obstacle_cylinder(8.0f, 4.0f, 1.0f),
                                 obstacle_box(3.0f, 3.0f, 1.0f, 0.5f)};
    descs[1].paint = true;
    descs[1].area = 9;
    for (int cycle = 0; cycle < 6; ++cycle) {
        unsigned long before = atomic_load(&c.allocations);
        wf_obstacle_id a = obstacle_add(w.tc, descs[0]);
        wf_obstacle_id b = obstacle_add(w.tc, descs[1]);
        world_settle(&w);
        assert_int_equal(wf_tilecache_remove_obstacle(w.tc, a), WF_OK);
        assert_int_equal(wf_tilecache_remove_obstacle(w.tc, b), WF_OK);
        world_settle(&w);
        if (cycle > 0) {
            assert_int_equal(atomic_load(&c.allocations), before);
        }
    }
    assert_same_as_original(l, w.mesh);
    world_free(&w);
    assert_int_equal(counting_allocator_live(&c), 0);
    assert_int_equal(atomic_load(&c.size_mismatches), 0);
    free(l);
}

static void test_steady_state_allocates_nothing(void** state) {
    (void)state;
    check_steady_state(no_jobs());
    wf_thread_pool* pool = make_pool(2);
    check_steady_state(wf_thread_pool_job_system(pool));
    wf_thread_pool_destroy(pool);
}

/// Builds still running when the cache goes: destroy waits for them.
static void test_destroy_with_builds_in_flight(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_thread_pool* pool = make_pool(2);
    level* l = level_new(64, 64);
    world w = world_make(l, wf_thread_pool_job_system(pool), &c);
    obstacle_add(w.tc, obstacle_box(32.0f, 32.0f, 20.0f, 20.0f));
    wf_tilecache_budget one = {1, 1}; // a time limit: slots build ahead
    wf_tilecache_update_result r;
    assert_int_equal(wf_tilecache_update(w.tc, w.mesh, &one, &r), WF_OK);
    assert_true(r.builds_in_flight > 0);
    assert_true(r.layers_pending > 0);
    world_free(&w);
    assert_int_equal(counting_allocator_live(&c), 0);
    wf_thread_pool_destroy(pool);
    free(l);
}

/// A 48 x 48 m grid of 1 m cells whose areas alternate like a
/// checkerboard: every cell is its own polygon, so each 48 x 48 layer needs
/// more than the slot's 64 KiB scratch and its blob more than the slot's
/// buffer. Such layers are built on the calling thread in a full-size
/// arena, and the result is still the fresh build's.
static void test_oversize_layer_built_on_caller(void** state) {
    (void)state;
    level* l = calloc(1, sizeof *l);
    l->params = wf_tilecache_params_recast_demo();
    l->params.cell_size = 1.0f;
    l->params.agent_radius = 0.0f;
    l->params.min_region_area = 0;
    l->params.merge_region_area = 0;
    l->cell_size = 1.0f;
    l->width = l->depth = 48;
    l->has_areas = true;
    for (uint32_t i = 0; i < 48 * 48; ++i) {
        l->walkable[i] = 1;
        l->areas[i] = (uint8_t)((i % 48 + i / 48) & 1);
    }
    wf_obstacle_desc d = obstacle_cylinder(20.0f, 20.0f, 3.0f);
    for (int pool_threads = 0; pool_threads <= 2; pool_threads += 2) {
        wf_thread_pool* pool = pool_threads > 0 ? make_pool(2) : NULL;
        world w = world_make(l, pool != NULL ? wf_thread_pool_job_system(pool) : no_jobs(), NULL);
        assert_true(wf_tilecache_get_stats(w.tc).oversize_layers >= 1);
        size_t need = 0;
        assert_int_equal(wf_tilecache_build_tile(w.tc, 0, NULL, 0, &need), WF_ERR_CAPACITY);
        assert_true(need > w.tc->staging_bytes);
        wf_obstacle_id id = obstacle_add(w.tc, d);
        wf_tilecache_update_result r = world_settle(&w);
        assert_int_equal(r.changed_count, 1);
        assert_int_equal(w.tc->update_oversize_layers, 1);
        assert_equals_fresh_build(l, w.mesh, &d, 1);
        assert_int_equal(wf_tilecache_remove_obstacle(w.tc, id), WF_OK);
        world_settle(&w);
        assert_int_equal(w.tc->update_oversize_layers, 2);
        assert_same_as_original(l, w.mesh);
        world_free(&w);
        wf_thread_pool_destroy(pool);
    }
    free(l);
}

/// A new build of the cache drops the per-layer state; updates go on with
/// the new layers and a new mesh.
static void test_rebuild_after_updates(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    level* l = level_new(16, 8);
    world w = world_make(l, no_jobs(), &c);
    wf_obstacle_desc d = obstacle_cylinder(8.0f, 4.0f, 1.0f);
    obstacle_add(w.tc, d);
    world_settle(&w);
    wf_query_destroy(w.q);
    wf_mesh_destroy(w.mesh); // its tiles live in the cache's memory
    assert_int_equal(wf_tilecache_build_grid(w.tc, level_grid(l)), WF_OK);
    w.mesh = cache_mesh(w.tc);
    assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = w.mesh}, &w.q), WF_OK);
    // The obstacle is still applied: a navmesh build stamps it.
    assert_int_equal(wf_tilecache_build_navmesh(w.tc, w.mesh), WF_OK);
    assert_equals_fresh_build(l, w.mesh, &d, 1);
    obstacle_add(w.tc, obstacle_cylinder(2.0f, 2.0f, 0.5f));
    wf_tilecache_update_result r = world_settle(&w);
    assert_int_equal(r.changed_count, 1);
    world_free(&w);
    assert_int_equal(counting_allocator_live(&c), 0);
    free(l);
}

static void test_bad_arguments(void** state) {
    (void)state;
    level* l = level_new(16, 8);
    world w = world_make(l, no_jobs(), NULL);
    wf_tilecache_budget b = budget_unlimited();
    wf_tilecache_update_result r;
    obstacle_add(w.tc, obstacle_cylinder(8.0f, 4.0f, 1.0f));
    wf_assert_fn* hook = wf_set_assert_hook(test_ignore_assert);
    assert_int_equal(wf_tilecache_update(NULL, w.mesh, &b, &r), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_tilecache_update(w.tc, NULL, &b, &r), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_tilecache_update(w.tc, w.mesh, NULL, &r), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_tilecache_update(w.tc, w.mesh, &b, NULL), WF_ERR_INVALID_ARG);
    // A mesh whose tile grid is not the cache's.
    wf_mesh_desc md = wf_tilecache_mesh_desc(w.tc);
    md.tile_width = md.tile_depth = 3.0f;
    wf_mesh* other = NULL;
    assert_int_equal(wf_mesh_create(&md, &other), WF_OK);
    assert_int_equal(wf_tilecache_update(w.tc, other, &b, &r), WF_ERR_INVALID_ARG);
    md = wf_tilecache_mesh_desc(w.tc);
    md.origin.x += 1.0f;
    wf_mesh* shifted = NULL;
    assert_int_equal(wf_mesh_create(&md, &shifted), WF_OK);
    assert_int_equal(wf_tilecache_update(w.tc, shifted, &b, &r), WF_ERR_INVALID_ARG);
    wf_set_assert_hook(hook);
    wf_mesh_destroy(other);
    wf_mesh_destroy(shifted);
    // The refused calls left the request queued.
    r = world_settle(&w);
    assert_int_equal(r.requests_applied, 1);
    assert_int_equal(r.changed_count, 4);
    world_free(&w);

    // A cache with no layers: nothing to do, up to date.
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = scene_params();
    d.logger.quiet = true;
    wf_tilecache* empty = NULL;
    assert_int_equal(wf_tilecache_create(&d, &empty), WF_OK);
    wf_mesh* mesh = cache_mesh(empty);
    assert_int_equal(wf_tilecache_update(empty, mesh, &b, &r), WF_OK);
    assert_true(r.up_to_date);
    assert_int_equal(r.changed_count, 0);
    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(empty);
    free(l);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cylinder_makes_path_go_around),
        cmocka_unit_test(test_painted_area_follows_filter_cost),
        cmocka_unit_test(test_huge_box_carves_every_tile_under_it),
        cmocka_unit_test(test_add_and_remove_in_one_frame),
        cmocka_unit_test(test_door_closes_and_opens),
        cmocka_unit_test(test_max_commits),
        cmocka_unit_test(test_tiny_time_budget),
        cmocka_unit_test(test_layer_touched_while_in_flight),
        cmocka_unit_test(test_same_navmesh_for_any_worker_count),
        cmocka_unit_test(test_steady_state_allocates_nothing),
        cmocka_unit_test(test_destroy_with_builds_in_flight),
        cmocka_unit_test(test_oversize_layer_built_on_caller),
        cmocka_unit_test(test_rebuild_after_updates),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
