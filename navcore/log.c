// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Formats into a stack buffer (no allocation) and hands the line to the hook.
#include "navcore/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char* level_name(wf_log_level level) {
    switch (level) {
    case WF_LOG_ERROR:
        return "error";
    case WF_LOG_WARN:
        return "warning";
    case WF_LOG_INFO:
        return "info";
    case WF_LOG_DEBUG:
        return "debug";
    }
    return "log";
}

void wf_log(const wf_logger* logger, wf_log_level level, const char* format, ...) {
    if (logger != NULL && logger->quiet) {
        return;
    }
    bool has_hook = logger != NULL && logger->log != NULL;
    if (!has_hook && level > WF_LOG_WARN) {
        return;
    }
    char message[WF_LOG_MAX_MESSAGE];
    va_list args;
    va_start(args, format);
    int n = vsnprintf(message, sizeof message, format, args);
    va_end(args);
    if (n < 0) {
        return;
    }
    if ((size_t)n >= sizeof message) {
        memcpy(message + sizeof message - 4, "...", 4);
    }
    if (has_hook) {
        logger->log(level, message, logger->user);
    } else {
        fprintf(stderr, "wayfarer %s: %s\n", level_name(level), message);
    }
}

void wf_log_line_error(const wf_logger* logger, const char* source, size_t line, const char* format,
                       va_list args) {
    char message[WF_LOG_MAX_MESSAGE];
    vsnprintf(message, sizeof message, format, args);
    wf_log(logger, WF_LOG_ERROR, "%s: line %zu: %s", source, line, message);
}
