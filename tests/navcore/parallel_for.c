// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// wf_jobs_parallel_for: every index exactly once, worker indices in range and
// never shared by two running blocks, nested and concurrent loops, bad args.
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "navcore/thread.h"
#include "wayfarer/jobs.h"
#include "wayfarer/rng.h"

typedef struct coverage {
    atomic_uint* hits;
    uint32_t worker_count;
    atomic_uint* busy; // per worker index: blocks of this call running now
    atomic_uint violations;
    atomic_uint calls;
} coverage;

static void mark(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    coverage* c = context;
    atomic_fetch_add(&c->calls, 1);
    if (worker >= c->worker_count || begin >= end) {
        atomic_fetch_add(&c->violations, 1);
        return;
    }
    if (atomic_fetch_add(&c->busy[worker], 1) != 0) {
        atomic_fetch_add(&c->violations, 1); // two blocks share a worker index
    }
    for (uint32_t i = begin; i < end; ++i) {
        atomic_fetch_add(&c->hits[i], 1);
    }
    atomic_fetch_sub(&c->busy[worker], 1);
}

static void check_coverage(const wf_job_system* jobs, uint32_t count, uint32_t min_block) {
    static atomic_uint hits[20000];
    static atomic_uint busy[WF_JOBS_MAX_WORKERS];
    assert_true(count <= 20000);
    for (uint32_t i = 0; i < count; ++i) {
        atomic_init(&hits[i], 0);
    }
    for (uint32_t i = 0; i < WF_JOBS_MAX_WORKERS; ++i) {
        atomic_init(&busy[i], 0);
    }
    coverage c = {.hits = hits, .worker_count = wf_jobs_worker_count(jobs), .busy = busy};
    atomic_init(&c.violations, 0);
    atomic_init(&c.calls, 0);
    assert_int_equal(wf_jobs_parallel_for(jobs, count, min_block, mark, &c), WF_OK);
    assert_int_equal(atomic_load(&c.violations), 0);
    for (uint32_t i = 0; i < count; ++i) {
        if (atomic_load(&hits[i]) != 1) {
            fail_msg("index %u of %u (min_block %u) hit %u times", i, count, min_block,
                     atomic_load(&hits[i]));
        }
    }
    if (count == 0) {
        assert_int_equal(atomic_load(&c.calls), 0);
    }
    uint32_t block = min_block == 0 ? 1 : min_block;
    if (count > 0) {
        // No block is smaller than min_block except the last one.
        assert_true(atomic_load(&c.calls) <= (count + block - 1) / block);
    }
}

static const uint32_t counts[] = {0, 1, 2, 3, 7, 64, 100, 1000, 4097, 20000};
static const uint32_t blocks[] = {0, 1, 3, 16, 1000, 50000};

static void test_inline_covers_every_index(void** state) {
    (void)state;
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i) {
        for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; ++b) {
            check_coverage(NULL, counts[i], blocks[b]);
            wf_job_system zero = {0};
            check_coverage(&zero, counts[i], blocks[b]);
        }
    }
}

static void test_pool_covers_every_index(void** state) {
    (void)state;
    const uint32_t thread_counts[] = {1, 2, 3, 7};
    for (size_t t = 0; t < sizeof thread_counts / sizeof thread_counts[0]; ++t) {
        wf_thread_pool* pool = NULL;
        wf_thread_pool_desc desc = {.thread_count = thread_counts[t]};
        assert_int_equal(wf_thread_pool_create(&desc, &pool), WF_OK);
        wf_job_system jobs = wf_thread_pool_job_system(pool);
        assert_int_equal(wf_jobs_worker_count(&jobs), thread_counts[t] + 1);
        for (int repeat = 0; repeat < 3; ++repeat) {
            for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i) {
                for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; ++b) {
                    check_coverage(&jobs, counts[i], blocks[b]);
                }
            }
        }
        wf_thread_pool_destroy(pool);
    }
}

