// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The phases of the crowd update, shared by the files that hold them:
// paths (crowd_paths.c), movement (crowd_motion.c) and the update that
// runs them in order (crowd_update.c).
#ifndef WF_CROWD_PHASES_H
#define WF_CROWD_PHASES_H

#include "crowd/crowd_internal.h"
#include "crowd/crowd_tuning.h"

/// What a parallel phase gets: the crowd, the step, and for phases over a
/// list of agents (or search slots) that list.
typedef struct phase_ctx {
    wf_crowd* c;
    float dt;
    const uint32_t* list;   ///< agent (or search) indices, NULL: every slot
    wf_parallel_for_fn* fn; ///< the phase body, run by the timing wrapper
    wf_crowd_phase phase;
    bool deep_only; ///< collisions: a pass that moves only agents left in a deep contact
} phase_ctx;

static inline bool wf_crowd_walking(const wf_crowd* c, uint32_t i) {
    return c->active[i] && c->mode[i] == WF_AGENT_WALKING;
}

/// States in which an agent follows its corridor. An arrived agent keeps
/// the end of its own: it holds its spot (pushed off it, it walks back).
static inline bool wf_crowd_follows_path(const wf_crowd* c, uint32_t i) {
    uint8_t ts = c->target_state[i];
    return ts == WF_TARGET_REQUESTED || ts == WF_TARGET_VALID || ts == WF_TARGET_ARRIVED ||
           (ts == WF_TARGET_BLOCKED && (c->agent_flags[i] & AGENT_CONTINUE_BLOCKED));
}

/// Adds a worker's time in a phase to the profile (thread time, summed
/// over workers).
static inline void wf_crowd_add_time(wf_crowd* c, uint32_t worker, wf_crowd_phase phase,
                                     double us) {
    c->worker_tally[worker].phase_us[phase] += us;
}

// Paths (crowd_paths.c).
void wf_crowd_validate_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context);
void wf_crowd_queue_replans(wf_crowd* c, wf_crowd_profile* profile);
void wf_crowd_quick_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context);
void wf_crowd_settle_quick(wf_crowd* c, const uint32_t* list, uint32_t count);
void wf_crowd_serve_queue(wf_crowd* c, phase_ctx* ctx, wf_crowd_profile* profile);
void wf_crowd_run_callbacks(wf_crowd* c);
uint32_t wf_crowd_pick_topology(wf_crowd* c, uint32_t* out);
void wf_crowd_topology_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context);

// Crowding (crowding.c).
void wf_crowding_refresh(wf_crowd* c);
/// The crowd's wf_poly_cost_fn (user: the crowd).
float wf_crowding_scale(const void* user, wf_poly_ref poly);
/// The flow table (walkers' unit wishes per polygon), from saved state.
void wf_crowd_flow_refresh(wf_crowd* c);
/// A search's view of the flow: its way (a unit xz direction) and whether
/// the crowding table prices it too.
typedef struct wf_flow_view {
    const wf_crowd* c;
    wf_vec3 way;
    bool crowding;
} wf_flow_view;
/// wf_poly_cost_fn (user: a wf_flow_view): the crowding factor (or 1) plus
/// flow_cost x the flow there against the way.
float wf_crowd_flow_scale(const void* user, wf_poly_ref poly);
/// Searches running in the queue begin again (the crowding table changed).
void wf_crowd_restart_searches(wf_crowd* c);
/// After a restore: searches in progress are replayed to where they were
/// (crowd_restore.c calls it once the blob is committed).
void wf_crowd_replay_searches(wf_crowd* c);

// Movement (crowd_motion.c).
/// Neighbours and walls, corners, steering and avoidance of each agent in
/// one pass: they read only the agent's own slot and every agent's
/// position and velocity, which no step of the pass writes.
void wf_crowd_decide_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context);
void wf_crowd_start_offmesh(wf_crowd* c);
/// Single-file passages (bottleneck.c): each agent's passage ahead
/// (parallel), then who has the way at each (serial, agent order), and the
/// velocity of an agent waiting for its turn.
void wf_crowd_find_pinches_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context);
void wf_crowd_order_pinches(wf_crowd* c);
/// Whether a single-file passage lies among the first polygons of agent
/// i's corridor as it is now (a pure function of the corridor and the mesh:
/// the same in a restored crowd, unlike the last update's pinch_found).
bool wf_crowd_passage_ahead(const wf_crowd* c, uint32_t i);
wf_vec3 wf_crowd_pinch_wait_velocity(const wf_crowd* c, uint32_t i);
/// Velocity v of admitted agent i as it may be beside a one-way single-file
/// mouth whose leader goes in: no part of it towards the passage's axis,
/// a little away from it (bottleneck.c; v unchanged for everyone else).
wf_vec3 wf_crowd_pinch_beside_velocity(const wf_crowd* c, uint32_t i, wf_vec3 v);
void wf_crowd_integrate_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context);
void wf_crowd_collide_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context);
void wf_crowd_surface_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context);

// Holding a spot (free_spot.c).
/// The point nearest target where agent i would stand clear of every
/// neighbour's body; false when there is none among the candidates.
bool wf_crowd_free_spot(const wf_crowd* c, uint32_t i, wf_vec3 target, wf_vec3* out);
// Sharing a spot (shared_spot.c).
/// Arrived agent i holds the spot at its target (or one shared near it):
/// not stopped short, not waiting for a search, not put elsewhere.
bool wf_crowd_holds_shared_spot(const wf_crowd* c, uint32_t i);
/// Where arrived agent i holds its target when one arrived neighbour's
/// target is nearer it than WF_CROWD_SHARED_SPOT_NEAR of their bodies'
/// width: moved straight away from that target by half of what the two
/// lack (all of it when the other does not share), at most
/// WF_CROWD_SHARED_SPOT_MAX_RADII; with two or more such neighbours (a
/// knot), by the pairs' shares summed, capped the same; false when there
/// is no such neighbour (it holds its own target).
bool wf_crowd_shared_spot(const wf_crowd* c, uint32_t i, wf_vec3* out);

#endif
