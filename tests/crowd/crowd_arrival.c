// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Honest arrival: ARRIVED only at the target (within a quarter radius),
// STOPPED_SHORT when another agent holds the target, no arrival while an
// agent only slowed down to let another pass; an arrived agent holds its
// spot (pushed off it, it walks back; put elsewhere by the game, it stays).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "crowd_test_util.h"

#define DT (1.0f / 30.0f)
/// The crowd's arrival radius, in agent radii (crowd.h).
#define ARRIVAL_RADII 0.25f

typedef struct counters {
    int done;
} counters;

static bool on_done(wf_agent_id agent, void* user) {
    (void)agent;
    ((counters*)user)->done++;
    return false; // the request ends: the agent holds its spot
}

static const wf_move_callbacks callbacks = {NULL, NULL, on_done};

/// Every event of agent id in the last update, as a bit per kind.
static uint32_t events_of(const wf_crowd* c, wf_agent_id id) {
    uint32_t n = 0, kinds = 0;
    const wf_crowd_event* e = wf_crowd_events(c, &n);
    for (uint32_t k = 0; k < n; ++k) {
        if (e[k].agent.bits == id.bits) {
            kinds |= 1u << e[k].kind;
        }
    }
    return kinds;
}

static wf_crowd* make_crowd(const wf_mesh* mesh, uint32_t max_agents) {
    wf_crowd_desc d = crowd_test_desc(mesh, max_agents);
    wf_crowd* c = NULL;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    return c;
}

/// Runs until agent a has arrived (either event; then one more update, in
/// which done runs) or frames run out; fails on any arrival event of a
/// further than the rules allow.
static int run_to_arrival(wf_crowd* c, wf_agent_id a, wf_vec3 target, int frames,
                          uint32_t* out_kind) {
    float r = crowd_test_state(c, a).params.radius;
    for (int f = 0; f < frames; ++f) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        uint32_t kinds = events_of(c, a);
        float d = crowd_test_dist2d(crowd_test_state(c, a).position, target);
        if (kinds & (1u << WF_CROWD_EVENT_ARRIVED)) {
            assert_true(d <= r * ARRIVAL_RADII + 1e-4f);
            *out_kind = WF_CROWD_EVENT_ARRIVED;
            assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
            return f;
        }
        if (kinds & (1u << WF_CROWD_EVENT_STOPPED_SHORT)) {
            assert_true(d <= r * 2.0f + 1e-4f);
            *out_kind = WF_CROWD_EVENT_STOPPED_SHORT;
            assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
            return f;
        }
    }
    return frames;
}

