// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Local boundary: the wall segments near an agent (for avoidance and
// collisions), gathered from the polygons around it.
#ifndef WF_CROWD_LOCAL_BOUNDARY_H
#define WF_CROWD_LOCAL_BOUNDARY_H

#include <stdbool.h>
#include <stdint.h>

#include "wayfarer/crowd.h"

/// Polygons of the local neighbourhood searched for walls.
#define WF_LOCAL_BOUNDARY_MAX_POLYS 16u
/// Walls read from one polygon.
#define WF_LOCAL_BOUNDARY_MAX_POLY_WALLS 12u

/// Collects the wall segments within `range` of pos (XZ distance from pos
/// to the segment), from the polygons around ref within range, keeps the
/// max_walls nearest (ties: order found), nearest first, as (start, end)
/// pairs in out_walls[2 * i], out_walls[2 * i + 1]. Returns the count.
/// Deterministic; uses only the query's scratch.
uint32_t wf_local_boundary_collect(wf_query* query, wf_poly_ref ref, wf_vec3 pos, float range,
                                   const wf_query_filter* filter, wf_vec3* out_walls,
                                   uint32_t max_walls);

/// True when every polygon of the last collect is still valid, read from
/// the refs it was given (refs, count): a rebuilt tile makes walls stale.
bool wf_local_boundary_polys_valid(const wf_mesh* mesh, const wf_poly_ref* refs, uint32_t count);

/// Squared XZ distance from point p to segment (a, b).
float wf_segment_distance_sq_2d(wf_vec3 p, wf_vec3 a, wf_vec3 b);

#endif
