// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Obstacles agents only avoid (movers): upright cylinders the game places
// every frame. Agents steer around clusters of them by their silhouette
// (the tangents of the cluster seen from the agent, as in "A Fast Approach
// to Navigation Meshes", Game Programming Gems 3), avoid them as
// neighbours that never yield, and are put back outside them by the
// collision passes. Few movers: every hook scans them all, in slot order.
#include "crowd/movers.h"

#include <math.h>
#include <string.h>

#include "crowd/crowd_internal.h"
#include "navcore/bytes.h"
#include "navcore/check.h"

/// Room kept between an agent and a mover when detouring, in agent radii:
/// the tangent passes this far out so avoidance has nothing left to do.
#define MOVER_DETOUR_SKIN 0.25f
/// Separation from a mover reaches this many times the radius sum.
#define MOVER_SEPARATION_REACH 1.5f

#define MOVER_PI 3.14159265358979f

#define SLOT_RECORD 40u // generation 4, position 12, velocity 12, radius 4, height 4
#define SECTION_HEAD 8u // capacity 4, live count 4

/* ---------------------------------------------------------------------------
 * Storage
 */

wf_status wf_movers_create(wf_crowd_movers* m, const wf_allocator* a, uint32_t capacity) {
    memset(m, 0, sizeof *m);
    m->capacity = capacity;
    m->generation = WF_ALLOC_ARRAY(a, uint32_t, capacity);
    m->items = WF_ALLOC_ARRAY(a, wf_mover, capacity);
    if (m->generation == NULL || m->items == NULL) {
        wf_movers_destroy(m, a);
        return WF_ERR_OUT_OF_MEMORY;
    }
    return WF_OK;
}

void wf_movers_destroy(wf_crowd_movers* m, const wf_allocator* a) {
    WF_FREE_ARRAY(a, m->generation, uint32_t, m->capacity);
    WF_FREE_ARRAY(a, m->items, wf_mover, m->capacity);
    m->generation = NULL;
    m->items = NULL;
}

size_t wf_movers_memory_bytes(const wf_crowd_movers* m) {
    return (size_t)m->capacity * (sizeof(uint32_t) + sizeof(wf_mover));
}

static bool live(const wf_crowd_movers* m, uint32_t slot) {
    return (m->generation[slot] & 1u) != 0;
}

void wf_movers_clear(wf_crowd_movers* m) {
    for (uint32_t k = 0; k < m->capacity; ++k) {
        if (live(m, k)) {
            m->generation[k]++;
        }
    }
    m->live_count = 0;
}

static bool mover_valid(const wf_mover* v) {
    return wf_v3_is_finite(v->position) && wf_v3_is_finite(v->velocity) && isfinite(v->radius) &&
           v->radius > 0.0f && isfinite(v->height) && v->height > 0.0f;
}

/* ---------------------------------------------------------------------------
 * Public calls
 */

static wf_status find_mover(const wf_crowd* c, wf_mover_id id, uint32_t* out) {
    WF_CHECK_ARG(id.bits != 0);
    const wf_crowd_movers* m = &c->movers;
    uint64_t slot = (id.bits & 0xffffffffu) - 1u;
    if (slot >= m->capacity || !live(m, (uint32_t)slot) ||
        m->generation[slot] != (uint32_t)(id.bits >> 32)) {
        return WF_ERR_STALE_REF;
    }
    *out = (uint32_t)slot;
    return WF_OK;
}

wf_status wf_crowd_add_mover(wf_crowd* c, const wf_mover* mover, wf_mover_id* out_id) {
    WF_CHECK_ARG(c != NULL && mover != NULL && out_id != NULL);
    WF_CHECK_OR(!c->busy, WF_ERR_BUSY);
    WF_CHECK_ARG(mover_valid(mover));
    wf_crowd_movers* m = &c->movers;
    if (m->live_count == m->capacity) {
        return WF_ERR_CAPACITY;
    }
    uint32_t slot = 0;
    while (live(m, slot)) {
        slot++; // a free slot exists: live_count < capacity
    }
    m->generation[slot]++;
    m->items[slot] = *mover;
    m->items[slot].velocity.y = 0.0f;
    m->live_count++;
    out_id->bits = ((uint64_t)m->generation[slot] << 32) | (uint64_t)(slot + 1u);
    return WF_OK;
}

