// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Conservative triangle voxelization: each triangle is cut into the rows it
// covers (Sutherland-Hodgman splits at row edges); each row polygon is swept
// along x, and the height range of its piece in every cell it touches
// becomes a solid span. A field that is a window of a larger frame is swept
// as the frame and keeps its own cells only (wf_heightfield).
#include <math.h>

#include "navcore/check.h"
#include "tilecache/heightfield.h"

/// A triangle cut by two parallel lines has at most 5 corners, and that
/// strip cut by two more at most 7; a little slack on top.
#define MAX_CLIP_VERTS 12

/// Cuts the convex polygon `in` (n corners of 3 floats) at z = offset into
/// the part below, kept as (x, y) pairs, and the part above, kept whole.
/// Points on the line go to both. Rounding could in theory make a cut
/// polygon slightly non-convex and add corners, so with `checked` the
/// buffer bound is enforced, not assumed (a dropped corner only nudges a
/// height range). Unchecked is safe for 2n <= MAX_CLIP_VERTS (always, in
/// practice: rows have 3 to 5 corners): each part gets at most n corners
/// plus one per crossing. Forced inline so that `checked` is a constant in
/// each use.
__attribute__((always_inline)) static inline void cut_row(const float* in, int n, float offset,
                                                          float* row, int* row_count, float* rest,
                                                          int* rest_count, bool checked) {
    int nb = 0, na = 0;
    const float* a = &in[(n - 1) * 3];
    float da = offset - a[2];
    for (int i = 0; i < n; ++i) {
        const float* b = &in[i * 3];
        const float db = offset - b[2];
        if ((da > 0.0f && db < 0.0f) || (da < 0.0f && db > 0.0f)) {
            float t = da / (da - db);
            float x = a[0] + (b[0] - a[0]) * t;
            float y = a[1] + (b[1] - a[1]) * t;
            if (!checked || nb < MAX_CLIP_VERTS) {
                row[nb * 2] = x;
                row[nb * 2 + 1] = y;
                nb++;
            }
            if (!checked || na < MAX_CLIP_VERTS) {
                rest[na * 3] = x;
                rest[na * 3 + 1] = y;
                rest[na * 3 + 2] = offset; // exact, so both parts share the cut
                na++;
            }
        }
        if (db >= 0.0f && (!checked || nb < MAX_CLIP_VERTS)) {
            row[nb * 2] = b[0];
            row[nb * 2 + 1] = b[1];
            nb++;
        }
        if (db <= 0.0f && (!checked || na < MAX_CLIP_VERTS)) {
            rest[na * 3] = b[0];
            rest[na * 3 + 1] = b[1];
            rest[na * 3 + 2] = b[2];
            na++;
        }
        a = b;
        da = db;
    }
    *row_count = nb;
    *rest_count = na;
}

/// floor(value) clamped to [0, hi]: for value >= 0 truncation is the floor
/// (no int -> float round trip to correct it, and no floorf, which costs a
/// library call or a long sequence on plain x86-64).
static inline int32_t floor_clamped_nonnegative(float value, int32_t hi) {
    if (!(value >= 0.0f)) {
        return 0; // also NaN
    }
    return value >= (float)hi ? hi : (int32_t)value;
}

/// floor(value) clamped to [-1, hi] (hi >= 0): every negative value
/// floors to -1 or below, so only the nonnegative ones need converting.
static inline int32_t floor_clamped_from_minus_one(float value, int32_t hi) {
    return value >= 0.0f ? floor_clamped_nonnegative(value, hi) : -1;
}

/// ceil(value) clamped to [lo, hi], likewise without ceilf.
static inline int32_t ceil_clamped(float value, int32_t lo, int32_t hi) {
    if (!(value > (float)lo)) {
        return lo;
    }
    if (value >= (float)hi) {
        return hi;
    }
    int32_t i = (int32_t)value;
    return (float)i < value ? i + 1 : i;
}

