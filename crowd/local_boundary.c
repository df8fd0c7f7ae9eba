// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Local boundary: the nearest walls of the polygons around an agent, kept
// sorted by distance while they are read.
#include "crowd/local_boundary.h"

#include <math.h>

#include "navcore/check.h"

float wf_segment_distance_sq_2d(wf_vec3 p, wf_vec3 a, wf_vec3 b) {
    float dx = b.x - a.x, dz = b.z - a.z;
    float px = p.x - a.x, pz = p.z - a.z;
    float dot = px * dx + pz * dz;
    if (dot <= 0.0f) { // before a, or a degenerate segment
        return px * px + pz * pz;
    }
    float len_sq = dx * dx + dz * dz;
    if (dot >= len_sq) {
        float qx = p.x - b.x, qz = p.z - b.z;
        return qx * qx + qz * qz;
    }
    float t = dot / len_sq;
    float ex = px - t * dx, ez = pz - t * dz;
    return ex * ex + ez * ez;
}

uint32_t wf_local_boundary_collect(wf_query* query, wf_poly_ref ref, wf_vec3 pos, float range,
                                   const wf_query_filter* filter, wf_vec3* out_walls,
                                   uint32_t max_walls, wf_poly_ref* out_polys,
                                   uint32_t* out_poly_count) {
    if (out_poly_count != NULL) {
        *out_poly_count = 0;
    }
    WF_CHECK_OR(query != NULL && filter != NULL, 0u);
    WF_CHECK_OR(out_walls != NULL || max_walls == 0, 0u);
    WF_CHECK_OR(range >= 0.0f && isfinite(range) && wf_v3_is_finite(pos), 0u);
    if (wf_poly_ref_is_null(ref)) {
        return 0;
    }
    wf_poly_ref polys[WF_LOCAL_BOUNDARY_MAX_POLYS];
    uint32_t poly_count = 0;
    // WF_PARTIAL: the neighbourhood was cut at the capacity; use what came.
    if (!wf_succeeded(wf_query_find_local_neighbourhood(query, ref, pos, range, filter, polys, NULL,
                                                        WF_LOCAL_BOUNDARY_MAX_POLYS,
                                                        &poly_count))) {
        return 0;
    }
    if (out_polys != NULL) {
        for (uint32_t i = 0; i < poly_count; ++i) {
            out_polys[i] = polys[i];
        }
    }
    if (out_poly_count != NULL) {
        *out_poly_count = poly_count;
    }

    const float range_sq = range * range;
    uint32_t n = 0;
    for (uint32_t p = 0; p < poly_count && max_walls > 0; ++p) {
        // An off-mesh link (only ever the start) has no walls; asking is misuse.
        if (wf_mesh_is_offmesh_link(wf_query_get_mesh(query), polys[p])) {
            continue;
        }
        wf_vec3 segs[2u * WF_LOCAL_BOUNDARY_MAX_POLY_WALLS];
        uint32_t seg_count = 0;
        if (!wf_succeeded(wf_query_get_poly_wall_segments(query, polys[p], filter, segs, NULL,
                                                          WF_LOCAL_BOUNDARY_MAX_POLY_WALLS,
                                                          &seg_count))) {
            continue;
        }
        for (uint32_t s = 0; s < seg_count; ++s) {
            wf_vec3 a = segs[2u * s], b = segs[2u * s + 1u];
            float d = wf_segment_distance_sq_2d(pos, a, b);
            if (d > range_sq) {
                continue;
            }
            // Insertion by distance; kept walls' distances are recomputed
            // (the same pure function: same value) so max_walls needs no
            // scratch. Equal distances stay in the order found.
            uint32_t k = n;
            if (n == max_walls) {
                if (d >= wf_segment_distance_sq_2d(pos, out_walls[2u * (n - 1u)],
                                                   out_walls[2u * (n - 1u) + 1u])) {
                    continue;
                }
                k = n - 1u; // the farthest drops out
            } else {
                n++;
            }
            while (k > 0 && wf_segment_distance_sq_2d(pos, out_walls[2u * (k - 1u)],
                                                      out_walls[2u * (k - 1u) + 1u]) > d) {
                out_walls[2u * k] = out_walls[2u * (k - 1u)];
                out_walls[2u * k + 1u] = out_walls[2u * (k - 1u) + 1u];
                k--;
            }
            out_walls[2u * k] = a;
            out_walls[2u * k + 1u] = b;
        }
    }
    return n;
}

bool wf_local_boundary_polys_valid(const wf_mesh* mesh, const wf_poly_ref* refs, uint32_t count) {
    WF_CHECK_OR(mesh != NULL && (refs != NULL || count == 0), false);
    for (uint32_t i = 0; i < count; ++i) {
        if (wf_mesh_check_poly(mesh, refs[i]) != WF_OK) {
            return false;
        }
    }
    return true;
}
