// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Crowd update, movement phases: neighbours and walls, corners and
// off-mesh triggers, steering, avoidance, integration, collisions, and the
// move back onto the surface.
#include <math.h>
#include <string.h>

#include "crowd/avoidance.h"
#include "crowd/crowd_phases.h"
#include "crowd/wall_contact.h"
#include "navcore/check.h"
#include "navcore/clock.h"

/* ---------------------------------------------------------------------------
 * Neighbours and walls
 */

static void wf_crowd_neighbours_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    phase_ctx* ctx = context;
    wf_crowd* c = ctx->c;
    for (uint32_t i = begin; i < end; ++i) {
        if (!wf_crowd_walking(c, i)) {
            c->neighbour_count[i] = 0;
            continue;
        }
        const wf_agent_params* p = &c->params[i];
        wf_vec3 pos = c->pos[i];
        float range = p->collision_query_range;
        // The grid holds walking agents with their half heights (another
        // floor is no neighbour); ties in distance go by slot, so the list
        // never depends on threads.
        float dist[WF_CROWD_MAX_NEIGHBOURS];
        c->neighbour_count[i] = (uint8_t)wf_proximity_grid_nearest(
            &c->grid, c->pos, pos, p->height * 0.5f, range, i, NULL, NULL,
            c->neighbours + (size_t)i * c->max_neighbours, dist, c->max_neighbours);

        // Walls: collected again once the agent moved a quarter of its
        // range, or a polygon they came from was replaced.
        // Their polygons are kept as 32-bit ids (crowd/ref_codec.h).
        uint32_t* bpolys = c->boundary_polys + (size_t)i * WF_LOCAL_BOUNDARY_MAX_POLYS;
        float moved = wf_v2_distance_sq(pos, c->boundary_center[i]);
        bool stale = !(moved <= range * range * 0.0625f);
        if (!stale) {
            stale = !wf_polys_pass(c->mesh, &c->codec, bpolys, c->boundary_poly_count[i],
                                   wf_crowd_filter(c, i));
        }
        // Flags that open a polygon (a door) leave every ref valid: walls
        // are also gathered again once a second, agents taking turns.
        stale |= (c->frame + i) % WF_CROWD_WALL_REFRESH_FRAMES == 0;
        if (stale) {
            uint32_t poly_count = 0;
            wf_poly_ref found[WF_LOCAL_BOUNDARY_MAX_POLYS];
            c->wall_count[i] = (uint8_t)wf_local_boundary_collect(
                c->worker_queries[worker], c->corridor[i].polys[0], pos, range,
                wf_crowd_filter(c, i), c->walls + (size_t)i * c->max_walls * 2u, c->max_walls,
                found, &poly_count);
            for (uint32_t k = 0; k < poly_count; ++k) {
                bpolys[k] = wf_ref_codec_encode(&c->codec, found[k]);
            }
            c->boundary_poly_count[i] = (uint8_t)poly_count;
            c->boundary_center[i] = pos;
        }
    }
}

/* ---------------------------------------------------------------------------
 * Corners, visibility shortcuts, off-mesh triggers
 */

static void wf_crowd_corners_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    phase_ctx* ctx = context;
    wf_crowd* c = ctx->c;
    for (uint32_t i = begin; i < end; ++i) {
        // Stored only when set: a store takes the line of flags (16 agents)
        // from the other worker's cache, where steering reads them now.
        if (c->agent_flags[i] & AGENT_WANTS_OFFMESH) {
            c->agent_flags[i] &= ~(uint32_t)AGENT_WANTS_OFFMESH;
        }
        if (!wf_crowd_walking(c, i) || !wf_crowd_follows_path(c, i)) {
            c->corner_count[i] = 0;
            continue;
        }
        wf_query* q = c->worker_queries[worker];
        wf_corridor* cor = &c->corridor[i];
        wf_straight_point* corners = c->corners + (size_t)i * WF_CROWD_MAX_CORNERS;
        wf_poly_ref* scratch = c->worker_paths + (size_t)worker * c->max_corridor;
        uint32_t n = wf_corridor_find_corners(cor, q, scratch, corners, WF_CROWD_MAX_CORNERS);
        c->corner_count[i] = (uint8_t)n;
        const wf_agent_params* p = &c->params[i];
        // Shortcuts only matter while a corner is left to cut; agents take
        // turns (half of them each update) since a shortcut found one
        // update later costs nothing visible.
        if ((p->update_flags & WF_AGENT_OPTIMIZE_VISIBILITY) && n > 1 &&
            ((c->frame + i) & 1u) == 0) {
            wf_vec3 next = corners[n > 1 ? 1 : 0].pos;
            wf_corridor_optimize_visibility(cor, next, p->path_optimization_range, q,
                                            wf_crowd_filter(c, i));
        }
        if (n > 0 && (corners[n - 1].flags & WF_STRAIGHT_OFFMESH)) {
            float r = p->radius * WF_CROWD_OFFMESH_TRIGGER_RADII;
            if (wf_v2_distance_sq(c->pos[i], corners[n - 1].pos) < r * r) {
                c->agent_flags[i] |= AGENT_WANTS_OFFMESH;
            }
        }
    }
}

/// Serial, agent order: agents at a free link start traversing it; a link
/// someone is on is busy until they are off it.
void wf_crowd_start_offmesh(wf_crowd* c) {
    uint32_t* busy = c->scratch_agents; // links in use, as agent slots on them
    uint32_t busy_count = 0;
    for (uint32_t i = 0; i < c->max_agents; ++i) {
        if (c->active[i] && c->mode[i] == WF_AGENT_OFFMESH) {
            busy[busy_count++] = i;
        }
    }
    for (uint32_t i = 0; i < c->max_agents; ++i) {
        c->agent_flags[i] &= ~(uint32_t)AGENT_WAITS_OFFMESH;
        if (!c->active[i] || !(c->agent_flags[i] & AGENT_WANTS_OFFMESH)) {
            continue;
        }
        const wf_straight_point* last =
            &c->corners[(size_t)i * WF_CROWD_MAX_CORNERS + c->corner_count[i] - 1u];
        wf_poly_ref link = last->ref;
        bool taken = false;
        for (uint32_t k = 0; k < busy_count && !taken; ++k) {
            taken = c->offmesh[busy[k]].link.bits == link.bits;
        }
        if (taken) {
            c->agent_flags[i] |= AGENT_WAITS_OFFMESH;
            continue;
        }
        wf_poly_ref refs[2];
        wf_vec3 start, end;
        if (!wf_corridor_move_over_offmesh(&c->corridor[i], link, c->mesh, refs, &start, &end)) {
            continue;
        }
        wf_crowd_offmesh* om = &c->offmesh[i];
        om->start = c->pos[i];
        om->end = end;
        om->link = link;
        om->t = 0.0f;
        float speed = c->params[i].max_speed > 0.1f ? c->params[i].max_speed : 0.1f;
        om->duration = (wf_v3_distance(c->pos[i], start) + wf_v3_distance(start, end)) / speed;
        c->mode[i] = WF_AGENT_OFFMESH;
        c->vel[i] = c->desired_vel[i] = c->avoid_vel[i] = wf_v3(0, 0, 0);
        c->corner_count[i] = 0;
        c->neighbour_count[i] = 0;
        busy[busy_count++] = i;
        wf_crowd_push_event(c, i, WF_CROWD_EVENT_OFFMESH_START, link);
    }
}

