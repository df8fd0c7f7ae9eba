// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Grid levels, caches with their navmesh, obstacles, routes and tile-blob
// comparison for the tile cache's run-time tests (include after cmocka.h).
#ifndef WF_TESTS_TILECACHE_TEST_WORLD_H
#define WF_TESTS_TILECACHE_TEST_WORLD_H

#include <stdlib.h>
#include <string.h>

#include "counting_allocator.h"
#include "navcore/mesh_internal.h"
#include "test_scene.h"
#include "wayfarer/jobs.h"
#include "wayfarer/query.h"
#include "wayfarer/tilecache.h"

/* ---------------------------------------------------------------------------
 * Levels: a grid of 0.5 m cells, built with the scene parameters (cells of
 * 0.25 m, 4 m tiles, agent radius 0.5 m so walls and the world's edge are
 * eroded by 0.5 m). Walls are blocked grid cells.
 */

#define GRID_CELL 0.5f
#define MAX_GRID (128 * 128)

typedef struct level {
    wf_tilecache_params params;
    float cell_size;       ///< of the grid
    uint32_t width, depth; ///< grid cells
    uint8_t walkable[MAX_GRID];
    uint8_t areas[MAX_GRID];
    bool has_areas;
} level;

static inline level* level_new(uint32_t width_m, uint32_t depth_m) {
    level* l = calloc(1, sizeof *l);
    l->params = scene_params();
    l->cell_size = GRID_CELL;
    l->width = (uint32_t)((float)width_m / GRID_CELL);
    l->depth = (uint32_t)((float)depth_m / GRID_CELL);
    assert_true(l->width * l->depth <= MAX_GRID);
    memset(l->walkable, 1, (size_t)l->width * l->depth);
    return l;
}

/// Blocks the grid cells covering [x0, x1) x [z0, z1) metres.
static inline void level_wall(level* l, float x0, float z0, float x1, float z1) {
    for (uint32_t z = (uint32_t)(z0 / l->cell_size); z < (uint32_t)(z1 / l->cell_size); ++z) {
        for (uint32_t x = (uint32_t)(x0 / l->cell_size); x < (uint32_t)(x1 / l->cell_size); ++x) {
            l->walkable[z * l->width + x] = 0;
        }
    }
}

static inline wf_grid level_grid(const level* l) {
    wf_grid g;
    memset(&g, 0, sizeof g);
    g.width = l->width;
    g.depth = l->depth;
    g.cell_size = l->cell_size;
    g.walkable = l->walkable;
    g.areas = l->has_areas ? l->areas : NULL;
    return g;
}

typedef struct world {
    wf_tilecache* tc;
    wf_mesh* mesh;
    wf_query* q;
} world;

static inline wf_tilecache* level_cache(const level* l, wf_job_system jobs, counting_allocator* c) {
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = l->params;
    d.jobs = jobs;
    d.logger.quiet = true;
    if (c != NULL) {
        d.allocator = counting_allocator_hooks(c);
    }
    wf_tilecache* tc = NULL;
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    assert_int_equal(wf_tilecache_build_grid(tc, level_grid(l)), WF_OK);
    return tc;
}

static inline wf_mesh* cache_mesh(const wf_tilecache* tc) {
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    return mesh;
}

static inline world world_make(const level* l, wf_job_system jobs, counting_allocator* c) {
    world w;
    w.tc = level_cache(l, jobs, c);
    w.mesh = cache_mesh(w.tc);
    assert_int_equal(wf_tilecache_build_navmesh(w.tc, w.mesh), WF_OK);
    w.q = NULL;
    assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = w.mesh}, &w.q), WF_OK);
    return w;
}

/// Mesh first: tiles committed by updates live in the cache's memory.
static inline void world_free(world* w) {
    wf_query_destroy(w->q);
    wf_mesh_destroy(w->mesh);
    wf_tilecache_destroy(w->tc);
}

static inline wf_job_system no_jobs(void) {
    wf_job_system j = {0, NULL, NULL, NULL};
    return j;
}

static inline wf_thread_pool* make_pool(uint32_t threads) {
    wf_thread_pool_desc pd;
    memset(&pd, 0, sizeof pd);
    pd.thread_count = threads;
    wf_thread_pool* pool = NULL;
    assert_int_equal(wf_thread_pool_create(&pd, &pool), WF_OK);
    return pool;
}

static inline wf_obstacle_desc obstacle_cylinder(float x, float z, float radius) {
    wf_obstacle_desc d;
    memset(&d, 0, sizeof d);
    d.shape = WF_OBSTACLE_CYLINDER;
    d.position = wf_v3(x, 0.0f, z);
    d.radius = radius;
    d.height = 2.0f;
    return d;
}

static inline wf_obstacle_desc obstacle_box(float x, float z, float hx, float hz) {
    wf_obstacle_desc d;
    memset(&d, 0, sizeof d);
    d.shape = WF_OBSTACLE_BOX;
    d.position = wf_v3(x, 0.0f, z);
    d.half_extents = wf_v3(hx, 1.0f, hz);
    return d;
}

static inline wf_obstacle_id obstacle_add(wf_tilecache* tc, wf_obstacle_desc d) {
    wf_obstacle_id id = {0};
    assert_int_equal(wf_tilecache_add_obstacle(tc, &d, &id), WF_OK);
    return id;
}

