// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Layout of the tile cache object, shared by the cache itself (tilecache.c)
// and its file format (cache_file.c), and the internal figures the
// benchmark reads.
#ifndef WF_TILECACHE_TILECACHE_INTERNAL_H
#define WF_TILECACHE_TILECACHE_INTERNAL_H

#include "navcore/arena.h"
#include "navcore/id_pool.h"
#include "tilecache/layer.h"
#include "tilecache/obstacle_shapes.h"
#include "wayfarer/tilecache.h"

/// One stored layer: what it holds and its compressed bytes.
typedef struct wf_tilecache_entry {
    wf_tilecache_layer_info info; ///< raw_bytes / compressed_bytes are the sizes
    unsigned char* data;          ///< compressed_bytes, from the cache's allocator
    /// XZ bounds of the layer's cells (those with a floor), inside the
    /// tile's: only a stamp that overlaps them can change the layer.
    float cells_min[2], cells_max[2];
} wf_tilecache_entry;

/// Per-worker memory of the layer -> tile step, allocated at creation so
/// that step never allocates scratch.
typedef struct wf_tilecache_worker {
    wf_arena scratch;            ///< decompressed layer + tile builder scratch
    unsigned char* staging;      ///< tile blob before it is copied out at its exact size
    wf_offmesh_link_desc* links; ///< WF_TILECACHE_MAX_LINKS_PER_LAYER: the layer's links
} wf_tilecache_worker;

/// An off-mesh link kept by the cache (offmesh_links.c).
typedef struct wf_tilecache_link {
    wf_offmesh_link_desc desc;
    uint32_t entry; ///< the entry (layer) its start lands in
} wf_tilecache_link;

/* Run-time state for obstacles and budgeted updates (obstacle_queue.c,
 * update.c). */

typedef enum wf_obstacle_state {
    WF_OBSTACLE_FREE = 0,
    WF_OBSTACLE_LIVE = 1, ///< added (its add may still be queued)
} wf_obstacle_state;

typedef struct wf_obstacle_record {
    wf_obstacle_desc desc;
    wf_obstacle_stamp stamp;
    uint8_t state;
    /// Stamped into layers, i.e. its add was applied by an update (until
    /// its removal is applied).
    bool applied;
} wf_obstacle_record;

typedef enum wf_request_kind {
    WF_REQUEST_ADD = 0,
    WF_REQUEST_REMOVE = 1,
    WF_REQUEST_MOVE = 2,
} wf_request_kind;

/// A queued request: the obstacle slot and, for removes and moves, the
/// bounds it covered before (those layers must be rebuilt too).
///
/// Rule (obstacle_queue.c writes, update.c applies): remove and move change the
/// record at once (remove frees the id and sets the record FREE, move
/// stores the new desc and stamp) and copy into the request what the old
/// state was: old_bmin/old_bmax = the stamp bounds before, was_applied =
/// the record's `applied` before. So a removed slot may be reused by a later
/// add while its remove is still queued, and applying a request must never
/// read the record for its past:
/// - REMOVE: if was_applied, the layers under old bounds are dirty. The
///   record is not touched (it may belong to a newer obstacle by now).
/// - MOVE: the same for the old bounds; then as ADD.
/// - ADD (and MOVE): if the record is LIVE, the layers under its current
///   stamp are dirty and it becomes applied; a FREE record means the
///   obstacle was removed before this request was applied: nothing to do.
///   (A slot reused meanwhile is applied by this request a little early;
///   its own ADD, later in the queue, dirties the same layers again.)
/// Add and move set `applied` false; only applying a request sets it true.
typedef struct wf_obstacle_request {
    uint8_t kind;
    uint32_t slot;
    float old_bmin[3], old_bmax[3];
    bool was_applied; ///< remove, move: the old stamp was in the layers' tiles
} wf_obstacle_request;

/// A layer rebuild running (or finished, waiting to be committed).
typedef struct wf_build_slot {
    wf_job_task task;
    bool busy;        ///< submitted, not yet collected
    uint32_t layer;   ///< entry index
    uint32_t version; ///< the layer's dirty version it was started for
    wf_status status; ///< written by the build
    size_t blob_size;
    unsigned char* blob; ///< capacity blob_capacity
    size_t blob_capacity;
    wf_arena scratch;          ///< decompressed layer + tile builder scratch
    wf_obstacle_stamp* stamps; ///< copy of the stamps touching the layer, capacity max_obstacles
    uint32_t stamp_count;
    wf_offmesh_link_desc* links; ///< copy of the layer's links, WF_TILECACHE_MAX_LINKS_PER_LAYER
    uint32_t link_count;
    const struct wf_tilecache* tc;
    bool ready;     ///< collected and current, waiting for its commit
    uint64_t order; ///< submission number (which build to wait for)
} wf_build_slot;

