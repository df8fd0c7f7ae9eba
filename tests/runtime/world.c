// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The world: creation from geometry and from a cache file (and bad descs),
// a cache built for agent radius 0 (the crowd's default width),
// a step that carries obstacles into the crowd, the same state for any
// worker count, agents through a doorway narrower than themselves, and
// save/restore that continues bit-identically (at the largest tile size
// too), keeps ids valid and rejects damaged blobs without touching the world.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../crowd/crowd_test_util.h"
#include "navcore/bytes.h"
#include "test_hooks.h"
#include "wayfarer/rng.h"
#include "wayfarer/world.h"

#define DT (1.0f / 30.0f)
#define AGENTS 60u

/// A 36 x 36 m floor with a wall across it (a gap in the middle) and a
/// few pillars: triangles for the tile cache.
typedef struct level {
    float verts[4 * 3 * 5 * 16]; // 4 corners of 5 quads of up to 16 boxes
    uint32_t tris[2 * 3 * 5 * 16];
    uint32_t vert_count, tri_count;
} level;

static void add_quad(level* l, const float* a, const float* b, const float* c, const float* d) {
    uint32_t v = l->vert_count;
    const float* p[4] = {a, b, c, d};
    for (int k = 0; k < 4; ++k) {
        memcpy(&l->verts[3 * (v + (uint32_t)k)], p[k], 3 * sizeof(float));
    }
    l->vert_count += 4;
    uint32_t t[6] = {v, v + 1, v + 2, v, v + 2, v + 3};
    memcpy(&l->tris[3 * l->tri_count], t, sizeof t);
    l->tri_count += 2;
}

/// A box from (x0, 0, z0) to (x1, h, z1): its top and four sides.
static void add_box(level* l, float x0, float z0, float x1, float z1, float h) {
    const float a[3] = {x0, h, z0}, b[3] = {x0, h, z1}, c[3] = {x1, h, z1}, d[3] = {x1, h, z0};
    const float a0[3] = {x0, 0, z0}, b0[3] = {x0, 0, z1}, c0[3] = {x1, 0, z1}, d0[3] = {x1, 0, z0};
    add_quad(l, a, b, c, d);
    add_quad(l, a0, a, d, d0);
    add_quad(l, b0, c0, c, b);
    add_quad(l, a0, b0, b, a);
    add_quad(l, d0, d, c, c0);
}

static wf_geom make_level(level* l) {
    memset(l, 0, sizeof *l);
    const float a[3] = {0, 0, 0}, b[3] = {0, 0, 36}, c[3] = {36, 0, 36}, d[3] = {36, 0, 0};
    add_quad(l, a, b, c, d);
    add_box(l, 17.5f, 0.0f, 18.5f, 15.0f, 3.0f); // a wall with a gap between z 15 and 21
    add_box(l, 17.5f, 21.0f, 18.5f, 36.0f, 3.0f);
    add_box(l, 6.0f, 6.0f, 8.0f, 8.0f, 3.0f); // pillars
    add_box(l, 27.0f, 27.0f, 29.0f, 29.0f, 3.0f);
    wf_geom g = {
        .verts = l->verts, .vert_count = l->vert_count, .tris = l->tris, .tri_count = l->tri_count};
    return g;
}

/// tile_size 0: the default params (the Recast demo's); else those with
/// this tile size.
static wf_world* make_world_tiled(uint32_t workers, uint32_t tile_size) {
    static level lv;
    wf_geom g = make_level(&lv);
    wf_world_desc d;
    memset(&d, 0, sizeof d);
    d.geom = &g;
    if (tile_size != 0) {
        d.params = wf_tilecache_params_recast_demo();
        d.params.tile_size = tile_size;
    }
    d.worker_count = workers;
    d.crowd.max_agents = AGENTS;
    d.crowd.max_searches = 2;
    d.crowd.path_iterations_per_update = 64; // searches span several steps
    d.crowd.quick_search_iterations = 4;
    d.logger.quiet = true;
    wf_world* w = NULL;
    assert_int_equal(wf_world_create(&d, &w), WF_OK);
    return w;
}