static inline wf_tilecache_budget budget_unlimited(void) {
    wf_tilecache_budget b = {0, 0};
    return b;
}

/// Updates without limits until everything is committed; returns the
/// result of the first call.
static inline wf_tilecache_update_result world_settle(world* w) {
    wf_tilecache_budget b = budget_unlimited();
    wf_tilecache_update_result first, r;
    assert_true(wf_succeeded(wf_tilecache_update(w->tc, w->mesh, &b, &first)));
    r = first;
    for (int i = 0; i < 100 && !r.up_to_date; ++i) {
        assert_true(wf_succeeded(wf_tilecache_update(w->tc, w->mesh, &b, &r)));
    }
    assert_true(r.up_to_date);
    return first;
}

/* ---------------------------------------------------------------------------
 * Queries
 */

static inline wf_status world_nearest(world* w, wf_vec3 at, float half, wf_poly_ref* out) {
    wf_query_filter f = wf_query_filter_defaults();
    wf_vec3 pt;
    return wf_query_find_nearest_poly(w->q, at, wf_v3(half, 1.0f, half), &f, out, &pt);
}

static inline wf_poly_ref world_poly_at(world* w, wf_vec3 at) {
    wf_poly_ref ref;
    assert_int_equal(world_nearest(w, at, 0.2f, &ref), WF_OK);
    return ref;
}

typedef struct route {
    wf_status status;
    wf_poly_ref polys[256];
    uint32_t poly_count;
    wf_straight_point points[64];
    uint32_t point_count;
    double length;
} route;

static inline route world_route(world* w, wf_vec3 a, wf_vec3 b, const wf_query_filter* f) {
    route r;
    memset(&r, 0, sizeof r);
    wf_path_result pr;
    r.status = wf_query_find_path(w->q, world_poly_at(w, a), world_poly_at(w, b), a, b, f, r.polys,
                                  256, &pr);
    r.poly_count = pr.count;
    assert_int_equal(
        wf_query_find_straight_path(w->q, a, b, r.polys, pr.count, r.points, 64, 0, &r.point_count),
        WF_OK);
    for (uint32_t i = 1; i < r.point_count; ++i) {
        r.length += wf_v2_distance(r.points[i - 1].pos, r.points[i].pos);
    }
    return r;
}

static inline bool route_has_area(world* w, const route* r, uint8_t area) {
    for (uint32_t i = 0; i < r->poly_count; ++i) {
        uint8_t a = 0;
        assert_int_equal(wf_mesh_get_poly_area(w->mesh, r->polys[i], &a), WF_OK);
        if (a == area) {
            return true;
        }
    }
    return false;
}

/* ---------------------------------------------------------------------------
 * Mesh comparison: the built part of every tile blob (the run-time section
 * after it holds links, which depend on the order tiles were added in).
 */

static inline const wf_mesh_tile* mesh_tile_of(const wf_mesh* mesh, wf_tile_ref ref) {
    wf_poly_ref p = {ref.bits};
    return &mesh->tiles[wf_poly_ref_tile(p)];
}

static inline void assert_same_tiles(const wf_mesh* a, const wf_mesh* b) {
    wf_tile_ref refs[512];
    uint32_t n = wf_mesh_get_tiles(a, refs, 512);
    assert_true(n <= 512);
    assert_int_equal(n, wf_mesh_get_stats(b).tile_count);
    for (uint32_t i = 0; i < n; ++i) {
        const wf_mesh_tile* ta = mesh_tile_of(a, refs[i]);
        wf_tile_ref other;
        assert_int_equal(
            wf_mesh_find_tile(b, ta->header->tile_x, ta->header->tile_z, ta->header->layer, &other),
            WF_OK);
        const wf_mesh_tile* tb = mesh_tile_of(b, other);
        assert_int_equal(ta->size, tb->size);
        assert_int_equal(ta->header->runtime_offset, tb->header->runtime_offset);
        assert_memory_equal(ta->data, tb->data, ta->header->runtime_offset);
    }
}

/// A second cache of the same level with `descs` applied, its navmesh made
/// by wf_tilecache_build_navmesh alone, compared with `mesh`.
static inline void assert_equals_fresh_build(const level* l, const wf_mesh* mesh,
                                             const wf_obstacle_desc* descs, uint32_t count) {
    wf_tilecache* tc = level_cache(l, no_jobs(), NULL);
    wf_mesh* scratch = cache_mesh(tc);
    for (uint32_t i = 0; i < count; ++i) {
        obstacle_add(tc, descs[i]);
    }
    // An update applies the adds (into a throwaway mesh)...
    wf_tilecache_budget b = budget_unlimited();
    wf_tilecache_update_result r;
    assert_int_equal(wf_tilecache_update(tc, scratch, &b, &r), WF_OK);
    assert_true(r.up_to_date);
    // ...then a plain navmesh build stamps them.
    wf_mesh* fresh = cache_mesh(tc);
    assert_int_equal(wf_tilecache_build_navmesh(tc, fresh), WF_OK);
    assert_same_tiles(mesh, fresh);
    wf_mesh_destroy(fresh);
    wf_mesh_destroy(scratch);
    wf_tilecache_destroy(tc);
}

static inline void assert_same_as_original(const level* l, const wf_mesh* mesh) {
    assert_equals_fresh_build(l, mesh, NULL, 0);
}

#endif
