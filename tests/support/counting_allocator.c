// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Counting test allocator. Each block carries a small header with its size
// and alignment so frees can be checked against allocations.
#include "counting_allocator.h"

#include <stdlib.h>
#include <string.h>

#define HEADER_SIZE 64u // >= any alignment tests use below 64, keeps blocks aligned

typedef struct block_header {
    size_t size;
    size_t align;
    void* raw;
} block_header;

void counting_allocator_init(counting_allocator* c) { memset(c, 0, sizeof *c); }

static void* counting_alloc(size_t size, size_t align, void* user) {
    counting_allocator* c = user;
    unsigned long attempt = atomic_fetch_add(&c->attempt, 1) + 1;
    if (c->fail_at != 0 && (attempt == c->fail_at || (c->fail_after && attempt > c->fail_at))) {
        atomic_fetch_add(&c->failed, 1);
        return NULL;
    }
    size_t pad = align > HEADER_SIZE ? align : HEADER_SIZE;
    if (size > (size_t)-1 - pad - align) {
        return NULL;
    }
    unsigned char* raw = malloc(size + pad + align);
    if (raw == NULL) {
        return NULL;
    }
    uintptr_t start = (uintptr_t)raw + pad;
    start = (start + align - 1) & ~(uintptr_t)(align - 1);
    block_header* h = (block_header*)(start - sizeof(block_header));
    h->size = size;
    h->align = align;
    h->raw = raw;
    atomic_fetch_add(&c->allocations, 1);
    long live = atomic_fetch_add(&c->live_bytes, (long)size) + (long)size;
    long peak = atomic_load(&c->peak_bytes);
    while (live > peak && !atomic_compare_exchange_weak(&c->peak_bytes, &peak, live)) {
    }
    return (void*)start;
}

static void counting_free(void* ptr, size_t size, size_t align, void* user) {
    counting_allocator* c = user;
    block_header* h = (block_header*)((uintptr_t)ptr - sizeof(block_header));
    if (h->size != size || h->align != align) {
        atomic_fetch_add(&c->size_mismatches, 1);
    }
    atomic_fetch_add(&c->frees, 1);
    atomic_fetch_sub(&c->live_bytes, (long)h->size);
    free(h->raw);
}

wf_allocator counting_allocator_hooks(counting_allocator* c) {
    wf_allocator a = {counting_alloc, counting_free, c};
    return a;
}

unsigned long counting_allocator_live(const counting_allocator* c) {
    return atomic_load(&c->allocations) - atomic_load(&c->frees);
}
