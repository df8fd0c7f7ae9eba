// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Crowding (wf_crowd_desc.crowding_cost, stuck_crowding_cost): agents standing
// close together in a polygon make crossing it dearer for the crowd's path
// searches (all of them, or only held-up agents' local re-searches), so that
// agents take another way round a jam when there is one. The
// densities are taken every WF_CROWD_CROWDING_FRAMES updates, in agent order, into
// an open addressing table keyed by polygon ref; searches running when it changes
// begin again, so a search only ever sees one table (a restored crowd
// replays them over the same saved table).
#include <math.h>
#include <string.h>

#include "crowd/crowd_phases.h"

static uint32_t slot_of(uint64_t bits, uint32_t mask) {
    bits ^= bits >> 33;
    bits *= 0xff51afd7ed558ccdull; // a 64-bit mix (MurmurHash3's finaliser)
    bits ^= bits >> 33;
    return (uint32_t)bits & mask;
}

/// The slot of key in a table of mask + 1 keys (0: free), taken if new
/// (*fresh then says so). Never full: twice as many slots as agents.
static uint32_t claim_slot(uint64_t* keys, uint32_t mask, uint64_t key, bool* fresh) {
    uint32_t at = slot_of(key, mask);
    while (keys[at] != 0 && keys[at] != key) {
        at = (at + 1u) & mask;
    }
    *fresh = keys[at] == 0;
    keys[at] = key;
    return at;
}

/// The slot holding key, or UINT32_MAX when it is not in the table.
static uint32_t find_slot(const uint64_t* keys, uint32_t mask, uint64_t key) {
    for (uint32_t at = slot_of(key, mask);; at = (at + 1u) & mask) {
        if (keys[at] == key) {
            return at;
        }
        if (keys[at] == 0) {
            return UINT32_MAX;
        }
    }
}

void wf_crowding_refresh(wf_crowd* c) {
    uint32_t mask = c->crowding_capacity - 1u;
    memset(c->crowding_keys, 0, sizeof(uint64_t) * c->crowding_capacity);
    // Each agent's local density (itself and its neighbours within
    // WF_CROWD_CROWDING_RADII radii, per square metre of that disc; the neighbour
    // lists of the last update); a polygon takes the highest of the agents
    // standing in it (in crowding_scale), then becomes its factor.
    for (uint32_t i = 0; i < c->max_agents; ++i) {
        if (!wf_crowd_walking(c, i)) {
            continue;
        }
        float reach = c->params[i].radius * WF_CROWD_CROWDING_RADII;
        const uint32_t* neighbours = c->neighbours + (size_t)i * c->max_neighbours;
        uint32_t close = 1;
        for (uint32_t k = 0; k < c->neighbour_count[i]; ++k) {
            close += wf_v2_distance_sq(c->pos[i], c->pos[neighbours[k]]) <= reach * reach;
        }
        float density = (float)close / (3.14159265f * reach * reach);
        bool fresh;
        uint32_t at = claim_slot(c->crowding_keys, mask, c->corridor[i].polys[0].bits, &fresh);
        if (fresh) {
            c->crowding_scale[at] = 0.0f;
        }
        c->crowding_scale[at] = density > c->crowding_scale[at] ? density : c->crowding_scale[at];
    }
    // One table, one cost: every search's (crowding_cost) when that is on,
    // else the held-up agents' re-searches' (stuck_crowding_cost).
    float cost = c->crowding_cost > 0.0f ? c->crowding_cost : c->stuck_crowding_cost;
    for (uint32_t at = 0; at < c->crowding_capacity; ++at) {
        if (c->crowding_keys[at] != 0) {
            c->crowding_scale[at] = 1.0f + cost * c->crowding_scale[at];
        }
    }
}

float wf_crowding_scale(const void* user, wf_poly_ref poly) {
    const wf_crowd* c = user;
    uint32_t at = find_slot(c->crowding_keys, c->crowding_capacity - 1u, poly.bits);
    return at == UINT32_MAX ? 1.0f : c->crowding_scale[at];
}

