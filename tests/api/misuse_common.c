// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The misuse tests' shared checks and fixture (misuse_common.h).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "misuse_common.h"

/* ---------------------------------------------------------------------------
 * Checks: every failed expectation is printed (all of them, not only the
 * first) and fails the test at its end.
 */

unsigned g_checks;
unsigned g_failures;

void misuse_expect_status(wf_status got, wf_status want, const char* what, const char* file,
                          int line) {
    g_checks++;
    if (got != want) {
        g_failures++;
        print_error("%s:%d: %s\n    gave %s, want %s\n", file, line, what, wf_status_string(got),
                    wf_status_string(want));
    }
}

void misuse_expect_true(bool cond, const char* what, const char* file, int line) {
    g_checks++;
    if (!cond) {
        g_failures++;
        print_error("%s:%d: expected %s\n", file, line, what);
    }
}

int begin_test(void** state) {
    (void)state;
    g_failures = 0;
    return 0;
}

void end_test(void) { assert_int_equal(g_failures, 0); }

/// Misuse calls the assert hook in debug builds: this one lets them return.
unsigned g_asserts;
static void ignore_assert(const char* expression, const char* file, int line) {
    (void)expression;
    (void)file;
    (void)line;
    g_asserts++;
}

void misuse_begin(void) { wf_set_assert_hook(ignore_assert); }

void misuse_report(const char* name) {
    print_message("%s: %u checks, %u assert hook calls\n", name, g_checks, g_asserts);
}

/* ---------------------------------------------------------------------------
 * Fixtures: a flat 30 x 30 m floor (4 vertices, 2 triangles, counter-
 * clockwise seen from above), its tile cache, navmesh, a query and a crowd
 * with one agent.
 */

const float k_verts[12] = {0, 0, 0, 0, 0, 30, 30, 0, 30, 30, 0, 0};
const uint32_t k_tris[6] = {0, 1, 2, 0, 2, 3};

wf_geom floor_geom(void) {
    wf_geom g;
    memset(&g, 0, sizeof g);
    g.verts = k_verts;
    g.vert_count = 4;
    g.tris = k_tris;
    g.tri_count = 2;
    return g;
}

wf_tilecache_desc cache_desc(void) {
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = wf_tilecache_params_recast_demo();
    d.max_obstacles = 8;
    d.max_pending_requests = 16;
    d.logger.quiet = true;
    return d;
}

wf_crowd_desc crowd_desc(const wf_mesh* mesh) {
    wf_crowd_desc d;
    memset(&d, 0, sizeof d);
    d.mesh = mesh;
    d.max_agents = MAX_AGENTS;
    d.max_agent_radius = 0.6f;
    d.logger.quiet = true;
    return d;
}

int setup(void** state) {
    begin_test(state);
    fixture* f = calloc(1, sizeof *f);
    assert_non_null(f);
    wf_tilecache_desc d = cache_desc();
    assert_int_equal(wf_tilecache_create(&d, &f->tc), WF_OK);
    assert_int_equal(wf_tilecache_build_geom(f->tc, floor_geom(), NULL, 0), WF_OK);
    wf_mesh_desc md = wf_tilecache_mesh_desc(f->tc);
    md.logger.quiet = true;
    assert_int_equal(wf_mesh_create(&md, &f->mesh), WF_OK);
    assert_int_equal(wf_tilecache_build_navmesh(f->tc, f->mesh), WF_OK);
    wf_query_desc qd = {.mesh = f->mesh};
    assert_int_equal(wf_query_create(&qd, &f->q), WF_OK);
    wf_crowd_desc cd = crowd_desc(f->mesh);
    assert_int_equal(wf_crowd_create(&cd, &f->crowd), WF_OK);
    wf_agent_params p = wf_agent_params_defaults();
    assert_int_equal(wf_crowd_add_agent(f->crowd, wf_v3(5, 0, 5), &p, &f->agent), WF_OK);
    f->filter = wf_query_filter_defaults();
    *state = f;
    return 0;
}

int teardown(void** state) {
    fixture* f = *state;
    wf_crowd_destroy(f->crowd);
    wf_query_destroy(f->q);
    wf_mesh_destroy(f->mesh); // before the cache: updated tiles live in its memory
    wf_tilecache_destroy(f->tc);
    free(f);
    return 0;
}

snapshot take(const fixture* f) {
    snapshot s;
    memset(&s, 0, sizeof s);
    s.mesh = wf_mesh_get_stats(f->mesh);
    s.layers = wf_tilecache_layer_count(f->tc);
    s.obstacles = wf_tilecache_obstacle_count(f->tc);
    s.agents = wf_crowd_agent_count(f->crowd);
    if (wf_crowd_get_agent(f->crowd, f->agent, &s.agent) != WF_OK) {
        memset(&s.agent, 0, sizeof s.agent);
    }
    return s;
}

