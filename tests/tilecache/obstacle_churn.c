// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Obstacle churn ('slow' suite): thousands of add/remove/move cycles at
// random walkable places on a built cache (nav_test, or a generated grid
// level without the shared data), budgeted updates on two workers between
// cycles and path queries between updates. At the end: the obstacle count
// is the survivors', no id slot leaks, every byte is accounted for, and the
// navmesh equals a fresh build with the survivors. WF_CHURN_CYCLES sets the
// cycle count (default 10,000), so CI can run a short version.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "navcore/mesh_internal.h"
#include "test_files.h"
#include "tilecache/tilecache_internal.h"
#include "wayfarer/jobs.h"
#include "wayfarer/query.h"
#include "wayfarer/rng.h"
#include "wayfarer/tilecache.h"

#define DEFAULT_CYCLES 10000u
/// Obstacle slots: small, so the end can fill every one of them.
#define MAX_OBSTACLES 128u
/// The live set hovers around this many (every cycle adds one and then
/// removes one once it is reached).
#define TARGET_LIVE 32u
/// Walkable places obstacles and path ends are drawn from (taken from the
/// bare navmesh once, so the sequence does not depend on build timing).
#define POINT_COUNT 2048u
#define MAX_CORRIDOR 512u
#define MAX_STRAIGHT 128u
/// Calls an unlimited update may need to converge (each commits everything
/// its builds finished; a few more when a layer was touched in flight).
#define MAX_CONVERGE_CALLS 64

typedef struct churn {
    counting_allocator alloc;
    wf_thread_pool* pool;
    wf_geom_data* geom;
    wf_tilecache* tc;
    wf_mesh* mesh;
    wf_query* query;
    wf_vec3 points[POINT_COUNT];
    wf_obstacle_id live[MAX_OBSTACLES];
    wf_obstacle_desc live_desc[MAX_OBSTACLES];
    uint32_t live_count;
    wf_poly_ref corridor[MAX_CORRIDOR];
    uint32_t corridor_count;
    uint64_t paths_found, paths_partial, paths_skipped, stale_checked;
} churn;

static uint32_t cycles_from_env(void) {
    const char* s = getenv("WF_CHURN_CYCLES");
    if (s == NULL || *s == '\0') {
        return DEFAULT_CYCLES;
    }
    char* end = NULL;
    unsigned long n = strtoul(s, &end, 10);
    assert_true(end != s && *end == '\0' && n > 0 && n <= 10000000ul);
    return (uint32_t)n;
}

/* ---------------------------------------------------------------------------
 * The level
 */

/// A grid level for machines without the shared data: 160 x 160 cells of
/// 0.3 m (4 x 4 tiles of the demo size) with walls and pillars.
#define GRID_SIDE 160u

static void build_grid_level(wf_tilecache* tc) {
    uint8_t* walkable = malloc(GRID_SIDE * GRID_SIDE);
    wf_rng rng = wf_rng_make(11, 3);
    for (uint32_t z = 0; z < GRID_SIDE; ++z) {
        for (uint32_t x = 0; x < GRID_SIDE; ++x) {
            // Walls every 40 cells with a door in each, plus scattered pillars.
            bool wall = (x % 40u == 39u && z % 40u > 6u) || (z % 40u == 39u && x % 40u < 30u);
            walkable[z * GRID_SIDE + x] = !wall && wf_rng_below(&rng, 100) >= 2;
        }
    }
    wf_grid grid;
    memset(&grid, 0, sizeof grid);
    grid.width = grid.depth = GRID_SIDE;
    grid.cell_size = 0.3f;
    grid.walkable = walkable;
    assert_int_equal(wf_tilecache_build_grid(tc, grid), WF_OK);
    free(walkable);
}

