// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The `wayfarer` command: one function per subcommand; results go to stdout
// as tab-separated lines, diagnostics to stderr.
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wayfarer/navmesh.h"
#include "wayfarer/query.h"

/// Exit codes: 0 success, 1 unreadable or bad input, 2 usage, 3 a check failed.
enum { EXIT_INPUT = 1, EXIT_USAGE = 2, EXIT_CHECK = 3 };

/// Paths shorter than the expected optimum by more than this are wrong
/// (the tolerance the reference Polyanya tests use).
#define SCEN_TOLERANCE 1e-4
/// Search nodes and corridor length for one scenario: enough for any grid
/// map mesh of up to a few hundred thousand polygons along one path.
#define SCEN_MAX_NODES 65536u
#define SCEN_MAX_CORRIDOR 65536u
#define SCEN_MAX_STRAIGHT 1024u

typedef struct subcommand {
    const char* name;
    int (*run)(int argc, char** argv);
    const char* usage;
} subcommand;

static int cmd_scen(int argc, char** argv);

static const subcommand subcommands[] = {
    {"scen", cmd_scen,
     "scen --polyanya-mesh FILE --scen FILE [--tile-size S] [--expected TSV]\n"
     "      runs every row of a Moving AI scenario file on a Polyanya mesh; prints\n"
     "      'row<TAB>ok|partial|none<TAB>length[<TAB>optimal<TAB>ratio]' per row and a\n"
     "      'summary' line; exits 3 if a path is missing or shorter than expected"},
};
#define SUBCOMMAND_COUNT (sizeof subcommands / sizeof subcommands[0])

static int usage(void) {
    fprintf(stderr, "usage: wayfarer <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < SUBCOMMAND_COUNT; ++i) {
        fprintf(stderr, "  %s\n", subcommands[i].usage);
    }
    return EXIT_USAGE;
}

/// Whole file into a malloc'd buffer (not NUL-terminated for the importer,
/// but one spare NUL byte is added for the line parsers here).
static int read_file(const char* path, char** out, size_t* out_size) {
    FILE* f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "wayfarer: cannot open %s: %s\n", path, strerror(errno));
        return EXIT_INPUT;
    }
    size_t size = 0, cap = 1 << 16;
    char* data = malloc(cap);
    while (data != NULL) {
        size += fread(data + size, 1, cap - size - 1, f);
        if (size + 1 < cap) {
            break;
        }
        char* grown = realloc(data, cap * 2);
        if (grown == NULL) {
            free(data);
            data = NULL;
            break;
        }
        data = grown;
        cap *= 2;
    }
    bool failed = data == NULL || ferror(f);
    fclose(f);
    if (failed) {
        fprintf(stderr, "wayfarer: cannot read %s\n", path);
        free(data);
        return EXIT_INPUT;
    }
    data[size] = '\0';
    *out = data;
    *out_size = size;
    return 0;
}

/* ---------------------------------------------------------------------------
 * scen
 */

typedef struct scen_row {
    double start_x, start_y, goal_x, goal_y;
    double optimal; ///< from --expected; NAN without it
} scen_row;

/// Splits a line in place into at most max whitespace-separated tokens.
static int split_tokens(char* line, char** tokens, int max) {
    int n = 0;
    for (char* t = strtok(line, " \t\r"); t != NULL && n < max; t = strtok(NULL, " \t\r")) {
        tokens[n++] = t;
    }
    return n;
}

