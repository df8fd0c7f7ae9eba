// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The crowd's debug views: neighbours as live ids of nearby agents, and
// the watched agent's avoidance candidates (the chosen velocity is the
// first lowest-scored one; the count is the preset's pattern size).
// Watching changes no result and allocates nothing per update.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "crowd_test_util.h"
#include "test_hooks.h"

#define DT (1.0f / 30.0f)
#define AGENTS 8u
#define MAX_CANDIDATES 8192u

/// AGENTS agents on a circle, each sent across it (they meet in the middle).
static wf_crowd* circle_scene(const wf_mesh* mesh, counting_allocator* alloc, wf_agent_id* ids) {
    wf_crowd_desc d = crowd_test_desc(mesh, AGENTS);
    d.allocator = counting_allocator_hooks(alloc);
    wf_crowd* c = NULL;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    for (uint32_t i = 0; i < AGENTS; ++i) {
        float a = (float)i * 6.2831853f / (float)AGENTS;
        wf_vec3 start = wf_v3(10.0f + 6.0f * cosf(a), 0, 10.0f + 6.0f * sinf(a));
        wf_vec3 goal = wf_v3(10.0f - 6.0f * cosf(a), 0, 10.0f - 6.0f * sinf(a));
        assert_int_equal(wf_crowd_add_agent(c, start, &p, &ids[i]), WF_OK);
        assert_int_equal(wf_crowd_request_move(c, ids[i], goal, NULL, NULL), WF_OK);
    }
    return c;
}

/// The pattern size of the agent's preset (the crowd uses the built-in ones).
static uint32_t pattern_size(const wf_agent_params* p) {
    wf_avoidance_params a = wf_avoidance_preset((wf_avoidance_quality)p->avoidance_preset);
    if (a.adaptive_divisions > 0u) {
        return 1u + (uint32_t)a.adaptive_depth * a.adaptive_rings * a.adaptive_divisions;
    }
    return (uint32_t)a.grid_size * a.grid_size;
}

static void test_watch_changes_nothing(void** state) {
    (void)state;
    wf_mesh* mesh = test_mesh_grid(2, 2, 10, 1.0f, NULL, NULL, NULL);
    counting_allocator plain_alloc, watched_alloc;
    counting_allocator_init(&plain_alloc);
    counting_allocator_init(&watched_alloc);
    wf_agent_id plain_ids[AGENTS], ids[AGENTS];
    wf_crowd* plain = circle_scene(mesh, &plain_alloc, plain_ids);
    wf_crowd* c = circle_scene(mesh, &watched_alloc, ids);
    assert_int_equal(wf_crowd_set_debug_agent(c, ids[0]), WF_OK);
    static wf_avoidance_candidate candidates[MAX_CANDIDATES];
    wf_avoidance_debug info;
    uint32_t count = 0;
    // Watching, but no update yet.
    assert_int_equal(wf_crowd_get_avoidance_debug(c, &info, candidates, MAX_CANDIDATES, &count),
                     WF_ERR_NOT_FOUND);
    unsigned long allocations = atomic_load(&watched_alloc.allocations);
    uint32_t avoided = 0;
    for (int frame = 0; frame < 240; ++frame) {
        assert_int_equal(wf_crowd_update(plain, DT, NULL), WF_OK);
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        assert_true(crowd_test_hash(plain) == crowd_test_hash(c));
        assert_int_equal(wf_crowd_get_avoidance_debug(c, &info, candidates, MAX_CANDIDATES, &count),
                         WF_OK);
        assert_true(info.agent.bits == ids[0].bits);
        assert_int_equal(count, info.candidate_count);
        if (!info.sampled) {
            assert_int_equal(count, 0);
            continue;
        }
        if (count == 0u) {
            continue; // nothing within reach: the desired velocity as it is
        }
        avoided++;
        wf_agent_state s = crowd_test_state(c, ids[0]);
        assert_int_equal(count, pattern_size(&s.params));
        // The choice is the first candidate with the lowest score.
        uint32_t best = 0;
        for (uint32_t k = 1; k < count; ++k) {
            if (candidates[k].score < candidates[best].score) {
                best = k;
            }
        }
        assert_true(candidates[best].velocity.x == info.chosen_velocity.x &&
                    candidates[best].velocity.z == info.chosen_velocity.z);
        for (uint32_t k = 0; k < count; ++k) {
            float vx = candidates[k].velocity.x, vz = candidates[k].velocity.z;
            assert_true(candidates[k].velocity.y == 0.0f);
            assert_true(vx * vx + vz * vz <= s.params.max_speed * s.params.max_speed * 1.0001f);
        }
    }
    assert_true(avoided > 10u); // the agents met: avoidance had work to do
    assert_int_equal(atomic_load(&watched_alloc.allocations), allocations);
    // A short buffer gets the first candidates and the full count.
    wf_avoidance_candidate few[4];
    if (count > 4u) {
        assert_int_equal(wf_crowd_get_avoidance_debug(c, &info, few, 4, &count), WF_ERR_CAPACITY);
        assert_memory_equal(few, candidates, sizeof few);
    }
    // Stop watching: nothing to report.
    assert_int_equal(wf_crowd_set_debug_agent(c, (wf_agent_id){0}), WF_OK);
    assert_int_equal(wf_crowd_get_avoidance_debug(c, &info, candidates, MAX_CANDIDATES, &count),
                     WF_ERR_NOT_FOUND);
    wf_crowd_destroy(plain);
    wf_crowd_destroy(c);
    assert_int_equal(counting_allocator_live(&watched_alloc), 0);
    wf_mesh_destroy(mesh);
}

