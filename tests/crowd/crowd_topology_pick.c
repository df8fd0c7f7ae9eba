// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The topology pick serves agents held up in the open first (those whose
// local re-search prices crowding, wf_crowd_desc.stuck_crowding_cost): with
// more agents walking than the pick takes per half second, an agent boxed
// in by holders gets its re-search as soon as it is due, not after every
// free walker's turn; with the setting off it waits its turn by wait time
// alone. (Held-up agents with a single-file passage ahead are not served
// first: crowd_one_lane's two groups then met inside the lane, 4 of 20
// through instead of 18.)
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "crowd/crowd_internal.h" // topology and stuck timers of a slot
#include "crowd/crowd_tuning.h"   // WF_CROWD_STUCK_PRICE_TIME, WF_CROWD_TOPOLOGY_INTERVAL
#include "crowd_test_util.h"

#define DT (1.0f / 30.0f)
#define LANES 8u
#define PER_LANE 4u
#define WALKERS (LANES * PER_LANE)
#define RING 8u
#define FRAMES 150
#define WARM_UP 30 ///< frames the walkers take to get going (held up while they start)

typedef struct pick_wait {
    int held_due;    ///< updates the boxed agent began held up and due a re-search
    int researches;  ///< re-searches it got while held up
    int worst_wait;  ///< most updates it stayed held up and due without one
} pick_wait;

/// 32 walkers in eight free lanes across a 20 x 20 m floor, one re-search
/// per update (so each free walker's turn comes about once a second), and
/// one agent boxed in by eight holders at the middle with its goal outside
/// the ring. Counts, update by update, how long the boxed agent stays held
/// up and due without its re-search, from its first second on (starting
/// from rest, every walker counts as held up for a moment).
static pick_wait box_in(float stuck_cost) {
    wf_mesh* mesh = test_mesh_grid(2, 2, 10, 1.0f, NULL, NULL, NULL);
    assert_non_null(mesh);
    wf_crowd_desc d = crowd_test_desc(mesh, WALKERS + RING + 1u);
    d.max_topology_per_update = 1;
    d.stuck_crowding_cost = stuck_cost;
    wf_crowd* c = NULL;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    static const float lane_z[LANES] = {1.0f, 3.0f, 5.0f, 7.0f, 13.0f, 15.0f, 17.0f, 19.0f};
    for (uint32_t l = 0; l < LANES; ++l) {
        for (uint32_t k = 0; k < PER_LANE; ++k) {
            wf_agent_id id;
            assert_int_equal(wf_crowd_add_agent(c, wf_v3(0.5f + 1.5f * (float)k, 0.0f, lane_z[l]), &p, &id),
                             WF_OK);
            assert_int_equal(wf_crowd_request_move(c, id, wf_v3(19.5f, 0.0f, lane_z[l]), NULL, NULL),
                             WF_OK);
        }
    }
    wf_vec3 centre = wf_v3(10.0f, 0.0f, 10.0f);
    for (uint32_t k = 0; k < RING; ++k) {
        float a = 6.2831853f * (float)k / (float)RING;
        wf_vec3 spot = wf_v3(centre.x + 0.85f * cosf(a), 0.0f, centre.z + 0.85f * sinf(a));
        wf_agent_id id;
        assert_int_equal(wf_crowd_add_agent(c, spot, &p, &id), WF_OK);
        assert_int_equal(wf_crowd_request_move(c, id, spot, NULL, NULL), WF_OK);
    }
    wf_agent_id boxed;
    assert_int_equal(wf_crowd_add_agent(c, centre, &p, &boxed), WF_OK);
    assert_int_equal(wf_crowd_request_move(c, boxed, wf_v3(16.5f, 0.0f, 10.0f), NULL, NULL), WF_OK);
    uint32_t i = wf_id_pool_slot_of(&c->ids, boxed.bits);

    pick_wait w = {0, 0, 0};
    int waited = 0;
    for (int f = 0; f < FRAMES; ++f) {
        // Due at this update's pick: the update adds dt to the wait first.
        float before = c->topology_timer[i];
        float wait = before + DT;
        bool due = c->target_state[i] == WF_TARGET_VALID &&
                   c->stuck_timer[i] >= WF_CROWD_STUCK_PRICE_TIME &&
                   wait >= WF_CROWD_TOPOLOGY_INTERVAL;
        assert_int_equal(wf_crowd_update(c, DT, NULL), WF_OK);
        bool searched = c->topology_timer[i] < before;
        if (!due || f < WARM_UP) {
            waited = 0;
            continue;
        }
        w.held_due += waited == 0;
        if (searched) {
            w.researches++;
            waited = 0;
        } else {
            waited++;
            w.worst_wait = waited > w.worst_wait ? waited : w.worst_wait;
        }
    }
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
    return w;
}

static void test_held_up_agent_picked_when_due(void** state) {
    (void)state;
    pick_wait w = box_in(0.0f); // default stuck_crowding_cost (on)
    printf("on: held up and due %d times, %d re-searches, worst wait %d updates\n", w.held_due,
           w.researches, w.worst_wait);
    assert_true(w.researches >= 3); // it was held up long enough to be measured
    // Never more than the update it came due: the 32 free walkers wait.
    assert_int_equal(w.worst_wait, 0);
}

static void test_held_up_agent_waits_its_turn_when_off(void** state) {
    (void)state;
    pick_wait w = box_in(-1.0f); // stuck_crowding_cost off: wait time alone
    printf("off: held up and due %d times, %d re-searches, worst wait %d updates\n", w.held_due,
           w.researches, w.worst_wait);
    assert_true(w.held_due >= 1);
    assert_true(w.worst_wait >= 5); // the free walkers' turns come first
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_held_up_agent_picked_when_due),
        cmocka_unit_test(test_held_up_agent_waits_its_turn_when_off),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
