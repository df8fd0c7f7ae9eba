// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Agent classes: what each class of a world costs (build CPU time, memory)
// and what a second class adds to a step (its crowd, and both crowds
// seeing the other's agents as movers). CPU time (clock()) on one worker,
// so a loaded machine changes the figures less than wall time would.
// Prints CSV; --smoke runs a small generated floor once.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "wayfarer/world.h"

#define PEOPLE 300u
#define VEHICLES 12u
#define STEPS 120u
#define DT (1.0f / 30.0f)

static double cpu_ms(clock_t since) { return 1000.0 * (double)(clock() - since) / CLOCKS_PER_SEC; }

/// A 60 m floor with a few walls, for --smoke.
static wf_geom_data* smoke_level(void) {
    static const char obj[] = "v 0 0 0\nv 60 0 0\nv 60 0 60\nv 0 0 60\n"
                              "v 20 0 10\nv 21 0 10\nv 21 3 10\nv 20 3 10\n"
                              "v 20 0 50\nv 21 0 50\nv 21 3 50\nv 20 3 50\n"
                              "f 1 4 3 2\nf 5 6 7 8\nf 9 10 11 12\nf 8 7 11 12\n";
    wf_geom_data* g = NULL;
    return wf_geom_load_obj(obj, sizeof obj - 1, &(wf_geom_load_desc){0}, &g) == WF_OK ? g : NULL;
}

static const wf_world_class_desc g_classes[2] = {
    {.name = "soldier", .agent_radius = 0.4f, .agent_height = 1.8f, .max_agents = PEOPLE},
    {.name = "tank",
     .agent_radius = 1.5f,
     .agent_height = 2.5f,
     .agent_climb = 0.3f,
     .max_agents = VEHICLES},
};

static wf_world* make_world(const wf_geom* g, uint32_t classes, double* out_cpu_ms) {
    wf_world_desc d;
    memset(&d, 0, sizeof d);
    d.geom = g;
    d.worker_count = 1;
    d.classes = g_classes;
    d.class_count = classes;
    d.crowd.max_agents = PEOPLE;
    d.logger.quiet = true;
    wf_world* w = NULL;
    clock_t t0 = clock();
    if (wf_world_create(&d, &w) != WF_OK) {
        return NULL;
    }
    *out_cpu_ms = cpu_ms(t0);
    return w;
}

/// Agents walking between random points of their class's navmesh.
static void populate(wf_world* w, uint32_t people, uint32_t vehicles) {
    for (uint32_t c = 0; c < wf_world_class_count(w); ++c) {
        wf_query* q = NULL;
        wf_query_desc qd = {.mesh = wf_world_class_mesh(w, c)};
        if (wf_query_create(&qd, &q) != WF_OK) {
            return;
        }
        wf_rng rng = wf_rng_make(7u, c + 1u);
        const wf_query_filter f = wf_query_filter_defaults();
        uint32_t want = c == 0 ? people : vehicles;
        for (uint32_t i = 0; i < want; ++i) {
            wf_poly_ref ref;
            wf_vec3 at, to;
            wf_agent_id a;
            if (wf_query_find_random_point(q, &f, &rng, &ref, &at) == WF_OK &&
                wf_query_find_random_point(q, &f, &rng, &ref, &to) == WF_OK &&
                wf_world_add_agent(w, c, at, NULL, &a) == WF_OK) {
                wf_status s = wf_crowd_request_move(wf_world_agent_crowd(w, a), a, to, NULL, NULL);
                (void)s;
            }
        }
        wf_query_destroy(q);
    }
}

static double step_cpu_ms(wf_world* w, uint32_t steps) {
    clock_t t0 = clock();
    for (uint32_t f = 0; f < steps; ++f) {
        if (wf_world_step(w, DT, NULL, NULL) != WF_OK) {
            return NAN;
        }
    }
    return cpu_ms(t0) / steps;
}