static void test_crossing_groups_arrive_only_at_their_targets(void** state) {
    (void)state;
    // Two groups of 16 cross at right angles, each agent to the spot 16 m
    // ahead of it. Agents slow down to let others pass, also within two
    // radii of their targets: that is no arrival. Every one arrives, each
    // at its target.
    wf_mesh* mesh = test_mesh_grid(4, 4, 10, 1.0f, NULL, NULL, NULL);
    wf_crowd* c = make_crowd(mesh, 32);
    wf_agent_params p = crowd_test_params();
    wf_agent_id ids[32];
    wf_vec3 targets[32];
    counters n = {0};
    for (uint32_t k = 0; k < 16; ++k) {
        float u = 1.2f * (float)(k % 4), v = 1.2f * (float)(k / 4);
        wf_vec3 east = wf_v3(8.0f + u, 0, 18.0f + v), north = wf_v3(18.0f + v, 0, 8.0f + u);
        targets[2 * k] = wf_v3(east.x + 16.0f, 0, east.z);
        targets[2 * k + 1] = wf_v3(north.x, 0, north.z + 16.0f);
        assert_int_equal(wf_crowd_add_agent(c, east, &p, &ids[2 * k]), WF_OK);
        assert_int_equal(wf_crowd_add_agent(c, north, &p, &ids[2 * k + 1]), WF_OK);
    }
    for (uint32_t k = 0; k < 32; ++k) {
        assert_int_equal(wf_crowd_request_move(c, ids[k], targets[k], &callbacks, &n), WF_OK);
    }
    int arrived = 0, stopped_short = 0;
    for (int f = 0; f < 30 * 40; ++f) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        for (uint32_t k = 0; k < 32; ++k) {
            uint32_t kinds = events_of(c, ids[k]);
            float d = crowd_test_dist2d(crowd_test_state(c, ids[k]).position, targets[k]);
            if (kinds & (1u << WF_CROWD_EVENT_ARRIVED)) {
                assert_true(d <= p.radius * ARRIVAL_RADII + 1e-4f);
                arrived++;
            }
            if (kinds & (1u << WF_CROWD_EVENT_STOPPED_SHORT)) {
                assert_true(d <= p.radius * 2.0f + 1e-4f);
                stopped_short++;
            }
        }
    }
    int at_target = 0;
    for (uint32_t k = 0; k < 32; ++k) {
        // Arrived agents hold their spots: nudged by the others, never far.
        at_target +=
            crowd_test_dist2d(crowd_test_state(c, ids[k]).position, targets[k]) <= p.radius * 1.5f;
    }
    printf("crossing: %d arrived at their targets, %d stopped short, %d near them at the end\n",
           arrived, stopped_short, at_target);
    assert_int_equal(arrived + stopped_short, 32);
    // Most arrive within the arrival radius: at least three in four. How
    // this one layout splits between arrived and stopped short tosses with
    // every crowd change (29 + 3 before stuck_crowding_cost, then 27 + 5,
    // 26 + 6, 25 + 7 since press21 / press22 / nav21) while the crossing
    // scene over 100 paired runs (seeds 301-400) kept 25-27 stopped-short
    // events and 99.8-99.9 % arrivals a run of 100 agents through all of
    // them (docs/benchmarks.md, topo14, "Main after the sixteenth session's
    // merges", "Main after the twenty-first session's merges"): the scene is
    // the measure; this bound only catches early arrival coming back (22 of
    // 100 in the crossing scene before issue 14).
    assert_true(arrived >= 24);
    assert_true(at_target >= 30);
    assert_int_equal(n.done, 32);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

static void test_taken_target_stops_short(void** state) {
    (void)state;
    // B stands on T and does not yield (a higher priority): A gets as near
    // as it can and, after the stuck time, reports that it stopped short.
    wf_mesh* mesh = test_mesh_grid(2, 2, 10, 1.0f, NULL, NULL, NULL);
    wf_crowd* c = make_crowd(mesh, 2);
    wf_agent_params p = crowd_test_params();
    wf_agent_params heavy = p;
    heavy.priority = 200;
    wf_agent_id a, b;
    wf_vec3 target = wf_v3(10.5f, 0, 10.5f);
    assert_int_equal(wf_crowd_add_agent(c, target, &heavy, &b), WF_OK);
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(3.0f, 0, 10.5f), &p, &a), WF_OK);
    counters n = {0};
    assert_int_equal(wf_crowd_request_move(c, a, target, &callbacks, &n), WF_OK);
    uint32_t kind = 99;
    int frame = run_to_arrival(c, a, target, 30 * 20, &kind);
    assert_true(frame < 30 * 20);
    assert_int_equal(kind, WF_CROWD_EVENT_STOPPED_SHORT);
    wf_agent_state s = crowd_test_state(c, a);
    assert_true(crowd_test_dist2d(s.position, target) > p.radius * ARRIVAL_RADII);
    // Not at once: it stood still for the stuck time (2 s) first.
    assert_true((float)frame * DT > 2.0f + 7.5f / p.max_speed - 1.0f);
    assert_int_equal(n.done, 1);
    assert_int_equal(s.target_state, WF_TARGET_ARRIVED);
    // B's spot frees up: A takes its target after all, without a new done.
    assert_int_equal(wf_crowd_teleport_agent(c, b, wf_v3(16.5f, 0, 16.5f)), WF_OK);
    for (int f = 0; f < 30 * 5; ++f) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        assert_int_equal(events_of(c, a), 0u);
    }
    s = crowd_test_state(c, a);
    assert_true(crowd_test_dist2d(s.position, target) <= p.radius * ARRIVAL_RADII + 1e-4f);
    assert_int_equal(n.done, 1);
    assert_int_equal(s.target_state, WF_TARGET_ARRIVED);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

