// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
/*
 * Navmesh: convex polygons on a grid of tiles, plus off-mesh links.
 *
 * A tile is one contiguous, relocatable blob (offsets, no pointers) made by
 * wf_tile_build from a polygon mesh. It carries magic, version, sizes and a
 * checksum; wf_mesh_add_tile validates every count and index before using
 * it, so damaged data is rejected with WF_ERR_BAD_DATA / WF_ERR_VERSION.
 *
 *     wf_mesh* mesh;
 *     wf_mesh_desc md = {.tile_width = 14.4f, .tile_depth = 14.4f, .max_tiles = 256};
 *     wf_mesh_create(&md, &mesh);
 *     void* blob; size_t size;
 *     wf_tile_build(&tile_desc, &blob, &size);         // or load one from disk
 *     wf_tile_ref tile;
 *     wf_mesh_add_tile(mesh, blob, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &tile);
 *     ... queries (wayfarer/query.h) ...
 *     wf_mesh_destroy(mesh);
 *
 * Tiles sit at (x, z) cells of width tile_width x tile_depth from the mesh
 * origin, with any number of layers per cell (floors of a building). Polygon
 * edges on a tile's border that are marked as portals are stitched to the
 * neighbouring tiles' matching edges when either side is added.
 *
 * Poly refs: 64 bits = poly index (20 bits) | tile slot (28) | tile
 * generation (16, never 0). Removing a tile bumps its slot's generation, so
 * old refs return WF_ERR_STALE_REF. Re-adding a tile with the requested slot
 * and generation (wf_mesh_remove_tile reports them) makes saved refs valid
 * again.
 *
 * Threads: any number of threads may read (queries, getters) at once while
 * nobody writes. add/remove tile, set flags/area and restore state are
 * writes: call them from one thread while no query runs.
 */
#ifndef WAYFARER_NAVMESH_H
#define WAYFARER_NAVMESH_H

#include "wayfarer/base.h"
#include "wayfarer/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Most vertices in one polygon. Polygon sources with more are split.
#define WF_MAX_VERTS_PER_POLY 6
/// Area ids are 0..63; 0 is the default walkable area.
#define WF_MAX_AREAS 64
/// Marks an unused vertex slot, or a polygon edge with no neighbour.
#define WF_NULL_INDEX 0xffffu
/// Neighbour value of a portal edge: WF_PORTAL_EDGE | side, where side is
/// one of wf_tile_side (the neighbouring tile lies on that side).
#define WF_PORTAL_EDGE 0x8000u

typedef enum wf_tile_side {
    WF_SIDE_POS_X = 0,
    WF_SIDE_POS_Z = 1,
    WF_SIDE_NEG_X = 2,
    WF_SIDE_NEG_Z = 3,
} wf_tile_side;

/// A polygon (or off-mesh link) of a tile in a mesh. Zero is null.
typedef struct wf_poly_ref {
    uint64_t bits;
} wf_poly_ref;

/// A tile in a mesh: same layout as a poly ref with poly index 0.
typedef struct wf_tile_ref {
    uint64_t bits;
} wf_tile_ref;

#define WF_POLY_REF_POLY_BITS 20
#define WF_POLY_REF_TILE_BITS 28
#define WF_POLY_REF_GENERATION_BITS 16
/// Most polygons (plus off-mesh links) in one tile.
#define WF_MAX_POLYS_PER_TILE (1u << WF_POLY_REF_POLY_BITS)
/// Most tile slots in one mesh.
#define WF_MAX_TILES (1u << WF_POLY_REF_TILE_BITS)
/// Most layers (tiles) in one grid cell; one more is WF_ERR_CAPACITY.
#define WF_MAX_LAYERS_PER_CELL 64u
/// Tile widths and depths are below this (m): a tile corner (origin plus a
/// tile index times the width) stays finite, and a mesh that creates saves
/// and loads (the save format refuses wider tiles).
#define WF_MAX_TILE_WIDTH 1e30f

