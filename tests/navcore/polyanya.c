// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Polyanya .mesh import: parsing and rejecting malformed text, winding,
// splitting large polygons, tiled import, and the arena scenarios' lengths.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_scenarios.h"

#include "counting_allocator.h"
#include "navcore/geometry.h"
#include "navcore/mesh_internal.h"
#include "test_hooks.h"
#include "test_log_capture.h"
#include "wayfarer/query.h"

/// The example of meshes/format.txt: the square (0,0)-(1.5,1.5) cut along
/// the diagonal from (1.5, 0) to (0, 1.5) into two triangles.
static const char example[] = "mesh\n"
                              "2\n"
                              "4 2\n"
                              "0.0 0.0 2 0 -1\n"
                              "1.5 0.0 3 0 1 -1\n"
                              "1.5 1.5 2 1 -1\n"
                              "0.0 1.5 3 -1 1 0\n"
                              "3 0 1 3 -1 -1 1\n"
                              "3 1 2 3 0 -1 -1\n";

/// An octagon with corners (2,0) (4,0) (6,2) (6,4) (4,6) (2,6) (0,4) (0,2):
/// area 36 - 4 * 2 = 28.
static const char octagon[] = "mesh 2 8 1\n"
                              "2 0 0\n4 0 0\n6 2 0\n6 4 0\n4 6 0\n2 6 0\n0 4 0\n0 2 0\n"
                              "8 0 1 2 3 4 5 6 7 -1 -1 -1 -1 -1 -1 -1 -1\n";

/// Imports a copy of exactly `size` bytes (no NUL after it, so an overread
/// shows up under ASan) through a counting allocator; checks no leaks on
/// failure.
static wf_status import_counted(const char* text, size_t size, float tile_size,
                                counting_allocator* ca, test_log_capture* logs, wf_mesh** out) {
    char* copy = malloc(size > 0 ? size : 1);
    assert_non_null(copy);
    memcpy(copy, text, size);
    wf_polyanya_import_desc d;
    memset(&d, 0, sizeof d);
    d.tile_size = tile_size;
    d.allocator = counting_allocator_hooks(ca);
    d.logger.log = test_capture_log;
    d.logger.user = logs;
    wf_status st = wf_mesh_import_polyanya(&d, copy, size, out);
    free(copy);
    if (st < 0) {
        assert_null(*out);
        assert_int_equal(counting_allocator_live(ca), 0);
    }
    return st;
}

static wf_mesh* import_ok(const char* text, float tile_size, counting_allocator* ca) {
    test_log_capture logs = {0};
    wf_mesh* mesh = NULL;
    assert_int_equal(import_counted(text, strlen(text), tile_size, ca, &logs, &mesh), WF_OK);
    assert_non_null(mesh);
    return mesh;
}

static void destroy_counted(wf_mesh* mesh, counting_allocator* ca) {
    wf_mesh_destroy(mesh);
    assert_int_equal(counting_allocator_live(ca), 0);
    assert_int_equal(atomic_load(&ca->size_mismatches), 0);
}

static wf_query* make_query(const wf_mesh* mesh) {
    wf_query* q = NULL;
    assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = mesh, .max_nodes = 65536}, &q),
                     WF_OK);
    return q;
}

/// True when (x, z) lies on the mesh: the nearest point in a tiny box is
/// the point itself.
static bool covered(wf_query* q, float x, float z) {
    wf_query_filter f = wf_query_filter_defaults();
    wf_poly_ref ref;
    wf_vec3 p;
    if (wf_query_find_nearest_poly(q, wf_v3(x, 0, z), wf_v3(0.01f, 1, 0.01f), &f, &ref, &p) !=
        WF_OK) {
        return false;
    }
    return fabsf(p.x - x) < 1e-5f && fabsf(p.z - z) < 1e-5f;
}

/// Shortest-path length between two points through the mesh, or -1.
static double path_length(wf_query* q, wf_vec3 a, wf_vec3 b, wf_status* out_status) {
    static wf_poly_ref corridor[65536];
    static wf_straight_point points[1024];
    wf_query_filter f = wf_query_filter_defaults();
    wf_vec3 half = wf_v3(0.01f, 1.0f, 0.01f);
    wf_poly_ref sr, gr;
    wf_vec3 sp, gp;
    *out_status = WF_ERR_NOT_FOUND;
    if (wf_query_find_nearest_poly(q, a, half, &f, &sr, &sp) != WF_OK ||
        wf_query_find_nearest_poly(q, b, half, &f, &gr, &gp) != WF_OK) {
        return -1.0;
    }
    wf_path_result pr;
    wf_status st = wf_query_find_path(q, sr, gr, sp, gp, &f, corridor, 65536, &pr);
    if (st < 0) {
        *out_status = st;
        return -1.0;
    }
    uint32_t n = 0;
    wf_status ss = wf_query_find_straight_path(q, sp, gp, corridor, pr.count, points, 1024, 0, &n);
    *out_status = st != WF_OK ? st : ss;
    double length = 0.0;
    for (uint32_t i = 1; i < n; ++i) {
        length += wf_v3_distance(points[i - 1].pos, points[i].pos);
    }
    return length;
}

