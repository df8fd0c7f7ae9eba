// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
/*
 * Tile cache: a level kept as LZ4-compressed 2D heightfield layers, one or
 * more per tile, from which navmesh tiles are built on demand.
 *
 *     wf_geom_data* level;                              // or a grid / voxels
 *     wf_geom_load_obj(text, size, &(wf_geom_load_desc){0}, &level);
 *     wf_tilecache_desc d = {.params = wf_tilecache_params_recast_demo()};
 *     wf_tilecache* tc;
 *     wf_tilecache_create(&d, &tc);
 *     wf_tilecache_build_geom(tc, wf_geom_data_view(level), NULL, 0);
 *     wf_mesh* mesh;
 *     wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
 *     wf_mesh_create(&md, &mesh);
 *     wf_tilecache_build_navmesh(tc, mesh);             // every layer -> a tile
 *
 * Build (offline or at load): per tile with a border, triangles are
 * rasterized into a span heightfield; walkable slope, low-hanging obstacles,
 * ledges and low ceilings are filtered; the walkable area is eroded by the
 * agent radius; convex volumes paint area ids; the result is split into 2D
 * layers (at most 255 x 255 cells, never overlapping themselves vertically:
 * bridges and floors give several layers per tile), each serialized and
 * compressed. Tiles build in parallel on the desc's job system; the output
 * is identical for any worker count.
 *
 * Layer -> navmesh tile: decompress into a per-worker scratch arena of fixed
 * size, partition into regions, trace and simplify contours, triangulate
 * into convex polygons, mark portal edges on the tile border, write a tile
 * blob. No heap allocation in that step.
 *
 * Threads: a wf_tilecache is used by one thread at a time; it runs its own
 * parallel loops on the desc's job system.
 */
#ifndef WAYFARER_TILECACHE_H
#define WAYFARER_TILECACHE_H

#include "wayfarer/base.h"
#include "wayfarer/jobs.h"
#include "wayfarer/navmesh.h"
#include "wayfarer/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------
 * Input: triangles, 2D grids, voxel worlds
 */

/// A triangle mesh (a view: the arrays belong to the caller).
typedef struct wf_geom {
    const float* verts; ///< vert_count * 3 (x, y, z)
    uint32_t vert_count;
    const uint32_t* tris; ///< tri_count * 3 vertex indices, counter-clockwise seen from above
    uint32_t tri_count;
    const uint8_t* tri_areas; ///< optional area id per triangle (0..63); NULL = all 0
    /// Optional off-mesh links the build attaches (as wf_tilecache_add_links
    /// would, after the layers are built; a bad link fails the build with
    /// add_links' status and leaves the cache as it was). NULL/0 = none.
    const wf_offmesh_link_desc* links;
    uint32_t link_count;
} wf_geom;

/// A loaded triangle mesh that owns its arrays.
typedef struct wf_geom_data wf_geom_data;

/// Longest area name (bytes, without the NUL).
#define WF_AREA_NAME_MAX 63u

/// An area type of a level by name (water, road, mud): the triangles of
/// the OBJ faces under `usemtl NAME` or `g NAME` get `area`, and that
/// area's polygons get `flags` (wf_tilecache_params_set_areas copies them
/// into the params, so a query filter can include or exclude them).
typedef struct wf_area_name {
    const char* name; ///< NUL-terminated, 1..WF_AREA_NAME_MAX bytes, no blanks
    uint8_t area;     ///< 0..63
    uint16_t flags;   ///< polygon flags of the area; 0 = 1 (every table row
                      ///< naming one area must agree on them)
} wf_area_name;

typedef struct wf_geom_load_desc {
    wf_allocator allocator;
    wf_logger logger; ///< errors name the line
    /// OBJ names -> areas (copied during the load; NULL with count 0 = every
    /// triangle area 0, as without a table). Duplicate names, an empty or
    /// blank-holding name, an area above 63, or one area given two flag
    /// values: WF_ERR_INVALID_ARG naming the row.
    const wf_area_name* area_names;
    uint32_t area_name_count;
    /// A face with a material or group none of whose names is in the table
    /// (an "unknown name") fails with WF_ERR_BAD_DATA naming the line and the
    /// name; false: it gets area 0 and a warning names it (once per
    /// `usemtl`/`g` line, at most 16 warnings per load).
    bool reject_unknown_names;
} wf_geom_load_desc;

