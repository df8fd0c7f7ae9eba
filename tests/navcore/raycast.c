// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Surface walks: wf_query_raycast and wf_query_move_along_surface on grid
// meshes with hand-computed hits, slides, visited polygons and bad input.
#include <float.h>
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

#define EPS 1e-5f

static void assert_vec_near(wf_vec3 v, float x, float y, float z) {
    assert_float_equal(v.x, x, EPS);
    assert_float_equal(v.y, y, EPS);
    assert_float_equal(v.z, z, EPS);
}

/* ---- raycast ---- */

static void test_ray_along_open_row_crosses_tiles(void** state) {
    (void)state;
    grid_fixture f;
    grid_open(&f, 2, 1, 4, 1.0f, NULL, NULL, 256); // 8 x 4 cells, tile border at x = 4
    wf_query_filter filter = wf_query_filter_defaults();
    wf_poly_ref visited[16];
    wf_raycast_hit hit;
    assert_int_equal(wf_query_raycast(f.query, grid_cell(&f, 0, 0), wf_v3(0.5f, 0.0f, 0.5f),
                                      wf_v3(7.5f, 0.0f, 0.5f), &filter, visited, 16, &hit),
                     WF_OK);
    assert_true(hit.t == FLT_MAX);
    assert_int_equal(hit.visited_count, 8);
    for (uint32_t x = 0; x < 8; ++x) {
        assert_true(wf_poly_ref_equal(visited[x], grid_cell(&f, x, 0)));
    }
    assert_float_equal(hit.path_cost, 7.0f, EPS);
    assert_int_equal(hit.edge, 0xffffffffu);

    // A ray that ends in its start polygon walks nothing else.
    assert_int_equal(wf_query_raycast(f.query, grid_cell(&f, 5, 2), wf_v3(5.2f, 0.0f, 2.2f),
                                      wf_v3(5.8f, 0.0f, 2.7f), &filter, visited, 16, &hit),
                     WF_OK);
    assert_true(hit.t == FLT_MAX);
    assert_int_equal(hit.visited_count, 1);
    assert_true(wf_poly_ref_equal(visited[0], grid_cell(&f, 5, 2)));
    assert_float_equal(hit.path_cost, sqrtf(0.36f + 0.25f), EPS);

    // Along z, across the tile rows of a 2 x 2 tile mesh.
    grid_close(&f);
    grid_open(&f, 2, 2, 2, 1.0f, NULL, NULL, 256); // 4 x 4 cells, tile borders at x = 2, z = 2
    assert_int_equal(wf_query_raycast(f.query, grid_cell(&f, 1, 3), wf_v3(1.5f, 0.0f, 3.5f),
                                      wf_v3(1.5f, 0.0f, 0.25f), &filter, visited, 16, &hit),
                     WF_OK);
    assert_true(hit.t == FLT_MAX);
    assert_int_equal(hit.visited_count, 4);
    for (uint32_t i = 0; i < 4; ++i) {
        assert_true(wf_poly_ref_equal(visited[i], grid_cell(&f, 1, 3 - i)));
    }
    grid_close(&f);
}