/// Every ground polygon of every tile: 3..6 vertices, counter-clockwise.
static void check_polygons_ccw(const wf_mesh* mesh, double* out_area) {
    double area = 0.0;
    for (uint32_t s = 0; s < mesh->max_tiles; ++s) {
        const wf_mesh_tile* t = &mesh->tiles[s];
        if (!t->in_use) {
            continue;
        }
        for (uint32_t i = 0; i < t->header->poly_count - t->header->offmesh_count; ++i) {
            const wf_tile_poly* p = &t->polys[i];
            assert_in_range(p->vert_count, 3, WF_MAX_VERTS_PER_POLY);
            wf_vec3 v[WF_MAX_VERTS_PER_POLY];
            for (uint32_t k = 0; k < p->vert_count; ++k) {
                v[k] = wf_tile_vertex(t, p->verts[k]);
            }
            float a = wf_poly_area_2d(v, p->vert_count);
            assert_true(a > 0.0f);
            area += a;
        }
    }
    if (out_area != NULL) {
        *out_area = area;
    }
}

static void test_format_example_imports_two_triangles(void** state) {
    (void)state;
    counting_allocator ca;
    counting_allocator_init(&ca);
    wf_mesh* mesh = import_ok(example, 0.0f, &ca);
    wf_mesh_stats stats = wf_mesh_get_stats(mesh);
    assert_int_equal(stats.tile_count, 1);
    assert_int_equal(stats.poly_count, 2);
    double area;
    check_polygons_ccw(mesh, &area);
    assert_true(fabs(area - 1.5 * 1.5) < 1e-6);

    // (0.3, 0.3) lies in triangle 0 (x + z < 1.5), (1.2, 1.2) in triangle 1.
    // The segment between them crosses the diagonal: one straight line.
    wf_query* q = make_query(mesh);
    wf_query_filter f = wf_query_filter_defaults();
    wf_poly_ref a, b;
    wf_vec3 pa, pb;
    assert_int_equal(
        wf_query_find_nearest_poly(q, wf_v3(0.3f, 0, 0.3f), wf_v3(0.1f, 1, 0.1f), &f, &a, &pa),
        WF_OK);
    assert_int_equal(
        wf_query_find_nearest_poly(q, wf_v3(1.2f, 0, 1.2f), wf_v3(0.1f, 1, 0.1f), &f, &b, &pb),
        WF_OK);
    assert_false(wf_poly_ref_equal(a, b));
    wf_status st;
    double length = path_length(q, wf_v3(0.3f, 0, 0.3f), wf_v3(1.2f, 0, 1.2f), &st);
    assert_int_equal(st, WF_OK);
    assert_true(fabs(length - 0.9 * sqrt(2.0)) < 1e-5);
    wf_query_destroy(q);
    destroy_counted(mesh, &ca);
}

static void test_clockwise_input_is_reversed(void** state) {
    (void)state;
    // The same two triangles listed clockwise (and with spaces for newlines).
    const char* text = "mesh 2 4 2 0 0 2 0 -1 1.5 0 3 0 1 -1 1.5 1.5 2 1 -1 0 1.5 3 -1 1 0 "
                       "3 3 1 0 1 -1 -1 3 3 2 1 -1 -1 0";
    counting_allocator ca;
    counting_allocator_init(&ca);
    wf_mesh* mesh = import_ok(text, 0.0f, &ca);
    assert_int_equal(wf_mesh_get_stats(mesh).poly_count, 2);
    check_polygons_ccw(mesh, NULL);
    wf_query* q = make_query(mesh);
    assert_true(covered(q, 0.3f, 0.3f));
    assert_true(covered(q, 1.2f, 1.2f));
    assert_false(covered(q, 1.6f, 0.5f));
    wf_query_destroy(q);
    destroy_counted(mesh, &ca);
}

