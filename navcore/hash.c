// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The format checksums (hash.h).
#include "navcore/hash.h"

uint32_t wf_fnv1a32(uint32_t h, const void* data, size_t n) {
    const unsigned char* p = data;
    for (size_t i = 0; i < n; ++i) {
        h = (h ^ p[i]) * WF_FNV32_PRIME;
    }
    return h;
}

uint64_t wf_fnv1a64(uint64_t h, const void* data, size_t n) {
    const unsigned char* p = data;
    for (size_t i = 0; i < n; ++i) {
        h = (h ^ p[i]) * WF_FNV64_PRIME;
    }
    return h;
}

static const unsigned char zeros[8];

// The zeroed field, clipped to [0, n): the parts before, in and after it.
static void split(size_t n, size_t at, size_t width, size_t* before, size_t* field) {
    *before = at < n ? at : n;
    size_t left = n - *before;
    *field = width < left ? width : left;
}

uint32_t wf_fnv1a32_zeroed(const void* data, size_t n, size_t at, size_t width) {
    const unsigned char* p = data;
    size_t before, field;
    split(n, at, width, &before, &field);
    uint32_t h = wf_fnv1a32(WF_FNV32_OFFSET, p, before);
    for (size_t done = 0; done < field;) {
        size_t k = field - done < sizeof zeros ? field - done : sizeof zeros;
        h = wf_fnv1a32(h, zeros, k);
        done += k;
    }
    return wf_fnv1a32(h, p + before + field, n - before - field);
}

uint64_t wf_fnv1a64_zeroed(const void* data, size_t n, size_t at, size_t width) {
    const unsigned char* p = data;
    size_t before, field;
    split(n, at, width, &before, &field);
    uint64_t h = wf_fnv1a64(WF_FNV64_OFFSET, p, before);
    for (size_t done = 0; done < field;) {
        size_t k = field - done < sizeof zeros ? field - done : sizeof zeros;
        h = wf_fnv1a64(h, zeros, k);
        done += k;
    }
    return wf_fnv1a64(h, p + before + field, n - before - field);
}

uint32_t wf_fnv1a32_words(uint32_t h, const void* data, size_t n) {
    const unsigned char* p = data;
    size_t whole = n & ~(size_t)3u;
    for (size_t i = 0; i < whole; i += 4u) {
        // Little-endian words whatever the host (compilers make this one load).
        uint32_t w = (uint32_t)p[i] | (uint32_t)p[i + 1u] << 8u | (uint32_t)p[i + 2u] << 16u |
                     (uint32_t)p[i + 3u] << 24u;
        h = (h ^ w) * WF_FNV32_PRIME;
    }
    for (size_t i = whole; i < n; i += 4u) { // the last partial word, zero-padded
        size_t k_end = n - i < 4u ? n - i : 4u;
        uint32_t w = 0;
        for (size_t k = 0; k < k_end; ++k) {
            w |= (uint32_t)p[i + k] << (8u * k);
        }
        h = (h ^ w) * WF_FNV32_PRIME;
    }
    return h;
}