static void test_ray_hits_blocked_cell_and_border(void** state) {
    (void)state;
    // 8 x 4 cells, cell (3, 0) blocked.
    uint8_t blocked[32] = {0};
    blocked[3] = 1;
    grid_fixture f;
    grid_open(&f, 2, 1, 4, 1.0f, blocked, NULL, 256);
    wf_query_filter filter = wf_query_filter_defaults();
    wf_poly_ref visited[16];
    wf_raycast_hit hit;
    // From x = 0.5 to 5.5 the wall at x = 3 is 2.5 of 5 along: t = 0.5.
    assert_int_equal(wf_query_raycast(f.query, grid_cell(&f, 0, 0), wf_v3(0.5f, 0.0f, 0.5f),
                                      wf_v3(5.5f, 0.0f, 0.5f), &filter, visited, 16, &hit),
                     WF_OK);
    assert_float_equal(hit.t, 0.5f, EPS);
    assert_vec_near(hit.normal, -1.0f, 0.0f, 0.0f);
    assert_int_equal(hit.edge, 2); // the +X edge of a grid cell
    assert_int_equal(hit.visited_count, 3);
    for (uint32_t x = 0; x < 3; ++x) {
        assert_true(wf_poly_ref_equal(visited[x], grid_cell(&f, x, 0)));
    }
    assert_float_equal(hit.path_cost, 2.5f, EPS);

    // Towards -X out of the mesh: the border at x = 0 is 2.5 of 4 along.
    assert_int_equal(wf_query_raycast(f.query, grid_cell(&f, 2, 1), wf_v3(2.5f, 0.0f, 1.5f),
                                      wf_v3(-1.5f, 0.0f, 1.5f), &filter, visited, 16, &hit),
                     WF_OK);
    assert_float_equal(hit.t, 0.625f, EPS);
    assert_vec_near(hit.normal, 1.0f, 0.0f, 0.0f);
    assert_int_equal(hit.edge, 0);
    assert_int_equal(hit.visited_count, 3);
    assert_true(wf_poly_ref_equal(visited[2], grid_cell(&f, 0, 1)));

    // Towards +Z: the mesh ends at z = 4, 3.5 of 6 along.
    assert_int_equal(wf_query_raycast(f.query, grid_cell(&f, 6, 0), wf_v3(6.5f, 0.0f, 0.5f),
                                      wf_v3(6.5f, 0.0f, 6.5f), &filter, visited, 16, &hit),
                     WF_OK);
    assert_float_equal(hit.t, 3.5f / 6.0f, EPS);
    assert_vec_near(hit.normal, 0.0f, 0.0f, -1.0f);
    assert_int_equal(hit.edge, 1);
    assert_int_equal(hit.visited_count, 4);

    // Diagonal: from (0.5, 1.5) towards (4.5, 0.5) the ray crosses z = 1 at
    // x = 2.5 and then x = 3 at z = 0.875, the face of blocked cell (3, 0):
    // t = 2.5 / 4 after cells (0,1) (1,1) (2,1) (2,0).
    assert_int_equal(wf_query_raycast(f.query, grid_cell(&f, 0, 1), wf_v3(0.5f, 0.0f, 1.5f),
                                      wf_v3(4.5f, 0.0f, 0.5f), &filter, visited, 16, &hit),
                     WF_OK);
    assert_float_equal(hit.t, 0.625f, EPS);
    assert_vec_near(hit.normal, -1.0f, 0.0f, 0.0f);
    assert_int_equal(hit.visited_count, 4);
    assert_true(wf_poly_ref_equal(visited[0], grid_cell(&f, 0, 1)));
    assert_true(wf_poly_ref_equal(visited[1], grid_cell(&f, 1, 1)));
    assert_true(wf_poly_ref_equal(visited[2], grid_cell(&f, 2, 1)));
    assert_true(wf_poly_ref_equal(visited[3], grid_cell(&f, 2, 0)));
    grid_close(&f);
}

