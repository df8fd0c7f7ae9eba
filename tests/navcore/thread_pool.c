// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The built-in pool: desc defaults and validation, allocation failures,
// destroy under load, idle workers sleeping, memory returned.
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "test_hooks.h"
#include "wayfarer/jobs.h"

static void test_defaults(void** state) {
    (void)state;
    wf_thread_pool_desc d = wf_thread_pool_desc_defaults(NULL);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    uint32_t expected = cores > 1 ? (uint32_t)cores - 1u : 0u;
    if (expected > WF_JOBS_MAX_WORKERS - 1u) {
        expected = WF_JOBS_MAX_WORKERS - 1u;
    }
    assert_int_equal(d.thread_count, expected);
    assert_int_equal(d.queue_capacity, 1024);
    wf_thread_pool_desc given = {.thread_count = 5, .queue_capacity = 7};
    d = wf_thread_pool_desc_defaults(&given);
    assert_int_equal(d.thread_count, 5);
    assert_int_equal(d.queue_capacity, 7);

    wf_thread_pool* pool = NULL;
    assert_int_equal(wf_thread_pool_create(&(wf_thread_pool_desc){0}, &pool), WF_OK);
    assert_int_equal(wf_thread_pool_thread_count(pool), expected);
    wf_job_system jobs = wf_thread_pool_job_system(pool);
    assert_int_equal(wf_jobs_worker_count(&jobs), expected + 1u);
    wf_thread_pool_destroy(pool);
}

static void test_bad_desc(void** state) {
    (void)state;
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    wf_thread_pool* pool = (wf_thread_pool*)(uintptr_t)0x1;
    assert_int_equal(wf_thread_pool_create(NULL, &pool), WF_ERR_INVALID_ARG);
    wf_thread_pool_desc too_many = {.thread_count = WF_JOBS_MAX_WORKERS};
    assert_int_equal(wf_thread_pool_create(&too_many, &pool), WF_ERR_INVALID_ARG);
    counting_allocator c;
    counting_allocator_init(&c);
    wf_thread_pool_desc half = {.thread_count = 1};
    half.allocator = counting_allocator_hooks(&c);
    half.allocator.free = NULL;
    assert_int_equal(wf_thread_pool_create(&half, &pool), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_thread_pool_create(&(wf_thread_pool_desc){0}, NULL), WF_ERR_INVALID_ARG);
    assert_true(pool == (wf_thread_pool*)(uintptr_t)0x1); // untouched on failure
    assert_int_equal(atomic_load(&c.attempt), 0);
    wf_set_assert_hook(previous);

    // NULL pool: destroy ignores it, its job system runs inline.
    wf_thread_pool_destroy(NULL);
    wf_job_system jobs = wf_thread_pool_job_system(NULL);
    assert_int_equal(wf_jobs_worker_count(&jobs), 1);
    assert_null(jobs.enqueue);
    assert_int_equal(wf_thread_pool_thread_count(NULL), 0);
}

static void test_allocation_failures_leak_nothing(void** state) {
    (void)state;
    // Fail the k-th allocation for every k until creation succeeds.
    for (unsigned long k = 1;; ++k) {
        counting_allocator c;
        counting_allocator_init(&c);
        c.fail_at = k;
        wf_thread_pool_desc desc = {.thread_count = 2, .queue_capacity = 16};
        desc.allocator = counting_allocator_hooks(&c);
        wf_thread_pool* pool = NULL;
        wf_status s = wf_thread_pool_create(&desc, &pool);
        if (s == WF_OK) {
            assert_true(k > 2); // it does allocate several blocks
            wf_thread_pool_destroy(pool);
            assert_int_equal(counting_allocator_live(&c), 0);
            assert_int_equal(atomic_load(&c.size_mismatches), 0);
            break;
        }
        assert_int_equal(s, WF_ERR_OUT_OF_MEMORY);
        assert_null(pool);
        assert_int_equal(counting_allocator_live(&c), 0);
        assert_true(k < 100);
    }
}

static void spin_work(void* context) {
    atomic_uint* done = context;
    volatile uint64_t x = 0;
    for (int i = 0; i < 20000; ++i) {
        x = x + (uint64_t)i;
    }
    atomic_fetch_add(done, 1);
}

