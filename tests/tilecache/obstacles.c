// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The obstacle set through the public API on a flat grid cache (no update
// is run here): ids, get and count, remove and move, obstacles outside
// every tile, a full request queue and a full obstacle pool leave nothing
// behind, bad descs, a 40 x 40 m obstacle, the queued requests themselves
// (a removed slot reused before the update), and no allocation or leak.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "test_hooks.h"
#include "tilecache/tilecache_internal.h"
#include "wayfarer/tilecache.h"

/// World of GRID x GRID one-metre cells at y = 0, tiles of 8 m: 6 x 6
/// tiles, one layer each. Cells with x >= blocked_from are walls.
#define GRID 48u

typedef struct fixture {
    counting_allocator alloc;
    wf_tilecache* tc;
} fixture;

static wf_tilecache_params grid_params(void) {
    wf_tilecache_params p;
    memset(&p, 0, sizeof p);
    p.cell_size = 1.0f;
    p.cell_height = 0.25f;
    p.agent_height = 2.0f;
    p.agent_radius = 0.5f;
    p.agent_climb = 0.5f;
    p.agent_max_slope = 45.0f;
    p.tile_size = 8;
    p.min_region_area = 1;
    p.merge_region_area = 4;
    p.max_simplification_error = 1.0f;
    p.max_verts_per_poly = 6;
    return p;
}

static wf_tilecache* make_cache(counting_allocator* c, uint32_t max_obstacles,
                                uint32_t max_requests, uint32_t blocked_from) {
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = grid_params();
    d.logger.quiet = true;
    d.allocator = counting_allocator_hooks(c);
    d.max_obstacles = max_obstacles;
    d.max_pending_requests = max_requests;
    wf_tilecache* tc = NULL;
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    uint8_t walkable[GRID * GRID];
    for (uint32_t i = 0; i < GRID * GRID; ++i) {
        walkable[i] = i % GRID < blocked_from;
    }
    wf_grid grid;
    memset(&grid, 0, sizeof grid);
    grid.width = grid.depth = GRID;
    grid.cell_size = 1.0f;
    grid.walkable = walkable;
    assert_int_equal(wf_tilecache_build_grid(tc, grid), WF_OK);
    return tc;
}

static wf_obstacle_desc cylinder(float x, float z, float r) {
    wf_obstacle_desc d;
    memset(&d, 0, sizeof d);
    d.shape = WF_OBSTACLE_CYLINDER;
    d.position = wf_v3(x, 0.0f, z);
    d.radius = r;
    d.height = 2.0f;
    return d;
}

static wf_obstacle_desc box(float x, float z, float hx, float hz) {
    wf_obstacle_desc d;
    memset(&d, 0, sizeof d);
    d.shape = WF_OBSTACLE_BOX;
    d.position = wf_v3(x, 0.5f, z);
    d.half_extents = wf_v3(hx, 1.0f, hz);
    return d;
}

static void assert_same_desc(const wf_obstacle_desc* a, const wf_obstacle_desc* b) {
    assert_int_equal(a->shape, b->shape);
    assert_int_equal(a->paint, b->paint);
    assert_int_equal(a->area, b->area);
    assert_true(wf_v3_equal(a->position, b->position));
    assert_true(a->radius == b->radius && a->height == b->height && a->yaw == b->yaw);
    assert_true(wf_v3_equal(a->half_extents, b->half_extents));
    assert_int_equal(a->vert_count, b->vert_count);
    for (uint32_t i = 0; i < a->vert_count; ++i) {
        assert_true(wf_v3_equal(a->verts[i], b->verts[i]));
    }
}

static void finish(wf_tilecache* tc, counting_allocator* c) {
    wf_tilecache_destroy(tc);
    assert_int_equal(counting_allocator_live(c), 0);
    assert_int_equal(atomic_load(&c->size_mismatches), 0);
}

