// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Misuse of the navmesh, query and job APIs: NULL pointers, NaN, stale and
// wrong-kind refs, refs left over from a removed tile, bad job systems.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "misuse_common.h"

/* ---------------------------------------------------------------------------
 * Navmesh
 */

static void test_mesh_misuse(void** state) {
    fixture* f = *state;
    snapshot before = take(f);
    wf_mesh* m = NULL;
    wf_mesh_desc md = wf_tilecache_mesh_desc(f->tc);
    md.logger.quiet = true;

    // create
    EXPECT(wf_mesh_create(NULL, &m), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_create(&md, NULL), WF_ERR_INVALID_ARG);
    const float bad_sizes[] = {0.0f, -1.0f, NAN_F, INF_F, -INF_F};
    for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; ++i) {
        wf_mesh_desc b = md;
        b.tile_width = bad_sizes[i];
        EXPECT(wf_mesh_create(&b, &m), WF_ERR_INVALID_ARG);
        b = md;
        b.tile_depth = bad_sizes[i];
        EXPECT(wf_mesh_create(&b, &m), WF_ERR_INVALID_ARG);
    }
    wf_mesh_desc b = md;
    b.origin.y = NAN_F;
    EXPECT(wf_mesh_create(&b, &m), WF_ERR_INVALID_ARG);
    b = md;
    b.origin.x = INF_F;
    EXPECT(wf_mesh_create(&b, &m), WF_ERR_INVALID_ARG);
    b = md;
    b.max_tiles = WF_MAX_TILES + 1u;
    EXPECT(wf_mesh_create(&b, &m), WF_ERR_INVALID_ARG);
    b = md;
    b.allocator.alloc = NULL;
    b.allocator.free = free_hook; // one hook without the other
    EXPECT(wf_mesh_create(&b, &m), WF_ERR_INVALID_ARG);
    EXPECT_TRUE(m == NULL);

    // A tile and a polygon of the fixture's mesh.
    wf_tile_ref tiles[64];
    uint32_t tile_count = wf_mesh_get_tiles(f->mesh, tiles, 64);
    assert_true(tile_count > 0 && tile_count <= 64);
    wf_tile_ref t = tiles[0];
    wf_poly_ref p = wf_mesh_poly_ref(f->mesh, t, 0);
    assert_false(wf_poly_ref_is_null(p));
    wf_tile_ref null_tile = {0};
    wf_poly_ref null_poly = {0};
    wf_tile_ref poly_as_tile = {wf_mesh_poly_ref(f->mesh, t, 1).bits}; // poly bits set

    // add_tile
    size_t blob_size = 0;
    void* blob = build_blob(f, &blob_size);
    wf_tile_ref out_tile = {0};
    EXPECT(wf_mesh_add_tile(NULL, blob, blob_size, 0, null_tile, &out_tile), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_add_tile(f->mesh, NULL, blob_size, 0, null_tile, &out_tile), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_add_tile(f->mesh, blob, blob_size, 0, null_tile, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_add_tile(f->mesh, blob, blob_size, 0x10u, null_tile, &out_tile),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_add_tile(f->mesh, blob, 0, 0, null_tile, &out_tile), WF_ERR_BAD_DATA);
    EXPECT(wf_mesh_add_tile(f->mesh, blob, blob_size - 1, 0, null_tile, &out_tile),
           WF_ERR_BAD_DATA);
    // The fixture already holds a tile at this cell and layer.
    EXPECT(wf_mesh_add_tile(f->mesh, blob, blob_size, 0, null_tile, &out_tile), WF_ERR_BUSY);
    EXPECT_TRUE(out_tile.bits == 0);
    EXPECT_UNCHANGED(f, &before);
    {
        wf_mesh* empty = NULL;
        assert_int_equal(wf_mesh_create(&md, &empty), WF_OK);
        EXPECT(wf_mesh_add_tile(empty, blob, blob_size, 0, poly_as_tile, &out_tile),
               WF_ERR_INVALID_ARG);
        wf_tile_ref no_generation = {wf_poly_ref_make(0, 1, 0).bits};
        EXPECT(wf_mesh_add_tile(empty, blob, blob_size, 0, no_generation, &out_tile),
               WF_ERR_INVALID_ARG);
        wf_tile_ref past_end = {
            wf_poly_ref_make(1, md.max_tiles != 0 ? md.max_tiles : 1024, 0).bits};
        EXPECT(wf_mesh_add_tile(empty, blob, blob_size, 0, past_end, &out_tile),
               WF_ERR_INVALID_ARG);
        // Corrupt blobs: a flipped byte after the header (checksum), a bad
        // magic, another version. (The run-time section at the end is the
        // mesh's scratch, rewritten on add, and not checksummed.)
        unsigned char* bytes = blob;
        assert_true(blob_size > 160);
        bytes[150] ^= 0x5a;
        EXPECT(wf_tile_validate(blob, blob_size), WF_ERR_BAD_DATA);
        EXPECT(wf_mesh_add_tile(empty, blob, blob_size, 0, null_tile, &out_tile), WF_ERR_BAD_DATA);
        bytes[150] ^= 0x5a;
        bytes[0] ^= 0xff;
        EXPECT(wf_mesh_add_tile(empty, blob, blob_size, 0, null_tile, &out_tile), WF_ERR_BAD_DATA);
        bytes[0] ^= 0xff;
        bytes[4] ^= 0x01;
        EXPECT(wf_tile_validate(blob, blob_size), WF_ERR_VERSION);
        EXPECT(wf_mesh_add_tile(empty, blob, blob_size, 0, null_tile, &out_tile), WF_ERR_VERSION);
        bytes[4] ^= 0x01;
        EXPECT(wf_tile_validate((unsigned char*)blob + 4, blob_size - 4), WF_ERR_INVALID_ARG);
        EXPECT(wf_tile_validate((unsigned char*)blob + 16, blob_size - 16), WF_ERR_BAD_DATA);
        EXPECT_TRUE(wf_mesh_get_stats(empty).tile_count == 0);
        EXPECT(wf_tile_validate(blob, blob_size), WF_OK);
        EXPECT(wf_mesh_add_tile(empty, blob, blob_size, 0, null_tile, &out_tile), WF_OK);
        EXPECT_TRUE(wf_mesh_get_stats(empty).tile_count == 1);
        void* back = NULL;
        size_t back_size = 0;
        EXPECT(wf_mesh_remove_tile(empty, out_tile, &back, &back_size), WF_OK);
        EXPECT_TRUE(back == blob && back_size == blob_size);
        wf_mesh_destroy(empty);
    }
    free(blob);

    // remove_tile
    EXPECT(wf_mesh_remove_tile(NULL, t, NULL, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_remove_tile(f->mesh, null_tile, NULL, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_remove_tile(f->mesh, poly_as_tile, NULL, NULL), WF_ERR_INVALID_ARG);
    // find_tile, get_tile_info
    wf_tile_info info;
    EXPECT(wf_mesh_get_tile_info(f->mesh, t, &info), WF_OK);
    wf_tile_ref found;
    EXPECT(wf_mesh_find_tile(NULL, info.tile_x, info.tile_z, info.layer, &found),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_find_tile(f->mesh, info.tile_x, info.tile_z, info.layer, NULL),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_find_tile(f->mesh, -100, -100, 0, &found), WF_ERR_NOT_FOUND);
    EXPECT(wf_mesh_find_tile(f->mesh, INT32_MIN, INT32_MAX, -1, &found), WF_ERR_NOT_FOUND);
    EXPECT(wf_mesh_get_tile_info(NULL, t, &info), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_get_tile_info(f->mesh, t, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_get_tile_info(f->mesh, null_tile, &info), WF_ERR_INVALID_ARG);
    // check_poly, flags, areas
    EXPECT(wf_mesh_check_poly(NULL, p), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_check_poly(f->mesh, null_poly), WF_ERR_INVALID_ARG);
    wf_poly_ref past_polys = wf_poly_ref_from_u64(p.bits | (WF_MAX_POLYS_PER_TILE - 1u));
    EXPECT(wf_mesh_check_poly(f->mesh, past_polys), WF_ERR_STALE_REF);
    uint16_t flags = 0;
    uint8_t area = 0;
    EXPECT(wf_mesh_get_poly_flags(f->mesh, p, &flags), WF_OK);
    EXPECT(wf_mesh_set_poly_flags(NULL, p, 7), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_set_poly_flags(f->mesh, null_poly, 7), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_get_poly_flags(NULL, p, &flags), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_get_poly_flags(f->mesh, p, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_get_poly_flags(f->mesh, null_poly, &flags), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_set_poly_area(NULL, p, 1), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_set_poly_area(f->mesh, p, WF_MAX_AREAS), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_get_poly_area(f->mesh, p, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_get_poly_area(f->mesh, p, &area), WF_OK);
    EXPECT_TRUE(area == 0);
    float surface = -1.0f;
    EXPECT(wf_mesh_get_poly_surface(NULL, p, &surface), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_get_poly_surface(f->mesh, p, NULL), WF_ERR_INVALID_ARG);
    EXPECT_TRUE(wf_mesh_get_poly_surface(f->mesh, null_poly, &surface) < 0);
    EXPECT_TRUE(surface == -1.0f); // untouched on failure
    EXPECT(wf_mesh_get_poly_surface(f->mesh, p, &surface), WF_OK);
    EXPECT_TRUE(surface > 0.0f && isfinite(surface));
    // poly outline (debug API): NULL mesh or out, null ref; out untouched
    wf_poly_outline outline;
    memset(&outline, 0, sizeof outline);
    EXPECT(wf_mesh_get_poly_outline(NULL, p, &outline), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_get_poly_outline(f->mesh, p, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_get_poly_outline(f->mesh, null_poly, &outline), WF_ERR_INVALID_ARG);
    EXPECT_TRUE(outline.vert_count == 0);
    EXPECT(wf_mesh_get_poly_outline(f->mesh, p, &outline), WF_OK);
    EXPECT_TRUE(outline.vert_count >= 3 && outline.vert_count <= WF_MAX_VERTS_PER_POLY &&
                !outline.is_offmesh_link);
    // poly edges (debug API): NULL mesh, count or buffer, null ref; short
    // buffer is a capacity error that still reports the count
    wf_poly_edge edges[WF_MAX_VERTS_PER_POLY];
    uint32_t edge_count = 0;
    EXPECT(wf_mesh_get_poly_edges(NULL, p, edges, WF_MAX_VERTS_PER_POLY, &edge_count),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_get_poly_edges(f->mesh, p, edges, WF_MAX_VERTS_PER_POLY, NULL),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_get_poly_edges(f->mesh, p, NULL, WF_MAX_VERTS_PER_POLY, &edge_count),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_get_poly_edges(f->mesh, null_poly, edges, WF_MAX_VERTS_PER_POLY, &edge_count),
           WF_ERR_INVALID_ARG);
    EXPECT_TRUE(edge_count == 0);
    EXPECT(wf_mesh_get_poly_edges(f->mesh, p, edges, 1, &edge_count), WF_ERR_CAPACITY);
    EXPECT_TRUE(edge_count == outline.vert_count);
    EXPECT(wf_mesh_get_poly_edges(f->mesh, p, edges, WF_MAX_VERTS_PER_POLY, &edge_count), WF_OK);
    uint16_t flags_after = 0;
    EXPECT(wf_mesh_get_poly_flags(f->mesh, p, &flags_after), WF_OK);
    EXPECT_TRUE(flags_after == flags);
    EXPECT(wf_mesh_get_offmesh_user_id(f->mesh, p, NULL), WF_ERR_INVALID_ARG);
    wf_vec3 a, e;
    EXPECT(wf_mesh_get_offmesh_endpoints(f->mesh, null_poly, p, NULL, &e), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_get_offmesh_endpoints(f->mesh, null_poly, p, &a, NULL), WF_ERR_INVALID_ARG);

    // Tile state and mesh saves: NULL, small buffers, corrupt bytes.
    size_t state_size = 0;
    EXPECT(wf_mesh_tile_state_size(f->mesh, t, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_tile_state_size(NULL, t, &state_size), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_tile_state_size(f->mesh, t, &state_size), WF_OK);
    unsigned char* st = malloc(state_size);
    assert_non_null(st);
    EXPECT(wf_mesh_store_tile_state(f->mesh, t, NULL, state_size), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_store_tile_state(f->mesh, t, st, state_size - 1), WF_ERR_CAPACITY);
    EXPECT(wf_mesh_store_tile_state(f->mesh, t, st, state_size), WF_OK);
    EXPECT(wf_mesh_restore_tile_state(NULL, t, st, state_size), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_restore_tile_state(f->mesh, t, NULL, state_size), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_restore_tile_state(f->mesh, t, st, state_size - 1), WF_ERR_BAD_DATA);
    EXPECT(wf_mesh_restore_tile_state(f->mesh, tiles[tile_count - 1], st, state_size),
           tile_count > 1 ? WF_ERR_BAD_DATA : WF_OK); // another tile's state
    st[0] ^= 0xff;
    EXPECT(wf_mesh_restore_tile_state(f->mesh, t, st, state_size), WF_ERR_BAD_DATA);
    st[0] ^= 0xff;
    st[4] ^= 0x01;
    EXPECT(wf_mesh_restore_tile_state(f->mesh, t, st, state_size), WF_ERR_VERSION);
    st[4] ^= 0x01;
    EXPECT(wf_mesh_restore_tile_state(f->mesh, t, st, state_size), WF_OK);
    free(st);

    size_t save_size = 0;
    EXPECT(wf_mesh_save_size(NULL, &save_size), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_save_size(f->mesh, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_save_size(f->mesh, &save_size), WF_OK);
    unsigned char* save = malloc(save_size);
    assert_non_null(save);
    EXPECT(wf_mesh_save(NULL, save, save_size), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_save(f->mesh, NULL, save_size), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_save(f->mesh, save, save_size - 1), WF_ERR_CAPACITY);
    EXPECT(wf_mesh_save(f->mesh, save, save_size), WF_OK);
    wf_mesh* loaded = NULL;
    EXPECT(wf_mesh_load(NULL, save, save_size, &loaded), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_load(&md, save, save_size, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_load(&md, NULL, save_size, &loaded), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_load(&md, save, 0, &loaded), WF_ERR_BAD_DATA);
    EXPECT(wf_mesh_load(&md, save, save_size - 1, &loaded), WF_ERR_BAD_DATA);
    EXPECT(wf_mesh_load(&md, save, save_size / 2, &loaded), WF_ERR_BAD_DATA);
    save[save_size - 1] ^= 0x40;
    EXPECT(wf_mesh_load(&md, save, save_size, &loaded), WF_ERR_BAD_DATA);
    save[save_size - 1] ^= 0x40;
    save[4] ^= 0x01;
    EXPECT(wf_mesh_load(&md, save, save_size, &loaded), WF_ERR_VERSION);
    save[4] ^= 0x01;
    EXPECT_TRUE(loaded == NULL);
    EXPECT(wf_mesh_load(&md, save, save_size, &loaded), WF_OK);
    EXPECT_TRUE(loaded != NULL && wf_mesh_get_stats(loaded).poly_count == before.mesh.poly_count);
    wf_mesh_destroy(loaded);
    free(save);

    // Getters tolerate NULL.
    EXPECT_TRUE(wf_mesh_get_tiles(NULL, tiles, 64) == 0);
    EXPECT_TRUE(wf_mesh_get_stats(NULL).tile_count == 0);
    EXPECT_TRUE(wf_mesh_get_tiles(f->mesh, NULL, 0) == tile_count);
    EXPECT_TRUE(wf_poly_ref_is_null(wf_mesh_poly_ref(NULL, t, 0)));
    wf_mesh_destroy(NULL);

    EXPECT_UNCHANGED(f, &before);
    EXPECT_QUERY_WORKS(f);
    end_test();
}

/* ---------------------------------------------------------------------------
 * Queries
 */

static void test_query_misuse(void** state) {
    fixture* f = *state;
    snapshot before = take(f);
    wf_query* q = f->q;
    const wf_query_filter* fl = &f->filter;
    wf_query* made = NULL;

    // create
    wf_query_desc qd = {.mesh = f->mesh};
    EXPECT(wf_query_create(NULL, &made), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_create(&qd, NULL), WF_ERR_INVALID_ARG);
    wf_query_desc no_mesh = {.mesh = NULL};
    EXPECT(wf_query_create(&no_mesh, &made), WF_ERR_INVALID_ARG);
    wf_query_desc too_many = {.mesh = f->mesh, .max_nodes = (1u << 24) + 1u};
    EXPECT(wf_query_create(&too_many, &made), WF_ERR_INVALID_ARG);
    EXPECT_TRUE(made == NULL);

    const wf_vec3 c = wf_v3(15, 0, 15), ext = wf_v3(2, 2, 2);
    const wf_vec3 bad_points[] = {wf_v3(NAN_F, 0, 15), wf_v3(15, NAN_F, 15), wf_v3(15, 0, INF_F),
                                  wf_v3(-INF_F, 0, 15)};
    const size_t nbad = sizeof bad_points / sizeof bad_points[0];
    wf_poly_ref ref, refs[16], parents[16];
    wf_poly_ref null_ref = {0};
    wf_vec3 pt;
    uint32_t n = 0;

    // find_nearest_poly
    EXPECT(wf_query_find_nearest_poly(NULL, c, ext, fl, &ref, &pt), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_nearest_poly(q, c, ext, NULL, &ref, &pt), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_nearest_poly(q, c, ext, fl, NULL, &pt), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_nearest_poly(q, c, ext, fl, &ref, NULL), WF_OK); // optional
    // Half extents: NaN or negative are misuse; +infinity means "search
    // everything" and is allowed.
    const wf_vec3 bad_extents[] = {wf_v3(NAN_F, 2, 2), wf_v3(2, NAN_F, 2), wf_v3(2, 2, -1),
                                   wf_v3(-INF_F, 2, 2)};
    const size_t nbad_ext = sizeof bad_extents / sizeof bad_extents[0];
    for (size_t i = 0; i < nbad; ++i) {
        EXPECT(wf_query_find_nearest_poly(q, bad_points[i], ext, fl, &ref, &pt),
               WF_ERR_INVALID_ARG);
    }
    for (size_t i = 0; i < nbad_ext; ++i) {
        EXPECT(wf_query_find_nearest_poly(q, c, bad_extents[i], fl, &ref, &pt), WF_ERR_INVALID_ARG);
    }
    EXPECT(wf_query_find_nearest_poly(q, c, wf_v3(INF_F, INF_F, INF_F), fl, &ref, &pt), WF_OK);
    EXPECT(wf_query_find_nearest_poly(q, wf_v3(500, 0, 500), ext, fl, &ref, &pt), WF_ERR_NOT_FOUND);
    // find_polys_in_box
    EXPECT(wf_query_find_polys_in_box(NULL, c, ext, fl, refs, 16, &n), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_polys_in_box(q, c, ext, NULL, refs, 16, &n), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_polys_in_box(q, c, ext, fl, NULL, 16, &n), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_polys_in_box(q, c, ext, fl, refs, 16, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_polys_in_box(q, c, ext, fl, NULL, 0, &n), WF_PARTIAL); // count only
    EXPECT_TRUE(n == 0);
    for (size_t i = 0; i < nbad; ++i) {
        EXPECT(wf_query_find_polys_in_box(q, bad_points[i], ext, fl, refs, 16, &n),
               WF_ERR_INVALID_ARG);
    }
    for (size_t i = 0; i < nbad_ext; ++i) {
        EXPECT(wf_query_find_polys_in_box(q, c, bad_extents[i], fl, refs, 16, &n),
               WF_ERR_INVALID_ARG);
    }

    wf_poly_ref start = nearest(f, wf_v3(3, 0, 3));
    wf_poly_ref end = nearest(f, wf_v3(27, 0, 27));
    wf_vec3 sp = wf_v3(3, 0, 3), ep = wf_v3(27, 0, 27);
    // closest_point_on_poly, poly_height
    bool inside;
    float h;
    EXPECT(wf_query_closest_point_on_poly(NULL, start, sp, &pt, &inside), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_closest_point_on_poly(q, start, sp, NULL, &inside), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_closest_point_on_poly(q, null_ref, sp, &pt, &inside), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_closest_point_on_poly(q, start, sp, &pt, NULL), WF_OK); // optional
    EXPECT(wf_query_poly_height(NULL, start, sp, &h), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_poly_height(q, start, sp, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_poly_height(q, null_ref, sp, &h), WF_ERR_INVALID_ARG);
    for (size_t i = 0; i < nbad; ++i) {
        EXPECT(wf_query_closest_point_on_poly(q, start, bad_points[i], &pt, &inside),
               WF_ERR_INVALID_ARG);
        EXPECT(wf_query_poly_height(q, start, bad_points[i], &h), WF_ERR_INVALID_ARG);
    }

    // Exact-mode landmark tables: bad descs leave *out alone; one set and
    // cleared again leaves the searches below as they were.
    wf_exact_landmarks* table = NULL;
    wf_exact_landmarks_desc ld = {.mesh = f->mesh, .landmark_count = 2};
    EXPECT(wf_exact_landmarks_build(NULL, &table), WF_ERR_INVALID_ARG);
    EXPECT(wf_exact_landmarks_build(&ld, NULL), WF_ERR_INVALID_ARG);
    wf_exact_landmarks_desc ld_bad = ld;
    ld_bad.mesh = NULL;
    EXPECT(wf_exact_landmarks_build(&ld_bad, &table), WF_ERR_INVALID_ARG);
    ld_bad = ld;
    ld_bad.landmark_count = 0;
    EXPECT(wf_exact_landmarks_build(&ld_bad, &table), WF_ERR_INVALID_ARG);
    ld_bad.landmark_count = 17;
    EXPECT(wf_exact_landmarks_build(&ld_bad, &table), WF_ERR_INVALID_ARG);
    EXPECT_TRUE(table == NULL);
    EXPECT_TRUE(wf_exact_landmarks_memory_bytes(NULL) == 0);
    wf_exact_landmarks_destroy(NULL);
    EXPECT(wf_query_set_exact_landmarks(NULL, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_exact_landmarks_build(&ld, &table), WF_OK);
    EXPECT_TRUE(wf_exact_landmarks_memory_bytes(table) > 0);
    EXPECT(wf_query_set_exact_landmarks(NULL, table), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_set_exact_landmarks(q, table), WF_OK);
    EXPECT(wf_query_set_exact_landmarks(q, NULL), WF_OK);
    wf_exact_landmarks_destroy(table);

    // Paths
    wf_poly_ref path[64];
    wf_path_result pr;
    // A cost scale on no query is reported and does nothing; one set and
    // cleared again leaves the searches below as they were.
    wf_query_set_cost_scale(NULL, NULL, NULL);
    wf_query_set_cost_scale(q, NULL, q);
    wf_query_filter nan_cost = *fl, negative_cost = *fl;
    nan_cost.area_cost[0] = NAN_F;
    negative_cost.area_cost[3] = -1.0f;
    EXPECT(wf_query_find_path(NULL, start, end, sp, ep, fl, path, 64, &pr), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_path(q, start, end, sp, ep, NULL, path, 64, &pr), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_path(q, start, end, sp, ep, fl, NULL, 64, &pr), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_path(q, start, end, sp, ep, fl, path, 0, &pr), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_path(q, start, end, sp, ep, fl, path, 64, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_path(q, null_ref, end, sp, ep, fl, path, 64, &pr), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_path(q, start, null_ref, sp, ep, fl, path, 64, &pr), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_path(q, start, end, sp, ep, &nan_cost, path, 64, &pr), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_path(q, start, end, sp, ep, &negative_cost, path, 64, &pr),
           WF_ERR_INVALID_ARG);
    for (size_t i = 0; i < nbad; ++i) {
        EXPECT(wf_query_find_path(q, start, end, bad_points[i], ep, fl, path, 64, &pr),
               WF_ERR_INVALID_ARG);
        EXPECT(wf_query_find_path(q, start, end, sp, bad_points[i], fl, path, 64, &pr),
               WF_ERR_INVALID_ARG);
    }
    // Sliced: no search running, then misuse while one runs leaves it running.
    uint32_t iters = 0;
    EXPECT(wf_query_update_path(NULL, 10, &iters), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_update_path(q, 10, &iters), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_finish_path(q, path, 64, &pr), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_finish_partial_path(q, &start, 1, path, 64, &pr), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_begin_path(NULL, start, end, sp, ep, fl), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_begin_path(q, start, end, sp, ep, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_begin_path(q, null_ref, end, sp, ep, fl), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_begin_path(q, start, end, bad_points[0], ep, fl), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_begin_path(q, start, end, sp, ep, &nan_cost), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_begin_path(q, start, end, sp, ep, fl), WF_OK);
    EXPECT(wf_query_begin_path(q, null_ref, end, sp, ep, fl), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_finish_path(NULL, path, 64, &pr), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_finish_path(q, NULL, 64, &pr), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_finish_path(q, path, 0, &pr), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_finish_path(q, path, 64, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_finish_partial_path(q, NULL, 1, path, 64, &pr), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_finish_partial_path(q, &start, 0, path, 64, &pr), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_finish_partial_path(q, &start, 1, NULL, 64, &pr), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_finish_partial_path(q, &start, 1, path, 0, &pr), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_finish_partial_path(q, &start, 1, path, 64, NULL), WF_ERR_INVALID_ARG);
    wf_status us;
    do {
        us = wf_query_update_path(q, 4, NULL); // out_iterations optional
    } while (us == WF_IN_PROGRESS);
    EXPECT(us, WF_OK);
    EXPECT(wf_query_finish_path(q, path, 64, &pr), WF_OK); // the search survived the misuse
    EXPECT_TRUE(pr.count > 0 && path[0].bits == start.bits && path[pr.count - 1].bits == end.bits);
    // path_exists
    bool exists = false;
    EXPECT(wf_query_path_exists(NULL, start, end, sp, ep, fl, &exists), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_path_exists(q, start, end, sp, ep, NULL, &exists), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_path_exists(q, start, end, sp, ep, fl, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_path_exists(q, start, null_ref, sp, ep, fl, &exists), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_path_exists(q, start, end, sp, bad_points[1], fl, &exists), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_path_exists(q, start, end, sp, ep, &negative_cost, &exists),
           WF_ERR_INVALID_ARG);
    // find_path_to_box
    wf_vec3 goal;
    const wf_vec3 bmin = wf_v3(20, -1, 20), bmax = wf_v3(22, 1, 22);
    EXPECT(wf_query_find_path_to_box(NULL, start, sp, bmin, bmax, fl, path, 64, &pr, &goal),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_path_to_box(q, start, sp, bmin, bmax, NULL, path, 64, &pr, &goal),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_path_to_box(q, start, sp, bmin, bmax, fl, NULL, 64, &pr, &goal),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_path_to_box(q, start, sp, bmin, bmax, fl, path, 0, &pr, &goal),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_path_to_box(q, start, sp, bmin, bmax, fl, path, 64, NULL, &goal),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_path_to_box(q, start, sp, bmax, bmin, fl, path, 64, &pr, &goal),
           WF_ERR_INVALID_ARG); // inverted box
    EXPECT(wf_query_find_path_to_box(q, start, sp, bad_points[0], bmax, fl, path, 64, &pr, &goal),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_path_to_box(q, null_ref, sp, bmin, bmax, fl, path, 64, &pr, &goal),
           WF_ERR_INVALID_ARG);
    // find_nearest_goal
    wf_poly_ref goals[2] = {end, start};
    uint32_t gi = 0;
    wf_poly_ref with_null[2] = {end, null_ref};
    EXPECT(wf_query_find_nearest_goal(NULL, start, sp, goals, 2, fl, &gi, path, 64, &pr),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_nearest_goal(q, start, sp, NULL, 2, fl, &gi, path, 64, &pr),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_nearest_goal(q, start, sp, goals, 0, fl, &gi, path, 64, &pr),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_nearest_goal(q, start, sp, goals, 2, NULL, &gi, path, 64, &pr),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_nearest_goal(q, start, sp, goals, 2, fl, NULL, path, 64, &pr),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_nearest_goal(q, start, sp, goals, 2, fl, &gi, NULL, 64, &pr),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_nearest_goal(q, start, sp, goals, 2, fl, &gi, path, 0, &pr),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_nearest_goal(q, start, sp, goals, 2, fl, &gi, path, 64, NULL),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_nearest_goal(q, start, sp, with_null, 2, fl, &gi, path, 64, &pr),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_nearest_goal(q, start, bad_points[2], goals, 2, fl, &gi, path, 64, &pr),
           WF_ERR_INVALID_ARG);
    // find_straight_path
    EXPECT(wf_query_find_path(q, start, end, sp, ep, fl, path, 64, &pr), WF_OK);
    wf_straight_point pts[8];
    EXPECT(wf_query_find_straight_path(NULL, sp, ep, path, pr.count, pts, 8, 0, &n),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_straight_path(q, sp, ep, NULL, pr.count, pts, 8, 0, &n),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_straight_path(q, sp, ep, path, 0, pts, 8, 0, &n), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_straight_path(q, sp, ep, path, pr.count, NULL, 8, 0, &n),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_straight_path(q, sp, ep, path, pr.count, pts, 0, 0, &n),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_straight_path(q, sp, ep, path, pr.count, pts, 8, 0, NULL),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_straight_path(q, sp, ep, path, pr.count, pts, 8, 0x80u, &n),
           WF_ERR_INVALID_ARG); // unknown option
    EXPECT(wf_query_find_straight_path(q, bad_points[3], ep, path, pr.count, pts, 8, 0, &n),
           WF_ERR_INVALID_ARG);
    // raycast, move_along_surface
    wf_raycast_hit hit;
    EXPECT(wf_query_raycast(NULL, start, sp, ep, fl, refs, 16, &hit), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_raycast(q, start, sp, ep, NULL, refs, 16, &hit), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_raycast(q, start, sp, ep, fl, refs, 16, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_raycast(q, null_ref, sp, ep, fl, refs, 16, &hit), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_raycast(q, start, sp, ep, fl, NULL, 0, &hit), WF_OK); // visited optional
    wf_vec3 moved;
    EXPECT(wf_query_move_along_surface(NULL, start, sp, ep, fl, &moved, refs, 16, &n),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_move_along_surface(q, start, sp, ep, NULL, &moved, refs, 16, &n),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_move_along_surface(q, start, sp, ep, fl, NULL, refs, 16, &n),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_move_along_surface(q, null_ref, sp, ep, fl, &moved, refs, 16, &n),
           WF_ERR_INVALID_ARG);
    for (size_t i = 0; i < nbad; ++i) {
        EXPECT(wf_query_raycast(q, start, bad_points[i], ep, fl, refs, 16, &hit),
               WF_ERR_INVALID_ARG);
        EXPECT(wf_query_raycast(q, start, sp, bad_points[i], fl, refs, 16, &hit),
               WF_ERR_INVALID_ARG);
        EXPECT(wf_query_move_along_surface(q, start, bad_points[i], ep, fl, &moved, refs, 16, &n),
               WF_ERR_INVALID_ARG);
        EXPECT(wf_query_move_along_surface(q, start, sp, bad_points[i], fl, &moved, refs, 16, &n),
               WF_ERR_INVALID_ARG);
    }
    // Circles, neighbourhoods, walls
    float costs[16], dist;
    wf_vec3 hit_pos, hit_normal, segs[32];
    const float bad_radii[] = {-1.0f, NAN_F, INF_F};
    EXPECT(wf_query_find_polys_around_circle(NULL, start, sp, 5, fl, refs, parents, costs, 16, &n),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_polys_around_circle(q, start, sp, 5, NULL, refs, parents, costs, 16, &n),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_polys_around_circle(q, start, sp, 5, fl, NULL, parents, costs, 16, &n),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_polys_around_circle(q, start, sp, 5, fl, refs, parents, costs, 16, NULL),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_polys_around_circle(q, null_ref, sp, 5, fl, refs, NULL, NULL, 16, &n),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_local_neighbourhood(NULL, start, sp, 5, fl, refs, parents, 16, &n),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_local_neighbourhood(q, start, sp, 5, NULL, refs, parents, 16, &n),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_local_neighbourhood(q, start, sp, 5, fl, NULL, parents, 16, &n),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_local_neighbourhood(q, start, sp, 5, fl, refs, parents, 16, NULL),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_local_neighbourhood(q, null_ref, sp, 5, fl, refs, NULL, 16, &n),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_distance_to_wall(NULL, start, sp, 5, fl, &dist, &hit_pos, &hit_normal),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_distance_to_wall(q, start, sp, 5, NULL, &dist, &hit_pos, &hit_normal),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_distance_to_wall(q, start, sp, 5, fl, NULL, &hit_pos, &hit_normal),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_distance_to_wall(q, null_ref, sp, 5, fl, &dist, &hit_pos, &hit_normal),
           WF_ERR_INVALID_ARG);
    for (size_t i = 0; i < sizeof bad_radii / sizeof bad_radii[0]; ++i) {
        EXPECT(wf_query_find_polys_around_circle(q, start, sp, bad_radii[i], fl, refs, NULL, NULL,
                                                 16, &n),
               WF_ERR_INVALID_ARG);
        EXPECT(
            wf_query_find_local_neighbourhood(q, start, sp, bad_radii[i], fl, refs, NULL, 16, &n),
            WF_ERR_INVALID_ARG);
        EXPECT(wf_query_find_distance_to_wall(q, start, sp, bad_radii[i], fl, &dist, &hit_pos,
                                              &hit_normal),
               WF_ERR_INVALID_ARG);
    }
    for (size_t i = 0; i < nbad; ++i) {
        EXPECT(wf_query_find_polys_around_circle(q, start, bad_points[i], 5, fl, refs, NULL, NULL,
                                                 16, &n),
               WF_ERR_INVALID_ARG);
        EXPECT(
            wf_query_find_local_neighbourhood(q, start, bad_points[i], 5, fl, refs, NULL, 16, &n),
            WF_ERR_INVALID_ARG);
        EXPECT(wf_query_find_distance_to_wall(q, start, bad_points[i], 5, fl, &dist, &hit_pos,
                                              &hit_normal),
               WF_ERR_INVALID_ARG);
    }
    EXPECT(wf_query_get_poly_wall_segments(NULL, start, fl, segs, NULL, 16, &n),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_get_poly_wall_segments(q, start, NULL, segs, NULL, 16, &n), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_get_poly_wall_segments(q, start, fl, NULL, NULL, 16, &n), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_get_poly_wall_segments(q, start, fl, segs, NULL, 16, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_get_poly_wall_segments(q, null_ref, fl, segs, NULL, 16, &n),
           WF_ERR_INVALID_ARG);
    // Random points
    wf_rng rng = wf_rng_make(1, 2);
    EXPECT(wf_query_find_random_point(NULL, fl, &rng, &ref, &pt), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_random_point(q, NULL, &rng, &ref, &pt), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_random_point(q, fl, NULL, &ref, &pt), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_random_point(q, fl, &rng, NULL, &pt), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_random_point(q, fl, &rng, &ref, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_random_point_around(NULL, start, sp, 5, fl, &rng, &ref, &pt),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_random_point_around(q, start, sp, 5, NULL, &rng, &ref, &pt),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_random_point_around(q, start, sp, 5, fl, NULL, &ref, &pt),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_random_point_around(q, start, sp, 5, fl, &rng, NULL, &pt),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_random_point_around(q, start, sp, 5, fl, &rng, &ref, NULL),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_random_point_around(q, start, sp, NAN_F, fl, &rng, &ref, &pt),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_random_point_around(q, start, bad_points[0], 5, fl, &rng, &ref, &pt),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_find_random_point_around(q, null_ref, sp, 5, fl, &rng, &ref, &pt),
           WF_ERR_INVALID_ARG);
    wf_rng fresh = wf_rng_make(1, 2);
    EXPECT_TRUE(wf_rng_next_u32(&rng) == wf_rng_next_u32(&fresh)); // misuse drew nothing

    // Getters tolerate NULL; a valid call still works.
    wf_query_destroy(NULL);
    EXPECT(wf_query_find_path(q, start, end, sp, ep, fl, path, 64, &pr), WF_OK);
    EXPECT_UNCHANGED(f, &before);
    EXPECT_QUERY_WORKS(f);
    end_test();
}

/* ---------------------------------------------------------------------------
 * Stale poly and tile refs after a tile is removed
 */

static void test_stale_refs(void** state) {
    fixture* f = *state;
    // A mesh of its own (the fixture's crowd reads the other one).
    wf_mesh_desc md = wf_tilecache_mesh_desc(f->tc);
    md.logger.quiet = true;
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    assert_int_equal(wf_tilecache_build_navmesh(f->tc, mesh), WF_OK);
    wf_query* q = NULL;
    wf_query_desc qd = {.mesh = mesh};
    assert_int_equal(wf_query_create(&qd, &q), WF_OK);
    const wf_query_filter* fl = &f->filter;
    const wf_vec3 sp = wf_v3(3, 0, 3), ep = wf_v3(27, 0, 27), ext = wf_v3(2, 2, 2);
    wf_poly_ref stale, live;
    assert_int_equal(wf_query_find_nearest_poly(q, sp, ext, fl, &stale, NULL), WF_OK);
    assert_int_equal(wf_query_find_nearest_poly(q, ep, ext, fl, &live, NULL), WF_OK);
    wf_tile_ref tile = wf_poly_ref_tile_ref(stale);
    assert_true(tile.bits != wf_poly_ref_tile_ref(live).bits);
    // A sliced search running across the tile when it goes.
    assert_int_equal(wf_query_begin_path(q, stale, live, sp, ep, fl), WF_OK);
    wf_mesh_stats before = wf_mesh_get_stats(mesh);
    EXPECT(wf_mesh_remove_tile(mesh, tile, NULL, NULL), WF_OK);
    wf_mesh_stats after = wf_mesh_get_stats(mesh);
    EXPECT_TRUE(after.tile_count == before.tile_count - 1);

    // Navmesh calls
    wf_tile_info info;
    uint16_t flags;
    uint8_t area;
    size_t size;
    unsigned char state_buf[4096];
    uint32_t user_id;
    wf_vec3 a, b;
    EXPECT(wf_mesh_remove_tile(mesh, tile, NULL, NULL), WF_ERR_STALE_REF);
    EXPECT(wf_mesh_get_tile_info(mesh, tile, &info), WF_ERR_STALE_REF);
    EXPECT(wf_mesh_check_poly(mesh, stale), WF_ERR_STALE_REF);
    EXPECT_TRUE(!wf_mesh_poly_is_valid(mesh, stale));
    EXPECT_TRUE(wf_poly_ref_is_null(wf_mesh_poly_ref(mesh, tile, 0)));
    EXPECT_TRUE(!wf_mesh_is_offmesh_link(mesh, stale));
    EXPECT(wf_mesh_set_poly_flags(mesh, stale, 3), WF_ERR_STALE_REF);
    EXPECT(wf_mesh_get_poly_flags(mesh, stale, &flags), WF_ERR_STALE_REF);
    EXPECT(wf_mesh_set_poly_area(mesh, stale, 3), WF_ERR_STALE_REF);
    EXPECT(wf_mesh_get_poly_area(mesh, stale, &area), WF_ERR_STALE_REF);
    EXPECT(wf_mesh_get_offmesh_user_id(mesh, stale, &user_id), WF_ERR_STALE_REF);
    EXPECT(wf_mesh_get_offmesh_endpoints(mesh, live, stale, &a, &b), WF_ERR_STALE_REF);
    wf_poly_outline outline;
    EXPECT(wf_mesh_get_poly_outline(mesh, stale, &outline), WF_ERR_STALE_REF);
    wf_poly_edge edges[WF_MAX_VERTS_PER_POLY];
    uint32_t edge_count = 0;
    EXPECT(wf_mesh_get_poly_edges(mesh, stale, edges, WF_MAX_VERTS_PER_POLY, &edge_count),
           WF_ERR_STALE_REF);
    EXPECT(wf_mesh_tile_state_size(mesh, tile, &size), WF_ERR_STALE_REF);
    EXPECT(wf_mesh_store_tile_state(mesh, tile, state_buf, sizeof state_buf), WF_ERR_STALE_REF);
    EXPECT(wf_mesh_restore_tile_state(mesh, tile, state_buf, sizeof state_buf), WF_ERR_STALE_REF);

    // Queries given a stale start or end
    wf_poly_ref path[64], refs[16];
    wf_path_result pr;
    wf_vec3 pt, goal, moved, hit_pos, hit_normal, segs[32];
    bool inside, exists;
    float h, dist, costs[16];
    uint32_t n, gi;
    wf_raycast_hit hit;
    wf_straight_point pts[8];
    wf_rng rng = wf_rng_make(3, 4);
    wf_poly_ref goals[2] = {live, stale};
    EXPECT(wf_query_update_path(q, 64, &n), WF_ERR_STALE_REF); // the running search
    EXPECT(wf_query_find_path(q, stale, live, sp, ep, fl, path, 64, &pr), WF_ERR_STALE_REF);
    EXPECT(wf_query_find_path(q, live, stale, ep, sp, fl, path, 64, &pr), WF_ERR_STALE_REF);
    EXPECT(wf_query_begin_path(q, stale, live, sp, ep, fl), WF_ERR_STALE_REF);
    EXPECT(wf_query_begin_path(q, live, stale, ep, sp, fl), WF_ERR_STALE_REF);
    EXPECT(wf_query_path_exists(q, stale, live, sp, ep, fl, &exists), WF_ERR_STALE_REF);
    EXPECT(wf_query_path_exists(q, live, stale, ep, sp, fl, &exists), WF_ERR_STALE_REF);
    EXPECT(wf_query_find_path_to_box(q, stale, sp, wf_v3(20, -1, 20), wf_v3(22, 1, 22), fl, path,
                                     64, &pr, &goal),
           WF_ERR_STALE_REF);
    EXPECT(wf_query_find_nearest_goal(q, stale, sp, goals, 1, fl, &gi, path, 64, &pr),
           WF_ERR_STALE_REF);
    EXPECT(wf_query_find_nearest_goal(q, live, ep, goals + 1, 1, fl, &gi, path, 64, &pr),
           WF_ERR_STALE_REF);
    EXPECT(wf_query_find_straight_path(q, sp, ep, &stale, 1, pts, 8, 0, &n), WF_ERR_STALE_REF);
    wf_poly_ref tail[2] = {live, stale};
    EXPECT(wf_query_find_straight_path(q, ep, sp, tail, 2, pts, 8, 0, &n), WF_ERR_STALE_REF);
    EXPECT(wf_query_closest_point_on_poly(q, stale, sp, &pt, &inside), WF_ERR_STALE_REF);
    EXPECT(wf_query_poly_height(q, stale, sp, &h), WF_ERR_STALE_REF);
    EXPECT(wf_query_raycast(q, stale, sp, ep, fl, refs, 16, &hit), WF_ERR_STALE_REF);
    EXPECT(wf_query_move_along_surface(q, stale, sp, ep, fl, &moved, refs, 16, &n),
           WF_ERR_STALE_REF);
    EXPECT(wf_query_find_polys_around_circle(q, stale, sp, 5, fl, refs, NULL, costs, 16, &n),
           WF_ERR_STALE_REF);
    EXPECT(wf_query_find_local_neighbourhood(q, stale, sp, 5, fl, refs, NULL, 16, &n),
           WF_ERR_STALE_REF);
    EXPECT(wf_query_get_poly_wall_segments(q, stale, fl, segs, NULL, 16, &n), WF_ERR_STALE_REF);
    EXPECT(wf_query_find_distance_to_wall(q, stale, sp, 5, fl, &dist, &hit_pos, &hit_normal),
           WF_ERR_STALE_REF);
    EXPECT(wf_query_find_random_point_around(q, stale, sp, 5, fl, &rng, &refs[0], &pt),
           WF_ERR_STALE_REF);
    // Nothing changed: the rest of the mesh still answers.
    after = wf_mesh_get_stats(mesh);
    EXPECT_TRUE(after.tile_count == before.tile_count - 1);
    EXPECT(wf_mesh_check_poly(mesh, live), WF_OK);
    EXPECT(wf_query_find_nearest_poly(q, ep, ext, fl, &refs[0], &pt), WF_OK);

    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
    end_test();
}

/* ---------------------------------------------------------------------------
 * Jobs and the thread pool
 */

static void count_items(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    (void)worker;
    uint32_t* hits = context;
    for (uint32_t i = begin; i < end; ++i) {
        hits[i]++;
    }
}

static void task_fn(void* context) { (*(uint32_t*)context)++; }

static void test_jobs_misuse(void** state) {
    (void)state;
    uint32_t hits[64] = {0};
    wf_job_system no_wait = {.worker_count = 4, .enqueue = (void* (*)(wf_task_fn*, void*, void*))1};
    EXPECT(wf_jobs_parallel_for(NULL, 64, 1, NULL, hits), WF_ERR_INVALID_ARG);
    EXPECT(wf_jobs_parallel_for(&no_wait, 64, 1, count_items, hits), WF_ERR_INVALID_ARG);
    EXPECT(wf_jobs_parallel_for(NULL, 0, 1, count_items, hits), WF_OK);
    for (uint32_t i = 0; i < 64; ++i) {
        EXPECT_TRUE(hits[i] == 0);
    }
    EXPECT(wf_jobs_parallel_for(NULL, 64, 0, count_items, hits), WF_OK);
    EXPECT_TRUE(hits[0] == 1 && hits[63] == 1);

    uint32_t ran = 0;
    wf_job_task task;
    memset(&task, 0, sizeof task);
    EXPECT(wf_jobs_submit(NULL, NULL, task_fn, &ran), WF_ERR_INVALID_ARG);
    EXPECT(wf_jobs_submit(NULL, &task, NULL, &ran), WF_ERR_INVALID_ARG);
    EXPECT(wf_jobs_submit(&no_wait, &task, task_fn, &ran), WF_ERR_INVALID_ARG);
    EXPECT_TRUE(ran == 0);
    wf_jobs_wait_task(NULL, &task); // never submitted: returns at once

    wf_thread_pool* pool = NULL;
    wf_thread_pool_desc pd = {.thread_count = 1};
    EXPECT(wf_thread_pool_create(NULL, &pool), WF_ERR_INVALID_ARG);
    EXPECT(wf_thread_pool_create(&pd, NULL), WF_ERR_INVALID_ARG);
    wf_thread_pool_desc too_many = {.thread_count = WF_JOBS_MAX_WORKERS};
    EXPECT(wf_thread_pool_create(&too_many, &pool), WF_ERR_INVALID_ARG);
    wf_thread_pool_desc half_allocator = pd;
    half_allocator.allocator.free = free_hook;
    EXPECT(wf_thread_pool_create(&half_allocator, &pool), WF_ERR_INVALID_ARG);
    EXPECT_TRUE(pool == NULL);
    EXPECT(wf_thread_pool_create(&pd, &pool), WF_OK);
    wf_job_system jobs = wf_thread_pool_job_system(pool);
    // A submitted task still pending: submitting it again is BUSY.
    EXPECT(wf_jobs_submit(&jobs, &task, task_fn, &ran), WF_OK);
    wf_status again = wf_jobs_submit(&jobs, &task, task_fn, &ran);
    wf_jobs_wait_task(&jobs, &task);
    EXPECT_TRUE(again == WF_ERR_BUSY);
    EXPECT_TRUE(ran == 1);
    EXPECT(wf_jobs_submit(&jobs, &task, task_fn, &ran), WF_OK);
    wf_jobs_wait_task(&jobs, &task);
    EXPECT_TRUE(ran == 2);
    EXPECT(wf_jobs_parallel_for(&jobs, 64, 1, NULL, hits), WF_ERR_INVALID_ARG);
    EXPECT(wf_jobs_parallel_for(&jobs, 64, 1, count_items, hits), WF_OK);
    EXPECT_TRUE(hits[0] == 2 && hits[63] == 2);
    wf_thread_pool_destroy(pool);
    wf_thread_pool_destroy(NULL);
    EXPECT_TRUE(wf_jobs_worker_count(NULL) == 1);
    end_test();
}

int main(void) {
    misuse_begin();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_mesh_misuse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_query_misuse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stale_refs, setup, teardown),
        cmocka_unit_test_setup(test_jobs_misuse, begin_test),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    misuse_report("misuse_navcore");
    return failed;
}
