// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The world: jobs, tile cache, navmesh and crowd in one object, one step
// per frame, and the whole state as one save blob.
#include "wayfarer/world.h"

#include <math.h>
#include <string.h>

#include "navcore/alloc.h"
#include "navcore/bytes.h"
#include "navcore/check.h"
#include "navcore/clock.h"
#include "navcore/hash.h"
#include "navcore/log.h"
#include "navcore/mesh_replace.h"
#include "tilecache/tilecache_replace.h"

struct wf_world {
    wf_allocator allocator;
    wf_logger logger;
    wf_thread_pool* pool; ///< NULL when the game's jobs (or none) are used
    wf_job_system jobs;
    wf_tilecache_desc tc_desc; ///< for restores
    wf_crowd_desc crowd_desc;  ///< for restores (arrays below, not the caller's)
    wf_query_filter filters[WF_CROWD_MAX_FILTERS];
    wf_avoidance_params presets[WF_CROWD_MAX_AVOIDANCE_PRESETS];
    wf_tilecache* tc;
    wf_mesh* mesh;
    wf_crowd* crowd;
    wf_tile_ref* changed; ///< old refs of the tiles a step replaced
    uint32_t changed_capacity;
    uint64_t frame;
    bool stepping;
};

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
static wf_status size_changed(wf_world* w, const wf_tilecache* tc) {
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

static void destroy_parts(wf_crowd* crowd, wf_mesh* mesh, wf_tilecache* tc) {
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
    wf_world* w = wf_alloc_zeroed(&allocator, sizeof *w, _Alignof(wf_world));
    if (w == NULL) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    w->allocator = allocator;
    w->logger = desc->logger;
    wf_status s = WF_OK;
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

    wf_tilecache_desc* td = &w->tc_desc;
    td->params = desc->params;
    td->jobs = w->jobs;
    td->max_obstacles = desc->max_obstacles;
    td->max_pending_requests = desc->max_pending_requests;
    td->allocator = allocator;
    td->logger = desc->logger;
    if (s == WF_OK && desc->cache_data != NULL) {
        s = wf_tilecache_load(td, desc->cache_data, desc->cache_size, &w->tc);
    } else if (s == WF_OK) {
        s = wf_tilecache_create(td, &w->tc);
        if (s == WF_OK) {
            s = wf_tilecache_build_geom(w->tc, *desc->geom, NULL, 0);
        }
    }
    if (s == WF_OK) {
        s = size_changed(w, w->tc);
    }
    if (s == WF_OK) {
        s = make_mesh(w, w->tc, &w->mesh);
    }
    if (s == WF_OK) {
        // The crowd desc is kept for restores, with its arrays copied in.
        wf_crowd_desc* cd = &w->crowd_desc;
        *cd = desc->crowd;
        if (cd->filter_count > 0 && cd->filters != NULL) {
            memcpy(w->filters, cd->filters, sizeof(wf_query_filter) * cd->filter_count);
            cd->filters = w->filters;
        }
        if (cd->avoidance_count > 0 && cd->avoidance != NULL) {
            memcpy(w->presets, cd->avoidance, sizeof(wf_avoidance_params) * cd->avoidance_count);
            cd->avoidance = w->presets;
        }
        cd->mesh = w->mesh;
        cd->jobs = w->jobs;
        cd->allocator = allocator;
        cd->logger = desc->logger;
        if (cd->max_agent_radius == 0.0f) {
            // A cache built for agent radius 0 (an uneroded navmesh) names no
            // width: the default agent's, so that default agents fit.
            float cache_radius = wf_tilecache_get_params(w->tc)->agent_radius;
            cd->max_agent_radius =
                cache_radius > 0.0f ? cache_radius : wf_agent_params_defaults().radius;
        }
        s = wf_crowd_create(cd, &w->crowd);
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
    destroy_parts(w->crowd, w->mesh, w->tc);
    wf_thread_pool_destroy(w->pool);
    wf_allocator a = w->allocator;
    WF_FREE_ARRAY(&a, w->changed, wf_tile_ref, w->changed_capacity);
    wf_free(&a, w, sizeof *w, _Alignof(wf_world));
}

wf_crowd* wf_world_crowd(wf_world* w) { return w != NULL ? w->crowd : NULL; }
wf_tilecache* wf_world_tilecache(wf_world* w) { return w != NULL ? w->tc : NULL; }
wf_mesh* wf_world_mesh(wf_world* w) { return w != NULL ? w->mesh : NULL; }

wf_world_stats wf_world_get_stats(const wf_world* w) {
    wf_world_stats st = {0};
    if (w == NULL) {
        return st;
    }
    st.frame = w->frame;
    st.memory_bytes = sizeof *w + (size_t)w->changed_capacity * sizeof(wf_tile_ref) +
                      wf_tilecache_get_stats(w->tc).memory_bytes +
                      wf_mesh_get_stats(w->mesh).memory_bytes +
                      wf_crowd_get_stats(w->crowd).memory_bytes;
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
 * The step
 */

wf_status wf_world_step(wf_world* w, float dt, const wf_world_budget* budget,
                        wf_world_report* report) {
    WF_CHECK_ARG(w != NULL);
    WF_CHECK_OR(!w->stepping, WF_ERR_BUSY);
    WF_CHECK_ARG(isfinite(dt) && dt > 0.0f && dt <= 1.0f);
    w->stepping = true;
    double start = wf_clock_us();
    wf_tilecache_budget tb = {0, 0};
    if (budget != NULL) {
        tb.max_time_us = budget->tile_time_us;
        tb.max_commits = budget->tile_commits;
    }
    // Obstacle requests and finished rebuilds first, so the crowd plans on
    // this frame's navmesh.
    wf_tilecache_update_result tr;
    memset(&tr, 0, sizeof tr); // an update that fails early reports nothing
    wf_status ts = wf_tilecache_update(w->tc, w->mesh, &tb, &tr);
    double tiles_done = wf_clock_us();
    uint32_t n = 0;
    for (uint32_t k = 0; k < tr.changed_count && n < w->changed_capacity; ++k) {
        if (tr.changed[k].old_tile.bits != 0) {
            w->changed[n++] = tr.changed[k].old_tile;
        }
    }
    wf_status s = n > 0 ? wf_crowd_tiles_changed(w->crowd, w->changed, n) : WF_OK;
    wf_crowd_profile cp;
    if (s == WF_OK) {
        s = wf_crowd_update(w->crowd, dt, &cp);
    }
    if (s != WF_OK) {
        w->stepping = false;
        return s;
    }
    w->frame++;
    if (report != NULL) {
        report->frame = w->frame;
        report->tiles = tr;
        report->crowd = cp;
        report->tiles_us = (tiles_done - start);
        report->crowd_us = cp.total_us;
        report->total_us = wf_clock_us() - start;
    }
    w->stepping = false;
    // A rebuild that failed is the tile cache's report (logged there); the
    // crowd keeps walking on what the mesh has.
    return ts < 0 ? ts : WF_OK;
}

/* ---------------------------------------------------------------------------
 * Save and restore
 *
 *   0 magic "WFWD"   4 version   8 steps run   16 tile cache bytes
 *  24 mesh bytes    32 crowd bytes   40 checksum (FNV-1a 64 of the header
 *  with this field zero, then every section)   48 sections, in that order
 */

#define WORLD_MAGIC 0x44574657u // "WFWD"
#define WORLD_VERSION 1u
#define WORLD_HEADER 48u

/// FNV-1a 64 of the whole blob, the checksum field (bytes 40..48) as zeros.
static uint64_t world_checksum(const unsigned char* blob, size_t size) {
    return wf_fnv1a64_zeroed(blob, size, 40u, 8u);
}

/// Runs the tile cache until every request is applied and every rebuild
/// committed: the saved navmesh then matches the saved obstacles.
static wf_status finish_tiles(wf_world* w) {
    const wf_tilecache_budget none = {0, 0};
    for (int k = 0; k < 1000; ++k) {
        wf_tilecache_update_result r;
        wf_status s = wf_tilecache_update(w->tc, w->mesh, &none, &r);
        if (s < 0) {
            return s;
        }
        uint32_t n = 0;
        for (uint32_t j = 0; j < r.changed_count && n < w->changed_capacity; ++j) {
            if (r.changed[j].old_tile.bits != 0) {
                w->changed[n++] = r.changed[j].old_tile;
            }
        }
        if (n > 0) {
            s = wf_crowd_tiles_changed(w->crowd, w->changed, n);
            if (s != WF_OK) {
                return s;
            }
        }
        if (r.up_to_date) {
            return WF_OK;
        }
    }
    return WF_ERR_BUSY; // builds that never finish: a broken job system
}

typedef struct sections {
    size_t tc, mesh, crowd;
} sections;

static wf_status section_sizes(wf_world* w, sections* out) {
    wf_status s = wf_tilecache_save_size(w->tc, &out->tc);
    if (s == WF_OK) {
        s = wf_mesh_save_size(w->mesh, &out->mesh);
    }
    if (s == WF_OK) {
        s = wf_crowd_save_size(w->crowd, &out->crowd);
    }
    return s;
}

wf_status wf_world_save_size(wf_world* w, size_t* out_size) {
    WF_CHECK_ARG(w != NULL && out_size != NULL);
    WF_CHECK_OR(!w->stepping, WF_ERR_BUSY);
    *out_size = 0;
    wf_status s = finish_tiles(w);
    sections sz;
    if (s == WF_OK) {
        s = section_sizes(w, &sz);
    }
    if (s == WF_OK) {
        *out_size = WORLD_HEADER + sz.tc + sz.mesh + sz.crowd;
    }
    return s;
}

wf_status wf_world_save(wf_world* w, void* out, size_t size) {
    WF_CHECK_ARG(w != NULL && out != NULL);
    WF_CHECK_OR(!w->stepping, WF_ERR_BUSY);
    wf_status s = finish_tiles(w);
    sections sz;
    if (s == WF_OK) {
        s = section_sizes(w, &sz);
    }
    if (s != WF_OK) {
        return s;
    }
    if (size < WORLD_HEADER + sz.tc + sz.mesh + sz.crowd) {
        return WF_ERR_CAPACITY;
    }
    unsigned char* p = out;
    memset(p, 0, WORLD_HEADER);
    wf_bytes_put_u32(p, WORLD_MAGIC);
    wf_bytes_put_u32(p + 4, WORLD_VERSION);
    wf_bytes_put_u64(p + 8, w->frame);
    wf_bytes_put_u64(p + 16, sz.tc);
    wf_bytes_put_u64(p + 24, sz.mesh);
    wf_bytes_put_u64(p + 32, sz.crowd);
    unsigned char* at = p + WORLD_HEADER;
    s = wf_tilecache_save(w->tc, at, sz.tc);
    if (s == WF_OK) {
        s = wf_mesh_save(w->mesh, at + sz.tc, sz.mesh);
    }
    if (s == WF_OK) {
        s = wf_crowd_save(w->crowd, at + sz.tc + sz.mesh, sz.crowd);
    }
    if (s != WF_OK) {
        return s;
    }
    size_t total = WORLD_HEADER + sz.tc + sz.mesh + sz.crowd;
    wf_bytes_put_u64(p + 40, world_checksum(p, total));
    return WF_OK;
}

wf_status wf_world_restore(wf_world* w, const void* data, size_t size) {
    WF_CHECK_ARG(w != NULL && (data != NULL || size == 0));
    WF_CHECK_OR(!w->stepping, WF_ERR_BUSY);
    const unsigned char* p = data;
    if (size < WORLD_HEADER || wf_bytes_get_u32(p) != WORLD_MAGIC) {
        return WF_ERR_BAD_DATA;
    }
    if (wf_bytes_get_u32(p + 4) != WORLD_VERSION) {
        return WF_ERR_VERSION;
    }
    uint64_t tc_size = wf_bytes_get_u64(p + 16), mesh_size = wf_bytes_get_u64(p + 24);
    uint64_t crowd_size = wf_bytes_get_u64(p + 32);
    uint64_t room = size - WORLD_HEADER;
    if (tc_size > room || mesh_size > room - tc_size || crowd_size != room - tc_size - mesh_size ||
        world_checksum(p, size) != wf_bytes_get_u64(p + 40)) {
        return WF_ERR_BAD_DATA;
    }
    // Everything is built aside and only swapped in once all of it loaded:
    // a failure leaves the world as it was.
    const unsigned char* at = p + WORLD_HEADER;
    wf_tilecache* tc = NULL;
    wf_mesh* mesh = NULL;
    wf_crowd* crowd = NULL;
    wf_status s = wf_tilecache_load(&w->tc_desc, at, (size_t)tc_size, &tc);
    if (s == WF_OK) {
        wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
        md.allocator = w->allocator;
        s = wf_mesh_load(&md, at + tc_size, (size_t)mesh_size, &mesh);
        // Steps rebuild the cache's tiles into this mesh: it must lie on the
        // cache's tile grid (a save that says otherwise is damaged).
        if (s == WF_OK && !wf_tilecache_mesh_matches(tc, mesh)) {
            s = WF_ERR_BAD_DATA;
        }
    }
    if (s == WF_OK) {
        wf_crowd_desc cd = w->crowd_desc;
        cd.mesh = mesh;
        s = wf_crowd_create(&cd, &crowd);
    }
    if (s == WF_OK) {
        s = wf_crowd_restore(crowd, at + tc_size + mesh_size, (size_t)crowd_size);
    }
    if (s == WF_OK) {
        s = size_changed(w, tc);
    }
    if (s != WF_OK) {
        destroy_parts(crowd, mesh, tc);
        return s;
    }
    // All of it loaded: the new contents move into the objects the game
    // holds (wf_world_crowd & co stay valid), and the old ones go. The
    // crowd restores its bytes a second time, in place, over the swapped
    // mesh: the same checks against the same capacities, so it succeeds.
    wf_crowd_destroy(crowd);
    wf_tilecache_swap_contents(w->tc, tc);
    wf_mesh_swap_contents(w->mesh, mesh);
    s = wf_crowd_restore(w->crowd, at + tc_size + mesh_size, (size_t)crowd_size);
    WF_ASSERT(s == WF_OK);
    destroy_parts(NULL, mesh, tc);
    w->frame = wf_bytes_get_u64(p + 8);
    return WF_OK;
}
