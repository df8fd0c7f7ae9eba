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
 *
 * Agent classes. A soldier and a tank need different navmeshes (eroded
 * by their radius, cut by their height and climb). A world holds one to
 * WF_WORLD_MAX_CLASSES classes, each with its own tile cache, navmesh and
 * crowd, all built from the same geometry (or read from one multi-class
 * cache file, wf_world_save_cache):
 *
 *     wf_world_class_desc classes[] = {{.name = "soldier", .agent_radius = 0.4f},
 *                                      {.name = "tank", .agent_radius = 1.6f,
 *                                       .agent_height = 2.5f, .max_agents = 16}};
 *     desc.classes = classes; desc.class_count = 2;
 *     wf_world_add_agent(world, 1, spawn, NULL, &tank);  // class 1 = tank
 *     wf_crowd_request_move(wf_world_agent_crowd(world, tank), tank, ...);
 *     wf_world_add_obstacle(world, &crate, &id);           // every class
 *
 * An agent id names its class (wf_world_get_agent_class); a class's crowd
 * refuses another class's ids as stale. Obstacles go to the world: each
 * class's cache gets them (each widens them by its own radius), and
 * wf_world_step shares one tile budget among the classes (starting with
 * a different class each step, so none starves). Each step, before the
 * crowds move, every agent of every class is placed as a mover
 * (wf_crowd_add_mover: an avoid-only circle with its velocity) in every
 * other class's crowd, from the positions all classes had at the start of
 * the step, and taken out after: classes avoid each other, in the same
 * way for any worker count, and nothing is allocated. The zero desc
 * (class_count 0) is one class made from params and crowd, as before.
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

/// Most agent classes in one world (each holds a tile cache, a navmesh and
/// a crowd), and the longest class name (bytes, without the NUL).
#define WF_WORLD_MAX_CLASSES 8u
#define WF_WORLD_CLASS_NAME_MAX 31u

/// One agent size class. Zero sizes take the level's: `params`' for
/// geometry, the file's class for cache_data.
typedef struct wf_world_class_desc {
    /// 1..WF_WORLD_CLASS_NAME_MAX bytes, unique in the world; NULL =
    /// "class<index>". With a multi-class cache file, a name picks the
    /// file's class of that name, NULL the file's class at this index.
    const char* name;
    /// m, finite, >= 0. From a cache file the radius and height may be at
    /// most the file class's (agents wider or taller than the navmesh was
    /// built for would clip walls and ceilings): WF_ERR_INVALID_ARG.
    float agent_radius;
    float agent_height;
    float agent_climb;
    uint32_t max_agents; ///< the class's crowd; 0 = crowd.max_agents
} wf_world_class_desc;

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
    /// Agent classes (copied; see "Agent classes" above): class_count 0 =
    /// one class, from params (or the cache file) and crowd; at most
    /// WF_WORLD_MAX_CLASSES. Every class's crowd gets crowd's settings and
    /// its own max_agents and max_agent_radius (the class's radius), and
    /// room for the other classes' agents as movers on top of
    /// crowd.max_movers: that sum must stay within WF_CROWD_MAX_MOVERS.
    /// A multi-class cache file with class_count 0 gives all its classes.
    const wf_world_class_desc* classes;
    uint32_t class_count;
    wf_allocator allocator;
    wf_logger logger;
} wf_world_desc;

/// The desc with every field left zero set to its default (NULL: all
/// defaults): worker_count one per core (without `jobs`), params the
/// Recast demo's (without cache_data), the crowd's through
/// wf_crowd_desc_defaults with max_agents 1000. max_agent_radius stays 0
/// (it comes from the level, see `crowd`).
WF_API wf_world_desc wf_world_desc_defaults(const wf_world_desc* desc);
/// Errors: WF_ERR_INVALID_ARG (a desc rule broken: the logger names it;
/// for classes: more than WF_WORLD_MAX_CLASSES, a NaN, infinite or
/// negative size, a name too long or twice, a radius or height above the
/// cache file's class), WF_ERR_NOT_FOUND (a class the cache file does not
/// hold: a name it lacks, or more classes than it has),
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

/// The world's parts, owned by the world (class 0's for a multi-class
/// world). The pointers stay valid for the world's life: wf_world_restore
/// replaces their contents in place (and ids and refs the game kept stay
/// valid too).
WF_API wf_crowd* wf_world_crowd(wf_world* world);
WF_API wf_tilecache* wf_world_tilecache(wf_world* world);
WF_API wf_mesh* wf_world_mesh(wf_world* world);
WF_API wf_job_system wf_world_jobs(const wf_world* world);