static inline wf_poly_ref wf_poly_ref_make(uint32_t generation, uint32_t tile, uint32_t poly) {
    wf_poly_ref r;
    r.bits = ((uint64_t)generation << (WF_POLY_REF_POLY_BITS + WF_POLY_REF_TILE_BITS)) |
             ((uint64_t)tile << WF_POLY_REF_POLY_BITS) | (uint64_t)poly;
    return r;
}
static inline uint32_t wf_poly_ref_poly(wf_poly_ref r) {
    return (uint32_t)(r.bits & ((1u << WF_POLY_REF_POLY_BITS) - 1u));
}
static inline uint32_t wf_poly_ref_tile(wf_poly_ref r) {
    return (uint32_t)((r.bits >> WF_POLY_REF_POLY_BITS) & ((1u << WF_POLY_REF_TILE_BITS) - 1u));
}
static inline uint32_t wf_poly_ref_generation(wf_poly_ref r) {
    return (uint32_t)(r.bits >> (WF_POLY_REF_POLY_BITS + WF_POLY_REF_TILE_BITS));
}
static inline bool wf_poly_ref_is_null(wf_poly_ref r) { return r.bits == 0; }
static inline bool wf_poly_ref_equal(wf_poly_ref a, wf_poly_ref b) { return a.bits == b.bits; }
static inline uint64_t wf_poly_ref_to_u64(wf_poly_ref r) { return r.bits; }
static inline wf_poly_ref wf_poly_ref_from_u64(uint64_t bits) {
    wf_poly_ref r;
    r.bits = bits;
    return r;
}
static inline uint64_t wf_tile_ref_to_u64(wf_tile_ref r) { return r.bits; }
static inline wf_tile_ref wf_tile_ref_from_u64(uint64_t bits) {
    wf_tile_ref r;
    r.bits = bits;
    return r;
}

/* ---------------------------------------------------------------------------
 * Building tile blobs
 */

/// An off-mesh link: a jump, ladder or door from start to end.
typedef struct wf_offmesh_link_desc {
    wf_vec3 start;
    wf_vec3 end;
    float radius;       ///< how far from each end a polygon may be to attach
    bool bidirectional; ///< false: start -> end only
    uint8_t area;       ///< 0..63
    uint16_t flags;
    uint32_t user_id; ///< yours: reported by straight paths and the crowd
} wf_offmesh_link_desc;

/// Input of wf_tile_build. Arrays are read only during the call.
typedef struct wf_tile_build_desc {
    int32_t tile_x, tile_z, layer; ///< where the tile sits on the mesh grid
    wf_vec3 bmin, bmax;            ///< bounds; x/z are the tile's cell edges
    /// vert_count * 3 floats (x, y, z), at most 65535 vertices.
    const float* verts;
    uint32_t vert_count;
    /// poly_count * WF_MAX_VERTS_PER_POLY vertex indices, counter-clockwise
    /// seen from above (+Y, with +X right and +Z down), convex, padded with
    /// WF_NULL_INDEX. At least 3 vertices per polygon.
    const uint16_t* polys;
    uint32_t poly_count;
    /// Optional, same shape as polys: for edge i (vertex i -> i+1) the index
    /// of the polygon across it, WF_NULL_INDEX for a wall, or
    /// WF_PORTAL_EDGE | side. NULL = computed: edges shared by two polygons
    /// connect them, unshared edges lying on a tile bound x or z become
    /// portals, the rest are walls.
    const uint16_t* neighbours;
    const uint8_t* areas;  ///< optional, per polygon 0..63; NULL = all 0
    const uint16_t* flags; ///< optional, per polygon; NULL = all 1
    /// Optional height detail: per polygon {vert_base, vert_count, tri_base,
    /// tri_count}; triangles are 4 bytes: 3 vertex indices (below the
    /// polygon's vertex count: polygon vertices; above: detail vertices from
    /// vert_base) and a spare byte. NULL = the polygon itself gives heights.
    const uint32_t* detail_meshes;
    const float* detail_verts;
    uint32_t detail_vert_count;
    const uint8_t* detail_tris;
    uint32_t detail_tri_count;
    const wf_offmesh_link_desc* offmesh_links;
    uint32_t offmesh_link_count;
    float walkable_height; ///< agent height the tile was built for (info)
    float walkable_radius;
    float walkable_climb;
    uint32_t user_id;       ///< yours, stored in the tile
    wf_allocator allocator; ///< for wf_tile_build's output; zero = malloc
} wf_tile_build_desc;

