// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// A corner of an agent's path as the crowd keeps it: packed, 24 bytes.
#ifndef WF_CROWD_CORNER_H
#define WF_CROWD_CORNER_H

#include <stdint.h>
#include <string.h>

#include "wayfarer/query.h"

/// A corner of an agent's path as the crowd keeps it: a wf_straight_point
/// without its padding (24 bytes, not 32), the ref in two halves. Saved as
/// the wf_straight_point it stands for (crowd_blob.h, keep POINTS).
typedef struct wf_crowd_corner {
    wf_vec3 pos;
    uint32_t flags;      ///< wf_straight_flags
    uint32_t ref_bits[2]; ///< the ref's 8 bytes (4-byte aligned, so no padding)
} wf_crowd_corner;

static inline wf_poly_ref wf_crowd_corner_ref(const wf_crowd_corner* k) {
    wf_poly_ref r;
    memcpy(&r.bits, k->ref_bits, sizeof r.bits);
    return r;
}

static inline wf_crowd_corner wf_crowd_corner_pack(const wf_straight_point* p) {
    wf_crowd_corner k;
    k.pos = p->pos;
    k.flags = p->flags;
    memcpy(k.ref_bits, &p->ref.bits, sizeof k.ref_bits); // the ref's bytes (low word first on
                                                         // little-endian hosts; read back alike)
    return k;
}

static inline wf_straight_point wf_crowd_corner_unpack(const wf_crowd_corner* k) {
    wf_straight_point p;
    memset(&p, 0, sizeof p); // padding too: saves hold the same bytes
    p.pos = k->pos;
    p.ref = wf_crowd_corner_ref(k);
    p.flags = k->flags;
    return p;
}

#endif
