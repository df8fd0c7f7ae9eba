// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Single-file passages (bottlenecks): a doorway narrower on the navmesh
// than two agents side by side (or a doorway just two wide, so two streams
// would meet in it) is crossed one direction at a time. Each
// agent finds the first such portal ahead on its corridor (a portal shorter
// than its diameter with walls at both ends); agents heading for the same
// passage from different sides meet in a table, and per passage one side
// has the way: the side already admitted (its admitted agent nearest the
// mouth on its way through and not stuck), else a side that waited its
// turn (stuck_time), else the side whose agent is nearest the mouth. Once the other side
// waited its turn, the side with the way admits nobody new, so the way
// changes when its admitted agents are through. The others wait beside the
// mouth, out of the way of those coming through. A one-lane stretch (a
// lane too narrow for two streams, longer than a doorway) is one passage:
// every portal along it is a key, so both ends meet in the same entries.
// The table is rebuilt every update in agent order; the only state carried
// over is each agent's AGENT_PINCH_GO flag and stuck timer (both saved), so
// any worker count and a restored crowd agree.
#include <math.h>
#include <string.h>

#include "crowd/crowd_phases.h"

/// Index of the edge of `edges` linked to polygon `to`; -1 when none.
static int edge_to(const wf_poly_edge* edges, uint32_t count, wf_poly_ref to) {
    for (uint32_t e = 0; e < count; ++e) {
        if (edges[e].neighbour.bits == to.bits) {
            return (int)e;
        }
    }
    return -1;
}

/// The portal from polygon ra (edges ea) to rb (edges eb) as a passage:
/// its width on the navmesh, or a negative value when the two do not share
/// an edge or an end of it is open floor (no wall on either polygon).
static float walled_portal(const wf_poly_edge* ea, uint32_t na, const wf_poly_edge* eb, uint32_t nb,
                           wf_poly_ref ra, wf_poly_ref rb, wf_crowd_passage* out) {
    int ia = edge_to(ea, na, rb), ib = edge_to(eb, nb, ra);
    if (ia < 0 || ib < 0) {
        return -1.0f;
    }
    // a's edge runs v0 -> v1 (counter-clockwise); b's shared edge v1 -> v0.
    wf_vec3 v0 = ea[ia].start, v1 = ea[ia].end;
    uint32_t ua = (uint32_t)ia, ub = (uint32_t)ib;
    bool wall0 =
        ea[(ua + na - 1u) % na].kind == WF_EDGE_WALL || eb[(ub + 1u) % nb].kind == WF_EDGE_WALL;
    bool wall1 =
        ea[(ua + 1u) % na].kind == WF_EDGE_WALL || eb[(ub + nb - 1u) % nb].kind == WF_EDGE_WALL;
    if (!wall0 || !wall1) {
        return -1.0f;
    }
    // Across the portal, pointing away from a's centre (into b).
    wf_vec3 axis = wf_v3(v1.z - v0.z, 0.0f, -(v1.x - v0.x));
    float len = wf_v2_length(axis);
    if (len < 1e-6f) {
        return -1.0f;
    }
    wf_vec3 mid = wf_v3_scale(wf_v3_add(v0, v1), 0.5f);
    wf_vec3 centre = wf_v3(0, 0, 0);
    for (uint32_t e = 0; e < na; ++e) {
        centre = wf_v3_add(centre, ea[e].start);
    }
    centre = wf_v3_scale(centre, 1.0f / (float)na);
    float width = len;
    if ((mid.x - centre.x) * axis.x + (mid.z - centre.z) * axis.z < 0.0f) {
        len = -len;
    }
    out->from = ra;
    out->to = rb;
    out->mid_x = mid.x;
    out->mid_z = mid.z;
    out->axis_x = axis.x * (1.0f / len);
    out->axis_z = axis.z * (1.0f / len);
    return width;
}

