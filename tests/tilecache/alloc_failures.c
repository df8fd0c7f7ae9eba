// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Allocation failures, tile cache level: a cache built from a grid
// (create, build_grid, the navmesh), obstacles added, moved and removed
// with updates, a save loaded into a second cache, and a rebuild of the
// first one, run with the k-th allocation failing for every k (and with
// every allocation from the k-th on failing, for a sample of k). Every call
// returns WF_OK or WF_ERR_OUT_OF_MEMORY (only when an allocation was
// refused); after a failure allocations are allowed again and the scenario
// goes on: a failed build leaves the cache's layers, a failed navmesh pass
// adds no tile, a failed update leaves its requests or dirty layers for the
// next update, and the navmesh ends as a fresh build of the same level and
// obstacles. Also: the update's two allocating steps (per-layer state, a
// layer's first tile memory) checked one by one, and layers too big for a
// build slot (built in a temporary arena) under every failure.
//
// Runs (about 140 allocations per run; ~10 s in the dev build, ~18 s of CPU
// under ASan): every k with no budget, one tile per update and 1 us per
// update; on 3 workers every 2nd k with no budget and every 3rd k with
// either budget; from k on every k (no workers) and every 3rd (workers);
// the oversize layer every k once and from k on, every 2nd on workers.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_world.h"
#include "wayfarer/jobs.h"

typedef struct ctx {
    counting_allocator* ca;
    unsigned long failed_before;
    const char* call;
    unsigned oom_calls;
    wf_tilecache_budget budget; ///< of every update
} ctx;

static void begin_call(ctx* c, const char* call) {
    c->call = call;
    c->failed_before = atomic_load(&c->ca->failed);
}

/// True when the call failed for memory (an allocation was refused during
/// it); from then on allocations are allowed. Any other failure, or a
/// refused allocation hidden behind success, fails the test.
static bool failed_for_memory(ctx* c, wf_status s) {
    bool refused = atomic_load(&c->ca->failed) > c->failed_before;
    if (s == WF_ERR_OUT_OF_MEMORY && refused) {
        c->oom_calls++;
        c->ca->fail_at = 0;
        return true;
    }
    if (s != WF_OK || refused) {
        print_error("%s: %s with %s allocation refused (fail_at %lu%s)\n", c->call,
                    wf_status_string(s), refused ? "an" : "no", c->ca->fail_at,
                    c->ca->fail_after ? " and after" : "");
        fail();
    }
    return false;
}

static wf_tilecache_desc cache_desc(const level* l, wf_job_system jobs, counting_allocator* ca) {
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = l->params;
    d.jobs = jobs;
    d.max_obstacles = 8;
    d.logger.quiet = true;
    d.allocator = counting_allocator_hooks(ca);
    return d;
}

static wf_tilecache* create_cache(ctx* c, const wf_tilecache_desc* d) {
    for (;;) {
        wf_tilecache* tc = NULL; // untouched by a failed call
        begin_call(c, "create");
        if (!failed_for_memory(c, wf_tilecache_create(d, &tc))) {
            return tc;
        }
        assert_null(tc);
        assert_int_equal(counting_allocator_live(c->ca), 0);
    }
}

/// build_grid; a failed build leaves the layers the cache had.
static void build_grid(ctx* c, wf_tilecache* tc, const level* l) {
    for (;;) {
        uint32_t layers = wf_tilecache_layer_count(tc);
        wf_tilecache_stats before = wf_tilecache_get_stats(tc);
        begin_call(c, "build_grid");
        if (!failed_for_memory(c, wf_tilecache_build_grid(tc, level_grid(l)))) {
            return;
        }
        assert_int_equal(wf_tilecache_layer_count(tc), layers);
        assert_true(wf_tilecache_get_stats(tc).compressed_bytes == before.compressed_bytes);
    }
}

static wf_mesh* create_mesh(ctx* c, const wf_tilecache* tc) {
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc); // the cache's allocator
    md.logger.quiet = true;
    for (;;) {
        wf_mesh* mesh = NULL;
        begin_call(c, "mesh create");
        if (!failed_for_memory(c, wf_mesh_create(&md, &mesh))) {
            return mesh;
        }
        assert_null(mesh);
    }
}

/// build_navmesh into an empty mesh; a failed pass adds nothing.
static void build_navmesh(ctx* c, wf_tilecache* tc, wf_mesh* mesh) {
    for (;;) {
        begin_call(c, "build_navmesh");
        if (!failed_for_memory(c, wf_tilecache_build_navmesh(tc, mesh))) {
            assert_true(wf_mesh_get_stats(mesh).tile_count > 0);
            return;
        }
        assert_int_equal(wf_mesh_get_stats(mesh).tile_count, 0);
    }
}

