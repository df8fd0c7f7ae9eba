// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The scenario runner (crowd_scenes.h): puts a scene's agents into a crowd
// with the RecastDemo settings, updates it at 30 Hz and measures arrival
// by distance (not by the crowd's own event), detours, overlaps, standing
// time and the crowd's events; only wf_crowd_update is timed.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/crowd_scenes.h"
#include "tools/tool.h"

/// Overlaps deeper than this count as a pair-frame (m).
#define OVERLAP_COUNTED 0.1f
/// Overlaps in the first seconds come from the starting formation.
#define SETTLE_SECONDS 2.0f
/// Slower than this (m/s) is standing still.
#define STANDING_SPEED 0.1f

typedef struct body {
    float x, y, z, radius, height;
    // For the overlap log only (WF_OVERLAP_LOG): who the body is and its state.
    uint32_t agent, target_state, done;
    float speed, desired_speed, stuck;
} body;

/// Settled overlaps deeper than this are written to stderr when the
/// environment has WF_OVERLAP_LOG (where the worst overlaps come from);
/// WF_OVERLAP_LOG=0.1 (a depth under 1 m) logs from that depth instead.
#define OVERLAP_LOGGED 0.15f

typedef struct run_state {
    scene* s;
    wf_crowd* crowd;
    wf_agent_id* ids;
    wf_vec3* target;      ///< current target (first target until replaced)
    wf_vec3* previous;    ///< position a frame ago
    float* shortest;      ///< first target's shortest path (m), < 0 unreachable
    float* walked;        ///< until the first arrival
    float* first_arrival; ///< s, < 0: not yet
    bool* ever;
    bool* at_target;   ///< within the arrival radius of the current target
    float* left_at;    ///< s: when it last left the arrival radius (WF_OFFSPOT_LOG)
    bool* request_due; ///< a move request to (re)send (the queue was full)
    bool* second_door; ///< went through the scene's second door (two_doors)
    bool* in_time;     ///< the current target was reachable in the time left when given
    bool *in_time_agent, *in_time_arrived; ///< given / reached such a target
    bool* in_time_alone;               ///< ... and a free agent's slack fits too (SCENE_FREE_SLACK)
    bool *alone_agent, *alone_arrived; ///< given / reached such a target
    float* given_length;               ///< the current target's shortest path when given (m)
    body* bodies;
    float log_overlaps; ///< > 0 (WF_OVERLAP_LOG): settled overlaps deeper go to stderr
    bool log_watch;     ///< WF_WATCH_LOG set: holders off their targets, last 8 s
    bool log_push;      ///< WF_PUSH_LOG set: holders leaving their arrival radius
    bool log_targets;   ///< WF_TARGET_LOG set: each in-time target's fate goes to stderr
    /// WF_CROSS_LOG="x0,x1,z": walkers crossing the line z between x0 and x1,
    /// counted each way (a narrowing's throughput), one line a run on stderr.
    bool log_cross;
    float cross_x0, cross_x1, cross_z;
    uint32_t crossed[2]; ///< [0]: towards +z, [1]: towards -z
    float* given_at;     ///< when the current target was given (s)
    float max_speed;
    float seconds, now; ///< the run's length and the time of the last update
    uint32_t in_time_targets, in_time_reached, in_time_blocked;
    uint32_t in_time_alone_targets, in_time_alone_reached;
    double slowdown_sum; ///< time taken over the ideal, summed over in_time_alone_reached
} run_state;

static float dist2d(wf_vec3 a, wf_vec3 b) {
    float dx = a.x - b.x, dz = a.z - b.z;
    return sqrtf(dx * dx + dz * dz);
}

static int compare_bodies(const void* a, const void* b) {
    float x = ((const body*)a)->x, y = ((const body*)b)->x;
    return (x > y) - (x < y);
}

