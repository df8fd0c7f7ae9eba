// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Binning a build's triangles into its pieces: a counting pass (in chunks
// of triangles over the workers, each with its own counts and log of the
// pieces each triangle meets) and a fill pass that replays the logs in
// triangle order.
#include "tilecache/triangle_bins.h"

#include <math.h>
#include <string.h>

#include "navcore/log.h"

/// Triangles a chunk is worth a worker for (fewer: one chunk).
#define CHUNK_MIN_TRIANGLES 2048u

/// Where a piece column (or row) lies, eps wider on both ends, and its
/// width in cells.
typedef struct piece_extent {
    double lo, hi, cells;
} piece_extent;

/// Why a chunk's count stopped early.
typedef enum chunk_stop {
    STOP_NONE,
    STOP_BAD_TRIANGLE,
    STOP_REFS,
    STOP_CELLS,
    STOP_MEMORY
} chunk_stop;

/// One chunk of triangles, counted on its own: its counts, cells and log
/// are merged in chunk order (the triangles' order).
typedef struct bin_chunk {
    /// A cache line of its own: chunks on different workers update their
    /// counters at every pair.
    _Alignas(64) uint32_t first, end; ///< triangles
    uint32_t* counts;                 ///< per piece: pairs
    uint64_t* cells;                  ///< per piece
    uint32_t* log;                    ///< the pieces each triangle meets, triangle by triangle
    size_t log_count, log_capacity;
    size_t log_limit; ///< the most it can need: its share of max_refs and one triangle's pairs
    uint64_t refs, total_cells;
    chunk_stop stop;
    uint32_t stopped_at; ///< the triangle it stopped at
} bin_chunk;

/// What the chunks share (read only while they run, but for met and the
/// areas, which each chunk writes for its own triangles).
typedef struct binning {
    const wf_triangle_bins_desc* d;
    /// The piece columns' x extents, then the piece rows' z extents.
    piece_extent* extents;
    /// How far past a piece's edges a triangle still goes to it: rounding
    /// may put a tile's cell edges that far from the piece's exact ones (a
    /// little over a cell's 1/256, plus float error at the build's largest
    /// coordinate).
    double eps;
    double origin_x, origin_z; ///< the corner of the grid of tile squares the pieces lie in
    uint32_t* met;             ///< per triangle: how many pieces it meets
    uint8_t* areas;
    bin_chunk* chunks;
    uint32_t chunk_count;
    /// desc->max_refs, at most UINT32_MAX (the lists' offsets are 32-bit).
    uint64_t max_refs;
    /// Each chunk's share of the limits: the chunks' logs together stay
    /// within one count's (a chunk past its share makes the count run
    /// again in one go, with the whole limits).
    uint64_t chunk_max_refs, chunk_max_cells;
} binning;

/// The pieces' extents along one axis from `min` (the build's bounds).
static void piece_extents(const wf_piece_grid* g, bool columns, double min, double cs, double eps,
                          piece_extent* out) {
    const int32_t count = columns ? g->pieces_x : g->pieces_z;
    for (int32_t i = 0; i < count; ++i) {
        int32_t first, n;
        if (columns) {
            wf_piece_columns(g, i, &first, &n);
        } else {
            wf_piece_rows(g, i, &first, &n);
        }
        out[i] = (piece_extent){min + (double)first * cs - eps,
                                min + (double)(first + n) * cs + eps, (double)n};
    }
}

/// Pieces (squares `width` wide from `origin`, `count` of them) that a
/// [lo, hi] interval touches, eps wide on both ends, so that float rounding
/// can only add a piece (the caller then tests each one's own extent).
static void piece_range(double lo, double hi, double origin, double width, double eps,
                        int32_t count, int32_t* out_first, int32_t* out_last) {
    // No floor(): below 0 and at or past count are clamped, and in between
    // truncation is the floor (a library call less per triangle and row).
    double first = (lo - origin - eps) / width;
    double last = (hi - origin + eps) / width;
    *out_first = first < 0.0 ? 0 : first >= (double)count ? count : (int32_t)first;
    *out_last = last < 0.0 ? -1 : last >= (double)count ? count - 1 : (int32_t)last;
}

