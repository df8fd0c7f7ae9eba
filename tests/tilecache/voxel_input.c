// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Voxel-world input: exact spans per heightfield column for hand-made cube
// worlds (a two-cube step, an overhang, cube sizes that are and are not
// multiples of the cell height, clipping to the heightfield) and bad input.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "test_heightfield.h"
#include "test_hooks.h"
#include "tilecache/heightfield.h"

/// solid[x + z * sx + y * sx * sz]
static size_t cube(uint32_t sx, uint32_t sz, uint32_t x, uint32_t y, uint32_t z) {
    return x + (size_t)z * sx + (size_t)y * sx * sz;
}

/// A row of four 1 m cube columns seen from the side (y up):
///
///     y3  . . # .      column 0: one cube        -> floor at 1 m
///     y2  . # . .      column 1: three cubes     -> a two-cube step up to 3 m
///     y1  . # . .      column 2: a cube with a roof cube at y3 (an overhang)
///     y0  # # # .      column 3: nothing
///
/// With 0.5 m cell height a cube is two steps; stacked cubes are one span;
/// each span's top takes the area of its highest cube.
static void test_step_and_overhang(void** state) {
    (void)state;
    enum { SX = 4, SY = 4, SZ = 1 };
    uint8_t solid[SX * SY * SZ] = {0};
    uint8_t areas[SX * SY * SZ] = {0};
    solid[cube(SX, SZ, 0, 0, 0)] = 1;
    areas[cube(SX, SZ, 0, 0, 0)] = 1;
    for (uint32_t y = 0; y < 3; ++y) {
        solid[cube(SX, SZ, 1, y, 0)] = 1;
        areas[cube(SX, SZ, 1, y, 0)] = 9; // hidden under the column's top
    }
    areas[cube(SX, SZ, 1, 2, 0)] = 2;
    solid[cube(SX, SZ, 2, 0, 0)] = 1;
    areas[cube(SX, SZ, 2, 0, 0)] = 3;
    solid[cube(SX, SZ, 2, 3, 0)] = 1;
    areas[cube(SX, SZ, 2, 3, 0)] = 4;
    areas[cube(SX, SZ, 3, 1, 0)] = 200; // an empty cube's area is never read
    wf_voxels world = {SX, SY, SZ, 1.0f, {0, 0, 0}, solid, areas, NULL, 0};

    const float bmin[3] = {0, 0, 0};
    const float bmax[3] = {4, 4, 1};
    hf_fixture f;
    hf_setup(&f, 4, 1, bmin, bmax, 1.0f, 0.5f, 64);
    assert_int_equal(wf_heightfield_fill_voxels(&f.hf, &world), WF_OK);
    assert_column(&f.hf, 0, 0, 1, 0, 2, 1);
    assert_column(&f.hf, 1, 0, 1, 0, 6, 2);
    assert_column(&f.hf, 2, 0, 2, 0, 2, 3, 6, 8, 4);
    assert_column(&f.hf, 3, 0, 0);
    assert_int_equal(f.hf.span_count, 4);
    hf_teardown(&f);

    // Without areas every top is area 0.
    world.areas = NULL;
    hf_setup(&f, 4, 1, bmin, bmax, 1.0f, 0.5f, 64);
    assert_int_equal(wf_heightfield_fill_voxels(&f.hf, &world), WF_OK);
    assert_column(&f.hf, 0, 0, 1, 0, 2, 0);
    assert_column(&f.hf, 1, 0, 1, 0, 6, 0);
    assert_column(&f.hf, 2, 0, 2, 0, 2, 0, 6, 8, 0);
    assert_column(&f.hf, 3, 0, 0);
    hf_teardown(&f);
}

