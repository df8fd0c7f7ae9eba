// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The scenes of `wayfarer scenarios` (crowd_scenes.h): floors and walls
// made of boxes, or a level (nav_test, the demo level), built into a tile
// cache with the Recast demo settings, and the agents' starts and targets,
// all fixed by the scene's name and the seed.
#include "tools/crowd_scenes.h"
#include "tools/tri_builder.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/demo_level.h"
#include "tools/tool.h"

/// The navmesh's voxel size (the Recast demo's): door edges are put on
/// voxel boundaries so a doorway's clear width does not depend on where
/// it falls in the grid.
#define CELL 0.3f
#define WALL_HEIGHT 3.0f
#define WALL_THICKNESS 1.0f
/// Spacing of the agents in a block (m).
#define SPACING 1.5f
/// Search nodes and path lengths for the shortest-path measure: enough for
/// any path across nav_test or the demo level.
#define PATH_NODES 65536u
#define PATH_POLYS_MAX 8192u
#define STRAIGHT_MAX 2048u
/// Tries for a random target with a complete path before giving up.
#define TARGET_TRIES 64u
#define NAV_TEST_AGENTS 500u
#define DEMO_AGENTS 1000u
#define DEMO_FRAMES 1000u
#define SCENE_SECONDS 60.0f

const char* const scene_names[] = {
    "circle32",    "circle128",     "crossing",    "door_1way_1.5", "door_1way_2",
    "door_1way_3", "door_2way_1.5", "door_2way_2", "door_2way_3",   "two_doors",
    "corridor",    "tjunction",     "nav_test500", "demo",
};
const uint32_t scene_name_count = sizeof scene_names / sizeof scene_names[0];

/* ---------------------------------------------------------------------------
 * Triangles
 */

/// A floor rectangle at y 0 (x0 < x1, z0 < z1).
static void add_floor(tri_builder* t, float x0, float z0, float x1, float z1) {
    uint32_t a = tri_builder_vert(t, x0, 0.0f, z0), b = tri_builder_vert(t, x0, 0.0f, z1);
    uint32_t c = tri_builder_vert(t, x1, 0.0f, z1), d = tri_builder_vert(t, x1, 0.0f, z0);
    tri_builder_quad(t, a, b, c, d);
}

/// A wall: a closed box from the floor to WALL_HEIGHT (no floor under it;
/// its top is too narrow to survive erosion, its sides are vertical).
static void add_wall(tri_builder* t, float x0, float z0, float x1, float z1) {
    uint32_t v[8];
    for (uint32_t k = 0; k < 8u; ++k) {
        v[k] = tri_builder_vert(t, (k & 1u) ? x1 : x0, (k & 4u) ? WALL_HEIGHT : 0.0f,
                                (k & 2u) ? z1 : z0);
    }
    // Indices: bit 0 = x1, bit 1 = z1, bit 2 = top.
    tri_builder_quad(t, v[4], v[6], v[7], v[5]); // top, counter-clockwise from above
    tri_builder_quad(t, v[0], v[4], v[5], v[1]); // z0 side
    tri_builder_quad(t, v[3], v[7], v[6], v[2]); // z1 side
    tri_builder_quad(t, v[2], v[6], v[4], v[0]); // x0 side
    tri_builder_quad(t, v[1], v[5], v[7], v[3]); // x1 side
}

/// A wall across the room along z = 0 (x from x0 to x1) with doorways
/// (their centres, one width for all), and the floor either side of the
/// wall and in the doorways.
static void add_wall_with_doors(tri_builder* t, float x0, float x1, float z_extent,
                                const float* door_x, uint32_t door_count, float width) {
    float h = WALL_THICKNESS * 0.5f;
    add_floor(t, x0, -z_extent, x1, -h);
    add_floor(t, x0, h, x1, z_extent);
    float from = x0;
    for (uint32_t k = 0; k < door_count; ++k) {
        float a = door_x[k] - width * 0.5f, b = door_x[k] + width * 0.5f;
        add_wall(t, from, -h, a, h);
        add_floor(t, a, -h, b, h);
        from = b;
    }
    add_wall(t, from, -h, x1, h);
}