static void test_truncated_example_is_rejected_at_every_byte(void** state) {
    (void)state;
    size_t full = strlen(example);
    size_t last_token_end = full - 1; // the final newline is optional
    for (size_t size = 0; size <= full; ++size) {
        counting_allocator ca;
        counting_allocator_init(&ca);
        test_log_capture logs = {0};
        wf_mesh* mesh = NULL;
        wf_status st = import_counted(example, size, 0.0f, &ca, &logs, &mesh);
        if (size < last_token_end) {
            assert_int_equal(st, WF_ERR_BAD_DATA);
            assert_true(logs.count >= 1);
            assert_non_null(strstr(logs.last, "line "));
        } else {
            assert_int_equal(st, WF_OK);
            destroy_counted(mesh, &ca);
        }
    }
}

typedef struct bad_case {
    const char* text;
    wf_status status;
    const char* log; ///< expected in the log message
} bad_case;

static void test_malformed_input_is_rejected_with_its_line(void** state) {
    (void)state;
    const bad_case cases[] = {
        {"mash\n2\n0 0\n", WF_ERR_BAD_DATA, "line 1:"},
        {"", WF_ERR_BAD_DATA, "line 1:"},
        {"mesh\n1\n0 0\n", WF_ERR_VERSION, "line 2:"},
        {"mesh\n3\n0 0\n", WF_ERR_VERSION, "line 2:"},
        {"mesh\ntwo\n0 0\n", WF_ERR_BAD_DATA, "line 2:"},
        {"mesh\n2\n-1 2\n", WF_ERR_BAD_DATA, "line 3:"},
        {"mesh\n2\n4 -2\n", WF_ERR_BAD_DATA, "line 3:"},
        {"mesh\n2\n4000000000 2\n", WF_ERR_BAD_DATA, "line 3:"},
        {"mesh\n2\n99999999999999999999999 2\n", WF_ERR_BAD_DATA, "line 3:"},
        // Vertex lines: NaN, infinity, overflow, junk after a number,
        // neighbour out of range.
        {"mesh\n2\n1 0\nnan 0 0\n", WF_ERR_BAD_DATA, "line 4:"},
        {"mesh\n2\n1 0\n0 inf 0\n", WF_ERR_BAD_DATA, "line 4:"},
        {"mesh\n2\n1 0\n1e400 0 0\n", WF_ERR_BAD_DATA, "line 4:"},
        {"mesh\n2\n1 0\n1.5abc 0 0\n", WF_ERR_BAD_DATA, "line 4:"},
        {"mesh\n2\n1 1\n0 0 1 1\n", WF_ERR_BAD_DATA, "line 4:"},
        {"mesh\n2\n1 1\n0 0 1 -2\n", WF_ERR_BAD_DATA, "line 4:"},
        // Polygon lines: vertex index out of range, neighbour out of range,
        // too few vertices, a vertex twice.
        {"mesh\n2\n3 1\n0 0 0\n1 0 0\n0 1 0\n3 0 1 3 -1 -1 -1\n", WF_ERR_BAD_DATA, "line 7:"},
        {"mesh\n2\n3 1\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2 -1 1 -1\n", WF_ERR_BAD_DATA, "line 7:"},
        {"mesh\n2\n3 1\n0 0 0\n1 0 0\n0 1 0\n2 0 1 -1 -1\n", WF_ERR_BAD_DATA, "line 7:"},
        {"mesh\n2\n3 1\n0 0 0\n1 0 0\n0 1 0\n3 0 1 1 -1 -1 -1\n", WF_ERR_BAD_DATA, "line 7:"},
        // Geometry: collinear (no area), a dart (reflex vertex at (1, 1)),
        // a bow tie, a pentagram (every turn left, but wound twice).
        {"mesh\n2\n3 1\n0 0 0\n1 0 0\n2 0 0\n3 0 1 2 -1 -1 -1\n", WF_ERR_BAD_DATA, "degenerate"},
        {"mesh\n2\n4 1\n0 0 0\n4 0 0\n1 1 0\n0 4 0\n4 0 1 2 3 -1 -1 -1 -1\n", WF_ERR_BAD_DATA,
         "not convex"},
        {"mesh\n2\n4 1\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n4 0 1 2 3 -1 -1 -1 -1\n", WF_ERR_BAD_DATA,
         "line 8:"},
        {"mesh\n2\n5 1\n0 10 0\n9.511 3.09 0\n5.878 -8.09 0\n-5.878 -8.09 0\n-9.511 3.09 0\n"
         "5 0 2 4 1 3 -1 -1 -1 -1 -1\n",
         WF_ERR_BAD_DATA, "line 9:"},
        // Text after the last polygon, and a NUL inside a number.
        {"mesh\n2\n3 1\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2 -1 -1 -1\nextra\n", WF_ERR_BAD_DATA,
         "line 8:"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        counting_allocator ca;
        counting_allocator_init(&ca);
        test_log_capture logs = {0};
        wf_mesh* mesh = (wf_mesh*)&logs; // must be reset to NULL
        wf_status st =
            import_counted(cases[i].text, strlen(cases[i].text), 0.0f, &ca, &logs, &mesh);
        if (st != cases[i].status || strstr(logs.last, cases[i].log) == NULL) {
            fail_msg("case %zu: status %d, log \"%s\"", i, (int)st, logs.last);
        }
    }
    // A NUL byte is not whitespace: "0\0" is not a number.
    const char nul_text[] = "mesh\n2\n1 0\n0\0 0 0\n";
    counting_allocator ca;
    counting_allocator_init(&ca);
    test_log_capture logs = {0};
    wf_mesh* mesh = NULL;
    assert_int_equal(import_counted(nul_text, sizeof nul_text - 1, 0.0f, &ca, &logs, &mesh),
                     WF_ERR_BAD_DATA);
}

static void test_random_corruption_never_crashes(void** state) {
    (void)state;
    // Overwrites 1-3 bytes of small meshes with characters a mesh is made
    // of; whatever comes out must be a clean status without leaks.
    static const char alphabet[] = "0123456789-.e \n+xn";
    const char* sources[] = {example, octagon};
    wf_rng rng = wf_rng_make(7, 0);
    char buffer[512];
    for (int iteration = 0; iteration < 2000; ++iteration) {
        const char* source = sources[iteration % 2];
        size_t size = strlen(source);
        memcpy(buffer, source, size);
        uint32_t edits = 1 + wf_rng_below(&rng, 3);
        for (uint32_t e = 0; e < edits; ++e) {
            buffer[wf_rng_below(&rng, (uint32_t)size)] =
                alphabet[wf_rng_below(&rng, sizeof alphabet - 1)];
        }
        counting_allocator ca;
        counting_allocator_init(&ca);
        test_log_capture logs = {0};
        wf_mesh* mesh = NULL;
        float tile = (iteration / 2) % 2 ? 0.7f : 0.0f;
        wf_status st = import_counted(buffer, size, tile, &ca, &logs, &mesh);
        assert_true(st == WF_OK || st == WF_PARTIAL || st == WF_ERR_BAD_DATA ||
                    st == WF_ERR_VERSION || st == WF_ERR_CAPACITY);
        if (st >= 0) {
            check_polygons_ccw(mesh, NULL);
            destroy_counted(mesh, &ca);
        }
    }
}

static void test_misuse_returns_invalid_arg(void** state) {
    (void)state;
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    wf_polyanya_import_desc d;
    memset(&d, 0, sizeof d);
    d.logger.quiet = true;
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_import_polyanya(NULL, example, strlen(example), &mesh),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_mesh_import_polyanya(&d, NULL, 4, &mesh), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_mesh_import_polyanya(&d, example, strlen(example), NULL),
                     WF_ERR_INVALID_ARG);
    d.tile_size = -1.0f;
    assert_int_equal(wf_mesh_import_polyanya(&d, example, strlen(example), &mesh),
                     WF_ERR_INVALID_ARG);
    d.tile_size = NAN;
    assert_int_equal(wf_mesh_import_polyanya(&d, example, strlen(example), &mesh),
                     WF_ERR_INVALID_ARG);
    d.tile_size = 0.0f;
    d.scale = -2.0f;
    assert_int_equal(wf_mesh_import_polyanya(&d, example, strlen(example), &mesh),
                     WF_ERR_INVALID_ARG);
    assert_null(mesh);
    wf_set_assert_hook(previous);
}

