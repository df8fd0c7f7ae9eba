// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Allocation failures, navmesh level: create a mesh, build 2 x 2 grid
// tiles and add them, a query and a path across them, a tile replaced,
// a save loaded into a second mesh, with the k-th allocation failing for
// every k (once, and from k on until a call fails). Every call returns
// WF_OK or WF_ERR_OUT_OF_MEMORY (only when an allocation was refused); after
// a failure allocations are allowed again and the scenario goes on with
// the same object: a failed tile build leaves the mesh as it was, and the
// path at the end is the one of a run with no failure. Nothing stays live.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "test_meshes.h"
#include "wayfarer/query.h"

#define CELLS 4u ///< per tile side
#define TILES 2u ///< per side
#define CELL 1.0f

typedef struct ctx {
    counting_allocator* ca;
    unsigned long failed_before;
    const char* call;
    unsigned oom_calls;
} ctx;

static void begin_call(ctx* c, const char* call) {
    c->call = call;
    c->failed_before = atomic_load(&c->ca->failed);
}

/// True when the call failed for memory (an allocation was refused during
/// it); from then on allocations are allowed. Anything else fails the test.
static bool failed_for_memory(ctx* c, wf_status s) {
    bool refused = atomic_load(&c->ca->failed) > c->failed_before;
    if (s == WF_ERR_OUT_OF_MEMORY && refused) {
        c->oom_calls++;
        c->ca->fail_at = 0;
        return true;
    }
    if (s != WF_OK || refused) {
        print_error("%s: %s with %s allocation refused (fail_at %lu)\n", c->call,
                    wf_status_string(s), refused ? "an" : "no", c->ca->fail_at);
        fail();
    }
    return false;
}

/// Builds tile (tx, tz) with the allocator (retried after a failure that
/// leaves the mesh alone) and adds it, owned by the mesh.
static void add_tile(ctx* c, wf_mesh* mesh, uint32_t tx, uint32_t tz, const uint8_t* blocked) {
    wf_allocator a = counting_allocator_hooks(c->ca);
    uint32_t tiles = wf_mesh_get_stats(mesh).tile_count;
    void* data = NULL;
    size_t size = 0;
    for (;;) {
        begin_call(c, "tile build");
        data = test_grid_tile(tx, tz, TILES, CELLS, CELL, blocked, NULL, &a, &size);
        if (!failed_for_memory(c, data != NULL ? WF_OK : WF_ERR_OUT_OF_MEMORY)) {
            break;
        }
        assert_int_equal(wf_mesh_get_stats(mesh).tile_count, tiles);
    }
    wf_tile_ref ref;
    begin_call(c, "add tile");
    assert_false(failed_for_memory(
        c, wf_mesh_add_tile(mesh, data, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &ref)));
}

typedef struct path {
    wf_poly_ref polys[64];
    uint32_t count;
} path;

static path find_path(ctx* c, const wf_mesh* mesh) {
    wf_query_desc qd;
    memset(&qd, 0, sizeof qd);
    qd.mesh = mesh;
    qd.max_nodes = 128;
    qd.allocator = counting_allocator_hooks(c->ca);
    wf_query* q = NULL;
    for (;;) {
        begin_call(c, "query create");
        if (!failed_for_memory(c, wf_query_create(&qd, &q))) {
            break;
        }
        assert_null(q);
    }
    wf_vec3 a = wf_v3(0.5f, 0.0f, 0.5f), b = wf_v3(7.5f, 0.0f, 7.5f);
    wf_query_filter f = wf_query_filter_defaults();
    wf_poly_ref from, to;
    wf_vec3 pa, pb;
    wf_vec3 half = wf_v3(0.2f, 1.0f, 0.2f);
    assert_int_equal(wf_query_find_nearest_poly(q, a, half, &f, &from, &pa), WF_OK);
    assert_int_equal(wf_query_find_nearest_poly(q, b, half, &f, &to, &pb), WF_OK);
    path p;
    memset(&p, 0, sizeof p);
    wf_path_result pr;
    assert_int_equal(wf_query_find_path(q, from, to, pa, pb, &f, p.polys, 64, &pr), WF_OK);
    p.count = pr.count;
    wf_query_destroy(q);
    return p;
}

