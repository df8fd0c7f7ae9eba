// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Small helpers every benchmark uses: a monotonic clock, medians, reading a file.
#ifndef WF_BENCH_UTIL_H
#define WF_BENCH_UTIL_H

#include <stddef.h>

/// Monotonic seconds.
double bench_now_seconds(void);
/// Sorts n values ascending.
void bench_sort(double* values, size_t n);
/// Median of n values (sorts them in place); 0 for n == 0.
double bench_median(double* values, size_t n);
/// Whole file in malloc'd memory, or NULL; *size gets its length.
char* bench_read_file(const char* path, size_t* size);

#endif