/// Wavefront OBJ: `v` and `f` lines (polygons fanned, negative indices,
/// `v/vt/vn` forms), comments, CRLF; `usemtl` and `g` names pick each
/// face's area from the desc's table (the material's row first, then the
/// first of the face's groups with a row, else area 0); other lines
/// ignored. The text need not be NUL-terminated. WF_ERR_BAD_DATA (the log
/// names the line). Any thread (no shared state).
WF_NODISCARD WF_API wf_status wf_geom_load_obj(const char* text, size_t size,
                                               const wf_geom_load_desc* desc, wf_geom_data** out);
WF_API void wf_geom_data_destroy(wf_geom_data* geom);
WF_API wf_geom wf_geom_data_view(const wf_geom_data* geom);
/// Bounds of the vertices; false for an empty or non-finite mesh.
WF_API bool wf_geom_bounds(const wf_geom* geom, wf_vec3* out_min, wf_vec3* out_max);

/// A 2D walkable grid: cell (x, z) covers [origin.x + x * cell_size, ...).
typedef struct wf_grid {
    uint32_t width, depth;
    float cell_size;
    wf_vec3 origin;
    const uint8_t* walkable;           ///< width * depth, row-major by z; non-zero = walkable
    const float* heights;              ///< optional surface y per cell; NULL = origin.y
    const uint8_t* areas;              ///< optional area id per cell; NULL = 0
    const wf_offmesh_link_desc* links; ///< optional links the build attaches, as wf_geom's
    uint32_t link_count;
} wf_grid;

/// A loaded grid that owns its arrays (Moving AI .map files).
typedef struct wf_grid_data wf_grid_data;

/// Moving AI .map: `type`, `height`, `width`, `map`, then rows; '.', 'G'
/// and 'S' walkable, everything else blocked. Row y of the file is z.
WF_NODISCARD WF_API wf_status wf_grid_load_movingai(const char* text, size_t size, float cell_size,
                                                    const wf_geom_load_desc* desc,
                                                    wf_grid_data** out);
WF_API void wf_grid_data_destroy(wf_grid_data* grid);
WF_API wf_grid wf_grid_data_view(const wf_grid_data* grid);

/// A voxel world of cubes: solid[x + z * size_x + y * size_x * size_z].
/// The top of a solid cube with enough free space above is walkable; a
/// step of one cube is climbable when the agent's climb allows it.
typedef struct wf_voxels {
    uint32_t size_x, size_y, size_z;
    float cube_size;
    wf_vec3 origin;
    const uint8_t* solid;
    const uint8_t* areas;              ///< optional area id of the top of each cube
    const wf_offmesh_link_desc* links; ///< optional links the build attaches, as wf_geom's
    uint32_t link_count;
} wf_voxels;

/// A convex volume that paints an area id during the build (water, roads).
typedef struct wf_convex_volume {
    const wf_vec3* verts; ///< convex outline on XZ (y ignored), 3..32 points
    uint32_t vert_count;
    float min_y, max_y;
    uint8_t area;
} wf_convex_volume;

/// True when a volume's outline (XZ, y ignored) is what the build accepts:
/// 3..32 finite points, strictly convex in either winding (no repeated
/// point, no three in a line, not self-crossing). For tools that read
/// volumes from files and want to name the bad row before building.
WF_API bool wf_convex_outline_valid(const wf_vec3* points, uint32_t count);

/* ---------------------------------------------------------------------------
 * Parameters, codec, cache
 */

typedef struct wf_tilecache_params {
    float cell_size;                ///< XZ voxel size (m); required
    float cell_height;              ///< Y voxel size (m); required
    float agent_height;             ///< m
    float agent_radius;             ///< m; the walkable area is eroded by it
    float agent_climb;              ///< m
    float agent_max_slope;          ///< degrees
    uint32_t tile_size;             ///< cells per tile side, 1..255
    uint32_t min_region_area;       ///< cells; smaller isolated regions are dropped
    uint32_t merge_region_area;     ///< cells; smaller regions merge into neighbours
    float max_edge_length;          ///< m; contour edges are split above it (0 = no limit)
    float max_simplification_error; ///< cells; contour simplification tolerance
    uint32_t max_verts_per_poly;    ///< 3..WF_MAX_VERTS_PER_POLY
    wf_vec3 bmin, bmax;             ///< world bounds; all zero = the input's bounds
    /// Polygon flags of each area id (0 = 1, so all zero is one flag for
    /// every polygon): the navmesh tiles' polygons get their area's flags,
    /// so a filter's include/exclude flags can keep agents off an area.
    /// Saved in the cache file; kept by obstacle rebuilds and loads.
    uint16_t area_flags[WF_MAX_AREAS];
} wf_tilecache_params;

