// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// printf-style logging through a per-object wf_logger.
#ifndef WF_NAVCORE_LOG_H
#define WF_NAVCORE_LOG_H

#include <stdarg.h>

#include "wayfarer/base.h"

/// Longest message passed to a logger; longer ones are cut and end in "...".
#define WF_LOG_MAX_MESSAGE 512

#if defined(__MINGW32__)
// mingw-w64: the archetype of the printf in use (gnu_printf with its
// standard-conforming stdio, which a C11 build selects), not the MS one.
#include <stdio.h>
#define WF_PRINTF_LIKE(fmt_index, args_index)                                                      \
    __attribute__((format(__MINGW_PRINTF_FORMAT, fmt_index, args_index)))
#elif defined(__GNUC__) || defined(__clang__)
#define WF_PRINTF_LIKE(fmt_index, args_index) __attribute__((format(printf, fmt_index, args_index)))
#else
#define WF_PRINTF_LIKE(fmt_index, args_index)
#endif

/// logger may be NULL (the default behaviour applies).
void wf_log(const wf_logger* logger, wf_log_level level, const char* format, ...)
    WF_PRINTF_LIKE(3, 4);

/// Logs an error about a line of a text input: "source: line N: message".
/// For parsers, whose own printf-like wrappers pass their va_list here.
void wf_log_line_error(const wf_logger* logger, const char* source, size_t line, const char* format,
                       va_list args);

#endif
