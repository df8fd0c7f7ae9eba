// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Local queries: polygons around a circle, the local neighbourhood on
// stacked floors, wall segments and distance to wall, with hand-counted
// answers on grid and hand-built meshes, and bad input.
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

/// Every query made here also checks that it names the mesh it reads (the
/// crowd's local boundary asks for it).
static void make_query(grid_fixture* f, uint32_t max_nodes) {
    grid_make_query(f, max_nodes);
    assert_ptr_equal(wf_query_get_mesh(f->query), f->mesh);
}

static void open_grid(grid_fixture* f, uint32_t tiles_x, uint32_t tiles_z, uint32_t n,
                      const uint8_t* blocked, const uint8_t* areas) {
    grid_open(f, tiles_x, tiles_z, n, 1.0f, blocked, areas, 256);
    assert_ptr_equal(wf_query_get_mesh(f->query), f->mesh);
}

static void assert_vec_near(wf_vec3 v, float x, float y, float z) {
    assert_float_equal(v.x, x, EPS);
    assert_float_equal(v.y, y, EPS);
    assert_float_equal(v.z, z, EPS);
}

static int index_of(const wf_poly_ref* refs, uint32_t count, wf_poly_ref r) {
    for (uint32_t i = 0; i < count; ++i) {
        if (wf_poly_ref_equal(refs[i], r)) {
            return (int)i;
        }
    }
    return -1;
}

static void add_tile(grid_fixture* f, const wf_tile_build_desc* desc) {
    void* data;
    size_t size;
    wf_tile_ref tile;
    assert_int_equal(wf_tile_build(desc, &data, &size), WF_OK);
    assert_int_equal(
        wf_mesh_add_tile(f->mesh, data, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &tile),
        WF_OK);
}

static wf_tile_build_desc tile_desc(const grid_fixture* f, float x0, float width) {
    wf_tile_build_desc d;
    memset(&d, 0, sizeof d);
    d.bmin = wf_v3(x0, -1.0f, 0.0f);
    d.bmax = wf_v3(x0 + width, 3.0f, width);
    d.walkable_height = 2.0f;
    d.walkable_radius = 0.5f;
    d.walkable_climb = 0.5f;
    d.allocator = f->alloc;
    return d;
}

/* ---- polygons around a circle ---- */

/// Cells counted by hand around cell (2, 2) from its centre (2.5, 2.5): a
/// neighbour is entered when the shared edge comes within the radius.
/// Side edges are 0.5 away (4 cells), edge ends 0.707 (the 4 diagonal
/// cells), edges two cells out in line 1.5 (4 cells), and their ends 1.58
/// (the 8 cells beside those); the 5 x 5 block's corners are 2.12 away.
static void test_circle_counts_on_open_grid(void** state) {
    (void)state;
    grid_fixture f;
    open_grid(&f, 2, 2, 3, NULL, NULL); // 6 x 6 cells, tile borders at 3
    wf_query_filter filter = wf_query_filter_defaults();
    wf_poly_ref refs[64], parents[64];
    float costs[64];
    uint32_t count = 0;
    wf_poly_ref start = grid_cell(&f, 2, 2);
    wf_vec3 c = wf_v3(2.5f, 0.0f, 2.5f);
    const float radii[] = {0.4f, 0.6f, 0.8f, 1.6f};
    const uint32_t expected[] = {1, 5, 9, 21};
    for (int i = 0; i < 4; ++i) {
        assert_int_equal(wf_query_find_polys_around_circle(f.query, start, c, radii[i], &filter,
                                                           refs, parents, costs, 64, &count),
                         WF_OK);
        assert_int_equal(count, expected[i]);
    }
    // Radius 1.6: the 5 x 5 block around the centre without its corners.
    for (uint32_t z = 0; z < 6; ++z) {
        for (uint32_t x = 0; x < 6; ++x) {
            bool corner = (x == 0 || x == 4) && (z == 0 || z == 4);
            bool in = x <= 4 && z <= 4 && !corner;
            assert_int_equal(index_of(refs, count, grid_cell(&f, x, z)) >= 0, in);
        }
    }
    // Dijkstra order: the start first with cost 0, then never cheaper.
    assert_true(wf_poly_ref_equal(refs[0], start));
    assert_true(wf_poly_ref_is_null(parents[0]));
    assert_float_equal(costs[0], 0.0f, 0.0f);
    for (uint32_t i = 1; i < count; ++i) {
        assert_true(costs[i] >= costs[i - 1]);
        int p = index_of(refs, i, parents[i]); // the parent came out earlier
        assert_true(p >= 0);
    }
    // Side cells: centre -> edge midpoint = 0.5. In line: 0.5 + 1.
    // Diagonal: 0.5 + sqrt(0.5) from one side cell's edge midpoint.
    const uint32_t side[4][2] = {{1, 2}, {3, 2}, {2, 1}, {2, 3}};
    for (int i = 0; i < 4; ++i) {
        int k = index_of(refs, count, grid_cell(&f, side[i][0], side[i][1]));
        assert_true(k >= 1 && k <= 4);
        assert_true(wf_poly_ref_equal(parents[k], start));
        assert_float_equal(costs[k], 0.5f, EPS);
    }
    int k = index_of(refs, count, grid_cell(&f, 4, 2));
    assert_float_equal(costs[k], 1.5f, EPS);
    assert_true(wf_poly_ref_equal(parents[k], grid_cell(&f, 3, 2)));
    k = index_of(refs, count, grid_cell(&f, 3, 3));
    assert_float_equal(costs[k], 0.5f + sqrtf(0.5f), EPS);
    assert_true(wf_poly_ref_equal(parents[k], grid_cell(&f, 3, 2)) ||
                wf_poly_ref_equal(parents[k], grid_cell(&f, 2, 3)));

    // Too small an output: what fits, in order, and WF_PARTIAL.
    wf_poly_ref few[3];
    assert_int_equal(wf_query_find_polys_around_circle(f.query, start, c, 0.8f, &filter, few, NULL,
                                                       NULL, 3, &count),
                     WF_PARTIAL);
    assert_int_equal(count, 3);
    assert_true(wf_poly_ref_equal(few[0], start));
    // A node pool of 3 cannot hold the 9 cells: partial as well.
    wf_query_destroy(f.query);
    make_query(&f, 3);
    assert_int_equal(wf_query_find_polys_around_circle(f.query, start, c, 0.8f, &filter, refs, NULL,
                                                       NULL, 64, &count),
                     WF_PARTIAL);
    assert_int_equal(count, 3);
    grid_close(&f);
}

