// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Building the cache: every tile's layers from triangles, grids or voxels,
// in parallel over tiles (per-worker arenas), gathered in tile order so the
// result is the same for any worker count. Triangles are binned into
// pieces (triangle_bins.h) and rasterized once per cell, piece by piece;
// the tiles copy their fields from the pieces (span_pieces.h), band by band
// of tile rows.
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "navcore/alloc.h"
#include "navcore/check.h"
#include "navcore/clock.h"
#include "navcore/log.h"
#include "tilecache/layer_to_tile.h"
#include "tilecache/span_pieces.h"
#include "tilecache/tilecache_internal.h"
#include "tilecache/triangle_bins.h"

/// Attempts per tile: a tile whose span pool or scratch arena turned out
/// too small is built again with both doubled (the sizes are guesses).
#define BUILD_ATTEMPTS 6
/// Span pool guess per column where triangles pile up (stacked floors).
#define SPANS_PER_COLUMN_GUESS 8u
/// Spare bytes in each per-tile arena for the small allocations of the
/// filters that the estimate does not list.
#define BUILD_ARENA_SLACK ((size_t)64 << 10)
/// A tile needing more scratch than this (1 GiB) is not sane input.
#define MAX_BUILD_ARENA ((size_t)1 << 30)
/// Tiles built per band of tile rows (at least one row): only the band's
/// pieces and the ring rows past it are kept at once, so a level's piece
/// memory is that of about this many tiles however large the level.
#define BAND_TILES 64

/* ---------------------------------------------------------------------------
 * Build: one task per piece, then per tile, each with a worker's arena
 */

typedef enum input_kind { INPUT_GEOM, INPUT_GRID, INPUT_VOXELS } input_kind;

typedef struct build_input {
    input_kind kind;
    wf_geom geom;
    const wf_convex_volume* volumes;
    uint32_t volume_count;
    wf_grid grid;
    wf_voxels voxels;
    const wf_offmesh_link_desc* links; ///< landed on the new layers before they replace the old
    uint32_t link_count;
} build_input;

/// The params in cells (Recast's rounding: height up, climb down, radius up).
typedef struct cell_params {
    int32_t walkable_height, walkable_climb, radius, border, side;
    float cs, ch, tile_width;
} cell_params;

static cell_params cell_params_of(const wf_tilecache_params* p) {
    cell_params c;
    c.cs = p->cell_size;
    c.ch = p->cell_height;
    c.walkable_height = (int32_t)ceilf(p->agent_height / p->cell_height);
    c.walkable_climb = (int32_t)floorf(p->agent_climb / p->cell_height);
    c.radius = (int32_t)ceilf(p->agent_radius / p->cell_size);
    // Three cells past the radius: erosion and the layer split look that
    // far, so cells at the tile's edge see the same neighbours as inside.
    c.border = c.radius + 3;
    c.side = (int32_t)p->tile_size + 2 * c.border;
    c.tile_width = (float)p->tile_size * p->cell_size;
    return c;
}

/// What one tile produced: entries with their own compressed bytes.
typedef struct tile_result {
    wf_status status;
    uint32_t layer_count;
    wf_tilecache_entry* entries;
} tile_result;

/// A piece or tile to build and a guess of its cost.
typedef struct work_item {
    uint64_t cost;
    uint32_t index;
} work_item;

typedef struct build_job {
    const wf_tilecache* tc;
    const build_input* in;
    cell_params cp;
    wf_vec3 bmin, bmax;
    int32_t tiles_x, tiles_z;
    /// Triangles are rasterized once per piece (geom only, span_pieces.h)
    /// and each tile copies its columns from the pieces.
    wf_piece_grid grid;
    uint32_t piece_count;
    wf_span_piece* pieces;
    wf_status* piece_status;
    /// The pieces or tiles of the parallel loop running, costliest first
    /// (schedule_costliest_first); as long as the pieces (never fewer than
    /// the tiles).
    work_item* order;
    wf_triangle_bins bins; ///< triangles per piece, and their areas (geom only)
    wf_arena* arenas;      ///< per worker, grown to the largest item it built
    size_t* high_water;    ///< per worker
    tile_result* results;
} build_job;

/// The tile's rectangle with its border: x/z of tile (tx, tz) +- border.
static void tile_bounds(const build_job* job, int32_t tx, int32_t tz, float* bmin, float* bmax) {
    const cell_params* c = &job->cp;
    float pad = (float)c->border * c->cs;
    bmin[0] = job->bmin.x + (float)tx * c->tile_width - pad;
    bmin[1] = job->bmin.y;
    bmin[2] = job->bmin.z + (float)tz * c->tile_width - pad;
    bmax[0] = bmin[0] + (float)c->side * c->cs;
    bmax[1] = job->bmax.y;
    bmax[2] = bmin[2] + (float)c->side * c->cs;
}

/// A piece's span pool guess (its cells once, plus the triangles' cells)
/// and the arena bytes to rasterize and flatten it.
static size_t estimate_piece(const build_job* job, uint32_t piece, uint64_t cells,
                             uint32_t* out_spans) {
    uint64_t under = job->bins.cells[piece], cap = cells * SPANS_PER_COLUMN_GUESS;
    uint64_t spans = cells + (under < cap ? under : cap);
    *out_spans = spans > UINT32_MAX / 2u ? UINT32_MAX / 2u : (uint32_t)spans;
    uint64_t bytes = cells * (4u + 4u + 2u) + spans * (sizeof(wf_span) + 5u) + BUILD_ARENA_SLACK;
    return bytes > MAX_BUILD_ARENA ? MAX_BUILD_ARENA : (size_t)bytes;
}

