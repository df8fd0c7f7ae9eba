// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Spots closer together than two agents are wide: a ring of targets a
// little too tight for everyone to stand exactly on theirs (as the circle
// scenes end). Holders give a little instead of pushing back in, so once
// all are in, every agent stands within a radius of its spot and the ring
// is at rest (before, half of them shoved each other about for good).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "crowd_test_util.h"

#define DT (1.0f / 30.0f)
#define AGENTS 24u
#define CENTRE 15.0f
/// Ring radius: spots 0.66 m apart for agents 0.8 m wide.
#define RING 2.52f
#define PI_F 3.14159265f

/// Agents start on a wider ring, each straight out from its spot.
static wf_crowd* fill_ring(wf_mesh* mesh, wf_agent_id* id, wf_vec3* spot) {
    wf_crowd_desc d = crowd_test_desc(mesh, AGENTS);
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    for (uint32_t k = 0; k < AGENTS; ++k) {
        float a = 2.0f * PI_F * (float)k / (float)AGENTS;
        float sx = cosf(a), sz = sinf(a);
        wf_vec3 start = wf_v3(CENTRE + sx * (RING + 6.0f), 0, CENTRE + sz * (RING + 6.0f));
        spot[k] = wf_v3(CENTRE + sx * RING, 0, CENTRE + sz * RING);
        assert_int_equal(wf_crowd_add_agent(c, start, &p, &id[k]), WF_OK);
        assert_int_equal(wf_crowd_request_move(c, id[k], spot[k], NULL, NULL), WF_OK);
    }
    return c;
}

static void test_tight_spots_all_held_at_rest(void** state) {
    (void)state;
    wf_mesh* mesh = crowd_test_open_mesh();
    assert_non_null(mesh);
    wf_agent_id id[AGENTS];
    wf_vec3 spot[AGENTS];
    wf_crowd* c = fill_ring(mesh, id, spot);
    for (int f = 0; f < 30 * 40; ++f) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
    }
    uint32_t held = 0, moving = 0;
    for (uint32_t k = 0; k < AGENTS; ++k) {
        wf_agent_state s = crowd_test_state(c, id[k]);
        held += s.target_state == WF_TARGET_ARRIVED &&
                crowd_test_dist2d(s.position, spot[k]) <= s.params.radius;
        moving += hypotf(s.velocity.x, s.velocity.z) > 0.05f;
    }
    printf("held %u of %u, moving %u\n", held, AGENTS, moving);
    assert_true(held * 10u >= AGENTS * 9u);
    assert_int_equal(moving, 0);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tight_spots_all_held_at_rest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
