// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Path search variants on hand-drawn grid meshes: path_exists, paths to a
// box, the nearest of many goals, finishing a sliced search on an old path.
#include "path_search_fixture.h"

static void test_finish_partial_path(void** state) {
    (void)state;
    fixture f;
    fixture_create(&f, 1, 1, 5, SNAKE, NULL, 0);
    wf_poly_ref old[11];
    for (uint32_t i = 0; i < 11; ++i) {
        old[i] = cell(&f, SNAKE_PATH[i][0], SNAKE_PATH[i][1]);
    }
    wf_poly_ref path[16];
    wf_path_result r;
    // Three expansions ((0,0), (1,0), (1,1)) reach (1,2): the furthest cell
    // of the old corridor seen.
    assert_int_equal(
        wf_query_begin_path(f.query, old[0], old[10], centre(0, 0), centre(4, 0), &f.filter),
        WF_OK);
    assert_int_equal(wf_query_update_path(f.query, 3, NULL), WF_IN_PROGRESS);
    assert_int_equal(wf_query_finish_partial_path(f.query, old, 11, path, 16, &r), WF_OK);
    assert_int_equal(r.flags, 0);
    check_cells(&f, path, r.count, SNAKE_PATH, 4);

    // None of the old corridor seen: the best partial path, to (1,1)
    // (entered at (2, 1), 2.55 from the goal; (1,0) at (1, 0.5) is 3.5,
    // (1,2) at (2, 2) 2.92).
    assert_int_equal(
        wf_query_begin_path(f.query, old[0], old[10], centre(0, 0), centre(4, 0), &f.filter),
        WF_OK);
    assert_int_equal(wf_query_update_path(f.query, 3, NULL), WF_IN_PROGRESS);
    assert_int_equal(wf_query_finish_partial_path(f.query, &old[8], 3, path, 16, &r), WF_PARTIAL);
    assert_int_equal(r.flags, WF_PATH_PARTIAL);
    check_cells(&f, path, r.count, SNAKE_PATH, 3);

    // A finished search: the furthest old cell, even short of the goal.
    assert_int_equal(
        wf_query_begin_path(f.query, old[0], old[10], centre(0, 0), centre(4, 0), &f.filter),
        WF_OK);
    assert_int_equal(wf_query_update_path(f.query, 100, NULL), WF_OK);
    assert_int_equal(wf_query_finish_partial_path(f.query, old, 6, path, 16, &r), WF_OK);
    check_cells(&f, path, r.count, SNAKE_PATH, 6);
    // ... and with the goal on the old corridor, the whole path.
    assert_int_equal(
        wf_query_begin_path(f.query, old[0], old[10], centre(0, 0), centre(4, 0), &f.filter),
        WF_OK);
    assert_int_equal(wf_query_update_path(f.query, 100, NULL), WF_OK);
    assert_int_equal(wf_query_finish_partial_path(f.query, old, 11, path, 16, &r), WF_OK);
    check_cells(&f, path, r.count, SNAKE_PATH, 11);
    assert_float_equal(r.cost, SNAKE_COST, EPS);

    wf_assert_fn* prev = wf_set_assert_hook(count_assert);
    assert_calls = 0;
    assert_int_equal(
        wf_query_begin_path(f.query, old[0], old[10], centre(0, 0), centre(4, 0), &f.filter),
        WF_OK);
    assert_int_equal(wf_query_finish_partial_path(f.query, NULL, 3, path, 16, &r),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_finish_partial_path(f.query, old, 0, path, 16, &r),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_finish_partial_path(f.query, old, 3, path, 0, &r),
                     WF_ERR_INVALID_ARG);
    wf_set_assert_hook(prev);
    assert_int_equal(assert_calls, MISUSE(3));
    // The failed calls did not end the search.
    assert_int_equal(wf_query_finish_partial_path(f.query, old, 11, path, 16, &r), WF_OK);
    check_cells(&f, path, r.count, SNAKE_PATH, 1);
    fixture_destroy(&f);
}