static void test_destroy_under_load_finishes_queued_work(void** state) {
    (void)state;
    for (int round = 0; round < 20; ++round) {
        counting_allocator c;
        counting_allocator_init(&c);
        wf_thread_pool_desc desc = {.thread_count = 3, .queue_capacity = 256};
        desc.allocator = counting_allocator_hooks(&c);
        wf_thread_pool* pool = NULL;
        assert_int_equal(wf_thread_pool_create(&desc, &pool), WF_OK);
        wf_job_system jobs = wf_thread_pool_job_system(pool);
        atomic_uint done;
        atomic_init(&done, 0);
        enum { TASKS = 200 };
        for (int i = 0; i < TASKS; ++i) {
            // Handles deliberately not waited for: destroy must still run them.
            (void)jobs.enqueue(spin_work, &done, jobs.user);
        }
        wf_thread_pool_destroy(pool);
        assert_int_equal(atomic_load(&done), TASKS);
        assert_int_equal(counting_allocator_live(&c), 0);
    }
}

static void test_stats_and_memory(void** state) {
    (void)state;
    wf_thread_pool_desc desc = {.thread_count = 2, .queue_capacity = 32};
    counting_allocator c;
    counting_allocator_init(&c);
    desc.allocator = counting_allocator_hooks(&c);
    wf_thread_pool* pool = NULL;
    assert_int_equal(wf_thread_pool_create(&desc, &pool), WF_OK);
    wf_thread_pool_stats stats = wf_thread_pool_get_stats(pool);
    assert_int_equal(stats.tasks_enqueued, 0);
    assert_true(stats.memory_bytes > 0);
    assert_true((long)stats.memory_bytes <= atomic_load(&c.live_bytes));
    wf_job_system jobs = wf_thread_pool_job_system(pool);
    atomic_uint done;
    atomic_init(&done, 0);
    void* handles[10];
    for (int i = 0; i < 10; ++i) {
        handles[i] = jobs.enqueue(spin_work, &done, jobs.user);
        assert_non_null(handles[i]);
    }
    for (int i = 0; i < 10; ++i) {
        jobs.wait(handles[i], jobs.user);
    }
    assert_int_equal(atomic_load(&done), 10);
    stats = wf_thread_pool_get_stats(pool);
    assert_int_equal(stats.tasks_enqueued, 10);
    assert_int_equal(stats.tasks_run_inline, 0);
    // Steady state: using the pool allocates nothing.
    unsigned long before = atomic_load(&c.attempt);
    for (int i = 0; i < 10; ++i) {
        handles[i] = jobs.enqueue(spin_work, &done, jobs.user);
    }
    for (int i = 0; i < 10; ++i) {
        jobs.wait(handles[i], jobs.user);
    }
    assert_int_equal(atomic_load(&c.attempt), before);
    wf_thread_pool_destroy(pool);
    assert_int_equal(counting_allocator_live(&c), 0);
}

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void test_idle_workers_sleep(void** state) {
    (void)state;
    wf_thread_pool_desc desc = {.thread_count = 4};
    wf_thread_pool* pool = NULL;
    assert_int_equal(wf_thread_pool_create(&desc, &pool), WF_OK);
    // Let the workers reach their idle wait.
    struct timespec settle = {0, 50 * 1000 * 1000};
    nanosleep(&settle, NULL);
    wf_thread_pool_stats stats = wf_thread_pool_get_stats(pool);
    assert_true(stats.sleeps >= 4);
    // Four spinning threads would burn about 4 x 300 ms of CPU here; sleeping
    // ones burn close to nothing. The bound is loose on purpose.
    double cpu_before = cpu_seconds();
    struct timespec idle = {0, 300 * 1000 * 1000};
    nanosleep(&idle, NULL);
    double cpu_used = cpu_seconds() - cpu_before;
    assert_true(cpu_used < 0.15);
    wf_thread_pool_stats later = wf_thread_pool_get_stats(pool);
    assert_true(later.sleeps <= stats.sleeps + 4); // no busy wake-ups (a spurious one is allowed)
    wf_thread_pool_destroy(pool);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_bad_desc),
        cmocka_unit_test(test_allocation_failures_leak_nothing),
        cmocka_unit_test(test_destroy_under_load_finishes_queued_work),
        cmocka_unit_test(test_stats_and_memory),
        cmocka_unit_test(test_idle_workers_sleep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
