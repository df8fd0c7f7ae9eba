// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Walkable filters, compact heightfield, erosion and convex volumes on small
// hand-built heightfields, then the whole voxel front (rasterize, filter,
// compact, erode) on Recast level tiles against Recast's own layer arrays.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "navcore/arena.h"
#include "test_hooks.h"
#include "tilecache/heightfield.h"

#define ARENA_BYTES (8u * 1024u * 1024u)
#define OPEN 0xffffu

typedef struct fixture {
    counting_allocator counter;
    wf_allocator allocator;
    wf_arena arena;
} fixture;

static int setup(void** state) {
    fixture* f = test_calloc(1, sizeof *f);
    counting_allocator_init(&f->counter);
    f->allocator = counting_allocator_hooks(&f->counter);
    if (wf_arena_create(&f->arena, &f->allocator, ARENA_BYTES) != WF_OK) {
        return -1;
    }
    *state = f;
    return 0;
}

static int teardown(void** state) {
    fixture* f = *state;
    wf_arena_destroy(&f->arena, &f->allocator);
    assert_int_equal(counting_allocator_live(&f->counter), 0);
    test_free(f);
    return 0;
}

/// An empty field of 1 m cells and 0.5 m voxels from the origin.
static wf_heightfield make_field(fixture* f, int32_t width, int32_t depth) {
    const float bmin[3] = {0, 0, 0};
    const float bmax[3] = {(float)width, 100.0f, (float)depth};
    wf_heightfield hf;
    assert_int_equal(
        wf_heightfield_init(&hf, &f->arena, width, depth, bmin, bmax, 1.0f, 0.5f, 4096), WF_OK);
    return hf;
}

static void add(wf_heightfield* hf, int32_t x, int32_t z, uint16_t smin, uint16_t smax,
                uint8_t area) {
    assert_int_equal(wf_heightfield_add_span(hf, x, z, smin, smax, area, 0), WF_OK);
}

/// Every column a walkable floor [0, top).
static wf_heightfield make_platform(fixture* f, int32_t width, int32_t depth, uint16_t top) {
    wf_heightfield hf = make_field(f, width, depth);
    for (int32_t z = 0; z < depth; ++z) {
        for (int32_t x = 0; x < width; ++x) {
            add(&hf, x, z, 0, top, 0);
        }
    }
    return hf;
}

/// Area of the n-th span (bottom up) of a column.
static uint8_t area_at(const wf_heightfield* hf, int32_t x, int32_t z, int n) {
    uint32_t i = hf->columns[x + z * hf->width];
    for (; n > 0; --n) {
        assert_true(i != WF_NO_SPAN);
        i = hf->spans[i].next;
    }
    assert_true(i != WF_NO_SPAN);
    return hf->spans[i].area;
}

/// Compares the walkable tops of a one-span-per-column field with a map,
/// one string per z row: '#' walkable, '.' not.
static void assert_walkable_map(const wf_heightfield* hf, const char* const* rows) {
    for (int32_t z = 0; z < hf->depth; ++z) {
        for (int32_t x = 0; x < hf->width; ++x) {
            bool walkable = area_at(hf, x, z, 0) != WF_AREA_NULL;
            if (walkable != (rows[z][x] == '#')) {
                fail_msg("cell (%d, %d): walkable %d, expected '%c'", x, z, walkable, rows[z][x]);
            }
        }
    }
}

/* ---------------------------------------------------------------------------
 * Filters (walkable_height 6, walkable_climb 4 voxels unless said)
 */

static void test_low_hanging_obstacle_becomes_walkable(void** state) {
    fixture* f = *state;
    wf_heightfield hf = make_field(f, 4, 1);
    // column 0: a kerb 3 voxels above a floor of area 9 -> takes area 9
    add(&hf, 0, 0, 0, 10, 9);
    add(&hf, 0, 0, 11, 13, WF_AREA_NULL);
    // column 1: an obstacle top 5 above the floor: too high to step on
    add(&hf, 1, 0, 0, 10, 9);
    add(&hf, 1, 0, 11, 15, WF_AREA_NULL);
    // column 2: two stacked kerbs: only the lower one is fixed; a fixed
    // span does not lift the next
    add(&hf, 2, 0, 0, 10, 2);
    add(&hf, 2, 0, 11, 12, WF_AREA_NULL);
    add(&hf, 2, 0, 13, 14, WF_AREA_NULL);
    // column 3: the obstacle over an unwalkable span stays unwalkable
    add(&hf, 3, 0, 0, 10, WF_AREA_NULL);
    add(&hf, 3, 0, 11, 12, WF_AREA_NULL);
    wf_filter_low_hanging_obstacles(&hf, 4);
    assert_int_equal(area_at(&hf, 0, 0, 1), 9);
    assert_int_equal(area_at(&hf, 1, 0, 1), WF_AREA_NULL);
    assert_int_equal(area_at(&hf, 2, 0, 1), 2);
    assert_int_equal(area_at(&hf, 2, 0, 2), WF_AREA_NULL);
    assert_int_equal(area_at(&hf, 3, 0, 1), WF_AREA_NULL);
    // lower spans are left alone
    assert_int_equal(area_at(&hf, 0, 0, 0), 9);
    assert_int_equal(area_at(&hf, 3, 0, 0), WF_AREA_NULL);
    // a climb of 5 reaches column 1's obstacle too
    wf_filter_low_hanging_obstacles(&hf, 5);
    assert_int_equal(area_at(&hf, 1, 0, 1), 9);
}

static void test_ledge_field_edge_and_flat_interior(void** state) {
    fixture* f = *state;
    // the edge of the field is a ledge (nothing is known beyond it)
    wf_heightfield hf = make_platform(f, 5, 5, 10);
    wf_filter_ledge_spans(&hf, 6, 4);
    const char* const expected[] = {".....", ".###.", ".###.", ".###.", "....."};
    assert_walkable_map(&hf, expected);
}

static void test_ledge_step_within_climb_stays(void** state) {
    fixture* f = *state;
    // columns x >= 3 are 3 voxels higher (climb 4): no ledge inside
    wf_heightfield hf = make_field(f, 5, 5);
    for (int32_t z = 0; z < 5; ++z) {
        for (int32_t x = 0; x < 5; ++x) {
            add(&hf, x, z, 0, x >= 3 ? 13 : 10, 0);
        }
    }
    wf_filter_ledge_spans(&hf, 6, 4);
    const char* const expected[] = {".....", ".###.", ".###.", ".###.", "....."};
    assert_walkable_map(&hf, expected);
}

