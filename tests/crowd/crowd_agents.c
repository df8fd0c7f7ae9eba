// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Crowd objects and agents: creation and its bad descs, ids (stale, wrong
// kind), bad parameters and positions, capacity, memory fixed at creation,
// no allocation in steady frames, and calls from inside the update.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "crowd_test_util.h"
#include "test_hooks.h"

typedef struct fixture {
    wf_mesh* mesh;
} fixture;

static int setup(void** state) {
    static fixture f;
    f.mesh = test_mesh_grid(2, 2, 10, 1.0f, NULL, NULL, NULL);
    assert_non_null(f.mesh);
    *state = &f;
    return 0;
}

static int teardown(void** state) {
    fixture* f = *state;
    wf_mesh_destroy(f->mesh);
    return 0;
}

static void test_create_rejects_bad_descs(void** state) {
    fixture* f = *state;
    wf_assert_fn* previous_hook = wf_set_assert_hook(test_ignore_assert);
    wf_crowd* c = (wf_crowd*)1;
    wf_crowd_desc d = crowd_test_desc(f->mesh, 4);
    assert_int_equal(wf_crowd_create(NULL, &c), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_crowd_create(&d, NULL), WF_ERR_INVALID_ARG);
    wf_crowd_desc bad = d;
    bad.mesh = NULL;
    assert_int_equal(wf_crowd_create(&bad, &c), WF_ERR_INVALID_ARG);
    assert_null(c);
    bad = d;
    bad.max_agents = 0;
    assert_int_equal(wf_crowd_create(&bad, &c), WF_ERR_INVALID_ARG);
    bad = d;
    bad.max_agent_radius = NAN;
    assert_int_equal(wf_crowd_create(&bad, &c), WF_ERR_INVALID_ARG);
    bad = d;
    bad.max_agent_radius = -1.0f;
    assert_int_equal(wf_crowd_create(&bad, &c), WF_ERR_INVALID_ARG);
    bad = d;
    bad.filter_count = 2; // filters NULL
    assert_int_equal(wf_crowd_create(&bad, &c), WF_ERR_INVALID_ARG);
    bad = d;
    bad.max_neighbours = WF_CROWD_MAX_NEIGHBOURS + 1;
    assert_int_equal(wf_crowd_create(&bad, &c), WF_ERR_INVALID_ARG);
    wf_avoidance_params av = wf_avoidance_preset(WF_AVOIDANCE_HIGH);
    av.adaptive_rings = 9;
    bad = d;
    bad.avoidance = &av;
    bad.avoidance_count = 1;
    assert_int_equal(wf_crowd_create(&bad, &c), WF_ERR_INVALID_ARG);
    wf_query_filter qf = wf_query_filter_defaults();
    qf.area_cost[3] = -1.0f;
    bad = d;
    bad.filters = &qf;
    bad.filter_count = 1;
    assert_int_equal(wf_crowd_create(&bad, &c), WF_ERR_INVALID_ARG);
    wf_set_assert_hook(previous_hook);
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_crowd_destroy(c);
    wf_crowd_destroy(NULL);
}

static void test_create_fails_cleanly_at_every_allocation(void** state) {
    fixture* f = *state;
    for (unsigned long k = 1;; ++k) {
        counting_allocator ca;
        counting_allocator_init(&ca);
        ca.fail_at = k;
        wf_crowd_desc d = crowd_test_desc(f->mesh, 8);
        d.allocator = counting_allocator_hooks(&ca);
        wf_crowd* c = NULL;
        wf_status s = wf_crowd_create(&d, &c);
        if (s == WF_OK) {
            assert_int_equal(ca.failed, 0); // every allocation was tried
            wf_crowd_destroy(c);
            assert_int_equal(counting_allocator_live(&ca), 0);
            assert_true(k > 10);
            break;
        }
        assert_int_equal(s, WF_ERR_OUT_OF_MEMORY);
        assert_null(c);
        assert_int_equal(counting_allocator_live(&ca), 0);
        assert_int_equal(ca.size_mismatches, 0);
    }
}

