// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Generational id pool: id layout, stale/foreign id detection, FIFO reuse,
// generation wrap-around, and the save format's round trip and validation.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "navcore/bytes.h"
#include "navcore/id_pool.h"
#include "wayfarer/base.h"

// Save format (see id_pool.c): little-endian u32 words
//   magic, version, kind, capacity, live_count, free_count,
//   slots[capacity] (generation | live bit), free list[free_count].
#define WORD_MAGIC 0u
#define WORD_VERSION 1u
#define WORD_KIND 2u
#define WORD_CAPACITY 3u
#define WORD_LIVE 4u
#define WORD_FREE_COUNT 5u
#define WORD_FIRST_SLOT 6u
#define SLOT_LIVE_BIT 0x80000000u

/// A pool together with the counting allocator it draws from.
typedef struct fixture {
    counting_allocator counter;
    wf_allocator allocator;
    wf_id_pool pool;
} fixture;

static void fixture_create(fixture* f, uint32_t capacity, uint8_t kind) {
    counting_allocator_init(&f->counter);
    f->allocator = counting_allocator_hooks(&f->counter);
    assert_int_equal(wf_id_pool_create(&f->pool, &f->allocator, capacity, kind), WF_OK);
}

/// Destroys the pool and checks that every allocation came back, sized right.
static void fixture_destroy(fixture* f) {
    wf_id_pool_destroy(&f->pool);
    assert_int_equal(counting_allocator_live(&f->counter), 0);
    assert_int_equal(atomic_load(&f->counter.live_bytes), 0);
    assert_int_equal(atomic_load(&f->counter.size_mismatches), 0);
}

static uint64_t add_ok(wf_id_pool* pool) {
    uint64_t id = 0;
    assert_int_equal(wf_id_pool_add(pool, &id), WF_OK);
    assert_true(id != 0);
    return id;
}

static void remove_ok(wf_id_pool* pool, uint64_t id) {
    assert_int_equal(wf_id_pool_remove(pool, id), WF_OK);
}

typedef struct blob {
    unsigned char* bytes;
    size_t size;
} blob;

static blob save_pool(const wf_id_pool* pool) {
    blob b;
    b.size = wf_id_pool_save_size(pool);
    b.bytes = malloc(b.size);
    assert_non_null(b.bytes);
    memset(b.bytes, 0xcc, b.size);
    wf_id_pool_save(pool, b.bytes);
    return b;
}

static void blob_free(blob* b) {
    free(b->bytes);
    b->bytes = NULL;
    b->size = 0;
}

/// The pool's saved bytes equal `before`: its whole observable state is unchanged.
static void assert_pool_state(const wf_id_pool* pool, const blob* before) {
    blob now = save_pool(pool);
    assert_int_equal(now.size, before->size);
    assert_memory_equal(now.bytes, before->bytes, now.size);
    blob_free(&now);
}

static uint32_t blob_word(const blob* b, uint32_t word) {
    assert_true(4u * (size_t)word + 4u <= b->size);
    return wf_bytes_get_u32(b->bytes + 4u * word);
}

static void blob_set_word(blob* b, uint32_t word, uint32_t value) {
    assert_true(4u * (size_t)word + 4u <= b->size);
    wf_bytes_put_u32(b->bytes + 4u * word, value);
}

static blob blob_copy(const blob* b) {
    blob c;
    c.size = b->size;
    c.bytes = malloc(c.size + 16u);
    assert_non_null(c.bytes);
    memcpy(c.bytes, b->bytes, c.size);
    return c;
}

// ---------------------------------------------------------------------------
// Creation

static void test_create_rejects_bad_arguments(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_allocator a = counting_allocator_hooks(&c);
    wf_id_pool pool;
    assert_int_equal(wf_id_pool_create(&pool, &a, 0, WF_ID_KIND_TEST), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_id_pool_create(&pool, &a, 8, WF_ID_KIND_NONE), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_id_pool_create(&pool, &a, WF_ID_POOL_MAX_CAPACITY + 1u, WF_ID_KIND_TEST),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_id_pool_create(NULL, &a, 8, WF_ID_KIND_TEST), WF_ERR_INVALID_ARG);
    wf_allocator half = {a.alloc, NULL, a.user};
    assert_int_equal(wf_id_pool_create(&pool, &half, 8, WF_ID_KIND_TEST), WF_ERR_INVALID_ARG);
    assert_int_equal(atomic_load(&c.attempt), 0);
}

static void test_create_with_default_allocator(void** state) {
    (void)state;
    wf_id_pool pool;
    assert_int_equal(wf_id_pool_create(&pool, NULL, 3, WF_ID_KIND_AGENT), WF_OK);
    uint64_t id = add_ok(&pool);
    assert_true(wf_id_pool_is_valid(&pool, id));
    wf_id_pool_destroy(&pool);
    assert_null(pool.slots);
    // Destroying twice, or a NULL pool, is harmless.
    wf_id_pool_destroy(&pool);
    wf_id_pool_destroy(NULL);
}

