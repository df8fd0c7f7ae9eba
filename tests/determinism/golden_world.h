// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The scenes the golden hashes pin (header only): a world built from the
// demo level (tools/demo_level.c, generated: no test data needed) on a
// given worker count, agents walking between random points of its navmesh
// and asking for a new target whenever a request ends.
#ifndef WF_TESTS_GOLDEN_WORLD_H
#define WF_TESTS_GOLDEN_WORLD_H

#include "golden.h"
#include "tools/demo_level.h"
#include "wayfarer/query.h"
#include "wayfarer/rng.h"
#include "wayfarer/world.h"

#define GOLDEN_LEVEL_SEED 7u
#define GOLDEN_TARGETS 128u
#define GOLDEN_MAX_AGENTS 300u
#define GOLDEN_DT (1.0f / 30.0f)

typedef struct golden_world {
    demo_level level;
    wf_world* world;
    wf_rng rng;
    wf_vec3 targets[GOLDEN_TARGETS];
    wf_agent_id ids[GOLDEN_MAX_AGENTS];
    uint32_t agent_count;
} golden_world;

/// The demo level's world on `workers` workers (1: no thread) with
/// `agents` agents, each asked to walk to a random target.
static inline void golden_world_open(golden_world* g, uint32_t workers, uint32_t agents) {
    memset(g, 0, sizeof *g);
    if (agents > GOLDEN_MAX_AGENTS || demo_level_generate(GOLDEN_LEVEL_SEED, &g->level) != 0) {
        abort();
    }
    wf_geom geom = demo_level_geom(&g->level);
    wf_world_desc d;
    memset(&d, 0, sizeof d);
    d.geom = &geom;
    d.worker_count = workers;
    d.max_obstacles = 64;
    d.crowd.max_agents = GOLDEN_MAX_AGENTS;
    d.logger.quiet = true;
    if (wf_world_create(&d, &g->world) != WF_OK) {
        abort();
    }
    // Targets: random points of the bare navmesh, from a fixed seed.
    wf_query_desc qd = {.mesh = wf_world_mesh(g->world), .max_nodes = 256};
    wf_query* q = NULL;
    if (wf_query_create(&qd, &q) != WF_OK) {
        abort();
    }
    wf_query_filter filter = wf_query_filter_defaults();
    g->rng = wf_rng_make(GOLDEN_LEVEL_SEED, 3u);
    for (uint32_t k = 0; k < GOLDEN_TARGETS; ++k) {
        wf_poly_ref ref;
        if (wf_query_find_random_point(q, &filter, &g->rng, &ref, &g->targets[k]) != WF_OK) {
            abort();
        }
    }
    wf_query_destroy(q);

    wf_crowd* crowd = wf_world_crowd(g->world);
    const wf_tilecache_params* tp = wf_tilecache_get_params(wf_world_tilecache(g->world));
    wf_agent_params p = wf_agent_params_defaults();
    p.radius = tp->agent_radius;
    p.height = tp->agent_height;
    p.collision_query_range = p.radius * 12.0f;
    p.path_optimization_range = p.radius * 30.0f;
    for (uint32_t i = 0; i < agents; ++i) {
        p.priority = (uint8_t)(i % 3u);
        p.avoidance_preset = (uint8_t)(i % 4u); // every avoidance pattern
        wf_vec3 at = g->targets[wf_rng_next_u32(&g->rng) % GOLDEN_TARGETS];
        if (wf_crowd_add_agent(crowd, at, &p, &g->ids[i]) != WF_OK) {
            abort();
        }
        wf_vec3 to = g->targets[wf_rng_next_u32(&g->rng) % GOLDEN_TARGETS];
        if (wf_crowd_request_move(crowd, g->ids[i], to, NULL, NULL) != WF_OK) {
            abort();
        }
    }
    g->agent_count = agents;
}

/// A new target for every agent whose request ended in the last step.
static inline void golden_world_retarget(golden_world* g) {
    wf_crowd* crowd = wf_world_crowd(g->world);
    uint32_t n;
    const wf_crowd_event* e = wf_crowd_events(crowd, &n);
    for (uint32_t k = 0; k < n; ++k) {
        if (e[k].kind == WF_CROWD_EVENT_ARRIVED || e[k].kind == WF_CROWD_EVENT_BLOCKED ||
            e[k].kind == WF_CROWD_EVENT_STOPPED_SHORT) {
            wf_vec3 to = g->targets[wf_rng_next_u32(&g->rng) % GOLDEN_TARGETS];
            wf_status s = wf_crowd_request_move(crowd, e[k].agent, to, NULL, NULL);
            if (s != WF_OK && s != WF_ERR_STALE_REF) {
                abort();
            }
        }
    }
}

