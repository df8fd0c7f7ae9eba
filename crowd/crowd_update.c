// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The crowd update: its phases in order. Each parallel phase is a loop
// over agents that reads what earlier phases wrote and writes only its
// agent's slot (or a search slot); short serial steps in agent order sit
// between them where agents meet shared state (the path queue, busy
// off-mesh links, callbacks), so any worker count gives the same bits.
#include <math.h>
#include <string.h>

#include "crowd/crowd_phases.h"
#include "navcore/check.h"
#include "navcore/clock.h"

/// Runs a phase body and charges its time to the phase.
static void timed_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    phase_ctx* ctx = context;
    double t0 = wf_clock_us();
    ctx->fn(begin, end, worker, context);
    wf_crowd_add_time(ctx->c, worker, ctx->phase, wf_clock_us() - t0);
}

static void run_phase(wf_crowd* c, wf_crowd_phase phase, uint32_t count, uint32_t min_block,
                      wf_parallel_for_fn* fn, phase_ctx* ctx) {
    ctx->fn = fn;
    ctx->phase = phase;
    wf_status s = wf_jobs_parallel_for(&c->jobs, count, min_block, timed_fn, ctx);
    WF_ASSERT(s == WF_OK); // fn is set and the job system was checked at creation
    (void)s;
}

/* ---------------------------------------------------------------------------
 * Events: arrivals and stuck agents (serial: replans enter the queue)
 */

/// The end of the path is reached (kind ARRIVED), or as near as the agent
/// gets (STOPPED_SHORT): done is due, once per arrival.
static void arrive(wf_crowd* c, uint32_t i, wf_crowd_event_kind kind) {
    c->stuck_timer[i] = 0.0f;
    c->agent_flags[i] &= ~(uint32_t)(AGENT_BLOCK_SENT | AGENT_FREE_STEPS); // a blockage ends
    if (kind == WF_CROWD_EVENT_STOPPED_SHORT) {
        c->agent_flags[i] |= AGENT_STOPPED_SHORT;
    } else {
        c->agent_flags[i] &= ~(uint32_t)AGENT_STOPPED_SHORT;
    }
    if (!(c->agent_flags[i] & AGENT_DONE_SENT)) {
        c->agent_flags[i] |= AGENT_DONE_SENT | AGENT_NOTIFY_DONE;
        wf_crowd_push_event(c, i, kind, (wf_poly_ref){0});
    }
}

/// Starts the stuck timer again when the agent got more than half a radius
/// nearer the point it steers to (its next corner, else its path's end)
/// than it was where the timer started; returns true when it did (it made
/// progress). Nearer, not merely away: in a jam agents jostle back and
/// forth and sideways without getting anywhere.
static bool made_progress(wf_crowd* c, uint32_t i, float dt) {
    const wf_straight_point* corners = c->corners + (size_t)i * WF_CROWD_MAX_CORNERS;
    wf_vec3 ahead = c->corner_count[i] > 0 ? corners[0].pos : c->corridor[i].target;
    float gained = wf_v2_distance(c->stuck_spot[i], ahead) - wf_v2_distance(c->pos[i], ahead);
    if (c->stuck_timer[i] == 0.0f || gained > c->params[i].radius * WF_CROWD_PROGRESS_RADII) {
        c->stuck_spot[i] = c->pos[i];
        c->stuck_timer[i] = dt;
        return true;
    }
    return false;
}

/// A reported blockage ends once the agent walks on: WF_CROWD_FREE_STEPS
/// brisk steps of progress in a row (`held`: how long the step took, the
/// stuck timer before made_progress restarted it). A timer restarted by
/// a search or a report (0) is no step.
static void walks_free(wf_crowd* c, uint32_t i, float held) {
    uint32_t flags = c->agent_flags[i];
    if (!(flags & AGENT_BLOCK_SENT) || held <= 0.0f) {
        return;
    }
    uint32_t steps = 0;
    if (held <= c->stuck_time * WF_CROWD_FREE_STEP_STUCK) {
        steps = ((flags & AGENT_FREE_STEPS) >> AGENT_FREE_STEPS_SHIFT) + 1u;
    }
    flags &= ~(uint32_t)AGENT_FREE_STEPS;
    if (steps >= WF_CROWD_FREE_STEPS) {
        flags &= ~(uint32_t)AGENT_BLOCK_SENT;
    } else {
        flags |= steps << AGENT_FREE_STEPS_SHIFT;
    }
    c->agent_flags[i] = flags;
}