/// Tile (0,0): one 2 x 2 square polygon; tile (1,0): a 2 x 2 grid tile
/// whose cell (2,1) is blocked, so the square's +X edge (x = 2) is linked
/// only for z in [0, 1] and is a wall for z in [1, 2].
static void open_split_tiles(grid_fixture* f) {
    grid_begin(f);
    f->cells_per_tile = 2;
    wf_mesh_desc md;
    memset(&md, 0, sizeof md);
    md.tile_width = 2.0f;
    md.tile_depth = 2.0f;
    md.max_tiles = 4;
    md.allocator = f->alloc;
    assert_int_equal(wf_mesh_create(&md, &f->mesh), WF_OK);
    const float verts[] = {0, 0, 0, 0, 0, 2, 2, 0, 2, 2, 0, 0};
    const uint16_t polys[WF_MAX_VERTS_PER_POLY] = {0, 1, 2, 3, WF_NULL_INDEX, WF_NULL_INDEX};
    wf_tile_build_desc d;
    memset(&d, 0, sizeof d);
    d.bmin = wf_v3(0.0f, -1.0f, 0.0f);
    d.bmax = wf_v3(2.0f, 1.0f, 2.0f);
    d.verts = verts;
    d.vert_count = 4;
    d.polys = polys;
    d.poly_count = 1;
    d.walkable_height = 2.0f;
    d.walkable_radius = 0.5f;
    d.walkable_climb = 0.5f;
    d.allocator = f->alloc;
    void* data;
    size_t size;
    wf_tile_ref tile;
    assert_int_equal(wf_tile_build(&d, &data, &size), WF_OK);
    assert_int_equal(
        wf_mesh_add_tile(f->mesh, data, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &tile),
        WF_OK);
    uint8_t blocked[8] = {0};
    blocked[1 * 4 + 2] = 1;
    data = test_grid_tile(1, 0, 2, 2, 1.0f, blocked, NULL, &f->alloc, &size);
    assert_non_null(data);
    assert_int_equal(
        wf_mesh_add_tile(f->mesh, data, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &tile),
        WF_OK);
    grid_make_query(f, 256);
}

static wf_poly_ref square(const grid_fixture* f) {
    wf_tile_ref tile;
    assert_int_equal(wf_mesh_find_tile(f->mesh, 0, 0, 0, &tile), WF_OK);
    return wf_mesh_poly_ref(f->mesh, tile, 0);
}

static void test_ray_through_partly_linked_tile_edge(void** state) {
    (void)state;
    grid_fixture f;
    open_split_tiles(&f);
    wf_query_filter filter = wf_query_filter_defaults();
    wf_poly_ref visited[8];
    wf_raycast_hit hit;
    // z = 0.5 crosses the linked part of x = 2.
    assert_int_equal(wf_query_raycast(f.query, square(&f), wf_v3(0.5f, 0.0f, 0.5f),
                                      wf_v3(3.5f, 0.0f, 0.5f), &filter, visited, 8, &hit),
                     WF_OK);
    assert_true(hit.t == FLT_MAX);
    assert_int_equal(hit.visited_count, 3);
    assert_true(wf_poly_ref_equal(visited[0], square(&f)));
    assert_true(wf_poly_ref_equal(visited[1], grid_cell(&f, 2, 0)));
    assert_true(wf_poly_ref_equal(visited[2], grid_cell(&f, 3, 0)));
    // z = 1.5 meets the unlinked part: a wall at x = 2, half way.
    assert_int_equal(wf_query_raycast(f.query, square(&f), wf_v3(0.5f, 0.0f, 1.5f),
                                      wf_v3(3.5f, 0.0f, 1.5f), &filter, visited, 8, &hit),
                     WF_OK);
    assert_float_equal(hit.t, 0.5f, EPS);
    assert_vec_near(hit.normal, -1.0f, 0.0f, 0.0f);
    assert_int_equal(hit.edge, 2);
    assert_int_equal(hit.visited_count, 1);
    grid_close(&f);
}

