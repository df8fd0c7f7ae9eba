// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Avoidance gives the same bits whatever vector width runs it: the
// library's build (AVX where the processor has it) against the same source
// built here for SSE2 only, on many random crowds.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "wayfarer/crowd.h"
#include "wayfarer/rng.h"

// The same source twice more, renamed, with the wider paths switched off.
#define WF_AVOID_NO_AVX
#define wf_avoidance_sample sse_avoidance_sample
#define wf_avoidance_params_valid sse_avoidance_params_valid
#include "../../crowd/avoidance.c" // the source, not this directory's test
#undef wf_avoidance_sample
#undef wf_avoidance_params_valid

wf_vec3 wf_avoidance_sample(const wf_avoidance_params* params, const wf_avoid_agent* self,
                            const wf_avoid_neighbour* neighbours, uint32_t neighbour_count,
                            const wf_vec3* walls, uint32_t wall_count, uint32_t* out_samples);

static void test_every_width_gives_the_same_bits(void** state) {
    (void)state;
    wf_rng rng = wf_rng_make(99, 5);
    uint32_t avx_capable = 0;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    avx_capable = __builtin_cpu_supports("avx") ? 1u : 0u;
#endif
    for (uint32_t k = 0; k < 20000; ++k) {
        wf_avoidance_params p = wf_avoidance_preset((wf_avoidance_quality)(k % 4u));
        if (k % 7u == 0) {
            p.adaptive_divisions = 0; // grid pattern
            p.grid_size = (uint8_t)(5u + k % 11u);
        }
        wf_avoid_agent a = {
            .pos = wf_v3(0, 0, 0),
            .vel = wf_v3(wf_rng_range(&rng, -3, 3), 0, wf_rng_range(&rng, -3, 3)),
            .dvel = wf_v3(wf_rng_range(&rng, -4, 4), 0, wf_rng_range(&rng, -4, 4)),
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
        uint32_t s_lib = 0, s_sse = 0;
        wf_vec3 v_lib = wf_avoidance_sample(&p, &a, nb, nn, walls, nw, &s_lib);
        wf_vec3 v_sse = sse_avoidance_sample(&p, &a, nb, nn, walls, nw, &s_sse);
        assert_memory_equal(&v_lib, &v_sse, sizeof v_lib);
        assert_int_equal(s_lib, s_sse);
    }
    print_message("library path: %s\n", avx_capable ? "AVX" : "SSE2");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_width_gives_the_same_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
