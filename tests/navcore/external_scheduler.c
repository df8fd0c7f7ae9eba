// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// A game's own scheduler plugged in through wf_job_system: a tiny external
// pool written here (threads plus a locked FIFO, waiters block and do not
// help; built on navcore/thread.h like the pool), and a scheduler that runs everything inside enqueue.
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "navcore/thread.h"
#include "wayfarer/jobs.h"

enum { EXT_THREADS = 3, EXT_SLOTS = 64 };

typedef struct ext_task {
    wf_task_fn* fn;
    void* context;
    int done;
    int in_use;
} ext_task;

typedef struct ext_pool {
    wf_mutex lock;
    wf_cond changed;
    ext_task tasks[EXT_SLOTS];
    int queue[EXT_SLOTS];
    int head, count;
    int stop;
    wf_thread threads[EXT_THREADS];
    atomic_uint enqueued;
    atomic_uint waited;
} ext_pool;

static WF_THREAD_MAIN(ext_worker, arg) {
    ext_pool* p = arg;
    wf_mutex_lock(&p->lock);
    for (;;) {
        while (p->count == 0 && !p->stop) {
            wf_cond_wait(&p->changed, &p->lock);
        }
        if (p->count == 0) {
            break;
        }
        int slot = p->queue[p->head];
        p->head = (p->head + 1) % EXT_SLOTS;
        p->count--;
        ext_task* t = &p->tasks[slot];
        wf_mutex_unlock(&p->lock);
        t->fn(t->context);
        wf_mutex_lock(&p->lock);
        t->done = 1;
        wf_cond_broadcast(&p->changed);
    }
    wf_mutex_unlock(&p->lock);
    WF_THREAD_MAIN_END;
}

static void* ext_enqueue(wf_task_fn* fn, void* context, void* user) {
    ext_pool* p = user;
    wf_mutex_lock(&p->lock);
    int slot = -1;
    for (int i = 0; i < EXT_SLOTS; ++i) {
        if (!p->tasks[i].in_use) {
            slot = i;
            break;
        }
    }
    if (slot < 0) {
        wf_mutex_unlock(&p->lock);
        fn(context); // the contract allows running it here and returning NULL
        return NULL;
    }
    p->tasks[slot] = (ext_task){fn, context, 0, 1};
    p->queue[(p->head + p->count) % EXT_SLOTS] = slot;
    p->count++;
    atomic_fetch_add(&p->enqueued, 1);
    wf_cond_broadcast(&p->changed);
    wf_mutex_unlock(&p->lock);
    return &p->tasks[slot];
}

static void ext_wait(void* handle, void* user) {
    ext_pool* p = user;
    ext_task* t = handle;
    wf_mutex_lock(&p->lock);
    while (!t->done) {
        wf_cond_wait(&p->changed, &p->lock);
    }
    t->in_use = 0;
    atomic_fetch_add(&p->waited, 1);
    wf_mutex_unlock(&p->lock);
}

static void ext_start(ext_pool* p) {
    memset(p, 0, sizeof *p);
    assert_true(wf_mutex_init(&p->lock));
    assert_true(wf_cond_init(&p->changed));
    for (int i = 0; i < EXT_THREADS; ++i) {
        assert_true(wf_thread_create(&p->threads[i], ext_worker, p));
    }
}

static void ext_stop(ext_pool* p) {
    wf_mutex_lock(&p->lock);
    p->stop = 1;
    wf_cond_broadcast(&p->changed);
    wf_mutex_unlock(&p->lock);
    for (int i = 0; i < EXT_THREADS; ++i) {
        wf_thread_join(p->threads[i]);
    }
    wf_mutex_destroy(&p->lock);
    wf_cond_destroy(&p->changed);
}

typedef struct squares {
    uint64_t out[10000];
    atomic_uint max_worker;
} squares;