/// How many narrow portals (walled, shorter than two diameters) follow one
/// another on agent i's corridor from portal k (that one counted), within
/// the first `last` polygons. The run is a one-lane stretch (first->lane)
/// when its last portal lies further than a doorway's depth from its first:
/// a lane two streams cannot pass in (a one-lane bridge), crossed one way
/// at a time as a whole, not portal by portal.
static void lane_run(const wf_crowd* c, uint32_t i, uint32_t k, uint32_t last,
                     wf_crowd_passage* first) {
    const wf_corridor* cor = &c->corridor[i];
    float abreast = c->params[i].radius * 2.0f * WF_CROWD_PINCH_ABREAST_DIAMETERS;
    wf_poly_edge ea[WF_MAX_VERTS_PER_POLY], en[WF_MAX_VERTS_PER_POLY];
    uint32_t na = 0, nn = 0;
    uint8_t run = 1u;
    float far = 0.0f;
    if (k + 2u < last && wf_mesh_get_poly_edges(c->mesh, wf_corridor_poly(cor, k + 1u), ea,
                                                WF_MAX_VERTS_PER_POLY, &na) == WF_OK) {
        for (uint32_t j = k + 1u; j + 1u < last; ++j) {
            wf_poly_ref ra = wf_corridor_poly(cor, j), rb = wf_corridor_poly(cor, j + 1u);
            if (wf_mesh_get_poly_edges(c->mesh, rb, en, WF_MAX_VERTS_PER_POLY, &nn) != WF_OK) {
                break;
            }
            wf_crowd_passage here;
            float width = walled_portal(ea, na, en, nn, ra, rb, &here);
            if (!(width >= 0.0f && width < abreast)) {
                break;
            }
            run++;
            far = wf_v2_distance(wf_v3(first->mid_x, 0.0f, first->mid_z),
                                 wf_v3(here.mid_x, 0.0f, here.mid_z));
            memcpy(ea, en, sizeof ea);
            na = nn;
        }
    }
    first->at = (uint8_t)k;
    first->run = run;
    first->lane = run >= 2u && far > c->params[i].radius * WF_CROWD_PINCH_DOORWAY_DEPTH_RADII;
}

/// The first single-file portal among the first WF_CROWD_PINCH_SCAN of
/// agent i's corridor; false when none. It depends on the corridor's
/// polygons and the mesh only, so it is kept until they change. A portal
/// counts when it is shorter than the agent's diameter and both its ends
/// touch a wall (an edge of either polygon with nothing across), so a
/// short edge inside open floor does not. A doorway two agents wide
/// (shorter than WF_CROWD_PINCH_ABREAST_DIAMETERS diameters) counts too
/// when the corridor widens within WF_CROWD_PINCH_DOORWAY_DEPTH_RADII
/// beyond it: two streams jammed in its mouth. A longer lane that narrow
/// (a corridor) counts as one passage from its first portal (lane_run):
/// its two ends taken as two passages would each admit their stream into
/// the lane, to meet inside.
static bool find_pinch(const wf_crowd* c, uint32_t i, wf_crowd_passage* out) {
    const wf_corridor* cor = &c->corridor[i];
    float diameter = c->params[i].radius * 2.0f;
    float abreast = diameter * WF_CROWD_PINCH_ABREAST_DIAMETERS;
    uint32_t last = cor->count < WF_CROWD_PINCH_SCAN + 1u ? cor->count : WF_CROWD_PINCH_SCAN + 1u;
    wf_poly_edge ea[WF_MAX_VERTS_PER_POLY], eb[WF_MAX_VERTS_PER_POLY];
    uint32_t na = 0, nb = 0;
    if (last < 2u || wf_mesh_get_poly_edges(c->mesh, wf_corridor_poly(cor, 0), ea,
                                            WF_MAX_VERTS_PER_POLY, &na) != WF_OK) {
        return false;
    }
    bool pending = false; // a two-abreast portal, waiting to see what follows
    bool lane = false;    // a narrow lane seen: two-abreast portals no longer count
    wf_crowd_passage doorway = {0};
    for (uint32_t k = 0; k + 1u < last; ++k) {
        wf_poly_ref ra = wf_corridor_poly(cor, k), rb = wf_corridor_poly(cor, k + 1u);
        if (k > 0) {
            memcpy(ea, eb, sizeof ea);
            na = nb;
        }
        if (wf_mesh_get_poly_edges(c->mesh, rb, eb, WF_MAX_VERTS_PER_POLY, &nb) != WF_OK) {
            return false; // an off-mesh link, or stale
        }
        wf_crowd_passage here;
        float width = walled_portal(ea, na, eb, nb, ra, rb, &here);
        bool narrow = width >= 0.0f && width < abreast;
        if (pending && !narrow) {
            *out = doorway;
            return true;
        }
        if (width >= 0.0f && width < diameter) {
            *out = here;
            lane_run(c, i, k, last, out);
            return true;
        }
        if (narrow && pending) {
            // Still within the doorway's depth (a thick wall), or a lane.
            float along = (here.mid_x - doorway.mid_x) * doorway.axis_x +
                          (here.mid_z - doorway.mid_z) * doorway.axis_z;
            lane = along > c->params[i].radius * WF_CROWD_PINCH_DOORWAY_DEPTH_RADII;
            if (lane) {
                // A lane two agents wide: one passage from end to end.
                *out = doorway;
                lane_run(c, i, doorway.at, last, out);
                if (out->lane) {
                    return true;
                }
            }
            pending = !lane;
        } else if (narrow && !lane) {
            pending = true;
            doorway = here;
            doorway.at = (uint8_t)k;
            doorway.run = 1u;
            doorway.lane = false;
        }
    }
    // The corridor ends within a two-abreast doorway: it counts. Only
    // when the corridor is shorter than the polygons kept for the cached
    // result, so that a longer one (the same polygons kept) cannot tell
    // otherwise and a restored crowd finds the same.
    if (pending && cor->count <= WF_CROWD_PINCH_SCAN) {
        *out = doorway;
        return true;
    }
    return false;
}

