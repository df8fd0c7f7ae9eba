// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Path corridor: set/merge, corners, moves of the start and the target,
// visibility and topology shortcuts, validity, trim, fix_start, off-mesh
// links, and agents walking the arena scenarios (shared test data).
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
#include "crowd/corridor.h"
#include "crowd/ref_codec.h"
#include "test_grid_fixture.h"
#include "test_meshes.h"
#include "wayfarer/query.h"

#define N WF_NULL_INDEX
#define EPS 1e-4f
#define MAX_POLYS 256

/// The corridors' 32-bit ids (crowd/ref_codec.h) over a test's mesh, and
/// the scratch the string pull and the topology pass read the corridor from.
static wf_ref_codec g_codec;
static wf_poly_ref g_scratch[MAX_POLYS];

static const wf_ref_codec* codec_for(const wf_mesh* mesh) {
    wf_ref_codec_init(&g_codec, mesh);
    return &g_codec;
}

/// A corridor over ids[0..capacity), empty.
static void open_store(wf_corridor* c, uint32_t* ids, uint32_t capacity, const wf_mesh* mesh) {
    memset(ids, 0xff, capacity * sizeof *ids);
    wf_corridor_init(c, ids, capacity, codec_for(mesh));
}

typedef struct fixture {
    grid_fixture grid;
    uint32_t storage[MAX_POLYS];
    wf_corridor c;
} fixture;

static void corridor_init(fixture* f, uint32_t capacity) {
    assert_true(capacity <= MAX_POLYS);
    open_store(&f->c, f->storage, capacity, f->grid.mesh);
}

/// A grid of unit cells (see test_mesh_grid) with a query and a corridor.
static void open_corridor(fixture* f, uint32_t tiles, uint32_t n, const uint8_t* blocked) {
    grid_open(&f->grid, tiles, tiles, n, 1.0f, blocked, NULL, 512);
    corridor_init(f, MAX_POLYS);
}

/// Centre of cell (x, z) at y = 0.
static wf_vec3 centre(uint32_t x, uint32_t z) {
    return wf_v3((float)x + 0.5f, 0.0f, (float)z + 0.5f);
}

/// Fills the corridor with cells given as {x, z} pairs.
static void set_cells(fixture* f, const uint32_t (*cells)[2], uint32_t n, wf_vec3 pos,
                      wf_vec3 target) {
    wf_poly_ref path[MAX_POLYS];
    for (uint32_t i = 0; i < n; ++i) {
        path[i] = grid_cell(&f->grid, cells[i][0], cells[i][1]);
    }
    wf_corridor_reset(&f->c, path[0], pos);
    assert_true(wf_corridor_set_path(&f->c, target, path, n));
}

static void assert_cells(const fixture* f, const uint32_t (*cells)[2], uint32_t n) {
    if (f->c.count != n) {
        fail_msg("corridor has %u polygons, expected %u", f->c.count, n);
    }
    for (uint32_t i = 0; i < n; ++i) {
        if (wf_corridor_poly(&f->c, i).bits != grid_cell(&f->grid, cells[i][0], cells[i][1]).bits) {
            fail_msg("polygon %u is not cell (%u, %u)", i, cells[i][0], cells[i][1]);
        }
    }
}

static bool near_2d(wf_vec3 a, wf_vec3 b) { return wf_v2_distance(a, b) <= EPS; }

/// True when p lies on ref seen from above (edges included).
static bool on_poly(wf_query* q, wf_poly_ref ref, wf_vec3 p) {
    wf_vec3 closest;
    return wf_query_closest_point_on_poly(q, ref, p, &closest, NULL) == WF_OK &&
           near_2d(closest, p);
}

/// The corridor's invariants: pos on polys[0], target on the last polygon,
/// no polygon twice, consecutive polygons linked (the straight path
/// follows it to the end without stopping at a gap).
static void assert_consistent(wf_query* q, const wf_corridor* c) {
    assert_true(c->count >= 1 && c->count <= c->capacity);
    assert_true(on_poly(q, wf_corridor_poly(c, 0), c->pos));
    assert_true(on_poly(q, wf_corridor_poly(c, c->count - 1), c->target));
    for (uint32_t i = 0; i < c->count; ++i) {
        for (uint32_t k = i + 1; k < c->count; ++k) {
            if (wf_corridor_poly(c, i).bits == wf_corridor_poly(c, k).bits) {
                fail_msg("polygon at %u repeats at %u", i, k);
            }
        }
    }
    static wf_straight_point pts[MAX_POLYS];
    uint32_t n = 0;
    uint32_t count = wf_corridor_copy(c, g_scratch, c->count);
    assert_int_equal(
        wf_query_find_straight_path(q, c->pos, c->target, g_scratch, count, pts, MAX_POLYS, 0, &n),
        WF_OK);
    assert_true(near_2d(pts[n - 1].pos, c->target));
}

/* ---------------------------------------------------------------------------
 * Setting and merging paths (open 8 x 8 grid; row z = 0 is c0..c7, z = 1
 * is r0..r7 in the comments)
 */

static void test_reset_and_set_path(void** state) {
    (void)state;
    fixture f;
    open_corridor(&f, 1, 8, NULL);
    corridor_init(&f, 4);
    wf_corridor_reset(&f.c, grid_cell(&f.grid, 2, 2), centre(2, 2));
    assert_int_equal(f.c.count, 1);
    assert_true(wf_corridor_poly(&f.c, 0).bits == grid_cell(&f.grid, 2, 2).bits);
    assert_true(wf_v3_equal(f.c.pos, centre(2, 2)) && wf_v3_equal(f.c.target, centre(2, 2)));

    wf_poly_ref path[7];
    for (uint32_t x = 0; x < 7; ++x) {
        path[x] = grid_cell(&f.grid, x, 0);
    }
    // Seven into four: cut, reported, the first four kept.
    assert_false(wf_corridor_set_path(&f.c, centre(6, 0), path, 7));
    assert_int_equal(f.c.count, 4);
    for (uint32_t i = 0; i < 4; ++i) {
        assert_true(wf_corridor_poly(&f.c, i).bits == path[i].bits);
    }
    assert_true(wf_v3_equal(f.c.target, centre(6, 0)));
    // Exactly the capacity fits.
    assert_true(wf_corridor_set_path(&f.c, centre(3, 0), path, 4));
    assert_int_equal(f.c.count, 4);
    assert_true(wf_corridor_set_path(&f.c, centre(2, 0), path, 3));
    assert_int_equal(f.c.count, 3);
    assert_true(wf_corridor_poly(&f.c, 2).bits == path[2].bits);
    assert_true(wf_v3_equal(f.c.target, centre(2, 0)));
    grid_close(&f.grid);
}

