// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Agent classes in one world: each class's navmesh is built for its size,
// agent ids name their class, world obstacles reach every class within one
// shared tile budget, classes avoid each other (the same for any worker
// count), save/restore carries every class, the multi-class cache file
// round-trips, and bad class descs are refused with the world untouched.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../crowd/crowd_test_util.h"
#include "test_hooks.h"
#include "test_level.h"
#include "wayfarer/world.h"

#define DT (1.0f / 30.0f)
#define SOLDIER 0u
#define TANK 1u

static test_level g_level;

static const wf_world_class_desc g_classes[2] = {
    {.name = "soldier", .agent_radius = 0.4f, .agent_height = 1.8f, .max_agents = 40},
    {.name = "tank",
     .agent_radius = 1.2f,
     .agent_height = 2.5f,
     .agent_climb = 0.3f,
     .max_agents = 8},
};

static wf_world_desc classes_desc(const wf_geom* g, uint32_t workers) {
    wf_world_desc d;
    memset(&d, 0, sizeof d);
    d.geom = g;
    d.worker_count = workers;
    d.classes = g_classes;
    d.class_count = 2;
    d.logger.quiet = true;
    return d;
}

static wf_world* make_world(uint32_t workers) {
    wf_geom g = test_level_make(&g_level, 36.0f, true);
    wf_world_desc d = classes_desc(&g, workers);
    wf_world* w = NULL;
    assert_int_equal(wf_world_create(&d, &w), WF_OK);
    return w;
}

static void step(wf_world* w, uint32_t frames) {
    for (uint32_t f = 0; f < frames; ++f) {
        assert_int_equal(wf_world_step(w, DT, NULL, NULL), WF_OK);
    }
}

static void test_each_class_has_its_navmesh(void** state) {
    (void)state;
    wf_world* w = make_world(1);
    assert_int_equal(wf_world_class_count(w), 2);
    wf_world_class_info soldier, tank;
    assert_int_equal(wf_world_get_class(w, SOLDIER, &soldier), WF_OK);
    assert_int_equal(wf_world_get_class(w, TANK, &tank), WF_OK);
    assert_string_equal(soldier.name, "soldier");
    assert_string_equal(tank.name, "tank");
    assert_true(soldier.agent_radius == 0.4f && tank.agent_radius == 1.2f);
    assert_true(tank.agent_height == 2.5f && tank.agent_climb == 0.3f);
    assert_true(soldier.max_agents == 40 && tank.max_agents == 8);
    assert_true(tank.max_agent_radius == 1.2f);
    assert_true(soldier.tilecache_bytes > 0 && tank.mesh_bytes > 0 && tank.crowd_bytes > 0);
    // Eroded by a wider radius, the tank's ground is smaller.
    uint64_t soldier_cells =
        wf_tilecache_get_stats(wf_world_class_tilecache(w, SOLDIER)).walkable_cells;
    uint64_t tank_cells = wf_tilecache_get_stats(wf_world_class_tilecache(w, TANK)).walkable_cells;
    assert_true(tank_cells < soldier_cells);
    assert_true(wf_world_crowd(w) == wf_world_class_crowd(w, 0));
    assert_true(wf_world_tilecache(w) == wf_world_class_tilecache(w, 0));
    assert_true(wf_world_mesh(w) == wf_world_class_mesh(w, 0));
    assert_null(wf_world_class_crowd(w, 2));
    uint32_t index = 9;
    assert_int_equal(wf_world_find_class(w, "tank", &index), WF_OK);
    assert_int_equal(index, TANK);
    assert_int_equal(wf_world_find_class(w, "horse", &index), WF_ERR_NOT_FOUND);
    assert_int_equal(index, TANK);
    assert_int_equal(wf_world_get_class(w, 2, &tank), WF_ERR_NOT_FOUND);
    // Memory counts every class.
    size_t parts = 0;
    for (uint32_t c = 0; c < 2; ++c) {
        wf_world_class_info info;
        assert_int_equal(wf_world_get_class(w, c, &info), WF_OK);
        parts += info.tilecache_bytes + info.mesh_bytes + info.crowd_bytes;
    }
    assert_true(wf_world_get_stats(w).memory_bytes > parts);
    wf_world_destroy(w);
}

