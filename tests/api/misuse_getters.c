// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Misuse of the getters, views, defaults and tile builders of every module:
// NULL handles give their documented safe value, NULL out pointers and NaN
// their status, and nothing is written or allocated on failure.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "misuse_common.h"

/* ---------------------------------------------------------------------------
 * Getters, views, defaults and the tile builder: NULL handles give their
 * documented safe value, NULL out pointers and NaN give their status, and
 * nothing is written or allocated on failure.
 */

static void test_getters_and_builders_misuse(void** state) {
    fixture* f = *state;
    snapshot before = take(f);

    // Getters of a NULL object: zero, NULL or empty, never a crash.
    uint32_t n = 7;
    EXPECT_TRUE(wf_crowd_events(NULL, &n) == NULL && n == 0);
    EXPECT_TRUE(wf_crowd_events(f->crowd, NULL) != NULL); // the count is optional
    EXPECT_TRUE(wf_crowd_get_stats(NULL).memory_bytes == 0 &&
                wf_crowd_get_stats(f->crowd).memory_bytes > 0);
    EXPECT_TRUE(wf_query_get_stats(NULL).memory_bytes == 0 &&
                wf_query_get_stats(f->q).memory_bytes > 0);
    EXPECT_TRUE(wf_query_get_mesh(NULL) == NULL && wf_query_get_mesh(f->q) == f->mesh);
    EXPECT_TRUE(wf_tilecache_get_params(NULL) == NULL && wf_tilecache_get_params(f->tc) != NULL);
    EXPECT_TRUE(wf_tilecache_get_stats(NULL).layer_count == 0);
    EXPECT_TRUE(wf_tilecache_get_stats(f->tc).layer_count == before.layers);
    EXPECT_TRUE(wf_world_mesh(NULL) == NULL && wf_world_tilecache(NULL) == NULL);
    wf_job_system none = wf_world_jobs(NULL);
    EXPECT_TRUE(none.enqueue == NULL && none.wait == NULL);
    EXPECT_TRUE(wf_thread_pool_thread_count(NULL) == 0);
    EXPECT_TRUE(wf_thread_pool_get_stats(NULL).memory_bytes == 0);
    EXPECT_TRUE(wf_world_get_stats(NULL).memory_bytes == 0 && wf_world_get_stats(NULL).frame == 0);
    EXPECT_TRUE(wf_jobs_task_is_done(NULL));   // nothing to wait for
    const char* version = wf_version_string(); // takes nothing: cannot be misused
    EXPECT_TRUE(version != NULL && strcmp(version, WF_VERSION_STRING) == 0);

    // Views and defaults of NULL: empty views, resolved defaults.
    wf_geom gv = wf_geom_data_view(NULL);
    EXPECT_TRUE(gv.verts == NULL && gv.vert_count == 0 && gv.tri_count == 0);
    wf_grid grv = wf_grid_data_view(NULL);
    EXPECT_TRUE(grv.walkable == NULL && grv.width == 0 && grv.depth == 0);
    EXPECT_TRUE(wf_mesh_desc_defaults(NULL).max_tiles > 0);
    wf_mesh_check_desc mcd = wf_mesh_check_desc_defaults(NULL);
    EXPECT_TRUE(mcd.seam_offset > 0.0f && mcd.seam_spacing > 0.0f && mcd.max_climb > 0.0f);
    EXPECT_TRUE(wf_polyanya_import_desc_defaults(NULL).scale == 1.0f);
    wf_tilecache_desc tdd = wf_tilecache_desc_defaults(NULL);
    EXPECT_TRUE(tdd.max_obstacles > 0 && tdd.max_tiles > 0 && tdd.codec.compress != NULL);
    wf_crowd_desc cdd = wf_crowd_desc_defaults(NULL);
    EXPECT_TRUE(cdd.mesh == NULL && cdd.max_agents == 0 && cdd.max_corridor > 0);
    EXPECT_TRUE(wf_query_desc_defaults(NULL).mesh == NULL &&
                wf_query_desc_defaults(NULL).max_nodes > 0);
    wf_world_desc wdd = wf_world_desc_defaults(NULL);
    EXPECT_TRUE(wdd.worker_count >= 1 && wdd.crowd.max_agents == 1000 && wdd.geom == NULL);
    wf_thread_pool_desc pd = wf_thread_pool_desc_defaults(NULL);
    EXPECT_TRUE(pd.thread_count < WF_JOBS_MAX_WORKERS);

    // Bounds: NULL geometry, NULL outs, no vertices, NaN and infinite ones.
    wf_vec3 lo = wf_v3(7, 7, 7), hi = wf_v3(7, 7, 7);
    wf_geom g = floor_geom();
    EXPECT_TRUE(!wf_geom_bounds(NULL, &lo, &hi));
    EXPECT_TRUE(!wf_geom_bounds(&g, NULL, &hi) && !wf_geom_bounds(&g, &lo, NULL));
    wf_geom empty = g;
    empty.vert_count = 0;
    EXPECT_TRUE(!wf_geom_bounds(&empty, &lo, &hi));
    float bad_verts[12];
    memcpy(bad_verts, k_verts, sizeof bad_verts);
    wf_geom bad = g;
    bad.verts = bad_verts;
    bad_verts[4] = NAN_F;
    EXPECT_TRUE(!wf_geom_bounds(&bad, &lo, &hi));
    bad_verts[4] = INF_F;
    EXPECT_TRUE(!wf_geom_bounds(&bad, &lo, &hi));
    EXPECT_TRUE(wf_geom_bounds(&g, &lo, &hi) && lo.x == 0.0f && hi.z == 30.0f);

    // Tile at a position: NULL mesh gives cell (0, 0), NULL outs are skipped,
    // NaN and far points give a valid (empty) cell.
    int32_t tx = 5, tz = 5;
    wf_mesh_tile_at(NULL, wf_v3(1, 0, 1), &tx, &tz);
    EXPECT_TRUE(tx == 0 && tz == 0);
    wf_mesh_tile_at(f->mesh, wf_v3(1, 0, 1), NULL, NULL);
    wf_mesh_tile_at(f->mesh, wf_v3(NAN_F, 0, INF_F), &tx, &tz);
    EXPECT_TRUE(tx == 0 && tz >= 0);
    wf_mesh_tile_at(f->mesh, wf_v3(-1e30f, 0, 1e30f), &tx, &tz);
    EXPECT_TRUE(tx < 0 && tz > 0);
    wf_mesh_tile_at(f->mesh, wf_v3(1, 0, 1), &tx, &tz);
    EXPECT_TRUE(tx == 0 && tz == 0);

    // The mesh check: NULL arguments, NaN, infinite and negative settings.
    wf_mesh_check_desc cd;
    memset(&cd, 0, sizeof cd);
    wf_mesh_check_report rep;
    memset(&rep, 0, sizeof rep);
    EXPECT(wf_query_check_mesh(NULL, &cd, &rep), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_check_mesh(f->q, NULL, &rep), WF_ERR_INVALID_ARG);
    EXPECT(wf_query_check_mesh(f->q, &cd, NULL), WF_ERR_INVALID_ARG);
    const float bad_settings[3] = {NAN_F, INF_F, -1.0f};
    for (int k = 0; k < 3; ++k) {
        wf_mesh_check_desc b = cd;
        b.seam_offset = bad_settings[k];
        EXPECT(wf_query_check_mesh(f->q, &b, &rep), WF_ERR_INVALID_ARG);
        b = cd;
        b.seam_spacing = bad_settings[k];
        EXPECT(wf_query_check_mesh(f->q, &b, &rep), WF_ERR_INVALID_ARG);
        b = cd;
        b.max_climb = bad_settings[k];
        EXPECT(wf_query_check_mesh(f->q, &b, &rep), WF_ERR_INVALID_ARG);
    }
    EXPECT(wf_query_check_mesh(f->q, &cd, &rep), WF_OK);
    EXPECT_QUERY_WORKS(f);

    // The tile builder: one 10 x 10 m square polygon.
    static const float verts[] = {0, 0, 0, 0, 0, 10, 10, 0, 10, 10, 0, 0};
    uint16_t polys[WF_MAX_VERTS_PER_POLY];
    for (uint32_t k = 0; k < WF_MAX_VERTS_PER_POLY; ++k) {
        polys[k] = k < 4 ? (uint16_t)k : WF_NULL_INDEX;
    }
    wf_tile_build_desc td;
    memset(&td, 0, sizeof td);
    td.bmin = wf_v3(0, -1, 0);
    td.bmax = wf_v3(10, 1, 10);
    td.verts = verts;
    td.vert_count = 4;
    td.polys = polys;
    td.poly_count = 1;
    size_t size = 0;
    void* data = NULL;
    EXPECT(wf_tile_build_size(NULL, &size), WF_ERR_INVALID_ARG);
    EXPECT(wf_tile_build_size(&td, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_tile_build(NULL, &data, &size), WF_ERR_INVALID_ARG);
    EXPECT(wf_tile_build(&td, NULL, &size), WF_ERR_INVALID_ARG);
    EXPECT(wf_tile_build(&td, &data, NULL), WF_ERR_INVALID_ARG);
    EXPECT_TRUE(data == NULL);
    wf_tile_build_desc bt = td;
    bt.bmin.x = NAN_F;
    EXPECT(wf_tile_build_size(&bt, &size), WF_ERR_INVALID_ARG);
    EXPECT(wf_tile_build(&bt, &data, &size), WF_ERR_INVALID_ARG);
    bt = td;
    bt.bmax.y = INF_F;
    EXPECT(wf_tile_build(&bt, &data, &size), WF_ERR_INVALID_ARG);
    bt = td;
    bt.polys = NULL;
    EXPECT(wf_tile_build(&bt, &data, &size), WF_ERR_INVALID_ARG);
    EXPECT_TRUE(data == NULL);
    EXPECT(wf_tile_build_size(&td, &size), WF_OK);
    EXPECT_TRUE(size > 0);
    size_t rounded = (size + 63u) & ~(size_t)63u;
    unsigned char* buffer = aligned_alloc(64, rounded + 64u);
    assert_non_null(buffer);
    EXPECT(wf_tile_build_into(NULL, buffer, rounded), WF_ERR_INVALID_ARG);
    EXPECT(wf_tile_build_into(&td, NULL, rounded), WF_ERR_INVALID_ARG);
    EXPECT(wf_tile_build_into(&td, buffer + 1, rounded), WF_ERR_INVALID_ARG); // misaligned
    EXPECT(wf_tile_build_into(&td, buffer, size - 1), WF_ERR_CAPACITY);
    bt = td;
    bt.bmin.z = NAN_F;
    EXPECT(wf_tile_build_into(&bt, buffer, rounded), WF_ERR_INVALID_ARG);
    EXPECT(wf_tile_build_into(&td, buffer, rounded), WF_OK);
    free(buffer);
    EXPECT(wf_tile_build(&td, &data, &size), WF_OK);
    EXPECT_TRUE(data != NULL);
    wf_tile_free(data, size, NULL); // NULL allocator = malloc's, as built
    wf_tile_free(NULL, 0, NULL);    // nothing to free

    EXPECT_UNCHANGED(f, &before);
    EXPECT_QUERY_WORKS(f);
    end_test();
}

int main(void) {
    misuse_begin();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_getters_and_builders_misuse, setup, teardown),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    misuse_report("misuse_getters");
    return failed;
}
