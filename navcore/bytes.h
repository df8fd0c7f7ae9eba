// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Little-endian byte access for file and blob formats, independent of the
// host's byte order and of alignment.
#ifndef WF_NAVCORE_BYTES_H
#define WF_NAVCORE_BYTES_H

#include <stdint.h>
#include <string.h>

static inline void wf_bytes_put_u32(unsigned char* p, uint32_t v) {
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}
static inline uint32_t wf_bytes_get_u32(const unsigned char* p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline void wf_bytes_put_u64(unsigned char* p, uint64_t v) {
    wf_bytes_put_u32(p, (uint32_t)v);
    wf_bytes_put_u32(p + 4, (uint32_t)(v >> 32));
}
static inline uint64_t wf_bytes_get_u64(const unsigned char* p) {
    return (uint64_t)wf_bytes_get_u32(p) | ((uint64_t)wf_bytes_get_u32(p + 4) << 32);
}
static inline void wf_bytes_put_f32(unsigned char* p, float v) {
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    wf_bytes_put_u32(p, bits);
}
static inline float wf_bytes_get_f32(const unsigned char* p) {
    uint32_t bits = wf_bytes_get_u32(p);
    float v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

#endif
