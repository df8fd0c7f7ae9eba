// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Serialized layers and the LZ4 codec: exact bytes of a small layer, round
// trips, every flipped byte and truncation rejected, invalid cells refused,
// codec round trips on random and level-like layers, the pre-filter's gain,
// and damaged compressed data that fails cleanly (run under ASan).
#include <lz4.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_hooks.h"
#include "tilecache/layer.h"
#include "wayfarer/rng.h"

#define CS 0.5f
#define CH 0.25f
#define E WF_LAYER_EMPTY
#define N WF_AREA_NULL

/// A layer with its own cell arrays.
typedef struct owned_layer {
    wf_layer layer;
    uint8_t cells[3 * 255 * 255];
} owned_layer;

static void layer_init(owned_layer* o, uint32_t width, uint32_t depth, uint16_t hmin,
                       uint16_t hmax) {
    memset(o, 0, sizeof *o);
    wf_layer* l = &o->layer;
    size_t cells = (size_t)width * depth;
    l->tile_x = -3;
    l->tile_z = 70000;
    l->layer = 2;
    l->width = width;
    l->depth = depth;
    l->cs = CS;
    l->ch = CH;
    l->hmin = hmin;
    l->hmax = hmax;
    l->bmin[0] = 1.5f;
    l->bmin[1] = -2.0f;
    l->bmin[2] = 3.0f;
    l->bmax[0] = 1.5f + (float)width * CS;
    l->bmax[1] = -2.0f + (float)hmax * CH;
    l->bmax[2] = 3.0f + (float)depth * CS;
    l->heights = o->cells;
    l->areas = o->cells + cells;
    l->cons = o->cells + 2 * cells;
}

// 5 x 3, hand-filled: links between floor neighbours, a few portals.
static void small_layer(owned_layer* o) {
    layer_init(o, 5, 3, 100, 107);
    static const uint8_t heights[15] = {0, 1, 2, E, 4, 3, 3, E, E, 5, 7, 7, 7, 7, 7};
    static const uint8_t areas[15] = {0, 0, 3, N, 63, 0, N, N, N, 0, 1, 1, 1, 1, 1};
    static const uint8_t cons[15] = {0x16, 0x03, 0x01, 0x00, 0x42, 0x0C, 0x09, 0x00,
                                     0x00, 0x0A, 0x2C, 0x0D, 0x25, 0x05, 0x09};
    memcpy(o->layer.heights, heights, 15);
    memcpy(o->layer.areas, areas, 15);
    memcpy(o->layer.cons, cons, 15);
}

// A level-like layer: floors, a ramp, a raised block and a hole, with links
// between floor neighbours within 4 units and portals on the tile edge.
static void terrain_layer(owned_layer* o, uint32_t width, uint32_t depth, uint32_t seed) {
    layer_init(o, width, depth, 40, 40 + 60);
    wf_layer* l = &o->layer;
    wf_rng rng = wf_rng_make(seed, 7);
    uint32_t hole_x = wf_rng_below(&rng, width), hole_z = wf_rng_below(&rng, depth);
    for (uint32_t z = 0; z < depth; ++z) {
        for (uint32_t x = 0; x < width; ++x) {
            size_t i = x + z * width;
            uint32_t dx = x > hole_x ? x - hole_x : hole_x - x;
            uint32_t dz = z > hole_z ? z - hole_z : hole_z - z;
            if (dx * dx + dz * dz < 40 || (x > width / 2 && z == depth / 3)) {
                l->heights[i] = E;
                l->areas[i] = N;
                continue;
            }
            uint32_t h = z < depth / 2 ? 0 : (z - depth / 2) * 2;
            if (x > 3 * width / 4 && z > 3 * depth / 4) {
                h = 60;
            }
            l->heights[i] = (uint8_t)(h > 60 ? 60 : h);
            l->areas[i] = x < 4 ? 2 : 0;
        }
    }
    for (uint32_t z = 0; z < depth; ++z) {
        for (uint32_t x = 0; x < width; ++x) {
            size_t i = x + z * width;
            if (l->heights[i] == E) {
                continue;
            }
            uint8_t c = 0;
            for (int dir = 0; dir < 4; ++dir) {
                int64_t nx = (int64_t)x + wf_dir_dx[dir], nz = (int64_t)z + wf_dir_dz[dir];
                if (nx < 0 || nz < 0 || nx >= width || nz >= depth) {
                    c |= (uint8_t)(0x10u << dir);
                    continue;
                }
                uint8_t nh = l->heights[nx + nz * (int64_t)width];
                if (nh != E && abs((int)nh - (int)l->heights[i]) <= 4) {
                    c |= (uint8_t)(1u << dir);
                }
            }
            l->cons[i] = c;
        }
    }
}

