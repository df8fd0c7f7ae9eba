// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// What the `wayfarer` subcommands share (tool.c), and the subcommands that
// live in files of their own.
#ifndef WF_TOOLS_TOOL_H
#define WF_TOOLS_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "wayfarer/base.h"
#include "wayfarer/jobs.h"
#include "wayfarer/navmesh.h"
#include "wayfarer/tilecache.h"

/// Exit codes: 0 success, 1 unreadable or bad input, 2 usage, 3 a check failed.
enum { EXIT_INPUT = 1, EXIT_USAGE = 2, EXIT_CHECK = 3 };

/// After a usage error of `wayfarer COMMAND` (its message already printed):
/// that command's synopsis and where its help is, on stderr; returns
/// EXIT_USAGE (wayfarer.c).
int usage_error(const char* command);

/// Whole file into a malloc'd buffer with one spare NUL byte after it.
int read_file(const char* path, char** out, size_t* out_size);
int write_file(const char* path, const void* data, size_t size);
/// A whole finite number; a count is a whole number in 0..2^32-1.
bool parse_double(const char* s, double* out);
bool parse_count(const char* s, uint32_t* out);
/// Milliseconds on the library's monotonic clock (navcore/clock.h).
double now_ms(void);
/// --workers N: a pool of N - 1 threads (the caller is the last worker);
/// 0 or 1 runs inline (*pool stays NULL). N above WF_JOBS_MAX_WORKERS is a
/// usage error (EXIT_USAGE), reported here.
int make_jobs(uint32_t workers, wf_thread_pool** pool, wf_job_system* jobs);
/// Most --frames of a crowd run (its per-frame times are kept: 8 MB).
#define MAX_FRAMES 1000000u
/// --agents, --frames and --workers of a crowd run in range: 0, or
/// EXIT_USAGE with the reason printed under the command's name.
int check_run_options(const char* command, uint32_t agents, uint32_t frames, uint32_t workers);
/// The radius of the tools' agents on a cache: the cache's agent radius, or
/// where it was built for radius 0, the default agent's (as the world does).
float cache_agent_radius(const wf_tilecache_params* params);
/// Builds the navmesh of a cache into a new mesh (tiles owned by the mesh).
int cache_navmesh(wf_tilecache* tc, wf_mesh** out, double* out_ms);
/// An assert hook that does nothing: out-of-range settings are reported
/// through the status instead.
void quiet_assert(const char* expression, const char* file, int line);

/// A logger for the library's objects. While `hold` is set (around a load
/// or create, on the calling thread) it keeps the last error line, for the
/// command's own message that names the option or file; otherwise it prints
/// errors and warnings as "wayfarer COMMAND: ...". It must outlive the
/// object it was given to.
typedef struct tool_log {
    const char* command;
    bool hold;
    char last_error[256];
} tool_log;
wf_logger tool_logger(tool_log* log);

/// What a level file holds: a tile cache (its first bytes are the cache
/// file's magic, or the name ends .wfc), a Wavefront OBJ (the name ends
/// .obj), or neither.
typedef enum level_kind { LEVEL_UNKNOWN, LEVEL_OBJ, LEVEL_CACHE } level_kind;
level_kind level_kind_of(const char* path, const char* data, size_t size);
/// Why a cache file did not load, under the command's name: an OBJ given
/// where a cache belongs (and how to make one), or the reason the tile
/// cache logged. Call before freeing data.
void report_cache_error(const char* command, const char* path, const char* data, size_t size,
                        wf_status status, const tool_log* log);
/// The tile cache file inside `data`: all of it for a plain cache file, or
/// one class of a multi-class file (build --class): `class_name`, or the
/// first class when NULL. --class on a plain file, an unknown name (the
/// file's names are listed) or a damaged class table are said under the
/// command's name: EXIT_USAGE or EXIT_INPUT; otherwise 0 with *out_data,
/// *out_size pointing into data (anything that is not a class table goes
/// through for the tile cache load to judge).
int cache_pick_class(const char* command, const char* path, const char* data, size_t size,
                     const char* class_name, const char** out_data, size_t* out_size);
/// Whether `path` can be written, checked before the work that leads to it
/// (nothing is created): says why not under the command's name. 0 or
/// EXIT_INPUT.
int check_writable(const char* command, const char* path);
/// Progress lines redraw in place ('\r') only on a terminal; a log gets
/// one line per report.
bool stderr_is_terminal(void);

/// One figure of a report, printed as 'key<TAB>value' or as a JSON member.
typedef struct report_field {
    const char* key;
    double value;
    bool whole;
    const char* text; ///< a string figure instead of the value (a name, a path)
} report_field;

/// 'key<TAB>value' lines, or one JSON object; a NaN value is JSON null
/// (and "-" in the lines): not measured, never a sentinel number.
void print_report(const report_field* fields, size_t count, bool json);
/// The same, then `key` with a JSON value printed as it is (an array of
/// objects), in both forms; key NULL: print_report.
void print_report_with(const report_field* fields, size_t count, bool json, const char* key,
                       const char* raw_json);
/// A JSON string, quoted and escaped.
void print_json_string(FILE* f, const char* s);

/// `wayfarer obstacles` (obstacles.c).
int cmd_obstacles(int argc, char** argv);
/// `wayfarer crowd` (crowd.c).
int cmd_crowd(int argc, char** argv);
/// `wayfarer check` (check.c).
int cmd_check(int argc, char** argv);
/// `wayfarer demo` (demo.c).
int cmd_demo(int argc, char** argv);
/// `wayfarer scen` (scen.c).
int cmd_scen(int argc, char** argv);
/// `wayfarer scenarios` (scenarios.c).
int cmd_scenarios(int argc, char** argv);

#endif
