// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The links' portal records (wf_link_portal) the default path search reads
// instead of working portals out per relaxation: after tiles are added in
// any order, removed and added again, every record holds what
// wf_mesh_portal_points gives for its polygon pair, bit for bit, and marks
// exactly the links that repeat an earlier link to the same ground
// neighbour. Checked on grid tiles and on a Polyanya mesh cut into tiles
// (edges split at tile borders; skipped without the test data).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "navcore/mesh_internal.h"
#include "test_files.h"
#include "test_meshes.h"

enum { N = 4 }; // cells per grid tile side

/// Checks every record of every live tile; returns how many links (and
/// adds the repeated ones to *repeats).
static uint32_t check_records(const wf_mesh* mesh, uint32_t* repeats) {
    uint32_t links = 0;
    for (uint32_t s = 0; s < mesh->max_tiles; ++s) {
        const wf_mesh_tile* t = &mesh->tiles[s];
        if (!t->in_use) {
            continue;
        }
        assert_non_null(t->link_portals);
        wf_poly_ref base = wf_mesh_tile_base(mesh, t);
        for (uint32_t p = 0; p < t->header->poly_count; ++p) {
            const wf_tile_poly* poly = &t->polys[p];
            wf_poly_ref from = {base.bits | p};
            for (uint32_t k = t->first_link[p]; k != WF_NULL_LINK; k = t->links[k].next) {
                links++;
                wf_poly_ref to = {t->links[k].ref};
                const wf_mesh_tile* to_tile;
                const wf_tile_poly* to_poly;
                assert_int_equal(wf_mesh_resolve(mesh, to, &to_tile, &to_poly), WF_OK);
                bool ground = wf_poly_type(poly) == WF_POLY_TYPE_GROUND &&
                              wf_poly_type(to_poly) == WF_POLY_TYPE_GROUND;
                bool earlier = false;
                for (uint32_t j = t->first_link[p]; j != k; j = t->links[j].next) {
                    earlier |= t->links[j].ref == to.bits;
                }
                const wf_link_portal* lp = &t->link_portals[k];
                assert_int_equal(lp->repeat != 0, ground && earlier);
                if (lp->repeat != 0) {
                    (*repeats)++;
                    continue; // the search never reads a repeated link's portal
                }
                wf_vec3 l, r;
                if (ground) {
                    assert_int_equal(
                        wf_mesh_portal_points(mesh, from, t, poly, to, to_tile, to_poly, &l, &r),
                        WF_OK);
                } else {
                    wf_mesh_link_portal(from, t, poly, &t->links[k], to_tile, to_poly, &l, &r);
                }
                assert_memory_equal(lp->left, &l, sizeof lp->left);
                assert_memory_equal(lp->right, &r, sizeof lp->right);
            }
        }
    }
    return links;
}

static wf_tile_ref add_grid_tile(wf_mesh* mesh, uint32_t tx, uint32_t tz, const uint8_t* blocked) {
    size_t size = 0;
    void* data = test_grid_tile(tx, tz, 3, N, 1.0f, blocked, NULL, &mesh->allocator, &size);
    assert_non_null(data);
    wf_tile_ref ref;
    assert_int_equal(
        wf_mesh_add_tile(mesh, data, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &ref), WF_OK);
    return ref;
}

static void test_grid_records_follow_adds_and_removes(void** state) {
    (void)state;
    wf_mesh_desc d = {.tile_width = N, .tile_depth = N, .max_tiles = 16};
    d.logger.quiet = true;
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&d, &mesh), WF_OK);
    uint8_t blocked[3 * N * 3 * N] = {0};
    blocked[5 * 3 * N + 5] = 1; // a hole in the centre tile
    blocked[2 * 3 * N + 7] = 1;
    // Out of order, so links into a tile come both before and after it.
    const uint32_t order[9][2] = {{1, 1}, {0, 0}, {2, 2}, {1, 0}, {0, 1},
                                  {2, 1}, {1, 2}, {0, 2}, {2, 0}};
    wf_tile_ref refs[9];
    uint32_t repeats = 0;
    for (uint32_t i = 0; i < 9; ++i) {
        refs[i] = add_grid_tile(mesh, order[i][0], order[i][1], blocked);
        assert_true(check_records(mesh, &repeats) > 0);
    }
    // The centre tile out and back in (a new generation), then a corner.
    assert_int_equal(wf_mesh_remove_tile(mesh, refs[0], NULL, NULL), WF_OK);
    check_records(mesh, &repeats);
    refs[0] = add_grid_tile(mesh, 1, 1, blocked);
    check_records(mesh, &repeats);
    assert_int_equal(wf_mesh_remove_tile(mesh, refs[1], NULL, NULL), WF_OK);
    check_records(mesh, &repeats);
    // The records live in the blob's run-time section, one per link of
    // its capacity (nothing allocated when a tile is added).
    refs[1] = add_grid_tile(mesh, 0, 0, blocked);
    const wf_mesh_tile* t;
    assert_int_equal(wf_mesh_resolve_tile(mesh, refs[1], &t), WF_OK);
    const unsigned char* first = (const unsigned char*)t->link_portals;
    const unsigned char* end = first + sizeof(wf_link_portal) * t->header->max_link_count;
    assert_true(first >= t->data + t->header->runtime_offset && end <= t->data + t->size);
    check_records(mesh, &repeats);
    wf_mesh_destroy(mesh);
}

static void test_polyanya_tiles_split_edges(void** state) {
    (void)state;
    size_t size = 0;
    char* text = test_read_file(WF_TESTDATA_DIR "/polyanya/meshes/arena.mesh", &size);
    if (text == NULL) {
        print_message("no test data at %s: skipped\n", WF_TESTDATA_DIR "/polyanya");
        skip();
    }
    wf_polyanya_import_desc d;
    memset(&d, 0, sizeof d);
    d.tile_size = 16.0f; // cuts polygons at tile borders: split and partial edges
    d.logger.quiet = true;
    wf_mesh* mesh = NULL;
    wf_status s = wf_mesh_import_polyanya(&d, text, size, &mesh);
    free(text);
    assert_true(s == WF_OK || s == WF_PARTIAL);
    uint32_t repeats = 0;
    assert_true(check_records(mesh, &repeats) > 0);
    wf_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grid_records_follow_adds_and_removes),
        cmocka_unit_test(test_polyanya_tiles_split_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
