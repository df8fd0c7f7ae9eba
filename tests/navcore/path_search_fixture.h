// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Shared fixture of the path search tests: grid meshes drawn as text, their
// refs, path checks and the hand-derived shortest ways of the meshes' paths.
#ifndef WF_TESTS_PATH_SEARCH_FIXTURE_H
#define WF_TESTS_PATH_SEARCH_FIXTURE_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "navcore/query_internal.h"
#include "test_meshes.h"
#include "wayfarer/query.h"

/*
 * Cost model used for the expected values: cells are 1 m squares, start and
 * end points are cell centres unless stated. A search pays the length of
 * the pulled (funnel) way through the cells it has crossed, times the area
 * cost of the cells it runs through; where the area cost changes the way
 * restarts at the point where the search entered the cell (so a route of
 * one price pays its straight length). The path's cost is that way to the
 * end point; a partial path's, the way to the point where the search
 * entered its last cell: the point of that cell's entry edge best towards
 * the end point (round a corner where the straight line cannot reach it);
 * for box searches towards the box's centre; for the nearest goal the
 * edge point nearest the way's last corner. Crossing a cell straight
 * costs 1, a quarter turn round a cell corner from a centre sqrt(0.5)
 * (TURN).
 */
#define TURN 0.70710678f
#define EPS 1e-4f

#define MAX_CELLS 64

/// A grid mesh drawn as text ('#' = no polygon), its query and the ref of
/// every cell.
typedef struct fixture {
    counting_allocator counter;
    wf_allocator allocator;
    wf_mesh* mesh;
    wf_query* query;
    uint32_t width, depth, cells_per_tile;
    wf_poly_ref cells[MAX_CELLS];
    wf_query_filter filter;
} fixture;

static inline void fixture_create(fixture* f, uint32_t tiles_x, uint32_t tiles_z,
                                  uint32_t cells_per_tile, const char* const* rows,
                                  const uint8_t* areas, uint32_t max_nodes) {
    memset(f, 0, sizeof *f);
    counting_allocator_init(&f->counter);
    f->allocator = counting_allocator_hooks(&f->counter);
    f->width = tiles_x * cells_per_tile;
    f->depth = tiles_z * cells_per_tile;
    f->cells_per_tile = cells_per_tile;
    assert_true(f->width * f->depth <= MAX_CELLS);
    uint8_t blocked[MAX_CELLS] = {0};
    if (rows != NULL) {
        for (uint32_t z = 0; z < f->depth; ++z) {
            assert_int_equal(strlen(rows[z]), f->width);
            for (uint32_t x = 0; x < f->width; ++x) {
                blocked[z * f->width + x] = rows[z][x] == '#';
            }
        }
    }
    f->mesh = test_mesh_grid(tiles_x, tiles_z, cells_per_tile, 1.0f, blocked, areas, &f->allocator);
    assert_non_null(f->mesh);
    for (uint32_t z = 0; z < f->depth; ++z) {
        for (uint32_t x = 0; x < f->width; ++x) {
            if (!blocked[z * f->width + x]) {
                f->cells[z * f->width + x] = test_grid_poly(f->mesh, cells_per_tile, x, z);
                assert_false(wf_poly_ref_is_null(f->cells[z * f->width + x]));
            }
        }
    }
    wf_query_desc qd = {.mesh = f->mesh, .max_nodes = max_nodes, .allocator = f->allocator};
    assert_int_equal(wf_query_create(&qd, &f->query), WF_OK);
    f->filter = wf_query_filter_defaults();
}

static inline void fixture_destroy(fixture* f) {
    wf_query_destroy(f->query);
    wf_mesh_destroy(f->mesh);
    assert_int_equal(counting_allocator_live(&f->counter), 0);
    assert_int_equal(atomic_load(&f->counter.size_mismatches), 0);
}

static inline wf_poly_ref cell(const fixture* f, uint32_t x, uint32_t z) {
    return f->cells[z * f->width + x];
}

static inline wf_vec3 centre(uint32_t x, uint32_t z) {
    return wf_v3((float)x + 0.5f, 0.0f, (float)z + 0.5f);
}

/// Cell coordinates of a ref, or fails the test.
static inline void cell_of(const fixture* f, wf_poly_ref ref, uint32_t* x, uint32_t* z) {
    *x = *z = UINT32_MAX;
    for (uint32_t i = 0; i < f->width * f->depth; ++i) {
        if (!wf_poly_ref_is_null(f->cells[i]) && f->cells[i].bits == ref.bits) {
            *x = i % f->width;
            *z = i / f->width;
            return;
        }
    }
    fail_msg("ref %llx is no cell", (unsigned long long)ref.bits);
}

