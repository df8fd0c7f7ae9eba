// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// wf_query_find_straight_path: funnel corners, refs, crossing options,
// off-mesh links, short buffers, broken corridors, stale refs and bad args.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "test_hooks.h"
#include "test_meshes.h"
#include "wayfarer/query.h"
#include "wayfarer/rng.h"

#define N WF_NULL_INDEX
#define MAX_POINTS 16

/// Expected point: position, flags and ref.
typedef struct expect {
    float x, y, z;
    uint32_t flags;
    wf_poly_ref ref;
} expect;

static void check_points(const wf_straight_point* got, uint32_t got_count, const expect* want,
                         uint32_t want_count) {
    if (got_count != want_count) {
        for (uint32_t i = 0; i < got_count; ++i) {
            print_message("  point %u: (%g, %g, %g) flags %u\n", i, (double)got[i].pos.x,
                          (double)got[i].pos.y, (double)got[i].pos.z, got[i].flags);
        }
        fail_msg("got %u points, expected %u", got_count, want_count);
    }
    const float eps = 1e-5f;
    for (uint32_t i = 0; i < want_count; ++i) {
        const wf_straight_point* p = &got[i];
        const expect* w = &want[i];
        if (fabsf(p->pos.x - w->x) > eps || fabsf(p->pos.y - w->y) > eps ||
            fabsf(p->pos.z - w->z) > eps) {
            fail_msg("point %u at (%g, %g, %g), expected (%g, %g, %g)", i, (double)p->pos.x,
                     (double)p->pos.y, (double)p->pos.z, (double)w->x, (double)w->y, (double)w->z);
        }
        if (p->flags != w->flags) {
            fail_msg("point %u flags %u, expected %u", i, p->flags, w->flags);
        }
        if (p->ref.bits != w->ref.bits) {
            fail_msg("point %u ref %llx, expected %llx", i, (unsigned long long)p->ref.bits,
                     (unsigned long long)w->ref.bits);
        }
    }
}

static wf_query* make_query(const wf_mesh* mesh, counting_allocator* counter) {
    wf_query_desc qd = {
        .mesh = mesh, .max_nodes = 256, .allocator = counting_allocator_hooks(counter)};
    wf_query* q = NULL;
    assert_int_equal(wf_query_create(&qd, &q), WF_OK);
    return q;
}

/* ---------------------------------------------------------------------------
 * Grid fixtures: 4 x 4 unit cells. An L-shaped corridor (row z = 0 and
 * column x = 3 free) and an open grid whose row z = 1 has areas 0 0 5 5.
 */

static const uint8_t l_blocked[16] = {
    0, 0, 0, 0, //
    1, 1, 1, 0, //
    1, 1, 1, 0, //
    1, 1, 1, 0,
};
static const uint8_t open_areas[16] = {
    0, 0, 0, 0, //
    0, 0, 5, 5, //
    0, 0, 0, 0, //
    0, 0, 0, 0,
};
// The L again, with cell (2, 0) in area 2 and cells (3, 2), (3, 3) in area 3.
static const uint8_t l_areas[16] = {
    0, 0, 2, 0, //
    0, 0, 0, 0, //
    0, 0, 0, 3, //
    0, 0, 0, 3,
};

typedef struct fixture {
    counting_allocator counter;
    wf_mesh* l_mesh;
    wf_mesh* open_mesh;
    wf_mesh* l_area_mesh;
    wf_query* l_query;
    wf_query* open_query;
    wf_query* l_area_query;
    wf_poly_ref l_path[7];      ///< (0,0) (1,0) (2,0) (3,0) (3,1) (3,2) (3,3)
    wf_poly_ref l_area_path[7]; ///< the same cells in l_area_mesh
    wf_poly_ref row[4];         ///< (0,1) .. (3,1) of the open grid
} fixture;

static void l_cells(const wf_mesh* mesh, wf_poly_ref* out) {
    static const uint32_t cells[7][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {3, 1}, {3, 2}, {3, 3}};
    for (int i = 0; i < 7; ++i) {
        out[i] = test_grid_poly(mesh, 4, cells[i][0], cells[i][1]);
        assert_false(wf_poly_ref_is_null(out[i]));
    }
}

static int setup(void** state) {
    static fixture fx;
    memset(&fx, 0, sizeof fx);
    counting_allocator_init(&fx.counter);
    wf_allocator a = counting_allocator_hooks(&fx.counter);
    fx.l_mesh = test_mesh_grid(1, 1, 4, 1.0f, l_blocked, NULL, &a);
    fx.open_mesh = test_mesh_grid(1, 1, 4, 1.0f, NULL, open_areas, &a);
    fx.l_area_mesh = test_mesh_grid(1, 1, 4, 1.0f, l_blocked, l_areas, &a);
    if (fx.l_mesh == NULL || fx.open_mesh == NULL || fx.l_area_mesh == NULL) {
        return -1;
    }
    fx.l_query = make_query(fx.l_mesh, &fx.counter);
    fx.open_query = make_query(fx.open_mesh, &fx.counter);
    fx.l_area_query = make_query(fx.l_area_mesh, &fx.counter);
    l_cells(fx.l_mesh, fx.l_path);
    l_cells(fx.l_area_mesh, fx.l_area_path);
    for (uint32_t x = 0; x < 4; ++x) {
        fx.row[x] = test_grid_poly(fx.open_mesh, 4, x, 1);
        assert_false(wf_poly_ref_is_null(fx.row[x]));
    }
    *state = &fx;
    return 0;
}

