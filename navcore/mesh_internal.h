// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The navmesh's inside, shared by the mesh and the queries: tile slots,
// resolving refs to tiles and polygons, links, and polygon geometry.
#ifndef WF_NAVCORE_MESH_INTERNAL_H
#define WF_NAVCORE_MESH_INTERNAL_H

#include "navcore/mesh_commit.h"
#include "navcore/tile_format.h"
#include "wayfarer/navmesh.h"

typedef struct wf_mesh_tile {
    uint32_t generation; ///< current generation of the slot (never 0)
    bool in_use;
    uint32_t flags; ///< wf_tile_flags
    // Copied from the header: walking a cell's hash chain, and deciding
    // what to look at around a tile, reads only the slots, not every blob.
    int32_t tile_x;
    int32_t tile_z;
    int32_t layer;
    uint32_t offmesh_count;
    /// Per side, the polygons [first, end) with a portal edge on it: stitching
    /// and unlinking look at these only, not at every polygon.
    uint16_t portal_polys[4][2];
    uint32_t next_in_cell; ///< hash chain of tiles by grid cell
    uint32_t next_free;    ///< free slot list
    unsigned char* data;
    size_t size;
    const wf_tile_header* header;
    const float* verts;
    const wf_tile_poly* polys;
    const wf_tile_detail* detail_meshes;
    const float* detail_verts;
    const uint8_t* detail_tris;
    const wf_tile_bv_node* bv_nodes;
    const wf_tile_offmesh* offmesh;
    // Run-time section, inside the blob.
    wf_tile_link* links;
    uint32_t* first_link;         ///< per polygon
    uint16_t* poly_flags;         ///< current flags per polygon
    uint8_t* poly_areas;          ///< current area per polygon
    uint32_t link_free;           ///< free list head of links (links given back)
    uint32_t link_fresh;          ///< links from here on were never handed out
    uint32_t links_missing;       ///< links that did not fit (reported by add_tile)
    wf_link_portal* link_portals; ///< per link, in the run-time section
    float vert_min[3];            ///< bounds of the ground polygons' vertices (seam pre-check)
    float vert_max[3];
} wf_mesh_tile;

struct wf_mesh {
    wf_allocator allocator;
    wf_logger logger;
    wf_vec3 origin;
    float tile_width;
    float tile_depth;
    uint32_t max_tiles;
    wf_mesh_tile* tiles;
    uint32_t* cell_heads; ///< hash of grid cell -> first tile slot
    uint32_t cell_mask;
    uint32_t free_head;
    uint32_t free_tail; ///< freed slots are appended here (WF_NO_TILE: list empty)
    uint32_t tile_count;
    /// Counts tile additions and removals (links change only then): what a
    /// query kept from an earlier search is only reused while it holds.
    uint32_t change_count;
};

#define WF_NO_TILE 0xffffffffu

/// Tile and polygon of a ref, or WF_ERR_STALE_REF / WF_ERR_INVALID_ARG.
wf_status wf_mesh_resolve(const wf_mesh* mesh, wf_poly_ref ref, const wf_mesh_tile** out_tile,
                          const wf_tile_poly** out_poly);

/// The live tile of a tile ref (poly index 0; a tile with no polygon is
/// still a tile). WF_ERR_INVALID_ARG for null or a poly ref, else
/// WF_ERR_STALE_REF.
wf_status wf_mesh_resolve_tile(const wf_mesh* mesh, wf_tile_ref tile,
                               const wf_mesh_tile** out_tile);

/// Same without checks, for refs taken from links of live tiles.
static inline void wf_mesh_resolve_unchecked(const wf_mesh* mesh, wf_poly_ref ref,
                                             const wf_mesh_tile** out_tile,
                                             const wf_tile_poly** out_poly) {
    const wf_mesh_tile* t = &mesh->tiles[wf_poly_ref_tile(ref)];
    *out_tile = t;
    *out_poly = &t->polys[wf_poly_ref_poly(ref)];
}

/// Ref of polygon 0 of a live tile slot.
static inline wf_poly_ref wf_mesh_tile_base(const wf_mesh* mesh, const wf_mesh_tile* tile) {
    return wf_poly_ref_make(tile->generation, (uint32_t)(tile - mesh->tiles), 0);
}

