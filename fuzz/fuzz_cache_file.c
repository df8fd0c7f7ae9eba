// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Fuzz target: a tile cache file (wf_tilecache_load). A cache that loads
// builds its navmesh into a mesh, gets one more obstacle and runs one
// update (its loaded obstacles and the new one are stamped and rebuilt),
// is queried, and saves back to exactly the bytes it was loaded from. Each
// input runs as it is, with its checksums repaired, with its layers
// re-encoded (fuzz_reencode_cache_file), and with one size field (cell
// size, cell height, a bound, the tile size, the tile grid) set to an
// extreme value. The desc's limits are small (1024 tiles, 4 MiB of
// navmesh): what is over them must be refused before the work.
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "navcore/bytes.h"

static void run(const unsigned char* p, size_t size, uint64_t seed) {
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.logger = fuzz_logger();
    d.max_obstacles = FUZZ_MAX_OBSTACLES;
    d.max_pending_requests = FUZZ_MAX_OBSTACLES;
    // Small limits, so huge grids and navmeshes are refused, not built.
    d.max_tiles = 1024;
    d.max_navmesh_bytes = (uint64_t)4 << 20;
    wf_tilecache* tc = NULL;
    wf_status s = wf_tilecache_load(&d, p, size, &tc);
    if (s != WF_OK) {
        FUZZ_REQUIRE(fuzz_is_rejection(s));
        return;
    }
    // Loading validated everything: saving gives the same bytes back.
    size_t saved_size = 0;
    FUZZ_REQUIRE(wf_tilecache_save_size(tc, &saved_size) == WF_OK);
    unsigned char* saved = malloc(saved_size);
    FUZZ_REQUIRE(saved != NULL);
    FUZZ_REQUIRE(wf_tilecache_save(tc, saved, saved_size) == WF_OK);
    if (p[4] == 3 || p[4] == 4) { // the versions the saver writes
        FUZZ_REQUIRE(saved_size == size && memcmp(saved, p, size) == 0);
    } else { // versions 1 and 2 are saved as 3: that file round-trips
        wf_tilecache* again = NULL;
        FUZZ_REQUIRE(wf_tilecache_load(&d, saved, saved_size, &again) == WF_OK);
        size_t again_size = 0;
        FUZZ_REQUIRE(wf_tilecache_save_size(again, &again_size) == WF_OK);
        unsigned char* resaved = malloc(again_size);
        FUZZ_REQUIRE(resaved != NULL);
        FUZZ_REQUIRE(wf_tilecache_save(again, resaved, again_size) == WF_OK);
        FUZZ_REQUIRE(again_size == saved_size && memcmp(resaved, saved, saved_size) == 0);
        free(resaved);
        wf_tilecache_destroy(again);
    }
    free(saved);

    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    md.logger = fuzz_logger();
    wf_mesh* mesh = NULL;
    s = wf_mesh_create(&md, &mesh);
    FUZZ_REQUIRE(s == WF_OK || s == WF_ERR_OUT_OF_MEMORY);
    if (s == WF_OK) {
        s = wf_tilecache_build_navmesh(tc, mesh);
        FUZZ_REQUIRE(wf_succeeded(s) || fuzz_is_rejection(s));
        if (wf_succeeded(s)) {
            wf_tilecache_layer_info info;
            if (wf_tilecache_layer_count(tc) > 0 &&
                wf_tilecache_get_layer_info(tc, 0, &info) == WF_OK) {
                wf_obstacle_desc od;
                memset(&od, 0, sizeof od);
                od.shape = WF_OBSTACLE_CYLINDER;
                od.position = wf_v3(0.5f * info.bmin.x + 0.5f * info.bmax.x, info.bmin.y,
                                    0.5f * info.bmin.z + 0.5f * info.bmax.z);
                od.radius = 0.5f;
                od.height = 2.0f;
                wf_obstacle_id id;
                (void)wf_tilecache_add_obstacle(tc, &od, &id);
            }
            wf_tilecache_budget budget = {0, 0};
            wf_tilecache_update_result r;
            s = wf_tilecache_update(tc, mesh, &budget, &r);
            FUZZ_REQUIRE(wf_succeeded(s) || fuzz_is_rejection(s));
            fuzz_exercise_mesh(mesh, seed);
        }
        wf_mesh_destroy(mesh); // before the cache: updates commit tiles in its memory
    }
    wf_tilecache_destroy(tc);
}

/// Sizes a byte-flipping fuzzer rarely makes of a float field: the limits
/// (1e30), past them, and far beyond (a 1e37 m cell once made an infinite
/// tile width that passed the load).
static const float g_extremes[] = {1e37f,  3e38f,  3.4028235e38f, 2e28f,  2.1e28f, 1e30f,
                                   -1e30f, -3e38f, 1e-38f,        1e-45f, 6.5e4f,  1e9f};

/// Tile sizes and grid sides a byte-flipping fuzzer rarely makes: the
/// largest tile, past it, and grids around the loading desc's max_tiles.
static const uint32_t g_extreme_counts[] = {255, 256, 1, 31, 32, 33, 1024, 65536, 0x7fffffffu};

/// One field of the header (cell size, cell height, a params bound, a
/// world bound, the tile size, the tile grid) set to an extreme size,
/// picked by the input's seed.
static void set_extreme_field(unsigned char* p, uint64_t seed) {
    if ((seed >> 16) % 4u == 0) {
        // The tile size (params word 6) or the grid's tiles x / z.
        static const uint32_t counts_at[] = {64, 28, 32};
        uint32_t at = counts_at[(seed >> 20) % 3u];
        wf_bytes_put_u32(p + at, g_extreme_counts[(seed >> 24) % (sizeof g_extreme_counts /
                                                                  sizeof g_extreme_counts[0])]);
        return;
    }
    // Offsets of the float fields: cell size and height (40, 44), params
    // bounds (88..108), world bounds (112..132); cell size most often.
    static const uint32_t fields[] = {40,  40,  40,  44,  88,  92,  96,  100,
                                      104, 108, 112, 116, 120, 124, 128, 132};
    uint32_t field = fields[seed % (sizeof fields / sizeof fields[0])];
    float v = g_extremes[(seed >> 8) % (sizeof g_extremes / sizeof g_extremes[0])];
    wf_bytes_put_f32(p + field, v);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    uint64_t seed = fuzz_seed(data, size);
    unsigned char* p = fuzz_copy(data, size);
    run(p, size, seed);
    fuzz_fix_cache_file(p, size);
    if (size > 0 && memcmp(p, data, size) != 0) {
        run(p, size, seed);
    }
    // Layers given their hash again and recompressed: their content's
    // mutations reach the layer validation, the builds and the update.
    size_t size2 = 0;
    unsigned char* p2 = fuzz_reencode_cache_file(data, size, &size2);
    if (p2 != NULL && (size2 != size || memcmp(p2, p, size) != 0)) {
        run(p2, size2, seed);
    }
    free(p2);
    // The same file with one size field pushed to an extreme, checksums
    // repaired: every derived size must be checked where it is made.
    if (size >= 144) {
        memcpy(p, data, size);
        set_extreme_field(p, seed);
        fuzz_fix_cache_file(p, size);
        run(p, size, seed);
    }
    free(p);
    return 0;
}
