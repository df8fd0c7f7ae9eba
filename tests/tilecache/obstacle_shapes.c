// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Obstacle shapes on a hand-built 10 x 10 layer of 1 m cells: the exact
// cells each shape carves or paints (counted by hand from the cell
// centres), the agent radius widening, the vertical window, paint versus
// carve order, stamp bounds, and every invalid desc.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tilecache/obstacle_shapes.h"
#include "wayfarer/rng.h"

#define SIDE 10u
#define PI_F 3.14159265358979f

/// A layer of SIDE x SIDE cells of 1 m at y = 0, area 0, with cell (7, 2)
/// empty (no floor): cell (x, z) has its centre at (x + 0.5, z + 0.5).
typedef struct test_layer {
    wf_layer layer;
    uint8_t heights[SIDE * SIDE];
    uint8_t areas[SIDE * SIDE];
    uint8_t cons[SIDE * SIDE];
} test_layer;

#define EMPTY_X 7u
#define EMPTY_Z 2u

static void init_layer(test_layer* t) {
    memset(t, 0, sizeof *t);
    wf_layer* l = &t->layer;
    l->width = l->depth = SIDE;
    l->cs = 1.0f;
    l->ch = 0.25f;
    l->bmax[0] = l->bmax[2] = (float)SIDE;
    l->bmax[1] = 4.0f;
    l->heights = t->heights;
    l->areas = t->areas;
    l->cons = t->cons;
    t->heights[EMPTY_Z * SIDE + EMPTY_X] = WF_LAYER_EMPTY;
}

/// Rows z = 0..9 of a picture, x left to right: '.' untouched (area 0),
/// '#' carved, a digit painted with that area, 'o' the empty cell left as
/// it was, '_' a cell that was not walkable before and still is not.
static void check_cells(const wf_layer* l, const char* const rows[SIDE]) {
    bool ok = true;
    for (uint32_t z = 0; z < SIDE; ++z) {
        for (uint32_t x = 0; x < SIDE; ++x) {
            uint32_t i = z * SIDE + x;
            char c = rows[z][x];
            uint8_t a = l->areas[i];
            bool cell_ok;
            if (c == '.') {
                cell_ok = a == 0 && l->heights[i] != WF_LAYER_EMPTY;
            } else if (c == '#' || c == '_') {
                cell_ok = a == WF_AREA_NULL;
            } else if (c == 'o') {
                cell_ok = a == 0 && l->heights[i] == WF_LAYER_EMPTY;
            } else {
                cell_ok = a == (uint8_t)(c - '0');
            }
            ok &= cell_ok;
        }
    }
    if (!ok) {
        for (uint32_t z = 0; z < SIDE; ++z) {
            char got[SIDE + 1];
            for (uint32_t x = 0; x < SIDE; ++x) {
                uint8_t a = l->areas[z * SIDE + x];
                got[x] = a == WF_AREA_NULL ? '#' : a == 0 ? '.' : (char)('0' + a % 10);
            }
            got[SIDE] = '\0';
            print_message("z=%u want %s got %s\n", z, rows[z], got);
        }
    }
    assert_true(ok);
}

static wf_obstacle_desc cylinder(float x, float y, float z, float r, float h) {
    wf_obstacle_desc d;
    memset(&d, 0, sizeof d);
    d.shape = WF_OBSTACLE_CYLINDER;
    d.position = wf_v3(x, y, z);
    d.radius = r;
    d.height = h;
    return d;
}

static wf_obstacle_desc box(wf_obstacle_shape shape, wf_vec3 centre, wf_vec3 half, float yaw) {
    wf_obstacle_desc d;
    memset(&d, 0, sizeof d);
    d.shape = shape;
    d.position = centre;
    d.half_extents = half;
    d.yaw = yaw;
    return d;
}

static wf_obstacle_desc prism(const float* xz, uint32_t n, float y, float h) {
    wf_obstacle_desc d;
    memset(&d, 0, sizeof d);
    d.shape = WF_OBSTACLE_PRISM;
    d.position = wf_v3(0.0f, y, 0.0f);
    d.height = h;
    d.vert_count = n;
    for (uint32_t i = 0; i < n; ++i) {
        d.verts[i] = wf_v3(xz[2 * i], 0.0f, xz[2 * i + 1]);
    }
    return d;
}

/// Checks the desc, stamps it alone into a fresh layer.
static void stamp_alone(test_layer* t, const wf_obstacle_desc* d, float agent_radius, float climb) {
    init_layer(t);
    assert_int_equal(wf_obstacle_desc_check(d), WF_OK);
    wf_obstacle_stamp s;
    wf_obstacle_make_stamp(d, agent_radius, climb, &s);
    wf_obstacle_stamp_layer(&t->layer, &s, 1);
}