/* ---------------------------------------------------------------------------
 * Agents
 */

static bool alloc_agents(scene* s, uint32_t n) {
    s->agent_count = n;
    s->starts = calloc(n > 0 ? n : 1u, sizeof(wf_vec3));
    s->targets = calloc(n > 0 ? n : 1u, sizeof(wf_vec3));
    if (s->starts == NULL || s->targets == NULL) {
        fprintf(stderr, "wayfarer scenarios: out of memory for %u agents\n", n);
        return false;
    }
    return true;
}

/// A block of columns x rows agents, SPACING apart, from index first on,
/// centred on (cx, cz); rows_along_x: the rows follow each other along x
/// (the columns then spread along z), else along z.
static void place_block(scene* s, uint32_t first, uint32_t columns, uint32_t rows, float cx,
                        float cz, bool rows_along_x) {
    for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t c = 0; c < columns; ++c) {
            float u = ((float)c - (float)(columns - 1u) * 0.5f) * SPACING;
            float v = ((float)r - (float)(rows - 1u) * 0.5f) * SPACING;
            wf_vec3 p = {cx + (rows_along_x ? v : u), 0.0f, cz + (rows_along_x ? u : v)};
            s->starts[first + r * columns + c] = p;
        }
    }
}

/* ---------------------------------------------------------------------------
 * Scenes
 */

static int build_circle(scene* s, tri_builder* t, uint32_t n) {
    const float radius = 20.0f;
    add_floor(t, -25.0f, -25.0f, 25.0f, 25.0f);
    if (!alloc_agents(s, n)) {
        return SCENE_FAILED;
    }
    for (uint32_t i = 0; i < n; ++i) {
        float a = 2.0f * 3.14159265f * (float)i / (float)n;
        s->starts[i] = (wf_vec3){radius * cosf(a), 0.0f, radius * sinf(a)};
        s->targets[i] = (wf_vec3){-s->starts[i].x, 0.0f, -s->starts[i].z};
    }
    return 0;
}

/// Two blocks of 5 x 10 crossing at right angles: one walks along +x, the
/// other along +z; each agent goes to its start mirrored about the
/// crossing's centre line (the blocks start 15 m before it, so about 30 m).
static int build_crossing(scene* s, tri_builder* t) {
    add_floor(t, -30.0f, -30.0f, 30.0f, 30.0f);
    if (!alloc_agents(s, 100u)) {
        return SCENE_FAILED;
    }
    place_block(s, 0, 5, 10, -15.0f, 0.0f, true);
    place_block(s, 50, 5, 10, 0.0f, -15.0f, false);
    for (uint32_t i = 0; i < 100u; ++i) {
        wf_vec3 p = s->starts[i];
        s->targets[i] = i < 50u ? (wf_vec3){-p.x, 0.0f, p.z} : (wf_vec3){p.x, 0.0f, -p.z};
    }
    return 0;
}

/// Voxels per navmesh tile side (the Recast demo's tile size).
#define TILE_CELLS 48.0f

/// Left edge of a room split along z = 0 by a wall with doorways, at
/// least half_width left of the first door's centre. The cache's bounds
/// start at the floor's edge, so the room's left edge is chosen to put the
/// first door's edges on voxel boundaries (its clear width then does not
/// depend on where it falls in the grid) and the door mid-tile, away from
/// tile seams.
static float room_left(float first_door_x, float width, float half_width) {
    float left_edge = first_door_x - width * 0.5f;
    float cells = TILE_CELLS * 0.5f;
    while (cells * CELL < left_edge - (first_door_x - half_width)) {
        cells += TILE_CELLS;
    }
    return left_edge - cells * CELL;
}

/// The room's depth either side of the wall: the wall (z = 0) mid-tile.
#define ROOM_DEPTH (1.5f * TILE_CELLS * CELL)