static wf_world* make_world(uint32_t workers) { return make_world_tiled(workers, 0); }

static wf_vec3 random_spot(wf_rng* rng) {
    for (;;) {
        wf_vec3 p = wf_v3(wf_rng_range(rng, 1.0f, 35.0f), 0.0f, wf_rng_range(rng, 1.0f, 35.0f));
        bool in_wall = p.x > 16.5f && p.x < 19.5f && (p.z < 16.0f || p.z > 20.0f);
        bool in_pillar = (p.x > 5.0f && p.x < 9.0f && p.z > 5.0f && p.z < 9.0f) ||
                         (p.x > 26.0f && p.x < 30.0f && p.z > 26.0f && p.z < 30.0f);
        if (!in_wall && !in_pillar) {
            return p;
        }
    }
}

/// Agents, targets on arrival, a crate dropped and removed now and then.
typedef struct scene {
    wf_rng rng;
    wf_agent_id ids[AGENTS];
    wf_obstacle_id crate;
} scene;

static void populate(wf_world* w, scene* s) {
    s->rng = wf_rng_make(77u, 1u);
    wf_agent_params p = wf_agent_params_defaults();
    for (uint32_t i = 0; i < AGENTS; ++i) {
        p.priority = (uint8_t)(i % 3u);
        assert_int_equal(
            wf_crowd_add_agent(wf_world_crowd(w), random_spot(&s->rng), &p, &s->ids[i]), WF_OK);
        assert_int_equal(
            wf_crowd_request_move(wf_world_crowd(w), s->ids[i], random_spot(&s->rng), NULL, NULL),
            WF_OK);
    }
    s->crate.bits = 0;
}

static void run(wf_world* w, scene* s, uint32_t from, uint32_t frames) {
    for (uint32_t f = from; f < from + frames; ++f) {
        wf_tilecache* tc = wf_world_tilecache(w);
        if (f % 40u == 10u) {
            if (s->crate.bits != 0) {
                assert_int_equal(wf_tilecache_remove_obstacle(tc, s->crate), WF_OK);
                s->crate.bits = 0;
            } else {
                wf_obstacle_desc od = {
                    .shape = WF_OBSTACLE_CYLINDER, .radius = 1.5f, .height = 2.0f};
                od.position = random_spot(&s->rng);
                assert_int_equal(wf_tilecache_add_obstacle(tc, &od, &s->crate), WF_OK);
            }
        }
        wf_world_report r;
        assert_int_equal(wf_world_step(w, DT, NULL, &r), WF_OK);
        uint32_t n;
        const wf_crowd_event* e = wf_crowd_events(wf_world_crowd(w), &n);
        for (uint32_t k = 0; k < n; ++k) {
            if (e[k].kind == WF_CROWD_EVENT_ARRIVED || e[k].kind == WF_CROWD_EVENT_STOPPED_SHORT ||
                e[k].kind == WF_CROWD_EVENT_BLOCKED) {
                assert_int_equal(wf_crowd_request_move(wf_world_crowd(w), e[k].agent,
                                                       random_spot(&s->rng), NULL, NULL),
                                 WF_OK);
            }
        }
    }
}