static bool triangle_is_walkable(const float* a, const float* b, const float* c,
                                 float cos_max_slope) {
    // n = (b - a) x (c - a); counter-clockwise seen from +Y gives n.y > 0.
    // n.y / |n| > cos is tested squared, for n.y > 0, to skip the sqrt.
    float e0[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    float e1[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    float n[3] = {e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2],
                  e0[0] * e1[1] - e0[1] * e1[0]};
    if (!(n[1] > 0.0f)) {
        return false; // faces down, stands upright, or is degenerate
    }
    float len2 = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
    return cos_max_slope <= 0.0f || n[1] * n[1] > cos_max_slope * cos_max_slope * len2;
}

/// Pieces waiting for their span insertion. Rows are swept first and their
/// pieces (cell and world heights) queued here; the queue is then turned
/// into spans in two plain loops: one converting every height range to
/// voxel units (no branches; gcc vectorizes it), one inserting. Split so,
/// neither loop carries the other's registers (the sweep's chains spilled
/// around every merge), and the conversion runs four pieces at a time.
/// Pieces go in in the order the sweep made them, so the field is the same.
#define PIECE_CAP 256
typedef struct piece_queue {
    uint32_t count;
    size_t cell[PIECE_CAP];
    float lo[PIECE_CAP], hi[PIECE_CAP];
    uint32_t area[PIECE_CAP];
    /// Voxel ranges of the queued pieces, filled by the flush; smax 0 marks
    /// a piece that lies wholly below or above the field.
    int32_t smin[PIECE_CAP], smax[PIECE_CAP];
} piece_queue;

/// Cell edges per axis, tabled once per call for fields up to EDGE_CAP - 1
/// cells wide and deep (tile cache fields are at most 255 plus the border).
#define EDGE_CAP 1024
typedef struct cell_edges {
    float x[EDGE_CAP], z[EDGE_CAP];
} cell_edges;

/// The heightfield's constants, copied out once per call: the span
/// insertions write bytes (areas), which could alias any field of hf, so
/// without local copies the compiler reloads them after every insertion.
typedef struct raster {
    wf_heightfield* hf;
    piece_queue* queue;
    /// World x and z of the cell edges, bmin + i * cs for i in [0, width]
    /// and [0, depth], worked out once instead of per row and cell; NULL
    /// when the field is wider or deeper than the tables (then each edge
    /// is computed where it is needed, with the same operations).
    const float* x_edges;
    const float* z_edges;
    float bmin[3], bmax[3];
    float cs, inv_cs, inv_ch;
    float top;            ///< bmax.y - bmin.y
    int32_t width, depth; ///< of the frame (see wf_heightfield): cells are swept in it
    /// The field's own cells in the frame: [window_x0, window_x1) x
    /// [window_z0, window_z1); only they get pieces.
    int32_t window_x0, window_x1, window_z0, window_z1;
    int32_t merge_climb;
    /// top * inv_ch < WF_SPAN_MAX_HEIGHT: every height lands inside the
    /// span range, so the conversion needs none of its clamps.
    bool short_field;
} raster;

static raster raster_of(wf_heightfield* hf, piece_queue* queue, cell_edges* edges,
                        int32_t merge_climb) {
    raster r;
    r.hf = hf;
    r.queue = queue;
    queue->count = 0;
    for (int k = 0; k < 3; ++k) {
        r.bmin[k] = hf->frame_bmin[k];
        r.bmax[k] = hf->frame_bmax[k];
    }
    r.cs = hf->cs;
    r.inv_cs = 1.0f / hf->cs;
    r.inv_ch = 1.0f / hf->ch;
    r.top = r.bmax[1] - r.bmin[1];
    r.width = hf->frame_width;
    r.depth = hf->frame_depth;
    r.window_x0 = hf->window_first[0];
    r.window_x1 = hf->window_first[0] + hf->width;
    r.window_z0 = hf->window_first[1];
    r.window_z1 = hf->window_first[1] + hf->depth;
    r.merge_climb = merge_climb;
    r.short_field = r.top * r.inv_ch < (float)WF_SPAN_MAX_HEIGHT;
    r.x_edges = NULL;
    r.z_edges = NULL;
    if (r.width < EDGE_CAP && r.depth < EDGE_CAP) {
        for (int32_t i = 0; i <= r.width; ++i) {
            edges->x[i] = r.bmin[0] + (float)i * r.cs;
        }
        for (int32_t i = 0; i <= r.depth; ++i) {
            edges->z[i] = r.bmin[2] + (float)i * r.cs;
        }
        r.x_edges = edges->x;
        r.z_edges = edges->z;
    }
    return r;
}

/// Voxel range of the pieces [0, n) of a short field (see raster): the
/// heights relative to the field, clamped to [0, top], scaled; truncation
/// is the floor there, the top is rounded up, and a piece keeps at least
/// one voxel. Written without branches, over groups of four (n is a
/// multiple of 4), so that it vectorizes with no scalar tail, also at -O2.
static void convert_short(const float* restrict lo_in, const float* restrict hi_in,
                          int32_t* restrict smin_out, int32_t* restrict smax_out, uint32_t n,
                          float base, float top, float inv_ch) {
    n &= ~3u;
    for (uint32_t i = 0; i < n; ++i) {
        float lo = lo_in[i] - base;
        float hi = hi_in[i] - base;
        const int32_t outside = (hi < 0.0f) | (lo > top);
        lo = lo > 0.0f ? lo : 0.0f;
        hi = hi < top ? hi : top;
        const float fmin = lo * inv_ch, fmax = hi * inv_ch;
        const int32_t smin = (int32_t)fmin;
        int32_t smax = (int32_t)fmax;
        smax += (float)smax < fmax ? 1 : 0;
        smax = smax < smin + 1 ? smin + 1 : smax;
        smin_out[i] = smin;
        smax_out[i] = outside ? 0 : smax;
    }
}

/// The same for a field taller than the span range: every height clamped.
static void convert_tall(const float* lo_in, const float* hi_in, int32_t* smin_out,
                         int32_t* smax_out, uint32_t n, float base, float top, float inv_ch) {
    for (uint32_t i = 0; i < n; ++i) {
        float lo = lo_in[i] - base;
        float hi = hi_in[i] - base;
        if (hi < 0.0f || lo > top) {
            smin_out[i] = 0;
            smax_out[i] = 0;
            continue;
        }
        lo = lo > 0.0f ? lo : 0.0f;
        hi = hi < top ? hi : top;
        int32_t smin = floor_clamped_nonnegative(lo * inv_ch, (int32_t)WF_SPAN_MAX_HEIGHT);
        int32_t smax = ceil_clamped(hi * inv_ch, 0, (int32_t)WF_SPAN_MAX_HEIGHT);
        if (smax < smin + 1) {
            smax = smin + 1;
        }
        if (smax > (int32_t)WF_SPAN_MAX_HEIGHT) {
            // Only when smin is already at the ceiling: keep one voxel.
            smax = (int32_t)WF_SPAN_MAX_HEIGHT;
            smin = smax - 1;
        }
        smin_out[i] = smin;
        smax_out[i] = smax;
    }
}

/// Turns the queued pieces into spans, in queue order, and empties the
/// queue. On WF_ERR_CAPACITY the pieces before the failing one are in,
/// as if each had been inserted when it was made.
__attribute__((noinline)) static wf_status flush_pieces(const raster* r) {
    piece_queue* q = r->queue;
    const uint32_t n = q->count;
    q->count = 0;
    if (r->short_field) {
        // Pad to a multiple of 4 (PIECE_CAP is one) with harmless heights;
        // the padding is converted, never inserted.
        const uint32_t padded = (n + 3u) & ~3u;
        for (uint32_t i = n; i < padded; ++i) {
            q->lo[i] = r->bmin[1];
            q->hi[i] = r->bmin[1];
        }
        convert_short(q->lo, q->hi, q->smin, q->smax, padded, r->bmin[1], r->top, r->inv_ch);
    } else {
        convert_tall(q->lo, q->hi, q->smin, q->smax, n, r->bmin[1], r->top, r->inv_ch);
    }
    wf_heightfield* hf = r->hf;
    const int32_t merge_climb = r->merge_climb;
    for (uint32_t i = 0; i < n; ++i) {
        if (q->smax[i] == 0) {
            continue; // wholly below or above the field
        }
        wf_status st =
            wf_heightfield_insert_span(hf, q->cell[i], (uint16_t)q->smin[i], (uint16_t)q->smax[i],
                                       (uint8_t)q->area[i], merge_climb);
        if (st != WF_OK) {
            return st;
        }
    }
    return WF_OK;
}

/// Queues the piece of one triangle in one cell whose heights (world y)
/// are lo..hi; flushes a full queue.
static inline wf_status add_piece(const raster* r, size_t cell, float lo, float hi, uint8_t area) {
    piece_queue* q = r->queue;
    const uint32_t i = q->count;
    q->cell[i] = cell;
    q->lo[i] = lo;
    q->hi[i] = hi;
    q->area[i] = area;
    q->count = i + 1;
    return i + 1 == PIECE_CAP ? flush_pieces(r) : WF_OK;
}

/// One of the two x-monotone chains of a convex row polygon, from its
/// leftmost to its rightmost corner, walked through the polygon's corners
/// written out twice in a row (so neither direction wraps): advancing is a
/// pointer step of +2 or -2 floats. The slope of the current edge is kept
/// (it only changes when a corner is passed).
typedef struct chain {
    const float* next;   ///< (x, y) of the next corner
    const float* end;    ///< one step past the last corner
    ptrdiff_t step;      ///< +2 or -2
    float x0, y0, slope; ///< current edge: start and dy/dx (0 at the end)
} chain;

static inline void chain_set_slope(chain* c) {
    c->slope = 0.0f;
    if (c->next != c->end && c->next[0] > c->x0) {
        c->slope = (c->next[1] - c->y0) / (c->next[0] - c->x0);
    }
}

/// The chain from corner `from` to corner `to` of `corners`, by `step`.
/// Forced inline: gcc -O2 otherwise calls it (twice a row).
__attribute__((always_inline)) static inline void chain_start(chain* c, const float* corners,
                                                              int from, int to, ptrdiff_t step) {
    c->step = step;
    c->next = corners + 2 * from + step;
    c->end = corners + 2 * to + step;
    c->x0 = corners[2 * from];
    c->y0 = corners[2 * from + 1];
    chain_set_slope(c);
}

/// Walks the chain to x = boundary, widening [lo, hi] by the corners passed
/// and returning the chain's height at the boundary.
static inline float chain_advance(chain* c, float boundary, float* lo, float* hi) {
    if (c->next != c->end && !(c->next[0] > boundary)) {
        do {
            float nx = c->next[0];
            float ny = c->next[1];
            c->next += c->step;
            c->x0 = nx;
            c->y0 = ny;
            *lo = ny < *lo ? ny : *lo;
            *hi = ny > *hi ? ny : *hi;
        } while (c->next != c->end && !(c->next[0] > boundary));
        chain_set_slope(c);
    }
    // Rounding can put the boundary a hair left of the chain's start.
    float dx = boundary - c->x0;
    return dx > 0.0f ? c->y0 + dx * c->slope : c->y0;
}

/// World x of the low edge of cell column i (0 <= i <= width); `tabled`
/// is a constant in each use (see rasterize_triangle).
__attribute__((always_inline)) static inline float x_edge(const raster* r, int32_t i, bool tabled) {
    return tabled ? r->x_edges[i] : r->bmin[0] + (float)i * r->cs;
}

/// World z of the low edge of cell row i (0 <= i <= depth), likewise.
__attribute__((always_inline)) static inline float z_edge(const raster* r, int32_t i, bool tabled) {
    return tabled ? r->z_edges[i] : r->bmin[2] + (float)i * r->cs;
}

/// Rasterizes one row (z) of a triangle: the row polygon (x, y pairs, n
/// corners) is swept left to right along its two chains; each cell's piece
/// has the chains' points on its two sides and the corners between them, so
/// its height range comes without cutting the polygon per cell.
__attribute__((always_inline)) static inline wf_status
rasterize_row(const raster* r, int32_t z, const float* poly, int n, uint8_t area, bool tabled) {
    // The leftmost and rightmost corners (the first of equals), picked
    // with selects: which corner wins is data, so branches mispredict.
    // The heights' range comes along (a row in one cell needs only that).
    int first = 0, last = 0;
    float min_x = poly[0], max_x = poly[0];
    float min_y = poly[1], max_y = poly[1];
    int corner = 1;
    do { // n >= 3
        const float x = poly[corner * 2], y = poly[corner * 2 + 1];
        const bool left = x < min_x;
        const bool right = x > max_x;
        first = left ? corner : first;
        min_x = left ? x : min_x;
        last = right ? corner : last;
        max_x = right ? x : max_x;
        min_y = y < min_y ? y : min_y;
        max_y = y > max_y ? y : max_y;
    } while (++corner < n);
    if (max_x < r->bmin[0] || min_x > r->bmax[0]) {
        return WF_OK;
    }
    // max_x >= bmin.x here, so x1's argument is never negative.
    int32_t x0 = floor_clamped_from_minus_one((min_x - r->bmin[0]) * r->inv_cs, r->width - 1);
    int32_t x1 = floor_clamped_nonnegative((max_x - r->bmin[0]) * r->inv_cs, r->width - 1);
    // The window's cell of frame cell (x, z) is row + x - window_x0.
    const size_t window_width = (size_t)(r->window_x1 - r->window_x0);
    const size_t row = (size_t)(z - r->window_z0) * window_width;
    if (!(max_x > min_x) || (x0 >= 0 && max_x <= x_edge(r, x0 + 1, tabled))) {
        // One cell (or a sliver along z, such as a wall on a cell line).
        return x0 >= r->window_x0 && x0 < r->window_x1
                   ? add_piece(r, row + (size_t)(x0 - r->window_x0), min_y, max_y, area)
                   : WF_OK;
    }
    // The sweep below would reach no cell of the window.
    if (x0 >= r->window_x1 || x1 < r->window_x0 ||
        (x0 < r->window_x0 && !(max_x > x_edge(r, r->window_x0, tabled)))) {
        return WF_OK;
    }

    // The chains: forward through increasing indices, backward through
    // decreasing ones, both from `first` to `last`, over the corners
    // written twice so that neither wraps. first != last here (max_x >
    // min_x), so the backward chain's end (one step past corner 1 at the
    // least) lies inside `twice`.
    float twice[MAX_CLIP_VERTS * 4];
    for (int i = 0; i < 2 * n; ++i) {
        twice[i] = poly[i];
        twice[2 * n + i] = poly[i];
    }
    chain forward, backward;
    chain_start(&forward, twice, first, last >= first ? last : last + n, 2);
    chain_start(&backward, twice, first + n, last < first ? last + n : last, -2);
    // Heights on the cell's left side (the leftmost corner for the first).
    float side_lo = poly[first * 2 + 1], side_hi = side_lo;
    if (x0 < r->window_x0) {
        // Straight to the window's first cell: a chain's height at an edge
        // is its last corner's plus the slope on, however it got there, so
        // the window's cells get what a sweep over the frame gives them.
        float skipped_lo = side_lo, skipped_hi = side_hi;
        const float edge = x_edge(r, r->window_x0, tabled);
        const float ya = chain_advance(&forward, edge, &skipped_lo, &skipped_hi);
        const float yb = chain_advance(&backward, edge, &skipped_lo, &skipped_hi);
        side_lo = ya < yb ? ya : yb;
        side_hi = ya > yb ? ya : yb;
        x0 = r->window_x0;
    }
    x1 = x1 < r->window_x1 - 1 ? x1 : r->window_x1 - 1;
    for (int32_t x = x0; x <= x1; ++x) {
        float right = x_edge(r, x + 1, tabled);
        float lo = side_lo, hi = side_hi;
        bool last_cell = right >= max_x;
        if (!last_cell) {
            float ya = chain_advance(&forward, right, &lo, &hi);
            float yb = chain_advance(&backward, right, &lo, &hi);
            side_lo = ya < yb ? ya : yb;
            side_hi = ya > yb ? ya : yb;
            lo = side_lo < lo ? side_lo : lo;
            hi = side_hi > hi ? side_hi : hi;
        } else {
            (void)chain_advance(&forward, max_x, &lo, &hi);
            (void)chain_advance(&backward, max_x, &lo, &hi);
        }
        wf_status st = add_piece(r, row + (size_t)(x - r->window_x0), lo, hi, area);
        if (st != WF_OK) {
            return st;
        }
        if (last_cell) {
            break;
        }
    }
    return WF_OK;
}

/// Forced inline so that `tabled` (r has edge tables) is a constant in
/// each of the two instances below.
__attribute__((always_inline)) static inline wf_status
rasterize_triangle(const raster* r, const float* a, const float* b, const float* c, uint8_t area,
                   bool tabled) {
    float tmin[3], tmax[3];
    for (int k = 0; k < 3; ++k) {
        float lo = a[k] < b[k] ? a[k] : b[k];
        float hi = a[k] > b[k] ? a[k] : b[k];
        tmin[k] = c[k] < lo ? c[k] : lo;
        tmax[k] = c[k] > hi ? c[k] : hi;
        if (tmin[k] > r->bmax[k] || tmax[k] < r->bmin[k]) {
            return WF_OK;
        }
    }

    // Row -1 (when the triangle starts before the grid) only serves to cut
    // off the part outside; rows past the last are never split off.
    // tmax.z >= bmin.z here, so z1's argument is never negative.
    int32_t z0 = floor_clamped_from_minus_one((tmin[2] - r->bmin[2]) * r->inv_cs, r->depth - 1);
    int32_t z1 = floor_clamped_nonnegative((tmax[2] - r->bmin[2]) * r->inv_cs, r->depth - 1);

    // Two buffers for the rest of the triangle, swapped after each cut.
    float rest_buf[2][MAX_CLIP_VERTS * 3];
    float row[MAX_CLIP_VERTS * 2];
    float* rest = rest_buf[0];
    float* rest_next = rest_buf[1];
    for (int k = 0; k < 3; ++k) {
        rest[k] = a[k];
        rest[3 + k] = b[k];
        rest[6 + k] = c[k];
    }
    int rest_count = 3;
    for (int32_t z = z0; z <= z1 && rest_count >= 3; ++z) {
        int row_count;
        float row_end = z_edge(r, z + 1, tabled);
        if (tmax[2] <= row_end) {
            // The rest lies in this row: no cut.
            for (int i = 0; i < rest_count; ++i) {
                row[i * 2] = rest[i * 3];
                row[i * 2 + 1] = rest[i * 3 + 1];
            }
            row_count = rest_count;
            rest_count = 0;
        } else {
            int next_count;
            if (2 * rest_count <= MAX_CLIP_VERTS) {
                cut_row(rest, rest_count, row_end, row, &row_count, rest_next, &next_count, false);
            } else {
                cut_row(rest, rest_count, row_end, row, &row_count, rest_next, &next_count, true);
            }
            float* swap = rest;
            rest = rest_next;
            rest_next = swap;
            rest_count = next_count;
        }
        if (z >= r->window_z1) {
            break; // past the window: the rest of the cuts would go nowhere
        }
        if (row_count < 3 || z < r->window_z0) {
            continue;
        }
        wf_status st = rasterize_row(r, z, row, row_count, area, tabled);
        if (st != WF_OK) {
            return st;
        }
    }
    return WF_OK;
}

static wf_status rasterize_triangle_tabled(const raster* r, const float* a, const float* b,
                                           const float* c, uint8_t area) {
    return rasterize_triangle(r, a, b, c, area, true);
}

static wf_status rasterize_triangle_computed(const raster* r, const float* a, const float* b,
                                             const float* c, uint8_t area) {
    return rasterize_triangle(r, a, b, c, area, false);
}

/// The instance of rasterize_triangle for r.
static wf_status rasterize_any(const raster* r, const float* a, const float* b, const float* c,
                               uint8_t area) {
    return r->x_edges != NULL ? rasterize_triangle_tabled(r, a, b, c, area)
                              : rasterize_triangle_computed(r, a, b, c, area);
}

static float cos_of_slope(float max_slope_deg) {
    return cosf(max_slope_deg * (3.14159265358979f / 180.0f));
}

static uint8_t triangle_area(const wf_geom* geom, uint32_t t, float cos_max_slope) {
    const uint32_t* tri = &geom->tris[(size_t)t * 3u];
    const float* a = &geom->verts[(size_t)tri[0] * 3u];
    const float* b = &geom->verts[(size_t)tri[1] * 3u];
    const float* c = &geom->verts[(size_t)tri[2] * 3u];
    uint8_t area = geom->tri_areas != NULL ? geom->tri_areas[t] : 0u;
    return triangle_is_walkable(a, b, c, cos_max_slope) ? area : (uint8_t)WF_AREA_NULL;
}

void wf_rasterize_classify(const wf_geom* geom, float max_slope_deg, uint32_t first, uint32_t end,
                           uint8_t* out_areas) {
    const float cos_max_slope = cos_of_slope(max_slope_deg);
    for (uint32_t t = first; t < end; ++t) {
        out_areas[t] = triangle_area(geom, t, cos_max_slope);
    }
}

/// The triangles list[0 .. count) in order, in r's instance (see
/// rasterize_triangle), so that each triangle is no call of its own.
__attribute__((always_inline)) static inline wf_status
rasterize_list(const raster* r, const wf_geom* geom, const uint8_t* areas, const uint32_t* list,
               uint32_t count, bool tabled) {
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t* tri = &geom->tris[(size_t)list[i] * 3u];
        wf_status st = rasterize_triangle(
            r, &geom->verts[(size_t)tri[0] * 3u], &geom->verts[(size_t)tri[1] * 3u],
            &geom->verts[(size_t)tri[2] * 3u], areas[list[i]], tabled);
        if (st != WF_OK) {
            return st;
        }
    }
    return WF_OK;
}