static void setup_level(churn* c) {
    counting_allocator_init(&c->alloc);
    wf_thread_pool_desc pd;
    memset(&pd, 0, sizeof pd);
    pd.thread_count = 1; // two workers: the caller and one thread
    assert_int_equal(wf_thread_pool_create(&pd, &c->pool), WF_OK);
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = wf_tilecache_params_recast_demo();
    d.jobs = wf_thread_pool_job_system(c->pool);
    d.allocator = counting_allocator_hooks(&c->alloc);
    d.logger.quiet = true;
    d.max_obstacles = MAX_OBSTACLES;
    d.max_pending_requests = 2u * MAX_OBSTACLES;
    assert_int_equal(wf_tilecache_create(&d, &c->tc), WF_OK);
    size_t size = 0;
    char* text = test_read_file(WF_TESTDATA_DIR "/recast/meshes/nav_test.obj", &size);
    if (text != NULL) {
        assert_int_equal(wf_geom_load_obj(text, size, &(wf_geom_load_desc){0}, &c->geom), WF_OK);
        free(text);
        assert_int_equal(wf_tilecache_build_geom(c->tc, wf_geom_data_view(c->geom), NULL, 0),
                         WF_OK);
    } else {
        printf("# nav_test.obj not found: a generated grid level instead\n");
        build_grid_level(c->tc);
    }
    wf_mesh_desc md = wf_tilecache_mesh_desc(c->tc);
    assert_int_equal(wf_mesh_create(&md, &c->mesh), WF_OK);
    assert_true(wf_succeeded(wf_tilecache_build_navmesh(c->tc, c->mesh)));
    assert_int_equal(
        wf_query_create(&(wf_query_desc){.mesh = c->mesh, .max_nodes = 8192}, &c->query), WF_OK);
    const wf_query_filter filter = wf_query_filter_defaults();
    wf_rng rng = wf_rng_make(2026, 5);
    for (uint32_t i = 0; i < POINT_COUNT; ++i) {
        wf_poly_ref ref;
        assert_int_equal(wf_query_find_random_point(c->query, &filter, &rng, &ref, &c->points[i]),
                         WF_OK);
    }
}

static void teardown_level(churn* c) {
    wf_query_destroy(c->query);
    wf_mesh_destroy(c->mesh); // before the cache: committed tiles live in its memory
    wf_tilecache_destroy(c->tc);
    wf_thread_pool_destroy(c->pool);
    wf_geom_data_destroy(c->geom);
    assert_int_equal(counting_allocator_live(&c->alloc), 0);
    assert_int_equal(c->alloc.size_mismatches, 0);
}

/* ---------------------------------------------------------------------------
 * Updates, paths and comparisons
 */

/// Refs of the last path into tiles an update replaced must be stale now.
static void check_stale(churn* c, const wf_tilecache_update_result* r) {
    for (uint32_t k = 0; k < r->changed_count; ++k) {
        wf_tile_ref old = r->changed[k].old_tile;
        wf_tile_info info;
        if (old.bits != 0) {
            assert_int_equal(wf_mesh_get_tile_info(c->mesh, old, &info), WF_ERR_STALE_REF);
        }
        for (uint32_t i = 0; old.bits != 0 && i < c->corridor_count; ++i) {
            if (wf_poly_ref_tile_ref(c->corridor[i]).bits == old.bits) {
                assert_false(wf_mesh_poly_is_valid(c->mesh, c->corridor[i]));
                c->stale_checked++;
            }
        }
    }
}

static void update(churn* c, const wf_tilecache_budget* budget, wf_tilecache_update_result* r) {
    wf_status s = wf_tilecache_update(c->tc, c->mesh, budget, r);
    assert_true(wf_succeeded(s));
    assert_true(r->changed_count == r->tiles_committed);
    check_stale(c, r);
}

static void converge(churn* c) {
    const wf_tilecache_budget unlimited = {0, 0};
    wf_tilecache_update_result r;
    for (int calls = 0;; ++calls) {
        assert_true(calls < MAX_CONVERGE_CALLS);
        update(c, &unlimited, &r);
        if (r.up_to_date) {
            return;
        }
    }
}

