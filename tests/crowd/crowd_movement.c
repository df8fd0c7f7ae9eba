// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Agents moving: arrival, a head-on pair, 32 agents swapping across a
// circle, two-way flow in a corridor, partial paths, velocity requests,
// agents added and removed while others move, a doorway narrower than the
// agents.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "crowd_test_util.h"

#define DT (1.0f / 30.0f)

typedef struct counters {
    int results, partial_results, blocked, done;
    float last_cost;
} counters;

static bool on_result(wf_agent_id agent, const wf_path_info* info, void* user) {
    (void)agent;
    counters* c = user;
    c->results++;
    c->partial_results += info->partial;
    c->last_cost = info->cost;
    return true;
}

static bool on_blocked(wf_agent_id agent, void* user) {
    (void)agent;
    ((counters*)user)->blocked++;
    return true;
}

static bool on_done(wf_agent_id agent, void* user) {
    (void)agent;
    ((counters*)user)->done++;
    return false;
}

static const wf_move_callbacks callbacks = {on_result, on_blocked, on_done};

static wf_crowd* make_crowd(const wf_mesh* mesh, uint32_t max_agents) {
    wf_crowd_desc d = crowd_test_desc(mesh, max_agents);
    wf_crowd* c = NULL;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    return c;
}

static void test_one_agent_arrives_and_stops(void** state) {
    (void)state;
    wf_mesh* mesh = test_mesh_grid(2, 2, 10, 1.0f, NULL, NULL, NULL);
    wf_crowd* c = make_crowd(mesh, 4);
    wf_agent_params p = crowd_test_params();
    wf_agent_id a;
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(2.5f, 0, 2.5f), &p, &a), WF_OK);
    counters n = {0};
    wf_vec3 target = wf_v3(17.5f, 0, 15.5f);
    assert_int_equal(wf_crowd_request_move(c, a, target, &callbacks, &n), WF_OK);
    assert_int_equal(crowd_test_state(c, a).target_state, WF_TARGET_REQUESTED);
    int arrived_frame = -1;
    for (int frame = 0; frame < 600; ++frame) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        wf_agent_state s = crowd_test_state(c, a);
        if (arrived_frame < 0 && s.target_state == WF_TARGET_ARRIVED) {
            arrived_frame = frame;
        }
    }
    wf_agent_state s = crowd_test_state(c, a);
    assert_int_equal(n.results, 1);
    assert_int_equal(n.partial_results, 0);
    assert_int_equal(n.done, 1);
    assert_int_equal(n.blocked, 0);
    assert_int_equal(s.target_state, WF_TARGET_ARRIVED);
    assert_true(crowd_test_dist2d(s.position, target) <= p.radius);
    assert_true(wf_v3_length(s.velocity) < 1e-3f); // stopped
    // Straight distance 19.6 m at 2 m/s: about 10 s, a little more to
    // accelerate and slow down.
    float seconds = (float)arrived_frame * DT;
    assert_true(seconds > 9.0f && seconds < 13.0f);
    // The cost reported is the polygon path's length: at least the straight line.
    assert_true(n.last_cost >= 19.0f);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

/// Runs until every agent arrived (or max_frames); returns the frames
/// taken and the smallest distance between two agents minus their radii.
static int run_until_arrived(wf_crowd* c, const wf_agent_id* ids, uint32_t count, int max_frames,
                             float* out_min_gap) {
    float min_gap = INFINITY;
    for (int frame = 0; frame < max_frames; ++frame) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        bool all = true;
        for (uint32_t i = 0; i < count; ++i) {
            wf_agent_state si = crowd_test_state(c, ids[i]);
            assert_true(wf_v3_is_finite(si.position));
            all &= si.target_state == WF_TARGET_ARRIVED;
            for (uint32_t j = i + 1; j < count; ++j) {
                wf_agent_state sj = crowd_test_state(c, ids[j]);
                float gap = crowd_test_dist2d(si.position, sj.position) - si.params.radius -
                            sj.params.radius;
                min_gap = gap < min_gap ? gap : min_gap;
            }
        }
        if (all) {
            *out_min_gap = min_gap;
            return frame + 1;
        }
    }
    *out_min_gap = min_gap;
    return max_frames;
}

