// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The default search on the grid map where one state per polygon lost the
// better corridor (issue 13 item 3): bg512/AR0011SR built as `wayfarer scen
// --map` builds it (tiles of 64). Every row must be no longer than the
// .scen's octile optimum, but for float noise and the .scen's rounding of
// its optima to 0.01. Before the search kept later layers of states (see
// docs/navmesh.md), rows 143, 634, 716 and 1005 were 1.0005-1.0275 of it.
// Skips without the data.
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

/// The .scen rounds optima to 0.01 (11.3137 is written 11.31), plus float
/// noise; row 634 was 0.072 over.
#define LENGTH_TOLERANCE 0.01

/// The four rows that lost their corridor, first (a quick failure).
static void test_lost_rows(void** state) {
    (void)state;
    movingai_run map;
    movingai_open(&map, "bg512/AR0011SR");
    const wf_query_filter filter = wf_query_filter_defaults();
    static const size_t lost[] = {143, 634, 716, 1005};
    for (size_t i = 0; i < sizeof lost / sizeof lost[0]; ++i) {
        assert_true(lost[i] < map.count);
        const scen_row* r = &map.rows[lost[i]];
        double length = movingai_row_length(&map, r, &filter);
        print_message("row %zu: %.4f, octile %.2f\n", lost[i], length, r->octile);
        assert_true(length >= 0.0);
        assert_true(length <= r->octile + LENGTH_TOLERANCE);
    }
    movingai_close(&map);
}

/// Tiles of 48 cells: row 468 was 1.0601 of octile with one state per
/// polygon and 1.0027 with three layers; four keep it within octile.
static void test_tile48_row468(void** state) {
    (void)state;
    movingai_run map;
    movingai_open_tiles(&map, "bg512/AR0011SR", 48);
    const wf_query_filter filter = wf_query_filter_defaults();
    assert_true(468 < map.count);
    const scen_row* r = &map.rows[468];
    double length = movingai_row_length(&map, r, &filter);
    print_message("tile 48, row 468: %.4f, octile %.2f\n", length, r->octile);
    assert_true(length >= 0.0);
    assert_true(length <= r->octile + LENGTH_TOLERANCE);
    movingai_close(&map);
}

static void every_row(int tile_size) {
    movingai_run map;
    movingai_open_tiles(&map, "bg512/AR0011SR", tile_size);
    const wf_query_filter filter = wf_query_filter_defaults();
    size_t longer = 0, worst_row = 0;
    double worst = 0.0;
    for (size_t i = 0; i < map.count; ++i) {
        const scen_row* r = &map.rows[i];
        double length = movingai_row_length(&map, r, &filter);
        assert_true(length >= 0.0); // every row is connected
        double ratio = r->octile > 0.0 ? length / r->octile : 1.0;
        longer += length > r->octile + LENGTH_TOLERANCE;
        if (ratio > worst) {
            worst = ratio;
            worst_row = i;
        }
    }
    print_message("tile %d: %zu rows, %zu over octile, worst %.6f (row %zu)\n", tile_size,
                  map.count, longer, worst, worst_row);
    assert_int_equal(longer, 0);
    movingai_close(&map);
}

static void test_every_row(void** state) {
    (void)state;
    every_row(64);
}

/// Tiles of 48: row 932 was 1.0009 of octile until the seed test went
/// round the winner's wedge sides (see covers_window in path_search.c).
static void test_every_row_tile48(void** state) {
    (void)state;
    every_row(48);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lost_rows),
        cmocka_unit_test(test_tile48_row468),
        cmocka_unit_test(test_every_row),
        cmocka_unit_test(test_every_row_tile48),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
