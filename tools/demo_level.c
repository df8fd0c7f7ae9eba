// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
/*
 * The demo level (demo_level.h), in metres, y up, sized for the Recast demo
 * agent (radius 0.6, height 2, climb 0.9, slope 45 degrees):
 *
 *   - open ground 120 x 120 m centred on the origin: a grid of 2 m quads,
 *     flat at y = 0 except a few low round hills away from the buildings;
 *   - a building of three storeys (floors at y = 0, 4 and 8) on
 *     x -46..-4, z -16..16: outer walls 0.4 m thick, slabs 0.3 m thick, six
 *     rooms per floor (three bays along x, two halves along z) behind
 *     interior walls 0.3 m thick with doorways 2 m wide and 2.5 m high, every
 *     doorway listed as a door; ramps 3 m wide with a 10 m run (21.8
 *     degrees) join floor 0 to 1 (north-west room) and 1 to 2 (south-east
 *     room) under holes in the slab above, fenced by 1 m rails;
 *   - a bridge 3 m wide at y = 8 from a doorway of the top floor's east wall
 *     to a tower (8 x 8 x 8 m, with a parapet) whose own ramp (20 m run)
 *     leads down to the ground, so the building has a second way in;
 *   - pillars and blocks scattered on the ground, and crate spots on clear
 *     ground.
 *
 * The floor plan is fixed, so every room is reachable with all doors open,
 * and three rooms have a single door (closing it cuts them off). The seed
 * moves the doorways along their walls and places the hills, the scattered
 * boxes and the crate spots. Solids that stand on the ground or on a slab
 * (the tower, the ramps) have the floor under them cut away, so the
 * rasterizer sees no walkable space inside them. Every triangle of a
 * horizontal or sloped top is counter-clockwise seen from above; walls are
 * vertical, hence unwalkable; thin wall and rail tops are eroded away by
 * the agent radius. Plain float arithmetic (no fused multiply-add in this
 * project) and sinf/cosf of seeded angles: a seed gives the same bytes on a
 * given build.
 */
#include "tools/demo_level.h"
#include "tools/tri_builder.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wayfarer/rng.h"

/* ---------------------------------------------------------------------------
 * Dimensions
 */

#define GROUND_HALF 60.0f
#define GROUND_STEP 2.0f
#define GROUND_CELLS 60u

#define FLOORS 3u
#define FLOOR_H 4.0f
#define SLAB_T 0.3f
#define OUTER_T 0.4f
#define INNER_T 0.3f
#define TOP_WALL_H 3.0f
#define DOOR_W 2.0f
#define DOOR_CLEAR 2.5f ///< opening height (lintel above)
#define DOOR_SIDE 1.5f  ///< demo_door.sides: distance from the wall's centre line
#define RAIL_H 1.0f
#define RAIL_T 0.2f

#define BX0 (-46.0f)
#define BX1 (-4.0f)
#define BZ0 (-16.0f)
#define BZ1 16.0f
#define WALL_X1 (-32.0f) ///< between bays 0 and 1
#define WALL_X2 (-18.0f) ///< between bays 1 and 2
#define WALL_Z0 0.0f     ///< between the south (0) and north (1) halves

#define HILLS_MAX 5u
#define BOXES_MAX 32u
#define SPOTS_WANTED 64u

typedef struct rect {
    float x0, z0, x1, z1;
} rect;

/// The building's ramps, the bridge and the tower (fixed).
#define BRIDGE_RECT                                                                                \
    { -4.0f, 6.5f, 6.0f, 9.5f }
#define TOWER_RECT                                                                                 \
    { 6.0f, 4.0f, 14.0f, 12.0f }
#define TOWER_RAMP_RECT                                                                            \
    { 14.0f, 6.5f, 34.0f, 9.5f }
static const rect RAMP01 = {-45.6f, 3.0f, -42.6f, 13.0f}; ///< floor 0 -> 1, rises to +z
static const rect RAMP12 = {-7.4f, -13.0f, -4.4f, -3.0f}; ///< floor 1 -> 2, rises to -z
static const rect BRIDGE = BRIDGE_RECT;
static const rect TOWER = TOWER_RECT;
static const rect TOWER_RAMP = TOWER_RAMP_RECT; ///< rises to -x
#define TOWER_H 8.0f

/// Footprints nothing else may stand on (hills, boxes and crate spots keep
/// a margin from them).
static const rect STRUCTURES[] = {
    {BX0, BZ0, BX1, BZ1},
    BRIDGE_RECT,
    TOWER_RECT,
    TOWER_RAMP_RECT,
};
#define STRUCTURE_COUNT (sizeof STRUCTURES / sizeof STRUCTURES[0])

/* ---------------------------------------------------------------------------
 * Walls and doors
 */

enum { W_WEST, W_EAST, W_SOUTH, W_NORTH, W_X1, W_X2, W_Z0, WALL_COUNT };

/// A wall: along x at z = c (along_x) or along z at x = c, from a0 to a1.
typedef struct wall_def {
    bool along_x;
    float c, t, a0, a1;
} wall_def;

