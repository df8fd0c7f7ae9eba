// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The scenarios count an agent as arrived within SCENE_ARRIVAL_RADIUS of
// its target across the floor and on its target's floor (scene_at_target,
// tools/crowd_runner.c). Before, the distance was the floor plan's alone:
// in the demo's building (floors 4 m apart) an agent walking over or under
// its target counted as arrived (8 of 5,368 reached targets on seeds 1-10,
// docs/benchmarks.md "demo20") and was handed its next target there.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tools/crowd_scenes.h"

static void test_a_floor_above_or_below_is_not_the_target(void** state) {
    (void)state;
    const float height = 2.0f;                      // the scenarios' agents (RecastDemo)
    const wf_vec3 target = {-25.90f, 8.10f, 9.61f}; // the demo building's top floor
    // Seen in a demo run: agents on the floor below counted as arrived.
    assert_false(scene_at_target((wf_vec3){-25.90f, 4.10f, 9.61f}, target, height));
    assert_false(scene_at_target((wf_vec3){-25.60f, 0.10f, 9.41f}, target, height));
    assert_false(scene_at_target((wf_vec3){-25.90f, 12.10f, 9.61f}, target, height));
    // On its floor: within the radius across it, as before.
    assert_true(scene_at_target(target, target, height));
    assert_true(scene_at_target((wf_vec3){-25.50f, 8.10f, 9.90f}, target, height));
    assert_false(scene_at_target((wf_vec3){-25.20f, 8.10f, 9.61f}, target, height));
    // A slope (a ramp, a hill) within the radius stays one floor.
    assert_true(scene_at_target((wf_vec3){-25.40f, 8.50f, 9.61f}, target, height));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_floor_above_or_below_is_not_the_target),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
