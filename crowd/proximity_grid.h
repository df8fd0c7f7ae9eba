// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Proximity grid: agents bucketed by the cell of their position (hashed
// into a fixed table), rebuilt every update, queried by box.
#ifndef WF_CROWD_PROXIMITY_GRID_H
#define WF_CROWD_PROXIMITY_GRID_H

#include <stdbool.h>
#include <stdint.h>

#include "wayfarer/base.h"
#include "wayfarer/vec3.h"

typedef struct wf_proximity_grid {
    float cell_size;
    float inv_cell_size;
    uint32_t max_items;
    uint32_t bucket_count;   ///< power of two
    uint32_t* bucket_start;  ///< bucket_count + 1 offsets into items
    uint32_t* items;         ///< item indices sorted by bucket, ascending within one
    int32_t* item_cell;      ///< per slot in items: cell x, cell z (2 ints) for exact matching
    uint32_t* item_bucket;   ///< per item index: its bucket while building
    uint32_t item_count;
    wf_allocator allocator;
} wf_proximity_grid;

/// Fixed memory for up to max_items items (no later allocation).
WF_NODISCARD wf_status wf_proximity_grid_create(wf_proximity_grid* grid,
                                                const wf_allocator* allocator,
                                                uint32_t max_items, float cell_size);
void wf_proximity_grid_destroy(wf_proximity_grid* grid);
size_t wf_proximity_grid_memory_bytes(const wf_proximity_grid* grid);

/// Rebuilds from the positions of items [0, count) whose active[i] is
/// nonzero (count <= max_items). Each item goes into its position's cell.
void wf_proximity_grid_build(wf_proximity_grid* grid, const wf_vec3* positions,
                             const uint8_t* active, uint32_t count);

/// Items whose position lies in the XZ box [min, max] (inclusive), in
/// ascending index order; returns how many there are in all (only the
/// first `max_out` are written). Safe to call from many threads at once.
uint32_t wf_proximity_grid_query(const wf_proximity_grid* grid, const wf_vec3* positions,
                                 float min_x, float min_z, float max_x, float max_z,
                                 uint32_t* out, uint32_t max_out);

#endif
