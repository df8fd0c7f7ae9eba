// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Polyanya .mesh (version 2) import: takes the parsed convex polygons
// (polyanya_parse.c), cuts them into tile cells (Sutherland–Hodgman
// clipping), welds vertices per tile, splits pieces above
// WF_MAX_VERTS_PER_POLY vertices and builds the mesh.
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "navcore/alloc.h"
#include "navcore/check.h"
#include "navcore/log.h"
#include "navcore/polyanya_internal.h"

/// Cells of the tile grid over the mesh bounds: a tile size far below the
/// mesh size would otherwise walk billions of (mostly empty) cells.
#define PY_MAX_GRID_CELLS (1u << 20)
/// (polygon, cell) pairs bucketed at once (4 bytes each): bounds memory.
#define PY_MAX_CELL_ENTRIES (1u << 25)
/// wf_tile_build's limits: 16-bit vertex indices (0xffff means "none") and
/// 15-bit neighbour polygon numbers.
#define PY_MAX_TILE_VERTS 0xfffeu
#define PY_MAX_TILE_POLYS 0x7ffeu
/// Attempts per vertex when looking for clean cuts of a large polygon.
#define PY_SPLIT_ATTEMPTS_PER_VERT 8u

/* ---------------------------------------------------------------------------
 * Tile grid and clipping
 */

typedef struct py_grid {
    bool clip;                ///< false: one padded cell holds everything
    int64_t first_x, first_z; ///< global index of cell 0 (tiled)
    uint32_t nx, nz;
    float step;         ///< tile size in world units (tiled)
    float lo[2], hi[2]; ///< the single cell's bounds (not tiled), x and z
} py_grid;

/// World coordinate of grid line k along an axis (0 = x, 1 = z). Computed in
/// one place so tile bounds, clip lines and the mesh origin agree bit for bit.
static float py_grid_line(const py_grid* g, int axis, int64_t k) {
    if (!g->clip) {
        return k == 0 ? g->lo[axis] : g->hi[axis];
    }
    int64_t first = axis == 0 ? g->first_x : g->first_z;
    return (float)((double)(first + k) * (double)g->step);
}

/// Cell range [*k0, *k1] along an axis that [lo, hi] overlaps.
static void py_grid_span(const py_grid* g, int axis, float lo, float hi, uint32_t* k0,
                         uint32_t* k1) {
    uint32_t n = axis == 0 ? g->nx : g->nz;
    if (!g->clip) {
        *k0 = *k1 = 0;
        return;
    }
    int64_t first = axis == 0 ? g->first_x : g->first_z;
    int64_t a = (int64_t)floor((double)lo / g->step) - first;
    int64_t b = (int64_t)floor((double)hi / g->step) - first;
    a = a < 0 ? 0 : (a >= n ? n - 1 : a);
    b = b < 0 ? 0 : (b >= n ? n - 1 : b);
    // floor() in double may disagree with the float grid lines by one.
    while (a > 0 && lo < py_grid_line(g, axis, a)) {
        a--;
    }
    while (b + 1 < (int64_t)n && hi >= py_grid_line(g, axis, b + 1)) {
        b++;
    }
    *k0 = (uint32_t)a;
    *k1 = (uint32_t)(b < a ? a : b);
}

/// Where segment ab crosses an axis line. Interpolated from the
/// lexicographically smaller endpoint so both polygons sharing the edge get
/// bit-identical points, whichever way they walk it.
static py_pt py_crossing(py_pt a, py_pt b, int axis, float c) {
    if (b.x < a.x || (b.x == a.x && b.z < a.z)) {
        py_pt t = a;
        a = b;
        b = t;
    }
    py_pt r;
    if (axis == 0) {
        double t = ((double)c - a.x) / ((double)b.x - a.x);
        r.x = c;
        r.z = (float)((double)a.z + t * ((double)b.z - a.z));
    } else {
        double t = ((double)c - a.z) / ((double)b.z - a.z);
        r.x = (float)((double)a.x + t * ((double)b.x - a.x));
        r.z = c;
    }
    return r;
}

