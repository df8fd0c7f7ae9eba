// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Queries about the surface around a point: polygons within a circle (all,
// or the non-overlapping neighbourhood), a polygon's walls, and the
// distance to the nearest wall.
#include <float.h>
#include <string.h>

#include "navcore/check.h"
#include "navcore/geometry.h"
#include "navcore/query_internal.h"
#include "navcore/radius_search.h"

/// Polygons waiting in the neighbourhood's breadth-first frontier at once.
/// A crowd agent's neighbourhood is a few polygons around it; when the
/// frontier is full further polygons are not expanded (the node pool
/// bounds the total).
#define WF_NEIGHBOURHOOD_FRONTIER 48u
/// Links of one polygon edge that its walls are worked out from. An inner
/// edge has one; a tile-border edge has one per polygon it meets across the
/// border (in every layer there), which no format limit bounds: a tile
/// reserves WF_TILE_LINKS_PER_PORTAL per portal edge, but one edge may take
/// what others leave (fuzzing built a tile from a valid layer with 11 on one
/// edge). Links past this many are left out: the parts of the edge only
/// they cover count as wall.
#define WF_EDGE_MAX_LINKS (8u * WF_TILE_LINKS_PER_PORTAL)
/// Wall pieces one edge can split into: the gaps around each link plus the
/// links whose polygon the filter refuses.
#define WF_EDGE_MAX_WALLS (2u * WF_EDGE_MAX_LINKS + 1u)
/// Gaps shorter than this fraction of an edge are not walls: portal limits
/// are quantized to 1/255 of the edge, so touching links may leave slivers.
#define WF_EDGE_GAP_SLACK 1e-3f
/// Separating-axis slack (metres): polygons that only touch do not overlap.
#define WF_OVERLAP_SLACK 1e-4f

/// One wall piece along an edge; ref is the refused polygon across, or null.
typedef struct wall_piece {
    wf_vec3 a, b;
    wf_poly_ref ref;
} wall_piece;

/// A linked part of an edge, from u0 (point p0) to u1 (p1), 0..1 along it.
typedef struct edge_span {
    float u0, u1;
    wf_vec3 p0, p1;
    wf_poly_ref ref;
    bool passable;
} edge_span;

/// The wall pieces of edge `edge` (vertex edge -> edge + 1) of a ground
/// polygon: the parts no link covers, and the parts whose polygon across
/// fails the filter. Written in order along the edge; returns the count.
static uint32_t edge_walls(const wf_mesh* mesh, wf_poly_ref ref, const wf_mesh_tile* tile,
                           const wf_tile_poly* poly, uint32_t edge, wf_vec3 va, wf_vec3 vb,
                           const wf_query_filter* filter, wall_piece* out) {
    edge_span spans[WF_EDGE_MAX_LINKS];
    uint32_t span_count = 0;
    uint32_t index = wf_tile_poly_index(tile, poly);
    for (uint32_t k = tile->first_link[index]; k != WF_NULL_LINK; k = tile->links[k].next) {
        const wf_tile_link* link = &tile->links[k];
        if (link->edge != edge) {
            continue;
        }
        if (span_count == WF_EDGE_MAX_LINKS) {
            break;
        }
        wf_poly_ref next = wf_poly_ref_from_u64(link->ref);
        const wf_mesh_tile* next_tile;
        const wf_tile_poly* next_poly;
        wf_mesh_resolve_unchecked(mesh, next, &next_tile, &next_poly);
        if (wf_poly_type(next_poly) != WF_POLY_TYPE_GROUND) {
            continue;
        }
        edge_span s = {
            0.0f, 1.0f,
            va,   vb,
            next, wf_filter_passes(filter, next_tile, wf_tile_poly_index(next_tile, next_poly))};
        if (link->side != 0xff) {
            // A tile-border link may cover only part of the edge.
            wf_vec3 left, right;
            if (wf_mesh_portal_points(mesh, ref, tile, poly, next, next_tile, next_poly, &left,
                                      &right) != WF_OK) {
                continue;
            }
            float ul = wf_edge_param_2d(left, va, vb), ur = wf_edge_param_2d(right, va, vb);
            bool left_first = ul <= ur;
            s.u0 = left_first ? ul : ur;
            s.u1 = left_first ? ur : ul;
            s.p0 = left_first ? left : right;
            s.p1 = left_first ? right : left;
        }
        // Insertion sort by start along the edge (stable: link order on ties).
        uint32_t at = span_count++;
        while (at > 0 && spans[at - 1].u0 > s.u0) {
            spans[at] = spans[at - 1];
            at--;
        }
        spans[at] = s;
    }

    uint32_t count = 0;
    float covered = 0.0f; // the edge is accounted for up to here
    wf_vec3 covered_pos = va;
    for (uint32_t i = 0; i < span_count; ++i) {
        const edge_span* s = &spans[i];
        if (s->u0 > covered + WF_EDGE_GAP_SLACK) {
            out[count++] = (wall_piece){covered_pos, s->p0, {0}};
            covered = s->u0;
            covered_pos = s->p0;
        }
        if (s->u1 <= covered + WF_EDGE_GAP_SLACK) {
            continue; // inside what is already accounted for
        }
        if (!s->passable) {
            out[count++] = (wall_piece){s->u0 > covered ? s->p0 : covered_pos, s->p1, s->ref};
        }
        covered = s->u1;
        covered_pos = s->p1;
    }
    if (covered < 1.0f - WF_EDGE_GAP_SLACK) {
        out[count++] = (wall_piece){covered_pos, vb, {0}};
    }
    return count;
}

