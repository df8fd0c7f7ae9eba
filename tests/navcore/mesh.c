// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The mesh: tile slots and generations, stale refs, requested slots,
// portal stitching across tile borders, off-mesh links, flags and areas,
// capacities and leaks.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "navcore/mesh_internal.h"
#include "test_hooks.h"
#include "test_meshes.h"

enum { N = 4 }; // cells per tile side in these tests

static wf_mesh* make_mesh(uint32_t max_tiles, counting_allocator* c) {
    wf_mesh_desc d = {.tile_width = N, .tile_depth = N, .max_tiles = max_tiles};
    if (c != NULL) {
        d.allocator = counting_allocator_hooks(c);
    }
    d.logger.quiet = true;
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&d, &mesh), WF_OK);
    return mesh;
}

static wf_tile_ref add_grid_tile(wf_mesh* mesh, uint32_t tx, uint32_t tz, uint32_t tiles_x) {
    size_t size = 0;
    void* data = test_grid_tile(tx, tz, tiles_x, N, 1.0f, NULL, NULL, &mesh->allocator, &size);
    assert_non_null(data);
    wf_tile_ref ref;
    assert_int_equal(
        wf_mesh_add_tile(mesh, data, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &ref), WF_OK);
    return ref;
}

static bool has_link(const wf_mesh* mesh, wf_poly_ref from, wf_poly_ref to) {
    const wf_mesh_tile* t;
    const wf_tile_poly* p;
    if (wf_mesh_resolve(mesh, from, &t, &p) != WF_OK) {
        return false;
    }
    for (uint32_t k = t->first_link[wf_tile_poly_index(t, p)]; k != WF_NULL_LINK;
         k = t->links[k].next) {
        if (t->links[k].ref == to.bits) {
            return true;
        }
    }
    return false;
}

static void test_create_rejects_bad_desc(void** state) {
    (void)state;
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    wf_mesh* mesh = NULL;
    wf_mesh_desc d = {.tile_width = 0, .tile_depth = 1};
    assert_int_equal(wf_mesh_create(&d, &mesh), WF_ERR_INVALID_ARG);
    d = (wf_mesh_desc){.tile_width = NAN, .tile_depth = 1};
    assert_int_equal(wf_mesh_create(&d, &mesh), WF_ERR_INVALID_ARG);
    d = (wf_mesh_desc){.tile_width = 1, .tile_depth = 1, .max_tiles = WF_MAX_TILES + 1};
    assert_int_equal(wf_mesh_create(&d, &mesh), WF_ERR_INVALID_ARG);
    // Infinite and finite-but-huge tiles (a cache file's 1e37 m cells made
    // one of 4.8e38 m, past FLT_MAX); the save format refuses such widths.
    d = (wf_mesh_desc){.tile_width = INFINITY, .tile_depth = 1};
    assert_int_equal(wf_mesh_create(&d, &mesh), WF_ERR_INVALID_ARG);
    d = (wf_mesh_desc){.tile_width = 1, .tile_depth = WF_MAX_TILE_WIDTH};
    assert_int_equal(wf_mesh_create(&d, &mesh), WF_ERR_INVALID_ARG);
    d = (wf_mesh_desc){.tile_width = 3e38f, .tile_depth = 1};
    assert_int_equal(wf_mesh_create(&d, &mesh), WF_ERR_INVALID_ARG);
    assert_null(mesh);
    d = (wf_mesh_desc){.tile_width = 1e29f, .tile_depth = 1e29f};
    assert_int_equal(wf_mesh_create(&d, &mesh), WF_OK);
    wf_mesh_destroy(mesh);
    mesh = NULL;
    assert_int_equal(wf_mesh_desc_defaults(NULL).max_tiles, 1024);
    counting_allocator c;
    counting_allocator_init(&c);
    for (unsigned long k = 1; k <= 3; ++k) {
        c.fail_at = atomic_load(&c.attempt) + 1;
        d = (wf_mesh_desc){
            .tile_width = 1, .tile_depth = 1, .allocator = counting_allocator_hooks(&c)};
        assert_int_equal(wf_mesh_create(&d, &mesh), WF_ERR_OUT_OF_MEMORY);
        assert_int_equal(counting_allocator_live(&c), 0);
    }
    wf_set_assert_hook(previous);
}

