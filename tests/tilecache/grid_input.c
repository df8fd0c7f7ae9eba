// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// 2D grid input: the Moving AI .map reader (cells, CRLF, damage with its
// line, truncation, out of memory, the benchmark maps) and filling a span
// heightfield from a grid (exact spans per column).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "test_files.h"
#include "test_heightfield.h"
#include "test_hooks.h"
#include "test_log_capture.h"
#include "tilecache/heightfield.h"

/// Loads a private copy of exactly `size` bytes (so a read past the end
/// shows under ASan); on failure checks *out is NULL and nothing leaked.
static wf_status load_counted(const char* text, size_t size, float cell_size,
                              counting_allocator* ca, test_log_capture* logs, wf_grid_data** out) {
    char* copy = malloc(size > 0 ? size : 1);
    assert_non_null(copy);
    if (size > 0) {
        memcpy(copy, text, size);
    }
    wf_geom_load_desc d;
    memset(&d, 0, sizeof d);
    d.allocator = counting_allocator_hooks(ca);
    d.logger.log = test_capture_log;
    d.logger.user = logs;
    *out = (wf_grid_data*)(uintptr_t)1; // must be overwritten
    wf_status st = wf_grid_load_movingai(copy, size, cell_size, &d, out);
    free(copy);
    if (st != WF_OK) {
        assert_null(*out);
        assert_int_equal(counting_allocator_live(ca), 0);
    }
    return st;
}

static wf_grid_data* load_ok(const char* text, float cell_size, counting_allocator* ca) {
    test_log_capture logs = {0};
    wf_grid_data* g = NULL;
    assert_int_equal(load_counted(text, strlen(text), cell_size, ca, &logs, &g), WF_OK);
    assert_non_null(g);
    assert_int_equal(logs.count, 0);
    return g;
}

static void destroy_counted(wf_grid_data* g, counting_allocator* ca) {
    wf_grid_data_destroy(g);
    assert_int_equal(counting_allocator_live(ca), 0);
    assert_int_equal(atomic_load(&ca->size_mismatches), 0);
}

/// Every walkable byte of the view against a row-major 0/1 string.
static void assert_cells(const wf_grid* v, const char* expected) {
    assert_int_equal(strlen(expected), (size_t)v->width * v->depth);
    for (size_t i = 0; i < (size_t)v->width * v->depth; ++i) {
        assert_int_equal(v->walkable[i], (uint8_t)(expected[i] - '0'));
    }
}

/* ---------------------------------------------------------------------------
 * Moving AI .map reader
 */

/// Each terrain character: '.', 'G', 'S' walkable; '@', 'O', 'T', 'W' and
/// anything else blocked.
static const char small_map[] = "type octile\n"
                                "height 3\n"
                                "width 4\n"
                                "map\n"
                                ".G@T\n"
                                "S.W.\n"
                                "TO.x\n";
static const char small_cells[] = "1100"
                                  "1101"
                                  "0010";

static void test_small_map(void** state) {
    (void)state;
    counting_allocator ca;
    counting_allocator_init(&ca);
    wf_grid_data* g = load_ok(small_map, 0.5f, &ca);
    wf_grid v = wf_grid_data_view(g);
    assert_int_equal(v.width, 4);
    assert_int_equal(v.depth, 3);
    assert_true(v.cell_size == 0.5f);
    assert_true(v.origin.x == 0.0f && v.origin.y == 0.0f && v.origin.z == 0.0f);
    assert_null(v.heights);
    assert_null(v.areas);
    assert_cells(&v, small_cells);
    destroy_counted(g, &ca);
}

