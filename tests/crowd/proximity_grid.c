// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Proximity grid: every query against a brute-force scan (random points and
// boxes, negative coordinates, hash collisions), order, truncation,
// inactive items, rebuilds, and no allocation after create.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "crowd/proximity_grid.h"
#include "test_hooks.h"
#include "wayfarer/rng.h"

#define MAX_POINTS 4096u
#define SENTINEL 0xdeadbeefu

static wf_vec3 g_pos[MAX_POINTS];
static uint8_t g_active[MAX_POINTS];
static uint32_t g_out[MAX_POINTS + 8u];
static uint32_t g_expected[MAX_POINTS];

static uint32_t brute(const wf_vec3* pos, const uint8_t* active, uint32_t count, float min_x,
                      float min_z, float max_x, float max_z, uint32_t* out) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < count; ++i) {
        if ((active == NULL || active[i]) && pos[i].x >= min_x && pos[i].x <= max_x &&
            pos[i].z >= min_z && pos[i].z <= max_z) {
            out[n++] = i;
        }
    }
    return n;
}

/// Query with room for all, and with a short buffer: both must match.
static void check_box(const wf_proximity_grid* grid, const wf_vec3* pos, const uint8_t* active,
                      uint32_t count, float min_x, float min_z, float max_x, float max_z) {
    uint32_t expected = brute(pos, active, count, min_x, min_z, max_x, max_z, g_expected);
    uint32_t got =
        wf_proximity_grid_query(grid, pos, min_x, min_z, max_x, max_z, g_out, MAX_POINTS);
    assert_int_equal(got, expected);
    for (uint32_t i = 0; i < got; ++i) {
        assert_int_equal(g_out[i], g_expected[i]);
    }
    uint32_t short_max = expected / 2u;
    for (uint32_t i = 0; i < short_max + 4u; ++i) {
        g_out[i] = SENTINEL;
    }
    got = wf_proximity_grid_query(grid, pos, min_x, min_z, max_x, max_z, g_out, short_max);
    assert_int_equal(got, expected);
    for (uint32_t i = 0; i < short_max; ++i) {
        assert_int_equal(g_out[i], g_expected[i]);
    }
    for (uint32_t i = short_max; i < short_max + 4u; ++i) {
        assert_int_equal(g_out[i], SENTINEL);
    }
}

static void random_points(wf_rng* rng, uint32_t count, float lo, float hi, uint32_t inactive_pct) {
    for (uint32_t i = 0; i < count; ++i) {
        g_pos[i] = wf_v3(wf_rng_range(rng, lo, hi), wf_rng_range(rng, -1.0f, 1.0f),
                         wf_rng_range(rng, lo, hi));
        g_active[i] = wf_rng_below(rng, 100u) >= inactive_pct;
    }
}

static void random_boxes(const wf_proximity_grid* grid, wf_rng* rng, uint32_t count, uint32_t boxes,
                         float lo, float hi, float max_extent) {
    for (uint32_t b = 0; b < boxes; ++b) {
        float x = wf_rng_range(rng, lo, hi), z = wf_rng_range(rng, lo, hi);
        float w = wf_rng_range(rng, 0.0f, max_extent), d = wf_rng_range(rng, 0.0f, max_extent);
        check_box(grid, g_pos, g_active, count, x, z, x + w, z + d);
    }
}

