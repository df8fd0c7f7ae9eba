// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Region outlines: a wall-following walk along cell edges, then
// Douglas-Peucker simplification and splitting of long edges.
#include "tilecache/contours.h"

#include <string.h>

#include "navcore/alloc.h"
#include "navcore/check.h"

/// Most a tile-side edge may pass above or below the outline's heights, in
/// cell heights (see farthest_height_raw).
#define TILE_SIDE_MAX_DY 1

static const int32_t dir_dx[4] = {-1, 0, 1, 0};
static const int32_t dir_dz[4] = {0, 1, 0, -1};
// Corner where the edge on side d starts, walking with the region on the
// left in the wf_v2_triangle_area2 sense: (x,z) -> (x,z+1) -> (x+1,z+1) ...
static const uint8_t corner_dx[4] = {0, 0, 1, 1};
static const uint8_t corner_dz[4] = {0, 1, 1, 0};

typedef struct tracer {
    uint32_t width, depth;
    int32_t offset[4];
    const uint8_t* heights;
    const uint8_t* conn;
    const uint16_t* cells;
    const uint16_t* region_of;
} tracer;

static uint32_t region_at(const tracer* t, uint32_t cell) {
    return t->region_of[t->cells[cell]]; // only asked for walkable cells
}

static bool linked(const uint8_t* conn, uint32_t cell, uint32_t dir) {
    return (conn[cell] >> dir) & 1u;
}

// Height of the corner where side d of cell c starts: the highest of the
// cells around it that connect to c within the 2 x 2 block (the same set,
// so the same height, from every connected cell around it).
static uint8_t corner_height(const tracer* t, uint32_t c, uint32_t d) {
    uint32_t e = (d + 3u) & 3u; // the other side meeting at that corner
    uint32_t h = t->heights[c];
    bool ca = linked(t->conn, c, d), cb = linked(t->conn, c, e);
    uint32_t a = ca ? (uint32_t)((int32_t)c + t->offset[d]) : 0u;
    uint32_t b = cb ? (uint32_t)((int32_t)c + t->offset[e]) : 0u;
    bool ad = ca && linked(t->conn, a, e); // diagonal through a
    bool bd = cb && linked(t->conn, b, d); // diagonal through b
    if (ad || bd) {
        uint32_t diag =
            ad ? (uint32_t)((int32_t)a + t->offset[e]) : (uint32_t)((int32_t)b + t->offset[d]);
        uint32_t hd = t->heights[diag];
        h = hd > h ? hd : h;
        // The far side cell may join through the diagonal only.
        if (!ca && linked(t->conn, diag, (e + 2u) & 3u)) {
            ca = true;
            a = (uint32_t)((int32_t)diag - t->offset[e]);
        }
        if (!cb && linked(t->conn, diag, (d + 2u) & 3u)) {
            cb = true;
            b = (uint32_t)((int32_t)diag - t->offset[d]);
        }
    }
    if (ca && t->heights[a] > h) {
        h = t->heights[a];
    }
    if (cb && t->heights[b] > h) {
        h = t->heights[b];
    }
    return (uint8_t)h;
}

static uint16_t edge_neighbour(const tracer* t, uint32_t c, uint32_t x, uint32_t z, uint32_t d) {
    if ((d == 0 && x == 0) || (d == 1 && z + 1u == t->depth) || (d == 2 && x + 1u == t->width) ||
        (d == 3 && z == 0)) {
        return WF_CONTOUR_TILE_EDGE;
    }
    if (linked(t->conn, c, d)) {
        // Another region, or WF_REGION_NONE (dropped) = WF_CONTOUR_WALL.
        return (uint16_t)region_at(t, (uint32_t)((int32_t)c + t->offset[d]));
    }
    return (t->conn[c] >> (4u + d)) & 1u ? WF_CONTOUR_PORTAL : WF_CONTOUR_WALL;
}

