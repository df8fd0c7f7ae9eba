// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The tile cache object: parameters, builds from triangles, grids and
// voxels on hand-built scenes with known walkable cells and layers,
// capacity and bad input, the navmesh pass, allocation failures, and the
// same bytes for 0, 1, 2 and 3 worker threads.
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "test_hooks.h"
#include "test_log_capture.h"
#include "test_scene.h"
#include "tilecache/tilecache_internal.h"
#include "wayfarer/jobs.h"
#include "wayfarer/query.h"
#include "wayfarer/tilecache.h"

static wf_tilecache* make_cache_with(const wf_tilecache_params* params, counting_allocator* c,
                                     wf_job_system jobs, uint32_t max_layers) {
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = *params;
    d.logger.quiet = true;
    d.jobs = jobs;
    d.max_layers = max_layers;
    if (c != NULL) {
        d.allocator = counting_allocator_hooks(c);
    }
    wf_tilecache* tc = NULL;
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    return tc;
}

static wf_tilecache* make_cache(const wf_tilecache_params* params, counting_allocator* c) {
    wf_job_system inline_jobs = {0, NULL, NULL, NULL};
    return make_cache_with(params, c, inline_jobs, 0);
}

static wf_tilecache_layer_info layer_info(const wf_tilecache* tc, uint32_t i) {
    wf_tilecache_layer_info info;
    assert_int_equal(wf_tilecache_get_layer_info(tc, i, &info), WF_OK);
    return info;
}

/// A floor from -4 to 12 under world bounds [0, 8] x [-1, 1] x [0, 8]: the
/// floor runs on under every tile's border, so no cell is a ledge and
/// erosion finds no edge: 2 x 2 tiles of 16 x 16 walkable cells.
static test_scene* floor_in_bounds(wf_tilecache_params* p) {
    test_scene* s = scene_new();
    scene_floor(s, -4.0f, -4.0f, 12.0f, 12.0f, 0.0f);
    *p = scene_params();
    p->bmin = wf_v3(0.0f, -1.0f, 0.0f);
    p->bmax = wf_v3(8.0f, 4.0f, 8.0f);
    return s;
}

static void test_recast_demo_params(void** state) {
    (void)state;
    wf_tilecache_params p = wf_tilecache_params_recast_demo();
    assert_true(p.cell_size == 0.3f && p.cell_height == 0.2f);
    assert_true(p.agent_height == 2.0f && p.agent_radius == 0.6f && p.agent_climb == 0.9f);
    assert_true(p.agent_max_slope == 45.0f);
    assert_int_equal(p.tile_size, 48);
    // Recast's region sizes are sides: 8 x 8 and 20 x 20 cells.
    assert_int_equal(p.min_region_area, 64);
    assert_int_equal(p.merge_region_area, 400);
    assert_true(p.max_edge_length == 12.0f && p.max_simplification_error == 1.3f);
    assert_int_equal(p.max_verts_per_poly, 6);
    assert_true(p.bmin.x == 0.0f && p.bmax.x == 0.0f && p.bmax.z == 0.0f);
}

static void test_params_whose_cell_lengths_overflow(void** state) {
    (void)state;
    // A tiny cell with a zero-size agent passed every check, but the build
    // measures the longest edge in cells: infinity, then an assert deep in
    // the tile build (a cache file the fuzzer made).
    wf_tilecache_params p = wf_tilecache_params_recast_demo();
    p.cell_size = 1e-38f;
    p.agent_radius = 0.0f;
    p.agent_height = 0.0f;
    p.agent_climb = 0.0f;
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = p;
    d.logger.quiet = true;
    wf_tilecache* tc = NULL;
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_ERR_INVALID_ARG);
    wf_set_assert_hook(previous);
    assert_null(tc);
    d.params.max_edge_length = 0.0f; // no edge splitting: nothing to measure
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    wf_tilecache_destroy(tc);
}

