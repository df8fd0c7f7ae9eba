// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The layer split has no region limit: fragmented grids, checkerboards and
// voxel rubble build and route, and the Recast demo levels give the same
// layer bytes as the 255-region builder did (hashes recorded from it).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_data.h"
#include "tilecache/tilecache_internal.h"
#include "wayfarer/tilecache.h"

#define RECAST_DIR WF_TESTDATA_DIR "/recast"

/* ---------------------------------------------------------------------------
 * Layer bytes of the Recast demo levels, unchanged
 */

static uint64_t fnv1a(uint64_t h, const void* data, size_t size) {
    const unsigned char* p = data;
    for (size_t i = 0; i < size; ++i) {
        h = (h ^ p[i]) * 1099511628211ull;
    }
    return h;
}

/// Hash of every layer the cache holds, in cache order: the serialized
/// (decompressed) bytes, which hold the header and all three cell planes.
static uint64_t cache_layers_hash(const wf_tilecache* tc, uint32_t* out_layers) {
    uint64_t h = 14695981039346656037ull;
    for (uint32_t i = 0; i < tc->entry_count; ++i) {
        const wf_tilecache_entry* e = &tc->entries[i];
        unsigned char* raw = malloc(e->info.raw_bytes);
        assert_non_null(raw);
        assert_int_equal(tc->codec.decompress(e->data, e->info.compressed_bytes, raw,
                                              e->info.raw_bytes, tc->codec.user),
                         WF_OK);
        h = fnv1a(h, raw, e->info.raw_bytes);
        free(raw);
    }
    *out_layers = tc->entry_count;
    return h;
}

typedef struct level_hash {
    const char* name; ///< under recast/meshes (.obj) or movingai/maps (.map)
    uint32_t tile_size;
    float agent_radius; ///< grids only (meshes use the demo's)
    uint32_t layers;
    uint64_t hash;
} level_hash;

/// Recorded by running this test with WF_PRINT_LAYER_HASHES=1 on the layer
/// builder as it was before the region limit was lifted (commit 7a65103).
static const level_hash recorded_hashes[] = {
    {"bridge.obj", 32, 0.0f, 5, 0x099e9a7931b9b964ull},
    {"bridge.obj", 48, 0.0f, 3, 0x56147c72114751f4ull},
    {"bridge.obj", 128, 0.0f, 2, 0xc266832f80d3885aull},
    {"bridge.obj", 255, 0.0f, 1, 0x3263b11ec0c5016eull},
    {"convex.obj", 32, 0.0f, 1, 0xb199c1ad3aba4e7cull},
    {"convex.obj", 48, 0.0f, 1, 0xc566bcd24e0adc9cull},
    {"convex.obj", 128, 0.0f, 1, 0x9b63066949889444ull},
    {"convex.obj", 255, 0.0f, 1, 0x836c71edae613fa3ull},
    {"dungeon.obj", 32, 0.0f, 48, 0x4492a36d83b84fc4ull},
    {"dungeon.obj", 48, 0.0f, 30, 0x340ed305c7b6a6ebull},
    {"dungeon.obj", 128, 0.0f, 9, 0x2812b4e8921c7766ull},
    {"dungeon.obj", 255, 0.0f, 4, 0x301dc81a38c04850ull},
    {"house.obj", 32, 0.0f, 8, 0xf122f68a2547759cull},
    {"house.obj", 48, 0.0f, 8, 0xd6c11da8314134ddull},
    {"house.obj", 128, 0.0f, 2, 0x00b3a846fa872e46ull},
    {"house.obj", 255, 0.0f, 2, 0xf29073e43d66a79cull},
    {"nav_test.obj", 32, 0.0f, 106, 0x8442d0d29a644915ull},
    {"nav_test.obj", 48, 0.0f, 60, 0x745dea9a94d11b7full},
    {"nav_test.obj", 128, 0.0f, 15, 0x22db401b763b34f1ull},
    {"nav_test.obj", 255, 0.0f, 5, 0x9a4e1622bcfe34abull},
    {"undulating.obj", 32, 0.0f, 130, 0xbc9eb6cf4c12a946ull},
    {"undulating.obj", 48, 0.0f, 55, 0xec0901bf4a02b3dcull},
    {"undulating.obj", 128, 0.0f, 13, 0x0a2c16e6d028c155ull},
    {"undulating.obj", 255, 0.0f, 6, 0x37c17ce6f68e4c4cull},
    {"bg512/AR0011SR.map", 64, 0.0f, 56, 0x6fb88f848f2edb0bull},
    {"bg512/AR0011SR.map", 64, 0.5f, 56, 0x696a93661562cf19ull},
    {"bg512/AR0011SR.map", 255, 0.0f, 4, 0xf3576e0e1dfc231cull},
    {"dao/arena.map", 64, 0.0f, 1, 0x49ab64fc3e6ad312ull},
    {"dao/arena.map", 64, 0.5f, 1, 0x75a8b64aacbd48beull},
    {"dao/arena.map", 255, 0.0f, 1, 0xa0ffa74af81be36dull},
    {"dao/den101d.map", 64, 0.0f, 2, 0x4c147f43c0be4474ull},
    {"dao/den101d.map", 64, 0.5f, 2, 0x47f50fdaf6882b20ull},
    {"dao/den101d.map", 255, 0.0f, 1, 0xcd1c5e52ad6c6588ull},
    {"mazes/maze512-4-0.map", 64, 0.0f, 64, 0x79fd75475f9b69e2ull},
    {"mazes/maze512-4-0.map", 64, 0.5f, 64, 0x228ebd4a78de2ac7ull},
    {"rooms/8room_000.map", 64, 0.0f, 64, 0xe5a7e347b2a44c1bull},
    {"rooms/8room_000.map", 64, 0.5f, 64, 0x47d5223a3a42592full},
};