static void test_watched_agent_removed(void** state) {
    (void)state;
    wf_mesh* mesh = test_mesh_grid(2, 2, 10, 1.0f, NULL, NULL, NULL);
    counting_allocator alloc;
    counting_allocator_init(&alloc);
    wf_agent_id ids[AGENTS];
    wf_crowd* c = circle_scene(mesh, &alloc, ids);
    assert_int_equal(wf_crowd_set_debug_agent(c, ids[3]), WF_OK);
    assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
    wf_avoidance_debug info;
    uint32_t count = 0;
    // Counting only (no buffer): WF_OK when nothing was scored, else capacity.
    wf_status counted = wf_crowd_get_avoidance_debug(c, &info, NULL, 0, &count);
    assert_true(counted == (count == 0u ? WF_OK : WF_ERR_CAPACITY));
    assert_int_equal(wf_crowd_remove_agent(c, ids[3]), WF_OK);
    memset(&info, 0x5a, sizeof info);
    wf_avoidance_debug kept = info;
    assert_int_equal(wf_crowd_get_avoidance_debug(c, &info, NULL, 0, &count), WF_ERR_STALE_REF);
    assert_memory_equal(&info, &kept, sizeof info);
    assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
    assert_int_equal(wf_crowd_get_avoidance_debug(c, &info, NULL, 0, &count), WF_ERR_STALE_REF);
    // A stale id cannot be watched; the watch stays as it was.
    assert_int_equal(wf_crowd_set_debug_agent(c, ids[3]), WF_ERR_STALE_REF);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

static void test_neighbours(void** state) {
    (void)state;
    wf_mesh* mesh = test_mesh_grid(2, 2, 10, 1.0f, NULL, NULL, NULL);
    counting_allocator alloc;
    counting_allocator_init(&alloc);
    wf_agent_id ids[AGENTS];
    wf_crowd* c = circle_scene(mesh, &alloc, ids);
    uint32_t seen = 0;
    for (int frame = 0; frame < 120; ++frame) {
        // Positions before the update: the neighbours are found from them.
        wf_vec3 before[AGENTS];
        for (uint32_t i = 0; i < AGENTS; ++i) {
            before[i] = crowd_test_state(c, ids[i]).position;
        }
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        for (uint32_t i = 0; i < AGENTS; ++i) {
            wf_agent_state s = crowd_test_state(c, ids[i]);
            wf_agent_id out[WF_CROWD_MAX_NEIGHBOURS];
            uint32_t count = 99;
            assert_int_equal(
                wf_crowd_get_agent_neighbours(c, ids[i], out, WF_CROWD_MAX_NEIGHBOURS, &count),
                WF_OK);
            assert_int_equal(count, s.neighbour_count);
            seen += count;
            for (uint32_t k = 0; k < count; ++k) {
                assert_true(out[k].bits != ids[i].bits);
                uint32_t j = 0;
                while (j < AGENTS && ids[j].bits != out[k].bits) {
                    ++j;
                }
                assert_true(j < AGENTS); // a live agent of this crowd
                for (uint32_t m = k + 1; m < count; ++m) {
                    assert_true(out[m].bits != out[k].bits);
                }
                float reach = s.params.collision_query_range + 2.0f * s.params.radius;
                assert_true(crowd_test_dist2d(before[i], before[j]) <= reach);
            }
            if (count > 1u) {
                wf_agent_id one[1];
                uint32_t full = 0;
                assert_int_equal(wf_crowd_get_agent_neighbours(c, ids[i], one, 1, &full),
                                 WF_ERR_CAPACITY);
                assert_int_equal(full, count);
                assert_true(one[0].bits == out[0].bits);
            }
        }
    }
    assert_true(seen > 0u);
    wf_agent_id out[4];
    uint32_t count = 0;
    assert_int_equal(wf_crowd_remove_agent(c, ids[0]), WF_OK);
    assert_int_equal(wf_crowd_get_agent_neighbours(c, ids[0], out, 4, &count), WF_ERR_STALE_REF);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_watch_changes_nothing),
        cmocka_unit_test(test_watched_agent_removed),
        cmocka_unit_test(test_neighbours),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
