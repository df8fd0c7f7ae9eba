// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Allocation failures, world level: one scenario (create a world from a
// small level, add agents, step with obstacles added, moved and removed,
// save, restore an earlier save, step on, save again) is run with the k-th
// allocation failing, for every k until a run sees no failure, and again
// with every allocation from the k-th on failing (until the first call that
// fails) for a sample of k. Every call must succeed or return
// WF_ERR_OUT_OF_MEMORY (and only when an allocation was refused); after a
// failure, allocations are allowed again and the scenario goes on:
// - a failed create leaks nothing and is tried again;
// - a failed obstacle or agent call leaves the counts as they were;
// - a failed step still steps the crowd, and later steps apply what the
//   failed one could not (the final navmesh matches a run with no failure);
// - a failed restore leaves the world as it was: it steps on and ends as a
//   world that was never restored;
// - a failure before the first save is invisible after a retried create;
//   one between the save and the restore is undone by the restore.
// Each run ends with the world destroyed, no allocation live and no free
// of a size other than allocated.
//
// Runs (about 360 allocations per run; the whole file takes ~12 s in the
// dev build, ~18 s of CPU under ASan): every k failing once on 1 worker;
// every k from k on through the world's creation, then every 12th; on 3
// workers with one tile per step every 8th k once and every 16th from k on;
// on 3 workers with a 1 us tile budget every 12th k; 2 x 16 runs of random
// failures (a failure armed before every call, failures after failures);
// then focused loops: a world made from a cache file (every k), and a
// restore of a world with more layers (every 2nd k).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../crowd/crowd_test_util.h"
#include "counting_allocator.h"
#include "test_level.h"
#include "wayfarer/rng.h"
#include "wayfarer/world.h"

#define DT (1.0f / 30.0f)
#define AGENTS 8u
#define LEVEL 36.0f
#define FRAMES 44u
#define SAVE_AT 14u    ///< the blob restored later is saved before this frame
#define RESTORE_AT 30u ///< and restored before this one

typedef enum phase {
    PH_CREATE,
    PH_AGENTS,
    PH_OBSTACLES,
    PH_STEP_BEFORE_SAVE,
    PH_SAVE,
    PH_STEP_BEFORE_RESTORE,
    PH_RESTORE,
    PH_STEP_AFTER_RESTORE,
    PH_FINAL_SAVE,
    PH_COUNT,
    PH_NONE = -1,
} phase;

static const char* const phase_names[PH_COUNT] = {
    "create",     "agents",
    "obstacles",  "steps before the save",
    "save",       "steps before the restore",
    "restore",    "steps after the restore",
    "final save",
};

typedef struct config {
    uint32_t workers;      ///< the world's worker_count
    uint32_t tile_commits; ///< step budget (0 = none)
    uint32_t tile_time_us; ///< step budget (0 = none; else the crowd depends on timing)
    bool restore;          ///< restore the blob saved at SAVE_AT
} config;

typedef struct outcome {
    uint64_t hash;     ///< every agent at the end
    uint64_t mesh_sig; ///< tiles and their polygon counts at the end
    uint64_t frame;
    uint32_t obstacles;
    unsigned long attempts;        ///< allocation attempts of the whole run
    unsigned long create_attempts; ///< of the world's creation (its last try)
    phase first_oom;               ///< phase of the first call that failed
    unsigned oom_calls;
    bool restored; ///< the restore succeeded
} outcome;

/// The game's state: ids, the random targets, the obstacles it placed.
typedef struct scene {
    wf_rng rng;          ///< agents' targets (draws depend on the crowd's events)
    wf_rng obstacle_rng; ///< obstacles' places (the same whatever the crowd did)
    wf_agent_id ids[AGENTS];
    wf_obstacle_id crate, door, block;
} scene;

typedef struct runner {
    config cfg;
    counting_allocator* ca;
    unsigned long failed_before;
    outcome* out;
    phase ph;
    wf_rng* chaos; ///< random failures (see test_random_failures), or NULL
    uint32_t chaos_range;
} runner;

/* ---------------------------------------------------------------------------
 * One call under the allocator
 */

static void begin_call(runner* r, phase ph) {
    r->ph = ph;
    r->failed_before = atomic_load(&r->ca->failed);
    if (r->chaos != NULL) {
        // One of the call's next few allocations fails (if it makes that
        // many), whatever failed before: few for calls that allocate little.
        bool big = ph == PH_CREATE || ph == PH_RESTORE || ph == PH_FINAL_SAVE;
        uint32_t range = big ? r->chaos_range : 8u;
        r->ca->fail_after = false;
        r->ca->fail_at = atomic_load(&r->ca->attempt) + 1u + wf_rng_next_u32(r->chaos) % range;
    }
}

