// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Lanes by direction (wf_crowd_desc.flow_cost): bad settings are refused,
// it is on by default (knot18), and what a polygon's flow is priced at:
// walkers coming against the searcher's way (a held-up one in full, one
// walking freely by a quarter: flow28b), counted by how much of the
// polygon's traffic goes one way, by the room to pass (its area), and not
// arrived agents walking back to their spots. (What it does to routes:
// docs/benchmarks.md, flow17 and knot18, on nav_test500; that the same
// crowd comes out on any worker count and after a restore:
// crowd_determinism.c and crowd_save.c run crowds with it on.)
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "crowd/crowd_phases.h" // the flow table and its price
#include "crowd_test_util.h"
#include "test_hooks.h"

/// wf_crowd_desc.flow_cost: NaN, infinities and costs above 1000 are
/// refused; below zero (off), 0 (the default) and costs in range are taken.
static void test_bad_flow_costs_are_refused(void** state) {
    (void)state;
    wf_mesh* mesh = test_mesh_grid(1, 1, 10, 1.0f, NULL, NULL, NULL);
    assert_non_null(mesh);
    wf_assert_fn* previous_hook = wf_set_assert_hook(test_ignore_assert);
    const float bad[] = {NAN, INFINITY, -INFINITY, 1000.5f};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        wf_crowd_desc d = crowd_test_desc(mesh, 4);
        d.flow_cost = bad[k];
        wf_crowd* c = NULL;
        assert_int_equal(wf_crowd_create(&d, &c), WF_ERR_INVALID_ARG);
        assert_null(c);
    }
    wf_set_assert_hook(previous_hook);
    const float good[] = {-1.0f, 0.0f, 0.5f, 3.0f, 1000.0f};
    for (size_t k = 0; k < sizeof good / sizeof good[0]; ++k) {
        wf_crowd_desc d = crowd_test_desc(mesh, 4);
        d.flow_cost = good[k];
        wf_crowd* c = NULL;
        assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
        wf_crowd_destroy(c);
    }
    wf_mesh_destroy(mesh);
}

#define SIDE 12u  // agents per stream
#define CELLS 24u // cells per side of the floor
#define CELL 1.5f // m: polygons of 2.25 m^2, priced in full

/// Two streams of SIDE meeting head-on across an open floor with a row of
/// pillars in the middle (lanes on either side of each): the crowd's hash
/// after 10 s with the given flow_cost.
static uint64_t streams(float flow_cost) {
    uint8_t blocked[CELLS * CELLS] = {0};
    for (uint32_t z = 2; z < CELLS - 2u; z += 4u) {
        blocked[z * CELLS + CELLS / 2u] = 1;
    }
    wf_mesh* mesh = test_mesh_grid(1, 1, CELLS, CELL, blocked, NULL, NULL);
    assert_non_null(mesh);
    wf_crowd_desc d = crowd_test_desc(mesh, 2u * SIDE);
    d.flow_cost = flow_cost;
    wf_crowd* c = NULL;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = wf_agent_params_defaults();
    p.radius = 0.6f;
    for (uint32_t i = 0; i < 2u * SIDE; ++i) {
        bool west = i < SIDE;
        float z = ((float)(i % SIDE) * 1.5f + 3.0f);
        float x = west ? 2.0f : CELLS * CELL - 2.0f;
        wf_agent_id id;
        assert_int_equal(wf_crowd_add_agent(c, wf_v3(x, 0, z), &p, &id), WF_OK);
        wf_vec3 goal = wf_v3(CELLS * CELL - x, 0, CELLS * CELL - z);
        assert_int_equal(wf_crowd_request_move(c, id, goal, NULL, NULL), WF_OK);
    }
    for (int f = 0; f < 300; ++f) {
        assert_int_equal(wf_crowd_update(c, 1.0f / 30.0f, NULL), WF_OK);
    }
    uint64_t h = crowd_test_hash(c);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
    return h;
}

/// A desc that leaves flow_cost 0 prices flow at the default; below zero
/// turns it off (and then the streams go otherwise).
static void test_flow_on_by_default(void** state) {
    (void)state;
    uint64_t by_default = streams(0.0f);
    assert_true(by_default == streams(WF_CROWD_FLOW_COST_DEFAULT));
    assert_true(by_default != streams(-1.0f));
}

/// A crowd on one tile of 4 x 4 cells of side cell, agents added at cell
/// (1, 1)'s centre with the given wishes (xz), and the flow table built.
static wf_crowd* flow_in_cell(wf_mesh** mesh, float cell, const float* wish_x, uint32_t n) {
    *mesh = test_mesh_grid(1, 1, 4, cell, NULL, NULL, NULL);
    assert_non_null(*mesh);
    wf_crowd_desc d = crowd_test_desc(*mesh, 8);
    d.flow_cost = WF_CROWD_FLOW_COST_DEFAULT;
    wf_crowd* c = NULL;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    for (uint32_t k = 0; k < n; ++k) {
        wf_agent_id id;
        assert_int_equal(wf_crowd_add_agent(c, wf_v3(1.5f * cell, 0, 1.5f * cell), &p, &id), WF_OK);
    }
    for (uint32_t i = 0; i < n; ++i) {
        c->desired_vel[i] = wf_v3(wish_x[i], 0, 0);
    }
    wf_crowd_flow_refresh(c);
    return c;
}

