// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Fuzz target: a tile-state blob (wf_mesh_restore_tile_state) restored onto
// a tile of the fixture level's navmesh: the tile named by the blob's tile
// x, z and layer when there is one, else the first. A state that restores
// is queried (flags and areas drive the filters), then the tile's own
// state is put back so every input starts from the same mesh.
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "navcore/bytes.h"

#define MAX_TILES 16u

static wf_mesh* g_mesh;
static wf_tile_ref g_tiles[MAX_TILES];
static unsigned char* g_states[MAX_TILES];
static size_t g_state_sizes[MAX_TILES];
static uint32_t g_tile_count;

static void setup(void) {
    g_mesh = fuzz_level_mesh();
    FUZZ_REQUIRE(g_mesh != NULL);
    g_tile_count = wf_mesh_get_tiles(g_mesh, g_tiles, MAX_TILES);
    FUZZ_REQUIRE(g_tile_count >= 1 && g_tile_count <= MAX_TILES);
    for (uint32_t i = 0; i < g_tile_count; ++i) {
        FUZZ_REQUIRE(wf_mesh_tile_state_size(g_mesh, g_tiles[i], &g_state_sizes[i]) == WF_OK);
        g_states[i] = malloc(g_state_sizes[i]);
        FUZZ_REQUIRE(g_states[i] != NULL);
        FUZZ_REQUIRE(wf_mesh_store_tile_state(g_mesh, g_tiles[i], g_states[i], g_state_sizes[i]) ==
                     WF_OK);
    }
}

static uint32_t target_tile(const unsigned char* p, size_t size) {
    if (size >= 20) {
        wf_tile_ref t;
        if (wf_mesh_find_tile(g_mesh, (int32_t)wf_bytes_get_u32(p + 8),
                              (int32_t)wf_bytes_get_u32(p + 12), (int32_t)wf_bytes_get_u32(p + 16),
                              &t) == WF_OK) {
            for (uint32_t i = 0; i < g_tile_count; ++i) {
                if (g_tiles[i].bits == t.bits) {
                    return i;
                }
            }
        }
    }
    return 0;
}

static void run(const unsigned char* p, size_t size, uint64_t seed) {
    uint32_t i = target_tile(p, size);
    wf_status s = wf_mesh_restore_tile_state(g_mesh, g_tiles[i], p, size);
    if (s != WF_OK) {
        FUZZ_REQUIRE(s == WF_ERR_BAD_DATA || s == WF_ERR_VERSION);
        return;
    }
    fuzz_exercise_mesh(g_mesh, seed);
    FUZZ_REQUIRE(wf_mesh_restore_tile_state(g_mesh, g_tiles[i], g_states[i], g_state_sizes[i]) ==
                 WF_OK);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (g_mesh == NULL) {
        setup();
    }
    uint64_t seed = fuzz_seed(data, size);
    unsigned char* p = fuzz_copy(data, size);
    run(p, size, seed);
    fuzz_fix_tile_state(p, size);
    if (size > 0 && memcmp(p, data, size) != 0) {
        run(p, size, seed);
    }
    free(p);
    return 0;
}