static void test_agent_ids_name_their_class(void** state) {
    (void)state;
    wf_world* w = make_world(1);
    wf_agent_id s, t;
    assert_int_equal(wf_world_add_agent(w, SOLDIER, wf_v3(3, 0, 3), NULL, &s), WF_OK);
    assert_int_equal(wf_world_add_agent(w, TANK, wf_v3(3, 0, 3), NULL, &t), WF_OK);
    uint32_t c = 9;
    assert_int_equal(wf_world_get_agent_class(w, s, &c), WF_OK);
    assert_int_equal(c, SOLDIER);
    assert_int_equal(wf_world_get_agent_class(w, t, &c), WF_OK);
    assert_int_equal(c, TANK);
    assert_true(wf_world_agent_crowd(w, t) == wf_world_class_crowd(w, TANK));
    // The slot numbers match, the ids do not: each crowd refuses the other's.
    assert_true(s.bits != t.bits);
    wf_agent_state st;
    assert_int_equal(wf_crowd_get_agent(wf_world_class_crowd(w, SOLDIER), t, &st),
                     WF_ERR_STALE_REF);
    assert_int_equal(wf_crowd_get_agent(wf_world_class_crowd(w, TANK), s, &st), WF_ERR_STALE_REF);
    // Defaults sized for the class.
    assert_int_equal(wf_crowd_get_agent(wf_world_class_crowd(w, TANK), t, &st), WF_OK);
    assert_true(st.params.radius == 1.2f && st.params.height == 2.5f);
    // A tank-sized agent does not fit the soldiers' crowd.
    assert_int_equal(wf_world_add_agent(w, SOLDIER, wf_v3(3, 0, 3), &st.params, &s),
                     WF_ERR_INVALID_ARG);
    // No such class: nothing added.
    uint32_t before = wf_crowd_agent_count(wf_world_class_crowd(w, SOLDIER));
    assert_int_equal(wf_world_add_agent(w, 2, wf_v3(3, 0, 3), NULL, &s), WF_ERR_NOT_FOUND);
    assert_int_equal(wf_crowd_agent_count(wf_world_class_crowd(w, SOLDIER)), before);
    // An id naming a class beyond the world's, and a removed one.
    wf_agent_id foreign = {t.bits + ((uint64_t)5u << 24)};
    assert_int_equal(wf_world_get_agent_class(w, foreign, &c), WF_ERR_NOT_FOUND);
    assert_int_equal(wf_crowd_remove_agent(wf_world_class_crowd(w, TANK), t), WF_OK);
    assert_int_equal(wf_world_get_agent_class(w, t, &c), WF_ERR_STALE_REF);
    assert_null(wf_world_agent_crowd(w, t));
    wf_world_destroy(w);
}

