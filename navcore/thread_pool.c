// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The built-in thread pool: the configured thread backend (navcore/thread.h),
// one lock, two FIFO queues (parallel loop tasks first, background tasks
// second), sleeping idle workers.
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>
#include <string.h>
#ifdef _WIN32
// GetActiveProcessorCount: Windows 7.
#if !defined(_WIN32_WINNT) || _WIN32_WINNT < 0x0601
#undef _WIN32_WINNT
#define _WIN32_WINNT 0x0601
#endif
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#else
#include <unistd.h>
#endif

#include "navcore/alloc.h"
#include "navcore/check.h"
#include "navcore/clock.h"
#include "navcore/jobs_internal.h"
#include "navcore/log.h"
#include "navcore/thread.h"

#define DEFAULT_QUEUE_CAPACITY 1024u
#define NO_TASK 0xffffffffu

enum { SLOT_FREE, SLOT_QUEUED, SLOT_RUNNING, SLOT_DONE };

typedef struct pool_task {
    wf_task_fn* fn;
    void* context;
    uint32_t state;
    bool background;
} pool_task;

/// Fixed-size FIFO of task slot indices. Entries may be set to NO_TASK when
/// a waiter takes its own background task out of order.
typedef struct task_ring {
    uint32_t* items;
    uint32_t head;
    uint32_t count;
} task_ring;

struct wf_thread_pool {
    wf_allocator allocator;
    wf_logger logger;
    uint32_t thread_count;
    uint32_t capacity;
    wf_thread* threads;
    wf_mutex lock;
    wf_cond work_ready; // signalled when a task is queued or on shutdown
    wf_cond task_done;  // broadcast when any task finishes
    pool_task* tasks;
    uint32_t* free_slots;
    uint32_t free_count;
    task_ring loops;      // parallel_for and other short tasks
    task_ring background; // wf_jobs_submit tasks
    bool shutting_down;
    wf_thread_pool_stats stats;
    // Read without the lock by threads that spin briefly before sleeping
    // (every decision is taken again under the lock).
    atomic_uint queued;   ///< tasks in the two rings
    atomic_uint finished; ///< tasks finished so far (wraps)
    atomic_bool stopping;
};

/// How long an idle thread keeps polling for work before it sleeps: a
/// crowd update runs a dozen short parallel loops per frame, and waking a
/// sleeping thread costs more than the gap between two of them.
#define SPIN_US 50.0

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/// Polls (without the lock) until `done` says so or SPIN_US pass.
static void spin_until(wf_thread_pool* pool, bool (*done)(wf_thread_pool*, unsigned),
                       unsigned arg) {
    double start = wf_clock_us();
    for (uint32_t k = 1;; ++k) {
        if (done(pool, arg) || atomic_load_explicit(&pool->stopping, memory_order_relaxed)) {
            return;
        }
        cpu_relax();
        if ((k & 31u) == 0 && wf_clock_us() - start > SPIN_US) {
            return;
        }
    }
}

static bool work_queued(wf_thread_pool* pool, unsigned unused) {
    (void)unused;
    return atomic_load_explicit(&pool->queued, memory_order_acquire) > 0;
}

static bool task_finished_since(wf_thread_pool* pool, unsigned finished) {
    return atomic_load_explicit(&pool->finished, memory_order_acquire) != finished ||
           work_queued(pool, 0);
}

static uint32_t processor_count(void) {
#ifdef _WIN32
    // Every processor group, not only the caller's (machines over 64 cores).
    DWORD n = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
    return n < 1 ? 1u : (uint32_t)n;
#else
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : (uint32_t)n;
#endif
}

wf_thread_pool_desc wf_thread_pool_desc_defaults(const wf_thread_pool_desc* desc) {
    wf_thread_pool_desc d;
    memset(&d, 0, sizeof d);
    if (desc != NULL) {
        d = *desc;
    }
    if (d.thread_count == 0) {
        d.thread_count = processor_count() - 1u;
        if (d.thread_count > WF_JOBS_MAX_WORKERS - 1u) {
            d.thread_count = WF_JOBS_MAX_WORKERS - 1u;
        }
    }
    if (d.queue_capacity == 0) {
        d.queue_capacity = DEFAULT_QUEUE_CAPACITY;
    }
    return d;
}

