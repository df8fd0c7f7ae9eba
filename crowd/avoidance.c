// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Velocity-sampling avoidance. The obstacles are turned once per call into
// flat arrays of per-obstacle constants; candidates are then scored by one
// kernel (avoidance_kernel.inl) built at three widths: eight at a time with
// AVX where the processor has it, four with SSE2 where the target has it,
// else one at a time. Every width does the same IEEE operations in the same
// order (float_lanes.h), so they give the same bits: the choice does not
// depend on the build, and tests run all of them (wf_avoidance_sample_with).
//
// Impacts are kept as inverse times (1 / t): the earliest impact is the
// largest inverse, "no impact" is 0, and the circle root needs no division
// (1 / t = (b + sqrt(b^2 - a c)) / c with 1 / c known per obstacle).
#include "crowd/avoidance.h"

#include <math.h>
#include <stddef.h>

#include "crowd/float_lanes.h"

/// Candidates scored per batch (the adaptive pattern needs 1 + 32 x 4),
/// plus room to pad the last group of eight.
#define AVOID_BATCH 132u
#define AVOID_BATCH_STORAGE (AVOID_BATCH + 8u)
/// Most obstacles read; the crowd never passes more.
#define AVOID_MAX_NEIGHBOURS WF_CROWD_MAX_NEIGHBOURS
#define AVOID_MAX_WALLS WF_CROWD_MAX_WALLS
#define AVOID_MAX_CORNERS (2u * AVOID_MAX_WALLS)
// max_inv_of reads whole groups of 8 lanes past each count.
_Static_assert(AVOID_MAX_NEIGHBOURS % 8u == 0 && AVOID_MAX_WALLS % 8u == 0,
               "obstacle arrays sized in multiples of 8");
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
    struct {
        float px[AVOID_MAX_NEIGHBOURS], pz[AVOID_MAX_NEIGHBOURS];
        float ia[AVOID_MAX_NEIGHBOURS];
        float kx[AVOID_MAX_NEIGHBOURS], kz[AVOID_MAX_NEIGHBOURS];
        float c[AVOID_MAX_NEIGHBOURS], inv_c[AVOID_MAX_NEIGHBOURS];
        uint32_t count;
    } neighbours;
    // Overlapping neighbours: closing speed vr . p (p scaled by the contact
    // scale) gives 1 / t = 1 / AVOID_CONTACT_TIME + closing, or 0.
    struct {
        float px[AVOID_MAX_NEIGHBOURS], pz[AVOID_MAX_NEIGHBOURS];
        float ia[AVOID_MAX_NEIGHBOURS];
        float kx[AVOID_MAX_NEIGHBOURS], kz[AVOID_MAX_NEIGHBOURS];
        uint32_t count;
    } overlaps;
    // Side term per neighbour in the way: clamp(b - v . r, 0, 1), r the
    // right of the line of sight scaled by 1 / (saturation x max_speed).
    struct {
        float rx[AVOID_MAX_NEIGHBOURS], rz[AVOID_MAX_NEIGHBOURS], b[AVOID_MAX_NEIGHBOURS];
        /// While setting up: which neighbours entry (< AVOID_MAX_NEIGHBOURS)
        /// or overlaps entry (+ AVOID_MAX_NEIGHBOURS) each belongs to.
        uint32_t source[AVOID_MAX_NEIGHBOURS];
        uint32_t count;
    } sides;
    // Wall faces: the segment's interior, the agent at distance gap + radius
    // in front of it along n (unit, towards the agent; stored as m = -n, so
    // v . m is the closing speed), u along the segment, q0 the agent's
    // position along u.
    struct {
        float mx[AVOID_MAX_WALLS], mz[AVOID_MAX_WALLS];
        float ux[AVOID_MAX_WALLS], uz[AVOID_MAX_WALLS];
        float q0[AVOID_MAX_WALLS], len[AVOID_MAX_WALLS];
        float gap[AVOID_MAX_WALLS], inv_gap[AVOID_MAX_WALLS];
        uint32_t count;
    } faces;
    // Wall end points (shared ones once): the agent circle against a point.
    struct {
        float px[AVOID_MAX_CORNERS], pz[AVOID_MAX_CORNERS];
        float c[AVOID_MAX_CORNERS], inv_c[AVOID_MAX_CORNERS];
        uint32_t count;
    } corners;
    // Walls already touched: the same with closing speed v . w, w towards
    // the touching point scaled by the contact scale.
    struct {
        float x[AVOID_MAX_WALLS], z[AVOID_MAX_WALLS];
        uint32_t count;
    } touching;
} avoid_setup;

