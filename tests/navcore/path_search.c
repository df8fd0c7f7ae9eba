// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Path searches on hand-drawn grid meshes: exact corridors and costs, area
// costs, flags, partial results, sliced searches, stale refs, off-mesh
// links, bad arguments, query creation (path_search_variants.c: the rest).
#include "path_search_fixture.h"

/* ---------------------------------------------------------------------------
 * Tests
 */
/* ---------------------------------------------------------------------------
 * Tests
 */

static void test_query_create_and_filter_defaults(void** state) {
    (void)state;
    wf_query_filter d = wf_query_filter_defaults();
    for (uint32_t i = 0; i < WF_MAX_AREAS; ++i) {
        assert_true(d.area_cost[i] == 1.0f);
    }
    assert_int_equal(d.include_flags, 0xffff);
    assert_int_equal(d.exclude_flags, 0);

    fixture f;
    fixture_create(&f, 1, 1, 5, CORRIDOR, NULL, 0);
    // Default 2048 nodes; the hash has a power-of-two bucket count.
    // Exact mode's storage: 4 interval nodes and open entries per node, one
    // turning point per node and its power-of-two hash, the pushed-node hashes,
    // the open-node slots (joins).
    size_t exact = 4u * 2048u * (sizeof(wf_exact_node) + sizeof(wf_exact_open)) +
                   2048u * (sizeof(wf_exact_root) + 2u * sizeof(uint32_t) + sizeof(uint64_t));
    size_t expected = sizeof(struct wf_query) +
                      2048u * (sizeof(wf_search_node) + sizeof(wf_search_funnel)) +
                      2048u * sizeof(uint32_t) + 2048u * sizeof(wf_open_entry) + exact;
    assert_int_equal(wf_query_get_stats(f.query).memory_bytes, expected);
    assert_int_equal(wf_query_get_stats(NULL).memory_bytes, 0);

    counting_allocator counter;
    counting_allocator_init(&counter);
    wf_query_desc qd = {.mesh = f.mesh, .max_nodes = 100};
    qd.allocator = counting_allocator_hooks(&counter);
    wf_query* q = NULL;
    assert_int_equal(wf_query_create(&qd, &q), WF_OK);
    exact = 400u * (sizeof(wf_exact_node) + sizeof(wf_exact_open)) + 100u * sizeof(wf_exact_root) +
            128u * (2u * sizeof(uint32_t) + sizeof(uint64_t));
    expected = sizeof(struct wf_query) +
               100u * (sizeof(wf_search_node) + sizeof(wf_search_funnel)) +
               128u * sizeof(uint32_t) + 100u * sizeof(wf_open_entry) + exact;
    assert_int_equal(wf_query_get_stats(q).memory_bytes, expected);
    // Every byte the query holds from its allocator.
    assert_int_equal(wf_query_get_stats(q).memory_bytes, (size_t)counter.live_bytes);
    wf_query_destroy(q);
    wf_query_destroy(NULL);
    assert_int_equal(counting_allocator_live(&counter), 0);
    // Query, nodes, funnels, buckets, heap, the exact mode's arrays:
    // fail each allocation in turn.
    for (unsigned long k = 1; k <= 10; ++k) {
        counting_allocator_init(&counter);
        counter.fail_at = k;
        q = NULL;
        assert_int_equal(wf_query_create(&qd, &q), WF_ERR_OUT_OF_MEMORY);
        assert_null(q);
        assert_int_equal(counting_allocator_live(&counter), 0);
    }

    wf_assert_fn* old = wf_set_assert_hook(count_assert);
    assert_calls = 0;
    assert_int_equal(wf_query_create(NULL, &q), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_create(&qd, NULL), WF_ERR_INVALID_ARG);
    wf_query_desc no_mesh = {.max_nodes = 10};
    assert_int_equal(wf_query_create(&no_mesh, &q), WF_ERR_INVALID_ARG);
    wf_query_desc huge = {.mesh = f.mesh, .max_nodes = UINT32_MAX};
    assert_int_equal(wf_query_create(&huge, &q), WF_ERR_INVALID_ARG);
    wf_query_desc half_allocator = {.mesh = f.mesh};
    half_allocator.allocator.alloc = qd.allocator.alloc;
    assert_int_equal(wf_query_create(&half_allocator, &q), WF_ERR_INVALID_ARG);
    wf_set_assert_hook(old);
    assert_int_equal(assert_calls, MISUSE(5));
    fixture_destroy(&f);
}

