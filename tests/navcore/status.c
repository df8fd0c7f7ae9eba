// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Status codes: every code has its own name, success/failure sign rules hold.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "wayfarer/base.h"

static const wf_status all_statuses[] = {
    WF_OK,           WF_IN_PROGRESS,    WF_PARTIAL,       WF_ERR_INVALID_ARG, WF_ERR_OUT_OF_MEMORY,
    WF_ERR_CAPACITY, WF_ERR_STALE_REF,  WF_ERR_NOT_FOUND, WF_ERR_BAD_DATA,    WF_ERR_VERSION,
    WF_ERR_BUSY,     WF_ERR_WRONG_KIND, WF_ERR_THREAD,    WF_ERR_IO,
};
#define STATUS_COUNT (sizeof all_statuses / sizeof all_statuses[0])

static void test_every_status_has_a_distinct_name(void** state) {
    (void)state;
    for (size_t i = 0; i < STATUS_COUNT; ++i) {
        const char* name = wf_status_string(all_statuses[i]);
        assert_non_null(name);
        assert_true(strncmp(name, "WF_", 3) == 0);
        assert_string_not_equal(name, "unknown status");
        for (size_t j = 0; j < i; ++j) {
            assert_string_not_equal(name, wf_status_string(all_statuses[j]));
        }
    }
}

static void test_names_start_with_the_enum_name(void** state) {
    (void)state;
    assert_true(strncmp(wf_status_string(WF_ERR_STALE_REF), "WF_ERR_STALE_REF:", 17) == 0);
    assert_true(strncmp(wf_status_string(WF_OK), "WF_OK:", 6) == 0);
    assert_true(strncmp(wf_status_string(WF_ERR_BAD_DATA), "WF_ERR_BAD_DATA:", 16) == 0);
}

static void test_unknown_values_are_named_unknown(void** state) {
    (void)state;
    assert_string_equal(wf_status_string((wf_status)12345), "unknown status");
    assert_string_equal(wf_status_string((wf_status)-999), "unknown status");
}

static void test_sign_rules(void** state) {
    (void)state;
    for (size_t i = 0; i < STATUS_COUNT; ++i) {
        wf_status s = all_statuses[i];
        bool is_error = strncmp(wf_status_string(s), "WF_ERR_", 7) == 0;
        assert_int_equal(wf_succeeded(s), !is_error);
        assert_int_equal(s < 0, is_error);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_status_has_a_distinct_name),
        cmocka_unit_test(test_names_start_with_the_enum_name),
        cmocka_unit_test(test_unknown_values_are_named_unknown),
        cmocka_unit_test(test_sign_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