wf_status wf_crowd_set_mover(wf_crowd* c, wf_mover_id id, wf_vec3 position, wf_vec3 velocity) {
    WF_CHECK_ARG(c != NULL);
    WF_CHECK_OR(!c->busy, WF_ERR_BUSY);
    WF_CHECK_ARG(wf_v3_is_finite(position) && wf_v3_is_finite(velocity));
    uint32_t slot;
    wf_status s = find_mover(c, id, &slot);
    if (s != WF_OK) {
        return s;
    }
    c->movers.items[slot].position = position;
    c->movers.items[slot].velocity = wf_v3(velocity.x, 0.0f, velocity.z);
    return WF_OK;
}

wf_status wf_crowd_remove_mover(wf_crowd* c, wf_mover_id id) {
    WF_CHECK_ARG(c != NULL);
    WF_CHECK_OR(!c->busy, WF_ERR_BUSY);
    uint32_t slot;
    wf_status s = find_mover(c, id, &slot);
    if (s != WF_OK) {
        return s;
    }
    c->movers.generation[slot]++;
    memset(&c->movers.items[slot], 0, sizeof(wf_mover));
    c->movers.live_count--;
    return WF_OK;
}

wf_status wf_crowd_get_mover(const wf_crowd* c, wf_mover_id id, wf_mover* out) {
    WF_CHECK_ARG(c != NULL && out != NULL);
    uint32_t slot;
    wf_status s = find_mover(c, id, &slot);
    if (s != WF_OK) {
        return s;
    }
    *out = c->movers.items[slot];
    return WF_OK;
}

/* ---------------------------------------------------------------------------
 * Save and restore
 */

size_t wf_movers_save_size(const wf_crowd_movers* m) {
    return SECTION_HEAD + (size_t)m->capacity * SLOT_RECORD;
}

static void put_vec3(unsigned char* p, wf_vec3 v) {
    wf_bytes_put_f32(p, v.x);
    wf_bytes_put_f32(p + 4, v.y);
    wf_bytes_put_f32(p + 8, v.z);
}

static wf_vec3 get_vec3(const unsigned char* p) {
    return wf_v3(wf_bytes_get_f32(p), wf_bytes_get_f32(p + 4), wf_bytes_get_f32(p + 8));
}

void wf_movers_save(const wf_crowd_movers* m, unsigned char* out) {
    wf_bytes_put_u32(out, m->capacity);
    wf_bytes_put_u32(out + 4, m->live_count);
    unsigned char* p = out + SECTION_HEAD;
    for (uint32_t k = 0; k < m->capacity; ++k, p += SLOT_RECORD) {
        const wf_mover* v = &m->items[k];
        wf_bytes_put_u32(p, m->generation[k]);
        put_vec3(p + 4, v->position);
        put_vec3(p + 16, v->velocity);
        wf_bytes_put_f32(p + 28, v->radius);
        wf_bytes_put_f32(p + 32, v->height);
        wf_bytes_put_u32(p + 36, 0u);
    }
}

static wf_mover get_mover(const unsigned char* p) {
    wf_mover v;
    v.position = get_vec3(p + 4);
    v.velocity = get_vec3(p + 16);
    v.radius = wf_bytes_get_f32(p + 28);
    v.height = wf_bytes_get_f32(p + 32);
    return v;
}

wf_status wf_movers_check(const wf_crowd_movers* m, const unsigned char* in, size_t size) {
    if (size < SECTION_HEAD) {
        return WF_ERR_BAD_DATA;
    }
    if (wf_bytes_get_u32(in) != m->capacity) {
        return WF_ERR_CAPACITY;
    }
    if (size != wf_movers_save_size(m)) {
        return WF_ERR_BAD_DATA;
    }
    uint32_t count = 0;
    const unsigned char* p = in + SECTION_HEAD;
    for (uint32_t k = 0; k < m->capacity; ++k, p += SLOT_RECORD) {
        if ((wf_bytes_get_u32(p) & 1u) == 0) {
            continue;
        }
        wf_mover v = get_mover(p);
        if (!mover_valid(&v) || v.velocity.y != 0.0f) {
            return WF_ERR_BAD_DATA;
        }
        count++;
    }
    return count == wf_bytes_get_u32(in + 4) ? WF_OK : WF_ERR_BAD_DATA;
}