static void test_cylinder(void** state) {
    (void)state;
    test_layer t;
    // Radius 1.2 at a cell centre: the centre cell and its 4 side
    // neighbours (distance 1); the diagonals are sqrt(2) away.
    wf_obstacle_desc d = cylinder(4.5f, 0.0f, 4.5f, 1.2f, 2.0f);
    stamp_alone(&t, &d, 0.0f, 0.0f);
    const char* plus[SIDE] = {"..........", "..........", ".......o..", "....#.....", "...###....",
                              "....#.....", "..........", "..........", "..........", ".........."};
    check_cells(&t.layer, plus);
    // Agent radius 0.5: radius 1.7 takes the diagonals (1.41), not the
    // cells 2 away.
    stamp_alone(&t, &d, 0.5f, 0.0f);
    const char* square[SIDE] = {"..........", "..........", ".......o..", "...###....",
                                "...###....", "...###....", "..........", "..........",
                                "..........", ".........."};
    check_cells(&t.layer, square);
}

static void test_axis_box(void** state) {
    (void)state;
    test_layer t;
    // |dx| <= 1.2 from x = 2.5: centres 1.5..3.5; |dz| <= 0.4: row 6 only.
    wf_obstacle_desc d =
        box(WF_OBSTACLE_BOX, wf_v3(2.5f, 0.5f, 6.5f), wf_v3(1.2f, 1.0f, 0.4f), 0.0f);
    stamp_alone(&t, &d, 0.0f, 0.0f);
    const char* thin[SIDE] = {"..........", "..........", ".......o..", "..........", "..........",
                              "..........", ".###......", "..........", "..........", ".........."};
    check_cells(&t.layer, thin);
    // Radius 0.7: 1.9 along x (still 3 columns), 1.1 along z (3 rows).
    stamp_alone(&t, &d, 0.7f, 0.0f);
    const char* wide[SIDE] = {"..........", "..........", ".......o..", "..........", "..........",
                              ".###......", ".###......", ".###......", "..........", ".........."};
    check_cells(&t.layer, wide);
}

static void test_oriented_box(void** state) {
    (void)state;
    test_layer t;
    wf_vec3 c = wf_v3(4.5f, 0.0f, 4.5f);
    // Half 1.5, unturned: offsets -1..1 each way, a 3 x 3 square.
    wf_obstacle_desc d = box(WF_OBSTACLE_ORIENTED_BOX, c, wf_v3(1.5f, 1.0f, 1.5f), 0.0f);
    stamp_alone(&t, &d, 0.0f, 0.0f);
    const char* square[SIDE] = {"..........", "..........", ".......o..", "...###....",
                                "...###....", "...###....", "..........", "..........",
                                "..........", ".........."};
    check_cells(&t.layer, square);
    // Turned 45 degrees: |dx| + |dz| <= 1.5 * sqrt(2) = 2.12, a diamond of 13.
    d.yaw = PI_F / 4.0f;
    stamp_alone(&t, &d, 0.0f, 0.0f);
    const char* diamond[SIDE] = {"..........", "..........", "....#..o..", "...###....",
                                 "..#####...", "...###....", "....#.....", "..........",
                                 "..........", ".........."};
    check_cells(&t.layer, diamond);
    // A long thin box shows the direction: yaw turns +X toward -Z, so at
    // +45 degrees its long axis runs along (1, -1) ...
    d.half_extents = wf_v3(2.5f, 1.0f, 0.3f);
    stamp_alone(&t, &d, 0.0f, 0.0f);
    const char* anti[SIDE] = {"..........", "..........", ".......o..", ".....#....", "....#.....",
                              "...#......", "..........", "..........", "..........", ".........."};
    check_cells(&t.layer, anti);
    // ... and at -45 degrees along (1, 1).
    d.yaw = -PI_F / 4.0f;
    stamp_alone(&t, &d, 0.0f, 0.0f);
    const char* diag[SIDE] = {"..........", "..........", ".......o..", "...#......", "....#.....",
                              ".....#....", "..........", "..........", "..........", ".........."};
    check_cells(&t.layer, diag);
    // A quarter turn lays a 2.2 x 0.3 box along z: 5 cells of column 4.
    d.half_extents = wf_v3(2.2f, 1.0f, 0.3f);
    d.yaw = PI_F / 2.0f;
    stamp_alone(&t, &d, 0.0f, 0.0f);
    const char* column[SIDE] = {"..........", "..........", "....#..o..", "....#.....",
                                "....#.....", "....#.....", "....#.....", "..........",
                                "..........", ".........."};
    check_cells(&t.layer, column);
}

