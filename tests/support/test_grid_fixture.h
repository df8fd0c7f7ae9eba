// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// A grid mesh (test_mesh_grid) with a query on it, both allocating through
// one counting allocator, for the tests that ask queries about grid cells.
// Failures are cmocka assertions, so call these from a test.
#ifndef WF_TESTS_TEST_GRID_FIXTURE_H
#define WF_TESTS_TEST_GRID_FIXTURE_H

#include "counting_allocator.h"
#include "wayfarer/query.h"

typedef struct grid_fixture {
    counting_allocator counter;
    wf_allocator alloc; ///< counts into counter
    wf_mesh* mesh;
    wf_query* query;
    uint32_t cells_per_tile; ///< of the grid, for grid_cell
    wf_query_filter filter;  ///< wf_query_filter_defaults()
} grid_fixture;

/// Clears f and starts its allocator, for a test that builds its own mesh
/// (then grid_make_query).
void grid_begin(grid_fixture* f);

/// Creates f->query on f->mesh with max_nodes, allocating through f->alloc.
void grid_make_query(grid_fixture* f, uint32_t max_nodes);

/// grid_begin, then a test_mesh_grid of tiles_x x tiles_z tiles of
/// cells_per_tile cells (blocked and areas as there, both optional) and
/// its query of max_nodes.
void grid_open(grid_fixture* f, uint32_t tiles_x, uint32_t tiles_z, uint32_t cells_per_tile,
               float cell_size, const uint8_t* blocked, const uint8_t* areas, uint32_t max_nodes);

/// Destroys the query and the mesh; nothing may be left allocated.
void grid_close(grid_fixture* f);

/// The polygon of global cell (x, z); fails the test when there is none.
wf_poly_ref grid_cell(const grid_fixture* f, uint32_t x, uint32_t z);

#endif
