// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The layer split has no region limit: fragmented grids, checkerboards and
// voxel rubble build and route (each would have needed more than 255
// regions in a tile), the worst case fits the stated arena size, and the
// Recast demo levels and Moving AI maps give the same
// layer bytes as the 255-region builder did (hashes recorded from it).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_files.h"
#include "tilecache/tilecache_internal.h"
#include "wayfarer/query.h"
#include "wayfarer/rng.h"
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
/// undulating at tiles of 32 and 48 recorded again when tiles took their
/// border cells from the neighbours that own them (span_pieces.h): there a
/// neighbour had rounded a few border cells differently from the tile.
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
    {"undulating.obj", 32, 0.0f, 130, 0x8a78f4d23ddf940bull},
    {"undulating.obj", 48, 0.0f, 55, 0x929da09e619596ffull},
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
    char* text = test_read_file(path, &size);
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

/* ---------------------------------------------------------------------------
 * Fragmented inputs
 */

/// Grid settings of `wayfarer scen --map`: one cell per metre, no region
/// dropped or merged, an agent as wide as a cell.
static wf_tilecache* grid_cache(uint32_t tile_size) {
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = wf_tilecache_params_recast_demo();
    d.params.cell_size = 1.0f;
    d.params.agent_radius = 0.0f;
    d.params.tile_size = tile_size;
    d.params.min_region_area = 0;
    d.params.merge_region_area = 0;
    d.params.max_edge_length = 0.0f;
    d.params.max_simplification_error = 0.5f;
    wf_tilecache* tc = NULL;
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    return tc;
}

static uint32_t cache_walkable_cells(const wf_tilecache* tc) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < wf_tilecache_layer_count(tc); ++i) {
        wf_tilecache_layer_info info;
        assert_int_equal(wf_tilecache_get_layer_info(tc, i, &info), WF_OK);
        n += info.walkable_cells;
    }
    return n;
}

/// A complete path between two points, and its string-pulled length.
static double path_length(const wf_mesh* mesh, wf_vec3 a, wf_vec3 b) {
    wf_query* q = NULL;
    assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = mesh, .max_nodes = 65535}, &q),
                     WF_OK);
    wf_query_filter filter = wf_query_filter_defaults();
    const wf_vec3 half = wf_v3(0.5f, 2.0f, 0.5f);
    wf_poly_ref start, end;
    wf_vec3 sp, ep;
    assert_int_equal(wf_query_find_nearest_poly(q, a, half, &filter, &start, &sp), WF_OK);
    assert_int_equal(wf_query_find_nearest_poly(q, b, half, &filter, &end, &ep), WF_OK);
    enum { MAX_POLYS = 16384, MAX_POINTS = 4096 };
    wf_poly_ref* path = malloc(MAX_POLYS * sizeof *path);
    wf_straight_point* points = malloc(MAX_POINTS * sizeof *points);
    assert_non_null(path);
    assert_non_null(points);
    wf_path_result pr;
    assert_int_equal(wf_query_find_path(q, start, end, sp, ep, &filter, path, MAX_POLYS, &pr),
                     WF_OK);
    assert_true(pr.count > 0 && path[pr.count - 1].bits == end.bits);
    uint32_t n = 0;
    assert_int_equal(
        wf_query_find_straight_path(q, sp, ep, path, pr.count, points, MAX_POINTS, 0, &n), WF_OK);
    double length = 0.0;
    for (uint32_t k = 1; k < n; ++k) {
        length += wf_v3_distance(points[k - 1].pos, points[k].pos);
    }
    free(points);
    free(path);
    wf_query_destroy(q);
    return length;
}

static wf_mesh* build_mesh(wf_tilecache* tc) {
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    assert_int_equal(wf_tilecache_build_navmesh(tc, mesh), WF_OK);
    return mesh;
}

