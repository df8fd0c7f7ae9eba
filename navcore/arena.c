// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Linear scratch arena.
#include "navcore/arena.h"

#include <stdint.h>
#include <string.h>

#include "navcore/alloc.h"

/// Alignment of the buffers wf_arena_create allocates: a cache line, so two
/// workers' arenas never share one.
#define ARENA_BUFFER_ALIGN 64u

void wf_arena_init(wf_arena* arena, void* buffer, size_t capacity) {
    arena->base = buffer;
    arena->capacity = buffer != NULL ? capacity : 0;
    arena->used = 0;
    arena->high_water = 0;
    arena->owns_buffer = false;
}

wf_status wf_arena_create(wf_arena* arena, const wf_allocator* allocator, size_t capacity) {
    void* buffer = wf_alloc(allocator, capacity, ARENA_BUFFER_ALIGN);
    if (buffer == NULL) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    wf_arena_init(arena, buffer, capacity);
    arena->owns_buffer = true;
    return WF_OK;
}

void wf_arena_destroy(wf_arena* arena, const wf_allocator* allocator) {
    if (arena->owns_buffer) {
        wf_free(allocator, arena->base, arena->capacity, ARENA_BUFFER_ALIGN);
    }
    memset(arena, 0, sizeof *arena);
}

void* wf_arena_alloc(wf_arena* arena, size_t size, size_t align) {
    if (align == 0 || (align & (align - 1)) != 0 || arena->base == NULL) {
        return NULL;
    }
    uintptr_t start = (uintptr_t)arena->base + arena->used;
    size_t padding = (size_t)((align - (start & (align - 1))) & (align - 1));
    size_t remaining = arena->capacity - arena->used;
    if (padding > remaining || size > remaining - padding) {
        return NULL;
    }
    void* p = arena->base + arena->used + padding;
    arena->used += padding + size;
    if (arena->used > arena->high_water) {
        arena->high_water = arena->used;
    }
    return p;
}

void* wf_arena_alloc_zeroed(wf_arena* arena, size_t size, size_t align) {
    void* p = wf_arena_alloc(arena, size, align);
    if (p != NULL) {
        memset(p, 0, size);
    }
    return p;
}

void wf_arena_reset_to(wf_arena* arena, wf_arena_mark mark) {
    if (mark.used <= arena->used) {
        arena->used = mark.used;
    }
}
