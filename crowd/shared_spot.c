// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Spots shared by holders whose targets lie much closer than their bodies
// are wide: each holds a point moved off its target, away from the
// others', so that the bodies fit and each stands near its own target. Two
// (a pair) or more (a knot).
#include <math.h>

#include "crowd/crowd_phases.h"

/// The one arrived neighbour of i whose target crowds i's (nearer than
/// WF_CROWD_SHARED_SPOT_NEAR of the two radii's sum); false when there is
/// none, or more than one (a knot: knot_spot).
static bool crowding_neighbour(const wf_crowd* c, uint32_t i, uint32_t* out) {
    const uint32_t* neighbours = c->neighbours + (size_t)i * c->max_neighbours;
    uint32_t found = 0;
    for (uint32_t k = 0; k < c->neighbour_count[i]; ++k) {
        uint32_t j = neighbours[k];
        float near = (c->params[i].radius + c->params[j].radius) * WF_CROWD_SHARED_SPOT_NEAR;
        if (c->target_state[j] == WF_TARGET_ARRIVED &&
            wf_v2_distance_sq(c->target_pos[i], c->target_pos[j]) < near * near) {
            if (++found > 1) {
                return false;
            }
            *out = j;
        }
    }
    return found == 1;
}

bool wf_crowd_holds_shared_spot(const wf_crowd* c, uint32_t i) {
    float reach =
        c->params[i].radius * (WF_CROWD_SHARED_SPOT_MAX_RADII + WF_CROWD_SHARED_SPOT_MOVE_RADII);
    return c->target_state[i] == WF_TARGET_ARRIVED &&
           !(c->agent_flags[i] & (AGENT_NEEDS_REPLAN | AGENT_QUEUED)) && !c->corridor_partial[i] &&
           ((c->agent_flags[i] & AGENT_STOPPED_SHORT) ||
            wf_v2_distance(c->corridor[i].target, c->target_pos[i]) <= reach);
}

/// Which way i's spot moves from neighbour j's: from j's target to i's
/// (d: their distance), or for the same target the way the two stand
/// (d = 0); (dx, dz) of length len. False when there is no way to tell.
static bool way_apart(const wf_crowd* c, uint32_t i, uint32_t j, float* dx, float* dz, float* d,
                      float* len) {
    *dx = c->target_pos[i].x - c->target_pos[j].x;
    *dz = c->target_pos[i].z - c->target_pos[j].z;
    *d = sqrtf(*dx * *dx + *dz * *dz);
    if (*d < 1e-3f) {
        *dx = c->pos[i].x - c->pos[j].x;
        *dz = c->pos[i].z - c->pos[j].z;
        *d = 0.0f;
    }
    *len = sqrtf(*dx * *dx + *dz * *dz);
    return *len >= 1e-4f;
}

/// A knot: two or more arrived neighbours whose targets crowd i's. Each
/// pair's share, as for a pair alone (half of what the two lack, all of it
/// against a neighbour of higher priority; none against a lower one, which
/// makes way), summed over the pairs and capped like a pair's: the knot
/// spreads out from its middle. False for fewer than two.
static bool knot_spot(const wf_crowd* c, uint32_t i, wf_vec3* out) {
    const uint32_t* neighbours = c->neighbours + (size_t)i * c->max_neighbours;
    wf_vec3 target = c->target_pos[i];
    float ri = c->params[i].radius;
    float sx = 0.0f, sz = 0.0f;
    uint32_t found = 0;
    for (uint32_t k = 0; k < c->neighbour_count[i]; ++k) {
        uint32_t j = neighbours[k];
        float rsum = ri + c->params[j].radius;
        float near = rsum * WF_CROWD_SHARED_SPOT_NEAR;
        if (c->target_state[j] != WF_TARGET_ARRIVED ||
            !(wf_v2_distance_sq(target, c->target_pos[j]) < near * near)) {
            continue;
        }
        found++;
        if (c->params[j].priority < c->params[i].priority) {
            continue;
        }
        float dx, dz, d, len;
        if (!way_apart(c, i, j, &dx, &dz, &d, &len)) {
            continue;
        }
        float share = c->params[j].priority > c->params[i].priority ? 1.0f : 0.5f;
        float step = (rsum * WF_CROWD_SHARED_SPOT_ROOM - d) * share;
        sx += dx / len * step;
        sz += dz / len * step;
    }
    float len = sqrtf(sx * sx + sz * sz);
    if (found < 2 || len < 1e-4f) {
        return false;
    }
    float most = ri * WF_CROWD_SHARED_SPOT_MAX_RADII;
    float k = len > most ? most / len : 1.0f;
    *out = wf_v3(target.x + sx * k, target.y, target.z + sz * k);
    return true;
}

bool wf_crowd_shared_spot(const wf_crowd* c, uint32_t i, wf_vec3* out) {
    uint32_t j = 0, back = 0;
    if (knot_spot(c, i, out)) {
        return true;
    }
    if (!crowding_neighbour(c, i, &j) || c->params[i].priority > c->params[j].priority) {
        return false; // none, or one that makes way for it
    }
    wf_vec3 target = c->target_pos[i];
    float ri = c->params[i].radius;
    float room = (ri + c->params[j].radius) * WF_CROWD_SHARED_SPOT_ROOM;
    float dx, dz, d, len;
    if (!way_apart(c, i, j, &dx, &dz, &d, &len)) {
        return false;
    }
    // Each gives half of what the two lack; all of it when the other keeps
    // its own target (crowded by others too, put elsewhere, or of higher
    // priority).
    bool shares = c->params[i].priority == c->params[j].priority &&
                  wf_crowd_holds_shared_spot(c, j) && crowding_neighbour(c, j, &back) && back == i;
    float step = (room - d) * (shares ? 0.5f : 1.0f);
    float most = ri * WF_CROWD_SHARED_SPOT_MAX_RADII;
    if (!shares && (step > most || (c->agent_flags[i] & AGENT_STOPPED_SHORT))) {
        return false; // alone it cannot make the room: it stands as before
    }
    step = step < most ? step : most;
    *out = wf_v3(target.x + dx * (step / len), target.y, target.z + dz * (step / len));
    return true;
}