static void test_tiles_refs_and_generations(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_mesh* mesh = make_mesh(3, &c);
    wf_tile_ref a = add_grid_tile(mesh, 0, 0, 2);
    wf_tile_ref b = add_grid_tile(mesh, 1, 0, 2);
    wf_tile_ref found;
    assert_int_equal(wf_mesh_find_tile(mesh, 1, 0, 0, &found), WF_OK);
    assert_true(found.bits == b.bits);
    assert_int_equal(wf_mesh_find_tile(mesh, 5, 0, 0, &found), WF_ERR_NOT_FOUND);
    wf_tile_info info;
    assert_int_equal(wf_mesh_get_tile_info(mesh, b, &info), WF_OK);
    assert_int_equal(info.tile_x, 1);
    assert_int_equal(info.poly_count, N * N);
    assert_true(info.bmin.x == 4.0f && info.bmax.x == 8.0f);
    wf_tile_ref all[4];
    assert_int_equal(wf_mesh_get_tiles(mesh, all, 4), 2);
    assert_int_equal(wf_mesh_get_stats(mesh).poly_count, 2 * N * N);

    // The same cell and layer twice is refused and leaves the mesh alone.
    size_t size = 0;
    void* dup = test_grid_tile(0, 0, 2, N, 1.0f, NULL, NULL, &mesh->allocator, &size);
    wf_tile_ref r;
    assert_int_equal(wf_mesh_add_tile(mesh, dup, size, 0, (wf_tile_ref){0}, &r), WF_ERR_BUSY);

    wf_poly_ref p = wf_mesh_poly_ref(mesh, b, 5);
    assert_int_equal(wf_mesh_check_poly(mesh, p), WF_OK);
    assert_int_equal(wf_poly_ref_poly(p), 5);
    assert_true(wf_mesh_poly_ref(mesh, b, N * N).bits == 0);
    assert_int_equal(wf_mesh_check_poly(mesh, (wf_poly_ref){0}), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_mesh_check_poly(mesh, (wf_poly_ref){p.bits + N * N}), WF_ERR_STALE_REF);

    // Remove: refs go stale, flags/areas on them report it.
    assert_int_equal(wf_mesh_remove_tile(mesh, b, NULL, NULL), WF_OK);
    assert_int_equal(wf_mesh_check_poly(mesh, p), WF_ERR_STALE_REF);
    uint16_t flags;
    assert_int_equal(wf_mesh_get_poly_flags(mesh, p, &flags), WF_ERR_STALE_REF);
    assert_int_equal(wf_mesh_set_poly_area(mesh, p, 3), WF_ERR_STALE_REF);
    assert_int_equal(wf_mesh_remove_tile(mesh, b, NULL, NULL), WF_ERR_STALE_REF);
    assert_int_equal(wf_mesh_get_tile_info(mesh, b, &info), WF_ERR_STALE_REF);

    // Re-adding with the old ref as the request makes the saved refs valid.
    wf_tile_ref again;
    assert_int_equal(
        wf_mesh_add_tile(mesh, dup, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &again),
        WF_ERR_BUSY); // (0, 0) is still there
    wf_tile_free(dup, size, &mesh->allocator);
    void* blob = test_grid_tile(1, 0, 2, N, 1.0f, NULL, NULL, &mesh->allocator, &size);
    assert_int_equal(wf_mesh_add_tile(mesh, blob, size, WF_TILE_MESH_OWNS_DATA, b, &again), WF_OK);
    assert_true(again.bits == b.bits);
    assert_int_equal(wf_mesh_check_poly(mesh, p), WF_OK);

    // A requested slot that is in use is refused.
    assert_int_equal(wf_mesh_remove_tile(mesh, again, NULL, NULL), WF_OK);
    blob = test_grid_tile(1, 0, 2, N, 1.0f, NULL, NULL, &mesh->allocator, &size);
    assert_int_equal(wf_mesh_add_tile(mesh, blob, size, WF_TILE_MESH_OWNS_DATA, a, &again),
                     WF_ERR_BUSY);
    // Added again without a request: a new generation, the old refs stay stale.
    assert_int_equal(
        wf_mesh_add_tile(mesh, blob, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &again),
        WF_OK);
    assert_false(again.bits == b.bits);
    assert_int_equal(wf_mesh_check_poly(mesh, p), WF_ERR_STALE_REF);

    // Capacity: 3 slots.
    add_grid_tile(mesh, 2, 0, 3);
    blob = test_grid_tile(0, 1, 2, N, 1.0f, NULL, NULL, &mesh->allocator, &size);
    assert_int_equal(
        wf_mesh_add_tile(mesh, blob, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &again),
        WF_ERR_CAPACITY);
    wf_tile_free(blob, size, &mesh->allocator);
    wf_mesh_destroy(mesh);
    assert_int_equal(counting_allocator_live(&c), 0);
    assert_int_equal(atomic_load(&c.size_mismatches), 0);
}

