// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Search nodes for graph searches over polygons: a fixed pool of nodes
// found by poly ref through a hash table, and a binary-heap open list.
// Owned by a wf_query; nothing here allocates after creation.
#ifndef WF_NAVCORE_NODE_POOL_H
#define WF_NAVCORE_NODE_POOL_H

#include "wayfarer/navmesh.h"

#define WF_NODE_OPEN 1u
#define WF_NODE_CLOSED 2u
#define WF_NODE_PARENT_OFFMESH 4u ///< reached through an off-mesh link
#define WF_NODE_GOAL 8u ///< marked as a goal before a many-goal search
#define WF_NO_NODE 0xffffffffu

typedef struct wf_search_node {
    wf_vec3 pos;        ///< where the search enters the polygon
    float cost;         ///< cost from the start to pos
    float total;        ///< cost + heuristic (A* f value)
    uint32_t parent;    ///< node index, WF_NO_NODE for the start
    uint32_t flags;     ///< WF_NODE_*
    uint32_t heap_index; ///< position in the open list while open
    uint32_t next;      ///< hash chain
    wf_poly_ref ref;
} wf_search_node;

typedef struct wf_node_pool {
    wf_search_node* nodes;
    uint32_t* buckets; ///< hash -> first node
    uint32_t capacity;
    uint32_t bucket_mask;
    uint32_t count;
} wf_node_pool;

/// A heap entry carries its key, so ordering never touches the nodes
/// (the pool is large and scattered; the heap is small and hot).
typedef struct wf_open_entry {
    float total;
    uint32_t node;
} wf_open_entry;

typedef struct wf_open_list {
    wf_open_entry* heap; ///< min-heap on total (ties: lower node index)
    uint32_t capacity;
    uint32_t count;
} wf_open_list;

wf_status wf_node_pool_create(wf_node_pool* pool, const wf_allocator* allocator, uint32_t capacity);
void wf_node_pool_destroy(wf_node_pool* pool, const wf_allocator* allocator);
void wf_node_pool_clear(wf_node_pool* pool);
/// The node for ref, created (zeroed, parent WF_NO_NODE) if new; WF_NO_NODE
/// when the pool is full.
uint32_t wf_node_pool_get(wf_node_pool* pool, wf_poly_ref ref);
/// The node for ref or WF_NO_NODE if it was never reached.
uint32_t wf_node_pool_find(const wf_node_pool* pool, wf_poly_ref ref);

wf_status wf_open_list_create(wf_open_list* list, const wf_allocator* allocator, uint32_t capacity);
void wf_open_list_destroy(wf_open_list* list, const wf_allocator* allocator);
static inline void wf_open_list_clear(wf_open_list* list) { list->count = 0; }
void wf_open_list_push(wf_open_list* list, wf_node_pool* pool, uint32_t node);
uint32_t wf_open_list_pop(wf_open_list* list, wf_node_pool* pool);
/// Restores heap order after node's total changed (decreased or grew).
void wf_open_list_update(wf_open_list* list, wf_node_pool* pool, uint32_t node);

#endif
