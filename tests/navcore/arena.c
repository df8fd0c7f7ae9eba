// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Linear scratch arena: alignment, exact fit, failures that leave the arena
// unchanged, marks, high water, owned buffers and their allocator traffic.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "navcore/alloc.h"
#include "navcore/arena.h"

#define BUFFER_SIZE 1024u

/// A caller buffer aligned well beyond anything the tests ask for, so offsets
/// inside it are predictable.
static _Alignas(4096) unsigned char g_buffer[BUFFER_SIZE];

static void test_init_on_caller_buffer(void** state) {
    (void)state;
    wf_arena arena;
    memset(&arena, 0xcd, sizeof arena);
    wf_arena_init(&arena, g_buffer, BUFFER_SIZE);
    assert_ptr_equal(arena.base, g_buffer);
    assert_int_equal(arena.capacity, BUFFER_SIZE);
    assert_int_equal(arena.used, 0);
    assert_int_equal(arena.high_water, 0);
    assert_false(arena.owns_buffer);
    assert_int_equal(wf_arena_remaining(&arena), BUFFER_SIZE);

    unsigned char* p = wf_arena_alloc(&arena, 10, 1);
    assert_ptr_equal(p, g_buffer);
    unsigned char* q = wf_arena_alloc(&arena, 6, 1);
    assert_ptr_equal(q, g_buffer + 10);
    assert_int_equal(arena.used, 16);
    assert_int_equal(wf_arena_remaining(&arena), BUFFER_SIZE - 16);
}

static void test_results_are_aligned(void** state) {
    (void)state;
    wf_arena arena;
    wf_arena_init(&arena, g_buffer, BUFFER_SIZE);
    static const size_t aligns[] = {1, 2, 4, 8, 16, 32, 64, 128, 256};
    for (size_t i = 0; i < sizeof aligns / sizeof aligns[0]; ++i) {
        // An odd-sized allocation first so the next one needs padding.
        unsigned char* odd = wf_arena_alloc(&arena, 3, 1);
        assert_non_null(odd);
        size_t used_before = arena.used;
        unsigned char* p = wf_arena_alloc(&arena, 5, aligns[i]);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % aligns[i], 0);
        assert_true(p >= odd + 3);
        assert_true((size_t)(p - g_buffer) < used_before + aligns[i]); // minimal padding
        assert_int_equal(arena.used, (size_t)(p - g_buffer) + 5);
    }
}

static void test_alignment_uses_the_address_not_the_offset(void** state) {
    (void)state;
    // A base that is only 1-aligned: results must still be aligned in memory.
    wf_arena arena;
    wf_arena_init(&arena, g_buffer + 1, BUFFER_SIZE - 1);
    unsigned char* p = wf_arena_alloc(&arena, 8, 16);
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % 16u, 0);
    assert_ptr_equal(p, g_buffer + 16);
    assert_int_equal(arena.used, 15 + 8);
}

static void test_failure_returns_null_and_changes_nothing(void** state) {
    (void)state;
    wf_arena arena;
    wf_arena_init(&arena, g_buffer, 100);
    assert_non_null(wf_arena_alloc(&arena, 60, 1));
    wf_arena snapshot = arena;

    assert_null(wf_arena_alloc(&arena, 41, 1));
    assert_memory_equal(&arena, &snapshot, sizeof arena);
    assert_null(wf_arena_alloc_zeroed(&arena, 1000, 8));
    assert_memory_equal(&arena, &snapshot, sizeof arena);
    // Fits by size but not once padded to the alignment.
    assert_null(wf_arena_alloc(&arena, 40, 64));
    assert_memory_equal(&arena, &snapshot, sizeof arena);
    assert_null(wf_arena_alloc(&arena, SIZE_MAX, 1));
    assert_null(wf_arena_alloc(&arena, SIZE_MAX - 50, 1));
    // Padding plus a huge size must not wrap around to a small total.
    assert_null(wf_arena_alloc(&arena, SIZE_MAX, 64));
    assert_null(wf_arena_alloc(&arena, SIZE_MAX - 2, 8));
    assert_memory_equal(&arena, &snapshot, sizeof arena);

    // What does fit still works afterwards.
    assert_non_null(wf_arena_alloc(&arena, 40, 1));
    assert_int_equal(arena.used, 100);
}