static void test_random_points_against_brute_force(void** state) {
    (void)state;
    counting_allocator c;
    counting_allocator_init(&c);
    wf_allocator a = counting_allocator_hooks(&c);
    wf_proximity_grid grid;
    assert_int_equal(wf_proximity_grid_create(&grid, &a, 3000, 2.0f), WF_OK);
    assert_int_equal(grid.bucket_count, 8192);
    assert_int_equal(wf_proximity_grid_memory_bytes(&grid), (size_t)c.live_bytes);
    unsigned long allocations = c.allocations;

    wf_rng rng = wf_rng_make(0x5eed, 1);
    random_points(&rng, 3000, -60.0f, 40.0f, 10);
    wf_proximity_grid_build(&grid, g_pos, NULL, g_active, 3000);
    uint32_t active = 0;
    for (uint32_t i = 0; i < 3000; ++i) {
        active += g_active[i] != 0;
    }
    assert_int_equal(grid.item_count, active);
    // Small boxes walk cells; huge ones scan the items.
    random_boxes(&grid, &rng, 3000, 2000, -70.0f, 45.0f, 8.0f);
    random_boxes(&grid, &rng, 3000, 100, -70.0f, 45.0f, 120.0f);
    check_box(&grid, g_pos, g_active, 3000, -INFINITY, -INFINITY, INFINITY, INFINITY);
    check_box(&grid, g_pos, g_active, 3000, -1e30f, -1e30f, 1e30f, 1e30f);

    // Points on cell borders and box borders (inclusive), negative side.
    for (uint32_t i = 0; i < 200; ++i) {
        g_pos[i] = wf_v3(-2.0f * (float)(i % 10u), 0.0f, 2.0f - 2.0f * (float)(i / 10u));
        g_active[i] = 1;
    }
    wf_proximity_grid_build(&grid, g_pos, NULL, g_active, 200);
    check_box(&grid, g_pos, g_active, 200, -4.0f, -4.0f, -2.0f, 0.0f);
    check_box(&grid, g_pos, g_active, 200, -4.0f, -4.0f, -4.0f, -4.0f); // a point box
    assert_int_equal(wf_proximity_grid_query(&grid, g_pos, -4.0f, -4.0f, -4.0f, -4.0f, g_out, 8),
                     1);
    check_box(&grid, g_pos, g_active, 200, -3.99f, -3.99f, -2.01f, -0.01f);
    assert_int_equal(
        wf_proximity_grid_query(&grid, g_pos, -3.99f, -3.99f, -2.01f, -0.01f, g_out, 8), 0);

    assert_int_equal(c.allocations, allocations); // builds and queries allocate nothing
    wf_proximity_grid_destroy(&grid);
    assert_int_equal(counting_allocator_live(&c), 0);
    assert_int_equal(c.size_mismatches, 0);
}

static bool accept_even(uint32_t item, void* context) {
    (void)context;
    return item % 2u == 0;
}