static int teardown(void** state) {
    fixture* fx = *state;
    wf_query_destroy(fx->l_query);
    wf_query_destroy(fx->open_query);
    wf_query_destroy(fx->l_area_query);
    wf_mesh_destroy(fx->l_mesh);
    wf_mesh_destroy(fx->open_mesh);
    wf_mesh_destroy(fx->l_area_mesh);
    assert_int_equal(counting_allocator_live(&fx->counter), 0);
    return 0;
}

static void test_l_corridor_bends_at_the_inner_corner(void** state) {
    fixture* fx = *state;
    const wf_poly_ref* p = fx->l_path;
    wf_straight_point pts[MAX_POINTS];
    uint32_t n = 0;
    assert_int_equal(wf_query_find_straight_path(fx->l_query, wf_v3(0.5f, 0.0f, 0.5f),
                                                 wf_v3(3.5f, 0.0f, 3.5f), p, 7, pts, MAX_POINTS, 0,
                                                 &n),
                     WF_OK);
    // The corner is vertex (3, 1); its ref is the cell entered after it.
    const expect want[] = {
        {0.5f, 0.0f, 0.5f, WF_STRAIGHT_START, p[0]},
        {3.0f, 0.0f, 1.0f, 0, p[4]},
        {3.5f, 0.0f, 3.5f, WF_STRAIGHT_END, p[6]},
    };
    check_points(pts, n, want, 3);
    // The other way round: same corner, entered into cell (2, 0).
    wf_poly_ref back[7];
    for (int i = 0; i < 7; ++i) {
        back[i] = p[6 - i];
    }
    assert_int_equal(wf_query_find_straight_path(fx->l_query, wf_v3(3.5f, 0.0f, 3.5f),
                                                 wf_v3(0.5f, 0.0f, 0.5f), back, 7, pts, MAX_POINTS,
                                                 0, &n),
                     WF_OK);
    const expect want_back[] = {
        {3.5f, 0.0f, 3.5f, WF_STRAIGHT_START, p[6]},
        {3.0f, 0.0f, 1.0f, 0, p[2]},
        {0.5f, 0.0f, 0.5f, WF_STRAIGHT_END, p[0]},
    };
    check_points(pts, n, want_back, 3);
}

static void test_start_on_the_first_portal_goes_forward(void** state) {
    fixture* fx = *state;
    const wf_poly_ref* p = fx->l_path;
    wf_straight_point pts[MAX_POINTS];
    uint32_t n = 0;
    // The start lies on the edge x = 1 between the first two cells (an
    // agent that just stepped onto it): the path goes on to the bend, it
    // does not turn back to an end of that edge.
    assert_int_equal(wf_query_find_straight_path(fx->l_query, wf_v3(1.0f, 0.0f, 0.9f),
                                                 wf_v3(3.5f, 0.0f, 3.5f), p, 7, pts, MAX_POINTS, 0,
                                                 &n),
                     WF_OK);
    const expect want[] = {
        {1.0f, 0.0f, 0.9f, WF_STRAIGHT_START, p[0]},
        {3.0f, 0.0f, 1.0f, 0, p[4]},
        {3.5f, 0.0f, 3.5f, WF_STRAIGHT_END, p[6]},
    };
    check_points(pts, n, want, 3);
}

static void test_l_corridor_from_find_path(void** state) {
    fixture* fx = *state;
    const wf_poly_ref* p = fx->l_path;
    wf_query_filter f = wf_query_filter_defaults();
    wf_poly_ref corridor[16];
    wf_path_result pr;
    wf_vec3 a = wf_v3(0.5f, 0.0f, 0.5f), b = wf_v3(3.5f, 0.0f, 3.5f);
    assert_int_equal(wf_query_find_path(fx->l_query, p[0], p[6], a, b, &f, corridor, 16, &pr),
                     WF_OK);
    assert_int_equal(pr.count, 7); // the only way round
    for (int i = 0; i < 7; ++i) {
        assert_true(corridor[i].bits == p[i].bits);
    }
    wf_straight_point pts[MAX_POINTS];
    uint32_t n;
    assert_int_equal(
        wf_query_find_straight_path(fx->l_query, a, b, corridor, pr.count, pts, MAX_POINTS, 0, &n),
        WF_OK);
    assert_int_equal(n, 3);
    assert_true(pts[1].pos.x == 3.0f && pts[1].pos.z == 1.0f);
}

static void test_start_is_clamped_into_the_first_polygon(void** state) {
    fixture* fx = *state;
    const wf_poly_ref* p = fx->l_path;
    wf_straight_point pts[MAX_POINTS];
    uint32_t n;
    // Start left of the mesh and high up, end below the floor.
    assert_int_equal(wf_query_find_straight_path(fx->l_query, wf_v3(-1.0f, 2.0f, 0.5f),
                                                 wf_v3(3.5f, -1.0f, 3.25f), p, 7, pts, MAX_POINTS,
                                                 0, &n),
                     WF_OK);
    const expect want[] = {
        {0.0f, 0.0f, 0.5f, WF_STRAIGHT_START, p[0]},
        {3.0f, 0.0f, 1.0f, 0, p[4]},
        {3.5f, 0.0f, 3.25f, WF_STRAIGHT_END, p[6]},
    };
    check_points(pts, n, want, 3);
}

