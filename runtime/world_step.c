// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// One world step: obstacle requests and rebuilt tiles of every class
// within one shared budget, then every class's crowd, each seeing the
// other classes' agents as movers.
#include <math.h>
#include <string.h>

#include "navcore/check.h"
#include "navcore/clock.h"
#include "runtime/world_internal.h"

/* ---------------------------------------------------------------------------
 * Classes avoiding each other
 *
 * Every class's agents, as they stand at the start of the step, become
 * movers (avoid-only circles with a velocity) in every other class's
 * crowd for the step and leave it after. Reading all positions before any
 * crowd moves makes the order of the classes irrelevant, and the crowd's
 * mover handling is already deterministic for any worker count.
 */

static void take_snapshot(wf_world* w) {
    uint32_t n = 0;
    for (uint32_t c = 0; c < w->class_count; ++c) {
        const wf_crowd* crowd = w->classes[c].crowd;
        w->snapshot_begin[c] = n;
        uint32_t count = wf_crowd_get_agents(crowd, w->agent_scratch, w->agent_scratch_capacity);
        for (uint32_t i = 0; i < count && n < w->snapshot_capacity; ++i) {
            wf_agent_state st;
            if (wf_crowd_get_agent(crowd, w->agent_scratch[i], &st) != WF_OK) {
                continue;
            }
            wf_mover* m = &w->snapshot[n++];
            m->position = st.position;
            m->velocity = st.velocity;
            m->radius = st.params.radius;
            m->height = st.params.height;
        }
    }
    w->snapshot_begin[w->class_count] = n;
}

static void remove_class_movers(wf_world* w) {
    for (uint32_t c = 0; c < w->class_count; ++c) {
        world_class* k = &w->classes[c];
        for (uint32_t i = 0; i < k->mover_count; ++i) {
            // A callback may have removed one already: nothing to undo then.
            wf_status s = wf_crowd_remove_mover(k->crowd, k->movers[i]);
            (void)s;
        }
        k->mover_count = 0;
    }
}

/// Places every class's agents in every other class's crowd. On
/// WF_ERR_CAPACITY (the game's own movers took the room kept for them)
/// every mover placed so far is taken out again.
static wf_status place_class_movers(wf_world* w) {
    take_snapshot(w);
    for (uint32_t c = 0; c < w->class_count; ++c) {
        world_class* k = &w->classes[c];
        for (uint32_t o = 0; o < w->class_count; ++o) {
            if (o == c) {
                continue;
            }
            for (uint32_t i = w->snapshot_begin[o]; i < w->snapshot_begin[o + 1u]; ++i) {
                wf_mover_id id;
                wf_status s = k->mover_count < k->mover_capacity
                                  ? wf_crowd_add_mover(k->crowd, &w->snapshot[i], &id)
                                  : WF_ERR_CAPACITY;
                if (s != WF_OK) {
                    remove_class_movers(w);
                    return s;
                }
                k->movers[k->mover_count++] = id;
            }
        }
    }
    return WF_OK;
}

/* ---------------------------------------------------------------------------
 * The step
 */

/// Runs the tile caches: from class frame % count on, each within what
/// the earlier ones left of the budget (0 fields: no limit). *out_tiles
/// gets the first failed update's status (the step goes on); the return,
/// a crowd's refusal of the changed tiles (the step stops).
static wf_status update_tiles(wf_world* w, const wf_world_budget* budget, wf_world_report* rep,
                              wf_status* out_tiles) {
    uint32_t time_left = budget != NULL ? budget->tile_time_us : 0u;
    uint32_t commits_left = budget != NULL ? budget->tile_commits : 0u;
    bool timed = time_left > 0, counted = commits_left > 0;
    wf_status first_error = WF_OK;
    uint32_t start = (uint32_t)(w->frame % w->class_count);
    for (uint32_t i = 0; i < w->class_count; ++i) {
        uint32_t c = (start + i) % w->class_count;
        if ((timed && time_left == 0) || (counted && commits_left == 0)) {
            break; // the rest wait: the next step starts with the next class
        }
        wf_tilecache_budget tb = {time_left, commits_left};
        wf_tilecache_update_result* tr = &rep->classes[c].tiles;
        double t0 = wf_clock_us();
        wf_status ts = wf_tilecache_update(w->classes[c].tc, w->classes[c].mesh, &tb, tr);
        double spent = wf_clock_us() - t0;
        rep->classes[c].tiles_updated = true;
        if (timed) {
            time_left = spent >= (double)time_left ? 0u : time_left - (uint32_t)spent;
        }
        if (counted) {
            commits_left =
                tr->tiles_committed >= commits_left ? 0u : commits_left - tr->tiles_committed;
        }
        if (ts < 0 && first_error == WF_OK) {
            first_error = ts;
        }
        *out_tiles = first_error;
        wf_status s = wf_world_forward_changes(w, c, tr);
        if (s != WF_OK) {
            return s;
        }
    }
    *out_tiles = first_error;
    return WF_OK;
}

wf_status wf_world_step(wf_world* w, float dt, const wf_world_budget* budget,
                        wf_world_report* report) {
    WF_CHECK_ARG(w != NULL);
    WF_CHECK_OR(!w->stepping, WF_ERR_BUSY);
    WF_CHECK_ARG(isfinite(dt) && dt > 0.0f && dt <= 1.0f);
    double start = wf_clock_us();
    wf_world_report rep;
    memset(&rep, 0, sizeof rep); // an update that fails early reports nothing
    if (w->class_count > 1) {
        wf_status placed = place_class_movers(w);
        if (placed != WF_OK) {
            return placed;
        }
    }
    w->stepping = true;
    // Obstacle requests and finished rebuilds first, so the crowds plan on
    // this frame's navmesh.
    wf_status ts = WF_OK;
    wf_status s = update_tiles(w, budget, &rep, &ts);
    double tiles_done = wf_clock_us();
    for (uint32_t c = 0; c < w->class_count && s == WF_OK; ++c) {
        s = wf_crowd_update(w->classes[c].crowd, dt, &rep.classes[c].crowd);
        rep.crowd_us += rep.classes[c].crowd.total_us;
    }
    remove_class_movers(w);
    w->stepping = false;
    if (s != WF_OK) {
        return s;
    }
    w->frame++;
    if (report != NULL) {
        rep.frame = w->frame;
        rep.class_count = w->class_count;
        rep.tiles = rep.classes[0].tiles;
        rep.crowd = rep.classes[0].crowd;
        rep.tiles_us = tiles_done - start;
        rep.total_us = wf_clock_us() - start;
        *report = rep;
    }
    // A rebuild that failed is the tile cache's report (logged there); the
    // crowd keeps walking on what the mesh has.
    return ts < 0 ? ts : WF_OK;
}
