// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
#include "tools/text_words.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

bool text_line_next(const char** p, const char* text_end, const char** start, const char** end) {
    if (*p >= text_end) {
        return false;
    }
    const char* nl = memchr(*p, '\n', (size_t)(text_end - *p));
    const char* stop = nl != NULL ? nl : text_end;
    *start = *p;
    *p = nl != NULL ? nl + 1 : text_end;
    const char* hash = memchr(*start, '#', (size_t)(stop - *start));
    *end = hash != NULL ? hash : stop;
    return true;
}

const char* text_word_next(const char** p, const char* end, size_t* len) {
    while (*p < end && (**p == ' ' || **p == '\t' || **p == '\r')) {
        (*p)++;
    }
    const char* w = *p;
    while (*p < end && **p != ' ' && **p != '\t' && **p != '\r') {
        (*p)++;
    }
    *len = (size_t)(*p - w);
    return w;
}

bool text_word_is(const char* w, size_t len, const char* s) {
    return len == strlen(s) && memcmp(w, s, len) == 0;
}

bool text_word_float(const char* w, size_t len, float* out) {
    char buf[64];
    if (len == 0 || len >= sizeof buf) {
        return false;
    }
    memcpy(buf, w, len);
    buf[len] = '\0';
    char* stop = NULL;
    errno = 0;
    double v = strtod(buf, &stop);
    if (*stop != '\0' || errno != 0 || !isfinite(v) || fabs(v) > 1e30) {
        return false; // NaN, inf, junk, or beyond the tile cache's coordinates
    }
    *out = (float)v;
    return true;
}

bool text_word_uint(const char* w, size_t len, unsigned long max, unsigned long* out) {
    char buf[32];
    if (len == 0 || len >= sizeof buf || w[0] == '-' || w[0] == '+') {
        return false;
    }
    memcpy(buf, w, len);
    buf[len] = '\0';
    bool hex = len > 2 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X');
    if (hex && (buf[2] == '-' || buf[2] == '+')) {
        return false;
    }
    char* stop = NULL;
    errno = 0;
    unsigned long v = strtoul(hex ? buf + 2 : buf, &stop, hex ? 16 : 10);
    if (*stop != '\0' || errno != 0 || v > max) {
        return false;
    }
    *out = v;
    return true;
}