static void test_ledge_drop_beyond_climb(void** state) {
    fixture* f = *state;
    // columns x >= 3 are 5 voxels higher: their x = 3 edge looks down 5
    wf_heightfield hf = make_field(f, 5, 5);
    for (int32_t z = 0; z < 5; ++z) {
        for (int32_t x = 0; x < 5; ++x) {
            add(&hf, x, z, 0, x >= 3 ? 15 : 10, 0);
        }
    }
    wf_filter_ledge_spans(&hf, 6, 4);
    // x = 2 only looks up at a wall: fine
    const char* const expected[] = {".....", ".##..", ".##..", ".##..", "....."};
    assert_walkable_map(&hf, expected);
}

static void test_ledge_hole_next_door(void** state) {
    fixture* f = *state;
    // (3, 2) has no span at all: a bottomless drop for its neighbours
    wf_heightfield hf = make_field(f, 5, 5);
    for (int32_t z = 0; z < 5; ++z) {
        for (int32_t x = 0; x < 5; ++x) {
            if (x != 3 || z != 2) {
                add(&hf, x, z, 0, 10, 0);
            }
        }
    }
    wf_filter_ledge_spans(&hf, 6, 4);
    for (int32_t z = 0; z < 5; ++z) {
        for (int32_t x = 0; x < 5; ++x) {
            if (x == 3 && z == 2) {
                continue;
            }
            bool interior = x >= 1 && x <= 3 && z >= 1 && z <= 3;
            bool beside_hole = (x == 2 && z == 2) || (x == 3 && (z == 1 || z == 3));
            bool walkable = area_at(&hf, x, z, 0) != WF_AREA_NULL;
            assert_int_equal(walkable, interior && !beside_hole);
        }
    }
}

static void test_ledge_steep_and_gentle_slopes(void** state) {
    fixture* f = *state;
    // +3 per column: each step is climbable, but the neighbours of a cell
    // span 6 > 4 voxels, too steep to stand on
    wf_heightfield steep = make_field(f, 5, 5);
    // +2 per column: neighbours span 4: fine
    wf_heightfield gentle = make_field(f, 5, 5);
    for (int32_t z = 0; z < 5; ++z) {
        for (int32_t x = 0; x < 5; ++x) {
            add(&steep, x, z, 0, (uint16_t)(10 + 3 * x), 0);
            add(&gentle, x, z, 0, (uint16_t)(10 + 2 * x), 0);
        }
    }
    wf_filter_ledge_spans(&steep, 6, 4);
    wf_filter_ledge_spans(&gentle, 6, 4);
    const char* const none[] = {".....", ".....", ".....", ".....", "....."};
    assert_walkable_map(&steep, none);
    const char* const interior[] = {".....", ".###.", ".###.", ".###.", "....."};
    assert_walkable_map(&gentle, interior);
}

static void test_ledge_ignores_openings_too_low_to_enter(void** state) {
    fixture* f = *state;
    // (3, 2): a pit (floor 2) under a block spanning [5, 30): from the
    // floor at 10 the pit is out of reach, the block's top is a wall
    wf_heightfield hf = make_field(f, 5, 5);
    for (int32_t z = 0; z < 5; ++z) {
        for (int32_t x = 0; x < 5; ++x) {
            if (x == 3 && z == 2) {
                add(&hf, x, z, 0, 2, 0);
                add(&hf, x, z, 5, 30, 0);
            } else {
                add(&hf, x, z, 0, 10, 0);
            }
        }
    }
    wf_filter_ledge_spans(&hf, 6, 4);
    assert_int_equal(area_at(&hf, 2, 2, 0), 0);
    assert_int_equal(area_at(&hf, 3, 1, 0), 0);
    assert_int_equal(area_at(&hf, 3, 3, 0), 0);
    // the pit floor has no opening to anywhere: no ledge (the low-height
    // filter deals with it); the block top looks 20 down: a ledge
    assert_int_equal(area_at(&hf, 3, 2, 0), 0);
    assert_int_equal(area_at(&hf, 3, 2, 1), WF_AREA_NULL);
    // a block raised to [14, 30) leaves an opening 4 voxels tall above the
    // floor at 10: with a walkable height of 4 the neighbours can step
    // into it and see the pit 8 down -> ledges
    wf_heightfield low = make_field(f, 5, 5);
    for (int32_t z = 0; z < 5; ++z) {
        for (int32_t x = 0; x < 5; ++x) {
            add(&low, x, z, 0, (x == 3 && z == 2) ? 2 : 10, 0);
            if (x == 3 && z == 2) {
                add(&low, x, z, 14, 30, 0); // opening [2, 14) over the pit
            }
        }
    }
    wf_filter_ledge_spans(&low, 4, 4);
    assert_int_equal(area_at(&low, 2, 2, 0), WF_AREA_NULL);
    assert_int_equal(area_at(&low, 3, 1, 0), WF_AREA_NULL);
    assert_int_equal(area_at(&low, 1, 2, 0), 0);
}

static void test_low_height_spans(void** state) {
    fixture* f = *state;
    wf_heightfield hf = make_field(f, 3, 1);
    add(&hf, 0, 0, 0, 10, 0);
    add(&hf, 0, 0, 15, 20, 0); // 5 free voxels under it: too low for 6
    add(&hf, 1, 0, 0, 10, 4);
    add(&hf, 1, 0, 16, 20, 0); // exactly 6: enough
    add(&hf, 2, 0, 0, 10, 1);  // open sky
    wf_filter_low_height_spans(&hf, 6);
    assert_int_equal(area_at(&hf, 0, 0, 0), WF_AREA_NULL);
    assert_int_equal(area_at(&hf, 0, 0, 1), 0);
    assert_int_equal(area_at(&hf, 1, 0, 0), 4);
    assert_int_equal(area_at(&hf, 1, 0, 1), 0);
    assert_int_equal(area_at(&hf, 2, 0, 0), 1);
}