/* ---------------------------------------------------------------------------
 * Flow (flow17): which way the walkers in each polygon wish to go, so that a
 * topology pass (flow_cost) keeps out of lanes where traffic comes the other way. Built
 * in agent order from saved state (positions' polygons, desired velocities)
 * by the serial step before the topology pass, so it is the same for any
 * worker count and after a restore, and never saved.
 */

void wf_crowd_flow_refresh(wf_crowd* c) {
    uint32_t mask = c->crowding_capacity - 1u;
    memset(c->flow_keys, 0, sizeof(uint64_t) * c->crowding_capacity);
    for (uint32_t i = 0; i < c->max_agents; ++i) {
        // Arrived agents walking back to their spots are not traffic: a
        // step or two against the stream, not a lane taken (knot18).
        if (!wf_crowd_walking(c, i) || c->target_state[i] == WF_TARGET_ARRIVED) {
            continue;
        }
        wf_vec3 dv = c->desired_vel[i];
        float speed_sq = dv.x * dv.x + dv.z * dv.z;
        if (speed_sq < 0.01f) {
            continue; // wishing under 0.1 m/s: no way to count
        }
        float inv = 1.0f / sqrtf(speed_sq);
        // Held up, a walker's way counts in full; walking at the speed it
        // wants, by WF_CROWD_FLOW_FREE_SHARE: a stream standing in a lane
        // is still there when the searcher gets to it, a passing one is
        // gone (circle128's inbound streams; flow28b).
        float slow = 1.0f - wf_v2_length(c->vel[i]) * inv; // at most 1
        slow = slow > 0.0f ? slow : 0.0f;
        float w = WF_CROWD_FLOW_FREE_SHARE + (1.0f - WF_CROWD_FLOW_FREE_SHARE) * slow;
        bool fresh;
        uint32_t at = claim_slot(c->flow_keys, mask, c->corridor[i].polys[0].bits, &fresh);
        if (fresh) {
            c->flow_sum[at] = (wf_vec3){0.0f, 0.0f, 0.0f};
        }
        c->flow_sum[at].x += dv.x * inv * w;
        c->flow_sum[at].y += 1.0f; // walkers counted (y is free: the flow is on the ground)
        c->flow_sum[at].z += dv.z * inv * w;
    }
}

float wf_crowd_flow_scale(const void* user, wf_poly_ref poly) {
    const wf_flow_view* v = user;
    const wf_crowd* c = v->c;
    float scale = v->crowding ? wf_crowding_scale(c, poly) : 1.0f;
    uint32_t at = find_slot(c->flow_keys, c->crowding_capacity - 1u, poly.bits);
    if (at == UINT32_MAX) {
        return scale;
    }
    wf_vec3 sum = c->flow_sum[at];
    float against = -(sum.x * v->way.x + sum.z * v->way.z);
    if (!(against > 0.0f)) {
        return scale;
    }
    // Only a lane: walkers going every way (the middle of a crossing
    // square) share the floor by avoidance, so the flow counts by how much
    // of it goes one way (|sum| / walkers: 1 for a lane, 0 for an even mix).
    against *= sqrtf(sum.x * sum.x + sum.z * sum.z) / sum.y;
    // And by the room to pass in: a polygon larger than
    // WF_CROWD_FLOW_AREA lets oncoming walkers by side by side, so their
    // price falls with its area (circle128's open floor of large polygons:
    // unscaled, late walkers were sent round by the rim, over the holders).
    wf_poly_outline outline;
    if (wf_mesh_get_poly_outline(c->mesh, poly, &outline) == WF_OK && !outline.is_offmesh_link) {
        float area2 = 0.0f; // twice the area: a fan of triangles from the first vertex
        for (uint32_t k = 2; k < outline.vert_count; ++k) {
            wf_vec3 a = outline.verts[0], b = outline.verts[k - 1u], d = outline.verts[k];
            area2 += (b.x - a.x) * (d.z - a.z) - (d.x - a.x) * (b.z - a.z);
        }
        float area = 0.5f * fabsf(area2);
        if (area < WF_CROWD_FLOW_MIN_AREA) {
            return scale;
        }
        if (area > WF_CROWD_FLOW_AREA) {
            against *= WF_CROWD_FLOW_AREA / area;
        }
    }
    return scale + c->flow_cost * against;
}