static void test_unowned_data_is_handed_back(void** state) {
    (void)state;
    wf_mesh* mesh = make_mesh(4, NULL);
    size_t size = 0;
    void* blob = test_grid_tile(0, 0, 1, N, 1.0f, NULL, NULL, NULL, &size);
    wf_tile_ref t;
    assert_int_equal(wf_mesh_add_tile(mesh, blob, size, 0, (wf_tile_ref){0}, &t), WF_OK);
    void* back = NULL;
    size_t back_size = 0;
    assert_int_equal(wf_mesh_remove_tile(mesh, t, &back, &back_size), WF_OK);
    assert_ptr_equal(back, blob);
    assert_int_equal(back_size, size);
    wf_tile_free(blob, size, NULL);
    wf_mesh_destroy(mesh);
}

static void test_portals_stitch_across_tile_borders(void** state) {
    (void)state;
    wf_mesh* mesh = make_mesh(8, NULL);
    wf_tile_ref left = add_grid_tile(mesh, 0, 0, 2);
    // Cell (3, 1) of the left tile is index 1 * N + 3; its +X neighbour is
    // cell (0, 1) of the right tile, index 1 * N + 0.
    wf_poly_ref a = wf_mesh_poly_ref(mesh, left, 1 * N + 3);
    wf_tile_ref right = add_grid_tile(mesh, 1, 0, 2);
    wf_poly_ref b = wf_mesh_poly_ref(mesh, right, 1 * N + 0);
    assert_true(has_link(mesh, a, b));
    assert_true(has_link(mesh, b, a));
    // Not linked to the cell diagonally across the border.
    assert_false(has_link(mesh, a, wf_mesh_poly_ref(mesh, right, 2 * N + 0)));
    // Inside a tile: (1,1) links to (2,1) and (1,2).
    wf_poly_ref c = wf_mesh_poly_ref(mesh, left, 1 * N + 1);
    assert_true(has_link(mesh, c, wf_mesh_poly_ref(mesh, left, 1 * N + 2)));
    assert_true(has_link(mesh, c, wf_mesh_poly_ref(mesh, left, 2 * N + 1)));
    assert_false(has_link(mesh, c, wf_mesh_poly_ref(mesh, left, 2 * N + 2)));

    // Portal points of the shared edge x = 4, z 1..2, walking +X: left is
    // the edge end vertex of a's counter-clockwise order.
    const wf_mesh_tile *ta, *tb;
    const wf_tile_poly *pa, *pb;
    assert_int_equal(wf_mesh_resolve(mesh, a, &ta, &pa), WF_OK);
    assert_int_equal(wf_mesh_resolve(mesh, b, &tb, &pb), WF_OK);
    wf_vec3 l, r;
    assert_int_equal(wf_mesh_portal_points(mesh, a, ta, pa, b, tb, pb, &l, &r), WF_OK);
    assert_true(l.x == 4.0f && r.x == 4.0f);
    assert_true((l.z == 1.0f && r.z == 2.0f) || (l.z == 2.0f && r.z == 1.0f));
    // "left" is to the left of the walking direction a -> b.
    wf_vec3 from = wf_v3(3.5f, 0, 1.5f), to = wf_v3(4.5f, 0, 1.5f);
    assert_true(wf_v2_triangle_area2(from, to, l) > 0.0f);
    assert_true(wf_v2_triangle_area2(from, to, r) < 0.0f);

    // Removing the right tile unlinks the left one; re-adding relinks.
    assert_int_equal(wf_mesh_remove_tile(mesh, right, NULL, NULL), WF_OK);
    const wf_mesh_tile* t;
    const wf_tile_poly* p;
    assert_int_equal(wf_mesh_resolve(mesh, a, &t, &p), WF_OK);
    for (uint32_t k = t->first_link[wf_tile_poly_index(t, p)]; k != WF_NULL_LINK;
         k = t->links[k].next) {
        assert_int_equal(wf_poly_ref_tile((wf_poly_ref){t->links[k].ref}), wf_poly_ref_tile(a));
    }
    right = add_grid_tile(mesh, 1, 0, 2);
    b = wf_mesh_poly_ref(mesh, right, 1 * N + 0);
    assert_true(has_link(mesh, a, b));
    wf_mesh_destroy(mesh);
}

// Two islands: square A (x 0..1) and square B (x 3..4) in one tile, with an
// off-mesh link from A's centre to B's centre.
static void* islands_blob(bool bidirectional, size_t* size, float end_x) {
    static const float verts[] = {0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0,
                                  3, 0, 0, 3, 0, 1, 4, 0, 1, 4, 0, 0};
    static const uint16_t polys[] = {0, 1, 2, 3, WF_NULL_INDEX, WF_NULL_INDEX,
                                     4, 5, 6, 7, WF_NULL_INDEX, WF_NULL_INDEX};
    wf_offmesh_link_desc link = {.start = wf_v3(0.5f, 0, 0.5f),
                                 .end = wf_v3(end_x, 0, 0.5f),
                                 .radius = 0.3f,
                                 .bidirectional = bidirectional,
                                 .area = 2,
                                 .flags = 1,
                                 .user_id = 77};
    wf_tile_build_desc d;
    memset(&d, 0, sizeof d);
    d.bmin = wf_v3(0, -1, 0);
    d.bmax = wf_v3(N, 1, N);
    d.verts = verts;
    d.vert_count = 8;
    d.polys = polys;
    d.poly_count = 2;
    d.offmesh_links = &link;
    d.offmesh_link_count = 1;
    d.walkable_climb = 0.5f;
    void* data = NULL;
    assert_int_equal(wf_tile_build(&d, &data, size), WF_OK);
    return data;
}

