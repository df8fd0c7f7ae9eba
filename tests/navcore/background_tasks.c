// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Background tasks: submit now, poll or wait later (across "frames"), never
// run by a thread that only waits for a parallel loop.
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "navcore/thread.h"
#include "test_hooks.h"
#include "wayfarer/jobs.h"

typedef struct gated_work {
    atomic_int released; // the task spins (yielding) until the test sets this
    atomic_int finished;
    wf_thread_id ran_on;
    uint64_t result;
} gated_work;

static void gated_task(void* context) {
    gated_work* w = context;
    w->ran_on = wf_thread_self();
    while (!atomic_load(&w->released)) {
        wf_thread_yield();
    }
    uint64_t sum = 0;
    for (uint64_t i = 1; i <= 1000; ++i) {
        sum += i;
    }
    w->result = sum;
    atomic_store(&w->finished, 1);
}

static void simple_task(void* context) {
    uint64_t* value = context;
    *value = *value * 3 + 1;
}

static void test_inline_runs_at_submit(void** state) {
    (void)state;
    wf_job_task task = {0};
    uint64_t value = 5;
    assert_true(wf_jobs_task_is_done(&task)); // never submitted: nothing pending
    assert_int_equal(wf_jobs_submit(NULL, &task, simple_task, &value), WF_OK);
    assert_int_equal(value, 16);
    assert_true(wf_jobs_task_is_done(&task));
    wf_jobs_wait_task(NULL, &task);
    // Reusable after wait.
    assert_int_equal(wf_jobs_submit(NULL, &task, simple_task, &value), WF_OK);
    assert_int_equal(value, 49);
    wf_jobs_wait_task(NULL, &task);
}

static void test_poll_across_frames(void** state) {
    (void)state;
    wf_thread_pool* pool = NULL;
    wf_thread_pool_desc desc = {.thread_count = 2};
    assert_int_equal(wf_thread_pool_create(&desc, &pool), WF_OK);
    wf_job_system jobs = wf_thread_pool_job_system(pool);

    static gated_work work;
    memset(&work, 0, sizeof work);
    wf_job_task task = {0};
    assert_int_equal(wf_jobs_submit(&jobs, &task, gated_task, &work), WF_OK);
    // A few "frames" pass; the task cannot finish while gated.
    for (int frame = 0; frame < 5; ++frame) {
        assert_false(wf_jobs_task_is_done(&task));
        wf_thread_yield();
    }
    uint64_t again = 1;
    assert_int_equal(wf_jobs_submit(&jobs, &task, simple_task, &again), WF_ERR_BUSY);
    assert_int_equal(again, 1);

    atomic_store(&work.released, 1);
    while (!wf_jobs_task_is_done(&task)) {
        wf_thread_yield();
    }
    // Done means the task's writes are visible.
    assert_int_equal(work.result, 500500);
    assert_int_equal(atomic_load(&work.finished), 1);
    wf_jobs_wait_task(&jobs, &task);
    assert_false(wf_thread_id_equal(work.ran_on, wf_thread_self()));
    wf_jobs_wait_task(&jobs, &task); // second wait returns at once
    wf_thread_pool_destroy(pool);
}

typedef struct loop_sum {
    atomic_ullong sum;
} loop_sum;

static void add_indices(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    loop_sum* s = context;
    (void)worker;
    for (uint32_t i = begin; i < end; ++i) {
        atomic_fetch_add(&s->sum, i);
    }
}

static void test_parallel_for_while_background_runs(void** state) {
    (void)state;
    // One thread: while the gated background task occupies it, a parallel
    // loop on the main thread must still finish (run by the caller alone)
    // and must not pick up the background task (that would never return).
    wf_thread_pool* pool = NULL;
    wf_thread_pool_desc desc = {.thread_count = 1};
    assert_int_equal(wf_thread_pool_create(&desc, &pool), WF_OK);
    wf_job_system jobs = wf_thread_pool_job_system(pool);

    static gated_work gates[3];
    memset(gates, 0, sizeof gates);
    wf_job_task tasks[3];
    memset(tasks, 0, sizeof tasks);
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(wf_jobs_submit(&jobs, &tasks[i], gated_task, &gates[i]), WF_OK);
    }
    for (int frame = 0; frame < 20; ++frame) {
        loop_sum s;
        atomic_init(&s.sum, 0);
        assert_int_equal(wf_jobs_parallel_for(&jobs, 5000, 8, add_indices, &s), WF_OK);
        assert_true(atomic_load(&s.sum) == 4999ull * 5000ull / 2ull);
    }
    for (int i = 0; i < 3; ++i) {
        assert_false(wf_jobs_task_is_done(&tasks[i]));
        atomic_store(&gates[i].released, 1);
    }
    for (int i = 0; i < 3; ++i) {
        wf_jobs_wait_task(&jobs, &tasks[i]);
        assert_int_equal(gates[i].result, 500500);
    }
    wf_thread_pool_destroy(pool);
}

typedef struct background_loop {
    const wf_job_system* jobs;
    loop_sum sum;
    wf_status status;
} background_loop;

static void task_with_inner_loop(void* context) {
    background_loop* b = context;
    b->status = wf_jobs_parallel_for(b->jobs, 20000, 64, add_indices, &b->sum);
}

static void test_many_background_tasks_with_inner_loops(void** state) {
    (void)state;
    wf_thread_pool* pool = NULL;
    wf_thread_pool_desc desc = {.thread_count = 3, .queue_capacity = 64};
    assert_int_equal(wf_thread_pool_create(&desc, &pool), WF_OK);
    wf_job_system jobs = wf_thread_pool_job_system(pool);
    enum { TASKS = 40 };
    static background_loop work[TASKS];
    static wf_job_task tasks[TASKS];
    memset(tasks, 0, sizeof tasks);
    for (int i = 0; i < TASKS; ++i) {
        work[i].jobs = &jobs;
        atomic_init(&work[i].sum.sum, 0);
        work[i].status = WF_ERR_BUSY;
        assert_int_equal(wf_jobs_submit(&jobs, &tasks[i], task_with_inner_loop, &work[i]), WF_OK);
    }
    // Wait in reverse order: a waiter may run its own queued task itself.
    for (int i = TASKS - 1; i >= 0; --i) {
        wf_jobs_wait_task(&jobs, &tasks[i]);
        assert_int_equal(work[i].status, WF_OK);
        assert_true(atomic_load(&work[i].sum.sum) == 19999ull * 20000ull / 2ull);
    }
    wf_thread_pool_destroy(pool);
}

static void test_bad_arguments(void** state) {
    (void)state;
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    wf_job_task task = {0};
    uint64_t value = 0;
    assert_int_equal(wf_jobs_submit(NULL, NULL, simple_task, &value), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_jobs_submit(NULL, &task, NULL, &value), WF_ERR_INVALID_ARG);
    assert_true(wf_jobs_task_is_done(&task));
    wf_set_assert_hook(previous);
    wf_jobs_wait_task(NULL, NULL);
    wf_jobs_wait_task(NULL, &task); // never submitted: returns at once
    assert_int_equal(value, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inline_runs_at_submit),
        cmocka_unit_test(test_poll_across_frames),
        cmocka_unit_test(test_parallel_for_while_background_runs),
        cmocka_unit_test(test_many_background_tasks_with_inner_loops),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