static unsigned char* serialize(const wf_layer* l, size_t* size) {
    *size = wf_layer_serialized_size(l->width, l->depth);
    unsigned char* data = malloc(*size);
    assert_non_null(data);
    wf_layer_serialize(l, data);
    return data;
}

static void test_serialize_exact_bytes(void** state) {
    (void)state;
    owned_layer* o = malloc(sizeof *o);
    assert_non_null(o);
    small_layer(o);
    size_t size;
    unsigned char* data = serialize(&o->layer, &size);
    assert_int_equal(size, 48 + 3 * 15);
    static const unsigned char head[20] = {'W',  'F',  'L',  'Y',  1,    2,
                                           5,    3,    0xfd, 0xff, 0xff, 0xff, // -3
                                           0x70, 0x11, 0x01, 0x00,             // 70000
                                           100,  0,    107,  0};
    assert_memory_equal(data, head, sizeof head);
    uint32_t bits;
    memcpy(&bits, &o->layer.bmin[0], 4);
    assert_int_equal(data[20] | data[21] << 8 | data[22] << 16 | (uint32_t)data[23] << 24, bits);
    memcpy(&bits, &o->layer.bmax[2], 4);
    assert_int_equal(data[40] | data[41] << 8 | data[42] << 16 | (uint32_t)data[43] << 24, bits);
    assert_memory_equal(data + 48, o->layer.heights, 15);
    assert_memory_equal(data + 63, o->layer.areas, 15);
    assert_memory_equal(data + 78, o->layer.cons, 15);

    wf_layer back;
    assert_int_equal(wf_layer_deserialize(data, size, CS, CH, &back), WF_OK);
    assert_int_equal(back.tile_x, -3);
    assert_int_equal(back.tile_z, 70000);
    assert_int_equal(back.layer, 2);
    assert_int_equal(back.width, 5);
    assert_int_equal(back.depth, 3);
    assert_int_equal(back.hmin, 100);
    assert_int_equal(back.hmax, 107);
    assert_memory_equal(back.bmin, o->layer.bmin, sizeof back.bmin);
    assert_memory_equal(back.bmax, o->layer.bmax, sizeof back.bmax);
    assert_true(back.cs == CS && back.ch == CH);
    // No copy: the arrays are the buffer's.
    assert_ptr_equal(back.heights, data + 48);
    assert_ptr_equal(back.areas, data + 63);
    assert_ptr_equal(back.cons, data + 78);
    free(data);
    free(o);
}

static void test_every_flipped_byte_rejected(void** state) {
    (void)state;
    owned_layer* o = malloc(sizeof *o);
    assert_non_null(o);
    small_layer(o);
    size_t size;
    unsigned char* data = serialize(&o->layer, &size);
    static const unsigned char masks[] = {0x01, 0x10, 0x80, 0xff};
    for (size_t i = 0; i < size; ++i) {
        for (size_t m = 0; m < sizeof masks; ++m) {
            data[i] ^= masks[m];
            wf_layer back;
            wf_status st = wf_layer_deserialize(data, size, CS, CH, &back);
            // The version byte says so; everything else fails as damage.
            assert_int_equal(st, i == 4 ? WF_ERR_VERSION : WF_ERR_BAD_DATA);
            data[i] ^= masks[m];
        }
    }
    wf_layer back;
    assert_int_equal(wf_layer_deserialize(data, size, CS, CH, &back), WF_OK);
    free(data);
    free(o);
}