/* ---------------------------------------------------------------------------
 * Steering, avoidance, integration
 */

static wf_vec3 clamp_length_2d(wf_vec3 v, float max) {
    v.y = 0.0f;
    float l2 = v.x * v.x + v.z * v.z;
    if (l2 > max * max && l2 > 0.0f) {
        float s = max / sqrtf(l2);
        v.x *= s;
        v.z *= s;
    }
    return v;
}

/// True when i or j is heading for a single-file passage, or either walks
/// between walls close on both sides (bottleneck.c): there the fixed
/// head-on rule and the head-on give-way apply; elsewhere the rule by
/// progress once stuck, which costs open ground less.
static bool near_pinch(const wf_crowd* c, uint32_t i, uint32_t j) {
    return c->pinch[i].ahead || c->pinch[j].ahead || (c->walled[i] || c->walled[j]);
}

/// Two ways more than 120 degrees apart (on the ground plane).
static inline bool opposite_ways(wf_vec3 a, wf_vec3 b) {
    float ab = a.x * b.x + a.z * b.z;
    return ab < 0.0f && ab * ab > 0.25f * (a.x * a.x + a.z * a.z) * (b.x * b.x + b.z * b.z);
}

/// True when neighbour j has the right of way over agent i: i then avoids
/// where j wants to go, not where it goes now, and makes way before j gets
/// there. j has it with a higher class, or when the two walk head-on into
/// each other and either near a single-file passage j walks more along a
/// fixed axis (whole streams keep or yield the way together), or elsewhere,
/// once i is stuck, j is further along its way. Agents of one class in
/// contact are left to the contact rules, and so is a holder (i arrived)
/// in contact with one on its way: walking back to its spot it avoided a
/// walker pressed against it by where the walker wanted to go, away from
/// it, while a third body held the walker there, and walked into it
/// (nav_test500 seed 560, 0.152 m deep; press28).
static bool takes_way(const wf_crowd* c, uint32_t i, uint32_t j) {
    wf_vec3 d = wf_v3_sub(c->pos[i], c->pos[j]);
    float rsum = c->params[i].radius + c->params[j].radius;
    bool apart = d.x * d.x + d.z * d.z > rsum * rsum;
    uint32_t ci = c->rank[i] >> WF_CROWD_RANK_CLASS_SHIFT;
    uint32_t cj = c->rank[j] >> WF_CROWD_RANK_CLASS_SHIFT;
    if (cj != ci) {
        return cj > ci && (apart || c->target_state[i] != WF_TARGET_ARRIVED);
    }
    wf_vec3 a = c->intent[i], b = c->intent[j];
    bool towards = apart && b.x * d.x + b.z * d.z > 0.0f;
    if (!towards) {
        return false;
    }
    bool pinch = near_pinch(c, i, j);
    if (!pinch && (c->rank[j] <= c->rank[i] || c->stuck_timer[i] < WF_CROWD_HEAD_ON_STUCK)) {
        return false;
    }
    // Head-on: merging into one stream is not.
    bool head_on = opposite_ways(a, b);
    if (!head_on || !pinch) {
        return head_on;
    }
    float w = (b.x - a.x) * WF_CROWD_WAY_AXIS_X + (b.z - a.z) * WF_CROWD_WAY_AXIS_Z;
    return w > 0.0f || (w == 0.0f && j < i);
}

/// True when i and j are both on their way (neither holds a spot) and want
/// opposite ways (more than 120 degrees apart): a pair that passes head-on.
static bool passes_head_on(const wf_crowd* c, uint32_t i, uint32_t j) {
    if (c->target_state[i] == WF_TARGET_ARRIVED || c->target_state[j] == WF_TARGET_ARRIVED) {
        return false;
    }
    return opposite_ways(c->intent[i], c->intent[j]);
}

/// Where i's avoidance sees j, a walker passing it head-on (passes_head_on):
/// shifted square to the pair's common way (the difference of their unit
/// wanted directions) by WF_CROWD_KNOT_SIDE_SHIFT of their radius sum, to
/// the side j already stands on seen from i. The offset along that square
/// is the same number seen from either agent, so both agree the side
/// without state: each sees a gap open on the side it passes on and the
/// other side narrowed, and a closing velocity along the agreed side is
/// no longer an impact (knot19: before, in contact every closing velocity
/// was refused and the two stood face to face). Within
/// WF_CROWD_KNOT_SIDE_TIE of the radius sum of one line both keep right,
/// the side separation and the side term pick. Not for a j more than
/// WF_CROWD_KNOT_SIDE_BEHIND radius sums behind i (already passed), nor
/// when either is within WF_CROWD_KNOT_SIDE_TARGET_DIST of its target.
static wf_vec3 passer_seen_at(const wf_crowd* c, uint32_t i, uint32_t j) {
    wf_vec3 at = c->pos[j];
    wf_vec3 a = c->intent[i], b = c->intent[j];
    float la = sqrtf(a.x * a.x + a.z * a.z), lb = sqrtf(b.x * b.x + b.z * b.z);
    if (!(la > 1e-6f) || !(lb > 1e-6f)) {
        return at;
    }
    // Head-on (over 120 degrees apart): the difference is at least sqrt(3).
    float ux = a.x / la - b.x / lb, uz = a.z / la - b.z / lb;
    float lu = sqrtf(ux * ux + uz * uz);
    ux /= lu;
    uz /= lu;
    float nx = -uz, nz = ux; // right of the common way (X right, Z down)
    float dx = at.x - c->pos[i].x, dz = at.z - c->pos[i].z;
    float rs = c->params[i].radius + c->params[j].radius;
    float lat = dx * nx + dz * nz;
    float side = fabsf(lat) < WF_CROWD_KNOT_SIDE_TIE * rs ? -1.0f : (lat > 0.0f ? 1.0f : -1.0f);
    float ahead = dx * ux + dz * uz;
    // Near either target the two settle rather than pass (a ring of
    // close spots, crowd_crowded_spots; the rooms at a one-lane stretch,
    // crowd_one_lane): seen where they are.
    // An agent steered by a velocity request has no target (target_pos
    // is stale): it never settles.
    bool settling = (wf_crowd_follows_path(c, i) && wf_v2_distance(c->pos[i], c->target_pos[i]) <
                                                        WF_CROWD_KNOT_SIDE_TARGET_DIST) ||
                    (wf_crowd_follows_path(c, j) &&
                     wf_v2_distance(c->pos[j], c->target_pos[j]) < WF_CROWD_KNOT_SIDE_TARGET_DIST);
    if (ahead > -WF_CROWD_KNOT_SIDE_BEHIND * rs && !settling) {
        at.x += nx * side * WF_CROWD_KNOT_SIDE_SHIFT * rs;
        at.z += nz * side * WF_CROWD_KNOT_SIDE_SHIFT * rs;
    }
    return at;
}