void wf_movers_load(wf_crowd_movers* m, const unsigned char* in) {
    m->live_count = wf_bytes_get_u32(in + 4);
    const unsigned char* p = in + SECTION_HEAD;
    for (uint32_t k = 0; k < m->capacity; ++k, p += SLOT_RECORD) {
        m->generation[k] = wf_bytes_get_u32(p);
        if (live(m, k)) {
            m->items[k] = get_mover(p);
        } else {
            memset(&m->items[k], 0, sizeof(wf_mover));
        }
    }
}

/* ---------------------------------------------------------------------------
 * Hooks
 */

/// Mover k and agent i stand at overlapping heights.
static bool same_level(const wf_crowd* c, uint32_t i, const wf_mover* v) {
    float y = c->pos[i].y;
    return y <= v->position.y + v->height && v->position.y <= y + c->params[i].height;
}

/// The nearest movers (by gap to the agent's circle) within range, nearest
/// first, ties by slot; returns how many (at most max).
static uint32_t nearest_movers(const wf_crowd* c, uint32_t i, float range, uint32_t* out,
                               float* gap, uint32_t max) {
    const wf_crowd_movers* m = &c->movers;
    const float r = c->params[i].radius;
    uint32_t n = 0;
    for (uint32_t k = 0; k < m->capacity; ++k) {
        if (!live(m, k)) {
            continue;
        }
        const wf_mover* v = &m->items[k];
        if (!same_level(c, i, v)) {
            continue;
        }
        float g = wf_v2_distance(c->pos[i], v->position) - v->radius - r;
        if (!(g <= range) || (n == max && g >= gap[n - 1])) {
            continue;
        }
        uint32_t at = n < max ? n++ : max - 1u;
        while (at > 0 && gap[at - 1] > g) {
            out[at] = out[at - 1];
            gap[at] = gap[at - 1];
            at--;
        }
        out[at] = k;
        gap[at] = g;
    }
    return n;
}

uint32_t wf_movers_gather(const wf_crowd* c, uint32_t i, wf_avoid_neighbour* out, uint32_t max) {
    if (c->movers.live_count == 0) {
        return 0;
    }
    uint32_t slots[WF_MOVERS_PER_AGENT];
    float gap[WF_MOVERS_PER_AGENT];
    uint32_t n = nearest_movers(c, i, c->params[i].collision_query_range, slots, gap,
                                max < WF_MOVERS_PER_AGENT ? max : WF_MOVERS_PER_AGENT);
    for (uint32_t k = 0; k < n; ++k) {
        const wf_mover* v = &c->movers.items[slots[k]];
        out[k].pos = v->position;
        out[k].vel = v->velocity;
        out[k].radius = v->radius;
        out[k].rank = WF_AVOID_RANK_IMMOVABLE;
    }
    return n;
}

/// True when the segment a-b crosses one of agent i's walls (the edges of
/// where its centre may go).
static bool crosses_wall(const wf_crowd* c, uint32_t i, wf_vec3 a, wf_vec3 b) {
    const wf_vec3* walls = c->walls + (size_t)i * c->max_walls * 2u;
    wf_vec3 ab = wf_v3_sub(b, a);
    for (uint32_t k = 0; k < c->wall_count[i]; ++k) {
        wf_vec3 p = walls[2 * k], q = walls[2 * k + 1];
        wf_vec3 pq = wf_v3_sub(q, p);
        float den = wf_v2_perp(ab, pq);
        if (fabsf(den) < 1e-12f) {
            continue; // parallel
        }
        wf_vec3 ap = wf_v3_sub(p, a);
        float s = wf_v2_perp(ap, pq) / den; // along a-b
        float t = wf_v2_perp(ap, ab) / den; // along p-q
        if (s > 0.0f && s <= 1.0f && t >= 0.0f && t <= 1.0f) {
            return true;
        }
    }
    return false;
}

/// The detour's circles: movers grown by the agent's radius and a skin,
/// with the cluster each belongs to (overlapping circles share one).
typedef struct detour_set {
    wf_vec3 centre[WF_MOVERS_PER_AGENT];
    float radius[WF_MOVERS_PER_AGENT];
    uint32_t cluster[WF_MOVERS_PER_AGENT];
    uint32_t count;
} detour_set;

static void build_clusters(detour_set* d) {
    for (uint32_t a = 0; a < d->count; ++a) {
        d->cluster[a] = a;
    }
    // Few circles: relabel until stable (at most count rounds).
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t a = 0; a < d->count; ++a) {
            for (uint32_t b = a + 1; b < d->count; ++b) {
                float rr = d->radius[a] + d->radius[b];
                if (d->cluster[a] != d->cluster[b] &&
                    wf_v2_distance_sq(d->centre[a], d->centre[b]) < rr * rr) {
                    uint32_t low = d->cluster[a] < d->cluster[b] ? d->cluster[a] : d->cluster[b];
                    d->cluster[a] = d->cluster[b] = low;
                    changed = true;
                }
            }
        }
    }
}

