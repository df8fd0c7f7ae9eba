// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Path queue: a heap of waiting agents keyed by request order, and the
// search slots that the crowd update fills from it.
#include "crowd/path_queue.h"

#include <string.h>

#include "navcore/alloc.h"

static bool before(const wf_path_queue* q, uint32_t a, uint32_t b) {
    return q->key[a] < q->key[b] || (q->key[a] == q->key[b] && a < b);
}

static void place(wf_path_queue* q, uint32_t at, uint32_t agent) {
    q->heap[at] = agent;
    q->heap_pos[agent] = at;
}

static void sift_up(wf_path_queue* q, uint32_t at) {
    uint32_t agent = q->heap[at];
    while (at > 0) {
        uint32_t parent = (at - 1u) / 2u;
        if (!before(q, agent, q->heap[parent])) {
            break;
        }
        place(q, at, q->heap[parent]);
        at = parent;
    }
    place(q, at, agent);
}

static void sift_down(wf_path_queue* q, uint32_t at) {
    uint32_t agent = q->heap[at];
    for (;;) {
        uint32_t child = 2u * at + 1u;
        if (child >= q->count) {
            break;
        }
        if (child + 1u < q->count && before(q, q->heap[child + 1u], q->heap[child])) {
            child++;
        }
        if (!before(q, q->heap[child], agent)) {
            break;
        }
        place(q, at, q->heap[child]);
        at = child;
    }
    place(q, at, agent);
}

wf_status wf_path_queue_create(wf_path_queue* q, const wf_allocator* allocator,
                               const wf_path_queue_desc* desc) {
    memset(q, 0, sizeof *q);
    q->allocator = *allocator;
    q->capacity = desc->capacity;
    q->max_agents = desc->max_agents;
    q->search_count = desc->search_count;
    q->path_capacity = desc->path_capacity;
    q->max_nodes = desc->max_nodes;
    q->iterations_per_update = desc->iterations_per_update;
    q->heap = WF_ALLOC_ARRAY(allocator, uint32_t, desc->capacity);
    q->key = WF_ALLOC_ARRAY(allocator, uint64_t, desc->max_agents);
    q->heap_pos = WF_ALLOC_ARRAY(allocator, uint32_t, desc->max_agents);
    q->searches = WF_ALLOC_ARRAY(allocator, wf_path_search, desc->search_count);
    if (q->heap == NULL || q->key == NULL || q->heap_pos == NULL || q->searches == NULL) {
        wf_path_queue_destroy(q);
        return WF_ERR_OUT_OF_MEMORY;
    }
    memset(q->heap_pos, 0xff, sizeof(uint32_t) * desc->max_agents);
    for (uint32_t i = 0; i < q->search_count; ++i) {
        wf_path_search* s = &q->searches[i];
        s->agent = WF_PATH_QUEUE_NONE;
        s->status = WF_OK;
        s->path = WF_ALLOC_ARRAY(allocator, wf_poly_ref, desc->path_capacity);
        wf_query_desc qd = {.mesh = desc->mesh,
                            .max_nodes = desc->max_nodes,
                            .exact_nodes_per_node = desc->exact_nodes_per_node,
                            .allocator = *allocator};
        wf_status st = s->path == NULL ? WF_ERR_OUT_OF_MEMORY : wf_query_create(&qd, &s->query);
        if (st != WF_OK) {
            wf_path_queue_destroy(q);
            return st;
        }
    }
    return WF_OK;
}

void wf_path_queue_destroy(wf_path_queue* q) {
    const wf_allocator* a = &q->allocator;
    for (uint32_t i = 0; q->searches != NULL && i < q->search_count; ++i) {
        wf_query_destroy(q->searches[i].query);
        WF_FREE_ARRAY(a, q->searches[i].path, wf_poly_ref, q->path_capacity);
    }
    WF_FREE_ARRAY(a, q->searches, wf_path_search, q->search_count);
    WF_FREE_ARRAY(a, q->heap, uint32_t, q->capacity);
    WF_FREE_ARRAY(a, q->key, uint64_t, q->max_agents);
    WF_FREE_ARRAY(a, q->heap_pos, uint32_t, q->max_agents);
    memset(q, 0, sizeof *q);
}

size_t wf_path_queue_memory_bytes(const wf_path_queue* q) {
    size_t n = (size_t)q->capacity * sizeof(uint32_t) +
               (size_t)q->max_agents * (sizeof(uint64_t) + sizeof(uint32_t)) +
               (size_t)q->search_count *
                   (sizeof(wf_path_search) + (size_t)q->path_capacity * sizeof(wf_poly_ref));
    for (uint32_t i = 0; i < q->search_count; ++i) {
        n += wf_query_get_stats(q->searches[i].query).memory_bytes;
    }
    return n;
}

bool wf_path_queue_push(wf_path_queue* q, uint32_t agent, uint64_t key) {
    if (wf_path_queue_contains(q, agent)) {
        return true;
    }
    if (q->count >= q->capacity) {
        return false;
    }
    q->key[agent] = key;
    uint32_t at = q->count++;
    place(q, at, agent);
    sift_up(q, at);
    return true;
}

void wf_path_queue_remove(wf_path_queue* q, uint32_t agent) {
    uint32_t at = q->heap_pos[agent];
    if (at == WF_PATH_QUEUE_NONE) {
        return;
    }
    q->heap_pos[agent] = WF_PATH_QUEUE_NONE;
    uint32_t last = q->heap[--q->count];
    if (at == q->count) {
        return;
    }
    place(q, at, last);
    sift_down(q, at);
    sift_up(q, q->heap_pos[last]);
}

bool wf_path_queue_pop(wf_path_queue* q, uint32_t* out_agent) {
    if (q->count == 0) {
        return false;
    }
    *out_agent = q->heap[0];
    wf_path_queue_remove(q, q->heap[0]);
    return true;
}

uint32_t wf_path_queue_search_of(const wf_path_queue* q, uint32_t agent) {
    for (uint32_t i = 0; i < q->search_count; ++i) {
        if (q->searches[i].agent == agent) {
            return i;
        }
    }
    return WF_PATH_QUEUE_NONE;
}

void wf_path_queue_drop_search(wf_path_queue* q, uint32_t search) {
    wf_path_search* s = &q->searches[search];
    s->agent = WF_PATH_QUEUE_NONE;
    s->agent_id = 0;
    s->status = WF_OK;
    s->budget = 0;
    s->iterations = 0;
}

/// Runs a search again from its begin for as many expansions as it had
/// done; false when the mesh answers differently (not the saved one).
bool wf_path_queue_replay_search(wf_path_search* s) {
    if (wf_query_begin_path(s->query, s->begin_start, s->begin_end, s->begin_start_pos,
                            s->begin_end_pos, &s->begin_filter) != WF_OK) {
        return false;
    }
    uint64_t left = s->iterations;
    wf_status st = WF_IN_PROGRESS;
    do {
        uint32_t step = left > UINT32_MAX ? UINT32_MAX : (uint32_t)left;
        uint32_t used = 0;
        st = wf_query_update_path(s->query, step, &used);
        if (used != step) {
            return false;
        }
        left -= step;
    } while (left > 0 && st == WF_IN_PROGRESS);
    return st == WF_IN_PROGRESS;
}
