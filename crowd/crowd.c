// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The crowd object: creation with every array sized up front, agents by
// id, movement requests, and the read-only views of agent state.
#include <math.h>
#include <string.h>

#include "crowd/avoidance.h"
#include "crowd/crowd_phases.h"
#include "navcore/alloc.h"
#include "navcore/check.h"

/* ---------------------------------------------------------------------------
 * Storage: every per-agent array comes from agent_fields.h, so creation,
 * destruction, the memory figure and the save cannot disagree.
 */

typedef struct array_spec {
    void** ptr;
    size_t count;
    size_t size;
    size_t align;
} array_spec;

/// Every agent array starts on a cache line: the items of a worker's share
/// (docs/threading.md) then end on a line boundary wherever the share ends
/// on a multiple of 64 bytes, and no other allocation shares its lines.
#define ARRAY_ALIGN(type) (_Alignof(type) > 64u ? _Alignof(type) : 64u)
#define SPEC(name, type, count, keep, check)                                                       \
    {(void**)&c->name, (count), sizeof(type), ARRAY_ALIGN(type)},

static uint32_t agent_arrays(wf_crowd* c, array_spec* out) {
    size_t n = c->max_agents;
    array_spec specs[] = {WF_CROWD_AGENT_FIELDS(SPEC)};
    uint32_t count = (uint32_t)(sizeof specs / sizeof specs[0]);
    if (out != NULL) {
        memcpy(out, specs, sizeof specs);
    }
    return count;
}
#undef SPEC
#undef ARRAY_ALIGN

#define MAX_ARRAYS 64u

static void free_arrays(wf_crowd* c) {
    array_spec specs[MAX_ARRAYS];
    uint32_t n = agent_arrays(c, specs);
    for (uint32_t i = 0; i < n; ++i) {
        wf_free(&c->allocator, *specs[i].ptr, wf_size_mul(specs[i].count, specs[i].size),
                specs[i].align);
        *specs[i].ptr = NULL;
    }
}

static bool alloc_arrays(wf_crowd* c) {
    array_spec specs[MAX_ARRAYS];
    uint32_t n = agent_arrays(c, specs);
    for (uint32_t i = 0; i < n; ++i) {
        *specs[i].ptr = wf_alloc_zeroed(&c->allocator, wf_size_mul(specs[i].count, specs[i].size),
                                        specs[i].align);
        if (*specs[i].ptr == NULL) {
            return false;
        }
    }
    return true;
}

static size_t arrays_bytes(const wf_crowd* c) {
    array_spec specs[MAX_ARRAYS];
    uint32_t n = agent_arrays((wf_crowd*)c, specs);
    size_t total = 0;
    for (uint32_t i = 0; i < n; ++i) {
        total += specs[i].count * specs[i].size;
    }
    return total;
}

/* ---------------------------------------------------------------------------
 * Create / destroy
 */

static bool finite_positive(float v) { return isfinite(v) && v > 0.0f; }

static uint32_t or_default(uint32_t v, uint32_t def) { return v != 0 ? v : def; }

wf_crowd_desc wf_crowd_desc_defaults(const wf_crowd_desc* desc) {
    wf_crowd_desc d;
    memset(&d, 0, sizeof d);
    if (desc != NULL) {
        d = *desc;
    }
    d.max_corridor = or_default(d.max_corridor, 256u);
    d.max_neighbours = or_default(d.max_neighbours, 6u);
    d.max_walls = or_default(d.max_walls, 8u);
    d.max_queued_paths = or_default(d.max_queued_paths, d.max_agents);
    d.max_searches = or_default(d.max_searches, 2u);
    d.path_iterations_per_update = or_default(d.path_iterations_per_update, 4096u);
    d.max_search_nodes = or_default(d.max_search_nodes, 4096u);
    d.quick_search_iterations = or_default(d.quick_search_iterations, 32u);
    d.peek_ahead = or_default(d.peek_ahead, 10u);
    d.max_topology_per_update = or_default(d.max_topology_per_update, 8u);
    d.collision_iterations = or_default(d.collision_iterations, 4u);
    if (d.stuck_time == 0.0f) {
        d.stuck_time = 2.0f;
    }
    if (d.stuck_crowding_cost == 0.0f) {
        d.stuck_crowding_cost = 8.0f;
    }
    if (d.flow_cost == 0.0f) {
        d.flow_cost = WF_CROWD_FLOW_COST_DEFAULT;
    }
    d.max_movers = or_default(d.max_movers, 16u);
    return d;
}

