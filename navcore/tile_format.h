// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Layout of a navmesh tile blob. One contiguous buffer, offsets from its
// start (relocatable), native little-endian, sections 16-byte aligned:
//   header | verts | polys | detail meshes | detail verts | detail tris |
//   bv nodes | off-mesh links || run-time section
// The checksum covers everything before the run-time section (with the
// checksum field taken as 0). The run-time section (links, their portal
// records, current poly flags and areas) is written by the mesh when the
// tile is added.
#ifndef WF_NAVCORE_TILE_FORMAT_H
#define WF_NAVCORE_TILE_FORMAT_H

#include <stdint.h>

#include "wayfarer/navmesh.h"

#define WF_TILE_MAGIC 0x4c544657u // "WFTL"
/// 2: the run-time section holds the links' portal records (2026-11-26).
#define WF_TILE_VERSION 2u
#define WF_TILE_SECTION_ALIGN 16u

/// Polygon type, in the top bits of area_and_type.
#define WF_POLY_TYPE_GROUND 0u
#define WF_POLY_TYPE_OFFMESH 1u
#define WF_POLY_AREA_MASK 0x3fu
#define WF_POLY_TYPE_SHIFT 6

/// Links reserved per portal edge: a border edge may touch several
/// polygons of the neighbouring tile when the two were split differently.
#define WF_TILE_LINKS_PER_PORTAL 4u
/// Links reserved per off-mesh link: its two ends plus the two polygons
/// that lead onto it.
#define WF_TILE_LINKS_PER_OFFMESH 4u
/// Extra links for off-mesh links of other tiles that land in this one.
#define WF_TILE_FOREIGN_LANDING_LINKS 8u

#define WF_NULL_LINK 0xffffffffu

/// Off-mesh link flag: may be travelled end -> start too.
#define WF_OFFMESH_BIDIRECTIONAL 1u

typedef struct wf_tile_header {
    uint32_t magic;
    uint32_t version;
    uint32_t data_size;
    uint32_t checksum;
    int32_t tile_x;
    int32_t tile_z;
    int32_t layer;
    uint32_t user_id;
    float bmin[3];
    float bmax[3];
    float walkable_height;
    float walkable_radius;
    float walkable_climb;
    float bv_quant;      ///< world units -> bv node units
    uint32_t vert_count; ///< includes 2 per off-mesh link, after the polygon vertices
    uint32_t poly_count; ///< includes off-mesh links, after the ground polygons
    uint32_t offmesh_count;
    uint32_t detail_mesh_count; ///< 0 or ground polygon count
    uint32_t detail_vert_count;
    uint32_t detail_tri_count;
    uint32_t bv_node_count;
    uint32_t max_link_count;
    uint32_t verts_offset;
    uint32_t polys_offset;
    uint32_t detail_meshes_offset;
    uint32_t detail_verts_offset;
    uint32_t detail_tris_offset;
    uint32_t bv_offset;
    uint32_t offmesh_offset;
    uint32_t runtime_offset; ///< links, first_link, flags, areas
    uint32_t reserved[2];    ///< zero; keeps the header a multiple of 16 bytes
} wf_tile_header;

typedef struct wf_tile_poly {
    uint16_t verts[WF_MAX_VERTS_PER_POLY];
    uint16_t neighbours[WF_MAX_VERTS_PER_POLY]; ///< 0 wall, 1+i poly i, WF_PORTAL_EDGE|side
    uint16_t flags;                             ///< as built; current value in run-time
    uint8_t vert_count;
    uint8_t area_and_type;
} wf_tile_poly;

typedef struct wf_tile_detail {
    uint32_t vert_base;
    uint32_t tri_base;
    uint8_t vert_count;
    uint8_t tri_count;
    uint8_t reserved[2];
} wf_tile_detail;

typedef struct wf_tile_bv_node {
    uint16_t bmin[3];
    uint16_t bmax[3];
    int32_t index; ///< >= 0: leaf, polygon index; < 0: -(nodes to skip) past this subtree
} wf_tile_bv_node;

typedef struct wf_tile_offmesh {
    float pos[6]; ///< start xyz, end xyz
    float radius;
    uint16_t poly; ///< index of the link's polygon in this tile
    uint8_t flags; ///< WF_OFFMESH_BIDIRECTIONAL
    uint8_t reserved;
    uint32_t user_id;
} wf_tile_offmesh;

/// A connection from one polygon to another (run-time section).
typedef struct wf_tile_link {
    uint64_t ref;  ///< polygon reached
    uint32_t next; ///< next link of the same polygon, WF_NULL_LINK ends
    uint8_t edge;  ///< edge of the source polygon it crosses (0xff: off-mesh end)
    uint8_t side;  ///< tile side for portal links, 0xff otherwise
    uint8_t bmin;  ///< part of the edge that is shared, 0..255 along it
    uint8_t bmax;
} wf_tile_link;

/// A link's portal as the default path search reads it, kept in the
/// run-time section next to the links (one per link) and worked out by
/// the mesh when the links change (mesh_links.c), so the search's
/// relaxation reads one record per link instead of both polygons'
/// vertices and, for border links, their edges: what
/// wf_mesh_link_portal_counted gives with the search's link count.
typedef struct wf_link_portal {
    float left[3], right[3];
    /// Nonzero: between ground polygons, an earlier link of the same
    /// polygon reaches the same neighbour (same portal; the search relaxes
    /// the first only).
    uint32_t repeat : 1;
    /// Nonzero: the link leads into a pocket, ground polygons of this tile
    /// reached from the neighbour only back through this link's polygon
    /// (mesh_pockets.c numbers a tile's polygons so that a pocket is the
    /// range [number, number + pocket_size)); zero: `number` is the
    /// link's own polygon's (0: not numbered).
    uint32_t pocket : 1;
    uint32_t number : 15;
    uint32_t pocket_size : 15;
} wf_link_portal;

_Static_assert(sizeof(wf_tile_header) == 144, "tile header layout");
_Static_assert(sizeof(wf_link_portal) == 28, "link portal layout");
_Static_assert(sizeof(wf_tile_poly) == 4 * WF_MAX_VERTS_PER_POLY + 4, "tile poly layout");
_Static_assert(sizeof(wf_tile_link) == 16, "tile link layout");

static inline uint32_t wf_poly_area(const wf_tile_poly* p) {
    return p->area_and_type & WF_POLY_AREA_MASK;
}
static inline uint32_t wf_poly_type(const wf_tile_poly* p) {
    return p->area_and_type >> WF_POLY_TYPE_SHIFT;
}

/// FNV-1a over the blob's checksummed part.
uint32_t wf_tile_checksum(const unsigned char* data, uint32_t runtime_offset);

/// wf_tile_validate without the checksum: for blobs built in this process
/// (nothing stored or sent that could have changed them), still safe to use.
wf_status wf_tile_validate_structure(const void* data, size_t size);

/// Bytes of the run-time section for the given counts.
static inline uint64_t wf_tile_runtime_size(uint32_t poly_count, uint32_t max_link_count) {
    return (uint64_t)max_link_count * (sizeof(wf_tile_link) + sizeof(wf_link_portal)) +
           (uint64_t)poly_count * 4u + (uint64_t)poly_count * 2u + (uint64_t)poly_count;
}

#endif
