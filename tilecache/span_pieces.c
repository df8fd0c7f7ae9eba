// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Span columns kept in pieces and a tile's bordered columns copied together
// from them (see span_pieces.h).
#include <string.h>

#include "tilecache/span_pieces.h"

wf_piece_grid wf_piece_grid_make(int32_t tile_size, int32_t border, int32_t tiles_x,
                                 int32_t tiles_z) {
    wf_piece_grid g;
    g.tile_size = tile_size;
    g.border = border;
    g.tiles_x = tiles_x;
    g.tiles_z = tiles_z;
    g.ring = (border + tile_size - 1) / tile_size;
    g.pieces_x = tiles_x + 2 * g.ring;
    g.pieces_z = tiles_z + 2 * g.ring;
    return g;
}

/// Lattice lines [*first, *first + *count) of piece p along an axis of
/// `tiles` tiles: the tile's square cut to -border .. tiles * size + border.
static void piece_span(const wf_piece_grid* g, int32_t tiles, int32_t p, int32_t* first,
                       int32_t* count) {
    int32_t lo = (p - g->ring) * g->tile_size;
    int32_t hi = lo + g->tile_size;
    const int32_t min = -g->border, max = tiles * g->tile_size + g->border;
    lo = lo < min ? min : lo;
    hi = hi > max ? max : hi;
    *first = lo;
    *count = hi > lo ? hi - lo : 0;
}

void wf_piece_columns(const wf_piece_grid* g, int32_t px, int32_t* first, int32_t* count) {
    piece_span(g, g->tiles_x, px, first, count);
}

void wf_piece_rows(const wf_piece_grid* g, int32_t pz, int32_t* first, int32_t* count) {
    piece_span(g, g->tiles_z, pz, first, count);
}

/// Bytes of a block holding columns for `cells` cells and `spans` spans,
/// and the offsets of its arrays (first, bottom, floor, ceiling, area).
static size_t block_layout(size_t cells, size_t spans, size_t offsets[5]) {
    size_t at = 0;
    offsets[0] = at;
    at += (cells + 1u) * sizeof(uint32_t);
    offsets[1] = at;
    at += cells * sizeof(uint16_t);
    offsets[2] = at;
    at += spans * sizeof(uint16_t);
    offsets[3] = at;
    at += spans * sizeof(uint16_t);
    offsets[4] = at;
    at += spans;
    return at;
}

wf_status wf_span_piece_keep(wf_span_piece* piece, const wf_allocator* a,
                             const wf_span_columns* cols) {
    memset(piece, 0, sizeof *piece);
    const size_t cells = (size_t)cols->width * (size_t)cols->depth;
    const size_t spans = cols->span_count;
    size_t at[5];
    const size_t bytes = block_layout(cells, spans, at);
    unsigned char* block = wf_alloc(a, bytes, _Alignof(uint32_t));
    if (block == NULL) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    wf_span_columns* c = &piece->cols;
    c->width = cols->width;
    c->depth = cols->depth;
    c->span_count = cols->span_count;
    c->first = (uint32_t*)(void*)(block + at[0]);
    c->bottom = (uint16_t*)(void*)(block + at[1]);
    c->floor = (uint16_t*)(void*)(block + at[2]);
    c->ceiling = (uint16_t*)(void*)(block + at[3]);
    c->area = block + at[4];
    memcpy(c->first, cols->first, (cells + 1u) * sizeof *c->first);
    memcpy(c->bottom, cols->bottom, cells * sizeof *c->bottom);
    if (spans > 0) {
        memcpy(c->floor, cols->floor, spans * sizeof *c->floor);
        memcpy(c->ceiling, cols->ceiling, spans * sizeof *c->ceiling);
        memcpy(c->area, cols->area, spans);
    }
    piece->block = block;
    piece->block_bytes = bytes;
    return WF_OK;
}

void wf_span_piece_free(wf_span_piece* piece, const wf_allocator* a) {
    if (piece->block != NULL) {
        wf_free(a, piece->block, piece->block_bytes, _Alignof(uint32_t));
    }
    memset(piece, 0, sizeof *piece);
}

/// The piece index along an axis holding lattice line v (within range).
static int32_t piece_of(const wf_piece_grid* g, int32_t v) {
    // Floor division: lines below 0 belong to the ring.
    int32_t q = v >= 0 ? v / g->tile_size : -((-v + g->tile_size - 1) / g->tile_size);
    return q + g->ring;
}

/// A run of a field row inside one piece: its cells [x, x + n) in the
/// field are the piece's cells from `from` in its row `row`. The column
/// part (px, from, x, n) is the same in every row of a field.
typedef struct piece_run {
    const wf_span_piece* piece;
    int32_t px, row, from, x, n;
} piece_run;

/// The runs of a field's rows from lattice column `lx0`, `width` cells
/// (pieces and rows still to set: row_runs); returns their count.
static int32_t column_runs(const wf_piece_grid* g, int32_t lx0, int32_t width, piece_run* runs) {
    int32_t count = 0;
    for (int32_t x = 0; x < width;) {
        const int32_t px = piece_of(g, lx0 + x);
        int32_t col_first, col_count;
        wf_piece_columns(g, px, &col_first, &col_count);
        const int32_t from = lx0 + x - col_first;
        int32_t n = col_count - from;
        n = n < width - x ? n : width - x;
        runs[count++] = (piece_run){NULL, px, 0, from, x, n};
        x += n;
    }
    return count;
}