static void test_add_get_count(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tilecache* tc = make_cache(&c, 0, 0, GRID);
    assert_int_equal(wf_tilecache_layer_count(tc), 36);
    assert_int_equal(wf_tilecache_obstacle_count(tc), 0);
    wf_obstacle_desc descs[4];
    descs[0] = cylinder(10.0f, 10.0f, 1.0f);
    descs[1] = box(20.0f, 5.0f, 2.0f, 1.0f);
    descs[1].paint = true;
    descs[1].area = 17;
    descs[2] = box(30.0f, 30.0f, 3.0f, 0.5f);
    descs[2].shape = WF_OBSTACLE_ORIENTED_BOX;
    descs[2].yaw = 0.7f;
    memset(&descs[3], 0, sizeof descs[3]);
    descs[3].shape = WF_OBSTACLE_PRISM;
    descs[3].height = 1.5f;
    descs[3].vert_count = 3;
    descs[3].verts[0] = wf_v3(40.0f, 0.0f, 40.0f);
    descs[3].verts[1] = wf_v3(44.0f, 0.0f, 40.0f);
    descs[3].verts[2] = wf_v3(40.0f, 0.0f, 44.0f);
    wf_obstacle_id ids[4];
    for (uint32_t i = 0; i < 4; ++i) {
        assert_int_equal(wf_tilecache_add_obstacle(tc, &descs[i], &ids[i]), WF_OK);
        assert_true(ids[i].bits != 0);
        assert_int_equal(wf_id_kind_of(ids[i].bits), WF_ID_KIND_OBSTACLE);
        assert_int_equal(wf_tilecache_obstacle_count(tc), i + 1);
        for (uint32_t k = 0; k < i; ++k) {
            assert_true(ids[k].bits != ids[i].bits);
        }
    }
    for (uint32_t i = 0; i < 4; ++i) {
        wf_obstacle_desc got;
        assert_int_equal(wf_tilecache_get_obstacle(tc, ids[i], &got), WF_OK);
        assert_same_desc(&got, &descs[i]);
    }
    // Each add queued one ADD request; none is applied yet.
    assert_int_equal(tc->request_count, 4);
    for (uint32_t i = 0; i < 4; ++i) {
        const wf_obstacle_request* r = &tc->requests[(tc->request_head + i) % tc->max_requests];
        assert_int_equal(r->kind, WF_REQUEST_ADD);
        assert_int_equal(r->slot, wf_id_index(ids[i].bits));
        const wf_obstacle_record* rec = &tc->obstacles[r->slot];
        assert_int_equal(rec->state, WF_OBSTACLE_LIVE);
        assert_false(rec->applied);
    }
    // The record's stamp is widened by the cache's radius and climb.
    const wf_obstacle_record* rec = &tc->obstacles[wf_id_index(ids[0].bits)];
    assert_true(rec->stamp.radius == 1.5f);
    assert_true(rec->stamp.bmin[0] == 8.5f && rec->stamp.bmax[0] == 11.5f);
    assert_true(rec->stamp.bmin[1] == -0.5f && rec->stamp.bmax[1] == 2.0f);
    finish(tc, &c);
}

