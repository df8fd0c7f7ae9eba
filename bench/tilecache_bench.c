// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Tile cache speed and size on the Recast demo levels (dungeon, nav_test,
// undulating, when ../shared/testdata is present) with the demo settings:
// whole-cache build time, raw and compressed bytes, layer -> navmesh tile
// time per layer, scratch memory, and the build's speed-up over workers.
// Prints CSV; --smoke runs a tiny generated level for CI.
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "tilecache/tilecache_internal.h" // white-box: the workers' scratch high water
#include "wayfarer/jobs.h"
#include "wayfarer/rng.h"
#include "wayfarer/tilecache.h"

/// Samples per figure: the median of BUILD_RUNS whole builds, and per
/// layer the median of TILE_RUNS tile builds.
#define BUILD_RUNS 5
#define TILE_RUNS 10
#define MAX_WORKER_COUNTS 8

/* A small generated level for --smoke: a bumpy 16 x 16 m ground of one-metre
 * quads with a few boxes and a bridge. */
typedef struct generated {
    float verts[3 * 2048];
    uint32_t tris[3 * 2048];
    uint32_t vert_count, tri_count;
} generated;

static uint32_t gen_vert(generated* g, float x, float y, float z) {
    g->verts[3 * g->vert_count] = x;
    g->verts[3 * g->vert_count + 1] = y;
    g->verts[3 * g->vert_count + 2] = z;
    return g->vert_count++;
}

static void gen_quad(generated* g, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
    uint32_t t[6] = {a, b, c, a, c, d};
    memcpy(&g->tris[3 * g->tri_count], t, sizeof t);
    g->tri_count += 2;
}

static void gen_level(generated* g) {
    memset(g, 0, sizeof *g);
    wf_rng rng = wf_rng_make(3, 1);
    const uint32_t side = 16;
    for (uint32_t z = 0; z <= side; ++z) {
        for (uint32_t x = 0; x <= side; ++x) {
            gen_vert(g, (float)x, wf_rng_range(&rng, 0.0f, 0.3f), (float)z);
        }
    }
    for (uint32_t z = 0; z < side; ++z) {
        for (uint32_t x = 0; x < side; ++x) {
            uint32_t a = z * (side + 1) + x;
            gen_quad(g, a, a + side + 1, a + side + 2, a + 1);
        }
    }
    for (int i = 0; i < 6; ++i) {
        float x = wf_rng_range(&rng, 1.0f, 13.0f), z = wf_rng_range(&rng, 1.0f, 13.0f);
        float y = wf_rng_range(&rng, 0.5f, 2.5f);
        uint32_t b[4] = {gen_vert(g, x, y, z), gen_vert(g, x, y, z + 1.5f),
                         gen_vert(g, x + 1.5f, y, z + 1.5f), gen_vert(g, x + 1.5f, y, z)};
        gen_quad(g, b[0], b[1], b[2], b[3]);
    }
    uint32_t a = gen_vert(g, 2, 3, 1), b = gen_vert(g, 2, 3, 15), c = gen_vert(g, 4, 3, 15),
             d = gen_vert(g, 4, 3, 1);
    gen_quad(g, a, b, c, d);
}

static wf_tilecache* make_cache(const wf_tilecache_params* p, wf_job_system jobs) {
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = *p;
    d.jobs = jobs;
    wf_tilecache* tc = NULL;
    return wf_tilecache_create(&d, &tc) == WF_OK ? tc : NULL;
}

/// Median wall time of whole builds on `jobs` (ms); -1 on failure.
static double time_builds(const wf_tilecache_params* p, wf_geom geom, wf_job_system jobs,
                          int runs) {
    wf_tilecache* tc = make_cache(p, jobs);
    double ms[BUILD_RUNS];
    for (int i = 0; tc != NULL && i < runs; ++i) {
        double t0 = bench_now_seconds();
        if (wf_tilecache_build_geom(tc, geom, NULL, 0) != WF_OK) {
            wf_tilecache_destroy(tc);
            return -1.0;
        }
        ms[i] = (bench_now_seconds() - t0) * 1e3;
    }
    wf_tilecache_destroy(tc);
    return tc != NULL ? bench_median(ms, (size_t)runs) : -1.0;
}

typedef struct tile_figures {
    double mean_us, p95_us;
    uint32_t polys;
    size_t high_water;
} tile_figures;

/// Every layer's tile built TILE_RUNS times (decompression included, as in
/// a rebuild); per layer the median, then mean and 95th percentile.
static int time_tiles(wf_tilecache* tc, int runs, tile_figures* out) {
    uint32_t n = wf_tilecache_layer_count(tc);
    size_t capacity = (size_t)1 << 20;
    void* buffer = aligned_alloc(16, capacity);
    double* per_layer = malloc(sizeof(double) * (n + 1u));
    double samples[TILE_RUNS];
    memset(out, 0, sizeof *out);
    int failed = buffer == NULL || per_layer == NULL;
    for (uint32_t i = 0; !failed && i < n; ++i) {
        for (int r = 0; r < runs; ++r) {
            size_t size = 0;
            double t0 = bench_now_seconds();
            wf_status s = wf_tilecache_build_tile(tc, i, buffer, capacity, &size);
            samples[r] = (bench_now_seconds() - t0) * 1e6;
            failed |= s != WF_OK && s != WF_ERR_NOT_FOUND;
        }
        per_layer[i] = bench_median(samples, (size_t)runs);
        out->mean_us += per_layer[i] / (double)n;
    }
    if (!failed && n > 0) {
        bench_sort(per_layer, n);
        out->p95_us = per_layer[(size_t)ceil(0.95 * n) - 1];
    }
    out->high_water = tc->workers[0].scratch.high_water;
    free(per_layer);
    free(buffer);
    return failed;
}

