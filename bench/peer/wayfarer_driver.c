// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Wayfarer's half of the side-by-side comparison with recastnavigation
// (bench/peer_compare.sh; bench/peer/detour_driver.cpp is the other half and
// takes the same commands and files). One command per run, one JSON line
// out, so the script can interleave the two sides:
//
//   points OBJ COUNT SEED OUT       COUNT random points of our navmesh
//   filter OBJ IN OUT [NODES]       keep the pairs (6 numbers a line) whose
//                                   ends snap to polygons and whose path is
//                                   complete
//   paths OBJ PAIRS ROUNDS [NODES]  find_path + find_straight_path per pair
//                                   (WF_PEER_DUMP=FILE: the first round's
//                                   corridors and corners into FILE)
//   tiles OBJ PASSES                whole cache build; each layer's tile
//                                   built once per pass, without commit
//   obstacles OBJ POINTS WORKERS RUNS
//                                   50 cylinders (r 1, h 2) at the first 50
//                                   points: add all, update with no budget
//                                   until up to date; then remove them
//   crowd OBJ POINTS AGENTS FRAMES WORKERS
//                                   agents start at points[i] and walk to
//                                   points[AGENTS + i]; each arrival or block
//                                   takes the next point; crowd memory at
//                                   our defaults and at Detour's capacities
//   scene OBJ POINTS AGENTS FRAMES PRESET OUT
//                                   agents start at points[i] and walk to
//                                   points[AGENTS + i] and nothing else
//                                   (kept on it when BLOCKED: the crowd's
//                                   own retry), PRESET high or ultra; OUT
//                                   gets "i length frame" a line: the
//                                   shortest straight path (-1: none
//                                   complete) and the first frame within
//                                   0.6 m of the target (-1: never)
//   selftest                        the above on nav_test at small sizes
//                                   (bench-smoke; 77 without the test data)
#define _POSIX_C_SOURCE 200809L
#ifdef __linux__
#define _GNU_SOURCE // RUSAGE_THREAD
#include <sys/resource.h>
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../bench_util.h"
#include "wayfarer/crowd.h"
#include "wayfarer/jobs.h"
#include "wayfarer/query.h"
#include "wayfarer/rng.h"
#include "wayfarer/tilecache.h"

/// Detour's demo settings for the snap box and the corridor and corner buffers.
#define HALF_X 2.0f
#define HALF_Y 4.0f
#define MAX_PATH 256u
#define MAX_CORNERS 256u
#define MAX_ROUNDS 64
#define OBSTACLES 50u
#define DT (1.0f / 30.0f)
#define WARMUP_FRAMES 30u

