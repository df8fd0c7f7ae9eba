// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Misuse of the public API: NULL pointers, stale ids and refs, ids of the
// wrong kind, NaN and infinite values, zero and negative sizes, re-entry
// from crowd callbacks, corrupt data. Each misuse must give its specific
// status and leave the object unchanged (counts, state), and a following
// valid call must still work. Uses only the public headers and libwayfarer.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include <cmocka.h>

#include "wayfarer/wayfarer.h"

/* ---------------------------------------------------------------------------
 * Checks: every failed expectation is printed (all of them, not only the
 * first) and fails the test at its end.
 */

static unsigned g_checks;   // expectations evaluated, all tests
static unsigned g_failures; // failed expectations, current test

static void expect_status_at(wf_status got, wf_status want, const char* what, int line) {
    g_checks++;
    if (got != want) {
        g_failures++;
        print_error("misuse.c:%d: %s\n    gave %s, want %s\n", line, what, wf_status_string(got),
                    wf_status_string(want));
    }
}

static void expect_true_at(bool cond, const char* what, int line) {
    g_checks++;
    if (!cond) {
        g_failures++;
        print_error("misuse.c:%d: expected %s\n", line, what);
    }
}

#define EXPECT(call, want) expect_status_at((call), (want), #call, __LINE__)
#define EXPECT_TRUE(cond) expect_true_at((cond), #cond, __LINE__)

static int begin_test(void** state) {
    (void)state;
    g_failures = 0;
    return 0;
}

static void end_test(void) { assert_int_equal(g_failures, 0); }

/// Misuse calls the assert hook in debug builds: this one lets them return.
static unsigned g_asserts;
static void ignore_assert(const char* expression, const char* file, int line) {
    (void)expression;
    (void)file;
    (void)line;
    g_asserts++;
}

static const float NAN_F = NAN;
static const float INF_F = INFINITY;

/* ---------------------------------------------------------------------------
 * Fixtures: a flat 30 x 30 m floor (4 vertices, 2 triangles, counter-
 * clockwise seen from above), its tile cache, navmesh, a query and a crowd
 * with one agent.
 */

static const float k_verts[] = {0, 0, 0, 0, 0, 30, 30, 0, 30, 30, 0, 0};
static const uint32_t k_tris[] = {0, 1, 2, 0, 2, 3};

static wf_geom floor_geom(void) {
    wf_geom g;
    memset(&g, 0, sizeof g);
    g.verts = k_verts;
    g.vert_count = 4;
    g.tris = k_tris;
    g.tri_count = 2;
    return g;
}

static wf_tilecache_desc cache_desc(void) {
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = wf_tilecache_params_recast_demo();
    d.max_obstacles = 8;
    d.max_pending_requests = 16;
    d.logger.quiet = true;
    return d;
}

#define MAX_AGENTS 4u

typedef struct fixture {
    wf_tilecache* tc;
    wf_mesh* mesh;
    wf_query* q;
    wf_crowd* crowd;
    wf_agent_id agent;
    wf_query_filter filter;
} fixture;

static wf_crowd_desc crowd_desc(const wf_mesh* mesh) {
    wf_crowd_desc d;
    memset(&d, 0, sizeof d);
    d.mesh = mesh;
    d.max_agents = MAX_AGENTS;
    d.max_agent_radius = 0.6f;
    d.logger.quiet = true;
    return d;
}

static int setup(void** state) {
    begin_test(state);
    fixture* f = calloc(1, sizeof *f);
    assert_non_null(f);
    wf_tilecache_desc d = cache_desc();
    assert_int_equal(wf_tilecache_create(&d, &f->tc), WF_OK);
    assert_int_equal(wf_tilecache_build_geom(f->tc, floor_geom(), NULL, 0), WF_OK);
    wf_mesh_desc md = wf_tilecache_mesh_desc(f->tc);
    md.logger.quiet = true;
    assert_int_equal(wf_mesh_create(&md, &f->mesh), WF_OK);
    assert_int_equal(wf_tilecache_build_navmesh(f->tc, f->mesh), WF_OK);
    wf_query_desc qd = {.mesh = f->mesh};
    assert_int_equal(wf_query_create(&qd, &f->q), WF_OK);
    wf_crowd_desc cd = crowd_desc(f->mesh);
    assert_int_equal(wf_crowd_create(&cd, &f->crowd), WF_OK);
    wf_agent_params p = wf_agent_params_defaults();
    assert_int_equal(wf_crowd_add_agent(f->crowd, wf_v3(5, 0, 5), &p, &f->agent), WF_OK);
    f->filter = wf_query_filter_defaults();
    *state = f;
    return 0;
}

static int teardown(void** state) {
    fixture* f = *state;
    wf_crowd_destroy(f->crowd);
    wf_query_destroy(f->q);
    wf_mesh_destroy(f->mesh); // before the cache: updated tiles live in its memory
    wf_tilecache_destroy(f->tc);
    free(f);
    return 0;
}

/// What misuse must not change.
typedef struct snapshot {
    wf_mesh_stats mesh;
    uint32_t layers;
    uint32_t obstacles;
    uint32_t agents;
    wf_agent_state agent;
} snapshot;

static snapshot take(const fixture* f) {
    snapshot s;
    memset(&s, 0, sizeof s);
    s.mesh = wf_mesh_get_stats(f->mesh);
    s.layers = wf_tilecache_layer_count(f->tc);
    s.obstacles = wf_tilecache_obstacle_count(f->tc);
    s.agents = wf_crowd_agent_count(f->crowd);
    if (wf_crowd_get_agent(f->crowd, f->agent, &s.agent) != WF_OK) {
        memset(&s.agent, 0, sizeof s.agent);
    }
    return s;
}

static void expect_unchanged_at(const fixture* f, const snapshot* before, int line) {
    snapshot now = take(f);
    expect_true_at(now.mesh.tile_count == before->mesh.tile_count &&
                       now.mesh.poly_count == before->mesh.poly_count,
                   "mesh stats unchanged", line);
    expect_true_at(now.layers == before->layers, "layer count unchanged", line);
    expect_true_at(now.obstacles == before->obstacles, "obstacle count unchanged", line);
    expect_true_at(now.agents == before->agents, "agent count unchanged", line);
    expect_true_at(wf_v3_equal(now.agent.position, before->agent.position) &&
                       now.agent.target_state == before->agent.target_state &&
                       now.agent.params.radius == before->agent.params.radius &&
                       now.agent.params.max_speed == before->agent.params.max_speed,
                   "agent state unchanged", line);
}
#define EXPECT_UNCHANGED(f, before) expect_unchanged_at((f), (before), __LINE__)

/// A valid query works (after misuse).
static void expect_query_works_at(fixture* f, int line) {
    wf_poly_ref ref;
    wf_vec3 p;
    expect_status_at(wf_query_find_nearest_poly(f->q, wf_v3(15, 0, 15), wf_v3(2, 2, 2), &f->filter,
                                                &ref, &p),
                     WF_OK, "valid find_nearest_poly", line);
}
#define EXPECT_QUERY_WORKS(f) expect_query_works_at((f), __LINE__)

static wf_poly_ref nearest(fixture* f, wf_vec3 at) {
    wf_poly_ref ref = {0};
    wf_vec3 p;
    assert_int_equal(
        wf_query_find_nearest_poly(f->q, at, wf_v3(2, 2, 2), &f->filter, &ref, &p), WF_OK);
    return ref;
}

static void free_hook(void* ptr, size_t size, size_t align, void* user) {
    (void)size;
    (void)align;
    (void)user;
    free(ptr);
}

/// One layer's tile blob, built into a 16-byte aligned buffer.
static void* build_blob(fixture* f, size_t* out_size) {
    size_t need = 0;
    EXPECT(wf_tilecache_build_tile(f->tc, 0, NULL, 0, &need), WF_ERR_CAPACITY);
    assert_true(need > 0);
    size_t rounded = (need + 63u) & ~(size_t)63u;
    void* blob = aligned_alloc(64, rounded);
    assert_non_null(blob);
    assert_int_equal(wf_tilecache_build_tile(f->tc, 0, blob, rounded, out_size), WF_OK);
    return blob;
}

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
        wf_tile_ref past_end = {wf_poly_ref_make(1, md.max_tiles != 0 ? md.max_tiles : 1024, 0).bits};
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
        EXPECT(wf_query_find_nearest_poly(q, c, bad_extents[i], fl, &ref, &pt),
               WF_ERR_INVALID_ARG);
    }
    EXPECT(wf_query_find_nearest_poly(q, c, wf_v3(INF_F, INF_F, INF_F), fl, &ref, &pt), WF_OK);
    EXPECT(wf_query_find_nearest_poly(q, wf_v3(500, 0, 500), ext, fl, &ref, &pt),
           WF_ERR_NOT_FOUND);
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
    EXPECT(wf_query_find_path(q, start, end, sp, ep, &nan_cost, path, 64, &pr),
           WF_ERR_INVALID_ARG);
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
    EXPECT(wf_query_path_exists(q, start, end, sp, bad_points[1], fl, &exists),
           WF_ERR_INVALID_ARG);
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
        EXPECT(wf_query_find_local_neighbourhood(q, start, sp, bad_radii[i], fl, refs, NULL, 16,
                                                 &n),
               WF_ERR_INVALID_ARG);
        EXPECT(wf_query_find_distance_to_wall(q, start, sp, bad_radii[i], fl, &dist, &hit_pos,
                                              &hit_normal),
               WF_ERR_INVALID_ARG);
    }
    for (size_t i = 0; i < nbad; ++i) {
        EXPECT(wf_query_find_polys_around_circle(q, start, bad_points[i], 5, fl, refs, NULL, NULL,
                                                 16, &n),
               WF_ERR_INVALID_ARG);
        EXPECT(wf_query_find_local_neighbourhood(q, start, bad_points[i], 5, fl, refs, NULL, 16,
                                                 &n),
               WF_ERR_INVALID_ARG);
        EXPECT(wf_query_find_distance_to_wall(q, start, bad_points[i], 5, fl, &dist, &hit_pos,
                                              &hit_normal),
               WF_ERR_INVALID_ARG);
    }
    EXPECT(wf_query_get_poly_wall_segments(NULL, start, fl, segs, NULL, 16, &n),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_get_poly_wall_segments(q, start, NULL, segs, NULL, 16, &n),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_query_get_poly_wall_segments(q, start, fl, NULL, NULL, 16, &n), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_get_poly_wall_segments(q, start, fl, segs, NULL, 16, NULL),
           WF_ERR_INVALID_ARG);
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
 * Tile cache: create, build, save/load
 */

