// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Hostile input costs in proportion to what it can honestly mean: three
// small inputs that ask for huge work (a 58-byte OBJ of a 29.5 km square,
// 1,023 copies of one big triangle, a cache of layers whose areas
// alternate per cell) are refused with WF_ERR_CAPACITY before the work, by
// limits the desc can raise; triangles are binned only into the tiles
// they overlap.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "wayfarer/tilecache.h"

/// The last error logged, so tests can check it names the limit.
static char g_last_log[512];

static void capture(wf_log_level level, const char* message, void* user) {
    (void)level;
    (void)user;
    snprintf(g_last_log, sizeof g_last_log, "%s", message);
}

static wf_tilecache_desc demo_desc(void) {
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = wf_tilecache_params_recast_demo();
    d.logger = (wf_logger){capture, NULL, false};
    return d;
}

static wf_geom_data* load_obj(const char* text, size_t size) {
    wf_geom_data* g = NULL;
    assert_int_equal(wf_geom_load_obj(text, size, &(wf_geom_load_desc){0}, &g), WF_OK);
    return g;
}

/// A 58-byte OBJ: one square of 29.49 km (4.19 million tiles of
/// 14.4 m with the demo settings, just within WF_TILECACHE_MAX_TILES). It
/// built for 20 minutes toward a 570 MB file; now the tile count is
/// refused before anything is allocated.
static const char k_square_obj[] =
    "v 0 0 0\nv 29490 0 0\nv 29490 0 29490\nv 0 0 29490\nf 1 2 3 4\n";

static void huge_square_is_refused_before_the_work(void** state) {
    (void)state;
    assert_int_equal(sizeof k_square_obj - 1u, 58u);
    wf_geom_data* g = load_obj(k_square_obj, sizeof k_square_obj - 1u);
    wf_tilecache_desc d = demo_desc();
    wf_tilecache* tc = NULL;
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    g_last_log[0] = 0;
    assert_int_equal(wf_tilecache_build_geom(tc, wf_geom_data_view(g), NULL, 0), WF_ERR_CAPACITY);
    assert_non_null(strstr(g_last_log, "max_tiles"));
    assert_non_null(strstr(g_last_log, "4194304"));
    assert_int_equal(wf_tilecache_layer_count(tc), 0);
    // The plan says the same without building.
    wf_vec3 lo, hi;
    wf_geom view = wf_geom_data_view(g);
    assert_true(wf_geom_bounds(&view, &lo, &hi));
    wf_tilecache_build_plan plan;
    assert_int_equal(wf_tilecache_plan_build(tc, lo, hi, &plan), WF_ERR_CAPACITY);
    assert_int_equal(plan.tiles_x, 2048);
    assert_int_equal(plan.tiles_z, 2048);
    assert_true(plan.tiles == 2048u * 2048u);
    wf_tilecache_destroy(tc);

    // Raising max_tiles alone is not enough: the cells are over too.
    d.max_tiles = WF_TILECACHE_MAX_TILES;
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    g_last_log[0] = 0;
    assert_int_equal(wf_tilecache_build_geom(tc, view, NULL, 0), WF_ERR_CAPACITY);
    assert_non_null(strstr(g_last_log, "max_cells"));
    wf_tilecache_destroy(tc);
    wf_geom_data_destroy(g);
}

/// 1,023 copies of one triangle of `size` m as OBJ text.
static char* repeated_triangle_obj(float size, uint32_t copies, size_t* out_size) {
    size_t cap = 128u + 16u * copies;
    char* text = malloc(cap);
    assert_non_null(text);
    int n = snprintf(text, cap, "v 0 0 0\nv %g 0 0\nv 0 0 %g\n", (double)size, (double)size);
    for (uint32_t i = 0; i < copies; ++i) {
        n += snprintf(text + n, cap - (size_t)n, "f 1 3 2\n");
    }
    *out_size = (size_t)n;
    return text;
}

