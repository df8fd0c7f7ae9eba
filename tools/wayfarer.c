// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The `wayfarer` command: the subcommand table, help and version, and the
// two small subcommands build and info (the others have files of their
// own, shared helpers are in tool.c); results go to stdout as tab-separated
// lines or JSON, diagnostics to stderr.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tools/areas_file.h"
#include "tools/links_file.h"
#include "tools/tool.h"
#include "wayfarer/jobs.h"
#include "wayfarer/navmesh.h"
#include "wayfarer/tilecache.h"
#include "wayfarer/version.h"
#include "wayfarer/world.h"

typedef struct subcommand {
    const char* name;
    int (*run)(int argc, char** argv);
    const char* usage;
} subcommand;

static int cmd_build(int argc, char** argv);
static int cmd_info(int argc, char** argv);

static const subcommand subcommands[] = {
    {"demo", cmd_demo,
     "demo [--agents N] [--vehicles V] [--frames F] [--seed S] [--workers W]\n"
     "      [--level FILE.obj|FILE.wfc] [--out FILE.html] [--svg FILE.svg] [--quiet] [--json]\n"
     "      [--timings]\n"
     "  demo --export-level FILE.obj [--seed S] [--json]\n"
     "      the generated level (floors, ramps, rooms with doors, a bridge, open ground;\n"
     "      from the seed) or your own, N agents (default 1000) walking to new random\n"
     "      targets for F frames of 1/30 s (default 1000) while doors open and close and\n"
     "      crates drop and go; shows progress, prints a summary and writes an HTML replay\n"
     "      (default wayfarer-demo.html; open it in a browser); agents at most 16777216,\n"
     "      frames at most 1000000, workers at most 256 (the same for crowd).\n"
     "      The same seed gives the same run and the same replay file, for any worker\n"
     "      count; --timings adds the milliseconds of every frame to the replay (which\n"
     "      then differs run to run). --json: the summary as one JSON object.\n"
     "      --vehicles V: a second agent class (radius 1.2 m, height 2.5 m, its own\n"
     "      navmesh) among the people, ringed in the replay; default 8 (0 above 1008\n"
     "      agents: each class sees the other's agents as movers, 1024 at most). A cache\n"
     "      file level needs two classes for them (build --class); `classes` in the\n"
     "      summary gives each class's memory and build time.\n"
     "      --export-level: writes the generated level as a Wavefront OBJ and stops\n"
     "      (`wayfarer build FILE.obj -o FILE.wfc` makes it a cache for your program)"},
    {"build", cmd_build,
     "build MESH.obj -o OUT.wfc [--cell-size M] [--cell-height M] [--agent-height M]\n"
     "      [--agent-radius M] [--agent-climb M] [--max-slope DEG] [--tile-size CELLS]\n"
     "      [--min-region CELLS] [--merge-region CELLS] [--max-edge M] [--max-error CELLS]\n"
     "      [--verts-per-poly N] [--workers N] [--max-tiles N] [--max-cells N]\n"
     "      [--max-triangle-refs N] [--links FILE] [--generate-links [--jump-distance M]]\n"
     "      [--areas FILE] [--class NAME:RADIUS[:HEIGHT[:CLIMB]]]... [--json]\n"
     "      builds a tile cache from a Wavefront OBJ (defaults: the Recast demo settings)\n"
     "      and writes it; prints 'key<TAB>value' lines (tiles, layers, bytes, build_ms),\n"
     "      or one JSON object with --json.\n"
     "      Says on stderr how many tiles and cells it is about to build and refuses\n"
     "      (exit 2) above --max-tiles (default 65536), --max-cells (default 268435456,\n"
     "      also the cells its triangles cover) or --max-triangle-refs (default 16777216).\n"
     "      --links FILE: off-mesh links (docs/formats.md) stored in the cache;\n"
     "      --generate-links: adds drop-downs (and jumps up to --jump-distance M, default\n"
     "      none) found in the layers; offmesh_links in the report counts them all.\n"
     "      --areas FILE: OBJ material/group names -> area ids and polygon flags, and\n"
     "      convex area volumes (docs/formats.md); names not in it get area 0 (warned).\n"
     "      --class NAME:RADIUS[:HEIGHT[:CLIMB]] (up to 8, metres; left out: --agent-*):\n"
     "      one cache per agent size class in one multi-class file (docs/formats.md), the\n"
     "      figures of the first and `classes` (each: sizes, layers, memory_bytes,\n"
     "      build_ms wall clock and build_cpu_ms, the process CPU time)"},
    {"info", cmd_info,
     "info FILE.wfc [--json]\n"
     "      loads a tile cache, builds its navmesh and prints tiles, layers, raw and\n"
     "      compressed bytes, walkable area, navmesh polygons and bytes, off-mesh links\n"
     "      (offmesh_links), polygons per area (area_polys: \"AREA:COUNT ...\"), build times.\n"
     "      A multi-class file (build --class): the first class's figures, and `classes`,\n"
     "      one object per class (name, agent sizes, layers, navmesh, memory_bytes, times)"},
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
     "      [--max-failures K] [--class NAME]\n"
     "      --class NAME: one class of a multi-class file (build --class; default the\n"
     "      first class; an unknown name lists the file's)\n"
     "      loads a tile cache, builds its navmesh and checks it: rays across every tile\n"
     "      seam between walkable points either side (M from the seam, every M along it,\n"
     "      heights within the climb), links that point both ways, convex polygons; with\n"
     "      --obstacles, again after N cylinders dropped across seams are carved. Prints a\n"
     "      JSON report listing every failure (up to K, default 1000) with its position;\n"
     "      exits 0 only when clean, 3 when a check failed"},
    {"obstacles", cmd_obstacles,
     "obstacles FILE.wfc [--count N] [--workers N] [--budget-us U] [--seed S] [--class NAME]\n"
     "      --class NAME: one class of a multi-class file (build --class; default the\n"
     "      first class; an unknown name lists the file's)\n"
     "      loads a tile cache, builds its navmesh, adds N cylinder obstacles (radius 1,\n"
     "      height 2; default 50) at random walkable points, updates until every tile is\n"
     "      rebuilt, removes them and updates again (U: time budget per update call,\n"
     "      default 1000, 0 = none); prints one JSON object: calls, total and largest call\n"
     "      times of both phases, layers rebuilt, and the single-thread time of an update\n"
     "      that rebuilds one layer (mean, p95)"},
    {"crowd", cmd_crowd,
     "crowd FILE.wfc [--agents N] [--frames F] [--seed S] [--workers W]\n"
     "      [--gap-every K] [--avoidance low|medium|high|ultra] [--class NAME]\n"
     "      (or --cache FILE.wfc)\n"
     "      --class NAME: one class of a multi-class file (build --class; default the\n"
     "      first class; an unknown name lists the file's)\n"
     "      N agents (default 1000; radius = the cache's agent radius, or 0.6 m for a cache\n"
     "      built with radius 0; 3.5 m/s, accel 8, avoidance preset default high) walk to\n"
     "      random targets on the cache's navmesh for F frames of 1/30 s (default 300), a\n"
     "      new target on every arrival; prints one JSON object: frame ms mean and p95, us\n"
     "      per agent per frame, arrivals, path waits, replans, smallest gap between agents\n"
     "      in m (checked every K frames, default 10; null when never checked: K = 0),\n"
     "      agents off the mesh, memory, and the mean ms of every phase"},
    {"scenarios", cmd_scenarios,
     "scenarios [--scene NAME[,NAME...]] [--seconds S] [--avoidance low|medium|high|ultra]\n"
     "      [--workers N] [--agents N] [--seed S] [--runs N] [--crowding C] [--stuck-crowding C] "
     "[--flow C]\n"
     "      [--testdata DIR] [--trace FILE] [--trace-every S] [--json] [--export DIR]\n"
     "      the crowd scenario suite (default: every scene): circle32, circle128, crossing,\n"
     "      door_1way_1.5|2|3, door_2way_1.5|2|3, two_doors, corridor, tjunction, nav_test500\n"
     "      (skipped without DIR/recast, default ../shared/testdata), demo; RecastDemo crowd\n"
     "      settings at 30 Hz for S seconds (default 60; demo 1,000 frames); prints per scene\n"
     "      arrivals (within 0.6 m) at 10/30/60 s, arrival times, path length over the\n"
     "      shortest, overlaps, standing time, crowd events, us per agent per frame\n"
     "      (docs/crowd.md); a table, or one JSON object with --json; --runs N: means of N\n"
     "      runs (seeds S, S+1, ..., formations shaken up to 0.15 m), at most 100; with one\n"
     "      run the formations are exact and --seed changes only the random starts and\n"
     "      targets of nav_test500 and the demo, and the demo's level;\n"
     "      --crowding C: the crowd's crowding_cost (routes around jams; default 0, off);\n"
     "      --stuck-crowding C: the crowd's stuck_crowding_cost (held-up agents' local\n"
     "      re-searches step round jams; 0: default 8; -1: off);\n"
     "      --flow C: the crowd's flow_cost (local re-searches keep out of lanes with\n"
     "      walkers coming the other way; 0: default 16; -1: off);\n"
     "      --trace FILE: after the first frame, every S s (--trace-every, default 10) and at\n"
     "      the end, a tab-separated line per agent not yet at its first target (where it\n"
     "      is, its target state, corridor, speed, stuck time, path left, velocity, desired\n"
     "      velocity, the point it steers to, who stands close, the walls near it: columns\n"
     "      in docs/crowd.md); the demo also reports targets reachable in the time left\n"
     "      (at full speed when given) and how many were reached;\n"
     "      --export DIR: runs nothing; for each scene and run writes the triangles as\n"
     "      DIR/NAME-SEED.obj and the agents' starts, then first targets, as\n"
     "      DIR/NAME-SEED.points (x y z a line; seeds and formations as the runs have them;\n"
     "      the demo's later targets are not known before a run), for another crowd to run\n"
     "      the same work (bench/peer_compare.sh --scenes), and prints NAME-SEED, the OBJ and\n"
     "      the points file a line (tab-separated; NAME-SEED and `skipped` for a scene whose\n"
     "      test data is absent); --json, --trace, --seconds and --workers do not apply; exit\n"
     "      1 when a file cannot be written"},
};
#define SUBCOMMAND_COUNT (sizeof subcommands / sizeof subcommands[0])

