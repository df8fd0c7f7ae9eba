// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The free spot nearest an agent's target: where it stands clear of every
// neighbour's body, for an agent that stopped short of a taken target.
#include <math.h>

#include "crowd/crowd_phases.h"

/// Clear of every neighbour of i (their bodies where they stand now).
static bool clear_of_all(const wf_crowd* c, uint32_t i, wf_vec3 at) {
    const uint32_t* neighbours = c->neighbours + (size_t)i * c->max_neighbours;
    for (uint32_t k = 0; k < c->neighbour_count[i]; ++k) {
        uint32_t j = neighbours[k];
        float room = c->params[i].radius + c->params[j].radius;
        if (wf_v2_distance_sq(at, c->pos[j]) < room * room) {
            return false;
        }
    }
    return true;
}

/// Keeps at as *best when it is clear and nearer target than *best.
static void consider(const wf_crowd* c, uint32_t i, wf_vec3 target, wf_vec3 at, wf_vec3* best,
                     float* best_d2) {
    float d2 = wf_v2_distance_sq(at, target);
    if (d2 < *best_d2 && clear_of_all(c, i, at)) {
        *best = at;
        *best_d2 = d2;
    }
}

bool wf_crowd_free_spot(const wf_crowd* c, uint32_t i, wf_vec3 target, wf_vec3* out) {
    // The nearest clear point is the target itself, or on the edge of one
    // neighbour's clearance circle (the point of it nearest the target),
    // or where two of those circles cross.
    const uint32_t* neighbours = c->neighbours + (size_t)i * c->max_neighbours;
    uint32_t n = c->neighbour_count[i];
    float ri = c->params[i].radius;
    wf_vec3 best = target;
    float best_d2 = INFINITY;
    consider(c, i, target, target, &best, &best_d2);
    for (uint32_t a = 0; a < n && best_d2 > 0.0f; ++a) {
        uint32_t j = neighbours[a];
        wf_vec3 pj = c->pos[j];
        float rj = (ri + c->params[j].radius) * WF_CROWD_FREE_SPOT_ROOM;
        wf_vec3 away = wf_v3_sub(target, pj);
        away.y = 0.0f;
        float len = wf_v2_length(away);
        if (len > 1e-4f) {
            wf_vec3 edge = wf_v3_add(pj, wf_v3_scale(away, rj / len));
            edge.y = target.y;
            consider(c, i, target, edge, &best, &best_d2);
        }
        for (uint32_t b = a + 1; b < n; ++b) {
            uint32_t k = neighbours[b];
            wf_vec3 pk = c->pos[k];
            float rk = (ri + c->params[k].radius) * WF_CROWD_FREE_SPOT_ROOM;
            float dx = pk.x - pj.x, dz = pk.z - pj.z;
            float d2 = dx * dx + dz * dz;
            float d = sqrtf(d2);
            if (d < 1e-4f || d > rj + rk || d < fabsf(rj - rk)) {
                continue; // the circles do not cross
            }
            float along = (rj * rj - rk * rk + d2) / (2.0f * d);
            float h = sqrtf(fmaxf(rj * rj - along * along, 0.0f));
            float mx = pj.x + dx * (along / d), mz = pj.z + dz * (along / d);
            float ox = -dz * (h / d), oz = dx * (h / d);
            consider(c, i, target, wf_v3(mx + ox, target.y, mz + oz), &best, &best_d2);
            consider(c, i, target, wf_v3(mx - ox, target.y, mz - oz), &best, &best_d2);
        }
    }
    if (best_d2 == INFINITY) {
        return false;
    }
    *out = best;
    return true;
}
