// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Search nodes for graph searches over polygons: a fixed pool of nodes
// found by poly ref through a hash table, and a binary-heap open list.
// Owned by a wf_query; nothing here allocates after creation.
#ifndef WF_NAVCORE_NODE_POOL_H
#define WF_NAVCORE_NODE_POOL_H

#include <string.h>

#include "wayfarer/navmesh.h"

#define WF_NODE_OPEN 1u
#define WF_NODE_CLOSED 2u
#define WF_NODE_PARENT_OFFMESH 4u ///< reached through an off-mesh link
#define WF_NODE_GOAL 8u           ///< marked as a goal before a many-goal search
#define WF_NODE_EXPANDED 16u      ///< expanded at least once (may be a parent)
/// A path search's further states of a polygon (see path_search.c): the
/// state's layer (0 for the first state, the one in the hash; find and get
/// see only that one) and whether the next layer's state exists.
#define WF_NODE_HAS_SHADOW 32u ///< the funnel record's `shadow` names it
#define WF_NODE_LAYER_SHIFT 6u
#define WF_NODE_LAYER_MASK (3u << WF_NODE_LAYER_SHIFT)
#define WF_NO_NODE 0xffffffffu

typedef struct wf_search_node {
    // Hot: the hash chain, the open list and the relax test read these.
    wf_poly_ref ref;
    uint32_t next;       ///< hash chain
    uint32_t flags;      ///< WF_NODE_*
    uint32_t parent;     ///< node index, WF_NO_NODE for the start
    uint32_t heap_index; ///< position in the open list while open
    float cost;          ///< cost from the start to pos
    float total;         ///< cost + heuristic (A* f value)
    wf_vec3 pos;         ///< where the search enters the polygon
} wf_search_node;

/// The way to a node's pos as a funnel sees it: straight from apex (the
/// start, a corner it bends round, or where an area or off-mesh link
/// changes the cost), reached at apex_cost, into the wedge between the rays
/// apex->left and apex->right (portal vertices; a side equal to the apex is
/// open). left_node / right_node: the node whose entry portal holds that
/// vertex, so a bend can replay the portals after it.
typedef struct wf_search_wedge {
    wf_vec3 apex, left, right;
    float apex_cost;
    uint32_t left_node, right_node;
} wf_search_wedge;

/// Path searches' funnel state per node, kept apart from wf_search_node so
/// the hash chain and the open list touch small nodes only; written when a
/// node is relaxed, read when it is expanded (and by replays).
typedef struct wf_search_funnel {
    wf_search_wedge wedge;
    wf_vec3 portal_left, portal_right; ///< the portal the search entered by
    uint32_t shadow; ///< the polygon's next layer's state, when WF_NODE_HAS_SHADOW
} wf_search_funnel;

typedef struct wf_node_pool {
    wf_search_node* nodes;
    wf_search_funnel* funnels; ///< one per node; not cleared (written before read)
    uint32_t* buckets;         ///< hash -> first node
    uint32_t capacity;
    uint32_t bucket_mask;
    uint32_t count;
    /// Every node with a parent has its funnel record, portal included
    /// (set by path searches; a clear drops it, as other searches leave
    /// funnels unwritten). Straight paths reuse those portals while the
    /// mesh's change_count is still mesh_stamp.
    bool funnels_valid;
    uint32_t mesh_stamp;
} wf_node_pool;

/// A heap entry carries its key, so ordering never touches the nodes
/// (the pool is large and scattered; the heap is small and hot). The key
/// is the total's bits, mapped so that unsigned order is float order,
/// over the node index: one integer compare gives the order "total, then
/// node index" (see wf_open_key).
typedef struct wf_open_entry {
    uint64_t key;
} wf_open_entry;

typedef struct wf_open_list {
    wf_open_entry* heap; ///< min-heap on total (ties: lower node index)
    uint32_t capacity;
    uint32_t count;
} wf_open_list;

wf_status wf_node_pool_create(wf_node_pool* pool, const wf_allocator* allocator, uint32_t capacity);
void wf_node_pool_destroy(wf_node_pool* pool, const wf_allocator* allocator);
void wf_node_pool_clear(wf_node_pool* pool);

/// Fibonacci hashing: the multiply spreads the poly, tile and generation
/// bits over the high word, which picks the bucket.
static inline uint32_t wf_node_pool_hash(wf_poly_ref ref, uint32_t mask) {
    uint64_t h = ref.bits * 0x9e3779b97f4a7c15ull;
    return (uint32_t)(h >> 32) & mask;
}

// find and get are inline: searches call them per neighbour, and a call
// there makes the caller spill its floats (all vector registers are
// caller-saved).

/// The node for ref or WF_NO_NODE if it was never reached.
static inline uint32_t wf_node_pool_find(const wf_node_pool* pool, wf_poly_ref ref) {
    uint32_t i = pool->buckets[wf_node_pool_hash(ref, pool->bucket_mask)];
    while (i != WF_NO_NODE) {
        if (pool->nodes[i].ref.bits == ref.bits) {
            return i;
        }
        i = pool->nodes[i].next;
    }
    return WF_NO_NODE;
}

