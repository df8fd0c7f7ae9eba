// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Spots shared by holders whose targets lie much closer than their bodies
// are wide: each holds a point moved off its target, away from the
// others', so that the bodies fit and each stands near its own target. Two
// (a pair) or more (a knot).
#include <math.h>

#include "crowd/crowd_phases.h"

/// Whether arrived neighbour j's target crowds i's (nearer than
/// WF_CROWD_SHARED_SPOT_NEAR of the two radii's sum).
static bool crowds(const wf_crowd* c, uint32_t i, uint32_t j) {
    float near = (c->params[i].radius + c->params[j].radius) * WF_CROWD_SHARED_SPOT_NEAR;
    return c->target_state[j] == WF_TARGET_ARRIVED &&
           wf_v2_distance_sq(c->target_pos[i], c->target_pos[j]) < near * near;
}

/// How arrived neighbour j's target lies against i's: 2 crowding (crowds),
/// 1 nearer than WF_CROWD_KNOT_TOUCH of the two radii's sum (the bodies
/// cannot both stand on their targets), 0 neither.
static uint32_t target_link(const wf_crowd* c, uint32_t i, uint32_t j) {
    if (c->target_state[j] != WF_TARGET_ARRIVED) {
        return 0;
    }
    float room = c->params[i].radius + c->params[j].radius;
    float d2 = wf_v2_distance_sq(c->target_pos[i], c->target_pos[j]);
    float near = room * WF_CROWD_SHARED_SPOT_NEAR, touch = room * WF_CROWD_KNOT_TOUCH;
    return d2 < near * near ? 2u : d2 < touch * touch ? 1u : 0u;
}

