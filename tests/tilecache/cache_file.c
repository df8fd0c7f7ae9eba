// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The cache file: round trip (same layers, same navmesh), the header laid
// out as documented, obstacles (same ids, descs and stamped navmesh; queued
// requests saved as applied), damage (every flipped byte, every
// truncation, forged layers and obstacles behind valid checksums), a codec
// mismatch, allocation failures at every step of loading, and crafted
// headers whose sizes overflow (cell sizes, cell heights, bounds).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "navcore/bytes.h"
#include "navcore/mesh_internal.h"
#include "test_hooks.h"
#include "test_log_capture.h"
#include "test_scene.h"
#include "tilecache/layer.h"
#include "wayfarer/tilecache.h"

/// Header and directory entry bytes; an obstacle record's fixed part.
enum { HEADER = 144, DIR = 24, RECORD = 60 };

/* A codec that copies: the layer bytes lie in the file as they are, so a
 * test can change one and forge the checksums around it. */
static size_t copy_bound(size_t size, void* user) {
    (void)user;
    return size;
}
static wf_status copy_compress(const void* in, size_t in_size, void* out, size_t capacity,
                               size_t* out_size, void* user) {
    (void)user;
    if (capacity < in_size) {
        return WF_ERR_CAPACITY;
    }
    memcpy(out, in, in_size);
    *out_size = in_size;
    return WF_OK;
}
static wf_status copy_decompress(const void* in, size_t in_size, void* out, size_t out_size,
                                 void* user) {
    (void)user;
    if (in_size != out_size) {
        return WF_ERR_BAD_DATA;
    }
    memcpy(out, in, out_size);
    return WF_OK;
}
static wf_layer_codec copy_codec(void) {
    wf_layer_codec c = {copy_bound, copy_compress, copy_decompress, 0x59504f43u, NULL};
    return c;
}

static wf_tilecache_desc make_desc(counting_allocator* c) {
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.logger.quiet = true;
    if (c != NULL) {
        d.allocator = counting_allocator_hooks(c);
    }
    return d;
}

/// floor_in_bounds with a platform (tests/tilecache/tilecache.c): five layers.
static wf_tilecache* build_scene(wf_tilecache_desc d) {
    test_scene* s = scene_new();
    scene_floor(s, -4.0f, -4.0f, 12.0f, 12.0f, 0.0f);
    scene_floor(s, 1.0f, 1.0f, 3.0f, 3.0f, 3.0f);
    d.params = scene_params();
    d.params.bmin = wf_v3(0.0f, -1.0f, 0.0f);
    d.params.bmax = wf_v3(8.0f, 4.0f, 8.0f);
    wf_tilecache* tc = NULL;
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    assert_int_equal(wf_tilecache_build_geom(tc, scene_geom(s), NULL, 0), WF_OK);
    assert_int_equal(wf_tilecache_layer_count(tc), 5);
    free(s);
    return tc;
}

static unsigned char* save(const wf_tilecache* tc, size_t* size) {
    assert_int_equal(wf_tilecache_save_size(tc, size), WF_OK);
    unsigned char* data = malloc(*size);
    assert_int_equal(wf_tilecache_save(tc, data, *size - 1), WF_ERR_CAPACITY);
    assert_int_equal(wf_tilecache_save(tc, data, *size), WF_OK);
    return data;
}

static unsigned char* save_navmesh(wf_tilecache* tc, size_t* size) {
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    assert_int_equal(wf_tilecache_build_navmesh(tc, mesh), WF_OK);
    assert_int_equal(wf_mesh_save_size(mesh, size), WF_OK);
    unsigned char* data = malloc(*size);
    assert_int_equal(wf_mesh_save(mesh, data, *size), WF_OK);
    wf_mesh_destroy(mesh);
    return data;
}

static void assert_same_cache(const wf_tilecache* a, const wf_tilecache* b) {
    assert_memory_equal(wf_tilecache_get_params(a), wf_tilecache_get_params(b),
                        sizeof(wf_tilecache_params));
    assert_int_equal(wf_tilecache_layer_count(a), wf_tilecache_layer_count(b));
    for (uint32_t i = 0; i < wf_tilecache_layer_count(a); ++i) {
        wf_tilecache_layer_info x, y;
        assert_int_equal(wf_tilecache_get_layer_info(a, i, &x), WF_OK);
        assert_int_equal(wf_tilecache_get_layer_info(b, i, &y), WF_OK);
        assert_memory_equal(&x, &y, sizeof x);
    }
    wf_mesh_desc ma = wf_tilecache_mesh_desc(a), mb = wf_tilecache_mesh_desc(b);
    assert_true(wf_v3_equal(ma.origin, mb.origin) && ma.tile_width == mb.tile_width);
    wf_tilecache_stats sa = wf_tilecache_get_stats(a), sb = wf_tilecache_get_stats(b);
    assert_int_equal(sa.compressed_bytes, sb.compressed_bytes);
    assert_int_equal(sa.walkable_cells, sb.walkable_cells);
}

