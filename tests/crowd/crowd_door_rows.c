// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Two rows through a 2 m door (crowd/bottleneck.c): ten agents a side, in
// two rows of five facing a doorway too narrow for two, swap sides (each
// goes to its start mirrored about the wall and 4.5 m further back, so
// those waiting their turn stand in the way of the others). All get
// through within a bound in simulated time, without deep overlaps.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "crowd_test_util.h"

#define DT (1.0f / 30.0f)
#define PER_SIDE 10u
#define CELL 0.8f
/// The wall's column of cells and the doorway's row (3 x 1 tiles of 16).
#define WALL_X 24u
#define DOOR_Z 8u

/// A 38.4 x 12.8 m grid cut by a wall one cell thick with one open cell:
/// 0.8 m of navmesh, what a tile cache builds of a 2 m door eroded by an
/// agent radius of 0.6 (as in `wayfarer scenarios`, door_2way_2).
static wf_mesh* door_mesh(void) { return crowd_test_door_mesh(1, 16, CELL, WALL_X, DOOR_Z); }

/// Runs until every agent has got through the door (latched) or
/// max_frames; returns the frames taken (max_frames when not all did) and
/// the worst overlap of two agents after the first two seconds.
static int run_rows(int max_frames, float* out_overlap, uint32_t* out_through) {
    wf_mesh* mesh = door_mesh();
    assert_non_null(mesh);
    wf_crowd* c = crowd_test_create(mesh, 2u * PER_SIDE, NULL);
    wf_agent_params p = crowd_test_high_params();
    const float wall = ((float)WALL_X + 0.5f) * CELL, door = ((float)DOOR_Z + 0.5f) * CELL;
    wf_agent_id ids[2u * PER_SIDE];
    wf_vec3 goals[2u * PER_SIDE];
    for (uint32_t i = 0; i < 2u * PER_SIDE; ++i) {
        float side = i < PER_SIDE ? -1.0f : 1.0f;
        uint32_t k = i % PER_SIDE;
        float back = 3.0f + (float)(k / 5u) * 1.5f; // two rows, 3 and 4.5 m from the wall
        float across = ((float)(k % 5u) - 2.0f) * 1.5f;
        wf_vec3 start = wf_v3(wall + side * back, 0, door + across);
        goals[i] = wf_v3(wall - side * (back + 4.5f), 0, door + across);
        assert_int_equal(wf_crowd_add_agent(c, start, &p, &ids[i]), WF_OK);
        assert_int_equal(wf_crowd_request_move(c, ids[i], goals[i], NULL, NULL), WF_OK);
    }
    float worst = 0.0f;
    int frames = max_frames;
    bool reached[2u * PER_SIDE] = {false};
    uint32_t arrived = 0;
    for (int f = 0; f < max_frames && arrived < 2u * PER_SIDE; ++f) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        arrived = 0;
        for (uint32_t i = 0; i < 2u * PER_SIDE; ++i) {
            wf_agent_state si = crowd_test_state(c, ids[i]);
            // Through: clear of the wall (a radius beyond it) on the goal's side.
            float beyond = (si.position.x - wall) * (goals[i].x > wall ? 1.0f : -1.0f);
            reached[i] |= beyond > 0.5f * CELL + p.radius;
            arrived += reached[i] ? 1u : 0u;
            for (uint32_t j = i + 1; j < 2u * PER_SIDE && f >= 60; ++j) {
                wf_agent_state sj = crowd_test_state(c, ids[j]);
                float overlap = 2.0f * p.radius - crowd_test_dist2d(si.position, sj.position);
                worst = overlap > worst ? overlap : worst;
            }
        }
        if (arrived == 2u * PER_SIDE) {
            frames = f + 1;
        }
    }
    *out_overlap = worst;
    *out_through = arrived;
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
    return frames;
}

static void test_two_rows_each_way_through_a_2m_door(void** state) {
    (void)state;
    float overlap;
    uint32_t arrived;
    int frames = run_rows(30 * 60, &overlap, &arrived);
    printf("2 m door, two rows of five each way: %u of %u through, the last after %.2f s, "
           "worst overlap %.3f m\n",
           arrived, 2u * PER_SIDE, (double)((float)frames * DT), (double)overlap);
    // All through after 15.3 s; 32.0 s while those waiting stood in the
    // lane out of the mouth and nobody led the file through it.
    assert_int_equal(arrived, 2u * PER_SIDE);
    assert_true(frames < 30 * 24);
    assert_true(overlap < 0.15f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_rows_each_way_through_a_2m_door),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
