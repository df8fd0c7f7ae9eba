// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The avoidance scoring kernel, written once over float_lanes.h. avoidance.c
// includes it once per width with LANES (1, 4 or 8) and LANES_FN (the
// functions' attributes) defined; every name below gets the width as a
// suffix (max_inv_4). Needs avoid_setup and avoid_weights.

#define LANES_CAT_(a, b, c) a##b##c
#define LANES_CAT(a, b, c) LANES_CAT_(a, b, c)
#define FW LANES_CAT(floats, LANES, )
#define MW LANES_CAT(mask, LANES, )
#define OP(name) LANES_CAT(f, LANES, _##name)
#define K(name) LANES_CAT(name, _, LANES)

/// Inverse time of the first impact of a moving circle with a static one:
/// relative velocity (vx, vz), p towards the obstacle, c = |p|^2 - R^2 > 0.
static inline LANES_FN FW K(circle_inv_v)(FW vx, FW vz, FW px, FW pz, FW c, FW inv_c) {
    FW a = OP(add)(OP(mul)(vx, vx), OP(mul)(vz, vz));
    FW b = OP(add)(OP(mul)(vx, px), OP(mul)(vz, pz));
    FW disc = OP(sub)(OP(mul)(b, b), OP(mul)(a, c));
    // Only the root in the future (b > 0: closing) and a real touch (disc > 0:
    // a graze is no impact). The max keeps sqrt's argument >= 0 without a branch.
    FW zero = OP(zero)();
    FW inv = OP(mul)(OP(add)(b, OP(sqrt)(OP(max)(disc, zero))), inv_c);
    MW hit = OP(and)(OP(gt)(b, zero), OP(gt)(disc, zero));
    return OP(select)(hit, inv);
}

/// circle_inv_v of one obstacle for every lane.
static inline LANES_FN FW K(circle_inv)(FW vx, FW vz, float px, float pz, float c, float inv_c) {
    return K(circle_inv_v)(vx, vz, OP(splat)(px), OP(splat)(pz), OP(splat)(c), OP(splat)(inv_c));
}

/// Inverse impact time while in contact, from the scaled closing speed.
static inline LANES_FN FW K(contact_inv)(FW closing) {
    MW hit = OP(gt)(closing, OP(zero)());
    return OP(select)(hit, OP(add)(OP(splat)(1.0f / AVOID_CONTACT_TIME), closing));
}

static inline LANES_FN FW K(neighbour_inv)(const avoid_setup* s, uint32_t i, FW x, FW z) {
    FW ia = OP(splat)(s->neighbours.ia[i]);
    FW rx = OP(sub)(OP(mul)(x, ia), OP(splat)(s->neighbours.kx[i]));
    FW rz = OP(sub)(OP(mul)(z, ia), OP(splat)(s->neighbours.kz[i]));
    return K(circle_inv)(rx, rz, s->neighbours.px[i], s->neighbours.pz[i], s->neighbours.c[i],
                         s->neighbours.inv_c[i]);
}

static inline LANES_FN FW K(overlap_inv)(const avoid_setup* s, uint32_t i, FW x, FW z) {
    FW ia = OP(splat)(s->overlaps.ia[i]);
    FW rx = OP(sub)(OP(mul)(x, ia), OP(splat)(s->overlaps.kx[i]));
    FW rz = OP(sub)(OP(mul)(z, ia), OP(splat)(s->overlaps.kz[i]));
    FW closing = OP(add)(OP(mul)(rx, OP(splat)(s->overlaps.px[i])),
                         OP(mul)(rz, OP(splat)(s->overlaps.pz[i])));
    return K(contact_inv)(closing);
}

static inline LANES_FN FW K(face_inv)(const avoid_setup* s, uint32_t i, FW x, FW z) {
    FW closing =
        OP(add)(OP(mul)(x, OP(splat)(s->faces.mx[i])), OP(mul)(z, OP(splat)(s->faces.mz[i])));
    // Where along the segment the circle touches the line, times closing
    // (> 0), so the extent test needs no division.
    FW vu = OP(add)(OP(mul)(x, OP(splat)(s->faces.ux[i])), OP(mul)(z, OP(splat)(s->faces.uz[i])));
    FW along = OP(add)(OP(mul)(OP(splat)(s->faces.q0[i]), closing),
                       OP(mul)(vu, OP(splat)(s->faces.gap[i])));
    FW zero = OP(zero)();
    MW hit = OP(and)(OP(and)(OP(gt)(closing, zero), OP(ge)(along, zero)),
                     OP(le)(along, OP(mul)(OP(splat)(s->faces.len[i]), closing)));
    return OP(select)(hit, OP(mul)(closing, OP(splat)(s->faces.inv_gap[i])));
}