static void test_circle_filter_and_area_costs(void** state) {
    (void)state;
    uint8_t areas[25] = {0};
    areas[2 * 5 + 2] = 3; // the centre cell
    grid_fixture f;
    open_grid(&f, 1, 1, 5, NULL, areas);
    wf_query_filter filter = wf_query_filter_defaults();
    filter.area_cost[3] = 3.0f;
    wf_poly_ref refs[16], parents[16];
    float costs[16];
    uint32_t count = 0;
    wf_poly_ref start = grid_cell(&f, 2, 2);
    wf_vec3 c = wf_v3(2.5f, 0.0f, 2.5f);
    assert_int_equal(wf_mesh_set_poly_flags(f.mesh, grid_cell(&f, 3, 2), 0x2), WF_OK);
    filter.exclude_flags = 0x2;
    assert_int_equal(wf_query_find_polys_around_circle(f.query, start, c, 0.6f, &filter, refs,
                                                       parents, costs, 16, &count),
                     WF_OK);
    assert_int_equal(count, 4); // (3, 2) refused
    assert_true(index_of(refs, count, grid_cell(&f, 3, 2)) < 0);
    for (uint32_t i = 1; i < count; ++i) {
        assert_float_equal(costs[i], 0.5f * 3.0f, EPS); // crossing the centre cell costs 3x
    }
    grid_close(&f);
}

/*
 * A spiral ramp on a 3 x 3 tile with no centre cell: R0 (0,0) -> R1 (1,0)
 * -> R2 (2,0) -> R3 (2,1) -> R4 (2,2) -> R5 (1,2) -> R6 (0,2) -> R7 (0,1)
 * -> R8, which lies over R0 two metres up (R7 climbs to it). An off-mesh
 * link goes from R0's centre to R4's centre.
 */
