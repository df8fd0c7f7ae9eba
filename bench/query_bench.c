// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Query speed: find_path + find_straight_path between random connected
// points, find_nearest_poly and raycast, on a large generated tiled mesh
// and (when ../shared/testdata is present) on the Polyanya arena mesh.
// Then the default path mode's quality on scenarios with known optima
// (testdata only): time per query and length ratios against the arena's
// Euclidean optima and the Moving AI maps' octile optima.
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

/// The (n + 1)^2 corner vertices of tile (tx, tz) of one-metre cells, y = 0.
static void fill_grid_verts(float* verts, uint32_t n, uint32_t tx, uint32_t tz) {
    for (uint32_t z = 0; z <= n; ++z) {
        for (uint32_t x = 0; x <= n; ++x) {
            float* v = &verts[3 * (z * (n + 1) + x)];
            v[0] = (float)(tx * n + x);
            v[1] = 0.0f;
            v[2] = (float)(tz * n + z);
        }
    }
}

/// Builds tile (tx, tz) of n x n one-metre cells from its vertices and
/// polygons and adds it to the mesh (none when it has no polygon); frees
/// both arrays.
static wf_status add_grid_tile(wf_mesh* mesh, uint32_t tx, uint32_t tz, uint32_t n, float* verts,
                               uint32_t vcount, uint16_t* polys, uint32_t pc, float climb) {
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
    d.walkable_climb = climb;
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
    fill_grid_verts(verts, n, tx, tz);
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
    return add_grid_tile(mesh, tx, tz, n, verts, vcount, polys, pc, 0.9f);
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
    wf_mesh_desc md = {
        .tile_width = (float)l.cells, .tile_depth = (float)l.cells, .max_tiles = l.tiles * l.tiles};
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
    int failed =
        run_queries(mesh, wf_v3(0, 0, 0), wf_v3(side, 0, side), smoke ? 20u : 2000u, 7, &r);
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
 * Default path mode: quality against known optima
 *
 * Each scenario row is one find_path + find_straight_path between fixed
 * points; the straight path's length is compared with the row's optimum:
 * the Euclidean (any-angle) optimum for the Polyanya arena meshes, the
 * .scen's octile optimum for grid maps (an any-angle path on a mesh of
 * the free cells is never longer than that, so any ratio above 1 is the
 * search's doing). Times are the fastest of QUALITY_REPEATS passes (the
 * least disturbed by other work on the machine).
 */

#define QUALITY_REPEATS 5
/// Rows kept per scenario file (every k-th row past this) so the big maps
/// stay within a few seconds.
#define QUALITY_MAX_ROWS 1000u
/// A path counts as longer than its octile optimum past this (relative):
/// float noise, and the 2-decimal optima of older .scen files.
#define QUALITY_LONGER_TOLERANCE 1e-3

typedef struct quality_row {
    wf_vec3 start, goal;
    double optimum;
} quality_row;

typedef struct quality_set {
    quality_row* rows;
    size_t count;
} quality_set;

static void quality_set_free(quality_set* set) {
    free(set->rows);
    set->rows = NULL;
    set->count = 0;
}

static int quality_push(quality_set* set, size_t* capacity, quality_row row) {
    if (set->count == *capacity) {
        size_t grown = *capacity ? *capacity * 2 : 256;
        quality_row* rows = realloc(set->rows, grown * sizeof *rows);
        if (rows == NULL) {
            return 1;
        }
        set->rows = rows;
        *capacity = grown;
    }
    set->rows[set->count++] = row;
    return 0;
}

/// Keeps every k-th row so at most max remain (smoke: the first few).
static void quality_thin(quality_set* set, size_t max) {
    if (set->count <= max) {
        return;
    }
    size_t step = (set->count + max - 1) / max, kept = 0;
    for (size_t i = 0; i < set->count; i += step) {
        set->rows[kept++] = set->rows[i];
    }
    set->count = kept;
}