static wf_status rasterize_list_tabled(const raster* r, const wf_geom* geom, const uint8_t* areas,
                                       const uint32_t* list, uint32_t count) {
    return rasterize_list(r, geom, areas, list, count, true);
}

static wf_status rasterize_list_computed(const raster* r, const wf_geom* geom, const uint8_t* areas,
                                         const uint32_t* list, uint32_t count) {
    return rasterize_list(r, geom, areas, list, count, false);
}

wf_status wf_rasterize_triangle_list(wf_heightfield* hf, const wf_geom* geom, const uint8_t* areas,
                                     const uint32_t* list, uint32_t count, int32_t merge_climb) {
    piece_queue queue;
    cell_edges edges;
    const raster r = raster_of(hf, &queue, &edges, merge_climb);
    wf_status st = r.x_edges != NULL ? rasterize_list_tabled(&r, geom, areas, list, count)
                                     : rasterize_list_computed(&r, geom, areas, list, count);
    return st != WF_OK ? st : flush_pieces(&r);
}

wf_status wf_rasterize_triangles(wf_heightfield* hf, const wf_geom* geom, float max_slope_deg,
                                 int32_t merge_climb) {
    WF_CHECK_ARG(hf != NULL && hf->columns != NULL && geom != NULL);
    WF_CHECK_ARG(geom->tri_count == 0 || (geom->tris != NULL && geom->verts != NULL));
    WF_CHECK_ARG(isfinite(max_slope_deg) && max_slope_deg >= 0.0f && max_slope_deg <= 90.0f);
    WF_CHECK_ARG(merge_climb >= 0);
    // Validate everything first so bad input leaves the heightfield untouched.
    for (size_t i = 0; i < (size_t)geom->tri_count * 3u; ++i) {
        WF_CHECK_ARG(geom->tris[i] < geom->vert_count);
    }
    for (uint32_t t = 0; t < geom->tri_count; ++t) {
        for (size_t k = 0; k < 3u; ++k) {
            const float* v = &geom->verts[(size_t)geom->tris[(size_t)t * 3u + k] * 3u];
            WF_CHECK_ARG(isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]));
        }
        if (geom->tri_areas != NULL) {
            uint8_t area = geom->tri_areas[t];
            WF_CHECK_ARG(area <= 63u || area == WF_AREA_NULL);
        }
    }

    piece_queue queue;
    cell_edges edges;
    const raster r = raster_of(hf, &queue, &edges, merge_climb);
    const float cos_max_slope = cos_of_slope(max_slope_deg);
    for (uint32_t t = 0; t < geom->tri_count; ++t) {
        const uint32_t* tri = &geom->tris[(size_t)t * 3u];
        wf_status st =
            rasterize_any(&r, &geom->verts[(size_t)tri[0] * 3u], &geom->verts[(size_t)tri[1] * 3u],
                          &geom->verts[(size_t)tri[2] * 3u], triangle_area(geom, t, cos_max_slope));
        if (st != WF_OK) {
            return st;
        }
    }
    return flush_pieces(&r);
}
