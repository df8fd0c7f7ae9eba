// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The query object's inside, shared by the query source files.
#ifndef WF_NAVCORE_QUERY_INTERNAL_H
#define WF_NAVCORE_QUERY_INTERNAL_H

#include <string.h>

#include "navcore/exact_search.h"
#include "navcore/mesh_internal.h"
#include "navcore/node_pool.h"
#include "wayfarer/query.h"

/// State of a time-sliced path search (begin / update / finish).
typedef struct wf_sliced_search {
    wf_status status; ///< WF_IN_PROGRESS while running; 0 when none begun
    bool active;
    wf_poly_ref start_ref, end_ref;
    wf_vec3 start_pos, end_pos;
    wf_query_filter filter;
    uint32_t best_node; ///< reached node closest to the goal (partial paths)
    float best_heuristic;
    bool out_of_nodes;
} wf_sliced_search;

struct wf_query {
    const wf_mesh* mesh;
    wf_allocator allocator;
    wf_node_pool nodes;
    wf_open_list open;
    wf_sliced_search sliced;
    wf_exact_search exact;                     ///< exact path mode (exact_search.c)
    const wf_exact_landmarks* exact_landmarks; ///< exact mode's lower bounds, or NULL
    wf_poly_cost_fn cost_scale; ///< default-mode searches: area cost factor per polygon
    const void* cost_scale_user;
};

/// The cost scale of a polygon (1 without a scale; never below 1 or NaN).
static inline float wf_query_poly_scale(const wf_query* q, wf_poly_ref ref) {
    if (q->cost_scale == NULL) {
        return 1.0f;
    }
    float s = q->cost_scale(q->cost_scale_user, ref);
    return s >= 1.0f && s <= 1e6f ? s : (s > 1e6f ? 1e6f : 1.0f);
}

/// Starts a search that reuses the node pool and open list (local queries,
/// random points): a sliced path search in progress is over, its nodes gone.
static inline void wf_query_begin_search(wf_query* q) {
    wf_node_pool_clear(&q->nodes);
    wf_open_list_clear(&q->open);
    memset(&q->sliced, 0, sizeof q->sliced);
    q->sliced.best_node = WF_NO_NODE;
}

/// True when a polygon passes the filter (flags); areas cost, not exclude.
static inline bool wf_filter_passes(const wf_query_filter* filter, const wf_mesh_tile* tile,
                                    uint32_t poly_index) {
    uint16_t flags = tile->poly_flags[poly_index];
    return (flags & filter->include_flags) != 0 && (flags & filter->exclude_flags) == 0;
}

/// Cost of moving from a to b through a polygon of the given area.
static inline float wf_filter_cost(const wf_query_filter* filter, wf_vec3 a, wf_vec3 b,
                                   const wf_mesh_tile* tile, uint32_t poly_index) {
    return wf_v3_distance(a, b) * filter->area_cost[tile->poly_areas[poly_index]];
}

#endif
