// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// One-lane stretches (crowd/bottleneck.c): two groups meeting head-on in a
// lane one agent wide and longer than a doorway is deep cross it one way at
// a time, as over a one-lane bridge, instead of meeting inside it; the same
// for any worker count.
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
#define CELL 1.2f
#define CELLS 8u
#define LANE_FIRST 8u
#define LANE_LAST 15u
#define LANE_Z 4u

/// A 28.8 x 9.6 m grid of 1.2 m cells: two rooms (cells x 0..7 and 16..23)
/// joined by a lane one cell wide (x 8..15 at z 4), 9.6 m long and one
/// agent of radius 0.6 wide on the navmesh (the corridor scene's walkway).
static wf_mesh* lane_mesh(void) {
    uint8_t blocked[CELLS * 3u * CELLS];
    for (uint32_t z = 0; z < CELLS; ++z) {
        for (uint32_t x = 0; x < CELLS * 3u; ++x) {
            bool lane = x >= LANE_FIRST && x <= LANE_LAST;
            blocked[z * CELLS * 3u + x] = lane && z != LANE_Z;
        }
    }
    return test_mesh_grid(3, 1, CELLS, CELL, blocked, NULL, NULL);
}

/// Ten agents in each room in two columns of five, each going to its
/// start mirrored about the lane's middle, for `frames` updates; returns
/// how many got through the lane to their goal's side (clear of it by a
/// radius, counted once), the worst overlap of two agents seen after the
/// first second, and the crowd's hash.
static uint32_t run_two_way(const wf_job_system* jobs, int frames, float* out_overlap,
                            uint64_t* out_hash) {
    wf_mesh* mesh = lane_mesh();
    assert_non_null(mesh);
    wf_crowd* c = crowd_test_create(mesh, 2u * PER_SIDE, jobs);
    wf_agent_params p = crowd_test_params();
    p.radius = 0.6f;
    p.collision_query_range = p.radius * 12.0f;
    const float west_face = (float)LANE_FIRST * CELL, east_face = (float)(LANE_LAST + 1u) * CELL;
    const float lane_mid = ((float)LANE_Z + 0.5f) * CELL;
    wf_agent_id ids[2u * PER_SIDE];
    for (uint32_t i = 0; i < 2u * PER_SIDE; ++i) {
        bool west = i < PER_SIDE;
        uint32_t k = i % PER_SIDE;
        float dx = 2.0f + (float)(k % 2u) * 1.5f; // from the lane's end
        float z = lane_mid + ((float)(k / 2u) - 2.0f) * 1.5f;
        wf_vec3 start = wf_v3(west ? west_face - dx : east_face + dx, 0, z);
        wf_vec3 goal = wf_v3(west ? east_face + dx : west_face - dx, 0, z);
        assert_int_equal(wf_crowd_add_agent(c, start, &p, &ids[i]), WF_OK);
        assert_int_equal(wf_crowd_request_move(c, ids[i], goal, NULL, NULL), WF_OK);
    }
    uint32_t count =
        crowd_test_run_streams(c, ids, 2u * PER_SIDE, PER_SIDE, east_face + p.radius,
                               west_face - p.radius, p.radius, frames, 30, out_overlap);
    *out_hash = crowd_test_hash(c);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
    return count;
}

static void test_two_way_one_lane(void** state) {
    (void)state;
    float overlap;
    uint64_t hash;
    uint32_t through = run_two_way(NULL, 30 * 60, &overlap, &hash);
    printf("one lane: %u of %u through 9.6 m in 60 s, worst overlap %.3f m\n", through,
           2u * PER_SIDE, (double)overlap);
    // Meeting inside it, 4 of the 20 get through; one way at a time, 18.
    assert_true(through >= 16u);
    assert_true(overlap < 0.15f);
}

/// The run the worker counts are compared on.
static uint64_t hashed_run(const wf_job_system* jobs) {
    float overlap;
    uint64_t hash;
    run_two_way(jobs, 30 * 10, &overlap, &hash);
    return hash;
}

static void test_two_way_one_lane_same_for_workers(void** state) {
    (void)state;
    crowd_test_same_for_workers(hashed_run);
}

/// Saved with the west stream admitted and in the lane and the east one
/// waiting, a restored crowd goes on as the saved one does: the lane's
/// entries are rebuilt from the corridors and the saved admissions.
static void test_one_lane_restored(void** state) {
    (void)state;
    wf_mesh* mesh = lane_mesh();
    assert_non_null(mesh);
    wf_crowd_desc d = crowd_test_desc(mesh, 2u * PER_SIDE);
    wf_crowd *a = NULL, *b = NULL;
    assert_int_equal(wf_crowd_create(&d, &a), WF_OK);
    assert_int_equal(wf_crowd_create(&d, &b), WF_OK);
    wf_agent_params p = crowd_test_params();
    p.radius = 0.6f;
    p.collision_query_range = p.radius * 12.0f;
    const float west_face = (float)LANE_FIRST * CELL, east_face = (float)(LANE_LAST + 1u) * CELL;
    const float lane_mid = ((float)LANE_Z + 0.5f) * CELL;
    for (uint32_t i = 0; i < 2u * PER_SIDE; ++i) {
        bool west = i < PER_SIDE;
        uint32_t k = i % PER_SIDE;
        float dx = 2.0f + (float)(k % 2u) * 1.5f;
        float z = lane_mid + ((float)(k / 2u) - 2.0f) * 1.5f;
        wf_agent_id id;
        assert_int_equal(
            wf_crowd_add_agent(a, wf_v3(west ? west_face - dx : east_face + dx, 0, z), &p, &id),
            WF_OK);
        assert_int_equal(wf_crowd_request_move(a, id,
                                               wf_v3(west ? east_face + dx : west_face - dx, 0, z),
                                               NULL, NULL),
                         WF_OK);
    }
    for (int f = 0; f < 30 * 6; ++f) {
        assert_int_equal(wf_crowd_update(a, DT, NULL), WF_OK);
    }
    size_t size = 0;
    assert_int_equal(wf_crowd_save_size(a, &size), WF_OK);
    void* blob = malloc(size);
    assert_non_null(blob);
    assert_int_equal(wf_crowd_save(a, blob, size), WF_OK);
    assert_int_equal(wf_crowd_restore(b, blob, size), WF_OK);
    free(blob);
    for (int f = 0; f < 30 * 10; ++f) {
        assert_int_equal(wf_crowd_update(a, DT, NULL), WF_OK);
        assert_int_equal(wf_crowd_update(b, DT, NULL), WF_OK);
    }
    assert_true(crowd_test_hash(a) == crowd_test_hash(b));
    wf_crowd_destroy(a);
    wf_crowd_destroy(b);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_way_one_lane),
        cmocka_unit_test(test_two_way_one_lane_same_for_workers),
        cmocka_unit_test(test_one_lane_restored),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
