// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// OBJ loader: exact vertices and fanned triangles of small inline files,
// every face-corner form, rejection of damage with its line number, every
// truncation, random corruption, out-of-memory at each allocation, and the
// Recast level meshes.
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
#include "test_hooks.h"
#include "test_log_capture.h"
#include "wayfarer/tilecache.h"

/// Loads a private copy of exactly `size` bytes (nothing after it, so a read
/// past the end shows under ASan) through a counting allocator. On failure
/// checks that *out is NULL and nothing is left allocated.
static wf_status load_counted(const char* text, size_t size, counting_allocator* ca,
                              test_log_capture* logs, wf_geom_data** out) {
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
    *out = (wf_geom_data*)(uintptr_t)1; // must be overwritten
    wf_status st = wf_geom_load_obj(copy, size, &d, out);
    free(copy);
    if (st != WF_OK) {
        assert_null(*out);
        assert_int_equal(counting_allocator_live(ca), 0);
    }
    return st;
}

static wf_geom_data* load_ok(const char* text, counting_allocator* ca) {
    test_log_capture logs = {0};
    wf_geom_data* g = NULL;
    assert_int_equal(load_counted(text, strlen(text), ca, &logs, &g), WF_OK);
    assert_non_null(g);
    assert_int_equal(logs.count, 0);
    return g;
}

static void destroy_counted(wf_geom_data* g, counting_allocator* ca) {
    wf_geom_data_destroy(g);
    assert_int_equal(counting_allocator_live(ca), 0);
    assert_int_equal(atomic_load(&ca->size_mismatches), 0);
}

static void assert_vert(const wf_geom* v, uint32_t i, float x, float y, float z) {
    assert_true(i < v->vert_count);
    assert_true(v->verts[i * 3 + 0] == x);
    assert_true(v->verts[i * 3 + 1] == y);
    assert_true(v->verts[i * 3 + 2] == z);
}

static void assert_tri(const wf_geom* v, uint32_t i, uint32_t a, uint32_t b, uint32_t c) {
    assert_true(i < v->tri_count);
    assert_int_equal(v->tris[i * 3 + 0], a);
    assert_int_equal(v->tris[i * 3 + 1], b);
    assert_int_equal(v->tris[i * 3 + 2], c);
}

static float tri_area2(const wf_geom* v, uint32_t t) {
    const uint32_t* i = v->tris + t * 3;
    wf_vec3 a = {v->verts[i[0] * 3], v->verts[i[0] * 3 + 1], v->verts[i[0] * 3 + 2]};
    wf_vec3 b = {v->verts[i[1] * 3], v->verts[i[1] * 3 + 1], v->verts[i[1] * 3 + 2]};
    wf_vec3 c = {v->verts[i[2] * 3], v->verts[i[2] * 3 + 1], v->verts[i[2] * 3 + 2]};
    return wf_v2_triangle_area2(a, b, c);
}

/* ---------------------------------------------------------------------------
 * Well-formed files
 */

static void test_one_triangle(void** state) {
    (void)state;
    counting_allocator ca;
    counting_allocator_init(&ca);
    wf_geom_data* g = load_ok("v 0 0 0\nv 0 0 1\nv 1.5 -2.25 0\nf 1 2 3\n", &ca);
    wf_geom v = wf_geom_data_view(g);
    assert_int_equal(v.vert_count, 3);
    assert_int_equal(v.tri_count, 1);
    assert_null(v.tri_areas);
    assert_vert(&v, 0, 0.0f, 0.0f, 0.0f);
    assert_vert(&v, 1, 0.0f, 0.0f, 1.0f);
    assert_vert(&v, 2, 1.5f, -2.25f, 0.0f);
    assert_tri(&v, 0, 0, 1, 2);
    wf_vec3 lo, hi;
    assert_true(wf_geom_bounds(&v, &lo, &hi));
    assert_true(lo.x == 0.0f && lo.y == -2.25f && lo.z == 0.0f);
    assert_true(hi.x == 1.5f && hi.y == 0.0f && hi.z == 1.0f);
    destroy_counted(g, &ca);
}