static void test_merge_replan_from_further_on(void** state) {
    (void)state;
    fixture f;
    open_corridor(&f, 1, 8, NULL);
    static const uint32_t row[4][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}};
    set_cells(&f, row, 4, centre(0, 0), centre(3, 0));
    // A replan from c2 to a new target in row 1.
    wf_poly_ref path[4] = {grid_cell(&f.grid, 2, 0), grid_cell(&f.grid, 2, 1),
                           grid_cell(&f.grid, 3, 1), grid_cell(&f.grid, 4, 1)};
    assert_true(wf_corridor_merge_path(&f.c, centre(4, 1), path, 4));
    static const uint32_t want[6][2] = {{0, 0}, {1, 0}, {2, 0}, {2, 1}, {3, 1}, {4, 1}};
    assert_cells(&f, want, 6);
    assert_true(wf_v3_equal(f.c.target, centre(4, 1)));
    assert_consistent(f.grid.query, &f.c);

    // A replan that goes round c2..c3 (say they were closed) rejoins at
    // c4: the path from c1 replaces the old way, it is not ignored because
    // the corridor also holds c4.
    static const uint32_t five[5][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}};
    set_cells(&f, five, 5, centre(0, 0), centre(4, 0));
    wf_poly_ref around[6] = {grid_cell(&f.grid, 1, 0), grid_cell(&f.grid, 1, 1),
                             grid_cell(&f.grid, 2, 1), grid_cell(&f.grid, 3, 1),
                             grid_cell(&f.grid, 4, 1), grid_cell(&f.grid, 4, 0)};
    assert_true(wf_corridor_merge_path(&f.c, centre(4, 0), around, 6));
    static const uint32_t want_around[7][2] = {{0, 0}, {1, 0}, {1, 1}, {2, 1},
                                               {3, 1}, {4, 1}, {4, 0}};
    assert_cells(&f, want_around, 7);
    assert_consistent(f.grid.query, &f.c);
    grid_close(&f.grid);
}

static void test_merge_after_the_agent_moved(void** state) {
    (void)state;
    fixture f;
    open_corridor(&f, 1, 8, NULL);
    // Asked from c0; meanwhile the agent walked on to c2.
    static const uint32_t now[2][2] = {{2, 0}, {3, 0}};
    set_cells(&f, now, 2, centre(2, 0), centre(3, 0));
    wf_poly_ref path[6];
    for (uint32_t x = 0; x < 6; ++x) {
        path[x] = grid_cell(&f.grid, x, 0);
    }
    assert_true(wf_corridor_merge_path(&f.c, centre(5, 0), path, 6));
    static const uint32_t want[4][2] = {{2, 0}, {3, 0}, {4, 0}, {5, 0}};
    assert_cells(&f, want, 4);
    assert_true(wf_v3_equal(f.c.pos, centre(2, 0)));
    assert_consistent(f.grid.query, &f.c);
    grid_close(&f.grid);
}

static void test_merge_without_shared_polygon_changes_nothing(void** state) {
    (void)state;
    fixture f;
    open_corridor(&f, 1, 8, NULL);
    static const uint32_t row[2][2] = {{0, 0}, {1, 0}};
    set_cells(&f, row, 2, centre(0, 0), centre(1, 0));
    wf_poly_ref path[2] = {grid_cell(&f.grid, 3, 1), grid_cell(&f.grid, 4, 1)};
    assert_false(wf_corridor_merge_path(&f.c, centre(4, 1), path, 2));
    assert_cells(&f, row, 2);
    assert_true(wf_v3_equal(f.c.target, centre(1, 0)));
    grid_close(&f.grid);
}

static void test_merge_respects_capacity(void** state) {
    (void)state;
    fixture f;
    open_corridor(&f, 1, 8, NULL);
    corridor_init(&f, 4);
    static const uint32_t row[2][2] = {{0, 0}, {1, 0}};
    set_cells(&f, row, 2, centre(0, 0), centre(1, 0));
    wf_poly_ref path[5];
    for (uint32_t x = 0; x < 5; ++x) {
        path[x] = grid_cell(&f.grid, x + 1, 0);
    }
    assert_true(wf_corridor_merge_path(&f.c, centre(5, 0), path, 5));
    static const uint32_t want[4][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}};
    assert_cells(&f, want, 4);
    // The cut shows: the last polygon is not the path's.
    assert_false(wf_corridor_poly(&f.c, 3).bits == path[4].bits);
    grid_close(&f.grid);
}

/* ---------------------------------------------------------------------------
 * Corners (the L of tests/navcore/straight_path.c: row z = 0 and column
 * x = 3 of a 4 x 4 grid)
 */

static const uint8_t l_blocked[16] = {
    0, 0, 0, 0, //
    1, 1, 1, 0, //
    1, 1, 1, 0, //
    1, 1, 1, 0,
};
static const uint32_t l_cells[7][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {3, 1}, {3, 2}, {3, 3}};

static void test_corners_of_an_l(void** state) {
    (void)state;
    fixture f;
    open_corridor(&f, 1, 4, l_blocked);
    set_cells(&f, l_cells, 7, centre(0, 0), centre(3, 3));
    wf_straight_point out[WF_CROWD_MAX_CORNERS];
    // The start point is not a corner; the bend is the inner wall vertex
    // (3, 1), entering cell (3, 1); then the target.
    uint32_t n = wf_corridor_find_corners(&f.c, f.grid.query, g_scratch, out, WF_CROWD_MAX_CORNERS);
    assert_int_equal(n, 2);
    assert_true(near_2d(out[0].pos, wf_v3(3.0f, 0.0f, 1.0f)));
    assert_int_equal(out[0].flags, 0);
    assert_true(out[0].ref.bits == grid_cell(&f.grid, 3, 1).bits);
    assert_true(near_2d(out[1].pos, centre(3, 3)));
    assert_int_equal(out[1].flags, WF_STRAIGHT_END);
    // max bounds the count.
    assert_int_equal(wf_corridor_find_corners(&f.c, f.grid.query, g_scratch, out, 1), 1);
    assert_true(near_2d(out[0].pos, wf_v3(3.0f, 0.0f, 1.0f)));
    assert_int_equal(wf_corridor_find_corners(&f.c, f.grid.query, g_scratch, out, 0), 0);

    // 7 mm from the bend: it counts as passed; the target is next.
    static const uint32_t rest[5][2] = {{2, 0}, {3, 0}, {3, 1}, {3, 2}, {3, 3}};
    set_cells(&f, rest, 5, wf_v3(2.995f, 0.0f, 0.995f), centre(3, 3));
    n = wf_corridor_find_corners(&f.c, f.grid.query, g_scratch, out, WF_CROWD_MAX_CORNERS);
    assert_int_equal(n, 1);
    assert_int_equal(out[0].flags, WF_STRAIGHT_END);
    assert_true(near_2d(out[0].pos, centre(3, 3)));
    // 14 cm away it is still ahead.
    set_cells(&f, rest, 5, wf_v3(2.9f, 0.0f, 0.9f), centre(3, 3));
    assert_int_equal(
        wf_corridor_find_corners(&f.c, f.grid.query, g_scratch, out, WF_CROWD_MAX_CORNERS), 2);
    assert_true(near_2d(out[0].pos, wf_v3(3.0f, 0.0f, 1.0f)));

    // At the target: nothing left.
    wf_corridor_reset(&f.c, grid_cell(&f.grid, 3, 3), centre(3, 3));
    assert_int_equal(
        wf_corridor_find_corners(&f.c, f.grid.query, g_scratch, out, WF_CROWD_MAX_CORNERS), 0);
    grid_close(&f.grid);
}

