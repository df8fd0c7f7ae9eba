// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Path queue: agents waiting for a path search, served oldest request
// first, and the search slots that run those searches a slice per update.
#ifndef WF_CROWD_PATH_QUEUE_H
#define WF_CROWD_PATH_QUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include "wayfarer/query.h"

#define WF_PATH_QUEUE_NONE 0xffffffffu

/// One search running side by side with the others, on its own query.
typedef struct wf_path_search {
    wf_query* query;
    uint32_t agent;    ///< WF_PATH_QUEUE_NONE when free
    uint64_t agent_id; ///< the agent's id when the search began
    uint32_t budget;   ///< expansions left in this update
    uint32_t used;     ///< expansions spent in the current round
    wf_status status;  ///< WF_IN_PROGRESS while running, else how it ended
    wf_poly_ref* path; ///< the finished path (path_capacity refs)
    wf_path_result result;
    // How the running search began and how far it got: a query's A* state
    // is not data, but A* is deterministic, so a restored crowd replays the
    // same begin and expansion count to reach the same state.
    wf_poly_ref begin_start, begin_end;
    wf_vec3 begin_start_pos, begin_end_pos;
    wf_query_filter begin_filter;
    uint64_t iterations; ///< expansions since begin
} wf_path_search;

/// Queued agents form a binary heap keyed by request sequence number, so
/// the oldest request is served first and any agent leaves in O(log n).
typedef struct wf_path_queue {
    uint32_t capacity; ///< agents that may wait at once
    uint32_t count;
    uint32_t* heap;     ///< agent slots
    uint64_t* key;      ///< per agent slot: request sequence number
    uint32_t* heap_pos; ///< per agent slot: index in heap or NONE
    uint32_t max_agents;
    wf_path_search* searches;
    uint32_t search_count;
    uint32_t path_capacity;
    uint32_t max_nodes; ///< per search query (a replay needs the same)
    uint32_t iterations_per_update;
    wf_allocator allocator;
} wf_path_queue;

typedef struct wf_path_queue_desc {
    const wf_mesh* mesh;
    uint32_t max_agents;
    uint32_t capacity;
    uint32_t search_count;
    uint32_t max_nodes;
    uint32_t exact_nodes_per_node; ///< as wf_query_desc (WF_QUERY_NO_EXACT: none)
    uint32_t path_capacity;
    uint32_t iterations_per_update;
} wf_path_queue_desc;

WF_NODISCARD wf_status wf_path_queue_create(wf_path_queue* q, const wf_allocator* allocator,
                                            const wf_path_queue_desc* desc);
void wf_path_queue_destroy(wf_path_queue* q);
size_t wf_path_queue_memory_bytes(const wf_path_queue* q);

static inline bool wf_path_queue_contains(const wf_path_queue* q, uint32_t agent) {
    return q->heap_pos[agent] != WF_PATH_QUEUE_NONE;
}

/// Adds an agent with its request's sequence number; false when full.
bool wf_path_queue_push(wf_path_queue* q, uint32_t agent, uint64_t key);
/// Takes an agent out (no-op when absent).
void wf_path_queue_remove(wf_path_queue* q, uint32_t agent);
/// The oldest request; false when empty.
bool wf_path_queue_pop(wf_path_queue* q, uint32_t* out_agent);
/// The search slot serving an agent, or NONE.
uint32_t wf_path_queue_search_of(const wf_path_queue* q, uint32_t agent);
/// Ends a running search without a result.
void wf_path_queue_drop_search(wf_path_queue* q, uint32_t search);

/// Begins a search again with its recorded arguments and runs as many
/// expansions as it had done (a restored crowd's searches); false when the
/// mesh answers differently (not the mesh the search ran on).
bool wf_path_queue_replay_search(wf_path_search* s);

#endif
