// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// An agent that stopped short of a taken target moves to the free spot
// nearest it once the one standing there shifts: it held where it stopped
// before, 0.8 m off with room 0.34 m from its target (circle128: stopped
// short agents standing 0.6-1.5 m off their targets at the end).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "crowd_test_util.h"

/// A holder on target and a late agent sent to the same target, stepped
/// 6 s: the holder does not give way (a higher priority), so the late one
/// stops short against it.
static wf_crowd* late_against_holder(wf_mesh* mesh, wf_vec3 target, wf_agent_id* holder,
                                     wf_agent_id* late) {
    wf_crowd_desc d = crowd_test_desc(mesh, 2);
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    wf_agent_params firm = p;
    firm.priority = 1;
    assert_int_equal(wf_crowd_add_agent(c, target, &firm, holder), WF_OK);
    assert_int_equal(wf_crowd_request_move(c, *holder, target, NULL, NULL), WF_OK);
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(12.0f, 0, 15.0f), &p, late), WF_OK);
    assert_int_equal(wf_crowd_request_move(c, *late, target, NULL, NULL), WF_OK);
    crowd_test_step(c, 6.0f);
    return c;
}

static void test_stopped_short_moves_to_nearest_free_spot(void** state) {
    (void)state;
    wf_mesh* mesh = crowd_test_open_mesh();
    assert_non_null(mesh);
    wf_vec3 target = wf_v3(15.0f, 0, 15.0f);
    wf_agent_id holder, late;
    wf_crowd* c = late_against_holder(mesh, target, &holder, &late);
    // The holder stands on the target: the late one stopped short against it.
    wf_agent_state s = crowd_test_state(c, late);
    assert_int_equal(s.target_state, WF_TARGET_ARRIVED);
    assert_true(crowd_test_dist2d(s.position, target) > 0.7f);

    // The holder is put half a metre aside (it holds that spot now): the
    // target is still covered, but 0.34 m from it there is room.
    wf_vec3 aside = wf_v3(15.5f, 0, 15.0f);
    assert_int_equal(wf_crowd_teleport_agent(c, holder, aside), WF_OK);
    crowd_test_step(c, 4.0f);
    s = crowd_test_state(c, late);
    assert_int_equal(s.target_state, WF_TARGET_ARRIVED);
    // The free spot 0.34 m off, and the arrival dead zone round it (0.1 m).
    assert_true(crowd_test_dist2d(s.position, target) < 0.45f);
    // It took the room beside the holder, not the holder's spot.
    wf_agent_state h = crowd_test_state(c, holder);
    assert_true(crowd_test_dist2d(h.position, aside) < 0.1f);
    assert_true(crowd_test_dist2d(h.position, s.position) >
                2.0f * crowd_test_params().radius - 0.05f);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

/// With no room near the target (the holder still on it), the late agent
/// holds where it stopped: it does not push in.
static void test_no_free_spot_holds_where_stopped(void** state) {
    (void)state;
    wf_mesh* mesh = crowd_test_open_mesh();
    assert_non_null(mesh);
    wf_vec3 target = wf_v3(15.0f, 0, 15.0f);
    wf_agent_id holder, late;
    wf_crowd* c = late_against_holder(mesh, target, &holder, &late);
    wf_vec3 stopped = crowd_test_state(c, late).position;
    crowd_test_step(c, 4.0f);
    wf_agent_state s = crowd_test_state(c, late);
    assert_int_equal(s.target_state, WF_TARGET_ARRIVED);
    assert_true(crowd_test_dist2d(s.position, stopped) < 0.05f);
    assert_true(crowd_test_dist2d(crowd_test_state(c, holder).position, target) < 0.1f);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stopped_short_moves_to_nearest_free_spot),
        cmocka_unit_test(test_no_free_spot_holds_where_stopped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