/// A path between two of the points on the mesh as it is now: a complete
/// or partial corridor of live polygons, and a straight path along it.
static void query_path(churn* c, wf_rng* rng) {
    const wf_query_filter filter = wf_query_filter_defaults();
    const wf_vec3 half = wf_v3(2.0f, 4.0f, 2.0f);
    wf_vec3 a = c->points[wf_rng_below(rng, POINT_COUNT)];
    wf_vec3 b = c->points[wf_rng_below(rng, POINT_COUNT)];
    wf_poly_ref start, goal;
    wf_vec3 sp, gp;
    if (wf_query_find_nearest_poly(c->query, a, half, &filter, &start, &sp) != WF_OK ||
        wf_query_find_nearest_poly(c->query, b, half, &filter, &goal, &gp) != WF_OK ||
        start.bits == 0 || goal.bits == 0) {
        c->paths_skipped++; // under an obstacle with nothing walkable near
        return;
    }
    wf_path_result pr;
    wf_status s =
        wf_query_find_path(c->query, start, goal, sp, gp, &filter, c->corridor, MAX_CORRIDOR, &pr);
    assert_true(s == WF_OK || s == WF_PARTIAL);
    assert_true(pr.count >= 1 && pr.count <= MAX_CORRIDOR);
    assert_true(c->corridor[0].bits == start.bits);
    for (uint32_t i = 0; i < pr.count; ++i) {
        assert_true(wf_mesh_poly_is_valid(c->mesh, c->corridor[i]));
    }
    c->corridor_count = pr.count;
    c->paths_found += s == WF_OK;
    c->paths_partial += s == WF_PARTIAL;
    wf_straight_point points[MAX_STRAIGHT];
    uint32_t n = 0;
    s = wf_query_find_straight_path(c->query, sp, gp, c->corridor, pr.count, points, MAX_STRAIGHT,
                                    0, &n);
    assert_true(wf_succeeded(s));
    assert_true(n >= 1);
}

/// The tile of (x, z, layer) in a mesh, or NULL.
static const wf_mesh_tile* tile_at(const wf_mesh* mesh, const wf_tilecache_layer_info* info) {
    wf_tile_ref ref;
    if (wf_mesh_find_tile(mesh, info->tile_x, info->tile_z, info->layer, &ref) != WF_OK) {
        return NULL;
    }
    return &mesh->tiles[wf_poly_ref_tile(wf_poly_ref_from_u64(ref.bits))];
}

/// The mesh equals a fresh wf_tilecache_build_navmesh of the cache (which
/// stamps the applied obstacles): the same tiles, each with the same blob
/// bytes before the run-time section (links depend on the order tiles were
/// added in, the built part must not).
static void assert_mesh_is_fresh_build(churn* c) {
    wf_mesh_desc md = wf_tilecache_mesh_desc(c->tc);
    wf_mesh* fresh = NULL;
    assert_int_equal(wf_mesh_create(&md, &fresh), WF_OK);
    assert_true(wf_succeeded(wf_tilecache_build_navmesh(c->tc, fresh)));
    assert_int_equal(wf_mesh_get_stats(fresh).tile_count, wf_mesh_get_stats(c->mesh).tile_count);
    uint32_t tiles = 0;
    for (uint32_t i = 0; i < wf_tilecache_layer_count(c->tc); ++i) {
        wf_tilecache_layer_info info;
        assert_int_equal(wf_tilecache_get_layer_info(c->tc, i, &info), WF_OK);
        const wf_mesh_tile* want = tile_at(fresh, &info);
        const wf_mesh_tile* got = tile_at(c->mesh, &info);
        assert_true((want == NULL) == (got == NULL));
        if (want == NULL) {
            continue;
        }
        tiles++;
        assert_int_equal(got->size, want->size);
        assert_int_equal(got->header->runtime_offset, want->header->runtime_offset);
        assert_memory_equal(got->data, want->data, want->header->runtime_offset);
    }
    assert_int_equal(tiles, wf_mesh_get_stats(fresh).tile_count);
    wf_mesh_destroy(fresh);
}

/// Bytes of the layers' own tile memory (grows when a tile outgrows it).
static size_t layer_blob_bytes(const wf_tilecache* tc) {
    size_t n = 0;
    for (uint32_t i = 0; i < tc->layer_state_count; ++i) {
        n += tc->layer_states[i].blob_capacity;
    }
    return n;
}

/* ---------------------------------------------------------------------------
 * The churn
 */

