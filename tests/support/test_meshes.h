// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Small hand-built navmeshes with known answers, built through the public
// API (wf_tile_build + wf_mesh_add_tile).
#ifndef WF_TESTS_TEST_MESHES_H
#define WF_TESTS_TEST_MESHES_H

#include "wayfarer/navmesh.h"

/// A flat grid at y = 0 of square polygons (one per cell, cell_size wide),
/// cells_per_tile x cells_per_tile cells per tile, tiles_x x tiles_z tiles,
/// starting at the world origin. blocked (optional) has one byte per global
/// cell, row-major by z then x (index = z * tiles_x * cells_per_tile + x):
/// non-zero cells get no polygon, so their edges become walls. areas
/// (optional, same indexing) gives each cell's area id. allocator may be
/// NULL. Returns NULL on failure (the test then fails).
wf_mesh* test_mesh_grid(uint32_t tiles_x, uint32_t tiles_z, uint32_t cells_per_tile,
                        float cell_size, const uint8_t* blocked, const uint8_t* areas,
                        const wf_allocator* allocator);

/// Builds one grid tile blob (as above) for tile (tx, tz), or NULL.
void* test_grid_tile(uint32_t tx, uint32_t tz, uint32_t tiles_x, uint32_t cells_per_tile,
                     float cell_size, const uint8_t* blocked, const uint8_t* areas,
                     const wf_allocator* allocator, size_t* out_size);

/// Ref of the polygon covering global cell (cx, cz) of a test_mesh_grid.
wf_poly_ref test_grid_poly(const wf_mesh* mesh, uint32_t cells_per_tile, uint32_t cx, uint32_t cz);

#endif
