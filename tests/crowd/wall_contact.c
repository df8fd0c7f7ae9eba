// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Wall contact (crowd/wall_contact.h): which walls hold a body in the
// collision passes, its wall line, and the share of a push its walls take.
// The end margin at concave corners (press21) and its refusal at convex
// ones (a door's jamb) are tested here directly, on hand-made segments.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "crowd/crowd_tuning.h"
#include "crowd/wall_contact.h"

/// The room's south wall z = 0 (walkable side +z), from x = 2 to the
/// corner at the origin.
static const wf_vec3 SOUTH_A = {2.0f, 0.0f, 0.0f};
static const wf_vec3 SOUTH_B = {0.0f, 0.0f, 0.0f};

/// A notch: the south wall and the west wall x = 0 (walkable side +x) meet
/// at the origin in a concave corner.
static void notch(wf_vec3 walls[4]) {
    walls[0] = SOUTH_A;
    walls[1] = SOUTH_B;
    walls[2] = wf_v3(0.0f, 0.0f, 0.0f);
    walls[3] = wf_v3(0.0f, 0.0f, 2.0f);
}

/// A jamb: the south wall turns away at the origin down x = 0 (walkable
/// side -x), a convex corner; the floor goes on round it.
static void jamb(wf_vec3 walls[4]) {
    walls[0] = SOUTH_A;
    walls[1] = SOUTH_B;
    walls[2] = wf_v3(0.0f, 0.0f, 0.0f);
    walls[3] = wf_v3(0.0f, 0.0f, -2.0f);
}

static bool holds(const wf_vec3* walls, uint32_t count, uint32_t k, wf_vec3 p) {
    float len, nx, nz;
    assert_true(wf_wall_contact_normal(walls[2u * k], walls[2u * k + 1u], &len, &nx, &nz));
    return wf_wall_contact_holds(walls, count, k, p, len, nx, nz);
}

static void test_normal_points_inwards(void** state) {
    (void)state;
    float len = -1.0f, nx = -1.0f, nz = -1.0f;
    assert_true(wf_wall_contact_normal(SOUTH_A, SOUTH_B, &len, &nx, &nz));
    assert_float_equal(len, 2.0f, 1e-6f);
    assert_float_equal(nx, 0.0f, 1e-6f);
    assert_float_equal(nz, 1.0f, 1e-6f);
    // No length: false, outputs untouched.
    len = nx = nz = -1.0f;
    assert_false(wf_wall_contact_normal(SOUTH_B, SOUTH_B, &len, &nx, &nz));
    assert_true(len == -1.0f && nx == -1.0f && nz == -1.0f);
}

static void test_foot_on_segment_holds(void** state) {
    (void)state;
    wf_vec3 walls[4];
    notch(walls);
    assert_true(holds(walls, 2, 0, wf_v3(1.0f, 0.0f, 0.5f)));
    assert_true(holds(walls, 2, 0, wf_v3(2.0f, 0.0f, 0.1f)));  // at the far end exactly
    assert_true(holds(walls, 2, 0, wf_v3(1.0f, 0.0f, -0.1f))); // past the line, foot on it
    // Past the far end (x = 2) where no wall meets it.
    assert_false(holds(walls, 2, 0, wf_v3(2.01f, 0.0f, 0.1f)));
}

static void test_concave_corner_holds_past_the_end(void** state) {
    (void)state;
    wf_vec3 walls[4];
    notch(walls);
    const float margin = WF_CROWD_WALL_END_MARGIN;
    // A body pressed a hair past the corner's vertex: both walls hold it.
    wf_vec3 p = wf_v3(-0.5f * margin, 0.0f, -0.5f * margin);
    assert_true(holds(walls, 2, 0, p));
    assert_true(holds(walls, 2, 1, p));
    // Further past than the margin: neither.
    wf_vec3 far = wf_v3(-2.0f * margin, 0.0f, 0.01f);
    assert_false(holds(walls, 2, 0, far));
    // Without the other wall the same point is past a lone end.
    assert_false(holds(walls, 1, 0, p));
}

static void test_convex_corner_does_not_hold(void** state) {
    (void)state;
    wf_vec3 walls[4];
    jamb(walls);
    // Past the south wall's end round the jamb: its line bounds nothing.
    assert_false(holds(walls, 2, 0, wf_v3(-0.5f * WF_CROWD_WALL_END_MARGIN, 0.0f, 0.01f)));
}

static void test_wall_in_line_holds(void** state) {
    (void)state;
    wf_vec3 walls[4] = {SOUTH_A, SOUTH_B, SOUTH_B, {-2.0f, 0.0f, 0.0f}};
    assert_true(holds(walls, 2, 0, wf_v3(-0.5f * WF_CROWD_WALL_END_MARGIN, 0.0f, 0.01f)));
}

