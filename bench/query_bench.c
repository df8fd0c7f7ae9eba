// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Query speed: find_path + find_straight_path between random connected
// points, find_nearest_poly and raycast, on a large generated tiled mesh
// and (when ../shared/testdata is present) on the Polyanya arena mesh.
// Prints CSV; --smoke runs a tiny version for CI.
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "wayfarer/navmesh.h"
#include "wayfarer/query.h"
#include "wayfarer/rng.h"
#include "wayfarer/tilecache.h"


/* A city-like generated level: tiles of cells x cells one-metre cells, each
 * free cell two triangles, with random rectangular blocks (buildings). */
typedef struct level {
    uint32_t tiles, cells;
    uint8_t* blocked; // (tiles * cells)^2
} level;

static uint32_t level_side(const level* l) { return l->tiles * l->cells; }

static void generate_blocks(level* l, wf_rng* rng, float fill) {
    uint32_t side = level_side(l);
    l->blocked = calloc((size_t)side * side, 1);
    uint32_t target = (uint32_t)((float)side * (float)side * fill), covered = 0;
    while (covered < target) {
        uint32_t w = 2 + wf_rng_below(rng, 6), h = 2 + wf_rng_below(rng, 6);
        uint32_t x0 = wf_rng_below(rng, side - w), z0 = wf_rng_below(rng, side - h);
        for (uint32_t z = z0; z < z0 + h; ++z) {
            for (uint32_t x = x0; x < x0 + w; ++x) {
                covered += l->blocked[z * side + x] == 0;
                l->blocked[z * side + x] = 1;
            }
        }
    }
}

static wf_status add_level_tile(wf_mesh* mesh, const level* l, uint32_t tx, uint32_t tz) {
    uint32_t n = l->cells, side = level_side(l);
    uint32_t vcount = (n + 1) * (n + 1);
    float* verts = malloc(sizeof(float) * 3 * vcount);
    uint16_t* polys = malloc(sizeof(uint16_t) * WF_MAX_VERTS_PER_POLY * 2 * n * n);
    if (verts == NULL || polys == NULL) {
        free(verts);
        free(polys);
        return WF_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t z = 0; z <= n; ++z) {
        for (uint32_t x = 0; x <= n; ++x) {
            float* v = &verts[3 * (z * (n + 1) + x)];
            v[0] = (float)(tx * n + x);
            v[1] = 0.0f;
            v[2] = (float)(tz * n + z);
        }
    }
    uint32_t pc = 0;
    for (uint32_t z = 0; z < n; ++z) {
        for (uint32_t x = 0; x < n; ++x) {
            if (l->blocked[(tz * n + z) * side + tx * n + x]) {
                continue;
            }
            uint16_t a = (uint16_t)(z * (n + 1) + x), b = (uint16_t)((z + 1) * (n + 1) + x);
            uint16_t c = (uint16_t)((z + 1) * (n + 1) + x + 1), d = (uint16_t)(z * (n + 1) + x + 1);
            uint16_t tri[2][3] = {{a, b, c}, {a, c, d}};
            for (int t = 0; t < 2; ++t) {
                uint16_t* p = &polys[WF_MAX_VERTS_PER_POLY * pc++];
                for (int k = 0; k < WF_MAX_VERTS_PER_POLY; ++k) {
                    p[k] = k < 3 ? tri[t][k] : WF_NULL_INDEX;
                }
            }
        }
    }
    wf_tile_build_desc d;
    memset(&d, 0, sizeof d);
    d.tile_x = (int32_t)tx;
    d.tile_z = (int32_t)tz;
    d.bmin = wf_v3((float)(tx * n), -1.0f, (float)(tz * n));
    d.bmax = wf_v3((float)((tx + 1) * n), 1.0f, (float)((tz + 1) * n));
    d.verts = verts;
    d.vert_count = vcount;
    d.polys = polys;
    d.poly_count = pc;
    d.walkable_climb = 0.9f;
    wf_status s = WF_OK;
    if (pc > 0) {
        void* blob = NULL;
        size_t size = 0;
        wf_tile_ref ref;
        s = wf_tile_build(&d, &blob, &size);
        if (s == WF_OK) {
            s = wf_mesh_add_tile(mesh, blob, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &ref);
        }
    }
    free(verts);
    free(polys);
    return s;
}