static void test_head_on_pair_passes(void** state) {
    (void)state;
    wf_mesh* mesh = test_mesh_grid(2, 2, 10, 1.0f, NULL, NULL, NULL);
    wf_crowd* c = make_crowd(mesh, 4);
    wf_agent_params p = crowd_test_params();
    wf_agent_id ids[2];
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(2.5f, 0, 10.0f), &p, &ids[0]), WF_OK);
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(17.5f, 0, 10.0f), &p, &ids[1]), WF_OK);
    assert_int_equal(wf_crowd_request_move(c, ids[0], wf_v3(17.5f, 0, 10.0f), NULL, NULL), WF_OK);
    assert_int_equal(wf_crowd_request_move(c, ids[1], wf_v3(2.5f, 0, 10.0f), NULL, NULL), WF_OK);
    float gap;
    int frames = run_until_arrived(c, ids, 2, 900, &gap);
    printf("head-on: %.2f s, smallest gap %.3f m\n", (double)((float)frames * DT), (double)gap);
    assert_true(frames < 900);
    assert_true(gap > -0.05f); // passed without overlapping (beyond a small tolerance)
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

static void test_circle_of_32_swaps(void** state) {
    (void)state;
    wf_mesh* mesh = test_mesh_grid(3, 3, 10, 1.0f, NULL, NULL, NULL);
    wf_crowd* c = make_crowd(mesh, 32);
    wf_agent_params p = crowd_test_params();
    wf_agent_id ids[32];
    const float cx = 15.0f, cz = 15.0f, radius = 11.0f;
    for (uint32_t i = 0; i < 32; ++i) {
        float a = (float)i * 6.2831853f / 32.0f;
        wf_vec3 start = wf_v3(cx + radius * cosf(a), 0, cz + radius * sinf(a));
        assert_int_equal(wf_crowd_add_agent(c, start, &p, &ids[i]), WF_OK);
        wf_vec3 goal = wf_v3(cx - radius * cosf(a), 0, cz - radius * sinf(a));
        assert_int_equal(wf_crowd_request_move(c, ids[i], goal, NULL, NULL), WF_OK);
    }
    float gap;
    int frames = run_until_arrived(c, ids, 32, 30 * 60, &gap);
    printf("circle of 32: all arrived in %.2f s (straight: %.1f s), smallest gap %.3f m\n",
           (double)((float)frames * DT), (double)(2.0f * radius / p.max_speed), (double)gap);
    assert_true(frames < 30 * 60); // within a minute (straight across: 11 s)
    // Dense centre: ORCA's own Circle example overlaps by 22 % of the
    // diameter; the collision passes keep ours well under half of it.
    assert_true(gap > -0.4f * p.radius);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

static void test_two_way_corridor_flow(void** state) {
    (void)state;
    // A corridor 4 m wide and 30 m long: walls along z < 3 and z >= 7.
    uint8_t blocked[30 * 10];
    for (uint32_t z = 0; z < 10; ++z) {
        for (uint32_t x = 0; x < 30; ++x) {
            blocked[z * 30 + x] = z < 3 || z >= 7;
        }
    }
    wf_mesh* mesh = test_mesh_grid(3, 1, 10, 1.0f, blocked, NULL, NULL);
    wf_crowd* c = make_crowd(mesh, 16);
    wf_agent_params p = crowd_test_params();
    wf_agent_id ids[16];
    for (uint32_t i = 0; i < 16; ++i) {
        bool east = i < 8;
        float x = east ? 1.0f + (float)(i % 4) : 29.0f - (float)(i % 4);
        float z = 3.5f + (float)((i / 4) % 2) * 2.5f;
        assert_int_equal(wf_crowd_add_agent(c, wf_v3(x, 0, z), &p, &ids[i]), WF_OK);
        // The agent in front takes the furthest goal: nobody has to pass
        // an agent of its own group that already stopped.
        float k = (float)(i % 4) * 1.5f;
        wf_vec3 goal = wf_v3(east ? 23.5f + k : 6.5f - k, 0, z);
        assert_int_equal(wf_crowd_request_move(c, ids[i], goal, NULL, NULL), WF_OK);
    }
    float gap;
    int frames = run_until_arrived(c, ids, 16, 30 * 90, &gap);
    printf("corridor flow: 16 agents through each other in %.2f s, smallest gap %.3f m\n",
           (double)((float)frames * DT), (double)gap);
    assert_true(frames < 30 * 90);
    assert_true(gap > -0.4f * p.radius);
    for (uint32_t i = 0; i < 16; ++i) {
        wf_agent_state s = crowd_test_state(c, ids[i]);
        assert_true(s.position.z > 3.0f - 1e-3f && s.position.z < 7.0f + 1e-3f); // inside
    }
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

static void test_unreachable_target_gives_partial_result(void** state) {
    (void)state;
    // A closed ring of walls around cells x, z in [13, 16].
    uint8_t blocked[20 * 20] = {0};
    for (uint32_t k = 12; k <= 17; ++k) {
        blocked[12 * 20 + k] = blocked[17 * 20 + k] = 1;
        blocked[k * 20 + 12] = blocked[k * 20 + 17] = 1;
    }
    wf_mesh* mesh = test_mesh_grid(2, 2, 10, 1.0f, blocked, NULL, NULL);
    wf_crowd* c = make_crowd(mesh, 2);
    wf_agent_params p = crowd_test_params();
    wf_agent_id a;
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(2.5f, 0, 2.5f), &p, &a), WF_OK);
    counters n = {0};
    assert_int_equal(wf_crowd_request_move(c, a, wf_v3(14.5f, 0, 14.5f), &callbacks, &n), WF_OK);
    for (int frame = 0; frame < 450; ++frame) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
    }
    wf_agent_state s = crowd_test_state(c, a);
    assert_int_equal(n.results, 1);
    assert_int_equal(n.partial_results, 1);
    assert_true(s.corridor_partial);
    // It went as near as it could: next to the ring, not inside.
    assert_true(crowd_test_dist2d(s.position, wf_v3(14.5f, 0, 14.5f)) < 4.0f);
    assert_true(s.position.x < 12.0f || s.position.z < 12.0f);
    assert_int_equal(n.done, 1); // arriving at the end of a partial path is done too
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

