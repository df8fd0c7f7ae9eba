// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Defaults a game starts from: agent parameters and the four avoidance
// quality presets.
#include "wayfarer/crowd.h"

wf_agent_params wf_agent_params_defaults(void) {
    wf_agent_params p = {0};
    p.radius = 0.6f;
    p.height = 2.0f;
    p.max_speed = 3.5f;
    p.max_acceleration = 8.0f;
    p.collision_query_range = p.radius * 12.0f;
    p.path_optimization_range = p.radius * 30.0f;
    p.separation_weight = 2.0f;
    p.update_flags = WF_AGENT_ALL;
    p.avoidance_preset = WF_AVOIDANCE_HIGH;
    return p;
}

wf_avoidance_params wf_avoidance_preset(wf_avoidance_quality quality) {
    wf_avoidance_params p = {0};
    p.weight_desired = 2.0f;
    p.weight_current = 0.75f;
    p.weight_side = 0.75f;
    p.weight_impact = 2.5f;
    p.horizon_time = 2.5f;
    p.velocity_bias = 0.4f;
    p.min_range_scale = 0.5f;
    p.grid_size = 33;
    // More samples buy smoother, earlier avoidance; the adaptive pattern
    // scores 1 + divisions x rings x depth candidates per agent: 11, 21,
    // 43, 64 (Detour's demo presets low / medium / good / high take 11, 22,
    // 45, 66 with the same divisions, rings and depth).
    switch (quality) {
    case WF_AVOIDANCE_LOW:
        p.velocity_bias = 0.5f;
        p.adaptive_divisions = 5;
        p.adaptive_rings = 2;
        p.adaptive_depth = 1;
        break;
    case WF_AVOIDANCE_MEDIUM:
        p.velocity_bias = 0.5f;
        p.adaptive_divisions = 5;
        p.adaptive_rings = 2;
        p.adaptive_depth = 2;
        break;
    case WF_AVOIDANCE_HIGH:
        p.velocity_bias = 0.5f;
        p.adaptive_divisions = 7;
        p.adaptive_rings = 2;
        p.adaptive_depth = 3;
        break;
    case WF_AVOIDANCE_ULTRA:
    default:
        p.velocity_bias = 0.5f;
        p.adaptive_divisions = 7;
        p.adaptive_rings = 3;
        p.adaptive_depth = 3;
        break;
    }
    return p;
}