/// One doorway: 40 agents (8 x 5) on one side, or 20 each way (5 x 4
/// each side); every target is the start mirrored about the wall.
static int build_door(scene* s, tri_builder* t, float width, bool two_way) {
    float x0 = room_left(0.0f, width, 15.0f), x1 = -x0;
    float door = 0.0f;
    add_wall_with_doors(t, x0, x1, ROOM_DEPTH, &door, 1, width);
    s->door_width = width;
    if (!alloc_agents(s, 40u)) {
        return SCENE_FAILED;
    }
    if (two_way) {
        place_block(s, 0, 5, 4, 0.0f, -5.25f, false);
        place_block(s, 20, 5, 4, 0.0f, 5.25f, false);
    } else {
        place_block(s, 0, 8, 5, 0.0f, -6.0f, false);
    }
    for (uint32_t i = 0; i < 40u; ++i) {
        s->targets[i] = (wf_vec3){s->starts[i].x, 0.0f, -s->starts[i].z};
    }
    return 0;
}

/// Two 2 m doors 16 m apart; 40 agents in front of the first one, every
/// target beyond the wall (mirrored): do later agents take the free door?
static int build_two_doors(scene* s, tri_builder* t) {
    const float doors[2] = {-8.0f, 8.0f};
    float x0 = room_left(doors[0], 2.0f, 20.0f), x1 = 20.0f;
    add_wall_with_doors(t, x0, x1, ROOM_DEPTH, doors, 2, 2.0f);
    s->door_width = 2.0f;
    s->second_door_x = doors[1];
    s->second_door_width = 2.0f;
    if (!alloc_agents(s, 40u)) {
        return SCENE_FAILED;
    }
    place_block(s, 0, 8, 5, doors[0], -6.0f, false);
    for (uint32_t i = 0; i < 40u; ++i) {
        s->targets[i] = (wf_vec3){s->starts[i].x, 0.0f, -s->starts[i].z};
    }
    return 0;
}

/// A corridor 3 m wide and 30 m long between two 12 x 12 m rooms; 20
/// agents (5 x 4) in each room go to the other (mirrored about x = 0).
/// Its floor has no walls (a walkway over a drop): the edge voxels are
/// ledges, so the walkable band is 1.2 m, one agent diameter.
static int build_corridor(scene* s, tri_builder* t) {
    add_floor(t, -27.0f, -6.0f, -15.0f, 6.0f);
    add_floor(t, -15.0f, -1.5f, 15.0f, 1.5f);
    add_floor(t, 15.0f, -6.0f, 27.0f, 6.0f);
    if (!alloc_agents(s, 40u)) {
        return SCENE_FAILED;
    }
    place_block(s, 0, 5, 4, -21.0f, 0.0f, true);
    place_block(s, 20, 5, 4, 21.0f, 0.0f, true);
    for (uint32_t i = 0; i < 40u; ++i) {
        s->targets[i] = (wf_vec3){-s->starts[i].x, 0.0f, s->starts[i].z};
    }
    return 0;
}

/// A T of 3 m corridors: the bar along x (50 m), the stem down -z (30 m)
/// into a 14 x 12 m room. 20 agents (2 abreast, 10 deep) in each arm of
/// the bar (two abreast); their targets are spots in the room (the left arm's in its
/// left half).
static int build_tjunction(scene* s, tri_builder* t) {
    add_floor(t, -25.0f, -1.5f, 25.0f, 1.5f);
    add_floor(t, -1.5f, -31.5f, 1.5f, -1.5f);
    add_floor(t, -7.0f, -43.5f, 7.0f, -31.5f);
    if (!alloc_agents(s, 40u)) {
        return SCENE_FAILED;
    }
    place_block(s, 0, 2, 10, -16.0f, 0.0f, true);
    place_block(s, 20, 2, 10, 16.0f, 0.0f, true);
    for (uint32_t i = 0; i < 40u; ++i) {
        // Two abreast 1.2 m apart: the bar's floor has no walls, so its
        // edge voxels are ledges and go before the 0.6 m erosion; the
        // walkable band is 1.2 m (centres within z +-0.6, traces).
        s->starts[i].z *= 0.8f;
        uint32_t k = i % 20u, half = i / 20u;
        // 4 columns x 5 rows per half, 1.5 m apart, in the room.
        float x = (half == 0 ? -5.25f : 0.75f) + (float)(k % 4u) * SPACING;
        float z = -34.5f - (float)(k / 4u) * SPACING;
        s->targets[i] = (wf_vec3){x, 0.0f, z};
    }
    return 0;
}