/// Finite params whose derived sizes were not: cells of 1e37 or 3e38 m
/// make a tile wider than FLT_MAX (`wayfarer build --cell-size 3e38` ran
/// into signed overflow and a heightfield assert), cell heights past
/// 1e30 m, bounds past +-1e30 m or needing more tiles than a cache covers.
/// Create refuses each and its log names the setting.
static void test_params_whose_sizes_overflow(void** state) {
    (void)state;
    const struct {
        float cell_size, cell_height;
        wf_vec3 bmin, bmax;
        const char* setting;
    } cases[] = {
        {1e37f, 0.25f, {0, 0, 0}, {0, 0, 0}, "cell_size"},
        {3e38f, 0.25f, {0, 0, 0}, {0, 0, 0}, "cell_size"},
        {FLT_MAX, 0.25f, {0, 0, 0}, {0, 0, 0}, "cell_size"},
        {7e28f, 0.25f, {0, 0, 0}, {0, 0, 0}, "cell_size"}, // 1.1e30 m tiles
        {0.25f, 3e38f, {0, 0, 0}, {0, 0, 0}, "cell_height"},
        {0.25f, 0.25f, {-3e38f, 0, 0}, {3e38f, 1, 1}, "bmin/bmax"},
        {0.25f, 0.25f, {0, -2e30f, 0}, {1, 1, 1}, "bmin/bmax"},
        {0.25f, 0.25f, {0, 0, 0}, {1e7f, 1, 1e7f}, "bmin/bmax"}, // 6e12 tiles
        {1e20f, 0.25f, {-3e38f, 0, 0}, {3e38f, 1, 1}, "bmin/bmax"},
    };
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        test_log_capture logs = {0};
        wf_tilecache_desc d;
        memset(&d, 0, sizeof d);
        d.params = scene_params();
        d.params.agent_radius = 0.0f;
        d.params.cell_size = cases[i].cell_size;
        d.params.cell_height = cases[i].cell_height;
        d.params.bmin = cases[i].bmin;
        d.params.bmax = cases[i].bmax;
        d.logger.log = test_capture_log;
        d.logger.user = &logs;
        wf_tilecache* tc = NULL;
        assert_int_equal(wf_tilecache_create(&d, &tc), WF_ERR_INVALID_ARG);
        assert_null(tc);
        if (strstr(logs.all, cases[i].setting) == NULL) {
            print_error("case %zu: log '%s' lacks '%s'\n", i, logs.all, cases[i].setting);
            fail();
        }
    }
    wf_set_assert_hook(previous);
    // Just inside the limits: 6e28 m cells (9.6e29 m tiles) and bounds of
    // +-1e30 m in one tile create, build and make a mesh.
    wf_tilecache_params p = scene_params();
    p.agent_radius = 0.0f;
    p.cell_size = 6e28f;
    p.bmin = wf_v3(-1e30f, -1.0f, -1e30f);
    p.bmax = wf_v3(-1e30f + 9e29f, 1.0f, -1e30f + 9e29f);
    wf_tilecache* tc = make_cache(&p, NULL);
    test_scene* s = scene_new();
    scene_floor(s, -1e30f, -1e30f, -1e30f + 5e29f, -1e30f + 5e29f, 0.0f);
    assert_int_equal(wf_tilecache_build_geom(tc, scene_geom(s), NULL, 0), WF_OK);
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    assert_int_equal(wf_tilecache_build_navmesh(tc, mesh), WF_OK);
    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(tc);
    // Input past +-1e30 m with the bounds left to it: refused by the build.
    tc = make_cache(
        &(wf_tilecache_params){
            .cell_size = 1.0f, .cell_height = 1.0f, .tile_size = 16, .max_verts_per_poly = 6},
        NULL);
    s->tri_count = s->vert_count = 0;
    scene_floor(s, -3e38f, 0.0f, -3e38f + 1e37f, 4.0f, 0.0f);
    assert_int_equal(wf_tilecache_build_geom(tc, scene_geom(s), NULL, 0), WF_ERR_INVALID_ARG);
    // A grid whose extent overflows (cells of 3e38 m).
    uint8_t walkable[4] = {1, 1, 1, 1};
    wf_grid grid;
    memset(&grid, 0, sizeof grid);
    grid.width = grid.depth = 2;
    grid.cell_size = 3e38f;
    grid.walkable = walkable;
    assert_int_equal(wf_tilecache_build_grid(tc, grid), WF_ERR_INVALID_ARG);
    uint8_t solid[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    wf_voxels vox;
    memset(&vox, 0, sizeof vox);
    vox.size_x = vox.size_y = vox.size_z = 2;
    vox.cube_size = 3e38f;
    vox.solid = solid;
    assert_int_equal(wf_tilecache_build_voxels(tc, vox), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_tilecache_layer_count(tc), 0);
    wf_tilecache_destroy(tc);
    free(s);
}

static size_t dummy_bound(size_t size, void* user) {
    (void)user;
    return size;
}
static void* dummy_enqueue(wf_task_fn* task, void* context, void* user) {
    (void)user;
    task(context);
    return NULL;
}
static void* dummy_alloc(size_t size, size_t align, void* user) {
    (void)size, (void)align, (void)user;
    return NULL;
}

static void test_create_rejects_bad_desc(void** state) {
    (void)state;
    wf_assert_fn* old = wf_set_assert_hook(test_ignore_assert);
    wf_tilecache* tc = (wf_tilecache*)(uintptr_t)16;
    wf_tilecache_desc good;
    memset(&good, 0, sizeof good);
    good.params = scene_params();
    assert_int_equal(wf_tilecache_create(NULL, &tc), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_tilecache_create(&good, NULL), WF_ERR_INVALID_ARG);
    for (int k = 0; k < 14; ++k) {
        wf_tilecache_desc d = good;
        wf_tilecache_params* p = &d.params;
        switch (k) {
        case 0:
            p->cell_size = 0.0f;
            break;
        case 1:
            p->cell_height = NAN;
            break;
        case 2:
            p->tile_size = 0;
            break;
        case 3:
            p->tile_size = 256;
            break; // layers are at most 255 cells
        case 4:
            p->max_verts_per_poly = 2;
            break;
        case 5:
            p->max_verts_per_poly = WF_MAX_VERTS_PER_POLY + 1;
            break;
        case 6:
            p->agent_max_slope = 91.0f;
            break;
        case 7:
            p->agent_radius = -0.25f;
            break;
        case 8:
            p->bmin = wf_v3(1.0f, 0.0f, 0.0f), p->bmax = wf_v3(1.0f, 1.0f, 1.0f);
            break;
        case 9:
            p->bmin = wf_v3(0.0f, 2.0f, 0.0f), p->bmax = wf_v3(1.0f, 1.0f, 1.0f);
            break;
        case 10:
            p->agent_height = 64.0f;
            break; // 256 cells of 0.25: above a byte
        case 11:
            d.codec.max_compressed_size = dummy_bound;
            break; // half a codec
        case 12:
            d.jobs.enqueue = dummy_enqueue;
            break; // no wait
        case 13:
            d.allocator.alloc = dummy_alloc;
            break; // no free
        }
        assert_int_equal(wf_tilecache_create(&d, &tc), WF_ERR_INVALID_ARG);
    }
    assert_ptr_equal(tc, (wf_tilecache*)(uintptr_t)16);
    wf_set_assert_hook(old);
    // The accessors take NULL quietly.
    wf_tilecache_destroy(NULL);
    assert_int_equal(wf_tilecache_layer_count(NULL), 0);
    assert_null(wf_tilecache_get_params(NULL));
    assert_int_equal(wf_tilecache_get_stats(NULL).layer_count, 0);
}