static void test_obstacles_reach_every_class(void** state) {
    (void)state;
    wf_world* w = make_world(1);
    wf_obstacle_desc od = {.shape = WF_OBSTACLE_CYLINDER, .radius = 1.0f, .height = 2.0f};
    od.position = wf_v3(12, 0, 24);
    wf_obstacle_id id;
    assert_int_equal(wf_world_add_obstacle(w, &od, &id), WF_OK);
    assert_int_equal(wf_world_obstacle_count(w), 1);
    for (uint32_t c = 0; c < 2; ++c) {
        assert_int_equal(wf_tilecache_obstacle_count(wf_world_class_tilecache(w, c)), 1);
    }
    // One commit per step for all classes together; every class gets its
    // turn (the first class turns with the frame).
    wf_world_budget one = {.tile_time_us = 0, .tile_commits = 1};
    uint32_t committed[2] = {0, 0};
    for (int f = 0; f < 12; ++f) {
        wf_world_report rep;
        assert_int_equal(wf_world_step(w, DT, &one, &rep), WF_OK);
        assert_int_equal(rep.class_count, 2);
        uint32_t total = 0;
        for (uint32_t c = 0; c < 2; ++c) {
            committed[c] += rep.classes[c].tiles.tiles_committed;
            total += rep.classes[c].tiles.tiles_committed;
        }
        assert_true(total <= 1);
        assert_true(rep.tiles.tiles_committed == rep.classes[0].tiles.tiles_committed);
    }
    assert_true(committed[0] > 0 && committed[1] > 0);
    wf_obstacle_desc got;
    assert_int_equal(wf_world_get_obstacle(w, id, &got), WF_OK);
    assert_true(got.radius == 1.0f && got.position.x == 12.0f);
    od.position = wf_v3(24, 0, 12);
    assert_int_equal(wf_world_move_obstacle(w, id, &od), WF_OK);
    assert_int_equal(wf_world_get_obstacle(w, id, &got), WF_OK);
    assert_true(got.position.x == 24.0f);
    // Off every class's tiles: refused, nothing moved.
    wf_obstacle_desc far = od;
    far.position = wf_v3(500, 0, 500);
    assert_int_equal(wf_world_move_obstacle(w, id, &far), WF_ERR_NOT_FOUND);
    assert_int_equal(wf_world_add_obstacle(w, &far, &id), WF_ERR_NOT_FOUND);
    assert_int_equal(wf_world_get_obstacle(w, id, &got), WF_OK);
    assert_true(got.position.x == 24.0f);
    assert_int_equal(wf_world_remove_obstacle(w, id), WF_OK);
    assert_int_equal(wf_world_remove_obstacle(w, id), WF_ERR_STALE_REF);
    assert_int_equal(wf_world_obstacle_count(w), 0);
    for (uint32_t c = 0; c < 2; ++c) {
        assert_int_equal(wf_tilecache_obstacle_count(wf_world_class_tilecache(w, c)), 0);
    }
    wf_world_destroy(w);
}

/// A full request queue in one class refuses the world's add for all.
static void test_obstacle_calls_are_all_or_nothing(void** state) {
    (void)state;
    wf_geom g = test_level_make(&g_level, 36.0f, true);
    wf_world_desc d = classes_desc(&g, 1);
    d.max_pending_requests = 3;
    wf_world* w = NULL;
    assert_int_equal(wf_world_create(&d, &w), WF_OK);
    wf_obstacle_desc od = {.shape = WF_OBSTACLE_CYLINDER, .radius = 1.0f, .height = 2.0f};
    od.position = wf_v3(12, 0, 24);
    wf_obstacle_id ids[3];
    assert_int_equal(wf_world_add_obstacle(w, &od, &ids[0]), WF_OK);
    // Fill class 1's queue behind the world's back: the next add fits class
    // 0 but not class 1, so neither gets it.
    wf_obstacle_id own;
    assert_int_equal(wf_tilecache_add_obstacle(wf_world_class_tilecache(w, TANK), &od, &own),
                     WF_OK);
    assert_int_equal(wf_tilecache_add_obstacle(wf_world_class_tilecache(w, TANK), &od, &own),
                     WF_OK);
    assert_int_equal(wf_world_add_obstacle(w, &od, &ids[1]), WF_ERR_CAPACITY);
    assert_int_equal(wf_world_obstacle_count(w), 1);
    assert_int_equal(wf_tilecache_obstacle_count(wf_world_class_tilecache(w, SOLDIER)), 1);
    assert_int_equal(wf_world_remove_obstacle(w, ids[0]), WF_ERR_CAPACITY);
    assert_int_equal(wf_world_move_obstacle(w, ids[0], &od), WF_ERR_CAPACITY);
    step(w, 1); // applies the queues
    assert_int_equal(wf_world_add_obstacle(w, &od, &ids[1]), WF_OK);
    assert_int_equal(wf_world_remove_obstacle(w, ids[0]), WF_OK);
    // Bad shapes are refused before any class takes them.
    wf_obstacle_desc bad = od;
    bad.radius = NAN;
    assert_int_equal(wf_world_add_obstacle(w, &bad, &ids[2]), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_world_obstacle_count(w), 1);
    wf_world_destroy(w);
}

