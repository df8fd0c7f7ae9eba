// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Misuse of the tile cache API: create, build, save and load with bad
// arguments or data, and obstacles with NULL, NaN, non-positive sizes,
// stale and wrong-kind ids.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "misuse_common.h"

/* ---------------------------------------------------------------------------
 * Tile cache: create, build, save/load
 */

static void test_tilecache_misuse(void** state) {
    fixture* f = *state;
    snapshot before = take(f);
    wf_tilecache* tc = NULL;
    wf_tilecache_desc d = cache_desc();

    // area tables: refused with params untouched
    wf_tilecache_params areas = d.params;
    const wf_area_name dup[2] = {{"water", 1, 2}, {"water", 1, 2}};
    const wf_area_name deep[1] = {{"water", 64, 2}};
    const wf_area_name blank[1] = {{"deep water", 1, 2}};
    EXPECT(wf_tilecache_params_set_areas(NULL, dup, 1, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_params_set_areas(&areas, NULL, 1, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_params_set_areas(&areas, dup, 2, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_params_set_areas(&areas, deep, 1, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_params_set_areas(&areas, blank, 1, NULL), WF_ERR_INVALID_ARG);
    EXPECT_TRUE(memcmp(&areas, &d.params, sizeof areas) == 0);
    EXPECT(wf_tilecache_params_set_areas(&areas, dup, 1, NULL), WF_OK);
    EXPECT_TRUE(areas.area_flags[1] == 2);

    // create
    EXPECT(wf_tilecache_create(NULL, &tc), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_create(&d, NULL), WF_ERR_INVALID_ARG);
    const float bad_sizes[] = {0.0f, -0.3f, NAN_F, INF_F};
    for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; ++i) {
        wf_tilecache_desc b = d;
        b.params.cell_size = bad_sizes[i];
        EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
        b = d;
        b.params.cell_height = bad_sizes[i];
        EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
    }
    const float bad_agent[] = {-1.0f, NAN_F, INF_F};
    for (size_t i = 0; i < sizeof bad_agent / sizeof bad_agent[0]; ++i) {
        wf_tilecache_desc b = d;
        b.params.agent_radius = bad_agent[i];
        EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
        b = d;
        b.params.agent_height = bad_agent[i];
        EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
        b = d;
        b.params.agent_climb = bad_agent[i];
        EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
        b = d;
        b.params.agent_max_slope = bad_agent[i];
        EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
    }
    wf_tilecache_desc b = d;
    b.params.tile_size = 0;
    EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
    b = d;
    b.params.tile_size = 256;
    EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
    b = d;
    b.params.max_verts_per_poly = 2;
    EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
    b = d;
    b.params.max_verts_per_poly = WF_MAX_VERTS_PER_POLY + 1;
    EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
    b = d;
    b.params.max_edge_length = NAN_F;
    EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
    b = d;
    b.params.max_simplification_error = -1.0f;
    EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
    b = d;
    b.params.bmin = wf_v3(NAN_F, 0, 0);
    b.params.bmax = wf_v3(30, 1, 30);
    EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
    b = d;
    b.jobs.enqueue = (void* (*)(wf_task_fn*, void*, void*))NULL;
    b.jobs.worker_count = 4;
    EXPECT(wf_tilecache_create(&b, &tc), WF_OK); // no enqueue: inline
    wf_tilecache_destroy(tc);
    tc = NULL;
    // Build limits: max_tiles above the hard tile limit; the others take
    // any value (0 = the default).
    b = d;
    b.max_tiles = WF_TILECACHE_MAX_TILES + 1u;
    EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_create(&d, &tc), WF_OK);

    // plan_build: NULL, non-finite or far bounds; over a limit is CAPACITY
    wf_tilecache_build_plan plan;
    EXPECT(wf_tilecache_plan_build(NULL, wf_v3(0, 0, 0), wf_v3(1, 1, 1), &plan),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_plan_build(tc, wf_v3(0, 0, 0), wf_v3(1, 1, 1), NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_plan_build(tc, wf_v3(0, 0, 0), wf_v3(INF_F, 1, 1), &plan),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_plan_build(tc, wf_v3(-1e31f, 0, 0), wf_v3(1, 1, 1), &plan),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_plan_build(tc, wf_v3(0, 0, 0), wf_v3(1e6f, 1, 1e6f), &plan),
           WF_ERR_INVALID_ARG); // past WF_TILECACHE_MAX_TILES
    EXPECT(wf_tilecache_plan_build(tc, wf_v3(0, 0, 0), wf_v3(1e4f, 1, 1e4f), &plan),
           WF_ERR_CAPACITY); // past max_tiles
    EXPECT(wf_tilecache_plan_build(tc, wf_v3(0, 0, 0), wf_v3(10, 1, 10), &plan), WF_OK);

    // build_geom: NULL, missing arrays, NaN vertices, indices out of range
    wf_geom g = floor_geom();
    EXPECT(wf_tilecache_build_geom(NULL, g, NULL, 0), WF_ERR_INVALID_ARG);
    wf_geom bg = g;
    bg.verts = NULL;
    EXPECT(wf_tilecache_build_geom(tc, bg, NULL, 0), WF_ERR_INVALID_ARG);
    bg = g;
    bg.tris = NULL;
    EXPECT(wf_tilecache_build_geom(tc, bg, NULL, 0), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_build_geom(tc, g, NULL, 1), WF_ERR_INVALID_ARG);
    float nan_verts[12];
    memcpy(nan_verts, k_verts, sizeof nan_verts);
    nan_verts[4] = NAN_F;
    bg = g;
    bg.verts = nan_verts;
    EXPECT(wf_tilecache_build_geom(tc, bg, NULL, 0), WF_ERR_INVALID_ARG);
    nan_verts[4] = INF_F;
    EXPECT(wf_tilecache_build_geom(tc, bg, NULL, 0), WF_ERR_INVALID_ARG);
    const uint32_t bad_tris[] = {0, 1, 2, 0, 2, 4};
    bg = g;
    bg.tris = bad_tris;
    EXPECT(wf_tilecache_build_geom(tc, bg, NULL, 0), WF_ERR_INVALID_ARG);
    const uint8_t bad_areas[] = {0, 64};
    bg = g;
    bg.tri_areas = bad_areas;
    EXPECT(wf_tilecache_build_geom(tc, bg, NULL, 0), WF_ERR_INVALID_ARG);
    wf_vec3 outline[3] = {wf_v3(1, 0, 1), wf_v3(1, 0, 5), wf_v3(5, 0, 5)};
    wf_convex_volume vol = {.verts = outline, .vert_count = 3, .min_y = -1, .max_y = 1, .area = 2};
    wf_convex_volume bad_vol = vol;
    bad_vol.vert_count = 2;
    EXPECT(wf_tilecache_build_geom(tc, g, &bad_vol, 1), WF_ERR_INVALID_ARG);
    bad_vol = vol;
    bad_vol.min_y = NAN_F;
    EXPECT(wf_tilecache_build_geom(tc, g, &bad_vol, 1), WF_ERR_INVALID_ARG);
    bad_vol = vol;
    bad_vol.area = 64;
    EXPECT(wf_tilecache_build_geom(tc, g, &bad_vol, 1), WF_ERR_INVALID_ARG);
    // not convex (a dart), and three points in a line
    wf_vec3 dart[4] = {wf_v3(0, 0, 0), wf_v3(4, 0, 2), wf_v3(0, 0, 4), wf_v3(1, 0, 2)};
    bad_vol = vol;
    bad_vol.verts = dart;
    bad_vol.vert_count = 4;
    EXPECT(wf_tilecache_build_geom(tc, g, &bad_vol, 1), WF_ERR_INVALID_ARG);
    wf_vec3 line[3] = {wf_v3(0, 0, 0), wf_v3(1, 0, 1), wf_v3(2, 0, 2)};
    bad_vol.verts = line;
    bad_vol.vert_count = 3;
    EXPECT(wf_tilecache_build_geom(tc, g, &bad_vol, 1), WF_ERR_INVALID_ARG);
    // a NaN link in the build input, and links NULL with a count
    wf_offmesh_link_desc nan_link = {.start = wf_v3(NAN_F, 0, 0), .end = wf_v3(1, 0, 1)};
    bg = g;
    bg.links = &nan_link;
    bg.link_count = 1;
    EXPECT(wf_tilecache_build_geom(tc, bg, NULL, 0), WF_ERR_INVALID_ARG);
    bg.links = NULL;
    EXPECT(wf_tilecache_build_geom(tc, bg, NULL, 0), WF_ERR_INVALID_ARG);
    EXPECT_TRUE(wf_tilecache_layer_count(tc) == 0);
    // grids and voxels: zero sizes, NaN cell sizes
    uint8_t walkable[4] = {1, 1, 1, 1};
    wf_grid grid = {.width = 2, .depth = 2, .cell_size = 1.0f, .walkable = walkable};
    wf_grid bgrid = grid;
    bgrid.width = 0;
    EXPECT(wf_tilecache_build_grid(tc, bgrid), WF_ERR_INVALID_ARG);
    bgrid = grid;
    bgrid.cell_size = NAN_F;
    EXPECT(wf_tilecache_build_grid(tc, bgrid), WF_ERR_INVALID_ARG);
    bgrid = grid;
    bgrid.cell_size = -1.0f;
    EXPECT(wf_tilecache_build_grid(tc, bgrid), WF_ERR_INVALID_ARG);
    bgrid = grid;
    bgrid.walkable = NULL;
    EXPECT(wf_tilecache_build_grid(tc, bgrid), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_build_grid(NULL, grid), WF_ERR_INVALID_ARG);
    wf_voxels vox = {.size_x = 2, .size_y = 1, .size_z = 2, .cube_size = 1.0f, .solid = walkable};
    wf_voxels bvox = vox;
    bvox.size_y = 0;
    EXPECT(wf_tilecache_build_voxels(tc, bvox), WF_ERR_INVALID_ARG);
    bvox = vox;
    bvox.cube_size = INF_F;
    EXPECT(wf_tilecache_build_voxels(tc, bvox), WF_ERR_INVALID_ARG);
    bvox = vox;
    bvox.origin.x = NAN_F;
    EXPECT(wf_tilecache_build_voxels(tc, bvox), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_build_voxels(NULL, vox), WF_ERR_INVALID_ARG);
    EXPECT_TRUE(wf_tilecache_layer_count(tc) == 0);
    EXPECT(wf_tilecache_build_geom(tc, g, &vol, 1), WF_OK);
    EXPECT_TRUE(wf_tilecache_layer_count(tc) == before.layers);
    wf_tilecache_destroy(tc);

    // build_navmesh: NULL, a mesh of another grid
    tc = f->tc;
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    md.logger.quiet = true;
    md.tile_width *= 2.0f;
    wf_mesh* other = NULL;
    assert_int_equal(wf_mesh_create(&md, &other), WF_OK);
    EXPECT(wf_tilecache_build_navmesh(NULL, f->mesh), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_build_navmesh(tc, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_build_navmesh(tc, other), WF_ERR_INVALID_ARG);
    EXPECT_TRUE(wf_mesh_get_stats(other).tile_count == 0);
    // mesh_matches: NULL either side is no match, never a crash
    EXPECT_TRUE(!wf_tilecache_mesh_matches(NULL, f->mesh));
    EXPECT_TRUE(!wf_tilecache_mesh_matches(tc, NULL));
    EXPECT_TRUE(!wf_tilecache_mesh_matches(NULL, NULL));
    EXPECT_TRUE(!wf_tilecache_mesh_matches(tc, other));
    EXPECT_TRUE(wf_tilecache_mesh_matches(tc, f->mesh));
    // convex_outline_valid: NULL, too few or many points, NaN, repeats,
    // three in a line, self-crossing are refused; both windings pass
    const wf_vec3 square[4] = {{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}};
    const wf_vec3 cw[4] = {{0, 0, 0}, {0, 0, 1}, {1, 0, 1}, {1, 0, 0}};
    const wf_vec3 bow[4] = {{0, 0, 0}, {1, 0, 1}, {1, 0, 0}, {0, 0, 1}};
    const wf_vec3 row3[4] = {{0, 0, 0}, {0.5f, 0, 0}, {1, 0, 0}, {0, 0, 1}};
    const wf_vec3 twice[4] = {{0, 0, 0}, {0, 0, 0}, {1, 0, 1}, {0, 0, 1}};
    const wf_vec3 nan_pt[3] = {{0, 0, 0}, {NAN, 0, 0}, {0, 0, 1}};
    wf_vec3 many[33];
    for (int i = 0; i < 33; ++i) {
        float a = 6.2831853f * (float)i / 33.0f;
        many[i] = wf_v3(cosf(a), 0.0f, sinf(a));
    }
    EXPECT_TRUE(wf_convex_outline_valid(square, 4) && wf_convex_outline_valid(cw, 4));
    EXPECT_TRUE(wf_convex_outline_valid(many, 32) && !wf_convex_outline_valid(many, 33));
    EXPECT_TRUE(!wf_convex_outline_valid(NULL, 4) && !wf_convex_outline_valid(square, 2));
    EXPECT_TRUE(!wf_convex_outline_valid(bow, 4) && !wf_convex_outline_valid(row3, 4));
    EXPECT_TRUE(!wf_convex_outline_valid(twice, 4) && !wf_convex_outline_valid(nan_pt, 3));
    // build_tile, get_layer_info
    _Alignas(16) unsigned char small[64];
    size_t out_size = 0;
    wf_tilecache_layer_info li;
    EXPECT(wf_tilecache_build_tile(NULL, 0, small, sizeof small, &out_size), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_build_tile(tc, 0, small, sizeof small, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_build_tile(tc, 0, NULL, sizeof small, &out_size), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_build_tile(tc, 0, small + 1, sizeof small - 1, &out_size),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_build_tile(tc, 0, small, sizeof small, &out_size), WF_ERR_CAPACITY);
    EXPECT_TRUE(out_size > sizeof small);
    EXPECT(wf_tilecache_build_tile(tc, before.layers, small, sizeof small, &out_size),
           WF_ERR_NOT_FOUND);
    EXPECT(wf_tilecache_get_layer_info(NULL, 0, &li), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_get_layer_info(tc, 0, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_get_layer_info(tc, before.layers, &li), WF_ERR_NOT_FOUND);
    EXPECT(wf_tilecache_get_layer_info(tc, 0, &li), WF_OK);

    // save / load: NULL, short buffers, truncated and corrupt files
    size_t size = 0;
    EXPECT(wf_tilecache_save_size(NULL, &size), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_save_size(tc, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_save_size(tc, &size), WF_OK);
    unsigned char* file = malloc(size);
    assert_non_null(file);
    EXPECT(wf_tilecache_save(NULL, file, size), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_save(tc, NULL, size), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_save(tc, file, size - 1), WF_ERR_CAPACITY);
    EXPECT(wf_tilecache_save(tc, file, size), WF_OK);
    wf_tilecache* loaded = NULL;
    EXPECT(wf_tilecache_load(NULL, file, size, &loaded), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_load(&d, file, size, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_load(&d, NULL, size, &loaded), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_load(&d, file, 0, &loaded), WF_ERR_BAD_DATA);
    EXPECT(wf_tilecache_load(&d, file, size - 1, &loaded), WF_ERR_BAD_DATA);
    EXPECT(wf_tilecache_load(&d, file, size / 2, &loaded), WF_ERR_BAD_DATA);
    file[0] ^= 0xff;
    EXPECT(wf_tilecache_load(&d, file, size, &loaded), WF_ERR_BAD_DATA);
    file[0] ^= 0xff;
    file[4] ^= 0x40;
    EXPECT(wf_tilecache_load(&d, file, size, &loaded), WF_ERR_VERSION);
    file[4] ^= 0x40;
    file[size - 3] ^= 0x21; // inside the last compressed layer
    EXPECT(wf_tilecache_load(&d, file, size, &loaded), WF_ERR_BAD_DATA);
    file[size - 3] ^= 0x21;
    file[size / 2] ^= 0x21;
    EXPECT(wf_tilecache_load(&d, file, size, &loaded), WF_ERR_BAD_DATA);
    file[size / 2] ^= 0x21;
    EXPECT_TRUE(loaded == NULL);
    EXPECT(wf_tilecache_load(&d, file, size, &loaded), WF_OK);
    EXPECT_TRUE(loaded != NULL && wf_tilecache_layer_count(loaded) == before.layers);
    wf_tilecache_destroy(loaded);
    free(file);

    // Getters tolerate NULL.
    EXPECT_TRUE(wf_tilecache_layer_count(NULL) == 0);
    EXPECT_TRUE(wf_tilecache_obstacle_count(NULL) == 0);
    wf_tilecache_destroy(NULL);

    EXPECT(wf_tilecache_build_navmesh(tc, other), WF_ERR_INVALID_ARG);
    wf_mesh_destroy(other);
    EXPECT_UNCHANGED(f, &before);
    EXPECT_QUERY_WORKS(f);
    end_test();
}

/* ---------------------------------------------------------------------------
 * Obstacles: NULL, NaN and non-positive sizes, stale and wrong-kind ids
 */

static wf_obstacle_desc cylinder(float x, float z) {
    wf_obstacle_desc d;
    memset(&d, 0, sizeof d);
    d.shape = WF_OBSTACLE_CYLINDER;
    d.position = wf_v3(x, 0, z);
    d.radius = 1.0f;
    d.height = 2.0f;
    return d;
}

static void test_obstacle_misuse(void** state) {
    fixture* f = *state;
    wf_tilecache* tc = f->tc;
    wf_obstacle_id id = {0}, live = {0}, none = {0};
    wf_obstacle_desc ok = cylinder(10, 10), got;
    assert_int_equal(wf_tilecache_add_obstacle(tc, &ok, &live), WF_OK);
    wf_tilecache_budget budget = {0};
    wf_tilecache_update_result r;
    assert_int_equal(wf_tilecache_update(tc, f->mesh, &budget, &r), WF_OK);
    snapshot before = take(f);
    EXPECT_TRUE(before.obstacles == 1);

    // add: NULL
    EXPECT(wf_tilecache_add_obstacle(NULL, &ok, &id), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_add_obstacle(tc, NULL, &id), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_add_obstacle(tc, &ok, NULL), WF_ERR_INVALID_ARG);
    // add: NaN / infinite positions and sizes, zero and negative sizes
    wf_obstacle_desc bad[40];
    size_t nb = 0;
    const float bad_values[] = {NAN_F, INF_F, -INF_F};
    const float bad_sizes[] = {0.0f, -1.0f, NAN_F, INF_F};
    for (size_t i = 0; i < 3; ++i) {
        bad[nb] = ok, bad[nb++].position.x = bad_values[i];
        bad[nb] = ok, bad[nb++].position.y = bad_values[i];
        bad[nb] = ok, bad[nb++].position.z = bad_values[i];
    }
    for (size_t i = 0; i < 4; ++i) {
        bad[nb] = ok, bad[nb++].radius = bad_sizes[i];
        bad[nb] = ok, bad[nb++].height = bad_sizes[i];
        wf_obstacle_desc box = ok;
        box.shape = WF_OBSTACLE_BOX;
        box.half_extents = wf_v3(1, 1, 1);
        bad[nb] = box, bad[nb++].half_extents.x = bad_sizes[i];
        bad[nb] = box, bad[nb++].half_extents.y = bad_sizes[i];
        box.shape = WF_OBSTACLE_ORIENTED_BOX;
        bad[nb] = box, bad[nb++].half_extents.z = bad_sizes[i];
    }
    wf_obstacle_desc obox = ok;
    obox.shape = WF_OBSTACLE_ORIENTED_BOX;
    obox.half_extents = wf_v3(1, 1, 1);
    bad[nb] = obox, bad[nb++].yaw = NAN_F;
    bad[nb] = obox, bad[nb++].yaw = INF_F;
    wf_obstacle_desc prism = ok;
    prism.shape = WF_OBSTACLE_PRISM;
    prism.verts[0] = wf_v3(9, 0, 9);
    prism.verts[1] = wf_v3(9, 0, 11);
    prism.verts[2] = wf_v3(11, 0, 11);
    prism.verts[3] = wf_v3(11, 0, 9);
    prism.vert_count = 4;
    bad[nb] = prism, bad[nb++].vert_count = 2;
    bad[nb] = prism, bad[nb++].vert_count = WF_OBSTACLE_MAX_VERTS + 1;
    bad[nb] = prism, bad[nb++].verts[1].x = NAN_F;
    bad[nb] = prism, bad[nb++].verts[2] = wf_v3(9.5f, 0, 9.5f); // concave
    bad[nb] = prism, bad[nb++].height = 0.0f;
    bad[nb] = ok, bad[nb++].shape = (wf_obstacle_shape)7;
    bad[nb] = ok, bad[nb].paint = true, bad[nb++].area = 64;
    assert_true(nb <= sizeof bad / sizeof bad[0]);
    for (size_t i = 0; i < nb; ++i) {
        id.bits = 0;
        char what[64];
        snprintf(what, sizeof what, "add_obstacle(tc, &bad[%zu], &id)", i);
        expect_status_at(wf_tilecache_add_obstacle(tc, &bad[i], &id), WF_ERR_INVALID_ARG, what,
                         __LINE__);
        EXPECT_TRUE(id.bits == 0);
        snprintf(what, sizeof what, "move_obstacle(tc, live, &bad[%zu])", i);
        expect_status_at(wf_tilecache_move_obstacle(tc, live, &bad[i]), WF_ERR_INVALID_ARG, what,
                         __LINE__);
    }
    EXPECT(wf_tilecache_add_obstacle(tc, &prism, &id), WF_OK); // the valid prism
    EXPECT(wf_tilecache_remove_obstacle(tc, id), WF_OK);
    wf_obstacle_desc far = cylinder(500, 500);
    EXPECT(wf_tilecache_add_obstacle(tc, &far, &id), WF_ERR_NOT_FOUND);
    EXPECT(wf_tilecache_move_obstacle(tc, live, &far), WF_ERR_NOT_FOUND);
    EXPECT_UNCHANGED(f, &before);
    EXPECT(wf_tilecache_get_obstacle(tc, live, &got), WF_OK);
    EXPECT_TRUE(wf_v3_equal(got.position, ok.position) && got.radius == ok.radius);

    // remove / move / get: NULL, null id
    EXPECT(wf_tilecache_remove_obstacle(NULL, live), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_remove_obstacle(tc, none), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_move_obstacle(NULL, live, &ok), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_move_obstacle(tc, live, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_move_obstacle(tc, none, &ok), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_get_obstacle(NULL, live, &got), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_get_obstacle(tc, live, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_get_obstacle(tc, none, &got), WF_ERR_INVALID_ARG);
    // Wrong kind: an agent-kind id (same index and generation) as an obstacle id.
    wf_obstacle_id as_agent = {
        wf_id_make(wf_id_index(live.bits), wf_id_generation(live.bits), WF_ID_KIND_AGENT)};
    wf_obstacle_id real_agent = {f->agent.bits};
    wf_obstacle_id as_request = {wf_id_make(0, 1, WF_ID_KIND_MOVE_REQUEST)};
    EXPECT(wf_tilecache_remove_obstacle(tc, as_agent), WF_ERR_WRONG_KIND);
    EXPECT(wf_tilecache_remove_obstacle(tc, real_agent), WF_ERR_WRONG_KIND);
    EXPECT(wf_tilecache_remove_obstacle(tc, as_request), WF_ERR_WRONG_KIND);
    EXPECT(wf_tilecache_move_obstacle(tc, as_agent, &ok), WF_ERR_WRONG_KIND);
    EXPECT(wf_tilecache_get_obstacle(tc, as_agent, &got), WF_ERR_WRONG_KIND);
    // Stale: a generation that was never given, an index past the capacity,
    // and a removed obstacle's id.
    wf_obstacle_id other_gen = {
        wf_id_make(wf_id_index(live.bits), wf_id_generation(live.bits) + 1, WF_ID_KIND_OBSTACLE)};
    wf_obstacle_id past_end = {wf_id_make(1000000, 1, WF_ID_KIND_OBSTACLE)};
    EXPECT(wf_tilecache_remove_obstacle(tc, other_gen), WF_ERR_STALE_REF);
    EXPECT(wf_tilecache_get_obstacle(tc, past_end, &got), WF_ERR_STALE_REF);
    EXPECT(wf_tilecache_move_obstacle(tc, past_end, &ok), WF_ERR_STALE_REF);
    wf_obstacle_id removed;
    EXPECT(wf_tilecache_add_obstacle(tc, &ok, &removed), WF_OK);
    EXPECT(wf_tilecache_remove_obstacle(tc, removed), WF_OK);
    EXPECT_UNCHANGED(f, &before);
    EXPECT(wf_tilecache_remove_obstacle(tc, removed), WF_ERR_STALE_REF);
    EXPECT(wf_tilecache_move_obstacle(tc, removed, &ok), WF_ERR_STALE_REF);
    EXPECT(wf_tilecache_move_obstacle(tc, removed, &bad[0]), WF_ERR_STALE_REF);
    EXPECT(wf_tilecache_get_obstacle(tc, removed, &got), WF_ERR_STALE_REF);
    EXPECT_UNCHANGED(f, &before);

    // update: NULL, a mesh of another grid
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    md.tile_depth += 1.0f;
    md.logger.quiet = true;
    wf_mesh* other = NULL;
    assert_int_equal(wf_mesh_create(&md, &other), WF_OK);
    EXPECT(wf_tilecache_update(NULL, f->mesh, &budget, &r), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_update(tc, NULL, &budget, &r), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_update(tc, f->mesh, NULL, &r), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_update(tc, f->mesh, &budget, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_update(tc, other, &budget, &r), WF_ERR_INVALID_ARG);
    wf_mesh_destroy(other);
    EXPECT_UNCHANGED(f, &before);

    // Capacity: max_obstacles (8) live, then one more; the request queue.
    wf_obstacle_id ids[8];
    uint32_t added = 1;
    for (uint32_t i = 0; added < 8; ++i, ++added) {
        wf_obstacle_desc od = cylinder(3.0f + 3.0f * (float)i, 20);
        EXPECT(wf_tilecache_add_obstacle(tc, &od, &ids[i]), WF_OK);
    }
    EXPECT(wf_tilecache_add_obstacle(tc, &ok, &id), WF_ERR_CAPACITY);
    EXPECT_TRUE(wf_tilecache_obstacle_count(tc) == 8);
    // Listing (debug API): NULL cache lists nothing, a NULL buffer only counts.
    wf_obstacle_id listed[8];
    EXPECT_TRUE(wf_tilecache_get_obstacles(NULL, listed, 8) == 0);
    EXPECT_TRUE(wf_tilecache_get_obstacles(tc, NULL, 8) == 8);
    EXPECT_TRUE(wf_tilecache_get_obstacles(tc, listed, 8) == 8);
    EXPECT(wf_tilecache_update(tc, f->mesh, &budget, &r), WF_OK);
    EXPECT_TRUE(r.up_to_date);
    for (uint32_t i = 0; i < 7; ++i) {
        EXPECT(wf_tilecache_remove_obstacle(tc, ids[i]), WF_OK);
    }
    EXPECT(wf_tilecache_update(tc, f->mesh, &budget, &r), WF_OK);
    EXPECT_UNCHANGED(f, &before);
    EXPECT(wf_tilecache_move_obstacle(tc, live, &prism), WF_OK); // a valid call still works
    EXPECT(wf_tilecache_update(tc, f->mesh, &budget, &r), WF_OK);
    EXPECT(wf_tilecache_get_obstacle(tc, live, &got), WF_OK);
    EXPECT_TRUE(got.shape == WF_OBSTACLE_PRISM);
    EXPECT_QUERY_WORKS(f);
    end_test();
}

/* ---------------------------------------------------------------------------
 * Off-mesh links: NULL, NaN ends, ends off the navmesh, duplicate and
 * unknown ids, bad generation settings
 */

static wf_offmesh_link_desc link_at(float x0, float x1, uint32_t user_id) {
    wf_offmesh_link_desc d;
    memset(&d, 0, sizeof d);
    d.start = wf_v3(x0, 0, 12);
    d.end = wf_v3(x1, 0, 12);
    d.radius = 1.0f;
    d.flags = 1;
    d.user_id = user_id;
    return d;
}

static void test_link_misuse(void** state) {
    fixture* f = *state;
    wf_tilecache* tc = f->tc;
    wf_offmesh_link_desc ok = link_at(5, 8, 1), got;
    EXPECT(wf_tilecache_add_links(tc, &ok, 1), WF_OK);
    snapshot before = take(f);

    EXPECT(wf_tilecache_add_links(NULL, &ok, 1), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_add_links(tc, NULL, 1), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_add_links(tc, NULL, 0), WF_OK); // nothing to add
    wf_offmesh_link_desc bad = link_at(5, 8, 2);
    bad.start.x = NAN_F;
    EXPECT(wf_tilecache_add_links(tc, &bad, 1), WF_ERR_INVALID_ARG);
    bad = link_at(5, 8, 2);
    bad.end.z = INF_F;
    EXPECT(wf_tilecache_add_links(tc, &bad, 1), WF_ERR_INVALID_ARG);
    bad = link_at(5, 8, 2);
    bad.radius = NAN_F;
    EXPECT(wf_tilecache_add_links(tc, &bad, 1), WF_ERR_INVALID_ARG);
    bad = link_at(5, 8, 2);
    bad.end.y = 40.0f; // above the floor: off the navmesh
    EXPECT(wf_tilecache_add_links(tc, &bad, 1), WF_ERR_NOT_FOUND);
    bad = link_at(-50, 8, 2);
    EXPECT(wf_tilecache_add_links(tc, &bad, 1), WF_ERR_NOT_FOUND);
    bad = link_at(5, 8, 1); // id taken
    EXPECT(wf_tilecache_add_links(tc, &bad, 1), WF_ERR_BUSY);
    EXPECT(wf_tilecache_remove_link(NULL, 1), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_remove_link(tc, 77), WF_ERR_NOT_FOUND);
    EXPECT(wf_tilecache_get_link(NULL, 0, &got, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_get_link(tc, 0, NULL, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_get_link(tc, 1, &got, NULL), WF_ERR_NOT_FOUND);
    EXPECT_TRUE(wf_tilecache_link_count(NULL) == 0);
    EXPECT_TRUE(wf_tilecache_link_count(tc) == 1);

    wf_link_generation_desc g;
    memset(&g, 0, sizeof g);
    EXPECT(wf_tilecache_generate_links(NULL, &g, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_generate_links(tc, NULL, NULL), WF_ERR_INVALID_ARG);
    g.max_jump_distance = NAN_F;
    EXPECT(wf_tilecache_generate_links(tc, &g, NULL), WF_ERR_INVALID_ARG);
    g.max_jump_distance = -1.0f;
    EXPECT(wf_tilecache_generate_links(tc, &g, NULL), WF_ERR_INVALID_ARG);
    g.max_jump_distance = 0.0f;
    g.drop_area = 64;
    EXPECT(wf_tilecache_generate_links(tc, &g, NULL), WF_ERR_INVALID_ARG);
    EXPECT_TRUE(wf_tilecache_link_count(tc) == 1);
    EXPECT_UNCHANGED(f, &before);
    EXPECT(wf_tilecache_remove_link(tc, 1), WF_OK);
    EXPECT_QUERY_WORKS(f);
    end_test();
}

int main(void) {
    misuse_begin();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_tilecache_misuse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_obstacle_misuse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_link_misuse, setup, teardown),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    misuse_report("misuse_tilecache");
    return failed;
}
