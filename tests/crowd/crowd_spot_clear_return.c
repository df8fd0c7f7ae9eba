// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// A holder pushed off its spot walks back briskly while no body covers the
// spot (crowd_motion.c, returns_briskly): walkers file across a holder's
// spot, from either side, on its line or a little beside it, one or four
// of them, and the seconds the holder stands further than its radius (the
// goal's) off its spot over the next 12 s are summed. Before, it slowed
// down over two radii as if arriving from afar, crept back, and was still
// off when the next walker came (nav_test500: holders pushed off in the
// last seconds ended the run off; docs/benchmarks.md, hold22).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "crowd_test_util.h"

/// A holder on (15, 15); `walkers` walkers 1.6 m apart cross its spot
/// northwards (north < 0) or southwards, `lateral` m beside it. Returns
/// the holder's seconds further than its radius off its spot over the 12 s
/// after they start.
static float seconds_off(int north, float lateral, uint32_t walkers) {
    wf_mesh* mesh = crowd_test_open_mesh();
    assert_non_null(mesh);
    wf_crowd_desc d = crowd_test_desc(mesh, 8);
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_scene_params();
    wf_vec3 spot = wf_v3(15.0f, 0, 15.0f);
    wf_agent_id h;
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(11.0f, 0, 15.0f), &p, &h), WF_OK);
    assert_int_equal(wf_crowd_request_move(c, h, spot, NULL, NULL), WF_OK);
    crowd_test_step(c, 4.0f);
    assert_int_equal(crowd_test_state(c, h).target_state, WF_TARGET_ARRIVED);
    float dir = north < 0 ? 1.0f : -1.0f;
    for (uint32_t k = 0; k < walkers; ++k) {
        wf_vec3 start = wf_v3(15.0f + lateral, 0, 15.0f - dir * (4.0f + 1.6f * (float)k));
        wf_vec3 goal = wf_v3(15.0f + lateral, 0, 15.0f + dir * 11.0f);
        wf_agent_id w;
        assert_int_equal(wf_crowd_add_agent(c, start, &p, &w), WF_OK);
        assert_int_equal(wf_crowd_request_move(c, w, goal, NULL, NULL), WF_OK);
    }
    float off = 0.0f;
    for (int f = 0; f < 12 * 30; ++f) {
        assert_int_equal(wf_crowd_update(c, 1.0f / 30.0f, NULL), WF_OK);
        if (crowd_test_dist2d(crowd_test_state(c, h).position, spot) > p.radius) {
            off += 1.0f / 30.0f;
        }
    }
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
    return off;
}

static void test_back_on_a_clear_spot_briskly(void** state) {
    (void)state;
    const float laterals[] = {0.0f, 0.2f, 0.4f, -0.3f};
    float total = 0.0f;
    for (int north = -1; north <= 1; north += 2) {
        for (size_t l = 0; l < sizeof laterals / sizeof laterals[0]; ++l) {
            for (uint32_t n = 1; n <= 4; n += 3) {
                float s = seconds_off(north, laterals[l], n);
                print_message("%s, %+.1f m aside, %u walkers: %.2f s off\n",
                              north < 0 ? "northwards" : "southwards", (double)laterals[l], n,
                              (double)s);
                total += s;
            }
        }
    }
    print_message("%.2f s off in all\n", (double)total);
    // Before: 26.1 s in all (the holder slowing over two radii); 19.3 s
    // with the brisk return.
    assert_true(total < 22.0f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_back_on_a_clear_spot_briskly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
