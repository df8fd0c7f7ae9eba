// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Serialized layer: a 48-byte little-endian header and the three cell
// planes. Loading validates every field and cell before handing it out.
#include <math.h>
#include <string.h>

#include "navcore/bytes.h"
#include "navcore/check.h"
#include "navcore/hash.h"
#include "tilecache/layer.h"

/*
 * Layout (all little-endian):
 *    0  magic "WFLY"
 *    4  u8  version (1)
 *    5  u8  layer index in its tile
 *    6  u8  width   (1..255 cells)
 *    7  u8  depth   (1..255 cells)
 *    8  i32 tile_x
 *   12  i32 tile_z
 *   16  u16 hmin, u16 hmax (cell-height units above bmin[1])
 *   20  f32 bmin[3]
 *   32  f32 bmax[3]
 *   44  u32 checksum: word-wise FNV-1a over the whole blob, this field as 0
 *   48  heights[width * depth], areas[width * depth], cons[width * depth]
 */
#define LAYER_HEADER_SIZE 48u
#define LAYER_VERSION 1u
#define OFFSET_VERSION 4u
#define OFFSET_LAYER 5u
#define OFFSET_WIDTH 6u
#define OFFSET_DEPTH 7u
#define OFFSET_TILE_X 8u
#define OFFSET_TILE_Z 12u
#define OFFSET_HMIN 16u
#define OFFSET_HMAX 18u
#define OFFSET_BMIN 20u
#define OFFSET_BMAX 32u
#define OFFSET_CHECKSUM 44u
/// Largest walkable area id; WF_AREA_NULL marks a cell without floor.
#define MAX_AREA 63u

static const unsigned char layer_magic[4] = {'W', 'F', 'L', 'Y'};

static void put_u16(unsigned char* p, uint16_t v) {
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}
static uint16_t get_u16(const unsigned char* p) { return (uint16_t)(p[0] | (p[1] << 8)); }

// FNV-1a on little-endian 32-bit words (the last one zero-padded) with a
// final avalanche. Each step is a bijection of the running hash, so any
// change confined to one word, such as a flipped byte, always shows.
// The checksum word is read as zero; callers check size >= the header.
static uint32_t layer_checksum(const unsigned char* data, size_t size) {
    static const unsigned char zero[4] = {0};
    uint32_t h = wf_fnv1a32_words(WF_FNV32_OFFSET, data, OFFSET_CHECKSUM);
    h = wf_fnv1a32_words(h, zero, sizeof zero);
    h = wf_fnv1a32_words(h, data + OFFSET_CHECKSUM + 4u, size - (OFFSET_CHECKSUM + 4u));
    return wf_hash_fmix32(h);
}

size_t wf_layer_serialized_size(uint32_t width, uint32_t depth) {
    return LAYER_HEADER_SIZE + 3u * (size_t)width * (size_t)depth;
}

void wf_layer_serialize(const wf_layer* layer, unsigned char* out) {
    WF_ASSERT(layer->width >= 1 && layer->width <= WF_LAYER_MAX_SIZE);
    WF_ASSERT(layer->depth >= 1 && layer->depth <= WF_LAYER_MAX_SIZE);
    WF_ASSERT(layer->layer >= 0 && layer->layer <= 0xff);
    size_t cells = (size_t)layer->width * layer->depth;
    memcpy(out, layer_magic, sizeof layer_magic);
    out[OFFSET_VERSION] = LAYER_VERSION;
    out[OFFSET_LAYER] = (unsigned char)layer->layer;
    out[OFFSET_WIDTH] = (unsigned char)layer->width;
    out[OFFSET_DEPTH] = (unsigned char)layer->depth;
    wf_bytes_put_u32(out + OFFSET_TILE_X, (uint32_t)layer->tile_x);
    wf_bytes_put_u32(out + OFFSET_TILE_Z, (uint32_t)layer->tile_z);
    put_u16(out + OFFSET_HMIN, layer->hmin);
    put_u16(out + OFFSET_HMAX, layer->hmax);
    for (int i = 0; i < 3; ++i) {
        wf_bytes_put_f32(out + OFFSET_BMIN + 4u * (unsigned)i, layer->bmin[i]);
        wf_bytes_put_f32(out + OFFSET_BMAX + 4u * (unsigned)i, layer->bmax[i]);
    }
    unsigned char* cells_out = out + LAYER_HEADER_SIZE;
    memcpy(cells_out, layer->heights, cells);
    memcpy(cells_out + cells, layer->areas, cells);
    memcpy(cells_out + 2u * cells, layer->cons, cells);
    size_t size = wf_layer_serialized_size(layer->width, layer->depth);
    wf_bytes_put_u32(out + OFFSET_CHECKSUM, layer_checksum(out, size));
}

// Cell rules: an empty cell has no area and no links; a floor cell has a
// walkable area (or none, once painted out), a height inside the layer's
// range, links only to floor cells inside the layer and never a link and a
// portal on the same side.
static bool cells_valid(const unsigned char* heights, const unsigned char* areas,
                        const unsigned char* cons, uint32_t width, uint32_t depth, uint32_t range) {
    for (uint32_t z = 0; z < depth; ++z) {
        for (uint32_t x = 0; x < width; ++x) {
            size_t i = (size_t)x + (size_t)z * width;
            if (heights[i] == WF_LAYER_EMPTY) {
                if (areas[i] != WF_AREA_NULL || cons[i] != 0) {
                    return false;
                }
                continue;
            }
            if (heights[i] > range || (areas[i] > MAX_AREA && areas[i] != WF_AREA_NULL)) {
                return false;
            }
            uint32_t links = cons[i] & 0xfu;
            if ((links & (cons[i] >> 4)) != 0) {
                return false;
            }
            for (int dir = 0; dir < WF_DIR_COUNT; ++dir) {
                if ((links & (1u << dir)) == 0) {
                    continue;
                }
                int64_t nx = (int64_t)x + wf_dir_dx[dir];
                int64_t nz = (int64_t)z + wf_dir_dz[dir];
                if (nx < 0 || nz < 0 || nx >= width || nz >= depth ||
                    heights[nx + nz * (int64_t)width] == WF_LAYER_EMPTY) {
                    return false;
                }
            }
        }
    }
    return true;
}