static void test_create_and_bad_descs(void** state) {
    (void)state;
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    wf_world* w = (wf_world*)1;
    wf_world_desc d;
    memset(&d, 0, sizeof d);
    assert_int_equal(wf_world_create(&d, &w), WF_ERR_INVALID_ARG); // no level
    assert_null(w);
    assert_int_equal(wf_world_create(NULL, &w), WF_ERR_INVALID_ARG);
    level lv;
    wf_geom g = make_level(&lv);
    const unsigned char junk[64] = {1, 2, 3};
    d.geom = &g;
    d.cache_data = junk;
    d.cache_size = sizeof junk;
    assert_int_equal(wf_world_create(&d, &w), WF_ERR_INVALID_ARG); // both
    d.geom = NULL;
    d.logger.quiet = true;
    assert_int_equal(wf_world_create(&d, &w), WF_ERR_BAD_DATA); // not a cache file
    wf_set_assert_hook(previous);

    // From geometry, then from the same level saved as a cache file.
    wf_world* a = make_world(1);
    size_t size = 0;
    assert_int_equal(wf_tilecache_save_size(wf_world_tilecache(a), &size), WF_OK);
    unsigned char* file = malloc(size);
    assert_int_equal(wf_tilecache_save(wf_world_tilecache(a), file, size), WF_OK);
    memset(&d, 0, sizeof d);
    d.cache_data = file;
    d.cache_size = size;
    d.worker_count = 1;
    d.logger.quiet = true;
    wf_world* b = NULL;
    assert_int_equal(wf_world_create(&d, &b), WF_OK);
    free(file);
    assert_int_equal(wf_mesh_get_stats(wf_world_mesh(a)).poly_count,
                     wf_mesh_get_stats(wf_world_mesh(b)).poly_count);
    assert_true(wf_mesh_get_stats(wf_world_mesh(a)).poly_count > 0);
    wf_world_destroy(a);
    wf_world_destroy(b);
    wf_world_destroy(NULL);
}

/// A valid cache built for agent radius 0 makes a world whose crowd takes
/// default agents (its width defaults to the default agent's, not to 0),
/// from geometry and from the saved file.
static void test_radius_zero_cache_makes_a_world(void** state) {
    (void)state;
    static level lv;
    wf_geom g = make_level(&lv);
    wf_world_desc d;
    memset(&d, 0, sizeof d);
    d.geom = &g;
    d.params = wf_tilecache_params_recast_demo();
    d.params.agent_radius = 0.0f;
    d.worker_count = 1;
    d.logger.quiet = true;
    wf_world* a = NULL;
    assert_int_equal(wf_world_create(&d, &a), WF_OK);
    size_t size = 0;
    assert_int_equal(wf_tilecache_save_size(wf_world_tilecache(a), &size), WF_OK);
    unsigned char* file = malloc(size);
    assert_non_null(file);
    assert_int_equal(wf_tilecache_save(wf_world_tilecache(a), file, size), WF_OK);
    memset(&d, 0, sizeof d);
    d.cache_data = file;
    d.cache_size = size;
    d.worker_count = 1;
    d.logger.quiet = true;
    wf_world* b = NULL;
    assert_int_equal(wf_world_create(&d, &b), WF_OK);
    free(file);
    assert_true(wf_tilecache_get_params(wf_world_tilecache(b))->agent_radius == 0.0f);
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    wf_world* worlds[2] = {a, b};
    for (int k = 0; k < 2; ++k) {
        wf_crowd* crowd = wf_world_crowd(worlds[k]);
        wf_agent_params p = wf_agent_params_defaults();
        wf_agent_id id;
        assert_int_equal(wf_crowd_add_agent(crowd, wf_v3(3, 0, 3), &p, &id), WF_OK);
        assert_int_equal(wf_crowd_request_move(crowd, id, wf_v3(3, 0, 30), NULL, NULL), WF_OK);
        p.radius = 0.61f; // wider than the documented fallback
        assert_int_equal(wf_crowd_add_agent(crowd, wf_v3(3, 0, 5), &p, &id), WF_ERR_INVALID_ARG);
        assert_int_equal(wf_crowd_agent_count(crowd), 1);
        assert_int_equal(wf_world_step(worlds[k], DT, NULL, NULL), WF_OK);
    }
    wf_set_assert_hook(previous);
    wf_world_destroy(a);
    wf_world_destroy(b);
}

