// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Move along the surface: a bounded breadth-first search over the polygons
// within reach of a short move, keeping the reachable point closest to the
// target, so that a move into a wall slides along it.
#include <float.h>

#include "navcore/check.h"
#include "navcore/geometry.h"
#include "navcore/query_internal.h"

/// Polygons waiting in the breadth-first frontier at once. A move is one
/// frame's step, so its circle crosses a handful of polygons; a frontier
/// that is full drops further neighbours (the node pool bounds the total).
#define WF_MOVE_FRONTIER 48u
/// Added to the search radius so that portals touching the circle count.
#define WF_MOVE_RADIUS_SLACK 1e-3f

/*
 * The search covers the circle through start and end (centred at their
 * midpoint), so every polygon a straight or sliding move could reach is in
 * it. Where end lies over a visited polygon the move reaches it; otherwise
 * the result is the point of the visited polygons closest to end, which
 * lies on a wall (or on the edge of the searched region).
 *
 * visited and out_visited_count may be NULL (without visited, the count
 * is the chain's length). When the chain does not fit
 * in max_visited, the polygons from the start that fit are written and
 * the call returns WF_PARTIAL (out_pos is still the full move's end).
 */
wf_status wf_query_move_along_surface(wf_query* query, wf_poly_ref start_ref, wf_vec3 start,
                                      wf_vec3 end, const wf_query_filter* filter, wf_vec3* out_pos,
                                      wf_poly_ref* visited, uint32_t max_visited,
                                      uint32_t* out_visited_count) {
    WF_CHECK_ARG(query != NULL && filter != NULL && out_pos != NULL);
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

    wf_node_pool* pool = &query->nodes;
    wf_query_begin_search(query);
    uint32_t start_node = wf_node_pool_get(pool, start_ref);
    WF_ASSERT(start_node != WF_NO_NODE); // the pool holds at least one node
    if (start_node == WF_NO_NODE) {
        return WF_ERR_CAPACITY;
    }
    pool->nodes[start_node].flags = WF_NODE_CLOSED;
    pool->nodes[start_node].parent = WF_NO_NODE;

    uint32_t queue[WF_MOVE_FRONTIER];
    bool truncated = false;
    uint32_t head = 0, queued = 0;
    queue[queued++] = start_node;

    wf_vec3 mid = wf_v3_lerp(start, end, 0.5f);
    float radius = wf_v2_distance(start, end) * 0.5f + WF_MOVE_RADIUS_SLACK;
    float radius_sq = radius * radius;
    uint32_t best_node = start_node;
    wf_vec3 best_pos = start;
    float best_dist_sq = FLT_MAX;
    wf_vec3 verts[WF_MAX_VERTS_PER_POLY];

    while (queued > 0) {
        uint32_t cur_node = queue[head];
        head = (head + 1u) % WF_MOVE_FRONTIER;
        queued--;
        wf_poly_ref cur = pool->nodes[cur_node].ref;
        wf_mesh_resolve_unchecked(mesh, cur, &tile, &poly);
        uint32_t n = wf_tile_poly_vertices(tile, poly, verts);
        if (wf_point_in_convex_poly_2d(end, verts, n)) {
            best_node = cur_node;
            best_pos = end;
            break;
        }
        // Closest point of this polygon to end: on one of its edges.
        for (uint32_t i = 0, j = n - 1; i < n; j = i++) {
            float t;
            float d = wf_dist_point_segment_sq_2d(end, verts[j], verts[i], &t);
            if (d < best_dist_sq) {
                best_dist_sq = d;
                best_pos = wf_v3_lerp(verts[j], verts[i], t);
                best_node = cur_node;
            }
        }
        uint32_t index = wf_tile_poly_index(tile, poly);
        for (uint32_t k = tile->first_link[index]; k != WF_NULL_LINK; k = tile->links[k].next) {
            const wf_tile_link* link = &tile->links[k];
            if (link->edge >= n) {
                continue; // off-mesh link ends: a move never takes them
            }
            wf_poly_ref next = wf_poly_ref_from_u64(link->ref);
            const wf_mesh_tile* next_tile;
            const wf_tile_poly* next_poly;
            wf_mesh_resolve_unchecked(mesh, next, &next_tile, &next_poly);
            if (wf_poly_type(next_poly) != WF_POLY_TYPE_GROUND ||
                !wf_filter_passes(filter, next_tile, wf_tile_poly_index(next_tile, next_poly)) ||
                wf_node_pool_find(pool, next) != WF_NO_NODE) {
                continue;
            }
            wf_vec3 va = verts[link->edge], vb = verts[(link->edge + 1u) % n];
            if (wf_dist_point_segment_sq_2d(mid, va, vb, NULL) > radius_sq) {
                continue;
            }
            uint32_t node = queued == WF_MOVE_FRONTIER ? WF_NO_NODE : wf_node_pool_get(pool, next);
            if (node == WF_NO_NODE) {
                truncated = true; // reported: the result is the best of what was searched
                continue;
            }
            pool->nodes[node].flags = WF_NODE_CLOSED;
            pool->nodes[node].parent = cur_node;
            queue[(head + queued) % WF_MOVE_FRONTIER] = node;
            queued++;
        }
    }

    // The chain start -> best, written start first.
    uint32_t length = 0;
    for (uint32_t i = best_node; i != WF_NO_NODE; i = pool->nodes[i].parent) {
        length++;
    }
    uint32_t written = length;
    if (visited != NULL) {
        uint32_t i = best_node, pos = length;
        while (pos > max_visited) { // skip the far end that does not fit
            i = pool->nodes[i].parent;
            pos--;
        }
        written = pos;
        while (pos > 0) {
            visited[--pos] = pool->nodes[i].ref;
            i = pool->nodes[i].parent;
        }
        if (written < length) {
            status = WF_PARTIAL;
        }
    }
    if (out_visited_count != NULL) {
        *out_visited_count = written;
    }
    *out_pos = wf_v3(best_pos.x, start.y, best_pos.z);
    return truncated ? WF_PARTIAL : status;
}