/// The smallest centre distance between a soldier and a tank during a
/// walk of the soldier straight through the tank's spot.
static float closest_approach(uint32_t workers, uint64_t* out_hash) {
    wf_world* w = make_world(workers);
    wf_agent_id s, t;
    assert_int_equal(wf_world_add_agent(w, SOLDIER, wf_v3(3, 0, 30), NULL, &s), WF_OK);
    assert_int_equal(wf_world_add_agent(w, TANK, wf_v3(10, 0, 30), NULL, &t), WF_OK);
    assert_int_equal(
        wf_crowd_request_move(wf_world_agent_crowd(w, s), s, wf_v3(16, 0, 30), NULL, NULL), WF_OK);
    // A few more soldiers walking the other way, so avoidance has work.
    for (uint32_t i = 0; i < 6; ++i) {
        wf_agent_id o;
        assert_int_equal(wf_world_add_agent(w, SOLDIER, wf_v3(15, 0, 27.0f + (float)i), NULL, &o),
                         WF_OK);
        assert_int_equal(wf_crowd_request_move(wf_world_agent_crowd(w, o), o,
                                               wf_v3(2, 0, 27.0f + (float)i), NULL, NULL),
                         WF_OK);
    }
    float closest = 1e9f;
    for (int f = 0; f < 240; ++f) {
        assert_int_equal(wf_world_step(w, DT, NULL, NULL), WF_OK);
        wf_agent_state a = crowd_test_state(wf_world_class_crowd(w, SOLDIER), s);
        wf_agent_state b = crowd_test_state(wf_world_class_crowd(w, TANK), t);
        float dx = a.position.x - b.position.x, dz = a.position.z - b.position.z;
        float dist = sqrtf(dx * dx + dz * dz);
        closest = dist < closest ? dist : closest;
    }
    // The soldier got past the tank, around it.
    assert_true(crowd_test_state(wf_world_class_crowd(w, SOLDIER), s).position.x > 13.0f);
    *out_hash = crowd_test_hash(wf_world_class_crowd(w, SOLDIER)) ^
                (crowd_test_hash(wf_world_class_crowd(w, TANK)) * 31u);
    wf_world_destroy(w);
    return closest;
}

static void test_classes_avoid_each_other(void** state) {
    (void)state;
    uint64_t h1, h2, h3;
    float closest = closest_approach(1, &h1);
    // The tank's circle is 1.2 m, the soldier's 0.4 m: they touch at 1.6.
    assert_true(closest > 1.6f * 0.9f);
    assert_true(closest_approach(2, &h2) == closest);
    assert_true(closest_approach(3, &h3) == closest);
    assert_true(h1 == h2 && h1 == h3);
}

/// Agents of both classes walking about, a world obstacle coming and going.
static void run(wf_world* w, uint32_t from, uint32_t frames, wf_obstacle_id* crate) {
    for (uint32_t f = from; f < from + frames; ++f) {
        if (f % 30u == 5u) {
            if (crate->bits != 0) {
                assert_int_equal(wf_world_remove_obstacle(w, *crate), WF_OK);
                crate->bits = 0;
            } else {
                wf_obstacle_desc od = {.shape = WF_OBSTACLE_BOX,
                                       .half_extents = {1.0f, 1.0f, 1.0f}};
                od.position = wf_v3(12.0f + (float)(f % 7u), 0.0f, 24.0f);
                assert_int_equal(wf_world_add_obstacle(w, &od, crate), WF_OK);
            }
        }
        wf_world_budget b = {.tile_commits = 2};
        assert_int_equal(wf_world_step(w, DT, &b, NULL), WF_OK);
    }
}

