// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Arrived agents walk back to their spots: a room filled through a narrow
// door, the spots nearest the door taken first, so every later agent
// pushes earlier ones off theirs on its way in. Once all are in, each
// stands on its spot again: one pushed behind others that hold theirs is
// let through when it cannot get back by itself.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "crowd_test_util.h"

#define DT (1.0f / 30.0f)
#define ROWS 3u
#define COLS 4u
#define AGENTS (ROWS * COLS)

/// The room and its corridor: a room x 4..15, z 10..17 and a corridor one
/// cell wide at x = 9 from z = 0 into it.
static wf_mesh* room_mesh(void) {
    static uint8_t blocked[20 * 20];
    for (uint32_t z = 0; z < 20; ++z) {
        for (uint32_t x = 0; x < 20; ++x) {
            bool room = x >= 4 && x <= 15 && z >= 10 && z <= 17;
            blocked[z * 20 + x] = !(room || (x == 9 && z < 10));
        }
    }
    return test_mesh_grid(2, 2, 10, 1.0f, blocked, NULL, NULL);
}

/// A crowd with the agents in single file in the corridor; the first in
/// line gets the spot nearest the door, the last the furthest.
static wf_crowd* fill_room(wf_mesh* mesh, wf_agent_id* id, wf_vec3* spot) {
    wf_crowd_desc d = crowd_test_desc(mesh, AGENTS);
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    for (uint32_t k = 0; k < AGENTS; ++k) {
        assert_int_equal(wf_crowd_add_agent(c, wf_v3(9.5f, 0, 9.0f - 0.8f * (float)k), &p, &id[k]),
                         WF_OK);
        uint32_t row = k / COLS, col = k % COLS;
        spot[k] = wf_v3(8.0f + 1.1f * (float)col, 0, 11.0f + 1.5f * (float)row);
        assert_int_equal(wf_crowd_request_move(c, id[k], spot[k], NULL, NULL), WF_OK);
    }
    return c;
}

static void test_pushed_off_spots_walk_back(void** state) {
    (void)state;
    wf_mesh* mesh = room_mesh();
    assert_non_null(mesh);
    wf_agent_id id[AGENTS];
    wf_vec3 spot[AGENTS];
    wf_crowd* c = fill_room(mesh, id, spot);
    for (int f = 0; f < 30 * 40; ++f) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
    }
    uint32_t held = 0;
    for (uint32_t k = 0; k < AGENTS; ++k) {
        wf_agent_state s = crowd_test_state(c, id[k]);
        held += s.target_state == WF_TARGET_ARRIVED &&
                crowd_test_dist2d(s.position, spot[k]) <= s.params.radius;
    }
    assert_int_equal(held, AGENTS);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

/// Who is walking back and stuck (the flag that lets it through) is part
/// of a save: a crowd restored while agents are pushed about goes on as
/// the one it was saved from.
static void test_returning_survives_save_and_restore(void** state) {
    (void)state;
    wf_mesh* mesh = room_mesh();
    assert_non_null(mesh);
    wf_agent_id id[AGENTS], id2[AGENTS];
    wf_vec3 spot[AGENTS];
    wf_crowd* a = fill_room(mesh, id, spot);
    wf_crowd* b = fill_room(mesh, id2, spot);
    for (int f = 0; f < 30 * 12; ++f) {
        assert_int_equal(wf_crowd_update(a, DT, NULL), WF_OK);
    }
    size_t n = 0;
    assert_int_equal(wf_crowd_save_size(a, &n), WF_OK);
    void* blob = test_malloc(n);
    assert_int_equal(wf_crowd_save(a, blob, n), WF_OK);
    assert_int_equal(wf_crowd_restore(b, blob, n), WF_OK);
    test_free(blob);
    assert_int_equal(crowd_test_hash(a), crowd_test_hash(b));
    for (int f = 0; f < 30 * 20; ++f) {
        assert_int_equal(wf_crowd_update(a, DT, NULL), WF_OK);
        assert_int_equal(wf_crowd_update(b, DT, NULL), WF_OK);
    }
    assert_int_equal(crowd_test_hash(a), crowd_test_hash(b));
    wf_crowd_destroy(a);
    wf_crowd_destroy(b);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pushed_off_spots_walk_back),
        cmocka_unit_test(test_returning_survives_save_and_restore),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