/// True when another agent stands close behind i in its lane (nearer than
/// WF_CROWD_BACK_ROOM_RADII times their radii's sum): backing off from
/// one coming head-on would only press into it, and the file behind.
static bool backed_in(const wf_crowd* c, uint32_t i, wf_vec3 dir) {
    const uint32_t* neighbours = c->neighbours + (size_t)i * c->max_neighbours;
    for (uint32_t k = 0; k < c->neighbour_count[i]; ++k) {
        uint32_t j = neighbours[k];
        float dx = c->pos[j].x - c->pos[i].x, dz = c->pos[j].z - c->pos[i].z;
        float behind = -(dx * dir.x + dz * dir.z);
        float rsum = c->params[i].radius + c->params[j].radius;
        if (behind > 0.0f && behind < rsum * WF_CROWD_BACK_ROOM_RADII &&
            fabsf(dx * dir.z - dz * dir.x) < rsum) {
            return true;
        }
    }
    return false;
}

/// Head-on traffic: the nearest agent ahead in i's lane (within
/// WF_CROWD_HEAD_ON_RADII, closer sideways than WF_CROWD_LANE_RADII) that
/// walks towards it. Both keep right, so two lanes pass; the one without
/// the way (takes_way) also stops going forward and steps aside: at a
/// single-file door it waits beside the mouth while the other stream
/// comes through, instead of the two sides meeting in it.
static wf_vec3 give_way_head_on(const wf_crowd* c, uint32_t i, wf_vec3 dir, wf_vec3 desired) {
    const wf_agent_params* p = &c->params[i];
    const uint32_t* neighbours = c->neighbours + (size_t)i * c->max_neighbours;
    wf_vec3 a = c->intent[i];
    float reach = p->radius * WF_CROWD_HEAD_ON_RADII;
    float nearest = reach;
    uint32_t found = UINT32_MAX;
    bool waits = false;
    for (uint32_t k = 0; k < c->neighbour_count[i]; ++k) {
        uint32_t j = neighbours[k];
        if (!opposite_ways(a, c->intent[j])) {
            continue;
        }
        float dx = c->pos[j].x - c->pos[i].x, dz = c->pos[j].z - c->pos[i].z;
        float ahead = dx * dir.x + dz * dir.z;
        float lateral = fabsf(dx * dir.z - dz * dir.x);
        float rsum = p->radius + c->params[j].radius;
        if (ahead <= 0.0f || ahead >= nearest || lateral >= rsum * WF_CROWD_WAIT_LANE_RADII) {
            continue;
        }
        if (lateral >= rsum * WF_CROWD_LANE_RADII) {
            // Beside the other's lane: one without the way waits there
            // (goes no further forward) rather than cut in.
            if (!waits && takes_way(c, i, j)) {
                waits = true;
            }
            continue;
        }
        nearest = ahead;
        found = j;
    }
    if (found == UINT32_MAX) {
        if (waits) {
            float fwd = desired.x * dir.x + desired.z * dir.z;
            if (fwd > 0.0f) {
                desired = wf_v3_sub(desired, wf_v3_scale(dir, fwd));
            }
        }
        return desired;
    }
    float near = 1.0f - nearest / reach;
    wf_vec3 right = wf_v3(-dir.z, 0.0f, dir.x);
    wf_vec3 out = desired;
    if (takes_way(c, i, found)) {
        // Aside, and back out of a passage too narrow to step aside in
        // while the other is near.
        float gap = (p->radius + c->params[found].radius) * WF_CROWD_WAIT_GAP_RADII;
        // Backing off is how a single-file passage clears; in a wider lane
        // it steps aside, and backing into its own file only stalls it.
        bool single_file = c->pinch[i].ahead && c->pinch[i].both_ways;
        float back =
            nearest < gap && (single_file || !backed_in(c, i, dir)) ? (gap - nearest) / gap : 0.0f;
        out = wf_v3_scale(right, p->max_speed * WF_CROWD_STEP_ASIDE * near);
        out = wf_v3_add(out, wf_v3_scale(dir, -p->max_speed * WF_CROWD_STEP_BACK * back));
    } else {
        out = wf_v3_add(out, wf_v3_scale(right, p->max_speed * WF_CROWD_KEEP_RIGHT * near));
    }
    return out;
}

/// A holder (arrived, not let through on its way back) met by an agent on
/// its way that is not stuck, away from its own target (near it, it
/// settles among holders): that agent takes the whole of the avoidance
/// (it sees the holder as immovable) and goes round, instead of leaving
/// three quarters of it to the holder. Leaving it to the holder, passing
/// streams shoved holders off their spots in the last seconds of a scene
/// (docs/benchmarks.md, hold10, ring13). Stuck, it cannot go round: the
/// holder makes way as before (ranks, separation and collisions are
/// unchanged).
static bool passes_holder(const wf_crowd* c, uint32_t i, uint32_t j) {
    uint32_t ci = c->rank[i] >> WF_CROWD_RANK_CLASS_SHIFT;
    uint32_t cj = c->rank[j] >> WF_CROWD_RANK_CLASS_SHIFT;
    float near = c->params[i].radius * WF_CROWD_PASS_SPOT_RADII;
    return (ci & 2u) && c->target_state[i] != WF_TARGET_ARRIVED &&
           c->stuck_timer[i] < WF_CROWD_PASS_STUCK && !(cj & 2u) &&
           c->target_state[j] == WF_TARGET_ARRIVED &&
           wf_v2_distance_sq(c->target_pos[i], c->pos[i]) > near * near;
}

/// Neighbour j holds a spot too, nearer i's than the two are wide: both
/// cannot stand on their own. The targets as requested (a corridor may be
/// cut back to where its agent stands for a search). Reads only what the
/// phases before this one wrote: no neighbour's flags, which its worker may
/// be writing now.
static bool spots_overlap(const wf_crowd* c, uint32_t i, uint32_t j) {
    float room = c->params[i].radius + c->params[j].radius;
    if (c->target_state[j] != WF_TARGET_ARRIVED) {
        return false;
    }
    float d2 = wf_v2_distance_sq(c->target_pos[i], c->target_pos[j]);
    if (d2 >= room * room) {
        return false;
    }
    float near = room * WF_CROWD_SHARED_SPOT_NEAR;
    if (d2 >= near * near) {
        return true;
    }
    // Spots moved apart to share (shared_spot.c) no longer overlap: as far
    // apart as one moved WF_CROWD_SHARED_SPOT_APART_RADII, or enough.
    float apart = fminf(room * WF_CROWD_SPOTS_FIT,
                        sqrtf(d2) + c->params[i].radius * WF_CROWD_SHARED_SPOT_APART_RADII * 0.9f);
    return wf_v2_distance_sq(c->corridor[i].target, c->corridor[j].target) < apart * apart;
}