static void test_remove(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tilecache* tc = make_cache(&c, 0, 0, GRID);
    wf_obstacle_desc d = cylinder(12.0f, 12.0f, 1.0f);
    wf_obstacle_id a, b;
    assert_int_equal(wf_tilecache_add_obstacle(tc, &d, &a), WF_OK);
    assert_int_equal(wf_tilecache_add_obstacle(tc, &d, &b), WF_OK);
    wf_obstacle_stamp stamp_a = tc->obstacles[wf_id_index(a.bits)].stamp;
    assert_int_equal(wf_tilecache_remove_obstacle(tc, a), WF_OK);
    assert_int_equal(wf_tilecache_obstacle_count(tc), 1);
    // Stale at once, for every call.
    wf_obstacle_desc got;
    assert_int_equal(wf_tilecache_get_obstacle(tc, a, &got), WF_ERR_STALE_REF);
    assert_int_equal(wf_tilecache_remove_obstacle(tc, a), WF_ERR_STALE_REF);
    assert_int_equal(wf_tilecache_move_obstacle(tc, a, &d), WF_ERR_STALE_REF);
    assert_int_equal(wf_tilecache_get_obstacle(tc, b, &got), WF_OK);
    // The REMOVE request carries the old bounds and whether they were in
    // the tiles (not yet: no update ran).
    assert_int_equal(tc->request_count, 3);
    const wf_obstacle_request* r = &tc->requests[(tc->request_head + 2) % tc->max_requests];
    assert_int_equal(r->kind, WF_REQUEST_REMOVE);
    assert_int_equal(r->slot, wf_id_index(a.bits));
    assert_false(r->was_applied);
    assert_memory_equal(r->old_bmin, stamp_a.bmin, sizeof r->old_bmin);
    assert_memory_equal(r->old_bmax, stamp_a.bmax, sizeof r->old_bmax);
    assert_int_equal(tc->obstacles[r->slot].state, WF_OBSTACLE_FREE);
    // Another kind's id, a made-up generation, a slot past the end, null.
    wf_obstacle_id agent = {
        wf_id_make(wf_id_index(b.bits), wf_id_generation(b.bits), WF_ID_KIND_AGENT)};
    assert_int_equal(wf_tilecache_remove_obstacle(tc, agent), WF_ERR_WRONG_KIND);
    assert_int_equal(wf_tilecache_get_obstacle(tc, agent, &got), WF_ERR_WRONG_KIND);
    assert_int_equal(wf_tilecache_move_obstacle(tc, agent, &d), WF_ERR_WRONG_KIND);
    wf_obstacle_id forged = {b.bits + (1ull << 32)};
    assert_int_equal(wf_tilecache_remove_obstacle(tc, forged), WF_ERR_STALE_REF);
    wf_obstacle_id past = {wf_id_make(5000, 1, WF_ID_KIND_OBSTACLE)};
    assert_int_equal(wf_tilecache_remove_obstacle(tc, past), WF_ERR_STALE_REF);
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    wf_obstacle_id null_id = {0};
    assert_int_equal(wf_tilecache_remove_obstacle(tc, null_id), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_tilecache_get_obstacle(tc, null_id, &got), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_tilecache_move_obstacle(tc, null_id, &d), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_tilecache_remove_obstacle(NULL, b), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_tilecache_get_obstacle(tc, b, NULL), WF_ERR_INVALID_ARG);
    wf_set_assert_hook(previous);
    // None of that queued anything or changed the count.
    assert_int_equal(tc->request_count, 3);
    assert_int_equal(wf_tilecache_obstacle_count(tc), 1);
    assert_int_equal(wf_tilecache_remove_obstacle(tc, b), WF_OK);
    assert_int_equal(wf_tilecache_obstacle_count(tc), 0);
    assert_int_equal(wf_tilecache_obstacle_count(NULL), 0);
    finish(tc, &c);
}

