// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Tiles meet at their seams: every seam of every test level (the Recast
// levels, a grid and a voxel world, the demo level) probed with
// wf_query_check_mesh for tile sizes 8 to 255, before and after 50
// obstacles carved across seams: no ray between two tiles stops at a wall
// where both reach the seam; links point both ways, polygons are convex. The Recast levels skip without ../shared/testdata.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_files.h"
#include "test_hooks.h"
#include "tools/demo_level.h"
#include "wayfarer/mesh_check.h"
#include "wayfarer/query.h"
#include "wayfarer/rng.h"
#include "wayfarer/tilecache.h"

static const uint32_t tile_sizes[] = {8, 16, 24, 32, 48, 64, 96, 128, 255};
#define TILE_SIZE_COUNT (sizeof tile_sizes / sizeof tile_sizes[0])
#define OBSTACLES 50u

typedef struct level_input {
    const char* name;
    wf_geom geom;
    const wf_grid* grid;
    const wf_voxels* voxels;
} level_input;

typedef struct totals {
    uint64_t probes, stopped;
} totals;

static void print_issue(const wf_mesh_issue* issue, void* user) {
    const char* name = user;
    printf("  %s: kind %d from (%.3f %.3f %.3f) to (%.3f %.3f %.3f) t %.3f\n", name,
           (int)issue->kind, issue->a.x, issue->a.y, issue->a.z, issue->b.x, issue->b.y, issue->b.z,
           issue->t);
}

static void check(wf_query* q, const char* name, uint32_t tile_size, const char* phase, float climb,
                  totals* t) {
    wf_mesh_check_desc d = {.max_climb = climb, .on_issue = print_issue, .user = (void*)name};
    wf_mesh_check_report r;
    assert_int_equal(wf_query_check_mesh(q, &d, &r), WF_OK);
    printf("%s tile %u %s: %u probes, %u blocked, %u grazing, %u offset, %u links, %u polys\n",
           name, tile_size, phase, r.seam_probes, r.seam_blocked, r.seam_grazing, r.seam_offset,
           r.links_checked, r.polys_checked);
    assert_int_equal(r.seam_blocked, 0);
    assert_int_equal(r.one_way_links, 0);
    assert_int_equal(r.loose_offmesh_links, 0);
    assert_int_equal(r.non_convex_polys, 0);
    t->probes += r.seam_probes;
    t->stopped += r.seam_grazing + r.seam_offset;
}

/// Cylinders centred on seams at random walkable points.
static void carve_across_seams(wf_tilecache* tc, wf_mesh* mesh, wf_query* q) {
    wf_rng rng = wf_rng_make(11, 0);
    wf_query_filter filter = wf_query_filter_defaults();
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    uint32_t added = 0;
    for (uint32_t tries = 0; added < OBSTACLES && tries < 100u * OBSTACLES; ++tries) {
        wf_poly_ref ref;
        wf_vec3 p;
        assert_int_equal(wf_query_find_random_point(q, &filter, &rng, &ref, &p), WF_OK);
        float fx = (p.x - md.origin.x) / md.tile_width, fz = (p.z - md.origin.z) / md.tile_depth;
        if (fabsf(fx - roundf(fx)) * md.tile_width < fabsf(fz - roundf(fz)) * md.tile_depth) {
            p.x = md.origin.x + roundf(fx) * md.tile_width;
        } else {
            p.z = md.origin.z + roundf(fz) * md.tile_depth;
        }
        wf_obstacle_desc d;
        memset(&d, 0, sizeof d);
        d.shape = WF_OBSTACLE_CYLINDER;
        d.position = p;
        d.radius = 0.5f + 1.5f * (float)wf_rng_next_u32(&rng) / 4294967296.0f;
        d.height = 2.0f;
        wf_obstacle_id id;
        wf_status st = wf_tilecache_add_obstacle(tc, &d, &id);
        assert_true(st == WF_OK || st == WF_ERR_NOT_FOUND);
        added += st == WF_OK;
    }
    wf_tilecache_update_result r = {0};
    for (uint32_t calls = 0; !r.up_to_date; ++calls) {
        assert_true(calls < 10000u);
        assert_true(wf_tilecache_update(tc, mesh, &(wf_tilecache_budget){0}, &r) >= 0);
    }
}