static void test_straight_corridor(void** state) {
    (void)state;
    fixture f;
    fixture_create(&f, 1, 1, 5, CORRIDOR, NULL, 0);
    wf_poly_ref path[16];
    wf_path_result r;
    assert_int_equal(find_cells(&f, 0, 0, 4, 0, path, 16, &r), WF_OK);
    check_cells(&f, path, r.count, SHORT_ROUTE, 5);
    assert_int_equal(r.flags, 0);
    // 0.5 to the first edge, 3 crossings, 0.5 to the end point.
    assert_float_equal(r.cost, 4.0f, EPS);

    // Backwards gives the reverse.
    assert_int_equal(find_cells(&f, 4, 0, 0, 0, path, 16, &r), WF_OK);
    assert_int_equal(r.count, 5);
    for (uint32_t i = 0; i < 5; ++i) {
        assert_true(path[i].bits == cell(&f, 4 - i, 0).bits);
    }

    // Start and end in one polygon: that polygon, the distance between.
    assert_int_equal(wf_query_find_path(f.query, cell(&f, 2, 0), cell(&f, 2, 0),
                                        wf_v3(2.1f, 0, 0.5f), wf_v3(2.9f, 0, 0.5f), &f.filter, path,
                                        16, &r),
                     WF_OK);
    assert_int_equal(r.count, 1);
    assert_true(path[0].bits == cell(&f, 2, 0).bits);
    assert_int_equal(r.flags, 0);
    assert_float_equal(r.cost, 0.8f, EPS);
    fixture_destroy(&f);
}

static void test_snake_detour(void** state) {
    (void)state;
    fixture f;
    fixture_create(&f, 1, 1, 5, SNAKE, NULL, 0);
    wf_poly_ref path[16];
    wf_path_result r;
    assert_int_equal(find_cells(&f, 0, 0, 4, 0, path, 16, &r), WF_OK);
    check_cells(&f, path, r.count, SNAKE_PATH, 11);
    assert_int_equal(r.flags, 0);
    // The shortest way along the corridor (see the fixture): the cost is the
    // pulled path's length, not a zig-zag through edge points.
    assert_float_equal(r.cost, SNAKE_COST, EPS);
    assert_true(SNAKE_COST > 6.88f && SNAKE_COST < 6.89f);
    fixture_destroy(&f);
}

static void test_wall_detour_in_open_field(void** state) {
    (void)state;
    // Column x = 2 is a wall except at the bottom row.
    static const char* const rows[5] = {"..#..", "..#..", "..#..", "..#..", "....."};
    fixture f;
    fixture_create(&f, 1, 1, 5, rows, NULL, 0);
    wf_poly_ref path[32];
    wf_path_result r;
    assert_int_equal(find_cells(&f, 0, 0, 4, 0, path, 32, &r), WF_OK);
    // Fewest cells: 4 down, 4 across, 4 up = 13, through the gap (2,4).
    assert_int_equal(r.count, 13);
    assert_int_equal(r.flags, 0);
    assert_true(path[0].bits == cell(&f, 0, 0).bits);
    assert_true(path[12].bits == cell(&f, 4, 0).bits);
    assert_true(path[6].bits == cell(&f, 2, 4).bits);
    check_adjacent(&f, path, r.count);
    // The cost is the pulled way through the corridor, so at least the
    // shortest way, around the wall's corners (2,4) and (3,4),
    // 2 * sqrt(1.5^2 + 3.5^2) + 1 = 8.616. One state per cell may keep a
    // corridor that first steps east and bends round (1,1) (8.677): within
    // 1 % (a quality bound, not a theorem on meshes of single cells).
    float shortest = 2.0f * wf_v2_distance(centre(0, 0), wf_v3(2, 0, 4)) + 1.0f;
    assert_float_equal(shortest, 8.6158f, EPS);
    assert_true(r.cost >= shortest - EPS);
    assert_true(r.cost <= shortest * 1.01f);
    fixture_destroy(&f);
}

