// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Layer -> navmesh tile on hand-drawn layers: exact coverage, holes and
// concave corners, areas, heights, dropped islands, split edges, portals
// between tiles, scratch and output capacity, determinism, bad input.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "navcore/arena.h"
#include "navcore/geometry.h"
#include "navcore/tile_format.h"
#include "test_hooks.h"
#include "tilecache/layer_to_tile.h"
#include "wayfarer/query.h"

#define MAX_SIDE 64
#define CS 0.5f
#define CH 0.25f
#define BLOB_CAPACITY (2u << 20) // hostile layers: links carry portal records (28 bytes each)

/* ---------------------------------------------------------------------------
 * Hand-drawn layers: '#' no cell, '.' height 0 area 0, '0'..'9' that
 * height (area 0), 'a'..'z' area 1.. at height 0. Row r of the picture is
 * z = r. Neighbours connect when both are cells with heights within climb.
 */

typedef struct test_layer {
    wf_layer layer;
    uint8_t heights[MAX_SIDE * MAX_SIDE];
    uint8_t areas[MAX_SIDE * MAX_SIDE];
    uint8_t cons[MAX_SIDE * MAX_SIDE];
} test_layer;

static void connect_cells(test_layer* t, int climb) {
    wf_layer* l = &t->layer;
    for (uint32_t z = 0; z < l->depth; ++z) {
        for (uint32_t x = 0; x < l->width; ++x) {
            uint32_t i = z * l->width + x;
            t->cons[i] = 0;
            if (t->areas[i] == WF_AREA_NULL) {
                continue;
            }
            for (int d = 0; d < 4; ++d) {
                int nx = (int)x + wf_dir_dx[d], nz = (int)z + wf_dir_dz[d];
                if (nx < 0 || nz < 0 || nx >= (int)l->width || nz >= (int)l->depth) {
                    continue;
                }
                uint32_t j = (uint32_t)nz * l->width + (uint32_t)nx;
                int step = abs((int)t->heights[i] - (int)t->heights[j]);
                if (t->areas[j] != WF_AREA_NULL && step <= climb) {
                    t->cons[i] |= (uint8_t)(1u << d);
                }
            }
        }
    }
}

static void init_layer(test_layer* t, uint32_t width, uint32_t depth, int32_t tile_x,
                       int32_t tile_z) {
    memset(t, 0, sizeof *t);
    wf_layer* l = &t->layer;
    l->tile_x = tile_x;
    l->tile_z = tile_z;
    l->width = width;
    l->depth = depth;
    l->cs = CS;
    l->ch = CH;
    l->bmin[0] = (float)tile_x * (float)width * CS;
    l->bmin[1] = 0.0f;
    l->bmin[2] = (float)tile_z * (float)depth * CS;
    l->bmax[0] = l->bmin[0] + (float)width * CS;
    l->bmax[1] = 10.0f;
    l->bmax[2] = l->bmin[2] + (float)depth * CS;
    l->heights = t->heights;
    l->areas = t->areas;
    l->cons = t->cons;
}

static void draw_layer(test_layer* t, const char* const* rows, uint32_t depth, int32_t tile_x,
                       int32_t tile_z) {
    uint32_t width = (uint32_t)strlen(rows[0]);
    init_layer(t, width, depth, tile_x, tile_z);
    uint16_t hmax = 0;
    for (uint32_t z = 0; z < depth; ++z) {
        assert_int_equal(strlen(rows[z]), width);
        for (uint32_t x = 0; x < width; ++x) {
            char c = rows[z][x];
            uint32_t i = z * width + x;
            t->heights[i] = 0;
            t->areas[i] = 0;
            if (c == '#') {
                t->heights[i] = WF_LAYER_EMPTY;
                t->areas[i] = WF_AREA_NULL;
            } else if (c >= '0' && c <= '9') {
                t->heights[i] = (uint8_t)(c - '0');
            } else if (c >= 'a' && c <= 'z') {
                t->areas[i] = (uint8_t)(1 + c - 'a');
            }
            if (t->areas[i] != WF_AREA_NULL && t->heights[i] > hmax) {
                hmax = t->heights[i];
            }
        }
    }
    t->layer.hmax = hmax;
    connect_cells(t, 1);
}

static bool cell_walkable(const test_layer* t, uint32_t x, uint32_t z) {
    return t->areas[z * t->layer.width + x] != WF_AREA_NULL;
}

static wf_layer_tile_params default_params(void) {
    wf_layer_tile_params p;
    memset(&p, 0, sizeof p);
    p.walkable_height = 2.0f;
    p.walkable_radius = 0.6f;
    p.walkable_climb = 0.9f;
    p.max_simplification_error = 1.3f;
    p.max_verts_per_poly = 6;
    return p;
}

/// A 16-byte aligned blob buffer and a scratch arena of the documented size.
typedef struct builder {
    unsigned char* blob;
    size_t size;
    void* scratch_memory;
    wf_arena scratch;
} builder;

static void builder_init(builder* b, uint32_t width, uint32_t depth) {
    b->blob = aligned_alloc(16, BLOB_CAPACITY);
    assert_non_null(b->blob);
    b->size = 0;
    size_t bytes = wf_layer_tile_scratch_size(width, depth);
    assert_true(bytes > 0);
    b->scratch_memory = malloc(bytes);
    assert_non_null(b->scratch_memory);
    wf_arena_init(&b->scratch, b->scratch_memory, bytes);
}

static void builder_free(builder* b) {
    free(b->blob);
    free(b->scratch_memory);
}

static wf_status build(builder* b, test_layer* t, const wf_layer_tile_params* p) {
    wf_status s = wf_layer_build_tile(&t->layer, p, &b->scratch, b->blob, BLOB_CAPACITY, &b->size);
    assert_int_equal(b->scratch.used, 0); // scratch handed back
    if (s == WF_OK) {
        assert_int_equal(wf_tile_validate(b->blob, b->size), WF_OK);
    }
    return s;
}

/* ---------------------------------------------------------------------------
 * Reading a blob
 */

static const wf_tile_header* header(const builder* b) { return (const wf_tile_header*)b->blob; }

static const wf_tile_poly* polys(const builder* b) {
    return (const wf_tile_poly*)(b->blob + header(b)->polys_offset);
}

static wf_vec3 vertex(const builder* b, uint32_t i) {
    const float* v = (const float*)(b->blob + header(b)->verts_offset) + 3u * i;
    return wf_v3(v[0], v[1], v[2]);
}

