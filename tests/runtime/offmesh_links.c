// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Off-mesh links end to end on a cache-built level: the tile cache stores
// a ladder up onto a platform, the crowd's agent takes it (start and end
// events, the far side reached), and a ladder removed at run time while an
// agent walks to it makes the agent replan to the other ladder once the
// update's changed tiles reach the crowd.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/tilecache/test_scene.h"
#include "wayfarer/crowd.h"
#include "wayfarer/tilecache.h"
#include "wayfarer/world.h"

#define DT (1.0f / 30.0f)

typedef struct level {
    wf_tilecache* tc;
    wf_mesh* mesh;
    wf_crowd* crowd;
} level;

/// Ground [0, 6] x [0, 16] at y = 0, a platform [6, 12] x [0, 16] at y = 3
/// (a wall too high to climb); ladders from (5, 0, z) up to (9, 3, z).
static void make_level(level* l, const float* ladder_z, uint32_t ladders) {
    test_scene* s = scene_new();
    scene_floor(s, 0.0f, 0.0f, 6.0f, 16.0f, 0.0f);
    scene_box(s, 6.0f, 0.0f, 0.0f, 12.0f, 3.0f, 16.0f);
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = scene_params();
    d.logger.quiet = true;
    assert_int_equal(wf_tilecache_create(&d, &l->tc), WF_OK);
    assert_int_equal(wf_tilecache_build_geom(l->tc, scene_geom(s), NULL, 0), WF_OK);
    free(s);
    for (uint32_t i = 0; i < ladders; ++i) {
        wf_offmesh_link_desc k;
        memset(&k, 0, sizeof k);
        k.start = wf_v3(5.0f, 0.0f, ladder_z[i]);
        k.end = wf_v3(9.0f, 3.0f, ladder_z[i]);
        k.radius = 0.5f;
        k.flags = 1;
        k.user_id = i + 1u;
        assert_int_equal(wf_tilecache_add_links(l->tc, &k, 1), WF_OK);
    }
    wf_mesh_desc md = wf_tilecache_mesh_desc(l->tc);
    assert_int_equal(wf_mesh_create(&md, &l->mesh), WF_OK);
    assert_int_equal(wf_tilecache_build_navmesh(l->tc, l->mesh), WF_OK);
    wf_crowd_desc cd;
    memset(&cd, 0, sizeof cd);
    cd.mesh = l->mesh;
    cd.max_agents = 4;
    cd.max_agent_radius = 0.6f;
    cd.logger.quiet = true;
    assert_int_equal(wf_crowd_create(&cd, &l->crowd), WF_OK);
}

static void free_level(level* l) {
    wf_crowd_destroy(l->crowd);
    wf_mesh_destroy(l->mesh);
    wf_tilecache_destroy(l->tc);
}

static wf_agent_id add_agent(level* l, wf_vec3 at, wf_vec3 target) {
    wf_agent_params p = wf_agent_params_defaults();
    p.radius = 0.4f;
    p.max_speed = 2.0f;
    wf_agent_id id;
    assert_int_equal(wf_crowd_add_agent(l->crowd, at, &p, &id), WF_OK);
    assert_int_equal(wf_crowd_request_move(l->crowd, id, target, NULL, NULL), WF_OK);
    return id;
}

/// One frame: the crowd, then the cache's update with its changed tiles
/// handed to the crowd, as the world does. Returns the user id of a link
/// started this frame (0: none); *ended counts link ends.
static uint32_t frame(level* l, int* ended) {
    assert_int_equal(wf_crowd_update(l->crowd, DT, NULL), WF_OK);
    uint32_t n, started = 0;
    const wf_crowd_event* e = wf_crowd_events(l->crowd, &n);
    for (uint32_t k = 0; k < n; ++k) {
        if (e[k].kind == WF_CROWD_EVENT_OFFMESH_START) {
            assert_int_equal(wf_mesh_get_offmesh_user_id(l->mesh, e[k].ref, &started), WF_OK);
        } else if (e[k].kind == WF_CROWD_EVENT_OFFMESH_END) {
            (*ended)++;
        }
    }
    wf_tilecache_budget b = {0, 0};
    wf_tilecache_update_result r;
    assert_true(wf_tilecache_update(l->tc, l->mesh, &b, &r) >= 0);
    wf_tile_ref old[16];
    uint32_t m = 0;
    for (uint32_t i = 0; i < r.changed_count && m < 16; ++i) {
        if (r.changed[i].old_tile.bits != 0) {
            old[m++] = r.changed[i].old_tile;
        }
    }
    if (m > 0) {
        assert_int_equal(wf_crowd_tiles_changed(l->crowd, old, m), WF_OK);
    }
    return started;
}