static void test_floor_inside_bounds(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tilecache_params p;
    test_scene* s = floor_in_bounds(&p);
    wf_tilecache* tc = make_cache(&p, &c);
    assert_int_equal(wf_tilecache_layer_count(tc), 0);
    assert_int_equal(wf_tilecache_build_geom(tc, scene_geom(s), NULL, 0), WF_OK);
    assert_int_equal(wf_tilecache_layer_count(tc), 4);
    // A serialized 16 x 16 layer: 48-byte header + heights, areas, cons.
    const uint32_t raw = 48 + 3 * 256;
    for (uint32_t i = 0; i < 4; ++i) {
        wf_tilecache_layer_info info = layer_info(tc, i);
        // Tile order: z, then x.
        assert_int_equal(info.tile_x, (int32_t)(i % 2));
        assert_int_equal(info.tile_z, (int32_t)(i / 2));
        assert_int_equal(info.layer, 0);
        assert_int_equal(info.width, 16);
        assert_int_equal(info.depth, 16);
        assert_int_equal(info.walkable_cells, 256);
        assert_int_equal(info.raw_bytes, raw);
        assert_true(info.compressed_bytes > 0 && info.compressed_bytes < raw);
        assert_float_equal(info.bmin.x, 4.0f * (float)info.tile_x, 1e-5f);
        assert_float_equal(info.bmax.x, 4.0f * (float)info.tile_x + 4.0f, 1e-5f);
        assert_float_equal(info.bmin.z, 4.0f * (float)info.tile_z, 1e-5f);
        // The floor's top voxel: y = 0 is 4 steps above -1, its top 5 steps.
        assert_float_equal(info.bmin.y, 0.25f, 1e-5f);
        assert_float_equal(info.bmax.y, 0.25f, 1e-5f);
    }
    wf_tilecache_layer_info info;
    assert_int_equal(wf_tilecache_get_layer_info(tc, 4, &info), WF_ERR_NOT_FOUND);
    wf_tilecache_stats st = wf_tilecache_get_stats(tc);
    assert_int_equal(st.tile_count, 4);
    assert_int_equal(st.layer_count, 4);
    assert_int_equal(st.walkable_cells, 1024);
    assert_float_equal(st.walkable_area, 64.0, 1e-9);
    assert_int_equal(st.raw_bytes, 4 * raw);
    assert_true(st.compressed_bytes < st.raw_bytes);
    assert_true(st.build_ms >= 0.0);
    assert_true(st.scratch_bytes_per_worker > raw);
    assert_true(st.memory_bytes > st.compressed_bytes + st.scratch_bytes_per_worker);
    assert_memory_equal(wf_tilecache_get_params(tc), &p, sizeof p);
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    assert_true(md.origin.x == 0.0f && md.origin.y == -1.0f && md.origin.z == 0.0f);
    assert_true(md.tile_width == 4.0f && md.tile_depth == 4.0f);
    assert_true(md.max_tiles >= 4);
    wf_tilecache_destroy(tc);
    free(s);
    assert_int_equal(counting_allocator_live(&c), 0);
}

/// A floor floating in the air, 8 x 8 m, bounds from the mesh: its rim
/// cells are ledges, and erosion by 2 cells takes two more rings, so 26 x
/// 26 of its 32 x 32 cells stay walkable, 13 x 13 in each tile.
static void test_floating_floor_is_eroded(void** state) {
    (void)state;
    test_scene* s = scene_new();
    scene_floor(s, 0.0f, 0.0f, 8.0f, 8.0f, 0.0f);
    wf_tilecache_params p = scene_params();
    wf_tilecache* tc = make_cache(&p, NULL);
    assert_int_equal(wf_tilecache_build_geom(tc, scene_geom(s), NULL, 0), WF_OK);
    assert_int_equal(wf_tilecache_layer_count(tc), 4);
    for (uint32_t i = 0; i < 4; ++i) {
        assert_int_equal(layer_info(tc, i).walkable_cells, 13 * 13);
    }
    assert_int_equal(wf_tilecache_get_stats(tc).walkable_cells, 26 * 26);
    // Without a radius only the ledge ring goes: 30 x 30.
    p.agent_radius = 0.0f;
    wf_tilecache* thin = make_cache(&p, NULL);
    assert_int_equal(wf_tilecache_build_geom(thin, scene_geom(s), NULL, 0), WF_OK);
    assert_int_equal(wf_tilecache_get_stats(thin).walkable_cells, 30 * 30);
    wf_tilecache_destroy(thin);
    wf_tilecache_destroy(tc);
    free(s);
}

/// The floor of floor_in_bounds plus a 2 x 2 m platform 3 m up over tile
/// (0, 0): that tile gets a second layer. The platform's 8 x 8 cells lose
/// their ledge ring and two eroded rings: 2 x 2 stay.
static test_scene* floor_and_platform(wf_tilecache_params* p) {
    test_scene* s = floor_in_bounds(p);
    scene_floor(s, 1.0f, 1.0f, 3.0f, 3.0f, 3.0f);
    return s;
}

static void test_platform_gives_second_layer(void** state) {
    (void)state;
    wf_tilecache_params p;
    test_scene* s = floor_and_platform(&p);
    wf_tilecache* tc = make_cache(&p, NULL);
    assert_int_equal(wf_tilecache_build_geom(tc, scene_geom(s), NULL, 0), WF_OK);
    assert_int_equal(wf_tilecache_layer_count(tc), 5);
    wf_tilecache_layer_info ground = layer_info(tc, 0), top = layer_info(tc, 1);
    assert_true(ground.tile_x == 0 && ground.tile_z == 0 && ground.layer == 0);
    assert_true(top.tile_x == 0 && top.tile_z == 0 && top.layer == 1);
    // The ground runs on under the platform (3 m of head room).
    assert_int_equal(ground.walkable_cells, 256);
    assert_int_equal(top.walkable_cells, 4);
    assert_float_equal(top.bmin.y, 3.25f, 1e-5f);
    assert_true(layer_info(tc, 2).tile_x == 1 && layer_info(tc, 2).layer == 0);
    wf_tilecache_stats st = wf_tilecache_get_stats(tc);
    assert_int_equal(st.tile_count, 4);
    assert_int_equal(st.walkable_cells, 4 * 256 + 4);
    wf_tilecache_destroy(tc);
    free(s);
}

