// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Parallel loops and background tasks on top of any wf_job_system.
#include <stdatomic.h>
#include <string.h>

#include "navcore/check.h"
#include "navcore/jobs_internal.h"
#include "navcore/thread.h"

/// Blocks per worker: more than one so a worker that got slow items (or
/// started late) does not hold up the loop, few enough that the shared
/// counter is not contended.
#define BLOCKS_PER_WORKER 16u

typedef struct parallel_loop {
    wf_parallel_for_fn* fn;
    void* context;
    uint32_t count;
    uint32_t block_size;
    uint32_t block_count;
    atomic_uint next_block;
    atomic_uint next_worker;
} parallel_loop;

static bool runs_inline(const wf_job_system* jobs) {
    return jobs == NULL || jobs->enqueue == NULL || jobs->worker_count <= 1;
}

uint32_t wf_jobs_worker_count(const wf_job_system* jobs) {
    if (runs_inline(jobs)) {
        return 1;
    }
    return jobs->worker_count < WF_JOBS_MAX_WORKERS ? jobs->worker_count : WF_JOBS_MAX_WORKERS;
}

// Each task claims blocks from a shared counter until none are left, so the
// split adapts to however many threads actually show up.
static void run_blocks(parallel_loop* loop, uint32_t worker_index) {
    for (;;) {
        uint32_t block = atomic_fetch_add_explicit(&loop->next_block, 1u, memory_order_relaxed);
        if (block >= loop->block_count) {
            return;
        }
        uint32_t begin = block * loop->block_size;
        uint32_t end =
            loop->count - begin < loop->block_size ? loop->count : begin + loop->block_size;
        loop->fn(begin, end, worker_index, loop->context);
    }
}

static void loop_task(void* context) {
    parallel_loop* loop = context;
    uint32_t worker_index = atomic_fetch_add_explicit(&loop->next_worker, 1u, memory_order_relaxed);
    run_blocks(loop, worker_index);
}

wf_status wf_jobs_parallel_for(const wf_job_system* jobs, uint32_t count, uint32_t min_block,
                               wf_parallel_for_fn* fn, void* context) {
    WF_CHECK_ARG(fn != NULL);
    WF_CHECK_ARG(jobs == NULL || jobs->enqueue == NULL || jobs->wait != NULL);
    if (count == 0) {
        return WF_OK;
    }
    uint32_t workers = wf_jobs_worker_count(jobs);
    if (min_block == 0) {
        min_block = 1;
    }
    if (workers == 1 || count <= min_block) {
        fn(0, count, 0, context);
        return WF_OK;
    }
    uint64_t target_blocks = (uint64_t)workers * BLOCKS_PER_WORKER;
    uint32_t block_size = (uint32_t)(((uint64_t)count + target_blocks - 1u) / target_blocks);
    if (block_size < min_block) {
        block_size = min_block;
    }
    uint32_t block_count = (uint32_t)(((uint64_t)count + block_size - 1u) / block_size);
    uint32_t task_count = block_count < workers ? block_count : workers;

    parallel_loop loop = {.fn = fn,
                          .context = context,
                          .count = count,
                          .block_size = block_size,
                          .block_count = block_count};
    atomic_init(&loop.next_block, 0u);
    atomic_init(&loop.next_worker, 1u); // the caller is worker 0

    void* handles[WF_JOBS_MAX_WORKERS];
    for (uint32_t t = 1; t < task_count; ++t) {
        handles[t] = jobs->enqueue(loop_task, &loop, jobs->user);
    }
    run_blocks(&loop, 0);
    for (uint32_t t = 1; t < task_count; ++t) {
        if (handles[t] != NULL) {
            jobs->wait(handles[t], jobs->user);
        }
    }
    return WF_OK;
}

enum { TASK_IDLE = 0, TASK_PENDING = 1, TASK_DONE = 2 };

typedef struct task_state {
    wf_task_fn* fn;
    void* context;
    void* handle;
    atomic_uint state;
} task_state;

_Static_assert(sizeof(task_state) <= sizeof(((wf_job_task*)0)->opaque),
               "wf_job_task storage too small");

static task_state* state_of(const wf_job_task* task) {
    return (task_state*)(void*)task->opaque.bytes;
}

void wf_jobs_background_trampoline(void* context) {
    task_state* s = context;
    s->fn(s->context);
    // Release: whoever sees DONE also sees everything fn wrote.
    atomic_store_explicit(&s->state, TASK_DONE, memory_order_release);
}

wf_status wf_jobs_submit(const wf_job_system* jobs, wf_job_task* task, wf_task_fn* fn,
                         void* context) {
    WF_CHECK_ARG(task != NULL && fn != NULL);
    WF_CHECK_ARG(jobs == NULL || jobs->enqueue == NULL || jobs->wait != NULL);
    task_state* s = state_of(task);
    if (atomic_load_explicit(&s->state, memory_order_acquire) != TASK_IDLE) {
        return WF_ERR_BUSY;
    }
    s->fn = fn;
    s->context = context;
    s->handle = NULL;
    atomic_store_explicit(&s->state, TASK_PENDING, memory_order_relaxed);
    if (runs_inline(jobs)) {
        wf_jobs_background_trampoline(s);
        return WF_OK;
    }
    s->handle = jobs->enqueue(wf_jobs_background_trampoline, s, jobs->user);
    return WF_OK;
}

bool wf_jobs_task_is_done(const wf_job_task* task) {
    return task == NULL ||
           atomic_load_explicit(&state_of(task)->state, memory_order_acquire) != TASK_PENDING;
}

void wf_jobs_wait_task(const wf_job_system* jobs, wf_job_task* task) {
    if (task == NULL) {
        return;
    }
    task_state* s = state_of(task);
    if (atomic_load_explicit(&s->state, memory_order_acquire) == TASK_IDLE) {
        return;
    }
    if (s->handle != NULL && jobs != NULL && jobs->wait != NULL) {
        jobs->wait(s->handle, jobs->user);
    }
    // The scheduler's wait synchronises with the task's end; this acquire
    // covers schedulers that ran it inline.
    while (atomic_load_explicit(&s->state, memory_order_acquire) != TASK_DONE) {
        // Only reachable if a user scheduler's wait returned early, which its
        // contract forbids: stay correct, yielding the core meanwhile.
        wf_thread_yield();
    }
    s->handle = NULL;
    atomic_store_explicit(&s->state, TASK_IDLE, memory_order_relaxed);
}