/// A floor whose OBJ normal points +Y stays counter-clockwise seen from
/// above (area2 > 0); the same face listed the other way round stays
/// clockwise: the loader keeps the file's order.
static void test_winding_is_kept(void** state) {
    (void)state;
    counting_allocator ca;
    counting_allocator_init(&ca);
    // (0,0,0) -> (0,0,1) -> (1,0,0): edge1 x edge2 = (0,0,1) x (1,0,0) = (0,1,0).
    wf_geom_data* g = load_ok("v 0 0 0\nv 0 0 1\nv 1 0 0\nf 1 2 3\nf 3 2 1\n", &ca);
    wf_geom v = wf_geom_data_view(g);
    assert_int_equal(v.tri_count, 2);
    assert_true(tri_area2(&v, 0) == 1.0f);
    assert_true(tri_area2(&v, 1) == -1.0f);
    destroy_counted(g, &ca);
}

static void test_quad_and_pentagon_are_fanned(void** state) {
    (void)state;
    counting_allocator ca;
    counting_allocator_init(&ca);
    // A unit square (normal +Y) and a pentagon around it.
    const char* text = "v 0 0 0\nv 0 0 1\nv 1 0 1\nv 1 0 0\n"
                       "f 1 2 3 4\n"
                       "v 2 0 0\nv 2 0 1\nv 3 0 2\nv 4 0 1\nv 4 0 0\n"
                       "f 5 6 7 8 9\n";
    wf_geom_data* g = load_ok(text, &ca);
    wf_geom v = wf_geom_data_view(g);
    assert_int_equal(v.vert_count, 9);
    assert_int_equal(v.tri_count, 2 + 3);
    assert_tri(&v, 0, 0, 1, 2);
    assert_tri(&v, 1, 0, 2, 3);
    assert_tri(&v, 2, 4, 5, 6);
    assert_tri(&v, 3, 4, 6, 7);
    assert_tri(&v, 4, 4, 7, 8);
    // The square's two halves each have area 1/2 (area2 = 1).
    assert_true(tri_area2(&v, 0) == 1.0f);
    assert_true(tri_area2(&v, 1) == 1.0f);
    for (uint32_t t = 2; t < 5; ++t) {
        assert_true(tri_area2(&v, t) > 0.0f);
    }
    destroy_counted(g, &ca);
}

static void test_negative_indices_count_back_from_the_last_vertex(void** state) {
    (void)state;
    counting_allocator ca;
    counting_allocator_init(&ca);
    const char* text = "v 0 0 0\nv 1 0 0\nv 2 0 0\n"
                       "f -3 -2 -1\n" // 0 1 2
                       "v 3 0 0\n"
                       "f -1 -4 -2\n"   // 3 0 2
                       "f 2 -1 -3 1\n"; // 1 3 1 0 -> (1 3 1) (1 1 0)
    wf_geom_data* g = load_ok(text, &ca);
    wf_geom v = wf_geom_data_view(g);
    assert_int_equal(v.vert_count, 4);
    assert_int_equal(v.tri_count, 4);
    assert_tri(&v, 0, 0, 1, 2);
    assert_tri(&v, 1, 3, 0, 2);
    assert_tri(&v, 2, 1, 3, 1);
    assert_tri(&v, 3, 1, 1, 0);
    destroy_counted(g, &ca);
}

static void test_corner_forms(void** state) {
    (void)state;
    counting_allocator ca;
    counting_allocator_init(&ca);
    const char* text = "v 0 0 0\nv 0 0 1\nv 1 0 1\nv 1 0 0\n"
                       "vt 0 0\nvt 0 1\nvt 1 1\nvn 0 1 0\n"
                       "f 1/1 2/2 3/3\n"
                       "f 1//1 3//1 4//1\n"
                       "f 4/3/1 3/2/1 2/1/1 1/1/1\n"
                       "f -4/-3/-1 -3//-1 -2/1\n";
    wf_geom_data* g = load_ok(text, &ca);
    wf_geom v = wf_geom_data_view(g);
    assert_int_equal(v.vert_count, 4);
    assert_int_equal(v.tri_count, 1 + 1 + 2 + 1);
    assert_tri(&v, 0, 0, 1, 2);
    assert_tri(&v, 1, 0, 2, 3);
    assert_tri(&v, 2, 3, 2, 1);
    assert_tri(&v, 3, 3, 1, 0);
    assert_tri(&v, 4, 0, 1, 2);
    destroy_counted(g, &ca);
}

