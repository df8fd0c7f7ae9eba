// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Search node pool (fixed array + chained hash on poly refs) and the open
// list (binary min-heap of node indices keyed on total, ties by index).
#include "navcore/node_pool.h"

#include <string.h>

#include "navcore/alloc.h"
#include "navcore/check.h"

/// Node indices must stay below WF_NO_NODE and the bucket count (the next
/// power of two) must fit in 32 bits.
#define NODE_POOL_MAX_CAPACITY (1u << 30)

static uint32_t bucket_count_for(uint32_t capacity) {
    uint32_t n = 1;
    while (n < capacity) {
        n <<= 1;
    }
    return n;
}

wf_status wf_node_pool_create(wf_node_pool* pool, const wf_allocator* allocator,
                              uint32_t capacity) {
    if (pool == NULL || allocator == NULL || capacity == 0 || capacity > NODE_POOL_MAX_CAPACITY) {
        return WF_ERR_INVALID_ARG;
    }
    wf_node_pool p;
    memset(&p, 0, sizeof p);
    uint32_t buckets = bucket_count_for(capacity);
    p.nodes = WF_ALLOC_ARRAY(allocator, wf_search_node, capacity);
    p.funnels = WF_ALLOC_ARRAY(allocator, wf_search_funnel, capacity);
    p.buckets = WF_ALLOC_ARRAY(allocator, uint32_t, buckets);
    if (p.nodes == NULL || p.funnels == NULL || p.buckets == NULL) {
        WF_FREE_ARRAY(allocator, p.nodes, wf_search_node, capacity);
        WF_FREE_ARRAY(allocator, p.funnels, wf_search_funnel, capacity);
        WF_FREE_ARRAY(allocator, p.buckets, uint32_t, buckets);
        return WF_ERR_OUT_OF_MEMORY;
    }
    p.capacity = capacity;
    p.bucket_mask = buckets - 1u;
    memset(p.buckets, 0xff, sizeof(uint32_t) * (size_t)buckets);
    *pool = p;
    return WF_OK;
}

void wf_node_pool_destroy(wf_node_pool* pool, const wf_allocator* allocator) {
    if (pool == NULL || pool->nodes == NULL) {
        return;
    }
    WF_FREE_ARRAY(allocator, pool->nodes, wf_search_node, pool->capacity);
    WF_FREE_ARRAY(allocator, pool->funnels, wf_search_funnel, pool->capacity);
    WF_FREE_ARRAY(allocator, pool->buckets, uint32_t, pool->bucket_mask + 1u);
    memset(pool, 0, sizeof *pool);
}

void wf_node_pool_clear(wf_node_pool* pool) {
    // Only the buckets need resetting (nodes past count are never read), and
    // only those the used nodes hang from: a short search on a big pool then
    // costs what it touched, not the pool's size.
    if (pool->count > (pool->bucket_mask + 1u) / 8u) {
        memset(pool->buckets, 0xff, sizeof(uint32_t) * ((size_t)pool->bucket_mask + 1u));
    } else {
        for (uint32_t i = 0; i < pool->count; ++i) {
            pool->buckets[wf_node_pool_hash(pool->nodes[i].ref, pool->bucket_mask)] = WF_NO_NODE;
        }
    }
    pool->count = 0;
    pool->funnels_valid = false;
}

wf_status wf_open_list_create(wf_open_list* list, const wf_allocator* allocator,
                              uint32_t capacity) {
    if (list == NULL || allocator == NULL || capacity == 0 || capacity > NODE_POOL_MAX_CAPACITY) {
        return WF_ERR_INVALID_ARG;
    }
    wf_open_entry* heap = WF_ALLOC_ARRAY(allocator, wf_open_entry, capacity);
    if (heap == NULL) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    list->heap = heap;
    list->capacity = capacity;
    list->count = 0;
    return WF_OK;
}

void wf_open_list_destroy(wf_open_list* list, const wf_allocator* allocator) {
    if (list == NULL || list->heap == NULL) {
        return;
    }
    WF_FREE_ARRAY(allocator, list->heap, wf_open_entry, list->capacity);
    memset(list, 0, sizeof *list);
}

/// Heap order: smaller total first; equal totals by node index, so the
/// order never depends on the order of pushes and pops (see wf_open_key).
static bool entry_before(wf_open_entry a, wf_open_entry b) { return a.key < b.key; }

static void heap_set(wf_open_list* list, wf_node_pool* pool, uint32_t slot, wf_open_entry e) {
    list->heap[slot] = e;
    pool->nodes[wf_open_entry_node(e)].heap_index = slot;
}

static void sift_up(wf_open_list* list, wf_node_pool* pool, uint32_t slot, wf_open_entry e) {
    while (slot > 0) {
        uint32_t parent = (slot - 1u) / 2u;
        if (!entry_before(e, list->heap[parent])) {
            break;
        }
        heap_set(list, pool, slot, list->heap[parent]);
        slot = parent;
    }
    heap_set(list, pool, slot, e);
}

static void sift_down(wf_open_list* list, wf_node_pool* pool, uint32_t slot, wf_open_entry e) {
    uint32_t count = list->count;
    for (;;) {
        uint32_t child = slot * 2u + 1u;
        if (child >= count) {
            break;
        }
        if (child + 1u < count && entry_before(list->heap[child + 1u], list->heap[child])) {
            child++;
        }
        if (!entry_before(list->heap[child], e)) {
            break;
        }
        heap_set(list, pool, slot, list->heap[child]);
        slot = child;
    }
    heap_set(list, pool, slot, e);
}

static wf_open_entry entry_of(const wf_node_pool* pool, uint32_t node) {
    wf_open_entry e = {wf_open_key(pool->nodes[node].total, node)};
    return e;
}

// Moves the node either way, so a total that grew (a cheaper cost entered
// at a point further from the goal) keeps the heap valid too.
void wf_open_list_update(wf_open_list* list, wf_node_pool* pool, uint32_t node) {
    uint32_t slot = pool->nodes[node].heap_index;
    WF_ASSERT(slot < list->count && wf_open_entry_node(list->heap[slot]) == node);
    if (slot >= list->count || wf_open_entry_node(list->heap[slot]) != node) {
        return;
    }
    wf_open_entry e = entry_of(pool, node);
    sift_up(list, pool, slot, e);
    if (pool->nodes[node].heap_index == slot) {
        sift_down(list, pool, slot, e);
    }
}