/// CRLF, width before height, extra blanks in the header, no newline after
/// the last row, or trailing blank lines.
static void test_tolerated_layouts(void** state) {
    (void)state;
    static const char* const texts[] = {
        "type octile\r\nheight 3\r\nwidth 4\r\nmap\r\n.G@T\r\nS.W.\r\nTO.x\r\n",
        "type octile\nwidth 4\nheight 3\nmap\n.G@T\nS.W.\nTO.x",
        "  type\toctile  \nheight   3\nwidth 4 \r\nmap \n.G@T\nS.W.\nTO.x\n\n\r\n  \n",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; ++i) {
        counting_allocator ca;
        counting_allocator_init(&ca);
        wf_grid_data* g = load_ok(texts[i], 1.0f, &ca);
        wf_grid v = wf_grid_data_view(g);
        assert_int_equal(v.width, 4);
        assert_int_equal(v.depth, 3);
        assert_cells(&v, small_cells);
        destroy_counted(g, &ca);
    }
}

typedef struct bad_case {
    const char* text;
    unsigned line;
} bad_case;

static void test_damage_is_rejected_with_its_line(void** state) {
    (void)state;
    static const bad_case cases[] = {
        {"", 1},
        {"type octile\n", 2},
        {"height 1\nwidth 1\nmap\n.\n", 3},            // no type
        {"type tile\nheight 1\nwidth 1\nmap\n.\n", 1}, // not octile
        {"type octile\ntype octile\nheight 1\nwidth 1\nmap\n.\n", 2},
        {"type octile\nwidth 1\nmap\n.\n", 3},  // no height
        {"type octile\nheight 1\nmap\n.\n", 3}, // no width
        {"type octile\nheight 0\nwidth 1\nmap\n", 2},
        {"type octile\nheight 1\nwidth 0\nmap\n", 3},
        {"type octile\nheight -1\nwidth 1\nmap\n.\n", 2},
        {"type octile\nheight 1x\nwidth 1\nmap\n.\n", 2},
        {"type octile\nheight\nwidth 1\nmap\n.\n", 2},
        {"type octile\nheight 1 2\nwidth 1\nmap\n.\n", 2},
        {"type octile\nheight 1\nwidth 65537\nmap\n", 3}, // past the side limit
        {"type octile\nheight 1\nwidth 99999999999999999999999\nmap\n", 3},
        {"type octile\nheight 1\nheight 1\nwidth 1\nmap\n.\n", 3},
        {"type octile\nheight 1\nwidth 1\nsize 4\nmap\n.\n", 4},
        {"type octile\nheight 1\nwidth 1\nmap 1\n.\n", 4},
        {"type octile\nheight 1\nwidth 1\n", 4},                     // the map line is missing
        {"type octile\nheight 1000\nwidth 1000\nmap\n....\n", 4},    // promises more than it holds
        {"type octile\nheight 2\nwidth 3\nmap\n...\n..\n", 6},       // short row
        {"type octile\nheight 2\nwidth 3\nmap\n...\n....\n", 6},     // long row
        {"type octile\nheight 2\nwidth 3\nmap\n... \n...\n", 5},     // a blank is a cell
        {"type octile\nheight 2\nwidth 3\nmap\n...\n\n...\n", 6},    // blank line inside the rows
        {"type octile\nheight 3\nwidth 3\nmap\n...\n...\n", 4},      // too few bytes for the rows
        {"type octile\nheight 4\nwidth 2\nmap\n..\n..\n..\n", 8},    // ends after row 3 of 4
        {"type octile\nheight 2\nwidth 3\nmap\n...\n...\n...\n", 7}, // one row too many
        {"type octile\r\nheight 2\r\nwidth 3\r\nmap\r\n...\r\n..\r\n", 6},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        counting_allocator ca;
        counting_allocator_init(&ca);
        test_log_capture logs = {0};
        wf_grid_data* g = NULL;
        wf_status st = load_counted(cases[i].text, strlen(cases[i].text), 1.0f, &ca, &logs, &g);
        if (st != WF_ERR_BAD_DATA) {
            print_error("case %zu (%s) gave %d\n", i, cases[i].text, (int)st);
        }
        assert_int_equal(st, WF_ERR_BAD_DATA);
        char expected[32];
        snprintf(expected, sizeof expected, "line %u:", cases[i].line);
        if (strstr(logs.last, expected) == NULL) {
            print_error("case %zu: log '%s' lacks '%s'\n", i, logs.last, expected);
        }
        assert_non_null(strstr(logs.last, expected));
        assert_int_equal(logs.count, 1);
    }
}

