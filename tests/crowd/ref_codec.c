// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// 32-bit poly ids for corridors: the split per max_tiles, refs back as they
// went in, stale refs back as they were (also across the generation wrap),
// null and refs the split cannot hold, generations read from the mesh.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "crowd/ref_codec.h"
#include "test_meshes.h"

/// A mesh of 2 x 2 grid tiles; tile (1, 0) can be put back at any generation.
typedef struct grid {
    wf_mesh* mesh;
    wf_tile_ref tile;
} grid;

static void grid_open(grid* g) {
    g->mesh = test_mesh_grid(2, 2, 4, 1.0f, NULL, NULL, NULL);
    assert_non_null(g->mesh);
    assert_int_equal(wf_mesh_find_tile(g->mesh, 1, 0, 0, &g->tile), WF_OK);
}

/// Tile (1, 0) removed and added back into its slot at generation gen.
static void put_back(grid* g, uint32_t gen) {
    uint32_t slot = wf_poly_ref_tile((wf_poly_ref){g->tile.bits});
    assert_int_equal(wf_mesh_remove_tile(g->mesh, g->tile, NULL, NULL), WF_OK);
    size_t size = 0;
    void* data = test_grid_tile(1, 0, 2, 4, 1.0f, NULL, NULL, NULL, &size);
    assert_non_null(data);
    wf_tile_ref want = {wf_poly_ref_make(gen, slot, 0).bits};
    assert_int_equal(wf_mesh_add_tile(g->mesh, data, size, WF_TILE_MESH_OWNS_DATA, want, &g->tile),
                     WF_OK);
    assert_true(g->tile.bits == want.bits);
}

