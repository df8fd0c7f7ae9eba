// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Landmark lower bounds of exact mode (navcore/exact_landmarks.c): the bound
// never exceeds the exact distance (random vertex / goal pairs on a mesh of
// rooms and doors, measured by exact searches without landmarks), paths
// with landmarks are as short as without, a changed mesh turns the table
// off unless the caller said it only loses area, and bad input; the bound
// also holds on tiles whose border vertices do not coincide (T-junctions)
// and where polygons touch at a corner only (pinches).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "navcore/exact_landmarks.h"
#include "navcore/query_internal.h"
#include "test_hooks.h"
#include "test_meshes.h"
#include "test_scenarios.h"
#include "wayfarer/query.h"
#include "wayfarer/rng.h"

#define SIDE 30u ///< cells per side
#define CELLS_PER_TILE 10u
#define MAX_CORRIDOR 4096u
#define MAX_POINTS 512u

/// Nine 9 x 9 rooms (walls on rows and columns 9 and 19, no outer wall)
/// joined by one door per wall segment, and a few pillars.
static uint8_t blocked[SIDE * SIDE];

static void make_rooms(uint64_t seed) {
    memset(blocked, 0, sizeof blocked);
    wf_rng rng = wf_rng_make(seed, 7);
    for (uint32_t i = 0; i < SIDE; ++i) {
        blocked[9 * SIDE + i] = blocked[19 * SIDE + i] = 1;
        blocked[i * SIDE + 9] = blocked[i * SIDE + 19] = 1;
    }
    for (uint32_t seg = 0; seg < 3; ++seg) {
        uint32_t lo = seg * 10u;
        // One door in each of the 12 wall segments.
        blocked[9 * SIDE + lo + wf_rng_next_u32(&rng) % 9u] = 0;
        blocked[19 * SIDE + lo + wf_rng_next_u32(&rng) % 9u] = 0;
        blocked[(lo + wf_rng_next_u32(&rng) % 9u) * SIDE + 9] = 0;
        blocked[(lo + wf_rng_next_u32(&rng) % 9u) * SIDE + 19] = 0;
    }
    for (int k = 0; k < 12; ++k) {
        uint32_t x = wf_rng_next_u32(&rng) % SIDE, z = wf_rng_next_u32(&rng) % SIDE;
        if (x % 10u != 9u && z % 10u != 9u && x % 10u != 0u && z % 10u != 0u) {
            blocked[z * SIDE + x] = 1; // a pillar, never next to a door
        }
    }
}

static wf_mesh* rooms_mesh(void) {
    wf_mesh* mesh = test_mesh_grid(SIDE / CELLS_PER_TILE, SIDE / CELLS_PER_TILE, CELLS_PER_TILE,
                                   1.0f, blocked, NULL, NULL);
    assert_non_null(mesh);
    return mesh;
}

static wf_query* make_query(const wf_mesh* mesh) {
    wf_query* q = NULL;
    assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = mesh, .max_nodes = 8192}, &q), WF_OK);
    return q;
}

/// Exact find_path then the straight path's XZ length; -1 when not WF_OK.
static double exact_length(wf_query* q, wf_poly_ref sr, wf_poly_ref gr, wf_vec3 sp, wf_vec3 gp) {
    static wf_poly_ref corridor[MAX_CORRIDOR];
    static wf_straight_point points[MAX_POINTS];
    wf_query_filter f = wf_query_filter_defaults();
    f.path_mode = WF_PATH_MODE_EXACT;
    wf_path_result r;
    if (wf_query_find_path(q, sr, gr, sp, gp, &f, corridor, MAX_CORRIDOR, &r) != WF_OK) {
        return -1.0;
    }
    uint32_t n = 0;
    assert_true(
        wf_query_find_straight_path(q, sp, gp, corridor, r.count, points, MAX_POINTS, 0, &n) >= 0);
    double length = 0.0;
    for (uint32_t i = 1; i < n; ++i) {
        double dx = (double)points[i].pos.x - points[i - 1].pos.x;
        double dz = (double)points[i].pos.z - points[i - 1].pos.z;
        length += sqrt(dx * dx + dz * dz);
    }
    return length;
}