/// Overlapping pairs among walking agents on one floor: a sweep over the
/// bodies sorted by x, so only neighbours within two radii are compared.
static void measure_overlaps(body* b, uint32_t n, float t, float log_depth, scene_metrics* m) {
    const bool settled = t > SETTLE_SECONDS;
    const bool logged = settled && log_depth > 0.0f;
    qsort(b, n, sizeof *b, compare_bodies);
    float max_radius = 0.0f;
    for (uint32_t i = 0; i < n; ++i) {
        max_radius = b[i].radius > max_radius ? b[i].radius : max_radius;
    }
    for (uint32_t i = 0; i < n; ++i) {
        for (uint32_t j = i + 1; j < n && b[j].x - b[i].x < b[i].radius + max_radius; ++j) {
            if (fabsf(b[i].y - b[j].y) > b[i].height) {
                continue;
            }
            float dx = b[i].x - b[j].x, dz = b[i].z - b[j].z;
            float overlap = b[i].radius + b[j].radius - sqrtf(dx * dx + dz * dz);
            if (overlap <= 0.0f) {
                continue;
            }
            if (logged && overlap > log_depth) {
                fprintf(stderr, "overlap t=%.2f ov=%.3f", t, overlap);
                for (uint32_t k = 0; k < 2u; ++k) {
                    const body* e = &b[k == 0 ? i : j];
                    fprintf(stderr,
                            " | agent=%u at=(%.2f,%.2f) target_state=%u done=%u v=%.2f "
                            "desired=%.2f stuck=%.1f",
                            e->agent, e->x, e->z, e->target_state, e->done, e->speed,
                            e->desired_speed, e->stuck);
                }
                fputc('\n', stderr);
            }
            m->overlap_pair_frames += overlap > OVERLAP_COUNTED;
            m->worst_overlap = overlap > m->worst_overlap ? overlap : m->worst_overlap;
            if (settled) {
                m->overlap_pair_frames_after_2s += overlap > OVERLAP_COUNTED;
                m->worst_overlap_after_2s =
                    overlap > m->worst_overlap_after_2s ? overlap : m->worst_overlap_after_2s;
            }
        }
    }
}

static uint32_t agent_index(const run_state* r, wf_agent_id id) {
    for (uint32_t i = 0; i < r->s->agent_count; ++i) {
        if (r->ids[i].bits == id.bits) {
            return i;
        }
    }
    return UINT32_MAX;
}

/// The target log (WF_TARGET_LOG): one line per in-time target when it is
/// given, reached, given up on BLOCKED or still open at the end, with where
/// the agent stands, the shortest path left from there (m, -1: none) and,
/// when given up, what the crowd makes of the agent. Lines are tab-separated;
/// bench/demo_target_causes.py reads them.
static void log_target(run_state* r, const char* fate, uint32_t i, wf_vec3 from) {
    wf_agent_state st;
    if (!r->log_targets || !r->in_time[i] ||
        wf_crowd_get_agent(r->crowd, r->ids[i], &st) != WF_OK) {
        return;
    }
    wf_vec3 g = r->target[i], v = st.velocity, d = st.desired_velocity;
    wf_vec3 ahead = st.corner_count > 0 ? st.corners[0].pos : g; // the point it steers to
    fprintf(stderr,
            "target\t%s\t%s\t%u\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%u\t%d\t%."
            "2f\t%.2f\t%.2f\n",
            fate, r->s->name, i, r->now, r->given_at[i], scene_path_length_aside(r->s, from, g),
            from.x, from.y, from.z, g.x, g.y, g.z, st.neighbour_count, (int)st.corridor_partial,
            sqrtf(v.x * v.x + v.z * v.z), sqrtf(d.x * d.x + d.z * d.z), dist2d(from, ahead));
}

bool scene_at_target(wf_vec3 p, wf_vec3 target, float height) {
    return dist2d(p, target) <= SCENE_ARRIVAL_RADIUS && fabsf(p.y - target.y) < height;
}

bool scene_in_time(float length, float max_speed, float time_left, float slack) {
    return length >= 0.0f && length * slack <= max_speed * time_left;
}

/// Whether a target at this path length (m; < 0: none) is reachable at
/// full speed in the time left, and so counts for the demo's goal; and
/// whether it is with a free agent's slack too (the honest count).
static void given_target(run_state* r, uint32_t i, float length, wf_vec3 from) {
    float left = r->seconds - r->now;
    r->in_time[i] = scene_in_time(length, r->max_speed, left, 1.0f);
    r->in_time_alone[i] = scene_in_time(length, r->max_speed, left, SCENE_FREE_SLACK);
    r->given_length[i] = length;
    r->in_time_targets += r->in_time[i];
    r->in_time_alone_targets += r->in_time_alone[i];
    r->alone_agent[i] = r->alone_agent[i] || r->in_time_alone[i];
    r->in_time_agent[i] = r->in_time_agent[i] || r->in_time[i];
    r->given_at[i] = r->now;
    log_target(r, "given", i, from);
}

/// A new random target with a complete path (targets replaced on arrival).
static void new_target(run_state* r, uint32_t i, wf_vec3 from) {
    const wf_query_filter f = wf_query_filter_defaults();
    for (uint32_t k = 0; k < 64u; ++k) {
        wf_poly_ref ref;
        wf_vec3 p;
        if (wf_query_find_random_point(r->s->query, &f, &r->s->rng, &ref, &p) != WF_OK) {
            return;
        }
        float length = scene_path_length(r->s, from, p);
        if (length >= 0.0f) {
            r->target[i] = p;
            given_target(r, i, length, from);
            r->at_target[i] = false;
            r->request_due[i] = true;
            return;
        }
    }
}

