// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Path searches over polygons: A* to a polygon (whole or time-sliced), to a
// box, and Dijkstra to the nearest of many goals. One engine serves all.
#include <math.h>
#include <string.h>

#include "navcore/check.h"
#include "navcore/geometry.h"
#include "navcore/query_internal.h"

/// Heuristic weight. The straight-line distance never overestimates when
/// area costs are >= 1; the weight sits a hair under 1 so float rounding in
/// accumulated costs cannot make it overestimate either. (Area costs below
/// 1 make it overestimate: paths stay valid but may not be the cheapest.)
#define H_SCALE 0.999f

/// find_nearest_goal compares each expanded polygon with every goal up to
/// this many goals; above it, goals are marked in the node pool instead
/// (one node each) so the test is O(1).
#define NEAREST_GOAL_SCAN_MAX 16u

#define NODE_REACHED (WF_NODE_OPEN | WF_NODE_CLOSED)

typedef enum search_kind {
    SEARCH_TO_POLY,  ///< A* to end_ref, ending at end_pos
    SEARCH_TO_BOX,   ///< A* to the first polygon overlapping a box
    SEARCH_TO_GOALS, ///< Dijkstra to the first of many polygons
} search_kind;

/// What a search looks for.
typedef struct search_goal {
    search_kind kind;
    wf_poly_ref end_ref;
    wf_vec3 end_pos;
    wf_vec3 box_min, box_max;
    const wf_poly_ref* goals;
    uint32_t goal_count;
    bool goals_marked; ///< goals carry WF_NODE_GOAL in the pool
    float h_scale;     ///< 0: Dijkstra
    bool stop_on_reach; ///< done as soon as the goal is reached (no path needed)
} search_goal;

static bool filter_is_valid(const wf_query_filter* filter) {
    if (filter->path_mode > WF_PATH_MODE_EXACT) {
        return false;
    }
    for (uint32_t i = 0; i < WF_MAX_AREAS; ++i) {
        if (!isfinite(filter->area_cost[i]) || filter->area_cost[i] < 0.0f) {
            return false;
        }
    }
    return true;
}

static bool box_is_valid(wf_vec3 bmin, wf_vec3 bmax) {
    return wf_v3_is_finite(bmin) && wf_v3_is_finite(bmax) && bmin.x <= bmax.x &&
           bmin.y <= bmax.y && bmin.z <= bmax.z;
}

static wf_vec3 clamp_to_box(wf_vec3 p, wf_vec3 bmin, wf_vec3 bmax) {
    return wf_v3_min(wf_v3_max(p, bmin), bmax);
}

/// Unscaled distance from p to what the search looks for.
static float goal_distance(const search_goal* g, wf_vec3 p) {
    switch (g->kind) {
    case SEARCH_TO_POLY:
        return wf_v3_distance(p, g->end_pos);
    case SEARCH_TO_BOX:
        return wf_v3_distance(p, clamp_to_box(p, g->box_min, g->box_max));
    case SEARCH_TO_GOALS:
    default:
        return 0.0f;
    }
}

static bool poly_overlaps_box(const wf_mesh_tile* tile, const wf_tile_poly* poly, wf_vec3 bmin,
                              wf_vec3 bmax) {
    if (wf_poly_type(poly) != WF_POLY_TYPE_GROUND || poly->vert_count == 0) {
        return false;
    }
    wf_vec3 pmin = wf_tile_vertex(tile, poly->verts[0]), pmax = pmin;
    for (uint32_t i = 1; i < poly->vert_count; ++i) {
        wf_vec3 v = wf_tile_vertex(tile, poly->verts[i]);
        pmin = wf_v3_min(pmin, v);
        pmax = wf_v3_max(pmax, v);
    }
    return wf_boxes_overlap(pmin, pmax, bmin, bmax);
}

