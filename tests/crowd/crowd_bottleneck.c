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
    wf_crowd* c = crowd_test_create(mesh, 2u * PER_SIDE, jobs);
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
    int frames = crowd_test_run_through_wall(c, ids, goals, 2u * PER_SIDE, 15.0f, 16.0f, p.radius,
                                             max_frames, out_overlap);
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

/// The run the worker counts are compared on.
static uint64_t hashed_run(const wf_job_system* jobs) {
    float overlap;
    uint64_t hash;
    int frames = run_two_way(jobs, 30 * 20, &overlap, &hash);
    assert_int_equal(frames, 30 * 20); // mid-way: some still waiting their turn
    return hash;
}

static void test_two_way_doorway_same_for_workers(void** state) {
    (void)state;
    crowd_test_same_for_workers(hashed_run);
}

/// Two agents from one side come at the 1 m doorway abreast, one either
/// side of its axis, 1 m before the wall and 0.7 to 2 m off the axis.
/// One goes first and the other waits beside the mouth: each pair is
/// through in under 6 s (either alone takes about 4 s; pressing in side by
/// side they wedged at the jambs for up to 13.9 s). An idle agent with no
/// passage ahead is left standing.
static void test_two_abreast_from_one_side(void** state) {
    (void)state;
    wf_mesh* mesh = doorway_mesh();
    const float apart[5] = {0.7f, 0.9f, 1.1f, 1.4f, 2.0f};
    for (uint32_t k = 0; k < 10u; ++k) {
        wf_crowd_desc d = crowd_test_desc(mesh, 3);
        wf_crowd* c = NULL;
        assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
        wf_agent_params p = crowd_test_params();
        p.radius = 0.6f;
        float half = apart[k / 2u], behind = (k % 2u) * 0.3f; // the upper one nearer
        wf_agent_id ids[3];
        assert_int_equal(wf_crowd_add_agent(c, wf_v3(14.0f, 0, 4.5f - half), &p, &ids[0]), WF_OK);
        assert_int_equal(wf_crowd_add_agent(c, wf_v3(14.0f + behind, 0, 4.5f + half), &p, &ids[1]),
                         WF_OK);
        assert_int_equal(wf_crowd_add_agent(c, wf_v3(3.5f, 0, 8.5f), &p, &ids[2]), WF_OK);
        assert_int_equal(wf_crowd_request_move(c, ids[0], wf_v3(18.5f, 0, 3.5f), NULL, NULL),
                         WF_OK);
        assert_int_equal(wf_crowd_request_move(c, ids[1], wf_v3(18.5f, 0, 5.5f), NULL, NULL),
                         WF_OK);
        int frames = 0;
        for (; frames < 30 * 6; ++frames) {
            assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
            if (crowd_test_state(c, ids[0]).target_state == WF_TARGET_ARRIVED &&
                crowd_test_state(c, ids[1]).target_state == WF_TARGET_ARRIVED) {
                break;
            }
        }
        printf("abreast %.1f m apart%s: through in %.2f s\n", (double)(2.0f * half),
               k % 2u ? ", upper one 0.3 m nearer" : "", (double)((float)frames * DT));
        assert_true(frames < 30 * 6);
        // The idle third agent, far from the doorway, never moved.
        wf_agent_state idle = crowd_test_state(c, ids[2]);
        assert_float_equal(idle.position.x, 3.5f, 1e-6f);
        assert_float_equal(idle.position.z, 8.5f, 1e-6f);
        wf_crowd_destroy(c);
    }
    wf_mesh_destroy(mesh);
}

/// A 30 x 10 m room of 0.5 m cells cut by a wall at x = 15 with one open
/// cell at z = 4: a mouth of 0.5 m leaves the
/// centres of agents of radius 0.6 no room to stand abreast in it (they
/// would overlap by 0.7 m), as in a tile cache navmesh's 2 m door (0.6 m
/// left after the erosion).
static wf_mesh* narrow_mouth_mesh(void) {
    uint8_t blocked[20 * 60];
    for (uint32_t z = 0; z < 20; ++z) {
        for (uint32_t x = 0; x < 60; ++x) {
            blocked[z * 60 + x] = x == 30 && z != 8;
        }
    }
    return test_mesh_grid(3, 1, 20, 0.5f, blocked, NULL, NULL);
}

/// `count` agents in rows of `row` (1.4 m apart, the first row 2 m before
/// the wall) all go one way through the mouth, each to its start
/// mirrored about the wall; returns the frames until every one is
/// through (max_frames when not).
static int run_one_way(uint32_t count, uint32_t row, int max_frames) {
    wf_mesh* mesh = narrow_mouth_mesh();
    wf_crowd_desc d = crowd_test_desc(mesh, count);
    wf_crowd* c = NULL;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    p.radius = 0.6f;
    p.collision_query_range = p.radius * 12.0f;
    wf_agent_id ids[16];
    wf_vec3 goals[16];
    const float mouth_z = 4.25f;
    for (uint32_t i = 0; i < count; ++i) {
        float dx = 2.0f + (float)(i / row) * 1.4f;
        float z = mouth_z + ((float)(i % row) - 0.5f * (float)(row - 1u)) * 1.4f;
        goals[i] = wf_v3(15.5f + dx, 0, z);
        assert_int_equal(wf_crowd_add_agent(c, wf_v3(15.0f - dx, 0, z), &p, &ids[i]), WF_OK);
        assert_int_equal(wf_crowd_request_move(c, ids[i], goals[i], NULL, NULL), WF_OK);
    }
    int frames = max_frames;
    bool through[16] = {false};
    for (int f = 0; f < max_frames; ++f) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        bool all = true;
        for (uint32_t i = 0; i < count; ++i) {
            through[i] |= crowd_test_state(c, ids[i]).position.x > 16.1f;
            all &= through[i];
        }
        if (all) {
            frames = f + 1;
            break;
        }
    }
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
    return frames;
}

/// One way through a mouth of 0.5 m (no room for two centres abreast):
/// 8, 12 or 16 agents in rows of 2, 3 or 4. The file's first one, held at
/// its jamb, and one pressing in at the other jamb (about 1.2 radii further
/// out, not counted abreast at 1 radius) froze there for good: 5 of the
/// 9 files were through within 60 s (the rest never), 8 with the rule at
/// 1.5 radii. With the squeeze into held blocks (crowd_motion.c) and
/// two-abreast doorways (bottleneck.c) also on main: 6 at 1 radius, 7 at
/// 1.5; the stragglers are lone agents at a jamb's corner (docs/crowd.md).
static void test_one_way_through_a_narrow_mouth(void** state) {
    (void)state;
    uint32_t done = 0;
    for (uint32_t row = 2; row <= 4u; ++row) {
        for (uint32_t count = 8; count <= 16u; count += 4u) {
            int frames = run_one_way(count, row, 30 * 60);
            printf("one way, 0.5 m mouth, %u in rows of %u: through in %.2f s\n", count, row,
                   (double)((float)frames * DT));
            done += frames < 30 * 60;
        }
    }
    assert_true(done >= 7u);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_way_single_file_doorway),
        cmocka_unit_test(test_two_way_doorway_same_for_workers),
        cmocka_unit_test(test_two_abreast_from_one_side),
        cmocka_unit_test(test_one_way_through_a_narrow_mouth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