/* ---------------------------------------------------------------------------
 * Moving the start
 */

/// Fills the corridor with cells (0, 0) .. (n - 1, 0) (n at most 32),
/// walking from pos to the last cell's centre.
static void set_row(fixture* f, uint32_t n, wf_vec3 pos) {
    uint32_t row[32][2];
    assert_true(n <= 32u);
    for (uint32_t x = 0; x < n; ++x) {
        row[x][0] = x;
        row[x][1] = 0;
    }
    set_cells(f, (const uint32_t(*)[2])row, n, pos, centre(n - 1u, 0));
}

static void test_move_position_advances_through_tiles(void** state) {
    (void)state;
    fixture f;
    open_corridor(&f, 2, 4, NULL); // 8 x 8 cells in 2 x 2 tiles
    set_row(&f, 8, wf_v3(0.55f, 0.0f, 0.5f));
    uint32_t last_count = f.c.count;
    int steps = 0;
    // 0.3 m steps never end on a cell border (0.55 + 0.3 k).
    while (f.c.pos.x < 7.2f) {
        wf_vec3 npos = wf_v3(f.c.pos.x + 0.3f, 0.0f, 0.5f);
        assert_true(wf_corridor_move_position(&f.c, npos, f.grid.query, &f.grid.filter));
        assert_true(near_2d(f.c.pos, npos));
        uint32_t cx = (uint32_t)floorf(f.c.pos.x);
        assert_int_equal(f.c.count, 8 - cx);
        assert_true(wf_corridor_poly(&f.c, 0).bits == grid_cell(&f.grid, cx, 0).bits);
        assert_true(f.c.count <= last_count);
        last_count = f.c.count;
        assert_true(wf_v3_equal(f.c.target, centre(7, 0)));
        assert_consistent(f.grid.query, &f.c);
        steps++;
    }
    assert_true(steps >= 20);
    assert_int_equal(f.c.count, 1);
    grid_close(&f.grid);
}

static void test_move_into_a_wall_slides(void** state) {
    (void)state;
    fixture f;
    open_corridor(&f, 1, 4, l_blocked);
    // From cell (2, 0) towards below the mesh edge: slides along z = 0
    // into cell (3, 0), the corridor's next polygon.
    set_cells(&f, l_cells + 2, 5, centre(2, 0), centre(3, 3));
    assert_true(
        wf_corridor_move_position(&f.c, wf_v3(3.5f, 0.0f, -0.5f), f.grid.query, &f.grid.filter));
    assert_true(near_2d(f.c.pos, wf_v3(3.5f, 0.0f, 0.0f)));
    assert_int_equal(f.c.count, 4);
    assert_true(wf_corridor_poly(&f.c, 0).bits == grid_cell(&f.grid, 3, 0).bits);
    assert_consistent(f.grid.query, &f.c);
    // Straight into the blocked cell (2, 1): stops at its wall.
    set_cells(&f, l_cells + 2, 5, centre(2, 0), centre(3, 3));
    assert_true(wf_corridor_move_position(&f.c, centre(2, 1), f.grid.query, &f.grid.filter));
    assert_true(near_2d(f.c.pos, wf_v3(2.5f, 0.0f, 1.0f)));
    assert_cells(&f, l_cells + 2, 5);
    assert_consistent(f.grid.query, &f.c);
    grid_close(&f.grid);
}

static void test_move_off_the_corridor_and_back(void** state) {
    (void)state;
    fixture f;
    open_corridor(&f, 1, 8, NULL);
    uint32_t row[8][2];
    for (uint32_t x = 0; x < 8; ++x) {
        row[x][0] = x;
        row[x][1] = 0;
    }
    set_cells(&f, (const uint32_t(*)[2])row, 8, centre(0, 0), centre(7, 0));
    // Pushed diagonally into row 1: the walk back to the corridor leads.
    assert_true(wf_corridor_move_position(&f.c, centre(1, 1), f.grid.query, &f.grid.filter));
    assert_true(near_2d(f.c.pos, centre(1, 1)));
    assert_true(wf_corridor_poly(&f.c, 0).bits == grid_cell(&f.grid, 1, 1).bits);
    assert_true(wf_corridor_poly(&f.c, f.c.count - 1).bits == grid_cell(&f.grid, 7, 0).bits);
    assert_true(f.c.count <= 10); // at worst back the way it walked
    assert_consistent(f.grid.query, &f.c);
    // Back onto the corridor further on: the detour is dropped.
    assert_true(wf_corridor_move_position(&f.c, centre(2, 0), f.grid.query, &f.grid.filter));
    assert_cells(&f, (const uint32_t(*)[2])row + 2, 6);
    assert_consistent(f.grid.query, &f.c);
    grid_close(&f.grid);
}

static void test_move_along_a_shared_edge(void** state) {
    (void)state;
    fixture f;
    open_corridor(&f, 1, 8, NULL);
    // Cells (1, 1) and (1, 0) share the edge z = 1; the agent walks on it
    // to a target on it. The move may end in either cell: the corridor
    // counts it in the one ahead, and the corners lead straight on.
    static const uint32_t two[2][2] = {{1, 1}, {1, 0}};
    set_cells(&f, two, 2, wf_v3(1.1f, 0.0f, 1.0f), wf_v3(1.9f, 0.0f, 1.0f));
    assert_true(
        wf_corridor_move_position(&f.c, wf_v3(1.3f, 0.0f, 1.0f), f.grid.query, &f.grid.filter));
    assert_true(near_2d(f.c.pos, wf_v3(1.3f, 0.0f, 1.0f)));
    assert_int_equal(f.c.count, 1);
    assert_true(wf_corridor_poly(&f.c, 0).bits == grid_cell(&f.grid, 1, 0).bits);
    wf_straight_point out[WF_CROWD_MAX_CORNERS];
    assert_int_equal(
        wf_corridor_find_corners(&f.c, f.grid.query, g_scratch, out, WF_CROWD_MAX_CORNERS), 1);
    assert_int_equal(out[0].flags, WF_STRAIGHT_END);
    assert_true(near_2d(out[0].pos, wf_v3(1.9f, 0.0f, 1.0f)));
    grid_close(&f.grid);
}

