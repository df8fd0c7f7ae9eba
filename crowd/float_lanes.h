// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Floats in lanes of width 1, 4 (SSE2) and 8 (AVX), with the same inline
// operations at each width, so a kernel is written once over them
// (avoidance_kernel.inl) and instantiated per width. Each operation is one
// IEEE operation per lane, and max/min/select mean at width 1 what
// MAXPS/MINPS/ANDPS mean per lane, so every width gives the same bits
// (the build has -ffp-contract=off: no fused multiply-add).
//
// FLOAT_LANES_SSE / FLOAT_LANES_AVX say which widths this build has; width 1
// is always there.
#ifndef WF_CROWD_FLOAT_LANES_H
#define WF_CROWD_FLOAT_LANES_H

#include <math.h>
#include <stdbool.h>

#if !defined(WF_AVOID_NO_SIMD) &&                                                                  \
    (defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2))
#define FLOAT_LANES_SSE 1
#include <emmintrin.h>
#else
#define FLOAT_LANES_SSE 0
#endif

// AVX is chosen when the call runs (the library still runs on any x86-64),
// so its functions carry a target attribute instead of a build flag.
#if FLOAT_LANES_SSE && (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) &&         \
    !defined(WF_AVOID_NO_AVX)
#define FLOAT_LANES_AVX 1
#include <immintrin.h>
#define FLOAT_LANES_AVX_FN __attribute__((target("avx")))
#else
#define FLOAT_LANES_AVX 0
#endif

// Width 1: plain floats; a mask is a bool.
typedef float floats1;
typedef bool mask1;
static inline floats1 f1_splat(float a) { return a; }
static inline floats1 f1_zero(void) { return 0.0f; }
static inline floats1 f1_load(const float* p) { return *p; }
static inline void f1_store(float* p, floats1 a) { *p = a; }
static inline floats1 f1_add(floats1 a, floats1 b) { return a + b; }
static inline floats1 f1_sub(floats1 a, floats1 b) { return a - b; }
static inline floats1 f1_mul(floats1 a, floats1 b) { return a * b; }
static inline floats1 f1_div(floats1 a, floats1 b) { return a / b; }
static inline floats1 f1_sqrt(floats1 a) { return sqrtf(a); }
static inline floats1 f1_max(floats1 a, floats1 b) { return a > b ? a : b; }
static inline floats1 f1_min(floats1 a, floats1 b) { return a < b ? a : b; }
static inline mask1 f1_gt(floats1 a, floats1 b) { return a > b; }
static inline mask1 f1_ge(floats1 a, floats1 b) { return a >= b; }
static inline mask1 f1_le(floats1 a, floats1 b) { return a <= b; }
static inline mask1 f1_and(mask1 a, mask1 b) { return a & b; }
/// m ? a : +0 (what ANDPS with a compare mask gives).
static inline floats1 f1_select(mask1 m, floats1 a) { return m ? a : 0.0f; }
/// m ? a : b.
static inline floats1 f1_blend(mask1 m, floats1 a, floats1 b) { return m ? a : b; }
/// Lane 0.
static inline float f1_first(floats1 a) { return a; }
/// Each lane's index.
static inline floats1 f1_iota(void) { return 0.0f; }
/// Greatest lane.
static inline float f1_hmax(floats1 a) { return a; }

