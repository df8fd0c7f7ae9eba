// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Tile blobs: building from a polygon mesh, layout and neighbours, input
// validation, and rejection of damaged blobs (every byte flipped, every
// truncation, forged contents with a valid checksum).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "navcore/mesh_internal.h"
#include "navcore/tile_format.h"
#include "test_hooks.h"
#include "test_meshes.h"
#include "wayfarer/query.h"

// Two squares side by side (x 0..2, z 0..1) sharing the edge x = 1, in a
// tile whose bounds are exactly the squares: outer edges become portals.
static const float two_square_verts[] = {0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0, 2, 0, 1, 2, 0, 0};
static const uint16_t two_square_polys[] = {
    0, 1, 2, 3, WF_NULL_INDEX, WF_NULL_INDEX, //
    3, 2, 4, 5, WF_NULL_INDEX, WF_NULL_INDEX,
};

static wf_tile_build_desc two_square_desc(void) {
    wf_tile_build_desc d;
    memset(&d, 0, sizeof d);
    d.bmin = wf_v3(0, -1, 0);
    d.bmax = wf_v3(2, 1, 1);
    d.verts = two_square_verts;
    d.vert_count = 6;
    d.polys = two_square_polys;
    d.poly_count = 2;
    d.walkable_climb = 0.5f;
    return d;
}

static void test_build_lays_out_and_connects(void** state) {
    (void)state;
    wf_tile_build_desc d = two_square_desc();
    size_t size = 0;
    assert_int_equal(wf_tile_build_size(&d, &size), WF_OK);
    void* data = NULL;
    size_t built = 0;
    assert_int_equal(wf_tile_build(&d, &data, &built), WF_OK);
    assert_int_equal(built, size);
    assert_int_equal(wf_tile_validate(data, built), WF_OK);
    const wf_tile_header* h = data;
    assert_int_equal(h->magic, WF_TILE_MAGIC);
    assert_int_equal(h->poly_count, 2);
    assert_int_equal(h->vert_count, 6);
    assert_int_equal(h->bv_node_count, 3);
    const wf_tile_poly* polys = (const wf_tile_poly*)((const unsigned char*)data + h->polys_offset);
    // Poly 0: edges (0,0)-(0,1) x=0 -> portal -X; (0,1)-(1,1) z=1 -> portal +Z;
    // (1,1)-(1,0) shared -> poly 1 (stored 1 + index); (1,0)-(0,0) z=0 -> portal -Z.
    assert_int_equal(polys[0].neighbours[0], WF_PORTAL_EDGE | WF_SIDE_NEG_X);
    assert_int_equal(polys[0].neighbours[1], WF_PORTAL_EDGE | WF_SIDE_POS_Z);
    assert_int_equal(polys[0].neighbours[2], 2);
    assert_int_equal(polys[0].neighbours[3], WF_PORTAL_EDGE | WF_SIDE_NEG_Z);
    assert_int_equal(polys[1].neighbours[0], 1);
    assert_int_equal(polys[1].neighbours[2], WF_PORTAL_EDGE | WF_SIDE_POS_X);
    assert_int_equal(polys[0].flags, 1);
    wf_tile_free(data, built, NULL);
}

static void test_explicit_neighbours_are_kept(void** state) {
    (void)state;
    wf_tile_build_desc d = two_square_desc();
    // Declare the shared edge a wall: the polygons must not connect.
    const uint16_t neighbours[] = {
        WF_NULL_INDEX, WF_NULL_INDEX, WF_NULL_INDEX,
        WF_NULL_INDEX, WF_NULL_INDEX, WF_NULL_INDEX,
        WF_NULL_INDEX, WF_NULL_INDEX, WF_PORTAL_EDGE | WF_SIDE_POS_X,
        WF_NULL_INDEX, WF_NULL_INDEX, WF_NULL_INDEX,
    };
    d.neighbours = neighbours;
    void* data = NULL;
    size_t size = 0;
    assert_int_equal(wf_tile_build(&d, &data, &size), WF_OK);
    const wf_tile_header* h = data;
    const wf_tile_poly* polys = (const wf_tile_poly*)((const unsigned char*)data + h->polys_offset);
    assert_int_equal(polys[0].neighbours[2], 0);
    assert_int_equal(polys[1].neighbours[0], 0);
    assert_int_equal(polys[1].neighbours[2], WF_PORTAL_EDGE | WF_SIDE_POS_X);
    wf_tile_free(data, size, NULL);
}