/// sparse: one item far away, so the cells the items span do not fit the
/// table and the grid hashes them (else one bucket per cell).
static void nearest_against_brute_force(bool sparse) {
    wf_proximity_grid grid;
    wf_allocator a = {0};
    assert_int_equal(wf_proximity_grid_create(&grid, &a, 2000, 1.5f), WF_OK);
    wf_rng rng = wf_rng_make(77, 3);
    random_points(&rng, 2000, -30.0f, 30.0f, 10);
    // Some points on top of each other and on a lattice: equal distances.
    for (uint32_t i = 0; i < 100; ++i) {
        g_pos[i] = wf_v3((float)(i % 10u), 0.0f, (float)(i / 10u));
    }
    g_pos[100] = g_pos[101] = wf_v3(4.0f, 0.0f, 4.0f);
    if (sparse) {
        g_pos[1999] = wf_v3(1e5f, 0.0f, -1e5f);
        g_active[1999] = 1;
    }
    wf_proximity_grid_build(&grid, g_pos, NULL, g_active, 2000);
    assert_true(grid.dense == !sparse);
    for (uint32_t q = 0; q < 1500; ++q) {
        wf_vec3 c = q < 100 ? g_pos[q]
                            : wf_v3(wf_rng_range(&rng, -35.0f, 35.0f), 0.0f,
                                    wf_rng_range(&rng, -35.0f, 35.0f));
        float range = q % 50u == 0 ? 80.0f : wf_rng_range(&rng, 0.0f, 6.0f);
        uint32_t self = q < 100 ? q : 0xffffffffu;
        uint32_t k = 1u + q % 12u;
        bool even = q % 3u == 0;
        // Brute force: the same total order (squared distance, then index).
        uint32_t best[16];
        float best_d2[16];
        uint32_t n = 0;
        for (uint32_t i = 0; i < 2000; ++i) {
            float dx = g_pos[i].x - c.x, dz = g_pos[i].z - c.z;
            float d2 = dx * dx + dz * dz;
            if (!g_active[i] || i == self || d2 > range * range || (even && i % 2u != 0)) {
                continue;
            }
            uint32_t at = n < k ? n++ : k;
            while (at > 0 && best_d2[at - 1] > d2) {
                if (at < k) {
                    best[at] = best[at - 1];
                    best_d2[at] = best_d2[at - 1];
                }
                at--;
            }
            if (at < k) {
                best[at] = i;
                best_d2[at] = d2;
            }
        }
        uint32_t got[16];
        float got_d2[16];
        uint32_t m = wf_proximity_grid_nearest(&grid, g_pos, c, 0.0f, range, self,
                                               even ? accept_even : NULL, NULL, got, got_d2, k);
        assert_int_equal(m, n);
        for (uint32_t j = 0; j < m; ++j) {
            assert_int_equal(got[j], best[j]);
            assert_true(got_d2[j] == best_d2[j]);
        }
    }
    // With half heights: items on another floor are skipped, in both the
    // ring search and the whole-grid scan of huge ranges.
    static float hh[2000];
    for (uint32_t i = 0; i < 2000; ++i) {
        g_pos[i].y = (float)(i % 3u) * 3.0f; // floors at 0, 3 and 6
        hh[i] = 0.5f + (float)(i % 4u) * 0.25f;
    }
    wf_proximity_grid_build(&grid, g_pos, hh, g_active, 2000);
    assert_true(grid.dense == !sparse);
    for (uint32_t q = 0; q < 600; ++q) {
        wf_vec3 c = wf_v3(wf_rng_range(&rng, -35.0f, 35.0f), wf_rng_range(&rng, -1.0f, 7.0f),
                          wf_rng_range(&rng, -35.0f, 35.0f));
        float range = q % 60u == 0 ? 90.0f : wf_rng_range(&rng, 0.0f, 8.0f);
        float half = wf_rng_range(&rng, 0.2f, 2.0f);
        uint32_t k = 1u + q % 8u;
        uint32_t best[16];
        float best_d2[16];
        uint32_t n = 0;
        for (uint32_t i = 0; i < 2000; ++i) {
            float dx = g_pos[i].x - c.x, dz = g_pos[i].z - c.z;
            float d2 = dx * dx + dz * dz;
            if (!g_active[i] || d2 > range * range || fabsf(g_pos[i].y - c.y) >= half + hh[i]) {
                continue;
            }
            uint32_t at = n < k ? n++ : k;
            while (at > 0 && best_d2[at - 1] > d2) {
                if (at < k) {
                    best[at] = best[at - 1];
                    best_d2[at] = best_d2[at - 1];
                }
                at--;
            }
            if (at < k) {
                best[at] = i;
                best_d2[at] = d2;
            }
        }
        uint32_t got[16];
        float got_d2[16];
        uint32_t m = wf_proximity_grid_nearest(&grid, g_pos, c, half, range, 0xffffffffu, NULL,
                                               NULL, got, got_d2, k);
        assert_int_equal(m, n);
        for (uint32_t j = 0; j < m; ++j) {
            assert_int_equal(got[j], best[j]);
        }
    }
    uint32_t out[4];
    float d2[4];
    assert_int_equal(wf_proximity_grid_nearest(&grid, g_pos, wf_v3(NAN, 0, 0), 0.0f, 5.0f, 0, NULL,
                                               NULL, out, d2, 4),
                     0);
    assert_int_equal(wf_proximity_grid_nearest(&grid, g_pos, wf_v3(0, 0, 0), 0.0f, 5.0f, 0, NULL,
                                               NULL, out, d2, 0),
                     0);
    wf_proximity_grid_destroy(&grid);
}

static void test_nearest_against_brute_force(void** state) {
    (void)state;
    nearest_against_brute_force(false);
}

static void test_nearest_against_brute_force_hashed(void** state) {
    (void)state;
    nearest_against_brute_force(true);
}