static uint32_t poly_verts(const builder* b, uint32_t p, wf_vec3* out) {
    const wf_tile_poly* poly = &polys(b)[p];
    for (uint32_t k = 0; k < poly->vert_count; ++k) {
        out[k] = vertex(b, poly->verts[k]);
    }
    return poly->vert_count;
}

static float poly_area(const wf_vec3* v, uint32_t n) {
    float a2 = 0.0f;
    for (uint32_t i = 1; i + 1 < n; ++i) {
        a2 += wf_v2_triangle_area2(v[0], v[i], v[i + 1]);
    }
    return 0.5f * a2;
}

static float total_area(const builder* b) {
    float sum = 0.0f;
    for (uint32_t p = 0; p < header(b)->poly_count; ++p) {
        wf_vec3 v[WF_MAX_VERTS_PER_POLY];
        sum += poly_area(v, poly_verts(b, p, v));
    }
    return sum;
}

/// Every polygon has 3..max vertices, counter-clockwise, convex (straight
/// angles allowed), and a positive area.
static void check_polys_convex(const builder* b, uint32_t max_verts) {
    for (uint32_t p = 0; p < header(b)->poly_count; ++p) {
        wf_vec3 v[WF_MAX_VERTS_PER_POLY];
        uint32_t n = poly_verts(b, p, v);
        assert_true(n >= 3 && n <= max_verts);
        assert_true(poly_area(v, n) > 0.0f);
        for (uint32_t i = 0; i < n; ++i) {
            assert_true(wf_v2_triangle_area2(v[i], v[(i + 1) % n], v[(i + 2) % n]) >= -1e-6f);
        }
    }
}

static bool on_tile_bound(const builder* b, wf_vec3 a, wf_vec3 c) {
    const wf_tile_header* h = header(b);
    return (a.x == h->bmin[0] && c.x == h->bmin[0]) || (a.x == h->bmax[0] && c.x == h->bmax[0]) ||
           (a.z == h->bmin[2] && c.z == h->bmin[2]) || (a.z == h->bmax[2] && c.z == h->bmax[2]);
}

/// Edges on the tile's bounds are portals, and no other edge is.
static void check_portals(const builder* b) {
    for (uint32_t p = 0; p < header(b)->poly_count; ++p) {
        const wf_tile_poly* poly = &polys(b)[p];
        for (uint32_t k = 0; k < poly->vert_count; ++k) {
            wf_vec3 a = vertex(b, poly->verts[k]);
            wf_vec3 c = vertex(b, poly->verts[(k + 1) % poly->vert_count]);
            bool portal = (poly->neighbours[k] & WF_PORTAL_EDGE) != 0;
            assert_int_equal(portal, on_tile_bound(b, a, c));
        }
    }
}

/// Each walkable cell on the tile's edge has its outer side on a portal
/// edge: the tile connects to its neighbours all along its walkable rim.
static void check_rim_portals(const builder* b, const test_layer* t) {
    const wf_layer* l = &t->layer;
    for (uint32_t z = 0; z < l->depth; ++z) {
        for (uint32_t x = 0; x < l->width; ++x) {
            if (!cell_walkable(t, x, z)) {
                continue;
            }
            for (int d = 0; d < 4; ++d) {
                int nx = (int)x + wf_dir_dx[d], nz = (int)z + wf_dir_dz[d];
                if (nx >= 0 && nz >= 0 && nx < (int)l->width && nz < (int)l->depth) {
                    continue;
                }
                // Midpoint of the cell's side on the tile's edge.
                wf_vec3 m =
                    wf_v3(l->bmin[0] + ((float)x + 0.5f + 0.5f * (float)wf_dir_dx[d]) * CS, 0.0f,
                          l->bmin[2] + ((float)z + 0.5f + 0.5f * (float)wf_dir_dz[d]) * CS);
                bool found = false;
                for (uint32_t p = 0; p < header(b)->poly_count && !found; ++p) {
                    const wf_tile_poly* poly = &polys(b)[p];
                    for (uint32_t k = 0; k < poly->vert_count && !found; ++k) {
                        wf_vec3 a = vertex(b, poly->verts[k]);
                        wf_vec3 c = vertex(b, poly->verts[(k + 1) % poly->vert_count]);
                        float t_along = 0.0f;
                        found = (poly->neighbours[k] & WF_PORTAL_EDGE) &&
                                wf_dist_point_segment_sq_2d(m, a, c, &t_along) < 1e-8f;
                    }
                }
                assert_true(found);
            }
        }
    }
}

/// Polygons containing a point: strictly inside, or inside or on the border.
static uint32_t covering(const builder* b, float x, float z, bool strict) {
    uint32_t count = 0;
    wf_vec3 pt = wf_v3(x, 0.0f, z);
    for (uint32_t p = 0; p < header(b)->poly_count; ++p) {
        wf_vec3 v[WF_MAX_VERTS_PER_POLY];
        uint32_t n = poly_verts(b, p, v);
        bool in = true;
        for (uint32_t i = 0, j = n - 1; i < n && in; j = i++) {
            float a2 = wf_v2_triangle_area2(v[j], v[i], pt);
            in = strict ? a2 > 1e-6f : a2 >= -1e-6f;
        }
        count += in ? 1u : 0u;
    }
    return count;
}

/// Every walkable cell's centre lies in a polygon and strictly inside at
/// most one; no other centre lies in any: the polygons are the walkable
/// cells, nothing more (on shapes whose walls simplification keeps).
static void check_exact_cover(const builder* b, const test_layer* t) {
    const wf_layer* l = &t->layer;
    for (uint32_t z = 0; z < l->depth; ++z) {
        for (uint32_t x = 0; x < l->width; ++x) {
            float cx = l->bmin[0] + ((float)x + 0.5f) * CS;
            float cz = l->bmin[2] + ((float)z + 0.5f) * CS;
            if (cell_walkable(t, x, z)) {
                assert_true(covering(b, cx, cz, false) >= 1u);
                assert_true(covering(b, cx, cz, true) <= 1u);
            } else {
                assert_int_equal(covering(b, cx, cz, true), 0u);
            }
        }
    }
}