static void test_bad_input_is_rejected(void** state) {
    (void)state;
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    size_t size;
    wf_tile_build_desc d = two_square_desc();
    uint16_t polys[12];
    memcpy(polys, two_square_polys, sizeof polys);
    d.polys = polys;
    polys[2] = WF_NULL_INDEX; // only two vertices
    polys[3] = WF_NULL_INDEX;
    assert_int_equal(wf_tile_build_size(&d, &size), WF_ERR_INVALID_ARG);
    memcpy(polys, two_square_polys, sizeof polys);
    polys[1] = 6; // vertex out of range
    assert_int_equal(wf_tile_build_size(&d, &size), WF_ERR_INVALID_ARG);
    memcpy(polys, two_square_polys, sizeof polys);
    polys[5] = 5; // a vertex after the padding
    assert_int_equal(wf_tile_build_size(&d, &size), WF_ERR_INVALID_ARG);
    d = two_square_desc();
    const uint8_t areas[] = {0, WF_MAX_AREAS};
    d.areas = areas;
    assert_int_equal(wf_tile_build_size(&d, &size), WF_ERR_INVALID_ARG);
    d = two_square_desc();
    float verts[18];
    memcpy(verts, two_square_verts, sizeof verts);
    verts[4] = NAN;
    d.verts = verts;
    assert_int_equal(wf_tile_build_size(&d, &size), WF_ERR_INVALID_ARG);
    d = two_square_desc();
    wf_offmesh_link_desc link = {
        .start = wf_v3(5, 0, 5), .end = wf_v3(0.5f, 0, 0.5f), .radius = 0.5f};
    d.offmesh_links = &link;
    d.offmesh_link_count = 1; // start outside the tile
    assert_int_equal(wf_tile_build_size(&d, &size), WF_ERR_INVALID_ARG);
    d = two_square_desc();
    d.bmin = wf_v3(3, 0, 0); // min above max
    assert_int_equal(wf_tile_build_size(&d, &size), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_tile_build_size(NULL, &size), WF_ERR_INVALID_ARG);
    d = two_square_desc();
    d.vert_count = 70000;
    assert_int_equal(wf_tile_build_size(&d, &size), WF_ERR_CAPACITY);
    // Output buffer too small or misaligned.
    d = two_square_desc();
    assert_int_equal(wf_tile_build_size(&d, &size), WF_OK);
    unsigned char* buffer = aligned_alloc(16, size + 16);
    assert_int_equal(wf_tile_build_into(&d, buffer, size - 1), WF_ERR_CAPACITY);
    assert_int_equal(wf_tile_build_into(&d, buffer + 4, size), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_tile_build_into(&d, buffer, size), WF_OK);
    assert_int_equal(wf_tile_validate(buffer, size), WF_OK);
    free(buffer);
    wf_set_assert_hook(previous);
}

static void test_allocation_goes_through_the_desc_allocator(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tile_build_desc d = two_square_desc();
    d.allocator = counting_allocator_hooks(&c);
    void* data = NULL;
    size_t size = 0;
    c.fail_at = 1;
    assert_int_equal(wf_tile_build(&d, &data, &size), WF_ERR_OUT_OF_MEMORY);
    c.fail_at = 0;
    assert_int_equal(wf_tile_build(&d, &data, &size), WF_OK);
    assert_int_equal(counting_allocator_live(&c), 1);
    wf_tile_free(data, size, &d.allocator);
    assert_int_equal(counting_allocator_live(&c), 0);
    assert_int_equal(atomic_load(&c.size_mismatches), 0);
}

static void* grid_blob(size_t* size) {
    uint8_t blocked[16] = {0};
    blocked[5] = 1;
    void* data = test_grid_tile(0, 0, 1, 4, 1.0f, blocked, NULL, NULL, size);
    assert_non_null(data);
    return data;
}

