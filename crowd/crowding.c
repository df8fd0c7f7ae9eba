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
#include <string.h>

#include "crowd/crowd_phases.h"

static uint32_t slot_of(uint64_t bits, uint32_t mask) {
    bits ^= bits >> 33;
    bits *= 0xff51afd7ed558ccdull; // a 64-bit mix (MurmurHash3's finaliser)
    bits ^= bits >> 33;
    return (uint32_t)bits & mask;
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