static const wall_def WALLS[WALL_COUNT] = {
    [W_WEST] = {false, BX0 + 0.5f * OUTER_T, OUTER_T, BZ0, BZ1},
    [W_EAST] = {false, BX1 - 0.5f * OUTER_T, OUTER_T, BZ0, BZ1},
    [W_SOUTH] = {true, BZ0 + 0.5f * OUTER_T, OUTER_T, BX0, BX1},
    [W_NORTH] = {true, BZ1 - 0.5f * OUTER_T, OUTER_T, BX0, BX1},
    [W_X1] = {false, WALL_X1, INNER_T, BZ0 + OUTER_T, BZ1 - OUTER_T},
    [W_X2] = {false, WALL_X2, INNER_T, BZ0 + OUTER_T, BZ1 - OUTER_T},
    [W_Z0] = {true, WALL_Z0, INNER_T, BX0 + OUTER_T, BX1 - OUTER_T},
};

/// Room of a floor: bay (0..2 along x) + 3 * half (0 south, 1 north).
#define ROOM(bay, half) ((bay) + 3 * (half))
#define ROOM_OUT (-1)

/// A doorway: its wall, base position along it and the seeded shift
/// (+-jitter), the rooms on the low-coordinate and high-coordinate sides.
typedef struct door_def {
    uint8_t floor, wall;
    float pos, jitter;
    int8_t lo, hi;
} door_def;

/*
 * The graph (rooms as bay,half; every edge a door):
 *   floor 0: out-(2,0) out-(0,0) (1,0)-(2,0) (0,0)-(1,0) (1,0)-(1,1)
 *            (0,1)-(1,1) (2,0)-(2,1)*; ramp up in (0,1)
 *   floor 1: (0,0)-(0,1)* (0,1)-(1,1) (1,1)-(2,1) (1,0)-(1,1)* (2,0)-(2,1);
 *            ramp up in (2,0)
 *   floor 2: (2,0)-(2,1) (1,0)-(2,0) (0,0)-(1,0) (1,0)-(1,1) (0,1)-(1,1)
 *            (2,1)-bridge (0,0)-(0,1) (1,1)-(2,1)
 * (* the only door of a room.) Doorways keep 1.5 m or more from wall
 * crossings, ramps and rails whatever the shift.
 */
static const door_def DOORS[] = {
    {0, W_EAST, -8.0f, 3.0f, ROOM(2, 0), ROOM_OUT},
    {0, W_SOUTH, -39.0f, 3.0f, ROOM_OUT, ROOM(0, 0)},
    {0, W_X2, -8.0f, 3.0f, ROOM(1, 0), ROOM(2, 0)},
    {0, W_X1, -8.0f, 3.0f, ROOM(0, 0), ROOM(1, 0)},
    {0, W_Z0, -25.0f, 3.0f, ROOM(1, 0), ROOM(1, 1)},
    {0, W_X1, 8.0f, 3.0f, ROOM(0, 1), ROOM(1, 1)},
    {0, W_Z0, -11.0f, 3.0f, ROOM(2, 0), ROOM(2, 1)},
    {1, W_Z0, -37.5f, 2.5f, ROOM(0, 0), ROOM(0, 1)},
    {1, W_X1, 8.0f, 3.0f, ROOM(0, 1), ROOM(1, 1)},
    {1, W_X2, 8.0f, 3.0f, ROOM(1, 1), ROOM(2, 1)},
    {1, W_Z0, -25.0f, 3.0f, ROOM(1, 0), ROOM(1, 1)},
    {1, W_Z0, -12.0f, 2.5f, ROOM(2, 0), ROOM(2, 1)},
    {2, W_Z0, -12.0f, 2.5f, ROOM(2, 0), ROOM(2, 1)},
    {2, W_X2, -8.0f, 3.0f, ROOM(1, 0), ROOM(2, 0)},
    {2, W_X1, -8.0f, 3.0f, ROOM(0, 0), ROOM(1, 0)},
    {2, W_Z0, -25.0f, 3.0f, ROOM(1, 0), ROOM(1, 1)},
    {2, W_X1, 8.0f, 3.0f, ROOM(0, 1), ROOM(1, 1)},
    {2, W_EAST, 8.0f, 0.0f, ROOM(2, 1), ROOM_OUT},
    {2, W_Z0, -39.0f, 3.0f, ROOM(0, 0), ROOM(0, 1)},
    {2, W_X2, 8.0f, 3.0f, ROOM(1, 1), ROOM(2, 1)},
};
#define DOOR_COUNT (sizeof DOORS / sizeof DOORS[0])

static bool rect_empty(rect r) { return !(r.x1 - r.x0 > 1e-4f && r.z1 - r.z0 > 1e-4f); }

/// The corners of r in the order that is counter-clockwise seen from above:
/// (x0, z0), (x0, z1), (x1, z1), (x1, z0).
static void rect_corners(rect r, float out[4][2]) {
    out[0][0] = r.x0;
    out[0][1] = r.z0;
    out[1][0] = r.x0;
    out[1][1] = r.z1;
    out[2][0] = r.x1;
    out[2][1] = r.z1;
    out[3][0] = r.x1;
    out[3][1] = r.z0;
}