/// Bytes wf_tile_build_into needs. WF_ERR_INVALID_ARG / WF_ERR_CAPACITY
/// for input it cannot represent (names the problem in no log: check it).
WF_NODISCARD WF_API wf_status wf_tile_build_size(const wf_tile_build_desc* desc, size_t* out_size);
/// Builds into a caller buffer of at least wf_tile_build_size bytes (no
/// allocation: the tile cache builds into preallocated slots).
WF_NODISCARD WF_API wf_status wf_tile_build_into(const wf_tile_build_desc* desc, void* buffer,
                                                 size_t buffer_size);
/// Allocates the blob from desc->allocator; free it with wf_tile_free or
/// hand it to a mesh with WF_TILE_MESH_OWNS_DATA.
WF_NODISCARD WF_API wf_status wf_tile_build(const wf_tile_build_desc* desc, void** out_data,
                                            size_t* out_size);
WF_API void wf_tile_free(void* data, size_t size, const wf_allocator* allocator);

/// Checks a blob without adding it: WF_OK, WF_ERR_BAD_DATA, WF_ERR_VERSION.
WF_NODISCARD WF_API wf_status wf_tile_validate(const void* data, size_t size);

/* ---------------------------------------------------------------------------
 * The mesh
 */

typedef struct wf_mesh wf_mesh;

typedef struct wf_mesh_desc {
    wf_vec3 origin;     ///< world position of tile (0, 0)'s minimum corner
    float tile_width;   ///< along X; required (> 0, < WF_MAX_TILE_WIDTH)
    float tile_depth;   ///< along Z; required (> 0, < WF_MAX_TILE_WIDTH)
    uint32_t max_tiles; ///< tile slots; 0 = 1024; at most WF_MAX_TILES
    wf_allocator allocator;
    wf_logger logger;
} wf_mesh_desc;

/// The desc with every field left zero set to its default (NULL: all
/// defaults): max_tiles 1024. The tile sizes have none.
WF_API wf_mesh_desc wf_mesh_desc_defaults(const wf_mesh_desc* desc);
/// Errors: WF_ERR_INVALID_ARG (a desc rule broken: the logger names it),
/// WF_ERR_OUT_OF_MEMORY.
WF_NODISCARD WF_API wf_status wf_mesh_create(const wf_mesh_desc* desc, wf_mesh** out);
/// Frees the mesh and every blob it owns. NULL is ignored.
WF_API void wf_mesh_destroy(wf_mesh* mesh);

typedef enum wf_tile_flags {
    WF_TILE_MESH_OWNS_DATA = 1, ///< remove/destroy frees the blob with the mesh's allocator
} wf_tile_flags;

/// Adds a tile. The mesh writes links, flags and areas into the blob's
/// run-time section, so `data` must stay valid and unshared until removed.
/// requested: null = any free slot; otherwise the slot and generation the
/// tile gets (from wf_mesh_remove_tile or a save), so saved poly refs into
/// it work again. WF_ERR_BAD_DATA / WF_ERR_VERSION (blob), WF_ERR_CAPACITY
/// (no free slot, or WF_MAX_LAYERS_PER_CELL layers in the cell already),
/// WF_ERR_BUSY (cell and layer taken, or requested slot in
/// use), WF_PARTIAL (added, but some links did not fit the link capacity
/// reserved in the blobs: logged), WF_ERR_INVALID_ARG (misuse).
WF_NODISCARD WF_API wf_status wf_mesh_add_tile(wf_mesh* mesh, void* data, size_t size,
                                               uint32_t flags, wf_tile_ref requested,
                                               wf_tile_ref* out_tile);

