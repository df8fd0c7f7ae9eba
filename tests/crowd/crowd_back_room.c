// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Two files meeting head-on in a lane a few agents wide (issue 14, nav22:
// nav_test500's busiest knot is such a lane, 2.5 to 3.2 m of navmesh). An
// agent making way for one coming head-on backs off only when nobody
// stands close behind it in its lane: backing into its own file pressed
// the file back into the lane's mouth and the two files stood. The scenes'
// agents (radius 0.6, 3.5 m/s, the HIGH preset); the same for any worker
// count.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "crowd_test_util.h"
#include "wayfarer/jobs.h"

#define CELLS 16u
#define PER_SIDE 18u
#define FILES 2u
#define MID_X 16.0f
#define MID_Z 8.0f

/// 32 m of floor (1 m cells), the 3 cells z = 7..10 wide (3 m for the
/// centres, about z = 8.5), open at no end. Two files of PER_SIDE agents a
/// side (1.4 m apart along, 1.2 m across) start on each side of x = 16 and
/// walk to the far end. Returns how many got 4 m past the middle within `frames`, the
/// worst overlap of two agents after the first two seconds, and the
/// crowd's hash.
static uint32_t run_files(const wf_job_system* jobs, int frames, float* out_overlap,
                          uint64_t* out_hash) {
    uint8_t blocked[CELLS * 2u * CELLS];
    for (uint32_t z = 0; z < CELLS; ++z) {
        for (uint32_t x = 0; x < 2u * CELLS; ++x) {
            blocked[z * 2u * CELLS + x] = z < 7u || z >= 10u;
        }
    }
    wf_mesh* mesh = test_mesh_grid(2, 1, CELLS, 1.0f, blocked, NULL, NULL);
    assert_non_null(mesh);
    wf_crowd* c = crowd_test_create(mesh, 2u * PER_SIDE, jobs);
    wf_agent_params p = crowd_test_high_params();
    wf_agent_id ids[2u * PER_SIDE];
    crowd_test_add_files(c, &p, ids, PER_SIDE, FILES, MID_X, MID_Z + 0.5f, 0.0f);
    uint32_t count = crowd_test_run_streams(c, ids, 2u * PER_SIDE, PER_SIDE, MID_X + 4.0f,
                                            MID_X - 4.0f, p.radius, frames, 60, out_overlap);
    *out_hash = crowd_test_hash(c);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
    return count;
}

/// Before nav22 7 of the 36 got through in 20 s (those making way backed
/// into their own files, which stood in the lane); with it 16.
static void test_files_pass_in_a_three_metre_lane(void** state) {
    (void)state;
    float overlap;
    uint64_t hash;
    uint32_t through = run_files(NULL, 30 * 20, &overlap, &hash);
    printf("3 m lane: %u of %u through in 20 s, worst overlap %.3f m\n", through, 2u * PER_SIDE,
           (double)overlap);
    assert_true(through >= 12u);
    assert_true(overlap <= 0.15f);
}

/// The run the worker counts are compared on.
static uint64_t hashed_run(const wf_job_system* jobs) {
    float overlap;
    uint64_t hash;
    run_files(jobs, 30 * 8, &overlap, &hash);
    return hash;
}

static void test_same_for_workers(void** state) {
    (void)state;
    crowd_test_same_for_workers(hashed_run);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_files_pass_in_a_three_metre_lane),
        cmocka_unit_test(test_same_for_workers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