/// The node for ref, created (zeroed, parent WF_NO_NODE) if new; WF_NO_NODE
/// when the pool is full.
static inline uint32_t wf_node_pool_get(wf_node_pool* pool, wf_poly_ref ref) {
    uint32_t bucket = wf_node_pool_hash(ref, pool->bucket_mask);
    for (uint32_t i = pool->buckets[bucket]; i != WF_NO_NODE; i = pool->nodes[i].next) {
        if (pool->nodes[i].ref.bits == ref.bits) {
            return i;
        }
    }
    if (pool->count == pool->capacity) {
        return WF_NO_NODE;
    }
    uint32_t index = pool->count++;
    pool->nodes[index] =
        (wf_search_node){.ref = ref, .next = pool->buckets[bucket], .parent = WF_NO_NODE};
    pool->buckets[bucket] = index;
    return index;
}

/// A node for ref outside the hash (a further state of a polygon, in
/// layer `layer`); WF_NO_NODE when the pool is full.
static inline uint32_t wf_node_pool_add_shadow(wf_node_pool* pool, wf_poly_ref ref,
                                               uint32_t layer) {
    if (pool->count == pool->capacity) {
        return WF_NO_NODE;
    }
    uint32_t index = pool->count++;
    pool->nodes[index] = (wf_search_node){.ref = ref,
                                          .next = WF_NO_NODE,
                                          .flags = layer << WF_NODE_LAYER_SHIFT,
                                          .parent = WF_NO_NODE};
    return index;
}

wf_status wf_open_list_create(wf_open_list* list, const wf_allocator* allocator, uint32_t capacity);
void wf_open_list_destroy(wf_open_list* list, const wf_allocator* allocator);
static inline void wf_open_list_clear(wf_open_list* list) { list->count = 0; }
/// The heap key of a node's total: + 0.0f turns -0 into +0 (the float
/// order holds them equal); negative totals get all bits flipped and the
/// others the sign bit, so the bits order as the floats do.
static inline uint64_t wf_open_key(float total, uint32_t node) {
    float t = total + 0.0f;
    uint32_t bits;
    memcpy(&bits, &t, sizeof bits);
    bits ^= (uint32_t)((int32_t)bits >> 31) | 0x80000000u;
    return (uint64_t)bits << 32 | node;
}

static inline uint32_t wf_open_entry_node(wf_open_entry e) { return (uint32_t)e.key; }

/// Adds node, keyed on its total (inline: searches push per neighbour).
/// The caller keeps the node's WF_NODE_OPEN / CLOSED flags; the list only
/// orders indices. A node is in the list at most once, so capacity = pool
/// capacity never overflows.
static inline void wf_open_list_push(wf_open_list* list, wf_node_pool* pool, uint32_t node) {
    if (list->count == list->capacity) {
        return;
    }
    wf_open_entry* heap = list->heap;
    wf_search_node* nodes = pool->nodes;
    uint64_t key = wf_open_key(nodes[node].total, node);
    uint32_t slot = list->count++;
    while (slot > 0) {
        uint32_t parent = (slot - 1u) / 2u;
        wf_open_entry p = heap[parent];
        if (key >= p.key) {
            break;
        }
        heap[slot] = p;
        nodes[wf_open_entry_node(p)].heap_index = slot;
        slot = parent;
    }
    heap[slot].key = key;
    nodes[node].heap_index = slot;
}

/// Removes and returns the first node (WF_NO_NODE when empty); inline as
/// push is. The hole left at the root goes down to a leaf along the
/// smaller children, then the last entry climbs from there: one compare a
/// level on the way down instead of two (the last entry mostly belongs
/// near the bottom anyway).
static inline uint32_t wf_open_list_pop(wf_open_list* list, wf_node_pool* pool) {
    if (list->count == 0) {
        return WF_NO_NODE;
    }
    wf_open_entry* heap = list->heap;
    wf_search_node* nodes = pool->nodes;
    uint32_t top = wf_open_entry_node(heap[0]);
    uint32_t count = --list->count;
    if (count > 0) {
        wf_open_entry e = heap[count];
        uint32_t slot = 0;
        for (uint32_t child = 1; child < count; child = slot * 2u + 1u) {
            child += child + 1u < count && heap[child + 1u].key < heap[child].key;
            heap[slot] = heap[child];
            nodes[wf_open_entry_node(heap[slot])].heap_index = slot;
            slot = child;
        }
        while (slot > 0) {
            uint32_t parent = (slot - 1u) / 2u;
            if (e.key >= heap[parent].key) {
                break;
            }
            heap[slot] = heap[parent];
            nodes[wf_open_entry_node(heap[slot])].heap_index = slot;
            slot = parent;
        }
        heap[slot] = e;
        nodes[wf_open_entry_node(e)].heap_index = slot;
    }
    nodes[top].heap_index = WF_NO_NODE;
    return top;
}
/// Restores heap order after node's total changed (decreased or grew).
void wf_open_list_update(wf_open_list* list, wf_node_pool* pool, uint32_t node);

#endif
