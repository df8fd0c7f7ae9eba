// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The demo level (tools/demo_level.c): the same seed gives the same bytes
// and another seed other ones; the triangles are valid and the OBJ writer
// round-trips them; built with the Recast demo settings, every room of
// every floor has polygons and is reachable from open ground with all
// doors open, so are both sides of every doorway, the bridge, the tower
// and every crate spot; the bridge is the short way from the top floor to
// the tower; a box on a doorway blocks it, and some door is the only way
// into a room.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tools/demo_level.h"
#include "wayfarer/navmesh.h"
#include "wayfarer/query.h"
#include "wayfarer/tilecache.h"

#define MAX_PATH 2048u

static void test_deterministic(void** state) {
    (void)state;
    demo_level a, b, c;
    assert_int_equal(demo_level_generate(7, &a), 0);
    assert_int_equal(demo_level_generate(7, &b), 0);
    assert_int_equal(demo_level_generate(8, &c), 0);
    assert_int_equal(a.vert_count, b.vert_count);
    assert_int_equal(a.tri_count, b.tri_count);
    assert_memory_equal(a.verts, b.verts, sizeof(float) * 3u * a.vert_count);
    assert_memory_equal(a.tris, b.tris, sizeof(uint32_t) * 3u * a.tri_count);
    assert_int_equal(a.door_count, b.door_count);
    assert_memory_equal(a.doors, b.doors, sizeof(demo_door) * a.door_count);
    assert_int_equal(a.crate_spot_count, b.crate_spot_count);
    assert_memory_equal(a.crate_spots, b.crate_spots, sizeof(wf_vec3) * a.crate_spot_count);
    bool differs = a.vert_count != c.vert_count || a.tri_count != c.tri_count ||
                   memcmp(a.verts, c.verts, sizeof(float) * 3u * a.vert_count) != 0;
    assert_true(differs);
    bool spots_differ =
        a.crate_spot_count != c.crate_spot_count ||
        memcmp(a.crate_spots, c.crate_spots, sizeof(wf_vec3) * a.crate_spot_count) != 0;
    assert_true(spots_differ);
    demo_level_free(&a);
    demo_level_free(&b);
    demo_level_free(&c);
}

static void test_valid_triangles(void** state) {
    (void)state;
    for (uint64_t seed = 0; seed < 8; ++seed) {
        demo_level l;
        assert_int_equal(demo_level_generate(seed, &l), 0);
        assert_true(l.tri_count > 1000u && l.tri_count < 50000u);
        assert_int_equal(l.floors, 3);
        assert_true(l.door_count >= 10u && l.door_count <= DEMO_MAX_DOORS);
        assert_true(l.room_count >= 3u * l.floors && l.room_count <= DEMO_MAX_ROOMS);
        assert_true(l.crate_spot_count >= 32u && l.crate_spot_count <= DEMO_MAX_SPOTS);
        for (uint32_t i = 0; i < 3u * l.vert_count; ++i) {
            assert_true(isfinite(l.verts[i]));
        }
        // About 120 x 120 m of ground.
        assert_true(l.bmax.x - l.bmin.x >= 110.0f && l.bmax.z - l.bmin.z >= 110.0f);
        uint32_t walkable = 0;
        for (uint32_t t = 0; t < l.tri_count; ++t) {
            const float* p[3];
            for (int k = 0; k < 3; ++k) {
                assert_true(l.tris[3u * t + (uint32_t)k] < l.vert_count);
                p[k] = &l.verts[3u * l.tris[3u * t + (uint32_t)k]];
            }
            float e0[3] = {p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]};
            float e1[3] = {p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]};
            float n[3] = {e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2],
                          e0[0] * e1[1] - e0[1] * e1[0]};
            float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            assert_true(len > 1e-4f); // twice the area: no degenerate triangle
            // Nothing sloped between flat and 45 degrees but the ramps
            // (at most 25 degrees) and the hills.
            if (n[1] > 0.0f && n[1] < len * 0.9999f) {
                assert_true(n[1] > len * cosf(25.0f * 3.14159265f / 180.0f));
            }
            walkable += n[1] > len * 0.7071f;
        }
        assert_true(walkable > l.tri_count / 2u);
        demo_level_free(&l);
    }
}