/// First circle the segment p-t enters (by entry point along it), or
/// count; circles of clusters in `skip` (a bit set) are ignored.
static uint32_t first_hit(const detour_set* d, wf_vec3 p, wf_vec3 t, uint32_t skip) {
    wf_vec3 seg = wf_v3_sub(t, p);
    float len_sq = wf_v2_length_sq(seg);
    uint32_t best = d->count;
    float best_s = INFINITY;
    if (len_sq < 1e-8f) {
        return best;
    }
    for (uint32_t k = 0; k < d->count; ++k) {
        if (skip & (1u << d->cluster[k])) {
            continue;
        }
        wf_vec3 to = wf_v3_sub(d->centre[k], p);
        float along = wf_v2_dot(to, seg) / len_sq;
        float s = along < 0.0f ? 0.0f : (along > 1.0f ? 1.0f : along);
        wf_vec3 closest = wf_v3_mad(p, seg, s);
        if (wf_v2_distance_sq(closest, d->centre[k]) >= d->radius[k] * d->radius[k]) {
            continue;
        }
        if (s < best_s) {
            best_s = s;
            best = k;
        }
    }
    return best;
}

/// The tangent points of cluster `cl` seen from p, left and right of the
/// direction to t (angles measured from it). False when the cluster
/// surrounds p (no way round either side).
static bool silhouette(const detour_set* d, uint32_t cl, wf_vec3 p, wf_vec3 t, wf_vec3 out[2]) {
    wf_vec3 dir = wf_v3_sub(t, p);
    float base = atan2f(dir.z, dir.x);
    float lo = INFINITY, hi = -INFINITY, lo_len = 0.0f, hi_len = 0.0f;
    for (uint32_t k = 0; k < d->count; ++k) {
        if (d->cluster[k] != cl) {
            continue;
        }
        wf_vec3 to = wf_v3_sub(d->centre[k], p);
        float dist = wf_v2_length(to);
        // Inside the grown circle (within the skin): tangents as from its rim.
        float r = d->radius[k] < dist * 0.999f ? d->radius[k] : dist * 0.999f;
        float half = asinf(r / dist);
        float a = atan2f(to.z, to.x) - base;
        a = a > MOVER_PI ? a - 2.0f * MOVER_PI : (a < -MOVER_PI ? a + 2.0f * MOVER_PI : a);
        float tangent = sqrtf(dist * dist - r * r);
        if (a + half > hi) {
            hi = a + half;
            hi_len = tangent;
        }
        if (a - half < lo) {
            lo = a - half;
            lo_len = tangent;
        }
    }
    if (hi - lo >= 1.9f * MOVER_PI || hi >= MOVER_PI || lo <= -MOVER_PI) {
        return false;
    }
    out[0] = wf_v3(p.x + cosf(base + hi) * hi_len, p.y, p.z + sinf(base + hi) * hi_len);
    out[1] = wf_v3(p.x + cosf(base + lo) * lo_len, p.y, p.z + sinf(base + lo) * lo_len);
    return true;
}

/// Where agent i heads to get past the movers between it and `goal`: goal
/// itself when nothing is in the way (or no side is open).
static wf_vec3 detour(const wf_crowd* c, uint32_t i, const detour_set* d, wf_vec3 goal) {
    wf_vec3 p = c->pos[i];
    wf_vec3 t = goal;
    uint32_t skip = 0;
    for (uint32_t step = 0; step < WF_MOVERS_DETOUR_STEPS; ++step) {
        uint32_t k = first_hit(d, p, t, skip);
        if (k == d->count) {
            break;
        }
        uint32_t cl = d->cluster[k];
        wf_vec3 side[2];
        if (!silhouette(d, cl, p, t, side)) {
            return goal;
        }
        float cost[2];
        bool open[2];
        for (uint32_t s = 0; s < 2; ++s) {
            cost[s] = wf_v2_distance(p, side[s]) + wf_v2_distance(side[s], goal);
            open[s] = !crosses_wall(c, i, p, side[s]);
        }
        if (!open[0] && !open[1]) {
            return goal; // walled off on both sides: wait (stuck rules follow)
        }
        // The shorter open side; ties to the right (the avoidance's side).
        uint32_t pick = !open[0] ? 1u : (!open[1] ? 0u : (cost[0] < cost[1] ? 0u : 1u));
        t = side[pick];
        skip |= 1u << cl;
    }
    return t;
}