static void test_pushed_arrived_agent_walks_back(void** state) {
    (void)state;
    // A arrives at T (its request ends). B, which does not yield, walks
    // straight through T: A makes way, then walks back, silently.
    wf_mesh* mesh = test_mesh_grid(2, 2, 10, 1.0f, NULL, NULL, NULL);
    wf_crowd* c = make_crowd(mesh, 4);
    wf_agent_params p = crowd_test_params();
    wf_agent_params heavy = p;
    heavy.priority = 200;
    wf_agent_id a, b;
    wf_vec3 target = wf_v3(10.5f, 0, 10.5f);
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(10.5f, 0, 6.5f), &p, &a), WF_OK);
    // B and two more abreast: a 2.5 m wide line A cannot just lean away from.
    wf_agent_id others[2];
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(2.5f, 0, 10.5f), &heavy, &b), WF_OK);
    for (int k = 0; k < 2; ++k) {
        float z = 10.5f + (k == 0 ? -0.85f : 0.85f);
        assert_int_equal(wf_crowd_add_agent(c, wf_v3(2.5f, 0, z), &heavy, &others[k]), WF_OK);
    }
    counters n = {0};
    assert_int_equal(wf_crowd_request_move(c, a, target, &callbacks, &n), WF_OK);
    uint32_t kind = 99;
    assert_true(run_to_arrival(c, a, target, 30 * 10, &kind) < 30 * 10);
    assert_int_equal(kind, WF_CROWD_EVENT_ARRIVED);
    assert_int_equal(wf_crowd_request_move(c, b, wf_v3(18.5f, 0, 10.5f), NULL, NULL), WF_OK);
    for (int k = 0; k < 2; ++k) {
        float z = 10.5f + (k == 0 ? -0.85f : 0.85f);
        wf_vec3 to = wf_v3(18.5f, 0, z);
        assert_int_equal(wf_crowd_request_move(c, others[k], to, NULL, NULL), WF_OK);
    }
    float pushed = 0.0f;
    for (int f = 0; f < 30 * 15; ++f) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        assert_int_equal(events_of(c, a), 0u); // no arrival again, no replan event
        float d = crowd_test_dist2d(crowd_test_state(c, a).position, target);
        pushed = d > pushed ? d : pushed;
    }
    wf_agent_state s = crowd_test_state(c, a);
    assert_true(pushed > p.radius * 1.5f); // it did make way
    assert_true(crowd_test_dist2d(s.position, target) <= p.radius * ARRIVAL_RADII + 1e-4f);
    assert_true(crowd_test_dist2d(crowd_test_state(c, b).position, wf_v3(18.5f, 0, 10.5f)) < 1.0f);
    assert_int_equal(s.target_state, WF_TARGET_ARRIVED);
    assert_int_equal(n.done, 1);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

static void test_arrived_agent_put_elsewhere_stays(void** state) {
    (void)state;
    // The game moves an arrived agent: that is its new spot.
    wf_mesh* mesh = test_mesh_grid(2, 2, 10, 1.0f, NULL, NULL, NULL);
    wf_crowd* c = make_crowd(mesh, 1);
    wf_agent_params p = crowd_test_params();
    wf_agent_id a;
    wf_vec3 target = wf_v3(10.5f, 0, 10.5f);
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(6.5f, 0, 10.5f), &p, &a), WF_OK);
    counters n = {0};
    assert_int_equal(wf_crowd_request_move(c, a, target, &callbacks, &n), WF_OK);
    uint32_t kind = 99;
    assert_true(run_to_arrival(c, a, target, 30 * 10, &kind) < 30 * 10);
    wf_vec3 elsewhere = wf_v3(4.5f, 0, 15.5f);
    assert_int_equal(wf_crowd_teleport_agent(c, a, elsewhere), WF_OK);
    for (int f = 0; f < 30 * 5; ++f) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
    }
    wf_agent_state s = crowd_test_state(c, a);
    assert_true(crowd_test_dist2d(s.position, elsewhere) < 0.01f);
    assert_int_equal(s.target_state, WF_TARGET_ARRIVED);
    // Cancelled, it holds nothing: pushed away, it stays where it ends up.
    assert_int_equal(wf_crowd_cancel_move(c, a), WF_OK);
    assert_int_equal(crowd_test_state(c, a).target_state, WF_TARGET_NONE);
    assert_int_equal(n.done, 1);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crossing_groups_arrive_only_at_their_targets),
        cmocka_unit_test(test_taken_target_stops_short),
        cmocka_unit_test(test_pushed_arrived_agent_walks_back),
        cmocka_unit_test(test_arrived_agent_put_elsewhere_stays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
