// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Misuse of the crowd API: bad agents, params and targets, stale and
// wrong-kind ids, and crowd and world calls made from inside a crowd
// callback (re-entry).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "misuse_common.h"

/* ---------------------------------------------------------------------------
 * Crowd
 */

static void test_crowd_misuse(void** state) {
    fixture* f = *state;
    wf_crowd* c = f->crowd;
    wf_agent_id a = f->agent, id = {0}, none = {0};
    snapshot before = take(f);
    wf_crowd* made = NULL;

    // create
    wf_crowd_desc cd = crowd_desc(f->mesh);
    EXPECT(wf_crowd_create(NULL, &made), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_create(&cd, NULL), WF_ERR_INVALID_ARG);
    wf_crowd_desc b = cd;
    b.mesh = NULL;
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    b = cd;
    b.max_agents = 0;
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    const float bad_radii[] = {0.0f, -0.5f, NAN_F, INF_F};
    for (size_t i = 0; i < 4; ++i) {
        b = cd;
        b.max_agent_radius = bad_radii[i];
        EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    }
    b = cd;
    b.filter_count = 1; // filters NULL
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    wf_query_filter filters[WF_CROWD_MAX_FILTERS + 1];
    for (size_t i = 0; i <= WF_CROWD_MAX_FILTERS; ++i) {
        filters[i] = wf_query_filter_defaults();
    }
    b.filters = filters;
    b.filter_count = WF_CROWD_MAX_FILTERS + 1;
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    filters[0].area_cost[5] = NAN_F;
    b.filter_count = 1;
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    filters[0].area_cost[5] = -2.0f;
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    filters[0].area_cost[5] = 1.0f;
    b = cd;
    b.avoidance_count = 1; // avoidance NULL
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    wf_avoidance_params av = wf_avoidance_preset(WF_AVOIDANCE_LOW);
    av.horizon_time = NAN_F;
    b.avoidance = &av;
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    b = cd;
    b.avoidance_count = WF_CROWD_MAX_AVOIDANCE_PRESETS + 1;
    b.avoidance = &av;
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    b = cd;
    b.max_neighbours = WF_CROWD_MAX_NEIGHBOURS + 1;
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    b = cd;
    b.max_walls = WF_CROWD_MAX_WALLS + 1;
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    b = cd;
    b.max_corridor = 1;
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    b = cd;
    b.stuck_time = NAN_F;
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    b.stuck_time = -1.0f;
    EXPECT(wf_crowd_create(&b, &made), WF_ERR_INVALID_ARG);
    EXPECT_TRUE(made == NULL);

    // add_agent: NULL, NaN / infinite positions, bad params
    wf_agent_params p = wf_agent_params_defaults();
    EXPECT(wf_crowd_add_agent(NULL, wf_v3(5, 0, 6), &p, &id), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_add_agent(c, wf_v3(5, 0, 6), NULL, &id), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_add_agent(c, wf_v3(5, 0, 6), &p, NULL), WF_ERR_INVALID_ARG);
    const wf_vec3 bad_points[] = {wf_v3(NAN_F, 0, 5), wf_v3(5, NAN_F, 5), wf_v3(5, 0, INF_F),
                                  wf_v3(-INF_F, 0, 5)};
    for (size_t i = 0; i < 4; ++i) {
        EXPECT(wf_crowd_add_agent(c, bad_points[i], &p, &id), WF_ERR_INVALID_ARG);
    }
    wf_agent_params bp[40];
    size_t nb = 0;
    const float bad_values[] = {NAN_F, INF_F, -1.0f};
    for (size_t i = 0; i < 3; ++i) {
        bp[nb] = p, bp[nb++].radius = bad_values[i];
        bp[nb] = p, bp[nb++].height = bad_values[i];
        bp[nb] = p, bp[nb++].max_speed = bad_values[i];
        bp[nb] = p, bp[nb++].max_acceleration = bad_values[i];
        bp[nb] = p, bp[nb++].collision_query_range = bad_values[i];
        bp[nb] = p, bp[nb++].path_optimization_range = bad_values[i];
        bp[nb] = p, bp[nb++].separation_weight = bad_values[i];
    }
    bp[nb] = p, bp[nb++].radius = 0.0f;
    bp[nb] = p, bp[nb++].height = 0.0f;
    bp[nb] = p, bp[nb++].radius = cd.max_agent_radius * 2.0f; // wider than the crowd allows
    bp[nb] = p, bp[nb++].collision_query_range = p.radius;    // not above the radius
    bp[nb] = p, bp[nb++].update_flags = WF_AGENT_ALL + 1u;
    bp[nb] = p, bp[nb++].avoidance_preset = 200;
    bp[nb] = p, bp[nb++].filter = 1; // the crowd has one filter
    assert_true(nb <= sizeof bp / sizeof bp[0]);
    for (size_t i = 0; i < nb; ++i) {
        char what[64];
        snprintf(what, sizeof what, "add_agent(c, pos, &bp[%zu], &id)", i);
        expect_status_at(wf_crowd_add_agent(c, wf_v3(5, 0, 6), &bp[i], &id), WF_ERR_INVALID_ARG,
                         what, __LINE__);
        EXPECT_TRUE(id.bits == 0);
        snprintf(what, sizeof what, "set_agent_params(c, a, &bp[%zu])", i);
        expect_status_at(wf_crowd_set_agent_params(c, a, &bp[i]), WF_ERR_INVALID_ARG, what,
                         __LINE__);
    }
    EXPECT(wf_crowd_add_agent(c, wf_v3(500, 0, 500), &p, &id), WF_ERR_NOT_FOUND);
    EXPECT_UNCHANGED(f, &before);

    // Per-agent calls: NULL crowd, null id, wrong kind, stale
    wf_agent_id wrong_kind = {
        wf_id_make(wf_id_index(a.bits), wf_id_generation(a.bits), WF_ID_KIND_OBSTACLE)};
    wf_agent_id other_gen = {
        wf_id_make(wf_id_index(a.bits), wf_id_generation(a.bits) + 1, WF_ID_KIND_AGENT)};
    wf_agent_id past_end = {wf_id_make(MAX_AGENTS + 5, 1, WF_ID_KIND_AGENT)};
    wf_agent_id removed;
    EXPECT(wf_crowd_add_agent(c, wf_v3(20, 0, 20), &p, &removed), WF_OK);
    EXPECT(wf_crowd_remove_agent(c, removed), WF_OK);
    const wf_agent_id stale_ids[] = {other_gen, past_end, removed};
    wf_agent_state st;
    wf_move_callbacks cbs = {0};
    const wf_vec3 tgt = wf_v3(25, 0, 25);
    EXPECT(wf_crowd_remove_agent(NULL, a), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_set_agent_params(NULL, a, &p), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_set_agent_params(c, a, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_teleport_agent(NULL, a, tgt), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_get_agent(NULL, a, &st), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_get_agent(c, a, NULL), WF_ERR_INVALID_ARG);
    wf_poly_ref corridor[4];
    uint32_t corridor_count = 77;
    EXPECT(wf_crowd_get_corridor(NULL, a, corridor, 4, &corridor_count), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_get_corridor(c, a, corridor, 4, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_get_corridor(c, a, NULL, 4, &corridor_count), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_get_corridor(c, none, corridor, 4, &corridor_count), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_get_corridor(c, wrong_kind, corridor, 4, &corridor_count), WF_ERR_WRONG_KIND);
    assert_int_equal(corridor_count, 77); // refused: nothing written
    // No room: the count alone (a standing agent's corridor is its polygon).
    EXPECT(wf_crowd_get_corridor(c, a, NULL, 0, &corridor_count), WF_ERR_CAPACITY);
    assert_int_equal(corridor_count, 1);
    EXPECT(wf_crowd_get_corridor(c, a, corridor, 4, &corridor_count), WF_OK);
    EXPECT(wf_crowd_get_agent(c, a, &st), WF_OK);
    assert_true(corridor_count == st.corridor_count && corridor[0].bits == st.poly.bits);
    EXPECT(wf_crowd_request_move(NULL, a, tgt, &cbs, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_retarget(NULL, a, tgt), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_request_velocity(NULL, a, tgt), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_cancel_move(NULL, a), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_set_callbacks(NULL, a, &cbs, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_remove_agent(c, none), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_get_agent(c, none, &st), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_request_move(c, none, tgt, NULL, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_remove_agent(c, wrong_kind), WF_ERR_WRONG_KIND);
    EXPECT(wf_crowd_set_agent_params(c, wrong_kind, &p), WF_ERR_WRONG_KIND);
    EXPECT(wf_crowd_teleport_agent(c, wrong_kind, tgt), WF_ERR_WRONG_KIND);
    EXPECT(wf_crowd_get_agent(c, wrong_kind, &st), WF_ERR_WRONG_KIND);
    EXPECT(wf_crowd_request_move(c, wrong_kind, tgt, NULL, NULL), WF_ERR_WRONG_KIND);
    EXPECT(wf_crowd_retarget(c, wrong_kind, tgt), WF_ERR_WRONG_KIND);
    EXPECT(wf_crowd_request_velocity(c, wrong_kind, tgt), WF_ERR_WRONG_KIND);
    EXPECT(wf_crowd_cancel_move(c, wrong_kind), WF_ERR_WRONG_KIND);
    EXPECT(wf_crowd_set_callbacks(c, wrong_kind, &cbs, NULL), WF_ERR_WRONG_KIND);
    for (size_t i = 0; i < 3; ++i) {
        wf_agent_id s = stale_ids[i];
        EXPECT(wf_crowd_remove_agent(c, s), WF_ERR_STALE_REF);
        EXPECT(wf_crowd_set_agent_params(c, s, &p), WF_ERR_STALE_REF);
        EXPECT(wf_crowd_set_agent_params(c, s, &bp[0]), WF_ERR_STALE_REF);
        EXPECT(wf_crowd_teleport_agent(c, s, tgt), WF_ERR_STALE_REF);
        EXPECT(wf_crowd_get_agent(c, s, &st), WF_ERR_STALE_REF);
        EXPECT(wf_crowd_get_corridor(c, s, corridor, 4, &corridor_count), WF_ERR_STALE_REF);
        EXPECT(wf_crowd_request_move(c, s, tgt, &cbs, NULL), WF_ERR_STALE_REF);
        EXPECT(wf_crowd_retarget(c, s, tgt), WF_ERR_STALE_REF);
        EXPECT(wf_crowd_request_velocity(c, s, tgt), WF_ERR_STALE_REF);
        EXPECT(wf_crowd_cancel_move(c, s), WF_ERR_STALE_REF);
        EXPECT(wf_crowd_set_callbacks(c, s, &cbs, NULL), WF_ERR_STALE_REF);
    }
    // Debug API: NULL crowd, buffers and counts, null, wrong-kind and stale ids
    wf_agent_id near_ids[4];
    uint32_t nb_count = 77;
    EXPECT(wf_crowd_get_agent_neighbours(NULL, a, near_ids, 4, &nb_count), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_get_agent_neighbours(c, a, near_ids, 4, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_get_agent_neighbours(c, a, NULL, 4, &nb_count), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_get_agent_neighbours(c, none, near_ids, 4, &nb_count), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_get_agent_neighbours(c, wrong_kind, near_ids, 4, &nb_count), WF_ERR_WRONG_KIND);
    EXPECT_TRUE(nb_count == 77);
    // A NULL buffer with max 0 counts: WF_OK (none) or WF_ERR_CAPACITY.
    wf_status counted = wf_crowd_get_agent_neighbours(c, a, NULL, 0, &nb_count);
    EXPECT_TRUE(counted == WF_OK || counted == WF_ERR_CAPACITY);
    wf_avoidance_debug dbg;
    wf_avoidance_candidate cand[4];
    uint32_t cand_count = 0;
    EXPECT(wf_crowd_set_debug_agent(NULL, a), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_set_debug_agent(c, wrong_kind), WF_ERR_WRONG_KIND);
    EXPECT(wf_crowd_get_avoidance_debug(NULL, &dbg, cand, 4, &cand_count), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_get_avoidance_debug(c, NULL, cand, 4, &cand_count), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_get_avoidance_debug(c, &dbg, cand, 4, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_get_avoidance_debug(c, &dbg, NULL, 4, &cand_count), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_get_avoidance_debug(c, &dbg, cand, 4, &cand_count), WF_ERR_NOT_FOUND);
    EXPECT(wf_crowd_set_debug_agent(c, a), WF_OK);
    EXPECT(wf_crowd_get_avoidance_debug(c, &dbg, cand, 4, &cand_count), WF_ERR_NOT_FOUND);
    for (size_t i = 0; i < 3; ++i) {
        EXPECT(wf_crowd_get_agent_neighbours(c, stale_ids[i], near_ids, 4, &nb_count),
               WF_ERR_STALE_REF);
        EXPECT(wf_crowd_set_debug_agent(c, stale_ids[i]), WF_ERR_STALE_REF);
    }
    EXPECT(wf_crowd_set_debug_agent(c, none), WF_OK); // stops watching
    // NaN / infinite targets, positions and velocities
    for (size_t i = 0; i < 4; ++i) {
        EXPECT(wf_crowd_teleport_agent(c, a, bad_points[i]), WF_ERR_INVALID_ARG);
        EXPECT(wf_crowd_request_move(c, a, bad_points[i], NULL, NULL), WF_ERR_INVALID_ARG);
        EXPECT(wf_crowd_request_velocity(c, a, bad_points[i]), WF_ERR_INVALID_ARG);
    }
    EXPECT(wf_crowd_teleport_agent(c, a, wf_v3(500, 0, 500)), WF_ERR_NOT_FOUND);
    EXPECT(wf_crowd_request_move(c, a, wf_v3(500, 0, 500), NULL, NULL), WF_ERR_NOT_FOUND);
    EXPECT(wf_crowd_retarget(c, a, tgt), WF_ERR_NOT_FOUND); // no running request
    EXPECT_UNCHANGED(f, &before);
    // update: NULL, dt <= 0, NaN, infinite, above 1 s
    const float bad_dt[] = {0.0f, -0.016f, NAN_F, INF_F, -INF_F, 1.5f};
    EXPECT(wf_crowd_update(NULL, 0.016f, NULL), WF_ERR_INVALID_ARG);
    for (size_t i = 0; i < sizeof bad_dt / sizeof bad_dt[0]; ++i) {
        EXPECT(wf_crowd_update(c, bad_dt[i], NULL), WF_ERR_INVALID_ARG);
    }
    // tiles_changed
    wf_tile_ref t0 = {0};
    EXPECT(wf_crowd_tiles_changed(NULL, &t0, 1), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_tiles_changed(c, NULL, 1), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_tiles_changed(c, NULL, 0), WF_OK);
    // get_agents: NULL crowd, NULL out
    wf_agent_id listed[MAX_AGENTS];
    EXPECT_TRUE(wf_crowd_get_agents(NULL, listed, MAX_AGENTS) == 0);
    EXPECT_TRUE(wf_crowd_get_agents(c, NULL, MAX_AGENTS) == 0);
    EXPECT_TRUE(wf_crowd_get_agents(c, listed, 0) == 0);
    EXPECT_TRUE(wf_crowd_get_agents(c, listed, MAX_AGENTS) == 1 && listed[0].bits == a.bits);
    EXPECT_TRUE(wf_crowd_agent_count(NULL) == 0);
    EXPECT_UNCHANGED(f, &before);

    // save / load: NULL, short buffers, truncated and corrupt bytes
    size_t size = 0;
    EXPECT(wf_crowd_save_size(NULL, &size), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_save_size(c, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_save_size(c, &size), WF_OK);
    unsigned char* save = malloc(size);
    assert_non_null(save);
    EXPECT(wf_crowd_save(NULL, save, size), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_save(c, NULL, size), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_save(c, save, size - 1), WF_ERR_CAPACITY);
    EXPECT(wf_crowd_save(c, save, size), WF_OK);
    EXPECT(wf_crowd_restore(NULL, save, size), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_restore(c, NULL, size), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_restore(c, save, 0), WF_ERR_BAD_DATA);
    EXPECT(wf_crowd_restore(c, save, size - 1), WF_ERR_BAD_DATA);
    EXPECT(wf_crowd_restore(c, save, size / 2), WF_ERR_BAD_DATA);
    save[0] ^= 0xff;
    EXPECT(wf_crowd_restore(c, save, size), WF_ERR_BAD_DATA);
    save[0] ^= 0xff;
    save[size / 2] ^= 0x10;
    EXPECT(wf_crowd_restore(c, save, size), WF_ERR_BAD_DATA);
    save[size / 2] ^= 0x10;
    {
        // A crowd of other capacities refuses the bytes.
        wf_crowd_desc big = cd;
        big.max_agents = MAX_AGENTS + 1;
        wf_crowd* other = NULL;
        assert_int_equal(wf_crowd_create(&big, &other), WF_OK);
        EXPECT(wf_crowd_restore(other, save, size), WF_ERR_CAPACITY);
        EXPECT_TRUE(wf_crowd_agent_count(other) == 0);
        wf_crowd_destroy(other);
    }
    EXPECT_UNCHANGED(f, &before);
    EXPECT(wf_crowd_restore(c, save, size), WF_OK);
    free(save);
    EXPECT_UNCHANGED(f, &before);
    wf_crowd_destroy(NULL);

    // Capacity, then valid calls still work.
    wf_agent_id more[MAX_AGENTS];
    for (uint32_t i = 1; i < MAX_AGENTS; ++i) {
        EXPECT(wf_crowd_add_agent(c, wf_v3(5.0f + 4.0f * (float)i, 0, 20), &p, &more[i]), WF_OK);
    }
    EXPECT(wf_crowd_add_agent(c, wf_v3(20, 0, 5), &p, &id), WF_ERR_CAPACITY);
    EXPECT_TRUE(wf_crowd_agent_count(c) == MAX_AGENTS);
    for (uint32_t i = 1; i < MAX_AGENTS; ++i) {
        EXPECT(wf_crowd_remove_agent(c, more[i]), WF_OK);
    }
    EXPECT_UNCHANGED(f, &before);
    EXPECT(wf_crowd_request_move(c, a, tgt, NULL, NULL), WF_OK);
    EXPECT(wf_crowd_update(c, 0.1f, NULL), WF_OK);
    EXPECT(wf_crowd_get_agent(c, a, &st), WF_OK);
    EXPECT_TRUE(st.target_state == WF_TARGET_VALID || st.target_state == WF_TARGET_REQUESTED);
    EXPECT(wf_crowd_retarget(c, a, wf_v3(24, 0, 25)), WF_OK);
    EXPECT(wf_crowd_retarget(c, a, bad_points[0]), WF_ERR_INVALID_ARG);
    end_test();
}

/* ---------------------------------------------------------------------------
 * Re-entry: crowd and world calls from inside a crowd callback (the probe,
 * reenter, is in misuse_common.c; the world test uses it too)
 */

/// Result callback that calls the debug API from inside the update.
typedef struct debug_probe {
    wf_crowd* crowd;
    wf_status set, get;
    int calls;
} debug_probe;

static bool debug_reenter(wf_agent_id agent, const wf_path_info* info, void* user) {
    (void)info;
    debug_probe* p = user;
    wf_avoidance_debug dbg;
    uint32_t count = 0;
    p->set = wf_crowd_set_debug_agent(p->crowd, agent);
    p->get = wf_crowd_get_avoidance_debug(p->crowd, &dbg, NULL, 0, &count);
    p->calls++;
    return true;
}

static void test_debug_busy(void** state) {
    fixture* f = *state;
    debug_probe probe = {.crowd = f->crowd};
    wf_move_callbacks cbs = {.result = debug_reenter};
    EXPECT(wf_crowd_request_move(f->crowd, f->agent, wf_v3(25, 0, 25), &cbs, &probe), WF_OK);
    EXPECT(wf_crowd_update(f->crowd, 0.1f, NULL), WF_OK);
    EXPECT_TRUE(probe.calls == 1);
    EXPECT(probe.set, WF_ERR_BUSY);
    EXPECT(probe.get, WF_ERR_BUSY);
    end_test();
}

static void test_crowd_reentry(void** state) {
    fixture* f = *state;
    reentry r;
    memset(&r, 0, sizeof r);
    r.crowd = f->crowd;
    r.agent = f->agent;
    wf_move_callbacks cbs = {.result = reenter};
    EXPECT(wf_crowd_request_move(f->crowd, f->agent, wf_v3(25, 0, 25), &cbs, &r), WF_OK);
    snapshot before = take(f);
    EXPECT(wf_crowd_update(f->crowd, 0.1f, NULL), WF_OK);
    expect_all_busy(&r, 15);
    snapshot after = take(f);
    EXPECT_TRUE(after.agents == before.agents);
    wf_agent_state st;
    EXPECT(wf_crowd_get_agent(f->crowd, f->agent, &st), WF_OK);
    EXPECT_TRUE(st.target_state == WF_TARGET_VALID);
    EXPECT_TRUE(wf_v3_distance(st.target, wf_v3(25, 0, 25)) < 0.5f);
    // After the update everything works again.
    EXPECT(wf_crowd_cancel_move(f->crowd, f->agent), WF_OK);
    EXPECT(wf_crowd_update(f->crowd, 0.1f, NULL), WF_OK);
    end_test();
}

/* ---------------------------------------------------------------------------
 * Movers: bad movers and ids, and calls from inside the update
 */

typedef struct mover_probe {
    wf_crowd* crowd;
    wf_mover_id id;
    wf_status add, set, remove, get;
    int calls;
} mover_probe;

static bool mover_reenter(wf_agent_id agent, const wf_path_info* info, void* user) {
    (void)agent;
    (void)info;
    mover_probe* p = user;
    wf_mover m = {.position = wf_v3(20, 0, 20), .radius = 0.5f, .height = 2.0f};
    wf_mover_id id;
    p->add = wf_crowd_add_mover(p->crowd, &m, &id);
    p->set = wf_crowd_set_mover(p->crowd, p->id, wf_v3(21, 0, 20), wf_v3(0, 0, 0));
    p->remove = wf_crowd_remove_mover(p->crowd, p->id);
    p->get = wf_crowd_get_mover(p->crowd, p->id, &m); // a read-only getter
    p->calls++;
    return true;
}

static void test_mover_misuse(void** state) {
    fixture* f = *state;
    wf_crowd* c = f->crowd;
    wf_mover m = {.position = wf_v3(20, 0, 20), .radius = 0.5f, .height = 2.0f};
    wf_mover_id id = {0}, none = {0};
    EXPECT(wf_crowd_add_mover(NULL, &m, &id), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_add_mover(c, NULL, &id), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_add_mover(c, &m, NULL), WF_ERR_INVALID_ARG);
    const float bad[] = {0.0f, -0.5f, NAN_F, INF_F};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        wf_mover b = m;
        b.radius = bad[k];
        EXPECT(wf_crowd_add_mover(c, &b, &id), WF_ERR_INVALID_ARG);
        b = m;
        b.height = bad[k];
        EXPECT(wf_crowd_add_mover(c, &b, &id), WF_ERR_INVALID_ARG);
    }
    wf_mover b = m;
    b.velocity.x = NAN_F;
    EXPECT(wf_crowd_add_mover(c, &b, &id), WF_ERR_INVALID_ARG);
    EXPECT_TRUE(id.bits == 0);
    EXPECT(wf_crowd_add_mover(c, &m, &id), WF_OK);
    EXPECT(wf_crowd_set_mover(NULL, id, m.position, m.velocity), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_set_mover(c, none, m.position, m.velocity), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_set_mover(c, id, wf_v3(NAN_F, 0, 0), m.velocity), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_set_mover(c, id, m.position, wf_v3(0, 0, INF_F)), WF_ERR_INVALID_ARG);
    wf_mover got;
    EXPECT(wf_crowd_get_mover(NULL, id, &got), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_get_mover(c, id, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_get_mover(c, none, &got), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_get_mover(c, id, &got), WF_OK);
    EXPECT_TRUE(got.position.x == m.position.x && got.radius == m.radius);
    EXPECT(wf_crowd_remove_mover(NULL, id), WF_ERR_INVALID_ARG);
    EXPECT(wf_crowd_remove_mover(c, none), WF_ERR_INVALID_ARG);
    // Inside the update: every change is refused, the getter answers.
    mover_probe probe = {.crowd = c, .id = id};
    wf_move_callbacks cbs = {.result = mover_reenter};
    EXPECT(wf_crowd_request_move(c, f->agent, wf_v3(25, 0, 25), &cbs, &probe), WF_OK);
    EXPECT(wf_crowd_update(c, 0.1f, NULL), WF_OK);
    EXPECT_TRUE(probe.calls == 1);
    EXPECT(probe.add, WF_ERR_BUSY);
    EXPECT(probe.set, WF_ERR_BUSY);
    EXPECT(probe.remove, WF_ERR_BUSY);
    EXPECT(probe.get, WF_OK);
    EXPECT(wf_crowd_remove_mover(c, id), WF_OK);
    EXPECT(wf_crowd_remove_mover(c, id), WF_ERR_STALE_REF);
    EXPECT(wf_crowd_set_mover(c, id, m.position, m.velocity), WF_ERR_STALE_REF);
    EXPECT(wf_crowd_get_mover(c, id, &got), WF_ERR_STALE_REF);
    end_test();
}

int main(void) {
    misuse_begin();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_crowd_misuse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_crowd_reentry, setup, teardown),
        cmocka_unit_test_setup_teardown(test_debug_busy, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mover_misuse, setup, teardown),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    misuse_report("misuse_crowd");
    return failed;
}