static void test_ray_filter_and_area_costs(void** state) {
    (void)state;
    uint8_t areas[16] = {0};
    areas[1] = 2; // cell (1, 0)
    grid_fixture f;
    grid_open(&f, 1, 1, 4, 1.0f, NULL, areas, 256);
    wf_query_filter filter = wf_query_filter_defaults();
    filter.area_cost[2] = 4.0f;
    wf_raycast_hit hit;
    // Costs: 0.5 in cell 0, 1 x 4 in cell 1, 1 in cell 2, 0.5 in cell 3.
    assert_int_equal(wf_query_raycast(f.query, grid_cell(&f, 0, 0), wf_v3(0.5f, 0.0f, 0.5f),
                                      wf_v3(3.5f, 0.0f, 0.5f), &filter, NULL, 0, &hit),
                     WF_OK);
    assert_true(hit.t == FLT_MAX);
    assert_int_equal(hit.visited_count, 4);
    assert_float_equal(hit.path_cost, 6.0f, EPS);

    // A polygon the filter refuses is a wall.
    assert_int_equal(wf_mesh_set_poly_flags(f.mesh, grid_cell(&f, 2, 0), 0x4), WF_OK);
    filter.exclude_flags = 0x4;
    wf_poly_ref visited[8];
    assert_int_equal(wf_query_raycast(f.query, grid_cell(&f, 0, 0), wf_v3(0.5f, 0.0f, 0.5f),
                                      wf_v3(3.5f, 0.0f, 0.5f), &filter, visited, 8, &hit),
                     WF_OK);
    assert_float_equal(hit.t, 0.5f, EPS);
    assert_vec_near(hit.normal, -1.0f, 0.0f, 0.0f);
    assert_int_equal(hit.visited_count, 2);
    assert_float_equal(hit.path_cost, 4.5f, EPS);
    grid_close(&f);
}

static void test_ray_small_buffer_and_outside_start(void** state) {
    (void)state;
    grid_fixture f;
    grid_open(&f, 2, 1, 4, 1.0f, NULL, NULL, 256);
    wf_query_filter filter = wf_query_filter_defaults();
    wf_poly_ref visited[2];
    wf_raycast_hit hit;
    // Two cells fit; the walk stops entering the third, at x = 2 (t = 1.5 / 7).
    assert_int_equal(wf_query_raycast(f.query, grid_cell(&f, 0, 0), wf_v3(0.5f, 0.0f, 0.5f),
                                      wf_v3(7.5f, 0.0f, 0.5f), &filter, visited, 2, &hit),
                     WF_PARTIAL);
    assert_int_equal(hit.visited_count, 2);
    assert_true(wf_poly_ref_equal(visited[1], grid_cell(&f, 1, 0)));
    assert_float_equal(hit.t, 1.5f / 7.0f, EPS);
    // No room at all.
    assert_int_equal(wf_query_raycast(f.query, grid_cell(&f, 0, 0), wf_v3(0.5f, 0.0f, 0.5f),
                                      wf_v3(7.5f, 0.0f, 0.5f), &filter, visited, 0, &hit),
                     WF_PARTIAL);
    assert_int_equal(hit.visited_count, 0);
    // Without a buffer the whole walk is counted.
    assert_int_equal(wf_query_raycast(f.query, grid_cell(&f, 0, 0), wf_v3(0.5f, 0.0f, 0.5f),
                                      wf_v3(7.5f, 0.0f, 0.5f), &filter, NULL, 0, &hit),
                     WF_OK);
    assert_int_equal(hit.visited_count, 8);
    // A start outside its polygon is blocked at once.
    assert_int_equal(wf_query_raycast(f.query, grid_cell(&f, 0, 0), wf_v3(2.5f, 0.0f, 0.5f),
                                      wf_v3(3.5f, 0.0f, 0.5f), &filter, visited, 2, &hit),
                     WF_OK);
    assert_float_equal(hit.t, 0.0f, 0.0f);
    assert_int_equal(hit.visited_count, 1);
    grid_close(&f);
}