static uint32_t navmesh_polys(wf_tilecache* tc) {
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    wf_mesh* mesh = NULL;
    uint32_t polys = 0;
    if (wf_mesh_create(&md, &mesh) == WF_OK && wf_succeeded(wf_tilecache_build_navmesh(tc, mesh))) {
        polys = wf_mesh_get_stats(mesh).poly_count;
    }
    wf_mesh_destroy(mesh);
    return polys;
}

/// One level: the figures row, then its speed-up rows (kept to print after).
static int bench_level(const char* name, wf_geom geom, int smoke, char* speedups, size_t cap) {
    wf_tilecache_params p = wf_tilecache_params_recast_demo();
    wf_job_system inline_jobs = {0, NULL, NULL, NULL};
    int runs = smoke ? 1 : BUILD_RUNS;
    double build_ms = time_builds(&p, geom, inline_jobs, runs);
    wf_tilecache* tc = make_cache(&p, inline_jobs);
    if (build_ms < 0.0 || tc == NULL || wf_tilecache_build_geom(tc, geom, NULL, 0) != WF_OK) {
        fprintf(stderr, "%s: build failed\n", name);
        wf_tilecache_destroy(tc);
        return 1;
    }
    tile_figures tf;
    int failed = time_tiles(tc, smoke ? 1 : TILE_RUNS, &tf);
    wf_tilecache_stats st = wf_tilecache_get_stats(tc);
    printf("%s,%u,%u,%llu,%llu,%.3f,%.2f,%.2f,%zu,%zu,%zu,%u\n", name, st.tile_count,
           st.layer_count, (unsigned long long)st.raw_bytes,
           (unsigned long long)st.compressed_bytes, build_ms, tf.mean_us, tf.p95_us,
           st.scratch_bytes_per_worker, tf.high_water, tc->build_high_water, navmesh_polys(tc));
    fflush(stdout);
    wf_tilecache_destroy(tc);

    // Speed-up of the whole build: 1, 2, 4, 8, 16 workers up to the cores.
    wf_thread_pool_desc defaults = wf_thread_pool_desc_defaults(&(wf_thread_pool_desc){0});
    uint32_t cores = defaults.thread_count + 1, counts[MAX_WORKER_COUNTS], k = 0;
    for (uint32_t w = 1; w <= cores && k < MAX_WORKER_COUNTS; w *= 2) {
        counts[k++] = w;
    }
    if (counts[k - 1] != cores && k < MAX_WORKER_COUNTS) {
        counts[k++] = cores;
    }
    size_t used = strlen(speedups);
    for (uint32_t i = 0; i < k && !failed; ++i) {
        wf_thread_pool* pool = NULL;
        wf_job_system jobs = inline_jobs;
        if (counts[i] > 1) {
            wf_thread_pool_desc pd = {.thread_count = counts[i] - 1};
            if (wf_thread_pool_create(&pd, &pool) != WF_OK) {
                return 1;
            }
            jobs = wf_thread_pool_job_system(pool);
        }
        double ms = counts[i] == 1 ? build_ms : time_builds(&p, geom, jobs, runs);
        wf_thread_pool_destroy(pool);
        failed |= ms < 0.0;
        used += (size_t)snprintf(speedups + used, cap - used, "%s,%u,%.3f,%.2f\n", name, counts[i],
                                 ms, build_ms / ms);
    }
    return failed;
}

static int bench_obj(const char* dir, const char* name, char* speedups, size_t cap) {
    char path[1024];
    snprintf(path, sizeof path, "%s/recast/meshes/%s.obj", dir, name);
    size_t size = 0;
    char* text = bench_read_file(path, &size);
    if (text == NULL) {
        printf("# %s not found: skipped\n", path);
        return 0;
    }
    wf_geom_data* geom = NULL;
    wf_status s = wf_geom_load_obj(text, size, &(wf_geom_load_desc){0}, &geom);
    free(text);
    if (s != WF_OK) {
        fprintf(stderr, "%s: %s\n", path, wf_status_string(s));
        return 1;
    }
    int failed = bench_level(name, wf_geom_data_view(geom), 0, speedups, cap);
    wf_geom_data_destroy(geom);
    return failed;
}

int main(int argc, char** argv) {
    int smoke = argc > 1 && strcmp(argv[1], "--smoke") == 0;
    const char* data_dir = getenv("WF_TESTDATA_DIR");
    if (data_dir == NULL) {
        data_dir = "../shared/testdata";
    }
    static char speedups[1 << 14];
    speedups[0] = '\0';
    printf("level,tiles,layers,raw_bytes,compressed_bytes,cache_build_ms,tile_build_us_mean,"
           "tile_build_us_p95,scratch_bytes_per_worker,tile_scratch_high_water,"
           "build_arena_high_water,navmesh_polys\n");
    int failed = 0;
    if (smoke) {
        generated* g = malloc(sizeof *g);
        gen_level(g);
        wf_geom geom = {g->verts, g->vert_count, g->tris, g->tri_count, NULL, NULL, 0};
        failed = bench_level("generated", geom, 1, speedups, sizeof speedups);
        free(g);
    } else {
        static const char* const levels[] = {"dungeon", "nav_test", "undulating"};
        for (size_t i = 0; i < sizeof levels / sizeof levels[0]; ++i) {
            failed |= bench_obj(data_dir, levels[i], speedups, sizeof speedups);
        }
    }
    printf("\nlevel,workers,cache_build_ms,speedup\n%s", speedups);
    return failed;
}
