// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Fuzz target: Polyanya .mesh text (wf_mesh_import_polyanya). Imported as
// one tile; a mesh that imports is queried, then imported again cut into
// about 4 x 4 tiles (the clipping and stitching path) and queried again.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

static wf_status import(const char* text, size_t size, float tile_size, wf_mesh** out) {
    wf_polyanya_import_desc d;
    memset(&d, 0, sizeof d);
    d.tile_size = tile_size;
    d.logger = fuzz_logger();
    *out = NULL;
    wf_status s = wf_mesh_import_polyanya(&d, text, size, out);
    if (wf_succeeded(s)) {
        FUZZ_REQUIRE(s == WF_OK || s == WF_PARTIAL);
        FUZZ_REQUIRE(*out != NULL);
    } else {
        FUZZ_REQUIRE(fuzz_is_rejection(s));
        FUZZ_REQUIRE(*out == NULL);
    }
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    char* text = (char*)fuzz_copy(data, size);
    uint64_t seed = fuzz_seed(data, size);
    wf_mesh* mesh = NULL;
    if (wf_succeeded(import(text, size, 0.0f, &mesh))) {
        fuzz_exercise_mesh(mesh, seed);
        // One tile: its bounds are the mesh's.
        wf_tile_ref tile;
        wf_tile_info info;
        float tile_size = 0.0f;
        if (wf_mesh_get_tiles(mesh, &tile, 1) >= 1 &&
            wf_mesh_get_tile_info(mesh, tile, &info) == WF_OK) {
            float extent = fmaxf(info.bmax.x - info.bmin.x, info.bmax.z - info.bmin.z);
            tile_size = extent / 4.0f;
        }
        wf_mesh_destroy(mesh);
        if (isfinite(tile_size) && tile_size > 1e-3f) {
            if (wf_succeeded(import(text, size, tile_size, &mesh))) {
                fuzz_exercise_mesh(mesh, seed);
                wf_mesh_destroy(mesh);
            }
        }
    }
    free(text);
    return 0;
}