/// Polygons reachable from polygon 0 through shared edges.
static uint32_t connected_polys(const builder* b) {
    uint32_t n = header(b)->poly_count;
    uint8_t seen[1024] = {0};
    uint32_t stack[1024];
    assert_true(n <= 1024);
    uint32_t top = 0, reached = 1;
    stack[top++] = 0;
    seen[0] = 1;
    while (top > 0) {
        const wf_tile_poly* p = &polys(b)[stack[--top]];
        for (uint32_t k = 0; k < p->vert_count; ++k) {
            uint16_t nb = p->neighbours[k];
            if (nb != 0 && !(nb & WF_PORTAL_EDGE) && !seen[nb - 1u]) {
                seen[nb - 1u] = 1;
                stack[top++] = nb - 1u;
                reached++;
            }
        }
    }
    return reached;
}

/* ---------------------------------------------------------------------------
 * Shapes
 */

static void test_flat_square_is_one_quad(void** state) {
    (void)state;
    static const char* const rows[] = {"........", "........", "........", "........",
                                       "........", "........", "........", "........"};
    test_layer t;
    draw_layer(&t, rows, 8, 0, 0);
    builder b;
    builder_init(&b, 8, 8);
    wf_layer_tile_params p = default_params();
    assert_int_equal(build(&b, &t, &p), WF_OK);
    // One region whose outline keeps only the four corners: two triangles
    // merged into one quad.
    const wf_tile_header* h = header(&b);
    assert_int_equal(h->poly_count, 1);
    assert_int_equal(h->vert_count, 4);
    assert_float_equal(total_area(&b), 64.0f * CS * CS, 1e-5f);
    assert_true(h->bmin[0] == 0.0f && h->bmin[2] == 0.0f);
    assert_true(h->bmax[0] == 8.0f * CS && h->bmax[2] == 8.0f * CS);
    assert_true(h->bmin[1] <= 0.0f && h->bmax[1] >= 0.0f);
    for (uint32_t i = 0; i < h->vert_count; ++i) {
        assert_float_equal(vertex(&b, i).y, 0.0f, 0.0f);
    }
    check_polys_convex(&b, 6);
    check_portals(&b);
    check_exact_cover(&b, &t);
    check_rim_portals(&b, &t);
    assert_int_equal(polys(&b)[0].flags, 1);
    assert_int_equal(wf_poly_area(&polys(&b)[0]), 0);
    assert_true(h->walkable_height == 2.0f && h->walkable_climb == 0.9f);

    // The mesh takes it as is.
    counting_allocator counter;
    counting_allocator_init(&counter);
    wf_mesh_desc md = {.tile_width = 8.0f * CS,
                       .tile_depth = 8.0f * CS,
                       .allocator = counting_allocator_hooks(&counter)};
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    wf_tile_ref tile;
    assert_int_equal(wf_mesh_add_tile(mesh, b.blob, b.size, 0, (wf_tile_ref){0}, &tile), WF_OK);
    wf_tile_info info;
    assert_int_equal(wf_mesh_get_tile_info(mesh, tile, &info), WF_OK);
    assert_int_equal(info.poly_count, 1);
    wf_mesh_destroy(mesh);
    assert_int_equal(counting_allocator_live(&counter), 0);
    builder_free(&b);
}

static void test_flags_and_max_verts(void** state) {
    (void)state;
    static const char* const rows[] = {"........", "........", "........", "........"};
    test_layer t;
    draw_layer(&t, rows, 4, 0, 0);
    builder b;
    builder_init(&b, 8, 4);
    wf_layer_tile_params p = default_params();
    uint16_t area_flags[WF_MAX_AREAS] = {0};
    area_flags[0] = 0x24;
    p.area_flags = area_flags;
    p.max_verts_per_poly = 3;
    assert_int_equal(build(&b, &t, &p), WF_OK);
    // Triangles only: the rectangle's two.
    assert_int_equal(header(&b)->poly_count, 2);
    check_polys_convex(&b, 3);
    for (uint32_t i = 0; i < header(&b)->poly_count; ++i) {
        assert_int_equal(polys(&b)[i].flags, 0x24);
    }
    assert_float_equal(total_area(&b), 32.0f * CS * CS, 1e-5f);
    builder_free(&b);
}

static void test_l_shape_keeps_its_concave_corner(void** state) {
    (void)state;
    static const char* const rows[] = {"....####", "....####", "....####", "....####",
                                       "........", "........", "........", "........"};
    test_layer t;
    draw_layer(&t, rows, 8, 0, 0);
    builder b;
    builder_init(&b, 8, 8);
    wf_layer_tile_params p = default_params();
    assert_int_equal(build(&b, &t, &p), WF_OK);
    // Six outline corners, four triangles, merged into two convex pieces.
    assert_int_equal(header(&b)->vert_count, 6);
    assert_int_equal(header(&b)->poly_count, 2);
    assert_float_equal(total_area(&b), 48.0f * CS * CS, 1e-5f);
    check_polys_convex(&b, 6);
    check_portals(&b);
    check_exact_cover(&b, &t);
    check_rim_portals(&b, &t);
    assert_int_equal(connected_polys(&b), 2);

    // Through the query API: cell centres of the missing quarter find no
    // polygon; walkable ones find one right under them.
    wf_mesh_desc md = {.tile_width = 8.0f * CS, .tile_depth = 8.0f * CS};
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    wf_tile_ref tile;
    assert_int_equal(wf_mesh_add_tile(mesh, b.blob, b.size, 0, (wf_tile_ref){0}, &tile), WF_OK);
    wf_query* q = NULL;
    wf_query_desc qd = {.mesh = mesh};
    assert_int_equal(wf_query_create(&qd, &q), WF_OK);
    wf_query_filter f = wf_query_filter_defaults();
    wf_vec3 ext = wf_v3(0.2f * CS, 1.0f, 0.2f * CS);
    for (uint32_t z = 0; z < 8; ++z) {
        for (uint32_t x = 0; x < 8; ++x) {
            wf_vec3 c = wf_v3(((float)x + 0.5f) * CS, 0.0f, ((float)z + 0.5f) * CS);
            wf_poly_ref ref;
            wf_vec3 pt;
            wf_status s = wf_query_find_nearest_poly(q, c, ext, &f, &ref, &pt);
            if (cell_walkable(&t, x, z)) {
                assert_int_equal(s, WF_OK);
                assert_float_equal(pt.x, c.x, 1e-5f);
                assert_float_equal(pt.z, c.z, 1e-5f);
            } else {
                assert_int_equal(s, WF_ERR_NOT_FOUND);
            }
        }
    }
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
    builder_free(&b);
}