static void test_round_trip(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tilecache_desc d = make_desc(&c);
    wf_tilecache* tc = build_scene(d);
    size_t size = 0;
    unsigned char* data = save(tc, &size);
    wf_tilecache* loaded = NULL;
    // The desc's params do not matter: the file's replace them.
    assert_int_equal(wf_tilecache_load(&d, data, size, &loaded), WF_OK);
    assert_same_cache(tc, loaded);
    // Saving the loaded cache gives the same bytes.
    size_t again_size = 0;
    unsigned char* again = save(loaded, &again_size);
    assert_int_equal(again_size, size);
    assert_memory_equal(again, data, size);
    // And the same navmesh, blob for blob.
    size_t na = 0, nb = 0;
    unsigned char* mesh_a = save_navmesh(tc, &na);
    unsigned char* mesh_b = save_navmesh(loaded, &nb);
    assert_int_equal(na, nb);
    assert_memory_equal(mesh_a, mesh_b, na);
    free(mesh_a);
    free(mesh_b);
    free(again);
    free(data);
    wf_tilecache_destroy(loaded);
    wf_tilecache_destroy(tc);
    assert_int_equal(counting_allocator_live(&c), 0);
}

static void test_header_layout(void** state) {
    (void)state;
    wf_tilecache* tc = build_scene(make_desc(NULL));
    size_t size = 0;
    unsigned char* data = save(tc, &size);
    assert_memory_equal(data, "WFTC", 4);
    assert_int_equal(wf_bytes_get_u32(data + 4), 3);
    assert_int_equal(wf_bytes_get_u32(data + 36), 0); // no link: no link section
    // No obstacle was ever added: no obstacle section.
    assert_int_equal(wf_bytes_get_u32(data + 136), 0);
    assert_int_equal(wf_bytes_get_u32(data + 140), 0);
    assert_int_equal(wf_bytes_get_u32(data + 12), wf_layer_codec_lz4().id);
    assert_int_equal(wf_bytes_get_u64(data + 16), size);
    assert_int_equal(wf_bytes_get_u32(data + 24), 5);
    assert_int_equal(wf_bytes_get_u32(data + 28), 2);  // tiles x
    assert_int_equal(wf_bytes_get_u32(data + 32), 2);  // tiles z
    assert_true(wf_bytes_get_f32(data + 40) == 0.25f); // cell size, bit for bit
    assert_int_equal(wf_bytes_get_u32(data + 64), 16); // tile size
    // The directory: tile (0, 0) layers 0 and 1 first, sizes of a 16 x 16 layer.
    const unsigned char* dir = data + HEADER;
    assert_int_equal(wf_bytes_get_u32(dir + 8), 0);
    assert_int_equal(wf_bytes_get_u32(dir + DIR + 8), 1);
    assert_int_equal(wf_bytes_get_u32(dir + 2 * DIR), 1); // tile (1, 0)
    size_t data_bytes = 0;
    for (int i = 0; i < 5; ++i) {
        assert_int_equal(wf_bytes_get_u32(dir + i * DIR + 12), 48 + 3 * 256);
        data_bytes += (wf_bytes_get_u32(dir + i * DIR + 16) + 7u) & ~7u;
    }
    assert_int_equal(size, HEADER + 5 * DIR + data_bytes);
    free(data);
    wf_tilecache_destroy(tc);

    // A cache never built saves as a header alone and loads empty.
    wf_tilecache_desc d = make_desc(NULL);
    d.params = scene_params();
    wf_tilecache* empty = NULL;
    assert_int_equal(wf_tilecache_create(&d, &empty), WF_OK);
    assert_int_equal(wf_tilecache_save_size(empty, &size), WF_OK);
    assert_int_equal(size, HEADER);
    unsigned char header[HEADER];
    assert_int_equal(wf_tilecache_save(empty, header, sizeof header), WF_OK);
    wf_tilecache* loaded = NULL;
    assert_int_equal(wf_tilecache_load(&d, header, sizeof header, &loaded), WF_OK);
    assert_int_equal(wf_tilecache_layer_count(loaded), 0);
    wf_tilecache_destroy(loaded);
    wf_tilecache_destroy(empty);
}

static void test_damage_is_rejected(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tilecache_desc d = make_desc(&c);
    wf_tilecache* tc = build_scene(d);
    size_t size = 0;
    unsigned char* data = save(tc, &size);
    unsigned char* copy = malloc(size);
    wf_tilecache* untouched = (wf_tilecache*)(uintptr_t)16;
    // The file is small: every byte, each flipped in two ways.
    for (size_t i = 0; i < size; ++i) {
        for (int m = 0; m < 2; ++m) {
            memcpy(copy, data, size);
            copy[i] ^= m == 0 ? 0x01 : 0x80;
            wf_status s = wf_tilecache_load(&d, copy, size, &untouched);
            assert_true(s == WF_ERR_BAD_DATA || (s == WF_ERR_VERSION && i >= 4 && i < 8));
        }
        assert_int_equal(wf_tilecache_load(&d, data, i, &untouched), WF_ERR_BAD_DATA);
    }
    assert_ptr_equal(untouched, (wf_tilecache*)(uintptr_t)16);
    // A later version is told apart from damage.
    memcpy(copy, data, size);
    wf_bytes_put_u32(copy + 4, 5);
    assert_int_equal(wf_tilecache_load(&d, copy, size, &untouched), WF_ERR_VERSION);
    // Trailing bytes are damage too.
    unsigned char* longer = calloc(1, size + 8);
    memcpy(longer, data, size);
    assert_int_equal(wf_tilecache_load(&d, longer, size + 8, &untouched), WF_ERR_BAD_DATA);
    free(longer);
    free(copy);
    free(data);
    wf_tilecache_destroy(tc);
    assert_int_equal(counting_allocator_live(&c), 0);
}

