// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Obstacles agents only avoid (movers): agents go round a standing one in a
// corridor and never overlap one crossing their way; bad input is refused
// and changes nothing; movers are saved and restored (and a version 4 save
// without them still loads); any worker count gives the same bits.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "crowd_test_util.h"
#include "test_hooks.h"
#include "test_inline_jobs.h"
#include "wayfarer/jobs.h"

#define DT (1.0f / 30.0f)
#define OVERLAP_TOLERANCE 0.01f

static float overlap(const wf_crowd* c, wf_agent_id a, const wf_mover* m) {
    wf_agent_state s = crowd_test_state(c, a);
    return s.params.radius + m->radius - crowd_test_dist2d(s.position, m->position);
}

static wf_mover boulder(float x, float z, float vx, float vz) {
    wf_mover m = {.position = wf_v3(x, 0.0f, z),
                  .velocity = wf_v3(vx, 0.0f, vz),
                  .radius = 0.5f,
                  .height = 2.0f};
    return m;
}

/// A 20 x 3 m corridor (cells z 3..5 of a 20 x 10 grid).
static wf_mesh* corridor_mesh(void) {
    uint8_t blocked[20 * 10];
    for (uint32_t z = 0; z < 10; ++z) {
        for (uint32_t x = 0; x < 20; ++x) {
            blocked[z * 20 + x] = z < 3 || z > 5;
        }
    }
    return test_mesh_grid(2, 1, 10, 1.0f, blocked, NULL, NULL);
}

static void test_agent_goes_round_a_standing_mover(void** state) {
    (void)state;
    wf_mesh* mesh = corridor_mesh();
    assert_non_null(mesh);
    wf_crowd_desc d = crowd_test_desc(mesh, 4);
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_mover m = boulder(10.0f, 4.5f, 0.0f, 0.0f);
    wf_mover_id mid;
    assert_int_equal(wf_crowd_add_mover(c, &m, &mid), WF_OK);
    wf_agent_params p = crowd_test_params();
    wf_agent_id a;
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(1.5f, 0, 4.5f), &p, &a), WF_OK);
    assert_int_equal(wf_crowd_request_move(c, a, wf_v3(18.5f, 0, 4.5f), NULL, NULL), WF_OK);
    float worst = -INFINITY;
    int frame = 0;
    for (; frame < 600 && crowd_test_state(c, a).target_state != WF_TARGET_ARRIVED; ++frame) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        float o = overlap(c, a, &m);
        worst = o > worst ? o : worst;
    }
    printf("arrived after %d frames, worst overlap %.4f m\n", frame, (double)worst);
    assert_true(worst <= OVERLAP_TOLERANCE);
    wf_agent_state s = crowd_test_state(c, a);
    assert_int_equal(s.target_state, WF_TARGET_ARRIVED);
    assert_true(crowd_test_dist2d(s.position, wf_v3(18.5f, 0, 4.5f)) < 0.2f);
    // Straight through would take 17 m / 2 m/s = 255 frames; round the
    // boulder is a little more, and without a detour the agent would stall
    // behind it until the stuck rules gave up.
    assert_true(frame < 400);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

/// One run of the crossing scene: agents walk +X over a 20 x 20 m floor
/// while a boulder rolls back and forth across their way (set every frame).
typedef struct crossing {
    wf_mesh* mesh;
    wf_crowd* crowd;
    wf_thread_pool* pool;
    wf_agent_id agents[12];
    wf_mover_id mover;
    wf_mover m;
} crossing;