/// A horizontal rectangle facing up (walkable) or down.
static void b_hrect(tri_builder* b, rect r, float y, bool up) {
    if (rect_empty(r)) {
        return;
    }
    uint32_t i0 = tri_builder_vert(b, r.x0, y, r.z0), i1 = tri_builder_vert(b, r.x0, y, r.z1);
    uint32_t i2 = tri_builder_vert(b, r.x1, y, r.z1), i3 = tri_builder_vert(b, r.x1, y, r.z0);
    if (up) {
        tri_builder_quad(b, i0, i1, i2, i3);
    } else {
        tri_builder_quad(b, i0, i3, i2, i1);
    }
}

/// A vertical face under the edge (x0, z0) -> (x1, z1) of a counter-clockwise
/// outline, facing out of it, from y0 to the heights top0 and top1 (one of
/// them may equal y0: the face is then a triangle).
static void b_side(tri_builder* b, float x0, float z0, float x1, float z1, float y0, float top0,
                   float top1) {
    uint32_t b0 = tri_builder_vert(b, x0, y0, z0), b1 = tri_builder_vert(b, x1, y0, z1);
    uint32_t t0 = tri_builder_vert(b, x0, top0, z0), t1 = tri_builder_vert(b, x1, top1, z1);
    tri_builder_tri(b, b1, t1, t0);
    tri_builder_tri(b, b1, t0, b0);
}

/// An axis-aligned box; the bottom face only for boxes with space below.
static void b_box(tri_builder* b, rect r, float y0, float y1, bool bottom) {
    if (rect_empty(r) || !(y1 - y0 > 1e-4f)) {
        return;
    }
    b_hrect(b, r, y1, true);
    if (bottom) {
        b_hrect(b, r, y0, false);
    }
    float c[4][2];
    rect_corners(r, c);
    for (int i = 0; i < 4; ++i) {
        int j = (i + 1) % 4;
        b_side(b, c[i][0], c[i][1], c[j][0], c[j][1], y0, y1, y1);
    }
}

/// A box turned by yaw about Y (no bottom face).
static void b_turned_box(tri_builder* b, float cx, float cz, float hx, float hz, float yaw,
                         float y0, float y1) {
    const float local[4][2] = {{-hx, -hz}, {-hx, hz}, {hx, hz}, {hx, -hz}};
    float s = sinf(yaw), co = cosf(yaw);
    float c[4][2];
    uint32_t top[4];
    for (int i = 0; i < 4; ++i) {
        // A rotation keeps the outline's orientation.
        c[i][0] = cx + local[i][0] * co - local[i][1] * s;
        c[i][1] = cz + local[i][0] * s + local[i][1] * co;
        top[i] = tri_builder_vert(b, c[i][0], y1, c[i][1]);
    }
    tri_builder_quad(b, top[0], top[1], top[2], top[3]);
    for (int i = 0; i < 4; ++i) {
        int j = (i + 1) % 4;
        b_side(b, c[i][0], c[i][1], c[j][0], c[j][1], y0, y1, y1);
    }
}

enum { HIGH_X1, HIGH_X0, HIGH_Z1, HIGH_Z0 };

/// A solid ramp (wedge) on footprint r standing on y_base, rising from
/// y_base at one end to y_high at the end `high`.
static void b_ramp(tri_builder* b, rect r, int high, float y_base, float y_high) {
    float c[4][2];
    rect_corners(r, c);
    float h[4];
    for (int i = 0; i < 4; ++i) {
        bool at_high = (high == HIGH_X1 && c[i][0] == r.x1) ||
                       (high == HIGH_X0 && c[i][0] == r.x0) ||
                       (high == HIGH_Z1 && c[i][1] == r.z1) || (high == HIGH_Z0 && c[i][1] == r.z0);
        h[i] = at_high ? y_high : y_base;
    }
    uint32_t top[4];
    for (int i = 0; i < 4; ++i) {
        top[i] = tri_builder_vert(b, c[i][0], h[i], c[i][1]);
    }
    tri_builder_quad(b, top[0], top[1], top[2], top[3]);
    for (int i = 0; i < 4; ++i) {
        int j = (i + 1) % 4;
        b_side(b, c[i][0], c[i][1], c[j][0], c[j][1], y_base, h[i], h[j]);
    }
}