static void test_area_costs_pick_the_cheaper_route(void** state) {
    (void)state;
    uint8_t areas[25] = {0};
    areas[1] = areas[2] = areas[3] = 1; // (1..3, 0): the short route's middle
    fixture f;
    fixture_create(&f, 1, 1, 5, TWO_ROUTES, areas, 0);
    wf_poly_ref path[16];
    wf_path_result r;
    // The short route crosses its edges on the line z = 0.5: 1 + 3 * cost;
    // the long route costs LONG_ROUTE_COST = 6.162 (see the fixture), so
    // the short one wins below cost 1.72.
    assert_true(LONG_ROUTE_COST > 6.16f && LONG_ROUTE_COST < 6.17f);
    // Equal costs: the shorter route.
    assert_int_equal(find_cells(&f, 0, 0, 4, 0, path, 16, &r), WF_OK);
    check_cells(&f, path, r.count, SHORT_ROUTE, 5);
    assert_float_equal(r.cost, 4.0f, EPS);
    // Cost 1.5: short = 0.5 + 3 * 1.5 + 0.5 = 5.5 < 6.162 long.
    f.filter.area_cost[1] = 1.5f;
    assert_int_equal(find_cells(&f, 0, 0, 4, 0, path, 16, &r), WF_OK);
    check_cells(&f, path, r.count, SHORT_ROUTE, 5);
    assert_float_equal(r.cost, 5.5f, EPS);
    // Cost 2: short = 7 > 6.162: around the wall.
    f.filter.area_cost[1] = 2.0f;
    assert_int_equal(find_cells(&f, 0, 0, 4, 0, path, 16, &r), WF_OK);
    check_cells(&f, path, r.count, LONG_ROUTE, 9);
    assert_float_equal(r.cost, LONG_ROUTE_COST, EPS);
    f.filter.area_cost[1] = 10.0f;
    assert_int_equal(find_cells(&f, 0, 0, 4, 0, path, 16, &r), WF_OK);
    check_cells(&f, path, r.count, LONG_ROUTE, 9);
    assert_float_equal(r.cost, LONG_ROUTE_COST, EPS);
    // Free area: only the two half cells at the ends cost.
    f.filter.area_cost[1] = 0.0f;
    assert_int_equal(find_cells(&f, 0, 0, 4, 0, path, 16, &r), WF_OK);
    check_cells(&f, path, r.count, SHORT_ROUTE, 5);
    assert_float_equal(r.cost, 1.0f, EPS);
    // The mesh's area can change at run time too.
    f.filter = wf_query_filter_defaults();
    f.filter.area_cost[7] = 5.0f;
    assert_int_equal(wf_mesh_set_poly_area(f.mesh, cell(&f, 2, 0), 7), WF_OK);
    assert_int_equal(find_cells(&f, 0, 0, 4, 0, path, 16, &r), WF_OK);
    // Short: 0.5 + 1 + 5 + 1 + 0.5 = 8 > 6.162.
    check_cells(&f, path, r.count, LONG_ROUTE, 9);
    assert_float_equal(r.cost, LONG_ROUTE_COST, EPS);
    fixture_destroy(&f);
}

static void test_flags_make_polygons_impassable(void** state) {
    (void)state;
    fixture f;
    fixture_create(&f, 1, 1, 5, TWO_ROUTES, NULL, 0);
    wf_poly_ref path[16];
    wf_path_result r;
    assert_int_equal(wf_mesh_set_poly_flags(f.mesh, cell(&f, 2, 0), 0x2), WF_OK);
    // Excluded: around the wall.
    f.filter.exclude_flags = 0x2;
    assert_int_equal(find_cells(&f, 0, 0, 4, 0, path, 16, &r), WF_OK);
    check_cells(&f, path, r.count, LONG_ROUTE, 9);
    assert_float_equal(r.cost, LONG_ROUTE_COST, EPS);
    // Not included: the same.
    f.filter = wf_query_filter_defaults();
    f.filter.include_flags = 0x1;
    assert_int_equal(find_cells(&f, 0, 0, 4, 0, path, 16, &r), WF_OK);
    check_cells(&f, path, r.count, LONG_ROUTE, 9);
    // Default filter passes flag 0x2.
    f.filter = wf_query_filter_defaults();
    assert_int_equal(find_cells(&f, 0, 0, 4, 0, path, 16, &r), WF_OK);
    check_cells(&f, path, r.count, SHORT_ROUTE, 5);

    // An excluded goal is never entered: partial, ending at the reached
    // cell nearest to it: (3,0), entered at (3, 0.5), 1.5 from the end
    // point; (4,1), entered at (4, 2), is 1.581 away.
    assert_int_equal(wf_mesh_set_poly_flags(f.mesh, cell(&f, 2, 0), 0x1), WF_OK);
    assert_int_equal(wf_mesh_set_poly_flags(f.mesh, cell(&f, 4, 0), 0x2), WF_OK);
    f.filter.exclude_flags = 0x2;
    assert_int_equal(find_cells(&f, 0, 0, 4, 0, path, 16, &r), WF_PARTIAL);
    assert_int_equal(r.flags, WF_PATH_PARTIAL);
    check_cells(&f, path, r.count, SHORT_ROUTE, 4);
    assert_float_equal(r.cost, 2.5f, EPS);
    fixture_destroy(&f);
}

static void test_unreachable_goal_gives_partial_path(void** state) {
    (void)state;
    static const char* const rows[5] = {"...#.", "#####", "#####", "#####", "#####"};
    fixture f;
    fixture_create(&f, 1, 1, 5, rows, NULL, 0);
    wf_poly_ref path[16];
    wf_path_result r;
    assert_int_equal(find_cells(&f, 0, 0, 4, 0, path, 16, &r), WF_PARTIAL);
    assert_int_equal(r.flags, WF_PATH_PARTIAL);
    check_cells(&f, path, r.count, SHORT_ROUTE, 3);
    assert_float_equal(r.cost, 1.5f, EPS); // to (2,0)'s entry point
    bool exists = true;
    assert_int_equal(wf_query_path_exists(f.query, cell(&f, 0, 0), cell(&f, 4, 0), centre(0, 0),
                                          centre(4, 0), &f.filter, &exists),
                     WF_OK);
    assert_false(exists);
    // Partial and cut at once.
    assert_int_equal(find_cells(&f, 0, 0, 4, 0, path, 2, &r), WF_PARTIAL);
    assert_int_equal(r.flags, WF_PATH_PARTIAL | WF_PATH_BUFFER_FULL);
    check_cells(&f, path, r.count, SHORT_ROUTE, 2);
    fixture_destroy(&f);
}