static void test_hole_in_the_middle(void** state) {
    (void)state;
    static const char* const rows[] = {"..........", "..........", "..........", "..........",
                                       "....##....", "....##....", "..........", "..........",
                                       "..........", ".........."};
    test_layer t;
    draw_layer(&t, rows, 10, 0, 0);
    builder b;
    builder_init(&b, 10, 10);
    wf_layer_tile_params p = default_params();
    assert_int_equal(build(&b, &t, &p), WF_OK);
    assert_float_equal(total_area(&b), 96.0f * CS * CS, 1e-5f);
    check_polys_convex(&b, 6);
    check_portals(&b);
    check_exact_cover(&b, &t);
    check_rim_portals(&b, &t);
    // The regions around the hole share their edges exactly: one piece.
    assert_int_equal(connected_polys(&b), header(&b)->poly_count);
    builder_free(&b);
}

static void test_rim_stays_on_the_tile_edge(void** state) {
    (void)state;
    // The notch is one cell from the corner: cutting the corner (0.99 cells
    // off, under the 1.3 error) would pull the bottom rim off the tile edge
    // and lose its portal, and a wall simplified onto the tile's side would
    // become a portal. Neither may happen.
    static const char* const rows[] = {"........", "........", "........", "........",
                                       "........", "........", ".......#", "........"};
    static const char* const side[] = {"........", "#.......", "##......", "#.......",
                                       "........", "........", "........", "........"};
    const char* const* pictures[2] = {rows, side};
    for (int k = 0; k < 2; ++k) {
        test_layer t;
        draw_layer(&t, pictures[k], 8, 0, 0);
        builder b;
        builder_init(&b, 8, 8);
        wf_layer_tile_params p = default_params();
        assert_int_equal(build(&b, &t, &p), WF_OK);
        check_polys_convex(&b, 6);
        check_portals(&b);
        check_rim_portals(&b, &t);
        // The rim keeps its tile corners, and no polygon covers the
        // missing cells' centres.
        for (uint32_t z = 0; z < 8; ++z) {
            for (uint32_t x = 0; x < 8; ++x) {
                if (!cell_walkable(&t, x, z)) {
                    assert_int_equal(
                        covering(&b, ((float)x + 0.5f) * CS, ((float)z + 0.5f) * CS, true), 0);
                }
            }
        }
        builder_free(&b);
    }
}

static void test_islands_keep_their_areas(void** state) {
    (void)state;
    static const char* const rows[] = {"############", "#aaaa##bbbb#", "#aaaa##bbbb#",
                                       "#aaaa##bbbb#", "#aaaa##bbbb#", "############"};
    test_layer t;
    draw_layer(&t, rows, 6, 0, 0);
    builder b;
    builder_init(&b, 12, 6);
    wf_layer_tile_params p = default_params();
    assert_int_equal(build(&b, &t, &p), WF_OK);
    // Each square island is one quad of its own area; no portals (walls).
    assert_int_equal(header(&b)->poly_count, 2);
    float area_of[3] = {0};
    for (uint32_t i = 0; i < header(&b)->poly_count; ++i) {
        wf_vec3 v[WF_MAX_VERTS_PER_POLY];
        uint32_t n = poly_verts(&b, i, v);
        uint32_t area = wf_poly_area(&polys(&b)[i]);
        assert_true(area == 1 || area == 2);
        // Island a spans x 0.5..2.5, island b 3.5..5.5.
        for (uint32_t k = 0; k < n; ++k) {
            assert_true(area == 1 ? v[k].x <= 5.0f * CS : v[k].x >= 7.0f * CS);
        }
        area_of[area] += poly_area(v, n);
    }
    assert_float_equal(area_of[1], 16.0f * CS * CS, 1e-5f);
    assert_float_equal(area_of[2], 16.0f * CS * CS, 1e-5f);
    check_portals(&b);
    check_exact_cover(&b, &t);
    check_rim_portals(&b, &t);
    builder_free(&b);
}

static void test_ramp_heights_follow_cells(void** state) {
    (void)state;
    static const char* const rows[] = {"01234567", "01234567", "01234567", "01234567"};
    test_layer t;
    draw_layer(&t, rows, 4, 0, 0);
    t.layer.bmin[1] = 3.0f; // heights count from here
    builder b;
    builder_init(&b, 8, 4);
    wf_layer_tile_params p = default_params();
    assert_int_equal(build(&b, &t, &p), WF_OK);
    check_exact_cover(&b, &t);
    check_rim_portals(&b, &t);
    // A corner takes the highest cell around it: corner x has height
    // min(x, 7) units.
    for (uint32_t i = 0; i < header(&b)->vert_count; ++i) {
        wf_vec3 v = vertex(&b, i);
        float cx = v.x / CS;
        float expected = 3.0f + fminf(cx, 7.0f) * CH;
        assert_float_equal(v.y, expected, 1e-5f);
    }
    // The surface over each cell centre is within a cell height of it.
    wf_mesh_desc md = {.tile_width = 8.0f * CS, .tile_depth = 4.0f * CS};
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    wf_tile_ref tile;
    assert_int_equal(wf_mesh_add_tile(mesh, b.blob, b.size, 0, (wf_tile_ref){0}, &tile), WF_OK);
    wf_query* q = NULL;
    wf_query_desc qd = {.mesh = mesh};
    assert_int_equal(wf_query_create(&qd, &q), WF_OK);
    wf_query_filter f = wf_query_filter_defaults();
    for (uint32_t z = 0; z < 4; ++z) {
        for (uint32_t x = 0; x < 8; ++x) {
            float cell_y = 3.0f + (float)x * CH;
            wf_vec3 c = wf_v3(((float)x + 0.5f) * CS, cell_y, ((float)z + 0.5f) * CS);
            wf_poly_ref ref;
            wf_vec3 pt;
            wf_vec3 ext = wf_v3(0.1f, 2.0f, 0.1f);
            assert_int_equal(wf_query_find_nearest_poly(q, c, ext, &f, &ref, &pt), WF_OK);
            float y = 0.0f;
            assert_int_equal(wf_query_poly_height(q, ref, c, &y), WF_OK);
            assert_true(fabsf(y - cell_y) <= CH);
        }
    }
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
    builder_free(&b);
}