static void test_out_of_memory_at_every_allocation_leaks_nothing(void** state) {
    (void)state;
    counting_allocator ca;
    counting_allocator_init(&ca);
    wf_mesh* mesh = import_ok(example, 0.5f, &ca);
    unsigned long needed = atomic_load(&ca.attempt);
    destroy_counted(mesh, &ca);
    for (unsigned long k = 1; k <= needed; ++k) {
        counting_allocator_init(&ca);
        ca.fail_at = k;
        test_log_capture logs = {0};
        mesh = NULL;
        assert_int_equal(import_counted(example, strlen(example), 0.5f, &ca, &logs, &mesh),
                         WF_ERR_OUT_OF_MEMORY);
    }
}

static void test_octagon_is_split_and_covers_its_area(void** state) {
    (void)state;
    counting_allocator ca;
    counting_allocator_init(&ca);
    wf_mesh* mesh = import_ok(octagon, 0.0f, &ca);
    // 8 vertices: one cut gives a 6-gon and a 4-gon.
    assert_int_equal(wf_mesh_get_stats(mesh).poly_count, 2);
    double area;
    check_polygons_ccw(mesh, &area);
    assert_true(fabs(area - 28.0) < 1e-4);
    wf_query* q = make_query(mesh);
    const float inside[][2] = {{3, 3}, {0.5f, 2.5f}, {5.5f, 3.5f}, {3, 0.1f}, {3, 5.9f}, {1, 1.1f}};
    for (size_t i = 0; i < sizeof inside / sizeof inside[0]; ++i) {
        assert_true(covered(q, inside[i][0], inside[i][1]));
    }
    assert_false(covered(q, 0.5f, 0.5f)); // the cut-off corner
    // Convex: the path between any two points is the straight segment.
    wf_status st;
    double length = path_length(q, wf_v3(0.5f, 0, 3.0f), wf_v3(5.5f, 0, 3.0f), &st);
    assert_int_equal(st, WF_OK);
    assert_true(fabs(length - 5.0) < 1e-5);
    wf_query_destroy(q);
    destroy_counted(mesh, &ca);
}