static void test_prism_triangle(void** state) {
    (void)state;
    test_layer t;
    // Legs on x = 1.8 and z = 1.8, hypotenuse x + z = 9.2: centres with
    // x, z >= 2 and x + z <= 8 (5 + 4 + 3 + 2 + 1 = 15 cells).
    const float clockwise[] = {1.8f, 1.8f, 7.4f, 1.8f, 1.8f, 7.4f};
    const float counter[] = {1.8f, 1.8f, 1.8f, 7.4f, 7.4f, 1.8f};
    const char* tri[SIDE] = {"..........", "..........", "..#####o..", "..####....", "..###.....",
                             "..##......", "..#.......", "..........", "..........", ".........."};
    wf_obstacle_desc d = prism(clockwise, 3, 0.0f, 1.0f);
    assert_true(wf_v2_triangle_area2(d.verts[0], d.verts[1], d.verts[2]) < 0.0f);
    stamp_alone(&t, &d, 0.0f, 0.0f);
    check_cells(&t.layer, tri);
    d = prism(counter, 3, 0.0f, 1.0f);
    assert_true(wf_v2_triangle_area2(d.verts[0], d.verts[1], d.verts[2]) > 0.0f);
    stamp_alone(&t, &d, 0.0f, 0.0f);
    check_cells(&t.layer, tri);
    // Within 0.5 of it: one more column and row (centres 0.3 from the legs,
    // corners (1, 1), (7, 1), (1, 7) within 0.42 of a vertex); the cells
    // past the hypotenuse are 0.57 from it: x, z >= 1, x + z <= 8, 28 cells.
    stamp_alone(&t, &d, 0.5f, 0.0f);
    const char* wide[SIDE] = {"..........", ".#######..", ".######o..", ".#####....", ".####.....",
                              ".###......", ".##.......", ".#........", "..........", ".........."};
    check_cells(&t.layer, wide);
}

static void test_prism_16gon(void** state) {
    (void)state;
    // Circumradius 2.3 round (4.5, 4.5): inradius 2.3 cos(pi / 16) = 2.256,
    // so every centre within sqrt(5) = 2.236 is in and those sqrt(8) away
    // are out, whatever the turn: 5 x 5 less the corners, 21 cells.
    float xz[32];
    for (uint32_t k = 0; k < 16; ++k) {
        float a = 2.0f * PI_F * (float)k / 16.0f + 0.1f;
        xz[2 * k] = 4.5f + 2.3f * cosf(a);
        xz[2 * k + 1] = 4.5f + 2.3f * sinf(a);
    }
    test_layer t;
    wf_obstacle_desc d = prism(xz, 16, -0.5f, 1.0f);
    stamp_alone(&t, &d, 0.0f, 0.0f);
    const char* disc[SIDE] = {"..........", "..........", "...###.o..", "..#####...", "..#####...",
                              "..#####...", "...###....", "..........", "..........", ".........."};
    check_cells(&t.layer, disc);
}

static void test_paint_and_carve_order(void** state) {
    (void)state;
    test_layer t;
    wf_obstacle_desc paint =
        box(WF_OBSTACLE_BOX, wf_v3(2.5f, 0.0f, 2.5f), wf_v3(1.2f, 1.0f, 1.2f), 0.0f);
    paint.paint = true;
    paint.area = 5;
    wf_obstacle_desc carve = cylinder(3.5f, -0.5f, 3.5f, 0.6f, 1.0f);
    wf_obstacle_stamp s[3];
    wf_obstacle_make_stamp(&paint, 0.0f, 0.0f, &s[0]);
    wf_obstacle_make_stamp(&carve, 0.0f, 0.0f, &s[1]);
    const char* both[SIDE] = {"..........", ".555......", ".555...o..", ".55#......", "..........",
                              "..........", "..........", "..........", "..........", ".........."};
    // Carve wins whichever comes first.
    init_layer(&t);
    wf_obstacle_stamp_layer(&t.layer, s, 2);
    check_cells(&t.layer, both);
    wf_obstacle_stamp swapped[2] = {s[1], s[0]};
    init_layer(&t);
    wf_obstacle_stamp_layer(&t.layer, swapped, 2);
    check_cells(&t.layer, both);
    // A later paint over an earlier one wins; cells that were never
    // walkable stay so under paint.
    wf_obstacle_desc mud =
        box(WF_OBSTACLE_BOX, wf_v3(3.5f, 0.0f, 1.5f), wf_v3(1.2f, 1.0f, 0.4f), 0.0f);
    mud.paint = true;
    mud.area = 9;
    wf_obstacle_make_stamp(&mud, 0.0f, 0.0f, &s[2]);
    init_layer(&t);
    t.areas[1 * SIDE + 4] = WF_AREA_NULL;
    wf_obstacle_stamp_layer(&t.layer, s, 3);
    const char* layered[SIDE] = {"..........", ".599_.....", ".555...o..", ".55#......",
                                 "..........", "..........", "..........", "..........",
                                 "..........", ".........."};
    check_cells(&t.layer, layered);
}

