// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Search node pool and open list: lookup by ref, capacity, clear, heap order
// (random sequences against a brute-force minimum), updates, allocation.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "counting_allocator.h"
#include "navcore/node_pool.h"
#include "wayfarer/rng.h"

typedef struct fixture {
    counting_allocator counter;
    wf_allocator allocator;
    wf_node_pool pool;
    wf_open_list open;
} fixture;

static void fixture_create(fixture* f, uint32_t capacity) {
    counting_allocator_init(&f->counter);
    f->allocator = counting_allocator_hooks(&f->counter);
    assert_int_equal(wf_node_pool_create(&f->pool, &f->allocator, capacity), WF_OK);
    assert_int_equal(wf_open_list_create(&f->open, &f->allocator, capacity), WF_OK);
}

static void fixture_destroy(fixture* f) {
    wf_open_list_destroy(&f->open, &f->allocator);
    wf_node_pool_destroy(&f->pool, &f->allocator);
    assert_int_equal(counting_allocator_live(&f->counter), 0);
    assert_int_equal(atomic_load(&f->counter.live_bytes), 0);
    assert_int_equal(atomic_load(&f->counter.size_mismatches), 0);
}

static wf_poly_ref ref_of(uint32_t generation, uint32_t tile, uint32_t poly) {
    return wf_poly_ref_make(generation, tile, poly);
}

static void test_get_creates_once_and_find_sees_it(void** state) {
    (void)state;
    fixture f;
    fixture_create(&f, 8);
    wf_poly_ref a = ref_of(1, 3, 7);
    assert_int_equal(wf_node_pool_find(&f.pool, a), WF_NO_NODE);
    uint32_t n = wf_node_pool_get(&f.pool, a);
    assert_int_equal(n, 0);
    assert_int_equal(f.pool.count, 1);
    const wf_search_node* node = &f.pool.nodes[n];
    assert_true(node->ref.bits == a.bits);
    assert_int_equal(node->parent, WF_NO_NODE);
    assert_int_equal(node->flags, 0);
    assert_true(node->cost == 0.0f && node->total == 0.0f);
    // Asking again gives the same node and creates nothing.
    f.pool.nodes[n].cost = 5.0f;
    assert_int_equal(wf_node_pool_get(&f.pool, a), n);
    assert_int_equal(f.pool.count, 1);
    assert_true(f.pool.nodes[n].cost == 5.0f);
    assert_int_equal(wf_node_pool_find(&f.pool, a), n);
    // Refs that differ only in generation, tile or poly are different nodes.
    wf_poly_ref others[3] = {ref_of(2, 3, 7), ref_of(1, 4, 7), ref_of(1, 3, 8)};
    for (uint32_t i = 0; i < 3; ++i) {
        assert_int_equal(wf_node_pool_find(&f.pool, others[i]), WF_NO_NODE);
        assert_int_equal(wf_node_pool_get(&f.pool, others[i]), i + 1);
    }
    for (uint32_t i = 0; i < 3; ++i) {
        assert_int_equal(wf_node_pool_find(&f.pool, others[i]), i + 1);
    }
    fixture_destroy(&f);
}

static void test_many_refs_are_found_again(void** state) {
    (void)state;
    fixture f;
    enum { COUNT = 1000 };
    fixture_create(&f, COUNT);
    // Sequential poly indices in a few tiles: the usual shape of a search.
    for (uint32_t i = 0; i < COUNT; ++i) {
        assert_int_equal(wf_node_pool_get(&f.pool, ref_of(1 + i % 3, i % 5, i)), i);
    }
    for (uint32_t i = COUNT; i-- > 0;) {
        assert_int_equal(wf_node_pool_find(&f.pool, ref_of(1 + i % 3, i % 5, i)), i);
    }
    assert_int_equal(wf_node_pool_find(&f.pool, ref_of(1, 0, COUNT)), WF_NO_NODE);
    fixture_destroy(&f);
}

static void test_full_pool_returns_no_node(void** state) {
    (void)state;
    fixture f;
    fixture_create(&f, 4);
    for (uint32_t i = 0; i < 4; ++i) {
        assert_int_equal(wf_node_pool_get(&f.pool, ref_of(1, 0, i)), i);
    }
    assert_int_equal(wf_node_pool_get(&f.pool, ref_of(1, 0, 4)), WF_NO_NODE);
    assert_int_equal(f.pool.count, 4);
    // Existing refs are still handed out when full.
    assert_int_equal(wf_node_pool_get(&f.pool, ref_of(1, 0, 2)), 2);
    assert_int_equal(wf_node_pool_find(&f.pool, ref_of(1, 0, 4)), WF_NO_NODE);
    fixture_destroy(&f);
}