/// Walks the outline of `region` from its first cell with the region on
/// the left, one vertex per cell edge. Regions are disks (regions.h), so
/// this one loop is the whole outline. false when out of room.
static bool trace(const tracer* t, uint32_t region, uint32_t first_cell, wf_contour_vertex* out,
                  size_t capacity, uint32_t* out_count) {
    uint32_t c = first_cell, d = 0;
    uint32_t x = c % t->width, z = c / t->width;
    uint32_t n = 0;
    // Each (cell, side) state comes up once per loop.
    size_t steps = (size_t)4u * t->width * t->depth + 1u;
    for (size_t s = 0; s < steps; ++s) {
        uint32_t next = (uint32_t)((int32_t)c + t->offset[d]);
        if (linked(t->conn, c, d) && region_at(t, next) == region) {
            c = next;
            x = (uint32_t)((int32_t)x + dir_dx[d]);
            z = (uint32_t)((int32_t)z + dir_dz[d]);
            d = (d + 3u) & 3u;
        } else {
            if (n == capacity) {
                return false;
            }
            wf_contour_vertex* v = &out[n++];
            v->x = (uint8_t)(x + corner_dx[d]);
            v->z = (uint8_t)(z + corner_dz[d]);
            v->y = corner_height(t, c, d);
            v->reserved = 0;
            v->neighbour = edge_neighbour(t, c, x, z, d);
            d = (d + 1u) & 3u;
        }
        if (c == first_cell && d == 0) {
            break;
        }
    }
    *out_count = n;
    return true;
}

/// Steps from i to j going forward around a loop of n (i, j < n), and the
/// index after i: without a division, as these run per kept vertex.
static uint32_t loop_span(uint32_t i, uint32_t j, uint32_t n) { return j >= i ? j - i : j + n - i; }
static uint32_t loop_next(uint32_t i, uint32_t n) { return i + 1u == n ? 0u : i + 1u; }

static bool vertex_after(const wf_contour_vertex* a, const wf_contour_vertex* b) {
    return a->x != b->x ? a->x > b->x : a->z > b->z;
}

/// Squared distance from p to segment a-b times the segment's squared
/// length: exact on the grid, and comparable between points of one segment.
static int64_t scaled_distance(const wf_contour_vertex* p, const wf_contour_vertex* a,
                               const wf_contour_vertex* b) {
    int64_t dx = (int64_t)b->x - a->x, dz = (int64_t)b->z - a->z;
    int64_t px = (int64_t)p->x - a->x, pz = (int64_t)p->z - a->z;
    int64_t len_sq = dx * dx + dz * dz;
    int64_t along = px * dx + pz * dz;
    if (along <= 0 || len_sq == 0) {
        return (px * px + pz * pz) * (len_sq > 0 ? len_sq : 1);
    }
    if (along >= len_sq) {
        int64_t qx = (int64_t)p->x - b->x, qz = (int64_t)p->z - b->z;
        return (qx * qx + qz * qz) * len_sq;
    }
    int64_t cross = px * dz - pz * dx;
    return cross * cross;
}

/// Corner (position in `corners`) strictly between kept corners ka and kb
/// that lies farthest from their segment, if farther than max_error. The
/// chain is searched from its lexicographically smaller end, so a region
/// on either side of a shared outline picks the same vertex.
static uint32_t farthest(const wf_contour_vertex* raw, const uint32_t* corners, uint32_t m,
                         uint32_t ka, uint32_t kb, double max_error_sq) {
    uint32_t span = loop_span(ka, kb, m);
    if (span < 2u) {
        return UINT32_MAX;
    }
    const wf_contour_vertex* a = &raw[corners[ka]];
    const wf_contour_vertex* b = &raw[corners[kb]];
    bool forward = vertex_after(b, a);
    const wf_contour_vertex* from = forward ? a : b;
    const wf_contour_vertex* to = forward ? b : a;
    int64_t dx = (int64_t)to->x - from->x, dz = (int64_t)to->z - from->z;
    int64_t len_sq = dx * dx + dz * dz;
    uint32_t best = UINT32_MAX;
    int64_t best_d = -1;
    // Walk from `from` towards `to` with wrapping steps (no division).
    uint32_t c = forward ? ka : kb;
    for (uint32_t k = 1; k < span; ++k) {
        if (forward) {
            c = c + 1u == m ? 0u : c + 1u;
        } else {
            c = c == 0 ? m - 1u : c - 1u;
        }
        int64_t d = scaled_distance(&raw[corners[c]], from, to);
        if (d > best_d) {
            best_d = d;
            best = c;
        }
    }
    double limit = max_error_sq * (double)(len_sq > 0 ? len_sq : 1);
    return (double)best_d > limit ? best : UINT32_MAX;
}

