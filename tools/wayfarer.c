// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The `wayfarer` command: one function per subcommand (shared helpers in
// tool.c, larger subcommands in files of their own); results go to stdout
// as tab-separated lines or JSON, diagnostics to stderr.
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/tool.h"
#include "wayfarer/jobs.h"
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

typedef struct subcommand {
    const char* name;
    int (*run)(int argc, char** argv);
    const char* usage;
} subcommand;

static int cmd_build(int argc, char** argv);
static int cmd_info(int argc, char** argv);
static int cmd_scen(int argc, char** argv);

static const subcommand subcommands[] = {
    {"demo", cmd_demo,
     "demo [--agents N] [--frames F] [--seed S] [--workers W] [--level FILE.obj|FILE.wfc]\n"
     "      [--out FILE.html] [--svg FILE.svg] [--quiet]\n"
     "      the generated level (floors, ramps, rooms with doors, a bridge, open ground;\n"
     "      from the seed) or your own, N agents (default 1000) walking to new random\n"
     "      targets for F frames of 1/30 s (default 1000) while doors open and close and\n"
     "      crates drop and go; shows progress, prints a summary and writes an HTML replay\n"
     "      (default wayfarer-demo.html; open it in a browser); agents at most 16777216,\n"
     "      frames at most 1000000, workers at most 256 (the same for crowd)"},
    {"build", cmd_build,
     "build MESH.obj -o OUT.wfc [--cell-size M] [--cell-height M] [--agent-height M]\n"
     "      [--agent-radius M] [--agent-climb M] [--max-slope DEG] [--tile-size CELLS]\n"
     "      [--min-region CELLS] [--merge-region CELLS] [--max-edge M] [--max-error CELLS]\n"
     "      [--verts-per-poly N] [--workers N] [--max-tiles N] [--max-cells N]\n"
     "      [--max-triangle-refs N]\n"
     "      builds a tile cache from a Wavefront OBJ (defaults: the Recast demo settings)\n"
     "      and writes it; prints 'key<TAB>value' lines (tiles, layers, bytes, build_ms).\n"
     "      Says on stderr how many tiles and cells it is about to build and refuses\n"
     "      (exit 2) above --max-tiles (default 65536), --max-cells (default 268435456,\n"
     "      also the cells its triangles cover) or --max-triangle-refs (default 16777216)"},
    {"info", cmd_info,
     "info FILE.wfc [--json]\n"
     "      loads a tile cache, builds its navmesh and prints tiles, layers, raw and\n"
     "      compressed bytes, walkable area, navmesh polygons and bytes, build times"},
    {"scen", cmd_scen,
     "scen --polyanya-mesh FILE --scen FILE [--tile-size S] [--expected TSV] [--exact]\n"
     "      runs every row of a Moving AI scenario file on a Polyanya mesh; prints\n"
     "      'row<TAB>ok|partial|none<TAB>length[<TAB>optimal<TAB>ratio]' per row and a\n"
     "      'summary' line; exits 3 if a path is missing or shorter than expected\n"
     "  scen --map FILE.map --scen FILE [--cell-size M] [--agent-radius M] [--exact]\n"
     "      [--tile-size CELLS] (cells per tile side, default 64, at most 255)\n"
     "      builds a tile cache and navmesh from the grid map (one metre per grid cell;\n"
     "      scenario points are cell centres) and runs every row the same way against\n"
     "      the .scen's octile optimum; exits 3 if a reachable pair is not found or\n"
     "      more than 1% of the paths are longer than the octile optimum\n"
     "      --exact: exact path mode (shortest any-angle paths); then a path longer\n"
     "      than the expected optimum, or any longer than octile, also fails"},
    {"check", cmd_check,
     "check FILE.wfc [--obstacles N] [--seed S] [--offset M] [--spacing M] [--max-climb M]\n"
     "      [--max-failures K]\n"
     "      loads a tile cache, builds its navmesh and checks it: rays across every tile\n"
     "      seam between walkable points either side (M from the seam, every M along it,\n"
     "      heights within the climb), links that point both ways, convex polygons; with\n"
     "      --obstacles, again after N cylinders dropped across seams are carved. Prints a\n"
     "      JSON report listing every failure (up to K, default 1000) with its position;\n"
     "      exits 0 only when clean, 3 when a check failed"},
    {"obstacles", cmd_obstacles,
     "obstacles FILE.wfc [--count N] [--workers N] [--budget-us U] [--seed S]\n"
     "      loads a tile cache, builds its navmesh, adds N cylinder obstacles (radius 1,\n"
     "      height 2; default 50) at random walkable points, updates until every tile is\n"
     "      rebuilt, removes them and updates again (U: time budget per update call,\n"
     "      default 1000, 0 = none); prints one JSON object: calls, total and largest call\n"
     "      times of both phases, layers rebuilt, and the single-thread time of an update\n"
     "      that rebuilds one layer (mean, p95)"},
    {"crowd", cmd_crowd,
     "crowd --cache FILE.wfc [--agents N] [--frames F] [--seed S] [--workers W]\n"
     "      [--gap-every K] [--avoidance low|medium|high|ultra]\n"
     "      N agents (default 1000; radius = the cache's agent radius, or 0.6 m for a cache\n"
     "      built with radius 0; 3.5 m/s, accel 8,\n"
     "      avoidance preset default high) walk to random targets on the cache's navmesh for F frames of\n"
     "      1/30 s (default 300), a new target on every arrival; prints one JSON object:\n"
     "      frame ms mean and p95, us per agent per frame, arrivals, path waits, replans,\n"
     "      smallest gap between agents (checked every K frames, 0 = never), agents off\n"
     "      the mesh, memory, and the mean ms of every phase"},
    {"scenarios", cmd_scenarios,
     "scenarios [--scene NAME[,NAME...]] [--seconds S] [--avoidance low|medium|high|ultra]\n"
     "      [--workers N] [--agents N] [--seed S] [--runs N] [--crowding C] [--testdata DIR]\n"
     "      [--json]\n"
     "      the crowd scenario suite (default: every scene): circle32, circle128, crossing,\n"
     "      door_1way_1.5|2|3, door_2way_1.5|2|3, two_doors, corridor, tjunction, nav_test500\n"
     "      (skipped without DIR/recast, default ../shared/testdata), demo; RecastDemo crowd\n"
     "      settings at 30 Hz for S seconds (default 60; demo 1,000 frames); prints per scene\n"
     "      arrivals (within 0.6 m) at 10/30/60 s, arrival times, path length over the\n"
     "      shortest, overlaps, standing time, crowd events, us per agent per frame\n"
     "      (docs/crowd.md); a table, or one JSON object with --json; --runs N: means of N\n"
     "      runs (seeds S, S+1, ..., formations shaken up to 0.15 m), at most 100;\n"
     "      --crowding C: the crowd's crowding_cost (routes around jams; default 0, off)"},
};
#define SUBCOMMAND_COUNT (sizeof subcommands / sizeof subcommands[0])

