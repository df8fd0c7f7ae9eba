// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Obstacles and budgeted updates on nav_test with the Recast demo settings
// (the scenario of the Detour figures below, so the two compare): 50
// cylinders (r 1, h 2) at seeded random walkable points are added, updated
// until applied, removed and updated again, for 1 and 2 workers and
// several budgets; per touched layer the build, the commit and a one-layer
// update call; the overshoot of a 300 us budget against the largest layer
// build. Prints CSV; --smoke runs a small generated grid level once.
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "tilecache/tilecache_internal.h" // white-box: one layer's build and commit timed alone
#include "wayfarer/jobs.h"
#include "wayfarer/query.h"
#include "wayfarer/rng.h"
#include "wayfarer/tilecache.h"

#define OBSTACLE_COUNT 50u
#define OBSTACLE_RADIUS 1.0f
#define OBSTACLE_HEIGHT 2.0f
#define SEED 2026u
/// Recorded runs per scenario (after one warm-up run); medians are shown.
#define RUNS 9
/// Samples per layer for the build and commit timings (median taken).
#define LAYER_RUNS 10
#define MAX_CALLS 100000u
#define OVERSHOOT_BUDGET_US 300u
#define BLOB_CAPACITY ((size_t)1 << 20)

/// Mean, 95th percentile and largest of n samples (sorts them).
static void summarize(double* v, size_t n, double* mean, double* p95, double* max) {
    *mean = *p95 = *max = 0.0;
    if (n == 0) {
        return;
    }
    bench_sort(v, n);
    for (size_t i = 0; i < n; ++i) {
        *mean += v[i] / (double)n;
    }
    *p95 = v[(size_t)ceil(0.95 * (double)n) - 1];
    *max = v[n - 1];
}

/* ---------------------------------------------------------------------------
 * Levels: nav_test, or for --smoke a grid of 0.3 m cells with walls
 */

static int build_level(const char* data_dir, int smoke, unsigned char** out_file,
                       size_t* out_size) {
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = wf_tilecache_params_recast_demo();
    wf_tilecache* tc = NULL;
    if (wf_tilecache_create(&d, &tc) != WF_OK) {
        return 1;
    }
    wf_status s = WF_ERR_NOT_FOUND;
    if (smoke) {
        enum { SIDE = 96 };
        static uint8_t walkable[SIDE * SIDE];
        for (int i = 0; i < SIDE * SIDE; ++i) {
            walkable[i] = (i % SIDE != 40 || (i / SIDE) % 24 < 4) ? 1u : 0u;
        }
        wf_grid grid;
        memset(&grid, 0, sizeof grid);
        grid.width = grid.depth = SIDE;
        grid.cell_size = 0.3f;
        grid.walkable = walkable;
        s = wf_tilecache_build_grid(tc, grid);
    } else {
        char path[1024];
        snprintf(path, sizeof path, "%s/recast/meshes/nav_test.obj", data_dir);
        size_t size = 0;
        char* text = bench_read_file(path, &size);
        wf_geom_data* geom = NULL;
        if (text == NULL) {
            printf("# %s not found: skipped\n", path);
        } else if (wf_geom_load_obj(text, size, &(wf_geom_load_desc){0}, &geom) == WF_OK) {
            s = wf_tilecache_build_geom(tc, wf_geom_data_view(geom), NULL, 0);
        }
        free(text);
        wf_geom_data_destroy(geom);
    }
    size_t size = 0;
    unsigned char* file = NULL;
    if (s == WF_OK && wf_tilecache_save_size(tc, &size) == WF_OK && (file = malloc(size)) != NULL &&
        wf_tilecache_save(tc, file, size) != WF_OK) {
        free(file);
        file = NULL;
    }
    wf_tilecache_destroy(tc);
    *out_file = file;
    *out_size = size;
    return s == WF_ERR_NOT_FOUND ? 0 : file == NULL;
}

/// A cache loaded from the level's file on `jobs`, its navmesh built.
typedef struct instance {
    wf_tilecache* tc;
    wf_mesh* mesh;
    wf_obstacle_id ids[OBSTACLE_COUNT];
} instance;

