// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The monotonic clock for budgets, profiles and spin limits. A shared
// helper of the base module: every module may include it. Never feeds a
// result: only how much work a call does and what it reports as time.
#ifndef WF_NAVCORE_CLOCK_H
#define WF_NAVCORE_CLOCK_H

/// Microseconds on a clock that never jumps back (not the wall clock).
double wf_clock_us(void);
/// The same clock in milliseconds.
double wf_clock_ms(void);

#endif