/// Builds a 3 x 1 strip whose middle cell is missing, with an off-mesh link
/// from the left cell to the right one.
static void open_gap_with_link(grid_fixture* f) {
    grid_begin(f);
    wf_mesh_desc md;
    memset(&md, 0, sizeof md);
    md.tile_width = 3.0f;
    md.tile_depth = 3.0f;
    md.allocator = f->alloc;
    assert_int_equal(wf_mesh_create(&md, &f->mesh), WF_OK);
    const float verts[] = {0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0, 2, 0, 0, 2, 0, 1, 3, 0, 1, 3, 0, 0};
    const uint16_t N = WF_NULL_INDEX;
    const uint16_t polys[] = {0, 1, 2, 3, N, N, 4, 5, 6, 7, N, N};
    wf_offmesh_link_desc link = {.start = wf_v3(0.5f, 0.0f, 0.5f),
                                 .end = wf_v3(2.5f, 0.0f, 0.5f),
                                 .radius = 0.3f,
                                 .bidirectional = true,
                                 .flags = 1};
    wf_tile_build_desc d;
    memset(&d, 0, sizeof d);
    d.bmin = wf_v3(0.0f, -1.0f, 0.0f);
    d.bmax = wf_v3(3.0f, 1.0f, 3.0f);
    d.verts = verts;
    d.vert_count = 8;
    d.polys = polys;
    d.poly_count = 2;
    d.offmesh_links = &link;
    d.offmesh_link_count = 1;
    d.walkable_height = 2.0f;
    d.walkable_radius = 0.5f;
    d.walkable_climb = 0.5f;
    d.allocator = f->alloc;
    void* data;
    size_t size;
    wf_tile_ref tile;
    assert_int_equal(wf_tile_build(&d, &data, &size), WF_OK);
    assert_int_equal(
        wf_mesh_add_tile(f->mesh, data, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &tile),
        WF_OK);
    grid_make_query(f, 64);
}

static void test_ray_never_takes_offmesh_links(void** state) {
    (void)state;
    grid_fixture f;
    open_gap_with_link(&f);
    wf_tile_ref tile;
    assert_int_equal(wf_mesh_find_tile(f.mesh, 0, 0, 0, &tile), WF_OK);
    wf_poly_ref left = wf_mesh_poly_ref(f.mesh, tile, 0);
    wf_poly_ref link = wf_mesh_poly_ref(f.mesh, tile, 2);
    assert_true(wf_mesh_is_offmesh_link(f.mesh, link));
    wf_query_filter filter = wf_query_filter_defaults();
    wf_poly_ref visited[4];
    wf_raycast_hit hit;
    assert_int_equal(wf_query_raycast(f.query, left, wf_v3(0.5f, 0.0f, 0.5f),
                                      wf_v3(2.5f, 0.0f, 0.5f), &filter, visited, 4, &hit),
                     WF_OK);
    assert_float_equal(hit.t, 0.25f, EPS);
    assert_int_equal(hit.visited_count, 1);
    // Nor does a move along the surface.
    wf_vec3 pos;
    uint32_t count;
    assert_int_equal(wf_query_move_along_surface(f.query, left, wf_v3(0.5f, 0.0f, 0.5f),
                                                 wf_v3(2.5f, 0.0f, 0.5f), &filter, &pos, visited, 4,
                                                 &count),
                     WF_OK);
    assert_vec_near(pos, 1.0f, 0.0f, 0.5f);
    assert_int_equal(count, 1);

    // Both refuse to start on an off-mesh link: it has no surface.
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    assert_int_equal(wf_query_raycast(f.query, link, wf_v3(0.5f, 0.0f, 0.5f),
                                      wf_v3(2.5f, 0.0f, 0.5f), &filter, visited, 4, &hit),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_move_along_surface(f.query, link, wf_v3(0.5f, 0.0f, 0.5f),
                                                 wf_v3(2.5f, 0.0f, 0.5f), &filter, &pos, visited, 4,
                                                 &count),
                     WF_ERR_INVALID_ARG);
    wf_set_assert_hook(previous);
    grid_close(&f);
}

/* ---- move along surface ---- */

