// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Convex polygons from a layer's contours (third step of layer -> tile).
#ifndef WF_TILECACHE_POLYMESH_H
#define WF_TILECACHE_POLYMESH_H

#include "tilecache/contours.h"

/// A mesh vertex on the layer's grid: x, z cell corners, y in cell-height
/// units above the layer's hmin.
typedef struct wf_polymesh_vertex {
    uint8_t x, y, z;
    uint8_t reserved;
} wf_polymesh_vertex;

/// Polygons in the shape wf_tile_build_desc wants: WF_MAX_VERTS_PER_POLY
/// indices each, counter-clockwise seen from above, WF_NULL_INDEX padded.
typedef struct wf_layer_polymesh {
    uint32_t vert_count;
    uint32_t poly_count;
    wf_polymesh_vertex* verts;
    uint16_t* polys;
    uint8_t* areas; ///< per polygon, the area of its region
} wf_layer_polymesh;

/// Triangulates every contour (ear clipping on the integer grid, shortest
/// diagonal first), merges triangles into convex polygons of at most
/// max_verts_per_poly vertices (longest shared edge first), and welds
/// vertices across contours (same x, z and height: polymesh.c says why).
/// Per-contour scratch is released before returning. WF_ERR_CAPACITY when
/// the arena is too small or the tile would need more than 65534 vertices.
wf_status wf_layer_polymesh_build(const wf_layer_contours* contours, const uint8_t* region_areas,
                                  uint32_t max_verts_per_poly, wf_arena* arena,
                                  wf_layer_polymesh* out);

/// Scratch bounds: what stays allocated after wf_layer_polymesh_build (an
/// upper bound over every layer of that size), and the most used meanwhile
/// on top of that.
size_t wf_layer_polymesh_kept_size(uint32_t width, uint32_t depth);
size_t wf_layer_polymesh_temp_size(uint32_t width, uint32_t depth);

#endif