typedef struct results {
    uint32_t pairs;
    double path_us, nearest_us, raycast_us;
    double mean_polys, mean_corners;
} results;

/* Random start/goal points inside a box; keeps only connected pairs. */
static int run_queries(const wf_mesh* mesh, wf_vec3 lo, wf_vec3 hi, uint32_t want, uint64_t seed,
                       results* r) {
    wf_query* q = NULL;
    wf_query_desc qd = {.mesh = mesh, .max_nodes = 65536};
    if (wf_query_create(&qd, &q) != WF_OK) {
        return 1;
    }
    wf_query_filter f = wf_query_filter_defaults();
    wf_rng rng = wf_rng_make(seed, 3);
    wf_vec3 ext = wf_v3(2.0f, 4.0f, 2.0f);
    enum { MAX_PATH = 4096, MAX_POINTS = 1024 };
    static wf_poly_ref path[MAX_PATH];
    static wf_straight_point points[MAX_POINTS];
    static wf_poly_ref starts[4096], goals[4096];
    static wf_vec3 spos[4096], gpos[4096];
    if (want > 4096) {
        want = 4096;
    }
    // Collect connected pairs first so timing covers only the queries.
    uint32_t n = 0, tries = 0;
    double nearest_time = 0.0;
    uint32_t nearest_calls = 0;
    while (n < want && tries < want * 50) {
        tries++;
        wf_vec3 a = wf_v3(wf_rng_range(&rng, lo.x, hi.x), 0.0f, wf_rng_range(&rng, lo.z, hi.z));
        wf_vec3 b = wf_v3(wf_rng_range(&rng, lo.x, hi.x), 0.0f, wf_rng_range(&rng, lo.z, hi.z));
        double t0 = bench_now_seconds();
        wf_status sa = wf_query_find_nearest_poly(q, a, ext, &f, &starts[n], &spos[n]);
        wf_status sb = wf_query_find_nearest_poly(q, b, ext, &f, &goals[n], &gpos[n]);
        nearest_time += bench_now_seconds() - t0;
        nearest_calls += 2;
        if (sa != WF_OK || sb != WF_OK) {
            continue;
        }
        wf_path_result pr;
        if (wf_query_find_path(q, starts[n], goals[n], spos[n], gpos[n], &f, path, MAX_PATH, &pr) ==
            WF_OK) {
            n++;
        }
    }
    double polys = 0.0, corners = 0.0;
    int failures = 0;
    double t0 = bench_now_seconds();
    for (uint32_t i = 0; i < n; ++i) {
        wf_path_result pr;
        uint32_t count = 0;
        failures += wf_query_find_path(q, starts[i], goals[i], spos[i], gpos[i], &f, path, MAX_PATH,
                                       &pr) != WF_OK;
        failures += wf_query_find_straight_path(q, spos[i], gpos[i], path, pr.count, points,
                                                MAX_POINTS, 0, &count) < 0;
        polys += pr.count;
        corners += count;
    }
    double path_time = bench_now_seconds() - t0;
    t0 = bench_now_seconds();
    for (uint32_t i = 0; i < n; ++i) {
        wf_raycast_hit hit;
        failures += wf_query_raycast(q, starts[i], spos[i], gpos[i], &f, NULL, 0, &hit) < 0;
    }
    double ray_time = bench_now_seconds() - t0;
    wf_query_destroy(q);
    r->pairs = n;
    r->path_us = n ? path_time * 1e6 / n : 0.0;
    r->raycast_us = n ? ray_time * 1e6 / n : 0.0;
    r->nearest_us = nearest_calls ? nearest_time * 1e6 / nearest_calls : 0.0;
    r->mean_polys = n ? polys / n : 0.0;
    r->mean_corners = n ? corners / n : 0.0;
    return failures != 0;
}

static void print_row(const char* name, uint32_t poly_count, const results* r) {
    printf("%s,%u,%u,%.1f,%.1f,%.3f,%.3f,%.3f\n", name, poly_count, r->pairs, r->mean_polys,
           r->mean_corners, r->path_us, r->nearest_us, r->raycast_us);
    fflush(stdout);
}