static void square_body(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    squares* s = context;
    unsigned seen = atomic_load(&s->max_worker);
    while (worker > seen && !atomic_compare_exchange_weak(&s->max_worker, &seen, worker)) {
    }
    for (uint32_t i = begin; i < end; ++i) {
        s->out[i] = (uint64_t)i * i;
    }
}

static void check_squares(const squares* s) {
    for (uint32_t i = 0; i < 10000; ++i) {
        assert_true(s->out[i] == (uint64_t)i * i);
    }
}

static void test_external_pool_runs_parallel_for(void** state) {
    (void)state;
    static ext_pool pool;
    ext_start(&pool);
    wf_job_system jobs = {
        .worker_count = EXT_THREADS + 1, .enqueue = ext_enqueue, .wait = ext_wait, .user = &pool};
    static squares s;
    for (int repeat = 0; repeat < 20; ++repeat) {
        memset(&s, 0, sizeof s);
        assert_int_equal(wf_jobs_parallel_for(&jobs, 10000, 32, square_body, &s), WF_OK);
        check_squares(&s);
        assert_true(atomic_load(&s.max_worker) < EXT_THREADS + 1);
    }
    // Every handle the library got was waited for exactly once.
    assert_true(atomic_load(&pool.enqueued) > 0);
    assert_int_equal(atomic_load(&pool.enqueued), atomic_load(&pool.waited));
    ext_stop(&pool);
}

static void background_square(void* context) {
    squares* s = context;
    square_body(0, 10000, 0, s);
}

static void test_external_pool_runs_background_tasks(void** state) {
    (void)state;
    static ext_pool pool;
    ext_start(&pool);
    wf_job_system jobs = {
        .worker_count = EXT_THREADS + 1, .enqueue = ext_enqueue, .wait = ext_wait, .user = &pool};
    static squares s[4];
    wf_job_task tasks[4];
    memset(tasks, 0, sizeof tasks);
    memset(s, 0, sizeof s);
    for (int i = 0; i < 4; ++i) {
        assert_int_equal(wf_jobs_submit(&jobs, &tasks[i], background_square, &s[i]), WF_OK);
    }
    for (int i = 0; i < 4; ++i) {
        while (!wf_jobs_task_is_done(&tasks[i])) {
            wf_thread_yield();
        }
        wf_jobs_wait_task(&jobs, &tasks[i]);
        check_squares(&s[i]);
    }
    assert_int_equal(atomic_load(&pool.enqueued), 4);
    assert_int_equal(atomic_load(&pool.waited), 4);
    ext_stop(&pool);
}

static void* run_now(wf_task_fn* fn, void* context, void* user) {
    atomic_fetch_add((atomic_uint*)user, 1);
    fn(context);
    return NULL;
}

static void must_not_wait(void* handle, void* user) {
    (void)handle;
    (void)user;
    fail_msg("wait called for a NULL handle");
}

static void test_scheduler_that_runs_inline(void** state) {
    (void)state;
    atomic_uint calls;
    atomic_init(&calls, 0);
    wf_job_system jobs = {
        .worker_count = 4, .enqueue = run_now, .wait = must_not_wait, .user = &calls};
    static squares s;
    memset(&s, 0, sizeof s);
    assert_int_equal(wf_jobs_parallel_for(&jobs, 10000, 1, square_body, &s), WF_OK);
    check_squares(&s);
    assert_int_equal(atomic_load(&calls), 3); // worker_count - 1 tasks; caller is the 4th
    wf_job_task task = {0};
    memset(&s, 0, sizeof s);
    assert_int_equal(wf_jobs_submit(&jobs, &task, background_square, &s), WF_OK);
    assert_true(wf_jobs_task_is_done(&task));
    wf_jobs_wait_task(&jobs, &task);
    check_squares(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_external_pool_runs_parallel_for),
        cmocka_unit_test(test_external_pool_runs_background_tasks),
        cmocka_unit_test(test_scheduler_that_runs_inline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