/// The one arrived neighbour of i whose target crowds i's (nearer than
/// WF_CROWD_SHARED_SPOT_NEAR of the two radii's sum); false when there is
/// none, or more than one (a knot: knot_spot).
static bool crowding_neighbour(const wf_crowd* c, uint32_t i, uint32_t* out) {
    const uint32_t* neighbours = c->neighbours + (size_t)i * c->max_neighbours;
    uint32_t found = 0;
    for (uint32_t k = 0; k < c->neighbour_count[i]; ++k) {
        uint32_t j = neighbours[k];
        if (crowds(c, i, j)) {
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

/// A knot: two or more arrived neighbours whose targets crowd i's (or
/// only touch it, when some pair in the knot crowds: hold25). The
/// knot's spots are placed together (i's view of it: i and those
/// neighbours): each starts on its target, nudged towards where its agent
/// stands (that breaks ties, as for targets on a line, the way the bodies
/// already lean), then pairs nearer than their room are pushed apart (half
/// each, all of it onto the one of lower priority) and each spot is drawn
/// back within its cap of its target, a few rounds. Summed pair shares
/// taken from the targets alone left spots that did not fit side by side
/// (three targets on a line: the middle one kept its target, the outer ones
/// stood 0.84 m from it for 1.2 m bodies; docs/benchmarks.md, hold19).
/// False for fewer than two, or when no pair in it crowds; then *crowding
/// is how many neighbours crowd i
/// (0 or 1, *one that one), what crowding_neighbour would count again.
static bool knot_spot(const wf_crowd* c, uint32_t i, wf_vec3* out, uint32_t* crowding,
                      uint32_t* one) {
    wf_vec3 target = c->target_pos[i];
    uint32_t member[WF_CROWD_KNOT_MAX];
    uint32_t direct = 1; // members [1, direct) crowd i itself
    float px[WF_CROWD_KNOT_MAX], pz[WF_CROWD_KNOT_MAX];
    float mx[WF_CROWD_KNOT_MAX], mz[WF_CROWD_KNOT_MAX];
    uint32_t n = 0;
    member[n++] = i;
    // i's crowding neighbours, then theirs (a holder at the end of a line
    // of targets is crowded by one, but stands in the knot).
    // Neighbours whose targets only touch (WF_CROWD_KNOT_TOUCH) join a
    // knot that has a crowding pair in it, so the spots moved apart do not
    // land on theirs (settled together, hold25); a chain of touching
    // targets alone (circle128's ring) is no knot.
    // i's own links are read first: a touching neighbour takes a place
    // only while the crowding ones still to come keep theirs (before,
    // touching ones early in a long list could fill the knot, and i was
    // left as if nobody crowded it). Lists of up to WF_CROWD_KNOT_MAX - 1
    // (the default six) never meet the bound.
    uint8_t link_i[WF_CROWD_MAX_NEIGHBOURS];
    uint32_t crowding_i = 0, crowder = i;
    for (uint32_t k = 0; k < c->neighbour_count[i]; ++k) {
        uint32_t j = c->neighbours[(size_t)i * c->max_neighbours + k];
        link_i[k] = (uint8_t)target_link(c, i, j);
        if (link_i[k] == 2u) {
            ++crowding_i;
            crowder = j;
        }
    }
    uint32_t crowded = 0;       // crowding links seen
    uint32_t owed = crowding_i; // places kept for i's crowding ones still unread
    for (uint32_t from = 0; from < direct; ++from) {
        uint32_t f = member[from];
        const uint32_t* nb = c->neighbours + (size_t)f * c->max_neighbours;
        for (uint32_t k = 0; k < c->neighbour_count[f] && n < WF_CROWD_KNOT_MAX; ++k) {
            uint32_t j = nb[k];
            uint32_t link = from == 0 ? link_i[k] : target_link(c, f, j);
            if (link == 0u || (link == 1u && n + owed >= WF_CROWD_KNOT_MAX)) {
                continue;
            }
            crowded += link == 2u;
            owed -= from == 0 && link == 2u;
            bool seen = false;
            for (uint32_t a = 0; a < n && !seen; ++a) {
                seen = member[a] == j;
            }
            if (!seen) {
                member[n++] = j;
            }
        }
        if (from == 0) {
            direct = n;
        }
    }
    if (n < 3 || crowded == 0u) {
        // i's neighbours were all read (fewer than WF_CROWD_KNOT_MAX kept),
        // or no pair in the knot crowds (touching targets alone).
        _Static_assert(WF_CROWD_KNOT_MAX >= 3u, "a knot of three fits");
        *crowding = crowding_i;
        *one = crowder;
        return false;
    }
    for (uint32_t a = 0; a < n; ++a) {
        uint32_t m = member[a];
        px[a] = c->target_pos[m].x + (c->pos[m].x - c->target_pos[m].x) * WF_CROWD_KNOT_LEAN;
        pz[a] = c->target_pos[m].z + (c->pos[m].z - c->target_pos[m].z) * WF_CROWD_KNOT_LEAN;
    }
    for (int round = 0; round < WF_CROWD_KNOT_ROUNDS; ++round) {
        for (uint32_t a = 0; a < n; ++a) {
            mx[a] = 0.0f;
            mz[a] = 0.0f;
        }
        for (uint32_t a = 0; a < n; ++a) {
            for (uint32_t b = a + 1; b < n; ++b) {
                const wf_agent_params* pa = &c->params[member[a]];
                const wf_agent_params* pb = &c->params[member[b]];
                float room = (pa->radius + pb->radius) * WF_CROWD_SHARED_SPOT_ROOM;
                float dx = px[a] - px[b], dz = pz[a] - pz[b];
                float d = sqrtf(dx * dx + dz * dz);
                if (d >= room || d < 1e-4f) {
                    continue;
                }
                float to_a = pa->priority < pb->priority   ? 1.0f
                             : pa->priority > pb->priority ? 0.0f
                                                           : 0.5f;
                float lack = (room - d) / d;
                mx[a] += dx * lack * to_a;
                mz[a] += dz * lack * to_a;
                mx[b] -= dx * lack * (1.0f - to_a);
                mz[b] -= dz * lack * (1.0f - to_a);
            }
        }
        for (uint32_t a = 0; a < n; ++a) {
            uint32_t m = member[a];
            float most = c->params[m].radius * WF_CROWD_SHARED_SPOT_MAX_RADII;
            float ox = px[a] + mx[a] - c->target_pos[m].x;
            float oz = pz[a] + mz[a] - c->target_pos[m].z;
            float off = sqrtf(ox * ox + oz * oz);
            float k = off > most ? most / off : 1.0f;
            px[a] = c->target_pos[m].x + ox * k;
            pz[a] = c->target_pos[m].z + oz * k;
        }
    }
    *out = wf_v3(px[0], target.y, pz[0]);
    return true;
}

bool wf_crowd_shared_spot(const wf_crowd* c, uint32_t i, wf_vec3* out) {
    uint32_t j = 0, back = 0, crowding = 0;
    if (knot_spot(c, i, out, &crowding, &j)) {
        return true;
    }
    if (crowding != 1u || c->params[i].priority > c->params[j].priority) {
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
