// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Allocator hooks are honoured: linked with -Wl,--wrap=malloc (and calloc,
// realloc, aligned_alloc, and qsort, which may allocate inside glibc), every
// C-library allocation made by navcore's code or this test is counted, and
// must equal the counting allocator's own calls.
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "navcore/arena.h"
#include "navcore/id_pool.h"
#include "wayfarer/jobs.h"
#include "wayfarer/navmesh.h"

static atomic_ulong g_c_library_allocations;

void* __real_malloc(size_t size);
void* __real_calloc(size_t count, size_t size);
void* __real_realloc(void* ptr, size_t size);
void* __real_aligned_alloc(size_t align, size_t size);
// glibc's qsort may allocate internally, out of reach of --wrap=malloc:
// count it as an allocation.
void __real_qsort(void* base, size_t count, size_t size, int (*compare)(const void*, const void*));
void __wrap_qsort(void* base, size_t count, size_t size, int (*compare)(const void*, const void*));
void* __wrap_malloc(size_t size);
void* __wrap_calloc(size_t count, size_t size);
void* __wrap_realloc(void* ptr, size_t size);
void* __wrap_aligned_alloc(size_t align, size_t size);

void* __wrap_malloc(size_t size) {
    atomic_fetch_add(&g_c_library_allocations, 1);
    return __real_malloc(size);
}
void* __wrap_calloc(size_t count, size_t size) {
    atomic_fetch_add(&g_c_library_allocations, 1);
    return __real_calloc(count, size);
}
void* __wrap_realloc(void* ptr, size_t size) {
    atomic_fetch_add(&g_c_library_allocations, 1);
    return __real_realloc(ptr, size);
}
void __wrap_qsort(void* base, size_t count, size_t size, int (*compare)(const void*, const void*)) {
    atomic_fetch_add(&g_c_library_allocations, 1);
    __real_qsort(base, count, size, compare);
}
void* __wrap_aligned_alloc(size_t align, size_t size) {
    atomic_fetch_add(&g_c_library_allocations, 1);
    return __real_aligned_alloc(align, size);
}

static void body(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    (void)worker;
    atomic_ulong* sum = context;
    for (uint32_t i = begin; i < end; ++i) {
        atomic_fetch_add(sum, i);
    }
}

static void task(void* context) {
    atomic_ulong* sum = context;
    atomic_fetch_add(sum, 1);
}

static void test_every_allocation_goes_through_the_hooks(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_allocator hooks = counting_allocator_hooks(&c);
    atomic_store(&g_c_library_allocations, 0);

    wf_thread_pool_desc desc = {.thread_count = 2, .queue_capacity = 8};
    desc.allocator = hooks;
    wf_thread_pool* pool = NULL;
    assert_int_equal(wf_thread_pool_create(&desc, &pool), WF_OK);
    wf_job_system jobs = wf_thread_pool_job_system(pool);
    atomic_ulong sum;
    atomic_init(&sum, 0);
    for (int i = 0; i < 50; ++i) {
        assert_int_equal(wf_jobs_parallel_for(&jobs, 1000, 4, body, &sum), WF_OK);
    }
    wf_job_task t = {0};
    assert_int_equal(wf_jobs_submit(&jobs, &t, task, &sum), WF_OK);
    wf_jobs_wait_task(&jobs, &t);

    wf_id_pool ids;
    assert_int_equal(wf_id_pool_create(&ids, &hooks, 100, WF_ID_KIND_TEST), WF_OK);
    uint64_t id = 0;
    assert_int_equal(wf_id_pool_add(&ids, &id), WF_OK);
    unsigned char saved[4096];
    assert_true(wf_id_pool_save_size(&ids) <= sizeof saved);
    wf_id_pool_save(&ids, saved);
    assert_int_equal(wf_id_pool_load(&ids, saved, wf_id_pool_save_size(&ids)), WF_OK);
    wf_id_pool_destroy(&ids);

    wf_arena arena;
    assert_int_equal(wf_arena_create(&arena, &hooks, 1 << 16), WF_OK);
    assert_non_null(wf_arena_alloc(&arena, 100, 16));
    wf_arena_destroy(&arena, &hooks);

    wf_thread_pool_destroy(pool);

    unsigned long through_hooks = atomic_load(&c.allocations);
    assert_true(through_hooks >= 6); // the pool, its arrays, ids, arena
    // The counting allocator itself calls malloc once per allocation; any
    // extra C-library call would come from navcore bypassing the hooks.
    assert_int_equal(atomic_load(&g_c_library_allocations), through_hooks);
    assert_int_equal(counting_allocator_live(&c), 0);
    assert_true(atomic_load(&sum) == 50ul * (999ul * 1000ul / 2ul) + 1ul);
}

// Building a tile blob into a caller buffer touches no allocator at all
// (the tile cache builds on workers with scratch memory only).
static void test_tile_build_into_allocates_nothing(void** state) {
    (void)state;
    enum { N = 40 };
    static float verts[(N + 1) * (N + 1) * 3];
    static uint16_t polys[N * N * WF_MAX_VERTS_PER_POLY];
    static unsigned char buffer[1 << 20] __attribute__((aligned(16)));
    for (uint32_t z = 0; z <= N; ++z) {
        for (uint32_t x = 0; x <= N; ++x) {
            float* v = &verts[3 * (z * (N + 1) + x)];
            v[0] = (float)x;
            v[1] = 0.0f;
            v[2] = (float)z;
        }
    }
    for (uint32_t z = 0; z < N; ++z) {
        for (uint32_t x = 0; x < N; ++x) {
            uint16_t* p = &polys[WF_MAX_VERTS_PER_POLY * (z * N + x)];
            p[0] = (uint16_t)(z * (N + 1) + x);
            p[1] = (uint16_t)((z + 1) * (N + 1) + x);
            p[2] = (uint16_t)((z + 1) * (N + 1) + x + 1);
            p[3] = (uint16_t)(z * (N + 1) + x + 1);
            p[4] = p[5] = WF_NULL_INDEX;
        }
    }
    wf_tile_build_desc d = {.bmin = wf_v3(0, -1, 0),
                            .bmax = wf_v3(N, 1, N),
                            .verts = verts,
                            .vert_count = (N + 1) * (N + 1),
                            .polys = polys,
                            .poly_count = N * N};
    size_t size = 0;
    atomic_store(&g_c_library_allocations, 0);
    assert_int_equal(wf_tile_build_size(&d, &size), WF_OK);
    assert_true(size <= sizeof buffer);
    assert_int_equal(wf_tile_build_into(&d, buffer, sizeof buffer), WF_OK);
    assert_int_equal(atomic_load(&g_c_library_allocations), 0);
    assert_int_equal(wf_tile_validate(buffer, size), WF_OK);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_allocation_goes_through_the_hooks),
        cmocka_unit_test(test_tile_build_into_allocates_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
