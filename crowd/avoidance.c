// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Velocity-sampling avoidance. The obstacles are turned once per call into
// flat arrays of per-obstacle constants; candidates are then scored four at
// a time with SSE where the target has it (eight with AVX where the
// processor has it), else one at a time. Every path does the same IEEE
// operations in the same order (+, -, *, sqrt, and max/min written as
// a > b ? a : b, which is what MAXPS/MINPS do), so they give the same bits:
// the choice does not depend on the build. The scalar path is always built,
// as the reference the wider ones mirror, and tests run all of them
// (wf_avoidance_sample_with).
//
// Impacts are kept as inverse times (1 / t): the earliest impact is the
// largest inverse, "no impact" is 0, and the circle root needs no division
// (1 / t = (b + sqrt(b^2 - a c)) / c with 1 / c known per obstacle).
#include "crowd/avoidance.h"

#include <math.h>
#include <stddef.h>

#if !defined(WF_AVOID_NO_SIMD) &&                                                               \
    (defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2))
#define AVOID_SSE 1
#include <emmintrin.h>
#else
#define AVOID_SSE 0
#endif

// Eight candidates at a time where the processor has AVX (chosen when the
// call runs, so the library still runs on any x86-64). Both widths do the
// same IEEE operations in the same order per candidate: same bits.
#if AVOID_SSE && (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) &&             \
    !defined(WF_AVOID_NO_AVX)
#define AVOID_AVX 1
#include <immintrin.h>
#define AVX_FN __attribute__((target("avx")))
#else
#define AVOID_AVX 0
#endif

/// Candidates scored per batch (the adaptive pattern needs 1 + 32 x 4),
/// plus room to pad the last group of four.
#define AVOID_BATCH 132u
#define AVOID_BATCH_STORAGE (AVOID_BATCH + 8u)
/// Most obstacles read; the crowd never passes more.
#define AVOID_MAX_NEIGHBOURS WF_CROWD_MAX_NEIGHBOURS
#define AVOID_MAX_WALLS WF_CROWD_MAX_WALLS
#define AVOID_MAX_CORNERS (2u * AVOID_MAX_WALLS)
/// Contact (already overlapping a neighbour, already touching a wall): any
/// candidate closing in further is scored as an impact within
/// AVOID_CONTACT_TIME, sooner the faster it closes (as if a further gap of
/// AVOID_CONTACT_GAP x radius were left), so separating or sliding
/// candidates win and among closing ones the slowest.
#define AVOID_CONTACT_TIME 0.1f
#define AVOID_CONTACT_GAP 0.1f
/// Smallest |p|^2 - R^2 used for an inverse: keeps 1 / c finite.
#define AVOID_MIN_CLEARANCE_SQ 1e-8f
/// Lateral speed (in max_speeds) at which the side term saturates at 1.
#define AVOID_SIDE_SATURATION 0.5f

/// cos, sin of pi / d for d = 1..32: half a step of a ring of d samples.
/// Literals, not cosf/sinf, so the pattern is the same on every libm.
static const float half_step[32][2] = {
    {-1.0f, 0.0f},
    {0.0f, 1.0f},
    {0.5f, 0.8660253882408142f},
    {0.7071067690849304f, 0.7071067690849304f},
    {0.80901700258255f, 0.5877852439880371f},
    {0.8660253882408142f, 0.5f},
    {0.9009688496589661f, 0.4338837265968323f},
    {0.9238795042037964f, 0.3826834261417389f},
    {0.9396926164627075f, 0.3420201539993286f},
    {0.9510565400123596f, 0.30901700258255005f},
    {0.9594929814338684f, 0.28173255920410156f},
    {0.9659258127212524f, 0.258819043636322f},
    {0.9709418416023254f, 0.23931565880775452f},
    {0.9749279022216797f, 0.22252093255519867f},
    {0.9781476259231567f, 0.2079116851091385f},
    {0.9807852506637573f, 0.19509032368659973f},
    {0.9829730987548828f, 0.1837495118379593f},
    {0.9848077297210693f, 0.1736481785774231f},
    {0.9863613247871399f, 0.1645945906639099f},
    {0.9876883625984192f, 0.15643446147441864f},
    {0.9888308048248291f, 0.1490422636270523f},
    {0.9898214340209961f, 0.1423148363828659f},
    {0.9906859397888184f, 0.13616664707660675f},
    {0.9914448857307434f, 0.13052618503570557f},
    {0.9921147227287292f, 0.12533323466777802f},
    {0.9927088618278503f, 0.1205366775393486f},
    {0.9932383298873901f, 0.11609291285276413f},
    {0.9937121868133545f, 0.11196447908878326f},
    {0.9941379427909851f, 0.10811901837587357f},
    {0.9945219159126282f, 0.10452846437692642f},
    {0.9948693513870239f, 0.10116831958293915f},
    {0.9951847195625305f, 0.0980171412229538f},
};

