// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Geometry of the mesh's polygons: bounding-volume lookups, surface height
// (from the detail triangles when present), closest points and portals.
#include <float.h>
#include <math.h>

#include "navcore/geometry.h"
#include "navcore/mesh_internal.h"

static uint16_t quantize_query(float v, float lo, float q, bool round_up) {
    float f = (v - lo) * q;
    f = round_up ? ceilf(f) : floorf(f);
    if (!(f >= 0.0f)) { // also catches NaN
        return 0;
    }
    return f > 65535.0f ? 65535 : (uint16_t)f;
}

uint32_t wf_mesh_tile_polys_in_box(const wf_mesh* mesh, const wf_mesh_tile* tile, wf_vec3 qmin,
                                   wf_vec3 qmax, wf_poly_ref* out, uint32_t max) {
    const wf_tile_header* h = tile->header;
    wf_poly_ref base = wf_mesh_tile_base(mesh, tile);
    float tmin[3] = {h->bmin[0], h->bmin[1], h->bmin[2]};
    float tmax[3] = {h->bmax[0], h->bmax[1], h->bmax[2]};
    float lo[3] = {qmin.x, qmin.y, qmin.z}, hi[3] = {qmax.x, qmax.y, qmax.z};
    for (int a = 0; a < 3; ++a) {
        if (hi[a] < tmin[a] || lo[a] > tmax[a]) {
            return 0;
        }
    }
    uint16_t qlo[3], qhi[3];
    for (int a = 0; a < 3; ++a) {
        qlo[a] = quantize_query(lo[a], tmin[a], h->bv_quant, false);
        qhi[a] = quantize_query(hi[a], tmin[a], h->bv_quant, true);
    }
    uint32_t n = 0;
    uint32_t i = 0;
    while (i < h->bv_node_count) {
        const wf_tile_bv_node* node = &tile->bv_nodes[i];
        bool overlap = qlo[0] <= node->bmax[0] && qhi[0] >= node->bmin[0] &&
                       qlo[1] <= node->bmax[1] && qhi[1] >= node->bmin[1] &&
                       qlo[2] <= node->bmax[2] && qhi[2] >= node->bmin[2];
        if (node->index >= 0) {
            if (overlap) {
                if (n < max) {
                    out[n].bits = base.bits | (uint32_t)node->index;
                }
                n++;
            }
            i++;
        } else {
            i += overlap ? 1u : (uint32_t)(-node->index);
        }
    }
    return n;
}

static wf_vec3 detail_vertex(const wf_mesh_tile* tile, const wf_tile_poly* poly,
                             const wf_tile_detail* dm, uint8_t index) {
    if (index < poly->vert_count) {
        return wf_tile_vertex(tile, poly->verts[index]);
    }
    const float* v =
        &tile->detail_verts[3u * (dm->vert_base + (uint32_t)(index - poly->vert_count))];
    return wf_v3(v[0], v[1], v[2]);
}

/// wf_mesh_poly_height of a ground polygon whose n vertices are at hand.
static bool poly_height_of(const wf_mesh_tile* tile, const wf_tile_poly* poly, const wf_vec3* verts,
                           uint32_t n, wf_vec3 pos, float* out_height) {
    if (!wf_point_in_convex_poly_2d(pos, verts, n)) {
        return false;
    }
    uint32_t index = wf_tile_poly_index(tile, poly);
    if (tile->header->detail_mesh_count > 0 && tile->detail_meshes[index].tri_count > 0) {
        const wf_tile_detail* dm = &tile->detail_meshes[index];
        for (uint32_t t = 0; t < dm->tri_count; ++t) {
            const uint8_t* tri = &tile->detail_tris[4u * (dm->tri_base + t)];
            float h;
            if (wf_triangle_height(pos, detail_vertex(tile, poly, dm, tri[0]),
                                   detail_vertex(tile, poly, dm, tri[1]),
                                   detail_vertex(tile, poly, dm, tri[2]), &h)) {
                *out_height = h;
                return true;
            }
        }
    }
    for (uint32_t k = 2; k < n; ++k) {
        float h;
        if (wf_triangle_height(pos, verts[0], verts[k - 1], verts[k], &h)) {
            *out_height = h;
            return true;
        }
    }
    // Inside by the edge test but missed by every triangle through rounding:
    // use the nearest vertex height rather than fail.
    float best = INFINITY;
    for (uint32_t k = 0; k < n; ++k) {
        float d = wf_v2_distance_sq(pos, verts[k]);
        if (d < best) {
            best = d;
            *out_height = verts[k].y;
        }
    }
    return true;
}