/// Points the runs at the pieces of the field row at lattice row `lz`.
static void row_runs(const wf_piece_grid* g, const wf_span_piece* pieces, int32_t lz,
                     piece_run* runs, int32_t count) {
    const int32_t pz = piece_of(g, lz);
    int32_t row_first, row_count;
    wf_piece_rows(g, pz, &row_first, &row_count);
    for (int32_t i = 0; i < count; ++i) {
        runs[i].piece = &pieces[pz * g->pieces_x + runs[i].px];
        runs[i].row = lz - row_first;
    }
}

/// The runs of one field row, on the stack for up to RUNS_ON_STACK.
enum { RUNS_ON_STACK = 16 };

/// Spans in the field of tile (tx, tz) with its border; runs has room for
/// 2 * ring + 1 (a field row crosses its tile's piece and ring pieces on
/// each side).
static size_t field_spans(const wf_piece_grid* g, const wf_span_piece* pieces, int32_t tx,
                          int32_t tz, piece_run* runs) {
    const int32_t side = g->tile_size + 2 * g->border;
    const int32_t lx0 = tx * g->tile_size - g->border;
    const int32_t lz0 = tz * g->tile_size - g->border;
    size_t spans = 0;
    const int32_t n = column_runs(g, lx0, side, runs);
    for (int32_t z = 0; z < side; ++z) {
        row_runs(g, pieces, lz0 + z, runs, n);
        for (int32_t i = 0; i < n; ++i) {
            const wf_span_columns* c = &runs[i].piece->cols;
            const size_t at = (size_t)runs[i].row * (size_t)c->width + (size_t)runs[i].from;
            spans += c->first[at + (size_t)runs[i].n] - c->first[at];
        }
    }
    return spans;
}

size_t wf_span_pieces_field_spans(const wf_piece_grid* g, const wf_span_piece* pieces, int32_t tx,
                                  int32_t tz) {
    piece_run runs_buf[RUNS_ON_STACK];
    if (2 * g->ring + 1 > RUNS_ON_STACK) {
        return SIZE_MAX; // no room for the walk: the caller's guess must do
    }
    return field_spans(g, pieces, tx, tz, runs_buf);
}

wf_status wf_span_columns_from_pieces(wf_span_columns* out, wf_arena* arena, const wf_piece_grid* g,
                                      const wf_span_piece* pieces, int32_t tx, int32_t tz,
                                      size_t span_capacity) {
    const int32_t side = g->tile_size + 2 * g->border;
    const int32_t lx0 = tx * g->tile_size - g->border;
    const int32_t lz0 = tz * g->tile_size - g->border;
    const int32_t most_runs = 2 * g->ring + 1;
    piece_run runs_buf[RUNS_ON_STACK];
    piece_run* runs = runs_buf;
    wf_arena_mark mark = wf_arena_get_mark(arena);
    if (most_runs > RUNS_ON_STACK) {
        runs = WF_ARENA_ARRAY(arena, piece_run, (size_t)most_runs);
        if (runs == NULL) {
            return WF_ERR_CAPACITY;
        }
    }
    const size_t spans = span_capacity > 0 ? span_capacity : 1u;
    const size_t cells = (size_t)side * (size_t)side;
    wf_span_columns cols; // *out only once the copy fits
    if (wf_span_columns_alloc(&cols, arena, side, side, spans) != WF_OK) {
        wf_arena_reset_to(arena, mark);
        return WF_ERR_CAPACITY;
    }
    // In locals: the area stores are bytes, which may alias the pointers.
    uint32_t* first = cols.first;
    uint16_t* bottom = cols.bottom;
    uint16_t* floors = cols.floor;
    uint16_t* ceilings = cols.ceiling;
    uint8_t* area = cols.area;
    // Each run's cells and spans copied in one go.
    uint32_t k = 0;
    const int32_t n = column_runs(g, lx0, side, runs);
    for (int32_t z = 0; z < side; ++z) {
        row_runs(g, pieces, lz0 + z, runs, n);
        for (int32_t i = 0; i < n; ++i) {
            const piece_run* r = &runs[i];
            const wf_span_columns* c = &r->piece->cols;
            const size_t at = (size_t)r->row * (size_t)c->width + (size_t)r->from;
            const size_t cell = (size_t)z * (size_t)side + (size_t)r->x;
            const uint32_t s0 = c->first[at];
            const uint32_t s1 = c->first[at + (size_t)r->n];
            if ((size_t)k + (s1 - s0) > spans) {
                wf_arena_reset_to(arena, mark);
                return WF_ERR_CAPACITY;
            }
            for (int32_t j = 0; j < r->n; ++j) {
                first[cell + (size_t)j] = k + (c->first[at + (size_t)j] - s0);
            }
            memcpy(&bottom[cell], &c->bottom[at], (size_t)r->n * sizeof *bottom);
            memcpy(&floors[k], &c->floor[s0], (size_t)(s1 - s0) * sizeof *floors);
            memcpy(&ceilings[k], &c->ceiling[s0], (size_t)(s1 - s0) * sizeof *ceilings);
            memcpy(&area[k], &c->area[s0], (size_t)(s1 - s0));
            k += s1 - s0;
        }
    }
    first[cells] = k;
    cols.span_count = k;
    *out = cols;
    return WF_OK;
}