static bool reject_partial(wf_agent_id agent, const wf_path_info* info, void* user) {
    (void)agent;
    (void)user;
    return !info->partial;
}

static void test_rejected_result_stops_the_agent(void** state) {
    (void)state;
    uint8_t blocked[20 * 20] = {0};
    for (uint32_t k = 0; k < 20; ++k) {
        blocked[k * 20 + 10] = 1; // a wall cutting the level in two
    }
    wf_mesh* mesh = test_mesh_grid(2, 2, 10, 1.0f, blocked, NULL, NULL);
    wf_crowd* c = make_crowd(mesh, 2);
    wf_agent_params p = crowd_test_params();
    wf_agent_id a;
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(2.5f, 0, 2.5f), &p, &a), WF_OK);
    wf_move_callbacks cb = {.result = reject_partial};
    assert_int_equal(wf_crowd_request_move(c, a, wf_v3(17.5f, 0, 2.5f), &cb, NULL), WF_OK);
    for (int frame = 0; frame < 120; ++frame) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
    }
    wf_agent_state s = crowd_test_state(c, a);
    assert_int_equal(s.target_state, WF_TARGET_FAILED);
    assert_true(crowd_test_dist2d(s.position, wf_v3(2.5f, 0, 2.5f)) < 1.0f);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

static void test_velocity_request_and_cancel(void** state) {
    (void)state;
    wf_mesh* mesh = test_mesh_grid(2, 2, 10, 1.0f, NULL, NULL, NULL);
    wf_crowd* c = make_crowd(mesh, 2);
    wf_agent_params p = crowd_test_params();
    wf_agent_id a;
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(2.5f, 0, 10.0f), &p, &a), WF_OK);
    assert_int_equal(wf_crowd_request_velocity(c, a, wf_v3(5.0f, 0, 0)), WF_OK); // over max speed
    for (int frame = 0; frame < 60; ++frame) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
    }
    wf_agent_state s = crowd_test_state(c, a);
    assert_int_equal(s.target_state, WF_TARGET_VELOCITY);
    assert_float_equal(s.velocity.x, p.max_speed, 1e-3f);    // clamped to max speed
    assert_true(s.position.x > 5.5f && s.position.x < 6.5f); // ~2 m/s for 2 s, less accel
    // Straight into the boundary: it slides along, never leaves the mesh.
    for (int frame = 0; frame < 300; ++frame) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
    }
    s = crowd_test_state(c, a);
    assert_true(s.position.x <= 20.0f + 1e-3f);
    assert_int_equal(wf_crowd_cancel_move(c, a), WF_OK);
    for (int frame = 0; frame < 30; ++frame) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
    }
    s = crowd_test_state(c, a);
    assert_int_equal(s.target_state, WF_TARGET_NONE);
    assert_true(wf_v3_length(s.velocity) < 1e-3f);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