static void crossing_begin(crossing* x, uint32_t workers) {
    memset(x, 0, sizeof *x);
    x->mesh = test_mesh_grid(2, 2, 10, 1.0f, NULL, NULL, NULL);
    assert_non_null(x->mesh);
    wf_crowd_desc d = crowd_test_desc(x->mesh, 12);
    d.max_movers = 4;
    if (workers == 1) {
        d.jobs = test_inline_jobs(1);
    } else if (workers > 1) {
        wf_thread_pool_desc pd = {0};
        pd.thread_count = workers - 1u;
        assert_int_equal(wf_thread_pool_create(&pd, &x->pool), WF_OK);
        d.jobs = wf_thread_pool_job_system(x->pool);
    }
    assert_int_equal(wf_crowd_create(&d, &x->crowd), WF_OK);
    x->m = boulder(10.0f, 2.0f, 0.0f, 3.0f);
    x->m.radius = 1.0f;
    assert_int_equal(wf_crowd_add_mover(x->crowd, &x->m, &x->mover), WF_OK);
    wf_agent_params p = crowd_test_params();
    for (uint32_t k = 0; k < 12; ++k) {
        float z = 2.5f + (float)k * 1.35f;
        assert_int_equal(wf_crowd_add_agent(x->crowd, wf_v3(1.5f, 0, z), &p, &x->agents[k]), WF_OK);
        assert_int_equal(
            wf_crowd_request_move(x->crowd, x->agents[k], wf_v3(18.5f, 0, 20.0f - z), NULL, NULL),
            WF_OK);
    }
}

/// Rolls the boulder one frame (bouncing between z = 2 and 18), then
/// updates; returns the worst overlap of an agent with it.
static float crossing_step(crossing* x) {
    x->m.position.z += x->m.velocity.z * DT;
    if (x->m.position.z > 18.0f || x->m.position.z < 2.0f) {
        x->m.velocity.z = -x->m.velocity.z;
    }
    assert_int_equal(wf_crowd_set_mover(x->crowd, x->mover, x->m.position, x->m.velocity), WF_OK);
    assert_int_equal(wf_crowd_update(x->crowd, DT, NULL), WF_OK);
    float worst = -INFINITY;
    for (uint32_t k = 0; k < 12; ++k) {
        float o = overlap(x->crowd, x->agents[k], &x->m);
        worst = o > worst ? o : worst;
    }
    return worst;
}

static void crossing_end(crossing* x) {
    wf_crowd_destroy(x->crowd);
    wf_thread_pool_destroy(x->pool);
    wf_mesh_destroy(x->mesh);
}

static void test_no_agent_overlaps_a_crossing_mover(void** state) {
    (void)state;
    crossing x;
    crossing_begin(&x, 0);
    float worst = -INFINITY;
    uint32_t near = 0; // frames an agent came within a metre of it
    for (int frame = 0; frame < 450; ++frame) {
        float o = crossing_step(&x);
        worst = o > worst ? o : worst;
        near += o > -1.0f;
    }
    printf("worst overlap %.4f m, %u frames near\n", (double)worst, near);
    assert_true(near > 0); // the scene does bring them together
    assert_true(worst <= OVERLAP_TOLERANCE);
    uint32_t arrived = 0;
    for (uint32_t k = 0; k < 12; ++k) {
        arrived += crowd_test_state(x.crowd, x.agents[k]).target_state == WF_TARGET_ARRIVED;
    }
    assert_true(arrived >= 10);
    crossing_end(&x);
}

static void test_same_bits_for_one_and_two_workers(void** state) {
    (void)state;
    uint64_t h[2];
    for (uint32_t w = 1; w <= 2; ++w) {
        crossing x;
        crossing_begin(&x, w);
        for (int frame = 0; frame < 300; ++frame) {
            (void)crossing_step(&x);
        }
        h[w - 1] = crowd_test_hash(x.crowd);
        crossing_end(&x);
    }
    assert_true(h[0] == h[1]);
}

