// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Path corridor: the polygons from an agent's position to its target. The
// agent moves inside it, the corridor follows (polygons passed drop off
// the front), and it is repaired locally instead of searched again.
#ifndef WF_CROWD_CORRIDOR_H
#define WF_CROWD_CORRIDOR_H

#include <stdbool.h>
#include <stdint.h>

#include "wayfarer/crowd.h"

/// A view of one agent's corridor storage (the crowd owns the arrays).
typedef struct wf_corridor {
    wf_poly_ref* polys;  ///< polys[0] holds pos, polys[count - 1] holds target
    uint32_t count;      ///< >= 1 once reset
    uint32_t capacity;
    wf_vec3 pos;
    wf_vec3 target;
} wf_corridor;

/// One polygon: pos and target in ref.
void wf_corridor_reset(wf_corridor* c, wf_poly_ref ref, wf_vec3 pos);

/// Replaces the path (path[0] must be the polygon holding pos); the target
/// is clamped into the last polygon by the caller. Returns false when the
/// path was longer than the capacity (then it is cut).
bool wf_corridor_set_path(wf_corridor* c, wf_vec3 target, const wf_poly_ref* path,
                          uint32_t count);

/// Joins a path searched from a polygon further along the corridor (a
/// replan) or from where the agent stood when it asked (it has moved
/// since): the corridor is kept up to the last of its polygons that the
/// path contains, and the path follows from that polygon on. Returns false
/// (corridor unchanged) when they share no polygon.
bool wf_corridor_merge_path(wf_corridor* c, wf_vec3 target, const wf_poly_ref* path,
                            uint32_t count);

/// The next corners of the string-pulled corridor (at most max, <=
/// WF_CROWD_MAX_CORNERS), skipping corners closer than 0.01 m to pos and
/// ending at the first off-mesh link start. Returns the count.
uint32_t wf_corridor_find_corners(const wf_corridor* c, wf_query* query,
                                  wf_straight_point* out, uint32_t max);

/// Shortcut: when the surface is straight walkable from pos towards
/// `next` (a point further along), the polygons up to the furthest one the
/// ray reached replace the corridor's head. Range-limited by the caller.
void wf_corridor_optimize_visibility(wf_corridor* c, wf_vec3 next, float range,
                                     wf_query* query, const wf_query_filter* filter);

/// A short local re-search (max_iterations expansions) from polys[0]
/// towards target, joined back into the corridor when it reaches further.
/// Returns true when the corridor changed.
bool wf_corridor_optimize_topology(wf_corridor* c, wf_query* query,
                                   const wf_query_filter* filter, uint32_t max_iterations);

/// Moves pos towards npos along the surface; the polygons walked over
/// replace the corridor's head. Returns false when the start polygon is
/// not valid (then nothing moves).
bool wf_corridor_move_position(wf_corridor* c, wf_vec3 npos, wf_query* query,
                               const wf_query_filter* filter);

/// Moves the target towards ntarget inside the last polygons the same way.
bool wf_corridor_move_target(wf_corridor* c, wf_vec3 ntarget, wf_query* query,
                             const wf_query_filter* filter);

/// Count of polygons from the start (at most max_look_ahead) that are
/// valid and pass the filter: == min(count, max_look_ahead) when all are.
uint32_t wf_corridor_valid_ahead(const wf_corridor* c, uint32_t max_look_ahead,
                                 const wf_mesh* mesh, const wf_query_filter* filter);

/// Cuts the corridor after its first `keep` polygons (keep >= 1) and moves
/// the target to the point of polys[keep - 1] nearest the old target.
void wf_corridor_trim(wf_corridor* c, uint32_t keep, wf_query* query);

/// The agent stands in ref (found again after being pushed off): ref
/// becomes the corridor's start, joined to the rest when adjacent.
void wf_corridor_fix_start(wf_corridor* c, wf_poly_ref ref, wf_vec3 pos);

/// When polys[1] is the off-mesh link `link`, the corridor advances past
/// it: out_start/out_end are its endpoints, out_refs the polygons before
/// and after it. Returns false when link is not next.
bool wf_corridor_move_over_offmesh(wf_corridor* c, wf_poly_ref link, const wf_mesh* mesh,
                                   wf_poly_ref out_refs[2], wf_vec3* out_start,
                                   wf_vec3* out_end);

/// True when a polygon (or off-mesh link) is live and passes the filter.
bool wf_poly_passes(const wf_mesh* mesh, wf_poly_ref ref, const wf_query_filter* filter);

#endif