/// Every rule of a desc, each logged by name when it fails.
static wf_status check_desc(const wf_crowd_desc* d) {
    const wf_logger* log = &d->logger;
    WF_CHECK_DESC(log, "crowd", d->mesh != NULL, "mesh is required");
    WF_CHECK_DESC(log, "crowd", wf_mesh_slot_count(d->mesh) <= WF_REF_CODEC_MAX_TILES,
                  "mesh has more than 2^17 tile slots (corridors store 32-bit refs)");
    WF_CHECK_DESC(log, "crowd", d->max_agents > 0 && d->max_agents <= WF_CROWD_MAX_AGENTS,
                  "max_agents must be 1..WF_CROWD_MAX_AGENTS");
    WF_CHECK_DESC(log, "crowd", finite_positive(d->max_agent_radius),
                  "max_agent_radius must be finite and > 0");
    WF_CHECK_DESC(log, "crowd", d->filter_count <= WF_CROWD_MAX_FILTERS,
                  "filter_count is above WF_CROWD_MAX_FILTERS");
    WF_CHECK_DESC(log, "crowd", d->filter_count == 0 || d->filters != NULL,
                  "filters is NULL with filter_count > 0");
    WF_CHECK_DESC(log, "crowd", d->avoidance_count <= WF_CROWD_MAX_AVOIDANCE_PRESETS,
                  "avoidance_count is above WF_CROWD_MAX_AVOIDANCE_PRESETS");
    WF_CHECK_DESC(log, "crowd", d->avoidance_count == 0 || d->avoidance != NULL,
                  "avoidance is NULL with avoidance_count > 0");
    WF_CHECK_DESC(log, "crowd", d->max_neighbours <= WF_CROWD_MAX_NEIGHBOURS,
                  "max_neighbours is above WF_CROWD_MAX_NEIGHBOURS");
    WF_CHECK_DESC(log, "crowd", d->max_walls <= WF_CROWD_MAX_WALLS,
                  "max_walls is above WF_CROWD_MAX_WALLS");
    WF_CHECK_DESC(log, "crowd", d->max_corridor >= 2, "max_corridor must be 0 (default) or >= 2");
    WF_CHECK_DESC(log, "crowd", isfinite(d->stuck_time) && d->stuck_time >= 0.0f,
                  "stuck_time must be finite and >= 0");
    WF_CHECK_DESC(log, "crowd", d->crowding_cost >= 0.0f && d->crowding_cost <= 1000.0f,
                  "crowding_cost must be 0..1000");
    WF_CHECK_DESC(log, "crowd",
                  isfinite(d->stuck_crowding_cost) && d->stuck_crowding_cost <= 1000.0f,
                  "stuck_crowding_cost must be finite and at most 1000 (negative: off)");
    WF_CHECK_DESC(log, "crowd", isfinite(d->flow_cost) && d->flow_cost <= 1000.0f,
                  "flow_cost must be finite and at most 1000 (negative: off)");
    WF_CHECK_DESC(log, "crowd", d->max_movers <= WF_CROWD_MAX_MOVERS,
                  "max_movers is above WF_CROWD_MAX_MOVERS");
    WF_CHECK_DESC(log, "crowd", d->id_tag <= WF_CROWD_MAX_ID_TAG,
                  "id_tag is above WF_CROWD_MAX_ID_TAG");
    WF_CHECK_DESC(log, "crowd", d->jobs.enqueue == NULL || d->jobs.wait != NULL,
                  "jobs: enqueue without wait");
    for (uint32_t i = 0; i < d->avoidance_count; ++i) {
        WF_CHECK_DESC(log, "crowd", wf_avoidance_params_valid(&d->avoidance[i]),
                      "an avoidance preset is out of range (see wf_avoidance_params)");
    }
    for (uint32_t i = 0; i < d->filter_count; ++i) {
        WF_CHECK_DESC(log, "crowd", wf_crowd_filter_is_valid(&d->filters[i]),
                      "a filter has a negative or non-finite area cost, an unknown path mode, "
                      "or exact mode with an area cost other than 1");
    }
    return WF_OK;
}

/// Whether any filter asks for exact paths: only then do the crowd's
/// queries carry exact mode's storage.
static bool any_exact_filter(const wf_crowd_desc* d) {
    for (uint32_t i = 0; i < d->filter_count; ++i) {
        if (d->filters[i].path_mode == WF_PATH_MODE_EXACT) {
            return true;
        }
    }
    return false;
}

