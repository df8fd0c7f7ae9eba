// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Two agents sent to targets closer together than their bodies are wide
// share the room: each holds a point moved off its target, away from the
// other's, so both end within a radius of their own. Before, the first
// there kept its target and the other stood off by the overlap (nav_test500:
// most arrived agents off their targets at the end had a target within two
// radii of another holder's; docs/benchmarks.md, hold15).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "crowd_test_util.h"

/// The first agent walks to `first` and stands there; then the second
/// comes from beyond `second` (further along the line from `first`, so it
/// walks up to the first one's body).
static wf_crowd* arrive_in_turn(wf_mesh* mesh, wf_vec3 first, wf_vec3 second, int priority,
                                wf_agent_id* a, wf_agent_id* b) {
    wf_crowd_desc d = crowd_test_desc(mesh, 4);
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    wf_agent_params pa = p;
    pa.priority = (uint8_t)priority;
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(first.x - 3.0f, 0, first.z), &pa, a), WF_OK);
    assert_int_equal(wf_crowd_request_move(c, *a, first, NULL, NULL), WF_OK);
    crowd_test_step(c, 4.0f);
    assert_int_equal(crowd_test_state(c, *a).target_state, WF_TARGET_ARRIVED);
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(second.x + 4.0f, 0, second.z), &p, b), WF_OK);
    assert_int_equal(wf_crowd_request_move(c, *b, second, NULL, NULL), WF_OK);
    crowd_test_step(c, 15.0f);
    return c;
}

static void test_pair_shares_the_room(void** state) {
    (void)state;
    wf_mesh* mesh = crowd_test_open_mesh();
    assert_non_null(mesh);
    float r = crowd_test_params().radius;
    // Bodies 0.8 m wide, targets 0.25-0.55 m apart. Standing where the
    // other left room, each ended 0.95-0.99 radii off (the edge of the radius
    // it walks back from, which is the goal's radius too): the next push
    // took it over. Sharing, each stands within half of what the two lack,
    // plus its dead zone (a quarter radius).
    const float gaps[] = {0.25f, 0.4f, 0.55f};
    for (size_t g = 0; g < sizeof gaps / sizeof gaps[0]; ++g) {
        wf_vec3 first = wf_v3(15.0f, 0, 15.0f), second = wf_v3(15.0f + gaps[g], 0, 15.0f);
        wf_agent_id a, b;
        wf_crowd* c = arrive_in_turn(mesh, first, second, 0, &a, &b);
        wf_agent_state sa = crowd_test_state(c, a), sb = crowd_test_state(c, b);
        float off_a = crowd_test_dist2d(sa.position, first);
        float off_b = crowd_test_dist2d(sb.position, second);
        print_message("gap %.2f: first %.3f m off, second %.3f m off, %.3f m apart\n", gaps[g],
                      (double)off_a, (double)off_b,
                      (double)crowd_test_dist2d(sa.position, sb.position));
        assert_int_equal(sa.target_state, WF_TARGET_ARRIVED);
        assert_int_equal(sb.target_state, WF_TARGET_ARRIVED);
        float share = (2.0f * r - gaps[g]) * 0.5f + r * 0.25f + 0.02f;
        assert_true(off_a < share);
        assert_true(off_b < share);
        // Side by side, not through each other, and at rest.
        assert_true(crowd_test_dist2d(sa.position, sb.position) > 2.0f * r - 0.05f);
        assert_true(wf_v2_length(sa.velocity) < 0.05f && wf_v2_length(sb.velocity) < 0.05f);
        wf_crowd_destroy(c);
    }
    wf_mesh_destroy(mesh);
}

/// The one of higher priority keeps its target; the other takes what room
/// is left beside it (as before sharing).
static void test_higher_priority_keeps_its_target(void** state) {
    (void)state;
    wf_mesh* mesh = crowd_test_open_mesh();
    assert_non_null(mesh);
    float r = crowd_test_params().radius;
    wf_vec3 first = wf_v3(15.0f, 0, 15.0f), second = wf_v3(15.4f, 0, 15.0f);
    wf_agent_id a, b;
    wf_crowd* c = arrive_in_turn(mesh, first, second, 1, &a, &b);
    wf_agent_state sa = crowd_test_state(c, a), sb = crowd_test_state(c, b);
    assert_true(crowd_test_dist2d(sa.position, first) < r * 0.3f);
    assert_true(crowd_test_dist2d(sa.position, sb.position) > 2.0f * r - 0.05f);
    assert_int_equal(sb.target_state, WF_TARGET_ARRIVED);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

/// Once the other leaves, the holder goes back onto its own target.
static void test_back_on_target_when_alone(void** state) {
    (void)state;
    wf_mesh* mesh = crowd_test_open_mesh();
    assert_non_null(mesh);
    float r = crowd_test_params().radius;
    wf_vec3 first = wf_v3(15.0f, 0, 15.0f), second = wf_v3(15.25f, 0, 15.0f);
    wf_agent_id a, b;
    wf_crowd* c = arrive_in_turn(mesh, first, second, 0, &a, &b);
    assert_int_equal(wf_crowd_request_move(c, b, wf_v3(25.0f, 0, 25.0f), NULL, NULL), WF_OK);
    crowd_test_step(c, 10.0f);
    wf_agent_state sa = crowd_test_state(c, a);
    assert_int_equal(sa.target_state, WF_TARGET_ARRIVED);
    assert_true(crowd_test_dist2d(sa.position, first) < r * 0.3f);
    // Its request is untouched: the target it reports is the one asked for.
    assert_true(crowd_test_dist2d(sa.target, first) < 1e-4f);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

/// An arrived agent the game puts near its target holds where it was put
/// (sharing moves only spots it moved itself).
static void test_teleported_holds_where_put(void** state) {
    (void)state;
    wf_mesh* mesh = crowd_test_open_mesh();
    assert_non_null(mesh);
    wf_crowd_desc d = crowd_test_desc(mesh, 2);
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    wf_vec3 target = wf_v3(15.0f, 0, 15.0f), put = wf_v3(15.3f, 0, 15.0f);
    wf_agent_id a;
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(12.0f, 0, 15.0f), &p, &a), WF_OK);
    assert_int_equal(wf_crowd_request_move(c, a, target, NULL, NULL), WF_OK);
    crowd_test_step(c, 4.0f);
    assert_int_equal(crowd_test_state(c, a).target_state, WF_TARGET_ARRIVED);
    assert_int_equal(wf_crowd_teleport_agent(c, a, put), WF_OK);
    crowd_test_step(c, 4.0f);
    wf_agent_state s = crowd_test_state(c, a);
    assert_int_equal(s.target_state, WF_TARGET_ARRIVED);
    assert_true(crowd_test_dist2d(s.position, put) < 0.05f);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pair_shares_the_room),
        cmocka_unit_test(test_higher_priority_keeps_its_target),
        cmocka_unit_test(test_back_on_target_when_alone),
        cmocka_unit_test(test_teleported_holds_where_put),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
