// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// One way through a single-file mouth (crowd/bottleneck.c): 40 agents in
// door_1way_1.5's block (8 x 5, 1.5 m apart, 3-9 m before the wall) walk
// through a doorway one body wide, nobody coming the other way, each to
// its start mirrored about the wall. A free file of them would pass about
// 2.9 a second; counted here: how many are through after 20 s of
// simulated time. WF_MOUTH_TRACE=1 prints every crossing and, every 0.2
// s, the agents within 2 m of the mouth (position and velocity relative
// to it, wanted velocity, stuck time, passage flags: G admitted, W
// waiting, L leading).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "crowd/crowd_internal.h"
#include "crowd_test_util.h"

#define DT (1.0f / 30.0f)
#define COUNT 40u
#define ROW 8u
#define CELL 0.5f
/// The wall's column of cells and the mouth's cell (3 x 2 tiles of 20).
#define WALL_X 30u
#define MOUTH_Z 14u

/// A 30 x 20 m grid cut by a wall one cell thick with one open cell: 0.5 m
/// of navmesh, what a tile cache builds of a door about 1.7 m wide eroded
/// by an agent radius of 0.6 (door_1way_1.5's is 0.3 m).
static wf_mesh* mouth_mesh(void) { return crowd_test_door_mesh(2, 20, CELL, WALL_X, MOUTH_Z); }

/// COUNT agents in rows of ROW (1.5 m apart, the first row 3 m before the
/// wall) go one way through the mouth. Returns how many are through (past
/// the wall's middle) after `seconds` of simulated time; *out_overlap: the
/// worst overlap of two agents after the first two seconds.
static uint32_t run_one_way(float seconds, uint32_t jitter, bool trace, float* out_overlap) {
    wf_mesh* mesh = mouth_mesh();
    assert_non_null(mesh);
    wf_crowd* c = crowd_test_create(mesh, COUNT, NULL);
    wf_agent_params p = crowd_test_high_params();
    const float wall = ((float)WALL_X + 0.5f) * CELL, mouth = ((float)MOUTH_Z + 0.5f) * CELL;
    wf_agent_id ids[COUNT];
    uint32_t lcg = jitter * 2654435761u + 1u;
    for (uint32_t i = 0; i < COUNT; ++i) {
        float back = 3.0f + (float)(i / ROW) * 1.5f;
        float across = ((float)(i % ROW) - 0.5f * (float)(ROW - 1u)) * 1.5f;
        if (jitter != 0u) {
            // Variant `jitter`: starts moved by up to 0.15 m each way (an LCG).
            lcg = lcg * 1664525u + 1013904223u;
            back += ((float)(lcg >> 8) / 16777216.0f - 0.5f) * 0.3f;
            lcg = lcg * 1664525u + 1013904223u;
            across += ((float)(lcg >> 8) / 16777216.0f - 0.5f) * 0.3f;
        }
        assert_int_equal(wf_crowd_add_agent(c, wf_v3(wall - back, 0, mouth + across), &p, &ids[i]),
                         WF_OK);
        assert_int_equal(
            wf_crowd_request_move(c, ids[i], wf_v3(wall + back, 0, mouth + across), NULL, NULL),
            WF_OK);
    }
    bool through[COUNT] = {false};
    uint32_t count = 0;
    float worst = 0.0f;
    int frames = (int)(seconds / DT + 0.5f);
    for (int f = 0; f < frames; ++f) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        for (uint32_t i = 0; i < COUNT; ++i) {
            wf_agent_state s = crowd_test_state(c, ids[i]);
            if (!through[i] && s.position.x > wall) {
                through[i] = true;
                count++;
                if (trace) {
                    printf("%6.2f through: agent %u (%u)\n", (double)((float)(f + 1) * DT), i,
                           count);
                }
            }
        }
        if (f >= 60) {
            float now = crowd_test_worst_overlap(c, ids, COUNT, p.radius);
            worst = now > worst ? now : worst;
        }
        if (trace && (f + 1) % 6 == 0) {
            printf("t %.2f\n", (double)((float)(f + 1) * DT));
            for (uint32_t i = 0; i < COUNT; ++i) {
                wf_agent_state s = crowd_test_state(c, ids[i]);
                float dx = s.position.x - wall, dz = s.position.z - mouth;
                if (dx * dx + dz * dz > 4.0f) {
                    continue;
                }
                uint32_t fl = c->agent_flags[i]; // slots follow the adding order here
                printf("  %2u at %5.2f %5.2f v %5.2f %5.2f (%4.2f) want %5.2f %5.2f (%4.2f) "
                       "stuck %4.2f %s%s%s\n",
                       i, (double)dx, (double)dz, (double)s.velocity.x, (double)s.velocity.z,
                       (double)wf_v2_length(s.velocity), (double)s.desired_velocity.x,
                       (double)s.desired_velocity.z, (double)wf_v2_length(s.desired_velocity),
                       (double)s.stuck_time, (fl & AGENT_PINCH_GO) ? "G" : "",
                       (fl & AGENT_WAITS_PINCH) ? "W" : "", (fl & AGENT_PINCH_LEAD) ? "L" : "");
            }
        }
    }
    *out_overlap = worst;
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
    return count;
}

static void test_one_way_mouth_throughput(void** state) {
    (void)state;
    float overlap;
    uint32_t through = run_one_way(20.0f, 0u, getenv("WF_MOUTH_TRACE") != NULL, &overlap);
    printf("one way through a 0.5 m mouth: %u of %u through in 20 s, worst overlap %.3f m\n",
           through, COUNT, (double)overlap);
    // 36 through, 1.8 a second (37 when the agents beside the mouth first
    // kept off its axis, before this session's lane price moved the run;
    // 31 before that); 21 while the file's leader avoided the agents
    // pressing in beside the mouth (crowd_motion.c, avoidance).
    assert_true(through >= 27u);
    assert_true(overlap < 0.15f);
}

/// Six variants of the scene (starts jittered by up to 0.15 m): the count
/// of one run swings by about 2, so the sum tells a gain from noise.
/// Agents abreast of the file's leader at the mouth keep off its axis
/// while it goes in (bottleneck.c, wf_crowd_pinch_beside_velocity): 213
/// through in the six runs when that came in, 208 since the lane price
/// (flow28, flow28b); 183 while they pressed in from the wall beside the
/// mouth, touching the leader in two of three frames it spent there.
static void test_one_way_mouth_variants(void** state) {
    (void)state;
    uint32_t sum = 0;
    float worst = 0.0f;
    for (uint32_t v = 1u; v <= 6u; ++v) {
        float overlap;
        uint32_t through = run_one_way(20.0f, v, false, &overlap);
        printf("variant %u: %u of %u through, worst overlap %.3f m\n", v, through, COUNT,
               (double)overlap);
        sum += through;
        worst = overlap > worst ? overlap : worst;
    }
    printf("six variants: %u through\n", sum);
    assert_true(sum >= 198u);
    assert_true(worst < 0.15f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_way_mouth_throughput),
        cmocka_unit_test(test_one_way_mouth_variants),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