static void populate(wf_world* w) {
    for (uint32_t i = 0; i < 12; ++i) {
        uint32_t c = i % 4u == 0 ? TANK : SOLDIER;
        wf_vec3 from = wf_v3(3.0f + (float)(i % 3u) * 3.0f, 0, 3.0f + (float)i * 2.5f);
        wf_vec3 to = wf_v3(32.0f - (float)(i % 3u) * 3.0f, 0, 33.0f - (float)i * 2.5f);
        wf_agent_id a;
        assert_int_equal(wf_world_add_agent(w, c, from, NULL, &a), WF_OK);
        assert_int_equal(wf_crowd_request_move(wf_world_agent_crowd(w, a), a, to, NULL, NULL),
                         WF_OK);
    }
}

static uint64_t world_hash(wf_world* w) {
    return crowd_test_hash(wf_world_class_crowd(w, SOLDIER)) ^
           (crowd_test_hash(wf_world_class_crowd(w, TANK)) * 31u);
}

static void test_save_restore_carries_every_class(void** state) {
    (void)state;
    wf_world* a = make_world(1);
    populate(a);
    wf_obstacle_id crate = {0};
    run(a, 0, 50, &crate);
    size_t size = 0;
    assert_int_equal(wf_world_save_size(a, &size), WF_OK);
    unsigned char* blob = malloc(size);
    assert_non_null(blob);
    assert_int_equal(wf_world_save(a, blob, size), WF_OK);
    wf_world* b = make_world(2);
    assert_int_equal(wf_world_restore(b, blob, size), WF_OK);
    assert_true(world_hash(a) == world_hash(b));
    assert_int_equal(wf_world_obstacle_count(b), wf_world_obstacle_count(a));
    wf_obstacle_id crate_b = crate;
    run(a, 50, 70, &crate);
    run(b, 50, 70, &crate_b); // the saved obstacle id is removed in b too
    assert_true(world_hash(a) == world_hash(b));
    // Damaged: refused, b untouched.
    uint64_t before = world_hash(b);
    blob[size / 2] ^= 0x40u;
    assert_int_equal(wf_world_restore(b, blob, size), WF_ERR_BAD_DATA);
    assert_true(world_hash(b) == before);
    // A single-class world's blob does not fit a two-class world.
    wf_geom g = test_level_make(&g_level, 36.0f, true);
    wf_world_desc d1 = classes_desc(&g, 1);
    d1.class_count = 1;
    wf_world* one = NULL;
    assert_int_equal(wf_world_create(&d1, &one), WF_OK);
    size_t one_size = 0;
    assert_int_equal(wf_world_save_size(one, &one_size), WF_OK);
    unsigned char* one_blob = malloc(one_size);
    assert_non_null(one_blob);
    assert_int_equal(wf_world_save(one, one_blob, one_size), WF_OK);
    assert_int_equal(wf_world_restore(b, one_blob, one_size), WF_ERR_CAPACITY);
    assert_true(world_hash(b) == before);
    free(one_blob);
    wf_world_destroy(one);
    free(blob);
    wf_world_destroy(a);
    wf_world_destroy(b);
}

