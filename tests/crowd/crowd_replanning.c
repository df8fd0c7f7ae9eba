// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Paths that change under agents: a door closing mid-path (blocked) and
// opening (a new request gets through), a tile removed ahead (replan
// around it, found early through the changed-tile list), agents stuck
// behind others (replan, then blocked, also while the tile under them keeps
// being rebuilt), no arrival where a rebuilt tile cut the corridor back, and
// the path queue's order, fairness and capacity.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "crowd_test_util.h"

#define DT (1.0f / 30.0f)
#define DOOR_FLAG 0x8u

typedef struct counters {
    int results, partial_results, blocked, done;
    int order[64];
    int order_count;
} counters;

typedef struct tagged {
    counters* counters;
    int index;
} tagged;

static bool on_result(wf_agent_id agent, const wf_path_info* info, void* user) {
    (void)agent;
    tagged* t = user;
    t->counters->results++;
    t->counters->partial_results += info->partial;
    if (t->counters->order_count < 64) {
        t->counters->order[t->counters->order_count++] = t->index;
    }
    return true;
}

static bool on_blocked(wf_agent_id agent, void* user) {
    (void)agent;
    ((tagged*)user)->counters->blocked++;
    return true;
}

static bool on_done(wf_agent_id agent, void* user) {
    (void)agent;
    ((tagged*)user)->counters->done++;
    return false;
}

static const wf_move_callbacks callbacks = {on_result, on_blocked, on_done};

static bool has_event(const wf_crowd* c, wf_agent_id id, wf_crowd_event_kind kind) {
    uint32_t n;
    const wf_crowd_event* e = wf_crowd_events(c, &n);
    for (uint32_t k = 0; k < n; ++k) {
        if (e[k].agent.bits == id.bits && e[k].kind == kind) {
            return true;
        }
    }
    return false;
}

/// A wall along x = 10 with a door two cells wide at z = 10 and 11 (its
/// polygons in door), a crowd whose filter excludes DOOR_FLAG, and one
/// agent on its way from (2.5, 11) to target, walked to x = 5.5.
typedef struct door_scene {
    wf_mesh* mesh;
    wf_poly_ref door[2];
    wf_query_filter filter;
    wf_crowd* c;
    wf_agent_params p;
    wf_agent_id a;
    wf_vec3 target;
} door_scene;

static void door_scene_start(door_scene* ds, counters* n, tagged* t) {
    uint8_t blocked[20 * 20] = {0};
    for (uint32_t z = 0; z < 20; ++z) {
        blocked[z * 20 + 10] = z != 10 && z != 11;
    }
    ds->mesh = test_mesh_grid(2, 2, 10, 1.0f, blocked, NULL, NULL);
    ds->door[0] = test_grid_poly(ds->mesh, 10, 10, 10);
    ds->door[1] = test_grid_poly(ds->mesh, 10, 10, 11);
    ds->filter = wf_query_filter_defaults();
    ds->filter.exclude_flags = DOOR_FLAG;
    wf_crowd_desc d = crowd_test_desc(ds->mesh, 2);
    d.filters = &ds->filter;
    d.filter_count = 1;
    assert_int_equal(wf_crowd_create(&d, &ds->c), WF_OK);
    ds->p = crowd_test_params();
    assert_int_equal(wf_crowd_add_agent(ds->c, wf_v3(2.5f, 0, 11.0f), &ds->p, &ds->a), WF_OK);
    *n = (counters){0};
    *t = (tagged){n, 0};
    ds->target = wf_v3(17.5f, 0, 11.0f);
    assert_int_equal(wf_crowd_request_move(ds->c, ds->a, ds->target, &callbacks, t), WF_OK);
    for (int frame = 0; crowd_test_state(ds->c, ds->a).position.x < 5.5f; ++frame) {
        assert_true(frame < 300);
        assert_int_equal(wf_crowd_update(ds->c, DT, NULL), WF_OK);
    }
}