static void test_move(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tilecache* tc = make_cache(&c, 0, 0, GRID);
    wf_obstacle_desc d = cylinder(12.0f, 12.0f, 1.0f);
    wf_obstacle_id id;
    assert_int_equal(wf_tilecache_add_obstacle(tc, &d, &id), WF_OK);
    uint32_t slot = wf_id_index(id.bits);
    wf_obstacle_stamp before = tc->obstacles[slot].stamp;
    // Moved to another tile and made a box: same id, new desc and stamp.
    wf_obstacle_desc moved = box(30.0f, 20.0f, 1.0f, 2.0f);
    assert_int_equal(wf_tilecache_move_obstacle(tc, id, &moved), WF_OK);
    wf_obstacle_desc got;
    assert_int_equal(wf_tilecache_get_obstacle(tc, id, &got), WF_OK);
    assert_same_desc(&got, &moved);
    assert_int_equal(wf_tilecache_obstacle_count(tc), 1);
    assert_true(tc->obstacles[slot].stamp.bmin[0] == 28.5f);
    // One MOVE request with the bounds it left.
    assert_int_equal(tc->request_count, 2);
    const wf_obstacle_request* r = &tc->requests[(tc->request_head + 1) % tc->max_requests];
    assert_int_equal(r->kind, WF_REQUEST_MOVE);
    assert_int_equal(r->slot, slot);
    assert_memory_equal(r->old_bmin, before.bmin, sizeof r->old_bmin);
    assert_memory_equal(r->old_bmax, before.bmax, sizeof r->old_bmax);
    // An applied obstacle's move says so (update.c sets `applied`).
    tc->obstacles[slot].applied = true;
    assert_int_equal(wf_tilecache_move_obstacle(tc, id, &d), WF_OK);
    r = &tc->requests[(tc->request_head + 2) % tc->max_requests];
    assert_true(r->was_applied);
    assert_true(r->old_bmin[0] == 28.5f);
    assert_false(tc->obstacles[slot].applied);
    // Nowhere, or a bad desc: nothing changes.
    wf_obstacle_desc away = cylinder(500.0f, 12.0f, 1.0f);
    assert_int_equal(wf_tilecache_move_obstacle(tc, id, &away), WF_ERR_NOT_FOUND);
    wf_obstacle_desc bad = d;
    bad.radius = -1.0f;
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    assert_int_equal(wf_tilecache_move_obstacle(tc, id, &bad), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_tilecache_move_obstacle(tc, id, NULL), WF_ERR_INVALID_ARG);
    wf_set_assert_hook(previous);
    assert_int_equal(tc->request_count, 3);
    assert_int_equal(wf_tilecache_get_obstacle(tc, id, &got), WF_OK);
    assert_same_desc(&got, &d);
    assert_int_equal(wf_tilecache_obstacle_count(tc), 1);
    finish(tc, &c);
}

static void test_outside_every_tile(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    // Columns 24.. are walls: tiles x = 3..5 hold no layer.
    wf_tilecache* tc = make_cache(&c, 0, 0, 24);
    assert_int_equal(wf_tilecache_layer_count(tc), 18);
    unsigned long allocations = atomic_load(&c.allocations);
    wf_obstacle_id id = {12345};
    const wf_obstacle_desc outside[] = {
        cylinder(500.0f, 10.0f, 1.0f), cylinder(-20.0f, 10.0f, 1.0f),
        cylinder(10.0f, 1e30f, 1.0f),  cylinder(40.0f, 10.0f, 3.0f), // tiles without layers
        cylinder(-0.95f, 10.0f, 0.4f), // widened by 0.5, it still ends at -0.05
    };
    for (uint32_t i = 0; i < sizeof outside / sizeof outside[0]; ++i) {
        assert_int_equal(wf_tilecache_add_obstacle(tc, &outside[i], &id), WF_ERR_NOT_FOUND);
        assert_true(id.bits == 12345);
    }
    assert_int_equal(wf_tilecache_obstacle_count(tc), 0);
    assert_int_equal(tc->request_count, 0);
    // Reaching in: over the world's edge, across into a tile with a layer,
    // or touching it only through the agent radius.
    const wf_obstacle_desc inside[] = {
        cylinder(-3.0f, 10.0f, 4.0f),
        cylinder(27.0f, 10.0f, 3.5f),
        cylinder(-0.85f, 10.0f, 0.4f),
    };
    for (uint32_t i = 0; i < sizeof inside / sizeof inside[0]; ++i) {
        assert_int_equal(wf_tilecache_add_obstacle(tc, &inside[i], &id), WF_OK);
    }
    assert_int_equal(wf_tilecache_obstacle_count(tc), 3);
    assert_int_equal(atomic_load(&c.allocations), allocations);
    finish(tc, &c);
    // A cache with no build has no tile at all.
    counting_allocator_init(&c);
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = grid_params();
    d.allocator = counting_allocator_hooks(&c);
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    wf_obstacle_desc o = cylinder(1.0f, 1.0f, 1.0f);
    assert_int_equal(wf_tilecache_add_obstacle(tc, &o, &id), WF_ERR_NOT_FOUND);
    finish(tc, &c);
}