static void test_path_exists(void** state) {
    (void)state;
    fixture f;
    fixture_create(&f, 1, 1, 5, SNAKE, NULL, 0);
    bool exists = false;
    assert_int_equal(wf_query_path_exists(f.query, cell(&f, 0, 0), cell(&f, 4, 0), centre(0, 0),
                                          centre(4, 0), &f.filter, &exists),
                     WF_OK);
    assert_true(exists);
    exists = false;
    assert_int_equal(wf_query_path_exists(f.query, cell(&f, 3, 1), cell(&f, 3, 1), centre(3, 1),
                                          centre(3, 1), &f.filter, &exists),
                     WF_OK);
    assert_true(exists);
    // Cut the snake: no way any more.
    assert_int_equal(wf_mesh_set_poly_flags(f.mesh, cell(&f, 2, 3), 0x4), WF_OK);
    f.filter.exclude_flags = 0x4;
    assert_int_equal(wf_query_path_exists(f.query, cell(&f, 0, 0), cell(&f, 4, 0), centre(0, 0),
                                          centre(4, 0), &f.filter, &exists),
                     WF_OK);
    assert_false(exists);
    fixture_destroy(&f);
}

static void test_path_to_box(void** state) {
    (void)state;
    fixture f;
    fixture_create(&f, 1, 1, 5, SNAKE, NULL, 0);
    wf_poly_ref path[16];
    wf_path_result r;
    wf_vec3 goal;
    // A box inside (3,1): the path is the snake up to it.
    assert_int_equal(wf_query_find_path_to_box(f.query, cell(&f, 0, 0), centre(0, 0),
                                               wf_v3(3.2f, -1, 1.2f), wf_v3(3.8f, 1, 1.8f),
                                               &f.filter, path, 16, &r, &goal),
                     WF_OK);
    check_cells(&f, path, r.count, SNAKE_PATH, 9);
    assert_int_equal(r.flags, 0);
    assert_float_equal(goal.x, 3.5f, EPS);
    assert_float_equal(goal.y, 0.0f, EPS);
    assert_float_equal(goal.z, 1.5f, EPS);
    // The pulled way to the goal point (3.5, 1.5): round (1,1), (2,3) and
    // (3,3): sqrt(0.5) + sqrt(5) + 1 + sqrt(2.5).
    assert_float_equal(r.cost, TURN + sqrtf(5.0f) + 1.0f + sqrtf(2.5f), EPS);

    // A box over the start cell: just the start.
    assert_int_equal(wf_query_find_path_to_box(f.query, cell(&f, 0, 0), centre(0, 0),
                                               wf_v3(0.1f, -1, 0.1f), wf_v3(0.3f, 1, 0.2f),
                                               &f.filter, path, 16, &r, &goal),
                     WF_OK);
    check_cells(&f, path, r.count, SNAKE_PATH, 1);
    assert_float_equal(goal.x, 0.2f, EPS);
    assert_float_equal(goal.z, 0.15f, EPS);

    // A box over blocked ground only: partial, to the reached cell whose
    // entry point is nearest the box ((1,3) entered at (1, 3): 0.42).
    assert_int_equal(wf_query_find_path_to_box(f.query, cell(&f, 0, 0), centre(0, 0),
                                               wf_v3(0.3f, -1, 3.3f), wf_v3(0.7f, 1, 3.7f),
                                               &f.filter, path, 16, &r, &goal),
                     WF_PARTIAL);
    assert_int_equal(r.flags, WF_PATH_PARTIAL);
    check_cells(&f, path, r.count, SNAKE_PATH, 5);
    // The point of (1,3) nearest the box centre (0.5, 0, 3.5).
    assert_float_equal(goal.x, 1.0f, EPS);
    assert_float_equal(goal.z, 3.5f, EPS);
    fixture_destroy(&f);

    // Open field: a box straddling (2,0) and (3,0) stops at (2,0), the
    // first reached; the goal point is on their shared edge.
    fixture_create(&f, 1, 1, 5, NULL, NULL, 0);
    assert_int_equal(wf_query_find_path_to_box(f.query, cell(&f, 0, 0), centre(0, 0),
                                               wf_v3(2.8f, -1, 0.2f), wf_v3(3.2f, 1, 0.4f),
                                               &f.filter, path, 16, &r, &goal),
                     WF_OK);
    check_cells(&f, path, r.count, SHORT_ROUTE, 3);
    assert_float_equal(goal.x, 3.0f, EPS);
    assert_float_equal(goal.z, 0.3f, EPS);
    // A box above the ground (y 2..3) overlaps nothing.
    assert_int_equal(wf_query_find_path_to_box(f.query, cell(&f, 0, 0), centre(0, 0),
                                               wf_v3(2.2f, 2, 0.2f), wf_v3(2.8f, 3, 0.8f),
                                               &f.filter, path, 16, &r, &goal),
                     WF_PARTIAL);
    assert_int_equal(r.flags, WF_PATH_PARTIAL);

    wf_assert_fn* old = wf_set_assert_hook(count_assert);
    assert_calls = 0;
    assert_int_equal(wf_query_find_path_to_box(f.query, cell(&f, 0, 0), centre(0, 0),
                                               wf_v3(3, 0, 3), wf_v3(2, 1, 4), &f.filter, path, 16,
                                               &r, &goal),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_path_to_box(f.query, cell(&f, 0, 0), centre(0, 0),
                                               wf_v3(NAN, 0, 3), wf_v3(2, 1, 4), &f.filter, path,
                                               16, &r, &goal),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_path_to_box(f.query, cell(&f, 0, 0), centre(0, 0),
                                               wf_v3(1, 0, 1), wf_v3(2, 1, 2), &f.filter, path, 16,
                                               &r, NULL),
                     WF_ERR_INVALID_ARG);
    wf_set_assert_hook(old);
    assert_int_equal(assert_calls, MISUSE(3));
    fixture_destroy(&f);
}

