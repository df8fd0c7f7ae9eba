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
    return failed;
}