static void test_min_region_area_drops_inner_islands(void** state) {
    (void)state;
    static const char* const rows[] = {"..##########", "..##########", "############",
                                       "############", "############", "#####..#####",
                                       "#####..#####", "############", "############",
                                       "############", "############", "############"};
    test_layer t;
    draw_layer(&t, rows, 12, 0, 0);
    builder b;
    builder_init(&b, 12, 12);
    wf_layer_tile_params p = default_params();
    p.max_simplification_error = 0.5f;
    assert_int_equal(build(&b, &t, &p), WF_OK);
    assert_float_equal(total_area(&b), 8.0f * CS * CS, 1e-5f); // both kept
    check_exact_cover(&b, &t);
    check_rim_portals(&b, &t);

    p.min_region_area = 8; // 4 cells: too small, but the corner one touches the tile edge
    assert_int_equal(build(&b, &t, &p), WF_OK);
    assert_float_equal(total_area(&b), 4.0f * CS * CS, 1e-5f);
    assert_int_equal(covering(&b, 0.5f * CS, 0.5f * CS, true), 1);
    assert_int_equal(covering(&b, 5.5f * CS, 5.5f * CS, false), 0);

    // An island of exactly min_region_area cells stays.
    p.min_region_area = 4;
    assert_int_equal(build(&b, &t, &p), WF_OK);
    assert_float_equal(total_area(&b), 8.0f * CS * CS, 1e-5f);

    // Everything dropped: no tile.
    static const char* const inner[] = {"####", "#..#", "#..#", "####"};
    test_layer only_inner;
    draw_layer(&only_inner, inner, 4, 0, 0);
    p.min_region_area = 5;
    assert_int_equal(build(&b, &only_inner, &p), WF_ERR_NOT_FOUND);
    builder_free(&b);
}

static float longest_edge(const builder* b) {
    float longest = 0.0f;
    for (uint32_t i = 0; i < header(b)->poly_count; ++i) {
        wf_vec3 v[WF_MAX_VERTS_PER_POLY];
        uint32_t n = poly_verts(b, i, v);
        for (uint32_t k = 0; k < n; ++k) {
            longest = fmaxf(longest, sqrtf(wf_v2_distance_sq(v[k], v[(k + 1) % n])));
        }
    }
    return longest;
}

static void test_max_edge_length_splits_walls_and_borders(void** state) {
    (void)state;
    static const char* const rows[] = {"################", "................", "................",
                                       "................", "................", "################"};
    test_layer t;
    draw_layer(&t, rows, 6, 0, 0);
    builder b;
    builder_init(&b, 16, 6);
    wf_layer_tile_params p = default_params();
    assert_int_equal(build(&b, &t, &p), WF_OK);
    assert_float_equal(longest_edge(&b), 16.0f * CS, 1e-5f); // the walls, whole
    p.max_edge_length = 4.0f;
    assert_int_equal(build(&b, &t, &p), WF_OK);
    // Walls of 16 cells halve twice; the 4-cell tile edges stay.
    assert_true(longest_edge(&b) <= 4.0f * CS + 1e-5f);
    assert_float_equal(total_area(&b), 64.0f * CS * CS, 1e-5f);
    check_polys_convex(&b, 6);
    check_portals(&b);
    check_exact_cover(&b, &t);
    check_rim_portals(&b, &t);
    assert_int_equal(connected_polys(&b), header(&b)->poly_count);
    builder_free(&b);
}

static void test_two_tiles_connect_through_portals(void** state) {
    (void)state;
    static const char* const left[] = {"........", "........", "........", "........",
                                       "........", "........", "........", "........"};
    static const char* const right[] = {"........", "........", "........", "....####",
                                        "....####", "........", "........", "........"};
    test_layer a, c;
    draw_layer(&a, left, 8, 0, 0);
    draw_layer(&c, right, 8, 1, 0);
    builder ba, bc;
    builder_init(&ba, 8, 8);
    builder_init(&bc, 8, 8);
    wf_layer_tile_params p = default_params();
    assert_int_equal(build(&ba, &a, &p), WF_OK);
    assert_int_equal(build(&bc, &c, &p), WF_OK);
    check_portals(&bc);
    check_exact_cover(&bc, &c);
    check_rim_portals(&bc, &c);

    counting_allocator counter;
    counting_allocator_init(&counter);
    wf_mesh_desc md = {.tile_width = 8.0f * CS,
                       .tile_depth = 8.0f * CS,
                       .allocator = counting_allocator_hooks(&counter)};
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    wf_tile_ref ta, tc;
    assert_int_equal(wf_mesh_add_tile(mesh, ba.blob, ba.size, 0, (wf_tile_ref){0}, &ta), WF_OK);
    assert_int_equal(wf_mesh_add_tile(mesh, bc.blob, bc.size, 0, (wf_tile_ref){0}, &tc), WF_OK);
    wf_query* q = NULL;
    wf_query_desc qd = {.mesh = mesh, .allocator = counting_allocator_hooks(&counter)};
    assert_int_equal(wf_query_create(&qd, &q), WF_OK);
    wf_query_filter f = wf_query_filter_defaults();
    wf_vec3 start = wf_v3(0.25f, 0.0f, 1.25f), end = wf_v3(7.75f, 0.0f, 2.75f);
    wf_poly_ref sr, er;
    wf_vec3 sp, ep;
    wf_vec3 ext = wf_v3(0.1f, 1.0f, 0.1f);
    assert_int_equal(wf_query_find_nearest_poly(q, start, ext, &f, &sr, &sp), WF_OK);
    assert_int_equal(wf_query_find_nearest_poly(q, end, ext, &f, &er, &ep), WF_OK);
    assert_true(wf_poly_ref_tile(sr) != wf_poly_ref_tile(er));
    wf_poly_ref path[64];
    wf_path_result result;
    assert_int_equal(wf_query_find_path(q, sr, er, sp, ep, &f, path, 64, &result), WF_OK);
    assert_int_equal(result.flags, 0);
    assert_true(result.count >= 2);
    assert_true(wf_poly_ref_equal(path[0], sr) && wf_poly_ref_equal(path[result.count - 1], er));
    // The straight line crosses the notch (x 6..8, z 1.5..2.5): the
    // straight path bends round one of its corners.
    wf_straight_point points[16];
    uint32_t point_count = 0;
    assert_int_equal(
        wf_query_find_straight_path(q, sp, ep, path, result.count, points, 16, 0, &point_count),
        WF_OK);
    assert_true(point_count >= 3);
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
    assert_int_equal(counting_allocator_live(&counter), 0);
    builder_free(&ba);
    builder_free(&bc);
}

