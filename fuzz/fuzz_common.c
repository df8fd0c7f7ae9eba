// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Helpers of the fuzz targets (see fuzz_common.h).
#include "fuzz_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "navcore/bytes.h"
#include "navcore/hash.h"
#include "navcore/tile_format.h"
#include "tilecache/layer.h"

/* ---------------------------------------------------------------------------
 * Logger, seed, copies
 */

static void drop_log(wf_log_level level, const char* message, void* user) {
    (void)level;
    (void)message;
    (void)user;
}

wf_logger fuzz_logger(void) {
    wf_logger l;
    memset(&l, 0, sizeof l);
    l.log = drop_log;
    return l;
}

void fuzz_fail(const char* what, const char* file, int line) {
    fprintf(stderr, "fuzz: requirement failed: %s (%s:%d)\n", what, file, line);
    abort();
}

bool fuzz_is_rejection(wf_status s) {
    return s == WF_ERR_BAD_DATA || s == WF_ERR_VERSION || s == WF_ERR_OUT_OF_MEMORY ||
           s == WF_ERR_CAPACITY;
}

uint64_t fuzz_seed(const uint8_t* data, size_t size) {
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < size; ++i) {
        h = (h ^ data[i]) * 1099511628211ull;
    }
    return h;
}

unsigned char* fuzz_copy(const uint8_t* data, size_t size) {
    unsigned char* p = malloc(size > 0 ? size : 1);
    if (p == NULL) {
        abort();
    }
    if (size > 0) {
        memcpy(p, data, size);
    }
    return p;
}

/* ---------------------------------------------------------------------------
 * Checksums (docs/formats.md)
 */

// The library's own checksums (navcore/hash.h): a fixed-up input must
// pass exactly the check the library makes.

void fuzz_fix_tile(unsigned char* p, size_t size) {
    if (size < sizeof(wf_tile_header)) {
        return;
    }
    uint32_t runtime_offset;
    memcpy(&runtime_offset, p + offsetof(wf_tile_header, runtime_offset), 4);
    if (runtime_offset > size) {
        return;
    }
    uint32_t sum = wf_tile_checksum(p, runtime_offset);
    memcpy(p + offsetof(wf_tile_header, checksum), &sum, 4);
}

static uint32_t mesh_hash(const unsigned char* p, size_t size, size_t at) {
    uint32_t h = wf_fnv1a32_zeroed(p, size, at, 4);
    return h ^ (h >> 16);
}

void fuzz_fix_tile_state(unsigned char* p, size_t size) {
    if (size >= 28) {
        wf_bytes_put_u32(p + 24, mesh_hash(p, size, 24));
    }
}

static size_t pad_to(size_t n, size_t align) { return (n + align - 1) / align * align; }

void fuzz_fix_mesh_save(unsigned char* p, size_t size) {
    if (size < 48) {
        return;
    }
    uint32_t count = wf_bytes_get_u32(p + 40);
    size_t at = 48;
    for (uint32_t i = 0; i < count && size - at >= 16; ++i) {
        size_t blob = wf_bytes_get_u32(p + at + 8), state = wf_bytes_get_u32(p + at + 12);
        at += 16;
        if (blob > size - at) {
            break;
        }
        fuzz_fix_tile(p + at, blob);
        if (pad_to(blob, 16) > size - at) {
            break;
        }
        at += pad_to(blob, 16);
        if (state > size - at) {
            break;
        }
        fuzz_fix_tile_state(p + at, state);
        if (pad_to(state, 16) > size - at) {
            break;
        }
        at += pad_to(state, 16);
    }
    wf_bytes_put_u32(p + 12, mesh_hash(p, size, 12));
}