/// Cube faces that should land on a step but miss it by float noise:
/// with ch 0.2f, 3 m is 14.9999998 steps and 4 m 19.9999997; they must
/// become steps 15 and 20, not 14 and 20.
static void test_faces_on_steps_despite_float_noise(void** state) {
    (void)state;
    uint8_t solid[4] = {1, 0, 0, 1}; // one column: cubes y0 and y3
    wf_voxels world = {1, 4, 1, 1.0f, {0, 0, 0}, solid, NULL, NULL, 0};
    const float bmin[3] = {0, 0, 0};
    const float bmax[3] = {1, 4, 1};
    hf_fixture f;
    hf_setup(&f, 1, 1, bmin, bmax, 1.0f, 0.2f, 64);
    assert_int_equal(wf_heightfield_fill_voxels(&f.hf, &world), WF_OK);
    assert_column(&f.hf, 0, 0, 2, 0, 5, 0, 15, 20, 0);
    hf_teardown(&f);
}

/// A cube size that is not a multiple of the cell height: bottoms round
/// down and tops up, so the spans cover the cubes. Cubes y0 and y2 with
/// ch 0.3: [0, 3.33) -> [0, 4) and [6.67, 10) -> [6, 10).
static void test_cubes_off_the_step_grid_are_covered(void** state) {
    (void)state;
    uint8_t solid[3] = {1, 0, 1};
    wf_voxels world = {1, 3, 1, 1.0f, {0, 0, 0}, solid, NULL, NULL, 0};
    const float bmin[3] = {0, 0, 0};
    const float bmax[3] = {1, 3, 1};
    hf_fixture f;
    hf_setup(&f, 1, 1, bmin, bmax, 1.0f, 0.3f, 64);
    assert_int_equal(wf_heightfield_fill_voxels(&f.hf, &world), WF_OK);
    assert_column(&f.hf, 0, 0, 2, 0, 4, 0, 6, 10, 0);
    hf_teardown(&f);
}

/// 2 m cubes under 1 m columns, the heightfield reaching 1 m past the world
/// on every side: column x has its centre at 9.5 + x, so x = 0 and x = 5
/// fall outside, x = 1, 2 in cube column 0 and x = 3, 4 in cube column 1.
static void test_columns_sample_the_cube_under_their_centre(void** state) {
    (void)state;
    enum { SX = 2, SY = 1, SZ = 2 };
    uint8_t solid[SX * SY * SZ] = {0};
    solid[cube(SX, SZ, 0, 0, 0)] = 1;
    solid[cube(SX, SZ, 1, 0, 1)] = 1;
    wf_voxels world = {SX, SY, SZ, 2.0f, {10, 0, 10}, solid, NULL, NULL, 0};
    const float bmin[3] = {9, 0, 9};
    const float bmax[3] = {15, 4, 15};
    hf_fixture f;
    hf_setup(&f, 6, 6, bmin, bmax, 1.0f, 0.5f, 64);
    assert_int_equal(wf_heightfield_fill_voxels(&f.hf, &world), WF_OK);
    for (int z = 0; z < 6; ++z) {
        for (int x = 0; x < 6; ++x) {
            int vx = (x == 0 || x == 5) ? -1 : (x - 1) / 2;
            int vz = (z == 0 || z == 5) ? -1 : (z - 1) / 2;
            if (vx >= 0 && vz >= 0 && vx == vz) {
                assert_column(&f.hf, x, z, 1, 0, 4, 0);
            } else {
                assert_column(&f.hf, x, z, 0);
            }
        }
    }
    assert_int_equal(f.hf.span_count, 8);
    hf_teardown(&f);
}

