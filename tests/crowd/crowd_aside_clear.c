// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// A holder stepping out of a walker's lane (step_aside_not_ahead) does not
// run into the back of another walker: the sideways part the turn adds is
// dropped where it closes on a walker going away from the holder within
// WF_CROWD_ASIDE_CLEAR_RADII of touching. In nav_test500 (flow 5, seed 308)
// a holder turned aside at 2.5 m/s ran into a walker crossing ahead of it,
// 0.167 m deep (docs/benchmarks.md, overlap18). Here: a holder with a slow
// walker 0.5 m off its side behind it, and a file of four walkers passing
// just beside the holder; before the rule the stepping holder came within
// 0.24 m of the slow walker, with it 0.40 m.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "crowd_test_util.h"

#define DT (1.0f / 30.0f)
#define WALKERS 4u
#define AGENTS (2u + WALKERS)
#ifndef SLOW_SPEED
#define SLOW_SPEED 0.2f
#endif

/// The closest the holder and the slow walker come (m between their bodies, negative:
/// overlapping) over 10 s of the file passing.
static float closest_holders(void) {
    wf_mesh* mesh = crowd_test_open_mesh();
    assert_non_null(mesh);
    wf_crowd_desc d = crowd_test_desc(mesh, AGENTS);
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_scene_params();
    wf_agent_id id[AGENTS];
    // The holder, and a slow walker 0.5 m clear of it, west and behind,
    // setting off west.
    const wf_vec3 spot[2] = {wf_v3(15.0f, 0, 15.0f), wf_v3(13.3f, 0, 13.8f)};
    assert_int_equal(wf_crowd_add_agent(c, spot[0], &p, &id[0]), WF_OK);
    assert_int_equal(wf_crowd_request_move(c, id[0], spot[0], NULL, NULL), WF_OK);
    wf_agent_params slow = p;
    slow.max_speed = SLOW_SPEED;
    assert_int_equal(wf_crowd_add_agent(c, spot[1], &slow, &id[1]), WF_OK);
    wf_vec3 west = wf_v3(spot[1].x - 10.0f, 0, spot[1].z);
    assert_int_equal(wf_crowd_request_move(c, id[1], west, NULL, NULL), WF_OK);
    for (int f = 0; f < 30; ++f) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
    }
    // A file walking north 0.3 m east of the holder, well past it.
    for (uint32_t k = 0; k < WALKERS; ++k) {
        float back = 1.3f * (float)k;
        wf_vec3 start = wf_v3(15.3f, 0, 6.0f - back), end = wf_v3(15.3f, 0, 28.0f - back);
        assert_int_equal(wf_crowd_add_agent(c, start, &p, &id[2 + k]), WF_OK);
        assert_int_equal(wf_crowd_request_move(c, id[2 + k], end, NULL, NULL), WF_OK);
    }
    float closest = 99.0f;
    for (int f = 0; f < 30 * 10; ++f) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        float gap = crowd_test_dist2d(crowd_test_state(c, id[0]).position,
                                      crowd_test_state(c, id[1]).position) -
                    2.0f * p.radius;
        closest = gap < closest ? gap : closest;
    }
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
    return closest;
}

static void test_stepping_aside_keeps_clear(void** state) {
    (void)state;
    float closest = closest_holders();
    print_message("closest the holder and the walker came: %.3f m\n", (double)closest);
    assert_true(closest > 0.35f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stepping_aside_keeps_clear),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
