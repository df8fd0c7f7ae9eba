// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Writes the fuzz targets' seed corpora: small valid inputs of every kind,
// made by the library itself from the fixtures in fuzz_common.c.
//
//     build-fuzz/fuzz/make_corpus fuzz/corpus
//
// writes fuzz/corpus/<target>/<name> for each target (see docs/reliability.md).
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"
#include "navcore/bytes.h"
#include "tilecache/layer.h"

static const char* g_root;

static void check(bool ok, const char* what) {
    if (!ok) {
        fprintf(stderr, "make_corpus: %s failed\n", what);
        exit(1);
    }
}

/// The binary seeds must load: a seed the loader refuses only tests its
/// first checks (the crowd and world seeds go stale when the crowd's
/// layout changes, see docs/reliability.md).
static void verify_seed(const char* target, const void* data, size_t size) {
    wf_status s = WF_OK;
    if (strcmp(target, "tile") == 0) {
        void* copy = aligned_alloc(16, (size + 15u) & ~(size_t)15u);
        check(copy != NULL, "copy");
        memcpy(copy, data, size);
        s = wf_tile_validate(copy, size);
        free(copy);
    } else if (strcmp(target, "mesh_save") == 0) {
        wf_mesh_desc d;
        memset(&d, 0, sizeof d);
        wf_mesh* mesh = NULL;
        s = wf_mesh_load(&d, data, size, &mesh);
        wf_mesh_destroy(mesh);
    } else if (strcmp(target, "cache_file") == 0) {
        wf_tilecache_desc d;
        memset(&d, 0, sizeof d);
        d.max_obstacles = FUZZ_MAX_OBSTACLES;
        wf_tilecache* tc = NULL;
        s = wf_tilecache_load(&d, data, size, &tc);
        wf_tilecache_destroy(tc);
    } else if (strcmp(target, "crowd") == 0) {
        wf_mesh* mesh = fuzz_level_mesh();
        wf_crowd_desc d = fuzz_crowd_desc();
        d.mesh = mesh;
        wf_crowd* crowd = NULL;
        check(mesh != NULL && wf_crowd_create(&d, &crowd) == WF_OK, "crowd");
        s = wf_crowd_restore(crowd, data, size);
        wf_crowd_destroy(crowd);
        wf_mesh_destroy(mesh);
    } else if (strcmp(target, "world") == 0) {
        wf_world* w = fuzz_level_world();
        check(w != NULL, "world");
        s = wf_world_restore(w, data, size);
        wf_world_destroy(w);
    }
    if (s != WF_OK) {
        fprintf(stderr, "make_corpus: a %s seed does not load: %s\n", target, wf_status_string(s));
        exit(1);
    }
}

static void write_seed(const char* target, const char* name, const void* data, size_t size) {
    verify_seed(target, data, size);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", g_root, target);
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "make_corpus: cannot create %s\n", path);
        exit(1);
    }
    snprintf(path, sizeof path, "%s/%s/%s", g_root, target, name);
    FILE* f = fopen(path, "wb");
    if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        fprintf(stderr, "make_corpus: cannot write %s\n", path);
        exit(1);
    }
    printf("%-40s %7zu bytes\n", path, size);
}

static void write_text(const char* target, const char* name, const char* text) {
    write_seed(target, name, text, strlen(text));
}

/* ---------------------------------------------------------------------------
 * Text formats
 */