static void test_queue_full(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tilecache* tc = make_cache(&c, 0, 4, GRID);
    wf_obstacle_id ids[4];
    for (uint32_t i = 0; i < 4; ++i) {
        wf_obstacle_desc d = cylinder(4.0f + 8.0f * (float)i, 4.0f, 1.0f);
        assert_int_equal(wf_tilecache_add_obstacle(tc, &d, &ids[i]), WF_OK);
    }
    // No update ran: the fifth request has no room, and nothing is kept.
    wf_obstacle_desc d = cylinder(40.0f, 40.0f, 1.0f);
    wf_obstacle_id extra = {777};
    assert_int_equal(wf_tilecache_add_obstacle(tc, &d, &extra), WF_ERR_CAPACITY);
    assert_true(extra.bits == 777);
    assert_int_equal(wf_tilecache_obstacle_count(tc), 4);
    assert_int_equal(tc->obstacle_ids.live_count, 4);
    assert_int_equal(wf_tilecache_remove_obstacle(tc, ids[1]), WF_ERR_CAPACITY);
    assert_int_equal(wf_tilecache_move_obstacle(tc, ids[2], &d), WF_ERR_CAPACITY);
    wf_obstacle_desc got;
    assert_int_equal(wf_tilecache_get_obstacle(tc, ids[1], &got), WF_OK);
    assert_int_equal(wf_tilecache_get_obstacle(tc, ids[2], &got), WF_OK);
    assert_true(got.position.x == 20.0f);
    assert_int_equal(tc->request_count, 4);
    assert_int_equal(wf_tilecache_obstacle_count(tc), 4);
    finish(tc, &c);
}

static void test_request_ring(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tilecache* tc = make_cache(&c, 2, 4, GRID);
    // As if an update had taken 3 requests: the ring continues at 3, 0, 1.
    tc->request_head = 3;
    wf_obstacle_desc d = cylinder(4.0f, 4.0f, 1.0f);
    wf_obstacle_desc e = cylinder(20.0f, 20.0f, 1.0f);
    wf_obstacle_id a, b;
    assert_int_equal(wf_tilecache_add_obstacle(tc, &d, &a), WF_OK);
    assert_int_equal(wf_tilecache_remove_obstacle(tc, a), WF_OK);
    // With 2 slots the pool reuses a's slot only after the other one.
    wf_obstacle_id first;
    assert_int_equal(wf_tilecache_add_obstacle(tc, &d, &first), WF_OK);
    assert_int_equal(wf_tilecache_add_obstacle(tc, &e, &b), WF_OK);
    assert_int_equal(wf_id_index(b.bits), wf_id_index(a.bits));
    assert_true(b.bits != a.bits);
    assert_int_equal(tc->request_count, 4);
    const uint8_t kinds[4] = {WF_REQUEST_ADD, WF_REQUEST_REMOVE, WF_REQUEST_ADD, WF_REQUEST_ADD};
    const uint32_t ring[4] = {3, 0, 1, 2};
    for (uint32_t i = 0; i < 4; ++i) {
        assert_int_equal(tc->requests[ring[i]].kind, kinds[i]);
    }
    // a's slot now holds b, yet the queued REMOVE still knows a's bounds.
    const wf_obstacle_request* r = &tc->requests[0];
    assert_int_equal(r->slot, wf_id_index(a.bits));
    assert_true(r->old_bmin[0] == 2.5f && r->old_bmax[2] == 5.5f);
    assert_false(r->was_applied);
    const wf_obstacle_record* rec = &tc->obstacles[r->slot];
    assert_int_equal(rec->state, WF_OBSTACLE_LIVE);
    assert_true(rec->stamp.bmin[0] == 18.5f);
    assert_true(rec->desc.position.x == 20.0f);
    // An applied obstacle's removal says so.
    tc->obstacles[wf_id_index(first.bits)].applied = true;
    tc->request_count = 3; // as if the update took one more
    tc->request_head = 0;
    assert_int_equal(wf_tilecache_remove_obstacle(tc, first), WF_OK);
    assert_true(tc->requests[3].was_applied);
    assert_int_equal(tc->requests[3].kind, WF_REQUEST_REMOVE);
    assert_false(tc->obstacles[wf_id_index(first.bits)].applied);
    finish(tc, &c);
}

