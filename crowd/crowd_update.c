// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The crowd update: phases, each a parallel loop over agents that reads
// what earlier phases wrote and writes only its agent's slot (or a search
// slot), with short serial steps in agent order between them where agents
// meet shared state (the path queue, busy off-mesh links, callbacks).
#include <math.h>
#include <string.h>

#include "crowd/avoidance.h"
#include "crowd/crowd_internal.h"
#include "navcore/check.h"

/// Seconds between topology optimizations of one agent.
#define TOPOLOGY_INTERVAL 0.5f
/// Expansions of one topology optimization.
#define TOPOLOGY_ITERATIONS 32u
/// Off-mesh links trigger within this many radii of their start.
#define OFFMESH_TRIGGER_RADII 2.25f
/// Collision pushes resolve this share of an overlap per pass (less than
/// all of it keeps crowds from jittering).
#define COLLISION_RESOLVE 0.7f
/// Updates between two wall gatherings of an agent that does not move.
#define WALL_REFRESH_FRAMES 30u
/// A path's end is reached within this many radii of its target.
#define ARRIVAL_RADII 0.25f
/// Agents slow down within this many radii of the path's end.
#define SLOW_DOWN_RADII 2.0f

typedef struct phase_ctx {
    wf_crowd* c;
    float dt;
    const uint32_t* list; ///< agent (or search) indices, NULL: every slot
} phase_ctx;

static bool walking(const wf_crowd* c, uint32_t i) {
    return c->active[i] && c->mode[i] == WF_AGENT_WALKING;
}

/// States in which an agent follows its corridor.
static bool follows_path(const wf_crowd* c, uint32_t i) {
    uint8_t ts = c->target_state[i];
    return ts == WF_TARGET_REQUESTED || ts == WF_TARGET_VALID ||
           (ts == WF_TARGET_BLOCKED && (c->agent_flags[i] & AGENT_CONTINUE_BLOCKED));
}

static wf_agent_id agent_id(const wf_crowd* c, uint32_t i) {
    wf_agent_id id = {wf_id_pool_id_at(&c->ids, i)};
    return id;
}

static void run_phase(wf_crowd* c, wf_crowd_phase phase, uint32_t count, uint32_t min_block,
                      wf_parallel_for_fn* fn, phase_ctx* ctx, wf_crowd_profile* profile) {
    double t0 = wf_crowd_now_us();
    wf_status s = wf_jobs_parallel_for(&c->jobs, count, min_block, fn, ctx);
    WF_ASSERT(s == WF_OK); // fn is set and the job system was checked at creation
    (void)s;
    profile->phase_us[phase] += wf_crowd_now_us() - t0;
}

/* ---------------------------------------------------------------------------
 * Validate: the agent's polygon, its target and the corridor just ahead
 */

static void validate_agent(wf_crowd* c, uint32_t i, wf_query* q) {
    const wf_query_filter* f = wf_crowd_filter(c, i);
    wf_corridor* cor = &c->corridor[i];
    if (c->mode[i] == WF_AGENT_LOST || !wf_poly_passes(c->mesh, cor->polys[0], f)) {
        // The surface under the agent vanished: the nearest valid place.
        wf_poly_ref ref;
        wf_vec3 p;
        if (wf_query_find_nearest_poly(q, c->pos[i], c->search_extents, f, &ref, &p) != WF_OK) {
            if (c->mode[i] != WF_AGENT_LOST) {
                wf_crowd_push_event(c, i, WF_CROWD_EVENT_LOST, (wf_poly_ref){0});
            }
            c->mode[i] = WF_AGENT_LOST;
            c->vel[i] = c->dvel[i] = wf_v3(0, 0, 0);
            c->corner_count[i] = 0;
            return;
        }
        c->mode[i] = WF_AGENT_WALKING;
        c->pos[i] = p;
        wf_corridor_reset(cor, ref, p);
        c->boundary_center[i] = wf_v3(INFINITY, 0, INFINITY);
        if (follows_path(c, i)) {
            c->agent_flags[i] |= AGENT_NEEDS_REPLAN;
        }
        return;
    }
    if (!follows_path(c, i)) {
        return;
    }
    if (!wf_poly_passes(c->mesh, c->target_ref[i], f)) {
        // The target's polygon went: the nearest valid place to it.
        wf_poly_ref ref;
        wf_vec3 p;
        if (wf_query_find_nearest_poly(q, c->target_pos[i], c->search_extents, f, &ref, &p) ==
            WF_OK) {
            c->target_ref[i] = ref;
            c->target_pos[i] = p;
        }
        c->agent_flags[i] |= AGENT_NEEDS_REPLAN;
    }
    uint32_t look = c->tiles_changed ? cor->count : c->peek_ahead;
    uint32_t want = look < cor->count ? look : cor->count;
    uint32_t valid = wf_corridor_valid_ahead(cor, look, c->mesh, f);
    if (valid < want) {
        wf_corridor_trim(cor, valid > 0 ? valid : 1u, q);
        c->agent_flags[i] |= AGENT_NEEDS_REPLAN;
    }
}

static void validate_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    phase_ctx* ctx = context;
    wf_crowd* c = ctx->c;
    for (uint32_t i = begin; i < end; ++i) {
        if (c->active[i] && c->mode[i] != WF_AGENT_OFFMESH) {
            validate_agent(c, i, c->worker_queries[worker]);
        }
        if (c->active[i]) {
            c->topology_timer[i] += ctx->dt;
        }
    }
}

