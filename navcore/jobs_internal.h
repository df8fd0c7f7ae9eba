// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Shared between jobs.c and thread_pool.c: the built-in pool recognises
// background tasks by their trampoline so waiters never get stuck in one.
#ifndef WF_NAVCORE_JOBS_INTERNAL_H
#define WF_NAVCORE_JOBS_INTERNAL_H

#include "wayfarer/jobs.h"

/// The task function every wf_jobs_submit goes through.
void wf_jobs_background_trampoline(void* task_state);

#endif