/// r minus the cuts, as horizontal rectangles at y.
static void b_rect_minus(tri_builder* b, rect r, const rect* cuts, uint32_t n, float y, bool up) {
    if (rect_empty(r)) {
        return;
    }
    if (n == 0u) {
        b_hrect(b, r, y, up);
        return;
    }
    rect c = cuts[0];
    if (c.x1 <= r.x0 || c.x0 >= r.x1 || c.z1 <= r.z0 || c.z0 >= r.z1) {
        b_rect_minus(b, r, cuts + 1, n - 1u, y, up);
        return;
    }
    float cx0 = fmaxf(c.x0, r.x0), cx1 = fminf(c.x1, r.x1);
    float cz0 = fmaxf(c.z0, r.z0), cz1 = fminf(c.z1, r.z1);
    b_rect_minus(b, (rect){r.x0, r.z0, r.x1, cz0}, cuts + 1, n - 1u, y, up);
    b_rect_minus(b, (rect){r.x0, cz1, r.x1, r.z1}, cuts + 1, n - 1u, y, up);
    b_rect_minus(b, (rect){r.x0, cz0, cx0, cz1}, cuts + 1, n - 1u, y, up);
    b_rect_minus(b, (rect){cx1, cz0, r.x1, cz1}, cuts + 1, n - 1u, y, up);
}

/// A floor slab (top at y_top) with an optional hole through it; the top
/// face is also cut under top_cut (a solid standing on the slab).
static void b_slab(tri_builder* b, rect r, float y_top, const rect* hole, const rect* top_cut) {
    rect cuts[2];
    uint32_t n = 0;
    if (hole != NULL) {
        cuts[n++] = *hole;
    }
    if (top_cut != NULL) {
        cuts[n++] = *top_cut;
    }
    float y_bottom = y_top - SLAB_T;
    b_rect_minus(b, r, cuts, n, y_top, true);
    b_rect_minus(b, r, hole, hole != NULL ? 1u : 0u, y_bottom, false);
    float c[4][2];
    rect_corners(r, c);
    for (int i = 0; i < 4; ++i) {
        int j = (i + 1) % 4;
        b_side(b, c[i][0], c[i][1], c[j][0], c[j][1], y_bottom, y_top, y_top);
    }
    if (hole != NULL) {
        rect_corners(*hole, c);
        for (int i = 0; i < 4; ++i) { // reversed: the faces look into the hole
            int j = (i + 1) % 4;
            b_side(b, c[j][0], c[j][1], c[i][0], c[i][1], y_bottom, y_top, y_top);
        }
    }
}

/* ---------------------------------------------------------------------------
 * Ground
 */

typedef struct hill {
    float x, z, radius, height;
} hill;

static float rect_distance(rect r, float x, float z) {
    float dx = fmaxf(fmaxf(r.x0 - x, x - r.x1), 0.0f);
    float dz = fmaxf(fmaxf(r.z0 - z, z - r.z1), 0.0f);
    return sqrtf(dx * dx + dz * dz);
}

static float structures_distance(float x, float z) {
    float d = 1e30f;
    for (size_t i = 0; i < STRUCTURE_COUNT; ++i) {
        d = fminf(d, rect_distance(STRUCTURES[i], x, z));
    }
    return d;
}

/// Sum of the hills at (x, z): each (1 - d^2/r^2)^2 inside its radius (a
/// smooth bump, exactly flat outside).
static float hills_height(const hill* hills, uint32_t count, float x, float z) {
    float y = 0.0f;
    for (uint32_t i = 0; i < count; ++i) {
        float dx = x - hills[i].x, dz = z - hills[i].z;
        float u = (dx * dx + dz * dz) / (hills[i].radius * hills[i].radius);
        if (u < 1.0f) {
            y += hills[i].height * (1.0f - u) * (1.0f - u);
        }
    }
    return y;
}

#define GRID_VERTS (GROUND_CELLS + 1u)

/// Height of the ground triangles at (x, z) (the grid's heights h,
/// GRID_VERTS per row, each cell split along its (x0, z0)-(x1, z1) diagonal).
static float ground_height(const float* h, float x, float z) {
    float gx = (x + GROUND_HALF) / GROUND_STEP, gz = (z + GROUND_HALF) / GROUND_STEP;
    gx = fminf(fmaxf(gx, 0.0f), (float)GROUND_CELLS - 1e-3f);
    gz = fminf(fmaxf(gz, 0.0f), (float)GROUND_CELLS - 1e-3f);
    uint32_t ix = (uint32_t)gx, iz = (uint32_t)gz;
    float u = gx - (float)ix, w = gz - (float)iz;
    float h00 = h[iz * GRID_VERTS + ix], h10 = h[iz * GRID_VERTS + ix + 1u];
    float h01 = h[(iz + 1u) * GRID_VERTS + ix], h11 = h[(iz + 1u) * GRID_VERTS + ix + 1u];
    if (w >= u) { // triangle (x0, z0), (x0, z1), (x1, z1)
        return h00 + (h11 - h01) * u + (h01 - h00) * w;
    }
    return h00 + (h10 - h00) * u + (h11 - h10) * w; // (x0, z0), (x1, z1), (x1, z0)
}