static const subcommand* find_subcommand(const char* name) {
    for (size_t i = 0; i < SUBCOMMAND_COUNT; ++i) {
        if (strcmp(name, subcommands[i].name) == 0) {
            return &subcommands[i];
        }
    }
    return NULL;
}

/// The whole help: every command with its options.
static void print_help(FILE* f) {
    fprintf(f, "usage: wayfarer <command> [options]\n"
               "       wayfarer <command> --help    one command's options\n"
               "       wayfarer --version\n\ncommands:\n");
    for (size_t i = 0; i < SUBCOMMAND_COUNT; ++i) {
        fprintf(f, "  %s\n", subcommands[i].usage);
    }
    fprintf(f, "\nexit status: 0 done, 1 unreadable or bad input, 2 usage, 3 a check failed\n");
}

static void print_command_help(FILE* f, const subcommand* c) {
    fprintf(f, "usage: wayfarer %s\n", c->usage);
}

int usage_error(const char* command) {
    const subcommand* c = find_subcommand(command);
    if (c != NULL) {
        // The first line of the usage (its synopsis), and where the rest is.
        const char* end = strchr(c->usage, '\n');
        int n = end != NULL ? (int)(end - c->usage) : (int)strlen(c->usage);
        fprintf(stderr, "usage: wayfarer %.*s\n(wayfarer %s --help describes every option)\n", n,
                c->usage, command);
    }
    return EXIT_USAGE;
}