// The trusted parse (for the cache's own layers) gives the same layer as
// the full one and still refuses wrong sizes and headers.
static void test_trusted_deserialize(void** state) {
    (void)state;
    owned_layer* o = malloc(sizeof *o);
    assert_non_null(o);
    small_layer(o);
    size_t size;
    unsigned char* data = serialize(&o->layer, &size);
    wf_layer full, trusted;
    assert_int_equal(wf_layer_deserialize(data, size, CS, CH, &full), WF_OK);
    assert_int_equal(wf_layer_deserialize_trusted(data, size, CS, CH, &trusted), WF_OK);
    assert_memory_equal(&full, &trusted, sizeof full);
    assert_int_equal(wf_layer_deserialize_trusted(data, size - 1, CS, CH, &trusted),
                     WF_ERR_BAD_DATA);
    assert_int_equal(wf_layer_deserialize_trusted(data, 10, CS, CH, &trusted), WF_ERR_BAD_DATA);
    data[0] ^= 0x20; // magic
    assert_int_equal(wf_layer_deserialize_trusted(data, size, CS, CH, &trusted), WF_ERR_BAD_DATA);
    free(data);
    free(o);
}

static void test_every_truncation_rejected(void** state) {
    (void)state;
    owned_layer* o = malloc(sizeof *o);
    assert_non_null(o);
    small_layer(o);
    size_t size;
    unsigned char* data = serialize(&o->layer, &size);
    for (size_t n = 0; n <= size + 1; ++n) {
        if (n == size) {
            continue;
        }
        // Exactly n bytes, so a read past them shows under ASan.
        unsigned char* copy = malloc(n + 1);
        assert_non_null(copy);
        memcpy(copy, data, n < size ? n : size);
        copy[n < size ? n : size] = 0;
        wf_layer back;
        assert_int_equal(wf_layer_deserialize(copy, n, CS, CH, &back), WF_ERR_BAD_DATA);
        free(copy);
    }
    free(data);
    free(o);
}

// Serializes o (with a valid checksum) and returns what loading says.
static wf_status load_status(const owned_layer* o) {
    size_t size;
    unsigned char* data = serialize(&o->layer, &size);
    wf_layer back;
    wf_status st = wf_layer_deserialize(data, size, CS, CH, &back);
    free(data);
    return st;
}

