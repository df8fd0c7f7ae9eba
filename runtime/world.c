// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The world: jobs and, per agent class, a tile cache, a navmesh and a
// crowd built from one level; creation, the parts and the classes' agents.
#include "wayfarer/world.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "navcore/alloc.h"
#include "navcore/check.h"
#include "navcore/log.h"
#include "runtime/world_internal.h"

/* ---------------------------------------------------------------------------
 * Parts
 */

static wf_status make_mesh(wf_world* w, wf_tilecache* tc, wf_mesh** out) {
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    md.allocator = w->allocator;
    wf_status s = wf_mesh_create(&md, out);
    if (s != WF_OK) {
        return s;
    }
    s = wf_tilecache_build_navmesh(tc, *out);
    if (s < 0) {
        wf_mesh_destroy(*out);
        *out = NULL;
        return s;
    }
    return WF_OK;
}

/// Room for one changed tile per layer (an update never changes more).
wf_status wf_world_size_changed(wf_world* w, const wf_tilecache* tc) {
    uint32_t need = wf_tilecache_layer_count(tc);
    need = need > 0 ? need : 1u;
    if (need <= w->changed_capacity) {
        return WF_OK;
    }
    wf_tile_ref* grown = WF_ALLOC_ARRAY(&w->allocator, wf_tile_ref, need);
    if (grown == NULL) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    WF_FREE_ARRAY(&w->allocator, w->changed, wf_tile_ref, w->changed_capacity);
    w->changed = grown;
    w->changed_capacity = need;
    return WF_OK;
}

wf_status wf_world_forward_changes(wf_world* w, uint32_t c, const wf_tilecache_update_result* r) {
    uint32_t n = 0;
    for (uint32_t k = 0; k < r->changed_count && n < w->changed_capacity; ++k) {
        if (r->changed[k].old_tile.bits != 0) {
            w->changed[n++] = r->changed[k].old_tile;
        }
    }
    return n > 0 ? wf_crowd_tiles_changed(w->classes[c].crowd, w->changed, n) : WF_OK;
}

void wf_world_destroy_parts(wf_crowd* crowd, wf_mesh* mesh, wf_tilecache* tc) {
    // The crowd reads the mesh; the mesh holds tiles in the cache's memory.
    wf_crowd_destroy(crowd);
    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(tc);
}

wf_world_desc wf_world_desc_defaults(const wf_world_desc* desc) {
    wf_world_desc d;
    memset(&d, 0, sizeof d);
    if (desc != NULL) {
        d = *desc;
    }
    if (d.jobs.enqueue == NULL && d.worker_count == 0) {
        d.worker_count = wf_thread_pool_desc_defaults(NULL).thread_count + 1u;
    }
    if (d.cache_data == NULL && d.params.cell_size == 0.0f && d.params.tile_size == 0) {
        d.params = wf_tilecache_params_recast_demo();
    }
    if (d.crowd.max_agents == 0) {
        d.crowd.max_agents = 1000;
    }
    d.crowd = wf_crowd_desc_defaults(&d.crowd);
    return d;
}

/* ---------------------------------------------------------------------------
 * Classes: what each is made from
 */

/// One class as the create call resolves it before building anything.
typedef struct class_plan {
    char name[WF_WORLD_CLASS_NAME_MAX + 1];
    float radius, height, climb; ///< the desc's (0 = the level's)
    uint32_t max_agents;
    const void* cache_data; ///< its tile cache file, or NULL: built from geom
    size_t cache_size;
    const wf_world_cache_class* table; ///< its row of a multi-class file, or NULL
} class_plan;

static bool size_ok(float v) { return isfinite(v) && v >= 0.0f; }