/// Per-call obstacle constants, structure of arrays (see the file comment).
typedef struct avoid_setup {
    // Neighbours not overlapping self. With p = neighbour - self and the
    // reciprocal relative velocity vr = v * ia - k, the first impact solves
    // |vr|^2 t^2 - 2 (vr . p) t + c = 0, c = |p|^2 - R^2 > 0.
    float nb_px[AVOID_MAX_NEIGHBOURS], nb_pz[AVOID_MAX_NEIGHBOURS];
    float nb_ia[AVOID_MAX_NEIGHBOURS];
    float nb_kx[AVOID_MAX_NEIGHBOURS], nb_kz[AVOID_MAX_NEIGHBOURS];
    float nb_c[AVOID_MAX_NEIGHBOURS], nb_inv_c[AVOID_MAX_NEIGHBOURS];
    uint32_t nb_count;
    // Overlapping neighbours: closing speed vr . p (p scaled by the contact
    // scale) gives 1 / t = 1 / AVOID_CONTACT_TIME + closing, or 0.
    float ov_px[AVOID_MAX_NEIGHBOURS], ov_pz[AVOID_MAX_NEIGHBOURS];
    float ov_ia[AVOID_MAX_NEIGHBOURS];
    float ov_kx[AVOID_MAX_NEIGHBOURS], ov_kz[AVOID_MAX_NEIGHBOURS];
    uint32_t ov_count;
    // Side term per neighbour in the way: clamp(b - v . r, 0, 1), r the
    // right of the line of sight scaled by 1 / (saturation x max_speed).
    float sd_rx[AVOID_MAX_NEIGHBOURS], sd_rz[AVOID_MAX_NEIGHBOURS], sd_b[AVOID_MAX_NEIGHBOURS];
    uint32_t sd_count;
    /// While setting up: which nb_ (< AVOID_MAX_NEIGHBOURS) or ov_ entry
    /// (+ AVOID_MAX_NEIGHBOURS) each side entry belongs to.
    uint32_t sd_source[AVOID_MAX_NEIGHBOURS];
    // Wall faces: the segment's interior, the agent at distance gap + radius
    // in front of it along n (unit, towards the agent; stored as m = -n, so
    // v . m is the closing speed), u along the segment, q0 the agent's
    // position along u.
    float fc_mx[AVOID_MAX_WALLS], fc_mz[AVOID_MAX_WALLS];
    float fc_ux[AVOID_MAX_WALLS], fc_uz[AVOID_MAX_WALLS];
    float fc_q0[AVOID_MAX_WALLS], fc_len[AVOID_MAX_WALLS];
    float fc_gap[AVOID_MAX_WALLS], fc_inv_gap[AVOID_MAX_WALLS];
    uint32_t fc_count;
    // Wall end points (shared ones once): the agent circle against a point.
    float cn_px[AVOID_MAX_CORNERS], cn_pz[AVOID_MAX_CORNERS];
    float cn_c[AVOID_MAX_CORNERS], cn_inv_c[AVOID_MAX_CORNERS];
    uint32_t cn_count;
    // Walls already touched: the same with closing speed v . w, w towards
    // the touching point scaled by the contact scale.
    float tw_x[AVOID_MAX_WALLS], tw_z[AVOID_MAX_WALLS];
    uint32_t tw_count;
} avoid_setup;

static inline float clampf(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }
/// MAXPS and MINPS semantics, so the scalar and SSE paths agree bit for bit.
static inline float maxf(float a, float b) { return a > b ? a : b; }

/// Inverse time of the first impact of a moving circle with a static one:
/// relative velocity (vx, vz), p towards the obstacle, c = |p|^2 - R^2 > 0.
static inline float circle_inv_time(float vx, float vz, float px, float pz, float c, float inv_c) {
    float a = vx * vx + vz * vz;
    float b = vx * px + vz * pz;
    float disc = b * b - a * c;
    // Only the root in the future (b > 0: closing) and a real touch (disc > 0:
    // a graze is no impact). The max keeps sqrt's argument >= 0 without a branch.
    float inv = (b + sqrtf(maxf(disc, 0.0f))) * inv_c;
    return ((b > 0.0f) & (disc > 0.0f)) ? inv : 0.0f;
}

/// Inverse impact time while in contact, from the scaled closing speed.
static inline float contact_inv_time(float closing) {
    return closing > 0.0f ? 1.0f / AVOID_CONTACT_TIME + closing : 0.0f;
}

static inline float neighbour_inv_time(const avoid_setup* s, uint32_t i, float vx, float vz) {
    float rx = vx * s->nb_ia[i] - s->nb_kx[i];
    float rz = vz * s->nb_ia[i] - s->nb_kz[i];
    return circle_inv_time(rx, rz, s->nb_px[i], s->nb_pz[i], s->nb_c[i], s->nb_inv_c[i]);
}

static inline float overlap_inv_time(const avoid_setup* s, uint32_t i, float vx, float vz) {
    float rx = vx * s->ov_ia[i] - s->ov_kx[i];
    float rz = vz * s->ov_ia[i] - s->ov_kz[i];
    return contact_inv_time(rx * s->ov_px[i] + rz * s->ov_pz[i]);
}

// The scalar path (also the reference the SSE path mirrors, op for op).
static inline float minf(float a, float b) { return a < b ? a : b; }

static inline float face_inv_time(const avoid_setup* s, uint32_t i, float vx, float vz) {
    float closing = vx * s->fc_mx[i] + vz * s->fc_mz[i];
    // Where along the segment the circle touches the line, times closing
    // (> 0), so the extent test needs no division.
    float along = s->fc_q0[i] * closing + (vx * s->fc_ux[i] + vz * s->fc_uz[i]) * s->fc_gap[i];
    bool hit = (closing > 0.0f) & (along >= 0.0f) & (along <= s->fc_len[i] * closing);
    return hit ? closing * s->fc_inv_gap[i] : 0.0f;
}

static inline float corner_inv_time(const avoid_setup* s, uint32_t i, float vx, float vz) {
    return circle_inv_time(vx, vz, s->cn_px[i], s->cn_pz[i], s->cn_c[i], s->cn_inv_c[i]);
}

static inline float touching_inv_time(const avoid_setup* s, uint32_t i, float vx, float vz) {
    return contact_inv_time(vx * s->tw_x[i] + vz * s->tw_z[i]);
}

static inline float side_term(const avoid_setup* s, uint32_t i, float vx, float vz) {
    return minf(maxf(s->sd_b[i] - (vx * s->sd_rx[i] + vz * s->sd_rz[i]), 0.0f), 1.0f);
}

/// Largest inverse impact time of one velocity over every obstacle.
static inline float max_inv_time(const avoid_setup* s, float vx, float vz) {
    float inv = 0.0f;
    for (uint32_t i = 0; i < s->nb_count; ++i) {
        inv = maxf(inv, neighbour_inv_time(s, i, vx, vz));
    }
    for (uint32_t i = 0; i < s->ov_count; ++i) {
        inv = maxf(inv, overlap_inv_time(s, i, vx, vz));
    }
    for (uint32_t i = 0; i < s->fc_count; ++i) {
        inv = maxf(inv, face_inv_time(s, i, vx, vz));
    }
    for (uint32_t i = 0; i < s->cn_count; ++i) {
        inv = maxf(inv, corner_inv_time(s, i, vx, vz));
    }
    for (uint32_t i = 0; i < s->tw_count; ++i) {
        inv = maxf(inv, touching_inv_time(s, i, vx, vz));
    }
    return inv;
}