/// One Sutherland–Hodgman step: keeps the part of a convex polygon on one
/// side of an axis line (keep_above: coordinate >= c). Writes <= n + 1 points.
static uint32_t py_clip(const py_pt* in, uint32_t n, py_pt* out, int axis, float c,
                        bool keep_above) {
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; ++i) {
        py_pt a = in[i], b = in[(i + 1) % n];
        float va = axis == 0 ? a.x : a.z, vb = axis == 0 ? b.x : b.z;
        int sa = va > c ? 1 : (va < c ? -1 : 0), sb = vb > c ? 1 : (vb < c ? -1 : 0);
        if (!keep_above) {
            sa = -sa;
            sb = -sb;
        }
        if (sa >= 0) {
            out[m++] = a;
        }
        if (sa * sb < 0) {
            out[m++] = py_crossing(a, b, axis, c);
        }
    }
    return m;
}

/// Drops repeated consecutive points (rounding can land a crossing on a vertex).
static uint32_t py_dedupe(py_pt* p, uint32_t n) {
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; ++i) {
        if (m == 0 || p[i].x != p[m - 1].x || p[i].z != p[m - 1].z) {
            p[m++] = p[i];
        }
    }
    while (m > 1 && p[m - 1].x == p[0].x && p[m - 1].z == p[0].z) {
        m--;
    }
    return m;
}

/* ---------------------------------------------------------------------------
 * Building one tile: weld, split, wf_tile_build
 */

typedef struct py_build {
    const wf_allocator* alloc;
    const wf_logger* logger;
    float* verts; ///< x, y, z per welded vertex of the current tile
    size_t verts_cap;
    uint32_t vert_count;
    uint16_t* polys; ///< WF_MAX_VERTS_PER_POLY per piece
    size_t polys_cap;
    uint32_t poly_count;
    uint32_t* weld_stamp; ///< open addressing by exact coordinates
    uint16_t* weld_index;
    uint32_t weld_cap;  ///< power of two, > 2 * PY_MAX_TILE_VERTS is never needed
    uint32_t stamp;     ///< current tile's stamp
    bool links_missing; ///< a tile was added without all its links
    // Working polygon buffers, sized for the largest clipped polygon.
    py_pt* pts[2];
    uint16_t* ids;
    uint32_t* next;
    uint32_t work_cap;
} py_build;

static uint32_t py_hash(py_pt p) {
    // +0.0f folds -0 into 0 so equal coordinates hash equally.
    float x = p.x + 0.0f, z = p.z + 0.0f;
    uint32_t bx, bz;
    memcpy(&bx, &x, 4);
    memcpy(&bz, &z, 4);
    uint32_t h = bx * 0x9e3779b1u ^ (bz + 0x7f4a7c15u + (bx << 6) + (bx >> 2));
    return h * 0x85ebca6bu;
}

/// Index of the tile vertex at p (exact match), adding it if new.
static wf_status py_weld(py_build* b, py_pt p, uint16_t* out) {
    uint32_t mask = b->weld_cap - 1;
    for (uint32_t h = py_hash(p) & mask;; h = (h + 1) & mask) {
        if (b->weld_stamp[h] != b->stamp) {
            if (b->vert_count >= PY_MAX_TILE_VERTS || b->vert_count * 2u >= b->weld_cap) {
                return WF_ERR_CAPACITY;
            }
            if (!PY_RESERVE(b->alloc, b->verts, b->verts_cap, (size_t)b->vert_count * 3 + 3,
                            float)) {
                return WF_ERR_OUT_OF_MEMORY;
            }
            float* v = &b->verts[b->vert_count * 3u];
            v[0] = p.x;
            v[1] = 0.0f;
            v[2] = p.z;
            b->weld_stamp[h] = b->stamp;
            b->weld_index[h] = (uint16_t)b->vert_count;
            *out = (uint16_t)b->vert_count++;
            return WF_OK;
        }
        const float* v = &b->verts[b->weld_index[h] * 3u];
        if (v[0] == p.x && v[2] == p.z) {
            *out = b->weld_index[h];
            return WF_OK;
        }
    }
}

