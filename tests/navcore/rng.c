// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// PCG32 in wayfarer/rng.h: the published reference sequence, streams,
// splitting without advancing the parent, and the ranges of the helpers.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "wayfarer/rng.h"

/// Draws for the uniformity checks: enough that a fair generator lands well
/// inside the bounds below, few enough to run in milliseconds.
#define UNIFORMITY_DRAWS 100000u
#define UNIFORMITY_BUCKETS 10u
/// Chi-square critical value for 9 degrees of freedom at p = 0.0001 is 33.7;
/// the sequence is deterministic, so a loose bound cannot flake.
#define CHI_SQUARE_LIMIT 34.0

static void test_matches_pcg32_reference(void** state) {
    (void)state;
    // pcg-c-basic's pcg32-demo: pcg32_srandom_r(&rng, 42u, 54u).
    static const uint32_t expected[] = {0xa15c02b7u, 0x7b47f409u, 0xba1d3330u,
                                        0x83d2f293u, 0xbfa4784bu, 0xcbed606eu};
    wf_rng rng = wf_rng_make(42u, 54u);
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; ++i) {
        uint32_t got = wf_rng_next_u32(&rng);
        if (got != expected[i]) {
            fail_msg("output %zu: got 0x%08x, PCG32 reference 0x%08x", i, (unsigned)got,
                     (unsigned)expected[i]);
        }
    }
}

static void test_increment_is_odd(void** state) {
    (void)state;
    static const uint64_t streams[] = {0u, 1u, 54u, 0x7fffffffffffffffull, UINT64_MAX};
    for (size_t i = 0; i < sizeof streams / sizeof streams[0]; ++i) {
        wf_rng rng = wf_rng_make(7u, streams[i]);
        assert_int_equal(rng.increment & 1u, 1u);
    }
}

static void test_same_seed_same_sequence(void** state) {
    (void)state;
    wf_rng a = wf_rng_make(12345u, 6u);
    wf_rng b = wf_rng_make(12345u, 6u);
    for (int i = 0; i < 1000; ++i) {
        assert_int_equal(wf_rng_next_u32(&a), wf_rng_next_u32(&b));
    }
    // Plain data: a copy resumes the sequence exactly.
    wf_rng saved = a;
    uint32_t first[16];
    for (int i = 0; i < 16; ++i) {
        first[i] = wf_rng_next_u32(&a);
    }
    for (int i = 0; i < 16; ++i) {
        assert_int_equal(wf_rng_next_u32(&saved), first[i]);
    }
}

/// Number of equal outputs at the same position in the first `count` draws.
static int matching_outputs(wf_rng a, wf_rng b, int count) {
    int same = 0;
    for (int i = 0; i < count; ++i) {
        same += wf_rng_next_u32(&a) == wf_rng_next_u32(&b);
    }
    return same;
}

static void test_different_stream_or_seed_differs(void** state) {
    (void)state;
    wf_rng base = wf_rng_make(42u, 54u);
    // Two independent 32-bit sequences agree at a position with chance 2^-32.
    assert_true(matching_outputs(base, wf_rng_make(42u, 55u), 100) <= 1);
    assert_true(matching_outputs(base, wf_rng_make(42u, 0u), 100) <= 1);
    assert_true(matching_outputs(base, wf_rng_make(43u, 54u), 100) <= 1);
    assert_true(matching_outputs(base, wf_rng_make(0u, 54u), 100) <= 1);
    assert_int_equal(matching_outputs(base, wf_rng_make(42u, 54u), 100), 100);
}

static void test_split_does_not_advance_parent(void** state) {
    (void)state;
    wf_rng parent = wf_rng_make(99u, 3u);
    wf_rng before = parent;
    wf_rng child = wf_rng_split(&parent, 17u);
    (void)wf_rng_next_u32(&child);
    assert_true(parent.state == before.state);
    assert_true(parent.increment == before.increment);
    assert_int_equal(child.increment & 1u, 1u);
    // Parent's own sequence is untouched by splitting.
    assert_int_equal(matching_outputs(parent, before, 50), 50);
}

static void test_split_is_deterministic_per_key(void** state) {
    (void)state;
    wf_rng parent = wf_rng_make(2026u, 1u);
    wf_rng a = wf_rng_split(&parent, 5u);
    wf_rng b = wf_rng_split(&parent, 5u);
    assert_true(a.state == b.state && a.increment == b.increment);
    assert_int_equal(matching_outputs(a, b, 100), 100);

    // The same key from an identical parent elsewhere gives the same child.
    wf_rng twin = wf_rng_make(2026u, 1u);
    assert_int_equal(matching_outputs(a, wf_rng_split(&twin, 5u), 100), 100);
}

static void test_split_keys_differ(void** state) {
    (void)state;
    wf_rng parent = wf_rng_make(2026u, 1u);
    wf_rng children[8];
    for (uint64_t k = 0; k < 8; ++k) {
        children[k] = wf_rng_split(&parent, k);
    }
    for (int i = 0; i < 8; ++i) {
        // Differs from the parent's own sequence.
        assert_true(matching_outputs(children[i], parent, 100) <= 1);
        for (int j = 0; j < i; ++j) {
            assert_true(matching_outputs(children[i], children[j], 100) <= 1);
        }
    }
    // Children depend on the parent's state: advance it and the key-0 child changes.
    wf_rng advanced = parent;
    (void)wf_rng_next_u32(&advanced);
    assert_true(matching_outputs(wf_rng_split(&advanced, 0u), children[0], 100) <= 1);
}