/// Throws the corridor away and searches again from where the agent stands.
static void search_again(wf_crowd* c, uint32_t i) {
    wf_corridor* cor = &c->corridor[i];
    wf_corridor_reset(cor, cor->polys[0], c->pos[i]);
    c->agent_flags[i] |= AGENT_NEEDS_REPLAN;
    c->corridor_partial[i] = 0;
}

/// An arrived agent walking back to its spot: the stuck timer runs while it
/// is pushed further than WF_CROWD_RETURN_RADII off it; stuck, it is let
/// through (AGENT_RETURNING: agent_rank counts it on its way) until it is
/// back. Holders only step aside for a returner that could not get back by
/// itself, so one push does not set off a cascade of them.
static void hold_spot(wf_crowd* c, uint32_t i, float dt) {
    float r = c->params[i].radius;
    float away = wf_v2_distance(c->pos[i], c->corridor[i].target);
    if (!wf_crowd_walking(c, i) || away <= r * WF_CROWD_ARRIVAL_RADII) {
        c->stuck_timer[i] = 0.0f;
        c->agent_flags[i] &= ~(uint32_t)AGENT_RETURNING;
        return;
    }
    if (away <= r * WF_CROWD_RETURN_RADII && !(c->agent_flags[i] & AGENT_RETURNING)) {
        c->stuck_timer[i] = 0.0f;
        return;
    }
    if (!made_progress(c, i, dt)) {
        c->stuck_timer[i] += dt;
    }
    if (c->stuck_timer[i] >= c->stuck_time) {
        c->agent_flags[i] |= AGENT_RETURNING;
    }
}

/// An arrived agent that stopped short of its target: the target has room
/// for it again (no neighbour stands there).
static bool target_freed(const wf_crowd* c, uint32_t i) {
    if (!(c->agent_flags[i] & AGENT_STOPPED_SHORT)) {
        return false;
    }
    const wf_agent_params* p = &c->params[i];
    wf_vec3 target = c->target_pos[i];
    const uint32_t* neighbours = c->neighbours + (size_t)i * c->max_neighbours;
    for (uint32_t k = 0; k < c->neighbour_count[i]; ++k) {
        uint32_t j = neighbours[k];
        float room = p->radius + c->params[j].radius;
        if (wf_v2_distance_sq(c->pos[j], target) < room * room) {
            return false;
        }
    }
    return true;
}

/// An agent that stopped short moves the spot it holds to the free point
/// nearest its target, when that is nearer the target than the agent
/// stands by more than WF_CROWD_PROGRESS_RADII and on the surface (reached
/// along it from the spot). Holding where it stopped, one pushed
/// back while stuck kept standing off (circle128).
static void move_to_free_spot(wf_crowd* c, uint32_t i) {
    wf_corridor* cor = &c->corridor[i];
    float r = c->params[i].radius;
    wf_vec3 target = c->target_pos[i], spot;
    if (!wf_crowd_free_spot(c, i, target, &spot) ||
        wf_v2_distance(spot, target) + r * WF_CROWD_PROGRESS_RADII >
            wf_v2_distance(c->pos[i], target) ||
        wf_v2_distance(spot, cor->target) <= r * WF_CROWD_ARRIVAL_RADII) {
        return; // none clearly nearer than where it stands, or that is its spot
    }
    wf_vec3 reached;
    wf_poly_ref visited[8];
    uint32_t n = 0;
    const wf_query_filter* filter = wf_crowd_filter(c, i);
    wf_query* q = c->worker_queries[0];
    if (wf_query_move_along_surface(q, wf_corridor_last(cor), cor->target, spot, filter, &reached,
                                    visited, 8, &n) != WF_OK ||
        wf_v2_distance(reached, spot) > 0.01f) {
        return; // behind a wall, or further than a few polygons
    }
    (void)wf_corridor_move_target(cor, spot, q, filter);
}