/// Twelve floors 2.5 m apart over one tile: twelve spans per column, more
/// than the first guess of the span pool, so the tile is built again with
/// a bigger one; every floor is a layer of 16 x 16 walkable cells.
static void test_stacked_floors_outgrow_first_guess(void** state) {
    (void)state;
    test_scene* s = scene_new();
    for (int i = 0; i < 12; ++i) {
        scene_floor(s, -4.0f, -4.0f, 8.0f, 8.0f, 2.5f * (float)i);
    }
    wf_tilecache_params p = scene_params();
    p.bmin = wf_v3(0.0f, -1.0f, 0.0f);
    p.bmax = wf_v3(4.0f, 29.0f, 4.0f);
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tilecache* tc = make_cache(&p, &c);
    assert_int_equal(wf_tilecache_build_geom(tc, scene_geom(s), NULL, 0), WF_OK);
    assert_int_equal(wf_tilecache_layer_count(tc), 12);
    for (uint32_t i = 0; i < 12; ++i) {
        wf_tilecache_layer_info info = layer_info(tc, i);
        assert_int_equal(info.layer, (int32_t)i);
        assert_int_equal(info.walkable_cells, 256);
        // Floor i at 2.5 i m has its top voxel 10 i + 5 steps above -1.
        assert_float_equal(info.bmin.y, 2.5f * (float)i + 0.25f, 1e-4f);
    }
    wf_tilecache_destroy(tc);
    free(s);
    assert_int_equal(counting_allocator_live(&c), 0);
}

static void test_max_layers_keeps_previous_content(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tilecache_params p;
    test_scene* flat = floor_in_bounds(&p);
    test_scene* two = floor_and_platform(&p);
    wf_job_system inline_jobs = {0, NULL, NULL, NULL};
    wf_tilecache* tc = make_cache_with(&p, &c, inline_jobs, 4);
    assert_int_equal(wf_tilecache_build_geom(tc, scene_geom(flat), NULL, 0), WF_OK);
    wf_tilecache_layer_info before[4];
    for (uint32_t i = 0; i < 4; ++i) {
        before[i] = layer_info(tc, i);
    }
    assert_int_equal(wf_tilecache_build_geom(tc, scene_geom(two), NULL, 0), WF_ERR_CAPACITY);
    assert_int_equal(wf_tilecache_layer_count(tc), 4);
    for (uint32_t i = 0; i < 4; ++i) {
        wf_tilecache_layer_info now = layer_info(tc, i);
        assert_memory_equal(&now, &before[i], sizeof now);
    }
    assert_int_equal(wf_tilecache_mesh_desc(tc).max_tiles, 4);
    wf_tilecache_destroy(tc);
    free(flat);
    free(two);
    assert_int_equal(counting_allocator_live(&c), 0);
}

static void test_bad_geometry(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tilecache_params p;
    test_scene* s = floor_in_bounds(&p);
    wf_tilecache* tc = make_cache(&p, &c);
    assert_int_equal(wf_tilecache_build_geom(tc, scene_geom(s), NULL, 0), WF_OK);
    wf_geom g = scene_geom(s);
    // Each damage is refused and the cache keeps its four layers.
    s->tris[4] = s->vert_count;
    assert_int_equal(wf_tilecache_build_geom(tc, g, NULL, 0), WF_ERR_INVALID_ARG);
    s->tris[4] = 2;
    s->areas[1] = WF_MAX_AREAS;
    assert_int_equal(wf_tilecache_build_geom(tc, g, NULL, 0), WF_ERR_INVALID_ARG);
    s->areas[1] = 0;
    s->verts[4] = NAN;
    assert_int_equal(wf_tilecache_build_geom(tc, g, NULL, 0), WF_ERR_INVALID_ARG);
    s->verts[4] = 0.0f;
    assert_int_equal(wf_tilecache_layer_count(tc), 4);
    // Area 255 marks triangles nobody walks on: a valid, empty build.
    s->areas[0] = s->areas[1] = 255;
    assert_int_equal(wf_tilecache_build_geom(tc, g, NULL, 0), WF_OK);
    assert_int_equal(wf_tilecache_layer_count(tc), 0);
    // No triangles: nothing to build inside the bounds.
    wf_geom empty;
    memset(&empty, 0, sizeof empty);
    assert_int_equal(wf_tilecache_build_geom(tc, empty, NULL, 0), WF_OK);
    assert_int_equal(wf_tilecache_layer_count(tc), 0);
    // Input bounds needing millions of tiles are a mistake (params bounds
    // that do are refused by create: test_params_whose_sizes_overflow).
    wf_tilecache_params unset = p;
    unset.bmin = unset.bmax = wf_v3(0.0f, 0.0f, 0.0f);
    wf_tilecache* big = make_cache(&unset, &c);
    float far_corner = s->verts[0];
    s->verts[0] = 1.0e7f;
    assert_int_equal(wf_tilecache_build_geom(big, g, NULL, 0), WF_ERR_INVALID_ARG);
    s->verts[0] = far_corner;
    wf_tilecache_destroy(big);
    // No bounds in the params and an empty mesh: nothing to size tiles by.
    wf_tilecache_params unbounded = scene_params();
    wf_tilecache* none = make_cache(&unbounded, &c);
    assert_int_equal(wf_tilecache_build_geom(none, empty, NULL, 0), WF_ERR_INVALID_ARG);
    wf_tilecache_destroy(none);

    wf_assert_fn* old = wf_set_assert_hook(test_ignore_assert);
    wf_geom no_verts = g;
    no_verts.verts = NULL;
    assert_int_equal(wf_tilecache_build_geom(NULL, g, NULL, 0), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_tilecache_build_geom(tc, no_verts, NULL, 0), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_tilecache_build_geom(tc, g, NULL, 1), WF_ERR_INVALID_ARG);
    wf_vec3 outline[3] = {wf_v3(0, 0, 0), wf_v3(0, 0, 1), wf_v3(1, 0, 0)};
    wf_convex_volume v = {outline, 2, -1.0f, 1.0f, 3};
    assert_int_equal(wf_tilecache_build_geom(tc, g, &v, 1), WF_ERR_INVALID_ARG);
    v.vert_count = 3;
    v.area = 64;
    assert_int_equal(wf_tilecache_build_geom(tc, g, &v, 1), WF_ERR_INVALID_ARG);
    v.area = 3;
    v.min_y = 2.0f;
    assert_int_equal(wf_tilecache_build_geom(tc, g, &v, 1), WF_ERR_INVALID_ARG);
    wf_grid grid;
    memset(&grid, 0, sizeof grid);
    grid.width = grid.depth = 4;
    grid.cell_size = 1.0f;
    assert_int_equal(wf_tilecache_build_grid(tc, grid), WF_ERR_INVALID_ARG); // no cells
    wf_voxels vox;
    memset(&vox, 0, sizeof vox);
    vox.size_x = vox.size_y = vox.size_z = 2;
    vox.cube_size = 1.0f;
    assert_int_equal(wf_tilecache_build_voxels(tc, vox), WF_ERR_INVALID_ARG); // no cubes
    wf_set_assert_hook(old);
    wf_tilecache_destroy(tc);
    free(s);
    assert_int_equal(counting_allocator_live(&c), 0);
}