static void test_small_node_pool_runs_out(void** state) {
    (void)state;
    static const char* const rows[8] = {"........", "########", "########", "########",
                                        "########", "########", "########", "########"};
    static const uint32_t row0[8][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 0},
                                        {4, 0}, {5, 0}, {6, 0}, {7, 0}};
    fixture f;
    fixture_create(&f, 1, 1, 8, rows, NULL, 4);
    wf_poly_ref path[16];
    wf_path_result r;
    // Four nodes: (0,0)..(3,0); (4,0) finds no node.
    assert_int_equal(find_cells(&f, 0, 0, 7, 0, path, 16, &r), WF_PARTIAL);
    assert_int_equal(r.flags, WF_PATH_PARTIAL | WF_PATH_OUT_OF_NODES);
    check_cells(&f, path, r.count, row0, 4);
    assert_float_equal(r.cost, 2.5f, EPS);
    assert_int_equal(find_cells(&f, 0, 0, 4, 0, path, 16, &r), WF_PARTIAL);
    assert_int_equal(r.flags, WF_PATH_PARTIAL | WF_PATH_OUT_OF_NODES);
    check_cells(&f, path, r.count, row0, 4);

    bool exists = true;
    assert_int_equal(wf_query_path_exists(f.query, cell(&f, 0, 0), cell(&f, 7, 0), centre(0, 0),
                                          centre(7, 0), &f.filter, &exists),
                     WF_PARTIAL);
    assert_false(exists);
    // path_exists needs no node for the goal itself: seeing it is enough.
    assert_int_equal(wf_query_path_exists(f.query, cell(&f, 0, 0), cell(&f, 4, 0), centre(0, 0),
                                          centre(4, 0), &f.filter, &exists),
                     WF_OK);
    assert_true(exists);
    fixture_destroy(&f);

    fixture_create(&f, 1, 1, 8, rows, NULL, 8);
    assert_int_equal(find_cells(&f, 0, 0, 7, 0, path, 16, &r), WF_OK);
    check_cells(&f, path, r.count, row0, 8);
    assert_int_equal(r.flags, 0);
    assert_float_equal(r.cost, 7.0f, EPS);
    fixture_destroy(&f);
}

static void test_small_path_buffer_keeps_the_start(void** state) {
    (void)state;
    fixture f;
    fixture_create(&f, 1, 1, 5, SNAKE, NULL, 0);
    wf_poly_ref path[16];
    wf_path_result r;
    memset(path, 0, sizeof path);
    assert_int_equal(find_cells(&f, 0, 0, 4, 0, path, 4, &r), WF_PARTIAL);
    assert_int_equal(r.flags, WF_PATH_BUFFER_FULL);
    check_cells(&f, path, r.count, SNAKE_PATH, 4);
    assert_true(wf_poly_ref_is_null(path[4])); // nothing past max_path
    // To (1,2)'s entry: round (1,1) to (2,2), the end of edge z = 2 nearest
    // the line to E mirrored over it: sqrt(0.5) + sqrt(2) = 2.121.
    assert_float_equal(r.cost, TURN + sqrtf(2.0f), EPS);
    assert_int_equal(find_cells(&f, 0, 0, 4, 0, path, 10, &r), WF_PARTIAL);
    assert_int_equal(r.flags, WF_PATH_BUFFER_FULL);
    check_cells(&f, path, r.count, SNAKE_PATH, 10);
    assert_int_equal(find_cells(&f, 0, 0, 4, 0, path, 11, &r), WF_OK);
    assert_int_equal(r.flags, 0);
    check_cells(&f, path, r.count, SNAKE_PATH, 11);
    assert_int_equal(find_cells(&f, 0, 0, 4, 0, path, 1, &r), WF_PARTIAL);
    check_cells(&f, path, r.count, SNAKE_PATH, 1);
    fixture_destroy(&f);
}

