// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// A holder pinned against a wall is seen as it is by those who would press
// it into the wall (crowd_motion.c, presses_to_wall; ret20): a walker
// stuck near its target still squeezes past it, between it and another
// holder, without pressing into it. A guard: this scene stays shallow
// before and after the change (0.000 m both); the deep cases are
// nav_test500's at flow 5 (seed 345: 0.180 -> 0.081 m; docs/benchmarks.md,
// ret20), which no small scene reproduced in the time.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "crowd_test_util.h"

#define DT (1.0f / 30.0f)

/// Adds an agent at `at` and sends it to `spot`, where it holds.
static wf_agent_id add_holder(wf_crowd* c, wf_vec3 at, wf_vec3 spot) {
    wf_agent_params p = crowd_test_scene_params();
    wf_agent_id id;
    assert_int_equal(wf_crowd_add_agent(c, at, &p, &id), WF_OK);
    assert_int_equal(wf_crowd_request_move(c, id, spot, NULL, NULL), WF_OK);
    return id;
}

/// Holder `wall` on a spot beside the open level's west edge (x = 0, a
/// wall), holder `free` `gap` metres east of it; a walker comes up from the
/// south to a target 4 m beyond them, through a gap too narrow for it
/// (2.4 m) until it squeezes. Returns the walker's deepest overlap with the
/// holder by the wall after its first 2 s, and in out_through whether it
/// got past them within 20 s.
static float squeeze_past_wall_holder(float gap, bool* out_through) {
    wf_mesh* mesh = test_mesh_grid(2, 2, 10, 1.0f, NULL, NULL, NULL);
    assert_non_null(mesh);
    wf_crowd_desc d = crowd_test_desc(mesh, 4);
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    const float x = 0.35f, z = 6.0f; // where a holder stands by the wall
    wf_agent_id wall = add_holder(c, wf_v3(x + 0.2f, 0, z), wf_v3(x, 0, z));
    wf_agent_id free = add_holder(c, wf_v3(x + gap, 0, z), wf_v3(x + gap, 0, z));
    for (int f = 0; f < 2 * 30; ++f) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
    }
    assert_int_equal(crowd_test_state(c, wall).target_state, WF_TARGET_ARRIVED);
    assert_int_equal(crowd_test_state(c, free).target_state, WF_TARGET_ARRIVED);

    wf_agent_params p = crowd_test_scene_params();
    wf_agent_id walker;
    float mid = x + gap * 0.5f;
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(mid, 0, z - 3.0f), &p, &walker), WF_OK);
    assert_int_equal(wf_crowd_request_move(c, walker, wf_v3(mid, 0, z + 4.0f), NULL, NULL), WF_OK);
    float worst = 0.0f;
    bool through = false;
    for (int f = 0; f < 20 * 30 && !through; ++f) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        wf_agent_state w = crowd_test_state(c, walker), h = crowd_test_state(c, wall);
        float depth = 2.0f * p.radius - crowd_test_dist2d(w.position, h.position);
        if (f >= 2 * 30 && depth > worst) {
            worst = depth;
        }
        through = w.position.z > z + p.radius * 2.0f;
    }
    *out_through = through;
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
    return worst;
}

/// Holders 1.9 m apart: the walker squeezes through, not into the holder
/// by the wall.
static void test_squeeze_past_wall_holder(void** state) {
    (void)state;
    bool through;
    float worst = squeeze_past_wall_holder(1.9f, &through);
    printf("gap 1.9 m: deepest into the holder by the wall %.3f m, through %d\n", worst, through);
    assert_true(through);
    assert_true(worst < 0.1f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_squeeze_past_wall_holder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
