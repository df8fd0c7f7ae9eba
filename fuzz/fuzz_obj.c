// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Fuzz target: Wavefront OBJ text (wf_geom_load_obj). A mesh that loads
// with at most 2048 triangles is also built into a tile cache and a
// navmesh, which is then queried. The input picks the cell and tile size
// (from 1 cm cells of 1-cell tiles to 1e20 m cells of 255) and any extent
// is built: the desc's build limits, set small here, must refuse what
// would be too much (WF_ERR_CAPACITY) before the work, so a run stays fast.
// Most inputs load with an area name table (usemtl/g names), some with
// unknown names refused, and build with a convex volume and area flags.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

#define MAX_BUILD_TRIS 2048u

static const float g_cell_sizes[] = {0.0f, 0.01f, 0.3f, 1.0f, 7.0f, 100.0f, 1e4f, 1e20f};
static const uint32_t g_tile_sizes[] = {16, 1, 8, 48, 255};

static const wf_area_name g_area_names[] = {
    {"water", 1, 2}, {"road", 2, 4}, {"floor", 0, 1}, {"ramp", 3, 8}, {"box", 63, 0xffff},
};
#define AREA_NAME_COUNT ((uint32_t)(sizeof g_area_names / sizeof g_area_names[0]))
static const wf_vec3 g_volume_outline[4] = {{-1, 0, -1}, {-1, 0, 3}, {3, 0, 3}, {3, 0, -1}};

static void build_and_query(const wf_geom_data* g, uint64_t seed) {
    wf_geom view = wf_geom_data_view(g);
    if (view.tri_count == 0 || view.tri_count > MAX_BUILD_TRIS) {
        return;
    }
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = fuzz_level_params();
    float cs = g_cell_sizes[seed % (sizeof g_cell_sizes / sizeof g_cell_sizes[0])];
    if (cs > 0.0f) { // 0: the level's own
        d.params.cell_size = cs;
        d.params.cell_height = cs < 1.0f ? d.params.cell_height : cs;
        d.params.agent_radius = cs < 1.0f ? d.params.agent_radius : 0.0f;
    }
    d.params.tile_size = g_tile_sizes[(seed >> 8) % (sizeof g_tile_sizes / sizeof g_tile_sizes[0])];
    // Small limits: a few hundred milliseconds of build at most.
    d.max_tiles = 256;
    d.max_cells = (uint64_t)1 << 20;
    d.max_triangle_refs = 1u << 14;
    d.max_navmesh_bytes = (uint64_t)4 << 20;
    d.logger = fuzz_logger();
    FUZZ_REQUIRE(wf_tilecache_params_set_areas(&d.params, g_area_names, AREA_NAME_COUNT, NULL) ==
                 WF_OK);
    for (uint32_t i = 0; view.tri_areas != NULL && i < view.tri_count; ++i) {
        FUZZ_REQUIRE(view.tri_areas[i] < WF_MAX_AREAS);
    }
    wf_tilecache* tc = NULL;
    if (wf_tilecache_create(&d, &tc) != WF_OK) {
        return;
    }
    wf_vec3 lo, hi;
    wf_tilecache_build_plan plan;
    if (wf_geom_bounds(&view, &lo, &hi)) {
        wf_status p = wf_tilecache_plan_build(tc, lo, hi, &plan);
        FUZZ_REQUIRE(p == WF_OK || p == WF_ERR_CAPACITY || p == WF_ERR_INVALID_ARG);
    }
    const wf_convex_volume volume = {g_volume_outline, 4, -1.0f, 2.0f, 5};
    wf_status s = wf_tilecache_build_geom(tc, view, &volume, (seed >> 16) & 1u);
    FUZZ_REQUIRE(s == WF_OK || s == WF_ERR_OUT_OF_MEMORY || s == WF_ERR_CAPACITY ||
                 s == WF_ERR_INVALID_ARG);
    if (s == WF_OK) {
        wf_tilecache_stats st = wf_tilecache_get_stats(tc);
        FUZZ_REQUIRE(st.build_cells <= d.max_cells && st.triangle_refs <= d.max_triangle_refs);
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
    uint64_t seed = fuzz_seed(data, size);
    if (seed % 4u != 0) { // three in four loads map names to areas
        d.area_names = g_area_names;
        d.area_name_count = AREA_NAME_COUNT;
        d.reject_unknown_names = seed % 4u == 3;
    }
    wf_geom_data* g = (wf_geom_data*)&d; // must be cleared on failure
    wf_status s = wf_geom_load_obj(text, size, &d, &g);
    if (s == WF_OK) {
        FUZZ_REQUIRE(g != NULL);
        wf_geom v = wf_geom_data_view(g);
        FUZZ_REQUIRE(d.area_name_count == 0 ? v.tri_areas == NULL
                                            : (v.tri_areas != NULL) == (v.tri_count > 0));
        build_and_query(g, fuzz_seed(data, size));
        wf_geom_data_destroy(g);
    } else {
        FUZZ_REQUIRE(s == WF_ERR_BAD_DATA || s == WF_ERR_OUT_OF_MEMORY);
        FUZZ_REQUIRE(g == NULL);
    }
    free(text);
    return 0;
}
