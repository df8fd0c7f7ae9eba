// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The flat C API that web/wayfarer.js wraps (WebAssembly build only). Every
// call takes plain numbers and pointers into the module's memory: ids are
// 64-bit integers (BigInt in JS), vectors are float triples, results come
// back through out-pointers the JS side allocates once. The world here is
// the library's wf_world plus one query and the scratch the queries below
// use, all sized at creation.
//
// Callbacks: a move request carries a 32-bit token of the JS side as its
// user pointer; the C callbacks call the imported wfjs_on_* functions with
// it, on the stepping thread, during wf_world_step (so JS code in them
// must not call back into the world: the library answers WF_ERR_BUSY).
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wayfarer/wayfarer.h"

#define WFJS_EXPORT __attribute__((used, visibility("default")))
#define WFJS_IMPORT(name) __attribute__((import_module("env"), import_name(#name)))

WFJS_IMPORT(wfjs_on_result)
int32_t wfjs_on_result(uint32_t token, uint64_t agent, uint32_t corridor_count, int32_t partial,
                       float cost, float wait);
WFJS_IMPORT(wfjs_on_blocked) int32_t wfjs_on_blocked(uint32_t token, uint64_t agent);
WFJS_IMPORT(wfjs_on_done) int32_t wfjs_on_done(uint32_t token, uint64_t agent);
WFJS_IMPORT(wfjs_log) void wfjs_log(int32_t level, const char* message);

/// Polygons a path query may return, and corners of its straight path.
#define WFJS_MAX_PATH 1024u
#define WFJS_MAX_POINTS 256u

typedef struct wfjs_world {
    wf_world* world;
    wf_query* query;
    wf_query_filter filter;
    wf_rng rng;
    wf_world_report report;
    wf_poly_ref path[WFJS_MAX_PATH];
    wf_straight_point points[WFJS_MAX_POINTS];
} wfjs_world;

static void log_to_js(wf_log_level level, const char* message, void* user) {
    (void)user;
    wfjs_log((int32_t)level, message);
}

static wf_vec3 v3(float x, float y, float z) { return (wf_vec3){x, y, z}; }

static void put3(float* out, wf_vec3 v) {
    out[0] = v.x;
    out[1] = v.y;
    out[2] = v.z;
}

/* ---------------------------------------------------------------------------
 * Memory and strings
 */

WFJS_EXPORT void* wfjs_alloc(size_t size) { return malloc(size ? size : 1); }
WFJS_EXPORT void wfjs_free(void* p) { free(p); }
WFJS_EXPORT const char* wfjs_status_string(int32_t status) {
    return wf_status_string((wf_status)status);
}
WFJS_EXPORT const char* wfjs_version(void) { return WF_VERSION_STRING; }

/* ---------------------------------------------------------------------------
 * World
 */

/// Tile cache params as 12 floats, in wf_tilecache_params order:
/// cell_size, cell_height, agent_height, agent_radius, agent_climb,
/// agent_max_slope, tile_size, min_region_area, merge_region_area,
/// max_edge_length, max_simplification_error, max_verts_per_poly.
#define WFJS_PARAM_COUNT 12
WFJS_EXPORT void wfjs_params_defaults(float* out) {
    wf_tilecache_params p = wf_tilecache_params_recast_demo();
    const float v[WFJS_PARAM_COUNT] = {p.cell_size,
                                       p.cell_height,
                                       p.agent_height,
                                       p.agent_radius,
                                       p.agent_climb,
                                       p.agent_max_slope,
                                       (float)p.tile_size,
                                       (float)p.min_region_area,
                                       (float)p.merge_region_area,
                                       p.max_edge_length,
                                       p.max_simplification_error,
                                       (float)p.max_verts_per_poly};
    memcpy(out, v, sizeof v);
}

static wf_tilecache_params params_from(const float* v) {
    wf_tilecache_params p = wf_tilecache_params_recast_demo();
    p.cell_size = v[0];
    p.cell_height = v[1];
    p.agent_height = v[2];
    p.agent_radius = v[3];
    p.agent_climb = v[4];
    p.agent_max_slope = v[5];
    p.tile_size = (uint32_t)v[6];
    p.min_region_area = (uint32_t)v[7];
    p.merge_region_area = (uint32_t)v[8];
    p.max_edge_length = v[9];
    p.max_simplification_error = v[10];
    p.max_verts_per_poly = (uint32_t)v[11];
    return p;
}

