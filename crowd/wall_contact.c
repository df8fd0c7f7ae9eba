// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Wall contact: the wall lines and pinned walls of the collision passes.
#include "crowd/wall_contact.h"

#include <math.h>

#include "crowd/crowd_tuning.h"

bool wf_wall_contact_normal(wf_vec3 a, wf_vec3 b, float* len, float* nx, float* nz) {
    float ex = b.x - a.x, ez = b.z - a.z;
    float len2 = ex * ex + ez * ez;
    if (!(len2 > 1e-8f)) {
        return false;
    }
    *len = sqrtf(len2);
    *nx = ez / *len;
    *nz = -ex / *len;
    return true;
}

// The helpers below call this once per wall of every agent, every update:
// forced inline. Called, the crowd cost 26,928 instructions an agent-frame;
// inlined, 26,803 (26,840 when it lived in crowd_motion.c).
__attribute__((always_inline)) static inline bool
holds(const wf_vec3* walls, uint32_t count, uint32_t k, wf_vec3 p, float len, float nx, float nz) {
    const wf_vec3 a = walls[2u * k], b = walls[2u * k + 1u];
    float t = ((p.x - a.x) * (b.x - a.x) + (p.z - a.z) * (b.z - a.z)) / len;
    if (t >= 0.0f && t <= len) {
        return true;
    }
    if (t < -WF_CROWD_WALL_END_MARGIN || t > len + WF_CROWD_WALL_END_MARGIN) {
        return false;
    }
    // The end p stands past, and another wall leaving it: the corner is
    // concave (or the wall goes on in line) when that wall's far end lies
    // on the inner side of this one's line.
    const wf_vec3 v = t < 0.0f ? a : b;
    for (uint32_t m = 0; m < count; ++m) {
        for (uint32_t e = 0; e < 2u && m != k; ++e) {
            wf_vec3 q = walls[2u * m + e], w = walls[2u * m + 1u - e];
            float dx = q.x - v.x, dz = q.z - v.z;
            if (dx * dx + dz * dz < 1e-6f && (w.x - a.x) * nx + (w.z - a.z) * nz > -1e-3f) {
                return true;
            }
        }
    }
    return false;
}

bool wf_wall_contact_holds(const wf_vec3* walls, uint32_t count, uint32_t k, wf_vec3 p, float len,
                           float nx, float nz) {
    return holds(walls, count, k, p, len, nx, nz);
}

wf_vec3 wf_wall_contact_nearest_line(const wf_vec3* walls, uint32_t count, wf_vec3 pos) {
    wf_vec3 line = wf_v3(0.0f, -INFINITY, 0.0f);
    float best = WF_CROWD_WALL_LINE_REACH;
    for (uint32_t k = 0; k < count; ++k) {
        wf_vec3 a = walls[2u * k], b = walls[2u * k + 1u];
        float len, nx, nz;
        if (!wf_wall_contact_normal(a, b, &len, &nx, &nz)) {
            continue;
        }
        if (!holds(walls, count, k, pos, len, nx, nz)) {
            continue;
        }
        float inside = (pos.x - a.x) * nx + (pos.z - a.z) * nz;
        if (fabsf(inside) < best) {
            best = fabsf(inside);
            line = wf_v3(nx, a.x * nx + a.z * nz, nz);
        }
    }
    return line;
}

float wf_wall_contact_blocked_share(const wf_vec3* walls, uint32_t count, wf_vec3 p, float dx,
                                    float dz) {
    float gx = dx, gz = dz;
    // Two rounds: in a corner, taking out one wall's part can turn what is
    // left into the other wall.
    for (int round = 0; round < 2; ++round) {
        for (uint32_t k = 0; k < count; ++k) {
            wf_vec3 a = walls[2u * k], b = walls[2u * k + 1u];
            float len, nx, nz;
            if (!wf_wall_contact_normal(a, b, &len, &nx, &nz)) {
                continue;
            }
            float g = gx * nx + gz * nz;
            if (g >= 0.0f) {
                continue; // along or away from this wall
            }
            float room = (p.x - a.x) * nx + (p.z - a.z) * nz;
            if (room >= WF_CROWD_WALL_PINNED || room < -WF_CROWD_WALL_LINE_REACH ||
                !holds(walls, count, k, p, len, nx, nz)) {
                continue;
            }
            gx -= nx * g;
            gz -= nz * g;
        }
    }
    float left = gx * gx + gz * gz;
    return left < 1.0f ? 1.0f - left : 0.0f;
}