/// The x extent of a triangle's XZ footprint inside the slab s0 <= z <= s1
/// (false when they do not meet): the clipped polygon's corners are the
/// triangle's own inside the slab and its edges' crossings of the slab's
/// two sides.
static bool slab_x_range(const double* px, const double* pz, double s0, double s1, double* out_lo,
                         double* out_hi) {
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < 3; ++i) {
        if (pz[i] >= s0 && pz[i] <= s1) {
            lo = px[i] < lo ? px[i] : lo;
            hi = px[i] > hi ? px[i] : hi;
        }
        int j = i == 2 ? 0 : i + 1;
        for (int k = 0; k < 2; ++k) {
            double side = k == 0 ? s0 : s1;
            if ((pz[i] < side && pz[j] > side) || (pz[i] > side && pz[j] < side)) {
                double x = px[i] + (side - pz[i]) / (pz[j] - pz[i]) * (px[j] - px[i]);
                lo = x < lo ? x : lo;
                hi = x > hi ? x : hi;
            }
        }
    }
    *out_lo = lo;
    *out_hi = hi;
    return lo <= hi;
}

/// Notes a piece the triangle meets for the fill pass, which then needs no
/// clipping of its own (the log grows by doubling; false when it cannot).
static bool log_piece(bin_chunk* c, const wf_allocator* a, uint32_t piece) {
    if (c->log_count == c->log_capacity) {
        size_t capacity = c->log_capacity * 2u + 64u;
        capacity = capacity < c->log_limit ? capacity : c->log_limit;
        if (capacity <= c->log_count) {
            return false; // cannot happen: the count stops past the share first
        }
        uint32_t* grown = WF_ALLOC_ARRAY(a, uint32_t, capacity);
        if (grown == NULL) {
            return false;
        }
        if (c->log_count > 0) {
            memcpy(grown, c->log, c->log_count * sizeof *grown);
        }
        WF_FREE_ARRAY(a, c->log, uint32_t, c->log_capacity);
        c->log = grown;
        c->log_capacity = capacity;
    }
    c->log[c->log_count++] = piece;
    return true;
}

/// Bins triangle t into the pieces whose cells its XZ footprint really
/// overlaps (not every piece of its box: a long diagonal triangle across
/// n x n pieces meets O(n) of them). Row by row of the box's pieces: the
/// footprint clipped to the row's z slab gives the x range of pieces. Both
/// ranges are eps wide, so rounding can only add a piece (the rasterizer
/// clips to the piece anyway). False when the log cannot grow.
static bool bin_triangle(const binning* b, bin_chunk* c, uint32_t t) {
    const wf_triangle_bins_desc* d = b->d;
    const wf_geom* g = d->geom;
    const uint32_t* tri = &g->tris[3u * t];
    double px[3], pz[3];
    for (int k = 0; k < 3; ++k) {
        px[k] = g->verts[3u * tri[k]];
        pz[k] = g->verts[3u * tri[k] + 2u];
    }
    double lo[2] = {px[0], pz[0]}, hi[2] = {px[0], pz[0]};
    for (int k = 1; k < 3; ++k) {
        lo[0] = px[k] < lo[0] ? px[k] : lo[0], hi[0] = px[k] > hi[0] ? px[k] : hi[0];
        lo[1] = pz[k] < lo[1] ? pz[k] : lo[1], hi[1] = pz[k] > hi[1] ? pz[k] : hi[1];
    }
    // Candidates from the grid of tile squares (a ring piece lies inside
    // its square, cut to the border), then each piece's own cells.
    const wf_piece_grid* grid = &d->grid;
    const piece_extent* columns = b->extents;
    const piece_extent* rows = b->extents + grid->pieces_x;
    const double width = (double)d->tile_width, eps = b->eps, cs = (double)d->cs;
    int32_t z0, z1;
    piece_range(lo[1], hi[1], b->origin_z, width, eps, grid->pieces_z, &z0, &z1);
    // Cells under the box, at most a column each (for the span guess).
    const double box_x = (hi[0] - lo[0]) / cs + 2.0;
    const double box_z = (hi[1] - lo[1]) / cs + 2.0;
    uint32_t met = 0;
    for (int32_t tz = z0; tz <= z1; ++tz) {
        const double s0 = rows[tz].lo, s1 = rows[tz].hi;
        if (hi[1] < s0 || lo[1] > s1) {
            continue; // a ring row's strip, not the square round it
        }
        double xa = lo[0], xb = hi[0];
        // A footprint wholly inside the slab is its own clip (every corner
        // counts, no edge crosses a side): the slab walk would give its box.
        if (!(lo[1] >= s0 && hi[1] <= s1) && !slab_x_range(px, pz, s0, s1, &xa, &xb)) {
            continue;
        }
        int32_t x0, x1;
        piece_range(xa, xb, b->origin_x, width, eps, grid->pieces_x, &x0, &x1);
        const double cz = box_z < rows[tz].cells ? box_z : rows[tz].cells;
        for (int32_t tx = x0; tx <= x1; ++tx) {
            if (xb < columns[tx].lo || xa > columns[tx].hi) {
                continue;
            }
            const double cx = box_x < columns[tx].cells ? box_x : columns[tx].cells;
            // At most a piece's cells: the signed conversion is exact.
            const uint64_t cells = (uint64_t)(int64_t)(cx * cz);
            const uint32_t piece = (uint32_t)(tz * grid->pieces_x + tx);
            if (!log_piece(c, d->allocator, piece)) {
                return false;
            }
            met++;
            c->counts[piece]++;
            c->cells[piece] += cells;
            c->refs++;
            c->total_cells += cells;
        }
    }
    b->met[t] = met;
    return true;
}

