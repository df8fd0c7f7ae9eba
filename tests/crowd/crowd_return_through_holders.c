// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// An arrived agent carried off its spot to behind a block of others
// holding theirs gets back through them: the spots of a tight block (gaps
// narrower than a body) filled from the door side first, every later agent
// pushes earlier ones deeper into the room on its way in. Let through on
// its way back, the carried one squeezes between the holders (they step
// aside a little) as an agent on its way does near its target; it stood
// behind them for good before (tjunction: 18 of 33 agents off their spots
// at the end, docs/benchmarks.md).
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
/// Spots this far apart: 5 cm between two bodies of radius 0.4 on theirs.
#define SPACING 0.85f

/// A room x 4..16, z 10..18 and a corridor one cell wide at x = 9 from
/// z = 0 into it.
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

/// The agents in single file in the corridor; the first in line gets the
/// spot nearest the door, the last the furthest.
static wf_crowd* fill_room(wf_mesh* mesh, wf_agent_id* id, wf_vec3* spot) {
    wf_crowd_desc d = crowd_test_desc(mesh, AGENTS);
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    for (uint32_t k = 0; k < AGENTS; ++k) {
        assert_int_equal(wf_crowd_add_agent(c, wf_v3(9.5f, 0, 9.0f - 0.8f * (float)k), &p, &id[k]),
                         WF_OK);
        uint32_t row = k / COLS, col = k % COLS;
        spot[k] = wf_v3(8.0f + SPACING * (float)col, 0, 11.5f + SPACING * (float)row);
        assert_int_equal(wf_crowd_request_move(c, id[k], spot[k], NULL, NULL), WF_OK);
    }
    return c;
}

/// Agents arrived and within their radius of their spots.
static uint32_t holding(const wf_crowd* c, const wf_agent_id* id, const wf_vec3* spot) {
    uint32_t held = 0;
    for (uint32_t k = 0; k < AGENTS; ++k) {
        wf_agent_state s = crowd_test_state(c, id[k]);
        held += s.target_state == WF_TARGET_ARRIVED &&
                crowd_test_dist2d(s.position, spot[k]) <= s.params.radius;
    }
    return held;
}

static void test_carried_behind_holders_gets_back(void** state) {
    (void)state;
    wf_mesh* mesh = room_mesh();
    assert_non_null(mesh);
    wf_agent_id id[AGENTS];
    wf_vec3 spot[AGENTS];
    wf_crowd* c = fill_room(mesh, id, spot);
    for (int f = 0; f < 30 * 60; ++f) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
    }
    assert_int_equal(holding(c, id, spot), AGENTS);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_carried_behind_holders_gets_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