/// Checks the class descs and picks each class's level: the geometry, the
/// plain cache file, or a class of a multi-class file.
static wf_status plan_classes(const wf_world_desc* desc, wf_world_cache_class* file,
                              class_plan* plans, uint32_t* out_count) {
    const wf_logger* log = &desc->logger;
    WF_CHECK_DESC(log, "world", desc->class_count <= WF_WORLD_MAX_CLASSES,
                  "class_count is above WF_WORLD_MAX_CLASSES (8)");
    WF_CHECK_DESC(log, "world", desc->class_count == 0 || desc->classes != NULL,
                  "classes is NULL with class_count set");
    uint32_t file_count = 0;
    if (desc->cache_data != NULL) {
        wf_status s = wf_world_cache_get_classes(desc->cache_data, desc->cache_size, file,
                                                 WF_WORLD_MAX_CLASSES, &file_count);
        if (s != WF_OK) {
            wf_log(log, WF_LOG_ERROR,
                   "world: cache_data is neither a tile cache file nor a sound multi-class "
                   "cache file (%s)",
                   wf_status_string(s));
            return s;
        }
    }
    uint32_t n = desc->class_count > 0 ? desc->class_count : (file_count > 0 ? file_count : 1u);
    for (uint32_t c = 0; c < n; ++c) {
        class_plan* p = &plans[c];
        memset(p, 0, sizeof *p);
        const wf_world_class_desc* cd = desc->class_count > 0 ? &desc->classes[c] : NULL;
        if (cd != NULL) {
            WF_CHECK_DESC(log, "world",
                          size_ok(cd->agent_radius) && size_ok(cd->agent_height) &&
                              size_ok(cd->agent_climb),
                          "classes[].agent_radius, agent_height and agent_climb must be finite "
                          "and >= 0");
            WF_CHECK_DESC(log, "world",
                          cd->name == NULL ||
                              (cd->name[0] != '\0' && strlen(cd->name) <= WF_WORLD_CLASS_NAME_MAX),
                          "classes[].name must be 1..31 bytes");
            WF_CHECK_DESC(log, "world", cd->max_agents <= WF_CROWD_MAX_AGENTS,
                          "classes[].max_agents is above WF_CROWD_MAX_AGENTS");
            p->radius = cd->agent_radius;
            p->height = cd->agent_height;
            p->climb = cd->agent_climb;
            p->max_agents = cd->max_agents;
        }
        p->max_agents = p->max_agents > 0 ? p->max_agents : desc->crowd.max_agents;
        const char* name = cd != NULL ? cd->name : NULL;
        if (file_count > 0) {
            uint32_t pick = c;
            if (name != NULL) {
                for (pick = 0; pick < file_count && strcmp(file[pick].name, name) != 0; ++pick) {
                }
            }
            if (pick >= file_count) {
                wf_log(log, WF_LOG_ERROR, "world: classes[%u]: the cache file has no class %s", c,
                       name != NULL ? name : "at this index");
                return WF_ERR_NOT_FOUND;
            }
            p->cache_data = file[pick].data;
            p->cache_size = file[pick].size;
            p->table = &file[pick];
            name = name != NULL ? name : file[pick].name;
        } else if (desc->cache_data != NULL) {
            if (c > 0) {
                wf_log(log, WF_LOG_ERROR, "world: classes[%u]: the cache file holds one class", c);
                return WF_ERR_NOT_FOUND;
            }
            p->cache_data = desc->cache_data;
            p->cache_size = desc->cache_size;
        }
        if (name != NULL) {
            snprintf(p->name, sizeof p->name, "%s", name);
        } else {
            snprintf(p->name, sizeof p->name, "class%u", c);
        }
        for (uint32_t k = 0; k < c; ++k) {
            WF_CHECK_DESC(log, "world", strcmp(plans[k].name, p->name) != 0,
                          "classes[].name: two classes have one name");
        }
    }
    *out_count = n;
    return WF_OK;
}