/// FNV-1a of the format: the header, directory and obstacle section (as
/// long as the header says) with the checksum field read as zero (how
/// cache_file.c documents it).
static void reseal(unsigned char* file, size_t layers) {
    wf_bytes_put_u32(file + 8, 0);
    uint32_t h = 2166136261u;
    size_t end = HEADER + layers * DIR + wf_bytes_get_u32(file + 140);
    for (size_t i = 0; i < end; ++i) {
        h = (h ^ file[i]) * 16777619u;
    }
    wf_bytes_put_u32(file + 8, h);
}

static uint32_t fnv(const unsigned char* p, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; ++i) {
        h = (h ^ p[i]) * 16777619u;
    }
    return h;
}

/// Damage behind valid checksums: the layers themselves are checked.
static void test_forged_layers_are_rejected(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tilecache_desc d = make_desc(&c);
    d.codec = copy_codec();
    wf_tilecache* tc = build_scene(d);
    size_t size = 0;
    unsigned char* data = save(tc, &size);
    unsigned char* copy = malloc(size);
    const size_t raw = 48 + 3 * 256, first = HEADER + 5 * DIR, last_dir = HEADER + 4 * DIR;
    wf_tilecache* out = NULL;
    // Resealing an untouched file changes nothing.
    memcpy(copy, data, size);
    reseal(copy, 5);
    assert_memory_equal(copy, data, size);
    assert_int_equal(wf_tilecache_load(&d, copy, size, &out), WF_OK);
    wf_tilecache_destroy(out);
    // The last entry claims to be layer 1 of its tile: its layer says 0.
    memcpy(copy, data, size);
    wf_bytes_put_u32(copy + last_dir + 8, 1);
    reseal(copy, 5);
    assert_int_equal(wf_tilecache_load(&d, copy, size, &out), WF_ERR_BAD_DATA);
    // Two entries for the same layer.
    memcpy(copy, data, size);
    wf_bytes_put_u32(copy + HEADER + DIR + 8, 0);
    reseal(copy, 5);
    assert_int_equal(wf_tilecache_load(&d, copy, size, &out), WF_ERR_BAD_DATA);
    // A changed cell of the first layer, its file checksum updated: the
    // layer's own checksum still catches it.
    memcpy(copy, data, size);
    copy[first + 100] ^= 1;
    wf_bytes_put_u32(copy + HEADER + 20, fnv(copy + first, raw));
    reseal(copy, 5);
    assert_int_equal(wf_tilecache_load(&d, copy, size, &out), WF_ERR_BAD_DATA);
    // Params no build could use (cell size 0), resealed.
    memcpy(copy, data, size);
    wf_bytes_put_f32(copy + 40, 0.0f);
    reseal(copy, 5);
    assert_int_equal(wf_tilecache_load(&d, copy, size, &out), WF_ERR_BAD_DATA);
    // The file's codec is not the desc's.
    wf_tilecache_desc lz4 = d;
    memset(&lz4.codec, 0, sizeof lz4.codec);
    out = NULL;
    assert_int_equal(wf_tilecache_load(&lz4, data, size, &out), WF_ERR_BAD_DATA);
    assert_null(out);

    wf_assert_fn* old = wf_set_assert_hook(test_ignore_assert);
    assert_int_equal(wf_tilecache_load(NULL, data, size, &out), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_tilecache_load(&d, data, size, NULL), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_tilecache_load(&d, NULL, size, &out), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_tilecache_save(tc, NULL, size), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_tilecache_save_size(NULL, &size), WF_ERR_INVALID_ARG);
    wf_set_assert_hook(old);
    assert_int_equal(wf_tilecache_load(&d, NULL, 0, &out), WF_ERR_BAD_DATA);
    free(copy);
    free(data);
    wf_tilecache_destroy(tc);
    assert_int_equal(counting_allocator_live(&c), 0);
}

/* ---------------------------------------------------------------------------
 * Obstacles in the file
 */

static wf_obstacle_desc obstacle(wf_obstacle_shape shape, float x, float z) {
    wf_obstacle_desc d;
    memset(&d, 0, sizeof d);
    d.shape = shape;
    d.position = wf_v3(x, 0.0f, z);
    d.radius = 0.75f;
    d.height = 2.0f;
    d.half_extents = wf_v3(0.5f, 1.0f, 1.25f);
    d.yaw = 0.3f;
    if (shape == WF_OBSTACLE_PRISM) {
        // A pentagon around (x, z), counter-clockwise seen from above.
        const float px[5] = {0.0f, 1.0f, 0.6f, -0.6f, -1.0f};
        const float pz[5] = {-1.0f, -0.2f, 0.9f, 0.9f, -0.2f};
        for (uint32_t i = 0; i < 5; ++i) {
            d.verts[i] = wf_v3(x + px[i], 0.0f, z + pz[i]);
        }
        d.vert_count = 5;
    }
    return d;
}