static void test_straight_open_row(void** state) {
    fixture* fx = *state;
    const wf_poly_ref* r = fx->row;
    wf_straight_point pts[MAX_POINTS];
    uint32_t n;
    // The segment stays inside row z in [1, 2]: no corner.
    assert_int_equal(wf_query_find_straight_path(fx->open_query, wf_v3(0.25f, 0.0f, 1.25f),
                                                 wf_v3(3.75f, 0.0f, 1.75f), r, 4, pts, MAX_POINTS,
                                                 0, &n),
                     WF_OK);
    const expect want[] = {
        {0.25f, 0.0f, 1.25f, WF_STRAIGHT_START, r[0]},
        {3.75f, 0.0f, 1.75f, WF_STRAIGHT_END, r[3]},
    };
    check_points(pts, n, want, 2);
}

static void test_single_polygon(void** state) {
    fixture* fx = *state;
    wf_poly_ref one = fx->row[1];
    wf_straight_point pts[MAX_POINTS];
    uint32_t n;
    // start == end: the two points coincide and merge into one START|END.
    assert_int_equal(wf_query_find_straight_path(fx->open_query, wf_v3(1.5f, 0.0f, 1.5f),
                                                 wf_v3(1.5f, 0.0f, 1.5f), &one, 1, pts, MAX_POINTS,
                                                 0, &n),
                     WF_OK);
    const expect same[] = {{1.5f, 0.0f, 1.5f, WF_STRAIGHT_START | WF_STRAIGHT_END, one}};
    check_points(pts, n, same, 1);
    // A single slot is enough for it.
    assert_int_equal(wf_query_find_straight_path(fx->open_query, wf_v3(1.5f, 0.0f, 1.5f),
                                                 wf_v3(1.5f, 0.0f, 1.5f), &one, 1, pts, 1, 0, &n),
                     WF_OK);
    check_points(pts, n, same, 1);
    // Two points outside clamp to the same border point: one point again.
    assert_int_equal(wf_query_find_straight_path(fx->open_query, wf_v3(1.5f, 3.0f, 0.25f),
                                                 wf_v3(1.5f, -3.0f, 0.75f), &one, 1, pts,
                                                 MAX_POINTS, 0, &n),
                     WF_OK);
    const expect border[] = {{1.5f, 0.0f, 1.0f, WF_STRAIGHT_START | WF_STRAIGHT_END, one}};
    check_points(pts, n, border, 1);
    // Different points in one polygon: start and end.
    assert_int_equal(wf_query_find_straight_path(fx->open_query, wf_v3(1.25f, 0.0f, 1.25f),
                                                 wf_v3(1.75f, 0.0f, 1.5f), &one, 1, pts, MAX_POINTS,
                                                 0, &n),
                     WF_OK);
    const expect two[] = {
        {1.25f, 0.0f, 1.25f, WF_STRAIGHT_START, one},
        {1.75f, 0.0f, 1.5f, WF_STRAIGHT_END, one},
    };
    check_points(pts, n, two, 2);
}

static void test_area_crossings(void** state) {
    fixture* fx = *state;
    const wf_poly_ref* r = fx->row;
    wf_straight_point pts[MAX_POINTS];
    uint32_t n;
    wf_vec3 a = wf_v3(0.5f, 0.0f, 1.5f), b = wf_v3(3.5f, 0.0f, 1.5f);
    // Row areas 0 0 5 5: one change, at x = 2.
    assert_int_equal(wf_query_find_straight_path(fx->open_query, a, b, r, 4, pts, MAX_POINTS,
                                                 WF_STRAIGHT_AREA_CROSSINGS, &n),
                     WF_OK);
    const expect want[] = {
        {0.5f, 0.0f, 1.5f, WF_STRAIGHT_START, r[0]},
        {2.0f, 0.0f, 1.5f, 0, r[2]},
        {3.5f, 0.0f, 1.5f, WF_STRAIGHT_END, r[3]},
    };
    check_points(pts, n, want, 3);
    // Without the option the change is not marked.
    assert_int_equal(
        wf_query_find_straight_path(fx->open_query, a, b, r, 4, pts, MAX_POINTS, 0, &n), WF_OK);
    assert_int_equal(n, 2);
}

static void test_area_crossings_around_a_corner(void** state) {
    fixture* fx = *state;
    const wf_poly_ref* p = fx->l_area_path;
    wf_straight_point pts[MAX_POINTS];
    uint32_t n;
    assert_int_equal(wf_query_find_straight_path(fx->l_area_query, wf_v3(0.5f, 0.0f, 0.5f),
                                                 wf_v3(3.5f, 0.0f, 3.5f), p, 7, pts, MAX_POINTS,
                                                 WF_STRAIGHT_AREA_CROSSINGS, &n),
                     WF_OK);
    // Start -> corner (3, 1) is z = 0.5 + (x - 0.5) / 5: it enters area 2
    // at x = 2 (z = 0.8) and leaves it at x = 3, the corner itself (merged
    // into the corner). Corner -> end is x = 3 + (z - 1) / 5: area 3 starts
    // at z = 2 (x = 3.2).
    const expect want[] = {
        {0.5f, 0.0f, 0.5f, WF_STRAIGHT_START, p[0]},
        {2.0f, 0.0f, 0.8f, 0, p[2]},
        {3.0f, 0.0f, 1.0f, 0, p[4]},
        {3.2f, 0.0f, 2.0f, 0, p[5]},
        {3.5f, 0.0f, 3.5f, WF_STRAIGHT_END, p[6]},
    };
    check_points(pts, n, want, 5);
    // Every portal: also x = 1 (z = 0.6) and z = 3 (x = 3.4).
    assert_int_equal(wf_query_find_straight_path(fx->l_area_query, wf_v3(0.5f, 0.0f, 0.5f),
                                                 wf_v3(3.5f, 0.0f, 3.5f), p, 7, pts, MAX_POINTS,
                                                 WF_STRAIGHT_ALL_CROSSINGS, &n),
                     WF_OK);
    const expect all[] = {
        {0.5f, 0.0f, 0.5f, WF_STRAIGHT_START, p[0]},
        {1.0f, 0.0f, 0.6f, 0, p[1]},
        {2.0f, 0.0f, 0.8f, 0, p[2]},
        {3.0f, 0.0f, 1.0f, 0, p[4]},
        {3.2f, 0.0f, 2.0f, 0, p[5]},
        {3.4f, 0.0f, 3.0f, 0, p[6]},
        {3.5f, 0.0f, 3.5f, WF_STRAIGHT_END, p[6]},
    };
    check_points(pts, n, all, 7);
}