/// Limits on the sizes derived from the params, so every one stays finite:
/// tile_size x cell_size is below WF_MAX_TILE_WIDTH, cell_height and every
/// coordinate of the world bounds (the params' or the input's) at most
/// WF_TILECACHE_MAX_COORD, and the bounds need at most
/// WF_TILECACHE_MAX_TILES tiles. Params beyond them are refused by create
/// (WF_ERR_INVALID_ARG, the setting named in the log); a cache file with
/// them is WF_ERR_BAD_DATA.
#define WF_TILECACHE_MAX_COORD 1e30f
#define WF_TILECACHE_MAX_TILES (1u << 22)

/// Defaults of the build limits in wf_tilecache_desc, sized from the real
/// levels in the test data (docs/reliability.md lists their figures): the
/// largest needs a few hundred tiles, a few million cells, under a million
/// triangle references and a few MiB of navmesh with the demo settings, so
/// each default leaves about a hundred times that while a refused input
/// costs milliseconds: 65,536 tiles (256 x 256), 2^28 cells, 2^24 triangle
/// references (64 MiB of lists) and 256 MiB of navmesh tiles.
#define WF_TILECACHE_DEFAULT_MAX_TILES 65536u
#define WF_TILECACHE_DEFAULT_MAX_CELLS ((uint64_t)1 << 28)
#define WF_TILECACHE_DEFAULT_MAX_TRIANGLE_REFS (1u << 24)
#define WF_TILECACHE_DEFAULT_MAX_NAVMESH_BYTES ((uint64_t)256 << 20)

/// The Recast demo's settings: cell 0.3/0.2, agent 2.0/0.6/0.9, slope 45,
/// tile 48, region min 8, merge 20, edge 12, error 1.3, 6 verts per poly.
WF_API wf_tilecache_params wf_tilecache_params_recast_demo(void);

/// Sets params->area_flags from an area name table (wf_geom_load_desc's):
/// each row's area gets the row's flags (0 = 1); areas no row names keep
/// theirs. WF_ERR_INVALID_ARG, params unchanged, for a table the loader
/// refuses (the logger, which may be NULL, names the row). Any thread.
WF_NODISCARD WF_API wf_status wf_tilecache_params_set_areas(wf_tilecache_params* params,
                                                            const wf_area_name* names,
                                                            uint32_t count,
                                                            const wf_logger* logger);

/// Compressor for layers. All zero = LZ4 with a cheap pre-filter.
typedef struct wf_layer_codec {
    /// Worst-case output size for an input of `size` bytes.
    size_t (*max_compressed_size)(size_t size, void* user);
    /// Returns WF_OK and *out_size, or WF_ERR_CAPACITY if out is too small.
    wf_status (*compress)(const void* in, size_t in_size, void* out, size_t out_capacity,
                          size_t* out_size, void* user);
    /// Must reproduce exactly `out_size` bytes, else WF_ERR_BAD_DATA.
    wf_status (*decompress)(const void* in, size_t in_size, void* out, size_t out_size, void* user);
    uint32_t id; ///< stored in cache files; loading with another codec fails
    void* user;
} wf_layer_codec;

typedef struct wf_tilecache wf_tilecache;

/// Default and most off-mesh links one cache holds, and most links whose
/// start lies in one layer (they become that layer's tile's link
/// polygons: with the polygons they stay below the tile's limits).
#define WF_TILECACHE_DEFAULT_MAX_LINKS 4096u
#define WF_TILECACHE_MAX_LINKS (1u << 24)
#define WF_TILECACHE_MAX_LINKS_PER_LAYER 256u

