// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// wf_jobs_parallel_for: each worker starts on its own contiguous share of the
// blocks (the same items in every loop of the same count, so their data stays
// in one core's cache across a crowd update's phases), then helps the others
// from the edge next to its own share. A scheduler that runs the second
// worker's task inside the caller's first block makes the order exact.
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "wayfarer/jobs.h"

#define ITEMS 320u
#define MAX_TASKS 8u

/// Tasks queued by enqueue, run one by one from inside the loop body.
typedef struct held_tasks {
    wf_task_fn* fn[MAX_TASKS];
    void* context[MAX_TASKS];
    uint32_t count, started;
} held_tasks;

typedef struct block_log {
    held_tasks* tasks;
    uint32_t first[2 * ITEMS]; ///< first item of each block, in the order run
    uint32_t worker[2 * ITEMS];
    uint32_t count;
    bool started[MAX_TASKS];
} block_log;

static void* hold(wf_task_fn* fn, void* context, void* user) {
    held_tasks* t = user;
    assert_true(t->count < MAX_TASKS);
    t->fn[t->count] = fn;
    t->context[t->count] = context;
    t->count++;
    return &t->fn[t->count - 1u];
}

/// Runs the next held task, if any, to its end.
static void run_next(held_tasks* t) {
    if (t->started < t->count) {
        uint32_t k = t->started++;
        t->fn[k](t->context[k]);
    }
}

static void wait_held(void* handle, void* user) {
    (void)handle;
    held_tasks* t = user;
    while (t->started < t->count) { // already run from the bodies in these tests
        run_next(t);
    }
}

/// Logs each block; each worker's first block runs the next worker's task
/// to its end before it returns (each starts while the ones before are busy).
static void log_block(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    block_log* log = context;
    assert_true(begin < end && log->count < 2 * ITEMS && worker < MAX_TASKS);
    log->first[log->count] = begin;
    log->worker[log->count] = worker;
    log->count++;
    if (!log->started[worker]) {
        log->started[worker] = true;
        run_next(log->tasks);
    }
}

static void test_second_worker_starts_on_its_own_share(void** state) {
    (void)state;
    static held_tasks tasks;
    static block_log log;
    memset(&tasks, 0, sizeof tasks);
    memset(&log, 0, sizeof log);
    log.tasks = &tasks;
    wf_job_system jobs = {.worker_count = 2, .enqueue = hold, .wait = wait_held, .user = &tasks};
    assert_int_equal(wf_jobs_parallel_for(&jobs, ITEMS, 1, log_block, &log), WF_OK);
    // 32 blocks of 10: worker 0 takes block 0, then worker 1 runs its share
    // (blocks 16-31) in order, then worker 0's rest from the back (15 down to 1).
    assert_int_equal(log.count, 32);
    assert_int_equal(log.worker[0], 0);
    assert_int_equal(log.first[0], 0);
    for (uint32_t k = 1; k < 32; ++k) {
        assert_int_equal(log.worker[k], 1);
        uint32_t block = k <= 16 ? 15u + k : 32u - k;
        assert_int_equal(log.first[k], block * 10u);
    }
}

static void test_shares_are_the_same_items_every_loop(void** state) {
    (void)state;
    // Four workers, each starting inside the first block of the one before:
    // every loop of the same count splits the blocks alike.
    for (int repeat = 0; repeat < 3; ++repeat) {
        static held_tasks tasks;
        static block_log log;
        memset(&tasks, 0, sizeof tasks);
        memset(&log, 0, sizeof log);
        log.tasks = &tasks;
        wf_job_system jobs = {
            .worker_count = 4, .enqueue = hold, .wait = wait_held, .user = &tasks};
        assert_int_equal(wf_jobs_parallel_for(&jobs, ITEMS, 1, log_block, &log), WF_OK);
        // 64 blocks of 5: worker w begins at block 16 w.
        uint32_t seen[4] = {0};
        uint32_t first_of[4] = {0};
        for (uint32_t k = 0; k < log.count; ++k) {
            uint32_t w = log.worker[k];
            assert_true(w < 4);
            if (seen[w]++ == 0) {
                first_of[w] = log.first[k];
            }
        }
        assert_int_equal(first_of[0], 0);
        assert_int_equal(first_of[1], 80);
        assert_int_equal(first_of[2], 160);
        assert_int_equal(first_of[3], 240);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_second_worker_starts_on_its_own_share),
        cmocka_unit_test(test_shares_are_the_same_items_every_loop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