wf_status wf_crowd_create(const wf_crowd_desc* desc, wf_crowd** out) {
    WF_CHECK_ARG(desc != NULL && out != NULL);
    *out = NULL;
    const wf_crowd_desc d = wf_crowd_desc_defaults(desc);
    wf_status checked = check_desc(&d);
    if (checked != WF_OK) {
        return checked;
    }
    wf_allocator allocator;
    WF_CHECK_DESC(&d.logger, "crowd", wf_allocator_resolve(&d.allocator, &allocator) == WF_OK,
                  "allocator: alloc and free must be both set or both NULL");
    desc = &d;
    wf_crowd* c = wf_alloc_zeroed(&allocator, sizeof *c, _Alignof(wf_crowd));
    if (c == NULL) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    c->allocator = allocator;
    c->logger = desc->logger;
    c->jobs = desc->jobs;
    c->mesh = desc->mesh;
    c->max_agents = desc->max_agents;
    c->max_agent_radius = desc->max_agent_radius;
    c->max_corridor = desc->max_corridor;
    c->max_neighbours = desc->max_neighbours;
    c->max_walls = desc->max_walls;
    c->quick_iterations = desc->quick_search_iterations;
    c->peek_ahead = desc->peek_ahead;
    c->max_topology = desc->max_topology_per_update;
    c->collision_iterations = desc->collision_iterations;
    c->stuck_time = desc->stuck_time;
    c->crowding_cost = desc->crowding_cost;
    c->stuck_crowding_cost = desc->stuck_crowding_cost > 0.0f ? desc->stuck_crowding_cost : 0.0f;
    c->flow_cost = desc->flow_cost > 0.0f ? desc->flow_cost : 0.0f;
    c->crowding_capacity = 16u;
    while (c->crowding_capacity < 2u * c->max_agents) {
        c->crowding_capacity *= 2u;
    }
    c->pinch_capacity = c->crowding_capacity; // at least twice max_agents: every key fits
    c->filter_count = desc->filter_count > 0 ? desc->filter_count : 1u;
    for (uint32_t i = 0; i < c->filter_count; ++i) {
        c->filters[i] = desc->filter_count > 0 ? desc->filters[i] : wf_query_filter_defaults();
    }
    c->preset_count = desc->avoidance_count > 0 ? desc->avoidance_count : 4u;
    for (uint32_t i = 0; i < c->preset_count; ++i) {
        c->presets[i] = desc->avoidance_count > 0 ? desc->avoidance[i]
                                                  : wf_avoidance_preset((wf_avoidance_quality)i);
    }
    float r = desc->max_agent_radius;
    c->search_extents = wf_v3(r * 2.0f, r * 4.0f + 1.0f, r * 2.0f);

    wf_status s = WF_ERR_OUT_OF_MEMORY;
    if (!alloc_arrays(c)) {
        goto fail;
    }
    c->agent_events = (wf_crowd_event*)c->update_scratch;
    c->pinch_table = (wf_crowd_pinch_entry*)c->update_scratch;
    c->rank = (uint32_t*)c->update_scratch;
    c->intent = (wf_vec3*)(c->rank + c->max_agents);
    c->wall_line = c->intent + c->max_agents;
    c->deep =
        (uint8_t*)(c->wall_line + c->max_agents) + wf_proximity_grid_storage_bytes(c->max_agents);
    s = wf_id_pool_create(&c->ids, &allocator, c->max_agents, WF_ID_KIND_AGENT);
    if (s == WF_OK && d.id_tag != 0) {
        s = wf_id_pool_set_tag(&c->ids, d.id_tag); // max_agents <= 1 << 24 always
    }
    if (s != WF_OK) {
        goto fail;
    }
    wf_ref_codec_init(&c->codec, c->mesh);
    // Unused ids read back as null refs.
    memset(c->corridor_ids, 0xff, sizeof(uint32_t) * c->max_agents * c->max_corridor);
    memset(c->boundary_polys, 0xff, sizeof(uint32_t) * c->max_agents * WF_LOCAL_BOUNDARY_MAX_POLYS);
    for (uint32_t i = 0; i < c->max_agents; ++i) {
        wf_corridor_init(&c->corridor[i], c->corridor_ids + (size_t)i * c->max_corridor,
                         c->max_corridor, &c->codec);
    }
    c->worker_count = wf_jobs_worker_count(&c->jobs);
    c->worker_queries = WF_ALLOC_ARRAY(&allocator, wf_query*, c->worker_count);
    c->worker_paths =
        WF_ALLOC_ARRAY(&allocator, wf_poly_ref, (size_t)c->worker_count * c->max_corridor);
    c->worker_tally = WF_ALLOC_ARRAY(&allocator, wf_crowd_worker_tally, c->worker_count);
    // The debug watch's candidates: room for the largest preset's pattern.
    c->debug_slot = WF_CROWD_NO_DEBUG;
    for (uint32_t p = 0; p < c->preset_count; ++p) {
        uint32_t m = wf_avoidance_max_candidates(&c->presets[p]);
        c->debug_record.capacity = m > c->debug_record.capacity ? m : c->debug_record.capacity;
    }
    c->debug_record.candidates =
        WF_ALLOC_ARRAY(&allocator, wf_avoidance_candidate, c->debug_record.capacity);
    // Updates decode ids from a copy of the slots' generations (2 bytes a
    // slot; a mesh of more slots is asked, as between updates).
    c->generation_capacity =
        c->codec.max_tiles <= WF_REF_CODEC_TABLE_MAX_TILES ? c->codec.max_tiles : 0u;
    c->generations = c->generation_capacity > 0
                         ? WF_ALLOC_ARRAY(&allocator, uint16_t, c->generation_capacity)
                         : NULL;
    s = WF_ERR_OUT_OF_MEMORY;
    if (c->worker_queries == NULL || c->worker_paths == NULL || c->worker_tally == NULL ||
        c->debug_record.candidates == NULL ||
        (c->generation_capacity > 0 && c->generations == NULL)) {
        goto fail;
    }
    // Exact paths need their storage in every query that searches (quick
    // searches and topology checks run on the worker queries).
    uint32_t exact_storage = any_exact_filter(desc) ? 0u : WF_QUERY_NO_EXACT;
    for (uint32_t w = 0; w < c->worker_count; ++w) {
        wf_query_desc qd = {.mesh = c->mesh,
                            .max_nodes = 1024u,
                            .exact_nodes_per_node = exact_storage,
                            .allocator = allocator};
        s = wf_query_create(&qd, &c->worker_queries[w]);
        if (s != WF_OK) {
            goto fail;
        }
    }
    wf_path_queue_desc pq = {
        .mesh = c->mesh,
        .exact_nodes_per_node = exact_storage,
        .max_agents = c->max_agents,
        .capacity = desc->max_queued_paths,
        .search_count = desc->max_searches,
        .max_nodes = desc->max_search_nodes,
        .path_capacity = c->max_corridor,
        .iterations_per_update = desc->path_iterations_per_update,
    };
    s = wf_path_queue_create(&c->queue, &allocator, &pq);
    if (s != WF_OK) {
        goto fail;
    }
    if (c->crowding_cost > 0.0f) {
        for (uint32_t w = 0; w < c->worker_count; ++w) {
            wf_query_set_cost_scale(c->worker_queries[w], wf_crowding_scale, c);
        }
        for (uint32_t k = 0; k < c->queue.search_count; ++k) {
            wf_query_set_cost_scale(c->queue.searches[k].query, wf_crowding_scale, c);
        }
    }
    // Cells of four radii (a third of the default query range): the ring
    // search usually stops after the 3 x 3 cells around an agent
    // (measured best of 2 to 8 radii on nav_test).
    s = wf_proximity_grid_create_in(&c->grid, c->wall_line + c->max_agents, c->max_agents,
                                    r * 4.0f);
    if (s != WF_OK) {
        goto fail;
    }
    s = wf_movers_create(&c->movers, &allocator, d.max_movers);
    if (s != WF_OK) {
        goto fail;
    }
    *out = c;
    return WF_OK;
fail:
    wf_crowd_destroy(c);
    return s;
}

