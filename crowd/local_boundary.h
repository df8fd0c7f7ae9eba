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
/// to the segment, inclusive), from the polygons of the local
/// neighbourhood of ref within range (at most WF_LOCAL_BOUNDARY_MAX_POLYS;
/// when it is cut short, the polygons found are used), keeps the max_walls
/// nearest (ties: order found), nearest first, as (start, end) pairs in
/// out_walls[2 * i], out_walls[2 * i + 1]. Returns the count.
/// out_polys (optional, room for WF_LOCAL_BOUNDARY_MAX_POLYS) receives the
/// polygons searched and out_poly_count (optional) their count: keep them
/// for wf_local_boundary_polys_valid. A stale ref or bad argument gives 0
/// walls and 0 polygons (the corridor's own checks catch a stale ref).
/// An off-mesh link has no walls. Deterministic; allocates nothing and uses
/// only the query's scratch (one query per thread; a sliced path search in
/// progress on it ends).
uint32_t wf_local_boundary_collect(wf_query* query, wf_poly_ref ref, wf_vec3 pos, float range,
                                   const wf_query_filter* filter, wf_vec3* out_walls,
                                   uint32_t max_walls, wf_poly_ref* out_polys,
                                   uint32_t* out_poly_count);

/// True when every polygon of the last collect is still valid, read from
/// the refs it reported (refs, count): a removed or rebuilt tile makes the
/// walls stale, so the caller collects again. True for count 0.
bool wf_local_boundary_polys_valid(const wf_mesh* mesh, const wf_poly_ref* refs, uint32_t count);

/// Squared XZ distance from point p to segment (a, b) (y ignored): exactly
/// that to a or b when the nearest point is an end, to a when a == b.
float wf_segment_distance_sq_2d(wf_vec3 p, wf_vec3 a, wf_vec3 b);

#endif
