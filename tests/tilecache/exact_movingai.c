// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Exact path mode on Moving AI grid maps built as `wayfarer scen --map`
// builds them (one cell per grid cell, radius 0, tiles of 64 cells): every
// scenario row is found, no longer than the .scen's octile optimum (an
// any-angle path over the same free cells never is) and no longer than the
// default mode's path. Skips without the data.
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

/// Every `stride`-th row of the map's scenarios.
static void run_map(const char* name, size_t stride) {
    movingai_run map;
    movingai_open(&map, name);
    const scen_row* rows = map.rows;
    const size_t count = map.count;
    wf_query* q = map.query;
    wf_query_filter def = wf_query_filter_defaults();
    wf_query_filter exact = def;
    exact.path_mode = WF_PATH_MODE_EXACT;
    const wf_vec3 half = wf_v3(0.5f, 1.0f, 0.5f);
    size_t run = 0, missing = 0, longer = 0, longer_than_default = 0, shorter_than_default = 0;
    double ratio_sum = 0.0;
    for (size_t i = 0; i < count; i += stride) {
        const scen_row* r = &rows[i];
        wf_vec3 a = wf_v3((float)r->sx + 0.5f, 0.0f, (float)r->sz + 0.5f);
        wf_vec3 b = wf_v3((float)r->gx + 0.5f, 0.0f, (float)r->gz + 0.5f);
        wf_poly_ref start, goal;
        wf_vec3 sp, gp;
        assert_int_equal(wf_query_find_nearest_poly(q, a, half, &def, &start, &sp), WF_OK);
        assert_int_equal(wf_query_find_nearest_poly(q, b, half, &def, &goal, &gp), WF_OK);
        run++;
        double e = movingai_path_length(&map, start, goal, sp, gp, &exact);
        double d = movingai_path_length(&map, start, goal, sp, gp, &def);
        if (e < 0.0) {
            missing++;
            continue;
        }
        if (e > r->octile + LENGTH_TOLERANCE || (d >= 0.0 && e > d + LENGTH_TOLERANCE)) {
            print_message("%s row %zu: exact %.6f, default %.6f, octile %.6f\n", name, i, e, d,
                          r->octile);
        }
        longer += e > r->octile + LENGTH_TOLERANCE;
        longer_than_default += d >= 0.0 && e > d + LENGTH_TOLERANCE;
        shorter_than_default += d >= 0.0 && e < d - LENGTH_TOLERANCE;
        ratio_sum += r->octile > 0.0 ? e / r->octile : 1.0;
    }
    print_message("%s: %zu rows, %zu not found, %zu longer than octile, %zu longer and %zu "
                  "shorter than default, mean ratio to octile %.4f\n",
                  name, run, missing, longer, longer_than_default, shorter_than_default,
                  ratio_sum / (double)run);
    assert_int_equal(missing, 0);
    assert_int_equal(longer, 0);
    assert_int_equal(longer_than_default, 0);
    movingai_close(&map);
}

static void test_arena(void** state) {
    (void)state;
    run_map("dao/arena", 1);
}

static void test_den101d(void** state) {
    (void)state;
    run_map("dao/den101d", 1);
}

/// Every third row keeps a debug build under ten seconds.
static void test_8room(void** state) {
    (void)state;
    run_map("rooms/8room_000", 3);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arena),
        cmocka_unit_test(test_den101d),
        cmocka_unit_test(test_8room),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
