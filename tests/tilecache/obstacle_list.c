// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Listing the live obstacles for debug drawing (wf_tilecache_get_obstacles):
// every live id exactly once with the desc it was last given, removed ones
// gone at once, a short buffer filled and the full count returned, and no
// allocation.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "wayfarer/tilecache.h"

#define GRID 32u

static wf_tilecache* make_cache(counting_allocator* c, uint32_t max_obstacles) {
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params.cell_size = 1.0f;
    d.params.cell_height = 0.25f;
    d.params.agent_height = 2.0f;
    d.params.agent_radius = 0.5f;
    d.params.agent_climb = 0.5f;
    d.params.agent_max_slope = 45.0f;
    d.params.tile_size = 8;
    d.params.min_region_area = 1;
    d.params.merge_region_area = 4;
    d.params.max_simplification_error = 1.0f;
    d.params.max_verts_per_poly = 6;
    d.logger.quiet = true;
    d.allocator = counting_allocator_hooks(c);
    d.max_obstacles = max_obstacles;
    wf_tilecache* tc = NULL;
    assert_int_equal(wf_tilecache_create(&d, &tc), WF_OK);
    uint8_t walkable[GRID * GRID];
    memset(walkable, 1, sizeof walkable);
    wf_grid grid;
    memset(&grid, 0, sizeof grid);
    grid.width = grid.depth = GRID;
    grid.cell_size = 1.0f;
    grid.walkable = walkable;
    assert_int_equal(wf_tilecache_build_grid(tc, grid), WF_OK);
    return tc;
}

/// Obstacle number i: shapes in turn, each at its own place.
static wf_obstacle_desc nth_desc(uint32_t i) {
    wf_obstacle_desc d;
    memset(&d, 0, sizeof d);
    d.position = wf_v3(2.0f + 3.0f * (float)(i % 8u), 0.0f, 2.0f + 3.0f * (float)(i / 8u));
    d.height = 2.0f;
    if (i % 2u == 0u) {
        d.shape = WF_OBSTACLE_CYLINDER;
        d.radius = 0.5f + 0.1f * (float)i;
    } else {
        d.shape = WF_OBSTACLE_BOX;
        d.half_extents = wf_v3(0.5f, 1.0f, 0.25f * (float)(i + 1u));
    }
    return d;
}

/// Index of id in ids[0..n), or n.
static uint32_t find_id(const wf_obstacle_id* ids, uint32_t n, wf_obstacle_id id) {
    for (uint32_t k = 0; k < n; ++k) {
        if (ids[k].bits == id.bits) {
            return k;
        }
    }
    return n;
}

static void test_lists_live_obstacles(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    enum { COUNT = 12 };
    wf_tilecache* tc = make_cache(&c, 16);
    wf_obstacle_id added[COUNT];
    wf_obstacle_id listed[16];
    assert_int_equal(wf_tilecache_get_obstacles(tc, listed, 16), 0);
    for (uint32_t i = 0; i < COUNT; ++i) {
        wf_obstacle_desc d = nth_desc(i);
        assert_int_equal(wf_tilecache_add_obstacle(tc, &d, &added[i]), WF_OK);
    }
    // Every third one goes (its id is stale at once, so it is not listed).
    for (uint32_t i = 0; i < COUNT; i += 3u) {
        assert_int_equal(wf_tilecache_remove_obstacle(tc, added[i]), WF_OK);
    }
    unsigned long live_before = counting_allocator_live(&c);
    uint32_t total = wf_tilecache_get_obstacles(tc, listed, 16);
    assert_int_equal(total, COUNT - (COUNT + 2) / 3);
    assert_int_equal(total, wf_tilecache_obstacle_count(tc));
    for (uint32_t i = 0; i < COUNT; ++i) {
        uint32_t at = find_id(listed, total, added[i]);
        if (i % 3u == 0u) {
            assert_int_equal(at, total);
            continue;
        }
        assert_true(at < total);
        assert_int_equal(find_id(listed + at + 1, total - at - 1, added[i]), total - at - 1);
        wf_obstacle_desc got, want = nth_desc(i);
        assert_int_equal(wf_tilecache_get_obstacle(tc, listed[at], &got), WF_OK);
        assert_int_equal(got.shape, want.shape);
        assert_true(wf_v3_equal(got.position, want.position));
        assert_true(got.radius == want.radius);
        assert_true(wf_v3_equal(got.half_extents, want.half_extents));
    }
    // A short buffer: the first ones of the same order, the full count.
    wf_obstacle_id few[3];
    assert_int_equal(wf_tilecache_get_obstacles(tc, few, 3), total);
    assert_memory_equal(few, listed, sizeof few);
    assert_int_equal(wf_tilecache_get_obstacles(tc, NULL, 0), total);
    assert_int_equal(wf_tilecache_get_obstacles(tc, NULL, 5), total);
    assert_int_equal(wf_tilecache_get_obstacles(NULL, listed, 16), 0);
    assert_int_equal(counting_allocator_live(&c), live_before);
    wf_tilecache_destroy(tc);
    assert_int_equal(counting_allocator_live(&c), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lists_live_obstacles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