static void obj_seeds(void) {
    // A 6 x 6 m floor, a box on it and a ramp up to a platform.
    write_text("obj", "floor_box_ramp.obj",
               "# floor\n"
               "v 0 0 0\nv 0 0 6\nv 6 0 6\nv 6 0 0\n"
               "f 1 2 3 4\n"
               "o box\n"
               "v 2 0 2\nv 2 0 3\nv 3 0 3\nv 3 0 2\n"
               "v 2 1.5 2\nv 2 1.5 3\nv 3 1.5 3\nv 3 1.5 2\n"
               "f 9 10 11 12\nf 5 9 12 8\nf 6 7 11 10\nf 5 6 10 9\nf 8 12 11 7\n"
               "g ramp\n"
               "v 4 0 0.5\nv 4 0 1.5\nv 6 1 1.5\nv 6 1 0.5\n"
               "f -4/1 -3/2 -2/3 -1/4\n");
    // Other corner forms, CRLF, comments after data, a w coordinate.
    write_text("obj", "corner_forms.obj",
               "v -2 0 -2 1.0\r\nv -2 0 2\r\nv 2 0 2\r\nv 2 0 -2 # corner\r\n"
               "vt 0 0\r\nvn 0 1 0\r\nusemtl floor\r\ns off\r\n"
               "f 1/1/1 2/1/1 3/1/1\r\nf 1//1 3//1 4//1\r\n");
    // Hardening II, denial of service (docs/reliability.md): the 58-byte
    // square of 29.49 km (4.2 million tiles; now refused by max_tiles) and
    // 1,023 copies of one 300 m triangle (now refused by max_cells).
    write_text("obj", "regress_huge_square.obj",
               "v 0 0 0\nv 29490 0 0\nv 29490 0 29490\nv 0 0 29490\nf 1 2 3 4\n");
    static char repeated[128 + 8 * 1023];
    int n = snprintf(repeated, sizeof repeated, "v 0 0 0\nv 300 0 0\nv 0 0 300\n");
    for (int i = 0; i < 1023; ++i) {
        n += snprintf(repeated + n, sizeof repeated - (size_t)n, "f 1 3 2\n");
    }
    write_text("obj", "regress_repeated_triangle.obj", repeated);
    // Areas: a floor, a water strip a road crosses, materials and groups
    // (some not in fuzz_obj's table), a name with blanks, `usemtl` alone.
    write_text("obj", "areas.obj",
               "v 0 0 0\nv 0 0 3\nv 6 0 3\nv 6 0 0\nv 0 0 4\nv 6 0 4\nv 0 0 8\nv 6 0 8\n"
               "g floor\nf 1 2 3 4\n"
               "usemtl water\nf 2 5 6 3\n"
               "g road bridge\nusemtl Deep Water\nf 2 5 6\n"
               "usemtl\ng lava\nf 5 7 8 6\n");
}

static void movingai_seeds(void) {
    write_text("movingai", "rooms.map",
               "type octile\nheight 12\nwidth 16\nmap\n"
               "................\n"
               "................\n"
               "..@@@@@@..@@@@..\n"
               "..@....@..@..@..\n"
               "..@....@..@..@..\n"
               "..@..........@..\n"
               "..@@@@.@@@@@@@..\n"
               "................\n"
               "TTTT........WWWW\n"
               "TTTT..G..S..WWWW\n"
               "................\n"
               "................\n");
    write_text("movingai", "crlf_width_first.map",
               "type octile\r\nwidth 5\r\nheight 3\r\nmap\r\n.@.@.\r\n.....\r\nO.T.S\r\n");
}

static void polyanya_seeds(void) {
    // The square (0,0)-(1.5,1.5) cut along a diagonal (meshes/format.txt).
    write_text("polyanya", "square.mesh",
               "mesh\n2\n4 2\n"
               "0.0 0.0 2 0 -1\n1.5 0.0 3 0 1 -1\n1.5 1.5 2 1 -1\n0.0 1.5 3 -1 1 0\n"
               "3 0 1 3 -1 -1 1\n3 1 2 3 0 -1 -1\n");
    // An octagon: one polygon above WF_MAX_VERTS_PER_POLY vertices.
    write_text("polyanya", "octagon.mesh",
               "mesh 2 8 1\n"
               "2 0 0\n4 0 0\n6 2 0\n6 4 0\n4 6 0\n2 6 0\n0 4 0\n0 2 0\n"
               "8 0 1 2 3 4 5 6 7 -1 -1 -1 -1 -1 -1 -1 -1\n");
    // Three squares in an L, clockwise polygons (the importer turns them).
    write_text("polyanya", "l_shape.mesh",
               "mesh\n2\n8 3\n"
               "0 0 1 0\n2 0 2 0 1\n4 0 1 1\n0 2 2 0 2\n2 2 3 0 1 2\n4 2 1 1\n"
               "0 4 1 2\n2 4 1 2\n"
               "4 0 3 4 1 -1 2 1 -1\n"
               "4 1 4 5 2 0 -1 -1 -1\n"
               "4 3 6 7 4 -1 -1 -1 0\n");
}

/* ---------------------------------------------------------------------------
 * Binary formats
 */