static bool check_ref(const wf_mesh* mesh, wf_poly_ref ref, const wf_mesh_tile** tile,
                      const wf_tile_poly** poly, wf_status* status) {
    *status = wf_mesh_resolve(mesh, ref, tile, poly);
    return *status == WF_OK;
}

/*
 * Polygons around a circle: Dijkstra from start_ref (costs by the filter,
 * from the centre through portal midpoints), entering a neighbour only when
 * the shared part of the edge comes within radius of center. Off-mesh links
 * are followed like portals (their end point is the portal). Results are in
 * the order polygons leave the open list, so costs never decrease.
 * WF_PARTIAL when max was too small (the search stops there) or the node
 * pool ran out; out_count is what was written.
 */
wf_status wf_query_find_polys_around_circle(wf_query* query, wf_poly_ref start_ref, wf_vec3 center,
                                            float radius, const wf_query_filter* filter,
                                            wf_poly_ref* out_refs, wf_poly_ref* out_parents,
                                            float* out_costs, uint32_t max, uint32_t* out_count) {
    WF_CHECK_ARG(query != NULL && filter != NULL && out_count != NULL);
    WF_CHECK_ARG(out_refs != NULL || max == 0);
    WF_CHECK_ARG(wf_v3_is_finite(center) && radius >= 0.0f && isfinite(radius));
    WF_CHECK_ARG(!wf_poly_ref_is_null(start_ref));
    const wf_mesh* mesh = query->mesh;
    const wf_mesh_tile* tile;
    const wf_tile_poly* poly;
    wf_status status;
    if (!check_ref(mesh, start_ref, &tile, &poly, &status)) {
        return status;
    }
    wf_radius_search search = {.query = query,
                               .filter = filter,
                               .center = center,
                               .radius_sq = radius * radius,
                               .limited = true,
                               .area_costs = true};
    status = wf_radius_search_begin(&search, start_ref);
    if (status != WF_OK) {
        return status;
    }
    const wf_node_pool* pool = &query->nodes;
    uint32_t n = 0;
    for (uint32_t best; (best = wf_radius_search_next(&search)) != WF_NO_NODE;) {
        const wf_search_node* bn = &pool->nodes[best];
        if (n == max) {
            status = WF_PARTIAL;
            break;
        }
        out_refs[n] = bn->ref;
        if (out_parents != NULL) {
            out_parents[n] =
                bn->parent == WF_NO_NODE ? (wf_poly_ref){0} : pool->nodes[bn->parent].ref;
        }
        if (out_costs != NULL) {
            out_costs[n] = bn->cost;
        }
        n++;
        wf_radius_search_expand(&search, best);
    }
    if (search.out_of_nodes) {
        status = WF_PARTIAL; // out of nodes: the result misses polygons
    }
    *out_count = n;
    return status;
}

