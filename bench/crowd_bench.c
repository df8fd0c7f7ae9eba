// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The crowd on a scenario set up as Detour's, so the figures compare:
// nav_test with the Recast demo settings, agents of radius 0.6 at 3.5 m/s
// (accel 8) with Detour's "high" avoidance (adaptive 7 divisions, 3 rings,
// 3 passes = our ULTRA preset),
// every optimization on, random targets (a new one on each arrival or
// blocked event); 1000 and 2000 agents on 1 and 2 workers. Then 10,000
// agents on a large generated city grid on 2 workers. Prints CSV; --smoke
// runs a small generated level briefly.
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "wayfarer/crowd.h"
#include "wayfarer/jobs.h"
#include "wayfarer/query.h"
#include "wayfarer/rng.h"
#include "wayfarer/tilecache.h"

#define DT (1.0f / 30.0f)
#define WARMUP_FRAMES 30
#define SEED 2026u

typedef struct level {
    wf_tilecache* tc;
    wf_mesh* mesh;
    float radius, height;
} level;

static int level_from_obj(const char* path, level* out) {
    size_t size = 0;
    char* text = bench_read_file(path, &size);
    if (text == NULL) {
        printf("# %s not found: skipped\n", path);
        return 1;
    }
    wf_geom_data* geom = NULL;
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = wf_tilecache_params_recast_demo();
    d.logger.quiet = true;
    wf_status s = wf_geom_load_obj(text, size, &(wf_geom_load_desc){0}, &geom);
    free(text);
    if (s == WF_OK) {
        s = wf_tilecache_create(&d, &out->tc);
    }
    if (s == WF_OK) {
        s = wf_tilecache_build_geom(out->tc, wf_geom_data_view(geom), NULL, 0);
    }
    wf_geom_data_destroy(geom);
    return s != WF_OK;
}

/// A city of side x side metres: blocks of 24 m with 6 m streets, every
/// block open on one side (courtyards), cells of 0.5 m.
static int level_city(uint32_t side, level* out) {
    const float cell = 0.5f;
    uint32_t n = (uint32_t)((float)side / cell);
    uint8_t* walkable = malloc((size_t)n * n);
    if (walkable == NULL) {
        return 1;
    }
    for (uint32_t z = 0; z < n; ++z) {
        for (uint32_t x = 0; x < n; ++x) {
            uint32_t bx = (x * 2u) % 60u, bz = (z * 2u) % 60u; // metres within a 30 m period
            bool wall = (bx >= 6u && bz >= 6u) && (bx == 6u || bz == 6u || bx == 29u || bz == 29u);
            bool gate = bz >= 15u && bz <= 20u; // an opening in the west and east walls
            walkable[(size_t)z * n + x] = !(wall && !(gate && (bx == 6u || bx == 29u)));
        }
    }
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = wf_tilecache_params_recast_demo();
    d.params.cell_size = cell;
    d.params.tile_size = 64;
    d.logger.quiet = true;
    wf_grid grid;
    memset(&grid, 0, sizeof grid);
    grid.width = grid.depth = n;
    grid.cell_size = cell;
    grid.walkable = walkable;
    wf_status s = wf_tilecache_create(&d, &out->tc);
    if (s == WF_OK) {
        s = wf_tilecache_build_grid(out->tc, grid);
    }
    free(walkable);
    return s != WF_OK;
}

static int level_finish(level* lv) {
    wf_mesh_desc md = wf_tilecache_mesh_desc(lv->tc);
    if (wf_mesh_create(&md, &lv->mesh) != WF_OK ||
        !wf_succeeded(wf_tilecache_build_navmesh(lv->tc, lv->mesh))) {
        return 1;
    }
    lv->radius = wf_tilecache_get_params(lv->tc)->agent_radius;
    lv->height = wf_tilecache_get_params(lv->tc)->agent_height;
    return 0;
}

static void level_destroy(level* lv) {
    wf_mesh_destroy(lv->mesh);
    wf_tilecache_destroy(lv->tc);
}