/// An arrived agent holding the spot at its target moves it to the spot it
/// shares with neighbours whose targets crowd its own (shared_spot.c), and
/// back once they are gone. Both steering for their exact targets, the one
/// there first kept it and the other stood off it by the overlap
/// (nav_test500: most holders off their spots at the end had a target
/// within two radii of another holder's, docs/benchmarks.md, hold15).
static bool share_spot(wf_crowd* c, uint32_t i) {
    if (!wf_crowd_holds_shared_spot(c, i)) {
        return false; // a spot the game put it on, the end of a path that stops short, a search
    }
    wf_corridor* cor = &c->corridor[i];
    wf_vec3 spot = c->target_pos[i];
    bool shared = wf_crowd_shared_spot(c, i, &spot);
    if (!shared && !(c->agent_flags[i] & AGENT_SHARES_SPOT)) {
        return false; // its own spot (or it looks for a free one, stopped short)
    }
    // Shared, or back on its own target once nobody crowds it.
    if (wf_v2_distance(spot, cor->target) > c->params[i].radius * WF_CROWD_SHARED_SPOT_MOVE_RADII &&
        !wf_corridor_move_target(cor, spot, c->worker_queries[0], wf_crowd_filter(c, i))) {
        return shared;
    }
    c->agent_flags[i] &= ~(uint32_t)(AGENT_STOPPED_SHORT | AGENT_SHARES_SPOT);
    if (shared) {
        c->agent_flags[i] |= AGENT_SHARES_SPOT; // it holds its share now
    }
    return shared;
}

static void detect_events(wf_crowd* c, float dt, wf_crowd_profile* profile) {
    for (uint32_t i = 0; i < c->max_agents; ++i) {
        if (c->target_state[i] == WF_TARGET_ARRIVED) {
            // It holds its spot (steering, crowd_motion.c); one that stopped
            // short goes for its target once there is room.
            if (wf_crowd_walking(c, i) && target_freed(c, i)) {
                c->agent_flags[i] &= ~(uint32_t)AGENT_STOPPED_SHORT;
                search_again(c, i);
            } else if (wf_crowd_walking(c, i) && !share_spot(c, i) &&
                       (c->agent_flags[i] & AGENT_STOPPED_SHORT)) {
                move_to_free_spot(c, i);
            }
            hold_spot(c, i, dt);
            continue;
        }
        if (!wf_crowd_walking(c, i) || !wf_crowd_follows_path(c, i) ||
            c->target_state[i] == WF_TARGET_REQUESTED) {
            if (c->active[i]) {
                c->stuck_timer[i] = 0.0f;
            }
            continue;
        }
        const wf_agent_params* p = &c->params[i];
        wf_corridor* cor = &c->corridor[i];
        // At the end: near the target with nothing but the end left to
        // steer to (the corridor may still hold the polygon next to the
        // agent's when both touch the target's edge).
        float to_end = wf_v2_distance(c->pos[i], cor->target);
        uint32_t nc = c->corner_count[i];
        const wf_straight_point* corners = c->corners + (size_t)i * WF_CROWD_MAX_CORNERS;
        bool direct =
            cor->count == 1 || nc == 0 || (nc == 1 && (corners[0].flags & WF_STRAIGHT_END));
        // A corridor waiting for a search, or for one to begin (cut back
        // to the agent's polygon when the tiles under the agent and its
        // target were rebuilt at once), ends where it was cut: no arrival.
        // Nor does the end of a broken path (blocked): that agent waits
        // there and searches again now and then.
        bool blocked = c->target_state[i] == WF_TARGET_BLOCKED;
        bool broken = blocked && c->corridor_partial[i];
        bool near_end = direct && to_end <= p->radius * WF_CROWD_SLOW_DOWN_RADII &&
                        !(c->agent_flags[i] & (AGENT_QUEUED | AGENT_NEEDS_REPLAN)) && !broken;
        if (near_end && to_end <= p->radius * WF_CROWD_ARRIVAL_RADII) {
            arrive(c, i, WF_CROWD_EVENT_ARRIVED);
            continue;
        }
        if ((c->agent_flags[i] & AGENT_DONE_SENT) && to_end > p->radius * WF_CROWD_REARRIVE_RADII) {
            c->agent_flags[i] &= ~(uint32_t)AGENT_DONE_SENT; // a follower pushed away
        }
        if (c->agent_flags[i] & AGENT_WAITS_OFFMESH) {
            c->stuck_timer[i] = 0.0f;
            continue;
        }
        // The timer: seconds since the agent last got more than half a
        // radius from where it stood (stuck_spot), not counting waits for
        // a path. Neither a new corner nor a replan restarts it: corridors
        // that keep changing under an agent that does not move (tiles
        // rebuilt nearby, shortcuts, the stuck replan itself) must not hide
        // that it is stuck.
        float held = c->stuck_timer[i];
        if (made_progress(c, i, dt)) {
            walks_free(c, i, held);
            c->agent_flags[i] &= ~(uint32_t)AGENT_STUCK_REPLANNED; // moved on
            if (blocked && !broken) {
                c->target_state[i] = WF_TARGET_VALID; // blocked by others, who made way
            }
            continue;
        }
        if (c->agent_flags[i] & AGENT_QUEUED) {
            continue; // waiting for its path: the timer does not run
        }
        c->stuck_timer[i] += dt;
        bool replanned = (c->agent_flags[i] & AGENT_STUCK_REPLANNED) != 0;
        if (c->stuck_timer[i] <
            (replanned && !blocked ? WF_CROWD_REPLANNED_STUCK_FACTOR : 1.0f) * c->stuck_time) {
            continue;
        }
        if (near_end) {
            arrive(c, i, WF_CROWD_EVENT_STOPPED_SHORT); // others or a wall at the target
            continue;
        }
        if (blocked) {
            // Blocked agents are retried every stuck_time. A broken path: a
            // search from where the agent stands (a door may have opened).
            // Blocked by others: its path stands, so it walks it again
            // (VALID), and the stuck replan of its next round searches
            // again from where it stands. A search here found that same
            // path every time: dropping it left every scene's motion as it
            // was (docs/benchmarks.md).
            c->stuck_timer[i] = 0.0f;
            if (!broken && (c->agent_flags[i] & AGENT_BLOCK_SENT)) {
                c->target_state[i] = WF_TARGET_VALID;
            } else {
                search_again(c, i);
            }
        } else if (!replanned) {
            // First time: search again from where the agent stands (the
            // timer runs on: blocked after another stuck_time).
            c->agent_flags[i] |= AGENT_STUCK_REPLANNED;
            search_again(c, i);
        } else {
            // Blocked by others (a jam, a taken passage). Reported once per
            // blockage: stuck again before it walks free (walks_free), it
            // is blocked again quietly, as the report's answer said (go on:
            // AGENT_CONTINUE_BLOCKED), and retried as any blocked agent.
            // Reporting every round made a BLOCKED every few seconds for
            // every agent in a jam (nav_test500: ~1,160 a minute).
            c->stuck_timer[i] = 0.0f;
            c->agent_flags[i] &= ~(uint32_t)(AGENT_STUCK_REPLANNED | AGENT_FREE_STEPS);
            uint32_t quiet = AGENT_BLOCK_SENT | AGENT_CONTINUE_BLOCKED;
            if ((c->agent_flags[i] & quiet) == quiet) {
                c->target_state[i] = WF_TARGET_BLOCKED;
            } else {
                c->agent_flags[i] |= AGENT_NOTIFY_BLOCKED | AGENT_BLOCK_SENT;
                wf_crowd_push_event(c, i, WF_CROWD_EVENT_BLOCKED, (wf_poly_ref){0});
            }
        }
    }
    wf_crowd_queue_replans(c, profile);
}

