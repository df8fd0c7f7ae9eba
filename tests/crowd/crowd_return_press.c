// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// A holder pushed off its spot walks back between the holders beside it
// without pressing deep into them: stuck on its way back, it squeezes past
// holders between it and its spot (they step aside), but one standing by
// its own spot is where its way ends, so it sees that one at its full
// radius (nav_test500, flow 5: a returner stuck 1.3 s pressed 0.165 m
// into such a holder; docs/benchmarks.md, return18).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "crowd_test_util.h"

#define DT (1.0f / 30.0f)
#ifndef FIRST_Z
#define FIRST_Z 11.5f
#define SX 0.85f
#define SZ 0.85f
#endif
#define ROWS 3u
#define COLS 4u
#define AGENTS (ROWS * COLS)

/// The deepest overlap of two arrived agents.
static float deepest_arrived(const wf_crowd* c, const wf_agent_id* id) {
    float worst = 0.0f;
    for (uint32_t k = 0; k < AGENTS; ++k) {
        wf_agent_state a = crowd_test_state(c, id[k]);
        for (uint32_t m = k + 1; m < AGENTS; ++m) {
            wf_agent_state b = crowd_test_state(c, id[m]);
            if (a.target_state != WF_TARGET_ARRIVED || b.target_state != WF_TARGET_ARRIVED) {
                continue;
            }
            float depth =
                a.params.radius + b.params.radius - crowd_test_dist2d(a.position, b.position);
            worst = depth > worst ? depth : worst;
        }
    }
    return worst;
}

static void test_returner_does_not_press_deep(void** state) {
    (void)state;
    wf_mesh* mesh = crowd_test_room_mesh();
    assert_non_null(mesh);
    wf_agent_id id[AGENTS];
    wf_vec3 spot[AGENTS];
    wf_crowd* c = crowd_test_fill_room(mesh, ROWS, COLS, FIRST_Z, SX, SZ, id, spot);
    float worst = 0.0f;
    for (int f = 0; f < 30 * 60; ++f) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        float depth = deepest_arrived(c, id);
        worst = depth > worst ? depth : worst;
    }
    printf("worst %.3f\n", worst);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_returner_does_not_press_deep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