/// True when the call failed for memory: then an allocation was refused
/// during it, and from now on allocations are allowed (the retry, or the
/// rest of the scenario, runs with memory). Anything else but WF_OK, and
/// a refused allocation the call hid behind WF_OK, fail the test.
static bool failed_for_memory(runner* r, wf_status s) {
    bool refused = atomic_load(&r->ca->failed) > r->failed_before;
    if (s == WF_ERR_OUT_OF_MEMORY && refused) {
        if (r->out->first_oom == PH_NONE) {
            r->out->first_oom = r->ph;
        }
        r->out->oom_calls++;
        r->ca->fail_at = 0;
        return true;
    }
    if (s != WF_OK || refused) {
        print_error("%s: %s with %s allocation refused (fail_at %lu%s)\n", phase_names[r->ph],
                    wf_status_string(s), refused ? "an" : "no", r->ca->fail_at,
                    r->ca->fail_after ? " and after" : "");
        fail();
    }
    return false;
}

/* ---------------------------------------------------------------------------
 * The scenario
 */

static wf_vec3 random_spot(wf_rng* rng) {
    for (;;) {
        float x = wf_rng_range(rng, 1.0f, LEVEL - 1.0f), z = wf_rng_range(rng, 1.0f, LEVEL - 1.0f);
        if (test_level_open(LEVEL, x, z)) {
            return wf_v3(x, 0.0f, z);
        }
    }
}

static uint64_t mix(uint64_t h, uint64_t v) {
    for (int b = 0; b < 8; ++b) {
        h = (h ^ ((v >> (8 * b)) & 0xffu)) * 1099511628211ull;
    }
    return h;
}

/// Tiles by place and polygon count, in any slot order.
static uint64_t mesh_signature(const wf_mesh* mesh) {
    wf_tile_ref refs[64];
    uint32_t n = wf_mesh_get_tiles(mesh, refs, 64);
    assert_true(n <= 64);
    uint64_t sum = n;
    for (uint32_t k = 0; k < n; ++k) {
        wf_tile_info info;
        assert_int_equal(wf_mesh_get_tile_info(mesh, refs[k], &info), WF_OK);
        uint64_t h = 1469598103934665603ull;
        h = mix(h, (uint64_t)(uint32_t)info.tile_x);
        h = mix(h, (uint64_t)(uint32_t)info.tile_z);
        h = mix(h, (uint64_t)(uint32_t)info.layer);
        h = mix(h, info.poly_count);
        h = mix(h, info.vert_count);
        sum += h;
    }
    return sum;
}

/// The level with the Recast demo's settings and coarser cells (tile_size
/// 32: 16 m tiles, 3 x 3), a crowd of AGENTS.
static wf_world_desc world_desc(const wf_geom* g, uint32_t workers, uint32_t tile_size) {
    wf_world_desc d;
    memset(&d, 0, sizeof d);
    d.geom = g;
    d.params = wf_tilecache_params_recast_demo();
    d.params.cell_size = 0.5f;
    d.params.tile_size = tile_size;
    d.worker_count = workers;
    d.max_obstacles = 8;
    d.crowd.max_agents = AGENTS;
    d.crowd.max_searches = 2;
    d.crowd.path_iterations_per_update = 64; // searches span several steps
    d.logger.quiet = true;
    return d;
}

static wf_world* create_world(runner* r, const wf_geom* g) {
    wf_world_desc d = world_desc(g, r->cfg.workers, 32);
    d.allocator = counting_allocator_hooks(r->ca);
    for (;;) {
        wf_world* w = (wf_world*)1;
        begin_call(r, PH_CREATE);
        wf_status s = wf_world_create(&d, &w);
        if (!failed_for_memory(r, s)) {
            return w;
        }
        assert_null(w);
        assert_int_equal(counting_allocator_live(r->ca), 0); // nothing of it left
    }
}