/// Only the whole file, with or without its final newline, loads.
static void test_every_truncation(void** state) {
    (void)state;
    size_t full = sizeof small_map - 1;
    for (size_t size = 0; size <= full; ++size) {
        counting_allocator ca;
        counting_allocator_init(&ca);
        test_log_capture logs = {0};
        wf_grid_data* g = NULL;
        wf_status st = load_counted(small_map, size, 1.0f, &ca, &logs, &g);
        if (size >= full - 1) {
            assert_int_equal(st, WF_OK);
            wf_grid v = wf_grid_data_view(g);
            assert_cells(&v, small_cells);
            destroy_counted(g, &ca);
        } else {
            assert_int_equal(st, WF_ERR_BAD_DATA);
            assert_non_null(strstr(logs.last, "line "));
        }
    }
}

static void test_out_of_memory(void** state) {
    (void)state;
    // Two allocations (the grid and its cells): failing either one fails
    // the load with nothing left allocated.
    for (unsigned long k = 1; k <= 2; ++k) {
        counting_allocator ca;
        counting_allocator_init(&ca);
        ca.fail_at = k;
        test_log_capture logs = {0};
        wf_grid_data* g = NULL;
        assert_int_equal(load_counted(small_map, sizeof small_map - 1, 1.0f, &ca, &logs, &g),
                         WF_ERR_OUT_OF_MEMORY);
        assert_int_equal(atomic_load(&ca.failed), 1);
    }
    counting_allocator ca;
    counting_allocator_init(&ca);
    ca.fail_at = 3;
    wf_grid_data* g = load_ok(small_map, 1.0f, &ca);
    assert_int_equal(atomic_load(&ca.failed), 0);
    destroy_counted(g, &ca);
}

static void test_misuse(void** state) {
    (void)state;
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    const char* t = small_map;
    size_t n = sizeof small_map - 1;
    wf_grid_data* g = (wf_grid_data*)(uintptr_t)1;
    assert_int_equal(wf_grid_load_movingai(t, n, 1.0f, NULL, NULL), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_grid_load_movingai(NULL, n, 1.0f, NULL, &g), WF_ERR_INVALID_ARG);
    assert_null(g);
    static const float bad_sizes[] = {0.0f, -1.0f, NAN, INFINITY};
    for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; ++i) {
        g = (wf_grid_data*)(uintptr_t)1;
        assert_int_equal(wf_grid_load_movingai(t, n, bad_sizes[i], NULL, &g), WF_ERR_INVALID_ARG);
        assert_null(g);
    }
    wf_set_assert_hook(previous);
    wf_grid_data_destroy(NULL);
    wf_grid v = wf_grid_data_view(NULL);
    assert_int_equal(v.width, 0);
    assert_null(v.walkable);
    // The default allocator (NULL desc) works too.
    assert_int_equal(wf_grid_load_movingai(t, n, 1.0f, NULL, &g), WF_OK);
    wf_grid_data_destroy(g);
}

static size_t count_walkable(const wf_grid* v) {
    size_t n = 0;
    for (size_t i = 0; i < (size_t)v->width * v->depth; ++i) {
        n += v->walkable[i] != 0;
    }
    return n;
}