static void test_move_position_from_a_stale_polygon(void** state) {
    (void)state;
    fixture f;
    open_corridor(&f, 2, 2, NULL);
    static const uint32_t row[4][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}};
    set_cells(&f, row, 4, centre(0, 0), centre(3, 0));
    wf_tile_ref tile;
    assert_int_equal(wf_mesh_find_tile(f.grid.mesh, 0, 0, 0, &tile), WF_OK);
    assert_int_equal(wf_mesh_remove_tile(f.grid.mesh, tile, NULL, NULL), WF_OK);
    assert_false(wf_corridor_move_position(&f.c, centre(1, 0), f.grid.query, &f.grid.filter));
    assert_true(wf_v3_equal(f.c.pos, centre(0, 0)));
    assert_int_equal(f.c.count, 4);
    // The target's polygon lives on: it still moves.
    assert_true(
        wf_corridor_move_target(&f.c, wf_v3(3.25f, 0.0f, 0.5f), f.grid.query, &f.grid.filter));
    assert_int_equal(f.c.count, 4);
    assert_true(near_2d(f.c.target, wf_v3(3.25f, 0.0f, 0.5f)));
    grid_close(&f.grid);
}

/* ---------------------------------------------------------------------------
 * Moving the target
 */

static void test_move_target(void** state) {
    (void)state;
    fixture f;
    open_corridor(&f, 1, 8, NULL);
    static const uint32_t row[4][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}};
    set_cells(&f, row, 4, centre(0, 0), centre(3, 0));
    // On: one more polygon.
    assert_true(wf_corridor_move_target(&f.c, centre(4, 0), f.grid.query, &f.grid.filter));
    static const uint32_t longer[5][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}};
    assert_cells(&f, longer, 5);
    assert_true(near_2d(f.c.target, centre(4, 0)));
    assert_consistent(f.grid.query, &f.c);
    // Back along the corridor: cut where it walked back to.
    assert_true(wf_corridor_move_target(&f.c, centre(2, 0), f.grid.query, &f.grid.filter));
    assert_cells(&f, row, 3);
    assert_true(near_2d(f.c.target, centre(2, 0)));
    assert_consistent(f.grid.query, &f.c);
    // Sideways off it.
    assert_true(wf_corridor_move_target(&f.c, centre(2, 1), f.grid.query, &f.grid.filter));
    static const uint32_t side[4][2] = {{0, 0}, {1, 0}, {2, 0}, {2, 1}};
    assert_cells(&f, side, 4);
    assert_consistent(f.grid.query, &f.c);
    assert_true(wf_v3_equal(f.c.pos, centre(0, 0)));
    grid_close(&f.grid);
}

/* ---------------------------------------------------------------------------
 * Shortcuts
 */

static const uint32_t zig_zag[10][2] = {{0, 0}, {0, 1}, {1, 1}, {2, 1}, {2, 0},
                                        {3, 0}, {3, 1}, {4, 1}, {4, 0}, {5, 0}};

static void test_visibility_straightens_a_zig_zag(void** state) {
    (void)state;
    fixture f;
    open_corridor(&f, 1, 8, NULL);
    set_cells(&f, zig_zag, 10, centre(0, 0), centre(5, 0));
    assert_consistent(f.grid.query, &f.c);
    wf_corridor_optimize_visibility(&f.c, centre(5, 0), 30.0f, f.grid.query, &f.grid.filter);
    static const uint32_t straight[6][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}};
    assert_cells(&f, straight, 6);
    assert_true(wf_v3_equal(f.c.pos, centre(0, 0)) && wf_v3_equal(f.c.target, centre(5, 0)));
    assert_consistent(f.grid.query, &f.c);

    // Range 2.2 m: the ray stops in cell (2, 0), which the corridor
    // reaches at its 5th polygon; the rest stays.
    set_cells(&f, zig_zag, 10, centre(0, 0), centre(5, 0));
    wf_corridor_optimize_visibility(&f.c, centre(5, 0), 2.2f, f.grid.query, &f.grid.filter);
    static const uint32_t part[8][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 0},
                                        {3, 1}, {4, 1}, {4, 0}, {5, 0}};
    assert_cells(&f, part, 8);
    assert_consistent(f.grid.query, &f.c);

    // Next at pos: nothing to do.
    set_cells(&f, zig_zag, 10, centre(0, 0), centre(5, 0));
    wf_corridor_optimize_visibility(&f.c, wf_v3(0.505f, 0.0f, 0.5f), 30.0f, f.grid.query,
                                    &f.grid.filter);
    assert_cells(&f, zig_zag, 10);
    grid_close(&f.grid);
}

static void test_visibility_never_cuts_through_walls(void** state) {
    (void)state;
    fixture f;
    open_corridor(&f, 1, 4, l_blocked);
    set_cells(&f, l_cells, 7, centre(0, 0), centre(3, 3));
    // The target is behind the L's inner corner.
    wf_corridor_optimize_visibility(&f.c, centre(3, 3), 30.0f, f.grid.query, &f.grid.filter);
    assert_cells(&f, l_cells, 7);
    // Towards the corner itself: the corridor already runs straight there.
    wf_corridor_optimize_visibility(&f.c, wf_v3(3.0f, 0.0f, 1.0f), 30.0f, f.grid.query,
                                    &f.grid.filter);
    assert_cells(&f, l_cells, 7);
    // A filter that refuses cell (2, 0) makes it a wall for the ray.
    static const uint32_t row[4][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}};
    set_cells(&f, row, 4, centre(0, 0), centre(3, 0));
    assert_int_equal(wf_mesh_set_poly_flags(f.grid.mesh, grid_cell(&f.grid, 2, 0), 2), WF_OK);
    wf_query_filter refuse = wf_query_filter_defaults();
    refuse.exclude_flags = 2;
    wf_corridor_optimize_visibility(&f.c, centre(3, 0), 30.0f, f.grid.query, &refuse);
    assert_cells(&f, row, 4);
    grid_close(&f.grid);

    // A ray that crosses corridor polygons but meets a wall (cell (4, 0))
    // at 70 % of the way: no shortcut, though the part walked was clear.
    uint8_t blocked[64] = {0};
    blocked[4] = 1;
    open_corridor(&f, 1, 8, blocked);
    static const uint32_t round_wall[10][2] = {{0, 0}, {0, 1}, {1, 1}, {2, 1}, {2, 0},
                                               {3, 0}, {3, 1}, {4, 1}, {5, 1}, {5, 0}};
    set_cells(&f, round_wall, 10, centre(0, 0), centre(5, 0));
    wf_corridor_optimize_visibility(&f.c, centre(5, 0), 30.0f, f.grid.query, &f.grid.filter);
    assert_cells(&f, round_wall, 10);
    // Aimed at (3, 0), short of the wall, the same ray does shortcut.
    wf_corridor_optimize_visibility(&f.c, centre(3, 0), 30.0f, f.grid.query, &f.grid.filter);
    static const uint32_t shortened[8][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 0},
                                             {3, 1}, {4, 1}, {5, 1}, {5, 0}};
    assert_cells(&f, shortened, 8);
    assert_consistent(f.grid.query, &f.c);
    grid_close(&f.grid);
}