/// Score weights folded with their normalizations.
typedef struct avoid_weights {
    float desired;  ///< weight_desired / max_speed
    float current;  ///< weight_current / max_speed
    float side;     ///< weight_side / neighbours in the way (0 when none)
    float impact;   ///< weight_impact
    float inv_horizon;
    float dvx, dvz; ///< desired velocity
    float vx, vz;   ///< current velocity
} avoid_weights;

/// The running best candidate: the first of the lowest score wins.
typedef struct avoid_best {
    float vx, vz;
    float score;
} avoid_best;

static inline float score_of(const avoid_weights* w, float vx, float vz, float inv, float side) {
    float ddx = vx - w->dvx, ddz = vz - w->dvz;
    float cdx = vx - w->vx, cdz = vz - w->vz;
    // Impacts beyond the horizon do not count; the penalty fades to 0 at
    // the horizon instead of jumping, so choices do not flicker as an
    // impact time crosses it.
    float impact = maxf(inv - w->inv_horizon, 0.0f);
    return w->desired * sqrtf(ddx * ddx + ddz * ddz) + w->current * sqrtf(cdx * cdx + cdz * cdz) +
           w->side * side + w->impact * impact;
}

/// score_of over every obstacle, one candidate at a time.
static void scalar_score(const avoid_setup* s, const avoid_weights* w, const float* vxs,
                         const float* vzs, uint32_t n, float* out_score) {
    for (uint32_t j = 0; j < n; ++j) {
        float sd = 0.0f;
        for (uint32_t i = 0; i < s->sd_count; ++i) {
            sd += side_term(s, i, vxs[j], vzs[j]);
        }
        out_score[j] = score_of(w, vxs[j], vzs[j], max_inv_time(s, vxs[j], vzs[j]), sd);
    }
}

#if AVOID_SSE
static inline __m128 sse_max(__m128 a, __m128 b) { return _mm_max_ps(a, b); }
/// hit ? v : +0, the scalar ternaries' result.
static inline __m128 sse_select(__m128 mask, __m128 v) { return _mm_and_ps(mask, v); }

static inline __m128 sse_circle(__m128 vx, __m128 vz, float px, float pz, float c, float inv_c) {
    __m128 a = _mm_add_ps(_mm_mul_ps(vx, vx), _mm_mul_ps(vz, vz));
    __m128 b = _mm_add_ps(_mm_mul_ps(vx, _mm_set1_ps(px)), _mm_mul_ps(vz, _mm_set1_ps(pz)));
    __m128 disc = _mm_sub_ps(_mm_mul_ps(b, b), _mm_mul_ps(a, _mm_set1_ps(c)));
    __m128 zero = _mm_setzero_ps();
    __m128 inv = _mm_mul_ps(_mm_add_ps(b, _mm_sqrt_ps(sse_max(disc, zero))), _mm_set1_ps(inv_c));
    __m128 hit = _mm_and_ps(_mm_cmpgt_ps(b, zero), _mm_cmpgt_ps(disc, zero));
    return sse_select(hit, inv);
}

static inline __m128 sse_contact(__m128 closing) {
    __m128 hit = _mm_cmpgt_ps(closing, _mm_setzero_ps());
    return sse_select(hit, _mm_add_ps(_mm_set1_ps(1.0f / AVOID_CONTACT_TIME), closing));
}

/// max_inv_time for four velocities.
static inline __m128 sse_max_inv(const avoid_setup* s, __m128 x, __m128 z) {
    __m128 inv = _mm_setzero_ps();
    for (uint32_t i = 0; i < s->nb_count; ++i) {
        __m128 ia = _mm_set1_ps(s->nb_ia[i]);
        __m128 rx = _mm_sub_ps(_mm_mul_ps(x, ia), _mm_set1_ps(s->nb_kx[i]));
        __m128 rz = _mm_sub_ps(_mm_mul_ps(z, ia), _mm_set1_ps(s->nb_kz[i]));
        inv = sse_max(inv, sse_circle(rx, rz, s->nb_px[i], s->nb_pz[i], s->nb_c[i],
                                      s->nb_inv_c[i]));
    }
    for (uint32_t i = 0; i < s->ov_count; ++i) {
        __m128 ia = _mm_set1_ps(s->ov_ia[i]);
        __m128 rx = _mm_sub_ps(_mm_mul_ps(x, ia), _mm_set1_ps(s->ov_kx[i]));
        __m128 rz = _mm_sub_ps(_mm_mul_ps(z, ia), _mm_set1_ps(s->ov_kz[i]));
        __m128 closing = _mm_add_ps(_mm_mul_ps(rx, _mm_set1_ps(s->ov_px[i])),
                                    _mm_mul_ps(rz, _mm_set1_ps(s->ov_pz[i])));
        inv = sse_max(inv, sse_contact(closing));
    }
    for (uint32_t i = 0; i < s->fc_count; ++i) {
        __m128 closing = _mm_add_ps(_mm_mul_ps(x, _mm_set1_ps(s->fc_mx[i])),
                                    _mm_mul_ps(z, _mm_set1_ps(s->fc_mz[i])));
        __m128 vu = _mm_add_ps(_mm_mul_ps(x, _mm_set1_ps(s->fc_ux[i])),
                               _mm_mul_ps(z, _mm_set1_ps(s->fc_uz[i])));
        __m128 along = _mm_add_ps(_mm_mul_ps(_mm_set1_ps(s->fc_q0[i]), closing),
                                  _mm_mul_ps(vu, _mm_set1_ps(s->fc_gap[i])));
        __m128 zero = _mm_setzero_ps();
        __m128 hit = _mm_and_ps(
            _mm_and_ps(_mm_cmpgt_ps(closing, zero), _mm_cmpge_ps(along, zero)),
            _mm_cmple_ps(along, _mm_mul_ps(_mm_set1_ps(s->fc_len[i]), closing)));
        inv = sse_max(inv, sse_select(hit, _mm_mul_ps(closing, _mm_set1_ps(s->fc_inv_gap[i]))));
    }
    for (uint32_t i = 0; i < s->cn_count; ++i) {
        inv = sse_max(inv, sse_circle(x, z, s->cn_px[i], s->cn_pz[i], s->cn_c[i],
                                      s->cn_inv_c[i]));
    }
    for (uint32_t i = 0; i < s->tw_count; ++i) {
        __m128 closing = _mm_add_ps(_mm_mul_ps(x, _mm_set1_ps(s->tw_x[i])),
                                    _mm_mul_ps(z, _mm_set1_ps(s->tw_z[i])));
        inv = sse_max(inv, sse_contact(closing));
    }
    return inv;
}

