// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Fuzz target: a crowd save (wf_crowd_restore) into a new crowd with the
// seeds' capacities over the fixture level's navmesh. A save that loads
// runs a few updates (searches in progress were replayed by the load),
// reads every agent back and saves again.
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

static wf_mesh* g_mesh;

static void run(const unsigned char* p, size_t size) {
    wf_crowd_desc d = fuzz_crowd_desc();
    d.mesh = g_mesh;
    wf_crowd* crowd = NULL;
    FUZZ_REQUIRE(wf_crowd_create(&d, &crowd) == WF_OK);
    wf_status s = wf_crowd_restore(crowd, p, size);
    if (s != WF_OK) {
        FUZZ_REQUIRE(s == WF_ERR_BAD_DATA || s == WF_ERR_VERSION || s == WF_ERR_CAPACITY);
        FUZZ_REQUIRE(wf_crowd_agent_count(crowd) == 0); // unchanged on failure
    } else {
        for (int i = 0; i < 4; ++i) {
            wf_crowd_profile profile;
            FUZZ_REQUIRE(wf_crowd_update(crowd, 1.0f / 30.0f, &profile) == WF_OK);
        }
        wf_agent_id ids[8];
        uint32_t n = wf_crowd_get_agents(crowd, ids, 8);
        for (uint32_t i = 0; i < n && i < 8; ++i) {
            wf_agent_state state;
            FUZZ_REQUIRE(wf_crowd_get_agent(crowd, ids[i], &state) == WF_OK);
        }
        size_t saved_size = 0;
        FUZZ_REQUIRE(wf_crowd_save_size(crowd, &saved_size) == WF_OK);
        unsigned char* saved = malloc(saved_size);
        FUZZ_REQUIRE(saved != NULL);
        FUZZ_REQUIRE(wf_crowd_save(crowd, saved, saved_size) == WF_OK);
        free(saved);
    }
    wf_crowd_destroy(crowd);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (g_mesh == NULL) {
        g_mesh = fuzz_level_mesh();
        FUZZ_REQUIRE(g_mesh != NULL);
    }
    unsigned char* p = fuzz_copy(data, size);
    run(p, size);
    fuzz_fix_crowd_save(p, size);
    if (size > 0 && memcmp(p, data, size) != 0) {
        run(p, size);
    }
    free(p);
    return 0;
}