/// Most live obstacles one tile cache can hold: far above what a level
/// needs, and it keeps the obstacle arrays (sized at creation) bounded.
#define WF_TILECACHE_MAX_OBSTACLES (1u << 24)

typedef struct wf_tilecache_desc {
    wf_tilecache_params params;
    wf_layer_codec codec;
    wf_job_system jobs;            ///< builds run on it; zero = inline
    uint32_t max_layers;           ///< layers the cache may hold; 0 = grow as needed during builds
    uint32_t max_obstacles;        ///< live obstacles; 0 = 1024, at most WF_TILECACHE_MAX_OBSTACLES
    uint32_t max_pending_requests; ///< obstacle adds/removes/moves queued between updates; 0 = 256
    uint32_t max_builds_in_flight; ///< layer rebuilds running at once; 0 = 2 x workers
    /* What one build may cost, so hostile input (a 58-byte OBJ of a 30 km
     * square, a triangle repeated a thousand times, a cache file of layers
     * whose areas alternate per cell) is refused with WF_ERR_CAPACITY
     * before the work instead of running for minutes. 0 = the default;
     * the log names the limit and the figure. */
    /// Tiles one build covers (tiles_x x tiles_z of its bounds), also the
    /// tile grid a loaded cache file may have; 0 = WF_TILECACHE_DEFAULT_MAX_TILES,
    /// at most WF_TILECACHE_MAX_TILES.
    uint32_t max_tiles;
    /// Cells one build covers (tiles x (tile_size + 2 x border)^2), and for
    /// triangles also the cells it rasterizes (each triangle's box cells in
    /// each tile square it overlaps, clamped to the square: a build
    /// rasterizes every cell once, a tile's border comes from its
    /// neighbours); 0 = WF_TILECACHE_DEFAULT_MAX_CELLS.
    uint64_t max_cells;
    /// Pairs of a triangle and a tile square (or border strip past the
    /// grid) it overlaps that a triangle build bins (4 bytes each); 0 =
    /// WF_TILECACHE_DEFAULT_MAX_TRIANGLE_REFS.
    uint32_t max_triangle_refs;
    /// Bytes of navmesh tile blobs one wf_tilecache_build_navmesh makes (the
    /// mesh memory it adds); 0 = WF_TILECACHE_DEFAULT_MAX_NAVMESH_BYTES.
    uint64_t max_navmesh_bytes;
    /// Off-mesh links the cache holds (wf_tilecache_add_links, generated
    /// ones, a loaded file's); 0 = WF_TILECACHE_DEFAULT_MAX_LINKS, at most
    /// WF_TILECACHE_MAX_LINKS. The table grows with the adds (doubling,
    /// from 64): an add that passes its room allocates, one within it not.
    uint32_t max_links;
    wf_allocator allocator;
    wf_logger logger;
} wf_tilecache_desc;

/// The desc with every field left zero set to its default (NULL: all
/// defaults): the LZ4 codec, the capacities and limits above (builds in
/// flight from the job system's worker count). params have none.
WF_API wf_tilecache_desc wf_tilecache_desc_defaults(const wf_tilecache_desc* desc);
/// Errors: WF_ERR_INVALID_ARG (params out of range or a desc rule broken:
/// the logger names which), WF_ERR_OUT_OF_MEMORY.
WF_NODISCARD WF_API wf_status wf_tilecache_create(const wf_tilecache_desc* desc,
                                                  wf_tilecache** out);
WF_API void wf_tilecache_destroy(wf_tilecache* tc);

/// What a build over these world bounds covers (the params' bounds when set
/// replace them, as in a build).
typedef struct wf_tilecache_build_plan {
    uint32_t tiles_x, tiles_z;
    uint64_t tiles;
    uint64_t cells; ///< tiles x (tile_size + 2 x border)^2
} wf_tilecache_build_plan;

/// Fills *out for a build over [bmin, bmax] without doing any of it, so a
/// tool can say what it is about to build. WF_ERR_CAPACITY when it is more
/// than the desc's max_tiles or max_cells (out is still filled; the log
/// names the limit), WF_ERR_INVALID_ARG for bounds no build takes (not
/// finite, beyond WF_TILECACHE_MAX_COORD or WF_TILECACHE_MAX_TILES).
WF_NODISCARD WF_API wf_status wf_tilecache_plan_build(const wf_tilecache* tc, wf_vec3 bmin,
                                                      wf_vec3 bmax, wf_tilecache_build_plan* out);