static void test_all_crossings_on_a_straight_line(void** state) {
    fixture* fx = *state;
    const wf_poly_ref* r = fx->row;
    wf_straight_point pts[MAX_POINTS];
    uint32_t n;
    assert_int_equal(wf_query_find_straight_path(fx->open_query, wf_v3(0.5f, 0.0f, 1.5f),
                                                 wf_v3(3.5f, 0.0f, 1.5f), r, 4, pts, MAX_POINTS,
                                                 WF_STRAIGHT_ALL_CROSSINGS, &n),
                     WF_OK);
    const expect want[] = {
        {0.5f, 0.0f, 1.5f, WF_STRAIGHT_START, r[0]},
        {1.0f, 0.0f, 1.5f, 0, r[1]},
        {2.0f, 0.0f, 1.5f, 0, r[2]},
        {3.0f, 0.0f, 1.5f, 0, r[3]},
        {3.5f, 0.0f, 1.5f, WF_STRAIGHT_END, r[3]},
    };
    check_points(pts, n, want, 5);
    assert_true(pts[1].pos.x == 1.0f && pts[2].pos.x == 2.0f && pts[3].pos.x == 3.0f);
    // Both options together are the same as all crossings.
    assert_int_equal(
        wf_query_find_straight_path(fx->open_query, wf_v3(0.5f, 0.0f, 1.5f),
                                    wf_v3(3.5f, 0.0f, 1.5f), r, 4, pts, MAX_POINTS,
                                    WF_STRAIGHT_ALL_CROSSINGS | WF_STRAIGHT_AREA_CROSSINGS, &n),
        WF_OK);
    check_points(pts, n, want, 5);
    // Too few slots: the first three, partial.
    assert_int_equal(wf_query_find_straight_path(fx->open_query, wf_v3(0.5f, 0.0f, 1.5f),
                                                 wf_v3(3.5f, 0.0f, 1.5f), r, 4, pts, 3,
                                                 WF_STRAIGHT_ALL_CROSSINGS, &n),
                     WF_PARTIAL);
    check_points(pts, n, want, 3);
}

static void test_small_output_is_partial(void** state) {
    fixture* fx = *state;
    const wf_poly_ref* p = fx->l_path;
    wf_vec3 a = wf_v3(0.5f, 0.0f, 0.5f), b = wf_v3(3.5f, 0.0f, 3.5f);
    const expect want[] = {
        {0.5f, 0.0f, 0.5f, WF_STRAIGHT_START, p[0]},
        {3.0f, 0.0f, 1.0f, 0, p[4]},
        {3.5f, 0.0f, 3.5f, WF_STRAIGHT_END, p[6]},
    };
    wf_straight_point pts[MAX_POINTS];
    uint32_t n = 99;
    assert_int_equal(wf_query_find_straight_path(fx->l_query, a, b, p, 7, pts, 1, 0, &n),
                     WF_PARTIAL);
    check_points(pts, n, want, 1);
    assert_int_equal(wf_query_find_straight_path(fx->l_query, a, b, p, 7, pts, 2, 0, &n),
                     WF_PARTIAL);
    check_points(pts, n, want, 2);
    assert_int_equal(wf_query_find_straight_path(fx->l_query, a, b, p, 7, pts, 3, 0, &n), WF_OK);
    check_points(pts, n, want, 3);
}

static void test_unlinked_corridor_is_partial(void** state) {
    fixture* fx = *state;
    const wf_poly_ref* r = fx->row;
    wf_straight_point pts[MAX_POINTS];
    uint32_t n;
    // Cells (0, 1) and (2, 1) do not touch: the path ends in (0, 1) at the
    // point nearest the end.
    wf_poly_ref gap[2] = {r[0], r[2]};
    assert_int_equal(wf_query_find_straight_path(fx->open_query, wf_v3(0.5f, 0.0f, 1.5f),
                                                 wf_v3(2.5f, 0.0f, 1.25f), gap, 2, pts, MAX_POINTS,
                                                 0, &n),
                     WF_PARTIAL);
    const expect want[] = {
        {0.5f, 0.0f, 1.5f, WF_STRAIGHT_START, r[0]},
        {1.0f, 0.0f, 1.25f, WF_STRAIGHT_END, r[0]},
    };
    check_points(pts, n, want, 2);
    // A break further on: followed up to (1, 1).
    wf_poly_ref later[3] = {r[0], r[1], r[3]};
    assert_int_equal(wf_query_find_straight_path(fx->open_query, wf_v3(0.5f, 0.0f, 1.5f),
                                                 wf_v3(3.5f, 0.0f, 1.5f), later, 3, pts, MAX_POINTS,
                                                 0, &n),
                     WF_PARTIAL);
    const expect want_later[] = {
        {0.5f, 0.0f, 1.5f, WF_STRAIGHT_START, r[0]},
        {2.0f, 0.0f, 1.5f, WF_STRAIGHT_END, r[1]},
    };
    check_points(pts, n, want_later, 2);
}