static void b_ground(tri_builder* b, const float* h) {
    // Solids standing on the ground: no ground under them.
    const rect cuts[] = {RAMP01, TOWER, TOWER_RAMP};
    const uint32_t cut_count = (uint32_t)(sizeof cuts / sizeof cuts[0]);
    uint32_t first = b->vert_count;
    for (uint32_t iz = 0; iz < GRID_VERTS; ++iz) {
        for (uint32_t ix = 0; ix < GRID_VERTS; ++ix) {
            (void)tri_builder_vert(b, -GROUND_HALF + GROUND_STEP * (float)ix,
                                   h[iz * GRID_VERTS + ix], -GROUND_HALF + GROUND_STEP * (float)iz);
        }
    }
    for (uint32_t iz = 0; iz < GROUND_CELLS; ++iz) {
        for (uint32_t ix = 0; ix < GROUND_CELLS; ++ix) {
            uint32_t i00 = first + iz * GRID_VERTS + ix;
            uint32_t i10 = i00 + 1u, i01 = i00 + GRID_VERTS, i11 = i01 + 1u;
            rect cell = {-GROUND_HALF + GROUND_STEP * (float)ix,
                         -GROUND_HALF + GROUND_STEP * (float)iz,
                         -GROUND_HALF + GROUND_STEP * (float)(ix + 1u),
                         -GROUND_HALF + GROUND_STEP * (float)(iz + 1u)};
            bool cut = false;
            for (uint32_t k = 0; k < cut_count; ++k) {
                rect c = cuts[k];
                cut = cut ||
                      !(c.x1 <= cell.x0 || c.x0 >= cell.x1 || c.z1 <= cell.z0 || c.z0 >= cell.z1);
            }
            // Hills keep away from the structures, so a cut cell is flat.
            if (cut) {
                b_rect_minus(b, cell, cuts, cut_count, 0.0f, true);
            } else {
                tri_builder_tri(b, i00, i01, i11);
                tri_builder_tri(b, i00, i11, i10);
            }
        }
    }
}

/* ---------------------------------------------------------------------------
 * The building
 */

static float floor_y(uint32_t f) { return FLOOR_H * (float)f; }

/// Interior x range of a bay and z range of a half.
static void bay_range(int bay, float* x0, float* x1) {
    const float edges[4] = {BX0 + OUTER_T, WALL_X1, WALL_X2, BX1 - OUTER_T};
    *x0 = edges[bay] + (bay > 0 ? 0.5f * INNER_T : 0.0f);
    *x1 = edges[bay + 1] - (bay < 2 ? 0.5f * INNER_T : 0.0f);
}
static void half_range(int half, float* z0, float* z1) {
    *z0 = half == 0 ? BZ0 + OUTER_T : WALL_Z0 + 0.5f * INNER_T;
    *z1 = half == 0 ? WALL_Z0 - 0.5f * INNER_T : BZ1 - OUTER_T;
}

/// One wall of one floor with its openings (positions along the wall,
/// ascending): solid pieces between them and lintels above.
static void b_wall(tri_builder* b, const wall_def* w, float y0, float y1, const float* openings,
                   uint32_t count) {
    float start = w->a0;
    for (uint32_t i = 0; i <= count; ++i) {
        float end = i < count ? openings[i] - 0.5f * DOOR_W : w->a1;
        float pieces[2][2] = {{start, end}, {end, end + DOOR_W}};
        for (int k = 0; k < (i < count ? 2 : 1); ++k) {
            float p0 = pieces[k][0], p1 = pieces[k][1];
            float bottom = k == 0 ? y0 : y0 + DOOR_CLEAR;
            rect r = w->along_x ? (rect){p0, w->c - 0.5f * w->t, p1, w->c + 0.5f * w->t}
                                : (rect){w->c - 0.5f * w->t, p0, w->c + 0.5f * w->t, p1};
            b_box(b, r, bottom, y1, false);
        }
        start = end + DOOR_W;
    }
}

static int compare_float(const void* a, const void* b) {
    float x = *(const float*)a, y = *(const float*)b;
    return (x > y) - (x < y);
}

static void b_building(tri_builder* b, const float* door_pos) {
    const rect footprint = {BX0, BZ0, BX1, BZ1};
    b_slab(b, footprint, floor_y(1), &RAMP01, &RAMP12);
    b_slab(b, footprint, floor_y(2), &RAMP12, NULL);
    b_ramp(b, RAMP01, HIGH_Z1, floor_y(0), floor_y(1));
    b_ramp(b, RAMP12, HIGH_Z0, floor_y(1), floor_y(2));
    // Rails around the holes (open where the ramps arrive).
    const float rail_pad = RAIL_T;
    b_box(b, (rect){RAMP01.x1, RAMP01.z0, RAMP01.x1 + rail_pad, RAMP01.z1}, floor_y(1),
          floor_y(1) + RAIL_H, false);
    b_box(b, (rect){RAMP01.x0, RAMP01.z0 - rail_pad, RAMP01.x1 + rail_pad, RAMP01.z0}, floor_y(1),
          floor_y(1) + RAIL_H, false);
    b_box(b, (rect){RAMP12.x0 - rail_pad, RAMP12.z0, RAMP12.x0, RAMP12.z1}, floor_y(2),
          floor_y(2) + RAIL_H, false);
    b_box(b, (rect){RAMP12.x0 - rail_pad, RAMP12.z1, RAMP12.x1, RAMP12.z1 + rail_pad}, floor_y(2),
          floor_y(2) + RAIL_H, false);
    for (uint32_t f = 0; f < FLOORS; ++f) {
        float y0 = floor_y(f);
        float y1 = f + 1u < FLOORS ? floor_y(f + 1u) - SLAB_T : y0 + TOP_WALL_H;
        for (uint32_t w = 0; w < WALL_COUNT; ++w) {
            float openings[DOOR_COUNT];
            uint32_t n = 0;
            for (uint32_t d = 0; d < DOOR_COUNT; ++d) {
                if (DOORS[d].floor == f && DOORS[d].wall == w) {
                    openings[n++] = door_pos[d];
                }
            }
            qsort(openings, n, sizeof openings[0], compare_float);
            b_wall(b, &WALLS[w], y0, y1, openings, n);
        }
    }
}

