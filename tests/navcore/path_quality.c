// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// How short the default search's paths are once pulled: grid meshes where
// the old "line to the goal" entry rule kept a longer corridor (against a
// visibility-graph optimum computed here), the Polyanya arena rows against
// their Euclidean optima, and a Moving AI map against its octile optima
// (shared test data; skipped when absent).
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

#include "test_meshes.h"
#include "wayfarer/query.h"
#include "wayfarer/rng.h"

#define TESTDATA WF_TESTDATA_DIR

/* ---------------------------------------------------------------------------
 * Pulled paths and an independent optimum on grids of unit cells
 */

/// find_path + find_straight_path between two points snapped with a box of
/// half size `snap`; the straight path's length, or -1.
static double pulled_length(wf_query* q, wf_vec3 a, wf_vec3 b, float snap) {
    static wf_poly_ref corridor[65536];
    static wf_straight_point points[4096];
    wf_query_filter f = wf_query_filter_defaults();
    wf_vec3 half = wf_v3(snap, 1.0f, snap);
    wf_poly_ref sr, gr;
    wf_vec3 sp, gp;
    if (wf_query_find_nearest_poly(q, a, half, &f, &sr, &sp) != WF_OK ||
        wf_query_find_nearest_poly(q, b, half, &f, &gr, &gp) != WF_OK) {
        return -1.0;
    }
    wf_path_result pr;
    if (wf_query_find_path(q, sr, gr, sp, gp, &f, corridor, 65536, &pr) != WF_OK) {
        return -1.0;
    }
    uint32_t n = 0;
    if (wf_query_find_straight_path(q, sp, gp, corridor, pr.count, points, 4096, 0, &n) != WF_OK) {
        return -1.0;
    }
    double length = 0.0;
    for (uint32_t i = 1; i < n; ++i) {
        length += wf_v3_distance(points[i - 1].pos, points[i].pos);
    }
    return length;
}

typedef struct grid {
    const uint8_t* blocked; ///< one byte per cell, row by row (z)
    int width, depth;
} grid;

static bool grid_blocked(const grid* g, int x, int z) {
    return x < 0 || z < 0 || x >= g->width || z >= g->depth || g->blocked[z * g->width + x];
}

/// Segment p-q stays in the free cells: it crosses no blocked cell's inside
/// and runs along no grid line with blocked cells on both sides (touching
/// a blocked cell is fine). Grids here have no two blocked cells meeting
/// at a corner only.
static bool grid_clear(const grid* g, double px, double pz, double qx, double qz) {
    for (int axis = 0; axis < 2; ++axis) {
        double u0 = axis ? pz : px, u1 = axis ? qz : qx, v0 = axis ? px : pz, v1 = axis ? qx : qz;
        if (fabs(v0 - v1) < 1e-9 && fabs(v0 - floor(v0 + 0.5)) < 1e-9) {
            int line = (int)floor(v0 + 0.5);
            for (int c = (int)floor(fmin(u0, u1)); c < (int)ceil(fmax(u0, u1)); ++c) {
                bool one = axis ? grid_blocked(g, line - 1, c) : grid_blocked(g, c, line - 1);
                bool two = axis ? grid_blocked(g, line, c) : grid_blocked(g, c, line);
                if (one && two) {
                    return false;
                }
            }
        }
    }
    int x0 = (int)floor(fmin(px, qx)) - 1, x1 = (int)floor(fmax(px, qx)) + 1;
    int z0 = (int)floor(fmin(pz, qz)) - 1, z1 = (int)floor(fmax(pz, qz)) + 1;
    for (int z = z0; z <= z1; ++z) {
        for (int x = x0; x <= x1; ++x) {
            if (!grid_blocked(g, x, z)) {
                continue;
            }
            // Clip the segment to the cell's open square.
            double d[2] = {qx - px, qz - pz}, o[2] = {px, pz};
            double lo[2] = {x, z}, hi[2] = {x + 1.0, z + 1.0};
            double t0 = 0.0, t1 = 1.0;
            bool inside = true;
            for (int a = 0; a < 2 && inside; ++a) {
                if (fabs(d[a]) < 1e-12) {
                    inside = o[a] > lo[a] + 1e-9 && o[a] < hi[a] - 1e-9;
                } else {
                    double ta = (lo[a] - o[a]) / d[a], tb = (hi[a] - o[a]) / d[a];
                    t0 = fmax(t0, fmin(ta, tb));
                    t1 = fmin(t1, fmax(ta, tb));
                }
            }
            if (inside && t1 - t0 > 1e-9) {
                return false;
            }
        }
    }
    return true;
}