/* ---------------------------------------------------------------------------
 * Navmesh and placement
 */

static int build_navmesh(scene* s, const scene_settings* settings, wf_geom geom) {
    if (settings->export_obj != NULL) {
        // The OBJ holds triangles only: a scene with areas or links could
        // not be given to another crowd whole.
        if (geom.tri_areas != NULL || geom.link_count > 0) {
            fprintf(stderr, "wayfarer scenarios: %s: areas and links cannot be exported\n",
                    s->name);
            return SCENE_FAILED;
        }
        if (tri_list_write_obj(settings->export_obj, s->name, geom.verts, geom.vert_count,
                               geom.tris, geom.tri_count) != 0) {
            fprintf(stderr, "wayfarer scenarios: cannot write %s\n", settings->export_obj);
            return SCENE_FAILED;
        }
    }
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    d.params = wf_tilecache_params_recast_demo();
    d.logger.quiet = true;
    wf_status st = wf_tilecache_create(&d, &s->tc);
    if (st == WF_OK) {
        st = wf_tilecache_build_geom(s->tc, geom, NULL, 0);
    }
    if (st != WF_OK) {
        fprintf(stderr, "wayfarer scenarios: %s: tile cache build failed: %s\n", s->name,
                wf_status_string(st));
        return SCENE_FAILED;
    }
    double ms;
    if (cache_navmesh(s->tc, &s->mesh, &ms) != 0) {
        return SCENE_FAILED;
    }
    wf_query_desc qd;
    memset(&qd, 0, sizeof qd);
    qd.mesh = s->mesh;
    qd.max_nodes = PATH_NODES;
    qd.exact_nodes_per_node = WF_QUERY_NO_EXACT;
    s->path_scratch = malloc(sizeof(wf_poly_ref) * PATH_POLYS_MAX);
    s->straight_scratch = malloc(sizeof(wf_straight_point) * STRAIGHT_MAX);
    if (s->path_scratch == NULL || s->straight_scratch == NULL ||
        wf_query_create(&qd, &s->query) != WF_OK) {
        fprintf(stderr, "wayfarer scenarios: out of memory\n");
        return SCENE_FAILED;
    }
    return 0;
}

/// Nearest navmesh point to p (within 2 m across, 4 m up or down); true
/// when found; *was_on tells whether p itself lay on the mesh (5 cm).
static bool snap(scene* s, wf_vec3* p, bool* was_on) {
    const wf_query_filter f = wf_query_filter_defaults();
    wf_poly_ref ref;
    wf_vec3 at;
    if (wf_query_find_nearest_poly(s->query, *p, (wf_vec3){2.0f, 4.0f, 2.0f}, &f, &ref, &at) !=
        WF_OK) {
        return false;
    }
    float dx = at.x - p->x, dz = at.z - p->z;
    *was_on = dx * dx + dz * dz <= 0.05f * 0.05f;
    *p = at;
    return true;
}

static int snap_all(scene* s, const scene_settings* settings) {
    wf_rng rng = wf_rng_make(settings->seed, 0x6a177e5u);
    for (uint32_t i = 0; i < s->agent_count; ++i) {
        bool on_start = false, on_target = false;
        if (settings->jitter > 0.0f) {
            s->starts[i].x += (2.0f * wf_rng_float01(&rng) - 1.0f) * settings->jitter;
            s->starts[i].z += (2.0f * wf_rng_float01(&rng) - 1.0f) * settings->jitter;
        }
        if (!snap(s, &s->starts[i], &on_start) || !snap(s, &s->targets[i], &on_target)) {
            fprintf(stderr, "wayfarer scenarios: %s: agent %u is off the navmesh\n", s->name, i);
            return SCENE_FAILED;
        }
        s->starts_on_mesh += on_start;
        s->targets_on_mesh += on_target;
    }
    return 0;
}