/// An arrived agent pushed off its spot, but within WF_CROWD_RETURN_RADII
/// of it, while a neighbour holding a spot that overlaps its own stands
/// over it: it stands where it was pushed and walks back once the spot is
/// free. Pushing back in, holders whose spots overlap shoved each other
/// about for good (circle128: half of them more than 0.6 m off at the end).
/// Standing aside for passers too cost tjunction and crowding holds
/// (docs/benchmarks.md, knots4). On a spot moved to share (shared_spot.c)
/// it stands so only within WF_CROWD_SHARED_SPOT_STAND_RADII of its own
/// target, as on_spot: the return radius about a moved spot reaches up to
/// 1.9 radii from the target, and such holders stood there for good
/// (nav_test500: 44 of the 346 off at the end, hold18).
static bool spot_taken(const wf_crowd* c, uint32_t i) {
    float r = c->params[i].radius;
    wf_vec3 spot = c->corridor[i].target;
    float away = wf_v2_distance(c->pos[i], spot);
    if (away > r * WF_CROWD_RETURN_RADII) {
        return false;
    }
    float stand = r * WF_CROWD_SHARED_SPOT_STAND_RADII;
    if ((c->agent_flags[i] & AGENT_SHARES_SPOT) &&
        wf_v2_distance_sq(c->pos[i], c->target_pos[i]) > stand * stand) {
        return false;
    }
    const uint32_t* neighbours = c->neighbours + (size_t)i * c->max_neighbours;
    for (uint32_t k = 0; k < c->neighbour_count[i]; ++k) {
        uint32_t j = neighbours[k];
        float room = (r + c->params[j].radius) * WF_CROWD_SPOT_TAKEN_SHARE;
        if (spots_overlap(c, i, j) && wf_v2_distance_sq(c->pos[j], spot) < room * room) {
            return true;
        }
    }
    return false;
}

/// An arrived agent within the dead zone (WF_CROWD_ARRIVAL_RADII) of the
/// spot it holds; on a spot shared with neighbours whose targets crowd its
/// own (shared_spot.c), also within WF_CROWD_SHARED_SPOT_STAND_RADII of its
/// target, so that it does not stand on the far side of that spot.
static bool on_spot(const wf_crowd* c, uint32_t i) {
    float r = c->params[i].radius;
    float stand = r * WF_CROWD_SHARED_SPOT_STAND_RADII;
    return wf_v2_distance(c->pos[i], c->corridor[i].target) <= r * WF_CROWD_ARRIVAL_RADII &&
           (!(c->agent_flags[i] & AGENT_SHARES_SPOT) ||
            wf_v2_distance_sq(c->pos[i], c->target_pos[i]) <= stand * stand);
}

static void wf_crowd_steering_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    phase_ctx* ctx = context;
    wf_crowd* c = ctx->c;
    (void)worker;
    for (uint32_t i = begin; i < end; ++i) {
        if (!wf_crowd_walking(c, i)) {
            continue;
        }
        const wf_agent_params* p = &c->params[i];
        wf_vec3 pos = c->pos[i];
        wf_vec3 desired_vel = wf_v3(0, 0, 0);
        float settle = 1.0f; // fades separation as the agent settles on its target
        uint32_t n = c->corner_count[i];
        if (c->target_state[i] == WF_TARGET_VELOCITY) {
            desired_vel = clamp_length_2d(c->request_vel[i], p->max_speed);
        } else if (c->target_state[i] == WF_TARGET_ARRIVED && (on_spot(c, i) || spot_taken(c, i))) {
            // On its spot, or near it while another stands there: it
            // stands (pushed further, it steers back below).
        } else if (c->agent_flags[i] & AGENT_WAITS_PINCH) {
            desired_vel = wf_crowd_pinch_wait_velocity(c, i); // the other side's turn
        } else if (wf_crowd_follows_path(c, i) && n > 0 &&
                   !(c->agent_flags[i] & AGENT_WAITS_OFFMESH)) {
            const wf_straight_point* corners = c->corners + (size_t)i * WF_CROWD_MAX_CORNERS;
            wf_vec3 d0 = wf_v3_sub(corners[0].pos, pos);
            d0.y = 0.0f;
            wf_vec3 dir = d0;
            if ((p->update_flags & WF_AGENT_ANTICIPATE_TURNS) && n > 1) {
                // Lean towards the corner after next, by as much as the
                // next one is near: turns start before the corner.
                wf_vec3 d1 = wf_v3_sub(corners[1].pos, pos);
                d1.y = 0.0f;
                float l0 = wf_v2_length(d0), l1 = wf_v2_length(d1);
                if (l1 > 0.001f) {
                    d1 = wf_v3_scale(d1, 1.0f / l1);
                }
                dir = wf_v3_sub(d0, wf_v3_scale(d1, l0 * 0.5f));
            }
            float len = wf_v2_length(dir);
            if (len > 1e-6f) {
                dir = wf_v3_scale(dir, 1.0f / len);
            } else {
                dir = wf_v3(0, 0, 0);
            }
            float speed = p->max_speed;
            const wf_straight_point* last = &corners[n - 1];
            if (last->flags & (WF_STRAIGHT_END | WF_STRAIGHT_OFFMESH)) {
                float slow = p->radius * WF_CROWD_SLOW_DOWN_RADII;
                float dist = wf_v2_distance(pos, last->pos);
                if (dist < slow) {
                    speed *= dist / slow;
                    settle = (last->flags & WF_STRAIGHT_END) ? dist / slow : 1.0f;
                }
            }
            desired_vel = wf_v3_scale(dir, speed);
            wf_vec3 way = c->intent[i];
            float way_len = wf_v2_length(way);
            // Keep right and give way: at a passage that agents come to
            // from both sides, or between close walls. One-way traffic
            // through a door needs neither (it only slowed the jam there).
            if (c->target_state[i] != WF_TARGET_ARRIVED && speed >= p->max_speed &&
                way_len > 1e-6f && ((c->pinch[i].ahead && c->pinch[i].both_ways) || c->walled[i])) {
                desired_vel = give_way_head_on(c, i, wf_v3_scale(way, 1.0f / way_len), desired_vel);
            }
        }
        if ((p->update_flags & WF_AGENT_SEPARATION) && p->separation_weight > 0.0f &&
            c->neighbour_count[i] > 0) {
            const uint32_t* neighbours = c->neighbours + (size_t)i * c->max_neighbours;
            wf_vec3 push = wf_v3(0, 0, 0);
            uint32_t w = 0;
            // Separation keeps an agent clear of its peers and of those
            // with the right of way, not of those who make way for it: an
            // idle agent steps aside for one on its way (and walks back
            // later, if it holds a spot), that one is not pushed off its
            // line (into a wall) by the idle one, and a group standing at
            // its targets does not drift apart.
            float speed = wf_v2_length(desired_vel);
            const wf_vec3 way = c->intent[i];
            const float way_len_sq = way.x * way.x + way.z * way.z;
            uint32_t own_class = c->rank[i] >> WF_CROWD_RANK_CLASS_SHIFT;
            for (uint32_t k = 0; k < c->neighbour_count[i]; ++k) {
                uint32_t j = neighbours[k];
                uint32_t other_class = c->rank[j] >> WF_CROWD_RANK_CLASS_SHIFT;
                if (other_class < own_class || (speed == 0.0f && other_class == own_class)) {
                    continue;
                }
                wf_vec3 diff = wf_v3_sub(pos, c->pos[j]);
                float reach = (p->radius + c->params[j].radius) * 2.0f;
                float d2 = diff.x * diff.x + diff.z * diff.z;
                if (d2 >= reach * reach || d2 < 1e-8f) {
                    continue;
                }
                float d = sqrtf(d2);
                float t = d / reach;
                float weight = p->separation_weight * settle * (1.0f - t * t);
                if (way_len_sq > 1e-12f && diff.x * way.x + diff.z * way.z < 0.0f &&
                    passes_head_on(c, i, j)) {
                    // One coming the other way ahead: pushed back, the two
                    // stood face to face (knot17); pushed aside, to the
                    // side each already passes on, they slide past.
                    float lateral = diff.x * -way.z + diff.z * way.x; // i right of j: > 0
                    float side = lateral < 0.0f ? -1.0f : 1.0f;
                    float inv = 1.0f / sqrtf(way_len_sq);
                    diff = wf_v3(-way.z * inv * side * d, 0.0f, way.x * inv * side * d);
                }
                push.x += diff.x * (weight / d);
                push.z += diff.z * (weight / d);
                w++;
            }
            if (w > 0) {
                desired_vel = wf_v3_add(desired_vel, wf_v3_scale(push, 1.0f / (float)w));
                desired_vel =
                    clamp_length_2d(desired_vel, speed > 0.0f ? speed : p->max_speed * 0.5f);
            }
        }
        // Beside a single-file mouth, abreast of its leader: not towards
        // the axis (bottleneck.c), here and again after avoidance.
        desired_vel = wf_crowd_pinch_beside_velocity(c, i, desired_vel);
        desired_vel = wf_movers_steer(c, i, desired_vel, wf_crowd_follows_path(c, i));
        c->desired_vel[i] = desired_vel;
    }
}