static wf_mesh* create_mesh(ctx* c) {
    wf_mesh_desc md;
    memset(&md, 0, sizeof md);
    md.tile_width = md.tile_depth = (float)CELLS * CELL;
    md.max_tiles = TILES * TILES + 1u;
    md.allocator = counting_allocator_hooks(c->ca);
    md.logger.quiet = true;
    for (;;) {
        wf_mesh* mesh = NULL;
        begin_call(c, "mesh create");
        if (!failed_for_memory(c, wf_mesh_create(&md, &mesh))) {
            return mesh;
        }
        assert_null(mesh);
        assert_int_equal(counting_allocator_live(c->ca), 0);
    }
}

/// The scenario; the path found at the end goes to out.
static unsigned run_scenario(counting_allocator* ca, path* out) {
    ctx c = {.ca = ca};
    wf_mesh* mesh = create_mesh(&c);
    for (uint32_t tz = 0; tz < TILES; ++tz) {
        for (uint32_t tx = 0; tx < TILES; ++tx) {
            add_tile(&c, mesh, tx, tz, NULL);
        }
    }
    path straight = find_path(&c, mesh);
    // Tile (1, 0) again with a wall across it: the path changes.
    uint8_t blocked[TILES * CELLS * TILES * CELLS] = {0};
    for (uint32_t z = 0; z < CELLS - 1u; ++z) {
        blocked[z * TILES * CELLS + CELLS + 1u] = 1;
    }
    wf_tile_ref old;
    assert_int_equal(wf_mesh_find_tile(mesh, 1, 0, 0, &old), WF_OK);
    assert_int_equal(wf_mesh_remove_tile(mesh, old, NULL, NULL), WF_OK);
    add_tile(&c, mesh, 1, 0, blocked);
    path walled = find_path(&c, mesh);
    assert_true(walled.count > 0 && straight.count > 0);

    // A save loaded into a second mesh finds the same path.
    size_t size = 0;
    assert_int_equal(wf_mesh_save_size(mesh, &size), WF_OK);
    unsigned char* data = malloc(size);
    assert_non_null(data);
    assert_int_equal(wf_mesh_save(mesh, data, size), WF_OK);
    wf_mesh_desc md;
    memset(&md, 0, sizeof md);
    md.allocator = counting_allocator_hooks(ca);
    md.logger.quiet = true;
    wf_mesh* loaded = NULL;
    for (;;) {
        begin_call(&c, "mesh load");
        if (!failed_for_memory(&c, wf_mesh_load(&md, data, size, &loaded))) {
            break;
        }
        assert_null(loaded);
    }
    free(data);
    *out = find_path(&c, loaded);
    assert_int_equal(out->count, walled.count);
    assert_memory_equal(out->polys, walled.polys, sizeof(wf_poly_ref) * walled.count);
    wf_mesh_destroy(loaded);
    wf_mesh_destroy(mesh);
    assert_int_equal(counting_allocator_live(ca), 0);
    assert_int_equal(atomic_load(&ca->live_bytes), 0);
    assert_int_equal(atomic_load(&ca->size_mismatches), 0);
    return c.oom_calls;
}

static void test_every_failure(void** state) {
    (void)state;
    counting_allocator ca;
    counting_allocator_init(&ca);
    path want;
    assert_int_equal(run_scenario(&ca, &want), 0);
    unsigned long total = atomic_load(&ca.attempt);
    assert_true(total > 10);
    for (int after = 0; after < 2; ++after) {
        for (unsigned long k = 1; k <= total; ++k) {
            counting_allocator_init(&ca);
            ca.fail_at = k;
            ca.fail_after = after != 0;
            path got;
            assert_int_equal(run_scenario(&ca, &got), 1);
            // The same path as with no failure (the tile refs may differ
            // only if a failure changed the slots, which it must not).
            assert_int_equal(got.count, want.count);
            assert_memory_equal(got.polys, want.polys, sizeof(wf_poly_ref) * want.count);
        }
    }
    print_message("mesh scenario: %lu allocations, each failed once and from there on\n", total);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