static bool is_help(const char* arg) {
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

/* ---------------------------------------------------------------------------
 * build
 */

typedef struct number_option {
    const char* name;
    float* real;
    uint32_t* whole;
    const char* field; ///< the wf_tilecache_params field it sets, or NULL
    const char* given; ///< the value on the command line, or NULL
} number_option;

/// The option behind a settings problem the tile cache logged: of those
/// given, the one whose field the message names first.
static const number_option* option_named_in(const number_option* options, size_t count,
                                            const char* message) {
    const number_option* best = NULL;
    const char* best_at = NULL;
    for (size_t k = 0; k < count; ++k) {
        const char* at = options[k].field != NULL && options[k].given != NULL
                             ? strstr(message, options[k].field)
                             : NULL;
        if (at != NULL && (best_at == NULL || at < best_at)) {
            best = &options[k];
            best_at = at;
        }
    }
    return best;
}

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
            fprintf(stderr,
                    "wayfarer build: %llu tiles is more than --max-tiles %u; raise it "
                    "to build this\n",
                    (unsigned long long)plan.tiles, max_tiles);
        } else {
            fprintf(stderr,
                    "wayfarer build: %llu cells is more than --max-cells %llu; raise it "
                    "to build this\n",
                    (unsigned long long)plan.cells, (unsigned long long)max_cells);
        }
        return EXIT_USAGE;
    }
    return 0;
}

/// Links a built cache may hold (the table is allocated when the first is
/// added): far above a level's hand-placed and generated links.
#define BUILD_MAX_LINKS (1u << 18)

/// --links FILE and --generate-links: added to the built cache.
static int add_links(wf_tilecache* tc, const char* mesh_path, const char* links_path, bool generate,
                     float jump_distance, tool_log* log) {
    if (links_path != NULL) {
        char* text = NULL;
        size_t size = 0;
        int rc = read_file(links_path, &text, &size);
        if (rc != 0) {
            return rc;
        }
        wf_offmesh_link_desc* links = NULL;
        uint32_t count = 0;
        const char* why = NULL;
        size_t bad_line = links_file_parse(text, size, wf_tilecache_get_params(tc)->agent_radius,
                                           &links, &count, &why);
        free(text);
        if (bad_line != 0) {
            fprintf(stderr, "wayfarer build: %s:%zu: %s\n", links_path, bad_line, why);
            return EXIT_INPUT;
        }
        log->hold = true;
        wf_status st = wf_tilecache_add_links(tc, links, count);
        log->hold = false;
        free(links);
        if (st != WF_OK) {
            fprintf(stderr, "wayfarer build: %s: %s (%s)\n", links_path, log->last_error,
                    wf_status_string(st));
            return EXIT_INPUT;
        }
    }
    if (generate) {
        wf_link_generation_desc g = {.max_jump_distance = jump_distance};
        wf_link_generation_result r;
        log->hold = true;
        wf_status st = wf_tilecache_generate_links(tc, &g, &r);
        log->hold = false;
        if (st != WF_OK) {
            fprintf(stderr, "wayfarer build: %s: generating links: %s (%s)\n", mesh_path,
                    log->last_error, wf_status_string(st));
            return st == WF_ERR_INVALID_ARG ? EXIT_USAGE : EXIT_INPUT;
        }
        fprintf(stderr,
                "wayfarer build: generated %u drop-downs, %u jumps (%u left out: full layers)\n",
                r.drops, r.jumps, r.skipped);
    }
    return 0;
}

/// --areas FILE: parsed, or a message naming the file and line.
static int read_areas(const char* path, areas_file* out) {
    char* text = NULL;
    size_t size = 0;
    int rc = read_file(path, &text, &size);
    if (rc != 0) {
        return rc;
    }
    const char* why = NULL;
    size_t bad_line = areas_file_parse(text, size, out, &why);
    free(text);
    if (bad_line != 0) {
        fprintf(stderr, "wayfarer build: %s:%zu: %s\n", path, bad_line, why);
        return EXIT_INPUT;
    }
    return 0;
}

/// What one class's build needs from the command line.
typedef struct build_setup {
    wf_tilecache_params params;
    wf_job_system jobs;
    uint32_t max_tiles, max_refs;
    float max_cells;
    const number_option* options;
    size_t option_count;
    const wf_geom_data* geom;
    const areas_file* areas;
    const char *mesh_path, *links_path;
    bool generate_links;
    float jump_distance;
    bool announce; ///< say the plan on stderr (once)
} build_setup;