/// Removes a tile, unlinking its neighbours. Its refs become stale: the
/// slot's generation moves on. Passing the removed tile's ref as `requested`
/// to wf_mesh_add_tile brings them back (a reload of the same tile).
/// out_data / out_size (optional) get the blob back when the mesh does not
/// own it (else NULL/0; an owned blob is freed).
WF_NODISCARD WF_API wf_status wf_mesh_remove_tile(wf_mesh* mesh, wf_tile_ref tile, void** out_data,
                                                  size_t* out_size);

/// The tile at a grid cell and layer; WF_ERR_NOT_FOUND if none.
WF_NODISCARD WF_API wf_status wf_mesh_find_tile(const wf_mesh* mesh, int32_t tile_x, int32_t tile_z,
                                                int32_t layer, wf_tile_ref* out_tile);
/// Grid cell containing a world position (NaN and far-away coordinates are
/// clamped to a valid, empty cell). A NULL mesh gives cell (0, 0); a NULL
/// out pointer is skipped.
WF_API void wf_mesh_tile_at(const wf_mesh* mesh, wf_vec3 pos, int32_t* out_x, int32_t* out_z);

/// Information about a tile.
typedef struct wf_tile_info {
    int32_t tile_x, tile_z, layer;
    wf_vec3 bmin, bmax;
    uint32_t poly_count; ///< polygons, not counting off-mesh links
    uint32_t offmesh_link_count;
    uint32_t vert_count;
    uint32_t user_id;
    size_t data_size;
} wf_tile_info;
WF_NODISCARD WF_API wf_status wf_mesh_get_tile_info(const wf_mesh* mesh, wf_tile_ref tile,
                                                    wf_tile_info* out);
/// Up to max tiles in slot order; returns how many exist in all.
WF_API uint32_t wf_mesh_get_tiles(const wf_mesh* mesh, wf_tile_ref* out, uint32_t max);

/// WF_OK for a live poly ref, else WF_ERR_STALE_REF (or INVALID_ARG for null).
WF_NODISCARD WF_API wf_status wf_mesh_check_poly(const wf_mesh* mesh, wf_poly_ref ref);
static inline bool wf_mesh_poly_is_valid(const wf_mesh* mesh, wf_poly_ref ref) {
    return wf_mesh_check_poly(mesh, ref) == WF_OK;
}
/// The tile a poly ref belongs to (same slot and generation).
static inline wf_tile_ref wf_poly_ref_tile_ref(wf_poly_ref ref) {
    wf_tile_ref t;
    t.bits = ref.bits & ~(uint64_t)((1u << WF_POLY_REF_POLY_BITS) - 1u);
    return t;
}
/// Ref of polygon `index` of a tile (off-mesh links follow the polygons).
WF_API wf_poly_ref wf_mesh_poly_ref(const wf_mesh* mesh, wf_tile_ref tile, uint32_t index);

WF_NODISCARD WF_API wf_status wf_mesh_set_poly_flags(wf_mesh* mesh, wf_poly_ref ref,
                                                     uint16_t flags);
WF_NODISCARD WF_API wf_status wf_mesh_get_poly_flags(const wf_mesh* mesh, wf_poly_ref ref,
                                                     uint16_t* out_flags);
WF_NODISCARD WF_API wf_status wf_mesh_set_poly_area(wf_mesh* mesh, wf_poly_ref ref, uint8_t area);
WF_NODISCARD WF_API wf_status wf_mesh_get_poly_area(const wf_mesh* mesh, wf_poly_ref ref,
                                                    uint8_t* out_area);
/// Area (m^2) of a polygon seen from above (an off-mesh link: 0).
WF_NODISCARD WF_API wf_status wf_mesh_get_poly_surface(const wf_mesh* mesh, wf_poly_ref ref,
                                                       float* out_m2);

