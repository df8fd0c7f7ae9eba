// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// World soak ('slow' suite; a short version runs by default): the demo's
// generated level (tools/demo_level.c: open ground, a building of three
// floors with rooms, doors and ramps, a bridge and a tower), thousands of
// agents walking to random targets (a new one on every arrival or blocked
// path) while crates drop and go and doors open and close: one obstacle
// added and one removed per cycle, a quarter of the crates wide ones
// dropped right on an agent. Stepped with no tile budget. Every frame,
// every agent:
//  - no NaN in position, velocity, desired velocity or target;
//  - on the mesh: a walking agent stands within 1 cm (seen from above) of
//    its polygon (wf_query_closest_point_on_poly). LOST counts as off the
//    mesh unless a standing obstacle covers the agent: a crate took the
//    ground from under it and no surface is within the crowd's search box
//    (agents less deep under it are moved to the nearest valid place, and
//    must then be on the mesh). LOST must end the frame the obstacle goes;
//  - not stuck: an agent following its path (VALID; REQUESTED waits for
//    its first path) that is not waiting for a replan (path_wait 0) may not
//    stay within half a radius of one place for more than twice the
//    crowd's stuck time (plus a second of slack) without an ARRIVED or
//    BLOCKED event; no request waits more than WAIT_LIMIT_S for its path;
//  - an ARRIVED agent is at the end of its path (the target, or the
//    reachable point nearest to it), within the crowd's slow-down distance;
//  - memory flat: wf_crowd_get_stats().memory_bytes never changes, and the world's
//    counting allocator sees no allocation or free after the warm-up (which
//    commits every tile layer once);
//  - the same run on one worker gives the same crowd hash at every
//    checkpoint and at the end, and the same events.
// WF_SOAK_FRAMES, WF_SOAK_AGENTS and WF_SOAK_CYCLES set the size (default
// 100,000 frames, 2,000 agents, 10,000 cycles), WF_SOAK_WORKERS the worker
// count of the first run (default 2; the second always runs on 1), and
// WF_SOAK_TRACE an agent whose state the first run prints every frame.
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "../crowd/crowd_test_util.h"
#include "counting_allocator.h"
#include "tools/demo_level.h"
#include "wayfarer/query.h"
#include "wayfarer/rng.h"
#include "wayfarer/world.h"

#define DT (1.0f / 30.0f)
#define DEFAULT_FRAMES 100000u
#define DEFAULT_AGENTS 2000u
#define DEFAULT_CYCLES 10000u
#define LEVEL_SEED 1u
/// Crates drop on the level's crate spots and on this many random points
/// of the bare navmesh (rooms, ramps, the bridge, the tower).
#define EXTRA_SPOTS 64u
/// Targets are drawn from this many random points of the bare navmesh.
#define TARGET_POINTS 4096u
/// Crates standing at once (a crate cycle removes the oldest, drops one).
#define LIVE_CRATES 24u
#define CRATE_RADIUS 0.8f
#define CRATE_HEIGHT 1.2f
/// One crate in four is this wide and drops right on an agent: agents under
/// its middle find no surface within the crowd's search box and turn LOST
/// until it goes.
#define BIG_CRATE_RADIUS 2.0f
#define MAX_OBSTACLES 160u
/// Crowd hashes compared between the runs (plus the final one).
#define CHECKPOINTS 100u
/// Walking agents stand within this of their polygon, seen from above.
#define ON_MESH_TOLERANCE 0.01f
/// Seconds beyond twice the crowd's stuck time before an agent counts as
/// stuck without an event.
#define STUCK_SLACK_S 1.0f
/// The crowd's stuck time (the desc's default).
#define STUCK_TIME_S 2.0f
/// An arrival is within this many radii of the path's end (the crowd's
/// slow-down distance, within which an agent stopped by others arrives).
#define ARRIVAL_RADII 2.05f
/// A request waits at most this long for its path.
#define WAIT_LIMIT_S 30.0f
/// Runs this long print their progress every tenth of the way.
#define PROGRESS_MIN_FRAMES 10000u
/// Violations printed per kind (all are counted).
#define MAX_REPORTS 8u

typedef struct soak_config {
    uint32_t frames, agents, cycles, workers;
} soak_config;

typedef struct crate {
    wf_obstacle_id id;
    wf_obstacle_desc desc;
} crate;

