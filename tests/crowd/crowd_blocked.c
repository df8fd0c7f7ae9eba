// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// A blockage by others is reported once: an agent held up for good gets
// one BLOCKED (one blocked callback), is retried while it lasts (its path
// walked again and searched again from where it stands every round) and,
// once the way clears, walks on and arrives without another BLOCKED. Before, every round of a jam ended in a new BLOCKED
// (nav_test500: about 1,160 BLOCKED events in a minute for 500 agents).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "crowd_test_util.h"

#define DT (1.0f / 30.0f)

static int blocked_calls;

static bool on_blocked(wf_agent_id agent, void* user) {
    (void)agent;
    (void)user;
    blocked_calls++;
    return true; // go on: walk what is valid, be searched again
}

static const wf_move_callbacks callbacks = {NULL, on_blocked, NULL};

static uint32_t count_events(const wf_crowd* c, wf_agent_id id, wf_crowd_event_kind kind) {
    uint32_t n, found = 0;
    const wf_crowd_event* e = wf_crowd_events(c, &n);
    for (uint32_t k = 0; k < n; ++k) {
        found += e[k].agent.bits == id.bits && e[k].kind == kind;
    }
    return found;
}

/// Steers a heavy agent back to x = at (however far it was pushed).
static void hold_at(wf_crowd* c, wf_agent_id id, float at) {
    float v = 2.0f * (at - crowd_test_state(c, id).position.x);
    v = v > 2.5f ? 2.5f : (v < -2.5f ? -2.5f : v);
    assert_int_equal(wf_crowd_request_velocity(c, id, wf_v3(v, 0, 0)), WF_OK);
}

static void test_a_blockage_is_reported_once(void** state) {
    (void)state;
    wf_mesh* mesh = crowd_test_single_file_corridor();
    assert_non_null(mesh);
    wf_crowd_desc d = crowd_test_desc(mesh, 4);
    d.stuck_time = 1.0f;
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    p.radius = 0.6f;
    // The shaker: a heavy agent steered by velocity, pacing back and forth
    // in the corridor's middle: the mover is shoved about (it moves, and
    // gets half a radius nearer now and then) but never gets past.
    wf_agent_params heavy = p;
    heavy.priority = 200;
    wf_agent_id shaker, mover;
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(10.5f, 0, 10.5f), &heavy, &shaker), WF_OK);
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(2.5f, 0, 10.5f), &p, &mover), WF_OK);
    assert_int_equal(wf_crowd_request_move(c, mover, wf_v3(18.5f, 0, 10.5f), &callbacks, NULL),
                     WF_OK);
    blocked_calls = 0;
    uint32_t blocked = 0, retries = 0;
    float first_blocked = -1.0f;
    for (int k = 0; k < 30 * 30; ++k) {
        float t = (float)k * DT;
        // It paces between x = 9 and 12, steered back there however far
        // the mover pushed it: the jam does not give.
        hold_at(c, shaker, ((int)(t / 1.5f)) % 2 == 0 ? 9.0f : 12.0f);
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        blocked += count_events(c, mover, WF_CROWD_EVENT_BLOCKED);
        if (blocked > 0 && first_blocked < 0.0f) {
            first_blocked = t;
        } else if (first_blocked >= 0.0f) {
            retries += count_events(c, mover, WF_CROWD_EVENT_REPLANNED);
        }
    }
    // Blocked once, within a few stuck times of meeting the shaker at 3 s.
    assert_int_equal(blocked, 1);
    assert_int_equal(blocked_calls, 1);
    assert_true(first_blocked > 3.0f && first_blocked < 10.0f);
    // Retried all along: a round (stuck replan, then blocked, then its
    // path walked again) takes three stuck times, about 8 rounds in the
    // 25 s that followed, each searching again once (its stuck replan);
    // before, the blocked retry searched too, about 16 in all.
    assert_true(retries >= 5 && retries <= 11);
    assert_true(crowd_test_state(c, mover).position.x < crowd_test_state(c, shaker).position.x);
    // The way clears: it walks on, is free again and arrives, with no
    // further BLOCKED.
    assert_int_equal(wf_crowd_remove_agent(c, shaker), WF_OK);
    bool arrived = false, valid_again = false;
    for (int k = 0; k < 30 * 15 && !arrived; ++k) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        blocked += count_events(c, mover, WF_CROWD_EVENT_BLOCKED);
        valid_again |= crowd_test_state(c, mover).target_state == WF_TARGET_VALID;
        arrived = count_events(c, mover, WF_CROWD_EVENT_ARRIVED) > 0;
    }
    assert_true(valid_again);
    assert_true(arrived);
    assert_int_equal(blocked, 1);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

static void test_a_new_blockage_after_walking_free_is_reported(void** state) {
    (void)state;
    wf_mesh* mesh = crowd_test_single_file_corridor();
    assert_non_null(mesh);
    wf_crowd_desc d = crowd_test_desc(mesh, 4);
    d.stuck_time = 1.0f;
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    p.radius = 0.6f;
    wf_agent_params heavy = p;
    heavy.priority = 200;
    // A heavy agent holds x = 6: the mover from x = 1.5 is blocked there.
    wf_agent_id first, second, mover;
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(6.5f, 0, 10.5f), &heavy, &first), WF_OK);
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(1.5f, 0, 10.5f), &p, &mover), WF_OK);
    assert_int_equal(wf_crowd_request_move(c, mover, wf_v3(18.5f, 0, 10.5f), &callbacks, NULL),
                     WF_OK);
    blocked_calls = 0;
    uint32_t blocked = 0;
    for (int k = 0; k < 30 * 10; ++k) {
        hold_at(c, first, 6.5f);
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        blocked += count_events(c, mover, WF_CROWD_EVENT_BLOCKED);
    }
    assert_int_equal(blocked, 1);
    // It steps aside; another holds x = 16.5, 10 m on: the mover walks
    // free (more than 8 radii) and is blocked anew, which is reported.
    assert_int_equal(wf_crowd_remove_agent(c, first), WF_OK);
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(16.5f, 0, 10.5f), &heavy, &second), WF_OK);
    for (int k = 0; k < 30 * 15; ++k) {
        hold_at(c, second, 16.5f);
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        blocked += count_events(c, mover, WF_CROWD_EVENT_BLOCKED);
    }
    assert_int_equal(blocked, 2);
    assert_int_equal(blocked_calls, 2);
    float x = crowd_test_state(c, mover).position.x;
    assert_true(x > 12.0f && x < 16.5f);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_blockage_is_reported_once),
        cmocka_unit_test(test_a_new_blockage_after_walking_free_is_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