/* ---------------------------------------------------------------------------
 * Agent classes
 */

/// Classes in the world (1 or more; 0 for NULL).
WF_API uint32_t wf_world_class_count(const wf_world* world);
/// One class's parts (NULL for a class index past the last). Add
/// obstacles through wf_world_add_obstacle, not to a class's tile cache,
/// so every class sees them.
WF_API wf_crowd* wf_world_class_crowd(wf_world* world, uint32_t class_index);
WF_API wf_tilecache* wf_world_class_tilecache(wf_world* world, uint32_t class_index);
WF_API wf_mesh* wf_world_class_mesh(wf_world* world, uint32_t class_index);

typedef struct wf_world_class_info {
    char name[WF_WORLD_CLASS_NAME_MAX + 1];
    float agent_radius, agent_height, agent_climb; ///< the class's navmesh was built for these
    float max_agent_radius;                        ///< its crowd's widest agent
    uint32_t max_agents;
    size_t tilecache_bytes, mesh_bytes, crowd_bytes; ///< memory of its parts
    /// Wall-clock time of its tile cache's last build (0 for one loaded
    /// from a file); its navmesh build is not included.
    double build_ms;
} wf_world_class_info;
/// WF_ERR_INVALID_ARG (NULL), WF_ERR_NOT_FOUND (no such class).
WF_NODISCARD WF_API wf_status wf_world_get_class(const wf_world* world, uint32_t class_index,
                                                 wf_world_class_info* out);
/// The index of the class with this name. WF_ERR_INVALID_ARG (NULL),
/// WF_ERR_NOT_FOUND.
WF_NODISCARD WF_API wf_status wf_world_find_class(const wf_world* world, const char* name,
                                                  uint32_t* out_index);

/// Adds an agent to a class's crowd (wf_crowd_add_agent); params NULL =
/// wf_agent_params_defaults with the class's radius and height (the
/// default agent's where the class has none). WF_ERR_NOT_FOUND (no such
/// class, or no polygon near pos), and the crowd's errors.
WF_NODISCARD WF_API wf_status wf_world_add_agent(wf_world* world, uint32_t class_index, wf_vec3 pos,
                                                 const wf_agent_params* params,
                                                 wf_agent_id* out_id);
/// The class an agent id belongs to. WF_ERR_INVALID_ARG (NULL, the null
/// id), WF_ERR_WRONG_KIND (not an agent id), WF_ERR_NOT_FOUND (the id
/// names a class this world lacks), WF_ERR_STALE_REF (no live agent).
WF_NODISCARD WF_API wf_status wf_world_get_agent_class(const wf_world* world, wf_agent_id id,
                                                       uint32_t* out_class);
/// The crowd an agent id belongs to, or NULL where wf_world_get_agent_class fails.
WF_API wf_crowd* wf_world_agent_crowd(wf_world* world, wf_agent_id id);

/* ---------------------------------------------------------------------------
 * Obstacles of every class
 *
 * A world obstacle is queued in every class's tile cache (each widens it
 * by its own agent radius) and applied by the next step within the one
 * tile budget. The calls are all or nothing: a full obstacle table or
 * request queue in any class gives WF_ERR_CAPACITY and changes none. In a
 * single-class world the ids are the tile cache's own (wf_world_tilecache
 * takes them too). Same thread as the step, not inside it (WF_ERR_BUSY).
 */

/// As wf_tilecache_add_obstacle, for every class: WF_ERR_NOT_FOUND when
/// it touches no tile of any class (a class whose tiles it misses
/// leaves it out).
WF_NODISCARD WF_API wf_status wf_world_add_obstacle(wf_world* world, const wf_obstacle_desc* desc,
                                                    wf_obstacle_id* out_id);
/// As wf_tilecache_remove_obstacle, for every class.
WF_NODISCARD WF_API wf_status wf_world_remove_obstacle(wf_world* world, wf_obstacle_id id);
/// As wf_tilecache_move_obstacle, for every class (a class whose tiles it
/// leaves drops it; one whose tiles it enters takes it). WF_ERR_NOT_FOUND,
/// nothing changed, when the new place touches no tile of any class.
WF_NODISCARD WF_API wf_status wf_world_move_obstacle(wf_world* world, wf_obstacle_id id,
                                                     const wf_obstacle_desc* desc);
/// The obstacle's desc, as the first class holding it has it.
/// WF_ERR_INVALID_ARG, WF_ERR_STALE_REF, WF_ERR_WRONG_KIND.
WF_NODISCARD WF_API wf_status wf_world_get_obstacle(const wf_world* world, wf_obstacle_id id,
                                                    wf_obstacle_desc* out);