/// Serial: broken corridors get a search from their valid end, in agent order.
static void queue_replans(wf_crowd* c, wf_crowd_profile* profile) {
    for (uint32_t i = 0; i < c->max_agents; ++i) {
        if (!c->active[i] || !(c->agent_flags[i] & AGENT_NEEDS_REPLAN)) {
            continue;
        }
        if (!follows_path(c, i)) {
            c->agent_flags[i] &= ~(uint32_t)AGENT_NEEDS_REPLAN;
            continue;
        }
        if (!wf_path_queue_contains(&c->queue, i)) {
            uint32_t s = wf_path_queue_search_of(&c->queue, i);
            if (s != WF_PATH_QUEUE_NONE) {
                wf_path_queue_drop_search(&c->queue, s);
            }
            if (!wf_path_queue_push(&c->queue, i, c->next_request_seq)) {
                continue; // queue full: stays marked, tried again next update
            }
            c->next_request_seq++;
            c->request_time[i] = c->time;
        }
        c->agent_flags[i] &= ~(uint32_t)AGENT_NEEDS_REPLAN;
        c->agent_flags[i] |= AGENT_QUEUED | AGENT_NEEDS_QUICK;
        c->result[i].cost = 0.0f;
        if (c->target_state[i] != WF_TARGET_REQUESTED) {
            c->agent_flags[i] |= AGENT_IS_REPLAN;
        }
        wf_crowd_push_event(c, i, WF_CROWD_EVENT_REPLANNED, (wf_poly_ref){0});
        profile->replans++;
    }
}

/* ---------------------------------------------------------------------------
 * Paths: quick slices for new searches, then the queue
 */

/// Joins a found path to the agent's corridor. final: the search is over
/// (else a quick slice's best guess to walk along meanwhile).
static void apply_path(wf_crowd* c, uint32_t i, wf_query* q, const wf_poly_ref* path,
                       uint32_t count, const wf_path_result* r, bool final) {
    wf_corridor* cor = &c->corridor[i];
    bool partial = (r->flags & (WF_PATH_PARTIAL | WF_PATH_OUT_OF_NODES)) != 0 || !final;
    wf_vec3 target = c->target_pos[i];
    if (partial && count > 0) {
        wf_vec3 p;
        if (wf_query_closest_point_on_poly(q, path[count - 1], c->target_pos[i], &p, NULL) ==
            WF_OK) {
            target = p;
        }
    }
    bool cut = false;
    if (count == 0 || !wf_corridor_merge_path(cor, target, path, count)) {
        // The corridor moved on and shares nothing with the path: search
        // again from where it ends now (the agent stays queued).
        c->agent_flags[i] |= AGENT_NEEDS_QUICK;
        return;
    }
    cut = (r->flags & WF_PATH_BUFFER_FULL) != 0 || cor->polys[cor->count - 1].bits !=
                                                       path[count - 1].bits;
    // The quick slice and the queued search each cover part of the way.
    c->result[i].cost += r->cost;
    if (!final) {
        return;
    }
    bool was_partial = c->corridor_partial[i] != 0;
    partial = partial || cut;
    c->corridor_partial[i] = partial;
    c->agent_flags[i] &= ~(uint32_t)(AGENT_QUEUED | AGENT_NEEDS_QUICK);
    c->result[i].corridor_count = cor->count;
    c->result[i].partial = partial;
    c->result[i].wait = (float)(c->time - c->request_time[i]);
    if (c->agent_flags[i] & AGENT_IS_REPLAN) {
        c->agent_flags[i] &= ~(uint32_t)AGENT_IS_REPLAN;
        if (partial && !was_partial) {
            // The repair cannot reach the target any more: blocked.
            c->agent_flags[i] |= AGENT_NOTIFY_BLOCKED;
            wf_crowd_push_event(c, i, WF_CROWD_EVENT_BLOCKED, (wf_poly_ref){0});
        }
    } else {
        c->agent_flags[i] |= AGENT_NOTIFY_RESULT;
        c->target_state[i] = WF_TARGET_VALID;
    }
}

static void quick_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    phase_ctx* ctx = context;
    wf_crowd* c = ctx->c;
    wf_query* q = c->worker_queries[worker];
    wf_poly_ref* buffer = c->worker_paths + (size_t)worker * c->max_corridor;
    for (uint32_t k = begin; k < end; ++k) {
        uint32_t i = ctx->list[k];
        wf_corridor* cor = &c->corridor[i];
        c->agent_flags[i] &= ~(uint32_t)AGENT_NEEDS_QUICK;
        wf_status s = wf_query_begin_path(q, cor->polys[cor->count - 1], c->target_ref[i],
                                          cor->target, c->target_pos[i], wf_crowd_filter(c, i));
        if (s != WF_OK) {
            c->agent_flags[i] |= AGENT_NEEDS_REPLAN; // its start is gone: cut again
            continue;
        }
        uint32_t used = 0;
        s = wf_query_update_path(q, c->quick_iterations, &used);
        c->worker_iterations[worker] += used;
        wf_path_result r;
        if (s != WF_OK && s != WF_PARTIAL && s != WF_IN_PROGRESS) {
            continue; // the queue's search will see the same and retry
        }
        bool final = s != WF_IN_PROGRESS;
        if (wf_query_finish_path(q, buffer, c->max_corridor, &r) < 0) {
            continue;
        }
        if (final || r.count > 1) {
            apply_path(c, i, q, buffer, r.count, &r, final);
        }
    }
}

/// Serial: agents whose quick slice found the whole path leave the queue.
static void settle_quick(wf_crowd* c, const uint32_t* list, uint32_t count) {
    for (uint32_t k = 0; k < count; ++k) {
        uint32_t i = list[k];
        if (!(c->agent_flags[i] & AGENT_QUEUED)) {
            wf_path_queue_remove(&c->queue, i);
        } else if (c->agent_flags[i] & AGENT_NEEDS_REPLAN) {
            c->agent_flags[i] &= ~(uint32_t)AGENT_NEEDS_REPLAN;
            c->agent_flags[i] |= AGENT_NEEDS_QUICK; // try again next update
        }
    }
}

