// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Query objects: creation with their node pool and open list, the default
// filter. The searches themselves live in path_search.c and friends.
#include <string.h>

#include "navcore/alloc.h"
#include "navcore/check.h"
#include "navcore/query_internal.h"

#define QUERY_DEFAULT_MAX_NODES 2048u
/// 16M nodes (about 1 GiB of search state) is far beyond any sane search;
/// the cap keeps node indices and the hash size well inside 32 bits.
#define QUERY_MAX_NODES (1u << 24)

wf_query_filter wf_query_filter_defaults(void) {
    wf_query_filter f;
    for (uint32_t i = 0; i < WF_MAX_AREAS; ++i) {
        f.area_cost[i] = 1.0f;
    }
    f.include_flags = 0xffffu;
    f.exclude_flags = 0;
    f.path_mode = WF_PATH_MODE_DEFAULT;
    return f;
}

wf_query_desc wf_query_desc_defaults(const wf_query_desc* desc) {
    wf_query_desc d;
    memset(&d, 0, sizeof d);
    if (desc != NULL) {
        d = *desc;
    }
    if (d.max_nodes == 0) {
        d.max_nodes = QUERY_DEFAULT_MAX_NODES;
    }
    if (d.exact_nodes_per_node == 0) {
        d.exact_nodes_per_node = WF_EXACT_NODES_PER_MAX_NODE;
    }
    return d;
}

wf_status wf_query_create(const wf_query_desc* desc, wf_query** out) {
    WF_CHECK_ARG(desc != NULL && out != NULL);
    const wf_logger* log = &desc->logger;
    wf_query_desc d = wf_query_desc_defaults(desc);
    WF_CHECK_DESC(log, "query", d.mesh != NULL, "mesh is required");
    WF_CHECK_DESC(log, "query", d.max_nodes <= QUERY_MAX_NODES, "max_nodes is above 2^24");
    WF_CHECK_DESC(log, "query",
                  d.exact_nodes_per_node <= WF_EXACT_MAX_NODES_PER_MAX_NODE ||
                      d.exact_nodes_per_node == WF_QUERY_NO_EXACT,
                  "exact_nodes_per_node is above its limit (and not WF_QUERY_NO_EXACT)");
    wf_allocator allocator;
    WF_CHECK_DESC(log, "query", wf_allocator_resolve(&d.allocator, &allocator) == WF_OK,
                  "allocator: alloc and free must be both set or both NULL");
    uint32_t max_nodes = d.max_nodes;

    wf_query* q = wf_alloc_zeroed(&allocator, sizeof *q, _Alignof(wf_query));
    if (q == NULL) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    q->mesh = desc->mesh;
    q->allocator = allocator;
    wf_status s = wf_node_pool_create(&q->nodes, &allocator, max_nodes);
    if (s == WF_OK) {
        s = wf_open_list_create(&q->open, &allocator, max_nodes);
    }
    if (s == WF_OK && d.exact_nodes_per_node != WF_QUERY_NO_EXACT) {
        s = wf_exact_create(&q->exact, &allocator, max_nodes, d.exact_nodes_per_node);
    }
    if (s != WF_OK) {
        wf_query_destroy(q);
        return s;
    }
    *out = q;
    return WF_OK;
}

void wf_query_destroy(wf_query* query) {
    if (query == NULL) {
        return;
    }
    wf_allocator allocator = query->allocator;
    wf_node_pool_destroy(&query->nodes, &allocator);
    wf_open_list_destroy(&query->open, &allocator);
    wf_exact_destroy(&query->exact, &allocator);
    wf_free(&allocator, query, sizeof *query, _Alignof(wf_query));
}

void wf_query_set_cost_scale(wf_query* query, wf_poly_cost_fn fn, const void* user) {
    if (query == NULL) {
        WF_REPORT_MISUSE("query != NULL");
        return;
    }
    query->cost_scale = fn;
    query->cost_scale_user = fn != NULL ? user : NULL;
}

const wf_mesh* wf_query_get_mesh(const wf_query* query) {
    return query != NULL ? query->mesh : NULL;
}

wf_query_stats wf_query_get_stats(const wf_query* query) {
    wf_query_stats st = {0};
    if (query == NULL) {
        return st;
    }
    st.max_nodes = query->nodes.capacity;
    st.memory_bytes =
        sizeof *query +
        (size_t)query->nodes.capacity * (sizeof(wf_search_node) + sizeof(wf_search_funnel)) +
        ((size_t)query->nodes.bucket_mask + 1u) * sizeof(uint32_t) +
        (size_t)query->open.capacity * sizeof(wf_open_entry) + wf_exact_memory_bytes(&query->exact);
    return st;
}
