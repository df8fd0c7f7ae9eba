// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Misuse of the world API: bad descs, steps, saves and restores.
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
 * Agent classes, world obstacles, the multi-class cache file
 */

static void test_world_classes_misuse(void** state) {
    (void)state;
    wf_geom g = floor_geom();
    wf_world_desc d = world_desc(&g);
    wf_world_class_desc classes[2] = {{.name = "small", .agent_radius = 0.4f},
                                      {.name = "large", .agent_radius = 1.0f, .max_agents = 2}};
    d.classes = classes;
    d.class_count = 2;
    wf_world* w = NULL;
    wf_world_desc b = d;
    b.class_count = WF_WORLD_MAX_CLASSES + 1u;
    EXPECT(wf_world_create(&b, &w), WF_ERR_INVALID_ARG);
    b = d;
    b.classes = NULL;
    EXPECT(wf_world_create(&b, &w), WF_ERR_INVALID_ARG);
    classes[1].agent_radius = NAN_F;
    EXPECT(wf_world_create(&d, &w), WF_ERR_INVALID_ARG);
    classes[1].agent_radius = 0.0f;
    classes[1].agent_height = -1.0f;
    EXPECT(wf_world_create(&d, &w), WF_ERR_INVALID_ARG);
    classes[1].agent_height = 0.0f;
    classes[1].name = "small";
    EXPECT(wf_world_create(&d, &w), WF_ERR_INVALID_ARG);
    classes[1].name = "large";
    classes[1].agent_radius = 1.0f;
    EXPECT_TRUE(w == NULL);
    EXPECT(wf_world_create(&d, &w), WF_OK);

    // Classes: NULL world, index past the last, unknown names.
    EXPECT_TRUE(wf_world_class_count(NULL) == 0 && wf_world_class_count(w) == 2);
    EXPECT_TRUE(wf_world_class_crowd(NULL, 0) == NULL && wf_world_class_crowd(w, 2) == NULL);
    EXPECT_TRUE(wf_world_class_tilecache(NULL, 0) == NULL &&
                wf_world_class_tilecache(w, 2) == NULL);
    EXPECT_TRUE(wf_world_class_mesh(NULL, 0) == NULL && wf_world_class_mesh(w, 2) == NULL);
    wf_world_class_info info;
    EXPECT(wf_world_get_class(NULL, 0, &info), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_get_class(w, 0, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_get_class(w, 2, &info), WF_ERR_NOT_FOUND);
    uint32_t index = 7;
    EXPECT(wf_world_find_class(NULL, "small", &index), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_find_class(w, NULL, &index), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_find_class(w, "small", NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_find_class(w, "huge", &index), WF_ERR_NOT_FOUND);
    EXPECT_TRUE(index == 7);

    // Agents: a class that does not exist, NaN, a too wide agent, bad ids.
    wf_agent_id a = {0};
    EXPECT(wf_world_add_agent(NULL, 0, wf_v3(5, 0, 5), NULL, &a), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_add_agent(w, 0, wf_v3(5, 0, 5), NULL, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_add_agent(w, 2, wf_v3(5, 0, 5), NULL, &a), WF_ERR_NOT_FOUND);
    EXPECT(wf_world_add_agent(w, 0, wf_v3(NAN_F, 0, 5), NULL, &a), WF_ERR_INVALID_ARG);
    wf_agent_params wide = wf_agent_params_defaults();
    wide.radius = 0.9f;
    EXPECT(wf_world_add_agent(w, 0, wf_v3(5, 0, 5), &wide, &a), WF_ERR_INVALID_ARG);
    EXPECT_TRUE(wf_crowd_agent_count(wf_world_class_crowd(w, 0)) == 0);
    EXPECT(wf_world_add_agent(w, 1, wf_v3(5, 0, 5), NULL, &a), WF_OK);
    uint32_t c = 9;
    EXPECT(wf_world_get_agent_class(NULL, a, &c), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_get_agent_class(w, a, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_get_agent_class(w, (wf_agent_id){0}, &c), WF_ERR_INVALID_ARG);
    wf_agent_id as_other_kind = {(a.bits & ~((uint64_t)0xff << 56)) | ((uint64_t)1 << 56)};
    EXPECT(wf_world_get_agent_class(w, as_other_kind, &c), WF_ERR_WRONG_KIND);
    wf_agent_id beyond = {a.bits + ((uint64_t)6 << 24)};
    EXPECT(wf_world_get_agent_class(w, beyond, &c), WF_ERR_NOT_FOUND);
    EXPECT_TRUE(c == 9);
    EXPECT(wf_world_get_agent_class(w, a, &c), WF_OK);
    EXPECT_TRUE(c == 1);
    EXPECT_TRUE(wf_world_agent_crowd(NULL, a) == NULL);
    EXPECT_TRUE(wf_world_agent_crowd(w, (wf_agent_id){0}) == NULL);
    EXPECT_TRUE(wf_world_agent_crowd(w, beyond) == NULL);
    EXPECT_TRUE(wf_world_agent_crowd(w, a) == wf_world_class_crowd(w, 1));
    // The class's crowd refuses another class's id.
    EXPECT(wf_crowd_remove_agent(wf_world_class_crowd(w, 0), a), WF_ERR_STALE_REF);

    // Obstacles: NULL, NaN shapes, stale and foreign ids, off the map.
    wf_obstacle_desc od = {.shape = WF_OBSTACLE_CYLINDER, .radius = 1.0f, .height = 2.0f};
    od.position = wf_v3(10, 0, 10);
    wf_obstacle_id id = {0};
    EXPECT(wf_world_add_obstacle(NULL, &od, &id), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_add_obstacle(w, NULL, &id), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_add_obstacle(w, &od, NULL), WF_ERR_INVALID_ARG);
    wf_obstacle_desc bad = od;
    bad.radius = NAN_F;
    EXPECT(wf_world_add_obstacle(w, &bad, &id), WF_ERR_INVALID_ARG);
    bad = od;
    bad.position = wf_v3(1e6f, 0, 1e6f);
    EXPECT(wf_world_add_obstacle(w, &bad, &id), WF_ERR_NOT_FOUND);
    EXPECT_TRUE(wf_world_obstacle_count(NULL) == 0 && wf_world_obstacle_count(w) == 0);
    EXPECT(wf_world_add_obstacle(w, &od, &id), WF_OK);
    bad.radius = NAN_F;
    EXPECT(wf_world_move_obstacle(NULL, id, &od), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_move_obstacle(w, id, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_move_obstacle(w, (wf_obstacle_id){0}, &od), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_move_obstacle(w, id, &bad), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_move_obstacle(w, (wf_obstacle_id){a.bits}, &od), WF_ERR_WRONG_KIND);
    wf_obstacle_desc got;
    EXPECT(wf_world_get_obstacle(NULL, id, &got), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_get_obstacle(w, id, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_get_obstacle(w, (wf_obstacle_id){0}, &got), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_get_obstacle(w, id, &got), WF_OK);
    EXPECT_TRUE(got.position.x == 10.0f);
    EXPECT(wf_world_remove_obstacle(NULL, id), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_remove_obstacle(w, (wf_obstacle_id){0}), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_remove_obstacle(w, id), WF_OK);
    EXPECT(wf_world_remove_obstacle(w, id), WF_ERR_STALE_REF);
    EXPECT(wf_world_get_obstacle(w, id, &got), WF_ERR_STALE_REF);
    EXPECT(wf_world_move_obstacle(w, id, &od), WF_ERR_STALE_REF);
    EXPECT_TRUE(wf_world_obstacle_count(w) == 0);

    // The multi-class cache file: NULL, short buffers, damaged tables.
    size_t size = 0;
    EXPECT(wf_world_save_cache_size(NULL, &size), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_save_cache_size(w, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_save_cache_size(w, &size), WF_OK);
    unsigned char* file = malloc(size);
    assert_non_null(file);
    EXPECT(wf_world_save_cache(NULL, file, size), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_save_cache(w, NULL, size), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_save_cache(w, file, size - 1), WF_ERR_CAPACITY);
    EXPECT(wf_world_save_cache(w, file, size), WF_OK);
    wf_world_cache_class table[2];
    uint32_t count = 5;
    EXPECT(wf_world_cache_get_classes(NULL, size, table, 2, &count), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_cache_get_classes(file, size, table, 2, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_cache_get_classes(file, size, NULL, 2, &count), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_cache_get_classes(file, 8, table, 2, &count), WF_ERR_BAD_DATA);
    EXPECT(wf_world_cache_get_classes(file, size - 1, table, 2, &count), WF_ERR_BAD_DATA);
    file[4] ^= 0x04;
    EXPECT(wf_world_cache_get_classes(file, size, table, 2, &count), WF_ERR_VERSION);
    file[4] ^= 0x04;
    file[8] = 9; // class count above WF_WORLD_MAX_CLASSES
    EXPECT(wf_world_cache_get_classes(file, size, table, 2, &count), WF_ERR_BAD_DATA);
    file[8] = 2;
    file[16] ^= 0x20; // a name changed under the checksum
    EXPECT(wf_world_cache_get_classes(file, size, table, 2, &count), WF_ERR_BAD_DATA);
    file[16] ^= 0x20;
    EXPECT(wf_world_cache_get_classes(file, size, NULL, 0, &count), WF_OK);
    EXPECT_TRUE(count == 2);
    // Joining caches built apart: NULL, counts, names empty or twice.
    const wf_tilecache* caches[2] = {wf_world_class_tilecache(w, 0),
                                     wf_world_class_tilecache(w, 1)};
    const char* names[2] = {"small", "large"};
    size_t joined = 0;
    EXPECT(wf_world_cache_write_size(NULL, 2, &joined), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_cache_write_size(caches, 0, &joined), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_cache_write_size(caches, WF_WORLD_MAX_CLASSES + 1u, &joined),
           WF_ERR_INVALID_ARG);
    EXPECT(wf_world_cache_write_size(caches, 2, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_cache_write_size(caches, 2, &joined), WF_OK);
    EXPECT_TRUE(joined == size);
    unsigned char* again = malloc(joined);
    assert_non_null(again);
    EXPECT(wf_world_cache_write(caches, NULL, 2, again, joined), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_cache_write(caches, names, 2, NULL, joined), WF_ERR_INVALID_ARG);
    const char* twice[2] = {"small", "small"};
    EXPECT(wf_world_cache_write(caches, twice, 2, again, joined), WF_ERR_INVALID_ARG);
    const char* empty[2] = {"small", ""};
    EXPECT(wf_world_cache_write(caches, empty, 2, again, joined), WF_ERR_INVALID_ARG);
    EXPECT(wf_world_cache_write(caches, names, 2, again, joined - 1), WF_ERR_CAPACITY);
    EXPECT(wf_world_cache_write(caches, names, 2, again, joined), WF_OK);
    EXPECT_TRUE(memcmp(again, file, size) == 0);
    free(again);
    // A class wider than the file's.
    wf_world_desc from_file = world_desc(NULL);
    from_file.geom = NULL;
    from_file.cache_data = file;
    from_file.cache_size = size;
    wf_world_class_desc pick = {.name = "small", .agent_radius = 0.5f};
    from_file.classes = &pick;
    from_file.class_count = 1;
    wf_world* w2 = NULL;
    EXPECT(wf_world_create(&from_file, &w2), WF_ERR_INVALID_ARG);
    pick.name = "tiny";
    EXPECT(wf_world_create(&from_file, &w2), WF_ERR_NOT_FOUND);
    EXPECT_TRUE(w2 == NULL);
    free(file);
    wf_world_destroy(w);
    end_test();
}

int main(void) {
    misuse_begin();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_world_misuse, begin_test),
        cmocka_unit_test_setup(test_world_classes_misuse, begin_test),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    misuse_report("misuse_world");
    return failed;
}