wf_status wf_crowd_set_avoidance_kernel(wf_crowd* c, wf_avoid_kernel kernel) {
    WF_CHECK_ARG(c != NULL && !c->busy);
    WF_CHECK_ARG(kernel <= WF_AVOID_KERNEL_AVX);
    if (!wf_avoidance_kernel_available(kernel)) {
        return WF_ERR_INVALID_ARG; // this build or processor lacks it: not misuse
    }
    c->avoid_kernel = kernel;
    return WF_OK;
}

void wf_crowd_destroy(wf_crowd* c) {
    if (c == NULL) {
        return;
    }
    wf_allocator a = c->allocator;
    wf_proximity_grid_destroy(&c->grid);
    wf_movers_destroy(&c->movers, &a);
    if (c->queue.searches != NULL || c->queue.heap != NULL) {
        wf_path_queue_destroy(&c->queue);
    }
    for (uint32_t w = 0; c->worker_queries != NULL && w < c->worker_count; ++w) {
        wf_query_destroy(c->worker_queries[w]);
    }
    WF_FREE_ARRAY(&a, c->worker_queries, wf_query*, c->worker_count);
    WF_FREE_ARRAY(&a, c->worker_paths, wf_poly_ref, (size_t)c->worker_count * c->max_corridor);
    WF_FREE_ARRAY(&a, c->worker_tally, wf_crowd_worker_tally, c->worker_count);
    WF_FREE_ARRAY(&a, c->debug_record.candidates, wf_avoidance_candidate, c->debug_record.capacity);
    WF_FREE_ARRAY(&a, c->generations, uint16_t, c->generation_capacity);
    wf_id_pool_destroy(&c->ids);
    free_arrays(c);
    wf_free(&a, c, sizeof *c, _Alignof(wf_crowd));
}

wf_crowd_memory wf_crowd_get_memory(const wf_crowd* c) {
    wf_crowd_memory m = {0};
    m.crowd = sizeof *c;
    m.agent_arrays = arrays_bytes(c);
    m.ids = (size_t)c->ids.capacity * 2u * sizeof(uint32_t); // slots and free list
    m.path_queue = wf_path_queue_memory_bytes(&c->queue);
    m.grid = wf_proximity_grid_memory_bytes(&c->grid);
    m.workers = (size_t)c->worker_count * (sizeof(wf_query*) + sizeof(wf_crowd_worker_tally) +
                                           c->max_corridor * sizeof(wf_poly_ref));
    for (uint32_t w = 0; c->worker_queries != NULL && w < c->worker_count; ++w) {
        m.workers += wf_query_get_stats(c->worker_queries[w]).memory_bytes;
    }
    m.debug = (size_t)c->debug_record.capacity * sizeof(wf_avoidance_candidate);
    m.movers = wf_movers_memory_bytes(&c->movers);
    m.generations = (size_t)c->generation_capacity * sizeof(uint16_t);
    m.total = m.crowd + m.agent_arrays + m.ids + m.path_queue + m.grid + m.workers + m.debug +
              m.movers + m.generations;
    return m;
}

wf_crowd_stats wf_crowd_get_stats(const wf_crowd* c) {
    wf_crowd_stats st = {0};
    if (c == NULL) {
        return st;
    }
    st.agent_count = c->ids.live_count;
    st.max_agents = c->max_agents;
    st.paths_queued = c->queue.count;
    st.memory_bytes = wf_crowd_get_memory(c).total;
    return st;
}

/* ---------------------------------------------------------------------------
 * Agents
 */