/// Updates until everything is committed. A failed update keeps what it
/// could not do for the next one: every request is applied exactly once
/// over the calls, and the loop ends up to date.
static void settle(ctx* c, wf_tilecache* tc, wf_mesh* mesh, uint32_t requests) {
    wf_tilecache_budget b = c->budget;
    uint32_t applied = 0;
    for (int i = 0; i < 400; ++i) {
        wf_tilecache_update_result r;
        memset(&r, 0, sizeof r); // an update that fails before applying anything reports nothing
        uint32_t tiles = wf_mesh_get_stats(mesh).tile_count;
        begin_call(c, "update");
        wf_status s = wf_tilecache_update(tc, mesh, &b, &r);
        applied += r.requests_applied;
        if (failed_for_memory(c, s)) {
            // No tile lost: a commit that cannot get memory leaves the old one
            // (and its layer dirty: with workers the same call may build and
            // commit it again, and still report the failure).
            assert_int_equal(wf_mesh_get_stats(mesh).tile_count, tiles);
            continue;
        }
        if (r.up_to_date) {
            assert_int_equal(applied, requests);
            return;
        }
    }
    fail_msg("updates never caught up");
}

static wf_obstacle_id add_obstacle(ctx* c, wf_tilecache* tc, wf_obstacle_desc d) {
    wf_obstacle_id id = {0};
    begin_call(c, "add_obstacle");
    assert_false(failed_for_memory(c, wf_tilecache_add_obstacle(tc, &d, &id)));
    return id;
}

static unsigned char* save(ctx* c, const wf_tilecache* tc, size_t* out_size) {
    size_t size = 0;
    do {
        begin_call(c, "save_size");
    } while (failed_for_memory(c, wf_tilecache_save_size(tc, &size)));
    unsigned char* data = malloc(size);
    assert_non_null(data);
    do {
        begin_call(c, "save");
    } while (failed_for_memory(c, wf_tilecache_save(tc, data, size)));
    *out_size = size;
    return data;
}

static wf_tilecache* load(ctx* c, const wf_tilecache_desc* d, const unsigned char* data,
                          size_t size) {
    for (;;) {
        wf_tilecache* tc = NULL; // untouched by a failed call
        begin_call(c, "load");
        if (!failed_for_memory(c, wf_tilecache_load(d, data, size, &tc))) {
            return tc;
        }
        assert_null(tc);
    }
}

/* ---------------------------------------------------------------------------
 * Expected navmeshes: a fresh build of the level with the obstacles
 * (assert_equals_fresh_build), made once per test and kept.
 */

typedef struct expected {
    const level* l;
    wf_obstacle_desc descs[4];
    uint32_t count;
    wf_mesh* mesh;
} expected;

static expected expectations[8];
static uint32_t expectation_count;

static wf_mesh* fresh_build(const level* l, const wf_obstacle_desc* descs, uint32_t count) {
    wf_tilecache* tc = level_cache(l, no_jobs(), NULL);
    wf_mesh* scratch = cache_mesh(tc);
    for (uint32_t i = 0; i < count; ++i) {
        obstacle_add(tc, descs[i]);
    }
    wf_tilecache_budget b = {0, 0};
    wf_tilecache_update_result r;
    assert_int_equal(wf_tilecache_update(tc, scratch, &b, &r), WF_OK); // applies the adds
    wf_mesh* fresh = cache_mesh(tc);
    assert_int_equal(wf_tilecache_build_navmesh(tc, fresh), WF_OK);
    wf_mesh_destroy(scratch); // its tiles live in the cache's memory
    wf_tilecache_destroy(tc); // the fresh mesh owns its own
    return fresh;
}

/// mesh has the tiles of a fresh build of l with these obstacles.
static void assert_as_built(const level* l, const wf_mesh* mesh, const wf_obstacle_desc* descs,
                            uint32_t count) {
    assert_true(count <= 4);
    for (uint32_t i = 0; i < expectation_count; ++i) {
        expected* e = &expectations[i];
        if (e->l == l && e->count == count &&
            (count == 0 || memcmp(e->descs, descs, sizeof *descs * count) == 0)) {
            assert_same_tiles(mesh, e->mesh);
            return;
        }
    }
    assert_true(expectation_count < 8);
    expected* e = &expectations[expectation_count++];
    e->l = l;
    e->count = count;
    if (count > 0) {
        memcpy(e->descs, descs, sizeof *descs * count);
    }
    e->mesh = fresh_build(l, descs, count);
    assert_same_tiles(mesh, e->mesh);
}

