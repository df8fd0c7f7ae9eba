// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Golden hash of a crowd: 200 agents of every avoidance pattern and
// priority walking between random points of the demo level for 90 steps,
// on 1, 2 and 4 workers. Comparing worker counts misses a change that
// moves every count alike (a new compiler, a different SIMD path, an edit
// to the steering); the pinned hash catches it.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "golden_world.h"

// Pinned in golden_world.h beside the scene (avoidance_kernels.c checks
// it too). If you change behaviour on purpose, update it in the same
// commit and say why in the commit message (docs/reliability.md, "Golden
// hashes"); the test prints the new value.
#define EXPECTED_HASH GOLDEN_CROWD_HASH

static uint64_t crowd_run(uint32_t workers) { return golden_crowd_scene(workers, NULL, NULL); }

static void test_crowd_matches_golden_hash(void** state) {
    (void)state;
    uint64_t first = 0;
    assert_true(golden_same_for_workers(crowd_run, &first));
    assert_true(golden_matches("crowd", first, EXPECTED_HASH));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crowd_matches_golden_hash),
    };
    return golden_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