static void search_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    phase_ctx* ctx = context;
    wf_crowd* c = ctx->c;
    for (uint32_t k = begin; k < end; ++k) {
        wf_path_search* s = &c->queue.searches[k];
        s->used = 0;
        if (s->agent == WF_PATH_QUEUE_NONE || s->status != WF_IN_PROGRESS || s->budget == 0) {
            continue;
        }
        wf_status st = wf_query_update_path(s->query, s->budget, &s->used);
        s->budget = s->used >= s->budget ? 0 : s->budget - s->used;
        if (st == WF_IN_PROGRESS) {
            continue;
        }
        if (st == WF_OK || st == WF_PARTIAL) {
            st = wf_query_finish_path(s->query, s->path, c->queue.path_capacity, &s->result);
        }
        s->status = st == WF_IN_PROGRESS ? WF_ERR_BAD_DATA : st;
    }
}

/// Fills free search slots with the oldest waiting agents.
static void fill_searches(wf_crowd* c) {
    wf_path_queue* pq = &c->queue;
    for (uint32_t k = 0; k < pq->search_count; ++k) {
        wf_path_search* s = &pq->searches[k];
        while (s->agent == WF_PATH_QUEUE_NONE && s->budget > 0) {
            uint32_t i;
            if (!wf_path_queue_pop(pq, &i)) {
                return;
            }
            wf_corridor* cor = &c->corridor[i];
            wf_status st = wf_query_begin_path(s->query, cor->polys[cor->count - 1],
                                               c->target_ref[i], cor->target, c->target_pos[i],
                                               wf_crowd_filter(c, i));
            if (st != WF_OK) {
                // Start or target gone: validation cuts the corridor again.
                c->agent_flags[i] &= ~(uint32_t)AGENT_QUEUED;
                c->agent_flags[i] |= AGENT_NEEDS_REPLAN;
                continue;
            }
            s->agent = i;
            s->agent_id = wf_id_pool_id_at(&c->ids, i);
            s->status = WF_IN_PROGRESS;
        }
    }
}

static void serve_queue(wf_crowd* c, phase_ctx* ctx, wf_crowd_profile* profile) {
    wf_path_queue* pq = &c->queue;
    uint32_t share = pq->iterations_per_update / pq->search_count;
    share = share > 0 ? share : 1u;
    for (uint32_t k = 0; k < pq->search_count; ++k) {
        pq->searches[k].budget = share;
    }
    // Rounds: run every search on its budget, then give finished searches'
    // slots (with what is left of their budget) to the next requests. The
    // rounds depend only on iteration counts, never on thread timing.
    for (;;) {
        fill_searches(c);
        bool work = false;
        for (uint32_t k = 0; k < pq->search_count; ++k) {
            const wf_path_search* s = &pq->searches[k];
            work |= s->agent != WF_PATH_QUEUE_NONE && s->status == WF_IN_PROGRESS && s->budget > 0;
        }
        if (!work) {
            break;
        }
        ctx->list = NULL;
        wf_status st = wf_jobs_parallel_for(&c->jobs, pq->search_count, 1, search_fn, ctx);
        WF_ASSERT(st == WF_OK);
        (void)st;
        for (uint32_t k = 0; k < pq->search_count; ++k) {
            wf_path_search* s = &pq->searches[k];
            profile->path_iterations += s->used;
            if (s->agent == WF_PATH_QUEUE_NONE || s->status == WF_IN_PROGRESS) {
                continue;
            }
            uint32_t i = s->agent;
            if (wf_id_pool_id_at(&c->ids, i) == s->agent_id &&
                (c->agent_flags[i] & AGENT_QUEUED)) {
                if (s->status == WF_OK || s->status == WF_PARTIAL) {
                    apply_path(c, i, c->worker_queries[0], s->path, s->result.count, &s->result,
                               true);
                    profile->paths_completed += (c->agent_flags[i] & AGENT_QUEUED) == 0;
                } else {
                    c->agent_flags[i] |= AGENT_NEEDS_QUICK; // mesh changed under it
                }
                if (c->agent_flags[i] & AGENT_QUEUED) {
                    // Not done (merge failed or stale): back in line, first.
                    bool ok = wf_path_queue_push(pq, i, c->queue.key[i]);
                    (void)ok;
                }
            }
            uint32_t left = s->budget;
            wf_path_queue_drop_search(pq, k);
            s->budget = left;
        }
    }
}

/* ---------------------------------------------------------------------------
 * Callbacks, in agent order on this thread
 */

static void stop_agent(wf_crowd* c, uint32_t i) {
    wf_corridor* cor = &c->corridor[i];
    if (c->mode[i] == WF_AGENT_WALKING) {
        wf_corridor_reset(cor, cor->polys[0], c->pos[i]);
    }
    c->corner_count[i] = 0;
}

static void run_callbacks(wf_crowd* c) {
    for (uint32_t i = 0; i < c->max_agents; ++i) {
        uint32_t flags = c->agent_flags[i];
        if (!c->active[i] ||
            !(flags & (AGENT_NOTIFY_RESULT | AGENT_NOTIFY_BLOCKED | AGENT_NOTIFY_DONE))) {
            continue;
        }
        c->agent_flags[i] &=
            ~(uint32_t)(AGENT_NOTIFY_RESULT | AGENT_NOTIFY_BLOCKED | AGENT_NOTIFY_DONE);
        const wf_move_callbacks* cb = &c->callbacks[i];
        void* user = c->callback_user[i];
        wf_agent_id id = agent_id(c, i);
        if (flags & AGENT_NOTIFY_RESULT) {
            wf_path_info info = {
                .corridor_count = c->result[i].corridor_count,
                .partial = c->result[i].partial,
                .cost = c->result[i].cost,
                .wait = c->result[i].wait,
            };
            if (cb->result != NULL && !cb->result(id, &info, user)) {
                c->target_state[i] = WF_TARGET_FAILED;
                stop_agent(c, i);
                continue;
            }
        }
        if (flags & AGENT_NOTIFY_BLOCKED) {
            c->target_state[i] = WF_TARGET_BLOCKED;
            if (cb->blocked == NULL || cb->blocked(id, user)) {
                c->agent_flags[i] |= AGENT_CONTINUE_BLOCKED;
            } else {
                c->agent_flags[i] &= ~(uint32_t)AGENT_CONTINUE_BLOCKED;
                stop_agent(c, i);
                continue;
            }
        }
        if (flags & AGENT_NOTIFY_DONE) {
            if (cb->done != NULL && cb->done(id, user)) {
                c->agent_flags[i] |= AGENT_FOLLOW;
            } else {
                c->agent_flags[i] &= ~(uint32_t)AGENT_FOLLOW;
                c->target_state[i] = WF_TARGET_ARRIVED;
                stop_agent(c, i);
            }
        }
    }
}