bool wf_crowd_passage_ahead(const wf_crowd* c, uint32_t i) {
    wf_crowd_passage found;
    return find_pinch(c, i, &found);
}

/// True when agent i has walls (from its last boundary) within
/// WF_CROWD_WALLED_RADII on both sides of the way it wants to go: a lane
/// too narrow to pass in freely, where the head-on rule for passages holds.
/// *on_wall: not that, but standing on a wall along its way with one
/// within reach on the other side (pressed to a lane's edge).
static bool walled_in(const wf_crowd* c, uint32_t i, bool* on_wall) {
    wf_vec3 dir = c->desired_vel[i];
    float len = wf_v2_length(dir);
    *on_wall = false;
    if (!(len > 1e-6f)) {
        return false;
    }
    dir = wf_v3_scale(dir, 1.0f / len);
    float reach = c->params[i].radius * WF_CROWD_WALLED_RADII;
    float far = reach * 1.001f + 1e-4f;
    const wf_vec3* walls = c->walls + (size_t)i * c->max_walls * 2u;
    wf_vec3 pos = c->pos[i];
    bool left = false, right = false, touching = false, across = false;
    for (uint32_t k = 0; k < c->wall_count[i] && !(left && right); ++k) {
        wf_vec3 a = walls[2u * k], b = walls[2u * k + 1u];
        // Most walls gathered lie well beyond reach: their bounds tell
        // (with a margin, so the exact test below decides every close call).
        // Both ends compared, not fminf / fmaxf: those are library calls.
        const float x0 = pos.x - far, x1 = pos.x + far, z0 = pos.z - far, z1 = pos.z + far;
        if ((a.x > x1 && b.x > x1) || (a.x < x0 && b.x < x0) || (a.z > z1 && b.z > z1) ||
            (a.z < z0 && b.z < z0)) {
            continue;
        }
        if (wf_segment_distance_sq_2d(pos, a, b) > reach * reach) {
            continue;
        }
        // The segment's nearest point, to tell beside from ahead.
        float ex = b.x - a.x, ez = b.z - a.z;
        float ee = ex * ex + ez * ez;
        float t = ee > 0.0f ? ((pos.x - a.x) * ex + (pos.z - a.z) * ez) / ee : 0.0f;
        t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
        float vx = a.x + ex * t - pos.x, vz = a.z + ez * t - pos.z;
        // On a wall that runs along the way (an agent pressed to the
        // navmesh's edge stands on it), no side can be told from where it
        // is: such a wall counts below as before (on no side at all at
        // zero distance), and with another wall within reach across the
        // agent is still in its lane (on_wall), which keeps an admitted
        // agent's admission. Without it, an agent pressed to one side of a
        // one-lane stretch left the lane, lost its admission and waited
        // inside it (the corridor's deadlocks, docs/benchmarks.md
        // "lane29"). Counting it walled for the head-on rule too was
        // measured: nav_test500 and the demo lost.
        bool on = vx * vx + vz * vz < WF_CROWD_WALL_TOUCH_SQ &&
                  fabsf(dir.x * ez - dir.z * ex) < fabsf(dir.x * ex + dir.z * ez);
        touching |= on;
        float side = dir.x * vz - dir.z * vx;
        if (fabsf(side) <= fabsf(dir.x * vx + dir.z * vz)) {
            continue; // ahead or behind, not beside
        }
        left |= side < 0.0f;
        right |= side > 0.0f;
        across |= !on;
    }
    *on_wall = touching && across && !(left && right);
    return left && right;
}