/// The bridge (deck and rails), the tower with its parapet, and its ramp.
static void b_bridge_and_tower(tri_builder* b) {
    float y = TOWER_H;
    b_box(b, BRIDGE, y - SLAB_T, y, true);
    b_box(b, (rect){BRIDGE.x0, BRIDGE.z0, BRIDGE.x1, BRIDGE.z0 + RAIL_T}, y, y + RAIL_H, false);
    b_box(b, (rect){BRIDGE.x0, BRIDGE.z1 - RAIL_T, BRIDGE.x1, BRIDGE.z1}, y, y + RAIL_H, false);
    b_box(b, TOWER, 0.0f, y, false);
    const float t = 0.3f;
    const rect parapet[] = {
        {TOWER.x0, TOWER.z0, TOWER.x1, TOWER.z0 + t},
        {TOWER.x0, TOWER.z1 - t, TOWER.x1, TOWER.z1},
        {TOWER.x0, TOWER.z0 + t, TOWER.x0 + t, BRIDGE.z0},
        {TOWER.x0, BRIDGE.z1, TOWER.x0 + t, TOWER.z1 - t},
        {TOWER.x1 - t, TOWER.z0 + t, TOWER.x1, TOWER_RAMP.z0},
        {TOWER.x1 - t, TOWER_RAMP.z1, TOWER.x1, TOWER.z1 - t},
    };
    for (size_t i = 0; i < sizeof parapet / sizeof parapet[0]; ++i) {
        b_box(b, parapet[i], y, y + RAIL_H, false);
    }
    b_ramp(b, TOWER_RAMP, HIGH_X0, 0.0f, y);
}

/* ---------------------------------------------------------------------------
 * Scattered boxes and crate spots
 */

typedef struct scatter_box {
    float x, z, hx, hz, yaw, height;
} scatter_box;

static float box_radius(const scatter_box* s) { return sqrtf(s->hx * s->hx + s->hz * s->hz); }

static bool in_play_area(float x, float z, float margin) {
    float lim = GROUND_HALF - margin;
    return x >= -lim && x <= lim && z >= -lim && z <= lim;
}

static uint32_t place_hills(wf_rng* rng, hill* hills) {
    uint32_t want = 3u + wf_rng_below(rng, HILLS_MAX - 2u);
    uint32_t count = 0;
    for (uint32_t tries = 0; tries < 400u && count < want; ++tries) {
        hill h;
        h.x = wf_rng_range(rng, -GROUND_HALF, GROUND_HALF);
        h.z = wf_rng_range(rng, -GROUND_HALF, GROUND_HALF);
        h.radius = wf_rng_range(rng, 10.0f, 16.0f);
        h.height = wf_rng_range(rng, 0.4f, 1.2f);
        // Flat at the structures and 3 m around them (entrances, cut cells).
        if (structures_distance(h.x, h.z) > h.radius + 3.0f + GROUND_STEP) {
            hills[count++] = h;
        }
    }
    return count;
}

/// Boxes keep off the hills (on a slope a block could leave room for an
/// agent under its top) and keep wide passages between them.
static uint32_t place_boxes(wf_rng* rng, const hill* hills, uint32_t hill_count,
                            scatter_box* boxes) {
    uint32_t want = 24u + wf_rng_below(rng, BOXES_MAX - 23u);
    uint32_t count = 0;
    for (uint32_t tries = 0; tries < 4000u && count < want; ++tries) {
        scatter_box s;
        bool pillar = wf_rng_below(rng, 3u) == 0u;
        s.x = wf_rng_range(rng, -GROUND_HALF, GROUND_HALF);
        s.z = wf_rng_range(rng, -GROUND_HALF, GROUND_HALF);
        s.yaw = wf_rng_range(rng, 0.0f, 1.5707964f);
        if (pillar) { // narrow and tall: no room for an agent inside
            s.hx = wf_rng_range(rng, 0.4f, 0.7f);
            s.hz = s.hx;
            s.height = wf_rng_range(rng, 3.0f, 6.0f);
        } else {
            // Too high to climb (a climbable step would join the top to
            // the ground and bend the polygons around it), too low for
            // anything to fit under the top.
            s.hx = wf_rng_range(rng, 0.6f, 2.0f);
            s.hz = wf_rng_range(rng, 0.6f, 2.0f);
            s.height = wf_rng_range(rng, 1.1f, 1.8f);
        }
        float r = box_radius(&s);
        bool ok = in_play_area(s.x, s.z, r + 2.0f) && structures_distance(s.x, s.z) > r + 4.0f;
        for (uint32_t i = 0; i < hill_count && ok; ++i) {
            float dx = s.x - hills[i].x, dz = s.z - hills[i].z, gap = hills[i].radius + r + 1.0f;
            ok = dx * dx + dz * dz > gap * gap;
        }
        for (uint32_t i = 0; i < count && ok; ++i) {
            float dx = s.x - boxes[i].x, dz = s.z - boxes[i].z;
            float gap = r + box_radius(&boxes[i]) + 3.0f;
            ok = dx * dx + dz * dz > gap * gap;
        }
        if (ok) {
            boxes[count++] = s;
        }
    }
    return count;
}