/// Builds or loads class c's tile cache, navmesh and crowd.
static wf_status make_class(wf_world* w, const wf_world_desc* desc, const class_plan* plan,
                            uint32_t c, uint32_t other_agents) {
    world_class* k = &w->classes[c];
    memcpy(k->name, plan->name, sizeof k->name);
    wf_tilecache_desc* td = &k->tc_desc;
    td->params = desc->params;
    if (plan->radius > 0.0f) {
        td->params.agent_radius = plan->radius;
    }
    if (plan->height > 0.0f) {
        td->params.agent_height = plan->height;
    }
    if (plan->climb > 0.0f) {
        td->params.agent_climb = plan->climb;
    }
    td->jobs = w->jobs;
    td->max_obstacles = desc->max_obstacles;
    td->max_pending_requests = desc->max_pending_requests;
    td->allocator = w->allocator;
    td->logger = desc->logger;
    wf_status s;
    if (plan->cache_data != NULL) {
        s = wf_tilecache_load(td, plan->cache_data, plan->cache_size, &k->tc);
        if (s == WF_OK) {
            // A navmesh eroded for a thinner agent, or cut for a shorter
            // one, lets a wider or taller one through walls and ceilings.
            const wf_tilecache_params* fp = wf_tilecache_get_params(k->tc);
            const wf_world_cache_class* row = plan->table;
            if (row != NULL &&
                (row->agent_radius != fp->agent_radius || row->agent_height != fp->agent_height ||
                 row->agent_climb != fp->agent_climb)) {
                return WF_ERR_BAD_DATA; // the class table disagrees with its file
            }
            WF_CHECK_DESC(&desc->logger, "world",
                          plan->radius <= fp->agent_radius && plan->height <= fp->agent_height,
                          "classes[].agent_radius or agent_height is above the cache file's");
        }
    } else {
        s = wf_tilecache_create(td, &k->tc);
        if (s == WF_OK) {
            s = wf_tilecache_build_geom(k->tc, *desc->geom, NULL, 0);
            k->build_ms = wf_tilecache_get_stats(k->tc).build_ms;
        }
    }
    if (s == WF_OK) {
        s = wf_world_size_changed(w, k->tc);
    }
    if (s == WF_OK) {
        s = make_mesh(w, k->tc, &k->mesh);
    }
    if (s != WF_OK) {
        return s;
    }
    wf_crowd_desc* cd = &k->crowd_desc;
    *cd = desc->crowd;
    if (cd->filter_count > 0 && cd->filters != NULL) {
        cd->filters = w->filters;
    }
    if (cd->avoidance_count > 0 && cd->avoidance != NULL) {
        cd->avoidance = w->presets;
    }
    cd->mesh = k->mesh;
    cd->jobs = w->jobs;
    cd->allocator = w->allocator;
    cd->logger = desc->logger;
    cd->max_agents = plan->max_agents;
    cd->id_tag = c;
    cd->max_movers += other_agents;
    if (plan->radius > 0.0f) {
        cd->max_agent_radius = plan->radius;
    } else if (cd->max_agent_radius == 0.0f) {
        // A cache built for agent radius 0 (an uneroded navmesh) names no
        // width: the default agent's, so that default agents fit.
        float cache_radius = wf_tilecache_get_params(k->tc)->agent_radius;
        cd->max_agent_radius =
            cache_radius > 0.0f ? cache_radius : wf_agent_params_defaults().radius;
    }
    s = wf_crowd_create(cd, &k->crowd);
    if (s == WF_OK && other_agents > 0) {
        k->movers = WF_ALLOC_ARRAY(&w->allocator, wf_mover_id, other_agents);
        k->mover_capacity = other_agents;
        s = k->movers != NULL ? WF_OK : WF_ERR_OUT_OF_MEMORY;
    }
    return s;
}

/// Step scratch and, with several classes, the obstacle table.
static wf_status make_shared(wf_world* w, uint32_t total_agents, uint32_t largest) {
    if (w->class_count > 1) {
        w->snapshot = WF_ALLOC_ARRAY(&w->allocator, wf_mover, total_agents);
        w->snapshot_capacity = total_agents;
        w->agent_scratch = WF_ALLOC_ARRAY(&w->allocator, wf_agent_id, largest);
        w->agent_scratch_capacity = largest;
        if (w->snapshot == NULL || w->agent_scratch == NULL) {
            return WF_ERR_OUT_OF_MEMORY;
        }
        uint32_t cap = wf_tilecache_desc_defaults(&w->classes[0].tc_desc).max_obstacles;
        wf_status s = wf_id_pool_create(&w->obstacle_ids, &w->allocator, cap, WF_ID_KIND_OBSTACLE);
        if (s != WF_OK) {
            return s;
        }
        w->max_obstacles = cap;
        w->obstacle_class_ids =
            WF_ALLOC_ARRAY(&w->allocator, uint64_t, (size_t)cap * w->class_count);
        if (w->obstacle_class_ids == NULL) {
            return WF_ERR_OUT_OF_MEMORY;
        }
        memset(w->obstacle_class_ids, 0, sizeof(uint64_t) * cap * w->class_count);
    }
    return WF_OK;
}