/// A random field: up to four spans a column, floors near each other (so
/// steps within and beyond climb), gaps of every height (openings too low,
/// just tall enough, open), unwalkable kerbs and holes.
static wf_heightfield random_field(fixture* f, uint32_t seed) {
    wf_heightfield hf = make_field(f, 20, 20);
    uint32_t rng = seed;
    for (int32_t z = 0; z < 20; ++z) {
        for (int32_t x = 0; x < 20; ++x) {
            uint32_t y = 0;
            for (int k = 0; k < 4; ++k) {
                rng = rng * 1664525u + 1013904223u;
                if ((rng >> 28) < 3u) {
                    break; // a shorter column (or a hole)
                }
                uint32_t gap = (rng >> 8) % 12u; // 0..11: touching, low and tall openings
                uint32_t thick = 1u + ((rng >> 16) % 5u);
                uint8_t area = (rng >> 24) % 5u == 0 ? (uint8_t)WF_AREA_NULL : (uint8_t)(rng & 3u);
                add(&hf, x, z, (uint16_t)(y + gap), (uint16_t)(y + gap + thick), area);
                y += gap + thick;
            }
        }
    }
    return hf;
}

static void test_column_filters_match_the_three_passes(void** state) {
    fixture* f = *state;
    uint32_t seed = 77u;
    for (int round = 0; round < 12; ++round) {
        for (int ledges = 0; ledges <= 1; ++ledges) {
            const int32_t walkable_height = 3 + round % 4, walkable_climb = 1 + round % 3;
            wf_arena_mark mark = wf_arena_get_mark(&f->arena);
            wf_heightfield want = random_field(f, seed);
            wf_heightfield got = random_field(f, seed);
            if (ledges) {
                wf_filter_low_hanging_obstacles(&want, walkable_climb);
                wf_filter_ledge_spans(&want, walkable_height, walkable_climb);
            }
            wf_filter_low_height_spans(&want, walkable_height);
            wf_span_columns cols;
            assert_int_equal(wf_span_columns_build(&cols, &f->arena, &got), WF_OK);
            wf_filter_span_columns(&cols, walkable_height, walkable_climb, ledges != 0);
            uint32_t n = 0, walkable = 0;
            for (int32_t c = 0; c < 20 * 20; ++c) {
                assert_int_equal(cols.first[c], n);
                for (uint32_t i = want.columns[c]; i != WF_NO_SPAN; i = want.spans[i].next) {
                    assert_int_equal(cols.area[n], want.spans[i].area);
                    walkable += want.spans[i].area != WF_AREA_NULL;
                    n++;
                }
            }
            assert_int_equal(cols.span_count, n);
            assert_true(walkable > 0 && walkable < n); // the filters did something, not all
            wf_arena_reset_to(&f->arena, mark);
        }
        seed = seed * 747796405u + 2891336453u;
    }
}

static void test_filters_ignore_null_fields(void** state) {
    (void)state;
    wf_filter_low_hanging_obstacles(NULL, 4);
    wf_filter_ledge_spans(NULL, 6, 4);
    wf_filter_low_height_spans(NULL, 6);
    wf_heightfield empty;
    memset(&empty, 0, sizeof empty);
    wf_filter_low_hanging_obstacles(&empty, 4);
    wf_filter_ledge_spans(&empty, 6, 4);
    wf_filter_low_height_spans(&empty, 6);
}

/* ---------------------------------------------------------------------------
 * Compact heightfield
 */

static uint32_t count_connections(const wf_compact_heightfield* chf) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < chf->span_count; ++i) {
        for (int dir = 0; dir < WF_DIR_COUNT; ++dir) {
            n += wf_compact_get_con(&chf->spans[i], dir) != WF_NOT_CONNECTED;
        }
    }
    return n;
}

static void test_compact_platform_with_step(void** state) {
    fixture* f = *state;
    // 4 x 3 cells, floor 10 for x < 2 and 10 + step for x >= 2
    for (int step = 3; step <= 5; step += 2) {
        wf_heightfield hf = make_field(f, 4, 3);
        for (int32_t z = 0; z < 3; ++z) {
            for (int32_t x = 0; x < 4; ++x) {
                add(&hf, x, z, 0, (uint16_t)(x >= 2 ? 10 + step : 10), 0);
            }
        }
        wf_compact_heightfield chf;
        assert_int_equal(wf_compact_build(&chf, &f->arena, &hf, 1, 6, 4), WF_OK);
        assert_int_equal(chf.width, 4);
        assert_int_equal(chf.depth, 3);
        assert_int_equal(chf.border, 1);
        assert_int_equal(chf.walkable_height, 6);
        assert_int_equal(chf.walkable_climb, 4);
        assert_int_equal(chf.span_count, 12);
        assert_true(chf.bmax[1] == 100.0f + 6 * 0.5f);
        for (int32_t z = 0; z < 3; ++z) {
            for (int32_t x = 0; x < 4; ++x) {
                int32_t c = x + z * 4;
                assert_int_equal(chf.cell_count[c], 1);
                assert_int_equal(chf.cell_index[c], (uint32_t)c);
                const wf_compact_span* s = &chf.spans[c];
                assert_int_equal(s->y, x >= 2 ? 10 + step : 10);
                assert_int_equal(s->h, 255); // open sky, clamped
                assert_int_equal(chf.areas[c], 0);
                // every link that exists points at index 0 of its cell
                for (int dir = 0; dir < WF_DIR_COUNT; ++dir) {
                    uint32_t con = wf_compact_get_con(s, dir);
                    assert_true(con == 0 || con == WF_NOT_CONNECTED);
                }
            }
        }
        // 9 x-adjacent pairs and 8 z-adjacent pairs, both ways: 34 links;
        // a step of 5 cuts the 3 pairs across x = 1 | 2
        assert_int_equal(count_connections(&chf), step == 3 ? 34u : 28u);
        assert_int_equal(wf_compact_get_con(&chf.spans[1 + 4], 2),
                         step == 3 ? 0u : WF_NOT_CONNECTED);
        assert_int_equal(wf_compact_get_con(&chf.spans[2 + 4], 0),
                         step == 3 ? 0u : WF_NOT_CONNECTED);
        // the field's edge has no links outward
        assert_int_equal(wf_compact_get_con(&chf.spans[0], 0), WF_NOT_CONNECTED);
        assert_int_equal(wf_compact_get_con(&chf.spans[0], 3), WF_NOT_CONNECTED);
        assert_int_equal(wf_compact_get_con(&chf.spans[11], 1), WF_NOT_CONNECTED);
        assert_int_equal(wf_compact_get_con(&chf.spans[11], 2), WF_NOT_CONNECTED);
    }
}