// 6 x 6 cells, rows 4 and 5 closed, a 2 x 2 pillar at x 2..3, z 1..2.
static const uint8_t pillar_blocked[36] = {
    0, 0, 0, 0, 0, 0, //
    0, 0, 1, 1, 0, 0, //
    0, 0, 1, 1, 0, 0, //
    0, 0, 0, 0, 0, 0, //
    1, 1, 1, 1, 1, 1, //
    1, 1, 1, 1, 1, 1,
};
// Round the pillar's far side (z = 3).
static const uint32_t long_way[10][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 3}, {2, 3},
                                         {3, 3}, {4, 3}, {5, 3}, {5, 2}, {5, 1}};

static void test_topology_finds_the_shorter_side(void** state) {
    (void)state;
    fixture f;
    open_corridor(&f, 1, 6, pillar_blocked);
    wf_vec3 start = wf_v3(0.5f, 0.0f, 1.2f), goal = wf_v3(5.5f, 0.0f, 1.2f);
    set_cells(&f, long_way, 10, start, goal);
    assert_consistent(f.grid.query, &f.c);
    // One expansion reaches only (0, 2) of the corridor, by the corridor's
    // own way: nothing changes.
    assert_false(wf_corridor_optimize_topology(&f.c, f.grid.query, &f.grid.filter, 1, g_scratch));
    assert_cells(&f, long_way, 10);
    // Enough to reach the target: the near side (z = 0) replaces the corridor.
    assert_true(wf_corridor_optimize_topology(&f.c, f.grid.query, &f.grid.filter, 256, g_scratch));
    assert_true(f.c.count < 10);
    assert_true(wf_corridor_poly(&f.c, 0).bits == grid_cell(&f.grid, 0, 1).bits);
    assert_true(wf_corridor_poly(&f.c, f.c.count - 1).bits == grid_cell(&f.grid, 5, 1).bits);
    bool near_side = false;
    for (uint32_t i = 0; i < f.c.count; ++i) {
        near_side |= wf_corridor_poly(&f.c, i).bits == grid_cell(&f.grid, 2, 0).bits;
        assert_false(wf_corridor_poly(&f.c, i).bits == grid_cell(&f.grid, 2, 3).bits);
    }
    assert_true(near_side);
    assert_true(wf_v3_equal(f.c.pos, start) && wf_v3_equal(f.c.target, goal));
    assert_consistent(f.grid.query, &f.c);
    // Already the best: no change the second time.
    uint32_t count = f.c.count;
    assert_false(wf_corridor_optimize_topology(&f.c, f.grid.query, &f.grid.filter, 256, g_scratch));
    assert_int_equal(f.c.count, count);
    // Too short to optimize.
    static const uint32_t two[2][2] = {{0, 1}, {0, 2}};
    set_cells(&f, two, 2, start, centre(0, 2));
    assert_false(wf_corridor_optimize_topology(&f.c, f.grid.query, &f.grid.filter, 256, g_scratch));
    grid_close(&f.grid);
}

/* ---------------------------------------------------------------------------
 * Validity, trim, fix_start
 */

static void test_valid_ahead_and_poly_passes(void** state) {
    (void)state;
    fixture f;
    open_corridor(&f, 2, 4, NULL);
    set_row(&f, 8, centre(0, 0));
    assert_int_equal(wf_corridor_valid_ahead(&f.c, 10, f.grid.mesh, &f.grid.filter), 8);
    assert_int_equal(wf_corridor_valid_ahead(&f.c, 3, f.grid.mesh, &f.grid.filter), 3);
    // Cell (2, 0) closed by its flags.
    wf_poly_ref c2 = grid_cell(&f.grid, 2, 0);
    assert_int_equal(wf_mesh_set_poly_flags(f.grid.mesh, c2, 0x4), WF_OK);
    wf_query_filter refuse = wf_query_filter_defaults();
    refuse.exclude_flags = 0x4;
    assert_int_equal(wf_corridor_valid_ahead(&f.c, 10, f.grid.mesh, &refuse), 2);
    assert_int_equal(wf_corridor_valid_ahead(&f.c, 2, f.grid.mesh, &refuse), 2);
    assert_false(wf_poly_passes(f.grid.mesh, c2, &refuse));
    assert_true(wf_poly_passes(f.grid.mesh, c2, &f.grid.filter));
    wf_query_filter need = wf_query_filter_defaults();
    need.include_flags = 0x1; // c2 now has only 0x4
    assert_false(wf_poly_passes(f.grid.mesh, c2, &need));
    assert_true(wf_poly_passes(f.grid.mesh, grid_cell(&f.grid, 1, 0), &need));
    assert_int_equal(wf_mesh_set_poly_flags(f.grid.mesh, c2, 0x1), WF_OK);
    assert_int_equal(wf_corridor_valid_ahead(&f.c, 10, f.grid.mesh, &refuse), 8);
    // Tile (1, 0) removed: cells 4..7 are stale.
    wf_poly_ref c5 = grid_cell(&f.grid, 5, 0);
    wf_tile_ref tile;
    assert_int_equal(wf_mesh_find_tile(f.grid.mesh, 1, 0, 0, &tile), WF_OK);
    assert_int_equal(wf_mesh_remove_tile(f.grid.mesh, tile, NULL, NULL), WF_OK);
    assert_int_equal(wf_corridor_valid_ahead(&f.c, 10, f.grid.mesh, &f.grid.filter), 4);
    assert_false(wf_poly_passes(f.grid.mesh, c5, &f.grid.filter));
    assert_false(wf_poly_passes(f.grid.mesh, c5, NULL));
    assert_true(wf_poly_passes(f.grid.mesh, c2, NULL));
    assert_false(wf_poly_passes(f.grid.mesh, (wf_poly_ref){0}, &f.grid.filter));
    grid_close(&f.grid);
}