void wf_crowd_find_pinches_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    phase_ctx* ctx = context;
    wf_crowd* c = ctx->c;
    (void)worker;
    const uint32_t keep = WF_CROWD_PINCH_SCAN + 1u;
    for (uint32_t i = begin; i < end; ++i) {
        wf_crowd_pinch* pin = &c->pinch[i];
        pin->ahead = false;
        pin->lane = 0;
        c->walled[i] = 0;
        uint8_t ts = c->target_state[i];
        if (!wf_crowd_walking(c, i) || !wf_crowd_follows_path(c, i) || ts == WF_TARGET_ARRIVED ||
            ts == WF_TARGET_REQUESTED) {
            continue;
        }
        // The search looks at the corridor's first polygons only: its
        // result is kept (a pure function of them, so a crowd restored
        // without it finds the same) until they change.
        bool on_wall;
        c->walled[i] = walled_in(c, i, &on_wall) ? 1u : 0u;
        const wf_corridor* cor = &c->corridor[i];
        uint32_t n = cor->count < keep ? cor->count : keep;
        wf_crowd_passage* found = &c->pinch_found[i];
        uint64_t seen = wf_corridor_head_hash(cor, n);
        if (c->pinch_seen_count[i] != n || c->pinch_seen[i] != seen) {
            c->pinch_seen[i] = seen;
            c->pinch_seen_count[i] = (uint8_t)n;
            if (!find_pinch(c, i, found)) {
                found->from.bits = 0;
            }
        }
        if (found->from.bits == 0) {
            continue;
        }
        float dist = wf_v2_distance(c->pos[i], wf_v3(found->mid_x, 0.0f, found->mid_z));
        pin->dist = dist;
        if (dist <= c->params[i].radius * WF_CROWD_PINCH_REACH_RADII) {
            pin->ahead = true;
        }
        // About to enter a one-lane stretch, or walking in one (walls close
        // on both sides, or admitted and pressed to one of them, the next
        // portal single-file): the whole lane is one passage
        // (wf_crowd_order_pinches).
        if (pin->ahead && found->lane) {
            pin->lane = 2u;
        } else if ((c->walled[i] || (on_wall && (c->agent_flags[i] & AGENT_PINCH_GO))) &&
                   found->at == 0u) {
            pin->lane = 1u;
        }
    }
}

static uint32_t slot_of(uint64_t a, uint64_t b, uint32_t mask) {
    uint64_t bits = a * 0x9e3779b97f4a7c15ull ^ b;
    bits ^= bits >> 33;
    bits *= 0xff51afd7ed558ccdull; // a 64-bit mix (MurmurHash3's finaliser)
    bits ^= bits >> 33;
    return (uint32_t)bits & mask;
}

/// Agent i's key: the polygon beyond its portal (portal false), or the
/// portal's two polygons in order; with lane_at below 0xff, the portal
/// that many on from its passage along its one-lane run.
static void key_of(const wf_crowd* c, uint32_t i, bool portal, uint8_t lane_at, uint64_t* a,
                   uint64_t* b) {
    const wf_crowd_passage* f = &c->pinch_found[i];
    uint64_t from = f->from.bits, to = f->to.bits;
    if (lane_at != 0xffu) {
        const wf_corridor* cor = &c->corridor[i];
        from = wf_corridor_poly(cor, f->at + lane_at).bits;
        to = wf_corridor_poly(cor, f->at + lane_at + 1u).bits;
    }
    if (!portal) {
        *a = to;
        *b = 0;
    } else {
        *a = from < to ? from : to;
        *b = from < to ? to : from;
    }
}

/// The slot of agent i's key (portal or not, lane or not) in the hash
/// slots: the one holding its entry, else the free one where it goes.
static uint32_t slot_for(const wf_crowd* c, uint32_t i, bool portal, uint8_t lane_at) {
    uint64_t a, b;
    key_of(c, i, portal, lane_at, &a, &b);
    uint32_t mask = c->pinch_capacity - 1u;
    // Lane entries are a table of their own within the same slots.
    uint32_t at = slot_of(a, lane_at != 0xffu ? ~b : b, mask);
    for (;;) {
        uint32_t k = c->pinch_slots[at];
        if (k == 0) {
            return at;
        }
        const wf_crowd_pinch_entry* e = &c->pinch_table[k - 1u];
        if (e->portal == portal && (e->lane_at != 0xffu) == (lane_at != 0xffu)) {
            uint64_t ea, eb;
            key_of(c, e->owner, portal, e->lane_at, &ea, &eb);
            if (ea == a && eb == b) {
                return at;
            }
        }
        at = (at + 1u) & mask;
    }
}