static int instance_make(const unsigned char* file, size_t size, wf_job_system jobs,
                         instance* out) {
    memset(out, 0, sizeof *out);
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.jobs = jobs;
    d.max_obstacles = OBSTACLE_COUNT;
    d.max_pending_requests = OBSTACLE_COUNT;
    if (wf_tilecache_load(&d, file, size, &out->tc) != WF_OK) {
        return 1;
    }
    wf_mesh_desc md = wf_tilecache_mesh_desc(out->tc);
    return wf_mesh_create(&md, &out->mesh) != WF_OK ||
           !wf_succeeded(wf_tilecache_build_navmesh(out->tc, out->mesh));
}

static void instance_free(instance* in) {
    wf_mesh_destroy(in->mesh); // before its cache: updated tiles live in the cache
    wf_tilecache_destroy(in->tc);
}

/// The 50 cylinders, standing on seeded random points of the bare navmesh.
static int place_obstacles(const instance* in, wf_obstacle_desc* out) {
    wf_query* q = NULL;
    if (wf_query_create(&(wf_query_desc){.mesh = in->mesh}, &q) != WF_OK) {
        return 1;
    }
    const wf_query_filter filter = wf_query_filter_defaults();
    wf_rng rng = wf_rng_make(SEED, 1);
    int failed = 0;
    for (uint32_t i = 0; i < OBSTACLE_COUNT && !failed; ++i) {
        wf_poly_ref ref;
        wf_vec3 p;
        failed = wf_query_find_random_point(q, &filter, &rng, &ref, &p) != WF_OK;
        memset(&out[i], 0, sizeof out[i]);
        out[i].shape = WF_OBSTACLE_CYLINDER;
        out[i].position = p;
        out[i].radius = OBSTACLE_RADIUS;
        out[i].height = OBSTACLE_HEIGHT;
    }
    wf_query_destroy(q);
    return failed;
}

/* ---------------------------------------------------------------------------
 * Phases: queue every add (or remove), then update until up to date
 */

typedef struct phase_run {
    uint32_t calls;
    double total_us, max_call_us;
    uint32_t layers_rebuilt, tiles_committed;
} phase_run;

/// Per-call CSV rows of some runs, printed at the end.
typedef struct call_log {
    char text[1 << 16];
    size_t used;
} call_log;

/// Queues every add (or remove), then updates until up to date; with a
/// log and a row prefix, each call's figures go into the log.
static int run_phase(instance* in, const wf_obstacle_desc* descs, int removing,
                     wf_tilecache_budget budget, phase_run* out, call_log* log,
                     const char* row_prefix) {
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < OBSTACLE_COUNT; ++i) {
        wf_status s = removing ? wf_tilecache_remove_obstacle(in->tc, in->ids[i])
                               : wf_tilecache_add_obstacle(in->tc, &descs[i], &in->ids[i]);
        if (s != WF_OK) {
            fprintf(stderr, "obstacle %u: %s\n", i, wf_status_string(s));
            return 1;
        }
    }
    wf_tilecache_update_result r;
    do {
        if (out->calls == MAX_CALLS || wf_tilecache_update(in->tc, in->mesh, &budget, &r) < 0) {
            return 1;
        }
        out->calls++;
        out->total_us += r.time_us;
        out->max_call_us = r.time_us > out->max_call_us ? r.time_us : out->max_call_us;
        out->layers_rebuilt += r.layers_rebuilt;
        out->tiles_committed += r.tiles_committed;
        if (row_prefix != NULL && log->used < sizeof log->text - 256) {
            log->used += (size_t)snprintf(
                log->text + log->used, sizeof log->text - log->used, "%s,%s,%u,%.1f,%u,%u,%u,%d\n",
                row_prefix, removing ? "remove" : "add", out->calls, r.time_us, r.layers_rebuilt,
                r.tiles_committed, r.builds_in_flight, r.up_to_date ? 1 : 0);
        }
    } while (!r.up_to_date);
    return 0;
}