void misuse_expect_unchanged(const fixture* f, const snapshot* before, const char* file, int line) {
    snapshot now = take(f);
    misuse_expect_true(now.mesh.tile_count == before->mesh.tile_count &&
                           now.mesh.poly_count == before->mesh.poly_count,
                       "mesh stats unchanged", file, line);
    misuse_expect_true(now.layers == before->layers, "layer count unchanged", file, line);
    misuse_expect_true(now.obstacles == before->obstacles, "obstacle count unchanged", file, line);
    misuse_expect_true(now.agents == before->agents, "agent count unchanged", file, line);
    misuse_expect_true(wf_v3_equal(now.agent.position, before->agent.position) &&
                           now.agent.target_state == before->agent.target_state &&
                           now.agent.params.radius == before->agent.params.radius &&
                           now.agent.params.max_speed == before->agent.params.max_speed,
                       "agent state unchanged", file, line);
}

void misuse_expect_query_works(fixture* f, const char* file, int line) {
    wf_poly_ref ref;
    wf_vec3 p;
    misuse_expect_status(
        wf_query_find_nearest_poly(f->q, wf_v3(15, 0, 15), wf_v3(2, 2, 2), &f->filter, &ref, &p),
        WF_OK, "valid find_nearest_poly", file, line);
}

wf_poly_ref nearest(fixture* f, wf_vec3 at) {
    wf_poly_ref ref = {0};
    wf_vec3 p;
    assert_int_equal(wf_query_find_nearest_poly(f->q, at, wf_v3(2, 2, 2), &f->filter, &ref, &p),
                     WF_OK);
    return ref;
}

void free_hook(void* ptr, size_t size, size_t align, void* user) {
    (void)size;
    (void)align;
    (void)user;
    free(ptr);
}

void* build_blob(fixture* f, size_t* out_size) {
    size_t need = 0;
    EXPECT(wf_tilecache_build_tile(f->tc, 0, NULL, 0, &need), WF_ERR_CAPACITY);
    assert_true(need > 0);
    size_t rounded = (need + 63u) & ~(size_t)63u;
    void* blob = aligned_alloc(64, rounded);
    assert_non_null(blob);
    assert_int_equal(wf_tilecache_build_tile(f->tc, 0, blob, rounded, out_size), WF_OK);
    return blob;
}

/* ---------------------------------------------------------------------------
 * Re-entry: crowd and world calls from inside a crowd callback
 */

static void record(reentry* r, wf_status s, const char* what) {
    if (r->count < MAX_REENTRY) {
        r->got[r->count] = s;
        r->what[r->count++] = what;
    }
}
#define RECORD(r, call) record((r), (call), #call)

bool reenter(wf_agent_id agent, const wf_path_info* info, void* user) {
    (void)info;
    reentry* r = user;
    if (r->calls++ > 0) {
        return true;
    }
    wf_crowd* c = r->crowd;
    wf_agent_params p = wf_agent_params_defaults();
    wf_agent_id id;
    size_t size;
    unsigned char buf[64];
    wf_move_callbacks cbs = {0};
    wf_tile_ref t = {0};
    RECORD(r, wf_crowd_add_agent(c, wf_v3(20, 0, 20), &p, &id));
    RECORD(r, wf_crowd_remove_agent(c, agent));
    RECORD(r, wf_crowd_set_agent_params(c, agent, &p));
    RECORD(r, wf_crowd_teleport_agent(c, agent, wf_v3(20, 0, 20)));
    RECORD(r, wf_crowd_request_move(c, agent, wf_v3(20, 0, 20), NULL, NULL));
    RECORD(r, wf_crowd_retarget(c, agent, wf_v3(20, 0, 20)));
    RECORD(r, wf_crowd_request_velocity(c, agent, wf_v3(1, 0, 0)));
    RECORD(r, wf_crowd_cancel_move(c, agent));
    RECORD(r, wf_crowd_update(c, 0.1f, NULL));
    RECORD(r, wf_crowd_tiles_changed(c, &t, 1));
    RECORD(r, wf_crowd_save_size(c, &size));
    RECORD(r, wf_crowd_save(c, buf, sizeof buf));
    RECORD(r, wf_crowd_restore(c, buf, sizeof buf));
    RECORD(r, wf_crowd_set_callbacks(c, agent, &cbs, NULL));
    if (r->world != NULL) {
        RECORD(r, wf_world_step(r->world, 0.1f, NULL, NULL));
        RECORD(r, wf_world_save_size(r->world, &size));
        RECORD(r, wf_world_save(r->world, buf, sizeof buf));
        RECORD(r, wf_world_restore(r->world, r->world_save, r->world_save_size));
    }
    // Read-only getters still answer.
    wf_agent_state st;
    record(r, wf_crowd_get_agent(c, agent, &st) == WF_OK ? WF_ERR_BUSY : WF_ERR_NOT_FOUND,
           "get_agent answers (recorded as BUSY when it does)");
    return true;
}

void expect_all_busy(const reentry* r, uint32_t want_count) {
    expect_true_at(r->calls >= 1, "the result callback ran", __LINE__);
    expect_true_at(r->count == want_count, "every re-entry recorded", __LINE__);
    for (uint32_t i = 0; i < r->count; ++i) {
        expect_status_at(r->got[i], WF_ERR_BUSY, r->what[i], __LINE__);
    }
}
