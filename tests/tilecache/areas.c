// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Areas from the level: OBJ `usemtl`/`g` names mapped to area ids by a
// caller table, area flags in the tile cache params, convex volumes; then
// paths that area costs and flags steer, kept through save, load and
// obstacle rebuilds.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_hooks.h"
#include "wayfarer/query.h"
#include "wayfarer/tilecache.h"

typedef struct log_capture {
    char last_error[256];
    char last_warning[256];
    unsigned errors, warnings;
} log_capture;

static void capture(wf_log_level level, const char* message, void* user) {
    log_capture* c = user;
    if (level == WF_LOG_ERROR) {
        c->errors++;
        snprintf(c->last_error, sizeof c->last_error, "%s", message);
    } else if (level == WF_LOG_WARN) {
        c->warnings++;
        snprintf(c->last_warning, sizeof c->last_warning, "%s", message);
    }
}

enum { AREA_GROUND = 0, AREA_WATER = 1, AREA_ROAD = 2, AREA_MUD = 3 };
enum { FLAG_WALK = 1, FLAG_SWIM = 2, FLAG_ROAD = 4, FLAG_MUD = 8 };

static const wf_area_name k_names[] = {
    {"ground", AREA_GROUND, FLAG_WALK},
    {"water", AREA_WATER, FLAG_SWIM},
    {"road", AREA_ROAD, FLAG_ROAD},
    {"mud", AREA_MUD, FLAG_MUD},
};
#define NAME_COUNT ((uint32_t)(sizeof k_names / sizeof k_names[0]))

static wf_geom_load_desc load_desc(log_capture* c) {
    wf_geom_load_desc d;
    memset(&d, 0, sizeof d);
    d.logger.log = capture;
    d.logger.user = c;
    d.area_names = k_names;
    d.area_name_count = NAME_COUNT;
    return d;
}

static wf_status load(const char* text, const wf_geom_load_desc* d, wf_geom_data** out) {
    return wf_geom_load_obj(text, strlen(text), d, out);
}

/* ---------------------------------------------------------------------------
 * The loader
 */

static const char k_five_faces[] = "v 0 0 0\nv 0 0 1\nv 1 0 1\nv 1 0 0\n"
                                   "f 1 2 3\n"                 // no name yet: area 0
                                   "usemtl water\nf 1 2 3 4\n" // 2 triangles
                                   "g road other\nf 1 2 3\n"   // the material wins
                                   "usemtl\nf 1 2 3\n"         // no material: the group
                                   "g other mud\nf 1 3 4\n";   // first group with a row

static void test_materials_and_groups_pick_areas(void** state) {
    (void)state;
    log_capture c = {0};
    wf_geom_load_desc d = load_desc(&c);
    wf_geom_data* g = NULL;
    assert_int_equal(load(k_five_faces, &d, &g), WF_OK);
    wf_geom v = wf_geom_data_view(g);
    assert_int_equal(v.tri_count, 6);
    assert_non_null(v.tri_areas);
    const uint8_t want[6] = {AREA_GROUND, AREA_WATER, AREA_WATER, AREA_WATER, AREA_ROAD, AREA_MUD};
    assert_memory_equal(v.tri_areas, want, 6);
    assert_int_equal(c.warnings, 0);
    assert_int_equal(c.errors, 0);
    wf_geom_data_destroy(g);

    // Without a table the names are ignored, as before: no area array.
    d.area_names = NULL;
    d.area_name_count = 0;
    assert_int_equal(load(k_five_faces, &d, &g), WF_OK);
    assert_null(wf_geom_data_view(g).tri_areas);
    assert_int_equal(wf_geom_data_view(g).tri_count, 6);
    assert_int_equal(c.warnings, 0);
    wf_geom_data_destroy(g);
}