/// The table entry of agent i's key (inserted when new, if `insert` and
/// the table has room; else UINT32_MAX). The slots hold at least twice
/// max_agents, so the two keys of every agent always fit, with a free slot
/// left to end every probe; lane entries, added after them, take what room
/// is left.
static uint32_t entry_of(wf_crowd* c, uint32_t i, bool portal, uint8_t lane_at, bool insert,
                         uint32_t* used) {
    if (lane_at != 0xffu && *used >= c->pinch_capacity) {
        return UINT32_MAX; // every slot taken: a probe for a new key would not end
    }
    uint32_t at = slot_for(c, i, portal, lane_at);
    if (c->pinch_slots[at] != 0) {
        return c->pinch_slots[at] - 1u;
    }
    if (!insert || (lane_at != 0xffu && *used + 1u >= c->max_agents * 2u)) {
        return UINT32_MAX;
    }
    wf_crowd_pinch_entry* e = &c->pinch_table[*used];
    memset(e, 0, sizeof *e);
    e->owner = i;
    e->portal = portal;
    e->lane_at = lane_at;
    for (uint32_t s = 0; s < 2u; ++s) {
        e->nearest[s] = e->go_nearest[s] = INFINITY;
    }
    c->pinch_slots[at] = ++*used;
    return *used - 1u;
}

/// Side s of entry e keeps agent i if it is the side's nearest to the
/// mouth (distance d), or its nearest admitted one (go), or, waiting, has
/// stood longest. Agents come in slot order: on equal distances the lower
/// slot stays.
static void note_on_side(wf_crowd_pinch_entry* e, uint32_t s, uint32_t i, float d, bool go,
                         float stuck) {
    if (d < e->nearest[s]) {
        e->nearest[s] = d;
        e->nearest_slot[s] = i;
    }
    if (go && d < e->go_nearest[s]) {
        e->go_nearest[s] = d;
        e->go_slot[s] = i;
        e->go_stuck[s] = stuck;
    }
    if (!go && stuck > e->waited[s]) {
        e->waited[s] = stuck;
    }
}

/// Agent i (nearest distance d, admitted or not, stuck for `stuck`
/// seconds) joins the side of entry e that it comes from; a third side (a
/// polygon with three single-file ways in) is not ordered (UINT32_MAX).
/// The side's admitted agent nearest the mouth is kept with its stuck time:
/// stuck for `turn`, it may be what blocks the passage, and its side holds
/// the way no more. Those queued behind it are not asked: they get no
/// nearer while the file ahead of them goes through one at a time, and
/// counting them stuck handed the way over mid-stream. A waiting agent
/// adds to how long its side waited.
static uint32_t join(const wf_crowd* c, wf_crowd_pinch_entry* e, uint32_t i, float d, bool go,
                     float stuck, float turn) {
    uint64_t from = c->pinch_found[i].from.bits;
    uint32_t s = 0;
    while (s < e->sides && c->pinch_found[e->side_agent[s]].from.bits != from) {
        s++;
    }
    if (s == e->sides) {
        if (s == 2u) {
            return UINT32_MAX;
        }
        e->side_agent[s] = i;
        e->sides++;
    }
    note_on_side(e, s, i, d, go, stuck);
    return s;
}

/// Which side of an entry has the way: an admitted side (of two, the one
/// whose admitted agent is nearest), else a side that waited its turn (of
/// two, the longer), else the side nearest the mouth; ties go to the lower
/// slot (or side).
static uint32_t holder(const wf_crowd_pinch_entry* e, float turn) {
    if (e->sides < 2u) {
        return 0;
    }
    bool g0 = isfinite(e->go_nearest[0]) && e->go_stuck[0] < turn;
    bool g1 = isfinite(e->go_nearest[1]) && e->go_stuck[1] < turn;
    if (g0 != g1) {
        return g0 ? 0u : 1u;
    }
    if (!g0) {
        bool w0 = e->waited[0] >= turn, w1 = e->waited[1] >= turn;
        if (w0 != w1) {
            return w0 ? 0u : 1u;
        }
        if (w0) {
            return e->waited[0] >= e->waited[1] ? 0u : 1u;
        }
    }
    const float* d = g0 ? e->go_nearest : e->nearest;
    const uint32_t* slot = g0 ? e->go_slot : e->nearest_slot;
    if (d[0] != d[1]) {
        return d[0] < d[1] ? 0u : 1u;
    }
    return slot[0] < slot[1] ? 0u : 1u;
}

/// True when admitted agent i is not its side's first (the admitted agent
/// nearest the mouth) but within WF_CROWD_PINCH_ABREAST_RADII of as near,
/// while that first one is at the mouth (in its lead zone) and held up
/// (stuck for WF_CROWD_PINCH_ABREAST_HELD of `turn`, not yet all of it).
static bool abreast_of_first(const wf_crowd* c, const wf_crowd_pinch_entry* e, uint32_t i,
                             float turn) {
    const wf_crowd_pinch* pin = &c->pinch[i];
    uint32_t s = pin->side[1];
    if (s == 0xffu || !isfinite(e->go_nearest[s]) || e->go_slot[s] == i ||
        e->go_stuck[s] < turn * WF_CROWD_PINCH_ABREAST_HELD || e->go_stuck[s] >= turn) {
        return false;
    }
    float r = c->params[i].radius;
    return e->go_nearest[s] <= r * WF_CROWD_PINCH_LEAD_RADII &&
           pin->dist < e->go_nearest[s] + r * WF_CROWD_PINCH_ABREAST_RADII;
}