bool wf_mesh_poly_height(const wf_mesh_tile* tile, const wf_tile_poly* poly, wf_vec3 pos,
                         float* out_height) {
    if (wf_poly_type(poly) == WF_POLY_TYPE_OFFMESH) {
        return false;
    }
    wf_vec3 verts[WF_MAX_VERTS_PER_POLY];
    uint32_t n = wf_tile_poly_vertices(tile, poly, verts);
    return poly_height_of(tile, poly, verts, n, pos, out_height);
}

void wf_mesh_closest_point_on_poly(const wf_mesh_tile* tile, const wf_tile_poly* poly, wf_vec3 pos,
                                   wf_vec3* out_point, bool* out_inside) {
    wf_vec3 verts[WF_MAX_VERTS_PER_POLY];
    uint32_t n = wf_tile_poly_vertices(tile, poly, verts);
    if (wf_poly_type(poly) == WF_POLY_TYPE_OFFMESH) {
        float t;
        (void)wf_dist_point_segment_sq_2d(pos, verts[0], verts[1], &t);
        *out_point = wf_v3_lerp(verts[0], verts[1], t);
        if (out_inside != NULL) {
            *out_inside = false;
        }
        return;
    }
    float h;
    if (poly_height_of(tile, poly, verts, n, pos, &h)) {
        *out_point = wf_v3(pos.x, h, pos.z);
        if (out_inside != NULL) {
            *out_inside = true;
        }
        return;
    }
    float best = INFINITY;
    wf_vec3 best_point = verts[0];
    for (uint32_t i = 0, j = n - 1; i < n; j = i++) {
        float t;
        float d = wf_dist_point_segment_sq_2d(pos, verts[j], verts[i], &t);
        if (d < best) {
            best = d;
            best_point = wf_v3_lerp(verts[j], verts[i], t);
        }
    }
    *out_point = best_point;
    if (out_inside != NULL) {
        *out_inside = false;
    }
}

wf_vec3 wf_mesh_poly_center(const wf_mesh_tile* tile, const wf_tile_poly* poly) {
    wf_vec3 c = wf_v3(0.0f, 0.0f, 0.0f);
    for (uint32_t k = 0; k < poly->vert_count; ++k) {
        c = wf_v3_add(c, wf_tile_vertex(tile, poly->verts[k]));
    }
    return wf_v3_scale(c, 1.0f / (float)poly->vert_count);
}

/// A polygon's first link to one neighbour (NULL if none) and how many
/// links it has to it, in one walk.
static const wf_tile_link* links_to(const wf_mesh_tile* tile, const wf_tile_poly* poly,
                                    wf_poly_ref to, uint32_t* out_count) {
    const wf_tile_link* first = NULL;
    uint32_t n = 0;
    for (uint32_t k = tile->first_link[wf_tile_poly_index(tile, poly)]; k != WF_NULL_LINK;
         k = tile->links[k].next) {
        if (tile->links[k].ref == to.bits && n++ == 0) {
            first = &tile->links[k];
        }
    }
    *out_count = n;
    return first;
}

/// The span along a -> b (parameters, not clamped) covered by a polygon's
/// edges that link to `to`; false when none does.
static bool edges_span(const wf_mesh_tile* tile, const wf_tile_poly* poly, wf_poly_ref to,
                       wf_vec3 a, wf_vec3 b, float* out_t0, float* out_t1) {
    float t0 = FLT_MAX, t1 = -FLT_MAX;
    for (uint32_t k = tile->first_link[wf_tile_poly_index(tile, poly)]; k != WF_NULL_LINK;
         k = tile->links[k].next) {
        const wf_tile_link* l = &tile->links[k];
        if (l->ref != to.bits || l->edge >= poly->vert_count) {
            continue;
        }
        wf_vec3 c = wf_tile_vertex(tile, poly->verts[l->edge]);
        wf_vec3 d = wf_tile_vertex(tile, poly->verts[(l->edge + 1u) % poly->vert_count]);
        float tc = wf_edge_param_2d(c, a, b), td = wf_edge_param_2d(d, a, b);
        t0 = fminf(t0, fminf(tc, td));
        t1 = fmaxf(t1, fmaxf(tc, td));
    }
    *out_t0 = t0;
    *out_t1 = t1;
    return t0 <= t1;
}