/// A 3 x 3 m tile of nine 1 m squares with height detail (a centre vertex
/// per square, raised) and a bidirectional off-mesh link across it.
static void* detail_tile(size_t* out_size) {
    float verts[16 * 3];
    for (int z = 0; z < 4; ++z) {
        for (int x = 0; x < 4; ++x) {
            float* v = &verts[3 * (z * 4 + x)];
            v[0] = (float)x;
            v[1] = 0.1f * (float)x;
            v[2] = (float)z;
        }
    }
    uint16_t polys[9 * WF_MAX_VERTS_PER_POLY];
    uint32_t detail[9 * 4];
    float detail_verts[9 * 3];
    uint8_t tris[9 * 4 * 4];
    uint8_t areas[9];
    uint16_t flags[9];
    for (int z = 0; z < 3; ++z) {
        for (int x = 0; x < 3; ++x) {
            int i = z * 3 + x;
            uint16_t* p = &polys[WF_MAX_VERTS_PER_POLY * i];
            for (int k = 0; k < WF_MAX_VERTS_PER_POLY; ++k) {
                p[k] = WF_NULL_INDEX;
            }
            p[0] = (uint16_t)(z * 4 + x);
            p[1] = (uint16_t)((z + 1) * 4 + x);
            p[2] = (uint16_t)((z + 1) * 4 + x + 1);
            p[3] = (uint16_t)(z * 4 + x + 1);
            detail[4 * i + 0] = (uint32_t)i;      // vert base
            detail[4 * i + 1] = 1;                // vert count
            detail[4 * i + 2] = 4u * (uint32_t)i; // tri base
            detail[4 * i + 3] = 4;                // tri count
            detail_verts[3 * i + 0] = (float)x + 0.5f;
            detail_verts[3 * i + 1] = 0.1f * ((float)x + 0.5f) + 0.05f;
            detail_verts[3 * i + 2] = (float)z + 0.5f;
            for (int t = 0; t < 4; ++t) {
                uint8_t* tri = &tris[4 * (4 * i + t)];
                tri[0] = (uint8_t)t;
                tri[1] = (uint8_t)((t + 1) % 4);
                tri[2] = 4; // the detail vertex
                tri[3] = 0;
            }
            areas[i] = (uint8_t)(i % 3);
            flags[i] = (uint16_t)(i == 4 ? 3 : 1);
        }
    }
    wf_offmesh_link_desc link;
    memset(&link, 0, sizeof link);
    link.start = wf_v3(0.5f, 0.0f, 0.5f);
    link.end = wf_v3(2.5f, 0.3f, 2.5f);
    link.radius = 0.4f;
    link.bidirectional = true;
    link.area = 2;
    link.flags = 1;
    link.user_id = 7;
    wf_tile_build_desc d;
    memset(&d, 0, sizeof d);
    d.bmin = wf_v3(0.0f, -1.0f, 0.0f);
    d.bmax = wf_v3(3.0f, 1.0f, 3.0f);
    d.verts = verts;
    d.vert_count = 16;
    d.polys = polys;
    d.poly_count = 9;
    d.areas = areas;
    d.flags = flags;
    d.detail_meshes = detail;
    d.detail_verts = detail_verts;
    d.detail_vert_count = 9;
    d.detail_tris = tris;
    d.detail_tri_count = 36;
    d.offmesh_links = &link;
    d.offmesh_link_count = 1;
    d.walkable_height = 2.0f;
    d.walkable_radius = 0.5f;
    d.walkable_climb = 0.5f;
    d.user_id = 42;
    void* blob = NULL;
    check(wf_tile_build(&d, &blob, out_size) == WF_OK, "detail tile");
    return blob;
}

static void* mesh_save_bytes(const wf_mesh* mesh, size_t* out_size) {
    check(wf_mesh_save_size(mesh, out_size) == WF_OK, "mesh save size");
    void* bytes = malloc(*out_size);
    check(bytes != NULL && wf_mesh_save(mesh, bytes, *out_size) == WF_OK, "mesh save");
    return bytes;
}