static void test_create_out_of_memory(void** state) {
    (void)state;
    for (unsigned long fail_at = 1; fail_at <= 2; ++fail_at) {
        counting_allocator c;
        counting_allocator_init(&c);
        c.fail_at = fail_at;
        wf_allocator a = counting_allocator_hooks(&c);
        wf_id_pool pool;
        assert_int_equal(wf_id_pool_create(&pool, &a, 16, WF_ID_KIND_TEST), WF_ERR_OUT_OF_MEMORY);
        assert_int_equal(atomic_load(&c.failed), 1);
        assert_int_equal(counting_allocator_live(&c), 0);
        assert_int_equal(atomic_load(&c.size_mismatches), 0);
    }
}

// ---------------------------------------------------------------------------
// Ids

static void test_ids_carry_kind_slot_and_generation(void** state) {
    (void)state;
    fixture f;
    fixture_create(&f, 4, WF_ID_KIND_AGENT);
    for (uint32_t i = 0; i < 4; ++i) {
        uint64_t id = add_ok(&f.pool);
        assert_int_equal(wf_id_index(id), i);
        assert_int_equal(wf_id_generation(id), 1);
        assert_int_equal(wf_id_kind_of(id), WF_ID_KIND_AGENT);
        assert_true(id == wf_id_make(i, 1, WF_ID_KIND_AGENT));
        uint32_t index = 99;
        assert_int_equal(wf_id_pool_find(&f.pool, id, &index), WF_OK);
        assert_int_equal(index, i);
        assert_true(wf_id_pool_is_valid(&f.pool, id));
        assert_int_equal(f.pool.live_count, i + 1);
    }
    fixture_destroy(&f);
}

static void test_full_pool_reports_capacity(void** state) {
    (void)state;
    fixture f;
    fixture_create(&f, 3, WF_ID_KIND_TEST);
    uint64_t ids[3];
    for (int i = 0; i < 3; ++i) {
        ids[i] = add_ok(&f.pool);
    }
    blob before = save_pool(&f.pool);
    uint64_t out = 0x1234u;
    assert_int_equal(wf_id_pool_add(&f.pool, &out), WF_ERR_CAPACITY);
    assert_int_equal(wf_id_pool_add(&f.pool, &out), WF_ERR_CAPACITY);
    assert_true(out == 0x1234u);
    assert_pool_state(&f.pool, &before);
    for (int i = 0; i < 3; ++i) {
        assert_true(wf_id_pool_is_valid(&f.pool, ids[i]));
    }
    // Room again after a remove.
    remove_ok(&f.pool, ids[1]);
    uint64_t again = add_ok(&f.pool);
    assert_int_equal(wf_id_index(again), 1);
    blob_free(&before);
    fixture_destroy(&f);
}

static void test_removed_ids_are_stale(void** state) {
    (void)state;
    fixture f;
    fixture_create(&f, 4, WF_ID_KIND_TEST);
    uint64_t a = add_ok(&f.pool);
    uint64_t b = add_ok(&f.pool);
    remove_ok(&f.pool, a);
    uint32_t index = 77;
    assert_int_equal(wf_id_pool_find(&f.pool, a, &index), WF_ERR_STALE_REF);
    assert_int_equal(index, 77);
    assert_false(wf_id_pool_is_valid(&f.pool, a));
    assert_int_equal(f.pool.live_count, 1);

    // A second remove is stale too and changes nothing.
    blob before = save_pool(&f.pool);
    assert_int_equal(wf_id_pool_remove(&f.pool, a), WF_ERR_STALE_REF);
    assert_pool_state(&f.pool, &before);
    assert_true(wf_id_pool_is_valid(&f.pool, b));
    blob_free(&before);
    fixture_destroy(&f);
}

