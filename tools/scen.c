// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// `wayfarer scen`: Moving AI scenario files run on a Polyanya mesh or on a
// grid map built through the tile cache, each path checked against the
// expected or octile optimum.
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/tool.h"
#include "wayfarer/navmesh.h"
#include "wayfarer/query.h"
#include "wayfarer/tilecache.h"

/// Paths shorter than the expected optimum by more than this are wrong
/// (the tolerance the reference Polyanya tests use).
#define SCEN_TOLERANCE 1e-4
/// Search nodes and corridor length for one scenario: enough for any grid
/// map mesh of up to a few hundred thousand polygons along one path.
#define SCEN_MAX_NODES 65536u
#define SCEN_MAX_CORRIDOR 65536u
#define SCEN_MAX_STRAIGHT 1024u
/// A grid path may be this much longer than the .scen's octile optimum
/// (float noise on long paths) before it counts as longer.
#define SCEN_LONGER_TOLERANCE 1e-3
/// Share of rows allowed to be longer than the octile optimum: contour
/// simplification may bend a path around a corner a little.
#define SCEN_LONGER_ALLOWED 0.01

typedef struct scen_row {
    double start_x, start_y, goal_x, goal_y;
    double octile;  ///< the .scen's own optimum (8-connected, no corner cutting)
    double optimal; ///< what the row is checked against; NAN for no check
} scen_row;

/// Splits a line in place into at most max whitespace-separated tokens.
static int split_tokens(char* line, char** tokens, int max) {
    int n = 0;
    for (char* t = strtok(line, " \t\r"); t != NULL && n < max; t = strtok(NULL, " \t\r")) {
        tokens[n++] = t;
    }
    return n;
}

/// Moving AI rows: bucket map width height start_x start_y goal_x goal_y
/// optimal. The map name comes second, so the numbers are read from the end.
static int parse_scen(const char* path, char* text, scen_row** out_rows, size_t* out_count) {
    size_t cap = 256, count = 0, line_number = 0;
    scen_row* rows = malloc(cap * sizeof *rows);
    for (char* line = text; rows != NULL && line != NULL; ++line_number) {
        char* next = strchr(line, '\n');
        if (next != NULL) {
            *next = '\0';
        }
        char* tokens[16];
        int n = split_tokens(line, tokens, 16);
        line = next != NULL ? next + 1 : NULL;
        if (n == 0 || (line_number == 0 && strcmp(tokens[0], "version") == 0)) {
            continue;
        }
        scen_row r = {0, 0, 0, 0, 0, NAN};
        if (n < 9 || !parse_double(tokens[n - 5], &r.start_x) ||
            !parse_double(tokens[n - 4], &r.start_y) || !parse_double(tokens[n - 3], &r.goal_x) ||
            !parse_double(tokens[n - 2], &r.goal_y) || !parse_double(tokens[n - 1], &r.octile)) {
            fprintf(stderr, "wayfarer: %s:%zu: not a scenario row\n", path, line_number + 1);
            free(rows);
            return EXIT_INPUT;
        }
        if (count == cap) {
            scen_row* grown = realloc(rows, 2 * cap * sizeof *rows);
            if (grown == NULL) {
                break;
            }
            rows = grown;
            cap *= 2;
        }
        rows[count++] = r;
    }
    if (rows == NULL || count == 0) {
        fprintf(stderr, "wayfarer: %s: no scenario rows\n", path);
        free(rows);
        return EXIT_INPUT;
    }
    *out_rows = rows;
    *out_count = count;
    return 0;
}

/// Expected answers: '#' comments, a header, then rows of bucket start_x
/// start_y goal_x goal_y octile euclidean, one per scenario row, in order.
static int parse_expected(const char* path, char* text, scen_row* rows, size_t count) {
    size_t row = 0, line_number = 0;
    for (char* line = text; line != NULL; ++line_number) {
        char* next = strchr(line, '\n');
        if (next != NULL) {
            *next = '\0';
        }
        char* tokens[16];
        int n = line[0] == '#' ? 0 : split_tokens(line, tokens, 16);
        line = next != NULL ? next + 1 : NULL;
        if (n == 0 || strcmp(tokens[0], "bucket") == 0) {
            continue;
        }
        double v[7];
        bool ok = n == 7 && row < count;
        for (int i = 0; ok && i < 7; ++i) {
            ok = parse_double(tokens[i], &v[i]);
        }
        if (!ok || v[1] != rows[row].start_x || v[2] != rows[row].start_y ||
            v[3] != rows[row].goal_x || v[4] != rows[row].goal_y) {
            fprintf(stderr, "wayfarer: %s:%zu: does not match scenario row %zu\n", path,
                    line_number + 1, row);
            return EXIT_INPUT;
        }
        rows[row++].optimal = v[6];
    }
    if (row != count) {
        fprintf(stderr, "wayfarer: %s: %zu rows for %zu scenario rows\n", path, row, count);
        return EXIT_INPUT;
    }
    return 0;
}

