// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The Recast demo levels (../shared/testdata/recast) built with the demo
// settings, next to the counts the original Recast gives (printed side by
// side; asserted within bounds argued below, not equal: ours is our own
// code), and Detour's reference paths on the dungeon. Skips without data.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_files.h"
#include "wayfarer/query.h"
#include "wayfarer/tilecache.h"

#define RECAST_DIR WF_TESTDATA_DIR "/recast"
#define MAX_PATH_POLYS 1024u
#define MAX_STRAIGHT 256u

typedef struct level {
    wf_geom_data* geom;
    wf_tilecache* tc;
    wf_mesh* mesh;
    wf_vec3 bmin, bmax; ///< the mesh's bounds
} level;

static bool load_level(const char* name, uint32_t tile_size, level* out) {
    memset(out, 0, sizeof *out);
    char path[512];
    snprintf(path, sizeof path, "%s/meshes/%s", RECAST_DIR, name);
    size_t size = 0;
    char* text = test_read_file(path, &size);
    if (text == NULL) {
        return false;
    }
    assert_int_equal(wf_geom_load_obj(text, size, &(wf_geom_load_desc){0}, &out->geom), WF_OK);
    free(text);
    wf_geom g = wf_geom_data_view(out->geom);
    assert_true(wf_geom_bounds(&g, &out->bmin, &out->bmax));
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = wf_tilecache_params_recast_demo();
    d.params.tile_size = tile_size;
    assert_int_equal(wf_tilecache_create(&d, &out->tc), WF_OK);
    assert_int_equal(wf_tilecache_build_geom(out->tc, g, NULL, 0), WF_OK);
    wf_mesh_desc md = wf_tilecache_mesh_desc(out->tc);
    assert_int_equal(wf_mesh_create(&md, &out->mesh), WF_OK);
    assert_true(wf_succeeded(wf_tilecache_build_navmesh(out->tc, out->mesh)));
    return true;
}

static void free_level(level* l) {
    wf_mesh_destroy(l->mesh);
    wf_tilecache_destroy(l->tc);
    wf_geom_data_destroy(l->geom);
}

/// Polygons of every tile (all layers) at grid cell (x, z).
static uint32_t polys_in_cell(const wf_mesh* mesh, int32_t x, int32_t z) {
    uint32_t n = 0;
    for (int32_t layer = 0; layer < (int32_t)WF_MAX_LAYERS_PER_CELL; ++layer) {
        wf_tile_ref t;
        wf_tile_info info;
        if (wf_mesh_find_tile(mesh, x, z, layer, &t) == WF_OK &&
            wf_mesh_get_tile_info(mesh, t, &info) == WF_OK) {
            n += info.poly_count;
        }
    }
    return n;
}

/* ---------------------------------------------------------------------------
 * Layers of single tiles against recast_layers_full.txt
 */

/// Walkable cells per layer of one tile in recast_layers_full.txt (cells
/// whose height is not 255); returns the layer count, 0 if not found.
static uint32_t recast_layer_cells(const char* text, const char* mesh, int tx, int tz,
                                   uint32_t* cells, uint32_t max) {
    char key[128];
    snprintf(key, sizeof key, "%s\ttile=%d,%d\t", mesh, tx, tz);
    const char* at = strstr(text, key);
    if (at == NULL) {
        return 0;
    }
    unsigned layers = 0;
    const char* n = strstr(at, "nlayers=");
    assert_non_null(n);
    assert_int_equal(sscanf(n, "nlayers=%u", &layers), 1);
    assert_true(layers <= max);
    for (uint32_t l = 0; l < layers; ++l) {
        char name[32];
        snprintf(name, sizeof name, "  layer%u ", l);
        const char* layer = strstr(at, name);
        assert_non_null(layer);
        // The heights block: a "heights" line, then 48 rows of 48 numbers.
        const char* p = strchr(strstr(layer, "  heights "), '\n') + 1;
        cells[l] = 0;
        for (int i = 0; i < 48 * 48; ++i) {
            char* end = NULL;
            long h = strtol(p, &end, 10);
            assert_true(end != p);
            cells[l] += h != 255;
            p = end;
        }
    }
    return layers;
}

