// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Point and box queries: nearest polygon, polygons in a box, closest point
// on a polygon and polygon height, on grids and hand-built tiles.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "test_grid_fixture.h"
#include "test_hooks.h"
#include "test_meshes.h"
#include "wayfarer/query.h"

#define N WF_NULL_INDEX

static void assert_vec_near(wf_vec3 got, float x, float y, float z) {
    const float eps = 1e-5f;
    if (fabsf(got.x - x) > eps || fabsf(got.y - y) > eps || fabsf(got.z - z) > eps) {
        fail_msg("got (%g, %g, %g), expected (%g, %g, %g)", (double)got.x, (double)got.y,
                 (double)got.z, (double)x, (double)y, (double)z);
    }
}

static wf_query* make_query(const wf_mesh* mesh, counting_allocator* counter) {
    wf_query_desc qd = {
        .mesh = mesh, .max_nodes = 256, .allocator = counting_allocator_hooks(counter)};
    wf_query* q = NULL;
    assert_int_equal(wf_query_create(&qd, &q), WF_OK);
    return q;
}

static wf_mesh* make_empty_mesh(float tile_size, counting_allocator* counter) {
    wf_mesh_desc md = {.tile_width = tile_size,
                       .tile_depth = tile_size,
                       .max_tiles = 16,
                       .allocator = counting_allocator_hooks(counter)};
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    return mesh;
}

static wf_tile_ref add_tile(wf_mesh* mesh, wf_tile_build_desc* d, counting_allocator* counter) {
    d->allocator = counting_allocator_hooks(counter);
    void* data = NULL;
    size_t size = 0;
    assert_int_equal(wf_tile_build(d, &data, &size), WF_OK);
    wf_tile_ref tile;
    assert_int_equal(
        wf_mesh_add_tile(mesh, data, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &tile), WF_OK);
    return tile;
}