/// The walkable counts were taken with `tail -n +5 FILE | tr -cd '.GS' | wc -c`.
static void check_map(const char* name, uint32_t width, uint32_t depth, size_t walkable) {
    char path[512];
    snprintf(path, sizeof path, "%s/movingai/maps/%s", WF_TESTDATA_DIR, name);
    size_t size = 0;
    char* text = test_read_file(path, &size);
    if (text == NULL) {
        skip();
    }
    counting_allocator ca;
    counting_allocator_init(&ca);
    test_log_capture logs = {0};
    wf_grid_data* g = NULL;
    assert_int_equal(load_counted(text, size, 1.0f, &ca, &logs, &g), WF_OK);
    wf_grid v = wf_grid_data_view(g);
    assert_int_equal(v.width, width);
    assert_int_equal(v.depth, depth);
    assert_int_equal(count_walkable(&v), walkable);
    // Spot checks against the text: row z starts after the 4 header lines.
    const char* row = text;
    for (int skipped = 0; skipped < 4; ++skipped) {
        row = (const char*)memchr(row, '\n', size - (size_t)(row - text)) + 1;
    }
    for (uint32_t z = 0; z < depth; ++z) {
        for (uint32_t x = 0; x < width; ++x) {
            char c = row[x];
            assert_int_equal(v.walkable[(size_t)z * width + x], c == '.' || c == 'G' || c == 'S');
        }
        row += width + 1;
    }
    free(text);
    destroy_counted(g, &ca);
}

static void test_arena_map(void** state) {
    (void)state;
    check_map("dao/arena.map", 49, 49, 2054);
}

static void test_den101d_map(void** state) {
    (void)state;
    check_map("dao/den101d.map", 73, 41, 1360);
}

/* ---------------------------------------------------------------------------
 * Grid -> span heightfield
 */

/// 3 x 3 grid at y 0 with the centre blocked, one column per cell. A floor
/// exactly at bmin gets step 1 (as a flat triangle there would); with bmin
/// one metre lower it is step 2 of 0.5 m.
static void test_fill_flat_grid_with_a_blocked_cell(void** state) {
    (void)state;
    const uint8_t walkable[9] = {1, 1, 1, 1, 0, 1, 1, 1, 1};
    wf_grid grid = {3, 3, 1.0f, {0, 0, 0}, walkable, NULL, NULL, NULL, 0};
    const float bmax[3] = {3, 4, 3};

    const float at_floor[3] = {0, 0, 0};
    hf_fixture f;
    hf_setup(&f, 3, 3, at_floor, bmax, 1.0f, 0.5f, 64);
    assert_int_equal(wf_heightfield_fill_grid(&f.hf, &grid), WF_OK);
    for (int z = 0; z < 3; ++z) {
        for (int x = 0; x < 3; ++x) {
            if (x == 1 && z == 1) {
                assert_column(&f.hf, x, z, 0);
            } else {
                assert_column(&f.hf, x, z, 1, 0, 1, 0);
            }
        }
    }
    hf_teardown(&f);

    const float below[3] = {0, -1, 0};
    hf_setup(&f, 3, 3, below, bmax, 1.0f, 0.5f, 64);
    assert_int_equal(wf_heightfield_fill_grid(&f.hf, &grid), WF_OK);
    assert_column(&f.hf, 0, 0, 1, 1, 2, 0);
    assert_column(&f.hf, 2, 1, 1, 1, 2, 0);
    assert_column(&f.hf, 1, 1, 0);
    assert_int_equal(f.hf.span_count, 8);
    hf_teardown(&f);
}

