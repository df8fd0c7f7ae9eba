// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The scenes of `wayfarer scenarios` (tools/crowd_scenes.c) and its runner
// (tools/crowd_runner.c), structurally: every scene has its agent count,
// starts and targets on the navmesh, a complete path for every agent, the
// door walls block everywhere but at the doors; the same seed gives the
// same scene; a run counts every agent once and gives the same figures
// for any worker count. Nothing here depends on how well the crowd flows.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_scenarios.h"
#include "tools/crowd_scenes.h"

static scene_settings settings_for_test(void) {
    scene_settings s;
    memset(&s, 0, sizeof s);
    s.avoidance = WF_AVOIDANCE_HIGH;
    s.seed = 1;
    s.testdata = WF_TESTDATA_DIR;
    return s;
}

static uint32_t expected_agents(const char* name) {
    return strcmp(name, "circle32") == 0      ? 32u
           : strcmp(name, "circle128") == 0   ? 128u
           : strcmp(name, "crossing") == 0    ? 100u
           : strcmp(name, "nav_test500") == 0 ? 500u
           : strcmp(name, "demo") == 0        ? 1000u
                                              : 40u;
}

static float dist2d(wf_vec3 a, wf_vec3 b) {
    return sqrtf((a.x - b.x) * (a.x - b.x) + (a.z - b.z) * (a.z - b.z));
}

/// Every scene: its agent count, starts and targets on the navmesh, and a
/// complete path for every agent no shorter than the straight line.
static void test_every_scene_is_whole(void** state) {
    (void)state;
    scene_settings st = settings_for_test();
    for (uint32_t k = 0; k < scene_name_count; ++k) {
        scene s;
        int rc = scene_build(scene_names[k], &st, &s);
        if (rc == SCENE_SKIPPED) {
            printf("skipped %s: %s\n", scene_names[k], s.skip_reason);
            continue;
        }
        assert_int_equal(rc, 0);
        assert_string_equal(s.name, scene_names[k]);
        assert_int_equal(s.agent_count, expected_agents(s.name));
        assert_int_equal(s.starts_on_mesh, s.agent_count);
        assert_int_equal(s.targets_on_mesh, s.agent_count);
        assert_true(s.seconds > 0.0f);
        for (uint32_t i = 0; i < s.agent_count; ++i) {
            float length = scene_path_length(&s, s.starts[i], s.targets[i]);
            assert_true(length >= 0.0f);
            assert_true(length >= dist2d(s.starts[i], s.targets[i]) - 0.01f);
            if (s.door_width > 0.0f) {
                // Every door scene sends its agents across the wall.
                assert_true(s.starts[i].z * s.targets[i].z < 0.0f);
            }
        }
        scene_free(&s);
    }
}

/// The wall of a door scene blocks except at its doorway: straight across
/// beside the door is a detour, straight through the door is not; the
/// two-door scene has both doors open.
static void test_doors_are_the_only_way(void** state) {
    (void)state;
    scene_settings st = settings_for_test();
    const char* names[] = {"door_1way_1.5", "door_1way_2", "door_2way_3", "two_doors"};
    for (uint32_t k = 0; k < 4u; ++k) {
        scene s;
        assert_int_equal(scene_build(names[k], &st, &s), 0);
        assert_true(s.door_width > 0.0f);
        float through =
            scene_path_length(&s, (wf_vec3){0.0f, 0.0f, -3.0f}, (wf_vec3){0.0f, 0.0f, 3.0f});
        float beside =
            scene_path_length(&s, (wf_vec3){4.0f, 0.0f, -3.0f}, (wf_vec3){4.0f, 0.0f, 3.0f});
        if (strcmp(names[k], "two_doors") == 0) {
            // Doors at x -8 and 8: the middle of the wall is solid.
            float left =
                scene_path_length(&s, (wf_vec3){-8.0f, 0.0f, -3.0f}, (wf_vec3){-8.0f, 0.0f, 3.0f});
            float right =
                scene_path_length(&s, (wf_vec3){8.0f, 0.0f, -3.0f}, (wf_vec3){8.0f, 0.0f, 3.0f});
            assert_true(left > 0.0f && left < 6.1f);
            assert_true(right > 0.0f && right < 6.1f);
            assert_true(through > 12.0f);
        } else {
            assert_true(through > 0.0f && through < 6.1f);
            // Around by the door, 4 m away: a clear detour.
            assert_true(beside > 7.0f);
        }
        scene_free(&s);
    }
}