static wf_status py_add_piece(py_build* b, const uint16_t* ids, uint32_t n) {
    if (b->poly_count >= PY_MAX_TILE_POLYS) {
        return WF_ERR_CAPACITY;
    }
    size_t need = ((size_t)b->poly_count + 1) * WF_MAX_VERTS_PER_POLY;
    if (!PY_RESERVE(b->alloc, b->polys, b->polys_cap, need, uint16_t)) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    uint16_t* out = &b->polys[(size_t)b->poly_count * WF_MAX_VERTS_PER_POLY];
    for (uint32_t i = 0; i < WF_MAX_VERTS_PER_POLY; ++i) {
        out[i] = i < n ? ids[i] : (uint16_t)WF_NULL_INDEX;
    }
    b->poly_count++;
    return WF_OK;
}

/// Adds a convex polygon, cutting it into pieces of at most
/// WF_MAX_VERTS_PER_POLY vertices along diagonals. Diagonals are shared by
/// vertex index, so wf_tile_build connects the pieces. A cut is taken only
/// when both sides keep area: collinear runs (common in merged meshes)
/// would otherwise give zero-area pieces. The remaining polygon is a
/// circular linked list (b->next), so each cut is O(1).
static wf_status py_add_convex(py_build* b, const py_pt* pts, const uint16_t* ids, uint32_t n) {
    if (n <= WF_MAX_VERTS_PER_POLY) {
        return py_add_piece(b, ids, n);
    }
    uint32_t* next = b->next;
    for (uint32_t i = 0; i < n; ++i) {
        next[i] = (i + 1) % n;
    }
    double extent = py_extent(pts, n);
    double rest_area2 = py_area2(pts, n);
    uint32_t m = n, s = 0;
    uint32_t budget = n * PY_SPLIT_ATTEMPTS_PER_VERT + 64;
    while (m > WF_MAX_VERTS_PER_POLY) {
        bool cut = false;
        for (uint32_t k = WF_MAX_VERTS_PER_POLY; k >= 3 && !cut; --k) {
            if (m - (k - 2) < 3) {
                continue;
            }
            py_pt piece_pts[WF_MAX_VERTS_PER_POLY];
            uint16_t piece_ids[WF_MAX_VERTS_PER_POLY];
            uint32_t at = s, last = s;
            for (uint32_t i = 0; i < k; ++i) {
                piece_pts[i] = pts[at];
                piece_ids[i] = ids[at];
                last = at;
                at = next[at];
            }
            double piece_area2 = py_area2(piece_pts, k);
            if (py_is_degenerate(piece_area2, extent) ||
                py_is_degenerate(rest_area2 - piece_area2, extent)) {
                continue;
            }
            wf_status st = py_add_piece(b, piece_ids, k);
            if (st != WF_OK) {
                return st;
            }
            next[s] = last; // drop the piece's inner vertices
            rest_area2 -= piece_area2;
            m -= k - 2;
            cut = true;
        }
        if (!cut) {
            if (budget-- == 0) {
                return WF_ERR_BAD_DATA;
            }
            s = next[s];
        }
    }
    uint16_t rest[WF_MAX_VERTS_PER_POLY];
    for (uint32_t i = 0, at = s; i < m; ++i, at = next[at]) {
        rest[i] = ids[at];
    }
    return py_add_piece(b, rest, m);
}

static void py_build_free(py_build* b) {
    const wf_allocator* a = b->alloc;
    WF_FREE_ARRAY(a, b->verts, float, b->verts_cap);
    WF_FREE_ARRAY(a, b->polys, uint16_t, b->polys_cap);
    WF_FREE_ARRAY(a, b->weld_stamp, uint32_t, b->weld_cap);
    WF_FREE_ARRAY(a, b->weld_index, uint16_t, b->weld_cap);
    WF_FREE_ARRAY(a, b->pts[0], py_pt, b->work_cap);
    WF_FREE_ARRAY(a, b->pts[1], py_pt, b->work_cap);
    WF_FREE_ARRAY(a, b->ids, uint16_t, b->work_cap);
    WF_FREE_ARRAY(a, b->next, uint32_t, b->work_cap);
}

