// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Two files meeting head-on at a narrowing of a walled lane (issue 14,
// file27: nav_test500's west lane narrows to 1.55-1.77 m of room for
// centres where its two streams meet). The head of the file without the
// way waits for the other stream; the agents close behind it in its own
// file wait with it (AGENT_FILE_WAITS), so the other stream comes through
// the narrowing instead of meeting the waiting file spread beside its head.
// The scenes' agents (radius 0.6, 3.5 m/s, the HIGH preset); the same for
// any worker count.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "crowd_test_util.h"
#include "wayfarer/jobs.h"

#define CELLS 64u
#define CELL 0.25f
#define PER_SIDE 8u
#define FILES 2u
#define MID_X 16.0f
#define MID_Z 8.125f

/// 32 m of floor (0.25 m cells), the lane z = 7..9.25 (2.25 m of room for
/// centres: a 3.45 m lane for 0.6 m bodies), narrowed to z = 7.25..9 (1.75 m
/// for centres, a 2.95 m lane) over x = 15.25..16.75. Two files of PER_SIDE agents a side,
/// two abreast, walk from either side of x = 16 to the far end. Returns how
/// many got 4 m past the middle within `frames`, the worst overlap after
/// the first two seconds, and the crowd's hash.
static uint32_t run_files(const wf_job_system* jobs, int frames, float* out_overlap,
                          uint64_t* out_hash) {
    uint8_t blocked[CELLS * 2u * CELLS];
    for (uint32_t z = 0; z < CELLS; ++z) {
        for (uint32_t x = 0; x < 2u * CELLS; ++x) {
            bool narrow = x >= 61u && x < 67u;
            blocked[z * 2u * CELLS + x] = narrow ? (z < 29u || z >= 36u) : (z < 28u || z >= 37u);
        }
    }
    wf_mesh* mesh = test_mesh_grid(2, 1, CELLS, CELL, blocked, NULL, NULL);
    assert_non_null(mesh);
    wf_crowd* c = crowd_test_create(mesh, 2u * PER_SIDE, jobs);
    wf_agent_params p = crowd_test_high_params();
    wf_agent_id ids[2u * PER_SIDE];
    crowd_test_add_files(c, &p, ids, PER_SIDE, FILES, MID_X, MID_Z, getenv("T_OFF") ? strtof(getenv("T_OFF"), NULL) : 0.0f);
    uint32_t count = crowd_test_run_streams(c, ids, 2u * PER_SIDE, PER_SIDE, MID_X + 4.0f,
                                            MID_X - 4.0f, p.radius, frames, 60, out_overlap);
    *out_hash = crowd_test_hash(c);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
    return count;
}

static void test_files_take_turns_at_a_narrowing(void** state) {
    (void)state;
    float overlap;
    uint64_t hash;
    for (int s = 5; s <= 20; s += 5) {
        uint32_t through = run_files(NULL, 30 * s, &overlap, &hash);
        printf("narrowing: %u of %u through in %d s, worst overlap %.3f m\n", through,
               2u * PER_SIDE, s, (double)overlap);
    }
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
        cmocka_unit_test(test_files_take_turns_at_a_narrowing),
        cmocka_unit_test(test_same_for_workers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