static void insert_after(uint32_t* kept, uint32_t* count, uint32_t at, uint32_t value) {
    memmove(&kept[at + 2u], &kept[at + 1u], sizeof(uint32_t) * (*count - at - 1u));
    kept[at + 1u] = value;
    (*count)++;
}

static bool is_tile_corner(const wf_contour_vertex* v, uint32_t width, uint32_t depth) {
    return (v->x == 0 || v->x == width) && (v->z == 0 || v->z == depth);
}

// Both ends on one side of the tile: wf_tile_build makes any unshared edge
// there a portal, so only tile-edge stretches may be simplified to it.
static bool along_tile_side(const wf_contour_vertex* a, const wf_contour_vertex* b, uint32_t width,
                            uint32_t depth) {
    return (a->x == b->x && (a->x == 0 || a->x == width)) ||
           (a->z == b->z && (a->z == 0 || a->z == depth));
}

/// Raw vertex strictly between raw vertices a and b (going forward) that
/// lies farthest from their segment, searched from the lexicographically
/// smaller end like farthest(); UINT32_MAX when all lie on it.
static uint32_t farthest_raw(const wf_contour_vertex* raw, uint32_t n, uint32_t a, uint32_t b) {
    uint32_t span = loop_span(a, b, n);
    bool forward = vertex_after(&raw[b], &raw[a]);
    const wf_contour_vertex* from = forward ? &raw[a] : &raw[b];
    const wf_contour_vertex* to = forward ? &raw[b] : &raw[a];
    uint32_t best = UINT32_MAX;
    int64_t best_d = 0;
    uint32_t i = forward ? a : b;
    for (uint32_t k = 1; k < span; ++k) {
        if (forward) {
            i = i + 1u == n ? 0u : i + 1u;
        } else {
            i = i == 0 ? n - 1u : i - 1u;
        }
        int64_t d = scaled_distance(&raw[i], from, to);
        if (d > best_d) {
            best_d = d;
            best = i;
        }
    }
    return best;
}

/// Along a tile side the outline is straight in XZ but follows the ground
/// up and down; the tile across simplifies its own side of the border, so
/// both must stay close to the heights there or their edges will not meet
/// in height when stitched. Raw vertex strictly between a and b (going
/// forward) whose height lies farthest from the line between theirs,
/// searched from the lexicographically smaller end; UINT32_MAX when none is
/// more than max_dy cell heights off.
static uint32_t farthest_height_raw(const wf_contour_vertex* raw, uint32_t n, uint32_t a,
                                    uint32_t b, int32_t max_dy) {
    uint32_t span = loop_span(a, b, n);
    bool forward = vertex_after(&raw[b], &raw[a]);
    const wf_contour_vertex* from = forward ? &raw[a] : &raw[b];
    const wf_contour_vertex* to = forward ? &raw[b] : &raw[a];
    int32_t len = (int32_t)to->x - from->x + (int32_t)to->z - from->z; // one of them is 0
    if (len <= 0) {
        return UINT32_MAX;
    }
    uint32_t best = UINT32_MAX;
    int64_t best_d = (int64_t)max_dy * len;
    uint32_t i = forward ? a : b;
    for (uint32_t k = 1; k < span; ++k) {
        if (forward) {
            i = i + 1u == n ? 0u : i + 1u;
        } else {
            i = i == 0 ? n - 1u : i - 1u;
        }
        int32_t at = (int32_t)raw[i].x - from->x + (int32_t)raw[i].z - from->z;
        // (height - interpolated height) * len, exact in integers.
        int64_t d =
            (int64_t)((int32_t)raw[i].y - from->y) * len - (int64_t)((int32_t)to->y - from->y) * at;
        d = d < 0 ? -d : d;
        if (d > best_d) {
            best_d = d;
            best = i;
        }
    }
    return best;
}