static void test_bad_arguments(void** state) {
    fixture* fx = *state;
    const wf_poly_ref* r = fx->row;
    wf_vec3 a = wf_v3(0.5f, 0.0f, 1.5f), b = wf_v3(3.5f, 0.0f, 1.5f);
    wf_straight_point pts[MAX_POINTS];
    uint32_t n;
    wf_assert_fn* previous = wf_set_assert_hook(test_ignore_assert);
    wf_query* q = fx->open_query;
    assert_int_equal(wf_query_find_straight_path(NULL, a, b, r, 4, pts, MAX_POINTS, 0, &n),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_straight_path(q, a, b, NULL, 4, pts, MAX_POINTS, 0, &n),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_straight_path(q, a, b, r, 0, pts, MAX_POINTS, 0, &n),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_straight_path(q, a, b, r, 4, NULL, MAX_POINTS, 0, &n),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_straight_path(q, a, b, r, 4, pts, 0, 0, &n), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_straight_path(q, a, b, r, 4, pts, MAX_POINTS, 0, NULL),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(
        wf_query_find_straight_path(q, wf_v3(NAN, 0.0f, 0.0f), b, r, 4, pts, MAX_POINTS, 0, &n),
        WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_straight_path(q, a, wf_v3(0.0f, INFINITY, 0.0f), r, 4, pts,
                                                 MAX_POINTS, 0, &n),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_straight_path(q, a, b, r, 4, pts, MAX_POINTS, 8, &n),
                     WF_ERR_INVALID_ARG);
    wf_poly_ref with_null[3] = {r[0], {0}, r[2]};
    assert_int_equal(wf_query_find_straight_path(q, a, b, with_null, 3, pts, MAX_POINTS, 0, &n),
                     WF_ERR_INVALID_ARG);
    wf_set_assert_hook(previous);
}

/* ---------------------------------------------------------------------------
 * Meshes of their own
 */

static void test_corner_on_a_tile_border(void** state) {
    (void)state;
    counting_allocator counter;
    counting_allocator_init(&counter);
    wf_allocator a = counting_allocator_hooks(&counter);
    // 2 x 2 tiles of 2 x 2 cells; free: row z = 0 for x <= 2 and column
    // x = 2. The inner corner (2, 1) lies on the tile border x = 2.
    static const uint8_t blocked[16] = {
        0, 0, 0, 1, //
        1, 1, 0, 1, //
        1, 1, 0, 1, //
        1, 1, 0, 1,
    };
    wf_mesh* mesh = test_mesh_grid(2, 2, 2, 1.0f, blocked, NULL, &a);
    assert_non_null(mesh);
    wf_query* q = make_query(mesh, &counter);
    static const uint32_t cells[6][2] = {{0, 0}, {1, 0}, {2, 0}, {2, 1}, {2, 2}, {2, 3}};
    wf_poly_ref p[6];
    for (int i = 0; i < 6; ++i) {
        p[i] = test_grid_poly(mesh, 2, cells[i][0], cells[i][1]);
        assert_false(wf_poly_ref_is_null(p[i]));
    }
    wf_straight_point pts[MAX_POINTS];
    uint32_t n;
    assert_int_equal(wf_query_find_straight_path(q, wf_v3(0.5f, 0.0f, 0.5f),
                                                 wf_v3(2.5f, 0.0f, 3.5f), p, 6, pts, MAX_POINTS, 0,
                                                 &n),
                     WF_OK);
    const expect want[] = {
        {0.5f, 0.0f, 0.5f, WF_STRAIGHT_START, p[0]},
        {2.0f, 0.0f, 1.0f, 0, p[3]},
        {2.5f, 0.0f, 3.5f, WF_STRAIGHT_END, p[5]},
    };
    check_points(pts, n, want, 3);
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
    assert_int_equal(counting_allocator_live(&counter), 0);
}

static void test_s_shaped_corridor(void** state) {
    (void)state;
    counting_allocator counter;
    counting_allocator_init(&counter);
    wf_allocator a = counting_allocator_hooks(&counter);
    // 5 x 5 cells, free: rows z = 0, 2, 4, column x = 4 between rows 0 and
    // 2, column x = 0 between rows 2 and 4. One way through, four turns.
    static const uint8_t blocked[25] = {
        0, 0, 0, 0, 0, //
        1, 1, 1, 1, 0, //
        0, 0, 0, 0, 0, //
        0, 1, 1, 1, 1, //
        0, 0, 0, 0, 0,
    };
    wf_mesh* mesh = test_mesh_grid(1, 1, 5, 1.0f, blocked, NULL, &a);
    assert_non_null(mesh);
    wf_query* q = make_query(mesh, &counter);
    static const uint32_t cells[17][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}, {4, 1},
                                          {4, 2}, {3, 2}, {2, 2}, {1, 2}, {0, 2}, {0, 3},
                                          {0, 4}, {1, 4}, {2, 4}, {3, 4}, {4, 4}};
    wf_poly_ref p[17];
    for (int i = 0; i < 17; ++i) {
        p[i] = test_grid_poly(mesh, 5, cells[i][0], cells[i][1]);
        assert_false(wf_poly_ref_is_null(p[i]));
    }
    wf_straight_point pts[MAX_POINTS];
    uint32_t n;
    assert_int_equal(wf_query_find_straight_path(q, wf_v3(0.5f, 0.0f, 0.5f),
                                                 wf_v3(4.5f, 0.0f, 4.5f), p, 17, pts, MAX_POINTS, 0,
                                                 &n),
                     WF_OK);
    // Inner corners of the four turns; each ref is the cell the path runs
    // through after the corner.
    const expect want[] = {
        {0.5f, 0.0f, 0.5f, WF_STRAIGHT_START, p[0]},
        {4.0f, 0.0f, 1.0f, 0, p[5]},  // up column x = 4
        {4.0f, 0.0f, 2.0f, 0, p[7]},  // along row 2 towards -x
        {1.0f, 0.0f, 3.0f, 0, p[11]}, // up along x = 1 in cell (0, 3)
        {1.0f, 0.0f, 4.0f, 0, p[13]}, // along row 4
        {4.5f, 0.0f, 4.5f, WF_STRAIGHT_END, p[16]},
    };
    check_points(pts, n, want, 6);
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
    assert_int_equal(counting_allocator_live(&counter), 0);
}

