// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The demo's in-time count (issue 14's goal) with a free agent's slack
// (tools/crowd_runner.c, scene_in_time, SCENE_FREE_SLACK): a target counts
// as "in time for a free agent" when its shortest path x the slack fits at
// max speed in the time left; the old count (no slack) stays as it was, and
// the new one is a part of it, never more, with its own reached count and
// the crowd's slowdown on those reached.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tools/crowd_scenes.h"

static void test_slack_leaves_out_what_a_free_agent_misses(void** state) {
    (void)state;
    const float speed = 3.5f, left = 20.0f; // 70 m at full speed
    assert_true(SCENE_FREE_SLACK > 1.0f);
    // 63 m needs 90 % of the time left: in the old count, not for a free agent.
    assert_true(scene_in_time(63.0f, speed, left, 1.0f));
    assert_false(scene_in_time(63.0f, speed, left, SCENE_FREE_SLACK));
    // 49 m needs 70 %: in both.
    assert_true(scene_in_time(49.0f, speed, left, 1.0f));
    assert_true(scene_in_time(49.0f, speed, left, SCENE_FREE_SLACK));
    // No path, or no time: in neither.
    assert_false(scene_in_time(-1.0f, speed, left, 1.0f));
    assert_false(scene_in_time(1.0f, speed, 0.0f, SCENE_FREE_SLACK));
    assert_true(scene_in_time(70.0f, speed, left, 1.0f)); // exactly the old edge
}

static void test_demo_counts_targets_in_time_for_a_free_agent(void** state) {
    (void)state;
    scene_settings st;
    memset(&st, 0, sizeof st);
    st.avoidance = WF_AVOIDANCE_HIGH;
    st.seed = 1;
    st.testdata = WF_TESTDATA_DIR;
    st.agents = 60;
    st.seconds = 12.0f;
    scene s;
    assert_int_equal(scene_build("demo", &st, &s), 0);
    scene_metrics m;
    assert_int_equal(scene_run(&s, &st, &m), 0);
    const float run = (float)m.frames * SCENE_DT;
    uint32_t old_first = 0, alone_first = 0;
    for (uint32_t i = 0; i < s.agent_count; ++i) {
        float length = scene_path_length(&s, s.starts[i], s.targets[i]);
        old_first += scene_in_time(length, 3.5f, run, 1.0f);
        alone_first += scene_in_time(length, 3.5f, run, SCENE_FREE_SLACK);
    }
    scene_free(&s);
    printf("demo, 12 s: in time %u (reached %u), for a free agent %u (reached %u), slowdown "
           "%.2f; first targets %u / %u\n",
           m.in_time_targets, m.in_time_reached, m.in_time_alone_targets, m.in_time_alone_reached,
           m.in_time_alone_slowdown, old_first, alone_first);
    // Seed 1 has first targets needing over 1 / SLACK of the run: the counts differ.
    assert_true(alone_first < old_first);
    assert_int_equal(m.first_feasible, old_first);
    assert_true(m.in_time_alone_targets >= alone_first);
    assert_true(m.in_time_alone_targets < m.in_time_targets);
    assert_true(m.in_time_alone_reached <= m.in_time_reached);
    assert_true(m.in_time_alone_reached <= m.in_time_alone_targets);
    assert_true(m.in_time_alone_reached > 0u);
    assert_true(m.in_time_alone_agents >= alone_first);
    assert_true(m.in_time_alone_agents <= m.in_time_agents);
    assert_true(m.in_time_alone_agents_arrived <= m.in_time_alone_agents);
    assert_true(m.in_time_alone_agents_arrived <= m.in_time_alone_reached);
    // Arriving 0.6 m short can beat the ideal a little, never by half.
    assert_true(m.in_time_alone_slowdown > 0.5 && m.in_time_alone_slowdown < 10.0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slack_leaves_out_what_a_free_agent_misses),
        cmocka_unit_test(test_demo_counts_targets_in_time_for_a_free_agent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