int main(int argc, char** argv) {
    int smoke = argc > 1 && strcmp(argv[1], "--smoke") == 0;
    const char* data_dir = getenv("WF_TESTDATA_DIR");
    data_dir = data_dir != NULL ? data_dir : "../shared/testdata";
    wf_geom_data* geom = NULL;
    const char* level = "generated";
    if (smoke) {
        geom = smoke_level();
    } else {
        char path[1024];
        snprintf(path, sizeof path, "%s/recast/meshes/nav_test.obj", data_dir);
        size_t size = 0;
        char* text = bench_read_file(path, &size);
        if (text == NULL) {
            printf("# %s not found: skipped\n", path);
            return 0;
        }
        level = "nav_test";
        if (wf_geom_load_obj(text, size, &(wf_geom_load_desc){0}, &geom) != WF_OK) {
            geom = NULL;
        }
        free(text);
    }
    if (geom == NULL) {
        fprintf(stderr, "cannot load the level\n");
        return 1;
    }
    wf_geom g = wf_geom_data_view(geom);
    uint32_t steps = smoke ? 5u : STEPS;
    // One class (the soldiers) and two (soldiers and tanks), alternated so a
    // busy machine hits both alike; the medians are printed.
    enum { RUNS_MAX = 5 };
    int runs = smoke ? 1 : RUNS_MAX;
    double create[2][RUNS_MAX], step[2][RUNS_MAX];
    size_t memory[2] = {0, 0};
    wf_world_class_info info[2];
    memset(info, 0, sizeof info);
    double class_build_cpu[2][RUNS_MAX];
    for (int r = 0; r < runs; ++r) {
        for (uint32_t n = 1; n <= 2; ++n) {
            wf_world* w = make_world(&g, n, &create[n - 1][r]);
            if (w == NULL) {
                fprintf(stderr, "cannot make the world of %u classes\n", n);
                wf_geom_data_destroy(geom);
                return 1;
            }
            populate(w, PEOPLE, n > 1 ? VEHICLES : 0u);
            memory[n - 1] = wf_world_get_stats(w).memory_bytes;
            step[n - 1][r] = step_cpu_ms(w, steps);
            for (uint32_t c = 0; c < n && n == 2; ++c) {
                if (wf_world_get_class(w, c, &info[c]) != WF_OK) {
                    return 1;
                }
            }
            wf_world_destroy(w);
        }
        // Each class's tile cache alone: its build's CPU time.
        for (uint32_t c = 0; c < 2; ++c) {
            wf_tilecache_desc td;
            memset(&td, 0, sizeof td);
            td.params = wf_tilecache_params_recast_demo();
            td.params.agent_radius = g_classes[c].agent_radius;
            td.params.agent_height = g_classes[c].agent_height;
            if (g_classes[c].agent_climb > 0.0f) {
                td.params.agent_climb = g_classes[c].agent_climb;
            }
            wf_tilecache* tc = NULL;
            clock_t t0 = clock();
            if (wf_tilecache_create(&td, &tc) != WF_OK ||
                wf_tilecache_build_geom(tc, g, NULL, 0) != WF_OK) {
                return 1;
            }
            class_build_cpu[c][r] = cpu_ms(t0);
            wf_tilecache_destroy(tc);
        }
    }
    printf("level,class,agent_radius,agent_height,agent_climb,build_cpu_ms,tilecache_bytes,"
           "mesh_bytes,crowd_bytes\n");
    for (uint32_t c = 0; c < 2; ++c) {
        printf("%s,%s,%.2f,%.2f,%.2f,%.1f,%zu,%zu,%zu\n", level, info[c].name,
               (double)info[c].agent_radius, (double)info[c].agent_height,
               (double)info[c].agent_climb, bench_median(class_build_cpu[c], (size_t)runs),
               info[c].tilecache_bytes, info[c].mesh_bytes, info[c].crowd_bytes);
    }
    printf("\nlevel,classes,agents,create_cpu_ms,memory_bytes,step_cpu_ms\n");
    for (uint32_t n = 1; n <= 2; ++n) {
        printf("%s,%u,%u,%.1f,%zu,%.3f\n", level, n, PEOPLE + (n > 1 ? VEHICLES : 0u),
               bench_median(create[n - 1], (size_t)runs), memory[n - 1],
               bench_median(step[n - 1], (size_t)runs));
    }
    wf_geom_data_destroy(geom);
    return 0;
}
