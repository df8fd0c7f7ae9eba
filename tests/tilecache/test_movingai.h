// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Moving AI scenario files and maps for the tile cache's path tests
// (include after cmocka.h and test_files.h): the rows of a .scen, the map
// built into a navmesh the way `wayfarer scen --map` builds it, and a whole
// scenario run's setup (map, rows, query and path buffers).
#ifndef WF_TESTS_TILECACHE_TEST_MOVINGAI_H
#define WF_TESTS_TILECACHE_TEST_MOVINGAI_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wayfarer/navmesh.h"
#include "wayfarer/query.h"
#include "wayfarer/tilecache.h"

typedef struct scen_row {
    double sx, sz, gx, gz, octile;
} scen_row;

/// Rows: bucket map width height start_x start_y goal_x goal_y optimal.
static inline size_t parse_scen(char* text, scen_row** out) {
    size_t cap = 64, n = 0;
    scen_row* rows = malloc(cap * sizeof *rows);
    for (char* line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        unsigned bucket, w, h;
        char map[256];
        scen_row r;
        if (sscanf(line, "%u %255s %u %u %lf %lf %lf %lf %lf", &bucket, map, &w, &h, &r.sx, &r.sz,
                   &r.gx, &r.gz, &r.octile) != 9) {
            continue; // the version line
        }
        if (n == cap) {
            cap *= 2;
            rows = realloc(rows, cap * sizeof *rows);
        }
        rows[n++] = r;
    }
    *out = rows;
    return n;
}

/// Builds the map as the tool's `scen --map` does: cells of 1 m, radius 0,
/// tiles of `tile_size` cells, no region dropped or merged, contours within
/// half a cell of the grid.
static inline wf_mesh* build_map(const char* path, int tile_size) {
    size_t size = 0;
    char* text = test_read_file(path, &size);
    if (text == NULL) {
        return NULL;
    }
    wf_grid_data* grid = NULL;
    assert_int_equal(wf_grid_load_movingai(text, size, 1.0f, &(wf_geom_load_desc){0}, &grid),
                     WF_OK);
    free(text);
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = wf_tilecache_params_recast_demo();
    d.params.cell_size = 1.0f;
    d.params.agent_radius = 0.0f;
    d.params.tile_size = tile_size;
    d.params.min_region_area = 0;
    d.params.merge_region_area = 0;
    d.params.max_edge_length = 0.0f;
    d.params.max_simplification_error = 0.5f;
    wf_tilecache* tc = NULL;
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    assert_int_equal(wf_tilecache_build_grid(tc, wf_grid_data_view(grid)), WF_OK);
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    assert_true(wf_succeeded(wf_tilecache_build_navmesh(tc, mesh)));
    // The mesh owns its tiles: the cache may go first.
    wf_tilecache_destroy(tc);
    wf_grid_data_destroy(grid);
    return mesh;
}

#define MOVINGAI_DIR WF_TESTDATA_DIR "/movingai"
#define MOVINGAI_MAX_NODES 65536u
#define MOVINGAI_MAX_CORRIDOR 65536u
#define MOVINGAI_MAX_STRAIGHT 1024u

/// One map's scenarios ready to search: its mesh, rows, a query and buffers
/// for a corridor and a straight path.
typedef struct movingai_run {
    char* scen; ///< the .scen file (parse_scen has cut it into lines)
    scen_row* rows;
    size_t count;
    wf_mesh* mesh;
    wf_query* query;
    wf_poly_ref* corridor;     ///< MOVINGAI_MAX_CORRIDOR refs
    wf_straight_point* points; ///< MOVINGAI_MAX_STRAIGHT points
} movingai_run;

/// Reads the map `name` (e.g. "dao/arena") and its .scen under
/// MOVINGAI_DIR, builds the mesh (tiles of `tile_size` cells) and a query
/// on it; skips the test when the data is absent. Every map here has more
/// than 100 rows.
static inline void movingai_open_tiles(movingai_run* run, const char* name, int tile_size) {
    char map_path[512], scen_path[512];
    snprintf(map_path, sizeof map_path, "%s/maps/%s.map", MOVINGAI_DIR, name);
    snprintf(scen_path, sizeof scen_path, "%s/scenarios/%s.map.scen", MOVINGAI_DIR, name);
    memset(run, 0, sizeof *run);
    size_t size = 0;
    run->scen = test_read_file(scen_path, &size);
    run->mesh = run->scen != NULL ? build_map(map_path, tile_size) : NULL;
    if (run->mesh == NULL) {
        free(run->scen);
        skip();
    }
    run->count = parse_scen(run->scen, &run->rows);
    assert_true(run->count > 100);
    assert_int_equal(
        wf_query_create(&(wf_query_desc){.mesh = run->mesh, .max_nodes = MOVINGAI_MAX_NODES},
                        &run->query),
        WF_OK);
    run->corridor = malloc(MOVINGAI_MAX_CORRIDOR * sizeof *run->corridor);
    run->points = malloc(MOVINGAI_MAX_STRAIGHT * sizeof *run->points);
}

/// movingai_open with tiles of 64 cells (the tool's default).
static inline void movingai_open(movingai_run* run, const char* name) {
    movingai_open_tiles(run, name, 64);
}

/// Straight-path length (XZ) from start to goal in the filter's mode,
/// using the run's corridor and point buffers; -1 when no path is found.
static inline double movingai_path_length(movingai_run* run, wf_poly_ref start, wf_poly_ref goal,
                                          wf_vec3 sp, wf_vec3 gp, const wf_query_filter* filter) {
    wf_path_result pr = {0, 0, 0.0f};
    uint32_t n = 0;
    if (wf_query_find_path(run->query, start, goal, sp, gp, filter, run->corridor,
                           MOVINGAI_MAX_CORRIDOR, &pr) != WF_OK ||
        wf_query_find_straight_path(run->query, sp, gp, run->corridor, pr.count, run->points,
                                    MOVINGAI_MAX_STRAIGHT, 0, &n) != WF_OK) {
        return -1.0;
    }
    double length = 0.0;
    for (uint32_t k = 1; k < n; ++k) {
        length += wf_v2_distance(run->points[k - 1].pos, run->points[k].pos);
    }
    return length;
}

/// The path length of one scenario row in the filter's mode, or -1 when its
/// ends are off the mesh or no path is found. Scenario points are cells; the
/// grid build puts cell (x, z) at [x, x + 1) x [z, z + 1), so its centre is
/// (x + 0.5, z + 0.5).
static inline double movingai_row_length(movingai_run* run, const scen_row* r,
                                         const wf_query_filter* filter) {
    const wf_vec3 half = wf_v3(0.5f, 1.0f, 0.5f);
    wf_vec3 a = wf_v3((float)r->sx + 0.5f, 0.0f, (float)r->sz + 0.5f);
    wf_vec3 b = wf_v3((float)r->gx + 0.5f, 0.0f, (float)r->gz + 0.5f);
    wf_poly_ref start, goal;
    wf_vec3 sp, gp;
    if (wf_query_find_nearest_poly(run->query, a, half, filter, &start, &sp) != WF_OK ||
        wf_query_find_nearest_poly(run->query, b, half, filter, &goal, &gp) != WF_OK) {
        return -1.0;
    }
    return movingai_path_length(run, start, goal, sp, gp, filter);
}

static inline void movingai_close(movingai_run* run) {
    free(run->corridor);
    free(run->points);
    wf_query_destroy(run->query);
    wf_mesh_destroy(run->mesh);
    free(run->rows);
    free(run->scen);
}

#endif
