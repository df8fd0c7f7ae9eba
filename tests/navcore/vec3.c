// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Inline vector math in wayfarer/vec3.h: arithmetic, handedness, NaN-free
// normalize, finiteness checks and the XZ ground-plane sign conventions.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "wayfarer/vec3.h"

static void assert_near(float actual, float expected, float tolerance) {
    if (!(fabsf(actual - expected) <= tolerance)) {
        fail_msg("%.9g is not within %g of %.9g", (double)actual, (double)tolerance,
                 (double)expected);
    }
}

static void assert_vec_equal(wf_vec3 actual, float x, float y, float z) {
    if (!wf_v3_equal(actual, wf_v3(x, y, z))) {
        fail_msg("(%.9g, %.9g, %.9g) != (%.9g, %.9g, %.9g)", (double)actual.x, (double)actual.y,
                 (double)actual.z, (double)x, (double)y, (double)z);
    }
}

static void test_construct_and_equal(void** state) {
    (void)state;
    wf_vec3 v = wf_v3(1.0f, -2.0f, 3.5f);
    assert_true(v.x == 1.0f && v.y == -2.0f && v.z == 3.5f);
    assert_true(wf_v3_equal(v, wf_v3(1.0f, -2.0f, 3.5f)));
    assert_false(wf_v3_equal(v, wf_v3(1.0f, -2.0f, 3.0f)));
    assert_false(wf_v3_equal(v, wf_v3(1.0f, 2.0f, 3.5f)));
    assert_false(wf_v3_equal(v, wf_v3(0.0f, -2.0f, 3.5f)));
    // Component-wise ==: NaN never equals itself.
    wf_vec3 n = wf_v3(NAN, 0.0f, 0.0f);
    assert_false(wf_v3_equal(n, n));
}

static void test_add_sub_scale_mad(void** state) {
    (void)state;
    wf_vec3 a = wf_v3(1.0f, 2.0f, 3.0f);
    wf_vec3 b = wf_v3(4.0f, -5.0f, 0.5f);
    assert_vec_equal(wf_v3_add(a, b), 5.0f, -3.0f, 3.5f);
    assert_vec_equal(wf_v3_sub(a, b), -3.0f, 7.0f, 2.5f);
    assert_vec_equal(wf_v3_sub(b, a), 3.0f, -7.0f, -2.5f);
    assert_vec_equal(wf_v3_scale(a, 2.0f), 2.0f, 4.0f, 6.0f);
    assert_vec_equal(wf_v3_scale(a, -0.5f), -0.5f, -1.0f, -1.5f);
    assert_vec_equal(wf_v3_scale(a, 0.0f), 0.0f, 0.0f, 0.0f);
    // mad = a + b * s
    assert_vec_equal(wf_v3_mad(a, b, 2.0f), 9.0f, -8.0f, 4.0f);
    assert_vec_equal(wf_v3_mad(a, b, 0.0f), 1.0f, 2.0f, 3.0f);
    assert_vec_equal(wf_v3_mad(a, b, -1.0f), -3.0f, 7.0f, 2.5f);
}

static void test_dot(void** state) {
    (void)state;
    wf_vec3 a = wf_v3(1.0f, 2.0f, 3.0f);
    wf_vec3 b = wf_v3(4.0f, -5.0f, 6.0f);
    assert_true(wf_v3_dot(a, b) == 12.0f); // 4 - 10 + 18
    assert_true(wf_v3_dot(b, a) == 12.0f);
    assert_true(wf_v3_dot(wf_v3(1, 0, 0), wf_v3(0, 1, 0)) == 0.0f);
    assert_true(wf_v3_dot(a, a) == 14.0f);
    assert_true(wf_v3_length_sq(a) == 14.0f);
}

static void test_cross_is_right_handed(void** state) {
    (void)state;
    wf_vec3 x = wf_v3(1, 0, 0), y = wf_v3(0, 1, 0), z = wf_v3(0, 0, 1);
    assert_vec_equal(wf_v3_cross(x, y), 0, 0, 1);
    assert_vec_equal(wf_v3_cross(y, z), 1, 0, 0);
    assert_vec_equal(wf_v3_cross(z, x), 0, 1, 0);
    assert_vec_equal(wf_v3_cross(y, x), 0, 0, -1);
    assert_vec_equal(wf_v3_cross(x, x), 0, 0, 0);

    wf_vec3 a = wf_v3(1.0f, 2.0f, 3.0f);
    wf_vec3 b = wf_v3(4.0f, -5.0f, 6.0f);
    wf_vec3 c = wf_v3_cross(a, b);
    assert_vec_equal(c, 27.0f, 6.0f, -13.0f);
    // Perpendicular to both inputs.
    assert_true(wf_v3_dot(c, a) == 0.0f);
    assert_true(wf_v3_dot(c, b) == 0.0f);
    // Anti-commutative.
    assert_vec_equal(wf_v3_cross(b, a), -27.0f, -6.0f, 13.0f);
}