static void test_obj_round_trip(void** state) {
    (void)state;
    demo_level l;
    assert_int_equal(demo_level_generate(3, &l), 0);
    const char* path = "demo_level_test.obj";
    assert_int_equal(demo_level_write_obj(&l, path), 0);
    FILE* f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long size = ftell(f);
    assert_true(size > 0);
    assert_int_equal(fseek(f, 0, SEEK_SET), 0);
    char* text = malloc((size_t)size);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    remove(path);
    wf_geom_data* data = NULL;
    wf_geom_load_desc desc;
    memset(&desc, 0, sizeof desc);
    assert_int_equal(wf_geom_load_obj(text, (size_t)size, &desc, &data), WF_OK);
    free(text);
    wf_geom g = wf_geom_data_view(data);
    wf_geom ours = demo_level_geom(&l);
    assert_int_equal(g.vert_count, ours.vert_count);
    assert_int_equal(g.tri_count, ours.tri_count);
    assert_memory_equal(g.verts, ours.verts, sizeof(float) * 3u * ours.vert_count);
    assert_memory_equal(g.tris, ours.tris, sizeof(uint32_t) * 3u * ours.tri_count);
    assert_int_equal(demo_level_write_obj(&l, "no-such-dir/demo_level_test.obj"), 1);
    wf_geom_data_destroy(data);
    demo_level_free(&l);
}

/* ---------------------------------------------------------------------------
 * The level on a navmesh
 */

typedef struct world {
    demo_level level;
    wf_tilecache* tc;
    wf_mesh* mesh;
    wf_query* q;
    wf_query_filter filter;
    wf_poly_ref path[MAX_PATH];
} world;

static world* world_new(uint64_t seed) {
    world* w = calloc(1, sizeof *w);
    assert_non_null(w);
    assert_int_equal(demo_level_generate(seed, &w->level), 0);
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = wf_tilecache_params_recast_demo();
    d.logger.quiet = true;
    assert_int_equal(wf_tilecache_create(&d, &w->tc), WF_OK);
    assert_int_equal(wf_tilecache_build_geom(w->tc, demo_level_geom(&w->level), NULL, 0), WF_OK);
    wf_mesh_desc md = wf_tilecache_mesh_desc(w->tc);
    assert_int_equal(wf_mesh_create(&md, &w->mesh), WF_OK);
    assert_int_equal(wf_tilecache_build_navmesh(w->tc, w->mesh), WF_OK);
    wf_query_desc qd;
    memset(&qd, 0, sizeof qd);
    qd.mesh = w->mesh;
    qd.max_nodes = 8192;
    assert_int_equal(wf_query_create(&qd, &w->q), WF_OK);
    w->filter = wf_query_filter_defaults();
    return w;
}

static void world_free(world* w) {
    wf_query_destroy(w->q);
    wf_mesh_destroy(w->mesh);
    wf_tilecache_destroy(w->tc);
    demo_level_free(&w->level);
    free(w);
}

/// The polygon under p (within half a metre across, one metre up or down).
static bool on_mesh(world* w, wf_vec3 p, wf_poly_ref* out_ref, wf_vec3* out_point) {
    wf_poly_ref ref;
    wf_vec3 at;
    if (wf_query_find_nearest_poly(w->q, p, wf_v3(0.5f, 1.0f, 0.5f), &w->filter, &ref, &at) !=
        WF_OK) {
        return false;
    }
    float dx = at.x - p.x, dz = at.z - p.z;
    if (out_ref != NULL) {
        *out_ref = ref;
        *out_point = at;
    }
    return dx * dx + dz * dz < 0.3f * 0.3f && fabsf(at.y - p.y) < 0.6f;
}