/// A 16 x 8 grid of 1 m cells with a wall of 6 cells at x = 8 (z = 0..5),
/// cells of 0.5 m: every walkable grid cell is 2 x 2 cells, radius 0 keeps
/// them all, and blocked cells are walls, not ledges.
static void test_grid_build(void** state) {
    (void)state;
    uint8_t walkable[16 * 8];
    memset(walkable, 1, sizeof walkable);
    for (int z = 0; z < 6; ++z) {
        walkable[z * 16 + 8] = 0;
    }
    wf_grid grid;
    memset(&grid, 0, sizeof grid);
    grid.width = 16;
    grid.depth = 8;
    grid.cell_size = 1.0f;
    grid.walkable = walkable;
    wf_tilecache_params p = scene_params();
    p.cell_size = 0.5f;
    p.agent_radius = 0.0f;
    p.tile_size = 8;
    wf_tilecache* tc = make_cache(&p, NULL);
    assert_int_equal(wf_tilecache_build_grid(tc, grid), WF_OK);
    // 4 x 2 tiles of 4 m, one flat layer each.
    assert_int_equal(wf_tilecache_layer_count(tc), 8);
    for (uint32_t i = 0; i < 8; ++i) {
        wf_tilecache_layer_info info = layer_info(tc, i);
        assert_int_equal(info.tile_x, (int32_t)(i % 4));
        assert_int_equal(info.tile_z, (int32_t)(i / 4));
        // Tile (2, 0) holds 4 wall cells, tile (2, 1) the other 2.
        uint32_t blocked = info.tile_x != 2 ? 0 : info.tile_z == 0 ? 4 : 2;
        assert_int_equal(info.walkable_cells, (16 - blocked) * 4);
        assert_float_equal(info.bmin.y, 0.0f, 1e-5f);
    }
    assert_int_equal(wf_tilecache_get_stats(tc).walkable_cells, (128 - 6) * 4);
    assert_float_equal(wf_tilecache_get_stats(tc).walkable_area, 122.0, 1e-9);
    // With heights: the half from x = 8 on stands 1 m higher. Its tiles sit
    // at y = 1, the others at 0; a step is a wall too, so no cell is lost.
    float heights[16 * 8];
    for (int i = 0; i < 16 * 8; ++i) {
        heights[i] = i % 16 >= 8 ? 1.0f : 0.0f;
    }
    grid.heights = heights;
    assert_int_equal(wf_tilecache_build_grid(tc, grid), WF_OK);
    assert_int_equal(wf_tilecache_layer_count(tc), 8);
    for (uint32_t i = 0; i < 8; ++i) {
        wf_tilecache_layer_info info = layer_info(tc, i);
        assert_float_equal(info.bmin.y, info.tile_x >= 2 ? 1.0f : 0.0f, 1e-5f);
    }
    assert_int_equal(wf_tilecache_get_stats(tc).walkable_cells, (128 - 6) * 4);
    heights[5] = NAN;
    assert_int_equal(wf_tilecache_build_grid(tc, grid), WF_ERR_INVALID_ARG);
    wf_tilecache_destroy(tc);
}

/// An 8 x 2 x 8 world of 1 m cubes: a floor of cubes and a 2 x 2 pillar one
/// cube higher. Cells of 0.5 m: the floor's outer ring is a ledge (the
/// world ends), the pillar's ring too (a 1 m drop, climb is 0.5 m), so 180
/// floor cells and the pillar's 2 x 2 inner cells are walkable.
static void test_voxel_build(void** state) {
    (void)state;
    uint8_t solid[8 * 8 * 2];
    memset(solid, 0, sizeof solid);
    for (int i = 0; i < 64; ++i) {
        solid[i] = 1;
    }
    for (int z = 3; z < 5; ++z) {
        for (int x = 3; x < 5; ++x) {
            solid[x + z * 8 + 64] = 1;
        }
    }
    wf_voxels v;
    memset(&v, 0, sizeof v);
    v.size_x = v.size_z = 8;
    v.size_y = 2;
    v.cube_size = 1.0f;
    v.solid = solid;
    wf_tilecache_params p = scene_params();
    p.cell_size = 0.5f;
    p.agent_radius = 0.0f;
    wf_tilecache* tc = make_cache(&p, NULL);
    assert_int_equal(wf_tilecache_build_voxels(tc, v), WF_OK);
    wf_tilecache_stats st = wf_tilecache_get_stats(tc);
    assert_int_equal(st.tile_count, 1);
    assert_int_equal(st.walkable_cells, 180 + 4);
    wf_tilecache_destroy(tc);
}

/* ---------------------------------------------------------------------------
 * Layers -> navmesh
 */

static wf_mesh* make_mesh(const wf_tilecache* tc) {
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    return mesh;
}

static wf_poly_ref nearest(wf_query* q, wf_vec3 at) {
    wf_query_filter f = wf_query_filter_defaults();
    wf_poly_ref ref;
    wf_vec3 pt;
    assert_int_equal(wf_query_find_nearest_poly(q, at, wf_v3(0.5f, 1.0f, 0.5f), &f, &ref, &pt),
                     WF_OK);
    return ref;
}