/* ---------------------------------------------------------------------------
 * Capacities, determinism, bad input
 */

static void draw_rooms(test_layer* t) {
    static const char* const rows[] = {
        "................................", ".######.........#######.........",
        ".#....#.........#.....#....aaaa.", ".#....#.........#.....#....aaaa.",
        ".##..##.........###.###....aaaa.", "................................",
        "......########..................", "......#......#.......1111.......",
        "......#..##..#.......1221.......", "......#......#.......1221.......",
        "......###..###.......1111.......", "................................",
        "...#.....#.....#.....#.....#....", "................................",
        "..............bbbbbb............", "..............bbbbbb............",
    };
    draw_layer(t, rows, 16, 2, 3);
}

static void test_scratch_too_small_fails_cleanly(void** state) {
    (void)state;
    test_layer t;
    draw_rooms(&t);
    builder b;
    builder_init(&b, 32, 16);
    wf_layer_tile_params p = default_params();
    p.max_edge_length = 6.0f;
    assert_int_equal(build(&b, &t, &p), WF_OK);
    size_t needed = b.scratch.high_water;
    size_t expected_size = b.size;
    assert_true(needed > 0 && needed <= wf_layer_tile_scratch_size(32, 16));
    // Exactly the measured need works; anything less fails with
    // WF_ERR_CAPACITY (the arena is a malloc block of exactly that size, so
    // the sanitizer sees any write past it).
    for (size_t capacity = needed + 1;;) {
        capacity = capacity > needed ? needed : capacity;
        void* memory = malloc(capacity > 0 ? capacity : 1);
        assert_non_null(memory);
        wf_arena arena;
        wf_arena_init(&arena, memory, capacity);
        size_t size = 12345;
        wf_status s = wf_layer_build_tile(&t.layer, &p, &arena, b.blob, BLOB_CAPACITY, &size);
        if (capacity == needed) {
            assert_int_equal(s, WF_OK);
            assert_int_equal(size, expected_size);
        } else {
            assert_int_equal(s, WF_ERR_CAPACITY);
            assert_int_equal(size, 0);
        }
        assert_int_equal(arena.used, 0);
        free(memory);
        if (capacity == 0) {
            break;
        }
        capacity = capacity == needed ? needed - 1 : capacity * 15 / 16;
    }
    builder_free(&b);
}

static void test_output_too_small_reports_size(void** state) {
    (void)state;
    test_layer t;
    draw_rooms(&t);
    builder b;
    builder_init(&b, 32, 16);
    wf_layer_tile_params p = default_params();
    assert_int_equal(build(&b, &t, &p), WF_OK);
    size_t full = b.size;
    assert_true(full > sizeof(wf_tile_header) && full % 16 == 0);
    size_t size = 0;
    assert_int_equal(wf_layer_build_tile(&t.layer, &p, &b.scratch, NULL, 0, &size),
                     WF_ERR_CAPACITY);
    assert_int_equal(size, full);
    unsigned char* exact = aligned_alloc(16, full);
    assert_non_null(exact);
    size = 0;
    assert_int_equal(wf_layer_build_tile(&t.layer, &p, &b.scratch, exact, full - 16, &size),
                     WF_ERR_CAPACITY);
    assert_int_equal(size, full);
    assert_int_equal(wf_layer_build_tile(&t.layer, &p, &b.scratch, exact, full, &size), WF_OK);
    assert_int_equal(size, full);
    assert_memory_equal(exact, b.blob, full);
    free(exact);
    builder_free(&b);
}

/// Found by fuzz_cache_file: a cache file whose cell height is 1.7e38 (finite,
/// as are the layer bounds) puts the vertices and the tile's y range at
/// infinity; the tile build then asserted on its bounds. Bad data instead.
static void test_heights_that_overflow_are_bad_data(void** state) {
    (void)state;
    test_layer t;
    draw_rooms(&t);
    builder b;
    builder_init(&b, 32, 16);
    wf_layer_tile_params p = default_params();
    t.layer.ch = 1.70141e38f;
    t.layer.bmin[1] = 1.70141e38f;
    t.layer.bmax[1] = 1.70141e38f;
    assert_int_equal(build(&b, &t, &p), WF_ERR_BAD_DATA);
    t.layer.ch = CH; // the same layer with its own heights builds
    t.layer.bmin[1] = 0.0f;
    t.layer.bmax[1] = 10.0f;
    assert_int_equal(build(&b, &t, &p), WF_OK);
    builder_free(&b);
}

static void test_same_layer_same_bytes(void** state) {
    (void)state;
    test_layer t;
    draw_rooms(&t);
    wf_layer_tile_params p = default_params();
    p.max_edge_length = 5.0f;
    p.merge_region_area = 20;
    p.min_region_area = 8;
    builder b1, b2;
    builder_init(&b1, 32, 16);
    builder_init(&b2, 32, 16);
    // Different garbage in the two scratch arenas.
    memset(b1.scratch_memory, 0xaa, b1.scratch.capacity);
    memset(b2.scratch_memory, 0x55, b2.scratch.capacity);
    assert_int_equal(build(&b1, &t, &p), WF_OK);
    assert_int_equal(build(&b2, &t, &p), WF_OK);
    assert_int_equal(b1.size, b2.size);
    assert_memory_equal(b1.blob, b2.blob, b1.size);
    // And again into the same arena, now dirty.
    assert_int_equal(build(&b2, &t, &p), WF_OK);
    assert_memory_equal(b1.blob, b2.blob, b1.size);
    check_polys_convex(&b1, 6);
    check_portals(&b1);
    // Below one cell of error every corner of these walls stays: the
    // polygons are exactly the walkable cells, and all regions (areas,
    // heights) join up through shared edges.
    p.max_simplification_error = 0.4f;
    assert_int_equal(build(&b1, &t, &p), WF_OK);
    check_exact_cover(&b1, &t);
    check_rim_portals(&b1, &t);
    assert_int_equal(connected_polys(&b1), header(&b1)->poly_count);
    builder_free(&b1);
    builder_free(&b2);
}