/// Separating-axis test on XZ for two convex polygons: true when they
/// overlap by more than WF_OVERLAP_SLACK (touching does not count).
static bool polys_overlap_2d(const wf_vec3* a, uint32_t na, const wf_vec3* b, uint32_t nb) {
    for (uint32_t pass = 0; pass < 2; ++pass) {
        const wf_vec3* p = pass == 0 ? a : b;
        uint32_t np = pass == 0 ? na : nb;
        for (uint32_t i = 0, j = np - 1; i < np; j = i++) {
            wf_vec3 axis = wf_v3_normalize(wf_v3(p[i].z - p[j].z, 0.0f, -(p[i].x - p[j].x)));
            float amin = FLT_MAX, amax = -FLT_MAX, bmin = FLT_MAX, bmax = -FLT_MAX;
            for (uint32_t k = 0; k < na; ++k) {
                float d = wf_v2_dot(a[k], axis);
                amin = d < amin ? d : amin;
                amax = d > amax ? d : amax;
            }
            for (uint32_t k = 0; k < nb; ++k) {
                float d = wf_v2_dot(b[k], axis);
                bmin = d < bmin ? d : bmin;
                bmax = d > bmax ? d : bmax;
            }
            if (amin + WF_OVERLAP_SLACK > bmax || amax - WF_OVERLAP_SLACK < bmin) {
                return false;
            }
        }
    }
    return true;
}

static bool polys_linked(const wf_mesh_tile* tile, uint32_t index, wf_poly_ref other) {
    for (uint32_t k = tile->first_link[index]; k != WF_NULL_LINK; k = tile->links[k].next) {
        if (tile->links[k].ref == other.bits) {
            return true;
        }
    }
    return false;
}

/*
 * Local neighbourhood: breadth first from start_ref through portals within
 * radius of center, like polys_around_circle, but a polygon that overlaps
 * (seen from above) an already accepted polygon it is not linked to is
 * left out: on stacked floors the agent sees only its own. Off-mesh links
 * are not followed. WF_PARTIAL when max was too small (the search stops)
 * or the node pool ran out.
 */