static double path_length(wf_query* q, wf_vec3 a, wf_vec3 b) {
    wf_query_filter f = wf_query_filter_defaults();
    wf_poly_ref path[64];
    wf_path_result pr;
    assert_int_equal(wf_query_find_path(q, nearest(q, a), nearest(q, b), a, b, &f, path, 64, &pr),
                     WF_OK);
    wf_straight_point pts[16];
    uint32_t n = 0;
    assert_int_equal(wf_query_find_straight_path(q, a, b, path, pr.count, pts, 16, 0, &n), WF_OK);
    double length = 0.0;
    for (uint32_t i = 1; i < n; ++i) {
        length += wf_v2_distance(pts[i - 1].pos, pts[i].pos);
    }
    return length;
}

/// wf_tilecache_mesh_matches: the cache's own grid matches; another tile
/// size or another origin (by whole tiles: other cell numbers) does not.
static void test_mesh_matches(const wf_tilecache* tc, const wf_mesh* mesh) {
    assert_true(wf_tilecache_mesh_matches(tc, mesh));
    const wf_mesh_desc base = wf_tilecache_mesh_desc(tc);
    struct {
        float dx, dz, width;
        bool matches;
    } cases[] = {
        {0.0f, 0.0f, 1.0f, true},   // a second mesh from the same desc
        {1.0f, -2.0f, 1.0f, false}, // whole tiles off: other cell numbers
        {0.5f, 0.0f, 1.0f, false},  // half a tile off in x
        {0.0f, 0.25f, 1.0f, false}, // a quarter off in z
        {0.0f, 0.0f, 2.0f, false},  // tiles twice as wide
        {0.0f, 0.0f, 0.75f, false}, // narrower tiles
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        wf_mesh_desc md = base;
        md.origin.x += cases[i].dx * base.tile_width;
        md.origin.z += cases[i].dz * base.tile_depth;
        md.tile_width *= cases[i].width;
        md.tile_depth *= cases[i].width;
        wf_mesh* m = NULL;
        assert_int_equal(wf_mesh_create(&md, &m), WF_OK);
        if (wf_tilecache_mesh_matches(tc, m) != cases[i].matches) {
            wf_mesh_destroy(m);
            fail_msg("case %zu: matches should be %d", i, (int)cases[i].matches);
        }
        wf_mesh_destroy(m);
    }
    assert_false(wf_tilecache_mesh_matches(NULL, mesh));
    assert_false(wf_tilecache_mesh_matches(tc, NULL));
}

static void test_navmesh_from_cache(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tilecache_params p;
    test_scene* s = floor_in_bounds(&p);
    wf_tilecache* tc = make_cache(&p, &c);
    assert_int_equal(wf_tilecache_build_geom(tc, scene_geom(s), NULL, 0), WF_OK);
    wf_mesh* mesh = make_mesh(tc);
    assert_int_equal(wf_tilecache_build_navmesh(tc, mesh), WF_OK);
    assert_int_equal(wf_mesh_get_stats(mesh).tile_count, 4);
    for (int32_t i = 0; i < 4; ++i) {
        wf_tile_ref t;
        assert_int_equal(wf_mesh_find_tile(mesh, i % 2, i / 2, 0, &t), WF_OK);
    }
    wf_query* q = NULL;
    assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = mesh}, &q), WF_OK);
    // Open floor across four tiles: one straight diagonal.
    assert_float_equal(path_length(q, wf_v3(0.5f, 0.25f, 0.5f), wf_v3(7.5f, 0.25f, 7.5f)),
                       7.0 * sqrt(2.0), 1e-3);
    wf_poly_ref old = nearest(q, wf_v3(1.0f, 0.25f, 1.0f));
    // Building again replaces every tile: old refs go stale.
    assert_int_equal(wf_tilecache_build_navmesh(tc, mesh), WF_OK);
    assert_int_equal(wf_mesh_get_stats(mesh).tile_count, 4);
    assert_false(wf_mesh_poly_is_valid(mesh, old));
    wf_query_destroy(q);

    // One layer's blob into a caller buffer: size first, then exact.
    size_t need = 0;
    assert_int_equal(wf_tilecache_build_tile(tc, 0, NULL, 0, &need), WF_ERR_CAPACITY);
    assert_true(need > 0 && need % 16 == 0);
    unsigned char* a = aligned_alloc(16, need);
    unsigned char* b = aligned_alloc(16, need);
    size_t size = 0;
    assert_int_equal(wf_tilecache_build_tile(tc, 0, a, need - 16, &size), WF_ERR_CAPACITY);
    assert_int_equal(size, need);
    assert_int_equal(wf_tilecache_build_tile(tc, 0, a, need, &size), WF_OK);
    assert_int_equal(size, need);
    assert_int_equal(wf_tile_validate(a, size), WF_OK);
    assert_int_equal(wf_tilecache_build_tile(tc, 0, b, need, &size), WF_OK);
    assert_memory_equal(a, b, need);
    assert_int_equal(wf_tilecache_build_tile(tc, 4, a, need, &size), WF_ERR_NOT_FOUND);
    wf_assert_fn* hook = wf_set_assert_hook(test_ignore_assert);
    assert_int_equal(wf_tilecache_build_tile(tc, 0, a + 1, need - 1, &size), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_tilecache_build_navmesh(tc, NULL), WF_ERR_INVALID_ARG);
    // A mesh whose tile grid is not the cache's.
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    md.tile_width = md.tile_depth = 3.0f;
    wf_mesh* other = NULL;
    assert_int_equal(wf_mesh_create(&md, &other), WF_OK);
    assert_int_equal(wf_tilecache_build_navmesh(tc, other), WF_ERR_INVALID_ARG);
    wf_set_assert_hook(hook);
    wf_mesh_destroy(other);
    test_mesh_matches(tc, mesh);
    // A cache with no layers matches any mesh.
    wf_tilecache* empty = make_cache(&p, &c);
    md.tile_width = md.tile_depth = 3.0f;
    assert_int_equal(wf_mesh_create(&md, &other), WF_OK);
    assert_false(wf_tilecache_mesh_matches(tc, other));
    assert_true(wf_tilecache_mesh_matches(empty, other));
    wf_mesh_destroy(other);
    wf_tilecache_destroy(empty);
    free(a);
    free(b);
    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(tc);
    free(s);
    assert_int_equal(counting_allocator_live(&c), 0);
}