static int send_requests(run_state* r) {
    for (uint32_t i = 0; i < r->s->agent_count; ++i) {
        if (!r->request_due[i]) {
            continue;
        }
        wf_status st = wf_crowd_request_move(r->crowd, r->ids[i], r->target[i], NULL, NULL);
        if (st == WF_OK) {
            r->request_due[i] = false;
        } else if (st != WF_ERR_CAPACITY) { // a full queue: ask again next frame
            fprintf(stderr, "wayfarer scenarios: %s: move request failed: %s\n", r->s->name,
                    wf_status_string(st));
            return EXIT_CHECK;
        }
    }
    return 0;
}

static void handle_events(run_state* r, scene_metrics* m) {
    uint32_t n;
    const wf_crowd_event* e = wf_crowd_events(r->crowd, &n);
    for (uint32_t k = 0; k < n; ++k) {
        if (e[k].kind != WF_CROWD_EVENT_ARRIVED && e[k].kind != WF_CROWD_EVENT_STOPPED_SHORT &&
            e[k].kind != WF_CROWD_EVENT_BLOCKED) {
            continue;
        }
        uint32_t i = agent_index(r, e[k].agent);
        wf_agent_state st;
        if (i == UINT32_MAX || wf_crowd_get_agent(r->crowd, e[k].agent, &st) != WF_OK) {
            continue;
        }
        if (e[k].kind == WF_CROWD_EVENT_ARRIVED) {
            m->arrival_events++;
            m->arrival_events_far += dist2d(st.position, r->target[i]) > SCENE_ARRIVAL_RADIUS;
        } else if (e[k].kind == WF_CROWD_EVENT_STOPPED_SHORT) {
            m->stopped_short_events++;
        } else {
            m->blocked_events++;
        }
        // As `wayfarer demo` does: a request that ended gets a new target.
        if (r->s->retarget) {
            if (e[k].kind == WF_CROWD_EVENT_BLOCKED) {
                log_target(r, "blocked", i, st.position);
            }
            r->in_time_blocked += e[k].kind == WF_CROWD_EVENT_BLOCKED && r->in_time[i];
            new_target(r, i, st.position);
        }
    }
}

/// The agent nearest i (2D) other than i, walkers only when walkers_only;
/// -1 when there is none (then *out is all zeros and *out_dist 99).
static int nearest_other(run_state* r, uint32_t i, wf_vec3 p, bool walkers_only,
                         wf_agent_state* out, float* out_dist) {
    int best = -1;
    float bd = 99.0f;
    *out = (wf_agent_state){0};
    for (uint32_t j = 0; j < r->s->agent_count; ++j) {
        wf_agent_state o;
        if (j == i || wf_crowd_get_agent(r->crowd, r->ids[j], &o) != WF_OK ||
            (walkers_only && o.target_state == WF_TARGET_ARRIVED)) {
            continue;
        }
        float d = dist2d(o.position, p);
        if (d < bd) {
            bd = d;
            best = (int)j;
            *out = o;
        }
    }
    *out_dist = bd;
    return best;
}

/// Diagnosis (WF_WATCH_LOG): an arrived agent off its target in the last
/// seconds, and the agent on its way nearest it (index -1 and zeros: none).
static void log_watch(run_state* r, uint32_t i, float t, const wf_agent_state* st) {
    wf_agent_state b;
    float bd;
    int best = nearest_other(r, i, st->position, true, &b, &bd);
    fprintf(
        stderr,
        "W\t%.2f\t%u\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\n",
        t, i, st->position.x - r->target[i].x, st->position.z - r->target[i].z, st->velocity.x,
        st->velocity.z, st->desired_velocity.x, st->desired_velocity.z, best,
        b.position.x - r->target[i].x, b.position.z - r->target[i].z, b.velocity.x, b.velocity.z,
        bd, st->stuck_time);
}

/// Diagnosis (WF_PUSH_LOG): an arrived agent leaving its arrival radius,
/// and the agent nearest it then, walking or not (its target state is a
/// column; index -1 and zeros: none).
static void log_push(run_state* r, uint32_t i, float t, const wf_agent_state* st) {
    wf_agent_state b;
    float bd;
    int best = nearest_other(r, i, st->position, false, &b, &bd);
    fprintf(stderr,
            "PUSH\t%s\t%.2f\t%u\t%.3f\t%.3f\t%.3f\t%.3f\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%d\t%.3f\n",
            r->s->name, t, i, st->position.x - r->target[i].x, st->position.z - r->target[i].z,
            st->velocity.x, st->velocity.z, best, b.position.x - r->target[i].x,
            b.position.z - r->target[i].z, b.velocity.x, b.velocity.z, (int)b.target_state, bd);
}