/// Builds one tile cache (with its links) from the loaded level.
static int build_one(const build_setup* b, wf_tilecache** out, double* out_links_ms) {
    tool_log log = {.command = "build"};
    wf_tilecache* tc = NULL;
    int rc = 0;
    // Out-of-range settings are reported, not asserted on.
    wf_assert_fn* hook = wf_set_assert_hook(quiet_assert);
    bool limits_ok = b->max_tiles <= WF_TILECACHE_MAX_TILES && b->max_cells >= 0.0f &&
                     b->max_cells < 1.8e19f && b->max_cells == floorf(b->max_cells);
    wf_tilecache_desc d = {.params = b->params,
                           .jobs = b->jobs,
                           .max_tiles = b->max_tiles,
                           .max_cells = (uint64_t)(limits_ok ? b->max_cells : 0.0f),
                           .max_triangle_refs = b->max_refs,
                           .max_links = BUILD_MAX_LINKS,
                           .logger = tool_logger(&log)};
    log.hold = true; // a refusal is said below, naming the option
    wf_status st = limits_ok ? wf_tilecache_create(&d, &tc) : WF_ERR_INVALID_ARG;
    log.hold = false;
    wf_set_assert_hook(hook);
    if (!limits_ok) {
        fprintf(stderr,
                "wayfarer build: --max-tiles must be at most %u, --max-cells a "
                "whole number\n",
                WF_TILECACHE_MAX_TILES);
        rc = EXIT_USAGE;
    } else if (st != WF_OK) {
        // The tile cache logs which setting and why ("tilecache:
        // params: cell_size must be ..."); say it under the option.
        const char* why = log.last_error;
        const char* tail = strstr(why, "params: ");
        why = tail != NULL ? tail + strlen("params: ") : why;
        const number_option* o = option_named_in(b->options, b->option_count, why);
        if (o != NULL) {
            fprintf(stderr, "wayfarer build: %s %s: %s\n", o->name, o->given, why);
        } else {
            fprintf(stderr, "wayfarer build: the settings are out of range: %s\n",
                    why[0] != '\0' ? why : wf_status_string(st));
        }
        rc = EXIT_USAGE;
    }
    if (rc == 0 && b->announce) {
        rc = announce_build(tc, b->geom, b->max_tiles, (uint64_t)b->max_cells);
    }
    if (rc == 0 && (st = wf_tilecache_build_geom(tc, wf_geom_data_view(b->geom), b->areas->volumes,
                                                 b->areas->volume_count)) != WF_OK) {
        fprintf(stderr, "wayfarer build: %s: %s\n", b->mesh_path, wf_status_string(st));
        rc = EXIT_INPUT;
        if (st == WF_ERR_CAPACITY) {
            fprintf(stderr, "wayfarer build: its triangles are over a limit (above); raise "
                            "--max-cells or --max-triangle-refs to build it\n");
            rc = EXIT_USAGE;
        }
    }
    if (rc == 0) {
        double links_start = now_ms();
        rc = add_links(tc, b->mesh_path, b->links_path, b->generate_links, b->jump_distance, &log);
        *out_links_ms = now_ms() - links_start;
    }
    // A cache with no layer is valid but useless: say why instead of writing it.
    if (rc == 0 && wf_tilecache_get_stats(tc).layer_count == 0) {
        fprintf(stderr,
                "wayfarer build: %s: no walkable surface with these settings (check the "
                "level's up axis is +y, --max-slope, --agent-height and --agent-radius); "
                "nothing written\n",
                b->mesh_path);
        rc = EXIT_INPUT;
    }
    if (rc != 0) {
        wf_tilecache_destroy(tc);
        tc = NULL;
    }
    *out = tc;
    return rc;
}

/// One --class NAME:RADIUS[:HEIGHT[:CLIMB]] (metres; left out: the
/// --agent-* settings).
typedef struct build_class {
    char name[WF_WORLD_CLASS_NAME_MAX + 1];
    float radius, height, climb; ///< 0: the --agent-* value
    wf_tilecache* tc;
    double build_ms, build_cpu_ms, links_ms;
} build_class;

/// NULL, or why the text is no class.
static const char* parse_class(const char* text, build_class* out) {
    memset(out, 0, sizeof *out);
    const char* colon = strchr(text, ':');
    size_t n = colon != NULL ? (size_t)(colon - text) : strlen(text);
    if (n == 0 || n > WF_WORLD_CLASS_NAME_MAX) {
        return "the name must be 1..31 bytes";
    }
    for (size_t k = 0; k < n; ++k) {
        if (text[k] == ' ' || text[k] == '\t' || text[k] == '"' || text[k] == '\\') {
            return "the name may not hold blanks, quotes or backslashes";
        }
    }
    memcpy(out->name, text, n);
    float* sizes[3] = {&out->radius, &out->height, &out->climb};
    const char* at = colon;
    for (int k = 0; k < 3 && at != NULL; ++k) {
        char number[64];
        const char* next = strchr(at + 1, ':');
        size_t len = next != NULL ? (size_t)(next - at - 1) : strlen(at + 1);
        double v = 0.0;
        if (len == 0 || len >= sizeof number) {
            return "needs NAME:RADIUS[:HEIGHT[:CLIMB]] in metres";
        }
        memcpy(number, at + 1, len);
        number[len] = '\0';
        if (!parse_double(number, &v) || !(v > 0.0) || v > 1000.0) {
            return "each size must be a number above 0 and at most 1000 (m)";
        }
        *sizes[k] = (float)v;
        at = next;
    }
    if (at != NULL) {
        return "needs NAME:RADIUS[:HEIGHT[:CLIMB]] in metres";
    }
    return NULL;
}