/// First guess of a tile's span pool and arena bytes.
static size_t estimate_tile(const build_job* job, uint32_t tile, uint32_t* out_spans) {
    const cell_params* c = &job->cp;
    uint64_t cells = (uint64_t)c->side * (uint64_t)c->side, spans = cells;
    if (job->in->kind == INPUT_GEOM) {
        // The pieces hold the tile's spans already: count them (the copy
        // is sized by the count; a border past 7 pieces is not counted).
        size_t counted = wf_span_pieces_field_spans(
            &job->grid, job->pieces, tile % (uint32_t)job->tiles_x, tile / (uint32_t)job->tiles_x);
        spans = counted < UINT32_MAX / 2u ? counted : cells * SPANS_PER_COLUMN_GUESS;
    } else if (job->in->kind == INPUT_VOXELS) {
        uint64_t runs = ((uint64_t)job->in->voxels.size_y + 1u) / 2u;
        spans += cells * (runs < SPANS_PER_COLUMN_GUESS ? runs : SPANS_PER_COLUMN_GUESS);
    }
    *out_spans = (uint32_t)spans;
    size_t ts = job->tc->params.tile_size;
    size_t serialized = wf_layer_serialized_size((uint32_t)ts, (uint32_t)ts);
    size_t compressed = job->tc->codec.max_compressed_size(serialized, job->tc->codec.user);
    uint64_t bytes = cells * (4u + 4u + 1u + 8u)      // columns, cells, scratch
                     + cells * (4u + 2u) + spans * 5u // flattened columns
                     + spans * (sizeof(wf_span) + sizeof(wf_compact_span) + 1u + 4u) +
                     ts * ts * 8u + 2u * (serialized + compressed)   // one layer's buffers
                     + wf_layers_build_scratch_size((uint32_t)spans) // the layer split, worst case
                     + BUILD_ARENA_SLACK;
    return bytes > MAX_BUILD_ARENA ? MAX_BUILD_ARENA : (size_t)bytes;
}

/// Layers of one tile, still in the arena.
typedef struct arena_layers {
    uint32_t count;
    wf_tilecache_entry* infos; ///< data NULL: the bytes are in `data`
    unsigned char** data;
} arena_layers;

/// Piece p's field, rasterized, flattened into the arena. A piece is a
/// window of the field of the tile it belongs to (the nearest tile, for
/// the ring): its cells get the spans that tile's own rasterization gives
/// them, bit for bit.
static wf_status rasterize_piece(const build_job* job, uint32_t p, uint32_t spans, wf_arena* arena,
                                 wf_span_columns* out) {
    const cell_params* c = &job->cp;
    const wf_piece_grid* g = &job->grid;
    const int32_t px = (int32_t)(p % (uint32_t)g->pieces_x);
    const int32_t pz = (int32_t)(p / (uint32_t)g->pieces_x);
    int32_t col0, width, row0, depth;
    wf_piece_columns(g, px, &col0, &width);
    wf_piece_rows(g, pz, &row0, &depth);
    int32_t tx = px - g->ring, tz = pz - g->ring;
    tx = tx < 0 ? 0 : tx >= job->tiles_x ? job->tiles_x - 1 : tx;
    tz = tz < 0 ? 0 : tz >= job->tiles_z ? job->tiles_z - 1 : tz;
    float frame_min[3], frame_max[3];
    tile_bounds(job, tx, tz, frame_min, frame_max);
    const int32_t first_x = col0 - (tx * g->tile_size - g->border);
    const int32_t first_z = row0 - (tz * g->tile_size - g->border);
    const float bmin[3] = {frame_min[0] + (float)first_x * c->cs, frame_min[1],
                           frame_min[2] + (float)first_z * c->cs};
    const float bmax[3] = {bmin[0] + (float)width * c->cs, frame_max[1],
                           bmin[2] + (float)depth * c->cs};
    wf_heightfield hf;
    wf_status s = wf_heightfield_init(&hf, arena, width, depth, bmin, bmax, c->cs, c->ch, spans);
    if (s != WF_OK) {
        return s;
    }
    wf_heightfield_set_frame(&hf, frame_min, frame_max, c->side, c->side, first_x, first_z);
    // The binning checked indices and areas, and the build's bounds that
    // every vertex is finite: rasterize the piece's list directly.
    uint32_t first = job->bins.start[p], n = job->bins.start[p + 1] - first;
    s = wf_rasterize_triangle_list(&hf, &job->in->geom, job->bins.areas, &job->bins.tris[first], n,
                                   c->walkable_climb);
    return s == WF_OK ? wf_span_columns_build(out, arena, &hf) : s;
}

/// One attempt at building item `index` (a piece or a tile) with a span
/// pool of `spans` in `arena`, its result left in the arena through `out`.
typedef wf_status arena_step(const build_job* job, uint32_t index, uint32_t spans, wf_arena* arena,
                             void* out);

/// Runs `step` in exactly `bytes` of the worker's buffer, however big
/// earlier items made it (whether an item fits never depends on which
/// worker ran it), with bytes and spans doubled while it reports either too
/// small (up to BUILD_ATTEMPTS). The result stays in the buffer until the
/// worker's next item.
static wf_status in_worker_arena(build_job* job, uint32_t worker, size_t bytes, uint32_t spans,
                                 arena_step* step, uint32_t index, void* out) {
    const wf_allocator* a = &job->tc->allocator;
    wf_arena* buffer = &job->arenas[worker];
    wf_status s = WF_ERR_CAPACITY;
    for (int attempt = 0; attempt < BUILD_ATTEMPTS; ++attempt) {
        if (buffer->capacity < bytes) {
            wf_arena_destroy(buffer, a);
            if (wf_arena_create(buffer, a, bytes) != WF_OK) {
                return WF_ERR_OUT_OF_MEMORY;
            }
        }
        wf_arena arena;
        wf_arena_init(&arena, buffer->base, bytes);
        s = step(job, index, spans, &arena, out);
        if (arena.high_water > job->high_water[worker]) {
            job->high_water[worker] = arena.high_water;
        }
        // Capacity and arena exhaustion are both "too small": retry bigger.
        if ((s != WF_ERR_CAPACITY && s != WF_ERR_OUT_OF_MEMORY) || bytes >= MAX_BUILD_ARENA ||
            spans > UINT32_MAX / 2u) {
            break;
        }
        bytes = bytes * 2u > MAX_BUILD_ARENA ? MAX_BUILD_ARENA : bytes * 2u;
        spans *= 2u;
    }
    return s;
}

