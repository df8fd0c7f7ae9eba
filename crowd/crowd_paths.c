// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Crowd update, path phases: corridors checked ahead, quick searches and
// the path queue, results and callbacks, topology optimization.
#include <math.h>
#include <string.h>

#include "crowd/crowd_phases.h"
#include "navcore/check.h"

static wf_agent_id agent_id(const wf_crowd* c, uint32_t i) {
    wf_agent_id id = {wf_id_pool_id_at(&c->ids, i)};
    return id;
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
            c->vel[i] = c->desired_vel[i] = wf_v3(0, 0, 0);
            c->corner_count[i] = 0;
            return;
        }
        c->mode[i] = WF_AGENT_WALKING;
        c->pos[i] = p;
        wf_corridor_reset(cor, ref, p);
        c->boundary_center[i] = wf_v3(INFINITY, 0, INFINITY);
        if (wf_crowd_follows_path(c, i)) {
            c->agent_flags[i] |= AGENT_NEEDS_REPLAN;
        }
        return;
    }
    if (!wf_crowd_follows_path(c, i)) {
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

void wf_crowd_validate_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
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
void wf_crowd_queue_replans(wf_crowd* c, wf_crowd_profile* profile) {
    for (uint32_t i = 0; i < c->max_agents; ++i) {
        if (!c->active[i] || !(c->agent_flags[i] & AGENT_NEEDS_REPLAN)) {
            continue;
        }
        if (!wf_crowd_follows_path(c, i)) {
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
        if (c->target_state[i] != WF_TARGET_ARRIVED) {
            // (An arrived agent walking back to its spot does so silently.)
            wf_crowd_push_event(c, i, WF_CROWD_EVENT_REPLANNED, (wf_poly_ref){0});
        }
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
    cut =
        (r->flags & WF_PATH_BUFFER_FULL) != 0 || wf_corridor_last(cor).bits != path[count - 1].bits;
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
        uint8_t ts = c->target_state[i];
        if (ts == WF_TARGET_ARRIVED) {
            return; // walking back to its spot: as far as the path goes
        }
        if (ts == WF_TARGET_BLOCKED) {
            if (!partial) {
                c->target_state[i] = WF_TARGET_VALID; // a retry found the way again
            }
            return;
        }
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

void wf_crowd_quick_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    phase_ctx* ctx = context;
    wf_crowd* c = ctx->c;
    wf_query* q = c->worker_queries[worker];
    wf_poly_ref* buffer = c->worker_paths + (size_t)worker * c->max_corridor;
    for (uint32_t k = begin; k < end; ++k) {
        uint32_t i = ctx->list[k];
        wf_corridor* cor = &c->corridor[i];
        c->agent_flags[i] &= ~(uint32_t)AGENT_NEEDS_QUICK;
        wf_status s = wf_query_begin_path(q, wf_corridor_last(cor), c->target_ref[i], cor->target,
                                          c->target_pos[i], wf_crowd_filter(c, i));
        if (s != WF_OK) {
            c->agent_flags[i] |= AGENT_NEEDS_REPLAN; // its start is gone: cut again
            continue;
        }
        uint32_t used = 0;
        s = wf_query_update_path(q, c->quick_iterations, &used);
        c->worker_tally[worker].iterations += used;
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
void wf_crowd_settle_quick(wf_crowd* c, const uint32_t* list, uint32_t count) {
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
        s->iterations += s->used; // for a restore's replay
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
            wf_status st =
                wf_query_begin_path(s->query, wf_corridor_last(cor), c->target_ref[i], cor->target,
                                    c->target_pos[i], wf_crowd_filter(c, i));
            if (st != WF_OK) {
                // Start or target gone: validation cuts the corridor again.
                c->agent_flags[i] &= ~(uint32_t)AGENT_QUEUED;
                c->agent_flags[i] |= AGENT_NEEDS_REPLAN;
                continue;
            }
            s->agent = i;
            s->agent_id = wf_id_pool_id_at(&c->ids, i);
            s->status = WF_IN_PROGRESS;
            // What a restore replays (wf_crowd_replay_searches).
            s->begin_start = wf_corridor_last(cor);
            s->begin_end = c->target_ref[i];
            s->begin_start_pos = cor->target;
            s->begin_end_pos = c->target_pos[i];
            s->begin_filter = *wf_crowd_filter(c, i);
            s->iterations = 0;
        }
    }
}

void wf_crowd_restart_searches(wf_crowd* c) {
    wf_path_queue* pq = &c->queue;
    for (uint32_t k = 0; k < pq->search_count; ++k) {
        wf_path_search* s = &pq->searches[k];
        if (s->agent == WF_PATH_QUEUE_NONE || s->status != WF_IN_PROGRESS) {
            continue;
        }
        s->iterations = 0;
        if (wf_query_begin_path(s->query, s->begin_start, s->begin_end, s->begin_start_pos,
                                s->begin_end_pos, &s->begin_filter) != WF_OK) {
            // Start or target gone: the agent searches again from scratch.
            uint32_t i = s->agent;
            wf_path_queue_drop_search(pq, k);
            c->agent_flags[i] &= ~(uint32_t)AGENT_QUEUED;
            c->agent_flags[i] |= AGENT_NEEDS_REPLAN;
        }
    }
}

void wf_crowd_serve_queue(wf_crowd* c, phase_ctx* ctx, wf_crowd_profile* profile) {
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
            if (wf_id_pool_id_at(&c->ids, i) == s->agent_id && (c->agent_flags[i] & AGENT_QUEUED)) {
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

void wf_crowd_run_callbacks(wf_crowd* c) {
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
                // The request ends; the agent holds the end of its corridor
                // (or, short of a taken target, where it stopped).
                c->agent_flags[i] &= ~(uint32_t)AGENT_FOLLOW;
                c->target_state[i] = WF_TARGET_ARRIVED;
                if (c->agent_flags[i] & AGENT_STOPPED_SHORT) {
                    stop_agent(c, i);
                }
            }
        }
    }
}

/* ---------------------------------------------------------------------------
 * Topology optimization: the agents that waited longest, a few per update
 */

uint32_t wf_crowd_pick_topology(wf_crowd* c, uint32_t* out) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->max_agents; ++i) {
        if (!wf_crowd_walking(c, i) || c->target_state[i] != WF_TARGET_VALID ||
            !(c->params[i].update_flags & WF_AGENT_OPTIMIZE_TOPOLOGY) ||
            (c->agent_flags[i] & AGENT_QUEUED) ||
            c->topology_timer[i] < WF_CROWD_TOPOLOGY_INTERVAL) {
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
    if (n > 0 && c->flow_cost > 0.0f) {
        wf_crowd_flow_refresh(c); // the passes below read it
    }
    return n;
}

/// Whether agent i's local re-search prices crowding by itself
/// (stuck_crowding_cost; with crowding_cost every search does already): it
/// has gained nothing on its next corner for WF_CROWD_STUCK_PRICE_TIME, and
/// no single-file passage lies ahead, where waiting one's turn is the way
/// through and a way round a queue only breaks it up (two-way doorways lost
/// up to 12 points when all were priced, docs/benchmarks.md, topo13). Read
/// from saved state only (stuck timer, corridor, mesh), so a restored crowd
/// answers the same.
static bool held_up_in_open(const wf_crowd* c, uint32_t i) {
    return c->crowding_cost <= 0.0f && c->stuck_crowding_cost > 0.0f &&
           c->stuck_timer[i] >= WF_CROWD_STUCK_PRICE_TIME && !wf_crowd_passage_ahead(c, i);
}

void wf_crowd_topology_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    phase_ctx* ctx = context;
    wf_crowd* c = ctx->c;
    wf_query* query = c->worker_queries[worker];
    for (uint32_t k = begin; k < end; ++k) {
        uint32_t i = ctx->list[k];
        c->topology_timer[i] = 0.0f;
        bool crowded = held_up_in_open(c, i);
        // Flow: priced along the way to the corridor's end (none when
        // there), on top of crowding where that prices this search (every
        // search's, when crowding_cost is on: the worker query keeps it).
        bool flowing = false;
        wf_flow_view view = {
            .c = c, .way = {0.0f, 0.0f, 0.0f}, .crowding = crowded || c->crowding_cost > 0.0f};
        if (c->flow_cost > 0.0f && !wf_crowd_passage_ahead(c, i)) {
            wf_vec3 to = wf_v3_sub(c->corridor[i].target, c->pos[i]);
            float len = sqrtf(to.x * to.x + to.z * to.z);
            if (len > 0.01f) {
                view.way = (wf_vec3){to.x / len, 0.0f, to.z / len};
                flowing = true;
            }
        }
        if (flowing) {
            wf_query_set_cost_scale(query, wf_crowd_flow_scale, &view);
        } else if (crowded) {
            wf_query_set_cost_scale(query, wf_crowding_scale, c);
        }
        // A held-up agent's priced re-search looks further: a way round a
        // knot rejoins its corridor past the knot, out of a short search's
        // reach (nav21).
        uint32_t iterations =
            crowded ? WF_CROWD_STUCK_TOPOLOGY_ITERATIONS : WF_CROWD_TOPOLOGY_ITERATIONS;
        (void)wf_corridor_optimize_topology(&c->corridor[i], query, wf_crowd_filter(c, i),
                                            iterations,
                                            c->worker_paths + (size_t)worker * c->max_corridor);
        if (flowing || crowded) {
            // Back to the crowd's own: every search priced, or none.
            wf_query_set_cost_scale(query, c->crowding_cost > 0.0f ? wf_crowding_scale : NULL,
                                    c->crowding_cost > 0.0f ? c : NULL);
        }
    }
}

/// Searches in progress continue where they were: replayed on their own
/// queries. One the mesh answers differently for (it is not the saved
/// mesh) is dropped and its agent asks again, as when the mesh changes
/// under a running search.
void wf_crowd_replay_searches(wf_crowd* c) {
    wf_path_queue* q = &c->queue;
    for (uint32_t k = 0; k < q->search_count; ++k) {
        wf_path_search* s = &q->searches[k];
        if (s->agent == WF_PATH_QUEUE_NONE || wf_path_queue_replay_search(s)) {
            continue;
        }
        uint32_t i = s->agent;
        uint32_t budget = s->budget;
        wf_path_queue_drop_search(q, k);
        s->budget = budget;
        c->tiles_changed = true; // the mesh differs: check whole corridors
        if (wf_path_queue_push(q, i, q->key[i])) {
            c->agent_flags[i] |= AGENT_QUEUED | AGENT_NEEDS_QUICK;
        } else {
            // Queue full: the replan step queues it when there is room.
            c->agent_flags[i] &= ~(uint32_t)AGENT_QUEUED;
            c->agent_flags[i] |= AGENT_NEEDS_REPLAN;
        }
    }
}
