// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Parallel loops and background tasks on top of any wf_job_system.
#include <stdatomic.h>
#include <string.h>

#include "navcore/check.h"
#include "navcore/jobs_internal.h"
#include "navcore/thread.h"

/// Blocks per worker: more than one so a worker that got slow items (or
/// started late) does not hold up the loop.
#define BLOCKS_PER_WORKER 16u

/// Most home shares a loop keeps (on the caller's stack, a cache line each);
/// workers beyond it share homes.
#define MAX_SHARES 32u

/// One worker's home share of the blocks: [begin, end) in one word (begin in
/// the low 32 bits), so the owner takes from the front and a thief from the
/// edge next to its own share, each with one compare-and-swap. A cache line
/// each: workers taking from their own shares never touch the same line.
typedef struct block_share {
    _Alignas(64) atomic_uint_least64_t range;
} block_share;

typedef struct parallel_loop {
    block_share shares[MAX_SHARES];
    wf_parallel_for_fn* fn;
    void* context;
    uint32_t count;
    uint32_t block_size;
    uint32_t share_count;
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

/// Takes the first (front) or last block of a share; false once it is empty.
static bool take_block(block_share* share, bool front, uint32_t* out) {
    uint64_t r = atomic_load_explicit(&share->range, memory_order_relaxed);
    for (;;) {
        uint32_t begin = (uint32_t)r, end = (uint32_t)(r >> 32);
        if (begin >= end) {
            return false;
        }
        uint64_t next = front ? r + 1u : r - ((uint64_t)1 << 32);
        if (atomic_compare_exchange_weak_explicit(&share->range, &r, next, memory_order_relaxed,
                                                  memory_order_relaxed)) {
            *out = front ? begin : end - 1u;
            return true;
        }
    }
}

static void run_block(const parallel_loop* loop, uint32_t block, uint32_t worker_index) {
    uint32_t begin = block * loop->block_size;
    uint32_t end = loop->count - begin < loop->block_size ? loop->count : begin + loop->block_size;
    loop->fn(begin, end, worker_index, loop->context);
}

// Each worker runs its home share (the same contiguous items in every loop
// of the same count, so the items' data stays in that core's cache from one
// loop to the next: a crowd update's phases), then helps the others, the
// nearest shares first, from the edge next to its own (what the owner runs
// last). A share never refills, so one sweep finds every block left.
static void run_blocks(parallel_loop* loop, uint32_t worker_index) {
    uint32_t home = worker_index % loop->share_count;
    uint32_t block;
    while (take_block(&loop->shares[home], true, &block)) {
        run_block(loop, block, worker_index);
    }
    for (uint32_t d = 1; d < loop->share_count; ++d) {
        if (home + d < loop->share_count) {
            while (take_block(&loop->shares[home + d], true, &block)) {
                run_block(loop, block, worker_index);
            }
        }
        if (home >= d) {
            while (take_block(&loop->shares[home - d], false, &block)) {
                run_block(loop, block, worker_index);
            }
        }
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

    parallel_loop loop; // shares past share_count stay unset
    loop.fn = fn;
    loop.context = context;
    loop.count = count;
    loop.block_size = block_size;
    loop.share_count = task_count < MAX_SHARES ? task_count : MAX_SHARES;
    for (uint32_t k = 0; k < loop.share_count; ++k) {
        uint64_t first = (uint64_t)block_count * k / loop.share_count;
        uint64_t last = (uint64_t)block_count * (k + 1u) / loop.share_count;
        atomic_init(&loop.shares[k].range, first | (last << 32));
    }
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