static bool polygon_at(wf_query* q, wf_vec3 p, wf_poly_ref* ref, wf_vec3* at) {
    wf_query_filter f = wf_query_filter_defaults();
    return wf_query_find_nearest_poly(q, p, wf_v3(0.01f, 1.0f, 0.01f), &f, ref, at) == WF_OK &&
           ref->bits != 0;
}

static wf_vec3 random_cell_centre(wf_rng* rng) {
    for (;;) {
        uint32_t x = wf_rng_next_u32(rng) % SIDE, z = wf_rng_next_u32(rng) % SIDE;
        if (blocked[z * SIDE + x] == 0) {
            return wf_v3((float)x + 0.5f, 0.0f, (float)z + 0.5f);
        }
    }
}

/// An allocator half set (free without alloc): refused.
static void never_free(void* ptr, size_t size, size_t align, void* user) {
    (void)ptr;
    (void)size;
    (void)align;
    (void)user;
}

static wf_exact_landmarks* build(const wf_mesh* mesh, uint32_t count, bool after_changes) {
    wf_exact_landmarks* t = NULL;
    wf_exact_landmarks_desc d = {
        .mesh = mesh, .landmark_count = count, .valid_after_changes = after_changes};
    assert_int_equal(wf_exact_landmarks_build(&d, &t), WF_OK);
    assert_non_null(t);
    return t;
}

static void test_bound_never_exceeds_the_exact_distance(void** state) {
    (void)state;
    for (uint64_t seed = 1; seed <= 3; ++seed) {
        make_rooms(seed);
        wf_mesh* mesh = rooms_mesh();
        wf_exact_landmarks* t = build(mesh, 4, false);
        assert_true(wf_exact_landmarks_memory_bytes(t) > 0);
        wf_query* q = make_query(mesh); // no landmarks: the exact distances
        wf_rng rng = wf_rng_make(seed, 11);
        uint32_t checked = 0, useful = 0;
        for (int pair = 0; pair < 150; ++pair) {
            // A mesh vertex (a table point) and a random goal.
            uint32_t i = wf_rng_next_u32(&rng) % t->point_count;
            const float* pv = &t->points[(size_t)i * 3u];
            wf_vec3 goal = random_cell_centre(&rng);
            wf_poly_ref pr, gr;
            wf_vec3 pp, gp;
            assert_true(polygon_at(q, wf_v3(pv[0], pv[1], pv[2]), &pr, &pp));
            assert_true(polygon_at(q, goal, &gr, &gp));
            double exact = exact_length(q, pr, gr, pp, gp);
            if (exact < 0.0) {
                continue; // a pillar can wall a corner off
            }
            wf_exact_landmark_goal view;
            wf_exact_landmark_goal_begin(&view, t, mesh, gr, gp);
            assert_non_null(view.table);
            double p[3] = {pv[0], pv[1], pv[2]};
            float bound = wf_exact_landmark_bound(&view, p);
            if (bound > exact + 1e-5) {
                print_message("seed %llu: (%g, %g) to (%g, %g): bound %.6f > exact %.6f\n",
                              (unsigned long long)seed, (double)pv[0], (double)pv[2], (double)gp.x,
                              (double)gp.z, (double)bound, exact);
            }
            assert_true(bound <= exact + 1e-5);
            double euclid = hypot((double)pv[0] - gp.x, (double)pv[2] - gp.z);
            useful += bound > euclid + 0.5;
            checked++;
        }
        // The rooms' walls make the table worth having: it beats the
        // straight line by half a metre for a good share of the pairs.
        assert_true(checked >= 140);
        assert_true(useful >= checked / 5u);
        wf_query_destroy(q);
        wf_exact_landmarks_destroy(t);
        wf_mesh_destroy(mesh);
    }
}

