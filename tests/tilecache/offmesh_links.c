// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Off-mesh links kept by the tile cache: a ladder from the ground up onto
// a platform becomes a link of the tile its start lands in, the only way
// up; it stays through obstacle rebuilds of either end's tile, goes and
// comes back by id at run time (the changed tiles say so), is saved in the
// cache file (and the previous version still loads), and bad links and
// damaged link sections are refused with the state untouched.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "navcore/bytes.h"
#include "navcore/hash.h"
#include "test_scene.h"
#include "wayfarer/query.h"
#include "wayfarer/tilecache.h"

/// Ground [0, 6] x [0, 16] at y = 0 and a platform [6, 12] x [0, 16] at
/// y = 3, its wall too high to climb: tiles of 4 m, 3 x 4 of them.
static wf_tilecache* make_level(uint32_t max_links) {
    test_scene* s = scene_new();
    scene_floor(s, 0.0f, 0.0f, 6.0f, 16.0f, 0.0f);
    scene_box(s, 6.0f, 0.0f, 0.0f, 12.0f, 3.0f, 16.0f);
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = scene_params();
    d.logger.quiet = true;
    d.max_links = max_links;
    wf_tilecache* tc = NULL;
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    assert_int_equal(wf_tilecache_build_geom(tc, scene_geom(s), NULL, 0), WF_OK);
    free(s);
    return tc;
}

/// Ground (5, 0, 8) in tile x 1 up to the platform (9, 3, 8) in tile x 2.
static wf_offmesh_link_desc ladder(uint32_t user_id, float z) {
    wf_offmesh_link_desc l;
    memset(&l, 0, sizeof l);
    l.start = wf_v3(5.0f, 0.0f, z);
    l.end = wf_v3(9.0f, 3.0f, z);
    l.radius = 0.5f;
    l.bidirectional = true;
    l.area = 2;
    l.flags = 1;
    l.user_id = user_id;
    return l;
}

static wf_mesh* make_mesh(wf_tilecache* tc) {
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    assert_int_equal(wf_tilecache_build_navmesh(tc, mesh), WF_OK);
    return mesh;
}

static uint32_t mesh_links(const wf_mesh* mesh) {
    wf_tile_ref tiles[64];
    uint32_t n = wf_mesh_get_tiles(mesh, tiles, 64), links = 0;
    for (uint32_t i = 0; i < n; ++i) {
        wf_tile_info info;
        assert_int_equal(wf_mesh_get_tile_info(mesh, tiles[i], &info), WF_OK);
        links += info.offmesh_link_count;
    }
    return links;
}

/// Path from the ground up onto the platform: WF_OK (complete) or
/// WF_PARTIAL; *out_link the user id of a link it takes (0: none).
static wf_status climb(const wf_mesh* mesh, uint32_t* out_link, float* out_cost) {
    wf_query* q = NULL;
    wf_query_desc qd;
    memset(&qd, 0, sizeof qd);
    qd.mesh = mesh;
    assert_int_equal(wf_query_create(&qd, &q), WF_OK);
    wf_query_filter f = wf_query_filter_defaults();
    wf_vec3 ext = wf_v3(1.0f, 1.0f, 1.0f), sp, gp;
    wf_poly_ref start, goal;
    assert_int_equal(wf_query_find_nearest_poly(q, wf_v3(2.0f, 0.0f, 3.0f), ext, &f, &start, &sp),
                     WF_OK);
    assert_int_equal(wf_query_find_nearest_poly(q, wf_v3(10.0f, 3.0f, 13.0f), ext, &f, &goal, &gp),
                     WF_OK);
    wf_poly_ref path[256];
    wf_path_result pr;
    wf_status s = wf_query_find_path(q, start, goal, sp, gp, &f, path, 256, &pr);
    *out_link = 0;
    for (uint32_t i = 0; i < pr.count; ++i) {
        if (wf_mesh_is_offmesh_link(mesh, path[i])) {
            assert_int_equal(wf_mesh_get_offmesh_user_id(mesh, path[i], out_link), WF_OK);
        }
    }
    if (out_cost != NULL) {
        *out_cost = pr.cost;
    }
    wf_query_destroy(q);
    return s;
}