static void test_agents_added_and_removed_while_moving(void** state) {
    (void)state;
    wf_mesh* mesh = test_mesh_grid(3, 3, 10, 1.0f, NULL, NULL, NULL);
    wf_crowd* c = make_crowd(mesh, 24);
    wf_agent_params p = crowd_test_params();
    wf_agent_id ids[24];
    uint32_t seed = 7;
    for (uint32_t i = 0; i < 24; ++i) {
        float x = 1.5f + (float)(i % 6) * 4.5f, z = 1.5f + (float)(i / 6) * 6.0f;
        assert_int_equal(wf_crowd_add_agent(c, wf_v3(x, 0, z), &p, &ids[i]), WF_OK);
        assert_int_equal(wf_crowd_request_move(c, ids[i], wf_v3(29 - x, 0, 29 - z), NULL, NULL),
                         WF_OK);
    }
    for (int frame = 0; frame < 600; ++frame) {
        if (frame % 10 == 5) {
            seed = seed * 1103515245u + 12345u;
            uint32_t k = (seed >> 16) % 24;
            assert_int_equal(wf_crowd_remove_agent(c, ids[k]), WF_OK);
            assert_int_equal(wf_crowd_get_agent(c, ids[k], &(wf_agent_state){0}), WF_ERR_STALE_REF);
            float x = 1.5f + (float)((seed >> 8) % 27), z = 1.5f + (float)((seed >> 20) % 27);
            assert_int_equal(wf_crowd_add_agent(c, wf_v3(x, 0, z), &p, &ids[k]), WF_OK);
            assert_int_equal(wf_crowd_request_move(c, ids[k], wf_v3(z, 0, x), NULL, NULL), WF_OK);
        }
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        assert_int_equal(wf_crowd_agent_count(c), 24);
        for (uint32_t i = 0; i < 24; ++i) {
            wf_agent_state s = crowd_test_state(c, ids[i]);
            assert_true(wf_v3_is_finite(s.position));
            assert_true(s.position.x >= 0.0f && s.position.x <= 30.0f);
            assert_true(s.position.z >= 0.0f && s.position.z <= 30.0f);
            assert_int_equal(s.mode, WF_AGENT_WALKING);
            assert_true(s.corridor_count >= 1);
            assert_true(wf_mesh_poly_is_valid(mesh, s.poly));
        }
    }
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

/// A 20 x 10 m grid cut by a wall at x = 10 with one open cell at z = 4:
/// a doorway 1 m wide on the navmesh. A tile cache navmesh is already
/// eroded by the agent radius, so such an opening is where a real doorway
/// of 1 m + 2 radii lets agents through; agents of radius 0.6 (wider than
/// the opening) must go through it, one after another, without wedging.
static void test_doorway_narrower_than_the_agent(void** state) {
    (void)state;
    uint8_t blocked[10 * 20];
    for (uint32_t z = 0; z < 10; ++z) {
        for (uint32_t x = 0; x < 20; ++x) {
            blocked[z * 20 + x] = x == 10 && z != 4;
        }
    }
    wf_mesh* mesh = test_mesh_grid(2, 1, 10, 1.0f, blocked, NULL, NULL);
    wf_crowd* c = make_crowd(mesh, 8);
    wf_agent_params p = crowd_test_params();
    p.radius = 0.6f;
    counters n = {0};
    wf_agent_id ids[6];
    // One agent coming at the doorway at an angle, along the wall.
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(2.5f, 0, 0.5f), &p, &ids[0]), WF_OK);
    assert_int_equal(wf_crowd_request_move(c, ids[0], wf_v3(17.5f, 0, 9.5f), &callbacks, &n),
                     WF_OK);
    float gap;
    int frames = run_until_arrived(c, ids, 1, 30 * 30, &gap);
    assert_true(frames < 30 * 30);
    assert_int_equal(n.blocked, 0);
    // Six more from a column west of the wall to a row east of it.
    assert_int_equal(wf_crowd_remove_agent(c, ids[0]), WF_OK);
    for (uint32_t i = 0; i < 6; ++i) {
        wf_vec3 start = wf_v3(3.5f + (float)(i % 2) * 2.0f, 0, 1.5f + (float)(i / 2) * 3.0f);
        assert_int_equal(wf_crowd_add_agent(c, start, &p, &ids[i]), WF_OK);
        wf_vec3 goal = wf_v3(13.5f + (float)(i % 2) * 3.0f, 0, 1.5f + (float)(i / 2) * 3.0f);
        assert_int_equal(wf_crowd_request_move(c, ids[i], goal, &callbacks, &n), WF_OK);
    }
    frames = run_until_arrived(c, ids, 6, 30 * 90, &gap);
    printf("narrow doorway: 6 agents of radius 0.6 through 1 m in %.2f s\n",
           (double)((float)frames * DT));
    assert_true(frames < 30 * 90);
    assert_int_equal(n.blocked, 0);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_agent_arrives_and_stops),
        cmocka_unit_test(test_head_on_pair_passes),
        cmocka_unit_test(test_circle_of_32_swaps),
        cmocka_unit_test(test_two_way_corridor_flow),
        cmocka_unit_test(test_unreachable_target_gives_partial_result),
        cmocka_unit_test(test_rejected_result_stops_the_agent),
        cmocka_unit_test(test_velocity_request_and_cancel),
        cmocka_unit_test(test_agents_added_and_removed_while_moving),
        cmocka_unit_test(test_doorway_narrower_than_the_agent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
