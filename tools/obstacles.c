// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// `wayfarer obstacles`: a churn scenario on a cache file (N cylinders added
// at random walkable points, updates until applied, removed, updates until
// applied again) with its latency figures as one JSON object.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/tool.h"
#include "wayfarer/query.h"
#include "wayfarer/rng.h"

/// The obstacle of the Detour comparison (docs/benchmarks.md): an upright
/// cylinder of radius 1 m, 2 m tall.
#define OBSTACLE_RADIUS 1.0f
#define OBSTACLE_HEIGHT 2.0f
#define DEFAULT_COUNT 50u
#define DEFAULT_BUDGET_US 1000u
/// A phase that needs more update calls than this is stuck, not slow.
#define MAX_CALLS 1000000u
/// Slots for obstacles a file already holds (a pool saved with the
/// default capacity), added to --count when the file has a pool.
#define FILE_POOL_SLOTS 1024u

typedef struct phase_figures {
    uint32_t calls;
    double total_ms;
    double max_call_us;
    uint32_t layers_rebuilt;
} phase_figures;

/// Update calls with the budget until every request is applied and every
/// tile committed.
static int run_phase(wf_tilecache* tc, wf_mesh* mesh, uint32_t budget_us, phase_figures* out) {
    memset(out, 0, sizeof *out);
    const wf_tilecache_budget budget = {budget_us, 0};
    wf_tilecache_update_result r;
    do {
        if (out->calls == MAX_CALLS) {
            fprintf(stderr, "wayfarer obstacles: not up to date after %u update calls\n",
                    MAX_CALLS);
            return EXIT_CHECK;
        }
        wf_status s = wf_tilecache_update(tc, mesh, &budget, &r);
        if (s < 0) {
            fprintf(stderr, "wayfarer obstacles: update failed: %s\n", wf_status_string(s));
            return EXIT_INPUT;
        }
        out->calls++;
        out->total_ms += r.time_us * 1e-3;
        out->max_call_us = r.time_us > out->max_call_us ? r.time_us : out->max_call_us;
        out->layers_rebuilt += r.layers_rebuilt;
    } while (!r.up_to_date);
    return 0;
}

/// Loads the cache with room for `count` more obstacles (see FILE_POOL_SLOTS).
static int load_cache(const char* path, const char* data, size_t size, wf_job_system jobs,
                      uint32_t count, wf_tilecache** out) {
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.jobs = jobs;
    d.max_obstacles = count;
    d.max_pending_requests = count;
    // Static: the tile cache keeps the logger for its whole life.
    static tool_log log = {.command = "obstacles"};
    log.hold = true;
    d.logger = tool_logger(&log);
    wf_status st = wf_tilecache_load(&d, data, size, out);
    if (st == WF_ERR_CAPACITY) {
        d.max_obstacles = count + FILE_POOL_SLOTS;
        log.last_error[0] = '\0';
        st = wf_tilecache_load(&d, data, size, out);
    }
    log.hold = false;
    if (st != WF_OK) {
        report_cache_error("obstacles", path, data, size, st, &log);
        return EXIT_INPUT;
    }
    return 0;
}

static int add_all(wf_tilecache* tc, const wf_obstacle_desc* descs, uint32_t count,
                   wf_obstacle_id* ids) {
    for (uint32_t i = 0; i < count; ++i) {
        wf_status st = wf_tilecache_add_obstacle(tc, &descs[i], &ids[i]);
        if (st != WF_OK) {
            fprintf(stderr, "wayfarer obstacles: obstacle %u not added: %s\n", i,
                    wf_status_string(st));
            return EXIT_INPUT;
        }
    }
    return 0;
}

static int remove_all(wf_tilecache* tc, const wf_obstacle_id* ids, uint32_t count) {
    for (uint32_t i = 0; i < count; ++i) {
        wf_status st = wf_tilecache_remove_obstacle(tc, ids[i]);
        if (st != WF_OK) {
            fprintf(stderr, "wayfarer obstacles: obstacle %u not removed: %s\n", i,
                    wf_status_string(st));
            return EXIT_INPUT;
        }
    }
    return 0;
}