/// True for an off-mesh link, false for a polygon (stale refs: false).
WF_API bool wf_mesh_is_offmesh_link(const wf_mesh* mesh, wf_poly_ref ref);
/// User id of an off-mesh link.
WF_NODISCARD WF_API wf_status wf_mesh_get_offmesh_user_id(const wf_mesh* mesh, wf_poly_ref ref,
                                                          uint32_t* out_user_id);
/// Endpoints of an off-mesh link in the direction of travel when entered
/// from `previous` (the polygon before it on a path).
WF_NODISCARD WF_API wf_status wf_mesh_get_offmesh_endpoints(const wf_mesh* mesh,
                                                            wf_poly_ref previous, wf_poly_ref link,
                                                            wf_vec3* out_start, wf_vec3* out_end);

/// Debug API, for tools and renderers that draw the mesh (navigation does
/// not need it): a polygon's outline as built. Walk a tile with
/// wf_mesh_get_tile_info and wf_mesh_poly_ref, index 0 up to poly_count +
/// offmesh_link_count.
typedef struct wf_poly_outline {
    /// A ground polygon: its 3..WF_MAX_VERTS_PER_POLY vertices in the
    /// mesh's winding order. An off-mesh link: its start and end as built.
    wf_vec3 verts[WF_MAX_VERTS_PER_POLY];
    uint32_t vert_count;
    bool is_offmesh_link;
    bool is_bidirectional; ///< an off-mesh link that may be taken end -> start too
} wf_poly_outline;
/// WF_ERR_STALE_REF for a stale ref, WF_ERR_INVALID_ARG for NULL or a null
/// ref; *out is written only on success. Any thread, while no one changes
/// the mesh.
WF_NODISCARD WF_API wf_status wf_mesh_get_poly_outline(const wf_mesh* mesh, wf_poly_ref ref,
                                                       wf_poly_outline* out);

/// What lies across a polygon edge (wf_mesh_get_poly_edges).
typedef enum wf_poly_edge_kind {
    WF_EDGE_WALL = 0,            ///< nothing: the walkable surface ends here
    WF_EDGE_INTERNAL = 1,        ///< a polygon of the same tile
    WF_EDGE_TILE_PORTAL = 2,     ///< the tile border, linked to the neighbouring tile's polygons
    WF_EDGE_UNLINKED_PORTAL = 3, ///< the tile border, but nothing linked (no tile there yet)
    /// Built as a wall, but linked to another layer of the same grid cell
    /// lying along it (where the layer split cut walkable ground in two).
    WF_EDGE_LAYER_SEAM = 4,
} wf_poly_edge_kind;

/// One edge of a ground polygon, in world space: from vertex i to i + 1.
typedef struct wf_poly_edge {
    wf_vec3 start, end;
    wf_poly_edge_kind kind;
    /// Polygons linked across it: 1 for an internal edge, 0.. for a tile
    /// portal or seam (an edge may touch several polygons of the other tile).
    uint32_t neighbour_count;
    wf_poly_ref neighbour; ///< the first of them; null when none
    uint8_t side;          ///< wf_tile_side of a portal edge; 0xff otherwise
} wf_poly_edge;

/// Debug API: a ground polygon's edges with what lies across each (walls,
/// internal edges, tile portals, layer seams), for drawing the mesh. Writes
/// min(vert_count, max) edges and sets *out_count to the polygon's edge
/// count (3..WF_MAX_VERTS_PER_POLY; an out of WF_MAX_VERTS_PER_POLY always
/// fits). WF_OK; WF_ERR_CAPACITY when max is below the edge count (out gets
/// the first max, *out_count the full count); WF_ERR_WRONG_KIND for an
/// off-mesh link (it has no edges: use wf_mesh_get_poly_outline);
/// WF_ERR_STALE_REF; WF_ERR_INVALID_ARG (NULL mesh or out_count, null ref,
/// out NULL with max > 0). Any thread, while no one changes the mesh.
WF_NODISCARD WF_API wf_status wf_mesh_get_poly_edges(const wf_mesh* mesh, wf_poly_ref ref,
                                                     wf_poly_edge* out, uint32_t max,
                                                     uint32_t* out_count);