/// Per-cell heights and areas: the top is the first 0.5 m step at or above
/// the height (2.25 m is 4.5 steps -> top 5), heights outside the
/// heightfield's y range add nothing, and a blocked cell ignores its height.
static void test_fill_heights_and_areas(void** state) {
    (void)state;
    const uint8_t walkable[9] = {1, 1, 1, 1, 1, 1, 1, 1, 0};
    const float heights[9] = {0.5f, 1.0f, 1.5f, 2.0f, 2.25f, -0.75f, 3.0f, 3.25f, 100.0f};
    const uint8_t areas[9] = {0, 1, 2, 3, 63, 5, WF_AREA_NULL, 7, 200};
    wf_grid grid = {3, 3, 2.0f, {10, 0, 20}, walkable, heights, areas, NULL, 0};
    // bmin.y -0.5, ch 0.5: height h is (h + 0.5) / 0.5 steps; y range 7 steps.
    const float bmin[3] = {10, -0.5f, 20};
    const float bmax[3] = {16, 3.0f, 26};
    hf_fixture f;
    hf_setup(&f, 3, 3, bmin, bmax, 2.0f, 0.5f, 64);
    assert_int_equal(wf_heightfield_fill_grid(&f.hf, &grid), WF_OK);
    assert_column(&f.hf, 0, 0, 1, 1, 2, 0);            // 0.5 -> 2 steps
    assert_column(&f.hf, 1, 0, 1, 2, 3, 1);            // 1.0 -> 3
    assert_column(&f.hf, 2, 0, 1, 3, 4, 2);            // 1.5 -> 4
    assert_column(&f.hf, 0, 1, 1, 4, 5, 3);            // 2.0 -> 5
    assert_column(&f.hf, 1, 1, 1, 5, 6, 63);           // 2.25 -> 5.5 -> 6
    assert_column(&f.hf, 2, 1, 0);                     // -0.75: below bmin
    assert_column(&f.hf, 0, 2, 1, 6, 7, WF_AREA_NULL); // 3.0 -> 7: exactly at bmax
    assert_column(&f.hf, 1, 2, 0);                     // 3.25 -> 7.5 steps: above bmax
    assert_column(&f.hf, 2, 2, 0);                     // blocked (its area 200 is never read)
    hf_teardown(&f);
}

/// Columns of 0.5 m over 1 m cells, the heightfield reaching 1 m past the
/// grid on the low sides: column x has its centre at -1 + (x + 0.5) / 2, so
/// x = 0, 1 fall outside, x = 2, 3 in cell 0 and x = 4, 5 in cell 1.
static void test_fill_samples_the_cell_under_each_column_centre(void** state) {
    (void)state;
    const uint8_t walkable[4] = {1, 0, 0, 1}; // (0,0) and (1,1) walkable
    wf_grid grid = {2, 2, 1.0f, {0, 0, 0}, walkable, NULL, NULL, NULL, 0};
    const float bmin[3] = {-1, -1, -1};
    const float bmax[3] = {2, 1, 2};
    hf_fixture f;
    hf_setup(&f, 6, 6, bmin, bmax, 0.5f, 0.25f, 64);
    assert_int_equal(wf_heightfield_fill_grid(&f.hf, &grid), WF_OK);
    for (int z = 0; z < 6; ++z) {
        for (int x = 0; x < 6; ++x) {
            int gx = x < 2 ? -1 : (x - 2) / 2;
            int gz = z < 2 ? -1 : (z - 2) / 2;
            if (gx >= 0 && gz >= 0 && gx == gz) {
                assert_column(&f.hf, x, z, 1, 3, 4, 0); // y 0 is 4 steps of 0.25 above -1
            } else {
                assert_column(&f.hf, x, z, 0);
            }
        }
    }
    assert_int_equal(f.hf.span_count, 8);
    hf_teardown(&f);
}

/// Far from the origin (the undulating level sits at x, z ~ 5000), the same
/// sampling holds; a heightfield beside the grid gets nothing.
static void test_fill_far_from_the_origin(void** state) {
    (void)state;
    const uint8_t walkable[6] = {1, 0, 1, 1, 1, 0};
    const float heights[6] = {7.0f, 7.0f, 7.5f, 8.0f, 7.25f, 7.0f};
    wf_grid grid = {3, 2, 0.5f, {5000.0f, 6.0f, -4000.0f}, walkable, heights, NULL, NULL, 0};
    const float bmin[3] = {5000.0f, 6.0f, -4000.0f};
    const float bmax[3] = {5001.5f, 9.0f, -3999.0f};
    hf_fixture f;
    hf_setup(&f, 3, 2, bmin, bmax, 0.5f, 0.25f, 64);
    assert_int_equal(wf_heightfield_fill_grid(&f.hf, &grid), WF_OK);
    assert_column(&f.hf, 0, 0, 1, 3, 4, 0); // 7.0 is 4 steps above 6.0
    assert_column(&f.hf, 1, 0, 0);
    assert_column(&f.hf, 2, 0, 1, 5, 6, 0); // 7.5 -> 6
    assert_column(&f.hf, 0, 1, 1, 7, 8, 0); // 8.0 -> 8
    assert_column(&f.hf, 1, 1, 1, 4, 5, 0); // 7.25 -> 5
    assert_column(&f.hf, 2, 1, 0);
    hf_teardown(&f);

    const float beside_min[3] = {5001.5f, 6.0f, -4000.0f};
    const float beside_max[3] = {5003.0f, 9.0f, -3999.0f};
    hf_setup(&f, 3, 2, beside_min, beside_max, 0.5f, 0.25f, 64);
    assert_int_equal(wf_heightfield_fill_grid(&f.hf, &grid), WF_OK);
    assert_int_equal(f.hf.span_count, 0);
    hf_teardown(&f);
}