static void check_collinear_rectangle(const char* text) {
    counting_allocator ca;
    counting_allocator_init(&ca);
    wf_mesh* mesh = import_ok(text, 0.0f, &ca);
    double area;
    check_polygons_ccw(mesh, &area);
    assert_true(fabs(area - 20.0) < 1e-4);
    wf_query* q = make_query(mesh);
    for (float x = 0.25f; x < 10.0f; x += 0.5f) {
        assert_true(covered(q, x, 0.1f));
        assert_true(covered(q, x, 1.9f));
    }
    wf_status st;
    double length = path_length(q, wf_v3(0.5f, 0, 1.0f), wf_v3(9.5f, 0, 1.0f), &st);
    assert_int_equal(st, WF_OK);
    assert_true(fabs(length - 9.0) < 1e-5);
    wf_query_destroy(q);
    destroy_counted(mesh, &ca);
}

static void test_collinear_runs_split_without_slivers(void** state) {
    (void)state;
    // Rectangle 10 x 2 with four extra vertices on its bottom edge, listed
    // both ways round: for one of them a fan from the first vertex would
    // cut a zero-area piece.
    const char* texts[] = {
        "mesh 2 8 1\n0 0 0\n2 0 0\n4 0 0\n6 0 0\n8 0 0\n10 0 0\n10 2 0\n0 2 0\n"
        "8 0 1 2 3 4 5 6 7 -1 -1 -1 -1 -1 -1 -1 -1\n",
        "mesh 2 8 1\n0 0 0\n2 0 0\n4 0 0\n6 0 0\n8 0 0\n10 0 0\n10 2 0\n0 2 0\n"
        "8 5 4 3 2 1 0 7 6 -1 -1 -1 -1 -1 -1 -1 -1\n",
    };
    for (int i = 0; i < 2; ++i) {
        check_collinear_rectangle(texts[i]);
    }
}

/// Every portal edge of every tile has a link, and walls lie only on the
/// outer boundary x in {0, size}, z in {0, size} of a square mesh.
static void check_square_stitching(const wf_mesh* mesh, float size) {
    for (uint32_t s = 0; s < mesh->max_tiles; ++s) {
        const wf_mesh_tile* t = &mesh->tiles[s];
        if (!t->in_use) {
            continue;
        }
        for (uint32_t i = 0; i < t->header->poly_count; ++i) {
            const wf_tile_poly* p = &t->polys[i];
            for (uint32_t k = 0; k < p->vert_count; ++k) {
                wf_vec3 a = wf_tile_vertex(t, p->verts[k]);
                wf_vec3 b = wf_tile_vertex(t, p->verts[(k + 1) % p->vert_count]);
                bool outer = (a.x == 0 && b.x == 0) || (a.x == size && b.x == size) ||
                             (a.z == 0 && b.z == 0) || (a.z == size && b.z == size);
                bool linked = false;
                for (uint32_t l = t->first_link[i]; l != WF_NULL_LINK; l = t->links[l].next) {
                    linked |= t->links[l].edge == k;
                }
                if (linked == outer) {
                    fail_msg("tile %u poly %u edge %u (%g,%g)-(%g,%g): linked %d", s, i, k,
                             (double)a.x, (double)a.z, (double)b.x, (double)b.z, linked);
                }
            }
        }
    }
}