/// The classes as a JSON array of objects (malloc'd; NULL when out of memory).
static char* classes_json(const build_class* classes, uint32_t count) {
    size_t room = 512u * count + 8u;
    char* out = malloc(room);
    size_t at = 0;
    for (uint32_t c = 0; c < count && out != NULL; ++c) {
        wf_tilecache_stats s = wf_tilecache_get_stats(classes[c].tc);
        const wf_tilecache_params* p = wf_tilecache_get_params(classes[c].tc);
        at += (size_t)snprintf(
            out + at, room - at,
            "%s{\"name\": \"%s\", \"agent_radius\": %.3f, \"agent_height\": %.3f, "
            "\"agent_climb\": %.3f, \"layers\": %u, \"compressed_bytes\": %llu, "
            "\"walkable_area_m2\": %.3f, \"offmesh_links\": %u, \"memory_bytes\": %zu, "
            "\"build_ms\": %.3f, \"build_cpu_ms\": %.3f}",
            c == 0 ? "[" : ", ", classes[c].name, p->agent_radius, p->agent_height, p->agent_climb,
            s.layer_count, (unsigned long long)s.compressed_bytes, s.walkable_area,
            wf_tilecache_link_count(classes[c].tc), s.memory_bytes, classes[c].build_ms,
            classes[c].build_cpu_ms);
    }
    if (out != NULL) {
        snprintf(out + at, room - at, "]");
    }
    return out;
}