/// The cache of one level: a Recast demo mesh with the demo settings, or a
/// Moving AI grid with the settings `wayfarer scen --map` uses.
static wf_tilecache* build_level(const level_hash* level) {
    bool grid = strstr(level->name, ".map") != NULL;
    char path[512];
    snprintf(path, sizeof path, "%s/%s/%s", WF_TESTDATA_DIR,
             grid ? "movingai/maps" : "recast/meshes", level->name);
    size_t size = 0;
    char* text = test_data_read(path, &size);
    if (text == NULL) {
        return NULL;
    }
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = wf_tilecache_params_recast_demo();
    d.params.tile_size = level->tile_size;
    if (grid) {
        d.params.cell_size = 1.0f;
        d.params.agent_radius = level->agent_radius;
        d.params.min_region_area = 0;
        d.params.merge_region_area = 0;
    }
    wf_tilecache* tc = NULL;
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    if (grid) {
        wf_grid_data* data = NULL;
        assert_int_equal(wf_grid_load_movingai(text, size, 1.0f, &(wf_geom_load_desc){0}, &data),
                         WF_OK);
        assert_int_equal(wf_tilecache_build_grid(tc, wf_grid_data_view(data)), WF_OK);
        wf_grid_data_destroy(data);
    } else {
        wf_geom_data* geom = NULL;
        assert_int_equal(wf_geom_load_obj(text, size, &(wf_geom_load_desc){0}, &geom), WF_OK);
        assert_int_equal(wf_tilecache_build_geom(tc, wf_geom_data_view(geom), NULL, 0), WF_OK);
        wf_geom_data_destroy(geom);
    }
    free(text);
    return tc;
}

static void test_recast_layers_unchanged(void** state) {
    (void)state;
    bool print = getenv("WF_PRINT_LAYER_HASHES") != NULL;
    bool any = false;
    for (size_t i = 0; i < sizeof recorded_hashes / sizeof recorded_hashes[0]; ++i) {
        const level_hash* want = &recorded_hashes[i];
        wf_tilecache* tc = build_level(want);
        if (tc == NULL) {
            continue;
        }
        any = true;
        uint32_t layers = 0;
        uint64_t h = cache_layers_hash(tc, &layers);
        if (print) {
            printf("    {\"%s\", %u, %.1ff, %u, 0x%016llxull},\n", want->name, want->tile_size,
                   (double)want->agent_radius, layers, (unsigned long long)h);
        } else {
            assert_int_equal(layers, want->layers);
            assert_true(h == want->hash);
        }
        wf_tilecache_destroy(tc);
    }
    if (!any) {
        skip();
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recast_layers_unchanged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