/// Tiles 6 m wide, 3 x 3, in a checkerboard of fine (6 x 6 cells of 1 m)
/// and coarse (4 x 4 cells of 1.5 m) grids: along every tile border the
/// two sides' vertices do not coincide (1 m steps against 1.5 m), so a
/// corner of one tile lies inside an edge of the next (a T-junction).
/// About a fifth of the cells are blocked, so ways bend at corners on the
/// borders and run along them.
#define MIXED_TILES 3u
static uint8_t fine_blocked[MIXED_TILES * 6u * MIXED_TILES * 6u];
static uint8_t coarse_blocked[MIXED_TILES * 4u * MIXED_TILES * 4u];

/// Blocks about a fifth of one grid's cells, but none where polygons would
/// touch at a point only (two blocked cells corner to corner, the other two
/// free): the table keys points by position, and ways through such pinches
/// are not the search's. On tile borders fine cells only 1 and 4 along the
/// border may be blocked (their corners, 1, 2, 4 and 5 m along, lie inside
/// the coarse side's edges) and coarse cells all but the tiles' corner
/// ones, so no pinch forms across a border either (the fine cells at the
/// grids' common points, 0, 3 and 6 m along, stay free).
static void block_cells(uint8_t* cells, uint32_t n, wf_rng* rng, bool keep_pinches) {
    uint32_t side = MIXED_TILES * n;
    bool fine = n == 6u;
    for (uint32_t z = 0; z < side; ++z) {
        for (uint32_t x = 0; x < side; ++x) {
            uint32_t lx = x % n, lz = z % n;
            bool border_x = lx == 0u || lx == n - 1u, border_z = lz == 0u || lz == n - 1u;
            bool may =
                fine ? (!border_x || lz == 1u || lz == 4u) && (!border_z || lx == 1u || lx == 4u)
                     : !(border_x && border_z);
            cells[z * side + x] = (uint8_t)(wf_rng_next_u32(rng) % 5u == 0u && may);
        }
    }
    // A pinch freed can leave one next to it: again until none is left.
    for (bool freed = !keep_pinches; freed;) {
        freed = false;
        for (uint32_t z = 0; z + 1u < side; ++z) {
            for (uint32_t x = 0; x + 1u < side; ++x) {
                uint8_t* c = &cells[z * side + x];
                if (c[0] == c[side + 1u] && c[1] == c[side] && c[0] != c[1]) {
                    c[0] = c[1] = c[side] = c[side + 1u] = 0u; // a pinch: all four free
                    freed = true;
                }
            }
        }
    }
}

static wf_mesh* mixed_mesh(uint64_t seed, bool keep_pinches) {
    wf_rng rng = wf_rng_make(seed, 5);
    block_cells(fine_blocked, 6u, &rng, keep_pinches);
    block_cells(coarse_blocked, 4u, &rng, keep_pinches);
    wf_mesh_desc md;
    memset(&md, 0, sizeof md);
    md.tile_width = 6.0f;
    md.tile_depth = 6.0f;
    md.max_tiles = MIXED_TILES * MIXED_TILES + 4u;
    md.logger.quiet = true;
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    for (uint32_t tz = 0; tz < MIXED_TILES; ++tz) {
        for (uint32_t tx = 0; tx < MIXED_TILES; ++tx) {
            bool fine = (tx + tz) % 2u == 0u;
            size_t size = 0;
            void* data = test_grid_tile(tx, tz, MIXED_TILES, fine ? 6u : 4u, fine ? 1.0f : 1.5f,
                                        fine ? fine_blocked : coarse_blocked, NULL, NULL, &size);
            assert_non_null(data);
            wf_tile_ref ref;
            assert_int_equal(
                wf_mesh_add_tile(mesh, data, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &ref),
                WF_OK);
        }
    }
    return mesh;
}