static void test_vertical_range(void** state) {
    (void)state;
    test_layer t;
    // Floors: hmin 4 at ch 0.25 puts h = 0 at y = 1; columns 5..9 stand at
    // h = 4, y = 2. Climb 0.5.
    const float climb = 0.5f;
    wf_obstacle_desc d = cylinder(5.0f, 1.6f, 5.0f, 20.0f, 1.0f);
    const char* high[SIDE] = {".....#####", ".....#####", ".....##o##", ".....#####", ".....#####",
                              ".....#####", ".....#####", ".....#####", ".....#####", ".....#####"};
    const char* low[SIDE] = {"#####.....", "#####.....", "#####..o..", "#####.....", "#####.....",
                             "#####.....", "#####.....", "#####.....", "#####.....", "#####....."};
    const char* all[SIDE] = {"##########", "##########", "#######o##", "##########", "##########",
                             "##########", "##########", "##########", "##########", "##########"};
    const char* none[SIDE] = {"..........", "..........", ".......o..", "..........", "..........",
                              "..........", "..........", "..........", "..........", ".........."};
    struct {
        wf_obstacle_desc desc;
        const char* const* want;
    } cases[6];
    // Base 0.6 above the low floor (more than the climb), 0.4 below the
    // high one: only the high floor is under it.
    cases[0].desc = d;
    cases[0].want = high;
    // Base 0.4 above the low floor: within a step, both count.
    cases[1].desc = d;
    cases[1].desc.position.y = 1.4f;
    cases[1].want = all;
    // 0.6 above the high floor: nothing.
    cases[2].desc = d;
    cases[2].desc.position.y = 2.6f;
    cases[2].want = none;
    // Entirely below the floors, then reaching up to 1.2: the low floor.
    cases[3].desc = d;
    cases[3].desc.position.y = -1.0f;
    cases[3].desc.height = 1.5f;
    cases[3].want = none;
    cases[4].desc = cases[3].desc;
    cases[4].desc.height = 2.2f;
    cases[4].want = low;
    // A box from y 0.6 to 1.4 (+ climb down to 0.1): the low floor.
    cases[5].desc = box(WF_OBSTACLE_BOX, wf_v3(5.0f, 1.0f, 5.0f), wf_v3(6.0f, 0.4f, 6.0f), 0.0f);
    cases[5].want = low;
    for (uint32_t k = 0; k < 6; ++k) {
        init_layer(&t);
        t.layer.hmin = 4;
        t.layer.hmax = 8;
        for (uint32_t i = 0; i < SIDE * SIDE; ++i) {
            if (t.heights[i] != WF_LAYER_EMPTY && i % SIDE >= 5) {
                t.heights[i] = 4;
            }
        }
        assert_int_equal(wf_obstacle_desc_check(&cases[k].desc), WF_OK);
        wf_obstacle_stamp s;
        wf_obstacle_make_stamp(&cases[k].desc, 0.0f, climb, &s);
        wf_obstacle_stamp_layer(&t.layer, &s, 1);
        check_cells(&t.layer, cases[k].want);
    }
}

static void test_empty_cells_untouched(void** state) {
    (void)state;
    test_layer t;
    // Painting round the empty cell (7, 2): its neighbours change, it does
    // not (no floor to paint), nor does a cell that was never walkable.
    wf_obstacle_desc d = cylinder(7.5f, 0.0f, 2.5f, 1.2f, 1.0f);
    d.paint = true;
    d.area = 7;
    init_layer(&t);
    t.areas[2 * SIDE + 8] = WF_AREA_NULL;
    wf_obstacle_stamp s;
    wf_obstacle_make_stamp(&d, 0.0f, 0.0f, &s);
    wf_obstacle_stamp_layer(&t.layer, &s, 1);
    const char* ring[SIDE] = {"..........", ".......7..", "......7o_.", ".......7..", "..........",
                              "..........", "..........", "..........", "..........", ".........."};
    check_cells(&t.layer, ring);
    assert_int_equal(t.heights[2 * SIDE + 7], WF_LAYER_EMPTY);
    // Heights are never written.
    for (uint32_t i = 0; i < SIDE * SIDE; ++i) {
        assert_int_equal(t.heights[i], i == 2 * SIDE + 7 ? WF_LAYER_EMPTY : 0);
    }
}

/// The layer of tile (1, 1): cells from (10, 0, 10) on.
static void init_tile_1_1(test_layer* t) {
    init_layer(t);
    t->layer.tile_x = t->layer.tile_z = 1;
    t->layer.bmin[0] = t->layer.bmin[2] = 10.0f;
    t->layer.bmax[0] = t->layer.bmax[2] = 20.0f;
}