static void test_length_and_distance(void** state) {
    (void)state;
    assert_true(wf_v3_length(wf_v3(3.0f, 4.0f, 0.0f)) == 5.0f);
    assert_true(wf_v3_length(wf_v3(2.0f, 3.0f, 6.0f)) == 7.0f);
    assert_true(wf_v3_length(wf_v3(0.0f, -9.0f, 0.0f)) == 9.0f);
    assert_true(wf_v3_length(wf_v3(0.0f, 0.0f, 0.0f)) == 0.0f);
    wf_vec3 a = wf_v3(1.0f, 1.0f, 1.0f), b = wf_v3(4.0f, 5.0f, 1.0f);
    assert_true(wf_v3_distance(a, b) == 5.0f);
    assert_true(wf_v3_distance(b, a) == 5.0f);
    assert_true(wf_v3_distance_sq(a, b) == 25.0f);
    assert_true(wf_v3_distance(a, a) == 0.0f);
}

static void test_normalize(void** state) {
    (void)state;
    wf_vec3 n = wf_v3_normalize(wf_v3(3.0f, 0.0f, -4.0f));
    assert_near(n.x, 0.6f, 1e-6f);
    assert_true(n.y == 0.0f);
    assert_near(n.z, -0.8f, 1e-6f);
    assert_near(wf_v3_length(n), 1.0f, 1e-6f);

    wf_vec3 big = wf_v3_normalize(wf_v3(1e6f, 2e6f, -3e6f));
    assert_near(wf_v3_length(big), 1.0f, 1e-6f);
    wf_vec3 small = wf_v3_normalize(wf_v3(1e-10f, 0.0f, 0.0f));
    assert_near(small.x, 1.0f, 1e-6f);

    wf_vec3 unit = wf_v3_normalize(wf_v3(0.0f, 0.0f, 1.0f));
    assert_vec_equal(unit, 0.0f, 0.0f, 1.0f);

    // The zero vector stays zero instead of becoming NaN.
    wf_vec3 zero = wf_v3_normalize(wf_v3(0.0f, 0.0f, 0.0f));
    assert_vec_equal(zero, 0.0f, 0.0f, 0.0f);
    assert_true(wf_v3_is_finite(zero));
}

static void test_lerp(void** state) {
    (void)state;
    wf_vec3 a = wf_v3(1.0f, -2.0f, 10.0f);
    wf_vec3 b = wf_v3(5.0f, 6.0f, -10.0f);
    assert_vec_equal(wf_v3_lerp(a, b, 0.0f), 1.0f, -2.0f, 10.0f);
    assert_vec_equal(wf_v3_lerp(a, b, 1.0f), 5.0f, 6.0f, -10.0f);
    assert_vec_equal(wf_v3_lerp(a, b, 0.5f), 3.0f, 2.0f, 0.0f);
    assert_vec_equal(wf_v3_lerp(a, b, 0.25f), 2.0f, 0.0f, 5.0f);
    // Extrapolates outside [0, 1].
    assert_vec_equal(wf_v3_lerp(a, b, 2.0f), 9.0f, 14.0f, -30.0f);
    assert_vec_equal(wf_v3_lerp(a, b, -1.0f), -3.0f, -10.0f, 30.0f);
}

static void test_min_max(void** state) {
    (void)state;
    wf_vec3 a = wf_v3(1.0f, 5.0f, -3.0f);
    wf_vec3 b = wf_v3(2.0f, -5.0f, -3.5f);
    assert_vec_equal(wf_v3_min(a, b), 1.0f, -5.0f, -3.5f);
    assert_vec_equal(wf_v3_max(a, b), 2.0f, 5.0f, -3.0f);
    assert_vec_equal(wf_v3_min(b, a), 1.0f, -5.0f, -3.5f);
    assert_vec_equal(wf_v3_max(b, a), 2.0f, 5.0f, -3.0f);
    assert_vec_equal(wf_v3_min(a, a), 1.0f, 5.0f, -3.0f);
}

static void test_is_finite(void** state) {
    (void)state;
    assert_true(wf_v3_is_finite(wf_v3(0.0f, -1e30f, 3.0e38f)));
    assert_true(wf_v3_is_finite(wf_v3(1e-45f, -0.0f, 0.0f)));
    assert_false(wf_v3_is_finite(wf_v3(NAN, 0.0f, 0.0f)));
    assert_false(wf_v3_is_finite(wf_v3(0.0f, NAN, 0.0f)));
    assert_false(wf_v3_is_finite(wf_v3(0.0f, 0.0f, NAN)));
    assert_false(wf_v3_is_finite(wf_v3(INFINITY, 0.0f, 0.0f)));
    assert_false(wf_v3_is_finite(wf_v3(0.0f, -INFINITY, 0.0f)));
    assert_false(wf_v3_is_finite(wf_v3(0.0f, 0.0f, INFINITY)));
    // Overflow in arithmetic is caught too.
    wf_vec3 huge = wf_v3(3.0e38f, 0.0f, 0.0f);
    assert_false(wf_v3_is_finite(wf_v3_scale(huge, 10.0f)));
}

