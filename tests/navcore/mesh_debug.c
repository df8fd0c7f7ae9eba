// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The debug draw API of the mesh: every polygon edge of a small grid
// reported with the right kind (wall, internal, tile portal, unlinked
// portal; layer seams on stacked squares), neighbours that point back across the same edge, and the
// statuses for short buffers, off-mesh links, stale and null refs.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_hooks.h"
#include "test_meshes.h"
#include "wayfarer/navmesh.h"

enum { CELLS = 2, TILES_X = 2, TILES_Z = 1, WIDTH = CELLS * TILES_X };

/// Cell (x, z) of the grid is blocked (no polygon).
static const uint8_t blocked[WIDTH * CELLS] = {0, 0, 0, 0, /* row z = 1 */ 0, 0, 0, 1};

static bool cell_open(int x, int z) {
    return x >= 0 && z >= 0 && x < WIDTH && z < CELLS && !blocked[z * WIDTH + x];
}

/// The cell across an edge of cell (cx, cz): the edge's midpoint pushed out.
static void cell_across(const wf_poly_edge* e, int cx, int cz, int* out_x, int* out_z) {
    float mx = 0.5f * (e->start.x + e->end.x), mz = 0.5f * (e->start.z + e->end.z);
    float dx = mx - ((float)cx + 0.5f), dz = mz - ((float)cz + 0.5f);
    *out_x = cx + (dx > 0.25f ? 1 : dx < -0.25f ? -1 : 0);
    *out_z = cz + (dz > 0.25f ? 1 : dz < -0.25f ? -1 : 0);
}

static bool on_tile_border(const wf_poly_edge* e) {
    float x = e->start.x;
    float z = e->start.z;
    bool vertical = e->start.x == e->end.x, horizontal = e->start.z == e->end.z;
    return (vertical && ((int)x % CELLS) == 0) || (horizontal && ((int)z % CELLS) == 0);
}

static void test_edges_by_kind(void** state) {
    (void)state;
    wf_mesh* mesh = test_mesh_grid(TILES_X, TILES_Z, CELLS, 1.0f, blocked, NULL, NULL);
    assert_non_null(mesh);
    uint32_t kinds[5] = {0};
    for (int z = 0; z < CELLS; ++z) {
        for (int x = 0; x < WIDTH; ++x) {
            if (!cell_open(x, z)) {
                continue;
            }
            wf_poly_ref ref = test_grid_poly(mesh, CELLS, (uint32_t)x, (uint32_t)z);
            wf_poly_edge edges[WF_MAX_VERTS_PER_POLY];
            uint32_t count = 0;
            assert_int_equal(
                wf_mesh_get_poly_edges(mesh, ref, edges, WF_MAX_VERTS_PER_POLY, &count), WF_OK);
            assert_int_equal(count, 4);
            for (uint32_t k = 0; k < count; ++k) {
                const wf_poly_edge* e = &edges[k];
                // Consecutive edges chain: end of one is start of the next.
                const wf_poly_edge* n = &edges[(k + 1u) % count];
                assert_true(e->end.x == n->start.x && e->end.z == n->start.z);
                int ax, az;
                cell_across(e, x, z, &ax, &az);
                bool border = on_tile_border(e);
                bool inside_world = ax >= 0 && az >= 0 && ax < WIDTH && az < CELLS;
                wf_poly_edge_kind want;
                if (border && !inside_world) {
                    want = WF_EDGE_UNLINKED_PORTAL; // a portal with no tile beyond
                } else if (!cell_open(ax, az)) {
                    want = WF_EDGE_WALL;
                } else {
                    want = border ? WF_EDGE_TILE_PORTAL : WF_EDGE_INTERNAL;
                }
                assert_int_equal(e->kind, want);
                kinds[e->kind]++;
                if (want == WF_EDGE_TILE_PORTAL || want == WF_EDGE_INTERNAL) {
                    assert_int_equal(e->neighbour_count, 1);
                    wf_poly_ref other = test_grid_poly(mesh, CELLS, (uint32_t)ax, (uint32_t)az);
                    assert_true(wf_poly_ref_equal(e->neighbour, other));
                    // The neighbour has the same edge, reversed, pointing back.
                    wf_poly_edge back[WF_MAX_VERTS_PER_POLY];
                    uint32_t back_count = 0;
                    assert_int_equal(wf_mesh_get_poly_edges(mesh, other, back,
                                                            WF_MAX_VERTS_PER_POLY, &back_count),
                                     WF_OK);
                    bool found = false;
                    for (uint32_t j = 0; j < back_count; ++j) {
                        found =
                            found || (back[j].start.x == e->end.x && back[j].start.z == e->end.z &&
                                      back[j].end.x == e->start.x && back[j].end.z == e->start.z &&
                                      wf_poly_ref_equal(back[j].neighbour, ref));
                    }
                    assert_true(found);
                } else {
                    assert_int_equal(e->neighbour_count, 0);
                    assert_true(wf_poly_ref_is_null(e->neighbour));
                }
                if (border && want != WF_EDGE_WALL) {
                    // The side the neighbouring tile lies on.
                    uint8_t side = ax > x   ? WF_SIDE_POS_X
                                   : az > z ? WF_SIDE_POS_Z
                                   : ax < x ? WF_SIDE_NEG_X
                                            : WF_SIDE_NEG_Z;
                    assert_int_equal(e->side, side);
                } else {
                    assert_int_equal(e->side, 0xff);
                }
            }
        }
    }
    // Every kind shows up in this grid (the blocked cell makes walls).
    for (int k = 0; k < 4; ++k) {
        assert_true(kinds[k] > 0);
    }
    wf_mesh_destroy(mesh);
}