/// Two agents holding spots that (nearly) fit side by side, both near
/// them: they do not dodge each other. Each steers to its own spot and the
/// collision passes settle them; dodging, the one whose spot a neighbour
/// crowds by a few centimetres would stand off a metre for good (the impact
/// it sees at the end of its last step stops it). Spots that clearly
/// overlap are left to avoidance.
static bool settle_together(const wf_crowd* c, uint32_t i, uint32_t j) {
    float ri = c->params[i].radius, rj = c->params[j].radius;
    wf_vec3 si = c->corridor[i].target, sj = c->corridor[j].target;
    return wf_v2_distance(si, sj) >= WF_CROWD_SPOTS_FIT * (ri + rj) &&
           wf_v2_distance(c->pos[i], si) < WF_CROWD_SLOW_DOWN_RADII * ri &&
           wf_v2_distance(c->pos[j], sj) < WF_CROWD_SLOW_DOWN_RADII * rj;
}

/// A holder further than WF_CROWD_RETURN_RADII from its spot does not
/// dodge holders whose spots overlap its own: it squeezes in between them
/// (the collision passes move them aside a little) to within that radius,
/// where it stands (spot_taken). Dodging them, one whose spot overlaps two
/// others' stood off for good.
static bool squeezes_in(const wf_crowd* c, uint32_t i, uint32_t j) {
    // j let through on its way back (AGENT_RETURNING) ranks as on its way.
    bool j_returning = ((c->rank[j] >> WF_CROWD_RANK_CLASS_SHIFT) & 2u) != 0;
    return !j_returning && spots_overlap(c, i, j) &&
           wf_v2_distance(c->pos[i], c->corridor[i].target) >
               c->params[i].radius * WF_CROWD_RETURN_RADII;
}

/// A holder j that stands on its own spot beside a returner i's spot: i
/// sees it at its full radius, not squeezed. It is where i's way ends, so
/// squeezing brings i no nearer home, only into j: stuck, i pressed 0.165 m
/// deep (nav_test500, flow 5; return18). Holders further out, between i
/// and its spot, are still squeezed past.
static bool blocks_own_spot(const wf_crowd* c, uint32_t i, uint32_t j) {
    float rj = c->params[j].radius;
    float near = c->params[i].radius + rj;
    return wf_v2_distance_sq(c->pos[j], c->corridor[i].target) < near * near &&
           wf_v2_distance(c->pos[j], c->corridor[j].target) <= rj * WF_CROWD_RETURN_RADII;
}

/// A holder making way for an agent with the right of way (takes_way)
/// that passes through (further than WF_CROWD_PASS_SPOT_RADII of its radii
/// from its own target) steps out of that agent's lane, not ahead of it
/// along it: the part of the velocity it chose that goes along the way of
/// each such agent coming up behind it in its lane goes sideways instead
/// (dropping it only, walkers stood behind holders that barely moved:
/// nav_test500 lost 2-3 points of arrivals). Running
/// ahead, holders were driven metres off their spots with nobody touching
/// them (door_2way_1.5, corridor; docs/benchmarks.md, hold16). One settling
/// near its own target is left out: in a ring of spots too tight the holder
/// in its lane has no room beside it (circle128 lost 4 points of arrivals).
static wf_vec3 step_aside_not_ahead(const wf_crowd* c, uint32_t i, wf_vec3 v) {
    const wf_vec3 v0 = v;
    bool turned = false;
    const uint32_t* neighbours = c->neighbours + (size_t)i * c->max_neighbours;
    for (uint32_t k = 0; k < c->neighbour_count[i]; ++k) {
        uint32_t j = neighbours[k];
        wf_vec3 way = c->intent[j];
        float way_len = wf_v2_length(way);
        float settling = c->params[j].radius * WF_CROWD_PASS_SPOT_RADII;
        if (way_len < 1e-3f ||
            wf_v2_distance_sq(c->target_pos[j], c->pos[j]) <= settling * settling ||
            !takes_way(c, i, j)) {
            continue;
        }
        way = wf_v3_scale(way, 1.0f / way_len);
        float dx = c->pos[i].x - c->pos[j].x, dz = c->pos[i].z - c->pos[j].z;
        float ahead = dx * way.x + dz * way.z;
        float cross = dx * way.z - dz * way.x; // which side of its lane, how far
        if (ahead <= 0.0f || fabsf(cross) >= c->params[i].radius + c->params[j].radius) {
            continue; // not in its lane, in front of it
        }
        float along = v.x * way.x + v.z * way.z;
        if (along > 0.0f) {
            // That speed goes sideways instead, to the side it stands on
            // (by slot on the line itself).
            float side = cross > 0.0f ? 1.0f : (cross < 0.0f ? -1.0f : (i < j ? 1.0f : -1.0f));
            v.x += (way.z * side - way.x) * along;
            v.z += (-way.x * side - way.z) * along;
            turned = true;
        }
    }
    if (turned) {
        // The turn steps aside of one lane, not into the back of another
        // walker: the part it added that closes on a neighbour on its way,
        // going away from the holder, within WF_CROWD_ASIDE_CLEAR_RADII of
        // touching is dropped (nav_test500, flow 5: a holder stepping out
        // of one walker's lane at 2.5 m/s ran into another, 0.167 m deep;
        // overlap18). Holders are left out (in the door scenes' rows of
        // spots 1.5 m apart they always stand that near: door_2way_2 lost
        // 6 points of arrivals), and so are walkers coming towards the
        // holder (in a block walking through a row, holders kept in the
        // lanes: crowd_step_aside 56 -> 125 agent-seconds off).
        wf_vec3 added = wf_v3_sub(v, v0);
        for (uint32_t k = 0; k < c->neighbour_count[i]; ++k) {
            uint32_t j = neighbours[k];
            if (!((c->rank[j] >> WF_CROWD_RANK_CLASS_SHIFT) & 2u)) {
                continue;
            }
            float dx = c->pos[j].x - c->pos[i].x, dz = c->pos[j].z - c->pos[i].z;
            float rsum = c->params[i].radius + c->params[j].radius;
            float reach = rsum * (1.0f + WF_CROWD_ASIDE_CLEAR_RADII);
            float d2 = dx * dx + dz * dz;
            if (d2 >= reach * reach || d2 < 1e-8f) {
                continue;
            }
            if (c->intent[j].x * dx + c->intent[j].z * dz < 0.0f) {
                continue;
            }
            float d = sqrtf(d2);
            float closing = (added.x * dx + added.z * dz) / d;
            if (closing > 0.0f) {
                added.x -= dx * closing / d;
                added.z -= dz * closing / d;
            }
        }
        v = wf_v3_add(v0, added);
    }
    // Turned onto a sideways part it already had, the step could outrun
    // max_speed (by up to 1.4x for one passer): capped there. Keeping the
    // speed the avoidance chose instead made the holders of
    // crowd_stuck_reroute too slow to clear a lane.
    const float max_speed = c->params[i].max_speed;
    float turned_speed = turned ? wf_v2_length(v) : 0.0f;
    if (turned_speed > max_speed) {
        float k = max_speed / turned_speed;
        v.x *= k;
        v.z *= k;
    }
    return v;
}