static void test_nearest_line(void** state) {
    (void)state;
    wf_vec3 walls[4];
    notch(walls);
    // 0.1 m in from the south wall, far from the west one.
    wf_vec3 p = wf_v3(1.0f, 0.0f, 0.1f);
    wf_vec3 line = wf_wall_contact_nearest_line(walls, 2, p);
    assert_float_equal(line.x, 0.0f, 1e-6f);
    assert_float_equal(line.z, 1.0f, 1e-6f);
    assert_float_equal(wf_wall_contact_room(line, p), 0.1f, 1e-6f);
    assert_float_equal(wf_wall_contact_room(line, wf_v3(5.0f, 0.0f, -0.2f)), -0.2f, 1e-6f);
    // Nearer the west wall: its line.
    line = wf_wall_contact_nearest_line(walls, 2, wf_v3(0.05f, 0.0f, 0.2f));
    assert_float_equal(line.x, 1.0f, 1e-6f);
    // Past the corner's vertex, within the margin: a line still holds it
    // (press21: before, neither wall did and the body had none).
    p = wf_v3(-0.02f, 0.0f, -0.02f);
    line = wf_wall_contact_nearest_line(walls, 2, p);
    assert_true(isfinite(line.y));
    assert_float_equal(wf_wall_contact_room(line, p), -0.02f, 1e-6f);
    // Beyond WF_CROWD_WALL_LINE_REACH of every wall: no line, infinite room.
    p = wf_v3(1.0f, 0.0f, WF_CROWD_WALL_LINE_REACH + 0.1f);
    line = wf_wall_contact_nearest_line(walls, 2, p);
    assert_true(line.x == 0.0f && line.z == 0.0f && line.y == -INFINITY);
    assert_true(wf_wall_contact_room(line, p) == INFINITY);
    // No walls at all.
    line = wf_wall_contact_nearest_line(walls, 0, p);
    assert_true(line.y == -INFINITY);
}

static void test_blocked_share(void** state) {
    (void)state;
    wf_vec3 walls[4];
    notch(walls);
    // Pinned against the south wall (within WF_CROWD_WALL_PINNED).
    wf_vec3 p = wf_v3(1.0f, 0.0f, 0.5f * WF_CROWD_WALL_PINNED);
    assert_float_equal(wf_wall_contact_blocked_share(walls, 2, p, 0.0f, -1.0f), 1.0f, 1e-6f);
    // A slanted push: the square of its part into the wall.
    assert_float_equal(wf_wall_contact_blocked_share(walls, 2, p, -0.6f, -0.8f), 0.64f, 1e-5f);
    // Along or away from the wall: all of it can be given.
    assert_float_equal(wf_wall_contact_blocked_share(walls, 2, p, 1.0f, 0.0f), 0.0f, 1e-6f);
    assert_float_equal(wf_wall_contact_blocked_share(walls, 2, p, 0.0f, 1.0f), 0.0f, 1e-6f);
    // Not pinned: nothing blocked.
    wf_vec3 free_p = wf_v3(1.0f, 0.0f, 0.1f);
    assert_float_equal(wf_wall_contact_blocked_share(walls, 2, free_p, 0.0f, -1.0f), 0.0f, 1e-6f);
    // In the right-angled corner, a push between both walls is all blocked.
    wf_vec3 corner = wf_v3(0.005f, 0.0f, 0.005f);
    assert_float_equal(wf_wall_contact_blocked_share(walls, 2, corner, -0.6f, -0.8f), 1.0f, 1e-5f);
    assert_float_equal(wf_wall_contact_blocked_share(walls, 2, corner, -0.8f, -0.6f), 1.0f, 1e-5f);
    // Past the vertex within the margin, the concave corner still blocks.
    wf_vec3 past = wf_v3(-0.01f, 0.0f, -0.01f);
    assert_float_equal(wf_wall_contact_blocked_share(walls, 2, past, -0.6f, -0.8f), 1.0f, 1e-5f);
    // A 45-degree corner (the south wall and one from the origin along
    // x = z): a push along its bisector into the vertex is mostly blocked,
    // not all (two rounds of taking out each wall's part leave 0.11).
    wf_vec3 wedge[4] = {SOUTH_A, SOUTH_B, SOUTH_B, {1.4f, 0.0f, 1.4f}};
    wf_vec3 in_wedge = wf_v3(0.03f, 0.0f, 0.005f);
    float bisector = wf_wall_contact_blocked_share(wedge, 2, in_wedge, -0.92388f, -0.38268f);
    assert_true(bisector > 0.85f && bisector < 1.0f);
    // Round a jamb, the south wall's line does not pin a body past its end.
    jamb(walls);
    wf_vec3 round = wf_v3(-0.01f, 0.0f, 0.005f);
    assert_float_equal(wf_wall_contact_blocked_share(walls, 2, round, 0.0f, -1.0f), 0.0f, 1e-6f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_normal_points_inwards),
        cmocka_unit_test(test_foot_on_segment_holds),
        cmocka_unit_test(test_concave_corner_holds_past_the_end),
        cmocka_unit_test(test_convex_corner_does_not_hold),
        cmocka_unit_test(test_wall_in_line_holds),
        cmocka_unit_test(test_nearest_line),
        cmocka_unit_test(test_blocked_share),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