/// Moving AI .scen rows: points at cell centres, the octile optimum.
static int quality_read_scen(const char* path, quality_set* set) {
    size_t size = 0, capacity = 0;
    char* text = bench_read_file(path, &size);
    if (text == NULL) {
        return 1;
    }
    int failed = 0;
    char* save = NULL;
    for (char* line = strtok_r(text, "\n", &save); line != NULL && !failed;
         line = strtok_r(NULL, "\n", &save)) {
        int bucket, w, h;
        double sx, sy, gx, gy, optimum;
        char map[512];
        if (sscanf(line, "%d %511s %d %d %lf %lf %lf %lf %lf", &bucket, map, &w, &h, &sx, &sy, &gx,
                   &gy, &optimum) == 9) {
            quality_row r = {wf_v3((float)sx + 0.5f, 0.0f, (float)sy + 0.5f),
                             wf_v3((float)gx + 0.5f, 0.0f, (float)gy + 0.5f), optimum};
            failed = quality_push(set, &capacity, r);
        }
    }
    free(text);
    return failed || set->count == 0;
}

/// expected/arena_euclidean.tsv: points at grid corners, the Euclidean optimum.
static int quality_read_arena(const char* path, quality_set* set) {
    size_t size = 0, capacity = 0;
    char* text = bench_read_file(path, &size);
    if (text == NULL) {
        return 1;
    }
    int failed = 0;
    char* save = NULL;
    for (char* line = strtok_r(text, "\n", &save); line != NULL && !failed;
         line = strtok_r(NULL, "\n", &save)) {
        int bucket;
        double sx, sy, gx, gy, octile, euclidean;
        if (line[0] != '#' && sscanf(line, "%d %lf %lf %lf %lf %lf %lf", &bucket, &sx, &sy, &gx,
                                     &gy, &octile, &euclidean) == 7) {
            quality_row r = {wf_v3((float)sx, 0.0f, (float)sy), wf_v3((float)gx, 0.0f, (float)gy),
                             euclidean};
            failed = quality_push(set, &capacity, r);
        }
    }
    free(text);
    return failed || set->count == 0;
}

/// Moving AI map text -> one byte per cell (1 = blocked), width x height.
static uint8_t* quality_read_map(const char* path, uint32_t* out_width, uint32_t* out_height) {
    size_t size = 0;
    char* text = bench_read_file(path, &size);
    if (text == NULL) {
        return NULL;
    }
    uint32_t width = 0, height = 0;
    char* body = strstr(text, "\nmap");
    char* h = strstr(text, "height ");
    char* w = strstr(text, "width ");
    uint8_t* blocked = NULL;
    if (body != NULL && h != NULL && w != NULL && sscanf(h, "height %u", &height) == 1 &&
        sscanf(w, "width %u", &width) == 1 && width > 0 && height > 0) {
        blocked = malloc((size_t)width * height);
        char* p = strchr(body + 1, '\n');
        for (uint32_t z = 0; blocked != NULL && z < height; ++z) {
            while (p != NULL && (*p == '\n' || *p == '\r')) {
                p++;
            }
            for (uint32_t x = 0; x < width; ++x) {
                char c = p != NULL && *p != '\0' && *p != '\n' && *p != '\r' ? *p++ : '@';
                blocked[z * width + x] = !(c == '.' || c == 'G' || c == 'S');
            }
            p = p != NULL ? strchr(p, '\n') : NULL;
        }
    }
    free(text);
    *out_width = width;
    *out_height = height;
    return blocked;
}

/// One tile of a cell mesh: a square polygon per free cell.
static wf_status quality_add_cell_tile(wf_mesh* mesh, const uint8_t* blocked, uint32_t width,
                                       uint32_t height, uint32_t n, uint32_t tx, uint32_t tz) {
    uint32_t vcount = (n + 1) * (n + 1);
    float* verts = malloc(sizeof(float) * 3 * vcount);
    uint16_t* polys = malloc(sizeof(uint16_t) * WF_MAX_VERTS_PER_POLY * n * n);
    if (verts == NULL || polys == NULL) {
        free(verts);
        free(polys);
        return WF_ERR_OUT_OF_MEMORY;
    }
    fill_grid_verts(verts, n, tx, tz);
    uint32_t pc = 0;
    for (uint32_t z = 0; z < n; ++z) {
        for (uint32_t x = 0; x < n; ++x) {
            uint32_t gx = tx * n + x, gz = tz * n + z;
            if (gx >= width || gz >= height || blocked[gz * width + gx]) {
                continue;
            }
            uint16_t* p = &polys[WF_MAX_VERTS_PER_POLY * pc++];
            for (int k = 0; k < WF_MAX_VERTS_PER_POLY; ++k) {
                p[k] = WF_NULL_INDEX;
            }
            p[0] = (uint16_t)(z * (n + 1) + x);
            p[1] = (uint16_t)((z + 1) * (n + 1) + x);
            p[2] = (uint16_t)((z + 1) * (n + 1) + x + 1);
            p[3] = (uint16_t)(z * (n + 1) + x + 1);
        }
    }
    return add_grid_tile(mesh, tx, tz, n, verts, vcount, polys, pc, 0.5f);
}

