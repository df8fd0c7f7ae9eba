// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Moving AI grid benchmarks through the tile cache: each map built with
// one cell per grid cell and radius 0, then every scenario row searched
// between cell centres. Every reachable pair must be found, and paths may
// not be longer than the .scen's octile optimum (8-connected, no corner
// cutting) except for a handful of rows. Skips without the data.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_files.h"
#include "test_movingai.h"
#include "wayfarer/query.h"
#include "wayfarer/tilecache.h"

/// Float noise on a path of a few hundred metres.
#define LENGTH_TOLERANCE 1e-3

static void run_map(const char* name) {
    movingai_run map;
    movingai_open(&map, name);
    const scen_row* rows = map.rows;
    const size_t count = map.count;
    wf_query_filter filter = wf_query_filter_defaults();
    size_t missing = 0, longer = 0, worst_row = 0;
    double worst = 0.0, ratio_sum = 0.0;
    for (size_t i = 0; i < count; ++i) {
        const scen_row* r = &rows[i];
        double length = movingai_row_length(&map, r, &filter);
        if (length < 0.0) {
            missing += r->octile > 0.0;
            continue;
        }
        longer += length > r->octile + LENGTH_TOLERANCE;
        double ratio = r->octile > 0.0 ? length / r->octile : 1.0;
        ratio_sum += ratio;
        if (ratio > worst) {
            worst = ratio;
            worst_row = i;
        }
    }
    print_message("%s: %zu rows, %zu not found, %zu longer than octile, mean ratio %.4f, "
                  "worst %.4f (row %zu)\n",
                  name, count, missing, longer, ratio_sum / (double)count, worst, worst_row);
    assert_int_equal(missing, 0);
    // Any-angle paths are never longer than 8-connected ones on the same
    // cells; only a path bent by a simplified corner can be, rarely.
    assert_true((double)longer <= 0.01 * (double)count);
    // And never by much: a funnel that turned at a portal corner beyond a
    // goal lying on that corner's line once made 8room_000 row 7 1.86x.
    assert_true(worst <= 1.05);
    movingai_close(&map);
}

static void test_arena(void** state) {
    (void)state;
    run_map("dao/arena");
}

static void test_den101d(void** state) {
    (void)state;
    run_map("dao/den101d");
}

static void test_8room(void** state) {
    (void)state;
    run_map("rooms/8room_000");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arena),
        cmocka_unit_test(test_den101d),
        cmocka_unit_test(test_8room),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
