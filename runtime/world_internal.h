// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The world's insides, shared by its files: the classes (each a tile
// cache, a navmesh and a crowd), the obstacle table and step scratch.
#ifndef WF_RUNTIME_WORLD_INTERNAL_H
#define WF_RUNTIME_WORLD_INTERNAL_H

#include "navcore/id_pool.h"
#include "wayfarer/world.h"

typedef struct world_class {
    char name[WF_WORLD_CLASS_NAME_MAX + 1];
    wf_tilecache_desc tc_desc; ///< for restores
    wf_crowd_desc crowd_desc;  ///< for restores (arrays are the world's)
    wf_tilecache* tc;
    wf_mesh* mesh;
    wf_crowd* crowd;
    double build_ms;
    /// This step's movers standing for the other classes' agents (room:
    /// the other classes' max_agents together).
    wf_mover_id* movers;
    uint32_t mover_capacity, mover_count;
} world_class;

struct wf_world {
    wf_allocator allocator;
    wf_logger logger;
    wf_thread_pool* pool; ///< NULL when the game's jobs (or none) are used
    wf_job_system jobs;
    wf_query_filter filters[WF_CROWD_MAX_FILTERS];
    wf_avoidance_params presets[WF_CROWD_MAX_AVOIDANCE_PRESETS];
    uint32_t class_count;
    world_class classes[WF_WORLD_MAX_CLASSES];
    wf_tile_ref* changed; ///< old refs of the tiles a step replaced
    uint32_t changed_capacity;
    /// Agents of every class at the start of a step, as movers (room: all
    /// classes' max_agents), and class c's in [snapshot_begin[c], [c + 1]).
    wf_mover* snapshot;
    uint32_t snapshot_capacity;
    uint32_t snapshot_begin[WF_WORLD_MAX_CLASSES + 1];
    wf_agent_id* agent_scratch; ///< room: the largest class's max_agents
    uint32_t agent_scratch_capacity;
    /// World obstacles of a multi-class world: ids, and per id slot each
    /// class's obstacle id (0: not in that class). Unused with one class.
    wf_id_pool obstacle_ids;
    uint64_t* obstacle_class_ids; ///< max_obstacles x class_count
    uint32_t max_obstacles;
    uint64_t frame;
    bool stepping;
};

/// Room in w->changed for the largest update of any class.
wf_status wf_world_size_changed(wf_world* w, const wf_tilecache* tc);
/// Tells class c's crowd which tiles an update replaced.
wf_status wf_world_forward_changes(wf_world* w, uint32_t c, const wf_tilecache_update_result* r);
/// Destroys one class's parts (any may be NULL), in the order they need.
void wf_world_destroy_parts(wf_crowd* crowd, wf_mesh* mesh, wf_tilecache* tc);

/// Bytes of the obstacle table in a save (0 for a single-class world).
size_t wf_world_obstacles_save_size(const wf_world* w);
void wf_world_obstacles_save(const wf_world* w, unsigned char* out);
/// Reads a saved table into a new pool and id array (the world's capacity).
wf_status wf_world_obstacles_load(const wf_world* w, const unsigned char* data, size_t size,
                                  wf_id_pool* out_pool, uint64_t** out_ids);

#endif