/// A convex volume paints area 7 over [1, 3] x [1, 3]: polygons there carry
/// it, polygons elsewhere keep area 0.
static void test_convex_volume_paints_area(void** state) {
    (void)state;
    wf_tilecache_params p;
    test_scene* s = floor_in_bounds(&p);
    wf_tilecache* tc = make_cache(&p, NULL);
    wf_vec3 outline[4] = {wf_v3(1, 0, 1), wf_v3(1, 0, 3), wf_v3(3, 0, 3), wf_v3(3, 0, 1)};
    wf_convex_volume v = {outline, 4, -1.0f, 1.0f, 7};
    assert_int_equal(wf_tilecache_build_geom(tc, scene_geom(s), &v, 1), WF_OK);
    wf_mesh* mesh = make_mesh(tc);
    assert_int_equal(wf_tilecache_build_navmesh(tc, mesh), WF_OK);
    wf_query* q = NULL;
    assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = mesh}, &q), WF_OK);
    uint8_t area = 0xff;
    assert_int_equal(wf_mesh_get_poly_area(mesh, nearest(q, wf_v3(2.0f, 0.25f, 2.0f)), &area),
                     WF_OK);
    assert_int_equal(area, 7);
    assert_int_equal(wf_mesh_get_poly_area(mesh, nearest(q, wf_v3(6.0f, 0.25f, 6.0f)), &area),
                     WF_OK);
    assert_int_equal(area, 0);
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(tc);
    free(s);
}

/// A 4 x 4 m tile holding 64 pillars, each inside one cell (clear of the
/// cell's edges, so conservative rasterization marks only that cell): far
/// more polygons than the per-worker staging buffer holds, so the blob is
/// built again at its size.
static void test_blob_larger_than_staging(void** state) {
    (void)state;
    wf_tilecache_params p;
    test_scene* s = floor_in_bounds(&p);
    for (int z = 0; z < 8; ++z) {
        for (int x = 0; x < 8; ++x) {
            float x0 = 0.3f + 0.5f * (float)x, z0 = 0.3f + 0.5f * (float)z;
            scene_box(s, x0, -0.5f, z0, x0 + 0.15f, 3.0f, z0 + 0.15f);
        }
    }
    p.agent_radius = 0.0f;
    p.min_region_area = 0;
    p.merge_region_area = 0;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tilecache* tc = make_cache(&p, &c);
    assert_int_equal(wf_tilecache_build_geom(tc, scene_geom(s), NULL, 0), WF_OK);
    assert_int_equal(layer_info(tc, 0).walkable_cells, 256 - 64);
    size_t need = 0;
    assert_int_equal(wf_tilecache_build_tile(tc, 0, NULL, 0, &need), WF_ERR_CAPACITY);
    assert_true(need > tc->staging_bytes);
    wf_mesh* mesh = make_mesh(tc);
    assert_int_equal(wf_tilecache_build_navmesh(tc, mesh), WF_OK);
    wf_tile_ref t;
    wf_tile_info info;
    assert_int_equal(wf_mesh_find_tile(mesh, 0, 0, 0, &t), WF_OK);
    assert_int_equal(wf_mesh_get_tile_info(mesh, t, &info), WF_OK);
    assert_int_equal(info.data_size, need);
    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(tc);
    free(s);
    assert_int_equal(counting_allocator_live(&c), 0);
}

// A flat 48 x 48 tile whose cells alternate between two area ids: every
// cell becomes its own region and polygon, far more than the 64 KiB worker
// scratch holds. The layer is built after the parallel pass in a full-size
// arena, counted in the stats, and the mesh gets all of it.
static void test_hostile_layer_outgrows_worker_scratch(void** state) {
    (void)state;
    enum { N = 48 };
    static uint8_t walkable[N * N];
    static uint8_t areas[N * N];
    for (int z = 0; z < N; ++z) {
        for (int x = 0; x < N; ++x) {
            walkable[z * N + x] = 1;
            areas[z * N + x] = (uint8_t)((x + z) & 1);
        }
    }
    wf_grid grid;
    memset(&grid, 0, sizeof grid);
    grid.width = N;
    grid.depth = N;
    grid.cell_size = 1.0f;
    grid.origin = wf_v3(0, -1.0f, 0);
    grid.walkable = walkable;
    grid.areas = areas;
    wf_tilecache_params p = wf_tilecache_params_recast_demo();
    p.cell_size = 1.0f;
    p.agent_radius = 0.0f;
    p.min_region_area = 0;
    p.merge_region_area = 0;
    p.bmin = wf_v3(0, -2, 0);
    p.bmax = wf_v3(N, 3, N);
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tilecache* tc = make_cache(&p, &c);
    assert_int_equal(wf_tilecache_build_grid(tc, grid), WF_OK);
    wf_tilecache_stats st = wf_tilecache_get_stats(tc);
    assert_true(st.scratch_bytes_per_worker <= (size_t)64 << 10);
    wf_mesh* mesh = make_mesh(tc);
    assert_int_equal(wf_tilecache_build_navmesh(tc, mesh), WF_OK);
    st = wf_tilecache_get_stats(tc);
    assert_true(st.oversize_layers >= 1);
    // One polygon per cell: no two neighbouring cells share an area.
    assert_int_equal(wf_mesh_get_stats(mesh).poly_count, N * N);
    wf_query* q = NULL;
    assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = mesh}, &q), WF_OK);
    wf_query_filter f = wf_query_filter_defaults();
    for (int z = 0; z < N; z += 5) {
        for (int x = 0; x < N; x += 3) {
            wf_poly_ref r;
            wf_vec3 at;
            assert_int_equal(
                wf_query_find_nearest_poly(q, wf_v3((float)x + 0.5f, -1.0f, (float)z + 0.5f),
                                           wf_v3(0.1f, 0.5f, 0.1f), &f, &r, &at),
                WF_OK);
            uint8_t area = 99;
            assert_int_equal(wf_mesh_get_poly_area(mesh, r, &area), WF_OK);
            assert_int_equal(area, areas[z * N + x]);
        }
    }
    // build_tile falls back the same way.
    size_t need = 0;
    assert_int_equal(wf_tilecache_build_tile(tc, 0, NULL, 0, &need), WF_ERR_CAPACITY);
    assert_true(need > 0);
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(tc);
    assert_int_equal(counting_allocator_live(&c), 0);
}