static void test_compact_links_pick_the_right_level(void** state) {
    fixture* f = *state;
    wf_heightfield hf = make_field(f, 2, 1);
    // cell 0: a floor at 10 under a slab [20, 30); cell 1: a floor at 28
    add(&hf, 0, 0, 0, 10, 0);
    add(&hf, 0, 0, 20, 30, 3);
    add(&hf, 1, 0, 0, 28, 5);
    add(&hf, 1, 0, 40, 41, WF_AREA_NULL); // unwalkable: not in the compact field
    wf_compact_heightfield chf;
    assert_int_equal(wf_compact_build(&chf, &f->arena, &hf, 0, 6, 4), WF_OK);
    assert_int_equal(chf.span_count, 3);
    assert_int_equal(chf.cell_index[0], 0);
    assert_int_equal(chf.cell_count[0], 2);
    assert_int_equal(chf.cell_index[1], 2);
    assert_int_equal(chf.cell_count[1], 1);
    assert_int_equal(chf.spans[0].y, 10);
    assert_int_equal(chf.spans[0].h, 10);
    assert_int_equal(chf.spans[1].y, 30);
    assert_int_equal(chf.spans[1].h, 255);
    assert_int_equal(chf.spans[2].y, 28);
    assert_int_equal(chf.spans[2].h, 12); // up to the unwalkable span at 40
    assert_int_equal(chf.areas[1], 3);
    assert_int_equal(chf.areas[2], 5);
    // the lower floor is 18 below cell 1's: no link
    assert_int_equal(wf_compact_get_con(&chf.spans[0], 2), WF_NOT_CONNECTED);
    // the slab top (30) links to cell 1's floor (28), its index 0 there
    assert_int_equal(wf_compact_get_con(&chf.spans[1], 2), 0);
    // and cell 1 links back to index 1 in cell 0, skipping the lower floor
    assert_int_equal(wf_compact_get_con(&chf.spans[2], 0), 1);
    // not enough shared headroom: with a walkable height of 13, the 12
    // free voxels above 28 are too few
    wf_compact_heightfield tall;
    assert_int_equal(wf_compact_build(&tall, &f->arena, &hf, 0, 13, 4), WF_OK);
    assert_int_equal(count_connections(&tall), 0);
}

static void test_compact_cell_limit(void** state) {
    fixture* f = *state;
    wf_heightfield hf = make_field(f, 2, 1);
    // 63 walkable spans in one cell fit the 6-bit links; 64 do not
    for (uint16_t k = 0; k < 63; ++k) {
        add(&hf, 0, 0, (uint16_t)(2 * k), (uint16_t)(2 * k + 1), 0);
        add(&hf, 1, 0, (uint16_t)(2 * k), (uint16_t)(2 * k + 1), 0);
    }
    wf_compact_heightfield chf;
    assert_int_equal(wf_compact_build(&chf, &f->arena, &hf, 0, 1, 0), WF_OK);
    assert_int_equal(chf.cell_count[0], 63);
    // the top span of cell 0 links to the top of cell 1: index 62
    assert_int_equal(wf_compact_get_con(&chf.spans[62], 2), 62);
    add(&hf, 1, 0, 200, 201, 0);
    size_t used = f->arena.used;
    assert_int_equal(wf_compact_build(&chf, &f->arena, &hf, 0, 1, 0), WF_ERR_CAPACITY);
    assert_int_equal(f->arena.used, used);
    // unwalkable spans do not count
    wf_heightfield nulls = make_field(f, 1, 1);
    for (uint16_t k = 0; k < 100; ++k) {
        add(&nulls, 0, 0, (uint16_t)(2 * k), (uint16_t)(2 * k + 1), WF_AREA_NULL);
    }
    add(&nulls, 0, 0, 300, 301, 0);
    assert_int_equal(wf_compact_build(&chf, &f->arena, &nulls, 0, 1, 0), WF_OK);
    assert_int_equal(chf.span_count, 1);
}

static void test_compact_bad_input_and_full_arena(void** state) {
    fixture* f = *state;
    wf_heightfield hf = make_platform(f, 8, 8, 10);
    wf_compact_heightfield chf;
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    assert_int_equal(wf_compact_build(NULL, &f->arena, &hf, 0, 6, 4), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_compact_build(&chf, NULL, &hf, 0, 6, 4), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_compact_build(&chf, &f->arena, NULL, 0, 6, 4), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_compact_build(&chf, &f->arena, &hf, -1, 6, 4), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_compact_build(&chf, &f->arena, &hf, 0, -6, 4), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_compact_build(&chf, &f->arena, &hf, 0, 6, -4), WF_ERR_INVALID_ARG);
    wf_set_assert_hook(previous);
    unsigned char buffer[512];
    wf_arena small;
    wf_arena_init(&small, buffer, sizeof buffer);
    // 64 cells (320 bytes of index and count) fit, 64 spans do not
    assert_int_equal(wf_compact_build(&chf, &small, &hf, 0, 6, 4), WF_ERR_CAPACITY);
    assert_int_equal(small.used, 0);
}

/* ---------------------------------------------------------------------------
 * Erosion and convex volumes
 */

static wf_compact_heightfield compact_platform(fixture* f, int32_t size, uint16_t top) {
    wf_heightfield hf = make_platform(f, size, size, top);
    wf_compact_heightfield chf;
    assert_int_equal(wf_compact_build(&chf, &f->arena, &hf, 0, 6, 4), WF_OK);
    return chf;
}

/// Compares the areas of a one-span-per-cell compact field with a map:
/// '#' area 0, '.' unwalkable, a digit that area.
static void assert_area_map(const wf_compact_heightfield* chf, const char* const* rows) {
    for (int32_t z = 0; z < chf->depth; ++z) {
        for (int32_t x = 0; x < chf->width; ++x) {
            int32_t c = x + z * chf->width;
            assert_int_equal(chf->cell_count[c], 1);
            uint8_t area = chf->areas[chf->cell_index[c]];
            char want = rows[z][x];
            uint8_t expected = want == '.' ? WF_AREA_NULL : want == '#' ? 0 : (uint8_t)(want - '0');
            if (area != expected) {
                fail_msg("cell (%d, %d): area %d, expected '%c'", x, z, area, want);
            }
        }
    }
}

