// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Hand-built triangle scenes for the tile cache tests: horizontal quads,
// boxes and a bumpy procedural level, with parameters whose sizes are exact
// in binary (so tile and cell edges fall where the tests expect them).
#ifndef WF_TESTS_TILECACHE_TEST_SCENE_H
#define WF_TESTS_TILECACHE_TEST_SCENE_H

#include <stdlib.h>
#include <string.h>

#include "wayfarer/rng.h"
#include "wayfarer/tilecache.h"

#define SCENE_MAX_VERTS 8192u
#define SCENE_MAX_TRIS 8192u

typedef struct test_scene {
    float verts[3 * SCENE_MAX_VERTS];
    uint32_t tris[3 * SCENE_MAX_TRIS];
    uint8_t areas[SCENE_MAX_TRIS];
    uint32_t vert_count, tri_count;
} test_scene;

static inline test_scene* scene_new(void) { return calloc(1, sizeof(test_scene)); }

static inline uint32_t scene_vert(test_scene* s, float x, float y, float z) {
    float* v = &s->verts[3u * s->vert_count];
    v[0] = x;
    v[1] = y;
    v[2] = z;
    return s->vert_count++;
}

static inline void scene_tri(test_scene* s, uint32_t a, uint32_t b, uint32_t c, uint8_t area) {
    uint32_t* t = &s->tris[3u * s->tri_count];
    t[0] = a;
    t[1] = b;
    t[2] = c;
    s->areas[s->tri_count++] = area;
}

/// Quad a-b-c-d as two triangles, a -> b along +z, b -> c along +x: the
/// winding that is counter-clockwise seen from above for a floor.
static inline void scene_quad4(test_scene* s, uint32_t a, uint32_t b, uint32_t c, uint32_t d,
                               uint8_t area) {
    scene_tri(s, a, b, c, area);
    scene_tri(s, a, c, d, area);
}

/// A horizontal rectangle [x0, x1] x [z0, z1] at height y.
static inline void scene_floor(test_scene* s, float x0, float z0, float x1, float z1, float y) {
    uint32_t a = scene_vert(s, x0, y, z0), b = scene_vert(s, x0, y, z1);
    uint32_t c = scene_vert(s, x1, y, z1), d = scene_vert(s, x1, y, z0);
    scene_quad4(s, a, b, c, d, 0);
}

/// A closed box: top face and four walls (walls are too steep to walk).
static inline void scene_box(test_scene* s, float x0, float y0, float z0, float x1, float y1,
                             float z1) {
    scene_floor(s, x0, z0, x1, z1, y1);
    uint32_t b[4] = {scene_vert(s, x0, y0, z0), scene_vert(s, x0, y0, z1),
                     scene_vert(s, x1, y0, z1), scene_vert(s, x1, y0, z0)};
    uint32_t t[4] = {scene_vert(s, x0, y1, z0), scene_vert(s, x0, y1, z1),
                     scene_vert(s, x1, y1, z1), scene_vert(s, x1, y1, z0)};
    for (int i = 0; i < 4; ++i) {
        int j = (i + 1) % 4;
        scene_quad4(s, b[i], t[i], t[j], b[j], 0);
    }
}

static inline wf_geom scene_geom(const test_scene* s) {
    wf_geom g;
    memset(&g, 0, sizeof g);
    g.verts = s->verts;
    g.vert_count = s->vert_count;
    g.tris = s->tris;
    g.tri_count = s->tri_count;
    g.tri_areas = s->areas;
    return g;
}

/// Cells of 0.25 m (16 per 4 m tile), agent 2 m tall (8 cells), radius
/// 0.5 m (2 cells, so a border of 5), climb 0.5 m (2 cells).
static inline wf_tilecache_params scene_params(void) {
    wf_tilecache_params p;
    memset(&p, 0, sizeof p);
    p.cell_size = 0.25f;
    p.cell_height = 0.25f;
    p.agent_height = 2.0f;
    p.agent_radius = 0.5f;
    p.agent_climb = 0.5f;
    p.agent_max_slope = 45.0f;
    p.tile_size = 16;
    p.min_region_area = 4;
    p.merge_region_area = 16;
    p.max_edge_length = 0.0f;
    p.max_simplification_error = 1.0f;
    p.max_verts_per_poly = 6;
    return p;
}

/// A level of side x side metres: a bumpy ground of one-metre quads, random
/// boxes on it and two bridges, from a fixed seed.
static inline void scene_level(test_scene* s, uint32_t side, uint64_t seed) {
    wf_rng rng = wf_rng_make(seed, 1);
    uint32_t first = s->vert_count;
    for (uint32_t z = 0; z <= side; ++z) {
        for (uint32_t x = 0; x <= side; ++x) {
            scene_vert(s, (float)x, wf_rng_range(&rng, 0.0f, 0.3f), (float)z);
        }
    }
    for (uint32_t z = 0; z < side; ++z) {
        for (uint32_t x = 0; x < side; ++x) {
            uint32_t a = first + z * (side + 1) + x;
            scene_quad4(s, a, a + side + 1, a + side + 2, a + 1, (uint8_t)((x / 4 + z / 4) % 3));
        }
    }
    for (uint32_t i = 0; i < side; ++i) {
        float x = wf_rng_range(&rng, 1.0f, (float)side - 3.0f);
        float z = wf_rng_range(&rng, 1.0f, (float)side - 3.0f);
        float w = wf_rng_range(&rng, 0.5f, 2.0f), h = wf_rng_range(&rng, 0.6f, 3.0f);
        scene_box(s, x, -0.5f, z, x + w, h, z + wf_rng_range(&rng, 0.5f, 2.0f));
    }
    scene_floor(s, 2.0f, 1.0f, 4.0f, (float)side - 1.0f, 3.0f);
    scene_floor(s, 1.0f, 6.0f, (float)side - 1.0f, 8.5f, 3.5f);
}

#endif