static void update_all(wf_tilecache* tc, wf_mesh* mesh, wf_tilecache_update_result* out) {
    wf_tilecache_budget b = {0, 0};
    assert_true(wf_tilecache_update(tc, mesh, &b, out) >= 0);
    assert_true(out->up_to_date);
}

static bool changed_has(const wf_tilecache_update_result* r, int32_t tx, int32_t tz) {
    for (uint32_t i = 0; i < r->changed_count; ++i) {
        if (r->changed[i].tile_x == tx && r->changed[i].tile_z == tz) {
            return true;
        }
    }
    return false;
}

static void test_ladder_is_the_way_up(void** state) {
    (void)state;
    wf_tilecache* tc = make_level(0);
    wf_mesh* plain = make_mesh(tc);
    uint32_t link;
    assert_int_equal(climb(plain, &link, NULL), WF_PARTIAL); // no way up without it
    wf_mesh_destroy(plain);

    wf_offmesh_link_desc l = ladder(7, 8.0f);
    assert_int_equal(wf_tilecache_add_links(tc, &l, 1), WF_OK);
    assert_int_equal(wf_tilecache_link_count(tc), 1);
    wf_offmesh_link_desc back;
    wf_tilecache_layer_info at;
    assert_int_equal(wf_tilecache_get_link(tc, 0, &back, &at), WF_OK);
    assert_memory_equal(&back, &l, sizeof l);
    assert_int_equal(at.tile_x, 1); // start (5, 0, 8): tile x 1, z 2
    assert_int_equal(at.tile_z, 2);
    assert_int_equal(wf_tilecache_get_link(tc, 1, &back, NULL), WF_ERR_NOT_FOUND);

    wf_mesh* mesh = make_mesh(tc);
    assert_int_equal(mesh_links(mesh), 1);
    float cost = 0.0f;
    assert_int_equal(climb(mesh, &link, &cost), WF_OK);
    assert_int_equal(link, 7);
    // The path counts the link: at least the straight line through its ends.
    float via = wf_v3_distance(wf_v3(2.0f, 0.0f, 3.0f), l.start) + 4.0f +
                wf_v3_distance(l.end, wf_v3(10.0f, 3.0f, 13.0f));
    assert_true(cost >= 0.9f * via);

    // The add marked the layer dirty for the update's mesh (the cache does
    // not know it is this one): the first update builds it once more, the
    // link still in it; the next has nothing to do.
    wf_tilecache_update_result r;
    update_all(tc, mesh, &r);
    assert_int_equal(r.tiles_committed, 1);
    assert_int_equal(mesh_links(mesh), 1);
    update_all(tc, mesh, &r);
    assert_int_equal(r.tiles_committed, 0);
    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(tc);
}

static void test_kept_across_obstacle_rebuilds(void** state) {
    (void)state;
    wf_tilecache* tc = make_level(0);
    wf_offmesh_link_desc l = ladder(3, 8.0f);
    assert_int_equal(wf_tilecache_add_links(tc, &l, 1), WF_OK);
    wf_mesh* mesh = make_mesh(tc);
    uint32_t link;
    // An obstacle in the start's tile, then one in the end's: each rebuild
    // keeps the link (the start's tile builds it, the end's reattaches).
    const wf_vec3 spots[2] = {wf_v3(4.5f, 0.0f, 9.5f), wf_v3(10.5f, 3.0f, 9.5f)};
    const int32_t tiles[2] = {1, 2};
    for (int k = 0; k < 2; ++k) {
        wf_obstacle_desc o;
        memset(&o, 0, sizeof o);
        o.shape = WF_OBSTACLE_CYLINDER;
        o.position = spots[k];
        o.radius = 0.3f;
        o.height = 1.0f;
        wf_obstacle_id id;
        assert_int_equal(wf_tilecache_add_obstacle(tc, &o, &id), WF_OK);
        wf_tilecache_update_result r;
        update_all(tc, mesh, &r);
        assert_true(changed_has(&r, tiles[k], 2));
        assert_int_equal(mesh_links(mesh), 1);
        assert_int_equal(climb(mesh, &link, NULL), WF_OK);
        assert_int_equal(link, 3);
    }
    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(tc);
}