typedef struct scenario {
    uint32_t workers;
    uint32_t budget_us;
    int detail; ///< print each call of the first recorded run
} scenario;

/// Medians over the runs of one scenario, and the largest call of all runs.
typedef struct scenario_figures {
    phase_run median[2]; ///< add, remove
    double worst_call_us[2];
} scenario_figures;

static int run_scenario(const char* level, const unsigned char* file, size_t size,
                        const wf_obstacle_desc* descs, scenario sc, int runs, call_log* log,
                        scenario_figures* out) {
    wf_thread_pool* pool = NULL;
    wf_job_system jobs = {0, NULL, NULL, NULL};
    if (sc.workers > 1) {
        wf_thread_pool_desc pd = {.thread_count = sc.workers - 1};
        if (wf_thread_pool_create(&pd, &pool) != WF_OK) {
            return 1;
        }
        jobs = wf_thread_pool_job_system(pool);
    }
    instance in;
    int failed = instance_make(file, size, jobs, &in);
    const wf_tilecache_budget budget = {sc.budget_us, 0};
    double samples[4][RUNS + 1];
    uint32_t calls[2][RUNS + 1], rebuilt[2][RUNS + 1], committed[2][RUNS + 1];
    memset(out, 0, sizeof *out);
    char prefix[128];
    snprintf(prefix, sizeof prefix, "%s,%u,%u", level, sc.workers, sc.budget_us);
    // Run 0 warms up (the layers' tile memory is made on first use).
    for (int run = 0; run <= runs && !failed; ++run) {
        for (int phase = 0; phase < 2 && !failed; ++phase) {
            phase_run pr;
            const char* rows = sc.detail && run == 1 ? prefix : NULL;
            failed = run_phase(&in, descs, phase, budget, &pr, log, rows);
            samples[2 * phase][run] = pr.total_us;
            samples[2 * phase + 1][run] = pr.max_call_us;
            calls[phase][run] = pr.calls;
            rebuilt[phase][run] = pr.layers_rebuilt;
            committed[phase][run] = pr.tiles_committed;
            if (run > 0 && pr.max_call_us > out->worst_call_us[phase]) {
                out->worst_call_us[phase] = pr.max_call_us;
            }
        }
    }
    for (int phase = 0; phase < 2 && !failed; ++phase) {
        phase_run* m = &out->median[phase];
        double c[RUNS];
        for (int run = 1; run <= runs; ++run) {
            c[run - 1] = calls[phase][run];
        }
        m->calls = (uint32_t)bench_median(c, (size_t)runs);
        m->total_us = bench_median(&samples[2 * phase][1], (size_t)runs);
        m->max_call_us = bench_median(&samples[2 * phase + 1][1], (size_t)runs);
        m->layers_rebuilt = rebuilt[phase][1];
        m->tiles_committed = committed[phase][1];
    }
    instance_free(&in);
    wf_thread_pool_destroy(pool);
    return failed;
}

/* ---------------------------------------------------------------------------
 * Per touched layer: the build, the commit, a one-layer update call
 */

typedef struct layer_figures {
    uint32_t layers;
    double build_mean, build_p95, build_max;
    double bare_mean;
    double commit_mean, commit_p95;
    double call_mean, call_p95, call_max;
} layer_figures;

/// Sized to the level: every buffer below holds one entry per layer.
typedef struct layer_buffers {
    double *build, *bare, *commit, *calls;
    uint32_t* touched;
    unsigned char* blob;
    wf_obstacle_stamp* stamps;
    uint32_t* slots; ///< the applied obstacles
} layer_buffers;

/// One-layer update calls (a budget of 1 us ends each call after its first
/// build) until the queued requests are applied; appends their times to
/// calls[*count ..), which has room for max_calls in all.
static int one_layer_calls(instance* in, size_t max_calls, double* calls, size_t* count) {
    const wf_tilecache_budget one = {1, 0};
    wf_tilecache_update_result r = {.up_to_date = false};
    while (!r.up_to_date) {
        if (*count == max_calls || wf_tilecache_update(in->tc, in->mesh, &one, &r) < 0) {
            return 1;
        }
        if (r.layers_rebuilt == 1) {
            calls[(*count)++] = r.time_us;
        }
    }
    return 0;
}

