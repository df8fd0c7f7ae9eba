// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The crowd's data layout for workers (docs/crowd.md, "Who writes what
// another worker reads"): every agent array starts on a cache line, and each
// worker's profile counters sit on lines no other worker writes.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "crowd/crowd_internal.h"
#include "crowd_test_util.h"
#include "test_inline_jobs.h"
#include "wayfarer/jobs.h"

#define LINE 64u

static void test_agent_arrays_start_on_a_line(void** state) {
    (void)state;
    wf_mesh* mesh = test_mesh_grid(2, 2, 8, 1.0f, NULL, NULL, NULL);
    assert_non_null(mesh);
    uint32_t agents[] = {1, 37, 1000};
    for (uint32_t k = 0; k < 3; ++k) {
        wf_crowd_desc d = crowd_test_desc(mesh, agents[k]);
        wf_crowd* c;
        assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
#define CHECK_ALIGNED(name, type, count, keep, check)                                              \
    if (((uintptr_t)(const void*)c->name) % LINE != 0) {                                           \
        fail_msg("%s at %p, %u agents", #name, (const void*)c->name, agents[k]);                   \
    }
        WF_CROWD_AGENT_FIELDS(CHECK_ALIGNED)
#undef CHECK_ALIGNED
        wf_crowd_destroy(c);
    }
    wf_mesh_destroy(mesh);
}

static void test_worker_counters_on_lines_of_their_own(void** state) {
    (void)state;
    wf_mesh* mesh = test_mesh_grid(2, 2, 8, 1.0f, NULL, NULL, NULL);
    assert_non_null(mesh);
    wf_crowd_desc d = crowd_test_desc(mesh, 16);
    d.jobs = test_inline_jobs(3);
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    assert_int_equal(c->worker_count, 3);
    for (uint32_t w = 0; w < c->worker_count; ++w) {
        const char* first = (const char*)&c->worker_tally[w];
        const char* last = (const char*)(&c->worker_tally[w].iterations + 1) - 1;
        assert_int_equal((uintptr_t)first % LINE, 0);
        if (w + 1 < c->worker_count) {
            // The next worker's counters begin on a later line than this
            // worker's last byte.
            const char* next = (const char*)&c->worker_tally[w + 1];
            assert_true((uintptr_t)last / LINE < (uintptr_t)next / LINE);
        }
    }
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_agent_arrays_start_on_a_line),
        cmocka_unit_test(test_worker_counters_on_lines_of_their_own),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