/// The bound at every table point of mixed_mesh(seed) against the exact
/// distance to goals at the 8 landmarks (the bound is then the point's own
/// measured distance) and at 4 random points; returns the pairs checked.
static uint32_t check_mixed_mesh(uint64_t seed, bool keep_pinches) {
    uint32_t checked = 0;
    wf_mesh* mesh = mixed_mesh(seed, keep_pinches);
    wf_exact_landmarks* t = build(mesh, 8, false);
    wf_query* q = make_query(mesh);
    wf_rng rng = wf_rng_make(seed, 13);
    for (uint32_t goal = 0; goal < t->landmark_count + 4u; ++goal) {
        const float* l = t->landmarks[goal % t->landmark_count];
        wf_vec3 g = goal < t->landmark_count
                        ? wf_v3(l[0], l[1], l[2])
                        : wf_v3((float)(wf_rng_next_u32(&rng) % 1800u) * 0.01f, 0.0f,
                                (float)(wf_rng_next_u32(&rng) % 1800u) * 0.01f);
        wf_poly_ref gr;
        wf_vec3 gp;
        if (!polygon_at(q, g, &gr, &gp)) {
            continue; // a blocked cell
        }
        wf_exact_landmark_goal view;
        wf_exact_landmark_goal_begin(&view, t, mesh, gr, gp);
        assert_non_null(view.table);
        for (uint32_t i = 0; i < t->point_count; ++i) {
            const float* pv = &t->points[(size_t)i * 3u];
            wf_poly_ref pr;
            wf_vec3 pp;
            if (!polygon_at(q, wf_v3(pv[0], pv[1], pv[2]), &pr, &pp)) {
                continue;
            }
            double exact = exact_length(q, pr, gr, pp, gp);
            if (exact < 0.0) {
                continue; // walled off
            }
            double p[3] = {pv[0], pv[1], pv[2]};
            float bound = wf_exact_landmark_bound(&view, p);
            if (bound > exact + 1e-5) {
                print_message("seed %llu: (%g, %g) to (%g, %g): bound %.6f > exact %.6f\n",
                              (unsigned long long)seed, (double)pv[0], (double)pv[2], (double)gp.x,
                              (double)gp.z, (double)bound, exact);
            }
            assert_true(bound <= exact + 1e-5);
            checked++;
        }
    }
    wf_query_destroy(q);
    wf_exact_landmarks_destroy(t);
    wf_mesh_destroy(mesh);
    return checked;
}

/// On a mesh whose tile borders have T-junctions the shortest way to a
/// border vertex often runs along the border from a corner of the next
/// tile that lies inside a polygon edge, which no step of the measuring
/// search holds (a cone along an edge has no width); measured wrong, the
/// vertex's distance is too long and its bound too high.
static void test_bound_holds_where_tile_borders_have_t_junctions(void** state) {
    (void)state;
    uint32_t checked = 0;
    for (uint64_t seed = 1; seed <= 4; ++seed) {
        checked += check_mixed_mesh(seed, false);
    }
    assert_true(checked >= 1000u);
}

/// The same meshes with their pinches kept (blocked cells corner to corner:
/// polygons that touch at a vertex only). The search never passes a pinch,
/// so a distance measured to the pinch point on one side is no upper bound
/// on the other side, nor for the points beyond it.
static void test_bound_holds_where_polygons_touch_at_a_corner(void** state) {
    (void)state;
    uint32_t checked = 0;
    for (uint64_t seed = 1; seed <= 6; ++seed) {
        checked += check_mixed_mesh(seed, true);
    }
    assert_true(checked >= 1500u);
}