static inline LANES_FN FW K(corner_inv)(const avoid_setup* s, uint32_t i, FW x, FW z) {
    return K(circle_inv)(x, z, s->corners.px[i], s->corners.pz[i], s->corners.c[i],
                         s->corners.inv_c[i]);
}

static inline LANES_FN FW K(touching_inv)(const avoid_setup* s, uint32_t i, FW x, FW z) {
    FW closing =
        OP(add)(OP(mul)(x, OP(splat)(s->touching.x[i])), OP(mul)(z, OP(splat)(s->touching.z[i])));
    return K(contact_inv)(closing);
}

/// Largest inverse impact time of each velocity over every obstacle.
static inline LANES_FN FW K(max_inv)(const avoid_setup* s, FW x, FW z) {
    FW inv = OP(zero)();
    for (uint32_t i = 0; i < s->neighbours.count; ++i) {
        inv = OP(max)(inv, K(neighbour_inv)(s, i, x, z));
    }
    for (uint32_t i = 0; i < s->overlaps.count; ++i) {
        inv = OP(max)(inv, K(overlap_inv)(s, i, x, z));
    }
    for (uint32_t i = 0; i < s->faces.count; ++i) {
        inv = OP(max)(inv, K(face_inv)(s, i, x, z));
    }
    for (uint32_t i = 0; i < s->corners.count; ++i) {
        inv = OP(max)(inv, K(corner_inv)(s, i, x, z));
    }
    for (uint32_t i = 0; i < s->touching.count; ++i) {
        inv = OP(max)(inv, K(touching_inv)(s, i, x, z));
    }
    return inv;
}

/// Lanes below n.
static inline LANES_FN MW K(below)(uint32_t n) { return OP(gt)(OP(splat)((float)n), OP(iota)()); }

/// max_inv of one velocity, with obstacles in the lanes: each lane does
/// the operations of the per-candidate functions above for its obstacle,
/// and the maximum does not depend on the order, so the bits are those of
/// max_inv. Reads up to LANES - 1 entries past each count, none at width
/// 1 (the arrays' sizes are multiples of 8, asserted in avoidance.c; those
/// lanes are masked to 0 before the maximum).
static LANES_FN float K(max_inv_of)(const avoid_setup* s, float vx, float vz) {
    const FW x = OP(splat)(vx), z = OP(splat)(vz), zero = OP(zero)();
    FW inv = zero;
    for (uint32_t j = 0; j < s->neighbours.count; j += LANES) {
        FW ia = OP(load)(s->neighbours.ia + j);
        FW rx = OP(sub)(OP(mul)(x, ia), OP(load)(s->neighbours.kx + j));
        FW rz = OP(sub)(OP(mul)(z, ia), OP(load)(s->neighbours.kz + j));
        FW v =
            K(circle_inv_v)(rx, rz, OP(load)(s->neighbours.px + j), OP(load)(s->neighbours.pz + j),
                            OP(load)(s->neighbours.c + j), OP(load)(s->neighbours.inv_c + j));
        inv = OP(max)(inv, OP(select)(K(below)(s->neighbours.count - j), v));
    }
    for (uint32_t j = 0; j < s->overlaps.count; j += LANES) {
        FW ia = OP(load)(s->overlaps.ia + j);
        FW rx = OP(sub)(OP(mul)(x, ia), OP(load)(s->overlaps.kx + j));
        FW rz = OP(sub)(OP(mul)(z, ia), OP(load)(s->overlaps.kz + j));
        FW closing = OP(add)(OP(mul)(rx, OP(load)(s->overlaps.px + j)),
                             OP(mul)(rz, OP(load)(s->overlaps.pz + j)));
        inv = OP(max)(inv, OP(select)(K(below)(s->overlaps.count - j), K(contact_inv)(closing)));
    }
    for (uint32_t j = 0; j < s->faces.count; j += LANES) {
        FW closing =
            OP(add)(OP(mul)(x, OP(load)(s->faces.mx + j)), OP(mul)(z, OP(load)(s->faces.mz + j)));
        FW vu =
            OP(add)(OP(mul)(x, OP(load)(s->faces.ux + j)), OP(mul)(z, OP(load)(s->faces.uz + j)));
        FW along = OP(add)(OP(mul)(OP(load)(s->faces.q0 + j), closing),
                           OP(mul)(vu, OP(load)(s->faces.gap + j)));
        MW hit = OP(and)(OP(and)(OP(gt)(closing, zero), OP(ge)(along, zero)),
                         OP(le)(along, OP(mul)(OP(load)(s->faces.len + j), closing)));
        hit = OP(and)(hit, K(below)(s->faces.count - j));
        inv = OP(max)(inv, OP(select)(hit, OP(mul)(closing, OP(load)(s->faces.inv_gap + j))));
    }
    for (uint32_t j = 0; j < s->corners.count; j += LANES) {
        FW v = K(circle_inv_v)(x, z, OP(load)(s->corners.px + j), OP(load)(s->corners.pz + j),
                               OP(load)(s->corners.c + j), OP(load)(s->corners.inv_c + j));
        inv = OP(max)(inv, OP(select)(K(below)(s->corners.count - j), v));
    }
    for (uint32_t j = 0; j < s->touching.count; j += LANES) {
        FW closing = OP(add)(OP(mul)(x, OP(load)(s->touching.x + j)),
                             OP(mul)(z, OP(load)(s->touching.z + j)));
        inv = OP(max)(inv, OP(select)(K(below)(s->touching.count - j), K(contact_inv)(closing)));
    }
    return OP(hmax)(inv);
}

