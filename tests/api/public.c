// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Uses only the installed public headers and libwayfarer: each WF_API call
// must be exported and the umbrella header must be enough.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "wayfarer/wayfarer.h"

static void test_version_matches_headers(void** state) {
    (void)state;
    assert_string_equal(wf_version_string(), WF_VERSION_STRING);
    assert_true(WF_VERSION_NUMBER > 0);
}

static void test_status_strings(void** state) {
    (void)state;
    assert_true(strncmp(wf_status_string(WF_ERR_STALE_REF), "WF_ERR_STALE_REF", 16) == 0);
}

static void test_ids_and_rng_are_usable_inline(void** state) {
    (void)state;
    uint64_t id = wf_id_make(7, 3, WF_ID_KIND_AGENT);
    assert_int_equal(wf_id_index(id), 7);
    assert_int_equal(wf_id_generation(id), 3);
    assert_int_equal(wf_id_kind_of(id), WF_ID_KIND_AGENT);
    wf_rng a = wf_rng_make(1, 2), b = wf_rng_make(1, 2);
    assert_int_equal(wf_rng_next_u32(&a), wf_rng_next_u32(&b));
    wf_vec3 v = wf_v3_cross(wf_v3(1, 0, 0), wf_v3(0, 1, 0));
    assert_true(wf_v3_equal(v, wf_v3(0, 0, 1)));
}

static void count_items(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    (void)worker;
    uint32_t* hits = context;
    for (uint32_t i = begin; i < end; ++i) {
        hits[i]++;
    }
}

static void test_pool_and_parallel_for(void** state) {
    (void)state;
    wf_thread_pool* pool = NULL;
    wf_thread_pool_desc desc = {.thread_count = 2};
    assert_int_equal(wf_thread_pool_create(&desc, &pool), WF_OK);
    wf_job_system jobs = wf_thread_pool_job_system(pool);
    static uint32_t hits[4096];
    memset(hits, 0, sizeof hits);
    assert_int_equal(wf_jobs_parallel_for(&jobs, 4096, 16, count_items, hits), WF_OK);
    for (uint32_t i = 0; i < 4096; ++i) {
        assert_int_equal(hits[i], 1);
    }
    wf_thread_pool_stats stats = wf_thread_pool_get_stats(pool);
    assert_true(stats.memory_bytes > 0);
    wf_thread_pool_destroy(pool);
}

// The whole pipeline through the shared library: an OBJ level -> tile
// cache -> navmesh -> path; a carving obstacle and an update make the path
// go around it.
static double path_length(wf_query* q, wf_vec3 a, wf_vec3 b) {
    wf_query_filter f = wf_query_filter_defaults();
    wf_vec3 ext = wf_v3(1, 2, 1), pa, pb;
    wf_poly_ref ra, rb;
    if (wf_query_find_nearest_poly(q, a, ext, &f, &ra, &pa) != WF_OK ||
        wf_query_find_nearest_poly(q, b, ext, &f, &rb, &pb) != WF_OK) {
        return -1.0;
    }
    wf_poly_ref corridor[256];
    wf_path_result pr;
    if (wf_query_find_path(q, ra, rb, pa, pb, &f, corridor, 256, &pr) != WF_OK) {
        return -1.0;
    }
    wf_straight_point pts[32];
    uint32_t n = 0;
    if (wf_query_find_straight_path(q, pa, pb, corridor, pr.count, pts, 32, 0, &n) != WF_OK) {
        return -1.0;
    }
    double len = 0.0;
    for (uint32_t i = 1; i < n; ++i) {
        len += wf_v3_distance(pts[i - 1].pos, pts[i].pos);
    }
    return len;
}

static void test_level_to_path_with_an_obstacle(void** state) {
    (void)state;
    // A 30 x 30 m floor at y = 0, counter-clockwise seen from above.
    static const char obj[] = "v 0 0 0\nv 0 0 30\nv 30 0 30\nv 30 0 0\nf 1 2 3 4\n";
    wf_geom_data* level = NULL;
    assert_int_equal(wf_geom_load_obj(obj, sizeof obj - 1, NULL, &level), WF_OK);
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = wf_tilecache_params_recast_demo();
    wf_tilecache* tc = NULL;
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    assert_int_equal(wf_tilecache_build_geom(tc, wf_geom_data_view(level), NULL, 0), WF_OK);
    assert_true(wf_tilecache_layer_count(tc) >= 4);
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    assert_int_equal(wf_tilecache_build_navmesh(tc, mesh), WF_OK);
    wf_query* q = NULL;
    assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = mesh}, &q), WF_OK);
    wf_vec3 a = wf_v3(5, 0, 15), b = wf_v3(25, 0, 15);
    double straight = path_length(q, a, b);
    assert_true(fabs(straight - 20.0) < 1e-3);

    wf_obstacle_desc od;
    memset(&od, 0, sizeof od);
    od.shape = WF_OBSTACLE_CYLINDER;
    od.position = wf_v3(15, 0, 15);
    od.radius = 2.0f;
    od.height = 2.0f;
    wf_obstacle_id id;
    assert_int_equal(wf_tilecache_add_obstacle(tc, &od, &id), WF_OK);
    wf_tilecache_budget budget = {0};
    wf_tilecache_update_result r;
    assert_int_equal(wf_tilecache_update(tc, mesh, &budget, &r), WF_OK);
    assert_true(r.up_to_date);
    assert_true(r.changed_count > 0);
    double around = path_length(q, a, b);
    assert_true(around > straight + 0.1); // the cylinder (plus agent radius) is in the way
    assert_int_equal(wf_tilecache_remove_obstacle(tc, id), WF_OK);
    assert_int_equal(wf_tilecache_update(tc, mesh, &budget, &r), WF_OK);
    assert_true(fabs(path_length(q, a, b) - straight) < 1e-3);

    wf_query_destroy(q);
    wf_mesh_destroy(mesh); // before the cache: updated tiles live in its memory
    wf_tilecache_destroy(tc);
    wf_geom_data_destroy(level);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version_matches_headers),
        cmocka_unit_test(test_status_strings),
        cmocka_unit_test(test_ids_and_rng_are_usable_inline),
        cmocka_unit_test(test_pool_and_parallel_for),
        cmocka_unit_test(test_level_to_path_with_an_obstacle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
