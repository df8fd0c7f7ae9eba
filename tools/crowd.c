// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// `wayfarer crowd`: N agents with random targets on a cache file's navmesh
// for F frames (a new target on every arrival), with the crowd's figures
// as one JSON object.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/tool.h"
#include "wayfarer/crowd.h"
#include "wayfarer/query.h"
#include "wayfarer/rng.h"

#define FRAME_DT (1.0f / 30.0f)

typedef struct crowd_run {
    wf_crowd* crowd;
    wf_query* query;
    wf_rng rng;
    uint32_t arrivals;
    uint32_t results;
    double wait_sum;
    double wait_max;
    uint32_t partial;
} crowd_run;

static bool on_result(wf_agent_id agent, const wf_path_info* info, void* user) {
    (void)agent;
    crowd_run* r = user;
    r->results++;
    r->partial += info->partial;
    r->wait_sum += info->wait;
    r->wait_max = info->wait > r->wait_max ? info->wait : r->wait_max;
    return true;
}

static const wf_move_callbacks run_callbacks = {.result = on_result};

static int new_target(crowd_run* r, wf_agent_id id) {
    const wf_query_filter filter = wf_query_filter_defaults();
    wf_poly_ref ref;
    wf_vec3 p;
    if (wf_query_find_random_point(r->query, &filter, &r->rng, &ref, &p) != WF_OK) {
        return EXIT_INPUT;
    }
    wf_status s = wf_crowd_request_move(r->crowd, id, p, &run_callbacks, r);
    return s == WF_OK || s == WF_ERR_CAPACITY ? 0 : EXIT_CHECK;
}

