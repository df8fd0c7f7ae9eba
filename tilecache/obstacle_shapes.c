// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Obstacle shapes: desc validation, the precomputed stamp (world bounds
// widened by the agent radius), and marking a decompressed layer's cells.
#include <math.h>
#include <string.h>

#include "tilecache/obstacle_shapes.h"

/* ---------------------------------------------------------------------------
 * Validation
 */

static bool positive(float v) { return isfinite(v) && v > 0.0f; }

/// Strictly convex outline in either winding: every vertex not on an edge
/// lies strictly on the same side of that edge. O(n^2) with n <= 32; unlike
/// checking only consecutive turns it also rejects self-intersecting stars
/// and repeated or collinear points.
static bool outline_convex(const wf_vec3* v, uint32_t n) {
    float total = 0.0f;
    for (uint32_t i = 2; i < n; ++i) {
        total += wf_v2_triangle_area2(v[0], v[i - 1], v[i]);
    }
    if (!(total != 0.0f) || !isfinite(total)) {
        return false;
    }
    for (uint32_t i = 0, j = n - 1; i < n; j = i++) {
        for (uint32_t k = 0; k < n; ++k) {
            if (k == i || k == j) {
                continue;
            }
            float s = wf_v2_triangle_area2(v[j], v[i], v[k]);
            if (total > 0.0f ? !(s > 0.0f) : !(s < 0.0f)) {
                return false;
            }
        }
    }
    return true;
}

wf_status wf_obstacle_desc_check(const wf_obstacle_desc* d) {
    if (d == NULL || !wf_v3_is_finite(d->position) || (d->paint && d->area > 63u)) {
        return WF_ERR_INVALID_ARG;
    }
    const wf_vec3 h = d->half_extents;
    switch (d->shape) {
    case WF_OBSTACLE_CYLINDER:
        return positive(d->radius) && positive(d->height) ? WF_OK : WF_ERR_INVALID_ARG;
    case WF_OBSTACLE_BOX:
        return positive(h.x) && positive(h.y) && positive(h.z) ? WF_OK : WF_ERR_INVALID_ARG;
    case WF_OBSTACLE_ORIENTED_BOX:
        return positive(h.x) && positive(h.y) && positive(h.z) && isfinite(d->yaw)
                   ? WF_OK
                   : WF_ERR_INVALID_ARG;
    case WF_OBSTACLE_PRISM:
        if (d->vert_count < 3 || d->vert_count > WF_OBSTACLE_MAX_VERTS || !positive(d->height)) {
            return WF_ERR_INVALID_ARG;
        }
        for (uint32_t i = 0; i < d->vert_count; ++i) {
            if (!isfinite(d->verts[i].x) || !isfinite(d->verts[i].z)) {
                return WF_ERR_INVALID_ARG;
            }
        }
        return outline_convex(d->verts, d->vert_count) ? WF_OK : WF_ERR_INVALID_ARG;
    default:
        return WF_ERR_INVALID_ARG;
    }
}

/* ---------------------------------------------------------------------------
 * Stamp
 */