static bool is_goal(const wf_query* q, const search_goal* g, uint32_t node,
                    const wf_mesh_tile* tile, const wf_tile_poly* poly) {
    const wf_search_node* n = &q->nodes.nodes[node];
    switch (g->kind) {
    case SEARCH_TO_POLY:
        return n->ref.bits == g->end_ref.bits;
    case SEARCH_TO_BOX:
        return poly_overlaps_box(tile, poly, g->box_min, g->box_max);
    case SEARCH_TO_GOALS:
    default:
        if (g->goals_marked) {
            return (n->flags & WF_NODE_GOAL) != 0;
        }
        for (uint32_t i = 0; i < g->goal_count; ++i) {
            if (g->goals[i].bits == n->ref.bits) {
                return true;
            }
        }
        return false;
    }
}

/// Resets the pool and opens the start node. Marked goals are created
/// first so the start node finds its mark too.
static void search_start(wf_query* q, const wf_query_filter* filter, const search_goal* g,
                         wf_poly_ref start_ref, wf_vec3 start_pos) {
    wf_node_pool_clear(&q->nodes);
    wf_open_list_clear(&q->open);
    if (g->goals_marked) {
        for (uint32_t i = 0; i < g->goal_count; ++i) {
            uint32_t n = wf_node_pool_get(&q->nodes, g->goals[i]);
            if (n != WF_NO_NODE) {
                q->nodes.nodes[n].flags |= WF_NODE_GOAL;
            }
        }
    }
    uint32_t start = wf_node_pool_get(&q->nodes, start_ref);
    WF_ASSERT(start != WF_NO_NODE); // callers leave room for it
    wf_search_node* n = &q->nodes.nodes[start];
    n->pos = start_pos;
    n->cost = 0.0f;
    n->total = goal_distance(g, start_pos) * g->h_scale;
    if (g->kind == SEARCH_TO_POLY && start_ref.bits == g->end_ref.bits) {
        // Start and end in one polygon: the whole way is across it.
        const wf_mesh_tile* tile;
        const wf_tile_poly* poly;
        wf_mesh_resolve_unchecked(q->mesh, start_ref, &tile, &poly);
        n->cost = wf_filter_cost(filter, start_pos, g->end_pos, tile,
                                 wf_tile_poly_index(tile, poly));
        n->total = n->cost;
    }
    n->flags |= WF_NODE_OPEN;
    wf_open_list_push(&q->open, &q->nodes, start);
}

/// Where the search enters a polygon through a portal: towards the goal,
/// the point where the straight line from the current entry point to the
/// goal crosses the portal (or the portal end nearest that line). Costs then
/// follow the shortest way through each portal far better than portal
/// midpoints do, which picks better corridors for the funnel.
static wf_vec3 portal_entry(const search_goal* g, wf_vec3 from, wf_vec3 left, wf_vec3 right) {
    if (g->kind != SEARCH_TO_POLY) {
        return wf_v3_lerp(left, right, 0.5f);
    }
    wf_vec3 dir = wf_v3_sub(g->end_pos, from);
    wf_vec3 edge = wf_v3_sub(right, left);
    float den = wf_v2_perp(dir, edge);
    float t = 0.5f;
    if (den * den > 1e-12f * wf_v2_length_sq(dir) * wf_v2_length_sq(edge)) {
        t = wf_v2_perp(dir, wf_v3_sub(from, left)) / den;
    } else {
        // Parallel: the end of the portal nearer the goal.
        t = wf_v2_distance_sq(left, g->end_pos) <= wf_v2_distance_sq(right, g->end_pos) ? 0.0f : 1.0f;
    }
    // Keep the entry point off the portal's very ends: a path through a
    // vertex would slide along the wall.
    const float margin = 0.001f;
    t = t < margin ? margin : (t > 1.0f - margin ? 1.0f - margin : t);
    return wf_v3_lerp(left, right, t);
}