wf_status wf_world_create(const wf_world_desc* desc_in, wf_world** out) {
    WF_CHECK_ARG(desc_in != NULL && out != NULL);
    *out = NULL;
    const wf_world_desc resolved = wf_world_desc_defaults(desc_in);
    const wf_world_desc* desc = &resolved;
    const wf_logger* log = &desc->logger;
    WF_CHECK_DESC(log, "world", (desc->cache_data != NULL) != (desc->geom != NULL),
                  "give exactly one of cache_data and geom");
    WF_CHECK_DESC(log, "world", desc->cache_data == NULL || desc->cache_size > 0,
                  "cache_size is 0 with cache_data set");
    WF_CHECK_DESC(log, "world", desc->jobs.enqueue == NULL || desc->jobs.wait != NULL,
                  "jobs: enqueue without wait");
    WF_CHECK_DESC(log, "world", desc->worker_count <= WF_JOBS_MAX_WORKERS,
                  "worker_count is above WF_JOBS_MAX_WORKERS");
    WF_CHECK_DESC(log, "world",
                  desc->crowd.filter_count <= WF_CROWD_MAX_FILTERS &&
                      desc->crowd.avoidance_count <= WF_CROWD_MAX_AVOIDANCE_PRESETS,
                  "crowd: filter_count or avoidance_count is above its maximum");
    wf_allocator allocator;
    WF_CHECK_DESC(log, "world", wf_allocator_resolve(&desc->allocator, &allocator) == WF_OK,
                  "allocator: alloc and free must be both set or both NULL");
    class_plan plans[WF_WORLD_MAX_CLASSES];
    wf_world_cache_class file[WF_WORLD_MAX_CLASSES];
    uint32_t class_count = 0;
    wf_status s = plan_classes(desc, file, plans, &class_count);
    if (s != WF_OK) {
        return s;
    }
    // Each class's crowd keeps room for every other class's agents as movers.
    uint64_t total_agents = 0;
    uint32_t largest = 0;
    for (uint32_t c = 0; c < class_count; ++c) {
        total_agents += plans[c].max_agents;
        largest = plans[c].max_agents > largest ? plans[c].max_agents : largest;
    }
    for (uint32_t c = 0; c < class_count && class_count > 1; ++c) {
        WF_CHECK_DESC(log, "world",
                      total_agents - plans[c].max_agents + desc->crowd.max_movers <=
                          WF_CROWD_MAX_MOVERS,
                      "classes: the other classes' max_agents plus crowd.max_movers exceed "
                      "WF_CROWD_MAX_MOVERS (1024) for a class");
    }
    wf_world* w = wf_alloc_zeroed(&allocator, sizeof *w, _Alignof(wf_world));
    if (w == NULL) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    w->allocator = allocator;
    w->logger = desc->logger;
    if (desc->jobs.enqueue != NULL) {
        w->jobs = desc->jobs;
    } else if (desc->worker_count != 1) {
        wf_thread_pool_desc pd = {.thread_count =
                                      desc->worker_count > 1 ? desc->worker_count - 1u : 0u,
                                  .allocator = allocator,
                                  .logger = desc->logger};
        s = wf_thread_pool_create(&pd, &w->pool);
        if (s == WF_OK) {
            w->jobs = wf_thread_pool_job_system(w->pool);
        }
    }
    if (desc->crowd.filter_count > 0 && desc->crowd.filters != NULL) {
        memcpy(w->filters, desc->crowd.filters, sizeof(wf_query_filter) * desc->crowd.filter_count);
    }
    if (desc->crowd.avoidance_count > 0 && desc->crowd.avoidance != NULL) {
        memcpy(w->presets, desc->crowd.avoidance,
               sizeof(wf_avoidance_params) * desc->crowd.avoidance_count);
    }
    for (uint32_t c = 0; c < class_count && s == WF_OK; ++c) {
        w->class_count = c + 1u; // destroy frees what is made so far
        s = make_class(w, desc, &plans[c], c,
                       class_count > 1 ? (uint32_t)(total_agents - plans[c].max_agents) : 0u);
    }
    if (s == WF_OK) {
        s = make_shared(w, (uint32_t)total_agents, largest);
    }
    if (s != WF_OK) {
        wf_world_destroy(w);
        return s;
    }
    *out = w;
    return WF_OK;
}