static float path_length_on(scene* s, wf_query* q, wf_vec3 from, wf_vec3 to) {
    wf_poly_ref* path = s->path_scratch;
    wf_straight_point* points = s->straight_scratch;
    const wf_query_filter f = wf_query_filter_defaults();
    const wf_vec3 ext = {1.0f, 2.0f, 1.0f};
    wf_poly_ref a, b;
    wf_vec3 pa, pb;
    wf_path_result r;
    uint32_t n = 0;
    if (wf_query_find_nearest_poly(q, from, ext, &f, &a, &pa) != WF_OK ||
        wf_query_find_nearest_poly(q, to, ext, &f, &b, &pb) != WF_OK ||
        wf_query_find_path(q, a, b, pa, pb, &f, path, PATH_POLYS_MAX, &r) != WF_OK ||
        wf_query_find_straight_path(q, pa, pb, path, r.count, points, STRAIGHT_MAX, 0, &n) !=
            WF_OK) {
        return -1.0f;
    }
    float length = 0.0f;
    for (uint32_t k = 1; k < n; ++k) {
        float dx = points[k].pos.x - points[k - 1].pos.x;
        float dy = points[k].pos.y - points[k - 1].pos.y;
        float dz = points[k].pos.z - points[k - 1].pos.z;
        length += sqrtf(dx * dx + dy * dy + dz * dz);
    }
    return length;
}

float scene_path_length(scene* s, wf_vec3 from, wf_vec3 to) {
    return path_length_on(s, s->query, from, to);
}

/// The second query, made on first use; NULL when it cannot be made.
static wf_query* aside_query(scene* s) {
    if (s->aside_query == NULL) {
        wf_query_desc qd;
        memset(&qd, 0, sizeof qd);
        qd.mesh = s->mesh;
        qd.max_nodes = PATH_NODES;
        qd.exact_nodes_per_node = WF_QUERY_NO_EXACT;
        if (wf_query_create(&qd, &s->aside_query) != WF_OK) {
            s->aside_query = NULL;
        }
    }
    return s->aside_query;
}

float scene_path_length_aside(scene* s, wf_vec3 from, wf_vec3 to) {
    wf_query* q = aside_query(s);
    return q == NULL ? -1.0f : path_length_on(s, q, from, to);
}

float scene_wall_near(scene* s, wf_vec3 p, float max, wf_vec3* hit, wf_vec3* normal) {
    wf_query* q = aside_query(s);
    const wf_query_filter f = wf_query_filter_defaults();
    const wf_vec3 ext = {1.0f, 2.0f, 1.0f};
    wf_poly_ref ref;
    wf_vec3 on;
    float d = -1.0f;
    if (q == NULL || wf_query_find_nearest_poly(q, p, ext, &f, &ref, &on) != WF_OK) {
        return -1.0f;
    }
    // WF_PARTIAL: the node pool ran out before max; the answer covers the
    // part searched (its nearest wall, or max when it held none).
    wf_status st = wf_query_find_distance_to_wall(q, ref, on, max, &f, &d, hit, normal);
    return st == WF_OK || st == WF_PARTIAL ? d : -1.0f;
}

float scene_wall_distance(scene* s, wf_vec3 p, float max) {
    wf_vec3 hit, normal;
    return scene_wall_near(s, p, max, &hit, &normal);
}

float scene_width_across(scene* s, wf_vec3 p, wf_vec3 dir, float max) {
    wf_query* q = aside_query(s);
    const wf_query_filter f = wf_query_filter_defaults();
    const wf_vec3 ext = {1.0f, 2.0f, 1.0f};
    wf_poly_ref ref;
    wf_vec3 on;
    float len = sqrtf(dir.x * dir.x + dir.z * dir.z);
    if (q == NULL || len < 1e-6f || wf_query_find_nearest_poly(q, p, ext, &f, &ref, &on) != WF_OK) {
        return -1.0f;
    }
    float width = 0.0f;
    for (int side = -1; side <= 1; side += 2) {
        wf_vec3 end = {on.x - (float)side * dir.z / len * max, on.y,
                       on.z + (float)side * dir.x / len * max};
        wf_raycast_hit h;
        wf_status st = wf_query_raycast(q, ref, on, end, &f, NULL, 0, &h);
        if (st != WF_OK && st != WF_PARTIAL) {
            return -1.0f;
        }
        width += (h.t <= 1.0f ? h.t : 1.0f) * max;
    }
    return width;
}

