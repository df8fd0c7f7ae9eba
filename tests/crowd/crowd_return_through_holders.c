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
    wf_mesh* mesh = crowd_test_room_mesh();
    assert_non_null(mesh);
    wf_agent_id id[AGENTS];
    wf_vec3 spot[AGENTS];
    wf_crowd* c = crowd_test_fill_room(mesh, ROWS, COLS, 11.5f, SPACING, SPACING, id, spot);
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