static void test_layer_edges(void** state) {
    (void)state;
    test_layer t;
    // The layer of tile (1, 1) starting at (10, 0, 10): world coordinates.
    wf_obstacle_desc d = cylinder(10.5f, 0.0f, 10.5f, 1.2f, 1.0f);
    wf_obstacle_stamp s;
    const char* corner[SIDE] = {"##........", "#.........", ".......o..", "..........",
                                "..........", "..........", "..........", "..........",
                                "..........", ".........."};
    init_tile_1_1(&t);
    wf_obstacle_make_stamp(&d, 0.0f, 0.0f, &s);
    wf_obstacle_stamp_layer(&t.layer, &s, 1);
    check_cells(&t.layer, corner);
    // Centred in the neighbouring tile: (10.5, 10.5) is sqrt(2) away, out
    // for radius 1.2, in for 1.5.
    const char* none[SIDE] = {"..........", "..........", ".......o..", "..........", "..........",
                              "..........", "..........", "..........", "..........", ".........."};
    const char* one[SIDE] = {"#.........", "..........", ".......o..", "..........", "..........",
                             "..........", "..........", "..........", "..........", ".........."};
    d.position = wf_v3(9.5f, 0.0f, 9.5f);
    init_tile_1_1(&t);
    wf_obstacle_make_stamp(&d, 0.0f, 0.0f, &s);
    wf_obstacle_stamp_layer(&t.layer, &s, 1);
    check_cells(&t.layer, none);
    d.radius = 1.5f;
    init_tile_1_1(&t);
    wf_obstacle_make_stamp(&d, 0.0f, 0.0f, &s);
    wf_obstacle_stamp_layer(&t.layer, &s, 1);
    check_cells(&t.layer, one);
    // Far away and huge: no out-of-range cell index either way.
    init_layer(&t);
    wf_obstacle_desc far = cylinder(-3e30f, 0.0f, 3e30f, 1.0f, 1.0f);
    wf_obstacle_make_stamp(&far, 0.0f, 0.0f, &s);
    wf_obstacle_stamp_layer(&t.layer, &s, 1);
    check_cells(&t.layer, none);
    wf_obstacle_desc huge =
        box(WF_OBSTACLE_BOX, wf_v3(0.0f, 0.0f, 0.0f), wf_v3(1e30f, 1.0f, 1e30f), 0.0f);
    wf_obstacle_make_stamp(&huge, 0.0f, 0.0f, &s);
    wf_obstacle_stamp_layer(&t.layer, &s, 1);
    const char* all[SIDE] = {"##########", "##########", "#######o##", "##########", "##########",
                             "##########", "##########", "##########", "##########", "##########"};
    check_cells(&t.layer, all);
    // No stamps: nothing.
    init_layer(&t);
    wf_obstacle_stamp_layer(&t.layer, NULL, 0);
    check_cells(&t.layer, none);
}

static void test_stamp_bounds(void** state) {
    (void)state;
    wf_obstacle_stamp s;
    // Cylinder: radius + agent radius on XZ, base - climb .. base + height.
    wf_obstacle_desc c = cylinder(1.0f, 2.0f, 3.0f, 0.5f, 2.0f);
    wf_obstacle_make_stamp(&c, 0.25f, 0.5f, &s);
    assert_int_equal(s.shape, WF_OBSTACLE_CYLINDER);
    assert_int_equal(s.paint, 0);
    assert_true(s.bmin[0] == 0.25f && s.bmin[1] == 1.5f && s.bmin[2] == 2.25f);
    assert_true(s.bmax[0] == 1.75f && s.bmax[1] == 4.0f && s.bmax[2] == 3.75f);
    assert_true(s.radius == 0.75f && s.cx == 1.0f && s.cz == 3.0f);
    // Box: centre +- half (+ agent radius on XZ).
    wf_obstacle_desc b =
        box(WF_OBSTACLE_BOX, wf_v3(1.0f, 2.0f, 3.0f), wf_v3(1.0f, 0.5f, 2.0f), 0.0f);
    b.paint = true;
    b.area = 12;
    wf_obstacle_make_stamp(&b, 0.25f, 0.5f, &s);
    assert_int_equal(s.paint, 1);
    assert_int_equal(s.area, 12);
    assert_true(s.bmin[0] == -0.25f && s.bmin[1] == 1.0f && s.bmin[2] == 0.75f);
    assert_true(s.bmax[0] == 2.25f && s.bmax[1] == 2.5f && s.bmax[2] == 5.25f);
    assert_true(s.hx == 1.25f && s.hz == 2.25f);
    // Oriented a quarter turn: the 2 x 4 footprint becomes 4 x 2.
    b.shape = WF_OBSTACLE_ORIENTED_BOX;
    b.yaw = PI_F / 2.0f;
    wf_obstacle_make_stamp(&b, 0.0f, 0.0f, &s);
    assert_float_equal(s.bmin[0], -1.0f, 1e-5f);
    assert_float_equal(s.bmax[0], 3.0f, 1e-5f);
    assert_float_equal(s.bmin[2], 2.0f, 1e-5f);
    assert_float_equal(s.bmax[2], 4.0f, 1e-5f);
    assert_true(s.bmin[1] == 1.5f && s.bmax[1] == 2.5f);
    // At 45 degrees a unit square reaches sqrt(2) along both axes.
    b.half_extents = wf_v3(1.0f, 0.5f, 1.0f);
    b.yaw = PI_F / 4.0f;
    wf_obstacle_make_stamp(&b, 0.0f, 0.0f, &s);
    assert_float_equal(s.bmax[0] - s.bmin[0], 2.0f * sqrtf(2.0f), 1e-5f);
    assert_float_equal(s.bmax[2] - s.bmin[2], 2.0f * sqrtf(2.0f), 1e-5f);
    // Prism: outline bounds + agent radius, base - climb .. base + height,
    // stored counter-clockwise (a clockwise outline is reversed).
    const float cw[] = {3.0f, 0.0f, 3.0f, 2.0f, 0.0f, 2.0f, 0.0f, 0.0f};
    wf_obstacle_desc p = prism(cw, 4, 1.0f, 2.0f);
    assert_true(wf_v2_triangle_area2(p.verts[0], p.verts[1], p.verts[2]) < 0.0f);
    wf_obstacle_make_stamp(&p, 0.5f, 0.25f, &s);
    assert_int_equal(s.vert_count, 4);
    assert_true(s.expand == 0.5f);
    assert_true(s.bmin[0] == -0.5f && s.bmin[1] == 0.75f && s.bmin[2] == -0.5f);
    assert_true(s.bmax[0] == 3.5f && s.bmax[1] == 3.0f && s.bmax[2] == 2.5f);
    const float ccw[] = {0.0f, 0.0f, 0.0f, 2.0f, 3.0f, 2.0f, 3.0f, 0.0f};
    for (uint32_t i = 0; i < 8; ++i) {
        assert_true(s.verts[i] == ccw[i]);
    }
    wf_vec3 v[3];
    for (uint32_t i = 0; i < 3; ++i) {
        v[i] = wf_v3(s.verts[2 * i], 0.0f, s.verts[2 * i + 1]);
    }
    assert_true(wf_v2_triangle_area2(v[0], v[1], v[2]) > 0.0f);
    // Given counter-clockwise, it is kept as it is. The outline is in world
    // coordinates: only position.y (the base) is used.
    p = prism(ccw, 4, 1.0f, 2.0f);
    p.position.x = 100.0f;
    p.position.z = -100.0f;
    wf_obstacle_make_stamp(&p, 0.0f, 0.0f, &s);
    for (uint32_t i = 0; i < 8; ++i) {
        assert_true(s.verts[i] == ccw[i]);
    }
    assert_true(s.bmin[0] == 0.0f && s.bmax[0] == 3.0f && s.bmin[2] == 0.0f && s.bmax[2] == 2.0f);
    assert_true(s.bmin[1] == 1.0f && s.bmax[1] == 3.0f);
}