void wf_obstacle_make_stamp(const wf_obstacle_desc* d, float agent_radius, float climb,
                            wf_obstacle_stamp* out) {
    memset(out, 0, sizeof *out);
    out->shape = (uint8_t)d->shape;
    out->paint = d->paint ? 1u : 0u;
    out->area = d->paint ? d->area : WF_AREA_NULL;
    const wf_vec3 p = d->position;
    out->cx = p.x;
    out->cz = p.z;
    float ex = 0.0f, ez = 0.0f; // XZ half size of the bounds around (cx, cz)
    switch (d->shape) {
    case WF_OBSTACLE_CYLINDER:
        out->radius = d->radius + agent_radius;
        ex = ez = out->radius;
        out->bmin[1] = p.y;
        out->bmax[1] = p.y + d->height;
        break;
    case WF_OBSTACLE_BOX:
    case WF_OBSTACLE_ORIENTED_BOX:
        out->hx = d->half_extents.x + agent_radius;
        out->hz = d->half_extents.z + agent_radius;
        out->bmin[1] = p.y - d->half_extents.y;
        out->bmax[1] = p.y + d->half_extents.y;
        out->cos_yaw = 1.0f;
        ex = out->hx;
        ez = out->hz;
        if (d->shape == WF_OBSTACLE_ORIENTED_BOX) {
            // Bounds of the widened box turned by yaw (its corners stay square).
            out->cos_yaw = cosf(d->yaw);
            out->sin_yaw = sinf(d->yaw);
            float c = fabsf(out->cos_yaw), s = fabsf(out->sin_yaw);
            ex = c * out->hx + s * out->hz;
            ez = s * out->hx + c * out->hz;
        }
        break;
    case WF_OBSTACLE_PRISM: {
        uint32_t n = d->vert_count;
        float total = 0.0f;
        for (uint32_t i = 2; i < n; ++i) {
            total += wf_v2_triangle_area2(d->verts[0], d->verts[i - 1], d->verts[i]);
        }
        float x0 = d->verts[0].x, x1 = x0, z0 = d->verts[0].z, z1 = z0;
        for (uint32_t i = 0; i < n; ++i) {
            // Stored counter-clockwise: reversed when given clockwise.
            const wf_vec3 v = d->verts[total > 0.0f ? i : n - 1u - i];
            out->verts[2u * i] = v.x;
            out->verts[2u * i + 1u] = v.z;
            x0 = fminf(x0, v.x);
            x1 = fmaxf(x1, v.x);
            z0 = fminf(z0, v.z);
            z1 = fmaxf(z1, v.z);
        }
        out->vert_count = (uint8_t)n;
        out->expand = agent_radius;
        out->bmin[0] = x0 - agent_radius;
        out->bmax[0] = x1 + agent_radius;
        out->bmin[2] = z0 - agent_radius;
        out->bmax[2] = z1 + agent_radius;
        out->bmin[1] = p.y;
        out->bmax[1] = p.y + d->height;
        break;
    }
    default:
        break;
    }
    if (d->shape != WF_OBSTACLE_PRISM) {
        out->bmin[0] = p.x - ex;
        out->bmax[0] = p.x + ex;
        out->bmin[2] = p.z - ez;
        out->bmax[2] = p.z + ez;
    }
    // A floor a step below the base is under the obstacle too: the agent
    // could step up onto where it stands.
    out->bmin[1] -= climb;
}

/* ---------------------------------------------------------------------------
 * Stamping a layer
 */

/// First and last cell index along one axis whose centre may lie in
/// [lo, hi]; one cell wider on each side than exact, since the shape test
/// decides, and clamped in float before the cast (bounds may be huge).
static bool cell_range(float lo, float hi, float origin, float cs, uint32_t size, int32_t* out0,
                       int32_t* out1) {
    float f0 = floorf((lo - origin) / cs - 0.5f);
    float f1 = ceilf((hi - origin) / cs - 0.5f);
    if (!(f1 >= 0.0f) || !(f0 <= (float)size - 1.0f)) {
        return false;
    }
    *out0 = f0 > 0.0f ? (int32_t)f0 : 0;
    *out1 = f1 < (float)size - 1.0f ? (int32_t)f1 : (int32_t)size - 1;
    return true;
}

/// Cells of a layer a stamp may change: the cell range under its bounds
/// and its vertical window.
typedef struct stamp_window {
    int32_t x0, x1, z0, z1;
    float ymin, ymax;
} stamp_window;

/// True when the cell holds a walkable floor inside the vertical window.
/// Cells already carved (area WF_AREA_NULL) are skipped, so a carve by an
/// earlier stamp is never painted over.
static inline bool cell_open(const wf_layer* l, uint32_t i, const stamp_window* w) {
    uint8_t h = l->heights[i];
    if (h == WF_LAYER_EMPTY || l->areas[i] == WF_AREA_NULL) {
        return false;
    }
    float y = l->bmin[1] + (float)((uint32_t)l->hmin + h) * l->ch;
    return y >= w->ymin && y <= w->ymax;
}

