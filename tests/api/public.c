// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Uses only the installed public headers and libwayfarer: each WF_API call
// must be exported and the umbrella header must be enough.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "wayfarer/wayfarer.h"

static void test_version_matches_headers(void** state) {
    (void)state;
    assert_string_equal(wf_version_string(), WF_VERSION_STRING);
    assert_true(WF_VERSION_NUMBER > 0);
}

static void test_status_strings(void** state) {
    (void)state;
    assert_true(strncmp(wf_status_string(WF_ERR_STALE_REF), "WF_ERR_STALE_REF", 16) == 0);
}

static void test_ids_and_rng_are_usable_inline(void** state) {
    (void)state;
    uint64_t id = wf_id_make(7, 3, WF_ID_KIND_AGENT);
    assert_int_equal(wf_id_index(id), 7);
    assert_int_equal(wf_id_generation(id), 3);
    assert_int_equal(wf_id_kind_of(id), WF_ID_KIND_AGENT);
    wf_rng a = wf_rng_make(1, 2), b = wf_rng_make(1, 2);
    assert_int_equal(wf_rng_next_u32(&a), wf_rng_next_u32(&b));
    wf_vec3 v = wf_v3_cross(wf_v3(1, 0, 0), wf_v3(0, 1, 0));
    assert_true(wf_v3_equal(v, wf_v3(0, 0, 1)));
}

static void count_items(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    (void)worker;
    uint32_t* hits = context;
    for (uint32_t i = begin; i < end; ++i) {
        hits[i]++;
    }
}

static void test_pool_and_parallel_for(void** state) {
    (void)state;
    wf_thread_pool* pool = NULL;
    wf_thread_pool_desc desc = {.thread_count = 2};
    assert_int_equal(wf_thread_pool_create(&desc, &pool), WF_OK);
    wf_job_system jobs = wf_thread_pool_job_system(pool);
    static uint32_t hits[4096];
    memset(hits, 0, sizeof hits);
    assert_int_equal(wf_jobs_parallel_for(&jobs, 4096, 16, count_items, hits), WF_OK);
    for (uint32_t i = 0; i < 4096; ++i) {
        assert_int_equal(hits[i], 1);
    }
    wf_thread_pool_stats stats = wf_thread_pool_get_stats(pool);
    assert_true(stats.memory_bytes > 0);
    wf_thread_pool_destroy(pool);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version_matches_headers),
        cmocka_unit_test(test_status_strings),
        cmocka_unit_test(test_ids_and_rng_are_usable_inline),
        cmocka_unit_test(test_pool_and_parallel_for),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