/// The per-frame measures of every agent after an update at time t.
static void measure_agents(run_state* r, float t, scene_metrics* m) {
    uint32_t walking = 0;
    for (uint32_t i = 0; i < r->s->agent_count; ++i) {
        wf_agent_state st;
        if (wf_crowd_get_agent(r->crowd, r->ids[i], &st) != WF_OK) {
            continue;
        }
        wf_vec3 p = st.position;
        if (r->first_arrival[i] < 0.0f) {
            float dx = p.x - r->previous[i].x, dy = p.y - r->previous[i].y;
            float dz = p.z - r->previous[i].z;
            r->walked[i] += sqrtf(dx * dx + dy * dy + dz * dz);
        }
        if (r->s->second_door_width > 0.0f &&
            fabsf(p.x - r->s->second_door_x) < r->s->second_door_width * 0.5f &&
            fabsf(p.z) < 0.5f) {
            r->second_door[i] = true; // in the wall's plane, in that doorway
        }
        if (r->log_cross && p.x >= r->cross_x0 && p.x <= r->cross_x1 &&
            (p.z - r->cross_z) * (r->previous[i].z - r->cross_z) < 0.0f) {
            r->crossed[p.z > r->previous[i].z ? 0 : 1]++;
        }
        r->previous[i] = p;
        bool within = scene_at_target(p, r->target[i], st.params.height);
        if (within && !r->at_target[i]) {
            m->arrivals_total++;
            r->ever[i] = true;
            log_target(r, "reached", i, p);
            r->in_time_reached += r->in_time[i];
            r->in_time_arrived[i] = r->in_time_arrived[i] || r->in_time[i];
            if (r->in_time_alone[i]) {
                r->in_time_alone_reached++;
                r->alone_arrived[i] = true;
                float ideal = r->given_length[i] / r->max_speed;
                r->slowdown_sum += ideal > 0.0f ? (t - r->given_at[i]) / ideal : 1.0;
            }
            r->in_time[i] = r->in_time_alone[i] = false; // counted once
            if (r->first_arrival[i] < 0.0f) {
                r->first_arrival[i] = t;
            }
        }
        if (r->log_watch && r->first_arrival[i] >= 0.0f && t > r->seconds - 8.0f &&
            dist2d(p, r->target[i]) > 0.3f) {
            log_watch(r, i, t, &st);
        }
        if (!within && r->at_target[i]) {
            r->left_at[i] = t;
            if (r->log_push && r->first_arrival[i] >= 0.0f) {
                log_push(r, i, t, &st);
            }
        }
        r->at_target[i] = within;
        bool done = r->s->retarget ? within : r->first_arrival[i] >= 0.0f;
        float speed = sqrtf(st.velocity.x * st.velocity.x + st.velocity.z * st.velocity.z);
        if (!done && speed < STANDING_SPEED) {
            m->standing_agent_seconds += SCENE_DT;
        }
        if (within && r->s->retarget) {
            new_target(r, i, p);
        }
        if (st.mode == WF_AGENT_WALKING) {
            wf_vec3 d = st.desired_velocity;
            r->bodies[walking++] = (body){p.x,
                                          p.y,
                                          p.z,
                                          st.params.radius,
                                          st.params.height,
                                          i,
                                          (uint32_t)st.target_state,
                                          done,
                                          speed,
                                          sqrtf(d.x * d.x + d.z * d.z),
                                          st.stuck_time};
        }
    }
    measure_overlaps(r->bodies, walking, t, r->log_overlaps, m);
}

/// Who stands close to agent i (the trace's last columns): agents within
/// SCENE_TRACE_NEAR of it, how many of those hold their spots (ARRIVED), and
/// the distance to the nearest other agent (99 when there is none). Every
/// agent is looked at: the trace is a diagnosis, not a frame's work.
static void count_near(const run_state* r, uint32_t i, wf_vec3 p, uint32_t* out_near,
                       uint32_t* out_holders, float* out_nearest) {
    uint32_t near = 0, holders = 0;
    float nearest = 99.0f;
    for (uint32_t j = 0; j < r->s->agent_count; ++j) {
        wf_agent_state o;
        if (j == i || wf_crowd_get_agent(r->crowd, r->ids[j], &o) != WF_OK) {
            continue;
        }
        float d = dist2d(p, o.position);
        nearest = d < nearest ? d : nearest;
        if (d < SCENE_TRACE_NEAR) {
            near++;
            holders += o.target_state == WF_TARGET_ARRIVED;
        }
    }
    *out_near = near;
    *out_holders = holders;
    *out_nearest = nearest;
}