/// Builds every tile from triangles (replacing what the cache held).
/// WF_ERR_INVALID_ARG (bad geometry or params), WF_ERR_OUT_OF_MEMORY,
/// WF_ERR_CAPACITY (more layers than max_layers, or more than max_tiles,
/// max_cells or max_triangle_refs: refused before any tile is built).
/// A non-convex volume (or one whose outline turns both ways or repeats a
/// point) is WF_ERR_INVALID_ARG, the log naming its index. Links in the
/// input give add_links' statuses (a non-finite end or more than max_links
/// are refused before any tile is built); on any failure the cache is as
/// it was.
WF_NODISCARD WF_API wf_status wf_tilecache_build_geom(wf_tilecache* tc, wf_geom geom,
                                                      const wf_convex_volume* volumes,
                                                      uint32_t volume_count);
WF_NODISCARD WF_API wf_status wf_tilecache_build_grid(wf_tilecache* tc, wf_grid grid);
WF_NODISCARD WF_API wf_status wf_tilecache_build_voxels(wf_tilecache* tc, wf_voxels voxels);

/// A mesh desc whose tile grid matches the cache (origin, tile size).
WF_API wf_mesh_desc wf_tilecache_mesh_desc(const wf_tilecache* tc);
/// True when mesh lies on the cache's tile grid (origin and tile size, as
/// from wf_tilecache_mesh_desc), checked at the first and last layer's
/// tile: the meshes build_navmesh and update accept. Use it on a mesh that
/// was loaded or made apart from the cache. A cache with no layers matches
/// any mesh; false when either is NULL. Reads both: not during an update.
WF_API bool wf_tilecache_mesh_matches(const wf_tilecache* tc, const wf_mesh* mesh);

/// Builds a navmesh tile from every layer and adds it to mesh (parallel over
/// layers; tiles are added in layer order, so the mesh is the same for any
/// worker count). Existing tiles at the same cell and layer are replaced.
/// WF_ERR_CAPACITY, mesh unchanged, when the tiles would take more than
/// the desc's max_navmesh_bytes (layers are built in bounded scratch and
/// counted before their blob is allocated; building stops once it is over).
WF_NODISCARD WF_API wf_status wf_tilecache_build_navmesh(wf_tilecache* tc, wf_mesh* mesh);

typedef struct wf_tilecache_layer_info {
    int32_t tile_x, tile_z, layer;
    uint32_t width, depth; ///< cells
    uint32_t walkable_cells;
    uint32_t raw_bytes; ///< serialized, before compression
    uint32_t compressed_bytes;
    wf_vec3 bmin, bmax;
} wf_tilecache_layer_info;

typedef struct wf_tilecache_stats {
    uint32_t tile_count; ///< tiles with at least one layer
    uint32_t layer_count;
    uint64_t raw_bytes;
    uint64_t compressed_bytes;
    uint64_t walkable_cells;
    double walkable_area;    ///< m^2, cells * cell_size^2
    double build_ms;         ///< last build, wall clock
    uint64_t build_cells;    ///< last build: cells of its tiles (with borders)
    uint64_t triangle_refs;  ///< last triangle build: triangle-square pairs binned
    uint64_t triangle_cells; ///< last triangle build: cells under the binned pairs
    /// Layer -> tile scratch arena size: 64 KiB up to 48 x 48 tiles, scaled
    /// by the cells above (1.8 MiB at 255 x 255).
    size_t scratch_bytes_per_worker;
    uint32_t oversize_layers; ///< last navmesh pass: layers that needed more scratch
                              ///< (built serially in a temporary full-size arena)
    size_t memory_bytes;
} wf_tilecache_stats;

WF_API wf_tilecache_stats wf_tilecache_get_stats(const wf_tilecache* tc);
WF_API uint32_t wf_tilecache_layer_count(const wf_tilecache* tc);
WF_NODISCARD WF_API wf_status wf_tilecache_get_layer_info(const wf_tilecache* tc, uint32_t index,
                                                          wf_tilecache_layer_info* out);
