// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Allocator, logger and assert hooks: allocator resolution, checked allocation,
// log formatting and truncation, the misuse path, and the linked version.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "navcore/alloc.h"
#include "navcore/check.h"
#include "navcore/log.h"
#include "wayfarer/base.h"
#include "wayfarer/version.h"

static void* dummy_alloc(size_t size, size_t align, void* user) {
    (void)size;
    (void)align;
    (void)user;
    return NULL;
}

static void dummy_free(void* ptr, size_t size, size_t align, void* user) {
    (void)ptr;
    (void)size;
    (void)align;
    (void)user;
}

// ---------------------------------------------------------------------------
// wf_allocator_resolve

static void test_resolve_null_gives_working_default(void** state) {
    (void)state;
    wf_allocator out;
    memset(&out, 0, sizeof out);
    assert_int_equal(wf_allocator_resolve(NULL, &out), WF_OK);
    assert_non_null(out.alloc);
    assert_non_null(out.free);

    unsigned char* p = wf_alloc(&out, 100, 16);
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % 16u, 0);
    memset(p, 0xab, 100);
    wf_free(&out, p, 100, 16);
}

static void test_resolve_zeroed_gives_default(void** state) {
    (void)state;
    wf_allocator in;
    memset(&in, 0, sizeof in);
    wf_allocator out;
    memset(&out, 0, sizeof out);
    assert_int_equal(wf_allocator_resolve(&in, &out), WF_OK);
    assert_non_null(out.alloc);
    assert_non_null(out.free);

    // Large alignments go through aligned_alloc in the default allocator.
    static const size_t aligns[] = {1, 8, 16, 64, 256, 4096};
    for (size_t i = 0; i < sizeof aligns / sizeof aligns[0]; ++i) {
        void* p = wf_alloc(&out, 33, aligns[i]);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % aligns[i], 0);
        wf_free(&out, p, 33, aligns[i]);
    }
}

static void test_resolve_keeps_custom_hooks(void** state) {
    (void)state;
    int marker = 0;
    wf_allocator in = {dummy_alloc, dummy_free, &marker};
    wf_allocator out;
    memset(&out, 0, sizeof out);
    assert_int_equal(wf_allocator_resolve(&in, &out), WF_OK);
    assert_true(out.alloc == dummy_alloc);
    assert_true(out.free == dummy_free);
    assert_ptr_equal(out.user, &marker);
}

static void test_resolve_rejects_half_set_allocator(void** state) {
    (void)state;
    wf_allocator only_alloc = {dummy_alloc, NULL, NULL};
    wf_allocator only_free = {NULL, dummy_free, NULL};
    wf_allocator out;
    assert_int_equal(wf_allocator_resolve(&only_alloc, &out), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_allocator_resolve(&only_free, &out), WF_ERR_INVALID_ARG);
}

// ---------------------------------------------------------------------------
// wf_alloc / wf_alloc_zeroed / wf_free

static void test_alloc_counts_and_frees(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_allocator a = counting_allocator_hooks(&c);

    void* p = wf_alloc(&a, 40, 8);
    void* q = wf_alloc(&a, 24, 8);
    assert_non_null(p);
    assert_non_null(q);
    assert_ptr_not_equal(p, q);
    assert_int_equal(atomic_load(&c.allocations), 2);
    assert_int_equal(atomic_load(&c.live_bytes), 64);
    assert_int_equal(counting_allocator_live(&c), 2);

    wf_free(&a, p, 40, 8);
    assert_int_equal(counting_allocator_live(&c), 1);
    assert_int_equal(atomic_load(&c.live_bytes), 24);
    wf_free(&a, q, 24, 8);
    assert_int_equal(counting_allocator_live(&c), 0);
    assert_int_equal(atomic_load(&c.live_bytes), 0);
    assert_int_equal(atomic_load(&c.peak_bytes), 64);
    assert_int_equal(atomic_load(&c.size_mismatches), 0);

    // Freeing NULL is ignored and does not reach the hook.
    wf_free(&a, NULL, 10, 8);
    assert_int_equal(atomic_load(&c.frees), 2);
}

static void test_alloc_size_zero_is_unique(void** state) {
    (void)state;
    wf_allocator a;
    assert_int_equal(wf_allocator_resolve(NULL, &a), WF_OK);
    void* p = wf_alloc(&a, 0, 8);
    void* q = wf_alloc(&a, 0, 8);
    assert_non_null(p);
    assert_non_null(q);
    assert_ptr_not_equal(p, q);
    wf_free(&a, p, 0, 8);
    wf_free(&a, q, 0, 8);
}