static void test_invalid_cells_rejected(void** state) {
    (void)state;
    owned_layer* o = malloc(sizeof *o);
    assert_non_null(o);
    small_layer(o);
    assert_int_equal(load_status(o), WF_OK);
    // Cells 3 (empty), 4 (floor at x 4, +x portal), 9 (floor below 4).
    struct {
        size_t offset; // into the cell planes
        uint8_t value;
    } const damage[] = {
        {15 + 3, 0},    // empty cell with an area
        {30 + 3, 0x10}, // empty cell with a portal
        {30 + 3, 0x01}, // empty cell with a link
        {15 + 4, 64},   // area beyond 63
        {30 + 4, 0x43}, // -x link to empty cell 3
        {30 + 4, 0x06}, // +x link off the layer's edge
        {30 + 9, 0x0B}, // -x link to empty cell 8
        {30 + 9, 0x2A}, // link and portal both towards +z
        {0 + 9, 8},     // height above hmax - hmin = 7
    };
    for (size_t k = 0; k < sizeof damage / sizeof damage[0]; ++k) {
        uint8_t saved = o->cells[damage[k].offset];
        o->cells[damage[k].offset] = damage[k].value;
        assert_int_equal(load_status(o), WF_ERR_BAD_DATA);
        o->cells[damage[k].offset] = saved;
    }
    // A floor cell whose area was painted out is still a valid layer.
    o->layer.areas[0] = N;
    assert_int_equal(load_status(o), WF_OK);
    small_layer(o);

    o->layer.hmin = 108; // above hmax
    assert_int_equal(load_status(o), WF_ERR_BAD_DATA);
    o->layer.hmin = 0;
    o->layer.hmax = 255; // a range heights cannot express
    assert_int_equal(load_status(o), WF_ERR_BAD_DATA);
    small_layer(o);
    o->layer.bmin[1] = NAN;
    assert_int_equal(load_status(o), WF_ERR_BAD_DATA);
    small_layer(o);
    o->layer.bmax[1] = INFINITY;
    assert_int_equal(load_status(o), WF_ERR_BAD_DATA);
    small_layer(o);
    o->layer.bmax[1] = o->layer.bmin[1] - 1.0f;
    assert_int_equal(load_status(o), WF_ERR_BAD_DATA);
    small_layer(o);
    o->layer.bmax[0] += CS; // footprint of 6 cells for a 5-cell layer
    assert_int_equal(load_status(o), WF_ERR_BAD_DATA);
    small_layer(o);
    o->layer.bmax[2] -= 0.4f * CS; // within rounding
    assert_int_equal(load_status(o), WF_OK);
    free(o);
}

static void test_deserialize_bad_args(void** state) {
    (void)state;
    owned_layer* o = malloc(sizeof *o);
    assert_non_null(o);
    small_layer(o);
    size_t size;
    unsigned char* data = serialize(&o->layer, &size);
    wf_layer back;
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    assert_int_equal(wf_layer_deserialize(NULL, size, CS, CH, &back), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_layer_deserialize(data, size, CS, CH, NULL), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_layer_deserialize(data, size, 0.0f, CH, &back), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_layer_deserialize(data, size, CS, NAN, &back), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_layer_deserialize(data, size, CS, -1.0f, &back), WF_ERR_INVALID_ARG);
    wf_set_assert_hook(previous);
    free(data);
    free(o);
}

// Compresses and decompresses `in` (exact-size buffers) and checks the
// bytes come back; returns the compressed size.
static size_t codec_round_trip(const unsigned char* in, size_t size) {
    wf_layer_codec codec = wf_layer_codec_lz4();
    size_t capacity = codec.max_compressed_size(size, codec.user);
    unsigned char* packed = malloc(capacity);
    unsigned char* back = malloc(size > 0 ? size : 1);
    assert_non_null(packed);
    assert_non_null(back);
    size_t packed_size = 0;
    assert_int_equal(codec.compress(in, size, packed, capacity, &packed_size, codec.user), WF_OK);
    assert_true(packed_size > 0 && packed_size <= capacity);
    assert_int_equal(codec.decompress(packed, packed_size, back, size, codec.user), WF_OK);
    assert_memory_equal(back, in, size);
    free(back);
    free(packed);
    return packed_size;
}

