// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// A query's cost scale (wf_query_set_cost_scale): a polygon made dearer
// turns the path to the other way round, whole and sliced alike; values
// below 1 or NaN count as 1; clearing it gives the plain path back; exact
// mode ignores it.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_meshes.h"
#include "wayfarer/query.h"

// A 20 x 20 grid of 1 m cells with a wall along x = 10, open at z = 8
// (near) and z = 14 (far). From (5, 8.5) to (15, 8.5) the near gap wins.
enum { SIDE = 20 };

typedef struct scale_map {
    wf_poly_ref ref;
    float scale;
} scale_map;

static float scale_of(const void* user, wf_poly_ref poly) {
    const scale_map* m = user;
    return poly.bits == m->ref.bits ? m->scale : 1.0f;
}

static wf_mesh* make_mesh(void) {
    uint8_t blocked[SIDE * SIDE] = {0};
    for (uint32_t z = 0; z < SIDE; ++z) {
        blocked[z * SIDE + 10] = z != 8 && z != 14;
    }
    wf_mesh* mesh = test_mesh_grid(2, 2, 10, 1.0f, blocked, NULL, NULL);
    assert_non_null(mesh);
    return mesh;
}

static bool path_has(const wf_poly_ref* path, uint32_t n, wf_poly_ref ref) {
    for (uint32_t k = 0; k < n; ++k) {
        if (path[k].bits == ref.bits) {
            return true;
        }
    }
    return false;
}

static void find(wf_query* q, const wf_mesh* mesh, const wf_query_filter* f, bool sliced,
                 wf_poly_ref* path, uint32_t* count, float* cost) {
    wf_poly_ref a = test_grid_poly(mesh, 10, 5, 8), b = test_grid_poly(mesh, 10, 15, 8);
    wf_vec3 pa = wf_v3(5.5f, 0, 8.5f), pb = wf_v3(15.5f, 0, 8.5f);
    wf_path_result r;
    if (sliced) {
        assert_int_equal(wf_query_begin_path(q, a, b, pa, pb, f), WF_OK);
        uint32_t used = 0;
        assert_int_equal(wf_query_update_path(q, 100000, &used), WF_OK);
        assert_int_equal(wf_query_finish_path(q, path, 256, &r), WF_OK);
    } else {
        assert_int_equal(wf_query_find_path(q, a, b, pa, pb, f, path, 256, &r), WF_OK);
    }
    *count = r.count;
    *cost = r.cost;
}

static void test_dear_gap_turns_the_path(void** state) {
    (void)state;
    wf_mesh* mesh = make_mesh();
    wf_query* q;
    wf_query_desc d = {.mesh = mesh, .max_nodes = 4096};
    assert_int_equal(wf_query_create(&d, &q), WF_OK);
    wf_query_filter f = wf_query_filter_defaults();
    wf_poly_ref near_gap = test_grid_poly(mesh, 10, 10, 8);
    wf_poly_ref far_gap = test_grid_poly(mesh, 10, 10, 14);
    wf_poly_ref path[256];
    uint32_t n;
    float plain_cost, cost;
    find(q, mesh, &f, false, path, &n, &plain_cost);
    assert_true(path_has(path, n, near_gap));
    assert_false(path_has(path, n, far_gap));
    for (int sliced = 0; sliced < 2; ++sliced) {
        // Crossing the near gap (1 m) at 30x costs more than the 12 m detour.
        scale_map m = {near_gap, 30.0f};
        wf_query_set_cost_scale(q, scale_of, &m);
        find(q, mesh, &f, sliced != 0, path, &n, &cost);
        assert_false(path_has(path, n, near_gap));
        assert_true(path_has(path, n, far_gap));
        assert_true(cost > plain_cost + 5.0f); // the long way round
        // A slight scale leaves the short way, costing a little more.
        m.scale = 1.5f;
        find(q, mesh, &f, sliced != 0, path, &n, &cost);
        assert_true(path_has(path, n, near_gap));
        assert_true(cost > plain_cost && cost < plain_cost + 1.0f);
        // Below 1, NaN and infinity are 1 (scales only make a polygon dearer).
        const float odd[3] = {0.25f, NAN, -INFINITY};
        for (int k = 0; k < 3; ++k) {
            m.scale = odd[k];
            find(q, mesh, &f, sliced != 0, path, &n, &cost);
            assert_true(path_has(path, n, near_gap));
            assert_float_equal(cost, plain_cost, 1e-4f);
        }
        wf_query_set_cost_scale(q, NULL, NULL);
        find(q, mesh, &f, sliced != 0, path, &n, &cost);
        assert_true(path_has(path, n, near_gap));
        assert_float_equal(cost, plain_cost, 1e-6f);
    }
    // Exact mode has no costs: the scale does not turn it.
    scale_map m = {near_gap, 30.0f};
    wf_query_set_cost_scale(q, scale_of, &m);
    f.path_mode = WF_PATH_MODE_EXACT;
    find(q, mesh, &f, false, path, &n, &cost);
    assert_true(path_has(path, n, near_gap));
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dear_gap_turns_the_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
