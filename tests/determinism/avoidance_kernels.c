// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The crowd scene of crowd_golden.c with each avoidance kernel forced:
// scalar (what targets without SSE2 run), SSE2 and AVX where this build and
// processor have them. Every one must give the pinned hash, so the scalar
// path cannot drift from the SIMD ones unseen on x86.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "crowd/crowd_internal.h"
#include "golden_world.h"

#define EXPECTED_HASH GOLDEN_CROWD_HASH

static void force_kernel(wf_world* world, void* user) {
    const wf_avoid_kernel* kernel = user;
    assert_int_equal(wf_crowd_set_avoidance_kernel(wf_world_crowd(world), *kernel), WF_OK);
}

static void test_every_kernel_matches_golden_hash(void** state) {
    (void)state;
    const wf_avoid_kernel kernels[3] = {WF_AVOID_KERNEL_SCALAR, WF_AVOID_KERNEL_SSE2,
                                        WF_AVOID_KERNEL_AVX};
    const char* names[3] = {"scalar", "SSE2", "AVX"};
    uint64_t scalar = 0;
    for (uint32_t k = 0; k < 3; ++k) {
        if (!wf_avoidance_kernel_available(kernels[k])) {
            printf("%s kernel: not in this build or processor\n", names[k]);
            assert_true(k != 0); // the scalar kernel is always built
            continue;
        }
        wf_avoid_kernel kernel = kernels[k];
        uint64_t h = golden_crowd_scene(1, force_kernel, &kernel);
        printf("%s kernel: 0x%016" PRIx64 "\n", names[k], h);
        if (k == 0) {
            scalar = h;
        }
        assert_true(h == scalar);
    }
    assert_true(golden_matches("crowd, every kernel", scalar, EXPECTED_HASH));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_kernel_matches_golden_hash),
    };
    return golden_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