/// A heightfield covering y 2..4 m of 1 m cubes (ch 0.5, 4 steps):
///   column 0: cubes y0-2  -> clipped below: [0, 2)
///   column 1: cube y0     -> entirely below: nothing
///   column 2: cube y1     -> its top is exactly bmin: step 1, [0, 1)
///   column 3: cube y7     -> entirely above: nothing
///   column 4: cubes y3-7  -> [2, 12): tops past bmax are kept (clamped only
///                            to the span height limit, as rasterizing does)
static void test_clipping_to_the_heightfield(void** state) {
    (void)state;
    enum { SX = 5, SY = 8, SZ = 1 };
    uint8_t solid[SX * SY * SZ] = {0};
    for (uint32_t y = 0; y < 3; ++y) {
        solid[cube(SX, SZ, 0, y, 0)] = 1;
    }
    solid[cube(SX, SZ, 1, 0, 0)] = 1;
    solid[cube(SX, SZ, 2, 1, 0)] = 1;
    solid[cube(SX, SZ, 3, 7, 0)] = 1;
    for (uint32_t y = 3; y < 8; ++y) {
        solid[cube(SX, SZ, 4, y, 0)] = 1;
    }
    wf_voxels world = {SX, SY, SZ, 1.0f, {0, 0, 0}, solid, NULL, NULL, 0};
    const float bmin[3] = {0, 2, 0};
    const float bmax[3] = {5, 4, 1};
    hf_fixture f;
    hf_setup(&f, 5, 1, bmin, bmax, 1.0f, 0.5f, 64);
    assert_int_equal(wf_heightfield_fill_voxels(&f.hf, &world), WF_OK);
    assert_column(&f.hf, 0, 0, 1, 0, 2, 0);
    assert_column(&f.hf, 1, 0, 0);
    assert_column(&f.hf, 2, 0, 1, 0, 1, 0);
    assert_column(&f.hf, 3, 0, 0);
    assert_column(&f.hf, 4, 0, 1, 2, 12, 0);
    hf_teardown(&f);
}

/// 100 cubes of 1 m at 1 mm cell height reach 100000 steps: the span stops
/// at the 16-bit limit; a lone top cube keeps one step under it.
static void test_tall_worlds_clamp_to_the_span_limit(void** state) {
    (void)state;
    enum { SX = 2, SY = 100, SZ = 1 };
    uint8_t solid[SX * SY * SZ] = {0};
    for (uint32_t y = 0; y < SY; ++y) {
        solid[cube(SX, SZ, 0, y, 0)] = 1;
    }
    solid[cube(SX, SZ, 1, SY - 1, 0)] = 1;
    wf_voxels world = {SX, SY, SZ, 1.0f, {0, 0, 0}, solid, NULL, NULL, 0};
    const float bmin[3] = {0, 0, 0};
    const float bmax[3] = {2, 1000, 1};
    hf_fixture f;
    hf_setup(&f, 2, 1, bmin, bmax, 1.0f, 0.001f, 64);
    assert_int_equal(wf_heightfield_fill_voxels(&f.hf, &world), WF_OK);
    assert_column(&f.hf, 0, 0, 1, 0, 65535, 0);
    assert_column(&f.hf, 1, 0, 1, 65534, 65535, 0);
    hf_teardown(&f);
}

/// Spans already in the heightfield (say, from triangles) merge with the
/// cubes: a 0.5 m slab on top of a 1 m cube becomes one span whose top is
/// the slab's.
static void test_merges_with_existing_spans(void** state) {
    (void)state;
    uint8_t solid[1] = {1};
    uint8_t areas[1] = {5};
    wf_voxels world = {1, 1, 1, 1.0f, {0, 0, 0}, solid, areas, NULL, 0};
    const float bmin[3] = {0, 0, 0};
    const float bmax[3] = {1, 4, 1};
    hf_fixture f;
    hf_setup(&f, 1, 1, bmin, bmax, 1.0f, 0.5f, 64);
    assert_int_equal(wf_heightfield_add_span(&f.hf, 0, 0, 2, 3, 7, 0), WF_OK);
    assert_int_equal(wf_heightfield_fill_voxels(&f.hf, &world), WF_OK);
    assert_column(&f.hf, 0, 0, 1, 0, 3, 7);
    hf_teardown(&f);
}