/// Unit outward normals of a prism's edges (edge j runs from vertex j to
/// j + 1) and their inverse lengths.
typedef struct prism_edges {
    float nx[WF_OBSTACLE_MAX_VERTS], nz[WF_OBSTACLE_MAX_VERTS];
    float inv_len[WF_OBSTACLE_MAX_VERTS];
} prism_edges;

static void prism_edges_make(const wf_obstacle_stamp* s, prism_edges* e) {
    for (uint32_t i = 0, j = s->vert_count - 1u; i < s->vert_count; j = i++) {
        float dx = s->verts[2u * i] - s->verts[2u * j];
        float dz = s->verts[2u * i + 1u] - s->verts[2u * j + 1u];
        e->inv_len[j] = 1.0f / sqrtf(dx * dx + dz * dz);
        e->nx[j] = -dz * e->inv_len[j];
        e->nz[j] = dx * e->inv_len[j];
    }
}

/// (px, pz) is inside the convex counter-clockwise outline or within
/// `expand` of it. The largest distance outside an edge line is a lower
/// bound of the true distance, and the nearest point of a convex outline
/// lies on an edge whose line the point is outside of: only those edges
/// (usually one or two) get the segment test.
static bool in_prism(const wf_obstacle_stamp* s, const prism_edges* e, float px, float pz) {
    const float* v = s->verts;
    const uint32_t n = s->vert_count;
    const float ex = s->expand;
    uint8_t out[WF_OBSTACLE_MAX_VERTS];
    uint32_t out_count = 0;
    for (uint32_t j = 0; j < n; ++j) {
        float d = e->nx[j] * (px - v[2u * j]) + e->nz[j] * (pz - v[2u * j + 1u]);
        if (d > ex) {
            return false;
        }
        if (d > 0.0f) {
            out[out_count++] = (uint8_t)j;
        }
    }
    for (uint32_t k = 0; k < out_count; ++k) {
        uint32_t j = out[k], i = j + 1u < n ? j + 1u : 0u;
        float ax = v[2u * j], az = v[2u * j + 1u];
        float dx = v[2u * i] - ax, dz = v[2u * i + 1u] - az;
        float t = ((px - ax) * dx + (pz - az) * dz) * (e->inv_len[j] * e->inv_len[j]);
        t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
        float qx = ax + t * dx - px, qz = az + t * dz - pz;
        if (qx * qx + qz * qz <= ex * ex) {
            return true;
        }
    }
    return out_count == 0;
}

/// Edges closer than this to parallel with a row (unit normal x) clip it
/// all or nothing: the error is 1e-6 of the obstacle's size, far below a
/// cell, and 1 / nx stays finite.
#define PRISM_FLAT_EDGE 1e-6f