static int bench_generated(int smoke) {
    level l = {.tiles = smoke ? 3u : 10u, .cells = smoke ? 8u : 24u};
    wf_rng rng = wf_rng_make(42, 1);
    generate_blocks(&l, &rng, 0.2f);
    wf_mesh_desc md = {.tile_width = (float)l.cells, .tile_depth = (float)l.cells,
                       .max_tiles = l.tiles * l.tiles};
    wf_mesh* mesh = NULL;
    if (wf_mesh_create(&md, &mesh) != WF_OK) {
        return 1;
    }
    for (uint32_t tz = 0; tz < l.tiles; ++tz) {
        for (uint32_t tx = 0; tx < l.tiles; ++tx) {
            if (add_level_tile(mesh, &l, tx, tz) != WF_OK) {
                fprintf(stderr, "tile build failed\n");
                return 1;
            }
        }
    }
    wf_mesh_stats st = wf_mesh_get_stats(mesh);
    float side = (float)level_side(&l);
    results r;
    int failed = run_queries(mesh, wf_v3(0, 0, 0), wf_v3(side, 0, side), smoke ? 20u : 2000u, 7, &r);
    print_row("generated", st.poly_count, &r);
    wf_mesh_destroy(mesh);
    free(l.blocked);
    return failed;
}


static int bench_polyanya(const char* dir, const char* name, float tile_size, int smoke) {
    char path[1024];
    snprintf(path, sizeof path, "%s/polyanya/meshes/%s", dir, name);
    size_t size = 0;
    char* text = bench_read_file(path, &size);
    if (text == NULL) {
        printf("# %s not found: skipped\n", path);
        return 0;
    }
    wf_polyanya_import_desc d = {.tile_size = tile_size};
    wf_mesh* mesh = NULL;
    wf_status s = wf_mesh_import_polyanya(&d, text, size, &mesh);
    free(text);
    if (s != WF_OK) {
        fprintf(stderr, "import of %s failed: %s\n", path, wf_status_string(s));
        return 1;
    }
    results r;
    // The arena map is 49 x 49 cells.
    int failed = run_queries(mesh, wf_v3(0, 0, 0), wf_v3(49, 0, 49), smoke ? 20u : 2000u, 11, &r);
    char label[128];
    snprintf(label, sizeof label, "%s%s", name, tile_size > 0.0f ? "/tiled16" : "");
    print_row(label, wf_mesh_get_stats(mesh).poly_count, &r);
    wf_mesh_destroy(mesh);
    return failed;
}

/* ---------------------------------------------------------------------------
 * Exact path mode next to the default: µs per query (find_path + straight
 * path, same pairs, same query) and path length against a known optimum
 * (the arena TSV, or the octile optimum of a Moving AI .scen; on the
 * generated level, against the default's own length).
 */

typedef struct exact_pair {
    wf_poly_ref start, goal;
    wf_vec3 spos, gpos;
    double reference; ///< known optimum (< 0: none)
} exact_pair;

typedef struct exact_mode_figures {
    double us;                       ///< per find_path + straight path
    double ratio_mean, ratio_p99, ratio_worst; ///< length / reference
    double longer_share;             ///< share of rows longer than reference + 1e-3
    uint32_t failures;               ///< searches that did not end WF_OK
} exact_mode_figures;

/// Runs every pair `repeat` times in one mode; lengths from the last run.
static exact_mode_figures exact_run_mode(wf_query* q, const exact_pair* pairs, uint32_t count,
                                         uint32_t mode, uint32_t repeat, double* lengths) {
    enum { MAX_PATH = 65536, MAX_POINTS = 2048 };
    static wf_poly_ref path[MAX_PATH];
    static wf_straight_point points[MAX_POINTS];
    wf_query_filter f = wf_query_filter_defaults();
    f.path_mode = mode;
    exact_mode_figures r;
    memset(&r, 0, sizeof r);
    double t0 = bench_now_seconds();
    for (uint32_t k = 0; k < repeat; ++k) {
        for (uint32_t i = 0; i < count; ++i) {
            const exact_pair* p = &pairs[i];
            wf_path_result pr;
            uint32_t n = 0;
            wf_status s = wf_query_find_path(q, p->start, p->goal, p->spos, p->gpos, &f, path,
                                             MAX_PATH, &pr);
            r.failures += s != WF_OK;
            if (wf_query_find_straight_path(q, p->spos, p->gpos, path, pr.count > 0 ? pr.count : 1,
                                            points, MAX_POINTS, 0, &n) < 0) {
                n = 0;
            }
            double length = 0.0;
            for (uint32_t j = 1; j < n; ++j) {
                length += wf_v2_distance(points[j - 1].pos, points[j].pos);
            }
            lengths[i] = length;
        }
    }
    r.us = count > 0 ? (bench_now_seconds() - t0) * 1e6 / ((double)count * repeat) : 0.0;
    r.failures /= repeat;
    return r;
}