static void populate(runner* r, wf_world* w, scene* sc) {
    sc->rng = wf_rng_make(77u, 1u);
    sc->obstacle_rng = wf_rng_make(78u, 1u);
    wf_agent_params p = wf_agent_params_defaults();
    wf_crowd* crowd = wf_world_crowd(w);
    for (uint32_t i = 0; i < AGENTS; ++i) {
        p.priority = (uint8_t)(i % 3u);
        wf_vec3 at = random_spot(&sc->rng);
        wf_vec3 to = random_spot(&sc->rng);
        for (;;) {
            begin_call(r, PH_AGENTS);
            if (!failed_for_memory(r, wf_crowd_add_agent(crowd, at, &p, &sc->ids[i]))) {
                break;
            }
            assert_int_equal(wf_crowd_agent_count(crowd), i);
        }
        for (;;) {
            begin_call(r, PH_AGENTS);
            if (!failed_for_memory(r, wf_crowd_request_move(crowd, sc->ids[i], to, NULL, NULL))) {
                break;
            }
        }
    }
    sc->crate.bits = 0;
    sc->door.bits = 0;
}

/// The obstacle script of frame f: a crate dropped, the gap in the wall
/// closed by a door, the crate removed, the door moved aside, a new crate.
static void obstacles_at(runner* r, wf_world* w, scene* sc, uint32_t f) {
    wf_tilecache* tc = wf_world_tilecache(w);
    wf_obstacle_desc crate = {.shape = WF_OBSTACLE_CYLINDER, .radius = 1.5f, .height = 2.0f};
    wf_obstacle_desc door = {.shape = WF_OBSTACLE_BOX,
                             .position = wf_v3(18.0f, 1.0f, 18.0f),
                             .half_extents = wf_v3(1.0f, 1.5f, 3.5f)};
    for (;;) {
        uint32_t before = wf_tilecache_obstacle_count(tc);
        wf_status s = WF_OK;
        begin_call(r, PH_OBSTACLES);
        if (f == 3 || f == 36) {
            crate.position = random_spot(&sc->obstacle_rng);
            s = wf_tilecache_add_obstacle(tc, &crate, &sc->crate);
        } else if (f == 8) {
            s = wf_tilecache_add_obstacle(tc, &door, &sc->door);
        } else if (f == SAVE_AT) {
            // Across two tiles no obstacle touched yet, just before the
            // save: the save builds and commits them (their first tile memory).
            wf_obstacle_desc block = {.shape = WF_OBSTACLE_BOX,
                                      .position = wf_v3(32.0f, 1.0f, 8.0f),
                                      .half_extents = wf_v3(1.5f, 1.0f, 1.5f)};
            s = wf_tilecache_add_obstacle(tc, &block, &sc->block);
        } else if (f == 20) {
            s = wf_tilecache_remove_obstacle(tc, sc->crate);
        } else if (f == 24) {
            door.position = wf_v3(18.0f, 1.0f, 8.0f);
            s = wf_tilecache_move_obstacle(tc, sc->door, &door);
        } else {
            return;
        }
        if (!failed_for_memory(r, s)) {
            return;
        }
        assert_int_equal(wf_tilecache_obstacle_count(tc), before); // nothing kept
    }
}

static void step(runner* r, wf_world* w, scene* sc, phase ph) {
    wf_world_budget budget = {.tile_time_us = r->cfg.tile_time_us,
                              .tile_commits = r->cfg.tile_commits};
    wf_world_report rep;
    begin_call(r, ph);
    wf_status s = wf_world_step(w, DT, &budget, &rep);
    if (failed_for_memory(r, s)) {
        // The crowd stepped all the same; the tiles wait for a later step.
        return;
    }
    uint32_t n;
    const wf_crowd_event* e = wf_crowd_events(wf_world_crowd(w), &n);
    for (uint32_t k = 0; k < n; ++k) {
        if (e[k].kind == WF_CROWD_EVENT_ARRIVED || e[k].kind == WF_CROWD_EVENT_STOPPED_SHORT ||
            e[k].kind == WF_CROWD_EVENT_BLOCKED) {
            assert_int_equal(wf_crowd_request_move(wf_world_crowd(w), e[k].agent,
                                                   random_spot(&sc->rng), NULL, NULL),
                             WF_OK);
        }
    }
}

/// save_size + save, each tried again after a failure.
static unsigned char* save(runner* r, wf_world* w, phase ph, size_t* out_size) {
    size_t size = 0;
    do {
        begin_call(r, ph);
    } while (failed_for_memory(r, wf_world_save_size(w, &size)));
    unsigned char* blob = malloc(size);
    assert_non_null(blob);
    do {
        begin_call(r, ph);
    } while (failed_for_memory(r, wf_world_save(w, blob, size)));
    *out_size = size;
    return blob;
}