static void test_hash_collisions_and_far_apart_points(void** state) {
    (void)state;
    wf_proximity_grid grid;
    assert_int_equal(wf_proximity_grid_create(&grid, NULL, 32, 1.0f), WF_OK);
    assert_int_equal(grid.bucket_count, 64); // the minimum: 32 cells in 64 buckets collide
    wf_rng rng = wf_rng_make(77, 3);
    bool collided = false;
    for (int round = 0; round < 20; ++round) {
        for (uint32_t i = 0; i < 32; ++i) {
            g_pos[i] =
                wf_v3(wf_rng_range(&rng, -1e6f, 1e6f), 0.0f, wf_rng_range(&rng, -1e6f, 1e6f));
            g_active[i] = 1;
        }
        // Every 4th point shares the cell of the one before.
        for (uint32_t i = 3; i < 32; i += 4) {
            float x = floorf(g_pos[i - 1u].x), z = floorf(g_pos[i - 1u].z);
            g_pos[i] = wf_v3(x + 0.25f, 0.0f, z + 0.75f);
            g_pos[i - 1u] = wf_v3(x + 0.5f, 0.0f, z + 0.5f);
        }
        wf_proximity_grid_build(&grid, g_pos, NULL, g_active, 32);
        // Is there a bucket holding items of different cells?
        for (uint32_t b = 0; b < grid.bucket_count; ++b) {
            for (uint32_t s = grid.bucket_start[b] + 1u; s < grid.bucket_start[b + 1u]; ++s) {
                if (grid.item_cell[2u * s] != grid.item_cell[2u * s - 2u] ||
                    grid.item_cell[2u * s + 1u] != grid.item_cell[2u * s - 1u]) {
                    collided = true;
                }
                assert_true(grid.items[s] > grid.items[s - 1u]); // ascending in a bucket
            }
        }
        for (uint32_t i = 0; i < 32; ++i) {
            // One cell (walked), a few cells around it (walked), huge (scanned).
            float x = floorf(g_pos[i].x), z = floorf(g_pos[i].z);
            check_box(&grid, g_pos, g_active, 32, x, z, x + 0.999f, z + 0.999f);
            check_box(&grid, g_pos, g_active, 32, x - 1.5f, z - 1.5f, x + 1.5f, z + 1.5f);
            check_box(&grid, g_pos, g_active, 32, x - 1e5f, z - 1e5f, x + 1e5f, z + 1e5f);
        }
        uint32_t n =
            wf_proximity_grid_query(&grid, g_pos, floorf(g_pos[2].x), floorf(g_pos[2].z),
                                    floorf(g_pos[2].x) + 0.9f, floorf(g_pos[2].z) + 0.9f, g_out, 8);
        assert_int_equal(n, 2);
        assert_int_equal(g_out[0], 2);
        assert_int_equal(g_out[1], 3);
    }
    assert_true(collided);

    // Boxes of ~300 cells (walked: fewer cells than items) in a 1024-bucket
    // table: many buckets are reached from two cells and must give their
    // items once, under their own cell.
    wf_proximity_grid_destroy(&grid);
    assert_int_equal(wf_proximity_grid_create(&grid, NULL, 400, 1.0f), WF_OK);
    assert_int_equal(grid.bucket_count, 1024);
    for (uint32_t i = 0; i < 400; ++i) {
        g_pos[i] = wf_v3(-1000.0f + 5.0f * (float)i + 0.5f, 0.0f, -7.5f);
        g_active[i] = 1;
    }
    wf_proximity_grid_build(&grid, g_pos, NULL, g_active, 400);
    for (float x0 = -1000.0f; x0 < 1000.0f; x0 += 97.0f) {
        check_box(&grid, g_pos, g_active, 400, x0, -8.0f, x0 + 150.0f, -7.0f);
    }
    wf_proximity_grid_destroy(&grid);
}