static void test_paths_are_as_short_with_landmarks(void** state) {
    (void)state;
    make_rooms(5);
    wf_mesh* mesh = rooms_mesh();
    wf_exact_landmarks* t = build(mesh, 8, false);
    wf_query* plain = make_query(mesh);
    wf_query* with = make_query(mesh);
    assert_int_equal(wf_query_set_exact_landmarks(with, t), WF_OK);
    wf_rng rng = wf_rng_make(5, 3);
    for (int pair = 0; pair < 200; ++pair) {
        wf_poly_ref sr, gr;
        wf_vec3 sp, gp;
        assert_true(polygon_at(plain, random_cell_centre(&rng), &sr, &sp));
        assert_true(polygon_at(plain, random_cell_centre(&rng), &gr, &gp));
        double a = exact_length(plain, sr, gr, sp, gp);
        double b = exact_length(with, sr, gr, sp, gp);
        assert_true(with->exact.landmarks.table == t);
        assert_true(fabs(a - b) <= 1e-5);
    }
    // Cleared: no table in the next search.
    assert_int_equal(wf_query_set_exact_landmarks(with, NULL), WF_OK);
    (void)exact_length(with, test_grid_poly(mesh, CELLS_PER_TILE, 0, 0),
                       test_grid_poly(mesh, CELLS_PER_TILE, 1, 0), wf_v3(0.5f, 0, 0.5f),
                       wf_v3(1.5f, 0, 0.5f));
    assert_null(with->exact.landmarks.table);
    wf_query_destroy(plain);
    wf_query_destroy(with);
    wf_exact_landmarks_destroy(t);
    wf_mesh_destroy(mesh);
}

#define ARENA_DIR WF_TESTDATA_DIR "/polyanya"

/// The Polyanya arena (merged polygons) cut into 7 m tiles (corners of one tile end inside
/// the edges of the next: the table must reach the vertices along those
/// edges too): every row stays within 1e-4 of its published optimum with
/// landmarks, and the bound holds at random vertex / goal pairs.
static void test_arena_rows_stay_optimal(void** state) {
    (void)state;
    FILE* probe = fopen(ARENA_DIR "/meshes/arena-merged.mesh", "rb");
    if (probe == NULL) {
        skip();
    }
    fclose(probe);
    size_t size;
    char* text = test_read_all(ARENA_DIR "/meshes/arena-merged.mesh", &size);
    assert_non_null(text);
    static arena_row rows[512];
    size_t count = test_read_arena_rows(ARENA_DIR "/expected/arena_euclidean.tsv", rows, 512);
    assert_int_equal(count, 160);
    wf_polyanya_import_desc d;
    memset(&d, 0, sizeof d);
    d.tile_size = 7.0f;
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_import_polyanya(&d, text, size, &mesh), WF_OK);
    free(text);
    wf_exact_landmarks* t = build(mesh, 8, false);
    wf_query* plain = make_query(mesh);
    wf_query* with = make_query(mesh);
    assert_int_equal(wf_query_set_exact_landmarks(with, t), WF_OK);
    for (size_t i = 0; i < count; ++i) {
        wf_poly_ref sr, gr;
        wf_vec3 sp, gp;
        assert_true(polygon_at(with, wf_v3(rows[i].sx, 0, rows[i].sy), &sr, &sp));
        assert_true(polygon_at(with, wf_v3(rows[i].gx, 0, rows[i].gy), &gr, &gp));
        double length = exact_length(with, sr, gr, sp, gp);
        assert_true(fabs(length - rows[i].euclidean) <= 1e-4);
    }
    wf_rng rng = wf_rng_make(3, 3);
    for (int pair = 0; pair < 600; ++pair) {
        const float* pv = &t->points[(size_t)(wf_rng_next_u32(&rng) % t->point_count) * 3u];
        const arena_row* row = &rows[wf_rng_next_u32(&rng) % count];
        wf_poly_ref pr, gr;
        wf_vec3 pp, gp;
        assert_true(polygon_at(plain, wf_v3(pv[0], pv[1], pv[2]), &pr, &pp));
        assert_true(polygon_at(plain, wf_v3(row->gx, 0, row->gy), &gr, &gp));
        double exact = exact_length(plain, pr, gr, pp, gp);
        if (exact < 0.0) {
            continue;
        }
        wf_exact_landmark_goal view;
        wf_exact_landmark_goal_begin(&view, t, mesh, gr, gp);
        double p[3] = {pv[0], pv[1], pv[2]};
        assert_true(wf_exact_landmark_bound(&view, p) <= exact + 1e-5);
    }
    wf_query_destroy(plain);
    wf_query_destroy(with);
    wf_exact_landmarks_destroy(t);
    wf_mesh_destroy(mesh);
}