/// Ratio statistics of lengths against the pairs' references (or against
/// `other` lengths where a pair has no reference).
static void exact_ratios(exact_mode_figures* r, const exact_pair* pairs, uint32_t count,
                         const double* lengths, const double* other) {
    double* ratios = malloc(sizeof(double) * (count > 0 ? count : 1));
    uint32_t n = 0, longer = 0;
    double sum = 0.0;
    for (uint32_t i = 0; i < count; ++i) {
        double ref = pairs[i].reference >= 0.0 ? pairs[i].reference : other[i];
        longer += lengths[i] > ref + 1e-3;
        if (ref > 0.0) {
            ratios[n++] = lengths[i] / ref;
            sum += lengths[i] / ref;
        }
    }
    bench_sort(ratios, n);
    r->ratio_mean = n ? sum / n : 0.0;
    r->ratio_p99 = n ? ratios[(size_t)floor(0.99 * (double)(n - 1))] : 0.0;
    r->ratio_worst = n ? ratios[n - 1] : 0.0;
    r->longer_share = count ? (double)longer / count : 0.0;
    free(ratios);
}

/// A whole text file with a NUL after it (bench_read_file adds none).
static char* exact_read_text(const char* path) {
    size_t size = 0;
    char* data = bench_read_file(path, &size);
    char* text = data != NULL ? malloc(size + 1) : NULL;
    if (text != NULL) {
        memcpy(text, data, size);
        text[size] = '\0';
    }
    free(data);
    return text;
}

static void exact_print_header(void) {
    printf("\n# exact path mode vs default (reference: tsv = Polyanya optimum, octile = .scen,"
           " default = the default mode's length)\n");
    printf("mesh,polys,pairs,reference,default_us,exact_us,exact_time_x,"
           "default_ratio_mean,default_ratio_p99,default_ratio_worst,default_longer_share,"
           "exact_ratio_mean,exact_ratio_p99,exact_ratio_worst,exact_longer_share,failures\n");
}

/// Times both modes on the pairs and prints one row. Returns non-zero on
/// failed searches.
static int exact_compare(const char* name, const wf_mesh* mesh, const exact_pair* pairs,
                         uint32_t count, const char* reference, uint32_t repeat) {
    wf_query* q = NULL;
    if (wf_query_create(&(wf_query_desc){.mesh = mesh, .max_nodes = 65536}, &q) != WF_OK) {
        return 1;
    }
    double* def_lengths = malloc(sizeof(double) * (count > 0 ? count : 1));
    double* ex_lengths = malloc(sizeof(double) * (count > 0 ? count : 1));
    // Warm both once, then time.
    (void)exact_run_mode(q, pairs, count, WF_PATH_MODE_DEFAULT, 1, def_lengths);
    (void)exact_run_mode(q, pairs, count, WF_PATH_MODE_EXACT, 1, ex_lengths);
    exact_mode_figures d = exact_run_mode(q, pairs, count, WF_PATH_MODE_DEFAULT, repeat, def_lengths);
    exact_mode_figures e = exact_run_mode(q, pairs, count, WF_PATH_MODE_EXACT, repeat, ex_lengths);
    exact_ratios(&d, pairs, count, def_lengths, def_lengths);
    exact_ratios(&e, pairs, count, ex_lengths, def_lengths);
    printf("%s,%u,%u,%s,%.2f,%.2f,%.2f,%.6f,%.6f,%.6f,%.4f,%.6f,%.6f,%.6f,%.4f,%u\n", name,
           wf_mesh_get_stats(mesh).poly_count, count, reference, d.us, e.us,
           d.us > 0.0 ? e.us / d.us : 0.0, d.ratio_mean, d.ratio_p99, d.ratio_worst,
           d.longer_share, e.ratio_mean, e.ratio_p99, e.ratio_worst, e.longer_share,
           d.failures + e.failures);
    fflush(stdout);
    free(def_lengths);
    free(ex_lengths);
    wf_query_destroy(q);
    // Failures are in the row (exact mode can run out of its nodes on a
    // mesh of many tiny polygons); only a default-mode failure is an error.
    return d.failures != 0;
}