static void repeated_triangle_is_refused_by_its_raster_cells(void** state) {
    (void)state;
    size_t size = 0;
    char* text = repeated_triangle_obj(300.0f, 1023, &size);
    assert_true(size > 8000u && size < 8300u); // a small file: about 8 KB
    wf_geom_data* g = load_obj(text, size);
    free(text);
    wf_tilecache_desc d = demo_desc();
    wf_tilecache* tc = NULL;
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    g_last_log[0] = 0;
    assert_int_equal(wf_tilecache_build_geom(tc, wf_geom_data_view(g), NULL, 0), WF_ERR_CAPACITY);
    assert_non_null(strstr(g_last_log, "max_cells"));
    assert_int_equal(wf_tilecache_layer_count(tc), 0);
    // With max_cells out of the way the pairs are the limit.
    wf_tilecache_destroy(tc);
    d.max_cells = UINT64_MAX;
    d.max_triangle_refs = 1000;
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    assert_int_equal(wf_tilecache_build_geom(tc, wf_geom_data_view(g), NULL, 0), WF_ERR_CAPACITY);
    assert_non_null(strstr(g_last_log, "max_triangle_refs"));
    wf_tilecache_destroy(tc);
    wf_geom_data_destroy(g);

    // One copy is a real level of 21 x 21 tiles: it builds, and the
    // triangle is binned into the tiles under it (about half the box).
    text = repeated_triangle_obj(300.0f, 1, &size);
    g = load_obj(text, size);
    free(text);
    d = demo_desc();
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    assert_int_equal(wf_tilecache_build_geom(tc, wf_geom_data_view(g), NULL, 0), WF_OK);
    wf_tilecache_stats st = wf_tilecache_get_stats(tc);
    assert_true(st.triangle_refs >= 21u * 22u / 2u && st.triangle_refs < 21u * 21u * 3u / 4u);
    assert_true(st.build_cells == 21u * 21u * 58u * 58u);
    wf_tilecache_destroy(tc);
    wf_geom_data_destroy(g);
}

/// A long thin triangle along the diagonal of n x n tiles: binned into
/// O(n) tiles, not the n^2 of its box.
static void diagonal_triangle_is_binned_into_o_n_tiles(void** state) {
    (void)state;
    const uint32_t n = 64;
    wf_tilecache_desc d = demo_desc();
    d.params.cell_size = 1.0f;
    d.params.tile_size = 8; // 8 m tiles, border of 4 cells
    float w = 8.0f * (float)n;
    const float verts[] = {0.0f, 0.0f, 0.0f, w, 0.0f, w, w, 0.0f, w - 0.5f};
    const uint32_t tris[] = {0, 1, 2};
    wf_geom geom = {verts, 3, tris, 1, NULL, NULL, 0};
    wf_tilecache* tc = NULL;
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    assert_int_equal(wf_tilecache_build_geom(tc, geom, NULL, 0), WF_OK);
    wf_tilecache_stats st = wf_tilecache_get_stats(tc);
    // Triangles are binned into tile squares (a tile's border comes from
    // its neighbours' squares, span_pieces.h), so the diagonal meets the
    // squares on it and, at their corners within the epsilon, one each
    // side per row: 3n + 4 (5n - 6 when whole bordered tiles were binned),
    // never the n^2 = 4096 of the box.
    assert_true(st.triangle_refs >= 3u * n);
    assert_true(st.triangle_refs <= 3u * n + 8u);
    wf_tilecache_destroy(tc);
}

/// Pairs binned for `tri_count` triangles of `verts` in a cache with the
/// bounds 0 .. 9.6 m (2 x 2 tiles of 16 cells at 0.3 m, a border of 1.5 m).
static uint64_t refs_in_bounds(const float* verts, uint32_t tri_count) {
    wf_tilecache_desc d = demo_desc();
    d.params.tile_size = 16;
    d.params.bmin = wf_v3(0.0f, -1.0f, 0.0f);
    d.params.bmax = wf_v3(9.6f, 5.0f, 9.6f);
    const uint32_t tris[] = {0, 1, 2, 0, 2, 3, 4, 5, 6};
    wf_geom geom = {verts, tri_count == 3u ? 7u : 4u, tris, tri_count, NULL, NULL, 0};
    wf_tilecache* tc = NULL;
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    assert_int_equal(wf_tilecache_build_geom(tc, geom, NULL, 0), WF_OK);
    const uint64_t refs = wf_tilecache_get_stats(tc).triangle_refs;
    wf_tilecache_destroy(tc);
    return refs;
}

