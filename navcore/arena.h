// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Linear scratch arena: bump allocation from a fixed buffer, freed all at
// once (reset) or back to a mark. Per-worker scratch for builds and queries.
#ifndef WF_NAVCORE_ARENA_H
#define WF_NAVCORE_ARENA_H

#include "navcore/alloc.h"
#include "wayfarer/base.h"

typedef struct wf_arena {
    unsigned char* base;
    size_t capacity;
    size_t used;
    size_t high_water; ///< most bytes ever used: sizes scratch for a level
    bool owns_buffer;
} wf_arena;

/// A position to roll back to.
typedef struct wf_arena_mark {
    size_t used;
} wf_arena_mark;

/// Uses `buffer` (not owned). capacity 0 gives an arena that always fails.
void wf_arena_init(wf_arena* arena, void* buffer, size_t capacity);

/// Allocates the buffer from `allocator` (already resolved, see
/// wf_allocator_resolve); WF_ERR_OUT_OF_MEMORY on failure.
WF_NODISCARD wf_status wf_arena_create(wf_arena* arena, const wf_allocator* allocator,
                                       size_t capacity);
/// Frees a buffer from wf_arena_create; leaves a zeroed arena.
void wf_arena_destroy(wf_arena* arena, const wf_allocator* allocator);

/// size bytes aligned to align (a power of two), or NULL when the arena
/// cannot fit them; a failed call does not change the arena.
void* wf_arena_alloc(wf_arena* arena, size_t size, size_t align);
/// Zero-filled variant.
void* wf_arena_alloc_zeroed(wf_arena* arena, size_t size, size_t align);

#define WF_ARENA_ARRAY(arena, type, count)                                                         \
    ((type*)wf_arena_alloc((arena), wf_size_mul((count), sizeof(type)), _Alignof(type)))

static inline wf_arena_mark wf_arena_get_mark(const wf_arena* arena) {
    wf_arena_mark m = {arena->used};
    return m;
}
/// Frees everything allocated after the mark was taken.
void wf_arena_reset_to(wf_arena* arena, wf_arena_mark mark);
static inline void wf_arena_reset(wf_arena* arena) { arena->used = 0; }
static inline size_t wf_arena_remaining(const wf_arena* arena) {
    return arena->capacity - arena->used;
}

#endif