void fuzz_fix_cache_file(unsigned char* p, size_t size) {
    if (size < 144) {
        return;
    }
    uint32_t count = wf_bytes_get_u32(p + 24);
    if (count > (size - 144) / 24) {
        return;
    }
    size_t dir_end = 144 + (size_t)count * 24, section = wf_bytes_get_u32(p + 140);
    if (section > size - dir_end) {
        return;
    }
    size_t at = dir_end + section;
    for (uint32_t i = 0; i < count; ++i) {
        unsigned char* d = p + 144 + (size_t)i * 24;
        size_t packed = wf_bytes_get_u32(d + 16);
        if (packed > size - at) {
            break;
        }
        wf_bytes_put_u32(d + 20, wf_fnv1a32(WF_FNV32_OFFSET, p + at, packed));
        if (pad_to(packed, 8) > size - at) {
            break;
        }
        at += pad_to(packed, 8);
    }
    wf_bytes_put_u32(p + 8, wf_fnv1a32_zeroed(p, dir_end + section, 8, 4));
}

unsigned char* fuzz_reencode_cache_file(const unsigned char* p, size_t size, size_t* out_size) {
    if (size < 144) {
        return NULL;
    }
    uint32_t count = wf_bytes_get_u32(p + 24);
    if (count > (size - 144) / 24) {
        return NULL;
    }
    size_t dir_end = 144 + (size_t)count * 24, section = wf_bytes_get_u32(p + 140);
    if (section > size - dir_end) {
        return NULL;
    }
    // Every layer can grow to the codec's bound of the largest raw layer.
    wf_layer_codec codec = wf_layer_codec_lz4();
    const size_t max_raw = 48u + 3u * 255u * 255u;
    size_t bound = codec.max_compressed_size(max_raw, NULL);
    size_t capacity = dir_end + section + (size_t)count * (bound + 8u);
    unsigned char* out = malloc(capacity);
    unsigned char* raw = malloc(max_raw);
    unsigned char* packed = malloc(bound);
    if (out == NULL || raw == NULL || packed == NULL) {
        abort();
    }
    memcpy(out, p, dir_end + section);
    size_t at = dir_end + section, put = at;
    for (uint32_t i = 0; i < count; ++i) {
        unsigned char* d = out + 144 + (size_t)i * 24;
        size_t raw_size = wf_bytes_get_u32(d + 12), n = wf_bytes_get_u32(d + 16);
        if (n > size - at) {
            free(out);
            out = NULL;
            break;
        }
        const unsigned char* layer = p + at;
        size_t packed_size = n;
        if (raw_size <= max_raw && n > 0 &&
            codec.decompress(layer, n, raw, raw_size, NULL) == WF_OK) {
            fuzz_fix_layer(raw, raw_size);
            if (codec.compress(raw, raw_size, packed, bound, &packed_size, NULL) == WF_OK) {
                layer = packed;
            } else {
                packed_size = n;
            }
        }
        memcpy(out + put, layer, packed_size);
        memset(out + put + packed_size, 0, pad_to(packed_size, 8) - packed_size);
        wf_bytes_put_u32(d + 16, (uint32_t)packed_size);
        put += pad_to(packed_size, 8);
        at += pad_to(n, 8) <= size - at ? pad_to(n, 8) : size - at;
    }
    free(raw);
    free(packed);
    if (out != NULL) {
        wf_bytes_put_u64(out + 16, put);
        fuzz_fix_cache_file(out, put);
        *out_size = put;
    }
    return out;
}

void fuzz_fix_crowd_save(unsigned char* p, size_t size) {
    if (size >= 24) {
        wf_bytes_put_u64(p + 16, wf_fnv1a64_zeroed(p, size, 16, 8));
    }
}

void fuzz_fix_world_save(unsigned char* p, size_t size) {
    if (size < 48) {
        return;
    }
    uint64_t room = size - 48;
    uint64_t tc = wf_bytes_get_u64(p + 16), mesh = wf_bytes_get_u64(p + 24);
    uint64_t crowd = wf_bytes_get_u64(p + 32);
    if (tc <= room && mesh <= room - tc && crowd <= room - tc - mesh) {
        fuzz_fix_cache_file(p + 48, (size_t)tc);
        fuzz_fix_mesh_save(p + 48 + tc, (size_t)mesh);
        fuzz_fix_crowd_save(p + 48 + tc + mesh, (size_t)crowd);
    }
    wf_bytes_put_u64(p + 40, wf_fnv1a64_zeroed(p, size, 40, 8));
}