/// Index of ref in path at or after `from`, or -1.
static int corridor_index(const wf_poly_ref* path, uint32_t count, uint32_t from, wf_poly_ref r) {
    for (uint32_t i = from; i < count; ++i) {
        if (path[i].bits == r.bits) {
            return (int)i;
        }
    }
    return -1;
}

/// True when (x, z) lies in (or within eps of) a cell of the corridor.
static bool in_corridor(const wf_mesh* mesh, uint32_t cells, const wf_poly_ref* path,
                        uint32_t count, float x, float z) {
    const float eps = 1e-4f;
    for (int dz = -1; dz <= 1; dz += 2) {
        for (int dx = -1; dx <= 1; dx += 2) {
            float cx = floorf(x + (float)dx * eps), cz = floorf(z + (float)dz * eps);
            if (cx < 0.0f || cz < 0.0f || cx >= (float)cells || cz >= (float)cells) {
                continue;
            }
            wf_poly_ref r = test_grid_poly(mesh, cells, (uint32_t)cx, (uint32_t)cz);
            if (!wf_poly_ref_is_null(r) && corridor_index(path, count, 0, r) >= 0) {
                return true;
            }
        }
    }
    return false;
}

static void test_random_grids_keep_paths_in_the_corridor(void** state) {
    (void)state;
    // Property check over seeded random 10 x 10 grids: whatever corridor
    // find_path returns, the straight path starts and ends at the given
    // points, turns only at mesh vertices, never leaves the corridor, lists
    // refs in corridor order, and is no longer than a greedy corridor path.
    enum { CELLS = 10 };
    counting_allocator counter;
    counting_allocator_init(&counter);
    wf_allocator a = counting_allocator_hooks(&counter);
    wf_rng rng = wf_rng_make(2026, 7);
    uint32_t checked = 0;
    for (int round = 0; round < 40; ++round) {
        uint8_t blocked[CELLS * CELLS];
        for (int i = 0; i < CELLS * CELLS; ++i) {
            blocked[i] = wf_rng_below(&rng, 100) < 30;
        }
        uint32_t s = wf_rng_below(&rng, CELLS * CELLS), e = wf_rng_below(&rng, CELLS * CELLS);
        blocked[s] = 0;
        blocked[e] = 0;
        wf_mesh* mesh = test_mesh_grid(1, 1, CELLS, 1.0f, blocked, NULL, &a);
        assert_non_null(mesh);
        wf_query* q = make_query(mesh, &counter);
        wf_vec3 sp = wf_v3((float)(s % CELLS) + wf_rng_range(&rng, 0.1f, 0.9f), 0.0f,
                           (float)(s / CELLS) + wf_rng_range(&rng, 0.1f, 0.9f));
        wf_vec3 ep = wf_v3((float)(e % CELLS) + wf_rng_range(&rng, 0.1f, 0.9f), 0.0f,
                           (float)(e / CELLS) + wf_rng_range(&rng, 0.1f, 0.9f));
        wf_poly_ref sr = test_grid_poly(mesh, CELLS, s % CELLS, s / CELLS);
        wf_poly_ref er = test_grid_poly(mesh, CELLS, e % CELLS, e / CELLS);
        wf_query_filter f = wf_query_filter_defaults();
        wf_poly_ref path[CELLS * CELLS];
        wf_path_result pr;
        wf_status st = wf_query_find_path(q, sr, er, sp, ep, &f, path, CELLS * CELLS, &pr);
        if (st == WF_OK) {
            wf_straight_point pts[CELLS * CELLS];
            uint32_t n;
            assert_int_equal(
                wf_query_find_straight_path(q, sp, ep, path, pr.count, pts, CELLS * CELLS, 0, &n),
                WF_OK);
            assert_true(n >= 1);
            assert_true(wf_v3_equal(pts[0].pos, sp) && (pts[0].flags & WF_STRAIGHT_START));
            assert_true(wf_v3_equal(pts[n - 1].pos, ep) && (pts[n - 1].flags & WF_STRAIGHT_END));
            assert_true(pts[0].ref.bits == path[0].bits);
            assert_true(pts[n - 1].ref.bits == path[pr.count - 1].bits);
            float length = 0.0f;
            int last_index = 0;
            for (uint32_t i = 0; i < n; ++i) {
                int idx = corridor_index(path, pr.count, (uint32_t)last_index, pts[i].ref);
                assert_true(idx >= last_index);
                last_index = idx;
                if (i > 0 && i + 1 < n) {
                    assert_int_equal(pts[i].flags, 0);
                    assert_true(pts[i].pos.x == floorf(pts[i].pos.x));
                    assert_true(pts[i].pos.z == floorf(pts[i].pos.z));
                }
                if (i == 0) {
                    continue;
                }
                wf_vec3 p0 = pts[i - 1].pos, p1 = pts[i].pos;
                assert_false(wf_v3_equal(p0, p1));
                length += wf_v3_distance(p0, p1);
                for (int k = 0; k <= 64; ++k) {
                    wf_vec3 m = wf_v3_lerp(p0, p1, (float)k / 64.0f);
                    if (!in_corridor(mesh, CELLS, path, pr.count, m.x, m.z)) {
                        fail_msg("round %d: segment %u leaves the corridor at (%g, %g)", round, i,
                                 (double)m.x, (double)m.z);
                    }
                }
            }
            // A path that steps greedily onto each next cell's nearest
            // point stays in the corridor too: the funnel must not be longer.
            float greedy_length = 0.0f;
            wf_vec3 prev = sp;
            for (uint32_t i = 1; i < pr.count; ++i) {
                wf_vec3 next;
                assert_int_equal(wf_query_closest_point_on_poly(q, path[i], prev, &next, NULL),
                                 WF_OK);
                greedy_length += wf_v3_distance(prev, next);
                prev = next;
            }
            greedy_length += wf_v3_distance(prev, ep);
            assert_true(length <= greedy_length + 1e-3f);
            checked++;
        }
        wf_query_destroy(q);
        wf_mesh_destroy(mesh);
    }
    assert_true(checked >= 20); // most rounds had a path
    assert_int_equal(counting_allocator_live(&counter), 0);
}