/// With the obstacles applied: each touched layer's build with its stamps
/// and without (decompression included), median of `runs`.
static int time_builds(wf_tilecache* tc, wf_arena* arena, layer_buffers* b, int runs,
                       uint32_t* out_layers) {
    uint32_t touched = 0, applied = wf_tilecache_list_applied(tc, b->slots);
    for (uint32_t i = 0; i < wf_tilecache_layer_count(tc); ++i) {
        uint32_t count = wf_tilecache_gather_stamps(tc, b->slots, applied, i, b->stamps);
        if (count == 0) {
            continue;
        }
        double with[LAYER_RUNS], without[LAYER_RUNS];
        for (int k = 0; k < runs; ++k) {
            size_t size = 0;
            double t0 = (bench_now_seconds() * 1e6);
            wf_status s = wf_tilecache_rebuild_layer(tc, i, b->stamps, count, NULL, 0, arena,
                                                     b->blob, BLOB_CAPACITY, &size);
            double t1 = (bench_now_seconds() * 1e6);
            wf_status bare = wf_tilecache_rebuild_layer(tc, i, NULL, 0, NULL, 0, arena, b->blob,
                                                        BLOB_CAPACITY, &size);
            without[k] = (bench_now_seconds() * 1e6) - t1;
            with[k] = t1 - t0;
            if ((s != WF_OK && s != WF_ERR_NOT_FOUND) ||
                (bare != WF_OK && bare != WF_ERR_NOT_FOUND)) {
                return 1;
            }
        }
        b->touched[touched] = i;
        b->build[touched] = bench_median(with, (size_t)runs);
        b->bare[touched++] = bench_median(without, (size_t)runs);
    }
    *out_layers = touched;
    return 0;
}

/// Commit: a fresh mesh's tile of each touched layer removed and added
/// again from a blob (what an update's commit does to the mesh, links to
/// the neighbours included), median of `runs`. The mesh does not own the
/// blobs, so each gets its own buffer, freed after the mesh.
static int time_commits(wf_tilecache* tc, wf_arena* arena, layer_buffers* b, uint32_t layers,
                        int runs, uint32_t* out_timed) {
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    wf_mesh* mesh = NULL;
    unsigned char** blobs = calloc(layers + 1u, sizeof *blobs);
    int failed = blobs == NULL || wf_mesh_create(&md, &mesh) != WF_OK ||
                 !wf_succeeded(wf_tilecache_build_navmesh(tc, mesh));
    uint32_t timed = 0;
    for (uint32_t k = 0; k < layers && !failed; ++k) {
        wf_tilecache_layer_info info;
        wf_tile_ref ref;
        size_t size = 0;
        if (wf_tilecache_get_layer_info(tc, b->touched[k], &info) != WF_OK ||
            wf_mesh_find_tile(mesh, info.tile_x, info.tile_z, info.layer, &ref) != WF_OK) {
            continue; // the layer has no tile without obstacles
        }
        blobs[k] = aligned_alloc(WF_TILECACHE_BLOB_ALIGN, BLOB_CAPACITY);
        failed = blobs[k] == NULL ||
                 wf_tilecache_rebuild_layer(tc, b->touched[k], NULL, 0, NULL, 0, arena, blobs[k],
                                            BLOB_CAPACITY, &size) != WF_OK;
        double samples[LAYER_RUNS];
        for (int r = 0; r < runs && !failed; ++r) {
            double t0 = (bench_now_seconds() * 1e6);
            failed = wf_mesh_remove_tile(mesh, ref, NULL, NULL) != WF_OK ||
                     wf_mesh_add_tile(mesh, blobs[k], size, 0, (wf_tile_ref){0}, &ref) < 0;
            samples[r] = (bench_now_seconds() * 1e6) - t0;
        }
        if (!failed) {
            b->commit[timed++] = bench_median(samples, (size_t)runs);
        }
    }
    wf_mesh_destroy(mesh);
    for (uint32_t k = 0; blobs != NULL && k < layers; ++k) {
        free(blobs[k]);
    }
    free(blobs);
    *out_timed = timed;
    return failed;
}