/// Runs a sliced search one expansion at a time and checks it against
/// find_path: same refs, flags and cost, bit for bit.
static void check_sliced_matches(fixture* f, uint32_t sx, uint32_t sz, uint32_t ex, uint32_t ez,
                                 uint32_t max_path) {
    wf_poly_ref whole[32], sliced[32];
    wf_path_result rw, rs;
    wf_status sw = find_cells(f, sx, sz, ex, ez, whole, max_path, &rw);
    assert_int_equal(wf_query_begin_path(f->query, cell(f, sx, sz), cell(f, ex, ez), centre(sx, sz),
                                         centre(ex, ez), &f->filter),
                     WF_OK);
    uint32_t iterations = 99;
    assert_int_equal(wf_query_update_path(f->query, 0, &iterations), WF_IN_PROGRESS);
    assert_int_equal(iterations, 0);
    wf_status s;
    uint32_t calls = 0, total = 0;
    do {
        s = wf_query_update_path(f->query, 1, &iterations);
        assert_true(iterations <= 1);
        total += iterations;
        calls++;
        assert_true(calls < 1000);
    } while (s == WF_IN_PROGRESS);
    assert_true(total > 1);
    // Asking again after the end repeats the outcome.
    assert_int_equal(wf_query_update_path(f->query, 5, &iterations), s);
    assert_int_equal(iterations, 0);
    wf_status sf = wf_query_finish_path(f->query, sliced, max_path, &rs);
    assert_int_equal(sf, sw);
    assert_int_equal(rs.count, rw.count);
    assert_int_equal(rs.flags, rw.flags);
    assert_true(rs.cost == rw.cost);
    assert_memory_equal(sliced, whole, rw.count * sizeof(wf_poly_ref));
}

static void test_sliced_search_matches_find_path(void** state) {
    (void)state;
    uint8_t areas[25] = {0};
    areas[1] = areas[2] = areas[3] = 1;
    fixture f;
    fixture_create(&f, 1, 1, 5, TWO_ROUTES, areas, 0);
    f.filter.area_cost[1] = 3.0f;
    check_sliced_matches(&f, 0, 0, 4, 0, 16);
    check_sliced_matches(&f, 4, 2, 0, 0, 16);
    check_sliced_matches(&f, 0, 0, 4, 0, 3);
    fixture_destroy(&f);
    static const char* const open[5] = {".....", ".....", ".#...", ".#.#.", "....."};
    fixture_create(&f, 1, 1, 5, open, NULL, 0);
    check_sliced_matches(&f, 0, 4, 4, 0, 16);
    check_sliced_matches(&f, 2, 4, 4, 3, 16);
    fixture_destroy(&f);
    // Partial (unreachable) searches agree too.
    static const char* const cut[5] = {"...#.", "#####", "#####", "#####", "#####"};
    fixture_create(&f, 1, 1, 5, cut, NULL, 0);
    check_sliced_matches(&f, 0, 0, 4, 0, 16);
    fixture_destroy(&f);

    // The filter is copied at begin: changing it afterwards has no effect.
    fixture_create(&f, 1, 1, 5, TWO_ROUTES, areas, 0);
    f.filter.area_cost[1] = 3.0f;
    assert_int_equal(wf_query_begin_path(f.query, cell(&f, 0, 0), cell(&f, 4, 0), centre(0, 0),
                                         centre(4, 0), &f.filter),
                     WF_OK);
    f.filter.area_cost[1] = 1.0f;
    assert_int_equal(wf_query_update_path(f.query, 1000, NULL), WF_OK);
    wf_poly_ref path[16];
    wf_path_result r;
    assert_int_equal(wf_query_finish_path(f.query, path, 16, &r), WF_OK);
    check_cells(&f, path, r.count, LONG_ROUTE, 9);
    // Finishing early gives the best partial path so far.
    assert_int_equal(wf_query_begin_path(f.query, cell(&f, 0, 0), cell(&f, 4, 0), centre(0, 0),
                                         centre(4, 0), &f.filter),
                     WF_OK);
    assert_int_equal(wf_query_finish_path(f.query, path, 16, &r), WF_PARTIAL);
    assert_int_equal(r.flags, WF_PATH_PARTIAL);
    check_cells(&f, path, r.count, SHORT_ROUTE, 1);
    // No search any more: update and finish are misuse.
    wf_assert_fn* old = wf_set_assert_hook(count_assert);
    assert_calls = 0;
    assert_int_equal(wf_query_update_path(f.query, 1, NULL), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_finish_path(f.query, path, 16, &r), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_update_path(NULL, 1, NULL), WF_ERR_INVALID_ARG);
    wf_set_assert_hook(old);
    assert_int_equal(assert_calls, MISUSE(3));
    fixture_destroy(&f);
}

static wf_tile_ref tile_at(const fixture* f, int32_t x, int32_t z) {
    wf_tile_ref t;
    assert_int_equal(wf_mesh_find_tile(f->mesh, x, z, 0, &t), WF_OK);
    return t;
}