/// The tile blob of one layer, built into a caller buffer (the tile cache's
/// own pipeline; useful for tools and tests). out_size gets the blob size;
/// WF_ERR_CAPACITY if buffer_size is too small (out_size says how much).
WF_NODISCARD WF_API wf_status wf_tilecache_build_tile(wf_tilecache* tc, uint32_t layer_index,
                                                      void* buffer, size_t buffer_size,
                                                      size_t* out_size);
WF_API const wf_tilecache_params* wf_tilecache_get_params(const wf_tilecache* tc);

/// Cache file: magic, version, params, codec id, every compressed layer,
/// checksums. Loading validates everything (WF_ERR_BAD_DATA, WF_ERR_VERSION).
WF_NODISCARD WF_API wf_status wf_tilecache_save_size(const wf_tilecache* tc, size_t* out_size);
WF_NODISCARD WF_API wf_status wf_tilecache_save(const wf_tilecache* tc, void* out, size_t size);
/// desc supplies codec, jobs, allocator, logger and limits (its params are
/// replaced by the file's); a file whose tile grid is more than max_tiles
/// is WF_ERR_CAPACITY.
WF_NODISCARD WF_API wf_status wf_tilecache_load(const wf_tilecache_desc* desc, const void* data,
                                                size_t size, wf_tilecache** out);

/* ---------------------------------------------------------------------------
 * Temporary obstacles and budgeted updates (run time)
 *
 * Obstacles change the navmesh tiles rebuilt from the cached layers, never
 * the layers themselves. add/remove/move only queue a request (cheap, any
 * time, from the thread that owns the cache); wf_tilecache_update applies
 * the requests, rebuilds the layers they touch on the job system and
 * commits finished tiles into the mesh within a per-call budget. Builds
 * still running when a call's budget ends go on in the background and are
 * committed by a later call.
 */

typedef struct wf_obstacle_id {
    uint64_t bits;
} wf_obstacle_id;

typedef enum wf_obstacle_shape {
    WF_OBSTACLE_CYLINDER = 0,     ///< upright: position = base centre, radius, height
    WF_OBSTACLE_BOX = 1,          ///< axis-aligned: position = centre, half_extents
    WF_OBSTACLE_ORIENTED_BOX = 2, ///< box turned by yaw about Y: position = centre, half_extents
    WF_OBSTACLE_PRISM = 3,        ///< convex outline on XZ extruded from position.y by height
} wf_obstacle_shape;

/// Most outline points of a prism obstacle.
#define WF_OBSTACLE_MAX_VERTS 32u

typedef struct wf_obstacle_desc {
    wf_obstacle_shape shape;
    /// false: the cells under it become unwalkable (carve); true: they get
    /// `area` (mud, water, a closed door) and the query filter decides.
    bool paint;
    uint8_t area; ///< 0..63, for paint
    wf_vec3 position;
    float radius;                         ///< cylinder
    float height;                         ///< cylinder, prism (m, > 0)
    wf_vec3 half_extents;                 ///< boxes
    float yaw;                            ///< oriented box, radians
    wf_vec3 verts[WF_OBSTACLE_MAX_VERTS]; ///< prism outline (x, z; y ignored), convex
    uint32_t vert_count;                  ///< prism: 3..WF_OBSTACLE_MAX_VERTS
} wf_obstacle_desc;

/// Queues a new obstacle; the id is valid at once. Every obstacle is
/// widened by the agent radius the cache was built for. WF_ERR_INVALID_ARG
/// (bad shape, NaN), WF_ERR_NOT_FOUND (it touches no tile of the cache:
/// nothing is kept), WF_ERR_CAPACITY (max_obstacles live, or the request
/// queue is full: call wf_tilecache_update first; nothing is kept).
WF_NODISCARD WF_API wf_status wf_tilecache_add_obstacle(wf_tilecache* tc,
                                                        const wf_obstacle_desc* desc,
                                                        wf_obstacle_id* out_id);
/// Queues its removal; the id is stale at once. WF_ERR_STALE_REF,
/// WF_ERR_WRONG_KIND, WF_ERR_CAPACITY (queue full: nothing changes).
WF_NODISCARD WF_API wf_status wf_tilecache_remove_obstacle(wf_tilecache* tc, wf_obstacle_id id);
/// Replaces an obstacle's shape and place, keeping its id (a remove + add
/// in one request). Same errors as add and remove.
WF_NODISCARD WF_API wf_status wf_tilecache_move_obstacle(wf_tilecache* tc, wf_obstacle_id id,
                                                         const wf_obstacle_desc* desc);