/// A corridor longer than one run of checks (16 refs a mesh call): a
/// closed polygon in the second run is found at its own index.
static void test_valid_ahead_past_one_run(void** state) {
    (void)state;
    fixture f;
    open_corridor(&f, 3, 8, NULL);
    set_row(&f, 24, centre(0, 0));
    assert_int_equal(wf_corridor_valid_ahead(&f.c, 30, f.grid.mesh, &f.grid.filter), 24);
    wf_poly_ref c17 = grid_cell(&f.grid, 17, 0);
    assert_int_equal(wf_mesh_set_poly_flags(f.grid.mesh, c17, 0x4), WF_OK);
    wf_query_filter refuse = wf_query_filter_defaults();
    refuse.exclude_flags = 0x4;
    assert_int_equal(wf_corridor_valid_ahead(&f.c, 30, f.grid.mesh, &refuse), 17);
    assert_int_equal(wf_corridor_valid_ahead(&f.c, 17, f.grid.mesh, &refuse), 17);
    assert_int_equal(wf_corridor_valid_ahead(&f.c, 16, f.grid.mesh, &refuse), 16);
    grid_close(&f.grid);
}

static void test_trim(void** state) {
    (void)state;
    fixture f;
    open_corridor(&f, 1, 4, l_blocked);
    set_cells(&f, l_cells, 7, centre(0, 0), centre(3, 3));
    wf_corridor_trim(&f.c, 3, f.grid.query);
    assert_cells(&f, l_cells, 3);
    // Cell (2, 0)'s point nearest (3.5, 3.5) is its corner (3, 1).
    assert_true(near_2d(f.c.target, wf_v3(3.0f, 0.0f, 1.0f)));
    assert_consistent(f.grid.query, &f.c);
    // Keeping more than there is changes nothing.
    wf_corridor_trim(&f.c, 5, f.grid.query);
    assert_cells(&f, l_cells, 3);
    assert_true(near_2d(f.c.target, wf_v3(3.0f, 0.0f, 1.0f)));
    // 0 keeps the start polygon.
    wf_corridor_trim(&f.c, 0, f.grid.query);
    assert_cells(&f, l_cells, 1);
    assert_true(near_2d(f.c.target, wf_v3(1.0f, 0.0f, 1.0f)));
    grid_close(&f.grid);
}

static void test_fix_start(void** state) {
    (void)state;
    fixture f;
    open_corridor(&f, 1, 8, NULL);
    static const uint32_t row[6][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}};
    set_cells(&f, row, 6, centre(0, 0), centre(5, 0));
    // Same polygon: only pos.
    wf_corridor_fix_start(&f.c, grid_cell(&f.grid, 0, 0), wf_v3(0.25f, 0.0f, 0.75f));
    assert_cells(&f, row, 6);
    assert_true(wf_v3_equal(f.c.pos, wf_v3(0.25f, 0.0f, 0.75f)));
    // Pushed forward to c2: c0 and c1 are passed.
    wf_corridor_fix_start(&f.c, grid_cell(&f.grid, 2, 0), centre(2, 0));
    assert_cells(&f, row + 2, 4);
    assert_consistent(f.grid.query, &f.c);
    // Pushed sideways into (2, 1): it leads into the old start.
    wf_corridor_fix_start(&f.c, grid_cell(&f.grid, 2, 1), centre(2, 1));
    static const uint32_t side[5][2] = {{2, 1}, {2, 0}, {3, 0}, {4, 0}, {5, 0}};
    assert_cells(&f, side, 5);
    assert_true(wf_v3_equal(f.c.pos, centre(2, 1)));
    assert_consistent(f.grid.query, &f.c);
    // A full corridor gives up its last polygon.
    corridor_init(&f, 4);
    set_cells(&f, row, 4, centre(0, 0), centre(3, 0));
    wf_corridor_fix_start(&f.c, grid_cell(&f.grid, 0, 1), centre(0, 1));
    static const uint32_t full[4][2] = {{0, 1}, {0, 0}, {1, 0}, {2, 0}};
    assert_cells(&f, full, 4);
    grid_close(&f.grid);
}

/* ---------------------------------------------------------------------------
 * Off-mesh links: two islands, x in [1, 3] at y = 0 and x in [5, 7] at
 * y = 1, joined by a link from (2.5, 0, 2) to (5.5, 1, 2) (as in
 * tests/navcore/straight_path.c)
 */

typedef struct islands {
    counting_allocator counter;
    wf_mesh* mesh;
    wf_query* query;
    wf_tile_ref tile;
    wf_poly_ref a, b, link;
} islands;

static void islands_create(islands* s, bool bidirectional) {
    counting_allocator_init(&s->counter);
    wf_allocator alloc = counting_allocator_hooks(&s->counter);
    wf_mesh_desc md = {.tile_width = 8.0f, .tile_depth = 8.0f, .max_tiles = 4, .allocator = alloc};
    assert_int_equal(wf_mesh_create(&md, &s->mesh), WF_OK);
    const float verts[] = {
        1, 0, 1, 1, 0, 3, 3, 0, 3, 3, 0, 1, //
        5, 1, 1, 5, 1, 3, 7, 1, 3, 7, 1, 1,
    };
    const uint16_t polys[] = {0, 1, 2, 3, N, N, 4, 5, 6, 7, N, N};
    wf_offmesh_link_desc link = {.start = {2.5f, 0.0f, 2.0f},
                                 .end = {5.5f, 1.0f, 2.0f},
                                 .radius = 0.5f,
                                 .bidirectional = bidirectional,
                                 .flags = 1,
                                 .user_id = 7};
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
        .allocator = alloc,
    };
    void* data = NULL;
    size_t size = 0;
    assert_int_equal(wf_tile_build(&d, &data, &size), WF_OK);
    assert_int_equal(
        wf_mesh_add_tile(s->mesh, data, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &s->tile),
        WF_OK);
    s->a = wf_mesh_poly_ref(s->mesh, s->tile, 0);
    s->b = wf_mesh_poly_ref(s->mesh, s->tile, 1);
    s->link = wf_mesh_poly_ref(s->mesh, s->tile, 2);
    assert_true(wf_mesh_is_offmesh_link(s->mesh, s->link));
    wf_query_desc qd = {.mesh = s->mesh, .max_nodes = 64, .allocator = alloc};
    assert_int_equal(wf_query_create(&qd, &s->query), WF_OK);
}

