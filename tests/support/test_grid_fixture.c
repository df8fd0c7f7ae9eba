// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The grid mesh and query fixture (test_grid_fixture.h).
#include "test_grid_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "test_meshes.h"

void grid_begin(grid_fixture* f) {
    memset(f, 0, sizeof *f);
    counting_allocator_init(&f->counter);
    f->alloc = counting_allocator_hooks(&f->counter);
    f->filter = wf_query_filter_defaults();
}

void grid_make_query(grid_fixture* f, uint32_t max_nodes) {
    wf_query_desc qd = {.mesh = f->mesh, .max_nodes = max_nodes, .allocator = f->alloc};
    assert_int_equal(wf_query_create(&qd, &f->query), WF_OK);
}

void grid_open(grid_fixture* f, uint32_t tiles_x, uint32_t tiles_z, uint32_t cells_per_tile,
               float cell_size, const uint8_t* blocked, const uint8_t* areas, uint32_t max_nodes) {
    grid_begin(f);
    f->cells_per_tile = cells_per_tile;
    f->mesh =
        test_mesh_grid(tiles_x, tiles_z, cells_per_tile, cell_size, blocked, areas, &f->alloc);
    assert_non_null(f->mesh);
    grid_make_query(f, max_nodes);
}

void grid_close(grid_fixture* f) {
    wf_query_destroy(f->query);
    wf_mesh_destroy(f->mesh);
    assert_int_equal(counting_allocator_live(&f->counter), 0);
}

wf_poly_ref grid_cell(const grid_fixture* f, uint32_t x, uint32_t z) {
    wf_poly_ref r = test_grid_poly(f->mesh, f->cells_per_tile, x, z);
    assert_false(wf_poly_ref_is_null(r));
    return r;
}