static void test_max_obstacles(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tilecache* tc = make_cache(&c, 3, 0, GRID);
    wf_obstacle_id ids[3];
    for (uint32_t i = 0; i < 3; ++i) {
        wf_obstacle_desc d = cylinder(4.0f + 8.0f * (float)i, 4.0f, 1.0f);
        assert_int_equal(wf_tilecache_add_obstacle(tc, &d, &ids[i]), WF_OK);
    }
    wf_obstacle_desc d = cylinder(40.0f, 40.0f, 1.0f);
    wf_obstacle_id extra = {777};
    assert_int_equal(wf_tilecache_add_obstacle(tc, &d, &extra), WF_ERR_CAPACITY);
    assert_true(extra.bits == 777);
    assert_int_equal(wf_tilecache_obstacle_count(tc), 3);
    assert_int_equal(tc->request_count, 3);
    // A removal frees a place at once.
    assert_int_equal(wf_tilecache_remove_obstacle(tc, ids[0]), WF_OK);
    assert_int_equal(wf_tilecache_add_obstacle(tc, &d, &extra), WF_OK);
    assert_int_equal(wf_tilecache_obstacle_count(tc), 3);
    assert_int_equal(wf_id_index(extra.bits), wf_id_index(ids[0].bits));
    wf_obstacle_desc got;
    assert_int_equal(wf_tilecache_get_obstacle(tc, ids[0], &got), WF_ERR_STALE_REF);
    assert_int_equal(wf_tilecache_get_obstacle(tc, extra, &got), WF_OK);
    assert_true(got.position.x == 40.0f);
    finish(tc, &c);
}

static void test_bad_descs(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tilecache* tc = make_cache(&c, 0, 0, GRID);
    wf_obstacle_desc bad[8];
    bad[0] = cylinder(10.0f, 10.0f, NAN);
    bad[1] = cylinder(10.0f, 10.0f, -1.0f);
    bad[2] = cylinder(NAN, 10.0f, 1.0f);
    bad[3] = box(10.0f, 10.0f, -2.0f, 1.0f);
    bad[4] = box(10.0f, 10.0f, 2.0f, NAN);
    bad[5] = box(10.0f, 10.0f, 2.0f, 1.0f);
    bad[5].shape = WF_OBSTACLE_ORIENTED_BOX;
    bad[5].yaw = INFINITY;
    bad[6] = cylinder(10.0f, 10.0f, 1.0f);
    bad[6].height = 0.0f;
    memset(&bad[7], 0, sizeof bad[7]);
    bad[7].shape = WF_OBSTACLE_PRISM; // no outline
    bad[7].height = 1.0f;
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    wf_obstacle_id id = {99};
    for (uint32_t i = 0; i < 8; ++i) {
        assert_int_equal(wf_tilecache_add_obstacle(tc, &bad[i], &id), WF_ERR_INVALID_ARG);
    }
    wf_obstacle_desc good = cylinder(10.0f, 10.0f, 1.0f);
    assert_int_equal(wf_tilecache_add_obstacle(tc, NULL, &id), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_tilecache_add_obstacle(tc, &good, NULL), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_tilecache_add_obstacle(NULL, &good, &id), WF_ERR_INVALID_ARG);
    wf_set_assert_hook(previous);
    assert_true(id.bits == 99);
    assert_int_equal(wf_tilecache_obstacle_count(tc), 0);
    assert_int_equal(tc->request_count, 0);
    finish(tc, &c);
}