/// Every field a shape reads, bit for bit (floats compared as bytes).
static void assert_same_desc(const wf_obstacle_desc* a, const wf_obstacle_desc* b) {
    assert_int_equal(a->shape, b->shape);
    assert_int_equal(a->paint, b->paint);
    assert_int_equal(a->area, b->area);
    assert_int_equal(a->vert_count, b->vert_count);
    assert_memory_equal(&a->position, &b->position, sizeof a->position);
    assert_memory_equal(&a->radius, &b->radius, sizeof a->radius);
    assert_memory_equal(&a->height, &b->height, sizeof a->height);
    assert_memory_equal(&a->half_extents, &b->half_extents, sizeof a->half_extents);
    assert_memory_equal(&a->yaw, &b->yaw, sizeof a->yaw);
    uint32_t points = a->shape == WF_OBSTACLE_PRISM ? a->vert_count : 0;
    assert_memory_equal(a->verts, b->verts, points * sizeof a->verts[0]);
}

/// The obstacles of the file tests: one of each shape on the floor around
/// the platform (a painted box among them), a fifth added and removed and
/// the cylinder moved, all still queued. Slot order: cylinder 0, box 1,
/// oriented box 2, prism 3, removed 4.
typedef struct obstacle_set {
    wf_obstacle_id ids[4];
    wf_obstacle_desc descs[4];
    wf_obstacle_id removed;
} obstacle_set;

static void add_obstacles(wf_tilecache* tc, obstacle_set* set) {
    const wf_obstacle_shape shapes[4] = {WF_OBSTACLE_CYLINDER, WF_OBSTACLE_BOX,
                                         WF_OBSTACLE_ORIENTED_BOX, WF_OBSTACLE_PRISM};
    const float x[4] = {5.5f, 2.0f, 6.0f, 2.5f}, z[4] = {2.0f, 6.0f, 6.0f, 4.5f};
    for (int i = 0; i < 4; ++i) {
        set->descs[i] = obstacle(shapes[i], x[i], z[i]);
        set->descs[i].paint = i == 1;
        set->descs[i].area = i == 1 ? 7 : 0;
        assert_int_equal(wf_tilecache_add_obstacle(tc, &set->descs[i], &set->ids[i]), WF_OK);
    }
    wf_obstacle_desc extra = obstacle(WF_OBSTACLE_CYLINDER, 7.0f, 7.0f);
    assert_int_equal(wf_tilecache_add_obstacle(tc, &extra, &set->removed), WF_OK);
    assert_int_equal(wf_tilecache_remove_obstacle(tc, set->removed), WF_OK);
    set->descs[0].position = wf_v3(5.0f, 0.0f, 2.5f);
    assert_int_equal(wf_tilecache_move_obstacle(tc, set->ids[0], &set->descs[0]), WF_OK);
}

static void update_until_done(wf_tilecache* tc, wf_mesh* mesh) {
    const wf_tilecache_budget unlimited = {0, 0};
    wf_tilecache_update_result r;
    for (int calls = 0;; ++calls) {
        assert_true(wf_succeeded(wf_tilecache_update(tc, mesh, &unlimited, &r)));
        if (r.up_to_date) {
            break;
        }
        assert_true(calls < 100);
    }
}

static void assert_same_obstacles(const wf_tilecache* tc, const obstacle_set* set) {
    assert_int_equal(wf_tilecache_obstacle_count(tc), 4);
    for (int i = 0; i < 4; ++i) {
        wf_obstacle_desc got;
        assert_int_equal(wf_tilecache_get_obstacle(tc, set->ids[i], &got), WF_OK);
        assert_same_desc(&got, &set->descs[i]);
    }
    wf_obstacle_desc ignored;
    assert_int_equal(wf_tilecache_get_obstacle(tc, set->removed, &ignored), WF_ERR_STALE_REF);
}

/// True when every layer's tile in the mesh is the bare layer's (the built
/// part of the blob, before the links the mesh writes).
static bool mesh_is_bare(wf_tilecache* tc, const wf_mesh* mesh) {
    enum { CAPACITY = 1 << 16 };
    unsigned char* blob = aligned_alloc(16, CAPACITY);
    bool same = true;
    for (uint32_t i = 0; i < wf_tilecache_layer_count(tc) && same; ++i) {
        wf_tilecache_layer_info info;
        assert_int_equal(wf_tilecache_get_layer_info(tc, i, &info), WF_OK);
        size_t size = 0;
        wf_status s = wf_tilecache_build_tile(tc, i, blob, CAPACITY, &size);
        assert_true(s == WF_OK || s == WF_ERR_NOT_FOUND);
        wf_tile_ref ref;
        bool present = wf_mesh_find_tile(mesh, info.tile_x, info.tile_z, info.layer, &ref) == WF_OK;
        if (!present || s != WF_OK) {
            same = !present && s != WF_OK;
            continue;
        }
        const wf_mesh_tile* t = &mesh->tiles[wf_poly_ref_tile(wf_poly_ref_from_u64(ref.bits))];
        same = t->size == size && memcmp(t->data, blob, t->header->runtime_offset) == 0;
    }
    free(blob);
    return same;
}