static void test_run_time_add_and_remove(void** state) {
    (void)state;
    wf_tilecache* tc = make_level(0);
    wf_mesh* mesh = make_mesh(tc);
    wf_tilecache_update_result r;
    update_all(tc, mesh, &r); // the per-layer state exists from here on
    uint32_t link;
    // A drawbridge lowered: added by id, the start's tile rebuilt and listed.
    wf_offmesh_link_desc l = ladder(40, 8.0f);
    assert_int_equal(wf_tilecache_add_links(tc, &l, 1), WF_OK);
    update_all(tc, mesh, &r);
    assert_int_equal(r.tiles_committed, 1);
    assert_true(changed_has(&r, 1, 2));
    assert_true(r.changed[0].old_tile.bits != 0 && r.changed[0].new_tile.bits != 0);
    assert_int_equal(climb(mesh, &link, NULL), WF_OK);
    assert_int_equal(link, 40);
    // Raised again: removed by id, gone after the update.
    assert_int_equal(wf_tilecache_remove_link(tc, 40), WF_OK);
    assert_int_equal(wf_tilecache_link_count(tc), 0);
    update_all(tc, mesh, &r);
    assert_true(changed_has(&r, 1, 2));
    assert_int_equal(mesh_links(mesh), 0);
    assert_int_equal(climb(mesh, &link, NULL), WF_PARTIAL);
    // Before any update ran (no per-layer state yet) an add still counts.
    wf_tilecache_destroy(tc);
    wf_mesh_destroy(mesh);
    tc = make_level(0);
    mesh = make_mesh(tc);
    assert_int_equal(wf_tilecache_add_links(tc, &l, 1), WF_OK);
    update_all(tc, mesh, &r);
    assert_int_equal(climb(mesh, &link, NULL), WF_OK);
    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(tc);
}