static void test_full_span_pool(void** state) {
    (void)state;
    uint8_t solid[2] = {1, 1};
    wf_voxels world = {2, 1, 1, 1.0f, {0, 0, 0}, solid, NULL, NULL, 0};
    const float bmin[3] = {0, 0, 0};
    const float bmax[3] = {2, 1, 1};
    hf_fixture f;
    hf_setup(&f, 2, 1, bmin, bmax, 1.0f, 0.5f, 1);
    assert_int_equal(wf_heightfield_fill_voxels(&f.hf, &world), WF_ERR_CAPACITY);
    assert_int_equal(f.hf.span_count, 1);
    hf_teardown(&f);
}

/// Bad worlds are misuse and leave the heightfield as it was.
static void test_misuse(void** state) {
    (void)state;
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    // solid[x + y * 2]: column 0 has cube y0, column 1 cubes y0 and y1.
    uint8_t solid[4] = {1, 1, 0, 1};
    uint8_t areas[4] = {0, 0, 64, WF_AREA_NULL}; // 64 sits on the empty cube (0, 1)
    const wf_voxels good = {2, 2, 1, 1.0f, {0, 0, 0}, solid, areas, NULL, 0};
    const float bmin[3] = {0, 0, 0};
    const float bmax[3] = {2, 2, 1};
    hf_fixture f;
    hf_setup(&f, 2, 1, bmin, bmax, 1.0f, 0.5f, 64);

    wf_voxels v = good;
    assert_int_equal(wf_heightfield_fill_voxels(NULL, &v), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_heightfield_fill_voxels(&f.hf, NULL), WF_ERR_INVALID_ARG);
    v.solid = NULL;
    assert_int_equal(wf_heightfield_fill_voxels(&f.hf, &v), WF_ERR_INVALID_ARG);
    for (int axis = 0; axis < 3; ++axis) {
        v = good;
        *(axis == 0 ? &v.size_x : axis == 1 ? &v.size_y : &v.size_z) = 0;
        assert_int_equal(wf_heightfield_fill_voxels(&f.hf, &v), WF_ERR_INVALID_ARG);
    }
    v = good;
    v.size_x = v.size_y = v.size_z = UINT32_MAX; // 2^96 cubes
    assert_int_equal(wf_heightfield_fill_voxels(&f.hf, &v), WF_ERR_INVALID_ARG);
    static const float bad[] = {0.0f, -1.0f, NAN, INFINITY};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        v = good;
        v.cube_size = bad[i];
        assert_int_equal(wf_heightfield_fill_voxels(&f.hf, &v), WF_ERR_INVALID_ARG);
    }
    v = good;
    v.origin.z = NAN;
    assert_int_equal(wf_heightfield_fill_voxels(&f.hf, &v), WF_ERR_INVALID_ARG);
    v = good;
    v.origin.y = INFINITY;
    assert_int_equal(wf_heightfield_fill_voxels(&f.hf, &v), WF_ERR_INVALID_ARG);
    // Area 64 on a solid cube fails before any span is added.
    solid[2] = 1;
    v = good;
    assert_int_equal(wf_heightfield_fill_voxels(&f.hf, &v), WF_ERR_INVALID_ARG);
    assert_int_equal(f.hf.span_count, 0);
    solid[2] = 0;

    // The good world: column 1's top is unwalkable (WF_AREA_NULL is valid).
    assert_int_equal(wf_heightfield_fill_voxels(&f.hf, &good), WF_OK);
    assert_column(&f.hf, 0, 0, 1, 0, 2, 0);
    assert_column(&f.hf, 1, 0, 1, 0, 4, WF_AREA_NULL);
    hf_teardown(&f);
    wf_set_assert_hook(previous);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_step_and_overhang),
        cmocka_unit_test(test_faces_on_steps_despite_float_noise),
        cmocka_unit_test(test_cubes_off_the_step_grid_are_covered),
        cmocka_unit_test(test_columns_sample_the_cube_under_their_centre),
        cmocka_unit_test(test_clipping_to_the_heightfield),
        cmocka_unit_test(test_tall_worlds_clamp_to_the_span_limit),
        cmocka_unit_test(test_merges_with_existing_spans),
        cmocka_unit_test(test_full_span_pool),
        cmocka_unit_test(test_misuse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