static void test_bad_ids_are_rejected(void** state) {
    (void)state;
    fixture f;
    fixture_create(&f, 4, WF_ID_KIND_OBSTACLE);
    uint64_t live = add_ok(&f.pool);
    blob before = save_pool(&f.pool);
    uint32_t index = 55;

    assert_int_equal(wf_id_pool_find(&f.pool, 0, &index), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_id_pool_remove(&f.pool, 0), WF_ERR_INVALID_ARG);

    // Same slot and generation, another kind.
    uint64_t foreign = wf_id_make(wf_id_index(live), wf_id_generation(live), WF_ID_KIND_AGENT);
    assert_int_equal(wf_id_pool_find(&f.pool, foreign, &index), WF_ERR_WRONG_KIND);
    assert_int_equal(wf_id_pool_remove(&f.pool, foreign), WF_ERR_WRONG_KIND);
    assert_int_equal(wf_id_pool_find(&f.pool, wf_id_make(0, 1, WF_ID_KIND_NONE), &index),
                     WF_ERR_WRONG_KIND);

    // Slot past the capacity.
    assert_int_equal(wf_id_pool_find(&f.pool, wf_id_make(4, 1, WF_ID_KIND_OBSTACLE), &index),
                     WF_ERR_STALE_REF);
    assert_int_equal(
        wf_id_pool_find(&f.pool, wf_id_make(UINT32_MAX, 1, WF_ID_KIND_OBSTACLE), &index),
        WF_ERR_STALE_REF);
    assert_int_equal(wf_id_pool_remove(&f.pool, wf_id_make(4, 1, WF_ID_KIND_OBSTACLE)),
                     WF_ERR_STALE_REF);

    // Right slot, wrong generation (including the never-used 0), and a
    // never-used slot.
    assert_int_equal(wf_id_pool_find(&f.pool, wf_id_make(0, 2, WF_ID_KIND_OBSTACLE), &index),
                     WF_ERR_STALE_REF);
    assert_int_equal(wf_id_pool_find(&f.pool, wf_id_make(0, 0, WF_ID_KIND_OBSTACLE), &index),
                     WF_ERR_STALE_REF);
    assert_int_equal(wf_id_pool_find(&f.pool, wf_id_make(2, 1, WF_ID_KIND_OBSTACLE), &index),
                     WF_ERR_STALE_REF);
    assert_int_equal(wf_id_pool_remove(&f.pool, wf_id_make(2, 1, WF_ID_KIND_OBSTACLE)),
                     WF_ERR_STALE_REF);

    assert_int_equal(index, 55);
    assert_pool_state(&f.pool, &before);
    assert_true(wf_id_pool_is_valid(&f.pool, live));
    blob_free(&before);
    fixture_destroy(&f);
}

static void test_reuse_is_fifo_with_new_ids(void** state) {
    (void)state;
    fixture f;
    fixture_create(&f, 6, WF_ID_KIND_TEST);
    uint64_t ids[4];
    for (int i = 0; i < 4; ++i) {
        ids[i] = add_ok(&f.pool); // slots 0..3; 4 and 5 never used
    }
    remove_ok(&f.pool, ids[2]);
    remove_ok(&f.pool, ids[0]);
    remove_ok(&f.pool, ids[3]);

    // Never-used slots were freed first (at creation), then 2, 0, 3.
    static const uint32_t expected_slots[] = {4, 5, 2, 0, 3};
    static const uint32_t expected_generations[] = {1, 1, 2, 2, 2};
    uint64_t fresh[5];
    for (int i = 0; i < 5; ++i) {
        fresh[i] = add_ok(&f.pool);
        assert_int_equal(wf_id_index(fresh[i]), expected_slots[i]);
        assert_int_equal(wf_id_generation(fresh[i]), expected_generations[i]);
    }
    // The reused slots hand out ids different from the freed ones, which
    // stay stale.
    assert_true(fresh[2] != ids[2] && fresh[3] != ids[0] && fresh[4] != ids[3]);
    assert_false(wf_id_pool_is_valid(&f.pool, ids[0]));
    assert_false(wf_id_pool_is_valid(&f.pool, ids[2]));
    assert_false(wf_id_pool_is_valid(&f.pool, ids[3]));
    assert_true(wf_id_pool_is_valid(&f.pool, ids[1]));
    uint64_t out;
    assert_int_equal(wf_id_pool_add(&f.pool, &out), WF_ERR_CAPACITY);

    // FIFO also across interleaved removes and adds.
    remove_ok(&f.pool, fresh[1]); // slot 5
    remove_ok(&f.pool, ids[1]);   // slot 1
    assert_int_equal(wf_id_index(add_ok(&f.pool)), 5);
    remove_ok(&f.pool, fresh[0]); // slot 4
    assert_int_equal(wf_id_index(add_ok(&f.pool)), 1);
    assert_int_equal(wf_id_index(add_ok(&f.pool)), 4);
    fixture_destroy(&f);
}

/// 2^24 - 1: the number of distinct non-zero generations.
#define GENERATION_PERIOD 0xFFFFFFu

static void test_generation_wraps_to_one_never_zero(void** state) {
    (void)state;
    fixture f;
    fixture_create(&f, 1, WF_ID_KIND_TEST);
    uint64_t first = add_ok(&f.pool);
    assert_int_equal(wf_id_generation(first), 1);
    remove_ok(&f.pool, first);

    // Walk every generation once: after 2^24 - 2 more cycles the slot is at
    // the last generation, 0xFFFFFF; the next one must be 1, never 0.
    uint64_t id = 0;
    for (uint32_t i = 2; i < GENERATION_PERIOD; ++i) {
        if (wf_id_pool_add(&f.pool, &id) != WF_OK || wf_id_pool_remove(&f.pool, id) != WF_OK ||
            wf_id_generation(id) != i) {
            fail_msg("cycle %u: id 0x%016llx", (unsigned)i, (unsigned long long)id);
        }
    }
    uint64_t last = add_ok(&f.pool);
    assert_int_equal(wf_id_generation(last), GENERATION_PERIOD);
    assert_int_equal(wf_id_index(last), 0);
    assert_int_equal(wf_id_kind_of(last), WF_ID_KIND_TEST);
    remove_ok(&f.pool, last);

    uint64_t wrapped = add_ok(&f.pool);
    assert_int_equal(wf_id_generation(wrapped), 1);
    assert_false(wf_id_pool_is_valid(&f.pool, last));
    assert_true(wf_id_pool_is_valid(&f.pool, wrapped));
    fixture_destroy(&f);
}

