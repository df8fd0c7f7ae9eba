// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Span pieces: the layout of pieces round a grid of tiles (a border within
// one tile and one reaching past several); a tile's bordered columns copied
// together from the pieces, each cell as the field of the tile it belongs
// to rasterizes it (a piece is a window of that field); a full arena, too
// little room for the spans and a failed allocation are reported and keep
// nothing.
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "navcore/arena.h"
#include "test_hooks.h"
#include "tilecache/span_pieces.h"

#define CS 0.3f
#define CH 0.1f
#define ORIGIN_X (-7.35f)
#define ORIGIN_Z (11.1f)
#define TRIS 400

static void test_pieces_cover_the_bordered_tiles(void** state) {
    (void)state;
    // Border 5 within a tile of 48: one ring of pieces, 5 cells deep.
    wf_piece_grid g = wf_piece_grid_make(48, 5, 3, 2);
    assert_int_equal(g.ring, 1);
    assert_int_equal(g.pieces_x, 5);
    assert_int_equal(g.pieces_z, 4);
    int32_t first, count;
    wf_piece_columns(&g, 0, &first, &count);
    assert_int_equal(first, -5);
    assert_int_equal(count, 5);
    wf_piece_columns(&g, 2, &first, &count);
    assert_int_equal(first, 48);
    assert_int_equal(count, 48);
    wf_piece_columns(&g, 4, &first, &count);
    assert_int_equal(first, 144);
    assert_int_equal(count, 5);
    wf_piece_rows(&g, 3, &first, &count);
    assert_int_equal(first, 96);
    assert_int_equal(count, 5);
    // Border 9 past tiles of 4: three rings, the outermost one cell deep;
    // the pieces tile -9 .. 3 * 4 + 9 without a gap.
    g = wf_piece_grid_make(4, 9, 3, 1);
    assert_int_equal(g.ring, 3);
    assert_int_equal(g.pieces_x, 9);
    int32_t next = -9;
    for (int32_t p = 0; p < g.pieces_x; ++p) {
        wf_piece_columns(&g, p, &first, &count);
        assert_int_equal(first, next);
        assert_true(count > 0 && count <= 4);
        next = first + count;
    }
    assert_int_equal(next, 3 * 4 + 9);
}

typedef struct fixture {
    counting_allocator counter;
    wf_allocator allocator;
    wf_arena arena, scratch;
    float verts[TRIS * 9];
    uint32_t tris[TRIS * 3];
    wf_geom geom;
} fixture;

static int setup(void** state) {
    fixture* f = test_calloc(1, sizeof *f);
    counting_allocator_init(&f->counter);
    f->allocator = counting_allocator_hooks(&f->counter);
    if (wf_arena_create(&f->arena, &f->allocator, 8u << 20) != WF_OK ||
        wf_arena_create(&f->scratch, &f->allocator, 8u << 20) != WF_OK) {
        return -1;
    }
    // Triangles over and past a 3 x 2 grid of 12-cell tiles with corners
    // on half cells (many on cell lines), in layers, some upright.
    uint32_t seed = 77u;
    for (uint32_t t = 0; t < TRIS; ++t) {
        for (int k = 0; k < 3; ++k) {
            seed = seed * 1664525u + 1013904223u;
            const uint32_t r = seed >> 8;
            const float cx = (float)(r % 64u) * 0.15f - 0.9f;
            const float cz = (float)((r >> 8) % 48u) * 0.15f - 0.9f;
            float* v = &f->verts[t * 9u + (uint32_t)k * 3u];
            v[0] = ORIGIN_X + cx;
            v[1] = (float)((r >> 16) % 30u) * 0.1f;
            v[2] = ORIGIN_Z + cz;
        }
        if (t % 6u == 0u) {
            f->verts[t * 9u + 3u] = f->verts[t * 9u];
            f->verts[t * 9u + 5u] = f->verts[t * 9u + 2u];
        }
        for (int k = 0; k < 3; ++k) {
            f->tris[t * 3u + (uint32_t)k] = t * 3u + (uint32_t)k;
        }
    }
    f->geom = (wf_geom){f->verts, TRIS * 3u, f->tris, TRIS, NULL, NULL, 0};
    *state = f;
    return 0;
}

static int teardown(void** state) {
    fixture* f = *state;
    wf_arena_destroy(&f->arena, &f->allocator);
    wf_arena_destroy(&f->scratch, &f->allocator);
    assert_int_equal(counting_allocator_live(&f->counter), 0);
    test_free(f);
    return 0;
}

#define TILE 12
#define TILES_X 3
#define TILES_Z 2