/// Whether a complete path leads from a to b; its cost in *out_cost.
static bool reachable(world* w, wf_vec3 a, wf_vec3 b, float* out_cost) {
    wf_poly_ref ra, rb;
    wf_vec3 pa, pb;
    if (!on_mesh(w, a, &ra, &pa) || !on_mesh(w, b, &rb, &pb)) {
        return false;
    }
    wf_path_result r;
    wf_status st = wf_query_find_path(w->q, ra, rb, pa, pb, &w->filter, w->path, MAX_PATH, &r);
    if (out_cost != NULL) {
        *out_cost = r.cost;
    }
    return st == WF_OK && (r.flags & WF_PATH_PARTIAL) == 0u;
}

static void settle(world* w) {
    wf_tilecache_budget budget = {0, 0};
    wf_tilecache_update_result r;
    for (int i = 0; i < 1000; ++i) {
        assert_int_equal(wf_tilecache_update(w->tc, w->mesh, &budget, &r), WF_OK);
        if (r.up_to_date) {
            return;
        }
    }
    fail_msg("the tile cache never settled");
}

/// The open-ground start: the first crate spot.
static wf_vec3 start_of(const world* w) { return w->level.crate_spots[0]; }

static void test_floors_rooms_and_paths(void** state) {
    (void)state;
    for (uint64_t seed = 1; seed <= 2; ++seed) {
        world* w = world_new(seed);
        const demo_level* l = &w->level;
        wf_vec3 start = start_of(w);
        // Polygons on every floor, every room reachable from open ground.
        uint32_t rooms_per_floor[8] = {0};
        for (uint32_t i = 0; i < l->room_count; ++i) {
            wf_vec3 c = l->rooms[i].center;
            if (!on_mesh(w, c, NULL, NULL)) {
                fail_msg("seed %u: room %u (floor %u) has no polygon at its centre", (unsigned)seed,
                         i, l->rooms[i].floor);
            }
            if (!reachable(w, start, c, NULL)) {
                fail_msg("seed %u: room %u (floor %u) is not reachable", (unsigned)seed, i,
                         l->rooms[i].floor);
            }
            rooms_per_floor[l->rooms[i].floor]++;
        }
        for (uint32_t f = 0; f < l->floors; ++f) {
            assert_true(rooms_per_floor[f] >= 3u);
        }
        // Both sides of every doorway.
        for (uint32_t d = 0; d < l->door_count; ++d) {
            for (int s = 0; s < 2; ++s) {
                if (!reachable(w, start, l->doors[d].sides[s], NULL)) {
                    fail_msg("seed %u: door %u side %d is not reachable", (unsigned)seed, d, s);
                }
            }
        }
        // The bridge and the tower; the bridge is the short way from the
        // top floor's room by it to the tower (the other way goes down
        // through the building and up the tower's ramp).
        assert_true(reachable(w, start, l->bridge_mid, NULL));
        assert_true(reachable(w, start, l->tower_top, NULL));
        uint32_t by_bridge = DEMO_OUTSIDE;
        for (uint32_t d = 0; d < l->door_count; ++d) {
            for (int s = 0; s < 2; ++s) {
                if (l->doors[d].rooms[s] == DEMO_OUTSIDE && l->doors[d].floor > 0u) {
                    by_bridge = l->doors[d].rooms[1 - s];
                }
            }
        }
        assert_true(by_bridge != DEMO_OUTSIDE);
        float cost = 0.0f;
        assert_true(reachable(w, l->rooms[by_bridge].center, l->tower_top, &cost));
        float dx = l->tower_top.x - l->rooms[by_bridge].center.x;
        float dz = l->tower_top.z - l->rooms[by_bridge].center.z;
        assert_true(cost < 1.5f * sqrtf(dx * dx + dz * dz) + 5.0f);
        // Nothing to walk on inside the tower, on wall tops (the top
        // floor's walls end 3 m up) or on the top floor's rails (1 m).
        wf_poly_ref ref;
        wf_vec3 at;
        assert_int_equal(wf_query_find_nearest_poly(w->q,
                                                    wf_v3(l->tower_top.x, 1.0f, l->tower_top.z),
                                                    wf_v3(2.0f, 0.9f, 2.0f), &w->filter, &ref, &at),
                         WF_ERR_NOT_FOUND);
        wf_vec3 lo = l->rooms[0].center, hi = lo;
        for (uint32_t i = 0; i < l->room_count; ++i) {
            wf_vec3 c = l->rooms[i].center, e = l->rooms[i].half_extents;
            lo = wf_v3(fminf(lo.x, c.x - e.x), 0.0f, fminf(lo.z, c.z - e.z));
            hi = wf_v3(fmaxf(hi.x, c.x + e.x), 0.0f, fmaxf(hi.z, c.z + e.z));
        }
        float top = 4.0f * (float)(l->floors - 1u);
        const float heights[] = {top + 3.0f, top + 1.0f};
        for (size_t k = 0; k < sizeof heights / sizeof heights[0]; ++k) {
            for (float z = lo.z - 1.0f; z <= hi.z + 1.0f; z += 0.5f) {
                for (float x = lo.x - 1.0f; x <= hi.x + 1.0f; x += 0.5f) {
                    wf_status st = wf_query_find_nearest_poly(w->q, wf_v3(x, heights[k], z),
                                                              wf_v3(0.25f, 0.4f, 0.25f), &w->filter,
                                                              &ref, &at);
                    if (st == WF_OK && fabsf(at.y - heights[k]) < 0.3f) {
                        fail_msg("seed %u: a polygon at %.1f %.1f %.1f", (unsigned)seed, (double)x,
                                 (double)at.y, (double)z);
                    }
                }
            }
        }
        // Crate spots lie on the navmesh, all reachable.
        for (uint32_t i = 0; i < l->crate_spot_count; ++i) {
            if (!reachable(w, start, l->crate_spots[i], NULL)) {
                fail_msg("seed %u: crate spot %u (%.1f %.1f %.1f) is off the mesh or cut off",
                         (unsigned)seed, i, (double)l->crate_spots[i].x,
                         (double)l->crate_spots[i].y, (double)l->crate_spots[i].z);
            }
        }
        world_free(w);
    }
}

