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

int main(void) {
    misuse_begin();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_world_misuse, begin_test),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    misuse_report("misuse_world");
    return failed;
}