static void door_scene_set(door_scene* ds, bool open) {
    for (int k = 0; k < 2; ++k) {
        uint16_t flags = open ? 1u : (uint16_t)(1u | DOOR_FLAG);
        assert_int_equal(wf_mesh_set_poly_flags(ds->mesh, ds->door[k], flags), WF_OK);
    }
}

static void test_door_closes_mid_path_then_opens(void** state) {
    (void)state;
    door_scene ds;
    counters n;
    tagged t;
    door_scene_start(&ds, &n, &t);
    wf_crowd* c = ds.c;
    wf_mesh* mesh = ds.mesh;
    wf_agent_id a = ds.a;
    wf_agent_params p = ds.p;
    wf_vec3 target = ds.target;
    assert_int_equal(n.results, 1);
    assert_int_equal(n.partial_results, 0);
    // The door closes: its polygon stays, its flags exclude it.
    door_scene_set(&ds, false);
    bool replanned = false;
    for (int k = 0; k < 300; ++k) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        replanned |= has_event(c, a, WF_CROWD_EVENT_REPLANNED);
    }
    wf_agent_state s = crowd_test_state(c, a);
    assert_true(replanned);
    assert_int_equal(n.blocked, 1);
    assert_int_equal(s.target_state, WF_TARGET_BLOCKED);
    assert_true(s.position.x < 10.0f); // waits on its side of the door
    assert_true(s.position.x > 8.0f);  // having moved on as far as was valid
    assert_int_equal(n.done, 0);

    // Open again: a new request goes through.
    door_scene_set(&ds, true);
    assert_int_equal(wf_crowd_request_move(c, a, target, &callbacks, &t), WF_OK);
    for (int k = 0; k < 450; ++k) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
    }
    s = crowd_test_state(c, a);
    assert_int_equal(n.results, 2);
    assert_int_equal(n.partial_results, 0);
    assert_int_equal(n.done, 1);
    assert_int_equal(s.target_state, WF_TARGET_ARRIVED);
    assert_true(crowd_test_dist2d(s.position, target) <= p.radius);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

static void test_blocked_agent_goes_on_when_the_door_opens(void** state) {
    (void)state;
    // As above, but nobody asks again: a blocked agent is retried (its path
    // searched again every stuck time), so it goes through once the door
    // opens and arrives, with no new request and no second blocked call.
    door_scene ds;
    counters n;
    tagged t;
    door_scene_start(&ds, &n, &t);
    wf_crowd* c = ds.c;
    wf_mesh* mesh = ds.mesh;
    wf_agent_id a = ds.a;
    wf_agent_params p = ds.p;
    wf_vec3 target = ds.target;
    door_scene_set(&ds, false);
    for (int k = 0; k < 30 * 8; ++k) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
    }
    wf_agent_state s = crowd_test_state(c, a);
    assert_int_equal(n.blocked, 1);
    assert_int_equal(s.target_state, WF_TARGET_BLOCKED);
    assert_true(s.position.x < 10.0f);
    int done_before = n.done;
    // The door opens; nothing else happens on the game's side.
    door_scene_set(&ds, true);
    for (int k = 0; k < 30 * 12; ++k) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
    }
    s = crowd_test_state(c, a);
    assert_int_equal(s.target_state, WF_TARGET_ARRIVED);
    assert_true(crowd_test_dist2d(s.position, target) <= p.radius);
    assert_int_equal(n.done, done_before + 1);
    assert_int_equal(n.blocked, 1);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