typedef struct run_result {
    double us_per_agent; ///< mean frame time / agents
    double frame_ms_mean, frame_ms_p95;
    double wait_mean_s, wait_max_s;
    uint32_t arrivals, paths;
    uint64_t state_hash;
    /// Timed frames, µs: each phase's thread time summed over the workers,
    /// and the updates' own wall time (where a worker count loses time).
    double phase_us[WF_CROWD_PHASE_COUNT];
    double update_us;
} run_result;

typedef struct waits {
    double sum, max;
    uint32_t count;
} waits;

static bool on_result(wf_agent_id agent, const wf_path_info* info, void* user) {
    (void)agent;
    waits* w = user;
    w->sum += info->wait;
    w->max = info->wait > w->max ? info->wait : w->max;
    w->count++;
    return true;
}

/// Obstacles agents only avoid, for --movers: each rolls straight at 1.5 m/s
/// between random navmesh points, set on the crowd every frame.
#define BENCH_MAX_MOVERS 64u
typedef struct bench_movers {
    uint32_t count;
    wf_mover_id id[BENCH_MAX_MOVERS];
    wf_vec3 pos[BENCH_MAX_MOVERS], goal[BENCH_MAX_MOVERS];
} bench_movers;

static int movers_step(bench_movers* m, wf_crowd* crowd, wf_query* q, const wf_query_filter* filter,
                       wf_rng* rng) {
    int rc = 0;
    for (uint32_t k = 0; k < m->count && rc == 0; ++k) {
        wf_vec3 d = wf_v3_sub(m->goal[k], m->pos[k]);
        float len = wf_v3_length(d);
        wf_poly_ref ref;
        if (len < 0.5f) {
            rc = wf_query_find_random_point(q, filter, rng, &ref, &m->goal[k]) != WF_OK;
            continue;
        }
        wf_vec3 vel = wf_v3_scale(d, 1.5f / len);
        m->pos[k] = wf_v3_mad(m->pos[k], vel, DT);
        rc = wf_crowd_set_mover(crowd, m->id[k], m->pos[k], vel) != WF_OK;
    }
    return rc;
}