static void ring_push(task_ring* ring, uint32_t capacity, uint32_t slot) {
    ring->items[(ring->head + ring->count) % capacity] = slot;
    ring->count++;
}

static uint32_t ring_pop(task_ring* ring, uint32_t capacity) {
    while (ring->count > 0) {
        uint32_t slot = ring->items[ring->head];
        ring->head = (ring->head + 1u) % capacity;
        ring->count--;
        if (slot != NO_TASK) {
            return slot;
        }
    }
    return NO_TASK;
}

/// ring_pop for the pool's rings, keeping the lock-free count in step.
static uint32_t pool_pop(wf_thread_pool* pool, task_ring* ring) {
    uint32_t slot = ring_pop(ring, pool->capacity);
    if (slot != NO_TASK) {
        atomic_fetch_sub_explicit(&pool->queued, 1u, memory_order_relaxed);
    }
    return slot;
}

static bool ring_take(task_ring* ring, uint32_t capacity, uint32_t slot) {
    for (uint32_t i = 0; i < ring->count; ++i) {
        uint32_t* item = &ring->items[(ring->head + i) % capacity];
        if (*item == slot) {
            *item = NO_TASK;
            return true;
        }
    }
    return false;
}

// Called with the lock held; returns with it held.
static void run_locked(wf_thread_pool* pool, uint32_t slot) {
    pool_task* t = &pool->tasks[slot];
    t->state = SLOT_RUNNING;
    wf_task_fn* fn = t->fn;
    void* context = t->context;
    wf_mutex_unlock(&pool->lock);
    fn(context);
    wf_mutex_lock(&pool->lock);
    pool->tasks[slot].state = SLOT_DONE;
    atomic_fetch_add_explicit(&pool->finished, 1u, memory_order_release);
    wf_cond_broadcast(&pool->task_done);
}

static WF_THREAD_MAIN(worker_main, arg) {
    wf_thread_pool* pool = arg;
    wf_mutex_lock(&pool->lock);
    bool busy = false; // ran a task since it last slept
    for (;;) {
        uint32_t slot = pool_pop(pool, &pool->loops);
        if (slot == NO_TASK) {
            slot = pool_pop(pool, &pool->background);
        }
        if (slot != NO_TASK) {
            run_locked(pool, slot);
            busy = true;
            continue;
        }
        if (pool->shutting_down) {
            break;
        }
        if (busy) {
            // More work is likely on its way (the next loop of a frame).
            busy = false;
            wf_mutex_unlock(&pool->lock);
            spin_until(pool, work_queued, 0);
            wf_mutex_lock(&pool->lock);
            continue;
        }
        pool->stats.sleeps++;
        wf_cond_wait(&pool->work_ready, &pool->lock);
    }
    wf_mutex_unlock(&pool->lock);
    WF_THREAD_MAIN_END;
}

static void* pool_enqueue(wf_task_fn* fn, void* context, void* user) {
    wf_thread_pool* pool = user;
    wf_mutex_lock(&pool->lock);
    if (pool->free_count == 0) {
        // Full: run it here rather than drop it or block (blocking could
        // deadlock when every worker waits on tasks still to be queued).
        pool->stats.tasks_run_inline++;
        wf_mutex_unlock(&pool->lock);
        fn(context);
        return NULL;
    }
    uint32_t slot = pool->free_slots[--pool->free_count];
    bool background = fn == wf_jobs_background_trampoline;
    pool->tasks[slot] =
        (pool_task){.fn = fn, .context = context, .state = SLOT_QUEUED, .background = background};
    ring_push(background ? &pool->background : &pool->loops, pool->capacity, slot);
    atomic_fetch_add_explicit(&pool->queued, 1u, memory_order_release);
    pool->stats.tasks_enqueued++;
    wf_cond_signal(&pool->work_ready);
    wf_mutex_unlock(&pool->lock);
    return (void*)(uintptr_t)(slot + 1u);
}