static void test_every_flipped_byte_is_rejected_or_harmless(void** state) {
    (void)state;
    size_t size = 0;
    unsigned char* data = grid_blob(&size);
    const wf_tile_header* h = (const wf_tile_header*)data;
    uint32_t checked = h->runtime_offset;
    unsigned char* copy = aligned_alloc(16, size);
    wf_mesh* mesh = NULL;
    wf_mesh_desc md = {.tile_width = 4, .tile_depth = 4, .max_tiles = 4};
    md.logger.quiet = true;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    for (size_t i = 0; i < size; ++i) {
        for (int bit = 0; bit < 8; bit += 3) {
            memcpy(copy, data, size);
            copy[i] ^= (unsigned char)(1u << bit);
            wf_status s = wf_tile_validate(copy, size);
            if (i < checked) {
                if (s == WF_OK) {
                    fail_msg("flip at byte %zu bit %d accepted", i, bit);
                }
                assert_true(s == WF_ERR_BAD_DATA || s == WF_ERR_VERSION);
            } else {
                // The run-time section is rewritten on add: damage there is harmless.
                assert_int_equal(s, WF_OK);
                wf_tile_ref tile;
                assert_int_equal(wf_mesh_add_tile(mesh, copy, size, 0, (wf_tile_ref){0}, &tile),
                                 WF_OK);
                assert_int_equal(wf_mesh_remove_tile(mesh, tile, NULL, NULL), WF_OK);
            }
        }
    }
    wf_mesh_destroy(mesh);
    free(copy);
    wf_tile_free(data, size, NULL);
}

static void test_every_truncation_is_rejected(void** state) {
    (void)state;
    size_t size = 0;
    unsigned char* data = grid_blob(&size);
    unsigned char* copy = aligned_alloc(16, size);
    for (size_t n = 0; n < size; ++n) {
        memcpy(copy, data, n);
        assert_int_equal(wf_tile_validate(copy, n), WF_ERR_BAD_DATA);
    }
    free(copy);
    wf_tile_free(data, size, NULL);
}

static void reseal(unsigned char* data) {
    wf_tile_header* h = (wf_tile_header*)data;
    h->checksum = wf_tile_checksum(data, h->runtime_offset);
}

static void test_forged_contents_are_rejected(void** state) {
    (void)state;
    size_t size = 0;
    unsigned char* data = grid_blob(&size);
    unsigned char* copy = aligned_alloc(16, size);
    const wf_tile_header* h0 = (const wf_tile_header*)data;
    assert_int_equal(h0->poly_count, 15);

#define FORGE(statement, expected)                                                                 \
    do {                                                                                           \
        memcpy(copy, data, size);                                                                  \
        wf_tile_header* h = (wf_tile_header*)copy;                                                 \
        wf_tile_poly* polys = (wf_tile_poly*)(copy + h->polys_offset);                             \
        wf_tile_bv_node* bv = (wf_tile_bv_node*)(copy + h->bv_offset);                             \
        float* verts = (float*)(copy + h->verts_offset);                                           \
        (void)polys;                                                                               \
        (void)bv;                                                                                  \
        (void)verts;                                                                               \
        statement;                                                                                 \
        reseal(copy);                                                                              \
        assert_int_equal(wf_tile_validate(copy, size), expected);                                  \
    } while (0)

    FORGE((void)0, WF_OK);
    FORGE(polys[3].verts[1] = 999, WF_ERR_BAD_DATA);
    FORGE(polys[3].vert_count = 7, WF_ERR_BAD_DATA);
    FORGE(polys[3].vert_count = 2, WF_ERR_BAD_DATA);
    FORGE(polys[3].neighbours[0] = 200, WF_ERR_BAD_DATA);
    FORGE(polys[3].neighbours[0] = WF_PORTAL_EDGE | 7, WF_ERR_BAD_DATA);
    FORGE(polys[3].area_and_type = 0x7f, WF_ERR_BAD_DATA); // off-mesh type among ground polys
    FORGE(bv[0].index = -1000, WF_ERR_BAD_DATA);
    FORGE(bv[h->bv_node_count - 1].index = 15, WF_ERR_BAD_DATA);
    FORGE(verts[7] = NAN, WF_ERR_BAD_DATA);
    FORGE(h->poly_count = 1000000, WF_ERR_BAD_DATA);
    FORGE(h->vert_count = 0xffffff, WF_ERR_BAD_DATA);
    FORGE(h->polys_offset = 8, WF_ERR_BAD_DATA);
    FORGE(h->runtime_offset = h->bv_offset, WF_ERR_BAD_DATA);
    FORGE(h->max_link_count = 0x7fffffff, WF_ERR_BAD_DATA);
    FORGE(h->bmin[0] = INFINITY, WF_ERR_BAD_DATA);
    FORGE(h->version = 99, WF_ERR_VERSION);
    FORGE(h->data_size = (uint32_t)size + 16, WF_ERR_BAD_DATA);
#undef FORGE
    free(copy);
    wf_tile_free(data, size, NULL);
    assert_int_equal(wf_tile_validate(NULL, 100), WF_ERR_INVALID_ARG);
}