static void test_same_seed_same_scene(void** state) {
    (void)state;
    scene_settings st = settings_for_test();
    st.agents = 50;
    scene a, b, c;
    assert_int_equal(scene_build("demo", &st, &a), 0);
    assert_int_equal(scene_build("demo", &st, &b), 0);
    st.seed = 2;
    assert_int_equal(scene_build("demo", &st, &c), 0);
    assert_int_equal(a.agent_count, 50u);
    assert_memory_equal(a.starts, b.starts, sizeof(wf_vec3) * a.agent_count);
    assert_memory_equal(a.targets, b.targets, sizeof(wf_vec3) * a.agent_count);
    assert_memory_not_equal(a.starts, c.starts, sizeof(wf_vec3) * a.agent_count);
    assert_true(a.retarget);
    scene_free(&a);
    scene_free(&b);
    scene_free(&c);
}

static void test_unknown_and_skipped(void** state) {
    (void)state;
    scene_settings st = settings_for_test();
    scene s;
    assert_int_equal(scene_build("circle33", &st, &s), SCENE_UNKNOWN);
    st.testdata = "/no/such/folder";
    assert_int_equal(scene_build("nav_test500", &st, &s), SCENE_SKIPPED);
    assert_non_null(strstr(s.skip_reason, "/no/such/folder"));
}

/// `--export`: the triangles written build the scene's own navmesh again,
/// and the points file holds its starts, then its targets, to the bit; a
/// folder that cannot be written fails, an unknown scene is named so.
static void test_export_gives_the_same_work(void** state) {
    (void)state;
    scene_settings st = settings_for_test();
    st.jitter = 0.15f;
    st.seed = 7;
    // The build folder, as the other tests' files: each build runs its own.
    const char* dir = ".";
    const char* base = "crowd_scenes_export_test";
    assert_int_equal(scene_export("door_2way_2", base, &st, dir, NULL, 0), 0);
    scene s;
    assert_int_equal(scene_build("door_2way_2", &st, &s), 0);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.points", dir, base);
    FILE* f = fopen(path, "r");
    assert_non_null(f);
    for (uint32_t k = 0; k < 2u * s.agent_count; ++k) {
        wf_vec3 want = k < s.agent_count ? s.starts[k] : s.targets[k - s.agent_count];
        float x, y, z;
        assert_int_equal(fscanf(f, "%f %f %f", &x, &y, &z), 3);
        assert_true(x == want.x && y == want.y && z == want.z);
    }
    float extra;
    assert_int_equal(fscanf(f, "%f", &extra), EOF);
    fclose(f);
    remove(path);
    snprintf(path, sizeof path, "%s/%s.obj", dir, base);
    size_t size = 0;
    char* text = test_read_all(path, &size);
    assert_non_null(text);
    wf_geom_data* geom = NULL;
    assert_int_equal(wf_geom_load_obj(text, size, &(wf_geom_load_desc){0}, &geom), WF_OK);
    free(text);
    remove(path);
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = wf_tilecache_params_recast_demo();
    d.logger.quiet = true;
    wf_tilecache* tc = NULL;
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    assert_int_equal(wf_tilecache_build_geom(tc, wf_geom_data_view(geom), NULL, 0), WF_OK);
    wf_geom_data_destroy(geom);
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    assert_true(wf_succeeded(wf_tilecache_build_navmesh(tc, mesh)));
    wf_mesh_stats again = wf_mesh_get_stats(mesh), own = wf_mesh_get_stats(s.mesh);
    assert_int_equal(again.poly_count, own.poly_count);
    assert_int_equal(again.tile_count, own.tile_count);
    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(tc);
    scene_free(&s);
    assert_int_equal(scene_export("door_2way_2", "x", &st, "/no/such/folder", NULL, 0),
                     SCENE_FAILED);
    assert_int_equal(scene_export("circle33", "x", &st, dir, NULL, 0), SCENE_UNKNOWN);
    char long_dir[1100];
    memset(long_dir, 'd', sizeof long_dir - 1u);
    long_dir[sizeof long_dir - 1u] = '\0';
    assert_int_equal(scene_export("door_2way_2", "x", &st, long_dir, NULL, 0), SCENE_FAILED);
    char why[160] = "";
    st.testdata = "/no/such/folder";
    assert_int_equal(scene_export("nav_test500", "x", &st, dir, why, sizeof why), SCENE_SKIPPED);
    assert_non_null(strstr(why, "/no/such/folder"));
}

