// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// A triangle build in bands of tile rows: a level 64 tiles wide or more is
// built one tile row at a time (its pieces made and let go as the rows
// pass), and each tile gets the layers it gets when the whole level is one
// band.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tilecache/tilecache_internal.h"
#include "wayfarer/tilecache.h"

enum { BOXES = 120, MAX_VERTS = BOXES * 8 + 8, MAX_TRIS = BOXES * 10 + 4 };

typedef struct level {
    float verts[MAX_VERTS * 3];
    uint32_t tris[MAX_TRIS * 3];
    uint32_t vert_count, tri_count;
} level;

static uint32_t add_vert(level* l, float x, float y, float z) {
    assert_true(l->vert_count < MAX_VERTS);
    float* v = &l->verts[l->vert_count * 3u];
    v[0] = x;
    v[1] = y;
    v[2] = z;
    return l->vert_count++;
}

static void add_tri(level* l, uint32_t a, uint32_t b, uint32_t c) {
    assert_true(l->tri_count < MAX_TRIS);
    uint32_t* t = &l->tris[l->tri_count * 3u];
    t[0] = a;
    t[1] = b;
    t[2] = c;
    l->tri_count++;
}

/// A floor 48 x 24 m and boxes on it (some tall, some steps) from a fixed
/// sequence: ten 16-cell tiles by five at 0.3 m cells.
static void make_level(level* l) {
    memset(l, 0, sizeof *l);
    uint32_t f0 = add_vert(l, 0, 0, 0), f1 = add_vert(l, 0, 0, 24);
    uint32_t f2 = add_vert(l, 48, 0, 24), f3 = add_vert(l, 48, 0, 0);
    add_tri(l, f0, f1, f2);
    add_tri(l, f0, f2, f3);
    uint32_t seed = 4242u;
    for (int b = 0; b < BOXES; ++b) {
        seed = seed * 1664525u + 1013904223u;
        const float x = (float)((seed >> 8) % 440u) * 0.1f + 1.0f;
        const float z = (float)((seed >> 4) % 200u) * 0.1f + 1.0f;
        const float w = (float)((seed >> 20) % 20u) * 0.1f + 0.3f;
        const float h = (float)((seed >> 12) % 25u) * 0.1f + 0.2f;
        uint32_t v[8];
        for (int k = 0; k < 8; ++k) {
            v[k] = add_vert(l, x + (k & 1 ? w : 0.0f), k & 4 ? h : 0.0f, z + (k & 2 ? w : 0.0f));
        }
        // Top (counter-clockwise from above) and four sides, outward.
        add_tri(l, v[4], v[6], v[7]);
        add_tri(l, v[4], v[7], v[5]);
        add_tri(l, v[0], v[4], v[5]);
        add_tri(l, v[0], v[5], v[1]);
        add_tri(l, v[2], v[3], v[7]);
        add_tri(l, v[2], v[7], v[6]);
        add_tri(l, v[0], v[2], v[6]);
        add_tri(l, v[0], v[6], v[4]);
        add_tri(l, v[1], v[5], v[7]);
        add_tri(l, v[1], v[7], v[3]);
    }
}

static wf_tilecache* build(const level* l) {
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = wf_tilecache_params_recast_demo();
    d.params.tile_size = 16;
    d.logger.quiet = true;
    wf_tilecache* tc = NULL;
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    const wf_geom g = {l->verts, l->vert_count, l->tris, l->tri_count, NULL, NULL, 0};
    assert_int_equal(wf_tilecache_build_geom(tc, g, NULL, 0), WF_OK);
    return tc;
}

/// The serialized bytes of layer i (caller frees).
static unsigned char* layer_bytes(const wf_tilecache* tc, uint32_t i, uint32_t* size) {
    const wf_tilecache_entry* e = &tc->entries[i];
    unsigned char* raw = malloc(e->info.raw_bytes);
    assert_non_null(raw);
    assert_int_equal(tc->codec.decompress(e->data, e->info.compressed_bytes, raw, e->info.raw_bytes,
                                          tc->codec.user),
                     WF_OK);
    *size = e->info.raw_bytes;
    return raw;
}

static void test_bands_give_the_same_layers(void** state) {
    (void)state;
    level* l = malloc(sizeof *l);
    assert_non_null(l);
    make_level(l);
    wf_tilecache* one_band = build(l);
    assert_int_equal(one_band->tiles_x, 10);
    assert_int_equal(one_band->tiles_z, 5);
    // A speck 300 m out on +x: 67 tiles wide, so one tile row per band; the
    // origin and the first ten tiles stay where they were.
    const uint32_t a = add_vert(l, 321.0f, 0.0f, 10.0f), b = add_vert(l, 321.0f, 0.0f, 10.2f);
    add_tri(l, a, b, add_vert(l, 321.2f, 0.0f, 10.0f));
    wf_tilecache* banded = build(l);
    assert_true(banded->tiles_x >= 64);
    assert_int_equal(banded->tiles_z, 5);
    uint32_t matched = 0;
    for (uint32_t i = 0; i < one_band->entry_count; ++i) {
        const wf_tilecache_layer_info* want = &one_band->entries[i].info;
        for (uint32_t j = 0; j < banded->entry_count; ++j) {
            const wf_tilecache_layer_info* got = &banded->entries[j].info;
            if (got->tile_x != want->tile_x || got->tile_z != want->tile_z ||
                got->layer != want->layer) {
                continue;
            }
            uint32_t n = 0, m = 0;
            unsigned char* x = layer_bytes(one_band, i, &n);
            unsigned char* y = layer_bytes(banded, j, &m);
            assert_int_equal(n, m);
            assert_memory_equal(x, y, n);
            free(x);
            free(y);
            matched++;
        }
    }
    assert_int_equal(matched, one_band->entry_count);
    assert_true(matched >= 50); // every tile has its floor
    wf_tilecache_destroy(banded);
    wf_tilecache_destroy(one_band);
    free(l);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bands_give_the_same_layers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