static void test_bad_links_change_nothing(void** state) {
    (void)state;
    wf_tilecache* tc = make_level(4);
    wf_offmesh_link_desc good = ladder(1, 8.0f);
    assert_int_equal(wf_tilecache_add_links(tc, &good, 1), WF_OK);
    wf_offmesh_link_desc l = ladder(2, 6.0f);
    l.start.x = NAN;
    assert_int_equal(wf_tilecache_add_links(tc, &l, 1), WF_ERR_INVALID_ARG);
    l = ladder(2, 6.0f);
    l.end.y = INFINITY;
    assert_int_equal(wf_tilecache_add_links(tc, &l, 1), WF_ERR_INVALID_ARG);
    l = ladder(2, 6.0f);
    l.radius = -1.0f;
    assert_int_equal(wf_tilecache_add_links(tc, &l, 1), WF_ERR_INVALID_ARG);
    l = ladder(2, 6.0f);
    l.area = 64;
    assert_int_equal(wf_tilecache_add_links(tc, &l, 1), WF_ERR_INVALID_ARG);
    // Ends off the navmesh: in the air, under the platform, off the grid.
    l = ladder(2, 6.0f);
    l.end.y = 10.0f;
    assert_int_equal(wf_tilecache_add_links(tc, &l, 1), WF_ERR_NOT_FOUND);
    l = ladder(2, 6.0f);
    l.start.y = -4.0f;
    assert_int_equal(wf_tilecache_add_links(tc, &l, 1), WF_ERR_NOT_FOUND);
    l = ladder(2, 6.0f);
    l.start = wf_v3(-30.0f, 0.0f, 6.0f);
    assert_int_equal(wf_tilecache_add_links(tc, &l, 1), WF_ERR_NOT_FOUND);
    // The end more than one tile from the start's tile.
    l = ladder(2, 6.0f);
    l.start = wf_v3(1.0f, 0.0f, 1.0f);
    l.end = wf_v3(10.0f, 3.0f, 14.0f);
    assert_int_equal(wf_tilecache_add_links(tc, &l, 1), WF_ERR_INVALID_ARG);
    // Duplicate ids: one already in the cache, or twice in the list.
    l = ladder(1, 6.0f);
    assert_int_equal(wf_tilecache_add_links(tc, &l, 1), WF_ERR_BUSY);
    wf_offmesh_link_desc two[2] = {ladder(5, 6.0f), ladder(5, 10.0f)};
    assert_int_equal(wf_tilecache_add_links(tc, two, 2), WF_ERR_BUSY);
    // One bad link in a list: none of it is kept.
    two[1] = ladder(6, 10.0f);
    two[1].end.y = 10.0f;
    assert_int_equal(wf_tilecache_add_links(tc, two, 2), WF_ERR_NOT_FOUND);
    // max_links 4: a fifth is refused.
    wf_offmesh_link_desc four[4] = {ladder(10, 3.0f), ladder(11, 5.0f), ladder(12, 11.0f),
                                    ladder(13, 13.0f)};
    assert_int_equal(wf_tilecache_add_links(tc, four, 4), WF_ERR_CAPACITY);
    assert_int_equal(wf_tilecache_remove_link(tc, 99), WF_ERR_NOT_FOUND);
    assert_int_equal(wf_tilecache_link_count(tc), 1);
    wf_offmesh_link_desc back;
    assert_int_equal(wf_tilecache_get_link(tc, 0, &back, NULL), WF_OK);
    assert_memory_equal(&back, &good, sizeof good);
    // Ids come back in order whatever order they were added in.
    wf_offmesh_link_desc three[3] = {ladder(9, 3.0f), ladder(0, 5.0f), ladder(4, 11.0f)};
    assert_int_equal(wf_tilecache_add_links(tc, three, 3), WF_OK);
    const uint32_t order[4] = {0, 1, 4, 9};
    for (uint32_t i = 0; i < 4; ++i) {
        assert_int_equal(wf_tilecache_get_link(tc, i, &back, NULL), WF_OK);
        assert_int_equal(back.user_id, order[i]);
    }
    // A new build drops the links with the layers they were stored by.
    test_scene* s = scene_new();
    scene_floor(s, 0.0f, 0.0f, 8.0f, 8.0f, 0.0f);
    assert_int_equal(wf_tilecache_build_geom(tc, scene_geom(s), NULL, 0), WF_OK);
    free(s);
    assert_int_equal(wf_tilecache_link_count(tc), 0);
    wf_tilecache_destroy(tc);
}

static void test_many_links_in_one_layer(void** state) {
    (void)state;
    wf_tilecache* tc = make_level(0);
    wf_offmesh_link_desc* many =
        calloc(WF_TILECACHE_MAX_LINKS_PER_LAYER + 1u, sizeof(wf_offmesh_link_desc));
    for (uint32_t i = 0; i <= WF_TILECACHE_MAX_LINKS_PER_LAYER; ++i) {
        many[i] = ladder(i + 1u, 8.0f + (float)(i % 8u) * 0.25f);
    }
    assert_int_equal(wf_tilecache_add_links(tc, many, WF_TILECACHE_MAX_LINKS_PER_LAYER + 1u),
                     WF_ERR_CAPACITY);
    assert_int_equal(wf_tilecache_link_count(tc), 0);
    free(many);
    wf_tilecache_destroy(tc);
}

static unsigned char* save(const wf_tilecache* tc, size_t* out_size) {
    assert_int_equal(wf_tilecache_save_size(tc, out_size), WF_OK);
    unsigned char* data = malloc(*out_size);
    assert_int_equal(wf_tilecache_save(tc, data, *out_size), WF_OK);
    return data;
}

static wf_status load(const unsigned char* data, size_t size, wf_tilecache** out) {
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.logger.quiet = true;
    return wf_tilecache_load(&d, data, size, out);
}