/// score_of over every obstacle, four candidates at a time.
static void sse_score(const avoid_setup* s, const avoid_weights* w, const float* vxs,
                      const float* vzs, uint32_t n, float* out_score) {
    for (uint32_t j = 0; j < n; j += 4u) {
        __m128 x = _mm_load_ps(vxs + j), z = _mm_load_ps(vzs + j);
        __m128 inv = sse_max_inv(s, x, z);
        __m128 side = _mm_setzero_ps();
        for (uint32_t i = 0; i < s->sd_count; ++i) {
            __m128 lat = _mm_add_ps(_mm_mul_ps(x, _mm_set1_ps(s->sd_rx[i])),
                                    _mm_mul_ps(z, _mm_set1_ps(s->sd_rz[i])));
            __m128 t = _mm_sub_ps(_mm_set1_ps(s->sd_b[i]), lat);
            side = _mm_add_ps(side, _mm_min_ps(sse_max(t, _mm_setzero_ps()), _mm_set1_ps(1.0f)));
        }
        __m128 ddx = _mm_sub_ps(x, _mm_set1_ps(w->dvx)), ddz = _mm_sub_ps(z, _mm_set1_ps(w->dvz));
        __m128 cdx = _mm_sub_ps(x, _mm_set1_ps(w->vx)), cdz = _mm_sub_ps(z, _mm_set1_ps(w->vz));
        __m128 impact = sse_max(_mm_sub_ps(inv, _mm_set1_ps(w->inv_horizon)), _mm_setzero_ps());
        __m128 d = _mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(ddx, ddx), _mm_mul_ps(ddz, ddz)));
        __m128 c = _mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(cdx, cdx), _mm_mul_ps(cdz, cdz)));
        __m128 score = _mm_add_ps(_mm_mul_ps(_mm_set1_ps(w->desired), d),
                                  _mm_mul_ps(_mm_set1_ps(w->current), c));
        score = _mm_add_ps(score, _mm_mul_ps(_mm_set1_ps(w->side), side));
        score = _mm_add_ps(score, _mm_mul_ps(_mm_set1_ps(w->impact), impact));
        _mm_store_ps(out_score + j, score);
    }
}
#endif

#if AVOID_AVX
static inline AVX_FN __m256 avx_select(__m256 mask, __m256 v) { return _mm256_and_ps(mask, v); }

static inline AVX_FN __m256 avx_circle(__m256 vx, __m256 vz, float px, float pz, float c,
                                       float inv_c) {
    __m256 a = _mm256_add_ps(_mm256_mul_ps(vx, vx), _mm256_mul_ps(vz, vz));
    __m256 b = _mm256_add_ps(_mm256_mul_ps(vx, _mm256_set1_ps(px)),
                             _mm256_mul_ps(vz, _mm256_set1_ps(pz)));
    __m256 disc = _mm256_sub_ps(_mm256_mul_ps(b, b), _mm256_mul_ps(a, _mm256_set1_ps(c)));
    __m256 zero = _mm256_setzero_ps();
    __m256 inv = _mm256_mul_ps(_mm256_add_ps(b, _mm256_sqrt_ps(_mm256_max_ps(disc, zero))),
                               _mm256_set1_ps(inv_c));
    __m256 hit = _mm256_and_ps(_mm256_cmp_ps(b, zero, _CMP_GT_OQ),
                               _mm256_cmp_ps(disc, zero, _CMP_GT_OQ));
    return avx_select(hit, inv);
}

static inline AVX_FN __m256 avx_contact(__m256 closing) {
    __m256 hit = _mm256_cmp_ps(closing, _mm256_setzero_ps(), _CMP_GT_OQ);
    return avx_select(hit, _mm256_add_ps(_mm256_set1_ps(1.0f / AVOID_CONTACT_TIME), closing));
}

/// sse_max_inv for eight velocities.
static inline AVX_FN __m256 avx_max_inv(const avoid_setup* s, __m256 x, __m256 z) {
    __m256 inv = _mm256_setzero_ps();
    for (uint32_t i = 0; i < s->nb_count; ++i) {
        __m256 ia = _mm256_set1_ps(s->nb_ia[i]);
        __m256 rx = _mm256_sub_ps(_mm256_mul_ps(x, ia), _mm256_set1_ps(s->nb_kx[i]));
        __m256 rz = _mm256_sub_ps(_mm256_mul_ps(z, ia), _mm256_set1_ps(s->nb_kz[i]));
        inv = _mm256_max_ps(inv, avx_circle(rx, rz, s->nb_px[i], s->nb_pz[i], s->nb_c[i],
                                            s->nb_inv_c[i]));
    }
    for (uint32_t i = 0; i < s->ov_count; ++i) {
        __m256 ia = _mm256_set1_ps(s->ov_ia[i]);
        __m256 rx = _mm256_sub_ps(_mm256_mul_ps(x, ia), _mm256_set1_ps(s->ov_kx[i]));
        __m256 rz = _mm256_sub_ps(_mm256_mul_ps(z, ia), _mm256_set1_ps(s->ov_kz[i]));
        __m256 closing = _mm256_add_ps(_mm256_mul_ps(rx, _mm256_set1_ps(s->ov_px[i])),
                                       _mm256_mul_ps(rz, _mm256_set1_ps(s->ov_pz[i])));
        inv = _mm256_max_ps(inv, avx_contact(closing));
    }
    for (uint32_t i = 0; i < s->fc_count; ++i) {
        __m256 closing = _mm256_add_ps(_mm256_mul_ps(x, _mm256_set1_ps(s->fc_mx[i])),
                                       _mm256_mul_ps(z, _mm256_set1_ps(s->fc_mz[i])));
        __m256 vu = _mm256_add_ps(_mm256_mul_ps(x, _mm256_set1_ps(s->fc_ux[i])),
                                  _mm256_mul_ps(z, _mm256_set1_ps(s->fc_uz[i])));
        __m256 along = _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(s->fc_q0[i]), closing),
                                     _mm256_mul_ps(vu, _mm256_set1_ps(s->fc_gap[i])));
        __m256 zero = _mm256_setzero_ps();
        __m256 hit = _mm256_and_ps(
            _mm256_and_ps(_mm256_cmp_ps(closing, zero, _CMP_GT_OQ),
                          _mm256_cmp_ps(along, zero, _CMP_GE_OQ)),
            _mm256_cmp_ps(along, _mm256_mul_ps(_mm256_set1_ps(s->fc_len[i]), closing),
                          _CMP_LE_OQ));
        inv = _mm256_max_ps(
            inv, avx_select(hit, _mm256_mul_ps(closing, _mm256_set1_ps(s->fc_inv_gap[i]))));
    }
    for (uint32_t i = 0; i < s->cn_count; ++i) {
        inv = _mm256_max_ps(inv, avx_circle(x, z, s->cn_px[i], s->cn_pz[i], s->cn_c[i],
                                            s->cn_inv_c[i]));
    }
    for (uint32_t i = 0; i < s->tw_count; ++i) {
        __m256 closing = _mm256_add_ps(_mm256_mul_ps(x, _mm256_set1_ps(s->tw_x[i])),
                                       _mm256_mul_ps(z, _mm256_set1_ps(s->tw_z[i])));
        inv = _mm256_max_ps(inv, avx_contact(closing));
    }
    return inv;
}