void fuzz_fix_layer(unsigned char* p, size_t size) {
    if (size < 48) {
        return;
    }
    // Word-wise FNV-1a, the hash word as zero, then an avalanche
    // (layer_format.c).
    static const unsigned char zero[4] = {0};
    uint32_t h = wf_fnv1a32_words(WF_FNV32_OFFSET, p, 44);
    h = wf_fnv1a32_words(h, zero, 4);
    h = wf_fnv1a32_words(h, p + 48, size - 48);
    wf_bytes_put_u32(p + 44, wf_hash_fmix32(h));
}

/* ---------------------------------------------------------------------------
 * Queries
 */

#define EXERCISE_TILES 16u
#define EXERCISE_POLYS 64u
#define EXERCISE_ROUNDS 4u

static bool finite3(wf_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

/// Centre and half size of a tile's bounds, kept finite for huge bounds.
static void tile_box(const wf_tile_info* info, wf_vec3* centre, wf_vec3* half) {
    const float lo[3] = {info->bmin.x, info->bmin.y, info->bmin.z};
    const float hi[3] = {info->bmax.x, info->bmax.y, info->bmax.z};
    float c[3], e[3];
    for (int i = 0; i < 3; ++i) {
        c[i] = 0.5f * lo[i] + 0.5f * hi[i];
        e[i] = fabsf(0.5f * hi[i] - 0.5f * lo[i]);
        if (!isfinite(c[i])) {
            c[i] = 0.0f;
        }
        if (!isfinite(e[i]) || e[i] > 1e6f) {
            e[i] = 1e6f;
        }
        e[i] += 1.0f;
    }
    *centre = wf_v3(c[0], c[1], c[2]);
    *half = wf_v3(e[0], e[1], e[2]);
}

void fuzz_exercise_mesh(const wf_mesh* mesh, uint64_t seed) {
    wf_query* q = NULL;
    wf_query_desc qd;
    memset(&qd, 0, sizeof qd);
    qd.mesh = mesh;
    qd.max_nodes = 256;
    if (wf_query_create(&qd, &q) != WF_OK) {
        return;
    }
    wf_rng rng = wf_rng_make(seed, 7);
    wf_query_filter filter = wf_query_filter_defaults();
    filter.area_cost[1] = 2.0f;
    filter.area_cost[2] = 0.5f;

    wf_tile_ref tiles[EXERCISE_TILES];
    uint32_t tile_count = wf_mesh_get_tiles(mesh, tiles, EXERCISE_TILES);
    tile_count = tile_count < EXERCISE_TILES ? tile_count : EXERCISE_TILES;
    wf_poly_ref polys[EXERCISE_POLYS];
    uint32_t poly_count = 0;
    wf_vec3 centre = wf_v3(0.0f, 0.0f, 0.0f), half = wf_v3(1.0f, 1.0f, 1.0f);
    for (uint32_t t = 0; t < tile_count; ++t) {
        wf_tile_info info;
        if (wf_mesh_get_tile_info(mesh, tiles[t], &info) != WF_OK) {
            continue;
        }
        tile_box(&info, &centre, &half);
        wf_poly_ref near;
        wf_vec3 point;
        (void)wf_query_find_nearest_poly(q, centre, half, &filter, &near, &point);
        wf_poly_ref boxed[8];
        uint32_t boxed_count;
        (void)wf_query_find_polys_in_box(q, centre, half, &filter, boxed, 8, &boxed_count);
        // Ground polygons only: an off-mesh link as a query's start is misuse.
        for (uint32_t i = 0; i < info.poly_count && poly_count < EXERCISE_POLYS; ++i) {
            polys[poly_count++] = wf_mesh_poly_ref(mesh, tiles[t], i);
        }
    }
    for (uint32_t round = 0; round < EXERCISE_ROUNDS && poly_count > 0; ++round) {
        wf_poly_ref a = polys[wf_rng_below(&rng, poly_count)];
        wf_poly_ref b = polys[wf_rng_below(&rng, poly_count)];
        wf_vec3 pa, pb;
        bool inside;
        if (wf_query_closest_point_on_poly(q, a, centre, &pa, &inside) != WF_OK ||
            wf_query_closest_point_on_poly(q, b, centre, &pb, &inside) != WF_OK || !finite3(pa) ||
            !finite3(pb)) {
            continue;
        }
        float height;
        (void)wf_query_poly_height(q, a, pa, &height);
        wf_poly_ref path[32];
        wf_path_result pr;
        memset(&pr, 0, sizeof pr);
        if (wf_succeeded(wf_query_find_path(q, a, b, pa, pb, &filter, path, 32, &pr)) &&
            pr.count > 0) {
            wf_straight_point points[12];
            uint32_t point_count;
            (void)wf_query_find_straight_path(q, pa, pb, path, pr.count, points, 12, round % 3u,
                                              &point_count);
        }
        bool exists;
        (void)wf_query_path_exists(q, a, b, pa, pb, &filter, &exists);
        wf_poly_ref visited[16];
        wf_raycast_hit hit;
        (void)wf_query_raycast(q, a, pa, pb, &filter, visited, 16, &hit);
        wf_vec3 moved;
        uint32_t visited_count;
        (void)wf_query_move_along_surface(q, a, pa, pb, &filter, &moved, visited, 16,
                                          &visited_count);
        float radius = wf_rng_range(&rng, 0.5f, 8.0f);
        wf_poly_ref around[16], parents[16];
        float costs[16];
        uint32_t around_count;
        (void)wf_query_find_polys_around_circle(q, a, pa, radius, &filter, around, parents, costs,
                                                16, &around_count);
        (void)wf_query_find_local_neighbourhood(q, a, pa, radius, &filter, around, parents, 16,
                                                &around_count);
        wf_vec3 segments[2 * 8];
        wf_poly_ref across[8];
        uint32_t segment_count;
        (void)wf_query_get_poly_wall_segments(q, a, &filter, segments, across, 8, &segment_count);
        float distance;
        wf_vec3 hit_pos, hit_normal;
        (void)wf_query_find_distance_to_wall(q, a, pa, radius, &filter, &distance, &hit_pos,
                                             &hit_normal);
        wf_poly_ref random_ref;
        wf_vec3 random_point;
        (void)wf_query_find_random_point(q, &filter, &rng, &random_ref, &random_point);
        (void)wf_query_find_random_point_around(q, a, pa, radius, &filter, &rng, &random_ref,
                                                &random_point);
        wf_vec3 lo = wf_v3(pb.x - 0.5f, pb.y - 1.0f, pb.z - 0.5f);
        wf_vec3 hi = wf_v3(pb.x + 0.5f, pb.y + 1.0f, pb.z + 0.5f);
        wf_vec3 goal;
        if (finite3(lo) && finite3(hi)) {
            (void)wf_query_find_path_to_box(q, a, pa, lo, hi, &filter, path, 32, &pr, &goal);
        }
        uint32_t goal_index;
        (void)wf_query_find_nearest_goal(q, a, pa, polys, poly_count < 8 ? poly_count : 8, &filter,
                                         &goal_index, path, 32, &pr);
        // Time-sliced search, finished with the partial-path variant.
        if (wf_query_begin_path(q, a, b, pa, pb, &filter) == WF_OK) {
            uint32_t iterations;
            (void)wf_query_update_path(q, 8, &iterations);
            (void)wf_query_finish_partial_path(q, polys, poly_count < 4 ? poly_count : 4, path, 32,
                                               &pr);
        }
    }
    wf_query_destroy(q);
}

/* ---------------------------------------------------------------------------
 * Fixtures
 */

#define LEVEL_SIDE 16u // grid cells of 0.5 m

wf_tilecache_params fuzz_level_params(void) {
    wf_tilecache_params p;
    memset(&p, 0, sizeof p);
    p.cell_size = FUZZ_LAYER_CS;
    p.cell_height = FUZZ_LAYER_CH;
    p.agent_height = 2.0f;
    p.agent_radius = 0.5f;
    p.agent_climb = 0.5f;
    p.agent_max_slope = 45.0f;
    p.tile_size = 16;
    p.min_region_area = 4;
    p.merge_region_area = 16;
    p.max_simplification_error = 1.0f;
    p.max_verts_per_poly = 6;
    return p;
}

wf_grid fuzz_level_grid(void) {
    static uint8_t walkable[LEVEL_SIDE * LEVEL_SIDE];
    static uint8_t areas[LEVEL_SIDE * LEVEL_SIDE];
    for (uint32_t z = 0; z < LEVEL_SIDE; ++z) {
        for (uint32_t x = 0; x < LEVEL_SIDE; ++x) {
            // A wall across x = 4 m with a gap between z = 5 and 7 m; a
            // patch of area 1 (mud) in one corner.
            bool wall = (x == 8 || x == 9) && (z < 10 || z > 13);
            walkable[z * LEVEL_SIDE + x] = wall ? 0 : 1;
            areas[z * LEVEL_SIDE + x] = (x < 4 && z < 4) ? 1 : 0;
        }
    }
    wf_grid g;
    memset(&g, 0, sizeof g);
    g.width = LEVEL_SIDE;
    g.depth = LEVEL_SIDE;
    g.cell_size = 0.5f;
    g.walkable = walkable;
    g.areas = areas;
    return g;
}

wf_tilecache* fuzz_level_cache(void) {
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = fuzz_level_params();
    d.max_obstacles = FUZZ_MAX_OBSTACLES;
    d.max_pending_requests = FUZZ_MAX_OBSTACLES;
    d.logger = fuzz_logger();
    wf_tilecache* tc = NULL;
    if (wf_tilecache_create(&d, &tc) != WF_OK) {
        return NULL;
    }
    if (wf_tilecache_build_grid(tc, fuzz_level_grid()) != WF_OK) {
        wf_tilecache_destroy(tc);
        return NULL;
    }
    return tc;
}

unsigned char* fuzz_level_cache_file(size_t* out_size) {
    wf_tilecache* tc = fuzz_level_cache();
    size_t size = 0;
    unsigned char* bytes = NULL;
    if (tc != NULL && wf_tilecache_save_size(tc, &size) == WF_OK) {
        bytes = malloc(size);
        if (bytes != NULL && wf_tilecache_save(tc, bytes, size) != WF_OK) {
            free(bytes);
            bytes = NULL;
        }
    }
    wf_tilecache_destroy(tc);
    *out_size = size;
    return bytes;
}

wf_mesh* fuzz_level_mesh(void) {
    wf_tilecache* tc = fuzz_level_cache();
    if (tc == NULL) {
        return NULL;
    }
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    md.logger = fuzz_logger();
    wf_mesh* mesh = NULL;
    if (wf_mesh_create(&md, &mesh) == WF_OK && wf_tilecache_build_navmesh(tc, mesh) != WF_OK) {
        wf_mesh_destroy(mesh);
        mesh = NULL;
    }
    wf_tilecache_destroy(tc);
    return mesh;
}

wf_crowd_desc fuzz_crowd_desc(void) {
    wf_crowd_desc d;
    memset(&d, 0, sizeof d);
    d.max_agents = 4;
    d.max_agent_radius = 0.5f;
    d.logger = fuzz_logger();
    d.max_corridor = 16;
    d.max_neighbours = 4;
    d.max_walls = 4;
    d.max_searches = 2;
    d.max_search_nodes = 64;
    d.path_iterations_per_update = 16; // searches span several updates
    d.quick_search_iterations = 2;
    return d;
}

wf_agent_params fuzz_agent_params(void) {
    wf_agent_params p = wf_agent_params_defaults();
    p.radius = 0.4f;
    p.collision_query_range = 4.0f;
    p.path_optimization_range = 8.0f;
    return p;
}

wf_world* fuzz_level_world(void) {
    size_t size = 0;
    unsigned char* file = fuzz_level_cache_file(&size);
    if (file == NULL) {
        return NULL;
    }
    wf_world_desc d;
    memset(&d, 0, sizeof d);
    d.cache_data = file;
    d.cache_size = size;
    d.worker_count = 1;
    d.max_obstacles = FUZZ_MAX_OBSTACLES;
    d.max_pending_requests = FUZZ_MAX_OBSTACLES;
    d.crowd = fuzz_crowd_desc();
    d.logger = fuzz_logger();
    wf_world* w = NULL;
    if (wf_world_create(&d, &w) != WF_OK) {
        w = NULL;
    }
    free(file);
    return w;
}