static void test_alloc_honours_alignment(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_allocator a = counting_allocator_hooks(&c);

    static const size_t aligns[] = {8, 16, 64, 256, 4096};
    void* blocks[sizeof aligns / sizeof aligns[0]];
    for (size_t i = 0; i < sizeof aligns / sizeof aligns[0]; ++i) {
        blocks[i] = wf_alloc(&a, 100, aligns[i]);
        assert_non_null(blocks[i]);
        assert_int_equal((uintptr_t)blocks[i] % aligns[i], 0);
        memset(blocks[i], 0x5a, 100);
    }
    for (size_t i = 0; i < sizeof aligns / sizeof aligns[0]; ++i) {
        wf_free(&a, blocks[i], 100, aligns[i]);
    }
    assert_int_equal(counting_allocator_live(&c), 0);
    assert_int_equal(atomic_load(&c.size_mismatches), 0);
}

static void test_alloc_zeroed_is_zero(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_allocator a = counting_allocator_hooks(&c);

    // Dirty a block first so a zeroed one that reuses it would show garbage.
    unsigned char* dirty = wf_alloc(&a, 512, 64);
    assert_non_null(dirty);
    memset(dirty, 0xff, 512);
    wf_free(&a, dirty, 512, 64);

    unsigned char* p = wf_alloc_zeroed(&a, 512, 64);
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % 64u, 0);
    for (size_t i = 0; i < 512; ++i) {
        assert_int_equal(p[i], 0);
    }
    wf_free(&a, p, 512, 64);

    int* array = WF_ALLOC_ARRAY(&a, int, 37);
    assert_non_null(array);
    for (size_t i = 0; i < 37; ++i) {
        assert_int_equal(array[i], 0);
    }
    WF_FREE_ARRAY(&a, array, int, 37);
    assert_int_equal(counting_allocator_live(&c), 0);
    assert_int_equal(atomic_load(&c.size_mismatches), 0);
}

static void test_alloc_bad_alignment_skips_hook(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_allocator a = counting_allocator_hooks(&c);

    static const size_t bad_aligns[] = {0, 3, 6, 12, 8192, WF_MAX_ALIGN * 2u};
    for (size_t i = 0; i < sizeof bad_aligns / sizeof bad_aligns[0]; ++i) {
        assert_null(wf_alloc(&a, 16, bad_aligns[i]));
        assert_null(wf_alloc_zeroed(&a, 16, bad_aligns[i]));
    }
    assert_int_equal(atomic_load(&c.attempt), 0);
    assert_int_equal(atomic_load(&c.allocations), 0);

    // WF_MAX_ALIGN itself is allowed.
    void* p = wf_alloc(&a, 16, WF_MAX_ALIGN);
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % WF_MAX_ALIGN, 0);
    wf_free(&a, p, 16, WF_MAX_ALIGN);
    assert_int_equal(counting_allocator_live(&c), 0);
}

static void test_size_mul_overflow_fails_allocation(void** state) {
    (void)state;
    assert_true(wf_size_mul(3, 4) == 12);
    assert_true(wf_size_mul(0, 8) == 0);
    assert_true(wf_size_mul(8, 0) == 0);
    assert_true(wf_size_mul(SIZE_MAX, 1) == SIZE_MAX);
    assert_true(wf_size_mul(SIZE_MAX / 2 + 1, 2) == SIZE_MAX);
    assert_true(wf_size_mul(SIZE_MAX / 8 + 1, 8) == SIZE_MAX);
    assert_true(wf_size_mul(SIZE_MAX / 8, 8) == (SIZE_MAX / 8) * 8);

    counting_allocator c;
    counting_allocator_init(&c);
    wf_allocator a = counting_allocator_hooks(&c);
    assert_null(wf_alloc(&a, wf_size_mul(SIZE_MAX / 4, 16), 8));
    assert_null(WF_ALLOC_ARRAY(&a, uint64_t, SIZE_MAX / 4));
    assert_int_equal(atomic_load(&c.attempt), 0);
}

static void test_alloc_failure_is_reported(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    c.fail_at = 2;
    wf_allocator a = counting_allocator_hooks(&c);

    void* p = wf_alloc(&a, 8, 8);
    assert_non_null(p);
    assert_null(wf_alloc_zeroed(&a, 8, 8));
    void* q = wf_alloc(&a, 8, 8);
    assert_non_null(q);
    assert_int_equal(atomic_load(&c.failed), 1);
    wf_free(&a, p, 8, 8);
    wf_free(&a, q, 8, 8);
    assert_int_equal(counting_allocator_live(&c), 0);
}