/// Replaces tile (1, 1) by one with cell (15, 15) blocked too.
static void block_a_cell(wf_mesh* mesh) {
    wf_tile_ref tile;
    assert_int_equal(wf_mesh_find_tile(mesh, 1, 1, 0, &tile), WF_OK);
    assert_int_equal(wf_mesh_remove_tile(mesh, tile, NULL, NULL), WF_OK);
    blocked[15 * SIDE + 15] = 1;
    size_t size = 0;
    void* blob = test_grid_tile(1, 1, SIDE / CELLS_PER_TILE, CELLS_PER_TILE, 1.0f, blocked, NULL,
                                NULL, &size);
    assert_non_null(blob);
    wf_tile_ref added;
    assert_int_equal(
        wf_mesh_add_tile(mesh, blob, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &added),
        WF_OK);
}

static void test_a_changed_mesh_turns_the_table_off_unless_it_only_lost_area(void** state) {
    (void)state;
    for (int promise = 0; promise < 2; ++promise) {
        make_rooms(9);
        blocked[15 * SIDE + 15] = 0;
        wf_mesh* mesh = rooms_mesh();
        wf_exact_landmarks* t = build(mesh, 6, promise == 1);
        block_a_cell(mesh);
        wf_query* plain = make_query(mesh);
        wf_query* with = make_query(mesh);
        assert_int_equal(wf_query_set_exact_landmarks(with, t), WF_OK);
        wf_rng rng = wf_rng_make(9, 5);
        for (int pair = 0; pair < 100; ++pair) {
            wf_poly_ref sr, gr;
            wf_vec3 sp, gp;
            assert_true(polygon_at(plain, random_cell_centre(&rng), &sr, &sp));
            assert_true(polygon_at(plain, random_cell_centre(&rng), &gr, &gp));
            double a = exact_length(plain, sr, gr, sp, gp);
            double b = exact_length(with, sr, gr, sp, gp);
            assert_true(fabs(a - b) <= 1e-5);
            // Off after the change, unless promised only lost area.
            assert_true(promise ? with->exact.landmarks.table == t
                                : with->exact.landmarks.table == NULL);
        }
        wf_query_destroy(plain);
        wf_query_destroy(with);
        wf_exact_landmarks_destroy(t);
        wf_mesh_destroy(mesh);
    }
}

/// A floor 20 m wide and, beyond 7 m of solid, an island of 3 x 3 cells in
/// the far corner: the point farthest from the mean is the island's. A first
/// landmark there reaches nothing else, and every later one would be picked
/// among the points it reaches, so all landmarks would bound only the island.
static void test_landmarks_stand_on_the_largest_part(void** state) {
    (void)state;
    for (uint32_t z = 0; z < SIDE; ++z) {
        for (uint32_t x = 0; x < SIDE; ++x) {
            bool island = x >= 27 && z < 3;
            blocked[z * SIDE + x] = x >= 20 && !island;
        }
    }
    wf_mesh* mesh = rooms_mesh();
    wf_exact_landmarks* t = build(mesh, 4, false);
    for (uint32_t k = 0; k < t->landmark_count; ++k) {
        assert_true(t->landmarks[k][0] < 20.5f);
    }
    // Far apart on the floor, the bound is more than the straight line's
    // half: the landmarks measured the floor.
    wf_query* q = make_query(mesh);
    wf_poly_ref gr;
    wf_vec3 gp;
    assert_true(polygon_at(q, wf_v3(19.5f, 0.0f, 29.5f), &gr, &gp));
    wf_exact_landmark_goal goal;
    wf_exact_landmark_goal_begin(&goal, t, mesh, gr, gp);
    uint32_t corner = 0; // the table point nearest (0, 0)
    for (uint32_t i = 1; i < t->point_count; ++i) {
        const float* a = &t->points[(size_t)i * 3u];
        const float* b = &t->points[(size_t)corner * 3u];
        corner = a[0] + a[2] < b[0] + b[2] ? i : corner;
    }
    const float* c = &t->points[(size_t)corner * 3u];
    double from[3] = {c[0], c[1], c[2]};
    double straight =
        sqrt(((double)gp.x - c[0]) * (gp.x - c[0]) + ((double)gp.z - c[2]) * (gp.z - c[2]));
    assert_true(wf_exact_landmark_bound(&goal, from) > 0.5 * straight);
    wf_query_destroy(q);
    wf_exact_landmarks_destroy(t);
    wf_mesh_destroy(mesh);
}