static void test_offmesh_links(void** state) {
    (void)state;
    for (int bidirectional = 0; bidirectional < 2; ++bidirectional) {
        wf_mesh* mesh = make_mesh(4, NULL);
        size_t size = 0;
        void* blob = islands_blob(bidirectional, &size, 3.5f);
        wf_tile_ref tile;
        assert_int_equal(
            wf_mesh_add_tile(mesh, blob, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &tile),
            WF_OK);
        wf_poly_ref a = wf_mesh_poly_ref(mesh, tile, 0);
        wf_poly_ref b = wf_mesh_poly_ref(mesh, tile, 1);
        wf_poly_ref link = wf_mesh_poly_ref(mesh, tile, 2);
        wf_tile_info info;
        assert_int_equal(wf_mesh_get_tile_info(mesh, tile, &info), WF_OK);
        assert_int_equal(info.poly_count, 2);
        assert_int_equal(info.offmesh_link_count, 1);
        assert_true(wf_mesh_is_offmesh_link(mesh, link));
        assert_false(wf_mesh_is_offmesh_link(mesh, a));
        uint32_t user = 0;
        assert_int_equal(wf_mesh_get_offmesh_user_id(mesh, link, &user), WF_OK);
        assert_int_equal(user, 77);
        assert_int_equal(wf_mesh_get_offmesh_user_id(mesh, a, &user), WF_ERR_INVALID_ARG);
        uint8_t area;
        assert_int_equal(wf_mesh_get_poly_area(mesh, link, &area), WF_OK);
        assert_int_equal(area, 2);
        assert_false(has_link(mesh, a, b));
        assert_true(has_link(mesh, a, link));
        assert_true(has_link(mesh, link, b));
        assert_true(has_link(mesh, link, a));
        assert_int_equal(has_link(mesh, b, link), bidirectional);
        wf_vec3 s, e;
        assert_int_equal(wf_mesh_get_offmesh_endpoints(mesh, a, link, &s, &e), WF_OK);
        assert_true(s.x == 0.5f && e.x == 3.5f);
        if (bidirectional) {
            assert_int_equal(wf_mesh_get_offmesh_endpoints(mesh, b, link, &s, &e), WF_OK);
            assert_true(s.x == 3.5f && e.x == 0.5f);
        }
        wf_mesh_destroy(mesh);
    }
    // An end too far from any polygon (radius 0.3, 1 m away) is not linked.
    wf_mesh* mesh = make_mesh(4, NULL);
    size_t size = 0;
    void* blob = islands_blob(true, &size, 2.0f);
    wf_tile_ref tile;
    assert_int_equal(
        wf_mesh_add_tile(mesh, blob, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &tile), WF_OK);
    wf_poly_ref link = wf_mesh_poly_ref(mesh, tile, 2);
    assert_true(has_link(mesh, link, wf_mesh_poly_ref(mesh, tile, 0)));
    assert_false(has_link(mesh, link, wf_mesh_poly_ref(mesh, tile, 1)));
    wf_mesh_destroy(mesh);
}