/// A world from a cache file (cache, cache_size), OBJ text (obj, obj_size)
/// or triangles (verts, tris); exactly one. params: 12 floats or NULL (the
/// Recast demo's); ignored for a cache. One worker: no thread is started.
WFJS_EXPORT int32_t wfjs_world_create(const void* cache, size_t cache_size, const char* obj,
                                      size_t obj_size, const float* verts, uint32_t vert_count,
                                      const uint32_t* tris, uint32_t tri_count, const float* params,
                                      uint32_t max_agents, uint32_t max_obstacles,
                                      wfjs_world** out) {
    if (out == NULL) {
        return WF_ERR_INVALID_ARG;
    }
    *out = NULL;
    const wf_logger logger = {.log = log_to_js};
    wf_geom_data* loaded = NULL;
    wf_geom geom;
    memset(&geom, 0, sizeof geom);
    wf_status s = WF_OK;
    if (obj != NULL) {
        s = wf_geom_load_obj(obj, obj_size, &(wf_geom_load_desc){.logger = logger}, &loaded);
        if (s != WF_OK) {
            return s;
        }
        geom = wf_geom_data_view(loaded);
    } else if (verts != NULL) {
        geom = (wf_geom){
            .verts = verts, .vert_count = vert_count, .tris = tris, .tri_count = tri_count};
    }
    wfjs_world* w = calloc(1, sizeof *w);
    if (w == NULL) {
        wf_geom_data_destroy(loaded);
        return WF_ERR_OUT_OF_MEMORY;
    }
    wf_world_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.cache_data = cache;
    desc.cache_size = cache_size;
    desc.geom = (obj != NULL || verts != NULL) ? &geom : NULL;
    if (desc.geom != NULL) {
        desc.params = params != NULL ? params_from(params) : wf_tilecache_params_recast_demo();
    }
    desc.worker_count = 1;
    desc.max_obstacles = max_obstacles;
    desc.crowd.max_agents = max_agents;
    desc.logger = logger;
    s = wf_world_create(&desc, &w->world);
    wf_geom_data_destroy(loaded);
    if (s == WF_OK) {
        wf_query_desc qd = {.mesh = wf_world_mesh(w->world), .max_nodes = 4096, .logger = logger};
        s = wf_query_create(&qd, &w->query);
    }
    if (s != WF_OK) {
        wf_world_destroy(w->world);
        free(w);
        return s;
    }
    w->filter = wf_query_filter_defaults();
    w->rng = wf_rng_make(2026u, 7u);
    *out = w;
    return WF_OK;
}

WFJS_EXPORT void wfjs_world_destroy(wfjs_world* w) {
    if (w != NULL) {
        wf_query_destroy(w->query);
        wf_world_destroy(w->world);
        free(w);
    }
}

/// The tile cache as a cache file: size first (out_size), then the bytes.
WFJS_EXPORT int32_t wfjs_world_cache_size(wfjs_world* w, size_t* out_size) {
    return wf_tilecache_save_size(wf_world_tilecache(w->world), out_size);
}
WFJS_EXPORT int32_t wfjs_world_cache_save(wfjs_world* w, void* out, size_t size) {
    return wf_tilecache_save(wf_world_tilecache(w->world), out, size);
}

/// One frame. The report is kept for wfjs_world_report / _changed_tiles.
WFJS_EXPORT int32_t wfjs_world_step(wfjs_world* w, float dt, uint32_t tile_time_us,
                                    uint32_t tile_commits) {
    wf_world_budget budget = {.tile_time_us = tile_time_us, .tile_commits = tile_commits};
    return wf_world_step(w->world, dt, &budget, &w->report);
}

/// The last step's report as 16 doubles: frame, total_us, tiles_us,
/// crowd_us, up_to_date, requests_applied, layers_rebuilt, tiles_committed,
/// builds_in_flight, layers_pending, changed_count, paths_completed,
/// path_iterations, paths_queued, replans, lost_agents.
WFJS_EXPORT void wfjs_world_report(const wfjs_world* w, double* out) {
    const wf_world_report* r = &w->report;
    const double v[16] = {(double)r->frame,
                          r->total_us,
                          r->tiles_us,
                          r->crowd_us,
                          r->tiles.up_to_date,
                          r->tiles.requests_applied,
                          r->tiles.layers_rebuilt,
                          r->tiles.tiles_committed,
                          r->tiles.builds_in_flight,
                          r->tiles.layers_pending,
                          r->tiles.changed_count,
                          r->crowd.paths_completed,
                          r->crowd.path_iterations,
                          r->crowd.paths_queued,
                          r->crowd.replans,
                          r->crowd.lost_agents};
    memcpy(out, v, sizeof v);
}

