// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Fuzz target: Wavefront OBJ text (wf_geom_load_obj). A mesh that loads and
// is small (at most 256 triangles inside 16 x 16 x 16 m) is also built into
// a tile cache and a navmesh, which is then queried.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

#define MAX_BUILD_TRIS 256u
#define MAX_BUILD_EXTENT 16.0f

static void build_and_query(const wf_geom_data* g, uint64_t seed) {
    wf_geom view = wf_geom_data_view(g);
    wf_vec3 lo, hi;
    if (view.tri_count == 0 || view.tri_count > MAX_BUILD_TRIS || !wf_geom_bounds(&view, &lo, &hi) ||
        !(hi.x - lo.x <= MAX_BUILD_EXTENT) || !(hi.y - lo.y <= MAX_BUILD_EXTENT) ||
        !(hi.z - lo.z <= MAX_BUILD_EXTENT)) {
        return;
    }
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = fuzz_level_params();
    d.logger = fuzz_logger();
    wf_tilecache* tc = NULL;
    if (wf_tilecache_create(&d, &tc) != WF_OK) {
        return;
    }
    wf_status s = wf_tilecache_build_geom(tc, view, NULL, 0);
    FUZZ_REQUIRE(s == WF_OK || s == WF_ERR_OUT_OF_MEMORY || s == WF_ERR_CAPACITY);
    if (s == WF_OK) {
        wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
        md.logger = fuzz_logger();
        wf_mesh* mesh = NULL;
        if (wf_mesh_create(&md, &mesh) == WF_OK) {
            s = wf_tilecache_build_navmesh(tc, mesh);
            FUZZ_REQUIRE(wf_succeeded(s) || fuzz_is_rejection(s));
            fuzz_exercise_mesh(mesh, seed);
            wf_mesh_destroy(mesh);
        }
    }
    wf_tilecache_destroy(tc);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    char* text = (char*)fuzz_copy(data, size); // exactly size bytes, no NUL after them
    wf_geom_load_desc d;
    memset(&d, 0, sizeof d);
    d.logger = fuzz_logger();
    wf_geom_data* g = (wf_geom_data*)&d; // must be cleared on failure
    wf_status s = wf_geom_load_obj(text, size, &d, &g);
    if (s == WF_OK) {
        FUZZ_REQUIRE(g != NULL);
        build_and_query(g, fuzz_seed(data, size));
        wf_geom_data_destroy(g);
    } else {
        FUZZ_REQUIRE(s == WF_ERR_BAD_DATA || s == WF_ERR_OUT_OF_MEMORY);
        FUZZ_REQUIRE(g == NULL);
    }
    free(text);
    return 0;
}