static bool triangle_valid(const wf_geom* g, uint32_t t) {
    const uint32_t* tri = &g->tris[3u * t];
    return tri[0] < g->vert_count && tri[1] < g->vert_count && tri[2] < g->vert_count &&
           (g->tri_areas == NULL || g->tri_areas[t] < WF_MAX_AREAS ||
            g->tri_areas[t] == WF_AREA_NULL);
}

/// Counts one chunk's triangles, stopping at the first bad one or the
/// first that takes the chunk's own totals past its share of a limit (one
/// chunk: the build's totals past the limit), then gives its triangles
/// their areas.
static void count_chunk(const binning* b, bin_chunk* c) {
    const wf_triangle_bins_desc* d = b->d;
    for (uint32_t t = c->first; t < c->end; ++t) {
        c->stopped_at = t;
        if (!triangle_valid(d->geom, t)) {
            c->stop = STOP_BAD_TRIANGLE;
            return;
        }
        if (!bin_triangle(b, c, t)) {
            c->stop = STOP_MEMORY;
            return;
        }
        if (c->refs > b->chunk_max_refs) {
            c->stop = STOP_REFS;
            return;
        }
        if (c->total_cells > b->chunk_max_cells) {
            c->stop = STOP_CELLS;
            return;
        }
    }
    wf_rasterize_classify(d->geom, d->max_slope_deg, c->first, c->end, b->areas);
}

static void count_chunks_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    (void)worker;
    binning* b = context;
    for (uint32_t i = begin; i < end; ++i) {
        count_chunk(b, &b->chunks[i]);
    }
}

static void free_chunks(binning* b) {
    const wf_allocator* a = b->d->allocator;
    const size_t pieces = (size_t)b->d->grid.pieces_x * (size_t)b->d->grid.pieces_z;
    for (uint32_t i = 0; i < b->chunk_count; ++i) {
        bin_chunk* c = &b->chunks[i];
        WF_FREE_ARRAY(a, c->log, uint32_t, c->log_capacity);
        if (i > 0) { // chunk 0 counts into the bins themselves
            WF_FREE_ARRAY(a, c->counts, uint32_t, pieces);
            WF_FREE_ARRAY(a, c->cells, uint64_t, pieces);
        }
    }
    WF_FREE_ARRAY(a, b->chunks, bin_chunk, b->chunk_count);
    b->chunks = NULL;
    b->chunk_count = 0;
}

