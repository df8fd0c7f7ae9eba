// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// A build's span columns in pieces: the tiles' own squares and a ring of
// pieces as deep as the border around them, each rasterized once. A tile's
// field with its border is copied together from the pieces it overlaps, so
// its border cells (its neighbours' cells) are not rasterized again. A
// piece is rasterized as a window of the bordered field of the tile it
// belongs to (the nearest tile, for the ring), so every cell holds what its
// own tile's rasterization gives it: a tile's own cells as before, bit for
// bit, and its border as the neighbours that own those cells see it.
#ifndef WF_TILECACHE_SPAN_PIECES_H
#define WF_TILECACHE_SPAN_PIECES_H

#include "navcore/alloc.h"
#include "tilecache/heightfield.h"

/// Pieces over a grid of tiles: piece (px, pz) is the square of tile
/// (px - ring, pz - ring), cut to the tiles' bordered extent (lattice
/// columns -border .. tiles_x * tile_size + border, rows alike).
typedef struct wf_piece_grid {
    int32_t tile_size, border;
    int32_t tiles_x, tiles_z;
    int32_t ring;               ///< pieces beyond the tiles on each side: ceil(border / tile_size)
    int32_t pieces_x, pieces_z; ///< tiles + 2 * ring
} wf_piece_grid;

wf_piece_grid wf_piece_grid_make(int32_t tile_size, int32_t border, int32_t tiles_x,
                                 int32_t tiles_z);

/// Lattice columns [*first, *first + *count) of piece column px, rows of
/// piece row pz likewise.
void wf_piece_columns(const wf_piece_grid* g, int32_t px, int32_t* first, int32_t* count);
void wf_piece_rows(const wf_piece_grid* g, int32_t pz, int32_t* first, int32_t* count);

/// One piece's flattened columns in one allocation of its own.
typedef struct wf_span_piece {
    wf_span_columns cols;
    void* block;
    size_t block_bytes;
} wf_span_piece;

/// Copies cols into piece (WF_ERR_OUT_OF_MEMORY, piece left empty).
wf_status wf_span_piece_keep(wf_span_piece* piece, const wf_allocator* a,
                             const wf_span_columns* cols);
void wf_span_piece_free(wf_span_piece* piece, const wf_allocator* a);

/// Spans in the field of tile (tx, tz) with its border (SIZE_MAX when the
/// border reaches past 7 pieces: then it is not counted).
size_t wf_span_pieces_field_spans(const wf_piece_grid* g, const wf_span_piece* pieces, int32_t tx,
                                  int32_t tz);

/// The columns of tile (tx, tz) with its border, in the arena, from the
/// grid's pieces (pieces[pz * pieces_x + px], all kept), with room for
/// span_capacity spans (wf_span_pieces_field_spans counts them).
/// WF_ERR_CAPACITY (nothing kept) when the arena or the room is too small.
wf_status wf_span_columns_from_pieces(wf_span_columns* out, wf_arena* arena, const wf_piece_grid* g,
                                      const wf_span_piece* pieces, int32_t tx, int32_t tz,
                                      size_t span_capacity);

#endif
