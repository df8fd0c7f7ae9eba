// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// A job system that claims `workers` threads but runs every task at once on
// the caller: the crowd splits its work as for that many workers, in one
// deterministic order, with no threads for the tests to manage.
#ifndef WF_TESTS_INLINE_JOBS_H
#define WF_TESTS_INLINE_JOBS_H

#include "wayfarer/jobs.h"

static inline void* test_inline_run_now(wf_task_fn* task, void* context, void* user) {
    (void)user;
    task(context);
    return NULL;
}

static inline void test_inline_never_waits(void* handle, void* user) {
    (void)handle;
    (void)user;
}

static inline wf_job_system test_inline_jobs(uint32_t workers) {
    return (wf_job_system){
        .worker_count = workers, .enqueue = test_inline_run_now, .wait = test_inline_never_waits};
}

#endif
