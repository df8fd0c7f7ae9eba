// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The default layer codec: a pre-filter that predicts each cell plane from
// the row below, then one LZ4 block (the system liblz4).
#include <limits.h>
#include <lz4.h>
#include <string.h>

#include "navcore/check.h"
#include "tilecache/layer.h"

/// "LZ4" + format 1 of this codec's stream.
#define CODEC_LZ4_ID 0x4c5a3401u
/// Serialized layer envelope the filter recognises (see layer_format.c).
#define LAYER_HEADER_SIZE 48u
#define OFFSET_VERSION 4u
#define OFFSET_WIDTH 6u
#define OFFSET_DEPTH 7u

/*
 * Stream: one raw LZ4 block (no frame, no header of our own) of the input
 * after the pre-filter; the 48-byte layer header is inside the block,
 * unfiltered. The filter runs only on inputs that look like a serialized
 * layer (magic, version 1, size = header + 3 planes); decompression reads
 * the same header from its output and so takes the same decision without a
 * flag. Other inputs are compressed as they are.
 *
 * Pre-filter, each plane predicted from what the decoder already has, so
 * it is lossless for any bytes:
 *   heights: difference (mod 256) from the cell one row below (-z); the
 *     first row from the cell to its left. Floors and ramps become zeros.
 *   areas:   XOR 0xff where the cell is empty. An empty cell's area is
 *     WF_AREA_NULL, so with the default area the plane becomes all zeros:
 *     the emptiness pattern is stored once, in the heights, not twice.
 *   cons:    XOR the cell one row below: straight walls and open floor
 *     repeat row after row.
 * Measured on every layer of the Recast demo levels (dungeon / nav_test /
 * undulating), LZ4 alone gives 20,257 / 49,953 / 79,308 bytes, with the
 * filter 12,149 / 32,069 / 66,456.
 */

// Width and depth of a serialized layer in `data`, or false.
static bool layer_shape(const unsigned char* data, size_t size, uint32_t* width, uint32_t* depth) {
    if (size < LAYER_HEADER_SIZE || memcmp(data, "WFLY", 4) != 0 || data[OFFSET_VERSION] != 1u) {
        return false;
    }
    *width = data[OFFSET_WIDTH];
    *depth = data[OFFSET_DEPTH];
    return *width > 0 && *depth > 0 &&
           size == LAYER_HEADER_SIZE + 3u * (size_t)*width * (size_t)*depth;
}

static void filter_planes(const unsigned char* in, unsigned char* out, uint32_t width,
                          uint32_t depth) {
    size_t cells = (size_t)width * depth;
    const unsigned char* heights = in;
    const unsigned char* areas = in + cells;
    const unsigned char* cons = in + 2u * cells;
    // The first row apart, so the rest runs without a branch per cell.
    size_t first_row = width < cells ? width : cells;
    for (size_t i = 0; i < first_row; ++i) {
        out[i] = (unsigned char)(heights[i] - (i > 0 ? heights[i - 1] : 0u));
        out[2u * cells + i] = cons[i];
    }
    for (size_t i = first_row; i < cells; ++i) {
        out[i] = (unsigned char)(heights[i] - heights[i - width]);
        out[2u * cells + i] = (unsigned char)(cons[i] ^ cons[i - width]);
    }
    for (size_t i = 0; i < cells; ++i) {
        out[cells + i] = (unsigned char)(areas[i] ^ (heights[i] == WF_LAYER_EMPTY ? 0xffu : 0u));
    }
}

// One row of the heights and cons planes from the row below, restored.
static void unfilter_row(unsigned char* restrict heights, const unsigned char* restrict below,
                         unsigned char* restrict cons, const unsigned char* restrict cons_below,
                         size_t width) {
    for (size_t x = 0; x < width; ++x) { // rows apart: vectorizes
        heights[x] = (unsigned char)(heights[x] + below[x]);
        cons[x] = (unsigned char)(cons[x] ^ cons_below[x]);
    }
}

// In place, row by row: every prediction reads cells already restored.
static void unfilter_planes(unsigned char* data, uint32_t width, uint32_t depth) {
    size_t cells = (size_t)width * depth;
    unsigned char* heights = data;
    unsigned char* areas = data + cells;
    unsigned char* cons = data + 2u * cells;
    for (size_t x = 1; x < width; ++x) { // the first row from the left; its cons as stored
        heights[x] = (unsigned char)(heights[x] + heights[x - 1u]);
    }
    for (size_t z = 1; z < depth; ++z) {
        size_t row = z * width;
        unfilter_row(heights + row, heights + row - width, cons + row, cons + row - width, width);
    }
    for (size_t i = 0; i < cells; ++i) {
        areas[i] = (unsigned char)(areas[i] ^ (heights[i] == WF_LAYER_EMPTY ? 0xffu : 0u));
    }
}

static size_t lz4_bound(size_t size) {
    return size > (size_t)LZ4_MAX_INPUT_SIZE ? 0 : (size_t)LZ4_compressBound((int)size);
}

// Room for the LZ4 block plus, after it, the filtered copy of the input
// that is compressed from (the codec has no allocator of its own).
static size_t lz4_max_compressed_size(size_t size, void* user) {
    (void)user;
    size_t bound = lz4_bound(size);
    return bound == 0 ? 0 : bound + size;
}

static wf_status lz4_compress(const void* in, size_t in_size, void* out, size_t out_capacity,
                              size_t* out_size, void* user) {
    (void)user;
    WF_CHECK_ARG(in != NULL && out != NULL && out_size != NULL);
    size_t bound = lz4_bound(in_size);
    WF_CHECK_ARG(bound != 0); // beyond what one LZ4 block holds
    if (out_capacity < bound + in_size) {
        return WF_ERR_CAPACITY;
    }
    const unsigned char* src = in;
    uint32_t width, depth;
    if (layer_shape(src, in_size, &width, &depth)) {
        unsigned char* filtered = (unsigned char*)out + bound;
        memcpy(filtered, src, in_size);
        filter_planes(src + LAYER_HEADER_SIZE, filtered + LAYER_HEADER_SIZE, width, depth);
        src = filtered;
    }
    int n = LZ4_compress_default((const char*)src, out, (int)in_size, (int)bound);
    if (n <= 0) {
        return WF_ERR_CAPACITY;
    }
    *out_size = (size_t)n;
    return WF_OK;
}

static wf_status lz4_decompress(const void* in, size_t in_size, void* out, size_t out_size,
                                void* user) {
    (void)user;
    WF_CHECK_ARG(in != NULL && out != NULL);
    if (in_size == 0 || in_size > INT_MAX || out_size > (size_t)LZ4_MAX_INPUT_SIZE) {
        return WF_ERR_BAD_DATA;
    }
    int n = LZ4_decompress_safe(in, out, (int)in_size, (int)out_size);
    if (n < 0 || (size_t)n != out_size) {
        return WF_ERR_BAD_DATA;
    }
    uint32_t width, depth;
    unsigned char* data = out;
    if (layer_shape(data, out_size, &width, &depth)) {
        unfilter_planes(data + LAYER_HEADER_SIZE, width, depth);
    }
    return WF_OK;
}

wf_layer_codec wf_layer_codec_lz4(void) {
    wf_layer_codec codec = {
        .max_compressed_size = lz4_max_compressed_size,
        .compress = lz4_compress,
        .decompress = lz4_decompress,
        .id = CODEC_LZ4_ID,
        .user = NULL,
    };
    return codec;
}