static void test_stale_refs(void** state) {
    (void)state;
    // Two tiles of 2 x 2 cells; row 0 is a corridor across both.
    static const char* const rows[2] = {"....", "####"};
    static const uint32_t corridor[4][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}};
    fixture f;
    fixture_create(&f, 2, 1, 2, rows, NULL, 0);
    wf_poly_ref path[8];
    wf_path_result r;
    assert_int_equal(find_cells(&f, 0, 0, 3, 0, path, 8, &r), WF_OK);
    check_cells(&f, path, r.count, corridor, 4);

    // Mid-search: (2,0) is open when its tile disappears.
    assert_int_equal(wf_query_begin_path(f.query, cell(&f, 0, 0), cell(&f, 3, 0), centre(0, 0),
                                         centre(3, 0), &f.filter),
                     WF_OK);
    assert_int_equal(wf_query_update_path(f.query, 2, NULL), WF_IN_PROGRESS);
    assert_int_equal(wf_mesh_remove_tile(f.mesh, tile_at(&f, 1, 0), NULL, NULL), WF_OK);
    assert_int_equal(wf_query_update_path(f.query, 10, NULL), WF_ERR_STALE_REF);
    assert_int_equal(wf_query_finish_path(f.query, path, 8, &r), WF_ERR_STALE_REF);
    assert_int_equal(r.count, 0);

    // Stale refs up front.
    assert_int_equal(find_cells(&f, 0, 0, 3, 0, path, 8, &r), WF_ERR_STALE_REF);
    assert_int_equal(r.count, 0);
    assert_int_equal(find_cells(&f, 3, 0, 0, 0, path, 8, &r), WF_ERR_STALE_REF);
    assert_int_equal(wf_query_begin_path(f.query, cell(&f, 3, 0), cell(&f, 0, 0), centre(3, 0),
                                         centre(0, 0), &f.filter),
                     WF_ERR_STALE_REF);
    bool exists = true;
    assert_int_equal(wf_query_path_exists(f.query, cell(&f, 0, 0), cell(&f, 2, 0), centre(0, 0),
                                          centre(2, 0), &f.filter, &exists),
                     WF_ERR_STALE_REF);
    assert_false(exists);
    wf_vec3 goal;
    assert_int_equal(wf_query_find_path_to_box(f.query, cell(&f, 2, 0), centre(2, 0),
                                               wf_v3(0, -1, 0), wf_v3(1, 1, 1), &f.filter, path, 8,
                                               &r, &goal),
                     WF_ERR_STALE_REF);
    uint32_t index = 99;
    wf_poly_ref goals[2] = {cell(&f, 1, 0), cell(&f, 3, 0)};
    assert_int_equal(wf_query_find_nearest_goal(f.query, cell(&f, 0, 0), centre(0, 0), goals, 2,
                                                &f.filter, &index, path, 8, &r),
                     WF_ERR_STALE_REF);
    assert_int_equal(index, 99);
    // What is left still works.
    assert_int_equal(wf_query_find_path(f.query, cell(&f, 0, 0), cell(&f, 1, 0), centre(0, 0),
                                        centre(1, 0), &f.filter, path, 8, &r),
                     WF_OK);
    check_cells(&f, path, r.count, corridor, 2);
    fixture_destroy(&f);

    // The parent of an open node goes stale: (2,0) was reached from (1,0).
    fixture_create(&f, 2, 1, 2, rows, NULL, 0);
    assert_int_equal(wf_query_begin_path(f.query, cell(&f, 0, 0), cell(&f, 3, 0), centre(0, 0),
                                         centre(3, 0), &f.filter),
                     WF_OK);
    assert_int_equal(wf_query_update_path(f.query, 2, NULL), WF_IN_PROGRESS);
    assert_int_equal(wf_mesh_remove_tile(f.mesh, tile_at(&f, 0, 0), NULL, NULL), WF_OK);
    assert_int_equal(wf_query_update_path(f.query, 10, NULL), WF_ERR_STALE_REF);
    assert_int_equal(wf_query_finish_path(f.query, path, 8, &r), WF_ERR_STALE_REF);
    fixture_destroy(&f);
}

static void test_paths_across_tiles(void** state) {
    (void)state;
    // 3 x 3 tiles of 2 x 2 cells, all open: portals join them.
    fixture f;
    fixture_create(&f, 3, 3, 2, NULL, NULL, 0);
    static const uint32_t row0[6][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}};
    wf_poly_ref path[32];
    wf_path_result r;
    assert_int_equal(find_cells(&f, 0, 0, 5, 0, path, 32, &r), WF_OK);
    check_cells(&f, path, r.count, row0, 6);
    assert_float_equal(r.cost, 5.0f, EPS);
    // Corner to corner: 11 cells, each step +x or +z.
    assert_int_equal(find_cells(&f, 0, 0, 5, 5, path, 32, &r), WF_OK);
    assert_int_equal(r.count, 11);
    check_adjacent(&f, path, r.count);
    for (uint32_t i = 1; i < r.count; ++i) {
        uint32_t ax, az, bx, bz;
        cell_of(&f, path[i - 1], &ax, &az);
        cell_of(&f, path[i], &bx, &bz);
        assert_true(bx >= ax && bz >= az);
    }
    // The cost is the pulled way through the corridor: the straight line
    // (it runs through the cells' corners, and the corridor holds it).
    assert_float_equal(r.cost, wf_v2_distance(centre(0, 0), centre(5, 5)), EPS);
    fixture_destroy(&f);

    // The middle of a row of three tiles removed: no way across.
    fixture_create(&f, 3, 1, 2, NULL, NULL, 0);
    assert_int_equal(wf_mesh_remove_tile(f.mesh, tile_at(&f, 1, 0), NULL, NULL), WF_OK);
    bool exists = true;
    assert_int_equal(wf_query_path_exists(f.query, cell(&f, 0, 0), cell(&f, 5, 0), centre(0, 0),
                                          centre(5, 0), &f.filter, &exists),
                     WF_OK);
    assert_false(exists);
    fixture_destroy(&f);
}

