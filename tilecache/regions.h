// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Regions of a layer (first step of layer -> tile) and the scratch
// conventions the layer -> tile steps share.
#ifndef WF_TILECACHE_REGIONS_H
#define WF_TILECACHE_REGIONS_H

#include <stdint.h>

#include "tilecache/layer.h"

/// Region of a cell that belongs to none (not walkable, or dropped).
#define WF_REGION_NONE 0xffffu

/// Every arena allocation may lose up to this many bytes to alignment; the
/// scratch bounds add it once per allocation.
#define WF_SCRATCH_ALIGN_SLACK 16u

/// A layer split into regions: simple polygons made of cells (no holes, no
/// cells touching only at a corner, no unconnected neighbours inside), so
/// each region's outline is one closed walk along cell edges.
typedef struct wf_layer_regions {
    uint32_t width, depth;
    /// Monotone region per cell (WF_REGION_NONE for none); region_of maps
    /// it to the cell's region (WF_REGION_NONE when dropped).
    uint16_t* cells;
    uint16_t* region_of;
    /// Per cell: bit d = connected to the neighbour in direction d (checked
    /// from both sides, both walkable); bit 4 + d = portal to another layer.
    uint8_t* conn;
    uint32_t count;        ///< regions
    uint8_t* areas;        ///< per region
    uint16_t* first_cells; ///< per region: its first cell in row order
} wf_layer_regions;

/// Partitions the walkable cells into monotone regions (one run of cells
/// per row), drops islands of fewer than min_region_area cells that do not
/// touch the tile's edge, then merges regions of one area while the union
/// stays a simple polygon (those under merge_region_area first).
/// Persistent output first in the arena, temporaries released.
/// WF_ERR_CAPACITY when the arena is too small; WF_ERR_BAD_DATA for an area
/// id above 63.
wf_status wf_layer_regions_build(const wf_layer* layer, uint32_t min_region_area,
                                 uint32_t merge_region_area, wf_arena* arena,
                                 wf_layer_regions* out);

/// Scratch bounds for a layer of `cells` cells: what stays allocated after
/// wf_layer_regions_build, and the most it uses on top of that meanwhile.
size_t wf_layer_regions_kept_size(uint32_t width, uint32_t depth);
size_t wf_layer_regions_temp_size(uint32_t width, uint32_t depth);

/// Free space at the arena's end, aligned, without taking it: a step that
/// learns its output size only while writing fills it, then allocates
/// exactly what it wrote (wf_arena_alloc then returns the same address).
static inline unsigned char* wf_arena_tail(const wf_arena* arena, size_t align, size_t* out_bytes) {
    *out_bytes = 0;
    if (arena->base == NULL) {
        return NULL;
    }
    uintptr_t start = (uintptr_t)arena->base + arena->used;
    size_t padding = (size_t)((align - (start & (align - 1u))) & (align - 1u));
    size_t remaining = arena->capacity - arena->used;
    if (padding > remaining) {
        return NULL;
    }
    *out_bytes = remaining - padding;
    return arena->base + arena->used + padding;
}

/// Records in the arena's high-water mark that `bytes` past its current
/// use were written through wf_arena_tail (so high_water stays the
/// capacity that suffices). false when they do not fit.
static inline bool wf_arena_note_tail(wf_arena* arena, size_t align, size_t bytes) {
    wf_arena_mark mark = wf_arena_get_mark(arena);
    bool fits = wf_arena_alloc(arena, bytes, align) != NULL;
    wf_arena_reset_to(arena, mark);
    return fits;
}

#endif