static int time_layers(const unsigned char* file, size_t size, const wf_obstacle_desc* descs,
                       int runs, layer_figures* out) {
    memset(out, 0, sizeof *out);
    wf_job_system inline_jobs = {0, NULL, NULL, NULL};
    instance in;
    if (instance_make(file, size, inline_jobs, &in) != 0) {
        instance_free(&in);
        return 1;
    }
    wf_tilecache* tc = in.tc;
    uint32_t n = wf_tilecache_layer_count(tc) + 1u, max_calls = 4u * n;
    layer_buffers b = {calloc(n, sizeof(double)),
                       calloc(n, sizeof(double)),
                       calloc(n, sizeof(double)),
                       calloc(max_calls, sizeof(double)),
                       calloc(n, sizeof(uint32_t)),
                       aligned_alloc(16, BLOB_CAPACITY),
                       calloc(OBSTACLE_COUNT, sizeof(wf_obstacle_stamp)),
                       calloc(OBSTACLE_COUNT, sizeof(uint32_t))};
    wf_arena arena;
    memset(&arena, 0, sizeof arena);
    int failed = b.build == NULL || b.bare == NULL || b.commit == NULL || b.calls == NULL ||
                 b.touched == NULL || b.blob == NULL || b.stamps == NULL || b.slots == NULL ||
                 wf_arena_create(&arena, &tc->allocator,
                                 wf_tilecache_full_scratch_bytes(tc->params.tile_size)) != WF_OK;
    size_t call_count = 0;
    uint32_t timed = 0;
    for (uint32_t i = 0; i < OBSTACLE_COUNT && !failed; ++i) {
        failed = wf_tilecache_add_obstacle(tc, &descs[i], &in.ids[i]) != WF_OK;
    }
    failed = failed || one_layer_calls(&in, max_calls, b.calls, &call_count);
    failed = failed || time_builds(tc, &arena, &b, runs, &out->layers);
    for (uint32_t i = 0; i < OBSTACLE_COUNT && !failed; ++i) {
        failed = wf_tilecache_remove_obstacle(tc, in.ids[i]) != WF_OK;
    }
    failed = failed || one_layer_calls(&in, max_calls, b.calls, &call_count);
    failed = failed || time_commits(tc, &arena, &b, out->layers, runs, &timed);
    double unused;
    summarize(b.build, out->layers, &out->build_mean, &out->build_p95, &out->build_max);
    summarize(b.bare, out->layers, &out->bare_mean, &unused, &unused);
    summarize(b.commit, timed, &out->commit_mean, &out->commit_p95, &unused);
    summarize(b.calls, call_count, &out->call_mean, &out->call_p95, &out->call_max);
    wf_arena_destroy(&arena, &tc->allocator);
    free(b.slots);
    free(b.stamps);
    free(b.blob);
    free(b.touched);
    free(b.calls);
    free(b.commit);
    free(b.bare);
    free(b.build);
    instance_free(&in);
    return failed;
}

/* ---------------------------------------------------------------------------
 * Main
 */

/// Detour's figures for the same scenario on nav_test, single thread: the
/// reference the printed ratios compare against.
#define DETOUR_ADD_MS 1.67
#define DETOUR_ADD_CALLS 45.0
#define DETOUR_REMOVE_MS 1.22
#define DETOUR_LAYER_US 25.0