static void test_tilecache_misuse(void** state) {
    fixture* f = *state;
    snapshot before = take(f);
    wf_tilecache* tc = NULL;
    wf_tilecache_desc d = cache_desc();

    // create
    EXPECT(wf_tilecache_create(NULL, &tc), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_create(&d, NULL), WF_ERR_INVALID_ARG);
    const float bad_sizes[] = {0.0f, -0.3f, NAN_F, INF_F};
    for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; ++i) {
        wf_tilecache_desc b = d;
        b.params.cell_size = bad_sizes[i];
        EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
        b = d;
        b.params.cell_height = bad_sizes[i];
        EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
    }
    const float bad_agent[] = {-1.0f, NAN_F, INF_F};
    for (size_t i = 0; i < sizeof bad_agent / sizeof bad_agent[0]; ++i) {
        wf_tilecache_desc b = d;
        b.params.agent_radius = bad_agent[i];
        EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
        b = d;
        b.params.agent_height = bad_agent[i];
        EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
        b = d;
        b.params.agent_climb = bad_agent[i];
        EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
        b = d;
        b.params.agent_max_slope = bad_agent[i];
        EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
    }
    wf_tilecache_desc b = d;
    b.params.tile_size = 0;
    EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
    b = d;
    b.params.tile_size = 256;
    EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
    b = d;
    b.params.max_verts_per_poly = 2;
    EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
    b = d;
    b.params.max_verts_per_poly = WF_MAX_VERTS_PER_POLY + 1;
    EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
    b = d;
    b.params.max_edge_length = NAN_F;
    EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
    b = d;
    b.params.max_simplification_error = -1.0f;
    EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
    b = d;
    b.params.bmin = wf_v3(NAN_F, 0, 0);
    b.params.bmax = wf_v3(30, 1, 30);
    EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
    b = d;
    b.jobs.enqueue = (void* (*)(wf_task_fn*, void*, void*))NULL;
    b.jobs.worker_count = 4;
    EXPECT(wf_tilecache_create(&b, &tc), WF_OK); // no enqueue: inline
    wf_tilecache_destroy(tc);
    tc = NULL;
    // Build limits: max_tiles above the hard tile limit; the others take
    // any value (0 = the default).
    b = d;
    b.max_tiles = WF_TILECACHE_MAX_TILES + 1u;
    EXPECT(wf_tilecache_create(&b, &tc), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_create(&d, &tc), WF_OK);

    // plan_build: NULL, non-finite or far bounds; over a limit is CAPACITY
    wf_tilecache_build_plan plan;
    EXPECT(wf_tilecache_plan_build(NULL, wf_v3(0, 0, 0), wf_v3(1, 1, 1), &plan),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_plan_build(tc, wf_v3(0, 0, 0), wf_v3(1, 1, 1), NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_plan_build(tc, wf_v3(0, 0, 0), wf_v3(INF_F, 1, 1), &plan),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_plan_build(tc, wf_v3(-1e31f, 0, 0), wf_v3(1, 1, 1), &plan),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_plan_build(tc, wf_v3(0, 0, 0), wf_v3(1e6f, 1, 1e6f), &plan),
           WF_ERR_INVALID_ARG); // past WF_TILECACHE_MAX_TILES
    EXPECT(wf_tilecache_plan_build(tc, wf_v3(0, 0, 0), wf_v3(1e4f, 1, 1e4f), &plan),
           WF_ERR_CAPACITY); // past max_tiles
    EXPECT(wf_tilecache_plan_build(tc, wf_v3(0, 0, 0), wf_v3(10, 1, 10), &plan), WF_OK);

    // build_geom: NULL, missing arrays, NaN vertices, indices out of range
    wf_geom g = floor_geom();
    EXPECT(wf_tilecache_build_geom(NULL, g, NULL, 0), WF_ERR_INVALID_ARG);
    wf_geom bg = g;
    bg.verts = NULL;
    EXPECT(wf_tilecache_build_geom(tc, bg, NULL, 0), WF_ERR_INVALID_ARG);
    bg = g;
    bg.tris = NULL;
    EXPECT(wf_tilecache_build_geom(tc, bg, NULL, 0), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_build_geom(tc, g, NULL, 1), WF_ERR_INVALID_ARG);
    float nan_verts[12];
    memcpy(nan_verts, k_verts, sizeof nan_verts);
    nan_verts[4] = NAN_F;
    bg = g;
    bg.verts = nan_verts;
    EXPECT(wf_tilecache_build_geom(tc, bg, NULL, 0), WF_ERR_INVALID_ARG);
    nan_verts[4] = INF_F;
    EXPECT(wf_tilecache_build_geom(tc, bg, NULL, 0), WF_ERR_INVALID_ARG);
    const uint32_t bad_tris[] = {0, 1, 2, 0, 2, 4};
    bg = g;
    bg.tris = bad_tris;
    EXPECT(wf_tilecache_build_geom(tc, bg, NULL, 0), WF_ERR_INVALID_ARG);
    const uint8_t bad_areas[] = {0, 64};
    bg = g;
    bg.tri_areas = bad_areas;
    EXPECT(wf_tilecache_build_geom(tc, bg, NULL, 0), WF_ERR_INVALID_ARG);
    wf_vec3 outline[3] = {wf_v3(1, 0, 1), wf_v3(1, 0, 5), wf_v3(5, 0, 5)};
    wf_convex_volume vol = {.verts = outline, .vert_count = 3, .min_y = -1, .max_y = 1, .area = 2};
    wf_convex_volume bad_vol = vol;
    bad_vol.vert_count = 2;
    EXPECT(wf_tilecache_build_geom(tc, g, &bad_vol, 1), WF_ERR_INVALID_ARG);
    bad_vol = vol;
    bad_vol.min_y = NAN_F;
    EXPECT(wf_tilecache_build_geom(tc, g, &bad_vol, 1), WF_ERR_INVALID_ARG);
    bad_vol = vol;
    bad_vol.area = 64;
    EXPECT(wf_tilecache_build_geom(tc, g, &bad_vol, 1), WF_ERR_INVALID_ARG);
    EXPECT_TRUE(wf_tilecache_layer_count(tc) == 0);
    // grids and voxels: zero sizes, NaN cell sizes
    uint8_t walkable[4] = {1, 1, 1, 1};
    wf_grid grid = {.width = 2, .depth = 2, .cell_size = 1.0f, .walkable = walkable};
    wf_grid bgrid = grid;
    bgrid.width = 0;
    EXPECT(wf_tilecache_build_grid(tc, bgrid), WF_ERR_INVALID_ARG);
    bgrid = grid;
    bgrid.cell_size = NAN_F;
    EXPECT(wf_tilecache_build_grid(tc, bgrid), WF_ERR_INVALID_ARG);
    bgrid = grid;
    bgrid.cell_size = -1.0f;
    EXPECT(wf_tilecache_build_grid(tc, bgrid), WF_ERR_INVALID_ARG);
    bgrid = grid;
    bgrid.walkable = NULL;
    EXPECT(wf_tilecache_build_grid(tc, bgrid), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_build_grid(NULL, grid), WF_ERR_INVALID_ARG);
    wf_voxels vox = {.size_x = 2, .size_y = 1, .size_z = 2, .cube_size = 1.0f, .solid = walkable};
    wf_voxels bvox = vox;
    bvox.size_y = 0;
    EXPECT(wf_tilecache_build_voxels(tc, bvox), WF_ERR_INVALID_ARG);
    bvox = vox;
    bvox.cube_size = INF_F;
    EXPECT(wf_tilecache_build_voxels(tc, bvox), WF_ERR_INVALID_ARG);
    bvox = vox;
    bvox.origin.x = NAN_F;
    EXPECT(wf_tilecache_build_voxels(tc, bvox), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_build_voxels(NULL, vox), WF_ERR_INVALID_ARG);
    EXPECT_TRUE(wf_tilecache_layer_count(tc) == 0);
    EXPECT(wf_tilecache_build_geom(tc, g, &vol, 1), WF_OK);
    EXPECT_TRUE(wf_tilecache_layer_count(tc) == before.layers);
    wf_tilecache_destroy(tc);

    // build_navmesh: NULL, a mesh of another grid
    tc = f->tc;
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    md.logger.quiet = true;
    md.tile_width *= 2.0f;
    wf_mesh* other = NULL;
    assert_int_equal(wf_mesh_create(&md, &other), WF_OK);
    EXPECT(wf_tilecache_build_navmesh(NULL, f->mesh), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_build_navmesh(tc, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_build_navmesh(tc, other), WF_ERR_INVALID_ARG);
    EXPECT_TRUE(wf_mesh_get_stats(other).tile_count == 0);
    // mesh_matches: NULL either side is no match, never a crash
    EXPECT_TRUE(!wf_tilecache_mesh_matches(NULL, f->mesh));
    EXPECT_TRUE(!wf_tilecache_mesh_matches(tc, NULL));
    EXPECT_TRUE(!wf_tilecache_mesh_matches(NULL, NULL));
    EXPECT_TRUE(!wf_tilecache_mesh_matches(tc, other));
    EXPECT_TRUE(wf_tilecache_mesh_matches(tc, f->mesh));
    // build_tile, get_layer_info
    _Alignas(16) unsigned char small[64];
    size_t out_size = 0;
    wf_tilecache_layer_info li;
    EXPECT(wf_tilecache_build_tile(NULL, 0, small, sizeof small, &out_size), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_build_tile(tc, 0, small, sizeof small, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_build_tile(tc, 0, NULL, sizeof small, &out_size), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_build_tile(tc, 0, small + 1, sizeof small - 1, &out_size),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_build_tile(tc, 0, small, sizeof small, &out_size), WF_ERR_CAPACITY);
    EXPECT_TRUE(out_size > sizeof small);
    EXPECT(wf_tilecache_build_tile(tc, before.layers, small, sizeof small, &out_size),
           WF_ERR_NOT_FOUND);
    EXPECT(wf_tilecache_get_layer_info(NULL, 0, &li), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_get_layer_info(tc, 0, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_get_layer_info(tc, before.layers, &li), WF_ERR_NOT_FOUND);
    EXPECT(wf_tilecache_get_layer_info(tc, 0, &li), WF_OK);

    // save / load: NULL, short buffers, truncated and corrupt files
    size_t size = 0;
    EXPECT(wf_tilecache_save_size(NULL, &size), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_save_size(tc, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_save_size(tc, &size), WF_OK);
    unsigned char* file = malloc(size);
    assert_non_null(file);
    EXPECT(wf_tilecache_save(NULL, file, size), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_save(tc, NULL, size), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_save(tc, file, size - 1), WF_ERR_CAPACITY);
    EXPECT(wf_tilecache_save(tc, file, size), WF_OK);
    wf_tilecache* loaded = NULL;
    EXPECT(wf_tilecache_load(NULL, file, size, &loaded), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_load(&d, file, size, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_load(&d, NULL, size, &loaded), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_load(&d, file, 0, &loaded), WF_ERR_BAD_DATA);
    EXPECT(wf_tilecache_load(&d, file, size - 1, &loaded), WF_ERR_BAD_DATA);
    EXPECT(wf_tilecache_load(&d, file, size / 2, &loaded), WF_ERR_BAD_DATA);
    file[0] ^= 0xff;
    EXPECT(wf_tilecache_load(&d, file, size, &loaded), WF_ERR_BAD_DATA);
    file[0] ^= 0xff;
    file[4] ^= 0x40;
    EXPECT(wf_tilecache_load(&d, file, size, &loaded), WF_ERR_VERSION);
    file[4] ^= 0x40;
    file[size - 3] ^= 0x21; // inside the last compressed layer
    EXPECT(wf_tilecache_load(&d, file, size, &loaded), WF_ERR_BAD_DATA);
    file[size - 3] ^= 0x21;
    file[size / 2] ^= 0x21;
    EXPECT(wf_tilecache_load(&d, file, size, &loaded), WF_ERR_BAD_DATA);
    file[size / 2] ^= 0x21;
    EXPECT_TRUE(loaded == NULL);
    EXPECT(wf_tilecache_load(&d, file, size, &loaded), WF_OK);
    EXPECT_TRUE(loaded != NULL && wf_tilecache_layer_count(loaded) == before.layers);
    wf_tilecache_destroy(loaded);
    free(file);

    // Getters tolerate NULL.
    EXPECT_TRUE(wf_tilecache_layer_count(NULL) == 0);
    EXPECT_TRUE(wf_tilecache_obstacle_count(NULL) == 0);
    wf_tilecache_destroy(NULL);

    EXPECT(wf_tilecache_build_navmesh(tc, other), WF_ERR_INVALID_ARG);
    wf_mesh_destroy(other);
    EXPECT_UNCHANGED(f, &before);
    EXPECT_QUERY_WORKS(f);
    end_test();
}

/* ---------------------------------------------------------------------------
 * Obstacles: NULL, NaN and non-positive sizes, stale and wrong-kind ids
 */

static wf_obstacle_desc cylinder(float x, float z) {
    wf_obstacle_desc d;
    memset(&d, 0, sizeof d);
    d.shape = WF_OBSTACLE_CYLINDER;
    d.position = wf_v3(x, 0, z);
    d.radius = 1.0f;
    d.height = 2.0f;
    return d;
}

static void test_obstacle_misuse(void** state) {
    fixture* f = *state;
    wf_tilecache* tc = f->tc;
    wf_obstacle_id id = {0}, live = {0}, none = {0};
    wf_obstacle_desc ok = cylinder(10, 10), got;
    assert_int_equal(wf_tilecache_add_obstacle(tc, &ok, &live), WF_OK);
    wf_tilecache_budget budget = {0};
    wf_tilecache_update_result r;
    assert_int_equal(wf_tilecache_update(tc, f->mesh, &budget, &r), WF_OK);
    snapshot before = take(f);
    EXPECT_TRUE(before.obstacles == 1);

    // add: NULL
    EXPECT(wf_tilecache_add_obstacle(NULL, &ok, &id), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_add_obstacle(tc, NULL, &id), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_add_obstacle(tc, &ok, NULL), WF_ERR_INVALID_ARG);
    // add: NaN / infinite positions and sizes, zero and negative sizes
    wf_obstacle_desc bad[40];
    size_t nb = 0;
    const float bad_values[] = {NAN_F, INF_F, -INF_F};
    const float bad_sizes[] = {0.0f, -1.0f, NAN_F, INF_F};
    for (size_t i = 0; i < 3; ++i) {
        bad[nb] = ok, bad[nb++].position.x = bad_values[i];
        bad[nb] = ok, bad[nb++].position.y = bad_values[i];
        bad[nb] = ok, bad[nb++].position.z = bad_values[i];
    }
    for (size_t i = 0; i < 4; ++i) {
        bad[nb] = ok, bad[nb++].radius = bad_sizes[i];
        bad[nb] = ok, bad[nb++].height = bad_sizes[i];
        wf_obstacle_desc box = ok;
        box.shape = WF_OBSTACLE_BOX;
        box.half_extents = wf_v3(1, 1, 1);
        bad[nb] = box, bad[nb++].half_extents.x = bad_sizes[i];
        bad[nb] = box, bad[nb++].half_extents.y = bad_sizes[i];
        box.shape = WF_OBSTACLE_ORIENTED_BOX;
        bad[nb] = box, bad[nb++].half_extents.z = bad_sizes[i];
    }
    wf_obstacle_desc obox = ok;
    obox.shape = WF_OBSTACLE_ORIENTED_BOX;
    obox.half_extents = wf_v3(1, 1, 1);
    bad[nb] = obox, bad[nb++].yaw = NAN_F;
    bad[nb] = obox, bad[nb++].yaw = INF_F;
    wf_obstacle_desc prism = ok;
    prism.shape = WF_OBSTACLE_PRISM;
    prism.verts[0] = wf_v3(9, 0, 9);
    prism.verts[1] = wf_v3(9, 0, 11);
    prism.verts[2] = wf_v3(11, 0, 11);
    prism.verts[3] = wf_v3(11, 0, 9);
    prism.vert_count = 4;
    bad[nb] = prism, bad[nb++].vert_count = 2;
    bad[nb] = prism, bad[nb++].vert_count = WF_OBSTACLE_MAX_VERTS + 1;
    bad[nb] = prism, bad[nb++].verts[1].x = NAN_F;
    bad[nb] = prism, bad[nb++].verts[2] = wf_v3(9.5f, 0, 9.5f); // concave
    bad[nb] = prism, bad[nb++].height = 0.0f;
    bad[nb] = ok, bad[nb++].shape = (wf_obstacle_shape)7;
    bad[nb] = ok, bad[nb].paint = true, bad[nb++].area = 64;
    assert_true(nb <= sizeof bad / sizeof bad[0]);
    for (size_t i = 0; i < nb; ++i) {
        id.bits = 0;
        char what[64];
        snprintf(what, sizeof what, "add_obstacle(tc, &bad[%zu], &id)", i);
        expect_status_at(wf_tilecache_add_obstacle(tc, &bad[i], &id), WF_ERR_INVALID_ARG, what,
                         __LINE__);
        EXPECT_TRUE(id.bits == 0);
        snprintf(what, sizeof what, "move_obstacle(tc, live, &bad[%zu])", i);
        expect_status_at(wf_tilecache_move_obstacle(tc, live, &bad[i]), WF_ERR_INVALID_ARG, what,
                         __LINE__);
    }
    EXPECT(wf_tilecache_add_obstacle(tc, &prism, &id), WF_OK); // the valid prism
    EXPECT(wf_tilecache_remove_obstacle(tc, id), WF_OK);
    wf_obstacle_desc far = cylinder(500, 500);
    EXPECT(wf_tilecache_add_obstacle(tc, &far, &id), WF_ERR_NOT_FOUND);
    EXPECT(wf_tilecache_move_obstacle(tc, live, &far), WF_ERR_NOT_FOUND);
    EXPECT_UNCHANGED(f, &before);
    EXPECT(wf_tilecache_get_obstacle(tc, live, &got), WF_OK);
    EXPECT_TRUE(wf_v3_equal(got.position, ok.position) && got.radius == ok.radius);

    // remove / move / get: NULL, null id
    EXPECT(wf_tilecache_remove_obstacle(NULL, live), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_remove_obstacle(tc, none), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_move_obstacle(NULL, live, &ok), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_move_obstacle(tc, live, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_move_obstacle(tc, none, &ok), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_get_obstacle(NULL, live, &got), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_get_obstacle(tc, live, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_get_obstacle(tc, none, &got), WF_ERR_INVALID_ARG);
    // Wrong kind: an agent-kind id (same index and generation) as an obstacle id.
    wf_obstacle_id as_agent = {wf_id_make(wf_id_index(live.bits), wf_id_generation(live.bits),
                                          WF_ID_KIND_AGENT)};
    wf_obstacle_id real_agent = {f->agent.bits};
    wf_obstacle_id as_request = {wf_id_make(0, 1, WF_ID_KIND_MOVE_REQUEST)};
    EXPECT(wf_tilecache_remove_obstacle(tc, as_agent), WF_ERR_WRONG_KIND);
    EXPECT(wf_tilecache_remove_obstacle(tc, real_agent), WF_ERR_WRONG_KIND);
    EXPECT(wf_tilecache_remove_obstacle(tc, as_request), WF_ERR_WRONG_KIND);
    EXPECT(wf_tilecache_move_obstacle(tc, as_agent, &ok), WF_ERR_WRONG_KIND);
    EXPECT(wf_tilecache_get_obstacle(tc, as_agent, &got), WF_ERR_WRONG_KIND);
    // Stale: a generation that was never given, an index past the capacity,
    // and a removed obstacle's id.
    wf_obstacle_id other_gen = {wf_id_make(wf_id_index(live.bits), wf_id_generation(live.bits) + 1,
                                           WF_ID_KIND_OBSTACLE)};
    wf_obstacle_id past_end = {wf_id_make(1000000, 1, WF_ID_KIND_OBSTACLE)};
    EXPECT(wf_tilecache_remove_obstacle(tc, other_gen), WF_ERR_STALE_REF);
    EXPECT(wf_tilecache_get_obstacle(tc, past_end, &got), WF_ERR_STALE_REF);
    EXPECT(wf_tilecache_move_obstacle(tc, past_end, &ok), WF_ERR_STALE_REF);
    wf_obstacle_id removed;
    EXPECT(wf_tilecache_add_obstacle(tc, &ok, &removed), WF_OK);
    EXPECT(wf_tilecache_remove_obstacle(tc, removed), WF_OK);
    EXPECT_UNCHANGED(f, &before);
    EXPECT(wf_tilecache_remove_obstacle(tc, removed), WF_ERR_STALE_REF);
    EXPECT(wf_tilecache_move_obstacle(tc, removed, &ok), WF_ERR_STALE_REF);
    EXPECT(wf_tilecache_move_obstacle(tc, removed, &bad[0]), WF_ERR_STALE_REF);
    EXPECT(wf_tilecache_get_obstacle(tc, removed, &got), WF_ERR_STALE_REF);
    EXPECT_UNCHANGED(f, &before);

    // update: NULL, a mesh of another grid
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    md.tile_depth += 1.0f;
    md.logger.quiet = true;
    wf_mesh* other = NULL;
    assert_int_equal(wf_mesh_create(&md, &other), WF_OK);
    EXPECT(wf_tilecache_update(NULL, f->mesh, &budget, &r), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_update(tc, NULL, &budget, &r), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_update(tc, f->mesh, NULL, &r), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_update(tc, f->mesh, &budget, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tilecache_update(tc, other, &budget, &r), WF_ERR_INVALID_ARG);
    wf_mesh_destroy(other);
    EXPECT_UNCHANGED(f, &before);

    // Capacity: max_obstacles (8) live, then one more; the request queue.
    wf_obstacle_id ids[8];
    uint32_t added = 1;
    for (uint32_t i = 0; added < 8; ++i, ++added) {
        wf_obstacle_desc od = cylinder(3.0f + 3.0f * (float)i, 20);
        EXPECT(wf_tilecache_add_obstacle(tc, &od, &ids[i]), WF_OK);
    }
    EXPECT(wf_tilecache_add_obstacle(tc, &ok, &id), WF_ERR_CAPACITY);
    EXPECT_TRUE(wf_tilecache_obstacle_count(tc) == 8);
    EXPECT(wf_tilecache_update(tc, f->mesh, &budget, &r), WF_OK);
    EXPECT_TRUE(r.up_to_date);
    for (uint32_t i = 0; i < 7; ++i) {
        EXPECT(wf_tilecache_remove_obstacle(tc, ids[i]), WF_OK);
    }
    EXPECT(wf_tilecache_update(tc, f->mesh, &budget, &r), WF_OK);
    EXPECT_UNCHANGED(f, &before);
    EXPECT(wf_tilecache_move_obstacle(tc, live, &prism), WF_OK); // a valid call still works
    EXPECT(wf_tilecache_update(tc, f->mesh, &budget, &r), WF_OK);
    EXPECT(wf_tilecache_get_obstacle(tc, live, &got), WF_OK);
    EXPECT_TRUE(got.shape == WF_OBSTACLE_PRISM);
    EXPECT_QUERY_WORKS(f);
    end_test();
}

/* ---------------------------------------------------------------------------
 * Crowd
 */

static void test_crowd_misuse(void** state) {
    fixture* f = *state;
    wf_crowd* c = f->crowd;
    wf_agent_id a = f->agent, id = {0}, none = {0};
    snapshot before = take(f);
    wf_crowd* made = NULL;

    // create
    wf_crowd_desc cd = crowd_desc(f->mesh);
    EXPECT(wf_crowd_create(NULL, &made), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_create(&cd, NULL), WF_ERR_INVALID_ARG);
    wf_crowd_desc b = cd;
    b.mesh = NULL;
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    b = cd;
    b.max_agents = 0;
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    const float bad_radii[] = {0.0f, -0.5f, NAN_F, INF_F};
    for (size_t i = 0; i < 4; ++i) {
        b = cd;
        b.max_agent_radius = bad_radii[i];
        EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    }
    b = cd;
    b.filter_count = 1; // filters NULL
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    wf_query_filter filters[WF_CROWD_MAX_FILTERS + 1];
    for (size_t i = 0; i <= WF_CROWD_MAX_FILTERS; ++i) {
        filters[i] = wf_query_filter_defaults();
    }
    b.filters = filters;
    b.filter_count = WF_CROWD_MAX_FILTERS + 1;
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    filters[0].area_cost[5] = NAN_F;
    b.filter_count = 1;
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    filters[0].area_cost[5] = -2.0f;
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    filters[0].area_cost[5] = 1.0f;
    b = cd;
    b.avoidance_count = 1; // avoidance NULL
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    wf_avoidance_params av = wf_avoidance_preset(WF_AVOIDANCE_LOW);
    av.horizon_time = NAN_F;
    b.avoidance = &av;
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    b = cd;
    b.avoidance_count = WF_CROWD_MAX_AVOIDANCE_PRESETS + 1;
    b.avoidance = &av;
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    b = cd;
    b.max_neighbours = WF_CROWD_MAX_NEIGHBOURS + 1;
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    b = cd;
    b.max_walls = WF_CROWD_MAX_WALLS + 1;
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    b = cd;
    b.max_corridor = 1;
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    b = cd;
    b.stuck_time = NAN_F;
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    b.stuck_time = -1.0f;
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    EXPECT_TRUE(made == NULL);

    // add_agent: NULL, NaN / infinite positions, bad params
    wf_agent_params p = wf_agent_params_defaults();
    EXPECT(wf_crowd_add_agent(NULL, wf_v3(5, 0, 6), &p, &id), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_add_agent(c, wf_v3(5, 0, 6), NULL, &id), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_add_agent(c, wf_v3(5, 0, 6), &p, NULL), WF_ERR_INVALID_ARG);
    const wf_vec3 bad_points[] = {wf_v3(NAN_F, 0, 5), wf_v3(5, NAN_F, 5), wf_v3(5, 0, INF_F),
                                  wf_v3(-INF_F, 0, 5)};
    for (size_t i = 0; i < 4; ++i) {
        EXPECT(wf_crowd_add_agent(c, bad_points[i], &p, &id), WF_ERR_INVALID_ARG);
    }
    wf_agent_params bp[40];
    size_t nb = 0;
    const float bad_values[] = {NAN_F, INF_F, -1.0f};
    for (size_t i = 0; i < 3; ++i) {
        bp[nb] = p, bp[nb++].radius = bad_values[i];
        bp[nb] = p, bp[nb++].height = bad_values[i];
        bp[nb] = p, bp[nb++].max_speed = bad_values[i];
        bp[nb] = p, bp[nb++].max_acceleration = bad_values[i];
        bp[nb] = p, bp[nb++].collision_query_range = bad_values[i];
        bp[nb] = p, bp[nb++].path_optimization_range = bad_values[i];
        bp[nb] = p, bp[nb++].separation_weight = bad_values[i];
    }
    bp[nb] = p, bp[nb++].radius = 0.0f;
    bp[nb] = p, bp[nb++].height = 0.0f;
    bp[nb] = p, bp[nb++].radius = cd.max_agent_radius * 2.0f; // wider than the crowd allows
    bp[nb] = p, bp[nb++].collision_query_range = p.radius;   // not above the radius
    bp[nb] = p, bp[nb++].update_flags = WF_AGENT_ALL + 1u;
    bp[nb] = p, bp[nb++].avoidance_preset = 200;
    bp[nb] = p, bp[nb++].filter = 1; // the crowd has one filter
    assert_true(nb <= sizeof bp / sizeof bp[0]);
    for (size_t i = 0; i < nb; ++i) {
        char what[64];
        snprintf(what, sizeof what, "add_agent(c, pos, &bp[%zu], &id)", i);
        expect_status_at(wf_crowd_add_agent(c, wf_v3(5, 0, 6), &bp[i], &id), WF_ERR_INVALID_ARG,
                         what, __LINE__);
        EXPECT_TRUE(id.bits == 0);
        snprintf(what, sizeof what, "set_agent_params(c, a, &bp[%zu])", i);
        expect_status_at(wf_crowd_set_agent_params(c, a, &bp[i]), WF_ERR_INVALID_ARG, what,
                         __LINE__);
    }
    EXPECT(wf_crowd_add_agent(c, wf_v3(500, 0, 500), &p, &id), WF_ERR_NOT_FOUND);
    EXPECT_UNCHANGED(f, &before);

    // Per-agent calls: NULL crowd, null id, wrong kind, stale
    wf_agent_id wrong_kind = {wf_id_make(wf_id_index(a.bits), wf_id_generation(a.bits),
                                         WF_ID_KIND_OBSTACLE)};
    wf_agent_id other_gen = {wf_id_make(wf_id_index(a.bits), wf_id_generation(a.bits) + 1,
                                        WF_ID_KIND_AGENT)};
    wf_agent_id past_end = {wf_id_make(MAX_AGENTS + 5, 1, WF_ID_KIND_AGENT)};
    wf_agent_id removed;
    EXPECT(wf_crowd_add_agent(c, wf_v3(20, 0, 20), &p, &removed), WF_OK);
    EXPECT(wf_crowd_remove_agent(c, removed), WF_OK);
    const wf_agent_id stale_ids[] = {other_gen, past_end, removed};
    wf_agent_state st;
    wf_move_callbacks cbs = {0};
    const wf_vec3 tgt = wf_v3(25, 0, 25);
    EXPECT(wf_crowd_remove_agent(NULL, a), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_set_agent_params(NULL, a, &p), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_set_agent_params(c, a, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_teleport_agent(NULL, a, tgt), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_get_agent(NULL, a, &st), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_get_agent(c, a, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_request_move(NULL, a, tgt, &cbs, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_retarget(NULL, a, tgt), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_request_velocity(NULL, a, tgt), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_cancel_move(NULL, a), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_set_callbacks(NULL, a, &cbs, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_remove_agent(c, none), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_get_agent(c, none, &st), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_request_move(c, none, tgt, NULL, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_remove_agent(c, wrong_kind), WF_ERR_WRONG_KIND);
    EXPECT(wf_crowd_set_agent_params(c, wrong_kind, &p), WF_ERR_WRONG_KIND);
    EXPECT(wf_crowd_teleport_agent(c, wrong_kind, tgt), WF_ERR_WRONG_KIND);
    EXPECT(wf_crowd_get_agent(c, wrong_kind, &st), WF_ERR_WRONG_KIND);
    EXPECT(wf_crowd_request_move(c, wrong_kind, tgt, NULL, NULL), WF_ERR_WRONG_KIND);
    EXPECT(wf_crowd_retarget(c, wrong_kind, tgt), WF_ERR_WRONG_KIND);
    EXPECT(wf_crowd_request_velocity(c, wrong_kind, tgt), WF_ERR_WRONG_KIND);
    EXPECT(wf_crowd_cancel_move(c, wrong_kind), WF_ERR_WRONG_KIND);
    EXPECT(wf_crowd_set_callbacks(c, wrong_kind, &cbs, NULL), WF_ERR_WRONG_KIND);
    for (size_t i = 0; i < 3; ++i) {
        wf_agent_id s = stale_ids[i];
        EXPECT(wf_crowd_remove_agent(c, s), WF_ERR_STALE_REF);
        EXPECT(wf_crowd_set_agent_params(c, s, &p), WF_ERR_STALE_REF);
        EXPECT(wf_crowd_set_agent_params(c, s, &bp[0]), WF_ERR_STALE_REF);
        EXPECT(wf_crowd_teleport_agent(c, s, tgt), WF_ERR_STALE_REF);
        EXPECT(wf_crowd_get_agent(c, s, &st), WF_ERR_STALE_REF);
        EXPECT(wf_crowd_request_move(c, s, tgt, &cbs, NULL), WF_ERR_STALE_REF);
        EXPECT(wf_crowd_retarget(c, s, tgt), WF_ERR_STALE_REF);
        EXPECT(wf_crowd_request_velocity(c, s, tgt), WF_ERR_STALE_REF);
        EXPECT(wf_crowd_cancel_move(c, s), WF_ERR_STALE_REF);
        EXPECT(wf_crowd_set_callbacks(c, s, &cbs, NULL), WF_ERR_STALE_REF);
    }
    // NaN / infinite targets, positions and velocities
    for (size_t i = 0; i < 4; ++i) {
        EXPECT(wf_crowd_teleport_agent(c, a, bad_points[i]), WF_ERR_INVALID_ARG);
        EXPECT(wf_crowd_request_move(c, a, bad_points[i], NULL, NULL), WF_ERR_INVALID_ARG);
        EXPECT(wf_crowd_request_velocity(c, a, bad_points[i]), WF_ERR_INVALID_ARG);
    }
    EXPECT(wf_crowd_teleport_agent(c, a, wf_v3(500, 0, 500)), WF_ERR_NOT_FOUND);
    EXPECT(wf_crowd_request_move(c, a, wf_v3(500, 0, 500), NULL, NULL), WF_ERR_NOT_FOUND);
    EXPECT(wf_crowd_retarget(c, a, tgt), WF_ERR_NOT_FOUND); // no running request
    EXPECT_UNCHANGED(f, &before);
    // update: NULL, dt <= 0, NaN, infinite, above 1 s
    const float bad_dt[] = {0.0f, -0.016f, NAN_F, INF_F, -INF_F, 1.5f};
    EXPECT(wf_crowd_update(NULL, 0.016f, NULL), WF_ERR_INVALID_ARG);
    for (size_t i = 0; i < sizeof bad_dt / sizeof bad_dt[0]; ++i) {
        EXPECT(wf_crowd_update(c, bad_dt[i], NULL), WF_ERR_INVALID_ARG);
    }
    // tiles_changed
    wf_tile_ref t0 = {0};
    EXPECT(wf_crowd_tiles_changed(NULL, &t0, 1), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_tiles_changed(c, NULL, 1), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_tiles_changed(c, NULL, 0), WF_OK);
    // get_agents: NULL crowd, NULL out
    wf_agent_id listed[MAX_AGENTS];
    EXPECT_TRUE(wf_crowd_get_agents(NULL, listed, MAX_AGENTS) == 0);
    EXPECT_TRUE(wf_crowd_get_agents(c, NULL, MAX_AGENTS) == 0);
    EXPECT_TRUE(wf_crowd_get_agents(c, listed, 0) == 0);
    EXPECT_TRUE(wf_crowd_get_agents(c, listed, MAX_AGENTS) == 1 && listed[0].bits == a.bits);
    EXPECT_TRUE(wf_crowd_agent_count(NULL) == 0);
    EXPECT_UNCHANGED(f, &before);

    // save / load: NULL, short buffers, truncated and corrupt bytes
    size_t size = 0;
    EXPECT(wf_crowd_save_size(NULL, &size), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_save_size(c, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_save_size(c, &size), WF_OK);
    unsigned char* save = malloc(size);
    assert_non_null(save);
    EXPECT(wf_crowd_save(NULL, save, size), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_save(c, NULL, size), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_save(c, save, size - 1), WF_ERR_CAPACITY);
    EXPECT(wf_crowd_save(c, save, size), WF_OK);
    EXPECT(wf_crowd_restore(NULL, save, size), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_restore(c, NULL, size), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_restore(c, save, 0), WF_ERR_BAD_DATA);
    EXPECT(wf_crowd_restore(c, save, size - 1), WF_ERR_BAD_DATA);
    EXPECT(wf_crowd_restore(c, save, size / 2), WF_ERR_BAD_DATA);
    save[0] ^= 0xff;
    EXPECT(wf_crowd_restore(c, save, size), WF_ERR_BAD_DATA);
    save[0] ^= 0xff;
    save[size / 2] ^= 0x10;
    EXPECT(wf_crowd_restore(c, save, size), WF_ERR_BAD_DATA);
    save[size / 2] ^= 0x10;
    {
        // A crowd of other capacities refuses the bytes.
        wf_crowd_desc big = cd;
        big.max_agents = MAX_AGENTS + 1;
        wf_crowd* other = NULL;
        assert_int_equal(wf_crowd_create(&big, &other), WF_OK);
        EXPECT(wf_crowd_restore(other, save, size), WF_ERR_CAPACITY);
        EXPECT_TRUE(wf_crowd_agent_count(other) == 0);
        wf_crowd_destroy(other);
    }
    EXPECT_UNCHANGED(f, &before);
    EXPECT(wf_crowd_restore(c, save, size), WF_OK);
    free(save);
    EXPECT_UNCHANGED(f, &before);
    wf_crowd_destroy(NULL);

    // Capacity, then valid calls still work.
    wf_agent_id more[MAX_AGENTS];
    for (uint32_t i = 1; i < MAX_AGENTS; ++i) {
        EXPECT(wf_crowd_add_agent(c, wf_v3(5.0f + 4.0f * (float)i, 0, 20), &p, &more[i]), WF_OK);
    }
    EXPECT(wf_crowd_add_agent(c, wf_v3(20, 0, 5), &p, &id), WF_ERR_CAPACITY);
    EXPECT_TRUE(wf_crowd_agent_count(c) == MAX_AGENTS);
    for (uint32_t i = 1; i < MAX_AGENTS; ++i) {
        EXPECT(wf_crowd_remove_agent(c, more[i]), WF_OK);
    }
    EXPECT_UNCHANGED(f, &before);
    EXPECT(wf_crowd_request_move(c, a, tgt, NULL, NULL), WF_OK);
    EXPECT(wf_crowd_update(c, 0.1f, NULL), WF_OK);
    EXPECT(wf_crowd_get_agent(c, a, &st), WF_OK);
    EXPECT_TRUE(st.target_state == WF_TARGET_VALID || st.target_state == WF_TARGET_REQUESTED);
    EXPECT(wf_crowd_retarget(c, a, wf_v3(24, 0, 25)), WF_OK);
    EXPECT(wf_crowd_retarget(c, a, bad_points[0]), WF_ERR_INVALID_ARG);
    end_test();
}

/* ---------------------------------------------------------------------------
 * Re-entry: crowd and world calls from inside a crowd callback
 */

#define MAX_REENTRY 32

typedef struct reentry {
    wf_crowd* crowd;
    wf_world* world;
    wf_agent_id agent;
    const void* world_save;
    size_t world_save_size;
    uint32_t calls;
    wf_status got[MAX_REENTRY];
    const char* what[MAX_REENTRY];
    uint32_t count;
} reentry;

static void record(reentry* r, wf_status s, const char* what) {
    if (r->count < MAX_REENTRY) {
        r->got[r->count] = s;
        r->what[r->count++] = what;
    }
}
#define RECORD(r, call) record((r), (call), #call)

static bool reenter(wf_agent_id agent, const wf_path_info* info, void* user) {
    (void)info;
    reentry* r = user;
    if (r->calls++ > 0) {
        return true;
    }
    wf_crowd* c = r->crowd;
    wf_agent_params p = wf_agent_params_defaults();
    wf_agent_id id;
    size_t size;
    unsigned char buf[64];
    wf_move_callbacks cbs = {0};
    wf_tile_ref t = {0};
    RECORD(r, wf_crowd_add_agent(c, wf_v3(20, 0, 20), &p, &id));
    RECORD(r, wf_crowd_remove_agent(c, agent));
    RECORD(r, wf_crowd_set_agent_params(c, agent, &p));
    RECORD(r, wf_crowd_teleport_agent(c, agent, wf_v3(20, 0, 20)));
    RECORD(r, wf_crowd_request_move(c, agent, wf_v3(20, 0, 20), NULL, NULL));
    RECORD(r, wf_crowd_retarget(c, agent, wf_v3(20, 0, 20)));
    RECORD(r, wf_crowd_request_velocity(c, agent, wf_v3(1, 0, 0)));
    RECORD(r, wf_crowd_cancel_move(c, agent));
    RECORD(r, wf_crowd_update(c, 0.1f, NULL));
    RECORD(r, wf_crowd_tiles_changed(c, &t, 1));
    RECORD(r, wf_crowd_save_size(c, &size));
    RECORD(r, wf_crowd_save(c, buf, sizeof buf));
    RECORD(r, wf_crowd_restore(c, buf, sizeof buf));
    RECORD(r, wf_crowd_set_callbacks(c, agent, &cbs, NULL));
    if (r->world != NULL) {
        RECORD(r, wf_world_step(r->world, 0.1f, NULL, NULL));
        RECORD(r, wf_world_save_size(r->world, &size));
        RECORD(r, wf_world_save(r->world, buf, sizeof buf));
        RECORD(r, wf_world_restore(r->world, r->world_save, r->world_save_size));
    }
    // Read-only getters still answer.
    wf_agent_state st;
    record(r, wf_crowd_get_agent(c, agent, &st) == WF_OK ? WF_ERR_BUSY : WF_ERR_NOT_FOUND,
           "get_agent answers (recorded as BUSY when it does)");
    return true;
}

static void expect_all_busy(const reentry* r, uint32_t want_count) {
    expect_true_at(r->calls >= 1, "the result callback ran", __LINE__);
    expect_true_at(r->count == want_count, "every re-entry recorded", __LINE__);
    for (uint32_t i = 0; i < r->count; ++i) {
        expect_status_at(r->got[i], WF_ERR_BUSY, r->what[i], __LINE__);
    }
}

static void test_crowd_reentry(void** state) {
    fixture* f = *state;
    reentry r;
    memset(&r, 0, sizeof r);
    r.crowd = f->crowd;
    r.agent = f->agent;
    wf_move_callbacks cbs = {.result = reenter};
    EXPECT(wf_crowd_request_move(f->crowd, f->agent, wf_v3(25, 0, 25), &cbs, &r), WF_OK);
    snapshot before = take(f);
    EXPECT(wf_crowd_update(f->crowd, 0.1f, NULL), WF_OK);
    expect_all_busy(&r, 15);
    snapshot after = take(f);
    EXPECT_TRUE(after.agents == before.agents);
    wf_agent_state st;
    EXPECT(wf_crowd_get_agent(f->crowd, f->agent, &st), WF_OK);
    EXPECT_TRUE(st.target_state == WF_TARGET_VALID);
    EXPECT_TRUE(wf_v3_distance(st.target, wf_v3(25, 0, 25)) < 0.5f);
    // After the update everything works again.
    EXPECT(wf_crowd_cancel_move(f->crowd, f->agent), WF_OK);
    EXPECT(wf_crowd_update(f->crowd, 0.1f, NULL), WF_OK);
    end_test();
}

/* ---------------------------------------------------------------------------
 * World
 */

static wf_world_desc world_desc(const wf_geom* g) {
    wf_world_desc d;
    memset(&d, 0, sizeof d);
    d.geom = g;
    d.worker_count = 1;
    d.crowd.max_agents = MAX_AGENTS;
    d.logger.quiet = true;
    return d;
}

static void test_world_misuse(void** state) {
    (void)state;
    wf_geom g = floor_geom();
    wf_world_desc d = world_desc(&g);
    wf_world* w = NULL;

    // create: NULL, both or neither level source, bad params, bad jobs
    EXPECT(wf_world_create(NULL, &w), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_create(&d, NULL), WF_ERR_INVALID_ARG);
    const unsigned char junk[64] = {1, 2, 3};
    wf_world_desc b = d;
    b.cache_data = junk;
    b.cache_size = sizeof junk;
    EXPECT(wf_world_create(&b, &w), WF_ERR_INVALID_ARG);
    b.geom = NULL;
    EXPECT(wf_world_create(&b, &w), WF_ERR_BAD_DATA);
    b.cache_size = 0;
    EXPECT(wf_world_create(&b, &w), WF_ERR_INVALID_ARG);
    b = d;
    b.geom = NULL;
    EXPECT(wf_world_create(&b, &w), WF_ERR_INVALID_ARG);
    b = d;
    b.params = wf_tilecache_params_recast_demo();
    b.params.cell_size = NAN_F;
    EXPECT(wf_world_create(&b, &w), WF_ERR_INVALID_ARG);
    b.params.cell_size = -0.3f;
    EXPECT(wf_world_create(&b, &w), WF_ERR_INVALID_ARG);
    b = d;
    b.crowd.max_agent_radius = NAN_F;
    EXPECT(wf_world_create(&b, &w), WF_ERR_INVALID_ARG);
    b = d;
    b.jobs.enqueue = (void* (*)(wf_task_fn*, void*, void*))1; // enqueue without wait
    EXPECT(wf_world_create(&b, &w), WF_ERR_INVALID_ARG);
    EXPECT_TRUE(w == NULL);
    EXPECT(wf_world_create(&d, &w), WF_OK);

    wf_crowd* crowd = wf_world_crowd(w);
    wf_agent_params p = wf_agent_params_defaults();
    wf_agent_id a;
    EXPECT(wf_crowd_add_agent(crowd, wf_v3(5, 0, 5), &p, &a), WF_OK);
    // step: NULL, dt <= 0, NaN, infinite, above 1 s
    wf_world_report rep;
    EXPECT(wf_world_step(NULL, 0.1f, NULL, &rep), WF_ERR_INVALID_ARG);
    const float bad_dt[] = {0.0f, -0.1f, NAN_F, INF_F, 2.0f};
    for (size_t i = 0; i < sizeof bad_dt / sizeof bad_dt[0]; ++i) {
        EXPECT(wf_world_step(w, bad_dt[i], NULL, &rep), WF_ERR_INVALID_ARG);
    }
    EXPECT(wf_world_step(w, 0.1f, NULL, &rep), WF_OK);
    EXPECT_TRUE(rep.frame == 1);

    // save / restore: NULL, short buffers, truncated and corrupt blobs
    size_t size = 0;
    EXPECT(wf_world_save_size(NULL, &size), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_save_size(w, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_save_size(w, &size), WF_OK);
    unsigned char* save = malloc(size);
    assert_non_null(save);
    EXPECT(wf_world_save(NULL, save, size), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_save(w, NULL, size), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_save(w, save, size - 1), WF_ERR_CAPACITY);
    EXPECT(wf_world_save(w, save, size), WF_OK);
    EXPECT(wf_world_restore(NULL, save, size), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_restore(w, NULL, size), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_restore(w, save, 0), WF_ERR_BAD_DATA);
    EXPECT(wf_world_restore(w, save, size - 1), WF_ERR_BAD_DATA);
    EXPECT(wf_world_restore(w, save, size / 2), WF_ERR_BAD_DATA);
    save[0] ^= 0xff;
    EXPECT(wf_world_restore(w, save, size), WF_ERR_BAD_DATA);
    save[0] ^= 0xff;
    save[4] ^= 0x02;
    EXPECT(wf_world_restore(w, save, size), WF_ERR_VERSION);
    save[4] ^= 0x02;
    save[size / 2] ^= 0x08;
    EXPECT(wf_world_restore(w, save, size), WF_ERR_BAD_DATA);
    save[size / 2] ^= 0x08;
    EXPECT_TRUE(wf_world_crowd(w) == crowd && wf_crowd_agent_count(crowd) == 1);

    // Re-entry: world and crowd calls from a crowd callback of the world.
    reentry r;
    memset(&r, 0, sizeof r);
    r.crowd = crowd;
    r.world = w;
    r.agent = a;
    r.world_save = save;
    r.world_save_size = size;
    wf_move_callbacks cbs = {.result = reenter};
    EXPECT(wf_crowd_request_move(crowd, a, wf_v3(25, 0, 25), &cbs, &r), WF_OK);
    EXPECT(wf_world_step(w, 0.1f, NULL, &rep), WF_OK);
    expect_all_busy(&r, 19);
    EXPECT_TRUE(rep.frame == 2);
    EXPECT_TRUE(wf_world_crowd(w) == crowd && wf_crowd_agent_count(crowd) == 1);
    // After the step: save and restore work (the restore goes back to frame 1).
    EXPECT(wf_world_step(w, 0.1f, NULL, &rep), WF_OK);
    EXPECT_TRUE(rep.frame == 3);
    EXPECT(wf_world_restore(w, save, size), WF_OK);
    EXPECT(wf_world_step(w, 0.1f, NULL, &rep), WF_OK);
    EXPECT_TRUE(rep.frame == 2);
    EXPECT_TRUE(wf_crowd_agent_count(wf_world_crowd(w)) == 1);
    free(save);
    wf_world_destroy(w);
    wf_world_destroy(NULL);
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
    wf_job_system no_wait = {.worker_count = 4,
                             .enqueue = (void* (*)(wf_task_fn*, void*, void*))1};
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

/* ---------------------------------------------------------------------------
 * Loaders: malformed text gives WF_ERR_BAD_DATA and names the line
 */

typedef struct log_capture {
    char last[256];
    unsigned errors;
} log_capture;

static void capture_log(wf_log_level level, const char* message, void* user) {
    log_capture* lc = user;
    if (level == WF_LOG_ERROR) {
        lc->errors++;
        snprintf(lc->last, sizeof lc->last, "%s", message);
    }
}

static void test_loader_misuse(void** state) {
    (void)state;
    log_capture lc;
    memset(&lc, 0, sizeof lc);
    wf_geom_load_desc ld;
    memset(&ld, 0, sizeof ld);
    ld.logger.log = capture_log;
    ld.logger.user = &lc;
    wf_geom_data* geom = NULL;
    static const char obj_ok[] = "v 0 0 0\nv 0 0 30\nv 30 0 30\nf 1 2 3\n";
    static const char obj_bad_index[] = "v 0 0 0\nv 0 0 30\nv 30 0 30\nf 1 2 9\n";
    static const char obj_bad_number[] = "v 0 0 0\nv 0 x 30\n";
    EXPECT(wf_geom_load_obj(obj_ok, sizeof obj_ok - 1, &ld, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_geom_load_obj(NULL, 10, &ld, &geom), WF_ERR_INVALID_ARG);
    EXPECT(wf_geom_load_obj(obj_bad_index, sizeof obj_bad_index - 1, &ld, &geom),
           WF_ERR_BAD_DATA);
    EXPECT_TRUE(lc.errors == 1 && strstr(lc.last, "line 4") != NULL);
    EXPECT(wf_geom_load_obj(obj_bad_number, sizeof obj_bad_number - 1, &ld, &geom),
           WF_ERR_BAD_DATA);
    EXPECT_TRUE(lc.errors == 2 && strstr(lc.last, "line 2") != NULL);
    EXPECT_TRUE(geom == NULL);
    EXPECT(wf_geom_load_obj(obj_ok, sizeof obj_ok - 1, &ld, &geom), WF_OK);
    wf_geom_data_destroy(geom);

    wf_grid_data* grid = NULL;
    static const char map_ok[] = "type octile\nheight 2\nwidth 2\nmap\n..\n.@\n";
    static const char map_short[] = "type octile\nheight 3\nwidth 2\nmap\n..\n.@\n";
    static const char map_wide[] = "type octile\nheight 2\nwidth 2\nmap\n...\n.@\n";
    EXPECT(wf_grid_load_movingai(map_ok, sizeof map_ok - 1, NAN_F, &ld, &grid),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_grid_load_movingai(map_ok, sizeof map_ok - 1, 0.0f, &ld, &grid),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_grid_load_movingai(map_ok, sizeof map_ok - 1, 1.0f, &ld, NULL), WF_ERR_INVALID_ARG);
    lc.errors = 0;
    EXPECT(wf_grid_load_movingai(map_short, sizeof map_short - 1, 1.0f, &ld, &grid),
           WF_ERR_BAD_DATA);
    EXPECT_TRUE(lc.errors == 1 && strstr(lc.last, "line") != NULL);
    EXPECT(wf_grid_load_movingai(map_wide, sizeof map_wide - 1, 1.0f, &ld, &grid),
           WF_ERR_BAD_DATA);
    EXPECT_TRUE(lc.errors == 2 && strstr(lc.last, "line 5") != NULL);
    EXPECT_TRUE(grid == NULL);
    EXPECT(wf_grid_load_movingai(map_ok, sizeof map_ok - 1, 1.0f, &ld, &grid), WF_OK);
    wf_grid_data_destroy(grid);

    wf_polyanya_import_desc pd;
    memset(&pd, 0, sizeof pd);
    pd.logger = ld.logger;
    wf_mesh* mesh = NULL;
    static const char mesh_v3[] = "mesh\n3\n";
    static const char mesh_junk[] = "mesh\n2\n4 1\nzz\n";
    EXPECT(wf_mesh_import_polyanya(NULL, mesh_v3, sizeof mesh_v3 - 1, &mesh), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_import_polyanya(&pd, NULL, 4, &mesh), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_import_polyanya(&pd, mesh_v3, sizeof mesh_v3 - 1, NULL), WF_ERR_INVALID_ARG);
    wf_polyanya_import_desc bpd = pd;
    bpd.tile_size = NAN_F;
    EXPECT(wf_mesh_import_polyanya(&bpd, mesh_v3, sizeof mesh_v3 - 1, &mesh), WF_ERR_INVALID_ARG);
    bpd = pd;
    bpd.scale = -1.0f;
    EXPECT(wf_mesh_import_polyanya(&bpd, mesh_v3, sizeof mesh_v3 - 1, &mesh), WF_ERR_INVALID_ARG);
    lc.errors = 0;
    EXPECT(wf_mesh_import_polyanya(&pd, mesh_v3, sizeof mesh_v3 - 1, &mesh), WF_ERR_VERSION);
    EXPECT_TRUE(lc.errors >= 1 && strstr(lc.last, "line 2") != NULL);
    EXPECT(wf_mesh_import_polyanya(&pd, mesh_junk, sizeof mesh_junk - 1, &mesh), WF_ERR_BAD_DATA);
    EXPECT_TRUE(lc.errors >= 2 && strstr(lc.last, "line") != NULL);
    EXPECT_TRUE(mesh == NULL);
    end_test();
}

/* ---------------------------------------------------------------------------
 * Getters, views, defaults and the tile builder: NULL handles give their
 * documented safe value, NULL out pointers and NaN give their status, and
 * nothing is written or allocated on failure.
 */

static void test_getters_and_builders_misuse(void** state) {
    fixture* f = *state;
    snapshot before = take(f);

    // Getters of a NULL object: zero, NULL or empty, never a crash.
    uint32_t n = 7;
    EXPECT_TRUE(wf_crowd_events(NULL, &n) == NULL && n == 0);
    EXPECT_TRUE(wf_crowd_events(f->crowd, NULL) != NULL); // the count is optional
    EXPECT_TRUE(wf_crowd_get_stats(NULL).memory_bytes == 0 && wf_crowd_get_stats(f->crowd).memory_bytes > 0);
    EXPECT_TRUE(wf_query_get_stats(NULL).memory_bytes == 0 && wf_query_get_stats(f->q).memory_bytes > 0);
    EXPECT_TRUE(wf_query_get_mesh(NULL) == NULL && wf_query_get_mesh(f->q) == f->mesh);
    EXPECT_TRUE(wf_tilecache_get_params(NULL) == NULL && wf_tilecache_get_params(f->tc) != NULL);
    EXPECT_TRUE(wf_tilecache_get_stats(NULL).layer_count == 0);
    EXPECT_TRUE(wf_tilecache_get_stats(f->tc).layer_count == before.layers);
    EXPECT_TRUE(wf_world_mesh(NULL) == NULL && wf_world_tilecache(NULL) == NULL);
    wf_job_system none = wf_world_jobs(NULL);
    EXPECT_TRUE(none.enqueue == NULL && none.wait == NULL);
    EXPECT_TRUE(wf_thread_pool_thread_count(NULL) == 0);
    EXPECT_TRUE(wf_thread_pool_get_stats(NULL).memory_bytes == 0);
    EXPECT_TRUE(wf_world_get_stats(NULL).memory_bytes == 0 && wf_world_get_stats(NULL).frame == 0);
    EXPECT_TRUE(wf_jobs_task_is_done(NULL)); // nothing to wait for
    const char* version = wf_version_string(); // takes nothing: cannot be misused
    EXPECT_TRUE(version != NULL && strcmp(version, WF_VERSION_STRING) == 0);

    // Views and defaults of NULL: empty views, resolved defaults.
    wf_geom gv = wf_geom_data_view(NULL);
    EXPECT_TRUE(gv.verts == NULL && gv.vert_count == 0 && gv.tri_count == 0);
    wf_grid grv = wf_grid_data_view(NULL);
    EXPECT_TRUE(grv.walkable == NULL && grv.width == 0 && grv.depth == 0);
    EXPECT_TRUE(wf_mesh_desc_defaults(NULL).max_tiles > 0);
    wf_tilecache_desc tdd = wf_tilecache_desc_defaults(NULL);
    EXPECT_TRUE(tdd.max_obstacles > 0 && tdd.max_tiles > 0 && tdd.codec.compress != NULL);
    wf_crowd_desc cdd = wf_crowd_desc_defaults(NULL);
    EXPECT_TRUE(cdd.mesh == NULL && cdd.max_agents == 0 && cdd.max_corridor > 0);
    EXPECT_TRUE(wf_query_desc_defaults(NULL).mesh == NULL && wf_query_desc_defaults(NULL).max_nodes > 0);
    wf_world_desc wdd = wf_world_desc_defaults(NULL);
    EXPECT_TRUE(wdd.worker_count >= 1 && wdd.crowd.max_agents == 1000 && wdd.geom == NULL);
    wf_thread_pool_desc pd = wf_thread_pool_desc_defaults(NULL);
    EXPECT_TRUE(pd.thread_count < WF_JOBS_MAX_WORKERS);

    // Bounds: NULL geometry, NULL outs, no vertices, NaN and infinite ones.
    wf_vec3 lo = wf_v3(7, 7, 7), hi = wf_v3(7, 7, 7);
    wf_geom g = floor_geom();
    EXPECT_TRUE(!wf_geom_bounds(NULL, &lo, &hi));
    EXPECT_TRUE(!wf_geom_bounds(&g, NULL, &hi) && !wf_geom_bounds(&g, &lo, NULL));
    wf_geom empty = g;
    empty.vert_count = 0;
    EXPECT_TRUE(!wf_geom_bounds(&empty, &lo, &hi));
    float bad_verts[12];
    memcpy(bad_verts, k_verts, sizeof bad_verts);
    wf_geom bad = g;
    bad.verts = bad_verts;
    bad_verts[4] = NAN_F;
    EXPECT_TRUE(!wf_geom_bounds(&bad, &lo, &hi));
    bad_verts[4] = INF_F;
    EXPECT_TRUE(!wf_geom_bounds(&bad, &lo, &hi));
    EXPECT_TRUE(wf_geom_bounds(&g, &lo, &hi) && lo.x == 0.0f && hi.z == 30.0f);

    // Tile at a position: NULL mesh gives cell (0, 0), NULL outs are skipped,
    // NaN and far points give a valid (empty) cell.
    int32_t tx = 5, tz = 5;
    wf_mesh_tile_at(NULL, wf_v3(1, 0, 1), &tx, &tz);
    EXPECT_TRUE(tx == 0 && tz == 0);
    wf_mesh_tile_at(f->mesh, wf_v3(1, 0, 1), NULL, NULL);
    wf_mesh_tile_at(f->mesh, wf_v3(NAN_F, 0, INF_F), &tx, &tz);
    EXPECT_TRUE(tx == 0 && tz >= 0);
    wf_mesh_tile_at(f->mesh, wf_v3(-1e30f, 0, 1e30f), &tx, &tz);
    EXPECT_TRUE(tx < 0 && tz > 0);
    wf_mesh_tile_at(f->mesh, wf_v3(1, 0, 1), &tx, &tz);
    EXPECT_TRUE(tx == 0 && tz == 0);

    // The mesh check: NULL arguments, NaN, infinite and negative settings.
    wf_mesh_check_desc cd;
    memset(&cd, 0, sizeof cd);
    wf_mesh_check_report rep;
    memset(&rep, 0, sizeof rep);
    EXPECT(wf_query_check_mesh(NULL, &cd, &rep), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_check_mesh(f->q, NULL, &rep), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_check_mesh(f->q, &cd, NULL), WF_ERR_INVALID_ARG);
    const float bad_settings[3] = {NAN_F, INF_F, -1.0f};
    for (int k = 0; k < 3; ++k) {
        wf_mesh_check_desc b = cd;
        b.seam_offset = bad_settings[k];
        EXPECT(wf_query_check_mesh(f->q, &b, &rep), WF_ERR_INVALID_ARG);
        b = cd;
        b.seam_spacing = bad_settings[k];
        EXPECT(wf_query_check_mesh(f->q, &b, &rep), WF_ERR_INVALID_ARG);
        b = cd;
        b.max_climb = bad_settings[k];
        EXPECT(wf_query_check_mesh(f->q, &b, &rep), WF_ERR_INVALID_ARG);
    }
    EXPECT(wf_query_check_mesh(f->q, &cd, &rep), WF_OK);
    EXPECT_QUERY_WORKS(f);

    // The tile builder: one 10 x 10 m square polygon.
    static const float verts[] = {0, 0, 0, 0, 0, 10, 10, 0, 10, 10, 0, 0};
    uint16_t polys[WF_MAX_VERTS_PER_POLY];
    for (uint32_t k = 0; k < WF_MAX_VERTS_PER_POLY; ++k) {
        polys[k] = k < 4 ? (uint16_t)k : WF_NULL_INDEX;
    }
    wf_tile_build_desc td;
    memset(&td, 0, sizeof td);
    td.bmin = wf_v3(0, -1, 0);
    td.bmax = wf_v3(10, 1, 10);
    td.verts = verts;
    td.vert_count = 4;
    td.polys = polys;
    td.poly_count = 1;
    size_t size = 0;
    void* data = NULL;
    EXPECT(wf_tile_build_size(NULL, &size), WF_ERR_INVALID_ARG);
    EXPECT(wf_tile_build_size(&td, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tile_build(NULL, &data, &size), WF_ERR_INVALID_ARG);
    EXPECT(wf_tile_build(&td, NULL, &size), WF_ERR_INVALID_ARG);
    EXPECT(wf_tile_build(&td, &data, NULL), WF_ERR_INVALID_ARG);
    EXPECT_TRUE(data == NULL);
    wf_tile_build_desc bt = td;
    bt.bmin.x = NAN_F;
    EXPECT(wf_tile_build_size(&bt, &size), WF_ERR_INVALID_ARG);
    EXPECT(wf_tile_build(&bt, &data, &size), WF_ERR_INVALID_ARG);
    bt = td;
    bt.bmax.y = INF_F;
    EXPECT(wf_tile_build(&bt, &data, &size), WF_ERR_INVALID_ARG);
    bt = td;
    bt.polys = NULL;
    EXPECT(wf_tile_build(&bt, &data, &size), WF_ERR_INVALID_ARG);
    EXPECT_TRUE(data == NULL);
    EXPECT(wf_tile_build_size(&td, &size), WF_OK);
    EXPECT_TRUE(size > 0);
    size_t rounded = (size + 63u) & ~(size_t)63u;
    unsigned char* buffer = aligned_alloc(64, rounded + 64u);
    assert_non_null(buffer);
    EXPECT(wf_tile_build_into(NULL, buffer, rounded), WF_ERR_INVALID_ARG);
    EXPECT(wf_tile_build_into(&td, NULL, rounded), WF_ERR_INVALID_ARG);
    EXPECT(wf_tile_build_into(&td, buffer + 1, rounded), WF_ERR_INVALID_ARG); // misaligned
    EXPECT(wf_tile_build_into(&td, buffer, size - 1), WF_ERR_CAPACITY);
    bt = td;
    bt.bmin.z = NAN_F;
    EXPECT(wf_tile_build_into(&bt, buffer, rounded), WF_ERR_INVALID_ARG);
    EXPECT(wf_tile_build_into(&td, buffer, rounded), WF_OK);
    free(buffer);
    EXPECT(wf_tile_build(&td, &data, &size), WF_OK);
    EXPECT_TRUE(data != NULL);
    wf_tile_free(data, size, NULL); // NULL allocator = malloc's, as built
    wf_tile_free(NULL, 0, NULL);    // nothing to free

    EXPECT_UNCHANGED(f, &before);
    EXPECT_QUERY_WORKS(f);
    end_test();
}

int main(void) {
    wf_set_assert_hook(ignore_assert);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_mesh_misuse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_query_misuse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stale_refs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tilecache_misuse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_obstacle_misuse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_crowd_misuse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_crowd_reentry, setup, teardown),
        cmocka_unit_test_setup_teardown(test_getters_and_builders_misuse, setup, teardown),
        cmocka_unit_test_setup(test_world_misuse, begin_test),
        cmocka_unit_test_setup(test_jobs_misuse, begin_test),
        cmocka_unit_test_setup(test_loader_misuse, begin_test),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    print_message("misuse: %u checks, %u assert hook calls\n", g_checks, g_asserts);
    return failed;
}