static void test_obstacle_reaches_the_crowd(void** state) {
    (void)state;
    wf_world* w = make_world(2);
    wf_agent_params p = wf_agent_params_defaults();
    wf_agent_id a;
    wf_crowd* crowd = wf_world_crowd(w);
    assert_int_equal(wf_crowd_add_agent(crowd, wf_v3(4.0f, 0, 18.0f), &p, &a), WF_OK);
    assert_int_equal(wf_crowd_request_move(crowd, a, wf_v3(32.0f, 0, 18.0f), NULL, NULL), WF_OK);
    for (int k = 0; k < 10; ++k) {
        assert_int_equal(wf_world_step(w, DT, NULL, NULL), WF_OK);
    }
    // Close the gap in the wall: the tiles there change, the agent's path
    // breaks and cannot be repaired.
    wf_obstacle_desc od = {.shape = WF_OBSTACLE_BOX,
                           .position = wf_v3(18.0f, 1.0f, 18.0f),
                           .half_extents = wf_v3(1.0f, 1.5f, 3.5f)};
    wf_obstacle_id door;
    assert_int_equal(wf_tilecache_add_obstacle(wf_world_tilecache(w), &od, &door), WF_OK);
    wf_world_report r;
    assert_int_equal(wf_world_step(w, DT, NULL, &r), WF_OK);
    assert_true(r.tiles.tiles_committed > 0);
    assert_true(r.tiles.changed_count > 0);
    assert_true(r.frame == 11);
    bool blocked = false;
    for (int k = 0; k < 300 && !blocked; ++k) {
        if (k > 0) {
            assert_int_equal(wf_world_step(w, DT, NULL, &r), WF_OK);
        }
        uint32_t n;
        const wf_crowd_event* e = wf_crowd_events(wf_world_crowd(w), &n);
        for (uint32_t j = 0; j < n; ++j) {
            blocked |= e[j].kind == WF_CROWD_EVENT_BLOCKED;
        }
    }
    assert_true(blocked);
    wf_agent_state s = crowd_test_state(wf_world_crowd(w), a);
    assert_true(s.position.x < 18.0f);
    wf_world_destroy(w);
}

static uint64_t scenario_hash(uint32_t workers) {
    wf_world* w = make_world(workers);
    scene* s = calloc(1, sizeof *s);
    populate(w, s);
    run(w, s, 0, 150);
    uint64_t h = crowd_test_hash(wf_world_crowd(w));
    free(s);
    wf_world_destroy(w);
    return h;
}

static void test_same_state_for_any_worker_count(void** state) {
    (void)state;
    uint64_t one = scenario_hash(1);
    assert_true(scenario_hash(2) == one);
    assert_true(scenario_hash(3) == one);
}

static void test_save_and_restore_continue_identically(void** state) {
    (void)state;
    wf_world* a = make_world(2);
    scene* sa = calloc(1, sizeof *sa);
    populate(a, sa);
    run(a, sa, 0, 95); // mid-way: searches running, a crate standing
    size_t size = 0;
    assert_int_equal(wf_world_save_size(a, &size), WF_OK);
    unsigned char* blob = malloc(size);
    assert_int_equal(wf_world_save(a, blob, size), WF_OK);
    scene* sb = malloc(sizeof *sb);
    memcpy(sb, sa, sizeof *sb); // the game's own state (ids, rng) is the game's to save

    // A damaged or truncated blob changes nothing.
    wf_world* b = make_world(1);
    uint64_t fresh = crowd_test_hash(wf_world_crowd(b));
    for (size_t at = 0; at < size; at += size / 97u + 1u) {
        blob[at] ^= 0x20u;
        assert_int_equal(wf_world_restore(b, blob, size), WF_ERR_BAD_DATA);
        blob[at] ^= 0x20u;
    }
    assert_int_equal(wf_world_restore(b, blob, size - 1u), WF_ERR_BAD_DATA);
    assert_int_equal(wf_world_restore(b, blob, 10), WF_ERR_BAD_DATA);
    assert_true(crowd_test_hash(wf_world_crowd(b)) == fresh);

    assert_int_equal(wf_world_restore(b, blob, size), WF_OK);
    // Ids the game kept work in the restored world.
    wf_agent_state st;
    assert_int_equal(wf_crowd_get_agent(wf_world_crowd(b), sa->ids[7], &st), WF_OK);
    assert_true(crowd_test_hash(wf_world_crowd(b)) == crowd_test_hash(wf_world_crowd(a)));
    run(a, sa, 95, 120);
    run(b, sb, 95, 120);
    assert_true(crowd_test_hash(wf_world_crowd(b)) == crowd_test_hash(wf_world_crowd(a)));
    assert_int_equal(wf_tilecache_obstacle_count(wf_world_tilecache(a)),
                     wf_tilecache_obstacle_count(wf_world_tilecache(b)));
    free(blob);
    free(sa);
    free(sb);
    wf_world_destroy(a);
    wf_world_destroy(b);
}