static wf_status piece_step(const build_job* job, uint32_t p, uint32_t spans, wf_arena* arena,
                            void* out) {
    return rasterize_piece(job, p, spans, arena, out);
}

/// Piece p rasterized in the worker's arena (its guesses doubled while too
/// small) and kept.
static wf_status build_piece(build_job* job, uint32_t p, uint32_t worker) {
    int32_t col0, width, row0, depth;
    wf_piece_columns(&job->grid, (int32_t)(p % (uint32_t)job->grid.pieces_x), &col0, &width);
    wf_piece_rows(&job->grid, (int32_t)(p / (uint32_t)job->grid.pieces_x), &row0, &depth);
    uint32_t spans = 0;
    size_t bytes = estimate_piece(job, p, (uint64_t)width * (uint64_t)depth, &spans);
    wf_span_columns cols;
    wf_status s = in_worker_arena(job, worker, bytes, spans, piece_step, p, &cols);
    return s == WF_OK ? wf_span_piece_keep(&job->pieces[p], &job->tc->allocator, &cols) : s;
}

static void build_pieces_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    build_job* job = context;
    for (uint32_t i = begin; i < end; ++i) {
        const uint32_t p = job->order[i].index;
        job->piece_status[p] = build_piece(job, p, worker);
    }
}

/// Fills the heightfield from a grid or voxel input.
static wf_status fill_heightfield(const build_job* job, wf_heightfield* hf) {
    const build_input* in = job->in;
    return in->kind == INPUT_GRID ? wf_heightfield_fill_grid(hf, &in->grid)
                                  : wf_heightfield_fill_voxels(hf, &in->voxels);
}

/// The arena part of a tile: heightfield, filters, compact, erosion,
/// volumes, layers, serialized and compressed.
static wf_status build_tile_layers(const build_job* job, uint32_t tile, uint32_t span_capacity,
                                   wf_arena* arena, arena_layers* out) {
    const cell_params* c = &job->cp;
    const wf_tilecache* tc = job->tc;
    int32_t tx = (int32_t)(tile % (uint32_t)job->tiles_x);
    int32_t tz = (int32_t)(tile / (uint32_t)job->tiles_x);
    float bmin[3], bmax[3];
    tile_bounds(job, tx, tz, bmin, bmax);
    wf_heightfield hf;
    wf_span_columns cols;
    wf_status s;
    if (job->in->kind == INPUT_GEOM) {
        // The columns come from the pieces; the field is only their frame.
        memset(&hf, 0, sizeof hf);
        hf.width = c->side;
        hf.depth = c->side;
        memcpy(hf.bmin, bmin, sizeof hf.bmin);
        memcpy(hf.bmax, bmax, sizeof hf.bmax);
        hf.cs = c->cs;
        hf.ch = c->ch;
        s = wf_span_columns_from_pieces(&cols, arena, &job->grid, job->pieces, tx, tz,
                                        span_capacity);
    } else {
        s = wf_heightfield_init(&hf, arena, c->side, c->side, bmin, bmax, c->cs, c->ch,
                                span_capacity);
        if (s == WF_OK) {
            s = fill_heightfield(job, &hf);
        }
        if (s == WF_OK) {
            s = wf_span_columns_build(&cols, arena, &hf);
        }
    }
    wf_compact_heightfield chf;
    if (s == WF_OK) {
        // The span filters run on the flattened columns (one pass instead of
        // three over the linked ones): all three for triangles and voxels;
        // grids have no drops (a blocked cell is a wall, not a ledge), so
        // only the low-ceiling filter runs on them.
        wf_filter_span_columns(&cols, c->walkable_height, c->walkable_climb,
                               job->in->kind != INPUT_GRID);
        s = wf_compact_build_columns(&chf, arena, &cols, &hf, c->border, c->walkable_height,
                                     c->walkable_climb);
    }
    if (s == WF_OK && c->radius > 0) {
        s = wf_erode_walkable_area(&chf, arena, c->radius);
    }
    for (uint32_t i = 0; s == WF_OK && i < job->in->volume_count; ++i) {
        wf_mark_convex_volume(&chf, &job->in->volumes[i]);
    }
    wf_layer_set set = {NULL, 0};
    if (s == WF_OK) {
        s = wf_layers_build(&chf, arena, tx, tz, c->walkable_height, &set);
    }
    if (s != WF_OK) {
        return s;
    }
    out->count = set.count;
    out->infos = WF_ARENA_ARRAY(arena, wf_tilecache_entry, set.count);
    out->data = WF_ARENA_ARRAY(arena, unsigned char*, set.count);
    if (set.count > 0 && (out->infos == NULL || out->data == NULL)) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < set.count; ++i) {
        const wf_layer* l = &set.layers[i];
        size_t raw = wf_layer_serialized_size(l->width, l->depth);
        size_t bound = tc->codec.max_compressed_size(raw, tc->codec.user);
        wf_arena_mark mark = wf_arena_get_mark(arena);
        unsigned char* serialized = wf_arena_alloc(arena, raw, WF_TILECACHE_BLOB_ALIGN);
        unsigned char* packed = wf_arena_alloc(arena, bound, WF_TILECACHE_BLOB_ALIGN);
        if (serialized == NULL || packed == NULL) {
            return WF_ERR_OUT_OF_MEMORY;
        }
        wf_layer_serialize(l, serialized);
        size_t size = 0;
        s = tc->codec.compress(serialized, raw, packed, bound, &size, tc->codec.user);
        if (s != WF_OK || size == 0 || size > bound || size > UINT32_MAX) {
            wf_log(&tc->logger, WF_LOG_ERROR, "tilecache: the codec failed on tile (%d, %d)", tx,
                   tz);
            return s < 0 ? s : WF_ERR_BAD_DATA;
        }
        // Keep only the compressed bytes: move them down over the buffers.
        wf_arena_reset_to(arena, mark);
        out->data[i] = wf_arena_alloc(arena, size, 1);
        memmove(out->data[i], packed, size);
        wf_tilecache_entry_from(l, (uint32_t)raw, (uint32_t)size, &out->infos[i]);
    }
    return WF_OK;
}

