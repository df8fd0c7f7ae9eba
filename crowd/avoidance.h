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
    wf_vec3 vel;      ///< current velocity
    wf_vec3 dvel;     ///< desired velocity
    float radius;
    float max_speed;
    uint8_t priority;
} wf_avoid_agent;

typedef struct wf_avoid_neighbour {
    wf_vec3 pos;
    wf_vec3 vel;
    float radius;
    uint8_t priority;
} wf_avoid_neighbour;

/// True when every field is finite and in the range crowd.h documents.
bool wf_avoidance_params_valid(const wf_avoidance_params* params);

/// The chosen velocity (length <= max_speed). walls holds wall_count
/// segments as (start, end) pairs. out_samples (optional) counts the
/// candidates scored. Deterministic: the same inputs in the same order give
/// the same bits.
wf_vec3 wf_avoidance_sample(const wf_avoidance_params* params, const wf_avoid_agent* self,
                            const wf_avoid_neighbour* neighbours, uint32_t neighbour_count,
                            const wf_vec3* walls, uint32_t wall_count, uint32_t* out_samples);

#endif
