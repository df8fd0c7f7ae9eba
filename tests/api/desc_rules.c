// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Descs: a refused create tells the desc's logger which rule it broke (by
// field name), and *_desc_defaults gives what create uses for zero fields.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "wayfarer/wayfarer.h"

static void test_ignore(const char* expression, const char* file, int line) {
    (void)expression;
    (void)file;
    (void)line;
}

typedef struct captured {
    char text[1024];
    int count;
} captured;

static void capture(wf_log_level level, const char* message, void* user) {
    captured* c = user;
    if (level == WF_LOG_ERROR) {
        size_t used = strlen(c->text);
        snprintf(c->text + used, sizeof c->text - used, "%s\n", message);
        c->count++;
    }
}

static wf_logger logger_for(captured* c) {
    memset(c, 0, sizeof *c);
    return (wf_logger){.log = capture, .user = c};
}

static wf_mesh* make_mesh(void) {
    wf_mesh* mesh = NULL;
    wf_mesh_desc md = {.tile_width = 8.0f, .tile_depth = 8.0f};
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    return mesh;
}

static void test_refused_descs_name_the_rule(void** state) {
    (void)state;
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore);
    captured log;
    wf_mesh* mesh = make_mesh();

    wf_mesh* m = NULL;
    wf_mesh_desc md = {.tile_width = -1.0f, .tile_depth = 8.0f, .logger = logger_for(&log)};
    assert_int_equal(wf_mesh_create(&md, &m), WF_ERR_INVALID_ARG);
    assert_non_null(strstr(log.text, "mesh: tile_width"));
    assert_int_equal(log.count, 1);

    wf_query* q = NULL;
    wf_query_desc qd = {.mesh = NULL, .logger = logger_for(&log)};
    assert_int_equal(wf_query_create(&qd, &q), WF_ERR_INVALID_ARG);
    assert_non_null(strstr(log.text, "query: mesh"));
    qd = (wf_query_desc){.mesh = mesh, .max_nodes = (1u << 24) + 1u, .logger = logger_for(&log)};
    assert_int_equal(wf_query_create(&qd, &q), WF_ERR_INVALID_ARG);
    assert_non_null(strstr(log.text, "max_nodes"));

    wf_crowd* crowd = NULL;
    wf_crowd_desc cd = {
        .mesh = mesh, .max_agents = 0, .max_agent_radius = 0.5f, .logger = logger_for(&log)};
    assert_int_equal(wf_crowd_create(&cd, &crowd), WF_ERR_INVALID_ARG);
    assert_non_null(strstr(log.text, "crowd: max_agents"));
    cd = (wf_crowd_desc){.mesh = mesh,
                         .max_agents = 4,
                         .max_agent_radius = 0.5f,
                         .crowding_cost = -1.0f,
                         .logger = logger_for(&log)};
    assert_int_equal(wf_crowd_create(&cd, &crowd), WF_ERR_INVALID_ARG);
    assert_non_null(strstr(log.text, "crowding_cost"));
    cd.crowding_cost = 0.0f;
    cd.stuck_crowding_cost = NAN;
    assert_int_equal(wf_crowd_create(&cd, &crowd), WF_ERR_INVALID_ARG);
    assert_non_null(strstr(log.text, "stuck_crowding_cost"));
    cd.stuck_crowding_cost = 0.0f;
    cd.flow_cost = NAN; // below zero is off, not an error
    assert_int_equal(wf_crowd_create(&cd, &crowd), WF_ERR_INVALID_ARG);
    assert_non_null(strstr(log.text, "flow_cost"));
    cd.flow_cost = 0.0f;
    cd.max_walls = WF_CROWD_MAX_WALLS + 1u;
    assert_int_equal(wf_crowd_create(&cd, &crowd), WF_ERR_INVALID_ARG);
    assert_non_null(strstr(log.text, "max_walls"));
    assert_null(crowd);

    wf_world* world = NULL;
    wf_world_desc wd = {.logger = logger_for(&log)};
    assert_int_equal(wf_world_create(&wd, &world), WF_ERR_INVALID_ARG);
    assert_non_null(strstr(log.text, "world: give exactly one of cache_data and geom"));

    wf_thread_pool* pool = NULL;
    wf_thread_pool_desc pd = {.thread_count = WF_JOBS_MAX_WORKERS, .logger = logger_for(&log)};
    assert_int_equal(wf_thread_pool_create(&pd, &pool), WF_ERR_INVALID_ARG);
    assert_non_null(strstr(log.text, "thread pool: thread_count"));

    wf_mesh_destroy(mesh);
    wf_set_assert_hook(previous);
}

/// A crowd made from a zero desc and one made from its resolved defaults
/// are the same crowd (same capacities, same memory).
static void test_defaults_are_what_create_uses(void** state) {
    (void)state;
    wf_mesh* mesh = make_mesh();
    wf_crowd_desc zero = {.mesh = mesh, .max_agents = 16, .max_agent_radius = 0.6f};
    wf_crowd_desc resolved = wf_crowd_desc_defaults(&zero);
    assert_int_equal(resolved.max_corridor, 256);
    assert_int_equal(resolved.max_queued_paths, 16);
    assert_true(resolved.stuck_time == 2.0f);
    assert_ptr_equal(resolved.mesh, mesh);
    wf_crowd *a = NULL, *b = NULL;
    assert_int_equal(wf_crowd_create(&zero, &a), WF_OK);
    assert_int_equal(wf_crowd_create(&resolved, &b), WF_OK);
    wf_crowd_stats sa = wf_crowd_get_stats(a), sb = wf_crowd_get_stats(b);
    assert_int_equal(sa.memory_bytes, sb.memory_bytes);
    assert_int_equal(sa.max_agents, 16);
    assert_int_equal(sa.agent_count, 0);
    size_t save_a = 0, save_b = 0;
    assert_int_equal(wf_crowd_save_size(a, &save_a), WF_OK);
    assert_int_equal(wf_crowd_save_size(b, &save_b), WF_OK);
    assert_int_equal(save_a, save_b);

    wf_query_desc qz = {.mesh = mesh};
    wf_query_desc qr = wf_query_desc_defaults(&qz);
    wf_query *qa = NULL, *qb = NULL;
    assert_int_equal(wf_query_create(&qz, &qa), WF_OK);
    assert_int_equal(wf_query_create(&qr, &qb), WF_OK);
    assert_int_equal(wf_query_get_stats(qa).memory_bytes, wf_query_get_stats(qb).memory_bytes);
    assert_int_equal(wf_query_get_stats(qa).max_nodes, qr.max_nodes);
    wf_query_destroy(qa);
    wf_query_destroy(qb);
    wf_crowd_destroy(a);
    wf_crowd_destroy(b);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refused_descs_name_the_rule),
        cmocka_unit_test(test_defaults_are_what_create_uses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