/// Picks the raw vertices to keep, in loop order, into `kept`; `corners`
/// is scratch. Both have room for n. Only corners of the outline (where it
/// turns or its neighbour changes) can be farthest from a segment, so
/// Douglas-Peucker runs on those; splitting long edges may then take any
/// raw vertex. The tile's corners always stay, so tile-edge stretches stay
/// on the tile's sides (they become the portals).
static uint32_t simplify(const wf_contour_vertex* raw, uint32_t n, uint32_t width, uint32_t depth,
                         float max_error, float max_edge_length, uint32_t* kept,
                         uint32_t* corners) {
    uint32_t m = 0, count = 0;
    const wf_contour_vertex* p = &raw[n - 1u];
    int32_t pdx = (int32_t)raw[0].x - p->x, pdz = (int32_t)raw[0].z - p->z;
    for (uint32_t i = 0; i < n; ++i) {
        const wf_contour_vertex* q = &raw[i];
        const wf_contour_vertex* r = &raw[i + 1u < n ? i + 1u : 0u];
        int32_t dx = (int32_t)r->x - q->x, dz = (int32_t)r->z - q->z;
        bool changes = q->neighbour != p->neighbour;
        if (changes || dx != pdx || dz != pdz) {
            if (changes || is_tile_corner(q, width, depth)) {
                kept[count++] = m;
            }
            corners[m++] = i;
        }
        p = q;
        pdx = dx;
        pdz = dz;
    }
    if (count < 2u) {
        // One neighbour all around (an island): start from the two extreme
        // corners, which no simplification may drop.
        uint32_t lo = 0, hi = 0;
        for (uint32_t k = 1; k < m; ++k) {
            lo = vertex_after(&raw[corners[lo]], &raw[corners[k]]) ? k : lo;
            hi = vertex_after(&raw[corners[k]], &raw[corners[hi]]) ? k : hi;
        }
        if (lo == hi) {
            return 0;
        }
        if (count == 1u && kept[0] != lo && kept[0] != hi) {
            hi = kept[0]; // a lone tile corner stays, with one extreme
        }
        count = 0;
        kept[count++] = lo < hi ? lo : hi;
        kept[count++] = lo < hi ? hi : lo;
    }
    double limit_sq = (double)max_error * (double)max_error;
    for (uint32_t j = 0; j < count;) {
        uint32_t c = farthest(raw, corners, m, kept[j], kept[loop_next(j, count)], limit_sq);
        if (c != UINT32_MAX) {
            insert_after(kept, &count, j, c);
        } else {
            j++;
        }
    }
    for (uint32_t j = 0; j < count; ++j) {
        kept[j] = corners[kept[j]];
    }
    if (max_edge_length > 0.0f) {
        float max_sq = max_edge_length * max_edge_length;
        for (uint32_t j = 0; j < count;) {
            uint32_t a = kept[j], b = kept[loop_next(j, count)];
            uint16_t nei = raw[a].neighbour;
            float dx = (float)raw[b].x - (float)raw[a].x, dz = (float)raw[b].z - (float)raw[a].z;
            uint32_t span = loop_span(a, b, n);
            if ((nei == WF_CONTOUR_WALL || nei == WF_CONTOUR_TILE_EDGE) && span > 1u &&
                dx * dx + dz * dz > max_sq) {
                insert_after(kept, &count, j, (a + span / 2u) % n);
            } else {
                j++;
            }
        }
    }
    // Stretches along a tile side: anything but a tile edge simplified onto
    // it would become a portal, so keep its farthest vertex (it lies
    // inside); a tile edge keeps to the ground's heights (see
    // farthest_height_raw). A kept vertex splits a stretch into two of the
    // same kind, which the loop then looks at in turn.
    for (uint32_t j = 0; j < count;) {
        uint32_t a = kept[j], b = kept[loop_next(j, count)];
        uint32_t i = UINT32_MAX;
        if (along_tile_side(&raw[a], &raw[b], width, depth)) {
            i = raw[a].neighbour == WF_CONTOUR_TILE_EDGE
                    ? farthest_height_raw(raw, n, a, b, TILE_SIDE_MAX_DY)
                    : farthest_raw(raw, n, a, b);
        }
        if (i != UINT32_MAX) {
            insert_after(kept, &count, j, i);
        } else {
            j++;
        }
    }
    return count;
}