static wf_agent_state state_of(const level* l, wf_agent_id id) {
    wf_agent_state s;
    assert_int_equal(wf_crowd_get_agent(l->crowd, id, &s), WF_OK);
    return s;
}

static void test_agent_takes_the_ladder(void** state) {
    (void)state;
    level l;
    const float z[1] = {8.0f};
    make_level(&l, z, 1);
    wf_vec3 target = wf_v3(10.0f, 3.0f, 13.0f);
    wf_agent_id id = add_agent(&l, wf_v3(2.0f, 0.0f, 3.0f), target);
    uint32_t taken = 0;
    int ended = 0;
    for (int f = 0; f < 30 * 30; ++f) {
        uint32_t started = frame(&l, &ended);
        taken = started != 0 ? started : taken;
    }
    assert_int_equal(taken, 1);
    assert_int_equal(ended, 1);
    wf_agent_state s = state_of(&l, id);
    assert_float_equal(s.position.y, 3.0f, 0.3f); // up on the platform
    assert_true(hypotf(s.position.x - target.x, s.position.z - target.z) < 1.0f);
    free_level(&l);
}

static void test_ladder_removed_on_the_way(void** state) {
    (void)state;
    level l;
    const float z[2] = {3.0f, 14.0f};
    make_level(&l, z, 2);
    // Starts next to ladder 1: it heads there, then ladder 1 is taken away.
    wf_vec3 target = wf_v3(10.0f, 3.0f, 3.0f);
    wf_agent_id id = add_agent(&l, wf_v3(1.0f, 0.0f, 3.0f), target);
    int ended = 0;
    for (int f = 0; f < 15; ++f) {
        assert_int_equal(frame(&l, &ended), 0); // still on the way
    }
    assert_true(state_of(&l, id).position.x < 4.0f);
    assert_int_equal(wf_tilecache_remove_link(l.tc, 1), WF_OK);
    uint32_t taken = 0;
    for (int f = 0; f < 30 * 40; ++f) {
        uint32_t started = frame(&l, &ended);
        taken = started != 0 ? started : taken;
    }
    assert_int_equal(taken, 2); // the other ladder
    wf_agent_state s = state_of(&l, id);
    assert_float_equal(s.position.y, 3.0f, 0.3f);
    assert_true(hypotf(s.position.x - target.x, s.position.z - target.z) < 1.0f);
    free_level(&l);
}

static uint32_t mesh_links(const wf_mesh* mesh) {
    wf_tile_ref tiles[64];
    uint32_t n = wf_mesh_get_tiles(mesh, tiles, 64), links = 0;
    for (uint32_t i = 0; i < n; ++i) {
        wf_tile_info info;
        assert_int_equal(wf_mesh_get_tile_info(mesh, tiles[i], &info), WF_OK);
        links += info.offmesh_link_count;
    }
    return links;
}