static inline float clampf(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }

/// Score weights folded with their normalizations.
typedef struct avoid_weights {
    float desired; ///< weight_desired / max_speed
    float current; ///< weight_current / max_speed
    float side;    ///< weight_side / neighbours in the way (0 when none)
    float impact;  ///< weight_impact
    float inv_horizon;
    float desired_vx, desired_vz; ///< desired velocity
    float vx, vz;                 ///< current velocity
} avoid_weights;

/// The running best candidate: the first of the lowest score wins.
typedef struct avoid_best {
    float vx, vz;
    float score;
} avoid_best;

// The kernel at each width this build has.
#define LANES 1
#define LANES_FN
#include "crowd/avoidance_kernel.inl"
#undef LANES_FN
#undef LANES
#if FLOAT_LANES_SSE
#define LANES 4
#define LANES_FN
#include "crowd/avoidance_kernel.inl"
#undef LANES_FN
#undef LANES
#endif
#if FLOAT_LANES_AVX
#define LANES 8
#define LANES_FN FLOAT_LANES_AVX_FN
#include "crowd/avoidance_kernel.inl"
#undef LANES_FN
#undef LANES
#endif

bool wf_avoidance_kernel_available(wf_avoid_kernel kernel) {
    switch (kernel) {
    case WF_AVOID_KERNEL_AUTO:
    case WF_AVOID_KERNEL_SCALAR:
        return true;
    case WF_AVOID_KERNEL_SSE2:
        return FLOAT_LANES_SSE != 0;
    case WF_AVOID_KERNEL_AVX:
#if FLOAT_LANES_AVX
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
    return FLOAT_LANES_SSE ? WF_AVOID_KERNEL_SSE2 : WF_AVOID_KERNEL_SCALAR;
}

/// The largest inverse impact time of one velocity, with `kernel`
/// (resolved): a wide kernel takes it at the cost of one candidate.
static float max_inv_of(wf_avoid_kernel kernel, const avoid_setup* s, float vx, float vz) {
    switch (kernel) {
#if FLOAT_LANES_AVX
    case WF_AVOID_KERNEL_AVX:
        return max_inv_of_8(s, vx, vz);
#endif
#if FLOAT_LANES_SSE
    case WF_AVOID_KERNEL_SSE2:
        return max_inv_of_4(s, vx, vz);
#endif
    default:
        return max_inv_of_1(s, vx, vz);
    }
}

/// The adaptive pattern's candidates around (cx, cz) (K(place)), with
/// `kernel` (resolved).
static void place_batch(wf_avoid_kernel kernel, const float* off_x, const float* off_z, uint32_t n,
                        float cx, float cz, float radius, float max_speed, float* vx, float* vz) {
    switch (kernel) {
#if FLOAT_LANES_AVX
    case WF_AVOID_KERNEL_AVX:
        place_8(off_x, off_z, n, cx, cz, radius, max_speed, vx, vz);
        break;
#endif
#if FLOAT_LANES_SSE
    case WF_AVOID_KERNEL_SSE2:
        place_4(off_x, off_z, n, cx, cz, radius, max_speed, vx, vz);
        break;
#endif
    default:
        place_1(off_x, off_z, n, cx, cz, radius, max_speed, vx, vz);
        break;
    }
}

/// Copies a scored batch into a debug record, as far as it has room.
static void record_batch(wf_avoid_record* record, const float* vx, const float* vz,
                         const float* score, uint32_t n) {
    for (uint32_t j = 0; j < n && record->count < record->capacity; ++j) {
        wf_avoidance_candidate* c = &record->candidates[record->count++];
        c->velocity = wf_v3(vx[j], 0.0f, vz[j]);
        c->score = score[j];
    }
    record->scored += n;
}

/// Scores candidates (vx, vz)[0..n) with `kernel` (resolved) and keeps the
/// best in *best (the first of equal scores). The arrays have room for n
/// rounded up to eight.
static void score_batch(wf_avoid_kernel kernel, const avoid_setup* s, const avoid_weights* w,
                        float* vx, float* vz, uint32_t n, avoid_best* best,
                        wf_avoid_record* record) {
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
#if FLOAT_LANES_AVX
    case WF_AVOID_KERNEL_AVX:
        score_8(s, w, vx, vz, padded, score);
        break;
#endif
#if FLOAT_LANES_SSE
    case WF_AVOID_KERNEL_SSE2:
        score_4(s, w, vx, vz, padded, score);
        break;
#endif
    default:
        score_1(s, w, vx, vz, padded, score);
        break;
    }
    if (record != NULL) {
        record_batch(record, vx, vz, score, n);
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
    if (other_rank == WF_AVOID_RANK_IMMOVABLE) {
        return 1.0f;
    }
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
    s->neighbours.count = s->overlaps.count = s->sides.count = 0;
    s->faces.count = s->corners.count = s->touching.count = 0;

    if (neighbour_count > AVOID_MAX_NEIGHBOURS) {
        neighbour_count = AVOID_MAX_NEIGHBOURS;
    }
    for (uint32_t i = 0; i < neighbour_count; ++i) {
        const wf_avoid_neighbour* other = &neighbours[i];
        float px = other->pos.x - self->pos.x, pz = other->pos.z - self->pos.z;
        float dist_sq = px * px + pz * pz;
        float rsum = r + other->radius;
        float alpha = avoid_share(self->rank, other->rank);
        float ia = 1.0f / alpha;
        float k = (1.0f - alpha) * ia;
        float kx = self->vel.x * k + other->vel.x, kz = self->vel.z * k + other->vel.z;
        float c = dist_sq - rsum * rsum;
        if (c > 0.0f) {
            // The fastest closing speed any candidate can reach.
            float other_speed = sqrtf(other->vel.x * other->vel.x + other->vel.z * other->vel.z);
            float reach =
                ((self->max_speed + (1.0f - alpha) * vel_len) * ia + other_speed) * horizon;
            float gap = sqrtf(dist_sq) - rsum;
            if (gap > reach) {
                continue;
            }
            uint32_t n = s->neighbours.count++;
            s->neighbours.px[n] = px;
            s->neighbours.pz[n] = pz;
            s->neighbours.ia[n] = ia;
            s->neighbours.kx[n] = kx;
            s->neighbours.kz[n] = kz;
            s->neighbours.c[n] = f1_max(c, AVOID_MIN_CLEARANCE_SQ);
            s->neighbours.inv_c[n] = 1.0f / s->neighbours.c[n];
            s->sides.source[s->sides.count] = n;
        } else {
            if (dist_sq <= 0.0f) {
                continue; // same spot: no direction to prefer (separation's job)
            }
            // vr . p over |p| is the closing speed; over the contact gap, 1 / t.
            float scale = 1.0f / (sqrtf(dist_sq) * AVOID_CONTACT_GAP * rsum);
            uint32_t n = s->overlaps.count++;
            s->overlaps.px[n] = px * scale;
            s->overlaps.pz[n] = pz * scale;
            s->overlaps.ia[n] = ia;
            s->overlaps.kx[n] = kx;
            s->overlaps.kz[n] = kz;
            s->sides.source[s->sides.count] = AVOID_MAX_NEIGHBOURS + n;
        }
        // Side term: the right of the line of sight d is (-d.z, d.x) on XZ
        // (X right, Z down seen from above: facing +X, the right hand points
        // to +Z). Drifting left relative to the neighbour's motion costs.
        float inv_len = 1.0f / sqrtf(dist_sq);
        float sx = -pz * inv_len * side_k, sz = px * inv_len * side_k;
        uint32_t m = s->sides.count++;
        s->sides.rx[m] = sx;
        s->sides.rz[m] = sz;
        s->sides.b[m] = other->vel.x * sx + other->vel.z * sz;
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
            uint32_t n = s->touching.count++;
            s->touching.x[n] = wx * scale;
            s->touching.z[n] = wz * scale;
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
                uint32_t n = s->faces.count++;
                s->faces.mx[n] = -nx;
                s->faces.mz[n] = -nz;
                s->faces.ux[n] = ux;
                s->faces.uz[n] = uz;
                s->faces.q0[n] = -(ax * ux + az * uz);
                s->faces.len[n] = len;
                s->faces.gap[n] = gap;
                s->faces.inv_gap[n] = 1.0f / gap;
            }
        }
        // End points; walls of one boundary share them, so keep each once.
        const float ends[2][2] = {{ax, az}, {bx, bz}};
        for (uint32_t e = 0; e < (len_sq > 0.0f ? 2u : 1u); ++e) {
            float px = ends[e][0], pz = ends[e][1];
            bool seen = false;
            for (uint32_t k = 0; k < s->corners.count && !seen; ++k) {
                seen = s->corners.px[k] == px && s->corners.pz[k] == pz;
            }
            if (seen) {
                continue;
            }
            uint32_t n = s->corners.count++;
            s->corners.px[n] = px;
            s->corners.pz[n] = pz;
            s->corners.c[n] = f1_max(px * px + pz * pz - rw * rw, AVOID_MIN_CLEARANCE_SQ);
            s->corners.inv_c[n] = 1.0f / s->corners.c[n];
        }
    }
    uint32_t obstacles = s->neighbours.count + s->overlaps.count + s->faces.count;
    return obstacles + s->corners.count + s->touching.count > 0u;
}