/// One tile holding two unit squares, A at x 0..1 and B at x 3..4 (z 0..1),
/// joined only by an off-mesh link from A's centre to B's centre.
static wf_mesh* offmesh_mesh(bool bidirectional, wf_tile_ref* out_tile,
                             const wf_allocator* allocator) {
    const float verts[] = {0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0, 3, 0, 0, 3, 0, 1, 4, 0, 1, 4, 0, 0};
    uint16_t polys[2 * WF_MAX_VERTS_PER_POLY];
    for (uint32_t i = 0; i < 2 * WF_MAX_VERTS_PER_POLY; ++i) {
        polys[i] = WF_NULL_INDEX;
    }
    for (uint16_t k = 0; k < 4; ++k) {
        polys[k] = k;
        polys[WF_MAX_VERTS_PER_POLY + k] = (uint16_t)(4 + k);
    }
    wf_offmesh_link_desc link = {
        .start = wf_v3(0.5f, 0, 0.5f),
        .end = wf_v3(3.5f, 0, 0.5f),
        .radius = 0.3f,
        .bidirectional = bidirectional,
        .area = 5,
        .flags = 0x8,
        .user_id = 77,
    };
    wf_tile_build_desc d = {
        .bmin = wf_v3(0, -1, 0),
        .bmax = wf_v3(5, 1, 5),
        .verts = verts,
        .vert_count = 8,
        .polys = polys,
        .poly_count = 2,
        .offmesh_links = &link,
        .offmesh_link_count = 1,
        .walkable_height = 2.0f,
        .walkable_radius = 0.5f,
        .walkable_climb = 0.5f,
        .allocator = *allocator,
    };
    wf_mesh_desc md = {.tile_width = 5, .tile_depth = 5, .max_tiles = 4, .allocator = *allocator};
    wf_mesh* mesh = NULL;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    void* blob = NULL;
    size_t size = 0;
    assert_int_equal(wf_tile_build(&d, &blob, &size), WF_OK);
    assert_int_equal(
        wf_mesh_add_tile(mesh, blob, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, out_tile),
        WF_OK);
    return mesh;
}

static void test_offmesh_links(void** state) {
    (void)state;
    counting_allocator counter;
    counting_allocator_init(&counter);
    wf_allocator a = counting_allocator_hooks(&counter);
    for (int bidirectional = 0; bidirectional <= 1; ++bidirectional) {
        wf_tile_ref tile;
        wf_mesh* mesh = offmesh_mesh(bidirectional != 0, &tile, &a);
        wf_query* q = NULL;
        assert_int_equal(wf_query_create(&(wf_query_desc){.mesh = mesh, .allocator = a}, &q),
                         WF_OK);
        wf_poly_ref pa = wf_mesh_poly_ref(mesh, tile, 0), pb = wf_mesh_poly_ref(mesh, tile, 1);
        wf_poly_ref link = wf_mesh_poly_ref(mesh, tile, 2);
        assert_true(wf_mesh_is_offmesh_link(mesh, link));
        wf_query_filter filter = wf_query_filter_defaults();
        filter.area_cost[5] = 2.0f;
        wf_poly_ref path[8];
        wf_path_result r;
        // 0.3 to the link's start, 3 m of link at cost 2, 0.2 to the end.
        assert_int_equal(wf_query_find_path(q, pa, pb, wf_v3(0.2f, 0, 0.5f), wf_v3(3.7f, 0, 0.5f),
                                            &filter, path, 8, &r),
                         WF_OK);
        assert_int_equal(r.count, 3);
        assert_true(path[0].bits == pa.bits && path[1].bits == link.bits &&
                    path[2].bits == pb.bits);
        assert_float_equal(r.cost, 0.3f + 6.0f + 0.2f, EPS);
        // Backwards only when the link is bidirectional.
        wf_status s = wf_query_find_path(q, pb, pa, wf_v3(3.7f, 0, 0.5f), wf_v3(0.2f, 0, 0.5f),
                                         &filter, path, 8, &r);
        if (bidirectional) {
            assert_int_equal(s, WF_OK);
            assert_int_equal(r.count, 3);
            assert_true(path[0].bits == pb.bits && path[1].bits == link.bits &&
                        path[2].bits == pa.bits);
            assert_float_equal(r.cost, 0.2f + 6.0f + 0.3f, EPS);
        } else {
            assert_int_equal(s, WF_PARTIAL);
            assert_int_equal(r.flags, WF_PATH_PARTIAL);
            assert_int_equal(r.count, 1);
            assert_true(path[0].bits == pb.bits);
        }
        // Excluding the link's flags cuts the only way.
        filter.exclude_flags = 0x8;
        assert_int_equal(wf_query_find_path(q, pa, pb, wf_v3(0.2f, 0, 0.5f), wf_v3(3.7f, 0, 0.5f),
                                            &filter, path, 8, &r),
                         WF_PARTIAL);
        assert_int_equal(r.count, 1);
        assert_true(path[0].bits == pa.bits);
        bool exists = true;
        assert_int_equal(wf_query_path_exists(q, pa, pb, wf_v3(0.2f, 0, 0.5f), wf_v3(3.7f, 0, 0.5f),
                                              &filter, &exists),
                         WF_OK);
        assert_false(exists);
        wf_query_destroy(q);
        wf_mesh_destroy(mesh);
    }
    assert_int_equal(counting_allocator_live(&counter), 0);
}

