// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// 2D heightfield layers: the unit the tile cache stores. A layer is one
// tile's worth of walkable cells that never overlap each other vertically:
// per cell a height, an area and connectivity.
#ifndef WF_TILECACHE_LAYER_H
#define WF_TILECACHE_LAYER_H

#include "navcore/arena.h"
#include "tilecache/heightfield.h"

/// Most cells along a layer side.
#define WF_LAYER_MAX_SIZE 255u
/// Height of an empty cell.
#define WF_LAYER_EMPTY 0xffu

/// One layer, decompressed. Cell (x, z) is index x + z * width; the layer
/// covers exactly its tile (no border): cell (0, 0) is at bmin.
typedef struct wf_layer {
    int32_t tile_x, tile_z, layer;
    uint32_t width, depth;  ///< = tile size (cells)
    float bmin[3], bmax[3]; ///< bmin[1] is the height of h = 0
    float cs, ch;
    uint16_t hmin, hmax; ///< height range, in cell-height units above bmin[1]
    uint8_t* heights;    ///< per cell, above hmin, WF_LAYER_EMPTY = no cell
    uint8_t* areas;      ///< per cell area id (0..63), WF_AREA_NULL if none
    /// Per cell: low nibble = walkable neighbour in this layer in direction
    /// d (bit d); high nibble = the neighbour in direction d is walkable but
    /// in another layer (a portal between layers, bit 4 + d).
    uint8_t* cons;
} wf_layer;

/// Result of splitting one tile: up to max layers, arrays in the arena.
typedef struct wf_layer_set {
    wf_layer* layers;
    uint32_t count;
} wf_layer_set;

/// Splits a compact heightfield (with border) into 2D layers of the tile
/// (tile_x, tile_z). Regions of monotone cells are grown, then merged into
/// as few layers as possible without vertical overlap; layers whose cells
/// are all border are dropped. There is no limit on the number of regions
/// (a region per walkable span works); WF_ERR_CAPACITY if the tile needs
/// more than 256 layers (the layer index is one byte of the format) or the
/// arena runs out.
wf_status wf_layers_build(const wf_compact_heightfield* chf, wf_arena* arena, int32_t tile_x,
                          int32_t tile_z, int32_t walkable_height, wf_layer_set* out);

/// Arena bytes wf_layers_build needs besides the layers it returns (width x
/// depth x 3 bytes plus a wf_layer each), for a field of span_count spans,
/// however they split into regions: linear in the spans, about 100 bytes
/// each in the worst case (every span its own region).
size_t wf_layers_build_scratch_size(uint32_t span_count);

/// Serialized layer: a 48-byte header (magic, version, tile x/z/layer,
/// width, depth, hmin, hmax, bmin, bmax... see layer_format.c) followed by
/// the three cell arrays. Sizes for a width x depth layer:
size_t wf_layer_serialized_size(uint32_t width, uint32_t depth);
void wf_layer_serialize(const wf_layer* layer, unsigned char* out);
/// Validates and points the layer's arrays into `data` (no copy), which
/// must stay alive. WF_ERR_BAD_DATA / WF_ERR_VERSION.
wf_status wf_layer_deserialize(unsigned char* data, size_t size, float cs, float ch, wf_layer* out);

/// The same for a layer this process wrote or already validated (the
/// cache's own memory): only the header is parsed and the sizes checked,
/// which keeps run-time rebuilds cheap.
wf_status wf_layer_deserialize_trusted(unsigned char* data, size_t size, float cs, float ch,
                                       wf_layer* out);

/// The default codec: byte-plane delta pre-filter + LZ4.
wf_layer_codec wf_layer_codec_lz4(void);

#endif