/// Moves the kept vertices to the front of raw (in ascending raw order, so
/// nothing unread is overwritten) and drops repeated positions.
static uint32_t compact(wf_contour_vertex* raw, const uint32_t* kept, uint32_t count) {
    uint32_t start = 0;
    for (uint32_t j = 1; j < count; ++j) {
        start = kept[j] < kept[start] ? j : start;
    }
    uint32_t n = 0;
    for (uint32_t k = 0, j = start; k < count; ++k, j = loop_next(j, count)) {
        wf_contour_vertex v = raw[kept[j]];
        if (n > 0 && raw[n - 1u].x == v.x && raw[n - 1u].z == v.z) {
            continue;
        }
        raw[n++] = v;
    }
    while (n > 1 && raw[n - 1u].x == raw[0].x && raw[n - 1u].z == raw[0].z) {
        n--;
    }
    return n >= 3u ? n : 0u;
}

wf_status wf_layer_contours_build(const wf_layer* layer, const wf_layer_regions* regions,
                                  float max_error, float max_edge_length, wf_arena* arena,
                                  wf_layer_contours* out) {
    memset(out, 0, sizeof *out);
    out->count = regions->count;
    out->starts = WF_ARENA_ARRAY(arena, uint32_t, (size_t)regions->count + 1u);
    if (out->starts == NULL) {
        return WF_ERR_CAPACITY;
    }
    tracer t;
    t.width = layer->width;
    t.depth = layer->depth;
    for (int d = 0; d < 4; ++d) {
        t.offset[d] = dir_dx[d] + dir_dz[d] * (int32_t)layer->width;
    }
    t.heights = layer->heights;
    t.conn = regions->conn;
    t.cells = regions->cells;
    t.region_of = regions->region_of;

    // Finished contours pile up at the start of the free space; the next
    // outline is traced right behind them, simplified, and compacted in
    // place. The kept-vertex list sits behind the raw outline.
    size_t bytes = 0;
    wf_contour_vertex* verts =
        (wf_contour_vertex*)(void*)wf_arena_tail(arena, _Alignof(wf_contour_vertex), &bytes);
    size_t capacity = bytes / sizeof(wf_contour_vertex);
    uint32_t total = 0;
    size_t peak = 0; // most tail bytes written at once
    for (uint32_t r = 0; r < regions->count; ++r) {
        out->starts[r] = total;
        wf_contour_vertex* raw = verts + total;
        uint32_t n = 0;
        if (!trace(&t, r, regions->first_cells[r], raw, capacity - total, &n)) {
            return WF_ERR_CAPACITY;
        }
        // Room for n kept and n corner indices behind the raw vertices.
        uintptr_t raw_end = (uintptr_t)(raw + n);
        size_t pad = (size_t)((4u - (raw_end & 3u)) & 3u);
        size_t used = (size_t)(total + n) * sizeof(wf_contour_vertex) + pad;
        if (used > bytes || (bytes - used) / (2u * sizeof(uint32_t)) < n) {
            return WF_ERR_CAPACITY;
        }
        uint32_t* kept = (uint32_t*)(void*)(raw_end + pad);
        used += 2u * n * sizeof(uint32_t);
        peak = used > peak ? used : peak;
        uint32_t count =
            n > 0 ? simplify(raw, n, t.width, t.depth, max_error, max_edge_length, kept, kept + n)
                  : 0;
        total += compact(raw, kept, count);
    }
    out->starts[regions->count] = total;
    (void)wf_arena_note_tail(arena, _Alignof(wf_contour_vertex), peak);
    out->verts = WF_ARENA_ARRAY(arena, wf_contour_vertex, total > 0 ? total : 1u);
    if (out->verts == NULL) {
        return WF_ERR_CAPACITY;
    }
    WF_ASSERT(out->verts == verts || total == 0);
    return WF_OK;
}

size_t wf_layer_contours_kept_size(uint32_t width, uint32_t depth) {
    size_t cells = (size_t)width * depth;
    return (cells + 1u) * sizeof(uint32_t) +
           wf_layer_contours_max_verts(width, depth) * sizeof(wf_contour_vertex) +
           2u * WF_SCRATCH_ALIGN_SLACK;
}

size_t wf_layer_contours_temp_size(uint32_t width, uint32_t depth) {
    // Finished and raw vertices together stay within the kept bound (one
    // per outline edge); on top, the kept-index list of one region, whose
    // outline has at most 2 * cells + 2 edges (a region is a disk), and
    // its corner list.
    size_t cells = (size_t)width * depth;
    return 2u * (2u * cells + 2u) * sizeof(uint32_t) + 4u;
}