static void islands_destroy(islands* s) {
    wf_query_destroy(s->query);
    wf_mesh_destroy(s->mesh);
    assert_int_equal(counting_allocator_live(&s->counter), 0);
}

static void test_corners_stop_at_an_offmesh_link(void** state) {
    (void)state;
    islands s;
    islands_create(&s, false);
    uint32_t storage[8];
    wf_corridor c;
    open_store(&c, storage, 8, s.mesh);
    wf_poly_ref path[3] = {s.a, s.link, s.b};
    wf_corridor_reset(&c, s.a, wf_v3(1.5f, 0.0f, 1.5f));
    assert_true(wf_corridor_set_path(&c, wf_v3(6.5f, 1.0f, 2.5f), path, 3));
    wf_straight_point out[WF_CROWD_MAX_CORNERS];
    assert_int_equal(wf_corridor_find_corners(&c, s.query, g_scratch, out, WF_CROWD_MAX_CORNERS),
                     1);
    assert_int_equal(out[0].flags, WF_STRAIGHT_OFFMESH);
    assert_true(out[0].ref.bits == s.link.bits);
    assert_true(wf_v3_equal(out[0].pos, wf_v3(2.5f, 0.0f, 2.0f)));
    // Standing on the link's start: kept although it is at pos.
    c.pos = wf_v3(2.5f, 0.0f, 2.0f);
    assert_int_equal(wf_corridor_find_corners(&c, s.query, g_scratch, out, WF_CROWD_MAX_CORNERS),
                     1);
    assert_int_equal(out[0].flags, WF_STRAIGHT_START | WF_STRAIGHT_OFFMESH);
    assert_true(out[0].ref.bits == s.link.bits);
    islands_destroy(&s);
}

static void test_move_over_offmesh(void** state) {
    (void)state;
    for (int bidirectional = 0; bidirectional <= 1; ++bidirectional) {
        islands s;
        islands_create(&s, bidirectional != 0);
        uint32_t storage[8];
        wf_corridor c;
        open_store(&c, storage, 8, s.mesh);
        wf_poly_ref path[3] = {s.a, s.link, s.b};
        wf_vec3 target = wf_v3(6.5f, 1.0f, 2.5f);
        wf_corridor_reset(&c, s.a, wf_v3(2.5f, 0.0f, 2.0f));
        assert_true(wf_corridor_set_path(&c, target, path, 3));
        wf_poly_ref refs[2] = {{0}, {0}};
        wf_vec3 from, to;
        // Not the next link: nothing moves.
        assert_false(wf_corridor_move_over_offmesh(&c, s.b, s.mesh, refs, &from, &to));
        assert_int_equal(c.count, 3);
        assert_true(wf_corridor_move_over_offmesh(&c, s.link, s.mesh, refs, &from, &to));
        assert_true(refs[0].bits == s.a.bits && refs[1].bits == s.b.bits);
        assert_true(wf_v3_equal(from, wf_v3(2.5f, 0.0f, 2.0f)));
        assert_true(wf_v3_equal(to, wf_v3(5.5f, 1.0f, 2.0f)));
        assert_int_equal(c.count, 1);
        assert_true(wf_corridor_poly(&c, 0).bits == s.b.bits);
        assert_true(wf_v3_equal(c.pos, to) && wf_v3_equal(c.target, target));
        wf_straight_point out[WF_CROWD_MAX_CORNERS];
        assert_int_equal(
            wf_corridor_find_corners(&c, s.query, g_scratch, out, WF_CROWD_MAX_CORNERS), 1);
        assert_int_equal(out[0].flags, WF_STRAIGHT_END);
        // A link ending the corridor (cut) cannot be crossed.
        wf_corridor_reset(&c, s.a, wf_v3(2.5f, 0.0f, 2.0f));
        assert_true(wf_corridor_set_path(&c, target, path, 2));
        assert_false(wf_corridor_move_over_offmesh(&c, s.link, s.mesh, refs, &from, &to));
        assert_int_equal(c.count, 2);
        if (bidirectional) {
            // Back from B: the endpoints swap.
            wf_poly_ref back[3] = {s.b, s.link, s.a};
            wf_corridor_reset(&c, s.b, wf_v3(5.5f, 1.0f, 2.0f));
            assert_true(wf_corridor_set_path(&c, wf_v3(1.5f, 0.0f, 1.5f), back, 3));
            assert_true(wf_corridor_move_over_offmesh(&c, s.link, s.mesh, refs, NULL, &to));
            assert_true(refs[0].bits == s.b.bits && refs[1].bits == s.a.bits);
            assert_true(wf_v3_equal(to, wf_v3(2.5f, 0.0f, 2.0f)));
            assert_true(wf_corridor_poly(&c, 0).bits == s.a.bits && c.count == 1);
        }
        // Links pass or fail the filter by their flags (1 here).
        wf_query_filter refuse = wf_query_filter_defaults();
        refuse.exclude_flags = 1;
        assert_true(wf_poly_passes(s.mesh, s.link, NULL));
        assert_false(wf_poly_passes(s.mesh, s.link, &refuse));
        // A stale link: refused.
        wf_corridor_reset(&c, s.a, wf_v3(2.5f, 0.0f, 2.0f));
        assert_true(wf_corridor_set_path(&c, target, path, 3));
        assert_int_equal(wf_mesh_remove_tile(s.mesh, s.tile, NULL, NULL), WF_OK);
        assert_false(wf_poly_passes(s.mesh, s.link, NULL));
        assert_false(wf_corridor_move_over_offmesh(&c, s.link, s.mesh, refs, &from, &to));
        assert_int_equal(c.count, 3);
        islands_destroy(&s);
    }
}

/* ---------------------------------------------------------------------------
 * Agents walking the arena scenarios (shared test data; skipped when absent)
 */

#define ARENA_DIR WF_TESTDATA_DIR "/polyanya"

static char* read_all(const char* path, size_t* out_size) {
    FILE* file = fopen(path, "rb");
    if (file == NULL) {
        return NULL;
    }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char* data = malloc((size_t)size + 1);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)size, file), (size_t)size);
    fclose(file);
    data[size] = '\0';
    *out_size = (size_t)size;
    return data;
}

