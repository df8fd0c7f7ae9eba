// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Lockstep: with a tile budget that has no time limit (tile_commits 0, 1,
// 2, 3 or 5), the tiles each step commits, in their order, and the crowd
// after it are the same for 1 to 8 workers, step by step, while a painted
// box over the whole level and cylinders come and go.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../crowd/crowd_test_util.h"
#include "test_level.h"
#include "wayfarer/rng.h"
#include "wayfarer/world.h"

#define DT (1.0f / 30.0f)
#define AGENTS 24u
#define STEPS 90u
#define SIZE 36.0f
#define MAX_CYLINDERS 4u

/// What a step did: the tile changes it committed (in order) and the crowd
/// after it.
typedef struct step_trace {
    uint64_t tiles[STEPS];
    uint64_t crowd[STEPS];
} step_trace;

static uint64_t fnv(uint64_t h, const void* data, size_t size) {
    const unsigned char* p = data;
    for (size_t i = 0; i < size; ++i) {
        h = (h ^ p[i]) * 1099511628211ull;
    }
    return h;
}

static uint64_t tiles_hash(const wf_tilecache_update_result* r) {
    uint64_t h = 1469598103934665603ull;
    uint32_t head[3] = {r->tiles_committed, r->layers_pending, r->up_to_date ? 1u : 0u};
    h = fnv(h, head, sizeof head);
    for (uint32_t i = 0; i < r->changed_count; ++i) {
        const wf_tilecache_changed_tile* c = &r->changed[i];
        int32_t where[3] = {c->tile_x, c->tile_z, c->layer};
        uint64_t refs[2] = {c->old_tile.bits, c->new_tile.bits};
        h = fnv(h, where, sizeof where);
        h = fnv(h, refs, sizeof refs);
    }
    return h;
}

static wf_vec3 random_spot(wf_rng* rng) {
    for (;;) {
        wf_vec3 p =
            wf_v3(wf_rng_range(rng, 1.0f, SIZE - 1.0f), 0.0f, wf_rng_range(rng, 1.0f, SIZE - 1.0f));
        if (test_level_open(SIZE, p.x, p.z)) {
            return p;
        }
    }
}

/// The walled 36 m level in 7.2 m tiles (5 x 5), on `workers` workers.
static wf_world* make_world(uint32_t workers) {
    static test_level lv;
    wf_geom g = test_level_make(&lv, SIZE, true);
    wf_world_desc d;
    memset(&d, 0, sizeof d);
    d.geom = &g;
    d.params = wf_tilecache_params_recast_demo();
    d.params.tile_size = 24;
    d.worker_count = workers;
    d.crowd.max_agents = AGENTS;
    d.crowd.max_searches = 2;
    d.crowd.path_iterations_per_update = 64; // searches span several steps
    d.crowd.quick_search_iterations = 4;
    d.logger.quiet = true;
    wf_world* w = NULL;
    assert_int_equal(wf_world_create(&d, &w), WF_OK);
    return w;
}