/// Builds the tile of cell (kx, kz) from the pieces collected in b and adds
/// it to the mesh, which then owns the blob.
static wf_status py_emit_tile(py_build* b, const py_grid* g, uint32_t kx, uint32_t kz,
                              wf_mesh* mesh) {
    wf_tile_build_desc d;
    memset(&d, 0, sizeof d);
    d.tile_x = (int32_t)kx;
    d.tile_z = (int32_t)kz;
    d.bmin = wf_v3(py_grid_line(g, 0, kx), -1.0f, py_grid_line(g, 1, kz));
    d.bmax = wf_v3(py_grid_line(g, 0, (int64_t)kx + 1), 1.0f, py_grid_line(g, 1, (int64_t)kz + 1));
    d.verts = b->verts;
    d.vert_count = b->vert_count;
    d.polys = b->polys;
    d.poly_count = b->poly_count;
    d.allocator = *b->alloc;
    void* data = NULL;
    size_t size = 0;
    wf_status st = wf_tile_build(&d, &data, &size);
    if (st != WF_OK) {
        wf_log(b->logger, WF_LOG_ERROR, "polyanya import: tile (%u, %u): building failed: %s", kx,
               kz, wf_status_string(st));
        return st;
    }
    wf_tile_ref tile;
    st = wf_mesh_add_tile(mesh, data, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &tile);
    if (st == WF_PARTIAL) {
        b->links_missing = true; // added; the mesh logged which links did not fit
        return WF_OK;
    }
    if (st != WF_OK) {
        wf_tile_free(data, size, b->alloc);
        wf_log(b->logger, WF_LOG_ERROR, "polyanya import: tile (%u, %u): adding failed: %s", kx, kz,
               wf_status_string(st));
    }
    return st;
}

/// Clips, welds and splits every polygon touching cell (kx, kz) into b.
static wf_status py_fill_cell(py_build* b, const py_source* s, const py_grid* g, uint32_t kx,
                              uint32_t kz, const uint32_t* polys, uint32_t count) {
    for (uint32_t e = 0; e < count; ++e) {
        uint32_t p = polys[e];
        uint32_t first = s->poly_first[p];
        uint32_t n = s->poly_first[p + 1] - first;
        py_pt* pts = b->pts[0];
        for (uint32_t i = 0; i < n; ++i) {
            pts[i] = s->verts[s->poly_verts[first + i]];
        }
        if (g->clip) {
            n = py_clip(b->pts[0], n, b->pts[1], 0, py_grid_line(g, 0, kx), true);
            n = py_clip(b->pts[1], n, b->pts[0], 0, py_grid_line(g, 0, (int64_t)kx + 1), false);
            n = py_clip(b->pts[0], n, b->pts[1], 1, py_grid_line(g, 1, kz), true);
            n = py_clip(b->pts[1], n, b->pts[0], 1, py_grid_line(g, 1, (int64_t)kz + 1), false);
            n = py_dedupe(pts, n);
            if (n < 3 || py_is_degenerate(py_area2(pts, n), py_extent(pts, n))) {
                continue; // outside the cell, touching its border, or a sliver
            }
        }
        wf_status st = WF_OK;
        for (uint32_t i = 0; i < n && st == WF_OK; ++i) {
            st = py_weld(b, pts[i], &b->ids[i]);
        }
        if (st == WF_OK) {
            st = py_add_convex(b, pts, b->ids, n);
        }
        if (st == WF_ERR_CAPACITY) {
            wf_log(b->logger, WF_LOG_ERROR,
                   "polyanya import: tile (%u, %u) needs more than %u vertices or %u polygons: "
                   "%s",
                   kx, kz, PY_MAX_TILE_VERTS, PY_MAX_TILE_POLYS,
                   g->clip ? "use a smaller tile_size" : "set tile_size to split it into tiles");
        } else if (st == WF_ERR_BAD_DATA) {
            wf_log(b->logger, WF_LOG_ERROR,
                   "polyanya import: polygon %u cannot be split into convex pieces", p);
        }
        if (st != WF_OK) {
            return st;
        }
    }
    return WF_OK;
}