/// Past the grid, a triangle goes only to the border strips (1.5 m deep
/// here), not to the whole tile squares beyond them: one lying 2 m past
/// the bounds (a level cut by explicit bounds) is binned nowhere.
static void triangles_past_the_border_are_binned_nowhere(void** state) {
    (void)state;
    const float verts[] = {1,     0, 1, 1,     0, 8, 8,     0, 8, 8, 0, 1, // a floor inside
                           11.6f, 0, 2, 11.6f, 0, 3, 12.5f, 0, 2};
    const uint64_t floor_only = refs_in_bounds(verts, 2);
    assert_true(floor_only >= 8u); // the floor's two triangles in the 2 x 2 squares
    assert_int_equal(refs_in_bounds(verts, 3), floor_only);
}

/// Layers whose areas alternate per cell: every cell its own region and
/// polygon. `tiles` x `tiles` tiles of tile_size cells, one layer each.
static wf_tilecache* alternating_cache(uint32_t tiles, uint32_t tile_size, uint64_t max_bytes) {
    uint32_t side = tiles * tile_size;
    uint8_t* walkable = malloc((size_t)side * side);
    uint8_t* areas = malloc((size_t)side * side);
    assert_non_null(walkable);
    assert_non_null(areas);
    for (uint32_t i = 0; i < side * side; ++i) {
        walkable[i] = 1;
        areas[i] = (uint8_t)(1u + (i % side + i / side) % 2u);
    }
    wf_tilecache_desc d = demo_desc();
    d.params.cell_size = 1.0f;
    d.params.agent_radius = 0.0f;
    d.params.tile_size = tile_size;
    d.params.min_region_area = 0;
    d.params.merge_region_area = 0;
    d.max_navmesh_bytes = max_bytes;
    wf_tilecache* tc = NULL;
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    wf_grid grid = {
        .width = side, .depth = side, .cell_size = 1.0f, .walkable = walkable, .areas = areas};
    assert_int_equal(wf_tilecache_build_grid(tc, grid), WF_OK);
    assert_int_equal(wf_tilecache_layer_count(tc), tiles * tiles);
    free(walkable);
    free(areas);
    return tc;
}

/// Saves the cache and loads it back with the given navmesh byte limit.
static wf_tilecache* reload(const wf_tilecache* tc, uint64_t max_bytes, size_t* out_file_size) {
    size_t size = 0;
    assert_int_equal(wf_tilecache_save_size(tc, &size), WF_OK);
    void* file = malloc(size);
    assert_non_null(file);
    assert_int_equal(wf_tilecache_save(tc, file, size), WF_OK);
    wf_tilecache_desc d = demo_desc();
    d.max_navmesh_bytes = max_bytes;
    wf_tilecache* loaded = NULL;
    assert_int_equal(wf_tilecache_load(&d, file, size, &loaded), WF_OK);
    free(file);
    *out_file_size = size;
    return loaded;
}

static uint64_t navmesh_bytes(wf_tilecache* tc, wf_status* out_status) {
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    size_t empty = wf_mesh_get_stats(mesh).memory_bytes; // bookkeeping, fixed at creation
    *out_status = wf_tilecache_build_navmesh(tc, mesh);
    uint64_t bytes = wf_mesh_get_stats(mesh).memory_bytes - empty; // the owned blobs
    wf_mesh_destroy(mesh);
    return bytes;
}