static void test_codec_contract(void** state) {
    (void)state;
    wf_layer_codec codec = wf_layer_codec_lz4();
    assert_int_equal(codec.id, 0x4c5a3401u);
    // LZ4's bound plus room for the filtered copy of the input.
    assert_int_equal(codec.max_compressed_size(1000, NULL), (size_t)LZ4_compressBound(1000) + 1000);
    unsigned char in[64] = {0}, out[256], back[64];
    size_t n;
    size_t need = codec.max_compressed_size(sizeof in, NULL);
    assert_int_equal(codec.compress(in, sizeof in, out, need - 1, &n, NULL), WF_ERR_CAPACITY);
    assert_int_equal(codec.compress(in, sizeof in, out, need, &n, NULL), WF_OK);
    assert_int_equal(codec.decompress(out, n, back, sizeof back, NULL), WF_OK);
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    assert_int_equal(codec.compress(NULL, 4, out, need, &n, NULL), WF_ERR_INVALID_ARG);
    assert_int_equal(codec.compress(in, 4, NULL, need, &n, NULL), WF_ERR_INVALID_ARG);
    assert_int_equal(codec.compress(in, 4, out, need, NULL, NULL), WF_ERR_INVALID_ARG);
    assert_int_equal(codec.decompress(NULL, n, back, sizeof back, NULL), WF_ERR_INVALID_ARG);
    assert_int_equal(codec.decompress(out, n, NULL, sizeof back, NULL), WF_ERR_INVALID_ARG);
    wf_set_assert_hook(previous);
    assert_int_equal(codec.decompress(out, 0, back, sizeof back, NULL), WF_ERR_BAD_DATA);
}

static void test_codec_round_trip_random(void** state) {
    (void)state;
    wf_rng rng = wf_rng_make(42, 1);
    static const size_t sizes[] = {0, 1, 7, 47, 48, 49, 100, 4096, 70000};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
        unsigned char* in = malloc(sizes[k] + 1);
        assert_non_null(in);
        for (size_t i = 0; i < sizes[k]; ++i) {
            in[i] = (unsigned char)wf_rng_below(&rng, 256);
        }
        codec_round_trip(in, sizes[k]);
        free(in);
    }
    // Layer-shaped inputs with random (invalid) cells take the filter path
    // and must come back all the same.
    static const uint32_t shapes[][2] = {{1, 1}, {3, 5}, {48, 48}, {255, 255}, {255, 1}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; ++k) {
        size_t size = wf_layer_serialized_size(shapes[k][0], shapes[k][1]);
        unsigned char* in = malloc(size);
        assert_non_null(in);
        for (size_t i = 0; i < size; ++i) {
            // Runs of few values, as in real planes, plus the empty marker.
            uint32_t r = wf_rng_below(&rng, 8);
            in[i] = (unsigned char)(r == 7 ? 0xff : (i > 0 && r < 4 ? in[i - 1] : r));
        }
        memcpy(in, "WFLY", 4);
        in[4] = 1;
        in[6] = (unsigned char)shapes[k][0];
        in[7] = (unsigned char)shapes[k][1];
        codec_round_trip(in, size);
        free(in);
    }
}

static void test_codec_level_like_layers(void** state) {
    (void)state;
    owned_layer* o = malloc(sizeof *o);
    assert_non_null(o);
    static const uint32_t shapes[][2] = {{48, 48}, {64, 32}, {255, 255}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; ++k) {
        terrain_layer(o, shapes[k][0], shapes[k][1], (uint32_t)k);
        assert_int_equal(load_status(o), WF_OK);
        size_t size;
        unsigned char* data = serialize(&o->layer, &size);
        size_t packed = codec_round_trip(data, size);
        // The pre-filter must pay: compare with LZ4 on the raw bytes.
        char* plain = malloc((size_t)LZ4_compressBound((int)size));
        assert_non_null(plain);
        int plain_size =
            LZ4_compress_default((const char*)data, plain, (int)size, LZ4_compressBound((int)size));
        assert_true(plain_size > 0);
        print_message("%ux%u layer: raw %zu, LZ4 %d, filter + LZ4 %zu\n", shapes[k][0],
                      shapes[k][1], size, plain_size, packed);
        assert_true(packed * 10 < (size_t)plain_size * 9);
        free(plain);
        free(data);
    }
    free(o);
}