/// The desc an obstacle was last given. WF_ERR_STALE_REF.
WF_NODISCARD WF_API wf_status wf_tilecache_get_obstacle(const wf_tilecache* tc, wf_obstacle_id id,
                                                        wf_obstacle_desc* out);
WF_API uint32_t wf_tilecache_obstacle_count(const wf_tilecache* tc);
/// Debug API (drawing obstacles): up to max live obstacle ids in slot
/// order (stable between calls while none is added or removed); returns
/// how many are live in all (wf_tilecache_obstacle_count). Read each one's
/// shape with wf_tilecache_get_obstacle. A NULL cache gives 0; out may be
/// NULL when max is 0 (count only).
WF_API uint32_t wf_tilecache_get_obstacles(const wf_tilecache* tc, wf_obstacle_id* out,
                                           uint32_t max);

typedef struct wf_tilecache_budget {
    uint32_t max_time_us; ///< caller's time in this call; 0 = no limit
    uint32_t max_commits; ///< tiles committed into the mesh per call; 0 = no limit
} wf_tilecache_budget;

/// A tile replaced (or removed) by an update.
typedef struct wf_tilecache_changed_tile {
    int32_t tile_x, tile_z, layer;
    wf_tile_ref old_tile; ///< the removed tile (its poly refs are stale now), or null
    wf_tile_ref new_tile; ///< the tile added, or null when the layer has no polygon now
} wf_tilecache_changed_tile;

typedef struct wf_tilecache_update_result {
    bool up_to_date; ///< every request applied and every tile committed
    uint32_t requests_applied;
    uint32_t layers_rebuilt; ///< builds finished during this call
    uint32_t tiles_committed;
    uint32_t builds_in_flight; ///< still running in the background
    uint32_t layers_pending;   ///< waiting for a build slot or a later call
    double time_us;            ///< this call's own time
    /// Tiles changed by this call, valid until the next update, build or destroy.
    const wf_tilecache_changed_tile* changed;
    uint32_t changed_count;
} wf_tilecache_update_result;

/// Applies queued obstacle requests and rebuilds and commits the tiles they
/// touch, within the budget (the caller's time may exceed max_time_us by at
/// most one layer's build). mesh must be the one wf_tilecache_build_navmesh
/// filled. Tiles committed here live in the cache's blob slots: remove them
/// from the mesh, or destroy the mesh, before destroying the cache.
/// Steady state allocates nothing.
WF_NODISCARD WF_API wf_status wf_tilecache_update(wf_tilecache* tc, wf_mesh* mesh,
                                                  const wf_tilecache_budget* budget,
                                                  wf_tilecache_update_result* out);

/* ---------------------------------------------------------------------------
 * Off-mesh links (jump-downs, ladders, gaps, teleports, doors)
 *
 * Links are part of the cache: each is stored with the layer its start
 * lands in and becomes an off-mesh link of that layer's tile every time
 * the tile is built (wf_tilecache_build_navmesh, an obstacle's update),
 * so obstacle rebuilds of either end's tile keep it; its end attaches to
 * the tile it lands in when either tile is added (docs/navmesh.md). They
 * are saved in the cache file (and so with the world). A link's user_id
 * is its id in the cache: unique, the key to remove it, and what straight
 * paths and the crowd report when an agent takes it.
 *
 * An end "lands" in a layer when a walkable cell of the layer lies within
 * the link's radius (XZ, at least the cell under it) and within
 * max(agent climb, radius) of the end's height. The start picks the
 * nearest such layer of its tile, the end any layer of its tile, which
 * must be the start's tile or one of the 8 around it.
 *
 * A build (build_geom, grid, voxels) replaces the layers and drops every
 * link: add them after the build, or give them in the build input
 * (wf_geom, wf_grid, wf_voxels links), which lands them on the new layers
 * with add_links' checks and statuses; a bad one fails the build and
 * leaves the cache (layers, links, obstacles' state) as it was. Adds and removes mark the start's layer
 * dirty; wf_tilecache_update rebuilds it and lists the tile in its changed
 * tiles, which is how the crowd hears of it (links added before
 * wf_tilecache_build_navmesh are in its tiles, and the first update builds
 * their layers once more: the cache does not know which mesh it updates).
 * Same thread rule as obstacles: the thread that owns the cache.
 */