/// Per layer run-time state.
typedef struct wf_layer_state {
    uint32_t dirty_version; ///< bumped each time an applied request touches the layer
    uint32_t built_version; ///< version of the tile in the mesh
    bool in_flight;         ///< a slot is building it
    unsigned char* blob;    ///< the committed tile's memory (cache-owned), or NULL
    size_t blob_capacity;
} wf_layer_state;

struct wf_tilecache {
    wf_tilecache_params params; ///< as given (bounds may be all zero)
    wf_layer_codec codec;       ///< resolved (LZ4 when the desc's was zero)
    wf_job_system jobs;
    uint32_t max_layers;
    /* Build limits, resolved (desc 0 = default). */
    uint32_t max_tiles;
    uint64_t max_cells;
    uint32_t max_triangle_refs;
    uint64_t max_navmesh_bytes;
    wf_allocator allocator; ///< resolved
    wf_logger logger;
    /// World bounds of the last build (or of the params before any build):
    /// tile (0, 0) starts at origin.
    wf_vec3 origin, world_max;
    int32_t tiles_x, tiles_z;
    wf_tilecache_entry* entries; ///< in tile order (z, then x), then layer
    uint32_t entry_count;
    uint32_t worker_count;
    wf_tilecache_worker* workers;
    size_t scratch_bytes; ///< per worker
    size_t staging_bytes; ///< per worker
    /* Obstacles and updates. */
    wf_id_pool obstacle_ids;       ///< kind WF_ID_KIND_OBSTACLE, capacity max_obstacles
    wf_obstacle_record* obstacles; ///< by slot
    uint32_t max_obstacles;
    wf_obstacle_request* requests; ///< ring, capacity max_requests
    uint32_t max_requests, request_head, request_count;
    wf_build_slot* slots;
    uint32_t slot_count;
    wf_layer_state* layer_states; ///< entry_count, made by the first update after a build
    uint32_t layer_state_count;
    uint32_t* tile_first_entry;         ///< tiles_x * tiles_z + 1 prefix offsets into entries
    size_t tile_first_count;            ///< length of tile_first_entry
    wf_tilecache_changed_tile* changed; ///< entry_count
    uint32_t* applied_slots;         ///< update scratch: applied obstacles' slots (max_obstacles)
    uint64_t build_order;            ///< builds submitted so far (slot order numbers)
    uint32_t update_oversize_layers; ///< layers updates built outside their slot (all calls)
    /* Off-mesh links (offmesh_links.c), sorted by user_id. */
    wf_tilecache_link* links; ///< link_capacity (grown by adds up to max_links), or NULL
    uint32_t link_count, link_capacity;
    uint32_t max_links;
    double build_ms;
    uint64_t build_cells;     ///< last build's tile cells
    uint64_t triangle_refs;   ///< last triangle build's binned pairs
    uint64_t triangle_cells;  ///< and the cells under them
    uint32_t oversize_layers; ///< layers of the last navmesh pass built outside worker scratch
    size_t build_high_water;  ///< largest per-tile build arena use of the last build
};

/* Tiles and layers under world bounds (obstacle_queue.c), for add/move and for
 * the update's dirty marking. Entries are sorted by (tile z, tile x, layer). */

/// Tile rectangle [x0, x1] x [z0, z1] (XZ) holding any point of the
/// bounds, clamped to the cache's grid; false when it is empty.
bool wf_tilecache_tile_range(const wf_tilecache* tc, const float bmin[3], const float bmax[3],
                             int32_t* out_x0, int32_t* out_z0, int32_t* out_x1, int32_t* out_z1);
/// Entries [*out_first, *out_end) whose tile is (x0..x1, z): contiguous.
void wf_tilecache_row_entries(const wf_tilecache* tc, int32_t z, int32_t x0, int32_t x1,
                              uint32_t* out_first, uint32_t* out_end);
/// True when a stamp with these bounds can change a cell of this layer: XZ
/// overlap with the layer's cells and a floor height of the layer inside
/// [bmin[1], bmax[1]].
bool wf_tilecache_bounds_touch_layer(const wf_tilecache_entry* entry, const float bmin[3],
                                     const float bmax[3]);
/// True when the bounds cover (XZ) a tile that holds at least one layer.
bool wf_tilecache_bounds_touch_tiles(const wf_tilecache* tc, const float bmin[3],
                                     const float bmax[3]);

/// Finite, positive sizes and every limit the build relies on.
/// Tile blobs and their staging are 16-byte aligned (the tile format's sections).
#define WF_TILECACHE_BLOB_ALIGN 16u

bool wf_tilecache_params_valid(const wf_tilecache_params* params);
/// NULL when the params are valid, else what is wrong, naming the setting.
const char* wf_tilecache_params_problem(const wf_tilecache_params* params);
/// Finite world bounds within +-WF_TILECACHE_MAX_COORD (what a build and a
/// cache file may have).
bool wf_tilecache_bounds_within_limits(wf_vec3 bmin, wf_vec3 bmax);
/// True when the params leave the world bounds to the input.
bool wf_tilecache_bounds_unset(const wf_tilecache_params* params);
/// Scratch per worker for layer -> tile builds: 64 KiB for tiles up to
/// 48 x 48 cells keeps each worker's memory small and fixed; larger tiles
/// get it scaled by their cells (a 255 x 255 layer alone is 190 KiB
/// decompressed).
#define WF_TILECACHE_WORKER_SCRATCH ((size_t)64 << 10)
#define WF_TILECACHE_WORKER_SCRATCH_CELLS ((size_t)48 * 48)
/// Scratch that builds any layer of this tile size, however hostile.
size_t wf_tilecache_full_scratch_bytes(uint32_t tile_size);

