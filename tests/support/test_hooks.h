// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Hooks tests install: an assert hook that returns, so misuse can be tested
// for its WF_ERR_INVALID_ARG without aborting.
#ifndef WF_TESTS_TEST_HOOKS_H
#define WF_TESTS_TEST_HOOKS_H

/// An assert hook that ignores the failed check.
void test_ignore_assert(const char* expression, const char* file, int line);

#endif
