// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Landmark lower bounds for exact mode (ALT: Goldberg and Harrenstein
// 2005). A table holds, for each of a few landmark points L, bounds of the
// geodesic XZ distance d(L, p) for every polygon vertex p of the mesh
// (exact where p is a corner the exact search turns at). For a turning
// point r and the goal t, |d(L, t) - d(L, r)| <= d(r, t) (the triangle
// inequality), so the largest such difference over the landmarks is a
// lower bound of the rest of every path turning at r, and a consistent one
// (it changes by at most |r - r'| between two roots).
//
// Entries are keyed by the vertex's position, not by polygon ids: after
// tiles are rebuilt (obstacles only take walkable area away, so distances
// only grow) the old distances still give lower bounds for the points that
// remain, and points the table does not know give no bound (0).
#ifndef WF_NAVCORE_EXACT_LANDMARKS_H
#define WF_NAVCORE_EXACT_LANDMARKS_H
#include "wayfarer/query.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Most landmarks a table may have.
#define WF_EXACT_MAX_LANDMARKS 16u

struct wf_exact_landmarks {
    wf_allocator allocator;
    const wf_mesh* mesh;      ///< the mesh it was measured on
    uint32_t mesh_stamp;      ///< the mesh's change_count then
    bool valid_after_changes; ///< wf_exact_landmarks_desc.valid_after_changes
    uint32_t landmark_count;
    uint32_t point_count;
    uint32_t point_capacity;
    uint32_t slot_mask; ///< position hash: slot_mask + 1 slots
    uint32_t* slots;    ///< point index + 1 (0 empty)
    float* points;      ///< x, y, z per point
    /// Per point, landmark_count pairs (lo, hi): lo <= d(L, p) <= hi
    /// (hi infinite where no path was measured).
    float* bounds;
    float landmarks[WF_EXACT_MAX_LANDMARKS][3];
};

/// One search's view of a table: bounds of d(L, goal) per landmark.
typedef struct wf_exact_landmark_goal {
    const struct wf_exact_landmarks* table; ///< NULL: no landmarks
    double lo[WF_EXACT_MAX_LANDMARKS];
    double hi[WF_EXACT_MAX_LANDMARKS];
} wf_exact_landmark_goal;

/// Sets the goal's bounds from the vertices of its (ground) polygon; a
/// NULL table leaves the view without landmarks.
void wf_exact_landmark_goal_begin(wf_exact_landmark_goal* goal,
                                  const struct wf_exact_landmarks* table, const wf_mesh* mesh,
                                  wf_poly_ref goal_ref, wf_vec3 goal_pos);

/// A lower bound of the XZ distance from point p (x, y, z; floats widened)
/// to the goal, rounded down to a float; 0 when the table does not know p.
float wf_exact_landmark_bound(const wf_exact_landmark_goal* goal, const double* p);

#endif
