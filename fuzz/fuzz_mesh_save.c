// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Fuzz target: a whole-mesh save (wf_mesh_load, with a bound on the tile
// slots it may allocate), then queries on the mesh it loads.
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

/// The most tile slots a loaded mesh may have (wf_mesh_desc.max_tiles).
#define MAX_TILES 4096u

static void run(const unsigned char* p, size_t size, uint64_t seed) {
    wf_mesh_desc d;
    memset(&d, 0, sizeof d);
    d.logger = fuzz_logger();
    d.max_tiles = MAX_TILES; // as a game loading saves from outside does
    wf_mesh* mesh = NULL;
    wf_status s = wf_mesh_load(&d, p, size, &mesh);
    if (s != WF_OK) {
        FUZZ_REQUIRE(fuzz_is_rejection(s));
        FUZZ_REQUIRE(mesh == NULL);
        return;
    }
    FUZZ_REQUIRE(mesh != NULL);
    fuzz_exercise_mesh(mesh, seed);
    wf_mesh_destroy(mesh);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    uint64_t seed = fuzz_seed(data, size);
    unsigned char* p = fuzz_copy(data, size);
    run(p, size, seed);
    fuzz_fix_mesh_save(p, size);
    if (size > 0 && memcmp(p, data, size) != 0) {
        run(p, size, seed);
    }
    free(p);
    return 0;
}