/// The header checksum as the file format defines it (docs/formats.md):
/// FNV-1a over everything before the layer data, bytes 8..11 read as 0.
static void fix_checksum(unsigned char* data, size_t data_start) {
    wf_bytes_put_u32(data + 8, wf_fnv1a32_zeroed(data, data_start, 8, 4));
}

static void test_saved_in_the_cache_file(void** state) {
    (void)state;
    wf_tilecache* tc = make_level(0);
    wf_offmesh_link_desc links[2] = {ladder(8, 8.0f), ladder(21, 12.0f)};
    links[1].bidirectional = false;
    assert_int_equal(wf_tilecache_add_links(tc, links, 2), WF_OK);
    size_t size;
    unsigned char* data = save(tc, &size);
    assert_int_equal(wf_bytes_get_u32(data + 4), 3); // version 3: with links
    wf_tilecache* loaded = NULL;
    assert_int_equal(load(data, size, &loaded), WF_OK);
    assert_int_equal(wf_tilecache_link_count(loaded), 2);
    for (uint32_t i = 0; i < 2; ++i) {
        wf_offmesh_link_desc back;
        assert_int_equal(wf_tilecache_get_link(loaded, i, &back, NULL), WF_OK);
        assert_memory_equal(&back, &links[i], sizeof back);
    }
    // The loaded cache builds the same navmesh, links and all.
    wf_mesh* a = make_mesh(tc);
    wf_mesh* b = make_mesh(loaded);
    assert_int_equal(mesh_links(b), 2);
    uint32_t link;
    assert_int_equal(climb(b, &link, NULL), WF_OK);
    size_t sa, sb;
    assert_int_equal(wf_mesh_save_size(a, &sa), WF_OK);
    assert_int_equal(wf_mesh_save_size(b, &sb), WF_OK);
    assert_int_equal(sa, sb);
    wf_mesh_destroy(a);
    wf_mesh_destroy(b);
    wf_tilecache_destroy(loaded);

    // Damaged link sections, each with a valid checksum so the section's
    // own checks are what refuse it.
    uint32_t dir_end = 144u + 24u * wf_bytes_get_u32(data + 24);
    uint32_t links_at = dir_end + wf_bytes_get_u32(data + 140);
    uint32_t link_bytes = wf_bytes_get_u32(data + 36);
    assert_int_equal(link_bytes, 8u + 2u * 44u);
    const struct {
        uint32_t offset, value;
    } damage[] = {
        {0, 3},               // count beyond the section
        {0, 0},               // no link in a section
        {4, 1},               // reserved word
        {8 + 28, 2},          // unknown flag
        {8 + 32, 64},         // area
        {8 + 36, 0x10000},    // poly flags
        {8 + 40, 21},         // ids out of order (21, 21)
        {8 + 12, 0x7fc00000}, // NaN end
        {8 + 16, 0x41200000}, // end y = 10: off the layers
        {8 + 24, 0xbf800000}, // radius -1
        {8 + 44 + 40, 8},     // a duplicate id
    };
    for (size_t k = 0; k < sizeof damage / sizeof damage[0]; ++k) {
        if (damage[k].offset + 4u > link_bytes) {
            continue;
        }
        unsigned char* bad = malloc(size);
        memcpy(bad, data, size);
        wf_bytes_put_u32(bad + links_at + damage[k].offset, damage[k].value);
        fix_checksum(bad, links_at + link_bytes);
        wf_tilecache* out = NULL;
        assert_int_equal(load(bad, size, &out), WF_ERR_BAD_DATA);
        assert_null(out);
        free(bad);
    }
    // A section size that is not the links' own, and an unknown version.
    unsigned char* bad = malloc(size);
    memcpy(bad, data, size);
    wf_bytes_put_u32(bad + 36, link_bytes + 8u);
    fix_checksum(bad, links_at + link_bytes);
    wf_tilecache* out = NULL;
    assert_int_equal(load(bad, size, &out), WF_ERR_BAD_DATA);
    memcpy(bad, data, size);
    wf_bytes_put_u32(bad + 4, 5);
    fix_checksum(bad, links_at + link_bytes);
    assert_int_equal(load(bad, size, &out), WF_ERR_VERSION);
    free(bad);
    // More links than the loading desc's max_links.
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.logger.quiet = true;
    d.max_links = 1;
    assert_int_equal(wf_tilecache_load(&d, data, size, &out), WF_ERR_CAPACITY);
    free(data);
    wf_tilecache_destroy(tc);
}