static void b_boxes(tri_builder* b, const scatter_box* boxes, uint32_t count, const float* h) {
    for (uint32_t i = 0; i < count; ++i) {
        const scatter_box* s = &boxes[i];
        // Sunk a little into the ground, the top level over the highest point.
        float r = box_radius(s), lo = 1e30f, hi = -1e30f;
        const float probe[5][2] = {{0, 0}, {-r, -r}, {-r, r}, {r, r}, {r, -r}};
        for (int k = 0; k < 5; ++k) {
            float y = ground_height(h, s->x + probe[k][0], s->z + probe[k][1]);
            lo = fminf(lo, y);
            hi = fmaxf(hi, y);
        }
        b_turned_box(b, s->x, s->z, s->hx, s->hz, s->yaw, lo - 0.3f, hi + s->height);
    }
}

/// Crate spots: on flat ground (off the hills, where navmesh polygons only
/// approximate the surface), clear of the structures, boxes and each other.
static uint32_t place_spots(wf_rng* rng, const hill* hills, uint32_t hill_count,
                            const scatter_box* boxes, uint32_t box_count, const float* h,
                            wf_vec3* spots) {
    uint32_t count = 0;
    for (uint32_t tries = 0; tries < 20000u && count < SPOTS_WANTED; ++tries) {
        float x = wf_rng_range(rng, -GROUND_HALF, GROUND_HALF);
        float z = wf_rng_range(rng, -GROUND_HALF, GROUND_HALF);
        bool ok = in_play_area(x, z, 3.0f) && structures_distance(x, z) > 4.0f;
        for (uint32_t i = 0; i < hill_count && ok; ++i) {
            float dx = x - hills[i].x, dz = z - hills[i].z, gap = hills[i].radius + 3.0f;
            ok = dx * dx + dz * dz > gap * gap;
        }
        for (uint32_t i = 0; i < box_count && ok; ++i) {
            float dx = x - boxes[i].x, dz = z - boxes[i].z, gap = box_radius(&boxes[i]) + 2.5f;
            ok = dx * dx + dz * dz > gap * gap;
        }
        for (uint32_t i = 0; i < count && ok; ++i) {
            float dx = x - spots[i].x, dz = z - spots[i].z;
            ok = dx * dx + dz * dz > 4.0f * 4.0f;
        }
        if (ok) {
            spots[count++] = wf_v3(x, ground_height(h, x, z), z);
        }
    }
    return count;
}

/* ---------------------------------------------------------------------------
 * Rooms and doors
 */

static void fill_rooms(demo_level* out) {
    for (uint32_t f = 0; f < FLOORS; ++f) {
        for (int half = 0; half < 2; ++half) {
            for (int bay = 0; bay < 3; ++bay) {
                float x0, x1, z0, z1;
                bay_range(bay, &x0, &x1);
                half_range(half, &z0, &z1);
                demo_room* r = &out->rooms[out->room_count++];
                r->center = wf_v3(0.5f * (x0 + x1), floor_y(f), 0.5f * (z0 + z1));
                r->half_extents = wf_v3(0.5f * (x1 - x0), 0.0f, 0.5f * (z1 - z0));
                r->floor = f;
            }
        }
    }
}

static void fill_doors(demo_level* out, const float* door_pos) {
    for (uint32_t d = 0; d < DOOR_COUNT; ++d) {
        const door_def* def = &DOORS[d];
        const wall_def* w = &WALLS[def->wall];
        float y = floor_y(def->floor);
        demo_door* door = &out->doors[out->door_count++];
        door->floor = def->floor;
        door->yaw = 0.0f;
        // From half a metre under the floor to the lintel: the cells of
        // this floor only (the floor above is 4 m up).
        float bottom = y - 0.5f, top = y + DOOR_CLEAR;
        float x = w->along_x ? door_pos[d] : w->c;
        float z = w->along_x ? w->c : door_pos[d];
        door->center = wf_v3(x, 0.5f * (bottom + top), z);
        float along = 0.5f * DOOR_W + 0.2f, across = 0.4f;
        door->half_extents = w->along_x ? wf_v3(along, 0.5f * (top - bottom), across)
                                        : wf_v3(across, 0.5f * (top - bottom), along);
        for (int s = 0; s < 2; ++s) {
            float off = s == 0 ? -DOOR_SIDE : DOOR_SIDE;
            door->sides[s] = w->along_x ? wf_v3(x, y, z + off) : wf_v3(x + off, y, z);
            int room = s == 0 ? def->lo : def->hi;
            door->rooms[s] = room == ROOM_OUT ? DEMO_OUTSIDE : def->floor * 6u + (uint32_t)room;
        }
    }
}

