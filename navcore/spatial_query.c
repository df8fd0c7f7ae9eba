// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Point and box queries: nearest polygon, polygons in a box, closest point
// on a polygon and surface height. Boxes are walked tile by tile through the
// grid, then through each tile's BV tree.
#include <math.h>

#include "navcore/check.h"
#include "navcore/geometry.h"
#include "navcore/query_internal.h"

/// Candidates read from one tile's BV tree at once. A tile with more
/// overlapping polygons is scanned linearly instead, so none is dropped.
#define WF_BOX_POLY_CHUNK 128u
/// Tiles (layers) read from one grid cell at once; more fall back to a scan
/// of the tile slots.
#define WF_BOX_TILE_CHUNK 32u

/// Called for every polygon overlapping a box; false stops the walk.
typedef bool (*poly_visit_fn)(void* context, const wf_mesh_tile* tile, uint32_t poly_index,
                              wf_poly_ref ref);

static bool extents_valid(wf_vec3 e) {
    // Infinite extents are allowed ("search everything"); NaN fails >= too.
    return e.x >= 0.0f && e.y >= 0.0f && e.z >= 0.0f;
}

static uint32_t ground_poly_count(const wf_mesh_tile* tile) {
    return tile->header->poly_count - tile->header->offmesh_count;
}

static bool tile_overlaps_box(const wf_mesh_tile* tile, wf_vec3 bmin, wf_vec3 bmax) {
    const float* a = tile->header->bmin;
    const float* b = tile->header->bmax;
    return wf_boxes_overlap(wf_v3(a[0], a[1], a[2]), wf_v3(b[0], b[1], b[2]), bmin, bmax);
}

/// Bounds of a ground polygon including its detail vertices (the linear
/// fallback's stand-in for the BV tree).
static void poly_bounds(const wf_mesh_tile* tile, uint32_t index, wf_vec3* out_min,
                        wf_vec3* out_max) {
    const wf_tile_poly* poly = &tile->polys[index];
    wf_vec3 lo = wf_tile_vertex(tile, poly->verts[0]);
    wf_vec3 hi = lo;
    for (uint32_t k = 1; k < poly->vert_count; ++k) {
        wf_vec3 v = wf_tile_vertex(tile, poly->verts[k]);
        lo = wf_v3_min(lo, v);
        hi = wf_v3_max(hi, v);
    }
    if (tile->header->detail_mesh_count > 0) {
        const wf_tile_detail* d = &tile->detail_meshes[index];
        for (uint32_t k = 0; k < d->vert_count; ++k) {
            const float* p = &tile->detail_verts[(d->vert_base + k) * 3u];
            wf_vec3 v = wf_v3(p[0], p[1], p[2]);
            lo = wf_v3_min(lo, v);
            hi = wf_v3_max(hi, v);
        }
    }
    *out_min = lo;
    *out_max = hi;
}

static bool visit_tile(const wf_mesh* mesh, const wf_mesh_tile* tile, wf_vec3 bmin, wf_vec3 bmax,
                       poly_visit_fn fn, void* context) {
    wf_poly_ref refs[WF_BOX_POLY_CHUNK];
    uint32_t found = wf_mesh_tile_polys_in_box(mesh, tile, bmin, bmax, refs, WF_BOX_POLY_CHUNK);
    if (found <= WF_BOX_POLY_CHUNK) {
        for (uint32_t k = 0; k < found; ++k) {
            if (!fn(context, tile, wf_poly_ref_poly(refs[k]), refs[k])) {
                return false;
            }
        }
        return true;
    }
    // More overlap than the chunk holds: the BV walk cannot be resumed, so
    // test every ground polygon's bounds instead.
    wf_poly_ref base = wf_mesh_tile_base(mesh, tile);
    uint32_t count = ground_poly_count(tile);
    for (uint32_t i = 0; i < count; ++i) {
        wf_vec3 lo, hi;
        poly_bounds(tile, i, &lo, &hi);
        if (wf_boxes_overlap(lo, hi, bmin, bmax) &&
            !fn(context, tile, i, wf_poly_ref_from_u64(base.bits | i))) {
            return false;
        }
    }
    return true;
}

/// Visits the live tiles at one cell, or with all_cells every live tile, in
/// slot order.
static bool scan_slots(const wf_mesh* mesh, bool all_cells, int64_t cell_x, int64_t cell_z,
                       wf_vec3 bmin, wf_vec3 bmax, poly_visit_fn fn, void* context) {
    for (uint32_t s = 0; s < mesh->max_tiles; ++s) {
        const wf_mesh_tile* tile = &mesh->tiles[s];
        if (!tile->in_use || !tile_overlaps_box(tile, bmin, bmax)) {
            continue;
        }
        if (!all_cells && (tile->header->tile_x != cell_x || tile->header->tile_z != cell_z)) {
            continue;
        }
        if (!visit_tile(mesh, tile, bmin, bmax, fn, context)) {
            return false;
        }
    }
    return true;
}