/// Copies a tile's layers out of the arena into allocator memory.
static wf_status copy_out(const wf_allocator* a, const arena_layers* in, tile_result* out) {
    if (in->count == 0) {
        return WF_OK;
    }
    wf_tilecache_entry* e = WF_ALLOC_ARRAY(a, wf_tilecache_entry, in->count);
    if (e == NULL) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < in->count; ++i) {
        e[i] = in->infos[i];
        e[i].data = wf_alloc(a, e[i].info.compressed_bytes, 1);
        if (e[i].data == NULL) {
            for (uint32_t k = 0; k < i; ++k) {
                wf_free(a, e[k].data, e[k].info.compressed_bytes, 1);
            }
            WF_FREE_ARRAY(a, e, wf_tilecache_entry, in->count);
            return WF_ERR_OUT_OF_MEMORY;
        }
        memcpy(e[i].data, in->data[i], e[i].info.compressed_bytes);
    }
    out->entries = e;
    out->layer_count = in->count;
    return WF_OK;
}

static wf_status tile_step(const build_job* job, uint32_t tile, uint32_t spans, wf_arena* arena,
                           void* out) {
    return build_tile_layers(job, tile, spans, arena, out);
}

static wf_status build_one(build_job* job, uint32_t tile, uint32_t worker) {
    uint32_t spans = 0;
    size_t bytes = estimate_tile(job, tile, &spans);
    arena_layers layers = {0, NULL, NULL};
    wf_status s = in_worker_arena(job, worker, bytes, spans, tile_step, tile, &layers);
    return s == WF_OK ? copy_out(&job->tc->allocator, &layers, &job->results[tile]) : s;
}

static void build_tiles_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    build_job* job = context;
    for (uint32_t i = begin; i < end; ++i) {
        const uint32_t t = job->order[i].index;
        job->results[t].status = build_one(job, t, worker);
    }
}

static int costlier_first(const void* a, const void* b) {
    const work_item* x = a;
    const work_item* y = b;
    if (x->cost != y->cost) {
        return x->cost > y->cost ? -1 : 1;
    }
    return x->index < y->index ? -1 : x->index > y->index ? 1 : 0;
}

/// Orders job->order[0 .. count) costliest first: the workers take items in
/// that order, so the loop ends on small ones and no worker is left with a
/// big one while the other waits. What each item builds does not depend
/// on the order, only when.
static void schedule_costliest_first(build_job* job, uint32_t count) {
    qsort(job->order, count, sizeof *job->order, costlier_first);
}

/// Piece rows [from, to) rasterized and kept; the first failure in piece
/// order, the same for any worker count.
static wf_status build_piece_rows(build_job* job, int32_t from, int32_t to) {
    const uint32_t per_row = (uint32_t)job->grid.pieces_x;
    const uint32_t first = (uint32_t)from * per_row;
    const uint32_t count = (uint32_t)(to - from) * per_row;
    for (uint32_t i = 0; i < count; ++i) {
        int32_t col0, cols, row0, rows;
        wf_piece_columns(&job->grid, (int32_t)((first + i) % per_row), &col0, &cols);
        wf_piece_rows(&job->grid, (int32_t)((first + i) / per_row), &row0, &rows);
        job->order[i] =
            (work_item){job->bins.cells[first + i] + (uint64_t)cols * (uint64_t)rows, first + i};
    }
    schedule_costliest_first(job, count);
    wf_status s = wf_jobs_parallel_for(&job->tc->jobs, count, 1, build_pieces_fn, job);
    for (uint32_t p = first; s == WF_OK && p < first + count; ++p) {
        s = job->piece_status[p];
    }
    return s;
}

/// Tile rows [t0, t1) built; the first failure in tile order. A tile's
/// cost guess is its own square's spans (triangles) or its index.
static wf_status build_tile_rows(build_job* job, int32_t t0, int32_t t1) {
    const uint32_t first = (uint32_t)(t0 * job->tiles_x);
    const uint32_t count = (uint32_t)((t1 - t0) * job->tiles_x);
    for (uint32_t i = 0; i < count; ++i) {
        uint64_t cost = 0;
        if (job->pieces != NULL) {
            const int32_t tx = (int32_t)((first + i) % (uint32_t)job->tiles_x) + job->grid.ring;
            const int32_t tz = (int32_t)((first + i) / (uint32_t)job->tiles_x) + job->grid.ring;
            cost = job->pieces[tz * job->grid.pieces_x + tx].cols.span_count;
        }
        job->order[i] = (work_item){cost, first + i};
    }
    schedule_costliest_first(job, count);
    wf_status s = wf_jobs_parallel_for(&job->tc->jobs, count, 1, build_tiles_fn, job);
    for (uint32_t t = first; s == WF_OK && t < first + count; ++t) {
        s = job->results[t].status;
    }
    return s;
}