/* ---------------------------------------------------------------------------
 * Right of way
 */

/// Who yields to whom this update. The top bits (the class, above
/// WF_CROWD_RANK_CLASS_SHIFT): the game's priority, then agents on their
/// way before idle ones (arrived, waiting, stopped), which step aside as
/// people do (and walk back afterwards, if they hold a spot). The low bits
/// order agents on their way by how little of it is left (the corners
/// ahead, then straight on): away from single-file passages, a stuck agent
/// gives way head-on to one further along (crowd_motion.c, takes_way).
static uint32_t agent_rank(const wf_crowd* c, uint32_t i) {
    // An arrived agent walking back to its spot is not on its way: others
    // holding theirs need not step aside for it (no shoving cascades).
    // One stuck on its way back (AGENT_RETURNING) is let through.
    // One waiting for its turn at a single-file passage is still on its
    // way: ranked idle, a crowd waiting there was shoved together by
    // everyone passing through it (overlaps of 0.4 m in the demo).
    uint8_t ts = c->target_state[i];
    bool returning = (c->agent_flags[i] & AGENT_RETURNING) != 0;
    bool on_way = wf_crowd_walking(c, i) && (ts != WF_TARGET_ARRIVED || returning) &&
                  (wf_crowd_follows_path(c, i) || ts == WF_TARGET_VELOCITY);
    // Leading a file through a single-file passage (bottleneck.c) ranks
    // above others on their way.
    uint32_t lead = on_way && (c->agent_flags[i] & AGENT_PINCH_LEAD) ? 1u : 0u;
    uint32_t rank = (((uint32_t)c->params[i].priority << 2) | (on_way ? 2u : 0u) | lead)
                    << WF_CROWD_RANK_CLASS_SHIFT;
    if (!on_way || c->target_state[i] == WF_TARGET_VELOCITY) {
        return rank;
    }
    const wf_straight_point* corners = c->corners + (size_t)i * WF_CROWD_MAX_CORNERS;
    wf_vec3 at = c->pos[i];
    float left = 0.0f;
    for (uint32_t k = 0; k < c->corner_count[i]; ++k) {
        left += wf_v2_distance(at, corners[k].pos);
        at = corners[k].pos;
    }
    left += wf_v2_distance(at, c->target_pos[i]);
    const uint32_t most = (1u << WF_CROWD_RANK_CLASS_SHIFT) - 1u;
    float steps = left * WF_CROWD_RANK_STEPS_PER_METRE;
    uint32_t behind = steps < (float)most ? (uint32_t)steps : most;
    return rank | (most - behind);
}