/// The map's free cells as square polygons, 64 x 64 cells a tile.
static wf_mesh* quality_cell_mesh(const char* map_path) {
    uint32_t width, height;
    uint8_t* blocked = quality_read_map(map_path, &width, &height);
    if (blocked == NULL) {
        return NULL;
    }
    const uint32_t n = 64;
    uint32_t tiles_x = (width + n - 1) / n, tiles_z = (height + n - 1) / n;
    wf_mesh_desc md = {
        .tile_width = (float)n, .tile_depth = (float)n, .max_tiles = tiles_x * tiles_z};
    wf_mesh* mesh = NULL;
    wf_status s = wf_mesh_create(&md, &mesh);
    for (uint32_t tz = 0; s == WF_OK && tz < tiles_z; ++tz) {
        for (uint32_t tx = 0; s == WF_OK && tx < tiles_x; ++tx) {
            s = quality_add_cell_tile(mesh, blocked, width, height, n, tx, tz);
        }
    }
    free(blocked);
    if (s != WF_OK) {
        wf_mesh_destroy(mesh);
        return NULL;
    }
    return mesh;
}

/// The map through the tile cache (agent radius 0, as `wayfarer scen --map`)
/// with tile_cells cells a tile side.
static wf_mesh* quality_tilecache_mesh(const char* map_path, uint32_t tile_cells) {
    size_t size = 0;
    char* text = bench_read_file(map_path, &size);
    if (text == NULL) {
        return NULL;
    }
    wf_grid_data* grid = NULL;
    wf_status s = wf_grid_load_movingai(text, size, 1.0f, &(wf_geom_load_desc){0}, &grid);
    free(text);
    if (s != WF_OK) {
        return NULL;
    }
    wf_tilecache_params p = wf_tilecache_params_recast_demo();
    p.cell_size = 1.0f;
    p.agent_radius = 0.0f;
    p.tile_size = tile_cells;
    p.min_region_area = 0;
    p.merge_region_area = 0;
    p.max_edge_length = 0.0f;
    p.max_simplification_error = 0.5f;
    wf_tilecache* tc = NULL;
    wf_mesh* mesh = NULL;
    s = wf_tilecache_create(&(wf_tilecache_desc){.params = p}, &tc);
    if (s == WF_OK) {
        s = wf_tilecache_build_grid(tc, wf_grid_data_view(grid));
    }
    if (s == WF_OK) {
        wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
        s = wf_mesh_create(&md, &mesh);
    }
    if (s == WF_OK && wf_tilecache_build_navmesh(tc, mesh) < 0) {
        s = WF_ERR_BAD_DATA;
    }
    if (s != WF_OK) {
        wf_mesh_destroy(mesh);
        mesh = NULL;
    }
    wf_tilecache_destroy(tc);
    wf_grid_data_destroy(grid);
    return mesh;
}

