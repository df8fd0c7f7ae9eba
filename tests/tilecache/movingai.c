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
    wf_query* q = map.query;
    wf_poly_ref* corridor = map.corridor;
    wf_straight_point* points = map.points;
    wf_query_filter filter = wf_query_filter_defaults();
    const wf_vec3 half = wf_v3(0.5f, 1.0f, 0.5f);
    size_t missing = 0, longer = 0, worst_row = 0;
    double worst = 0.0, ratio_sum = 0.0;
    for (size_t i = 0; i < count; ++i) {
        const scen_row* r = &rows[i];
        // Scenario points are cells; the grid build puts cell (x, z) at
        // [x, x + 1) x [z, z + 1), so its centre is (x + 0.5, z + 0.5).
        wf_vec3 a = wf_v3((float)r->sx + 0.5f, 0.0f, (float)r->sz + 0.5f);
        wf_vec3 b = wf_v3((float)r->gx + 0.5f, 0.0f, (float)r->gz + 0.5f);
        wf_poly_ref start, goal;
        wf_vec3 sp, gp;
        wf_path_result pr = {0, 0, 0.0f};
        uint32_t n = 0;
        bool found = wf_query_find_nearest_poly(q, a, half, &filter, &start, &sp) == WF_OK &&
                     wf_query_find_nearest_poly(q, b, half, &filter, &goal, &gp) == WF_OK &&
                     wf_query_find_path(q, start, goal, sp, gp, &filter, corridor,
                                        MOVINGAI_MAX_CORRIDOR, &pr) == WF_OK &&
                     wf_query_find_straight_path(q, sp, gp, corridor, pr.count, points,
                                                 MOVINGAI_MAX_STRAIGHT, 0, &n) == WF_OK;
        if (!found) {
            missing += r->octile > 0.0;
            continue;
        }
        double length = 0.0;
        for (uint32_t k = 1; k < n; ++k) {
            length += wf_v2_distance(points[k - 1].pos, points[k].pos);
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
