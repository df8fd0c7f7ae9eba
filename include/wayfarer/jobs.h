// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
/*
 * Jobs: how Wayfarer runs work on several threads.
 *
 * Every object that can use threads takes a wf_job_system in its desc. It is
 * four fields: a worker count, an enqueue callback, a wait callback and a user
 * pointer. All zero means "run everything inline on the calling thread". The
 * game can plug in its own scheduler, or use the built-in pool:
 *
 *     wf_thread_pool* pool;
 *     wf_status s = wf_thread_pool_create(&(wf_thread_pool_desc){0}, &pool);
 *     wf_job_system jobs = wf_thread_pool_job_system(pool);
 *     ... pass `jobs` in crowd / tile cache descs ...
 *     wf_thread_pool_destroy(pool);   // after every user of `jobs` is gone
 *
 * wf_jobs_parallel_for splits [0, count) into blocks run on up to
 * worker_count threads (the caller is one of them) and returns when all are
 * done. Background tasks (wf_jobs_submit) run while the caller goes on; poll
 * or wait for them later, e.g. next frame.
 *
 * Threads: wf_jobs_* and the pool's job system may be called from any thread,
 * including from inside a running task (nested parallel loops work: the
 * waiting thread runs queued tasks instead of blocking). The pool itself is
 * created and destroyed by one owner thread.
 */
#ifndef WAYFARER_JOBS_H
#define WAYFARER_JOBS_H

#include "wayfarer/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A unit of work handed to a scheduler.
typedef void wf_task_fn(void* task_context);

/// The scheduler interface. Contract for a user implementation:
/// - enqueue runs `task(task_context)` once, on any thread, and returns a
///   non-NULL handle; or it runs the task before returning and returns NULL.
/// - wait(handle) returns after that task has finished; it is called exactly
///   once per non-NULL handle, possibly from another thread than enqueue, and
///   may run other tasks meanwhile. It must not wait for unrelated tasks.
/// - worker_count is how many tasks may run at once, counting the thread that
///   calls wait; it sizes per-worker scratch (0 or 1 = serial).
/// enqueue NULL (or worker_count <= 1) runs everything inline.
typedef struct wf_job_system {
    uint32_t worker_count;
    void* (*enqueue)(wf_task_fn* task, void* task_context, void* user);
    void (*wait)(void* handle, void* user);
    void* user;
} wf_job_system;

/// Most tasks one parallel_for starts; worker_index stays below this too.
#define WF_JOBS_MAX_WORKERS 256u

/// Body of a parallel loop: handles items [begin, end). worker_index is
/// below wf_jobs_worker_count(jobs) and no two blocks running at the same
/// time within one call share it, so it can pick per-worker scratch.
typedef void wf_parallel_for_fn(uint32_t begin, uint32_t end, uint32_t worker_index, void* context);

/// Number of distinct worker indices parallel_for may pass (>= 1).
/// NULL jobs gives 1.
WF_API uint32_t wf_jobs_worker_count(const wf_job_system* jobs);

/// Runs fn over [0, count) in blocks of at least min_block items (0 = 1)
/// and returns when every item is done. jobs may be NULL (inline). Items in
/// one block run in order; blocks run in any order on any worker, so fn must
/// write only per-item or per-worker state for results to be identical for
/// every worker count. count 0 returns WF_OK without calling fn.
/// WF_ERR_INVALID_ARG: fn NULL, or enqueue set without wait.
WF_NODISCARD WF_API wf_status wf_jobs_parallel_for(const wf_job_system* jobs, uint32_t count,
                                                   uint32_t min_block, wf_parallel_for_fn* fn,
                                                   void* context);

/// A background task: storage owned by the caller, opaque, must stay in
/// place from submit until wait returns. Zero-initialise before first use.
typedef struct wf_job_task {
    union {
        void* pointer_alignment;
        uint64_t integer_alignment;
        unsigned char bytes[48];
    } opaque;
} wf_job_task;

/// Starts fn(context) on the job system and returns at once (with no
/// workers, fn runs before this returns). Every successful submit must be
/// followed by exactly one wf_jobs_wait_task before `task` is reused.
/// WF_ERR_INVALID_ARG: task or fn NULL; WF_ERR_BUSY: task still pending.
WF_NODISCARD WF_API wf_status wf_jobs_submit(const wf_job_system* jobs, wf_job_task* task,
                                             wf_task_fn* fn, void* context);

/// True once the submitted function has returned. Never blocks. After this
/// turns true the caller may read what the task wrote.
WF_API bool wf_jobs_task_is_done(const wf_job_task* task);

/// Blocks until the task has finished (helping with other work meanwhile)
/// and releases it; `task` may then be submitted again. Waiting for a task
/// that was never submitted, or was already waited for, returns at once.
WF_API void wf_jobs_wait_task(const wf_job_system* jobs, wf_job_task* task);

/*
 * Built-in thread pool on C11 threads. Idle threads sleep on a condition
 * variable. Tasks are taken first come, first served; a thread waiting for a
 * parallel_for runs that loop's queued tasks (and other short tasks) itself,
 * but never background tasks other than the one it waits for, so a frame's
 * parallel loop is not held up by a long background build.
 */
typedef struct wf_thread_pool wf_thread_pool;

typedef struct wf_thread_pool_desc {
    /// Threads to start; 0 = processor cores - 1 (the caller is the last
    /// worker). At most WF_JOBS_MAX_WORKERS - 1. A pool with no thread runs
    /// everything inline.
    uint32_t thread_count;
    /// Tasks that may be queued or running at once; 0 = 1024. When full,
    /// enqueue runs the task on the calling thread (never dropped).
    uint32_t queue_capacity;
    wf_allocator allocator;
    wf_logger logger;
} wf_thread_pool_desc;

/// Resolved defaults of a desc (thread_count from the processor count).
WF_API wf_thread_pool_desc wf_thread_pool_desc_defaults(const wf_thread_pool_desc* desc);

/// Starts the threads. WF_ERR_INVALID_ARG for a bad desc or allocator,
/// WF_ERR_OUT_OF_MEMORY, WF_ERR_THREAD if the OS refuses a thread (all
/// started threads are joined again and *out stays untouched).
WF_NODISCARD WF_API wf_status wf_thread_pool_create(const wf_thread_pool_desc* desc,
                                                    wf_thread_pool** out);

/// Finishes every queued task, joins the threads and frees the pool.
/// NULL is ignored. No other thread may use the pool meanwhile.
WF_API void wf_thread_pool_destroy(wf_thread_pool* pool);

/// The pool as a job system: worker_count = thread_count + 1.
WF_API wf_job_system wf_thread_pool_job_system(wf_thread_pool* pool);

/// Threads the pool started.
WF_API uint32_t wf_thread_pool_thread_count(const wf_thread_pool* pool);

/// Counters, for tests and tuning (approximate while tasks run).
typedef struct wf_thread_pool_stats {
    uint64_t tasks_enqueued;       ///< tasks accepted into the queue
    uint64_t tasks_run_inline;     ///< tasks run by enqueue because the queue was full
    uint64_t tasks_run_by_waiters; ///< queued tasks run by a thread inside wait
    uint64_t sleeps;               ///< times a worker went to sleep for lack of work
    size_t memory_bytes;           ///< bytes the pool holds from its allocator
} wf_thread_pool_stats;

WF_API wf_thread_pool_stats wf_thread_pool_get_stats(wf_thread_pool* pool);

#ifdef __cplusplus
}
#endif

#endif // WAYFARER_JOBS_H