/// Chooses the tile grid: one padded cell (tile_size 0), so no polygon edge
/// lies on a tile border, or cells of `tile` world units.
static wf_status py_make_grid(const py_source* s, float tile, const wf_logger* logger, py_grid* g) {
    float lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (uint32_t i = 0; i < s->poly_first[s->poly_count]; ++i) {
        py_pt p = s->verts[s->poly_verts[i]];
        lo[0] = fminf(lo[0], p.x);
        hi[0] = fmaxf(hi[0], p.x);
        lo[1] = fminf(lo[1], p.z);
        hi[1] = fmaxf(hi[1], p.z);
    }
    if (tile == 0.0f) {
        float pad = 1.0f + 0.01f * fmaxf(hi[0] - lo[0], hi[1] - lo[1]);
        g->clip = false;
        g->nx = g->nz = 1;
        for (int axis = 0; axis < 2; ++axis) {
            g->lo[axis] = lo[axis] - pad;
            g->hi[axis] = hi[axis] + pad;
            if (!isfinite(g->hi[axis] - g->lo[axis])) {
                wf_log(logger, WF_LOG_ERROR, "polyanya import: mesh bounds are out of float range");
                return WF_ERR_BAD_DATA;
            }
        }
        return WF_OK;
    }
    g->clip = true;
    g->step = tile;
    double first[2], count[2];
    for (int axis = 0; axis < 2; ++axis) {
        first[axis] = floor((double)lo[axis] / tile);
        count[axis] = floor((double)hi[axis] / tile) - first[axis] + 1.0;
    }
    if (!(count[0] * count[1] <= (double)PY_MAX_GRID_CELLS) || fabs(first[0]) > 1e15 ||
        fabs(first[1]) > 1e15) {
        wf_log(logger, WF_LOG_ERROR,
               "polyanya import: tile_size %g gives more than %u tiles over the mesh: use a larger "
               "one",
               (double)tile, PY_MAX_GRID_CELLS);
        return WF_ERR_CAPACITY;
    }
    g->first_x = (int64_t)first[0];
    g->first_z = (int64_t)first[1];
    g->nx = (uint32_t)count[0];
    g->nz = (uint32_t)count[1];
    return WF_OK;
}

/// Cells that polygon p's bounding box overlaps.
static void py_poly_cells(const py_source* s, const py_grid* g, uint32_t p, uint32_t* x0,
                          uint32_t* x1, uint32_t* z0, uint32_t* z1) {
    float lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (uint32_t i = s->poly_first[p]; i < s->poly_first[p + 1]; ++i) {
        py_pt v = s->verts[s->poly_verts[i]];
        lo[0] = fminf(lo[0], v.x);
        hi[0] = fmaxf(hi[0], v.x);
        lo[1] = fminf(lo[1], v.z);
        hi[1] = fmaxf(hi[1], v.z);
    }
    py_grid_span(g, 0, lo[0], hi[0], x0, x1);
    py_grid_span(g, 1, lo[1], hi[1], z0, z1);
}