/// A restored world's mesh answers as the saved one, ties included: around
/// every agent, the local neighbourhood (the crowd's wall polygons) comes
/// in the same order. The crate's tiles were rebuilt in their slots before
/// the save, a load links tiles in slot order; with links pushed in front
/// as made, the orders differed (main before restore16), and any rule that
/// read the order made the restored crowd drift.
static void test_restored_mesh_walks_polygons_alike(void** state) {
    (void)state;
    wf_world* a = make_world(1);
    scene* sa = calloc(1, sizeof *sa);
    populate(a, sa);
    run(a, sa, 0, 95); // the crate came and went: tiles rebuilt
    size_t size = 0;
    assert_int_equal(wf_world_save_size(a, &size), WF_OK);
    unsigned char* blob = malloc(size);
    assert_int_equal(wf_world_save(a, blob, size), WF_OK);
    wf_world* b = make_world(1);
    assert_int_equal(wf_world_restore(b, blob, size), WF_OK);
    wf_query *qa, *qb;
    assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = wf_world_mesh(a)}, &qa), WF_OK);
    assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = wf_world_mesh(b)}, &qb), WF_OK);
    wf_query_filter f = wf_query_filter_defaults();
    uint32_t compared = 0;
    for (uint32_t i = 0; i < AGENTS; ++i) {
        wf_agent_state st;
        assert_int_equal(wf_crowd_get_agent(wf_world_crowd(a), sa->ids[i], &st), WF_OK);
        wf_poly_ref first[1];
        uint32_t n = 0;
        if (wf_crowd_get_corridor(wf_world_crowd(a), sa->ids[i], first, 1, &n) != WF_OK || n == 0) {
            continue;
        }
        wf_poly_ref ra[16], rb[16], pa[16], pb[16];
        uint32_t na = 0, nb = 0;
        wf_status sa_st =
            wf_query_find_local_neighbourhood(qa, first[0], st.position, 7.2f, &f, ra, pa, 16, &na);
        wf_status sb_st =
            wf_query_find_local_neighbourhood(qb, first[0], st.position, 7.2f, &f, rb, pb, 16, &nb);
        assert_int_equal(sa_st, sb_st);
        assert_int_equal(na, nb);
        for (uint32_t k = 0; k < na; ++k) {
            assert_true(ra[k].bits == rb[k].bits);
            assert_true(pa[k].bits == pb[k].bits);
        }
        compared += na > 1u;
    }
    assert_true(compared >= 10u); // real neighbourhoods were compared (14 here)
    wf_query_destroy(qa);
    wf_query_destroy(qb);
    free(blob);
    free(sa);
    wf_world_destroy(a);
    wf_world_destroy(b);
}

/// A straight path from a to b on the query's mesh, as a hash of its points.
static uint64_t path_hash(wf_query* q, wf_vec3 a, wf_vec3 b) {
    wf_query_filter f = wf_query_filter_defaults();
    wf_vec3 ext = wf_v3(2.0f, 4.0f, 2.0f), sp, gp;
    wf_poly_ref start, goal, corridor[256];
    assert_int_equal(wf_query_find_nearest_poly(q, a, ext, &f, &start, &sp), WF_OK);
    assert_int_equal(wf_query_find_nearest_poly(q, b, ext, &f, &goal, &gp), WF_OK);
    wf_path_result pr;
    assert_true(wf_query_find_path(q, start, goal, sp, gp, &f, corridor, 256, &pr) >= 0);
    wf_straight_point pts[64];
    uint32_t n = 0;
    assert_true(wf_query_find_straight_path(q, sp, gp, corridor, pr.count, pts, 64, 0, &n) >= 0);
    // Field by field: the struct's padding bytes are not part of the path.
    uint64_t h = 14695981039346656037ull;
    for (uint32_t k = 0; k < n; ++k) {
        uint32_t words[6];
        memcpy(&words[0], &pts[k].pos, sizeof(float) * 3);
        words[3] = (uint32_t)pts[k].ref.bits;
        words[4] = (uint32_t)(pts[k].ref.bits >> 32);
        words[5] = pts[k].flags;
        const unsigned char* bytes = (const unsigned char*)words;
        for (size_t i = 0; i < sizeof words; ++i) {
            h = (h ^ bytes[i]) * 1099511628211ull;
        }
    }
    return h ^ n;
}