static void test_stale_ref(void** state) {
    (void)state;
    counting_allocator counter;
    counting_allocator_init(&counter);
    wf_allocator a = counting_allocator_hooks(&counter);
    wf_mesh* mesh = test_mesh_grid(2, 1, 2, 1.0f, NULL, NULL, &a);
    assert_non_null(mesh);
    wf_query* q = make_query(mesh, &counter);
    wf_poly_ref p[4];
    for (uint32_t x = 0; x < 4; ++x) {
        p[x] = test_grid_poly(mesh, 2, x, 0);
        assert_false(wf_poly_ref_is_null(p[x]));
    }
    wf_vec3 a0 = wf_v3(0.5f, 0.0f, 0.5f), b0 = wf_v3(3.5f, 0.0f, 0.75f);
    wf_straight_point pts[MAX_POINTS];
    uint32_t n;
    // Across the tile border x = 2 in a straight line.
    assert_int_equal(wf_query_find_straight_path(q, a0, b0, p, 4, pts, MAX_POINTS, 0, &n), WF_OK);
    const expect want[] = {
        {0.5f, 0.0f, 0.5f, WF_STRAIGHT_START, p[0]},
        {3.5f, 0.0f, 0.75f, WF_STRAIGHT_END, p[3]},
    };
    check_points(pts, n, want, 2);
    wf_tile_ref tile;
    assert_int_equal(wf_mesh_find_tile(mesh, 1, 0, 0, &tile), WF_OK);
    assert_int_equal(wf_mesh_remove_tile(mesh, tile, NULL, NULL), WF_OK);
    n = 99;
    assert_int_equal(wf_query_find_straight_path(q, a0, b0, p, 4, pts, MAX_POINTS, 0, &n),
                     WF_ERR_STALE_REF);
    assert_int_equal(n, 0);
    // The part still alive works.
    assert_int_equal(wf_query_find_straight_path(q, a0, b0, p, 2, pts, MAX_POINTS, 0, &n), WF_OK);
    const expect want_cut[] = {
        {0.5f, 0.0f, 0.5f, WF_STRAIGHT_START, p[0]},
        {2.0f, 0.0f, 0.75f, WF_STRAIGHT_END, p[1]},
    };
    check_points(pts, n, want_cut, 2);
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
    assert_int_equal(counting_allocator_live(&counter), 0);
}