/// Adds links (all or none): each checked and landed as above, then kept
/// in user_id order. Errors: WF_ERR_INVALID_ARG (NaN or infinite ends, a
/// negative or non-finite radius, area above 63, an end beyond the tiles
/// around the start's: the log names the link), WF_ERR_NOT_FOUND (an end
/// off every layer: the log names it), WF_ERR_BUSY (a user_id already in
/// the cache or twice in the list), WF_ERR_CAPACITY (more than max_links,
/// or more than WF_TILECACHE_MAX_LINKS_PER_LAYER starting in one layer),
/// WF_ERR_OUT_OF_MEMORY. Nothing is kept on failure.
WF_NODISCARD WF_API wf_status wf_tilecache_add_links(wf_tilecache* tc,
                                                     const wf_offmesh_link_desc* links,
                                                     uint32_t count);
/// Removes the link with this user_id. WF_ERR_NOT_FOUND when there is none.
WF_NODISCARD WF_API wf_status wf_tilecache_remove_link(wf_tilecache* tc, uint32_t user_id);
/// Links in the cache (a NULL cache: 0).
WF_API uint32_t wf_tilecache_link_count(const wf_tilecache* tc);
/// Link `index` (0 .. link_count - 1, in user_id order): its desc as added,
/// and optionally where its start is stored. WF_ERR_NOT_FOUND past the end.
WF_NODISCARD WF_API wf_status wf_tilecache_get_link(const wf_tilecache* tc, uint32_t index,
                                                    wf_offmesh_link_desc* out,
                                                    wf_tilecache_layer_info* out_start_layer);

/// Links found in the layers (wf_tilecache_generate_links). Zero fields
/// take the default named; a kind with max 0 after defaults is off.
typedef struct wf_link_generation_desc {
    /// Drop-downs: from a walkable edge down to walkable ground at most
    /// this far below (m) and more than the agent climb below; 0 = 2 x
    /// agent height; negative = no drop-downs.
    float max_drop;
    /// Jumps across gaps: the landing at most this far (m, XZ) from the
    /// edge and at most max_jump_height above or below; 0 = no jumps.
    float max_jump_distance;
    float max_jump_height; ///< m; 0 = the agent climb
    /// Least distance (m) between the starts of two links of one kind in
    /// one layer; 0 = 4 x agent radius (at least 2 cells).
    float spacing;
    float radius;                    ///< links' radius (m); 0 = agent radius (at least 2 cells)
    uint8_t drop_area, jump_area;    ///< 0..63
    uint16_t drop_flags, jump_flags; ///< 0 = 1
    /// user_id of the first generated link, the next ones counting up;
    /// 0 = 0x40000000. Ids taken already are WF_ERR_BUSY.
    uint32_t first_user_id;
} wf_link_generation_desc;

typedef struct wf_link_generation_result {
    uint32_t drops, jumps; ///< links added
    uint32_t skipped;      ///< candidates left out: their layer was full
} wf_link_generation_result;

/// Finds drop-downs and jumps in the stored layers and adds them as
/// wf_tilecache_add_links would (one-way links, start on the upper or
/// near edge). Deterministic: layers, cells and directions in order.
/// Limits (docs/tilecache.md "Generated links"): the layers keep walkable
/// ground only, so the arc is not tested for walls, a wall thinner than
/// the jump distance less two agent radii looks like a gap, and edges on
/// tile borders are not searched. WF_ERR_INVALID_ARG (a NaN or negative
/// field, area above 63), WF_ERR_CAPACITY (more than max_links),
/// WF_ERR_BUSY (an id taken), WF_ERR_OUT_OF_MEMORY. out may be NULL.
WF_NODISCARD WF_API wf_status wf_tilecache_generate_links(wf_tilecache* tc,
                                                          const wf_link_generation_desc* desc,
                                                          wf_link_generation_result* out);

#ifdef __cplusplus
}
#endif

#endif // WAYFARER_TILECACHE_H