static int load_polyanya(const char* path, float tile_size, wf_mesh** out) {
    char* text = NULL;
    size_t size = 0;
    int rc = read_file(path, &text, &size);
    if (rc != 0) {
        return rc;
    }
    wf_polyanya_import_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.tile_size = tile_size;
    wf_status st = wf_mesh_import_polyanya(&desc, text, size, out);
    free(text);
    if (st < 0) {
        fprintf(stderr, "wayfarer: %s: %s\n", path, wf_status_string(st));
        return EXIT_INPUT;
    }
    return 0;
}

/// Settings for grid maps: a tile is at most 255 cells, so 64 cells of the
/// map per tile side (fewer tile edges for the funnel to bend at); no
/// region is dropped or merged (a pocket of two cells is still a place a
/// scenario may start); contours follow the cells to within GRID_MAX_ERROR.
#define GRID_TILE_SIZE 64u
#define GRID_MAX_ERROR 0.5f

static int load_grid_map(const char* path, float cell_size, float radius, uint32_t tile_cells,
                         wf_mesh** out) {
    char* text = NULL;
    size_t size = 0;
    int rc = read_file(path, &text, &size);
    if (rc != 0) {
        return rc;
    }
    wf_grid_data* grid = NULL;
    wf_status st = wf_grid_load_movingai(text, size, 1.0f, &(wf_geom_load_desc){0}, &grid);
    free(text);
    if (st != WF_OK) {
        fprintf(stderr, "wayfarer: %s: %s\n", path, wf_status_string(st));
        return EXIT_INPUT;
    }
    wf_tilecache_params p = wf_tilecache_params_recast_demo();
    p.cell_size = cell_size;
    p.agent_radius = radius;
    p.tile_size = tile_cells > 0 ? tile_cells : GRID_TILE_SIZE;
    p.min_region_area = 0;
    p.merge_region_area = 0;
    p.max_edge_length = 0.0f;
    p.max_simplification_error = GRID_MAX_ERROR;
    wf_tilecache* tc = NULL;
    wf_assert_fn* hook = wf_set_assert_hook(quiet_assert);
    st = wf_tilecache_create(&(wf_tilecache_desc){.params = p}, &tc);
    wf_set_assert_hook(hook);
    if (st != WF_OK) {
        fprintf(stderr, "wayfarer scen: --cell-size, --agent-radius or --tile-size out of range\n");
        rc = EXIT_USAGE;
    } else if ((st = wf_tilecache_build_grid(tc, wf_grid_data_view(grid))) != WF_OK) {
        fprintf(stderr, "wayfarer: %s: %s\n", path, wf_status_string(st));
        rc = EXIT_INPUT;
    }
    double ms = 0.0;
    if (rc == 0) {
        rc = cache_navmesh(tc, out, &ms);
    }
    wf_tilecache_destroy(tc);
    wf_grid_data_destroy(grid);
    return rc;
}

typedef enum { ROW_OK, ROW_PARTIAL, ROW_NONE } row_status;

/// Where scenario points lie: Polyanya meshes put them on grid corners (a
/// tiny box finds the polygon touching them, often an obstacle corner);
/// grid builds on cell centres, which lie on walkable cells.
typedef struct scen_points {
    double offset;
    wf_vec3 half;
} scen_points;

