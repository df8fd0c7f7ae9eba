// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The cache file: round trip (same layers, same navmesh), the header laid
// out as documented, damage (every flipped byte, every truncation, forged
// layers behind valid checksums), a codec mismatch, and allocation
// failures at every step of loading.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "navcore/bytes.h"
#include "test_scene.h"
#include "tilecache/layer.h"
#include "wayfarer/tilecache.h"

enum { HEADER = 144, DIR = 24 };

static void ignore_assert(const char* expression, const char* file, int line) {
    (void)expression;
    (void)file;
    (void)line;
}

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
    assert_int_equal(wf_bytes_get_u32(data + 4), 1);
    assert_int_equal(wf_bytes_get_u32(data + 12), wf_layer_codec_lz4().id);
    assert_int_equal(wf_bytes_get_u64(data + 16), size);
    assert_int_equal(wf_bytes_get_u32(data + 24), 5);
    assert_int_equal(wf_bytes_get_u32(data + 28), 2); // tiles x
    assert_int_equal(wf_bytes_get_u32(data + 32), 2); // tiles z
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
    wf_bytes_put_u32(copy + 4, 2);
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

/// FNV-1a of the format: the header and directory with the checksum field
/// read as zero (how cache_file.c documents it).
static void reseal(unsigned char* file, size_t layers) {
    wf_bytes_put_u32(file + 8, 0);
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < HEADER + layers * DIR; ++i) {
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

    wf_assert_fn* old = wf_set_assert_hook(ignore_assert);
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

static void test_load_out_of_memory(void** state) {
    (void)state;
    wf_tilecache* tc = build_scene(make_desc(NULL));
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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_header_layout),
        cmocka_unit_test(test_damage_is_rejected),
        cmocka_unit_test(test_forged_layers_are_rejected),
        cmocka_unit_test(test_load_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