static void test_erode_platform(void** state) {
    fixture* f = *state;
    // The edge ring has a missing neighbour (distance 0); the chamfer
    // distance then grows by 2 per ring inwards (a diagonal costs 3, never
    // shorter here). Cells closer than 2 * radius go.
    wf_compact_heightfield r1 = compact_platform(f, 7, 10);
    assert_int_equal(wf_erode_walkable_area(&r1, &f->arena, 1), WF_OK);
    const char* const one[] = {".......", ".#####.", ".#####.", ".#####.",
                               ".#####.", ".#####.", "......."};
    assert_area_map(&r1, one);

    wf_compact_heightfield r2 = compact_platform(f, 7, 10);
    assert_int_equal(wf_erode_walkable_area(&r2, &f->arena, 2), WF_OK);
    const char* const two[] = {".......", ".......", "..###..", "..###..",
                               "..###..", ".......", "......."};
    assert_area_map(&r2, two);

    wf_compact_heightfield r3 = compact_platform(f, 7, 10);
    assert_int_equal(wf_erode_walkable_area(&r3, &f->arena, 3), WF_OK);
    const char* const three[] = {".......", ".......", ".......", "...#...",
                                 ".......", ".......", "......."};
    assert_area_map(&r3, three);

    wf_compact_heightfield r4 = compact_platform(f, 7, 10);
    assert_int_equal(wf_erode_walkable_area(&r4, &f->arena, 4), WF_OK);
    for (uint32_t i = 0; i < r4.span_count; ++i) {
        assert_int_equal(r4.areas[i], WF_AREA_NULL);
    }

    // radius 0 changes nothing
    wf_compact_heightfield r0 = compact_platform(f, 7, 10);
    assert_int_equal(wf_erode_walkable_area(&r0, &f->arena, 0), WF_OK);
    for (uint32_t i = 0; i < r0.span_count; ++i) {
        assert_int_equal(r0.areas[i], 0);
    }
}

static void test_erode_around_a_pillar(void** state) {
    fixture* f = *state;
    // the centre of a 7 x 7 platform is unwalkable: its 4 straight
    // neighbours are edge cells too, its diagonal ones are 3 away
    wf_compact_heightfield chf = compact_platform(f, 7, 10);
    chf.areas[3 + 3 * 7] = WF_AREA_NULL;
    assert_int_equal(wf_erode_walkable_area(&chf, &f->arena, 1), WF_OK);
    const char* const one[] = {".......", ".#####.", ".##.##.", ".#...#.",
                               ".##.##.", ".#####.", "......."};
    assert_area_map(&chf, one);
    // radius 2 removes distances < 4: every cell left after radius 1 is
    // one straight step (2) from a seed, so nothing remains
    wf_compact_heightfield r2 = compact_platform(f, 7, 10);
    r2.areas[3 + 3 * 7] = WF_AREA_NULL;
    assert_int_equal(wf_erode_walkable_area(&r2, &f->arena, 2), WF_OK);
    for (uint32_t i = 0; i < r2.span_count; ++i) {
        assert_int_equal(r2.areas[i], WF_AREA_NULL);
    }
}

/// The two-pass chamfer transform written out plainly (the reference the
/// library's shortcut for radius 1 and 2 must match bit for bit): seeds are
/// unwalkable spans and spans missing a walkable linked neighbour; each
/// pass takes straight steps (2) and the diagonals through one particular
/// straight neighbour (3).
static void reference_erode(wf_compact_heightfield* chf, int32_t radius, uint16_t* dist) {
    for (int32_t z = 0; z < chf->depth; ++z) {
        for (int32_t x = 0; x < chf->width; ++x) {
            int32_t c = x + z * chf->width;
            for (uint32_t i = chf->cell_index[c]; i < chf->cell_index[c] + chf->cell_count[c];
                 ++i) {
                bool inside = chf->areas[i] != WF_AREA_NULL;
                for (int d = 0; d < 4 && inside; ++d) {
                    uint32_t k = wf_compact_get_con(&chf->spans[i], d);
                    int32_t nc = x + wf_dir_dx[d] + (z + wf_dir_dz[d]) * chf->width;
                    inside = k != WF_NOT_CONNECTED &&
                             chf->areas[chf->cell_index[nc] + k] != WF_AREA_NULL;
                }
                dist[i] = inside ? 0xffffu : 0u;
            }
        }
    }
    static const int pairs[2][2][2] = {{{0, 3}, {3, 2}}, {{2, 1}, {1, 0}}};
    for (int pass = 0; pass < 2; ++pass) {
        for (int32_t n = 0; n < chf->width * chf->depth; ++n) {
            int32_t c = pass == 0 ? n : chf->width * chf->depth - 1 - n;
            int32_t x = c % chf->width, z = c / chf->width;
            for (uint32_t i = chf->cell_index[c]; i < chf->cell_index[c] + chf->cell_count[c];
                 ++i) {
                for (int p = 0; p < 2 && dist[i] != 0; ++p) {
                    int d = pairs[pass][p][0], t = pairs[pass][p][1];
                    uint32_t k = wf_compact_get_con(&chf->spans[i], d);
                    if (k == WF_NOT_CONNECTED) {
                        continue;
                    }
                    int32_t nx = x + wf_dir_dx[d], nz = z + wf_dir_dz[d];
                    uint32_t ni = chf->cell_index[nx + nz * chf->width] + k;
                    uint32_t v = dist[ni] + 2u;
                    dist[i] = (uint16_t)(v < dist[i] ? v : dist[i]);
                    uint32_t kt = wf_compact_get_con(&chf->spans[ni], t);
                    if (kt == WF_NOT_CONNECTED) {
                        continue;
                    }
                    int32_t tx = nx + wf_dir_dx[t], tz = nz + wf_dir_dz[t];
                    v = dist[chf->cell_index[tx + tz * chf->width] + kt] + 3u;
                    dist[i] = (uint16_t)(v < dist[i] ? v : dist[i]);
                }
            }
        }
    }
    for (uint32_t i = 0; i < chf->span_count; ++i) {
        if (dist[i] < (uint32_t)radius * 2u) {
            chf->areas[i] = WF_AREA_NULL;
        }
    }
}