static void test_bad_arguments(void** state) {
    (void)state;
    fixture f;
    fixture_create(&f, 1, 1, 5, CORRIDOR, NULL, 0);
    wf_poly_ref path[8];
    wf_path_result r;
    wf_poly_ref s = cell(&f, 0, 0), e = cell(&f, 4, 0), null_ref = {0};
    wf_vec3 sp = centre(0, 0), ep = centre(4, 0), nan_pos = wf_v3(NAN, 0, 0);
    bool exists;
    wf_assert_fn* old = wf_set_assert_hook(count_assert);
    assert_calls = 0;
    assert_int_equal(wf_query_find_path(NULL, s, e, sp, ep, &f.filter, path, 8, &r),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_path(f.query, s, e, sp, ep, NULL, path, 8, &r),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_path(f.query, s, e, sp, ep, &f.filter, NULL, 8, &r),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_path(f.query, s, e, sp, ep, &f.filter, path, 8, NULL),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_path(f.query, s, e, sp, ep, &f.filter, path, 0, &r),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_path(f.query, null_ref, e, sp, ep, &f.filter, path, 8, &r),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_path(f.query, s, null_ref, sp, ep, &f.filter, path, 8, &r),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_path(f.query, s, e, nan_pos, ep, &f.filter, path, 8, &r),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_path(f.query, s, e, sp, nan_pos, &f.filter, path, 8, &r),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(r.count, 0);
    wf_query_filter bad = f.filter;
    bad.area_cost[3] = -1.0f;
    assert_int_equal(wf_query_find_path(f.query, s, e, sp, ep, &bad, path, 8, &r),
                     WF_ERR_INVALID_ARG);
    bad.area_cost[3] = NAN;
    assert_int_equal(wf_query_begin_path(f.query, s, e, sp, ep, &bad), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_begin_path(f.query, s, e, sp, ep, NULL), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_begin_path(NULL, s, e, sp, ep, &f.filter), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_path_exists(f.query, s, e, sp, ep, &f.filter, NULL),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_path_exists(f.query, s, null_ref, sp, ep, &f.filter, &exists),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_path_exists(f.query, s, e, sp, nan_pos, &f.filter, &exists),
                     WF_ERR_INVALID_ARG);
    wf_set_assert_hook(old);
    assert_int_equal(assert_calls, MISUSE(16));
    // A failed begin leaves a running search alone.
    assert_int_equal(wf_query_begin_path(f.query, s, e, sp, ep, &f.filter), WF_OK);
    old = wf_set_assert_hook(count_assert);
    assert_int_equal(wf_query_begin_path(f.query, s, e, nan_pos, ep, &f.filter),
                     WF_ERR_INVALID_ARG);
    wf_set_assert_hook(old);
    assert_int_equal(wf_query_update_path(f.query, 100, NULL), WF_OK);
    assert_int_equal(wf_query_finish_path(f.query, path, 8, &r), WF_OK);
    check_cells(&f, path, r.count, SHORT_ROUTE, 5);
    fixture_destroy(&f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_query_create_and_filter_defaults),
        cmocka_unit_test(test_straight_corridor),
        cmocka_unit_test(test_snake_detour),
        cmocka_unit_test(test_wall_detour_in_open_field),
        cmocka_unit_test(test_area_costs_pick_the_cheaper_route),
        cmocka_unit_test(test_flags_make_polygons_impassable),
        cmocka_unit_test(test_unreachable_goal_gives_partial_path),
        cmocka_unit_test(test_small_node_pool_runs_out),
        cmocka_unit_test(test_small_path_buffer_keeps_the_start),
        cmocka_unit_test(test_sliced_search_matches_find_path),
        cmocka_unit_test(test_stale_refs),
        cmocka_unit_test(test_paths_across_tiles),
        cmocka_unit_test(test_offmesh_links),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