static void probe_level(const level_input* in, wf_tilecache_params base) {
    totals t = {0, 0};
    for (size_t i = 0; i < TILE_SIZE_COUNT; ++i) {
        wf_tilecache_params p = base;
        p.tile_size = tile_sizes[i];
        wf_tilecache* tc = NULL;
        wf_tilecache_desc td = {.params = p};
        td.logger.quiet = true;
        assert_int_equal(wf_tilecache_create(&td, &tc), WF_OK);
        wf_status st = in->grid != NULL     ? wf_tilecache_build_grid(tc, *in->grid)
                       : in->voxels != NULL ? wf_tilecache_build_voxels(tc, *in->voxels)
                                            : wf_tilecache_build_geom(tc, in->geom, NULL, 0);
        assert_int_equal(st, WF_OK);
        wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
        wf_mesh* mesh = NULL;
        assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
        assert_true(wf_tilecache_build_navmesh(tc, mesh) >= 0);
        wf_query* q = NULL;
        assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = mesh}, &q), WF_OK);
        check(q, in->name, p.tile_size, "built", p.agent_climb, &t);
        carve_across_seams(tc, mesh, q);
        check(q, in->name, p.tile_size, "carved", p.agent_climb, &t);
        wf_query_destroy(q);
        wf_mesh_destroy(mesh);
        wf_tilecache_destroy(tc);
    }
    printf("%s: %llu probes, none blocked, %llu stopped by the level (grazing or offset)\n",
           in->name, (unsigned long long)t.probes, (unsigned long long)t.stopped);
    assert_true(t.probes > 0);
}

static void recast_level(const char* file) {
    char path[256];
    snprintf(path, sizeof path, WF_TESTDATA_DIR "/recast/meshes/%s", file);
    size_t size = 0;
    char* text = test_read_file(path, &size);
    if (text == NULL) {
        skip();
    }
    wf_geom_data* geom = NULL;
    assert_int_equal(wf_geom_load_obj(text, size, &(wf_geom_load_desc){0}, &geom), WF_OK);
    free(text);
    level_input in = {.name = file, .geom = wf_geom_data_view(geom)};
    probe_level(&in, wf_tilecache_params_recast_demo());
    wf_geom_data_destroy(geom);
}

static void test_nav_test(void** state) {
    (void)state;
    recast_level("nav_test.obj");
}
static void test_dungeon(void** state) {
    (void)state;
    recast_level("dungeon.obj");
}
static void test_undulating(void** state) {
    (void)state;
    recast_level("undulating.obj");
}

/// A 96 x 96 m grid of 0.5 m cells with walls, pillars and random rubble
/// (fixed seed), and gentle hills.
static void test_grid(void** state) {
    (void)state;
    enum { N = 192 };
    uint8_t* walkable = malloc(N * N);
    float* heights = malloc(sizeof(float) * N * N);
    wf_rng rng = wf_rng_make(5, 1);
    for (uint32_t z = 0; z < N; ++z) {
        for (uint32_t x = 0; x < N; ++x) {
            bool wall = (x % 40u == 20u && z % 30u > 4u) || (z % 50u == 10u && x % 35u > 6u);
            bool rubble = wf_rng_next_u32(&rng) % 100u < 2u;
            walkable[z * N + x] = !(wall || rubble);
            heights[z * N + x] = 0.8f * sinf((float)x * 0.05f) * cosf((float)z * 0.04f);
        }
    }
    wf_grid g = {
        .width = N, .depth = N, .cell_size = 0.5f, .walkable = walkable, .heights = heights};
    level_input in = {.name = "grid", .grid = &g};
    wf_tilecache_params p = wf_tilecache_params_recast_demo();
    probe_level(&in, p);
    free(walkable);
    free(heights);
}

/// Voxel terraces: steps of one cube (within the climb) and blocks.
static void test_voxels(void** state) {
    (void)state;
    enum { SX = 120, SY = 6, SZ = 120 };
    uint8_t* solid = calloc(SX * SY * SZ, 1);
    for (uint32_t z = 0; z < SZ; ++z) {
        for (uint32_t x = 0; x < SX; ++x) {
            uint32_t top = 1u + ((x / 17u + z / 23u) % 3u);
            if ((x / 9u) % 5u == 2u && (z / 7u) % 4u == 1u) {
                top = SY; // a block
            }
            for (uint32_t y = 0; y < top && y < SY; ++y) {
                solid[x + z * SX + y * SX * SZ] = 1;
            }
        }
    }
    wf_voxels v = {.size_x = SX, .size_y = SY, .size_z = SZ, .cube_size = 0.3f, .solid = solid};
    level_input in = {.name = "voxels", .voxels = &v};
    probe_level(&in, wf_tilecache_params_recast_demo());
    free(solid);
}

static void test_demo_level(void** state) {
    (void)state;
    demo_level level;
    assert_int_equal(demo_level_generate(1, &level), 0);
    level_input in = {.name = "demo", .geom = demo_level_geom(&level)};
    probe_level(&in, wf_tilecache_params_recast_demo());
    demo_level_free(&level);
}