/// Every tile, in bands of tile rows. For triangles, a band's tiles need
/// the piece rows from its first tile row to ring * 2 past its last: the
/// rows not kept yet are made first, and those before the band let go.
/// The first failure in tile order is reported, whatever the worker count.
static wf_status build_bands(build_job* job) {
    const bool pieces = job->in->kind == INPUT_GEOM;
    const int32_t rows_per_band = pieces && job->tiles_x < BAND_TILES ? BAND_TILES / job->tiles_x
                                  : pieces                            ? 1
                                                                      : job->tiles_z;
    int32_t kept = 0, freed = 0; // piece rows made: [freed, kept)
    wf_status s = WF_OK;
    for (int32_t t0 = 0; s == WF_OK && t0 < job->tiles_z; t0 += rows_per_band) {
        const int32_t t1 = t0 + rows_per_band < job->tiles_z ? t0 + rows_per_band : job->tiles_z;
        if (pieces) {
            for (; freed < t0; ++freed) {
                for (int32_t px = 0; px < job->grid.pieces_x; ++px) {
                    wf_span_piece_free(&job->pieces[freed * job->grid.pieces_x + px],
                                       &job->tc->allocator);
                }
            }
            const int32_t needed = t1 + 2 * job->grid.ring;
            s = build_piece_rows(job, kept, needed);
            kept = needed;
        }
        if (s == WF_OK) {
            s = build_tile_rows(job, t0, t1);
        }
    }
    return s;
}

static void free_job(build_job* job) {
    const wf_allocator* a = &job->tc->allocator;
    uint32_t tiles = (uint32_t)(job->tiles_x * job->tiles_z);
    if (job->results != NULL) {
        for (uint32_t t = 0; t < tiles; ++t) {
            wf_tilecache_free_entries(a, job->results[t].entries, job->results[t].layer_count);
        }
    }
    if (job->arenas != NULL) {
        for (uint32_t i = 0; i < job->tc->worker_count; ++i) {
            wf_arena_destroy(&job->arenas[i], a);
        }
    }
    WF_FREE_ARRAY(a, job->results, tile_result, tiles);
    WF_FREE_ARRAY(a, job->arenas, wf_arena, job->tc->worker_count);
    WF_FREE_ARRAY(a, job->high_water, size_t, job->tc->worker_count);
    WF_FREE_ARRAY(a, job->order, work_item, job->piece_count);
    if (job->pieces != NULL) {
        for (uint32_t p = 0; p < job->piece_count; ++p) {
            wf_span_piece_free(&job->pieces[p], a);
        }
        WF_FREE_ARRAY(a, job->pieces, wf_span_piece, job->piece_count);
    }
    WF_FREE_ARRAY(a, job->piece_status, wf_status, job->piece_count);
    wf_triangle_bins_free(&job->bins, a);
}

/// Moves every tile's entries, in tile order, into one array (capacity
/// checked first) and swaps it in for the cache's.
/// The part of a cache that a build replaces: entries with their grid, the
/// per-layer update state made from them, and the link table.
typedef struct cache_contents {
    wf_tilecache_entry* entries;
    uint32_t entry_count;
    wf_vec3 origin, world_max;
    int32_t tiles_x, tiles_z;
    wf_layer_state* layer_states;
    uint32_t layer_state_count;
    uint32_t* tile_first_entry;
    size_t tile_first_count;
    wf_tilecache_changed_tile* changed;
    wf_tilecache_link* links;
    uint32_t link_count, link_capacity;
} cache_contents;

#define SWAP_FIELD(type, a, b)                                                                     \
    do {                                                                                           \
        type swap_tmp_ = (a);                                                                      \
        (a) = (b);                                                                                 \
        (b) = swap_tmp_;                                                                           \
    } while (0)

static void exchange_contents(wf_tilecache* tc, cache_contents* c) {
    SWAP_FIELD(wf_tilecache_entry*, tc->entries, c->entries);
    SWAP_FIELD(uint32_t, tc->entry_count, c->entry_count);
    SWAP_FIELD(wf_vec3, tc->origin, c->origin);
    SWAP_FIELD(wf_vec3, tc->world_max, c->world_max);
    SWAP_FIELD(int32_t, tc->tiles_x, c->tiles_x);
    SWAP_FIELD(int32_t, tc->tiles_z, c->tiles_z);
    SWAP_FIELD(wf_layer_state*, tc->layer_states, c->layer_states);
    SWAP_FIELD(uint32_t, tc->layer_state_count, c->layer_state_count);
    SWAP_FIELD(uint32_t*, tc->tile_first_entry, c->tile_first_entry);
    SWAP_FIELD(size_t, tc->tile_first_count, c->tile_first_count);
    SWAP_FIELD(wf_tilecache_changed_tile*, tc->changed, c->changed);
    SWAP_FIELD(wf_tilecache_link*, tc->links, c->links);
    SWAP_FIELD(uint32_t, tc->link_count, c->link_count);
    SWAP_FIELD(uint32_t, tc->link_capacity, c->link_capacity);
}