/// The save at SAVE_AT, as a game that keeps its save buffer does it: the
/// size first, then frame f's obstacles, then wf_world_save into a buffer
/// with room to spare, which builds and commits their tiles itself.
static unsigned char* save_pending(runner* r, wf_world* w, scene* sc, uint32_t f,
                                   size_t* out_size) {
    size_t room = 0;
    do {
        begin_call(r, PH_SAVE);
    } while (failed_for_memory(r, wf_world_save_size(w, &room)));
    obstacles_at(r, w, sc, f);
    room += 4096;
    unsigned char* blob = malloc(room);
    assert_non_null(blob);
    do {
        begin_call(r, PH_SAVE);
    } while (failed_for_memory(r, wf_world_save(w, blob, room)));
    // Header of a single-class save: section sizes at 40, 48 and 56
    // (little-endian u64), the sections from 64.
    uint64_t sections[3];
    memcpy(sections, blob + 40, sizeof sections);
    *out_size = 64u + (size_t)(sections[0] + sections[1] + sections[2]);
    assert_true(*out_size <= room);
    return blob;
}

static void restore(runner* r, wf_world* w, scene* sc, const unsigned char* blob, size_t size,
                    const scene* saved) {
    wf_crowd* crowd = wf_world_crowd(w);
    wf_mesh* mesh = wf_world_mesh(w);
    uint64_t hash = crowd_test_hash(crowd);
    uint64_t sig = mesh_signature(mesh);
    uint32_t obstacles = wf_tilecache_obstacle_count(wf_world_tilecache(w));
    begin_call(r, PH_RESTORE);
    if (failed_for_memory(r, wf_world_restore(w, blob, size))) {
        // The world as it was: the same parts, agents, tiles and obstacles.
        assert_ptr_equal(wf_world_crowd(w), crowd);
        assert_ptr_equal(wf_world_mesh(w), mesh);
        assert_true(crowd_test_hash(crowd) == hash);
        assert_true(mesh_signature(mesh) == sig);
        assert_int_equal(wf_tilecache_obstacle_count(wf_world_tilecache(w)), obstacles);
        return;
    }
    *sc = *saved; // the game's own state goes back with the world's
    r->out->restored = true;
}

/// Every agent the game knows is there, on the mesh, with finite numbers.
static void check_sane(wf_world* w, const scene* sc) {
    wf_crowd* crowd = wf_world_crowd(w);
    assert_int_equal(wf_crowd_agent_count(crowd), AGENTS);
    for (uint32_t i = 0; i < AGENTS; ++i) {
        wf_agent_state st;
        assert_int_equal(wf_crowd_get_agent(crowd, sc->ids[i], &st), WF_OK);
        assert_true(isfinite(st.position.x) && isfinite(st.position.y) && isfinite(st.position.z));
        assert_true(st.position.x > -1.0f && st.position.x < LEVEL + 1.0f);
        assert_true(st.position.z > -1.0f && st.position.z < LEVEL + 1.0f);
        assert_true(isfinite(st.velocity.x) && isfinite(st.velocity.z));
    }
}

/// The scenario with the allocator as the caller set it up (fail_at,
/// fail_after); the world is destroyed at the end and nothing may be live.
static void run_scenario(const config* cfg, counting_allocator* ca, wf_rng* chaos, outcome* out) {
    memset(out, 0, sizeof *out);
    out->first_oom = PH_NONE;
    runner r = {.cfg = *cfg,
                .ca = ca,
                .out = out,
                .ph = PH_CREATE,
                .chaos = chaos,
                .chaos_range = 3u * 140u}; // about three world creations
    static test_level lv;
    wf_geom g = test_level_make(&lv, LEVEL, true);
    wf_world* w = create_world(&r, &g);
    out->create_attempts = atomic_load(&ca->attempt);
    scene* sc = calloc(1, sizeof *sc);
    scene* saved = calloc(1, sizeof *saved);
    assert_true(sc != NULL && saved != NULL);
    populate(&r, w, sc);
    unsigned char* blob = NULL;
    size_t blob_size = 0;
    bool restore_done = false;
    for (uint32_t f = 0; f < FRAMES; ++f) {
        if (f == SAVE_AT) {
            blob = save_pending(&r, w, sc, f, &blob_size);
            *saved = *sc;
        } else {
            obstacles_at(&r, w, sc, f);
        }
        if (f == RESTORE_AT && cfg->restore) {
            restore(&r, w, sc, blob, blob_size, saved);
            restore_done = true;
        }
        step(&r, w, sc,
             f < SAVE_AT     ? PH_STEP_BEFORE_SAVE
             : !restore_done ? PH_STEP_BEFORE_RESTORE
                             : PH_STEP_AFTER_RESTORE);
    }
    size_t final_size = 0;
    unsigned char* final_blob = save(&r, w, PH_FINAL_SAVE, &final_size); // finishes every tile
    for (;;) { // a round trip: the same world again
        begin_call(&r, PH_FINAL_SAVE);
        if (!failed_for_memory(&r, wf_world_restore(w, final_blob, final_size))) {
            break;
        }
    }
    check_sane(w, sc);
    out->hash = crowd_test_hash(wf_world_crowd(w));
    out->mesh_sig = mesh_signature(wf_world_mesh(w));
    out->obstacles = wf_tilecache_obstacle_count(wf_world_tilecache(w));
    memcpy(&out->frame, final_blob + 8, sizeof out->frame); // steps run (a little-endian u64)
    wf_world_destroy(w);
    free(final_blob);
    free(blob);
    free(sc);
    free(saved);
    out->attempts = atomic_load(&ca->attempt);
    assert_int_equal(counting_allocator_live(ca), 0);
    assert_int_equal(atomic_load(&ca->live_bytes), 0);
    assert_int_equal(atomic_load(&ca->size_mismatches), 0);
}