static void forget_expected(void) {
    for (uint32_t i = 0; i < expectation_count; ++i) {
        wf_mesh_destroy(expectations[i].mesh);
    }
    memset(expectations, 0, sizeof expectations);
    expectation_count = 0;
}

/* ---------------------------------------------------------------------------
 * The scenario
 */

/// 16 x 8 m (4 x 2 tiles of 4 m) with a wall across, a gap in its middle.
static level* walled_level(void) {
    level* l = level_new(16, 8);
    level_wall(l, 7.5f, 0.0f, 8.5f, 3.0f);
    level_wall(l, 7.5f, 5.0f, 8.5f, 8.0f);
    return l;
}

/// The scenario under ca as the caller set it up; returns the failed calls.
static unsigned run_scenario(const level* l, wf_job_system jobs, wf_tilecache_budget budget,
                             counting_allocator* ca) {
    ctx c = {.ca = ca, .budget = budget};
    wf_tilecache_desc d = cache_desc(l, jobs, ca);
    wf_tilecache* tc = create_cache(&c, &d);
    build_grid(&c, tc, l);
    wf_mesh* mesh = create_mesh(&c, tc);
    build_navmesh(&c, tc, mesh);

    // Obstacles: the first update makes the per-layer state, the first
    // commit of each layer its tile memory.
    wf_obstacle_desc descs[3] = {obstacle_cylinder(3.0f, 4.0f, 0.8f),
                                 obstacle_box(8.0f, 4.0f, 0.6f, 1.2f), // closes the gap
                                 obstacle_cylinder(13.0f, 2.0f, 1.0f)};
    wf_obstacle_id a = add_obstacle(&c, tc, descs[0]);
    wf_obstacle_id b = add_obstacle(&c, tc, descs[1]);
    settle(&c, tc, mesh, 2);
    descs[0].position = wf_v3(5.0f, 0.0f, 6.5f); // into tiles the first update left alone
    begin_call(&c, "move_obstacle");
    assert_false(failed_for_memory(&c, wf_tilecache_move_obstacle(tc, a, &descs[0])));
    begin_call(&c, "remove_obstacle");
    assert_false(failed_for_memory(&c, wf_tilecache_remove_obstacle(tc, b)));
    add_obstacle(&c, tc, descs[2]);
    settle(&c, tc, mesh, 3);
    const wf_obstacle_desc live[2] = {descs[0], descs[2]};
    assert_int_equal(wf_tilecache_obstacle_count(tc), 2);
    assert_as_built(l, mesh, live, 2);

    // A save loaded into a second cache: its navmesh pass stamps the
    // obstacles, and gives the same tiles.
    size_t size = 0;
    unsigned char* data = save(&c, tc, &size);
    wf_tilecache* loaded = load(&c, &d, data, size);
    free(data);
    wf_mesh* loaded_mesh = create_mesh(&c, loaded);
    build_navmesh(&c, loaded, loaded_mesh);
    assert_same_tiles(mesh, loaded_mesh);
    wf_mesh_destroy(loaded_mesh);
    wf_tilecache_destroy(loaded);

    // A new build of the first cache (its committed tiles out of every mesh
    // first), a new navmesh, and updates on it.
    wf_mesh_destroy(mesh);
    build_grid(&c, tc, l);
    mesh = create_mesh(&c, tc);
    build_navmesh(&c, tc, mesh);
    assert_as_built(l, mesh, live, 2);
    begin_call(&c, "remove_obstacle");
    assert_false(failed_for_memory(&c, wf_tilecache_remove_obstacle(tc, a)));
    settle(&c, tc, mesh, 1);
    assert_as_built(l, mesh, &descs[2], 1);

    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(tc);
    assert_int_equal(counting_allocator_live(ca), 0);
    assert_int_equal(atomic_load(&ca->live_bytes), 0);
    assert_int_equal(atomic_load(&ca->size_mismatches), 0);
    return c.oom_calls;
}

/// fail_at = k for every stride-th k until a run refuses nothing; returns
/// the runs.
static unsigned long every_k(const level* l, wf_job_system jobs, wf_tilecache_budget budget,
                             unsigned long stride) {
    unsigned long runs = 0;
    for (unsigned long k = 1;; k += stride) {
        runs++;
        counting_allocator ca;
        counting_allocator_init(&ca);
        ca.fail_at = k;
        unsigned failed_calls = run_scenario(l, jobs, budget, &ca);
        if (atomic_load(&ca.failed) == 0) {
            assert_int_equal(failed_calls, 0);
            return runs;
        }
        assert_int_equal(failed_calls, 1);
        assert_true(k < 20000);
    }
}