/// Runs the counting pass in `chunk_count` chunks (chunk 0 counts straight
/// into out->start + 1 and out->cells, zeroed first) and merges the others
/// into chunk 0. False when the pass must run again as one chunk to name
/// the triangle it stops at (or it stopped as one chunk: the error is in
/// chunk 0).
static bool count_in_chunks(binning* b, uint32_t chunk_count, wf_triangle_bins* out) {
    const wf_triangle_bins_desc* d = b->d;
    const wf_allocator* a = d->allocator;
    const uint32_t pieces = out->piece_count, tris = out->tri_count;
    memset(out->start, 0, ((size_t)pieces + 1u) * sizeof *out->start);
    memset(out->cells, 0, (size_t)pieces * sizeof *out->cells);
    b->chunks = WF_ALLOC_ARRAY(a, bin_chunk, chunk_count);
    if (b->chunks == NULL) {
        return false;
    }
    b->chunk_count = chunk_count;
    b->chunk_max_refs = b->max_refs / chunk_count;
    b->chunk_max_cells = d->max_cells / chunk_count;
    bool ready = true;
    for (uint32_t i = 0; i < chunk_count; ++i) {
        bin_chunk* c = &b->chunks[i];
        c->first = (uint32_t)((uint64_t)tris * i / chunk_count);
        c->end = (uint32_t)((uint64_t)tris * (i + 1u) / chunk_count);
        c->counts = i == 0 ? out->start + 1 : WF_ALLOC_ARRAY(a, uint32_t, pieces);
        c->cells = i == 0 ? out->cells : WF_ALLOC_ARRAY(a, uint64_t, pieces);
        // Before a chunk stops its log holds at most its share of the
        // pairs and one triangle's more, at most a pair per piece; the
        // first guess is a piece and a quarter a triangle (seldom grown).
        const uint64_t need = b->chunk_max_refs + pieces + 1u;
        c->log_limit =
            need < SIZE_MAX / sizeof(uint32_t) ? (size_t)need : SIZE_MAX / sizeof(uint32_t);
        const size_t guess = (size_t)(c->end - c->first) + (c->end - c->first) / 4u + 64u;
        c->log_capacity = guess < c->log_limit ? guess : c->log_limit;
        c->log = WF_ALLOC_ARRAY(a, uint32_t, c->log_capacity);
        if (c->counts == NULL || c->cells == NULL || c->log == NULL) {
            c->log_capacity = c->log == NULL ? 0 : c->log_capacity;
            c->stop = STOP_MEMORY;
            ready = false;
        }
    }
    if (!ready) {
        return false;
    }
    if (chunk_count == 1) {
        count_chunk(b, &b->chunks[0]);
    } else if (wf_jobs_parallel_for(d->jobs, chunk_count, 1, count_chunks_fn, b) != WF_OK) {
        return false;
    }
    uint64_t refs = 0, cells = 0;
    for (uint32_t i = 0; i < chunk_count; ++i) {
        if (b->chunks[i].stop != STOP_NONE) {
            return false;
        }
        refs += b->chunks[i].refs;
        cells += b->chunks[i].total_cells;
    }
    if (refs > b->max_refs || cells > d->max_cells) {
        return false; // the shares sum to at most the limits: a guard, not a path
    }
    for (uint32_t i = 1; i < chunk_count; ++i) {
        const bin_chunk* c = &b->chunks[i];
        for (uint32_t p = 0; p < pieces; ++p) {
            out->start[p + 1] += c->counts[p];
            out->cells[p] += c->cells[p];
        }
    }
    b->chunks[0].refs = refs;
    b->chunks[0].total_cells = cells;
    return true;
}

/// Logs why one chunk (the whole build) stopped, and says it.
static wf_status report_stop(const binning* b, const bin_chunk* c) {
    const wf_triangle_bins_desc* d = b->d;
    const uint32_t t = c->stopped_at, n = d->geom->tri_count;
    switch (c->stop) {
    case STOP_BAD_TRIANGLE:
        wf_log(d->logger, WF_LOG_ERROR,
               "tilecache: triangle %u has a vertex index or area out of range", t);
        return WF_ERR_INVALID_ARG;
    case STOP_REFS:
        wf_log(d->logger, WF_LOG_ERROR,
               "tilecache: the first %u of %u triangles already overlap %llu tile squares in all, "
               "more than max_triangle_refs %llu",
               t + 1u, n, (unsigned long long)c->refs, (unsigned long long)b->max_refs);
        return WF_ERR_CAPACITY;
    case STOP_CELLS:
        wf_log(d->logger, WF_LOG_ERROR,
               "tilecache: the first %u of %u triangles already cover %llu cells to "
               "rasterize, more than max_cells %llu",
               t + 1u, n, (unsigned long long)c->total_cells, (unsigned long long)d->max_cells);
        return WF_ERR_CAPACITY;
    case STOP_MEMORY:
    case STOP_NONE:
    default:
        return WF_ERR_OUT_OF_MEMORY;
    }
}

/// Chunks for the counting pass: one per worker while each has
/// CHUNK_MIN_TRIANGLES, and no more than the triangles pay for in memory
/// (each chunk past the first counts into arrays as long as the pieces).
static uint32_t chunks_for(const wf_triangle_bins_desc* d, uint32_t pieces) {
    const uint32_t tris = d->geom->tri_count;
    uint64_t n = wf_jobs_worker_count(d->jobs);
    n = n < tris / CHUNK_MIN_TRIANGLES ? n : tris / CHUNK_MIN_TRIANGLES;
    const uint64_t affordable = 1u + (pieces == 0 ? 0u : tris / pieces);
    n = n < affordable ? n : affordable;
    return n < 1u ? 1u : (uint32_t)n;
}

