// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Time-sliced default-mode searches on grids where ways tie: the extra
// ways per polygon the search keeps for path quality (later layers) must
// neither spend a caller's slice budget nor end a partial path.
#include "path_search_fixture.h"

static const char* const OPEN[8] = {"........", "........", "........", "........",
                                    "........", "........", "........", "........"};
static const char* const WALLS[8] = {"........", "..#.....", "..#..#..", "..#..#..",
                                     ".....#..", "........", "...##...", "........"};

/// On an open grid the main search expands only the polygons of its path
/// and then pops the goal, so slices of one expansion count exactly that
/// many; later-layer expansions (seeded where ways tie) must not count.
static void test_slices_count_main_search_expansions(void** state) {
    (void)state;
    fixture f;
    fixture_create(&f, 1, 1, 8, OPEN, NULL, 0);
    wf_poly_ref whole[64];
    wf_path_result rw;
    assert_int_equal(find_cells(&f, 0, 0, 7, 5, whole, 64, &rw), WF_OK);
    assert_int_equal(rw.count, 13); // 4-connected cells: 7 + 5 steps
    assert_int_equal(wf_query_begin_path(f.query, cell(&f, 0, 0), cell(&f, 7, 5), centre(0, 0),
                                         centre(7, 5), &f.filter),
                     WF_OK);
    uint32_t total = 0, iterations = 0;
    wf_status s;
    do {
        s = wf_query_update_path(f.query, 1, &iterations);
        assert_int_equal(iterations, 1); // a slice always makes its one expansion
        total += iterations;
        assert_true(total < 64);
    } while (s == WF_IN_PROGRESS);
    assert_int_equal(s, WF_OK);
    assert_int_equal(total, rw.count + 1);
    wf_poly_ref path[64];
    wf_path_result r;
    assert_int_equal(wf_query_finish_path(f.query, path, 64, &r), WF_OK);
    assert_int_equal(r.count, rw.count);
    assert_memory_equal(path, whole, rw.count * sizeof(wf_poly_ref));
    // A zero budget still does nothing.
    assert_int_equal(wf_query_begin_path(f.query, cell(&f, 0, 0), cell(&f, 7, 5), centre(0, 0),
                                         centre(7, 5), &f.filter),
                     WF_OK);
    assert_int_equal(wf_query_update_path(f.query, 0, &iterations), WF_IN_PROGRESS);
    assert_int_equal(iterations, 0);
    assert_int_equal(wf_query_finish_path(f.query, path, 64, &r), WF_PARTIAL);
    assert_int_equal(r.count, 1);
    fixture_destroy(&f);
}

/// Runs a fresh search from (0,0) to (ex,ez) for a slice of k expansions.
static wf_status slice(fixture* f, uint32_t ex, uint32_t ez, uint32_t k) {
    assert_int_equal(wf_query_begin_path(f->query, cell(f, 0, 0), cell(f, ex, ez), centre(0, 0),
                                         centre(ex, ez), &f->filter),
                     WF_OK);
    return wf_query_update_path(f->query, k, NULL);
}

/// The partial path after a slice is the search's own way to its end
/// polygon: the same one finish_partial_path gives when asked for that
/// polygon (which looks up the polygon's main-search state). A later
/// layer's way there (one the main state beat) must not end it.
static void test_partial_path_ends_on_the_main_search(void** state) {
    (void)state;
    fixture f;
    fixture_create(&f, 1, 1, 8, WALLS, NULL, 0);
    const uint32_t goals[3][2] = {{6, 5}, {7, 5}, {4, 4}};
    uint32_t partials = 0;
    for (uint32_t gi = 0; gi < 3; ++gi) {
        for (uint32_t k = 1; k < 40; ++k) {
            wf_status s = slice(&f, goals[gi][0], goals[gi][1], k);
            wf_poly_ref partial[64], again[64];
            wf_path_result rp, ra;
            assert_int_equal(wf_query_finish_path(f.query, partial, 64, &rp),
                             s == WF_IN_PROGRESS ? WF_PARTIAL : WF_OK);
            if (s != WF_IN_PROGRESS) {
                break;
            }
            partials++;
            check_adjacent(&f, partial, rp.count);
            assert_int_equal(slice(&f, goals[gi][0], goals[gi][1], k), WF_IN_PROGRESS);
            const wf_poly_ref end = partial[rp.count - 1];
            assert_int_equal(wf_query_finish_partial_path(f.query, &end, 1, again, 64, &ra), WF_OK);
            assert_int_equal(ra.count, rp.count);
            assert_memory_equal(again, partial, rp.count * sizeof(wf_poly_ref));
            assert_true(ra.cost == rp.cost);
        }
    }
    assert_true(partials > 20);
    fixture_destroy(&f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slices_count_main_search_expansions),
        cmocka_unit_test(test_partial_path_ends_on_the_main_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