static void test_generation_wrap_on_clear_and_from_loaded_state(void** state) {
    (void)state;
    fixture f;
    fixture_create(&f, 2, WF_ID_KIND_TEST);
    // Put slot 0 at the last generation through a saved image.
    blob b = save_pool(&f.pool);
    blob_set_word(&b, WORD_FIRST_SLOT + 0, GENERATION_PERIOD);
    assert_int_equal(wf_id_pool_load(&f.pool, b.bytes, b.size), WF_OK);
    uint64_t last = add_ok(&f.pool);
    assert_int_equal(wf_id_generation(last), GENERATION_PERIOD);

    // clear() bumps it past the end as well.
    wf_id_pool_clear(&f.pool);
    assert_false(wf_id_pool_is_valid(&f.pool, last));
    uint64_t wrapped = add_ok(&f.pool);
    assert_int_equal(wf_id_index(wrapped), 0);
    assert_int_equal(wf_id_generation(wrapped), 1);
    blob_free(&b);
    fixture_destroy(&f);
}

static void test_id_at_iterates_live_ids(void** state) {
    (void)state;
    fixture f;
    fixture_create(&f, 5, WF_ID_KIND_TEST);
    uint64_t ids[5];
    for (int i = 0; i < 5; ++i) {
        ids[i] = add_ok(&f.pool);
    }
    remove_ok(&f.pool, ids[1]);
    remove_ok(&f.pool, ids[3]);

    uint32_t live = 0;
    for (uint32_t i = 0; i < f.pool.capacity; ++i) {
        uint64_t id = wf_id_pool_id_at(&f.pool, i);
        if (i == 1 || i == 3) {
            assert_true(id == 0);
            continue;
        }
        assert_true(id == ids[i]);
        assert_true(wf_id_pool_is_valid(&f.pool, id));
        live++;
    }
    assert_int_equal(live, f.pool.live_count);
    assert_true(wf_id_pool_id_at(&f.pool, 5) == 0);
    assert_true(wf_id_pool_id_at(&f.pool, UINT32_MAX) == 0);

    // A reused slot reports its new id.
    uint64_t reused = add_ok(&f.pool);
    assert_true(wf_id_pool_id_at(&f.pool, wf_id_index(reused)) == reused);
    fixture_destroy(&f);
}

static void test_clear_makes_every_id_stale(void** state) {
    (void)state;
    fixture f;
    fixture_create(&f, 4, WF_ID_KIND_TEST);
    uint64_t ids[4];
    for (int i = 0; i < 4; ++i) {
        ids[i] = add_ok(&f.pool);
    }
    remove_ok(&f.pool, ids[2]);
    uint64_t reused = add_ok(&f.pool); // slot 2, generation 2

    wf_id_pool_clear(&f.pool);
    assert_int_equal(f.pool.live_count, 0);
    for (int i = 0; i < 4; ++i) {
        assert_false(wf_id_pool_is_valid(&f.pool, ids[i]));
        assert_true(wf_id_pool_id_at(&f.pool, (uint32_t)i) == 0);
    }
    assert_false(wf_id_pool_is_valid(&f.pool, reused));
    assert_int_equal(wf_id_pool_remove(&f.pool, ids[0]), WF_ERR_STALE_REF);

    // Every slot is free again, and none of the new ids repeats an old one.
    for (int i = 0; i < 4; ++i) {
        uint64_t id = add_ok(&f.pool);
        for (int j = 0; j < 4; ++j) {
            assert_true(id != ids[j]);
        }
        assert_true(id != reused);
    }
    uint64_t out;
    assert_int_equal(wf_id_pool_add(&f.pool, &out), WF_ERR_CAPACITY);
    fixture_destroy(&f);
}

// ---------------------------------------------------------------------------
// Save and load

/// A pool with some history: reused slots, a free list out of slot order.
static void make_history(wf_id_pool* pool, uint64_t* live_ids, uint64_t* stale_ids) {
    uint64_t ids[6];
    for (int i = 0; i < 6; ++i) {
        ids[i] = add_ok(pool);
    }
    remove_ok(pool, ids[4]);
    remove_ok(pool, ids[1]);
    uint64_t again = add_ok(pool); // slot 6 (never used)
    remove_ok(pool, ids[0]);
    stale_ids[0] = ids[4];
    stale_ids[1] = ids[1];
    stale_ids[2] = ids[0];
    live_ids[0] = ids[2];
    live_ids[1] = ids[3];
    live_ids[2] = ids[5];
    live_ids[3] = again;
}