static void open_spiral(grid_fixture* f) {
    grid_begin(f);
    f->cells_per_tile = 3;
    wf_mesh_desc md;
    memset(&md, 0, sizeof md);
    md.tile_width = 3.0f;
    md.tile_depth = 3.0f;
    md.allocator = f->alloc;
    assert_int_equal(wf_mesh_create(&md, &f->mesh), WF_OK);
    float verts[20 * 3];
    for (int z = 0; z < 4; ++z) {
        for (int x = 0; x < 4; ++x) { // vertex z * 4 + x at (x, 0, z)
            float* v = &verts[3 * (z * 4 + x)];
            v[0] = (float)x;
            v[1] = 0.0f;
            v[2] = (float)z;
        }
    }
    // The upper corners: 16 (0,2,1), 17 (1,2,1), 18 (0,2,0), 19 (1,2,0).
    const float upper[] = {0, 2, 1, 1, 2, 1, 0, 2, 0, 1, 2, 0};
    memcpy(&verts[48], upper, sizeof upper);
    const uint16_t N = WF_NULL_INDEX;
    const uint16_t polys[9 * 6] = {
        0,  4,  5,  1,  N, N, // R0
        1,  5,  6,  2,  N, N, // R1
        2,  6,  7,  3,  N, N, // R2
        6,  10, 11, 7,  N, N, // R3
        10, 14, 15, 11, N, N, // R4
        9,  13, 14, 10, N, N, // R5
        8,  12, 13, 9,  N, N, // R6
        16, 8,  9,  17, N, N, // R7
        18, 16, 17, 19, N, N, // R8
    };
    // Edges: 0 -X, 1 +Z, 2 +X, 3 -Z for all (R7's run (0,1)->(0,2)->(1,2)->(1,1)).
    const uint16_t neighbours[9 * 6] = {
        N, N, 1, N, N, N, // R0: R1
        0, N, 2, N, N, N, // R1
        1, 3, N, N, N, N, // R2
        N, 4, N, 2, N, N, // R3
        5, N, N, 3, N, N, // R4
        6, N, 4, N, N, N, // R5
        N, N, 5, 7, N, N, // R6
        N, 6, N, 8, N, N, // R7: R6 across z = 2, R8 across z = 1 (upper)
        N, 7, N, N, N, N, // R8
    };
    wf_offmesh_link_desc link = {.start = wf_v3(0.5f, 0.0f, 0.5f),
                                 .end = wf_v3(2.5f, 0.0f, 2.5f),
                                 .radius = 0.4f,
                                 .flags = 1};
    wf_tile_build_desc d = tile_desc(f, 0.0f, 3.0f);
    d.verts = verts;
    d.vert_count = 20;
    d.polys = polys;
    d.poly_count = 9;
    d.neighbours = neighbours;
    d.offmesh_links = &link;
    d.offmesh_link_count = 1;
    add_tile(f, &d);
    make_query(f, 64);
}

static wf_poly_ref spiral(const grid_fixture* f, uint32_t i) {
    wf_tile_ref tile;
    assert_int_equal(wf_mesh_find_tile(f->mesh, 0, 0, 0, &tile), WF_OK);
    return wf_mesh_poly_ref(f->mesh, tile, i); // R0..R8, then the link (9)
}

static void test_neighbourhood_skips_the_floor_above(void** state) {
    (void)state;
    grid_fixture f;
    open_spiral(&f);
    wf_query_filter filter = wf_query_filter_defaults();
    wf_poly_ref refs[16], parents[16];
    float costs[16];
    uint32_t count = 0;
    wf_vec3 c = wf_v3(0.5f, 0.0f, 0.5f);
    // Breadth first along the spiral: R0..R7; R8 overlaps R0 and is not
    // linked to it, so it is left out.
    assert_int_equal(wf_query_find_local_neighbourhood(f.query, spiral(&f, 0), c, 10.0f, &filter,
                                                       refs, parents, 16, &count),
                     WF_OK);
    assert_int_equal(count, 8);
    for (uint32_t i = 0; i < 8; ++i) {
        assert_true(wf_poly_ref_equal(refs[i], spiral(&f, i)));
        if (i == 0) {
            assert_true(wf_poly_ref_is_null(parents[i]));
        } else {
            assert_true(wf_poly_ref_equal(parents[i], spiral(&f, i - 1)));
        }
    }
    // polys_around_circle keeps every polygon, and takes the off-mesh link.
    assert_int_equal(wf_query_find_polys_around_circle(f.query, spiral(&f, 0), c, 10.0f, &filter,
                                                       refs, parents, costs, 16, &count),
                     WF_OK);
    assert_int_equal(count, 10);
    for (uint32_t i = 0; i < 10; ++i) {
        assert_true(index_of(refs, count, spiral(&f, i)) >= 0);
    }
    // Small radius: R1 through the edge at 0.5, the link through its start
    // (at the centre: cost 0, so it comes out before R1).
    assert_int_equal(wf_query_find_polys_around_circle(f.query, spiral(&f, 0), c, 0.6f, &filter,
                                                       refs, parents, costs, 16, &count),
                     WF_OK);
    assert_int_equal(count, 3);
    assert_true(wf_poly_ref_equal(refs[1], spiral(&f, 9)));
    assert_float_equal(costs[1], 0.0f, EPS);
    assert_true(wf_poly_ref_equal(refs[2], spiral(&f, 1)));
    assert_float_equal(costs[2], 0.5f, EPS);
    assert_int_equal(wf_query_find_local_neighbourhood(f.query, spiral(&f, 0), c, 0.6f, &filter,
                                                       refs, NULL, 16, &count),
                     WF_OK);
    assert_int_equal(count, 2);
    assert_true(wf_poly_ref_equal(refs[1], spiral(&f, 1)));

    // Started on the upper floor, R0 is the one left out.
    assert_int_equal(wf_query_find_local_neighbourhood(f.query, spiral(&f, 8), c, 10.0f, &filter,
                                                       refs, NULL, 16, &count),
                     WF_OK);
    assert_int_equal(count, 8);
    assert_true(index_of(refs, count, spiral(&f, 0)) < 0);
    // Too small an output.
    assert_int_equal(wf_query_find_local_neighbourhood(f.query, spiral(&f, 0), c, 10.0f, &filter,
                                                       refs, NULL, 3, &count),
                     WF_PARTIAL);
    assert_int_equal(count, 3);
    assert_true(wf_poly_ref_equal(refs[2], spiral(&f, 2)));
    grid_close(&f);
}