/// Relaxes every passable neighbour of an expanded node. Returns true when
/// a stop_on_reach search has just reached its goal.
static bool expand(wf_query* q, const wf_query_filter* filter, const search_goal* g,
                   uint32_t current, const wf_mesh_tile* tile, const wf_tile_poly* poly,
                   wf_poly_ref parent_ref, bool* out_of_nodes) {
    wf_node_pool* pool = &q->nodes;
    const wf_search_node cur = pool->nodes[current];
    uint32_t poly_index = wf_tile_poly_index(tile, poly);
    bool via_offmesh = wf_poly_type(poly) == WF_POLY_TYPE_OFFMESH;
    for (uint32_t k = tile->first_link[poly_index]; k != WF_NULL_LINK; k = tile->links[k].next) {
        wf_poly_ref next_ref = wf_poly_ref_from_u64(tile->links[k].ref);
        if (wf_poly_ref_is_null(next_ref) || next_ref.bits == parent_ref.bits) {
            continue; // going back never gets cheaper
        }
        const wf_mesh_tile* next_tile;
        const wf_tile_poly* next_poly;
        wf_mesh_resolve_unchecked(q->mesh, next_ref, &next_tile, &next_poly);
        uint32_t next_index = wf_tile_poly_index(next_tile, next_poly);
        if (!wf_filter_passes(filter, next_tile, next_index)) {
            continue;
        }
        bool reaches_end = g->kind == SEARCH_TO_POLY && next_ref.bits == g->end_ref.bits;
        if (reaches_end && g->stop_on_reach) {
            return true;
        }
        wf_vec3 left, right;
        wf_mesh_link_portal(cur.ref, tile, poly, &tile->links[k], next_tile, next_poly, &left,
                            &right);
        // The search enters a polygon at a point of its portal (see
        // portal_entry) and pays for the way across the polygon it leaves
        // (off-mesh links: start to end).
        wf_vec3 pos = portal_entry(g, cur.pos, left, right);
        float cost = cur.cost + wf_filter_cost(filter, cur.pos, pos, tile, poly_index);
        float heuristic;
        if (reaches_end) {
            cost += wf_filter_cost(filter, pos, g->end_pos, next_tile, next_index);
            heuristic = 0.0f;
        } else {
            heuristic = goal_distance(g, pos) * g->h_scale;
        }
        uint32_t next = wf_node_pool_get(pool, next_ref);
        if (next == WF_NO_NODE) {
            *out_of_nodes = true;
            continue;
        }
        wf_search_node* n = &pool->nodes[next];
        // Compare costs, not totals: entry points move with the parent, and
        // only a strictly cheaper cost guarantees the parent chain stays a
        // tree (a parent's cost is never below its ancestors').
        if ((n->flags & NODE_REACHED) != 0 && cost >= n->cost) {
            continue;
        }
        n->pos = pos;
        n->cost = cost;
        n->total = cost + heuristic;
        n->parent = current;
        n->flags = (n->flags & ~(uint32_t)WF_NODE_PARENT_OFFMESH) |
                   (via_offmesh ? WF_NODE_PARENT_OFFMESH : 0u);
        if ((n->flags & WF_NODE_OPEN) != 0) {
            wf_open_list_update(&q->open, pool, next);
        } else {
            n->flags = (n->flags & ~(uint32_t)WF_NODE_CLOSED) | WF_NODE_OPEN;
            wf_open_list_push(&q->open, pool, next);
        }
    }
    return false;
}

/// Runs up to max_iterations expansions. WF_IN_PROGRESS, WF_OK (goal node
/// in *goal_node), WF_PARTIAL (open list empty) or WF_ERR_STALE_REF.
static wf_status search_step(wf_query* q, const wf_query_filter* filter, const search_goal* g,
                             uint32_t max_iterations, uint32_t* out_iterations,
                             uint32_t* goal_node, bool* out_of_nodes) {
    wf_node_pool* pool = &q->nodes;
    uint32_t iterations = 0;
    wf_status status = WF_IN_PROGRESS;
    while (iterations < max_iterations) {
        uint32_t current = wf_open_list_pop(&q->open, pool);
        if (current == WF_NO_NODE) {
            status = WF_PARTIAL;
            break;
        }
        iterations++;
        wf_search_node* n = &pool->nodes[current];
        n->flags = (n->flags & ~(uint32_t)WF_NODE_OPEN) | WF_NODE_CLOSED;
        // A sliced search may see tiles removed between updates.
        const wf_mesh_tile* tile;
        const wf_tile_poly* poly;
        if (wf_mesh_resolve(q->mesh, n->ref, &tile, &poly) != WF_OK) {
            status = WF_ERR_STALE_REF;
            break;
        }
        wf_poly_ref parent_ref = {0};
        if (n->parent != WF_NO_NODE) {
            parent_ref = pool->nodes[n->parent].ref;
            if (wf_mesh_check_poly(q->mesh, parent_ref) != WF_OK) {
                status = WF_ERR_STALE_REF;
                break;
            }
        }
        if (is_goal(q, g, current, tile, poly)) {
            *goal_node = current;
            status = WF_OK;
            break;
        }
        if (expand(q, filter, g, current, tile, poly, parent_ref, out_of_nodes)) {
            *goal_node = current;
            status = WF_OK;
            break;
        }
    }
    if (out_iterations != NULL) {
        *out_iterations = iterations;
    }
    return status;
}