static void test_tiny_queue_still_covers_everything(void** state) {
    (void)state;
    // Queue of 1: most tasks are run inline by enqueue, none are lost.
    wf_thread_pool* pool = NULL;
    wf_thread_pool_desc desc = {.thread_count = 4, .queue_capacity = 1};
    assert_int_equal(wf_thread_pool_create(&desc, &pool), WF_OK);
    wf_job_system jobs = wf_thread_pool_job_system(pool);
    for (int repeat = 0; repeat < 20; ++repeat) {
        check_coverage(&jobs, 1000, 1);
    }
    wf_thread_pool_stats stats = wf_thread_pool_get_stats(pool);
    assert_true(stats.tasks_run_inline > 0);
    wf_thread_pool_destroy(pool);
}

// Nested: each outer item runs an inner loop on the same pool.
typedef struct nested {
    const wf_job_system* jobs;
    atomic_uint inner_hits[64 * 50];
    atomic_uint failures;
} nested;

typedef struct inner_context {
    nested* n;
    uint32_t outer;
} inner_context;

static void inner_body(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    inner_context* ic = context;
    (void)worker;
    for (uint32_t i = begin; i < end; ++i) {
        atomic_fetch_add(&ic->n->inner_hits[ic->outer * 50 + i], 1);
    }
}

static void outer_body(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    nested* n = context;
    (void)worker;
    for (uint32_t o = begin; o < end; ++o) {
        inner_context ic = {n, o};
        if (wf_jobs_parallel_for(n->jobs, 50, 1, inner_body, &ic) != WF_OK) {
            atomic_fetch_add(&n->failures, 1);
        }
    }
}

static void test_nested_loops_complete(void** state) {
    (void)state;
    wf_thread_pool* pool = NULL;
    wf_thread_pool_desc desc = {.thread_count = 2};
    assert_int_equal(wf_thread_pool_create(&desc, &pool), WF_OK);
    wf_job_system jobs = wf_thread_pool_job_system(pool);
    static nested n;
    for (int repeat = 0; repeat < 10; ++repeat) {
        memset(&n, 0, sizeof n);
        n.jobs = &jobs;
        assert_int_equal(wf_jobs_parallel_for(&jobs, 64, 1, outer_body, &n), WF_OK);
        assert_int_equal(atomic_load(&n.failures), 0);
        for (uint32_t i = 0; i < 64 * 50; ++i) {
            assert_int_equal(atomic_load(&n.inner_hits[i]), 1);
        }
    }
    wf_thread_pool_destroy(pool);
}

// Concurrent: several application threads share one pool.
typedef struct concurrent_caller {
    const wf_job_system* jobs;
    uint64_t sum;
    int status_errors;
} concurrent_caller;

typedef struct sum_context {
    uint64_t partial[WF_JOBS_MAX_WORKERS];
} sum_context;

static void sum_body(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    sum_context* s = context;
    for (uint32_t i = begin; i < end; ++i) {
        s->partial[worker] += i;
    }
}

static WF_THREAD_MAIN(caller_main, arg) {
    concurrent_caller* c = arg;
    for (int repeat = 0; repeat < 50; ++repeat) {
        sum_context s;
        memset(&s, 0, sizeof s);
        if (wf_jobs_parallel_for(c->jobs, 10000, 16, sum_body, &s) != WF_OK) {
            c->status_errors++;
        }
        uint64_t total = 0;
        for (uint32_t w = 0; w < WF_JOBS_MAX_WORKERS; ++w) {
            total += s.partial[w];
        }
        c->sum += total;
    }
    WF_THREAD_MAIN_END;
}

