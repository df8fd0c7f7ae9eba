// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Fuzz target: a world save (wf_world_restore) into a world made from the
// fixture level (the crowd capacities the seeds were saved with). A save
// that restores runs a few steps; then the world's first state is restored
// again, so every input starts from the same world.
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

static wf_world* g_world;
static unsigned char* g_initial;
static size_t g_initial_size;

static void setup(void) {
    g_world = fuzz_level_world();
    FUZZ_REQUIRE(g_world != NULL);
    FUZZ_REQUIRE(wf_world_save_size(g_world, &g_initial_size) == WF_OK);
    g_initial = malloc(g_initial_size);
    FUZZ_REQUIRE(g_initial != NULL);
    FUZZ_REQUIRE(wf_world_save(g_world, g_initial, g_initial_size) == WF_OK);
}

static void run(const unsigned char* p, size_t size) {
    wf_status s = wf_world_restore(g_world, p, size);
    if (s != WF_OK) {
        FUZZ_REQUIRE(fuzz_is_rejection(s));
        return;
    }
    for (int i = 0; i < 4; ++i) {
        wf_world_report report;
        s = wf_world_step(g_world, 1.0f / 30.0f, NULL, &report);
        FUZZ_REQUIRE(wf_succeeded(s) || fuzz_is_rejection(s));
    }
    size_t saved = 0;
    FUZZ_REQUIRE(wf_world_save_size(g_world, &saved) == WF_OK);
    FUZZ_REQUIRE(wf_world_restore(g_world, g_initial, g_initial_size) == WF_OK);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (g_world == NULL) {
        setup();
    }
    unsigned char* p = fuzz_copy(data, size);
    run(p, size);
    fuzz_fix_world_save(p, size);
    if (size > 0 && memcmp(p, data, size) != 0) {
        run(p, size);
    }
    free(p);
    return 0;
}