/// Nearest polygons, corridor, funnel; length of the straight path in 3D.
static row_status run_row(wf_query* q, const scen_row* row, const scen_points* at,
                          const wf_query_filter* filter_in, wf_poly_ref* corridor,
                          wf_straight_point* points, double* out_length) {
    const wf_query_filter filter = *filter_in;
    wf_vec3 a = wf_v3((float)(row->start_x + at->offset), 0.0f, (float)(row->start_y + at->offset));
    wf_vec3 b = wf_v3((float)(row->goal_x + at->offset), 0.0f, (float)(row->goal_y + at->offset));
    wf_poly_ref start, goal;
    wf_vec3 sp, gp;
    *out_length = NAN;
    if (wf_query_find_nearest_poly(q, a, at->half, &filter, &start, &sp) != WF_OK ||
        wf_query_find_nearest_poly(q, b, at->half, &filter, &goal, &gp) != WF_OK) {
        return ROW_NONE;
    }
    wf_path_result pr;
    wf_status ps =
        wf_query_find_path(q, start, goal, sp, gp, &filter, corridor, SCEN_MAX_CORRIDOR, &pr);
    if (ps < 0 || pr.count == 0) {
        return ROW_NONE;
    }
    uint32_t n = 0;
    wf_status ss = wf_query_find_straight_path(q, sp, gp, corridor, pr.count, points,
                                               SCEN_MAX_STRAIGHT, 0, &n);
    if (ss < 0) {
        return ROW_NONE;
    }
    double length = 0.0;
    for (uint32_t i = 1; i < n; ++i) {
        length += wf_v3_distance(points[i - 1].pos, points[i].pos);
    }
    *out_length = length;
    return ps == WF_OK && ss == WF_OK ? ROW_OK : ROW_PARTIAL;
}

/// What rows are checked against: nothing, an any-angle optimum (a path
/// must not be shorter: --expected) or the octile optimum of the .scen (a
/// path on a grid build must not be longer, nearly always).
typedef enum { CHECK_NONE, CHECK_NOT_SHORTER, CHECK_NOT_LONGER } scen_check;

/// Runs every row, prints per-row lines and the summary; returns the exit code.
static int run_scenarios(wf_query* q, const scen_row* rows, size_t count, const scen_points* at,
                         scen_check check, bool exact) {
    wf_query_filter filter = wf_query_filter_defaults();
    filter.path_mode = exact ? WF_PATH_MODE_EXACT : WF_PATH_MODE_DEFAULT;
    wf_poly_ref* corridor = malloc(SCEN_MAX_CORRIDOR * sizeof *corridor);
    wf_straight_point* points = malloc(SCEN_MAX_STRAIGHT * sizeof *points);
    if (corridor == NULL || points == NULL) {
        free(corridor);
        free(points);
        fprintf(stderr, "wayfarer: out of memory\n");
        return EXIT_INPUT;
    }
    static const char* const names[] = {"ok", "partial", "none"};
    size_t counts[3] = {0, 0, 0}, shorter = 0, longer = 0, missing = 0, zero_wrong = 0;
    size_t rated = 0, worst_row = 0;
    double ratio_sum = 0.0, worst = 0.0;
    for (size_t i = 0; i < count; ++i) {
        double length;
        row_status rs = run_row(q, &rows[i], at, &filter, corridor, points, &length);
        counts[rs]++;
        printf("%zu\t%s\t%.6f", i, names[rs], length);
        if (check != CHECK_NONE) {
            double opt = rows[i].optimal, ratio = NAN;
            if (rs != ROW_NONE && opt > 0.0) {
                ratio = length / opt;
                ratio_sum += ratio;
                rated++;
                if (ratio > worst) {
                    worst = ratio;
                    worst_row = i;
                }
            } else if (rs != ROW_NONE) {
                ratio = length < SCEN_TOLERANCE ? 1.0 : INFINITY;
                zero_wrong += length >= SCEN_TOLERANCE;
            }
            shorter += rs != ROW_NONE && length < opt - SCEN_TOLERANCE;
            // Exact paths are the optimum itself (Polyanya's tolerance).
            longer += rs != ROW_NONE &&
                      length > opt + (exact && check == CHECK_NOT_SHORTER ? SCEN_TOLERANCE
                                                                          : SCEN_LONGER_TOLERANCE);
            missing += rs != ROW_OK && opt > 0.0;
            printf("\t%.6f\t%.6f", opt, ratio);
        }
        printf("\n");
    }
    printf("summary\tok=%zu\tpartial=%zu\tnone=%zu", counts[ROW_OK], counts[ROW_PARTIAL],
           counts[ROW_NONE]);
    if (check != CHECK_NONE) {
        printf("\tmean_ratio=%.6f\tworst_ratio=%.6f\tworst_row=%zu\tzero_wrong=%zu",
               rated > 0 ? ratio_sum / (double)rated : NAN, worst, worst_row, zero_wrong);
        if (check == CHECK_NOT_SHORTER) {
            printf("\tshorter=%zu", shorter);
            if (exact) {
                printf("\tlonger=%zu", longer);
            }
        } else {
            printf("\tlonger=%zu\tmissing=%zu", longer, missing);
        }
    }
    printf("\n");
    free(corridor);
    free(points);
    double longer_allowed = exact ? 0.0 : SCEN_LONGER_ALLOWED * (double)count;
    bool failed = check == CHECK_NOT_LONGER
                      ? missing + zero_wrong > 0 || (double)longer > longer_allowed
                      : counts[ROW_PARTIAL] + counts[ROW_NONE] + shorter + zero_wrong > 0 ||
                            (exact && longer > 0);
    return failed ? EXIT_CHECK : 0;
}

