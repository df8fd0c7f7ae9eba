// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Allocation through a per-object wf_allocator; the only place that may call
// the C library's malloc is the default allocator in alloc.c.
#ifndef WF_NAVCORE_ALLOC_H
#define WF_NAVCORE_ALLOC_H

#include "wayfarer/base.h"

/// Largest alignment an allocator must honour.
#define WF_MAX_ALIGN 4096u

/// Fills in the default (C library) allocator when both hooks are NULL.
/// WF_ERR_INVALID_ARG when exactly one of alloc/free is set.
WF_NODISCARD wf_status wf_allocator_resolve(const wf_allocator* in, wf_allocator* out);

/// size 0 is allowed and returns a unique non-NULL pointer (or NULL on OOM).
void* wf_alloc(const wf_allocator* a, size_t size, size_t align);
/// Zero-filled variant.
void* wf_alloc_zeroed(const wf_allocator* a, size_t size, size_t align);
/// ptr NULL is ignored; size/align must be those given to wf_alloc.
void wf_free(const wf_allocator* a, void* ptr, size_t size, size_t align);

/// count * size, or SIZE_MAX when it overflows (so the allocation fails).
static inline size_t wf_size_mul(size_t count, size_t size) {
    return (size != 0 && count > (size_t)-1 / size) ? (size_t)-1 : count * size;
}

#define WF_ALLOC_ARRAY(a, type, count)                                                             \
    ((type*)wf_alloc_zeroed((a), wf_size_mul((count), sizeof(type)), _Alignof(type)))
#define WF_FREE_ARRAY(a, ptr, type, count)                                                         \
    wf_free((a), (ptr), wf_size_mul((count), sizeof(type)), _Alignof(type))

#endif