static void test_erode_matches_the_plain_transform(void** state) {
    fixture* f = *state;
    // Random two-storey terrain with steps beyond climb and holes, so that
    // links are missing in every pattern; radius 1 and 2 take the short
    // path, 3 and 4 the passes, and all must match the reference.
    uint32_t seed = 2026u;
    for (int round = 0; round < 8; ++round) {
        for (int32_t radius = 1; radius <= 4; ++radius) {
            wf_arena_mark mark = wf_arena_get_mark(&f->arena);
            uint32_t rng = seed;
            wf_heightfield hf = make_field(f, 24, 24);
            for (int32_t z = 0; z < 24; ++z) {
                for (int32_t x = 0; x < 24; ++x) {
                    rng = rng * 1664525u + 1013904223u;
                    if ((rng >> 28) == 0) {
                        continue; // a hole
                    }
                    uint16_t top = (uint16_t)(10u + ((rng >> 20) & 3u) + (x >= 12 ? 6u : 0u));
                    add(&hf, x, z, 0, top, (rng >> 16) % 13u == 0 ? (uint8_t)WF_AREA_NULL : 0u);
                    if ((rng >> 12) % 3u == 0) {
                        add(&hf, x, z, (uint16_t)(top + 12u), (uint16_t)(top + 14u), 0);
                    }
                }
            }
            // `plain` drops the link table, as a hand-filled field has
            // none: the erosion then reads con alone, with the same result.
            wf_compact_heightfield got, want, plain;
            assert_int_equal(wf_compact_build(&got, &f->arena, &hf, 0, 6, 4), WF_OK);
            assert_int_equal(wf_compact_build(&want, &f->arena, &hf, 0, 6, 4), WF_OK);
            assert_int_equal(wf_compact_build(&plain, &f->arena, &hf, 0, 6, 4), WF_OK);
            plain.links = NULL;
            assert_int_equal(wf_erode_walkable_area(&plain, &f->arena, radius), WF_OK);
            uint16_t* dist = test_malloc(want.span_count * sizeof *dist);
            reference_erode(&want, radius, dist);
            test_free(dist);
            assert_int_equal(wf_erode_walkable_area(&got, &f->arena, radius), WF_OK);
            uint32_t eroded = 0;
            for (uint32_t i = 0; i < got.span_count; ++i) {
                assert_int_equal(got.areas[i], want.areas[i]);
                assert_int_equal(plain.areas[i], want.areas[i]);
                eroded += got.areas[i] == WF_AREA_NULL;
            }
            assert_true(eroded > 0 && (radius > 2 || eroded < got.span_count));
            wf_arena_reset_to(&f->arena, mark);
        }
        seed = seed * 747796405u + 2891336453u;
    }
}

static void test_erode_follows_links_not_columns(void** state) {
    fixture* f = *state;
    // A 7 x 7 platform whose column x = 3 is 5 voxels higher (beyond climb):
    // two 3-wide strips and a 1-wide ridge, nothing linked across.
    wf_heightfield hf = make_field(f, 7, 7);
    for (int32_t z = 0; z < 7; ++z) {
        for (int32_t x = 0; x < 7; ++x) {
            add(&hf, x, z, 0, x == 3 ? 15 : 10, 0);
        }
    }
    wf_compact_heightfield chf;
    assert_int_equal(wf_compact_build(&chf, &f->arena, &hf, 0, 6, 4), WF_OK);
    assert_int_equal(wf_erode_walkable_area(&chf, &f->arena, 1), WF_OK);
    const char* const one[] = {".......", ".#...#.", ".#...#.", ".#...#.",
                               ".#...#.", ".#...#.", "......."};
    assert_area_map(&chf, one);
}

static void test_erode_bad_input_and_full_arena(void** state) {
    fixture* f = *state;
    wf_compact_heightfield chf = compact_platform(f, 7, 10);
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    assert_int_equal(wf_erode_walkable_area(NULL, &f->arena, 1), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_erode_walkable_area(&chf, NULL, 1), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_erode_walkable_area(&chf, &f->arena, -1), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_erode_walkable_area(&chf, &f->arena, 40000), WF_ERR_INVALID_ARG);
    wf_set_assert_hook(previous);
    // 49 spans need 49 bytes (the areas saved before a short erosion of a
    // field with a link table; 98 of distances without one)
    unsigned char buffer[32];
    wf_arena small;
    wf_arena_init(&small, buffer, sizeof buffer);
    assert_int_equal(wf_erode_walkable_area(&chf, &small, 1), WF_ERR_CAPACITY);
    for (uint32_t i = 0; i < chf.span_count; ++i) {
        assert_int_equal(chf.areas[i], 0);
    }
    // the scratch is given back
    size_t used = f->arena.used;
    assert_int_equal(wf_erode_walkable_area(&chf, &f->arena, 1), WF_OK);
    assert_int_equal(f->arena.used, used);
}