static void test_offmesh_link(void** state) {
    (void)state;
    counting_allocator counter;
    counting_allocator_init(&counter);
    wf_mesh_desc md = {.tile_width = 8.0f,
                       .tile_depth = 8.0f,
                       .max_tiles = 4,
                       .allocator = counting_allocator_hooks(&counter)};
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    // Two islands, x in [1, 3] at y = 0 and x in [5, 7] at y = 1, joined
    // only by a one-way link from (2.5, 0, 2) to (5.5, 1, 2).
    const float verts[] = {
        1, 0, 1, 1, 0, 3, 3, 0, 3, 3, 0, 1, //
        5, 1, 1, 5, 1, 3, 7, 1, 3, 7, 1, 1,
    };
    const uint16_t polys[] = {0, 1, 2, 3, N, N, 4, 5, 6, 7, N, N};
    wf_offmesh_link_desc link = {.start = {2.5f, 0.0f, 2.0f},
                                 .end = {5.5f, 1.0f, 2.0f},
                                 .radius = 0.5f,
                                 .flags = 1,
                                 .user_id = 7};
    wf_tile_build_desc d = {
        .bmin = {0.0f, -1.0f, 0.0f},
        .bmax = {8.0f, 2.0f, 8.0f},
        .verts = verts,
        .vert_count = 8,
        .polys = polys,
        .poly_count = 2,
        .offmesh_links = &link,
        .offmesh_link_count = 1,
        .walkable_height = 2.0f,
        .walkable_radius = 0.5f,
        .walkable_climb = 0.25f,
        .allocator = counting_allocator_hooks(&counter),
    };
    void* data = NULL;
    size_t size = 0;
    assert_int_equal(wf_tile_build(&d, &data, &size), WF_OK);
    wf_tile_ref tile;
    assert_int_equal(
        wf_mesh_add_tile(mesh, data, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &tile), WF_OK);
    wf_poly_ref A = wf_mesh_poly_ref(mesh, tile, 0), B = wf_mesh_poly_ref(mesh, tile, 1);
    wf_poly_ref L = wf_mesh_poly_ref(mesh, tile, 2);
    assert_true(wf_mesh_is_offmesh_link(mesh, L));
    wf_query* q = make_query(mesh, &counter);
    wf_query_filter f = wf_query_filter_defaults();
    wf_vec3 s = wf_v3(1.5f, 0.0f, 1.5f), e = wf_v3(6.5f, 1.0f, 2.5f);
    wf_poly_ref corridor[8];
    wf_path_result pr;
    assert_int_equal(wf_query_find_path(q, A, B, s, e, &f, corridor, 8, &pr), WF_OK);
    assert_int_equal(pr.count, 3);
    assert_true(corridor[0].bits == A.bits && corridor[1].bits == L.bits &&
                corridor[2].bits == B.bits);
    wf_straight_point pts[MAX_POINTS];
    uint32_t n;
    assert_int_equal(
        wf_query_find_straight_path(q, s, e, corridor, pr.count, pts, MAX_POINTS, 0, &n), WF_OK);
    const expect want[] = {
        {1.5f, 0.0f, 1.5f, WF_STRAIGHT_START, A},
        {2.5f, 0.0f, 2.0f, WF_STRAIGHT_OFFMESH, L},
        {5.5f, 1.0f, 2.0f, 0, B},
        {6.5f, 1.0f, 2.5f, WF_STRAIGHT_END, B},
    };
    check_points(pts, n, want, 4);
    uint32_t user_id = 0;
    assert_int_equal(wf_mesh_get_offmesh_user_id(mesh, pts[1].ref, &user_id), WF_OK);
    assert_int_equal(user_id, 7);
    // Crossing options add nothing at a link.
    assert_int_equal(wf_query_find_straight_path(q, s, e, corridor, 3, pts, MAX_POINTS,
                                                 WF_STRAIGHT_ALL_CROSSINGS, &n),
                     WF_OK);
    check_points(pts, n, want, 4);
    // Cut after the link's start.
    assert_int_equal(wf_query_find_straight_path(q, s, e, corridor, 3, pts, 2, 0, &n), WF_PARTIAL);
    check_points(pts, n, want, 2);
    // Starting right on the link's start: that point is start and link.
    assert_int_equal(wf_query_find_straight_path(q, wf_v3(2.5f, 0.0f, 2.0f), e, corridor, 3, pts,
                                                 MAX_POINTS, 0, &n),
                     WF_OK);
    const expect on_link[] = {
        {2.5f, 0.0f, 2.0f, WF_STRAIGHT_START | WF_STRAIGHT_OFFMESH, L},
        {5.5f, 1.0f, 2.0f, 0, B},
        {6.5f, 1.0f, 2.5f, WF_STRAIGHT_END, B},
    };
    check_points(pts, n, on_link, 3);
    // Ending on the link's far end merges the two.
    assert_int_equal(wf_query_find_straight_path(q, s, wf_v3(5.5f, 1.0f, 2.0f), corridor, 3, pts,
                                                 MAX_POINTS, 0, &n),
                     WF_OK);
    const expect at_end[] = {
        {1.5f, 0.0f, 1.5f, WF_STRAIGHT_START, A},
        {2.5f, 0.0f, 2.0f, WF_STRAIGHT_OFFMESH, L},
        {5.5f, 1.0f, 2.0f, WF_STRAIGHT_END, B},
    };
    check_points(pts, n, at_end, 3);
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
    assert_int_equal(counting_allocator_live(&counter), 0);
}

int main(void) {
    const struct CMUnitTest grid_tests[] = {
        cmocka_unit_test(test_l_corridor_bends_at_the_inner_corner),
        cmocka_unit_test(test_l_corridor_from_find_path),
        cmocka_unit_test(test_start_on_the_first_portal_goes_forward),
        cmocka_unit_test(test_start_is_clamped_into_the_first_polygon),
        cmocka_unit_test(test_straight_open_row),
        cmocka_unit_test(test_single_polygon),
        cmocka_unit_test(test_area_crossings),
        cmocka_unit_test(test_area_crossings_around_a_corner),
        cmocka_unit_test(test_all_crossings_on_a_straight_line),
        cmocka_unit_test(test_small_output_is_partial),
        cmocka_unit_test(test_unlinked_corridor_is_partial),
        cmocka_unit_test(test_bad_arguments),
    };
    const struct CMUnitTest other_tests[] = {
        cmocka_unit_test(test_corner_on_a_tile_border),
        cmocka_unit_test(test_s_shaped_corridor),
        cmocka_unit_test(test_random_grids_keep_paths_in_the_corridor),
        cmocka_unit_test(test_stale_ref),
        cmocka_unit_test(test_offmesh_link),
    };
    int failed = cmocka_run_group_tests_name("grid", grid_tests, setup, teardown);
    failed += cmocka_run_group_tests_name("own meshes", other_tests, NULL, NULL);
    return failed;
}
