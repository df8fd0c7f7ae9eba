// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Lanes by direction (wf_crowd_desc.flow_cost): bad settings are refused.
// (What it does to routes: docs/benchmarks.md, flow17, on nav_test500;
// that the same crowd comes out on any worker count and after a restore:
// crowd_determinism.c and crowd_save.c run crowds with it on.)
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "crowd_test_util.h"
#include "test_hooks.h"

/// wf_crowd_desc.flow_cost: NaN, infinities, negative costs and costs above
/// 1000 are refused; 0 (off) and costs in range are taken.
static void test_bad_flow_costs_are_refused(void** state) {
    (void)state;
    wf_mesh* mesh = test_mesh_grid(1, 1, 10, 1.0f, NULL, NULL, NULL);
    assert_non_null(mesh);
    wf_assert_fn* previous_hook = wf_set_assert_hook(test_ignore_assert);
    const float bad[] = {NAN, INFINITY, -INFINITY, -1.0f, 1000.5f};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        wf_crowd_desc d = crowd_test_desc(mesh, 4);
        d.flow_cost = bad[k];
        wf_crowd* c = NULL;
        assert_int_equal(wf_crowd_create(&d, &c), WF_ERR_INVALID_ARG);
        assert_null(c);
    }
    wf_set_assert_hook(previous_hook);
    const float good[] = {0.0f, 0.5f, 3.0f, 1000.0f};
    for (size_t k = 0; k < sizeof good / sizeof good[0]; ++k) {
        wf_crowd_desc d = crowd_test_desc(mesh, 4);
        d.flow_cost = good[k];
        wf_crowd* c = NULL;
        assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
        wf_crowd_destroy(c);
    }
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_flow_costs_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