/// The reached polygon nearest to the goal (ties: lower cost, then lower
/// node index) for partial results. Off-mesh links are left out: a path
/// must not stop half-way through a jump.
static uint32_t best_reached_node(const wf_query* q, const search_goal* g) {
    uint32_t best = WF_NO_NODE;
    float best_distance = 0.0f, best_cost = 0.0f;
    for (uint32_t i = 0; i < q->nodes.count; ++i) {
        const wf_search_node* n = &q->nodes.nodes[i];
        if ((n->flags & NODE_REACHED) == 0) {
            continue;
        }
        if (n->parent != WF_NO_NODE && wf_mesh_is_offmesh_link(q->mesh, n->ref)) {
            continue;
        }
        float d = goal_distance(g, n->pos);
        if (best == WF_NO_NODE || d < best_distance || (d == best_distance && n->cost < best_cost)) {
            best = i;
            best_distance = d;
            best_cost = n->cost;
        }
    }
    return best;
}

/// Writes the start..target chain into path, keeping the start part when
/// it does not fit. out->flags must hold the search's flags already.
static wf_status write_path(const wf_query* q, uint32_t target, wf_poly_ref* path,
                            uint32_t max_path, wf_path_result* out) {
    const wf_search_node* nodes = q->nodes.nodes;
    uint32_t length = 0;
    // Parent chains are trees (see expand); the bound only guards the loop.
    for (uint32_t i = target; i != WF_NO_NODE && length <= q->nodes.count; i = nodes[i].parent) {
        length++;
    }
    uint32_t keep = length < max_path ? length : max_path;
    uint32_t last = target;
    for (uint32_t s = keep; s < length; ++s) {
        last = nodes[last].parent;
    }
    uint32_t i = last;
    for (uint32_t w = keep; w > 0; --w) {
        if (wf_mesh_check_poly(q->mesh, nodes[i].ref) != WF_OK) {
            out->count = 0;
            out->flags = 0;
            out->cost = 0.0f;
            return WF_ERR_STALE_REF; // the mesh changed after the search
        }
        path[w - 1] = nodes[i].ref;
        i = nodes[i].parent;
    }
    if (keep < length) {
        out->flags |= WF_PATH_BUFFER_FULL;
    }
    out->count = keep;
    out->cost = nodes[last].cost;
    return out->flags == 0 ? WF_OK : WF_PARTIAL;
}

static void clear_result(wf_path_result* out) {
    if (out != NULL) {
        out->count = 0;
        out->flags = 0;
        out->cost = 0.0f;
    }
}

static uint32_t partial_flags(bool out_of_nodes) {
    return WF_PATH_PARTIAL | (out_of_nodes ? WF_PATH_OUT_OF_NODES : 0u);
}

/// The goal of the sliced search, rebuilt from its stored state.
static search_goal sliced_goal(const wf_query* q) {
    search_goal g;
    memset(&g, 0, sizeof g);
    g.kind = SEARCH_TO_POLY;
    g.end_ref = q->sliced.end_ref;
    g.end_pos = q->sliced.end_pos;
    g.h_scale = H_SCALE;
    return g;
}

/// The sliced search is over (finished, or its nodes reused by another).
static void end_sliced(wf_query* q) {
    q->exact.active = false;
    memset(&q->sliced, 0, sizeof q->sliced);
    q->sliced.best_node = WF_NO_NODE;
}