/// Reference in double: distance from p to the outline (0 inside), by
/// brute force over every edge; the winding need not be known.
static double outline_distance(const wf_obstacle_desc* d, double px, double pz) {
    uint32_t n = d->vert_count;
    int sign = 0;
    bool inside = true;
    double best = INFINITY;
    for (uint32_t i = 0, j = n - 1; i < n; j = i++) {
        double ax = d->verts[j].x, az = d->verts[j].z, bx = d->verts[i].x, bz = d->verts[i].z;
        double cross = (bx - ax) * (pz - az) - (bz - az) * (px - ax);
        int s = cross > 0.0 ? 1 : cross < 0.0 ? -1 : 0;
        if (s != 0) {
            inside &= sign == 0 || s == sign;
            sign = sign == 0 ? s : sign;
        }
        double dx = bx - ax, dz = bz - az;
        double t = ((px - ax) * dx + (pz - az) * dz) / (dx * dx + dz * dz);
        t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
        double ex = ax + t * dx - px, ez = az + t * dz - pz;
        double dist = sqrt(ex * ex + ez * ez);
        best = dist < best ? dist : best;
    }
    return inside ? 0.0 : best;
}

static void test_prism_matches_reference(void** state) {
    (void)state;
    // Random convex outlines (points on a circle at sorted random angles,
    // either winding), random agent radius and cell size: every cell
    // whose centre is clearly in or out agrees with the brute-force
    // distance in double precision.
    wf_rng rng = wf_rng_make(0x0b57ac1e, 7);
    uint32_t checked = 0, marked = 0;
    for (uint32_t round = 0; round < 400; ++round) {
        test_layer t;
        init_layer(&t);
        float cs = wf_rng_range(&rng, 0.2f, 1.0f);
        t.layer.cs = cs;
        t.layer.bmin[0] = wf_rng_range(&rng, -50.0f, 50.0f);
        t.layer.bmin[2] = wf_rng_range(&rng, -50.0f, 50.0f);
        float cx = t.layer.bmin[0] + wf_rng_range(&rng, -2.0f, 12.0f) * cs;
        float cz = t.layer.bmin[2] + wf_rng_range(&rng, -2.0f, 12.0f) * cs;
        float radius = wf_rng_range(&rng, 0.3f, 6.0f) * cs;
        uint32_t n = 3 + wf_rng_below(&rng, WF_OBSTACLE_MAX_VERTS - 2);
        float angles[WF_OBSTACLE_MAX_VERTS];
        for (uint32_t k = 0; k < n; ++k) {
            angles[k] = wf_rng_range(&rng, 0.0f, 2.0f * PI_F);
        }
        for (uint32_t k = 1; k < n; ++k) { // insertion sort
            for (uint32_t m = k; m > 0 && angles[m - 1] > angles[m]; --m) {
                float a = angles[m];
                angles[m] = angles[m - 1];
                angles[m - 1] = a;
            }
        }
        bool reverse = wf_rng_below(&rng, 2) == 1;
        float xz[2 * WF_OBSTACLE_MAX_VERTS];
        for (uint32_t k = 0; k < n; ++k) {
            float a = angles[reverse ? n - 1 - k : k];
            xz[2 * k] = cx + radius * cosf(a);
            xz[2 * k + 1] = cz + radius * sinf(a);
        }
        wf_obstacle_desc d = prism(xz, n, -0.5f, 1.0f);
        if (wf_obstacle_desc_check(&d) != WF_OK) {
            continue; // two angles too close: degenerate, rightly refused
        }
        float expand = wf_rng_below(&rng, 3) == 0 ? 0.0f : wf_rng_range(&rng, 0.0f, 2.0f) * cs;
        wf_obstacle_stamp s;
        wf_obstacle_make_stamp(&d, expand, 0.0f, &s);
        wf_obstacle_stamp_layer(&t.layer, &s, 1);
        for (uint32_t z = 0; z < SIDE; ++z) {
            for (uint32_t x = 0; x < SIDE; ++x) {
                uint32_t i = z * SIDE + x;
                if (t.heights[i] == WF_LAYER_EMPTY) {
                    continue;
                }
                double px = (double)t.layer.bmin[0] + ((double)x + 0.5) * cs;
                double pz = (double)t.layer.bmin[2] + ((double)z + 0.5) * cs;
                double dist = outline_distance(&d, px, pz);
                double margin = 1e-3 * cs;
                if (expand == 0.0f && dist == 0.0) {
                    // Inside: clear unless near an edge line.
                    double edge = INFINITY;
                    for (uint32_t k = 0, j = n - 1; k < n; j = k++) {
                        double ax = d.verts[j].x, az = d.verts[j].z;
                        double dx = d.verts[k].x - ax, dz = d.verts[k].z - az;
                        double c = fabs(dx * (pz - az) - dz * (px - ax)) / sqrt(dx * dx + dz * dz);
                        edge = c < edge ? c : edge;
                    }
                    if (edge < margin) {
                        continue;
                    }
                } else if (fabs(dist - (double)expand) < margin) {
                    continue;
                }
                bool want = dist <= (double)expand;
                assert_int_equal(t.areas[i] == WF_AREA_NULL, want);
                checked++;
                marked += want;
            }
        }
    }
    // The rounds did test something on both sides.
    assert_true(checked > 20000 && marked > 5000 && checked - marked > 5000);
}