/// The trace at time t: every agent that has not reached its first target,
/// where it is, what the crowd makes of it, how far it still has to go
/// (the shortest path from where it stands; -1: none), its velocity, the
/// velocity it wants, the point it steers to (its first corner) and who
/// stands close (count_near).
static void trace_agents(run_state* r, const scene_settings* settings, float t) {
    for (uint32_t i = 0; i < r->s->agent_count; ++i) {
        wf_agent_state st;
        if (r->first_arrival[i] >= 0.0f || wf_crowd_get_agent(r->crowd, r->ids[i], &st) != WF_OK) {
            continue;
        }
        wf_vec3 p = st.position, g = r->target[i], v = st.velocity, d = st.desired_velocity;
        wf_vec3 ahead = st.corner_count > 0 ? st.corners[0].pos : p; // the point it steers to
        uint32_t near = 0, holders = 0;
        float nearest = 0.0f;
        count_near(r, i, p, &near, &holders, &nearest);
        wf_vec3 wall_hit, normal = {0.0f, 0.0f, 0.0f};
        float wall = scene_wall_near(r->s, p, SCENE_TRACE_WALL, &wall_hit, &normal);
        if (wall < 0.0f) {
            normal = (wf_vec3){0.0f, 0.0f, 0.0f}; // off the mesh: no wall to face
        }
        fprintf(
            settings->trace,
            "%s\t%u\t%.2f\t%u\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%d\t%u\t%d\t%.2f\t%.2f\t%."
            "2f\t%u\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%u\t%u\t%.2f\t%.2f\t%.2f\t%.2f\t%."
            "2f\t%.2f\t%.2f\n",
            r->s->name, settings->seed, t, i, p.x, p.y, p.z, g.x, g.y, g.z, dist2d(p, g),
            (int)st.target_state, st.corridor_count, (int)st.corridor_partial,
            sqrtf(v.x * v.x + v.z * v.z), sqrtf(d.x * d.x + d.z * d.z), st.stuck_time,
            st.neighbour_count, scene_path_length(r->s, p, g), v.x, v.z, d.x, d.z, ahead.x, ahead.z,
            near, holders, nearest, wall, scene_width_across(r->s, p, d, SCENE_TRACE_WALL),
            scene_wall_distance(r->s, g, SCENE_TRACE_WALL), normal.x, normal.z,
            st.corner_count > 0 ? scene_wall_distance(r->s, ahead, SCENE_TRACE_WALL) : -1.0f);
    }
}