static void test_move_reaches_open_target(void** state) {
    (void)state;
    grid_fixture f;
    grid_open(&f, 2, 1, 2, 1.0f, NULL, NULL, 256); // 4 x 2 cells, tile border at x = 2
    wf_query_filter filter = wf_query_filter_defaults();
    wf_poly_ref visited[8];
    uint32_t count = 0;
    wf_vec3 pos;
    assert_int_equal(wf_query_move_along_surface(f.query, grid_cell(&f, 0, 0),
                                                 wf_v3(0.5f, 0.0f, 0.5f), wf_v3(2.5f, 0.0f, 0.5f),
                                                 &filter, &pos, visited, 8, &count),
                     WF_OK);
    assert_vec_near(pos, 2.5f, 0.0f, 0.5f);
    assert_int_equal(count, 3);
    for (uint32_t x = 0; x < 3; ++x) {
        assert_true(wf_poly_ref_equal(visited[x], grid_cell(&f, x, 0)));
    }
    // The result keeps the start height (the polygon plane's, by contract).
    assert_int_equal(wf_query_move_along_surface(f.query, grid_cell(&f, 0, 0),
                                                 wf_v3(0.5f, 0.25f, 0.5f), wf_v3(0.7f, 3.0f, 0.6f),
                                                 &filter, &pos, visited, 8, &count),
                     WF_OK);
    assert_vec_near(pos, 0.7f, 0.25f, 0.6f);
    assert_int_equal(count, 1);

    // The chain does not fit: the start end of it is kept.
    assert_int_equal(wf_query_move_along_surface(f.query, grid_cell(&f, 0, 0),
                                                 wf_v3(0.5f, 0.0f, 0.5f), wf_v3(2.5f, 0.0f, 0.5f),
                                                 &filter, &pos, visited, 2, &count),
                     WF_PARTIAL);
    assert_int_equal(count, 2);
    assert_true(wf_poly_ref_equal(visited[0], grid_cell(&f, 0, 0)));
    assert_true(wf_poly_ref_equal(visited[1], grid_cell(&f, 1, 0)));
    assert_vec_near(pos, 2.5f, 0.0f, 0.5f);
    // Without a buffer: the count is the chain's length.
    assert_int_equal(wf_query_move_along_surface(f.query, grid_cell(&f, 0, 0),
                                                 wf_v3(0.5f, 0.0f, 0.5f), wf_v3(2.5f, 0.0f, 0.5f),
                                                 &filter, &pos, NULL, 0, &count),
                     WF_OK);
    assert_int_equal(count, 3);
    grid_close(&f);
}

