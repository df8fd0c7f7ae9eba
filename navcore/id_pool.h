// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Id pool: hands out object ids (slot + 24-bit generation + kind tag, see
// base.h) from a fixed number of slots, and detects stale and foreign ids.
#ifndef WF_NAVCORE_ID_POOL_H
#define WF_NAVCORE_ID_POOL_H

#include "wayfarer/base.h"

typedef struct wf_id_pool {
    uint32_t* slots;     ///< per slot: generation | ID_SLOT_LIVE when in use
    uint32_t* next_free; ///< free list links, first in first out
    uint32_t capacity;
    uint32_t live_count;
    uint32_t free_head;
    uint32_t free_tail;
    uint8_t kind;
    /// Tag in the index's top bits (wf_id_pool_set_tag): ids of pools with
    /// other tags never alias this pool's slots. 0 and all ones untagged.
    uint32_t index_tag;
    uint32_t index_mask;
    wf_allocator allocator;
} wf_id_pool;

/// capacity in [1, WF_ID_POOL_MAX_CAPACITY]; kind is stamped into every id.
#define WF_ID_POOL_MAX_CAPACITY 0x7fffffffu

WF_NODISCARD wf_status wf_id_pool_create(wf_id_pool* pool, const wf_allocator* allocator,
                                         uint32_t capacity, uint8_t kind);
void wf_id_pool_destroy(wf_id_pool* pool);

/// Most slots of a tagged pool, and the most tags (bits 24..31 of the index).
#define WF_ID_POOL_TAG_SHIFT 24u
#define WF_ID_POOL_MAX_TAG 255u

/// Stamps `tag` into bits 24..31 of every id's index (capacity must be at
/// most 1 << 24), so ids of two pools of one kind (two crowds) differ and
/// each refuses the other's as stale. Call before the first add.
/// WF_ERR_INVALID_ARG when the capacity is too large or the tag above 255.
WF_NODISCARD wf_status wf_id_pool_set_tag(wf_id_pool* pool, uint32_t tag);

/// The slot an id of this pool names (its index without the tag).
static inline uint32_t wf_id_pool_slot_of(const wf_id_pool* pool, uint64_t id) {
    return wf_id_index(id) & pool->index_mask;
}

/// New id; its slot index is wf_id_index(*out_id). WF_ERR_CAPACITY when full.
/// Slots are reused oldest-freed first, which keeps stale ids stale longest.
WF_NODISCARD wf_status wf_id_pool_add(wf_id_pool* pool, uint64_t* out_id);

/// Slot of a live id. WF_ERR_INVALID_ARG for the null id, WF_ERR_WRONG_KIND
/// for another kind's id, WF_ERR_STALE_REF for a freed or foreign one.
WF_NODISCARD wf_status wf_id_pool_find(const wf_id_pool* pool, uint64_t id, uint32_t* out_index);

/// Frees an id and bumps its slot's generation (same errors as find).
WF_NODISCARD wf_status wf_id_pool_remove(wf_id_pool* pool, uint64_t id);

static inline bool wf_id_pool_is_valid(const wf_id_pool* pool, uint64_t id) {
    uint32_t index;
    return wf_id_pool_find(pool, id, &index) == WF_OK;
}

/// The live id in slot `index`, or 0 when the slot is free (for iteration).
uint64_t wf_id_pool_id_at(const wf_id_pool* pool, uint32_t index);

/// Frees every id (generations bumped, so all old ids become stale).
void wf_id_pool_clear(wf_id_pool* pool);

/// Exact state as bytes (little-endian), so ids saved by a game stay valid
/// and stale ones stay stale after a restore, and the next ids match.
size_t wf_id_pool_save_size(const wf_id_pool* pool);
void wf_id_pool_save(const wf_id_pool* pool, unsigned char* out);
/// Replaces the pool's state. WF_ERR_BAD_DATA (malformed), WF_ERR_VERSION,
/// WF_ERR_WRONG_KIND, WF_ERR_CAPACITY (saved with more slots than this pool
/// has), WF_ERR_OUT_OF_MEMORY; on any error the pool is unchanged.
WF_NODISCARD wf_status wf_id_pool_load(wf_id_pool* pool, const unsigned char* data, size_t size);

#endif