static void pool_wait(void* handle, void* user) {
    wf_thread_pool* pool = user;
    uint32_t slot = (uint32_t)((uintptr_t)handle - 1u);
    wf_mutex_lock(&pool->lock);
    pool_task* t = &pool->tasks[slot];
    bool spun = false;
    while (t->state != SLOT_DONE) {
        // Our own background task, still queued: run it rather than wait
        // (it may be queued behind work that waits on us).
        if (t->state == SLOT_QUEUED && t->background &&
            ring_take(&pool->background, pool->capacity, slot)) {
            atomic_fetch_sub_explicit(&pool->queued, 1u, memory_order_relaxed);
            run_locked(pool, slot);
            continue;
        }
        // Help with short tasks, never with others' background builds.
        uint32_t other = pool_pop(pool, &pool->loops);
        if (other != NO_TASK) {
            pool->stats.tasks_run_by_waiters++;
            run_locked(pool, other);
            continue;
        }
        if (!spun) {
            // The task is likely about to finish: poll before sleeping.
            spun = true;
            unsigned finished = atomic_load_explicit(&pool->finished, memory_order_acquire);
            wf_mutex_unlock(&pool->lock);
            spin_until(pool, task_finished_since, finished);
            wf_mutex_lock(&pool->lock);
            continue;
        }
        wf_cond_wait(&pool->task_done, &pool->lock);
    }
    t->state = SLOT_FREE;
    pool->free_slots[pool->free_count++] = slot;
    wf_mutex_unlock(&pool->lock);
}

static size_t pool_memory_bytes(uint32_t thread_count, uint32_t capacity) {
    return sizeof(wf_thread_pool) + sizeof(wf_thread) * (size_t)thread_count +
           sizeof(pool_task) * (size_t)capacity + 3u * sizeof(uint32_t) * (size_t)capacity;
}

static void free_arrays(wf_thread_pool* pool) {
    const wf_allocator* a = &pool->allocator;
    WF_FREE_ARRAY(a, pool->threads, wf_thread, pool->thread_count);
    WF_FREE_ARRAY(a, pool->tasks, pool_task, pool->capacity);
    WF_FREE_ARRAY(a, pool->free_slots, uint32_t, pool->capacity);
    WF_FREE_ARRAY(a, pool->loops.items, uint32_t, pool->capacity);
    WF_FREE_ARRAY(a, pool->background.items, uint32_t, pool->capacity);
}

// Stops and joins the first `started` threads.
static void stop_threads(wf_thread_pool* pool, uint32_t started) {
    wf_mutex_lock(&pool->lock);
    pool->shutting_down = true;
    atomic_store_explicit(&pool->stopping, true, memory_order_relaxed);
    wf_cond_broadcast(&pool->work_ready);
    wf_mutex_unlock(&pool->lock);
    for (uint32_t i = 0; i < started; ++i) {
        wf_thread_join(pool->threads[i]);
    }
}