/* ---------------------------------------------------------------------------
 * Topology optimization: the agents that waited longest, a few per update
 */

static uint32_t pick_topology(wf_crowd* c, uint32_t* out) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->max_agents; ++i) {
        if (!walking(c, i) || c->target_state[i] != WF_TARGET_VALID ||
            !(c->params[i].update_flags & WF_AGENT_OPTIMIZE_TOPOLOGY) ||
            (c->agent_flags[i] & AGENT_QUEUED) || c->topology_timer[i] < TOPOLOGY_INTERVAL) {
            continue;
        }
        // Insertion into the short list, longest wait first (ties: lower slot).
        uint32_t at = n < c->max_topology ? n++ : c->max_topology;
        while (at > 0 && c->topology_timer[out[at - 1]] < c->topology_timer[i]) {
            if (at < c->max_topology) {
                out[at] = out[at - 1];
            }
            at--;
        }
        if (at < c->max_topology) {
            out[at] = i;
        }
    }
    return n;
}

static void topology_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    phase_ctx* ctx = context;
    wf_crowd* c = ctx->c;
    for (uint32_t k = begin; k < end; ++k) {
        uint32_t i = ctx->list[k];
        c->topology_timer[i] = 0.0f;
        (void)wf_corridor_optimize_topology(&c->corridor[i], c->worker_queries[worker],
                                            wf_crowd_filter(c, i), TOPOLOGY_ITERATIONS);
    }
}

/* ---------------------------------------------------------------------------
 * Neighbours and walls
 */

typedef struct neighbour_filter {
    const wf_crowd* c;
    uint32_t self;
} neighbour_filter;

/// Agents on another floor are not neighbours.
static bool same_floor(uint32_t j, void* context) {
    const neighbour_filter* f = context;
    const wf_crowd* c = f->c;
    float dy = fabsf(c->pos[j].y - c->pos[f->self].y);
    return dy < (c->params[f->self].height + c->params[j].height) * 0.5f;
}

static void neighbours_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    phase_ctx* ctx = context;
    wf_crowd* c = ctx->c;
    for (uint32_t i = begin; i < end; ++i) {
        if (!walking(c, i)) {
            c->neighbour_count[i] = 0;
            continue;
        }
        const wf_agent_params* p = &c->params[i];
        wf_vec3 pos = c->pos[i];
        float range = p->collision_query_range;
        // The grid holds walking agents only; ties in distance go by slot,
        // so the list never depends on threads.
        neighbour_filter nf = {c, i};
        float dist[WF_CROWD_MAX_NEIGHBOURS];
        c->neighbour_count[i] = (uint8_t)wf_proximity_grid_nearest(
            &c->grid, c->pos, pos, range, i, same_floor, &nf,
            c->neighbours + (size_t)i * c->max_neighbours, dist, c->max_neighbours);

        // Walls: collected again once the agent moved a quarter of its
        // range, or a polygon they came from was replaced.
        wf_poly_ref* bpolys = c->boundary_polys + (size_t)i * WF_LOCAL_BOUNDARY_MAX_POLYS;
        float moved = wf_v2_distance_sq(pos, c->boundary_center[i]);
        bool stale = !(moved <= range * range * 0.0625f);
        for (uint32_t k = 0; k < c->boundary_poly_count[i] && !stale; ++k) {
            stale = !wf_poly_passes(c->mesh, bpolys[k], wf_crowd_filter(c, i));
        }
        // Flags that open a polygon (a door) leave every ref valid: walls
        // are also gathered again once a second, agents taking turns.
        stale |= (c->frame + i) % WALL_REFRESH_FRAMES == 0;
        if (stale) {
            uint32_t poly_count = 0;
            c->wall_count[i] = (uint8_t)wf_local_boundary_collect(
                c->worker_queries[worker], c->corridor[i].polys[0], pos, range,
                wf_crowd_filter(c, i), c->walls + (size_t)i * c->max_walls * 2u, c->max_walls,
                bpolys, &poly_count);
            c->boundary_poly_count[i] = (uint8_t)poly_count;
            c->boundary_center[i] = pos;
        }
    }
}

/* ---------------------------------------------------------------------------
 * Corners, visibility shortcuts, off-mesh triggers
 */

static void corners_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    phase_ctx* ctx = context;
    wf_crowd* c = ctx->c;
    for (uint32_t i = begin; i < end; ++i) {
        c->agent_flags[i] &= ~(uint32_t)AGENT_WANTS_OFFMESH;
        if (!walking(c, i) || !follows_path(c, i)) {
            c->corner_count[i] = 0;
            continue;
        }
        wf_query* q = c->worker_queries[worker];
        wf_corridor* cor = &c->corridor[i];
        wf_straight_point* corners = c->corners + (size_t)i * WF_CROWD_MAX_CORNERS;
        uint32_t n = wf_corridor_find_corners(cor, q, corners, WF_CROWD_MAX_CORNERS);
        c->corner_count[i] = (uint8_t)n;
        const wf_agent_params* p = &c->params[i];
        if ((p->update_flags & WF_AGENT_OPTIMIZE_VISIBILITY) && n > 0) {
            wf_vec3 next = corners[n > 1 ? 1 : 0].pos;
            wf_corridor_optimize_visibility(cor, next, p->path_optimization_range, q,
                                            wf_crowd_filter(c, i));
        }
        if (n > 0 && (corners[n - 1].flags & WF_STRAIGHT_OFFMESH)) {
            float r = p->radius * OFFMESH_TRIGGER_RADII;
            if (wf_v2_distance_sq(c->pos[i], corners[n - 1].pos) < r * r) {
                c->agent_flags[i] |= AGENT_WANTS_OFFMESH;
            }
        }
    }
}