static void tile_and_mesh_seeds(void) {
    // Tiles the tile cache builds from the level's layers.
    wf_tilecache* tc = fuzz_level_cache();
    check(tc != NULL, "level cache");
    static const char* const names[] = {"level_layer0.tile", "level_layer3.tile"};
    const uint32_t layers[] = {0, 3};
    for (int i = 0; i < 2; ++i) {
        size_t size = 0;
        static _Alignas(16) unsigned char blob[64 << 10];
        check(wf_tilecache_build_tile(tc, layers[i], blob, sizeof blob, &size) == WF_OK,
              "level tile");
        write_seed("tile", names[i], blob, size);
    }
    wf_tilecache_destroy(tc);

    size_t detail_size = 0;
    void* detail = detail_tile(&detail_size);
    write_seed("tile", "detail_offmesh.tile", detail, detail_size);

    // The detail tile in a mesh, one polygon's flags and area changed.
    wf_mesh_desc md;
    memset(&md, 0, sizeof md);
    md.tile_width = 3.0f;
    md.tile_depth = 3.0f;
    md.max_tiles = 4;
    wf_mesh* mesh = NULL;
    check(wf_mesh_create(&md, &mesh) == WF_OK, "mesh");
    wf_tile_ref tile;
    check(wf_mesh_add_tile(mesh, detail, detail_size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0},
                           &tile) == WF_OK,
          "add detail tile");
    check(wf_mesh_set_poly_flags(mesh, wf_mesh_poly_ref(mesh, tile, 4), 2) == WF_OK, "flags");
    size_t size = 0;
    void* bytes = mesh_save_bytes(mesh, &size);
    write_seed("mesh_save", "detail_offmesh.wfms", bytes, size);
    free(bytes);
    wf_mesh_destroy(mesh);

    // The level's navmesh: a state per tile kind, the whole mesh.
    mesh = fuzz_level_mesh();
    check(mesh != NULL, "level mesh");
    wf_tile_ref tiles[4];
    uint32_t n = wf_mesh_get_tiles(mesh, tiles, 4);
    check(n >= 2, "level tiles");
    wf_tile_info info;
    check(wf_mesh_get_tile_info(mesh, tiles[1], &info) == WF_OK, "tile info");
    check(wf_mesh_set_poly_flags(mesh, wf_mesh_poly_ref(mesh, tiles[1], 0), 4) == WF_OK &&
              wf_mesh_set_poly_area(mesh, wf_mesh_poly_ref(mesh, tiles[1], info.poly_count - 1),
                                    5) == WF_OK,
          "level flags");
    for (uint32_t i = 0; i < 2; ++i) {
        size_t state_size = 0;
        check(wf_mesh_tile_state_size(mesh, tiles[i], &state_size) == WF_OK, "state size");
        unsigned char* state = malloc(state_size);
        check(state != NULL && wf_mesh_store_tile_state(mesh, tiles[i], state, state_size) == WF_OK,
              "state");
        write_seed("tile_state", i == 0 ? "level_tile0.wfts" : "level_tile1_changed.wfts", state,
                   state_size);
        free(state);
    }
    bytes = mesh_save_bytes(mesh, &size);
    write_seed("mesh_save", "level.wfms", bytes, size);
    free(bytes);
    wf_mesh_destroy(mesh);
}

/// A hostile cache of layers whose areas alternate per cell (every cell
/// its own region and polygon), small: 2 x 2 layers of 64 x 64 cells, a
/// file of a few KB whose navmesh is about a hundred times bigger. The
/// fuzz target loads it with a small max_navmesh_bytes, so the byte limit
/// is exercised from the first run.
static void alternating_areas_seed(void) {
    enum { TILES = 2, TILE = 64, SIDE = TILES * TILE };
    static uint8_t walkable[SIDE * SIDE], areas[SIDE * SIDE];
    for (uint32_t i = 0; i < SIDE * SIDE; ++i) {
        walkable[i] = 1;
        areas[i] = (uint8_t)(1u + (i % SIDE + i / SIDE) % 2u);
    }
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = fuzz_level_params();
    d.params.cell_size = 1.0f;
    d.params.agent_radius = 0.0f;
    d.params.tile_size = TILE;
    d.params.min_region_area = 0;
    d.params.merge_region_area = 0;
    wf_tilecache* tc = NULL;
    wf_grid grid = {
        .width = SIDE, .depth = SIDE, .cell_size = 1.0f, .walkable = walkable, .areas = areas};
    check(wf_tilecache_create(&d, &tc) == WF_OK && wf_tilecache_build_grid(tc, grid) == WF_OK,
          "alternating areas cache");
    size_t size = 0;
    check(wf_tilecache_save_size(tc, &size) == WF_OK, "alternating areas size");
    unsigned char* file = malloc(size);
    check(file != NULL && wf_tilecache_save(tc, file, size) == WF_OK, "alternating areas save");
    write_seed("cache_file", "regress_alternating_areas.wfc", file, size);
    free(file);
    wf_tilecache_destroy(tc);
}

