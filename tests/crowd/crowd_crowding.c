// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Crowding costs (wf_crowd_desc.crowding_cost, stuck_crowding_cost): bad
// settings are refused.
// (What they do to routes: tests/tools/crowd_scenes_test.c, on a level of
// real doors; that the same crowd comes out on any worker count and after
// a restore: crowd_determinism.c, crowd_save.c.)
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "crowd_test_util.h"
#include "test_hooks.h"

static void test_bad_crowding_costs_are_refused(void** state) {
    (void)state;
    wf_mesh* mesh = test_mesh_grid(1, 1, 10, 1.0f, NULL, NULL, NULL);
    assert_non_null(mesh);
    wf_assert_fn* previous_hook = wf_set_assert_hook(test_ignore_assert);
    const float bad[] = {-1.0f, NAN, INFINITY, 1001.0f};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        wf_crowd_desc d = crowd_test_desc(mesh, 4);
        d.crowding_cost = bad[k];
        wf_crowd* c = NULL;
        assert_int_equal(wf_crowd_create(&d, &c), WF_ERR_INVALID_ARG);
        assert_null(c);
    }
    wf_set_assert_hook(previous_hook);
    // In range it is taken: 0 (off) and a cost.
    for (int k = 0; k < 2; ++k) {
        wf_crowd_desc d = crowd_test_desc(mesh, 4);
        d.crowding_cost = k == 0 ? 0.0f : 1000.0f;
        wf_crowd* c = NULL;
        assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
        wf_crowd_destroy(c);
    }
    wf_mesh_destroy(mesh);
}

/// wf_crowd_desc.stuck_crowding_cost: NaN, infinities and costs above 1000
/// are refused, naming the field; 0 takes the default (8), a negative
/// value is off, and both are taken.
static void test_bad_stuck_crowding_costs_are_refused(void** state) {
    (void)state;
    wf_mesh* mesh = test_mesh_grid(1, 1, 10, 1.0f, NULL, NULL, NULL);
    assert_non_null(mesh);
    wf_assert_fn* previous_hook = wf_set_assert_hook(test_ignore_assert);
    const float bad[] = {NAN, INFINITY, -INFINITY, 1000.5f};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        wf_crowd_desc d = crowd_test_desc(mesh, 4);
        d.stuck_crowding_cost = bad[k];
        wf_crowd* c = NULL;
        assert_int_equal(wf_crowd_create(&d, &c), WF_ERR_INVALID_ARG);
        assert_null(c);
    }
    wf_set_assert_hook(previous_hook);
    wf_crowd_desc zero = crowd_test_desc(mesh, 4);
    assert_true(wf_crowd_desc_defaults(&zero).stuck_crowding_cost == 8.0f);
    zero.stuck_crowding_cost = -1.0f;
    assert_true(wf_crowd_desc_defaults(&zero).stuck_crowding_cost == -1.0f);
    const float good[] = {0.0f, -1.0f, 0.5f, 1000.0f};
    for (size_t k = 0; k < sizeof good / sizeof good[0]; ++k) {
        wf_crowd_desc d = crowd_test_desc(mesh, 4);
        d.stuck_crowding_cost = good[k];
        wf_crowd* c = NULL;
        assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
        wf_crowd_destroy(c);
    }
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_crowding_costs_are_refused),
        cmocka_unit_test(test_bad_stuck_crowding_costs_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
