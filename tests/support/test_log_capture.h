// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// A logger for tests that keeps what the library said: the last message,
// every message one a line (as many as fit), and how many there were.
#ifndef WF_TESTS_LOG_CAPTURE_H
#define WF_TESTS_LOG_CAPTURE_H

#include <stdio.h>
#include <string.h>

#include "wayfarer/base.h"

typedef struct test_log_capture {
    char last[512];
    char all[1024];
    int count;
} test_log_capture;

static inline void test_capture_log(wf_log_level level, const char* message, void* user) {
    (void)level;
    test_log_capture* c = user;
    snprintf(c->last, sizeof c->last, "%s", message);
    const size_t used = strlen(c->all);
    snprintf(c->all + used, sizeof c->all - used, "%s\n", message);
    c->count++;
}

/// A logger that writes into `c` (zero it first).
static inline wf_logger test_log_capture_logger(test_log_capture* c) {
    return (wf_logger){test_capture_log, c, false};
}

#endif
