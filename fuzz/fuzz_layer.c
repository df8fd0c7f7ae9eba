// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Fuzz target: a compressed layer, the tile cache's layer -> tile path from
// raw bytes. The input is decompressed by the default codec (one LZ4 block,
// then the plane filter undone) to the size its block holds; the result,
// and the input itself as an uncompressed serialized layer, each go as they
// are and with their hash recomputed through wf_layer_deserialize (full
// validation), a codec round trip, an obstacle stamp, wf_layer_build_tile
// (regions, contours, polygons, tile blob), wf_tile_validate of the blob,
// a mesh and queries.
#include <lz4.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "navcore/alloc.h"
#include "tilecache/layer.h"
#include "tilecache/layer_to_tile.h"
#include "tilecache/obstacle_shapes.h"

#define MAX_RAW (48u + 3u * 255u * 255u)

static wf_layer_tile_params tile_params(void) {
    wf_tilecache_params p = fuzz_level_params();
    wf_layer_tile_params t;
    memset(&t, 0, sizeof t);
    t.walkable_height = p.agent_height;
    t.walkable_radius = p.agent_radius;
    t.walkable_climb = p.agent_climb;
    t.max_edge_length = p.max_edge_length / p.cell_size;
    t.max_simplification_error = p.max_simplification_error;
    t.max_verts_per_poly = p.max_verts_per_poly;
    t.min_region_area = p.min_region_area;
    t.merge_region_area = p.merge_region_area;
    return t;
}

static void codec_round_trip(const unsigned char* raw, size_t size) {
    wf_layer_codec codec = wf_layer_codec_lz4();
    size_t bound = codec.max_compressed_size(size, codec.user);
    unsigned char* packed = malloc(bound);
    unsigned char* back = malloc(size);
    FUZZ_REQUIRE(packed != NULL && back != NULL);
    size_t packed_size = 0;
    FUZZ_REQUIRE(codec.compress(raw, size, packed, bound, &packed_size, codec.user) == WF_OK);
    FUZZ_REQUIRE(codec.decompress(packed, packed_size, back, size, codec.user) == WF_OK);
    FUZZ_REQUIRE(memcmp(back, raw, size) == 0);
    free(packed);
    free(back);
}

static void query_blob(void* blob, size_t size, const wf_layer* layer, uint64_t seed) {
    FUZZ_REQUIRE(wf_tile_validate(blob, size) == WF_OK); // the builder's own output
    wf_mesh_desc md;
    memset(&md, 0, sizeof md);
    md.tile_width = (float)layer->width * layer->cs;
    md.tile_depth = (float)layer->depth * layer->cs;
    md.origin = wf_v3(layer->bmin[0] - (float)layer->tile_x * md.tile_width, 0.0f,
                      layer->bmin[2] - (float)layer->tile_z * md.tile_depth);
    if (!isfinite(md.origin.x) || !isfinite(md.origin.z)) {
        md.origin = wf_v3(0.0f, 0.0f, 0.0f);
    }
    md.max_tiles = 4;
    md.logger = fuzz_logger();
    wf_mesh* mesh = NULL;
    FUZZ_REQUIRE(wf_mesh_create(&md, &mesh) == WF_OK);
    wf_tile_ref tile;
    wf_status s = wf_mesh_add_tile(mesh, blob, size, 0, (wf_tile_ref){0}, &tile);
    FUZZ_REQUIRE(wf_succeeded(s) || s == WF_ERR_BAD_DATA); // BAD_DATA: tile x/z at the i32 limits
    if (wf_succeeded(s)) {
        fuzz_exercise_mesh(mesh, seed);
    }
    wf_mesh_destroy(mesh);
}