/// The field of tile (tx, tz) with its border, as the tile cache lays it
/// out (corner and far corner).
static void tile_frame(int32_t tx, int32_t tz, int32_t border, float* bmin, float* bmax) {
    const float width = (float)TILE * CS, pad = (float)border * CS;
    const int32_t side = TILE + 2 * border;
    bmin[0] = ORIGIN_X + (float)tx * width - pad;
    bmin[1] = -1.0f;
    bmin[2] = ORIGIN_Z + (float)tz * width - pad;
    bmax[0] = bmin[0] + (float)side * CS;
    bmax[1] = 4.0f;
    bmax[2] = bmin[2] + (float)side * CS;
}

/// The soup rasterized in the window of `w` x `d` cells from frame cell
/// (x0, z0) of tile (tx, tz)'s field (the whole field: 0, 0, side, side),
/// flattened into `arena`.
static wf_span_columns rasterized(fixture* f, wf_arena* arena, int32_t tx, int32_t tz,
                                  int32_t border, int32_t x0, int32_t z0, int32_t w, int32_t d) {
    float frame_min[3], frame_max[3];
    tile_frame(tx, tz, border, frame_min, frame_max);
    const float bmin[3] = {frame_min[0] + (float)x0 * CS, frame_min[1],
                           frame_min[2] + (float)z0 * CS};
    const float bmax[3] = {bmin[0] + (float)w * CS, frame_max[1], bmin[2] + (float)d * CS};
    wf_heightfield hf;
    assert_int_equal(wf_heightfield_init(&hf, arena, w, d, bmin, bmax, CS, CH, 60000), WF_OK);
    wf_heightfield_set_frame(&hf, frame_min, frame_max, TILE + 2 * border, TILE + 2 * border, x0,
                             z0);
    assert_int_equal(wf_rasterize_triangles(&hf, &f->geom, 45.0f, 2), WF_OK);
    wf_span_columns cols;
    assert_int_equal(wf_span_columns_build(&cols, arena, &hf), WF_OK);
    return cols;
}

/// The tile a lattice line along one axis belongs to (the nearest one for
/// the ring beyond the grid).
static int32_t owner(int32_t v, int32_t tiles) {
    int32_t t = v >= 0 ? v / TILE : -1;
    return t < 0 ? 0 : t >= tiles ? tiles - 1 : t;
}

/// Every piece: a window of the field of the tile it belongs to.
static wf_span_piece* keep_pieces(fixture* f, const wf_piece_grid* g) {
    const uint32_t n = (uint32_t)(g->pieces_x * g->pieces_z);
    wf_span_piece* pieces = test_calloc(n, sizeof *pieces);
    for (int32_t pz = 0; pz < g->pieces_z; ++pz) {
        for (int32_t px = 0; px < g->pieces_x; ++px) {
            int32_t x0, w, z0, d;
            wf_piece_columns(g, px, &x0, &w);
            wf_piece_rows(g, pz, &z0, &d);
            const int32_t tx = owner(x0, TILES_X), tz = owner(z0, TILES_Z);
            wf_arena_reset(&f->scratch);
            const wf_span_columns cols =
                rasterized(f, &f->scratch, tx, tz, g->border, x0 - (tx * TILE - g->border),
                           z0 - (tz * TILE - g->border), w, d);
            assert_int_equal(
                wf_span_piece_keep(&pieces[pz * g->pieces_x + px], &f->allocator, &cols), WF_OK);
        }
    }
    return pieces;
}

static void free_pieces(fixture* f, const wf_piece_grid* g, wf_span_piece* pieces) {
    for (int32_t i = 0; i < g->pieces_x * g->pieces_z; ++i) {
        wf_span_piece_free(&pieces[i], &f->allocator);
    }
    test_free(pieces);
}

/// Cell (x, z) of a holds the spans of cell (u, v) of b.
static void assert_same_cell(const wf_span_columns* a, int32_t x, int32_t z,
                             const wf_span_columns* b, int32_t u, int32_t v) {
    const size_t i = (size_t)z * (size_t)a->width + (size_t)x;
    const size_t j = (size_t)v * (size_t)b->width + (size_t)u;
    const uint32_t n = a->first[i + 1] - a->first[i];
    assert_int_equal(n, b->first[j + 1] - b->first[j]);
    assert_int_equal(a->bottom[i], b->bottom[j]);
    for (uint32_t k = 0; k < n; ++k) {
        assert_int_equal(a->floor[a->first[i] + k], b->floor[b->first[j] + k]);
        assert_int_equal(a->ceiling[a->first[i] + k], b->ceiling[b->first[j] + k]);
        assert_int_equal(a->area[a->first[i] + k], b->area[b->first[j] + k]);
    }
}

