// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The format checksums of navcore/hash.h: the published FNV-1a test
// vectors, and the zeroed-field and word-wise forms against plain loops
// written the way the formats were first defined (saved files must load).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "navcore/hash.h"

static void test_fnv_reference_vectors(void** state) {
    (void)state;
    // From the FNV authors' test suite (isthe.com/chongo/tech/comp/fnv).
    assert_int_equal(wf_fnv1a32(WF_FNV32_OFFSET, "", 0), 0x811c9dc5u);
    assert_int_equal(wf_fnv1a32(WF_FNV32_OFFSET, "a", 1), 0xe40c292cu);
    assert_int_equal(wf_fnv1a32(WF_FNV32_OFFSET, "foobar", 6), 0xbf9cf968u);
    assert_true(wf_fnv1a64(WF_FNV64_OFFSET, "", 0) == 0xcbf29ce484222325ull);
    assert_true(wf_fnv1a64(WF_FNV64_OFFSET, "a", 1) == 0xaf63dc4c8601ec8cull);
    assert_true(wf_fnv1a64(WF_FNV64_OFFSET, "foobar", 6) == 0x85944171f73967e8ull);
    // Continuing from a running hash is hashing the concatenation.
    assert_int_equal(wf_fnv1a32(wf_fnv1a32(WF_FNV32_OFFSET, "foo", 3), "bar", 3), 0xbf9cf968u);
    assert_true(wf_fnv1a64(wf_fnv1a64(WF_FNV64_OFFSET, "foo", 3), "bar", 3) ==
                0x85944171f73967e8ull);
}

static void fill(unsigned char* p, size_t n, uint32_t seed) {
    for (size_t i = 0; i < n; ++i) {
        seed = seed * 1664525u + 1013904223u;
        p[i] = (unsigned char)(seed >> 24);
    }
}

static void test_zeroed_field_reads_as_zero(void** state) {
    (void)state;
    unsigned char data[80], copy[80];
    fill(data, sizeof data, 7u);
    for (size_t n = 0; n <= sizeof data; n += 5) {
        for (size_t at = 0; at <= n + 4; at += 3) {
            for (size_t width = 4; width <= 8; width += 4) {
                // The plain form: the bytes in [at, at + width) as zero.
                memcpy(copy, data, sizeof data);
                for (size_t i = at; i < at + width && i < n; ++i) {
                    copy[i] = 0;
                }
                assert_int_equal(wf_fnv1a32_zeroed(data, n, at, width),
                                 wf_fnv1a32(WF_FNV32_OFFSET, copy, n));
                assert_true(wf_fnv1a64_zeroed(data, n, at, width) ==
                            wf_fnv1a64(WF_FNV64_OFFSET, copy, n));
            }
        }
    }
    // The field's content does not count; any other byte does.
    unsigned char other[80];
    memcpy(other, data, sizeof data);
    other[13] ^= 0x5a;
    assert_int_equal(wf_fnv1a32_zeroed(data, 80, 12, 4), wf_fnv1a32_zeroed(other, 80, 12, 4));
    assert_int_not_equal(wf_fnv1a32_zeroed(data, 80, 16, 4), wf_fnv1a32_zeroed(other, 80, 16, 4));
}

/// The layer blob checksum as first written: little-endian words, the last
/// one zero-padded, the word at `skip` as zero, then murmur3's finish.
static uint32_t layer_checksum_plain(const unsigned char* data, size_t size, size_t skip) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < size; i += 4u) {
        uint32_t w = 0;
        if (i != skip) {
            size_t n = size - i < 4u ? size - i : 4u;
            for (size_t k = 0; k < n; ++k) {
                w |= (uint32_t)data[i + k] << (8u * k);
            }
        }
        h = (h ^ w) * 16777619u;
    }
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

static void test_words_match_the_layer_format(void** state) {
    (void)state;
    unsigned char data[160];
    fill(data, sizeof data, 11u);
    static const unsigned char zero[4] = {0};
    for (size_t size = 48; size <= sizeof data; ++size) {
        uint32_t h = wf_fnv1a32_words(WF_FNV32_OFFSET, data, 44);
        h = wf_fnv1a32_words(h, zero, 4);
        h = wf_fnv1a32_words(h, data + 48, size - 48);
        assert_int_equal(wf_hash_fmix32(h), layer_checksum_plain(data, size, 44));
    }
    // Whole words only: the same as bytes would not be, so a word order
    // slip shows.
    assert_int_not_equal(wf_fnv1a32_words(WF_FNV32_OFFSET, data, 8),
                         wf_fnv1a32(WF_FNV32_OFFSET, data, 8));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fnv_reference_vectors),
        cmocka_unit_test(test_zeroed_field_reads_as_zero),
        cmocka_unit_test(test_words_match_the_layer_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
