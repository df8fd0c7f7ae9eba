// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Off-mesh links in the crowd: agents reaching a link's start traverse it
// (mode, events, position between the ends), resume on the far side and
// arrive; a link in use is not entered by a second agent until it is free.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "crowd_test_util.h"

#define N 0xffffu
#define DT (1.0f / 30.0f)

/// Two islands, x in [0, 6] at y = 0 and x in [10, 16] at y = 1, joined
/// only by a one-way link from (5.5, 0, 3) to (10.5, 1, 3).
static wf_mesh* two_islands(wf_poly_ref* out_link) {
    wf_mesh_desc md = {.tile_width = 16.0f, .tile_depth = 8.0f, .max_tiles = 4};
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    const float verts[] = {
        0,  0, 0, 0,  0, 6, 6,  0, 6, 6,  0, 0, //
        10, 1, 0, 10, 1, 6, 16, 1, 6, 16, 1, 0,
    };
    const uint16_t polys[] = {0, 1, 2, 3, N, N, 4, 5, 6, 7, N, N};
    wf_offmesh_link_desc link = {.start = {5.5f, 0.0f, 3.0f},
                                 .end = {10.5f, 1.0f, 3.0f},
                                 .radius = 0.5f,
                                 .flags = 1,
                                 .user_id = 42};
    wf_tile_build_desc d = {
        .bmin = {0.0f, -1.0f, 0.0f},
        .bmax = {16.0f, 2.0f, 8.0f},
        .verts = verts,
        .vert_count = 8,
        .polys = polys,
        .poly_count = 2,
        .offmesh_links = &link,
        .offmesh_link_count = 1,
        .walkable_height = 2.0f,
        .walkable_radius = 0.3f,
        .walkable_climb = 0.25f,
    };
    void* data = NULL;
    size_t size = 0;
    assert_int_equal(wf_tile_build(&d, &data, &size), WF_OK);
    wf_tile_ref tile;
    assert_int_equal(
        wf_mesh_add_tile(mesh, data, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &tile), WF_OK);
    *out_link = wf_mesh_poly_ref(mesh, tile, 2);
    assert_true(wf_mesh_is_offmesh_link(mesh, *out_link));
    return mesh;
}

static int done_count;

static bool on_done(wf_agent_id agent, void* user) {
    (void)agent;
    (void)user;
    done_count++;
    return false;
}

static void test_agents_take_the_link_one_at_a_time(void** state) {
    (void)state;
    wf_poly_ref link;
    wf_mesh* mesh = two_islands(&link);
    wf_crowd_desc d = crowd_test_desc(mesh, 4);
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    p.radius = 0.3f;
    wf_agent_id ids[2];
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(1.0f, 0, 2.0f), &p, &ids[0]), WF_OK);
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(1.0f, 0, 4.0f), &p, &ids[1]), WF_OK);
    wf_move_callbacks cb = {.done = on_done};
    wf_vec3 target = wf_v3(15.0f, 1.0f, 3.0f);
    for (int k = 0; k < 2; ++k) {
        assert_int_equal(wf_crowd_request_move(c, ids[k], target, &cb, NULL), WF_OK);
    }
    done_count = 0;
    int starts[2] = {-1, -1}, ends[2] = {-1, -1};
    int both_on_link = 0, traversal_frames = 0;
    for (int frame = 0; frame < 30 * 30 && done_count < 2; ++frame) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        uint32_t n;
        const wf_crowd_event* e = wf_crowd_events(c, &n);
        for (uint32_t k = 0; k < n; ++k) {
            int who = e[k].agent.bits == ids[0].bits ? 0 : 1;
            if (e[k].kind == WF_CROWD_EVENT_OFFMESH_START) {
                assert_int_equal(starts[who], -1); // once each
                assert_true(e[k].ref.bits == link.bits);
                starts[who] = frame;
            } else if (e[k].kind == WF_CROWD_EVENT_OFFMESH_END) {
                assert_true(e[k].ref.bits == link.bits);
                ends[who] = frame;
            }
        }
        int on_link = 0;
        for (int k = 0; k < 2; ++k) {
            wf_agent_state s = crowd_test_state(c, ids[k]);
            if (s.mode == WF_AGENT_OFFMESH) {
                on_link++;
                traversal_frames++;
                // Between the ends of the link.
                assert_true(s.position.x >= 5.0f - 1e-3f && s.position.x <= 10.5f + 1e-3f);
                assert_true(s.position.y >= -1e-3f && s.position.y <= 1.0f + 1e-3f);
            }
        }
        both_on_link += on_link == 2;
    }
    assert_int_equal(done_count, 2);
    assert_int_equal(both_on_link, 0); // never two on the link at once
    for (int k = 0; k < 2; ++k) {
        assert_true(starts[k] >= 0 && ends[k] > starts[k]);
        wf_agent_state s = crowd_test_state(c, ids[k]);
        assert_int_equal(s.mode, WF_AGENT_WALKING);
        assert_int_equal(s.target_state, WF_TARGET_ARRIVED);
        assert_true(crowd_test_dist2d(s.position, target) <= p.radius * 4.0f); // both want it
        assert_float_equal(s.position.y, 1.0f, 1e-3f);                         // on the far island
    }
    // The second waited for the first to get off: no overlap in time.
    int first = starts[0] < starts[1] ? 0 : 1;
    assert_true(starts[1 - first] >= ends[first]);
    // About 5 m at 2 m/s on the link, for each.
    assert_true(traversal_frames > 2 * 60 && traversal_frames < 2 * 100);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_agents_take_the_link_one_at_a_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