static void test_obstacles_round_trip(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tilecache_desc d = make_desc(&c);
    d.max_obstacles = 16;
    wf_tilecache* tc = build_scene(d);
    size_t plain_size = 0;
    unsigned char* plain = save(tc, &plain_size);
    size_t bare_mesh_size = 0;
    unsigned char* bare_mesh = save_navmesh(tc, &bare_mesh_size);

    obstacle_set set;
    add_obstacles(tc, &set);
    size_t queued_size = 0;
    unsigned char* queued = save(tc, &queued_size);
    assert_int_equal(wf_bytes_get_u32(queued + 4), 3);
    assert_int_equal(wf_bytes_get_u32(queued + 136), 4);
    // Pool: its size word, 6 header words, 16 slots, 12 free slots; four
    // records, the prism's with 5 points; padded to 8.
    size_t section = 4 + 4 * (6 + 16 + 12) + 4 * RECORD + 5 * 12;
    section = (section + 7u) & ~(size_t)7u;
    assert_int_equal(wf_bytes_get_u32(queued + 140), section);
    assert_int_equal(queued_size, plain_size + section);

    // Requests still queued are saved as applied: the file after the
    // update is the same.
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    assert_int_equal(wf_tilecache_build_navmesh(tc, mesh), WF_OK);
    update_until_done(tc, mesh);
    size_t applied_size = 0;
    unsigned char* applied = save(tc, &applied_size);
    assert_int_equal(applied_size, queued_size);
    assert_memory_equal(applied, queued, queued_size);

    wf_tilecache* loaded = NULL;
    assert_int_equal(wf_tilecache_load(&d, queued, queued_size, &loaded), WF_OK);
    assert_same_cache(tc, loaded);
    assert_same_obstacles(loaded, &set);
    // Saving the loaded cache gives the same bytes; the next id is the same.
    size_t again_size = 0;
    unsigned char* again = save(loaded, &again_size);
    assert_int_equal(again_size, queued_size);
    assert_memory_equal(again, queued, queued_size);
    wf_obstacle_desc next = obstacle(WF_OBSTACLE_CYLINDER, 7.0f, 2.0f);
    wf_obstacle_id a, b;
    assert_int_equal(wf_tilecache_add_obstacle(tc, &next, &a), WF_OK);
    assert_int_equal(wf_tilecache_add_obstacle(loaded, &next, &b), WF_OK);
    assert_int_equal(a.bits, b.bits);
    assert_int_equal(wf_tilecache_remove_obstacle(tc, a), WF_OK);
    assert_int_equal(wf_tilecache_remove_obstacle(loaded, b), WF_OK);

    // The loaded obstacles are applied: a fresh navmesh stamps them, the
    // same as the original's, and not the bare one.
    size_t na = 0, nb = 0;
    unsigned char* mesh_a = save_navmesh(tc, &na);
    unsigned char* mesh_b = save_navmesh(loaded, &nb);
    assert_int_equal(na, nb);
    assert_memory_equal(mesh_a, mesh_b, na);
    assert_true(na != bare_mesh_size || memcmp(mesh_a, bare_mesh, na) != 0);
    free(mesh_a);
    free(mesh_b);

    // A desc with fewer obstacle slots than the file's pool cannot hold it;
    // one with more keeps every id.
    wf_tilecache_desc small = d;
    small.max_obstacles = 8;
    wf_tilecache* out = (wf_tilecache*)(uintptr_t)16;
    assert_int_equal(wf_tilecache_load(&small, queued, queued_size, &out), WF_ERR_CAPACITY);
    assert_ptr_equal(out, (wf_tilecache*)(uintptr_t)16);
    wf_tilecache_desc large = d;
    large.max_obstacles = 64;
    assert_int_equal(wf_tilecache_load(&large, queued, queued_size, &out), WF_OK);
    assert_same_obstacles(out, &set);
    wf_tilecache_destroy(out);

    // Removing every obstacle keeps the pool in the file (old ids stay
    // stale after a load) with no record. Loaded obstacles count as
    // applied: removing them rebuilds their layers back to the bare tiles.
    wf_mesh* loaded_mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &loaded_mesh), WF_OK);
    assert_int_equal(wf_tilecache_build_navmesh(loaded, loaded_mesh), WF_OK);
    assert_false(mesh_is_bare(loaded, loaded_mesh));
    for (int i = 0; i < 4; ++i) {
        assert_int_equal(wf_tilecache_remove_obstacle(loaded, set.ids[i]), WF_OK);
    }
    update_until_done(loaded, loaded_mesh);
    assert_true(mesh_is_bare(loaded, loaded_mesh));
    wf_mesh_destroy(loaded_mesh);
    size_t empty_size = 0;
    unsigned char* empty = save(loaded, &empty_size);
    assert_int_equal(wf_bytes_get_u32(empty + 136), 0);
    assert_int_equal(wf_bytes_get_u32(empty + 140), 4 + 4 * (6 + 16 + 16) + 4); // padded
    assert_int_equal(wf_tilecache_load(&d, empty, empty_size, &out), WF_OK);
    assert_int_equal(wf_tilecache_obstacle_count(out), 0);
    wf_obstacle_desc ignored;
    assert_int_equal(wf_tilecache_get_obstacle(out, set.ids[2], &ignored), WF_ERR_STALE_REF);
    size_t nc = 0;
    unsigned char* mesh_c = save_navmesh(out, &nc);
    assert_int_equal(nc, bare_mesh_size);
    assert_memory_equal(mesh_c, bare_mesh, nc);
    free(mesh_c);
    wf_tilecache_destroy(out);

    free(empty);
    free(again);
    free(applied);
    free(queued);
    free(bare_mesh);
    free(plain);
    wf_tilecache_destroy(loaded);
    wf_mesh_destroy(mesh); // before its cache: updates committed tiles in the cache's memory
    wf_tilecache_destroy(tc);
    assert_int_equal(counting_allocator_live(&c), 0);
}