/// Serial, agent order: agents at a free link start traversing it; a link
/// someone is on is busy until they are off it.
static void start_offmesh(wf_crowd* c) {
    uint32_t* busy = c->scratch_agents; // links in use, as agent slots on them
    uint32_t busy_count = 0;
    for (uint32_t i = 0; i < c->max_agents; ++i) {
        if (c->active[i] && c->mode[i] == WF_AGENT_OFFMESH) {
            busy[busy_count++] = i;
        }
    }
    for (uint32_t i = 0; i < c->max_agents; ++i) {
        c->agent_flags[i] &= ~(uint32_t)AGENT_WAITS_OFFMESH;
        if (!c->active[i] || !(c->agent_flags[i] & AGENT_WANTS_OFFMESH)) {
            continue;
        }
        const wf_straight_point* last =
            &c->corners[(size_t)i * WF_CROWD_MAX_CORNERS + c->corner_count[i] - 1u];
        wf_poly_ref link = last->ref;
        bool taken = false;
        for (uint32_t k = 0; k < busy_count && !taken; ++k) {
            taken = c->offmesh[busy[k]].link.bits == link.bits;
        }
        if (taken) {
            c->agent_flags[i] |= AGENT_WAITS_OFFMESH;
            continue;
        }
        wf_poly_ref refs[2];
        wf_vec3 start, end;
        if (!wf_corridor_move_over_offmesh(&c->corridor[i], link, c->mesh, refs, &start, &end)) {
            continue;
        }
        wf_crowd_offmesh* om = &c->offmesh[i];
        om->start = c->pos[i];
        om->end = end;
        om->link = link;
        om->t = 0.0f;
        float speed = c->params[i].max_speed > 0.1f ? c->params[i].max_speed : 0.1f;
        om->duration = (wf_v3_distance(c->pos[i], start) + wf_v3_distance(start, end)) / speed;
        c->mode[i] = WF_AGENT_OFFMESH;
        c->vel[i] = c->dvel[i] = c->nvel[i] = wf_v3(0, 0, 0);
        c->corner_count[i] = 0;
        c->neighbour_count[i] = 0;
        busy[busy_count++] = i;
        wf_crowd_push_event(c, i, WF_CROWD_EVENT_OFFMESH_START, link);
    }
}

/* ---------------------------------------------------------------------------
 * Steering, avoidance, integration
 */

static wf_vec3 clamp_length_2d(wf_vec3 v, float max) {
    v.y = 0.0f;
    float l2 = v.x * v.x + v.z * v.z;
    if (l2 > max * max && l2 > 0.0f) {
        float s = max / sqrtf(l2);
        v.x *= s;
        v.z *= s;
    }
    return v;
}

static void steering_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    phase_ctx* ctx = context;
    wf_crowd* c = ctx->c;
    (void)worker;
    for (uint32_t i = begin; i < end; ++i) {
        if (!walking(c, i)) {
            continue;
        }
        const wf_agent_params* p = &c->params[i];
        wf_vec3 pos = c->pos[i];
        wf_vec3 dvel = wf_v3(0, 0, 0);
        uint32_t n = c->corner_count[i];
        if (c->target_state[i] == WF_TARGET_VELOCITY) {
            dvel = clamp_length_2d(c->request_vel[i], p->max_speed);
        } else if (follows_path(c, i) && n > 0 && !(c->agent_flags[i] & AGENT_WAITS_OFFMESH)) {
            const wf_straight_point* cs = c->corners + (size_t)i * WF_CROWD_MAX_CORNERS;
            wf_vec3 d0 = wf_v3_sub(cs[0].pos, pos);
            d0.y = 0.0f;
            wf_vec3 dir = d0;
            if ((p->update_flags & WF_AGENT_ANTICIPATE_TURNS) && n > 1) {
                // Lean towards the corner after next, by as much as the
                // next one is near: turns start before the corner.
                wf_vec3 d1 = wf_v3_sub(cs[1].pos, pos);
                d1.y = 0.0f;
                float l0 = wf_v2_length(d0), l1 = wf_v2_length(d1);
                if (l1 > 0.001f) {
                    d1 = wf_v3_scale(d1, 1.0f / l1);
                }
                dir = wf_v3_sub(d0, wf_v3_scale(d1, l0 * 0.5f));
            }
            float len = wf_v2_length(dir);
            if (len > 1e-6f) {
                dir = wf_v3_scale(dir, 1.0f / len);
            } else {
                dir = wf_v3(0, 0, 0);
            }
            float speed = p->max_speed;
            const wf_straight_point* last = &cs[n - 1];
            if (last->flags & (WF_STRAIGHT_END | WF_STRAIGHT_OFFMESH)) {
                float slow = p->radius * SLOW_DOWN_RADII;
                float dist = wf_v2_distance(pos, last->pos);
                if (dist < slow) {
                    speed *= dist / slow;
                }
            }
            dvel = wf_v3_scale(dir, speed);
        }
        if ((p->update_flags & WF_AGENT_SEPARATION) && p->separation_weight > 0.0f &&
            c->neighbour_count[i] > 0) {
            const uint32_t* nei = c->neighbours + (size_t)i * c->max_neighbours;
            wf_vec3 push = wf_v3(0, 0, 0);
            uint32_t w = 0;
            for (uint32_t k = 0; k < c->neighbour_count[i]; ++k) {
                uint32_t j = nei[k];
                wf_vec3 diff = wf_v3_sub(pos, c->pos[j]);
                float reach = (p->radius + c->params[j].radius) * 2.0f;
                float d2 = diff.x * diff.x + diff.z * diff.z;
                if (d2 >= reach * reach || d2 < 1e-8f) {
                    continue;
                }
                float d = sqrtf(d2);
                float t = d / reach;
                float weight = p->separation_weight * (1.0f - t * t);
                push.x += diff.x * (weight / d);
                push.z += diff.z * (weight / d);
                w++;
            }
            if (w > 0) {
                float speed = wf_v2_length(dvel);
                dvel = wf_v3_add(dvel, wf_v3_scale(push, 1.0f / (float)w));
                dvel = clamp_length_2d(dvel, speed > 0.0f ? speed : p->max_speed * 0.5f);
            }
        }
        c->dvel[i] = dvel;
    }
}

