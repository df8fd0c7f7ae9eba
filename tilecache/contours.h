// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Contours of a layer's regions (second step of layer -> tile): each
// region's outline traced along cell edges, then simplified.
#ifndef WF_TILECACHE_CONTOURS_H
#define WF_TILECACHE_CONTOURS_H

#include "tilecache/regions.h"

/// What lies across a contour edge: a region index, or one of these.
#define WF_CONTOUR_WALL 0xffffu
#define WF_CONTOUR_TILE_EDGE 0xfffeu
#define WF_CONTOUR_PORTAL 0xfffdu

/// A contour vertex at a cell corner: x, z in cells from the layer's
/// minimum corner (0..width, 0..depth), y the corner's height in cell-height
/// units above the layer's hmin. `neighbour` says what lies across the edge
/// from this vertex to the next one.
typedef struct wf_contour_vertex {
    uint8_t x, y, z;
    uint8_t reserved;
    uint16_t neighbour;
} wf_contour_vertex;

/// One contour per region (contour i outlines region i; it is empty when
/// simplification left fewer than 3 vertices). Counter-clockwise seen from
/// above in the wf_v2_triangle_area2 sense.
typedef struct wf_layer_contours {
    uint32_t count;
    uint32_t* starts; ///< count + 1 offsets into verts
    wf_contour_vertex* verts;
} wf_layer_contours;

/// Traces and simplifies every region's outline: vertices are kept where
/// the neighbour changes, then added back Douglas-Peucker fashion while a
/// dropped corner lies more than max_error cells off (shared outlines are
/// walked in one canonical direction, so both sides keep the same
/// vertices); wall and tile-edge segments longer than max_edge_length cells
/// (0 = no limit) are split. WF_ERR_CAPACITY when the arena is too small.
wf_status wf_layer_contours_build(const wf_layer* layer, const wf_layer_regions* regions,
                                  float max_error, float max_edge_length, wf_arena* arena,
                                  wf_layer_contours* out);

/// Scratch bounds: what stays allocated after wf_layer_contours_build (an
/// upper bound over every layer of that size), and the most used meanwhile
/// on top of that.
size_t wf_layer_contours_kept_size(uint32_t width, uint32_t depth);
size_t wf_layer_contours_temp_size(uint32_t width, uint32_t depth);

/// Most contour vertices a width x depth layer can give: one per cell edge
/// on a region's outline.
static inline size_t wf_layer_contours_max_verts(uint32_t width, uint32_t depth) {
    return (size_t)4u * width * depth;
}

#endif