/// A head-on passer seen half as wide (passes_head_on), and aside where
/// passer_seen_at shifts it, is still where it is: the part of v closing
/// on its real body (relative to its velocity) is cut to what reaches
/// WF_CROWD_KNOT_SIDE_DEPTH of contact by the next update. The sampling's
/// contact test sees the real body only once that deep, so a walker
/// closing fast (2.6 m/s, 0.09 m an update) ran on into it and pressed a
/// third body behind (nav_test500 seed 363, 0.166 m).
static wf_vec3 no_run_into_passers(const wf_crowd* c, uint32_t i, wf_vec3 v,
                                   const uint32_t* passers, uint32_t count, float dt) {
    for (uint32_t k = 0; k < count; ++k) {
        uint32_t j = passers[k];
        float dx = c->pos[j].x - c->pos[i].x, dz = c->pos[j].z - c->pos[i].z;
        float d2 = dx * dx + dz * dz;
        float rsum = c->params[i].radius + c->params[j].radius;
        float reach = rsum + c->params[i].max_speed * dt;
        if (d2 >= reach * reach || d2 < 1e-8f) {
            continue;
        }
        float d = sqrtf(d2);
        float closing = ((v.x - c->vel[j].x) * dx + (v.z - c->vel[j].z) * dz) / d;
        float room = d - (rsum - WF_CROWD_KNOT_SIDE_DEPTH);
        float allowed = room > 0.0f ? room / dt : 0.0f;
        if (closing > allowed) {
            v.x -= dx * (closing - allowed) / d;
            v.z -= dz * (closing - allowed) / d;
        }
    }
    // Backing off from a passer coming on, the cut could outrun max_speed
    // (it works on the velocity relative to the passer's): capped there.
    const float max_speed = c->params[i].max_speed;
    float speed = count > 0 ? wf_v2_length(v) : 0.0f;
    if (speed > max_speed) {
        v.x *= max_speed / speed;
        v.z *= max_speed / speed;
    }
    return v;
}

static void wf_crowd_avoidance_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    phase_ctx* ctx = context;
    wf_crowd* c = ctx->c;
    uint32_t samples_total = 0;
    for (uint32_t i = begin; i < end; ++i) {
        if (!wf_crowd_walking(c, i)) {
            continue;
        }
        const wf_agent_params* p = &c->params[i];
        if (!(p->update_flags & WF_AGENT_AVOIDANCE)) {
            c->avoid_vel[i] = c->desired_vel[i];
            continue;
        }
        wf_avoid_agent self = {.pos = c->pos[i],
                               .vel = c->vel[i],
                               .desired_vel = c->desired_vel[i],
                               .radius = p->radius,
                               .max_speed = p->max_speed,
                               .rank = c->rank[i] >> WF_CROWD_RANK_CLASS_SHIFT};
        wf_avoid_neighbour others[WF_CROWD_MAX_NEIGHBOURS];
        const uint32_t* list = c->neighbours + (size_t)i * c->max_neighbours;
        uint32_t n = c->neighbour_count[i];
        bool holds = c->target_state[i] == WF_TARGET_ARRIVED;
        // Stuck near its target, an agent on its way sees agents holding
        // their spots half as wide: it squeezes between them and they step
        // aside (separation, collisions). A formation's first arrivals
        // stood between the rest and their spots for good (crossing).
        // Not within its slowing distance: there it settles among holders
        // whose spots may overlap its own (crowd_crowded_spots).
        float to_target = wf_v2_distance(c->pos[i], c->target_pos[i]);
        bool squeezes =
            !holds && c->stuck_timer[i] > WF_CROWD_SQUEEZE_STUCK && wf_crowd_follows_path(c, i) &&
            to_target > p->radius * WF_CROWD_SLOW_DOWN_RADII && to_target < WF_CROWD_SQUEEZE_DIST;
        // So does a holder let through on its way back (AGENT_RETURNING):
        // carried off behind a block of others holding theirs, it stood
        // behind them for good (tjunction, corridor, doors).
        squeezes |= holds && (c->agent_flags[i] & AGENT_RETURNING);
        // Leading a one-way file through a single-file passage
        // (bottleneck.c), it avoids no agent of a lower rank class (the
        // file yielding to it, and holders and lower priorities near): the ones
        // pressing in beside the mouth slowed it to 1-2 m/s there, and the
        // file behind it with it (a one-body mouth passed 21 of 40 in 20 s,
        // 31 without; tests/crowd/crowd_mouth_flow.c). Contacts still part
        // them (collisions, where it takes the smaller share). Not while
        // the passage is used both ways: there it cost nav_test500 0.45
        // points of arrivals over 100 seeds (mouth25).
        const uint32_t own_class = c->rank[i] >> WF_CROWD_RANK_CLASS_SHIFT;
        const bool leads = (c->agent_flags[i] & AGENT_PINCH_LEAD) != 0 && !c->pinch[i].both_ways;
        // Movers first (they never yield), then the agent's neighbours.
        uint32_t kept = wf_movers_gather(c, i, others, WF_CROWD_MAX_NEIGHBOURS);
        uint32_t passers[WF_CROWD_PASSER_CLAMPS];
        uint32_t passer_count = 0;
        for (uint32_t k = 0; k < n && kept < WF_CROWD_MAX_NEIGHBOURS; ++k) {
            uint32_t j = list[k];
            if (holds && c->target_state[j] == WF_TARGET_ARRIVED &&
                (settle_together(c, i, j) || squeezes_in(c, i, j))) {
                continue;
            }
            if (leads && (c->rank[j] >> WF_CROWD_RANK_CLASS_SHIFT) < own_class) {
                continue;
            }
            wf_avoid_neighbour* other = &others[kept++];
            other->pos = c->pos[j];
            // One with the right of way is taken to go where it wants to
            // (self makes way before it gets there); others as they move.
            other->vel = takes_way(c, i, j) ? c->intent[j] : c->vel[j];
            other->radius = c->params[j].radius;
            if (squeezes && c->target_state[j] == WF_TARGET_ARRIVED &&
                !((c->rank[j] >> WF_CROWD_RANK_CLASS_SHIFT) & 2u) &&
                !(holds && blocks_own_spot(c, i, j))) {
                other->radius *= WF_CROWD_SQUEEZE_SHARE;
            } else if (passes_head_on(c, i, j)) {
                other->radius *= WF_CROWD_KNOT_PASS_SHARE;
                other->pos = passer_seen_at(c, i, j);
                if (passer_count < WF_CROWD_PASSER_CLAMPS) {
                    passers[passer_count++] = j;
                }
            }
            other->rank = passes_holder(c, i, j) ? WF_AVOID_RANK_IMMOVABLE
                                                 : c->rank[j] >> WF_CROWD_RANK_CLASS_SHIFT;
            // Seen aside, a passer's body is still where it is: more than
            // WF_CROWD_KNOT_SIDE_DEPTH into it, it is seen there too (a
            // contact: closing on it further scores as an impact, sliding
            // past does not). Without it, one of a pair pressed together
            // by the walkers behind them walked on into the other through
            // the shifted sight (the demo, 0.21 m deep; knot20).
            if ((other->pos.x != c->pos[j].x || other->pos.z != c->pos[j].z) &&
                kept < WF_CROWD_MAX_NEIGHBOURS) {
                float rsum = p->radius + c->params[j].radius - WF_CROWD_KNOT_SIDE_DEPTH;
                if (wf_v2_distance_sq(c->pos[i], c->pos[j]) < rsum * rsum) {
                    wf_avoid_neighbour* core = &others[kept++];
                    *core = *other;
                    core->pos = c->pos[j];
                    core->radius = c->params[j].radius;
                }
            }
        }
        uint32_t samples = 0;
        // Only the worker that has the watched agent writes the debug record.
        bool watched = i == c->debug_slot;
        c->avoid_vel[i] = wf_avoidance_sample_recorded(
            c->avoid_kernel, &c->presets[p->avoidance_preset], &self, others, kept,
            c->walls + (size_t)i * c->max_walls * 2u, c->wall_count[i], &samples,
            watched ? &c->debug_record : NULL);
        if (holds && !(c->agent_flags[i] & AGENT_RETURNING)) {
            c->avoid_vel[i] = step_aside_not_ahead(c, i, c->avoid_vel[i]);
        }
        c->avoid_vel[i] =
            no_run_into_passers(c, i, c->avoid_vel[i], passers, passer_count, ctx->dt);
        c->avoid_vel[i] = wf_crowd_pinch_beside_velocity(c, i, c->avoid_vel[i]);
        if (watched) {
            c->debug_sampled = true;
            c->debug_desired = self.desired_vel;
            c->debug_chosen = c->avoid_vel[i];
        }
        samples_total += samples;
    }
    c->worker_tally[worker].iterations += samples_total;
}