static void test_doors_close(void** state) {
    (void)state;
    world* w = world_new(5);
    const demo_level* l = &w->level;
    wf_vec3 start = start_of(w);
    uint32_t cutting_doors = 0;
    for (uint32_t d = 0; d < l->door_count; ++d) {
        const demo_door* door = &l->doors[d];
        wf_obstacle_desc o;
        memset(&o, 0, sizeof o);
        o.shape = door->yaw == 0.0f ? WF_OBSTACLE_BOX : WF_OBSTACLE_ORIENTED_BOX;
        o.position = door->center;
        o.half_extents = door->half_extents;
        o.yaw = door->yaw;
        wf_obstacle_id id;
        assert_int_equal(wf_tilecache_add_obstacle(w->tc, &o, &id), WF_OK);
        settle(w);
        // The doorway is shut: from one side to the other is no path, or
        // a long way round.
        float cost = 0.0f;
        bool through = reachable(w, door->sides[0], door->sides[1], &cost);
        float dx = door->sides[1].x - door->sides[0].x, dz = door->sides[1].z - door->sides[0].z;
        if (through && cost < 3.0f * sqrtf(dx * dx + dz * dz)) {
            fail_msg("door %u: still open (cost %.2f)", d, (double)cost);
        }
        uint32_t cut_off = 0;
        for (uint32_t r = 0; r < l->room_count; ++r) {
            cut_off += !reachable(w, start, l->rooms[r].center, NULL);
        }
        cutting_doors += cut_off > 0u;
        assert_int_equal(wf_tilecache_remove_obstacle(w->tc, id), WF_OK);
        settle(w);
    }
    assert_true(cutting_doors >= 1u);
    // Every door open again: every room reachable.
    for (uint32_t r = 0; r < l->room_count; ++r) {
        assert_true(reachable(w, start, l->rooms[r].center, NULL));
    }
    world_free(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deterministic),  cmocka_unit_test(test_valid_triangles),
        cmocka_unit_test(test_obj_round_trip), cmocka_unit_test(test_floors_rooms_and_paths),
        cmocka_unit_test(test_doors_close),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