/// sse_score, eight candidates at a time.
static AVX_FN void avx_score(const avoid_setup* s, const avoid_weights* w, const float* vxs,
                             const float* vzs, uint32_t n, float* out_score) {
    for (uint32_t j = 0; j < n; j += 8u) {
        __m256 x = _mm256_loadu_ps(vxs + j), z = _mm256_loadu_ps(vzs + j);
        __m256 inv = avx_max_inv(s, x, z);
        __m256 side = _mm256_setzero_ps();
        for (uint32_t i = 0; i < s->sd_count; ++i) {
            __m256 lat = _mm256_add_ps(_mm256_mul_ps(x, _mm256_set1_ps(s->sd_rx[i])),
                                       _mm256_mul_ps(z, _mm256_set1_ps(s->sd_rz[i])));
            __m256 t = _mm256_sub_ps(_mm256_set1_ps(s->sd_b[i]), lat);
            side = _mm256_add_ps(side, _mm256_min_ps(_mm256_max_ps(t, _mm256_setzero_ps()),
                                                     _mm256_set1_ps(1.0f)));
        }
        __m256 ddx = _mm256_sub_ps(x, _mm256_set1_ps(w->dvx));
        __m256 ddz = _mm256_sub_ps(z, _mm256_set1_ps(w->dvz));
        __m256 cdx = _mm256_sub_ps(x, _mm256_set1_ps(w->vx));
        __m256 cdz = _mm256_sub_ps(z, _mm256_set1_ps(w->vz));
        __m256 impact = _mm256_max_ps(_mm256_sub_ps(inv, _mm256_set1_ps(w->inv_horizon)),
                                      _mm256_setzero_ps());
        __m256 d = _mm256_sqrt_ps(_mm256_add_ps(_mm256_mul_ps(ddx, ddx), _mm256_mul_ps(ddz, ddz)));
        __m256 c = _mm256_sqrt_ps(_mm256_add_ps(_mm256_mul_ps(cdx, cdx), _mm256_mul_ps(cdz, cdz)));
        __m256 score = _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(w->desired), d),
                                     _mm256_mul_ps(_mm256_set1_ps(w->current), c));
        score = _mm256_add_ps(score, _mm256_mul_ps(_mm256_set1_ps(w->side), side));
        score = _mm256_add_ps(score, _mm256_mul_ps(_mm256_set1_ps(w->impact), impact));
        _mm256_storeu_ps(out_score + j, score);
    }
}
#endif

bool wf_avoidance_kernel_available(wf_avoid_kernel kernel) {
    switch (kernel) {
    case WF_AVOID_KERNEL_AUTO:
    case WF_AVOID_KERNEL_SCALAR:
        return true;
    case WF_AVOID_KERNEL_SSE2:
        return AVOID_SSE != 0;
    case WF_AVOID_KERNEL_AVX:
#if AVOID_AVX
        return __builtin_cpu_supports("avx");
#else
        return false;
#endif
    }
    return false;
}

/// The kernel AUTO means: the widest this build and processor run.
static wf_avoid_kernel resolve_kernel(wf_avoid_kernel kernel) {
    if (kernel != WF_AVOID_KERNEL_AUTO && wf_avoidance_kernel_available(kernel)) {
        return kernel;
    }
    if (wf_avoidance_kernel_available(WF_AVOID_KERNEL_AVX)) {
        return WF_AVOID_KERNEL_AVX;
    }
    return AVOID_SSE ? WF_AVOID_KERNEL_SSE2 : WF_AVOID_KERNEL_SCALAR;
}

/// Scores candidates (vx, vz)[0..n) with `kernel` (resolved) and keeps the
/// best in *best (the first of equal scores). The arrays have room for n
/// rounded up to eight.
static void score_batch(wf_avoid_kernel kernel, const avoid_setup* s, const avoid_weights* w,
                        float* vx, float* vz, uint32_t n, avoid_best* best) {
    _Alignas(32) float score[AVOID_BATCH_STORAGE];
    // Pad the last group with copies of the last candidate.
    uint32_t padded = kernel == WF_AVOID_KERNEL_AVX    ? (n + 7u) & ~7u
                      : kernel == WF_AVOID_KERNEL_SSE2 ? (n + 3u) & ~3u
                                                       : n;
    for (uint32_t j = n; j < padded; ++j) {
        vx[j] = vx[n - 1u];
        vz[j] = vz[n - 1u];
    }
    switch (kernel) {
#if AVOID_AVX
    case WF_AVOID_KERNEL_AVX:
        avx_score(s, w, vx, vz, padded, score);
        break;
#endif
#if AVOID_SSE
    case WF_AVOID_KERNEL_SSE2:
        sse_score(s, w, vx, vz, padded, score);
        break;
#endif
    default:
        scalar_score(s, w, vx, vz, padded, score);
        break;
    }
    for (uint32_t j = 0; j < n; ++j) {
        if (score[j] < best->score) {
            best->score = score[j];
            best->vx = vx[j];
            best->vz = vz[j];
        }
    }
}

