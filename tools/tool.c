// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Helpers the `wayfarer` subcommands share: files, numbers, clocks, the
// job system, a cache's navmesh, the report printer, the logger that lets
// a command name the option or file behind a library error, level kinds and
// the check of an output before the work.
// stat, access, isatty, fileno (POSIX).
#define _POSIX_C_SOURCE 200809L
#include "tools/tool.h"

#include <sys/stat.h>
#include <unistd.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#endif

#include "wayfarer/crowd.h"

/// Whole file into a malloc'd buffer (not NUL-terminated for the importer,
/// but one spare NUL byte is added for the line parsers here).
int read_file(const char* path, char** out, size_t* out_size) {
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

bool parse_double(const char* s, double* out) {
    char* end = NULL;
    *out = strtod(s, &end);
    return end != s && *end == '\0' && isfinite(*out);
}

bool parse_count(const char* s, uint32_t* out) {
    double v;
    if (!parse_double(s, &v) || v < 0.0 || v > 4294967295.0 || v != floor(v)) {
        return false;
    }
    *out = (uint32_t)v;
    return true;
}

double now_ms(void) {
    // The tool's own monotonic clock: tools/ reads only the public headers.
#ifdef _WIN32
    // mingw-w64 has clock_gettime only in winpthread's DLL.
    LARGE_INTEGER count, frequency;
    QueryPerformanceCounter(&count);
    QueryPerformanceFrequency(&frequency);
    return (double)count.QuadPart * 1e3 / (double)frequency.QuadPart;
#else
    struct timespec t;
#ifdef CLOCK_MONOTONIC
    clock_gettime(CLOCK_MONOTONIC, &t);
#else
    timespec_get(&t, TIME_UTC);
#endif
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
#endif
}

int write_file(const char* path, const void* data, size_t size) {
    FILE* f = fopen(path, "wb");
    if (f == NULL) {
        fprintf(stderr, "wayfarer: cannot create %s: %s\n", path, strerror(errno));
        return EXIT_INPUT;
    }
    bool failed = fwrite(data, 1, size, f) != size;
    failed = fclose(f) != 0 || failed;
    if (failed) {
        fprintf(stderr, "wayfarer: cannot write %s\n", path);
        return EXIT_INPUT;
    }
    return 0;
}

/// --workers N: a pool of N - 1 threads (the caller is the last worker);
/// 0 or 1 runs inline.
int check_run_options(const char* command, uint32_t agents, uint32_t frames, uint32_t workers) {
    if (agents == 0 || agents > WF_CROWD_MAX_AGENTS) {
        fprintf(stderr, "wayfarer %s: --agents %u: 1 to %u\n", command, agents,
                WF_CROWD_MAX_AGENTS);
        return EXIT_USAGE;
    }
    if (frames == 0 || frames > MAX_FRAMES) {
        fprintf(stderr, "wayfarer %s: --frames %u: 1 to %u\n", command, frames, MAX_FRAMES);
        return EXIT_USAGE;
    }
    if (workers > WF_JOBS_MAX_WORKERS) {
        fprintf(stderr, "wayfarer %s: --workers %u: at most %u\n", command, workers,
                WF_JOBS_MAX_WORKERS);
        return EXIT_USAGE;
    }
    return 0;
}

float cache_agent_radius(const wf_tilecache_params* params) {
    return params->agent_radius > 0.0f ? params->agent_radius : wf_agent_params_defaults().radius;
}

int make_jobs(uint32_t workers, wf_thread_pool** pool, wf_job_system* jobs) {
    memset(jobs, 0, sizeof *jobs);
    *pool = NULL;
    if (workers > WF_JOBS_MAX_WORKERS) {
        fprintf(stderr, "wayfarer: --workers %u: at most %u\n", workers, WF_JOBS_MAX_WORKERS);
        return EXIT_USAGE;
    }
    if (workers <= 1) {
        return 0;
    }
    wf_thread_pool_desc pd;
    memset(&pd, 0, sizeof pd);
    pd.thread_count = workers - 1;
    if (wf_thread_pool_create(&pd, pool) != WF_OK) {
        fprintf(stderr, "wayfarer: cannot start %u worker threads\n", workers - 1);
        return EXIT_INPUT;
    }
    *jobs = wf_thread_pool_job_system(*pool);
    return 0;
}

/// Builds the navmesh of a cache into a new mesh (tiles owned by the mesh).
int cache_navmesh(wf_tilecache* tc, wf_mesh** out, double* out_ms) {
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    wf_mesh* mesh = NULL;
    if (wf_mesh_create(&md, &mesh) != WF_OK) {
        fprintf(stderr, "wayfarer: cannot create a navmesh\n");
        return EXIT_INPUT;
    }
    double start = now_ms();
    wf_status st = wf_tilecache_build_navmesh(tc, mesh);
    *out_ms = now_ms() - start;
    if (st < 0) {
        fprintf(stderr, "wayfarer: navmesh build failed: %s\n", wf_status_string(st));
        wf_mesh_destroy(mesh);
        return EXIT_INPUT;
    }
    *out = mesh;
    return 0;
}

void print_json_string(FILE* f, const char* s) {
    fputc('"', f);
    for (const unsigned char* p = (const unsigned char*)s; *p != 0; ++p) {
        if (*p == '"' || *p == '\\') {
            fprintf(f, "\\%c", *p);
        } else if (*p < 0x20u) {
            fprintf(f, "\\u%04x", *p);
        } else {
            fputc(*p, f);
        }
    }
    fputc('"', f);
}

void print_report(const report_field* fields, size_t count, bool json) {
    print_report_with(fields, count, json, NULL, NULL);
}

void print_report_with(const report_field* fields, size_t count, bool json, const char* key,
                       const char* raw_json) {
    fputs(json ? "{" : "", stdout);
    for (size_t i = 0; i < count; ++i) {
        if (json) {
            printf("%s\"%s\": ", i > 0 ? ", " : "", fields[i].key);
        } else {
            printf("%s\t", fields[i].key);
        }
        if (fields[i].text != NULL) {
            if (json) {
                print_json_string(stdout, fields[i].text);
            } else {
                fputs(fields[i].text, stdout);
            }
        } else if (isnan(fields[i].value)) {
            fputs(json ? "null" : "-", stdout);
        } else {
            printf(fields[i].whole ? "%.0f" : "%.3f", fields[i].value);
        }
        fputs(json ? "" : "\n", stdout);
    }
    if (key != NULL) {
        if (json) {
            printf("%s\"%s\": %s", count > 0 ? ", " : "", key, raw_json);
        } else {
            printf("%s\t%s\n", key, raw_json);
        }
    }
    fputs(json ? "}\n" : "", stdout);
}

void quiet_assert(const char* expression, const char* file, int line) {
    (void)expression;
    (void)file;
    (void)line;
}

static void tool_log_line(wf_log_level level, const char* message, void* user) {
    tool_log* log = user;
    // Held (a load or create on the calling thread): kept for the command's
    // own message. Otherwise printed; workers may log at once, and stderr
    // takes whole lines.
    if (log->hold) {
        if (level == WF_LOG_ERROR) {
            snprintf(log->last_error, sizeof log->last_error, "%s", message);
        }
    } else if (level <= WF_LOG_WARN) {
        fprintf(stderr, "wayfarer %s: %s\n", log->command, message);
    }
}

wf_logger tool_logger(tool_log* log) {
    log->last_error[0] = '\0';
    return (wf_logger){.log = tool_log_line, .user = log};
}

static bool ends_with_ci(const char* s, const char* tail) {
    size_t n = strlen(s), m = strlen(tail);
    if (n < m) {
        return false;
    }
    for (size_t i = 0; i < m; ++i) {
        char c = s[n - m + i];
        if ((c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c) != tail[i]) {
            return false;
        }
    }
    return true;
}

level_kind level_kind_of(const char* path, const char* data, size_t size) {
    // The cache file's magic (docs/formats.md): the content decides first.
    if (size >= 4 && memcmp(data, "WFTC", 4) == 0) {
        return LEVEL_CACHE;
    }
    if (ends_with_ci(path, ".obj")) {
        return LEVEL_OBJ;
    }
    return ends_with_ci(path, ".wfc") ? LEVEL_CACHE : LEVEL_UNKNOWN;
}

void report_cache_error(const char* command, const char* path, const char* data, size_t size,
                        wf_status status, const tool_log* log) {
    if (level_kind_of(path, data, size) == LEVEL_OBJ) {
        fprintf(stderr,
                "wayfarer %s: %s is a Wavefront OBJ, not a tile cache (`wayfarer build %s "
                "-o LEVEL.wfc` makes one)\n",
                command, path, path);
    } else {
        fprintf(stderr, "wayfarer %s: %s: not a tile cache it can read: %s\n", command, path,
                log != NULL && log->last_error[0] != '\0' ? log->last_error
                                                          : wf_status_string(status));
    }
}

int check_writable(const char* command, const char* path) {
    // Without creating anything (a refused run leaves no file): the file
    // where it is there, else the folder it would go in.
    struct stat st;
    const char* why = NULL;
    if (stat(path, &st) == 0) {
        why = S_ISDIR(st.st_mode)       ? "it is a folder"
              : access(path, W_OK) != 0 ? strerror(errno)
                                        : NULL;
    } else if (errno != ENOENT) {
        why = strerror(errno);
    } else {
        size_t n = strlen(path);
        char* dir = malloc(n + 2);
        if (dir == NULL) {
            return EXIT_INPUT;
        }
        memcpy(dir, path, n + 1);
        char* slash = strrchr(dir, '/');
        if (slash == NULL) {
            strcpy(dir, ".");
        } else {
            slash[slash == dir ? 1 : 0] = '\0';
        }
        if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
            why = "its folder does not exist";
        } else if (access(dir, W_OK | X_OK) != 0) {
            why = strerror(errno);
        }
        free(dir);
    }
    if (why != NULL) {
        fprintf(stderr, "wayfarer %s: cannot write %s: %s\n", command, path, why);
        return EXIT_INPUT;
    }
    return 0;
}

bool stderr_is_terminal(void) { return isatty(fileno(stderr)) != 0; }