/// Live world obstacles (0 for NULL).
WF_API uint32_t wf_world_obstacle_count(const wf_world* world);

typedef struct wf_world_budget {
    uint32_t tile_time_us; ///< time for committing rebuilt tiles; 0 = no limit
    uint32_t tile_commits; ///< tiles committed per step; 0 = no limit
} wf_world_budget;

/// One class's share of a step.
typedef struct wf_world_class_report {
    bool tiles_updated;               ///< false: the budget ran out before this class's turn
    wf_tilecache_update_result tiles; ///< its `changed` list is valid until the next step
    wf_crowd_profile crowd;
} wf_world_class_report;

typedef struct wf_world_report {
    uint64_t frame; ///< steps run so far, this one included
    double total_us;
    double tiles_us;                  ///< the tile caches' updates, all classes
    double crowd_us;                  ///< the crowds' updates, all classes
    wf_tilecache_update_result tiles; ///< class 0's (classes[0].tiles)
    wf_crowd_profile crowd;           ///< class 0's
    uint32_t class_count;
    wf_world_class_report classes[WF_WORLD_MAX_CLASSES];
} wf_world_report;

/// One frame of dt seconds. budget NULL = no limit; it is shared by every
/// class (the first class to update turns with the frame; a class left no
/// budget waits for a later step). report may be NULL.
/// WF_ERR_INVALID_ARG (bad dt), WF_ERR_BUSY (from inside a crowd callback),
/// WF_ERR_CAPACITY (a class crowd's movers left no room for the other
/// classes' agents: nothing stepped);
/// a tile that could not be rebuilt is reported as the tile cache reports
/// it (the step goes on).
WF_NODISCARD WF_API wf_status wf_world_step(wf_world* world, float dt,
                                            const wf_world_budget* budget, wf_world_report* report);

/*
 * Save and restore: one blob (magic, version, section sizes, checksum)
 * holding, for every class, the tile cache with its obstacles and off-mesh
 * links, the navmesh with its tile ids, generations and per-tile state,
 * and the crowd (agents, corridors, requests, searches in progress), and
 * the world's obstacle table. Ids the game saved stay valid, and a
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

/*
 * The level of every class as one file (docs/formats.md "Multi-class cache
 * file"): a table of classes (name, agent sizes, where its bytes are)
 * followed by each class's tile cache file (wf_tilecache_save). A
 * single-class world writes a plain tile cache file. wf_world_desc's
 * cache_data takes either. Obstacles are left out (as wf_tilecache_save).
 */
WF_NODISCARD WF_API wf_status wf_world_save_cache_size(const wf_world* world, size_t* out_size);
/// WF_ERR_CAPACITY when size is too small.
WF_NODISCARD WF_API wf_status wf_world_save_cache(const wf_world* world, void* out, size_t size);

/// A multi-class cache file made of tile caches built apart (one class
/// each, in order, named as given): what `wayfarer build --class` writes,
/// wf_world_save_cache's format. count 1..WF_WORLD_MAX_CLASSES; names
/// 1..WF_WORLD_CLASS_NAME_MAX bytes, unique. WF_ERR_INVALID_ARG (NULL, a
/// count or name out of range), WF_ERR_CAPACITY (size too small). Reads
/// the caches only: any thread where no other touches them.
WF_NODISCARD WF_API wf_status wf_world_cache_write_size(const wf_tilecache* const* caches,
                                                        uint32_t count, size_t* out_size);
WF_NODISCARD WF_API wf_status wf_world_cache_write(const wf_tilecache* const* caches,
                                                   const char* const* names, uint32_t count,
                                                   void* out, size_t size);

/// A class of a multi-class cache file.
typedef struct wf_world_cache_class {
    char name[WF_WORLD_CLASS_NAME_MAX + 1];
    float agent_radius, agent_height, agent_climb;
    const void* data; ///< its tile cache file, inside the bytes given
    size_t size;
} wf_world_cache_class;

/// Reads a cache file's class table: *out_count classes (0 for a plain,
/// single-class tile cache file), the first min(count, max) in out (may be
/// NULL when max is 0). Checks the table (magic, version, checksum,
/// sections in bounds), not the class files (wf_tilecache_load does).
/// WF_ERR_INVALID_ARG (NULL), WF_ERR_BAD_DATA, WF_ERR_VERSION. Any thread.
WF_NODISCARD WF_API wf_status wf_world_cache_get_classes(const void* data, size_t size,
                                                         wf_world_cache_class* out, uint32_t max,
                                                         uint32_t* out_count);

#ifdef __cplusplus
}
#endif

#endif