/// What one run measured.
typedef struct soak_stats {
    double seconds;
    uint64_t arrivals, blocked, replans, lost_events, requests, request_misses;
    uint64_t crate_cycles, door_cycles;
    uint32_t max_lost_at_once;
    float longest_lost_s;  ///< longest LOST streak of one agent (all covered)
    float longest_still_s; ///< longest time an agent with a target did not move
    float longest_wait_s;  ///< longest wait of a request for its path
    float worst_off_mesh;  ///< largest distance from above to the agent's polygon
    float worst_dy;        ///< largest height difference to that polygon
    uint64_t off_mesh, nan, stuck, long_waits, false_arrivals, lost_uncovered, memory_changes;
    uint64_t stray_allocations;
    unsigned long allocations_after_warmup, allocations_at_warmup;
    size_t crowd_bytes;
    uint64_t hash;
} soak_stats;

typedef struct soak {
    soak_config cfg;
    counting_allocator alloc;
    demo_level level;
    wf_world* world;
    wf_query* query;
    wf_rng rng;
    wf_query_filter filter;
    float agent_radius;
    wf_vec3 spots[DEMO_MAX_SPOTS + EXTRA_SPOTS];
    uint32_t spot_count;
    wf_vec3 targets[TARGET_POINTS];
    wf_agent_id* ids;
    wf_vec3* anchor; ///< where the agent stood when its still time began
    float* still_s;  ///< time with a target without moving radius/2
    float* lost_s;   ///< current LOST streak
    bool* needs_target;
    bool* event; ///< arrived or blocked in the last update
    crate crates[LIVE_CRATES];
    uint32_t crate_head, crate_count;
    wf_obstacle_id doors[DEMO_MAX_DOORS];
    wf_obstacle_desc door_descs[DEMO_MAX_DOORS];
    uint32_t closed_doors;
    uint64_t* hashes; ///< CHECKPOINTS, from the first run; compared in the second
    bool compare;
    uint32_t trace; ///< WF_SOAK_TRACE: an agent whose state is printed every frame
    soak_stats st;
} soak;