static void test_layers_against_recast(void** state) {
    (void)state;
    size_t size = 0;
    char* text = test_read_file(RECAST_DIR "/expected/recast_layers_full.txt", &size);
    if (text == NULL) {
        skip();
    }
    static const struct {
        const char* mesh;
        int tx, tz;
    } tiles[] = {{"dungeon.obj", 3, 2}, {"nav_test.obj", 3, 2}, {"nav_test.obj", 2, 4}};
    for (size_t t = 0; t < sizeof tiles / sizeof tiles[0]; ++t) {
        level l;
        if (!load_level(tiles[t].mesh, 48, &l)) {
            free(text);
            skip();
        }
        uint32_t theirs[8], ours[8], their_count, our_count = 0, their_total = 0, our_total = 0;
        their_count = recast_layer_cells(text, tiles[t].mesh, tiles[t].tx, tiles[t].tz, theirs, 8);
        assert_true(their_count > 0);
        for (uint32_t i = 0; i < wf_tilecache_layer_count(l.tc); ++i) {
            wf_tilecache_layer_info info;
            assert_int_equal(wf_tilecache_get_layer_info(l.tc, i, &info), WF_OK);
            if (info.tile_x == tiles[t].tx && info.tile_z == tiles[t].tz) {
                assert_true(our_count < 8);
                ours[our_count++] = info.walkable_cells;
                our_total += info.walkable_cells;
            }
        }
        print_message("%s tile (%d, %d): Recast %u layers, ours %u; walkable cells per layer:",
                      tiles[t].mesh, tiles[t].tx, tiles[t].tz, their_count, our_count);
        for (uint32_t i = 0; i < their_count || i < our_count; ++i) {
            print_message(" [%u] %d / %d", i, i < their_count ? (int)theirs[i] : -1,
                          i < our_count ? (int)ours[i] : -1);
            their_total += i < their_count ? theirs[i] : 0;
        }
        print_message("\n");
        // The same floors: the layer split is the same idea (no vertical
        // overlap, as few layers as possible), so the count matches.
        assert_int_equal(our_count, their_count);
        // Same voxel rules (conservative rasterization, the three filters,
        // erosion by 2 cells), so the walkable cells can differ only where
        // rounding at edges and corners goes the other way: a thin band
        // along the outlines, a few percent of a 48 x 48 tile's area.
        double diff = fabs((double)our_total - (double)their_total);
        assert_true(diff <= 0.05 * (double)their_total + 16.0);
        free_level(&l);
    }
    free(text);
}

/* ---------------------------------------------------------------------------
 * Every level, against recast_solo_counts.tsv
 */

/// Grid size and the fewest / most polygons of the Recast solo builds
/// (three partitions) of one mesh.
static bool recast_solo(const char* text, const char* mesh, uint32_t* grid_w, uint32_t* grid_h,
                        uint32_t* min_polys, uint32_t* max_polys) {
    *min_polys = UINT32_MAX;
    *max_polys = 0;
    size_t len = strlen(mesh);
    for (const char* line = text; line != NULL && *line != '\0';) {
        if (strncmp(line, mesh, len) == 0 && line[len] == '\t') {
            char partition[32];
            unsigned w, h, dist, regions, contours, verts, polys;
            assert_int_equal(sscanf(line + len, "%31s %u %u %u %u %u %u %u", partition, &w, &h,
                                    &dist, &regions, &contours, &verts, &polys),
                             8);
            *grid_w = w;
            *grid_h = h;
            *min_polys = polys < *min_polys ? polys : *min_polys;
            *max_polys = polys > *max_polys ? polys : *max_polys;
        }
        line = strchr(line, '\n');
        line = line != NULL ? line + 1 : NULL;
    }
    return *max_polys > 0;
}