bool wf_crowd_params_valid(const wf_crowd* c, const wf_agent_params* p) {
    return finite_positive(p->radius) && p->radius <= c->max_agent_radius &&
           finite_positive(p->height) && isfinite(p->max_speed) && p->max_speed >= 0.0f &&
           isfinite(p->max_acceleration) && p->max_acceleration >= 0.0f &&
           isfinite(p->collision_query_range) && p->collision_query_range > p->radius &&
           isfinite(p->path_optimization_range) && p->path_optimization_range >= 0.0f &&
           isfinite(p->separation_weight) && p->separation_weight >= 0.0f &&
           (p->update_flags & ~(uint32_t)WF_AGENT_ALL) == 0 &&
           p->avoidance_preset < c->preset_count && p->filter < c->filter_count;
}

/// Slot of a live agent id (status for stale, foreign and null ids).
static wf_status find_agent(const wf_crowd* c, wf_agent_id id, uint32_t* out) {
    return wf_id_pool_find(&c->ids, id.bits, out);
}

/// Slot of a live agent for a call that changes the crowd (not from inside
/// its update).
static wf_status writable_agent(const wf_crowd* c, wf_agent_id id, uint32_t* out) {
    WF_CHECK_OR(!c->busy, WF_ERR_BUSY);
    return find_agent(c, id, out);
}

/// Nearest surface point to pos for an agent using filter.
static wf_status place_on_mesh(wf_crowd* c, wf_vec3 pos, const wf_query_filter* filter,
                               wf_poly_ref* out_ref, wf_vec3* out_pos) {
    return wf_query_find_nearest_poly(c->worker_queries[0], pos, c->search_extents, filter, out_ref,
                                      out_pos);
}

/// Takes an agent out of the path queue and drops its running search.
static void drop_search(wf_crowd* c, uint32_t i) {
    wf_path_queue_remove(&c->queue, i);
    uint32_t s = wf_path_queue_search_of(&c->queue, i);
    if (s != WF_PATH_QUEUE_NONE) {
        wf_path_queue_drop_search(&c->queue, s);
    }
    c->agent_flags[i] &= ~(uint32_t)(AGENT_QUEUED | AGENT_IS_REPLAN);
}

/// Forgets an agent's request and any search for it.
static void end_request(wf_crowd* c, uint32_t i) {
    drop_search(c, i);
    c->agent_flags[i] &=
        ~(uint32_t)(AGENT_NEEDS_QUICK | AGENT_NEEDS_REPLAN | AGENT_QUEUED | AGENT_NOTIFY_RESULT |
                    AGENT_NOTIFY_BLOCKED | AGENT_NOTIFY_DONE | AGENT_IS_REPLAN | AGENT_FOLLOW |
                    AGENT_DONE_SENT | AGENT_STUCK_REPLANNED | AGENT_CONTINUE_BLOCKED |
                    AGENT_STOPPED_SHORT | AGENT_RETURNING | AGENT_BLOCK_SENT | AGENT_FREE_STEPS |
                    AGENT_SHARES_SPOT);
    memset(&c->callbacks[i], 0, sizeof c->callbacks[i]);
    c->callback_user[i] = NULL;
    c->stuck_timer[i] = 0.0f;
}

wf_status wf_crowd_add_agent(wf_crowd* c, wf_vec3 pos, const wf_agent_params* params,
                             wf_agent_id* out_id) {
    WF_CHECK_ARG(c != NULL && params != NULL && out_id != NULL);
    out_id->bits = 0;
    WF_CHECK_OR(!c->busy, WF_ERR_BUSY);
    WF_CHECK_ARG(wf_v3_is_finite(pos) && wf_crowd_params_valid(c, params));
    wf_poly_ref ref;
    wf_vec3 p;
    wf_status s = place_on_mesh(c, pos, &c->filters[params->filter], &ref, &p);
    if (s != WF_OK) {
        return s == WF_ERR_NOT_FOUND ? WF_ERR_NOT_FOUND : s;
    }
    uint64_t id;
    s = wf_id_pool_add(&c->ids, &id);
    if (s != WF_OK) {
        return s;
    }
    uint32_t i = wf_id_pool_slot_of(&c->ids, id);
    c->active[i] = 1;
    c->params[i] = *params;
    c->mode[i] = WF_AGENT_WALKING;
    c->target_state[i] = WF_TARGET_NONE;
    c->agent_flags[i] = 0;
    c->pos[i] = p;
    c->vel[i] = c->desired_vel[i] = c->avoid_vel[i] = c->displaced[i] = c->request_vel[i] =
        wf_v3(0, 0, 0);
    wf_corridor_reset(&c->corridor[i], ref, p);
    c->corridor_partial[i] = 0;
    c->target_pos[i] = p;
    c->target_ref[i] = ref;
    memset(&c->callbacks[i], 0, sizeof c->callbacks[i]);
    c->callback_user[i] = NULL;
    c->request_time[i] = 0.0;
    memset(&c->result[i], 0, sizeof c->result[i]);
    c->corner_count[i] = 0;
    c->neighbour_count[i] = 0;
    c->wall_count[i] = 0;
    c->boundary_poly_count[i] = 0;
    c->boundary_center[i] = wf_v3(INFINITY, 0, INFINITY); // collect at the first update
    c->topology_timer[i] = 0.0f;
    c->stuck_timer[i] = 0.0f;
    memset(&c->offmesh[i], 0, sizeof c->offmesh[i]);
    c->event_log[i] = 0;
    out_id->bits = id;
    return WF_OK;
}