static uint32_t env_u32(const char* name, uint32_t fallback, uint32_t lo, uint32_t hi) {
    const char* s = getenv(name);
    if (s == NULL || *s == '\0') {
        return fallback;
    }
    char* end = NULL;
    unsigned long n = strtoul(s, &end, 10);
    assert_true(end != s && *end == '\0' && n >= lo && n <= hi);
    return (uint32_t)n;
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static bool finite3(wf_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

static float dist2d(wf_vec3 a, wf_vec3 b) { return crowd_test_dist2d(a, b); }

/* ---------------------------------------------------------------------------
 * Obstacles
 */

static wf_obstacle_desc crate_at(wf_vec3 p, float radius) {
    wf_obstacle_desc od;
    memset(&od, 0, sizeof od);
    od.shape = WF_OBSTACLE_CYLINDER;
    od.position = p;
    od.radius = radius;
    od.height = CRATE_HEIGHT;
    return od;
}

static wf_obstacle_desc door_desc(const demo_door* d) {
    wf_obstacle_desc od;
    memset(&od, 0, sizeof od);
    od.shape = fabsf(d->yaw) > 0.0f ? WF_OBSTACLE_ORIENTED_BOX : WF_OBSTACLE_BOX;
    od.position = d->center;
    od.half_extents = d->half_extents;
    od.yaw = d->yaw;
    return od;
}

/// Every tile layer is rebuilt and committed once before the soak counts
/// allocations: the tile cache gives a layer its own blob memory at its
/// first commit (and the per-layer state at its first update), after which
/// commits allocate nothing. One obstacle over the whole level that paints
/// an area (so every layer keeps its polygons) does it, then it goes.
static void warm_up(soak* s) {
    wf_tilecache* tc = wf_world_tilecache(s->world);
    wf_obstacle_desc od;
    memset(&od, 0, sizeof od);
    od.shape = WF_OBSTACLE_BOX;
    od.paint = true;
    od.area = 5;
    od.position = wf_v3_scale(wf_v3_add(s->level.bmin, s->level.bmax), 0.5f);
    od.half_extents = wf_v3_add(wf_v3_scale(wf_v3_sub(s->level.bmax, s->level.bmin), 0.5f),
                                wf_v3(1.0f, 1.0f, 1.0f));
    wf_obstacle_id id;
    assert_int_equal(wf_tilecache_add_obstacle(tc, &od, &id), WF_OK);
    wf_world_report r;
    assert_int_equal(wf_world_step(s->world, DT, NULL, &r), WF_OK);
    assert_true(r.tiles.up_to_date);
    assert_int_equal(r.tiles.tiles_committed, wf_tilecache_layer_count(tc));
    assert_int_equal(wf_tilecache_remove_obstacle(tc, id), WF_OK);
    assert_int_equal(wf_world_step(s->world, DT, NULL, &r), WF_OK);
    assert_true(r.tiles.up_to_date);
    assert_int_equal(wf_tilecache_obstacle_count(tc), 0);
}

/// A crate at a spot, or (one in four, a wide one) right on an agent.
static void drop_crate(soak* s) {
    wf_tilecache* tc = wf_world_tilecache(s->world);
    crate* c = &s->crates[(s->crate_head + s->crate_count) % LIVE_CRATES];
    uint32_t r = wf_rng_next_u32(&s->rng);
    if ((r >> 24) % 4u == 0) {
        wf_agent_state a = crowd_test_state(wf_world_crowd(s->world), s->ids[r % s->cfg.agents]);
        c->desc = crate_at(a.position, BIG_CRATE_RADIUS);
    } else {
        c->desc = crate_at(s->spots[r % s->spot_count], CRATE_RADIUS);
    }
    assert_int_equal(wf_tilecache_add_obstacle(tc, &c->desc, &c->id), WF_OK);
    s->crate_count++;
}

static void toggle_door(soak* s, uint32_t k) {
    wf_tilecache* tc = wf_world_tilecache(s->world);
    if (s->doors[k].bits != 0) {
        assert_int_equal(wf_tilecache_remove_obstacle(tc, s->doors[k]), WF_OK);
        s->doors[k].bits = 0;
        s->closed_doors--;
    } else {
        s->door_descs[k] = door_desc(&s->level.doors[k]);
        assert_int_equal(wf_tilecache_add_obstacle(tc, &s->door_descs[k], &s->doors[k]), WF_OK);
        s->closed_doors++;
    }
}

/// A door with the given state (closed or open), at random.
static uint32_t pick_door(soak* s, bool closed) {
    uint32_t n = s->level.door_count;
    uint32_t k = wf_rng_next_u32(&s->rng) % n;
    for (uint32_t j = 0; j < n; ++j, k = (k + 1u) % n) {
        if ((s->doors[k].bits != 0) == closed) {
            return k;
        }
    }
    fail_msg("no %s door", closed ? "closed" : "open");
    return 0;
}

/// One cycle: one obstacle added and one removed. Three in four move a
/// crate (the oldest goes, a new one drops), the rest open a closed door
/// and close an open one.
static void cycle(soak* s) {
    if (s->level.door_count >= 2 && wf_rng_next_u32(&s->rng) % 4u == 0) {
        uint32_t open = pick_door(s, true);
        uint32_t close = pick_door(s, false);
        toggle_door(s, open);
        toggle_door(s, close);
        s->st.door_cycles++;
        return;
    }
    crate* oldest = &s->crates[s->crate_head];
    assert_int_equal(wf_tilecache_remove_obstacle(wf_world_tilecache(s->world), oldest->id), WF_OK);
    s->crate_head = (s->crate_head + 1u) % LIVE_CRATES;
    s->crate_count--;
    drop_crate(s);
    s->st.crate_cycles++;
}

/// Whether a standing obstacle may have taken the ground from under p: p
/// lies within the obstacle widened by the cache's erosion and the crowd's
/// search box (no surface left in that box leaves an agent LOST).
static bool covered(const soak* s, wf_vec3 p) {
    float margin = 3.0f * s->agent_radius + 0.5f; // erosion, then the 2-radii search box
    for (uint32_t k = 0; k < s->crate_count; ++k) {
        const wf_obstacle_desc* od = &s->crates[(s->crate_head + k) % LIVE_CRATES].desc;
        if (dist2d(p, od->position) <= od->radius + margin && p.y >= od->position.y - 2.0f &&
            p.y <= od->position.y + od->height + 2.0f) {
            return true;
        }
    }
    for (uint32_t k = 0; k < s->level.door_count; ++k) {
        if (s->doors[k].bits == 0) {
            continue;
        }
        // The box's circle seen from above (any turn).
        const wf_obstacle_desc* od = &s->door_descs[k];
        float r = sqrtf(od->half_extents.x * od->half_extents.x +
                        od->half_extents.z * od->half_extents.z);
        if (fabsf(p.y - od->position.y) <= od->half_extents.y + 2.0f &&
            dist2d(p, od->position) <= r + margin) {
            return true;
        }
    }
    return false;
}

/* ---------------------------------------------------------------------------
 * The level and the world
 */

static void make_world(soak* s) {
    assert_int_equal(demo_level_generate(LEVEL_SEED, &s->level), 0);
    wf_geom g = demo_level_geom(&s->level);
    counting_allocator_init(&s->alloc);
    wf_world_desc d;
    memset(&d, 0, sizeof d);
    d.geom = &g;
    d.worker_count = s->cfg.workers;
    d.max_obstacles = MAX_OBSTACLES;
    d.max_pending_requests = 2u * MAX_OBSTACLES;
    d.crowd.max_agents = s->cfg.agents;
    d.crowd.stuck_time = STUCK_TIME_S;
    d.allocator = counting_allocator_hooks(&s->alloc);
    d.logger.quiet = true;
    assert_int_equal(wf_world_create(&d, &s->world), WF_OK);
    wf_query_desc qd = {.mesh = wf_world_mesh(s->world), .max_nodes = 256};
    assert_int_equal(wf_query_create(&qd, &s->query), WF_OK);
    s->filter = wf_query_filter_defaults();
    const wf_tilecache_params* tp = wf_tilecache_get_params(wf_world_tilecache(s->world));
    s->agent_radius = tp->agent_radius; // also the crowd's max_agent_radius (the default)

    // Places for crates and targets, from the bare navmesh.
    s->rng = wf_rng_make(LEVEL_SEED, 11u);
    memcpy(s->spots, s->level.crate_spots, sizeof(wf_vec3) * s->level.crate_spot_count);
    s->spot_count = s->level.crate_spot_count;
    wf_poly_ref ref;
    for (uint32_t k = 0; k < EXTRA_SPOTS; ++k) {
        assert_int_equal(wf_query_find_random_point(s->query, &s->filter, &s->rng, &ref,
                                                    &s->spots[s->spot_count++]),
                         WF_OK);
    }
    for (uint32_t k = 0; k < TARGET_POINTS; ++k) {
        assert_int_equal(
            wf_query_find_random_point(s->query, &s->filter, &s->rng, &ref, &s->targets[k]), WF_OK);
    }
}

static void populate(soak* s) {
    wf_crowd* crowd = wf_world_crowd(s->world);
    const wf_tilecache_params* tp = wf_tilecache_get_params(wf_world_tilecache(s->world));
    wf_agent_params p = wf_agent_params_defaults();
    p.radius = tp->agent_radius;
    p.height = tp->agent_height;
    p.collision_query_range = p.radius * 12.0f;
    p.path_optimization_range = p.radius * 30.0f;
    for (uint32_t i = 0; i < s->cfg.agents; ++i) {
        p.priority = (uint8_t)(i % 3u);
        p.user_data = i;
        wf_vec3 at = s->targets[wf_rng_next_u32(&s->rng) % TARGET_POINTS];
        assert_int_equal(wf_crowd_add_agent(crowd, at, &p, &s->ids[i]), WF_OK);
        s->needs_target[i] = true;
    }
}

/// New targets for agents whose request ended (arrived, blocked, failed)
/// or whose last target was under an obstacle.
static void give_targets(soak* s) {
    wf_crowd* crowd = wf_world_crowd(s->world);
    for (uint32_t i = 0; i < s->cfg.agents; ++i) {
        if (!s->needs_target[i]) {
            continue;
        }
        wf_vec3 to = s->targets[wf_rng_next_u32(&s->rng) % TARGET_POINTS];
        wf_status r = wf_crowd_request_move(crowd, s->ids[i], to, NULL, NULL);
        if (r == WF_OK) {
            s->needs_target[i] = false;
            s->still_s[i] = 0.0f;
            s->st.requests++;
        } else {
            assert_int_equal(r, WF_ERR_NOT_FOUND); // under a crate: another next frame
            s->st.request_misses++;
        }
    }
}

/* ---------------------------------------------------------------------------
 * Checks
 */

#define REPORT(counter, ...)                                                                       \
    do {                                                                                           \
        if ((counter)++ < MAX_REPORTS) {                                                           \
            print_message(__VA_ARGS__);                                                            \
        }                                                                                          \
    } while (0)

static void check_agents(soak* s, uint32_t frame) {
    wf_crowd* crowd = wf_world_crowd(s->world);
    soak_stats* st = &s->st;
    uint32_t lost = 0;
    const float still_limit = 2.0f * STUCK_TIME_S + STUCK_SLACK_S;
    for (uint32_t i = 0; i < s->cfg.agents; ++i) {
        wf_agent_state a;
        assert_int_equal(wf_crowd_get_agent(crowd, s->ids[i], &a), WF_OK);
        if (!finite3(a.position) || !finite3(a.velocity) || !finite3(a.desired_velocity) ||
            !finite3(a.target)) {
            REPORT(st->nan, "frame %u agent %u: NaN (pos %g %g %g, vel %g %g %g)\n", frame, i,
                   (double)a.position.x, (double)a.position.y, (double)a.position.z,
                   (double)a.velocity.x, (double)a.velocity.y, (double)a.velocity.z);
            continue;
        }
        if (i == s->trace) {
            print_message(
                "trace %u: mode %d target %d pos %.3f %.3f %.3f vel %.3f %.3f desired_vel %.3f "
                "%.3f corners %u (%.2f %.2f f%u) wait %.2f stuck %.2f corridor %u%s "
                "nei %u\n",
                frame, (int)a.mode, (int)a.target_state, (double)a.position.x, (double)a.position.y,
                (double)a.position.z, (double)a.velocity.x, (double)a.velocity.z,
                (double)a.desired_velocity.x, (double)a.desired_velocity.z, a.corner_count,
                (double)a.corners[0].pos.x, (double)a.corners[0].pos.z, a.corners[0].flags,
                (double)a.path_wait, (double)a.stuck_time, a.corridor_count,
                a.corridor_partial ? " partial" : "", a.neighbour_count);
        }
        bool follows = a.target_state == WF_TARGET_REQUESTED || a.target_state == WF_TARGET_VALID;
        if (!follows) {
            s->needs_target[i] = true;
        }
        if (a.mode == WF_AGENT_LOST) {
            lost++;
            s->lost_s[i] += DT;
            st->longest_lost_s = fmaxf(st->longest_lost_s, s->lost_s[i]);
            if (!covered(s, a.position)) {
                REPORT(st->lost_uncovered,
                       "frame %u agent %u: LOST at %.2f %.2f %.2f with no obstacle over it\n",
                       frame, i, (double)a.position.x, (double)a.position.y, (double)a.position.z);
            }
            s->still_s[i] = 0.0f;
            continue;
        }
        s->lost_s[i] = 0.0f;
        if (a.mode == WF_AGENT_WALKING) {
            wf_vec3 cp;
            bool inside = false;
            wf_status r =
                wf_query_closest_point_on_poly(s->query, a.poly, a.position, &cp, &inside);
            float off = r == WF_OK ? dist2d(cp, a.position) : INFINITY;
            if (r == WF_OK) {
                st->worst_off_mesh = fmaxf(st->worst_off_mesh, off);
                st->worst_dy = fmaxf(st->worst_dy, fabsf(cp.y - a.position.y));
            }
            if (!(off <= ON_MESH_TOLERANCE)) {
                REPORT(st->off_mesh,
                       "frame %u agent %u: off its polygon 0x%llx by %.3f m (%s) at %.2f %.2f "
                       "%.2f\n",
                       frame, i, (unsigned long long)a.poly.bits, (double)off, wf_status_string(r),
                       (double)a.position.x, (double)a.position.y, (double)a.position.z);
            }
        }
        // Stuck: following its path (VALID; REQUESTED waits for its first
        // path), not waiting for a replan, and not moving. The still time
        // starts (at one frame) where the agent stands when it begins to
        // follow a path or last got more than half a radius away.
        if (a.path_wait > 0.0f || a.target_state == WF_TARGET_REQUESTED) {
            st->longest_wait_s = fmaxf(st->longest_wait_s, a.path_wait);
            if (a.path_wait > WAIT_LIMIT_S) {
                REPORT(st->long_waits, "frame %u agent %u: waited %.1f s for its path\n", frame, i,
                       (double)a.path_wait);
            }
        }
        if (a.mode != WF_AGENT_WALKING || a.target_state != WF_TARGET_VALID || s->event[i]) {
            s->still_s[i] = 0.0f;
            continue;
        }
        if (s->still_s[i] == 0.0f || dist2d(a.position, s->anchor[i]) > a.params.radius * 0.5f) {
            s->anchor[i] = a.position;
            s->still_s[i] = DT;
            continue;
        }
        if (a.path_wait > 0.0f) {
            continue; // waiting for its path: the time does not count
        }
        s->still_s[i] += DT;
        st->longest_still_s = fmaxf(st->longest_still_s, s->still_s[i]);
        if (s->still_s[i] > still_limit) {
            REPORT(st->stuck,
                   "frame %u agent %u: still for %.1f s at %.2f %.2f %.2f without an event "
                   "(corners %u, crowd stuck time %.2f)\n",
                   frame, i, (double)s->still_s[i], (double)a.position.x, (double)a.position.y,
                   (double)a.position.z, a.corner_count, (double)a.stuck_time);
            s->still_s[i] = 0.0f; // one report per stuck spell
        }
    }
    st->max_lost_at_once = lost > st->max_lost_at_once ? lost : st->max_lost_at_once;
}

/// Counts the last update's events; an arrival or a blocked path ends the
/// agent's request (it gets a new target) and its still time.
static void count_events(soak* s, uint32_t frame) {
    wf_crowd* crowd = wf_world_crowd(s->world);
    memset(s->event, 0, sizeof *s->event * s->cfg.agents);
    uint32_t n;
    const wf_crowd_event* e = wf_crowd_events(crowd, &n);
    for (uint32_t k = 0; k < n; ++k) {
        if (e[k].kind == WF_CROWD_EVENT_ARRIVED || e[k].kind == WF_CROWD_EVENT_STOPPED_SHORT ||
            e[k].kind == WF_CROWD_EVENT_BLOCKED) {
            wf_agent_state a = crowd_test_state(crowd, e[k].agent);
            uint64_t i = a.params.user_data;
            assert_true(i < s->cfg.agents);
            s->event[i] = true;
            s->needs_target[i] = true;
            // Arrived: at the end of its path (the target, or the reachable
            // point nearest to it), as near as the crowd's arrival allows.
            wf_vec3 end = a.target;
            if (a.corridor_partial && a.corridor_count > 0) {
                static wf_poly_ref corridor[4096];
                uint32_t count = 0;
                assert_int_equal(wf_crowd_get_corridor(crowd, e[k].agent, corridor, 4096, &count),
                                 WF_OK);
                assert_int_equal(wf_query_closest_point_on_poly(s->query, corridor[count - 1],
                                                                a.target, &end, NULL),
                                 WF_OK);
            }
            float off = dist2d(a.position, end);
            if (e[k].kind == WF_CROWD_EVENT_ARRIVED && off > ARRIVAL_RADII * a.params.radius) {
                REPORT(s->st.false_arrivals,
                       "frame %u agent %u: arrived %.2f m from the end of its path (at %.2f "
                       "%.2f %.2f, target %.2f %.2f %.2f, corridor %u%s)\n",
                       frame, (unsigned)i, (double)off, (double)a.position.x, (double)a.position.y,
                       (double)a.position.z, (double)a.target.x, (double)a.target.y,
                       (double)a.target.z, a.corridor_count, a.corridor_partial ? " partial" : "");
            }
            if (e[k].kind == WF_CROWD_EVENT_STOPPED_SHORT && off > 2.0f * a.params.radius) {
                REPORT(s->st.false_arrivals, "frame %u agent %u: stopped short %.2f m away\n",
                       frame, (unsigned)i, (double)off);
            }
        }
        s->st.arrivals +=
            e[k].kind == WF_CROWD_EVENT_ARRIVED || e[k].kind == WF_CROWD_EVENT_STOPPED_SHORT;
        s->st.blocked += e[k].kind == WF_CROWD_EVENT_BLOCKED;
        s->st.replans += e[k].kind == WF_CROWD_EVENT_REPLANNED;
        s->st.lost_events += e[k].kind == WF_CROWD_EVENT_LOST;
    }
}

/* ---------------------------------------------------------------------------
 * One run
 */

static void run_soak(soak* s) {
    double t0 = now_s();
    make_world(s);
    warm_up(s);
    s->ids = calloc(s->cfg.agents, sizeof *s->ids);
    s->anchor = calloc(s->cfg.agents, sizeof *s->anchor);
    s->still_s = calloc(s->cfg.agents, sizeof *s->still_s);
    s->lost_s = calloc(s->cfg.agents, sizeof *s->lost_s);
    s->needs_target = calloc(s->cfg.agents, sizeof *s->needs_target);
    s->event = calloc(s->cfg.agents, sizeof *s->event);
    assert_true(s->ids != NULL && s->anchor != NULL && s->still_s != NULL && s->lost_s != NULL &&
                s->needs_target != NULL && s->event != NULL);
    populate(s);
    give_targets(s);
    // The starting obstacles: the crates, and a third of the doors shut.
    while (s->crate_count < LIVE_CRATES) {
        drop_crate(s);
    }
    for (uint32_t k = 0; k < s->level.door_count / 3u; ++k) {
        toggle_door(s, pick_door(s, false));
    }
    wf_crowd* crowd = wf_world_crowd(s->world);
    s->st.crowd_bytes = wf_crowd_get_stats(crowd).memory_bytes;
    s->st.allocations_at_warmup = atomic_load(&s->alloc.allocations);
    unsigned long frees = atomic_load(&s->alloc.frees);
    uint32_t checkpoint_every = s->cfg.frames / CHECKPOINTS > 0 ? s->cfg.frames / CHECKPOINTS : 1u;
    uint32_t next_cycle = 0;
    double t_block = now_s();
    for (uint32_t f = 0; f < s->cfg.frames; ++f) {
        while (next_cycle < s->cfg.cycles &&
               (uint64_t)next_cycle * s->cfg.frames / s->cfg.cycles <= f) {
            cycle(s);
            next_cycle++;
        }
        wf_world_report r;
        assert_int_equal(wf_world_step(s->world, DT, NULL, &r), WF_OK);
        assert_true(r.tiles.up_to_date); // no budget: every change is in this frame's mesh
        count_events(s, f);
        check_agents(s, f);
        if (wf_crowd_get_stats(crowd).memory_bytes != s->st.crowd_bytes) {
            REPORT(s->st.memory_changes, "frame %u: crowd memory %zu bytes, was %zu\n", f,
                   wf_crowd_get_stats(crowd).memory_bytes, s->st.crowd_bytes);
        }
        unsigned long allocs = atomic_load(&s->alloc.allocations);
        unsigned long fr = atomic_load(&s->alloc.frees);
        if (allocs != s->st.allocations_at_warmup + s->st.allocations_after_warmup || fr != frees) {
            REPORT(s->st.stray_allocations,
                   "frame %u: %lu allocations and %lu frees since the warm-up\n", f,
                   allocs - s->st.allocations_at_warmup, fr - frees);
            s->st.allocations_after_warmup = allocs - s->st.allocations_at_warmup;
            frees = fr;
        }
        give_targets(s);
        if (s->cfg.frames >= PROGRESS_MIN_FRAMES && (f + 1u) % (s->cfg.frames / 10u) == 0) {
            double now = now_s();
            print_message("  %u worker(s): frame %u, %.2f ms/frame, %llu arrived, %llu blocked\n",
                          s->cfg.workers, f + 1u, (now - t_block) * 1e3 / (s->cfg.frames / 10u),
                          (unsigned long long)s->st.arrivals, (unsigned long long)s->st.blocked);
            t_block = now;
        }
        if ((f + 1u) % checkpoint_every == 0 && (f + 1u) / checkpoint_every <= CHECKPOINTS) {
            uint32_t k = (f + 1u) / checkpoint_every - 1u;
            uint64_t h = crowd_test_hash(crowd);
            if (s->compare && h != s->hashes[k]) {
                fail_msg("frame %u: crowd hash on %u worker(s) differs from the first run", f,
                         s->cfg.workers);
            }
            s->hashes[k] = h;
        }
    }
    assert_int_equal(wf_tilecache_obstacle_count(wf_world_tilecache(s->world)),
                     s->crate_count + s->closed_doors);
    s->st.hash = crowd_test_hash(crowd);
    s->st.seconds = now_s() - t0;
    wf_query_destroy(s->query);
    wf_world_destroy(s->world);
    assert_int_equal(counting_allocator_live(&s->alloc), 0);
    assert_int_equal(atomic_load(&s->alloc.size_mismatches), 0);
    demo_level_free(&s->level);
    free(s->ids);
    free(s->anchor);
    free(s->still_s);
    free(s->lost_s);
    free(s->needs_target);
    free(s->event);
}

static void print_stats(const soak* s) {
    const soak_stats* t = &s->st;
    print_message("soak on %u worker(s): %u frames, %u agents, %u cycles (%llu crate, %llu door) "
                  "in %.1f s (%.2f ms/frame with checks)\n",
                  s->cfg.workers, s->cfg.frames, s->cfg.agents, s->cfg.cycles,
                  (unsigned long long)t->crate_cycles, (unsigned long long)t->door_cycles,
                  t->seconds, t->seconds * 1e3 / s->cfg.frames);
    print_message("  events: %llu arrived, %llu blocked, %llu replanned, %llu lost; %llu requests "
                  "(%llu targets under obstacles)\n",
                  (unsigned long long)t->arrivals, (unsigned long long)t->blocked,
                  (unsigned long long)t->replans, (unsigned long long)t->lost_events,
                  (unsigned long long)t->requests, (unsigned long long)t->request_misses);
    print_message("  lost: at most %u at once, longest %.2f s; longest still with a path "
                  "%.2f s, longest wait for a path %.2f s; worst off-mesh %.4f m, dy %.3f m\n",
                  t->max_lost_at_once, (double)t->longest_lost_s, (double)t->longest_still_s,
                  (double)t->longest_wait_s, (double)t->worst_off_mesh, (double)t->worst_dy);
    print_message("  memory: crowd %zu bytes; %lu allocations before the soak, %lu after; "
                  "hash %016llx\n",
                  t->crowd_bytes, t->allocations_at_warmup, t->allocations_after_warmup,
                  (unsigned long long)t->hash);
    print_message("  violations: %llu NaN, %llu off mesh, %llu lost uncovered, %llu stuck, "
                  "%llu long waits, %llu false arrivals, %llu memory, %llu allocation\n",
                  (unsigned long long)t->nan, (unsigned long long)t->off_mesh,
                  (unsigned long long)t->lost_uncovered, (unsigned long long)t->stuck,
                  (unsigned long long)t->long_waits, (unsigned long long)t->false_arrivals,
                  (unsigned long long)t->memory_changes, (unsigned long long)t->stray_allocations);
}

static void assert_clean(const soak* s) {
    assert_int_equal(s->st.nan, 0);
    assert_int_equal(s->st.off_mesh, 0);
    assert_int_equal(s->st.lost_uncovered, 0);
    assert_int_equal(s->st.stuck, 0);
    assert_int_equal(s->st.long_waits, 0);
    assert_int_equal(s->st.false_arrivals, 0);
    assert_int_equal(s->st.memory_changes, 0);
    assert_int_equal(s->st.stray_allocations, 0);
    assert_true(s->st.arrivals > 0);
}

static void test_soak(void** state) {
    (void)state;
    soak_config cfg;
    cfg.frames = env_u32("WF_SOAK_FRAMES", DEFAULT_FRAMES, 1u, 100000000u);
    cfg.agents = env_u32("WF_SOAK_AGENTS", DEFAULT_AGENTS, 1u, 4096u); // crowd_test_hash's limit
    cfg.cycles = env_u32("WF_SOAK_CYCLES", DEFAULT_CYCLES, 0u, 100000000u);
    cfg.workers = env_u32("WF_SOAK_WORKERS", 2u, 2u, 64u);
    uint32_t trace = env_u32("WF_SOAK_TRACE", UINT32_MAX, 0u, UINT32_MAX);
    uint64_t* hashes = calloc(CHECKPOINTS, sizeof *hashes);
    assert_non_null(hashes);

    soak* a = calloc(1, sizeof *a);
    assert_non_null(a);
    a->cfg = cfg;
    a->hashes = hashes;
    a->trace = trace;
    run_soak(a);
    print_stats(a);
    assert_clean(a);

    soak* b = calloc(1, sizeof *b);
    assert_non_null(b);
    b->cfg = cfg;
    b->cfg.workers = 1;
    b->hashes = hashes;
    b->compare = true;
    b->trace = UINT32_MAX;
    run_soak(b);
    print_stats(b);
    assert_clean(b);
    assert_true(a->st.hash == b->st.hash);
    assert_int_equal(a->st.arrivals, b->st.arrivals);
    assert_int_equal(a->st.blocked, b->st.blocked);
    free(a);
    free(b);
    free(hashes);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_soak),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