/// Agent i's side of the t-th portal of its one-lane run: by the order of
/// the portal's two polygons, so both streams' agents agree on it.
static uint32_t lane_side(const wf_crowd* c, uint32_t i, uint8_t t) {
    const wf_corridor* cor = &c->corridor[i];
    uint32_t at = c->pinch_found[i].at + t;
    return wf_corridor_poly(cor, at).bits < wf_corridor_poly(cor, at + 1u).bits ? 0u : 1u;
}

/// Agent i joins its side of lane entry e (its run's t-th portal), as
/// join does for a passage.
static void join_lane(const wf_crowd* c, wf_crowd_pinch_entry* e, uint32_t i, uint8_t t, float d,
                      bool go, float stuck) {
    uint32_t s = lane_side(c, i, t);
    if (!isfinite(e->nearest[s]) && !isfinite(e->go_nearest[s])) {
        e->sides++;
    }
    e->side_agent[s] = i;
    note_on_side(e, s, i, d, go, stuck);
}

/// Whether agent i, not admitted, must wait for a one-lane stretch ahead:
/// one of its run's portals is the other side's (or its side admits nobody
/// new). Entries not in the table (no room) hold nobody back.
static bool lane_waits(wf_crowd* c, uint32_t i, uint32_t* used) {
    const wf_crowd_passage* f = &c->pinch_found[i];
    for (uint8_t t = 0; t < f->run; ++t) {
        uint32_t k = entry_of(c, i, true, t, false, used);
        if (k == UINT32_MAX) {
            continue;
        }
        const wf_crowd_pinch_entry* e = &c->pinch_table[k];
        if (e->sides == 2u && (lane_side(c, i, t) != e->holder || e->closed)) {
            return true;
        }
    }
    return false;
}