static void test_unknown_names_get_area_zero_or_fail(void** state) {
    (void)state;
    log_capture c = {0};
    wf_geom_load_desc d = load_desc(&c);
    static const char text[] = "v 0 0 0\nv 0 0 1\nv 1 0 1\n"
                               "usemtl water\nf 1 2 3\n"
                               "usemtl lava\nf 1 2 3\nf 1 2 3\n" // one warning for both
                               "usemtl Deep Water\nf 1 2 3\n"    // blanks: matches no row
                               "usemtl road\nf 1 2 3\n";
    wf_geom_data* g = NULL;
    assert_int_equal(load(text, &d, &g), WF_OK);
    const uint8_t want[5] = {AREA_WATER, 0, 0, 0, AREA_ROAD};
    assert_memory_equal(wf_geom_data_view(g).tri_areas, want, 5);
    assert_int_equal(c.warnings, 2);
    assert_non_null(strstr(c.last_warning, "line 9:"));
    assert_non_null(strstr(c.last_warning, "'Deep Water'"));
    wf_geom_data_destroy(g);

    // Rejected: the error names the face's line and the name; nothing out.
    d.reject_unknown_names = true;
    g = (wf_geom_data*)(uintptr_t)1;
    assert_int_equal(load(text, &d, &g), WF_ERR_BAD_DATA);
    assert_null(g);
    assert_int_equal(c.errors, 1);
    assert_non_null(strstr(c.last_error, "line 6:"));
    assert_non_null(strstr(c.last_error, "material 'lava'"));
    assert_non_null(strstr(c.last_error, "first face: line 7"));
    // A group name alone counts the same.
    static const char grouped[] = "v 0 0 0\nv 0 0 1\nv 1 0 1\ng hull\nf 1 2 3\n";
    assert_int_equal(load(grouped, &d, &g), WF_ERR_BAD_DATA);
    assert_non_null(strstr(c.last_error, "line 4:"));
    assert_non_null(strstr(c.last_error, "group 'hull'"));
    // A face with no name at all is never unknown.
    static const char plain[] = "v 0 0 0\nv 0 0 1\nv 1 0 1\nf 1 2 3\ng\nf 1 2 3\n";
    assert_int_equal(load(plain, &d, &g), WF_OK);
    wf_geom_data_destroy(g);
}

static void test_warnings_are_capped(void** state) {
    (void)state;
    log_capture c = {0};
    wf_geom_load_desc d = load_desc(&c);
    char text[4096] = "v 0 0 0\nv 0 0 1\nv 1 0 1\n";
    for (int i = 0; i < 40; ++i) {
        char line[64];
        snprintf(line, sizeof line, "usemtl m%d\nf 1 2 3\n", i);
        strcat(text, line);
    }
    wf_geom_data* g = NULL;
    assert_int_equal(load(text, &d, &g), WF_OK);
    assert_int_equal(c.warnings, 16);
    assert_non_null(strstr(c.last_warning, "further unknown names not logged"));
    wf_geom_data_destroy(g);
}