/// The score of candidates (x, z) whose largest inverse impact time is inv.
static inline LANES_FN FW K(score_of)(const avoid_setup* s, const avoid_weights* w, FW x, FW z,
                                      FW inv) {
    const FW zero = OP(zero)(), one = OP(splat)(1.0f);
    FW side = zero;
    for (uint32_t i = 0; i < s->sides.count; ++i) {
        FW lateral =
            OP(add)(OP(mul)(x, OP(splat)(s->sides.rx[i])), OP(mul)(z, OP(splat)(s->sides.rz[i])));
        FW t = OP(sub)(OP(splat)(s->sides.b[i]), lateral);
        side = OP(add)(side, OP(min)(OP(max)(t, zero), one));
    }
    FW ddx = OP(sub)(x, OP(splat)(w->desired_vx)), ddz = OP(sub)(z, OP(splat)(w->desired_vz));
    FW cdx = OP(sub)(x, OP(splat)(w->vx)), cdz = OP(sub)(z, OP(splat)(w->vz));
    // Impacts beyond the horizon do not count; the penalty fades to 0 at
    // the horizon instead of jumping, so choices do not flicker as an
    // impact time crosses it.
    FW impact = OP(max)(OP(sub)(inv, OP(splat)(w->inv_horizon)), zero);
    FW d = OP(sqrt)(OP(add)(OP(mul)(ddx, ddx), OP(mul)(ddz, ddz)));
    FW c = OP(sqrt)(OP(add)(OP(mul)(cdx, cdx), OP(mul)(cdz, cdz)));
    FW score = OP(add)(OP(mul)(OP(splat)(w->desired), d), OP(mul)(OP(splat)(w->current), c));
    score = OP(add)(score, OP(mul)(OP(splat)(w->side), side));
    score = OP(add)(score, OP(mul)(OP(splat)(w->impact), impact));
    return score;
}