/// Tiles the last step changed: (tile_x, tile_z, layer) per tile, up to max;
/// returns how many there are.
WFJS_EXPORT uint32_t wfjs_world_changed_tiles(const wfjs_world* w, int32_t* out, uint32_t max) {
    const wf_tilecache_update_result* t = &w->report.tiles;
    for (uint32_t i = 0; i < t->changed_count && i < max; ++i) {
        out[3 * i] = t->changed[i].tile_x;
        out[3 * i + 1] = t->changed[i].tile_z;
        out[3 * i + 2] = t->changed[i].layer;
    }
    return t->changed_count;
}

/// The crowd's events of the last step: (agent, kind) pairs as 64-bit
/// words, up to max; returns how many there are.
WFJS_EXPORT uint32_t wfjs_world_events(wfjs_world* w, uint64_t* out, uint32_t max) {
    uint32_t n = 0;
    const wf_crowd_event* e = wf_crowd_events(wf_world_crowd(w->world), &n);
    for (uint32_t i = 0; i < n && i < max; ++i) {
        out[2 * i] = e[i].agent.bits;
        out[2 * i + 1] = (uint64_t)e[i].kind;
    }
    return n;
}

/// memory_bytes, agent_count, obstacle_count, tile_count, poly_count.
WFJS_EXPORT void wfjs_world_stats(wfjs_world* w, double* out) {
    wf_mesh_stats ms = wf_mesh_get_stats(wf_world_mesh(w->world));
    out[0] = (double)wf_world_get_stats(w->world).memory_bytes;
    out[1] = wf_crowd_agent_count(wf_world_crowd(w->world));
    out[2] = wf_tilecache_obstacle_count(wf_world_tilecache(w->world));
    out[3] = ms.tile_count;
    out[4] = ms.poly_count;
}

/* ---------------------------------------------------------------------------
 * Agents
 */

/// Agent params as 11 floats: radius, height, max_speed, max_acceleration,
/// collision_query_range, path_optimization_range, separation_weight,
/// update_flags, avoidance_preset, filter, priority.
#define WFJS_AGENT_PARAM_COUNT 11
WFJS_EXPORT void wfjs_agent_params_defaults(float* out) {
    wf_agent_params p = wf_agent_params_defaults();
    const float v[WFJS_AGENT_PARAM_COUNT] = {p.radius,
                                             p.height,
                                             p.max_speed,
                                             p.max_acceleration,
                                             p.collision_query_range,
                                             p.path_optimization_range,
                                             p.separation_weight,
                                             (float)p.update_flags,
                                             (float)p.avoidance_preset,
                                             (float)p.filter,
                                             (float)p.priority};
    memcpy(out, v, sizeof v);
}

// NaN or out-of-range counts are left for the library to refuse: a float
// that does not fit the byte fields becomes 255 (an index no crowd has).
static uint8_t to_u8(float f) { return f >= 0.0f && f <= 255.0f ? (uint8_t)f : 255u; }

static wf_agent_params agent_params_from(const float* v) {
    wf_agent_params p = wf_agent_params_defaults();
    p.radius = v[0];
    p.height = v[1];
    p.max_speed = v[2];
    p.max_acceleration = v[3];
    p.collision_query_range = v[4];
    p.path_optimization_range = v[5];
    p.separation_weight = v[6];
    p.update_flags = v[7] >= 0.0f && v[7] < 4294967296.0f ? (uint32_t)v[7] : 0xffffffffu;
    p.avoidance_preset = to_u8(v[8]);
    p.filter = to_u8(v[9]);
    p.priority = to_u8(v[10]);
    return p;
}

WFJS_EXPORT int32_t wfjs_agent_add(wfjs_world* w, float x, float y, float z, const float* params,
                                   uint64_t* out_id) {
    wf_agent_params p = params != NULL ? agent_params_from(params) : wf_agent_params_defaults();
    wf_agent_id id = {0};
    wf_status s = wf_crowd_add_agent(wf_world_crowd(w->world), v3(x, y, z), &p, &id);
    *out_id = id.bits;
    return s;
}