static int compare_doubles(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

/// Smallest distance between two agents minus their radii (all pairs).
static double min_gap(const wf_crowd* c, const wf_agent_id* ids, uint32_t n) {
    double best = INFINITY;
    wf_agent_state* s = malloc(sizeof(wf_agent_state) * n);
    if (s == NULL) {
        return best;
    }
    for (uint32_t i = 0; i < n; ++i) {
        if (wf_crowd_get_agent(c, ids[i], &s[i]) != WF_OK) {
            s[i].mode = WF_AGENT_LOST;
        }
    }
    for (uint32_t i = 0; i < n; ++i) {
        for (uint32_t j = i + 1; j < n; ++j) {
            if (s[i].mode != WF_AGENT_WALKING || s[j].mode != WF_AGENT_WALKING ||
                fabsf(s[i].position.y - s[j].position.y) > s[i].params.height) {
                continue;
            }
            double dx = s[i].position.x - s[j].position.x, dz = s[i].position.z - s[j].position.z;
            double gap = sqrt(dx * dx + dz * dz) - s[i].params.radius - s[j].params.radius;
            best = gap < best ? gap : best;
        }
    }
    free(s);
    return best;
}

/// Agents not standing on the surface of their polygon (more than 1 cm
/// from it seen from above, or 0.5 m off its height; agents sliding along
/// a wall sit on the edge, a rounding error either side of it).
static uint32_t off_mesh(const wf_crowd* c, wf_query* q, const wf_agent_id* ids, uint32_t n) {
    uint32_t off = 0;
    for (uint32_t i = 0; i < n; ++i) {
        wf_agent_state s;
        wf_vec3 at;
        if (wf_crowd_get_agent(c, ids[i], &s) != WF_OK || s.mode == WF_AGENT_LOST ||
            (s.mode == WF_AGENT_WALKING &&
             (wf_query_closest_point_on_poly(q, s.poly, s.position, &at, NULL) != WF_OK ||
              fabsf(at.x - s.position.x) + fabsf(at.z - s.position.z) > 0.01f ||
              fabsf(at.y - s.position.y) > 0.5f))) {
            off++;
        }
    }
    return off;
}

int cmd_crowd(int argc, char** argv) {
    const char* path = NULL;
    const char* quality = "high";
    const char* class_name = NULL;
    uint32_t agents = 1000, frames = 300, seed = 1, workers = 1, separation_every = 10;
    for (int i = 1; i < argc; ++i) {
        uint32_t* number = strcmp(argv[i], "--agents") == 0      ? &agents
                           : strcmp(argv[i], "--frames") == 0    ? &frames
                           : strcmp(argv[i], "--seed") == 0      ? &seed
                           : strcmp(argv[i], "--workers") == 0   ? &workers
                           : strcmp(argv[i], "--gap-every") == 0 ? &separation_every
                                                                 : NULL;
        if (strcmp(argv[i], "--cache") == 0 && i + 1 < argc) {
            path = argv[++i];
        } else if (strcmp(argv[i], "--avoidance") == 0 && i + 1 < argc) {
            quality = argv[++i];
        } else if (strcmp(argv[i], "--class") == 0 && i + 1 < argc) {
            class_name = argv[++i];
        } else if (number != NULL && i + 1 < argc) {
            if (!parse_count(argv[++i], number)) {
                fprintf(stderr, "wayfarer crowd: %s %s: needs a whole number\n", argv[i - 1],
                        argv[i]);
                return usage_error("crowd");
            }
        } else if (argv[i][0] != '-' && path == NULL) {
            path = argv[i]; // `crowd LEVEL.wfc`, the same as --cache LEVEL.wfc
        } else if (argv[i][0] != '-') {
            fprintf(stderr, "wayfarer crowd: one cache file only (%s and %s)\n", path, argv[i]);
            return usage_error("crowd");
        } else if (number != NULL || strcmp(argv[i], "--cache") == 0 ||
                   strcmp(argv[i], "--avoidance") == 0 || strcmp(argv[i], "--class") == 0) {
            fprintf(stderr, "wayfarer crowd: %s needs a value\n", argv[i]);
            return usage_error("crowd");
        } else {
            fprintf(stderr, "wayfarer crowd: unknown option %s\n", argv[i]);
            return usage_error("crowd");
        }
    }
    static const char* qualities[4] = {"low", "medium", "high", "ultra"};
    uint32_t preset = 4;
    for (uint32_t q = 0; q < 4; ++q) {
        preset = strcmp(quality, qualities[q]) == 0 ? q : preset;
    }
    if (path == NULL) {
        fprintf(stderr, "wayfarer crowd: a cache file is required (crowd LEVEL.wfc, or "
                        "--cache LEVEL.wfc)\n");
        return usage_error("crowd");
    }
    if (preset == 4) {
        fprintf(stderr, "wayfarer crowd: --avoidance %s: low, medium, high or ultra\n", quality);
        return usage_error("crowd");
    }
    int rc = check_run_options("crowd", agents, frames, workers);
    if (rc != 0) {
        return rc;
    }
    char* data = NULL;
    size_t size = 0;
    rc = read_file(path, &data, &size);
    if (rc != 0) {
        return rc;
    }
    const char* cache = NULL;
    size_t cache_size = 0;
    rc = cache_pick_class("crowd", path, data, size, class_name, &cache, &cache_size);
    if (rc != 0) {
        free(data);
        return rc;
    }
    wf_thread_pool* pool = NULL;
    wf_job_system jobs;
    rc = make_jobs(workers, &pool, &jobs);
    wf_tilecache* tc = NULL;
    wf_mesh* mesh = NULL;
    crowd_run run;
    memset(&run, 0, sizeof run);
    wf_agent_id* ids = NULL;
    double* frame_ms = NULL;
    tool_log log = {.command = "crowd"}; // lives as long as the tile cache
    if (rc == 0) {
        wf_tilecache_desc d;
        memset(&d, 0, sizeof d);
        log.hold = true;
        d.logger = tool_logger(&log);
        wf_status st = wf_tilecache_load(&d, cache, cache_size, &tc);
        if (st != WF_OK) {
            report_cache_error("crowd", path, cache, cache_size, st, &log);
            rc = EXIT_INPUT;
        }
        log.hold = false;
    }
    if (rc == 0) {
        double ms;
        rc = cache_navmesh(tc, &mesh, &ms);
    }
    if (rc == 0 && wf_mesh_get_stats(mesh).poly_count == 0) {
        fprintf(stderr, "wayfarer crowd: %s: no walkable area (the navmesh has no polygon)\n",
                path);
        rc = EXIT_INPUT;
    }
    const wf_tilecache_params* params = rc == 0 ? wf_tilecache_get_params(tc) : NULL;
    if (rc == 0) {
        wf_query_desc qd = {.mesh = mesh};
        wf_crowd_desc cd;
        memset(&cd, 0, sizeof cd);
        cd.mesh = mesh;
        cd.max_agents = agents;
        cd.max_agent_radius = cache_agent_radius(params);
        cd.jobs = jobs;
        cd.logger.quiet = true;
        ids = calloc(agents, sizeof *ids);
        frame_ms = calloc(frames, sizeof *frame_ms);
        wf_status st = ids == NULL || frame_ms == NULL ? WF_ERR_OUT_OF_MEMORY : WF_OK;
        st = st == WF_OK ? wf_query_create(&qd, &run.query) : st;
        st = st == WF_OK ? wf_crowd_create(&cd, &run.crowd) : st;
        if (st != WF_OK) {
            fprintf(stderr, "wayfarer crowd: cannot make the crowd: %s\n", wf_status_string(st));
            rc = EXIT_INPUT;
        }
    }
    uint32_t placed = 0;
    if (rc == 0) {
        // The Detour crowd demo's agent: its radius is the cache's.
        wf_agent_params p = wf_agent_params_defaults();
        p.radius = cache_agent_radius(params);
        p.height = params->agent_height;
        p.collision_query_range = p.radius * 12.0f;
        p.path_optimization_range = p.radius * 30.0f;
        p.avoidance_preset = (uint8_t)preset;
        run.rng = wf_rng_make(seed, 54u);
        const wf_query_filter filter = wf_query_filter_defaults();
        for (uint32_t i = 0; i < agents && rc == 0; ++i) {
            wf_poly_ref ref;
            wf_vec3 at;
            if (wf_query_find_random_point(run.query, &filter, &run.rng, &ref, &at) != WF_OK ||
                wf_crowd_add_agent(run.crowd, at, &p, &ids[i]) != WF_OK) {
                fprintf(stderr, "wayfarer crowd: no place for agent %u\n", i);
                rc = EXIT_INPUT;
                break;
            }
            placed++;
            rc = new_target(&run, ids[i]);
        }
    }
    double gap = INFINITY, phase_ms[WF_CROWD_PHASE_COUNT] = {0};
    uint32_t replans = 0, blocked = 0, max_queued = 0;
    for (uint32_t f = 0; f < frames && rc == 0; ++f) {
        wf_crowd_profile prof;
        double t0 = now_ms();
        wf_status st = wf_crowd_update(run.crowd, FRAME_DT, &prof);
        frame_ms[f] = now_ms() - t0;
        if (st != WF_OK) {
            fprintf(stderr, "wayfarer crowd: update failed: %s\n", wf_status_string(st));
            rc = EXIT_CHECK;
            break;
        }
        for (int k = 0; k < WF_CROWD_PHASE_COUNT; ++k) {
            phase_ms[k] += prof.phase_us[k] * 1e-3;
        }
        replans += prof.replans;
        max_queued = prof.paths_queued > max_queued ? prof.paths_queued : max_queued;
        uint32_t n;
        const wf_crowd_event* e = wf_crowd_events(run.crowd, &n);
        for (uint32_t k = 0; k < n && rc == 0; ++k) {
            bool arrived =
                e[k].kind == WF_CROWD_EVENT_ARRIVED || e[k].kind == WF_CROWD_EVENT_STOPPED_SHORT;
            if (arrived || e[k].kind == WF_CROWD_EVENT_BLOCKED) {
                run.arrivals += arrived;
                blocked += e[k].kind == WF_CROWD_EVENT_BLOCKED;
                rc = new_target(&run, e[k].agent);
            }
        }
        if (separation_every > 0 && (f + 1) % separation_every == 0) {
            double g = min_gap(run.crowd, ids, placed);
            gap = g < gap ? g : gap;
        }
    }
    if (rc == 0) {
        double* sorted = malloc(sizeof(double) * frames);
        double mean = 0.0;
        for (uint32_t f = 0; f < frames; ++f) {
            mean += frame_ms[f] / frames;
        }
        double p95 = 0.0;
        if (sorted != NULL) {
            memcpy(sorted, frame_ms, sizeof(double) * frames);
            qsort(sorted, frames, sizeof(double), compare_doubles);
            p95 = sorted[(size_t)ceil(0.95 * frames) - 1u];
            free(sorted);
        }
        // null when never measured (--gap-every 0, or under two agents):
        // a number would read as a distance, and a negative one as overlap.
        char gap_text[32] = "null";
        if (isfinite(gap)) {
            snprintf(gap_text, sizeof gap_text, "%.4f", gap);
        }
        static const char* phase_names[WF_CROWD_PHASE_COUNT] = {
            "validate", "paths",     "callbacks", "topology",   "grid",    "neighbours", "corners",
            "steering", "avoidance", "integrate", "collisions", "surface", "events"};
        printf("{\"agents\": %u, \"frames\": %u, \"workers\": %u, \"seed\": %u, \"avoidance\": "
               "\"%s\", "
               "\"frame_ms_mean\": %.4f, \"frame_ms_p95\": %.4f, \"us_per_agent_frame\": %.4f, "
               "\"arrivals\": %u, \"paths\": %u, \"partial_paths\": %u, "
               "\"path_wait_mean_s\": %.4f, \"path_wait_max_s\": %.4f, \"max_queued\": %u, "
               "\"replans\": %u, \"blocked\": %u, \"min_separation_m\": %s, "
               "\"off_mesh\": %u, \"memory_bytes\": %zu, \"phase_ms_mean\": {",
               placed, frames, workers, seed, quality, mean, p95, mean * 1e3 / placed, run.arrivals,
               run.results, run.partial, run.results > 0 ? run.wait_sum / run.results : 0.0,
               run.wait_max, max_queued, replans, blocked, gap_text,
               off_mesh(run.crowd, run.query, ids, placed),
               wf_crowd_get_stats(run.crowd).memory_bytes);
        for (int k = 0; k < WF_CROWD_PHASE_COUNT; ++k) {
            printf("%s\"%s\": %.4f", k > 0 ? ", " : "", phase_names[k], phase_ms[k] / frames);
        }
        printf("}}\n");
    }
    wf_crowd_destroy(run.crowd);
    wf_query_destroy(run.query);
    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(tc);
    wf_thread_pool_destroy(pool);
    free(ids);
    free(frame_ms);
    free(data);
    return rc;
}