/// The check itself: a bad setting is refused and changes nothing; on a
/// mesh whose seam links are cut, the probe finds the wall.
static void test_check_bad_input_and_cut_seam(void** state) {
    (void)state;
    enum { N = 64 };
    uint8_t walkable[N * N];
    memset(walkable, 1, sizeof walkable);
    wf_grid g = {.width = N, .depth = N, .cell_size = 0.5f, .walkable = walkable};
    wf_tilecache_params p = wf_tilecache_params_recast_demo();
    p.tile_size = 32;
    wf_tilecache* tc = NULL;
    wf_tilecache_desc td = {.params = p};
    td.logger.quiet = true;
    assert_int_equal(wf_tilecache_create(&td, &tc), WF_OK);
    assert_int_equal(wf_tilecache_build_grid(tc, g), WF_OK);
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    assert_true(wf_tilecache_build_navmesh(tc, mesh) >= 0);
    wf_query* q = NULL;
    assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = mesh}, &q), WF_OK);

    wf_mesh_check_report r;
    memset(&r, 0xab, sizeof r);
    wf_mesh_check_report before = r;
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    assert_int_equal(wf_query_check_mesh(q, &(wf_mesh_check_desc){.seam_offset = NAN}, &r),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_check_mesh(q, &(wf_mesh_check_desc){.seam_spacing = -1.0f}, &r),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_check_mesh(q, &(wf_mesh_check_desc){.seam_offset = 1e9f}, &r),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_check_mesh(NULL, &(wf_mesh_check_desc){0}, &r), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_check_mesh(q, NULL, &r), WF_ERR_INVALID_ARG);
    wf_set_assert_hook(previous);
    assert_memory_equal(&r, &before, sizeof r);

    assert_int_equal(wf_query_check_mesh(q, &(wf_mesh_check_desc){0}, &r), WF_OK);
    assert_true(r.seam_probes > 100u);
    assert_int_equal(r.issue_count, 0);
    assert_int_equal(r.seam_blocked, 0);

    // Take one tile out and put it back with its neighbours unlinked on
    // one side by closing its polygons' flags: the filter then refuses
    // them and the rays across stop at the seam.
    wf_tile_ref tiles[16];
    uint32_t n = wf_mesh_get_tiles(mesh, tiles, 16);
    assert_true(n >= 2u);
    wf_tile_info info;
    assert_int_equal(wf_mesh_get_tile_info(mesh, tiles[0], &info), WF_OK);
    for (uint32_t i = 0; i < info.poly_count; ++i) {
        assert_int_equal(wf_mesh_set_poly_flags(mesh, wf_mesh_poly_ref(mesh, tiles[0], i), 0),
                         WF_OK);
    }
    assert_int_equal(wf_query_check_mesh(q, &(wf_mesh_check_desc){0}, &r), WF_OK);
    assert_true(r.seam_blocked > 0u);
    assert_int_equal(r.issue_count, r.seam_blocked);

    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(tc);
}

/// A seam that once blocked: nav_test at the default tile size, flat
/// ground across the seam of tiles 37 and 38. Before the seams were fixed
/// the build stopped this ray at t = 0.51 and priced the way round at
/// 7.09 m for 0.8 m of line.
static void test_nav_test_example_crosses(void** state) {
    (void)state;
    size_t size = 0;
    char* text = test_read_file(WF_TESTDATA_DIR "/recast/meshes/nav_test.obj", &size);
    if (text == NULL) {
        skip();
    }
    wf_geom_data* geom = NULL;
    assert_int_equal(wf_geom_load_obj(text, size, &(wf_geom_load_desc){0}, &geom), WF_OK);
    free(text);
    wf_tilecache* tc = NULL;
    wf_tilecache_desc td = {.params = wf_tilecache_params_recast_demo()};
    td.logger.quiet = true;
    assert_int_equal(wf_tilecache_create(&td, &tc), WF_OK);
    assert_int_equal(wf_tilecache_build_geom(tc, wf_geom_data_view(geom), NULL, 0), WF_OK);
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    assert_true(wf_tilecache_build_navmesh(tc, mesh) >= 0);
    wf_query* q = NULL;
    assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = mesh}, &q), WF_OK);
    wf_query_filter f = wf_query_filter_defaults();
    wf_vec3 ext = wf_v3(2, 4, 2);
    wf_poly_ref ra, rb;
    wf_vec3 pa, pb;
    assert_int_equal(wf_query_find_nearest_poly(q, wf_v3(-14.9f, -2.27f, 15), ext, &f, &ra, &pa),
                     WF_OK);
    assert_int_equal(wf_query_find_nearest_poly(q, wf_v3(-14.1f, -2.27f, 15), ext, &f, &rb, &pb),
                     WF_OK);
    assert_true(wf_poly_ref_tile(ra) != wf_poly_ref_tile(rb)); // two tiles
    wf_raycast_hit hit;
    assert_int_equal(wf_query_raycast(q, ra, pa, pb, &f, NULL, 0, &hit), WF_OK);
    assert_true(hit.t > 1.0f);
    wf_poly_ref path[64];
    wf_path_result r;
    assert_int_equal(wf_query_find_path(q, ra, rb, pa, pb, &f, path, 64, &r), WF_OK);
    assert_true(r.cost < 0.81f);
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(tc);
    wf_geom_data_destroy(geom);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_bad_input_and_cut_seam),
        cmocka_unit_test(test_nav_test_example_crosses),
        cmocka_unit_test(test_grid),
        cmocka_unit_test(test_voxels),
        cmocka_unit_test(test_demo_level),
        cmocka_unit_test(test_nav_test),
        cmocka_unit_test(test_dungeon),
        cmocka_unit_test(test_undulating),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