/// CRLF, tabs, comments (whole-line and trailing), blank lines, a `w`
/// coordinate, vertex colours, and directives the loader does not use.
static void test_whitespace_comments_and_other_directives(void** state) {
    (void)state;
    counting_allocator ca;
    counting_allocator_init(&ca);
    const char* text = "# exported by hand\r\n"
                       "mtllib level.mtl\r\n"
                       "o Floor\r\n"
                       "\r\n"
                       "   \t\r\n"
                       "v\t1.0  2.0\t3.0\r\n"
                       "v 4 5 6 1.0\r\n"
                       "v -7e1 8.5E-1 +9 0.5 0.25 0.125\r\n"
                       "vn 0 1 0\r\n"
                       "vt 0.5 0.5\r\n"
                       "vp 0.1\r\n"
                       "g walls\r\n"
                       "usemtl stone\r\n"
                       "s off\r\n"
                       "l 1 2\r\n"
                       "  f 1 2 3 # trailing comment 4\r\n"
                       "#f 1 2 3\r\n"
                       "f\t3 2 1\r";
    wf_geom_data* g = load_ok(text, &ca);
    wf_geom v = wf_geom_data_view(g);
    assert_int_equal(v.vert_count, 3);
    assert_vert(&v, 0, 1.0f, 2.0f, 3.0f);
    assert_vert(&v, 1, 4.0f, 5.0f, 6.0f);
    assert_vert(&v, 2, -70.0f, 0.85f, 9.0f);
    assert_int_equal(v.tri_count, 2);
    assert_tri(&v, 0, 0, 1, 2);
    assert_tri(&v, 1, 2, 1, 0);
    destroy_counted(g, &ca);
}

/// The text is read only up to size: a digit right after the end must not
/// join the last index (which would make it 34, out of range).
static void test_text_is_not_nul_terminated(void** state) {
    (void)state;
    counting_allocator ca;
    counting_allocator_init(&ca);
    const char text[] = "v 0 0 0\nv 0 0 1\nv 1 0 0\nf 1 2 34";
    test_log_capture logs = {0};
    wf_geom_data* g = NULL;
    assert_int_equal(load_counted(text, sizeof text - 2, &ca, &logs, &g), WF_OK);
    wf_geom v = wf_geom_data_view(g);
    assert_int_equal(v.tri_count, 1);
    assert_tri(&v, 0, 0, 1, 2);
    destroy_counted(g, &ca);
}

static void test_empty_input_loads_an_empty_mesh(void** state) {
    (void)state;
    counting_allocator ca;
    counting_allocator_init(&ca);
    static const char* const texts[] = {"", "\n", "# nothing\r\n\r\n", "vn 0 1 0\no x\n"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; ++i) {
        wf_geom_data* g = load_ok(texts[i], &ca);
        wf_geom v = wf_geom_data_view(g);
        assert_int_equal(v.vert_count, 0);
        assert_int_equal(v.tri_count, 0);
        wf_vec3 lo, hi;
        assert_false(wf_geom_bounds(&v, &lo, &hi));
        destroy_counted(g, &ca);
    }
    // A NULL text of size 0 is the empty file too.
    wf_geom_data* g = NULL;
    assert_int_equal(wf_geom_load_obj(NULL, 0, NULL, &g), WF_OK);
    assert_non_null(g);
    assert_int_equal(wf_geom_data_view(g).vert_count, 0);
    wf_geom_data_destroy(g);
}

/* ---------------------------------------------------------------------------
 * Damaged files
 */

typedef struct bad_case {
    const char* text;
    unsigned line;
} bad_case;

