// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Velocity-sampling avoidance for one agent: a pure function of the agent,
// its neighbours and its wall segments (so any worker can run it).
#ifndef WF_CROWD_AVOIDANCE_H
#define WF_CROWD_AVOIDANCE_H

#include <stdbool.h>
#include <stdint.h>

#include "wayfarer/crowd.h"

/// The agent choosing a velocity (all on the XZ plane; y is ignored).
typedef struct wf_avoid_agent {
    wf_vec3 pos;
    wf_vec3 vel;         ///< current velocity
    wf_vec3 desired_vel; ///< desired velocity
    float radius;
    float max_speed;
    uint32_t rank; ///< right of way: the lower rank yields more
} wf_avoid_agent;

/// A neighbour's rank that never yields: self takes the whole avoiding
/// (movers.c; agents' ranks stay far below it).
#define WF_AVOID_RANK_IMMOVABLE UINT32_MAX

typedef struct wf_avoid_neighbour {
    wf_vec3 pos;
    wf_vec3 vel;
    float radius;
    uint32_t rank;
} wf_avoid_neighbour;

/// Against walls the agent is a circle of this many radii: a margin that
/// keeps it from scraping along the (already eroded) navmesh edges.
#define WF_AVOID_WALL_SKIN 0.1f

/// True when every field is finite and in the range crowd.h documents:
/// weights >= 0, horizon_time > 0, velocity_bias 0..1, min_range_scale in
/// (0, 1], and adaptive_rings 1..4, adaptive_depth 1..5 (adaptive pattern) or
/// grid_size 3..64 (grid pattern, adaptive_divisions 0).
bool wf_avoidance_params_valid(const wf_avoidance_params* params);

/// The chosen velocity (length <= max_speed, y = 0). walls holds wall_count
/// segments as (start, end) pairs. out_samples (optional) counts the
/// candidates scored: 0 when nothing is within reach in horizon_time (the
/// desired velocity, clamped to max_speed, is returned as is). Only the first
/// WF_CROWD_MAX_NEIGHBOURS neighbours and WF_CROWD_MAX_WALLS walls are read.
/// params must pass wf_avoidance_params_valid.
///
/// Score of a candidate v (lowest wins, the first of equal scores):
///   weight_desired * |v - desired_vel| / max_speed
/// + weight_current * |v - vel| / max_speed
/// + weight_side * mean over the neighbours hit by desired_vel within the
///   horizon of
///   clamp(speed of (v - their vel) to the left of the line towards them
///         / (max_speed / 2), 0, 1)
/// + weight_impact * max(0, 1 / t - 1 / horizon_time)
/// with t the first impact: neighbours as circles (radius sum), self taking
/// the share alpha of the avoiding (0.5 at equal priority, 0.75 when self's
/// priority is lower, 0.25 when higher: relative velocity
/// (v - (1 - alpha) vel) / alpha - their vel); walls are static segments
/// bounding where the agent's centre may go (navmesh edges: the build
/// eroded them by the agent radius), hit by a circle of WF_AVOID_WALL_SKIN
/// radii (their faces and end points). The 1 / horizon_time
/// offset fades the penalty to 0 at the horizon rather than dropping it.
/// Contact (already overlapping a neighbour, touching a wall) counts any
/// closing v as an impact within 0.1 s, sooner the faster it closes.
///
/// Pattern: its frame follows desired_vel (so left and right samples mirror
/// each other). With the first impact at desired_vel tmin, range =
/// min_range_scale + (1 - min_range_scale) * (1 - clamp(tmin / horizon_time,
/// 0, 1)); the full pattern (centre desired_vel * velocity_bias, radius
/// max_speed * (1 - bias)) is scaled by range about desired_vel, so it stays
/// inside a narrowed one. Adaptive:
/// the centre plus adaptive_rings rings of adaptive_divisions samples (every
/// other ring turned half a step); each of the adaptive_depth - 1 further
/// passes rings the best so far at half the radius. Grid: grid_size^2 samples over the
/// square around the centre, those beyond max_speed skipped.
///
/// Deterministic: the same inputs in the same order give the same bits, with
/// or without SIMD (every path does the same float operations in the same
/// order). No allocation, no global state; safe from any thread.
wf_vec3 wf_avoidance_sample(const wf_avoidance_params* params, const wf_avoid_agent* self,
                            const wf_avoid_neighbour* neighbours, uint32_t neighbour_count,
                            const wf_vec3* walls, uint32_t wall_count, uint32_t* out_samples);

/// The code that scores candidates. All give the same bits; the choice is
/// for tests that prove it (AUTO, what wf_avoidance_sample runs, is the
/// widest this build and processor have).
typedef enum wf_avoid_kernel {
    WF_AVOID_KERNEL_AUTO = 0,
    WF_AVOID_KERNEL_SCALAR, ///< one candidate at a time (every build)
    WF_AVOID_KERNEL_SSE2,   ///< four at a time (x86 builds with SSE2, not -Davoidance_simd=false)
    WF_AVOID_KERNEL_AVX,    ///< eight at a time (x86-64 GCC/clang builds, AVX processors)
} wf_avoid_kernel;

/// True when this build on this processor can run `kernel`.
bool wf_avoidance_kernel_available(wf_avoid_kernel kernel);

/// wf_avoidance_sample with the given kernel (one that is not available
/// runs as AUTO).
wf_vec3 wf_avoidance_sample_with(wf_avoid_kernel kernel, const wf_avoidance_params* params,
                                 const wf_avoid_agent* self, const wf_avoid_neighbour* neighbours,
                                 uint32_t neighbour_count, const wf_vec3* walls,
                                 uint32_t wall_count, uint32_t* out_samples);

/// Where wf_avoidance_sample_recorded copies the candidates it scores
/// (debug drawing of one agent): the first `capacity` in scoring order,
/// each with its score. count: how many were written; scored: how many
/// were scored in all (more than count when capacity was short).
typedef struct wf_avoid_record {
    wf_avoidance_candidate* candidates;
    uint32_t capacity;
    uint32_t count;
    uint32_t scored;
} wf_avoid_record;

/// Most candidates one call with these params scores (the size a record
/// needs to hold every one): 1 + adaptive_depth * adaptive_rings *
/// adaptive_divisions, or grid_size^2.
uint32_t wf_avoidance_max_candidates(const wf_avoidance_params* params);

/// wf_avoidance_sample_with that also copies each scored candidate and its
/// score into record (reset first). Recording reads the scores the kernel
/// wrote; the choice and its bits are the same as without it.
wf_vec3 wf_avoidance_sample_recorded(wf_avoid_kernel kernel, const wf_avoidance_params* params,
                                     const wf_avoid_agent* self,
                                     const wf_avoid_neighbour* neighbours, uint32_t neighbour_count,
                                     const wf_vec3* walls, uint32_t wall_count,
                                     uint32_t* out_samples, wf_avoid_record* record);

#endif