static void test_save_load_round_trip(void** state) {
    (void)state;
    fixture a, b;
    fixture_create(&a, 8, WF_ID_KIND_AGENT);
    fixture_create(&b, 8, WF_ID_KIND_AGENT);
    uint64_t live[4], stale[3];
    make_history(&a.pool, live, stale);
    (void)add_ok(&b.pool); // b has its own, different, state before the load

    blob saved = save_pool(&a.pool);
    assert_int_equal(saved.size, wf_id_pool_save_size(&a.pool));
    assert_int_equal(saved.size, 4u * (6u + 8u + (8u - a.pool.live_count)));
    assert_int_equal(wf_id_pool_load(&b.pool, saved.bytes, saved.size), WF_OK);
    assert_pool_state(&b.pool, &saved);
    assert_int_equal(b.pool.live_count, a.pool.live_count);

    for (int i = 0; i < 4; ++i) {
        uint32_t ia, ib;
        assert_int_equal(wf_id_pool_find(&b.pool, live[i], &ib), WF_OK);
        assert_int_equal(wf_id_pool_find(&a.pool, live[i], &ia), WF_OK);
        assert_int_equal(ia, ib);
        assert_true(wf_id_pool_id_at(&b.pool, ib) == live[i]);
    }
    for (int i = 0; i < 3; ++i) {
        assert_false(wf_id_pool_is_valid(&b.pool, stale[i]));
    }
    // Both pools now behave identically: same next ids until full, and the
    // same after removes.
    for (;;) {
        uint64_t ida = 0, idb = 0;
        wf_status sa = wf_id_pool_add(&a.pool, &ida);
        wf_status sb = wf_id_pool_add(&b.pool, &idb);
        assert_int_equal(sa, sb);
        if (sa != WF_OK) {
            assert_int_equal(sa, WF_ERR_CAPACITY);
            break;
        }
        assert_true(ida == idb);
        assert_false(ida == stale[0] || ida == stale[1] || ida == stale[2]);
    }
    remove_ok(&a.pool, live[1]);
    remove_ok(&b.pool, live[1]);
    remove_ok(&a.pool, live[0]);
    remove_ok(&b.pool, live[0]);
    assert_true(add_ok(&a.pool) == add_ok(&b.pool));
    assert_true(add_ok(&a.pool) == add_ok(&b.pool));
    blob_free(&saved);
    fixture_destroy(&a);
    fixture_destroy(&b);
}

static void test_save_of_empty_and_full_pools(void** state) {
    (void)state;
    fixture a, b;
    fixture_create(&a, 3, WF_ID_KIND_TEST);
    fixture_create(&b, 3, WF_ID_KIND_TEST);
    blob empty = save_pool(&a.pool);
    assert_int_equal(blob_word(&empty, WORD_MAGIC), 0x44494657u);
    assert_int_equal(blob_word(&empty, WORD_KIND), WF_ID_KIND_TEST);
    assert_int_equal(blob_word(&empty, WORD_CAPACITY), 3);
    assert_int_equal(blob_word(&empty, WORD_LIVE), 0);
    assert_int_equal(blob_word(&empty, WORD_FREE_COUNT), 3);

    uint64_t ids[3];
    for (int i = 0; i < 3; ++i) {
        ids[i] = add_ok(&a.pool);
    }
    blob full = save_pool(&a.pool);
    assert_int_equal(full.size, 4u * (6u + 3u));
    assert_int_equal(wf_id_pool_load(&b.pool, full.bytes, full.size), WF_OK);
    for (int i = 0; i < 3; ++i) {
        assert_true(wf_id_pool_is_valid(&b.pool, ids[i]));
    }
    uint64_t out;
    assert_int_equal(wf_id_pool_add(&b.pool, &out), WF_ERR_CAPACITY);

    assert_int_equal(wf_id_pool_load(&b.pool, empty.bytes, empty.size), WF_OK);
    assert_int_equal(b.pool.live_count, 0);
    assert_int_equal(wf_id_index(add_ok(&b.pool)), 0);
    blob_free(&empty);
    blob_free(&full);
    fixture_destroy(&a);
    fixture_destroy(&b);
}

