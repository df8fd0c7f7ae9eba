// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Random points uniform over the walkable area, drawn only from the
// caller's rng so that a seed reproduces the point.
#include <math.h>

#include "navcore/check.h"
#include "navcore/geometry.h"
#include "navcore/query_internal.h"
#include "navcore/radius_search.h"

/// Area (XZ) a polygon contributes: 0 for off-mesh links and polygons the
/// filter refuses.
static float poly_weight(const wf_mesh_tile* tile, uint32_t index, const wf_query_filter* filter) {
    const wf_tile_poly* poly = &tile->polys[index];
    if (wf_poly_type(poly) != WF_POLY_TYPE_GROUND || !wf_filter_passes(filter, tile, index)) {
        return 0.0f;
    }
    wf_vec3 verts[WF_MAX_VERTS_PER_POLY];
    uint32_t n = wf_tile_poly_vertices(tile, poly, verts);
    return wf_poly_area_2d(verts, n);
}

/// Weighted reservoir sampling (one item, one pass): the item just seen
/// replaces the choice with probability weight / running total, which
/// leaves every item chosen with probability proportional to its weight.
static bool reservoir_take(wf_rng* rng, float weight, float* total) {
    *total += weight;
    return wf_rng_float01(rng) * *total < weight;
}

/// A uniform point in a ground polygon: a fan triangle picked by area, then
/// a uniform point in it (barycentric coordinates 1 - sqrt(s),
/// (1 - t) sqrt(s), t sqrt(s)), with the surface height.
static wf_vec3 point_in_poly(const wf_mesh_tile* tile, const wf_tile_poly* poly, wf_rng* rng) {
    // Zeroed: the compiler cannot know ground polygons have >= 3 vertices.
    wf_vec3 verts[WF_MAX_VERTS_PER_POLY] = {{0.0f, 0.0f, 0.0f}};
    uint32_t n = wf_tile_poly_vertices(tile, poly, verts);
    float area = wf_poly_area_2d(verts, n) * 2.0f;
    float pick = wf_rng_float01(rng) * area;
    uint32_t tri = n - 1; // rounding leftovers fall into the last triangle
    float sum = 0.0f;
    for (uint32_t i = 2; i < n; ++i) {
        sum += wf_v2_triangle_area2(verts[0], verts[i - 1], verts[i]);
        if (pick < sum) {
            tri = i;
            break;
        }
    }
    float s = sqrtf(wf_rng_float01(rng));
    float t = wf_rng_float01(rng);
    float a = 1.0f - s, b = (1.0f - t) * s, c = t * s;
    wf_vec3 p0 = verts[0], p1 = verts[tri - 1], p2 = verts[tri];
    wf_vec3 p = wf_v3(a * p0.x + b * p1.x + c * p2.x, a * p0.y + b * p1.y + c * p2.y,
                      a * p0.z + b * p1.z + c * p2.z);
    float height;
    if (wf_mesh_poly_height(tile, poly, p, &height)) {
        p.y = height;
    } else {
        // Rounding put p a hair outside: take the nearest point on the polygon.
        bool inside;
        wf_mesh_closest_point_on_poly(tile, poly, p, &p, &inside);
    }
    return p;
}

/*
 * Two weighted reservoir passes in slot order: a tile by the area of its
 * polygons passing the filter, then a polygon of that tile by area; then
 * a uniform point in it. No allocation. WF_ERR_NOT_FOUND when no polygon
 * passes the filter.
 */