/// Scenario rows: "bucket map w h sx sy gx gy optimal" (.scen) or "bucket
/// sx sy gx gy octile euclidean" (the arena TSV): the last five numbers
/// are read, the optimum is the last (.scen) or last (TSV) column.
static uint32_t exact_read_rows(const char* path, double (*rows)[5], uint32_t max) {
    char* text = exact_read_text(path);
    if (text == NULL) {
        return 0;
    }
    uint32_t n = 0;
    for (char* line = strtok(text, "\n"); line != NULL && n < max; line = strtok(NULL, "\n")) {
        if (line[0] == '#' || strncmp(line, "version", 7) == 0 || strncmp(line, "bucket", 6) == 0) {
            continue;
        }
        double v[16];
        int k = 0;
        for (char* t = line; k < 16 && *t != '\0';) {
            char* end;
            double x = strtod(t, &end);
            if (end == t) { // a word (the map name): skip it
                while (*t != '\0' && *t != ' ' && *t != '\t') {
                    t++;
                }
                while (*t == ' ' || *t == '\t') {
                    t++;
                }
                continue;
            }
            v[k++] = x;
            t = end;
        }
        if (k >= 5) {
            for (int j = 0; j < 5; ++j) {
                rows[n][j] = v[k - 5 + j];
            }
            n++;
        }
    }
    free(text);
    return n;
}

/// Turns rows (sx sz gx gz optimum, or TSV columns) into pairs on a mesh.
static uint32_t exact_make_pairs(const wf_mesh* mesh, double (*rows)[5], uint32_t count,
                                 double offset, wf_vec3 half, exact_pair* out) {
    wf_query* q = NULL;
    if (wf_query_create(&(wf_query_desc){.mesh = mesh, .max_nodes = 1024}, &q) != WF_OK) {
        return 0;
    }
    wf_query_filter f = wf_query_filter_defaults();
    uint32_t n = 0;
    for (uint32_t i = 0; i < count; ++i) {
        exact_pair p;
        wf_vec3 a = wf_v3((float)(rows[i][0] + offset), 0, (float)(rows[i][1] + offset));
        wf_vec3 b = wf_v3((float)(rows[i][2] + offset), 0, (float)(rows[i][3] + offset));
        if (wf_query_find_nearest_poly(q, a, half, &f, &p.start, &p.spos) == WF_OK &&
            wf_query_find_nearest_poly(q, b, half, &f, &p.goal, &p.gpos) == WF_OK) {
            p.reference = rows[i][4];
            out[n++] = p;
        }
    }
    wf_query_destroy(q);
    return n;
}

enum { EXACT_MAX_ROWS = 4096 };