static void test_multi_class_cache_file(void** state) {
    (void)state;
    wf_world* w = make_world(1);
    size_t size = 0;
    assert_int_equal(wf_world_save_cache_size(w, &size), WF_OK);
    unsigned char* file = malloc(size);
    assert_non_null(file);
    assert_int_equal(wf_world_save_cache(w, file, size - 1), WF_ERR_CAPACITY);
    assert_int_equal(wf_world_save_cache(w, file, size), WF_OK);
    wf_world_cache_class table[4];
    uint32_t count = 0;
    assert_int_equal(wf_world_cache_get_classes(file, size, table, 4, &count), WF_OK);
    assert_int_equal(count, 2);
    assert_string_equal(table[1].name, "tank");
    assert_true(table[1].agent_radius == 1.2f && table[1].agent_height == 2.5f);

    // Every class of the file, as built.
    wf_world_desc d;
    memset(&d, 0, sizeof d);
    d.cache_data = file;
    d.cache_size = size;
    d.worker_count = 1;
    d.logger.quiet = true;
    wf_world* loaded = NULL;
    assert_int_equal(wf_world_create(&d, &loaded), WF_OK);
    assert_int_equal(wf_world_class_count(loaded), 2);
    for (uint32_t c = 0; c < 2; ++c) {
        wf_world_class_info x, y;
        assert_int_equal(wf_world_get_class(w, c, &x), WF_OK);
        assert_int_equal(wf_world_get_class(loaded, c, &y), WF_OK);
        assert_string_equal(x.name, y.name);
        assert_true(x.agent_radius == y.agent_radius);
        assert_true(wf_tilecache_layer_count(wf_world_class_tilecache(w, c)) ==
                    wf_tilecache_layer_count(wf_world_class_tilecache(loaded, c)));
    }
    wf_world_destroy(loaded);

    // One class picked by name, a thinner agent on the tank's navmesh.
    wf_world_class_desc pick = {.name = "tank", .agent_radius = 1.0f, .max_agents = 4};
    d.classes = &pick;
    d.class_count = 1;
    assert_int_equal(wf_world_create(&d, &loaded), WF_OK);
    wf_world_class_info info;
    assert_int_equal(wf_world_get_class(loaded, 0, &info), WF_OK);
    assert_string_equal(info.name, "tank");
    assert_true(info.agent_radius == 1.2f && info.max_agent_radius == 1.0f);
    wf_world_destroy(loaded);
    loaded = NULL;

    // Wider than the file's class, a name it lacks, a damaged table.
    pick.agent_radius = 1.5f;
    assert_int_equal(wf_world_create(&d, &loaded), WF_ERR_INVALID_ARG);
    pick.agent_radius = 0.0f;
    pick.agent_height = 3.0f;
    assert_int_equal(wf_world_create(&d, &loaded), WF_ERR_INVALID_ARG);
    pick.agent_height = 0.0f;
    pick.name = "horse";
    assert_int_equal(wf_world_create(&d, &loaded), WF_ERR_NOT_FOUND);
    wf_world_class_desc three[3] = {{.name = NULL}, {.name = NULL}, {.name = NULL}};
    d.classes = three;
    d.class_count = 3;
    assert_int_equal(wf_world_create(&d, &loaded), WF_ERR_NOT_FOUND);
    assert_null(loaded);
    d.classes = NULL;
    d.class_count = 0;
    file[20] ^= 1u; // in the table: the checksum no longer matches
    assert_int_equal(wf_world_cache_get_classes(file, size, table, 4, &count), WF_ERR_BAD_DATA);
    assert_int_equal(wf_world_create(&d, &loaded), WF_ERR_BAD_DATA);
    file[20] ^= 1u;
    assert_int_equal(wf_world_cache_get_classes(file, size - 1, table, 4, &count), WF_ERR_BAD_DATA);
    free(file);

    // A plain (single-class) cache file: count 0, one class, as before.
    size_t plain_size = 0;
    wf_tilecache* tc = wf_world_class_tilecache(w, SOLDIER);
    assert_int_equal(wf_tilecache_save_size(tc, &plain_size), WF_OK);
    unsigned char* plain = malloc(plain_size);
    assert_non_null(plain);
    assert_int_equal(wf_tilecache_save(tc, plain, plain_size), WF_OK);
    assert_int_equal(wf_world_cache_get_classes(plain, plain_size, NULL, 0, &count), WF_OK);
    assert_int_equal(count, 0);
    d.cache_data = plain;
    d.cache_size = plain_size;
    assert_int_equal(wf_world_create(&d, &loaded), WF_OK);
    assert_int_equal(wf_world_class_count(loaded), 1);
    wf_world_destroy(loaded);
    loaded = NULL;
    d.classes = g_classes;
    d.class_count = 2; // a plain file holds one class
    assert_int_equal(wf_world_create(&d, &loaded), WF_ERR_NOT_FOUND);
    d.class_count = 1; // the soldier's file: a tank is too wide for it
    d.classes = &g_classes[1];
    assert_int_equal(wf_world_create(&d, &loaded), WF_ERR_INVALID_ARG);
    assert_null(loaded);
    free(plain);
    wf_world_destroy(w);
}