wf_status wf_crowd_remove_agent(wf_crowd* c, wf_agent_id id) {
    WF_CHECK_ARG(c != NULL);
    uint32_t i;
    wf_status s = writable_agent(c, id, &i);
    if (s != WF_OK) {
        return s;
    }
    end_request(c, i);
    c->active[i] = 0;
    c->neighbour_count[i] = 0;
    return wf_id_pool_remove(&c->ids, id.bits);
}

wf_status wf_crowd_set_agent_params(wf_crowd* c, wf_agent_id id, const wf_agent_params* params) {
    WF_CHECK_ARG(c != NULL && params != NULL);
    uint32_t i;
    wf_status s = writable_agent(c, id, &i);
    if (s != WF_OK) {
        return s;
    }
    WF_CHECK_ARG(wf_crowd_params_valid(c, params));
    bool new_filter = params->filter != c->params[i].filter;
    c->params[i] = *params;
    if (new_filter) {
        c->boundary_center[i] = wf_v3(INFINITY, 0, INFINITY); // walls depend on the filter
    }
    return WF_OK;
}

/// Starts (or restarts) the search for an agent's target from its polygon.
static wf_status start_search(wf_crowd* c, uint32_t i) {
    if (!wf_path_queue_contains(&c->queue, i)) {
        uint32_t s = wf_path_queue_search_of(&c->queue, i);
        if (s != WF_PATH_QUEUE_NONE) {
            wf_path_queue_drop_search(&c->queue, s); // for an older request
        }
        if (!wf_path_queue_push(&c->queue, i, c->next_request_seq)) {
            return WF_ERR_CAPACITY;
        }
        c->next_request_seq++;
    }
    c->agent_flags[i] |= AGENT_QUEUED | AGENT_NEEDS_QUICK;
    c->request_time[i] = c->time;
    c->result[i].cost = 0.0f;
    return WF_OK;
}

wf_status wf_crowd_teleport_agent(wf_crowd* c, wf_agent_id id, wf_vec3 pos) {
    WF_CHECK_ARG(c != NULL);
    uint32_t i;
    wf_status s = writable_agent(c, id, &i);
    if (s != WF_OK) {
        return s;
    }
    WF_CHECK_ARG(wf_v3_is_finite(pos));
    wf_poly_ref ref;
    wf_vec3 p;
    s = place_on_mesh(c, pos, wf_crowd_filter(c, i), &ref, &p);
    if (s != WF_OK) {
        return s;
    }
    bool has_path =
        c->target_state[i] == WF_TARGET_REQUESTED || c->target_state[i] == WF_TARGET_VALID;
    if (has_path && !wf_path_queue_contains(&c->queue, i) && c->queue.count >= c->queue.capacity) {
        return WF_ERR_CAPACITY; // its path must be searched again: no room
    }
    c->pos[i] = p;
    c->vel[i] = c->desired_vel[i] = c->avoid_vel[i] = wf_v3(0, 0, 0);
    c->mode[i] = WF_AGENT_WALKING;
    wf_corridor_reset(&c->corridor[i], ref, p);
    // The game put it here: an arrived agent holds this spot now.
    if (c->target_state[i] == WF_TARGET_ARRIVED) {
        drop_search(c, i); // a search back to its old target, if any
        c->agent_flags[i] &= ~(uint32_t)(AGENT_STOPPED_SHORT | AGENT_RETURNING | AGENT_SHARES_SPOT |
                                         AGENT_NEEDS_REPLAN | AGENT_NEEDS_QUICK);
    }
    c->corner_count[i] = 0;
    c->boundary_center[i] = wf_v3(INFINITY, 0, INFINITY);
    if (has_path) {
        c->target_state[i] = WF_TARGET_REQUESTED;
        c->agent_flags[i] &= ~(uint32_t)AGENT_IS_REPLAN;
        return start_search(c, i);
    }
    return WF_OK;
}

uint32_t wf_crowd_agent_count(const wf_crowd* c) { return c != NULL ? c->ids.live_count : 0; }

uint32_t wf_crowd_get_agents(const wf_crowd* c, wf_agent_id* out, uint32_t max) {
    uint32_t n = 0;
    if (out == NULL && max > 0) {
        WF_REPORT_MISUSE("out != NULL || max == 0");
        return 0;
    }
    for (uint32_t i = 0; c != NULL && i < c->max_agents && n < max; ++i) {
        if (c->active[i]) {
            out[n++].bits = wf_id_pool_id_at(&c->ids, i);
        }
    }
    return n;
}