/// N cylinders standing on random points of the navmesh.
static int place_obstacles(wf_mesh* mesh, uint64_t seed, uint32_t count, wf_obstacle_desc* out) {
    wf_query* q = NULL;
    if (wf_query_create(&(wf_query_desc){.mesh = mesh}, &q) != WF_OK) {
        fprintf(stderr, "wayfarer: cannot create a query\n");
        return EXIT_INPUT;
    }
    const wf_query_filter filter = wf_query_filter_defaults();
    wf_rng rng = wf_rng_make(seed, 1);
    int rc = 0;
    for (uint32_t i = 0; i < count && rc == 0; ++i) {
        wf_poly_ref ref;
        wf_vec3 p;
        if (wf_query_find_random_point(q, &filter, &rng, &ref, &p) != WF_OK) {
            fprintf(stderr, "wayfarer obstacles: the navmesh has no walkable polygon\n");
            rc = EXIT_INPUT;
            break;
        }
        memset(&out[i], 0, sizeof out[i]);
        out[i].shape = WF_OBSTACLE_CYLINDER;
        out[i].position = p;
        out[i].radius = OBSTACLE_RADIUS;
        out[i].height = OBSTACLE_HEIGHT;
    }
    wf_query_destroy(q);
    return rc;
}

static int compare_doubles(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

/// The time of an update that rebuilds one layer: a single-thread cache
/// whose calls have a budget of 1 us, so each builds and commits exactly
/// one layer (the call's time includes the commit, as Detour's does).
/// Both phases; *out_mean and *out_p95 in microseconds.
static int per_layer_times(const char* path, const char* data, size_t size,
                           const wf_obstacle_desc* descs, wf_obstacle_id* ids, uint32_t count,
                           double* out_mean, double* out_p95) {
    wf_job_system inline_jobs;
    memset(&inline_jobs, 0, sizeof inline_jobs);
    wf_tilecache* tc = NULL;
    wf_mesh* mesh = NULL;
    double ms = 0.0;
    int rc = load_cache(path, data, size, inline_jobs, count, &tc);
    if (rc == 0) {
        rc = cache_navmesh(tc, &mesh, &ms);
    }
    size_t cap = 64, n = 0;
    double* times = malloc(cap * sizeof *times);
    rc = rc == 0 && times == NULL ? EXIT_INPUT : rc;
    for (int phase = 0; phase < 2 && rc == 0; ++phase) {
        rc = phase == 0 ? add_all(tc, descs, count, ids) : remove_all(tc, ids, count);
        const wf_tilecache_budget one_layer = {1, 0};
        wf_tilecache_update_result r;
        r.up_to_date = false;
        for (uint32_t calls = 0; rc == 0 && !r.up_to_date; ++calls) {
            wf_status st = wf_tilecache_update(tc, mesh, &one_layer, &r);
            if (st < 0 || calls == MAX_CALLS) {
                fprintf(stderr, "wayfarer obstacles: single-thread pass failed\n");
                rc = st < 0 ? EXIT_INPUT : EXIT_CHECK;
                break;
            }
            if (r.layers_rebuilt != 1) {
                continue; // nothing built (a dropped or failed build)
            }
            if (n == cap) {
                double* grown = realloc(times, 2 * cap * sizeof *times);
                if (grown == NULL) {
                    rc = EXIT_INPUT;
                    break;
                }
                times = grown;
                cap *= 2;
            }
            times[n++] = r.time_us;
        }
    }
    *out_mean = 0.0;
    *out_p95 = 0.0;
    if (rc == 0 && n > 0) {
        qsort(times, n, sizeof *times, compare_doubles);
        for (size_t i = 0; i < n; ++i) {
            *out_mean += times[i] / (double)n;
        }
        size_t at = (size_t)(0.95 * (double)n + 0.999999);
        *out_p95 = times[(at > 0 ? at : 1) - 1];
    }
    free(times);
    wf_mesh_destroy(mesh); // before its cache: updated tiles live in the cache
    wf_tilecache_destroy(tc);
    return rc;
}

int cmd_obstacles(int argc, char** argv) {
    const char* path = NULL;
    const char* class_name = NULL;
    uint32_t count = DEFAULT_COUNT, workers = 1, budget_us = DEFAULT_BUDGET_US, seed = 1;
    for (int i = 1; i < argc; ++i) {
        if (argv[i][0] != '-' && path == NULL) {
            path = argv[i];
            continue;
        }
        if (strcmp(argv[i], "--class") == 0 && i + 1 < argc) {
            class_name = argv[++i];
            continue;
        }
        uint32_t* target = strcmp(argv[i], "--count") == 0       ? &count
                           : strcmp(argv[i], "--workers") == 0   ? &workers
                           : strcmp(argv[i], "--budget-us") == 0 ? &budget_us
                           : strcmp(argv[i], "--seed") == 0      ? &seed
                                                                 : NULL;
        if (target == NULL || i + 1 >= argc || !parse_count(argv[i + 1], target)) {
            fprintf(stderr, "wayfarer obstacles: unknown option or bad value: %s\n", argv[i]);
            return usage_error("obstacles");
        }
        ++i;
    }
    if (path == NULL || count == 0) {
        fprintf(stderr, "wayfarer obstacles: a cache file and a --count of at least 1\n");
        return usage_error("obstacles");
    }
    // The file's own pool slots come on top (FILE_POOL_SLOTS): keep room for them.
    if (count > WF_TILECACHE_MAX_OBSTACLES - FILE_POOL_SLOTS || workers > WF_JOBS_MAX_WORKERS) {
        fprintf(stderr, "wayfarer obstacles: --count is at most %u, --workers at most %u\n",
                WF_TILECACHE_MAX_OBSTACLES - FILE_POOL_SLOTS, WF_JOBS_MAX_WORKERS);
        return usage_error("obstacles");
    }
    workers = workers > 0 ? workers : 1;
    char* file = NULL;
    size_t file_size = 0;
    int rc = read_file(path, &file, &file_size);
    if (rc != 0) {
        return rc;
    }
    const char* data = NULL;
    size_t size = 0;
    rc = cache_pick_class("obstacles", path, file, file_size, class_name, &data, &size);
    if (rc != 0) {
        free(file);
        return rc;
    }
    wf_thread_pool* pool = NULL;
    wf_job_system jobs;
    wf_tilecache* tc = NULL;
    wf_mesh* mesh = NULL;
    double mesh_ms = 0.0, layer_mean = 0.0, layer_p95 = 0.0;
    wf_obstacle_desc* descs = malloc(count * sizeof *descs);
    wf_obstacle_id* ids = malloc(count * sizeof *ids);
    phase_figures add, remove;
    memset(&add, 0, sizeof add);
    memset(&remove, 0, sizeof remove);
    if (descs == NULL || ids == NULL) {
        fprintf(stderr, "wayfarer obstacles: out of memory\n");
        rc = EXIT_INPUT;
    }
    rc = rc == 0 ? make_jobs(workers, &pool, &jobs) : rc;
    rc = rc == 0 ? load_cache(path, data, size, jobs, count, &tc) : rc;
    rc = rc == 0 ? cache_navmesh(tc, &mesh, &mesh_ms) : rc;
    rc = rc == 0 ? place_obstacles(mesh, seed, count, descs) : rc;
    rc = rc == 0 ? add_all(tc, descs, count, ids) : rc;
    rc = rc == 0 ? run_phase(tc, mesh, budget_us, &add) : rc;
    rc = rc == 0 ? remove_all(tc, ids, count) : rc;
    rc = rc == 0 ? run_phase(tc, mesh, budget_us, &remove) : rc;
    rc = rc == 0 ? per_layer_times(path, data, size, descs, ids, count, &layer_mean, &layer_p95)
                 : rc;
    if (rc == 0) {
        const report_field fields[] = {
            {"obstacles", count, true, NULL},
            {"workers", workers, true, NULL},
            {"budget_us", budget_us, true, NULL},
            {"add_calls", add.calls, true, NULL},
            {"add_total_ms", add.total_ms, false, NULL},
            {"add_max_call_us", add.max_call_us, false, NULL},
            {"remove_calls", remove.calls, true, NULL},
            {"remove_total_ms", remove.total_ms, false, NULL},
            {"remove_max_call_us", remove.max_call_us, false, NULL},
            {"per_layer_rebuild_us_mean", layer_mean, false, NULL},
            {"per_layer_rebuild_us_p95", layer_p95, false, NULL},
            {"layers_rebuilt", add.layers_rebuilt + remove.layers_rebuilt, true, NULL},
        };
        print_report(fields, sizeof fields / sizeof fields[0], true);
    }
    wf_mesh_destroy(mesh); // before its cache: updated tiles live in the cache
    wf_tilecache_destroy(tc);
    wf_thread_pool_destroy(pool);
    free(ids);
    free(descs);
    free(file);
    return rc;
}
