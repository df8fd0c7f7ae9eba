// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Every tile size the params accept builds, saves and loads: the loaded
// cache builds the navmesh the built one did, byte for byte. Tile sizes
// from 148 up once failed to load (a layer decompressed into a fixed
// 64 KiB scratch); the sizes around that edge and the largest are here.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "test_scene.h"
#include "wayfarer/jobs.h"
#include "wayfarer/tilecache.h"

static unsigned char* save_cache(const wf_tilecache* tc, size_t* size) {
    assert_int_equal(wf_tilecache_save_size(tc, size), WF_OK);
    unsigned char* data = malloc(*size);
    assert_non_null(data);
    assert_int_equal(wf_tilecache_save(tc, data, *size), WF_OK);
    return data;
}

static unsigned char* save_navmesh(wf_tilecache* tc, size_t* size) {
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    assert_int_equal(wf_tilecache_build_navmesh(tc, mesh), WF_OK);
    assert_true(wf_mesh_get_stats(mesh).poly_count > 0);
    assert_int_equal(wf_mesh_save_size(mesh, size), WF_OK);
    unsigned char* data = malloc(*size);
    assert_non_null(data);
    assert_int_equal(wf_mesh_save(mesh, data, *size), WF_OK);
    wf_mesh_destroy(mesh);
    return data;
}

/// The bumpy 24 m level (boxes, two bridges) at one tile size, on `jobs`:
/// build, save, load, and the same navmesh and the same file again.
static void round_trip(const test_scene* s, uint32_t tile_size, wf_job_system jobs) {
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = scene_params();
    d.params.tile_size = tile_size;
    d.jobs = jobs;
    d.logger.quiet = true;
    d.allocator = counting_allocator_hooks(&c);
    wf_tilecache* built = NULL;
    assert_int_equal(wf_tilecache_create(&d, &built), WF_OK);
    assert_int_equal(wf_tilecache_build_geom(built, scene_geom(s), NULL, 0), WF_OK);
    assert_true(wf_tilecache_layer_count(built) > 0);
    // Each worker's scratch holds a decompressed layer, with room to spare.
    wf_tilecache_layer_info info;
    assert_int_equal(wf_tilecache_get_layer_info(built, 0, &info), WF_OK);
    assert_true(wf_tilecache_get_stats(built).scratch_bytes_per_worker > 2u * info.raw_bytes);
    size_t file_size = 0, mesh_a_size = 0, mesh_b_size = 0, again_size = 0;
    unsigned char* file = save_cache(built, &file_size);
    unsigned char* mesh_a = save_navmesh(built, &mesh_a_size);

    wf_tilecache* loaded = NULL;
    if (wf_tilecache_load(&d, file, file_size, &loaded) != WF_OK) {
        print_error("tile size %u: the cache's own file does not load\n", tile_size);
        fail();
    }
    unsigned char* mesh_b = save_navmesh(loaded, &mesh_b_size);
    assert_int_equal(mesh_a_size, mesh_b_size);
    assert_memory_equal(mesh_a, mesh_b, mesh_a_size);
    unsigned char* again = save_cache(loaded, &again_size);
    assert_int_equal(again_size, file_size);
    assert_memory_equal(again, file, file_size);

    free(again);
    free(mesh_b);
    free(mesh_a);
    free(file);
    wf_tilecache_destroy(loaded);
    wf_tilecache_destroy(built);
    assert_int_equal(counting_allocator_live(&c), 0);
}

static void test_every_size_loads_what_it_saved(void** state) {
    (void)state;
    test_scene* s = scene_new();
    scene_level(s, 24, 5u);
    // Below, at and above the old edge (147 fit, 148 did not), and the largest.
    const uint32_t sizes[] = {5, 16, 48, 100, 147, 148, 149, 200, 254, 255};
    wf_job_system inline_jobs = {0, NULL, NULL, NULL};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
        round_trip(s, sizes[i], inline_jobs);
    }
    free(s);
}

/// The same on a pool of three workers: each worker's scratch holds a
/// layer of the largest size.
static void test_largest_size_on_workers(void** state) {
    (void)state;
    test_scene* s = scene_new();
    scene_level(s, 24, 9u);
    wf_thread_pool* pool = NULL;
    assert_int_equal(wf_thread_pool_create(&(wf_thread_pool_desc){.thread_count = 2}, &pool),
                     WF_OK);
    round_trip(s, 255, wf_thread_pool_job_system(pool));
    round_trip(s, 148, wf_thread_pool_job_system(pool));
    wf_thread_pool_destroy(pool);
    free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_size_loads_what_it_saved),
        cmocka_unit_test(test_largest_size_on_workers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
