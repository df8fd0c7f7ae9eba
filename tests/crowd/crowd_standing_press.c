// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// A walker already in a contact deeper than WF_CROWD_STANDING_PRESS with a
// neighbour that stands (asks for no speed: it will not give way) keeps no
// velocity towards it (issue 14; nav_test500's deepest presses after the
// first 2 s, 0.147 m, were holders walking back into standing holders:
// docs/benchmarks.md, press26 and clamp27). Before, only contacts deeper
// than WF_CROWD_DEEP_CONTACT took back velocity, and only as far as their
// push reached, so a walker kept walking into a standing body each update.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "crowd_test_util.h"

/// On open floor (2 x 2 tiles of 1 m cells), the scenarios' agents
/// (0.6 m) in a row along x at z = 10, `gap` apart: agent 0 stands (asks
/// for no speed), the next `walkers` walk west into it at `speed`; avoidance
/// and separation off (nothing but the collision passes keeps them apart).
/// Runs `frames` updates; returns the velocity of agent 1 towards agent 0
/// after the last (m/s) and, in out_worst, the worst overlap seen.
static float press_standing(uint32_t walkers, float gap, float speed, int frames,
                            float* out_worst) {
    wf_mesh* mesh = test_mesh_grid(2, 2, 10, 1.0f, NULL, NULL, NULL);
    assert_non_null(mesh);
    wf_crowd_desc d = crowd_test_desc(mesh, 8);
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_scene_params();
    p.update_flags = 0;
    wf_agent_id ids[8];
    uint32_t n = 1 + walkers;
    assert_true(n <= 8);
    for (uint32_t k = 0; k < n; ++k) {
        assert_int_equal(wf_crowd_add_agent(c, wf_v3(4.0f + gap * (float)k, 0, 10.0f), &p, &ids[k]),
                         WF_OK);
    }
    float worst = 0.0f;
    for (int f = 0; f < frames; ++f) {
        for (uint32_t k = 0; k < n; ++k) {
            wf_vec3 v = wf_v3(k == 0 ? 0.0f : -speed, 0, 0);
            assert_int_equal(wf_crowd_request_velocity(c, ids[k], v), WF_OK);
        }
        assert_int_equal(wf_crowd_update(c, 1.0f / 30.0f, NULL), WF_OK);
        float now = crowd_test_worst_overlap(c, ids, n, p.radius);
        worst = now > worst ? now : worst;
    }
    float into = -crowd_test_state(c, ids[1]).velocity.x;
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
    *out_worst = worst;
    return into;
}

/// A walker starting 0.09 m deep in a standing one: after its first update
/// (it reached 0.27 m/s towards it, 0.099 m deep) it keeps no speed into it
/// (before: 0.267 m/s; the take-back acted only past 0.1 m).
static void test_walker_in_deep_contact_stops_walking_in(void** state) {
    (void)state;
    float worst;
    float into = press_standing(1, 1.11f, 1.0f, 1, &worst);
    printf("walker 0.09 m deep in a standing one: %.3f m/s into it\n", into);
    assert_true(into < 0.05f);
}

/// A guard: rows of two or four walkers pressing a standing one stay
/// shallow (at most 0.005 m, before and after).
static void test_rows_into_standing_stay_shallow(void** state) {
    (void)state;
    const float speeds[] = {0.6f, 1.5f};
    for (uint32_t s = 0; s < 2; ++s) {
        for (uint32_t walkers = 2; walkers <= 4; walkers += 2) {
            float worst;
            (void)press_standing(walkers, 1.2f, speeds[s], 60, &worst);
            printf("%u walkers at %.1f m/s into a standing one: worst overlap %.3f m\n", walkers,
                   speeds[s], worst);
            assert_true(worst < 0.1f);
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walker_in_deep_contact_stops_walking_in),
        cmocka_unit_test(test_rows_into_standing_stay_shallow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
