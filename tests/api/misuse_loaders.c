// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Misuse of the text loaders (OBJ, Moving AI maps, Polyanya meshes):
// malformed input gives WF_ERR_BAD_DATA and the log names the line.
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
 * Loaders: malformed text gives WF_ERR_BAD_DATA and names the line
 */

typedef struct log_capture {
    char last[256];
    unsigned errors;
} log_capture;

static void capture_log(wf_log_level level, const char* message, void* user) {
    log_capture* lc = user;
    if (level == WF_LOG_ERROR) {
        lc->errors++;
        snprintf(lc->last, sizeof lc->last, "%s", message);
    }
}

static void test_loader_misuse(void** state) {
    (void)state;
    log_capture lc;
    memset(&lc, 0, sizeof lc);
    wf_geom_load_desc ld;
    memset(&ld, 0, sizeof ld);
    ld.logger.log = capture_log;
    ld.logger.user = &lc;
    wf_geom_data* geom = NULL;
    static const char obj_ok[] = "v 0 0 0\nv 0 0 30\nv 30 0 30\nf 1 2 3\n";
    static const char obj_bad_index[] = "v 0 0 0\nv 0 0 30\nv 30 0 30\nf 1 2 9\n";
    static const char obj_bad_number[] = "v 0 0 0\nv 0 x 30\n";
    EXPECT(wf_geom_load_obj(obj_ok, sizeof obj_ok - 1, &ld, NULL), WF_ERR_INVALID_ARG);
    EXPECT(wf_geom_load_obj(NULL, 10, &ld, &geom), WF_ERR_INVALID_ARG);
    EXPECT(wf_geom_load_obj(obj_bad_index, sizeof obj_bad_index - 1, &ld, &geom), WF_ERR_BAD_DATA);
    EXPECT_TRUE(lc.errors == 1 && strstr(lc.last, "line 4") != NULL);
    EXPECT(wf_geom_load_obj(obj_bad_number, sizeof obj_bad_number - 1, &ld, &geom),
           WF_ERR_BAD_DATA);
    EXPECT_TRUE(lc.errors == 2 && strstr(lc.last, "line 2") != NULL);
    EXPECT_TRUE(geom == NULL);
    EXPECT(wf_geom_load_obj(obj_ok, sizeof obj_ok - 1, &ld, &geom), WF_OK);
    wf_geom_data_destroy(geom);
    // An area table the loader refuses (the log names the row and field),
    // and an unknown material when those are errors (the log names it).
    const wf_area_name twice[2] = {{"water", 1, 2}, {"water", 1, 2}};
    ld.area_names = twice;
    ld.area_name_count = 2;
    EXPECT(wf_geom_load_obj(obj_ok, sizeof obj_ok - 1, &ld, &geom), WF_ERR_INVALID_ARG);
    EXPECT_TRUE(strstr(lc.last, "area_names[1]") != NULL);
    static const char obj_lava[] = "v 0 0 0\nv 0 0 30\nv 30 0 30\nusemtl lava\nf 1 2 3\n";
    ld.area_name_count = 1;
    ld.reject_unknown_names = true;
    EXPECT(wf_geom_load_obj(obj_lava, sizeof obj_lava - 1, &ld, &geom), WF_ERR_BAD_DATA);
    EXPECT_TRUE(strstr(lc.last, "line 4") != NULL && strstr(lc.last, "'lava'") != NULL);
    EXPECT_TRUE(geom == NULL);
    memset(&ld.area_names, 0, sizeof ld.area_names);
    ld.area_name_count = 0;
    ld.reject_unknown_names = false;

    wf_grid_data* grid = NULL;
    static const char map_ok[] = "type octile\nheight 2\nwidth 2\nmap\n..\n.@\n";
    static const char map_short[] = "type octile\nheight 3\nwidth 2\nmap\n..\n.@\n";
    static const char map_wide[] = "type octile\nheight 2\nwidth 2\nmap\n...\n.@\n";
    EXPECT(wf_grid_load_movingai(map_ok, sizeof map_ok - 1, NAN_F, &ld, &grid), WF_ERR_INVALID_ARG);
    EXPECT(wf_grid_load_movingai(map_ok, sizeof map_ok - 1, 0.0f, &ld, &grid), WF_ERR_INVALID_ARG);
    EXPECT(wf_grid_load_movingai(map_ok, sizeof map_ok - 1, 1.0f, &ld, NULL), WF_ERR_INVALID_ARG);
    lc.errors = 0;
    EXPECT(wf_grid_load_movingai(map_short, sizeof map_short - 1, 1.0f, &ld, &grid),
           WF_ERR_BAD_DATA);
    EXPECT_TRUE(lc.errors == 1 && strstr(lc.last, "line") != NULL);
    EXPECT(wf_grid_load_movingai(map_wide, sizeof map_wide - 1, 1.0f, &ld, &grid), WF_ERR_BAD_DATA);
    EXPECT_TRUE(lc.errors == 2 && strstr(lc.last, "line 5") != NULL);
    EXPECT_TRUE(grid == NULL);
    EXPECT(wf_grid_load_movingai(map_ok, sizeof map_ok - 1, 1.0f, &ld, &grid), WF_OK);
    wf_grid_data_destroy(grid);

    wf_polyanya_import_desc pd;
    memset(&pd, 0, sizeof pd);
    pd.logger = ld.logger;
    wf_mesh* mesh = NULL;
    static const char mesh_v3[] = "mesh\n3\n";
    static const char mesh_junk[] = "mesh\n2\n4 1\nzz\n";
    EXPECT(wf_mesh_import_polyanya(NULL, mesh_v3, sizeof mesh_v3 - 1, &mesh), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_import_polyanya(&pd, NULL, 4, &mesh), WF_ERR_INVALID_ARG);
    EXPECT(wf_mesh_import_polyanya(&pd, mesh_v3, sizeof mesh_v3 - 1, NULL), WF_ERR_INVALID_ARG);
    wf_polyanya_import_desc bpd = pd;
    bpd.tile_size = NAN_F;
    EXPECT(wf_mesh_import_polyanya(&bpd, mesh_v3, sizeof mesh_v3 - 1, &mesh), WF_ERR_INVALID_ARG);
    bpd = pd;
    bpd.scale = -1.0f;
    EXPECT(wf_mesh_import_polyanya(&bpd, mesh_v3, sizeof mesh_v3 - 1, &mesh), WF_ERR_INVALID_ARG);
    lc.errors = 0;
    EXPECT(wf_mesh_import_polyanya(&pd, mesh_v3, sizeof mesh_v3 - 1, &mesh), WF_ERR_VERSION);
    EXPECT_TRUE(lc.errors >= 1 && strstr(lc.last, "line 2") != NULL);
    EXPECT(wf_mesh_import_polyanya(&pd, mesh_junk, sizeof mesh_junk - 1, &mesh), WF_ERR_BAD_DATA);
    EXPECT_TRUE(lc.errors >= 2 && strstr(lc.last, "line") != NULL);
    EXPECT_TRUE(mesh == NULL);
    end_test();
}

int main(void) {
    misuse_begin();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_loader_misuse, begin_test),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    misuse_report("misuse_loaders");
    return failed;
}