wf_status wf_query_begin_path(wf_query* query, wf_poly_ref start_ref, wf_poly_ref end_ref,
                              wf_vec3 start_pos, wf_vec3 end_pos, const wf_query_filter* filter) {
    WF_CHECK_ARG(query != NULL && filter != NULL);
    WF_CHECK_ARG(!wf_poly_ref_is_null(start_ref) && !wf_poly_ref_is_null(end_ref));
    WF_CHECK_ARG(wf_v3_is_finite(start_pos) && wf_v3_is_finite(end_pos));
    WF_CHECK_ARG(filter_is_valid(filter));
    if (filter->path_mode == WF_PATH_MODE_EXACT) {
        return wf_exact_begin_path(query, start_ref, end_ref, start_pos, end_pos, filter);
    }
    wf_status s = wf_mesh_check_poly(query->mesh, start_ref);
    if (s == WF_OK) {
        s = wf_mesh_check_poly(query->mesh, end_ref);
    }
    if (s != WF_OK) {
        return s;
    }
    wf_sliced_search* ss = &query->sliced;
    end_sliced(query);
    ss->status = WF_IN_PROGRESS;
    ss->active = true;
    ss->start_ref = start_ref;
    ss->end_ref = end_ref;
    ss->start_pos = start_pos;
    ss->end_pos = end_pos;
    ss->filter = *filter;
    search_goal g = sliced_goal(query);
    search_start(query, &ss->filter, &g, start_ref, start_pos);
    return WF_OK;
}

wf_status wf_query_update_path(wf_query* query, uint32_t max_iterations,
                               uint32_t* out_iterations) {
    if (out_iterations != NULL) {
        *out_iterations = 0;
    }
    if (query != NULL && query->exact.active) {
        return wf_exact_update_path(query, max_iterations, out_iterations);
    }
    WF_CHECK_ARG(query != NULL && query->sliced.active);
    wf_sliced_search* ss = &query->sliced;
    if (ss->status != WF_IN_PROGRESS) {
        return ss->status;
    }
    search_goal g = sliced_goal(query);
    uint32_t goal_node = WF_NO_NODE;
    ss->status = search_step(query, &ss->filter, &g, max_iterations, out_iterations, &goal_node,
                             &ss->out_of_nodes);
    if (ss->status == WF_OK) {
        ss->best_node = goal_node;
    }
    return ss->status;
}

/// Ends the sliced search with the path to `target` (WF_NO_NODE: the best
/// partial node).
static wf_status finish_sliced(wf_query* query, uint32_t target, wf_poly_ref* path,
                               uint32_t max_path, wf_path_result* out) {
    wf_sliced_search* ss = &query->sliced;
    wf_status status = ss->status;
    clear_result(out);
    if (status < 0) {
        end_sliced(query);
        return status;
    }
    if (target == WF_NO_NODE) {
        if (status == WF_OK) {
            target = ss->best_node;
        } else {
            search_goal g = sliced_goal(query);
            target = best_reached_node(query, &g);
            out->flags = partial_flags(ss->out_of_nodes);
        }
    }
    wf_status s = write_path(query, target, path, max_path, out);
    end_sliced(query);
    return s;
}

wf_status wf_query_finish_path(wf_query* query, wf_poly_ref* path, uint32_t max_path,
                               wf_path_result* out) {
    clear_result(out);
    WF_CHECK_ARG(query != NULL && path != NULL && out != NULL && max_path > 0);
    if (query->exact.active) {
        return wf_exact_finish_path(query, NULL, 0, path, max_path, out);
    }
    WF_CHECK_ARG(query->sliced.active);
    return finish_sliced(query, WF_NO_NODE, path, max_path, out);
}

wf_status wf_query_finish_partial_path(wf_query* query, const wf_poly_ref* existing,
                                       uint32_t existing_count, wf_poly_ref* path,
                                       uint32_t max_path, wf_path_result* out) {
    clear_result(out);
    WF_CHECK_ARG(query != NULL && existing != NULL && path != NULL && out != NULL);
    WF_CHECK_ARG(existing_count > 0 && max_path > 0);
    if (query->exact.active) {
        return wf_exact_finish_path(query, existing, existing_count, path, max_path, out);
    }
    WF_CHECK_ARG(query->sliced.active);
    uint32_t target = WF_NO_NODE;
    if (query->sliced.status >= 0) {
        // The old corridor's furthest polygon this search reached: the
        // caller keeps the corridor from there on.
        for (uint32_t i = existing_count; i-- > 0;) {
            uint32_t n = wf_node_pool_find(&query->nodes, existing[i]);
            if (n != WF_NO_NODE && (query->nodes.nodes[n].flags & NODE_REACHED) != 0) {
                target = n;
                break;
            }
        }
    }
    // None on it: the goal if found, else the best partial path.
    return finish_sliced(query, target, path, max_path, out);
}

