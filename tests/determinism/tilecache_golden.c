// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Golden hash of tile cache rebuilds: the demo level's cache and navmesh,
// then rounds of obstacles (every shape, carved and painted, through every
// floor of the building, across doors) added, moved and removed, each
// round rebuilt up to date a few tiles per update; hashed are the tiles
// each update committed and the whole navmesh (every tile's blob and
// state) after the build and after each round, on 1, 2 and 4 workers.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "golden.h"
#include "tools/demo_level.h"
#include "wayfarer/jobs.h"
#include "wayfarer/rng.h"
#include "wayfarer/tilecache.h"

// If you change behaviour on purpose (level, rasterization, layers,
// obstacles, the tile build), update this hash in the same commit and say
// why in the commit message (docs/reliability.md, "Golden hashes"); the
// test prints the new value.
// Re-pinned: tile blobs' run-time sections hold the links' portal records
// (28 bytes per link, search3): blob sizes grew, no tile content changed.
// Re-pinned: tile blob version 2 (the header's version is hashed).
#define EXPECTED_HASH 0x64a914d9003e46b6ull

#define LEVEL_SEED 7u
#define COMMITS_PER_UPDATE 3u
#define OBSTACLES 24u

/// Obstacle `n` of the rounds: shapes in turn, at random places of the
/// level (some over the building, so on several floors at once). Each
/// random draw is its own statement: the order in which a call's arguments
/// are evaluated is unspecified (GCC and clang differ), and it would move
/// the hash.
static wf_obstacle_desc obstacle(const demo_level* level, wf_rng* rng, uint32_t n) {
    wf_obstacle_desc od;
    memset(&od, 0, sizeof od);
    float x = wf_rng_range(rng, level->bmin.x + 2.0f, level->bmax.x - 2.0f);
    float z = wf_rng_range(rng, level->bmin.z + 2.0f, level->bmax.z - 2.0f);
    float a = wf_rng_range(rng, 0.5f, 4.0f);
    float b = wf_rng_range(rng, 0.3f, 1.0f);
    od.position = wf_v3(x, -0.5f, z);
    switch (n % 6u) {
    case 0:
        od.shape = WF_OBSTACLE_CYLINDER;
        od.radius = a * 0.75f;
        od.height = 14.0f; // through every floor
        break;
    case 1:
        od.shape = WF_OBSTACLE_BOX;
        od.position.y = 1.0f;
        od.half_extents = wf_v3(a, 1.5f, 4.0f * b);
        break;
    case 2:
        od.shape = WF_OBSTACLE_ORIENTED_BOX;
        od.position.y = 5.0f;
        od.half_extents = wf_v3(a * 1.25f, 6.0f, b);
        od.yaw = (b - 0.65f) * 8.0f;
        break;
    case 3:
        od.shape = WF_OBSTACLE_PRISM;
        od.height = 10.0f;
        od.vert_count = 5;
        for (uint32_t k = 0; k < 5; ++k) { // a convex pentagon
            static const float c[5][2] = {
                {1.0f, 0.0f}, {0.31f, 0.95f}, {-0.81f, 0.59f}, {-0.81f, -0.59f}, {0.31f, -0.95f}};
            od.verts[k] = wf_v3(x + 2.0f * c[k][0], 0.0f, z + 2.0f * c[k][1]);
        }
        break;
    case 4: {
        const demo_door* d = &level->doors[n % level->door_count]; // a door shut
        od.shape = d->yaw != 0.0f ? WF_OBSTACLE_ORIENTED_BOX : WF_OBSTACLE_BOX;
        od.position = d->center;
        od.half_extents = d->half_extents;
        od.yaw = d->yaw;
        break;
    }
    default:
        od.shape = WF_OBSTACLE_CYLINDER; // mud: painted
        od.paint = true;
        od.area = (uint8_t)(1u + n % 8u);
        od.radius = 1.0f + a;
        od.height = 14.0f;
        break;
    }
    return od;
}