wf_vec3 wf_movers_steer(const wf_crowd* c, uint32_t i, wf_vec3 desired_vel, bool follows_path) {
    if (c->movers.live_count == 0) {
        return desired_vel;
    }
    const wf_agent_params* p = &c->params[i];
    uint32_t slots[WF_MOVERS_PER_AGENT];
    float gap[WF_MOVERS_PER_AGENT];
    uint32_t n = nearest_movers(c, i, p->collision_query_range, slots, gap, WF_MOVERS_PER_AGENT);
    if (n == 0) {
        return desired_vel;
    }
    float speed = wf_v2_length(desired_vel);
    wf_vec3 pos = c->pos[i];
    if (follows_path && speed > 0.0f && c->corner_count[i] > 0) {
        detour_set d;
        d.count = n;
        for (uint32_t k = 0; k < n; ++k) {
            const wf_mover* v = &c->movers.items[slots[k]];
            d.centre[k] = v->position;
            d.radius[k] = v->radius + p->radius * (1.0f + MOVER_DETOUR_SKIN);
        }
        build_clusters(&d);
        wf_vec3 goal = c->corners[(size_t)i * WF_CROWD_MAX_CORNERS].pos;
        wf_vec3 t = detour(c, i, &d, goal);
        if (t.x != goal.x || t.z != goal.z) {
            wf_vec3 dir = wf_v3_sub(t, pos);
            dir.y = 0.0f;
            float len = wf_v2_length(dir);
            if (len > 1e-6f) {
                desired_vel = wf_v3_scale(dir, speed / len);
            }
        }
    }
    if ((p->update_flags & WF_AGENT_SEPARATION) && p->separation_weight > 0.0f) {
        wf_vec3 push = wf_v3(0, 0, 0);
        for (uint32_t k = 0; k < n; ++k) {
            const wf_mover* v = &c->movers.items[slots[k]];
            wf_vec3 diff = wf_v3_sub(pos, v->position);
            float reach = (p->radius + v->radius) * MOVER_SEPARATION_REACH;
            float d2 = diff.x * diff.x + diff.z * diff.z;
            if (d2 >= reach * reach || d2 < 1e-8f) {
                continue;
            }
            float dist = sqrtf(d2);
            float u = dist / reach;
            float weight = p->separation_weight * (1.0f - u * u);
            push.x += diff.x * (weight / dist);
            push.z += diff.z * (weight / dist);
        }
        float cap = speed > 0.0f ? speed : p->max_speed * 0.5f;
        wf_vec3 v = wf_v3_add(desired_vel, push);
        float l = wf_v2_length(v);
        if (l > cap && l > 0.0f) {
            v = wf_v3_scale(v, cap / l);
        }
        desired_vel = wf_v3(v.x, 0.0f, v.z);
    }
    return desired_vel;
}

wf_vec3 wf_movers_resolve(const wf_crowd* c, uint32_t i, wf_vec3 pos) {
    const wf_crowd_movers* m = &c->movers;
    if (m->live_count == 0) {
        return pos;
    }
    const float r = c->params[i].radius;
    for (uint32_t k = 0; k < m->capacity; ++k) {
        if (!live(m, k)) {
            continue;
        }
        const wf_mover* v = &m->items[k];
        if (!same_level(c, i, v)) {
            continue;
        }
        wf_vec3 diff = wf_v3_sub(pos, v->position);
        float rr = r + v->radius;
        float d2 = diff.x * diff.x + diff.z * diff.z;
        if (d2 >= rr * rr) {
            continue;
        }
        float d = sqrtf(d2);
        if (d < 1e-4f) {
            // Dead centre: out sideways to where the mover goes (or along +X).
            wf_vec3 side = wf_v3(-v->velocity.z, 0.0f, v->velocity.x);
            float l = wf_v2_length(side);
            diff = l > 1e-6f ? wf_v3_scale(side, 1.0f / l) : wf_v3(1.0f, 0.0f, 0.0f);
            d = 1.0f;
        }
        pos.x = v->position.x + diff.x * (rr / d);
        pos.z = v->position.z + diff.z * (rr / d);
    }
    return pos;
}