#define MAX_VISIBILITY_POINTS 512

/// The shortest way between two points of free cells: Dijkstra over a
/// visibility graph of the convex corners of the blocked cells.
static double grid_shortest(const grid* g, double sx, double sz, double gx, double gz) {
    static double px[MAX_VISIBILITY_POINTS], pz[MAX_VISIBILITY_POINTS];
    static double dist[MAX_VISIBILITY_POINTS];
    static bool done[MAX_VISIBILITY_POINTS];
    int n = 0;
    px[n] = sx, pz[n++] = sz;
    px[n] = gx, pz[n++] = gz;
    for (int z = 0; z <= g->depth; ++z) {
        for (int x = 0; x <= g->width; ++x) {
            int around = grid_blocked(g, x - 1, z - 1) + grid_blocked(g, x, z - 1) +
                         grid_blocked(g, x - 1, z) + grid_blocked(g, x, z);
            if (around == 1) {
                assert_true(n < MAX_VISIBILITY_POINTS);
                px[n] = x, pz[n++] = z;
            }
        }
    }
    for (int i = 0; i < n; ++i) {
        dist[i] = INFINITY;
        done[i] = false;
    }
    dist[0] = 0.0;
    for (;;) {
        int u = -1;
        for (int i = 0; i < n; ++i) {
            if (!done[i] && (u < 0 || dist[i] < dist[u])) {
                u = i;
            }
        }
        if (u < 0 || u == 1 || isinf(dist[u])) {
            break;
        }
        done[u] = true;
        for (int v = 0; v < n; ++v) {
            double d = dist[u] + hypot(px[v] - px[u], pz[v] - pz[u]);
            if (!done[v] && d < dist[v] && grid_clear(g, px[u], pz[u], px[v], pz[v])) {
                dist[v] = d;
            }
        }
    }
    return dist[1];
}

/* ---------------------------------------------------------------------------
 * Random grids: one square polygon per cell, many small polygons
 */

/// Whether two blocked cells meet at a corner only somewhere (grid_clear
/// does not handle that).
static bool grid_has_corner_contact(const uint8_t* b, int n) {
    for (int z = 0; z + 1 < n; ++z) {
        for (int x = 0; x + 1 < n; ++x) {
            uint8_t p = b[z * n + x], q = b[z * n + x + 1], r = b[(z + 1) * n + x],
                    t = b[(z + 1) * n + x + 1];
            if ((p && t && !q && !r) || (q && r && !p && !t)) {
                return true;
            }
        }
    }
    return false;
}