static void test_order_truncation_inactive_and_rebuild(void** state) {
    (void)state;
    wf_proximity_grid grid;
    assert_int_equal(wf_proximity_grid_create(&grid, NULL, 1000, 3.0f), WF_OK);
    // Indices laid out so that cells and index order disagree.
    for (uint32_t i = 0; i < 100; ++i) {
        uint32_t j = (i * 37u) % 100u;
        g_pos[i] = wf_v3(-15.0f + 0.3f * (float)j, 0.0f, -15.0f + 0.3f * (float)((j * 7u) % 100u));
        g_active[i] = (i % 5u) != 0;
    }
    wf_proximity_grid_build(&grid, g_pos, NULL, g_active, 100);
    assert_int_equal(grid.item_count, 80);
    uint32_t n = wf_proximity_grid_query(&grid, g_pos, -20.0f, -20.0f, 20.0f, 20.0f, g_out, 1000);
    assert_int_equal(n, 80);
    for (uint32_t i = 0; i < n; ++i) {
        assert_true(i == 0 || g_out[i] > g_out[i - 1u]);
        assert_int_not_equal(g_out[i] % 5u, 0); // inactive skipped
    }
    // Walked cells (a 3 x 3 block of the 3 m grid): ascending across cells.
    n = wf_proximity_grid_query(&grid, g_pos, -6.0f, -6.0f, 2.9f, 2.9f, g_out, 1000);
    assert_true(n > 3);
    for (uint32_t i = 1; i < n; ++i) {
        assert_true(g_out[i] > g_out[i - 1u]);
    }
    // max_out: the smallest indices, the total still counted.
    for (uint32_t m = 0; m <= n; ++m) {
        uint32_t expected = brute(g_pos, g_active, 100, -6.0f, -6.0f, 2.9f, 2.9f, g_expected);
        g_out[m] = SENTINEL;
        assert_int_equal(wf_proximity_grid_query(&grid, g_pos, -6.0f, -6.0f, 2.9f, 2.9f, g_out, m),
                         expected);
        for (uint32_t i = 0; i < m; ++i) {
            assert_int_equal(g_out[i], g_expected[i]);
        }
        assert_int_equal(g_out[m], SENTINEL);
    }
    assert_int_equal(wf_proximity_grid_query(&grid, g_pos, -6.0f, -6.0f, 2.9f, 2.9f, NULL, 0), n);

    // Empty and NaN boxes.
    assert_int_equal(wf_proximity_grid_query(&grid, g_pos, 1.0f, 0.0f, 0.0f, 1.0f, g_out, 8), 0);
    assert_int_equal(wf_proximity_grid_query(&grid, g_pos, NAN, 0.0f, 1.0f, 1.0f, g_out, 8), 0);

    // No active item at all; active NULL means all.
    memset(g_active, 0, 100);
    wf_proximity_grid_build(&grid, g_pos, NULL, g_active, 100);
    assert_int_equal(grid.item_count, 0);
    assert_int_equal(wf_proximity_grid_query(&grid, g_pos, -20.0f, -20.0f, 20.0f, 20.0f, g_out, 8),
                     0);
    wf_proximity_grid_build(&grid, g_pos, NULL, NULL, 100);
    check_box(&grid, g_pos, NULL, 100, -20.0f, -20.0f, 20.0f, 20.0f);
    check_box(&grid, g_pos, NULL, 100, -5.0f, -5.0f, 1.0f, 1.0f);

    // Rebuilds: points move, some switch off, the count shrinks and grows.
    wf_rng rng = wf_rng_make(99, 5);
    for (int frame = 0; frame < 30; ++frame) {
        uint32_t count = 100u + wf_rng_below(&rng, 900u);
        random_points(&rng, count, -30.0f, 30.0f, (uint32_t)frame);
        wf_proximity_grid_build(&grid, g_pos, NULL, g_active, count);
        random_boxes(&grid, &rng, count, 100, -35.0f, 30.0f, 10.0f);
        // Move everything a little (as agents do) and rebuild.
        for (uint32_t i = 0; i < count; ++i) {
            g_pos[i].x += wf_rng_range(&rng, -2.0f, 2.0f);
            g_pos[i].z += wf_rng_range(&rng, -2.0f, 2.0f);
        }
        wf_proximity_grid_build(&grid, g_pos, NULL, g_active, count);
        random_boxes(&grid, &rng, count, 100, -35.0f, 30.0f, 10.0f);
    }
    wf_proximity_grid_destroy(&grid);
    wf_proximity_grid_destroy(&grid); // zeroed: ignored
    assert_int_equal(wf_proximity_grid_memory_bytes(&grid), 0);
}