/// Puts the new entries in, lands the input's links on them, and only then
/// frees the old contents; a link that fails puts the old contents back
/// untouched (their update state included).
static wf_status commit_with_links(wf_tilecache* tc, build_job* job, wf_tilecache_entry* entries,
                                   uint32_t n) {
    // Builds in flight read the old layers: waited for and dropped first
    // (their layers stay dirty, so a failed build changes nothing an
    // update would see).
    wf_tilecache_drop_builds(tc);
    cache_contents c;
    memset(&c, 0, sizeof c);
    c.entries = entries;
    c.entry_count = n;
    c.origin = job->bmin;
    c.world_max = job->bmax;
    c.tiles_x = job->tiles_x;
    c.tiles_z = job->tiles_z;
    exchange_contents(tc, &c); // tc: the new layers, no links; c: the old contents
    wf_status s = wf_tilecache_insert_links(tc, job->in->links, job->in->link_count);
    if (s != WF_OK) {
        exchange_contents(tc, &c); // tc as it was; c: the new layers to free
        wf_tilecache_free_layer_states(&tc->allocator, c.layer_states, c.layer_state_count,
                                       c.changed, c.tile_first_entry, c.tile_first_count);
        WF_FREE_ARRAY(&tc->allocator, c.links, wf_tilecache_link, c.link_capacity);
        wf_tilecache_free_entries(&tc->allocator, c.entries, c.entry_count);
        return s;
    }
    wf_tilecache_free_layer_states(&tc->allocator, c.layer_states, c.layer_state_count, c.changed,
                                   c.tile_first_entry, c.tile_first_count);
    WF_FREE_ARRAY(&tc->allocator, c.links, wf_tilecache_link, c.link_capacity);
    wf_tilecache_free_entries(&tc->allocator, c.entries, c.entry_count);
    return WF_OK;
}

static wf_status gather(wf_tilecache* tc, build_job* job) {
    uint32_t tiles = (uint32_t)(job->tiles_x * job->tiles_z);
    uint64_t total = 0;
    for (uint32_t t = 0; t < tiles; ++t) {
        total += job->results[t].layer_count;
    }
    if ((tc->max_layers != 0 && total > tc->max_layers) || total > UINT32_MAX / 2u) {
        wf_log(&tc->logger, WF_LOG_ERROR, "tilecache: %llu layers, more than max_layers %u",
               (unsigned long long)total, tc->max_layers);
        return WF_ERR_CAPACITY;
    }
    wf_tilecache_entry* entries = NULL;
    if (total > 0) {
        entries = WF_ALLOC_ARRAY(&tc->allocator, wf_tilecache_entry, total);
        if (entries == NULL) {
            return WF_ERR_OUT_OF_MEMORY;
        }
    }
    uint32_t n = 0;
    for (uint32_t t = 0; t < tiles; ++t) {
        tile_result* r = &job->results[t];
        if (r->layer_count > 0) {
            memcpy(&entries[n], r->entries, r->layer_count * sizeof *entries);
            n += r->layer_count;
            WF_FREE_ARRAY(&tc->allocator, r->entries, wf_tilecache_entry, r->layer_count);
            r->entries = NULL;
            r->layer_count = 0;
        }
    }
    if (job->in->link_count > 0) {
        return commit_with_links(tc, job, entries, n);
    }
    wf_tilecache_release_layer_states(tc); // per-layer update state follows the entries
    tc->link_count = 0;                    // links are stored by entry: a build drops them
    wf_tilecache_free_entries(&tc->allocator, tc->entries, tc->entry_count);
    tc->entries = entries;
    tc->entry_count = n;
    tc->origin = job->bmin;
    tc->world_max = job->bmax;
    tc->tiles_x = job->tiles_x;
    tc->tiles_z = job->tiles_z;
    return WF_OK;
}

/// Tiles and cells of a build over the bounds, checked against the hard
/// limits (WF_ERR_INVALID_ARG) and then the desc's (WF_ERR_CAPACITY).
static wf_status plan_build(const wf_tilecache* tc, wf_vec3 bmin, wf_vec3 bmax,
                            wf_tilecache_build_plan* out) {
    memset(out, 0, sizeof *out);
    // The input's own bounds (params bounds are checked at creation): far
    // coordinates, or a grid or voxel extent that overflows, would make
    // tile corners infinite.
    if (!wf_tilecache_bounds_within_limits(bmin, bmax)) {
        wf_log(&tc->logger, WF_LOG_ERROR,
               "tilecache: the input reaches beyond +-1e30 m (bounds %g %g %g .. %g %g %g)",
               (double)bmin.x, (double)bmin.y, (double)bmin.z, (double)bmax.x, (double)bmax.y,
               (double)bmax.z);
        return WF_ERR_INVALID_ARG;
    }
    cell_params cp = cell_params_of(&tc->params);
    double tx = ceil(((double)bmax.x - bmin.x) / cp.tile_width);
    double tz = ceil(((double)bmax.z - bmin.z) / cp.tile_width);
    tx = tx < 1.0 ? 1.0 : tx;
    tz = tz < 1.0 ? 1.0 : tz;
    if (!(tx * tz <= (double)WF_TILECACHE_MAX_TILES)) {
        wf_log(&tc->logger, WF_LOG_ERROR, "tilecache: bounds need %.0f x %.0f tiles", tx, tz);
        return WF_ERR_INVALID_ARG;
    }
    out->tiles_x = (uint32_t)tx;
    out->tiles_z = (uint32_t)tz;
    out->tiles = (uint64_t)out->tiles_x * out->tiles_z;
    out->cells = out->tiles * (uint64_t)cp.side * (uint64_t)cp.side;
    // Before anything is allocated: a 58-byte OBJ of a 29.5 km square
    // once asked for 4.2 million tiles and built for twenty minutes.
    if (out->tiles > tc->max_tiles) {
        wf_log(&tc->logger, WF_LOG_ERROR,
               "tilecache: the bounds need %llu tiles (%u x %u), more than max_tiles %u",
               (unsigned long long)out->tiles, out->tiles_x, out->tiles_z, tc->max_tiles);
        return WF_ERR_CAPACITY;
    }
    if (out->cells > tc->max_cells) {
        wf_log(&tc->logger, WF_LOG_ERROR,
               "tilecache: the bounds need %llu cells (%llu tiles of %d x %d with borders), "
               "more than max_cells %llu",
               (unsigned long long)out->cells, (unsigned long long)out->tiles, cp.side, cp.side,
               (unsigned long long)tc->max_cells);
        return WF_ERR_CAPACITY;
    }
    return WF_OK;
}