int cmd_scen(int argc, char** argv) {
    const char *mesh_path = NULL, *map_path = NULL, *scen_path = NULL, *expected_path = NULL;
    double tile_size = 0.0, cell_size = 1.0, radius = 0.0;
    bool exact = false;
    for (int i = 1; i < argc; i += 2) {
        if (strcmp(argv[i], "--exact") == 0) {
            exact = true;
            i--; // a flag: no value follows
            continue;
        }
        const char** target = strcmp(argv[i], "--polyanya-mesh") == 0 ? &mesh_path
                              : strcmp(argv[i], "--map") == 0         ? &map_path
                              : strcmp(argv[i], "--scen") == 0        ? &scen_path
                              : strcmp(argv[i], "--expected") == 0    ? &expected_path
                                                                      : NULL;
        double* number = strcmp(argv[i], "--tile-size") == 0      ? &tile_size
                         : strcmp(argv[i], "--cell-size") == 0    ? &cell_size
                         : strcmp(argv[i], "--agent-radius") == 0 ? &radius
                                                                  : NULL;
        if ((target == NULL && number == NULL) || i + 1 >= argc) {
            fprintf(stderr, "wayfarer scen: unknown or incomplete option %s\n", argv[i]);
            return usage_error("scen");
        }
        if (number != NULL &&
            (!parse_double(argv[i + 1], number) || *number < 0.0 || *number > FLT_MAX)) {
            fprintf(stderr, "wayfarer scen: %s needs a number >= 0 (a float)\n", argv[i]);
            return usage_error("scen");
        }
        if (target != NULL) {
            *target = argv[i + 1];
        }
    }
    if ((mesh_path == NULL) == (map_path == NULL) || scen_path == NULL ||
        (map_path != NULL && expected_path != NULL)) {
        fprintf(stderr, "wayfarer scen: --scen and one of --polyanya-mesh or --map are required"
                        " (--expected goes with --polyanya-mesh)\n");
        return usage_error("scen");
    }
    scen_row* rows = NULL;
    size_t count = 0, size = 0;
    char* text = NULL;
    int rc = read_file(scen_path, &text, &size);
    if (rc == 0) {
        rc = parse_scen(scen_path, text, &rows, &count);
        free(text);
    }
    if (rc == 0 && expected_path != NULL && (rc = read_file(expected_path, &text, &size)) == 0) {
        rc = parse_expected(expected_path, text, rows, count);
        free(text);
    }
    scen_check check = expected_path != NULL ? CHECK_NOT_SHORTER : CHECK_NONE;
    scen_points at = {0.0, wf_v3(0.01f, 1.0f, 0.01f)};
    if (map_path != NULL) {
        check = CHECK_NOT_LONGER;
        at.offset = 0.5;
        at.half = wf_v3(0.5f, 1.0f, 0.5f);
        for (size_t i = 0; rows != NULL && i < count; ++i) {
            rows[i].optimal = rows[i].octile;
        }
    }
    wf_mesh* mesh = NULL;
    wf_query* q = NULL;
    if (rc == 0) {
        rc = map_path != NULL ? load_grid_map(map_path, (float)cell_size, (float)radius,
                                              (uint32_t)fmin(tile_size, 4294967295.0), &mesh)
                              : load_polyanya(mesh_path, (float)tile_size, &mesh);
    }
    if (rc == 0 &&
        wf_query_create(&(wf_query_desc){.mesh = mesh, .max_nodes = SCEN_MAX_NODES}, &q) != WF_OK) {
        fprintf(stderr, "wayfarer: cannot create a query\n");
        rc = EXIT_INPUT;
    }
    if (rc == 0) {
        rc = run_scenarios(q, rows, count, &at, check, exact);
    }
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
    free(rows);
    return rc;
}
