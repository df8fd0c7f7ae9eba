// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Dijkstra outward from a point, crossing only portals within a radius of
// it: shared by polys-around-circle, distance-to-wall and random points
// around a position. Uses the query's node pool and open list.
#ifndef WF_NAVCORE_RADIUS_SEARCH_H
#define WF_NAVCORE_RADIUS_SEARCH_H

#include "navcore/query_internal.h"

typedef struct wf_radius_search {
    wf_query* query;
    const wf_query_filter* filter;
    wf_vec3 center;
    float radius_sq;   ///< portals further from center are not crossed; may shrink meanwhile
    bool limited;      ///< false: radius_sq is ignored
    bool ground_only;  ///< true: off-mesh links are not followed
    bool area_costs;   ///< true: filter area costs; false: plain distance (order only)
    bool out_of_nodes; ///< set when a polygon was left out for lack of nodes
} wf_radius_search;

/// Clears the query's search and opens start_ref at center (a live ref).
/// WF_ERR_CAPACITY if the pool has no node for it.
wf_status wf_radius_search_begin(wf_radius_search* search, wf_poly_ref start_ref);

/// The next polygon in cost order, now closed; WF_NO_NODE when none is left.
uint32_t wf_radius_search_next(wf_radius_search* search);

/// Opens or relaxes the neighbours of a closed node. Entry points are
/// portal midpoints; costs accumulate from center.
void wf_radius_search_expand(wf_radius_search* search, uint32_t node);

#endif