static void test_agent_ids_and_bad_input(void** state) {
    fixture* f = *state;
    wf_crowd_desc d = crowd_test_desc(f->mesh, 2);
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    wf_agent_id a, b, extra;
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(2.5f, 0.3f, 2.5f), &p, &a), WF_OK);
    wf_agent_state s = crowd_test_state(c, a);
    assert_float_equal(s.position.x, 2.5f, 1e-5f);
    assert_float_equal(s.position.y, 0.0f, 1e-5f); // snapped onto the surface
    assert_int_equal(s.target_state, WF_TARGET_NONE);
    assert_int_equal(s.corridor_count, 1);

    wf_assert_fn* previous_hook = wf_set_assert_hook(test_ignore_assert);
    wf_agent_params bad = p;
    bad.radius = 1.0f; // wider than max_agent_radius
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(3, 0, 3), &bad, &b), WF_ERR_INVALID_ARG);
    bad = p;
    bad.max_speed = NAN;
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(3, 0, 3), &bad, &b), WF_ERR_INVALID_ARG);
    bad = p;
    bad.filter = 3;
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(3, 0, 3), &bad, &b), WF_ERR_INVALID_ARG);
    bad = p;
    bad.avoidance_preset = 7;
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(3, 0, 3), &bad, &b), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(NAN, 0, 3), &p, &b), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(INFINITY, 0, 3), &p, &b), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_crowd_request_move(c, a, wf_v3(NAN, 0, 1), NULL, NULL), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_crowd_teleport_agent(c, a, wf_v3(1, NAN, 1)), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_crowd_request_velocity(c, a, wf_v3(INFINITY, 0, 0)), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_crowd_set_agent_params(c, a, &bad), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_crowd_update(c, 0.0f, NULL), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_crowd_update(c, NAN, NULL), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_crowd_update(c, -0.1f, NULL), WF_ERR_INVALID_ARG);
    wf_set_assert_hook(previous_hook);
    assert_int_equal(wf_crowd_agent_count(c), 1);

    // Off the mesh: a status, nothing added or moved.
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(500, 0, 500), &p, &b), WF_ERR_NOT_FOUND);
    assert_int_equal(wf_crowd_request_move(c, a, wf_v3(-300, 0, 2), NULL, NULL), WF_ERR_NOT_FOUND);
    assert_int_equal(wf_crowd_teleport_agent(c, a, wf_v3(-300, 0, 2)), WF_ERR_NOT_FOUND);
    s = crowd_test_state(c, a);
    assert_float_equal(s.position.x, 2.5f, 1e-5f);
    assert_int_equal(s.target_state, WF_TARGET_NONE);

    // Capacity.
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(5.5f, 0, 5.5f), &p, &b), WF_OK);
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(6.5f, 0, 6.5f), &p, &extra), WF_ERR_CAPACITY);
    assert_int_equal(extra.bits, 0);

    // Stale, null and foreign ids.
    assert_int_equal(wf_crowd_remove_agent(c, b), WF_OK);
    assert_int_equal(wf_crowd_remove_agent(c, b), WF_ERR_STALE_REF);
    assert_int_equal(wf_crowd_get_agent(c, b, &s), WF_ERR_STALE_REF);
    assert_int_equal(wf_crowd_request_move(c, b, wf_v3(1, 0, 1), NULL, NULL), WF_ERR_STALE_REF);
    assert_int_equal(wf_crowd_teleport_agent(c, b, wf_v3(1, 0, 1)), WF_ERR_STALE_REF);
    assert_int_equal(wf_crowd_cancel_move(c, b), WF_ERR_STALE_REF);
    assert_int_equal(wf_crowd_set_agent_params(c, b, &p), WF_ERR_STALE_REF);
    wf_agent_id null_id = {0};
    assert_int_equal(wf_crowd_remove_agent(c, null_id), WF_ERR_INVALID_ARG);
    wf_agent_id foreign = {
        wf_id_make(wf_id_index(a.bits), wf_id_generation(a.bits), WF_ID_KIND_OBSTACLE)};
    assert_int_equal(wf_crowd_remove_agent(c, foreign), WF_ERR_WRONG_KIND);
    assert_int_equal(wf_crowd_get_agent(c, foreign, &s), WF_ERR_WRONG_KIND);
    // A new agent in the freed slot does not revive the old id.
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(7.5f, 0, 7.5f), &p, &extra), WF_OK);
    assert_int_equal(wf_crowd_get_agent(c, b, &s), WF_ERR_STALE_REF);
    assert_int_equal(wf_crowd_agent_count(c), 2);
    wf_agent_id list[4];
    assert_int_equal(wf_crowd_get_agents(c, list, 4), 2);

    // Teleport keeps the id and lands on the surface.
    assert_int_equal(wf_crowd_teleport_agent(c, a, wf_v3(15.5f, 2.0f, 15.5f)), WF_OK);
    s = crowd_test_state(c, a);
    assert_float_equal(s.position.x, 15.5f, 1e-5f);
    assert_float_equal(s.position.y, 0.0f, 1e-5f);
    wf_crowd_destroy(c);
}