static void avoidance_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    phase_ctx* ctx = context;
    wf_crowd* c = ctx->c;
    uint32_t samples_total = 0;
    for (uint32_t i = begin; i < end; ++i) {
        if (!walking(c, i)) {
            continue;
        }
        const wf_agent_params* p = &c->params[i];
        if (!(p->update_flags & WF_AGENT_AVOIDANCE)) {
            c->nvel[i] = c->dvel[i];
            continue;
        }
        wf_avoid_agent self = {.pos = c->pos[i], .vel = c->vel[i], .dvel = c->dvel[i],
                               .radius = p->radius, .max_speed = p->max_speed,
                               .priority = p->priority};
        wf_avoid_neighbour nei[WF_CROWD_MAX_NEIGHBOURS];
        const uint32_t* list = c->neighbours + (size_t)i * c->max_neighbours;
        uint32_t n = c->neighbour_count[i];
        for (uint32_t k = 0; k < n; ++k) {
            uint32_t j = list[k];
            nei[k].pos = c->pos[j];
            nei[k].vel = c->vel[j];
            nei[k].radius = c->params[j].radius;
            nei[k].priority = c->params[j].priority;
        }
        uint32_t samples = 0;
        c->nvel[i] = wf_avoidance_sample(&c->presets[p->avoidance_preset], &self, nei, n,
                                         c->walls + (size_t)i * c->max_walls * 2u,
                                         c->wall_count[i], &samples);
        samples_total += samples;
    }
    c->worker_iterations[worker] += samples_total;
}

static void integrate_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    phase_ctx* ctx = context;
    wf_crowd* c = ctx->c;
    (void)worker;
    for (uint32_t i = begin; i < end; ++i) {
        if (!walking(c, i)) {
            continue;
        }
        const wf_agent_params* p = &c->params[i];
        wf_vec3 dv = wf_v3_sub(c->nvel[i], c->vel[i]);
        dv.y = 0.0f;
        dv = clamp_length_2d(dv, p->max_acceleration * ctx->dt);
        wf_vec3 v = wf_v3_add(c->vel[i], dv);
        if (v.x * v.x + v.z * v.z < 1e-8f) {
            v = wf_v3(0, 0, 0);
        }
        c->vel[i] = v;
        c->pos[i] = wf_v3_mad(c->pos[i], v, ctx->dt);
    }
}

/* ---------------------------------------------------------------------------
 * Collisions: passes that each read every position and write one push per
 * agent, then apply the pushes (double-buffered)
 */

/// Share of an overlap (or of avoiding) that agent a takes against b.
static float yield_share(uint8_t a, uint8_t b) {
    return a == b ? 0.5f : (a < b ? 0.75f : 0.25f);
}

static void collide_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    phase_ctx* ctx = context;
    wf_crowd* c = ctx->c;
    (void)worker;
    for (uint32_t i = begin; i < end; ++i) {
        c->disp[i] = wf_v3(0, 0, 0);
        if (!walking(c, i)) {
            continue;
        }
        const uint32_t* nei = c->neighbours + (size_t)i * c->max_neighbours;
        wf_vec3 push = wf_v3(0, 0, 0);
        uint32_t w = 0;
        for (uint32_t k = 0; k < c->neighbour_count[i]; ++k) {
            uint32_t j = nei[k];
            if (c->mode[j] != WF_AGENT_WALKING) {
                continue;
            }
            wf_vec3 diff = wf_v3_sub(c->pos[i], c->pos[j]);
            diff.y = 0.0f;
            float rr = c->params[i].radius + c->params[j].radius;
            float d2 = diff.x * diff.x + diff.z * diff.z;
            if (d2 > rr * rr) {
                continue;
            }
            float d = sqrtf(d2);
            if (d < 1e-4f) {
                // On top of each other: part sideways to the desired
                // velocity, the lower slot to one side, the other opposite.
                wf_vec3 side = wf_v3(-c->dvel[i].z, 0.0f, c->dvel[i].x);
                if (side.x * side.x + side.z * side.z < 1e-8f) {
                    side = wf_v3(1.0f, 0.0f, 0.0f);
                }
                float l = wf_v2_length(side);
                diff = wf_v3_scale(side, (i < j ? 1.0f : -1.0f) / l);
                d = 1.0f;
            }
            float pen = rr - (d2 < 1e-8f ? 0.0f : sqrtf(d2));
            float s = pen * yield_share(c->params[i].priority, c->params[j].priority) *
                      COLLISION_RESOLVE * 2.0f / d;
            push.x += diff.x * s;
            push.z += diff.z * s;
            w++;
        }
        if (w > 0) {
            c->disp[i] = wf_v3_scale(push, 1.0f / (float)w);
        }
    }
}

static void apply_push_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    phase_ctx* ctx = context;
    wf_crowd* c = ctx->c;
    (void)worker;
    for (uint32_t i = begin; i < end; ++i) {
        if (walking(c, i)) {
            c->pos[i] = wf_v3_add(c->pos[i], c->disp[i]);
        }
    }
}

