// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Test allocator: counts every allocation and free (thread-safe), checks
// sizes on free, and can fail the k-th allocation to test out-of-memory paths.
#ifndef WF_TESTS_COUNTING_ALLOCATOR_H
#define WF_TESTS_COUNTING_ALLOCATOR_H

#include <stdatomic.h>

#include "wayfarer/base.h"

typedef struct counting_allocator {
    atomic_ulong allocations;     ///< successful alloc calls
    atomic_ulong frees;           ///< free calls
    atomic_ulong failed;          ///< allocations refused by fail_at
    atomic_long live_bytes;       ///< bytes allocated and not yet freed
    atomic_long peak_bytes;       ///< most live bytes at once
    atomic_ulong size_mismatches; ///< frees whose size/align differ from the alloc
    atomic_ulong attempt;         ///< alloc calls so far, successful or not
    unsigned long fail_at;        ///< 1-based attempt number to fail; 0 = never
    bool fail_after;              ///< also fail every attempt after fail_at
} counting_allocator;

void counting_allocator_init(counting_allocator* c);
/// A wf_allocator whose hooks count into c.
wf_allocator counting_allocator_hooks(counting_allocator* c);
/// Allocations not yet freed.
unsigned long counting_allocator_live(const counting_allocator* c);

#endif