/* ---------------------------------------------------------------------------
 * Allocation failures and worker counts
 */

static void test_out_of_memory(void** state) {
    (void)state;
    wf_tilecache_params p;
    test_scene* flat = floor_in_bounds(&p);
    test_scene* two = floor_and_platform(&p);
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = p;
    d.logger.quiet = true;
    bool built = false;
    for (unsigned long k = 1; !built; ++k) {
        counting_allocator c;
        counting_allocator_init(&c);
        d.allocator = counting_allocator_hooks(&c);
        wf_tilecache* tc = NULL;
        wf_mesh* mesh = NULL;
        wf_status s = wf_tilecache_create(&d, &tc);
        if (s == WF_OK) {
            s = wf_tilecache_build_geom(tc, scene_geom(flat), NULL, 0);
        }
        if (s == WF_OK) {
            // From here on, the k-th allocation fails.
            c.fail_at = atomic_load(&c.attempt) + k;
            s = wf_tilecache_build_geom(tc, scene_geom(two), NULL, 0);
            assert_true(s == WF_OK || s == WF_ERR_OUT_OF_MEMORY);
            assert_int_equal(wf_tilecache_layer_count(tc), s == WF_OK ? 5 : 4);
            wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
            if (s == WF_OK && (s = wf_mesh_create(&md, &mesh)) == WF_OK) {
                s = wf_tilecache_build_navmesh(tc, mesh);
                // A failed pass adds nothing.
                assert_int_equal(wf_mesh_get_stats(mesh).tile_count, s == WF_OK ? 5 : 0);
            }
            built = s == WF_OK;
        } else {
            assert_int_equal(s, WF_ERR_OUT_OF_MEMORY);
        }
        if (!built) {
            assert_int_equal(s, WF_ERR_OUT_OF_MEMORY);
        }
        wf_mesh_destroy(mesh);
        wf_tilecache_destroy(tc);
        assert_int_equal(counting_allocator_live(&c), 0);
        assert_int_equal(atomic_load(&c.size_mismatches), 0);
        assert_true(k < 10000);
    }
    free(flat);
    free(two);
}

typedef struct build_bytes {
    unsigned char* cache;
    size_t cache_size;
    unsigned char* mesh;
    size_t mesh_size;
    uint32_t layers;
} build_bytes;

static build_bytes build_level(const test_scene* s, wf_job_system jobs) {
    wf_tilecache_params p = scene_params();
    wf_tilecache* tc = make_cache_with(&p, NULL, jobs, 0);
    assert_int_equal(wf_tilecache_build_geom(tc, scene_geom(s), NULL, 0), WF_OK);
    build_bytes out;
    out.layers = wf_tilecache_layer_count(tc);
    assert_int_equal(wf_tilecache_save_size(tc, &out.cache_size), WF_OK);
    out.cache = malloc(out.cache_size);
    assert_int_equal(wf_tilecache_save(tc, out.cache, out.cache_size), WF_OK);
    wf_mesh* mesh = make_mesh(tc);
    assert_true(wf_succeeded(wf_tilecache_build_navmesh(tc, mesh)));
    assert_int_equal(wf_mesh_save_size(mesh, &out.mesh_size), WF_OK);
    out.mesh = malloc(out.mesh_size);
    assert_int_equal(wf_mesh_save(mesh, out.mesh, out.mesh_size), WF_OK);
    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(tc);
    return out;
}

static void test_same_bytes_for_any_worker_count(void** state) {
    (void)state;
    test_scene* s = scene_new();
    scene_level(s, 24, 7);
    wf_job_system inline_jobs = {0, NULL, NULL, NULL};
    build_bytes ref = build_level(s, inline_jobs);
    // 6 x 6 tiles; the two bridges give tiles a second layer.
    assert_true(ref.layers > 36);
    for (uint32_t threads = 1; threads <= 3; ++threads) {
        wf_thread_pool* pool = NULL;
        wf_thread_pool_desc pd;
        memset(&pd, 0, sizeof pd);
        pd.thread_count = threads;
        assert_int_equal(wf_thread_pool_create(&pd, &pool), WF_OK);
        build_bytes got = build_level(s, wf_thread_pool_job_system(pool));
        wf_thread_pool_destroy(pool);
        assert_int_equal(got.layers, ref.layers);
        assert_int_equal(got.cache_size, ref.cache_size);
        assert_memory_equal(got.cache, ref.cache, ref.cache_size);
        assert_int_equal(got.mesh_size, ref.mesh_size);
        assert_memory_equal(got.mesh, ref.mesh, ref.mesh_size);
        free(got.cache);
        free(got.mesh);
    }
    free(ref.cache);
    free(ref.mesh);
    free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recast_demo_params),
        cmocka_unit_test(test_params_whose_cell_lengths_overflow),
        cmocka_unit_test(test_create_rejects_bad_desc),
        cmocka_unit_test(test_params_whose_sizes_overflow),
        cmocka_unit_test(test_floor_inside_bounds),
        cmocka_unit_test(test_floating_floor_is_eroded),
        cmocka_unit_test(test_platform_gives_second_layer),
        cmocka_unit_test(test_stacked_floors_outgrow_first_guess),
        cmocka_unit_test(test_max_layers_keeps_previous_content),
        cmocka_unit_test(test_bad_geometry),
        cmocka_unit_test(test_grid_build),
        cmocka_unit_test(test_voxel_build),
        cmocka_unit_test(test_navmesh_from_cache),
        cmocka_unit_test(test_convex_volume_paints_area),
        cmocka_unit_test(test_blob_larger_than_staging),
        cmocka_unit_test(test_hostile_layer_outgrows_worker_scratch),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_same_bytes_for_any_worker_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