/// Scales (x, z) back onto the max_speed disc when rounding put it outside.
static inline void clamp_speed(float* x, float* z, float max_speed) {
    float len_sq = *x * *x + *z * *z;
    if (len_sq > max_speed * max_speed) {
        float k = max_speed / sqrtf(len_sq);
        *x *= k;
        *z *= k;
    }
}

static bool finite_nonneg(float x) { return isfinite(x) && x >= 0.0f; }

bool wf_avoidance_params_valid(const wf_avoidance_params* params) {
    if (params == NULL) {
        return false;
    }
    const wf_avoidance_params* p = params;
    if (!finite_nonneg(p->weight_desired) || !finite_nonneg(p->weight_current) ||
        !finite_nonneg(p->weight_side) || !finite_nonneg(p->weight_impact)) {
        return false;
    }
    if (!(isfinite(p->horizon_time) && p->horizon_time > 0.0f)) {
        return false;
    }
    if (!(p->velocity_bias >= 0.0f && p->velocity_bias <= 1.0f)) {
        return false;
    }
    if (!(p->min_range_scale > 0.0f && p->min_range_scale <= 1.0f)) {
        return false;
    }
    if (p->adaptive_divisions > 0u) {
        return p->adaptive_divisions <= 32u && p->adaptive_rings >= 1u && p->adaptive_rings <= 4u &&
               p->adaptive_depth >= 1u && p->adaptive_depth <= 5u;
    }
    return p->grid_size >= 3u && p->grid_size <= 64u;
}

/// Share of the avoiding self takes against a neighbour: the lower rank
/// yields more.
static float avoid_share(uint32_t self_rank, uint32_t other_rank) {
    if (self_rank == other_rank) {
        return 0.5f;
    }
    return self_rank < other_rank ? 0.75f : 0.25f;
}

/// Fills the obstacle constants (culling what cannot be reached within the
/// horizon) and the side terms of every neighbour kept. Returns false when
/// nothing is left.
static bool setup_obstacles(avoid_setup* s, const wf_avoidance_params* params,
                            const wf_avoid_agent* self, const wf_avoid_neighbour* neighbours,
                            uint32_t neighbour_count, const wf_vec3* walls, uint32_t wall_count) {
    const float horizon = params->horizon_time;
    const float r = self->radius;
    const float vel_len = sqrtf(self->vel.x * self->vel.x + self->vel.z * self->vel.z);
    const float side_k = 1.0f / (AVOID_SIDE_SATURATION * self->max_speed);
    s->nb_count = s->ov_count = s->sd_count = 0;
    s->fc_count = s->cn_count = s->tw_count = 0;

    if (neighbour_count > AVOID_MAX_NEIGHBOURS) {
        neighbour_count = AVOID_MAX_NEIGHBOURS;
    }
    for (uint32_t i = 0; i < neighbour_count; ++i) {
        const wf_avoid_neighbour* nb = &neighbours[i];
        float px = nb->pos.x - self->pos.x, pz = nb->pos.z - self->pos.z;
        float dist_sq = px * px + pz * pz;
        float rsum = r + nb->radius;
        float alpha = avoid_share(self->rank, nb->rank);
        float ia = 1.0f / alpha;
        float k = (1.0f - alpha) * ia;
        float kx = self->vel.x * k + nb->vel.x, kz = self->vel.z * k + nb->vel.z;
        float c = dist_sq - rsum * rsum;
        if (c > 0.0f) {
            // The fastest closing speed any candidate can reach.
            float nb_speed = sqrtf(nb->vel.x * nb->vel.x + nb->vel.z * nb->vel.z);
            float reach = ((self->max_speed + (1.0f - alpha) * vel_len) * ia + nb_speed) * horizon;
            float gap = sqrtf(dist_sq) - rsum;
            if (gap > reach) {
                continue;
            }
            uint32_t n = s->nb_count++;
            s->nb_px[n] = px;
            s->nb_pz[n] = pz;
            s->nb_ia[n] = ia;
            s->nb_kx[n] = kx;
            s->nb_kz[n] = kz;
            s->nb_c[n] = maxf(c, AVOID_MIN_CLEARANCE_SQ);
            s->nb_inv_c[n] = 1.0f / s->nb_c[n];
            s->sd_source[s->sd_count] = n;
        } else {
            if (dist_sq <= 0.0f) {
                continue; // same spot: no direction to prefer (separation's job)
            }
            // vr . p over |p| is the closing speed; over the contact gap, 1 / t.
            float scale = 1.0f / (sqrtf(dist_sq) * AVOID_CONTACT_GAP * rsum);
            uint32_t n = s->ov_count++;
            s->ov_px[n] = px * scale;
            s->ov_pz[n] = pz * scale;
            s->ov_ia[n] = ia;
            s->ov_kx[n] = kx;
            s->ov_kz[n] = kz;
            s->sd_source[s->sd_count] = AVOID_MAX_NEIGHBOURS + n;
        }
        // Side term: the right of the line of sight d is (-d.z, d.x) on XZ
        // (X right, Z down seen from above: facing +X, the right hand points
        // to +Z). Drifting left relative to the neighbour's motion costs.
        float inv_len = 1.0f / sqrtf(dist_sq);
        float sx = -pz * inv_len * side_k, sz = px * inv_len * side_k;
        uint32_t m = s->sd_count++;
        s->sd_rx[m] = sx;
        s->sd_rz[m] = sz;
        s->sd_b[m] = nb->vel.x * sx + nb->vel.z * sz;
    }

    if (wall_count > AVOID_MAX_WALLS) {
        wall_count = AVOID_MAX_WALLS;
    }
    const float wall_reach = self->max_speed * horizon;
    // Walls bound where the centre may go (the navmesh is eroded by the
    // radius already): against them the agent is a circle of skin radius.
    // The full radius would keep it a second radius off every wall and
    // wedge it in doorways narrower than itself.
    const float rw = r * WF_AVOID_WALL_SKIN;
    for (uint32_t i = 0; i < wall_count; ++i) {
        float ax = walls[2 * i].x - self->pos.x, az = walls[2 * i].z - self->pos.z;
        float bx = walls[2 * i + 1].x - self->pos.x, bz = walls[2 * i + 1].z - self->pos.z;
        float ex = bx - ax, ez = bz - az;
        float len_sq = ex * ex + ez * ez;
        // Closest point of the segment to the agent (the origin here).
        float t = len_sq > 0.0f ? clampf(-(ax * ex + az * ez) / len_sq, 0.0f, 1.0f) : 0.0f;
        float wx = ax + ex * t, wz = az + ez * t;
        float dist_sq = wx * wx + wz * wz;
        if (dist_sq < rw * rw) {
            if (dist_sq <= 0.0f) {
                continue; // centre on the wall: no "into" direction
            }
            float scale = 1.0f / (sqrtf(dist_sq) * AVOID_CONTACT_GAP * rw);
            uint32_t n = s->tw_count++;
            s->tw_x[n] = wx * scale;
            s->tw_z[n] = wz * scale;
            continue;
        }
        if (sqrtf(dist_sq) - rw > wall_reach) {
            continue;
        }
        if (len_sq > 0.0f) {
            float len = sqrtf(len_sq);
            float ux = ex / len, uz = ez / len;
            float nx = -uz, nz = ux;
            float d = -(ax * nx + az * nz); // agent along n from the line
            if (d < 0.0f) {
                nx = -nx;
                nz = -nz;
                d = -d;
            }
            // With the circle already across the infinite line (beside the
            // segment, past an end) only the end points can be hit.
            float gap = d - rw;
            if (gap > 1e-6f) {
                uint32_t n = s->fc_count++;
                s->fc_mx[n] = -nx;
                s->fc_mz[n] = -nz;
                s->fc_ux[n] = ux;
                s->fc_uz[n] = uz;
                s->fc_q0[n] = -(ax * ux + az * uz);
                s->fc_len[n] = len;
                s->fc_gap[n] = gap;
                s->fc_inv_gap[n] = 1.0f / gap;
            }
        }
        // End points; walls of one boundary share them, so keep each once.
        const float ends[2][2] = {{ax, az}, {bx, bz}};
        for (uint32_t e = 0; e < (len_sq > 0.0f ? 2u : 1u); ++e) {
            float px = ends[e][0], pz = ends[e][1];
            bool seen = false;
            for (uint32_t k = 0; k < s->cn_count; ++k) {
                seen = seen || (s->cn_px[k] == px && s->cn_pz[k] == pz);
            }
            if (seen) {
                continue;
            }
            uint32_t n = s->cn_count++;
            s->cn_px[n] = px;
            s->cn_pz[n] = pz;
            s->cn_c[n] = maxf(px * px + pz * pz - rw * rw, AVOID_MIN_CLEARANCE_SQ);
            s->cn_inv_c[n] = 1.0f / s->cn_c[n];
        }
    }
    return s->nb_count + s->ov_count + s->fc_count + s->cn_count + s->tw_count > 0u;
}