static void test_split(void** state) {
    (void)state;
    const uint32_t cases[][4] = {
        // max_tiles, poly, tile, salt bits
        {1, 20, 0, 12},    {2, 20, 1, 11},     {16, 20, 4, 8},        {1024, 15, 10, 7},
        {4096, 15, 12, 5}, {65536, 15, 16, 1}, {1u << 17, 15, 17, 0},
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
    assert_false(wf_ref_codec_split((1u << 17) + 1u, &p, &t, &s));
}

/// A ref comes back with its slot at its own generation and at any
/// within half the salt's range less one (a step over the wrap from 65535
/// to 1 moves the low bits by two), also with the split of other slot
/// counts.
static void test_refs_come_back(void** state) {
    (void)state;
    grid g;
    grid_open(&g);
    uint32_t slot = wf_poly_ref_tile((wf_poly_ref){g.tile.bits});
    const uint32_t slots[] = {0, 1, 1024, 4096}; // 0: the mesh's own
    for (size_t k = 0; k < sizeof slots / sizeof slots[0]; ++k) {
        wf_ref_codec c;
        wf_ref_codec_init(&c, g.mesh);
        if (slots[k] != 0) {
            c.max_tiles = slots[k] > slot ? slots[k] : slot + 1u;
            assert_true(wf_ref_codec_split(c.max_tiles, &c.poly_bits, &c.tile_bits, &c.salt_bits));
        }
        int32_t reach = c.salt_bits > 1 ? (1 << (c.salt_bits - 1u)) - 2 : 0;
        const uint32_t polys[] = {0, 3, (1u << c.poly_bits) - 2u};
        const uint32_t gens[] = {2, 300, 65534, 65535, 1};
        for (size_t q = 0; q < 5; ++q) {
            const int32_t steps[] = {-reach, -1, 0, 1, reach};
            for (size_t d = 0; d < 5; ++d) {
                if (reach == 0 && steps[d] != 0) {
                    continue;
                }
                int32_t at = (int32_t)gens[q] - 1 + steps[d];
                at = ((at % 65535) + 65535) % 65535;
                put_back(&g, (uint32_t)at + 1u);
                for (size_t p = 0; p < 3; ++p) {
                    wf_poly_ref r = wf_poly_ref_make(gens[q], slot, polys[p]);
                    uint32_t id = wf_ref_codec_encode(&c, r);
                    assert_true(id != WF_REF_CODEC_NULL);
                    assert_true(wf_ref_codec_decode(&c, id).bits == r.bits);
                }
            }
        }
    }
    wf_mesh_destroy(g.mesh);
}

static void test_null_and_refs_without_an_id(void** state) {
    (void)state;
    grid g;
    grid_open(&g);
    wf_ref_codec c;
    wf_ref_codec_init(&c, g.mesh);
    assert_int_equal(wf_ref_codec_encode(&c, (wf_poly_ref){0}), WF_REF_CODEC_NULL);
    assert_true(wf_poly_ref_is_null(wf_ref_codec_decode(&c, WF_REF_CODEC_NULL)));
    // A polygon index past the split's, a slot past the mesh's: no id.
    uint32_t too_far = (1u << c.poly_bits) - 1u;
    assert_int_equal(wf_ref_codec_encode(&c, wf_poly_ref_make(1, 0, too_far)), WF_REF_CODEC_NULL);
    assert_int_equal(wf_ref_codec_encode(&c, wf_poly_ref_make(1, c.max_tiles, 0)),
                     WF_REF_CODEC_NULL);
    // Slot 0, polygon 0 at a generation whose salt is all zero is an id.
    assert_int_equal(wf_ref_codec_encode(&c, wf_poly_ref_make(1, 0, 0)), 0);
    assert_true(wf_ref_codec_decode(&c, 0).bits == wf_poly_ref_make(1, 0, 0).bits);
    wf_mesh_destroy(g.mesh);
}

/// Ids follow the mesh: a replaced tile's polygons read back as the stale
/// refs they were (the mesh refuses them), new ones as the new refs.
static void test_ids_follow_the_mesh(void** state) {
    (void)state;
    grid g;
    grid_open(&g);
    wf_ref_codec c;
    wf_ref_codec_init(&c, g.mesh);
    wf_poly_ref old = wf_mesh_poly_ref(g.mesh, g.tile, 3);
    uint32_t id = wf_ref_codec_encode(&c, old);
    assert_true(wf_ref_codec_decode(&c, id).bits == old.bits);
    uint32_t gen = wf_poly_ref_generation(old);
    for (uint32_t k = 1; k <= 3; ++k) {
        assert_int_equal(wf_mesh_remove_tile(g.mesh, g.tile, NULL, NULL), WF_OK);
        assert_true(wf_ref_codec_decode(&c, id).bits == old.bits); // an empty slot
        size_t size = 0;
        void* data = test_grid_tile(1, 0, 2, 4, 1.0f, NULL, NULL, NULL, &size);
        assert_non_null(data);
        wf_tile_ref want = {wf_poly_ref_make(gen + k + 1u, wf_poly_ref_tile(old), 0).bits};
        assert_int_equal(
            wf_mesh_add_tile(g.mesh, data, size, WF_TILE_MESH_OWNS_DATA, want, &g.tile), WF_OK);
    }
    wf_poly_ref now = wf_mesh_poly_ref(g.mesh, g.tile, 3);
    assert_false(now.bits == old.bits);
    wf_poly_ref back = wf_ref_codec_decode(&c, id);
    assert_true(back.bits == old.bits);
    assert_int_equal(wf_mesh_check_poly(g.mesh, back), WF_ERR_STALE_REF);
    assert_true(wf_ref_codec_decode(&c, wf_ref_codec_encode(&c, now)).bits == now.bits);
    wf_mesh_destroy(g.mesh);
}

/// The run decoder (wf_ref_decoder) gives wf_ref_codec_decode's refs,
/// with the generations asked from the mesh and read from the copy an
/// update takes; a copy too small for the slots is not used.
static void test_decoder_matches_decode(void** state) {
    (void)state;
    grid g;
    grid_open(&g);
    uint32_t slot = wf_poly_ref_tile((wf_poly_ref){g.tile.bits});
    static uint16_t table[WF_REF_CODEC_TABLE_MAX_TILES];
    const uint32_t slots[] = {0, 1024, 4096}; // 0: the mesh's own
    for (size_t k = 0; k < sizeof slots / sizeof slots[0]; ++k) {
        wf_ref_codec c;
        wf_ref_codec_init(&c, g.mesh);
        if (slots[k] != 0) {
            c.max_tiles = slots[k];
            assert_true(wf_ref_codec_split(c.max_tiles, &c.poly_bits, &c.tile_bits, &c.salt_bits));
        }
        const uint32_t gens[] = {2, 65535, 1};
        for (size_t q = 0; q < 3; ++q) {
            put_back(&g, gens[q]);
            uint32_t ids[8];
            wf_poly_ref want[8];
            for (uint32_t p = 0; p < 8; ++p) {
                // Current refs, stale ones (an older generation) and the null id.
                uint32_t gen = p % 3u == 1u ? (gens[q] == 1u ? 65535u : gens[q] - 1u) : gens[q];
                ids[p] = p == 7u ? WF_REF_CODEC_NULL
                                 : wf_ref_codec_encode(&c, wf_poly_ref_make(gen, slot, p));
                want[p] = wf_ref_codec_decode(&c, ids[p]);
                assert_true(p == 7u ? want[p].bits == 0 : want[p].bits != 0);
            }
            for (int copy = 0; copy < 3; ++copy) {
                // 0: from the mesh; 1: from a copy; 2: a copy too small.
                wf_ref_codec_copy_generations(&c, copy == 0 ? NULL : table,
                                              copy == 2 ? c.max_tiles - 1u : c.max_tiles);
                assert_true((c.generations != NULL) == (copy == 1));
                wf_ref_decoder d = wf_ref_decoder_begin(&c);
                for (uint32_t p = 0; p < 8; ++p) {
                    assert_true(wf_ref_decoder_next(&d, ids[p]).bits == want[p].bits);
                }
            }
        }
    }
    wf_mesh_destroy(g.mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_refs_come_back),
        cmocka_unit_test(test_null_and_refs_without_an_id),
        cmocka_unit_test(test_ids_follow_the_mesh),
        cmocka_unit_test(test_decoder_matches_decode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