/// The fill pass: each chunk's log replayed in chunk order, so every
/// piece's triangles come in triangle order.
static void fill(const binning* b, wf_triangle_bins* out) {
    for (uint32_t i = 0; i < b->chunk_count; ++i) {
        const bin_chunk* c = &b->chunks[i];
        size_t k = 0;
        for (uint32_t t = c->first; t < c->end; ++t) {
            for (uint32_t n = 0; n < b->met[t]; ++n) {
                out->tris[out->start[c->log[k++]]++] = t;
            }
        }
    }
    // The fill moved each start to the next piece's: shift back.
    for (uint32_t p = out->piece_count; p > 0; --p) {
        out->start[p] = out->start[p - 1];
    }
    out->start[0] = 0;
}

wf_status wf_triangle_bins_build(wf_triangle_bins* out, const wf_triangle_bins_desc* d) {
    const wf_allocator* a = d->allocator;
    const wf_piece_grid* grid = &d->grid;
    memset(out, 0, sizeof *out);
    out->piece_count = (uint32_t)(grid->pieces_x * grid->pieces_z);
    out->tri_count = d->geom->tri_count;
    const uint32_t pieces = out->piece_count, tris = out->tri_count;
    binning b;
    memset(&b, 0, sizeof b);
    b.d = d;
    b.max_refs = d->max_refs < UINT32_MAX ? d->max_refs : UINT32_MAX;
    const size_t extents = (size_t)grid->pieces_x + (size_t)grid->pieces_z;
    out->start = WF_ALLOC_ARRAY(a, uint32_t, (size_t)pieces + 1u);
    out->cells = WF_ALLOC_ARRAY(a, uint64_t, pieces);
    out->areas = WF_ALLOC_ARRAY(a, uint8_t, tris);
    b.met = WF_ALLOC_ARRAY(a, uint32_t, tris);
    b.extents = WF_ALLOC_ARRAY(a, piece_extent, extents);
    b.areas = out->areas;
    wf_status s = out->start != NULL && out->cells != NULL && b.extents != NULL &&
                          ((out->areas != NULL && b.met != NULL) || tris == 0)
                      ? WF_OK
                      : WF_ERR_OUT_OF_MEMORY;
    if (s == WF_OK) {
        const double far = fmax(fmax(fabs((double)d->bmin.x), fabs((double)d->bmax.x)),
                                fmax(fabs((double)d->bmin.z), fabs((double)d->bmax.z)));
        const double width = (double)d->tile_width, cs = (double)d->cs;
        b.eps = 1e-4 * width + cs / 256.0 + 1e-5 * far;
        b.origin_x = (double)d->bmin.x - (double)grid->ring * width;
        b.origin_z = (double)d->bmin.z - (double)grid->ring * width;
        piece_extents(grid, true, (double)d->bmin.x, cs, b.eps, b.extents);
        piece_extents(grid, false, (double)d->bmin.z, cs, b.eps, b.extents + grid->pieces_x);
        const uint32_t chunks = chunks_for(d, pieces);
        bool counted = count_in_chunks(&b, chunks, out);
        if (!counted && chunks > 1) {
            // A chunk stopped (a bad triangle, its share of a limit passed,
            // no memory): count again in one go, so that an error names the
            // same triangle as a single worker's count does.
            free_chunks(&b);
            counted = count_in_chunks(&b, 1, out);
        }
        if (!counted) {
            s = b.chunks == NULL ? WF_ERR_OUT_OF_MEMORY : report_stop(&b, &b.chunks[0]);
        }
    }
    if (s == WF_OK) {
        out->refs = b.chunks[0].refs;
        out->total_cells = b.chunks[0].total_cells;
        for (uint32_t p = 0; p < pieces; ++p) {
            out->start[p + 1] += out->start[p];
        }
        out->tris = WF_ALLOC_ARRAY(a, uint32_t, out->refs);
        if (out->tris == NULL && out->refs > 0) {
            s = WF_ERR_OUT_OF_MEMORY;
        } else {
            fill(&b, out);
        }
    }
    free_chunks(&b);
    WF_FREE_ARRAY(a, b.met, uint32_t, tris);
    WF_FREE_ARRAY(a, b.extents, piece_extent, extents);
    if (s != WF_OK) {
        wf_triangle_bins_free(out, a);
    }
    return s;
}

void wf_triangle_bins_free(wf_triangle_bins* bins, const wf_allocator* allocator) {
    if (bins->tris != NULL) {
        WF_FREE_ARRAY(allocator, bins->tris, uint32_t, bins->start[bins->piece_count]);
    }
    WF_FREE_ARRAY(allocator, bins->start, uint32_t, (size_t)bins->piece_count + 1u);
    WF_FREE_ARRAY(allocator, bins->cells, uint64_t, bins->piece_count);
    WF_FREE_ARRAY(allocator, bins->areas, uint8_t, bins->tri_count);
    memset(bins, 0, sizeof *bins);
}