static void point_into(unsigned char* data, uint32_t width, uint32_t depth, float cs, float ch,
                       const float* bmin, const float* bmax, uint16_t hmin, uint16_t hmax,
                       wf_layer* out);

wf_status wf_layer_deserialize(unsigned char* data, size_t size, float cs, float ch,
                               wf_layer* out) {
    WF_CHECK_ARG(data != NULL && out != NULL);
    WF_CHECK_ARG(isfinite(cs) && cs > 0.0f && isfinite(ch) && ch > 0.0f);
    if (size < LAYER_HEADER_SIZE || memcmp(data, layer_magic, sizeof layer_magic) != 0) {
        return WF_ERR_BAD_DATA;
    }
    if (data[OFFSET_VERSION] != LAYER_VERSION) {
        return WF_ERR_VERSION;
    }
    uint32_t width = data[OFFSET_WIDTH];
    uint32_t depth = data[OFFSET_DEPTH];
    if (width == 0 || depth == 0 || size != wf_layer_serialized_size(width, depth)) {
        return WF_ERR_BAD_DATA;
    }
    if (layer_checksum(data, size) != wf_bytes_get_u32(data + OFFSET_CHECKSUM)) {
        return WF_ERR_BAD_DATA;
    }
    // The checksum catches accidents; the checks below keep even a crafted
    // blob from handing the tile builder something it could misread.
    uint16_t hmin = get_u16(data + OFFSET_HMIN);
    uint16_t hmax = get_u16(data + OFFSET_HMAX);
    if (hmin > hmax || (uint32_t)(hmax - hmin) >= WF_LAYER_EMPTY) {
        return WF_ERR_BAD_DATA;
    }
    float bmin[3], bmax[3];
    for (int i = 0; i < 3; ++i) {
        bmin[i] = wf_bytes_get_f32(data + OFFSET_BMIN + 4u * (unsigned)i);
        bmax[i] = wf_bytes_get_f32(data + OFFSET_BMAX + 4u * (unsigned)i);
        if (!isfinite(bmin[i]) || !isfinite(bmax[i]) || bmin[i] > bmax[i]) {
            return WF_ERR_BAD_DATA;
        }
    }
    // The footprint must be the cells' (within half a cell of rounding).
    if (fabsf((bmax[0] - bmin[0]) - (float)width * cs) > 0.5f * cs ||
        fabsf((bmax[2] - bmin[2]) - (float)depth * cs) > 0.5f * cs) {
        return WF_ERR_BAD_DATA;
    }
    size_t cells = (size_t)width * depth;
    unsigned char* heights = data + LAYER_HEADER_SIZE;
    if (!cells_valid(heights, heights + cells, heights + 2u * cells, width, depth,
                     (uint32_t)(hmax - hmin))) {
        return WF_ERR_BAD_DATA;
    }
    point_into(data, width, depth, cs, ch, bmin, bmax, hmin, hmax, out);
    return WF_OK;
}

wf_status wf_layer_deserialize_trusted(unsigned char* data, size_t size, float cs, float ch,
                                       wf_layer* out) {
    // Still never reads out of bounds: the sizes are checked.
    if (size < LAYER_HEADER_SIZE || memcmp(data, layer_magic, sizeof layer_magic) != 0 ||
        data[OFFSET_VERSION] != LAYER_VERSION) {
        return WF_ERR_BAD_DATA;
    }
    uint32_t width = data[OFFSET_WIDTH];
    uint32_t depth = data[OFFSET_DEPTH];
    if (width == 0 || depth == 0 || size != wf_layer_serialized_size(width, depth)) {
        return WF_ERR_BAD_DATA;
    }
    float bmin[3], bmax[3];
    for (int i = 0; i < 3; ++i) {
        bmin[i] = wf_bytes_get_f32(data + OFFSET_BMIN + 4u * (unsigned)i);
        bmax[i] = wf_bytes_get_f32(data + OFFSET_BMAX + 4u * (unsigned)i);
    }
    point_into(data, width, depth, cs, ch, bmin, bmax, get_u16(data + OFFSET_HMIN),
               get_u16(data + OFFSET_HMAX), out);
    return WF_OK;
}

static void point_into(unsigned char* data, uint32_t width, uint32_t depth, float cs, float ch,
                       const float* bmin, const float* bmax, uint16_t hmin, uint16_t hmax,
                       wf_layer* out) {
    size_t cells = (size_t)width * depth;
    unsigned char* heights = data + LAYER_HEADER_SIZE;
    memset(out, 0, sizeof *out);
    out->layer = data[OFFSET_LAYER];
    out->tile_x = (int32_t)wf_bytes_get_u32(data + OFFSET_TILE_X);
    out->tile_z = (int32_t)wf_bytes_get_u32(data + OFFSET_TILE_Z);
    out->width = width;
    out->depth = depth;
    memcpy(out->bmin, bmin, sizeof out->bmin);
    memcpy(out->bmax, bmax, sizeof out->bmax);
    out->cs = cs;
    out->ch = ch;
    out->hmin = hmin;
    out->hmax = hmax;
    out->heights = heights;
    out->areas = heights + cells;
    out->cons = heights + 2u * cells;
}
