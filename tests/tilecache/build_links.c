// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Off-mesh links given in the build input (wf_geom, wf_grid links): the
// build lands them as wf_tilecache_add_links would (the saved cache is the
// same bytes as build-then-add), and a bad one fails the build with
// add_links' status and leaves the cache (layers and links) as it was.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_scene.h"
#include "wayfarer/tilecache.h"

static wf_tilecache* make_cache(uint32_t max_links) {
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = scene_params();
    d.logger.quiet = true;
    d.max_links = max_links;
    wf_tilecache* tc = NULL;
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    return tc;
}

/// Ground [0, 6] x [0, 16] at y = 0 and a platform [6, 12] x [0, 16] at
/// y = 3, its wall too high to climb.
static test_scene* level(void) {
    test_scene* s = scene_new();
    scene_floor(s, 0.0f, 0.0f, 6.0f, 16.0f, 0.0f);
    scene_box(s, 6.0f, 0.0f, 0.0f, 12.0f, 3.0f, 16.0f);
    return s;
}

/// Ground (5, 0, z) up to the platform (9, 3, z).
static wf_offmesh_link_desc ladder(uint32_t user_id, float z) {
    wf_offmesh_link_desc l;
    memset(&l, 0, sizeof l);
    l.start = wf_v3(5.0f, 0.0f, z);
    l.end = wf_v3(9.0f, 3.0f, z);
    l.radius = 0.5f;
    l.bidirectional = true;
    l.area = 2;
    l.flags = 1;
    l.user_id = user_id;
    return l;
}

static unsigned char* save(const wf_tilecache* tc, size_t* out_size) {
    assert_int_equal(wf_tilecache_save_size(tc, out_size), WF_OK);
    unsigned char* data = malloc(*out_size);
    assert_non_null(data);
    assert_int_equal(wf_tilecache_save(tc, data, *out_size), WF_OK);
    return data;
}

static void test_same_as_build_then_add(void** state) {
    (void)state;
    test_scene* s = level();
    wf_offmesh_link_desc links[2] = {ladder(9, 12.0f), ladder(3, 4.0f)};

    wf_tilecache* added = make_cache(0);
    assert_int_equal(wf_tilecache_build_geom(added, scene_geom(s), NULL, 0), WF_OK);
    assert_int_equal(wf_tilecache_add_links(added, links, 2), WF_OK);

    wf_tilecache* given = make_cache(0);
    wf_geom g = scene_geom(s);
    g.links = links;
    g.link_count = 2;
    assert_int_equal(wf_tilecache_build_geom(given, g, NULL, 0), WF_OK);
    assert_int_equal(wf_tilecache_link_count(given), 2);
    wf_offmesh_link_desc back;
    assert_int_equal(wf_tilecache_get_link(given, 0, &back, NULL), WF_OK);
    assert_memory_equal(&back, &links[1], sizeof back); // user_id order

    size_t na, ng;
    unsigned char* a = save(added, &na);
    unsigned char* b = save(given, &ng);
    assert_int_equal(na, ng);
    assert_memory_equal(a, b, na);
    free(a);
    free(b);

    // A build without links still drops the old ones (zeroed fields: as before).
    assert_int_equal(wf_tilecache_build_geom(given, scene_geom(s), NULL, 0), WF_OK);
    assert_int_equal(wf_tilecache_link_count(given), 0);
    wf_tilecache_destroy(added);
    wf_tilecache_destroy(given);
    free(s);
}

/// Builds the cache again from a bare floor with `bad` among good links
/// and checks the status and that the cache file is the same bytes.
static void refused(wf_tilecache* tc, wf_offmesh_link_desc bad, uint32_t count, wf_status want) {
    size_t n0, n1;
    unsigned char* before = save(tc, &n0);
    test_scene* s = scene_new();
    scene_floor(s, 0.0f, 0.0f, 8.0f, 8.0f, 0.0f);
    wf_offmesh_link_desc list[3] = {bad, bad, bad};
    list[0].start = wf_v3(1.0f, 0.0f, 1.0f);
    list[0].end = wf_v3(3.0f, 0.0f, 1.0f);
    list[0].user_id = 40;
    wf_geom g = scene_geom(s);
    g.links = list;
    g.link_count = count;
    assert_int_equal(wf_tilecache_build_geom(tc, g, NULL, 0), want);
    free(s);
    unsigned char* after = save(tc, &n1);
    assert_int_equal(n0, n1);
    assert_memory_equal(before, after, n0);
    assert_int_equal(wf_tilecache_link_count(tc), 1);
    free(before);
    free(after);
}