/* ---------------------------------------------------------------------------
 * Surface: positions back onto the navmesh, the corridor follows; off-mesh
 * traversals advance
 */

static void surface_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    phase_ctx* ctx = context;
    wf_crowd* c = ctx->c;
    for (uint32_t i = begin; i < end; ++i) {
        if (!c->active[i]) {
            continue;
        }
        wf_corridor* cor = &c->corridor[i];
        if (c->mode[i] == WF_AGENT_OFFMESH) {
            wf_crowd_offmesh* om = &c->offmesh[i];
            om->t += ctx->dt;
            float u = om->duration > 0.0f ? om->t / om->duration : 1.0f;
            if (u >= 1.0f) {
                c->pos[i] = om->end;
                cor->pos = om->end;
                c->mode[i] = WF_AGENT_WALKING;
                c->boundary_center[i] = wf_v3(INFINITY, 0, INFINITY);
                wf_crowd_push_event(c, i, WF_CROWD_EVENT_OFFMESH_END, om->link);
                om->link.bits = 0;
            } else {
                c->pos[i] = wf_v3_lerp(om->start, om->end, u);
            }
            continue;
        }
        if (c->mode[i] != WF_AGENT_WALKING) {
            continue;
        }
        const wf_query_filter* f = wf_crowd_filter(c, i);
        if (wf_corridor_move_position(cor, c->pos[i], c->worker_queries[worker], f)) {
            c->pos[i] = cor->pos;
        } else {
            c->pos[i] = cor->pos; // start polygon gone: validation finds a new one
        }
        if (!follows_path(c, i)) {
            wf_corridor_reset(cor, cor->polys[0], c->pos[i]);
        }
    }
}

/* ---------------------------------------------------------------------------
 * Events: arrivals and stuck agents (serial: replans enter the queue)
 */

/// The end of the path is reached: done is due (once per arrival).
static void arrive(wf_crowd* c, uint32_t i) {
    c->stuck_timer[i] = 0.0f;
    // A blocked agent at the end of a broken (partial) path has reached
    // what was still valid: it waits there; done is for the end of a path.
    // One that was blocked by others and went on does arrive.
    bool broken = c->target_state[i] == WF_TARGET_BLOCKED && c->corridor_partial[i];
    if (!(c->agent_flags[i] & AGENT_DONE_SENT) && !broken) {
        c->agent_flags[i] |= AGENT_DONE_SENT | AGENT_NOTIFY_DONE;
        wf_crowd_push_event(c, i, WF_CROWD_EVENT_ARRIVED, (wf_poly_ref){0});
    }
}

static void detect_events(wf_crowd* c, float dt, wf_crowd_profile* profile) {
    for (uint32_t i = 0; i < c->max_agents; ++i) {
        if (!walking(c, i) || !follows_path(c, i) || c->target_state[i] == WF_TARGET_REQUESTED) {
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
        const wf_straight_point* cs = c->corners + (size_t)i * WF_CROWD_MAX_CORNERS;
        bool direct = cor->count == 1 || nc == 0 || (nc == 1 && (cs[0].flags & WF_STRAIGHT_END));
        // Close to the end, or as close as the agent gets: a target at a
        // wall (or beside another agent) lies a radius away from where
        // the agent stops.
        float speed = wf_v2_length(c->vel[i]);
        bool near_end = direct && to_end <= p->radius * SLOW_DOWN_RADII &&
                        !(c->agent_flags[i] & AGENT_QUEUED);
        bool close = to_end <= p->radius * ARRIVAL_RADII || speed < p->max_speed * 0.1f;
        if (near_end && close) {
            arrive(c, i);
            continue;
        }
        if ((c->agent_flags[i] & AGENT_DONE_SENT) && to_end > p->radius * 2.0f) {
            c->agent_flags[i] &= ~(uint32_t)AGENT_DONE_SENT; // a follower pushed away
        }
        if ((c->agent_flags[i] & (AGENT_QUEUED | AGENT_WAITS_OFFMESH)) ||
            c->corner_count[i] == 0 || c->target_state[i] == WF_TARGET_BLOCKED) {
            c->stuck_timer[i] = 0.0f;
            continue;
        }
        // Progress: getting nearer to the next corner, or passing it.
        wf_vec3 corner = c->corners[(size_t)i * WF_CROWD_MAX_CORNERS].pos;
        float d = wf_v2_distance(c->pos[i], corner);
        if (c->stuck_timer[i] == 0.0f || wf_v2_distance_sq(corner, c->stuck_corner[i]) > 0.01f) {
            c->stuck_anchor[i] = d;
            c->stuck_corner[i] = corner;
            c->stuck_timer[i] = dt;
            continue;
        }
        c->stuck_timer[i] += dt;
        if (c->stuck_timer[i] < c->stuck_time) {
            continue;
        }
        if (c->stuck_anchor[i] - d >= p->radius * 0.5f) {
            c->stuck_timer[i] = 0.0f; // moved on enough: a new window
            c->agent_flags[i] &= ~(uint32_t)AGENT_STUCK_REPLANNED;
            continue;
        }
        c->stuck_timer[i] = 0.0f;
        if (near_end) {
            arrive(c, i); // as near as it gets (others or a wall at the target)
            continue;
        }
        if (!(c->agent_flags[i] & AGENT_STUCK_REPLANNED)) {
            // First time: search again from where the agent stands.
            c->agent_flags[i] |= AGENT_STUCK_REPLANNED;
            wf_corridor_reset(cor, cor->polys[0], c->pos[i]);
            c->agent_flags[i] |= AGENT_NEEDS_REPLAN;
            c->corridor_partial[i] = 0;
        } else {
            c->agent_flags[i] &= ~(uint32_t)AGENT_STUCK_REPLANNED;
            c->agent_flags[i] |= AGENT_NOTIFY_BLOCKED;
            wf_crowd_push_event(c, i, WF_CROWD_EVENT_BLOCKED, (wf_poly_ref){0});
        }
    }
    queue_replans(c, profile);
}

/* ---------------------------------------------------------------------------
 * The update
 */

static uint32_t list_agents(wf_crowd* c, uint32_t flag) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->max_agents; ++i) {
        if (c->active[i] && (c->agent_flags[i] & flag)) {
            c->scratch_agents[n++] = i;
        }
    }
    return n;
}