/// Runs the scene on `workers` workers with at most `commits` tiles
/// committed per step (no time limit) and notes every step.
static void trace(uint32_t workers, uint32_t commits, step_trace* out) {
    wf_world* w = make_world(workers);
    wf_tilecache* tc = wf_world_tilecache(w);
    wf_crowd* crowd = wf_world_crowd(w);
    wf_rng rng = wf_rng_make(4242u, 7u);
    wf_agent_params p = wf_agent_params_defaults();
    wf_agent_id ids[AGENTS];
    for (uint32_t i = 0; i < AGENTS; ++i) {
        assert_int_equal(wf_crowd_add_agent(crowd, random_spot(&rng), &p, &ids[i]), WF_OK);
        assert_int_equal(wf_crowd_request_move(crowd, ids[i], random_spot(&rng), NULL, NULL),
                         WF_OK);
    }
    wf_obstacle_id paint = {0};
    wf_obstacle_id cylinders[MAX_CYLINDERS] = {{0}};
    uint32_t next_cylinder = 0;
    const wf_world_budget budget = {.tile_time_us = 0, .tile_commits = commits};
    for (uint32_t f = 0; f < STEPS; ++f) {
        if (f == 3u || f == 50u) {
            // Mud over the whole level: every layer is dirty at once.
            wf_obstacle_desc od = {.shape = WF_OBSTACLE_BOX,
                                   .paint = true,
                                   .area = 5,
                                   .position = wf_v3(SIZE * 0.5f, 1.0f, SIZE * 0.5f),
                                   .half_extents = wf_v3(SIZE * 0.5f, 2.0f, SIZE * 0.5f)};
            assert_int_equal(wf_tilecache_add_obstacle(tc, &od, &paint), WF_OK);
        }
        if (f == 30u || f == 75u) {
            assert_int_equal(wf_tilecache_remove_obstacle(tc, paint), WF_OK);
        }
        if (f % 4u == 1u) {
            // A cylinder somewhere, the oldest one gone once there are enough.
            wf_obstacle_id* slot = &cylinders[next_cylinder];
            if (slot->bits != 0) {
                assert_int_equal(wf_tilecache_remove_obstacle(tc, *slot), WF_OK);
            }
            wf_obstacle_desc od = {.shape = WF_OBSTACLE_CYLINDER,
                                   .radius = 1.2f,
                                   .height = 2.0f,
                                   .position = random_spot(&rng)};
            assert_int_equal(wf_tilecache_add_obstacle(tc, &od, slot), WF_OK);
            next_cylinder = (next_cylinder + 1u) % MAX_CYLINDERS;
        }
        wf_world_report r;
        assert_int_equal(wf_world_step(w, DT, &budget, &r), WF_OK);
        if (commits != 0) {
            assert_true(r.tiles.tiles_committed <= commits);
        }
        out->tiles[f] = tiles_hash(&r.tiles);
        out->crowd[f] = crowd_test_hash(crowd);
        uint32_t n;
        const wf_crowd_event* e = wf_crowd_events(crowd, &n);
        for (uint32_t k = 0; k < n; ++k) {
            if (e[k].kind == WF_CROWD_EVENT_ARRIVED || e[k].kind == WF_CROWD_EVENT_STOPPED_SHORT ||
                e[k].kind == WF_CROWD_EVENT_BLOCKED) {
                assert_int_equal(
                    wf_crowd_request_move(crowd, e[k].agent, random_spot(&rng), NULL, NULL), WF_OK);
            }
        }
    }
    wf_world_destroy(w);
}

/// The first step where the traces differ, or STEPS.
static uint32_t first_difference(const step_trace* a, const step_trace* b) {
    for (uint32_t f = 0; f < STEPS; ++f) {
        if (a->tiles[f] != b->tiles[f] || a->crowd[f] != b->crowd[f]) {
            return f;
        }
    }
    return STEPS;
}

static void check_lockstep(uint32_t commits) {
    step_trace* one = calloc(1, sizeof *one);
    step_trace* other = calloc(1, sizeof *other);
    assert_non_null(one);
    assert_non_null(other);
    trace(1, commits, one);
    bool same = true;
    for (uint32_t workers = 2; workers <= 8; ++workers) {
        trace(workers, commits, other);
        uint32_t f = first_difference(one, other);
        if (f != STEPS) {
            print_message("tile_commits %u: %u workers differ from 1 at step %u (%s)\n", commits,
                          workers, f, one->tiles[f] != other->tiles[f] ? "tiles" : "crowd");
            same = false;
        }
    }
    free(one);
    free(other);
    assert_true(same);
}

static void test_no_commit_limit(void** state) {
    (void)state;
    check_lockstep(0);
}

static void test_one_commit_per_step(void** state) {
    (void)state;
    check_lockstep(1);
}

static void test_two_commits_per_step(void** state) {
    (void)state;
    check_lockstep(2);
}

static void test_three_commits_per_step(void** state) {
    (void)state;
    check_lockstep(3);
}

static void test_five_commits_per_step(void** state) {
    (void)state;
    check_lockstep(5);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_commit_limit),       cmocka_unit_test(test_one_commit_per_step),
        cmocka_unit_test(test_two_commits_per_step),  cmocka_unit_test(test_three_commits_per_step),
        cmocka_unit_test(test_five_commits_per_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
