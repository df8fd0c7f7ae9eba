// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The native twin of crowd_bench.mjs: the same scene through the same
// calls (a world from nav_test's OBJ, one worker, the glue's seeded random
// points, ULTRA avoidance, a new target on each arrival, stop or block),
// so the wasm figure has a native one beside it, measured the same way:
// wall time and process CPU time per step. Build against a release build:
//   cc -O2 -std=c11 -Iinclude -Ibuild-release/include web/bench/crowd_native.c
//      build-release/libwayfarer.a -llz4 -lm -lpthread -o build-release/crowd_native
//   build-release/crowd_native [AGENTS] [TESTDATA_DIR]
// Prints the same CSV as crowd_bench.mjs plus a hash of the agents' final
// positions and velocities (equal hashes: the same simulation, bit for bit).
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wayfarer/wayfarer.h"

static double seconds(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static char* read_file(const char* path, size_t* size) {
    FILE* f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char* text = malloc((size_t)n);
    if (text != NULL && fread(text, 1, (size_t)n, f) != (size_t)n) {
        free(text);
        text = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return text;
}

static uint64_t fnv(uint64_t h, const void* data, size_t size) {
    const unsigned char* p = data;
    for (size_t i = 0; i < size; ++i) {
        h = (h ^ p[i]) * 1099511628211u;
    }
    return h;
}

int main(int argc, char** argv) {
    uint32_t agents = argc > 1 ? (uint32_t)atoi(argv[1]) : 1000u;
    const char* dir = argc > 2 ? argv[2] : "../shared/testdata";
    uint32_t frames = argc > 3 ? (uint32_t)atoi(argv[3]) : 300u;
    char path[1024];
    snprintf(path, sizeof path, "%s/recast/meshes/nav_test.obj", dir);
    size_t size = 0;
    char* text = read_file(path, &size);
    wf_geom_data* geom = NULL;
    if (text == NULL || wf_geom_load_obj(text, size, &(wf_geom_load_desc){0}, &geom) != WF_OK) {
        fprintf(stderr, "crowd_native: cannot read %s\n", path);
        return 1;
    }
    wf_geom view = wf_geom_data_view(geom);
    wf_world_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.geom = &view;
    desc.params = wf_tilecache_params_recast_demo();
    desc.worker_count = 1;
    desc.crowd.max_agents = agents;
    wf_world* world = NULL;
    wf_query* q = NULL;
    if (wf_world_create(&desc, &world) != WF_OK ||
        wf_query_create(&(wf_query_desc){.mesh = wf_world_mesh(world), .max_nodes = 4096}, &q) !=
            WF_OK) {
        return 1;
    }
    wf_crowd* crowd = wf_world_crowd(world);
    wf_query_filter filter = wf_query_filter_defaults();
    wf_rng rng = wf_rng_make(2026u, 7u);
    wf_agent_params p = wf_agent_params_defaults();
    p.avoidance_preset = WF_AVOIDANCE_ULTRA;
    for (uint32_t i = 0; i < agents; ++i) {
        wf_poly_ref ref;
        wf_vec3 at, to;
        wf_agent_id id;
        if (wf_query_find_random_point(q, &filter, &rng, &ref, &at) != WF_OK ||
            wf_query_find_random_point(q, &filter, &rng, &ref, &to) != WF_OK ||
            wf_crowd_add_agent(crowd, at, &p, &id) != WF_OK ||
            wf_crowd_request_move(crowd, id, to, NULL, NULL) != WF_OK) {
            return 1;
        }
    }
    const uint32_t warmup = 30;
    double wall = 0.0, cpu = 0.0, crowd_us = 0.0;
    uint32_t arrivals = 0;
    for (uint32_t f = 0; f < warmup + frames; ++f) {
        wf_world_report r;
        double w0 = seconds(CLOCK_MONOTONIC), c0 = seconds(CLOCK_PROCESS_CPUTIME_ID);
        if (wf_world_step(world, 1.0f / 30.0f, &(wf_world_budget){0}, &r) != WF_OK) {
            return 1;
        }
        if (f >= warmup) {
            wall += seconds(CLOCK_MONOTONIC) - w0;
            cpu += seconds(CLOCK_PROCESS_CPUTIME_ID) - c0;
            crowd_us += r.crowd_us;
        }
        uint32_t n;
        const wf_crowd_event* e = wf_crowd_events(crowd, &n);
        for (uint32_t k = 0; k < n; ++k) {
            bool arrived =
                e[k].kind == WF_CROWD_EVENT_ARRIVED || e[k].kind == WF_CROWD_EVENT_STOPPED_SHORT;
            if (arrived || e[k].kind == WF_CROWD_EVENT_BLOCKED) {
                arrivals += arrived;
                wf_poly_ref ref;
                wf_vec3 to;
                if (wf_query_find_random_point(q, &filter, &rng, &ref, &to) != WF_OK) {
                    return 1;
                }
                wf_status s = wf_crowd_request_move(crowd, e[k].agent, to, NULL, NULL);
                if (s != WF_OK && s != WF_ERR_CAPACITY) {
                    return 1;
                }
            }
        }
    }
    uint64_t hash = 14695981039346656037u;
    wf_agent_id* ids = malloc(sizeof(wf_agent_id) * agents);
    uint32_t n = wf_crowd_get_agents(crowd, ids, agents);
    for (uint32_t i = 0; i < n; ++i) {
        wf_agent_state st;
        if (wf_crowd_get_agent(crowd, ids[i], &st) == WF_OK) {
            hash = fnv(hash, &st.position, sizeof st.position);
            hash = fnv(hash, &st.velocity, sizeof st.velocity);
        }
    }
    printf("level,agents,us_per_agent_frame_wall,us_per_agent_frame_cpu,us_per_agent_frame_crowd,"
           "arrivals,hash,build\n");
    printf("nav_test,%u,%.3f,%.3f,%.3f,%u,%016llx,native\n", agents, wall * 1e6 / frames / agents,
           cpu * 1e6 / frames / agents, crowd_us / frames / agents, arrivals,
           (unsigned long long)hash);
    free(ids);
    wf_query_destroy(q);
    wf_world_destroy(world);
    wf_geom_data_destroy(geom);
    free(text);
    return 0;
}