// ---------------------------------------------------------------------------
// wf_log

typedef struct log_record {
    int calls;
    wf_log_level level;
    char message[WF_LOG_MAX_MESSAGE + 16];
} log_record;

static void record_log(wf_log_level level, const char* message, void* user) {
    log_record* r = user;
    r->calls++;
    r->level = level;
    size_t n = strlen(message);
    assert_true(n < sizeof r->message);
    memcpy(r->message, message, n + 1);
}

static void test_log_hook_receives_level_and_message(void** state) {
    (void)state;
    log_record r;
    memset(&r, 0, sizeof r);
    wf_logger logger = {record_log, &r, false};

    wf_log(&logger, WF_LOG_WARN, "tile %d of %s: %.2f", 7, "north", 1.5);
    assert_int_equal(r.calls, 1);
    assert_int_equal(r.level, WF_LOG_WARN);
    assert_string_equal(r.message, "tile 7 of north: 1.50");

    // With a hook every level is delivered, debug included.
    wf_log(&logger, WF_LOG_DEBUG, "x=%u", 42u);
    assert_int_equal(r.calls, 2);
    assert_int_equal(r.level, WF_LOG_DEBUG);
    assert_string_equal(r.message, "x=42");

    wf_log(&logger, WF_LOG_ERROR, "%s", "");
    assert_int_equal(r.calls, 3);
    assert_int_equal(r.level, WF_LOG_ERROR);
    assert_string_equal(r.message, "");
}