wf_status wf_query_find_path(wf_query* query, wf_poly_ref start_ref, wf_poly_ref end_ref,
                             wf_vec3 start_pos, wf_vec3 end_pos, const wf_query_filter* filter,
                             wf_poly_ref* path, uint32_t max_path, wf_path_result* out) {
    clear_result(out);
    WF_CHECK_ARG(path != NULL && out != NULL && max_path > 0);
    wf_status s = wf_query_begin_path(query, start_ref, end_ref, start_pos, end_pos, filter);
    if (s != WF_OK) {
        return s;
    }
    s = wf_query_update_path(query, UINT32_MAX, NULL);
    while (s == WF_IN_PROGRESS) {
        s = wf_query_update_path(query, UINT32_MAX, NULL); // more than 2^32 expansions
    }
    return wf_query_finish_path(query, path, max_path, out);
}

/// Runs a whole non-sliced search from start_ref.
static wf_status run_search(wf_query* query, const wf_query_filter* filter, const search_goal* g,
                            wf_poly_ref start_ref, wf_vec3 start_pos, uint32_t* goal_node,
                            bool* out_of_nodes) {
    wf_query_begin_search(query);
    search_start(query, filter, g, start_ref, start_pos);
    *goal_node = WF_NO_NODE;
    *out_of_nodes = false;
    wf_status s;
    do {
        s = search_step(query, filter, g, UINT32_MAX, NULL, goal_node, out_of_nodes);
    } while (s == WF_IN_PROGRESS);
    return s;
}

wf_status wf_query_path_exists(wf_query* query, wf_poly_ref start_ref, wf_poly_ref end_ref,
                               wf_vec3 start_pos, wf_vec3 end_pos, const wf_query_filter* filter,
                               bool* out_exists) {
    if (out_exists != NULL) {
        *out_exists = false;
    }
    WF_CHECK_ARG(query != NULL && filter != NULL && out_exists != NULL);
    WF_CHECK_ARG(!wf_poly_ref_is_null(start_ref) && !wf_poly_ref_is_null(end_ref));
    WF_CHECK_ARG(wf_v3_is_finite(start_pos) && wf_v3_is_finite(end_pos));
    WF_CHECK_ARG(filter_is_valid(filter));
    wf_status s = wf_mesh_check_poly(query->mesh, start_ref);
    if (s == WF_OK) {
        s = wf_mesh_check_poly(query->mesh, end_ref);
    }
    if (s != WF_OK) {
        return s;
    }
    search_goal g;
    memset(&g, 0, sizeof g);
    g.kind = SEARCH_TO_POLY;
    g.end_ref = end_ref;
    g.end_pos = end_pos;
    g.h_scale = H_SCALE;
    g.stop_on_reach = true;
    uint32_t goal_node;
    bool out_of_nodes;
    s = run_search(query, filter, &g, start_ref, start_pos, &goal_node, &out_of_nodes);
    if (s == WF_OK) {
        *out_exists = true;
        return WF_OK;
    }
    if (s < 0) {
        return s;
    }
    return out_of_nodes ? WF_PARTIAL : WF_OK;
}