static void test_no_heap_allocation(void** state) {
    (void)state;
    // The scratch comes from a counting allocator once; building tiles
    // allocates nothing more (the function has no allocator to use).
    counting_allocator counter;
    counting_allocator_init(&counter);
    wf_allocator hooks = counting_allocator_hooks(&counter);
    wf_arena arena;
    assert_int_equal(wf_arena_create(&arena, &hooks, wf_layer_tile_scratch_size(32, 16)), WF_OK);
    unsigned char* blob = hooks.alloc(BLOB_CAPACITY, 16, hooks.user);
    assert_non_null(blob);
    assert_int_equal(counter.allocations, 2);
    test_layer t;
    draw_rooms(&t);
    wf_layer_tile_params p = default_params();
    size_t size = 0;
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(wf_layer_build_tile(&t.layer, &p, &arena, blob, BLOB_CAPACITY, &size),
                         WF_OK);
    }
    assert_int_equal(counter.allocations, 2);
    hooks.free(blob, BLOB_CAPACITY, 16, hooks.user);
    wf_arena_destroy(&arena, &hooks);
    assert_int_equal(counting_allocator_live(&counter), 0);
}

static void test_bad_input(void** state) {
    (void)state;
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    static const char* const rows[] = {"....", "....", "....", "...."};
    test_layer t;
    draw_layer(&t, rows, 4, 0, 0);
    builder b;
    builder_init(&b, 4, 4);
    wf_layer_tile_params p = default_params();
    size_t size = 0;
    wf_arena* a = &b.scratch;
    assert_int_equal(wf_layer_build_tile(NULL, &p, a, b.blob, BLOB_CAPACITY, &size),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_layer_build_tile(&t.layer, NULL, a, b.blob, BLOB_CAPACITY, &size),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_layer_build_tile(&t.layer, &p, NULL, b.blob, BLOB_CAPACITY, &size),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_layer_build_tile(&t.layer, &p, a, b.blob, BLOB_CAPACITY, NULL),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_layer_build_tile(&t.layer, &p, a, NULL, 64, &size), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_layer_build_tile(&t.layer, &p, a, b.blob + 8, 64, &size),
                     WF_ERR_INVALID_ARG);

    wf_layer_tile_params bad = p;
    bad.max_verts_per_poly = 2;
    assert_int_equal(build(&b, &t, &bad), WF_ERR_INVALID_ARG);
    bad.max_verts_per_poly = WF_MAX_VERTS_PER_POLY + 1;
    assert_int_equal(build(&b, &t, &bad), WF_ERR_INVALID_ARG);
    bad = p;
    bad.max_simplification_error = -1.0f;
    assert_int_equal(build(&b, &t, &bad), WF_ERR_INVALID_ARG);
    bad = p;
    bad.max_edge_length = NAN;
    assert_int_equal(build(&b, &t, &bad), WF_ERR_INVALID_ARG);
    bad = p;
    bad.walkable_climb = INFINITY;
    assert_int_equal(build(&b, &t, &bad), WF_ERR_INVALID_ARG);

    test_layer broken = t;
    broken.layer.width = 0;
    assert_int_equal(build(&b, &broken, &p), WF_ERR_INVALID_ARG);
    broken = t;
    broken.layer.width = WF_LAYER_MAX_SIZE + 1;
    assert_int_equal(build(&b, &broken, &p), WF_ERR_INVALID_ARG);
    broken = t;
    broken.layer.cons = NULL;
    assert_int_equal(build(&b, &broken, &p), WF_ERR_INVALID_ARG);
    broken = t;
    broken.layer.cs = 0.0f;
    assert_int_equal(build(&b, &broken, &p), WF_ERR_INVALID_ARG);
    broken = t;
    broken.layer.bmax[0] = broken.layer.bmin[0];
    assert_int_equal(build(&b, &broken, &p), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_layer_tile_scratch_size(0, 4), 0);
    assert_int_equal(wf_layer_tile_scratch_size(4, 256), 0);

    // Area ids above 63 are damaged data.
    broken = t;
    broken.layer.heights = broken.heights;
    broken.layer.areas = broken.areas;
    broken.layer.cons = broken.cons;
    broken.areas[5] = WF_MAX_AREAS;
    assert_int_equal(build(&b, &broken, &p), WF_ERR_BAD_DATA);

    // Cons that claim neighbours which are not there are ignored.
    broken.areas[5] = 0;
    memset(broken.cons, 0xff, sizeof broken.cons);
    broken.heights[6] = WF_LAYER_EMPTY;
    assert_int_equal(build(&b, &broken, &p), WF_OK);
    check_polys_convex(&b, 6);

    // Nothing walkable: no tile.
    memset(broken.areas, WF_AREA_NULL, sizeof broken.areas);
    assert_int_equal(build(&b, &broken, &p), WF_ERR_NOT_FOUND);
    wf_set_assert_hook(previous);
    builder_free(&b);
}

/* ---------------------------------------------------------------------------
 * Hostile layers: random heights, areas and connections. Whatever the
 * layer, the documented scratch suffices and the tile is valid.
 */