/// Damage in a file with obstacles: every byte flipped and every
/// truncation, as for layers.
static void test_obstacle_damage_is_rejected(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tilecache_desc d = make_desc(&c);
    d.max_obstacles = 8;
    wf_tilecache* tc = build_scene(d);
    obstacle_set set;
    add_obstacles(tc, &set);
    size_t size = 0;
    unsigned char* data = save(tc, &size);
    unsigned char* copy = malloc(size);
    wf_tilecache* untouched = (wf_tilecache*)(uintptr_t)16;
    for (size_t i = 0; i < size; ++i) {
        for (int m = 0; m < 2; ++m) {
            memcpy(copy, data, size);
            copy[i] ^= m == 0 ? 0x01 : 0x80;
            wf_status s = wf_tilecache_load(&d, copy, size, &untouched);
            assert_true(s == WF_ERR_BAD_DATA || (s == WF_ERR_VERSION && i >= 4 && i < 8));
        }
        assert_int_equal(wf_tilecache_load(&d, data, i, &untouched), WF_ERR_BAD_DATA);
    }
    assert_ptr_equal(untouched, (wf_tilecache*)(uintptr_t)16);
    free(copy);
    free(data);
    wf_tilecache_destroy(tc);
    assert_int_equal(counting_allocator_live(&c), 0);
}

/// Forges one change into the obstacle section of `data`, reseals, loads.
typedef void forge_fn(unsigned char* file, size_t section_at, size_t records_at);

static wf_status load_forged(const wf_tilecache_desc* d, const unsigned char* data, size_t size,
                             forge_fn* forge) {
    unsigned char* copy = malloc(size);
    memcpy(copy, data, size);
    size_t section_at = HEADER + 5 * DIR;
    forge(copy, section_at, section_at + 4 + wf_bytes_get_u32(copy + section_at));
    reseal(copy, 5);
    wf_tilecache* out = NULL;
    wf_status s = wf_tilecache_load(d, copy, size, &out);
    if (s == WF_OK) {
        wf_tilecache_destroy(out);
    } else {
        assert_null(out);
    }
    free(copy);
    return s;
}

// Records: cylinder at records_at, box at + RECORD, oriented box at
// + 2 RECORD, prism at + 3 RECORD (its points after RECORD bytes).
static void forge_nothing(unsigned char* f, size_t s, size_t r) { (void)f, (void)s, (void)r; }
static void forge_nan_radius(unsigned char* f, size_t s, size_t r) {
    (void)s;
    wf_bytes_put_f32(f + r + 36, NAN);
}
static void forge_zero_height(unsigned char* f, size_t s, size_t r) {
    (void)s;
    wf_bytes_put_f32(f + r + 40, 0.0f);
}
static void forge_shape(unsigned char* f, size_t s, size_t r) {
    (void)s;
    wf_bytes_put_u32(f + r + 8, 4);
}
static void forge_flags(unsigned char* f, size_t s, size_t r) {
    (void)s;
    wf_bytes_put_u32(f + r + 12, 2);
}
static void forge_paint_area(unsigned char* f, size_t s, size_t r) {
    (void)s;
    wf_bytes_put_u32(f + r + RECORD + 16, 64); // the painted box: areas are 0..63
}
static void forge_concave_prism(unsigned char* f, size_t s, size_t r) {
    (void)s;
    size_t p = r + 3 * RECORD + RECORD; // first point moved inside the outline
    wf_bytes_put_f32(f + p, wf_bytes_get_f32(f + p + 12 * 2));
    wf_bytes_put_f32(f + p + 8, wf_bytes_get_f32(f + p + 12 * 2 + 8) - 0.5f);
}
static void forge_prism_count(unsigned char* f, size_t s, size_t r) {
    (void)s;
    wf_bytes_put_u32(f + r + 3 * RECORD + 20, 33);
}
static void forge_stale_id(unsigned char* f, size_t s, size_t r) {
    (void)s;
    uint64_t id = wf_bytes_get_u64(f + r + RECORD);
    wf_bytes_put_u64(f + r + RECORD, id + ((uint64_t)1 << 32)); // next generation
}
static void forge_wrong_kind(unsigned char* f, size_t s, size_t r) {
    (void)s;
    uint64_t id = wf_bytes_get_u64(f + r);
    wf_bytes_put_u64(f + r, (id & ~((uint64_t)0xff << 56)) | ((uint64_t)2 << 56));
}
static void forge_same_id_twice(unsigned char* f, size_t s, size_t r) {
    (void)s;
    wf_bytes_put_u64(f + r + RECORD, wf_bytes_get_u64(f + r));
}
static void forge_fewer_records(unsigned char* f, size_t s, size_t r) {
    (void)s, (void)r;
    wf_bytes_put_u32(f + 136, 3);
}
static void forge_more_records(unsigned char* f, size_t s, size_t r) {
    (void)s, (void)r;
    wf_bytes_put_u32(f + 136, 5);
}
static void forge_outside(unsigned char* f, size_t s, size_t r) {
    (void)s;
    wf_bytes_put_f32(f + r + 24, 100.0f); // x: far beyond the 8 m world
}
static void forge_pool_size(unsigned char* f, size_t s, size_t r) {
    (void)r;
    wf_bytes_put_u32(f + s, wf_bytes_get_u32(f + s) + 4);
}
static void forge_pool_kind(unsigned char* f, size_t s, size_t r) {
    (void)r;
    wf_bytes_put_u32(f + s + 4 + 8, 2); // the pool's kind word: agents
}
static void forge_padding(unsigned char* f, size_t s, size_t r) {
    (void)r;
    size_t end = s + wf_bytes_get_u32(f + 140);
    f[end - 1] = 1;
}

