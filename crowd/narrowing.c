// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Turn-taking where a walled lane narrows (nav_test's west lane: 3.1-3.6 m
// wide, 1.55-1.77 m for 0.7 m; docs/benchmarks.md nav23, narrow24,
// narrow25). Each walled agent finds the narrowing ahead from its own walls
// (bottleneck.c, narrow_at); agents whose narrowing points lie within
// WF_CROWD_NARROW_MATCH_RADII of each other share an entry, and the two
// streams (by the sign of their way along the entry's first agent's way)
// are its two sides. Per entry one side holds the way: the side with
// admitted agents (AGENT_NARROW_GO), else a side that waited its turn,
// else the side whose agent is nearest. The holding side admits its next
// agent while it follows within a short gap of the admitted ones, until
// the other side has waited its turn; the other side waits short of the
// narrowing in its right half, clear of the half the others come out in.
// The table is rebuilt every update in agent order from the agents'
// flags (saved) and stuck timers: any worker count and a restored crowd
// agree.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crowd/crowd_phases.h"

/// A narrowing in the per-update table: where its first agent's narrow
/// point lies and that agent's way (side 0 walks along it), per side its
/// admitted agents (how many, the nearest and farthest of them from the
/// narrowing), its nearest waiting agent and how long a waiting agent of it
/// has stood.
typedef struct narrow_entry {
    float x, z, ax, az;
    float go_near[2], go_far[2], near[2], waited[2];
    uint32_t near_agent[2];
    uint16_t go[2], agents[2];
    uint8_t holder;
    bool closed;
} narrow_entry;

// The table lives in the passage table's scratch (its life ends before
// this runs), which holds two passage entries an agent.
_Static_assert(sizeof(narrow_entry) <= 2u * sizeof(wf_crowd_pinch_entry),
               "one narrowing entry an agent fits the passage table's scratch");

static uint32_t side_holding(const narrow_entry* e, float turn) {
    bool g0 = e->go[0] > 0u, g1 = e->go[1] > 0u;
    if (g0 != g1) {
        return g0 ? 0u : 1u;
    }
    if (g0) {
        return e->go_near[0] <= e->go_near[1] ? 0u : 1u;
    }
    bool w0 = e->waited[0] >= turn, w1 = e->waited[1] >= turn;
    if (w0 != w1) {
        return w0 ? 0u : 1u;
    }
    if (e->near[0] != e->near[1]) {
        return e->near[0] < e->near[1] ? 0u : 1u;
    }
    return e->near_agent[0] < e->near_agent[1] ? 0u : 1u;
}

