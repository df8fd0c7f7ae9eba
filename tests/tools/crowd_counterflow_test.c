// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Two streams through one 2 m doorway (door_2way_2) deliver and hold
// (issue 14: holding at least 95 %; the door scenes may not lose arrivals).
// Solving walls and neighbours together in the collision passes (a
// neighbour pinned against a wall gives only along it) also reached the
// agents of the doorway's single-file order, whose order already says who
// gives way: over the ten runs of `wayfarer scenarios --runs 10` (seeds
// 1..10, formations jittered 0.15 m) arrivals fell 95.5 -> 92.5 %, on
// seeds 101-110 95.8 -> 92.0 %, holding 100 -> 94.6 % on both (the table's
// rounded means). A neighbour no longer takes over the share of one
// pinned at a wall when either is at the passage (crowd_motion.c).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ten_runs.h"

/// Seeds 1-10: arrivals 92.5 % before, 94.5 % after (holding 94.6 and
/// 94.7 %); the worst overlap 0.056 m before and after.
static void test_two_streams_through_a_door_deliver(void** state) {
    (void)state;
    ten_runs r = over_ten_runs("door_2way_2", 1);
    assert_true(r.arrived_60 >= 0.94);
    assert_true(r.worst > 0.0);
    assert_true(r.worst <= 0.13);
}

/// Seeds 101-110: holding 95.1 % before (350 of 368 arrivals), 97.3 %
/// after (362 of 372); arrivals 92.0 and 93.0 %, worst overlap 0.041 and
/// 0.039 m. At least 95 % (the goal; 96 % before topo14): with
/// stuck_crowding_cost these ten seeds hold 95.6 % (main 96.7), while over
/// 100 seeds paired (301-400) holding rose 96.3 -> 97.5 % (+1.15 +- 0.45
/// per seed) and arrivals 95.7 -> 96.3 % (docs/benchmarks.md, topo14).
static void test_two_streams_through_a_door_hold(void** state) {
    (void)state;
    ten_runs r = over_ten_runs("door_2way_2", 101);
    assert_true(r.holding >= 0.95);
    assert_true(r.worst > 0.0);
    assert_true(r.worst <= 0.13);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_streams_through_a_door_deliver),
        cmocka_unit_test(test_two_streams_through_a_door_hold),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