int usage(void) {
    fprintf(stderr, "usage: wayfarer <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < SUBCOMMAND_COUNT; ++i) {
        fprintf(stderr, "  %s\n", subcommands[i].usage);
    }
    return EXIT_USAGE;
}

/* ---------------------------------------------------------------------------
 * build
 */

typedef struct number_option {
    const char* name;
    float* real;
    uint32_t* whole;
} number_option;

/// Says how many tiles and cells the build covers before it starts, and
/// refuses (exit 2) above --max-tiles or --max-cells, naming the option.
static int announce_build(const wf_tilecache* tc, const wf_geom_data* geom, uint32_t max_tiles,
                          uint64_t max_cells) {
    wf_geom view = wf_geom_data_view(geom);
    wf_vec3 lo = wf_v3(0, 0, 0), hi = wf_v3(0, 0, 0);
    if (!wf_geom_bounds(&view, &lo, &hi)) {
        return 0; // the build says what is wrong
    }
    wf_tilecache_build_plan plan;
    wf_status s = wf_tilecache_plan_build(tc, lo, hi, &plan);
    if (s == WF_ERR_INVALID_ARG) {
        return 0; // likewise
    }
    fprintf(stderr, "wayfarer build: building %llu tiles (%u x %u), %llu cells\n",
            (unsigned long long)plan.tiles, plan.tiles_x, plan.tiles_z,
            (unsigned long long)plan.cells);
    if (s == WF_ERR_CAPACITY) {
        max_tiles = max_tiles != 0 ? max_tiles : WF_TILECACHE_DEFAULT_MAX_TILES;
        max_cells = max_cells != 0 ? max_cells : WF_TILECACHE_DEFAULT_MAX_CELLS;
        if (plan.tiles > max_tiles) {
            fprintf(stderr, "wayfarer build: %llu tiles is more than --max-tiles %u; raise it "
                            "to build this\n", (unsigned long long)plan.tiles, max_tiles);
        } else {
            fprintf(stderr, "wayfarer build: %llu cells is more than --max-cells %llu; raise it "
                            "to build this\n", (unsigned long long)plan.cells,
                    (unsigned long long)max_cells);
        }
        return EXIT_USAGE;
    }
    return 0;
}