static void test_neighbourhood_on_grid(void** state) {
    (void)state;
    grid_fixture f;
    open_grid(&f, 2, 2, 3, NULL, NULL);
    wf_query_filter filter = wf_query_filter_defaults();
    wf_poly_ref refs[64];
    uint32_t count = 0;
    // On a flat grid nothing overlaps: the same cells as the circle.
    const float radii[] = {0.4f, 0.6f, 0.8f, 1.6f};
    const uint32_t expected[] = {1, 5, 9, 21};
    for (int i = 0; i < 4; ++i) {
        assert_int_equal(wf_query_find_local_neighbourhood(f.query, grid_cell(&f, 2, 2),
                                                           wf_v3(2.5f, 0.0f, 2.5f), radii[i],
                                                           &filter, refs, NULL, 64, &count),
                         WF_OK);
        assert_int_equal(count, expected[i]);
    }
    grid_close(&f);
}

/* ---- wall segments ---- */

static void assert_segment(const wf_vec3* segs, uint32_t i, float ax, float az, float bx,
                           float bz) {
    assert_vec_near(segs[2 * i], ax, 0.0f, az);
    assert_vec_near(segs[2 * i + 1], bx, 0.0f, bz);
}

static void test_wall_segments_of_corner_cell(void** state) {
    (void)state;
    grid_fixture f;
    open_grid(&f, 1, 1, 3, NULL, NULL);
    wf_query_filter filter = wf_query_filter_defaults();
    wf_vec3 segs[16];
    wf_poly_ref neis[8];
    uint32_t count = 0;
    // Cell (0, 0): (0,0) -> (0,1) -> (1,1) -> (1,0). Edges 0 (x = 0) and
    // 3 (z = 0) are the mesh border; 1 and 2 lead to open cells.
    assert_int_equal(wf_query_get_poly_wall_segments(f.query, grid_cell(&f, 0, 0), &filter, segs,
                                                     neis, 8, &count),
                     WF_OK);
    assert_int_equal(count, 2);
    assert_segment(segs, 0, 0.0f, 0.0f, 0.0f, 1.0f);
    assert_segment(segs, 1, 1.0f, 0.0f, 0.0f, 0.0f);
    assert_true(wf_poly_ref_is_null(neis[0]) && wf_poly_ref_is_null(neis[1]));

    // Cell (1, 0) refused: edge 2 becomes a wall naming it.
    assert_int_equal(wf_mesh_set_poly_flags(f.mesh, grid_cell(&f, 1, 0), 0x2), WF_OK);
    filter.exclude_flags = 0x2;
    assert_int_equal(wf_query_get_poly_wall_segments(f.query, grid_cell(&f, 0, 0), &filter, segs,
                                                     neis, 8, &count),
                     WF_OK);
    assert_int_equal(count, 3);
    assert_segment(segs, 0, 0.0f, 0.0f, 0.0f, 1.0f);
    assert_segment(segs, 1, 1.0f, 1.0f, 1.0f, 0.0f);
    assert_segment(segs, 2, 1.0f, 0.0f, 0.0f, 0.0f);
    assert_true(wf_poly_ref_is_null(neis[0]));
    assert_true(wf_poly_ref_equal(neis[1], grid_cell(&f, 1, 0)));
    assert_true(wf_poly_ref_is_null(neis[2]));
    // Neighbours are optional; a short buffer gets the first walls.
    assert_int_equal(wf_query_get_poly_wall_segments(f.query, grid_cell(&f, 0, 0), &filter, segs,
                                                     NULL, 2, &count),
                     WF_PARTIAL);
    assert_int_equal(count, 2);
    assert_segment(segs, 1, 1.0f, 1.0f, 1.0f, 0.0f);
    // The centre cell has no walls.
    assert_int_equal(wf_query_get_poly_wall_segments(f.query, grid_cell(&f, 1, 1),
                                                     &(wf_query_filter){0}, segs, NULL, 0, &count),
                     WF_PARTIAL); // a zero filter refuses every neighbour: 4 walls, no room
    filter = wf_query_filter_defaults();
    assert_int_equal(wf_query_get_poly_wall_segments(f.query, grid_cell(&f, 1, 1), &filter, segs,
                                                     NULL, 0, &count),
                     WF_OK);
    assert_int_equal(count, 0);
    grid_close(&f);
}