/// Metrics that do not depend on the crowd's skill: counts add up, times
/// and ratios lie in range; and the figures are the same on 1 and 3
/// workers (everything but the wall time).
static void test_run_counts_and_workers(void** state) {
    (void)state;
    scene_settings st = settings_for_test();
    st.seconds = 4.0f;
    scene_metrics m[2];
    for (uint32_t k = 0; k < 2u; ++k) {
        st.workers = k == 0 ? 1u : 3u;
        scene s;
        assert_int_equal(scene_build("door_2way_2", &st, &s), 0);
        assert_int_equal(scene_run(&s, &st, &m[k]), 0);
        scene_free(&s);
        assert_int_equal(m[k].agents, 40u);
        assert_int_equal(m[k].frames, 120u);
        assert_int_equal(m[k].reachable, 40u);
        assert_int_equal(m[k].arrived + m[k].never_arrived, 40u);
        assert_true(m[k].arrived_10 <= m[k].arrived_30 && m[k].arrived_30 <= m[k].arrived_60 &&
                    m[k].arrived_60 <= 1.0);
        assert_true(m[k].within_at_end <= 40u);
        assert_true(m[k].arrival_events_far <= m[k].arrival_events);
        assert_true(m[k].standing_agent_seconds >= 0.0 &&
                    m[k].standing_agent_seconds <= 40.0 * 4.0 + 1e-6);
        assert_true(m[k].worst_overlap_after_2s <= m[k].worst_overlap);
        assert_true(m[k].us_per_agent_frame > 0.0);
        m[k].us_per_agent_frame = 0.0;
    }
    assert_memory_equal(&m[0], &m[1], sizeof m[0]);
}

/// Routes around crowds (wf_crowd_desc.crowding_cost): in two_doors all 40
/// agents start in front of one door; without crowding costs every one
/// queues there, with them some that search again once the door is jammed
/// take the free door 16 m along the wall. (How many more arrive is a mean
/// over runs, docs/benchmarks.md: one run of a jam is chaos.)
static void test_crowding_costs_open_the_second_door(void** state) {
    (void)state;
    scene_metrics m[2];
    const float costs[2] = {0.0f, 5.0f};
    for (uint32_t k = 0; k < 2u; ++k) {
        scene_settings st = settings_for_test();
        st.crowding = costs[k];
        st.seconds = 45.0f;
        scene s;
        assert_int_equal(scene_build("two_doors", &st, &s), 0);
        assert_true(s.second_door_width > 0.0f);
        assert_int_equal(scene_run(&s, &st, &m[k]), 0);
        scene_free(&s);
        printf("two_doors, crowding cost %.0f: %u through the free door, %u arrived\n",
               (double)costs[k], m[k].second_door_agents, m[k].arrived);
    }
    assert_int_equal(m[0].second_door_agents, 0u);
    assert_true(m[1].second_door_agents >= 1u);
}

/// The demo's goal figure (issue 14: agents whose target is reachable in
/// the time left), target by target: a target counts when the agent could
/// walk its shortest path at full speed in the time left when it got it;
/// a short run leaves most of the level's random targets out, a long one
/// takes more in, and each counted target is reached, given up on a
/// BLOCKED event, or still ahead at the end, never two of these.
static void test_demo_counts_targets_reachable_in_time(void** state) {
    (void)state;
    scene_metrics m[2];
    const float seconds[2] = {6.0f, 12.0f};
    for (uint32_t k = 0; k < 2u; ++k) {
        scene_settings st = settings_for_test();
        st.agents = 60;
        st.seconds = seconds[k];
        scene s;
        assert_int_equal(scene_build("demo", &st, &s), 0);
        assert_int_equal(scene_run(&s, &st, &m[k]), 0);
        uint32_t in_reach = 0;
        for (uint32_t i = 0; i < s.agent_count; ++i) {
            float length = scene_path_length(&s, s.starts[i], s.targets[i]);
            in_reach += length >= 0.0f && length <= 3.5f * (float)m[k].frames * SCENE_DT;
        }
        scene_free(&s);
        printf("demo, %.0f s: %u of %u targets in time reached, %u given up; agents %u of %u\n",
               (double)seconds[k], m[k].in_time_reached, m[k].in_time_targets, m[k].in_time_blocked,
               m[k].in_time_agents_arrived, m[k].in_time_agents);
        // Every first target in reach counts, and later ones may add more.
        assert_int_equal(m[k].first_feasible, in_reach);
        assert_true(m[k].in_time_targets >= in_reach);
        assert_true(m[k].in_time_agents >= in_reach && m[k].in_time_agents <= 60u);
        assert_true(m[k].in_time_agents < 60u); // 21 or 42 m at 3.5 m/s: not across the level
        assert_true(m[k].in_time_reached + m[k].in_time_blocked <= m[k].in_time_targets);
        assert_true(m[k].in_time_agents_arrived <= m[k].in_time_agents);
        assert_true(m[k].in_time_agents_arrived <= m[k].in_time_reached);
        assert_true(m[k].in_time_reached <= m[k].arrivals_total);
    }
    assert_true(m[1].in_time_agents > m[0].in_time_agents);
    assert_true(m[1].in_time_reached > m[0].in_time_reached);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_scene_is_whole),
        cmocka_unit_test(test_doors_are_the_only_way),
        cmocka_unit_test(test_same_seed_same_scene),
        cmocka_unit_test(test_unknown_and_skipped),
        cmocka_unit_test(test_export_gives_the_same_work),
        cmocka_unit_test(test_run_counts_and_workers),
        cmocka_unit_test(test_crowding_costs_open_the_second_door),
        cmocka_unit_test(test_demo_counts_targets_reachable_in_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