WFJS_EXPORT int32_t wfjs_agent_set_params(wfjs_world* w, uint64_t id, const float* params) {
    wf_agent_params p = agent_params_from(params);
    return wf_crowd_set_agent_params(wf_world_crowd(w->world), (wf_agent_id){id}, &p);
}

WFJS_EXPORT int32_t wfjs_agent_remove(wfjs_world* w, uint64_t id) {
    return wf_crowd_remove_agent(wf_world_crowd(w->world), (wf_agent_id){id});
}

WFJS_EXPORT int32_t wfjs_agent_teleport(wfjs_world* w, uint64_t id, float x, float y, float z) {
    return wf_crowd_teleport_agent(wf_world_crowd(w->world), (wf_agent_id){id}, v3(x, y, z));
}

static bool on_result(wf_agent_id agent, const wf_path_info* info, void* user) {
    return wfjs_on_result((uint32_t)(uintptr_t)user, agent.bits, info->corridor_count,
                          info->partial, info->cost, info->wait) != 0;
}
static bool on_blocked(wf_agent_id agent, void* user) {
    return wfjs_on_blocked((uint32_t)(uintptr_t)user, agent.bits) != 0;
}
static bool on_done(wf_agent_id agent, void* user) {
    return wfjs_on_done((uint32_t)(uintptr_t)user, agent.bits) != 0;
}

/// token 0: no callbacks; else the JS side's key for them (each callback
/// the JS side did not give answers its default).
WFJS_EXPORT int32_t wfjs_agent_request_move(wfjs_world* w, uint64_t id, float x, float y, float z,
                                            uint32_t token) {
    static const wf_move_callbacks callbacks = {
        .result = on_result, .blocked = on_blocked, .done = on_done};
    return wf_crowd_request_move(wf_world_crowd(w->world), (wf_agent_id){id}, v3(x, y, z),
                                 token != 0 ? &callbacks : NULL, (void*)(uintptr_t)token);
}

WFJS_EXPORT int32_t wfjs_agent_retarget(wfjs_world* w, uint64_t id, float x, float y, float z) {
    return wf_crowd_retarget(wf_world_crowd(w->world), (wf_agent_id){id}, v3(x, y, z));
}

WFJS_EXPORT int32_t wfjs_agent_request_velocity(wfjs_world* w, uint64_t id, float x, float y,
                                                float z) {
    return wf_crowd_request_velocity(wf_world_crowd(w->world), (wf_agent_id){id}, v3(x, y, z));
}

WFJS_EXPORT int32_t wfjs_agent_cancel_move(wfjs_world* w, uint64_t id) {
    return wf_crowd_cancel_move(wf_world_crowd(w->world), (wf_agent_id){id});
}

/// An agent's state as 32 floats: position, velocity, desired velocity,
/// target (3 each), mode, target_state, corridor_count, corridor_partial,
/// corner_count, neighbour_count, path_wait, stuck_time, then 4 corners
/// (3 each); *out_poly gets the polygon it stands on.
#define WFJS_AGENT_STATE_COUNT 32
WFJS_EXPORT int32_t wfjs_agent_get(wfjs_world* w, uint64_t id, float* out, uint64_t* out_poly) {
    wf_agent_state st;
    wf_status s = wf_crowd_get_agent(wf_world_crowd(w->world), (wf_agent_id){id}, &st);
    if (s != WF_OK) {
        return s;
    }
    memset(out, 0, sizeof(float) * WFJS_AGENT_STATE_COUNT);
    put3(out, st.position);
    put3(out + 3, st.velocity);
    put3(out + 6, st.desired_velocity);
    put3(out + 9, st.target);
    out[12] = (float)st.mode;
    out[13] = (float)st.target_state;
    out[14] = (float)st.corridor_count;
    out[15] = st.corridor_partial ? 1.0f : 0.0f;
    out[16] = (float)st.corner_count;
    out[17] = (float)st.neighbour_count;
    out[18] = st.path_wait;
    out[19] = st.stuck_time;
    for (uint32_t i = 0; i < st.corner_count && i < WF_CROWD_MAX_CORNERS; ++i) {
        put3(out + 20 + 3 * i, st.corners[i].pos);
    }
    *out_poly = st.poly.bits;
    return WF_OK;
}