static void test_previous_version_loads(void** state) {
    (void)state;
    wf_tilecache* tc = make_level(0);
    size_t size;
    unsigned char* data = save(tc, &size);
    assert_int_equal(wf_bytes_get_u32(data + 36), 0); // no link: no section
    uint32_t data_start = 144u + 24u * wf_bytes_get_u32(data + 24) + wf_bytes_get_u32(data + 140);
    // A version 2 file is this one with its version word: it loads.
    wf_bytes_put_u32(data + 4, 2);
    fix_checksum(data, data_start);
    wf_tilecache* out = NULL;
    assert_int_equal(load(data, size, &out), WF_OK);
    assert_int_equal(wf_tilecache_link_count(out), 0);
    wf_tilecache_destroy(out);
    // Version 2 has no link section: a non-zero word 36 is damage.
    wf_bytes_put_u32(data + 36, 8);
    fix_checksum(data, data_start);
    out = NULL;
    assert_int_equal(load(data, size, &out), WF_ERR_BAD_DATA);
    free(data);
    wf_tilecache_destroy(tc);
}

/// Path from the platform down to the ground (the reverse of climb).
static wf_status descend(const wf_mesh* mesh) {
    wf_query* q = NULL;
    wf_query_desc qd;
    memset(&qd, 0, sizeof qd);
    qd.mesh = mesh;
    assert_int_equal(wf_query_create(&qd, &q), WF_OK);
    wf_query_filter f = wf_query_filter_defaults();
    wf_vec3 ext = wf_v3(1.0f, 1.0f, 1.0f), sp, gp;
    wf_poly_ref start, goal;
    assert_int_equal(wf_query_find_nearest_poly(q, wf_v3(10.0f, 3.0f, 13.0f), ext, &f, &start, &sp),
                     WF_OK);
    assert_int_equal(wf_query_find_nearest_poly(q, wf_v3(2.0f, 0.0f, 3.0f), ext, &f, &goal, &gp),
                     WF_OK);
    wf_poly_ref path[256];
    wf_path_result pr;
    wf_status s = wf_query_find_path(q, start, goal, sp, gp, &f, path, 256, &pr);
    wf_query_destroy(q);
    return s;
}