static int cmd_build(int argc, char** argv) {
    const char *mesh_path = NULL, *out_path = NULL;
    wf_tilecache_params p = wf_tilecache_params_recast_demo();
    uint32_t workers = 1, max_tiles = 0, max_refs = 0;
    float max_cells = 0.0f; // a count, read as a number (it may pass 2^32)
    const number_option options[] = {
        {"--cell-size", &p.cell_size, NULL},
        {"--cell-height", &p.cell_height, NULL},
        {"--agent-height", &p.agent_height, NULL},
        {"--agent-radius", &p.agent_radius, NULL},
        {"--agent-climb", &p.agent_climb, NULL},
        {"--max-slope", &p.agent_max_slope, NULL},
        {"--tile-size", NULL, &p.tile_size},
        {"--min-region", NULL, &p.min_region_area},
        {"--merge-region", NULL, &p.merge_region_area},
        {"--max-edge", &p.max_edge_length, NULL},
        {"--max-error", &p.max_simplification_error, NULL},
        {"--verts-per-poly", NULL, &p.max_verts_per_poly},
        {"--workers", NULL, &workers},
        {"--max-tiles", NULL, &max_tiles},
        {"--max-triangle-refs", NULL, &max_refs},
        {"--max-cells", &max_cells, NULL},
    };
    for (int i = 1; i < argc; ++i) {
        if (argv[i][0] != '-') {
            if (mesh_path != NULL) {
                fprintf(stderr, "wayfarer build: one mesh only (%s)\n", argv[i]);
                return usage();
            }
            mesh_path = argv[i];
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "wayfarer build: %s needs a value\n", argv[i]);
            return usage();
        }
        const char* value = argv[++i];
        if (strcmp(argv[i - 1], "-o") == 0) {
            out_path = value;
            continue;
        }
        const number_option* o = NULL;
        for (size_t k = 0; k < sizeof options / sizeof options[0] && o == NULL; ++k) {
            o = strcmp(argv[i - 1], options[k].name) == 0 ? &options[k] : NULL;
        }
        double real = 0.0;
        bool ok = o != NULL && (o->whole != NULL ? parse_count(value, o->whole)
                                                 : parse_double(value, &real));
        if (!ok) {
            fprintf(stderr, "wayfarer build: unknown option or bad value: %s %s\n", argv[i - 1],
                    value);
            return usage();
        }
        if (o->real != NULL) {
            *o->real = (float)real;
        }
    }
    if (mesh_path == NULL || out_path == NULL) {
        fprintf(stderr, "wayfarer build: a mesh and -o OUT are required\n");
        return usage();
    }
    char* text = NULL;
    size_t size = 0;
    int rc = read_file(mesh_path, &text, &size);
    if (rc != 0) {
        return rc;
    }
    wf_geom_data* geom = NULL;
    wf_status st = wf_geom_load_obj(text, size, &(wf_geom_load_desc){0}, &geom);
    free(text);
    if (st != WF_OK) {
        fprintf(stderr, "wayfarer: %s: %s\n", mesh_path, wf_status_string(st));
        return EXIT_INPUT;
    }
    wf_thread_pool* pool = NULL;
    wf_job_system jobs;
    wf_tilecache* tc = NULL;
    rc = make_jobs(workers, &pool, &jobs);
    if (rc == 0) {
        // Out-of-range settings are reported, not asserted on.
        wf_assert_fn* hook = wf_set_assert_hook(quiet_assert);
        bool limits_ok = max_tiles <= WF_TILECACHE_MAX_TILES && max_cells >= 0.0f &&
                         max_cells < 1.8e19f && max_cells == floorf(max_cells);
        wf_tilecache_desc d = {.params = p, .jobs = jobs, .max_tiles = max_tiles,
                               .max_cells = (uint64_t)(limits_ok ? max_cells : 0.0f),
                               .max_triangle_refs = max_refs};
        st = limits_ok ? wf_tilecache_create(&d, &tc) : WF_ERR_INVALID_ARG;
        wf_set_assert_hook(hook);
        if (!limits_ok) {
            fprintf(stderr, "wayfarer build: --max-tiles must be at most %u, --max-cells a "
                            "whole number\n", WF_TILECACHE_MAX_TILES);
            rc = EXIT_USAGE;
        } else if (st != WF_OK) {
            fprintf(stderr, "wayfarer build: the settings are out of range\n");
            rc = EXIT_USAGE;
        }
    }
    if (rc == 0) {
        rc = announce_build(tc, geom, max_tiles, (uint64_t)max_cells);
    }
    if (rc == 0 && (st = wf_tilecache_build_geom(tc, wf_geom_data_view(geom), NULL, 0)) != WF_OK) {
        fprintf(stderr, "wayfarer build: %s: %s\n", mesh_path, wf_status_string(st));
        rc = EXIT_INPUT;
        if (st == WF_ERR_CAPACITY) {
            fprintf(stderr, "wayfarer build: its triangles are over a limit (above); raise "
                            "--max-cells or --max-triangle-refs to build it\n");
            rc = EXIT_USAGE;
        }
    }
    unsigned char* file = NULL;
    size_t file_size = 0;
    if (rc == 0 && (wf_tilecache_save_size(tc, &file_size) != WF_OK ||
                    (file = malloc(file_size)) == NULL ||
                    wf_tilecache_save(tc, file, file_size) != WF_OK)) {
        fprintf(stderr, "wayfarer build: out of memory\n");
        rc = EXIT_INPUT;
    }
    if (rc == 0 && (rc = write_file(out_path, file, file_size)) == 0) {
        wf_tilecache_stats s = wf_tilecache_get_stats(tc);
        const report_field fields[] = {
            {"tiles", s.tile_count, true},
            {"layers", s.layer_count, true},
            {"raw_bytes", (double)s.raw_bytes, true},
            {"compressed_bytes", (double)s.compressed_bytes, true},
            {"walkable_area", s.walkable_area, false},
            {"build_ms", s.build_ms, false},
            {"build_cells", (double)s.build_cells, true},
            {"triangle_refs", (double)s.triangle_refs, true},
            {"triangle_cells", (double)s.triangle_cells, true},
            {"file_bytes", (double)file_size, true},
        };
        print_report(fields, sizeof fields / sizeof fields[0], false);
    }
    free(file);
    wf_tilecache_destroy(tc);
    wf_thread_pool_destroy(pool);
    wf_geom_data_destroy(geom);
    return rc;
}