static uint64_t min_bits(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* ---------------------------------------------------------------------------
 * 8 x 8 grid of unit cells in 2 x 2 tiles of 4 x 4 cells, y = 0.
 */

static int grid_setup(void** state) {
    static grid_fixture fx;
    grid_open(&fx, 2, 2, 4, 1.0f, NULL, NULL, 256);
    *state = &fx;
    return 0;
}

static int grid_teardown(void** state) {
    grid_close(*state);
    return 0;
}

static void test_point_over_a_polygon(void** state) {
    grid_fixture* fx = *state;
    wf_poly_ref ref;
    wf_vec3 p;
    assert_int_equal(wf_query_find_nearest_poly(fx->query, wf_v3(2.25f, 0.4f, 5.75f),
                                                wf_v3(0.5f, 1.0f, 0.5f), &fx->filter, &ref, &p),
                     WF_OK);
    assert_true(ref.bits == grid_cell(fx, 2, 5).bits);
    assert_vec_near(p, 2.25f, 0.0f, 5.75f); // straight below, on the floor
    // Same polygon in another tile (tile 1, 1), found from below the floor.
    assert_int_equal(wf_query_find_nearest_poly(fx->query, wf_v3(6.5f, -0.75f, 4.25f),
                                                wf_v3(0.25f, 1.0f, 0.25f), &fx->filter, &ref, &p),
                     WF_OK);
    assert_true(ref.bits == grid_cell(fx, 6, 4).bits);
    assert_vec_near(p, 6.5f, 0.0f, 4.25f);
    // out_point is optional.
    assert_int_equal(wf_query_find_nearest_poly(fx->query, wf_v3(0.5f, 0.0f, 0.5f),
                                                wf_v3(0.25f, 1.0f, 0.25f), &fx->filter, &ref, NULL),
                     WF_OK);
    assert_true(ref.bits == grid_cell(fx, 0, 0).bits);
}

static void test_point_outside_is_clamped_to_the_border(void** state) {
    grid_fixture* fx = *state;
    wf_poly_ref ref;
    wf_vec3 p;
    // Half a metre left of the mesh, level with cell (0, 3): the border
    // point (0, 0, 3.25) is 0.5 away; cells (0, 2) and (0, 4) are farther.
    assert_int_equal(wf_query_find_nearest_poly(fx->query, wf_v3(-0.5f, 0.0f, 3.25f),
                                                wf_v3(1.0f, 1.0f, 1.0f), &fx->filter, &ref, &p),
                     WF_OK);
    assert_true(ref.bits == grid_cell(fx, 0, 3).bits);
    assert_vec_near(p, 0.0f, 0.0f, 3.25f);
    // Beyond the far corner: the corner vertex of cell (7, 7).
    assert_int_equal(wf_query_find_nearest_poly(fx->query, wf_v3(9.0f, 0.5f, 8.5f),
                                                wf_v3(2.0f, 1.0f, 2.0f), &fx->filter, &ref, &p),
                     WF_OK);
    assert_true(ref.bits == grid_cell(fx, 7, 7).bits);
    assert_vec_near(p, 8.0f, 0.0f, 8.0f);
}

static void test_shared_edges_pick_the_lowest_ref(void** state) {
    grid_fixture* fx = *state;
    wf_vec3 ext = wf_v3(0.5f, 1.0f, 0.5f);
    wf_poly_ref ref;
    wf_vec3 p;
    // Edge inside tile (0, 0) between cells (0, 2) and (1, 2).
    assert_int_equal(
        wf_query_find_nearest_poly(fx->query, wf_v3(1.0f, 0.0f, 2.5f), ext, &fx->filter, &ref, &p),
        WF_OK);
    assert_true(ref.bits == min_bits(grid_cell(fx, 0, 2).bits, grid_cell(fx, 1, 2).bits));
    assert_vec_near(p, 1.0f, 0.0f, 2.5f);
    // Tile border x = 4 between cells (3, 1) and (4, 1), in different tiles.
    assert_int_equal(
        wf_query_find_nearest_poly(fx->query, wf_v3(4.0f, 0.0f, 1.5f), ext, &fx->filter, &ref, &p),
        WF_OK);
    assert_true(ref.bits == min_bits(grid_cell(fx, 3, 1).bits, grid_cell(fx, 4, 1).bits));
    assert_vec_near(p, 4.0f, 0.0f, 1.5f);
    // The vertex shared by four tiles.
    uint64_t lowest = min_bits(min_bits(grid_cell(fx, 3, 3).bits, grid_cell(fx, 4, 3).bits),
                               min_bits(grid_cell(fx, 3, 4).bits, grid_cell(fx, 4, 4).bits));
    assert_int_equal(
        wf_query_find_nearest_poly(fx->query, wf_v3(4.0f, 0.0f, 4.0f), ext, &fx->filter, &ref, &p),
        WF_OK);
    assert_true(ref.bits == lowest);
    assert_vec_near(p, 4.0f, 0.0f, 4.0f);
    // Same answer again: no state carried between calls.
    wf_poly_ref again;
    assert_int_equal(wf_query_find_nearest_poly(fx->query, wf_v3(4.0f, 0.0f, 4.0f), ext,
                                                &fx->filter, &again, &p),
                     WF_OK);
    assert_true(again.bits == lowest);
}

static void test_box_too_small_finds_nothing(void** state) {
    grid_fixture* fx = *state;
    wf_poly_ref ref = {123};
    wf_vec3 p;
    // The box [-4, -2] stops short of the mesh at x = z = 0.
    assert_int_equal(wf_query_find_nearest_poly(fx->query, wf_v3(-3.0f, 0.0f, -3.0f),
                                                wf_v3(1.0f, 1.0f, 1.0f), &fx->filter, &ref, &p),
                     WF_ERR_NOT_FOUND);
    assert_true(wf_poly_ref_is_null(ref));
    // Over the mesh but the box's height range [4, 6] misses the floor.
    assert_int_equal(wf_query_find_nearest_poly(fx->query, wf_v3(2.5f, 5.0f, 2.5f),
                                                wf_v3(0.5f, 1.0f, 0.5f), &fx->filter, &ref, &p),
                     WF_ERR_NOT_FOUND);
}

static void test_filter_excludes_polygons(void** state) {
    grid_fixture* fx = *state;
    wf_poly_ref excluded = grid_cell(fx, 2, 5);
    assert_int_equal(wf_mesh_set_poly_flags(fx->mesh, excluded, 2), WF_OK);
    wf_query_filter f = wf_query_filter_defaults();
    f.exclude_flags = 2;
    wf_poly_ref ref;
    wf_vec3 p;
    // Over cell (2, 5) but it is excluded: of the others in the box, cell
    // (1, 5) is 0.25 away at (2, 0, 5.5); (2, 4) and (2, 6) are 0.5 away.
    assert_int_equal(wf_query_find_nearest_poly(fx->query, wf_v3(2.25f, 0.0f, 5.5f),
                                                wf_v3(0.5f, 1.0f, 0.5f), &f, &ref, &p),
                     WF_OK);
    assert_true(ref.bits == grid_cell(fx, 1, 5).bits);
    assert_vec_near(p, 2.0f, 0.0f, 5.5f);
    // A box holding only the excluded polygon finds nothing.
    assert_int_equal(wf_query_find_nearest_poly(fx->query, wf_v3(2.5f, 0.0f, 5.5f),
                                                wf_v3(0.25f, 1.0f, 0.25f), &f, &ref, &p),
                     WF_ERR_NOT_FOUND);
    // Include flags: nothing carries flag 4.
    wf_query_filter g = wf_query_filter_defaults();
    g.include_flags = 4;
    assert_int_equal(wf_query_find_nearest_poly(fx->query, wf_v3(4.0f, 0.0f, 4.0f),
                                                wf_v3(8.0f, 1.0f, 8.0f), &g, &ref, &p),
                     WF_ERR_NOT_FOUND);
    // Flag 2 alone selects exactly the one polygon.
    g.include_flags = 2;
    assert_int_equal(wf_query_find_nearest_poly(fx->query, wf_v3(0.0f, 0.0f, 0.0f),
                                                wf_v3(8.0f, 1.0f, 8.0f), &g, &ref, &p),
                     WF_OK);
    assert_true(ref.bits == excluded.bits);
    assert_vec_near(p, 2.0f, 0.0f, 5.0f);
    assert_int_equal(wf_mesh_set_poly_flags(fx->mesh, excluded, 1), WF_OK);
}

static bool contains(const wf_poly_ref* refs, uint32_t n, wf_poly_ref r) {
    for (uint32_t i = 0; i < n; ++i) {
        if (refs[i].bits == r.bits) {
            return true;
        }
    }
    return false;
}

static void test_polys_in_box(void** state) {
    grid_fixture* fx = *state;
    wf_poly_ref refs[80];
    uint32_t n = 99;
    // x and z in [2.5, 5.5]: cells 2..5 on both axes, across all four tiles.
    assert_int_equal(wf_query_find_polys_in_box(fx->query, wf_v3(4.0f, 0.0f, 4.0f),
                                                wf_v3(1.5f, 1.0f, 1.5f), &fx->filter, refs, 80, &n),
                     WF_OK);
    assert_int_equal(n, 16);
    for (uint32_t z = 2; z <= 5; ++z) {
        for (uint32_t x = 2; x <= 5; ++x) {
            assert_true(contains(refs, n, grid_cell(fx, x, z)));
        }
    }
    // Too small an array: the first 5, all distinct and in the box.
    wf_poly_ref few[5];
    assert_int_equal(wf_query_find_polys_in_box(fx->query, wf_v3(4.0f, 0.0f, 4.0f),
                                                wf_v3(1.5f, 1.0f, 1.5f), &fx->filter, few, 5, &n),
                     WF_PARTIAL);
    assert_int_equal(n, 5);
    for (uint32_t i = 0; i < 5; ++i) {
        assert_true(contains(refs, 16, few[i]));
        assert_false(contains(few, i, few[i]));
    }
    // Exactly enough room is not partial.
    wf_poly_ref exact[16];
    assert_int_equal(wf_query_find_polys_in_box(fx->query, wf_v3(4.0f, 0.0f, 4.0f),
                                                wf_v3(1.5f, 1.0f, 1.5f), &fx->filter, exact, 16,
                                                &n),
                     WF_OK);
    assert_int_equal(n, 16);
    // max 0 only counts whether there is any.
    assert_int_equal(wf_query_find_polys_in_box(fx->query, wf_v3(4.0f, 0.0f, 4.0f),
                                                wf_v3(1.5f, 1.0f, 1.5f), &fx->filter, NULL, 0, &n),
                     WF_PARTIAL);
    assert_int_equal(n, 0);
    // The whole mesh, and an infinite box (walks tile slots instead of cells).
    assert_int_equal(wf_query_find_polys_in_box(fx->query, wf_v3(4.0f, 0.0f, 4.0f),
                                                wf_v3(100.0f, 100.0f, 100.0f), &fx->filter, refs,
                                                80, &n),
                     WF_OK);
    assert_int_equal(n, 64);
    assert_int_equal(wf_query_find_polys_in_box(fx->query, wf_v3(0.0f, 0.0f, 0.0f),
                                                wf_v3(INFINITY, INFINITY, INFINITY), &fx->filter,
                                                refs, 80, &n),
                     WF_OK);
    assert_int_equal(n, 64);
    // Filtered: one flagged polygon excluded.
    assert_int_equal(wf_mesh_set_poly_flags(fx->mesh, grid_cell(fx, 3, 3), 2), WF_OK);
    wf_query_filter f = wf_query_filter_defaults();
    f.exclude_flags = 2;
    assert_int_equal(wf_query_find_polys_in_box(fx->query, wf_v3(4.0f, 0.0f, 4.0f),
                                                wf_v3(1.5f, 1.0f, 1.5f), &f, refs, 80, &n),
                     WF_OK);
    assert_int_equal(n, 15);
    assert_false(contains(refs, n, grid_cell(fx, 3, 3)));
    assert_int_equal(wf_mesh_set_poly_flags(fx->mesh, grid_cell(fx, 3, 3), 1), WF_OK);
    // Nothing there: OK with none.
    assert_int_equal(wf_query_find_polys_in_box(fx->query, wf_v3(20.0f, 0.0f, 20.0f),
                                                wf_v3(1.0f, 1.0f, 1.0f), &fx->filter, refs, 80, &n),
                     WF_OK);
    assert_int_equal(n, 0);
}

static void test_bad_arguments(void** state) {
    grid_fixture* fx = *state;
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    wf_poly_ref ref;
    wf_vec3 p;
    wf_vec3 c = wf_v3(1.0f, 0.0f, 1.0f), e = wf_v3(1.0f, 1.0f, 1.0f);
    assert_int_equal(wf_query_find_nearest_poly(NULL, c, e, &fx->filter, &ref, &p),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_nearest_poly(fx->query, c, e, NULL, &ref, &p),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_nearest_poly(fx->query, c, e, &fx->filter, NULL, &p),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(
        wf_query_find_nearest_poly(fx->query, wf_v3(NAN, 0.0f, 1.0f), e, &fx->filter, &ref, &p),
        WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_nearest_poly(fx->query, wf_v3(INFINITY, 0.0f, 1.0f), e,
                                                &fx->filter, &ref, &p),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(
        wf_query_find_nearest_poly(fx->query, c, wf_v3(1.0f, NAN, 1.0f), &fx->filter, &ref, &p),
        WF_ERR_INVALID_ARG);
    assert_int_equal(
        wf_query_find_nearest_poly(fx->query, c, wf_v3(-1.0f, 1.0f, 1.0f), &fx->filter, &ref, &p),
        WF_ERR_INVALID_ARG);
    wf_poly_ref refs[4];
    uint32_t n;
    assert_int_equal(wf_query_find_polys_in_box(NULL, c, e, &fx->filter, refs, 4, &n),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_polys_in_box(fx->query, c, e, NULL, refs, 4, &n),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_polys_in_box(fx->query, c, e, &fx->filter, NULL, 4, &n),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_polys_in_box(fx->query, c, e, &fx->filter, refs, 4, NULL),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_polys_in_box(fx->query, c, wf_v3(1.0f, 1.0f, -0.5f), &fx->filter,
                                                refs, 4, &n),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(
        wf_query_find_polys_in_box(fx->query, wf_v3(0.0f, NAN, 0.0f), e, &fx->filter, refs, 4, &n),
        WF_ERR_INVALID_ARG);
    wf_poly_ref good = grid_cell(fx, 1, 1);
    float h;
    assert_int_equal(wf_query_closest_point_on_poly(NULL, good, c, &p, NULL), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_closest_point_on_poly(fx->query, good, c, NULL, NULL),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(
        wf_query_closest_point_on_poly(fx->query, good, wf_v3(NAN, 0.0f, 0.0f), &p, NULL),
        WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_closest_point_on_poly(fx->query, (wf_poly_ref){0}, c, &p, NULL),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_poly_height(NULL, good, c, &h), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_poly_height(fx->query, good, c, NULL), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_poly_height(fx->query, good, wf_v3(1.0f, 0.0f, NAN), &h),
                     WF_ERR_INVALID_ARG);
    wf_set_assert_hook(previous);
}

static void test_closest_point_and_height_on_grid(void** state) {
    grid_fixture* fx = *state;
    wf_poly_ref r = grid_cell(fx, 5, 2); // x 5..6, z 2..3
    wf_vec3 p;
    bool inside = false;
    assert_int_equal(
        wf_query_closest_point_on_poly(fx->query, r, wf_v3(5.25f, 3.0f, 2.75f), &p, &inside),
        WF_OK);
    assert_true(inside);
    assert_vec_near(p, 5.25f, 0.0f, 2.75f);
    assert_int_equal(
        wf_query_closest_point_on_poly(fx->query, r, wf_v3(7.0f, 0.0f, 2.5f), &p, &inside), WF_OK);
    assert_false(inside);
    assert_vec_near(p, 6.0f, 0.0f, 2.5f);
    assert_int_equal(
        wf_query_closest_point_on_poly(fx->query, r, wf_v3(4.0f, 1.0f, 0.0f), &p, NULL), WF_OK);
    assert_vec_near(p, 5.0f, 0.0f, 2.0f);
    float h = 7.0f;
    assert_int_equal(wf_query_poly_height(fx->query, r, wf_v3(5.5f, 9.0f, 2.5f), &h), WF_OK);
    assert_true(h == 0.0f);
    assert_int_equal(wf_query_poly_height(fx->query, r, wf_v3(4.5f, 0.0f, 2.5f), &h),
                     WF_ERR_NOT_FOUND);
}

static void test_stale_refs(void** state) {
    (void)state;
    counting_allocator counter;
    counting_allocator_init(&counter);
    wf_allocator a = counting_allocator_hooks(&counter);
    wf_mesh* mesh = test_mesh_grid(2, 1, 2, 1.0f, NULL, NULL, &a);
    assert_non_null(mesh);
    wf_query* q = make_query(mesh, &counter);
    wf_query_filter f = wf_query_filter_defaults();
    wf_poly_ref r = test_grid_poly(mesh, 2, 3, 1); // in tile (1, 0)
    assert_false(wf_poly_ref_is_null(r));
    wf_tile_ref tile;
    assert_int_equal(wf_mesh_find_tile(mesh, 1, 0, 0, &tile), WF_OK);
    assert_int_equal(wf_mesh_remove_tile(mesh, tile, NULL, NULL), WF_OK);
    wf_vec3 p;
    float h;
    assert_int_equal(wf_query_closest_point_on_poly(q, r, wf_v3(3.5f, 0.0f, 1.5f), &p, NULL),
                     WF_ERR_STALE_REF);
    assert_int_equal(wf_query_poly_height(q, r, wf_v3(3.5f, 0.0f, 1.5f), &h), WF_ERR_STALE_REF);
    // The removed tile's area now only reaches the border of tile (0, 0).
    wf_poly_ref ref;
    assert_int_equal(wf_query_find_nearest_poly(q, wf_v3(3.5f, 0.0f, 1.5f), wf_v3(2.0f, 1.0f, 2.0f),
                                                &f, &ref, &p),
                     WF_OK);
    assert_true(ref.bits == test_grid_poly(mesh, 2, 1, 1).bits);
    assert_vec_near(p, 2.0f, 0.0f, 1.5f);
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
    assert_int_equal(counting_allocator_live(&counter), 0);
}

static void test_many_polygons_in_one_tile(void** state) {
    (void)state;
    // 12 x 12 = 144 polygons in one tile: more than one BV read holds.
    counting_allocator counter;
    counting_allocator_init(&counter);
    wf_allocator a = counting_allocator_hooks(&counter);
    wf_mesh* mesh = test_mesh_grid(1, 1, 12, 1.0f, NULL, NULL, &a);
    assert_non_null(mesh);
    wf_query* q = make_query(mesh, &counter);
    wf_query_filter f = wf_query_filter_defaults();
    wf_poly_ref refs[200];
    uint32_t n;
    assert_int_equal(wf_query_find_polys_in_box(q, wf_v3(6.0f, 0.0f, 6.0f), wf_v3(7.0f, 1.0f, 7.0f),
                                                &f, refs, 200, &n),
                     WF_OK);
    assert_int_equal(n, 144);
    for (uint32_t i = 0; i < n; ++i) {
        assert_false(contains(refs, i, refs[i]));
    }
    // Cells 3..8 on both axes: 36 of them.
    assert_int_equal(wf_query_find_polys_in_box(q, wf_v3(6.0f, 0.0f, 6.0f), wf_v3(2.5f, 1.0f, 2.5f),
                                                &f, refs, 200, &n),
                     WF_OK);
    assert_int_equal(n, 36);
    wf_poly_ref ref;
    wf_vec3 p;
    assert_int_equal(wf_query_find_nearest_poly(q, wf_v3(10.25f, 0.5f, 11.75f),
                                                wf_v3(12.0f, 1.0f, 12.0f), &f, &ref, &p),
                     WF_OK);
    assert_true(ref.bits == test_grid_poly(mesh, 12, 10, 11).bits);
    assert_vec_near(p, 10.25f, 0.0f, 11.75f);
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
    assert_int_equal(counting_allocator_live(&counter), 0);
}

/* ---------------------------------------------------------------------------
 * Hand-built tiles
 */

static void test_two_floors_pick_by_height(void** state) {
    (void)state;
    counting_allocator counter;
    counting_allocator_init(&counter);
    wf_mesh* mesh = make_empty_mesh(4.0f, &counter);
    // Two squares over x, z in [1, 3]: a floor at y = 0 and one at y = 3;
    // beside them a strip x in [3.25, 3.75] at y = 0.5.
    const float verts[] = {
        1,     0,    1, 1,     0,    3, 3,     0,    3, 3,     0,    1, //
        1,     3,    1, 1,     3,    3, 3,     3,    3, 3,     3,    1, //
        3.25f, 0.5f, 1, 3.25f, 0.5f, 3, 3.75f, 0.5f, 3, 3.75f, 0.5f, 1,
    };
    const uint16_t polys[] = {0, 1, 2, 3, N, N, 4, 5, 6, 7, N, N, 8, 9, 10, 11, N, N};
    wf_tile_build_desc d = {
        .bmin = {0.0f, -1.0f, 0.0f},
        .bmax = {4.0f, 4.0f, 4.0f},
        .verts = verts,
        .vert_count = 12,
        .polys = polys,
        .poly_count = 3,
        .walkable_height = 2.0f,
        .walkable_radius = 0.5f,
        .walkable_climb = 0.5f,
    };
    wf_tile_ref tile = add_tile(mesh, &d, &counter);
    wf_poly_ref low = wf_mesh_poly_ref(mesh, tile, 0), high = wf_mesh_poly_ref(mesh, tile, 1);
    wf_query* q = make_query(mesh, &counter);
    wf_query_filter f = wf_query_filter_defaults();
    wf_vec3 tall = wf_v3(1.0f, 4.0f, 1.0f);
    wf_poly_ref ref;
    wf_vec3 p;
    assert_int_equal(wf_query_find_nearest_poly(q, wf_v3(2.0f, 0.25f, 2.0f), tall, &f, &ref, &p),
                     WF_OK);
    assert_true(ref.bits == low.bits);
    assert_vec_near(p, 2.0f, 0.0f, 2.0f);
    assert_int_equal(wf_query_find_nearest_poly(q, wf_v3(2.5f, 2.75f, 1.5f), tall, &f, &ref, &p),
                     WF_OK);
    assert_true(ref.bits == high.bits);
    assert_vec_near(p, 2.5f, 3.0f, 1.5f);
    // Between the floors: 1.25 above the lower, 1.75 below the upper.
    assert_int_equal(wf_query_find_nearest_poly(q, wf_v3(2.0f, 1.25f, 2.0f), tall, &f, &ref, &p),
                     WF_OK);
    assert_true(ref.bits == low.bits);
    assert_int_equal(wf_query_find_nearest_poly(q, wf_v3(2.0f, 1.75f, 2.0f), tall, &f, &ref, &p),
                     WF_OK);
    assert_true(ref.bits == high.bits);
    // Within climb reach of the lower floor only.
    assert_int_equal(wf_query_find_nearest_poly(q, wf_v3(2.0f, 0.1f, 2.0f), tall, &f, &ref, &p),
                     WF_OK);
    assert_true(ref.bits == low.bits);
    // Standing 0.375 over the lower floor's edge, within climb: it wins over
    // the strip, which is nearer in 3D (0.25 across, 0.125 up).
    assert_int_equal(wf_query_find_nearest_poly(q, wf_v3(3.0f, 0.375f, 2.0f), tall, &f, &ref, &p),
                     WF_OK);
    assert_true(ref.bits == low.bits);
    assert_vec_near(p, 3.0f, 0.0f, 2.0f);
    // A little further out (x = 3.125) it is over no floor: the strip wins.
    assert_int_equal(wf_query_find_nearest_poly(q, wf_v3(3.125f, 0.375f, 2.0f), tall, &f, &ref, &p),
                     WF_OK);
    assert_true(ref.bits == wf_mesh_poly_ref(mesh, tile, 2).bits);
    assert_vec_near(p, 3.25f, 0.5f, 2.0f);
    // A box around the upper floor only.
    assert_int_equal(wf_query_find_nearest_poly(q, wf_v3(2.0f, 2.0f, 2.0f), wf_v3(1.0f, 1.5f, 1.0f),
                                                &f, &ref, &p),
                     WF_OK);
    assert_true(ref.bits == high.bits);
    // Outside in XZ, level with the upper floor: its border is nearer.
    assert_int_equal(wf_query_find_nearest_poly(q, wf_v3(3.5f, 3.0f, 2.0f), tall, &f, &ref, &p),
                     WF_OK);
    assert_true(ref.bits == high.bits);
    assert_vec_near(p, 3.0f, 3.0f, 2.0f);
    uint32_t n;
    wf_poly_ref refs[4];
    assert_int_equal(wf_query_find_polys_in_box(q, wf_v3(2.0f, 1.5f, 2.0f), tall, &f, refs, 4, &n),
                     WF_OK);
    assert_int_equal(n, 2);
    assert_int_equal(wf_query_find_polys_in_box(q, wf_v3(2.0f, 3.0f, 2.0f), wf_v3(1.0f, 0.5f, 1.0f),
                                                &f, refs, 4, &n),
                     WF_OK);
    assert_int_equal(n, 1);
    assert_true(refs[0].bits == high.bits);
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
    assert_int_equal(counting_allocator_live(&counter), 0);
}

static void test_sloped_polygon_height(void** state) {
    (void)state;
    counting_allocator counter;
    counting_allocator_init(&counter);
    wf_mesh* mesh = make_empty_mesh(4.0f, &counter);
    // One quad over x, z in [1, 3] on the plane y = 0.5 (x - 1) + 0.25 (z - 1).
    const float verts[] = {1.0f, 0.0f, 1.0f, 1.0f, 0.5f, 3.0f, 3.0f, 1.5f, 3.0f, 3.0f, 1.0f, 1.0f};
    const uint16_t polys[] = {0, 1, 2, 3, N, N};
    wf_tile_build_desc d = {
        .bmin = {0.0f, -1.0f, 0.0f},
        .bmax = {4.0f, 2.0f, 4.0f},
        .verts = verts,
        .vert_count = 4,
        .polys = polys,
        .poly_count = 1,
        .walkable_height = 2.0f,
        .walkable_radius = 0.5f,
        .walkable_climb = 0.25f,
    };
    wf_tile_ref tile = add_tile(mesh, &d, &counter);
    wf_poly_ref r = wf_mesh_poly_ref(mesh, tile, 0);
    wf_query* q = make_query(mesh, &counter);
    float h = -1.0f;
    assert_int_equal(wf_query_poly_height(q, r, wf_v3(2.0f, 9.0f, 2.0f), &h), WF_OK);
    assert_float_equal(h, 0.75f, 1e-5f);
    assert_int_equal(wf_query_poly_height(q, r, wf_v3(1.5f, 0.0f, 2.5f), &h), WF_OK);
    assert_float_equal(h, 0.625f, 1e-5f);
    assert_int_equal(wf_query_poly_height(q, r, wf_v3(2.75f, 0.0f, 1.25f), &h), WF_OK);
    assert_float_equal(h, 0.9375f, 1e-5f);
    // On a vertex and on an edge.
    assert_int_equal(wf_query_poly_height(q, r, wf_v3(3.0f, 0.0f, 3.0f), &h), WF_OK);
    assert_float_equal(h, 1.5f, 1e-5f);
    assert_int_equal(wf_query_poly_height(q, r, wf_v3(2.0f, 0.0f, 1.0f), &h), WF_OK);
    assert_float_equal(h, 0.5f, 1e-5f);
    assert_int_equal(wf_query_poly_height(q, r, wf_v3(0.5f, 0.0f, 2.0f), &h), WF_ERR_NOT_FOUND);
    assert_int_equal(wf_query_poly_height(q, r, wf_v3(2.0f, 0.0f, 3.25f), &h), WF_ERR_NOT_FOUND);
    // Closest points carry the slope's height.
    wf_vec3 p;
    bool inside = false;
    assert_int_equal(wf_query_closest_point_on_poly(q, r, wf_v3(2.0f, 5.0f, 2.0f), &p, &inside),
                     WF_OK);
    assert_true(inside);
    assert_vec_near(p, 2.0f, 0.75f, 2.0f);
    assert_int_equal(wf_query_closest_point_on_poly(q, r, wf_v3(0.0f, 0.0f, 2.0f), &p, &inside),
                     WF_OK);
    assert_false(inside);
    assert_vec_near(p, 1.0f, 0.25f, 2.0f);
    wf_query_filter f = wf_query_filter_defaults();
    wf_poly_ref ref;
    assert_int_equal(wf_query_find_nearest_poly(q, wf_v3(2.5f, 1.0f, 2.5f), wf_v3(0.5f, 1.0f, 0.5f),
                                                &f, &ref, &p),
                     WF_OK);
    assert_true(ref.bits == r.bits);
    assert_vec_near(p, 2.5f, 1.125f, 2.5f);
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
    assert_int_equal(counting_allocator_live(&counter), 0);
}

static void test_offmesh_link_closest_point(void** state) {
    (void)state;
    counting_allocator counter;
    counting_allocator_init(&counter);
    wf_mesh* mesh = make_empty_mesh(8.0f, &counter);
    // Two islands, a link from (2.5, 0, 2) on the first to (5.5, 1, 2) on
    // the second, which is one metre higher.
    const float verts[] = {
        1, 0, 1, 1, 0, 3, 3, 0, 3, 3, 0, 1, //
        5, 1, 1, 5, 1, 3, 7, 1, 3, 7, 1, 1,
    };
    const uint16_t polys[] = {0, 1, 2, 3, N, N, 4, 5, 6, 7, N, N};
    wf_offmesh_link_desc link = {
        .start = {2.5f, 0.0f, 2.0f}, .end = {5.5f, 1.0f, 2.0f}, .radius = 0.5f, .flags = 1};
    wf_tile_build_desc d = {
        .bmin = {0.0f, -1.0f, 0.0f},
        .bmax = {8.0f, 2.0f, 8.0f},
        .verts = verts,
        .vert_count = 8,
        .polys = polys,
        .poly_count = 2,
        .offmesh_links = &link,
        .offmesh_link_count = 1,
        .walkable_height = 2.0f,
        .walkable_radius = 0.5f,
        .walkable_climb = 0.25f,
    };
    wf_tile_ref tile = add_tile(mesh, &d, &counter);
    wf_poly_ref lr = wf_mesh_poly_ref(mesh, tile, 2);
    assert_true(wf_mesh_is_offmesh_link(mesh, lr));
    wf_query* q = make_query(mesh, &counter);
    wf_vec3 p;
    bool inside = true;
    assert_int_equal(wf_query_closest_point_on_poly(q, lr, wf_v3(4.0f, 0.0f, 3.0f), &p, &inside),
                     WF_OK);
    assert_false(inside);
    assert_vec_near(p, 4.0f, 0.5f, 2.0f);
    assert_int_equal(wf_query_closest_point_on_poly(q, lr, wf_v3(9.0f, 0.0f, 2.0f), &p, NULL),
                     WF_OK);
    assert_vec_near(p, 5.5f, 1.0f, 2.0f);
    float h;
    assert_int_equal(wf_query_poly_height(q, lr, wf_v3(3.25f, 0.0f, 2.0f), &h), WF_OK);
    assert_float_equal(h, 0.25f, 1e-5f);
    // Links are never candidates for nearest polygon or box queries: the
    // box between the islands holds only the link.
    wf_query_filter f = wf_query_filter_defaults();
    wf_poly_ref ref;
    assert_int_equal(wf_query_find_nearest_poly(q, wf_v3(4.0f, 0.5f, 2.0f), wf_v3(0.5f, 1.0f, 0.5f),
                                                &f, &ref, &p),
                     WF_ERR_NOT_FOUND);
    wf_poly_ref refs[4];
    uint32_t n;
    assert_int_equal(wf_query_find_polys_in_box(q, wf_v3(4.0f, 0.5f, 2.0f), wf_v3(4.0f, 2.0f, 4.0f),
                                                &f, refs, 4, &n),
                     WF_OK);
    assert_int_equal(n, 2);
    assert_false(contains(refs, n, lr));
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
    assert_int_equal(counting_allocator_live(&counter), 0);
}

int main(void) {
    const struct CMUnitTest grid_tests[] = {
        cmocka_unit_test(test_point_over_a_polygon),
        cmocka_unit_test(test_point_outside_is_clamped_to_the_border),
        cmocka_unit_test(test_shared_edges_pick_the_lowest_ref),
        cmocka_unit_test(test_box_too_small_finds_nothing),
        cmocka_unit_test(test_filter_excludes_polygons),
        cmocka_unit_test(test_polys_in_box),
        cmocka_unit_test(test_closest_point_and_height_on_grid),
        cmocka_unit_test(test_bad_arguments),
    };
    const struct CMUnitTest other_tests[] = {
        cmocka_unit_test(test_stale_refs),
        cmocka_unit_test(test_many_polygons_in_one_tile),
        cmocka_unit_test(test_two_floors_pick_by_height),
        cmocka_unit_test(test_sloped_polygon_height),
        cmocka_unit_test(test_offmesh_link_closest_point),
    };
    int failed = cmocka_run_group_tests_name("grid", grid_tests, grid_setup, grid_teardown);
    failed += cmocka_run_group_tests_name("hand-built", other_tests, NULL, NULL);
    return failed;
}
