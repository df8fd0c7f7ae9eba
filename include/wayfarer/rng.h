// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
/*
 * Deterministic random numbers: PCG32 (O'Neill 2014: a 64-bit LCG with a
 * permuted 32-bit output), integer-only so the same seed gives the same
 * sequence on every platform and compiler. Floats are built from the top 24
 * bits, which every IEEE float represents exactly.
 *
 * Splitting: wf_rng_split(&parent, key) derives an independent generator from
 * the parent's seed and a key (agent index, tile coordinates, ...) without
 * advancing the parent, so per-agent or per-tile streams do not depend on the
 * order in which workers reach them.
 *
 * A wf_rng is plain data (save it to resume a sequence). Not thread-safe:
 * give each thread or each item its own, split from a common parent.
 */
#ifndef WAYFARER_RNG_H
#define WAYFARER_RNG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wf_rng {
    uint64_t state;
    uint64_t increment; ///< stream selector, always odd
} wf_rng;

#define WF_RNG_MULTIPLIER 6364136223846793005ull

/// Next 32 random bits.
static inline uint32_t wf_rng_next_u32(wf_rng* rng) {
    uint64_t old = rng->state;
    rng->state = old * WF_RNG_MULTIPLIER + rng->increment;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
}

/// Seeds a generator: `seed` picks the start, `stream` one of 2^63 sequences.
static inline wf_rng wf_rng_make(uint64_t seed, uint64_t stream) {
    wf_rng rng;
    rng.state = 0u;
    rng.increment = (stream << 1u) | 1u;
    (void)wf_rng_next_u32(&rng);
    rng.state += seed;
    (void)wf_rng_next_u32(&rng);
    return rng;
}

/// SplitMix64 finalizer: a strong 64-bit mix, used to derive child seeds.
static inline uint64_t wf_rng_mix64(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30u)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27u)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31u);
}

/// Independent generator for `key`, derived from the parent's current state.
/// The parent is not advanced: split(p, k) is the same whenever it is called.
static inline wf_rng wf_rng_split(const wf_rng* parent, uint64_t key) {
    uint64_t k = wf_rng_mix64(key ^ 0x5851f42d4c957f2dull);
    return wf_rng_make(wf_rng_mix64(parent->state ^ k), wf_rng_mix64(parent->increment + k));
}

/// Uniform integer in [0, bound); bound 0 gives 0. Unbiased (rejection).
static inline uint32_t wf_rng_below(wf_rng* rng, uint32_t bound) {
    if (bound == 0u) {
        return 0u;
    }
    uint32_t threshold = (0u - bound) % bound;
    for (;;) {
        uint32_t r = wf_rng_next_u32(rng);
        if (r >= threshold) {
            return r % bound;
        }
    }
}

/// Uniform float in [0, 1), a multiple of 2^-24.
static inline float wf_rng_float01(wf_rng* rng) {
    return (float)(wf_rng_next_u32(rng) >> 8u) * (1.0f / 16777216.0f);
}

/// Uniform float from lo to hi (hi itself only through float rounding).
static inline float wf_rng_range(wf_rng* rng, float lo, float hi) {
    return lo + (hi - lo) * wf_rng_float01(rng);
}

#ifdef __cplusplus
}
#endif

#endif // WAYFARER_RNG_H