// The `wayfarer scen --map` failure: 512 x 512 with 10 % of the cells
// blocked at random gives tiles of 64 cells more than 255 regions each.
static void test_random_grid(void** state) {
    (void)state;
    const uint32_t side = 512;
    uint8_t* walkable = malloc((size_t)side * side);
    assert_non_null(walkable);
    wf_rng rng = wf_rng_make(20261125, 1);
    uint32_t open = 0;
    for (uint32_t z = 0; z < side; ++z) {
        for (uint32_t x = 0; x < side; ++x) {
            // The far corners' 3 x 3 stay open so both ends are on the map.
            bool corner = (x < 3 || x >= side - 3) && (z < 3 || z >= side - 3);
            walkable[x + z * side] = corner || wf_rng_next_u32(&rng) % 10u != 0u;
            open += walkable[x + z * side];
        }
    }
    wf_grid grid = {.width = side, .depth = side, .cell_size = 1.0f, .walkable = walkable};
    wf_tilecache* tc = grid_cache(64);
    assert_int_equal(wf_tilecache_build_grid(tc, grid), WF_OK);
    assert_int_equal(cache_walkable_cells(tc), open);
    wf_mesh* mesh = build_mesh(tc);
    wf_vec3 a = wf_v3(1.5f, 0.0f, 1.5f), b = wf_v3(510.5f, 0.0f, 510.5f);
    double length = path_length(mesh, a, b);
    // At least the straight line, and no detour worth the name on a map
    // this open.
    double direct = wf_v3_distance(a, b);
    assert_true(length >= direct - 1e-3);
    assert_true(length <= 1.2 * direct);
    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(tc);
    free(walkable);
}

static uint8_t* checkerboard(uint32_t side, uint32_t* out_open) {
    uint8_t* walkable = malloc((size_t)side * side);
    assert_non_null(walkable);
    *out_open = 0;
    for (uint32_t z = 0; z < side; ++z) {
        for (uint32_t x = 0; x < side; ++x) {
            walkable[x + z * side] = (x + z) % 2u == 0u;
            *out_open += walkable[x + z * side];
        }
    }
    return walkable;
}

// Every walkable cell its own region (cells touching at a corner are not
// connected): one tile of the largest size, then 48-cell tiles.
static void check_checkerboard(uint32_t side, uint32_t tile_size) {
    uint32_t open = 0;
    uint8_t* walkable = checkerboard(side, &open);
    wf_grid grid = {.width = side, .depth = side, .cell_size = 1.0f, .walkable = walkable};
    wf_tilecache* tc = grid_cache(tile_size);
    assert_int_equal(wf_tilecache_build_grid(tc, grid), WF_OK);
    uint32_t tiles = ((side + tile_size - 1) / tile_size) * ((side + tile_size - 1) / tile_size);
    // The cells share no column and one height: one layer per tile.
    assert_int_equal(wf_tilecache_layer_count(tc), tiles);
    assert_int_equal(cache_walkable_cells(tc), open);
    if (tile_size <= 128) {
        // One quad per cell. (At 255 the tile would need 256 x 256 corner
        // vertices, more than a navmesh tile's 16-bit indices hold.)
        wf_mesh* mesh = build_mesh(tc);
        assert_int_equal(wf_mesh_get_stats(mesh).poly_count, open);
        wf_mesh_destroy(mesh);
    }
    wf_tilecache_destroy(tc);
    free(walkable);
}

static void test_checkerboard_255(void** state) {
    (void)state;
    check_checkerboard(255, 255);
}

static void test_checkerboard_48(void** state) {
    (void)state;
    check_checkerboard(96, 48);
}

