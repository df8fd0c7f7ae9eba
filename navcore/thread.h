// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Threads, mutexes and condition variables for the built-in pool, on one of
// three backends chosen at configure time (meson option `threads`, passed as
// WF_THREADS_C11, WF_THREADS_PTHREADS or WF_THREADS_WIN32): C11 threads.h,
// POSIX threads, or the Win32 API. The semantics used are the same on all
// three: plain (non-recursive) mutexes, condition variables that may wake
// spuriously (every wait is in a loop), joinable threads.
//
// Thread sanitizer forces pthreads: glibc implements C11 threads by calling
// its pthreads internally, which TSan cannot intercept, so it would neither
// register the threads nor see the locks.
#ifndef WF_NAVCORE_THREAD_H
#define WF_NAVCORE_THREAD_H

#include <stdbool.h>

// Without a configured choice (a build outside meson): what `auto` picks.
#if !defined(WF_THREADS_C11) && !defined(WF_THREADS_PTHREADS) && !defined(WF_THREADS_WIN32)
#if defined(_WIN32)
#define WF_THREADS_WIN32 1
#elif defined(__STDC_NO_THREADS__)
#define WF_THREADS_PTHREADS 1
#else
#define WF_THREADS_C11 1
#endif
#endif

#if defined(__SANITIZE_THREAD__)
#define WF_THREAD_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define WF_THREAD_TSAN 1
#endif
#endif
#if defined(WF_THREAD_TSAN) && defined(WF_THREADS_C11)
#undef WF_THREADS_C11
#define WF_THREADS_PTHREADS 1
#endif

#if defined(WF_THREADS_WIN32)
// SRW locks and condition variables need Windows Vista (0x0600) or later.
#if !defined(_WIN32_WINNT) || _WIN32_WINNT < 0x0600
#undef _WIN32_WINNT
#define _WIN32_WINNT 0x0600
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>

typedef HANDLE wf_thread;
typedef DWORD wf_thread_id;
typedef SRWLOCK wf_mutex;
typedef CONDITION_VARIABLE wf_cond;
/// Entry point of a thread: declare as `WF_THREAD_MAIN(name, arg)`.
#define WF_THREAD_MAIN(name, arg) DWORD WINAPI name(LPVOID arg)
#define WF_THREAD_MAIN_END return 0
typedef DWORD WINAPI wf_thread_main(LPVOID);

static inline bool wf_thread_create(wf_thread* t, wf_thread_main* fn, void* arg) {
    *t = CreateThread(NULL, 0, fn, arg, 0, NULL);
    return *t != NULL;
}
static inline void wf_thread_join(wf_thread t) {
    WaitForSingleObject(t, INFINITE);
    CloseHandle(t);
}
static inline void wf_thread_yield(void) { SwitchToThread(); }
static inline wf_thread_id wf_thread_self(void) { return GetCurrentThreadId(); }
static inline bool wf_thread_id_equal(wf_thread_id a, wf_thread_id b) { return a == b; }
// SRW locks and condition variables need no destruction and cannot fail.
static inline bool wf_mutex_init(wf_mutex* m) {
    InitializeSRWLock(m);
    return true;
}
static inline void wf_mutex_destroy(wf_mutex* m) { (void)m; }
static inline void wf_mutex_lock(wf_mutex* m) { AcquireSRWLockExclusive(m); }
static inline void wf_mutex_unlock(wf_mutex* m) { ReleaseSRWLockExclusive(m); }
static inline bool wf_cond_init(wf_cond* c) {
    InitializeConditionVariable(c);
    return true;
}
static inline void wf_cond_destroy(wf_cond* c) { (void)c; }
static inline void wf_cond_wait(wf_cond* c, wf_mutex* m) {
    SleepConditionVariableSRW(c, m, INFINITE, 0);
}
static inline void wf_cond_signal(wf_cond* c) { WakeConditionVariable(c); }
static inline void wf_cond_broadcast(wf_cond* c) { WakeAllConditionVariable(c); }

#elif defined(WF_THREADS_PTHREADS)
#include <pthread.h>
#include <sched.h>

typedef pthread_t wf_thread;
typedef pthread_t wf_thread_id;
typedef pthread_mutex_t wf_mutex;
typedef pthread_cond_t wf_cond;
#define WF_THREAD_MAIN(name, arg) void* name(void* arg)
#define WF_THREAD_MAIN_END return NULL
typedef void* wf_thread_main(void*);

static inline bool wf_thread_create(wf_thread* t, wf_thread_main* fn, void* arg) {
    return pthread_create(t, NULL, fn, arg) == 0;
}
static inline void wf_thread_join(wf_thread t) { pthread_join(t, NULL); }
static inline void wf_thread_yield(void) { sched_yield(); }
static inline wf_thread_id wf_thread_self(void) { return pthread_self(); }
static inline bool wf_thread_id_equal(wf_thread_id a, wf_thread_id b) {
    return pthread_equal(a, b) != 0;
}
static inline bool wf_mutex_init(wf_mutex* m) { return pthread_mutex_init(m, NULL) == 0; }
static inline void wf_mutex_destroy(wf_mutex* m) { pthread_mutex_destroy(m); }
static inline void wf_mutex_lock(wf_mutex* m) { pthread_mutex_lock(m); }
static inline void wf_mutex_unlock(wf_mutex* m) { pthread_mutex_unlock(m); }
static inline bool wf_cond_init(wf_cond* c) { return pthread_cond_init(c, NULL) == 0; }
static inline void wf_cond_destroy(wf_cond* c) { pthread_cond_destroy(c); }
static inline void wf_cond_wait(wf_cond* c, wf_mutex* m) { pthread_cond_wait(c, m); }
static inline void wf_cond_signal(wf_cond* c) { pthread_cond_signal(c); }
static inline void wf_cond_broadcast(wf_cond* c) { pthread_cond_broadcast(c); }

#elif defined(WF_THREADS_C11)
#include <threads.h>

typedef thrd_t wf_thread;
typedef thrd_t wf_thread_id;
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
static inline wf_thread_id wf_thread_self(void) { return thrd_current(); }
static inline bool wf_thread_id_equal(wf_thread_id a, wf_thread_id b) {
    return thrd_equal(a, b) != 0;
}
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
