// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// A holder making way for walkers coming over its spot does not step
// further off it than WF_CROWD_HOLD_TETHER_RADII of its radius by its own
// velocity (crowd_motion.c, keep_near_spot): a row of holders 2.5 m apart
// that two rows of later agents walk straight through, each walker's line
// over a holder's spot. Summed over three spacings, holders stood 31.4
// agent-seconds more than 0.6 m off their spots stepping aside in full
// (a body's width), 25.0 kept near (docs/benchmarks.md, hold21).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "crowd_test_util.h"

#define DT (1.0f / 30.0f)
#define HOLDERS 5u
#define WALKERS 10u
#define AGENTS (HOLDERS + WALKERS)
#define HOLD_RADIUS 0.6f

/// Holders at z = 14, x = 10 .. 20 (spacing m apart from x = 10 on);
/// after a second, walkers in two rows from z = 4 / 2.5 to spots at z = 25
/// / 26.5, each on the line of a holder's spot. Returns the agent-seconds
/// holders stood more than HOLD_RADIUS off their spots over 30 s; every
/// agent must stand on its spot at the end.
static float seconds_off(float spacing) {
    wf_mesh* mesh = crowd_test_open_mesh();
    assert_non_null(mesh);
    wf_crowd_desc d = crowd_test_desc(mesh, AGENTS);
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_scene_params();
    wf_agent_id id[AGENTS];
    wf_vec3 spot[AGENTS];
    for (uint32_t k = 0; k < HOLDERS; ++k) {
        spot[k] = wf_v3(10.0f + spacing * (float)k, 0, 14.0f);
        assert_int_equal(wf_crowd_add_agent(c, spot[k], &p, &id[k]), WF_OK);
        assert_int_equal(wf_crowd_request_move(c, id[k], spot[k], NULL, NULL), WF_OK);
    }
    for (int f = 0; f < 30; ++f) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
    }
    for (uint32_t k = 0; k < WALKERS; ++k) {
        uint32_t col = k % HOLDERS, row = k / HOLDERS;
        uint32_t a = HOLDERS + k;
        float x = 10.0f + spacing * (float)col;
        wf_vec3 start = wf_v3(x, 0, 4.0f - 1.5f * (float)row);
        spot[a] = wf_v3(x, 0, 25.0f + 1.5f * (float)row);
        assert_int_equal(wf_crowd_add_agent(c, start, &p, &id[a]), WF_OK);
        assert_int_equal(wf_crowd_request_move(c, id[a], spot[a], NULL, NULL), WF_OK);
    }
    float off = 0.0f;
    for (int f = 0; f < 30 * 30; ++f) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        for (uint32_t k = 0; k < HOLDERS; ++k) {
            float away = crowd_test_dist2d(crowd_test_state(c, id[k]).position, spot[k]);
            off += away > HOLD_RADIUS ? DT : 0.0f;
        }
    }
    for (uint32_t k = 0; k < AGENTS; ++k) {
        wf_agent_state s = crowd_test_state(c, id[k]);
        assert_int_equal(s.target_state, WF_TARGET_ARRIVED);
        assert_true(crowd_test_dist2d(s.position, spot[k]) <= HOLD_RADIUS);
    }
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
    return off;
}

static void test_holders_stay_near_spots_walkers_cross(void** state) {
    (void)state;
    float total = 0.0f;
    const float spacings[] = {2.5f, 2.75f, 3.0f};
    for (uint32_t k = 0; k < 3u; ++k) {
        float off = seconds_off(spacings[k]);
        print_message("holders %.2f m apart: %.2f agent-seconds off\n", (double)spacings[k],
                      (double)off);
        total += off;
    }
    print_message("holders off their spots: %.2f agent-seconds\n", (double)total);
    assert_true(total < 26.0f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_holders_stay_near_spots_walkers_cross),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
