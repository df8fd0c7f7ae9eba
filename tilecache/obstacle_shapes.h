// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Temporary obstacle shapes: validation, world bounds, and stamping into a
// decompressed layer (carve: area WF_AREA_NULL; paint: the obstacle's area).
#ifndef WF_TILECACHE_OBSTACLE_SHAPES_H
#define WF_TILECACHE_OBSTACLE_SHAPES_H

#include "tilecache/layer.h"

/// What a layer build needs of an obstacle, precomputed and self-contained
/// (copied into the build slot so the caller may change obstacles while
/// the build runs on a worker).
typedef struct wf_obstacle_stamp {
    uint8_t shape; ///< wf_obstacle_shape
    uint8_t paint;
    uint8_t area;
    uint8_t vert_count;
    float bmin[3], bmax[3];                 ///< world bounds, already widened by the agent radius
    float cx, cz;                           ///< centre (cylinder, boxes)
    float radius;                           ///< cylinder radius + agent radius
    float hx, hz;                           ///< box half extents + agent radius
    float cos_yaw, sin_yaw;                 ///< oriented box
    float expand;                           ///< prism: agent radius
    float verts[2 * WF_OBSTACLE_MAX_VERTS]; ///< prism outline, counter-clockwise (x, z)
} wf_obstacle_stamp;

/// WF_OK or WF_ERR_INVALID_ARG (unknown shape, NaN, non-positive sizes,
/// area > 63, prism outline not convex or fewer than 3 points).
wf_status wf_obstacle_desc_check(const wf_obstacle_desc* desc);

/// Precomputes the stamp of a checked desc for an agent of this radius;
/// cells whose floor lies within `climb` below the obstacle still count.
void wf_obstacle_make_stamp(const wf_obstacle_desc* desc, float agent_radius, float climb,
                            wf_obstacle_stamp* out);

/// Marks the layer's cells whose centre lies inside any of the stamps (in
/// XZ) and whose floor is within the stamp's vertical range: carve sets the
/// area to WF_AREA_NULL, paint to the stamp's area. Stamps are applied in
/// order (a later paint over an earlier one wins; carve always wins).
void wf_obstacle_stamp_layer(wf_layer* layer, const wf_obstacle_stamp* stamps, uint32_t count);

#endif
