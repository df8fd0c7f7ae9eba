// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Job system cost: the fixed overhead of one wf_jobs_parallel_for call and
// the per-item cost against a plain loop, for 1 worker (inline) and pools of
// increasing size. Prints CSV; --smoke runs a tiny version for CI.
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "wayfarer/jobs.h"
#include "wayfarer/rng.h"

typedef struct work {
    float* in;
    float* out;
    int heavy; // light: one multiply-add; heavy: ~30 RNG steps per item
} work;

static inline float item(const work* w, uint32_t i) {
    if (!w->heavy) {
        return w->in[i] * 2.0f + 1.0f;
    }
    wf_rng r = wf_rng_make(i, 1);
    float acc = w->in[i];
    for (int k = 0; k < 30; ++k) {
        acc = acc * 0.5f + wf_rng_float01(&r);
    }
    return acc;
}

static void body(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    const work* w = context;
    (void)worker;
    for (uint32_t i = begin; i < end; ++i) {
        w->out[i] = item(w, i);
    }
}

static void plain_loop(const work* w, uint32_t count) {
    for (uint32_t i = 0; i < count; ++i) {
        w->out[i] = item(w, i);
    }
}

// Seconds per repetition of `fn` (median of `samples`).
#define MEASURE(result, samples, reps, statement)                                                  \
    do {                                                                                           \
        double times_[32];                                                                         \
        for (int s_ = 0; s_ < (samples); ++s_) {                                                   \
            double t0_ = bench_now_seconds();                                                      \
            for (int r_ = 0; r_ < (reps); ++r_) {                                                  \
                statement;                                                                         \
            }                                                                                      \
            times_[s_] = (bench_now_seconds() - t0_) / (reps);                                     \
        }                                                                                          \
        (result) = bench_median(times_, (samples));                                                \
    } while (0)

int main(int argc, char** argv) {
    int smoke = argc > 1 && strcmp(argv[1], "--smoke") == 0;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    uint32_t items = smoke ? 10000u : 1u << 20;
    int samples = smoke ? 3 : 9;
    int call_reps = smoke ? 100 : 20000;
    int item_reps = smoke ? 1 : 20;

    work w;
    w.in = malloc(sizeof(float) * items);
    w.out = malloc(sizeof(float) * items);
    if (w.in == NULL || w.out == NULL) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (uint32_t i = 0; i < items; ++i) {
        w.in[i] = (float)i;
    }

    printf("# cores=%ld items=%u\n", cores, items);
    printf("workers,call_overhead_ns,light_plain_ns_per_item,light_parallel_ns_per_item,"
           "heavy_plain_ns_per_item,heavy_parallel_ns_per_item,heavy_speedup\n");
    uint32_t worker_counts[] = {1, 2, 3, 4, 8, 16};
    for (size_t k = 0; k < sizeof worker_counts / sizeof worker_counts[0]; ++k) {
        uint32_t workers = worker_counts[k];
        if (workers > 2 && (long)workers > cores) {
            break;
        }
        wf_thread_pool* pool = NULL;
        wf_job_system jobs = {0};
        if (workers > 1) {
            wf_thread_pool_desc desc = {.thread_count = workers - 1};
            if (wf_thread_pool_create(&desc, &pool) != WF_OK) {
                fprintf(stderr, "pool creation failed\n");
                return 1;
            }
            jobs = wf_thread_pool_job_system(pool);
        }
        int failures = 0;
        // Overhead of a call: as many single-item blocks as workers, so every
        // worker is woken and joined, but there is no work to speak of.
        double call;
        w.heavy = 0;
        MEASURE(call, samples, call_reps,
                failures += wf_jobs_parallel_for(&jobs, workers, 1, body, &w) != WF_OK);
        double light_plain, light_parallel, heavy_plain, heavy_parallel;
        MEASURE(light_plain, samples, item_reps, plain_loop(&w, items));
        MEASURE(light_parallel, samples, item_reps,
                failures += wf_jobs_parallel_for(&jobs, items, 1024, body, &w) != WF_OK);
        w.heavy = 1;
        MEASURE(heavy_plain, samples, 1, plain_loop(&w, items));
        MEASURE(heavy_parallel, samples, 1,
                failures += wf_jobs_parallel_for(&jobs, items, 256, body, &w) != WF_OK);
        if (failures != 0) {
            fprintf(stderr, "parallel_for failed\n");
            return 1;
        }
        printf("%u,%.0f,%.3f,%.3f,%.2f,%.2f,%.2f\n", workers, call * 1e9, light_plain * 1e9 / items,
               light_parallel * 1e9 / items, heavy_plain * 1e9 / items,
               heavy_parallel * 1e9 / items, heavy_plain / heavy_parallel);
        fflush(stdout);
        wf_thread_pool_destroy(pool);
    }
    free(w.in);
    free(w.out);
    return 0;
}