static void test_move_slides_along_walls(void** state) {
    (void)state;
    uint8_t blocked[16] = {0};
    blocked[1 * 4 + 2] = 1; // cell (2, 1)
    grid_fixture f;
    grid_open(&f, 1, 1, 4, 1.0f, blocked, NULL, 256);
    wf_query_filter filter = wf_query_filter_defaults();
    wf_poly_ref visited[8];
    uint32_t count = 0;
    wf_vec3 pos;
    // Into the blocked cell: stops on its face x = 2 at the target's z.
    assert_int_equal(wf_query_move_along_surface(f.query, grid_cell(&f, 1, 1),
                                                 wf_v3(1.5f, 0.0f, 1.5f), wf_v3(2.4f, 0.0f, 1.5f),
                                                 &filter, &pos, visited, 8, &count),
                     WF_OK);
    assert_vec_near(pos, 2.0f, 0.0f, 1.5f);
    assert_int_equal(count, 1);
    assert_true(wf_poly_ref_equal(visited[0], grid_cell(&f, 1, 1)));

    // Diagonally out of the mesh across z = 0: slides along the border to
    // the target's x. The search also enters (2, 0), whose closest point
    // (2, 0) is further from the target (0.51 against 0.5).
    assert_int_equal(wf_query_move_along_surface(f.query, grid_cell(&f, 1, 0),
                                                 wf_v3(1.5f, 0.0f, 0.5f), wf_v3(1.9f, 0.0f, -0.5f),
                                                 &filter, &pos, visited, 8, &count),
                     WF_OK);
    assert_vec_near(pos, 1.9f, 0.0f, 0.0f);
    assert_int_equal(count, 1);
    assert_true(wf_poly_ref_equal(visited[0], grid_cell(&f, 1, 0)));

    // Sliding into the next cell along the border: the target's closest
    // surface point (2.5, 0) lies in cell (2, 0).
    assert_int_equal(wf_query_move_along_surface(f.query, grid_cell(&f, 1, 0),
                                                 wf_v3(1.5f, 0.0f, 0.5f), wf_v3(2.5f, 0.0f, -0.5f),
                                                 &filter, &pos, visited, 8, &count),
                     WF_OK);
    assert_vec_near(pos, 2.5f, 0.0f, 0.0f);
    assert_int_equal(count, 2);
    assert_true(wf_poly_ref_equal(visited[0], grid_cell(&f, 1, 0)));
    assert_true(wf_poly_ref_equal(visited[1], grid_cell(&f, 2, 0)));

    // A refused polygon is a wall too.
    assert_int_equal(wf_mesh_set_poly_flags(f.mesh, grid_cell(&f, 1, 2), 0x8), WF_OK);
    filter.exclude_flags = 0x8;
    assert_int_equal(wf_query_move_along_surface(f.query, grid_cell(&f, 1, 1),
                                                 wf_v3(1.5f, 0.0f, 1.5f), wf_v3(1.7f, 0.0f, 2.3f),
                                                 &filter, &pos, visited, 8, &count),
                     WF_OK);
    assert_vec_near(pos, 1.7f, 0.0f, 2.0f);
    assert_int_equal(count, 1);

    grid_close(&f);

    // A wall of blocked cells (2, 0) (2, 1) (2, 2), open round its end at
    // z = 3. The target (3.5, 0.5) behind it is reachable only by a detour
    // far outside the move's circle (centre (2.5, 0.5), radius 1): the move
    // stops at the wall instead of tunnelling round it.
    memset(blocked, 0, sizeof blocked);
    blocked[0 * 4 + 2] = blocked[1 * 4 + 2] = blocked[2 * 4 + 2] = 1;
    grid_open(&f, 1, 1, 4, 1.0f, blocked, NULL, 256);
    filter = wf_query_filter_defaults();
    assert_int_equal(wf_query_move_along_surface(f.query, grid_cell(&f, 1, 0),
                                                 wf_v3(1.5f, 0.0f, 0.5f), wf_v3(3.5f, 0.0f, 0.5f),
                                                 &filter, &pos, visited, 8, &count),
                     WF_OK);
    assert_vec_near(pos, 2.0f, 0.0f, 0.5f);
    assert_int_equal(count, 1);
    assert_true(wf_poly_ref_equal(visited[0], grid_cell(&f, 1, 0)));
    grid_close(&f);

    // The end point always lies on the mesh.
    memset(blocked, 0, sizeof blocked);
    blocked[1 * 4 + 2] = 1;
    grid_open(&f, 1, 1, 4, 1.0f, blocked, NULL, 256);
    filter = wf_query_filter_defaults();
    for (int i = 0; i < 16; ++i) {
        float a = (float)i * 0.3926991f; // 16 directions
        wf_vec3 target = wf_v3(1.5f + 3.0f * cosf(a), 0.0f, 1.5f + 3.0f * sinf(a));
        assert_int_equal(wf_query_move_along_surface(f.query, grid_cell(&f, 1, 1),
                                                     wf_v3(1.5f, 0.0f, 1.5f), target, &filter, &pos,
                                                     visited, 8, &count),
                         WF_OK);
        assert_true(count >= 1);
        wf_vec3 inside = pos;
        float h;
        assert_int_equal(wf_query_poly_height(f.query, visited[count - 1], inside, &h), WF_OK);
        assert_true(pos.x >= -EPS && pos.x <= 4.0f + EPS && pos.z >= -EPS && pos.z <= 4.0f + EPS);
        assert_false(pos.x > 2.0f + EPS && pos.x < 3.0f - EPS && pos.z > 1.0f + EPS &&
                     pos.z < 2.0f - EPS); // never inside the blocked cell
    }
    grid_close(&f);
}

/* ---- bad input ---- */