/// Grid cells a box spans, in double so that huge or infinite boxes do not
/// overflow.
static double box_cell_count(const wf_mesh* mesh, wf_vec3 bmin, wf_vec3 bmax) {
    double x0 = floor(((double)bmin.x - mesh->origin.x) / mesh->tile_width);
    double x1 = floor(((double)bmax.x - mesh->origin.x) / mesh->tile_width);
    double z0 = floor(((double)bmin.z - mesh->origin.z) / mesh->tile_depth);
    double z1 = floor(((double)bmax.z - mesh->origin.z) / mesh->tile_depth);
    return (x1 - x0 + 1.0) * (z1 - z0 + 1.0);
}

/// Calls fn for every polygon (not off-mesh link) whose bounds overlap
/// [bmin, bmax], tile by tile.
static void visit_box(const wf_mesh* mesh, wf_vec3 bmin, wf_vec3 bmax, poly_visit_fn fn,
                      void* context) {
    if (!(box_cell_count(mesh, bmin, bmax) <= (double)mesh->max_tiles)) {
        // More cells than tile slots: looking at every slot is cheaper.
        (void)scan_slots(mesh, true, 0, 0, bmin, bmax, fn, context);
        return;
    }
    int32_t x0, z0, x1, z1;
    wf_mesh_tile_at(mesh, bmin, &x0, &z0);
    wf_mesh_tile_at(mesh, bmax, &x1, &z1);
    for (int64_t z = z0; z <= z1; ++z) {
        for (int64_t x = x0; x <= x1; ++x) {
            const wf_mesh_tile* tiles[WF_BOX_TILE_CHUNK];
            uint32_t n = wf_mesh_tiles_at(mesh, (int32_t)x, (int32_t)z, tiles, WF_BOX_TILE_CHUNK);
            if (n > WF_BOX_TILE_CHUNK) {
                if (!scan_slots(mesh, false, x, z, bmin, bmax, fn, context)) {
                    return;
                }
                continue;
            }
            for (uint32_t k = 0; k < n; ++k) {
                if (tile_overlaps_box(tiles[k], bmin, bmax) &&
                    !visit_tile(mesh, tiles[k], bmin, bmax, fn, context)) {
                    return;
                }
            }
        }
    }
}

/* ---------------------------------------------------------------------------
 * Nearest polygon
 */

typedef struct nearest_search {
    const wf_query_filter* filter;
    wf_vec3 center;
    bool found;
    float best_adjusted; ///< ranking distance (squared)
    float best_raw;      ///< true squared distance, breaks ties
    wf_poly_ref best_ref;
    wf_vec3 best_point;
} nearest_search;

static bool visit_nearest(void* context, const wf_mesh_tile* tile, uint32_t poly_index,
                          wf_poly_ref ref) {
    nearest_search* s = context;
    if (!wf_filter_passes(s->filter, tile, poly_index)) {
        return true;
    }
    wf_vec3 point;
    bool inside = false;
    wf_mesh_closest_point_on_poly(tile, &tile->polys[poly_index], s->center, &point, &inside);
    float raw, adjusted;
    if (inside) {
        // Over the polygon: only height counts, and a floor within climb
        // reach counts as touching, so a point standing on a floor picks it.
        float dy = fabsf(s->center.y - point.y);
        float over = dy - tile->header->walkable_climb;
        over = over > 0.0f ? over : 0.0f;
        raw = dy * dy;
        adjusted = over * over;
    } else {
        raw = wf_v3_distance_sq(s->center, point);
        adjusted = raw;
    }
    // Ranked by (adjusted, raw, ref): a total order, so points on shared
    // edges or vertices get the lowest ref whatever order tiles come in.
    bool better = !s->found || adjusted < s->best_adjusted ||
                  (adjusted == s->best_adjusted &&
                   (raw < s->best_raw || (raw == s->best_raw && ref.bits < s->best_ref.bits)));
    if (better) {
        s->found = true;
        s->best_adjusted = adjusted;
        s->best_raw = raw;
        s->best_ref = ref;
        s->best_point = point;
    }
    return true;
}