/// Extreme heights are skipped without overflow, and a step past the span
/// height limit is clamped to it.
static void test_fill_extreme_heights(void** state) {
    (void)state;
    const uint8_t walkable[4] = {1, 1, 1, 1};
    const float heights[4] = {1e30f, -1e30f, 70000.0f, 65535.0f};
    wf_grid grid = {4, 1, 1.0f, {0, 0, 0}, walkable, heights, NULL, NULL, 0};
    const float bmin[3] = {0, 0, 0};
    const float bmax[3] = {4, 1e6f, 1};
    hf_fixture f;
    hf_setup(&f, 4, 1, bmin, bmax, 1.0f, 1.0f, 64);
    assert_int_equal(wf_heightfield_fill_grid(&f.hf, &grid), WF_OK);
    assert_column(&f.hf, 0, 0, 0);
    assert_column(&f.hf, 1, 0, 0);
    assert_column(&f.hf, 2, 0, 1, 65534, 65535, 0);
    assert_column(&f.hf, 3, 0, 1, 65534, 65535, 0);
    hf_teardown(&f);
}

static void test_fill_reports_a_full_span_pool(void** state) {
    (void)state;
    const uint8_t walkable[4] = {1, 1, 1, 1};
    wf_grid grid = {2, 2, 1.0f, {0, 0, 0}, walkable, NULL, NULL, NULL, 0};
    const float bmin[3] = {0, -1, 0};
    const float bmax[3] = {2, 1, 2};
    hf_fixture f;
    hf_setup(&f, 2, 2, bmin, bmax, 1.0f, 0.5f, 3);
    assert_int_equal(wf_heightfield_fill_grid(&f.hf, &grid), WF_ERR_CAPACITY);
    assert_int_equal(f.hf.span_count, 3);
    hf_teardown(&f);
}