static void test_damage_is_rejected_with_its_line(void** state) {
    (void)state;
    static const bad_case cases[] = {
        {"v 1 2\n", 1},
        {"v 1\n", 1},
        {"v\n", 1},
        {"v 1 2 x\n", 1},
        {"v 1 2 3x\n", 1},
        {"v 1..2 0 0\n", 1},
        {"v 1e 0 0\n", 1},
        {"v nan 0 0\n", 1},
        {"v 0 inf 0\n", 1},
        {"v 0 0 -infinity\n", 1},
        {"v 0x10 0 0\n", 1},
        {"v 1e39 0 0\n", 1}, // finite double, not a finite float
        {"v -1e300 0 0\n", 1},
        {"v 0 0 1234567890123456789012345678901234567890123456789012345678901234567890\n", 1},
        {"v 1 2 3 1 2 3 4 5\n", 1}, // more than w or a colour
        {"v 1 2 3 w\n", 1},
        {"f 1 2 3\n", 1}, // no vertices yet
        {"v 0 0 0\nv 1 0 0\nv 0 0 1\nf 0 1 2\n", 4},
        {"v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 4\n", 4},
        {"v 0 0 0\nv 1 0 0\nv 0 0 1\nf -4 1 2\n", 4},
        {"v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 -0\n", 4},
        {"v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 99999999999999999999999999\n", 4},
        {"v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 -99999999999999999999999999\n", 4},
        {"v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2\n", 4},
        {"v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1\n", 4},
        {"v 0 0 0\nv 1 0 0\nv 0 0 1\nf\n", 4},
        {"v 0 0 0\nv 1 0 0\nv 0 0 1\nf # 1 2 3\n", 4},
        {"v 0 0 0\nv 1 0 0\nv 0 0 1\nf a b c\n", 4},
        {"v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1.0 2 3\n", 4},
        {"v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1/ 2 3\n", 4},
        {"v 0 0 0\nv 1 0 0\nv 0 0 1\nf /1 2 3\n", 4},
        {"v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1// 2 3\n", 4},
        {"v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1/1/1/1 2 3\n", 4},
        {"v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1/x/1 2 3\n", 4},
        {"v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3 +\n", 4},
        {"v 0 0 0\r\nv 1 0 0\r\n\r\n# c\r\nv 0 0 1\r\nf 1 2 3\r\nf 1 2 5\r\n", 7},
        {"v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\nf 3 2 1\nv 0 0 z\n", 6},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        counting_allocator ca;
        counting_allocator_init(&ca);
        test_log_capture logs = {0};
        wf_geom_data* g = NULL;
        wf_status st = load_counted(cases[i].text, strlen(cases[i].text), &ca, &logs, &g);
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

static void test_misuse(void** state) {
    (void)state;
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    wf_geom_data* g = (wf_geom_data*)(uintptr_t)1;
    assert_int_equal(wf_geom_load_obj("v 0 0 0\n", 8, NULL, NULL), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_geom_load_obj(NULL, 8, NULL, &g), WF_ERR_INVALID_ARG);
    assert_null(g);
    counting_allocator ca;
    counting_allocator_init(&ca);
    wf_geom_load_desc half = {0};
    half.allocator = counting_allocator_hooks(&ca);
    half.allocator.free = NULL; // alloc without free
    g = (wf_geom_data*)(uintptr_t)1;
    assert_int_equal(wf_geom_load_obj("v 0 0 0\n", 8, &half, &g), WF_ERR_INVALID_ARG);
    assert_null(g);
    assert_int_equal(atomic_load(&ca.attempt), 0);
    wf_set_assert_hook(previous);

    // Destroying NULL is a no-op; its view is empty.
    wf_geom_data_destroy(NULL);
    wf_geom v = wf_geom_data_view(NULL);
    assert_null(v.verts);
    assert_int_equal(v.vert_count, 0);
    assert_int_equal(v.tri_count, 0);
}

static void test_bounds_of_views(void** state) {
    (void)state;
    const float verts[] = {1, 2, 3, -4, 5, 0.5f, 2, -6, 7};
    wf_geom v = {verts, 3, NULL, 0, NULL, NULL, 0};
    wf_vec3 lo, hi;
    assert_true(wf_geom_bounds(&v, &lo, &hi));
    assert_true(lo.x == -4.0f && lo.y == -6.0f && lo.z == 0.5f);
    assert_true(hi.x == 2.0f && hi.y == 5.0f && hi.z == 7.0f);
    v.vert_count = 1;
    assert_true(wf_geom_bounds(&v, &lo, &hi));
    assert_true(lo.x == 1.0f && hi.x == 1.0f && lo.z == 3.0f && hi.z == 3.0f);

    const float bad[] = {0, 0, 0, 1, NAN, 1};
    wf_geom n = {bad, 2, NULL, 0, NULL, NULL, 0};
    assert_false(wf_geom_bounds(&n, &lo, &hi));
    const float inf[] = {0, 0, INFINITY};
    wf_geom f = {inf, 1, NULL, 0, NULL, NULL, 0};
    assert_false(wf_geom_bounds(&f, &lo, &hi));
    wf_geom none = {NULL, 3, NULL, 0, NULL, NULL, 0};
    assert_false(wf_geom_bounds(&none, &lo, &hi));
    assert_false(wf_geom_bounds(NULL, &lo, &hi));
    assert_false(wf_geom_bounds(&v, NULL, &hi));
}

/* ---------------------------------------------------------------------------
 * Robustness: truncation, corruption, out of memory
 */

static const char small_level[] = "# small level\r\n"
                                  "v 0 0 0\r\nv 0 0 1.5\r\nv 1.5 0 1.5\r\nv 1.5 0 0\r\n"
                                  "vt 0 0\r\nvn 0 1 0\r\n"
                                  "g floor\r\n"
                                  "f 1/1/1 2/1/1 3/1/1 4/1/1\r\n"
                                  "v 3 0.25 0\r\nv 3 0.25 1.5\r\n"
                                  "f -3 -4 -1 -2\r\n"
                                  "f 4//1 3//1 6//1 5//1\r\n"
                                  "f 1 2 3\n";

/// Every prefix must load or be rejected as bad data, never crash or leak;
/// a prefix that loads holds only in-range indices.
static void test_every_truncation(void** state) {
    (void)state;
    size_t full = sizeof small_level - 1;
    for (size_t size = 0; size <= full; ++size) {
        counting_allocator ca;
        counting_allocator_init(&ca);
        test_log_capture logs = {0};
        wf_geom_data* g = NULL;
        wf_status st = load_counted(small_level, size, &ca, &logs, &g);
        assert_true(st == WF_OK || st == WF_ERR_BAD_DATA);
        if (st == WF_OK) {
            wf_geom v = wf_geom_data_view(g);
            for (uint32_t i = 0; i < v.tri_count * 3; ++i) {
                assert_true(v.tris[i] < v.vert_count);
            }
            destroy_counted(g, &ca);
        } else {
            assert_non_null(strstr(logs.last, "line "));
        }
    }
    // The whole file: 6 vertices, 2 + 2 + 2 + 1 triangles.
    counting_allocator ca;
    counting_allocator_init(&ca);
    wf_geom_data* g = load_ok(small_level, &ca);
    wf_geom v = wf_geom_data_view(g);
    assert_int_equal(v.vert_count, 6);
    assert_int_equal(v.tri_count, 7);
    assert_tri(&v, 2, 3, 2, 5); // -3 -4 -1 -2 with 6 vertices: 4 3 6 5
    assert_tri(&v, 3, 3, 5, 4);
    destroy_counted(g, &ca);
}

static uint32_t xorshift32(uint32_t* s) {
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *s = x;
    return x;
}

/// Random damage: flipped bytes, random bytes, interesting characters.
static void test_random_corruption(void** state) {
    (void)state;
    static const char interesting[] = "0123456789-+./ \t\r\n#vfeE\0\xff";
    size_t size = sizeof small_level - 1;
    char buffer[sizeof small_level];
    uint32_t rng = 0x9e3779b9u;
    int ok = 0, bad = 0;
    for (int round = 0; round < 4000; ++round) {
        memcpy(buffer, small_level, size);
        int edits = 1 + (int)(xorshift32(&rng) % 4);
        for (int e = 0; e < edits; ++e) {
            size_t at = xorshift32(&rng) % size;
            uint32_t kind = xorshift32(&rng) % 3;
            if (kind == 0) {
                buffer[at] = (char)(buffer[at] ^ (1u << (xorshift32(&rng) % 8)));
            } else if (kind == 1) {
                buffer[at] = (char)(xorshift32(&rng) & 0xff);
            } else {
                buffer[at] = interesting[xorshift32(&rng) % (sizeof interesting - 1)];
            }
        }
        size_t cut = (xorshift32(&rng) % 4 == 0) ? xorshift32(&rng) % (size + 1) : size;
        counting_allocator ca;
        counting_allocator_init(&ca);
        test_log_capture logs = {0};
        wf_geom_data* g = NULL;
        wf_status st = load_counted(buffer, cut, &ca, &logs, &g);
        assert_true(st == WF_OK || st == WF_ERR_BAD_DATA);
        if (st == WF_OK) {
            wf_geom v = wf_geom_data_view(g);
            for (uint32_t i = 0; i < v.tri_count * 3; ++i) {
                assert_true(v.tris[i] < v.vert_count);
            }
            for (uint32_t i = 0; i < v.vert_count * 3; ++i) {
                assert_true(isfinite(v.verts[i]));
            }
            destroy_counted(g, &ca);
            ok++;
        } else {
            bad++;
        }
    }
    // Both outcomes must occur, or the damage was not exercising anything.
    assert_true(ok > 100);
    assert_true(bad > 100);
}

/// Enough vertices and triangles that both arrays grow several times.
static char* make_grid_obj(int n, size_t* out_size) {
    size_t capacity = (size_t)(n + 1) * (n + 1) * 32 + (size_t)n * n * 40 + 1;
    char* text = malloc(capacity);
    assert_non_null(text);
    size_t len = 0;
    for (int z = 0; z <= n; ++z) {
        for (int x = 0; x <= n; ++x) {
            len += (size_t)snprintf(text + len, capacity - len, "v %d 0 %d\n", x, z);
        }
    }
    for (int z = 0; z < n; ++z) {
        for (int x = 0; x < n; ++x) {
            int a = z * (n + 1) + x + 1;
            len += (size_t)snprintf(text + len, capacity - len, "f %d %d %d %d\n", a, a + n + 1,
                                    a + n + 2, a + 1);
        }
    }
    *out_size = len;
    return text;
}

static void test_out_of_memory_at_every_allocation(void** state) {
    (void)state;
    size_t size;
    char* text = make_grid_obj(12, &size); // 169 vertices, 288 triangles
    unsigned long k = 1;
    for (;; ++k) {
        counting_allocator ca;
        counting_allocator_init(&ca);
        ca.fail_at = k;
        test_log_capture logs = {0};
        wf_geom_data* g = NULL;
        wf_status st = load_counted(text, size, &ca, &logs, &g);
        if (st == WF_OK) {
            assert_int_equal(atomic_load(&ca.failed), 0);
            wf_geom v = wf_geom_data_view(g);
            assert_int_equal(v.vert_count, 13 * 13);
            assert_int_equal(v.tri_count, 12 * 12 * 2);
            destroy_counted(g, &ca);
            break;
        }
        assert_int_equal(st, WF_ERR_OUT_OF_MEMORY);
        assert_int_equal(atomic_load(&ca.failed), 1);
    }
    // The struct, then vertices 64 -> 128 -> 256, triangles 64 -> 128 -> 256
    // -> 512: geometric growth, not one allocation per line.
    assert_int_equal(k, 1 + 3 + 4 + 1);
    free(text);
}

/* ---------------------------------------------------------------------------
 * The Recast level meshes
 */

static void check_level(const char* name, uint32_t verts, uint32_t tris) {
    char path[512];
    snprintf(path, sizeof path, "%s/recast/meshes/%s", WF_TESTDATA_DIR, name);
    size_t size = 0;
    char* text = test_read_file(path, &size);
    if (text == NULL) {
        skip();
    }
    counting_allocator ca;
    counting_allocator_init(&ca);
    test_log_capture logs = {0};
    wf_geom_data* g = NULL;
    assert_int_equal(load_counted(text, size, &ca, &logs, &g), WF_OK);
    free(text);
    wf_geom v = wf_geom_data_view(g);
    assert_int_equal(v.vert_count, verts);
    assert_int_equal(v.tri_count, tris);
    for (uint32_t i = 0; i < v.tri_count * 3; ++i) {
        assert_true(v.tris[i] < v.vert_count);
    }
    wf_vec3 lo, hi;
    assert_true(wf_geom_bounds(&v, &lo, &hi));
    destroy_counted(g, &ca);
}

/// SOURCE.md: 5101 v / 10133 f, every face a triangle.
static void test_dungeon_obj(void** state) {
    (void)state;
    check_level("dungeon.obj", 5101, 10133);
}

/// SOURCE.md: 884 v / 792 f. The faces are 8 triangles, 776 quads, 2
/// hexagons, 4 octagons and 2 twelve-gons (counted with awk on the file):
/// 8 + 776 * 2 + 2 * 4 + 4 * 6 + 2 * 10 = 1612 triangles.
static void test_nav_test_obj(void** state) {
    (void)state;
    check_level("nav_test.obj", 884, 1612);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_triangle),
        cmocka_unit_test(test_winding_is_kept),
        cmocka_unit_test(test_quad_and_pentagon_are_fanned),
        cmocka_unit_test(test_negative_indices_count_back_from_the_last_vertex),
        cmocka_unit_test(test_corner_forms),
        cmocka_unit_test(test_whitespace_comments_and_other_directives),
        cmocka_unit_test(test_text_is_not_nul_terminated),
        cmocka_unit_test(test_empty_input_loads_an_empty_mesh),
        cmocka_unit_test(test_damage_is_rejected_with_its_line),
        cmocka_unit_test(test_misuse),
        cmocka_unit_test(test_bounds_of_views),
        cmocka_unit_test(test_every_truncation),
        cmocka_unit_test(test_random_corruption),
        cmocka_unit_test(test_out_of_memory_at_every_allocation),
        cmocka_unit_test(test_dungeon_obj),
        cmocka_unit_test(test_nav_test_obj),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