/// Keeps the side terms of the neighbours the desired velocity runs into
/// within the horizon (the ones whose side matters), in input order.
static void keep_side_terms(avoid_setup* s, const wf_avoidance_params* params, float desired_vx,
                            float desired_vz) {
    const float inv_horizon = 1.0f / params->horizon_time;
    uint32_t kept = 0;
    for (uint32_t m = 0; m < s->sides.count; ++m) {
        uint32_t src = s->sides.source[m];
        float inv = src < AVOID_MAX_NEIGHBOURS
                        ? neighbour_inv_1(s, src, desired_vx, desired_vz)
                        : overlap_inv_1(s, src - AVOID_MAX_NEIGHBOURS, desired_vx, desired_vz);
        if (inv > inv_horizon) {
            s->sides.rx[kept] = s->sides.rx[m];
            s->sides.rz[kept] = s->sides.rz[m];
            s->sides.b[kept] = s->sides.b[m];
            ++kept;
        }
    }
    s->sides.count = kept;
}

wf_vec3 wf_avoidance_sample(const wf_avoidance_params* params, const wf_avoid_agent* self,
                            const wf_avoid_neighbour* neighbours, uint32_t neighbour_count,
                            const wf_vec3* walls, uint32_t wall_count, uint32_t* out_samples) {
    return wf_avoidance_sample_with(WF_AVOID_KERNEL_AUTO, params, self, neighbours, neighbour_count,
                                    walls, wall_count, out_samples);
}

