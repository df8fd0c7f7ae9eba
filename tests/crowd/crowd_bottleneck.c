// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Single-file passages (crowd/bottleneck.c): two groups meeting head-on at a
// doorway too narrow for two agents take turns instead of jamming in it,
// and the same holds for any worker count.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "crowd_test_util.h"
#include "wayfarer/jobs.h"

#define DT (1.0f / 30.0f)
#define PER_SIDE 10u

/// A 30 x 10 m grid cut by a wall at x = 15 with one open cell at z = 4:
/// 1 m of navmesh, where a tile cache navmesh (eroded by the radius) would
/// have a doorway of 1 m + 2 radii. Agents of radius 0.6 pass it one by one.
static wf_mesh* doorway_mesh(void) {
    uint8_t blocked[10 * 30];
    for (uint32_t z = 0; z < 10; ++z) {
        for (uint32_t x = 0; x < 30; ++x) {
            blocked[z * 30 + x] = x == 15 && z != 4;
        }
    }
    return test_mesh_grid(3, 1, 10, 1.0f, blocked, NULL, NULL);
}

/// Ten agents on each side in two columns of five, each going to its start
/// mirrored about the wall; returns the frames until every agent had got
/// through to its goal's side (max_frames when not), and the worst
/// overlap of two agents seen after the first second.
static int run_two_way(const wf_job_system* jobs, int max_frames, float* out_overlap,
                       uint64_t* out_hash) {
    wf_mesh* mesh = doorway_mesh();
    wf_crowd_desc d = crowd_test_desc(mesh, 2u * PER_SIDE);
    if (jobs != NULL) {
        d.jobs = *jobs;
    }
    wf_crowd* c = NULL;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    p.radius = 0.6f;
    p.collision_query_range = p.radius * 12.0f;
    wf_agent_id ids[2u * PER_SIDE];
    wf_vec3 goals[2u * PER_SIDE];
    for (uint32_t i = 0; i < 2u * PER_SIDE; ++i) {
        bool west = i < PER_SIDE;
        uint32_t k = i % PER_SIDE;
        float dx = 3.0f + (float)(k % 2u) * 1.5f; // from the wall
        float z = 2.0f + (float)(k / 2u) * 1.5f;
        wf_vec3 start = wf_v3(west ? 15.0f - dx : 16.0f + dx, 0, z);
        goals[i] = wf_v3(west ? 16.0f + dx : 15.0f - dx, 0, z);
        assert_int_equal(wf_crowd_add_agent(c, start, &p, &ids[i]), WF_OK);
        assert_int_equal(wf_crowd_request_move(c, ids[i], goals[i], NULL, NULL), WF_OK);
    }
    float worst = 0.0f;
    int frames = max_frames;
    bool reached[2u * PER_SIDE] = {false};
    for (int f = 0; f < max_frames; ++f) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        bool all = true;
        for (uint32_t i = 0; i < 2u * PER_SIDE; ++i) {
            wf_agent_state si = crowd_test_state(c, ids[i]);
            // Through: beyond the wall (x 15..16), on the goal's side.
            reached[i] |= goals[i].x > 16.0f ? si.position.x > 16.6f : si.position.x < 14.4f;
            all &= reached[i];
            for (uint32_t j = i + 1; j < 2u * PER_SIDE && f >= 30; ++j) {
                wf_agent_state sj = crowd_test_state(c, ids[j]);
                float overlap = 2.0f * p.radius - crowd_test_dist2d(si.position, sj.position);
                worst = overlap > worst ? overlap : worst;
            }
        }
        if (all) {
            frames = f + 1;
            break;
        }
    }
    *out_overlap = worst;
    *out_hash = crowd_test_hash(c);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
    return frames;
}

static void test_two_way_single_file_doorway(void** state) {
    (void)state;
    float overlap;
    uint64_t hash;
    int frames = run_two_way(NULL, 30 * 60, &overlap, &hash);
    printf("single-file doorway: %u each way through 1 m in %.2f s, worst overlap %.3f m\n",
           PER_SIDE, (double)((float)frames * DT), (double)overlap);
    // Ten each way, one at a time. Taking turns, all are through in about
    // 39 s; meeting in the mouth (each side waiting for the other until the
    // stuck replans shake them loose), the last got through after 50 s.
    assert_true(frames < 30 * 45);
    assert_true(overlap < 0.15f);
}

static void test_two_way_doorway_same_for_workers(void** state) {
    (void)state;
    float overlap;
    uint64_t inline_hash, hash;
    int frames = run_two_way(NULL, 30 * 20, &overlap, &inline_hash);
    assert_int_equal(frames, 30 * 20); // mid-way: some still waiting their turn
    for (uint32_t workers = 2; workers <= 4; workers += 2) {
        wf_thread_pool* pool = NULL;
        wf_thread_pool_desc pd = {0};
        pd.thread_count = workers - 1u;
        assert_int_equal(wf_thread_pool_create(&pd, &pool), WF_OK);
        wf_job_system jobs = wf_thread_pool_job_system(pool);
        run_two_way(&jobs, 30 * 20, &overlap, &hash);
        assert_true(hash == inline_hash);
        wf_thread_pool_destroy(pool);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_way_single_file_doorway),
        cmocka_unit_test(test_two_way_doorway_same_for_workers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