static void test_every_level_builds(void** state) {
    (void)state;
    size_t size = 0;
    char* text = test_read_file(RECAST_DIR "/expected/recast_solo_counts.tsv", &size);
    if (text == NULL) {
        skip();
    }
    static const char* const meshes[] = {"dungeon.obj", "nav_test.obj", "house.obj",
                                         "bridge.obj",  "convex.obj",   "undulating.obj"};
    for (size_t m = 0; m < sizeof meshes / sizeof meshes[0]; ++m) {
        level l;
        if (!load_level(meshes[m], 48, &l)) {
            free(text);
            skip();
        }
        uint32_t gw = 0, gh = 0, min_polys = 0, max_polys = 0;
        assert_true(recast_solo(text, meshes[m], &gw, &gh, &min_polys, &max_polys));
        wf_tilecache_stats st = wf_tilecache_get_stats(l.tc);
        wf_mesh_stats ms = wf_mesh_get_stats(l.mesh);
        print_message("%-15s grid %ux%u: %u tiles, %u layers, walkable %.1f m2, %llu -> %llu "
                      "bytes; polys ours %u (%u tiles), Recast solo %u..%u\n",
                      meshes[m], gw, gh, st.tile_count, st.layer_count, st.walkable_area,
                      (unsigned long long)st.raw_bytes, (unsigned long long)st.compressed_bytes,
                      ms.poly_count, ms.tile_count, min_polys, max_polys);
        // Our tiles cover Recast's grid: tile (x, z) starts 48 x, 48 z
        // cells from the mesh's minimum corner.
        for (uint32_t i = 0; i < st.layer_count; ++i) {
            wf_tilecache_layer_info info;
            assert_int_equal(wf_tilecache_get_layer_info(l.tc, i, &info), WF_OK);
            assert_true(info.tile_x >= 0 && (uint32_t)info.tile_x * 48u < gw);
            assert_true(info.tile_z >= 0 && (uint32_t)info.tile_z * 48u < gh);
        }
        // The walkable area lies inside the level's footprint.
        assert_true(st.walkable_area > 0.0 && st.walkable_area <= (double)gw * gh * 0.09);
        // Polygons: a solo build has no tile edges; ours cuts polygons at
        // every tile edge they cross (42 tiles for the dungeon), which can
        // add up to a few per tile edge, and simplification and region
        // rules differ. Bounds: not fewer than half of Recast's fewest, not
        // more than 3 times its most plus 4 per tile.
        assert_true(ms.poly_count * 2 >= min_polys);
        assert_true(ms.poly_count <= 3 * max_polys + 4 * ms.tile_count);
        free_level(&l);
    }
    free(text);
}

/// recast_tile_counts.tsv: the dungeon in tiles of 32 cells (watershed).
static void test_dungeon_tile_counts(void** state) {
    (void)state;
    size_t size = 0;
    char* text = test_read_file(RECAST_DIR "/expected/recast_tile_counts.tsv", &size);
    level l;
    if (text == NULL || !load_level("dungeon.obj", 32, &l)) {
        free(text);
        skip();
    }
    uint32_t rows = 0;
    for (const char* line = text; line != NULL && *line != '\0';) {
        int tx, tz;
        unsigned polys, verts;
        if (sscanf(line, "dungeon.obj %d %d %u %u", &tx, &tz, &polys, &verts) == 4) {
            uint32_t ours = polys_in_cell(l.mesh, tx, tz);
            print_message("dungeon tile (%d, %d) of 32 cells: polys Recast %u, ours %u\n", tx, tz,
                          polys, ours);
            // Same walkable cells; the partition differs (watershed blobs
            // against our regions), which changes how the same area is cut
            // into convex pieces, not whether the tile has any.
            assert_true(ours >= 1);
            assert_true(ours <= 3 * polys + 3 && 3 * ours + 3 >= polys);
            rows++;
        }
        line = strchr(line, '\n');
        line = line != NULL ? line + 1 : NULL;
    }
    assert_int_equal(rows, 6);
    free_level(&l);
    free(text);
}

/* ---------------------------------------------------------------------------
 * Detour's reference paths on the dungeon
 */