wf_status wf_query_find_local_neighbourhood(wf_query* query, wf_poly_ref start_ref, wf_vec3 center,
                                            float radius, const wf_query_filter* filter,
                                            wf_poly_ref* out_refs, wf_poly_ref* out_parents,
                                            uint32_t max, uint32_t* out_count) {
    WF_CHECK_ARG(query != NULL && filter != NULL && out_count != NULL);
    WF_CHECK_ARG(out_refs != NULL || max == 0);
    WF_CHECK_ARG(wf_v3_is_finite(center) && radius >= 0.0f && isfinite(radius));
    WF_CHECK_ARG(!wf_poly_ref_is_null(start_ref));
    const wf_mesh* mesh = query->mesh;
    const wf_mesh_tile* tile;
    const wf_tile_poly* poly;
    wf_status status;
    if (!check_ref(mesh, start_ref, &tile, &poly, &status)) {
        return status;
    }
    if (max == 0) {
        *out_count = 0;
        return WF_PARTIAL;
    }
    wf_node_pool* pool = &query->nodes;
    wf_query_begin_search(query);
    uint32_t start_node = wf_node_pool_get(pool, start_ref);
    WF_ASSERT(start_node != WF_NO_NODE);
    if (start_node == WF_NO_NODE) {
        return WF_ERR_CAPACITY;
    }
    pool->nodes[start_node].flags = WF_NODE_CLOSED;
    uint32_t queue[WF_NEIGHBOURHOOD_FRONTIER];
    uint32_t head = 0, queued = 0;
    queue[queued++] = start_node;
    out_refs[0] = start_ref;
    if (out_parents != NULL) {
        out_parents[0] = (wf_poly_ref){0};
    }
    uint32_t n = 1;
    float radius_sq = radius * radius;
    wf_vec3 verts[WF_MAX_VERTS_PER_POLY], other[WF_MAX_VERTS_PER_POLY];

    while (queued > 0 && status == WF_OK) {
        uint32_t cur_node = queue[head];
        head = (head + 1u) % WF_NEIGHBOURHOOD_FRONTIER;
        queued--;
        wf_poly_ref cur = pool->nodes[cur_node].ref;
        wf_mesh_resolve_unchecked(mesh, cur, &tile, &poly);
        uint32_t index = wf_tile_poly_index(tile, poly);
        for (uint32_t k = tile->first_link[index]; k != WF_NULL_LINK; k = tile->links[k].next) {
            wf_poly_ref next = wf_poly_ref_from_u64(tile->links[k].ref);
            const wf_mesh_tile* next_tile;
            const wf_tile_poly* next_poly;
            wf_mesh_resolve_unchecked(mesh, next, &next_tile, &next_poly);
            uint32_t next_index = wf_tile_poly_index(next_tile, next_poly);
            if (wf_poly_type(next_poly) != WF_POLY_TYPE_GROUND ||
                !wf_filter_passes(filter, next_tile, next_index) ||
                wf_node_pool_find(pool, next) != WF_NO_NODE) {
                continue;
            }
            wf_vec3 left, right;
            if (wf_mesh_portal_points(mesh, cur, tile, poly, next, next_tile, next_poly, &left,
                                      &right) != WF_OK ||
                wf_dist_point_segment_sq_2d(center, left, right, NULL) > radius_sq) {
                continue;
            }
            // Marked visited before the overlap test: a refused polygon
            // stays refused whichever way it is reached again.
            uint32_t node = wf_node_pool_get(pool, next);
            if (node == WF_NO_NODE) {
                status = WF_PARTIAL;
                break;
            }
            pool->nodes[node].flags = WF_NODE_CLOSED;
            pool->nodes[node].parent = cur_node;

            uint32_t nv = wf_tile_poly_vertices(next_tile, next_poly, verts);
            bool overlaps = false;
            for (uint32_t i = 0; i < n && !overlaps; ++i) {
                if (polys_linked(next_tile, next_index, out_refs[i])) {
                    continue; // neighbours share an edge, they do not overlap
                }
                const wf_mesh_tile* ot;
                const wf_tile_poly* op;
                wf_mesh_resolve_unchecked(mesh, out_refs[i], &ot, &op);
                uint32_t no = wf_tile_poly_vertices(ot, op, other);
                overlaps = polys_overlap_2d(verts, nv, other, no);
            }
            if (overlaps) {
                continue;
            }
            if (n == max) {
                status = WF_PARTIAL;
                break;
            }
            out_refs[n] = next;
            if (out_parents != NULL) {
                out_parents[n] = cur;
            }
            n++;
            if (queued < WF_NEIGHBOURHOOD_FRONTIER) {
                queue[(head + queued) % WF_NEIGHBOURHOOD_FRONTIER] = node;
                queued++;
            }
        }
    }
    *out_count = n;
    return status;
}

/*
 * Wall segments, edge by edge in the polygon's vertex order, each running
 * along its edge (vertex i -> i + 1). A tile-border edge linked over only
 * part of its length gives a wall for each unlinked part.
 * out_segments may be NULL only when max_segments is 0. WF_PARTIAL when
 * more walls exist than fit; out_count is what was written.
 */
wf_status wf_query_get_poly_wall_segments(wf_query* query, wf_poly_ref ref,
                                          const wf_query_filter* filter, wf_vec3* out_segments,
                                          wf_poly_ref* out_neighbours, uint32_t max_segments,
                                          uint32_t* out_count) {
    WF_CHECK_ARG(query != NULL && filter != NULL && out_count != NULL);
    WF_CHECK_ARG(out_segments != NULL || max_segments == 0);
    WF_CHECK_ARG(!wf_poly_ref_is_null(ref));
    const wf_mesh* mesh = query->mesh;
    const wf_mesh_tile* tile;
    const wf_tile_poly* poly;
    wf_status status;
    if (!check_ref(mesh, ref, &tile, &poly, &status)) {
        return status;
    }
    WF_CHECK_ARG(wf_poly_type(poly) == WF_POLY_TYPE_GROUND);
    wf_vec3 verts[WF_MAX_VERTS_PER_POLY];
    uint32_t nv = wf_tile_poly_vertices(tile, poly, verts);
    uint32_t n = 0;
    for (uint32_t j = 0; j < nv && status == WF_OK; ++j) {
        wall_piece walls[WF_EDGE_MAX_WALLS];
        uint32_t count =
            edge_walls(mesh, ref, tile, poly, j, verts[j], verts[(j + 1u) % nv], filter, walls);
        for (uint32_t w = 0; w < count; ++w) {
            if (n == max_segments) {
                status = WF_PARTIAL;
                break;
            }
            out_segments[2u * n] = walls[w].a;
            out_segments[2u * n + 1u] = walls[w].b;
            if (out_neighbours != NULL) {
                out_neighbours[n] = walls[w].ref;
            }
            n++;
        }
    }
    *out_count = n;
    return status;
}