static void test_bad_input_is_refused(void** state) {
    (void)state;
    make_rooms(2);
    wf_mesh* mesh = rooms_mesh();
    wf_mesh* other = rooms_mesh();
    wf_assert_fn* prev = wf_set_assert_hook(test_ignore_assert);
    wf_exact_landmarks* sentinel = (wf_exact_landmarks*)(uintptr_t)0x10;
    wf_exact_landmarks* out = sentinel;
    wf_exact_landmarks_desc d = {.mesh = mesh, .landmark_count = 4};
    assert_int_equal(wf_exact_landmarks_build(NULL, &out), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_exact_landmarks_build(&d, NULL), WF_ERR_INVALID_ARG);
    d.landmark_count = 0;
    assert_int_equal(wf_exact_landmarks_build(&d, &out), WF_ERR_INVALID_ARG);
    d.landmark_count = WF_EXACT_MAX_LANDMARKS + 1u;
    assert_int_equal(wf_exact_landmarks_build(&d, &out), WF_ERR_INVALID_ARG);
    d.landmark_count = 4;
    d.mesh = NULL;
    assert_int_equal(wf_exact_landmarks_build(&d, &out), WF_ERR_INVALID_ARG);
    d.mesh = mesh;
    d.allocator.alloc = NULL;
    d.allocator.free = never_free;
    assert_int_equal(wf_exact_landmarks_build(&d, &out), WF_ERR_INVALID_ARG);
    d.allocator.free = NULL;
    assert_true(out == sentinel); // untouched
    wf_set_assert_hook(prev);

    // An empty mesh has nothing to measure.
    wf_mesh* empty = NULL;
    wf_mesh_desc md = {.tile_width = 10.0f, .tile_depth = 10.0f, .max_tiles = 4};
    assert_int_equal(wf_mesh_create(&md, &empty), WF_OK);
    d = (wf_exact_landmarks_desc){.mesh = empty, .landmark_count = 2};
    assert_int_equal(wf_exact_landmarks_build(&d, &out), WF_ERR_NOT_FOUND);
    assert_true(out == sentinel);

    // Setting: no query, or a table of another mesh.
    wf_exact_landmarks* t = build(mesh, 2, false);
    wf_query* q = make_query(other);
    prev = wf_set_assert_hook(test_ignore_assert);
    assert_int_equal(wf_query_set_exact_landmarks(NULL, t), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_set_exact_landmarks(q, t), WF_ERR_INVALID_ARG);
    wf_set_assert_hook(prev);
    assert_null(q->exact_landmarks); // untouched
    assert_int_equal(wf_exact_landmarks_memory_bytes(NULL), 0);
    wf_exact_landmarks_destroy(NULL);
    wf_query_destroy(q);
    wf_exact_landmarks_destroy(t);
    wf_mesh_destroy(empty);
    wf_mesh_destroy(other);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bound_never_exceeds_the_exact_distance),
        cmocka_unit_test(test_bound_holds_where_tile_borders_have_t_junctions),
        cmocka_unit_test(test_bound_holds_where_polygons_touch_at_a_corner),
        cmocka_unit_test(test_paths_are_as_short_with_landmarks),
        cmocka_unit_test(test_arena_rows_stay_optimal),
        cmocka_unit_test(test_a_changed_mesh_turns_the_table_off_unless_it_only_lost_area),
        cmocka_unit_test(test_landmarks_stand_on_the_largest_part),
        cmocka_unit_test(test_bad_input_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