static void test_offmesh_link_into_a_neighbouring_tile(void** state) {
    (void)state;
    // Tile (0,0) holds a link from (1.5, 1.5) to (5.5, 1.5), inside tile (1,0).
    wf_offmesh_link_desc link = {
        .start = wf_v3(1.5f, 0, 1.5f), .end = wf_v3(5.5f, 0, 1.5f), .radius = 0.2f, .flags = 1};
    for (int order = 0; order < 2; ++order) {
        wf_mesh* mesh = make_mesh(4, NULL);
        size_t size0 = 0, size1 = 0;
        void* grid0 = test_grid_tile(0, 0, 2, N, 1.0f, NULL, NULL, NULL, &size0);
        // Rebuild tile 0 with the link: reuse its geometry through the blob.
        const wf_tile_header* h = grid0;
        wf_tile_build_desc d;
        memset(&d, 0, sizeof d);
        d.bmin = wf_v3(h->bmin[0], h->bmin[1], h->bmin[2]);
        d.bmax = wf_v3(h->bmax[0], h->bmax[1], h->bmax[2]);
        d.verts = (const float*)((const unsigned char*)grid0 + h->verts_offset);
        d.vert_count = h->vert_count;
        uint16_t polys[N * N * WF_MAX_VERTS_PER_POLY];
        const wf_tile_poly* src =
            (const wf_tile_poly*)((const unsigned char*)grid0 + h->polys_offset);
        for (uint32_t i = 0; i < h->poly_count; ++i) {
            memcpy(&polys[i * WF_MAX_VERTS_PER_POLY], src[i].verts, sizeof src[i].verts);
        }
        d.polys = polys;
        d.poly_count = h->poly_count;
        d.offmesh_links = &link;
        d.offmesh_link_count = 1;
        d.walkable_climb = 0.5f;
        void* with_link = NULL;
        assert_int_equal(wf_tile_build(&d, &with_link, &size0), WF_OK);
        wf_tile_free(grid0, h->data_size, NULL);
        void* grid1 = test_grid_tile(1, 0, 2, N, 1.0f, NULL, NULL, NULL, &size1);
        wf_tile_ref t0, t1;
        if (order == 0) {
            assert_int_equal(wf_mesh_add_tile(mesh, with_link, size0, WF_TILE_MESH_OWNS_DATA,
                                              (wf_tile_ref){0}, &t0),
                             WF_OK);
            assert_int_equal(
                wf_mesh_add_tile(mesh, grid1, size1, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &t1),
                WF_OK);
        } else {
            assert_int_equal(
                wf_mesh_add_tile(mesh, grid1, size1, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &t1),
                WF_OK);
            assert_int_equal(wf_mesh_add_tile(mesh, with_link, size0, WF_TILE_MESH_OWNS_DATA,
                                              (wf_tile_ref){0}, &t0),
                             WF_OK);
        }
        wf_poly_ref offmesh = wf_mesh_poly_ref(mesh, t0, N * N);
        wf_poly_ref start_land = wf_mesh_poly_ref(mesh, t0, 1 * N + 1);
        wf_poly_ref end_land = wf_mesh_poly_ref(mesh, t1, 1 * N + 1); // cell (5, 1)
        assert_true(wf_mesh_is_offmesh_link(mesh, offmesh));
        assert_true(has_link(mesh, start_land, offmesh));
        assert_true(has_link(mesh, offmesh, end_land));
        assert_int_equal(wf_mesh_remove_tile(mesh, t1, NULL, NULL), WF_OK);
        assert_false(has_link(mesh, offmesh, end_land));
        wf_mesh_destroy(mesh);
    }
}

static void test_diag_backlink_removed(void** state) {
    (void)state;
    wf_offmesh_link_desc link = {.start = wf_v3(1.5f, 0, 1.5f),
                                 .end = wf_v3(5.5f, 0, 5.5f),
                                 .bidirectional = true,
                                 .radius = 0.2f,
                                 .flags = 1};
    wf_mesh* mesh = make_mesh(4, NULL);
    size_t size0 = 0, size1 = 0;
    void* grid0 = test_grid_tile(0, 0, 2, N, 1.0f, NULL, NULL, NULL, &size0);
    const wf_tile_header* h = grid0;
    wf_tile_build_desc d;
    memset(&d, 0, sizeof d);
    d.bmin = wf_v3(h->bmin[0], h->bmin[1], h->bmin[2]);
    d.bmax = wf_v3(h->bmax[0], h->bmax[1], h->bmax[2]);
    d.verts = (const float*)((const unsigned char*)grid0 + h->verts_offset);
    d.vert_count = h->vert_count;
    uint16_t polys[N * N * WF_MAX_VERTS_PER_POLY];
    const wf_tile_poly* src = (const wf_tile_poly*)((const unsigned char*)grid0 + h->polys_offset);
    for (uint32_t i = 0; i < h->poly_count; ++i) {
        memcpy(&polys[i * WF_MAX_VERTS_PER_POLY], src[i].verts, sizeof src[i].verts);
    }
    d.polys = polys;
    d.poly_count = h->poly_count;
    d.offmesh_links = &link;
    d.offmesh_link_count = 1;
    d.walkable_climb = 0.5f;
    void* with_link = NULL;
    assert_int_equal(wf_tile_build(&d, &with_link, &size0), WF_OK);
    wf_tile_free(grid0, h->data_size, NULL);
    void* grid1 = test_grid_tile(1, 1, 2, N, 1.0f, NULL, NULL, NULL, &size1);
    wf_tile_ref t0, t1;
    assert_int_equal(
        wf_mesh_add_tile(mesh, with_link, size0, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &t0),
        WF_OK);
    assert_int_equal(
        wf_mesh_add_tile(mesh, grid1, size1, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &t1), WF_OK);
    wf_poly_ref offmesh = wf_mesh_poly_ref(mesh, t0, N * N);
    wf_poly_ref end_land = wf_mesh_poly_ref(mesh, t1, 1 * N + 1);
    assert_true(has_link(mesh, offmesh, end_land));
    assert_true(has_link(mesh, end_land, offmesh));
    assert_int_equal(wf_mesh_remove_tile(mesh, t0, NULL, NULL), WF_OK);
    const wf_mesh_tile* t;
    const wf_tile_poly* p;
    assert_int_equal(wf_mesh_resolve(mesh, end_land, &t, &p), WF_OK);
    uint32_t slot0 = wf_poly_ref_tile((wf_poly_ref){t0.bits});
    for (uint32_t q = 0; q < t->header->poly_count; ++q)
        for (uint32_t k = t->first_link[q]; k != WF_NULL_LINK; k = t->links[k].next)
            assert_true(wf_poly_ref_tile((wf_poly_ref){t->links[k].ref}) != slot0);
    wf_mesh_destroy(mesh);
}

