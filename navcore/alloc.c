// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The default allocator and the checked helpers every module allocates with.
#include "navcore/alloc.h"

#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#include <malloc.h>
#endif

static void* default_alloc(size_t size, size_t align, void* user) {
    (void)user;
    if (size == 0) {
        size = 1;
    }
    if (align <= _Alignof(max_align_t)) {
        return malloc(size);
    }
#ifdef _WIN32
    // The Windows C library has no aligned_alloc (its free could not release
    // such a block); free gets the same alignment and picks _aligned_free.
    return _aligned_malloc(size, align);
#else
    // aligned_alloc wants the size to be a multiple of the alignment.
    size_t rounded = (size + align - 1) & ~(align - 1);
    return rounded < size ? NULL : aligned_alloc(align, rounded);
#endif
}

static void default_free(void* ptr, size_t size, size_t align, void* user) {
    (void)size;
    (void)user;
#ifdef _WIN32
    if (align > _Alignof(max_align_t)) {
        _aligned_free(ptr);
        return;
    }
#else
    (void)align;
#endif
    free(ptr);
}

wf_status wf_allocator_resolve(const wf_allocator* in, wf_allocator* out) {
    if (in == NULL || (in->alloc == NULL && in->free == NULL)) {
        out->alloc = default_alloc;
        out->free = default_free;
        out->user = NULL;
        return WF_OK;
    }
    if (in->alloc == NULL || in->free == NULL) {
        return WF_ERR_INVALID_ARG;
    }
    *out = *in;
    return WF_OK;
}

void* wf_alloc(const wf_allocator* a, size_t size, size_t align) {
    if (align == 0 || (align & (align - 1)) != 0 || align > WF_MAX_ALIGN || size == (size_t)-1) {
        return NULL;
    }
    return a->alloc(size, align, a->user);
}

void* wf_alloc_zeroed(const wf_allocator* a, size_t size, size_t align) {
    void* p = wf_alloc(a, size, align);
    if (p != NULL) {
        memset(p, 0, size);
    }
    return p;
}

void wf_free(const wf_allocator* a, void* ptr, size_t size, size_t align) {
    if (ptr != NULL) {
        a->free(ptr, size, align, a->user);
    }
}
