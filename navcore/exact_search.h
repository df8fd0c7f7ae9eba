// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Exact path mode (WF_PATH_MODE_EXACT): the true shortest any-angle path
// over the navmesh in the XZ plane, found with Polyanya (Cui, Harabor,
// Grastien 2017). A search node is a root point, an interval of a portal
// seen from it and the polygon the interval leads into. Storage is sized at
// wf_query_create and separate from the polygon A*'s node pool.
#ifndef WF_NAVCORE_EXACT_SEARCH_H
#define WF_NAVCORE_EXACT_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "navcore/exact_landmarks.h"
#include "wayfarer/query.h"

/// Exact search nodes per max_nodes of the query (an interval search
/// touches a polygon through several intervals).
#define WF_EXACT_NODES_PER_MAX_NODE 4u
/// Most a query desc may ask for (the node count stays below 2^26).
#define WF_EXACT_MAX_NODES_PER_MAX_NODE 64u

typedef struct wf_exact_node {
    // Doubles: a cone cast from a root through a float-rounded interval end
    // would miss, by float noise, the corner its side runs through.
    double root[3];      ///< where the path last turned (x, y, z)
    double left[3];      ///< interval end on the left, seen from the root
    double right[3];     ///< interval end on the right
    double g;            ///< XZ length from the start to the root
    double f;            ///< g + lower bound through the interval to the goal (set when pushed)
    uint64_t poly;       ///< polygon the interval leads into (wf_poly_ref bits)
    uint32_t parent;     ///< node whose polygon precedes poly in the corridor
    uint32_t flags;      ///< EXACT_NODE_* (exact_search.c)
    uint32_t root_index; ///< the root's entry in the turning points, or none
    uint32_t link;       ///< next free slot, next new successor of one expansion, or (an open
                         ///< half of a cut cone) the other half
} wf_exact_node;

/// An expanded node (popped, or run through in a chain of single
/// successors): what the corridor, replanning and partial results still
/// need of it (XZ in floats: only lengths to report come of them), in a
/// third of a node's bytes; its node slot is free again.
/// Steps fill the node storage from its far end; a parent id with
/// WF_EXACT_STEP_BIT set is a step's.
/// A join (poly 0) is where two cones of one root, split at an open
/// vertex (right[]), came together again in one polygon: parent is the
/// way in right of the ray root -> vertex, other the way in left of it.
typedef struct wf_exact_step {
    uint64_t poly;   ///< polygon entered (wf_poly_ref bits); 0: a join
    uint32_t parent; ///< node or step before it
    union {
        float g;        ///< the node's g
        uint32_t other; ///< a join's second parent
    } u;
    float root[2]; ///< x, z
    float right[2];
    float left[2];
} wf_exact_step;

#define WF_EXACT_STEP_BIT 0x80000000u

/// An open-list entry: 16 bytes (ties on f read the nodes' g). The open
/// list is a radix heap: entries sit in lists by the highest bit in which
/// their f differs from the last f popped (f never falls below it).
typedef struct wf_exact_open {
    double f;
    uint32_t node;
    uint32_t next; ///< next entry of its bucket, or of the free entries
} wf_exact_open;

/// Radix heap buckets: 0 holds f equal to (or, by float noise, below) the
/// last f popped, b in 1..64 f whose highest bit differing from it is b - 1.
#define WF_EXACT_OPEN_BUCKETS 65u

/// A point met as a possible turn: its best g as a root (root-level
/// pruning; infinite until it is one) and whether it is an obstacle corner.
typedef struct wf_exact_root {
    double pos[3];
    double g;
    uint32_t next;
    uint32_t bucket; ///< its hash bucket (cleared through it at the next search)
    uint32_t corner; ///< 0 not known yet, 1 corner, 2 not a corner
    float landmark;  ///< landmark lower bound to the goal (exact_landmarks.h); < 0 not known yet
} wf_exact_root;

typedef struct wf_exact_search {
    wf_exact_node* nodes;
    wf_exact_open* open;
    wf_exact_root* roots;
    uint32_t* root_buckets;
    uint64_t* pushed;         ///< root_mask + 1 hashes of pushed nodes (salted per search)
    uint64_t search_salt;     ///< changes every search: older hashes never match
    uint32_t* open_slots;     ///< root_mask + 1: an open node by (polygon, root, g), to join cones
    uint32_t capacity;        ///< nodes and open entries
    wf_exact_step* steps_end; ///< just past the node storage (nodes from the front, steps
                              ///< from the back): step j is steps_end[-1 - j]
    uint32_t root_capacity;
    uint32_t root_mask;
    uint32_t node_count, open_count, root_count;
    uint32_t step_count; ///< steps, stored back from the end of nodes' storage
    uint32_t free_node;  ///< free node slots below node_count (a list through link)
    uint32_t new_nodes;  ///< nodes made by the running expansion (a list through link)
    uint32_t new_count;
    // The search (one-shot or time-sliced).
    bool active;      ///< an exact begin_path is the query's current sliced search
    wf_status status; ///< WF_IN_PROGRESS while running
    wf_poly_ref start_ref, end_ref;
    wf_vec3 start_pos, end_pos; ///< clamped into their polygons
    wf_query_filter filter;
    uint32_t goal_node; ///< popped goal node (WF_OK)
    bool out_of_nodes;
    uint32_t walks_tried;  ///< popped halves walked round their vertex (exact_search.c)
    uint32_t walks_joined; ///< of them, joined with their other half
    uint64_t open_last;    ///< bits of the last f popped (positive doubles order as their bits)
    uint64_t open_filled;  ///< bit b - 1 set: bucket b (1..64) is not empty
    uint32_t open_free;    ///< free entries (a list through next)
    uint32_t open_used;    ///< entries ever taken in this search
    uint32_t open_bucket[WF_EXACT_OPEN_BUCKETS]; ///< first entry of each bucket
    uint32_t mesh_stamp; ///< the mesh's change_count at begin_path: while it holds, refs are live
    wf_exact_landmark_goal landmarks; ///< the query's landmark table seen from this goal
    /// Where end_ref is numbered for the pocket test (wf_link_portal;
    /// number 0: in no pocket).
    uint32_t goal_tile, goal_number;
} wf_exact_search;

/// Storage for nodes_per_node interval nodes (and one turning point) per
/// max_nodes. A query created without it (all zero) answers exact searches
/// with WF_ERR_CAPACITY.
wf_status wf_exact_create(wf_exact_search* s, const wf_allocator* allocator, uint32_t max_nodes,
                          uint32_t nodes_per_node);
void wf_exact_destroy(wf_exact_search* s, const wf_allocator* allocator);
size_t wf_exact_memory_bytes(const wf_exact_search* s);

/// True when the filter is one exact mode accepts (every area cost 1).
bool wf_exact_filter_is_valid(const wf_query_filter* filter);

/// wf_query_begin_path / update / finish / finish_partial in exact mode;
/// path_search.c hands them over.
wf_status wf_exact_begin_path(wf_query* query, wf_poly_ref start_ref, wf_poly_ref end_ref,
                              wf_vec3 start_pos, wf_vec3 end_pos, const wf_query_filter* filter);
wf_status wf_exact_update_path(wf_query* query, uint32_t max_iterations, uint32_t* out_iterations);
wf_status wf_exact_finish_path(wf_query* query, const wf_poly_ref* existing,
                               uint32_t existing_count, wf_poly_ref* path, uint32_t max_path,
                               wf_path_result* out);

#endif