void wf_crowd_integrate_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    phase_ctx* ctx = context;
    wf_crowd* c = ctx->c;
    (void)worker;
    for (uint32_t i = begin; i < end; ++i) {
        if (!wf_crowd_walking(c, i)) {
            continue;
        }
        const wf_agent_params* p = &c->params[i];
        wf_vec3 dv = wf_v3_sub(c->avoid_vel[i], c->vel[i]);
        dv.y = 0.0f;
        dv = clamp_length_2d(dv, p->max_acceleration * ctx->dt);
        wf_vec3 v = wf_v3_add(c->vel[i], dv);
        if (v.x * v.x + v.z * v.z < 1e-8f) {
            v = wf_v3(0, 0, 0);
        }
        c->vel[i] = v;
        c->pos[i] = wf_v3_mad(c->pos[i], v, ctx->dt);
        c->wall_line[i] = wf_wall_contact_nearest_line(c->walls + (size_t)i * c->max_walls * 2u,
                                                       c->wall_count[i], c->pos[i]);
    }
}

/* ---------------------------------------------------------------------------
 * Collisions: passes that each read every position and write one push per
 * agent, then apply the pushes (double-buffered)
 */

/// Share of a collision push agent a takes against b, by rank class. The
/// lead bit (bottleneck.c) alone tips it only a little: a lead that shoved
/// others as hard as a higher class pressed bodies together in the levels'
/// narrow two-way passages (nav_test500 worst overlap 0.31 m, 0.19 m now).
static float yield_share(uint32_t a, uint32_t b) {
    if ((a >> 1) == (b >> 1)) {
        return a == b ? 0.5f : (a < b ? 0.6f : 0.4f);
    }
    return a < b ? 0.75f : 0.25f;
}

/// A push out of a deep contact takes back the velocity that walked into
/// it, as far as the push reaches (as the surface pass does for a wall):
/// an agent walking on into a body that cannot give (pinned by a wall, or
/// by the crowd behind it) drove the overlap deeper every update.
static wf_vec3 take_back_velocity(wf_vec3 v, wf_vec3 push, float dt) {
    float p2 = push.x * push.x + push.z * push.z;
    float into = v.x * push.x + v.z * push.z;
    if (!(p2 > 1e-12f) || into >= 0.0f) {
        return v;
    }
    float len = sqrtf(p2);
    float along = into / len; // the velocity along the push: negative
    float reach = len / dt;   // the most the push takes back
    along = along < -reach ? -reach : along;
    v.x -= push.x * along / len;
    v.z -= push.z * along / len;
    return v;
}

/// Agent flags of an agent at a single-file passage (bottleneck.c).
#define AT_PASSAGE (AGENT_PINCH_GO | AGENT_WAITS_PINCH)