/// Every tile of a 3 x 2 grid of 12-cell tiles with `border`: each cell of
/// its columns copied from the pieces holds the spans the field of the
/// tile the cell belongs to gives it (its own field for its own cells).
static void check_grid(fixture* f, int32_t border) {
    const wf_piece_grid g = wf_piece_grid_make(TILE, border, TILES_X, TILES_Z);
    wf_span_piece* pieces = keep_pieces(f, &g);
    const int32_t side = TILE + 2 * border;
    wf_span_columns own[TILES_X * TILES_Z];
    wf_arena_reset(&f->scratch);
    for (int32_t t = 0; t < TILES_X * TILES_Z; ++t) {
        own[t] = rasterized(f, &f->scratch, t % TILES_X, t / TILES_X, border, 0, 0, side, side);
    }
    uint32_t spans = 0, borrowed = 0;
    for (int32_t tz = 0; tz < TILES_Z; ++tz) {
        for (int32_t tx = 0; tx < TILES_X; ++tx) {
            wf_arena_reset(&f->arena);
            wf_span_columns copied;
            const size_t counted = wf_span_pieces_field_spans(&g, pieces, tx, tz);
            assert_int_equal(
                wf_span_columns_from_pieces(&copied, &f->arena, &g, pieces, tx, tz, counted),
                WF_OK);
            assert_int_equal(copied.width, side);
            assert_int_equal(wf_span_pieces_field_spans(&g, pieces, tx, tz), copied.span_count);
            for (int32_t z = 0; z < side; ++z) {
                for (int32_t x = 0; x < side; ++x) {
                    const int32_t lx = tx * TILE - border + x, lz = tz * TILE - border + z;
                    const int32_t ox = owner(lx, TILES_X), oz = owner(lz, TILES_Z);
                    assert_same_cell(&copied, x, z, &own[oz * TILES_X + ox],
                                     lx - (ox * TILE - border), lz - (oz * TILE - border));
                    borrowed += ox != tx || oz != tz;
                }
            }
            spans += copied.span_count;
        }
    }
    assert_true(spans > 1000); // the soup covers the tiles, in layers
    assert_true(borrowed > 0); // borders come from the neighbours
    free_pieces(f, &g, pieces);
}

static void test_a_copied_tile_holds_each_cell_as_its_tile_does(void** state) {
    fixture* f = *state;
    check_grid(f, 5);  // within the neighbour tiles
    check_grid(f, 15); // past them: two rings of pieces
}

static void test_a_full_arena_or_too_little_room_keeps_nothing(void** state) {
    fixture* f = *state;
    const wf_piece_grid g = wf_piece_grid_make(TILE, 5, TILES_X, TILES_Z);
    wf_span_piece* pieces = keep_pieces(f, &g);
    wf_arena small;
    assert_int_equal(wf_arena_create(&small, &f->allocator, 2048), WF_OK);
    wf_span_columns cols;
    const size_t counted = wf_span_pieces_field_spans(&g, pieces, 1, 1);
    assert_int_equal(wf_span_columns_from_pieces(&cols, &small, &g, pieces, 1, 1, counted),
                     WF_ERR_CAPACITY);
    assert_int_equal(small.used, 0);
    // Room for one span less than the tile holds: refused, nothing kept.
    wf_arena_reset(&f->arena);
    assert_true(counted > 0);
    assert_int_equal(wf_span_columns_from_pieces(&cols, &f->arena, &g, pieces, 1, 1, counted - 1u),
                     WF_ERR_CAPACITY);
    assert_int_equal(f->arena.used, 0);
    wf_arena_destroy(&small, &f->allocator);
    free_pieces(f, &g, pieces);
}

static void test_a_failed_keep_keeps_nothing(void** state) {
    fixture* f = *state;
    wf_arena_reset(&f->scratch);
    const wf_span_columns cols = rasterized(f, &f->scratch, 0, 0, 5, 5, 5, TILE, TILE);
    wf_span_piece piece;
    f->counter.fail_at = (unsigned long)atomic_load(&f->counter.attempt) + 1u;
    assert_int_equal(wf_span_piece_keep(&piece, &f->allocator, &cols), WF_ERR_OUT_OF_MEMORY);
    assert_null(piece.block);
    f->counter.fail_at = 0;
    wf_span_piece_free(&piece, &f->allocator); // an empty piece frees nothing
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pieces_cover_the_bordered_tiles),
        cmocka_unit_test_setup_teardown(test_a_copied_tile_holds_each_cell_as_its_tile_does, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_a_full_arena_or_too_little_room_keeps_nothing, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_a_failed_keep_keeps_nothing, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
