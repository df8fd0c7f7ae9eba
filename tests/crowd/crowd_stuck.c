// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Being stuck is not getting nearer: an agent shoved back and forth in a
// jam moves plenty but gets nowhere, and must be replanned and then
// reported blocked as one that stands still is; an agent walking freely
// (round corners too) never is.
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
    return true;
}

static const wf_move_callbacks callbacks = {NULL, on_blocked, NULL};

static bool has_event(const wf_crowd* c, wf_agent_id id, wf_crowd_event_kind kind) {
    uint32_t n;
    const wf_crowd_event* e = wf_crowd_events(c, &n);
    for (uint32_t k = 0; k < n; ++k) {
        if (e[k].agent.bits == id.bits && e[k].kind == kind) {
            return true;
        }
    }
    return false;
}

static void test_shoved_back_and_forth_is_stuck(void** state) {
    (void)state;
    wf_mesh* mesh = crowd_test_single_file_corridor();
    assert_non_null(mesh);
    wf_crowd_desc d = crowd_test_desc(mesh, 4);
    d.stuck_time = 1.0f;
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    p.radius = 0.6f;
    // The shaker: a heavy agent steered by velocity that paces 3 m back
    // and forth in the corridor's middle. It shoves the mover back, then
    // the mover follows it: the mover keeps moving, but never gets past it.
    wf_agent_params heavy = p;
    heavy.priority = 200;
    wf_agent_id shaker, mover;
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(10.5f, 0, 10.5f), &heavy, &shaker), WF_OK);
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(2.5f, 0, 10.5f), &p, &mover), WF_OK);
    assert_int_equal(wf_crowd_request_move(c, mover, wf_v3(18.5f, 0, 10.5f), &callbacks, NULL),
                     WF_OK);
    float moved = 0.0f, first_blocked = -1.0f;
    bool replanned = false;
    wf_vec3 last = crowd_test_state(c, mover).position;
    for (int k = 0; k < 30 * 20 && first_blocked < 0.0f; ++k) {
        float t = (float)k * DT;
        // 1.5 s back (towards the mover), 1.5 s forth, from the start.
        float v = ((int)(t / 1.5f)) % 2 == 0 ? -2.0f : 2.0f;
        assert_int_equal(wf_crowd_request_velocity(c, shaker, wf_v3(v, 0, 0)), WF_OK);
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        wf_vec3 now = crowd_test_state(c, mover).position;
        moved += t >= 3.0f ? crowd_test_dist2d(now, last) : 0.0f;
        last = now;
        replanned |= k > 2 && has_event(c, mover, WF_CROWD_EVENT_REPLANNED);
        if (has_event(c, mover, WF_CROWD_EVENT_BLOCKED)) {
            first_blocked = t;
        }
    }
    // It meets the shaker at about 3 s; blocked two stuck times after its
    // last real progress, though it moves back and forth meanwhile (the old
    // rule, half a radius from where it stood, kept it "making progress"
    // for as long as it was shoved).
    assert_true(first_blocked > 4.0f);
    assert_true(first_blocked < 4.0f + 6.0f * d.stuck_time);
    assert_true(moved > 1.0f);
    assert_true(replanned); // the first stuck window: a search again
    assert_true(crowd_test_state(c, mover).position.x < 9.5f);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

static void test_walking_round_corners_is_never_stuck(void** state) {
    (void)state;
    // A U: along z = 2 to x = 17, up x = 17 to z = 17, back along z = 17.
    static uint8_t blocked[20 * 20];
    for (uint32_t z = 0; z < 20; ++z) {
        for (uint32_t x = 0; x < 20; ++x) {
            bool open = (z == 2 && x >= 2 && x <= 17) || (x == 17 && z >= 2 && z <= 17) ||
                        (z == 17 && x >= 2 && x <= 17);
            blocked[z * 20 + x] = !open;
        }
    }
    wf_mesh* mesh = test_mesh_grid(2, 2, 10, 1.0f, blocked, NULL, NULL);
    assert_non_null(mesh);
    blocked_calls = 0;
    wf_crowd_desc d = crowd_test_desc(mesh, 2);
    d.stuck_time = 0.5f;
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    wf_agent_id a;
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(2.5f, 0, 2.5f), &p, &a), WF_OK);
    assert_int_equal(wf_crowd_request_move(c, a, wf_v3(2.5f, 0, 17.5f), &callbacks, NULL), WF_OK);
    bool replanned = false, arrived = false;
    for (int k = 0; k < 30 * 40 && !arrived; ++k) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        replanned |= k > 2 && has_event(c, a, WF_CROWD_EVENT_REPLANNED);
        // (At the far end it may stop a little short of the wall.)
        arrived = has_event(c, a, WF_CROWD_EVENT_ARRIVED) ||
                  has_event(c, a, WF_CROWD_EVENT_STOPPED_SHORT);
    }
    assert_true(arrived);
    assert_false(replanned);
    assert_int_equal(blocked_calls, 0);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shoved_back_and_forth_is_stuck),
        cmocka_unit_test(test_walking_round_corners_is_never_stuck),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