/// The crowd, tile cache and mesh pointers a game took before a restore
/// stay valid after it (the restore replaces their contents in place), and
/// a query the game made on the old mesh searches the restored one.
static void test_parts_stay_valid_across_restore(void** state) {
    (void)state;
    wf_world* a = make_world(2);
    scene* sa = calloc(1, sizeof *sa);
    populate(a, sa);
    run(a, sa, 0, 95);
    size_t size = 0;
    assert_int_equal(wf_world_save_size(a, &size), WF_OK);
    unsigned char* blob = malloc(size);
    assert_int_equal(wf_world_save(a, blob, size), WF_OK);

    wf_world* b = make_world(2);
    wf_crowd* crowd = wf_world_crowd(b);
    wf_tilecache* tc = wf_world_tilecache(b);
    wf_mesh* mesh = wf_world_mesh(b);
    wf_query* q = NULL;
    assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = mesh}, &q), WF_OK);
    wf_vec3 from = wf_v3(2.0f, 0.0f, 2.0f), to = wf_v3(33.0f, 0.0f, 33.0f);
    (void)path_hash(q, from, to); // the query keeps what it can reuse
    assert_int_equal(wf_world_restore(b, blob, size), WF_OK);
    assert_ptr_equal(wf_world_crowd(b), crowd);
    assert_ptr_equal(wf_world_tilecache(b), tc);
    assert_ptr_equal(wf_world_mesh(b), mesh);

    wf_agent_state st;
    assert_int_equal(wf_crowd_get_agent(crowd, sa->ids[7], &st), WF_OK);
    assert_int_equal(wf_tilecache_obstacle_count(tc),
                     wf_tilecache_obstacle_count(wf_world_tilecache(a)));
    wf_query* qa = NULL;
    assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = wf_world_mesh(a)}, &qa), WF_OK);
    assert_true(path_hash(q, from, to) == path_hash(qa, from, to));
    assert_true(crowd_test_hash(crowd) == crowd_test_hash(wf_world_crowd(a)));
    wf_query_destroy(q);
    wf_query_destroy(qa);
    free(blob);
    free(sa);
    wf_world_destroy(a);
    wf_world_destroy(b);
}

/// Tiles of 148 to 255 cells built and saved, but their layers did not fit
/// the 64 KiB scratch the cache file is loaded into: the world's own save
/// would not restore. The largest tile size, one tile over the level.
static void test_save_and_restore_at_the_largest_tile_size(void** state) {
    (void)state;
    wf_world* a = make_world_tiled(2, 255);
    assert_int_equal(wf_tilecache_get_params(wf_world_tilecache(a))->tile_size, 255);
    scene* sa = calloc(1, sizeof *sa);
    populate(a, sa);
    run(a, sa, 0, 55); // a crate standing, searches running
    size_t size = 0;
    assert_int_equal(wf_world_save_size(a, &size), WF_OK);
    unsigned char* blob = malloc(size);
    assert_int_equal(wf_world_save(a, blob, size), WF_OK);
    scene* sb = malloc(sizeof *sb);
    memcpy(sb, sa, sizeof *sb);
    wf_world* b = make_world_tiled(1, 255);
    assert_int_equal(wf_world_restore(b, blob, size), WF_OK);
    assert_true(crowd_test_hash(wf_world_crowd(b)) == crowd_test_hash(wf_world_crowd(a)));
    run(a, sa, 55, 60);
    run(b, sb, 55, 60);
    assert_true(crowd_test_hash(wf_world_crowd(b)) == crowd_test_hash(wf_world_crowd(a)));
    free(blob);
    free(sa);
    free(sb);
    wf_world_destroy(a);
    wf_world_destroy(b);
}