static void expect_invalid(const wf_obstacle_desc* d) {
    assert_int_equal(wf_obstacle_desc_check(d), WF_ERR_INVALID_ARG);
}

static void test_bad_descs(void** state) {
    (void)state;
    const float nan = NAN, inf = INFINITY;
    assert_int_equal(wf_obstacle_desc_check(NULL), WF_ERR_INVALID_ARG);
    wf_obstacle_desc good = cylinder(1.0f, 0.0f, 1.0f, 0.5f, 1.0f);
    assert_int_equal(wf_obstacle_desc_check(&good), WF_OK);
    wf_obstacle_desc d = good;
    d.shape = (wf_obstacle_shape)4;
    expect_invalid(&d);
    d.shape = (wf_obstacle_shape)-1;
    expect_invalid(&d);
    for (uint32_t k = 0; k < 3; ++k) {
        d = good;
        float* coordinate = k == 0 ? &d.position.x : k == 1 ? &d.position.y : &d.position.z;
        *coordinate = nan;
        expect_invalid(&d);
        *coordinate = -inf;
        expect_invalid(&d);
    }
    const float bad_sizes[] = {0.0f, -1.0f, nan, inf, -0.0f};
    for (uint32_t k = 0; k < 5; ++k) {
        d = good;
        d.radius = bad_sizes[k];
        expect_invalid(&d);
        d = good;
        d.height = bad_sizes[k];
        expect_invalid(&d);
    }
    // Area: 0..63 when painting; a carve ignores it.
    d = good;
    d.paint = true;
    d.area = 63;
    assert_int_equal(wf_obstacle_desc_check(&d), WF_OK);
    d.area = 64;
    expect_invalid(&d);
    d.area = WF_AREA_NULL;
    expect_invalid(&d);
    d.paint = false;
    assert_int_equal(wf_obstacle_desc_check(&d), WF_OK);
    // Boxes: every half extent finite and positive; the oriented one's yaw
    // finite (the axis box ignores yaw).
    for (int shape = WF_OBSTACLE_BOX; shape <= WF_OBSTACLE_ORIENTED_BOX; ++shape) {
        wf_obstacle_desc b =
            box((wf_obstacle_shape)shape, wf_v3(1.0f, 0.0f, 1.0f), wf_v3(1.0f, 1.0f, 1.0f), 0.3f);
        assert_int_equal(wf_obstacle_desc_check(&b), WF_OK);
        for (uint32_t k = 0; k < 5; ++k) {
            for (uint32_t axis = 0; axis < 3; ++axis) {
                d = b;
                float* h = axis == 0   ? &d.half_extents.x
                           : axis == 1 ? &d.half_extents.y
                                       : &d.half_extents.z;
                *h = bad_sizes[k];
                expect_invalid(&d);
            }
        }
        d = b;
        d.yaw = nan;
        if (shape == WF_OBSTACLE_ORIENTED_BOX) {
            expect_invalid(&d);
            d.yaw = inf;
            expect_invalid(&d);
        } else {
            assert_int_equal(wf_obstacle_desc_check(&d), WF_OK);
        }
    }
}