static void test_bad_class_descs(void** state) {
    (void)state;
    wf_geom g = test_level_make(&g_level, 36.0f, true);
    wf_world_desc d = classes_desc(&g, 1);
    wf_world* w = NULL;
    wf_world_class_desc many[WF_WORLD_MAX_CLASSES + 1];
    memset(many, 0, sizeof many);
    d.classes = many;
    d.class_count = WF_WORLD_MAX_CLASSES + 1u;
    assert_int_equal(wf_world_create(&d, &w), WF_ERR_INVALID_ARG);
    d.classes = NULL;
    d.class_count = 1;
    assert_int_equal(wf_world_create(&d, &w), WF_ERR_INVALID_ARG);
    wf_world_class_desc two[2];
    memcpy(two, g_classes, sizeof two);
    d.classes = two;
    d.class_count = 2;
    const float bad[] = {NAN, INFINITY, -0.5f};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        two[1].agent_radius = bad[i];
        assert_int_equal(wf_world_create(&d, &w), WF_ERR_INVALID_ARG);
        two[1].agent_radius = 1.2f;
        two[1].agent_height = bad[i];
        assert_int_equal(wf_world_create(&d, &w), WF_ERR_INVALID_ARG);
        two[1].agent_height = 2.5f;
        two[1].agent_climb = bad[i];
        assert_int_equal(wf_world_create(&d, &w), WF_ERR_INVALID_ARG);
        two[1].agent_climb = 0.3f;
    }
    two[1].name = "soldier"; // twice
    assert_int_equal(wf_world_create(&d, &w), WF_ERR_INVALID_ARG);
    two[1].name = "a_name_of_thirty_two_bytes_long!";
    assert_int_equal(wf_world_create(&d, &w), WF_ERR_INVALID_ARG);
    two[1].name = "";
    assert_int_equal(wf_world_create(&d, &w), WF_ERR_INVALID_ARG);
    two[1].name = "tank";
    // Too many agents to see as movers: 1,000 soldiers need room in the
    // tanks' crowd beside its 16 own movers.
    two[0].max_agents = 1010;
    assert_int_equal(wf_world_create(&d, &w), WF_ERR_INVALID_ARG);
    two[0].max_agents = 1000;
    two[1].max_agents = 8;
    assert_int_equal(wf_world_create(&d, &w), WF_OK);
    wf_world_destroy(w);
    w = NULL;
    // Unnamed classes get "class<index>"; the zero class is the params'.
    memset(two, 0, sizeof two);
    two[1].agent_radius = 1.0f;
    assert_int_equal(wf_world_create(&d, &w), WF_OK);
    wf_world_class_info info;
    assert_int_equal(wf_world_get_class(w, 1, &info), WF_OK);
    assert_string_equal(info.name, "class1");
    assert_int_equal(wf_world_get_class(w, 0, &info), WF_OK);
    assert_true(info.agent_radius == wf_tilecache_params_recast_demo().agent_radius);
    wf_world_destroy(w);
}

int main(void) {
    // Bad descs and shapes are misuse: the hook lets them return their status.
    wf_set_assert_hook(test_ignore_assert);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_class_has_its_navmesh),
        cmocka_unit_test(test_agent_ids_name_their_class),
        cmocka_unit_test(test_obstacles_reach_every_class),
        cmocka_unit_test(test_obstacle_calls_are_all_or_nothing),
        cmocka_unit_test(test_classes_avoid_each_other),
        cmocka_unit_test(test_save_restore_carries_every_class),
        cmocka_unit_test(test_multi_class_cache_file),
        cmocka_unit_test(test_bad_class_descs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