static void test_bad_input_changes_nothing(void** state) {
    (void)state;
    wf_mesh* mesh = corridor_mesh();
    assert_non_null(mesh);
    wf_assert_fn* previous_hook = wf_set_assert_hook(test_ignore_assert);
    wf_crowd_desc d = crowd_test_desc(mesh, 4);
    d.max_movers = WF_CROWD_MAX_MOVERS + 1u;
    wf_crowd* c = NULL;
    assert_int_equal(wf_crowd_create(&d, &c), WF_ERR_INVALID_ARG);
    d.max_movers = 2;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);

    wf_mover_id a, b, extra = {0};
    wf_mover m = boulder(5.0f, 4.5f, 1.0f, 0.0f);
    wf_mover bad = m;
    bad.radius = -1.0f;
    assert_int_equal(wf_crowd_add_mover(c, &bad, &a), WF_ERR_INVALID_ARG);
    bad = m;
    bad.height = 0.0f;
    assert_int_equal(wf_crowd_add_mover(c, &bad, &a), WF_ERR_INVALID_ARG);
    bad = m;
    bad.position.x = NAN;
    assert_int_equal(wf_crowd_add_mover(c, &bad, &a), WF_ERR_INVALID_ARG);
    bad = m;
    bad.velocity.z = INFINITY;
    assert_int_equal(wf_crowd_add_mover(c, &bad, &a), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_crowd_add_mover(c, NULL, &a), WF_ERR_INVALID_ARG);

    assert_int_equal(wf_crowd_add_mover(c, &m, &a), WF_OK);
    assert_int_equal(wf_crowd_add_mover(c, &m, &b), WF_OK);
    assert_int_equal(wf_crowd_add_mover(c, &m, &extra), WF_ERR_CAPACITY); // full
    assert_int_equal(extra.bits, 0);

    assert_int_equal(wf_crowd_set_mover(c, a, wf_v3(NAN, 0, 0), wf_v3(0, 0, 0)),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_crowd_set_mover(c, a, wf_v3(1, 0, 1), wf_v3(0, NAN, 0)),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_crowd_set_mover(c, (wf_mover_id){0}, wf_v3(1, 0, 1), wf_v3(0, 0, 0)),
                     WF_ERR_INVALID_ARG);
    wf_mover_id unknown = {.bits = (a.bits & ~0xffffffffull) | 1000u};
    assert_int_equal(wf_crowd_set_mover(c, unknown, wf_v3(1, 0, 1), wf_v3(0, 0, 0)),
                     WF_ERR_STALE_REF);
    wf_mover got;
    assert_int_equal(wf_crowd_get_mover(c, a, &got), WF_OK);
    assert_memory_equal(&got.position, &m.position, sizeof m.position);
    assert_memory_equal(&got.velocity, &m.velocity, sizeof m.velocity);
    assert_true(got.radius == m.radius && got.height == m.height);

    // Removed: the id turns stale, even once its slot is taken again.
    assert_int_equal(wf_crowd_remove_mover(c, a), WF_OK);
    assert_int_equal(wf_crowd_remove_mover(c, a), WF_ERR_STALE_REF);
    assert_int_equal(wf_crowd_get_mover(c, a, &got), WF_ERR_STALE_REF);
    wf_mover_id again;
    assert_int_equal(wf_crowd_add_mover(c, &m, &again), WF_OK);
    assert_true(again.bits != a.bits);
    assert_int_equal(wf_crowd_set_mover(c, a, wf_v3(1, 0, 1), wf_v3(0, 0, 0)), WF_ERR_STALE_REF);
    assert_int_equal(wf_crowd_get_mover(c, again, &got), WF_OK);
    assert_true(got.position.x == m.position.x);
    assert_int_equal(wf_crowd_get_mover(c, again, NULL), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_crowd_get_mover(NULL, again, &got), WF_ERR_INVALID_ARG);
    wf_set_assert_hook(previous_hook);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

static void* save(const wf_crowd* c, size_t* size) {
    assert_int_equal(wf_crowd_save_size(c, size), WF_OK);
    void* blob = malloc(*size);
    assert_non_null(blob);
    assert_int_equal(wf_crowd_save(c, blob, *size), WF_OK);
    return blob;
}