static int compare_double(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

/// Runs every row QUALITY_REPEATS times; prints one CSV line. half: the
/// box find_nearest_poly snaps the points with.
static int quality_run(const char* label, const wf_mesh* mesh, const quality_set* set, wf_vec3 half,
                       bool octile) {
    enum { MAX_PATH = 65536, MAX_POINTS = 4096 };
    wf_query* q = NULL;
    if (wf_query_create(&(wf_query_desc){.mesh = mesh, .max_nodes = 262144}, &q) != WF_OK) {
        return 1;
    }
    wf_query_filter f = wf_query_filter_defaults();
    wf_poly_ref* path = malloc(MAX_PATH * sizeof *path);
    wf_straight_point* points = malloc(MAX_POINTS * sizeof *points);
    wf_poly_ref* refs = malloc(2 * set->count * sizeof *refs);
    wf_vec3* pos = malloc(2 * set->count * sizeof *pos);
    double* ratios = malloc(set->count * sizeof *ratios);
    double times[QUALITY_REPEATS];
    int failed = path == NULL || points == NULL || refs == NULL || pos == NULL || ratios == NULL;
    size_t rated = 0, longer = 0, missing = 0;
    double ratio_sum = 0.0;
    for (size_t i = 0; !failed && i < set->count; ++i) {
        if (wf_query_find_nearest_poly(q, set->rows[i].start, half, &f, &refs[2 * i],
                                       &pos[2 * i]) != WF_OK ||
            wf_query_find_nearest_poly(q, set->rows[i].goal, half, &f, &refs[2 * i + 1],
                                       &pos[2 * i + 1]) != WF_OK) {
            refs[2 * i] = (wf_poly_ref){0};
        }
    }
    for (int rep = 0; !failed && rep < QUALITY_REPEATS; ++rep) {
        double t0 = bench_now_seconds();
        for (size_t i = 0; i < set->count; ++i) {
            if (wf_poly_ref_is_null(refs[2 * i])) {
                missing += rep == 0;
                continue;
            }
            wf_path_result pr;
            uint32_t n = 0;
            wf_status ps = wf_query_find_path(q, refs[2 * i], refs[2 * i + 1], pos[2 * i],
                                              pos[2 * i + 1], &f, path, MAX_PATH, &pr);
            wf_status ss = ps < 0
                               ? ps
                               : wf_query_find_straight_path(q, pos[2 * i], pos[2 * i + 1], path,
                                                             pr.count, points, MAX_POINTS, 0, &n);
            if (rep > 0) {
                continue;
            }
            if (ps != WF_OK || ss != WF_OK) {
                missing++;
                continue;
            }
            double length = 0.0;
            for (uint32_t k = 1; k < n; ++k) {
                length += wf_v3_distance(points[k - 1].pos, points[k].pos);
            }
            double optimum = set->rows[i].optimum;
            if (optimum <= 0.0) {
                continue;
            }
            double ratio = length / optimum;
            ratios[rated++] = ratio;
            ratio_sum += ratio;
            longer += octile && ratio > 1.0 + QUALITY_LONGER_TOLERANCE;
        }
        times[rep] = bench_now_seconds() - t0;
    }
    if (!failed) {
        qsort(ratios, rated, sizeof *ratios, compare_double);
        qsort(times, QUALITY_REPEATS, sizeof *times, compare_double);
        size_t p99 = rated > 0 ? (size_t)ceil(0.99 * (double)rated) - 1 : 0;
        printf("%s,%zu,%zu,%.2f,%.6f,%.6f,%.6f,%s%.4f\n", label, set->count, missing,
               times[0] * 1e6 / (double)set->count, rated ? ratio_sum / (double)rated : 0.0,
               rated ? ratios[p99] : 0.0, rated ? ratios[rated - 1] : 0.0, octile ? "" : "-",
               octile && rated ? (double)longer / (double)rated : 0.0);
        fflush(stdout);
    }
    free(path);
    free(points);
    free(refs);
    free(pos);
    free(ratios);
    wf_query_destroy(q);
    return failed || missing > 0;
}

static int quality_polyanya(const char* dir, const char* name, float tile_size, int smoke) {
    char mesh_path[1024], tsv_path[1024];
    snprintf(mesh_path, sizeof mesh_path, "%s/polyanya/meshes/%s", dir, name);
    snprintf(tsv_path, sizeof tsv_path, "%s/polyanya/expected/arena_euclidean.tsv", dir);
    quality_set set = {0};
    size_t size = 0;
    char* text = bench_read_file(mesh_path, &size);
    if (text == NULL || quality_read_arena(tsv_path, &set) != 0) {
        printf("# %s or its optima not found: skipped\n", mesh_path);
        free(text);
        quality_set_free(&set);
        return 0;
    }
    quality_thin(&set, smoke ? 10u : QUALITY_MAX_ROWS);
    wf_polyanya_import_desc d = {.tile_size = tile_size};
    wf_mesh* mesh = NULL;
    wf_status s = wf_mesh_import_polyanya(&d, text, size, &mesh);
    free(text);
    int failed = 1;
    if (s == WF_OK) {
        char label[256];
        snprintf(label, sizeof label, "%s%s", name, tile_size > 0.0f ? "/tiled16" : "");
        failed = quality_run(label, mesh, &set, wf_v3(0.01f, 1.0f, 0.01f), false);
    }
    wf_mesh_destroy(mesh);
    quality_set_free(&set);
    return failed;
}

/// A Moving AI map (set/name) as a cell mesh (on at most cell_rows rows:
/// A* over single cells is slow on the big maps; 0: not at all), and
/// through the tile cache with tile_cells cells a tile (0: not).
static int quality_grid(const char* dir, const char* map, size_t cell_rows, uint32_t tile_cells,
                        int smoke) {
    char map_path[1024], scen_path[1024];
    snprintf(map_path, sizeof map_path, "%s/movingai/maps/%s.map", dir, map);
    snprintf(scen_path, sizeof scen_path, "%s/movingai/scenarios/%s.map.scen", dir, map);
    quality_set set = {0};
    if (quality_read_scen(scen_path, &set) != 0) {
        printf("# %s not found: skipped\n", scen_path);
        quality_set_free(&set);
        return 0;
    }
    quality_thin(&set, smoke ? 10u : QUALITY_MAX_ROWS);
    int failed = 0;
    char label[256];
    if (tile_cells > 0 && !smoke) {
        wf_mesh* mesh = quality_tilecache_mesh(map_path, tile_cells);
        if (mesh == NULL) {
            printf("# %s: tile cache build with %u-cell tiles failed: skipped\n", map_path,
                   tile_cells);
        } else {
            // Tile-seam walls and contour simplification may make some
            // rows longer whatever the search does (see docs/navmesh.md).
            snprintf(label, sizeof label, "%s/tilecache%u", map, tile_cells);
            failed |= quality_run(label, mesh, &set, wf_v3(0.5f, 1.0f, 0.5f), true);
            wf_mesh_destroy(mesh);
        }
    }
    if (cell_rows > 0) {
        quality_thin(&set, smoke ? 3u : cell_rows);
        wf_mesh* mesh = quality_cell_mesh(map_path);
        if (mesh == NULL) {
            fprintf(stderr, "%s: cell mesh failed\n", map_path);
            failed = 1;
        } else {
            snprintf(label, sizeof label, "%s/cells", map);
            failed |= quality_run(label, mesh, &set, wf_v3(0.1f, 1.0f, 0.1f), true);
            wf_mesh_destroy(mesh);
        }
    }
    quality_set_free(&set);
    return failed;
}

/// The default path mode's section of the output.
static int bench_default_quality(const char* dir, int smoke) {
    printf("# default path mode: find_path + find_straight_path per scenario row; ratio = "
           "length / optimum (arena: Euclidean, grid maps: octile; longer_share: rows over "
           "1.001 x octile, '-' for Euclidean rows)\n");
    printf("mesh,rows,missing,us_per_query,mean_ratio,p99_ratio,worst_ratio,longer_share\n");
    int failed = quality_polyanya(dir, "arena.mesh", 0.0f, smoke);
    failed |= quality_polyanya(dir, "arena.mesh", 16.0f, smoke);
    failed |= quality_polyanya(dir, "arena-merged.mesh", 0.0f, smoke);
    failed |= quality_polyanya(dir, "arena-merged.mesh", 16.0f, smoke);
    static const struct {
        const char* map;
        size_t cell_rows;
        uint32_t tile_cells;
    } maps[] = {
        {"dao/arena", QUALITY_MAX_ROWS, 255}, {"dao/den101d", QUALITY_MAX_ROWS, 255},
        {"bg512/AR0011SR", 200, 255},         {"rooms/8room_000", 50, 128},
        {"mazes/maze512-4-0", 0, 128},
    };
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; ++i) {
        failed |= quality_grid(dir, maps[i].map, maps[i].cell_rows, maps[i].tile_cells, smoke);
    }
    return failed;
}