static void test_log_truncates_long_messages(void** state) {
    (void)state;
    log_record r;
    memset(&r, 0, sizeof r);
    wf_logger logger = {record_log, &r, false};

    char long_text[WF_LOG_MAX_MESSAGE * 2];
    memset(long_text, 'a', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';

    wf_log(&logger, WF_LOG_INFO, "%s", long_text);
    assert_int_equal(r.calls, 1);
    size_t n = strlen(r.message);
    assert_int_equal(n, WF_LOG_MAX_MESSAGE - 1);
    assert_string_equal(r.message + n - 3, "...");
    for (size_t i = 0; i < n - 3; ++i) {
        assert_int_equal(r.message[i], 'a');
    }

    // One character short of the limit fits exactly and is not marked.
    long_text[WF_LOG_MAX_MESSAGE - 1] = '\0';
    wf_log(&logger, WF_LOG_INFO, "%s", long_text);
    assert_int_equal(r.calls, 2);
    assert_int_equal(strlen(r.message), WF_LOG_MAX_MESSAGE - 1);
    assert_int_equal(r.message[WF_LOG_MAX_MESSAGE - 2], 'a');

    // One character more than fits is cut.
    long_text[WF_LOG_MAX_MESSAGE - 1] = 'a';
    long_text[WF_LOG_MAX_MESSAGE] = '\0';
    wf_log(&logger, WF_LOG_INFO, "%s", long_text);
    assert_int_equal(r.calls, 3);
    assert_int_equal(strlen(r.message), WF_LOG_MAX_MESSAGE - 1);
    assert_string_equal(r.message + WF_LOG_MAX_MESSAGE - 4, "...");
}

static void test_quiet_logger_drops_everything(void** state) {
    (void)state;
    log_record r;
    memset(&r, 0, sizeof r);
    wf_logger logger = {record_log, &r, true};
    wf_log(&logger, WF_LOG_ERROR, "error %d", 1);
    wf_log(&logger, WF_LOG_WARN, "warn");
    wf_log(&logger, WF_LOG_INFO, "info");
    wf_log(&logger, WF_LOG_DEBUG, "debug");
    assert_int_equal(r.calls, 0);

    // Quiet without a hook must not touch stderr or crash either.
    wf_logger quiet_default = {NULL, NULL, true};
    wf_log(&quiet_default, WF_LOG_ERROR, "dropped %s", "too");
}

static void test_null_logger_does_not_crash(void** state) {
    (void)state;
    // Info and debug are dropped by the default logger; the warning goes to
    // stderr (expected in the test output).
    wf_log(NULL, WF_LOG_DEBUG, "debug %d", 1);
    wf_log(NULL, WF_LOG_INFO, "info %d", 2);
    wf_log(NULL, WF_LOG_WARN, "expected test warning from hooks.c (%d)", 3);
    wf_logger zeroed;
    memset(&zeroed, 0, sizeof zeroed);
    wf_log(&zeroed, WF_LOG_DEBUG, "debug through a zeroed logger");
}

// ---------------------------------------------------------------------------
// Assert hook

typedef struct assert_record {
    int calls;
    char expression[128];
    char file[256];
    int line;
} assert_record;

static assert_record g_asserts;

static void record_assert(const char* expression, const char* file, int line) {
    g_asserts.calls++;
    snprintf(g_asserts.expression, sizeof g_asserts.expression, "%s", expression);
    snprintf(g_asserts.file, sizeof g_asserts.file, "%s", file);
    g_asserts.line = line;
}

static int g_after_check;

static wf_status checked_helper(int value) {
    WF_CHECK_ARG(value > 0);
    g_after_check++;
    return WF_OK;
}

static wf_status checked_or_helper(const void* ptr) {
    WF_CHECK_OR(ptr != NULL, WF_ERR_BUSY);
    return WF_OK;
}

static void test_assert_hook_sees_misuse(void** state) {
    (void)state;
    memset(&g_asserts, 0, sizeof g_asserts);
    g_after_check = 0;
    wf_assert_fn* original = wf_set_assert_hook(record_assert);
    assert_non_null(original);
    assert_true(original != record_assert);

    assert_int_equal(checked_helper(5), WF_OK);
    assert_int_equal(g_after_check, 1);
    assert_int_equal(g_asserts.calls, 0);

    assert_int_equal(checked_helper(-3), WF_ERR_INVALID_ARG);
    assert_int_equal(g_after_check, 1); // returned before the body ran
#ifndef NDEBUG
    assert_int_equal(g_asserts.calls, 1);
    assert_string_equal(g_asserts.expression, "value > 0");
    assert_non_null(strstr(g_asserts.file, "hooks.c"));
    assert_true(g_asserts.line > 0);
#else
    assert_int_equal(g_asserts.calls, 0);
#endif

    assert_int_equal(checked_or_helper(&g_asserts), WF_OK);
    assert_int_equal(checked_or_helper(NULL), WF_ERR_BUSY);
#ifndef NDEBUG
    assert_int_equal(g_asserts.calls, 2);
    assert_string_equal(g_asserts.expression, "ptr != NULL");
#else
    assert_int_equal(g_asserts.calls, 0);
#endif

    // Internal invariants use the same hook in debug builds.
    WF_ASSERT(1 + 1 == 2);
    WF_ASSERT(g_after_check == 99);
#ifndef NDEBUG
    assert_int_equal(g_asserts.calls, 3);
    assert_string_equal(g_asserts.expression, "g_after_check == 99");
#else
    assert_int_equal(g_asserts.calls, 0);
#endif

    // NULL restores the default and hands back the hook it replaced.
    assert_true(wf_set_assert_hook(NULL) == record_assert);
    assert_true(wf_set_assert_hook(NULL) == original);
}

static void test_set_assert_hook_returns_previous(void** state) {
    (void)state;
    wf_assert_fn* original = wf_set_assert_hook(record_assert);
    assert_true(wf_set_assert_hook(record_assert) == record_assert);
    assert_true(wf_set_assert_hook(original) == record_assert);
    assert_true(wf_set_assert_hook(NULL) == original);
}

// ---------------------------------------------------------------------------
// Version

static void test_version_string_matches_header(void** state) {
    (void)state;
    const char* linked = wf_version_string();
    assert_non_null(linked);
    assert_string_equal(linked, WF_VERSION_STRING);
    assert_true(WF_VERSION_NUMBER ==
                WF_VERSION_MAJOR * 10000 + WF_VERSION_MINOR * 100 + WF_VERSION_PATCH);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resolve_null_gives_working_default),
        cmocka_unit_test(test_resolve_zeroed_gives_default),
        cmocka_unit_test(test_resolve_keeps_custom_hooks),
        cmocka_unit_test(test_resolve_rejects_half_set_allocator),
        cmocka_unit_test(test_alloc_counts_and_frees),
        cmocka_unit_test(test_alloc_size_zero_is_unique),
        cmocka_unit_test(test_alloc_honours_alignment),
        cmocka_unit_test(test_alloc_zeroed_is_zero),
        cmocka_unit_test(test_alloc_bad_alignment_skips_hook),
        cmocka_unit_test(test_size_mul_overflow_fails_allocation),
        cmocka_unit_test(test_alloc_failure_is_reported),
        cmocka_unit_test(test_log_hook_receives_level_and_message),
        cmocka_unit_test(test_log_truncates_long_messages),
        cmocka_unit_test(test_quiet_logger_drops_everything),
        cmocka_unit_test(test_null_logger_does_not_crash),
        cmocka_unit_test(test_assert_hook_sees_misuse),
        cmocka_unit_test(test_set_assert_hook_returns_previous),
        cmocka_unit_test(test_version_string_matches_header),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