/// The world save's checksums (docs/formats.md): the mesh section's hash
/// (byte-wise FNV-1a 32, its field as zero, folded) and the world's FNV-1a 64.
static void reseal_world(unsigned char* blob, size_t size) {
    // A single-class save: 40 fixed bytes, one row of section sizes (tile
    // cache at 40, mesh at 48), no obstacle table; the checksum at 32.
    size_t tc = (size_t)wf_bytes_get_u64(blob + 40), mesh = (size_t)wf_bytes_get_u64(blob + 48);
    unsigned char* m = blob + 64 + tc;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < mesh; ++i) {
        h = (h ^ (i >= 12 && i < 16 ? 0u : m[i])) * 16777619u;
    }
    wf_bytes_put_u32(m + 12, h ^ (h >> 16));
    uint64_t w = 14695981039346656037ull;
    for (size_t i = 0; i < size; ++i) {
        w = (w ^ (i >= 32 && i < 40 ? 0u : blob[i])) * 1099511628211ull;
    }
    wf_bytes_put_u64(blob + 32, w);
}

/// Found by fuzz/fuzz_world: a save whose mesh section has another tile
/// size (4 m -> 3.9375 m, checksums intact) restored, and the next step's
/// tile update hit its "mesh on the cache's grid" misuse check. Such a save
/// is refused and the world carries on as it was.
static void test_restore_refuses_a_mesh_off_the_cache_grid(void** state) {
    (void)state;
    wf_world* w = make_world(1);
    scene* s = calloc(1, sizeof *s);
    populate(w, s);
    run(w, s, 0, 10);
    size_t size = 0;
    assert_int_equal(wf_world_save_size(w, &size), WF_OK);
    unsigned char* blob = malloc(size);
    unsigned char* copy = malloc(size);
    assert_int_equal(wf_world_save(w, blob, size), WF_OK);
    uint64_t before = crowd_test_hash(wf_world_crowd(w));
    size_t mesh_at = 64 + (size_t)wf_bytes_get_u64(blob + 40);
    const struct {
        size_t field; // in the mesh section: origin x, tile width, tile depth
        float scale, add;
    } cases[] = {{16, 1.0f, 0.5f}, {28, 63.0f / 64.0f, 0.0f}, {32, 2.0f, 0.0f}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        memcpy(copy, blob, size);
        reseal_world(copy, size);
        assert_memory_equal(copy, blob, size); // the test's seal is the library's
        unsigned char* f = copy + mesh_at + cases[k].field;
        wf_bytes_put_f32(f, wf_bytes_get_f32(f) * cases[k].scale + cases[k].add);
        reseal_world(copy, size);
        assert_int_equal(wf_world_restore(w, copy, size), WF_ERR_BAD_DATA);
        assert_true(crowd_test_hash(wf_world_crowd(w)) == before);
    }
    run(w, s, 10, 5); // the world still steps
    free(copy);
    free(blob);
    free(s);
    wf_world_destroy(w);
}

#define AGENT_FILE 5u