static void layer_and_cache_seeds(void) {
    size_t size = 0;
    unsigned char* file = fuzz_level_cache_file(&size);
    check(file != NULL, "level cache file");
    write_seed("cache_file", "level.wfc", file, size);
    alternating_areas_seed();

    // The compressed layers, straight from the file's directory, and one
    // decompressed (a serialized layer: the target takes both).
    uint32_t count = wf_bytes_get_u32(file + 24);
    size_t at = 144 + (size_t)count * 24 + wf_bytes_get_u32(file + 140);
    for (uint32_t i = 0; i < count; ++i) {
        const unsigned char* dir = file + 144 + (size_t)i * 24;
        uint32_t raw = wf_bytes_get_u32(dir + 12), packed = wf_bytes_get_u32(dir + 16);
        if (i == 0 || i == 2) {
            char name[64];
            snprintf(name, sizeof name, "level_layer%u.lz4", i);
            write_seed("layer", name, file + at, packed);
        }
        if (i == 1) {
            unsigned char* layer = malloc(raw);
            wf_layer_codec codec = wf_layer_codec_lz4();
            check(layer != NULL && codec.decompress(file + at, packed, layer, raw, NULL) == WF_OK,
                  "decompress");
            write_seed("layer", "level_layer1.wfly", layer, raw);
            free(layer);
        }
        at += (packed + 7u) & ~7u;
    }
    free(file);

    // The level with obstacles: a cylinder, a painted box and a prism,
    // applied by an update (the file's obstacle section).
    wf_tilecache* tc = fuzz_level_cache();
    check(tc != NULL, "level cache");
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    wf_mesh* mesh = NULL;
    check(wf_mesh_create(&md, &mesh) == WF_OK && wf_tilecache_build_navmesh(tc, mesh) == WF_OK,
          "level navmesh");
    wf_obstacle_desc od;
    memset(&od, 0, sizeof od);
    od.shape = WF_OBSTACLE_CYLINDER;
    od.position = wf_v3(2.0f, 0.0f, 6.0f);
    od.radius = 0.5f;
    od.height = 2.0f;
    wf_obstacle_id id;
    check(wf_tilecache_add_obstacle(tc, &od, &id) == WF_OK, "cylinder");
    memset(&od, 0, sizeof od);
    od.shape = WF_OBSTACLE_BOX;
    od.paint = true;
    od.area = 2;
    od.position = wf_v3(6.5f, 0.5f, 2.0f);
    od.half_extents = wf_v3(0.75f, 1.0f, 0.5f);
    check(wf_tilecache_add_obstacle(tc, &od, &id) == WF_OK, "box");
    memset(&od, 0, sizeof od);
    od.shape = WF_OBSTACLE_PRISM;
    od.position = wf_v3(0.0f, 0.0f, 0.0f);
    od.height = 1.5f;
    od.verts[0] = wf_v3(6.0f, 0.0f, 6.0f);
    od.verts[1] = wf_v3(6.5f, 0.0f, 7.0f);
    od.verts[2] = wf_v3(7.0f, 0.0f, 6.0f);
    od.vert_count = 3;
    check(wf_tilecache_add_obstacle(tc, &od, &id) == WF_OK, "prism");
    wf_tilecache_budget budget = {0, 0};
    wf_tilecache_update_result r;
    check(wf_succeeded(wf_tilecache_update(tc, mesh, &budget, &r)), "update");
    check(wf_tilecache_save_size(tc, &size) == WF_OK, "save size");
    file = malloc(size);
    check(file != NULL && wf_tilecache_save(tc, file, size) == WF_OK, "save");
    write_seed("cache_file", "level_obstacles.wfc", file, size);
    free(file);
    // Then off-mesh links too (the file's link section, version 3).
    wf_offmesh_link_desc links[2];
    memset(links, 0, sizeof links);
    links[0].start = wf_v3(1.5f, 0.0f, 1.5f); // over the wall at x = 4 m
    links[0].end = wf_v3(6.5f, 0.0f, 6.5f);
    links[0].radius = 0.5f;
    links[0].bidirectional = true;
    links[0].flags = 1;
    links[0].user_id = 3;
    links[1] = links[0];
    links[1].start = wf_v3(7.0f, 0.0f, 1.0f);
    links[1].end = wf_v3(6.0f, 0.0f, 4.5f);
    links[1].bidirectional = false;
    links[1].area = 4;
    links[1].user_id = 9;
    check(wf_tilecache_add_links(tc, links, 2) == WF_OK, "links");
    check(wf_tilecache_save_size(tc, &size) == WF_OK, "save size");
    file = malloc(size);
    check(file != NULL && wf_tilecache_save(tc, file, size) == WF_OK, "save");
    write_seed("cache_file", "level_links.wfc", file, size);
    free(file);
    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(tc);
}