wf_status wf_query_find_random_point(wf_query* query, const wf_query_filter* filter, wf_rng* rng,
                                     wf_poly_ref* out_ref, wf_vec3* out_point) {
    WF_CHECK_ARG(query != NULL && filter != NULL && rng != NULL);
    WF_CHECK_ARG(out_ref != NULL && out_point != NULL);
    const wf_mesh* mesh = query->mesh;
    const wf_mesh_tile* chosen_tile = NULL;
    float total = 0.0f;
    for (uint32_t slot = 0; slot < mesh->max_tiles; ++slot) {
        const wf_mesh_tile* tile = &mesh->tiles[slot];
        if (!tile->in_use) {
            continue;
        }
        float tile_area = 0.0f;
        uint32_t ground = tile->header->poly_count - tile->header->offmesh_count;
        for (uint32_t i = 0; i < ground; ++i) {
            tile_area += poly_weight(tile, i, filter);
        }
        if (tile_area > 0.0f && reservoir_take(rng, tile_area, &total)) {
            chosen_tile = tile;
        }
    }
    if (chosen_tile == NULL) {
        return WF_ERR_NOT_FOUND;
    }
    uint32_t chosen = 0;
    total = 0.0f;
    uint32_t ground = chosen_tile->header->poly_count - chosen_tile->header->offmesh_count;
    for (uint32_t i = 0; i < ground; ++i) {
        float w = poly_weight(chosen_tile, i, filter);
        if (w > 0.0f && reservoir_take(rng, w, &total)) {
            chosen = i;
        }
    }
    *out_point = point_in_poly(chosen_tile, &chosen_tile->polys[chosen], rng);
    *out_ref =
        wf_poly_ref_make(chosen_tile->generation, (uint32_t)(chosen_tile - mesh->tiles), chosen);
    return WF_OK;
}

/*
 * Dijkstra outward from start_ref on foot (off-mesh links are not taken)
 * through portals within radius of center, choosing one of the polygons
 * reached by area with a weighted reservoir as they leave the open list,
 * then a uniform point in it. The point is uniform over the whole area of
 * the polygons the circle touches, so it may lie outside the circle (by
 * less than one polygon): clip or retry if that matters.
 * WF_ERR_NOT_FOUND when start_ref fails the filter or is an off-mesh link
 * (it has no area). WF_PARTIAL when the node pool ran out (the point comes
 * from the part searched).
 */
wf_status wf_query_find_random_point_around(wf_query* query, wf_poly_ref start_ref, wf_vec3 center,
                                            float radius, const wf_query_filter* filter,
                                            wf_rng* rng, wf_poly_ref* out_ref, wf_vec3* out_point) {
    WF_CHECK_ARG(query != NULL && filter != NULL && rng != NULL);
    WF_CHECK_ARG(out_ref != NULL && out_point != NULL);
    WF_CHECK_ARG(wf_v3_is_finite(center) && !isnan(radius));
    WF_CHECK_ARG(!wf_poly_ref_is_null(start_ref));
    const wf_mesh* mesh = query->mesh;
    const wf_mesh_tile* tile;
    const wf_tile_poly* poly;
    wf_status status = wf_mesh_resolve(mesh, start_ref, &tile, &poly);
    if (status != WF_OK) {
        return status;
    }
    if (wf_poly_type(poly) != WF_POLY_TYPE_GROUND ||
        !wf_filter_passes(filter, tile, wf_tile_poly_index(tile, poly))) {
        return WF_ERR_NOT_FOUND;
    }
    // Plain distances: the order only decides what a full pool keeps.
    wf_radius_search search = {.query = query,
                               .filter = filter,
                               .center = center,
                               .radius_sq = radius * radius,
                               .limited = radius > 0.0f && isfinite(radius),
                               .ground_only = true};
    status = wf_radius_search_begin(&search, start_ref);
    if (status != WF_OK) {
        return status;
    }
    const wf_mesh_tile* chosen_tile = NULL;
    const wf_tile_poly* chosen_poly = NULL;
    wf_poly_ref chosen_ref = {0};
    float total = 0.0f;
    for (uint32_t best; (best = wf_radius_search_next(&search)) != WF_NO_NODE;) {
        wf_poly_ref best_ref = query->nodes.nodes[best].ref;
        wf_mesh_resolve_unchecked(mesh, best_ref, &tile, &poly);
        float w = poly_weight(tile, wf_tile_poly_index(tile, poly), filter);
        if (w > 0.0f && reservoir_take(rng, w, &total)) {
            chosen_tile = tile;
            chosen_poly = poly;
            chosen_ref = best_ref;
        }
        wf_radius_search_expand(&search, best);
    }
    if (search.out_of_nodes) {
        status = WF_PARTIAL;
    }
    if (chosen_poly == NULL) {
        return WF_ERR_NOT_FOUND; // only zero-area polygons were reached
    }
    *out_point = point_in_poly(chosen_tile, chosen_poly, rng);
    *out_ref = chosen_ref;
    return status;
}