static int run(const level* lv, uint32_t agents, uint32_t workers, uint32_t frames, uint32_t movers,
               run_result* out) {
    memset(out, 0, sizeof *out);
    wf_thread_pool* pool = NULL;
    wf_job_system jobs;
    memset(&jobs, 0, sizeof jobs);
    if (workers > 1) {
        wf_thread_pool_desc pd = {.thread_count = workers - 1u};
        if (wf_thread_pool_create(&pd, &pool) != WF_OK) {
            return 1;
        }
        jobs = wf_thread_pool_job_system(pool);
    }
    wf_crowd_desc cd;
    memset(&cd, 0, sizeof cd);
    cd.mesh = lv->mesh;
    cd.max_agents = agents;
    cd.max_agent_radius = lv->radius;
    cd.jobs = jobs;
    cd.logger.quiet = true;
    cd.max_movers = BENCH_MAX_MOVERS;
    wf_crowd* crowd = NULL;
    wf_query* q = NULL;
    wf_query_desc qd = {.mesh = lv->mesh};
    double* ms = malloc(sizeof(double) * frames);
    wf_agent_id* ids = malloc(sizeof(wf_agent_id) * agents);
    int rc = ms == NULL || ids == NULL || wf_crowd_create(&cd, &crowd) != WF_OK ||
             wf_query_create(&qd, &q) != WF_OK;
    wf_agent_params p = wf_agent_params_defaults();
    p.radius = lv->radius;
    p.height = lv->height;
    p.collision_query_range = p.radius * 12.0f;
    p.path_optimization_range = p.radius * 30.0f;
    p.avoidance_preset = WF_AVOIDANCE_ULTRA;
    wf_rng rng = wf_rng_make(SEED, 7u);
    const wf_query_filter filter = wf_query_filter_defaults();
    waits w = {0};
    const wf_move_callbacks cb = {.result = on_result};
    bench_movers mv = {.count = movers < BENCH_MAX_MOVERS ? movers : BENCH_MAX_MOVERS};
    for (uint32_t k = 0; k < mv.count && rc == 0; ++k) {
        wf_poly_ref ref;
        wf_mover m = {.radius = 1.0f, .height = 2.0f};
        rc = wf_query_find_random_point(q, &filter, &rng, &ref, &mv.pos[k]) != WF_OK ||
             wf_query_find_random_point(q, &filter, &rng, &ref, &mv.goal[k]) != WF_OK;
        m.position = mv.pos[k];
        rc = rc || wf_crowd_add_mover(crowd, &m, &mv.id[k]) != WF_OK;
    }
    for (uint32_t i = 0; i < agents && rc == 0; ++i) {
        wf_poly_ref ref;
        wf_vec3 at, to;
        rc = wf_query_find_random_point(q, &filter, &rng, &ref, &at) != WF_OK ||
             wf_query_find_random_point(q, &filter, &rng, &ref, &to) != WF_OK ||
             wf_crowd_add_agent(crowd, at, &p, &ids[i]) != WF_OK ||
             wf_crowd_request_move(crowd, ids[i], to, &cb, &w) != WF_OK;
    }
    for (uint32_t f = 0; f < WARMUP_FRAMES + frames && rc == 0; ++f) {
        if (f == WARMUP_FRAMES) {
            out->arrivals = 0; // path waits count from the first request on
        }
        rc = movers_step(&mv, crowd, q, &filter, &rng);
        double t0 = bench_now_seconds();
        wf_crowd_profile prof;
        rc = rc || wf_crowd_update(crowd, DT, &prof) != WF_OK;
        if (f >= WARMUP_FRAMES) {
            ms[f - WARMUP_FRAMES] = (bench_now_seconds() - t0) * 1e3;
            for (uint32_t ph = 0; ph < WF_CROWD_PHASE_COUNT && rc == 0; ++ph) {
                out->phase_us[ph] += prof.phase_us[ph];
            }
            out->update_us += rc == 0 ? prof.total_us : 0.0;
        }
        uint32_t n;
        const wf_crowd_event* e = wf_crowd_events(crowd, &n);
        for (uint32_t k = 0; k < n && rc == 0; ++k) {
            bool arrived =
                e[k].kind == WF_CROWD_EVENT_ARRIVED || e[k].kind == WF_CROWD_EVENT_STOPPED_SHORT;
            if (arrived || e[k].kind == WF_CROWD_EVENT_BLOCKED) {
                out->arrivals += arrived;
                wf_poly_ref ref;
                wf_vec3 to;
                rc = wf_query_find_random_point(q, &filter, &rng, &ref, &to) != WF_OK;
                wf_status s = rc ? WF_OK : wf_crowd_request_move(crowd, e[k].agent, to, &cb, &w);
                rc |= s != WF_OK && s != WF_ERR_CAPACITY;
            }
        }
    }
    if (rc == 0) {
        double sum = 0.0;
        for (uint32_t f = 0; f < frames; ++f) {
            sum += ms[f];
        }
        out->frame_ms_mean = sum / frames;
        bench_sort(ms, frames);
        out->frame_ms_p95 = ms[(size_t)ceil(0.95 * frames) - 1u];
        out->us_per_agent = out->frame_ms_mean * 1e3 / agents;
        out->wait_mean_s = w.count > 0 ? w.sum / w.count : 0.0;
        out->wait_max_s = w.max;
        out->paths = w.count;
    }
    wf_query_destroy(q);
    wf_crowd_destroy(crowd);
    wf_thread_pool_destroy(pool);
    free(ms);
    free(ids);
    return rc;
}

static void print_row(const char* name, uint32_t agents, uint32_t workers, const run_result* r,
                      double base_us) {
    printf("%s,%u,%u,%.3f,%.3f,%.3f,%.2f,%.4f,%.4f,%u,%u\n", name, agents, workers, r->us_per_agent,
           r->frame_ms_mean, r->frame_ms_p95, base_us > 0.0 ? base_us / r->us_per_agent : 1.0,
           r->wait_mean_s, r->wait_max_s, r->arrivals, r->paths);
}