/// Removing the neighbouring tile turns its portals into unlinked ones.
static void test_portal_unlinks(void** state) {
    (void)state;
    wf_mesh* mesh = test_mesh_grid(TILES_X, TILES_Z, CELLS, 1.0f, NULL, NULL, NULL);
    assert_non_null(mesh);
    wf_poly_ref ref = test_grid_poly(mesh, CELLS, CELLS - 1, 0);
    wf_poly_ref beyond = test_grid_poly(mesh, CELLS, CELLS, 0);
    wf_poly_edge edges[WF_MAX_VERTS_PER_POLY];
    uint32_t count = 0;
    assert_int_equal(wf_mesh_get_poly_edges(mesh, ref, edges, WF_MAX_VERTS_PER_POLY, &count),
                     WF_OK);
    uint32_t portal = count;
    for (uint32_t k = 0; k < count; ++k) {
        if (edges[k].kind == WF_EDGE_TILE_PORTAL && edges[k].side == WF_SIDE_POS_X) {
            portal = k;
        }
    }
    assert_true(portal < count);
    assert_true(wf_poly_ref_equal(edges[portal].neighbour, beyond));
    assert_int_equal(wf_mesh_remove_tile(mesh, wf_poly_ref_tile_ref(beyond), NULL, NULL), WF_OK);
    assert_int_equal(wf_mesh_get_poly_edges(mesh, ref, edges, WF_MAX_VERTS_PER_POLY, &count),
                     WF_OK);
    assert_int_equal(edges[portal].kind, WF_EDGE_UNLINKED_PORTAL);
    assert_int_equal(edges[portal].side, WF_SIDE_POS_X);
    assert_int_equal(edges[portal].neighbour_count, 0);
    // The removed tile's polygons are stale now; nothing is written.
    wf_poly_edge kept[WF_MAX_VERTS_PER_POLY];
    memset(kept, 0xab, sizeof kept);
    memcpy(edges, kept, sizeof edges);
    count = 77;
    assert_int_equal(wf_mesh_get_poly_edges(mesh, beyond, edges, WF_MAX_VERTS_PER_POLY, &count),
                     WF_ERR_STALE_REF);
    assert_int_equal(count, 77);
    assert_memory_equal(edges, kept, sizeof edges);
    wf_mesh_destroy(mesh);
}