/* ---------------------------------------------------------------------------
 * The loops
 */

typedef struct reference {
    config cfg;
    outcome restored;     ///< no failure, the restore done
    outcome not_restored; ///< no failure, no restore
} reference;

static void make_reference(const config* cfg, reference* ref) {
    ref->cfg = *cfg;
    counting_allocator ca;
    counting_allocator_init(&ca);
    run_scenario(cfg, &ca, NULL, &ref->restored);
    assert_true(ref->restored.restored);
    assert_int_equal(ref->restored.oom_calls, 0);
    config plain = *cfg;
    plain.restore = false;
    counting_allocator_init(&ca);
    run_scenario(&plain, &ca, NULL, &ref->not_restored);
    // The restore changes the outcome (else a failed one would go unseen).
    assert_true(ref->restored.mesh_sig != ref->not_restored.mesh_sig);
    if (cfg->tile_time_us == 0) {
        assert_true(ref->restored.hash != ref->not_restored.hash);
    }
}

/// What a run with failures must match, by the phase its first failure
/// was in.
static void check_against(const reference* ref, const outcome* o, unsigned long k) {
    const outcome* want = o->restored ? &ref->restored : &ref->not_restored;
    const char* where = o->first_oom == PH_NONE ? "nothing" : phase_names[o->first_oom];
    // Every tile finished by the final save: the same navmesh and obstacles
    // whatever failed on the way (what a failed update left is done later).
    if (o->mesh_sig != want->mesh_sig || o->obstacles != want->obstacles ||
        o->frame != want->frame) {
        print_error("fail_at %lu, first failure in %s: navmesh, obstacles or steps differ\n", k,
                    where);
        fail();
    }
    if (ref->cfg.tile_time_us != 0) {
        return; // commits depend on timing: so does the crowd
    }
    switch (o->first_oom) {
    case PH_NONE:
    case PH_CREATE:
    case PH_AGENTS:
    case PH_OBSTACLES:
    case PH_SAVE:
    case PH_STEP_BEFORE_RESTORE: // undone by the restore
    case PH_RESTORE:             // then the world was never restored
    case PH_FINAL_SAVE:
        if (o->hash != want->hash) {
            print_error("fail_at %lu, first failure in %s: the crowd differs\n", k, where);
            fail();
        }
        break;
    default:
        break; // a step that failed delays tiles: the crowd may walk otherwise
    }
}

typedef struct sweep {
    unsigned long runs;
    unsigned hits[PH_COUNT]; ///< runs by the phase of their failed call
} sweep;

static void one_run(const reference* ref, unsigned long k, bool after, sweep* sw) {
    counting_allocator ca;
    counting_allocator_init(&ca);
    ca.fail_at = k;
    ca.fail_after = after;
    outcome o;
    run_scenario(&ref->cfg, &ca, NULL, &o);
    check_against(ref, &o, k);
    // The run went on with memory after its first failed call.
    assert_int_equal(o.oom_calls, o.first_oom == PH_NONE ? 0 : 1);
    if (!after) {
        assert_int_equal(atomic_load(&ca.failed), o.oom_calls);
    }
    if (o.first_oom != PH_NONE) {
        sw->hits[o.first_oom]++;
    }
    sw->runs++;
}