void wf_world_destroy(wf_world* w) {
    if (w == NULL) {
        return;
    }
    wf_allocator a = w->allocator;
    for (uint32_t c = 0; c < w->class_count; ++c) {
        world_class* k = &w->classes[c];
        wf_world_destroy_parts(k->crowd, k->mesh, k->tc);
        WF_FREE_ARRAY(&a, k->movers, wf_mover_id, k->mover_capacity);
    }
    wf_thread_pool_destroy(w->pool);
    WF_FREE_ARRAY(&a, w->changed, wf_tile_ref, w->changed_capacity);
    WF_FREE_ARRAY(&a, w->snapshot, wf_mover, w->snapshot_capacity);
    WF_FREE_ARRAY(&a, w->agent_scratch, wf_agent_id, w->agent_scratch_capacity);
    if (w->obstacle_class_ids != NULL) {
        WF_FREE_ARRAY(&a, w->obstacle_class_ids, uint64_t,
                      (size_t)w->max_obstacles * w->class_count);
    }
    if (w->max_obstacles > 0) {
        wf_id_pool_destroy(&w->obstacle_ids);
    }
    wf_free(&a, w, sizeof *w, _Alignof(wf_world));
}

wf_crowd* wf_world_crowd(wf_world* w) { return wf_world_class_crowd(w, 0); }
wf_tilecache* wf_world_tilecache(wf_world* w) { return wf_world_class_tilecache(w, 0); }
wf_mesh* wf_world_mesh(wf_world* w) { return wf_world_class_mesh(w, 0); }

wf_world_stats wf_world_get_stats(const wf_world* w) {
    wf_world_stats st = {0};
    if (w == NULL) {
        return st;
    }
    st.frame = w->frame;
    st.memory_bytes = sizeof *w + (size_t)w->changed_capacity * sizeof(wf_tile_ref) +
                      (size_t)w->snapshot_capacity * sizeof(wf_mover) +
                      (size_t)w->agent_scratch_capacity * sizeof(wf_agent_id) +
                      (size_t)w->max_obstacles * w->class_count * sizeof(uint64_t);
    if (w->max_obstacles > 0) {
        st.memory_bytes += (size_t)w->max_obstacles * 2u * sizeof(uint32_t);
    }
    for (uint32_t c = 0; c < w->class_count; ++c) {
        const world_class* k = &w->classes[c];
        st.memory_bytes += wf_tilecache_get_stats(k->tc).memory_bytes +
                           wf_mesh_get_stats(k->mesh).memory_bytes +
                           wf_crowd_get_stats(k->crowd).memory_bytes +
                           (size_t)k->mover_capacity * sizeof(wf_mover_id);
    }
    if (w->pool != NULL) {
        st.memory_bytes += wf_thread_pool_get_stats(w->pool).memory_bytes;
    }
    return st;
}

wf_job_system wf_world_jobs(const wf_world* w) {
    wf_job_system none;
    memset(&none, 0, sizeof none);
    return w != NULL ? w->jobs : none;
}

/* ---------------------------------------------------------------------------
 * Classes and their agents
 */

uint32_t wf_world_class_count(const wf_world* w) { return w != NULL ? w->class_count : 0u; }