/// Short buffers get the first edges and the full count; off-mesh links
/// and misuse are refused.
static void test_capacity_and_misuse(void** state) {
    (void)state;
    wf_mesh* mesh = test_mesh_grid(1, 1, CELLS, 1.0f, NULL, NULL, NULL);
    assert_non_null(mesh);
    wf_poly_ref ref = test_grid_poly(mesh, CELLS, 0, 0);
    wf_poly_edge full[WF_MAX_VERTS_PER_POLY], part[2];
    uint32_t count = 0;
    assert_int_equal(wf_mesh_get_poly_edges(mesh, ref, full, WF_MAX_VERTS_PER_POLY, &count), WF_OK);
    assert_int_equal(wf_mesh_get_poly_edges(mesh, ref, part, 2, &count), WF_ERR_CAPACITY);
    assert_int_equal(count, 4);
    assert_memory_equal(part, full, sizeof part);
    count = 0;
    assert_int_equal(wf_mesh_get_poly_edges(mesh, ref, NULL, 0, &count), WF_ERR_CAPACITY);
    assert_int_equal(count, 4);
    assert_int_equal(wf_mesh_get_poly_edges(mesh, (wf_poly_ref){0}, full, 6, &count),
                     WF_ERR_INVALID_ARG);
    wf_assert_fn* hook = wf_set_assert_hook(test_ignore_assert);
    assert_int_equal(wf_mesh_get_poly_edges(NULL, ref, full, 6, &count), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_mesh_get_poly_edges(mesh, ref, full, 6, NULL), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_mesh_get_poly_edges(mesh, ref, NULL, 6, &count), WF_ERR_INVALID_ARG);
    wf_set_assert_hook(hook);
    wf_mesh_destroy(mesh);
}

/// An off-mesh link has no edges.
static void test_offmesh_link(void** state) {
    (void)state;
    static const float verts[] = {0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0};
    static const uint16_t polys[WF_MAX_VERTS_PER_POLY] = {0, 1, 2, 3, WF_NULL_INDEX, WF_NULL_INDEX};
    wf_offmesh_link_desc link = {.start = {0.5f, 0, 0.5f}, .end = {0.6f, 0, 0.6f}, .radius = 0.5f};
    wf_tile_build_desc td = {.bmin = {0, 0, 0},
                             .bmax = {1, 1, 1},
                             .verts = verts,
                             .vert_count = 4,
                             .polys = polys,
                             .poly_count = 1,
                             .offmesh_links = &link,
                             .offmesh_link_count = 1};
    wf_mesh_desc md = {.tile_width = 1, .tile_depth = 1, .max_tiles = 1};
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    void* blob = NULL;
    size_t size = 0;
    assert_int_equal(wf_tile_build(&td, &blob, &size), WF_OK);
    wf_tile_ref tile;
    assert_int_equal(
        wf_mesh_add_tile(mesh, blob, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &tile), WF_OK);
    wf_poly_ref ref = wf_mesh_poly_ref(mesh, tile, 1);
    assert_true(wf_mesh_is_offmesh_link(mesh, ref));
    wf_poly_edge edges[WF_MAX_VERTS_PER_POLY];
    uint32_t count = 9;
    assert_int_equal(wf_mesh_get_poly_edges(mesh, ref, edges, WF_MAX_VERTS_PER_POLY, &count),
                     WF_ERR_WRONG_KIND);
    assert_int_equal(count, 9);
    // The ground polygon: four unlinked portals (every edge is on the tile bound).
    assert_int_equal(wf_mesh_get_poly_edges(mesh, wf_mesh_poly_ref(mesh, tile, 0), edges,
                                            WF_MAX_VERTS_PER_POLY, &count),
                     WF_OK);
    assert_int_equal(count, 4);
    for (uint32_t k = 0; k < count; ++k) {
        assert_int_equal(edges[k].kind, WF_EDGE_UNLINKED_PORTAL);
    }
    wf_mesh_destroy(mesh);
}