/// The agent's corridor polygons, up to max; *out_count the full count.
WFJS_EXPORT int32_t wfjs_agent_corridor(wfjs_world* w, uint64_t id, uint64_t* out, uint32_t max,
                                        uint32_t* out_count) {
    // The crowd copies corridors out (it keeps them in 32 bits); the
    // first 4,096 polygons come back at most.
    static wf_poly_ref refs[4096];
    uint32_t m = max < 4096u ? max : 4096u;
    wf_status s =
        wf_crowd_get_corridor(wf_world_crowd(w->world), (wf_agent_id){id}, refs, m, out_count);
    if (s != WF_OK && s != WF_ERR_CAPACITY) {
        return s;
    }
    for (uint32_t i = 0; i < *out_count && i < m; ++i) {
        out[i] = refs[i].bits;
    }
    return *out_count > max ? WF_ERR_CAPACITY : WF_OK;
}

/// Every live agent for drawing: ids (up to max) and per agent 8 floats:
/// position, velocity, radius, target_state. Returns the agent count.
WFJS_EXPORT uint32_t wfjs_agents_snapshot(wfjs_world* w, uint64_t* ids, float* out, uint32_t max) {
    const wf_crowd* crowd = wf_world_crowd(w->world);
    uint32_t n = wf_crowd_get_agents(crowd, (wf_agent_id*)ids, max);
    for (uint32_t i = 0; i < n; ++i) {
        wf_agent_state st;
        if (wf_crowd_get_agent(crowd, (wf_agent_id){ids[i]}, &st) != WF_OK) {
            memset(out + 8 * i, 0, 8 * sizeof(float));
            continue;
        }
        put3(out + 8 * i, st.position);
        put3(out + 8 * i + 3, st.velocity);
        out[8 * i + 6] = st.params.radius;
        out[8 * i + 7] = (float)st.target_state;
    }
    return wf_crowd_agent_count(crowd);
}

/// Debug: the agent's neighbours of the last step, nearest first.
WFJS_EXPORT int32_t wfjs_agent_neighbours(wfjs_world* w, uint64_t id, uint64_t* out, uint32_t max,
                                          uint32_t* out_count) {
    return wf_crowd_get_agent_neighbours(wf_world_crowd(w->world), (wf_agent_id){id},
                                         (wf_agent_id*)out, max, out_count);
}

/// Debug: watch one agent's avoidance (0 stops watching).
WFJS_EXPORT int32_t wfjs_set_debug_agent(wfjs_world* w, uint64_t id) {
    return wf_crowd_set_debug_agent(wf_world_crowd(w->world), (wf_agent_id){id});
}

/// Debug: the watched agent's last avoidance. info: sampled, desired (3),
/// chosen (3); candidates: (vx, vz, score) per candidate, up to max.
WFJS_EXPORT int32_t wfjs_avoidance_debug(wfjs_world* w, uint64_t* out_agent, float* info,
                                         float* out, uint32_t max, uint32_t* out_count) {
    wf_avoidance_debug d;
    wf_avoidance_candidate c[64];
    uint32_t n = 0;
    wf_status s =
        wf_crowd_get_avoidance_debug(wf_world_crowd(w->world), &d, c, max < 64u ? max : 64u, &n);
    if (s != WF_OK && s != WF_ERR_CAPACITY) {
        return s;
    }
    *out_agent = d.agent.bits;
    info[0] = d.sampled ? 1.0f : 0.0f;
    put3(info + 1, d.desired_velocity);
    put3(info + 4, d.chosen_velocity);
    for (uint32_t i = 0; i < n && i < max && i < 64u; ++i) {
        out[3 * i] = c[i].velocity.x;
        out[3 * i + 1] = c[i].velocity.z;
        out[3 * i + 2] = c[i].score;
    }
    *out_count = n;
    return s;
}

/* ---------------------------------------------------------------------------
 * Obstacles
 */