/*
 * Distance to the nearest wall: Dijkstra outward from start_ref (plain
 * distances between portal midpoints: only the search order depends on
 * them), entering a neighbour only while its portal is closer than the
 * nearest wall found so far, so the search shrinks as walls are found.
 * Walls are those of wf_query_get_poly_wall_segments. out_hit_pos and
 * out_hit_normal are optional; the normal points from the wall to center
 * (the wall's inward normal when center lies on it). With no wall within
 * max_radius: distance max_radius, hit position center, zero normal.
 * WF_PARTIAL when the node pool ran out (the distance is then an upper
 * bound).
 */
wf_status wf_query_find_distance_to_wall(wf_query* query, wf_poly_ref start_ref, wf_vec3 center,
                                         float max_radius, const wf_query_filter* filter,
                                         float* out_distance, wf_vec3* out_hit_pos,
                                         wf_vec3* out_hit_normal) {
    WF_CHECK_ARG(query != NULL && filter != NULL && out_distance != NULL);
    WF_CHECK_ARG(wf_v3_is_finite(center) && max_radius >= 0.0f && isfinite(max_radius));
    WF_CHECK_ARG(!wf_poly_ref_is_null(start_ref));
    const wf_mesh* mesh = query->mesh;
    const wf_mesh_tile* tile;
    const wf_tile_poly* poly;
    wf_status status;
    if (!check_ref(mesh, start_ref, &tile, &poly, &status)) {
        return status;
    }
    WF_CHECK_ARG(wf_poly_type(poly) == WF_POLY_TYPE_GROUND);
    wf_radius_search search = {.query = query,
                               .filter = filter,
                               .center = center,
                               .radius_sq = max_radius * max_radius,
                               .limited = true,
                               .ground_only = true};
    status = wf_radius_search_begin(&search, start_ref);
    if (status != WF_OK) {
        return status;
    }
    bool found_wall = false;
    wf_vec3 hit_pos = center, hit_normal = wf_v3(0.0f, 0.0f, 0.0f);
    wf_vec3 verts[WF_MAX_VERTS_PER_POLY];
    for (uint32_t best; (best = wf_radius_search_next(&search)) != WF_NO_NODE;) {
        wf_poly_ref best_ref = query->nodes.nodes[best].ref;
        wf_mesh_resolve_unchecked(mesh, best_ref, &tile, &poly);
        uint32_t nv = wf_tile_poly_vertices(tile, poly, verts);
        for (uint32_t j = 0; j < nv; ++j) {
            wf_vec3 va = verts[j], vb = verts[(j + 1u) % nv];
            wall_piece walls[WF_EDGE_MAX_WALLS];
            uint32_t count = edge_walls(mesh, best_ref, tile, poly, j, va, vb, filter, walls);
            for (uint32_t w = 0; w < count; ++w) {
                float t;
                float d = wf_dist_point_segment_sq_2d(center, walls[w].a, walls[w].b, &t);
                if (d > search.radius_sq || (found_wall && d == search.radius_sq)) {
                    continue;
                }
                // The search shrinks: portals beyond the nearest wall are not crossed.
                found_wall = true;
                search.radius_sq = d;
                hit_pos = wf_v3_lerp(walls[w].a, walls[w].b, t);
                wf_vec3 away = wf_v3(center.x - hit_pos.x, 0.0f, center.z - hit_pos.z);
                hit_normal = d > 0.0f ? wf_v3_normalize(away)
                                      : wf_v3_normalize(wf_v3(vb.z - va.z, 0.0f, -(vb.x - va.x)));
            }
        }
        wf_radius_search_expand(&search, best);
    }
    if (search.out_of_nodes) {
        status = WF_PARTIAL;
    }
    float radius_sq = search.radius_sq;
    *out_distance = found_wall ? sqrtf(radius_sq) : max_radius;
    if (out_hit_pos != NULL) {
        *out_hit_pos = hit_pos;
    }
    if (out_hit_normal != NULL) {
        *out_hit_normal = hit_normal;
    }
    return status;
}
