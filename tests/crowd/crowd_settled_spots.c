// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Three holders whose targets form a chain: two crowd each other (0.8 m
// apart for 1.2 m bodies, a shared pair) and the third's lies 1.0 m from
// one of them, near enough that bodies on both overlap, too far to share.
// The pair's spots moved apart as if the third were not there pushed one of
// them onto the third's target, and whoever came last stood off it by the
// overlap, pressed against a touching neighbour (nav_test500: 100 of the
// holders off at the end stood 0.6-0.8 m off so; docs/benchmarks.md, hold24,
// hold25). Placed together (shared_spot.c, knot_spot), all three stand
// within a radius of their own targets, whatever order they come in.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "crowd_test_util.h"

#define PI_F 3.14159265f

/// Targets A (0.8 m west of B), B at (15, 15) and C 1.0 m from B at
/// `angle` from the line A-B beyond B, sent in `order` (indices into
/// A, B, C) from 6 m out, 3 s apart; after 15 s more, the worst distance
/// of an agent from its own target (all arrived) and the fastest speed
/// (*speed: one still pressing against a neighbour).
static float chain_worst_off(wf_mesh* mesh, float angle, const uint32_t order[3], float* speed) {
    wf_crowd* c = crowd_test_create(mesh, 3, NULL);
    wf_agent_params p = crowd_test_scene_params();
    p.avoidance_preset = WF_AVOIDANCE_HIGH;
    wf_vec3 target[3] = {wf_v3(14.2f, 0, 15.0f), wf_v3(15.0f, 0, 15.0f),
                         wf_v3(15.0f + cosf(angle), 0, 15.0f + sinf(angle))};
    wf_agent_id id[3];
    for (uint32_t k = 0; k < 3; ++k) {
        uint32_t a = order[k];
        float from = 2.0f * PI_F * (float)a / 3.0f + 1.0f;
        wf_vec3 start = wf_v3(15.0f + 6.0f * cosf(from), 0, 15.0f + 6.0f * sinf(from));
        assert_int_equal(wf_crowd_add_agent(c, start, &p, &id[a]), WF_OK);
        assert_int_equal(wf_crowd_request_move(c, id[a], target[a], NULL, NULL), WF_OK);
        crowd_test_step(c, 3.0f);
    }
    crowd_test_step(c, 15.0f);
    float worst = 0.0f;
    *speed = 0.0f;
    for (uint32_t a = 0; a < 3; ++a) {
        wf_agent_state s = crowd_test_state(c, id[a]);
        float off = crowd_test_dist2d(s.position, target[a]);
        assert_int_equal(s.target_state, WF_TARGET_ARRIVED);
        worst = off > worst ? off : worst;
        *speed = fmaxf(*speed, wf_v2_length(s.velocity));
    }
    wf_crowd_destroy(c);
    return worst;
}

/// Every arrival order of the three, C on the line A-B or 45 / 90 degrees
/// off it: each of the 18 layouts ends with all three at rest (under 0.05
/// m/s) within the goal's radius (0.6 m, one radius) of their targets.
static void test_chain_of_three_settles(void** state) {
    (void)state;
    wf_mesh* mesh = crowd_test_open_mesh();
    assert_non_null(mesh);
    static const uint32_t orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                          {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    static const float angles[3] = {0.0f, PI_F * 0.25f, PI_F * 0.5f};
    float r = crowd_test_scene_params().radius;
    uint32_t off = 0;
    for (uint32_t a = 0; a < 3; ++a) {
        for (uint32_t o = 0; o < 6; ++o) {
            float speed = 0.0f;
            float worst = chain_worst_off(mesh, angles[a], orders[o], &speed);
            print_message("C at %.0f degrees, order %u%u%u: worst %.3f m off, fastest %.3f m/s\n",
                          (double)(angles[a] * 180.0f / PI_F), orders[o][0], orders[o][1],
                          orders[o][2], (double)worst, (double)speed);
            off += worst > r || speed >= 0.05f;
        }
    }
    assert_int_equal(off, 0);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chain_of_three_settles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
