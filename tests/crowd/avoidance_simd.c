// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Avoidance gives the same bits whatever kernel runs it: scalar (the
// reference, used where SSE2 is absent), SSE2 and AVX where this build and
// processor have them, on many random crowds.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "crowd/avoidance.h"
#include "wayfarer/crowd.h"
#include "wayfarer/rng.h"

static void test_every_width_gives_the_same_bits(void** state) {
    (void)state;
    wf_rng rng = wf_rng_make(99, 5);
    const wf_avoid_kernel kernels[3] = {WF_AVOID_KERNEL_SCALAR, WF_AVOID_KERNEL_SSE2,
                                        WF_AVOID_KERNEL_AVX};
    const char* names[3] = {"scalar", "SSE2", "AVX"};
    for (uint32_t k = 0; k < 20000; ++k) {
        wf_avoidance_params p = wf_avoidance_preset((wf_avoidance_quality)(k % 4u));
        if (k % 7u == 0) {
            p.adaptive_divisions = 0; // grid pattern
            p.grid_size = (uint8_t)(5u + k % 11u);
        }
        wf_avoid_agent a = {
            .pos = wf_v3(0, 0, 0),
            .vel = wf_v3(wf_rng_range(&rng, -3, 3), 0, wf_rng_range(&rng, -3, 3)),
            .desired_vel = wf_v3(wf_rng_range(&rng, -4, 4), 0, wf_rng_range(&rng, -4, 4)),
            .radius = wf_rng_range(&rng, 0.2f, 0.8f),
            .max_speed = 3.5f,
            .rank = (uint32_t)(k % 3u),
        };
        wf_avoid_neighbour nb[8];
        uint32_t nn = k % 9u;
        for (uint32_t i = 0; i < nn; ++i) {
            nb[i].pos = wf_v3(wf_rng_range(&rng, -6, 6), 0, wf_rng_range(&rng, -6, 6));
            nb[i].vel = wf_v3(wf_rng_range(&rng, -3, 3), 0, wf_rng_range(&rng, -3, 3));
            nb[i].radius = wf_rng_range(&rng, 0.2f, 0.8f);
            nb[i].rank = (uint32_t)(i % 3u);
        }
        wf_vec3 walls[16];
        uint32_t nw = k % 5u;
        for (uint32_t i = 0; i < 2u * nw; ++i) {
            walls[i] = wf_v3(wf_rng_range(&rng, -5, 5), 0, wf_rng_range(&rng, -5, 5));
        }
        uint32_t s_ref = 0;
        wf_vec3 v_ref =
            wf_avoidance_sample_with(WF_AVOID_KERNEL_SCALAR, &p, &a, nb, nn, walls, nw, &s_ref);
        for (uint32_t q = 1; q < 3; ++q) {
            if (!wf_avoidance_kernel_available(kernels[q])) {
                continue;
            }
            uint32_t s_q = 0;
            wf_vec3 v_q = wf_avoidance_sample_with(kernels[q], &p, &a, nb, nn, walls, nw, &s_q);
            assert_memory_equal(&v_ref, &v_q, sizeof v_ref);
            assert_int_equal(s_ref, s_q);
        }
        // What the crowd runs (AUTO) is one of them.
        uint32_t s_auto = 0;
        wf_vec3 v_auto = wf_avoidance_sample(&p, &a, nb, nn, walls, nw, &s_auto);
        assert_memory_equal(&v_ref, &v_auto, sizeof v_ref);
        assert_int_equal(s_ref, s_auto);
    }
    for (uint32_t q = 0; q < 3; ++q) {
        bool have = wf_avoidance_kernel_available(kernels[q]);
        print_message("%s kernel: %s\n", names[q],
                      have ? "compared" : "not in this build or processor");
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_width_gives_the_same_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