/// One step with no time limit on tile commits (at most `commits` a step),
/// so the world is a pure function of its inputs. Returns the step's hash:
/// the tiles it committed, in order, then every agent.
static inline uint64_t golden_world_step(golden_world* g, uint32_t commits, uint64_t h) {
    const wf_world_budget budget = {.tile_time_us = 0, .tile_commits = commits};
    wf_world_report r;
    if (wf_world_step(g->world, GOLDEN_DT, &budget, &r) != WF_OK) {
        abort();
    }
    h = golden_u32(h, r.tiles.tiles_committed);
    for (uint32_t i = 0; i < r.tiles.changed_count; ++i) {
        const wf_tilecache_changed_tile* c = &r.tiles.changed[i];
        int32_t where[3] = {c->tile_x, c->tile_z, c->layer};
        h = golden_fnv(h, where, sizeof where);
        h = golden_fnv(h, &c->old_tile.bits, sizeof c->old_tile.bits);
        h = golden_fnv(h, &c->new_tile.bits, sizeof c->new_tile.bits);
    }
    h = golden_crowd(h, wf_world_crowd(g->world));
    golden_world_retarget(g);
    return h;
}

static inline void golden_world_close(golden_world* g) {
    wf_world_destroy(g->world);
    demo_level_free(&g->level);
}

/// The crowd scene: GOLDEN_CROWD_AGENTS agents over the bare level for
/// GOLDEN_CROWD_FRAMES steps; the hash of every step, chained. `prepare`
/// (optional) sees the world before the first step.
#define GOLDEN_CROWD_AGENTS 200u
#define GOLDEN_CROWD_FRAMES 90u
/// Its pinned hash (crowd_golden.c on 1, 2 and 4 workers;
/// avoidance_kernels.c with every avoidance kernel). If you change
/// behaviour on purpose (level, tile build, crowd), update it in the same
/// commit and say why in the commit message; the tests print the new value.
/// Re-pinned when max_searches' default went from 8 to 2 (issue 19 item 5:
/// memory); the scenarios' arrivals stayed the same (docs/benchmarks.md).
/// Re-pinned: agents waiting their turn at a single-file passage are ranked
/// on their way again (crowd_update.c, agent_rank), and keep right / give
/// way only at passages used both ways (crowd_motion.c).
/// Re-pinned when the stuck rule became "no nearer the next corner"
/// (crowd_update.c, made_progress) together with the passages above.
/// Re-pinned (doors3) when agents waiting at a passage left the lane out
/// of its mouth and the admitted agent nearest the mouth came to lead.
/// Re-pinned (search4): the default search keeps layers of states, so some
/// corridors are shorter.
/// Re-pinned (search5): the seed test goes round the winner's wedge sides.
/// Re-pinned (wedge7): slices count layer-0 expansions only and partial
/// paths end on layer 0 (the abreast rule at single-file mouths leaves it).
/// Re-pinned (overlap8): collision pushes over the square root of the
/// contacts, and a deep contact's push takes back the velocity into it.
/// Re-pinned (query11): a way that sees the goal is priced along the 3D
/// chord to it, so corridors over slopes change.
/// Re-pinned (topo14): held-up agents' local re-searches price crowding
/// (stuck_crowding_cost, default 8).
/// Re-pinned (knot17): walkers passing head-on see each other at half width
/// in avoidance and push each other aside, not back (crowd_motion.c).
/// Re-pinned (knot18): lanes by direction (flow_cost) on by default at 3,
/// priced by a polygon's one-way share and its room to pass (crowding.c).
/// Re-pinned (knot19): walkers passing head-on away from their targets
/// see each other shifted to the side they already pass on (crowd_motion.c).
/// Re-pinned (press22): a walker's closing speed on a head-on passer's real
/// body is cut to what reaches 0.07 m of contact (crowd_motion.c).
/// Re-pinned (nav21): a held-up agent's priced re-search runs 64
/// expansions, so a way round a knot can rejoin its corridor past it.
/// Re-pinned (review of press22): the closing cut capped at max speed.
/// Re-pinned (mouth25): a one-way single-file passage's leader avoids none
/// of those yielding to it (crowd_motion.c).
/// Re-pinned (deep27): two more collision passes move the agents the pass
/// before left in a contact deeper than 0.08 m (crowd_motion.c).
/// Re-pinned (flow28): flow_cost's default 3 -> 6 (crowd_tuning.h).
/// Re-pinned (flow28b): free walkers count a quarter in the flow table,
/// flow_cost's default 16 (crowding.c, crowd_tuning.h).
#define GOLDEN_CROWD_HASH 0xd93c2a8251e2d625ull
typedef void golden_prepare_fn(wf_world* world, void* user);

static inline uint64_t golden_crowd_scene(uint32_t workers, golden_prepare_fn* prepare,
                                          void* user) {
    static golden_world g; // large (the level): not on the stack
    golden_world_open(&g, workers, GOLDEN_CROWD_AGENTS);
    if (prepare != NULL) {
        prepare(g.world, user);
    }
    uint64_t h = GOLDEN_FNV_START;
    for (uint32_t f = 0; f < GOLDEN_CROWD_FRAMES; ++f) {
        h = golden_world_step(&g, 0, h);
    }
    golden_world_close(&g);
    return h;
}

#endif