static inline wf_vec3 wf_tile_vertex(const wf_mesh_tile* tile, uint32_t index) {
    const float* v = &tile->verts[index * 3u];
    return wf_v3(v[0], v[1], v[2]);
}

/// Copies a polygon's vertices (at most WF_MAX_VERTS_PER_POLY); returns the count.
static inline uint32_t wf_tile_poly_vertices(const wf_mesh_tile* tile, const wf_tile_poly* poly,
                                             wf_vec3* out) {
    for (uint32_t i = 0; i < poly->vert_count; ++i) {
        out[i] = wf_tile_vertex(tile, poly->verts[i]);
    }
    return poly->vert_count;
}

/// Index of a polygon within its tile.
static inline uint32_t wf_tile_poly_index(const wf_mesh_tile* tile, const wf_tile_poly* poly) {
    return (uint32_t)(poly - tile->polys);
}

/// Live tiles at a grid cell (all layers); returns the number found, writes
/// at most max.
uint32_t wf_mesh_tiles_at(const wf_mesh* mesh, int32_t tile_x, int32_t tile_z,
                          const wf_mesh_tile** out, uint32_t max);

/// Polygons of a tile whose bounds overlap [qmin, qmax] (off-mesh links
/// excluded), via the BV tree. Writes at most max; returns how many overlap.
uint32_t wf_mesh_tile_polys_in_box(const wf_mesh* mesh, const wf_mesh_tile* tile, wf_vec3 qmin,
                                   wf_vec3 qmax, wf_poly_ref* out, uint32_t max);

/// Closest point on a ground polygon to pos (height from detail mesh);
/// *out_inside when pos is over the polygon in XZ.
void wf_mesh_closest_point_on_poly(const wf_mesh_tile* tile, const wf_tile_poly* poly, wf_vec3 pos,
                                   wf_vec3* out_point, bool* out_inside);

/// Height of a ground polygon's surface at pos (XZ); false if pos is not
/// over the polygon.
bool wf_mesh_poly_height(const wf_mesh_tile* tile, const wf_tile_poly* poly, wf_vec3 pos,
                         float* out_height);

/// The portal (shared edge part) from polygon `from` to neighbour `to`,
/// left and right as seen walking from -> to: left is the end vertex of
/// from's edge (it is counter-clockwise), right its start vertex. A point p
/// is left of the direction a -> b when wf_v2_triangle_area2(a, b, p) > 0.
/// Entering or leaving an off-mesh link, both points are the link's end
/// at that side. WF_ERR_NOT_FOUND if not linked.
wf_status wf_mesh_portal_points(const wf_mesh* mesh, wf_poly_ref from,
                                const wf_mesh_tile* from_tile, const wf_tile_poly* from_poly,
                                wf_poly_ref to, const wf_mesh_tile* to_tile,
                                const wf_tile_poly* to_poly, wf_vec3* out_left, wf_vec3* out_right);

/// Same as wf_mesh_portal_points for a link already at hand (link is one
/// of from_poly's links; to_tile/to_poly resolve link->ref): no search.
void wf_mesh_link_portal(wf_poly_ref from, const wf_mesh_tile* from_tile,
                         const wf_tile_poly* from_poly, const wf_tile_link* link,
                         const wf_mesh_tile* to_tile, const wf_tile_poly* to_poly,
                         wf_vec3* out_left, wf_vec3* out_right);
/// wf_mesh_link_portal for a caller that has counted from_poly's links to
/// link->ref already (links_to, at least 1): skips that walk.
void wf_mesh_link_portal_counted(wf_poly_ref from, const wf_mesh_tile* from_tile,
                                 const wf_tile_poly* from_poly, const wf_tile_link* link,
                                 const wf_mesh_tile* to_tile, const wf_tile_poly* to_poly,
                                 uint32_t links_to, wf_vec3* out_left, wf_vec3* out_right);

/// Polygon centre (vertex average).
wf_vec3 wf_mesh_poly_center(const wf_mesh_tile* tile, const wf_tile_poly* poly);

#endif