wf_status wf_query_find_path_to_box(wf_query* query, wf_poly_ref start_ref, wf_vec3 start_pos,
                                    wf_vec3 box_min, wf_vec3 box_max,
                                    const wf_query_filter* filter, wf_poly_ref* path,
                                    uint32_t max_path, wf_path_result* out, wf_vec3* out_goal) {
    clear_result(out);
    WF_CHECK_ARG(query != NULL && filter != NULL && path != NULL && out != NULL &&
                 out_goal != NULL && max_path > 0);
    WF_CHECK_ARG(!wf_poly_ref_is_null(start_ref) && wf_v3_is_finite(start_pos));
    WF_CHECK_ARG(box_is_valid(box_min, box_max));
    WF_CHECK_ARG(filter_is_valid(filter));
    wf_status s = wf_mesh_check_poly(query->mesh, start_ref);
    if (s != WF_OK) {
        return s;
    }
    search_goal g;
    memset(&g, 0, sizeof g);
    g.kind = SEARCH_TO_BOX;
    g.box_min = box_min;
    g.box_max = box_max;
    g.h_scale = H_SCALE;
    uint32_t target;
    bool out_of_nodes;
    s = run_search(query, filter, &g, start_ref, start_pos, &target, &out_of_nodes);
    if (s < 0) {
        return s;
    }
    bool reached = s == WF_OK;
    if (!reached) {
        target = best_reached_node(query, &g);
        out->flags = partial_flags(out_of_nodes);
    }
    const wf_search_node* n = &query->nodes.nodes[target];
    const wf_mesh_tile* tile;
    const wf_tile_poly* poly;
    wf_mesh_resolve_unchecked(query->mesh, n->ref, &tile, &poly);
    // The point of the reached polygon nearest the box centre, pulled into
    // the box (the polygon's bounds overlap it).
    wf_vec3 centre = wf_v3_scale(wf_v3_add(box_min, box_max), 0.5f);
    wf_vec3 goal;
    bool inside;
    wf_mesh_closest_point_on_poly(tile, poly, centre, &goal, &inside);
    if (reached) {
        goal = clamp_to_box(goal, box_min, box_max);
    }
    s = write_path(query, target, path, max_path, out);
    if (s >= 0) {
        *out_goal = goal;
        if ((out->flags & WF_PATH_BUFFER_FULL) == 0) {
            out->cost += wf_filter_cost(filter, n->pos, goal, tile, wf_tile_poly_index(tile, poly));
        }
    }
    return s;
}

wf_status wf_query_find_nearest_goal(wf_query* query, wf_poly_ref start_ref, wf_vec3 start_pos,
                                     const wf_poly_ref* goals, uint32_t goal_count,
                                     const wf_query_filter* filter, uint32_t* out_goal_index,
                                     wf_poly_ref* path, uint32_t max_path, wf_path_result* out) {
    clear_result(out);
    WF_CHECK_ARG(query != NULL && filter != NULL && goals != NULL && out_goal_index != NULL &&
                 path != NULL && out != NULL);
    WF_CHECK_ARG(goal_count > 0 && max_path > 0);
    WF_CHECK_ARG(!wf_poly_ref_is_null(start_ref) && wf_v3_is_finite(start_pos));
    WF_CHECK_ARG(filter_is_valid(filter));
    wf_status s = wf_mesh_check_poly(query->mesh, start_ref);
    for (uint32_t i = 0; i < goal_count && s == WF_OK; ++i) {
        WF_CHECK_ARG(!wf_poly_ref_is_null(goals[i]));
        s = wf_mesh_check_poly(query->mesh, goals[i]);
    }
    if (s != WF_OK) {
        return s;
    }
    search_goal g;
    memset(&g, 0, sizeof g);
    g.kind = SEARCH_TO_GOALS;
    g.goals = goals;
    g.goal_count = goal_count;
    // Marking needs a node per goal plus one for the start; when the pool
    // cannot hold them the per-node scan still gives the right answer.
    g.goals_marked = goal_count > NEAREST_GOAL_SCAN_MAX && goal_count < query->nodes.capacity;
    g.h_scale = 0.0f; // Dijkstra: the first goal popped is the cheapest
    uint32_t target;
    bool out_of_nodes;
    s = run_search(query, filter, &g, start_ref, start_pos, &target, &out_of_nodes);
    if (s < 0) {
        return s;
    }
    if (s != WF_OK) {
        if (out_of_nodes) {
            out->flags = partial_flags(true); // unknown beyond the nodes searched
        }
        return WF_ERR_NOT_FOUND;
    }
    wf_poly_ref reached = query->nodes.nodes[target].ref;
    uint32_t index = 0;
    while (goals[index].bits != reached.bits) {
        index++; // the first occurrence when a goal is listed twice
    }
    s = write_path(query, target, path, max_path, out);
    if (s >= 0) {
        *out_goal_index = index;
    }
    return s;
}