static void test_load_into_larger_pool(void** state) {
    (void)state;
    fixture a, big;
    fixture_create(&a, 8, WF_ID_KIND_AGENT);
    fixture_create(&big, 12, WF_ID_KIND_AGENT);
    uint64_t live[4], stale[3];
    make_history(&a.pool, live, stale);
    blob saved = save_pool(&a.pool);
    // Ids the big pool handed out before the load must not come back to life.
    uint64_t before_load[12];
    for (int i = 0; i < 12; ++i) {
        before_load[i] = add_ok(&big.pool);
    }
    assert_int_equal(wf_id_pool_load(&big.pool, saved.bytes, saved.size), WF_OK);
    assert_int_equal(big.pool.capacity, 12);
    assert_int_equal(big.pool.live_count, 4);

    for (int i = 0; i < 4; ++i) {
        assert_true(wf_id_pool_is_valid(&big.pool, live[i]));
    }
    for (int i = 0; i < 3; ++i) {
        assert_false(wf_id_pool_is_valid(&big.pool, stale[i]));
    }
    // The saved free list comes first, in order, then the extra slots.
    uint32_t saved_free = 8u - 4u;
    for (uint32_t k = 0; k < saved_free; ++k) {
        uint64_t ida = add_ok(&a.pool);
        uint64_t idb = add_ok(&big.pool);
        assert_true(ida == idb);
    }
    for (uint32_t slot = 8; slot < 12; ++slot) {
        uint64_t id = add_ok(&big.pool);
        assert_int_equal(wf_id_index(id), slot);
        assert_true(id != before_load[slot]);
        assert_false(wf_id_pool_is_valid(&big.pool, before_load[slot]));
    }
    uint64_t out;
    assert_int_equal(wf_id_pool_add(&big.pool, &out), WF_ERR_CAPACITY);
    blob_free(&saved);
    fixture_destroy(&a);
    fixture_destroy(&big);
}

static void test_load_into_smaller_pool_fails(void** state) {
    (void)state;
    fixture a, small;
    fixture_create(&a, 8, WF_ID_KIND_AGENT);
    fixture_create(&small, 7, WF_ID_KIND_AGENT);
    (void)add_ok(&a.pool);
    uint64_t kept = add_ok(&small.pool);
    blob saved = save_pool(&a.pool);
    blob before = save_pool(&small.pool);
    assert_int_equal(wf_id_pool_load(&small.pool, saved.bytes, saved.size), WF_ERR_CAPACITY);
    assert_pool_state(&small.pool, &before);
    assert_true(wf_id_pool_is_valid(&small.pool, kept));
    blob_free(&saved);
    blob_free(&before);
    fixture_destroy(&a);
    fixture_destroy(&small);
}

/// Loads `data` into f's pool, expects `expected`, and checks the pool kept
/// its state.
static void expect_load_fails(fixture* f, const unsigned char* data, size_t size,
                              wf_status expected) {
    blob before = save_pool(&f->pool);
    wf_status s = wf_id_pool_load(&f->pool, data, size);
    if (s != expected) {
        fail_msg("load of %zu bytes: got %s, expected %s", size, wf_status_string(s),
                 wf_status_string(expected));
    }
    assert_pool_state(&f->pool, &before);
    blob_free(&before);
}

/// Pools for the corruption tests: a source with history and a target that
/// already holds a live id of its own.
typedef struct load_case {
    fixture source;
    fixture target;
    blob saved;
    uint64_t target_live;
} load_case;

static void load_case_create(load_case* lc) {
    fixture_create(&lc->source, 8, WF_ID_KIND_TEST);
    fixture_create(&lc->target, 8, WF_ID_KIND_TEST);
    uint64_t live[4], stale[3];
    make_history(&lc->source.pool, live, stale);
    lc->saved = save_pool(&lc->source.pool);
    lc->target_live = add_ok(&lc->target.pool);
    (void)add_ok(&lc->target.pool);
    remove_ok(&lc->target.pool, lc->target_live);
    lc->target_live = add_ok(&lc->target.pool);
}

static void load_case_destroy(load_case* lc) {
    // The target still works after every refused load.
    assert_true(wf_id_pool_is_valid(&lc->target.pool, lc->target_live));
    blob_free(&lc->saved);
    fixture_destroy(&lc->source);
    fixture_destroy(&lc->target);
}

static void test_load_rejects_bad_magic_truncation_and_garbage(void** state) {
    (void)state;
    load_case lc;
    load_case_create(&lc);

    blob bad = blob_copy(&lc.saved);
    blob_set_word(&bad, WORD_MAGIC, 0x44494658u);
    expect_load_fails(&lc.target, bad.bytes, bad.size, WF_ERR_BAD_DATA);
    blob_free(&bad);

    // Every truncation, including an empty buffer.
    for (size_t size = 0; size < lc.saved.size; ++size) {
        expect_load_fails(&lc.target, lc.saved.bytes, size, WF_ERR_BAD_DATA);
    }
    // Trailing bytes are not silently ignored.
    bad = blob_copy(&lc.saved);
    memset(bad.bytes + bad.size, 0, 16);
    for (size_t extra = 1; extra <= 16; ++extra) {
        expect_load_fails(&lc.target, bad.bytes, bad.size + extra, WF_ERR_BAD_DATA);
    }
    blob_free(&bad);

    // Pseudo-random garbage of several sizes.
    uint32_t x = 0x9e3779b9u;
    unsigned char garbage[256];
    for (size_t i = 0; i < sizeof garbage; ++i) {
        x = x * 1664525u + 1013904223u;
        garbage[i] = (unsigned char)(x >> 24);
    }
    expect_load_fails(&lc.target, garbage, sizeof garbage, WF_ERR_BAD_DATA);
    expect_load_fails(&lc.target, garbage, 24, WF_ERR_BAD_DATA);
    expect_load_fails(&lc.target, garbage, 3, WF_ERR_BAD_DATA);

    // A NULL buffer is misuse unless it is empty.
    expect_load_fails(&lc.target, NULL, 16, WF_ERR_INVALID_ARG);
    expect_load_fails(&lc.target, NULL, 0, WF_ERR_BAD_DATA);
    load_case_destroy(&lc);
}

