// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Surface raycast: walks the polygons a ground-plane segment crosses,
// portal by portal, until it ends inside one or meets a wall.
#include <float.h>
#include <string.h>

#include "navcore/check.h"
#include "navcore/geometry.h"
#include "navcore/query_internal.h"

/// Slack, as a fraction of the edge, when asking whether the exit point lies
/// on a portal's shared part: portal limits are quantized to 1/255 of the
/// edge, and a ray through a portal's end must not be called blocked.
#define WF_RAYCAST_PORTAL_SLACK 1e-4f
/// How far (m, XZ) the exit point may lie from an edge other than the one
/// the clip chose and still leave through it.
#define WF_RAYCAST_EDGE_TOLERANCE 1e-4f
/// out->edge when the walk ended without meeting a wall.
#define WF_RAYCAST_NO_EDGE 0xffffffffu

/// The passable neighbour across `edge` whose shared part holds exit_pos,
/// or a null ref when the ray meets a wall there.
static wf_poly_ref exit_neighbour(const wf_mesh* mesh, wf_poly_ref ref, const wf_mesh_tile* tile,
                                  const wf_tile_poly* poly, uint32_t edge, wf_vec3 va, wf_vec3 vb,
                                  wf_vec3 exit_pos, const wf_query_filter* filter) {
    float u = wf_edge_param_2d(exit_pos, va, vb);
    if (u < -WF_RAYCAST_PORTAL_SLACK || u > 1.0f + WF_RAYCAST_PORTAL_SLACK) {
        return (wf_poly_ref){0}; // the exit lies on a collinear edge beside this one
    }
    uint32_t index = wf_tile_poly_index(tile, poly);
    for (uint32_t k = tile->first_link[index]; k != WF_NULL_LINK; k = tile->links[k].next) {
        const wf_tile_link* link = &tile->links[k];
        if (link->edge != edge) {
            continue; // off-mesh link ends (edge 0xff) are never followed
        }
        wf_poly_ref next = wf_poly_ref_from_u64(link->ref);
        const wf_mesh_tile* next_tile;
        const wf_tile_poly* next_poly;
        wf_mesh_resolve_unchecked(mesh, next, &next_tile, &next_poly);
        if (wf_poly_type(next_poly) != WF_POLY_TYPE_GROUND ||
            !wf_filter_passes(filter, next_tile, wf_tile_poly_index(next_tile, next_poly))) {
            continue;
        }
        if (link->side != 0xff) {
            // A tile-border link may cover only part of the edge.
            wf_vec3 left, right;
            if (wf_mesh_portal_points(mesh, ref, tile, poly, next, next_tile, next_poly, &left,
                                      &right) != WF_OK) {
                continue;
            }
            float ul = wf_edge_param_2d(left, va, vb), ur = wf_edge_param_2d(right, va, vb);
            float lo = ul < ur ? ul : ur, hi = ul < ur ? ur : ul;
            if (u < lo - WF_RAYCAST_PORTAL_SLACK || u > hi + WF_RAYCAST_PORTAL_SLACK) {
                continue;
            }
        }
        return next;
    }
    return (wf_poly_ref){0};
}

/*
 * Results beyond the header's description:
 * - out->normal points from the wall back into the polygon the ray was in
 *   (towards the ray's start side), unit length in XZ, y = 0.
 * - A start outside start_ref's polygon (seen from above) hits at t = 0
 *   with a zero normal and edge WF_RAYCAST_NO_EDGE (0xffffffff), which is
 *   also out->edge when nothing was hit.
 * - visited may be NULL (max_visited is then ignored); out->visited_count
 *   counts the polygons walked. On WF_PARTIAL, out->t is where the walk
 *   stopped (the entry into the first polygon that did not fit), with a
 *   zero normal: treat it as "not known to be clear beyond t".
 */
