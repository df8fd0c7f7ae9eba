// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// LZ4 block format (lz4.h): sequences of a token (literal count in the high
// nibble, match length - 4 in the low one, 15 = more bytes follow, each 255
// adding on), the literals, a 16-bit little-endian back offset and the rest
// of the match length. The block ends with literals only: the format wants
// the last 5 bytes as literals and no match starting in the last 12.
#include "lz4.h"

#include <stdint.h>
#include <string.h>

enum { MIN_MATCH = 4, LAST_LITERALS = 5, MATCH_LIMIT = 12, HASH_BITS = 12, MAX_OFFSET = 65535 };

int LZ4_compressBound(int isize) {
    if (isize < 0 || isize > LZ4_MAX_INPUT_SIZE) {
        return 0;
    }
    return isize + isize / 255 + 16;
}

static uint32_t read32(const uint8_t* p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static uint32_t hash4(uint32_t v) { return (v * 2654435761u) >> (32 - HASH_BITS); }

// Writes a length continuation (the part of a length past the nibble's 15).
static uint8_t* put_length(uint8_t* op, const uint8_t* oend, size_t rest) {
    while (rest >= 255) {
        if (op >= oend) {
            return NULL;
        }
        *op++ = 255;
        rest -= 255;
    }
    if (op >= oend) {
        return NULL;
    }
    *op++ = (uint8_t)rest;
    return op;
}

// One sequence: literals [anchor, anchor + lit), then (if match_len) a match.
static uint8_t* put_sequence(uint8_t* op, const uint8_t* oend, const uint8_t* anchor, size_t lit,
                             size_t offset, size_t match_len) {
    if (op >= oend) {
        return NULL;
    }
    uint8_t* token = op++;
    size_t ml = match_len ? match_len - MIN_MATCH : 0;
    *token = (uint8_t)(((lit >= 15 ? 15 : lit) << 4) | (ml >= 15 ? 15 : ml));
    if (lit >= 15 && !(op = put_length(op, oend, lit - 15))) {
        return NULL;
    }
    if ((size_t)(oend - op) < lit) {
        return NULL;
    }
    memcpy(op, anchor, lit);
    op += lit;
    if (match_len) {
        if (oend - op < 2) {
            return NULL;
        }
        *op++ = (uint8_t)(offset & 0xff);
        *op++ = (uint8_t)(offset >> 8);
        if (ml >= 15 && !(op = put_length(op, oend, ml - 15))) {
            return NULL;
        }
    }
    return op;
}

int LZ4_compress_default(const char* src, char* dst, int src_size, int dst_capacity) {
    if (!src || !dst || src_size < 0 || src_size > LZ4_MAX_INPUT_SIZE || dst_capacity <= 0) {
        return 0;
    }
    const uint8_t* base = (const uint8_t*)src;
    const uint8_t* iend = base + src_size;
    const uint8_t* anchor = base;
    uint8_t* op = (uint8_t*)dst;
    const uint8_t* oend = op + dst_capacity;
    // Positions + 1 (0 = empty) of the last 4-byte string with each hash.
    uint32_t table[1u << HASH_BITS];
    memset(table, 0, sizeof table);
    if (src_size > MATCH_LIMIT) {
        const uint8_t* match_end_limit = iend - LAST_LITERALS;
        const uint8_t* ip = base;
        while (ip < iend - MATCH_LIMIT) {
            uint32_t v = read32(ip);
            uint32_t h = hash4(v);
            uint32_t cand = table[h];
            table[h] = (uint32_t)(ip - base) + 1;
            const uint8_t* ref = cand ? base + cand - 1 : NULL;
            if (!ref || ip - ref > MAX_OFFSET || read32(ref) != v) {
                ip++;
                continue;
            }
            const uint8_t* mp = ip + MIN_MATCH;
            const uint8_t* rp = ref + MIN_MATCH;
            while (mp < match_end_limit && *mp == *rp) {
                mp++;
                rp++;
            }
            op = put_sequence(op, oend, anchor, (size_t)(ip - anchor), (size_t)(ip - ref),
                              (size_t)(mp - ip));
            if (!op) {
                return 0;
            }
            ip = mp;
            anchor = ip;
        }
    }
    op = put_sequence(op, oend, anchor, (size_t)(iend - anchor), 0, 0);
    return op ? (int)(op - (uint8_t*)dst) : 0;
}

// Reads a length continuation; false past the end of the input.
static int get_length(const uint8_t** ip, const uint8_t* iend, size_t* len) {
    uint8_t b;
    do {
        if (*ip >= iend) {
            return 0;
        }
        b = *(*ip)++;
        *len += b;
    } while (b == 255);
    return 1;
}

int LZ4_decompress_safe(const char* src, char* dst, int compressed_size, int dst_capacity) {
    if (!src || !dst || compressed_size <= 0 || dst_capacity < 0) {
        return -1;
    }
    const uint8_t* ip = (const uint8_t*)src;
    const uint8_t* iend = ip + compressed_size;
    uint8_t* op = (uint8_t*)dst;
    uint8_t* ostart = op;
    uint8_t* oend = op + dst_capacity;
    for (;;) {
        uint8_t token = *ip++;
        size_t lit = token >> 4;
        if (lit == 15 && !get_length(&ip, iend, &lit)) {
            return -1;
        }
        if ((size_t)(iend - ip) < lit || (size_t)(oend - op) < lit) {
            return -1;
        }
        memcpy(op, ip, lit);
        op += lit;
        ip += lit;
        if (ip == iend) {
            break; // the last sequence has literals only
        }
        if (iend - ip < 2) {
            return -1;
        }
        size_t offset = (size_t)ip[0] | ((size_t)ip[1] << 8);
        ip += 2;
        if (offset == 0 || offset > (size_t)(op - ostart)) {
            return -1;
        }
        size_t len = token & 15;
        if (len == 15 && !get_length(&ip, iend, &len)) {
            return -1;
        }
        len += MIN_MATCH;
        if ((size_t)(oend - op) < len) {
            return -1;
        }
        // Byte by byte: a match may overlap the bytes it produces.
        const uint8_t* mp = op - offset;
        for (size_t i = 0; i < len; i++) {
            op[i] = mp[i];
        }
        op += len;
        if (ip >= iend) {
            return -1; // a block cannot end with a match
        }
    }
    return (int)(op - ostart);
}