/// Settled deep overlaps have WF_OVERLAP_LOG; holders off their spots at
/// the end have WF_OFFSPOT_LOG: after each run, one tab-separated line per
/// agent that arrived but stands more than the arrival radius off its
/// target, to stderr: "OFF", scene, seed, agent, m off, s since it last
/// left the radius, first arrival (s), target state, speed, desired speed,
/// stuck time, m between the crowd's target and the scene's, agents on
/// their way and arrived agents within 1.5 m, the nearest agent (m) and its
/// target state, agents on their way and arrived agents within 0.9 m of its
/// target, the nearest target of an arrived agent (m) and how many of those
/// lie within 1.2 m (spots that overlap; bench/offspot_causes.py sorts them);
/// then how many of those lie within 0.9 m (shared_spot.c's pairs), the
/// agent nearest its target (m from it, its target state, m off its own
/// target, its speed, m between the two targets), how many agents stand
/// within 1.2 m of its target, and its target's distance to a wall (m).
static void log_offspot(run_state* r, uint32_t seed) {
    uint32_t n = r->s->agent_count;
    for (uint32_t i = 0; i < n; ++i) {
        wf_agent_state st;
        if (r->first_arrival[i] < 0.0f || wf_crowd_get_agent(r->crowd, r->ids[i], &st) != WF_OK) {
            continue;
        }
        float off = dist2d(st.position, r->target[i]);
        // Every arrived agent's target and end (bench/held_bound.py: how
        // many of the misses no placement of the bodies could avoid).
        wf_vec3 hit = {0}, normal = {0};
        float wall = scene_wall_near(r->s, r->target[i], SCENE_TRACE_WALL, &hit, &normal);
        fprintf(stderr,
                "ARR\t%s\t%u\t%u\t%.3f\t%.3f\t%.3f\t%.3f\t%.2f\t%.2f\t%.3f\t%.3f\t%.3f\t%.3f\n",
                r->s->name, seed, i, r->target[i].x, r->target[i].z, st.position.x, st.position.z,
                st.params.radius, wall, hit.x, hit.z, normal.x, normal.z);
        if (scene_at_target(st.position, r->target[i], st.params.height)) {
            continue;
        }
        uint32_t walkers = 0, holders = 0, on_spot_w = 0, on_spot_h = 0;
        float nearest = 99.0f;
        int nearest_state = -1;
        float spot_near = 99.0f;
        uint32_t spot_overlaps = 0, spot_pairs = 0, on_target = 0;
        float occ_d = 99.0f, occ_off = 99.0f, occ_speed = 0.0f, occ_spots = 99.0f;
        int occ_state = -1, occ = -1;
        for (uint32_t j = 0; j < n; ++j) {
            wf_agent_state o;
            if (j == i || wf_crowd_get_agent(r->crowd, r->ids[j], &o) != WF_OK) {
                continue;
            }
            float ds = dist2d(r->target[i], r->target[j]);
            if (o.target_state == WF_TARGET_ARRIVED && ds < spot_near) {
                spot_near = ds;
            }
            spot_overlaps += o.target_state == WF_TARGET_ARRIVED && ds < 1.2f;
            spot_pairs += o.target_state == WF_TARGET_ARRIVED && ds < 0.9f;
            float dt = dist2d(o.position, r->target[i]);
            on_target += dt < 1.2f;
            if (dt < occ_d) {
                occ_d = dt;
                occ = (int)j;
                occ_state = (int)o.target_state;
                occ_off = dist2d(o.position, r->target[j]);
                occ_speed = sqrtf(o.velocity.x * o.velocity.x + o.velocity.z * o.velocity.z);
                occ_spots = ds;
            }
            float d = dist2d(st.position, o.position);
            if (d < nearest) {
                nearest = d;
                nearest_state = (int)o.target_state;
            }
            bool arrived = o.target_state == WF_TARGET_ARRIVED;
            if (d < 1.5f) {
                walkers += !arrived;
                holders += arrived;
            }
            if (dist2d(o.position, r->target[i]) < 0.9f) {
                on_spot_w += !arrived;
                on_spot_h += arrived;
            }
        }
        float speed = sqrtf(st.velocity.x * st.velocity.x + st.velocity.z * st.velocity.z);
        float want = sqrtf(st.desired_velocity.x * st.desired_velocity.x +
                           st.desired_velocity.z * st.desired_velocity.z);
        fprintf(stderr,
                "OFF\t%s\t%u\t%u\t%.2f\t%.2f\t%.2f\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t%u\t%u\t%.2f\t%d\t%"
                "u\t%u\t%.2f\t%u\t%u\t%.2f\t%d\t%.2f\t%.2f\t%.2f\t%u\t%.2f\n",
                r->s->name, seed, i, off, r->now - r->left_at[i], r->first_arrival[i],
                (int)st.target_state, speed, want, st.stuck_time, dist2d(st.target, r->target[i]),
                walkers, holders, nearest, nearest_state, on_spot_w, on_spot_h, spot_near,
                spot_overlaps, spot_pairs, occ_d, occ_state, occ_off, occ_speed, occ_spots,
                on_target, scene_wall_distance(r->s, r->target[i], SCENE_TRACE_WALL));
        // The spot it holds (its corridor's end: a shared spot is moved off
        // the target): how far off the target, and how far it and the agent
        // nearest its target stand from it.
        if (st.corner_count > 0) {
            wf_vec3 spot = st.corners[st.corner_count - 1].pos;
            wf_agent_state o;
            float occ_spot = -1.0f;
            if (occ >= 0 && wf_crowd_get_agent(r->crowd, r->ids[occ], &o) == WF_OK) {
                occ_spot = dist2d(o.position, spot);
            }
            fprintf(stderr, "SPOT\t%s\t%u\t%u\t%.2f\t%.2f\t%.2f\n", r->s->name, seed, i,
                    dist2d(spot, r->target[i]), dist2d(st.position, spot), occ_spot);
        }
    }
}

static void summarize(run_state* r, scene_metrics* m) {
    uint32_t n = r->s->agent_count;
    double time_sum = 0.0, ratio_sum = 0.0;
    uint32_t ratio_count = 0, a10 = 0, a30 = 0, a60 = 0;
    m->in_time_targets = r->in_time_targets;
    m->in_time_reached = r->in_time_reached;
    m->in_time_blocked = r->in_time_blocked;
    m->in_time_alone_targets = r->in_time_alone_targets;
    m->in_time_alone_reached = r->in_time_alone_reached;
    m->in_time_alone_slowdown =
        r->in_time_alone_reached > 0 ? r->slowdown_sum / r->in_time_alone_reached : 0.0;
    for (uint32_t i = 0; i < n; ++i) {
        wf_agent_state end;
        if (r->log_targets && wf_crowd_get_agent(r->crowd, r->ids[i], &end) == WF_OK) {
            log_target(r, "open", i, end.position);
        }
        m->in_time_agents += r->in_time_agent[i];
        m->in_time_agents_arrived += r->in_time_arrived[i];
        m->in_time_alone_agents += r->alone_agent[i];
        m->in_time_alone_agents_arrived += r->alone_arrived[i];
        m->reachable += r->shortest[i] >= 0.0f;
        bool feasible = r->shortest[i] >= 0.0f && r->shortest[i] <= r->max_speed * m->seconds;
        m->first_feasible += feasible;
        m->ever_arrived += r->ever[i];
        wf_agent_state st;
        if (wf_crowd_get_agent(r->crowd, r->ids[i], &st) == WF_OK) {
            bool within = scene_at_target(st.position, r->target[i], st.params.height);
            m->within_at_end += within;
            m->arrived_within_at_end += within && r->first_arrival[i] >= 0.0f;
            m->second_door_agents += r->second_door[i];
        }
        float t = r->first_arrival[i];
        if (t < 0.0f) {
            continue;
        }
        m->arrived++;
        m->first_feasible_arrived += feasible;
        a10 += t <= 10.0f;
        a30 += t <= 30.0f;
        a60 += t <= 60.0f;
        time_sum += t;
        m->arrival_time_max = t > m->arrival_time_max ? t : m->arrival_time_max;
        if (r->shortest[i] > 0.01f) {
            double ratio = r->walked[i] / r->shortest[i];
            ratio_sum += ratio;
            ratio_count++;
            m->path_ratio_max = ratio > m->path_ratio_max ? ratio : m->path_ratio_max;
        }
    }
    m->never_arrived = n - m->arrived;
    m->arrived_10 = n > 0 ? (double)a10 / n : 0.0;
    m->arrived_30 = n > 0 ? (double)a30 / n : 0.0;
    m->arrived_60 = n > 0 ? (double)a60 / n : 0.0;
    m->arrival_time_mean = m->arrived > 0 ? time_sum / m->arrived : 0.0;
    m->path_ratio_mean = ratio_count > 0 ? ratio_sum / ratio_count : 0.0;
}

