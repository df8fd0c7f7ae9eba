// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// A holder that stepped aside for a walker walks back as soon as that
// walker has passed it (is going away from it), instead of still keeping
// clear of it (crowd_motion.c, passed_by): walkers file past a holder's
// spot, from either side, on its line or up to 0.8 m beside it, one or
// four of them, and the seconds the holder stands further than its radius
// (the goal's 0.6 m) off its spot over the next 12 s are summed; and once
// back on it after every walker passed, it does not run over it.
// nav_test500: holders stepping aside for passers in the last seconds
// ended the run off their spots (docs/benchmarks.md, hold24).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "crowd_test_util.h"

/// Walkers slowed by a crowd: the scenes' passers walk at 0.5-1.5 m/s.
#define WALKER_SPEED 1.0f
#define SECONDS 16

/// A holder on (15, 15); `walkers` walkers 1.6 m apart pass its spot
/// northwards (north < 0) or southwards, `lateral` m beside it. Returns the
/// holder's seconds further than its radius off its spot over the 12 s
/// after they start; out_overshoot: how far past its spot it went once
/// back on it (within 0.15 m) after every walker passed.
static float seconds_off(int north, float lateral, uint32_t walkers, float speed,
                         float* out_overshoot, float* out_overlap) {
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
    wf_agent_id ws[4];
    assert_true(walkers <= 4);
    for (uint32_t k = 0; k < walkers; ++k) {
        wf_vec3 start = wf_v3(15.0f + lateral, 0, 15.0f - dir * (4.0f + 1.6f * (float)k));
        wf_vec3 goal = wf_v3(15.0f + lateral, 0, 15.0f + dir * 11.0f);
        wf_agent_id w;
        wf_agent_params q = p;
        q.max_speed = speed;
        assert_int_equal(wf_crowd_add_agent(c, start, &q, &w), WF_OK);
        assert_int_equal(wf_crowd_request_move(c, w, goal, NULL, NULL), WF_OK);
        ws[k] = w;
    }
    float off = 0.0f, overshoot = 0.0f, overlap = 0.0f;
    bool back = false;
    for (int f = 0; f < SECONDS * 30; ++f) {
        assert_int_equal(wf_crowd_update(c, 1.0f / 30.0f, NULL), WF_OK);
        float from = crowd_test_dist2d(crowd_test_state(c, h).position, spot);
        if (from > p.radius) {
            off += 1.0f / 30.0f;
        }
        bool passed = true;
        for (uint32_t k = 0; k < walkers; ++k) {
            wf_vec3 at = crowd_test_state(c, ws[k]).position;
            passed &= (at.z - spot.z) * dir > 2.0f;
            float into = 2.0f * p.radius - crowd_test_dist2d(at, crowd_test_state(c, h).position);
            overlap = into > overlap ? into : overlap;
        }
        if (!back) {
            back = passed && from < 0.15f;
        } else {
            overshoot = from > overshoot ? from : overshoot;
        }
    }
    *out_overshoot = overshoot;
    *out_overlap = overlap;
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
    return off;
}

static void test_back_behind_a_passed_walker(void** state) {
    (void)state;
    const float laterals[] = {0.0f, 0.3f, 0.6f, -0.8f};
    float total = 0.0f, worst_overshoot = 0.0f, worst_overlap = 0.0f;
    for (int north = -1; north <= 1; north += 2) {
        for (size_t l = 0; l < sizeof laterals / sizeof laterals[0]; ++l) {
            for (uint32_t n = 1; n <= 4; n += 3) {
                float over, overlap;
                float s = seconds_off(north, laterals[l], n, WALKER_SPEED, &over, &overlap);
                print_message("%s, %+.1f m aside, %u walkers: %.2f s off, overshoot %.3f m, "
                              "overlap %.3f m\n",
                              north < 0 ? "northwards" : "southwards", (double)laterals[l], n,
                              (double)s, (double)over, (double)overlap);
                total += s;
                worst_overshoot = over > worst_overshoot ? over : worst_overshoot;
                worst_overlap = overlap > worst_overlap ? overlap : worst_overlap;
            }
        }
    }
    print_message("%.2f s off in all, worst overshoot %.3f m, worst overlap %.3f m\n",
                  (double)total, (double)worst_overshoot, (double)worst_overlap);
    // Back on its spot after every walker passed, it stops there.
    assert_true(worst_overshoot < 0.25f);
    // Walking back behind a walker, it does not run into its back.
    assert_true(worst_overlap < 0.1f);
    // Before: 37.1 s in all (it kept clear of each walker going away as
    // of one coming on, and walked back only once the walker was far);
    // 23.6 s after.
    assert_true(total < 30.0f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_back_behind_a_passed_walker),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