/// Tile (0,0): one 2 x 2 square polygon; tile (1,0): a 2 x 2 grid tile
/// whose cell (2,1) is blocked, so the square's +X edge (x = 2, edge 2 from
/// (2,2) to (2,0)) is linked only for z in [0, 1].
static void open_split_tiles(grid_fixture* f) {
    grid_begin(f);
    f->cells_per_tile = 2;
    wf_mesh_desc md;
    memset(&md, 0, sizeof md);
    md.tile_width = 2.0f;
    md.tile_depth = 2.0f;
    md.allocator = f->alloc;
    assert_int_equal(wf_mesh_create(&md, &f->mesh), WF_OK);
    const float verts[] = {0, 0, 0, 0, 0, 2, 2, 0, 2, 2, 0, 0};
    const uint16_t polys[WF_MAX_VERTS_PER_POLY] = {0, 1, 2, 3, WF_NULL_INDEX, WF_NULL_INDEX};
    wf_tile_build_desc d = tile_desc(f, 0.0f, 2.0f);
    d.verts = verts;
    d.vert_count = 4;
    d.polys = polys;
    d.poly_count = 1;
    add_tile(f, &d);
    uint8_t blocked[8] = {0};
    blocked[1 * 4 + 2] = 1;
    size_t size;
    void* data = test_grid_tile(1, 0, 2, 2, 1.0f, blocked, NULL, &f->alloc, &size);
    assert_non_null(data);
    wf_tile_ref tile;
    assert_int_equal(
        wf_mesh_add_tile(f->mesh, data, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &tile),
        WF_OK);
    make_query(f, 64);
}

static wf_poly_ref square(const grid_fixture* f) {
    wf_tile_ref tile;
    assert_int_equal(wf_mesh_find_tile(f->mesh, 0, 0, 0, &tile), WF_OK);
    return wf_mesh_poly_ref(f->mesh, tile, 0);
}

static void test_wall_segments_of_partly_linked_edge(void** state) {
    (void)state;
    grid_fixture f;
    open_split_tiles(&f);
    wf_query_filter filter = wf_query_filter_defaults();
    wf_vec3 segs[16];
    wf_poly_ref neis[8];
    uint32_t count = 0;
    assert_int_equal(
        wf_query_get_poly_wall_segments(f.query, square(&f), &filter, segs, neis, 8, &count),
        WF_OK);
    assert_int_equal(count, 4);
    assert_segment(segs, 0, 0.0f, 0.0f, 0.0f, 2.0f);
    assert_segment(segs, 1, 0.0f, 2.0f, 2.0f, 2.0f);
    assert_segment(segs, 2, 2.0f, 2.0f, 2.0f, 1.0f); // the unlinked half of x = 2
    assert_segment(segs, 3, 2.0f, 0.0f, 0.0f, 0.0f);
    for (int i = 0; i < 4; ++i) {
        assert_true(wf_poly_ref_is_null(neis[i]));
    }
    // With cell (2, 0) refused the linked half is a wall naming it.
    assert_int_equal(wf_mesh_set_poly_flags(f.mesh, grid_cell(&f, 2, 0), 0x2), WF_OK);
    filter.exclude_flags = 0x2;
    assert_int_equal(
        wf_query_get_poly_wall_segments(f.query, square(&f), &filter, segs, neis, 8, &count),
        WF_OK);
    assert_int_equal(count, 5);
    assert_segment(segs, 2, 2.0f, 2.0f, 2.0f, 1.0f);
    assert_segment(segs, 3, 2.0f, 1.0f, 2.0f, 0.0f);
    assert_true(wf_poly_ref_is_null(neis[2]));
    assert_true(wf_poly_ref_equal(neis[3], grid_cell(&f, 2, 0)));
    grid_close(&f);
}