static void test_exact_fit_succeeds(void** state) {
    (void)state;
    wf_arena arena;
    wf_arena_init(&arena, g_buffer, 64);
    assert_non_null(wf_arena_alloc(&arena, 7, 1));
    unsigned char* p = wf_arena_alloc(&arena, 56, 8); // 1 byte of padding, then 56
    assert_ptr_equal(p, g_buffer + 8);
    assert_int_equal(arena.used, 64);
    assert_int_equal(wf_arena_remaining(&arena), 0);
    assert_null(wf_arena_alloc(&arena, 1, 1));
    // A zero-byte request still fits in a full arena.
    assert_non_null(wf_arena_alloc(&arena, 0, 1));
    assert_int_equal(arena.used, 64);

    wf_arena whole;
    wf_arena_init(&whole, g_buffer, BUFFER_SIZE);
    assert_ptr_equal(wf_arena_alloc(&whole, BUFFER_SIZE, 64), g_buffer);
    assert_int_equal(whole.used, BUFFER_SIZE);
}

static void test_zero_capacity_and_null_buffer_always_fail(void** state) {
    (void)state;
    wf_arena empty;
    wf_arena_init(&empty, g_buffer, 0);
    assert_null(wf_arena_alloc(&empty, 1, 1));
    assert_int_equal(empty.used, 0);

    wf_arena none;
    wf_arena_init(&none, NULL, 128);
    assert_int_equal(none.capacity, 0);
    assert_null(wf_arena_alloc(&none, 1, 1));
    assert_null(wf_arena_alloc(&none, 0, 1));
}

static void test_mark_and_reset_to(void** state) {
    (void)state;
    wf_arena arena;
    wf_arena_init(&arena, g_buffer, BUFFER_SIZE);
    assert_non_null(wf_arena_alloc(&arena, 100, 4));
    wf_arena_mark mark = wf_arena_get_mark(&arena);
    assert_int_equal(mark.used, 100);

    unsigned char* later = wf_arena_alloc(&arena, 200, 4);
    assert_ptr_equal(later, g_buffer + 100);
    assert_non_null(wf_arena_alloc(&arena, 300, 4));
    assert_int_equal(arena.used, 600);

    wf_arena_reset_to(&arena, mark);
    assert_int_equal(arena.used, 100);
    // The space after the mark is handed out again.
    assert_ptr_equal(wf_arena_alloc(&arena, 200, 4), later);

    // Nested marks unwind in order.
    wf_arena_mark inner = wf_arena_get_mark(&arena);
    assert_non_null(wf_arena_alloc(&arena, 50, 1));
    wf_arena_reset_to(&arena, inner);
    assert_int_equal(arena.used, 300);
    wf_arena_reset_to(&arena, mark);
    assert_int_equal(arena.used, 100);

    // A mark from beyond the current position (after an earlier rollback)
    // must not grow the arena over memory it never handed out.
    wf_arena_mark stale = {500};
    wf_arena_reset_to(&arena, stale);
    assert_int_equal(arena.used, 100);
}

static void test_reset_and_high_water(void** state) {
    (void)state;
    wf_arena arena;
    wf_arena_init(&arena, g_buffer, BUFFER_SIZE);
    assert_non_null(wf_arena_alloc(&arena, 300, 1));
    assert_int_equal(arena.high_water, 300);
    wf_arena_mark mark = wf_arena_get_mark(&arena);
    assert_non_null(wf_arena_alloc(&arena, 400, 1));
    assert_int_equal(arena.high_water, 700);
    wf_arena_reset_to(&arena, mark);
    assert_int_equal(arena.high_water, 700);
    assert_non_null(wf_arena_alloc(&arena, 100, 1));
    assert_int_equal(arena.high_water, 700);

    wf_arena_reset(&arena);
    assert_int_equal(arena.used, 0);
    assert_int_equal(arena.high_water, 700);
    assert_int_equal(wf_arena_remaining(&arena), BUFFER_SIZE);
    assert_ptr_equal(wf_arena_alloc(&arena, 1, 1), g_buffer);

    // A failed request does not move the high water mark.
    assert_null(wf_arena_alloc(&arena, BUFFER_SIZE, 1));
    assert_int_equal(arena.high_water, 700);
    assert_non_null(wf_arena_alloc(&arena, 899, 1));
    assert_int_equal(arena.high_water, 900);
}

static void test_zeroed_variant(void** state) {
    (void)state;
    memset(g_buffer, 0xee, sizeof g_buffer);
    wf_arena arena;
    wf_arena_init(&arena, g_buffer, BUFFER_SIZE);
    unsigned char* p = wf_arena_alloc_zeroed(&arena, 200, 32);
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % 32u, 0);
    for (size_t i = 0; i < 200; ++i) {
        assert_int_equal(p[i], 0);
    }
    // Only the requested bytes are cleared.
    assert_int_equal(g_buffer[200], 0xee);
    assert_null(wf_arena_alloc_zeroed(&arena, BUFFER_SIZE, 1));
    assert_int_equal(g_buffer[200], 0xee);
    assert_int_equal(arena.used, 200);
}