static bool parse_double(const char* s, double* out) {
    char* end = NULL;
    *out = strtod(s, &end);
    return end != s && *end == '\0' && isfinite(*out);
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
        scen_row r = {0, 0, 0, 0, NAN};
        if (n < 9 || !parse_double(tokens[n - 5], &r.start_x) ||
            !parse_double(tokens[n - 4], &r.start_y) || !parse_double(tokens[n - 3], &r.goal_x) ||
            !parse_double(tokens[n - 2], &r.goal_y)) {
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

typedef enum { ROW_OK, ROW_PARTIAL, ROW_NONE } row_status;

/// Nearest polygons, corridor, funnel; length of the straight path in 3D.
static row_status run_row(wf_query* q, const scen_row* row, wf_poly_ref* corridor,
                          wf_straight_point* points, double* out_length) {
    const wf_query_filter filter = wf_query_filter_defaults();
    // Scenario points are grid corners, often on obstacle corners: a tiny
    // box finds the polygon touching them.
    const wf_vec3 half = wf_v3(0.01f, 1.0f, 0.01f);
    wf_vec3 a = wf_v3((float)row->start_x, 0.0f, (float)row->start_y);
    wf_vec3 b = wf_v3((float)row->goal_x, 0.0f, (float)row->goal_y);
    wf_poly_ref start, goal;
    wf_vec3 sp, gp;
    *out_length = NAN;
    if (wf_query_find_nearest_poly(q, a, half, &filter, &start, &sp) != WF_OK ||
        wf_query_find_nearest_poly(q, b, half, &filter, &goal, &gp) != WF_OK) {
        return ROW_NONE;
    }
    wf_path_result pr;
    wf_status ps = wf_query_find_path(q, start, goal, sp, gp, &filter, corridor, SCEN_MAX_CORRIDOR,
                                      &pr);
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

/// Runs every row, prints per-row lines and the summary; returns the exit code.
static int run_scenarios(wf_query* q, const scen_row* rows, size_t count, bool expected) {
    wf_poly_ref* corridor = malloc(SCEN_MAX_CORRIDOR * sizeof *corridor);
    wf_straight_point* points = malloc(SCEN_MAX_STRAIGHT * sizeof *points);
    if (corridor == NULL || points == NULL) {
        free(corridor);
        free(points);
        fprintf(stderr, "wayfarer: out of memory\n");
        return EXIT_INPUT;
    }
    static const char* const names[] = {"ok", "partial", "none"};
    size_t counts[3] = {0, 0, 0}, shorter = 0, zero_wrong = 0, rated = 0, worst_row = 0;
    double ratio_sum = 0.0, worst = 0.0;
    for (size_t i = 0; i < count; ++i) {
        double length;
        row_status rs = run_row(q, &rows[i], corridor, points, &length);
        counts[rs]++;
        printf("%zu\t%s\t%.6f", i, names[rs], length);
        if (expected) {
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
            printf("\t%.6f\t%.6f", opt, ratio);
        }
        printf("\n");
    }
    printf("summary\tok=%zu\tpartial=%zu\tnone=%zu", counts[ROW_OK], counts[ROW_PARTIAL],
           counts[ROW_NONE]);
    if (expected) {
        printf("\tmean_ratio=%.6f\tworst_ratio=%.6f\tworst_row=%zu\tshorter=%zu\tzero_wrong=%zu",
               rated > 0 ? ratio_sum / (double)rated : NAN, worst, worst_row, shorter, zero_wrong);
    }
    printf("\n");
    free(corridor);
    free(points);
    bool failed = counts[ROW_PARTIAL] + counts[ROW_NONE] + shorter + zero_wrong > 0;
    return failed ? EXIT_CHECK : 0;
}

static int cmd_scen(int argc, char** argv) {
    const char *mesh_path = NULL, *scen_path = NULL, *expected_path = NULL;
    double tile_size = 0.0;
    for (int i = 1; i < argc; i += 2) {
        const char** target = strcmp(argv[i], "--polyanya-mesh") == 0 ? &mesh_path
                            : strcmp(argv[i], "--scen") == 0         ? &scen_path
                            : strcmp(argv[i], "--expected") == 0     ? &expected_path
                                                                     : NULL;
        bool is_tile = strcmp(argv[i], "--tile-size") == 0;
        if ((target == NULL && !is_tile) || i + 1 >= argc) {
            fprintf(stderr, "wayfarer scen: unknown or incomplete option %s\n", argv[i]);
            return usage();
        }
        if (is_tile && (!parse_double(argv[i + 1], &tile_size) || tile_size < 0.0)) {
            fprintf(stderr, "wayfarer scen: --tile-size needs a number >= 0\n");
            return usage();
        }
        if (target != NULL) {
            *target = argv[i + 1];
        }
    }
    if (mesh_path == NULL || scen_path == NULL) {
        fprintf(stderr, "wayfarer scen: --polyanya-mesh and --scen are required\n");
        return usage();
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
    wf_mesh* mesh = NULL;
    wf_query* q = NULL;
    if (rc == 0) {
        rc = load_polyanya(mesh_path, (float)tile_size, &mesh);
    }
    if (rc == 0 &&
        wf_query_create(&(wf_query_desc){.mesh = mesh, .max_nodes = SCEN_MAX_NODES}, &q) != WF_OK) {
        fprintf(stderr, "wayfarer: cannot create a query\n");
        rc = EXIT_INPUT;
    }
    if (rc == 0) {
        rc = run_scenarios(q, rows, count, expected_path != NULL);
    }
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
    free(rows);
    return rc;
}

int main(int argc, char** argv) {
    if (argc < 2) {
        return usage();
    }
    for (size_t i = 0; i < SUBCOMMAND_COUNT; ++i) {
        if (strcmp(argv[1], subcommands[i].name) == 0) {
            return subcommands[i].run(argc - 1, argv + 1);
        }
    }
    if (strcmp(argv[1], "--help") != 0 && strcmp(argv[1], "-h") != 0) {
        fprintf(stderr, "wayfarer: unknown command %s\n", argv[1]);
    }
    return usage();
}