void wf_crowd_order_pinches(wf_crowd* c) {
    uint32_t used = 0;
    const float turn = c->stuck_time * WF_CROWD_PINCH_TURN_STUCK;
    // Two keys per agent: the polygon beyond the portal (agents from both
    // ends of a doorway one polygon deep meet in it) and the portal itself
    // (both sides of a doorway that is only an edge).
    for (uint32_t i = 0; i < c->max_agents; ++i) {
        c->agent_flags[i] &= ~(uint32_t)(AGENT_WAITS_PINCH | AGENT_PINCH_LEAD);
        wf_crowd_pinch* pin = &c->pinch[i];
        if (!c->active[i] || (!pin->ahead && pin->lane == 0u)) {
            c->agent_flags[i] &= ~(uint32_t)AGENT_PINCH_GO;
            continue;
        }
        if (!pin->ahead) {
            continue; // in a lane, its next portal further on: see below
        }
        bool go = (c->agent_flags[i] & AGENT_PINCH_GO) != 0;
        for (uint32_t k = 0; k < 2u; ++k) {
            pin->entry[k] = entry_of(c, i, k == 1u, 0xffu, true, &used);
            pin->side[k] = (uint8_t)join(c, &c->pinch_table[pin->entry[k]], i, pin->dist, go,
                                         c->stuck_timer[i], turn);
        }
    }
    // One-lane stretches: every portal of an agent's run is a key of its
    // own (lane entries), so the two ends of a lane longer than a doorway
    // meet in one table. Those about to enter a lane make its entries;
    // those walking in one join the entries there are (an agent in a
    // doorway makes none), keeping their admission between portals.
    for (uint32_t pass = 2u; pass >= 1u; --pass) {
        for (uint32_t i = 0; i < c->max_agents; ++i) {
            wf_crowd_pinch* pin = &c->pinch[i];
            if (!c->active[i] || pin->lane != pass) {
                continue;
            }
            bool go = (c->agent_flags[i] & AGENT_PINCH_GO) != 0;
            uint32_t joined = 0;
            for (uint8_t t = 0; t < c->pinch_found[i].run; ++t) {
                uint32_t k = entry_of(c, i, true, t, pass == 2u, &used);
                if (k != UINT32_MAX) {
                    join_lane(c, &c->pinch_table[k], i, t, pin->dist, go, c->stuck_timer[i]);
                    joined++;
                }
            }
            if (joined == 0 && !pin->ahead) {
                c->agent_flags[i] &= ~(uint32_t)AGENT_PINCH_GO;
                pin->lane = 0;
            }
        }
    }
    // Turns: once the side without the way waited `turn`, the side with it
    // admits nobody new, and the way changes when its admitted are through.
    for (uint32_t k = 0; k < used; ++k) {
        wf_crowd_pinch_entry* e = &c->pinch_table[k];
        e->holder = (uint8_t)holder(e, turn);
        e->closed = e->sides == 2u && isfinite(e->go_nearest[e->holder]) &&
                    e->go_stuck[e->holder] < turn && e->waited[e->holder ^ 1u] >= turn;
    }
    for (uint32_t i = 0; i < c->max_agents; ++i) {
        wf_crowd_pinch* pin = &c->pinch[i];
        if (!c->active[i] || !pin->ahead) {
            continue;
        }
        bool go = (c->agent_flags[i] & AGENT_PINCH_GO) != 0;
        bool waits = false;
        pin->both_ways = false;
        for (uint32_t k = 0; k < 2u; ++k) {
            const wf_crowd_pinch_entry* e = &c->pinch_table[pin->entry[k]];
            pin->both_ways |= e->sides == 2u;
            if (e->sides == 2u && pin->side[k] != 0xffu) {
                waits |= pin->side[k] != e->holder || (e->closed && !go);
            }
        }
        // Not yet admitted: a lane ahead held by the other stream waits too.
        if (!waits && !go && pin->lane != 0u) {
            waits = lane_waits(c, i, &used);
        }
        if (waits) {
            c->agent_flags[i] = (c->agent_flags[i] & ~(uint32_t)AGENT_PINCH_GO) | AGENT_WAITS_PINCH;
            continue;
        }
        c->agent_flags[i] |= AGENT_PINCH_GO;
        const wf_crowd_pinch_entry* e = &c->pinch_table[pin->entry[1]];
        // Single file, one way: an admitted agent abreast of its side's
        // first one at the mouth (not a file length behind it) waits,
        // stepping out of its way, while that first one is held up. Both
        // pressing in, each aiming at a jamb, wedged there for good (the
        // narrow doorway of tests/crowd/crowd_movement.c). Only while held
        // up: in a file that flows nobody steps out of the lane
        // (door_1way_2's and two_doors' worst overlaps 0.167 / 0.168 m with
        // the rule always on, 0.137 / 0.100 as it is; 0.095 / 0.094
        // without it). At a passage used both ways the first one leads its
        // stream through anyway. The waiting one keeps its admission and
        // goes next; a first one stuck for `turn` holds nobody back.
        if (go && !pin->both_ways && abreast_of_first(c, e, i, turn)) {
            c->agent_flags[i] |= AGENT_WAITS_PINCH;
            continue;
        }
        // The admitted agent nearest the mouth leads the file through: those
        // behind it (and any in its way beyond) yield to it, so it is not
        // held up by the avoiding of a crowd pressing after it.
        if (go &&
            (e->sides == 2u || pin->dist <= c->params[i].radius * WF_CROWD_PINCH_LEAD_RADII)) {
            if (pin->side[1] != 0xffu && e->go_slot[pin->side[1]] == i) {
                c->agent_flags[i] |= AGENT_PINCH_LEAD;
            }
        }
    }
    // Free the slots, the last inserted first: the probe from an entry's
    // home slot then passes only entries inserted before it.
    for (uint32_t k = used; k-- > 0;) {
        const wf_crowd_pinch_entry* e = &c->pinch_table[k];
        c->pinch_slots[slot_for(c, e->owner, e->portal, e->lane_at)] = 0;
    }
}