int main(int argc, char** argv) {
    bool smoke = argc > 1 && strcmp(argv[1], "--smoke") == 0;
    const char* dir = getenv("WF_TESTDATA_DIR");
    printf("level,agents,workers,us_per_agent_frame,frame_ms_mean,frame_ms_p95,speedup,"
           "path_wait_mean_s,path_wait_max_s,arrivals,paths\n");
    int rc = 0;
    if (smoke) {
        level lv = {0};
        rc = level_city(60, &lv) || level_finish(&lv);
        run_result r;
        rc = rc || run(&lv, 200, 2, 30, 4, &r);
        if (rc == 0) {
            print_row("city60", 200, 2, &r, 0.0);
        }
        level_destroy(&lv);
        return rc;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/recast/meshes/nav_test.obj", dir != NULL ? dir : "testdata");
    level nav = {0};
    if (argc > 5 && strcmp(argv[1], "--one") == 0) {
        // One row: --one nav_test|city360 AGENTS WORKERS FRAMES (for
        // callgrind: run with --toggle-collect=wf_crowd_update).
        bool city = strcmp(argv[2], "city360") == 0;
        uint32_t agents = (uint32_t)strtoul(argv[3], NULL, 10);
        uint32_t workers = (uint32_t)strtoul(argv[4], NULL, 10);
        uint32_t frames = (uint32_t)strtoul(argv[5], NULL, 10);
        rc = city ? level_city(360, &nav) : level_from_obj(path, &nav);
        rc = rc || level_finish(&nav);
        run_result r;
        rc = rc || agents == 0 || workers == 0 || frames == 0 ||
             run(&nav, agents, workers, frames, 0, &r);
        if (rc == 0) {
            print_row(argv[2], agents, workers, &r, 0.0);
            printf("# state: %u arrivals, %u paths, %u update calls\n", r.arrivals, r.paths,
                   WARMUP_FRAMES + frames);
            printf("# per frame, µs: update wall %.1f; thread time per phase:",
                   r.update_us / frames);
            for (uint32_t ph = 0; ph < WF_CROWD_PHASE_COUNT; ++ph) {
                printf(" %.1f", r.phase_us[ph] / frames);
            }
            printf("\n");
        }
        level_destroy(&nav);
        return rc;
    }
    if (argc > 2 && strcmp(argv[1], "--movers") == 0) {
        // nav_test, 1,000 agents, 1 worker: without movers and with N,
        // interleaved three times (the machine is shared).
        uint32_t n = (uint32_t)strtoul(argv[2], NULL, 10);
        rc = level_from_obj(path, &nav) || level_finish(&nav);
        for (int round = 0; round < 3 && rc == 0; ++round) {
            for (uint32_t with = 0; with < 2 && rc == 0; ++with) {
                run_result r;
                rc = run(&nav, 1000, 1, 300, with ? n : 0u, &r);
                if (rc == 0) {
                    char name[64];
                    snprintf(name, sizeof name, "nav_test+%umovers", with ? n : 0u);
                    print_row(name, 1000, 1, &r, 0.0);
                }
            }
        }
        level_destroy(&nav);
        return rc;
    }
    if (level_from_obj(path, &nav) == 0 && level_finish(&nav) == 0) {
        const uint32_t counts[2] = {1000, 2000};
        for (int k = 0; k < 2 && rc == 0; ++k) {
            run_result one, two;
            rc = run(&nav, counts[k], 1, 300, 0, &one) || run(&nav, counts[k], 2, 300, 0, &two);
            if (rc == 0) {
                print_row("nav_test", counts[k], 1, &one, 0.0);
                print_row("nav_test", counts[k], 2, &two, one.us_per_agent);
            }
        }
    }
    level_destroy(&nav);
    level city = {0};
    if (rc == 0 && level_city(360, &city) == 0 && level_finish(&city) == 0) {
        run_result one, two;
        rc = run(&city, 10000, 1, 60, 0, &one) || run(&city, 10000, 2, 120, 0, &two);
        if (rc == 0) {
            print_row("city360", 10000, 1, &one, 0.0);
            print_row("city360", 10000, 2, &two, one.us_per_agent);
        }
    }
    level_destroy(&city);
    return rc;
}
