// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// What the misuse tests share (misuse_common.c): expectations that print
// every failure (not only the first) and fail the test at its end, the
// assert hook that lets misuse return in debug builds, and the fixture.
//
// Misuse of the public API: NULL pointers, stale ids and refs, ids of the
// wrong kind, NaN and infinite values, zero and negative sizes, re-entry
// from crowd callbacks, corrupt data. Each misuse must give its specific
// status and leave the object unchanged (counts, state), and a following
// valid call must still work. Uses only the public headers and libwayfarer;
// one file per module (misuse_navcore.c, misuse_tilecache.c, ...), and
// misuse_coverage.py checks that every public call is in one of them.
#ifndef WF_TESTS_API_MISUSE_COMMON_H
#define WF_TESTS_API_MISUSE_COMMON_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wayfarer/wayfarer.h"

/* ---------------------------------------------------------------------------
 * Checks
 */

extern unsigned g_checks;   // expectations evaluated, all tests
extern unsigned g_failures; // failed expectations, current test
extern unsigned g_asserts;  // assert hook calls, all tests

void misuse_expect_status(wf_status got, wf_status want, const char* what, const char* file,
                          int line);
void misuse_expect_true(bool cond, const char* what, const char* file, int line);
#define expect_status_at(got, want, what, line)                                                    \
    misuse_expect_status((got), (want), (what), __FILE__, (line))
#define expect_true_at(cond, what, line) misuse_expect_true((cond), (what), __FILE__, (line))

#define EXPECT(call, want) expect_status_at((call), (want), #call, __LINE__)
#define EXPECT_TRUE(cond) expect_true_at((cond), #cond, __LINE__)

int begin_test(void** state);
void end_test(void);

/// Installs the assert hook that lets misuse return (before the tests).
void misuse_begin(void);
/// Prints how many checks and assert hook calls the file's tests made.
void misuse_report(const char* name);

static const float NAN_F = NAN;
static const float INF_F = INFINITY;

/* ---------------------------------------------------------------------------
 * Fixtures: a flat 30 x 30 m floor (4 vertices, 2 triangles, counter-
 * clockwise seen from above), its tile cache, navmesh, a query and a crowd
 * with one agent.
 */

extern const float k_verts[12];
extern const uint32_t k_tris[6];

wf_geom floor_geom(void);
wf_tilecache_desc cache_desc(void);

#define MAX_AGENTS 4u

typedef struct fixture {
    wf_tilecache* tc;
    wf_mesh* mesh;
    wf_query* q;
    wf_crowd* crowd;
    wf_agent_id agent;
    wf_query_filter filter;
} fixture;

wf_crowd_desc crowd_desc(const wf_mesh* mesh);
int setup(void** state);
int teardown(void** state);

/// What misuse must not change.
typedef struct snapshot {
    wf_mesh_stats mesh;
    uint32_t layers;
    uint32_t obstacles;
    uint32_t agents;
    wf_agent_state agent;
} snapshot;

snapshot take(const fixture* f);
void misuse_expect_unchanged(const fixture* f, const snapshot* before, const char* file, int line);
#define EXPECT_UNCHANGED(f, before) misuse_expect_unchanged((f), (before), __FILE__, __LINE__)

/// A valid query works (after misuse).
void misuse_expect_query_works(fixture* f, const char* file, int line);
#define EXPECT_QUERY_WORKS(f) misuse_expect_query_works((f), __FILE__, __LINE__)

wf_poly_ref nearest(fixture* f, wf_vec3 at);
void free_hook(void* ptr, size_t size, size_t align, void* user);
/// One layer's tile blob, built into a 16-byte aligned buffer.
void* build_blob(fixture* f, size_t* out_size);

/* ---------------------------------------------------------------------------
 * Re-entry: a crowd result callback that calls back into the crowd (and the
 * world, when set) and records each status; all must be WF_ERR_BUSY.
 */

#define MAX_REENTRY 32

typedef struct reentry {
    wf_crowd* crowd;
    wf_world* world;
    wf_agent_id agent;
    const void* world_save;
    size_t world_save_size;
    uint32_t calls;
    wf_status got[MAX_REENTRY];
    const char* what[MAX_REENTRY];
    uint32_t count;
} reentry;

/// wf_move_callbacks.result: on its first call, tries every mutating crowd
/// (and world) call and records what each gave; `user` is a reentry.
bool reenter(wf_agent_id agent, const wf_path_info* info, void* user);
/// The callback ran and recorded want_count calls, each WF_ERR_BUSY.
void expect_all_busy(const reentry* r, uint32_t want_count);

#endif