static void report(const char* what, const sweep* sw) {
    char line[512];
    int at = snprintf(line, sizeof line, "%s: %lu runs; failed calls by phase:", what, sw->runs);
    for (int p = 0; p < PH_COUNT && at > 0 && (size_t)at < sizeof line; ++p) {
        if (sw->hits[p] > 0) {
            at += snprintf(line + at, sizeof line - (size_t)at, " %s %u,", phase_names[p],
                           sw->hits[p]);
        }
    }
    print_message("%s\n", line);
}

/// Every k, one failure each, until a run sees none: every allocation of
/// the scenario fails once.
static void test_every_single_failure(void** state) {
    (void)state;
    reference ref;
    make_reference(&(config){.workers = 1, .restore = true}, &ref);
    sweep sw = {0};
    for (unsigned long k = 1; k <= ref.restored.attempts + 1u; ++k) {
        one_run(&ref, k, false, &sw);
    }
    assert_int_equal(sw.runs - 1u, ref.restored.attempts); // the last run failed nothing
    report("fail_at k, 1 worker", &sw);
    // Failures reached every part that allocates.
    assert_true(sw.hits[PH_CREATE] > 0);
    assert_true(sw.hits[PH_STEP_BEFORE_SAVE] > 0);
    assert_true(sw.hits[PH_SAVE] > 0);
    assert_true(sw.hits[PH_RESTORE] > 0);
    assert_true(sw.hits[PH_STEP_AFTER_RESTORE] > 0);
}

/// Every allocation from the k-th on fails (until the first call that
/// fails): cleanup paths that run out of memory too. Every k of the
/// world's creation, then every 12th.
static void test_failures_from_k_on(void** state) {
    (void)state;
    reference ref;
    make_reference(&(config){.workers = 1, .restore = true}, &ref);
    sweep sw = {0};
    for (unsigned long k = 1; k <= ref.restored.attempts + 1u;
         k += k <= ref.restored.create_attempts ? 1u : 12u) {
        one_run(&ref, k, true, &sw);
    }
    report("fail_after k, 1 worker", &sw);
}

/// A pool of two threads and one tile per step: builds run on the workers
/// (the creation's allocations come in any order there) and go on between
/// steps. Every 8th k failing once, every 16th from k on.
static void test_failures_with_workers(void** state) {
    (void)state;
    reference ref;
    make_reference(&(config){.workers = 3, .tile_commits = 1, .restore = true}, &ref);
    reference ref1;
    make_reference(&(config){.workers = 1, .tile_commits = 1, .restore = true}, &ref1);
    assert_true(ref.restored.hash == ref1.restored.hash); // the same for any worker count
    sweep sw = {0};
    for (unsigned long k = 1; k <= ref.restored.attempts + 1u; k += 8u) {
        one_run(&ref, k, false, &sw);
        if (k % 16u == 1u) {
            one_run(&ref, k, true, &sw);
        }
    }
    report("fail_at / fail_after k, 3 workers, 1 tile per step", &sw);
}

/// A time budget on workers: commits wait for builds within it and the
/// rest go on in the background (the crowd then depends on timing: the
/// navmesh and obstacles are checked). Every 12th k.
static void test_failures_with_a_time_budget(void** state) {
    (void)state;
    reference ref;
    make_reference(&(config){.workers = 3, .tile_time_us = 1, .restore = true}, &ref);
    sweep sw = {0};
    for (unsigned long k = 1; k <= ref.restored.attempts + 1u; k += 12u) {
        one_run(&ref, k, false, &sw);
    }
    report("fail_at k, 3 workers, 1 us per step", &sw);
}

/* ---------------------------------------------------------------------------
 * Focused loops: what the scenario does not reach
 */

