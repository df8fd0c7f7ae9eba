// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Conservative triangle voxelization: each triangle is cut into the rows it
// covers (Sutherland-Hodgman splits at row edges); each row polygon is swept
// along x, and the height range of its piece in every cell it touches
// becomes a solid span.
#include <math.h>

#include "navcore/check.h"
#include "tilecache/heightfield.h"

/// A triangle cut by two parallel lines has at most 5 corners, and that
/// strip cut by two more at most 7; a little slack on top.
#define MAX_CLIP_VERTS 12

/// Cuts the convex polygon `in` (n corners of 3 floats) at z = offset into
/// the part below, kept as (x, y) pairs, and the part above, kept whole.
/// Points on the line go to both. Rounding could in theory make a cut
/// polygon slightly non-convex and add corners, so the buffer bound is
/// enforced, not assumed (a dropped corner only nudges a height range).
static void cut_row(const float* in, int n, float offset, float* row, int* row_count,
                    float* rest, int* rest_count) {
    int nb = 0, na = 0;
    for (int i = 0, j = n - 1; i < n; j = i++) {
        const float* a = &in[j * 3];
        const float* b = &in[i * 3];
        float da = offset - a[2];
        float db = offset - b[2];
        if ((da > 0.0f && db < 0.0f) || (da < 0.0f && db > 0.0f)) {
            float t = da / (da - db);
            float x = a[0] + (b[0] - a[0]) * t;
            float y = a[1] + (b[1] - a[1]) * t;
            if (nb < MAX_CLIP_VERTS) {
                row[nb * 2] = x;
                row[nb * 2 + 1] = y;
                nb++;
            }
            if (na < MAX_CLIP_VERTS) {
                rest[na * 3] = x;
                rest[na * 3 + 1] = y;
                rest[na * 3 + 2] = offset; // exact, so both parts share the cut
                na++;
            }
        }
        if (db >= 0.0f && nb < MAX_CLIP_VERTS) {
            row[nb * 2] = b[0];
            row[nb * 2 + 1] = b[1];
            nb++;
        }
        if (db <= 0.0f && na < MAX_CLIP_VERTS) {
            rest[na * 3] = b[0];
            rest[na * 3 + 1] = b[1];
            rest[na * 3 + 2] = b[2];
            na++;
        }
    }
    *row_count = nb;
    *rest_count = na;
}

/// floor(value) clamped to [lo, hi] without converting out-of-range floats
/// (and without floorf, which costs a library call or a long sequence on
/// plain x86-64).
static inline int32_t floor_clamped(float value, int32_t lo, int32_t hi) {
    if (!(value >= (float)lo)) {
        return lo; // also NaN
    }
    if (value >= (float)hi) {
        return hi;
    }
    int32_t i = (int32_t)value; // truncates toward zero
    return (float)i > value ? i - 1 : i;
}

/// ceil(value) clamped to [lo, hi], likewise.
static inline int32_t ceil_clamped(float value, int32_t lo, int32_t hi) {
    if (!(value > (float)lo)) {
        return lo;
    }
    if (value >= (float)hi) {
        return hi;
    }
    int32_t i = (int32_t)value;
    return (float)i < value ? i + 1 : i;
}