// One square as a tile of cell (0, 0) at the given layer, x from x0 to
// x0 + 1, z 0..1, at height y.
static wf_tile_ref add_square_layer(wf_mesh* mesh, int32_t layer, float x0, float y) {
    const float verts[] = {x0, y, 0, x0, y, 1, x0 + 1, y, 1, x0 + 1, y, 0};
    const uint16_t polys[] = {0, 1, 2, 3, WF_NULL_INDEX, WF_NULL_INDEX};
    wf_tile_build_desc d;
    memset(&d, 0, sizeof d);
    d.layer = layer;
    d.bmin = wf_v3(0, -1, 0);
    d.bmax = wf_v3(N, 10, N);
    d.verts = verts;
    d.vert_count = 4;
    d.polys = polys;
    d.poly_count = 1;
    d.walkable_climb = 0.5f;
    void* data = NULL;
    size_t size = 0;
    assert_int_equal(wf_tile_build(&d, &data, &size), WF_OK);
    wf_tile_ref t;
    assert_int_equal(
        wf_mesh_add_tile(mesh, data, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &t), WF_OK);
    return t;
}

static void test_layers_of_one_cell_link_at_seams(void** state) {
    (void)state;
    wf_mesh* mesh = make_mesh(8, NULL);
    // Layer 0: x 1..2 at y 0. Layer 1: x 2..3 at y 0.3 (a step within
    // climb 0.5). Layer 2: x 2..3 at y 3 (another floor above: no link).
    wf_tile_ref l0 = add_square_layer(mesh, 0, 1, 0.0f);
    wf_tile_ref l1 = add_square_layer(mesh, 1, 2, 0.3f);
    wf_tile_ref l2 = add_square_layer(mesh, 2, 2, 3.0f);
    wf_poly_ref a = wf_mesh_poly_ref(mesh, l0, 0), b = wf_mesh_poly_ref(mesh, l1, 0);
    wf_poly_ref c = wf_mesh_poly_ref(mesh, l2, 0);
    assert_true(has_link(mesh, a, b));
    assert_true(has_link(mesh, b, a));
    assert_false(has_link(mesh, a, c));
    assert_false(has_link(mesh, c, a));
    // The portal is the whole shared edge x = 2, z 0..1.
    const wf_mesh_tile *ta, *tb;
    const wf_tile_poly *pa, *pb;
    assert_int_equal(wf_mesh_resolve(mesh, a, &ta, &pa), WF_OK);
    assert_int_equal(wf_mesh_resolve(mesh, b, &tb, &pb), WF_OK);
    wf_vec3 l, r;
    assert_int_equal(wf_mesh_portal_points(mesh, a, ta, pa, b, tb, pb, &l, &r), WF_OK);
    assert_true(l.x == 2.0f && r.x == 2.0f);
    assert_true(fminf(l.z, r.z) == 0.0f && fmaxf(l.z, r.z) == 1.0f);
    // Removing layer 1 unlinks it; adding it back relinks.
    assert_int_equal(wf_mesh_remove_tile(mesh, l1, NULL, NULL), WF_OK);
    assert_int_equal(wf_mesh_resolve(mesh, a, &ta, &pa), WF_OK);
    assert_int_equal(ta->first_link[0], WF_NULL_LINK);
    l1 = add_square_layer(mesh, 1, 2, 0.3f);
    assert_true(has_link(mesh, a, wf_mesh_poly_ref(mesh, l1, 0)));
    wf_mesh_destroy(mesh);
}