static void test_save_and_restore(void** state) {
    (void)state;
    crossing x, y;
    crossing_begin(&x, 0);
    crossing_begin(&y, 0);
    for (int frame = 0; frame < 60; ++frame) {
        (void)crossing_step(&x);
    }
    size_t size;
    void* blob = save(x.crowd, &size);
    // y starts elsewhere: a second mover, which the restore removes.
    wf_mover_id gone;
    wf_mover other = boulder(3.0f, 3.0f, 0.0f, 0.0f);
    assert_int_equal(wf_crowd_add_mover(y.crowd, &other, &gone), WF_OK);
    assert_int_equal(wf_crowd_restore(y.crowd, blob, size), WF_OK);
    y.m = x.m;
    wf_mover got;
    assert_int_equal(wf_crowd_get_mover(y.crowd, x.mover, &got), WF_OK);
    assert_memory_equal(&got.position, &x.m.position, sizeof got.position);
    assert_int_equal(wf_crowd_get_mover(y.crowd, gone, &got), WF_ERR_STALE_REF);
    size_t size2;
    void* blob2 = save(y.crowd, &size2);
    assert_int_equal(size, size2);
    assert_memory_equal(blob, blob2, size);
    for (int frame = 0; frame < 120; ++frame) {
        (void)crossing_step(&x);
        (void)crossing_step(&y);
    }
    assert_true(crowd_test_hash(x.crowd) == crowd_test_hash(y.crowd));

    // Another max_movers: refused, nothing changes.
    wf_crowd_desc d = crowd_test_desc(x.mesh, 12);
    d.max_movers = 5;
    wf_crowd* z;
    assert_int_equal(wf_crowd_create(&d, &z), WF_OK);
    assert_int_equal(wf_crowd_restore(z, blob, size), WF_ERR_CAPACITY);
    assert_int_equal(wf_crowd_agent_count(z), 0);
    wf_crowd_destroy(z);
    free(blob);
    free(blob2);
    crossing_end(&x);
    crossing_end(&y);
}

/// FNV-1a of the blob with the checksum field (bytes 16..23) read as zeros.
static uint64_t blob_checksum(const unsigned char* p, size_t n) {
    uint64_t h = 14695981039346656037ull;
    for (size_t k = 0; k < n; ++k) {
        h = (h ^ (k >= 16 && k < 24 ? 0u : p[k])) * 1099511628211ull;
    }
    return h;
}

static void put_u32(unsigned char* p, uint32_t v) {
    for (int k = 0; k < 4; ++k) {
        p[k] = (unsigned char)(v >> (8 * k));
    }
}

static void put_u64(unsigned char* p, uint64_t v) {
    for (int k = 0; k < 8; ++k) {
        p[k] = (unsigned char)(v >> (8 * k));
    }
}

static void test_version_4_save_loads_without_movers(void** state) {
    (void)state;
    crossing x;
    crossing_begin(&x, 0);
    for (int frame = 0; frame < 30; ++frame) {
        (void)crossing_step(&x);
    }
    size_t size;
    unsigned char* blob = save(x.crowd, &size);
    // Version 5 less its sixth section (the movers) is version 4: the
    // header loses that section's size word, the body its bytes.
    const size_t sections_at = 96, v5_header = sections_at + 6 * 8;
    uint64_t movers_size = 0;
    for (int k = 0; k < 8; ++k) {
        movers_size |= (uint64_t)blob[sections_at + 5 * 8 + k] << (8 * k);
    }
    size_t old_size = size - 8 - (size_t)movers_size;
    unsigned char* old = malloc(old_size);
    assert_non_null(old);
    memcpy(old, blob, sections_at + 5 * 8);
    memcpy(old + sections_at + 5 * 8, blob + v5_header, old_size - (sections_at + 5 * 8));
    put_u32(old + 4, 4u);
    put_u32(old + 92, 5u);
    put_u64(old + 8, old_size);
    put_u64(old + 16, blob_checksum(old, old_size));
    crossing y;
    crossing_begin(&y, 0);
    assert_int_equal(wf_crowd_restore(y.crowd, old, old_size), WF_OK);
    wf_mover got;
    assert_int_equal(wf_crowd_get_mover(y.crowd, y.mover, &got), WF_ERR_STALE_REF);
    assert_true(crowd_test_hash(x.crowd) == crowd_test_hash(y.crowd));
    // Version 3: refused as another format.
    put_u32(old + 4, 3u);
    put_u64(old + 16, blob_checksum(old, old_size));
    assert_int_equal(wf_crowd_restore(y.crowd, old, old_size), WF_ERR_VERSION);
    free(old);
    free(blob);
    crossing_end(&x);
    crossing_end(&y);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_agent_goes_round_a_standing_mover),
        cmocka_unit_test(test_no_agent_overlaps_a_crossing_mover),
        cmocka_unit_test(test_same_bits_for_one_and_two_workers),
        cmocka_unit_test(test_bad_input_changes_nothing),
        cmocka_unit_test(test_save_and_restore),
        cmocka_unit_test(test_version_4_save_loads_without_movers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
