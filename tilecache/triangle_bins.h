// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// A build's triangles binned into its pieces (span_pieces.h): for each
// piece, the triangles whose XZ footprint meets its cells, in triangle
// order, and every triangle's area after the slope test. The counting runs
// in chunks of triangles over the workers; the lists, the totals and every
// error (the same triangle named) are the same for any worker count.
#ifndef WF_TILECACHE_TRIANGLE_BINS_H
#define WF_TILECACHE_TRIANGLE_BINS_H

#include "navcore/alloc.h"
#include "tilecache/span_pieces.h"
#include "wayfarer/jobs.h"

typedef struct wf_triangle_bins_desc {
    const wf_geom* geom;
    wf_piece_grid grid;
    wf_vec3 bmin, bmax;   ///< the build's bounds: the tiles' lattice starts at bmin
    float cs, tile_width; ///< a cell's and a tile's width
    float max_slope_deg;
    /// Limits: the count stops at the first triangle that takes the pairs
    /// or the cells under them past these (WF_ERR_CAPACITY, logged). Pairs
    /// are counted to at most UINT32_MAX whatever max_refs says (the lists'
    /// offsets are 32-bit).
    uint64_t max_refs, max_cells;
    const wf_allocator* allocator;
    const wf_logger* logger;
    const wf_job_system* jobs; ///< NULL or one worker: one chunk, on the caller
} wf_triangle_bins_desc;

typedef struct wf_triangle_bins {
    uint32_t piece_count, tri_count;
    /// Piece p's triangles are tris[start[p] .. start[p + 1]).
    uint32_t* start;
    uint32_t* tris;
    uint64_t* cells; ///< per piece: the cells under its triangles' boxes (a span guess)
    uint8_t* areas;  ///< per triangle: its area after the slope test
    uint64_t refs;   ///< triangle-piece pairs
    uint64_t total_cells;
} wf_triangle_bins;

/// Bins desc->geom's triangles, checking each one's vertex indices and
/// area id (WF_ERR_INVALID_ARG, logged, naming the first bad triangle).
/// Every vertex must be finite (the caller checks the build's bounds).
/// WF_ERR_CAPACITY past a limit, WF_ERR_OUT_OF_MEMORY; on failure *out
/// holds nothing (freed).
wf_status wf_triangle_bins_build(wf_triangle_bins* out, const wf_triangle_bins_desc* desc);

void wf_triangle_bins_free(wf_triangle_bins* bins, const wf_allocator* allocator);

#endif