wf_vec3 wf_avoidance_sample_with(wf_avoid_kernel kernel, const wf_avoidance_params* params,
                                 const wf_avoid_agent* self, const wf_avoid_neighbour* neighbours,
                                 uint32_t neighbour_count, const wf_vec3* walls,
                                 uint32_t wall_count, uint32_t* out_samples) {
    return wf_avoidance_sample_recorded(kernel, params, self, neighbours, neighbour_count, walls,
                                        wall_count, out_samples, NULL);
}

uint32_t wf_avoidance_max_candidates(const wf_avoidance_params* params) {
    if (params->adaptive_divisions > 0u) {
        return 1u + (uint32_t)params->adaptive_depth * params->adaptive_rings *
                        params->adaptive_divisions;
    }
    return (uint32_t)params->grid_size * params->grid_size;
}

wf_vec3 wf_avoidance_sample_recorded(wf_avoid_kernel kernel, const wf_avoidance_params* params,
                                     const wf_avoid_agent* self,
                                     const wf_avoid_neighbour* neighbours, uint32_t neighbour_count,
                                     const wf_vec3* walls, uint32_t wall_count,
                                     uint32_t* out_samples, wf_avoid_record* record) {
    if (record != NULL) {
        record->count = 0;
        record->scored = 0;
    }
    const float max_speed = self->max_speed;
    if (out_samples != NULL) {
        *out_samples = 0u;
    }
    if (!(max_speed > 0.0f)) {
        return wf_v3(0.0f, 0.0f, 0.0f);
    }
    float desired_vx = self->desired_vel.x, desired_vz = self->desired_vel.z;
    clamp_speed(&desired_vx, &desired_vz, max_speed);

    avoid_setup s;
    if (!setup_obstacles(&s, params, self, neighbours, neighbour_count, walls, wall_count)) {
        return wf_v3(desired_vx, 0.0f, desired_vz);
    }
    keep_side_terms(&s, params, desired_vx, desired_vz);
    kernel = resolve_kernel(kernel);

    // Range adaption from the first impact at the desired velocity: narrow
    // while it is far (fine corrections suffice), full when imminent.
    const float horizon = params->horizon_time;
    float desired_inv = max_inv_of(kernel, &s, desired_vx, desired_vz);
    float far = desired_inv * horizon > 1.0f ? 1.0f / (desired_inv * horizon) : 1.0f;
    float range_scale = params->min_range_scale + (1.0f - params->min_range_scale) * (1.0f - far);

    avoid_weights w;
    w.desired = params->weight_desired / max_speed;
    w.current = params->weight_current / max_speed;
    w.side = s.sides.count > 0u ? params->weight_side / (float)s.sides.count : 0.0f;
    w.impact = params->weight_impact;
    w.inv_horizon = 1.0f / horizon;
    w.desired_vx = desired_vx;
    w.desired_vz = desired_vz;
    w.vx = self->vel.x;
    w.vz = self->vel.z;

    // The pattern's frame: forward along the desired velocity (else the
    // current one, else +X), so left and right samples mirror each other.
    float fx = 1.0f, fz = 0.0f;
    float desired_len_sq = desired_vx * desired_vx + desired_vz * desired_vz;
    float vlen_sq = self->vel.x * self->vel.x + self->vel.z * self->vel.z;
    if (desired_len_sq > 1e-12f) {
        float inv = 1.0f / sqrtf(desired_len_sq);
        fx = desired_vx * inv;
        fz = desired_vz * inv;
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
    float cx = desired_vx * keep, cz = desired_vz * keep;
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
        for (uint32_t o = offsets; o < ((offsets + 7u) & ~7u); ++o) {
            off_x[o] = off_z[o] = 0.0f; // the last group of lanes (place_batch)
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
            place_batch(kernel, off_x, off_z, offsets, cx, cz, radius, max_speed, bx + n, bz + n);
            n += offsets;
            score_batch(kernel, &s, &w, bx, bz, n, &best, record);
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
                    score_batch(kernel, &s, &w, bx, bz, n, &best, record);
                    samples += n;
                    n = 0;
                }
            }
        }
        if (n > 0u) {
            score_batch(kernel, &s, &w, bx, bz, n, &best, record);
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