/// Found by fuzz/fuzz_cache_file: a tile the tile cache built from a valid
/// layer had 11 links on one portal edge (17 small polygons along the
/// neighbouring tile's border), and the wall queries asserted that an edge
/// has at most 8. Here the square of tile (0,0) faces the 12 cells of a
/// 12 x 12 grid tile across x = 2: the edge is open, or walled only where
/// a refused cell lies across.
static void test_wall_segments_of_edge_facing_many_polygons(void** state) {
    (void)state;
    grid_fixture f;
    grid_begin(&f);
    wf_mesh_desc md;
    memset(&md, 0, sizeof md);
    md.tile_width = 2.0f;
    md.tile_depth = 2.0f;
    md.allocator = f.alloc;
    assert_int_equal(wf_mesh_create(&md, &f.mesh), WF_OK);
    const float verts[] = {0, 0, 0, 0, 0, 2, 2, 0, 2, 2, 0, 0};
    const uint16_t polys[WF_MAX_VERTS_PER_POLY] = {0, 1, 2, 3, WF_NULL_INDEX, WF_NULL_INDEX};
    wf_tile_build_desc d = tile_desc(&f, 0.0f, 2.0f);
    d.verts = verts;
    d.vert_count = 4;
    d.polys = polys;
    d.poly_count = 1;
    add_tile(&f, &d);
    size_t size;
    void* data = test_grid_tile(1, 0, 2, 12, 2.0f / 12.0f, NULL, NULL, &f.alloc, &size);
    assert_non_null(data);
    wf_tile_ref grid;
    assert_int_equal(
        wf_mesh_add_tile(f.mesh, data, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &grid),
        WF_OK);
    make_query(&f, 64);

    wf_query_filter filter = wf_query_filter_defaults();
    wf_vec3 segs[32];
    wf_poly_ref neis[16];
    uint32_t count = 0;
    assert_int_equal(
        wf_query_get_poly_wall_segments(f.query, square(&f), &filter, segs, neis, 16, &count),
        WF_OK);
    assert_int_equal(count, 3); // x = 0, z = 2 and z = 0; x = 2 is open
    assert_segment(segs, 0, 0.0f, 0.0f, 0.0f, 2.0f);
    assert_segment(segs, 1, 0.0f, 2.0f, 2.0f, 2.0f);
    assert_segment(segs, 2, 2.0f, 0.0f, 0.0f, 0.0f);
    float dist;
    assert_int_equal(wf_query_find_distance_to_wall(f.query, square(&f), wf_v3(1.9f, 0.0f, 1.0f),
                                                    5.0f, &filter, &dist, NULL, NULL),
                     WF_OK);
    assert_float_equal(dist, 1.0f, EPS); // z = 0 and z = 2; x = 2 is open

    // Every other cell across refused: six walls along x = 2 name them.
    for (uint32_t z = 1; z < 12; z += 2) {
        wf_poly_ref across = wf_mesh_poly_ref(f.mesh, grid, z * 12u); // cell (0, z)
        assert_int_equal(wf_mesh_set_poly_flags(f.mesh, across, 0x2), WF_OK);
    }
    filter.exclude_flags = 0x2;
    assert_int_equal(
        wf_query_get_poly_wall_segments(f.query, square(&f), &filter, segs, neis, 16, &count),
        WF_OK);
    assert_int_equal(count, 9);
    for (uint32_t k = 0; k < 6; ++k) { // x = 2 runs from z = 2 down to z = 0
        float z1 = 2.0f - (float)(2u * k) * (2.0f / 12.0f);
        assert_segment(segs, 2u + k, 2.0f, z1, 2.0f, z1 - 2.0f / 12.0f);
        assert_false(wf_poly_ref_is_null(neis[2u + k]));
    }
    grid_close(&f);
}

/* ---- distance to wall ---- */

static void test_distance_to_wall_on_grid(void** state) {
    (void)state;
    uint8_t blocked[25] = {0};
    blocked[2 * 5 + 3] = 1; // cell (3, 2)
    grid_fixture f;
    open_grid(&f, 1, 1, 5, blocked, NULL);
    wf_query_filter filter = wf_query_filter_defaults();
    float d;
    wf_vec3 hit, normal;
    // Next to the mesh border x = 0.
    assert_int_equal(wf_query_find_distance_to_wall(f.query, grid_cell(&f, 0, 2),
                                                    wf_v3(0.5f, 0.0f, 2.5f), 3.0f, &filter, &d,
                                                    &hit, &normal),
                     WF_OK);
    assert_float_equal(d, 0.5f, EPS);
    assert_vec_near(hit, 0.0f, 0.0f, 2.5f);
    assert_vec_near(normal, 1.0f, 0.0f, 0.0f);
    // Nothing within 0.3.
    assert_int_equal(wf_query_find_distance_to_wall(f.query, grid_cell(&f, 0, 2),
                                                    wf_v3(0.5f, 0.0f, 2.5f), 0.3f, &filter, &d,
                                                    &hit, &normal),
                     WF_OK);
    assert_float_equal(d, 0.3f, 0.0f);
    assert_vec_near(hit, 0.5f, 0.0f, 2.5f);
    assert_vec_near(normal, 0.0f, 0.0f, 0.0f);
    // The blocked cell's face x = 3 (a wall of the start cell) is 0.8 away;
    // the nearest border (x = 0) is 2.2 away.
    assert_int_equal(wf_query_find_distance_to_wall(f.query, grid_cell(&f, 2, 2),
                                                    wf_v3(2.2f, 0.0f, 2.5f), 10.0f, &filter, &d,
                                                    &hit, &normal),
                     WF_OK);
    assert_float_equal(d, 0.8f, EPS);
    assert_vec_near(hit, 3.0f, 0.0f, 2.5f);
    assert_vec_near(normal, -1.0f, 0.0f, 0.0f);
    // From cell (1, 1), two cells from any wall: the borders x = 0 and
    // z = 0 are 1.5 away, the blocked cell's corner (3, 2) 1.58.
    assert_int_equal(wf_query_find_distance_to_wall(f.query, grid_cell(&f, 1, 1),
                                                    wf_v3(1.5f, 0.0f, 1.5f), 10.0f, &filter, &d,
                                                    &hit, &normal),
                     WF_OK);
    assert_float_equal(d, 1.5f, EPS);
    // Hit and normal are optional.
    assert_int_equal(wf_query_find_distance_to_wall(f.query, grid_cell(&f, 4, 4),
                                                    wf_v3(4.5f, 0.0f, 4.9f), 10.0f, &filter, &d,
                                                    NULL, NULL),
                     WF_OK);
    assert_float_equal(d, 0.1f, EPS);
    // A node pool of 2 cannot enter both neighbours within 0.5: partial,
    // and the distance is an upper bound of the true 0.5 (face x = 3).
    wf_query_destroy(f.query);
    make_query(&f, 2);
    assert_int_equal(wf_query_find_distance_to_wall(f.query, grid_cell(&f, 2, 2),
                                                    wf_v3(2.5f, 0.0f, 2.2f), 10.0f, &filter, &d,
                                                    &hit, &normal),
                     WF_PARTIAL);
    assert_true(d >= 0.5f - EPS && d <= 10.0f);
    grid_close(&f);
}