static void test_removed_tile_ahead_replans_around(void** state) {
    (void)state;
    wf_mesh* mesh = test_mesh_grid(3, 3, 10, 1.0f, NULL, NULL, NULL);
    wf_crowd_desc d = crowd_test_desc(mesh, 2);
    d.peek_ahead = 2; // only the changed-tile list can see that far ahead
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    p.update_flags &= ~(uint32_t)WF_AGENT_OPTIMIZE_VISIBILITY; // keep the corridor long
    wf_agent_id a;
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(2.5f, 0, 15.5f), &p, &a), WF_OK);
    counters n = {0};
    tagged t = {&n, 0};
    wf_vec3 target = wf_v3(27.5f, 0, 15.5f);
    assert_int_equal(wf_crowd_request_move(c, a, target, &callbacks, &t), WF_OK);
    for (int k = 0; k < 5; ++k) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
    }
    wf_tile_ref middle;
    assert_int_equal(wf_mesh_find_tile(mesh, 1, 1, 0, &middle), WF_OK);
    // The corridor crosses the middle tile.
    wf_poly_ref corridor[256];
    uint32_t count = 0;
    assert_int_equal(wf_crowd_get_corridor(c, a, corridor, 256, &count), WF_OK);
    wf_agent_state s = crowd_test_state(c, a);
    assert_int_equal(count, s.corridor_count);
    bool crosses = false;
    for (uint32_t k = 0; k < count; ++k) {
        crosses |= wf_poly_ref_tile_ref(corridor[k]).bits == middle.bits;
    }
    assert_true(crosses);
    void* data = NULL;
    size_t size = 0;
    assert_int_equal(wf_mesh_remove_tile(mesh, middle, &data, &size), WF_OK);
    assert_int_equal(wf_crowd_tiles_changed(c, &middle, 1), WF_OK);
    assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
    assert_true(has_event(c, a, WF_CROWD_EVENT_REPLANNED)); // at once, 7 m before the gap
    for (int k = 0; k < 900; ++k) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        s = crowd_test_state(c, a);
        assert_true(s.position.x < 10.0f || s.position.x > 20.0f || s.position.z < 10.0f ||
                    s.position.z > 20.0f); // never over the hole
    }
    assert_int_equal(n.blocked, 0); // repaired: the way around is as good
    assert_int_equal(s.target_state, WF_TARGET_ARRIVED);
    assert_true(crowd_test_dist2d(s.position, target) <= p.radius);
    wf_crowd_destroy(c);
    wf_tile_free(data, size, NULL);
    wf_mesh_destroy(mesh);
}

static void test_pinned_agent_replans_then_reports_blocked(void** state) {
    (void)state;
    // A dead-end corridor 1 m wide along z = 10, from x = 5 to 18.
    uint8_t blocked[20 * 20];
    for (uint32_t z = 0; z < 20; ++z) {
        for (uint32_t x = 0; x < 20; ++x) {
            blocked[z * 20 + x] = x >= 5 && !(z == 10 && x < 18);
        }
    }
    wf_mesh* mesh = test_mesh_grid(2, 2, 10, 1.0f, blocked, NULL, NULL);
    wf_crowd_desc d = crowd_test_desc(mesh, 4);
    d.stuck_time = 1.0f;
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    // The navmesh is where centres may go (a built one is eroded by the
    // radius): 1 m across, less than two radii, so they cannot pass. Three
    // sitters in a row fill the dead end: pushed, they only close up.
    p.radius = 0.6f;
    wf_agent_id mover, sitter;
    wf_agent_params heavy = p;
    heavy.priority = 200; // does not yield
    for (int k = 2; k >= 0; --k) {
        float x = 15.0f + 1.2f * (float)k;
        assert_int_equal(wf_crowd_add_agent(c, wf_v3(x, 0, 10.5f), &heavy, &sitter), WF_OK);
    }
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(2.5f, 0, 10.5f), &p, &mover), WF_OK);
    counters n = {0};
    tagged t = {&n, 0};
    assert_int_equal(wf_crowd_request_move(c, mover, wf_v3(17.5f, 0, 10.5f), &callbacks, &t),
                     WF_OK);
    bool replanned_after_start = false, blocked_event = false;
    for (int k = 0; k < 30 * 40 && n.blocked == 0; ++k) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        replanned_after_start |= k > 5 && has_event(c, mover, WF_CROWD_EVENT_REPLANNED);
        blocked_event |= has_event(c, mover, WF_CROWD_EVENT_BLOCKED);
    }
    assert_true(replanned_after_start); // the first stuck window: a replan
    assert_int_equal(n.blocked, 1);     // the second: blocked
    assert_true(blocked_event);
    assert_int_equal(n.done, 0);
    wf_agent_state s = crowd_test_state(c, mover);
    assert_true(crowd_test_dist2d(s.position, crowd_test_state(c, sitter).position) < 1.5f);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