// out_point may be NULL when only the polygon is wanted.
wf_status wf_query_find_nearest_poly(wf_query* query, wf_vec3 center, wf_vec3 half_extents,
                                     const wf_query_filter* filter, wf_poly_ref* out_ref,
                                     wf_vec3* out_point) {
    WF_CHECK_ARG(query != NULL && filter != NULL && out_ref != NULL);
    WF_CHECK_ARG(wf_v3_is_finite(center) && extents_valid(half_extents));
    nearest_search s = {.filter = filter, .center = center};
    visit_box(query->mesh, wf_v3_sub(center, half_extents), wf_v3_add(center, half_extents),
              visit_nearest, &s);
    if (!s.found) {
        out_ref->bits = 0;
        return WF_ERR_NOT_FOUND;
    }
    *out_ref = s.best_ref;
    if (out_point != NULL) {
        *out_point = s.best_point;
    }
    return WF_OK;
}

/* ---------------------------------------------------------------------------
 * Polygons in a box
 */

typedef struct box_collect {
    const wf_query_filter* filter;
    wf_poly_ref* out;
    uint32_t max;
    uint32_t count;
    bool overflow;
} box_collect;

static bool visit_collect(void* context, const wf_mesh_tile* tile, uint32_t poly_index,
                          wf_poly_ref ref) {
    box_collect* c = context;
    if (!wf_filter_passes(c->filter, tile, poly_index)) {
        return true;
    }
    if (c->count == c->max) {
        c->overflow = true; // one more than fits is enough to know
        return false;
    }
    c->out[c->count++] = ref;
    return true;
}

// No polygon in the box is WF_OK with out_count 0 (an empty answer, not an
// error, unlike find_nearest_poly).
wf_status wf_query_find_polys_in_box(wf_query* query, wf_vec3 center, wf_vec3 half_extents,
                                     const wf_query_filter* filter, wf_poly_ref* out_refs,
                                     uint32_t max, uint32_t* out_count) {
    WF_CHECK_ARG(query != NULL && filter != NULL && out_count != NULL);
    WF_CHECK_ARG(out_refs != NULL || max == 0);
    WF_CHECK_ARG(wf_v3_is_finite(center) && extents_valid(half_extents));
    box_collect c = {.filter = filter, .out = out_refs, .max = max};
    visit_box(query->mesh, wf_v3_sub(center, half_extents), wf_v3_add(center, half_extents),
              visit_collect, &c);
    *out_count = c.count;
    return c.overflow ? WF_PARTIAL : WF_OK;
}

/* ---------------------------------------------------------------------------
 * Single polygons
 */

static bool is_offmesh(const wf_tile_poly* poly) {
    return wf_poly_type(poly) == WF_POLY_TYPE_OFFMESH;
}

// For an off-mesh link: the closest point on its start-end segment (nearest
// in XZ, height along the segment); out_inside is then false.
wf_status wf_query_closest_point_on_poly(wf_query* query, wf_poly_ref ref, wf_vec3 pos,
                                         wf_vec3* out_point, bool* out_inside) {
    WF_CHECK_ARG(query != NULL && out_point != NULL && wf_v3_is_finite(pos));
    const wf_mesh_tile* tile;
    const wf_tile_poly* poly;
    wf_status status = wf_mesh_resolve(query->mesh, ref, &tile, &poly);
    if (status != WF_OK) {
        return status;
    }
    bool inside = false;
    wf_mesh_closest_point_on_poly(tile, poly, pos, out_point, &inside);
    if (out_inside != NULL) {
        *out_inside = inside;
    }
    return WF_OK;
}

// For an off-mesh link: the height along its segment at the point nearest
// pos in XZ (always found).
wf_status wf_query_poly_height(wf_query* query, wf_poly_ref ref, wf_vec3 pos, float* out_height) {
    WF_CHECK_ARG(query != NULL && out_height != NULL && wf_v3_is_finite(pos));
    const wf_mesh_tile* tile;
    const wf_tile_poly* poly;
    wf_status status = wf_mesh_resolve(query->mesh, ref, &tile, &poly);
    if (status != WF_OK) {
        return status;
    }
    if (is_offmesh(poly)) {
        wf_vec3 a = wf_tile_vertex(tile, poly->verts[0]);
        wf_vec3 b = wf_tile_vertex(tile, poly->verts[1]);
        float t;
        (void)wf_dist_point_segment_sq_2d(pos, a, b, &t);
        *out_height = a.y + (b.y - a.y) * t;
        return WF_OK;
    }
    return wf_mesh_poly_height(tile, poly, pos, out_height) ? WF_OK : WF_ERR_NOT_FOUND;
}
