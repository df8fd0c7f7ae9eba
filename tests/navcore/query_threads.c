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
        a->straight_status =
            wf_query_find_straight_path(q, a->start_pos, a->goal_pos, a->polys, a->path.count,
                                        a->points, MAX_POINTS, 0, &a->point_count);
    }
    a->raycast_status =
        wf_query_raycast(q, a->start, a->start_pos, a->goal_pos, &f, NULL, 0, &a->hit);
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

static bool same_vec(wf_vec3 a, wf_vec3 b) { return memcmp(&a, &b, sizeof a) == 0; }

// Field by field: struct padding written by assignments is not part of an answer.
static void assert_same_answer(const answer* a, const answer* b, uint32_t i) {
    bool same =
        a->nearest_status == b->nearest_status && a->start.bits == b->start.bits &&
        a->goal.bits == b->goal.bits && same_vec(a->start_pos, b->start_pos) &&
        same_vec(a->goal_pos, b->goal_pos) && a->path_status == b->path_status &&
        a->path.count == b->path.count && a->path.flags == b->path.flags &&
        memcmp(&a->path.cost, &b->path.cost, sizeof(float)) == 0 &&
        memcmp(a->polys, b->polys, sizeof a->polys) == 0 && a->point_count == b->point_count &&
        a->straight_status == b->straight_status && a->raycast_status == b->raycast_status &&
        a->random_status == b->random_status && memcmp(&a->hit.t, &b->hit.t, sizeof(float)) == 0 &&
        same_vec(a->hit.normal, b->hit.normal) && a->hit.edge == b->hit.edge &&
        a->hit.visited_count == b->hit.visited_count && same_vec(a->random_point, b->random_point);
    for (uint32_t k = 0; same && k < a->point_count && k < MAX_POINTS; ++k) {
        same = same_vec(a->points[k].pos, b->points[k].pos) &&
               a->points[k].ref.bits == b->points[k].ref.bits &&
               a->points[k].flags == b->points[k].flags;
    }
    if (!same) {
        fail_msg("query %u differs between threads", i);
    }
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
    }
    for (int t = 0; t < THREADS; ++t) {
        assert_int_equal(jobs[t].failures, 0);
        for (uint32_t i = 0; i < QUERIES; ++i) {
            assert_same_answer(&results[t][i], &reference[i], i);
        }
    }
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_four_threads_agree_with_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
