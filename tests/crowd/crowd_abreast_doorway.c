// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Doorways two agents wide (crowd/bottleneck.c): two groups meeting head-on
// at a doorway wide enough for two abreast but not for two streams with room
// to spare take turns as at a single-file one instead of standing in its
// mouth, and the same holds for any worker count.
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
#define PER_SIDE 6u
#define CELL 2.0f
#define CELLS 8u
#define WALL_X 12u
#define DOOR_Z 3u

/// A 48 x 16 m grid of 2 m cells cut by a wall (cells x 24..26) with one
/// open cell at z 6..8: a doorway 2 m wide on the navmesh, where agents of
/// radius 0.6 fit two abreast (a 3.2 m door on an eroded tile cache mesh).
static wf_mesh* abreast_mesh(void) { return crowd_test_door_mesh(1, CELLS, CELL, WALL_X, DOOR_Z); }

/// Six agents on each side in two columns of three, each going to its start
/// mirrored about the wall; returns the frames until every agent had got
/// through to its goal's side (max_frames when not), the worst overlap of
/// two agents seen after the first second, and the crowd's hash.
static int run_two_way(const wf_job_system* jobs, int max_frames, float* out_overlap,
                       uint64_t* out_hash) {
    wf_mesh* mesh = abreast_mesh();
    assert_non_null(mesh);
    wf_crowd* c = crowd_test_create(mesh, 2u * PER_SIDE, jobs);
    wf_agent_params p = crowd_test_params();
    p.radius = 0.6f;
    p.collision_query_range = p.radius * 12.0f;
    const float west_face = (float)WALL_X * CELL, east_face = west_face + CELL;
    const float door_mid = ((float)DOOR_Z + 0.5f) * CELL;
    wf_agent_id ids[2u * PER_SIDE];
    wf_vec3 goals[2u * PER_SIDE];
    for (uint32_t i = 0; i < 2u * PER_SIDE; ++i) {
        bool west = i < PER_SIDE;
        uint32_t k = i % PER_SIDE;
        float dx = 3.0f + (float)(k % 2u) * 1.5f; // from the wall
        float z = door_mid + ((float)(k / 2u) - 1.0f) * 1.5f;
        wf_vec3 start = wf_v3(west ? west_face - dx : east_face + dx, 0, z);
        goals[i] = wf_v3(west ? east_face + dx : west_face - dx, 0, z);
        assert_int_equal(wf_crowd_add_agent(c, start, &p, &ids[i]), WF_OK);
        assert_int_equal(wf_crowd_request_move(c, ids[i], goals[i], NULL, NULL), WF_OK);
    }
    int frames = crowd_test_run_through_wall(c, ids, goals, 2u * PER_SIDE, west_face, east_face,
                                             p.radius, max_frames, out_overlap);
    *out_hash = crowd_test_hash(c);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
    return frames;
}

static void test_two_way_abreast_doorway(void** state) {
    (void)state;
    float overlap;
    uint64_t hash;
    int frames = run_two_way(NULL, 30 * 60, &overlap, &hash);
    printf("two-abreast doorway: %u each way through 2 m in %.2f s, worst overlap %.3f m\n",
           PER_SIDE, (double)((float)frames * DT), (double)overlap);
    // Taking turns as at a single-file doorway, all are through in about
    // 13.4 s; with the two streams meeting in the mouth, 38.0 s.
    assert_true(frames < 30 * 20);
    assert_true(overlap < 0.15f);
}

/// The run the worker counts are compared on.
static uint64_t hashed_run(const wf_job_system* jobs) {
    float overlap;
    uint64_t hash;
    run_two_way(jobs, 30 * 8, &overlap, &hash);
    return hash;
}

static void test_two_way_abreast_same_for_workers(void** state) {
    (void)state;
    crowd_test_same_for_workers(hashed_run);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_way_abreast_doorway),
        cmocka_unit_test(test_two_way_abreast_same_for_workers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