static int cmd_build(int argc, char** argv) {
    const char* areas_path = NULL;
    areas_file areas = {0};
    const char *mesh_path = NULL, *out_path = NULL, *links_path = NULL;
    bool generate_links = false;
    float jump_distance = 0.0f;
    wf_tilecache_params p = wf_tilecache_params_recast_demo();
    uint32_t workers = 1, max_tiles = 0, max_refs = 0;
    float max_cells = 0.0f; // a count, read as a number (it may pass 2^32)
    bool json = false;
    build_class classes[WF_WORLD_MAX_CLASSES];
    uint32_t class_count = 0;
    number_option options[] = {
        {"--cell-size", &p.cell_size, NULL, "cell_size", NULL},
        {"--cell-height", &p.cell_height, NULL, "cell_height", NULL},
        {"--agent-height", &p.agent_height, NULL, "agent_height", NULL},
        {"--agent-radius", &p.agent_radius, NULL, "agent_radius", NULL},
        {"--agent-climb", &p.agent_climb, NULL, "agent_climb", NULL},
        {"--max-slope", &p.agent_max_slope, NULL, "agent_max_slope", NULL},
        {"--tile-size", NULL, &p.tile_size, "tile_size", NULL},
        {"--min-region", NULL, &p.min_region_area, "min_region_area", NULL},
        {"--merge-region", NULL, &p.merge_region_area, "merge_region_area", NULL},
        {"--max-edge", &p.max_edge_length, NULL, "max_edge_length", NULL},
        {"--max-error", &p.max_simplification_error, NULL, "max_simplification_error", NULL},
        {"--verts-per-poly", NULL, &p.max_verts_per_poly, "max_verts_per_poly", NULL},
        {"--workers", NULL, &workers, NULL, NULL},
        {"--max-tiles", NULL, &max_tiles, NULL, NULL},
        {"--max-triangle-refs", NULL, &max_refs, NULL, NULL},
        {"--max-cells", &max_cells, NULL, NULL, NULL},
        {"--jump-distance", &jump_distance, NULL, NULL, NULL},
    };
    const size_t option_count = sizeof options / sizeof options[0];
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--json") == 0) {
            json = true;
            continue;
        }
        if (strcmp(argv[i], "--generate-links") == 0) {
            generate_links = true;
            continue;
        }
        if (argv[i][0] != '-') {
            if (mesh_path != NULL) {
                fprintf(stderr, "wayfarer build: one mesh only (%s)\n", argv[i]);
                return usage_error("build");
            }
            mesh_path = argv[i];
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "wayfarer build: %s needs a value\n", argv[i]);
            return usage_error("build");
        }
        const char* value = argv[++i];
        if (strcmp(argv[i - 1], "-o") == 0) {
            out_path = value;
            continue;
        }
        if (strcmp(argv[i - 1], "--links") == 0) {
            links_path = value;
            continue;
        }
        if (strcmp(argv[i - 1], "--areas") == 0) {
            areas_path = value;
            continue;
        }
        if (strcmp(argv[i - 1], "--class") == 0) {
            const char* why = NULL;
            if (class_count == WF_WORLD_MAX_CLASSES) {
                why = "at most 8 classes";
            } else if ((why = parse_class(value, &classes[class_count])) == NULL) {
                for (uint32_t k = 0; k < class_count && why == NULL; ++k) {
                    why = strcmp(classes[k].name, classes[class_count].name) == 0
                              ? "two classes of one name"
                              : NULL;
                }
            }
            if (why != NULL) {
                fprintf(stderr, "wayfarer build: --class %s: %s\n", value, why);
                return usage_error("build");
            }
            class_count++;
            continue;
        }
        number_option* o = NULL;
        for (size_t k = 0; k < option_count && o == NULL; ++k) {
            o = strcmp(argv[i - 1], options[k].name) == 0 ? &options[k] : NULL;
        }
        if (o == NULL) {
            fprintf(stderr, "wayfarer build: unknown option %s\n", argv[i - 1]);
            return usage_error("build");
        }
        double real = 0.0;
        if (!(o->whole != NULL ? parse_count(value, o->whole) : parse_double(value, &real))) {
            fprintf(stderr, "wayfarer build: %s %s: needs a %s\n", o->name, value,
                    o->whole != NULL ? "whole number 0..4294967295" : "finite number");
            return usage_error("build");
        }
        if (o->real != NULL) {
            *o->real = (float)real;
        }
        o->given = value;
    }
    if (mesh_path == NULL || out_path == NULL) {
        fprintf(stderr, "wayfarer build: %s\n",
                mesh_path == NULL ? "a mesh (LEVEL.obj) is required" : "-o OUT.wfc is required");
        return usage_error("build");
    }
    // The output is checked before the work that leads to it.
    int rc = check_writable("build", out_path);
    if (rc != 0) {
        return rc;
    }
    char* text = NULL;
    size_t size = 0;
    rc = read_file(mesh_path, &text, &size);
    if (rc != 0) {
        return rc;
    }
    if (level_kind_of(mesh_path, text, size) == LEVEL_CACHE) {
        free(text);
        fprintf(stderr,
                "wayfarer build: %s is a tile cache already (build reads a Wavefront "
                "OBJ; `wayfarer info`, `crowd` and `demo --level` take a cache)\n",
                mesh_path);
        return EXIT_INPUT;
    }
    if (areas_path != NULL && (rc = read_areas(areas_path, &areas)) != 0) {
        free(text);
        return rc;
    }
    for (uint32_t a = 0; a < WF_MAX_AREAS; ++a) {
        p.area_flags[a] = areas.area_flags[a] != 0 ? areas.area_flags[a] : p.area_flags[a];
    }
    tool_log log = {.command = "build"};
    wf_geom_data* geom = NULL;
    wf_geom_load_desc load = {.logger = tool_logger(&log),
                              .area_names = areas.names,
                              .area_name_count = areas.name_count};
    wf_status st = wf_geom_load_obj(text, size, &load, &geom);
    free(text);
    if (st != WF_OK) {
        fprintf(stderr, "wayfarer build: %s: not a Wavefront OBJ it can read (%s)\n", mesh_path,
                wf_status_string(st));
        areas_file_free(&areas);
        return EXIT_INPUT;
    }
    if (wf_geom_data_view(geom).tri_count == 0) {
        fprintf(stderr,
                "wayfarer build: %s: no faces ('f' lines) in it: build reads a Wavefront "
                "OBJ with the level's triangles\n",
                mesh_path);
        wf_geom_data_destroy(geom);
        areas_file_free(&areas);
        return EXIT_INPUT;
    }
    wf_thread_pool* pool = NULL;
    wf_job_system jobs;
    rc = make_jobs(workers, &pool, &jobs);
    // Without --class: one class of the --agent-* settings, a plain file.
    bool multi = class_count > 0;
    if (!multi) {
        memset(&classes[0], 0, sizeof classes[0]);
        class_count = 1;
    }
    for (uint32_t c = 0; c < class_count && rc == 0; ++c) {
        build_class* k = &classes[c];
        wf_tilecache_params cp = p;
        cp.agent_radius = k->radius > 0.0f ? k->radius : cp.agent_radius;
        cp.agent_height = k->height > 0.0f ? k->height : cp.agent_height;
        cp.agent_climb = k->climb > 0.0f ? k->climb : cp.agent_climb;
        clock_t cpu_start = clock();
        rc = build_one(&(build_setup){.params = cp,
                                      .jobs = jobs,
                                      .max_tiles = max_tiles,
                                      .max_cells = max_cells,
                                      .max_refs = max_refs,
                                      .options = options,
                                      .option_count = option_count,
                                      .geom = geom,
                                      .areas = &areas,
                                      .mesh_path = mesh_path,
                                      .links_path = links_path,
                                      .generate_links = generate_links,
                                      .jump_distance = jump_distance,
                                      .announce = c == 0},
                       &k->tc, &k->links_ms);
        k->build_cpu_ms = 1000.0 * (double)(clock() - cpu_start) / CLOCKS_PER_SEC;
        if (rc == 0) {
            k->build_ms = wf_tilecache_get_stats(k->tc).build_ms;
        }
    }
    unsigned char* file = NULL;
    size_t file_size = 0;
    if (rc == 0) {
        const wf_tilecache* caches[WF_WORLD_MAX_CLASSES];
        const char* names[WF_WORLD_MAX_CLASSES];
        for (uint32_t c = 0; c < class_count; ++c) {
            caches[c] = classes[c].tc;
            names[c] = classes[c].name;
        }
        wf_status ws = multi ? wf_world_cache_write_size(caches, class_count, &file_size)
                             : wf_tilecache_save_size(classes[0].tc, &file_size);
        if (ws == WF_OK && (file = malloc(file_size)) == NULL) {
            ws = WF_ERR_OUT_OF_MEMORY;
        }
        if (ws == WF_OK) {
            ws = multi ? wf_world_cache_write(caches, names, class_count, file, file_size)
                       : wf_tilecache_save(classes[0].tc, file, file_size);
        }
        if (ws != WF_OK) {
            fprintf(stderr, "wayfarer build: out of memory\n");
            rc = EXIT_INPUT;
        }
    }
    if (rc == 0 && (rc = write_file(out_path, file, file_size)) == 0) {
        // The figures of the first class; with --class, each class's in
        // `classes` (a JSON array).
        wf_tilecache* tc = classes[0].tc;
        wf_tilecache_stats s = wf_tilecache_get_stats(tc);
        char* class_json = multi ? classes_json(classes, class_count) : NULL;
        const report_field fields[] = {
            {"tiles", s.tile_count, true, NULL},
            {"layers", s.layer_count, true, NULL},
            {"raw_bytes", (double)s.raw_bytes, true, NULL},
            {"compressed_bytes", (double)s.compressed_bytes, true, NULL},
            {"walkable_area_m2", s.walkable_area, false, NULL},
            {"build_ms", s.build_ms, false, NULL},
            {"build_cells", (double)s.build_cells, true, NULL},
            {"triangle_refs", (double)s.triangle_refs, true, NULL},
            {"triangle_cells", (double)s.triangle_cells, true, NULL},
            {"offmesh_links", wf_tilecache_link_count(tc), true, NULL},
            {"links_ms", classes[0].links_ms, false, NULL},
            {"area_names", areas.name_count, true, NULL},
            {"area_volumes", areas.volume_count, true, NULL},
            {"file_bytes", (double)file_size, true, NULL},
        };
        print_report_with(fields, sizeof fields / sizeof fields[0], json,
                          class_json != NULL ? "classes" : NULL, class_json);
        free(class_json);
    }
    free(file);
    for (uint32_t c = 0; c < class_count; ++c) {
        wf_tilecache_destroy(classes[c].tc);
    }
    wf_thread_pool_destroy(pool);
    wf_geom_data_destroy(geom);
    areas_file_free(&areas);
    return rc;
}