static void test_nearest_goal(void** state) {
    (void)state;
    fixture f;
    fixture_create(&f, 1, 1, 5, SNAKE, NULL, 0);
    wf_poly_ref path[16];
    wf_path_result r;
    uint32_t index = 99;
    // Along the snake (1,2) comes before (3,3) and (4,0).
    wf_poly_ref goals[3] = {cell(&f, 4, 0), cell(&f, 3, 3), cell(&f, 1, 2)};
    assert_int_equal(wf_query_find_nearest_goal(f.query, cell(&f, 0, 0), centre(0, 0), goals, 3,
                                                &f.filter, &index, path, 16, &r),
                     WF_OK);
    assert_int_equal(index, 2);
    check_cells(&f, path, r.count, SNAKE_PATH, 4);
    // Round (1,1), then straight to the nearest point of (1,2)'s edge.
    assert_float_equal(r.cost, TURN + 1.0f, EPS);
    // The start itself is a goal: found at once.
    goals[1] = cell(&f, 0, 0);
    assert_int_equal(wf_query_find_nearest_goal(f.query, cell(&f, 0, 0), centre(0, 0), goals, 3,
                                                &f.filter, &index, path, 16, &r),
                     WF_OK);
    assert_int_equal(index, 1);
    assert_int_equal(r.count, 1);
    assert_float_equal(r.cost, 0.0f, EPS);
    // Cut the snake after (1,1): none of (4,0), (3,3) reachable.
    assert_int_equal(wf_mesh_set_poly_flags(f.mesh, cell(&f, 1, 2), 0x4), WF_OK);
    f.filter.exclude_flags = 0x4;
    wf_poly_ref far_goals[2] = {cell(&f, 4, 0), cell(&f, 3, 3)};
    index = 99;
    assert_int_equal(wf_query_find_nearest_goal(f.query, cell(&f, 0, 0), centre(0, 0), far_goals, 2,
                                                &f.filter, &index, path, 16, &r),
                     WF_ERR_NOT_FOUND);
    assert_int_equal(index, 99);
    assert_int_equal(r.count, 0);
    fixture_destroy(&f);

    // Many goals (marked in the node pool): every cell with max(x, z) >= 4
    // of an open 6 x 6 field over four tiles. From (0.5, 0, 0.2) the
    // cheapest is (4,0): 0.5 to (1, 0.2), then 3 crossings.
    fixture_create(&f, 2, 2, 3, NULL, NULL, 0);
    wf_poly_ref many[36];
    uint32_t count = 0, expected_index = 0;
    for (uint32_t z = 6; z-- > 0;) {
        for (uint32_t x = 6; x-- > 0;) {
            if (x >= 4 || z >= 4) {
                if (x == 4 && z == 0) {
                    expected_index = count;
                }
                many[count++] = cell(&f, x, z);
            }
        }
    }
    assert_int_equal(count, 20);
    static const uint32_t to_40[5][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}};
    wf_vec3 start = wf_v3(0.5f, 0, 0.2f);
    // Straight east along z = 0.2: 0.5 to the first edge, then 3 cells.
    float expected_cost = 0.5f + 3.0f;
    assert_int_equal(wf_query_find_nearest_goal(f.query, cell(&f, 0, 0), start, many, count,
                                                &f.filter, &index, path, 16, &r),
                     WF_OK);
    assert_int_equal(index, expected_index);
    check_cells(&f, path, r.count, to_40, 5);
    assert_float_equal(r.cost, expected_cost, EPS);
    // Few goals (compared one by one): the same answer.
    wf_poly_ref few[3] = {cell(&f, 5, 5), cell(&f, 0, 4), cell(&f, 4, 0)};
    assert_int_equal(wf_query_find_nearest_goal(f.query, cell(&f, 0, 0), start, few, 3, &f.filter,
                                                &index, path, 16, &r),
                     WF_OK);
    assert_int_equal(index, 2);
    check_cells(&f, path, r.count, to_40, 5);
    assert_float_equal(r.cost, expected_cost, EPS);
    // Path cut by the buffer: the start part, WF_PARTIAL.
    assert_int_equal(wf_query_find_nearest_goal(f.query, cell(&f, 0, 0), start, few, 3, &f.filter,
                                                &index, path, 2, &r),
                     WF_PARTIAL);
    assert_int_equal(r.flags, WF_PATH_BUFFER_FULL);
    check_cells(&f, path, r.count, to_40, 2);

    wf_assert_fn* old = wf_set_assert_hook(count_assert);
    assert_calls = 0;
    assert_int_equal(wf_query_find_nearest_goal(f.query, cell(&f, 0, 0), start, NULL, 3, &f.filter,
                                                &index, path, 16, &r),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_nearest_goal(f.query, cell(&f, 0, 0), start, few, 0, &f.filter,
                                                &index, path, 16, &r),
                     WF_ERR_INVALID_ARG);
    assert_int_equal(wf_query_find_nearest_goal(f.query, cell(&f, 0, 0), start, few, 3, &f.filter,
                                                NULL, path, 16, &r),
                     WF_ERR_INVALID_ARG);
    few[1] = (wf_poly_ref){0};
    assert_int_equal(wf_query_find_nearest_goal(f.query, cell(&f, 0, 0), start, few, 3, &f.filter,
                                                &index, path, 16, &r),
                     WF_ERR_INVALID_ARG);
    wf_set_assert_hook(old);
    assert_int_equal(assert_calls, MISUSE(4));
    fixture_destroy(&f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_finish_partial_path),
        cmocka_unit_test(test_path_exists),
        cmocka_unit_test(test_path_to_box),
        cmocka_unit_test(test_nearest_goal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