static void test_tiled_import_clips_and_connects(void** state) {
    (void)state;
    // The square (0,0)-(10,10) as four triangles around (3.7, 6.1), in
    // tiles of 3: 4 x 4 tiles (the last row and column 1 wide). The inner
    // edges cross the tile lines at inexact points, which both triangles
    // on an edge must compute alike.
    const char* text = "mesh 2 5 4\n"
                       "0 0 0\n10 0 0\n10 10 0\n0 10 0\n3.7 6.1 0\n"
                       "3 0 1 4 -1 -1 -1\n3 1 2 4 -1 -1 -1\n"
                       "3 2 3 4 -1 -1 -1\n3 3 0 4 -1 -1 -1\n";
    counting_allocator ca;
    counting_allocator_init(&ca);
    wf_mesh* mesh = import_ok(text, 3.0f, &ca);
    assert_int_equal(wf_mesh_get_stats(mesh).tile_count, 16);
    double area;
    check_polygons_ccw(mesh, &area);
    assert_true(fabs(area - 100.0) < 1e-3);
    wf_tile_ref tile;
    assert_int_equal(wf_mesh_find_tile(mesh, 1, 3, 0, &tile), WF_OK);
    wf_tile_info info;
    assert_int_equal(wf_mesh_get_tile_info(mesh, tile, &info), WF_OK);
    assert_true(info.bmin.x == 3.0f && info.bmax.x == 6.0f);
    assert_true(info.bmin.z == 9.0f && info.bmax.z == 12.0f);
    check_square_stitching(mesh, 10.0f);

    wf_query* q = make_query(mesh);
    for (float x = 0.05f; x < 10.0f; x += 0.7f) {
        for (float z = 0.05f; z < 10.0f; z += 0.7f) {
            assert_true(covered(q, x, z));
        }
    }
    // Corner to corner across all tiles: never shorter than the segment.
    wf_status st;
    double length = path_length(q, wf_v3(0.5f, 0, 9.5f), wf_v3(9.5f, 0, 0.5f), &st);
    assert_int_equal(st, WF_OK);
    assert_true(length >= 9.0 * sqrt(2.0) - 1e-4);
    assert_true(length <= 9.0 * sqrt(2.0) * 1.05);
    wf_query_destroy(q);
    destroy_counted(mesh, &ca);
}

static void test_tiled_l_shape_goes_round_the_corner(void** state) {
    (void)state;
    // Squares A (0,0)-(4,4), B (4,0)-(8,4) and C (0,4)-(4,8): an L. From
    // (7, 1) in B to (1, 7) in C the shortest path bends at (4, 4): length
    // 2 * sqrt(3^2 + 3^2).
    const char* text = "mesh 2 8 3\n"
                       "0 0 0\n4 0 0\n8 0 0\n8 4 0\n4 4 0\n0 4 0\n0 8 0\n4 8 0\n"
                       "4 0 1 4 5 -1 -1 -1 -1\n4 1 2 3 4 -1 -1 -1 -1\n4 5 4 7 6 -1 -1 -1 -1\n";
    const double expected = 2.0 * sqrt(18.0);
    const float tile_sizes[] = {0.0f, 3.0f, 2.5f, 1.0f};
    for (size_t i = 0; i < sizeof tile_sizes / sizeof tile_sizes[0]; ++i) {
        counting_allocator ca;
        counting_allocator_init(&ca);
        wf_mesh* mesh = import_ok(text, tile_sizes[i], &ca);
        double area;
        check_polygons_ccw(mesh, &area);
        assert_true(fabs(area - 48.0) < 1e-3);
        wf_query* q = make_query(mesh);
        assert_false(covered(q, 6.0f, 6.0f));
        wf_status st;
        double length = path_length(q, wf_v3(7, 0, 1), wf_v3(1, 0, 7), &st);
        assert_int_equal(st, WF_OK);
        assert_true(length >= expected - 1e-4);
        assert_true(length <= expected * 1.05);
        wf_query_destroy(q);
        destroy_counted(mesh, &ca);
    }
}