static wf_obstacle_desc random_obstacle(churn* c, wf_rng* rng) {
    wf_obstacle_desc d;
    memset(&d, 0, sizeof d);
    wf_vec3 p = c->points[wf_rng_below(rng, POINT_COUNT)];
    d.position = wf_v3(p.x, p.y - 0.2f, p.z);
    uint32_t kind = wf_rng_below(rng, 10);
    if (kind < 6) {
        d.shape = WF_OBSTACLE_CYLINDER;
        d.radius = wf_rng_range(rng, 0.3f, 2.0f);
        d.height = 2.0f;
    } else if (kind < 8) {
        d.shape = kind == 6 ? WF_OBSTACLE_BOX : WF_OBSTACLE_ORIENTED_BOX;
        d.position.y = p.y + 0.8f;
        d.half_extents = wf_v3(wf_rng_range(rng, 0.3f, 2.5f), 1.0f, wf_rng_range(rng, 0.3f, 2.5f));
        d.yaw = wf_rng_range(rng, 0.0f, 3.14f);
    } else {
        d.shape = WF_OBSTACLE_PRISM;
        d.height = 2.0f;
        d.vert_count = 3u + wf_rng_below(rng, 6);
        float r = wf_rng_range(rng, 0.5f, 2.0f);
        for (uint32_t i = 0; i < d.vert_count; ++i) {
            float angle = 6.2831853f * (float)i / (float)d.vert_count;
            d.verts[i] = wf_v3(p.x + r * cosf(angle), 0.0f, p.z + r * sinf(angle));
        }
    }
    // A third paint (mud, water) instead of carving.
    d.paint = wf_rng_below(rng, 3) == 0;
    d.area = d.paint ? (uint8_t)(1u + wf_rng_below(rng, 8)) : 0;
    return d;
}

static void add_one(churn* c, wf_rng* rng) {
    wf_obstacle_desc d = random_obstacle(c, rng);
    wf_obstacle_id id;
    assert_int_equal(wf_tilecache_add_obstacle(c->tc, &d, &id), WF_OK);
    c->live[c->live_count] = id;
    c->live_desc[c->live_count++] = d;
}

static void remove_at(churn* c, uint32_t k) {
    assert_int_equal(wf_tilecache_remove_obstacle(c->tc, c->live[k]), WF_OK);
    wf_obstacle_desc ignored;
    assert_int_equal(wf_tilecache_get_obstacle(c->tc, c->live[k], &ignored), WF_ERR_STALE_REF);
    c->live[k] = c->live[--c->live_count];
    c->live_desc[k] = c->live_desc[c->live_count];
}

/// Budgets from "no limit" to tighter than one layer's build, and commit
/// caps, so builds overlap calls and layers are touched while in flight.
static wf_tilecache_budget random_budget(wf_rng* rng) {
    static const uint32_t times[] = {0, 50, 200, 1000, 1};
    static const uint32_t commits[] = {0, 0, 1, 4};
    wf_tilecache_budget b = {times[wf_rng_below(rng, 5)], commits[wf_rng_below(rng, 4)]};
    return b;
}

