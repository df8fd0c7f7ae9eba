// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Four threads query one mesh at once, each with its own wf_query: every
// answer equals the single-threaded one (and the run is clean under TSan).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "navcore/thread.h"
#include "test_meshes.h"
#include "wayfarer/query.h"

enum { QUERIES = 200, THREADS = 4, MAX_PATH = 256, MAX_POINTS = 64, SIDE = 24 };

typedef struct answer {
    wf_status nearest_status;
    wf_poly_ref start, goal;
    wf_vec3 start_pos, goal_pos;
    wf_status path_status;
    wf_path_result path;
    wf_poly_ref polys[MAX_PATH];
    uint32_t point_count;
    wf_straight_point points[MAX_POINTS];
    wf_raycast_hit hit;
    wf_vec3 random_point;
    wf_status straight_status, raycast_status, random_status;
} answer;

typedef struct job {
    const wf_mesh* mesh;
    answer* answers;
    int failures;
} job;

static void ask(wf_query* q, uint32_t i, answer* a) {
    memset(a, 0, sizeof *a);
    wf_rng rng = wf_rng_make(1234, i);
    wf_query_filter f = wf_query_filter_defaults();
    wf_vec3 p0 = wf_v3(wf_rng_range(&rng, 0, SIDE), 0, wf_rng_range(&rng, 0, SIDE));
    wf_vec3 p1 = wf_v3(wf_rng_range(&rng, 0, SIDE), 0, wf_rng_range(&rng, 0, SIDE));
    wf_vec3 ext = wf_v3(1.5f, 1.0f, 1.5f);
    a->nearest_status = wf_query_find_nearest_poly(q, p0, ext, &f, &a->start, &a->start_pos);
    if (a->nearest_status != WF_OK ||
        wf_query_find_nearest_poly(q, p1, ext, &f, &a->goal, &a->goal_pos) != WF_OK) {
        return;
    }
    a->path_status = wf_query_find_path(q, a->start, a->goal, a->start_pos, a->goal_pos, &f,
                                        a->polys, MAX_PATH, &a->path);
    if (a->path_status >= 0) {
        a->straight_status = wf_query_find_straight_path(q, a->start_pos, a->goal_pos, a->polys, a->path.count,
                                          a->points, MAX_POINTS, 0, &a->point_count);
    }
    a->raycast_status = wf_query_raycast(q, a->start, a->start_pos, a->goal_pos, &f, NULL, 0,
                                         &a->hit);
    wf_poly_ref r;
    a->random_status = wf_query_find_random_point(q, &f, &rng, &r, &a->random_point);
}

static WF_THREAD_MAIN(worker, arg) {
    job* j = arg;
    wf_query* q = NULL;
    wf_query_desc qd = {.mesh = j->mesh, .max_nodes = 1024};
    if (wf_query_create(&qd, &q) != WF_OK) {
        j->failures++;
        WF_THREAD_MAIN_END;
    }
    for (uint32_t i = 0; i < QUERIES; ++i) {
        ask(q, i, &j->answers[i]);
    }
    wf_query_destroy(q);
    WF_THREAD_MAIN_END;
}

static void test_four_threads_agree_with_one(void** state) {
    (void)state;
    static uint8_t blocked[SIDE * SIDE];
    wf_rng rng = wf_rng_make(99, 0);
    for (uint32_t i = 0; i < SIDE * SIDE; ++i) {
        blocked[i] = wf_rng_below(&rng, 5) == 0;
    }
    wf_mesh* mesh = test_mesh_grid(3, 3, SIDE / 3, 1.0f, blocked, NULL, NULL);
    assert_non_null(mesh);

    static answer reference[QUERIES];
    static answer results[THREADS][QUERIES];
    job serial = {.mesh = mesh, .answers = reference};
    worker(&serial);
    assert_int_equal(serial.failures, 0);
    uint32_t found = 0;
    for (uint32_t i = 0; i < QUERIES; ++i) {
        found += reference[i].path_status == WF_OK;
    }
    assert_true(found > QUERIES / 4); // the test exercises real paths

    job jobs[THREADS];
    wf_thread threads[THREADS];
    for (int t = 0; t < THREADS; ++t) {
        jobs[t] = (job){.mesh = mesh, .answers = results[t]};
        assert_true(wf_thread_create(&threads[t], worker, &jobs[t]));
    }
    for (int t = 0; t < THREADS; ++t) {
        wf_thread_join(threads[t]);
        assert_int_equal(jobs[t].failures, 0);
        assert_memory_equal(results[t], reference, sizeof reference);
    }
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_four_threads_agree_with_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
