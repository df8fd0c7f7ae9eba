// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// A late agent whose spot lies in a row of spots closer than the bodies are
// wide (circle128's ring: spots 0.98 m apart for 1.2 m bodies), its two
// neighbours already holding theirs. It stops short against them, with no
// free spot within a radius of its target (the nearest clear point lies
// 1.32 radii off); it squeezes in between them, pushing them aside within
// their own radius, and all three end within a radius of their spots.
// Before, it held where it stopped, more than a radius off, for good.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "crowd_test_util.h"

#define DT (1.0f / 30.0f)
/// Two holders' spots either side of the late one's, each 0.65 m from it,
/// for bodies 0.8 m wide (0.81 of the width, as the ring's 0.98 m for
/// 1.2 m): the nearest clear point lies 0.53 m off its target.
#define SPACING 0.65f
#define MID_X 15.0f
#define ROW_Z 15.0f
#define SIDE_HOLDERS 1u
#define HOLDERS (2u * SIDE_HOLDERS)

static wf_mesh* open_mesh(void) {
    static uint8_t blocked[30 * 30];
    return test_mesh_grid(3, 3, 10, 1.0f, blocked, NULL, NULL);
}

static void step(wf_crowd* c, float seconds) {
    for (int f = 0; f < (int)(seconds * 30.0f); ++f) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
    }
}

static void test_stopped_short_squeezes_into_tight_row(void** state) {
    (void)state;
    wf_mesh* mesh = open_mesh();
    assert_non_null(mesh);
    wf_crowd_desc d = crowd_test_desc(mesh, HOLDERS + 1u);
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    // The holders do not give way to it on its way (a higher priority), so
    // it stops short against them, as against ring neighbours boxed in by
    // theirs.
    wf_agent_params firm = p;
    firm.priority = 1;
    wf_agent_id holder[HOLDERS];
    wf_vec3 holder_spot[HOLDERS];
    for (uint32_t k = 0; k < HOLDERS; ++k) {
        float slot = (float)(k % SIDE_HOLDERS + 1u) * (k < SIDE_HOLDERS ? -SPACING : SPACING);
        holder_spot[k] = wf_v3(MID_X + slot, 0, ROW_Z);
        assert_int_equal(wf_crowd_add_agent(c, holder_spot[k], &firm, &holder[k]), WF_OK);
        assert_int_equal(wf_crowd_request_move(c, holder[k], holder_spot[k], NULL, NULL), WF_OK);
    }
    step(c, 6.0f);
    wf_vec3 spot = wf_v3(MID_X, 0, ROW_Z);
    wf_agent_id late;
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(MID_X, 0, ROW_Z + 4.0f), &p, &late), WF_OK);
    assert_int_equal(wf_crowd_request_move(c, late, spot, NULL, NULL), WF_OK);
    step(c, 30.0f);
    wf_agent_state s = crowd_test_state(c, late);
    float off = crowd_test_dist2d(s.position, spot);
    uint32_t holders_on = 0;
    for (uint32_t k = 0; k < HOLDERS; ++k) {
        wf_agent_state h = crowd_test_state(c, holder[k]);
        holders_on += h.target_state == WF_TARGET_ARRIVED &&
                      crowd_test_dist2d(h.position, holder_spot[k]) <= p.radius;
    }
    printf("late agent %.2f m off its target (state %d), holders within a radius of their "
           "spots %u of %u\n",
           (double)off, (int)s.target_state, holders_on, HOLDERS);
    assert_int_equal(s.target_state, WF_TARGET_ARRIVED);
    assert_true(off <= p.radius);
    assert_int_equal(holders_on, HOLDERS);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stopped_short_squeezes_into_tight_row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