static void test_forged_obstacles_are_rejected(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tilecache_desc d = make_desc(&c);
    d.max_obstacles = 8;
    wf_tilecache* tc = build_scene(d);
    obstacle_set set;
    add_obstacles(tc, &set);
    size_t size = 0;
    unsigned char* data = save(tc, &size);
    // Untouched but resealed: loads. The section has no padding here (4 +
    // 4 * (6 + 8 + 4) + 4 * 60 + 5 * 12 = 376), so that case comes below.
    assert_int_equal(load_forged(&d, data, size, forge_nothing), WF_OK);
    forge_fn* const bad[] = {
        forge_nan_radius, forge_zero_height,   forge_shape,         forge_flags,
        forge_paint_area, forge_concave_prism, forge_prism_count,   forge_stale_id,
        forge_wrong_kind, forge_same_id_twice, forge_fewer_records, forge_more_records,
        forge_outside,    forge_pool_size,     forge_pool_kind,
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        assert_int_equal(load_forged(&d, data, size, bad[i]), WF_ERR_BAD_DATA);
    }
    free(data);

    // A prism of 3 points makes the raw section 4 bytes short of a
    // multiple of 8 (each record is 60 bytes, each point 12, and the pool
    // loses a free-list word per live obstacle): 4 bytes of padding.
    wf_obstacle_desc tri = obstacle(WF_OBSTACLE_PRISM, 6.0f, 4.0f);
    tri.vert_count = 3;
    tri.verts[0] = wf_v3(5.0f, 0.0f, 3.0f);
    tri.verts[1] = wf_v3(7.0f, 0.0f, 3.0f);
    tri.verts[2] = wf_v3(6.0f, 0.0f, 5.0f);
    wf_obstacle_id id;
    assert_int_equal(wf_tilecache_add_obstacle(tc, &tri, &id), WF_OK);
    data = save(tc, &size);
    assert_int_equal(wf_bytes_get_u32(data + 140), 376 + 60 + 3 * 12 - 4 + 4);
    assert_int_equal(load_forged(&d, data, size, forge_nothing), WF_OK);
    assert_int_equal(load_forged(&d, data, size, forge_padding), WF_ERR_BAD_DATA);
    free(data);

    // A version 1 file (no obstacle section) still loads; one that claims
    // a section does not.
    wf_tilecache* plain = build_scene(d);
    data = save(plain, &size);
    wf_bytes_put_u32(data + 4, 1);
    reseal(data, 5);
    wf_tilecache* out = NULL;
    assert_int_equal(wf_tilecache_load(&d, data, size, &out), WF_OK);
    assert_int_equal(wf_tilecache_obstacle_count(out), 0);
    wf_tilecache_destroy(out);
    free(data);
    wf_tilecache_destroy(plain);
    data = save(tc, &size);
    wf_bytes_put_u32(data + 4, 1);
    reseal(data, 5);
    assert_int_equal(wf_tilecache_load(&d, data, size, &out), WF_ERR_BAD_DATA);
    free(data);
    wf_tilecache_destroy(tc);
    assert_int_equal(counting_allocator_live(&c), 0);
}

static void test_load_out_of_memory(void** state) {
    (void)state;
    wf_tilecache* tc = build_scene(make_desc(NULL));
    obstacle_set set;
    add_obstacles(tc, &set); // the id pool's load allocates too
    size_t size = 0;
    unsigned char* data = save(tc, &size);
    wf_tilecache_destroy(tc);
    for (unsigned long k = 1;; ++k) {
        counting_allocator c;
        counting_allocator_init(&c);
        c.fail_at = k;
        wf_tilecache_desc d = make_desc(&c);
        wf_tilecache* loaded = NULL;
        wf_status s = wf_tilecache_load(&d, data, size, &loaded);
        if (s == WF_OK) {
            assert_int_equal(wf_tilecache_layer_count(loaded), 5);
            wf_tilecache_destroy(loaded);
            assert_int_equal(counting_allocator_live(&c), 0);
            // Every allocation of a load was made to fail once.
            assert_true(k > 5);
            break;
        }
        assert_int_equal(s, WF_ERR_OUT_OF_MEMORY);
        assert_null(loaded);
        assert_int_equal(counting_allocator_live(&c), 0);
        assert_true(k < 1000);
    }
    free(data);
}

/* A cache file written field by field (docs/formats.md): header only, no
 * layer, no obstacle, the params of the Recast demo but the cell size. */