/// Random 10 x 10 maps of rectangular blocks, random pairs of cell
/// centres, against the exact shortest way: the default search keeps one
/// state per polygon, so a way with a lower total but a narrower funnel can
/// take a polygon first (13 of these 663 pairs end more than 1 % over the
/// optimum, 57 over it). Held to issue 13's bounds for meshes (mean ratio
/// 1.005, worst 1.05); a search that kept up to three states per polygon
/// (docs/benchmarks.md) leaves none over 1 % at about twice the cost.
static void test_random_grids_near_the_optimum(void** state) {
    (void)state;
    wf_rng rng = wf_rng_make(13, 5);
    uint32_t pairs = 0, over_noise = 0, over_percent = 0;
    double worst = 1.0, ratio_sum = 0.0;
    for (int map = 0; map < 40; ++map) {
        uint8_t blocked[100];
        do {
            memset(blocked, 0, sizeof blocked);
            for (int k = 0; k < 5; ++k) {
                int x0 = (int)wf_rng_range(&rng, 0.0f, 9.0f),
                    z0 = (int)wf_rng_range(&rng, 0.0f, 9.0f);
                int w = 1 + (int)wf_rng_range(&rng, 0.0f, 3.0f),
                    d = 1 + (int)wf_rng_range(&rng, 0.0f, 3.0f);
                for (int z = z0; z < z0 + d && z < 10; ++z) {
                    for (int x = x0; x < x0 + w && x < 10; ++x) {
                        blocked[z * 10 + x] = 1;
                    }
                }
            }
        } while (grid_has_corner_contact(blocked, 10));
        wf_mesh* mesh = test_mesh_grid(1, 1, 10, 1.0f, blocked, NULL, NULL);
        assert_non_null(mesh);
        wf_query* q = NULL;
        assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = mesh, .max_nodes = 512}, &q),
                         WF_OK);
        grid g = {blocked, 10, 10};
        for (int k = 0; k < 25; ++k) {
            int sx = (int)wf_rng_range(&rng, 0.0f, 10.0f),
                sz = (int)wf_rng_range(&rng, 0.0f, 10.0f);
            int gx = (int)wf_rng_range(&rng, 0.0f, 10.0f),
                gz = (int)wf_rng_range(&rng, 0.0f, 10.0f);
            if (sx > 9 || sz > 9 || gx > 9 || gz > 9 || blocked[sz * 10 + sx] ||
                blocked[gz * 10 + gx]) {
                continue;
            }
            double optimum = grid_shortest(&g, sx + 0.5, sz + 0.5, gx + 0.5, gz + 0.5);
            double length = pulled_length(q, wf_v3(sx + 0.5f, 0, sz + 0.5f),
                                          wf_v3(gx + 0.5f, 0, gz + 0.5f), 0.1f);
            if (isinf(optimum)) {
                assert_true(length < 0.0); // walled off both ways
                continue;
            }
            assert_true(length >= optimum - 1e-4);
            pairs++;
            over_noise += length > optimum + 1e-4;
            over_percent += length > optimum * 1.01;
            double ratio = optimum > 1e-6 ? length / optimum : 1.0; // same cell: 0 / 0
            worst = fmax(worst, ratio);
            ratio_sum += ratio;
        }
        wf_query_destroy(q);
        wf_mesh_destroy(mesh);
    }
    double mean = ratio_sum / (double)pairs;
    print_message("random grids: %u pairs, %u over the optimum, %u by more than 1 %%, mean %.5f, "
                  "worst %.4f\n",
                  pairs, over_noise, over_percent, mean, worst);
    assert_true(pairs > 500);
    assert_true(mean <= 1.005);
    assert_true(worst <= 1.05);
    assert_true(over_percent <= pairs / 40u); // 2.5 %: a few, not a trend
}

/* ---------------------------------------------------------------------------
 * Hand-made meshes: the old entry rule kept a longer corridor
 */

typedef struct hand_case {
    const char* rows[10];
    uint32_t sx, sz, gx, gz;
    double old_length; ///< what the old rule's corridor gave once pulled
} hand_case;

// Found on 10 x 10 maps of random blocks; the old rule's pulled lengths are
// kept to show each case matters (they are 4 % to 5 % over the optimum).
static const hand_case HAND_CASES[] = {
    {{"..........", "......##..", "......##..", "....#.##..", "....#.....", "....#.##..",
      "......###.", "........#.", "..........", ".........."},
     6,
     7,
     9,
     7,
     3.4142},
    {{".####.....", "..###.....", "..#####...", ".######...", "....###...", "....###...",
      "..........", "..........", "..........", ".........."},
     4,
     7,
     1,
     2,
     6.9385},
    {{"..........", "..........", "..######..", "..######..", "..####....", "..........",
      "..........", "..........", "..........", ".........."},
     7,
     0,
     1,
     7,
     11.4646},
};

static void test_hand_made_grids_get_the_shortest_way(void** state) {
    (void)state;
    for (size_t k = 0; k < sizeof HAND_CASES / sizeof HAND_CASES[0]; ++k) {
        const hand_case* c = &HAND_CASES[k];
        uint8_t blocked[100];
        for (int z = 0; z < 10; ++z) {
            assert_int_equal(strlen(c->rows[z]), 10);
            for (int x = 0; x < 10; ++x) {
                blocked[z * 10 + x] = c->rows[z][x] == '#';
            }
        }
        wf_mesh* mesh = test_mesh_grid(1, 1, 10, 1.0f, blocked, NULL, NULL);
        assert_non_null(mesh);
        wf_query* q = NULL;
        assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = mesh, .max_nodes = 256}, &q),
                         WF_OK);
        grid g = {blocked, 10, 10};
        double optimum = grid_shortest(&g, c->sx + 0.5, c->sz + 0.5, c->gx + 0.5, c->gz + 0.5);
        double length = pulled_length(q, wf_v3(c->sx + 0.5f, 0, c->sz + 0.5f),
                                      wf_v3(c->gx + 0.5f, 0, c->gz + 0.5f), 0.1f);
        print_message("case %zu: length %.4f, optimum %.4f (old rule %.4f)\n", k, length, optimum,
                      c->old_length);
        assert_true(c->old_length > optimum * 1.03);
        assert_true(length >= optimum - 1e-4);
        assert_true(length <= optimum + 1e-4);
        wf_query_destroy(q);
        wf_mesh_destroy(mesh);
    }
}