#if FLOAT_LANES_SSE
typedef __m128 floats4;
typedef __m128 mask4;
static inline floats4 f4_splat(float a) { return _mm_set1_ps(a); }
static inline floats4 f4_zero(void) { return _mm_setzero_ps(); }
static inline floats4 f4_load(const float* p) { return _mm_loadu_ps(p); }
static inline void f4_store(float* p, floats4 a) { _mm_storeu_ps(p, a); }
static inline floats4 f4_add(floats4 a, floats4 b) { return _mm_add_ps(a, b); }
static inline floats4 f4_sub(floats4 a, floats4 b) { return _mm_sub_ps(a, b); }
static inline floats4 f4_mul(floats4 a, floats4 b) { return _mm_mul_ps(a, b); }
static inline floats4 f4_div(floats4 a, floats4 b) { return _mm_div_ps(a, b); }
static inline floats4 f4_sqrt(floats4 a) { return _mm_sqrt_ps(a); }
static inline floats4 f4_max(floats4 a, floats4 b) { return _mm_max_ps(a, b); }
static inline floats4 f4_min(floats4 a, floats4 b) { return _mm_min_ps(a, b); }
static inline mask4 f4_gt(floats4 a, floats4 b) { return _mm_cmpgt_ps(a, b); }
static inline mask4 f4_ge(floats4 a, floats4 b) { return _mm_cmpge_ps(a, b); }
static inline mask4 f4_le(floats4 a, floats4 b) { return _mm_cmple_ps(a, b); }
static inline mask4 f4_and(mask4 a, mask4 b) { return _mm_and_ps(a, b); }
static inline floats4 f4_select(mask4 m, floats4 a) { return _mm_and_ps(m, a); }
static inline floats4 f4_blend(mask4 m, floats4 a, floats4 b) {
    return _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b));
}
static inline float f4_first(floats4 a) { return _mm_cvtss_f32(a); }
static inline floats4 f4_iota(void) { return _mm_setr_ps(0.0f, 1.0f, 2.0f, 3.0f); }
static inline float f4_hmax(floats4 a) {
    __m128 m = _mm_max_ps(a, _mm_movehl_ps(a, a));
    return _mm_cvtss_f32(_mm_max_ss(m, _mm_shuffle_ps(m, m, 1)));
}
#endif

#if FLOAT_LANES_AVX
typedef __m256 floats8;
typedef __m256 mask8;
// Ordered, quiet compares: false on NaN, as the width-1 compares are.
static inline FLOAT_LANES_AVX_FN floats8 f8_splat(float a) { return _mm256_set1_ps(a); }
static inline FLOAT_LANES_AVX_FN floats8 f8_zero(void) { return _mm256_setzero_ps(); }
static inline FLOAT_LANES_AVX_FN floats8 f8_load(const float* p) { return _mm256_loadu_ps(p); }
static inline FLOAT_LANES_AVX_FN void f8_store(float* p, floats8 a) { _mm256_storeu_ps(p, a); }
static inline FLOAT_LANES_AVX_FN floats8 f8_add(floats8 a, floats8 b) {
    return _mm256_add_ps(a, b);
}
static inline FLOAT_LANES_AVX_FN floats8 f8_sub(floats8 a, floats8 b) {
    return _mm256_sub_ps(a, b);
}
static inline FLOAT_LANES_AVX_FN floats8 f8_mul(floats8 a, floats8 b) {
    return _mm256_mul_ps(a, b);
}
static inline FLOAT_LANES_AVX_FN floats8 f8_div(floats8 a, floats8 b) {
    return _mm256_div_ps(a, b);
}
static inline FLOAT_LANES_AVX_FN floats8 f8_sqrt(floats8 a) { return _mm256_sqrt_ps(a); }
static inline FLOAT_LANES_AVX_FN floats8 f8_max(floats8 a, floats8 b) {
    return _mm256_max_ps(a, b);
}
static inline FLOAT_LANES_AVX_FN floats8 f8_min(floats8 a, floats8 b) {
    return _mm256_min_ps(a, b);
}
static inline FLOAT_LANES_AVX_FN mask8 f8_gt(floats8 a, floats8 b) {
    return _mm256_cmp_ps(a, b, _CMP_GT_OQ);
}
static inline FLOAT_LANES_AVX_FN mask8 f8_ge(floats8 a, floats8 b) {
    return _mm256_cmp_ps(a, b, _CMP_GE_OQ);
}
static inline FLOAT_LANES_AVX_FN mask8 f8_le(floats8 a, floats8 b) {
    return _mm256_cmp_ps(a, b, _CMP_LE_OQ);
}
static inline FLOAT_LANES_AVX_FN mask8 f8_and(mask8 a, mask8 b) { return _mm256_and_ps(a, b); }
static inline FLOAT_LANES_AVX_FN floats8 f8_select(mask8 m, floats8 a) {
    return _mm256_and_ps(m, a);
}
static inline FLOAT_LANES_AVX_FN floats8 f8_blend(mask8 m, floats8 a, floats8 b) {
    return _mm256_or_ps(_mm256_and_ps(m, a), _mm256_andnot_ps(m, b));
}
static inline FLOAT_LANES_AVX_FN float f8_first(floats8 a) { return _mm256_cvtss_f32(a); }
static inline FLOAT_LANES_AVX_FN floats8 f8_iota(void) {
    return _mm256_setr_ps(0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f);
}
static inline FLOAT_LANES_AVX_FN float f8_hmax(floats8 a) {
    return f4_hmax(_mm_max_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1)));
}
#endif

#endif