/// shape (wf_obstacle_shape: cylinder, box, oriented box), position, radius
/// and height (cylinder), half extents and yaw (boxes); paint with area.
WFJS_EXPORT int32_t wfjs_obstacle_add(wfjs_world* w, int32_t shape, float x, float y, float z,
                                      float radius, float height, float hx, float hy, float hz,
                                      float yaw, int32_t paint, int32_t area, uint64_t* out_id) {
    wf_obstacle_desc d;
    memset(&d, 0, sizeof d);
    d.shape = (wf_obstacle_shape)shape;
    d.position = v3(x, y, z);
    d.radius = radius;
    d.height = height;
    d.half_extents = v3(hx, hy, hz);
    d.yaw = yaw;
    d.paint = paint != 0;
    d.area = area >= 0 && area <= 255 ? (uint8_t)area : 255u;
    wf_obstacle_id id = {0};
    wf_status s = wf_tilecache_add_obstacle(wf_world_tilecache(w->world), &d, &id);
    *out_id = id.bits;
    return s;
}

WFJS_EXPORT int32_t wfjs_obstacle_remove(wfjs_world* w, uint64_t id) {
    return wf_tilecache_remove_obstacle(wf_world_tilecache(w->world), (wf_obstacle_id){id});
}

/// Debug: live obstacle ids up to max; returns the live count.
WFJS_EXPORT uint32_t wfjs_obstacles(wfjs_world* w, uint64_t* out, uint32_t max) {
    return wf_tilecache_get_obstacles(wf_world_tilecache(w->world), (wf_obstacle_id*)out, max);
}

/// An obstacle's desc as 12 floats: shape, paint, area, position (3),
/// radius, height, half extents (3), yaw.
WFJS_EXPORT int32_t wfjs_obstacle_get(wfjs_world* w, uint64_t id, float* out) {
    wf_obstacle_desc d;
    wf_status s = wf_tilecache_get_obstacle(wf_world_tilecache(w->world), (wf_obstacle_id){id}, &d);
    if (s != WF_OK) {
        return s;
    }
    out[0] = (float)d.shape;
    out[1] = d.paint ? 1.0f : 0.0f;
    out[2] = (float)d.area;
    put3(out + 3, d.position);
    out[6] = d.radius;
    out[7] = d.height;
    put3(out + 8, d.half_extents);
    out[11] = d.yaw;
    return WF_OK;
}

/* ---------------------------------------------------------------------------
 * Path queries (the default filter; search box half extents 2, 4, 2 m)
 */

static const wf_vec3 search_extents = {2.0f, 4.0f, 2.0f};

/// Nearest navmesh point: *out_poly and out (3 floats).
WFJS_EXPORT int32_t wfjs_find_nearest(wfjs_world* w, float x, float y, float z, float* out,
                                      uint64_t* out_poly) {
    wf_poly_ref ref = {0};
    wf_vec3 p;
    wf_status s =
        wf_query_find_nearest_poly(w->query, v3(x, y, z), search_extents, &w->filter, &ref, &p);
    if (s == WF_OK) {
        put3(out, p);
        *out_poly = ref.bits;
    }
    return s;
}

/// A path between two points: corners (3 floats each, up to max_points)
/// and corridor polygons (up to max_polys). out_info: point count, poly
/// count, path flags (wf_path_flags), cost. WF_OK or WF_PARTIAL.
WFJS_EXPORT int32_t wfjs_find_path(wfjs_world* w, float sx, float sy, float sz, float ex, float ey,
                                   float ez, float* out_points, uint32_t max_points,
                                   uint64_t* out_polys, uint32_t max_polys, float* out_info) {
    wf_poly_ref a, b;
    wf_vec3 pa, pb;
    wf_status s =
        wf_query_find_nearest_poly(w->query, v3(sx, sy, sz), search_extents, &w->filter, &a, &pa);
    if (s == WF_OK) {
        s = wf_query_find_nearest_poly(w->query, v3(ex, ey, ez), search_extents, &w->filter, &b,
                                       &pb);
    }
    if (s != WF_OK) {
        return s;
    }
    wf_path_result pr;
    s = wf_query_find_path(w->query, a, b, pa, pb, &w->filter, w->path, WFJS_MAX_PATH, &pr);
    if (!wf_succeeded(s)) {
        return s;
    }
    uint32_t n = 0;
    uint32_t cap = max_points < WFJS_MAX_POINTS ? max_points : WFJS_MAX_POINTS;
    if ((pr.flags & WF_PATH_PARTIAL) != 0 && pr.count > 0) {
        // The path ends in the reached polygon nearest the goal: pull it to
        // the point of that polygon nearest the goal.
        wf_status c =
            wf_query_closest_point_on_poly(w->query, w->path[pr.count - 1], pb, &pb, NULL);
        if (c != WF_OK) {
            return c;
        }
    }
    wf_status ss =
        wf_query_find_straight_path(w->query, pa, pb, w->path, pr.count, w->points, cap, 0, &n);
    if (!wf_succeeded(ss)) {
        return ss;
    }
    for (uint32_t i = 0; i < n; ++i) {
        put3(out_points + 3 * i, w->points[i].pos);
    }
    for (uint32_t i = 0; i < pr.count && i < max_polys; ++i) {
        out_polys[i] = w->path[i].bits;
    }
    out_info[0] = (float)n;
    out_info[1] = (float)pr.count;
    out_info[2] = (float)pr.flags;
    out_info[3] = pr.cost;
    return s == WF_OK && ss == WF_OK ? WF_OK : WF_PARTIAL;
}