static void test_too_big_for_one_tile_needs_tiles(void** state) {
    (void)state;
    // A strip of 40000 unit squares: 80002 vertices do not fit one tile's
    // 16-bit indices; tiles of 100 hold 202 vertices each.
    enum { QUADS = 40000 };
    size_t cap = (size_t)QUADS * 64 + 64, at = 0;
    char* text = malloc(cap);
    assert_non_null(text);
    at += (size_t)snprintf(text + at, cap - at, "mesh 2 %d %d\n", 2 * (QUADS + 1), QUADS);
    for (int i = 0; i <= QUADS; ++i) {
        at += (size_t)snprintf(text + at, cap - at, "%d 0 0\n%d 1 0\n", i, i);
    }
    for (int i = 0; i < QUADS; ++i) {
        at += (size_t)snprintf(text + at, cap - at, "4 %d %d %d %d -1 -1 -1 -1\n", 2 * i, 2 * i + 2,
                               2 * i + 3, 2 * i + 1);
    }
    counting_allocator ca;
    counting_allocator_init(&ca);
    test_log_capture logs = {0};
    wf_mesh* mesh = NULL;
    assert_int_equal(import_counted(text, at, 0.0f, &ca, &logs, &mesh), WF_ERR_CAPACITY);
    assert_non_null(strstr(logs.last, "tile_size"));
    assert_int_equal(import_counted(text, at, 100.0f, &ca, &logs, &mesh), WF_OK);
    assert_int_equal(wf_mesh_get_stats(mesh).tile_count, QUADS / 100);
    assert_int_equal(wf_mesh_get_stats(mesh).poly_count, QUADS);
    wf_query* q = make_query(mesh);
    wf_status st;
    double length = path_length(q, wf_v3(0.5f, 0, 0.5f), wf_v3(250.5f, 0, 0.5f), &st);
    assert_int_equal(st, WF_OK);
    assert_true(fabs(length - 250.0) < 1e-3);
    wf_query_destroy(q);
    destroy_counted(mesh, &ca);
    free(text);
}

static void test_tile_size_too_small_is_refused(void** state) {
    (void)state;
    counting_allocator ca;
    counting_allocator_init(&ca);
    test_log_capture logs = {0};
    wf_mesh* mesh = NULL;
    // 1.5 / 1e-4 = 15000 cells a side: far past the grid limit.
    assert_int_equal(import_counted(example, strlen(example), 1e-4f, &ca, &logs, &mesh),
                     WF_ERR_CAPACITY);
}

static void test_scale_applies_to_coordinates_and_tiles(void** state) {
    (void)state;
    // Scale 2: the example square becomes (0,0)-(3,3); tiles of 0.5 file
    // units are 1 world unit wide: 3 x 3 tiles.
    counting_allocator ca;
    counting_allocator_init(&ca);
    wf_polyanya_import_desc d;
    memset(&d, 0, sizeof d);
    d.tile_size = 0.5f;
    d.scale = 2.0f;
    d.allocator = counting_allocator_hooks(&ca);
    d.logger.quiet = true;
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_import_polyanya(&d, example, strlen(example), &mesh), WF_OK);
    assert_int_equal(wf_mesh_get_stats(mesh).tile_count, 9);
    double area;
    check_polygons_ccw(mesh, &area);
    assert_true(fabs(area - 9.0) < 1e-4);
    wf_tile_ref tile;
    wf_tile_info info;
    assert_int_equal(wf_mesh_find_tile(mesh, 2, 1, 0, &tile), WF_OK);
    assert_int_equal(wf_mesh_get_tile_info(mesh, tile, &info), WF_OK);
    assert_true(info.bmin.x == 2.0f && info.bmax.x == 3.0f);
    assert_true(info.bmin.z == 1.0f && info.bmax.z == 2.0f);
    wf_query* q = make_query(mesh);
    wf_status st;
    double length = path_length(q, wf_v3(0.2f, 0, 2.8f), wf_v3(2.8f, 0, 0.2f), &st);
    assert_int_equal(st, WF_OK);
    assert_true(length >= 2.6 * sqrt(2.0) - 1e-4 && length <= 2.6 * sqrt(2.0) * 1.05);
    wf_query_destroy(q);
    destroy_counted(mesh, &ca);
}

