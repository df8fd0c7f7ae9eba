// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Two-way knots on open floor (issue 14, knot17): files of the scenes'
// agents (radius 0.6, 3.5 m/s, the HIGH preset) meeting head-on in a
// passage wide enough for several abreast pass each other, shoulder to
// shoulder where they must, instead of one stream standing face to face
// with the other or shoving it back; the same for any worker count.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "crowd_test_util.h"
#include "wayfarer/jobs.h"

#define CELLS 16u
#define PER_SIDE 16u
#define FILES 3u
#define MID_X 16.0f
#define MID_Z 8.0f

/// 32 m of floor (1 m cells) `width` cells wide about z = 8, open at no
/// end. Three files of PER_SIDE agents (1.4 m apart along, 1.2 m across)
/// start on each side of x = 16, the west ones `offset` m further right
/// (+z) than the east ones, and walk to the far end. Returns how many got
/// 4 m past the middle within `frames`, the worst overlap of two agents
/// after the first two seconds, and the crowd's hash.
static uint32_t run_files(const wf_job_system* jobs, uint32_t width, float offset, int frames,
                          float* out_overlap, uint64_t* out_hash) {
    uint8_t blocked[CELLS * 2u * CELLS];
    uint32_t first = (CELLS - width) / 2u;
    for (uint32_t z = 0; z < CELLS; ++z) {
        for (uint32_t x = 0; x < 2u * CELLS; ++x) {
            blocked[z * 2u * CELLS + x] = z < first || z >= first + width;
        }
    }
    wf_mesh* mesh = test_mesh_grid(2, 1, CELLS, 1.0f, blocked, NULL, NULL);
    assert_non_null(mesh);
    wf_crowd* c = crowd_test_create(mesh, 2u * PER_SIDE, jobs);
    wf_agent_params p = crowd_test_high_params();
    wf_agent_id ids[2u * PER_SIDE];
    crowd_test_add_files(c, &p, ids, PER_SIDE, FILES, MID_X, MID_Z, offset);
    uint32_t count = crowd_test_run_streams(c, ids, 2u * PER_SIDE, PER_SIDE, MID_X + 4.0f,
                                            MID_X - 4.0f, p.radius, frames, 60, out_overlap);
    *out_hash = crowd_test_hash(c);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
    return count;
}

/// 5 m of floor for the centres (6.2 m between walls), files 0.3 m off
/// each other's lines. Before knot17 21 of the 32 got through in 20 s
/// (the east stream shoved the west one back to its start); with it, 32
/// (worst overlap 0.041 m on its branch, 0.093 m merged with hold17).
static void test_files_pass_on_open_floor(void** state) {
    (void)state;
    float overlap;
    uint64_t hash;
    uint32_t through = run_files(NULL, 5u, 0.3f, 30 * 20, &overlap, &hash);
    printf("open floor: %u of %u through in 20 s, worst overlap %.3f m\n", through, 2u * PER_SIDE,
           (double)overlap);
    assert_true(through >= 30u);
    assert_true(overlap <= 0.15f);
}

/// 4 m for the centres: before knot17 22 of 32 in 20 s; with it, 32 on
/// its branch and 30 merged with hold17 (the files' agents share goal
/// points, so held agents spread to shared spots in the way).
static void test_files_pass_in_a_wide_lane(void** state) {
    (void)state;
    float overlap;
    uint64_t hash;
    uint32_t through = run_files(NULL, 4u, 0.3f, 30 * 20, &overlap, &hash);
    printf("4 m lane: %u of %u through in 20 s, worst overlap %.3f m\n", through, 2u * PER_SIDE,
           (double)overlap);
    assert_true(through >= 30u);
    assert_true(overlap <= 0.15f);
}

/// The run the worker counts are compared on.
static uint64_t hashed_run(const wf_job_system* jobs) {
    float overlap;
    uint64_t hash;
    run_files(jobs, 5u, 0.3f, 30 * 8, &overlap, &hash);
    return hash;
}

static void test_same_for_workers(void** state) {
    (void)state;
    crowd_test_same_for_workers(hashed_run);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_files_pass_on_open_floor),
        cmocka_unit_test(test_files_pass_in_a_wide_lane),
        cmocka_unit_test(test_same_for_workers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