/// A grid in the caller's storage (the crowd's update scratch) answers as
/// an owned grid, whatever the storage held before the build (dense and
/// hashed layouts); it allocates nothing and reports no memory. Bad
/// arguments are refused.
static void test_borrowed_storage(void** state) {
    (void)state;
    static uint32_t storage[4096u * 8u + 8192u + 8u];
    assert_true(wf_proximity_grid_storage_bytes(2000) <= sizeof storage);
    assert_int_equal(wf_proximity_grid_storage_bytes(0), 0);
    wf_proximity_grid owned, borrowed;
    assert_int_equal(wf_proximity_grid_create(&owned, NULL, 2000, 2.0f), WF_OK);
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    assert_int_equal(wf_proximity_grid_create_in(&borrowed, NULL, 2000, 2.0f), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_proximity_grid_create_in(&borrowed, (char*)storage + 1, 2000, 2.0f),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_proximity_grid_create_in(&borrowed, storage, 0, 2.0f), WF_ERR_INVALID_ARG);
    wf_set_assert_hook(previous);
    assert_int_equal(wf_proximity_grid_create_in(&borrowed, storage, 2000, 2.0f), WF_OK);
    assert_int_equal(wf_proximity_grid_memory_bytes(&borrowed), 0);
    wf_rng rng = wf_rng_make(77, 9);
    for (uint32_t round = 0; round < 2u; ++round) {
        // Round 0 spans few cells (dense), round 1 points far apart (hashed).
        float extent = round == 0 ? 40.0f : 1e6f;
        random_points(&rng, 2000, -extent, extent, 20u);
        memset(storage, 0xa5, sizeof storage); // what the scratch held before
        wf_proximity_grid_build(&owned, g_pos, NULL, g_active, 2000);
        wf_proximity_grid_build(&borrowed, g_pos, NULL, g_active, 2000);
        assert_true(borrowed.dense == owned.dense);
        assert_true(owned.dense == (round == 0));
        for (uint32_t q = 0; q < 300; ++q) {
            wf_vec3 c = g_pos[wf_rng_below(&rng, 2000u)];
            uint32_t a[8], b[8];
            float ad[8], bd[8];
            float range = wf_rng_range(&rng, 0.5f, 8.0f);
            uint32_t m = wf_proximity_grid_nearest(&owned, g_pos, c, 0.0f, range, 0xffffffffu, NULL,
                                                   NULL, a, ad, 8);
            assert_int_equal(wf_proximity_grid_nearest(&borrowed, g_pos, c, 0.0f, range,
                                                       0xffffffffu, NULL, NULL, b, bd, 8),
                             m);
            for (uint32_t k = 0; k < m; ++k) {
                assert_int_equal(a[k], b[k]);
                assert_true(ad[k] == bd[k]);
            }
            check_box(&borrowed, g_pos, g_active, 2000, c.x - range, c.z - range, c.x + range,
                      c.z + range);
        }
    }
    wf_proximity_grid_destroy(&borrowed); // frees nothing: the storage is ours
    wf_proximity_grid_destroy(&owned);
}

static void test_create_bad_arguments_and_out_of_memory(void** state) {
    (void)state;
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    wf_proximity_grid grid;
    memset(&grid, 0xab, sizeof grid);
    wf_proximity_grid copy = grid;
    assert_int_equal(wf_proximity_grid_create(&grid, NULL, 0, 1.0f), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_proximity_grid_create(&grid, NULL, 10, 0.0f), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_proximity_grid_create(&grid, NULL, 10, -1.0f), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_proximity_grid_create(&grid, NULL, 10, NAN), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_proximity_grid_create(&grid, NULL, 10, INFINITY), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_proximity_grid_create(&grid, NULL, (1u << 30) + 1u, 1.0f),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_proximity_grid_create(NULL, NULL, 10, 1.0f), WF_ERR_INVALID_ARG);
    assert_memory_equal(&grid, &copy, sizeof grid);
    wf_set_assert_hook(previous);

    for (unsigned long k = 1; k <= 4; ++k) {
        counting_allocator c;
        counting_allocator_init(&c);
        c.fail_at = k;
        wf_allocator a = counting_allocator_hooks(&c);
        assert_int_equal(wf_proximity_grid_create(&grid, &a, 100, 1.0f), WF_ERR_OUT_OF_MEMORY);
        assert_memory_equal(&grid, &copy, sizeof grid);
        assert_int_equal(counting_allocator_live(&c), 0);
        assert_int_equal(c.size_mismatches, 0);
    }
    // A fresh grid is empty.
    assert_int_equal(wf_proximity_grid_create(&grid, NULL, 1, 1.0f), WF_OK);
    assert_int_equal(grid.bucket_count, 64);
    wf_vec3 p = wf_v3(0.5f, 0.0f, 0.5f);
    assert_int_equal(wf_proximity_grid_query(&grid, &p, 0.0f, 0.0f, 1.0f, 1.0f, g_out, 8), 0);
    wf_proximity_grid_build(&grid, &p, NULL, NULL, 1);
    assert_int_equal(wf_proximity_grid_query(&grid, &p, 0.0f, 0.0f, 1.0f, 1.0f, g_out, 8), 1);
    assert_int_equal(g_out[0], 0);
    wf_proximity_grid_destroy(&grid);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_points_against_brute_force),
        cmocka_unit_test(test_nearest_against_brute_force),
        cmocka_unit_test(test_nearest_against_brute_force_hashed),
        cmocka_unit_test(test_hash_collisions_and_far_apart_points),
        cmocka_unit_test(test_order_truncation_inactive_and_rebuild),
        cmocka_unit_test(test_create_bad_arguments_and_out_of_memory),
        cmocka_unit_test(test_borrowed_storage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