wf_status wf_query_raycast(wf_query* query, wf_poly_ref start_ref, wf_vec3 start, wf_vec3 end,
                           const wf_query_filter* filter, wf_poly_ref* visited,
                           uint32_t max_visited, wf_raycast_hit* out) {
    WF_CHECK_ARG(query != NULL && filter != NULL && out != NULL);
    WF_CHECK_ARG(wf_v3_is_finite(start) && wf_v3_is_finite(end));
    WF_CHECK_ARG(!wf_poly_ref_is_null(start_ref));
    const wf_mesh* mesh = query->mesh;
    const wf_mesh_tile* tile;
    const wf_tile_poly* poly;
    wf_status status = wf_mesh_resolve(mesh, start_ref, &tile, &poly);
    if (status != WF_OK) {
        return status;
    }
    WF_CHECK_ARG(wf_poly_type(poly) == WF_POLY_TYPE_GROUND);

    wf_raycast_hit hit;
    memset(&hit, 0, sizeof hit);
    hit.edge = WF_RAYCAST_NO_EDGE;
    wf_poly_ref cur = start_ref, prev = {0};
    float t_enter = 0.0f;
    wf_vec3 verts[WF_MAX_VERTS_PER_POLY];
    for (;;) {
        if (visited != NULL) {
            if (hit.visited_count >= max_visited) {
                status = WF_PARTIAL;
                hit.t = t_enter;
                break;
            }
            visited[hit.visited_count] = cur;
        }
        hit.visited_count++;
        uint32_t n = wf_tile_poly_vertices(tile, poly, verts);
        float tmin, tmax;
        int seg_min, seg_max;
        if (!wf_intersect_segment_poly_2d(start, end, verts, n, &tmin, &tmax, &seg_min, &seg_max)) {
            // The segment misses this polygon: a start outside start_ref, or
            // a ray grazing a vertex between two polygons. Blocked here.
            hit.t = t_enter;
            break;
        }
        uint32_t index = wf_tile_poly_index(tile, poly);
        wf_vec3 entry = wf_v3_lerp(start, end, t_enter);
        if (seg_max < 0) {
            hit.path_cost += wf_filter_cost(filter, entry, end, tile, index);
            hit.t = FLT_MAX;
            break;
        }
        wf_vec3 exit_pos = wf_v3_lerp(start, end, tmax);
        hit.path_cost += wf_filter_cost(filter, entry, exit_pos, tile, index);
        uint32_t edge = (uint32_t)seg_max;
        wf_vec3 va = verts[edge], vb = verts[(edge + 1u) % n];
        wf_poly_ref next = exit_neighbour(mesh, cur, tile, poly, edge, va, vb, exit_pos, filter);
        if (wf_poly_ref_is_null(next)) {
            // The clip names one edge, but the exit may lie on another that
            // meets it there: a vertex the ray passes through, or a polygon
            // with collinear edges (tile borders split where the neighbour
            // tile has a vertex). Any of them leading on is the way out.
            for (uint32_t e = 0; e < n && wf_poly_ref_is_null(next); ++e) {
                wf_vec3 ea = verts[e], eb = verts[(e + 1u) % n];
                float unused;
                if (e == edge || wf_dist_point_segment_sq_2d(exit_pos, ea, eb, &unused) >
                                     WF_RAYCAST_EDGE_TOLERANCE * WF_RAYCAST_EDGE_TOLERANCE) {
                    continue;
                }
                next = exit_neighbour(mesh, cur, tile, poly, e, ea, eb, exit_pos, filter);
            }
        }
        if (wf_poly_ref_is_null(next) || wf_poly_ref_equal(next, prev)) {
            // Wall. Counter-clockwise polygons have their inside on the
            // left of each edge, so (dz, -dx) points inwards.
            hit.t = tmax;
            hit.edge = edge;
            hit.normal = wf_v3_normalize(wf_v3(vb.z - va.z, 0.0f, -(vb.x - va.x)));
            break;
        }
        prev = cur;
        cur = next;
        wf_mesh_resolve_unchecked(mesh, cur, &tile, &poly);
        t_enter = tmax;
    }
    *out = hit;
    return status;
}