/// Walks one agent from start to goal the way the crowd does: 0.4 m steps
/// towards the first corner, visibility shortcuts towards the last corner,
/// a topology pass every 8 steps. Returns the distance walked.
static double walk(wf_query* q, const wf_query_filter* filter, uint32_t* storage, wf_vec3 start,
                   wf_vec3 goal, bool* out_arrived) {
    const wf_vec3 ext = wf_v3(0.5f, 1.0f, 0.5f);
    wf_poly_ref sr, gr;
    wf_vec3 sp, gp;
    assert_int_equal(wf_query_find_nearest_poly(q, start, ext, filter, &sr, &sp), WF_OK);
    assert_int_equal(wf_query_find_nearest_poly(q, goal, ext, filter, &gr, &gp), WF_OK);
    static wf_poly_ref path[MAX_POLYS];
    wf_path_result pr;
    assert_int_equal(wf_query_find_path(q, sr, gr, sp, gp, filter, path, MAX_POLYS, &pr), WF_OK);
    wf_corridor c;
    wf_corridor_init(&c, storage, MAX_POLYS, &g_codec); // codec_for(the arena's mesh)
    wf_corridor_reset(&c, sr, sp);
    assert_true(wf_corridor_set_path(&c, gp, path, pr.count));
    assert_consistent(q, &c);
    double walked = 0.0;
    *out_arrived = false;
    for (int step = 0; step < 2000; ++step) {
        wf_straight_point corners[WF_CROWD_MAX_CORNERS];
        uint32_t n = wf_corridor_find_corners(&c, q, g_scratch, corners, WF_CROWD_MAX_CORNERS);
        if (n == 0) {
            *out_arrived = wf_v2_distance(c.pos, gp) <= 0.011f;
            break;
        }
        if (n > 1) {
            wf_corridor_optimize_visibility(&c, corners[n - 1].pos, 12.0f, q, filter);
            n = wf_corridor_find_corners(&c, q, g_scratch, corners, WF_CROWD_MAX_CORNERS);
            assert_true(n >= 1);
        }
        if (step % 8 == 7) {
            wf_corridor_optimize_topology(&c, q, filter, 32, g_scratch);
            n = wf_corridor_find_corners(&c, q, g_scratch, corners, WF_CROWD_MAX_CORNERS);
            assert_true(n >= 1);
        }
        wf_vec3 to = corners[0].pos;
        float d = wf_v2_distance(c.pos, to);
        wf_vec3 npos = d > 0.4f ? wf_v3_lerp(c.pos, to, 0.4f / d) : to;
        wf_vec3 before = c.pos;
        assert_true(wf_corridor_move_position(&c, npos, q, filter));
        walked += (double)wf_v2_distance(before, c.pos);
        assert_true(wf_corridor_poly(&c, c.count - 1).bits == gr.bits);
        assert_true(wf_v3_equal(c.target, gp));
        assert_consistent(q, &c);
    }
    return walked;
}

static void test_agents_walk_the_arena(void** state) {
    (void)state;
    size_t size;
    char* text = read_all(ARENA_DIR "/meshes/arena.mesh", &size);
    if (text == NULL) {
        print_message("no test data at %s: skipped\n", ARENA_DIR);
        skip();
    }
    char* rows_text = read_all(ARENA_DIR "/expected/arena_euclidean.tsv", &size);
    assert_non_null(rows_text);
    counting_allocator counter;
    counting_allocator_init(&counter);
    wf_polyanya_import_desc d = {.tile_size = 16.0f,
                                 .allocator = counting_allocator_hooks(&counter)};
    d.logger.quiet = true;
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_import_polyanya(&d, text, strlen(text), &mesh), WF_OK);
    free(text);
    wf_query* q = NULL;
    wf_query_desc qd = {
        .mesh = mesh, .max_nodes = 4096, .allocator = counting_allocator_hooks(&counter)};
    assert_int_equal(wf_query_create(&qd, &q), WF_OK);
    wf_query_filter filter = wf_query_filter_defaults();
    static uint32_t storage[MAX_POLYS];
    (void)codec_for(mesh);
    uint32_t walks = 0;
    double worst = 1.0;
    for (char* line = strtok(rows_text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        int bucket;
        float sx, sy, gx, gy;
        double octile, euclidean;
        if (line[0] == '#' || sscanf(line, "%d %f %f %f %f %lf %lf", &bucket, &sx, &sy, &gx, &gy,
                                     &octile, &euclidean) != 7) {
            continue;
        }
        bool arrived = false;
        double walked =
            walk(q, &filter, storage, wf_v3(sx, 0.0f, sy), wf_v3(gx, 0.0f, gy), &arrived);
        if (!arrived) {
            fail_msg("row %u: the agent did not arrive", walks);
        }
        // Never shorter than the optimum (but for corners within 1 cm,
        // which count as reached), and string pulling plus shortcuts stay
        // close to it.
        if (walked < euclidean - 0.05) {
            fail_msg("row %u: walked %g, optimum %g", walks, walked, euclidean);
        }
        double ratio = euclidean > 0.5 ? walked / euclidean : 1.0;
        worst = ratio > worst ? ratio : worst;
        walks++;
    }
    print_message("%u walks, worst length ratio %.4f\n", walks, worst);
    assert_int_equal(walks, 160);
    assert_true(worst < 1.1);
    free(rows_text);
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
    assert_int_equal(counting_allocator_live(&counter), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reset_and_set_path),
        cmocka_unit_test(test_merge_replan_from_further_on),
        cmocka_unit_test(test_merge_after_the_agent_moved),
        cmocka_unit_test(test_merge_without_shared_polygon_changes_nothing),
        cmocka_unit_test(test_merge_respects_capacity),
        cmocka_unit_test(test_corners_of_an_l),
        cmocka_unit_test(test_move_position_advances_through_tiles),
        cmocka_unit_test(test_move_into_a_wall_slides),
        cmocka_unit_test(test_move_off_the_corridor_and_back),
        cmocka_unit_test(test_move_along_a_shared_edge),
        cmocka_unit_test(test_move_position_from_a_stale_polygon),
        cmocka_unit_test(test_move_target),
        cmocka_unit_test(test_visibility_straightens_a_zig_zag),
        cmocka_unit_test(test_visibility_never_cuts_through_walls),
        cmocka_unit_test(test_topology_finds_the_shorter_side),
        cmocka_unit_test(test_valid_ahead_and_poly_passes),
        cmocka_unit_test(test_valid_ahead_past_one_run),
        cmocka_unit_test(test_trim),
        cmocka_unit_test(test_fix_start),
        cmocka_unit_test(test_corners_stop_at_an_offmesh_link),
        cmocka_unit_test(test_move_over_offmesh),
        cmocka_unit_test(test_agents_walk_the_arena),
    };
    return cmocka_run_group_tests_name("corridor", tests, NULL, NULL);
}