/// Buckets polygons by the cells they overlap (counting sort by cell), so
/// each tile is built from its own short list, in polygon order.
static wf_status py_bucket(const py_source* s, const py_grid* g, const wf_allocator* a,
                           const wf_logger* logger, uint32_t** out_start, uint32_t** out_list,
                           uint32_t* out_entries) {
    uint32_t cells = g->nx * g->nz;
    uint64_t entries = 0;
    for (uint32_t p = 0; p < s->poly_count; ++p) {
        uint32_t x0, x1, z0, z1;
        py_poly_cells(s, g, p, &x0, &x1, &z0, &z1);
        entries += (uint64_t)(x1 - x0 + 1) * (z1 - z0 + 1);
    }
    if (entries > PY_MAX_CELL_ENTRIES) {
        wf_log(logger, WF_LOG_ERROR,
               "polyanya import: polygons overlap %llu tiles in all: use a larger tile_size",
               (unsigned long long)entries);
        return WF_ERR_CAPACITY;
    }
    uint32_t* start = WF_ALLOC_ARRAY(a, uint32_t, (size_t)cells + 1);
    uint32_t* cursor = WF_ALLOC_ARRAY(a, uint32_t, cells);
    uint32_t* list = WF_ALLOC_ARRAY(a, uint32_t, (size_t)entries);
    if (start == NULL || cursor == NULL || list == NULL) {
        WF_FREE_ARRAY(a, start, uint32_t, (size_t)cells + 1);
        WF_FREE_ARRAY(a, cursor, uint32_t, cells);
        WF_FREE_ARRAY(a, list, uint32_t, (size_t)entries);
        return WF_ERR_OUT_OF_MEMORY;
    }
    for (int pass = 0; pass < 2; ++pass) {
        for (uint32_t p = 0; p < s->poly_count; ++p) {
            uint32_t x0, x1, z0, z1;
            py_poly_cells(s, g, p, &x0, &x1, &z0, &z1);
            for (uint32_t z = z0; z <= z1; ++z) {
                for (uint32_t x = x0; x <= x1; ++x) {
                    uint32_t c = z * g->nx + x;
                    if (pass == 0) {
                        start[c + 1]++;
                    } else {
                        list[cursor[c]++] = p;
                    }
                }
            }
        }
        if (pass == 0) {
            for (uint32_t c = 0; c < cells; ++c) {
                start[c + 1] += start[c];
                cursor[c] = start[c];
            }
        }
    }
    WF_FREE_ARRAY(a, cursor, uint32_t, cells);
    *out_start = start;
    *out_list = list;
    *out_entries = (uint32_t)entries;
    return WF_OK;
}

static wf_status py_build_tiles(const py_source* s, const py_grid* g, const uint32_t* start,
                                const uint32_t* list, py_build* b, wf_mesh* mesh) {
    for (uint32_t kz = 0; kz < g->nz; ++kz) {
        for (uint32_t kx = 0; kx < g->nx; ++kx) {
            uint32_t c = kz * g->nx + kx;
            if (start[c] == start[c + 1]) {
                continue;
            }
            b->stamp++;
            b->vert_count = 0;
            b->poly_count = 0;
            wf_status st = py_fill_cell(b, s, g, kx, kz, &list[start[c]], start[c + 1] - start[c]);
            if (st == WF_OK && b->poly_count > 0) {
                st = py_emit_tile(b, g, kx, kz, mesh);
            }
            if (st != WF_OK) {
                return st;
            }
        }
    }
    return WF_OK;
}

