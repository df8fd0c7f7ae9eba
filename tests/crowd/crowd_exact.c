// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Exact paths in the crowd: a filter with WF_PATH_MODE_EXACT gives its
// agents the shortest path (time-sliced over many updates, saved and loaded
// mid-search), the crowd refuses exact filters with area costs, and exact
// mode's storage is only there when a filter asks for it.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "crowd_test_util.h"
#include "test_hooks.h"
#include "wayfarer/query.h"

#define DT (1.0f / 30.0f)
#define SIDE 30u

/// 3 x 3 tiles of 10 x 10 one-metre cells with scattered blocks: A* over
/// square cells picks corridors whose pulled length is not always the
/// shortest.
static wf_mesh* make_mesh(void) {
    static uint8_t blocked[SIDE * SIDE];
    for (uint32_t z = 0; z < SIDE; ++z) {
        for (uint32_t x = 0; x < SIDE; ++x) {
            uint32_t h = (x * 73856093u) ^ (z * 19349663u);
            blocked[z * SIDE + x] =
                (h % 7u == 0u) && x > 1 && z > 1 && x < SIDE - 2 && z < SIDE - 2;
        }
    }
    return test_mesh_grid(3, 3, 10, 1.0f, blocked, NULL, NULL);
}

typedef struct result {
    int results;
    float cost;
    bool partial;
} result;

static bool on_result(wf_agent_id agent, const wf_path_info* info, void* user) {
    (void)agent;
    result* r = user;
    r->results++;
    r->cost = info->cost;
    r->partial = info->partial;
    return true;
}

static const wf_move_callbacks callbacks = {on_result, NULL, NULL};

static wf_crowd* make_crowd(const wf_mesh* mesh, uint32_t iterations) {
    static wf_query_filter filters[2];
    filters[0] = wf_query_filter_defaults();
    filters[1] = wf_query_filter_defaults();
    filters[1].path_mode = WF_PATH_MODE_EXACT;
    wf_crowd_desc d = crowd_test_desc(mesh, 8);
    d.filters = filters;
    d.filter_count = 2;
    d.path_iterations_per_update = iterations;
    wf_crowd* c = NULL;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    return c;
}

/// The exact length between two points, asked of a query directly.
static float exact_length(const wf_mesh* mesh, wf_vec3 a, wf_vec3 b) {
    wf_query* q = NULL;
    assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = mesh}, &q), WF_OK);
    wf_query_filter f = wf_query_filter_defaults();
    f.path_mode = WF_PATH_MODE_EXACT;
    wf_poly_ref ra, rb;
    wf_vec3 pa, pb;
    wf_vec3 ext = wf_v3(0.5f, 1.0f, 0.5f);
    assert_int_equal(wf_query_find_nearest_poly(q, a, ext, &f, &ra, &pa), WF_OK);
    assert_int_equal(wf_query_find_nearest_poly(q, b, ext, &f, &rb, &pb), WF_OK);
    wf_poly_ref path[512];
    wf_path_result pr;
    assert_int_equal(wf_query_find_path(q, ra, rb, pa, pb, &f, path, 512, &pr), WF_OK);
    wf_query_destroy(q);
    return pr.cost;
}

/// Agents on both filters go the same long way across the map; the exact
/// one's result is the exact length, never longer than the default's, also
/// when its search is sliced over many updates (16 expansions each).
static void test_exact_filter_gives_shortest_path(void** state) {
    (void)state;
    wf_mesh* mesh = make_mesh();
    wf_vec3 from = wf_v3(0.5f, 0, 0.5f), to = wf_v3(29.5f, 0, 27.5f);
    float want = exact_length(mesh, from, to);
    uint32_t budgets[2] = {4096u, 16u};
    for (int b = 0; b < 2; ++b) {
        wf_crowd* c = make_crowd(mesh, budgets[b]);
        wf_agent_params p = crowd_test_params();
        wf_agent_id plain, exact;
        assert_int_equal(wf_crowd_add_agent(c, from, &p, &plain), WF_OK);
        p.filter = 1;
        assert_int_equal(wf_crowd_add_agent(c, wf_v3(0.5f, 0, 1.5f), &p, &exact), WF_OK);
        result rp = {0}, re = {0};
        assert_int_equal(wf_crowd_request_move(c, plain, to, &callbacks, &rp), WF_OK);
        assert_int_equal(wf_crowd_request_move(c, exact, to, &callbacks, &re), WF_OK);
        int frames = 0;
        for (; frames < 600 && (rp.results == 0 || re.results == 0); ++frames) {
            assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        }
        assert_int_equal(rp.results, 1);
        assert_int_equal(re.results, 1);
        assert_false(re.partial);
        // The exact agent starts a metre away: its path is at most that
        // much longer than from `from`, and never longer than the default's
        // path plus that metre.
        assert_true(re.cost <= want + 1.0f + 1e-3f);
        assert_true(re.cost <= rp.cost + 1.0f + 1e-3f);
        if (b == 1) {
            assert_true(frames > 2); // the sliced search took several updates
        }
        wf_crowd_destroy(c);
    }
    wf_mesh_destroy(mesh);
}