static void test_huge_obstacle(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tilecache* tc = make_cache(&c, 0, 0, GRID);
    // A 40 x 40 m building from (4, 4) to (44, 44), widened to 3.5 .. 44.5:
    // every one of the 6 x 6 tiles.
    wf_obstacle_desc d = box(24.0f, 24.0f, 20.0f, 20.0f);
    wf_obstacle_id id;
    assert_int_equal(wf_tilecache_add_obstacle(tc, &d, &id), WF_OK);
    assert_int_equal(wf_tilecache_obstacle_count(tc), 1);
    const wf_obstacle_stamp* s = &tc->obstacles[wf_id_index(id.bits)].stamp;
    int32_t x0, z0, x1, z1;
    assert_true(wf_tilecache_tile_range(tc, s->bmin, s->bmax, &x0, &z0, &x1, &z1));
    assert_int_equal(x0, 0);
    assert_int_equal(z0, 0);
    assert_int_equal(x1, 5);
    assert_int_equal(z1, 5);
    uint32_t layers = 0;
    for (int32_t z = z0; z <= z1; ++z) {
        uint32_t first, end;
        wf_tilecache_row_entries(tc, z, x0, x1, &first, &end);
        assert_int_equal(end - first, 6);
        for (uint32_t e = first; e < end; ++e) {
            assert_int_equal(tc->entries[e].info.tile_z, z);
            layers += wf_tilecache_bounds_touch_layer(&tc->entries[e], s->bmin, s->bmax);
        }
    }
    assert_int_equal(layers, 36);
    // Moving it half off the world keeps it (it still covers tiles).
    d.position.x = 50.0f;
    assert_int_equal(wf_tilecache_move_obstacle(tc, id, &d), WF_OK);
    assert_int_equal(wf_tilecache_remove_obstacle(tc, id), WF_OK);
    assert_int_equal(wf_tilecache_obstacle_count(tc), 0);
    finish(tc, &c);
}

static void test_bounds_helpers(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tilecache* tc = make_cache(&c, 0, 0, 24);
    // Tiles are 8 m: x 9..17 spans tiles 1 and 2; z -5..3 is tile 0.
    float bmin[3] = {9.0f, -1.0f, -5.0f}, bmax[3] = {17.0f, 1.0f, 3.0f};
    int32_t x0, z0, x1, z1;
    assert_true(wf_tilecache_tile_range(tc, bmin, bmax, &x0, &z0, &x1, &z1));
    assert_true(x0 == 1 && x1 == 2 && z0 == 0 && z1 == 0);
    uint32_t first, end;
    wf_tilecache_row_entries(tc, 0, x0, x1, &first, &end);
    // Rows hold the 3 walkable tiles x = 0..2: entries 1 and 2 of row 0.
    assert_int_equal(first, 1);
    assert_int_equal(end, 3);
    // Tiles x = 3..5 hold no layer; a row past them is empty.
    wf_tilecache_row_entries(tc, 2, 3, 5, &first, &end);
    assert_int_equal(first, end);
    bmin[0] = 25.0f;
    bmax[0] = 47.0f;
    assert_true(wf_tilecache_tile_range(tc, bmin, bmax, &x0, &z0, &x1, &z1));
    assert_false(wf_tilecache_bounds_touch_tiles(tc, bmin, bmax));
    bmin[0] = 23.0f;
    assert_true(wf_tilecache_bounds_touch_tiles(tc, bmin, bmax));
    // Beyond the grid on any side: no range.
    float far_min[3] = {-100.0f, 0.0f, 0.0f}, far_max[3] = {-1.0f, 0.0f, 1.0f};
    assert_false(wf_tilecache_tile_range(tc, far_min, far_max, &x0, &z0, &x1, &z1));
    far_min[0] = 0.0f;
    far_max[0] = 1.0f;
    far_min[2] = 48.5f;
    far_max[2] = 3e38f;
    assert_false(wf_tilecache_tile_range(tc, far_min, far_max, &x0, &z0, &x1, &z1));
    // A layer's floors are at y = 0: a stamp from 0.1 up misses it, one
    // reaching down to 0 touches it.
    const wf_tilecache_entry* entry = &tc->entries[0];
    float lo[3] = {1.0f, 0.1f, 1.0f}, hi[3] = {2.0f, 3.0f, 2.0f};
    assert_false(wf_tilecache_bounds_touch_layer(entry, lo, hi));
    lo[1] = 0.0f;
    assert_true(wf_tilecache_bounds_touch_layer(entry, lo, hi));
    lo[0] = 8.5f; // tile 1's
    hi[0] = 9.0f;
    assert_false(wf_tilecache_bounds_touch_layer(entry, lo, hi));
    finish(tc, &c);
}