static void test_distance_to_wall_refused_and_split_edges(void** state) {
    (void)state;
    grid_fixture f;
    open_grid(&f, 1, 1, 5, NULL, NULL);
    wf_query_filter filter = wf_query_filter_defaults();
    float d;
    wf_vec3 hit, normal;
    // Refusing cell (3, 2) makes its face x = 3 a wall, like blocking it.
    assert_int_equal(wf_mesh_set_poly_flags(f.mesh, grid_cell(&f, 3, 2), 0x2), WF_OK);
    filter.exclude_flags = 0x2;
    assert_int_equal(wf_query_find_distance_to_wall(f.query, grid_cell(&f, 2, 2),
                                                    wf_v3(2.2f, 0.0f, 2.5f), 10.0f, &filter, &d,
                                                    &hit, &normal),
                     WF_OK);
    assert_float_equal(d, 0.8f, EPS);
    assert_vec_near(hit, 3.0f, 0.0f, 2.5f);
    assert_vec_near(normal, -1.0f, 0.0f, 0.0f);
    grid_close(&f);

    open_split_tiles(&f);
    filter = wf_query_filter_defaults();
    // Near the unlinked half of x = 2: 0.4 away (the border z = 2 is 0.8).
    assert_int_equal(wf_query_find_distance_to_wall(f.query, square(&f), wf_v3(1.6f, 0.0f, 1.2f),
                                                    5.0f, &filter, &d, &hit, &normal),
                     WF_OK);
    assert_float_equal(d, 0.4f, EPS);
    assert_vec_near(hit, 2.0f, 0.0f, 1.2f);
    assert_vec_near(normal, -1.0f, 0.0f, 0.0f);
    // Near the linked half it is open: the nearest wall is the border
    // z = 0, 0.5 away (the linked edge itself would be 0.1).
    assert_int_equal(wf_query_find_distance_to_wall(f.query, square(&f), wf_v3(1.9f, 0.0f, 0.5f),
                                                    5.0f, &filter, &d, &hit, &normal),
                     WF_OK);
    assert_float_equal(d, 0.5f, EPS);
    assert_vec_near(hit, 1.9f, 0.0f, 0.0f);
    assert_vec_near(normal, 0.0f, 0.0f, 1.0f);
    grid_close(&f);
}

/* ---- bad input ---- */