wf_status wf_tilecache_plan_build(const wf_tilecache* tc, wf_vec3 bmin, wf_vec3 bmax,
                                  wf_tilecache_build_plan* out) {
    WF_CHECK_ARG(tc != NULL && out != NULL);
    if (!wf_tilecache_bounds_unset(&tc->params)) {
        bmin = tc->params.bmin;
        bmax = tc->params.bmax;
    }
    return plan_build(tc, bmin, bmax, out);
}

static wf_status build_all(wf_tilecache* tc, const build_input* in, wf_vec3 bmin, wf_vec3 bmax) {
    double start = wf_clock_ms();
    build_job job;
    memset(&job, 0, sizeof job);
    job.tc = tc;
    job.in = in;
    job.cp = cell_params_of(&tc->params);
    job.bmin = bmin;
    job.bmax = bmax;
    wf_tilecache_build_plan plan;
    wf_status planned = plan_build(tc, bmin, bmax, &plan);
    if (planned != WF_OK) {
        return planned;
    }
    job.tiles_x = (int32_t)plan.tiles_x;
    job.tiles_z = (int32_t)plan.tiles_z;
    uint32_t tiles = (uint32_t)plan.tiles;
    job.grid =
        wf_piece_grid_make((int32_t)tc->params.tile_size, job.cp.border, job.tiles_x, job.tiles_z);
    job.piece_count = (uint32_t)(job.grid.pieces_x * job.grid.pieces_z);
    const wf_allocator* a = &tc->allocator;
    job.results = WF_ALLOC_ARRAY(a, tile_result, tiles);
    job.arenas = WF_ALLOC_ARRAY(a, wf_arena, tc->worker_count);
    job.high_water = WF_ALLOC_ARRAY(a, size_t, tc->worker_count);
    job.order = WF_ALLOC_ARRAY(a, work_item, job.piece_count); // pieces >= tiles
    wf_status s =
        job.results != NULL && job.arenas != NULL && job.high_water != NULL && job.order != NULL
            ? WF_OK
            : WF_ERR_OUT_OF_MEMORY;
    if (s == WF_OK && in->kind == INPUT_GEOM) {
        // Each triangle's slope test once, not once per piece it touches.
        const wf_triangle_bins_desc bd = {
            .geom = &in->geom,
            .grid = job.grid,
            .bmin = bmin,
            .bmax = bmax,
            .cs = job.cp.cs,
            .tile_width = job.cp.tile_width,
            .max_slope_deg = tc->params.agent_max_slope,
            .max_refs = tc->max_triangle_refs,
            .max_cells = tc->max_cells,
            .allocator = a,
            .logger = &tc->logger,
            .jobs = &tc->jobs,
        };
        s = wf_triangle_bins_build(&job.bins, &bd);
    }
    if (s == WF_OK && in->kind == INPUT_GEOM) {
        job.pieces = WF_ALLOC_ARRAY(a, wf_span_piece, job.piece_count);
        job.piece_status = WF_ALLOC_ARRAY(a, wf_status, job.piece_count);
        s = job.pieces != NULL && job.piece_status != NULL ? WF_OK : WF_ERR_OUT_OF_MEMORY;
    }
    if (s == WF_OK) {
        s = build_bands(&job);
    }
    if (s == WF_OK) {
        s = gather(tc, &job);
    }
    if (s == WF_OK) {
        tc->build_high_water = 0;
        for (uint32_t i = 0; i < tc->worker_count; ++i) {
            if (job.high_water[i] > tc->build_high_water) {
                tc->build_high_water = job.high_water[i];
            }
        }
        tc->build_ms = wf_clock_ms() - start;
        tc->build_cells = plan.cells;
        tc->triangle_refs = job.bins.refs;
        tc->triangle_cells = job.bins.total_cells;
    }
    free_job(&job);
    return s;
}

/// The checks of the input's links that need no layers, made before any
/// tile is built (landing waits for the new layers): add_links' statuses.
static wf_status check_input_links(const wf_tilecache* tc, const wf_offmesh_link_desc* links,
                                   uint32_t count) {
    if (links == NULL && count > 0) {
        wf_log(&tc->logger, WF_LOG_ERROR, "tilecache: link_count %u with links NULL", count);
        return WF_ERR_INVALID_ARG;
    }
    if (count > tc->max_links) {
        wf_log(&tc->logger, WF_LOG_ERROR, "tilecache: %u links, more than max_links %u", count,
               tc->max_links);
        return WF_ERR_CAPACITY;
    }
    for (uint32_t i = 0; i < count; ++i) {
        if (wf_tilecache_link_desc_check(&links[i]) != WF_OK) {
            wf_log(&tc->logger, WF_LOG_ERROR,
                   "tilecache: link %u (user_id %u): ends must be finite, radius finite and >= 0, "
                   "area below 64",
                   i, links[i].user_id);
            return WF_ERR_INVALID_ARG;
        }
    }
    return WF_OK;
}

static bool volume_valid(const wf_convex_volume* v) {
    if (v->verts == NULL || v->vert_count < 3 || v->vert_count > 32 || v->area >= WF_MAX_AREAS ||
        !isfinite(v->min_y) || !isfinite(v->max_y) || v->min_y > v->max_y) {
        return false;
    }
    for (uint32_t i = 0; i < v->vert_count; ++i) {
        if (!isfinite(v->verts[i].x) || !isfinite(v->verts[i].z)) {
            return false;
        }
    }
    return true;
}