wf_status wf_crowd_update(wf_crowd* c, float dt, wf_crowd_profile* out_profile) {
    WF_CHECK_ARG(c != NULL);
    WF_CHECK_OR(!c->busy, WF_ERR_BUSY);
    WF_CHECK_ARG(isfinite(dt) && dt > 0.0f && dt <= 1.0f);
    c->busy = true;
    wf_crowd_profile profile;
    memset(&profile, 0, sizeof profile);
    double start = wf_crowd_now_us();
    memset(c->worker_iterations, 0, sizeof(uint32_t) * c->worker_count);
    memset(c->agent_event_count, 0, c->max_agents);
    phase_ctx ctx = {.c = c, .dt = dt, .list = NULL};
    uint32_t n = c->max_agents;
    const uint32_t block = 16u;

    run_phase(c, WF_CROWD_PHASE_VALIDATE, n, block, validate_fn, &ctx, &profile);
    double t0 = wf_crowd_now_us();
    queue_replans(c, &profile);
    c->tiles_changed = false;
    profile.phase_us[WF_CROWD_PHASE_VALIDATE] += wf_crowd_now_us() - t0;

    uint32_t quick = list_agents(c, AGENT_NEEDS_QUICK);
    ctx.list = c->scratch_agents;
    run_phase(c, WF_CROWD_PHASE_PATHS, quick, 4u, quick_fn, &ctx, &profile);
    t0 = wf_crowd_now_us();
    settle_quick(c, c->scratch_agents, quick);
    for (uint32_t k = 0; k < quick; ++k) {
        profile.paths_completed += (c->agent_flags[c->scratch_agents[k]] & AGENT_QUEUED) == 0;
    }
    for (uint32_t w = 0; w < c->worker_count; ++w) {
        profile.path_iterations += c->worker_iterations[w];
        c->worker_iterations[w] = 0;
    }
    serve_queue(c, &ctx, &profile);
    profile.phase_us[WF_CROWD_PHASE_PATHS] += wf_crowd_now_us() - t0;

    t0 = wf_crowd_now_us();
    run_callbacks(c);
    profile.phase_us[WF_CROWD_PHASE_CALLBACKS] += wf_crowd_now_us() - t0;

    t0 = wf_crowd_now_us();
    uint32_t topo = pick_topology(c, c->scratch_agents);
    profile.phase_us[WF_CROWD_PHASE_TOPOLOGY] += wf_crowd_now_us() - t0;
    ctx.list = c->scratch_agents;
    run_phase(c, WF_CROWD_PHASE_TOPOLOGY, topo, 1u, topology_fn, &ctx, &profile);
    profile.topology_optimizations = topo;
    ctx.list = NULL;

    t0 = wf_crowd_now_us();
    uint8_t* in_grid = (uint8_t*)c->scratch_agents; // free again: n bytes fit
    for (uint32_t i = 0; i < n; ++i) {
        in_grid[i] = walking(c, i);
    }
    wf_proximity_grid_build(&c->grid, c->pos, in_grid, n);
    profile.phase_us[WF_CROWD_PHASE_GRID] += wf_crowd_now_us() - t0;

    run_phase(c, WF_CROWD_PHASE_NEIGHBOURS, n, block, neighbours_fn, &ctx, &profile);
    run_phase(c, WF_CROWD_PHASE_CORNERS, n, block, corners_fn, &ctx, &profile);
    t0 = wf_crowd_now_us();
    start_offmesh(c);
    profile.phase_us[WF_CROWD_PHASE_CORNERS] += wf_crowd_now_us() - t0;
    run_phase(c, WF_CROWD_PHASE_STEERING, n, block, steering_fn, &ctx, &profile);
    run_phase(c, WF_CROWD_PHASE_AVOIDANCE, n, 8u, avoidance_fn, &ctx, &profile);
    for (uint32_t w = 0; w < c->worker_count; ++w) {
        profile.avoidance_samples += c->worker_iterations[w];
    }
    run_phase(c, WF_CROWD_PHASE_INTEGRATE, n, 64u, integrate_fn, &ctx, &profile);
    for (uint32_t k = 0; k < c->collision_iterations; ++k) {
        run_phase(c, WF_CROWD_PHASE_COLLISIONS, n, 32u, collide_fn, &ctx, &profile);
        run_phase(c, WF_CROWD_PHASE_COLLISIONS, n, 64u, apply_push_fn, &ctx, &profile);
    }
    run_phase(c, WF_CROWD_PHASE_SURFACE, n, block, surface_fn, &ctx, &profile);

    t0 = wf_crowd_now_us();
    c->time += dt;
    c->frame++;
    detect_events(c, dt, &profile);
    c->event_count = 0;
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t k = c->agent_event_count[i];
        if (k > 0) {
            memcpy(c->events + c->event_count,
                   c->agent_events + (size_t)i * WF_CROWD_EVENTS_PER_AGENT,
                   sizeof(wf_crowd_event) * k);
            c->event_count += k;
        }
        profile.lost_agents += c->active[i] && c->mode[i] == WF_AGENT_LOST;
    }
    profile.paths_queued = c->queue.count;
    profile.phase_us[WF_CROWD_PHASE_EVENTS] += wf_crowd_now_us() - t0;
    profile.total_us = wf_crowd_now_us() - start;
    c->busy = false;
    if (out_profile != NULL) {
        *out_profile = profile;
    }
    return WF_OK;
}