static void test_2d_dot_and_length_ignore_y(void** state) {
    (void)state;
    wf_vec3 a = wf_v3(3.0f, 100.0f, 4.0f);
    wf_vec3 b = wf_v3(2.0f, -7.0f, -1.0f);
    assert_true(wf_v2_dot(a, b) == 2.0f); // 6 - 4, y ignored
    assert_true(wf_v2_length_sq(a) == 25.0f);
    assert_true(wf_v2_length(a) == 5.0f);
    assert_true(wf_v2_distance_sq(a, wf_v3(0.0f, -50.0f, 0.0f)) == 25.0f);
    assert_true(wf_v2_distance(a, wf_v3(0.0f, -50.0f, 0.0f)) == 5.0f);
}

static void test_2d_perp_sign(void** state) {
    (void)state;
    // Seen from above (+Y) with X to the right, Z points down the page
    // (right-handed, Y towards the viewer). Turning from +X towards -Z (up
    // the page) is counter-clockwise, so perp > 0; towards +Z is clockwise.
    wf_vec3 x = wf_v3(1.0f, 0.0f, 0.0f);
    wf_vec3 up_page = wf_v3(0.0f, 0.0f, -1.0f);
    wf_vec3 down_page = wf_v3(0.0f, 0.0f, 1.0f);
    assert_true(wf_v2_perp(x, up_page) == 1.0f);
    assert_true(wf_v2_perp(x, down_page) == -1.0f);
    assert_true(wf_v2_perp(up_page, x) == -1.0f);
    assert_true(wf_v2_perp(x, x) == 0.0f);
    assert_true(wf_v2_perp(x, wf_v3(-3.0f, 0.0f, 0.0f)) == 0.0f);
    // Y does not matter.
    assert_true(wf_v2_perp(wf_v3(1.0f, 9.0f, 0.0f), wf_v3(0.0f, -9.0f, -1.0f)) == 1.0f);
    // It is the Y component of the 3D cross product (the ground normal).
    wf_vec3 a = wf_v3(2.0f, 0.0f, 3.0f), b = wf_v3(-1.0f, 0.0f, 5.0f);
    assert_true(wf_v2_perp(a, b) == wf_v3_cross(a, b).y);
    assert_true(wf_v2_perp(a, b) == -13.0f);
    assert_true(wf_v2_perp(b, a) == 13.0f);
}

static void test_2d_triangle_area(void** state) {
    (void)state;
    wf_vec3 a = wf_v3(0.0f, 0.0f, 0.0f);
    wf_vec3 b = wf_v3(4.0f, 1.0f, 0.0f);
    wf_vec3 c = wf_v3(0.0f, 2.0f, -3.0f);
    // a -> b (+X) -> c (-Z, up the page): counter-clockwise from above.
    assert_true(wf_v2_triangle_area2(a, b, c) == 12.0f);
    assert_true(wf_v2_triangle_area2(a, c, b) == -12.0f);
    // Cyclic rotations keep the sign.
    assert_true(wf_v2_triangle_area2(b, c, a) == 12.0f);
    assert_true(wf_v2_triangle_area2(c, a, b) == 12.0f);
    // Degenerate (collinear on XZ, different Y) has zero area.
    assert_true(wf_v2_triangle_area2(a, b, wf_v3(8.0f, 5.0f, 0.0f)) == 0.0f);
    // Same sign rule as perp.
    assert_true(wf_v2_triangle_area2(a, b, c) > 0.0f);
    assert_true(wf_v2_perp(wf_v3_sub(b, a), wf_v3_sub(c, a)) > 0.0f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_construct_and_equal),
        cmocka_unit_test(test_add_sub_scale_mad),
        cmocka_unit_test(test_dot),
        cmocka_unit_test(test_cross_is_right_handed),
        cmocka_unit_test(test_length_and_distance),
        cmocka_unit_test(test_normalize),
        cmocka_unit_test(test_lerp),
        cmocka_unit_test(test_min_max),
        cmocka_unit_test(test_is_finite),
        cmocka_unit_test(test_2d_dot_and_length_ignore_y),
        cmocka_unit_test(test_2d_perp_sign),
        cmocka_unit_test(test_2d_triangle_area),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