static void test_below_stays_below(void** state) {
    (void)state;
    wf_rng rng = wf_rng_make(1u, 2u);
    static const uint32_t bounds[] = {1u, 2u, 3u, 7u, 10u, 1000u, 0x80000001u, UINT32_MAX};
    for (size_t b = 0; b < sizeof bounds / sizeof bounds[0]; ++b) {
        for (int i = 0; i < 2000; ++i) {
            assert_true(wf_rng_below(&rng, bounds[b]) < bounds[b]);
        }
    }
    for (int i = 0; i < 100; ++i) {
        assert_int_equal(wf_rng_below(&rng, 1u), 0u);
    }
}

static void test_below_zero_bound_gives_zero(void** state) {
    (void)state;
    wf_rng rng = wf_rng_make(1u, 2u);
    wf_rng before = rng;
    for (int i = 0; i < 10; ++i) {
        assert_int_equal(wf_rng_below(&rng, 0u), 0u);
    }
    // Nothing is drawn for an empty range, so later draws do not shift.
    assert_true(rng.state == before.state);
}

static void test_below_is_roughly_uniform(void** state) {
    (void)state;
    wf_rng rng = wf_rng_make(42u, 54u);
    unsigned counts[UNIFORMITY_BUCKETS] = {0};
    for (uint32_t i = 0; i < UNIFORMITY_DRAWS; ++i) {
        uint32_t v = wf_rng_below(&rng, UNIFORMITY_BUCKETS);
        assert_true(v < UNIFORMITY_BUCKETS);
        counts[v]++;
    }
    double expected = (double)UNIFORMITY_DRAWS / UNIFORMITY_BUCKETS;
    double chi_square = 0.0;
    for (uint32_t b = 0; b < UNIFORMITY_BUCKETS; ++b) {
        assert_true(counts[b] > 0);
        double d = (double)counts[b] - expected;
        chi_square += d * d / expected;
    }
    if (!(chi_square < CHI_SQUARE_LIMIT)) {
        fail_msg("chi-square %.2f over %u buckets exceeds %.1f", chi_square, UNIFORMITY_BUCKETS,
                 CHI_SQUARE_LIMIT);
    }
}

static void test_below_rejects_biased_draws(void** state) {
    (void)state;
    // With bound = 3 * 2^30, plain r % bound would put half of all results
    // in [0, 2^30) (that range is hit twice); an unbiased draw puts a third.
    const uint32_t bound = 0xC0000000u;
    wf_rng rng = wf_rng_make(7u, 11u);
    const int draws = 30000;
    int low = 0;
    for (int i = 0; i < draws; ++i) {
        uint32_t v = wf_rng_below(&rng, bound);
        assert_true(v < bound);
        low += v < 0x40000000u;
    }
    double fraction = (double)low / draws;
    if (!(fraction > 0.31 && fraction < 0.36)) {
        fail_msg("fraction in the low third is %.4f, expected about 0.333", fraction);
    }
}

static void test_float01_range_and_grid(void** state) {
    (void)state;
    wf_rng rng = wf_rng_make(3u, 4u);
    float lowest = 1.0f, highest = 0.0f;
    for (int i = 0; i < 100000; ++i) {
        float f = wf_rng_float01(&rng);
        assert_true(f >= 0.0f);
        assert_true(f < 1.0f);
        float scaled = f * 16777216.0f; // exact: f is k * 2^-24
        assert_true(scaled == (float)(uint32_t)scaled);
        assert_true((uint32_t)scaled < 16777216u);
        lowest = f < lowest ? f : lowest;
        highest = f > highest ? f : highest;
    }
    // Covers the interval, not a sliver of it.
    assert_true(lowest < 0.001f);
    assert_true(highest > 0.999f);

    // Built from the top 24 bits of the next output.
    wf_rng a = wf_rng_make(5u, 6u), b = a;
    uint32_t bits = wf_rng_next_u32(&a);
    assert_true(wf_rng_float01(&b) == (float)(bits >> 8) / 16777216.0f);
}

static void test_range_within_bounds(void** state) {
    (void)state;
    wf_rng rng = wf_rng_make(8u, 9u);
    double sum = 0.0;
    for (int i = 0; i < 20000; ++i) {
        float v = wf_rng_range(&rng, -2.5f, 4.0f);
        assert_true(v >= -2.5f);
        assert_true(v <= 4.0f);
        sum += v;
    }
    double mean = sum / 20000.0;
    assert_true(mean > 0.6 && mean < 0.9); // true mean 0.75

    for (int i = 0; i < 1000; ++i) {
        float v = wf_rng_range(&rng, 10.0f, 10.5f);
        assert_true(v >= 10.0f && v <= 10.5f);
        assert_true(wf_rng_range(&rng, 3.0f, 3.0f) == 3.0f);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matches_pcg32_reference),
        cmocka_unit_test(test_increment_is_odd),
        cmocka_unit_test(test_same_seed_same_sequence),
        cmocka_unit_test(test_different_stream_or_seed_differs),
        cmocka_unit_test(test_split_does_not_advance_parent),
        cmocka_unit_test(test_split_is_deterministic_per_key),
        cmocka_unit_test(test_split_keys_differ),
        cmocka_unit_test(test_below_stays_below),
        cmocka_unit_test(test_below_zero_bound_gives_zero),
        cmocka_unit_test(test_below_is_roughly_uniform),
        cmocka_unit_test(test_below_rejects_biased_draws),
        cmocka_unit_test(test_float01_range_and_grid),
        cmocka_unit_test(test_range_within_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