wf_status wf_mesh_portal_points(const wf_mesh* mesh, wf_poly_ref from,
                                const wf_mesh_tile* from_tile, const wf_tile_poly* from_poly,
                                wf_poly_ref to, const wf_mesh_tile* to_tile,
                                const wf_tile_poly* to_poly, wf_vec3* out_left,
                                wf_vec3* out_right) {
    (void)mesh;
    uint32_t count;
    const wf_tile_link* link = links_to(from_tile, from_poly, to, &count);
    if (link == NULL) {
        return WF_ERR_NOT_FOUND;
    }
    wf_mesh_link_portal_counted(from, from_tile, from_poly, link, to_tile, to_poly, count, out_left,
                                out_right);
    return WF_OK;
}

void wf_mesh_link_portal(wf_poly_ref from, const wf_mesh_tile* from_tile,
                         const wf_tile_poly* from_poly, const wf_tile_link* link,
                         const wf_mesh_tile* to_tile, const wf_tile_poly* to_poly,
                         wf_vec3* out_left, wf_vec3* out_right) {
    uint32_t count = 1;
    if (wf_poly_type(from_poly) == WF_POLY_TYPE_GROUND &&
        wf_poly_type(to_poly) == WF_POLY_TYPE_GROUND) {
        (void)links_to(from_tile, from_poly, wf_poly_ref_from_u64(link->ref), &count);
    }
    wf_mesh_link_portal_counted(from, from_tile, from_poly, link, to_tile, to_poly, count, out_left,
                                out_right);
}

void wf_mesh_link_portal_counted(wf_poly_ref from, const wf_mesh_tile* from_tile,
                                 const wf_tile_poly* from_poly, const wf_tile_link* link,
                                 const wf_mesh_tile* to_tile, const wf_tile_poly* to_poly,
                                 uint32_t links_to, wf_vec3* out_left, wf_vec3* out_right) {
    if (wf_poly_type(from_poly) == WF_POLY_TYPE_OFFMESH) {
        // Leaving a link: at its end next to `to` (marker in the link).
        wf_vec3 p = wf_tile_vertex(from_tile, from_poly->verts[link->bmin == 0 ? 0 : 1]);
        *out_left = p;
        *out_right = p;
        return;
    }
    if (wf_poly_type(to_poly) == WF_POLY_TYPE_OFFMESH) {
        wf_vec3 p = wf_tile_vertex(to_tile, to_poly->verts[link->bmin == 0 ? 0 : 1]);
        *out_left = p;
        *out_right = p;
        return;
    }
    uint32_t e = link->edge;
    wf_vec3 a = wf_tile_vertex(from_tile, from_poly->verts[e]);
    wf_vec3 b = wf_tile_vertex(from_tile, from_poly->verts[(e + 1u) % from_poly->vert_count]);
    wf_poly_ref to = wf_poly_ref_from_u64(link->ref);
    bool partial = link->side != 0xff && (link->bmin != 0 || link->bmax != 255);
    if (partial || links_to > 1) {
        // Two convex polygons share one segment of one line, but either may
        // cut it into several collinear edges (a tile border keeps the
        // vertices the tile across has), each with its own link, and a
        // border link may cover only part of its edge. The portal is the
        // whole shared segment: this side's edges towards `to`, clipped to
        // the other side's edges back (exactly: the links' 8-bit ranges are
        // too coarse for path lengths).
        float t0, t1, u0, u1;
        if (links_to == 1) {
            // This side's only edge towards `to` is the link's own: its
            // span is [0, 1] (what edges_span gives, without the walk).
            t0 = 0.0f;
            t1 = wf_edge_param_2d(b, a, b);
        } else {
            edges_span(from_tile, from_poly, to, a, b, &t0, &t1);
        }
        if (edges_span(to_tile, to_poly, from, a, b, &u0, &u1)) {
            t0 = fmaxf(t0, u0);
            t1 = fminf(t1, u1);
        }
        if (t0 <= t1) {
            wf_vec3 a2 = wf_v3_lerp(a, b, t0);
            wf_vec3 b2 = wf_v3_lerp(a, b, t1);
            a = a2;
            b = b2;
        }
    }
    *out_left = b;
    *out_right = a;
}