/// Random starts, each with a random target it can reach (a complete path).
static int place_random(scene* s, uint32_t n) {
    if (!alloc_agents(s, n)) {
        return SCENE_FAILED;
    }
    const wf_query_filter f = wf_query_filter_defaults();
    for (uint32_t i = 0; i < n; ++i) {
        bool found = false;
        for (uint32_t k = 0; k < TARGET_TRIES && !found; ++k) {
            wf_poly_ref ra, rb;
            if (wf_query_find_random_point(s->query, &f, &s->rng, &ra, &s->starts[i]) != WF_OK ||
                wf_query_find_random_point(s->query, &f, &s->rng, &rb, &s->targets[i]) != WF_OK) {
                break;
            }
            found = scene_path_length(s, s->starts[i], s->targets[i]) >= 0.0f;
        }
        if (!found) {
            fprintf(stderr, "wayfarer scenarios: %s: no reachable target for agent %u\n", s->name,
                    i);
            return SCENE_FAILED;
        }
    }
    s->starts_on_mesh = s->targets_on_mesh = n; // random points lie on the mesh
    return 0;
}

static int build_level(scene* s, const scene_settings* settings, bool demo) {
    if (demo) {
        demo_level level;
        if (demo_level_generate(settings->seed, &level) != 0) {
            fprintf(stderr, "wayfarer scenarios: out of memory\n");
            return SCENE_FAILED;
        }
        int rc = build_navmesh(s, settings, demo_level_geom(&level));
        demo_level_free(&level);
        s->retarget = true;
        s->seconds = (float)DEMO_FRAMES * SCENE_DT;
        s->note = "static demo level (doors open, no crates); a new random reachable target on "
                  "every arrival and on every crowd ARRIVED or BLOCKED event";
        return rc != 0 ? rc
                       : place_random(s, settings->agents > 0 ? settings->agents : DEMO_AGENTS);
    }
    const char* root = settings->testdata != NULL ? settings->testdata : "../shared/testdata";
    char path[1024];
    snprintf(path, sizeof path, "%s/recast/meshes/nav_test.obj", root);
    FILE* probe = fopen(path, "rb");
    if (probe == NULL) {
        size_t keep = sizeof s->skip_reason - sizeof "no test data at ";
        snprintf(s->skip_reason, sizeof s->skip_reason, "no test data at %.*s", (int)keep, path);
        return SCENE_SKIPPED;
    }
    fclose(probe);
    char* text = NULL;
    size_t size = 0;
    if (read_file(path, &text, &size) != 0) {
        return SCENE_FAILED;
    }
    wf_geom_data* geom = NULL;
    wf_status st = wf_geom_load_obj(text, size, &(wf_geom_load_desc){0}, &geom);
    free(text);
    if (st != WF_OK) {
        fprintf(stderr, "wayfarer scenarios: %s: %s\n", path, wf_status_string(st));
        return SCENE_FAILED;
    }
    int rc = build_navmesh(s, settings, wf_geom_data_view(geom));
    wf_geom_data_destroy(geom);
    return rc != 0 ? rc
                   : place_random(s, settings->agents > 0 ? settings->agents : NAV_TEST_AGENTS);
}

