// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Pockets (mesh_pockets.c): a link marked as leading into a pocket leads
// into ground polygons of its tile that can be left only back through the
// link's own polygon, numbered [number, number + pocket_size), after tiles
// are added and removed in any order; and the default path search, which
// skips pockets without its goal, finds the same paths as without the
// marks (goals inside a pocket, starts inside one, a way past its door).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "navcore/mesh_internal.h"
#include "test_meshes.h"
#include "wayfarer/query.h"

enum { N = 8, W = 3 * N, MAX_SEEN = 3 * N * 3 * N };

/// The number a polygon carries (on any link not into a pocket; 0 if none).
static uint32_t number_of(const wf_mesh_tile* t, uint32_t p) {
    for (uint32_t k = t->first_link[p]; k != WF_NULL_LINK; k = t->links[k].next) {
        if (t->link_portals[k].pocket == 0) {
            return t->link_portals[k].number;
        }
    }
    return 0;
}

/// Checks every pocket mark of every live tile against a walk over all
/// links (any tile) from the neighbour, never through the link's polygon;
/// returns how many links are marked.
static uint32_t check_pockets(const wf_mesh* mesh) {
    uint32_t marked = 0;
    static uint64_t seen[MAX_SEEN];
    for (uint32_t s = 0; s < mesh->max_tiles; ++s) {
        const wf_mesh_tile* t = &mesh->tiles[s];
        if (!t->in_use) {
            continue;
        }
        wf_poly_ref base = wf_mesh_tile_base(mesh, t);
        for (uint32_t p = 0; p < t->header->poly_count; ++p) {
            for (uint32_t k = t->first_link[p]; k != WF_NULL_LINK; k = t->links[k].next) {
                const wf_link_portal* lp = &t->link_portals[k];
                if (lp->pocket == 0) {
                    continue;
                }
                marked++;
                uint32_t count = 0, head = 0;
                seen[count++] = t->links[k].ref;
                while (head < count) {
                    wf_poly_ref r = {seen[head++]};
                    const wf_mesh_tile* rt;
                    const wf_tile_poly* rp;
                    assert_int_equal(wf_mesh_resolve(mesh, r, &rt, &rp), WF_OK);
                    assert_ptr_equal(rt, t); // a pocket stays in its tile...
                    assert_int_equal(wf_poly_type(rp), WF_POLY_TYPE_GROUND);
                    uint32_t i = wf_tile_poly_index(rt, rp);
                    uint32_t n = number_of(t, i); // ... inside its numbers
                    assert_true(n >= lp->number && n < lp->number + lp->pocket_size);
                    for (uint32_t j = t->first_link[i]; j != WF_NULL_LINK; j = t->links[j].next) {
                        uint64_t to = t->links[j].ref;
                        bool known = to == (base.bits | p);
                        for (uint32_t m = 0; m < count && !known; ++m) {
                            known = seen[m] == to;
                        }
                        if (!known) {
                            assert_true(count < MAX_SEEN);
                            seen[count++] = to;
                        }
                    }
                }
                assert_int_equal(count, lp->pocket_size);
            }
        }
    }
    return marked;
}

/// A room of 4 x 4 cells in the centre tile, walled, its door one cell
/// wide at (11, 9); a dead-end strip (13..15, 4) off the open floor.
static void room_blocks(uint8_t* blocked) {
    memset(blocked, 0, W * W);
    for (uint32_t i = 9; i <= 14; ++i) {
        blocked[9 * W + i] = blocked[14 * W + i] = 1;
        blocked[i * W + 9] = blocked[i * W + 14] = 1;
    }
    blocked[9 * W + 11] = 0; // the door
    for (uint32_t x = 12; x <= 16; ++x) {
        blocked[3 * W + x] = blocked[5 * W + x] = 1;
    }
    blocked[4 * W + 16] = 1;
}

static wf_tile_ref add_tile(wf_mesh* mesh, uint32_t tx, uint32_t tz, const uint8_t* blocked) {
    size_t size = 0;
    void* data = test_grid_tile(tx, tz, 3, N, 1.0f, blocked, NULL, &mesh->allocator, &size);
    assert_non_null(data);
    wf_tile_ref ref;
    assert_int_equal(
        wf_mesh_add_tile(mesh, data, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &ref), WF_OK);
    return ref;
}

