// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Generational id pool with a FIFO free list and a byte-exact save format.
#include "navcore/id_pool.h"

#include <string.h>

#include "navcore/alloc.h"
#include "navcore/bytes.h"

#define ID_SLOT_LIVE 0x80000000u
#define ID_NO_SLOT 0xffffffffu
#define ID_POOL_MAGIC 0x44494657u // "WFID"
#define ID_POOL_VERSION 1u
#define ID_POOL_HEADER_WORDS 6u

static uint32_t next_generation(uint32_t generation) {
    generation = (generation + 1u) & WF_ID_GENERATION_MASK;
    return generation == 0u ? 1u : generation; // 0 would make a null-looking id
}

wf_status wf_id_pool_create(wf_id_pool* pool, const wf_allocator* allocator, uint32_t capacity,
                            uint8_t kind) {
    if (pool == NULL || capacity == 0 || capacity > WF_ID_POOL_MAX_CAPACITY ||
        kind == WF_ID_KIND_NONE) {
        return WF_ERR_INVALID_ARG;
    }
    wf_id_pool p;
    memset(&p, 0, sizeof p);
    if (wf_allocator_resolve(allocator, &p.allocator) != WF_OK) {
        return WF_ERR_INVALID_ARG;
    }
    p.slots = WF_ALLOC_ARRAY(&p.allocator, uint32_t, capacity);
    p.next_free = WF_ALLOC_ARRAY(&p.allocator, uint32_t, capacity);
    if (p.slots == NULL || p.next_free == NULL) {
        WF_FREE_ARRAY(&p.allocator, p.slots, uint32_t, capacity);
        WF_FREE_ARRAY(&p.allocator, p.next_free, uint32_t, capacity);
        return WF_ERR_OUT_OF_MEMORY;
    }
    p.capacity = capacity;
    p.kind = kind;
    p.index_mask = 0xffffffffu;
    for (uint32_t i = 0; i < capacity; ++i) {
        p.slots[i] = 1u; // generations start at 1 so no live id is null
    }
    *pool = p;
    wf_id_pool_clear(pool); // builds the free list in slot order
    return WF_OK;
}

void wf_id_pool_destroy(wf_id_pool* pool) {
    if (pool == NULL || pool->slots == NULL) {
        return;
    }
    WF_FREE_ARRAY(&pool->allocator, pool->slots, uint32_t, pool->capacity);
    WF_FREE_ARRAY(&pool->allocator, pool->next_free, uint32_t, pool->capacity);
    memset(pool, 0, sizeof *pool);
}

wf_status wf_id_pool_add(wf_id_pool* pool, uint64_t* out_id) {
    if (pool->free_head == ID_NO_SLOT) {
        return WF_ERR_CAPACITY;
    }
    uint32_t index = pool->free_head;
    pool->free_head = pool->next_free[index];
    if (pool->free_head == ID_NO_SLOT) {
        pool->free_tail = ID_NO_SLOT;
    }
    pool->next_free[index] = ID_NO_SLOT;
    pool->slots[index] |= ID_SLOT_LIVE;
    pool->live_count++;
    *out_id =
        wf_id_make(index | pool->index_tag, pool->slots[index] & WF_ID_GENERATION_MASK, pool->kind);
    return WF_OK;
}

wf_status wf_id_pool_set_tag(wf_id_pool* pool, uint32_t tag) {
    if (pool == NULL || tag > WF_ID_POOL_MAX_TAG || pool->capacity > (1u << WF_ID_POOL_TAG_SHIFT)) {
        return WF_ERR_INVALID_ARG;
    }
    pool->index_tag = tag << WF_ID_POOL_TAG_SHIFT;
    pool->index_mask = (1u << WF_ID_POOL_TAG_SHIFT) - 1u;
    return WF_OK;
}

wf_status wf_id_pool_find(const wf_id_pool* pool, uint64_t id, uint32_t* out_index) {
    if (id == 0) {
        return WF_ERR_INVALID_ARG;
    }
    if (wf_id_kind_of(id) != pool->kind) {
        return WF_ERR_WRONG_KIND;
    }
    uint32_t index = wf_id_index(id);
    if ((index & ~pool->index_mask) != pool->index_tag) {
        return WF_ERR_STALE_REF; // another pool's tag: a foreign id
    }
    index &= pool->index_mask;
    if (index >= pool->capacity || pool->slots[index] != (wf_id_generation(id) | ID_SLOT_LIVE)) {
        return WF_ERR_STALE_REF;
    }
    *out_index = index;
    return WF_OK;
}

static void push_free(wf_id_pool* pool, uint32_t index) {
    pool->next_free[index] = ID_NO_SLOT;
    if (pool->free_tail == ID_NO_SLOT) {
        pool->free_head = index;
    } else {
        pool->next_free[pool->free_tail] = index;
    }
    pool->free_tail = index;
}

wf_status wf_id_pool_remove(wf_id_pool* pool, uint64_t id) {
    uint32_t index;
    wf_status s = wf_id_pool_find(pool, id, &index);
    if (s != WF_OK) {
        return s;
    }
    pool->slots[index] = next_generation(pool->slots[index] & WF_ID_GENERATION_MASK);
    pool->live_count--;
    push_free(pool, index);
    return WF_OK;
}

uint64_t wf_id_pool_id_at(const wf_id_pool* pool, uint32_t index) {
    if (index >= pool->capacity || (pool->slots[index] & ID_SLOT_LIVE) == 0) {
        return 0;
    }
    return wf_id_make(index | pool->index_tag, pool->slots[index] & WF_ID_GENERATION_MASK,
                      pool->kind);
}