/// Keeps the side terms of the neighbours the desired velocity runs into
/// within the horizon (the ones whose side matters), in input order.
static void keep_side_terms(avoid_setup* s, const wf_avoidance_params* params, float dvx,
                            float dvz) {
    const float inv_horizon = 1.0f / params->horizon_time;
    uint32_t kept = 0;
    for (uint32_t m = 0; m < s->sd_count; ++m) {
        uint32_t src = s->sd_source[m];
        float inv = src < AVOID_MAX_NEIGHBOURS
                        ? neighbour_inv_time(s, src, dvx, dvz)
                        : overlap_inv_time(s, src - AVOID_MAX_NEIGHBOURS, dvx, dvz);
        if (inv > inv_horizon) {
            s->sd_rx[kept] = s->sd_rx[m];
            s->sd_rz[kept] = s->sd_rz[m];
            s->sd_b[kept] = s->sd_b[m];
            ++kept;
        }
    }
    s->sd_count = kept;
}

wf_vec3 wf_avoidance_sample(const wf_avoidance_params* params, const wf_avoid_agent* self,
                            const wf_avoid_neighbour* neighbours, uint32_t neighbour_count,
                            const wf_vec3* walls, uint32_t wall_count, uint32_t* out_samples) {
    return wf_avoidance_sample_with(WF_AVOID_KERNEL_AUTO, params, self, neighbours,
                                    neighbour_count, walls, wall_count, out_samples);
}

