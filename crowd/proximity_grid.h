// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Proximity grid: agents bucketed by the cell of their position (one
// bucket per cell when the cells they span fit the fixed table, else
// hashed into it), rebuilt every update, queried by box.
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
    uint32_t bucket_count;  ///< power of two >= 2 * max_items, at least 64
    uint32_t* bucket_start; ///< bucket_count + 1 offsets into items
    uint32_t* items;        ///< item indices sorted by bucket, ascending within one
    int32_t* item_cell;     ///< hashed layout: per slot, cell x and z (2 ints) for exact matching
    float* item_xz;         ///< per slot in items: x, z (a copy: neighbour scans read in order)
    float* item_y;          ///< per slot in items: y and half height (2 floats)
    bool has_heights;       ///< the last build had half heights
    uint32_t* item_bucket;  ///< per item index: its bucket, UINT32_MAX when inactive
    uint32_t item_count;    ///< active items of the last build
    uint32_t build_count;   ///< `count` of the last build: item indices are below it
    /// Dense layout: when the cells the items span fit the table, bucket
    /// (cz - min_z) * width + (cx - min_x) is exactly one cell, and a row
    /// of cells is one run of slots (no hashing, no other cells mixed in).
    bool dense;
    int32_t min_x, min_z;  ///< dense: the first cell
    uint32_t width, depth; ///< dense: cells spanned along x and z
    wf_allocator allocator;
    bool borrowed; ///< the arrays are the caller's (wf_proximity_grid_create_in)
} wf_proximity_grid;

/// Fixed memory for up to max_items items (no later allocation); the grid
/// starts empty. cell_size: finite, > 0 (about the usual query range).
/// allocator NULL or zeroed = the C library. WF_ERR_INVALID_ARG (misuse,
/// max_items above 2^30), WF_ERR_OUT_OF_MEMORY; on failure grid is untouched.
WF_NODISCARD wf_status wf_proximity_grid_create(wf_proximity_grid* grid,
                                                const wf_allocator* allocator, uint32_t max_items,
                                                float cell_size);
/// Bytes a grid of max_items needs from wf_proximity_grid_create_in (0 for
/// a bad max_items).
size_t wf_proximity_grid_storage_bytes(uint32_t max_items);
/// As wf_proximity_grid_create, in the caller's storage (4-byte aligned, at
/// least wf_proximity_grid_storage_bytes): nothing is allocated. A build
/// rewrites everything a query reads, so the storage may hold other data
/// between a query and the next build (the crowd's update scratch does).
/// The grid is empty only after a build; destroy frees nothing.
WF_NODISCARD wf_status wf_proximity_grid_create_in(wf_proximity_grid* grid, void* storage,
                                                   uint32_t max_items, float cell_size);
/// Frees the arrays and zeroes the grid; NULL or a zeroed grid is ignored.
void wf_proximity_grid_destroy(wf_proximity_grid* grid);
/// Bytes the grid holds from its allocator (the struct itself is the caller's).
size_t wf_proximity_grid_memory_bytes(const wf_proximity_grid* grid);

/// Rebuilds from the positions of items [0, count) whose active[i] is
/// nonzero (count <= max_items). Each item goes into its position's cell.
/// half_heights (optional) gives each item's vertical half extent: then
/// wf_proximity_grid_nearest only finds items whose vertical extents
/// overlap the query's (agents on another floor are not neighbours).
void wf_proximity_grid_build(wf_proximity_grid* grid, const wf_vec3* positions,
                             const float* half_heights, const uint8_t* active, uint32_t count);

/// Items whose position lies in the XZ box [min, max] (inclusive). Returns
/// how many there are in all; writes the min(total, max_out) smallest item
/// indices of them to out[0..), ascending, and nothing else (out may be
/// NULL when max_out is 0). positions must be those the grid was built from.
/// The sorting uses only out (insertion of each hit, O(1) for a hit above
/// the current last), so it stays cheap for the small answers of a
/// neighbour query; a box spanning at least as many cells as there were
/// items scans the items in index order instead. An empty or NaN box gives
/// 0. Reads only: safe to call from many threads at once.
uint32_t wf_proximity_grid_query(const wf_proximity_grid* grid, const wf_vec3* positions,
                                 float min_x, float min_z, float max_x, float max_z, uint32_t* out,
                                 uint32_t max_out);

/// Decides whether an item may be a neighbour (called only for items in range).
typedef bool wf_proximity_accept_fn(uint32_t item, void* context);

/// The (at most) k items nearest to center within range on XZ, other than
/// `self`, within half_height of center.y plus their own half height (when
/// the grid was built with heights), that accept (may be NULL) takes,
/// nearest first: out[j] with
/// squared distance out_d2[j]. Equal distances go by lower index, so the
/// answer never depends on the order items are found in. Returns the count.
/// Safe to call from many threads at once.
uint32_t wf_proximity_grid_nearest(const wf_proximity_grid* grid, const wf_vec3* positions,
                                   wf_vec3 center, float half_height, float range, uint32_t self,
                                   wf_proximity_accept_fn* accept, void* context, uint32_t* out,
                                   float* out_d2, uint32_t k);

#endif