static void free_state(run_state* r) {
    wf_crowd_destroy(r->crowd);
    free(r->ids);
    free(r->target);
    free(r->previous);
    free(r->shortest);
    free(r->walked);
    free(r->first_arrival);
    free(r->ever);
    free(r->at_target);
    free(r->left_at);
    free(r->request_due);
    free(r->second_door);
    free(r->in_time);
    free(r->in_time_agent);
    free(r->in_time_arrived);
    free(r->in_time_alone);
    free(r->given_length);
    free(r->alone_agent);
    free(r->alone_arrived);
    free(r->given_at);
    free(r->bodies);
}

static int start(run_state* r, const scene_settings* settings, wf_job_system jobs) {
    scene* s = r->s;
    uint32_t n = s->agent_count > 0 ? s->agent_count : 1u;
    const char* overlap_log = getenv("WF_OVERLAP_LOG");
    r->log_overlaps = 0.0f;
    if (overlap_log != NULL) {
        float depth = strtof(overlap_log, NULL);
        // A depth under 1 m; "1" (the old on switch) keeps the default.
        r->log_overlaps = depth > 0.0f && depth < 1.0f ? depth : OVERLAP_LOGGED;
    }
    r->log_watch = getenv("WF_WATCH_LOG") != NULL;
    r->log_push = getenv("WF_PUSH_LOG") != NULL;
    r->log_targets = getenv("WF_TARGET_LOG") != NULL;
    const char* cross_log = getenv("WF_CROSS_LOG");
    r->log_cross = cross_log != NULL &&
                   sscanf(cross_log, "%f,%f,%f", &r->cross_x0, &r->cross_x1, &r->cross_z) == 3;
    r->given_at = calloc(n, sizeof *r->given_at);
    r->ids = calloc(n, sizeof *r->ids);
    r->target = calloc(n, sizeof *r->target);
    r->previous = calloc(n, sizeof *r->previous);
    r->shortest = calloc(n, sizeof *r->shortest);
    r->walked = calloc(n, sizeof *r->walked);
    r->first_arrival = calloc(n, sizeof *r->first_arrival);
    r->ever = calloc(n, sizeof *r->ever);
    r->at_target = calloc(n, sizeof *r->at_target);
    r->left_at = calloc(n, sizeof *r->left_at);
    r->request_due = calloc(n, sizeof *r->request_due);
    r->second_door = calloc(n, sizeof *r->second_door);
    r->in_time = calloc(n, sizeof *r->in_time);
    r->in_time_agent = calloc(n, sizeof *r->in_time_agent);
    r->in_time_arrived = calloc(n, sizeof *r->in_time_arrived);
    r->in_time_alone = calloc(n, sizeof *r->in_time_alone);
    r->given_length = calloc(n, sizeof *r->given_length);
    r->alone_agent = calloc(n, sizeof *r->alone_agent);
    r->alone_arrived = calloc(n, sizeof *r->alone_arrived);
    r->bodies = calloc(n, sizeof *r->bodies);
    const wf_tilecache_params* tp = wf_tilecache_get_params(s->tc);
    wf_crowd_desc cd;
    memset(&cd, 0, sizeof cd);
    cd.mesh = s->mesh;
    cd.max_agents = n;
    cd.max_agent_radius = tp->agent_radius;
    cd.jobs = jobs;
    cd.logger.quiet = true;
    cd.crowding_cost = settings->crowding;
    cd.stuck_crowding_cost = settings->stuck_crowding;
    cd.flow_cost = settings->flow;
    if (r->ids == NULL || r->target == NULL || r->previous == NULL || r->shortest == NULL ||
        r->walked == NULL || r->first_arrival == NULL || r->ever == NULL || r->at_target == NULL ||
        r->left_at == NULL || r->request_due == NULL || r->second_door == NULL ||
        r->in_time == NULL || r->in_time_agent == NULL || r->in_time_arrived == NULL ||
        r->in_time_alone == NULL || r->given_length == NULL || r->alone_agent == NULL ||
        r->alone_arrived == NULL || r->given_at == NULL || r->bodies == NULL ||
        wf_crowd_create(&cd, &r->crowd) != WF_OK) {
        fprintf(stderr, "wayfarer scenarios: out of memory\n");
        return EXIT_INPUT;
    }
    // RecastDemo's crowd agent: radius 0.6, height 2, 3.5 m/s, accel 8,
    // separation 2, every update flag (the defaults), the chosen preset.
    wf_agent_params p = wf_agent_params_defaults();
    p.radius = tp->agent_radius;
    p.height = tp->agent_height;
    p.collision_query_range = p.radius * 12.0f;
    p.path_optimization_range = p.radius * 30.0f;
    p.avoidance_preset = (uint8_t)settings->avoidance;
    r->max_speed = p.max_speed;
    for (uint32_t i = 0; i < s->agent_count; ++i) {
        wf_agent_state st;
        wf_status e = wf_crowd_add_agent(r->crowd, s->starts[i], &p, &r->ids[i]);
        if (e == WF_OK) {
            e = wf_crowd_get_agent(r->crowd, r->ids[i], &st);
        }
        if (e != WF_OK) {
            fprintf(stderr, "wayfarer scenarios: %s: cannot add agent %u: %s\n", s->name, i,
                    wf_status_string(e));
            return EXIT_INPUT;
        }
        r->previous[i] = st.position;
        r->target[i] = s->targets[i];
        r->shortest[i] = scene_path_length(s, st.position, s->targets[i]);
        given_target(r, i, r->shortest[i], st.position);
        r->first_arrival[i] = -1.0f;
        r->request_due[i] = true;
    }
    return send_requests(r);
}