wf_vec3 wf_avoidance_sample_with(wf_avoid_kernel kernel, const wf_avoidance_params* params,
                                 const wf_avoid_agent* self, const wf_avoid_neighbour* neighbours,
                                 uint32_t neighbour_count, const wf_vec3* walls,
                                 uint32_t wall_count, uint32_t* out_samples) {
    const float max_speed = self->max_speed;
    if (out_samples != NULL) {
        *out_samples = 0u;
    }
    if (!(max_speed > 0.0f)) {
        return wf_v3(0.0f, 0.0f, 0.0f);
    }
    float dvx = self->dvel.x, dvz = self->dvel.z;
    clamp_speed(&dvx, &dvz, max_speed);

    avoid_setup s;
    if (!setup_obstacles(&s, params, self, neighbours, neighbour_count, walls, wall_count)) {
        return wf_v3(dvx, 0.0f, dvz);
    }
    keep_side_terms(&s, params, dvx, dvz);
    kernel = resolve_kernel(kernel);

    // Range adaption from the first impact at the desired velocity: narrow
    // while it is far (fine corrections suffice), full when imminent.
    const float horizon = params->horizon_time;
#if AVOID_SSE
    float desired_inv =
        kernel == WF_AVOID_KERNEL_SCALAR
            ? max_inv_time(&s, dvx, dvz)
            : _mm_cvtss_f32(sse_max_inv(&s, _mm_set1_ps(dvx), _mm_set1_ps(dvz)));
#else
    float desired_inv = max_inv_time(&s, dvx, dvz);
#endif
    float far = desired_inv * horizon > 1.0f ? 1.0f / (desired_inv * horizon) : 1.0f;
    float range_scale = params->min_range_scale + (1.0f - params->min_range_scale) * (1.0f - far);

    avoid_weights w;
    w.desired = params->weight_desired / max_speed;
    w.current = params->weight_current / max_speed;
    w.side = s.sd_count > 0u ? params->weight_side / (float)s.sd_count : 0.0f;
    w.impact = params->weight_impact;
    w.inv_horizon = 1.0f / horizon;
    w.dvx = dvx;
    w.dvz = dvz;
    w.vx = self->vel.x;
    w.vz = self->vel.z;

    // The pattern's frame: forward along the desired velocity (else the
    // current one, else +X), so left and right samples mirror each other.
    float fx = 1.0f, fz = 0.0f;
    float dlen_sq = dvx * dvx + dvz * dvz;
    float vlen_sq = self->vel.x * self->vel.x + self->vel.z * self->vel.z;
    if (dlen_sq > 1e-12f) {
        float inv = 1.0f / sqrtf(dlen_sq);
        fx = dvx * inv;
        fz = dvz * inv;
    } else if (vlen_sq > 1e-12f) {
        float inv = 1.0f / sqrtf(vlen_sq);
        fx = self->vel.x * inv;
        fz = self->vel.z * inv;
    }
    const float rx = -fz, rz = fx; // right of forward

    // The full pattern is centred at desired * bias with radius
    // max_speed * (1 - bias); a narrowed range scales it about the desired
    // velocity, so the desired velocity stays inside it.
    const float bias = params->velocity_bias;
    const float keep = 1.0f - (1.0f - bias) * range_scale;
    float cx = dvx * keep, cz = dvz * keep;
    float radius = max_speed * (1.0f - bias) * range_scale;

    avoid_best best = {0.0f, 0.0f, INFINITY};
    _Alignas(16) float bx[AVOID_BATCH_STORAGE], bz[AVOID_BATCH_STORAGE];
    uint32_t samples = 0;

    if (params->adaptive_divisions > 0u) {
        const uint32_t divs = params->adaptive_divisions;
        const uint32_t rings = params->adaptive_rings;
        // Unit directions at half steps (pi / divs) in the forward frame:
        // the first half by rotation, the second as its mirror image, so the
        // pattern is exactly symmetric about the forward axis.
        float dir_c[64], dir_s[64];
        const float hc = half_step[divs - 1u][0], hs = half_step[divs - 1u][1];
        dir_c[0] = 1.0f;
        dir_s[0] = 0.0f;
        for (uint32_t m = 1; m <= divs; ++m) {
            dir_c[m] = dir_c[m - 1] * hc - dir_s[m - 1] * hs;
            dir_s[m] = dir_s[m - 1] * hc + dir_c[m - 1] * hs;
        }
        dir_c[divs] = -1.0f;
        dir_s[divs] = 0.0f;
        for (uint32_t m = divs + 1u; m < 2u * divs; ++m) {
            dir_c[m] = dir_c[2u * divs - m];
            dir_s[m] = -dir_s[2u * divs - m];
        }
        // Pattern offsets in world XZ for a unit radius, computed once.
        float off_x[128], off_z[128];
        uint32_t offsets = 0;
        for (uint32_t ring = 1; ring <= rings; ++ring) {
            float rr = (float)ring / (float)rings;
            uint32_t shift = (ring - 1u) & 1u; // alternate rings: half a step
            for (uint32_t k = 0; k < divs; ++k) {
                uint32_t m = 2u * k + shift;
                float lc = dir_c[m] * rr, ls = dir_s[m] * rr;
                off_x[offsets] = fx * lc + rx * ls;
                off_z[offsets] = fz * lc + rz * ls;
                ++offsets;
            }
        }
        for (uint32_t pass = 0; pass < params->adaptive_depth; ++pass) {
            uint32_t n = 0;
            if (pass == 0u) {
                bx[n] = cx;
                bz[n] = cz;
                clamp_speed(&bx[n], &bz[n], max_speed);
                ++n;
            } else {
                // Refine around the best so far (already scored).
                cx = best.vx;
                cz = best.vz;
                radius *= 0.5f;
            }
            for (uint32_t o = 0; o < offsets; ++o) {
                bx[n] = cx + off_x[o] * radius;
                bz[n] = cz + off_z[o] * radius;
                clamp_speed(&bx[n], &bz[n], max_speed);
                ++n;
            }
            score_batch(kernel, &s, &w, bx, bz, n, &best);
            samples += n;
        }
    } else {
        const uint32_t g = params->grid_size;
        const float step = 2.0f * radius / (float)(g - 1u);
        const float limit_sq = max_speed * max_speed;
        uint32_t n = 0;
        for (uint32_t iy = 0; iy < g; ++iy) {
            float a = -radius + step * (float)iy; // along forward
            for (uint32_t ix = 0; ix < g; ++ix) {
                float b = -radius + step * (float)ix; // along right
                float x = cx + fx * a + rx * b;
                float z = cz + fz * a + rz * b;
                if (x * x + z * z > limit_sq) {
                    continue;
                }
                bx[n] = x;
                bz[n] = z;
                if (++n == AVOID_BATCH) {
                    score_batch(kernel, &s, &w, bx, bz, n, &best);
                    samples += n;
                    n = 0;
                }
            }
        }
        if (n > 0u) {
            score_batch(kernel, &s, &w, bx, bz, n, &best);
            samples += n;
        }
        if (samples == 0u) {
            // Every grid point outside the disc cannot happen (the centre is
            // inside), but a degenerate radius must still answer.
            best.vx = cx;
            best.vz = cz;
        }
    }

    if (out_samples != NULL) {
        *out_samples = samples;
    }
    return wf_v3(best.vx, 0.0f, best.vz);
}