/// max_inv of three groups of candidates at once, obstacles outside: each
/// obstacle's constants are loaded once for the three. Every lane still
/// takes the maximum over the obstacles in the same order, so the bits are
/// those of max_inv.
static inline LANES_FN void K(max_inv3)(const avoid_setup* s, const FW x[3], const FW z[3],
                                        FW inv[3]) {
    FW a0 = OP(zero)(), a1 = OP(zero)(), a2 = OP(zero)();
    for (uint32_t i = 0; i < s->neighbours.count; ++i) {
        a0 = OP(max)(a0, K(neighbour_inv)(s, i, x[0], z[0]));
        a1 = OP(max)(a1, K(neighbour_inv)(s, i, x[1], z[1]));
        a2 = OP(max)(a2, K(neighbour_inv)(s, i, x[2], z[2]));
    }
    for (uint32_t i = 0; i < s->overlaps.count; ++i) {
        a0 = OP(max)(a0, K(overlap_inv)(s, i, x[0], z[0]));
        a1 = OP(max)(a1, K(overlap_inv)(s, i, x[1], z[1]));
        a2 = OP(max)(a2, K(overlap_inv)(s, i, x[2], z[2]));
    }
    for (uint32_t i = 0; i < s->faces.count; ++i) {
        a0 = OP(max)(a0, K(face_inv)(s, i, x[0], z[0]));
        a1 = OP(max)(a1, K(face_inv)(s, i, x[1], z[1]));
        a2 = OP(max)(a2, K(face_inv)(s, i, x[2], z[2]));
    }
    for (uint32_t i = 0; i < s->corners.count; ++i) {
        a0 = OP(max)(a0, K(corner_inv)(s, i, x[0], z[0]));
        a1 = OP(max)(a1, K(corner_inv)(s, i, x[1], z[1]));
        a2 = OP(max)(a2, K(corner_inv)(s, i, x[2], z[2]));
    }
    for (uint32_t i = 0; i < s->touching.count; ++i) {
        a0 = OP(max)(a0, K(touching_inv)(s, i, x[0], z[0]));
        a1 = OP(max)(a1, K(touching_inv)(s, i, x[1], z[1]));
        a2 = OP(max)(a2, K(touching_inv)(s, i, x[2], z[2]));
    }
    inv[0] = a0;
    inv[1] = a1;
    inv[2] = a2;
}

/// Scores (vxs, vzs)[0..n), n a multiple of LANES, into out_score: three
/// groups of LANES at a time (the adaptive pattern's passes are 21 or 22
/// candidates, three groups of eight), the rest one group at a time.
static LANES_FN void K(score)(const avoid_setup* s, const avoid_weights* w, const float* vxs,
                              const float* vzs, uint32_t n, float* out_score) {
    uint32_t j = 0;
    for (; j + 3u * LANES <= n; j += 3u * LANES) {
        FW x[3], z[3], inv[3];
        for (uint32_t g = 0; g < 3u; ++g) {
            x[g] = OP(load)(vxs + j + g * LANES);
            z[g] = OP(load)(vzs + j + g * LANES);
        }
        K(max_inv3)(s, x, z, inv);
        for (uint32_t g = 0; g < 3u; ++g) {
            OP(store)(out_score + j + g * LANES, K(score_of)(s, w, x[g], z[g], inv[g]));
        }
    }
    for (; j < n; j += LANES) {
        FW x = OP(load)(vxs + j), z = OP(load)(vzs + j);
        OP(store)(out_score + j, K(score_of)(s, w, x, z, K(max_inv)(s, x, z)));
    }
}

/// Candidates (cx, cz) + off * radius for the offsets (off_x, off_z)[0..n),
/// each scaled back onto the max_speed disc when rounding put it outside
/// (the operations of clamp_speed in avoidance.c, lane by lane), into
/// (vx, vz)[0..n). Reads and writes up to LANES - 1 entries past n.
static LANES_FN void K(place)(const float* off_x, const float* off_z, uint32_t n, float cx,
                              float cz, float radius, float max_speed, float* vx, float* vz) {
    const FW r = OP(splat)(radius), px = OP(splat)(cx), pz = OP(splat)(cz);
    const FW limit = OP(splat)(max_speed), limit_sq = OP(splat)(max_speed * max_speed);
    for (uint32_t j = 0; j < n; j += LANES) {
        FW x = OP(add)(px, OP(mul)(OP(load)(off_x + j), r));
        FW z = OP(add)(pz, OP(mul)(OP(load)(off_z + j), r));
        FW len_sq = OP(add)(OP(mul)(x, x), OP(mul)(z, z));
        MW out = OP(gt)(len_sq, limit_sq);
        FW k = OP(div)(limit, OP(sqrt)(len_sq));
        OP(store)(vx + j, OP(blend)(out, OP(mul)(x, k), x));
        OP(store)(vz + j, OP(blend)(out, OP(mul)(z, k), z));
    }
}

#undef K
#undef OP
#undef MW
#undef FW
#undef LANES_CAT
#undef LANES_CAT_