/// Wall time, or with WF_PEER_CLOCK=cpu this thread's CPU time: on a
/// loaded machine the CPU time leaves out the time the thread waited for a
/// core (single-thread figures only; bench/peer_compare.sh --clock cpu).
static double clock_now(void) {
    static int cpu = -1;
    if (cpu < 0) {
        const char* c = getenv("WF_PEER_CLOCK");
        cpu = c != NULL && strcmp(c, "cpu") == 0;
    }
    if (!cpu) {
        return bench_now_seconds();
    }
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct level {
    wf_tilecache* tc;
    wf_mesh* mesh;
    wf_query* q;
} level;

static wf_status level_make(const char* obj, wf_job_system jobs, uint32_t nodes, level* lv) {
    memset(lv, 0, sizeof *lv);
    size_t size = 0;
    char* text = bench_read_file(obj, &size);
    if (text == NULL) {
        fprintf(stderr, "%s: cannot read\n", obj);
        return WF_ERR_NOT_FOUND;
    }
    wf_geom_data* geom = NULL;
    wf_status s = wf_geom_load_obj(text, size, &(wf_geom_load_desc){0}, &geom);
    free(text);
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = wf_tilecache_params_recast_demo();
    d.jobs = jobs;
    d.max_obstacles = OBSTACLES;
    d.max_pending_requests = OBSTACLES;
    d.logger.quiet = true;
    // WF_PEER_SLOTS=N: builds in flight (default 2 per worker), to see
    // whether the window's depth limits how rebuilds scale.
    const char* slots = getenv("WF_PEER_SLOTS");
    d.max_builds_in_flight = slots != NULL ? (uint32_t)atoi(slots) : 0u;
    if (s == WF_OK) {
        s = wf_tilecache_create(&d, &lv->tc);
    }
    if (s == WF_OK) {
        s = wf_tilecache_build_geom(lv->tc, wf_geom_data_view(geom), NULL, 0);
    }
    wf_geom_data_destroy(geom);
    wf_mesh_desc md;
    if (s == WF_OK) {
        md = wf_tilecache_mesh_desc(lv->tc);
        s = wf_mesh_create(&md, &lv->mesh);
    }
    if (s == WF_OK) {
        s = wf_tilecache_build_navmesh(lv->tc, lv->mesh);
        s = wf_succeeded(s) ? WF_OK : s;
    }
    if (s == WF_OK) {
        wf_query_desc qd = {.mesh = lv->mesh, .max_nodes = nodes};
        s = wf_query_create(&qd, &lv->q);
    }
    return s;
}

static void level_free(level* lv) {
    wf_query_destroy(lv->q);
    wf_mesh_destroy(lv->mesh); // before its cache: updated tiles live in the cache
    wf_tilecache_destroy(lv->tc);
}

/// Up to `max` points of `per_line` floats each from a text file; the count read.
static uint32_t read_floats(const char* path, float* out, uint32_t max_lines, int per_line) {
    FILE* f = fopen(path, "r");
    uint32_t n = 0;
    while (f != NULL && n < max_lines) {
        int got = 0;
        for (int k = 0; k < per_line; ++k) {
            got += fscanf(f, "%f", &out[(size_t)n * (size_t)per_line + (size_t)k]);
        }
        if (got != per_line) {
            break;
        }
        ++n;
    }
    if (f != NULL) {
        fclose(f);
    }
    return n;
}

static uint32_t count_lines(const char* path) {
    FILE* f = fopen(path, "r");
    uint32_t n = 0;
    int last = '\n';
    for (int c; f != NULL && (c = fgetc(f)) != EOF; last = c) {
        n += c == '\n';
    }
    n += last != '\n'; // a last line without its newline
    if (f != NULL) {
        fclose(f);
    }
    return n;
}

static int cmd_points(const char* obj, uint32_t count, uint32_t seed, const char* out_path) {
    level lv;
    wf_job_system inline_jobs = {0};
    if (level_make(obj, inline_jobs, 0, &lv) != WF_OK) {
        level_free(&lv);
        return 1;
    }
    FILE* out = fopen(out_path, "w");
    wf_rng rng = wf_rng_make(seed, 1);
    const wf_query_filter filter = wf_query_filter_defaults();
    int failed = out == NULL;
    for (uint32_t i = 0; i < count && !failed; ++i) {
        wf_poly_ref ref;
        wf_vec3 p;
        failed = wf_query_find_random_point(lv.q, &filter, &rng, &ref, &p) != WF_OK;
        fprintf(out, "%.9g %.9g %.9g\n", (double)p.x, (double)p.y, (double)p.z);
    }
    if (out != NULL) {
        fclose(out);
    }
    level_free(&lv);
    printf("{\"side\":\"wayfarer\",\"cmd\":\"points\",\"count\":%u}\n", count);
    return failed;
}

/// Both ends snapped; the corridor (up to `cap` polygons) and whether it
/// is complete.
static int snap_and_search(level* lv, const float* pair, wf_poly_ref* refs, wf_vec3* pts,
                           wf_poly_ref* path, uint32_t cap, wf_path_result* res) {
    const wf_query_filter filter = wf_query_filter_defaults();
    const wf_vec3 half = {HALF_X, HALF_Y, HALF_X};
    for (int k = 0; k < 2; ++k) {
        wf_vec3 c = {pair[3 * k], pair[3 * k + 1], pair[3 * k + 2]};
        if (wf_query_find_nearest_poly(lv->q, c, half, &filter, &refs[k], &pts[k]) != WF_OK) {
            return 0;
        }
    }
    wf_status s =
        wf_query_find_path(lv->q, refs[0], refs[1], pts[0], pts[1], &filter, path, cap, res);
    return s == WF_OK && res->count > 0 && path[res->count - 1].bits == refs[1].bits;
}

static int cmd_filter(const char* obj, const char* in_path, const char* out_path, uint32_t nodes) {
    level lv;
    wf_job_system inline_jobs = {0};
    uint32_t n = count_lines(in_path);
    float* pairs = malloc(sizeof(float) * 6u * (n + 1u));
    if (pairs == NULL || level_make(obj, inline_jobs, nodes, &lv) != WF_OK) {
        free(pairs);
        return 1;
    }
    n = read_floats(in_path, pairs, n, 6);
    FILE* out = fopen(out_path, "w");
    uint32_t kept = 0;
    wf_poly_ref path[MAX_PATH], refs[2];
    wf_vec3 pts[2];
    wf_path_result res;
    for (uint32_t i = 0; i < n && out != NULL; ++i) {
        const float* p = &pairs[6u * i];
        if (snap_and_search(&lv, p, refs, pts, path, MAX_PATH, &res)) {
            fprintf(out, "%.9g %.9g %.9g %.9g %.9g %.9g\n", (double)p[0], (double)p[1],
                    (double)p[2], (double)p[3], (double)p[4], (double)p[5]);
            ++kept;
        }
    }
    if (out != NULL) {
        fclose(out);
    }
    printf("{\"side\":\"wayfarer\",\"cmd\":\"filter\",\"in\":%u,\"kept\":%u}\n", n, kept);
    level_free(&lv);
    free(pairs);
    return out == NULL;
}

static int cmd_paths(const char* obj, const char* pairs_path, int rounds, uint32_t nodes) {
    level lv;
    wf_job_system inline_jobs = {0};
    uint32_t n = count_lines(pairs_path);
    float* pairs = malloc(sizeof(float) * 6u * (n + 1u));
    wf_poly_ref* refs = malloc(sizeof(wf_poly_ref) * 2u * (n + 1u));
    wf_vec3* pts = malloc(sizeof(wf_vec3) * 2u * (n + 1u));
    if (pairs == NULL || refs == NULL || pts == NULL ||
        level_make(obj, inline_jobs, nodes, &lv) != WF_OK) {
        free(pairs);
        free(refs);
        free(pts);
        return 1;
    }
    n = read_floats(pairs_path, pairs, n, 6);
    wf_poly_ref path[MAX_PATH];
    wf_path_result res;
    wf_straight_point corners[MAX_CORNERS];
    uint32_t incomplete = 0;
    // Snapping is not timed (Detour's side snaps outside its timer too).
    for (uint32_t i = 0; i < n; ++i) {
        incomplete += !snap_and_search(&lv, &pairs[6u * i], &refs[2u * i], &pts[2u * i], path,
                                       MAX_PATH, &res);
    }
    const wf_query_filter filter = wf_query_filter_defaults();
    double us[MAX_ROUNDS];
    double corridor = 0.0, corner_sum = 0.0;
    rounds = rounds < 1 ? 1 : rounds > MAX_ROUNDS ? MAX_ROUNDS : rounds;
    int failed = 0;
    // WF_PEER_DUMP=FILE: the first round's corridors and corners, exactly
    // (hex floats), to check that a change leaves every path as it was.
    const char* dump_path = getenv("WF_PEER_DUMP");
    FILE* dump = dump_path != NULL ? fopen(dump_path, "w") : NULL;
    for (int r = 0; r < rounds; ++r) {
        double t0 = clock_now();
        for (uint32_t i = 0; i < n; ++i) {
            wf_status s = wf_query_find_path(lv.q, refs[2u * i], refs[2u * i + 1u], pts[2u * i],
                                             pts[2u * i + 1u], &filter, path, MAX_PATH, &res);
            uint32_t count = 0;
            wf_status s2 = wf_query_find_straight_path(lv.q, pts[2u * i], pts[2u * i + 1u], path,
                                                       res.count, corners, MAX_CORNERS, 0, &count);
            failed |= !wf_succeeded(s) || !wf_succeeded(s2);
            if (r == 0) {
                corridor += res.count;
                corner_sum += count;
            }
            if (r == 0 && dump != NULL) {
                fprintf(dump, "%u %d %u %a:", i, (int)s, res.count, (double)res.cost);
                for (uint32_t k = 0; k < res.count; ++k) {
                    fprintf(dump, " %llx", (unsigned long long)wf_poly_ref_to_u64(path[k]));
                }
                fprintf(dump, " |");
                for (uint32_t k = 0; k < count; ++k) {
                    fprintf(dump, " %a,%a,%a/%x/%llx", (double)corners[k].pos.x,
                            (double)corners[k].pos.y, (double)corners[k].pos.z, corners[k].flags,
                            (unsigned long long)wf_poly_ref_to_u64(corners[k].ref));
                }
                fprintf(dump, "\n");
            }
        }
        us[r] = (clock_now() - t0) * 1e6 / (n > 0 ? n : 1);
    }
    if (dump != NULL) {
        fclose(dump);
    }
    double best = us[0];
    printf("{\"side\":\"wayfarer\",\"cmd\":\"paths\",\"pairs\":%u,\"incomplete\":%u,"
           "\"corridor_mean\":%.2f,\"corners_mean\":%.2f,\"us_rounds\":[",
           n, incomplete, corridor / (n > 0 ? n : 1), corner_sum / (n > 0 ? n : 1));
    for (int r = 0; r < rounds; ++r) {
        best = us[r] < best ? us[r] : best;
        printf("%s%.4f", r ? "," : "", us[r]);
    }
    printf("],\"us_best\":%.4f,\"us_median\":%.4f}\n", best, bench_median(us, (size_t)rounds));
    level_free(&lv);
    free(pairs);
    free(refs);
    free(pts);
    return failed;
}

static int cmd_tiles(const char* obj, int passes) {
    passes = passes < 1 ? 1 : passes > MAX_ROUNDS ? MAX_ROUNDS : passes;
    size_t size = 0;
    char* text = bench_read_file(obj, &size);
    wf_geom_data* geom = NULL;
    if (text == NULL || wf_geom_load_obj(text, size, &(wf_geom_load_desc){0}, &geom) != WF_OK) {
        free(text);
        return 1;
    }
    free(text);
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = wf_tilecache_params_recast_demo();
    d.logger.quiet = true;
    wf_tilecache* tc = NULL;
    double build_ms[MAX_ROUNDS];
    int failed = wf_tilecache_create(&d, &tc) != WF_OK;
    for (int r = 0; r < passes && !failed; ++r) {
        double t0 = clock_now();
        failed = wf_tilecache_build_geom(tc, wf_geom_data_view(geom), NULL, 0) != WF_OK;
        build_ms[r] = (clock_now() - t0) * 1e3;
    }
    wf_geom_data_destroy(geom);
    uint32_t layers = failed ? 0 : wf_tilecache_layer_count(tc);
    double* samples = malloc(sizeof(double) * (size_t)passes * (layers + 1u));
    double* per_layer = malloc(sizeof(double) * (layers + 1u));
    size_t capacity = (size_t)1 << 20;
    void* buffer = aligned_alloc(16, capacity);
    failed |= samples == NULL || per_layer == NULL || buffer == NULL;
    // One pass builds every layer once, one after the other (as an update
    // does), so each build finds its layer's data cold.
    for (int r = 0; r < passes && !failed; ++r) {
        for (uint32_t i = 0; i < layers; ++i) {
            size_t out_size = 0;
            double t0 = clock_now();
            wf_status s = wf_tilecache_build_tile(tc, i, buffer, capacity, &out_size);
            samples[(size_t)i * (size_t)passes + (size_t)r] = (clock_now() - t0) * 1e6;
            failed |= s != WF_OK && s != WF_ERR_NOT_FOUND;
        }
    }
    double mean = 0.0, p95 = 0.0, pass_mean_min = 1e30;
    for (int r = 0; r < passes && !failed; ++r) {
        double m = 0.0;
        for (uint32_t i = 0; i < layers; ++i) {
            m += samples[(size_t)i * (size_t)passes + (size_t)r] / layers;
        }
        pass_mean_min = m < pass_mean_min ? m : pass_mean_min;
    }
    for (uint32_t i = 0; i < layers && !failed; ++i) {
        per_layer[i] = bench_median(&samples[(size_t)i * (size_t)passes], (size_t)passes);
        mean += per_layer[i] / layers;
    }
    if (!failed && layers > 0) {
        bench_sort(per_layer, layers);
        p95 = per_layer[(size_t)ceil(0.95 * layers) - 1u];
    }
    wf_tilecache_stats st = wf_tilecache_get_stats(tc);
    printf("{\"side\":\"wayfarer\",\"cmd\":\"tiles\",\"tiles\":%u,\"layers\":%u,"
           "\"compressed_bytes\":%llu,\"cache_build_ms_median\":%.3f,\"cache_build_ms_best\":%.3f,"
           "\"tile_us_mean\":%.3f,\"tile_us_p95\":%.3f,\"tile_us_best_pass_mean\":%.3f}\n",
           st.tile_count, layers, (unsigned long long)st.compressed_bytes,
           bench_median(build_ms, (size_t)passes),
           (bench_sort(build_ms, (size_t)passes), build_ms[0]), mean, p95, pass_mean_min);
    wf_tilecache_destroy(tc);
    free(samples);
    free(per_layer);
    free(buffer);
    return failed;
}

/// Closes a JSON line with how the pool's threads were used: its counters,
/// and (Linux) CPU time of the whole process and of the calling thread, so
/// a worker count that does not scale shows whether the pool's threads
/// worked, spun or slept.
static void print_pool_facts(wf_thread_pool* pool) {
    wf_thread_pool_stats st = wf_thread_pool_get_stats(pool);
    printf(",\"pool_enqueued\":%llu,\"pool_run_by_waiters\":%llu,\"pool_sleeps\":%llu",
           (unsigned long long)st.tasks_enqueued, (unsigned long long)st.tasks_run_by_waiters,
           (unsigned long long)st.sleeps);
#ifdef __linux__
    struct rusage all, caller;
    if (getrusage(RUSAGE_SELF, &all) == 0 && getrusage(RUSAGE_THREAD, &caller) == 0) {
#define WF_MS(tv) ((double)(tv).tv_sec * 1e3 + (double)(tv).tv_usec / 1e3)
        printf(",\"cpu_process_ms\":%.1f,\"cpu_caller_ms\":%.1f,\"switches_voluntary\":%ld,"
               "\"switches_forced\":%ld",
               WF_MS(all.ru_utime) + WF_MS(all.ru_stime),
               WF_MS(caller.ru_utime) + WF_MS(caller.ru_stime), all.ru_nvcsw, all.ru_nivcsw);
#undef WF_MS
    }
#endif
    printf("}\n");
}

/// Queues every add (or remove), then updates with no budget until up to
/// date; the calls and their summed time.
static int obstacle_phase(level* lv, const float* pts, wf_obstacle_id* ids, int removing,
                          uint32_t* calls, double* us, uint32_t* rebuilt) {
    for (uint32_t i = 0; i < OBSTACLES; ++i) {
        wf_status s;
        if (removing) {
            s = wf_tilecache_remove_obstacle(lv->tc, ids[i]);
        } else {
            wf_obstacle_desc od;
            memset(&od, 0, sizeof od);
            od.shape = WF_OBSTACLE_CYLINDER;
            od.position = (wf_vec3){pts[3u * i], pts[3u * i + 1u], pts[3u * i + 2u]};
            od.radius = 1.0f;
            od.height = 2.0f;
            s = wf_tilecache_add_obstacle(lv->tc, &od, &ids[i]);
        }
        if (s != WF_OK) {
            return 1;
        }
    }
    *calls = 0;
    *us = 0.0;
    *rebuilt = 0;
    const wf_tilecache_budget none = {0, 0};
    wf_tilecache_update_result res = {0};
    while (!res.up_to_date && *calls < 100000u) {
        double t0 = clock_now();
        if (wf_tilecache_update(lv->tc, lv->mesh, &none, &res) != WF_OK) {
            return 1;
        }
        *us += (clock_now() - t0) * 1e6;
        *rebuilt += res.layers_rebuilt;
        ++*calls;
    }
    return !res.up_to_date;
}

static int cmd_obstacles(const char* obj, const char* points_path, uint32_t workers, int runs) {
    float pts[3 * OBSTACLES];
    if (read_floats(points_path, pts, OBSTACLES, 3) != OBSTACLES) {
        fprintf(stderr, "%s: needs %u points\n", points_path, OBSTACLES);
        return 1;
    }
    runs = runs < 1 ? 1 : runs > MAX_ROUNDS ? MAX_ROUNDS : runs;
    wf_thread_pool* pool = NULL;
    wf_job_system jobs = {0};
    if (workers > 1) {
        wf_thread_pool_desc pd = {.thread_count = workers - 1u};
        if (wf_thread_pool_create(&pd, &pool) != WF_OK) {
            return 1;
        }
        jobs = wf_thread_pool_job_system(pool);
    }
    level lv;
    int failed = level_make(obj, jobs, 0, &lv) != WF_OK;
    wf_obstacle_id ids[OBSTACLES];
    double add_us[MAX_ROUNDS], remove_us[MAX_ROUNDS];
    uint32_t add_calls = 0, remove_calls = 0, add_layers = 0, remove_layers = 0;
    // One warm-up round (the layers' tile memory is made at first use).
    for (int r = -1; r < runs && !failed; ++r) {
        double a = 0.0, b = 0.0;
        failed = obstacle_phase(&lv, pts, ids, 0, &add_calls, &a, &add_layers) ||
                 obstacle_phase(&lv, pts, ids, 1, &remove_calls, &b, &remove_layers);
        if (r >= 0) {
            add_us[r] = a;
            remove_us[r] = b;
        }
    }
    if (!failed) {
        printf("{\"side\":\"wayfarer\",\"cmd\":\"obstacles\",\"workers\":%u,\"add_calls\":%u,"
               "\"add_layers\":%u,\"add_ms_median\":%.4f,\"remove_calls\":%u,"
               "\"remove_layers\":%u,\"remove_ms_median\":%.4f",
               workers, add_calls, add_layers, bench_median(add_us, (size_t)runs) / 1e3,
               remove_calls, remove_layers, bench_median(remove_us, (size_t)runs) / 1e3);
        print_pool_facts(pool);
    }
    level_free(&lv);
    wf_thread_pool_destroy(pool);
    return failed;
}

/// A quiet crowd of `agents` on the mesh, radius up to 0.6 m, our defaults else.
static wf_crowd_desc peer_crowd_desc(wf_mesh* mesh, uint32_t agents, wf_job_system jobs) {
    wf_crowd_desc cd;
    memset(&cd, 0, sizeof cd);
    cd.mesh = mesh;
    cd.max_agents = agents;
    cd.max_agent_radius = 0.6f;
    cd.jobs = jobs;
    cd.logger.quiet = true;
    return cd;
}

/// RecastDemo's crowd settings for an agent, with the given avoidance preset.
static wf_agent_params peer_agent_params(wf_avoidance_quality preset) {
    wf_agent_params p = wf_agent_params_defaults();
    p.radius = 0.6f;
    p.height = 2.0f;
    p.max_speed = 3.5f;
    p.max_acceleration = 8.0f;
    p.separation_weight = 2.0f;
    p.collision_query_range = p.radius * 12.0f;
    p.path_optimization_range = p.radius * 30.0f;
    p.update_flags = WF_AGENT_ALL;
    p.avoidance_preset = (uint8_t)preset;
    return p;
}

static int cmd_crowd(const char* obj, const char* points_path, uint32_t agents, uint32_t frames,
                     uint32_t workers) {
    uint32_t n = count_lines(points_path);
    float* pts = malloc(sizeof(float) * 3u * (n + 1u));
    double* ms = malloc(sizeof(double) * (frames + 1u));
    wf_agent_id* ids = malloc(sizeof(wf_agent_id) * (agents + 1u));
    if (pts == NULL || ms == NULL || ids == NULL ||
        (n = read_floats(points_path, pts, n, 3)) < 2u * agents + 1u) {
        fprintf(stderr, "crowd: needs %u points\n", 2u * agents + 1u);
        free(pts);
        free(ms);
        free(ids);
        return 1;
    }
    wf_thread_pool* pool = NULL;
    wf_job_system jobs = {0};
    if (workers > 1) {
        wf_thread_pool_desc pd = {.thread_count = workers - 1u};
        if (wf_thread_pool_create(&pd, &pool) != WF_OK) {
            return 1;
        }
        jobs = wf_thread_pool_job_system(pool);
    }
    wf_job_system inline_jobs = {0};
    level lv;
    int failed = level_make(obj, inline_jobs, 0, &lv) != WF_OK;
    wf_crowd_desc cd = peer_crowd_desc(lv.mesh, agents, jobs);
    wf_crowd* crowd = NULL;
    // Memory at Detour's capacities, spelled out: corridors of 256, 6
    // neighbours, 8 walls, and its path queue's one search of 4,096 nodes
    // (dtPathQueue runs one request at a time on one query).
    size_t same_caps_bytes = 0;
    wf_crowd_desc caps = cd;
    caps.max_corridor = 256;
    caps.max_neighbours = 6;
    caps.max_walls = 8;
    caps.max_searches = 1;
    caps.max_search_nodes = 4096;
    failed = failed || wf_crowd_create(&caps, &crowd) != WF_OK;
    if (!failed) {
        same_caps_bytes = wf_crowd_get_stats(crowd).memory_bytes;
        wf_crowd_destroy(crowd);
        crowd = NULL;
    }
    failed = failed || wf_crowd_create(&cd, &crowd) != WF_OK;
    // Detour's demo "high": adaptive 7 / 3 / 3.
    wf_agent_params p = peer_agent_params(WF_AVOIDANCE_ULTRA);
    uint32_t next = agents;
    for (uint32_t i = 0; i < agents && !failed; ++i) {
        wf_vec3 at = {pts[3u * i], pts[3u * i + 1u], pts[3u * i + 2u]};
        wf_vec3 to = {pts[3u * next], pts[3u * next + 1u], pts[3u * next + 2u]};
        next = next + 1u < n ? next + 1u : 0u;
        failed = wf_crowd_add_agent(crowd, at, &p, &ids[i]) != WF_OK ||
                 wf_crowd_request_move(crowd, ids[i], to, NULL, NULL) != WF_OK;
    }
    uint32_t arrivals = 0;
    // Thread time per phase summed over the workers (timed frames): with
    // more workers than one, a phase whose sum grows ran slower per thread.
    double phase_us[WF_CROWD_PHASE_COUNT] = {0};
    for (uint32_t f = 0; f < WARMUP_FRAMES + frames && !failed; ++f) {
        double t0 = clock_now();
        wf_crowd_profile prof;
        failed = wf_crowd_update(crowd, DT, &prof) != WF_OK;
        for (uint32_t ph = 0; ph < WF_CROWD_PHASE_COUNT && f >= WARMUP_FRAMES && !failed; ++ph) {
            phase_us[ph] += prof.phase_us[ph];
        }
        if (f >= WARMUP_FRAMES) {
            ms[f - WARMUP_FRAMES] = (clock_now() - t0) * 1e3;
        }
        uint32_t count;
        const wf_crowd_event* e = wf_crowd_events(crowd, &count);
        for (uint32_t k = 0; k < count && !failed; ++k) {
            bool arrived =
                e[k].kind == WF_CROWD_EVENT_ARRIVED || e[k].kind == WF_CROWD_EVENT_STOPPED_SHORT;
            if (arrived || e[k].kind == WF_CROWD_EVENT_BLOCKED) {
                arrivals += arrived && f >= WARMUP_FRAMES;
                wf_vec3 to = {pts[3u * next], pts[3u * next + 1u], pts[3u * next + 2u]};
                next = next + 1u < n ? next + 1u : 0u;
                wf_status s = wf_crowd_request_move(crowd, e[k].agent, to, NULL, NULL);
                failed = s != WF_OK && s != WF_ERR_CAPACITY;
            }
        }
    }
    if (!failed) {
        double sum = 0.0;
        for (uint32_t f = 0; f < frames; ++f) {
            sum += ms[f];
        }
        printf("{\"side\":\"wayfarer\",\"cmd\":\"crowd\",\"agents\":%u,\"workers\":%u,"
               "\"frames\":%u,\"us_per_agent_frame\":%.4f,\"arrivals\":%u,"
               "\"crowd_bytes\":%zu,\"bytes_per_agent\":%.1f,"
               "\"bytes_per_agent_same_caps\":%.1f",
               agents, workers, frames, sum / frames * 1e3 / agents, arrivals,
               wf_crowd_get_stats(crowd).memory_bytes,
               (double)wf_crowd_get_stats(crowd).memory_bytes / agents,
               (double)same_caps_bytes / agents);
        printf(",\"phase_thread_us_per_frame\":[");
        for (uint32_t ph = 0; ph < WF_CROWD_PHASE_COUNT; ++ph) {
            printf("%s%.1f", ph > 0 ? "," : "", phase_us[ph] / frames);
        }
        printf("]");
        print_pool_facts(pool);
    }
    wf_crowd_destroy(crowd);
    level_free(&lv);
    wf_thread_pool_destroy(pool);
    free(pts);
    free(ms);
    free(ids);
    return failed;
}

/// The first frame within the arrival radius (2D, one storey) of a target.
#define SCENE_ARRIVE_M 0.6f
#define SCENE_STOREY_M 2.0f

/// Polygons and corners a scene's path may take (the demo level is 120 m
/// across: far more than Detour's 256).
#define SCENE_PATH 4096u
#define SCENE_CORNERS 1024u

/// Straight path length from a to b on a complete corridor, or -1.
static float scene_length(level* lv, const float* a, const float* b, wf_poly_ref* path,
                          wf_straight_point* corners) {
    const float pair[6] = {a[0], a[1], a[2], b[0], b[1], b[2]};
    wf_poly_ref refs[2];
    wf_vec3 pts[2];
    wf_path_result res;
    uint32_t n = 0;
    if (!snap_and_search(lv, pair, refs, pts, path, SCENE_PATH, &res) ||
        wf_query_find_straight_path(lv->q, pts[0], pts[1], path, res.count, corners, SCENE_CORNERS,
                                    0, &n) != WF_OK) {
        return -1.0f;
    }
    float length = 0.0f;
    for (uint32_t k = 1; k < n; ++k) {
        length += wf_v3_distance(corners[k].pos, corners[k - 1].pos);
    }
    return length;
}

/// Deepest overlap and pairs deeper than 0.1 m among agents on one storey.
static void scene_overlaps(const wf_vec3* at, uint32_t n, float radius, float* worst,
                           uint32_t* deep) {
    for (uint32_t i = 0; i < n; ++i) {
        for (uint32_t j = i + 1u; j < n; ++j) {
            float dx = at[i].x - at[j].x, dz = at[i].z - at[j].z;
            if (fabsf(at[i].y - at[j].y) >= SCENE_STOREY_M ||
                dx * dx + dz * dz >= 4.0f * radius * radius) {
                continue;
            }
            float depth = 2.0f * radius - sqrtf(dx * dx + dz * dz);
            *worst = depth > *worst ? depth : *worst;
            *deep += depth > 0.1f;
        }
    }
}

static int cmd_scene(const char* obj, const char* points_path, uint32_t agents, uint32_t frames,
                     const char* preset, const char* out_path) {
    if (strcmp(preset, "high") != 0 && strcmp(preset, "ultra") != 0) {
        fprintf(stderr, "scene: preset %s: high or ultra\n", preset);
        return 2;
    }
    if (agents == 0 || agents > WF_CROWD_MAX_AGENTS) {
        fprintf(stderr, "scene: agents 1..%u\n", WF_CROWD_MAX_AGENTS);
        return 2;
    }
    uint32_t n = count_lines(points_path);
    float* pts = malloc(sizeof(float) * 3u * (n + 1u));
    wf_agent_id* ids = malloc(sizeof(wf_agent_id) * (agents + 1u));
    int32_t* arrived_at = malloc(sizeof(int32_t) * (agents + 1u));
    wf_vec3* at = malloc(sizeof(wf_vec3) * (agents + 1u));
    wf_poly_ref* path = malloc(sizeof(wf_poly_ref) * SCENE_PATH);
    wf_straight_point* corners = malloc(sizeof(wf_straight_point) * SCENE_CORNERS);
    wf_job_system inline_jobs = {0};
    level lv;
    memset(&lv, 0, sizeof lv); // level_free takes it as it is when the points fail
    char points_step[64];
    snprintf(points_step, sizeof points_step, "reading %u points", 2u * agents);
    const char* step = points_step; // what failed, when something did
    int failed = pts == NULL || ids == NULL || arrived_at == NULL || at == NULL || path == NULL ||
                 corners == NULL || read_floats(points_path, pts, n, 3) < 2u * agents;
    step = failed ? step : "the level";
    failed = failed || level_make(obj, inline_jobs, 0, &lv) != WF_OK;
    wf_crowd_desc cd = peer_crowd_desc(lv.mesh, agents, inline_jobs);
    wf_crowd* crowd = NULL;
    step = failed ? step : "the crowd";
    failed = failed || wf_crowd_create(&cd, &crowd) != WF_OK;
    wf_agent_params p =
        peer_agent_params(strcmp(preset, "ultra") == 0 ? WF_AVOIDANCE_ULTRA : WF_AVOIDANCE_HIGH);
    step = failed ? step : "placing an agent and its target";
    for (uint32_t i = 0; i < agents && !failed; ++i) {
        wf_vec3 from = {pts[3u * i], pts[3u * i + 1u], pts[3u * i + 2u]};
        const float* t = &pts[3u * (agents + i)];
        wf_vec3 to = {t[0], t[1], t[2]};
        failed = wf_crowd_add_agent(crowd, from, &p, &ids[i]) != WF_OK ||
                 wf_crowd_request_move(crowd, ids[i], to, NULL, NULL) != WF_OK;
        arrived_at[i] = -1;
    }
    float worst = 0.0f;
    uint32_t deep = 0, arrived = 0;
    step = failed ? step : "an update";
    for (uint32_t f = 1; f <= frames && !failed; ++f) {
        failed = wf_crowd_update(crowd, DT, NULL) != WF_OK;
        for (uint32_t i = 0; i < agents && !failed; ++i) {
            wf_agent_state st;
            failed = wf_crowd_get_agent(crowd, ids[i], &st) != WF_OK;
            at[i] = st.position;
            const float* t = &pts[3u * (agents + i)];
            float dx = st.position.x - t[0], dz = st.position.z - t[2];
            if (arrived_at[i] < 0 && fabsf(st.position.y - t[1]) < SCENE_STOREY_M &&
                dx * dx + dz * dz <= SCENE_ARRIVE_M * SCENE_ARRIVE_M) {
                arrived_at[i] = (int32_t)f;
                ++arrived;
            }
        }
        if ((float)f * DT > 2.0f) {
            scene_overlaps(at, agents, p.radius, &worst, &deep);
        }
    }
    step = failed ? step : out_path;
    FILE* out = failed ? NULL : fopen(out_path, "w");
    for (uint32_t i = 0; i < agents && out != NULL; ++i) {
        float length = scene_length(&lv, &pts[3u * i], &pts[3u * (agents + i)], path, corners);
        fprintf(out, "%u %.3f %d\n", i, (double)length, arrived_at[i]);
    }
    failed = failed || out == NULL;
    if (out != NULL) {
        fclose(out);
    }
    if (!failed) {
        printf("{\"side\":\"wayfarer\",\"cmd\":\"scene\",\"agents\":%u,\"frames\":%u,"
               "\"preset\":\"%s\",\"arrived\":%u,\"worst_overlap_after_2s\":%.3f,"
               "\"pair_frames_over_0.1_after_2s\":%u}\n",
               agents, frames, preset, arrived, (double)worst, deep);
    } else {
        fprintf(stderr, "scene: %s failed\n", step);
    }
    wf_crowd_destroy(crowd);
    level_free(&lv);
    free(pts);
    free(ids);
    free(arrived_at);
    free(at);
    free(path);
    free(corners);
    return failed;
}

/// Every command once at small sizes on nav_test, files in the temp folder.
static int selftest(void) {
    const char* dir = getenv("WF_TESTDATA_DIR");
    char obj[1024], pts[1024], pairs[1024], kept[1024], scene[1024];
    snprintf(obj, sizeof obj, "%s/recast/meshes/nav_test.obj",
             dir != NULL ? dir : "../shared/testdata");
    FILE* f = fopen(obj, "r");
    if (f == NULL) {
        printf("# %s not found: skipped\n", obj);
        return 77;
    }
    fclose(f);
    const char* tmp = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
    snprintf(pts, sizeof pts, "%s/wf_peer_selftest_points.txt", tmp);
    snprintf(pairs, sizeof pairs, "%s/wf_peer_selftest_pairs.txt", tmp);
    snprintf(kept, sizeof kept, "%s/wf_peer_selftest_kept.txt", tmp);
    snprintf(scene, sizeof scene, "%s/wf_peer_selftest_scene.txt", tmp);
    int rc = cmd_points(obj, 64, 1, pts);
    // Consecutive points as pairs: 6 numbers a line.
    float v[3 * 64];
    FILE* out = fopen(pairs, "w");
    rc |= out == NULL || read_floats(pts, v, 64, 3) != 64;
    for (uint32_t i = 0; out != NULL && i < 32; ++i) {
        fprintf(out, "%.9g %.9g %.9g %.9g %.9g %.9g\n", (double)v[6 * i], (double)v[6 * i + 1],
                (double)v[6 * i + 2], (double)v[6 * i + 3], (double)v[6 * i + 4],
                (double)v[6 * i + 5]);
    }
    if (out != NULL) {
        fclose(out);
    }
    rc = rc || cmd_filter(obj, pairs, kept, 0) || cmd_paths(obj, kept, 2, 0) || cmd_tiles(obj, 1) ||
         cmd_obstacles(obj, pts, 2, 1) || cmd_crowd(obj, pts, 20, 10, 1) ||
         cmd_scene(obj, pts, 20, 60, "high", scene);
    remove(pts);
    remove(scene);
    remove(pairs);
    remove(kept);
    return rc;
}

static int usage(void) {
    fprintf(stderr, "usage: see the comment at the top of bench/peer/wayfarer_driver.c\n");
    return 2;
}

int main(int argc, char** argv) {
    const char* cmd = argc > 1 ? argv[1] : "";
    if (strcmp(cmd, "selftest") == 0) {
        return selftest();
    }
    if (strcmp(cmd, "points") == 0 && argc == 6) {
        return cmd_points(argv[2], (uint32_t)atoi(argv[3]), (uint32_t)atoi(argv[4]), argv[5]);
    }
    if (strcmp(cmd, "filter") == 0 && (argc == 5 || argc == 6)) {
        return cmd_filter(argv[2], argv[3], argv[4], argc == 6 ? (uint32_t)atoi(argv[5]) : 0u);
    }
    if (strcmp(cmd, "paths") == 0 && (argc == 5 || argc == 6)) {
        return cmd_paths(argv[2], argv[3], atoi(argv[4]), argc == 6 ? (uint32_t)atoi(argv[5]) : 0u);
    }
    if (strcmp(cmd, "tiles") == 0 && argc == 4) {
        return cmd_tiles(argv[2], atoi(argv[3]));
    }
    if (strcmp(cmd, "obstacles") == 0 && argc == 6) {
        return cmd_obstacles(argv[2], argv[3], (uint32_t)atoi(argv[4]), atoi(argv[5]));
    }
    if (strcmp(cmd, "crowd") == 0 && argc == 7) {
        return cmd_crowd(argv[2], argv[3], (uint32_t)atoi(argv[4]), (uint32_t)atoi(argv[5]),
                         (uint32_t)atoi(argv[6]));
    }
    if (strcmp(cmd, "scene") == 0 && argc == 8) {
        return cmd_scene(argv[2], argv[3], (uint32_t)atoi(argv[4]), (uint32_t)atoi(argv[5]),
                         argv[6], argv[7]);
    }
    return usage();
}