/// The path is exactly the listed cells (x, z pairs).
static inline void check_cells(const fixture* f, const wf_poly_ref* path, uint32_t count,
                               const uint32_t (*expected)[2], uint32_t expected_count) {
    assert_int_equal(count, expected_count);
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t x, z;
        cell_of(f, path[i], &x, &z);
        if (x != expected[i][0] || z != expected[i][1]) {
            fail_msg("path[%u] is cell (%u, %u), expected (%u, %u)", i, x, z, expected[i][0],
                     expected[i][1]);
        }
    }
}

/// Consecutive cells share an edge (4-neighbours).
static inline void check_adjacent(const fixture* f, const wf_poly_ref* path, uint32_t count) {
    for (uint32_t i = 1; i < count; ++i) {
        uint32_t ax, az, bx, bz;
        cell_of(f, path[i - 1], &ax, &az);
        cell_of(f, path[i], &bx, &bz);
        uint32_t d = (ax > bx ? ax - bx : bx - ax) + (az > bz ? az - bz : bz - az);
        if (d != 1) {
            fail_msg("path[%u] (%u, %u) and path[%u] (%u, %u) are not neighbours", i - 1, ax, az, i,
                     bx, bz);
        }
    }
}

static inline wf_status find_cells(fixture* f, uint32_t sx, uint32_t sz, uint32_t ex, uint32_t ez,
                                   wf_poly_ref* path, uint32_t max_path, wf_path_result* out) {
    return wf_query_find_path(f->query, cell(f, sx, sz), cell(f, ex, ez), centre(sx, sz),
                              centre(ex, ez), &f->filter, path, max_path, out);
}

/// Misuse reports reach the assert hook in debug builds only.
#ifdef NDEBUG
#define MISUSE(n) 0
#else
#define MISUSE(n) (n)
#endif

static int assert_calls;
static inline void count_assert(const char* expression, const char* file, int line) {
    (void)expression;
    (void)file;
    (void)line;
    assert_calls++;
}

/// Length of the polyline through points given as (x, z): the cost of a
/// path of area cost 1 through those entry points.
static inline float polyline_length(const float (*points)[2], uint32_t count) {
    float length = 0.0f;
    for (uint32_t i = 1; i < count; ++i) {
        length += hypotf(points[i][0] - points[i - 1][0], points[i][1] - points[i - 1][1]);
    }
    return length;
}

/* ---------------------------------------------------------------------------
 * Meshes (5 x 5 cells, one tile, unless stated)
 */

static const char* const CORRIDOR[5] = {".....", "#####", "#####", "#####", "#####"};

// One way only from (0,0) to (4,0): 11 cells.
static const char* const SNAKE[5] = {"..#..", "#.#.#", "#.#.#", "#...#", "#####"};
static const uint32_t SNAKE_PATH[11][2] = {{0, 0}, {1, 0}, {1, 1}, {1, 2}, {1, 3}, {2, 3},
                                           {3, 3}, {3, 2}, {3, 1}, {3, 0}, {4, 0}};
// The shortest way along SNAKE_PATH from (0.5, 0.5) to E = (4.5, 0.5):
// round the corners (1,1), (2,3), (3,3), (4,1);
// 2 * sqrt(0.5) + 2 * sqrt(5) + 1 = 6.886.
static const float SNAKE_CORNERS[6][2] = {{0.5f, 0.5f}, {1.0f, 1.0f}, {2.0f, 3.0f},
                                          {3.0f, 3.0f}, {4.0f, 1.0f}, {4.5f, 0.5f}};
#define SNAKE_COST polyline_length(SNAKE_CORNERS, 6)

// Two routes from (0,0) to (4,0): row 0 (5 cells) or around the wall
// through row 2 (9 cells).
static const char* const TWO_ROUTES[5] = {".....", ".###.", ".....", "#####", "#####"};
static const uint32_t SHORT_ROUTE[5][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}};
static const uint32_t LONG_ROUTE[9][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 2}, {2, 2},
                                          {3, 2}, {4, 2}, {4, 1}, {4, 0}};
// The long route's shortest way: round the wall's corners (1,2) and (4,2):
// 2 * sqrt(2.5) + 3 = 6.162.
static const float LONG_CORNERS[4][2] = {{0.5f, 0.5f}, {1.0f, 2.0f}, {4.0f, 2.0f}, {4.5f, 0.5f}};
#define LONG_ROUTE_COST polyline_length(LONG_CORNERS, 4)

#endif