static void test_bad_tables_are_refused(void** state) {
    (void)state;
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    log_capture c = {0};
    wf_geom_load_desc d = load_desc(&c);
    static const char text[] = "v 0 0 0\nv 0 0 1\nv 1 0 1\nf 1 2 3\n";
    char long_name[80];
    memset(long_name, 'x', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    const struct {
        wf_area_name rows[2];
        uint32_t count;
        const char* log;
    } cases[] = {
        {{{"water", 1, 2}, {"water", 2, 4}}, 2, "area_names[1]: name repeats"},
        {{{"water", 64, 2}}, 1, "area_names[0]: area must be 0..63"},
        {{{"", 1, 2}}, 1, "area_names[0]: name must be"},
        {{{NULL, 1, 2}}, 1, "area_names[0]: name must be"},
        {{{"deep water", 1, 2}}, 1, "area_names[0]: name must be"},
        {{{long_name, 1, 2}}, 1, "area_names[0]: name must be"},
        {{{"water", 1, 2}, {"lake", 1, 4}}, 2, "area_names[1]: flags differ"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        d.area_names = cases[i].rows;
        d.area_name_count = cases[i].count;
        wf_geom_data* g = (wf_geom_data*)(uintptr_t)1;
        c.errors = 0;
        assert_int_equal(load(text, &d, &g), WF_ERR_INVALID_ARG);
        assert_null(g);
        assert_int_equal(c.errors, 1);
        assert_non_null(strstr(c.last_error, cases[i].log));
        // The params setter applies the same rules and leaves params as they were.
        wf_tilecache_params p = wf_tilecache_params_recast_demo();
        p.area_flags[1] = 77;
        assert_int_equal(
            wf_tilecache_params_set_areas(&p, cases[i].rows, cases[i].count, &d.logger),
            WF_ERR_INVALID_ARG);
        assert_int_equal(p.area_flags[1], 77);
        assert_int_equal(p.area_flags[2], 0);
        assert_non_null(strstr(c.last_error, cases[i].log));
    }
    // Rows naming one area with the same flags (0 reads as 1) are fine.
    const wf_area_name same[] = {{"water", 1, 1}, {"lake", 1, 0}};
    d.area_names = same;
    d.area_name_count = 2;
    wf_geom_data* g = NULL;
    assert_int_equal(load(text, &d, &g), WF_OK);
    wf_geom_data_destroy(g);
    d.area_names = NULL; // a count without rows
    assert_int_equal(load(text, &d, &g), WF_ERR_INVALID_ARG);
    wf_tilecache_params p = wf_tilecache_params_recast_demo();
    assert_int_equal(wf_tilecache_params_set_areas(NULL, k_names, NAME_COUNT, NULL),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_tilecache_params_set_areas(&p, NULL, 1, NULL), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_tilecache_params_set_areas(&p, NULL, 0, NULL), WF_OK);
    assert_int_equal(wf_tilecache_params_set_areas(&p, k_names, NAME_COUNT, NULL), WF_OK);
    assert_int_equal(p.area_flags[AREA_GROUND], FLAG_WALK);
    assert_int_equal(p.area_flags[AREA_WATER], FLAG_SWIM);
    assert_int_equal(p.area_flags[AREA_MUD], FLAG_MUD);
    assert_int_equal(p.area_flags[4], 0);
    wf_set_assert_hook(previous);
}

/* ---------------------------------------------------------------------------
 * A level: a 30 x 30 m floor with a water strip across it (z 12..18) that a
 * road crosses at x 24..27, and a patch of mud painted by a convex volume.
 */

static const char k_river_obj[] = "# x 0 24 27 30 by z 0 12 18 30\n"
                                  "v 0 0 0\nv 24 0 0\nv 27 0 0\nv 30 0 0\n"
                                  "v 0 0 12\nv 24 0 12\nv 27 0 12\nv 30 0 12\n"
                                  "v 0 0 18\nv 24 0 18\nv 27 0 18\nv 30 0 18\n"
                                  "v 0 0 30\nv 24 0 30\nv 27 0 30\nv 30 0 30\n"
                                  "usemtl ground\nf 1 5 6 2\nf 2 6 7 3\nf 3 7 8 4\n"
                                  "usemtl water\nf 5 9 10 6\n"
                                  "usemtl road\nf 6 10 11 7\n"
                                  "usemtl water\nf 7 11 12 8\n"
                                  "usemtl ground\nf 9 13 14 10\nf 10 14 15 11\nf 11 15 16 12\n";

static const wf_vec3 k_mud_outline[4] = {{10, 0, 2}, {10, 0, 7}, {15, 0, 7}, {15, 0, 2}};

typedef struct river {
    wf_tilecache_desc desc;
    wf_tilecache* tc;
    wf_mesh* mesh;
    wf_query* query;
} river;

static wf_tilecache_params river_params(void) {
    wf_tilecache_params p = wf_tilecache_params_recast_demo();
    p.agent_radius = 0.3f;
    p.tile_size = 32;
    assert_int_equal(wf_tilecache_params_set_areas(&p, k_names, NAME_COUNT, NULL), WF_OK);
    return p;
}

static void river_mesh(river* r) {
    wf_mesh_desc md = wf_tilecache_mesh_desc(r->tc);
    assert_int_equal(wf_mesh_create(&md, &r->mesh), WF_OK);
    assert_int_equal(wf_tilecache_build_navmesh(r->tc, r->mesh), WF_OK);
    wf_query_desc qd;
    memset(&qd, 0, sizeof qd);
    qd.mesh = r->mesh;
    assert_int_equal(wf_query_create(&qd, &r->query), WF_OK);
}

static void river_build(river* r) {
    memset(r, 0, sizeof *r);
    r->desc.params = river_params();
    r->desc.logger.quiet = true;
    log_capture c = {0};
    wf_geom_load_desc ld = load_desc(&c);
    wf_geom_data* level = NULL;
    assert_int_equal(load(k_river_obj, &ld, &level), WF_OK);
    assert_int_equal(wf_tilecache_create(&r->desc, &r->tc), WF_OK);
    wf_convex_volume mud = {k_mud_outline, 4, -1.0f, 1.0f, AREA_MUD};
    assert_int_equal(wf_tilecache_build_geom(r->tc, wf_geom_data_view(level), &mud, 1), WF_OK);
    wf_geom_data_destroy(level);
    river_mesh(r);
}

static void river_free(river* r) {
    wf_query_destroy(r->query);
    wf_mesh_destroy(r->mesh);
    wf_tilecache_destroy(r->tc);
}

/// Every polygon's flags are its area's; counts polygons per area.
static void check_flags(const wf_mesh* mesh, uint32_t per_area[WF_MAX_AREAS]) {
    const uint16_t want[4] = {FLAG_WALK, FLAG_SWIM, FLAG_ROAD, FLAG_MUD};
    memset(per_area, 0, WF_MAX_AREAS * sizeof per_area[0]);
    wf_tile_ref tiles[256];
    uint32_t tile_count = wf_mesh_get_tiles(mesh, tiles, 256);
    assert_true(tile_count > 0 && tile_count <= 256);
    for (uint32_t t = 0; t < tile_count; ++t) {
        wf_tile_info info;
        assert_int_equal(wf_mesh_get_tile_info(mesh, tiles[t], &info), WF_OK);
        for (uint32_t i = 0; i < info.poly_count; ++i) {
            wf_poly_ref ref = wf_mesh_poly_ref(mesh, tiles[t], i);
            uint8_t area = 0;
            uint16_t flags = 0;
            assert_int_equal(wf_mesh_get_poly_area(mesh, ref, &area), WF_OK);
            assert_int_equal(wf_mesh_get_poly_flags(mesh, ref, &flags), WF_OK);
            assert_true(area <= AREA_MUD);
            assert_int_equal(flags, want[area]);
            per_area[area]++;
        }
    }
}

typedef struct path_areas {
    wf_status status;
    uint32_t per_area[WF_MAX_AREAS];
    float last_z; ///< of the last polygon's nearest point to the goal
} path_areas;

static path_areas find(river* r, const wf_query_filter* filter) {
    const wf_vec3 start = {5, 0, 5}, goal = {5, 0, 25}, box = {2, 2, 2};
    wf_query_filter any = wf_query_filter_defaults();
    wf_poly_ref a, b;
    wf_vec3 pa, pb;
    assert_int_equal(wf_query_find_nearest_poly(r->query, start, box, &any, &a, &pa), WF_OK);
    assert_int_equal(wf_query_find_nearest_poly(r->query, goal, box, &any, &b, &pb), WF_OK);
    wf_poly_ref path[256];
    wf_path_result res;
    path_areas out;
    memset(&out, 0, sizeof out);
    out.status = wf_query_find_path(r->query, a, b, pa, pb, filter, path, 256, &res);
    assert_true(res.count > 0);
    for (uint32_t i = 0; i < res.count; ++i) {
        uint8_t area = 0;
        assert_int_equal(wf_mesh_get_poly_area(r->mesh, path[i], &area), WF_OK);
        out.per_area[area]++;
    }
    wf_vec3 last;
    assert_int_equal(
        wf_query_closest_point_on_poly(r->query, path[res.count - 1], goal, &last, NULL), WF_OK);
    out.last_z = last.z;
    return out;
}

/// Water cost 10 sends the path over the road; cost 1 straight through
/// the water; excluding water by its flag keeps the path on the road, and
/// excluding the road too leaves no way across.
static void check_paths(river* r) {
    wf_query_filter f = wf_query_filter_defaults();
    path_areas p = find(r, &f);
    assert_int_equal(p.status, WF_OK);
    assert_true(p.per_area[AREA_WATER] > 0);
    assert_int_equal(p.per_area[AREA_ROAD], 0);

    f.area_cost[AREA_WATER] = 10.0f;
    p = find(r, &f);
    assert_int_equal(p.status, WF_OK);
    assert_int_equal(p.per_area[AREA_WATER], 0);
    assert_true(p.per_area[AREA_ROAD] > 0);

    f = wf_query_filter_defaults();
    f.exclude_flags = FLAG_SWIM;
    p = find(r, &f);
    assert_int_equal(p.status, WF_OK);
    assert_int_equal(p.per_area[AREA_WATER], 0);
    assert_true(p.per_area[AREA_ROAD] > 0);

    f.exclude_flags = FLAG_SWIM | FLAG_ROAD;
    p = find(r, &f);
    assert_int_equal(p.status, WF_PARTIAL);
    assert_int_equal(p.per_area[AREA_WATER] + p.per_area[AREA_ROAD], 0);
    assert_true(p.last_z < 12.0f);
}

static void test_areas_steer_paths(void** state) {
    (void)state;
    river r;
    river_build(&r);
    uint32_t per_area[WF_MAX_AREAS];
    check_flags(r.mesh, per_area);
    assert_true(per_area[AREA_GROUND] > 0 && per_area[AREA_WATER] > 0 && per_area[AREA_ROAD] > 0 &&
                per_area[AREA_MUD] > 0);
    check_paths(&r);
    river_free(&r);
}

/// Without area flags every polygon has flag 1, as before, and the cache
/// file keeps version 3; with them it is version 4.
static void test_file_version_follows_the_flags(void** state) {
    (void)state;
    river r;
    river_build(&r);
    size_t size = 0;
    assert_int_equal(wf_tilecache_save_size(r.tc, &size), WF_OK);
    unsigned char* with = malloc(size);
    assert_int_equal(wf_tilecache_save(r.tc, with, size), WF_OK);
    assert_int_equal(with[4], 4);

    wf_tilecache_desc plain = r.desc;
    memset(plain.params.area_flags, 0, sizeof plain.params.area_flags);
    wf_tilecache* tc = NULL;
    assert_int_equal(wf_tilecache_create(&plain, &tc), WF_OK);
    log_capture c = {0};
    wf_geom_load_desc ld = load_desc(&c);
    wf_geom_data* level = NULL;
    assert_int_equal(load(k_river_obj, &ld, &level), WF_OK);
    assert_int_equal(wf_tilecache_build_geom(tc, wf_geom_data_view(level), NULL, 0), WF_OK);
    wf_geom_data_destroy(level);
    size_t plain_size = 0;
    assert_int_equal(wf_tilecache_save_size(tc, &plain_size), WF_OK);
    unsigned char* without = malloc(plain_size);
    assert_int_equal(wf_tilecache_save(tc, without, plain_size), WF_OK);
    assert_int_equal(without[4], 3);
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    assert_int_equal(wf_tilecache_build_navmesh(tc, mesh), WF_OK);
    wf_tile_ref tiles[64];
    uint32_t n = wf_mesh_get_tiles(mesh, tiles, 64);
    for (uint32_t t = 0; t < n; ++t) {
        wf_tile_info info;
        assert_int_equal(wf_mesh_get_tile_info(mesh, tiles[t], &info), WF_OK);
        for (uint32_t i = 0; i < info.poly_count; ++i) {
            uint16_t flags = 0;
            assert_int_equal(
                wf_mesh_get_poly_flags(mesh, wf_mesh_poly_ref(mesh, tiles[t], i), &flags), WF_OK);
            assert_int_equal(flags, 1);
        }
    }
    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(tc);

    // The area section is damage-checked like the rest: a cut file fails.
    wf_tilecache* bad = (wf_tilecache*)(uintptr_t)16;
    assert_int_equal(wf_tilecache_load(&r.desc, with, size - 8, &bad), WF_ERR_BAD_DATA);
    free(with);
    free(without);
    river_free(&r);
}

/// Saved and loaded, then an obstacle carved and a water patch painted:
/// every rebuilt tile keeps its areas' flags and the paths still follow them.
static void test_areas_survive_save_load_and_obstacles(void** state) {
    (void)state;
    river r;
    river_build(&r);
    uint32_t before[WF_MAX_AREAS];
    check_flags(r.mesh, before);
    size_t size = 0;
    assert_int_equal(wf_tilecache_save_size(r.tc, &size), WF_OK);
    unsigned char* data = malloc(size);
    assert_int_equal(wf_tilecache_save(r.tc, data, size), WF_OK);
    river_free(&r);

    river l;
    memset(&l, 0, sizeof l);
    l.desc.logger.quiet = true;
    assert_int_equal(wf_tilecache_load(&l.desc, data, size, &l.tc), WF_OK);
    free(data);
    const wf_tilecache_params* p = wf_tilecache_get_params(l.tc);
    assert_int_equal(p->area_flags[AREA_WATER], FLAG_SWIM);
    assert_int_equal(p->area_flags[AREA_MUD], FLAG_MUD);
    river_mesh(&l);
    uint32_t after[WF_MAX_AREAS];
    check_flags(l.mesh, after);
    assert_memory_equal(before, after, sizeof before);
    check_paths(&l);

    // A carved pillar in the near field and a painted pool on the far side.
    wf_obstacle_desc pillar;
    memset(&pillar, 0, sizeof pillar);
    pillar.shape = WF_OBSTACLE_CYLINDER;
    pillar.position = (wf_vec3){12, 0, 9};
    pillar.radius = 1.0f;
    pillar.height = 2.0f;
    wf_obstacle_desc pool = pillar;
    pool.paint = true;
    pool.area = AREA_WATER;
    pool.position = (wf_vec3){20, 0, 25};
    wf_obstacle_id ids[2];
    assert_int_equal(wf_tilecache_add_obstacle(l.tc, &pillar, &ids[0]), WF_OK);
    assert_int_equal(wf_tilecache_add_obstacle(l.tc, &pool, &ids[1]), WF_OK);
    wf_tilecache_update_result res;
    const wf_tilecache_budget budget = {0, 0}; // no limit
    do {
        assert_int_equal(wf_tilecache_update(l.tc, l.mesh, &budget, &res), WF_OK);
    } while (!res.up_to_date);
    check_flags(l.mesh, after);
    assert_true(after[AREA_WATER] > before[AREA_WATER]); // the pool's polygons, with water's flags
    check_paths(&l);
    river_free(&l);
}

/// The library refuses a volume that is not convex (not only the CLI),
/// naming its index, and builds nothing.
static void test_non_convex_volume_refused(void** state) {
    (void)state;
    river r;
    river_build(&r);
    uint32_t layers = wf_tilecache_layer_count(r.tc);
    log_capture c = {0};
    wf_tilecache_desc d = r.desc;
    d.logger.quiet = false;
    d.logger.log = capture;
    d.logger.user = &c;
    wf_tilecache* tc = NULL;
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    wf_geom_data* level = NULL;
    log_capture lc = {0};
    wf_geom_load_desc ld = load_desc(&lc);
    assert_int_equal(load(k_river_obj, &ld, &level), WF_OK);
    const wf_vec3 dart[4] = {wf_v3(20, 0, 2), wf_v3(30, 0, 6), wf_v3(20, 0, 10), wf_v3(24, 0, 6)};
    wf_convex_volume vols[2] = {{k_mud_outline, 4, -1.0f, 1.0f, AREA_MUD},
                                {dart, 4, -1.0f, 1.0f, AREA_MUD}};
    assert_int_equal(wf_tilecache_build_geom(tc, wf_geom_data_view(level), vols, 2),
                     WF_ERR_INVALID_ARG);
    assert_non_null(strstr(c.last_error, "volume 1:"));
    assert_non_null(strstr(c.last_error, "not convex"));
    assert_int_equal(wf_tilecache_layer_count(tc), 0);
    // The same outline the other way round, and a repeated point.
    const wf_vec3 back[4] = {dart[3], dart[2], dart[1], dart[0]};
    vols[0].verts = back;
    assert_int_equal(wf_tilecache_build_geom(tc, wf_geom_data_view(level), vols, 1),
                     WF_ERR_INVALID_ARG);
    assert_non_null(strstr(c.last_error, "volume 0:"));
    const wf_vec3 twice[4] = {wf_v3(20, 0, 2), wf_v3(30, 0, 2), wf_v3(30, 0, 2), wf_v3(20, 0, 9)};
    vols[0].verts = twice;
    assert_int_equal(wf_tilecache_build_geom(tc, wf_geom_data_view(level), vols, 1),
                     WF_ERR_INVALID_ARG);
    // The convex ones in either winding build.
    vols[0].verts = k_mud_outline;
    assert_int_equal(wf_tilecache_build_geom(tc, wf_geom_data_view(level), vols, 1), WF_OK);
    assert_int_equal(wf_tilecache_layer_count(tc), layers);
    wf_geom_data_destroy(level);
    wf_tilecache_destroy(tc);
    river_free(&r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_materials_and_groups_pick_areas),
        cmocka_unit_test(test_unknown_names_get_area_zero_or_fail),
        cmocka_unit_test(test_warnings_are_capped),
        cmocka_unit_test(test_bad_tables_are_refused),
        cmocka_unit_test(test_areas_steer_paths),
        cmocka_unit_test(test_file_version_follows_the_flags),
        cmocka_unit_test(test_areas_survive_save_load_and_obstacles),
        cmocka_unit_test(test_non_convex_volume_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