static void test_load_rejects_other_version(void** state) {
    (void)state;
    load_case lc;
    load_case_create(&lc);
    blob bad = blob_copy(&lc.saved);
    uint32_t version = blob_word(&bad, WORD_VERSION);
    blob_set_word(&bad, WORD_VERSION, version + 1u);
    expect_load_fails(&lc.target, bad.bytes, bad.size, WF_ERR_VERSION);
    blob_set_word(&bad, WORD_VERSION, 0u);
    expect_load_fails(&lc.target, bad.bytes, bad.size, WF_ERR_VERSION);
    blob_free(&bad);
    load_case_destroy(&lc);
}

static void test_load_rejects_other_kind(void** state) {
    (void)state;
    load_case lc;
    load_case_create(&lc);
    // A save from an agent pool does not load into a test-kind pool.
    fixture agents;
    fixture_create(&agents, 8, WF_ID_KIND_AGENT);
    (void)add_ok(&agents.pool);
    blob agent_save = save_pool(&agents.pool);
    expect_load_fails(&lc.target, agent_save.bytes, agent_save.size, WF_ERR_WRONG_KIND);
    blob_free(&agent_save);
    fixture_destroy(&agents);

    blob bad = blob_copy(&lc.saved);
    blob_set_word(&bad, WORD_KIND, WF_ID_KIND_NONE);
    expect_load_fails(&lc.target, bad.bytes, bad.size, WF_ERR_WRONG_KIND);
    blob_free(&bad);
    load_case_destroy(&lc);
}

/// Index of the free list's k-th word in a save of `capacity` slots.
static uint32_t free_word(uint32_t capacity, uint32_t k) { return WORD_FIRST_SLOT + capacity + k; }

static void test_load_rejects_corrupt_contents(void** state) {
    (void)state;
    load_case lc;
    load_case_create(&lc);
    const blob* good = &lc.saved;
    uint32_t capacity = blob_word(good, WORD_CAPACITY);
    uint32_t live = blob_word(good, WORD_LIVE);
    uint32_t free_count = blob_word(good, WORD_FREE_COUNT);
    assert_int_equal(capacity, 8);
    assert_int_equal(live, 4);
    assert_int_equal(free_count, 4);
    // The unmodified save does load (into a scratch pool) so the failures
    // below come from the corruption alone.
    {
        fixture scratch;
        fixture_create(&scratch, 8, WF_ID_KIND_TEST);
        assert_int_equal(wf_id_pool_load(&scratch.pool, good->bytes, good->size), WF_OK);
        fixture_destroy(&scratch);
    }

    // Find a live slot and the first free-list entry.
    uint32_t live_slot = UINT32_MAX;
    for (uint32_t i = 0; i < capacity && live_slot == UINT32_MAX; ++i) {
        if (blob_word(good, WORD_FIRST_SLOT + i) & SLOT_LIVE_BIT) {
            live_slot = i;
        }
    }
    assert_true(live_slot != UINT32_MAX);
    uint32_t first_free = blob_word(good, free_word(capacity, 0));

    blob bad = blob_copy(good);
    // Duplicate index in the free list.
    blob_set_word(&bad, free_word(capacity, 1), first_free);
    expect_load_fails(&lc.target, bad.bytes, bad.size, WF_ERR_BAD_DATA);

    // A live slot named in the free list.
    memcpy(bad.bytes, good->bytes, good->size);
    blob_set_word(&bad, free_word(capacity, 2), live_slot);
    expect_load_fails(&lc.target, bad.bytes, bad.size, WF_ERR_BAD_DATA);

    // A free-list index past the capacity.
    memcpy(bad.bytes, good->bytes, good->size);
    blob_set_word(&bad, free_word(capacity, 3), capacity);
    expect_load_fails(&lc.target, bad.bytes, bad.size, WF_ERR_BAD_DATA);
    blob_set_word(&bad, free_word(capacity, 3), UINT32_MAX);
    expect_load_fails(&lc.target, bad.bytes, bad.size, WF_ERR_BAD_DATA);

    // Generation 0 on a free slot and on a live slot.
    memcpy(bad.bytes, good->bytes, good->size);
    blob_set_word(&bad, WORD_FIRST_SLOT + first_free, 0u);
    expect_load_fails(&lc.target, bad.bytes, bad.size, WF_ERR_BAD_DATA);
    memcpy(bad.bytes, good->bytes, good->size);
    blob_set_word(&bad, WORD_FIRST_SLOT + live_slot, SLOT_LIVE_BIT);
    expect_load_fails(&lc.target, bad.bytes, bad.size, WF_ERR_BAD_DATA);

    // A generation wider than 24 bits.
    memcpy(bad.bytes, good->bytes, good->size);
    blob_set_word(&bad, WORD_FIRST_SLOT + first_free, WF_ID_GENERATION_MASK + 1u);
    expect_load_fails(&lc.target, bad.bytes, bad.size, WF_ERR_BAD_DATA);

    // Live bits that disagree with live_count (a free slot marked live).
    memcpy(bad.bytes, good->bytes, good->size);
    blob_set_word(&bad, WORD_FIRST_SLOT + first_free,
                  blob_word(good, WORD_FIRST_SLOT + first_free) | SLOT_LIVE_BIT);
    expect_load_fails(&lc.target, bad.bytes, bad.size, WF_ERR_BAD_DATA);

    // Header counts that disagree with each other or with the size.
    memcpy(bad.bytes, good->bytes, good->size);
    blob_set_word(&bad, WORD_LIVE, live + 1u);
    expect_load_fails(&lc.target, bad.bytes, bad.size, WF_ERR_BAD_DATA);
    memcpy(bad.bytes, good->bytes, good->size);
    blob_set_word(&bad, WORD_FREE_COUNT, free_count - 1u);
    expect_load_fails(&lc.target, bad.bytes, bad.size, WF_ERR_BAD_DATA);
    memcpy(bad.bytes, good->bytes, good->size);
    blob_set_word(&bad, WORD_LIVE, capacity + 1u);
    expect_load_fails(&lc.target, bad.bytes, bad.size, WF_ERR_BAD_DATA);
    memcpy(bad.bytes, good->bytes, good->size);
    blob_set_word(&bad, WORD_CAPACITY, capacity - 1u);
    expect_load_fails(&lc.target, bad.bytes, bad.size, WF_ERR_BAD_DATA);
    memcpy(bad.bytes, good->bytes, good->size);
    blob_set_word(&bad, WORD_CAPACITY, 0u);
    blob_set_word(&bad, WORD_LIVE, 0u);
    blob_set_word(&bad, WORD_FREE_COUNT, 0u);
    expect_load_fails(&lc.target, bad.bytes, 4u * WORD_FIRST_SLOT, WF_ERR_BAD_DATA);

    blob_free(&bad);
    load_case_destroy(&lc);
}