/// A crowd saved while an exact search is half done loads and finishes it
/// with the same result as the crowd that went on.
static void test_exact_search_survives_save(void** state) {
    (void)state;
    wf_mesh* mesh = make_mesh();
    // A small budget per update: the search is still running when saved.
    wf_crowd* a = make_crowd(mesh, 8u);
    wf_crowd* b = make_crowd(mesh, 8u);
    wf_agent_params p = crowd_test_params();
    p.filter = 1;
    wf_agent_id id;
    assert_int_equal(wf_crowd_add_agent(a, wf_v3(0.5f, 0, 0.5f), &p, &id), WF_OK);
    result ra = {0}, rb = {0};
    assert_int_equal(wf_crowd_request_move(a, id, wf_v3(29.5f, 0, 27.5f), &callbacks, &ra), WF_OK);
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(wf_crowd_update(a, DT, NULL), WF_OK);
    }
    assert_int_equal(ra.results, 0); // still searching
    size_t size = 0;
    assert_int_equal(wf_crowd_save_size(a, &size), WF_OK);
    void* blob = malloc(size);
    assert_int_equal(wf_crowd_save(a, blob, size), WF_OK);
    assert_int_equal(wf_crowd_restore(b, blob, size), WF_OK);
    assert_int_equal(wf_crowd_set_callbacks(b, id, &callbacks, &rb), WF_OK);
    for (int i = 0; i < 3000 && (ra.results == 0 || rb.results == 0); ++i) {
        assert_int_equal(wf_crowd_update(a, DT, NULL), WF_OK);
        assert_int_equal(wf_crowd_update(b, DT, NULL), WF_OK);
    }
    assert_int_equal(ra.results, 1);
    assert_int_equal(rb.results, 1);
    assert_true(ra.cost == rb.cost);
    assert_int_equal(crowd_test_hash(a), crowd_test_hash(b));
    free(blob);
    wf_crowd_destroy(a);
    wf_crowd_destroy(b);
    wf_mesh_destroy(mesh);
}

/// Exact filters with area costs, or unknown modes, are refused; exact
/// storage is only in a crowd whose filters ask for it.
static void test_exact_filters_checked_and_storage_on_demand(void** state) {
    (void)state;
    wf_mesh* mesh = make_mesh();
    wf_query_filter f = wf_query_filter_defaults();
    wf_crowd_desc d = crowd_test_desc(mesh, 8);
    d.filters = &f;
    d.filter_count = 1;
    wf_crowd* c = NULL;
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    f.path_mode = WF_PATH_MODE_EXACT;
    f.area_cost[3] = 2.0f;
    assert_int_equal(wf_crowd_create(&d, &c), WF_ERR_INVALID_ARG);
    f = wf_query_filter_defaults();
    f.path_mode = 7;
    assert_int_equal(wf_crowd_create(&d, &c), WF_ERR_INVALID_ARG);
    wf_set_assert_hook(previous);
    assert_null(c);

    f = wf_query_filter_defaults();
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    size_t plain = wf_crowd_get_stats(c).memory_bytes;
    wf_crowd_destroy(c);
    f.path_mode = WF_PATH_MODE_EXACT;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    size_t exact = wf_crowd_get_stats(c).memory_bytes;
    wf_crowd_destroy(c);
    assert_true(exact > plain + 1000000u); // 2 searches of 4096 nodes and the workers'
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_filter_gives_shortest_path),
        cmocka_unit_test(test_exact_search_survives_save),
        cmocka_unit_test(test_exact_filters_checked_and_storage_on_demand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