// A tile without polygons (a layer whose ground is all carved away) is
// still a tile: it can be found, described and removed.
static void test_empty_tile_can_be_removed(void** state) {
    (void)state;
    wf_mesh* mesh = make_mesh(4, NULL);
    wf_tile_build_desc d;
    memset(&d, 0, sizeof d);
    d.tile_x = 1;
    d.bmin = wf_v3(N, -1, 0);
    d.bmax = wf_v3(2 * N, 1, N);
    void* data = NULL;
    size_t size = 0;
    assert_int_equal(wf_tile_build(&d, &data, &size), WF_OK);
    wf_tile_ref t;
    assert_int_equal(
        wf_mesh_add_tile(mesh, data, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &t), WF_OK);
    wf_tile_info info;
    assert_int_equal(wf_mesh_get_tile_info(mesh, t, &info), WF_OK);
    assert_int_equal(info.poly_count, 0);
    size_t state_size = 0;
    assert_int_equal(wf_mesh_tile_state_size(mesh, t, &state_size), WF_OK);
    assert_int_equal(wf_mesh_remove_tile(mesh, t, NULL, NULL), WF_OK);
    assert_int_equal(wf_mesh_remove_tile(mesh, t, NULL, NULL), WF_ERR_STALE_REF);
    wf_tile_ref found;
    assert_int_equal(wf_mesh_find_tile(mesh, 1, 0, 0, &found), WF_ERR_NOT_FOUND);
    wf_mesh_destroy(mesh);
}

static void test_flags_and_areas(void** state) {
    (void)state;
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    wf_mesh* mesh = make_mesh(4, NULL);
    wf_tile_ref t = add_grid_tile(mesh, 0, 0, 1);
    wf_poly_ref p = wf_mesh_poly_ref(mesh, t, 6);
    uint16_t flags = 0;
    uint8_t area = 99;
    assert_int_equal(wf_mesh_get_poly_flags(mesh, p, &flags), WF_OK);
    assert_int_equal(flags, 1);
    assert_int_equal(wf_mesh_get_poly_area(mesh, p, &area), WF_OK);
    assert_int_equal(area, 0);
    assert_int_equal(wf_mesh_set_poly_flags(mesh, p, 0x8004), WF_OK);
    assert_int_equal(wf_mesh_set_poly_area(mesh, p, 63), WF_OK);
    assert_int_equal(wf_mesh_set_poly_area(mesh, p, 64), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_mesh_get_poly_flags(mesh, p, &flags), WF_OK);
    assert_int_equal(wf_mesh_get_poly_area(mesh, p, &area), WF_OK);
    assert_int_equal(flags, 0x8004);
    assert_int_equal(area, 63);
    // Neighbours untouched.
    assert_int_equal(wf_mesh_get_poly_flags(mesh, wf_mesh_poly_ref(mesh, t, 5), &flags), WF_OK);
    assert_int_equal(flags, 1);
    assert_int_equal(wf_mesh_set_poly_flags(NULL, p, 1), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_mesh_get_poly_flags(mesh, p, NULL), WF_ERR_INVALID_ARG);
    wf_mesh_destroy(mesh);
    wf_set_assert_hook(previous);
}

static void test_add_tile_bad_arguments(void** state) {
    (void)state;
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    wf_mesh* mesh = make_mesh(4, NULL);
    size_t size = 0;
    void* blob = test_grid_tile(0, 0, 1, N, 1.0f, NULL, NULL, NULL, &size);
    wf_tile_ref t;
    assert_int_equal(wf_mesh_add_tile(mesh, NULL, size, 0, (wf_tile_ref){0}, &t),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_mesh_add_tile(mesh, blob, size, 0x10, (wf_tile_ref){0}, &t),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_mesh_add_tile(mesh, blob, size - 16, 0, (wf_tile_ref){0}, &t),
                     WF_ERR_BAD_DATA);
    // A requested ref naming a polygon, generation 0, or a slot past the end.
    assert_int_equal(
        wf_mesh_add_tile(mesh, blob, size, 0, (wf_tile_ref){wf_poly_ref_make(1, 0, 3).bits}, &t),
        WF_ERR_INVALID_ARG);
    assert_int_equal(
        wf_mesh_add_tile(mesh, blob, size, 0, (wf_tile_ref){wf_poly_ref_make(0, 1, 0).bits}, &t),
        WF_ERR_INVALID_ARG);
    assert_int_equal(
        wf_mesh_add_tile(mesh, blob, size, 0, (wf_tile_ref){wf_poly_ref_make(1, 9, 0).bits}, &t),
        WF_ERR_INVALID_ARG);
    assert_int_equal(wf_mesh_get_stats(mesh).tile_count, 0);
    assert_int_equal(wf_mesh_remove_tile(mesh, (wf_tile_ref){0}, NULL, NULL), WF_ERR_INVALID_ARG);
    wf_tile_free(blob, size, NULL);
    wf_mesh_destroy(mesh);
    wf_mesh_destroy(NULL);
    wf_set_assert_hook(previous);
}