static void test_clear_forgets_every_node(void** state) {
    (void)state;
    fixture f;
    fixture_create(&f, 4);
    for (uint32_t i = 0; i < 4; ++i) {
        uint32_t n = wf_node_pool_get(&f.pool, ref_of(1, 1, i));
        f.pool.nodes[n].flags = WF_NODE_CLOSED;
        f.pool.nodes[n].parent = 0;
    }
    wf_node_pool_clear(&f.pool);
    assert_int_equal(f.pool.count, 0);
    for (uint32_t i = 0; i < 4; ++i) {
        assert_int_equal(wf_node_pool_find(&f.pool, ref_of(1, 1, i)), WF_NO_NODE);
    }
    // Nodes come back fresh, from index 0, in the new order.
    uint32_t n = wf_node_pool_get(&f.pool, ref_of(1, 1, 3));
    assert_int_equal(n, 0);
    assert_int_equal(f.pool.nodes[n].flags, 0);
    assert_int_equal(f.pool.nodes[n].parent, WF_NO_NODE);
    fixture_destroy(&f);
}

static uint32_t push_node(fixture* f, uint32_t poly, float total) {
    uint32_t n = wf_node_pool_get(&f->pool, ref_of(1, 0, poly));
    assert_int_not_equal(n, WF_NO_NODE);
    f->pool.nodes[n].total = total;
    f->pool.nodes[n].flags = WF_NODE_OPEN;
    wf_open_list_push(&f->open, &f->pool, n);
    return n;
}

static void check_heap_indices(const fixture* f) {
    for (uint32_t slot = 0; slot < f->open.count; ++slot) {
        assert_int_equal(f->pool.nodes[wf_open_entry_node(f->open.heap[slot])].heap_index, slot);
    }
}

static void test_pop_order_known_values(void** state) {
    (void)state;
    fixture f;
    fixture_create(&f, 8);
    // Node i gets totals[i]; equal totals pop by node index.
    const float totals[8] = {5.0f, 1.0f, 3.0f, 1.0f, 9.0f, 0.5f, 3.0f, 2.0f};
    const uint32_t expected[8] = {5, 1, 3, 7, 2, 6, 0, 4};
    for (uint32_t i = 0; i < 8; ++i) {
        push_node(&f, i, totals[i]);
    }
    check_heap_indices(&f);
    for (uint32_t i = 0; i < 8; ++i) {
        assert_int_equal(wf_open_list_pop(&f.open, &f.pool), expected[i]);
        check_heap_indices(&f);
    }
    assert_int_equal(wf_open_list_pop(&f.open, &f.pool), WF_NO_NODE);
    fixture_destroy(&f);
}

/// The open node a correct heap must pop next: least total, then index.
static uint32_t brute_min(const fixture* f, const bool* open, uint32_t count) {
    uint32_t best = WF_NO_NODE;
    for (uint32_t i = 0; i < count; ++i) {
        if (!open[i]) {
            continue;
        }
        if (best == WF_NO_NODE || f->pool.nodes[i].total < f->pool.nodes[best].total) {
            best = i;
        }
    }
    return best;
}

/// The heap orders on integer keys made from the totals' bits: negative
/// totals, both zeros (equal, so by node index) and infinity keep the
/// float order.
static void test_pop_order_signs_zeros_infinity(void** state) {
    (void)state;
    fixture f;
    fixture_create(&f, 8);
    const float totals[8] = {0.0f, -0.0f, -2.0f, INFINITY, -0.5f, 1e-30f, -INFINITY, 0.0f};
    const uint32_t expected[8] = {6, 2, 4, 0, 1, 7, 5, 3};
    for (uint32_t i = 0; i < 8; ++i) {
        push_node(&f, i, totals[i]);
    }
    for (uint32_t i = 0; i < 8; ++i) {
        assert_int_equal(wf_open_list_pop(&f.open, &f.pool), expected[i]);
        check_heap_indices(&f);
    }
    fixture_destroy(&f);
}

