// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Argument checks: misuse calls the assert hook in debug builds and makes the
// public call return WF_ERR_INVALID_ARG in every build.
#ifndef WF_NAVCORE_CHECK_H
#define WF_NAVCORE_CHECK_H

#include "navcore/log.h"
#include "wayfarer/base.h"

/// Reports a failed check to the assert hook (debug builds only).
void wf_assert_failed(const char* expression, const char* file, int line);

#ifdef NDEBUG
#define WF_REPORT_MISUSE(expr) ((void)0)
#else
#define WF_REPORT_MISUSE(expr) wf_assert_failed(expr, __FILE__, __LINE__)
#endif

/// Returns `status` from the enclosing function when cond is false.
#define WF_CHECK_OR(cond, status)                                                                  \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            WF_REPORT_MISUSE(#cond);                                                               \
            return (status);                                                                       \
        }                                                                                          \
    } while (0)

#define WF_CHECK_ARG(cond) WF_CHECK_OR(cond, WF_ERR_INVALID_ARG)

/// One rule of a desc: when cond is false, the desc's logger gets
/// "<object>: <rule>" (the rule names the field and its range), then the
/// call returns WF_ERR_INVALID_ARG as WF_CHECK_ARG does.
#define WF_CHECK_DESC(logger, object, cond, rule)                                                  \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            wf_log((logger), WF_LOG_ERROR, "%s: %s", (object), (rule));                            \
            WF_REPORT_MISUSE(#cond);                                                               \
            return WF_ERR_INVALID_ARG;                                                             \
        }                                                                                          \
    } while (0)

/// Internal invariant (library bug, not user misuse): hook in debug builds.
#ifdef NDEBUG
#define WF_ASSERT(cond) ((void)0)
#else
#define WF_ASSERT(cond) ((cond) ? (void)0 : wf_assert_failed(#cond, __FILE__, __LINE__))
#endif

#endif