static void test_load_out_of_memory(void** state) {
    (void)state;
    load_case lc;
    load_case_create(&lc);
    // Validation needs one scratch allocation: make it fail.
    lc.target.counter.fail_at = atomic_load(&lc.target.counter.attempt) + 1u;
    expect_load_fails(&lc.target, lc.saved.bytes, lc.saved.size, WF_ERR_OUT_OF_MEMORY);
    assert_int_equal(atomic_load(&lc.target.counter.failed), 1);
    assert_int_equal(counting_allocator_live(&lc.target.counter), 2);

    // The same load goes through once memory is back, and frees its scratch.
    assert_int_equal(wf_id_pool_load(&lc.target.pool, lc.saved.bytes, lc.saved.size), WF_OK);
    assert_int_equal(counting_allocator_live(&lc.target.counter), 2);
    assert_pool_state(&lc.target.pool, &lc.saved);
    // The target's old id is gone with its old state; re-take a live one so
    // the common teardown check holds.
    lc.target_live = wf_id_pool_id_at(&lc.target.pool, 2);
    assert_true(lc.target_live != 0);
    load_case_destroy(&lc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_rejects_bad_arguments),
        cmocka_unit_test(test_create_with_default_allocator),
        cmocka_unit_test(test_create_out_of_memory),
        cmocka_unit_test(test_ids_carry_kind_slot_and_generation),
        cmocka_unit_test(test_full_pool_reports_capacity),
        cmocka_unit_test(test_removed_ids_are_stale),
        cmocka_unit_test(test_bad_ids_are_rejected),
        cmocka_unit_test(test_reuse_is_fifo_with_new_ids),
        cmocka_unit_test(test_generation_wraps_to_one_never_zero),
        cmocka_unit_test(test_generation_wrap_on_clear_and_from_loaded_state),
        cmocka_unit_test(test_id_at_iterates_live_ids),
        cmocka_unit_test(test_clear_makes_every_id_stale),
        cmocka_unit_test(test_save_load_round_trip),
        cmocka_unit_test(test_save_of_empty_and_full_pools),
        cmocka_unit_test(test_load_into_larger_pool),
        cmocka_unit_test(test_load_into_smaller_pool_fails),
        cmocka_unit_test(test_load_rejects_bad_magic_truncation_and_garbage),
        cmocka_unit_test(test_load_rejects_other_version),
        cmocka_unit_test(test_load_rejects_other_kind),
        cmocka_unit_test(test_load_rejects_corrupt_contents),
        cmocka_unit_test(test_load_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