static void test_bad_prisms(void** state) {
    (void)state;
    const float square[] = {0.0f, 0.0f, 0.0f, 1.0f, 1.0f, 1.0f, 1.0f, 0.0f};
    wf_obstacle_desc good = prism(square, 4, 0.0f, 1.0f);
    assert_int_equal(wf_obstacle_desc_check(&good), WF_OK);
    wf_obstacle_desc d = good;
    d.height = 0.0f;
    expect_invalid(&d);
    d.height = NAN;
    expect_invalid(&d);
    d = good;
    d.verts[2].x = NAN;
    expect_invalid(&d);
    d = good;
    d.verts[1].z = INFINITY;
    expect_invalid(&d);
    // Outline y is ignored.
    d = good;
    d.verts[1].y = 100.0f;
    assert_int_equal(wf_obstacle_desc_check(&d), WF_OK);
    // Too few or too many points.
    for (uint32_t n = 0; n < 3; ++n) {
        d = good;
        d.vert_count = n;
        expect_invalid(&d);
    }
    d = good;
    d.vert_count = WF_OBSTACLE_MAX_VERTS + 1u;
    expect_invalid(&d);
    // Three points on a line, and a square with a point on an edge.
    const float line[] = {0.0f, 0.0f, 1.0f, 1.0f, 2.0f, 2.0f};
    d = prism(line, 3, 0.0f, 1.0f);
    expect_invalid(&d);
    const float midpoint[] = {0.0f, 0.0f, 0.0f, 1.0f, 0.5f, 1.0f, 1.0f, 1.0f, 1.0f, 0.0f};
    d = prism(midpoint, 5, 0.0f, 1.0f);
    expect_invalid(&d);
    // A repeated point.
    const float repeated[] = {0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 1.0f, 1.0f, 1.0f, 1.0f, 0.0f};
    d = prism(repeated, 5, 0.0f, 1.0f);
    expect_invalid(&d);
    // Concave: an arrow head, in both windings.
    const float arrow[] = {0.0f, 0.0f, 1.0f, 0.5f, 2.0f, 0.0f, 1.0f, 2.0f};
    const float arrow_rev[] = {1.0f, 2.0f, 2.0f, 0.0f, 1.0f, 0.5f, 0.0f, 0.0f};
    d = prism(arrow, 4, 0.0f, 1.0f);
    expect_invalid(&d);
    d = prism(arrow_rev, 4, 0.0f, 1.0f);
    expect_invalid(&d);
    // Self-intersecting: a bow tie, and a pentagram (every turn the same way).
    const float bowtie[] = {0.0f, 0.0f, 1.0f, 1.0f, 1.0f, 0.0f, 0.0f, 1.0f};
    d = prism(bowtie, 4, 0.0f, 1.0f);
    expect_invalid(&d);
    float star[10];
    for (uint32_t k = 0; k < 5; ++k) {
        float a = 2.0f * PI_F * (float)(2u * k % 5u) / 5.0f;
        star[2 * k] = cosf(a);
        star[2 * k + 1] = sinf(a);
    }
    d = prism(star, 5, 0.0f, 1.0f);
    expect_invalid(&d);
    // The most points a prism takes: a 32-gon is fine.
    float ring[2 * WF_OBSTACLE_MAX_VERTS];
    for (uint32_t k = 0; k < WF_OBSTACLE_MAX_VERTS; ++k) {
        float a = 2.0f * PI_F * (float)k / (float)WF_OBSTACLE_MAX_VERTS;
        ring[2 * k] = 5.0f * cosf(a);
        ring[2 * k + 1] = 5.0f * sinf(a);
    }
    d = prism(ring, WF_OBSTACLE_MAX_VERTS, 0.0f, 1.0f);
    assert_int_equal(wf_obstacle_desc_check(&d), WF_OK);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cylinder),
        cmocka_unit_test(test_axis_box),
        cmocka_unit_test(test_oriented_box),
        cmocka_unit_test(test_prism_triangle),
        cmocka_unit_test(test_prism_16gon),
        cmocka_unit_test(test_prism_matches_reference),
        cmocka_unit_test(test_paint_and_carve_order),
        cmocka_unit_test(test_vertical_range),
        cmocka_unit_test(test_empty_cells_untouched),
        cmocka_unit_test(test_layer_edges),
        cmocka_unit_test(test_stamp_bounds),
        cmocka_unit_test(test_bad_descs),
        cmocka_unit_test(test_bad_prisms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