typedef struct reentry {
    wf_crowd* crowd;
    wf_status add, move, remove, update;
    int calls;
} reentry;

static bool reentrant_result(wf_agent_id agent, const wf_path_info* info, void* user) {
    (void)info;
    reentry* r = user;
    wf_agent_params p = crowd_test_params();
    wf_agent_id other;
    r->add = wf_crowd_add_agent(r->crowd, wf_v3(1.5f, 0, 1.5f), &p, &other);
    r->move = wf_crowd_request_move(r->crowd, agent, wf_v3(3.5f, 0, 3.5f), NULL, NULL);
    r->remove = wf_crowd_remove_agent(r->crowd, agent);
    r->update = wf_crowd_update(r->crowd, 0.1f, NULL);
    wf_agent_state s;
    assert_int_equal(wf_crowd_get_agent(r->crowd, agent, &s), WF_OK); // reads are fine
    r->calls++;
    return true;
}

static void test_calls_from_a_callback_are_busy(void** state) {
    fixture* f = *state;
    wf_crowd_desc d = crowd_test_desc(f->mesh, 4);
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    wf_agent_id a;
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(2.5f, 0, 2.5f), &p, &a), WF_OK);
    reentry r = {.crowd = c};
    wf_move_callbacks cb = {.result = reentrant_result};
    assert_int_equal(wf_crowd_request_move(c, a, wf_v3(12.5f, 0, 12.5f), &cb, &r), WF_OK);
    wf_assert_fn* previous_hook = wf_set_assert_hook(test_ignore_assert);
    for (int k = 0; k < 5 && r.calls == 0; ++k) {
        assert_int_equal(wf_crowd_update(c, 0.1f, NULL), WF_OK);
    }
    wf_set_assert_hook(previous_hook);
    assert_int_equal(r.calls, 1);
    assert_int_equal(r.add, WF_ERR_BUSY);
    assert_int_equal(r.move, WF_ERR_BUSY);
    assert_int_equal(r.remove, WF_ERR_BUSY);
    assert_int_equal(r.update, WF_ERR_BUSY);
    assert_int_equal(wf_crowd_agent_count(c), 1);
    wf_crowd_destroy(c);
}

static void test_steady_frames_allocate_nothing(void** state) {
    fixture* f = *state;
    counting_allocator ca;
    counting_allocator_init(&ca);
    wf_crowd_desc d = crowd_test_desc(f->mesh, 64);
    d.allocator = counting_allocator_hooks(&ca);
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    size_t bytes = wf_crowd_get_stats(c).memory_bytes;
    assert_true(bytes > 0);
    unsigned long allocations = ca.allocations;
    wf_agent_params p = crowd_test_params();
    wf_agent_id ids[40];
    for (uint32_t k = 0; k < 40; ++k) {
        float x = 1.5f + (float)(k % 8) * 2.0f, z = 1.5f + (float)(k / 8) * 2.0f;
        assert_int_equal(wf_crowd_add_agent(c, wf_v3(x, 0, z), &p, &ids[k]), WF_OK);
        assert_int_equal(
            wf_crowd_request_move(c, ids[k], wf_v3(19.0f - x, 0, 19.0f - z), NULL, NULL), WF_OK);
    }
    for (int frame = 0; frame < 200; ++frame) {
        if (frame == 100) {
            assert_int_equal(wf_crowd_remove_agent(c, ids[3]), WF_OK);
            assert_int_equal(wf_crowd_request_velocity(c, ids[4], wf_v3(1, 0, 0)), WF_OK);
            assert_int_equal(wf_crowd_add_agent(c, wf_v3(10.5f, 0, 10.5f), &p, &ids[3]), WF_OK);
        }
        assert_int_equal(wf_crowd_update(c, 1.0f / 30.0f, NULL), WF_OK);
    }
    assert_int_equal(ca.allocations, allocations); // not one, in 200 frames
    assert_int_equal(wf_crowd_get_stats(c).memory_bytes, bytes);
    wf_crowd_destroy(c);
    assert_int_equal(counting_allocator_live(&ca), 0);
    assert_int_equal(ca.size_mismatches, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_rejects_bad_descs),
        cmocka_unit_test(test_create_fails_cleanly_at_every_allocation),
        cmocka_unit_test(test_agent_ids_and_bad_input),
        cmocka_unit_test(test_calls_from_a_callback_are_busy),
        cmocka_unit_test(test_steady_frames_allocate_nothing),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