wf_status wf_crowd_get_agent(const wf_crowd* c, wf_agent_id id, wf_agent_state* out) {
    WF_CHECK_ARG(c != NULL && out != NULL);
    uint32_t i;
    wf_status s = find_agent(c, id, &i);
    if (s != WF_OK) {
        return s;
    }
    memset(out, 0, sizeof *out);
    out->params = c->params[i];
    out->mode = (wf_agent_mode)c->mode[i];
    out->target_state = (wf_target_state)c->target_state[i];
    out->position = c->pos[i];
    out->velocity = c->vel[i];
    out->desired_velocity = c->desired_vel[i];
    out->target = c->target_pos[i];
    out->poly = c->corridor[i].polys[0];
    out->corridor_count = c->corridor[i].count;
    out->corridor_partial = c->corridor_partial[i] != 0;
    out->corner_count = c->corner_count[i];
    memcpy(out->corners, &c->corners[(size_t)i * WF_CROWD_MAX_CORNERS],
           sizeof(wf_straight_point) * out->corner_count);
    out->neighbour_count = c->neighbour_count[i];
    out->path_wait =
        (c->agent_flags[i] & AGENT_QUEUED) ? (float)(c->time - c->request_time[i]) : 0.0f;
    out->stuck_time = c->stuck_timer[i];
    return WF_OK;
}

wf_status wf_crowd_get_corridor(const wf_crowd* c, wf_agent_id id, wf_poly_ref* out, uint32_t max,
                                uint32_t* out_count) {
    WF_CHECK_ARG(c != NULL && out_count != NULL && (out != NULL || max == 0));
    uint32_t i;
    wf_status s = find_agent(c, id, &i);
    if (s != WF_OK) {
        return s;
    }
    const wf_corridor* cor = &c->corridor[i];
    if (max > 0) {
        (void)wf_corridor_copy(cor, out, max);
    }
    *out_count = cor->count;
    return cor->count > max ? WF_ERR_CAPACITY : WF_OK;
}

/* ---------------------------------------------------------------------------
 * Movement requests
 */

wf_status wf_crowd_request_move(wf_crowd* c, wf_agent_id id, wf_vec3 target,
                                const wf_move_callbacks* callbacks, void* user) {
    WF_CHECK_ARG(c != NULL);
    uint32_t i;
    wf_status s = writable_agent(c, id, &i);
    if (s != WF_OK) {
        return s;
    }
    WF_CHECK_ARG(wf_v3_is_finite(target));
    wf_poly_ref ref;
    wf_vec3 p;
    s = place_on_mesh(c, target, wf_crowd_filter(c, i), &ref, &p);
    if (s != WF_OK) {
        return s;
    }
    if (!wf_path_queue_contains(&c->queue, i) && c->queue.count >= c->queue.capacity) {
        return WF_ERR_CAPACITY; // nothing changed: ask again after an update
    }
    bool was_queued = wf_path_queue_contains(&c->queue, i);
    uint64_t key = was_queued ? c->queue.key[i] : 0;
    end_request(c, i);
    if (was_queued) {
        // A new target keeps the old request's place in the line.
        bool ok = wf_path_queue_push(&c->queue, i, key);
        WF_ASSERT(ok);
        (void)ok;
    }
    c->target_pos[i] = p;
    c->target_ref[i] = ref;
    if (callbacks != NULL) {
        c->callbacks[i] = *callbacks;
    }
    c->callback_user[i] = user;
    c->target_state[i] = WF_TARGET_REQUESTED;
    c->corridor_partial[i] = 0;
    if (c->mode[i] == WF_AGENT_WALKING) {
        // The search starts where the agent stands; the old corridor goes.
        wf_corridor_reset(&c->corridor[i], c->corridor[i].polys[0], c->pos[i]);
    }
    s = start_search(c, i);
    WF_ASSERT(s == WF_OK);
    return s;
}

wf_status wf_crowd_retarget(wf_crowd* c, wf_agent_id id, wf_vec3 target) {
    WF_CHECK_ARG(c != NULL);
    uint32_t i;
    wf_status s = writable_agent(c, id, &i);
    if (s != WF_OK) {
        return s;
    }
    WF_CHECK_ARG(wf_v3_is_finite(target));
    uint8_t ts = c->target_state[i];
    if (ts != WF_TARGET_VALID && ts != WF_TARGET_REQUESTED && ts != WF_TARGET_ARRIVED) {
        return WF_ERR_NOT_FOUND; // no running request to move
    }
    wf_poly_ref ref;
    wf_vec3 p;
    s = place_on_mesh(c, target, wf_crowd_filter(c, i), &ref, &p);
    if (s != WF_OK) {
        return s;
    }
    wf_corridor* cor = &c->corridor[i];
    if (ts != WF_TARGET_REQUESTED && !c->corridor_partial[i] &&
        ref.bits == wf_corridor_last(cor).bits) {
        // Same last polygon: the corridor stays, only its end point moves.
        cor->target = p;
        c->target_pos[i] = p;
        c->target_ref[i] = ref;
        if (ts == WF_TARGET_ARRIVED) {
            c->target_state[i] = WF_TARGET_VALID;
        }
        c->agent_flags[i] &= ~(uint32_t)AGENT_DONE_SENT;
        return WF_OK;
    }
    wf_move_callbacks cb = c->callbacks[i];
    void* user = c->callback_user[i];
    bool follow = (c->agent_flags[i] & AGENT_FOLLOW) != 0;
    s = wf_crowd_request_move(c, id, target, &cb, user);
    if (s == WF_OK && follow) {
        c->agent_flags[i] |= AGENT_FOLLOW;
    }
    return s;
}