wf_status wf_thread_pool_create(const wf_thread_pool_desc* desc, wf_thread_pool** out) {
    WF_CHECK_ARG(desc != NULL && out != NULL);
    WF_CHECK_DESC(&desc->logger, "thread pool", desc->thread_count < WF_JOBS_MAX_WORKERS,
                  "thread_count must be below WF_JOBS_MAX_WORKERS");
    wf_thread_pool_desc d = wf_thread_pool_desc_defaults(desc);
    wf_allocator allocator;
    WF_CHECK_DESC(&desc->logger, "thread pool",
                  wf_allocator_resolve(&desc->allocator, &allocator) == WF_OK,
                  "allocator: alloc and free must be both set or both NULL");

    wf_thread_pool* pool = wf_alloc_zeroed(&allocator, sizeof *pool, _Alignof(wf_thread_pool));
    if (pool == NULL) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    pool->allocator = allocator;
    pool->logger = d.logger;
    atomic_init(&pool->queued, 0u);
    atomic_init(&pool->finished, 0u);
    atomic_init(&pool->stopping, false);
    pool->thread_count = d.thread_count;
    pool->capacity = d.queue_capacity;
    const wf_allocator* a = &pool->allocator;
    pool->threads = WF_ALLOC_ARRAY(a, wf_thread, d.thread_count);
    pool->tasks = WF_ALLOC_ARRAY(a, pool_task, d.queue_capacity);
    pool->free_slots = WF_ALLOC_ARRAY(a, uint32_t, d.queue_capacity);
    pool->loops.items = WF_ALLOC_ARRAY(a, uint32_t, d.queue_capacity);
    pool->background.items = WF_ALLOC_ARRAY(a, uint32_t, d.queue_capacity);
    if ((d.thread_count > 0 && pool->threads == NULL) || pool->tasks == NULL ||
        pool->free_slots == NULL || pool->loops.items == NULL || pool->background.items == NULL) {
        free_arrays(pool);
        wf_free(a, pool, sizeof *pool, _Alignof(wf_thread_pool));
        return WF_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < d.queue_capacity; ++i) {
        pool->free_slots[i] = d.queue_capacity - 1u - i; // pop order 0, 1, 2, ...
    }
    pool->free_count = d.queue_capacity;
    pool->stats.memory_bytes = pool_memory_bytes(d.thread_count, d.queue_capacity);

    wf_status status = WF_OK;
    bool have_lock = wf_mutex_init(&pool->lock);
    bool have_ready = wf_cond_init(&pool->work_ready);
    bool have_done = wf_cond_init(&pool->task_done);
    uint32_t started = 0;
    if (!have_lock || !have_ready || !have_done) {
        status = WF_ERR_THREAD;
    }
    while (status == WF_OK && started < d.thread_count) {
        if (!wf_thread_create(&pool->threads[started], worker_main, pool)) {
            wf_log(&pool->logger, WF_LOG_ERROR, "thread pool: could not start thread %u of %u",
                   started + 1u, d.thread_count);
            status = WF_ERR_THREAD;
            break;
        }
        started++;
    }
    if (status != WF_OK) {
        if (have_lock && have_ready) {
            stop_threads(pool, started);
        }
        if (have_lock) {
            wf_mutex_destroy(&pool->lock);
        }
        if (have_ready) {
            wf_cond_destroy(&pool->work_ready);
        }
        if (have_done) {
            wf_cond_destroy(&pool->task_done);
        }
        free_arrays(pool);
        wf_free(a, pool, sizeof *pool, _Alignof(wf_thread_pool));
        return status;
    }
    *out = pool;
    return WF_OK;
}

void wf_thread_pool_destroy(wf_thread_pool* pool) {
    if (pool == NULL) {
        return;
    }
    stop_threads(pool, pool->thread_count);
    // With no threads nothing is ever queued; with threads, workers drained
    // both queues before they exited.
    wf_mutex_destroy(&pool->lock);
    wf_cond_destroy(&pool->work_ready);
    wf_cond_destroy(&pool->task_done);
    wf_allocator allocator = pool->allocator;
    free_arrays(pool);
    wf_free(&allocator, pool, sizeof *pool, _Alignof(wf_thread_pool));
}

wf_job_system wf_thread_pool_job_system(wf_thread_pool* pool) {
    wf_job_system jobs;
    memset(&jobs, 0, sizeof jobs);
    if (pool != NULL && pool->thread_count > 0) {
        jobs.worker_count = pool->thread_count + 1u;
        jobs.enqueue = pool_enqueue;
        jobs.wait = pool_wait;
        jobs.user = pool;
    } else {
        jobs.worker_count = 1;
    }
    return jobs;
}

uint32_t wf_thread_pool_thread_count(const wf_thread_pool* pool) {
    return pool != NULL ? pool->thread_count : 0u;
}

wf_thread_pool_stats wf_thread_pool_get_stats(wf_thread_pool* pool) {
    wf_thread_pool_stats stats;
    memset(&stats, 0, sizeof stats);
    if (pool != NULL) {
        wf_mutex_lock(&pool->lock);
        stats = pool->stats;
        wf_mutex_unlock(&pool->lock);
    }
    return stats;
}