static int exact_bench_arena(const char* dir, const char* name, float tile_size, int smoke) {
    char path[1024];
    snprintf(path, sizeof path, "%s/polyanya/meshes/%s", dir, name);
    size_t size = 0;
    char* text = bench_read_file(path, &size);
    static double rows[EXACT_MAX_ROWS][5];
    char tsv[1024];
    snprintf(tsv, sizeof tsv, "%s/polyanya/expected/arena_euclidean.tsv", dir);
    // TSV columns: bucket sx sy gx gy octile euclidean: the last five
    // numbers are sy gx gy octile euclidean, so read them whole instead.
    uint32_t count = 0;
    char* tsv_text = exact_read_text(tsv);
    if (text == NULL || tsv_text == NULL) {
        free(text);
        free(tsv_text);
        printf("# %s or its expected answers not found: skipped\n", path);
        return 0;
    }
    for (char* line = strtok(tsv_text, "\n"); line != NULL && count < EXACT_MAX_ROWS;
         line = strtok(NULL, "\n")) {
        int bucket;
        double sx, sy, gx, gy, octile, euclidean;
        if (line[0] != '#' && sscanf(line, "%d %lf %lf %lf %lf %lf %lf", &bucket, &sx, &sy, &gx,
                                     &gy, &octile, &euclidean) == 7) {
            double r[5] = {sx, sy, gx, gy, euclidean};
            memcpy(rows[count++], r, sizeof r);
        }
    }
    free(tsv_text);
    wf_polyanya_import_desc d = {.tile_size = tile_size};
    wf_mesh* mesh = NULL;
    wf_status s = wf_mesh_import_polyanya(&d, text, size, &mesh);
    free(text);
    if (s != WF_OK) {
        return 1;
    }
    static exact_pair pairs[EXACT_MAX_ROWS];
    uint32_t n = exact_make_pairs(mesh, rows, smoke ? (count < 20 ? count : 20) : count, 0.0,
                                  wf_v3(0.01f, 1.0f, 0.01f), pairs);
    char label[128];
    snprintf(label, sizeof label, "%s%s", name, tile_size > 0.0f ? "/tiled16" : "");
    int failed = exact_compare(label, mesh, pairs, n, "tsv", smoke ? 1 : 20);
    wf_mesh_destroy(mesh);
    return failed;
}

/// A Moving AI map built as `wayfarer scen --map` builds it.
static int exact_bench_grid(const char* dir, const char* map, int smoke) {
    char map_path[1024], scen_path[1024];
    snprintf(map_path, sizeof map_path, "%s/movingai/maps/%s.map", dir, map);
    snprintf(scen_path, sizeof scen_path, "%s/movingai/scenarios/%s.map.scen", dir, map);
    size_t size = 0;
    char* text = bench_read_file(map_path, &size);
    static double rows[EXACT_MAX_ROWS][5];
    uint32_t count = text != NULL ? exact_read_rows(scen_path, rows, EXACT_MAX_ROWS) : 0;
    if (count == 0) {
        free(text);
        printf("# %s or its scenarios not found: skipped\n", map_path);
        return 0;
    }
    wf_grid_data* grid = NULL;
    wf_status s = wf_grid_load_movingai(text, size, 1.0f, &(wf_geom_load_desc){0}, &grid);
    free(text);
    if (s != WF_OK) {
        return 1;
    }
    wf_tilecache_desc td;
    memset(&td, 0, sizeof td);
    td.params = wf_tilecache_params_recast_demo();
    td.params.cell_size = 1.0f;
    td.params.agent_radius = 0.0f;
    td.params.tile_size = 64;
    td.params.min_region_area = 0;
    td.params.merge_region_area = 0;
    td.params.max_edge_length = 0.0f;
    td.params.max_simplification_error = 0.5f;
    wf_tilecache* tc = NULL;
    wf_mesh* mesh = NULL;
    s = wf_tilecache_create(&td, &tc);
    if (s == WF_OK) {
        s = wf_tilecache_build_grid(tc, wf_grid_data_view(grid));
    }
    if (s == WF_OK) {
        wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
        s = wf_mesh_create(&md, &mesh);
    }
    if (s == WF_OK && !wf_succeeded(wf_tilecache_build_navmesh(tc, mesh))) {
        s = WF_ERR_BAD_DATA;
    }
    wf_tilecache_destroy(tc);
    wf_grid_data_destroy(grid);
    if (s != WF_OK) {
        wf_mesh_destroy(mesh);
        return 1;
    }
    static exact_pair pairs[EXACT_MAX_ROWS];
    uint32_t n = exact_make_pairs(mesh, rows, smoke ? (count < 20 ? count : 20) : count, 0.5,
                                  wf_v3(0.5f, 1.0f, 0.5f), pairs);
    int failed = exact_compare(map, mesh, pairs, n, "octile", smoke ? 1 : 3);
    wf_mesh_destroy(mesh);
    return failed;
}