/// The price of cell (1, 1) for a search whose way is +x.
static float price(const wf_crowd* c, const wf_mesh* mesh) {
    wf_flow_view view = {.c = c, .way = {1.0f, 0.0f, 0.0f}, .crowding = false};
    return wf_crowd_flow_scale(&view, test_grid_poly(mesh, 4, 1, 1));
}

/// One oncoming walker in a polygon up to WF_CROWD_FLOW_AREA: flow_cost
/// more. Two oncoming and one going the same way: the net one, times the
/// share of the traffic going one way (1/3); one each way: nothing.
static void test_flow_prices_lanes(void** state) {
    (void)state;
    wf_mesh* mesh = NULL;
    float cost = WF_CROWD_FLOW_COST_DEFAULT;
    wf_crowd* c = flow_in_cell(&mesh, 1.5f, (const float[]){-2.0f}, 1);
    assert_float_equal(price(c, mesh), 1.0f + cost, 1e-4f);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
    c = flow_in_cell(&mesh, 1.5f, (const float[]){-2.0f, -1.0f, 2.0f}, 3);
    assert_float_equal(price(c, mesh), 1.0f + cost * 1.0f / 3.0f, 1e-4f);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
    c = flow_in_cell(&mesh, 1.5f, (const float[]){-2.0f, 2.0f}, 2);
    assert_float_equal(price(c, mesh), 1.0f, 1e-4f);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

/// A walker going at the speed it wants counts WF_CROWD_FLOW_FREE_SHARE
/// of its way, one at half that speed halfway between that and in full,
/// one standing in full (flow_in_cell's agents stand): a passing stream
/// is gone when the searcher gets there, a held-up one is not. The
/// weighted way also makes the lane's one-way share (|sum| / walkers), so
/// a lone walker's weight w prices its polygon at cost x w^2.
static void test_free_walkers_count_less(void** state) {
    (void)state;
    wf_mesh* mesh = NULL;
    float cost = WF_CROWD_FLOW_COST_DEFAULT;
    const float free_w = WF_CROWD_FLOW_FREE_SHARE;
    const float half_w = free_w + (1.0f - free_w) * 0.5f;
    wf_crowd* c = flow_in_cell(&mesh, 1.5f, (const float[]){-2.0f}, 1);
    assert_float_equal(price(c, mesh), 1.0f + cost, 1e-4f);
    c->vel[0] = wf_v3(-2.0f, 0, 0);
    wf_crowd_flow_refresh(c);
    assert_float_equal(price(c, mesh), 1.0f + cost * free_w * free_w, 1e-4f);
    c->vel[0] = wf_v3(0, 0, 1.0f); // half the speed it wants, another way
    wf_crowd_flow_refresh(c);
    assert_float_equal(price(c, mesh), 1.0f + cost * half_w * half_w, 1e-4f);
    c->vel[0] = wf_v3(-3.0f, 0, 0); // faster than it wants: still the free share
    wf_crowd_flow_refresh(c);
    assert_float_equal(price(c, mesh), 1.0f + cost * free_w * free_w, 1e-4f);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

/// An arrived agent walking back to its spot is not oncoming traffic.
static void test_returning_holders_are_not_flow(void** state) {
    (void)state;
    wf_mesh* mesh = NULL;
    wf_crowd* c = flow_in_cell(&mesh, 1.5f, (const float[]){-2.0f}, 1);
    c->target_state[0] = WF_TARGET_ARRIVED;
    wf_crowd_flow_refresh(c);
    assert_float_equal(price(c, mesh), 1.0f, 1e-4f);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

/// Room to pass: a polygon of 9 m^2 prices its oncoming walker at
/// WF_CROWD_FLOW_AREA / 9 of it; one under WF_CROWD_FLOW_MIN_AREA (1 m^2,
/// smaller than a body) not at all.
static void test_flow_price_falls_with_room(void** state) {
    (void)state;
    wf_mesh* mesh = NULL;
    float cost = WF_CROWD_FLOW_COST_DEFAULT;
    wf_crowd* c = flow_in_cell(&mesh, 3.0f, (const float[]){-2.0f}, 1);
    assert_float_equal(price(c, mesh), 1.0f + cost * WF_CROWD_FLOW_AREA / 9.0f, 1e-4f);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
    c = flow_in_cell(&mesh, 1.0f, (const float[]){-2.0f}, 1);
    assert_float_equal(price(c, mesh), 1.0f, 1e-4f);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_flow_costs_are_refused),
        cmocka_unit_test(test_flow_on_by_default),
        cmocka_unit_test(test_flow_prices_lanes),
        cmocka_unit_test(test_free_walkers_count_less),
        cmocka_unit_test(test_returning_holders_are_not_flow),
        cmocka_unit_test(test_flow_price_falls_with_room),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