wf_status wf_crowd_request_velocity(wf_crowd* c, wf_agent_id id, wf_vec3 velocity) {
    WF_CHECK_ARG(c != NULL);
    uint32_t i;
    wf_status s = writable_agent(c, id, &i);
    if (s != WF_OK) {
        return s;
    }
    WF_CHECK_ARG(wf_v3_is_finite(velocity));
    end_request(c, i);
    c->request_vel[i] = wf_v3(velocity.x, 0.0f, velocity.z);
    c->target_state[i] = WF_TARGET_VELOCITY;
    if (c->mode[i] == WF_AGENT_WALKING) {
        wf_corridor_reset(&c->corridor[i], c->corridor[i].polys[0], c->pos[i]);
    }
    return WF_OK;
}

wf_status wf_crowd_cancel_move(wf_crowd* c, wf_agent_id id) {
    WF_CHECK_ARG(c != NULL);
    uint32_t i;
    wf_status s = writable_agent(c, id, &i);
    if (s != WF_OK) {
        return s;
    }
    end_request(c, i);
    c->target_state[i] = WF_TARGET_NONE;
    c->request_vel[i] = wf_v3(0, 0, 0);
    if (c->mode[i] == WF_AGENT_WALKING) {
        wf_corridor_reset(&c->corridor[i], c->corridor[i].polys[0], c->pos[i]);
    }
    return WF_OK;
}

wf_status wf_crowd_tiles_changed(wf_crowd* c, const wf_tile_ref* old_tiles, uint32_t count) {
    WF_CHECK_ARG(c != NULL && (count == 0 || old_tiles != NULL));
    WF_CHECK_OR(!c->busy, WF_ERR_BUSY);
    // A replaced tile's refs are stale already; what the list buys is that
    // whole corridors get checked, not only the polygons just ahead.
    if (count > 0) {
        c->tiles_changed = true;
    }
    return WF_OK;
}

/* ---------------------------------------------------------------------------
 * Events
 */

/// Arrivals and stops short end the same request: one of them an update
/// (arrive() in crowd_update.c sends either once per arrival).
static wf_crowd_event_kind event_class(wf_crowd_event_kind kind) {
    return kind == WF_CROWD_EVENT_STOPPED_SHORT ? WF_CROWD_EVENT_ARRIVED : kind;
}

static bool carries_link(wf_crowd_event_kind kind) {
    return kind == WF_CROWD_EVENT_OFFMESH_START || kind == WF_CROWD_EVENT_OFFMESH_END;
}

void wf_crowd_push_event(wf_crowd* c, uint32_t i, wf_crowd_event_kind kind, wf_poly_ref ref) {
    uint32_t log = c->event_log[i];
    uint32_t k = 0;
    for (; k < WF_CROWD_EVENTS_PER_AGENT && ((log >> (3u * k)) & 7u) != 0; ++k) {
        wf_crowd_event_kind sent = (wf_crowd_event_kind)(((log >> (3u * k)) & 7u) - 1u);
        if (event_class(sent) == event_class(kind)) {
            return; // each kind once per update: the list can never be cut
        }
    }
    WF_ASSERT(k < WF_CROWD_EVENTS_PER_AGENT);
    if (k >= WF_CROWD_EVENTS_PER_AGENT) {
        return;
    }
    // Only off-mesh events carry a ref, and both name the one link: a
    // traversal starts (after steering) before it can end (surface pass).
    WF_ASSERT(carries_link(kind) || ref.bits == 0);
    if (carries_link(kind)) {
        bool linked = false;
        for (uint32_t m = 0; m < k; ++m) {
            linked |= carries_link((wf_crowd_event_kind)(((log >> (3u * m)) & 7u) - 1u));
        }
        WF_ASSERT(!linked || c->event_link[i].bits == ref.bits);
        (void)linked;
        c->event_link[i] = ref;
    }
    c->event_log[i] = log | ((uint32_t)kind + 1u) << (3u * k);
}

uint32_t wf_crowd_list_events_of(wf_crowd* c, uint32_t i, uint32_t count) {
    uint32_t log = c->event_log[i];
    c->event_log[i] = 0; // empty for the next update (zeroed at create, add and load)
    wf_agent_id id = {wf_id_pool_id_at(&c->ids, i)};
    for (; log != 0; log >>= 3u) {
        wf_crowd_event_kind kind = (wf_crowd_event_kind)((log & 7u) - 1u);
        c->agent_events[count++] = (wf_crowd_event){
            .agent = id,
            .kind = kind,
            .ref = carries_link(kind) ? c->event_link[i] : (wf_poly_ref){0},
        };
    }
    return count;
}

const wf_crowd_event* wf_crowd_events(const wf_crowd* c, uint32_t* out_count) {
    if (out_count != NULL) {
        *out_count = c != NULL ? c->event_count : 0;
    }
    return c != NULL ? c->agent_events : NULL;
}
