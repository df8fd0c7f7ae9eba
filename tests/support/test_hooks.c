// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Hooks shared by the tests.
#include "test_hooks.h"

void test_ignore_assert(const char* expression, const char* file, int line) {
    (void)expression;
    (void)file;
    (void)line;
}
