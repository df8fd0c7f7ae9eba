// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The checksums of the file and blob formats (docs/formats.md), in one
// place: FNV-1a 32 and 64 over bytes, and FNV-1a 32 over little-endian
// words with a murmur3 finish (layer blobs). A shared helper of the base
// module: every module may include it. The formats fix these functions:
// changing one breaks every saved file.
#ifndef WF_NAVCORE_HASH_H
#define WF_NAVCORE_HASH_H

#include <stddef.h>
#include <stdint.h>

#define WF_FNV32_OFFSET 2166136261u
#define WF_FNV32_PRIME 16777619u
#define WF_FNV64_OFFSET 14695981039346656037ull
#define WF_FNV64_PRIME 1099511628211ull

/// FNV-1a 32 over n bytes, continuing from h (start with WF_FNV32_OFFSET).
uint32_t wf_fnv1a32(uint32_t h, const void* data, size_t n);
/// FNV-1a 64 over n bytes, continuing from h (start with WF_FNV64_OFFSET).
uint64_t wf_fnv1a64(uint64_t h, const void* data, size_t n);

/// FNV-1a 32 from WF_FNV32_OFFSET over data[0, n) with the `width` bytes at
/// `at` read as zero: the checksum of a blob that holds its own checksum.
uint32_t wf_fnv1a32_zeroed(const void* data, size_t n, size_t at, size_t width);
/// The same in 64 bits, from WF_FNV64_OFFSET.
uint64_t wf_fnv1a64_zeroed(const void* data, size_t n, size_t at, size_t width);

/// FNV-1a 32 over little-endian 32-bit words (a last partial word is
/// zero-padded), continuing from h: 4x fewer multiplies than bytes, and
/// each step is a bijection, so a change within one word always shows.
uint32_t wf_fnv1a32_words(uint32_t h, const void* data, size_t n);

/// murmur3's 32-bit finish: spreads the last words' changes over all bits.
static inline uint32_t wf_hash_fmix32(uint32_t h) {
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

#endif