/* ---------------------------------------------------------------------------
 * Exact path mode next to the default: µs per query (find_path + straight
 * path, same pairs, same query) and path length against a known optimum
 * (the arena TSV, or the octile optimum of a Moving AI .scen; on the
 * generated level, against the default's own length).
 */

/// Profiling knobs (--exact ROW STRIDE REPEAT): every STRIDE-th row,
/// timed REPEAT times (0: the defaults).
static uint32_t exact_stride = 1, exact_repeat = 0;
/// --exact ... MODE: run only "default" or only "exact" (under callgrind).
static const char* exact_only_mode = NULL;

typedef struct exact_pair {
    wf_poly_ref start, goal;
    wf_vec3 spos, gpos;
    double reference; ///< known optimum (< 0: none)
} exact_pair;

typedef struct exact_mode_figures {
    double us;                                 ///< per find_path + straight path
    double ratio_mean, ratio_p99, ratio_worst; ///< length / reference
    double longer_share;                       ///< share of rows longer than reference + 1e-3
    uint32_t failures;                         ///< searches that did not end WF_OK
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
    if (exact_only_mode != NULL &&
        strcmp(exact_only_mode, mode == WF_PATH_MODE_EXACT ? "exact" : "default") != 0) {
        memset(lengths, 0, sizeof(double) * count);
        return r;
    }
    double t0 = bench_now_seconds();
    for (uint32_t k = 0; k < repeat; ++k) {
        for (uint32_t i = 0; i < count; ++i) {
            const exact_pair* p = &pairs[i];
            wf_path_result pr;
            uint32_t n = 0;
            wf_status s =
                wf_query_find_path(q, p->start, p->goal, p->spos, p->gpos, &f, path, MAX_PATH, &pr);
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
    if (exact_only_mode != NULL) {
        // One mode alone: its lengths on stderr, to compare two builds.
        for (uint32_t i = 0; i < count; ++i) {
            fprintf(stderr, "length %u %.9f\n", i, lengths[i]);
        }
    }
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

/// Landmark tables when WF_EXACT_LANDMARKS=K is set (K landmarks; not
/// inlined, so callgrind can count the build apart from the queries).
__attribute__((noinline)) static wf_exact_landmarks* exact_build_landmarks(const wf_mesh* mesh) {
    const char* env = getenv("WF_EXACT_LANDMARKS");
    if (env == NULL || atoi(env) <= 0) {
        return NULL;
    }
    wf_exact_landmarks* table = NULL;
    wf_exact_landmarks_desc d = {.mesh = mesh, .landmark_count = (uint32_t)atoi(env)};
    wf_status s = wf_exact_landmarks_build(&d, &table);
    fprintf(stderr, "landmarks %d: %s, %zu bytes\n", atoi(env), wf_status_string(s),
            wf_exact_landmarks_memory_bytes(table));
    return table;
}

/// Times both modes on the pairs and prints one row. Returns non-zero on
/// failed searches.
static int exact_compare(const char* name, const wf_mesh* mesh, const exact_pair* pairs,
                         uint32_t count, const char* reference, uint32_t repeat) {
    wf_query* q = NULL;
    if (wf_query_create(&(wf_query_desc){.mesh = mesh, .max_nodes = 65536}, &q) != WF_OK) {
        return 1;
    }
    repeat = exact_repeat > 0 ? exact_repeat : repeat;
    wf_exact_landmarks* landmarks = exact_build_landmarks(mesh);
    if (landmarks != NULL && wf_query_set_exact_landmarks(q, landmarks) != WF_OK) {
        return 1;
    }
    double* def_lengths = malloc(sizeof(double) * (count > 0 ? count : 1));
    double* ex_lengths = malloc(sizeof(double) * (count > 0 ? count : 1));
    // Warm both once, then time.
    (void)exact_run_mode(q, pairs, count, WF_PATH_MODE_DEFAULT, 1, def_lengths);
    (void)exact_run_mode(q, pairs, count, WF_PATH_MODE_EXACT, 1, ex_lengths);
    exact_mode_figures d =
        exact_run_mode(q, pairs, count, WF_PATH_MODE_DEFAULT, repeat, def_lengths);
    exact_mode_figures e = exact_run_mode(q, pairs, count, WF_PATH_MODE_EXACT, repeat, ex_lengths);
    exact_ratios(&d, pairs, count, def_lengths, def_lengths);
    exact_ratios(&e, pairs, count, ex_lengths, def_lengths);
    printf("%s,%u,%u,%s,%.2f,%.2f,%.2f,%.6f,%.6f,%.6f,%.4f,%.6f,%.6f,%.6f,%.4f,%u\n", name,
           wf_mesh_get_stats(mesh).poly_count, count, reference, d.us, e.us,
           d.us > 0.0 ? e.us / d.us : 0.0, d.ratio_mean, d.ratio_p99, d.ratio_worst, d.longer_share,
           e.ratio_mean, e.ratio_p99, e.ratio_worst, e.longer_share, d.failures + e.failures);
    fflush(stdout);
    free(def_lengths);
    free(ex_lengths);
    wf_query_destroy(q);
    wf_exact_landmarks_destroy(landmarks);
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
    for (uint32_t i = 0; i < count; i += exact_stride) {
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
    wf_mesh_desc md = {
        .tile_width = (float)l.cells, .tile_depth = (float)l.cells, .max_tiles = l.tiles * l.tiles};
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
    uint32_t want = (smoke ? 20u : 500u) / exact_stride, n = 0;
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

/// `only`: run just the exact row whose name contains it (NULL: all).
static int exact_bench_all(const char* data_dir, int smoke, const char* only) {
    exact_print_header();
    int failed = 0;
    if (only == NULL || strstr("arena.mesh", only) != NULL) {
        failed |= exact_bench_arena(data_dir, "arena.mesh", 0.0f, smoke);
    }
    if (only == NULL || strstr("arena-merged.mesh", only) != NULL) {
        failed |= exact_bench_arena(data_dir, "arena-merged.mesh", 0.0f, smoke);
    }
    if (only == NULL || strstr("arena-merged.mesh/tiled16", only) != NULL) {
        failed |= exact_bench_arena(data_dir, "arena-merged.mesh", 16.0f, smoke);
    }
    if (only == NULL || strstr("generated", only) != NULL) {
        failed |= exact_bench_generated(smoke);
    }
    if (only == NULL || strstr("dao/den101d", only) != NULL) {
        failed |= exact_bench_grid(data_dir, "dao/den101d", smoke);
    }
    if (only == NULL || strstr("rooms/8room_000", only) != NULL) {
        failed |= exact_bench_grid(data_dir, "rooms/8room_000", smoke);
    }
    return failed;
}

int main(int argc, char** argv) {
    int smoke = argc > 1 && strcmp(argv[1], "--smoke") == 0;
    const char* data_dir = getenv("WF_TESTDATA_DIR");
    if (data_dir == NULL) {
        data_dir = "../shared/testdata";
    }
    // --exact [ROW|all [STRIDE [REPEAT [default|exact]]]]: the exact-mode
    // section alone, or one row of it, every STRIDE-th pair, one mode only
    // (for callgrind); --exact-smoke the same with few pairs.
    if (argc > 1 && (strcmp(argv[1], "--exact") == 0 || strcmp(argv[1], "--exact-smoke") == 0)) {
        if (argc > 3) {
            exact_stride = (uint32_t)atoi(argv[3]) > 0 ? (uint32_t)atoi(argv[3]) : 1u;
        }
        if (argc > 4) {
            exact_repeat = (uint32_t)atoi(argv[4]);
        }
        if (argc > 5) {
            exact_only_mode = argv[5];
        }
        return exact_bench_all(data_dir, strcmp(argv[1], "--exact-smoke") == 0,
                               argc > 2 && strcmp(argv[2], "all") != 0 ? argv[2] : NULL);
    }
    printf("mesh,polys,pairs,mean_corridor_polys,mean_corners,"
           "path_plus_straight_us,nearest_poly_us,raycast_us\n");
    int failed = bench_generated(smoke);
    failed |= bench_polyanya(data_dir, "arena.mesh", 0.0f, smoke);
    failed |= bench_polyanya(data_dir, "arena-merged.mesh", 0.0f, smoke);
    failed |= bench_polyanya(data_dir, "arena-merged.mesh", 16.0f, smoke);
    failed |= bench_default_quality(data_dir, smoke);
    failed |= exact_bench_all(data_dir, smoke, NULL);
    return failed;
}