/// Rebuilds tile (tx, tz) of a 2 x 2 test grid of 10 cells per tile: the
/// same polygons under new refs, as a tile cache commit does.
static void rebuild_tile(wf_crowd* c, wf_mesh* mesh, uint32_t tx, uint32_t tz,
                         const uint8_t* blocked) {
    wf_tile_ref old;
    assert_int_equal(wf_mesh_find_tile(mesh, (int32_t)tx, (int32_t)tz, 0, &old), WF_OK);
    assert_int_equal(wf_mesh_remove_tile(mesh, old, NULL, NULL), WF_OK);
    size_t size = 0;
    void* blob = test_grid_tile(tx, tz, 2, 10, 1.0f, blocked, NULL, NULL, &size);
    assert_non_null(blob);
    wf_tile_ref added;
    assert_int_equal(
        wf_mesh_add_tile(mesh, blob, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &added),
        WF_OK);
    assert_int_equal(wf_crowd_tiles_changed(c, &old, 1), WF_OK);
}

/// Found by the world soak (tests/runtime/soak.c): when the tile under an
/// agent was rebuilt in the same frame as its target's, the corridor was
/// cut back to the agent, the search could not begin (its target's polygon
/// was stale) and the agent "arrived" where it stood, however far away.
static void test_no_arrival_when_the_tiles_of_agent_and_target_rebuild(void** state) {
    (void)state;
    wf_mesh* mesh = test_mesh_grid(2, 2, 10, 1.0f, NULL, NULL, NULL);
    wf_crowd_desc d = crowd_test_desc(mesh, 1);
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    wf_agent_id a;
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(11.5f, 0, 11.5f), &p, &a), WF_OK);
    counters n = {0};
    tagged t = {&n, 0};
    wf_vec3 target = wf_v3(18.5f, 0, 18.5f); // same tile
    assert_int_equal(wf_crowd_request_move(c, a, target, &callbacks, &t), WF_OK);
    for (int k = 0; k < 10; ++k) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
    }
    rebuild_tile(c, mesh, 1, 1, NULL);
    bool arrived = false;
    for (int k = 0; k < 300 && !arrived; ++k) {
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        arrived = has_event(c, a, WF_CROWD_EVENT_ARRIVED);
    }
    assert_true(arrived);
    assert_true(crowd_test_dist2d(crowd_test_state(c, a).position, target) <= 2.0f * p.radius);
    assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK); // done runs in the next update
    assert_int_equal(n.done, 1);
    assert_int_equal(n.blocked, 0);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

