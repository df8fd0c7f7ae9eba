// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// A late agent whose spot lies inside a block of agents already holding
// theirs (as a formation ends in the crossing scene, where the first to
// arrive stand between the rest and their spots). Stuck at the block's
// edge, it squeezes between the holders, who give way, and reaches its
// spot; before, it ended 0.45 m off it, never arrived (in the crossing
// scene such agents stood at the block's edge for good).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "crowd_test_util.h"

#define DT (1.0f / 30.0f)
#define SIDE 5u
#define HOLDERS (SIDE * SIDE - 1u)
/// Spots 1.25 m apart for agents 0.8 m wide (the crossing scene: 1.5 m
/// for 1.2 m).
#define SPACING 1.25f
#define CORNER 13.0f

static wf_vec3 spot_at(uint32_t row, uint32_t col) {
    return wf_v3(CORNER + SPACING * (float)col, 0, CORNER + SPACING * (float)row);
}

static void test_late_agent_reaches_spot_inside_held_block(void** state) {
    (void)state;
    wf_mesh* mesh = crowd_test_open_mesh();
    assert_non_null(mesh);
    wf_crowd_desc d = crowd_test_desc(mesh, HOLDERS + 1u);
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    // The free spot: the block's middle row, one in from the far side.
    uint32_t free_row = SIDE / 2u, free_col = SIDE - 2u;
    wf_agent_id holder[HOLDERS];
    wf_vec3 holder_spot[HOLDERS];
    uint32_t n = 0;
    for (uint32_t r = 0; r < SIDE; ++r) {
        for (uint32_t k = 0; k < SIDE; ++k) {
            if (r == free_row && k == free_col) {
                continue;
            }
            holder_spot[n] = spot_at(r, k);
            assert_int_equal(wf_crowd_add_agent(c, holder_spot[n], &p, &holder[n]), WF_OK);
            assert_int_equal(wf_crowd_request_move(c, holder[n], holder_spot[n], NULL, NULL),
                             WF_OK);
            n++;
        }
    }
    for (int f = 0; f < 30 * 2; ++f) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
    }
    for (uint32_t k = 0; k < HOLDERS; ++k) {
        assert_int_equal(crowd_test_state(c, holder[k]).target_state, WF_TARGET_ARRIVED);
    }
    // The late one comes from the near side, 4 m out, level with its spot.
    wf_vec3 spot = spot_at(free_row, free_col);
    wf_vec3 start = wf_v3(CORNER - 4.0f, 0, spot.z);
    wf_agent_id late;
    assert_int_equal(wf_crowd_add_agent(c, start, &p, &late), WF_OK);
    assert_int_equal(wf_crowd_request_move(c, late, spot, NULL, NULL), WF_OK);
    float worst_overlap = 0.0f;
    for (int f = 0; f < 30 * 30; ++f) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        wf_vec3 at = crowd_test_state(c, late).position;
        for (uint32_t k = 0; k < HOLDERS; ++k) {
            float gap = crowd_test_dist2d(at, crowd_test_state(c, holder[k]).position);
            float overlap = 2.0f * p.radius - gap;
            worst_overlap = overlap > worst_overlap ? overlap : worst_overlap;
        }
    }
    wf_agent_state s = crowd_test_state(c, late);
    float off = crowd_test_dist2d(s.position, spot);
    uint32_t holders_home = 0;
    for (uint32_t k = 0; k < HOLDERS; ++k) {
        holders_home +=
            crowd_test_dist2d(crowd_test_state(c, holder[k]).position, holder_spot[k]) <= p.radius;
    }
    printf("late agent %.2f m off its spot (state %d), worst overlap with holders %.3f m, "
           "holders within a radius of their spots %u of %u\n",
           (double)off, (int)s.target_state, (double)worst_overlap, holders_home, HOLDERS);
    assert_int_equal(s.target_state, WF_TARGET_ARRIVED);
    assert_true(off <= 0.6f);
    // Squeezing through, bodies give but do not pass through each other.
    assert_true(worst_overlap <= 0.3f);
    // The block settles back: the holders stand on (or by) their spots.
    assert_true(holders_home * 10u >= HOLDERS * 9u);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_late_agent_reaches_spot_inside_held_block),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