static void test_random_sequence_matches_brute_force(void** state) {
    (void)state;
    enum { COUNT = 500, STEPS = 4000 };
    fixture f;
    fixture_create(&f, COUNT);
    bool open[COUNT] = {false};
    wf_rng rng = wf_rng_make(42, 7);
    uint32_t created = 0;
    for (uint32_t step = 0; step < STEPS; ++step) {
        uint32_t action = wf_rng_below(&rng, 10);
        // Few distinct totals, so ties are common.
        float total = (float)wf_rng_below(&rng, 50) * 0.25f;
        if (action < 5 && created < COUNT) {
            push_node(&f, created, total);
            open[created++] = true;
        } else if (action < 7 && f.open.count > 0) {
            // Decrease (or raise) the total of a random open node.
            uint32_t pick = wf_rng_below(&rng, f.open.count);
            uint32_t n = wf_open_entry_node(f.open.heap[pick]);
            f.pool.nodes[n].total = action == 5 ? f.pool.nodes[n].total - total : total;
            wf_open_list_update(&f.open, &f.pool, n);
        } else {
            uint32_t expect = brute_min(&f, open, created);
            uint32_t got = wf_open_list_pop(&f.open, &f.pool);
            assert_int_equal(got, expect);
            if (got != WF_NO_NODE) {
                open[got] = false;
                // Popped nodes may be pushed again (a reopened node).
                if (wf_rng_below(&rng, 4) == 0) {
                    f.pool.nodes[got].total = total;
                    wf_open_list_push(&f.open, &f.pool, got);
                    open[got] = true;
                }
            }
        }
        check_heap_indices(&f);
    }
    // Drain: totals come out in ascending order.
    float last = -1e30f;
    for (uint32_t n; (n = wf_open_list_pop(&f.open, &f.pool)) != WF_NO_NODE;) {
        assert_true(f.pool.nodes[n].total >= last);
        last = f.pool.nodes[n].total;
    }
    fixture_destroy(&f);
}

static void test_update_after_decrease_moves_to_front(void** state) {
    (void)state;
    fixture f;
    fixture_create(&f, 8);
    for (uint32_t i = 0; i < 6; ++i) {
        push_node(&f, i, 10.0f + (float)i);
    }
    // Node 5 (last, 15) becomes the cheapest, node 0 (first, 10) the dearest.
    f.pool.nodes[5].total = 1.0f;
    wf_open_list_update(&f.open, &f.pool, 5);
    f.pool.nodes[0].total = 20.0f;
    wf_open_list_update(&f.open, &f.pool, 0);
    check_heap_indices(&f);
    const uint32_t expected[6] = {5, 1, 2, 3, 4, 0};
    for (uint32_t i = 0; i < 6; ++i) {
        assert_int_equal(wf_open_list_pop(&f.open, &f.pool), expected[i]);
    }
    // Clearing empties the list.
    push_node(&f, 6, 1.0f);
    wf_open_list_clear(&f.open);
    assert_int_equal(wf_open_list_pop(&f.open, &f.pool), WF_NO_NODE);
    fixture_destroy(&f);
}

static void test_create_bad_args_and_out_of_memory(void** state) {
    (void)state;
    counting_allocator counter;
    counting_allocator_init(&counter);
    wf_allocator a = counting_allocator_hooks(&counter);
    wf_node_pool pool;
    wf_open_list list;
    assert_int_equal(wf_node_pool_create(&pool, &a, 0), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_node_pool_create(NULL, &a, 4), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_open_list_create(&list, &a, 0), WF_ERR_INVALID_ARG);
    assert_int_equal(wf_open_list_create(NULL, &a, 4), WF_ERR_INVALID_ARG);
    // The pool makes two allocations: fail each in turn, nothing leaks.
    for (unsigned long k = 1; k <= 2; ++k) {
        counting_allocator_init(&counter);
        counter.fail_at = k;
        assert_int_equal(wf_node_pool_create(&pool, &a, 16), WF_ERR_OUT_OF_MEMORY);
        assert_int_equal(counting_allocator_live(&counter), 0);
    }
    counting_allocator_init(&counter);
    counter.fail_at = 1;
    assert_int_equal(wf_open_list_create(&list, &a, 16), WF_ERR_OUT_OF_MEMORY);
    assert_int_equal(counting_allocator_live(&counter), 0);
    // Destroying twice or a zeroed pool is harmless.
    counting_allocator_init(&counter);
    assert_int_equal(wf_node_pool_create(&pool, &a, 16), WF_OK);
    wf_node_pool_destroy(&pool, &a);
    wf_node_pool_destroy(&pool, &a);
    assert_int_equal(counting_allocator_live(&counter), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_get_creates_once_and_find_sees_it),
        cmocka_unit_test(test_many_refs_are_found_again),
        cmocka_unit_test(test_full_pool_returns_no_node),
        cmocka_unit_test(test_clear_forgets_every_node),
        cmocka_unit_test(test_pop_order_known_values),
        cmocka_unit_test(test_pop_order_signs_zeros_infinity),
        cmocka_unit_test(test_random_sequence_matches_brute_force),
        cmocka_unit_test(test_update_after_decrease_moves_to_front),
        cmocka_unit_test(test_create_bad_args_and_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