/// A prism row by row: each edge's half-plane clips the row's centre line
/// to an interval, once for the outline widened by `expand` with mitred
/// corners (a superset of the rounded shape) and once for the outline
/// itself. Cells outside the first interval are out and cells inside the
/// second are in without a test; only the band between (the agent radius
/// wide) gets the exact test, which keeps a large prism at about
/// O(rows * edges) instead of O(cells * edges).
static void stamp_prism(wf_layer* l, const wf_obstacle_stamp* s, const stamp_window* w,
                        uint8_t mark) {
    prism_edges e;
    prism_edges_make(s, &e);
    const float cs = l->cs, ex = s->expand;
    const uint32_t n = s->vert_count;
    for (int32_t z = w->z0; z <= w->z1; ++z) {
        float pz = l->bmin[2] + ((float)z + 0.5f) * cs;
        float lo = -INFINITY, hi = INFINITY, lo0 = -INFINITY, hi0 = INFINITY;
        bool empty = false;
        for (uint32_t j = 0; j < n; ++j) {
            // Distance outside edge j: nx (px - ax) + nz (pz - az) <= limit.
            float ax = s->verts[2u * j];
            float base = -e.nz[j] * (pz - s->verts[2u * j + 1u]);
            float nx = e.nx[j];
            if (nx > PRISM_FLAT_EDGE) {
                float inv = 1.0f / nx;
                float a = ax + (base + ex) * inv, a0 = ax + base * inv;
                hi = a < hi ? a : hi;
                hi0 = a0 < hi0 ? a0 : hi0;
            } else if (nx < -PRISM_FLAT_EDGE) {
                float inv = 1.0f / nx;
                float a = ax + (base + ex) * inv, a0 = ax + base * inv;
                lo = a > lo ? a : lo;
                lo0 = a0 > lo0 ? a0 : lo0;
            } else {
                empty |= base + ex < 0.0f;
                lo0 = base < 0.0f ? INFINITY : lo0;
            }
        }
        if (empty || !(lo <= hi)) {
            continue;
        }
        // Cell indices as floats (bounds may be far outside the layer).
        float fa = ceilf((lo - l->bmin[0]) / cs - 0.5f);
        float fb = floorf((hi - l->bmin[0]) / cs - 0.5f);
        float in0 = ceilf((lo0 - l->bmin[0]) / cs - 0.5f);
        float in1 = floorf((hi0 - l->bmin[0]) / cs - 0.5f);
        int32_t x0 = fa > (float)w->x0 ? (int32_t)fa : w->x0;
        int32_t x1 = fb < (float)w->x1 ? (int32_t)fb : w->x1;
        uint32_t row = (uint32_t)z * l->width;
        for (int32_t x = x0; x <= x1; ++x) {
            uint32_t i = row + (uint32_t)x;
            if (!cell_open(l, i, w)) {
                continue;
            }
            float fx = (float)x;
            if ((fx >= in0 && fx <= in1) || in_prism(s, &e, l->bmin[0] + (fx + 0.5f) * cs, pz)) {
                l->areas[i] = mark;
            }
        }
    }
}

static void stamp_one(wf_layer* l, const wf_obstacle_stamp* s) {
    stamp_window w;
    if (s->bmax[1] < l->bmin[1] + (float)l->hmin * l->ch ||
        s->bmin[1] > l->bmin[1] + (float)l->hmax * l->ch ||
        !cell_range(s->bmin[0], s->bmax[0], l->bmin[0], l->cs, l->width, &w.x0, &w.x1) ||
        !cell_range(s->bmin[2], s->bmax[2], l->bmin[2], l->cs, l->depth, &w.z0, &w.z1)) {
        return;
    }
    w.ymin = s->bmin[1];
    w.ymax = s->bmax[1];
    const uint8_t mark = s->paint ? s->area : WF_AREA_NULL;
    if (s->shape == WF_OBSTACLE_PRISM) {
        stamp_prism(l, s, &w, mark);
        return;
    }
    const float cs = l->cs;
    const float r2 = s->radius * s->radius;
    for (int32_t z = w.z0; z <= w.z1; ++z) {
        float dz = l->bmin[2] + ((float)z + 0.5f) * cs - s->cz;
        uint32_t row = (uint32_t)z * l->width;
        for (int32_t x = w.x0; x <= w.x1; ++x) {
            uint32_t i = row + (uint32_t)x;
            if (!cell_open(l, i, &w)) {
                continue;
            }
            float dx = l->bmin[0] + ((float)x + 0.5f) * cs - s->cx;
            bool inside;
            switch (s->shape) {
            case WF_OBSTACLE_CYLINDER:
                inside = dx * dx + dz * dz <= r2;
                break;
            case WF_OBSTACLE_BOX:
                inside = fabsf(dx) <= s->hx && fabsf(dz) <= s->hz;
                break;
            case WF_OBSTACLE_ORIENTED_BOX: {
                // Into the box's frame: yaw turns +X toward -Z (right-handed
                // about +Y), so undo it.
                float lx = dx * s->cos_yaw - dz * s->sin_yaw;
                float lz = dx * s->sin_yaw + dz * s->cos_yaw;
                inside = fabsf(lx) <= s->hx && fabsf(lz) <= s->hz;
                break;
            }
            default:
                inside = false;
                break;
            }
            if (inside) {
                l->areas[i] = mark;
            }
        }
    }
}

void wf_obstacle_stamp_layer(wf_layer* layer, const wf_obstacle_stamp* stamps, uint32_t count) {
    for (uint32_t k = 0; k < count; ++k) {
        stamp_one(layer, &stamps[k]);
    }
}
