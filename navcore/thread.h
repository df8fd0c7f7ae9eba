// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Threads, mutexes and condition variables for the built-in pool: C11
// threads.h. Under thread sanitizer only, the same calls map to pthreads:
// glibc implements C11 threads by calling its pthreads internally, which TSan
// cannot intercept, so it would neither register the threads nor see the
// locks. The semantics used here are identical in both.
#ifndef WF_NAVCORE_THREAD_H
#define WF_NAVCORE_THREAD_H

#include <stdbool.h>

#if defined(__SANITIZE_THREAD__)
#define WF_THREAD_USE_PTHREADS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define WF_THREAD_USE_PTHREADS 1
#endif
#endif

#ifdef WF_THREAD_USE_PTHREADS
#include <pthread.h>
#include <sched.h>

typedef pthread_t wf_thread;
typedef pthread_mutex_t wf_mutex;
typedef pthread_cond_t wf_cond;
/// Entry point of a thread: declare as `WF_THREAD_MAIN(name, arg)`.
#define WF_THREAD_MAIN(name, arg) void* name(void* arg)
#define WF_THREAD_MAIN_END return NULL
typedef void* wf_thread_main(void*);

static inline bool wf_thread_create(wf_thread* t, wf_thread_main* fn, void* arg) {
    return pthread_create(t, NULL, fn, arg) == 0;
}
static inline void wf_thread_join(wf_thread t) { pthread_join(t, NULL); }
static inline void wf_thread_yield(void) { sched_yield(); }
static inline bool wf_mutex_init(wf_mutex* m) { return pthread_mutex_init(m, NULL) == 0; }
static inline void wf_mutex_destroy(wf_mutex* m) { pthread_mutex_destroy(m); }
static inline void wf_mutex_lock(wf_mutex* m) { pthread_mutex_lock(m); }
static inline void wf_mutex_unlock(wf_mutex* m) { pthread_mutex_unlock(m); }
static inline bool wf_cond_init(wf_cond* c) { return pthread_cond_init(c, NULL) == 0; }
static inline void wf_cond_destroy(wf_cond* c) { pthread_cond_destroy(c); }
static inline void wf_cond_wait(wf_cond* c, wf_mutex* m) { pthread_cond_wait(c, m); }
static inline void wf_cond_signal(wf_cond* c) { pthread_cond_signal(c); }
static inline void wf_cond_broadcast(wf_cond* c) { pthread_cond_broadcast(c); }
#else
#include <threads.h>

typedef thrd_t wf_thread;
typedef mtx_t wf_mutex;
typedef cnd_t wf_cond;
#define WF_THREAD_MAIN(name, arg) int name(void* arg)
#define WF_THREAD_MAIN_END return 0
typedef int wf_thread_main(void*);

static inline bool wf_thread_create(wf_thread* t, wf_thread_main* fn, void* arg) {
    return thrd_create(t, fn, arg) == thrd_success;
}
static inline void wf_thread_join(wf_thread t) { thrd_join(t, NULL); }
static inline void wf_thread_yield(void) { thrd_yield(); }
static inline bool wf_mutex_init(wf_mutex* m) { return mtx_init(m, mtx_plain) == thrd_success; }
static inline void wf_mutex_destroy(wf_mutex* m) { mtx_destroy(m); }
static inline void wf_mutex_lock(wf_mutex* m) { mtx_lock(m); }
static inline void wf_mutex_unlock(wf_mutex* m) { mtx_unlock(m); }
static inline bool wf_cond_init(wf_cond* c) { return cnd_init(c) == thrd_success; }
static inline void wf_cond_destroy(wf_cond* c) { cnd_destroy(c); }
static inline void wf_cond_wait(wf_cond* c, wf_mutex* m) { cnd_wait(c, m); }
static inline void wf_cond_signal(wf_cond* c) { cnd_signal(c); }
static inline void wf_cond_broadcast(wf_cond* c) { cnd_broadcast(c); }
#endif

#endif