/// A world made from a cache file (with an obstacle in it), every k: a
/// failed create leaks nothing, and the world made next steps, rebuilds a
/// tile and ends as one made with no failure.
static void test_create_from_a_cache_file(void** state) {
    (void)state;
    static test_level lv;
    wf_geom g = test_level_make(&lv, LEVEL, true);
    wf_world_desc d = world_desc(&g, 1, 32);
    wf_world* src = NULL;
    assert_int_equal(wf_world_create(&d, &src), WF_OK);
    wf_obstacle_desc door = {.shape = WF_OBSTACLE_BOX,
                             .position = wf_v3(18.0f, 1.0f, 18.0f),
                             .half_extents = wf_v3(1.0f, 1.5f, 3.5f)};
    wf_obstacle_id id;
    assert_int_equal(wf_tilecache_add_obstacle(wf_world_tilecache(src), &door, &id), WF_OK);
    assert_int_equal(wf_world_step(src, DT, NULL, NULL), WF_OK);
    size_t size = 0;
    assert_int_equal(wf_tilecache_save_size(wf_world_tilecache(src), &size), WF_OK);
    unsigned char* file = malloc(size);
    assert_non_null(file);
    assert_int_equal(wf_tilecache_save(wf_world_tilecache(src), file, size), WF_OK);
    wf_world_destroy(src);
    d.geom = NULL;
    d.cache_data = file;
    d.cache_size = size;

    uint64_t want_sig = 0, want_hash = 0;
    unsigned long runs = 0;
    for (unsigned long k = 0;; ++k) { // k 0: the reference, no failure
        counting_allocator ca;
        counting_allocator_init(&ca);
        ca.fail_at = k;
        outcome o;
        memset(&o, 0, sizeof o);
        o.first_oom = PH_NONE;
        runner r = {.cfg = {.workers = 1}, .ca = &ca, .out = &o};
        d.allocator = counting_allocator_hooks(&ca);
        wf_world* w = NULL;
        for (;;) {
            begin_call(&r, PH_CREATE);
            if (!failed_for_memory(&r, wf_world_create(&d, &w))) {
                break;
            }
            assert_null(w);
            assert_int_equal(counting_allocator_live(&ca), 0);
        }
        // The loaded obstacle is in the navmesh; removing it rebuilds a tile.
        assert_int_equal(wf_tilecache_obstacle_count(wf_world_tilecache(w)), 1);
        wf_agent_params p = wf_agent_params_defaults();
        wf_agent_id a;
        assert_int_equal(wf_crowd_add_agent(wf_world_crowd(w), wf_v3(4.0f, 0, 18.0f), &p, &a),
                         WF_OK);
        assert_int_equal(
            wf_crowd_request_move(wf_world_crowd(w), a, wf_v3(32.0f, 0, 18.0f), NULL, NULL), WF_OK);
        for (int f = 0; f < 12; ++f) {
            if (f == 4) {
                begin_call(&r, PH_OBSTACLES);
                assert_false(
                    failed_for_memory(&r, wf_tilecache_remove_obstacle(wf_world_tilecache(w), id)));
            }
            begin_call(&r, PH_STEP_BEFORE_SAVE);
            (void)failed_for_memory(&r, wf_world_step(w, DT, NULL, NULL));
        }
        // A step that failed left its tile for the next one.
        wf_tilecache_update_result tr;
        assert_int_equal(wf_tilecache_update(wf_world_tilecache(w), wf_world_mesh(w),
                                             &(wf_tilecache_budget){0, 0}, &tr),
                         WF_OK);
        assert_true(tr.up_to_date);
        uint64_t sig = mesh_signature(wf_world_mesh(w));
        uint64_t hash = crowd_test_hash(wf_world_crowd(w));
        wf_world_destroy(w);
        assert_int_equal(counting_allocator_live(&ca), 0);
        assert_int_equal(atomic_load(&ca.size_mismatches), 0);
        if (k == 0) {
            want_sig = sig;
            want_hash = hash;
            continue;
        }
        runs++;
        assert_true(sig == want_sig);
        if (o.first_oom == PH_CREATE) {
            assert_true(hash == want_hash); // a retried create: the same world
        }
        if (atomic_load(&ca.failed) == 0) {
            break;
        }
        assert_true(k < 10000);
    }
    print_message("world from a cache file: %lu runs\n", runs);
    free(file);
}

