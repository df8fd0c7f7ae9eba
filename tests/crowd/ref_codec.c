// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// 32-bit poly ids for corridors: the split per max_tiles, refs back as they
// went in, stale refs back as they were (also across the generation wrap),
// null and refs the split cannot hold, and the table taken from a mesh.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "crowd/ref_codec.h"
#include "test_meshes.h"

#define MAX_TILES 4096u

static uint16_t g_generations[MAX_TILES];
static wf_tile_ref g_tiles[MAX_TILES];

static void test_split(void** state) {
    (void)state;
    const uint32_t cases[][4] = {
        // max_tiles, poly, tile, salt bits
        {1, 20, 0, 12},    {2, 20, 1, 11},     {16, 20, 4, 8},        {1024, 14, 10, 8},
        {4096, 12, 12, 8}, {65536, 12, 16, 4}, {1u << 20, 12, 20, 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        uint32_t p, t, s;
        assert_true(wf_ref_codec_split(cases[k][0], &p, &t, &s));
        assert_int_equal(p, cases[k][1]);
        assert_int_equal(t, cases[k][2]);
        assert_int_equal(s, cases[k][3]);
        assert_int_equal(p + t + s, 32);
    }
    uint32_t p, t, s;
    assert_false(wf_ref_codec_split((1u << 20) + 1u, &p, &t, &s));
}

/// Every ref the split holds comes back with the generation its slot has
/// in the table, and with any within half the salt's range less one.
static void test_refs_come_back(void** state) {
    (void)state;
    const uint32_t sizes[] = {1, 7, 1024, 4096};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
        wf_ref_codec c;
        wf_ref_codec_init(&c, sizes[k], g_generations, g_tiles);
        // Half the salt's range less one (a step over the wrap from 65535
        // to 1 moves the low bits by two).
        int32_t reach = c.salt_bits > 1 ? (1 << (c.salt_bits - 1u)) - 2 : 0;
        uint32_t last_poly = (1u << c.poly_bits) - 2u;
        const uint32_t polys[] = {0, 1, 377, last_poly};
        const uint32_t gens[] = {1, 2, 300, 65534, 65535};
        for (uint32_t slot = 0; slot < sizes[k]; slot += sizes[k] / 3u + 1u) {
            for (size_t g = 0; g < 5; ++g) {
                for (size_t q = 0; q < 4; ++q) {
                    wf_poly_ref r = wf_poly_ref_make(gens[g], slot, polys[q]);
                    uint32_t id = wf_ref_codec_encode(&c, r);
                    assert_true(id != WF_REF_CODEC_NULL);
                    // The table anywhere from half the range behind to
                    // half ahead (stepping over 0 as the mesh does).
                    for (int32_t d = -reach; d <= reach; ++d) {
                        int32_t at = (int32_t)gens[g] - 1 + d;
                        at = ((at % 65535) + 65535) % 65535;
                        g_generations[slot] = (uint16_t)(at + 1);
                        assert_true(wf_ref_codec_decode(&c, id).bits == r.bits);
                    }
                    g_generations[slot] = 1;
                }
            }
        }
    }
}

static void test_null_and_refs_without_an_id(void** state) {
    (void)state;
    wf_ref_codec c;
    wf_ref_codec_init(&c, 1024, g_generations, g_tiles);
    assert_int_equal(wf_ref_codec_encode(&c, (wf_poly_ref){0}), WF_REF_CODEC_NULL);
    assert_true(wf_poly_ref_is_null(wf_ref_codec_decode(&c, WF_REF_CODEC_NULL)));
    // A polygon index past the split's, a slot past the mesh's: no id.
    uint32_t too_far = (1u << c.poly_bits) - 1u;
    assert_int_equal(wf_ref_codec_encode(&c, wf_poly_ref_make(1, 0, too_far)), WF_REF_CODEC_NULL);
    assert_int_equal(wf_ref_codec_encode(&c, wf_poly_ref_make(1, 1024, 0)), WF_REF_CODEC_NULL);
    // Slot 0, polygon 0 at a generation whose salt is all zero is an id.
    assert_int_equal(wf_ref_codec_encode(&c, wf_poly_ref_make(1, 0, 0)), 0);
    assert_true(wf_ref_codec_decode(&c, 0).bits == wf_poly_ref_make(1, 0, 0).bits);
}

/// The table follows the mesh: a replaced tile's slot takes the new
/// generation, and a ref into the old one still decodes as it was.
static void test_refresh_follows_the_mesh(void** state) {
    (void)state;
    wf_mesh* mesh = test_mesh_grid(2, 2, 4, 1.0f, NULL, NULL, NULL);
    assert_non_null(mesh);
    uint32_t max_tiles = wf_mesh_get_stats(mesh).max_tiles;
    assert_true(max_tiles <= MAX_TILES);
    wf_ref_codec c;
    wf_ref_codec_init(&c, max_tiles, g_generations, g_tiles);
    wf_ref_codec_refresh(&c, mesh);
    wf_tile_ref tile;
    assert_int_equal(wf_mesh_find_tile(mesh, 1, 0, 0, &tile), WF_OK);
    wf_poly_ref old = wf_mesh_poly_ref(mesh, tile, 3);
    uint32_t id = wf_ref_codec_encode(&c, old);
    assert_true(wf_ref_codec_decode(&c, id).bits == old.bits);
    // Removed and added back three times: the slot's generation moves on.
    for (int k = 0; k < 3; ++k) {
        assert_int_equal(wf_mesh_remove_tile(mesh, tile, NULL, NULL), WF_OK);
        wf_ref_codec_refresh(&c, mesh); // an empty slot keeps its generation
        assert_true(wf_ref_codec_decode(&c, id).bits == old.bits);
        size_t size = 0;
        void* data = test_grid_tile(1, 0, 2, 4, 1.0f, NULL, NULL, NULL, &size);
        assert_non_null(data);
        // Back into its slot at the generation after (as a tile cache
        // rebuild does).
        wf_tile_ref again = {wf_poly_ref_make(wf_poly_ref_generation((wf_poly_ref){tile.bits}) + 1u,
                                              wf_poly_ref_tile(old), 0)
                                 .bits};
        assert_int_equal(wf_mesh_add_tile(mesh, data, size, WF_TILE_MESH_OWNS_DATA, again, &tile),
                         WF_OK);
    }
    wf_ref_codec_refresh(&c, mesh);
    wf_poly_ref now = wf_mesh_poly_ref(mesh, tile, 3);
    assert_int_equal(wf_poly_ref_tile(now), wf_poly_ref_tile(old));
    assert_false(now.bits == old.bits);
    assert_int_equal(g_generations[wf_poly_ref_tile(now)], wf_poly_ref_generation(now));
    // The stale ref reads back as the stale ref: the mesh refuses it.
    wf_poly_ref back = wf_ref_codec_decode(&c, id);
    assert_true(back.bits == old.bits);
    assert_int_equal(wf_mesh_check_poly(mesh, back), WF_ERR_STALE_REF);
    assert_true(wf_ref_codec_decode(&c, wf_ref_codec_encode(&c, now)).bits == now.bits);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_refs_come_back),
        cmocka_unit_test(test_null_and_refs_without_an_id),
        cmocka_unit_test(test_refresh_follows_the_mesh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