/// Per-tile run-time state (poly flags and areas) as a small blob, e.g. to
/// save which doors are closed. size: wf_mesh_tile_state_size.
WF_NODISCARD WF_API wf_status wf_mesh_tile_state_size(const wf_mesh* mesh, wf_tile_ref tile,
                                                      size_t* out_size);
WF_NODISCARD WF_API wf_status wf_mesh_store_tile_state(const wf_mesh* mesh, wf_tile_ref tile,
                                                       void* out, size_t size);
/// WF_ERR_BAD_DATA if the blob is damaged or belongs to another tile.
WF_NODISCARD WF_API wf_status wf_mesh_restore_tile_state(wf_mesh* mesh, wf_tile_ref tile,
                                                         const void* data, size_t size);

/// The whole mesh (desc, every tile with its slot and generation, and its
/// state) as one blob. Loading creates a new mesh in which every saved poly
/// ref is valid.
WF_NODISCARD WF_API wf_status wf_mesh_save_size(const wf_mesh* mesh, size_t* out_size);
WF_NODISCARD WF_API wf_status wf_mesh_save(const wf_mesh* mesh, void* out, size_t size);
/// desc gives allocator and logger, and max_tiles: when non-zero, the most
/// tile slots the loaded mesh may have (a save asking for more is
/// WF_ERR_CAPACITY, nothing allocated); set it when the bytes come from
/// outside, since the slot array is allocated for the saved capacity (up to
/// WF_MAX_TILES). Its other fields are ignored.
WF_NODISCARD WF_API wf_status wf_mesh_load(const wf_mesh_desc* desc, const void* data, size_t size,
                                           wf_mesh** out);

typedef struct wf_mesh_stats {
    uint32_t tile_count;
    uint32_t max_tiles;
    uint32_t poly_count;
    size_t memory_bytes; ///< mesh bookkeeping plus owned blobs
} wf_mesh_stats;
WF_API wf_mesh_stats wf_mesh_get_stats(const wf_mesh* mesh);

/* ---------------------------------------------------------------------------
 * Importing polygon meshes
 */

/// Options for wf_mesh_import_polyanya.
typedef struct wf_polyanya_import_desc {
    /// Tile size in mesh units; 0 = one tile holding everything. Polygons
    /// crossing tile borders are clipped and stitched with portals.
    float tile_size;
    /// Scale applied to coordinates (0 = 1). The file's x -> world x, the
    /// file's y -> world z, world y = 0.
    float scale;
    wf_allocator allocator;
    wf_logger logger;
} wf_polyanya_import_desc;

/// The desc with every field left zero set to its default (NULL: all
/// defaults): scale 1; tile_size 0 stays (one tile).
WF_API wf_polyanya_import_desc
wf_polyanya_import_desc_defaults(const wf_polyanya_import_desc* desc);

/// Parses a Polyanya .mesh (version 2) text and builds a mesh of it.
/// Polygons above WF_MAX_VERTS_PER_POLY vertices are split into convex
/// pieces. WF_ERR_BAD_DATA (the log names the line) or WF_ERR_VERSION;
/// WF_ERR_CAPACITY when a tile would exceed its vertex or polygon limit
/// (use a smaller tile_size); WF_PARTIAL: built, but some portal links did
/// not fit (logged). `text` need not be NUL-terminated.
WF_NODISCARD WF_API wf_status wf_mesh_import_polyanya(const wf_polyanya_import_desc* desc,
                                                      const char* text, size_t size, wf_mesh** out);

#ifdef __cplusplus
}
#endif

#endif // WAYFARER_NAVMESH_H