/* ---------------------------------------------------------------------------
 * info
 */

static int cmd_info(int argc, char** argv) {
    const char* path = NULL;
    bool json = false;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (argv[i][0] != '-' && path == NULL) {
            path = argv[i];
        } else {
            fprintf(stderr, "wayfarer info: unknown option %s\n", argv[i]);
            return usage();
        }
    }
    if (path == NULL) {
        fprintf(stderr, "wayfarer info: a cache file is required\n");
        return usage();
    }
    char* data = NULL;
    size_t size = 0;
    int rc = read_file(path, &data, &size);
    if (rc != 0) {
        return rc;
    }
    wf_tilecache* tc = NULL;
    double start = now_ms();
    wf_status st = wf_tilecache_load(&(wf_tilecache_desc){0}, data, size, &tc);
    double load_ms = now_ms() - start;
    free(data);
    if (st != WF_OK) {
        fprintf(stderr, "wayfarer: %s: %s\n", path, wf_status_string(st));
        return EXIT_INPUT;
    }
    wf_mesh* mesh = NULL;
    double mesh_ms = 0.0;
    rc = cache_navmesh(tc, &mesh, &mesh_ms);
    if (rc == 0) {
        wf_tilecache_stats s = wf_tilecache_get_stats(tc);
        const wf_tilecache_params* p = wf_tilecache_get_params(tc);
        wf_mesh_stats ms = wf_mesh_get_stats(mesh);
        double mesh_bytes = 0.0;
        wf_tile_ref* tiles = malloc(sizeof *tiles * (ms.tile_count + 1u));
        uint32_t n = tiles != NULL ? wf_mesh_get_tiles(mesh, tiles, ms.tile_count) : 0;
        for (uint32_t i = 0; i < n; ++i) {
            wf_tile_info ti;
            if (wf_mesh_get_tile_info(mesh, tiles[i], &ti) == WF_OK) {
                mesh_bytes += (double)ti.data_size;
            }
        }
        free(tiles);
        const report_field fields[] = {
            {"file_bytes", (double)size, true},
            {"cell_size", p->cell_size, false},
            {"cell_height", p->cell_height, false},
            {"tile_size", p->tile_size, true},
            {"tiles", s.tile_count, true},
            {"layers", s.layer_count, true},
            {"raw_bytes", (double)s.raw_bytes, true},
            {"compressed_bytes", (double)s.compressed_bytes, true},
            {"walkable_cells", (double)s.walkable_cells, true},
            {"walkable_area", s.walkable_area, false},
            {"navmesh_tiles", ms.tile_count, true},
            {"navmesh_polys", ms.poly_count, true},
            {"navmesh_bytes", mesh_bytes, true},
            {"load_ms", load_ms, false},
            {"navmesh_build_ms", mesh_ms, false},
        };
        print_report(fields, sizeof fields / sizeof fields[0], json);
    }
    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(tc);
    return rc;
}