wf_crowd* wf_world_class_crowd(wf_world* w, uint32_t c) {
    return w != NULL && c < w->class_count ? w->classes[c].crowd : NULL;
}
wf_tilecache* wf_world_class_tilecache(wf_world* w, uint32_t c) {
    return w != NULL && c < w->class_count ? w->classes[c].tc : NULL;
}
wf_mesh* wf_world_class_mesh(wf_world* w, uint32_t c) {
    return w != NULL && c < w->class_count ? w->classes[c].mesh : NULL;
}

wf_status wf_world_get_class(const wf_world* w, uint32_t c, wf_world_class_info* out) {
    WF_CHECK_ARG(w != NULL && out != NULL);
    if (c >= w->class_count) {
        return WF_ERR_NOT_FOUND;
    }
    const world_class* k = &w->classes[c];
    memset(out, 0, sizeof *out);
    memcpy(out->name, k->name, sizeof out->name);
    const wf_tilecache_params* p = wf_tilecache_get_params(k->tc);
    out->agent_radius = p->agent_radius;
    out->agent_height = p->agent_height;
    out->agent_climb = p->agent_climb;
    out->max_agent_radius = k->crowd_desc.max_agent_radius;
    out->max_agents = k->crowd_desc.max_agents;
    out->tilecache_bytes = wf_tilecache_get_stats(k->tc).memory_bytes;
    out->mesh_bytes = wf_mesh_get_stats(k->mesh).memory_bytes;
    out->crowd_bytes = wf_crowd_get_stats(k->crowd).memory_bytes;
    out->build_ms = k->build_ms;
    return WF_OK;
}

wf_status wf_world_find_class(const wf_world* w, const char* name, uint32_t* out_index) {
    WF_CHECK_ARG(w != NULL && name != NULL && out_index != NULL);
    for (uint32_t c = 0; c < w->class_count; ++c) {
        if (strcmp(w->classes[c].name, name) == 0) {
            *out_index = c;
            return WF_OK;
        }
    }
    return WF_ERR_NOT_FOUND;
}

wf_status wf_world_add_agent(wf_world* w, uint32_t c, wf_vec3 pos, const wf_agent_params* params,
                             wf_agent_id* out_id) {
    WF_CHECK_ARG(w != NULL && out_id != NULL);
    if (c >= w->class_count) {
        return WF_ERR_NOT_FOUND;
    }
    wf_agent_params p;
    if (params == NULL) {
        p = wf_agent_params_defaults();
        const wf_tilecache_params* tp = wf_tilecache_get_params(w->classes[c].tc);
        float r = w->classes[c].crowd_desc.max_agent_radius;
        p.radius = r > 0.0f ? r : p.radius;
        p.height = tp->agent_height > 0.0f ? tp->agent_height : p.height;
        p.collision_query_range = 12.0f * p.radius;
        p.path_optimization_range = 30.0f * p.radius;
        params = &p;
    }
    return wf_crowd_add_agent(w->classes[c].crowd, pos, params, out_id);
}

wf_status wf_world_get_agent_class(const wf_world* w, wf_agent_id id, uint32_t* out_class) {
    WF_CHECK_ARG(w != NULL && out_class != NULL && id.bits != 0);
    if (wf_id_kind_of(id.bits) != WF_ID_KIND_AGENT) {
        return WF_ERR_WRONG_KIND;
    }
    uint32_t c = wf_id_index(id.bits) >> WF_ID_POOL_TAG_SHIFT;
    if (c >= w->class_count) {
        return WF_ERR_NOT_FOUND;
    }
    wf_agent_state st;
    wf_status s = wf_crowd_get_agent(w->classes[c].crowd, id, &st);
    if (s != WF_OK) {
        return s;
    }
    *out_class = c;
    return WF_OK;
}

wf_crowd* wf_world_agent_crowd(wf_world* w, wf_agent_id id) {
    uint32_t c;
    if (w == NULL || id.bits == 0 || wf_world_get_agent_class(w, id, &c) != WF_OK) {
        return NULL;
    }
    return w->classes[c].crowd;
}