// The worst case straight through the layer split, in an arena of exactly
// the field, wf_layers_build_scratch_size and the layer it returns.
static void test_worst_case_arena(void** state) {
    (void)state;
    const int32_t tile = (int32_t)WF_LAYER_MAX_SIZE, border = 3, side = tile + 2 * border;
    uint32_t open = 0;
    uint8_t* walkable = checkerboard((uint32_t)side, &open);
    wf_grid grid = {
        .width = (uint32_t)side, .depth = (uint32_t)side, .cell_size = 1.0f, .walkable = walkable};
    size_t field_bytes = (size_t)64 << 20;
    unsigned char* buffer = malloc(field_bytes);
    assert_non_null(buffer);
    wf_arena arena;
    wf_arena_init(&arena, buffer, field_bytes);
    float bmin[3] = {0.0f, -1.0f, 0.0f}, bmax[3] = {(float)side, 1.0f, (float)side};
    wf_heightfield hf;
    assert_int_equal(wf_heightfield_init(&hf, &arena, side, side, bmin, bmax, 1.0f, 0.2f,
                                         (uint32_t)(side * side)),
                     WF_OK);
    assert_int_equal(wf_heightfield_fill_grid(&hf, &grid), WF_OK);
    wf_compact_heightfield chf;
    assert_int_equal(wf_compact_build(&chf, &arena, &hf, border, 10, 4), WF_OK);
    uint32_t interior = 0;
    for (int32_t z = border; z < side - border; ++z) {
        for (int32_t x = border; x < side - border; ++x) {
            interior += walkable[x + z * side];
        }
    }
    size_t cells = (size_t)tile * (size_t)tile;
    size_t need = arena.used + wf_layers_build_scratch_size(chf.span_count) + sizeof(wf_layer) +
                  3u * cells + 64u;
    // Bounded: about a hundred bytes per span, not a set per region pair.
    assert_true(wf_layers_build_scratch_size(chf.span_count) <= (size_t)chf.span_count * 100u);
    wf_arena exact;
    wf_arena_init(&exact, buffer, need);
    exact.used = arena.used;
    wf_layer_set set;
    assert_int_equal(wf_layers_build(&chf, &exact, 0, 0, 10, &set), WF_OK);
    assert_int_equal(set.count, 1);
    uint32_t cells_in_layer = 0;
    for (size_t i = 0; i < cells; ++i) {
        cells_in_layer += set.layers[0].heights[i] != WF_LAYER_EMPTY;
        // No cell connects to another: a region each.
        assert_int_equal(set.layers[0].cons[i] & 0x0fu, 0);
    }
    assert_int_equal(cells_in_layer, interior);
    free(buffer);
    free(walkable);
}

// Voxel rubble: a ground floor strewn with two-cube blocks (their tops are
// islands), under a storey with random holes, so thousands of regions share
// columns with others across two layers.
static void test_voxel_rubble(void** state) {
    (void)state;
    const uint32_t sx = 120, sy = 24, sz = 120;
    uint8_t* solid = calloc((size_t)sx * sy * sz, 1);
    assert_non_null(solid);
    wf_rng rng = wf_rng_make(7, 3);
#define VOXEL(x, y, z) solid[(x) + (z)*sx + (y)*sx * sz]
    for (uint32_t z = 0; z < sz; ++z) {
        for (uint32_t x = 0; x < sx; ++x) {
            VOXEL(x, 0, z) = 1;
            uint32_t roll = wf_rng_next_u32(&rng) % 100u;
            if (roll < 15 && x > 2 && z > 2) {
                VOXEL(x, 1, z) = VOXEL(x, 2, z) = 1;
            }
            // The storey above: 12 % holes; the ground stays open near x = 0.
            if (x >= 8 && wf_rng_next_u32(&rng) % 100u >= 12u) {
                VOXEL(x, 14, z) = 1;
            }
        }
    }
#undef VOXEL
    wf_voxels v = {.size_x = sx, .size_y = sy, .size_z = sz, .cube_size = 0.5f, .solid = solid};
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = wf_tilecache_params_recast_demo();
    d.params.cell_size = 0.5f;
    d.params.cell_height = 0.5f;
    d.params.agent_radius = 0.0f;
    d.params.agent_height = 2.0f;
    d.params.agent_climb = 0.5f;
    d.params.tile_size = 120;
    d.params.min_region_area = 0;
    d.params.merge_region_area = 0;
    wf_tilecache* tc = NULL;
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    assert_int_equal(wf_tilecache_build_voxels(tc, v), WF_OK);
    assert_true(wf_tilecache_layer_count(tc) >= 2);
    wf_mesh* mesh = build_mesh(tc);
    // Across the ground, around the rubble, under the holed storey.
    double length = path_length(mesh, wf_v3(1.25f, 0.5f, 1.25f), wf_v3(1.25f, 0.5f, 58.75f));
    assert_true(length >= 57.5 - 1e-3);
    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(tc);
    free(solid);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recast_layers_unchanged), cmocka_unit_test(test_random_grid),
        cmocka_unit_test(test_checkerboard_48),         cmocka_unit_test(test_checkerboard_255),
        cmocka_unit_test(test_worst_case_arena),        cmocka_unit_test(test_voxel_rubble),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