static void test_bad_arguments_and_stale_refs(void** state) {
    (void)state;
    grid_fixture f;
    grid_open(&f, 2, 1, 2, 1.0f, NULL, NULL, 256);
    wf_query_filter filter = wf_query_filter_defaults();
    wf_poly_ref start = grid_cell(&f, 0, 0);
    wf_vec3 a = wf_v3(0.5f, 0.0f, 0.5f), b = wf_v3(3.5f, 0.0f, 0.5f);
    wf_vec3 nan_pos = wf_v3(NAN, 0.0f, 0.5f);
    wf_poly_ref visited[4];
    wf_raycast_hit hit;
    wf_vec3 pos;
    uint32_t count;

    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    assert_int_equal(wf_query_raycast(NULL, start, a, b, &filter, visited, 4, &hit),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_raycast(f.query, start, a, b, NULL, visited, 4, &hit),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_raycast(f.query, start, a, b, &filter, visited, 4, NULL),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_raycast(f.query, start, nan_pos, b, &filter, visited, 4, &hit),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(
        wf_query_raycast(f.query, start, a, wf_v3(INFINITY, 0.0f, 0.0f), &filter, visited, 4, &hit),
        WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_raycast(f.query, (wf_poly_ref){0}, a, b, &filter, visited, 4, &hit),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(
        wf_query_move_along_surface(NULL, start, a, b, &filter, &pos, visited, 4, &count),
        WF_ERR_INVALID_ARG);
    assert_int_equal(
        wf_query_move_along_surface(f.query, start, a, b, NULL, &pos, visited, 4, &count),
        WF_ERR_INVALID_ARG);
    assert_int_equal(
        wf_query_move_along_surface(f.query, start, a, b, &filter, NULL, visited, 4, &count),
        WF_ERR_INVALID_ARG);
    assert_int_equal(
        wf_query_move_along_surface(f.query, start, a, nan_pos, &filter, &pos, visited, 4, &count),
        WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_move_along_surface(f.query, (wf_poly_ref){0}, a, b, &filter, &pos,
                                                 visited, 4, &count),
                     WF_ERR_INVALID_ARG);
    wf_set_assert_hook(previous);

    // A ref into a removed tile is stale, not a crash; so is a ref whose
    // poly index does not exist.
    wf_poly_ref in_removed = grid_cell(&f, 3, 1);
    wf_tile_ref tile;
    assert_int_equal(wf_mesh_find_tile(f.mesh, 1, 0, 0, &tile), WF_OK);
    assert_int_equal(wf_mesh_remove_tile(f.mesh, tile, NULL, NULL), WF_OK);
    assert_int_equal(wf_query_raycast(f.query, in_removed, wf_v3(3.5f, 0.0f, 1.5f), b, &filter,
                                      visited, 4, &hit),
                     WF_ERR_STALE_REF);
    assert_int_equal(wf_query_move_along_surface(f.query, in_removed, wf_v3(3.5f, 0.0f, 1.5f), b,
                                                 &filter, &pos, visited, 4, &count),
                     WF_ERR_STALE_REF);
    // The remaining tile now ends at x = 2.
    assert_int_equal(wf_query_raycast(f.query, start, a, b, &filter, visited, 4, &hit), WF_OK);
    assert_float_equal(hit.t, 0.5f, EPS);
    assert_int_equal(hit.visited_count, 2);
    grid_close(&f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ray_along_open_row_crosses_tiles),
        cmocka_unit_test(test_ray_hits_blocked_cell_and_border),
        cmocka_unit_test(test_ray_through_partly_linked_tile_edge),
        cmocka_unit_test(test_ray_filter_and_area_costs),
        cmocka_unit_test(test_ray_small_buffer_and_outside_start),
        cmocka_unit_test(test_ray_never_takes_offmesh_links),
        cmocka_unit_test(test_move_reaches_open_target),
        cmocka_unit_test(test_move_slides_along_walls),
        cmocka_unit_test(test_bad_arguments_and_stale_refs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
