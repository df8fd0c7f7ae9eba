// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// A knot (shared_spot.c, knot_spot) gathers its members from the holder's
// neighbour list: those whose targets crowd its own and those whose
// targets only touch it (hold25). Its places are few (WF_CROWD_KNOT_MAX);
// before, touching neighbours read first could take every place, the
// crowding one after them was never read, and the holder kept its raw
// target as if nobody crowded it (the review of hold25). Now touching ones
// leave room for the crowding ones still to come, so where the crowding
// neighbour stands in the list does not matter.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "crowd/crowd_phases.h"
#include "crowd_test_util.h"

#define TOUCHING 7u            // touching neighbours: one more than the knot has room for
#define AGENTS (TOUCHING + 2u) // the holder, the touching ones, the crowding one
#define PI_F 3.14159265f

/// Holder 0 at (15, 15) with a crowding neighbour's target 0.5 m east of
/// its own (0.4 m bodies: crowding below 0.6 m) and TOUCHING neighbours'
/// targets 0.75 m from it (touching below 0.8 m) on the eastern half
/// circle, all arrived and standing on their targets; holder 0's
/// neighbour list has the crowding one at `crowding_at` (0: first,
/// TOUCHING: last). Returns whether it shares a spot, the spot in *spot.
static bool holder_spot(wf_mesh* mesh, uint32_t crowding_at, wf_vec3* spot) {
    wf_crowd_desc d = crowd_test_desc(mesh, AGENTS);
    d.max_neighbours = AGENTS - 1u;
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    wf_vec3 target[AGENTS];
    target[0] = wf_v3(15.0f, 0, 15.0f);
    target[1] = wf_v3(15.5f, 0, 15.0f); // crowds the holder's
    for (uint32_t k = 0; k < TOUCHING; ++k) {
        float a = PI_F * ((float)k / (float)(TOUCHING - 1u) - 0.5f);
        target[2u + k] = wf_v3(15.0f + 0.75f * cosf(a), 0, 15.0f + 0.75f * sinf(a));
    }
    for (uint32_t k = 0; k < AGENTS; ++k) {
        wf_agent_id id;
        assert_int_equal(wf_crowd_add_agent(c, target[k], &p, &id), WF_OK);
    }
    // Slots follow the order added (the crowd is new); the state the
    // knot reads: targets, arrival, the holder's neighbour list.
    uint32_t* list = c->neighbours;
    uint32_t next = 0;
    for (uint32_t k = 0; k < TOUCHING; ++k) {
        if (k == crowding_at) {
            list[next++] = 1u;
        }
        list[next++] = 2u + k;
    }
    if (crowding_at >= TOUCHING) {
        list[next++] = 1u;
    }
    assert_int_equal(next, AGENTS - 1u);
    c->neighbour_count[0] = (uint8_t)next;
    for (uint32_t k = 0; k < AGENTS; ++k) {
        assert_true(wf_v2_distance(c->pos[k], target[k]) < 1e-4f);
        c->target_pos[k] = target[k];
        c->target_state[k] = WF_TARGET_ARRIVED;
    }
    *spot = target[0];
    bool shared = wf_crowd_shared_spot(c, 0, spot);
    print_message("crowding neighbour at %u of %u in the list: %s (%.3f, %.3f)\n", crowding_at,
                  next, shared ? "shares" : "keeps its target", (double)spot->x, (double)spot->z);
    wf_crowd_destroy(c);
    return shared;
}

/// Read first or last, the crowding neighbour is in the knot: the holder's
/// spot moves west, away from it and from the touching ones (main kept the
/// raw target when it came last: every place was taken).
static void test_crowding_neighbour_read_after_touching_ones(void** state) {
    (void)state;
    wf_mesh* mesh = crowd_test_open_mesh();
    assert_non_null(mesh);
    float most = crowd_test_params().radius * WF_CROWD_SHARED_SPOT_MAX_RADII;
    wf_vec3 first, last;
    assert_true(holder_spot(mesh, 0, &first));
    assert_true(holder_spot(mesh, TOUCHING, &last));
    for (int k = 0; k < 2; ++k) {
        wf_vec3 s = k == 0 ? first : last;
        assert_true(s.x < 15.0f - 0.1f);
        assert_true(wf_v2_distance(s, wf_v3(15.0f, 0, 15.0f)) < most + 1e-3f);
    }
    // The same members (the last touching one left out) placed the same.
    assert_true(wf_v2_distance(first, last) < 1e-3f);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crowding_neighbour_read_after_touching_ones),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