static void put_crafted_header(unsigned char* f, float cell_size, float cell_height) {
    memset(f, 0, HEADER);
    memcpy(f, "WFTC", 4);
    wf_bytes_put_u32(f + 4, 2);                        // version
    wf_bytes_put_u32(f + 12, wf_layer_codec_lz4().id); // the default codec
    wf_bytes_put_u64(f + 16, HEADER);                  // file size
    const float params[6] = {cell_size, cell_height, 2.0f, 0.6f, 0.9f, 45.0f};
    for (int i = 0; i < 6; ++i) {
        wf_bytes_put_f32(f + 40 + 4 * i, params[i]);
    }
    wf_bytes_put_u32(f + 64, 48);    // tile size
    wf_bytes_put_u32(f + 68, 64);    // min region area
    wf_bytes_put_u32(f + 72, 400);   // merge region area
    wf_bytes_put_f32(f + 76, 12.0f); // max edge length
    wf_bytes_put_f32(f + 80, 1.3f);  // max simplification error
    wf_bytes_put_u32(f + 84, 6);     // verts per poly
    reseal(f, 0);                    // layer count, tiles, bounds and obstacles stay 0
}

/// Every message since the last reset, one a line.
/// Found by fuzz_cache_file: a 144-byte file with cells of 1e37 m and tiles
/// of 48 cells (a tile 4.8e38 m wide: infinite in floats) passed every
/// check, then wf_mesh_create asserted on the cache's mesh desc. It is bad
/// data, refused before anything is made. The same file with 0.3 m cells
/// loads (so the bytes are right). Kept as the fuzz seed
/// fuzz/corpus/cache_file/regress_infinite_tile_width.wfc.
static void test_infinite_tile_width_is_bad_data(void** state) {
    (void)state;
    unsigned char f[HEADER];
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tilecache_desc d = make_desc(&c);
    test_log_capture logs = {0};
    d.logger.quiet = false;
    d.logger.log = test_capture_log;
    d.logger.user = &logs;
    wf_tilecache* tc = NULL;
    put_crafted_header(f, 0.3f, 0.2f);
    assert_int_equal(wf_tilecache_load(&d, f, sizeof f, &tc), WF_OK);
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(tc);
    assert_int_equal(logs.count, 0);

    // Cells whose tile is infinite or past the limit, and cell heights
    // past it; the default assert hook stays: no check may fire.
    const struct {
        float cell_size, cell_height;
        const char* setting;
    } cases[] = {
        {1e37f, 0.2f, "cell_size"},   {3e38f, 0.2f, "cell_size"},      {2.1e28f, 0.2f, "cell_size"},
        {0.3f, 3e38f, "cell_height"}, {0.3f, INFINITY, "cell_height"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        put_crafted_header(f, cases[i].cell_size, cases[i].cell_height);
        logs.count = 0;
        logs.all[0] = '\0';
        tc = (wf_tilecache*)(uintptr_t)16;
        assert_int_equal(wf_tilecache_load(&d, f, sizeof f, &tc), WF_ERR_BAD_DATA);
        assert_ptr_equal(tc, (wf_tilecache*)(uintptr_t)16);
        assert_true(logs.count >= 1);
        if (strstr(logs.all, cases[i].setting) == NULL) {
            print_error("case %zu: log '%s' lacks '%s'\n", i, logs.all, cases[i].setting);
            fail();
        }
    }
    // 2e28 m cells make 9.6e29 m tiles: below the limit, they load.
    put_crafted_header(f, 2e28f, 0.2f);
    assert_int_equal(wf_tilecache_load(&d, f, sizeof f, &tc), WF_OK);
    md = wf_tilecache_mesh_desc(tc);
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(tc);
    assert_int_equal(counting_allocator_live(&c), 0);
}

/// World bounds in the file (params and the built world's) past +-1e30 m,
/// or needing more tiles than a cache covers: bad data.
static void test_huge_bounds_are_bad_data(void** state) {
    (void)state;
    unsigned char f[HEADER];
    wf_tilecache_desc d = make_desc(NULL);
    wf_tilecache* tc = NULL;
    // Params bounds: beyond the limit, and 1e9 m with 14.4 m tiles.
    const float far[2][6] = {{-3e38f, 0.0f, 0.0f, 3e38f, 1.0f, 1.0f},
                             {0.0f, 0.0f, 0.0f, 1e9f, 1.0f, 1e9f}};
    for (int k = 0; k < 2; ++k) {
        put_crafted_header(f, 0.3f, 0.2f);
        for (int i = 0; i < 6; ++i) {
            wf_bytes_put_f32(f + 88 + 4 * i, far[k][i]);
        }
        reseal(f, 0);
        assert_int_equal(wf_tilecache_load(&d, f, sizeof f, &tc), WF_ERR_BAD_DATA);
    }
    // The world's heights (Y is not tied to the tile width): past 1e30.
    put_crafted_header(f, 0.3f, 0.2f);
    wf_bytes_put_f32(f + 112 + 4, -3e38f);
    reseal(f, 0);
    assert_int_equal(wf_tilecache_load(&d, f, sizeof f, &tc), WF_ERR_BAD_DATA);
    wf_bytes_put_f32(f + 112 + 4, -1e29f);
    reseal(f, 0);
    assert_int_equal(wf_tilecache_load(&d, f, sizeof f, &tc), WF_OK);
    wf_tilecache_destroy(tc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_header_layout),
        cmocka_unit_test(test_damage_is_rejected),
        cmocka_unit_test(test_forged_layers_are_rejected),
        cmocka_unit_test(test_load_out_of_memory),
        cmocka_unit_test(test_obstacles_round_trip),
        cmocka_unit_test(test_obstacle_damage_is_rejected),
        cmocka_unit_test(test_forged_obstacles_are_rejected),
        cmocka_unit_test(test_infinite_tile_width_is_bad_data),
        cmocka_unit_test(test_huge_bounds_are_bad_data),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
