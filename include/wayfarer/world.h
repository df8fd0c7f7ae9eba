// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
/*
 * The world: one object a game steps once a frame. It owns the job system
 * (a thread pool, unless the game passes its own), the tile cache, the
 * navmesh built from it and the crowd on that navmesh.
 *
 *     wf_world_desc desc = {.cache_data = file, .cache_size = size};
 *     desc.crowd.max_agents = 1000;
 *     wf_world* world;
 *     if (wf_world_create(&desc, &world) != WF_OK) ...
 *     wf_crowd* crowd = wf_world_crowd(world);          // agents, requests
 *     wf_tilecache* tc = wf_world_tilecache(world);     // obstacles
 *     each frame: wf_world_step(world, dt, &(wf_world_budget){.tile_time_us = 1000}, &report);
 *
 * A step applies the obstacle requests queued since the last one, commits
 * rebuilt tiles within the budget (builds run on the workers and may go on
 * between steps), tells the crowd which tiles changed, then updates the
 * crowd. With no time budget (tile_time_us 0, any tile_commits) a step
 * commits the dirty layers in layer order up to tile_commits, and the world
 * is a pure function of its inputs: the same for any worker count.
 *
 * Threads. The world is the one object that owns threads: with `jobs` all
 * zero it makes a thread pool of worker_count - 1 threads, the stepping
 * thread being the last worker (worker_count 0 = one per core, 1 = no
 * thread at all). Every other object (tile cache, crowd) takes a job
 * system and owns none, so a zero job system there means inline, on the
 * calling thread. Pass the game's scheduler in `jobs` to use no thread of
 * the world's own. Results are the same for any worker count. The world is
 * not itself thread-safe: call it from one thread (crowd callbacks run on
 * that thread too, during wf_world_step).
 */
#ifndef WAYFARER_WORLD_H
#define WAYFARER_WORLD_H

#include "wayfarer/base.h"
#include "wayfarer/crowd.h"
#include "wayfarer/jobs.h"
#include "wayfarer/navmesh.h"
#include "wayfarer/tilecache.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wf_world wf_world;

typedef struct wf_world_desc {
    /// The level: a cache file (wf_tilecache_save bytes, read during the
    /// call), or geometry built with `params` (zero params: the Recast demo
    /// settings). Exactly one of the two.
    const void* cache_data;
    size_t cache_size;
    const wf_geom* geom;
    wf_tilecache_params params;
    /// Threads (see "Threads" above): the game's job system, or (all zero)
    /// a pool of worker_count - 1 threads (0 = one per core; 1 = no
    /// thread), worker_count at most WF_JOBS_MAX_WORKERS.
    wf_job_system jobs;
    uint32_t worker_count;
    /// Tile cache capacities (0 = defaults of wf_tilecache_desc).
    uint32_t max_obstacles;
    uint32_t max_pending_requests;
    /// The crowd: capacities, filters, presets (its mesh, jobs, allocator
    /// and logger are the world's). max_agents 0 = 1000; max_agent_radius
    /// 0 = the cache's agent radius, or where the cache was built for agent
    /// radius 0, the default agent's (wf_agent_params_defaults: 0.6 m).
    wf_crowd_desc crowd;
    wf_allocator allocator;
    wf_logger logger;
} wf_world_desc;

/// The desc with every field left zero set to its default (NULL: all
/// defaults): worker_count one per core (without `jobs`), params the
/// Recast demo's (without cache_data), the crowd's through
/// wf_crowd_desc_defaults with max_agents 1000. max_agent_radius stays 0
/// (it comes from the level, see `crowd`).
WF_API wf_world_desc wf_world_desc_defaults(const wf_world_desc* desc);
/// Errors: WF_ERR_INVALID_ARG (a desc rule broken: the logger names it),
/// WF_ERR_BAD_DATA and WF_ERR_VERSION (cache_data damaged or of another
/// format), WF_ERR_CAPACITY (a limit of the tile cache or the navmesh),
/// WF_ERR_OUT_OF_MEMORY, WF_ERR_THREAD (the pool's threads would not
/// start).
WF_NODISCARD WF_API wf_status wf_world_create(const wf_world_desc* desc, wf_world** out);
WF_API void wf_world_destroy(wf_world* world);

typedef struct wf_world_stats {
    uint64_t frame; ///< steps run
    /// Bytes the world holds from its allocator: its tile cache, navmesh,
    /// crowd and thread pool included.
    size_t memory_bytes;
} wf_world_stats;
/// All zero for NULL.
WF_API wf_world_stats wf_world_get_stats(const wf_world* world);

/// The world's parts, owned by the world. The pointers stay valid for the
/// world's life: wf_world_restore replaces their contents in place (and
/// ids and refs the game kept stay valid too).
WF_API wf_crowd* wf_world_crowd(wf_world* world);
WF_API wf_tilecache* wf_world_tilecache(wf_world* world);
WF_API wf_mesh* wf_world_mesh(wf_world* world);
WF_API wf_job_system wf_world_jobs(const wf_world* world);

typedef struct wf_world_budget {
    uint32_t tile_time_us; ///< time for committing rebuilt tiles; 0 = no limit
    uint32_t tile_commits; ///< tiles committed per step; 0 = no limit
} wf_world_budget;

typedef struct wf_world_report {
    uint64_t frame; ///< steps run so far, this one included
    double total_us;
    double tiles_us;                  ///< the tile cache's update
    double crowd_us;                  ///< the crowd's update (its phases in `crowd`)
    wf_tilecache_update_result tiles; ///< its `changed` list is valid until the next step
    wf_crowd_profile crowd;
} wf_world_report;

/// One frame of dt seconds. budget NULL = no limit. report may be NULL.
/// WF_ERR_INVALID_ARG (bad dt), WF_ERR_BUSY (from inside a crowd callback);
/// a tile that could not be rebuilt is reported as the tile cache reports
/// it (the step goes on).
WF_NODISCARD WF_API wf_status wf_world_step(wf_world* world, float dt,
                                            const wf_world_budget* budget, wf_world_report* report);

/*
 * Save and restore: one blob (magic, version, section sizes, checksum)
 * holding the tile cache with its obstacles and off-mesh links, the
 * navmesh with its tile ids,
 * generations and per-tile state, and the crowd (agents, corridors,
 * requests, searches in progress). Ids the game saved stay valid, and a
 * restored world continues bit-identically to the one saved. Saving first
 * finishes rebuilds still pending (what a step with no budget would do).
 * Crowd callbacks are not saved: attach them again with
 * wf_crowd_set_callbacks. The blob is for the same build of the library on
 * the same kind of machine.
 */
WF_NODISCARD WF_API wf_status wf_world_save_size(wf_world* world, size_t* out_size);
WF_NODISCARD WF_API wf_status wf_world_save(wf_world* world, void* out, size_t size);
/// Replaces the world's state in place (the part pointers stay valid; a
/// query the game made on wf_world_mesh searches the restored navmesh).
/// WF_ERR_BAD_DATA (damaged, truncated),
/// WF_ERR_VERSION, WF_ERR_CAPACITY (saved by a world with other crowd
/// capacities: create the world from the same desc), WF_ERR_OUT_OF_MEMORY:
/// on any error the world is unchanged. While it runs, the old and the new
/// state both exist (memory briefly doubles).
WF_NODISCARD WF_API wf_status wf_world_restore(wf_world* world, const void* data, size_t size);

#ifdef __cplusplus
}
#endif

#endif
