// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
/*
 * Inline 3D vector math used across the API. Plain float arithmetic with no
 * fused multiply-add (the library builds with -ffp-contract=off) so results
 * match bit for bit on every platform. Y is up; "2d" helpers work on the XZ
 * plane, which is the ground plane for navigation.
 * Pure functions: callable from any thread.
 */
#ifndef WAYFARER_VEC3_H
#define WAYFARER_VEC3_H

#include <math.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A point or direction in metres (or metres per second).
typedef struct wf_vec3 {
    float x, y, z;
} wf_vec3;

static inline wf_vec3 wf_v3(float x, float y, float z) {
    wf_vec3 r = {x, y, z};
    return r;
}
static inline wf_vec3 wf_v3_add(wf_vec3 a, wf_vec3 b) {
    return wf_v3(a.x + b.x, a.y + b.y, a.z + b.z);
}
static inline wf_vec3 wf_v3_sub(wf_vec3 a, wf_vec3 b) {
    return wf_v3(a.x - b.x, a.y - b.y, a.z - b.z);
}
static inline wf_vec3 wf_v3_scale(wf_vec3 a, float s) { return wf_v3(a.x * s, a.y * s, a.z * s); }
/// a + b * s, the usual "move along direction" step.
static inline wf_vec3 wf_v3_mad(wf_vec3 a, wf_vec3 b, float s) {
    return wf_v3(a.x + b.x * s, a.y + b.y * s, a.z + b.z * s);
}
static inline float wf_v3_dot(wf_vec3 a, wf_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline wf_vec3 wf_v3_cross(wf_vec3 a, wf_vec3 b) {
    return wf_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline float wf_v3_length_sq(wf_vec3 a) { return wf_v3_dot(a, a); }
static inline float wf_v3_length(wf_vec3 a) { return sqrtf(wf_v3_length_sq(a)); }
static inline float wf_v3_distance(wf_vec3 a, wf_vec3 b) { return wf_v3_length(wf_v3_sub(a, b)); }
static inline float wf_v3_distance_sq(wf_vec3 a, wf_vec3 b) {
    return wf_v3_length_sq(wf_v3_sub(a, b));
}
/// Unit vector along a; the zero vector stays zero instead of becoming NaN.
static inline wf_vec3 wf_v3_normalize(wf_vec3 a) {
    float len = wf_v3_length(a);
    return len > 0.0f ? wf_v3_scale(a, 1.0f / len) : a;
}
/// a + (b - a) * t
static inline wf_vec3 wf_v3_lerp(wf_vec3 a, wf_vec3 b, float t) {
    return wf_v3(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t);
}
static inline wf_vec3 wf_v3_min(wf_vec3 a, wf_vec3 b) {
    return wf_v3(a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y, a.z < b.z ? a.z : b.z);
}
static inline wf_vec3 wf_v3_max(wf_vec3 a, wf_vec3 b) {
    return wf_v3(a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y, a.z > b.z ? a.z : b.z);
}
/// False for NaN or infinite components: check user input with it.
static inline bool wf_v3_is_finite(wf_vec3 a) {
    return isfinite(a.x) && isfinite(a.y) && isfinite(a.z);
}
static inline bool wf_v3_equal(wf_vec3 a, wf_vec3 b) {
    return a.x == b.x && a.y == b.y && a.z == b.z;
}

/// Ground-plane (XZ) helpers.
static inline float wf_v2_dot(wf_vec3 a, wf_vec3 b) { return a.x * b.x + a.z * b.z; }
/// Z component of the 2D cross product on XZ; > 0 when b is counter-clockwise
/// of a seen from above (+Y), with X right and Z down the page.
static inline float wf_v2_perp(wf_vec3 a, wf_vec3 b) { return a.z * b.x - a.x * b.z; }
static inline float wf_v2_length_sq(wf_vec3 a) { return a.x * a.x + a.z * a.z; }
static inline float wf_v2_length(wf_vec3 a) { return sqrtf(wf_v2_length_sq(a)); }
static inline float wf_v2_distance_sq(wf_vec3 a, wf_vec3 b) {
    return wf_v2_length_sq(wf_v3_sub(a, b));
}
static inline float wf_v2_distance(wf_vec3 a, wf_vec3 b) { return sqrtf(wf_v2_distance_sq(a, b)); }
/// Twice the signed area of triangle abc on XZ (same sign rule as wf_v2_perp).
static inline float wf_v2_triangle_area2(wf_vec3 a, wf_vec3 b, wf_vec3 c) {
    return wf_v2_perp(wf_v3_sub(b, a), wf_v3_sub(c, a));
}

#ifdef __cplusplus
}
#endif

#endif // WAYFARER_VEC3_H