static void test_marks_follow_adds_and_removes(void** state) {
    (void)state;
    wf_mesh_desc d = {.tile_width = N, .tile_depth = N, .max_tiles = 16};
    d.logger.quiet = true;
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&d, &mesh), WF_OK);
    uint8_t blocked[W * W];
    room_blocks(blocked);
    const uint32_t order[9][2] = {{1, 1}, {0, 0}, {2, 2}, {1, 0}, {0, 1},
                                  {2, 1}, {1, 2}, {0, 2}, {2, 0}};
    wf_tile_ref refs[9];
    refs[0] = add_tile(mesh, 1, 1, blocked);
    // Alone, the centre tile's border cells lead nowhere: besides the
    // room, its floor is a pocket of itself here and there.
    assert_true(check_pockets(mesh) > 0);
    for (uint32_t i = 1; i < 9; ++i) {
        refs[i] = add_tile(mesh, order[i][0], order[i][1], blocked);
        check_pockets(mesh);
    }
    // The room (door and 16 cells) behind the cell before its door, and
    // the strip's three cells: at least these two marks, in tiles (1, 1)
    // and (1, 0).
    uint32_t all = check_pockets(mesh);
    assert_true(all >= 2);
    assert_int_equal(wf_mesh_remove_tile(mesh, refs[3], NULL, NULL), WF_OK);
    check_pockets(mesh);
    refs[3] = add_tile(mesh, 1, 0, blocked);
    assert_int_equal(check_pockets(mesh), all);
    assert_int_equal(wf_mesh_remove_tile(mesh, refs[0], NULL, NULL), WF_OK);
    check_pockets(mesh);
    refs[0] = add_tile(mesh, 1, 1, blocked);
    assert_int_equal(check_pockets(mesh), all);
    wf_mesh_destroy(mesh);
}

static wf_poly_ref poly_at(wf_query* q, const wf_query_filter* f, uint32_t x, uint32_t z,
                           wf_vec3* p) {
    wf_poly_ref r;
    assert_int_equal(wf_query_find_nearest_poly(q, wf_v3((float)x + 0.3f, 0, (float)z + 0.6f),
                                                wf_v3(0.2f, 1, 0.2f), f, &r, p),
                     WF_OK);
    return r;
}

/// Every pair of a set of cells, found with the marks and with them
/// cleared: the same corridors and costs.
static void test_paths_as_without_marks(void** state) {
    (void)state;
    uint8_t blocked[W * W];
    room_blocks(blocked);
    wf_mesh* mesh = test_mesh_grid(3, 3, N, 1.0f, blocked, NULL, NULL);
    assert_non_null(mesh);
    wf_query* q = NULL;
    assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = mesh, .max_nodes = 4096}, &q), WF_OK);
    wf_query_filter f = wf_query_filter_defaults();
    // Inside the room, its door, before it, beside the wall, in the strip,
    // far corners.
    static const uint32_t cells[][2] = {{12, 12}, {10, 13}, {11, 9}, {11, 8}, {15, 11},
                                        {13, 4},  {15, 4},  {12, 2}, {0, 0},  {23, 23},
                                        {2, 20},  {20, 12}, {8, 11}};
    enum { C = sizeof cells / sizeof cells[0] };
    wf_poly_ref refs[C];
    wf_vec3 pts[C];
    for (uint32_t i = 0; i < C; ++i) {
        refs[i] = poly_at(q, &f, cells[i][0], cells[i][1], &pts[i]);
    }
    static wf_poly_ref with[C][C][64];
    static wf_path_result with_r[C][C];
    for (int pass = 0; pass < 2; ++pass) {
        if (pass == 1) {
            assert_true(check_pockets(mesh) >= 2);
            for (uint32_t s = 0; s < mesh->max_tiles; ++s) {
                wf_mesh_tile* t = &mesh->tiles[s];
                for (uint32_t k = 0; t->in_use && k < t->header->max_link_count; ++k) {
                    t->link_portals[k].pocket = 0;
                }
            }
        }
        for (uint32_t a = 0; a < C; ++a) {
            for (uint32_t b = 0; b < C; ++b) {
                wf_poly_ref path[64];
                wf_path_result r;
                assert_int_equal(
                    wf_query_find_path(q, refs[a], refs[b], pts[a], pts[b], &f, path, 64, &r),
                    WF_OK);
                assert_int_equal(r.flags, 0);
                assert_true(path[r.count - 1u].bits == refs[b].bits);
                if (pass == 0) {
                    with_r[a][b] = r;
                    memcpy(with[a][b], path, sizeof path);
                } else {
                    assert_int_equal(r.count, with_r[a][b].count);
                    assert_memory_equal(&r.cost, &with_r[a][b].cost, sizeof r.cost);
                    assert_memory_equal(path, with[a][b], r.count * sizeof path[0]);
                }
            }
        }
    }
    // A goal that cannot be reached still gets the partial path (the
    // search then runs again without skipping).
    wf_poly_ref path[64];
    wf_path_result r;
    assert_int_equal(wf_mesh_set_poly_flags(mesh, refs[2], 0x2), WF_OK); // the door shut
    f.exclude_flags = 0x2;
    assert_int_equal(wf_query_find_path(q, refs[3], refs[0], pts[3], pts[0], &f, path, 64, &r),
                     WF_PARTIAL);
    assert_int_equal(r.flags, WF_PATH_PARTIAL);
    assert_true(r.count >= 1u && path[0].bits == refs[3].bits &&
                path[r.count - 1u].bits != refs[0].bits);
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_marks_follow_adds_and_removes),
        cmocka_unit_test(test_paths_as_without_marks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