static void test_churn(void** state) {
    (void)state;
    churn* c = calloc(1, sizeof *c);
    setup_level(c);
    const uint32_t cycles = cycles_from_env();
    wf_rng rng = wf_rng_make(20261122, 9);

    // Warm-up: a paint of area 0 (every layer's own area) over the whole
    // world rebuilds every layer into the same tile, so from here on every
    // tile lives in the cache's memory; the figures start after it.
    wf_tilecache_stats st = wf_tilecache_get_stats(c->tc);
    assert_true(st.layer_count > 0);
    wf_mesh_desc md = wf_tilecache_mesh_desc(c->tc);
    wf_obstacle_desc all;
    memset(&all, 0, sizeof all);
    all.shape = WF_OBSTACLE_BOX;
    all.paint = true;
    all.area = 0;
    all.position = wf_v3(md.origin.x + 500.0f, md.origin.y, md.origin.z + 500.0f);
    all.half_extents = wf_v3(1000.0f, 1000.0f, 1000.0f);
    wf_obstacle_id all_id;
    assert_int_equal(wf_tilecache_add_obstacle(c->tc, &all, &all_id), WF_OK);
    converge(c);
    assert_int_equal(wf_tilecache_remove_obstacle(c->tc, all_id), WF_OK);
    converge(c);
    assert_mesh_is_fresh_build(c);
    const long start_bytes = (long)c->alloc.live_bytes;
    const size_t start_blobs = layer_blob_bytes(c->tc);
    const unsigned long start_allocations = c->alloc.allocations;

    uint64_t updates = 0, rebuilt = 0, moves = 0, same_frame = 0;
    for (uint32_t cycle = 0; cycle < cycles; ++cycle) {
        add_one(c, &rng);
        if (c->live_count > TARGET_LIVE) {
            remove_at(c, wf_rng_below(&rng, c->live_count));
        }
        uint32_t extra = wf_rng_below(&rng, 20);
        if (extra == 0 && c->live_count > 0) {
            // A move keeps the id and gives the obstacle a new place.
            uint32_t k = wf_rng_below(&rng, c->live_count);
            wf_obstacle_desc d = random_obstacle(c, &rng);
            assert_int_equal(wf_tilecache_move_obstacle(c->tc, c->live[k], &d), WF_OK);
            c->live_desc[k] = d;
            moves++;
        } else if (extra == 1) {
            // Added and removed before any update sees it.
            add_one(c, &rng);
            remove_at(c, c->live_count - 1u);
            same_frame++;
        }
        // Most cycles end in an update; some pile requests up for the next.
        if (wf_rng_below(&rng, 4) != 0) {
            wf_tilecache_budget budget = random_budget(&rng);
            wf_tilecache_update_result r;
            update(c, &budget, &r);
            updates++;
            rebuilt += r.layers_rebuilt;
            query_path(c, &rng);
        }
    }
    converge(c);
    printf("# %u cycles: %llu updates, %llu layers rebuilt, %llu moves, %llu added and removed"
           " in one frame; paths %llu found, %llu partial, %llu skipped; %llu stale refs seen\n",
           cycles, (unsigned long long)updates, (unsigned long long)rebuilt,
           (unsigned long long)moves, (unsigned long long)same_frame,
           (unsigned long long)c->paths_found, (unsigned long long)c->paths_partial,
           (unsigned long long)c->paths_skipped, (unsigned long long)c->stale_checked);
    assert_true(c->paths_found > 0);

    // The survivors: counted, valid, with the descs they were last given.
    assert_int_equal(wf_tilecache_obstacle_count(c->tc), c->live_count);
    assert_int_equal(c->tc->obstacle_ids.live_count, c->live_count);
    uint32_t live_records = 0, applied_records = 0;
    for (uint32_t i = 0; i < MAX_OBSTACLES; ++i) {
        live_records += c->tc->obstacles[i].state == WF_OBSTACLE_LIVE;
        applied_records += c->tc->obstacles[i].applied;
    }
    assert_int_equal(live_records, c->live_count);
    assert_int_equal(applied_records, c->live_count);
    for (uint32_t k = 0; k < c->live_count; ++k) {
        wf_obstacle_desc got;
        assert_int_equal(wf_tilecache_get_obstacle(c->tc, c->live[k], &got), WF_OK);
        assert_memory_equal(&got.position, &c->live_desc[k].position, sizeof got.position);
        assert_int_equal(got.shape, c->live_desc[k].shape);
    }
    assert_mesh_is_fresh_build(c);

    // Remove every survivor: the bare navmesh again, and every byte back
    // but what the layers' tile memory grew by (tiles with obstacles may
    // outgrow the room a layer's first tile left).
    while (c->live_count > 0) {
        remove_at(c, c->live_count - 1u);
    }
    converge(c);
    assert_int_equal(wf_tilecache_obstacle_count(c->tc), 0);
    assert_mesh_is_fresh_build(c);
    size_t grown = layer_blob_bytes(c->tc) - start_blobs;
    printf("# live bytes: %ld at the start, %ld at the end; layer tile memory grew by %zu;"
           " %lu allocations during the churn\n",
           start_bytes, (long)c->alloc.live_bytes, grown, c->alloc.allocations - start_allocations);
    assert_true(layer_blob_bytes(c->tc) >= start_blobs);
    assert_int_equal((long)c->alloc.live_bytes, start_bytes + (long)grown);

    // No slot leaked: every one of them can be handed out again, once.
    wf_obstacle_desc small;
    memset(&small, 0, sizeof small);
    small.shape = WF_OBSTACLE_CYLINDER;
    small.radius = 0.5f;
    small.height = 2.0f;
    small.position = c->points[0];
    for (uint32_t i = 0; i < MAX_OBSTACLES; ++i) {
        assert_int_equal(wf_tilecache_add_obstacle(c->tc, &small, &c->live[i]), WF_OK);
    }
    wf_obstacle_id one_more;
    assert_int_equal(wf_tilecache_add_obstacle(c->tc, &small, &one_more), WF_ERR_CAPACITY);
    for (uint32_t i = 0; i < MAX_OBSTACLES; ++i) {
        assert_int_equal(wf_tilecache_remove_obstacle(c->tc, c->live[i]), WF_OK);
    }
    converge(c);
    assert_int_equal(wf_tilecache_obstacle_count(c->tc), 0);
    assert_mesh_is_fresh_build(c);
    teardown_level(c);
    free(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_churn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
