// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The outline check of a convex volume, shared by the build and by tools
// that read volumes from files (one rule, one error message).
#include <math.h>

#include "wayfarer/tilecache.h"

bool wf_convex_outline_valid(const wf_vec3* v, uint32_t n) {
    if (v == NULL || n < 3u || n > 32u) {
        return false;
    }
    for (uint32_t i = 0; i < n; ++i) {
        if (!isfinite(v[i].x) || !isfinite(v[i].z)) {
            return false;
        }
    }
    // Every other point on the same side of every edge (n <= 32, so n^2
    // tests cost nothing): the area paint tests points against each edge
    // and needs one winding, so repeats, three in a line and self-crossing
    // outlines fail.
    int side = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const wf_vec3 a = v[i], b = v[(i + 1u) % n];
        for (uint32_t k = 0; k < n; ++k) {
            if (k == i || k == (i + 1u) % n) {
                continue;
            }
            double cross = ((double)b.x - a.x) * ((double)v[k].z - a.z) -
                           ((double)b.z - a.z) * ((double)v[k].x - a.x);
            int here = cross > 0.0 ? 1 : cross < 0.0 ? -1 : 0;
            if (here == 0 || (side != 0 && here != side)) {
                return false;
            }
            side = here;
        }
    }
    return true;
}