void wf_crowd_collide_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    phase_ctx* ctx = context;
    wf_crowd* c = ctx->c;
    (void)worker;
    for (uint32_t i = begin; i < end; ++i) {
        c->displaced[i] = c->pos[i];
        if (ctx->deep_only ? c->deep[i] == 0 : !wf_crowd_walking(c, i)) {
            c->deep[i] = 0;
            continue;
        }
        float deepest = 0.0f; // its deepest contact, before this pass's push
        const uint32_t* neighbours = c->neighbours + (size_t)i * c->max_neighbours;
        wf_vec3 push = wf_v3(0, 0, 0);
        wf_vec3 deep = wf_v3(0, 0, 0); // the part of it out of deep contacts
        // Its nearest wall (wall_line, set as it moved): pinned against
        // it, its pushes keep only their slide along it.
        const wf_vec3 own_line = c->wall_line[i];
        const float own_room = wf_wall_contact_room(own_line, c->pos[i]);
        const bool pinned = own_room < WF_CROWD_WALL_PINNED;
        // At a single-file passage (admitted or waiting) the passage's
        // order says who gives way: no neighbour takes over a pinned one's
        // share there (door_2way_2, seeds 301-400: 1.3 points of arrivals
        // and 1.9 of holding lost with it). The clamp below stays: without
        // it at passages the demo's worst overlap was 0.139 m.
        const bool at_passage = (c->agent_flags[i] & AT_PASSAGE) != 0;
        uint32_t w = 0;
        for (uint32_t k = 0; k < c->neighbour_count[i]; ++k) {
            uint32_t j = neighbours[k];
            if (c->mode[j] != WF_AGENT_WALKING) {
                continue;
            }
            wf_vec3 diff = wf_v3_sub(c->pos[i], c->pos[j]);
            diff.y = 0.0f;
            float rr = c->params[i].radius + c->params[j].radius;
            float d2 = diff.x * diff.x + diff.z * diff.z;
            if (d2 > rr * rr) {
                continue;
            }
            float d = sqrtf(d2);
            if (d < 1e-4f) {
                // On top of each other: part sideways to the desired
                // velocity, the lower slot to one side, the other opposite.
                wf_vec3 side = wf_v3(-c->desired_vel[i].z, 0.0f, c->desired_vel[i].x);
                if (side.x * side.x + side.z * side.z < 1e-8f) {
                    side = wf_v3(1.0f, 0.0f, 0.0f);
                }
                float l = wf_v2_length(side);
                diff = wf_v3_scale(side, (i < j ? 1.0f : -1.0f) / l);
                d = 1.0f;
            }
            float pen = rr - (d2 < 1e-8f ? 0.0f : sqrtf(d2));
            deepest = pen > deepest ? pen : deepest;
            float share = yield_share(c->rank[i] >> WF_CROWD_RANK_CLASS_SHIFT,
                                      c->rank[j] >> WF_CROWD_RANK_CLASS_SHIFT);
            // Walls and neighbours together: a neighbour pinned against a
            // wall gives only along it (in a corner, not at all), so in a
            // contact past the ordinary jostling this agent takes the rest
            // (the surface pass put the pinned one back into the overlap
            // every update: nav_test500's worst press on seeds 101-110,
            // 0.171 m; the demo's notch, 0.21 m, press21).
            if (pen > WF_CROWD_WALL_PRESS && !at_passage && !(c->agent_flags[j] & AT_PASSAGE) &&
                c->wall_line[j].y > -INFINITY) {
                // j goes along -diff.
                share += (1.0f - share) *
                         wf_wall_contact_blocked_share(c->walls + (size_t)j * c->max_walls * 2u,
                                                       c->wall_count[j], c->pos[j], -diff.x / d,
                                                       -diff.z / d);
            }
            float s = pen * share * WF_CROWD_COLLISION_RESOLVE * 2.0f / d;
            push.x += diff.x * s;
            push.z += diff.z * s;
            if (pen > WF_CROWD_DEEP_CONTACT) {
                deep.x += diff.x * s;
                deep.z += diff.z * s;
            }
            w++;
        }
        if (w > 0) {
            // Over the square root of the contacts, not their count: a
            // deep contact in a press resolved a fraction a pass, and the
            // streams behind drove it deeper again every update.
            float norm = 1.0f / sqrtf((float)w);
            wf_vec3 moved = wf_v3_mad(c->pos[i], push, norm);
            // Pinned: the push keeps only its slide along the wall, as the
            // surface pass would (the neighbour above took the rest).
            if (pinned) {
                float past =
                    wf_wall_contact_room(own_line, moved) - (own_room < 0.0f ? own_room : 0.0f);
                if (past < 0.0f) {
                    moved.x -= own_line.x * past;
                    moved.z -= own_line.z * past;
                }
            }
            c->displaced[i] = moved;
            c->vel[i] = take_back_velocity(c->vel[i], wf_v3_scale(deep, norm), ctx->dt);
        }
        c->displaced[i] = wf_movers_resolve(c, i, c->displaced[i]);
        c->deep[i] = deepest > WF_CROWD_DEEP_PASS_DEPTH;
    }
}

/* ---------------------------------------------------------------------------
 * Surface: positions back onto the navmesh, the corridor follows; off-mesh
 * traversals advance
 */

void wf_crowd_surface_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    phase_ctx* ctx = context;
    wf_crowd* c = ctx->c;
    for (uint32_t i = begin; i < end; ++i) {
        if (!c->active[i]) {
            continue;
        }
        wf_corridor* cor = &c->corridor[i];
        if (c->mode[i] == WF_AGENT_OFFMESH) {
            wf_crowd_offmesh* om = &c->offmesh[i];
            om->t += ctx->dt;
            float u = om->duration > 0.0f ? om->t / om->duration : 1.0f;
            if (u >= 1.0f) {
                c->pos[i] = om->end;
                cor->pos = om->end;
                c->mode[i] = WF_AGENT_WALKING;
                c->boundary_center[i] = wf_v3(INFINITY, 0, INFINITY);
                wf_crowd_push_event(c, i, WF_CROWD_EVENT_OFFMESH_END, om->link);
                om->link.bits = 0;
            } else {
                c->pos[i] = wf_v3_lerp(om->start, om->end, u);
            }
            continue;
        }
        if (c->mode[i] != WF_AGENT_WALKING) {
            continue;
        }
        const wf_query_filter* f = wf_crowd_filter(c, i);
        if (wf_corridor_move_position(cor, c->pos[i], c->worker_queries[worker], f)) {
            wf_vec3 back = wf_v3_sub(cor->pos, c->pos[i]);
            back.y = 0.0f;
            float b2 = back.x * back.x + back.z * back.z;
            float into = c->vel[i].x * back.x + c->vel[i].z * back.z;
            if (b2 > 1e-6f && into < 0.0f) {
                // The edge took the move back: keep only the slide along it.
                c->vel[i].x -= back.x * into / b2;
                c->vel[i].z -= back.z * into / b2;
            }
            c->pos[i] = cor->pos;
        } else {
            c->pos[i] = cor->pos; // start polygon gone: validation finds a new one
        }
        if (!wf_crowd_follows_path(c, i)) {
            wf_corridor_reset(cor, cor->polys[0], c->pos[i]);
        }
    }
}

void wf_crowd_decide_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    phase_ctx* ctx = context;
    wf_crowd* c = ctx->c;
    double t0 = wf_clock_us();
    wf_crowd_neighbours_fn(begin, end, worker, context);
    double t1 = wf_clock_us();
    wf_crowd_corners_fn(begin, end, worker, context);
    double t2 = wf_clock_us();
    wf_crowd_steering_fn(begin, end, worker, context);
    double t3 = wf_clock_us();
    wf_crowd_avoidance_fn(begin, end, worker, context);
    double t4 = wf_clock_us();
    wf_crowd_add_time(c, worker, WF_CROWD_PHASE_NEIGHBOURS, t1 - t0);
    wf_crowd_add_time(c, worker, WF_CROWD_PHASE_CORNERS, t2 - t1);
    wf_crowd_add_time(c, worker, WF_CROWD_PHASE_STEERING, t3 - t2);
    wf_crowd_add_time(c, worker, WF_CROWD_PHASE_AVOIDANCE, t4 - t3);
}
