// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Fuzz target: Moving AI .map text (wf_grid_load_movingai). A grid that
// loads and is small (at most 32 x 32 cells) is also built into a tile
// cache and a navmesh, which is then queried.
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

#define MAX_BUILD_SIDE 32u

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    char* text = (char*)fuzz_copy(data, size);
    wf_geom_load_desc d;
    memset(&d, 0, sizeof d);
    d.logger = fuzz_logger();
    wf_grid_data* g = (wf_grid_data*)&d;
    wf_status s = wf_grid_load_movingai(text, size, 0.5f, &d, &g);
    if (s != WF_OK) {
        FUZZ_REQUIRE(s == WF_ERR_BAD_DATA || s == WF_ERR_OUT_OF_MEMORY);
        FUZZ_REQUIRE(g == NULL);
        free(text);
        return 0;
    }
    FUZZ_REQUIRE(g != NULL);
    wf_grid grid = wf_grid_data_view(g);
    FUZZ_REQUIRE(grid.width >= 1 && grid.depth >= 1 && grid.walkable != NULL);
    if (grid.width <= MAX_BUILD_SIDE && grid.depth <= MAX_BUILD_SIDE) {
        wf_tilecache_desc td;
        memset(&td, 0, sizeof td);
        td.params = fuzz_level_params();
        td.logger = fuzz_logger();
        wf_tilecache* tc = NULL;
        if (wf_tilecache_create(&td, &tc) == WF_OK) {
            s = wf_tilecache_build_grid(tc, grid);
            FUZZ_REQUIRE(s == WF_OK || s == WF_ERR_OUT_OF_MEMORY || s == WF_ERR_CAPACITY);
            wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
            md.logger = fuzz_logger();
            wf_mesh* mesh = NULL;
            if (s == WF_OK && wf_mesh_create(&md, &mesh) == WF_OK) {
                s = wf_tilecache_build_navmesh(tc, mesh);
                FUZZ_REQUIRE(wf_succeeded(s) || fuzz_is_rejection(s));
                fuzz_exercise_mesh(mesh, fuzz_seed(data, size));
                wf_mesh_destroy(mesh);
            }
            wf_tilecache_destroy(tc);
        }
    }
    wf_grid_data_destroy(g);
    free(text);
    return 0;
}