wf_vec3 wf_crowd_pinch_wait_velocity(const wf_crowd* c, uint32_t i) {
    const wf_crowd_passage* f = &c->pinch_found[i];
    const wf_agent_params* p = &c->params[i];
    wf_vec3 mid = wf_v3(f->mid_x, 0.0f, f->mid_z), axis = wf_v3(f->axis_x, 0.0f, f->axis_z);
    // The waiting spot: back from the mouth and to the agent's right of the
    // passage's axis, out of the way of those coming through.
    wf_vec3 right = wf_v3(-axis.z, 0.0f, axis.x);
    // The portal may lie anywhere along a deep doorway: its mouth on this
    // side is where the walls along the axis (the jambs) begin.
    float mouth = 0.0f;
    const wf_vec3* walls = c->walls + (size_t)i * c->max_walls * 2u;
    for (uint32_t k = 0; k < c->wall_count[i]; ++k) {
        wf_vec3 a = wf_v3_sub(walls[2u * k], mid), b = wf_v3_sub(walls[2u * k + 1u], mid);
        float ta = a.x * axis.x + a.z * axis.z, tb = b.x * axis.x + b.z * axis.z;
        float sa = a.x * right.x + a.z * right.z, sb = b.x * right.x + b.z * right.z;
        float len = wf_v2_distance(walls[2u * k], walls[2u * k + 1u]);
        // Along the axis (within about 25 degrees) and beside the portal.
        bool along = fabsf(tb - ta) > 0.9f * len && len > 1e-4f;
        bool beside = fabsf(sa) < p->radius * 2.0f && fabsf(sb) < p->radius * 2.0f;
        if (along && beside) {
            mouth = fminf(mouth, fminf(ta, tb));
        }
    }
    // Waiting agents stand where they are, except in front of the mouth
    // (the way out for the other side): from there they step aside, to the
    // side they are on, and back.
    wf_vec3 rel = wf_v3_sub(c->pos[i], mid);
    float t = rel.x * axis.x + rel.z * axis.z - mouth;
    float side = rel.x * right.x + rel.z * right.z;
    float clear_side = p->radius * WF_CROWD_PINCH_CLEAR_SIDE_RADII;
    float clear_back = p->radius * WF_CROWD_PINCH_CLEAR_BACK_RADII;
    float sign = side < 0.0f ? -1.0f : 1.0f;
    float step = p->max_speed * WF_CROWD_PINCH_STEP_ASIDE;
    if (fabsf(side) >= clear_side) {
        // Beside the lane: up to the wall beside the mouth, so the floor
        // behind (where those coming through are going) stays free.
        float wall = -p->radius * WF_CROWD_PINCH_QUEUE_WALL_RADII;
        return t < wall ? wf_v3_scale(axis, step * fminf(1.0f, (wall - t) / p->radius))
                        : wf_v3(0, 0, 0);
    }
    float out = (clear_side - fabsf(side)) / clear_side; // 1 on the axis, 0 at the edge
    wf_vec3 v = wf_v3_scale(right, sign * step);
    if (t < -clear_back) {
        return v; // the lane out of the mouth, further back
    }
    return wf_v3_add(v, wf_v3_scale(axis, -step * out));
}

wf_vec3 wf_crowd_pinch_beside_velocity(const wf_crowd* c, uint32_t i, wf_vec3 v) {
    const wf_crowd_pinch* pin = &c->pinch[i];
    const float r = c->params[i].radius;
    if ((c->agent_flags[i] & (AGENT_PINCH_GO | AGENT_PINCH_LEAD | AGENT_WAITS_PINCH)) !=
            AGENT_PINCH_GO ||
        !pin->ahead || pin->both_ways || pin->dist > r * WF_CROWD_PINCH_BESIDE_RADII) {
        return v;
    }
    const wf_crowd_passage* f = &c->pinch_found[i];
    const wf_vec3 axis = wf_v3(f->axis_x, 0.0f, f->axis_z),
                  right = wf_v3(-f->axis_z, 0.0f, f->axis_x);
    const wf_vec3 rel = wf_v3(c->pos[i].x - f->mid_x, 0.0f, c->pos[i].z - f->mid_z);
    const float t = rel.x * axis.x + rel.z * axis.z, s = rel.x * right.x + rel.z * right.z;
    if (fabsf(s) < r) {
        return v; // in the lane itself, not beside it
    }
    const uint32_t* nb = c->neighbours + (size_t)i * c->max_neighbours;
    for (uint32_t k = 0; k < c->neighbour_count[i]; ++k) {
        uint32_t j = nb[k];
        if (!(c->agent_flags[j] & AGENT_PINCH_LEAD) ||
            c->stuck_timer[j] > WF_CROWD_PINCH_BESIDE_LEAD_STUCK) {
            continue;
        }
        float tj = (c->pos[j].x - f->mid_x) * axis.x + (c->pos[j].z - f->mid_z) * axis.z;
        if (t < tj - r * WF_CROWD_PINCH_BESIDE_ABREAST_RADII) {
            continue; // behind the leader: it may line up in the file
        }
        // Abreast of a leader on its way in: i keeps off the axis, stepping
        // back from it a little, until the leader is through.
        float sign = s < 0.0f ? -1.0f : 1.0f;
        float away = (v.x * right.x + v.z * right.z) * sign;
        float least = c->params[i].max_speed * WF_CROWD_PINCH_BESIDE_BACK;
        if (away < least) {
            v = wf_v3_add(v, wf_v3_scale(right, (least - away) * sign));
        }
        return v;
    }
    return v;
}
