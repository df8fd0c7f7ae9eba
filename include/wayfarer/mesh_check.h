// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
/*
 * Navmesh integrity check: the questions a level's navmesh must answer
 * "yes" to before a crowd can trust it.
 *
 * - Seams: along every border between two neighbouring tiles, points a
 *   little either side of it that lie on polygons of both tiles at nearly
 *   the same height must see each other: a raycast from one to the other
 *   may not stop. A failure is an invisible wall the level does not have.
 *   A ray stopped on the seam line where the tile across also reaches the
 *   seam is a failure: both tiles are walkable there and not linked.
 *   Counted apart, and not failures: a ray stopped by an outline that
 *   leaves the seam (grazing: a real obstacle or wall touching the seam,
 *   its rounded corner simplified on both sides), and one stopped where
 *   the two tiles' outlines meet the seam a little apart (offset: each
 *   tile erodes and simplifies its own cells, so an obstacle's edge may
 *   reach the seam up to a cell or so apart on the two sides; at most
 *   seam_offset).
 * - Links: every polygon-to-polygon link has a link back; every off-mesh
 *   link is attached at both ends.
 * - Polygons: convex and counter-clockwise seen from above.
 *
 *     wf_mesh_check_report r;
 *     wf_query_check_mesh(query, &(wf_mesh_check_desc){0}, &r);
 *     if (r.issue_count != 0) { ... }
 */
#ifndef WAYFARER_MESH_CHECK_H
#define WAYFARER_MESH_CHECK_H

#include "wayfarer/base.h"
#include "wayfarer/navmesh.h"
#include "wayfarer/query.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum wf_mesh_issue_kind {
    WF_MESH_ISSUE_SEAM_BLOCKED =
        1, ///< a ray across a tile seam stopped between two walkable points
    WF_MESH_ISSUE_ONE_WAY_LINK = 2,  ///< a ground link with no link back
    WF_MESH_ISSUE_LOOSE_OFFMESH = 3, ///< an off-mesh link not attached at its start (or end)
    WF_MESH_ISSUE_NOT_CONVEX = 4,    ///< a polygon that is not convex and counter-clockwise
} wf_mesh_issue_kind;

/// One failure. Seams: a -> b is the probe ray (ref and other the polygons
/// under its ends, t where it stopped). Links: ref -> other is the link, a
/// and b the polygons' centres. Polygons: ref, a its centre.
typedef struct wf_mesh_issue {
    wf_mesh_issue_kind kind;
    wf_vec3 a, b;
    wf_poly_ref ref, other;
    float t;
} wf_mesh_issue;

typedef struct wf_mesh_check_desc {
    float seam_offset;  ///< probe distance either side of a seam; 0 = 0.35 m
    float seam_spacing; ///< between probes along a seam; 0 = 0.25 m
    float max_climb;    ///< largest height difference probed across; 0 = 0.9 m
    /// Called once per failure (optional), in a fixed order.
    void (*on_issue)(const wf_mesh_issue* issue, void* user);
    void* user;
} wf_mesh_check_desc;

/// The desc with every setting left zero set to its default (NULL: all
/// defaults).
WF_API wf_mesh_check_desc wf_mesh_check_desc_defaults(const wf_mesh_check_desc* desc);

typedef struct wf_mesh_check_report {
    uint32_t seam_probes;  ///< rays cast across seams
    uint32_t seam_blocked; ///< of which stopped at a wall between two tiles (failures)
    uint32_t seam_grazing; ///< of which stopped at an outline off the seam (not failures)
    uint32_t
        seam_offset; ///< of which stopped where the outlines meet the seam apart (not failures)
    uint32_t links_checked;
    uint32_t one_way_links;
    uint32_t loose_offmesh_links;
    uint32_t polys_checked;
    uint32_t non_convex_polys;
    uint32_t issue_count; ///< all failures together
} wf_mesh_check_report;

/// Checks the query's whole mesh. WF_OK when it ran (read issue_count for
/// the verdict); WF_ERR_INVALID_ARG for a NULL argument or a negative or
/// non-finite setting. The query's search state is reused (a sliced path
/// search in progress is over).
WF_NODISCARD WF_API wf_status wf_query_check_mesh(wf_query* query, const wf_mesh_check_desc* desc,
                                                  wf_mesh_check_report* out);

#ifdef __cplusplus
}
#endif

#endif // WAYFARER_MESH_CHECK_H