static bool triangle_is_walkable(const float* a, const float* b, const float* c,
                                 float cos_max_slope) {
    // n = (b - a) x (c - a); counter-clockwise seen from +Y gives n.y > 0.
    // n.y / |n| > cos is tested squared, for n.y > 0, to skip the sqrt.
    float e0[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    float e1[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    float n[3] = {e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2],
                  e0[0] * e1[1] - e0[1] * e1[0]};
    if (!(n[1] > 0.0f)) {
        return false; // faces down, stands upright, or is degenerate
    }
    float len2 = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
    return cos_max_slope <= 0.0f || n[1] * n[1] > cos_max_slope * cos_max_slope * len2;
}

/// Adds the span of one triangle piece whose heights (world y) are lo..hi.
static inline wf_status add_piece(wf_heightfield* hf, int32_t x, int32_t z, float lo,
                                  float hi, float inv_ch, uint8_t area, int32_t merge_climb) {
    const float top = hf->bmax[1] - hf->bmin[1];
    lo -= hf->bmin[1];
    hi -= hf->bmin[1];
    if (hi < 0.0f || lo > top) {
        return WF_OK; // this piece lies wholly below or above the field
    }
    lo = lo > 0.0f ? lo : 0.0f;
    hi = hi < top ? hi : top;
    int32_t smin = floor_clamped(lo * inv_ch, 0, (int32_t)WF_SPAN_MAX_HEIGHT);
    int32_t smax = ceil_clamped(hi * inv_ch, 0, (int32_t)WF_SPAN_MAX_HEIGHT);
    if (smax < smin + 1) {
        smax = smin + 1;
    }
    if (smax > (int32_t)WF_SPAN_MAX_HEIGHT) {
        // Only when smin is already at the ceiling: keep one voxel.
        smax = (int32_t)WF_SPAN_MAX_HEIGHT;
        smin = smax - 1;
    }
    return wf_heightfield_add_span(hf, x, z, (uint16_t)smin, (uint16_t)smax, area, merge_climb);
}

/// One of the two x-monotone chains of a convex row polygon, from its
/// leftmost to its rightmost corner.
typedef struct chain {
    const float* poly; ///< (x, y) pairs
    int n, at, left, step; ///< corner count, position, corners left, +1 or -1
    float x0, y0, slope;   ///< current edge: start and dy/dx
} chain;

static void chain_start(chain* c, const float* poly, int n, int first, int length, int step) {
    c->poly = poly;
    c->n = n;
    c->at = first;
    c->left = length;
    c->step = step;
    c->x0 = poly[first * 2];
    c->y0 = poly[first * 2 + 1];
    c->slope = 0.0f;
}

/// Walks the chain to x = boundary, widening [lo, hi] by the corners passed
/// and returning the chain's height at the boundary.
static inline float chain_advance(chain* c, float boundary, float* lo, float* hi) {
    c->slope = 0.0f;
    while (c->left > 0) {
        int next = c->at + c->step;
        next = next < 0 ? next + c->n : (next >= c->n ? next - c->n : next);
        float nx = c->poly[next * 2];
        float ny = c->poly[next * 2 + 1];
        if (nx > boundary) {
            if (nx > c->x0) {
                c->slope = (ny - c->y0) / (nx - c->x0);
            }
            break;
        }
        c->at = next;
        c->left--;
        c->x0 = nx;
        c->y0 = ny;
        *lo = ny < *lo ? ny : *lo;
        *hi = ny > *hi ? ny : *hi;
    }
    // Rounding can put the boundary a hair left of the chain's start.
    float dx = boundary - c->x0;
    return dx > 0.0f ? c->y0 + dx * c->slope : c->y0;
}

/// Rasterizes one row (z) of a triangle: the row polygon (x, y pairs, n
/// corners) is swept left to right along its two chains; each cell's piece
/// has the chains' points on its two sides and the corners between them, so
/// its height range comes without cutting the polygon per cell.
static wf_status rasterize_row(wf_heightfield* hf, int32_t z, const float* poly, int n,
                               float inv_cs, float inv_ch, uint8_t area, int32_t merge_climb) {
    int first = 0, last = 0;
    for (int i = 1; i < n; ++i) {
        if (poly[i * 2] < poly[first * 2]) {
            first = i;
        }
        if (poly[i * 2] > poly[last * 2]) {
            last = i;
        }
    }
    const float min_x = poly[first * 2];
    const float max_x = poly[last * 2];
    if (max_x < hf->bmin[0] || min_x > hf->bmax[0]) {
        return WF_OK;
    }
    int32_t x0 = floor_clamped((min_x - hf->bmin[0]) * inv_cs, -1, hf->width - 1);
    int32_t x1 = floor_clamped((max_x - hf->bmin[0]) * inv_cs, 0, hf->width - 1);
    if (!(max_x > min_x) || (x0 >= 0 && max_x <= hf->bmin[0] + (float)(x0 + 1) * hf->cs)) {
        // One cell (or a sliver along z, such as a wall on a cell line).
        float lo = poly[1], hi = poly[1];
        for (int i = 1; i < n; ++i) {
            lo = poly[i * 2 + 1] < lo ? poly[i * 2 + 1] : lo;
            hi = poly[i * 2 + 1] > hi ? poly[i * 2 + 1] : hi;
        }
        return x0 >= 0 ? add_piece(hf, x0, z, lo, hi, inv_ch, area, merge_climb) : WF_OK;
    }

    chain forward, backward;
    int forward_length = last >= first ? last - first : last + n - first;
    chain_start(&forward, poly, n, first, forward_length, 1);
    chain_start(&backward, poly, n, first, n - forward_length, -1);
    // Heights on the cell's left side (the leftmost corner for the first).
    float side_lo = poly[first * 2 + 1], side_hi = side_lo;
    for (int32_t x = x0; x <= x1; ++x) {
        float right = hf->bmin[0] + (float)(x + 1) * hf->cs;
        float lo = side_lo, hi = side_hi;
        bool last_cell = right >= max_x;
        if (!last_cell) {
            float ya = chain_advance(&forward, right, &lo, &hi);
            float yb = chain_advance(&backward, right, &lo, &hi);
            side_lo = ya < yb ? ya : yb;
            side_hi = ya > yb ? ya : yb;
            lo = side_lo < lo ? side_lo : lo;
            hi = side_hi > hi ? side_hi : hi;
        } else {
            (void)chain_advance(&forward, max_x, &lo, &hi);
            (void)chain_advance(&backward, max_x, &lo, &hi);
        }
        if (x >= 0) {
            wf_status st = add_piece(hf, x, z, lo, hi, inv_ch, area, merge_climb);
            if (st != WF_OK) {
                return st;
            }
        }
        if (last_cell) {
            break;
        }
    }
    return WF_OK;
}

static wf_status rasterize_triangle(wf_heightfield* hf, const float* a, const float* b,
                                    const float* c, uint8_t area, int32_t merge_climb) {
    float tmin[3], tmax[3];
    for (int k = 0; k < 3; ++k) {
        float lo = a[k] < b[k] ? a[k] : b[k];
        float hi = a[k] > b[k] ? a[k] : b[k];
        tmin[k] = c[k] < lo ? c[k] : lo;
        tmax[k] = c[k] > hi ? c[k] : hi;
        if (tmin[k] > hf->bmax[k] || tmax[k] < hf->bmin[k]) {
            return WF_OK;
        }
    }

    const float inv_cs = 1.0f / hf->cs;
    const float inv_ch = 1.0f / hf->ch;
    // Row -1 (when the triangle starts before the grid) only serves to cut
    // off the part outside; rows past the last are never split off.
    int32_t z0 = floor_clamped((tmin[2] - hf->bmin[2]) * inv_cs, -1, hf->depth - 1);
    int32_t z1 = floor_clamped((tmax[2] - hf->bmin[2]) * inv_cs, 0, hf->depth - 1);

    // Two buffers for the rest of the triangle, swapped after each cut.
    float rest_buf[2][MAX_CLIP_VERTS * 3];
    float row[MAX_CLIP_VERTS * 2];
    float* rest = rest_buf[0];
    float* rest_next = rest_buf[1];
    for (int k = 0; k < 3; ++k) {
        rest[k] = a[k];
        rest[3 + k] = b[k];
        rest[6 + k] = c[k];
    }
    int rest_count = 3;
    for (int32_t z = z0; z <= z1 && rest_count >= 3; ++z) {
        int row_count;
        float row_end = hf->bmin[2] + (float)(z + 1) * hf->cs;
        if (tmax[2] <= row_end) {
            // The rest lies in this row: no cut.
            for (int i = 0; i < rest_count; ++i) {
                row[i * 2] = rest[i * 3];
                row[i * 2 + 1] = rest[i * 3 + 1];
            }
            row_count = rest_count;
            rest_count = 0;
        } else {
            int next_count;
            cut_row(rest, rest_count, row_end, row, &row_count, rest_next, &next_count);
            float* swap = rest;
            rest = rest_next;
            rest_next = swap;
            rest_count = next_count;
        }
        if (row_count < 3 || z < 0) {
            continue;
        }
        wf_status st = rasterize_row(hf, z, row, row_count, inv_cs, inv_ch, area, merge_climb);
        if (st != WF_OK) {
            return st;
        }
    }
    return WF_OK;
}

wf_status wf_rasterize_triangles(wf_heightfield* hf, const wf_geom* geom, float max_slope_deg,
                                 int32_t merge_climb) {
    WF_CHECK_ARG(hf != NULL && hf->columns != NULL && geom != NULL);
    WF_CHECK_ARG(geom->tri_count == 0 || (geom->tris != NULL && geom->verts != NULL));
    WF_CHECK_ARG(isfinite(max_slope_deg) && max_slope_deg >= 0.0f && max_slope_deg <= 90.0f);
    WF_CHECK_ARG(merge_climb >= 0);
    // Validate everything first so bad input leaves the heightfield untouched.
    for (size_t i = 0; i < (size_t)geom->tri_count * 3u; ++i) {
        WF_CHECK_ARG(geom->tris[i] < geom->vert_count);
    }
    for (uint32_t t = 0; t < geom->tri_count; ++t) {
        for (size_t k = 0; k < 3u; ++k) {
            const float* v = &geom->verts[(size_t)geom->tris[(size_t)t * 3u + k] * 3u];
            WF_CHECK_ARG(isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]));
        }
        if (geom->tri_areas != NULL) {
            uint8_t area = geom->tri_areas[t];
            WF_CHECK_ARG(area <= 63u || area == WF_AREA_NULL);
        }
    }

    const float cos_max_slope = cosf(max_slope_deg * (3.14159265358979f / 180.0f));
    for (uint32_t t = 0; t < geom->tri_count; ++t) {
        const uint32_t* tri = &geom->tris[(size_t)t * 3u];
        const float* a = &geom->verts[(size_t)tri[0] * 3u];
        const float* b = &geom->verts[(size_t)tri[1] * 3u];
        const float* c = &geom->verts[(size_t)tri[2] * 3u];
        uint8_t area = geom->tri_areas != NULL ? geom->tri_areas[t] : 0u;
        if (!triangle_is_walkable(a, b, c, cos_max_slope)) {
            area = WF_AREA_NULL;
        }
        wf_status st = rasterize_triangle(hf, a, b, c, area, merge_climb);
        if (st != WF_OK) {
            return st;
        }
    }
    return WF_OK;
}