static const wf_vec3 g_starts[3] = {{1.5f, 0.0f, 1.5f}, {2.0f, 0.0f, 6.5f}, {6.5f, 0.0f, 1.5f}};
static const wf_vec3 g_targets[3] = {{7.0f, 0.0f, 7.0f}, {6.5f, 0.0f, 3.0f}, {1.0f, 0.0f, 7.0f}};

static void crowd_seeds(void) {
    wf_mesh* mesh = fuzz_level_mesh();
    check(mesh != NULL, "level mesh");
    wf_crowd_desc d = fuzz_crowd_desc();
    d.mesh = mesh;
    wf_crowd* crowd = NULL;
    check(wf_crowd_create(&d, &crowd) == WF_OK, "crowd");
    wf_agent_params p = fuzz_agent_params();
    for (int i = 0; i < 3; ++i) {
        wf_agent_id id;
        check(wf_crowd_add_agent(crowd, g_starts[i], &p, &id) == WF_OK, "agent");
        if (i < 2) {
            check(wf_crowd_request_move(crowd, id, g_targets[i], NULL, NULL) == WF_OK, "move");
        } else {
            check(wf_crowd_request_velocity(crowd, id, wf_v3(0.0f, 0.0f, 1.0f)) == WF_OK,
                  "velocity");
        }
    }
    for (int pass = 0; pass < 2; ++pass) {
        // Right after the requests (searches queued or in progress), then
        // a second later (agents walking their corridors).
        size_t size = 0;
        check(wf_crowd_save_size(crowd, &size) == WF_OK, "crowd save size");
        unsigned char* bytes = malloc(size);
        check(bytes != NULL && wf_crowd_save(crowd, bytes, size) == WF_OK, "crowd save");
        write_seed("crowd", pass == 0 ? "requested.wfcr" : "walking.wfcr", bytes, size);
        free(bytes);
        for (int f = 0; f < 30; ++f) {
            check(wf_crowd_update(crowd, 1.0f / 30.0f, NULL) == WF_OK, "crowd update");
        }
    }
    wf_crowd_destroy(crowd);
    wf_mesh_destroy(mesh);
}

static void world_seeds(void) {
    wf_world* w = fuzz_level_world();
    check(w != NULL, "world");
    wf_agent_params p = fuzz_agent_params();
    for (int i = 0; i < 3; ++i) {
        wf_agent_id id;
        check(wf_crowd_add_agent(wf_world_crowd(w), g_starts[i], &p, &id) == WF_OK, "agent");
        check(wf_crowd_request_move(wf_world_crowd(w), id, g_targets[i], NULL, NULL) == WF_OK,
              "move");
    }
    wf_obstacle_desc od;
    memset(&od, 0, sizeof od);
    od.shape = WF_OBSTACLE_CYLINDER;
    od.position = wf_v3(6.0f, 0.0f, 5.0f);
    od.radius = 0.4f;
    od.height = 2.0f;
    wf_obstacle_id id;
    check(wf_tilecache_add_obstacle(wf_world_tilecache(w), &od, &id) == WF_OK, "obstacle");
    for (int f = 0; f < 3; ++f) {
        check(wf_world_step(w, 1.0f / 30.0f, NULL, NULL) == WF_OK, "step");
    }
    size_t size = 0;
    check(wf_world_save_size(w, &size) == WF_OK, "world save size");
    unsigned char* bytes = malloc(size);
    check(bytes != NULL && wf_world_save(w, bytes, size) == WF_OK, "world save");
    write_seed("world", "level_walking.wfwd", bytes, size);
    free(bytes);
    wf_world_destroy(w);
}

int main(int argc, char** argv) {
    g_root = argc > 1 ? argv[1] : "fuzz/corpus";
    if (mkdir(g_root, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "make_corpus: cannot create %s\n", g_root);
        return 1;
    }
    obj_seeds();
    movingai_seeds();
    polyanya_seeds();
    tile_and_mesh_seeds();
    layer_and_cache_seeds();
    crowd_seeds();
    world_seeds();
    return 0;
}