static void test_concurrent_callers(void** state) {
    (void)state;
    wf_thread_pool* pool = NULL;
    wf_thread_pool_desc desc = {.thread_count = 3};
    assert_int_equal(wf_thread_pool_create(&desc, &pool), WF_OK);
    wf_job_system jobs = wf_thread_pool_job_system(pool);
    enum { CALLERS = 4 };
    concurrent_caller callers[CALLERS];
    wf_thread threads[CALLERS];
    for (int i = 0; i < CALLERS; ++i) {
        callers[i] = (concurrent_caller){.jobs = &jobs};
        assert_true(wf_thread_create(&threads[i], caller_main, &callers[i]));
    }
    for (int i = 0; i < CALLERS; ++i) {
        wf_thread_join(threads[i]);
        assert_int_equal(callers[i].status_errors, 0);
        assert_true(callers[i].sum == 50ull * (9999ull * 10000ull / 2ull));
    }
    wf_thread_pool_destroy(pool);
}

// The usual determinism pattern: each item writes only its own slot, with
// its own random stream split from a common parent.
static void per_item_body(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    float* out = context;
    (void)worker;
    wf_rng parent = wf_rng_make(2026, 7);
    for (uint32_t i = begin; i < end; ++i) {
        wf_rng r = wf_rng_split(&parent, i);
        float acc = 0.0f;
        for (int k = 0; k < 16; ++k) {
            acc = acc * 0.5f + wf_rng_float01(&r);
        }
        out[i] = acc;
    }
}

static void test_results_identical_for_any_worker_count(void** state) {
    (void)state;
    enum { N = 5000 };
    static float reference[N], out[N];
    assert_int_equal(wf_jobs_parallel_for(NULL, N, 1, per_item_body, reference), WF_OK);
    const uint32_t thread_counts[] = {1, 2, 3, 7};
    for (size_t t = 0; t < sizeof thread_counts / sizeof thread_counts[0]; ++t) {
        wf_thread_pool* pool = NULL;
        wf_thread_pool_desc desc = {.thread_count = thread_counts[t]};
        assert_int_equal(wf_thread_pool_create(&desc, &pool), WF_OK);
        wf_job_system jobs = wf_thread_pool_job_system(pool);
        memset(out, 0, sizeof out);
        assert_int_equal(wf_jobs_parallel_for(&jobs, N, 3, per_item_body, out), WF_OK);
        assert_memory_equal(reference, out, sizeof out);
        wf_thread_pool_destroy(pool);
    }
}

static void record_assert(const char* expression, const char* file, int line) {
    (void)expression;
    (void)file;
    (void)line;
}

static void never_called(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    (void)begin;
    (void)end;
    (void)worker;
    *(int*)context += 1;
}

static void* fake_enqueue(wf_task_fn* task, void* task_context, void* user) {
    (void)user;
    task(task_context);
    return NULL;
}

static void test_bad_arguments(void** state) {
    (void)state;
    wf_assert_fn* previous = wf_set_assert_hook(record_assert);
    assert_int_equal(wf_jobs_parallel_for(NULL, 10, 1, NULL, NULL), WF_ERR_INVALID_ARG);
    int calls = 0;
    wf_job_system no_wait = {.worker_count = 4, .enqueue = fake_enqueue};
    assert_int_equal(wf_jobs_parallel_for(&no_wait, 10, 1, never_called, &calls),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(calls, 0);
    wf_set_assert_hook(previous);
    // count 0 is fine and calls nothing.
    assert_int_equal(wf_jobs_parallel_for(NULL, 0, 1, never_called, &calls), WF_OK);
    assert_int_equal(calls, 0);
    assert_int_equal(wf_jobs_worker_count(NULL), 1);
    wf_job_system huge = {.worker_count = 100000, .enqueue = fake_enqueue};
    assert_int_equal(wf_jobs_worker_count(&huge), WF_JOBS_MAX_WORKERS);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inline_covers_every_index),
        cmocka_unit_test(test_pool_covers_every_index),
        cmocka_unit_test(test_tiny_queue_still_covers_everything),
        cmocka_unit_test(test_nested_loops_complete),
        cmocka_unit_test(test_concurrent_callers),
        cmocka_unit_test(test_results_identical_for_any_worker_count),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
