// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The monotonic clock (clock.h).
#define _POSIX_C_SOURCE 200809L
#include "navcore/clock.h"

#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

// The performance counter: monotonic, and its frequency fixed at boot.
static double seconds(void) {
    LARGE_INTEGER count, frequency;
    QueryPerformanceCounter(&count);
    QueryPerformanceFrequency(&frequency);
    return (double)count.QuadPart / (double)frequency.QuadPart;
}

double wf_clock_us(void) { return seconds() * 1e6; }

double wf_clock_ms(void) { return seconds() * 1e3; }
#else
#include <time.h>

static struct timespec now(void) {
    struct timespec t;
#ifdef CLOCK_MONOTONIC
    // Budgets must not jump when the wall clock is set.
    clock_gettime(CLOCK_MONOTONIC, &t);
#else
    timespec_get(&t, TIME_UTC);
#endif
    return t;
}

double wf_clock_us(void) {
    struct timespec t = now();
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

double wf_clock_ms(void) {
    struct timespec t = now();
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}
#endif