static void test_bad_links_leave_the_cache(void** state) {
    (void)state;
    wf_tilecache* tc = make_cache(2);
    test_scene* s = level();
    wf_offmesh_link_desc good = ladder(1, 8.0f);
    wf_geom g = scene_geom(s);
    g.links = &good;
    g.link_count = 1;
    assert_int_equal(wf_tilecache_build_geom(tc, g, NULL, 0), WF_OK);
    free(s);

    wf_offmesh_link_desc bad = ladder(2, 2.0f);
    bad.start = wf_v3(2.0f, 0.0f, 2.0f);
    bad.end = wf_v3(4.0f, 0.0f, 2.0f);
    wf_offmesh_link_desc l = bad;
    l.start.x = NAN;
    refused(tc, l, 2, WF_ERR_INVALID_ARG);
    l = bad;
    l.radius = INFINITY;
    refused(tc, l, 2, WF_ERR_INVALID_ARG);
    l = bad;
    l.end.y = 10.0f; // in the air: lands on no layer of the new build
    refused(tc, l, 2, WF_ERR_NOT_FOUND);
    l = bad;
    l.start = wf_v3(-30.0f, 0.0f, 2.0f); // off the grid
    refused(tc, l, 2, WF_ERR_NOT_FOUND);
    l = bad;
    l.user_id = 40; // twice in the list
    refused(tc, l, 2, WF_ERR_BUSY);
    refused(tc, bad, 3, WF_ERR_CAPACITY); // max_links 2

    test_scene* f = scene_new();
    scene_floor(f, 0.0f, 0.0f, 8.0f, 8.0f, 0.0f);
    wf_geom none = scene_geom(f);
    none.link_count = 1; // links NULL
    assert_int_equal(wf_tilecache_build_geom(tc, none, NULL, 0), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_tilecache_link_count(tc), 1);
    free(f);
    wf_tilecache_destroy(tc);
}

static void test_grid_and_voxel_links(void** state) {
    (void)state;
    uint8_t walkable[16 * 16];
    memset(walkable, 1, sizeof walkable);
    wf_offmesh_link_desc l;
    memset(&l, 0, sizeof l);
    l.start = wf_v3(2.0f, 0.0f, 2.0f);
    l.end = wf_v3(5.0f, 0.0f, 2.0f);
    l.radius = 0.5f;
    l.user_id = 5;
    wf_grid grid;
    memset(&grid, 0, sizeof grid);
    grid.width = grid.depth = 16;
    grid.cell_size = 0.5f;
    grid.walkable = walkable;
    grid.links = &l;
    grid.link_count = 1;
    wf_tilecache* tc = make_cache(0);
    assert_int_equal(wf_tilecache_build_grid(tc, grid), WF_OK);
    assert_int_equal(wf_tilecache_link_count(tc), 1);
    wf_offmesh_link_desc bad = l;
    bad.end = wf_v3(5.0f, 6.0f, 2.0f);
    grid.links = &bad;
    assert_int_equal(wf_tilecache_build_grid(tc, grid), WF_ERR_NOT_FOUND);
    assert_int_equal(wf_tilecache_link_count(tc), 1);

    // Voxels: 16 x 2 x 16 cubes of 0.5 m, the bottom row solid (floor at 0.5).
    uint8_t solid[16 * 2 * 16];
    memset(solid, 0, sizeof solid);
    memset(solid, 1, 16 * 16);
    wf_voxels v;
    memset(&v, 0, sizeof v);
    v.size_x = v.size_z = 16;
    v.size_y = 2;
    v.cube_size = 0.5f;
    v.solid = solid;
    wf_offmesh_link_desc up = l;
    up.start.y = up.end.y = 0.5f;
    v.links = &up;
    v.link_count = 1;
    assert_int_equal(wf_tilecache_build_voxels(tc, v), WF_OK);
    assert_int_equal(wf_tilecache_link_count(tc), 1);
    up.area = 64;
    assert_int_equal(wf_tilecache_build_voxels(tc, v), WF_ERR_INVALID_ARG);
    wf_tilecache_destroy(tc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_as_build_then_add),
        cmocka_unit_test(test_bad_links_leave_the_cache),
        cmocka_unit_test(test_grid_and_voxel_links),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