/* ---------------------------------------------------------------------------
 * scen
 */

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

static int cmd_scen(int argc, char** argv) {
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
                            : strcmp(argv[i], "--map") == 0           ? &map_path
                            : strcmp(argv[i], "--scen") == 0          ? &scen_path
                            : strcmp(argv[i], "--expected") == 0      ? &expected_path
                                                                      : NULL;
        double* number = strcmp(argv[i], "--tile-size") == 0    ? &tile_size
                       : strcmp(argv[i], "--cell-size") == 0    ? &cell_size
                       : strcmp(argv[i], "--agent-radius") == 0 ? &radius
                                                                : NULL;
        if ((target == NULL && number == NULL) || i + 1 >= argc) {
            fprintf(stderr, "wayfarer scen: unknown or incomplete option %s\n", argv[i]);
            return usage();
        }
        if (number != NULL &&
            (!parse_double(argv[i + 1], number) || *number < 0.0 || *number > FLT_MAX)) {
            fprintf(stderr, "wayfarer scen: %s needs a number >= 0 (a float)\n", argv[i]);
            return usage();
        }
        if (target != NULL) {
            *target = argv[i + 1];
        }
    }
    if ((mesh_path == NULL) == (map_path == NULL) || scen_path == NULL ||
        (map_path != NULL && expected_path != NULL)) {
        fprintf(stderr, "wayfarer scen: --scen and one of --polyanya-mesh or --map are required"
                        " (--expected goes with --polyanya-mesh)\n");
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