/// Only the layer's cells count: the grid is walkable up to x = 20, so tile
/// 2 (x 16..24) holds cells up to x 20 at most, and a stamp over x 21..23,
/// inside the tile but beyond its cells, neither marks nor rebuilds it.
static void test_layer_cells_bounds(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tilecache* tc = make_cache(&c, 4, 4, 20);
    const wf_tilecache_entry* entry = NULL;
    for (uint32_t i = 0; i < tc->entry_count; ++i) {
        if (tc->entries[i].info.tile_x == 2 && tc->entries[i].info.tile_z == 0) {
            entry = &tc->entries[i];
        }
    }
    assert_non_null(entry);
    assert_true(entry->cells_min[0] >= entry->info.bmin.x);
    assert_true(entry->cells_max[0] <= 20.0f);
    assert_true(entry->cells_min[1] >= entry->info.bmin.z);
    assert_true(entry->cells_max[1] <= entry->info.bmax.z);
    float lo[3] = {21.0f, -1.0f, 1.0f}, hi[3] = {23.0f, 3.0f, 2.0f};
    assert_false(wf_tilecache_bounds_touch_layer(entry, lo, hi));
    lo[0] = 19.0f;
    assert_true(wf_tilecache_bounds_touch_layer(entry, lo, hi));
    // Through an update: a box there rebuilds no layer.
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    assert_true(wf_succeeded(wf_tilecache_build_navmesh(tc, mesh)));
    wf_obstacle_desc d = box(22.0f, 4.0f, 0.5f, 0.5f);
    wf_obstacle_id id;
    assert_int_equal(wf_tilecache_add_obstacle(tc, &d, &id), WF_OK);
    wf_tilecache_budget budget = {0};
    wf_tilecache_update_result r;
    assert_int_equal(wf_tilecache_update(tc, mesh, &budget, &r), WF_OK);
    assert_true(r.up_to_date);
    assert_int_equal(r.tiles_committed, 0);
    wf_mesh_destroy(mesh);
    finish(tc, &c);
}

static void test_no_allocation(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_tilecache* tc = make_cache(&c, 16, 12, GRID);
    unsigned long allocations = atomic_load(&c.allocations);
    unsigned long frees = atomic_load(&c.frees);
    // Add, move and remove through slot reuse and queue wrap-around (the
    // queue is emptied by hand between rounds, as an update would).
    for (uint32_t round = 0; round < 50; ++round) {
        wf_obstacle_id ids[4];
        for (uint32_t i = 0; i < 4; ++i) {
            wf_obstacle_desc d = cylinder(2.0f + (float)((round * 7 + i * 11) % 44), 6.0f, 1.0f);
            assert_int_equal(wf_tilecache_add_obstacle(tc, &d, &ids[i]), WF_OK);
        }
        wf_obstacle_desc m = box(20.0f, 20.0f, 1.0f, 1.0f);
        assert_int_equal(wf_tilecache_move_obstacle(tc, ids[1], &m), WF_OK);
        for (uint32_t i = 0; i < 4; ++i) {
            assert_int_equal(wf_tilecache_remove_obstacle(tc, ids[i]), WF_OK);
        }
        assert_int_equal(tc->request_count, 9);
        tc->request_head = (tc->request_head + 9) % tc->max_requests;
        tc->request_count = 0;
    }
    assert_int_equal(wf_tilecache_obstacle_count(tc), 0);
    assert_int_equal(atomic_load(&c.allocations), allocations);
    assert_int_equal(atomic_load(&c.frees), frees);
    finish(tc, &c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_get_count),
        cmocka_unit_test(test_remove),
        cmocka_unit_test(test_move),
        cmocka_unit_test(test_outside_every_tile),
        cmocka_unit_test(test_queue_full),
        cmocka_unit_test(test_request_ring),
        cmocka_unit_test(test_max_obstacles),
        cmocka_unit_test(test_bad_descs),
        cmocka_unit_test(test_huge_obstacle),
        cmocka_unit_test(test_bounds_helpers),
        cmocka_unit_test(test_layer_cells_bounds),
        cmocka_unit_test(test_no_allocation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