/* ---------------------------------------------------------------------------
 * info
 */

/// Polygons per area of one tile (off-mesh link polygons left out).
static void count_poly_areas(const wf_mesh* mesh, wf_tile_ref tile, uint32_t poly_count,
                             uint32_t per_area[WF_MAX_AREAS]) {
    for (uint32_t k = 0; k < poly_count; ++k) {
        wf_poly_ref ref = wf_mesh_poly_ref(mesh, tile, k);
        uint8_t area = 0;
        if (!wf_mesh_is_offmesh_link(mesh, ref) &&
            wf_mesh_get_poly_area(mesh, ref, &area) == WF_OK) {
            per_area[area % WF_MAX_AREAS]++;
        }
    }
}

/// One cache's figures for `info`.
typedef struct info_figures {
    wf_tilecache_stats stats;
    wf_tilecache_params params;
    wf_mesh_stats mesh;
    double mesh_bytes, load_ms, mesh_ms;
    uint32_t links;
    uint32_t per_area[WF_MAX_AREAS];
} info_figures;

/// Loads one tile cache file and builds its navmesh for the figures.
static int info_load(const char* path, const void* data, size_t size, info_figures* out) {
    memset(out, 0, sizeof *out);
    wf_tilecache* tc = NULL;
    tool_log log = {.command = "info", .hold = true};
    double start = now_ms();
    wf_status st = wf_tilecache_load(
        &(wf_tilecache_desc){.max_links = BUILD_MAX_LINKS, .logger = tool_logger(&log)}, data, size,
        &tc);
    out->load_ms = now_ms() - start;
    if (st != WF_OK) {
        report_cache_error("info", path, data, size, st, &log);
        return EXIT_INPUT;
    }
    log.hold = false;
    wf_mesh* mesh = NULL;
    int rc = cache_navmesh(tc, &mesh, &out->mesh_ms);
    if (rc == 0) {
        out->stats = wf_tilecache_get_stats(tc);
        out->params = *wf_tilecache_get_params(tc);
        out->mesh = wf_mesh_get_stats(mesh);
        out->links = wf_tilecache_link_count(tc);
        wf_tile_ref* tiles = malloc(sizeof *tiles * (out->mesh.tile_count + 1u));
        uint32_t n = tiles != NULL ? wf_mesh_get_tiles(mesh, tiles, out->mesh.tile_count) : 0;
        for (uint32_t i = 0; i < n; ++i) {
            wf_tile_info ti;
            if (wf_mesh_get_tile_info(mesh, tiles[i], &ti) == WF_OK) {
                out->mesh_bytes += (double)ti.data_size;
                count_poly_areas(mesh, tiles[i], ti.poly_count, out->per_area);
            }
        }
        free(tiles);
    }
    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(tc);
    return rc;
}

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
            return usage_error("info");
        }
    }
    if (path == NULL) {
        fprintf(stderr, "wayfarer info: a cache file is required\n");
        return usage_error("info");
    }
    char* data = NULL;
    size_t size = 0;
    int rc = read_file(path, &data, &size);
    if (rc != 0) {
        return rc;
    }
    // A multi-class file (wayfarer build --class): every class's figures.
    wf_world_cache_class table[WF_WORLD_MAX_CLASSES];
    uint32_t class_count = 0;
    wf_status st =
        wf_world_cache_get_classes(data, size, table, WF_WORLD_MAX_CLASSES, &class_count);
    if (st == WF_ERR_VERSION ||
        (st == WF_ERR_BAD_DATA && size >= 4 && memcmp(data, "WFMC", 4) == 0)) {
        fprintf(stderr, "wayfarer info: %s: a multi-class cache file %s (%s)\n", path,
                st == WF_ERR_VERSION ? "of another version" : "whose class table is damaged",
                wf_status_string(st));
        free(data);
        return EXIT_INPUT;
    }
    uint32_t n = class_count > 0 ? class_count : 1u;
    info_figures figures[WF_WORLD_MAX_CLASSES];
    for (uint32_t c = 0; c < n && rc == 0; ++c) {
        rc = class_count > 0 ? info_load(path, table[c].data, table[c].size, &figures[c])
                             : info_load(path, data, size, &figures[c]);
    }
    char* class_json = NULL;
    if (rc == 0 && class_count > 0) {
        size_t room = 512u * class_count + 8u, at = 0;
        class_json = malloc(room);
        for (uint32_t c = 0; c < class_count && class_json != NULL; ++c) {
            const info_figures* f = &figures[c];
            at += (size_t)snprintf(
                class_json + at, room - at,
                "%s{\"name\": \"%s\", \"agent_radius\": %.3f, \"agent_height\": %.3f, "
                "\"agent_climb\": %.3f, \"file_bytes\": %zu, \"layers\": %u, "
                "\"walkable_area_m2\": %.3f, \"navmesh_polys\": %u, \"navmesh_bytes\": %.0f, "
                "\"offmesh_links\": %u, \"memory_bytes\": %zu, \"load_ms\": %.3f, "
                "\"navmesh_build_ms\": %.3f}",
                c == 0 ? "[" : ", ", table[c].name, f->params.agent_radius, f->params.agent_height,
                f->params.agent_climb, table[c].size, f->stats.layer_count, f->stats.walkable_area,
                f->mesh.poly_count, f->mesh_bytes, f->links,
                f->stats.memory_bytes + f->mesh.memory_bytes, f->load_ms, f->mesh_ms);
        }
        if (class_json != NULL) {
            snprintf(class_json + at, room - at, "]");
        }
    }
    if (rc == 0) {
        // The first class's figures (the only one of a plain file).
        const info_figures* f = &figures[0];
        const wf_tilecache_stats* s = &f->stats;
        const wf_tilecache_params* p = &f->params;
        char area_polys[WF_MAX_AREAS * 16] = "";
        for (uint32_t a = 0, at = 0; a < WF_MAX_AREAS; ++a) {
            if (f->per_area[a] != 0) {
                at += (uint32_t)snprintf(area_polys + at, sizeof area_polys - at, "%s%u:%u",
                                         at > 0 ? " " : "", a, f->per_area[a]);
            }
        }
        const report_field fields[] = {
            {"file_bytes", (double)size, true, NULL},
            {"cell_size_m", p->cell_size, false, NULL},
            {"cell_height_m", p->cell_height, false, NULL},
            {"tile_size_cells", p->tile_size, true, NULL},
            {"tiles", s->tile_count, true, NULL},
            {"layers", s->layer_count, true, NULL},
            {"raw_bytes", (double)s->raw_bytes, true, NULL},
            {"compressed_bytes", (double)s->compressed_bytes, true, NULL},
            {"walkable_cells", (double)s->walkable_cells, true, NULL},
            {"walkable_area_m2", s->walkable_area, false, NULL},
            {"navmesh_tiles", f->mesh.tile_count, true, NULL},
            {"navmesh_polys", f->mesh.poly_count, true, NULL},
            {"navmesh_bytes", f->mesh_bytes, true, NULL},
            {"offmesh_links", f->links, true, NULL},
            {"area_polys", 0.0, false, area_polys},
            {"load_ms", f->load_ms, false, NULL},
            {"navmesh_build_ms", f->mesh_ms, false, NULL},
        };
        print_report_with(fields, sizeof fields / sizeof fields[0], json,
                          class_json != NULL ? "classes" : NULL, class_json);
    }
    free(class_json);
    free(data);
    return rc;
}