/* ---------------------------------------------------------------------------
 * The update
 */

/// Per agent, before the grid is built (parallel: own slot only): whether
/// it goes in (scratch_agents as bytes, free again here), its half height,
/// rank and intent.
static void grid_inputs_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    phase_ctx* ctx = context;
    wf_crowd* c = ctx->c;
    uint8_t* in_grid = (uint8_t*)c->scratch_agents; // n bytes fit
    (void)worker;
    for (uint32_t i = begin; i < end; ++i) {
        in_grid[i] = wf_crowd_walking(c, i);
        c->half_height[i] = c->params[i].height * 0.5f;
        c->rank[i] = agent_rank(c, i);
        c->intent[i] = c->desired_vel[i];
    }
}

static uint32_t list_agents(wf_crowd* c, uint32_t flag) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->max_agents; ++i) {
        if (c->active[i] && (c->agent_flags[i] & flag)) {
            c->scratch_agents[n++] = i;
        }
    }
    return n;
}

/// Serial work charged to a phase (worker 0's account).
static double serial_since(wf_crowd* c, wf_crowd_phase phase, double t0) {
    double now = wf_clock_us();
    wf_crowd_add_time(c, 0, phase, now - t0);
    return now;
}

wf_status wf_crowd_update(wf_crowd* c, float dt, wf_crowd_profile* out_profile) {
    WF_CHECK_ARG(c != NULL);
    WF_CHECK_OR(!c->busy, WF_ERR_BUSY);
    WF_CHECK_ARG(isfinite(dt) && dt > 0.0f && dt <= 1.0f);
    c->busy = true;
    wf_crowd_profile profile;
    memset(&profile, 0, sizeof profile);
    double start = wf_clock_us();
    memset(c->worker_tally, 0, sizeof(wf_crowd_worker_tally) * c->worker_count);
    c->event_count = 0; // the last update's list shares its buffer with the passage table
    // The mesh holds still until the update returns: ids decode from a copy.
    wf_ref_codec_copy_generations(&c->codec, c->generations, c->generation_capacity);
    wf_crowd_debug_begin_update(c);
    phase_ctx ctx = {.c = c, .dt = dt, .list = NULL};
    uint32_t n = c->max_agents;
    if ((c->crowding_cost > 0.0f || c->stuck_crowding_cost > 0.0f) &&
        c->frame % WF_CROWD_CROWDING_FRAMES == 0) {
        double t_crowd = wf_clock_us();
        wf_crowding_refresh(c);
        if (c->crowding_cost > 0.0f) {
            wf_crowd_restart_searches(c); // queued searches price it too
        }
        (void)serial_since(c, WF_CROWD_PHASE_PATHS, t_crowd);
    }
    run_phase(c, WF_CROWD_PHASE_VALIDATE, n, WF_CROWD_BLOCK_LIGHT, wf_crowd_validate_fn, &ctx);
    double t0 = wf_clock_us();
    wf_crowd_queue_replans(c, &profile);
    c->tiles_changed = false;
    t0 = serial_since(c, WF_CROWD_PHASE_VALIDATE, t0);

    uint32_t quick = list_agents(c, AGENT_NEEDS_QUICK);
    ctx.list = c->scratch_agents;
    run_phase(c, WF_CROWD_PHASE_PATHS, quick, WF_CROWD_BLOCK_QUICK_PATHS, wf_crowd_quick_fn, &ctx);
    t0 = wf_clock_us();
    wf_crowd_settle_quick(c, c->scratch_agents, quick);
    for (uint32_t k = 0; k < quick; ++k) {
        profile.paths_completed += (c->agent_flags[c->scratch_agents[k]] & AGENT_QUEUED) == 0;
    }
    for (uint32_t w = 0; w < c->worker_count; ++w) {
        profile.path_iterations += c->worker_tally[w].iterations;
        c->worker_tally[w].iterations = 0;
    }
    wf_crowd_serve_queue(c, &ctx, &profile);
    t0 = serial_since(c, WF_CROWD_PHASE_PATHS, t0);

    wf_crowd_run_callbacks(c);
    t0 = serial_since(c, WF_CROWD_PHASE_CALLBACKS, t0);

    uint32_t topo = wf_crowd_pick_topology(c, c->scratch_agents);
    t0 = serial_since(c, WF_CROWD_PHASE_TOPOLOGY, t0);
    ctx.list = c->scratch_agents;
    run_phase(c, WF_CROWD_PHASE_TOPOLOGY, topo, WF_CROWD_BLOCK_TOPOLOGY, wf_crowd_topology_fn,
              &ctx);
    profile.topology_optimizations = topo;
    ctx.list = NULL;

    run_phase(c, WF_CROWD_PHASE_CORNERS, n, WF_CROWD_BLOCK_LIGHT, wf_crowd_find_pinches_fn, &ctx);
    t0 = wf_clock_us();
    wf_crowd_order_pinches(c);
    t0 = serial_since(c, WF_CROWD_PHASE_CORNERS, t0);
    run_phase(c, WF_CROWD_PHASE_GRID, n, WF_CROWD_BLOCK_LIGHT, grid_inputs_fn, &ctx);
    t0 = wf_clock_us();
    wf_proximity_grid_build(&c->grid, c->pos, c->half_height, (const uint8_t*)c->scratch_agents, n);
    (void)serial_since(c, WF_CROWD_PHASE_GRID, t0);

    // Neighbours, corners, steering and avoidance in one pass (each charges
    // its own time); then agents at free off-mesh links start over them.
    ctx.fn = wf_crowd_decide_fn;
    wf_status s =
        wf_jobs_parallel_for(&c->jobs, n, WF_CROWD_BLOCK_DECIDE, wf_crowd_decide_fn, &ctx);
    WF_ASSERT(s == WF_OK);
    (void)s;
    for (uint32_t w = 0; w < c->worker_count; ++w) {
        profile.avoidance_samples += c->worker_tally[w].iterations;
    }
    t0 = wf_clock_us();
    wf_crowd_start_offmesh(c);
    (void)serial_since(c, WF_CROWD_PHASE_CORNERS, t0);

    run_phase(c, WF_CROWD_PHASE_INTEGRATE, n, WF_CROWD_BLOCK_INTEGRATE, wf_crowd_integrate_fn,
              &ctx);
    for (uint32_t k = 0; k < c->collision_iterations; ++k) {
        // Each pass reads the positions and writes the pushed ones into
        // the other buffer; swapping them is the double buffering.
        run_phase(c, WF_CROWD_PHASE_COLLISIONS, n, WF_CROWD_BLOCK_COLLIDE, wf_crowd_collide_fn,
                  &ctx);
        wf_vec3* pushed = c->displaced;
        c->displaced = c->pos;
        c->pos = pushed;
    }
    run_phase(c, WF_CROWD_PHASE_SURFACE, n, WF_CROWD_BLOCK_LIGHT, wf_crowd_surface_fn, &ctx);

    t0 = wf_clock_us();
    c->time += dt;
    c->frame++;
    detect_events(c, dt, &profile);
    for (uint32_t i = 0; i < n; ++i) {
        if (c->event_log[i] != 0) {
            c->event_count = wf_crowd_list_events_of(c, i, c->event_count);
        }
        profile.lost_agents += c->active[i] && c->mode[i] == WF_AGENT_LOST;
    }
    profile.paths_queued = c->queue.count;
    (void)serial_since(c, WF_CROWD_PHASE_EVENTS, t0);
    for (uint32_t w = 0; w < c->worker_count; ++w) {
        for (uint32_t p = 0; p < WF_CROWD_PHASE_COUNT; ++p) {
            profile.phase_us[p] += c->worker_tally[w].phase_us[p];
        }
    }
    profile.total_us = wf_clock_us() - start;
    c->codec.generations = NULL; // the mesh may change from here on
    c->busy = false;
    if (out_profile != NULL) {
        *out_profile = profile;
    }
    return WF_OK;
}