/// Found by the world soak (tests/runtime/soak.c): agents that stood still
/// while tiles near them kept being rebuilt never reported blocked, since
/// every replan (and every new first corner) restarted the stuck window.
static void test_pinned_agent_blocked_while_its_tile_keeps_changing(void** state) {
    (void)state;
    // The dead end of test_pinned_agent_replans_then_reports_blocked; the
    // tile under every agent and the target is built again (new refs)
    // every 0.6 s, less than the stuck time, and the mover's corridor is
    // replanned each time.
    uint8_t blocked[20 * 20];
    for (uint32_t z = 0; z < 20; ++z) {
        for (uint32_t x = 0; x < 20; ++x) {
            blocked[z * 20 + x] = x >= 5 && !(z == 10 && x < 18);
        }
    }
    wf_mesh* mesh = test_mesh_grid(2, 2, 10, 1.0f, blocked, NULL, NULL);
    wf_crowd_desc d = crowd_test_desc(mesh, 4);
    d.stuck_time = 1.0f;
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    p.radius = 0.6f;
    wf_agent_params heavy = p;
    heavy.priority = 200;
    wf_agent_id mover, sitter;
    for (int k = 2; k >= 0; --k) {
        float x = 15.0f + 1.2f * (float)k;
        assert_int_equal(wf_crowd_add_agent(c, wf_v3(x, 0, 10.5f), &heavy, &sitter), WF_OK);
    }
    assert_int_equal(wf_crowd_add_agent(c, wf_v3(2.5f, 0, 10.5f), &p, &mover), WF_OK);
    counters n = {0};
    tagged t = {&n, 0};
    assert_int_equal(wf_crowd_request_move(c, mover, wf_v3(17.5f, 0, 10.5f), &callbacks, &t),
                     WF_OK);
    // Still time: since the mover last got more than half a radius from
    // where it stood.
    wf_vec3 anchor = crowd_test_state(c, mover).position;
    int still_since = 0, rebuilds = 0, replans = 0;
    float still_at_blocked = -1.0f;
    for (int k = 1; k <= 30 * 20 && n.blocked == 0; ++k) {
        if (k % 18 == 0) {
            rebuild_tile(c, mesh, 1, 1, blocked);
            rebuilds++;
        }
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        replans += has_event(c, mover, WF_CROWD_EVENT_REPLANNED);
        wf_agent_state s = crowd_test_state(c, mover);
        if (crowd_test_dist2d(s.position, anchor) > p.radius * 0.5f) {
            anchor = s.position;
            still_since = k;
        }
        if (has_event(c, mover, WF_CROWD_EVENT_BLOCKED)) {
            still_at_blocked = (float)(k - still_since) * DT;
        }
    }
    assert_true(rebuilds >= 5);
    assert_true(replans >= rebuilds / 2); // its corridor was replanned again and again
    assert_int_equal(n.blocked, 1);
    // Twice the stuck time (the replan, then blocked), and the frames its
    // replans waited for their paths.
    assert_true(still_at_blocked >= 2.0f * d.stuck_time - DT);
    assert_true(still_at_blocked <= 2.0f * d.stuck_time + 0.25f);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

static wf_crowd* queue_crowd(const wf_mesh* mesh, uint32_t agents, uint32_t queue) {
    wf_crowd_desc d = crowd_test_desc(mesh, agents);
    d.max_searches = 1;
    d.path_iterations_per_update = 40;
    d.quick_search_iterations = 1;
    d.max_queued_paths = queue;
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    return c;
}

static void test_queue_serves_in_request_order(void** state) {
    (void)state;
    wf_mesh* mesh = test_mesh_grid(3, 3, 10, 1.0f, NULL, NULL, NULL);
    wf_crowd* c = queue_crowd(mesh, 12, 12);
    wf_agent_params p = crowd_test_params();
    wf_agent_id ids[12];
    counters n = {0};
    tagged tags[12];
    for (int i = 0; i < 12; ++i) {
        assert_int_equal(wf_crowd_add_agent(c, wf_v3(1.5f, 0, 1.5f + 2.0f * (float)i), &p, &ids[i]),
                         WF_OK);
    }
    // Requests in reverse slot order: served in the order asked, not by slot.
    for (int i = 11; i >= 0; --i) {
        tags[i] = (tagged){&n, 11 - i};
        assert_int_equal(wf_crowd_request_move(c, ids[i], wf_v3(28.5f, 0, 28.5f - (float)i),
                                               &callbacks, &tags[i]),
                         WF_OK);
    }
    float max_wait = 0.0f;
    for (int k = 0; k < 400 && n.results < 12; ++k) {
        wf_crowd_profile prof;
        assert_int_equal(wf_crowd_update(c, DT, &prof), WF_OK);
        assert_true(prof.path_iterations <= 40u + 12u); // the budget, plus quick slices
        for (int i = 0; i < 12; ++i) {
            float w = crowd_test_state(c, ids[i]).path_wait;
            max_wait = w > max_wait ? w : max_wait;
        }
    }
    assert_int_equal(n.results, 12);
    for (int k = 0; k < 12; ++k) {
        assert_int_equal(n.order[k], k);
    }
    assert_true(max_wait > 0.0f);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

static void test_queue_is_fair_and_its_capacity_visible(void** state) {
    (void)state;
    wf_mesh* mesh = test_mesh_grid(3, 3, 10, 1.0f, NULL, NULL, NULL);
    wf_crowd* c = queue_crowd(mesh, 8, 6);
    wf_agent_params p = crowd_test_params();
    wf_agent_id ids[8];
    for (int i = 0; i < 8; ++i) {
        assert_int_equal(wf_crowd_add_agent(c, wf_v3(1.5f, 0, 1.5f + 3.0f * (float)i), &p, &ids[i]),
                         WF_OK);
    }
    for (int i = 0; i < 6; ++i) {
        assert_int_equal(wf_crowd_request_move(c, ids[i], wf_v3(28.5f, 0, 28.5f), NULL, NULL),
                         WF_OK);
    }
    // Full: a visible status, and the agent is untouched.
    assert_int_equal(wf_crowd_request_move(c, ids[6], wf_v3(28.5f, 0, 28.5f), NULL, NULL),
                     WF_ERR_CAPACITY);
    assert_int_equal(crowd_test_state(c, ids[6]).target_state, WF_TARGET_NONE);
    // A queued agent asking again keeps its place (and is not refused).
    assert_int_equal(wf_crowd_request_move(c, ids[0], wf_v3(27.5f, 0, 27.5f), NULL, NULL), WF_OK);
    // Agents 1..5 ask again every frame once served; agent 0's request
    // (the oldest) and then agent 7's (queued as soon as there is room)
    // must still be served: nobody jumps the line.
    bool seven_queued = false;
    int served_seven = -1;
    for (int k = 0; k < 600 && served_seven < 0; ++k) {
        if (!seven_queued) {
            wf_status s = wf_crowd_request_move(c, ids[7], wf_v3(28.5f, 0, 1.5f), NULL, NULL);
            assert_true(s == WF_OK || s == WF_ERR_CAPACITY);
            seven_queued = s == WF_OK;
        }
        for (int i = 1; i < 6; ++i) {
            if (crowd_test_state(c, ids[i]).target_state != WF_TARGET_REQUESTED) {
                wf_status s = wf_crowd_request_move(
                    c, ids[i], wf_v3(28.5f, 0, 1.5f + (float)k * 0.01f), NULL, NULL);
                assert_true(s == WF_OK || s == WF_ERR_CAPACITY);
            }
        }
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        if (seven_queued && crowd_test_state(c, ids[7]).target_state != WF_TARGET_REQUESTED) {
            served_seven = k;
        }
    }
    assert_true(seven_queued);
    assert_true(served_seven >= 0);
    assert_int_not_equal(crowd_test_state(c, ids[0]).target_state, WF_TARGET_REQUESTED);
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_door_closes_mid_path_then_opens),
        cmocka_unit_test(test_blocked_agent_goes_on_when_the_door_opens),
        cmocka_unit_test(test_removed_tile_ahead_replans_around),
        cmocka_unit_test(test_pinned_agent_replans_then_reports_blocked),
        cmocka_unit_test(test_pinned_agent_blocked_while_its_tile_keeps_changing),
        cmocka_unit_test(test_no_arrival_when_the_tiles_of_agent_and_target_rebuild),
        cmocka_unit_test(test_queue_serves_in_request_order),
        cmocka_unit_test(test_queue_is_fair_and_its_capacity_visible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