int main(int argc, char** argv) {
    if (argc < 2) {
        print_help(stderr);
        return EXIT_USAGE;
    }
    if (is_help(argv[1]) || strcmp(argv[1], "help") == 0) {
        const subcommand* c = argc > 2 ? find_subcommand(argv[2]) : NULL;
        if (argc > 2 && c == NULL) {
            fprintf(stderr, "wayfarer help: unknown command %s\n", argv[2]);
            return EXIT_USAGE;
        }
        c != NULL ? print_command_help(stdout, c) : print_help(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("wayfarer %s\n", WF_VERSION_STRING);
        return 0;
    }
    const subcommand* c = find_subcommand(argv[1]);
    if (c == NULL) {
        fprintf(stderr, "wayfarer: unknown command %s (commands:", argv[1]);
        for (size_t i = 0; i < SUBCOMMAND_COUNT; ++i) {
            fprintf(stderr, " %s", subcommands[i].name);
        }
        fprintf(stderr, "; wayfarer --help describes them)\n");
        return EXIT_USAGE;
    }
    // `wayfarer CMD --help` anywhere among its arguments: that command's help.
    for (int i = 2; i < argc; ++i) {
        if (is_help(argv[i])) {
            print_command_help(stdout, c);
            return 0;
        }
    }
    return c->run(argc - 1, argv + 1);
}