static int build_named(scene* s, const scene_settings* settings, tri_builder* t) {
    const char* n = s->name;
    if (strcmp(n, "nav_test500") == 0 || strcmp(n, "demo") == 0) {
        return build_level(s, settings, strcmp(n, "demo") == 0);
    }
    int rc;
    if (strcmp(n, "circle32") == 0 || strcmp(n, "circle128") == 0) {
        uint32_t count = strcmp(n, "circle32") == 0 ? 32u : 128u;
        rc = build_circle(s, t, settings->agents > 0 ? settings->agents : count);
    } else if (strcmp(n, "crossing") == 0) {
        rc = build_crossing(s, t);
    } else if (strncmp(n, "door_", 5) == 0) {
        bool two_way = strncmp(n, "door_2way_", 10) == 0;
        rc = build_door(s, t, (float)atof(n + 10), two_way);
    } else if (strcmp(n, "two_doors") == 0) {
        rc = build_two_doors(s, t);
    } else if (strcmp(n, "corridor") == 0) {
        rc = build_corridor(s, t);
    } else {
        rc = build_tjunction(s, t);
    }
    if (rc == 0 && t->failed) {
        fprintf(stderr, "wayfarer scenarios: out of memory\n");
        rc = SCENE_FAILED;
    }
    if (rc == 0) {
        wf_geom g = {.verts = t->verts,
                     .vert_count = t->vert_count,
                     .tris = t->tris,
                     .tri_count = t->tri_count};
        rc = build_navmesh(s, settings, g);
    }
    return rc != 0 ? rc : snap_all(s, settings);
}

int scene_build(const char* name, const scene_settings* settings, scene* out) {
    memset(out, 0, sizeof *out);
    for (uint32_t k = 0; k < scene_name_count && out->name == NULL; ++k) {
        out->name = strcmp(name, scene_names[k]) == 0 ? scene_names[k] : NULL;
    }
    if (out->name == NULL) {
        return SCENE_UNKNOWN;
    }
    out->seconds = SCENE_SECONDS;
    out->rng = wf_rng_make(settings->seed, 0x5ce4e5u);
    tri_builder t;
    memset(&t, 0, sizeof t);
    int rc = build_named(out, settings, &t);
    free(t.verts);
    free(t.tris);
    if (rc != 0) {
        char reason[sizeof out->skip_reason];
        memcpy(reason, out->skip_reason, sizeof reason);
        const char* keep = out->name;
        scene_free(out);
        out->name = keep;
        memcpy(out->skip_reason, reason, sizeof reason);
    }
    return rc;
}

void scene_free(scene* s) {
    wf_query_destroy(s->aside_query);
    wf_query_destroy(s->query);
    wf_mesh_destroy(s->mesh);
    wf_tilecache_destroy(s->tc);
    free(s->starts);
    free(s->targets);
    free(s->path_scratch);
    free(s->straight_scratch);
    memset(s, 0, sizeof *s);
}

int scene_export(const char* name, const char* base, const scene_settings* settings,
                 const char* dir, char* why, size_t why_size) {
    char obj[1024], points[1024];
    int n_obj = snprintf(obj, sizeof obj, "%s/%s.obj", dir, base);
    int n_points = snprintf(points, sizeof points, "%s/%s.points", dir, base);
    if (n_obj < 0 || n_points < 0 || (size_t)n_points >= sizeof points) {
        fprintf(stderr, "wayfarer scenarios: %s/%s.points: path longer than %zu bytes\n", dir, base,
                sizeof points - 1u);
        return SCENE_FAILED;
    }
    scene_settings with_obj = *settings;
    with_obj.export_obj = obj;
    scene s;
    int rc = scene_build(name, &with_obj, &s);
    if (rc == SCENE_SKIPPED && why != NULL && why_size > 0) {
        snprintf(why, why_size, "%s", s.skip_reason);
    }
    if (rc != 0) {
        return rc;
    }
    FILE* f = fopen(points, "w");
    bool bad = f == NULL;
    for (uint32_t k = 0; k < 2u * s.agent_count && !bad; ++k) {
        wf_vec3 p = k < s.agent_count ? s.starts[k] : s.targets[k - s.agent_count];
        bad = fprintf(f, "%.9g %.9g %.9g\n", (double)p.x, (double)p.y, (double)p.z) < 0;
    }
    bad = (f != NULL && fclose(f) != 0) || bad;
    if (bad) {
        fprintf(stderr, "wayfarer scenarios: cannot write %s\n", points);
        rc = SCENE_FAILED;
    }
    scene_free(&s);
    return rc;
}