/* The per-layer rebuild (layer_rebuild.c), which the navmesh pass and
 * updates share. */

/// Decompresses layer `index` into `arena` (reset first), stamps the given
/// obstacles into that copy and builds its tile blob into out (as
/// wf_layer_build_tile). Reads only data that stays fixed between builds
/// (entries, params, codec), so it runs on any worker.
/// links (link_count of them, starting in this layer) become the tile's
/// off-mesh links.
wf_status wf_tilecache_rebuild_layer(const wf_tilecache* tc, uint32_t index,
                                     const wf_obstacle_stamp* stamps, uint32_t stamp_count,
                                     const wf_offmesh_link_desc* links, uint32_t link_count,
                                     wf_arena* arena, void* out, size_t capacity, size_t* out_size);

/* Off-mesh links (offmesh_links.c). */

/// Copies the links stored with entry `index` into out (room for
/// WF_TILECACHE_MAX_LINKS_PER_LAYER), in user_id order; returns how many.
uint32_t wf_tilecache_gather_links(const wf_tilecache* tc, uint32_t index,
                                   wf_offmesh_link_desc* out);
/// Frees the link table (destroy).
void wf_tilecache_free_links(wf_tilecache* tc);
/// Checks one link desc: WF_OK or WF_ERR_INVALID_ARG (no log).
wf_status wf_tilecache_link_desc_check(const wf_offmesh_link_desc* d);
/// Puts links into the table as wf_tilecache_add_links does (loading and
/// generation use it on their own lists; the log names a refused link).
wf_status wf_tilecache_insert_links(wf_tilecache* tc, const wf_offmesh_link_desc* links,
                                    uint32_t count);
/// Marks the layer dirty for the next update (links added or removed).
/// Makes the per-layer state when the navmesh was built but no update ran.
void wf_tilecache_dirty_layer(wf_tilecache* tc, uint32_t index);
/// The per-layer state (update.c): made by the first update after a build,
/// or the first link change.
wf_status wf_tilecache_make_layer_states(wf_tilecache* tc);
/// Where a point lands: the entry of the nearest layer of its tile with a
/// walkable cell within radius (XZ) and max(climb, radius) (Y).
bool wf_tilecache_find_landing(const wf_tilecache* tc, wf_vec3 pos, float radius,
                               uint32_t* out_entry);
/// Slots of the live obstacles whose add an update has applied, in slot
/// order, into out (room for max_obstacles; NULL only counts them).
uint32_t wf_tilecache_list_applied(const wf_tilecache* tc, uint32_t* out);
/// Copies the stamps of the listed obstacles that touch layer `index` into
/// out (room for slot_count), in list order; returns how many.
uint32_t wf_tilecache_gather_stamps(const wf_tilecache* tc, const uint32_t* slots,
                                    uint32_t slot_count, uint32_t index, wf_obstacle_stamp* out);

/// Before the entries are replaced (a new build) or freed (destroy):
/// waits for builds in flight, which read the entries, drops their results
/// and frees the per-layer state (update.c; made again by the next update).
/// Tiles that updates committed live in that state: they must be out of
/// every mesh by then.
void wf_tilecache_release_layer_states(wf_tilecache* tc);
/// Waits for the builds in flight and forgets them (their layers stay dirty).
void wf_tilecache_drop_builds(wf_tilecache* tc);
/// Frees per-layer state arrays (any of them NULL), e.g. ones set aside.
void wf_tilecache_free_layer_states(const wf_allocator* a, wf_layer_state* states, uint32_t count,
                                    wf_tilecache_changed_tile* changed, uint32_t* tile_first,
                                    size_t tile_first_count);
/// Bytes of the per-layer state (update.c).
size_t wf_tilecache_layer_state_bytes(const wf_tilecache* tc);

/// Info of a decompressed layer (XZ of its tile, Y of its floors;
/// tilecache.c).
void wf_tilecache_layer_info_from(const wf_layer* layer, uint32_t raw_bytes,
                                  uint32_t compressed_bytes, wf_tilecache_layer_info* out);
/// The entry of a layer: its info as above and the bounds of its cells
/// (data left NULL).
void wf_tilecache_entry_from(const wf_layer* layer, uint32_t raw_bytes, uint32_t compressed_bytes,
                             wf_tilecache_entry* out);

/// Frees entries[0..count) and the array itself.
void wf_tilecache_free_entries(const wf_allocator* allocator, wf_tilecache_entry* entries,
                               uint32_t count);

#endif
