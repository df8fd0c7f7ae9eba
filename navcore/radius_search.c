// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Dijkstra outward from a point within a radius (see radius_search.h).
#include "navcore/radius_search.h"

#include "navcore/check.h"
#include "navcore/geometry.h"

wf_status wf_radius_search_begin(wf_radius_search* search, wf_poly_ref start_ref) {
    wf_query* q = search->query;
    wf_query_begin_search(q);
    search->out_of_nodes = false;
    uint32_t start = wf_node_pool_get(&q->nodes, start_ref);
    WF_ASSERT(start != WF_NO_NODE); // a query has at least one node
    if (start == WF_NO_NODE) {
        return WF_ERR_CAPACITY;
    }
    wf_search_node* n = &q->nodes.nodes[start];
    n->pos = search->center;
    n->flags = WF_NODE_OPEN;
    wf_open_list_push(&q->open, &q->nodes, start);
    return WF_OK;
}

uint32_t wf_radius_search_next(wf_radius_search* search) {
    wf_query* q = search->query;
    uint32_t best = wf_open_list_pop(&q->open, &q->nodes);
    if (best != WF_NO_NODE) {
        wf_search_node* n = &q->nodes.nodes[best];
        n->flags = (n->flags & ~WF_NODE_OPEN) | WF_NODE_CLOSED;
    }
    return best;
}

void wf_radius_search_expand(wf_radius_search* search, uint32_t node) {
    wf_query* q = search->query;
    wf_node_pool* pool = &q->nodes;
    const wf_search_node cur = pool->nodes[node];
    const wf_mesh_tile* tile;
    const wf_tile_poly* poly;
    wf_mesh_resolve_unchecked(q->mesh, cur.ref, &tile, &poly);
    uint32_t index = wf_tile_poly_index(tile, poly);
    for (uint32_t k = tile->first_link[index]; k != WF_NULL_LINK; k = tile->links[k].next) {
        wf_poly_ref next = wf_poly_ref_from_u64(tile->links[k].ref);
        const wf_mesh_tile* next_tile;
        const wf_tile_poly* next_poly;
        wf_mesh_resolve_unchecked(q->mesh, next, &next_tile, &next_poly);
        if ((search->ground_only && wf_poly_type(next_poly) != WF_POLY_TYPE_GROUND) ||
            !wf_filter_passes(search->filter, next_tile,
                              wf_tile_poly_index(next_tile, next_poly))) {
            continue;
        }
        uint32_t found = wf_node_pool_find(pool, next);
        if (found != WF_NO_NODE && (pool->nodes[found].flags & WF_NODE_CLOSED)) {
            continue;
        }
        wf_vec3 left, right;
        wf_mesh_link_portal(cur.ref, tile, poly, &tile->links[k], next_tile, next_poly, &left,
                            &right);
        if (search->limited &&
            wf_dist_point_segment_sq_2d(search->center, left, right, NULL) > search->radius_sq) {
            continue;
        }
        uint32_t n = found != WF_NO_NODE ? found : wf_node_pool_get(pool, next);
        if (n == WF_NO_NODE) {
            search->out_of_nodes = true; // reported by the caller as WF_PARTIAL
            continue;
        }
        wf_search_node* nn = &pool->nodes[n];
        if (nn->flags == 0) {
            nn->pos = wf_v3_lerp(left, right, 0.5f);
        }
        float step = search->area_costs
                         ? wf_filter_cost(search->filter, cur.pos, nn->pos, tile, index)
                         : wf_v3_distance(cur.pos, nn->pos);
        float cost = cur.cost + step;
        if ((nn->flags & WF_NODE_OPEN) && cost >= nn->cost) {
            continue;
        }
        nn->parent = node;
        nn->cost = cost;
        nn->total = cost;
        if (nn->flags & WF_NODE_OPEN) {
            wf_open_list_update(&q->open, pool, n);
        } else {
            nn->flags |= WF_NODE_OPEN;
            wf_open_list_push(&q->open, pool, n);
        }
    }
}