/// A wall with one gap: the detour through it, and the cost the search
/// reports is the pulled length of its corridor (no area changes).
static void test_cost_is_the_pulled_length(void** state) {
    (void)state;
    static const char* const rows[6] = {"......", "..##..", "..##..", "..##..", "......", "......"};
    uint8_t blocked[36];
    for (int i = 0; i < 36; ++i) {
        blocked[i] = rows[i / 6][i % 6] == '#';
    }
    wf_mesh* mesh = test_mesh_grid(1, 1, 6, 1.0f, blocked, NULL, NULL);
    wf_query* q = NULL;
    assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = mesh, .max_nodes = 64}, &q), WF_OK);
    wf_query_filter f = wf_query_filter_defaults();
    wf_vec3 a = wf_v3(1.5f, 0, 2.5f), b = wf_v3(4.5f, 0, 2.5f);
    wf_poly_ref sr, gr, corridor[64];
    wf_vec3 sp, gp;
    assert_int_equal(wf_query_find_nearest_poly(q, a, wf_v3(0.1f, 1, 0.1f), &f, &sr, &sp), WF_OK);
    assert_int_equal(wf_query_find_nearest_poly(q, b, wf_v3(0.1f, 1, 0.1f), &f, &gr, &gp), WF_OK);
    wf_path_result pr;
    assert_int_equal(wf_query_find_path(q, sr, gr, sp, gp, &f, corridor, 64, &pr), WF_OK);
    wf_straight_point points[16];
    uint32_t n = 0;
    assert_int_equal(wf_query_find_straight_path(q, sp, gp, corridor, pr.count, points, 16, 0, &n),
                     WF_OK);
    double length = 0.0;
    for (uint32_t i = 1; i < n; ++i) {
        length += wf_v3_distance(points[i - 1].pos, points[i].pos);
    }
    // Round (2,1) and (4,1) or (2,4) and (4,4): sqrt(0.5^2 + 1.5^2) * 2 + 2.
    double shortest = 2.0 * hypot(0.5, 1.5) + 2.0;
    assert_float_equal(length, shortest, 1e-4);
    assert_float_equal(pr.cost, length, 1e-4);
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
}

/* ---------------------------------------------------------------------------
 * Shared test data
 */

/// Goals for the default mode on the arena (Euclidean optima): mean ratio
/// at most 1.005 and every row at most 1.002 (the old rule: up to 1.040).
static void run_arena(const char* name, float tile_size) {
    char path[512];
    snprintf(path, sizeof path, "%s/polyanya/meshes/%s", TESTDATA, name);
    size_t size;
    char* text = test_read_all(path, &size);
    assert_non_null(text);
    wf_mesh* mesh = NULL;
    wf_polyanya_import_desc d = {.tile_size = tile_size};
    assert_int_equal(wf_mesh_import_polyanya(&d, text, size, &mesh), WF_OK);
    free(text);
    wf_query* q = NULL;
    assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = mesh, .max_nodes = 4096}, &q), WF_OK);
    text = test_read_all(TESTDATA "/polyanya/expected/arena_euclidean.tsv", &size);
    assert_non_null(text);
    size_t rows = 0, rated = 0, worst_row = 0;
    double sum = 0.0, worst = 0.0;
    char* save = NULL;
    for (char* line = strtok_r(text, "\n", &save); line != NULL;
         line = strtok_r(NULL, "\n", &save)) {
        int bucket;
        double sx, sy, gx, gy, octile, optimum;
        if (line[0] == '#' || sscanf(line, "%d %lf %lf %lf %lf %lf %lf", &bucket, &sx, &sy, &gx,
                                     &gy, &octile, &optimum) != 7) {
            continue;
        }
        double length =
            pulled_length(q, wf_v3((float)sx, 0, (float)sy), wf_v3((float)gx, 0, (float)gy), 0.01f);
        assert_true(length >= 0.0);
        assert_true(length >= optimum - 1e-4);
        if (optimum > 0.0) {
            double ratio = length / optimum;
            sum += ratio;
            rated++;
            if (ratio > worst) {
                worst = ratio;
                worst_row = rows;
            }
        }
        rows++;
    }
    free(text);
    print_message("%s tile_size %g: mean ratio %.6f, worst %.6f (row %zu)\n", name,
                  (double)tile_size, sum / (double)rated, worst, worst_row);
    assert_int_equal(rows, 160);
    assert_true(sum / (double)rated <= 1.005);
    assert_true(worst <= 1.002);
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
}