static void test_build_is_deterministic(void** state) {
    (void)state;
    size_t a_size = 0, b_size = 0;
    void* a = grid_blob(&a_size);
    void* b = grid_blob(&b_size);
    assert_int_equal(a_size, b_size);
    assert_memory_equal(a, b, a_size);
    wf_tile_free(a, a_size, NULL);
    wf_tile_free(b, b_size, NULL);
}

// A flat 2 x 2 square whose detail mesh raises its centre to y = 1 (four
// triangles around a detail vertex): heights follow the detail triangles.
static void test_detail_mesh_gives_heights(void** state) {
    (void)state;
    static const float verts[] = {0, 0, 0, 0, 0, 2, 2, 0, 2, 2, 0, 0};
    static const uint16_t polys[] = {0, 1, 2, 3, WF_NULL_INDEX, WF_NULL_INDEX};
    static const uint32_t detail_meshes[] = {0, 1, 0, 4}; // 1 extra vertex, 4 triangles
    static const float detail_verts[] = {1, 1, 1};
    static const uint8_t detail_tris[] = {0, 1, 4, 0, 1, 2, 4, 0, 2, 3, 4, 0, 3, 0, 4, 0};
    wf_tile_build_desc d;
    memset(&d, 0, sizeof d);
    d.bmin = wf_v3(0, -1, 0);
    d.bmax = wf_v3(2, 2, 2);
    d.verts = verts;
    d.vert_count = 4;
    d.polys = polys;
    d.poly_count = 1;
    d.detail_meshes = detail_meshes;
    d.detail_verts = detail_verts;
    d.detail_vert_count = 1;
    d.detail_tris = detail_tris;
    d.detail_tri_count = 4;
    void* data = NULL;
    size_t size = 0;
    assert_int_equal(wf_tile_build(&d, &data, &size), WF_OK);
    wf_mesh* mesh = NULL;
    wf_mesh_desc md = {.tile_width = 2, .tile_depth = 2};
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    wf_tile_ref tile;
    assert_int_equal(
        wf_mesh_add_tile(mesh, data, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &tile), WF_OK);
    wf_query* q = NULL;
    wf_query_desc qd = {.mesh = mesh};
    assert_int_equal(wf_query_create(&qd, &q), WF_OK);
    wf_poly_ref p = wf_mesh_poly_ref(mesh, tile, 0);
    float h = -1.0f;
    assert_int_equal(wf_query_poly_height(q, p, wf_v3(1, 0, 1), &h), WF_OK);
    assert_float_equal(h, 1.0f, 1e-6f);
    // Triangle (v0, v1, centre) next to the edge x = 0: height = x.
    assert_int_equal(wf_query_poly_height(q, p, wf_v3(0.5f, 0, 1), &h), WF_OK);
    assert_float_equal(h, 0.5f, 1e-6f);
    // Triangle next to the edge x = 2: height = 2 - x.
    assert_int_equal(wf_query_poly_height(q, p, wf_v3(1.5f, 0, 1.2f), &h), WF_OK);
    assert_float_equal(h, 0.5f, 1e-6f);
    // The nearest polygon to a point above the raised centre is found by height.
    wf_poly_ref found;
    wf_vec3 pt;
    wf_query_filter f = wf_query_filter_defaults();
    assert_int_equal(
        wf_query_find_nearest_poly(q, wf_v3(1, 1.2f, 1), wf_v3(0.5f, 0.5f, 0.5f), &f, &found, &pt),
        WF_OK);
    assert_true(found.bits == p.bits);
    assert_float_equal(pt.y, 1.0f, 1e-6f);
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);

    // A detail triangle naming a vertex that does not exist is refused.
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    uint8_t bad_tris[16];
    memcpy(bad_tris, detail_tris, sizeof bad_tris);
    bad_tris[2] = 5;
    d.detail_tris = bad_tris;
    assert_int_equal(wf_tile_build_size(&d, &size), WF_ERR_INVALID_ARG);
    wf_set_assert_hook(previous);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_build_lays_out_and_connects),
        cmocka_unit_test(test_explicit_neighbours_are_kept),
        cmocka_unit_test(test_bad_input_is_rejected),
        cmocka_unit_test(test_allocation_goes_through_the_desc_allocator),
        cmocka_unit_test(test_every_flipped_byte_is_rejected_or_harmless),
        cmocka_unit_test(test_every_truncation_is_rejected),
        cmocka_unit_test(test_forged_contents_are_rejected),
        cmocka_unit_test(test_build_is_deterministic),
        cmocka_unit_test(test_detail_mesh_gives_heights),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