static int bench_level(const char* level, const unsigned char* file, size_t size, int smoke) {
    int runs = smoke ? 1 : RUNS, layer_runs = smoke ? 1 : LAYER_RUNS;
    wf_job_system inline_jobs = {0, NULL, NULL, NULL};
    instance probe;
    wf_obstacle_desc descs[OBSTACLE_COUNT];
    int failed = instance_make(file, size, inline_jobs, &probe) || place_obstacles(&probe, descs);
    instance_free(&probe);
    if (failed) {
        fprintf(stderr, "%s: cannot set up\n", level);
        return 1;
    }
    layer_figures lf;
    failed = time_layers(file, size, descs, layer_runs, &lf);
    const scenario scenarios[] = {
        {1, 0, 0},
        {2, 0, 0},
        {1, 1000, 1},
        {2, 1000, 1},
        {1, OVERSHOOT_BUDGET_US, 0},
        {2, OVERSHOOT_BUDGET_US, 0},
    };
    enum { SCENARIOS = sizeof scenarios / sizeof scenarios[0] };
    scenario_figures figures[SCENARIOS];
    call_log* log = calloc(1, sizeof *log);
    failed = log == NULL;
    for (int i = 0; i < SCENARIOS && !failed; ++i) {
        failed = run_scenario(level, file, size, descs, scenarios[i], runs, log, &figures[i]);
    }
    if (failed) {
        fprintf(stderr, "%s: a scenario failed\n", level);
        free(log);
        return 1;
    }
    printf("level,workers,budget_us,phase,calls,total_us,max_call_us,layers_rebuilt,"
           "tiles_committed,total_vs_detour,calls_vs_detour\n");
    for (int i = 0; i < SCENARIOS; ++i) {
        for (int phase = 0; phase < 2; ++phase) {
            const phase_run* m = &figures[i].median[phase];
            double detour_ms = phase == 0 ? DETOUR_ADD_MS : DETOUR_REMOVE_MS;
            printf("%s,%u,%u,%s,%u,%.1f,%.1f,%u,%u,%.2f,%.3f\n", level, scenarios[i].workers,
                   scenarios[i].budget_us, phase == 0 ? "add" : "remove", m->calls, m->total_us,
                   m->max_call_us, m->layers_rebuilt, m->tiles_committed,
                   m->total_us * 1e-3 / detour_ms, (double)m->calls / DETOUR_ADD_CALLS);
        }
    }
    printf("\nlevel,layers_touched,build_us_mean,build_us_p95,build_us_max,bare_build_us_mean,"
           "commit_us_mean,commit_us_p95,one_layer_call_us_mean,one_layer_call_us_p95,"
           "build_mean_vs_detour,one_layer_call_mean_vs_detour\n");
    printf("%s,%u,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f\n", level, lf.layers,
           lf.build_mean, lf.build_p95, lf.build_max, lf.bare_mean, lf.commit_mean, lf.commit_p95,
           lf.call_mean, lf.call_p95, lf.build_mean / DETOUR_LAYER_US,
           lf.call_mean / DETOUR_LAYER_US);
    printf("\nlevel,workers,budget_us,phase,worst_call_us,overshoot_us,largest_layer_build_us,"
           "largest_one_layer_call_us\n");
    for (int i = 4; i < SCENARIOS; ++i) {
        for (int phase = 0; phase < 2; ++phase) {
            double worst = figures[i].worst_call_us[phase];
            printf("%s,%u,%u,%s,%.1f,%.1f,%.1f,%.1f\n", level, scenarios[i].workers,
                   scenarios[i].budget_us, phase == 0 ? "add" : "remove", worst,
                   worst - (double)scenarios[i].budget_us, lf.build_max, lf.call_max);
        }
    }
    printf("\nlevel,workers,budget_us,phase,call,time_us,layers_rebuilt,tiles_committed,"
           "builds_in_flight,up_to_date\n%s",
           log->text);
    free(log);
    return 0;
}

int main(int argc, char** argv) {
    int smoke = argc > 1 && strcmp(argv[1], "--smoke") == 0;
    const char* data_dir = getenv("WF_TESTDATA_DIR");
    if (data_dir == NULL) {
        data_dir = "../shared/testdata";
    }
    unsigned char* file = NULL;
    size_t size = 0;
    if (build_level(data_dir, smoke, &file, &size) != 0) {
        fprintf(stderr, "cannot build the level\n");
        return 1;
    }
    int failed =
        file != NULL ? bench_level(smoke ? "generated" : "nav_test", file, size, smoke) : 0;
    free(file);
    return failed;
}