static void test_import_is_deterministic(void** state) {
    (void)state;
    counting_allocator ca;
    counting_allocator_init(&ca);
    wf_mesh* a = import_ok(octagon, 1.7f, &ca);
    wf_mesh* b = import_ok(octagon, 1.7f, &ca);
    size_t size_a = 0, size_b = 0;
    assert_int_equal(wf_mesh_save_size(a, &size_a), WF_OK);
    assert_int_equal(wf_mesh_save_size(b, &size_b), WF_OK);
    assert_int_equal(size_a, size_b);
    unsigned char* blob_a = malloc(size_a);
    unsigned char* blob_b = malloc(size_b);
    assert_int_equal(wf_mesh_save(a, blob_a, size_a), WF_OK);
    assert_int_equal(wf_mesh_save(b, blob_b, size_b), WF_OK);
    assert_memory_equal(blob_a, blob_b, size_a);
    free(blob_a);
    free(blob_b);
    wf_mesh_destroy(a);
    destroy_counted(b, &ca);
}

/* ---------------------------------------------------------------------------
 * The arena scenarios (shared test data; skipped when absent)
 */

#define ARENA_DIR WF_TESTDATA_DIR "/polyanya"

static void run_arena(const char* mesh_file, float tile_size) {
    size_t size;
    char* text = test_read_all(mesh_file, &size);
    assert_non_null(text);
    static arena_row rows[512];
    size_t count = test_read_arena_rows(ARENA_DIR "/expected/arena_euclidean.tsv", rows, 512);
    assert_int_equal(count, 160);
    counting_allocator ca;
    counting_allocator_init(&ca);
    test_log_capture logs = {0};
    wf_mesh* mesh = NULL;
    assert_int_equal(import_counted(text, size, tile_size, &ca, &logs, &mesh), WF_OK);
    free(text);
    wf_query* q = make_query(mesh);
    double ratio_sum = 0.0, worst = 0.0;
    size_t rated = 0, worst_row = 0, failures = 0;
    for (size_t i = 0; i < count; ++i) {
        wf_status st;
        double length =
            path_length(q, wf_v3(rows[i].sx, 0, rows[i].sy), wf_v3(rows[i].gx, 0, rows[i].gy), &st);
        if (st != WF_OK || length < rows[i].euclidean - 1e-4 ||
            (rows[i].euclidean == 0.0 && length >= 1e-4)) {
            print_message("row %zu: status %d, length %.6f, optimum %.6f\n", i, (int)st, length,
                          rows[i].euclidean);
            failures++;
            continue;
        }
        if (rows[i].euclidean > 0.0) {
            double ratio = length / rows[i].euclidean;
            ratio_sum += ratio;
            rated++;
            if (ratio > worst) {
                worst = ratio;
                worst_row = i;
            }
        }
    }
    print_message("%s tile_size %g: mean ratio %.6f, worst %.6f (row %zu)\n",
                  strrchr(mesh_file, '/') + 1, (double)tile_size,
                  rated > 0 ? ratio_sum / (double)rated : 0.0, worst, worst_row);
    assert_int_equal(failures, 0);
    wf_query_destroy(q);
    destroy_counted(mesh, &ca);
}

static void test_arena_scenarios(void** state) {
    (void)state;
    FILE* probe = fopen(ARENA_DIR "/meshes/arena.mesh", "rb");
    if (probe == NULL) {
        print_message("no test data at %s: skipped\n", ARENA_DIR);
        skip();
    }
    fclose(probe);
    run_arena(ARENA_DIR "/meshes/arena.mesh", 0.0f);
    run_arena(ARENA_DIR "/meshes/arena.mesh", 16.0f);
    run_arena(ARENA_DIR "/meshes/arena-merged.mesh", 0.0f);
    run_arena(ARENA_DIR "/meshes/arena-merged.mesh", 16.0f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_example_imports_two_triangles),
        cmocka_unit_test(test_clockwise_input_is_reversed),
        cmocka_unit_test(test_truncated_example_is_rejected_at_every_byte),
        cmocka_unit_test(test_malformed_input_is_rejected_with_its_line),
        cmocka_unit_test(test_random_corruption_never_crashes),
        cmocka_unit_test(test_misuse_returns_invalid_arg),
        cmocka_unit_test(test_out_of_memory_at_every_allocation_leaks_nothing),
        cmocka_unit_test(test_octagon_is_split_and_covers_its_area),
        cmocka_unit_test(test_collinear_runs_split_without_slivers),
        cmocka_unit_test(test_tiled_import_clips_and_connects),
        cmocka_unit_test(test_tiled_l_shape_goes_round_the_corner),
        cmocka_unit_test(test_too_big_for_one_tile_needs_tiles),
        cmocka_unit_test(test_tile_size_too_small_is_refused),
        cmocka_unit_test(test_scale_applies_to_coordinates_and_tiles),
        cmocka_unit_test(test_import_is_deterministic),
        cmocka_unit_test(test_arena_scenarios),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