void wf_id_pool_clear(wf_id_pool* pool) {
    for (uint32_t i = 0; i < pool->capacity; ++i) {
        if (pool->slots[i] & ID_SLOT_LIVE) {
            pool->slots[i] = next_generation(pool->slots[i] & WF_ID_GENERATION_MASK);
        }
        pool->next_free[i] = i + 1u < pool->capacity ? i + 1u : ID_NO_SLOT;
    }
    pool->live_count = 0;
    pool->free_head = 0;
    pool->free_tail = pool->capacity - 1u;
}

/*
 * Save format, all little-endian u32:
 *   magic, version, kind, capacity, live_count, free_count,
 *   slots[capacity] (generation | live bit), free list in order[free_count].
 */
size_t wf_id_pool_save_size(const wf_id_pool* pool) {
    uint32_t free_count = pool->capacity - pool->live_count;
    return 4u * ((size_t)ID_POOL_HEADER_WORDS + pool->capacity + free_count);
}

void wf_id_pool_save(const wf_id_pool* pool, unsigned char* out) {
    uint32_t free_count = pool->capacity - pool->live_count;
    uint32_t header[ID_POOL_HEADER_WORDS] = {ID_POOL_MAGIC,  ID_POOL_VERSION,  pool->kind,
                                             pool->capacity, pool->live_count, free_count};
    for (uint32_t i = 0; i < ID_POOL_HEADER_WORDS; ++i, out += 4) {
        wf_bytes_put_u32(out, header[i]);
    }
    for (uint32_t i = 0; i < pool->capacity; ++i, out += 4) {
        wf_bytes_put_u32(out, pool->slots[i]);
    }
    for (uint32_t i = pool->free_head; i != ID_NO_SLOT; i = pool->next_free[i], out += 4) {
        wf_bytes_put_u32(out, i);
    }
}

wf_status wf_id_pool_load(wf_id_pool* pool, const unsigned char* data, size_t size) {
    if (pool == NULL || (data == NULL && size != 0)) {
        return WF_ERR_INVALID_ARG;
    }
    if (size < 4u * ID_POOL_HEADER_WORDS) {
        return WF_ERR_BAD_DATA;
    }
    uint32_t header[ID_POOL_HEADER_WORDS];
    for (uint32_t i = 0; i < ID_POOL_HEADER_WORDS; ++i) {
        header[i] = wf_bytes_get_u32(data + 4u * i);
    }
    uint32_t kind = header[2], capacity = header[3], live = header[4], free_count = header[5];
    if (header[0] != ID_POOL_MAGIC) {
        return WF_ERR_BAD_DATA;
    }
    if (header[1] != ID_POOL_VERSION) {
        return WF_ERR_VERSION;
    }
    if (kind != pool->kind) {
        return WF_ERR_WRONG_KIND;
    }
    if (capacity > pool->capacity) {
        return WF_ERR_CAPACITY;
    }
    if (capacity == 0 || live > capacity || free_count != capacity - live ||
        (size - 4u * ID_POOL_HEADER_WORDS) / 4u != (size_t)capacity + free_count ||
        size % 4u != 0) {
        return WF_ERR_BAD_DATA;
    }
    const unsigned char* slot_bytes = data + 4u * ID_POOL_HEADER_WORDS;
    const unsigned char* order_bytes = slot_bytes + 4u * (size_t)capacity;

    // Validate everything before touching the pool: generations in range,
    // live count right, and the free list naming each free slot exactly once.
    unsigned char* seen = wf_alloc_zeroed(&pool->allocator, capacity, 1);
    if (seen == NULL) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    wf_status status = WF_OK;
    uint32_t live_seen = 0;
    for (uint32_t i = 0; i < capacity && status == WF_OK; ++i) {
        uint32_t word = wf_bytes_get_u32(slot_bytes + 4u * i);
        uint32_t generation = word & ~ID_SLOT_LIVE;
        if (generation == 0 || generation > WF_ID_GENERATION_MASK) {
            status = WF_ERR_BAD_DATA;
        }
        live_seen += (word & ID_SLOT_LIVE) ? 1u : 0u;
    }
    if (live_seen != live) {
        status = WF_ERR_BAD_DATA;
    }
    for (uint32_t k = 0; k < free_count && status == WF_OK; ++k) {
        uint32_t index = wf_bytes_get_u32(order_bytes + 4u * k);
        if (index >= capacity || seen[index] ||
            (wf_bytes_get_u32(slot_bytes + 4u * index) & ID_SLOT_LIVE)) {
            status = WF_ERR_BAD_DATA;
        } else {
            seen[index] = 1;
        }
    }
    wf_free(&pool->allocator, seen, capacity, 1);
    if (status != WF_OK) {
        return status;
    }

    pool->live_count = live;
    pool->free_head = ID_NO_SLOT;
    pool->free_tail = ID_NO_SLOT;
    for (uint32_t i = 0; i < capacity; ++i) {
        pool->slots[i] = wf_bytes_get_u32(slot_bytes + 4u * i);
        pool->next_free[i] = ID_NO_SLOT;
    }
    for (uint32_t k = 0; k < free_count; ++k) {
        push_free(pool, wf_bytes_get_u32(order_bytes + 4u * k));
    }
    // Slots this pool has beyond the saved ones are free last; bumping their
    // generation keeps any id this pool handed out before the load stale.
    for (uint32_t i = capacity; i < pool->capacity; ++i) {
        pool->slots[i] = next_generation(pool->slots[i] & WF_ID_GENERATION_MASK);
        push_free(pool, i);
    }
    return WF_OK;
}