static void test_convex_volume_paints_cells(void** state) {
    fixture* f = *state;
    // tops at 10 voxels = 5 m; cell centres at x + 0.5
    wf_compact_heightfield chf = compact_platform(f, 7, 10);
    chf.areas[2 + 2 * 7] = WF_AREA_NULL; // inside the square, stays unwalkable
    const wf_vec3 square[] = {{1.2f, 0, 1.2f}, {3.8f, 0, 1.2f}, {3.8f, 0, 3.8f}, {1.2f, 0, 3.8f}};
    wf_convex_volume v = {square, 4, 4.0f, 6.0f, 4};
    wf_mark_convex_volume(&chf, &v);
    const char* const painted[] = {"#######", "#444###", "#4.4###", "#444###",
                                   "#######", "#######", "#######"};
    assert_area_map(&chf, painted);

    // a volume above the floor (y 6..8) paints nothing
    wf_convex_volume high = {square, 4, 6.0f, 8.0f, 7};
    wf_mark_convex_volume(&chf, &high);
    assert_area_map(&chf, painted);

    // a triangle, wound either way: centres with x + z < 6.8
    const wf_vec3 tri_ccw[] = {{0, 0, 0}, {0, 0, 6.8f}, {6.8f, 0, 0}};
    const wf_vec3 tri_cw[] = {{0, 0, 0}, {6.8f, 0, 0}, {0, 0, 6.8f}};
    const char* const triangle[] = {"222222#", "22222##", "2222###", "222####",
                                    "22#####", "2######", "#######"};
    wf_compact_heightfield a = compact_platform(f, 7, 10);
    wf_convex_volume va = {tri_ccw, 3, 0.0f, 10.0f, 2};
    wf_mark_convex_volume(&a, &va);
    assert_area_map(&a, triangle);
    wf_compact_heightfield b = compact_platform(f, 7, 10);
    wf_convex_volume vb = {tri_cw, 3, 0.0f, 10.0f, 2};
    wf_mark_convex_volume(&b, &vb);
    assert_area_map(&b, triangle);

    // a volume past the field's edge paints the part inside
    const wf_vec3 edge[] = {{5.2f, 0, -3}, {20, 0, -3}, {20, 0, 1.9f}, {5.2f, 0, 1.9f}};
    wf_compact_heightfield c = compact_platform(f, 7, 10);
    wf_convex_volume vc = {edge, 4, 0.0f, 10.0f, 9};
    wf_mark_convex_volume(&c, &vc);
    const char* const corner[] = {"#####99", "#####99", "#######", "#######",
                                  "#######", "#######", "#######"};
    assert_area_map(&c, corner);

    // bad volumes are ignored
    wf_convex_volume bad = {square, 2, 0.0f, 10.0f, 1};
    wf_mark_convex_volume(&c, &bad);
    bad.vert_count = 4;
    bad.min_y = 11.0f;
    wf_mark_convex_volume(&c, &bad);
    wf_mark_convex_volume(&c, NULL);
    wf_mark_convex_volume(NULL, &bad);
    assert_area_map(&c, corner);
}

/* ---------------------------------------------------------------------------
 * Recast levels: the voxel front against Recast's layer arrays
 */

#define TILE 48
#define BORDER 5
#define FIELD (TILE + 2 * BORDER)
#define MAX_LAYERS 4

typedef struct expected_tile {
    int layer_count;
    int hmin[MAX_LAYERS];
    int heights[MAX_LAYERS][TILE * TILE];
    int areas[MAX_LAYERS][TILE * TILE];
    int cons[MAX_LAYERS][TILE * TILE];
} expected_tile;

static char* read_whole_file(const char* path, size_t* out_size) {
    FILE* file = fopen(path, "rb");
    if (file == NULL) {
        return NULL;
    }
    fseek(file, 0, SEEK_END);
    long len = ftell(file);
    fseek(file, 0, SEEK_SET);
    char* data = malloc((size_t)len + 1);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)len, file), (size_t)len);
    fclose(file);
    data[len] = '\0';
    *out_size = (size_t)len;
    return data;
}

static const char* next_line(const char* p) {
    const char* nl = strchr(p, '\n');
    return nl != NULL ? nl + 1 : p + strlen(p);
}

/// Reads 48 rows of 48 numbers after a "  <name> minx=..." line.
static const char* read_grid(const char* p, const char* name, int* out) {
    assert_true(strncmp(p + 2, name, strlen(name)) == 0);
    p = next_line(p);
    for (int i = 0; i < TILE * TILE; ++i) {
        char* end;
        out[i] = (int)strtol(p, &end, 10);
        assert_true(end != p);
        p = end;
    }
    return next_line(p);
}

/// Parses one tile of expected/recast_layers_full.txt.
static void read_expected(const char* text, const char* mesh, int tx, int tz, expected_tile* out) {
    char key[128];
    snprintf(key, sizeof key, "%s\ttile=%d,%d\t", mesh, tx, tz);
    const char* p = strstr(text, key);
    assert_non_null(p);
    const char* nl = strstr(p, "nlayers=");
    assert_non_null(nl);
    out->layer_count = atoi(nl + 8);
    assert_true(out->layer_count >= 1 && out->layer_count <= MAX_LAYERS);
    p = next_line(p);
    for (int l = 0; l < out->layer_count; ++l) {
        const char* h = strstr(p, "hmin=");
        assert_non_null(h);
        out->hmin[l] = atoi(h + 5);
        p = next_line(p);
        p = read_grid(p, "heights", out->heights[l]);
        p = read_grid(p, "areas", out->areas[l]);
        p = read_grid(p, "cons", out->cons[l]);
    }
}

static uint32_t neighbour_of(const wf_compact_heightfield* chf, int32_t x, int32_t z, uint32_t i,
                             int dir) {
    uint32_t con = wf_compact_get_con(&chf->spans[i], dir);
    if (con == WF_NOT_CONNECTED) {
        return WF_NO_SPAN;
    }
    int32_t nx = x + wf_dir_dx[dir];
    int32_t nz = z + wf_dir_dz[dir];
    return chf->cell_index[nx + nz * chf->width] + con;
}