wf_status wf_tilecache_build_geom(wf_tilecache* tc, wf_geom geom, const wf_convex_volume* volumes,
                                  uint32_t volume_count) {
    WF_CHECK_ARG(tc != NULL);
    WF_CHECK_ARG((geom.verts != NULL || geom.vert_count == 0) &&
                 (geom.tris != NULL || geom.tri_count == 0));
    WF_CHECK_ARG(geom.tri_count <= UINT32_MAX / 3u && geom.vert_count <= UINT32_MAX / 3u);
    WF_CHECK_ARG(volumes != NULL || volume_count == 0);
    for (uint32_t i = 0; i < volume_count; ++i) {
        if (!volume_valid(&volumes[i])) {
            wf_log(&tc->logger, WF_LOG_ERROR,
                   "tilecache: volume %u: verts NULL, vert_count outside 3..32, area above 63, "
                   "or a non-finite or reversed point or height",
                   i);
            WF_REPORT_MISUSE("volume_valid(&volumes[i])");
            return WF_ERR_INVALID_ARG;
        }
        if (!wf_convex_outline_valid(volumes[i].verts, volumes[i].vert_count)) {
            wf_log(&tc->logger, WF_LOG_ERROR,
                   "tilecache: volume %u: the outline is not convex (or repeats a point, or has "
                   "three in a line)",
                   i);
            return WF_ERR_INVALID_ARG;
        }
    }
    wf_status links_ok = check_input_links(tc, geom.links, geom.link_count);
    if (links_ok != WF_OK) {
        return links_ok;
    }
    wf_vec3 bmin = tc->params.bmin, bmax = tc->params.bmax, gmin, gmax;
    bool has_bounds = geom.vert_count > 0 && wf_geom_bounds(&geom, &gmin, &gmax);
    if (geom.vert_count > 0 && !has_bounds) {
        wf_log(&tc->logger, WF_LOG_ERROR, "tilecache: the mesh has non-finite vertices");
        return WF_ERR_INVALID_ARG;
    }
    if (wf_tilecache_bounds_unset(&tc->params)) {
        if (!has_bounds) {
            wf_log(&tc->logger, WF_LOG_ERROR, "tilecache: an empty mesh and no bounds");
            return WF_ERR_INVALID_ARG;
        }
        bmin = gmin;
        bmax = gmax;
    }
    build_input in;
    memset(&in, 0, sizeof in);
    in.kind = INPUT_GEOM;
    in.geom = geom;
    in.volumes = volumes;
    in.volume_count = volume_count;
    in.links = geom.links;
    in.link_count = geom.link_count;
    return build_all(tc, &in, bmin, bmax);
}

wf_status wf_tilecache_build_grid(wf_tilecache* tc, wf_grid grid) {
    WF_CHECK_ARG(tc != NULL && grid.walkable != NULL && grid.width > 0 && grid.depth > 0);
    WF_CHECK_ARG(isfinite(grid.cell_size) && grid.cell_size > 0.0f && wf_v3_is_finite(grid.origin));
    WF_CHECK_ARG((uint64_t)grid.width * grid.depth <= UINT32_MAX);
    wf_status links_ok = check_input_links(tc, grid.links, grid.link_count);
    if (links_ok != WF_OK) {
        return links_ok;
    }
    float lo = grid.origin.y, hi = grid.origin.y;
    for (size_t i = 0; grid.heights != NULL && i < (size_t)grid.width * grid.depth; ++i) {
        if (!isfinite(grid.heights[i])) {
            wf_log(&tc->logger, WF_LOG_ERROR, "tilecache: grid height %zu is not finite", i);
            return WF_ERR_INVALID_ARG;
        }
        lo = i == 0 || grid.heights[i] < lo ? grid.heights[i] : lo;
        hi = i == 0 || grid.heights[i] > hi ? grid.heights[i] : hi;
    }
    wf_vec3 bmin = tc->params.bmin, bmax = tc->params.bmax;
    if (wf_tilecache_bounds_unset(&tc->params)) {
        // A cell's floor is a span one cell-height thick under its surface.
        bmin = wf_v3(grid.origin.x, lo - tc->params.cell_height, grid.origin.z);
        bmax = wf_v3(grid.origin.x + (float)grid.width * grid.cell_size, hi,
                     grid.origin.z + (float)grid.depth * grid.cell_size);
    }
    build_input in;
    memset(&in, 0, sizeof in);
    in.kind = INPUT_GRID;
    in.grid = grid;
    in.links = grid.links;
    in.link_count = grid.link_count;
    return build_all(tc, &in, bmin, bmax);
}

wf_status wf_tilecache_build_voxels(wf_tilecache* tc, wf_voxels voxels) {
    WF_CHECK_ARG(tc != NULL && voxels.solid != NULL && voxels.size_x > 0 && voxels.size_y > 0 &&
                 voxels.size_z > 0);
    WF_CHECK_ARG(isfinite(voxels.cube_size) && voxels.cube_size > 0.0f &&
                 wf_v3_is_finite(voxels.origin));
    WF_CHECK_ARG((uint64_t)voxels.size_x * voxels.size_y * voxels.size_z <= UINT32_MAX);
    wf_status links_ok = check_input_links(tc, voxels.links, voxels.link_count);
    if (links_ok != WF_OK) {
        return links_ok;
    }
    wf_vec3 bmin = tc->params.bmin, bmax = tc->params.bmax;
    if (wf_tilecache_bounds_unset(&tc->params)) {
        bmin = voxels.origin;
        bmax = wf_v3(voxels.origin.x + (float)voxels.size_x * voxels.cube_size,
                     voxels.origin.y + (float)voxels.size_y * voxels.cube_size,
                     voxels.origin.z + (float)voxels.size_z * voxels.cube_size);
    }
    build_input in;
    memset(&in, 0, sizeof in);
    in.kind = INPUT_VOXELS;
    in.voxels = voxels;
    in.links = voxels.links;
    in.link_count = voxels.link_count;
    return build_all(tc, &in, bmin, bmax);
}