/// Bad grids are misuse. A bad height or area in a cell the heightfield
/// reads fails before any span is added; outside its footprint, or on a
/// blocked cell, it is never read.
static void test_fill_misuse(void** state) {
    (void)state;
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    const uint8_t walkable[4] = {1, 1, 1, 0};
    float heights[4] = {0, 0, 0, NAN};
    uint8_t areas[4] = {0, 0, 0, 64};
    const float bmin[3] = {0, -1, 0};
    const float bmax[3] = {2, 1, 2};
    hf_fixture f;
    hf_setup(&f, 2, 2, bmin, bmax, 1.0f, 0.5f, 64);
    wf_grid good = {2, 2, 1.0f, {0, 0, 0}, walkable, heights, areas, NULL, 0};

    wf_grid g = good;
    assert_int_equal(wf_heightfield_fill_grid(NULL, &g), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_heightfield_fill_grid(&f.hf, NULL), WF_ERR_INVALID_ARG);
    g.walkable = NULL;
    assert_int_equal(wf_heightfield_fill_grid(&f.hf, &g), WF_ERR_INVALID_ARG);
    g = good;
    g.width = 0;
    assert_int_equal(wf_heightfield_fill_grid(&f.hf, &g), WF_ERR_INVALID_ARG);
    g = good;
    g.depth = 0;
    assert_int_equal(wf_heightfield_fill_grid(&f.hf, &g), WF_ERR_INVALID_ARG);
    static const float bad[] = {0.0f, -1.0f, NAN, INFINITY};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        g = good;
        g.cell_size = bad[i];
        assert_int_equal(wf_heightfield_fill_grid(&f.hf, &g), WF_ERR_INVALID_ARG);
    }
    g = good;
    g.origin.y = NAN;
    assert_int_equal(wf_heightfield_fill_grid(&f.hf, &g), WF_ERR_INVALID_ARG);
    g = good;
    g.origin.x = -INFINITY;
    assert_int_equal(wf_heightfield_fill_grid(&f.hf, &g), WF_ERR_INVALID_ARG);
    assert_int_equal(f.hf.span_count, 0);

    // The NaN height and the area 64 sit on the blocked cell: fine.
    assert_int_equal(wf_heightfield_fill_grid(&f.hf, &good), WF_OK);
    assert_int_equal(f.hf.span_count, 3);
    hf_teardown(&f);

    // On the last walkable cell read, each fails with the field untouched.
    const uint8_t all[4] = {1, 1, 1, 1};
    g = good;
    g.walkable = all;
    hf_setup(&f, 2, 2, bmin, bmax, 1.0f, 0.5f, 64);
    g.areas = NULL;
    assert_int_equal(wf_heightfield_fill_grid(&f.hf, &g), WF_ERR_INVALID_ARG);
    heights[3] = INFINITY;
    assert_int_equal(wf_heightfield_fill_grid(&f.hf, &g), WF_ERR_INVALID_ARG);
    heights[3] = 0.0f;
    g.areas = areas;
    assert_int_equal(wf_heightfield_fill_grid(&f.hf, &g), WF_ERR_INVALID_ARG);
    assert_int_equal(f.hf.span_count, 0);
    areas[3] = WF_AREA_NULL; // an unwalkable top is a valid area
    assert_int_equal(wf_heightfield_fill_grid(&f.hf, &g), WF_OK);
    assert_column(&f.hf, 1, 1, 1, 1, 2, WF_AREA_NULL);
    hf_teardown(&f);
    wf_set_assert_hook(previous);
}

/// A loaded .map straight into a heightfield: one 0.5 m column per cell,
/// a span at y 0 exactly on the walkable characters.
static void test_fill_from_a_loaded_map(void** state) {
    (void)state;
    counting_allocator ca;
    counting_allocator_init(&ca);
    wf_grid_data* data = load_ok(small_map, 0.5f, &ca);
    wf_grid grid = wf_grid_data_view(data);
    const float bmin[3] = {0, -0.2f, 0};
    const float bmax[3] = {2, 2, 1.5f};
    hf_fixture f;
    hf_setup(&f, 4, 3, bmin, bmax, 0.5f, 0.2f, 64);
    assert_int_equal(wf_heightfield_fill_grid(&f.hf, &grid), WF_OK);
    for (int z = 0; z < 3; ++z) {
        for (int x = 0; x < 4; ++x) {
            if (small_cells[z * 4 + x] == '1') {
                assert_column(&f.hf, x, z, 1, 0, 1, 0);
            } else {
                assert_column(&f.hf, x, z, 0);
            }
        }
    }
    hf_teardown(&f);
    destroy_counted(data, &ca);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_map),
        cmocka_unit_test(test_tolerated_layouts),
        cmocka_unit_test(test_damage_is_rejected_with_its_line),
        cmocka_unit_test(test_every_truncation),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_misuse),
        cmocka_unit_test(test_arena_map),
        cmocka_unit_test(test_den101d_map),
        cmocka_unit_test(test_fill_flat_grid_with_a_blocked_cell),
        cmocka_unit_test(test_fill_heights_and_areas),
        cmocka_unit_test(test_fill_samples_the_cell_under_each_column_centre),
        cmocka_unit_test(test_fill_far_from_the_origin),
        cmocka_unit_test(test_fill_extreme_heights),
        cmocka_unit_test(test_fill_reports_a_full_span_pool),
        cmocka_unit_test(test_fill_misuse),
        cmocka_unit_test(test_fill_from_a_loaded_map),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
