// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The assert hook: the library's single mutable global.
#include "navcore/check.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static void default_assert(const char* expression, const char* file, int line) {
    fprintf(stderr, "wayfarer: check failed: %s (%s:%d)\n", expression, file, line);
    abort();
}

// Atomic so that a hook installed at start-up is seen by every worker.
static _Atomic(wf_assert_fn*) g_assert_hook = default_assert;

wf_assert_fn* wf_set_assert_hook(wf_assert_fn* hook) {
    return atomic_exchange(&g_assert_hook, hook ? hook : default_assert);
}

void wf_assert_failed(const char* expression, const char* file, int line) {
    atomic_load (&g_assert_hook)(expression, file, line);
}
