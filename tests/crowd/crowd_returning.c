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

static void test_pushed_off_spots_walk_back(void** state) {
    (void)state;
    wf_mesh* mesh = crowd_test_room_mesh();
    assert_non_null(mesh);
    wf_agent_id id[AGENTS];
    wf_vec3 spot[AGENTS];
    wf_crowd* c = crowd_test_fill_room(mesh, ROWS, COLS, 11.0f, 1.1f, 1.5f, id, spot);
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
    wf_mesh* mesh = crowd_test_room_mesh();
    assert_non_null(mesh);
    wf_agent_id id[AGENTS], id2[AGENTS];
    wf_vec3 spot[AGENTS];
    wf_crowd* a = crowd_test_fill_room(mesh, ROWS, COLS, 11.0f, 1.1f, 1.5f, id, spot);
    wf_crowd* b = crowd_test_fill_room(mesh, ROWS, COLS, 11.0f, 1.1f, 1.5f, id2, spot);
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