static void test_poly_surface(void** state) {
    (void)state;
    // Cells of 0.5 m: a quarter square metre each; stale and null refs fail.
    wf_mesh* mesh = test_mesh_grid(1, 1, 4, 0.5f, NULL, NULL, NULL);
    assert_non_null(mesh);
    float m2 = -1.0f;
    wf_poly_ref ref = test_grid_poly(mesh, 4, 2, 3);
    assert_int_equal(wf_mesh_get_poly_surface(mesh, ref, &m2), WF_OK);
    assert_float_equal(m2, 0.25f, 1e-6f);
    wf_poly_ref none = {0};
    assert_true(wf_mesh_get_poly_surface(mesh, none, &m2) < 0);
    wf_tile_ref tiles[1];
    assert_int_equal(wf_mesh_get_tiles(mesh, tiles, 1), 1u);
    assert_int_equal(wf_mesh_remove_tile(mesh, tiles[0], NULL, NULL), WF_OK);
    assert_true(wf_mesh_get_poly_surface(mesh, ref, &m2) < 0);
    wf_mesh_destroy(mesh);
}

/// The debug API: outlines as built (islands_blob), links with their
/// direction, failures for null, stale and NULL, *out then untouched.
static void test_poly_outline(void** state) {
    (void)state;
    static const float square_b[4][3] = {{3, 0, 0}, {3, 0, 1}, {4, 0, 1}, {4, 0, 0}};
    for (int bidirectional = 0; bidirectional < 2; ++bidirectional) {
        wf_mesh* mesh = make_mesh(4, NULL);
        size_t size = 0;
        void* blob = islands_blob(bidirectional, &size, 3.5f);
        wf_tile_ref tile;
        assert_int_equal(
            wf_mesh_add_tile(mesh, blob, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &tile),
            WF_OK);
        wf_poly_outline o;
        assert_int_equal(wf_mesh_get_poly_outline(mesh, wf_mesh_poly_ref(mesh, tile, 1), &o),
                         WF_OK);
        assert_int_equal(o.vert_count, 4);
        assert_false(o.is_offmesh_link);
        assert_false(o.is_bidirectional);
        for (uint32_t k = 0; k < 4; ++k) {
            assert_true(o.verts[k].x == square_b[k][0] && o.verts[k].y == square_b[k][1] &&
                        o.verts[k].z == square_b[k][2]);
        }
        wf_poly_ref link = wf_mesh_poly_ref(mesh, tile, 2);
        assert_int_equal(wf_mesh_get_poly_outline(mesh, link, &o), WF_OK);
        assert_int_equal(o.vert_count, 2);
        assert_true(o.is_offmesh_link);
        assert_int_equal(o.is_bidirectional, bidirectional);
        assert_true(o.verts[0].x == 0.5f && o.verts[0].z == 0.5f);
        assert_true(o.verts[1].x == 3.5f && o.verts[1].z == 0.5f);

        wf_poly_outline kept;
        memset(&kept, 0xab, sizeof kept);
        wf_poly_outline out = kept;
        assert_int_equal(wf_mesh_get_poly_outline(mesh, (wf_poly_ref){0}, &out),
                         WF_ERR_INVALID_ARG);
        wf_assert_fn* hook = wf_set_assert_hook(test_ignore_assert);
        assert_int_equal(wf_mesh_get_poly_outline(NULL, link, &out), WF_ERR_INVALID_ARG);
        assert_int_equal(wf_mesh_get_poly_outline(mesh, link, NULL), WF_ERR_INVALID_ARG);
        wf_set_assert_hook(hook);
        assert_int_equal(wf_mesh_remove_tile(mesh, tile, NULL, NULL), WF_OK);
        assert_int_equal(wf_mesh_get_poly_outline(mesh, link, &out), WF_ERR_STALE_REF);
        assert_memory_equal(&out, &kept, sizeof out);
        wf_mesh_destroy(mesh);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_rejects_bad_desc),
        cmocka_unit_test(test_tiles_refs_and_generations),
        cmocka_unit_test(test_unowned_data_is_handed_back),
        cmocka_unit_test(test_portals_stitch_across_tile_borders),
        cmocka_unit_test(test_offmesh_links),
        cmocka_unit_test(test_offmesh_link_into_a_neighbouring_tile),
        cmocka_unit_test(test_diag_backlink_removed),
        cmocka_unit_test(test_layers_of_one_cell_link_at_seams),
        cmocka_unit_test(test_empty_tile_can_be_removed),
        cmocka_unit_test(test_flags_and_areas),
        cmocka_unit_test(test_add_tile_bad_arguments),
        cmocka_unit_test(test_poly_surface),
        cmocka_unit_test(test_poly_outline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