/// Updates until every request is applied and every tile committed, a few
/// tiles per call with no time limit; hashes each call's committed tiles
/// and then the whole mesh.
static uint64_t rebuild(wf_tilecache* tc, wf_mesh* mesh, uint64_t h) {
    const wf_tilecache_budget budget = {.max_time_us = 0, .max_commits = COMMITS_PER_UPDATE};
    for (uint32_t calls = 0;; ++calls) {
        assert_true(calls < 10000u);
        wf_tilecache_update_result r;
        assert_int_equal(wf_tilecache_update(tc, mesh, &budget, &r), WF_OK);
        h = golden_u32(h, r.tiles_committed);
        for (uint32_t i = 0; i < r.changed_count; ++i) {
            const wf_tilecache_changed_tile* c = &r.changed[i];
            int32_t where[3] = {c->tile_x, c->tile_z, c->layer};
            h = golden_fnv(h, where, sizeof where);
            h = golden_fnv(h, &c->old_tile.bits, sizeof c->old_tile.bits);
            h = golden_fnv(h, &c->new_tile.bits, sizeof c->new_tile.bits);
        }
        if (r.up_to_date) {
            break;
        }
    }
    return golden_mesh(h, mesh);
}

static uint64_t run(uint32_t workers) {
    static demo_level level;
    assert_int_equal(demo_level_generate(LEVEL_SEED, &level), 0);
    wf_thread_pool* pool = NULL;
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = wf_tilecache_params_recast_demo();
    d.max_obstacles = 2u * OBSTACLES;
    d.max_pending_requests = 4u * OBSTACLES;
    d.logger.quiet = true;
    if (workers > 1) {
        wf_thread_pool_desc pd = {0};
        pd.thread_count = workers - 1u;
        assert_int_equal(wf_thread_pool_create(&pd, &pool), WF_OK);
        d.jobs = wf_thread_pool_job_system(pool);
    }
    wf_tilecache* tc = NULL;
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    assert_int_equal(wf_tilecache_build_geom(tc, demo_level_geom(&level), NULL, 0), WF_OK);
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    assert_int_equal(wf_tilecache_build_navmesh(tc, mesh), WF_OK);
    uint64_t h = golden_mesh(GOLDEN_FNV_START, mesh);

    // Round 1: every obstacle added.
    wf_rng rng = wf_rng_make(LEVEL_SEED, 5u);
    wf_obstacle_id ids[OBSTACLES];
    for (uint32_t n = 0; n < OBSTACLES; ++n) {
        wf_obstacle_desc od = obstacle(&level, &rng, n);
        assert_int_equal(wf_tilecache_add_obstacle(tc, &od, &ids[n]), WF_OK);
    }
    h = rebuild(tc, mesh, h);
    // Round 2: a third removed, a third moved.
    for (uint32_t n = 0; n < OBSTACLES; ++n) {
        if (n % 3u == 0u) {
            assert_int_equal(wf_tilecache_remove_obstacle(tc, ids[n]), WF_OK);
            ids[n].bits = 0;
        } else if (n % 3u == 1u) {
            wf_obstacle_desc od = obstacle(&level, &rng, n + 1u);
            assert_int_equal(wf_tilecache_move_obstacle(tc, ids[n], &od), WF_OK);
        }
    }
    h = rebuild(tc, mesh, h);
    // Round 3: the rest removed: the level as built, in new tiles.
    for (uint32_t n = 0; n < OBSTACLES; ++n) {
        if (ids[n].bits != 0) {
            assert_int_equal(wf_tilecache_remove_obstacle(tc, ids[n]), WF_OK);
        }
    }
    h = rebuild(tc, mesh, h);

    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(tc);
    wf_thread_pool_destroy(pool);
    demo_level_free(&level);
    return h;
}

static void test_rebuilds_match_golden_hash(void** state) {
    (void)state;
    uint64_t first = 0;
    assert_true(golden_same_for_workers(run, &first));
    assert_true(golden_matches("tile cache", first, EXPECTED_HASH));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rebuilds_match_golden_hash),
    };
    return golden_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