/// The generated city level of bench_generated, same seed: random
/// connected pairs, exact length against the default's.
static int exact_bench_generated(int smoke) {
    level l = {.tiles = smoke ? 3u : 10u, .cells = smoke ? 8u : 24u};
    wf_rng rng = wf_rng_make(42, 1);
    generate_blocks(&l, &rng, 0.2f);
    wf_mesh_desc md = {.tile_width = (float)l.cells, .tile_depth = (float)l.cells,
                       .max_tiles = l.tiles * l.tiles};
    wf_mesh* mesh = NULL;
    if (wf_mesh_create(&md, &mesh) != WF_OK) {
        free(l.blocked);
        return 1;
    }
    for (uint32_t tz = 0; tz < l.tiles; ++tz) {
        for (uint32_t tx = 0; tx < l.tiles; ++tx) {
            if (add_level_tile(mesh, &l, tx, tz) != WF_OK) {
                wf_mesh_destroy(mesh);
                free(l.blocked);
                return 1;
            }
        }
    }
    float side = (float)level_side(&l);
    wf_query* q = NULL;
    if (wf_query_create(&(wf_query_desc){.mesh = mesh, .max_nodes = 65536}, &q) != WF_OK) {
        return 1;
    }
    static exact_pair pairs[EXACT_MAX_ROWS];
    static wf_poly_ref path[4096];
    uint32_t want = smoke ? 20u : 500u, n = 0;
    wf_query_filter f = wf_query_filter_defaults();
    wf_rng prng = wf_rng_make(7, 3);
    wf_vec3 ext = wf_v3(2.0f, 4.0f, 2.0f);
    for (uint32_t tries = 0; n < want && tries < want * 50; ++tries) {
        exact_pair* p = &pairs[n];
        wf_vec3 a = wf_v3(wf_rng_range(&prng, 0, side), 0.0f, wf_rng_range(&prng, 0, side));
        wf_vec3 b = wf_v3(wf_rng_range(&prng, 0, side), 0.0f, wf_rng_range(&prng, 0, side));
        wf_path_result pr;
        if (wf_query_find_nearest_poly(q, a, ext, &f, &p->start, &p->spos) == WF_OK &&
            wf_query_find_nearest_poly(q, b, ext, &f, &p->goal, &p->gpos) == WF_OK &&
            wf_query_find_path(q, p->start, p->goal, p->spos, p->gpos, &f, path, 4096, &pr) ==
                WF_OK) {
            p->reference = -1.0;
            n++;
        }
    }
    wf_query_destroy(q);
    int failed = exact_compare("generated", mesh, pairs, n, "default", smoke ? 1 : 3);
    wf_mesh_destroy(mesh);
    free(l.blocked);
    return failed;
}

static int exact_bench_all(const char* data_dir, int smoke) {
    exact_print_header();
    int failed = exact_bench_arena(data_dir, "arena.mesh", 0.0f, smoke);
    failed |= exact_bench_arena(data_dir, "arena-merged.mesh", 0.0f, smoke);
    failed |= exact_bench_arena(data_dir, "arena-merged.mesh", 16.0f, smoke);
    failed |= exact_bench_generated(smoke);
    failed |= exact_bench_grid(data_dir, "dao/den101d", smoke);
    failed |= exact_bench_grid(data_dir, "rooms/8room_000", smoke);
    return failed;
}

int main(int argc, char** argv) {
    int smoke = argc > 1 && strcmp(argv[1], "--smoke") == 0;
    const char* data_dir = getenv("WF_TESTDATA_DIR");
    if (data_dir == NULL) {
        data_dir = "../shared/testdata";
    }
    printf("mesh,polys,pairs,mean_corridor_polys,mean_corners,"
           "path_plus_straight_us,nearest_poly_us,raycast_us\n");
    int failed = bench_generated(smoke);
    failed |= bench_polyanya(data_dir, "arena.mesh", 0.0f, smoke);
    failed |= bench_polyanya(data_dir, "arena-merged.mesh", 0.0f, smoke);
    failed |= bench_polyanya(data_dir, "arena-merged.mesh", 16.0f, smoke);
    failed |= exact_bench_all(data_dir, smoke);
    return failed;
}