/// Runs rasterize -> filters -> compact -> erode on one tile with the
/// Recast demo settings and compares every interior cell with Recast's
/// layers. A layer cell holds its span's floor above the layer's hmin,
/// except that a cell with a portal (high nibble of cons) to a walkable
/// neighbour in another layer takes the higher of the two floors, so that
/// both sides of the portal meet; the comparison applies the same rule.
static void check_level_tile(fixture* f, const char* mesh, int tx, int tz) {
    char path[512];
    snprintf(path, sizeof path, "%s/recast/meshes/%s", WF_TESTDATA_DIR, mesh);
    size_t obj_size = 0;
    char* obj = read_whole_file(path, &obj_size);
    snprintf(path, sizeof path, "%s/recast/expected/recast_layers_full.txt", WF_TESTDATA_DIR);
    size_t expected_size = 0;
    char* expected_text = read_whole_file(path, &expected_size);
    if (obj == NULL || expected_text == NULL) {
        free(obj);
        free(expected_text);
        skip();
    }
    expected_tile* want = malloc(sizeof *want);
    assert_non_null(want);
    read_expected(expected_text, mesh, tx, tz, want);
    free(expected_text);

    wf_geom_load_desc load = {.allocator = f->allocator};
    wf_geom_data* data = NULL;
    assert_int_equal(wf_geom_load_obj(obj, obj_size, &load, &data), WF_OK);
    free(obj);
    wf_geom geom = wf_geom_data_view(data);
    wf_vec3 lo, hi;
    assert_true(wf_geom_bounds(&geom, &lo, &hi));

    // Recast demo: cs 0.3, ch 0.2, height 2.0 -> 10, climb 0.9 -> 4,
    // radius 0.6 -> 2, slope 45; tile 48 + a border of 5 cells per side.
    const float cs = 0.3f, ch = 0.2f;
    const float tile_world = (float)TILE * cs;
    float bmin[3] = {lo.x + (float)tx * tile_world - BORDER * cs, lo.y,
                     lo.z + (float)tz * tile_world - BORDER * cs};
    float bmax[3] = {lo.x + (float)(tx + 1) * tile_world + BORDER * cs, hi.y,
                     lo.z + (float)(tz + 1) * tile_world + BORDER * cs};
    wf_heightfield hf;
    assert_int_equal(wf_heightfield_init(&hf, &f->arena, FIELD, FIELD, bmin, bmax, cs, ch, 60000),
                     WF_OK);
    assert_int_equal(wf_rasterize_triangles(&hf, &geom, 45.0f, 4), WF_OK);
    uint32_t walkable_tops = 0;
    for (uint32_t c = 0; c < FIELD * FIELD; ++c) {
        for (uint32_t i = hf.columns[c]; i != WF_NO_SPAN; i = hf.spans[i].next) {
            walkable_tops += hf.spans[i].area != WF_AREA_NULL;
        }
    }
    assert_true(walkable_tops > TILE * TILE / 4); // floors came out walkable

    wf_filter_low_hanging_obstacles(&hf, 4);
    wf_filter_ledge_spans(&hf, 10, 4);
    wf_filter_low_height_spans(&hf, 10);
    wf_compact_heightfield chf;
    assert_int_equal(wf_compact_build(&chf, &f->arena, &hf, BORDER, 10, 4), WF_OK);
    assert_int_equal(wf_erode_walkable_area(&chf, &f->arena, 2), WF_OK);

    uint32_t expected_cells = 0, matched = 0, mismatches = 0;
    for (int32_t z = 0; z < TILE; ++z) {
        for (int32_t x = 0; x < TILE; ++x) {
            int32_t cx = x + BORDER, cz = z + BORDER;
            int32_t c = cx + cz * FIELD;
            bool used[64] = {false};
            uint32_t ours = 0;
            for (uint32_t k = 0; k < chf.cell_count[c]; ++k) {
                ours += chf.areas[chf.cell_index[c] + k] != WF_AREA_NULL;
            }
            uint32_t theirs = 0;
            for (int l = 0; l < want->layer_count; ++l) {
                int idx = x + z * TILE;
                if (want->heights[l][idx] == 255) {
                    continue;
                }
                theirs++;
                int floor = want->hmin[l] + want->heights[l][idx];
                int portals = want->cons[l][idx] >> 4;
                bool found = false;
                for (uint32_t k = 0; k < chf.cell_count[c] && !found; ++k) {
                    uint32_t i = chf.cell_index[c] + k;
                    if (used[k] || chf.areas[i] == WF_AREA_NULL) {
                        continue;
                    }
                    int seen = chf.spans[i].y;
                    for (int dir = 0; dir < WF_DIR_COUNT; ++dir) {
                        uint32_t n = neighbour_of(&chf, cx, cz, i, dir);
                        if ((portals & (1 << dir)) && n != WF_NO_SPAN &&
                            chf.areas[n] != WF_AREA_NULL && chf.spans[n].y > seen) {
                            seen = chf.spans[n].y;
                        }
                    }
                    // Recast's walkable area id 63 is our default 0
                    if (seen == floor && want->areas[l][idx] == 63 && chf.areas[i] == 0) {
                        used[k] = true;
                        found = true;
                    }
                }
                if (found) {
                    matched++;
                } else if (mismatches++ == 0) {
                    print_error("%s tile (%d, %d) cell (%d, %d) layer %d: no span at %d\n", mesh,
                                tx, tz, x, z, l, floor);
                }
            }
            if (ours != theirs && mismatches++ == 0) {
                print_error("%s tile (%d, %d) cell (%d, %d): %u walkable spans, Recast %u\n", mesh,
                            tx, tz, x, z, ours, theirs);
            }
            expected_cells += theirs;
        }
    }
    free(want);
    wf_geom_data_destroy(data);
    assert_int_equal(mismatches, 0);
    assert_int_equal(matched, expected_cells);
    assert_true(expected_cells > 0);
}

static void test_dungeon_tile_matches_recast(void** state) {
    check_level_tile(*state, "dungeon.obj", 3, 2);
}

static void test_nav_test_tiles_match_recast(void** state) {
    fixture* f = *state;
    check_level_tile(f, "nav_test.obj", 3, 2); // three floors
    wf_arena_reset(&f->arena);
    check_level_tile(f, "nav_test.obj", 2, 4);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_low_hanging_obstacle_becomes_walkable, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_ledge_field_edge_and_flat_interior, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ledge_step_within_climb_stays, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ledge_drop_beyond_climb, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ledge_hole_next_door, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ledge_steep_and_gentle_slopes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ledge_ignores_openings_too_low_to_enter, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_low_height_spans, setup, teardown),
        cmocka_unit_test_setup_teardown(test_column_filters_match_the_three_passes, setup,
                                        teardown),
        cmocka_unit_test(test_filters_ignore_null_fields),
        cmocka_unit_test_setup_teardown(test_compact_platform_with_step, setup, teardown),
        cmocka_unit_test_setup_teardown(test_compact_links_pick_the_right_level, setup, teardown),
        cmocka_unit_test_setup_teardown(test_compact_cell_limit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_compact_bad_input_and_full_arena, setup, teardown),
        cmocka_unit_test_setup_teardown(test_erode_platform, setup, teardown),
        cmocka_unit_test_setup_teardown(test_erode_around_a_pillar, setup, teardown),
        cmocka_unit_test_setup_teardown(test_erode_matches_the_plain_transform, setup, teardown),
        cmocka_unit_test_setup_teardown(test_erode_follows_links_not_columns, setup, teardown),
        cmocka_unit_test_setup_teardown(test_erode_bad_input_and_full_arena, setup, teardown),
        cmocka_unit_test_setup_teardown(test_convex_volume_paints_cells, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dungeon_tile_matches_recast, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nav_test_tiles_match_recast, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