// One square as the tile of cell (0, 0) at a layer: x from x0 to x0 + 1,
// z 0..1, at height y (inside the 4 m tile, so its edges are walls).
static wf_tile_ref add_square_layer(wf_mesh* mesh, int32_t layer, float x0, float y) {
    const float verts[] = {x0, y, 0, x0, y, 1, x0 + 1, y, 1, x0 + 1, y, 0};
    const uint16_t polys[] = {0, 1, 2, 3, WF_NULL_INDEX, WF_NULL_INDEX};
    wf_tile_build_desc d;
    memset(&d, 0, sizeof d);
    d.layer = layer;
    d.bmin = wf_v3(0, -1, 0);
    d.bmax = wf_v3(4, 10, 4);
    d.verts = verts;
    d.vert_count = 4;
    d.polys = polys;
    d.poly_count = 1;
    d.walkable_climb = 0.5f;
    void* data = NULL;
    size_t size = 0;
    assert_int_equal(wf_tile_build(&d, &data, &size), WF_OK);
    wf_tile_ref t;
    assert_int_equal(
        wf_mesh_add_tile(mesh, data, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &t), WF_OK);
    return t;
}

/// Kinds of the edges of a one-polygon tile, counted.
static void count_kinds(const wf_mesh* mesh, wf_poly_ref ref, uint32_t kinds[5],
                        wf_poly_edge* out_seam) {
    wf_poly_edge edges[WF_MAX_VERTS_PER_POLY];
    uint32_t count = 0;
    assert_int_equal(wf_mesh_get_poly_edges(mesh, ref, edges, WF_MAX_VERTS_PER_POLY, &count),
                     WF_OK);
    memset(kinds, 0, 5 * sizeof kinds[0]);
    for (uint32_t k = 0; k < count; ++k) {
        kinds[edges[k].kind]++;
        if (edges[k].kind == WF_EDGE_LAYER_SEAM) {
            *out_seam = edges[k];
        }
    }
}

/// Two layers of one cell meeting along x = 2 (a step within climb) are
/// seamed there: that wall edge reports the other layer's polygon; a floor
/// far above stays unlinked, and removing the layer makes it a wall again.
static void test_layer_seam(void** state) {
    (void)state;
    wf_mesh_desc md = {.tile_width = 4, .tile_depth = 4, .max_tiles = 4};
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    wf_tile_ref l0 = add_square_layer(mesh, 0, 1, 0.0f);
    wf_tile_ref l1 = add_square_layer(mesh, 1, 2, 0.3f);
    wf_tile_ref l2 = add_square_layer(mesh, 2, 2, 3.0f);
    wf_poly_ref a = wf_mesh_poly_ref(mesh, l0, 0), b = wf_mesh_poly_ref(mesh, l1, 0);
    uint32_t kinds[5];
    wf_poly_edge seam;
    memset(&seam, 0, sizeof seam);
    // z = 0 lies on the tile's bound: an (unlinked) portal, not a wall.
    count_kinds(mesh, a, kinds, &seam);
    assert_int_equal(kinds[WF_EDGE_WALL], 2);
    assert_int_equal(kinds[WF_EDGE_UNLINKED_PORTAL], 1);
    assert_int_equal(kinds[WF_EDGE_LAYER_SEAM], 1);
    assert_true(seam.start.x == 2.0f && seam.end.x == 2.0f);
    assert_true(wf_poly_ref_equal(seam.neighbour, b));
    assert_int_equal(seam.neighbour_count, 1);
    assert_int_equal(seam.side, 0xff);
    count_kinds(mesh, b, kinds, &seam);
    assert_int_equal(kinds[WF_EDGE_LAYER_SEAM], 1);
    assert_true(wf_poly_ref_equal(seam.neighbour, a));
    count_kinds(mesh, wf_mesh_poly_ref(mesh, l2, 0), kinds, &seam);
    assert_int_equal(kinds[WF_EDGE_WALL], 3);
    assert_int_equal(kinds[WF_EDGE_LAYER_SEAM], 0);
    assert_int_equal(wf_mesh_remove_tile(mesh, l1, NULL, NULL), WF_OK);
    count_kinds(mesh, a, kinds, &seam);
    assert_int_equal(kinds[WF_EDGE_WALL], 3);
    assert_int_equal(kinds[WF_EDGE_LAYER_SEAM], 0);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edges_by_kind),       cmocka_unit_test(test_portal_unlinks),
        cmocka_unit_test(test_capacity_and_misuse), cmocka_unit_test(test_offmesh_link),
        cmocka_unit_test(test_layer_seam),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
