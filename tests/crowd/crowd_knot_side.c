// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Two-way knots on open floor agree a pass side (issue 14, knot19): blocks
// of the scenes' agents (radius 0.6, 3.5 m/s, the HIGH preset) meeting
// head-on in one line, file against file, slide past each other shoulder to
// shoulder on the side both agree, instead of standing face to face while
// every closing velocity scores as an impact; the same for any worker count.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "crowd_test_util.h"
#include "wayfarer/jobs.h"

#define CELLS 16u
#define MAX_AGENTS 32u
#define MID_X 16.0f
#define MID_Z 8.0f
#define GAP_ALONG 1.3f

/// 32 m of floor (1 m cells) `width` cells wide about z = 8, open at no
/// end. `files` files of `rows` agents each side (GAP_ALONG apart along,
/// `gap_across` across, the first rows 1.6 m apart), the west block exactly
/// in line with the east one, each walking to the far end. Returns how many
/// got 4 m past the middle within `frames`, the worst overlap of two agents
/// after the first two seconds, and the crowd's hash.
static uint32_t run_blocks(const wf_job_system* jobs, uint32_t width, uint32_t files, uint32_t rows,
                           float gap_across, int frames, float* out_overlap, uint64_t* out_hash) {
    uint8_t blocked[CELLS * 2u * CELLS];
    uint32_t first = (CELLS - width) / 2u;
    for (uint32_t z = 0; z < CELLS; ++z) {
        for (uint32_t x = 0; x < 2u * CELLS; ++x) {
            blocked[z * 2u * CELLS + x] = z < first || z >= first + width;
        }
    }
    wf_mesh* mesh = test_mesh_grid(2, 1, CELLS, 1.0f, blocked, NULL, NULL);
    assert_non_null(mesh);
    uint32_t per = files * rows, n = 2u * per;
    assert_true(n <= MAX_AGENTS);
    wf_crowd* c = crowd_test_create(mesh, n, jobs);
    wf_agent_params p = crowd_test_high_params();
    wf_agent_id ids[MAX_AGENTS];
    for (uint32_t i = 0; i < n; ++i) {
        bool west = i < per;
        uint32_t k = i % per;
        float dx = 0.8f + (float)(k / files) * GAP_ALONG;
        float z = MID_Z + ((float)(k % files) - 0.5f * (float)(files - 1u)) * gap_across;
        wf_vec3 start = wf_v3(west ? MID_X - dx : MID_X + dx, 0, z);
        wf_vec3 goal = wf_v3(west ? 2.0f * MID_X - 1.0f : 1.0f, 0, z);
        assert_int_equal(wf_crowd_add_agent(c, start, &p, &ids[i]), WF_OK);
        assert_int_equal(wf_crowd_request_move(c, ids[i], goal, NULL, NULL), WF_OK);
    }
    uint32_t count = crowd_test_run_streams(c, ids, n, per, MID_X + 4.0f, MID_X - 4.0f, p.radius,
                                            frames, 60, out_overlap);
    *out_hash = crowd_test_hash(c);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
    return count;
}

/// Three files of five each way, 1.25 m across, on 6 m of floor. Before
/// knot19: 25 of 30 got through in 12 s (the middle files stood face to
/// face); with the agreed side all 30.
static void test_blocks_in_line_pass(void** state) {
    (void)state;
    float overlap;
    uint64_t hash;
    uint32_t through = run_blocks(NULL, 6u, 3u, 5u, 1.25f, 30 * 12, &overlap, &hash);
    printf("6 m, 3 x 5 each way: %u of 30 through in 12 s, worst overlap %.3f m\n", through,
           (double)overlap);
    assert_true(through >= 29u);
    assert_true(overlap <= 0.15f);
}

/// Three files of four each way, 1.3 m across, on 12 m of open floor.
/// Before knot19: 18 of 24 through in 6 s; with it, 23.
static void test_blocks_in_line_pass_on_open_floor(void** state) {
    (void)state;
    float overlap;
    uint64_t hash;
    uint32_t through = run_blocks(NULL, 12u, 3u, 4u, 1.3f, 30 * 6, &overlap, &hash);
    printf("12 m, 3 x 4 each way: %u of 24 through in 6 s, worst overlap %.3f m\n", through,
           (double)overlap);
    assert_true(through >= 22u);
    assert_true(overlap <= 0.15f);
}

/// The run the worker counts are compared on.
static uint64_t hashed_run(const wf_job_system* jobs) {
    float overlap;
    uint64_t hash;
    run_blocks(jobs, 6u, 3u, 5u, 1.25f, 30 * 6, &overlap, &hash);
    return hash;
}

static void test_same_for_workers(void** state) {
    (void)state;
    crowd_test_same_for_workers(hashed_run);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blocks_in_line_pass),
        cmocka_unit_test(test_blocks_in_line_pass_on_open_floor),
        cmocka_unit_test(test_same_for_workers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