static uint32_t next_random(uint32_t* s) {
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static void check_hostile(test_layer* t, uint32_t max_verts) {
    const wf_layer* l = &t->layer;
    builder b;
    builder_init(&b, l->width, l->depth);
    wf_layer_tile_params p = default_params();
    p.max_verts_per_poly = max_verts;
    p.max_simplification_error = 0.0f;
    p.max_edge_length = 3.0f;
    wf_status s = build(&b, t, &p);
    assert_true(s == WF_OK || s == WF_ERR_NOT_FOUND);
    assert_true(b.scratch.high_water <= b.scratch.capacity);
    if (s == WF_OK) {
        check_polys_convex(&b, max_verts);
        check_portals(&b);
    }
    builder_free(&b);
}

static void test_hostile_layers(void** state) {
    (void)state;
    uint32_t seed = 0x2545f491u;
    static test_layer t;
    for (int round = 0; round < 40; ++round) {
        uint32_t w = 1 + next_random(&seed) % 48, d = 1 + next_random(&seed) % 48;
        init_layer(&t, w, d, 0, 0);
        int kind = round % 4;
        for (uint32_t i = 0; i < w * d; ++i) {
            uint32_t r = next_random(&seed);
            uint32_t x = i % w, z = i / w;
            bool walkable = kind == 0 ? (r & 3) != 0 : true;
            uint8_t height = (uint8_t)(kind == 2 ? ((x + z) & 1) * 9 : r % 5);
            uint8_t area = (uint8_t)(kind == 3 ? (x + z) % 3 : (r >> 8) % 2);
            t.heights[i] = walkable ? height : WF_LAYER_EMPTY;
            t.areas[i] = walkable ? area : WF_AREA_NULL;
        }
        connect_cells(&t, 1);
        if (kind == 1) { // and some connections cut on one side only
            for (uint32_t i = 0; i < w * d; ++i) {
                t.cons[i] &= (uint8_t)(next_random(&seed) | 0xf0u);
                t.cons[i] |= (uint8_t)(next_random(&seed) & 0xf0u);
            }
        }
        check_hostile(&t, 3 + (uint32_t)round % 4);
    }
    // The worst case for memory: every cell a region of its own with four
    // different heights around each corner.
    init_layer(&t, 48, 48, 0, 0);
    for (uint32_t i = 0; i < 48 * 48; ++i) {
        uint32_t x = i % 48, z = i / 48;
        t.heights[i] = (uint8_t)(((x & 1) + 2 * (z & 1)) * 10);
        t.areas[i] = (uint8_t)((x + z) % 2);
    }
    connect_cells(&t, 1);
    check_hostile(&t, 3);
}

/// Connected pieces of the polygon graph (shared edges inside the tile).
static uint32_t poly_components(const builder* b) {
    uint32_t n = header(b)->poly_count;
    uint32_t* stack = malloc(sizeof(uint32_t) * n);
    uint8_t* seen = calloc(n, 1);
    assert_true(stack != NULL && seen != NULL);
    uint32_t pieces = 0;
    for (uint32_t s0 = 0; s0 < n; ++s0) {
        if (seen[s0]) {
            continue;
        }
        pieces++;
        uint32_t top = 0;
        stack[top++] = s0;
        seen[s0] = 1;
        while (top > 0) {
            const wf_tile_poly* p = &polys(b)[stack[--top]];
            for (uint32_t k = 0; k < p->vert_count; ++k) {
                uint16_t nb = p->neighbours[k];
                if (nb != 0 && !(nb & WF_PORTAL_EDGE) && !seen[nb - 1u]) {
                    seen[nb - 1u] = 1;
                    stack[top++] = nb - 1u;
                }
            }
        }
    }
    free(stack);
    free(seen);
    return pieces;
}

/// Connected pieces of the walkable cells (through cons).
static uint32_t cell_components(const test_layer* t) {
    const wf_layer* l = &t->layer;
    uint32_t n = l->width * l->depth;
    uint32_t* stack = malloc(sizeof(uint32_t) * n);
    uint8_t* seen = calloc(n, 1);
    assert_true(stack != NULL && seen != NULL);
    uint32_t pieces = 0;
    for (uint32_t s0 = 0; s0 < n; ++s0) {
        if (seen[s0] || t->areas[s0] == WF_AREA_NULL) {
            continue;
        }
        pieces++;
        uint32_t top = 0;
        stack[top++] = s0;
        seen[s0] = 1;
        while (top > 0) {
            uint32_t i = stack[--top];
            for (int d = 0; d < 4; ++d) {
                if (t->cons[i] & (1u << d)) {
                    int32_t step = wf_dir_dx[d] + wf_dir_dz[d] * (int32_t)l->width;
                    uint32_t j = (uint32_t)((int32_t)i + step);
                    if (!seen[j]) {
                        seen[j] = 1;
                        stack[top++] = j;
                    }
                }
            }
        }
    }
    free(stack);
    free(seen);
    return pieces;
}

static void test_random_layers_exact_without_simplification(void** state) {
    (void)state;
    // With no simplification the outlines are the cells' own: whatever the
    // pattern of heights, areas and holes, the polygons cover the walkable
    // cells exactly once, and connect exactly as the cells do.
    uint32_t seed = 0x9e3779b9u;
    static test_layer t;
    for (int round = 0; round < 60; ++round) {
        uint32_t w = 2 + next_random(&seed) % 40, d = 2 + next_random(&seed) % 40;
        init_layer(&t, w, d, 0, 0);
        uint32_t holes = next_random(&seed) % 4, heights = 1 + next_random(&seed) % 4;
        uint32_t areas = 1 + next_random(&seed) % 3;
        for (uint32_t i = 0; i < w * d; ++i) {
            uint32_t r = next_random(&seed);
            bool walkable = (r & 7u) >= holes;
            t.heights[i] = walkable ? (uint8_t)((r >> 3) % heights) : WF_LAYER_EMPTY;
            t.areas[i] = walkable ? (uint8_t)((r >> 8) % areas) : WF_AREA_NULL;
        }
        connect_cells(&t, 1);
        builder b;
        builder_init(&b, w, d);
        wf_layer_tile_params p = default_params();
        p.max_simplification_error = 0.0f;
        p.max_edge_length = (float)(next_random(&seed) % 6);
        p.max_verts_per_poly = 3 + next_random(&seed) % 4;
        p.merge_region_area = next_random(&seed) % 30;
        assert_int_equal(build(&b, &t, &p), WF_OK);
        check_polys_convex(&b, p.max_verts_per_poly);
        check_portals(&b);
        check_exact_cover(&b, &t);
        check_rim_portals(&b, &t);
        assert_int_equal(poly_components(&b), cell_components(&t));
        // Simplified, the outlines move, but the rim stays on the tile edge.
        p.max_simplification_error = 1.3f;
        assert_int_equal(build(&b, &t, &p), WF_OK);
        check_polys_convex(&b, p.max_verts_per_poly);
        check_portals(&b);
        check_rim_portals(&b, &t);
        builder_free(&b);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flat_square_is_one_quad),
        cmocka_unit_test(test_flags_and_max_verts),
        cmocka_unit_test(test_l_shape_keeps_its_concave_corner),
        cmocka_unit_test(test_hole_in_the_middle),
        cmocka_unit_test(test_rim_stays_on_the_tile_edge),
        cmocka_unit_test(test_islands_keep_their_areas),
        cmocka_unit_test(test_ramp_heights_follow_cells),
        cmocka_unit_test(test_min_region_area_drops_inner_islands),
        cmocka_unit_test(test_max_edge_length_splits_walls_and_borders),
        cmocka_unit_test(test_two_tiles_connect_through_portals),
        cmocka_unit_test(test_scratch_too_small_fails_cleanly),
        cmocka_unit_test(test_output_too_small_reports_size),
        cmocka_unit_test(test_heights_that_overflow_are_bad_data),
        cmocka_unit_test(test_same_layer_same_bytes),
        cmocka_unit_test(test_no_heap_allocation),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_hostile_layers),
        cmocka_unit_test(test_random_layers_exact_without_simplification),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