typedef struct reference_query {
    wf_vec3 start, end;
    int partial;
    double length;
} reference_query;

static uint32_t parse_queries(const char* text, reference_query* out, uint32_t max) {
    uint32_t n = 0;
    for (const char* line = text; line != NULL && *line != '\0' && n < max;) {
        unsigned index, start_poly, end_poly, npolys, nstraight;
        reference_query* q = &out[n];
        if (sscanf(line,
                   "query %u start=(%f %f %f) end=(%f %f %f) startPoly=%u endPoly=%u partial=%d "
                   "npolys=%u nstraight=%u length=%lf",
                   &index, &q->start.x, &q->start.y, &q->start.z, &q->end.x, &q->end.y, &q->end.z,
                   &start_poly, &end_poly, &q->partial, &npolys, &nstraight, &q->length) == 13) {
            n++;
        }
        line = strchr(line, '\n');
        line = line != NULL ? line + 1 : NULL;
    }
    return n;
}

static void test_reference_paths(void** state) {
    (void)state;
    size_t size = 0;
    char* text = test_read_file(RECAST_DIR "/expected/detour_findpath_dungeon.txt", &size);
    level l;
    if (text == NULL || !load_level("dungeon.obj", 48, &l)) {
        free(text);
        skip();
    }
    reference_query queries[8];
    uint32_t count = parse_queries(text, queries, 8);
    assert_int_equal(count, 5);
    wf_query* q = NULL;
    assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = l.mesh, .max_nodes = 4096}, &q),
                     WF_OK);
    wf_query_filter filter = wf_query_filter_defaults();
    wf_poly_ref* path = malloc(MAX_PATH_POLYS * sizeof *path);
    wf_straight_point* points = malloc(MAX_STRAIGHT * sizeof *points);
    for (uint32_t i = 0; i < count; ++i) {
        const reference_query* r = &queries[i];
        const wf_vec3 half = wf_v3(2.0f, 4.0f, 2.0f);
        wf_poly_ref start, end;
        wf_vec3 sp, ep;
        assert_int_equal(wf_query_find_nearest_poly(q, r->start, half, &filter, &start, &sp),
                         WF_OK);
        assert_int_equal(wf_query_find_nearest_poly(q, r->end, half, &filter, &end, &ep), WF_OK);
        wf_path_result pr;
        wf_status s = wf_query_find_path(q, start, end, sp, ep, &filter, path, MAX_PATH_POLYS, &pr);
        uint32_t n = 0;
        // A partial path ends at the polygon nearest the goal: string-pull
        // to the closest point on it, as Detour does.
        wf_vec3 goal = ep;
        if (s == WF_PARTIAL) {
            assert_int_equal(wf_query_closest_point_on_poly(q, path[pr.count - 1], ep, &goal, NULL),
                             WF_OK);
        }
        assert_int_equal(
            wf_query_find_straight_path(q, sp, goal, path, pr.count, points, MAX_STRAIGHT, 0, &n),
            WF_OK);
        double length = 0.0;
        for (uint32_t k = 1; k < n; ++k) {
            length += wf_v3_distance(points[k - 1].pos, points[k].pos);
        }
        print_message("dungeon query %u: %s, %u polys, %u corners, length %.3f (Detour %.3f%s)\n",
                      i, s == WF_OK ? "found" : "partial", pr.count, n, length, r->length,
                      r->partial ? ", partial" : "");
        assert_int_equal(s, r->partial ? WF_PARTIAL : WF_OK);
        // The same corridors through the same rooms: corners sit on the
        // eroded walls, which both builds place to within a cell or so, so
        // lengths agree to a few percent.
        assert_true(fabs(length - r->length) <= 0.05 * r->length);
    }
    free(path);
    free(points);
    wf_query_destroy(q);
    free_level(&l);
    free(text);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layers_against_recast),
        cmocka_unit_test(test_every_level_builds),
        cmocka_unit_test(test_dungeon_tile_counts),
        cmocka_unit_test(test_reference_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