static const wf_tilecache_budget no_budget = {0, 0};

static void test_every_single_failure(void** state) {
    (void)state;
    level* l = walled_level();
    unsigned long runs = every_k(l, no_jobs(), no_budget, 1);
    print_message("grid cache, no workers: %lu runs\n", runs);
    forget_expected();
    free(l);
}

/// One tile per update, then 1 us per update: commits spread over calls.
static void test_every_single_failure_budgeted(void** state) {
    (void)state;
    level* l = walled_level();
    wf_tilecache_budget one = {0, 1}, tight = {1, 0};
    unsigned long a = every_k(l, no_jobs(), one, 1);
    unsigned long b = every_k(l, no_jobs(), tight, 1);
    print_message("grid cache, no workers, budgets: %lu + %lu runs\n", a, b);
    forget_expected();
    free(l);
}

/// With a pool, the parallel parts allocate on the workers in any order:
/// k still runs until a run refuses nothing. No budget (builds in rounds;
/// every 2nd k), one tile per update and a time budget (builds go on in the
/// background between updates, commits wait for them; every 3rd k).
static void test_every_single_failure_with_workers(void** state) {
    (void)state;
    level* l = walled_level();
    wf_thread_pool* pool = make_pool(2);
    wf_job_system jobs = wf_thread_pool_job_system(pool);
    wf_tilecache_budget one = {0, 1}, tight = {1, 0};
    unsigned long a = every_k(l, jobs, no_budget, 2);
    unsigned long b = every_k(l, jobs, one, 3);
    unsigned long t = every_k(l, jobs, tight, 3);
    print_message("grid cache, 3 workers: %lu + %lu + %lu runs\n", a, b, t);
    wf_thread_pool_destroy(pool);
    forget_expected();
    free(l);
}

/// Every allocation from the k-th on fails, until a call fails: cleanup
/// that runs out of memory too. Every k, and every 3rd k with workers.
static void test_failures_from_k_on(void** state) {
    (void)state;
    level* l = walled_level();
    wf_thread_pool* pool = make_pool(2);
    wf_job_system pools[2] = {no_jobs(), wf_thread_pool_job_system(pool)};
    unsigned long runs = 0;
    for (int p = 0; p < 2; ++p) {
        counting_allocator ca;
        counting_allocator_init(&ca);
        run_scenario(l, pools[p], no_budget, &ca);
        unsigned long total = atomic_load(&ca.attempt);
        for (unsigned long k = 1; k <= total; k += p == 0 ? 1u : 3u) {
            counting_allocator_init(&ca);
            ca.fail_at = k;
            ca.fail_after = true;
            // With workers the run may allocate less than `total`.
            assert_true(run_scenario(l, pools[p], no_budget, &ca) <= 1);
            runs++;
        }
    }
    print_message("grid cache, fail_after: %lu runs\n", runs);
    wf_thread_pool_destroy(pool);
    forget_expected();
    free(l);
}

/* ---------------------------------------------------------------------------
 * The update's allocations, one by one
 */

/// A failed update keeps its requests queued (per-layer state) or its
/// layer dirty (tile memory), and the next update does what it could not.
static void test_update_keeps_its_work(void** state) {
    (void)state;
    level* l = walled_level();
    counting_allocator ca;
    counting_allocator_init(&ca);
    world w = world_make(l, no_jobs(), &ca);
    wf_obstacle_desc d = obstacle_box(8.0f, 4.0f, 0.6f, 1.2f);
    obstacle_add(w.tc, d);
    wf_tilecache_budget b = {0, 0};
    wf_tilecache_update_result r;

    // The first update cannot make its per-layer state: nothing is applied.
    for (unsigned long k = 1; k <= 3; ++k) {
        ca.fail_at = atomic_load(&ca.attempt) + k;
        memset(&r, 0, sizeof r);
        assert_int_equal(wf_tilecache_update(w.tc, w.mesh, &b, &r), WF_ERR_OUT_OF_MEMORY);
        assert_int_equal(r.requests_applied, 0);
        assert_same_as_original(l, w.mesh);
    }
    // The next one applies the request, but the first layer it commits
    // cannot get its tile memory: that tile stays as it was, dirty.
    uint32_t tiles = wf_mesh_get_stats(w.mesh).tile_count;
    ca.fail_at = atomic_load(&ca.attempt) + 4; // three for the per-layer state
    assert_int_equal(wf_tilecache_update(w.tc, w.mesh, &b, &r), WF_ERR_OUT_OF_MEMORY);
    assert_int_equal(atomic_load(&ca.failed), 4);
    assert_int_equal(r.requests_applied, 1);
    assert_false(r.up_to_date);
    assert_true(r.layers_pending >= 1);
    assert_int_equal(wf_mesh_get_stats(w.mesh).tile_count, tiles);
    ca.fail_at = 0;
    // Nothing new queued: the next update still rebuilds that layer.
    assert_int_equal(wf_tilecache_update(w.tc, w.mesh, &b, &r), WF_OK);
    assert_true(r.up_to_date);
    assert_int_equal(r.requests_applied, 0);
    assert_true(r.tiles_committed >= 1);
    assert_equals_fresh_build(l, w.mesh, &d, 1);
    world_free(&w);
    assert_int_equal(counting_allocator_live(&ca), 0);
    assert_int_equal(atomic_load(&ca.size_mismatches), 0);
    forget_expected();
    free(l);
}

