// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Layer -> navmesh tile: regions, contours, convex polygons, tile blob.
// A pure function of (layer, params) that uses only a scratch arena of a
// size known in advance (no heap allocation), so it runs on any worker.
#ifndef WF_TILECACHE_LAYER_TO_TILE_H
#define WF_TILECACHE_LAYER_TO_TILE_H

#include "navcore/arena.h"
#include "tilecache/layer.h"

typedef struct wf_layer_tile_params {
    float walkable_height;          ///< m (stored in the blob)
    float walkable_radius;          ///< m (stored in the blob)
    float walkable_climb;           ///< m: steps between neighbouring cells up to this connect
    float max_edge_length;          ///< cells; 0 = no limit
    float max_simplification_error; ///< cells
    uint32_t max_verts_per_poly;    ///< 3..WF_MAX_VERTS_PER_POLY
    uint32_t min_region_area;       ///< cells
    uint32_t merge_region_area;     ///< cells
    const uint16_t*
        area_flags; ///< WF_MAX_AREAS flags, a polygon's by its area (0 = 1); NULL = all 1
    const wf_offmesh_link_desc* offmesh_links; ///< the tile's off-mesh links (starts in it)
    uint32_t offmesh_link_count;
} wf_layer_tile_params;

/// Scratch bytes wf_layer_build_tile needs for a layer of this size, at most.
size_t wf_layer_tile_scratch_size(uint32_t width, uint32_t depth);

/// Builds the tile blob of a decompressed layer into out (16-byte aligned).
/// The layer's arrays may be changed (obstacles are stamped into areas
/// before this runs; regions are written into scratch). *out_size gets the
/// blob size; WF_ERR_CAPACITY when out_capacity or the arena is too small.
/// A layer with no walkable polygon gives WF_ERR_NOT_FOUND (no tile).
wf_status wf_layer_build_tile(wf_layer* layer, const wf_layer_tile_params* params,
                              wf_arena* scratch, void* out, size_t out_capacity, size_t* out_size);

#endif