static void test_codec_damaged_input(void** state) {
    (void)state;
    owned_layer* o = malloc(sizeof *o);
    assert_non_null(o);
    terrain_layer(o, 48, 48, 3);
    size_t size;
    unsigned char* data = serialize(&o->layer, &size);
    wf_layer_codec codec = wf_layer_codec_lz4();
    size_t capacity = codec.max_compressed_size(size, NULL);
    unsigned char* packed = malloc(capacity);
    unsigned char* back = malloc(size);
    assert_non_null(packed);
    assert_non_null(back);
    size_t n;
    assert_int_equal(codec.compress(data, size, packed, capacity, &n, NULL), WF_OK);

    // Every truncation, into exact-size copies.
    for (size_t cut = 0; cut < n; ++cut) {
        unsigned char* copy = malloc(cut + 1);
        assert_non_null(copy);
        memcpy(copy, packed, cut);
        assert_int_equal(codec.decompress(copy, cut, back, size, NULL), WF_ERR_BAD_DATA);
        free(copy);
    }
    // The wrong output size, smaller or larger.
    static const size_t deltas[] = {1, 48, 1000};
    for (size_t k = 0; k < sizeof deltas / sizeof deltas[0]; ++k) {
        unsigned char* big = malloc(size + deltas[k]);
        assert_non_null(big);
        assert_int_equal(codec.decompress(packed, n, big, size + deltas[k], NULL), WF_ERR_BAD_DATA);
        assert_int_equal(codec.decompress(packed, n, big, size - deltas[k], NULL), WF_ERR_BAD_DATA);
        free(big);
    }
    assert_int_equal(codec.decompress(packed, n, back, 0, NULL), WF_ERR_BAD_DATA);

    // Every flipped byte: LZ4 blocks carry no checksum, so the codec either
    // refuses the stream or yields bytes that the layer checksum refuses
    // (or, rarely, the very same bytes). Never a crash or overrun.
    static const unsigned char masks[] = {0x01, 0x80, 0xff};
    uint32_t refused_by_codec = 0, refused_by_layer = 0, unchanged = 0;
    for (size_t i = 0; i < n; ++i) {
        for (size_t m = 0; m < sizeof masks; ++m) {
            packed[i] ^= masks[m];
            wf_status st = codec.decompress(packed, n, back, size, NULL);
            if (st != WF_OK) {
                assert_int_equal(st, WF_ERR_BAD_DATA);
                refused_by_codec++;
            } else if (memcmp(back, data, size) == 0) {
                unchanged++;
            } else {
                wf_layer layer;
                st = wf_layer_deserialize(back, size, CS, CH, &layer);
                assert_true(st == WF_ERR_BAD_DATA || st == WF_ERR_VERSION);
                refused_by_layer++;
            }
            packed[i] ^= masks[m];
        }
    }
    print_message("%zu flips: %u refused by LZ4, %u by the layer checks, %u harmless\n", 3 * n,
                  refused_by_codec, refused_by_layer, unchanged);
    assert_true(refused_by_codec > 0 && refused_by_layer > 0);
    // Garbage of every length up to 300 bytes.
    wf_rng rng = wf_rng_make(9, 9);
    for (size_t len = 1; len < 300; ++len) {
        unsigned char* junk = malloc(len);
        assert_non_null(junk);
        for (size_t i = 0; i < len; ++i) {
            junk[i] = (unsigned char)wf_rng_below(&rng, 256);
        }
        wf_status st = codec.decompress(junk, len, back, size, NULL);
        assert_true(st == WF_ERR_BAD_DATA || st == WF_OK);
        free(junk);
    }
    free(back);
    free(packed);
    free(data);
    free(o);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_serialize_exact_bytes),
        cmocka_unit_test(test_every_flipped_byte_rejected),
        cmocka_unit_test(test_every_truncation_rejected),
        cmocka_unit_test(test_trusted_deserialize),
        cmocka_unit_test(test_invalid_cells_rejected),
        cmocka_unit_test(test_deserialize_bad_args),
        cmocka_unit_test(test_codec_contract),
        cmocka_unit_test(test_codec_round_trip_random),
        cmocka_unit_test(test_codec_level_like_layers),
        cmocka_unit_test(test_codec_damaged_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