static void build(wf_layer* layer, uint64_t seed) {
    if ((seed & 1u) != 0) {
        wf_obstacle_desc od;
        memset(&od, 0, sizeof od);
        od.shape = (seed & 2u) != 0 ? WF_OBSTACLE_CYLINDER : WF_OBSTACLE_BOX;
        od.paint = (seed & 4u) != 0;
        od.area = 3;
        od.position = wf_v3(0.5f * layer->bmin[0] + 0.5f * layer->bmax[0], layer->bmin[1],
                            0.5f * layer->bmin[2] + 0.5f * layer->bmax[2]);
        od.radius = 0.75f;
        od.height = 2.0f;
        od.half_extents = wf_v3(0.75f, 1.0f, 0.5f);
        if (wf_obstacle_desc_check(&od) == WF_OK) {
            wf_obstacle_stamp stamp;
            wf_obstacle_make_stamp(&od, 0.5f, 0.5f, &stamp);
            wf_obstacle_stamp_layer(layer, &stamp, 1);
        }
    }
    wf_allocator a;
    FUZZ_REQUIRE(wf_allocator_resolve(NULL, &a) == WF_OK);
    wf_arena arena;
    FUZZ_REQUIRE(wf_arena_create(&arena, &a,
                                 wf_layer_tile_scratch_size(layer->width, layer->depth)) == WF_OK);
    wf_layer_tile_params params = tile_params();
    size_t capacity = 64u << 10, size = 0;
    void* blob = aligned_alloc(16, capacity);
    FUZZ_REQUIRE(blob != NULL);
    wf_status s = wf_layer_build_tile(layer, &params, &arena, blob, capacity, &size);
    if (s == WF_ERR_CAPACITY && size > capacity) {
        free(blob);
        capacity = (size + 15u) & ~(size_t)15u;
        blob = aligned_alloc(16, capacity);
        FUZZ_REQUIRE(blob != NULL);
        wf_arena_reset(&arena);
        s = wf_layer_build_tile(layer, &params, &arena, blob, capacity, &size);
    }
    FUZZ_REQUIRE(s == WF_OK || s == WF_ERR_NOT_FOUND || s == WF_ERR_CAPACITY ||
                 s == WF_ERR_BAD_DATA);
    if (s == WF_OK) {
        query_blob(blob, size, layer, seed);
    }
    free(blob);
    wf_arena_destroy(&arena, &a);
}

/// One serialized layer: as it is, then with its hash recomputed.
static void try_layer(const unsigned char* raw, size_t size, uint64_t seed) {
    for (int pass = 0; pass < 2; ++pass) {
        unsigned char* copy = fuzz_copy(raw, size);
        if (pass == 1) {
            fuzz_fix_layer(copy, size);
            if (size == 0 || memcmp(copy, raw, size) == 0) {
                free(copy);
                return;
            }
        }
        wf_layer layer;
        wf_status s = wf_layer_deserialize(copy, size, FUZZ_LAYER_CS, FUZZ_LAYER_CH, &layer);
        FUZZ_REQUIRE(s == WF_OK || s == WF_ERR_BAD_DATA || s == WF_ERR_VERSION);
        if (s == WF_OK) {
            codec_round_trip(copy, size);
            build(&layer, seed);
        }
        free(copy);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    uint64_t seed = fuzz_seed(data, size);
    static unsigned char probe[MAX_RAW];
    if (size > 0 && size <= (size_t)LZ4_MAX_INPUT_SIZE) {
        int n = LZ4_decompress_safe((const char*)data, (char*)probe, (int)size, (int)MAX_RAW);
        if (n > 0) {
            wf_layer_codec codec = wf_layer_codec_lz4();
            unsigned char* raw = malloc((size_t)n);
            FUZZ_REQUIRE(raw != NULL);
            // LZ4 checks its end-of-block rules against the output's end, so
            // a block that fits a larger buffer may still fail at exactly n.
            wf_status s = codec.decompress(data, size, raw, (size_t)n, codec.user);
            FUZZ_REQUIRE(s == WF_OK || s == WF_ERR_BAD_DATA);
            if (s == WF_OK) {
                try_layer(raw, (size_t)n, seed);
            }
            free(raw);
        }
    }
    try_layer(data, size, seed); // the input as a serialized layer
    return 0;
}