static void test_bad_arguments_and_stale_refs(void** state) {
    (void)state;
    grid_fixture f;
    open_grid(&f, 2, 1, 2, NULL, NULL);
    wf_query_filter filter = wf_query_filter_defaults();
    wf_poly_ref start = grid_cell(&f, 0, 0);
    wf_vec3 c = wf_v3(0.5f, 0.0f, 0.5f), nan_pos = wf_v3(NAN, 0.0f, 0.0f);
    wf_poly_ref refs[8];
    wf_vec3 segs[16];
    uint32_t count;
    float d;

    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    assert_int_equal(wf_query_find_polys_around_circle(NULL, start, c, 1.0f, &filter, refs, NULL,
                                                       NULL, 8, &count),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_polys_around_circle(f.query, start, c, 1.0f, NULL, refs, NULL,
                                                       NULL, 8, &count),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_polys_around_circle(f.query, start, c, 1.0f, &filter, NULL, NULL,
                                                       NULL, 8, &count),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_polys_around_circle(f.query, start, c, 1.0f, &filter, refs, NULL,
                                                       NULL, 8, NULL),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_polys_around_circle(f.query, start, nan_pos, 1.0f, &filter, refs,
                                                       NULL, NULL, 8, &count),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_polys_around_circle(f.query, start, c, -1.0f, &filter, refs,
                                                       NULL, NULL, 8, &count),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_polys_around_circle(f.query, start, c, NAN, &filter, refs, NULL,
                                                       NULL, 8, &count),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_polys_around_circle(f.query, (wf_poly_ref){0}, c, 1.0f, &filter,
                                                       refs, NULL, NULL, 8, &count),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(
        wf_query_find_local_neighbourhood(f.query, start, c, 1.0f, NULL, refs, NULL, 8, &count),
        WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_local_neighbourhood(f.query, start, c, INFINITY, &filter, refs,
                                                       NULL, 8, &count),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_local_neighbourhood(f.query, start, nan_pos, 1.0f, &filter, refs,
                                                       NULL, 8, &count),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_get_poly_wall_segments(f.query, start, NULL, segs, NULL, 8, &count),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(
        wf_query_get_poly_wall_segments(f.query, start, &filter, NULL, NULL, 8, &count),
        WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_get_poly_wall_segments(f.query, start, &filter, segs, NULL, 8, NULL),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(
        wf_query_get_poly_wall_segments(f.query, (wf_poly_ref){0}, &filter, segs, NULL, 8, &count),
        WF_ERR_INVALID_ARG);
    assert_int_equal(
        wf_query_find_distance_to_wall(f.query, start, c, 1.0f, &filter, NULL, NULL, NULL),
        WF_ERR_INVALID_ARG);
    assert_int_equal(
        wf_query_find_distance_to_wall(f.query, start, c, -0.5f, &filter, &d, NULL, NULL),
        WF_ERR_INVALID_ARG);
    assert_int_equal(
        wf_query_find_distance_to_wall(f.query, start, nan_pos, 1.0f, &filter, &d, NULL, NULL),
        WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_distance_to_wall(NULL, start, c, 1.0f, &filter, &d, NULL, NULL),
                     WF_ERR_INVALID_ARG);
    wf_set_assert_hook(previous);

    wf_poly_ref in_removed = grid_cell(&f, 3, 1);
    wf_tile_ref tile;
    assert_int_equal(wf_mesh_find_tile(f.mesh, 1, 0, 0, &tile), WF_OK);
    assert_int_equal(wf_mesh_remove_tile(f.mesh, tile, NULL, NULL), WF_OK);
    wf_vec3 p = wf_v3(3.5f, 0.0f, 1.5f);
    assert_int_equal(wf_query_find_polys_around_circle(f.query, in_removed, p, 1.0f, &filter, refs,
                                                       NULL, NULL, 8, &count),
                     WF_ERR_STALE_REF);
    assert_int_equal(wf_query_find_local_neighbourhood(f.query, in_removed, p, 1.0f, &filter, refs,
                                                       NULL, 8, &count),
                     WF_ERR_STALE_REF);
    assert_int_equal(
        wf_query_get_poly_wall_segments(f.query, in_removed, &filter, segs, NULL, 8, &count),
        WF_ERR_STALE_REF);
    assert_int_equal(
        wf_query_find_distance_to_wall(f.query, in_removed, p, 1.0f, &filter, &d, NULL, NULL),
        WF_ERR_STALE_REF);
    // The cell next to the removed tile now has a wall on its +X edge.
    assert_int_equal(wf_query_get_poly_wall_segments(f.query, grid_cell(&f, 1, 0), &filter, segs,
                                                     NULL, 8, &count),
                     WF_OK);
    assert_int_equal(count, 2);
    assert_segment(segs, 0, 2.0f, 1.0f, 2.0f, 0.0f);
    assert_segment(segs, 1, 2.0f, 0.0f, 1.0f, 0.0f);
    grid_close(&f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_circle_counts_on_open_grid),
        cmocka_unit_test(test_circle_filter_and_area_costs),
        cmocka_unit_test(test_neighbourhood_skips_the_floor_above),
        cmocka_unit_test(test_neighbourhood_on_grid),
        cmocka_unit_test(test_wall_segments_of_corner_cell),
        cmocka_unit_test(test_wall_segments_of_partly_linked_edge),
        cmocka_unit_test(test_wall_segments_of_edge_facing_many_polygons),
        cmocka_unit_test(test_distance_to_wall_on_grid),
        cmocka_unit_test(test_distance_to_wall_refused_and_split_edges),
        cmocka_unit_test(test_bad_arguments_and_stale_refs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
