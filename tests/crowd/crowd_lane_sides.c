// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Two streams meeting head-on in a lane three agents wide, each spread
// over the lane's width (issue 14, nav23: nav_test500's busiest knot is
// such a lane, 2.5 to 3.2 m of navmesh).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "crowd_test_util.h"
#include "wayfarer/jobs.h"

#define CELLS 16u
#define PER_SIDE 15u
#define ABREAST 3u
#define MID_X 16.0f

static uint32_t run_lane(const wf_job_system* jobs, int frames, float* out_overlap,
                         uint64_t* out_hash) {
    uint32_t z0 = (uint32_t)atoi(getenv("L_Z0") ? getenv("L_Z0") : "6");
    uint32_t z1 = (uint32_t)atoi(getenv("L_Z1") ? getenv("L_Z1") : "9");
    uint32_t nar = (uint32_t)atoi(getenv("L_NAR") ? getenv("L_NAR") : "0");
    uint32_t per = (uint32_t)atoi(getenv("L_PER") ? getenv("L_PER") : "15");
    float gap = (float)atof(getenv("L_GAP") ? getenv("L_GAP") : "1.4");
    uint8_t blocked[CELLS * 2u * CELLS];
    for (uint32_t z = 0; z < CELLS; ++z) {
        for (uint32_t x = 0; x < 2u * CELLS; ++x) {
            bool lane = z >= z0 && z < z1;
            bool pinch = nar && x >= 15u && x < 15u + nar && z == z0;
            blocked[z * 2u * CELLS + x] = !lane || pinch;
        }
    }
    wf_mesh* mesh = test_mesh_grid(2, 1, CELLS, 1.0f, blocked, NULL, NULL);
    assert_non_null(mesh);
    wf_crowd_desc d = crowd_test_desc(mesh, 2u * per);
    if (jobs != NULL) {
        d.jobs = *jobs;
    }
    wf_crowd* c = NULL;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_scene_params();
    p.avoidance_preset = WF_AVOIDANCE_HIGH;
    wf_agent_id ids[64];
    float width = (float)(z1 - z0);
    for (uint32_t i = 0; i < 2u * per; ++i) {
        bool west = i < per;
        uint32_t k = i % per;
        float dx = 2.0f + (float)(k / ABREAST) * gap;
        // Spread over the width, each row shifted, and each agent heading
        // for another line than the one it starts on.
        float across = ((float)(k % ABREAST) + 0.5f) / (float)ABREAST;
        float z = (float)z0 + 0.6f + across * (width - 1.2f);
        float to = (float)z0 + 0.6f + (1.0f - across) * (width - 1.2f);
        wf_vec3 start = wf_v3(west ? MID_X - dx : MID_X + dx, 0, z);
        wf_vec3 goal = wf_v3(west ? 2.0f * MID_X - 1.0f : 1.0f, 0, to);
        assert_int_equal(wf_crowd_add_agent(c, start, &p, &ids[i]), WF_OK);
        assert_int_equal(wf_crowd_request_move(c, ids[i], goal, NULL, NULL), WF_OK);
    }
    uint32_t count = crowd_test_run_streams(c, ids, 2u * per, per, MID_X + 6.0f, MID_X - 6.0f,
                                            p.radius, frames, 60, out_overlap);
    *out_hash = crowd_test_hash(c);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
    return count;
}

static void test_streams_pass(void** state) {
    (void)state;
    float overlap;
    uint64_t hash;
    int secs = atoi(getenv("L_SECS") ? getenv("L_SECS") : "20");
    for (int s = 5; s <= secs; s += 5) {
        uint32_t through = run_lane(NULL, 30 * s, &overlap, &hash);
        printf("lane: %u through in %d s, worst overlap %.3f m\n", through, s, (double)overlap);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_streams_pass),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
