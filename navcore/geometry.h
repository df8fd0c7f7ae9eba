// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// 2D (XZ ground plane) and 3D geometry used by the mesh and the queries.
// Polygons are counter-clockwise seen from above, the sign convention of
// wf_v2_triangle_area2 (positive for counter-clockwise).
#ifndef WF_NAVCORE_GEOMETRY_H
#define WF_NAVCORE_GEOMETRY_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wayfarer/vec3.h"

/// Squared XZ distance from p to segment ab; *out_t = position along ab 0..1.
static inline float wf_dist_point_segment_sq_2d(wf_vec3 p, wf_vec3 a, wf_vec3 b, float* out_t) {
    float dx = b.x - a.x, dz = b.z - a.z;
    float len_sq = dx * dx + dz * dz;
    float t = 0.0f;
    if (len_sq > 0.0f) {
        t = ((p.x - a.x) * dx + (p.z - a.z) * dz) / len_sq;
        t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    }
    if (out_t != NULL) {
        *out_t = t;
    }
    float ex = a.x + t * dx - p.x, ez = a.z + t * dz - p.z;
    return ex * ex + ez * ez;
}

/// Position of p along a -> b (XZ), 0 at a, 1 at b, not clamped.
static inline float wf_edge_param_2d(wf_vec3 p, wf_vec3 a, wf_vec3 b) {
    float dx = b.x - a.x, dz = b.z - a.z;
    float len_sq = dx * dx + dz * dz;
    return len_sq > 0.0f ? ((p.x - a.x) * dx + (p.z - a.z) * dz) / len_sq : 0.0f;
}

/// True when p is inside or on the border of a convex counter-clockwise
/// polygon (XZ).
static inline bool wf_point_in_convex_poly_2d(wf_vec3 p, const wf_vec3* verts, uint32_t n) {
    for (uint32_t i = 0, j = n - 1; i < n; j = i++) {
        if (wf_v2_triangle_area2(verts[j], verts[i], p) < 0.0f) {
            return false;
        }
    }
    return true;
}

/// Height at p (XZ) on triangle abc; false when p is outside it (with a
/// small tolerance so shared edges are covered by both triangles).
static inline bool wf_triangle_height(wf_vec3 p, wf_vec3 a, wf_vec3 b, wf_vec3 c,
                                      float* out_height) {
    const float eps = 1e-6f;
    wf_vec3 v0 = wf_v3_sub(c, a), v1 = wf_v3_sub(b, a), v2 = wf_v3_sub(p, a);
    float denom = v0.x * v1.z - v0.z * v1.x;
    if (fabsf(denom) < 1e-12f) {
        return false;
    }
    float u = (v1.z * v2.x - v1.x * v2.z) / denom;
    float v = (v0.x * v2.z - v0.z * v2.x) / denom;
    if (u >= -eps && v >= -eps && u + v <= 1.0f + eps) {
        *out_height = a.y + v0.y * u + v1.y * v;
        return true;
    }
    return false;
}

/// Clips segment p0->p1 against a convex counter-clockwise polygon (XZ).
/// On overlap returns true with the entry/exit parameters and the edges
/// crossed there (-1 when the segment starts/ends inside).
static inline bool wf_intersect_segment_poly_2d(wf_vec3 p0, wf_vec3 p1, const wf_vec3* verts,
                                                uint32_t n, float* out_tmin, float* out_tmax,
                                                int* out_seg_min, int* out_seg_max) {
    const float eps = 1e-8f;
    float tmin = 0.0f, tmax = 1.0f;
    int seg_min = -1, seg_max = -1;
    wf_vec3 dir = wf_v3_sub(p1, p0);
    for (uint32_t i = 0, j = n - 1; i < n; j = i++) {
        wf_vec3 edge = wf_v3_sub(verts[i], verts[j]);
        wf_vec3 diff = wf_v3_sub(p0, verts[j]);
        // Inside is to the left of each counter-clockwise edge.
        float num = wf_v2_perp(edge, diff);
        float den = -wf_v2_perp(edge, dir);
        if (fabsf(den) < eps) {
            if (num < 0.0f) {
                return false; // parallel and outside this edge
            }
            continue;
        }
        float t = num / den;
        if (den < 0.0f) {
            if (t > tmin) {
                tmin = t;
                seg_min = (int)j;
                if (tmin > tmax) {
                    return false;
                }
            }
        } else if (t < tmax) {
            tmax = t;
            seg_max = (int)j;
            if (tmax < tmin) {
                return false;
            }
        }
    }
    *out_tmin = tmin;
    *out_tmax = tmax;
    *out_seg_min = seg_min;
    *out_seg_max = seg_max;
    return true;
}

static inline bool wf_boxes_overlap(wf_vec3 amin, wf_vec3 amax, wf_vec3 bmin, wf_vec3 bmax) {
    return amin.x <= bmax.x && amax.x >= bmin.x && amin.y <= bmax.y && amax.y >= bmin.y &&
           amin.z <= bmax.z && amax.z >= bmin.z;
}

/// Area of a convex polygon on XZ (positive for counter-clockwise).
static inline float wf_poly_area_2d(const wf_vec3* verts, uint32_t n) {
    float area2 = 0.0f;
    for (uint32_t i = 2; i < n; ++i) {
        area2 += wf_v2_triangle_area2(verts[0], verts[i - 1], verts[i]);
    }
    return area2 * 0.5f;
}

#endif