static void test_arena_rows_within_the_goals(void** state) {
    (void)state;
    FILE* probe = fopen(TESTDATA "/polyanya/expected/arena_euclidean.tsv", "rb");
    if (probe == NULL) {
        print_message("no test data at %s: skipped\n", TESTDATA);
        skip();
    }
    fclose(probe);
    run_arena("arena.mesh", 0.0f);
    run_arena("arena.mesh", 16.0f);
    run_arena("arena-merged.mesh", 0.0f);
    run_arena("arena-merged.mesh", 16.0f);
}

/// dao/arena.map as one square polygon per free cell (tiles of 32 cells):
/// an any-angle path there is never longer than the .scen's octile optimum.
static void test_grid_map_never_longer_than_octile(void** state) {
    (void)state;
    size_t size;
    char* map = test_read_all(TESTDATA "/movingai/maps/dao/arena.map", &size);
    char* scen = test_read_all(TESTDATA "/movingai/scenarios/dao/arena.map.scen", &size);
    if (map == NULL || scen == NULL) {
        free(map);
        free(scen);
        print_message("no test data at %s: skipped\n", TESTDATA);
        skip();
    }
    unsigned width = 0, height = 0;
    assert_int_equal(sscanf(strstr(map, "height"), "height %u", &height), 1);
    assert_int_equal(sscanf(strstr(map, "width"), "width %u", &width), 1);
    const uint32_t n = 32, tiles_x = (width + n - 1) / n, tiles_z = (height + n - 1) / n;
    uint8_t* blocked = malloc((size_t)tiles_x * n * tiles_z * n);
    assert_non_null(blocked);
    memset(blocked, 1, (size_t)tiles_x * n * tiles_z * n); // beyond the map
    char* p = strchr(strstr(map, "\nmap") + 1, '\n') + 1;
    for (unsigned z = 0; z < height; ++z) {
        for (unsigned x = 0; x < width; ++x) {
            char c = p[x];
            blocked[z * tiles_x * n + x] = !(c == '.' || c == 'G' || c == 'S');
        }
        p = strchr(p, '\n') + 1;
    }
    free(map);
    wf_mesh* mesh = test_mesh_grid(tiles_x, tiles_z, n, 1.0f, blocked, NULL, NULL);
    free(blocked);
    assert_non_null(mesh);
    wf_query* q = NULL;
    assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = mesh, .max_nodes = 8192}, &q), WF_OK);
    size_t rows = 0, longer = 0;
    char* save = NULL;
    for (char* line = strtok_r(scen, "\n", &save); line != NULL;
         line = strtok_r(NULL, "\n", &save)) {
        int bucket, w, h;
        double sx, sy, gx, gy, octile;
        char name[256];
        if (sscanf(line, "%d %255s %d %d %lf %lf %lf %lf %lf", &bucket, name, &w, &h, &sx, &sy, &gx,
                   &gy, &octile) != 9) {
            continue;
        }
        double length = pulled_length(q, wf_v3((float)sx + 0.5f, 0, (float)sy + 0.5f),
                                      wf_v3((float)gx + 0.5f, 0, (float)gy + 0.5f), 0.1f);
        assert_true(length >= 0.0);
        if (length > octile * (1.0 + 1e-3)) {
            print_message("row %zu: %.4f > octile %.4f\n", rows, length, octile);
            longer++;
        }
        rows++;
    }
    free(scen);
    assert_int_equal(rows, 160);
    assert_int_equal(longer, 0);
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_made_grids_get_the_shortest_way),
        cmocka_unit_test(test_cost_is_the_pulled_length),
        cmocka_unit_test(test_random_grids_near_the_optimum),
        cmocka_unit_test(test_arena_rows_within_the_goals),
        cmocka_unit_test(test_grid_map_never_longer_than_octile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