/// A random navmesh point (the world's own seeded generator: the same
/// sequence for the same calls).
WFJS_EXPORT int32_t wfjs_find_random_point(wfjs_world* w, float* out) {
    wf_poly_ref ref;
    wf_vec3 p;
    wf_status s = wf_query_find_random_point(w->query, &w->filter, &w->rng, &ref, &p);
    if (s == WF_OK) {
        put3(out, p);
    }
    return s;
}

WFJS_EXPORT void wfjs_seed_random(wfjs_world* w, uint32_t seed, uint32_t stream) {
    w->rng = wf_rng_make(seed, stream);
}

/* ---------------------------------------------------------------------------
 * Debug draw: the navmesh
 */

/// Live tile refs up to max; returns the tile count.
WFJS_EXPORT uint32_t wfjs_mesh_tiles(wfjs_world* w, uint64_t* out, uint32_t max) {
    return wf_mesh_get_tiles(wf_world_mesh(w->world), (wf_tile_ref*)out, max);
}

/// tile_x, tile_z, layer, poly_count.
WFJS_EXPORT int32_t wfjs_tile_info(wfjs_world* w, uint64_t tile, int32_t* out) {
    wf_tile_info info;
    wf_status s = wf_mesh_get_tile_info(wf_world_mesh(w->world), (wf_tile_ref){tile}, &info);
    if (s == WF_OK) {
        out[0] = info.tile_x;
        out[1] = info.tile_z;
        out[2] = info.layer;
        out[3] = (int32_t)info.poly_count;
    }
    return s;
}

/// A tile's ground polygons for drawing: per polygon its vertex count then
/// its vertices (3 floats each), then its edges (7 floats each: start,
/// end, wf_poly_edge_kind). Writes up to max floats; returns the floats the
/// whole tile needs (call again with more room when it is larger), or a
/// negative status.
WFJS_EXPORT int32_t wfjs_tile_geometry(wfjs_world* w, uint64_t tile, float* out, uint32_t max) {
    const wf_mesh* mesh = wf_world_mesh(w->world);
    wf_tile_info info;
    wf_status s = wf_mesh_get_tile_info(mesh, (wf_tile_ref){tile}, &info);
    if (s != WF_OK) {
        return s;
    }
    uint32_t used = 0;
    for (uint32_t i = 0; i < info.poly_count; ++i) {
        wf_poly_ref ref = wf_mesh_poly_ref(mesh, (wf_tile_ref){tile}, i);
        wf_poly_outline outline;
        wf_poly_edge edges[WF_MAX_VERTS_PER_POLY];
        uint32_t edge_count = 0;
        s = wf_mesh_get_poly_outline(mesh, ref, &outline);
        if (s == WF_OK) {
            s = wf_mesh_get_poly_edges(mesh, ref, edges, WF_MAX_VERTS_PER_POLY, &edge_count);
        }
        if (s != WF_OK) {
            return s;
        }
        uint32_t need = 1 + 3 * outline.vert_count + 7 * edge_count;
        if (used + need <= max) {
            float* o = out + used;
            *o++ = (float)outline.vert_count;
            for (uint32_t k = 0; k < outline.vert_count; ++k, o += 3) {
                put3(o, outline.verts[k]);
            }
            for (uint32_t k = 0; k < edge_count; ++k, o += 7) {
                put3(o, edges[k].start);
                put3(o + 3, edges[k].end);
                o[6] = (float)edges[k].kind;
            }
        }
        used += need;
    }
    return (int32_t)used;
}