/// The gap in the wall narrowed to a 2 m doorway by two boxes: carved and
/// eroded by the agent radius (0.6), the navmesh keeps well under a metre
/// of it, less than an agent is wide. Agents must all get through it (one
/// at a time) without wedging in it.
static void test_agents_pass_a_doorway_narrower_than_themselves(void** state) {
    (void)state;
    wf_world* w = make_world(2);
    wf_tilecache* tc = wf_world_tilecache(w);
    wf_crowd* crowd = wf_world_crowd(w);
    wf_obstacle_id posts[2];
    for (int k = 0; k < 2; ++k) {
        wf_obstacle_desc od = {.shape = WF_OBSTACLE_BOX,
                               .position = wf_v3(18.0f, 0.0f, k == 0 ? 16.0f : 20.0f),
                               .half_extents = wf_v3(0.5f, 1.5f, 1.0f)};
        assert_int_equal(wf_tilecache_add_obstacle(tc, &od, &posts[k]), WF_OK);
    }
    assert_int_equal(wf_world_step(w, DT, NULL, NULL), WF_OK);
    // What is left of the doorway on the navmesh: narrower than an agent.
    wf_query* q = NULL;
    wf_query_desc qd = {.mesh = wf_world_mesh(w)};
    assert_int_equal(wf_query_create(&qd, &q), WF_OK);
    const wf_query_filter filter = wf_query_filter_defaults();
    wf_poly_ref ref;
    wf_vec3 at;
    assert_int_equal(wf_query_find_nearest_poly(q, wf_v3(18.0f, 0.0f, 18.0f),
                                                wf_v3(0.5f, 1.0f, 0.5f), &filter, &ref, &at),
                     WF_OK);
    float to_wall = 0.0f;
    assert_int_equal(
        wf_query_find_distance_to_wall(q, ref, at, 5.0f, &filter, &to_wall, NULL, NULL), WF_OK);
    wf_query_destroy(q);
    wf_agent_params p = wf_agent_params_defaults();
    assert_true(to_wall < p.radius);

    // A file of agents walking up to it from the west. (Crowds pressing at
    // it from several sides at once, or streams meeting head-on in it, can
    // clog it; agents stuck there are then rightly reported blocked after
    // stuck_time, so a test that needs everyone through sends one file.)
    wf_agent_id ids[AGENT_FILE];
    for (uint32_t i = 0; i < AGENT_FILE; ++i) {
        wf_vec3 from = wf_v3(14.0f - 2.5f * (float)i, 0.0f, 18.0f);
        wf_vec3 to = wf_v3(30.0f, 0.0f, 12.0f + 3.0f * (float)i);
        assert_int_equal(wf_crowd_add_agent(crowd, from, &p, &ids[i]), WF_OK);
        assert_int_equal(wf_crowd_request_move(crowd, ids[i], to, NULL, NULL), WF_OK);
    }
    uint32_t arrived = 0, blocked = 0;
    for (int frame = 0; frame < 30 * 60 && arrived < AGENT_FILE; ++frame) {
        assert_int_equal(wf_world_step(w, DT, NULL, NULL), WF_OK);
        uint32_t n;
        const wf_crowd_event* e = wf_crowd_events(crowd, &n);
        for (uint32_t k = 0; k < n; ++k) {
            arrived +=
                e[k].kind == WF_CROWD_EVENT_ARRIVED || e[k].kind == WF_CROWD_EVENT_STOPPED_SHORT;
            blocked += e[k].kind == WF_CROWD_EVENT_BLOCKED;
        }
    }
    assert_int_equal(blocked, 0);
    assert_int_equal(arrived, AGENT_FILE);
    for (uint32_t i = 0; i < AGENT_FILE; ++i) {
        wf_agent_state s = crowd_test_state(crowd, ids[i]);
        assert_true(s.position.x > 18.0f); // on the other side
    }
    wf_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_and_bad_descs),
        cmocka_unit_test(test_radius_zero_cache_makes_a_world),
        cmocka_unit_test(test_obstacle_reaches_the_crowd),
        cmocka_unit_test(test_agents_pass_a_doorway_narrower_than_themselves),
        cmocka_unit_test(test_same_state_for_any_worker_count),
        cmocka_unit_test(test_save_and_restore_continue_identically),
        cmocka_unit_test(test_restored_mesh_walks_polygons_alike),
        cmocka_unit_test(test_parts_stay_valid_across_restore),
        cmocka_unit_test(test_save_and_restore_at_the_largest_tile_size),
        cmocka_unit_test(test_restore_refuses_a_mesh_off_the_cache_grid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