int scene_run(scene* s, const scene_settings* settings, scene_metrics* out) {
    memset(out, 0, sizeof *out);
    run_state r;
    memset(&r, 0, sizeof r);
    r.s = s;
    out->agents = s->agent_count;
    out->seconds = settings->seconds > 0.0f ? settings->seconds : s->seconds;
    out->frames = (uint32_t)lroundf(out->seconds / SCENE_DT);
    r.seconds = (float)out->frames * SCENE_DT;
    wf_thread_pool* pool = NULL;
    wf_job_system jobs;
    int rc = make_jobs(settings->workers, &pool, &jobs);
    if (rc == 0) {
        rc = start(&r, settings, jobs);
    }
    double update_ms = 0.0;
    for (uint32_t f = 0; f < out->frames && rc == 0; ++f) {
        double t0 = now_ms();
        wf_status st = wf_crowd_update(r.crowd, SCENE_DT, NULL);
        update_ms += now_ms() - t0;
        if (st != WF_OK) {
            fprintf(stderr, "wayfarer scenarios: %s: update failed: %s\n", s->name,
                    wf_status_string(st));
            rc = EXIT_CHECK;
            break;
        }
        r.now = (float)(f + 1u) * SCENE_DT;
        handle_events(&r, out);
        measure_agents(&r, (float)(f + 1u) * SCENE_DT, out);
        float between =
            settings->trace_seconds > 0.0f ? settings->trace_seconds : SCENE_TRACE_SECONDS;
        long every = lroundf(between / SCENE_DT);
        every = every > 0 ? every : 1;
        if (settings->trace != NULL &&
            (f == 0u || (f + 1u) % (uint32_t)every == 0 || f + 1u == out->frames)) {
            trace_agents(&r, settings, (float)(f + 1u) * SCENE_DT);
        }
        rc = send_requests(&r);
    }
    if (rc == 0) {
        if (getenv("WF_OFFSPOT_LOG") != NULL) {
            log_offspot(&r, settings->seed);
        }
        if (r.log_cross) {
            fprintf(stderr, "CROSS %s seed %u: +z %u -z %u\n", s->name, settings->seed,
                    r.crossed[0], r.crossed[1]);
        }
        summarize(&r, out);
        double agent_frames = (double)out->frames * (s->agent_count > 0 ? s->agent_count : 1u);
        out->us_per_agent_frame = update_ms * 1e3 / agent_frames;
    }
    free_state(&r);
    wf_thread_pool_destroy(pool);
    return rc;
}
