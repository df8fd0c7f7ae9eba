// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Crowding (wf_crowd_desc.crowding_cost): agents standing close together in
// a polygon make crossing it dearer for the crowd's path searches, so that
// later agents take another way round a jammed door when there is one. The
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

/// Counterflow pricing: an agent's density goes to the quarter its wish
/// points into (east, north, west, south); one that wishes to stand still
/// is in everyone's way, so it goes to all four.
static void note_heading(float* flow, wf_vec3 wish, float density) {
    float ax = fabsf(wish.x), az = fabsf(wish.z);
    if (ax * ax + az * az < WF_CROWDING_STILL_SPEED * WF_CROWDING_STILL_SPEED) {
        for (uint32_t b = 0; b < WF_CROWDING_HEADINGS; ++b) {
            flow[b] = density > flow[b] ? density : flow[b];
        }
        return;
    }
    uint32_t b = ax >= az ? (wish.x >= 0.0f ? 0u : 2u) : (wish.z >= 0.0f ? 1u : 3u);
    flow[b] = density > flow[b] ? density : flow[b];
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
        uint64_t key = c->corridor[i].polys[0].bits;
        uint32_t at = slot_of(key, mask);
        while (c->crowding_keys[at] != 0 && c->crowding_keys[at] != key) {
            at = (at + 1u) & mask; // never full: twice as many slots as agents
        }
        if (c->crowding_keys[at] == 0) {
            c->crowding_keys[at] = key;
            c->crowding_scale[at] = 0.0f;
            if (c->crowding_counterflow) {
                c->crowding_spot[at] = c->pos[i]; // the first agent in it (agent order)
                memset(c->crowding_flow + (size_t)at * WF_CROWDING_HEADINGS, 0,
                       sizeof(float) * WF_CROWDING_HEADINGS);
            }
        }
        c->crowding_scale[at] = density > c->crowding_scale[at] ? density : c->crowding_scale[at];
        if (c->crowding_counterflow) {
            note_heading(c->crowding_flow + (size_t)at * WF_CROWDING_HEADINGS, c->desired_vel[i],
                         density);
        }
    }
    for (uint32_t at = 0; at < c->crowding_capacity; ++at) {
        if (c->crowding_keys[at] != 0) {
            c->crowding_scale[at] = 1.0f + c->crowding_cost * c->crowding_scale[at];
        }
    }
}

float wf_crowding_scale(const void* user, wf_poly_ref poly) {
    const wf_crowd* c = user;
    uint32_t mask = c->crowding_capacity - 1u;
    for (uint32_t at = slot_of(poly.bits, mask);; at = (at + 1u) & mask) {
        uint64_t key = c->crowding_keys[at];
        if (key == poly.bits) {
            return c->crowding_scale[at];
        }
        if (key == 0) {
            return 1.0f;
        }
    }
}

void wf_crowding_aim(wf_crowd* c, uint32_t view, wf_vec3 goal) {
    if (c->crowding_views != NULL) {
        c->crowding_views[view].goal = goal;
    }
}

float wf_crowding_scale_counterflow(const void* user, wf_poly_ref poly) {
    const wf_crowding_view* view = user;
    const wf_crowd* c = view->crowd;
    uint32_t mask = c->crowding_capacity - 1u;
    uint32_t at = slot_of(poly.bits, mask);
    for (;; at = (at + 1u) & mask) {
        uint64_t key = c->crowding_keys[at];
        if (key == poly.bits) {
            break;
        }
        if (key == 0) {
            return 1.0f;
        }
    }
    // The searcher's way there: from the polygon's first agent to the goal.
    // A quarter counts when its middle is more than 60 degrees off that way
    // (cos < 0.5), compared squared to spare the square root.
    float dx = view->goal.x - c->crowding_spot[at].x, dz = view->goal.z - c->crowding_spot[at].z;
    float len_sq = dx * dx + dz * dz;
    if (len_sq < 1e-6f) {
        return c->crowding_scale[at]; // at the goal: every agent counts
    }
    const float along[WF_CROWDING_HEADINGS] = {dx, dz, -dx, -dz};
    const float* flow = c->crowding_flow + (size_t)at * WF_CROWDING_HEADINGS;
    float against = 0.0f;
    for (uint32_t b = 0; b < WF_CROWDING_HEADINGS; ++b) {
        bool counts = along[b] < 0.0f || 4.0f * along[b] * along[b] < len_sq;
        against = counts && flow[b] > against ? flow[b] : against;
    }
    return 1.0f + c->crowding_cost * against;
}