/* ---------------------------------------------------------------------------
 * Layers too big for a build slot
 */

/// A 48 x 48 m checkerboard of 1 m cells of two areas (one tile): every
/// cell is a polygon, so the layer needs more than a worker's scratch and
/// staging, and both the navmesh pass and the update build it in a
/// temporary full-size arena into a blob of its own.
static level* checkerboard(void) {
    level* l = calloc(1, sizeof *l);
    l->params = wf_tilecache_params_recast_demo();
    l->params.cell_size = 1.0f;
    l->params.agent_radius = 0.0f;
    l->params.min_region_area = 0;
    l->params.merge_region_area = 0;
    l->cell_size = 1.0f;
    l->width = l->depth = 48;
    l->has_areas = true;
    for (uint32_t i = 0; i < 48 * 48; ++i) {
        l->walkable[i] = 1;
        l->areas[i] = (uint8_t)((i % 48 + i / 48) & 1);
    }
    return l;
}

static unsigned run_oversize(const level* l, wf_job_system jobs, counting_allocator* ca) {
    ctx c = {.ca = ca};
    wf_tilecache_desc d = cache_desc(l, jobs, ca);
    wf_tilecache* tc = create_cache(&c, &d);
    build_grid(&c, tc, l);
    wf_mesh* mesh = create_mesh(&c, tc);
    build_navmesh(&c, tc, mesh);
    assert_true(wf_tilecache_get_stats(tc).oversize_layers >= 1);
    wf_obstacle_desc o = obstacle_cylinder(20.0f, 20.0f, 3.0f);
    wf_obstacle_id id = add_obstacle(&c, tc, o);
    settle(&c, tc, mesh, 1);
    assert_as_built(l, mesh, &o, 1);
    begin_call(&c, "remove_obstacle");
    assert_false(failed_for_memory(&c, wf_tilecache_remove_obstacle(tc, id)));
    settle(&c, tc, mesh, 1);
    assert_as_built(l, mesh, NULL, 0);
    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(tc);
    assert_int_equal(counting_allocator_live(ca), 0);
    assert_int_equal(atomic_load(&ca->size_mismatches), 0);
    return c.oom_calls;
}

static void test_oversize_layers(void** state) {
    (void)state;
    level* l = checkerboard();
    wf_thread_pool* pool = make_pool(2);
    unsigned long runs[2] = {0, 0};
    // Every k with no workers; every 2nd with a pool (its builds in rounds).
    for (int after = 0; after < 4; ++after) {
        wf_job_system jobs = after < 2 ? no_jobs() : wf_thread_pool_job_system(pool);
        for (unsigned long k = 1;; k += after < 2 ? 1u : 2u) {
            counting_allocator ca;
            counting_allocator_init(&ca);
            ca.fail_at = k;
            ca.fail_after = (after & 1) != 0;
            unsigned failed_calls = run_oversize(l, jobs, &ca);
            runs[after & 1]++;
            if (atomic_load(&ca.failed) == 0) {
                break;
            }
            assert_int_equal(failed_calls, 1);
            assert_true(k < 10000);
        }
    }
    print_message("oversize layer, 1 and 3 workers: %lu runs fail_at, %lu fail_after\n", runs[0],
                  runs[1]);
    wf_thread_pool_destroy(pool);
    forget_expected();
    free(l);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_single_failure),
        cmocka_unit_test(test_every_single_failure_budgeted),
        cmocka_unit_test(test_every_single_failure_with_workers),
        cmocka_unit_test(test_failures_from_k_on),
        cmocka_unit_test(test_update_keeps_its_work),
        cmocka_unit_test(test_oversize_layers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