/// A link added to a world at run time is in its save, and a world made
/// fresh from the same level gets it back by restoring that save.
static void test_saved_with_the_world(void** state) {
    (void)state;
    test_scene* s = scene_new();
    scene_floor(s, 0.0f, 0.0f, 6.0f, 16.0f, 0.0f);
    scene_box(s, 6.0f, 0.0f, 0.0f, 12.0f, 3.0f, 16.0f);
    wf_geom g = scene_geom(s);
    wf_world_desc wd;
    memset(&wd, 0, sizeof wd);
    wd.geom = &g;
    wd.params = scene_params();
    wd.worker_count = 1;
    wd.logger.quiet = true;
    wf_world* a = NULL;
    wf_world* b = NULL;
    assert_int_equal(wf_world_create(&wd, &a), WF_OK);
    assert_int_equal(wf_world_create(&wd, &b), WF_OK);
    wf_offmesh_link_desc k;
    memset(&k, 0, sizeof k);
    k.start = wf_v3(5.0f, 0.0f, 8.0f);
    k.end = wf_v3(9.0f, 3.0f, 8.0f);
    k.radius = 0.5f;
    k.flags = 1;
    k.user_id = 77;
    assert_int_equal(wf_tilecache_add_links(wf_world_tilecache(a), &k, 1), WF_OK);
    wf_world_report r;
    assert_int_equal(wf_world_step(a, DT, NULL, &r), WF_OK);
    assert_int_equal(r.tiles.changed_count, 1); // the ladder's tile
    assert_int_equal(mesh_links(wf_world_mesh(a)), 1);
    size_t size;
    assert_int_equal(wf_world_save_size(a, &size), WF_OK);
    unsigned char* blob = malloc(size);
    assert_int_equal(wf_world_save(a, blob, size), WF_OK);
    assert_int_equal(mesh_links(wf_world_mesh(b)), 0);
    assert_int_equal(wf_world_restore(b, blob, size), WF_OK);
    assert_int_equal(wf_tilecache_link_count(wf_world_tilecache(b)), 1);
    assert_int_equal(mesh_links(wf_world_mesh(b)), 1);
    // Kept through the restored world's own rebuilds too.
    wf_obstacle_desc o;
    memset(&o, 0, sizeof o);
    o.shape = WF_OBSTACLE_CYLINDER;
    o.position = wf_v3(4.5f, 0.0f, 9.5f);
    o.radius = 0.3f;
    o.height = 1.0f;
    wf_obstacle_id id;
    assert_int_equal(wf_tilecache_add_obstacle(wf_world_tilecache(b), &o, &id), WF_OK);
    assert_int_equal(wf_world_step(b, DT, NULL, &r), WF_OK);
    assert_true(r.tiles.changed_count >= 1);
    assert_int_equal(mesh_links(wf_world_mesh(b)), 1);
    free(blob);
    wf_world_destroy(a);
    wf_world_destroy(b);
    free(s);
}

/// Links in the level geometry reach every class of a world made from it
/// (each class's cache lands them on its own layers); a link off the
/// level fails the world's creation with add_links' status.
static void test_links_in_the_geometry(void** state) {
    (void)state;
    test_scene* s = scene_new();
    scene_floor(s, 0.0f, 0.0f, 6.0f, 16.0f, 0.0f);
    scene_box(s, 6.0f, 0.0f, 0.0f, 12.0f, 3.0f, 16.0f);
    wf_offmesh_link_desc k;
    memset(&k, 0, sizeof k);
    k.start = wf_v3(4.0f, 0.0f, 8.0f);
    k.end = wf_v3(9.0f, 3.0f, 8.0f);
    k.radius = 0.5f;
    k.flags = 1;
    k.user_id = 12;
    wf_geom g = scene_geom(s);
    g.links = &k;
    g.link_count = 1;
    wf_world_class_desc classes[2] = {{.name = "small", .agent_radius = 0.3f},
                                      {.name = "large", .agent_radius = 0.9f}};
    wf_world_desc wd;
    memset(&wd, 0, sizeof wd);
    wd.geom = &g;
    wd.params = scene_params();
    wd.classes = classes;
    wd.class_count = 2;
    wd.worker_count = 1;
    wd.logger.quiet = true;
    wf_world* w = NULL;
    assert_int_equal(wf_world_create(&wd, &w), WF_OK);
    for (uint32_t c = 0; c < 2; ++c) {
        assert_int_equal(wf_tilecache_link_count(wf_world_class_tilecache(w, c)), 1);
        assert_int_equal(mesh_links(wf_world_class_mesh(w, c)), 1);
    }
    wf_world_destroy(w);
    k.end.y = 12.0f; // in the air
    w = NULL;
    assert_int_equal(wf_world_create(&wd, &w), WF_ERR_NOT_FOUND);
    assert_null(w);
    free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_agent_takes_the_ladder),
        cmocka_unit_test(test_ladder_removed_on_the_way),
        cmocka_unit_test(test_saved_with_the_world),
        cmocka_unit_test(test_links_in_the_geometry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