static void test_bad_alignment_returns_null(void** state) {
    (void)state;
    wf_arena arena;
    wf_arena_init(&arena, g_buffer, BUFFER_SIZE);
    static const size_t bad[] = {0, 3, 6, 12, 24, 100};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        assert_null(wf_arena_alloc(&arena, 8, bad[i]));
        assert_null(wf_arena_alloc_zeroed(&arena, 8, bad[i]));
    }
    assert_int_equal(arena.used, 0);
    assert_int_equal(arena.high_water, 0);
}

static void test_array_macro(void** state) {
    (void)state;
    wf_arena arena;
    wf_arena_init(&arena, g_buffer, BUFFER_SIZE);
    assert_non_null(wf_arena_alloc(&arena, 1, 1));
    uint64_t* values = WF_ARENA_ARRAY(&arena, uint64_t, 10);
    assert_non_null(values);
    assert_int_equal((uintptr_t)values % _Alignof(uint64_t), 0);
    assert_int_equal(arena.used, _Alignof(uint64_t) + 80);

    // count * size overflowing size_t must fail, not wrap to a small size.
    size_t used = arena.used;
    assert_null(WF_ARENA_ARRAY(&arena, uint64_t, SIZE_MAX / 4));
    assert_null(WF_ARENA_ARRAY(&arena, uint32_t, (SIZE_MAX / 4) + 2));
    assert_int_equal(arena.used, used);
}

static void test_create_and_destroy_with_allocator(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_allocator a = counting_allocator_hooks(&c);

    wf_arena arena;
    assert_int_equal(wf_arena_create(&arena, &a, 4096), WF_OK);
    assert_non_null(arena.base);
    assert_true(arena.owns_buffer);
    assert_int_equal(arena.capacity, 4096);
    assert_int_equal(arena.used, 0);
    assert_int_equal(counting_allocator_live(&c), 1);
    assert_int_equal(atomic_load(&c.live_bytes), 4096);

    unsigned char* p = wf_arena_alloc(&arena, 4096, 64);
    assert_ptr_equal(p, arena.base);
    memset(p, 1, 4096); // the whole buffer is usable (ASan checks)
    assert_null(wf_arena_alloc(&arena, 1, 1));

    wf_arena_destroy(&arena, &a);
    assert_int_equal(counting_allocator_live(&c), 0);
    assert_int_equal(atomic_load(&c.live_bytes), 0);
    assert_int_equal(atomic_load(&c.size_mismatches), 0);
    assert_null(arena.base);
    assert_int_equal(arena.capacity, 0);
    assert_false(arena.owns_buffer);
}

static void test_destroy_does_not_free_caller_buffer(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_allocator a = counting_allocator_hooks(&c);
    wf_arena arena;
    wf_arena_init(&arena, g_buffer, BUFFER_SIZE);
    assert_non_null(wf_arena_alloc(&arena, 10, 1));
    wf_arena_destroy(&arena, &a);
    assert_int_equal(atomic_load(&c.frees), 0);
    assert_null(arena.base);
    assert_int_equal(arena.used, 0);
}

static void test_create_out_of_memory(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    c.fail_at = 1;
    wf_allocator a = counting_allocator_hooks(&c);

    wf_arena arena;
    memset(&arena, 0, sizeof arena);
    assert_int_equal(wf_arena_create(&arena, &a, 4096), WF_ERR_OUT_OF_MEMORY);
    assert_int_equal(atomic_load(&c.failed), 1);
    assert_int_equal(counting_allocator_live(&c), 0);
    assert_null(arena.base);

    // The next attempt succeeds.
    assert_int_equal(wf_arena_create(&arena, &a, 128), WF_OK);
    wf_arena_destroy(&arena, &a);
    assert_int_equal(counting_allocator_live(&c), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_on_caller_buffer),
        cmocka_unit_test(test_results_are_aligned),
        cmocka_unit_test(test_alignment_uses_the_address_not_the_offset),
        cmocka_unit_test(test_failure_returns_null_and_changes_nothing),
        cmocka_unit_test(test_exact_fit_succeeds),
        cmocka_unit_test(test_zero_capacity_and_null_buffer_always_fail),
        cmocka_unit_test(test_mark_and_reset_to),
        cmocka_unit_test(test_reset_and_high_water),
        cmocka_unit_test(test_zeroed_variant),
        cmocka_unit_test(test_bad_alignment_returns_null),
        cmocka_unit_test(test_array_macro),
        cmocka_unit_test(test_create_and_destroy_with_allocator),
        cmocka_unit_test(test_destroy_does_not_free_caller_buffer),
        cmocka_unit_test(test_create_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