/// A restore into a world whose level has fewer layers (the blob's world
/// has 8 m tiles: the world's list of changed tiles grows), every 2nd k: a
/// failed restore leaves the world as it was and stepping; the retry makes
/// it the saved world.
static void test_restore_a_bigger_world(void** state) {
    (void)state;
    static test_level lv;
    wf_geom g = test_level_make(&lv, LEVEL, true);
    wf_world_desc big_desc = world_desc(&g, 1, 16);
    wf_world* big = NULL;
    assert_int_equal(wf_world_create(&big_desc, &big), WF_OK);
    assert_true(wf_tilecache_layer_count(wf_world_tilecache(big)) > 9);
    counting_allocator none;
    counting_allocator_init(&none);
    outcome unused;
    memset(&unused, 0, sizeof unused);
    runner quiet = {.cfg = {.workers = 1}, .ca = &none, .out = &unused};
    scene* sc = calloc(1, sizeof *sc);
    assert_non_null(sc);
    populate(&quiet, big, sc);
    for (int f = 0; f < 6; ++f) {
        assert_int_equal(wf_world_step(big, DT, NULL, NULL), WF_OK);
    }
    size_t size = 0;
    assert_int_equal(wf_world_save_size(big, &size), WF_OK);
    unsigned char* blob = malloc(size);
    assert_non_null(blob);
    assert_int_equal(wf_world_save(big, blob, size), WF_OK);
    uint64_t big_sig = mesh_signature(wf_world_mesh(big));
    uint64_t big_hash = crowd_test_hash(wf_world_crowd(big));
    wf_world_destroy(big);

    unsigned long runs = 0;
    for (unsigned long k = 1;; k += 2) {
        counting_allocator ca;
        counting_allocator_init(&ca);
        outcome o;
        memset(&o, 0, sizeof o);
        o.first_oom = PH_NONE;
        runner r = {.cfg = {.workers = 1}, .ca = &ca, .out = &o};
        wf_world* w = create_world(&r, &g);
        populate(&r, w, sc);
        for (int f = 0; f < 3; ++f) {
            assert_int_equal(wf_world_step(w, DT, NULL, NULL), WF_OK);
        }
        wf_crowd* crowd = wf_world_crowd(w);
        uint64_t hash = crowd_test_hash(crowd), sig = mesh_signature(wf_world_mesh(w));
        ca.fail_at = atomic_load(&ca.attempt) + k;
        begin_call(&r, PH_RESTORE);
        if (failed_for_memory(&r, wf_world_restore(w, blob, size))) {
            assert_ptr_equal(wf_world_crowd(w), crowd);
            assert_true(crowd_test_hash(crowd) == hash);
            assert_true(mesh_signature(wf_world_mesh(w)) == sig);
            assert_int_equal(wf_world_step(w, DT, NULL, NULL), WF_OK);
            assert_int_equal(wf_world_restore(w, blob, size), WF_OK);
        }
        assert_true(mesh_signature(wf_world_mesh(w)) == big_sig);
        assert_true(crowd_test_hash(wf_world_crowd(w)) == big_hash);
        for (int f = 0; f < 3; ++f) { // the restored cache's first update allocates
            begin_call(&r, PH_STEP_AFTER_RESTORE);
            (void)failed_for_memory(&r, wf_world_step(w, DT, NULL, NULL));
        }
        wf_world_destroy(w);
        assert_int_equal(counting_allocator_live(&ca), 0);
        assert_int_equal(atomic_load(&ca.size_mismatches), 0);
        runs++;
        if (atomic_load(&ca.failed) == 0) {
            break;
        }
        assert_true(k < 10000);
    }
    print_message("restore of a world with more layers: %lu runs\n", runs);
    free(blob);
    free(sc);
}

/// Random failures: before every call one of its next few hundred
/// allocations is set to fail, failures after failures, retries that fail
/// again. Whatever failed, the world ends with the navmesh and obstacles
/// of a run with no failure, restored or not as the restore went. 16 seeds
/// on 1 worker with no budget, 16 on 3 workers with one tile per step.
static void test_random_failures(void** state) {
    (void)state;
    const config cfgs[2] = {{.workers = 1, .restore = true},
                            {.workers = 3, .tile_commits = 1, .restore = true}};
    for (int c = 0; c < 2; ++c) {
        reference ref;
        make_reference(&cfgs[c], &ref);
        unsigned long calls = 0, restored = 0;
        for (uint32_t seed = 1; seed <= 16; ++seed) {
            wf_rng rng = wf_rng_make(seed, 7u);
            counting_allocator ca;
            counting_allocator_init(&ca);
            outcome o;
            run_scenario(&cfgs[c], &ca, &rng, &o);
            const outcome* want = o.restored ? &ref.restored : &ref.not_restored;
            assert_true(o.mesh_sig == want->mesh_sig);
            assert_int_equal(o.obstacles, want->obstacles);
            assert_true(o.frame == want->frame);
            calls += o.oom_calls;
            restored += o.restored;
        }
        print_message("random failures, %u worker(s): 16 runs, %lu failed calls, %lu restored\n",
                      cfgs[c].workers, calls, restored);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_single_failure),
        cmocka_unit_test(test_failures_from_k_on),
        cmocka_unit_test(test_failures_with_workers),
        cmocka_unit_test(test_failures_with_a_time_budget),
        cmocka_unit_test(test_random_failures),
        cmocka_unit_test(test_create_from_a_cache_file),
        cmocka_unit_test(test_restore_a_bigger_world),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