void wf_crowd_order_narrowings(wf_crowd* c) {
    narrow_entry* table = (narrow_entry*)(void*)c->pinch_table;
    uint32_t used = 0;
    const float turn = c->stuck_time * WF_CROWD_NARROW_TURN_STUCK;
    for (uint32_t i = 0; i < c->max_agents; ++i) {
        c->agent_flags[i] &= ~(uint32_t)AGENT_WAITS_NARROW;
        wf_crowd_pinch* pin = &c->pinch[i];
        uint32_t at = c->narrow_at[i];
        if (!c->active[i] || at == 0xffu || pin->ahead || pin->lane != 0u) {
            c->agent_flags[i] &= ~(uint32_t)AGENT_NARROW_GO;
            continue;
        }
        wf_vec3 dir = wf_v3(1.0f, 0.0f, 0.0f);
        (void)wf_crowd_path_dir(c, i, &dir); // true: narrow_at says so
        float r = c->params[i].radius, d = (float)at * r;
        float px = c->pos[i].x + dir.x * d, pz = c->pos[i].z + dir.z * d;
        float match = r * WF_CROWD_NARROW_MATCH_RADII;
        uint32_t k = 0;
        while (k < used && (table[k].x - px) * (table[k].x - px) +
                                   (table[k].z - pz) * (table[k].z - pz) >=
                               match * match) {
            k++;
        }
        narrow_entry* e = &table[k];
        if (k == used) {
            memset(e, 0, sizeof *e);
            e->x = px;
            e->z = pz;
            e->ax = dir.x;
            e->az = dir.z;
            for (uint32_t s = 0; s < 2u; ++s) {
                e->go_near[s] = e->near[s] = INFINITY;
                e->go_far[s] = -1.0f;
                e->near_agent[s] = UINT32_MAX;
            }
            used++;
        }
        uint32_t s = dir.x * e->ax + dir.z * e->az >= 0.0f ? 0u : 1u;
        pin->entry[0] = k;
        pin->side[0] = (uint8_t)s;
        pin->dist = d;
        e->agents[s]++;
        if ((c->agent_flags[i] & AGENT_NARROW_GO) || at == 0u) {
            e->go[s]++;
            e->go_near[s] = d < e->go_near[s] ? d : e->go_near[s];
            e->go_far[s] = d > e->go_far[s] ? d : e->go_far[s];
        } else {
            if (d < e->near[s]) {
                e->near[s] = d;
                e->near_agent[s] = i;
            }
            e->waited[s] = c->stuck_timer[i] > e->waited[s] ? c->stuck_timer[i] : e->waited[s];
        }
    }
    static uint32_t frame = 0;
    if (getenv("NALOG") && (++frame % 60u) == 0u) {
        for (uint32_t i = 0; i < c->max_agents; ++i) {
            if (c->active[i]) {
                fprintf(stderr, "A\t%u\t%u\t%.2f\t%.2f\tw%u\tat%u\tf%u%u\n", frame, i, (double)c->pos[i].x,
                        (double)c->pos[i].z, c->walled[i], c->narrow_at[i],
                        (c->agent_flags[i] & AGENT_NARROW_GO) != 0, (c->agent_flags[i] & AGENT_WAITS_NARROW) != 0);
            }
        }
    }
    for (uint32_t k = 0; k < used; ++k) {
        narrow_entry* e = &table[k];
        e->holder = (uint8_t)side_holding(e, turn);
        e->closed = e->go[e->holder] > 0u && e->waited[e->holder ^ 1u] >= turn;
        if (getenv("NELOG")) {
            fprintf(stderr, "E\t%u\t%.2f\t%.2f\t%u/%u\t%u/%u\th%u c%u\tw %.2f %.2f\tn %.2f %.2f\tgf %.2f %.2f\n", k,
                    (double)e->x, (double)e->z, e->go[0], e->agents[0], e->go[1], e->agents[1],
                    e->holder, e->closed, (double)e->waited[0], (double)e->waited[1],
                    (double)e->near[0], (double)e->near[1], (double)e->go_far[0], (double)e->go_far[1]);
        }
    }
    for (uint32_t i = 0; i < c->max_agents; ++i) {
        wf_crowd_pinch* pin = &c->pinch[i];
        uint32_t at = c->narrow_at[i];
        if (!c->active[i] || at == 0xffu || pin->ahead || pin->lane != 0u) {
            continue;
        }
        const narrow_entry* e = &table[pin->entry[0]];
        uint32_t s = pin->side[0];
        bool go = (c->agent_flags[i] & AGENT_NARROW_GO) != 0;
        float d = pin->dist, gap = c->params[i].radius * WF_CROWD_NARROW_GAP_RADII;
        if (e->agents[s ^ 1u] == 0u) {
            go = true; // one stream: its file is admitted as it comes
        } else if (s == e->holder) {
            // The holding file keeps the way while its next agent follows
            // within a short gap; once the other side waited its turn, the
            // admitted go on and nobody new is.
            go = go || at == 0u ||
                 (!e->closed && (e->go[s] == 0u ? e->near_agent[s] == i : d <= e->go_far[s] + gap));
        } else {
            go = at == 0u; // in the narrowing already: through
        }
        if (go) {
            c->agent_flags[i] |= AGENT_NARROW_GO;
        } else {
            c->agent_flags[i] =
                (c->agent_flags[i] & ~(uint32_t)AGENT_NARROW_GO) | AGENT_WAITS_NARROW;
            if (getenv("NWLOG")) { // screening trace
                fprintf(stderr, "NW\t%u\t%u\t%.2f\t%.2f\t%u\n", i, e->near_agent[e->holder],
                        (double)c->pos[i].x, (double)c->pos[i].z, at);
            }
        }
    }
}

wf_vec3 wf_crowd_narrow_wait_velocity(const wf_crowd* c, uint32_t i, wf_vec3 dir, wf_vec3 desired) {
    const wf_agent_params* p = &c->params[i];
    float at = (float)c->narrow_at[i];
    // Short of the narrowing: no nearer than WF_CROWD_NARROW_WAIT_RADII.
    float fwd = desired.x * dir.x + desired.z * dir.z;
    float keep = (at - WF_CROWD_NARROW_WAIT_RADII) * p->max_speed;
    keep = keep > 0.0f ? keep : 0.0f;
    if (fwd > keep) {
        desired = wf_v3_sub(desired, wf_v3_scale(dir, fwd - keep));
    }
    // In its right half (a quarter of the width right of the middle): the
    // other stream comes out in the left one.
    float off = (float)c->narrow_off[i] * 0.125f, half = (float)c->narrow_half[i] * 0.125f;
    float want = half * WF_CROWD_NARROW_SIDE;
    float step = want - off; // radii
    step = step > 1.0f ? 1.0f : (step < -1.0f ? -1.0f : step);
    wf_vec3 right = wf_v3(-dir.z, 0.0f, dir.x);
    return wf_v3_add(desired, wf_v3_scale(right, step * p->max_speed * WF_CROWD_NARROW_STEP));
}