static wf_status py_build_mesh(const py_source* s, float tile, const wf_allocator* a,
                               const wf_logger* logger, wf_mesh** out) {
    wf_mesh_desc md;
    memset(&md, 0, sizeof md);
    md.allocator = *a;
    md.logger = *logger;
    if (s->poly_count == 0) {
        md.tile_width = md.tile_depth = tile > 0.0f ? tile : 1.0f;
        md.max_tiles = 1;
        return wf_mesh_create(&md, out);
    }
    py_grid g;
    memset(&g, 0, sizeof g);
    wf_status st = py_make_grid(s, tile, logger, &g);
    if (st != WF_OK) {
        return st;
    }
    uint32_t *start = NULL, *list = NULL, entries = 0;
    if ((st = py_bucket(s, &g, a, logger, &start, &list, &entries)) != WF_OK) {
        return st;
    }
    uint32_t cells = g.nx * g.nz, tiles = 0, most_verts = 0;
    for (uint32_t c = 0; c < cells; ++c) {
        uint32_t verts = 0;
        for (uint32_t e = start[c]; e < start[c + 1] && verts < PY_MAX_TILE_VERTS; ++e) {
            verts += s->poly_first[list[e] + 1] - s->poly_first[list[e]] + 4;
        }
        tiles += start[c] != start[c + 1];
        most_verts = verts > most_verts ? verts : most_verts;
    }
    most_verts = most_verts < PY_MAX_TILE_VERTS ? most_verts : PY_MAX_TILE_VERTS;

    py_build b;
    memset(&b, 0, sizeof b);
    b.alloc = a;
    b.logger = logger;
    b.weld_cap = 16;
    while (b.weld_cap <= most_verts * 2u) {
        b.weld_cap *= 2;
    }
    b.work_cap = s->max_poly_verts + 8; // four clips add at most one vertex each
    b.weld_stamp = WF_ALLOC_ARRAY(a, uint32_t, b.weld_cap);
    b.weld_index = WF_ALLOC_ARRAY(a, uint16_t, b.weld_cap);
    b.pts[0] = WF_ALLOC_ARRAY(a, py_pt, b.work_cap);
    b.pts[1] = WF_ALLOC_ARRAY(a, py_pt, b.work_cap);
    b.ids = WF_ALLOC_ARRAY(a, uint16_t, b.work_cap);
    b.next = WF_ALLOC_ARRAY(a, uint32_t, b.work_cap);
    wf_mesh* mesh = NULL;
    if (b.weld_stamp == NULL || b.weld_index == NULL || b.pts[0] == NULL || b.pts[1] == NULL ||
        b.ids == NULL || b.next == NULL) {
        st = WF_ERR_OUT_OF_MEMORY;
    } else {
        md.origin = wf_v3(py_grid_line(&g, 0, 0), 0.0f, py_grid_line(&g, 1, 0));
        md.tile_width = g.clip ? g.step : g.hi[0] - g.lo[0];
        md.tile_depth = g.clip ? g.step : g.hi[1] - g.lo[1];
        md.max_tiles = tiles;
        st = wf_mesh_create(&md, &mesh);
    }
    if (st == WF_OK) {
        st = py_build_tiles(s, &g, start, list, &b, mesh);
    }
    if (st == WF_OK && b.links_missing) {
        st = WF_PARTIAL;
    }
    py_build_free(&b);
    WF_FREE_ARRAY(a, start, uint32_t, (size_t)cells + 1);
    WF_FREE_ARRAY(a, list, uint32_t, entries);
    if (st < 0) {
        wf_mesh_destroy(mesh);
        return st;
    }
    *out = mesh;
    return st;
}

wf_polyanya_import_desc wf_polyanya_import_desc_defaults(const wf_polyanya_import_desc* desc) {
    wf_polyanya_import_desc d;
    memset(&d, 0, sizeof d);
    if (desc != NULL) {
        d = *desc;
    }
    if (d.scale == 0.0f) {
        d.scale = 1.0f;
    }
    return d;
}

wf_status wf_mesh_import_polyanya(const wf_polyanya_import_desc* desc_in, const char* text,
                                  size_t size, wf_mesh** out) {
    WF_CHECK_ARG(out != NULL);
    *out = NULL;
    WF_CHECK_ARG(desc_in != NULL && text != NULL);
    const wf_polyanya_import_desc resolved = wf_polyanya_import_desc_defaults(desc_in);
    const wf_polyanya_import_desc* desc = &resolved;
    WF_CHECK_ARG(isfinite(desc->tile_size) && desc->tile_size >= 0.0f);
    WF_CHECK_ARG(isfinite(desc->scale) && desc->scale >= 0.0f);
    wf_allocator a;
    wf_status st = wf_allocator_resolve(&desc->allocator, &a);
    WF_CHECK_ARG(st == WF_OK);
    float scale = desc->scale;
    float tile = desc->tile_size * scale;
    if (desc->tile_size > 0.0f && !(tile > 0.0f && isfinite(tile))) {
        wf_log(&desc->logger, WF_LOG_ERROR,
               "polyanya import: tile_size times scale is not a usable size");
        return WF_ERR_INVALID_ARG;
    }
    py_source s;
    st = wf_polyanya_parse(text, size, &desc->logger, &a, scale, &s);
    if (st == WF_OK) {
        st = py_build_mesh(&s, tile, &a, &desc->logger, out);
    }
    py_source_free(&s, &a);
    return st;
}
