// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// A tiny level as triangles for the tile cache (header only): a floor of
// size x size metres, optionally with a wall across it (a 6 m gap in the
// middle) and two pillars, as in tests/runtime/world.c. With the Recast
// demo params (14.4 m tiles) a 36 m level is 3 x 3 tiles.
#ifndef WF_TESTS_TEST_LEVEL_H
#define WF_TESTS_TEST_LEVEL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "wayfarer/tilecache.h"

typedef struct test_level {
    float verts[4 * 3 * 5 * 16]; // 4 corners of 5 quads of up to 16 boxes
    uint32_t tris[2 * 3 * 5 * 16];
    uint32_t vert_count, tri_count;
} test_level;

static inline void test_level_quad(test_level* l, const float* a, const float* b, const float* c,
                                   const float* d) {
    uint32_t v = l->vert_count;
    const float* p[4] = {a, b, c, d};
    for (int k = 0; k < 4; ++k) {
        memcpy(&l->verts[3 * (v + (uint32_t)k)], p[k], 3 * sizeof(float));
    }
    l->vert_count += 4;
    uint32_t t[6] = {v, v + 1, v + 2, v, v + 2, v + 3};
    memcpy(&l->tris[3 * l->tri_count], t, sizeof t);
    l->tri_count += 2;
}

/// A box from (x0, 0, z0) to (x1, h, z1): its top and four sides.
static inline void test_level_box(test_level* l, float x0, float z0, float x1, float z1, float h) {
    const float a[3] = {x0, h, z0}, b[3] = {x0, h, z1}, c[3] = {x1, h, z1}, d[3] = {x1, h, z0};
    const float a0[3] = {x0, 0, z0}, b0[3] = {x0, 0, z1}, c0[3] = {x1, 0, z1}, d0[3] = {x1, 0, z0};
    test_level_quad(l, a, b, c, d);
    test_level_quad(l, a0, a, d, d0);
    test_level_quad(l, b0, c0, c, b);
    test_level_quad(l, a0, b0, b, a);
    test_level_quad(l, d0, d, c, c0);
}

/// The floor (and with `walls`, the wall and pillars of world.c's level
/// scaled to `size`). The view points into l.
static inline wf_geom test_level_make(test_level* l, float size, bool walls) {
    memset(l, 0, sizeof *l);
    const float a[3] = {0, 0, 0}, b[3] = {0, 0, size}, c[3] = {size, 0, size}, d[3] = {size, 0, 0};
    test_level_quad(l, a, b, c, d);
    if (walls) {
        float u = size / 36.0f;
        test_level_box(l, 17.5f * u, 0.0f, 18.5f * u, 15.0f * u, 3.0f); // wall, gap z 15..21
        test_level_box(l, 17.5f * u, 21.0f * u, 18.5f * u, size, 3.0f);
        test_level_box(l, 6.0f * u, 6.0f * u, 8.0f * u, 8.0f * u, 3.0f); // pillars
        test_level_box(l, 27.0f * u, 27.0f * u, 29.0f * u, 29.0f * u, 3.0f);
    }
    wf_geom g = {
        .verts = l->verts, .vert_count = l->vert_count, .tris = l->tris, .tri_count = l->tri_count};
    return g;
}

/// True when (x, z) of a 36 m walled level (scaled to size) is off the
/// wall and pillars, with a margin.
static inline bool test_level_open(float size, float x, float z) {
    float u = size / 36.0f;
    x /= u;
    z /= u;
    bool in_wall = x > 16.5f && x < 19.5f && (z < 16.0f || z > 20.0f);
    bool in_pillar = (x > 5.0f && x < 9.0f && z > 5.0f && z < 9.0f) ||
                     (x > 26.0f && x < 30.0f && z > 26.0f && z < 30.0f);
    return !in_wall && !in_pillar;
}

#endif
