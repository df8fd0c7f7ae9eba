// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Crowd memory: wf_crowd_stats.memory_bytes is every byte the crowd holds
// from its allocator (known once it is created, for any desc), and the
// bytes per agent at the documented defaults stay within the budget that
// docs/crowd.md accounts for ("Where every byte goes").
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "crowd_test_util.h"
#include "test_inline_jobs.h"
#include "wayfarer/jobs.h"

/// Bytes the crowd made from d reports, checked against what its
/// allocator handed out.
static size_t reported_bytes(wf_crowd_desc d) {
    counting_allocator ca;
    counting_allocator_init(&ca);
    d.allocator = counting_allocator_hooks(&ca);
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    size_t bytes = wf_crowd_get_stats(c).memory_bytes;
    assert_int_equal(bytes, (size_t)ca.live_bytes);
    wf_crowd_destroy(c);
    assert_int_equal(counting_allocator_live(&ca), 0);
    return bytes;
}

static void test_memory_bytes_is_every_allocated_byte(void** state) {
    (void)state;
    wf_mesh* mesh = test_mesh_grid(2, 2, 8, 1.0f, NULL, NULL, NULL);
    assert_non_null(mesh);
    uint32_t agents[] = {1, 37, 1000};
    for (uint32_t k = 0; k < 3; ++k) {
        wf_crowd_desc d = crowd_test_desc(mesh, agents[k]);
        (void)reported_bytes(d);
        d.crowding_cost = 4.0f;
        (void)reported_bytes(d);
        d.jobs = test_inline_jobs(3);
        d.max_corridor = 64;
        d.max_neighbours = 16;
        d.max_walls = 24;
        d.max_searches = 3;
        d.max_search_nodes = 700;
        d.max_queued_paths = 5;
        d.max_movers = 40;
        (void)reported_bytes(d);
        wf_query_filter f = wf_query_filter_defaults();
        f.path_mode = WF_PATH_MODE_EXACT;
        d.filters = &f;
        d.filter_count = 1;
        (void)reported_bytes(d);
    }
    wf_mesh_destroy(mesh);
}

/// The part that grows with max_agents, at the documented defaults (one
/// worker): docs/crowd.md's table adds up to it; a new per-agent field
/// must be accounted for there and fit this budget.
static void test_bytes_per_agent_at_defaults(void** state) {
    (void)state;
    wf_mesh* mesh = test_mesh_grid(2, 2, 8, 1.0f, NULL, NULL, NULL);
    assert_non_null(mesh);
    wf_crowd_desc d = crowd_test_desc(mesh, 1024);
    size_t small = reported_bytes(d);
    d.max_agents = 2048;
    size_t large = reported_bytes(d);
    size_t per_agent = (large - small) / 1024u;
    // 2,202 B before the single-file passages' scratch (bottleneck.c: the
    // pinch records, a hash of the polygons scanned and the passage table:
    // 194 B, 521 B before the table's entries named agents, not refs).
    assert_true(per_agent <= 2500u);
    // The fixed part at defaults: two searches of 4,096 nodes, the worker
    // query, buffers.
    size_t fixed = small - per_agent * 1024u;
    assert_true(fixed <= 1300000u);
    wf_mesh_destroy(mesh);
}

/// Corridors take 4 bytes a polygon per agent (32-bit ids,
/// crowd/ref_codec.h), half of what 64-bit refs took.
static void test_corridor_polygon_takes_four_bytes(void** state) {
    (void)state;
    wf_mesh* mesh = test_mesh_grid(2, 2, 8, 1.0f, NULL, NULL, NULL);
    assert_non_null(mesh);
    size_t per_agent[2];
    for (uint32_t k = 0; k < 2; ++k) {
        wf_crowd_desc d = crowd_test_desc(mesh, 64);
        d.max_corridor = 256u << k;
        size_t small = reported_bytes(d);
        d.max_agents = 128;
        per_agent[k] = (reported_bytes(d) - small) / 64u;
    }
    assert_int_equal(per_agent[1] - per_agent[0], 256u * sizeof(uint32_t));
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memory_bytes_is_every_allocated_byte),
        cmocka_unit_test(test_bytes_per_agent_at_defaults),
        cmocka_unit_test(test_corridor_polygon_takes_four_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