static void test_generated_drop_downs(void** state) {
    (void)state;
    wf_tilecache* tc = make_level(0);
    wf_link_generation_desc g;
    memset(&g, 0, sizeof g);
    g.drop_area = 3;
    wf_link_generation_result r;
    assert_int_equal(wf_tilecache_generate_links(tc, &g, &r), WF_OK);
    assert_true(r.drops >= 4); // along 16 m of ledge, one per 2 m at most
    assert_int_equal(r.jumps, 0);
    assert_int_equal(wf_tilecache_link_count(tc), r.drops);
    for (uint32_t i = 0; i < r.drops; ++i) {
        wf_offmesh_link_desc l;
        assert_int_equal(wf_tilecache_get_link(tc, i, &l, NULL), WF_OK);
        assert_true(l.start.y > 2.5f && l.end.y < 0.5f); // platform down to the ground
        assert_true(l.start.x > 6.0f && l.end.x < 6.0f);
        assert_false(l.bidirectional);
        assert_int_equal(l.area, 3);
        assert_int_equal(l.user_id, 0x40000000u + i);
    }
    wf_mesh* mesh = make_mesh(tc);
    assert_int_equal(descend(mesh), WF_OK);
    uint32_t link;
    assert_int_equal(climb(mesh, &link, NULL), WF_PARTIAL); // drop-downs are one-way
    wf_mesh_destroy(mesh);
    // Deterministic: a second cache finds the same links; ids taken: BUSY.
    wf_tilecache* again = make_level(0);
    assert_int_equal(wf_tilecache_generate_links(again, &g, &r), WF_OK);
    assert_int_equal(wf_tilecache_link_count(again), wf_tilecache_link_count(tc));
    for (uint32_t i = 0; i < r.drops; ++i) {
        wf_offmesh_link_desc a, b;
        assert_int_equal(wf_tilecache_get_link(tc, i, &a, NULL), WF_OK);
        assert_int_equal(wf_tilecache_get_link(again, i, &b, NULL), WF_OK);
        assert_memory_equal(&a, &b, sizeof a);
    }
    assert_int_equal(wf_tilecache_generate_links(again, &g, &r), WF_ERR_BUSY);
    g.max_drop = -1.0f; // drops off, no jumps: nothing
    g.first_user_id = 1;
    assert_int_equal(wf_tilecache_generate_links(again, &g, &r), WF_OK);
    assert_int_equal(r.drops + r.jumps, 0);
    g.max_drop = 0.0f;
    g.max_jump_distance = 100.0f; // beyond a tile: a link ends one tile away at most
    assert_int_equal(wf_tilecache_generate_links(again, &g, &r), WF_ERR_INVALID_ARG);
    wf_tilecache_destroy(again);
    wf_tilecache_destroy(tc);
}

static void test_generated_jumps(void** state) {
    (void)state;
    // Two floors at one height with a 2 m gap between x 6 and 8.
    test_scene* s = scene_new();
    scene_floor(s, 0.0f, 0.0f, 6.0f, 16.0f, 0.0f);
    scene_floor(s, 8.0f, 0.0f, 16.0f, 16.0f, 0.0f);
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = scene_params();
    d.logger.quiet = true;
    wf_tilecache* tc = NULL;
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    assert_int_equal(wf_tilecache_build_geom(tc, scene_geom(s), NULL, 0), WF_OK);
    free(s);
    wf_link_generation_desc g;
    memset(&g, 0, sizeof g);
    // Erosion leaves 3.75 m between the walkable cells' centres.
    g.max_jump_distance = 3.0f;
    wf_link_generation_result r;
    assert_int_equal(wf_tilecache_generate_links(tc, &g, &r), WF_OK);
    assert_int_equal(r.drops + r.jumps, 0);
    g.max_jump_distance = 4.0f;
    g.jump_area = 5;
    assert_int_equal(wf_tilecache_generate_links(tc, &g, &r), WF_OK);
    assert_int_equal(r.drops, 0);
    assert_true(r.jumps >= 8); // both ways along 16 m
    uint32_t left = 0, right = 0;
    for (uint32_t i = 0; i < r.jumps; ++i) {
        wf_offmesh_link_desc l;
        assert_int_equal(wf_tilecache_get_link(tc, i, &l, NULL), WF_OK);
        assert_int_equal(l.area, 5);
        assert_true(fabsf(l.end.y - l.start.y) <= 0.5f);
        left += l.start.x < 6.0f && l.end.x > 8.0f;
        right += l.start.x > 8.0f && l.end.x < 6.0f;
    }
    assert_int_equal(left + right, r.jumps);
    assert_true(left > 0 && right > 0);
    wf_tilecache_destroy(tc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ladder_is_the_way_up),
        cmocka_unit_test(test_kept_across_obstacle_rebuilds),
        cmocka_unit_test(test_run_time_add_and_remove),
        cmocka_unit_test(test_bad_links_change_nothing),
        cmocka_unit_test(test_many_links_in_one_layer),
        cmocka_unit_test(test_saved_in_the_cache_file),
        cmocka_unit_test(test_previous_version_loads),
        cmocka_unit_test(test_generated_drop_downs),
        cmocka_unit_test(test_generated_jumps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