/// A cache of layers whose areas alternate per cell (at full size 196
/// layers, a 72 KB file that became a 612 MB navmesh), small: 4 layers of
/// 64 x 64 make a file of a few KB and a navmesh of hundreds of KB, about
/// 100 times the file. With a byte limit below that the navmesh build is refused, the
/// mesh unchanged; at the default it builds (it is honest at this size).
static void alternating_areas_cache_is_bounded(void** state) {
    (void)state;
    wf_tilecache* built = alternating_cache(2, 64, 0);
    size_t file_size = 0;
    wf_tilecache* tc = reload(built, 0, &file_size);
    wf_status s;
    uint64_t full = navmesh_bytes(tc, &s);
    assert_int_equal(s, WF_OK);
    assert_true(full > 50u * file_size); // the blow-up the limit is for
    wf_tilecache_destroy(tc);

    tc = reload(built, full / 2u, &file_size);
    g_last_log[0] = 0;
    assert_int_equal(navmesh_bytes(tc, &s), 0);
    assert_int_equal(s, WF_ERR_CAPACITY);
    assert_non_null(strstr(g_last_log, "max_navmesh_bytes"));
    wf_tilecache_destroy(tc);
    // Exactly the bytes it needs is enough.
    tc = reload(built, full, &file_size);
    assert_int_equal(navmesh_bytes(tc, &s), full);
    assert_int_equal(s, WF_OK);
    wf_tilecache_destroy(tc);
    wf_tilecache_destroy(built);
}

/// A cache file whose tile grid is more than the loading desc's max_tiles.
static void load_refuses_a_grid_above_max_tiles(void** state) {
    (void)state;
    wf_tilecache* built = alternating_cache(2, 16, 0);
    size_t size = 0;
    assert_int_equal(wf_tilecache_save_size(built, &size), WF_OK);
    void* file = malloc(size);
    assert_non_null(file);
    assert_int_equal(wf_tilecache_save(built, file, size), WF_OK);
    wf_tilecache_desc d = demo_desc();
    d.max_tiles = 3;
    wf_tilecache* tc = NULL;
    g_last_log[0] = 0;
    assert_int_equal(wf_tilecache_load(&d, file, size, &tc), WF_ERR_CAPACITY);
    assert_null(tc);
    assert_non_null(strstr(g_last_log, "max_tiles"));
    d.max_tiles = 4;
    assert_int_equal(wf_tilecache_load(&d, file, size, &tc), WF_OK);
    wf_tilecache_destroy(tc);
    free(file);
    wf_tilecache_destroy(built);
}

/// The plan agrees with what a build does and its limits are the desc's.
static void plan_matches_the_build(void** state) {
    (void)state;
    wf_tilecache_desc d = demo_desc();
    wf_tilecache* tc = NULL;
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    wf_tilecache_build_plan plan;
    assert_int_equal(wf_tilecache_plan_build(tc, wf_v3(0, 0, 0), wf_v3(30, 1, 15), &plan), WF_OK);
    assert_int_equal(plan.tiles_x, 3); // 30 m / 14.4 m
    assert_int_equal(plan.tiles_z, 2);
    assert_true(plan.tiles == 6u && plan.cells == 6u * 58u * 58u);
    assert_int_equal(wf_tilecache_plan_build(tc, wf_v3(0, 0, 0), wf_v3(NAN, 1, 15), &plan),
                     WF_ERR_INVALID_ARG);
    wf_tilecache_destroy(tc);
    d.max_cells = 5u * 58u * 58u;
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    g_last_log[0] = 0;
    assert_int_equal(wf_tilecache_plan_build(tc, wf_v3(0, 0, 0), wf_v3(30, 1, 15), &plan),
                     WF_ERR_CAPACITY);
    assert_true(plan.tiles == 6u); // still filled
    assert_non_null(strstr(g_last_log, "max_cells"));
    wf_tilecache_destroy(tc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(huge_square_is_refused_before_the_work),
        cmocka_unit_test(repeated_triangle_is_refused_by_its_raster_cells),
        cmocka_unit_test(diagonal_triangle_is_binned_into_o_n_tiles),
        cmocka_unit_test(triangles_past_the_border_are_binned_nowhere),
        cmocka_unit_test(alternating_areas_cache_is_bounded),
        cmocka_unit_test(load_refuses_a_grid_above_max_tiles),
        cmocka_unit_test(plan_matches_the_build),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