/* ---------------------------------------------------------------------------
 * API
 */

int demo_level_generate(uint64_t seed, demo_level* out) {
    memset(out, 0, sizeof *out);
    wf_rng rng = wf_rng_make(seed, 0x64656d6f6c766cull); // "demolvl"
    wf_rng door_rng = wf_rng_split(&rng, 1u), hill_rng = wf_rng_split(&rng, 2u);
    wf_rng box_rng = wf_rng_split(&rng, 3u), spot_rng = wf_rng_split(&rng, 4u);

    float door_pos[DOOR_COUNT];
    for (uint32_t d = 0; d < DOOR_COUNT; ++d) {
        float j = DOORS[d].jitter;
        // Whole decimetres, so the openings fall on round numbers.
        float shift =
            j > 0.0f
                ? (float)(int32_t)wf_rng_below(&door_rng, (uint32_t)(20.0f * j) + 1u) * 0.1f - j
                : 0.0f;
        door_pos[d] = DOORS[d].pos + shift;
    }
    hill hills[HILLS_MAX];
    uint32_t hill_count = place_hills(&hill_rng, hills);
    float* heights = malloc(sizeof *heights * GRID_VERTS * GRID_VERTS);
    scatter_box* boxes = malloc(sizeof *boxes * BOXES_MAX);
    if (heights == NULL || boxes == NULL) {
        free(heights);
        free(boxes);
        return 1;
    }
    for (uint32_t iz = 0; iz < GRID_VERTS; ++iz) {
        for (uint32_t ix = 0; ix < GRID_VERTS; ++ix) {
            heights[iz * GRID_VERTS + ix] =
                hills_height(hills, hill_count, -GROUND_HALF + GROUND_STEP * (float)ix,
                             -GROUND_HALF + GROUND_STEP * (float)iz);
        }
    }
    uint32_t box_count = place_boxes(&box_rng, hills, hill_count, boxes);

    tri_builder b;
    memset(&b, 0, sizeof b);
    b_ground(&b, heights);
    b_building(&b, door_pos);
    b_bridge_and_tower(&b);
    b_boxes(&b, boxes, box_count, heights);

    out->crate_spot_count =
        place_spots(&spot_rng, hills, hill_count, boxes, box_count, heights, out->crate_spots);
    free(heights);
    free(boxes);
    if (b.failed) {
        free(b.verts);
        free(b.tris);
        memset(out, 0, sizeof *out);
        return 1;
    }
    out->verts = b.verts;
    out->vert_count = b.vert_count;
    out->tris = b.tris;
    out->tri_count = b.tri_count;
    out->floors = FLOORS;
    fill_rooms(out);
    fill_doors(out, door_pos);
    out->bridge_mid =
        wf_v3(0.5f * (BRIDGE.x0 + BRIDGE.x1), TOWER_H, 0.5f * (BRIDGE.z0 + BRIDGE.z1));
    out->tower_top = wf_v3(0.5f * (TOWER.x0 + TOWER.x1), TOWER_H, 0.5f * (TOWER.z0 + TOWER.z1));
    out->bmin = wf_v3(1e30f, 1e30f, 1e30f);
    out->bmax = wf_v3(-1e30f, -1e30f, -1e30f);
    for (uint32_t i = 0; i < out->vert_count; ++i) {
        const float* v = &out->verts[3u * i];
        out->bmin =
            wf_v3(fminf(out->bmin.x, v[0]), fminf(out->bmin.y, v[1]), fminf(out->bmin.z, v[2]));
        out->bmax =
            wf_v3(fmaxf(out->bmax.x, v[0]), fmaxf(out->bmax.y, v[1]), fmaxf(out->bmax.z, v[2]));
    }
    return 0;
}

void demo_level_free(demo_level* level) {
    if (level == NULL) {
        return;
    }
    free(level->verts);
    free(level->tris);
    level->verts = NULL;
    level->tris = NULL;
    level->vert_count = 0;
    level->tri_count = 0;
}

wf_geom demo_level_geom(const demo_level* level) {
    wf_geom g;
    memset(&g, 0, sizeof g);
    g.verts = level->verts;
    g.vert_count = level->vert_count;
    g.tris = level->tris;
    g.tri_count = level->tri_count;
    return g;
}

int demo_level_write_obj(const demo_level* level, const char* path) {
    char comment[96];
    snprintf(comment, sizeof comment, "Wayfarer demo level: %u vertices, %u triangles",
             level->vert_count, level->tri_count);
    return tri_list_write_obj(path, comment, level->verts, level->vert_count, level->tris,
                              level->tri_count);
}
