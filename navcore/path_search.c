// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Path searches over polygons: A* to a polygon (whole or time-sliced), to a
// box, and Dijkstra to the nearest of many goals. One engine serves all.
#include <float.h>
#include <math.h>
#include <string.h>

#include "navcore/check.h"
#include "navcore/geometry.h"
#include "navcore/mesh_links.h"
#include "navcore/query_internal.h"

/// Heuristic weight. The straight-line distance never overestimates when
/// area costs are >= 1; the weight sits a hair under 1 so float rounding in
/// accumulated costs cannot make it overestimate either. (Area costs below
/// 1 make it overestimate: paths stay valid but may not be the cheapest.)
#define H_SCALE 0.999f

/// find_nearest_goal compares each expanded polygon with every goal up to
/// this many goals; above it, goals are marked in the node pool instead
/// (one node each) so the test is O(1).
#define NEAREST_GOAL_SCAN_MAX 16u

#define NODE_REACHED (WF_NODE_OPEN | WF_NODE_CLOSED)

typedef enum search_kind {
    SEARCH_TO_POLY,  ///< A* to end_ref, ending at end_pos
    SEARCH_TO_BOX,   ///< A* to the first polygon overlapping a box
    SEARCH_TO_GOALS, ///< Dijkstra to the first of many polygons
} search_kind;

/// What a search looks for.
typedef struct search_goal {
    search_kind kind;
    wf_poly_ref end_ref;
    wf_vec3 end_pos;
    wf_vec3 box_min, box_max;
    const wf_poly_ref* goals;
    uint32_t goal_count;
    bool goals_marked;  ///< goals carry WF_NODE_GOAL in the pool
    float h_scale;      ///< 0: Dijkstra
    bool stop_on_reach; ///< done as soon as the goal is reached (no path needed)
    /// Dead ends (see expand) are not relaxed: only where no partial
    /// result can be asked for (a search that fails runs again without).
    bool skip_dead_ends;
    /// Where end_ref is numbered for the pocket test (see
    /// wf_link_portal; number 0: in no pocket). With skip_dead_ends.
    uint32_t goal_tile, goal_number;
} search_goal;

static bool filter_is_valid(const wf_query_filter* filter) {
    if (filter->path_mode > WF_PATH_MODE_EXACT) {
        return false;
    }
    // Finite and >= 0 on the bits: below +infinity's pattern, or -0. No
    // early exit, so the loop vectorises (every query checks all areas).
    uint32_t bits[WF_MAX_AREAS];
    memcpy(bits, filter->area_cost, sizeof bits);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < WF_MAX_AREAS; ++i) {
        bad |= (uint32_t)(bits[i] >= 0x7f800000u) & (uint32_t)(bits[i] != 0x80000000u);
    }
    return bad == 0;
}

static bool box_is_valid(wf_vec3 bmin, wf_vec3 bmax) {
    return wf_v3_is_finite(bmin) && wf_v3_is_finite(bmax) && bmin.x <= bmax.x && bmin.y <= bmax.y &&
           bmin.z <= bmax.z;
}

static wf_vec3 clamp_to_box(wf_vec3 p, wf_vec3 bmin, wf_vec3 bmax) {
    return wf_v3_min(wf_v3_max(p, bmin), bmax);
}

/// Unscaled distance from p to what the search looks for.
static float goal_distance(const search_goal* g, wf_vec3 p) {
    switch (g->kind) {
    case SEARCH_TO_POLY:
        return wf_v3_distance(p, g->end_pos);
    case SEARCH_TO_BOX:
        return wf_v3_distance(p, clamp_to_box(p, g->box_min, g->box_max));
    case SEARCH_TO_GOALS:
    default:
        return 0.0f;
    }
}

/// goal_distance inlined for one search kind (expand's copies).
static inline float goal_distance_of(search_kind kind, const search_goal* g, wf_vec3 p) {
    return kind == SEARCH_TO_POLY ? wf_v3_distance(p, g->end_pos) : goal_distance(g, p);
}

static bool poly_overlaps_box(const wf_mesh_tile* tile, const wf_tile_poly* poly, wf_vec3 bmin,
                              wf_vec3 bmax) {
    if (wf_poly_type(poly) != WF_POLY_TYPE_GROUND || poly->vert_count == 0) {
        return false;
    }
    wf_vec3 pmin = wf_tile_vertex(tile, poly->verts[0]), pmax = pmin;
    for (uint32_t i = 1; i < poly->vert_count; ++i) {
        wf_vec3 v = wf_tile_vertex(tile, poly->verts[i]);
        pmin = wf_v3_min(pmin, v);
        pmax = wf_v3_max(pmax, v);
    }
    return wf_boxes_overlap(pmin, pmax, bmin, bmax);
}

static bool is_goal(const wf_query* q, const search_goal* g, uint32_t node,
                    const wf_mesh_tile* tile, const wf_tile_poly* poly) {
    const wf_search_node* n = &q->nodes.nodes[node];
    switch (g->kind) {
    case SEARCH_TO_POLY:
        return n->ref.bits == g->end_ref.bits;
    case SEARCH_TO_BOX:
        return poly_overlaps_box(tile, poly, g->box_min, g->box_max);
    case SEARCH_TO_GOALS:
    default:
        if (g->goals_marked) {
            return (n->flags & WF_NODE_GOAL) != 0;
        }
        for (uint32_t i = 0; i < g->goal_count; ++i) {
            if (g->goals[i].bits == n->ref.bits) {
                return true;
            }
        }
        return false;
    }
}

/// Resets the pool and opens the start node. Marked goals are created
/// first so the start node finds its mark too.
static void search_start(wf_query* q, const wf_query_filter* filter, const search_goal* g,
                         wf_poly_ref start_ref, wf_vec3 start_pos) {
    wf_node_pool_clear(&q->nodes);
    wf_open_list_clear(&q->open);
    if (g->goals_marked) {
        for (uint32_t i = 0; i < g->goal_count; ++i) {
            uint32_t n = wf_node_pool_get(&q->nodes, g->goals[i]);
            if (n != WF_NO_NODE) {
                q->nodes.nodes[n].flags |= WF_NODE_GOAL;
            }
        }
    }
    uint32_t start = wf_node_pool_get(&q->nodes, start_ref);
    WF_ASSERT(start != WF_NO_NODE); // callers leave room for it
    q->nodes.funnels_valid = true;  // expand writes a node's funnel with its parent
    q->nodes.mesh_stamp = q->mesh->change_count;
    wf_search_node* n = &q->nodes.nodes[start];
    n->pos = start_pos;
    n->cost = 0.0f;
    q->nodes.funnels[start] = (wf_search_funnel){
        .wedge = {start_pos, start_pos, start_pos, 0.0f, start, start},
        .portal_left = start_pos,
        .portal_right = start_pos,
    };
    n->total = goal_distance(g, start_pos) * g->h_scale;
    if (g->kind == SEARCH_TO_POLY && start_ref.bits == g->end_ref.bits) {
        // Start and end in one polygon: the whole way is across it.
        const wf_mesh_tile* tile;
        const wf_tile_poly* poly;
        wf_mesh_resolve_unchecked(q->mesh, start_ref, &tile, &poly);
        n->cost =
            wf_filter_cost(filter, start_pos, g->end_pos, tile, wf_tile_poly_index(tile, poly)) *
            wf_query_poly_scale(q, start_ref);
        n->total = n->cost;
    }
    n->flags |= WF_NODE_OPEN;
    wf_open_list_push(&q->open, &q->nodes, start);
}

/// Squared distance (metres) under which a wedge side counts as the apex
/// itself: an open side.
#define WEDGE_SAME_POINT_SQ 1e-8f

/// Portals a bend replays at most (see wedge_pass); past that the wedge
/// opens to the newest portal.
#define WEDGE_REPLAY_MAX 32u

/// Node ids for portals of the node being relaxed (its index is not known
/// yet): 0 its entry portal, 1 the end point as a one-point portal.
#define FRESH_NODE(i) (WF_NO_NODE - 1u - (uint32_t)(i))

/// Kept out of the relaxation loop: rarely taken, and inlined it would
/// crowd the common case's registers. Not `cold`: gcc then optimizes these
/// (and the helpers inlined into them) for size, and on hilly meshes of
/// small polygons the bend replays are 10-17 % of a query (-1.2 to -1.7 %
/// instructions per query without it).
#if defined(__GNUC__)
#define RARE_PATH __attribute__((noinline))
#define ALWAYS_INLINE __attribute__((always_inline))
#else
#define RARE_PATH
#define ALWAYS_INLINE
#endif

/// The funnel state of a node (see wf_search_wedge) while it is computed.
typedef wf_search_wedge wedge;

typedef struct wedge_portal {
    wf_vec3 left, right;
    uint32_t node;
} wedge_portal;

static bool wedge_side_open(wf_vec3 apex, wf_vec3 side) {
    return wf_v2_distance_sq(apex, side) < WEDGE_SAME_POINT_SQ;
}

/// p lies outside the wedge, beyond its right side (same sign rule as the
/// funnel in funnel.c).
static bool beyond_right(const wedge* w, wf_vec3 p) {
    return !wedge_side_open(w->apex, w->right) && wf_v2_triangle_area2(w->apex, w->right, p) < 0.0f;
}

static bool beyond_left(const wedge* w, wf_vec3 p) {
    return !wedge_side_open(w->apex, w->left) && wf_v2_triangle_area2(w->apex, w->left, p) > 0.0f;
}

/// Where the line apex->side crosses the portal (left, right), clamped to it.
ALWAYS_INLINE static inline wf_vec3 ray_on_portal(wf_vec3 apex, wf_vec3 side, wf_vec3 left,
                                                  wf_vec3 right) {
    wf_vec3 d = wf_v3_sub(side, apex);
    wf_vec3 e = wf_v3_sub(right, left);
    float den = wf_v2_perp(d, e);
    if (den == 0.0f) {
        return side;
    }
    float t = wf_v2_perp(d, wf_v3_sub(apex, left)) / den;
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    return wf_v3_lerp(left, right, t);
}

/// One funnel step through portal p: narrows the wedge and gives the part
/// of the portal seen from the apex (0), or leaves it as it is when the
/// portal lies wholly beyond its left (-1) or right (+1) side.
ALWAYS_INLINE static inline int wedge_narrow(wedge* w, const wedge_portal* p, wf_vec3* window_left,
                                             wf_vec3* window_right) {
    // beyond_left / beyond_right, with each side's openness and vector
    // worked out once (the apex and the side a test reads do not change
    // before it).
    wf_vec3 to_left = wf_v3_sub(w->left, w->apex);
    wf_vec3 to_right = wf_v3_sub(w->right, w->apex);
    bool left_closed = !(wf_v2_length_sq(to_left) < WEDGE_SAME_POINT_SQ);
    bool right_closed = !(wf_v2_length_sq(to_right) < WEDGE_SAME_POINT_SQ);
    wf_vec3 pl = wf_v3_sub(p->left, w->apex);
    wf_vec3 pr = wf_v3_sub(p->right, w->apex);
    if (right_closed && wf_v2_perp(to_right, pl) < 0.0f) {
        return 1;
    }
    if (left_closed && wf_v2_perp(to_left, pr) > 0.0f) {
        return -1;
    }
    *window_left = p->left;
    *window_right = p->right;
    if (left_closed && wf_v2_perp(to_left, pl) > 0.0f) {
        *window_left = ray_on_portal(w->apex, w->left, p->left, p->right);
    } else {
        w->left = p->left;
        w->left_node = p->node;
    }
    if (right_closed && wf_v2_perp(to_right, pr) < 0.0f) {
        *window_right = ray_on_portal(w->apex, w->right, p->left, p->right);
    } else {
        w->right = p->right;
        w->right_node = p->node;
    }
    return 0;
}

/// The way bends round the vertex of one side: it becomes the apex, with
/// both sides open.
ALWAYS_INLINE static inline void wedge_bend(wedge* w, int side, float k) {
    wf_vec3 corner = side < 0 ? w->left : w->right;
    w->apex_cost += wf_v3_distance(w->apex, corner) * k;
    w->apex = w->left = w->right = corner;
}

/// Narrows w through list[from..count): where a portal lies wholly beyond
/// a side, the way bends round that side's vertex and goes on with the
/// portal after the vertex's (looked for in list[start..]).
ALWAYS_INLINE static inline void wedge_replay(wedge* w, const wedge_portal* list, uint32_t start,
                                              uint32_t from, uint32_t count, float k,
                                              wf_vec3* window_left, wf_vec3* window_right) {
    for (uint32_t j = from; j < count; ++j) {
        int side = wedge_narrow(w, &list[j], window_left, window_right);
        if (side != 0) {
            // Bend again, then go on with the portal after the vertex's.
            uint32_t corner_node = side < 0 ? w->left_node : w->right_node;
            uint32_t m = j;
            while (m > start && list[m - 1u].node != corner_node) {
                m--;
            }
            wedge_bend(w, side, k);
            // (Not found cannot happen; then this portal is taken again,
            // and the open wedge passes it.)
            j = m > start ? m - 1u : j - 1u;
        }
    }
}

/// The portals from the one after `corner_node`'s up to `current`'s, in
/// path order, at the end of list[0..WEDGE_REPLAY_MAX): *out_count of
/// them (0 when the corner is further back than that), starting at the
/// pointer returned. (Written back to front as the parent chain is walked,
/// so no reversal; whatever goes after them goes at list[WEDGE_REPLAY_MAX].)
ALWAYS_INLINE static inline wedge_portal* portals_after(const wf_node_pool* pool, uint32_t current,
                                                        uint32_t corner_node, wedge_portal* list,
                                                        uint32_t* out_count) {
    uint32_t slot = WEDGE_REPLAY_MAX;
    uint32_t i = current;
    while (i != WF_NO_NODE && i != corner_node && slot > 0) {
        const wf_search_funnel* fu = &pool->funnels[i];
        list[--slot] = (wedge_portal){fu->portal_left, fu->portal_right, i};
        i = pool->nodes[i].parent;
    }
    if (i != corner_node) {
        slot = WEDGE_REPLAY_MAX;
    }
    *out_count = WEDGE_REPLAY_MAX - slot;
    return list + slot;
}

/// Moves the wedge of node `current` through the fresh portals (its
/// neighbour's entry portal, maybe then the end point), in polygons that
/// cost k per metre, as the funnel of funnel.c would: when a portal lies
/// wholly beyond a side, the way bends round that side's vertex and the
/// portals after the one holding it are replayed from there (walking the
/// parent chain; if that vertex lies more than WEDGE_REPLAY_MAX portals
/// back, only the fresh portals are, which can only make the cost lower).
/// The window is the part of the last portal seen from the final apex.
RARE_PATH static void wedge_pass(const wf_node_pool* pool, uint32_t current, wedge* w,
                                 const wedge_portal* fresh, uint32_t fresh_count, float k,
                                 wf_vec3* window_left, wf_vec3* window_right) {
    int side = 0;
    uint32_t first = 0;
    while (first < fresh_count &&
           (side = wedge_narrow(w, &fresh[first], window_left, window_right)) == 0) {
        first++;
    }
    if (first == fresh_count) {
        return;
    }
    wedge_portal buffer[WEDGE_REPLAY_MAX + 2];
    wedge_portal* list = buffer + WEDGE_REPLAY_MAX;
    uint32_t count = 0;
    uint32_t corner_node = side < 0 ? w->left_node : w->right_node;
    if (corner_node < FRESH_NODE(fresh_count - 1u)) {
        // The vertex is on an older portal: collect the portals after it.
        list = portals_after(pool, current, corner_node, buffer, &count);
    }
    uint32_t start = 0; // the portal after the vertex's
    for (uint32_t j = 0; j < fresh_count; ++j) {
        if (fresh[j].node == corner_node) {
            start = count + j + 1u;
        }
        list[count + j] = fresh[j];
    }
    count += fresh_count;
    wedge_bend(w, side, k);
    wedge_replay(w, list, start, start, count, k, window_left, window_right);
}

/// A bend round one side of the expanded node's wedge, replayed up to
/// (not through) the fresh portal: the same for every neighbour whose
/// portal lies beyond that side, so worked out once per side (on hilly
/// meshes of small polygons about half the bends repeat a side).
typedef struct bend_memo {
    uint32_t valid; ///< bit 0: the left side's entry, bit 1: the right's
    wedge w[2];
    uint32_t count[2]; ///< old portals at first[s] (the fresh one goes after)
    wedge_portal* first[2];
    wedge_portal list[2][WEDGE_REPLAY_MAX + 1u];
} bend_memo;

/// wedge_pass for one fresh portal wholly beyond side `side` of `from`
/// (the expanded node's wedge; its vertex on an older portal than the
/// node's own), through the memo: the same steps, so the same result.
RARE_PATH static void wedge_pass_side(const wf_node_pool* pool, uint32_t current, const wedge* from,
                                      int side, bend_memo* m, const wedge_portal* fresh, float k,
                                      wedge* out, wf_vec3* window_left, wf_vec3* window_right) {
    uint32_t s = side < 0 ? 0u : 1u;
    if ((m->valid & (1u << s)) == 0) {
        wedge w = *from;
        uint32_t corner_node = side < 0 ? w.left_node : w.right_node;
        uint32_t count;
        wedge_portal* list = portals_after(pool, current, corner_node, m->list[s], &count);
        wedge_bend(&w, side, k);
        wf_vec3 unused_left, unused_right;
        wedge_replay(&w, list, 0, 0, count, k, &unused_left, &unused_right);
        m->w[s] = w;
        m->count[s] = count;
        m->first[s] = list;
        m->valid |= 1u << s;
    }
    uint32_t count = m->count[s];
    wedge_portal* list = m->first[s];
    list[count] = *fresh;
    *out = m->w[s];
    wedge_replay(out, list, 0, count, count + 1u, k, window_left, window_right);
}

/// A window's point (see window_point) and chord_y: where the line
/// apex->target crosses the window strictly inside, the height of the 3D
/// chord apex->target above the point (see entry_point), else its own.
typedef struct aimed_point {
    wf_vec3 x;
    float chord_y;
} aimed_point;

/// The point x of the window (a, b) that minimises |apex x| + |x target|
/// on XZ: where the line apex->target crosses it (target mirrored over the
/// window's line when both lie on one side), or the nearer end.
/// *crosses: whether the line crosses the window strictly inside; then
/// *chord_u is x's share of the way apex->target on XZ. (The caller works
/// out the chord's height: window_point then needs no height of apex and
/// target, and gcc passes it fewer registers, query12.) Always inlined,
/// with aim_point: out of line, each of its 36-59 calls a query paid about
/// 28 instructions to pass four vectors through the stack, and inlined
/// alone gcc kept aim_point out of line instead (+2.5 %); both inlined,
/// -5 % instructions per query at -O2 (query17).
ALWAYS_INLINE static inline wf_vec3 window_point(wf_vec3 apex, wf_vec3 a, wf_vec3 b, wf_vec3 target,
                                                 bool* crosses_out, float* chord_u) {
    *crosses_out = false;
    wf_vec3 e = wf_v3_sub(b, a);
    float e_sq = wf_v2_length_sq(e);
    if (e_sq <= WEDGE_SAME_POINT_SQ) {
        return a;
    }
    float side_apex = wf_v2_perp(e, wf_v3_sub(apex, a));
    float side_target = wf_v2_perp(e, wf_v3_sub(target, a));
    bool mirrored = side_apex * side_target > 0.0f;
    wf_vec3 aim = target;
    if (mirrored) {
        // Mirror over the line: the shortest way touches it and comes back.
        float s = 2.0f * side_target / e_sq;
        aim.x -= s * e.z;
        aim.z += s * e.x;
        // (perp(e, v) = e.z * v.x - e.x * v.z, so the normal is (e.z, -e.x))
    }
    wf_vec3 d = wf_v3_sub(aim, apex);
    float den = wf_v2_perp(d, e);
    float t;
    bool crosses = false;
    if (den * den > 1e-12f * wf_v2_length_sq(d) * e_sq) {
        t = wf_v2_perp(d, wf_v3_sub(apex, a)) / den;
        crosses = !mirrored && t > 0.0f && t < 1.0f;
    } else {
        t = wf_v2_distance(apex, a) + wf_v2_distance(a, aim) <=
                    wf_v2_distance(apex, b) + wf_v2_distance(b, aim)
                ? 0.0f
                : 1.0f;
    }
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    wf_vec3 x = wf_v3_lerp(a, b, t);
    // (x = apex + u d on XZ with u = side_apex / den: perp(e, x - a) = 0.)
    if (crosses) {
        *crosses_out = true;
        *chord_u = side_apex / den;
    }
    return x;
}

/// The point x of segment (a, b) that minimises the way from `from` to
/// the target through it, or for Dijkstra (no target) its nearest point.
ALWAYS_INLINE static inline aimed_point aim_point(search_kind kind, wf_vec3 target, wf_vec3 from,
                                                  wf_vec3 a, wf_vec3 b) {
    if (kind == SEARCH_TO_GOALS) {
        float t = 0.0f;
        (void)wf_dist_point_segment_sq_2d(from, a, b, &t);
        wf_vec3 x = wf_v3_lerp(a, b, t);
        return (aimed_point){x, x.y};
    }
    bool crosses;
    float u;
    wf_vec3 x = window_point(from, a, b, target, &crosses, &u);
    // (target.y - from.y is the chord's rise: mirroring leaves y alone.)
    return (aimed_point){x, crosses ? from.y + u * (target.y - from.y) : x.y};
}

/// What state s pays to reach p straight from its apex.
static inline float straight_cost(const wedge* s, wf_vec3 p, float k) {
    return s->apex_cost + wf_v3_distance(s->apex, p) * k;
}

/// Where the search enters a polygon whose portal (left, right) the wedge
/// w has just passed with the window (window_left, window_right): the
/// portal point best towards the goal point (the box centre for box
/// searches; Dijkstra: nearest to the start), reached straight through the
/// window or round a wedge side's vertex for the parts of the portal beyond
/// that side. *out_cost gets the cost to that point (k per metre),
/// *out_distance its straight distance to the goal point (0 for Dijkstra).
/// *out_est_cost and *out_est_distance: the same split of the way at the
/// point of the 3D chord (apex or corner) -> goal point over the entry
/// point, where the chord crosses the window strictly inside (else the
/// entry point's own): a way that sees the goal is priced as the straight
/// chord it can still take, not as a bend to the portal's height (on
/// hills the entry point lies above or below the chord, and that detour
/// made every polygon on a straight way look dearer than it is).
ALWAYS_INLINE static inline wf_vec3 entry_point(search_kind kind, wf_vec3 target, const wedge* w,
                                                wf_vec3 left, wf_vec3 right, wf_vec3 window_left,
                                                wf_vec3 window_right, bool cut_left, bool cut_right,
                                                float k, float* out_cost, float* out_distance,
                                                float* out_est_cost, float* out_est_distance) {
    bool aims = kind != SEARCH_TO_GOALS;
    aimed_point aimed = aim_point(kind, target, w->apex, window_left, window_right);
    wf_vec3 best = aimed.x;
    wf_vec3 est = best;
    est.y = aimed.chord_y;
    // The way to the best point so far: straight from the apex, or round
    // `corner`, round_distance from the apex (< 0: straight).
    wf_vec3 corner_taken = w->apex;
    float round_distance = -1.0f;
    float best_cost = straight_cost(w, est, k);
    float best_distance = aims ? wf_v3_distance(est, target) : 0.0f;
    // The parts of the portal beyond a side: round that side's vertex (the
    // window ends where the portal does unless a side cut it; a cut that
    // left the end where it was has nothing beyond it, see below). A goal
    // past the portal and not beyond that side is best reached straight.
    if (!cut_left && !cut_right) {
        *out_est_cost = best_cost;
        *out_est_distance = best_distance;
        if (est.y != best.y) {
            best_cost = straight_cost(w, best, k);
            best_distance = aims ? wf_v3_distance(best, target) : 0.0f;
        }
        *out_cost = best_cost;
        *out_distance = best_distance;
        return best;
    }
    {
        float best_total = best_cost + best_distance * k;
        wf_vec3 e = wf_v3_sub(right, left);
        bool goal_past =
            aims &&
            wf_v2_perp(e, wf_v3_sub(w->apex, left)) * wf_v2_perp(e, wf_v3_sub(target, left)) < 0.0f;
        for (int side = 0; side < 2; ++side) {
            if (!(side == 0 ? cut_left : cut_right)) {
                continue;
            }
            wf_vec3 corner = side == 0 ? w->left : w->right;
            wf_vec3 a = side == 0 ? left : window_right;
            wf_vec3 b = side == 0 ? window_left : right;
            if (wf_v2_distance_sq(a, b) <= WEDGE_SAME_POINT_SQ ||
                wedge_side_open(w->apex, corner)) {
                continue; // nothing of the portal beyond this side
            }
            if (goal_past && !(side == 0 ? beyond_left(w, target) : beyond_right(w, target))) {
                continue;
            }
            aimed_point side_aimed = aim_point(kind, target, corner, a, b);
            wf_vec3 pos = side_aimed.x;
            wf_vec3 side_est = pos;
            side_est.y = side_aimed.chord_y;
            float to_corner = wf_v3_distance(w->apex, corner);
            float cost = w->apex_cost + (to_corner + wf_v3_distance(corner, side_est)) * k;
            float distance = aims ? wf_v3_distance(side_est, target) : 0.0f;
            float total = cost + distance * k;
            if (total < best_total) {
                best = pos;
                est = side_est;
                corner_taken = corner;
                round_distance = to_corner;
                best_cost = cost;
                best_distance = distance;
                best_total = total;
            }
        }
    }
    *out_est_cost = best_cost;
    *out_est_distance = best_distance;
    if (est.y != best.y) {
        // (Only on slopes: on flat ground the chord runs at the portal's height.)
        best_cost = round_distance < 0.0f
                        ? straight_cost(w, best, k)
                        : w->apex_cost + (round_distance + wf_v3_distance(corner_taken, best)) * k;
        best_distance = aims ? wf_v3_distance(best, target) : 0.0f;
    }
    *out_cost = best_cost;
    *out_distance = best_distance;
    return best;
}

/// True when node is `from` or one of its ancestors.
RARE_PATH static bool is_ancestor(const wf_node_pool* pool, uint32_t node, uint32_t from) {
    for (uint32_t i = from, steps = 0; i != WF_NO_NODE && steps <= pool->count;
         i = pool->nodes[i].parent, ++steps) {
        if (i == node) {
            return true;
        }
    }
    return false;
}

/// The expanded node's wedge sides as vectors from the apex, and whether
/// each is open: the same for every neighbour, so worked out once.
typedef struct wedge_sides {
    wf_vec3 left, right;
    bool left_open, right_open;
} wedge_sides;

ALWAYS_INLINE static inline wedge_sides wedge_sides_of(const wedge* w) {
    wedge_sides s;
    s.left = wf_v3_sub(w->left, w->apex);
    s.right = wf_v3_sub(w->right, w->apex);
    s.left_open = wf_v2_length_sq(s.left) < WEDGE_SAME_POINT_SQ;
    s.right_open = wf_v2_length_sq(s.right) < WEDGE_SAME_POINT_SQ;
    return s;
}

/// wedge_narrow for a fresh portal of the expanded node (its wedge `from`,
/// sides precomputed): the same tests in the same order, into *w. Returns
/// nonzero (w untouched) when the portal lies wholly beyond a side.
ALWAYS_INLINE static inline int wedge_narrow_fresh(const wedge* from, const wedge_sides* s,
                                                   wf_vec3 left, wf_vec3 right, wedge* w,
                                                   wf_vec3* window_left, wf_vec3* window_right,
                                                   bool* cut_left, bool* cut_right) {
    wf_vec3 to_left = wf_v3_sub(left, from->apex);
    wf_vec3 to_right = wf_v3_sub(right, from->apex);
    if (!s->right_open && wf_v2_perp(s->right, to_left) < 0.0f) {
        return 1;
    }
    if (!s->left_open && wf_v2_perp(s->left, to_right) > 0.0f) {
        return -1;
    }
    *w = *from;
    *window_left = left;
    *window_right = right;
    *cut_left = !s->left_open && wf_v2_perp(s->left, to_left) > 0.0f;
    *cut_right = !s->right_open && wf_v2_perp(s->right, to_right) < 0.0f;
    if (*cut_left) {
        *window_left = ray_on_portal(from->apex, from->left, left, right);
    } else {
        w->left = left;
        w->left_node = FRESH_NODE(0);
    }
    if (*cut_right) {
        *window_right = ray_on_portal(from->apex, from->right, left, right);
    } else {
        w->right = right;
        w->right_node = FRESH_NODE(0);
    }
    return 0;
}

/// States per polygon in path searches, one per layer (see expand). Four,
/// not three: bg512/AR0011SR row 468 at tiles of 48 needs the fourth
/// (1.0027 of octile with three), and the search costs no more for it
/// (the goal is found sooner as often as the extra layer is expanded).
#define SEARCH_LAYERS 4u
_Static_assert(((SEARCH_LAYERS - 1u) << WF_NODE_LAYER_SHIFT) <= WF_NODE_LAYER_MASK,
               "the node flags hold every layer");

/// A way turned down at a polygon is kept in a later layer only when the
/// state that turned it down cannot reach its window for this share of
/// the way's total less (so near-equal ways on hilly meshes of small
/// polygons do not double the search; 0.3 % kept every Moving AI row too
/// but cost 2 % more on the Recast meshes, 3 % let one row through)...
#define SEED_SLACK 0.01f

/// ... and only when its total is within this factor of that state's.
#define SEED_MARGIN 1.1f

static inline uint32_t layer_of(const wf_search_node* n) {
    return (n->flags & WF_NODE_LAYER_MASK) >> WF_NODE_LAYER_SHIFT;
}

/// The next layer's state of node `primary`'s polygon, made if it has
/// none; WF_NO_NODE when the pool is full.
RARE_PATH static uint32_t shadow_of(wf_node_pool* pool, uint32_t primary) {
    wf_search_node* p = &pool->nodes[primary];
    if ((p->flags & WF_NODE_HAS_SHADOW) != 0) {
        return pool->funnels[primary].shadow;
    }
    uint32_t s = wf_node_pool_add_shadow(pool, p->ref, layer_of(p) + 1u);
    if (s != WF_NO_NODE) {
        p->flags |= WF_NODE_HAS_SHADOW;
        pool->funnels[primary].shadow = s;
    }
    return s;
}

/// State s (a node's wedge) reaches the apex of w for no more than w does
/// (straight from its own apex, k per metre): then w's way is no better
/// than one s can take anywhere past that apex.
static inline bool covers(const wedge* s, const wedge* w, float k, float slack) {
    return straight_cost(s, w->apex, k) <= w->apex_cost * 1.000001f + 1e-6f + slack;
}

/// What state s pays to reach p: straight from its apex, or round the
/// vertex of the wedge side p lies beyond (s's wedge does not see p; the
/// one bend is a lower bound on the way round). Without it a winner whose
/// narrow wedge points past a window "reached" the window's ends through
/// walls, and the way it turned down was lost (AR0011SR row 932 at tiles
/// of 48: 1.0009 of octile).
static inline float reach_cost(const wedge* s, wf_vec3 p, float k) {
    if (beyond_left(s, p)) {
        return s->apex_cost + (wf_v3_distance(s->apex, s->left) + wf_v3_distance(s->left, p)) * k;
    }
    if (beyond_right(s, p)) {
        return s->apex_cost + (wf_v3_distance(s->apex, s->right) + wf_v3_distance(s->right, p)) * k;
    }
    return straight_cost(s, p, k);
}

/// s reaches both ends a, b of w's window for no more than w does;
/// `seeing`: round a side of s's wedge where an end lies beyond it (the
/// seed test out of layer 0), else straight (the later layers' seed test
/// and the prune, which keep the later layers small).
static inline bool covers_window(const wedge* s, const wedge* w, wf_vec3 a, wf_vec3 b, float k,
                                 float slack, bool seeing) {
    if (s->apex_cost >
        w->apex_cost + (wf_v3_distance(w->apex, a) + wf_v3_distance(w->apex, b)) * k) {
        return false;
    }
    float ra = seeing ? reach_cost(s, a, k) : straight_cost(s, a, k);
    float rb = seeing ? reach_cost(s, b, k) : straight_cost(s, b, k);
    return ra <= straight_cost(w, a, k) * 1.000001f + 1e-6f + slack &&
           rb <= straight_cost(w, b, k) * 1.000001f + 1e-6f + slack;
}

/// covers_window for the turned-down ways' early test (see expand): out
/// of the relaxation loop, which the test rarely passes.
RARE_PATH static bool covers_window_early(const wedge* s, const wedge* w, wf_vec3 a, wf_vec3 b,
                                          float k, float slack, bool seeing) {
    return covers_window(s, w, a, b, k, slack, seeing);
}

/// The relax test: node `next` (n) keeps its way against one of `total`
/// from `current`. A node that has been a parent never takes a descendant
/// as its parent, so parent chains stay trees.
static inline bool turned_down(const wf_node_pool* pool, const wf_search_node* n, uint32_t next,
                               uint32_t current, float total) {
    return (n->flags & NODE_REACHED) != 0 &&
           (total >= n->total ||
            ((n->flags & WF_NODE_EXPANDED) != 0 && is_ancestor(pool, next, current)));
}

/// A lower layer's state of the polygon (from `primary` up to, not
/// including, `slot`) has w's apex at no more cost: as good from here on.
static bool dominated(const wf_node_pool* pool, uint32_t primary, uint32_t slot, const wedge* w,
                      wf_vec3 a, wf_vec3 b, float k, float slack) {
    for (uint32_t i = primary; i != slot;) {
        const wf_search_node* n = &pool->nodes[i];
        if ((n->flags & NODE_REACHED) != 0 &&
            covers_window(&pool->funnels[i].wedge, w, a, b, k, slack, false)) {
            return true;
        }
        if ((n->flags & WF_NODE_HAS_SHADOW) == 0) {
            break;
        }
        i = pool->funnels[i].shadow;
    }
    return false;
}

/// dominated() for every way out of the expanded node's wedge cur at
/// once, before any is narrowed: a lower layer's state that reaches cur's
/// apex for no more reaches any point past it for no more than a way
/// from cur does (that way goes straight from cur's apex or round
/// corners, never shorter), so it covers every window of cur's ways
/// (its apex no dearer than cur's: covers_window's first test). Called
/// with half dominated()'s slack, so the other half absorbs the float
/// rounding of the triangle inequality.
static inline bool dominated_apex(const wf_node_pool* pool, uint32_t primary, uint32_t slot,
                                  const wedge* cur, float k, float slack) {
    for (uint32_t i = primary; i != slot;) {
        const wf_search_node* n = &pool->nodes[i];
        const wedge* s = &pool->funnels[i].wedge;
        if ((n->flags & NODE_REACHED) != 0 && s->apex_cost <= cur->apex_cost &&
            covers(s, cur, k, slack)) {
            return true;
        }
        if ((n->flags & WF_NODE_HAS_SHADOW) == 0) {
            break;
        }
        i = pool->funnels[i].shadow;
    }
    return false;
}

/// A way from the expanded node's wedge cur (a lower bound `least` on its
/// total) could seed a later layer at node `next` (n, reached), which a
/// bound test would skip it for: the test is kept off then.
static inline bool may_seed(const wf_node_pool* pool, search_kind kind, const wf_search_node* n,
                            uint32_t next, const wedge* cur, uint32_t cur_layer, float least,
                            float k) {
    return kind == SEARCH_TO_POLY && cur_layer + 1u < SEARCH_LAYERS &&
           least <= n->total * SEED_MARGIN &&
           !covers(&pool->funnels[next].wedge, cur, k, n->total * SEED_SLACK);
}

/// Relaxes every passable neighbour of an expanded node. Returns true when
/// a stop_on_reach search has just reached its goal.
/// `kind` is g->kind, passed apart so that each search's copy drops the
/// others' branches.
ALWAYS_INLINE static inline bool expand(wf_query* q, const wf_query_filter* filter,
                                        const search_goal* g, search_kind kind, uint32_t current,
                                        const wf_mesh_tile* tile, const wf_tile_poly* poly,
                                        wf_poly_ref parent_ref, bool* out_of_nodes,
                                        uint32_t* held) {
    wf_node_pool* pool = &q->nodes;
    const wf_poly_ref cur_ref = pool->nodes[current].ref;
    const wedge cur_wedge = pool->funnels[current].wedge; // never a neighbour of itself
    const wedge_sides sides = wedge_sides_of(&cur_wedge);
    bend_memo memo;
    memo.valid = 0;
    // Layers of states (path searches only). Layer 0 is the search as it
    // always was, one state per polygon: the way with the lowest total
    // wins, though a dearer one may bend less later (a wedge that points
    // at the goal past an obstacle the corridor must go round). A way a
    // layer turns down, whose window the winning state cannot reach for
    // less (see covers_window), goes to the next layer's state of that
    // polygon (a node outside the hash), and that state's descendants stay
    // in its layer: they compete only there, and with every layer at the
    // goal. Layer 0 evolves as it did alone, so no path gets longer.
    const uint32_t cur_layer = kind == SEARCH_TO_POLY ? layer_of(&pool->nodes[current]) : 0u;
    const bool in_shadow = cur_layer != 0;
    const float cur_total = pool->nodes[current].total;
    uint32_t poly_index = wf_tile_poly_index(tile, poly);
    bool via_offmesh = wf_poly_type(poly) == WF_POLY_TYPE_OFFMESH;
    float k_here =
        filter->area_cost[tile->poly_areas[poly_index]] * wf_query_poly_scale(q, cur_ref);
    // A lower bound on any neighbour's total (see its use below; worked
    // out when a reached neighbour first needs it); the margin covers
    // float rounding in the totals.
    float bound = -1.0f;
    // The goal point entry points aim at (box searches: the box centre).
    const wf_vec3 target =
        kind == SEARCH_TO_POLY ? g->end_pos : wf_v3_scale(wf_v3_add(g->box_min, g->box_max), 0.5f);
    // Each link's portal, and whether it repeats an earlier link to the
    // same neighbour, come from the tile's portal records (wf_link_portal,
    // made when the links were): between ground polygons every link to one
    // neighbour gives the same portal, so only the first is relaxed.
    for (uint32_t k = tile->first_link[poly_index]; k != WF_NULL_LINK; k = tile->links[k].next) {
        const wf_link_portal* lp = &tile->link_portals[k];
        wf_poly_ref next_ref = wf_poly_ref_from_u64(tile->links[k].ref);
        if (lp->repeat != 0 || wf_poly_ref_is_null(next_ref) || next_ref.bits == parent_ref.bits) {
            continue; // going back never gets cheaper
        }
        // Into a pocket without the goal: every way through it comes back
        // here, so it is skipped as a dead end is (below).
        if (lp->pocket != 0 && g->skip_dead_ends &&
            (wf_poly_ref_tile(next_ref) != g->goal_tile ||
             g->goal_number - lp->number >= lp->pocket_size)) {
            continue;
        }
        const wf_mesh_tile* next_tile;
        const wf_tile_poly* next_poly;
        wf_mesh_resolve_unchecked(q->mesh, next_ref, &next_tile, &next_poly);
        uint32_t next_index = wf_poly_ref_poly(next_ref);
        if (!wf_filter_passes(filter, next_tile, next_index)) {
            continue;
        }
        bool reaches_end = kind == SEARCH_TO_POLY && next_ref.bits == g->end_ref.bits;
        if (reaches_end && g->stop_on_reach) {
            return true;
        }
        // A neighbour whose links all lead back here is a dead end: a way
        // through it can only turn back, so it never carries a path to the
        // goal (it is no goal itself). Its first link is tested first: it
        // leads elsewhere for nearly every neighbour.
        uint32_t back = next_tile->first_link[next_index];
        if (back != WF_NULL_LINK && next_tile->links[back].ref == cur_ref.bits &&
            g->skip_dead_ends && !reaches_end && wf_poly_type(next_poly) == WF_POLY_TYPE_GROUND) {
            do {
                back = next_tile->links[back].next;
            } while (back != WF_NULL_LINK && next_tile->links[back].ref == cur_ref.bits);
            if (back == WF_NULL_LINK) {
                continue;
            }
        }
        uint32_t next = wf_node_pool_get(pool, next_ref);
        if (next == WF_NO_NODE) {
            *out_of_nodes = true;
            continue;
        }
        const uint32_t primary = next;
        if (in_shadow && !reaches_end) {
            for (uint32_t l = 0; l < cur_layer && next != WF_NO_NODE; ++l) {
                next = shadow_of(pool, next);
            }
            if (next == WF_NO_NODE) {
                continue; // (further states are optional)
            }
            if (dominated_apex(pool, primary, next, &cur_wedge, k_here,
                               cur_total * (0.5f * SEED_SLACK))) {
                continue;
            }
        }
        wf_search_node* n = &pool->nodes[next];
        // No way through this portal can cost less than going straight
        // from the apex towards the goal at the lower of the area cost and
        // the heuristic's weight: a neighbour reached for that already
        // keeps its way (the relax test below would turn this one down).
        // (Not where this way could seed a later layer: see below.)
        // least > 0: a lower bound on this way's total that n already
        // keeps its way for, so the way only matters if it seeds a later
        // layer (see the seed test below).
        float least = 0.0f;
        if (!reaches_end && (n->flags & NODE_REACHED) != 0) {
            if (bound < 0.0f) {
                float k_min = k_here < g->h_scale ? k_here : g->h_scale;
                bound = (cur_wedge.apex_cost + goal_distance_of(kind, g, cur_wedge.apex) * k_min) *
                        0.99999f;
            }
            if (n->total <= bound) {
                if (!may_seed(pool, kind, n, next, &cur_wedge, cur_layer, bound, k_here)) {
                    continue;
                }
                least = bound;
            }
        }
        wf_vec3 left = wf_v3(lp->left[0], lp->left[1], lp->left[2]);
        wf_vec3 right = wf_v3(lp->right[0], lp->right[1], lp->right[2]);
        // The way to the portal runs straight from the wedge's apex (see
        // wf_search_node); the search enters the next polygon at the point
        // of the portal seen from there that is best towards the goal.
        float k_next =
            filter->area_cost[next_tile->poly_areas[next_index]] * wf_query_poly_scale(q, next_ref);
        wedge w;
        wf_vec3 window_left, window_right;
        bool cut_left = false, cut_right = false;
        int side = wedge_narrow_fresh(&cur_wedge, &sides, left, right, &w, &window_left,
                                      &window_right, &cut_left, &cut_right);
        if (side != 0) {
            // Wholly beyond a side: the way bends round that side's vertex.
            // Every way through the portal then goes apex -> corner ->
            // (more bends) -> entry point -> goal, so the corner gives a
            // lower bound on its total: a neighbour already reached for
            // no more keeps its way, without the replay (the relax test
            // below would turn this one down; on hilly meshes of small
            // polygons most expansions have such a sideways neighbour).
            if (!reaches_end && (n->flags & NODE_REACHED) != 0) {
                wf_vec3 corner = side < 0 ? cur_wedge.left : cur_wedge.right;
                float k_min = k_here < g->h_scale ? k_here : g->h_scale;
                float bent =
                    (cur_wedge.apex_cost + wf_v3_distance(cur_wedge.apex, corner) * k_here +
                     goal_distance_of(kind, g, corner) * k_min) *
                    0.99999f;
                if (n->total <= bent) {
                    if (!may_seed(pool, kind, n, next, &cur_wedge, cur_layer, bent, k_here)) {
                        continue;
                    }
                    least = bent;
                }
            }
            w = cur_wedge;
            if ((side < 0 ? w.left_node : w.right_node) == current) {
                // The vertex is on this node's own portal: nothing to
                // replay, and the portal passes the fresh, open wedge
                // whole (what wedge_pass does here, without its lists).
                wedge_bend(&w, side, k_here);
                w.left = window_left = left;
                w.right = window_right = right;
                w.left_node = w.right_node = FRESH_NODE(0);
            } else {
                // (Through a copy: w's address never escapes, so it can
                // stay in registers.)
                wedge_portal fresh = {left, right, FRESH_NODE(0)};
                wedge bent;
                wedge_pass_side(pool, current, &cur_wedge, side, &memo, &fresh, k_here, &bent,
                                &window_left, &window_right);
                w = bent;
                cut_left = window_left.x != left.x || window_left.z != left.z;
                cut_right = window_right.x != right.x || window_right.z != right.z;
            }
        }
        // A later layer's way that a lower layer's state covers is dropped
        // here, before its entry point is worked out (most later-layer ways
        // are; the slack is a share of the expanded node's total).
        if (in_shadow && !reaches_end &&
            dominated(pool, primary, next, &w, window_left, window_right, k_here,
                      cur_total * SEED_SLACK)) {
            continue;
        }
        bool restart =
            via_offmesh || k_next != k_here || wf_poly_type(next_poly) == WF_POLY_TYPE_OFFMESH;
        // A way n turns down whatever its entry point (least > 0) seeds no
        // later layer when n's state reaches its window for no more: the
        // seed test below with a slack no larger than its own (a share of
        // least, not of the total), so it needs no entry point. (A restart
        // moves w's apex first, so it is left to the full test.)
        if (least > 0.0f && !restart &&
            covers_window_early(&pool->funnels[next].wedge, &w, window_left, window_right, k_here,
                                least * SEED_SLACK, layer_of(n) == 0)) {
            continue;
        }
        float cost, distance, est_cost, est_distance;
        wf_vec3 pos =
            entry_point(kind, target, &w, left, right, window_left, window_right, cut_left,
                        cut_right, k_here, &cost, &distance, &est_cost, &est_distance);
        float entry_cost = cost;
        float heuristic;
        if (reaches_end) {
            if (!restart) {
                // The end as a last, one-point portal: the way bends round
                // a wedge side if the end lies beyond it. Inside the wedge
                // (usually) it is the pass through the portal, then
                // straight on.
                wedge e = w;
                if (beyond_right(&w, g->end_pos) || beyond_left(&w, g->end_pos)) {
                    wedge_portal fresh[2] = {{left, right, FRESH_NODE(0)},
                                             {g->end_pos, g->end_pos, FRESH_NODE(1)}};
                    wf_vec3 end_left, end_right;
                    e = cur_wedge;
                    wedge_pass(pool, current, &e, fresh, 2, k_here, &end_left, &end_right);
                }
                cost = straight_cost(&e, g->end_pos, k_here);
            } else {
                cost += wf_v3_distance(pos, g->end_pos) * k_next;
            }
            heuristic = 0.0f;
        } else {
            heuristic = (kind == SEARCH_TO_POLY ? distance : goal_distance(g, pos)) * g->h_scale;
        }
        if (restart) {
            // A straight line cannot cross a change of price or a jump: the
            // way restarts from the entry point.
            w.apex = w.left = w.right = pos;
            w.apex_cost = entry_cost;
        }
        // Totals compare ways through different parts of a portal fairly;
        // a node that has been a parent never takes a descendant as its
        // parent, so parent chains stay trees.
        float total = cost + heuristic;
        if (kind == SEARCH_TO_POLY && !reaches_end && !restart) {
            total = est_cost + est_distance * g->h_scale;
        }
        if (turned_down(pool, n, next, current, total)) {
            // Turned down by a way with a dearer apex: a later layer's
            // state here, the first that takes it.
            if (kind != SEARCH_TO_POLY || reaches_end) {
                continue;
            }
            do {
                if (layer_of(n) + 1u >= SEARCH_LAYERS || total > n->total * SEED_MARGIN ||
                    covers_window(&pool->funnels[next].wedge, &w, window_left, window_right, k_here,
                                  total * SEED_SLACK, layer_of(n) == 0) ||
                    (next = shadow_of(pool, next)) == WF_NO_NODE) {
                    break;
                }
                n = &pool->nodes[next];
            } while (turned_down(pool, n, next, current, total));
            if (next == WF_NO_NODE || turned_down(pool, n, next, current, total)) {
                continue;
            }
        }
        n->pos = pos;
        n->cost = cost;
        n->total = total;
        wf_search_funnel* fu = &pool->funnels[next];
        fu->wedge.apex = w.apex;
        fu->wedge.left = w.left;
        fu->wedge.right = w.right;
        fu->wedge.apex_cost = w.apex_cost;
        fu->wedge.left_node = w.left_node == FRESH_NODE(0) ? next : w.left_node;
        fu->wedge.right_node = w.right_node == FRESH_NODE(0) ? next : w.right_node;
        // (Copied from the record, not from the registers: the funnel
        // record's wider loads would wait on store forwarding otherwise.)
        memcpy(&fu->portal_left, lp->left, sizeof fu->portal_left);
        memcpy(&fu->portal_right, lp->right, sizeof fu->portal_right);
        n->parent = current;
        n->flags = (n->flags & ~(uint32_t)WF_NODE_PARENT_OFFMESH) |
                   (via_offmesh ? WF_NODE_PARENT_OFFMESH : 0u);
        if ((n->flags & WF_NODE_OPEN) == 0) {
            // A newly opened node: the cheapest of them is held out of the
            // open list (see search_step), the others pushed.
            n->flags = (n->flags & ~(uint32_t)WF_NODE_CLOSED) | WF_NODE_OPEN;
            uint32_t push = next;
            if (*held == WF_NO_NODE) {
                *held = next;
                continue;
            }
            if (wf_open_key(total, next) < wf_open_key(pool->nodes[*held].total, *held)) {
                push = *held;
                *held = next;
            }
            wf_open_list_push(&q->open, pool, push);
        } else if (next != *held) {
            wf_open_list_update(&q->open, pool, next);
        }
    }
    return false;
}

/// Runs up to max_iterations expansions. WF_IN_PROGRESS, WF_OK (goal node
/// in *goal_node), WF_PARTIAL (open list empty) or WF_ERR_STALE_REF.
/// `sliced`: the mesh may have changed since the search began, so every
/// expanded node and its parent are checked; a search run whole within one
/// call reaches live polygons only (through the links of live tiles).
static wf_status search_step(wf_query* q, const wf_query_filter* filter, const search_goal* g,
                             uint32_t max_iterations, uint32_t* out_iterations, uint32_t* goal_node,
                             bool* out_of_nodes, bool sliced) {
    wf_node_pool* pool = &q->nodes;
    uint32_t iterations = 0;
    wf_status status = WF_IN_PROGRESS;
    // The cheapest node the last expansion opened, kept out of the open
    // list: where it comes before the list's first (a way along a corridor,
    // mostly) it is expanded next without a push and a pop. The same node
    // as the pop would give (keys are unique), so the same search.
    uint32_t held = WF_NO_NODE;
    while (iterations < max_iterations) {
        uint32_t current = held;
        held = WF_NO_NODE;
        if (current == WF_NO_NODE ||
            (q->open.count > 0 &&
             q->open.heap[0].key < wf_open_key(pool->nodes[current].total, current))) {
            if (current != WF_NO_NODE) {
                wf_open_list_push(&q->open, pool, current);
            }
            current = wf_open_list_pop(&q->open, pool);
        }
        if (current == WF_NO_NODE) {
            status = WF_PARTIAL;
            break;
        }
        wf_search_node* n = &pool->nodes[current];
        // Only main-search (layer 0) expansions spend the budget: the
        // later layers' seeded ways must not shrink how far a caller's
        // slice of max_iterations gets (the crowd takes the partial path
        // when its slice ends).
        iterations += layer_of(n) == 0 ? 1u : 0u;
        n->flags = (n->flags & ~(uint32_t)WF_NODE_OPEN) | WF_NODE_CLOSED | WF_NODE_EXPANDED;
        // A sliced search may see tiles removed between updates.
        const wf_mesh_tile* tile;
        const wf_tile_poly* poly;
        wf_poly_ref parent_ref = {0};
        if (n->parent != WF_NO_NODE) {
            parent_ref = pool->nodes[n->parent].ref;
        }
        if (!sliced) {
            wf_mesh_resolve_unchecked(q->mesh, n->ref, &tile, &poly);
        } else if (wf_mesh_resolve(q->mesh, n->ref, &tile, &poly) != WF_OK ||
                   (n->parent != WF_NO_NODE && wf_mesh_check_poly(q->mesh, parent_ref) != WF_OK)) {
            status = WF_ERR_STALE_REF;
            break;
        }
        if (g->kind == SEARCH_TO_POLY ? n->ref.bits == g->end_ref.bits
                                      : is_goal(q, g, current, tile, poly)) {
            *goal_node = current;
            status = WF_OK;
            break;
        }
        // (The common path search gets its own copy of expand.)
        bool stop = g->kind == SEARCH_TO_POLY ? expand(q, filter, g, SEARCH_TO_POLY, current, tile,
                                                       poly, parent_ref, out_of_nodes, &held)
                                              : expand(q, filter, g, g->kind, current, tile, poly,
                                                       parent_ref, out_of_nodes, &held);
        if (stop) {
            *goal_node = current;
            status = WF_OK;
            break;
        }
    }
    if (held != WF_NO_NODE) {
        wf_open_list_push(&q->open, pool, held); // the list holds every open node between calls
    }
    if (out_iterations != NULL) {
        *out_iterations = iterations;
    }
    return status;
}

/// The reached polygon nearest to the goal (ties: lower cost, then lower
/// node index) for partial results. Off-mesh links are left out: a path
/// must not stop half-way through a jump.
static uint32_t best_reached_node(const wf_query* q, const search_goal* g) {
    uint32_t best = WF_NO_NODE;
    float best_distance = 0.0f, best_cost = 0.0f;
    for (uint32_t i = 0; i < q->nodes.count; ++i) {
        const wf_search_node* n = &q->nodes.nodes[i];
        // A later layer's state is a way its polygon's layer-0 state beat
        // (that one is always in the pool too), so a partial path ends on
        // layer 0.
        if ((n->flags & NODE_REACHED) == 0 || layer_of(n) != 0) {
            continue;
        }
        if (n->parent != WF_NO_NODE && wf_mesh_is_offmesh_link(q->mesh, n->ref)) {
            continue;
        }
        float d = goal_distance(g, n->pos);
        if (best == WF_NO_NODE || d < best_distance ||
            (d == best_distance && n->cost < best_cost)) {
            best = i;
            best_distance = d;
            best_cost = n->cost;
        }
    }
    return best;
}

/// Writes the start..target chain into path, keeping the start part when
/// it does not fit. out->flags must hold the search's flags already.
/// `sliced`: the polygons are checked again (the mesh may have changed
/// since the search).
static wf_status write_path(const wf_query* q, uint32_t target, wf_poly_ref* path,
                            uint32_t max_path, wf_path_result* out, bool sliced) {
    const wf_search_node* nodes = q->nodes.nodes;
    uint32_t length = 0;
    // Parent chains are trees (see expand); the bound only guards the loop.
    for (uint32_t i = target; i != WF_NO_NODE && length <= q->nodes.count; i = nodes[i].parent) {
        length++;
    }
    uint32_t keep = length < max_path ? length : max_path;
    uint32_t last = target;
    for (uint32_t s = keep; s < length; ++s) {
        last = nodes[last].parent;
    }
    uint32_t i = last;
    for (uint32_t w = keep; w > 0; --w) {
        if (sliced && wf_mesh_check_poly(q->mesh, nodes[i].ref) != WF_OK) {
            out->count = 0;
            out->flags = 0;
            out->cost = 0.0f;
            return WF_ERR_STALE_REF; // the mesh changed after the search
        }
        path[w - 1] = nodes[i].ref;
        i = nodes[i].parent;
    }
    if (keep < length) {
        out->flags |= WF_PATH_BUFFER_FULL;
    }
    out->count = keep;
    out->cost = nodes[last].cost;
    return out->flags == 0 ? WF_OK : WF_PARTIAL;
}

static void clear_result(wf_path_result* out) {
    if (out != NULL) {
        out->count = 0;
        out->flags = 0;
        out->cost = 0.0f;
    }
}

static uint32_t partial_flags(bool out_of_nodes) {
    return WF_PATH_PARTIAL | (out_of_nodes ? WF_PATH_OUT_OF_NODES : 0u);
}

/// The goal of the sliced search, rebuilt from its stored state.
static search_goal sliced_goal(const wf_query* q) {
    search_goal g;
    memset(&g, 0, sizeof g);
    g.kind = SEARCH_TO_POLY;
    g.end_ref = q->sliced.end_ref;
    g.end_pos = q->sliced.end_pos;
    g.h_scale = H_SCALE;
    return g;
}

/// The sliced search is over (finished, or its nodes reused by another).
/// (Only the fields read while no search is active are reset: every query
/// passes here, and the rest is written by begin before it is read.)
static void end_sliced(wf_query* q) {
    q->exact.active = false;
    q->sliced.status = WF_OK;
    q->sliced.active = false;
    q->sliced.best_node = WF_NO_NODE;
    q->sliced.out_of_nodes = false;
}

wf_status wf_query_begin_path(wf_query* query, wf_poly_ref start_ref, wf_poly_ref end_ref,
                              wf_vec3 start_pos, wf_vec3 end_pos, const wf_query_filter* filter) {
    WF_CHECK_ARG(query != NULL && filter != NULL);
    WF_CHECK_ARG(!wf_poly_ref_is_null(start_ref) && !wf_poly_ref_is_null(end_ref));
    WF_CHECK_ARG(wf_v3_is_finite(start_pos) && wf_v3_is_finite(end_pos));
    WF_CHECK_ARG(filter_is_valid(filter));
    if (filter->path_mode == WF_PATH_MODE_EXACT) {
        return wf_exact_begin_path(query, start_ref, end_ref, start_pos, end_pos, filter);
    }
    wf_status s = wf_mesh_check_poly(query->mesh, start_ref);
    if (s == WF_OK) {
        s = wf_mesh_check_poly(query->mesh, end_ref);
    }
    if (s != WF_OK) {
        return s;
    }
    wf_sliced_search* ss = &query->sliced;
    end_sliced(query);
    ss->status = WF_IN_PROGRESS;
    ss->active = true;
    ss->start_ref = start_ref;
    ss->end_ref = end_ref;
    ss->start_pos = start_pos;
    ss->end_pos = end_pos;
    ss->filter = *filter;
    search_goal g = sliced_goal(query);
    search_start(query, &ss->filter, &g, start_ref, start_pos);
    return WF_OK;
}

wf_status wf_query_update_path(wf_query* query, uint32_t max_iterations, uint32_t* out_iterations) {
    if (out_iterations != NULL) {
        *out_iterations = 0;
    }
    if (query != NULL && query->exact.active) {
        return wf_exact_update_path(query, max_iterations, out_iterations);
    }
    WF_CHECK_ARG(query != NULL && query->sliced.active);
    wf_sliced_search* ss = &query->sliced;
    if (ss->status != WF_IN_PROGRESS) {
        return ss->status;
    }
    search_goal g = sliced_goal(query);
    uint32_t goal_node = WF_NO_NODE;
    ss->status = search_step(query, &ss->filter, &g, max_iterations, out_iterations, &goal_node,
                             &ss->out_of_nodes, true);
    if (ss->status == WF_OK) {
        ss->best_node = goal_node;
    }
    return ss->status;
}

/// Ends the sliced search with the path to `target` (WF_NO_NODE: the best
/// partial node).
static wf_status finish_sliced(wf_query* query, uint32_t target, wf_poly_ref* path,
                               uint32_t max_path, wf_path_result* out) {
    wf_sliced_search* ss = &query->sliced;
    wf_status status = ss->status;
    clear_result(out);
    if (status < 0) {
        end_sliced(query);
        return status;
    }
    if (target == WF_NO_NODE) {
        if (status == WF_OK) {
            target = ss->best_node;
        } else {
            search_goal g = sliced_goal(query);
            target = best_reached_node(query, &g);
            out->flags = partial_flags(ss->out_of_nodes);
        }
    }
    wf_status s = write_path(query, target, path, max_path, out, true);
    end_sliced(query);
    return s;
}

wf_status wf_query_finish_path(wf_query* query, wf_poly_ref* path, uint32_t max_path,
                               wf_path_result* out) {
    clear_result(out);
    WF_CHECK_ARG(query != NULL && path != NULL && out != NULL && max_path > 0);
    if (query->exact.active) {
        return wf_exact_finish_path(query, NULL, 0, path, max_path, out);
    }
    WF_CHECK_ARG(query->sliced.active);
    return finish_sliced(query, WF_NO_NODE, path, max_path, out);
}

wf_status wf_query_finish_partial_path(wf_query* query, const wf_poly_ref* existing,
                                       uint32_t existing_count, wf_poly_ref* path,
                                       uint32_t max_path, wf_path_result* out) {
    clear_result(out);
    WF_CHECK_ARG(query != NULL && existing != NULL && path != NULL && out != NULL);
    WF_CHECK_ARG(existing_count > 0 && max_path > 0);
    if (query->exact.active) {
        return wf_exact_finish_path(query, existing, existing_count, path, max_path, out);
    }
    WF_CHECK_ARG(query->sliced.active);
    uint32_t target = WF_NO_NODE;
    if (query->sliced.status >= 0) {
        // The old corridor's furthest polygon this search reached: the
        // caller keeps the corridor from there on.
        for (uint32_t i = existing_count; i-- > 0;) {
            uint32_t n = wf_node_pool_find(&query->nodes, existing[i]);
            if (n != WF_NO_NODE && (query->nodes.nodes[n].flags & NODE_REACHED) != 0) {
                target = n;
                break;
            }
        }
    }
    // None on it: the goal if found, else the best partial path.
    return finish_sliced(query, target, path, max_path, out);
}

/// The corridor of a straight line, found without a search: when the line
/// from start_pos to end_pos stays on the surface (it leaves each polygon
/// strictly inside a portal, and ends in end_ref) and every polygon it
/// crosses costs the least per metre that any polygon can (the filter's
/// lowest area cost, no cost scale), no way is cheaper and none is shorter,
/// so the polygons it crosses are a corridor the search could at best
/// match. Writes them to path and returns true; false (out untouched) when
/// the line meets a wall, passes through a vertex, crosses a dearer
/// polygon, ends in another polygon over or under end_pos, or has more
/// polygons than the path or the node pool holds (then the search decides).
static bool straight_corridor(wf_query* q, wf_poly_ref start_ref, wf_poly_ref end_ref,
                              wf_vec3 start_pos, wf_vec3 end_pos, const wf_query_filter* filter,
                              wf_poly_ref* path, uint32_t max_path, wf_path_result* out) {
    if (q->cost_scale != NULL) {
        return false;
    }
    const wf_vec3 dir = wf_v3_sub(end_pos, start_pos);
    wf_poly_ref cur = start_ref;
    const wf_mesh_tile* tile;
    const wf_tile_poly* poly;
    wf_mesh_resolve_unchecked(q->mesh, cur, &tile, &poly);
    if (wf_poly_type(poly) != WF_POLY_TYPE_GROUND) {
        return false;
    }
    // Every polygon crossed costs k_line (the least of all, checked at the end).
    const float k_line = filter->area_cost[tile->poly_areas[wf_tile_poly_index(tile, poly)]];
    for (uint32_t count = 0;;) {
        uint32_t index = wf_tile_poly_index(tile, poly);
        // (No more polygons than the search could reach with its nodes: a
        // pool too small for the corridor fails alike either way.)
        if (count == max_path || count == q->nodes.capacity ||
            filter->area_cost[tile->poly_areas[index]] != k_line) {
            return false;
        }
        path[count++] = cur;
        uint32_t n = poly->vert_count;
        wf_vec3 v[WF_MAX_VERTS_PER_POLY];
        float side[WF_MAX_VERTS_PER_POLY]; // which side of the line each vertex lies on
        for (uint32_t i = 0; i < n; ++i) {
            v[i] = wf_tile_vertex(tile, poly->verts[i]);
            side[i] = wf_v2_perp(dir, wf_v3_sub(v[i], start_pos));
        }
        if (count == 1u) {
            // The line starts inside the start polygon (or on its border).
            for (uint32_t i = 0, j = n - 1u; i < n; j = i++) {
                if (wf_v2_perp(wf_v3_sub(v[i], v[j]), wf_v3_sub(start_pos, v[j])) < 0.0f) {
                    return false;
                }
            }
        }
        if (cur.bits == end_ref.bits) {
            for (uint32_t i = 0, j = n - 1u; i < n; j = i++) {
                if (wf_v2_perp(wf_v3_sub(v[i], v[j]), wf_v3_sub(end_pos, v[j])) < 0.0f) {
                    return false; // end_pos is not in end_ref (seen from above)
                }
            }
            for (uint32_t i = 0; i < WF_MAX_AREAS; ++i) {
                if (filter->area_cost[i] < k_line) {
                    return false; // a way round through cheaper areas may cost less
                }
            }
            out->count = count;
            out->flags = 0;
            out->cost = wf_v3_distance(start_pos, end_pos) * k_line; // as the search prices it
            return true;
        }
        // The edge the line leaves through: crossed strictly between its
        // vertices, going out (the inside is on each edge's left).
        uint32_t exit = n;
        for (uint32_t i = 0, j = n - 1u; i < n; j = i++) {
            if (side[j] * side[i] < 0.0f && wf_v2_perp(wf_v3_sub(v[i], v[j]), dir) < 0.0f) {
                exit = j;
                break;
            }
        }
        if (exit == n) {
            return false; // through a vertex, or the polygon lies beside the line
        }
        wf_vec3 a = v[exit], b = v[exit + 1u == n ? 0u : exit + 1u];
        if (!(wf_v2_perp(wf_v3_sub(b, a), wf_v3_sub(end_pos, a)) < 0.0f)) {
            return false; // the line ends in this polygon, not end_ref
        }
        // The neighbour across that edge whose portal the line crosses
        // strictly inside (a tile-border edge may hold several).
        wf_poly_ref next = {0};
        for (uint32_t l = tile->first_link[index]; l != WF_NULL_LINK; l = tile->links[l].next) {
            const wf_tile_link* link = &tile->links[l];
            if (link->edge != exit) {
                continue;
            }
            if (link->side != 0xff) {
                const wf_link_portal* lp = &tile->link_portals[l];
                float sl = wf_v2_perp(
                    dir, wf_v3(lp->left[0] - start_pos.x, 0.0f, lp->left[2] - start_pos.z));
                float sr = wf_v2_perp(
                    dir, wf_v3(lp->right[0] - start_pos.x, 0.0f, lp->right[2] - start_pos.z));
                if (!(sl * sr < 0.0f)) {
                    continue;
                }
            }
            next = wf_poly_ref_from_u64(link->ref);
            break;
        }
        if (wf_poly_ref_is_null(next)) {
            return false; // a wall
        }
        cur = next;
        wf_mesh_resolve_unchecked(q->mesh, cur, &tile, &poly);
        if (wf_poly_type(poly) != WF_POLY_TYPE_GROUND ||
            !wf_filter_passes(filter, tile, wf_tile_poly_index(tile, poly))) {
            return false;
        }
    }
}

wf_status wf_query_find_path(wf_query* query, wf_poly_ref start_ref, wf_poly_ref end_ref,
                             wf_vec3 start_pos, wf_vec3 end_pos, const wf_query_filter* filter,
                             wf_poly_ref* path, uint32_t max_path, wf_path_result* out) {
    clear_result(out);
    WF_CHECK_ARG(path != NULL && out != NULL && max_path > 0);
    WF_CHECK_ARG(query != NULL && filter != NULL);
    if (filter->path_mode == WF_PATH_MODE_EXACT) {
        wf_status s = wf_query_begin_path(query, start_ref, end_ref, start_pos, end_pos, filter);
        if (s != WF_OK) {
            return s;
        }
        do {
            s = wf_query_update_path(query, UINT32_MAX, NULL);
        } while (s == WF_IN_PROGRESS);
        return wf_query_finish_path(query, path, max_path, out);
    }
    // The sliced search run whole, without copying the filter into the
    // sliced state (the same steps as begin, update and finish).
    WF_CHECK_ARG(!wf_poly_ref_is_null(start_ref) && !wf_poly_ref_is_null(end_ref));
    WF_CHECK_ARG(wf_v3_is_finite(start_pos) && wf_v3_is_finite(end_pos));
    WF_CHECK_ARG(filter_is_valid(filter));
    wf_status s = wf_mesh_check_poly(query->mesh, start_ref);
    if (s == WF_OK) {
        s = wf_mesh_check_poly(query->mesh, end_ref);
    }
    if (s != WF_OK) {
        return s;
    }
    end_sliced(query);
    if (straight_corridor(query, start_ref, end_ref, start_pos, end_pos, filter, path, max_path,
                          out)) {
        // The pool's nodes are another search's: the straight path must
        // not take their portals for this corridor's.
        wf_node_pool_clear(&query->nodes);
        wf_open_list_clear(&query->open);
        return WF_OK;
    }
    search_goal g;
    memset(&g, 0, sizeof g);
    g.kind = SEARCH_TO_POLY;
    g.end_ref = end_ref;
    g.end_pos = end_pos;
    g.h_scale = H_SCALE;
    g.skip_dead_ends = true;
    g.goal_tile = wf_poly_ref_tile(end_ref);
    g.goal_number = wf_mesh_pocket_number(query->mesh, end_ref);
    search_start(query, filter, &g, start_ref, start_pos);
    uint32_t target = WF_NO_NODE;
    bool out_of_nodes = false;
    do {
        s = search_step(query, filter, &g, UINT32_MAX, NULL, &target, &out_of_nodes, false);
    } while (s == WF_IN_PROGRESS);
    if (s == WF_PARTIAL) {
        // No path: the partial one goes to the reached polygon nearest the
        // goal, dead ends included, so search again relaxing them.
        g.skip_dead_ends = false;
        out_of_nodes = false;
        search_start(query, filter, &g, start_ref, start_pos);
        do {
            s = search_step(query, filter, &g, UINT32_MAX, NULL, &target, &out_of_nodes, false);
        } while (s == WF_IN_PROGRESS);
    }
    if (s < 0) {
        return s;
    }
    if (s != WF_OK) {
        target = best_reached_node(query, &g);
        out->flags = partial_flags(out_of_nodes);
    }
    return write_path(query, target, path, max_path, out, false);
}

/// Runs a whole non-sliced search from start_ref.
static wf_status run_search(wf_query* query, const wf_query_filter* filter, const search_goal* g,
                            wf_poly_ref start_ref, wf_vec3 start_pos, uint32_t* goal_node,
                            bool* out_of_nodes) {
    wf_query_begin_search(query);
    search_start(query, filter, g, start_ref, start_pos);
    *goal_node = WF_NO_NODE;
    *out_of_nodes = false;
    wf_status s;
    do {
        s = search_step(query, filter, g, UINT32_MAX, NULL, goal_node, out_of_nodes, false);
    } while (s == WF_IN_PROGRESS);
    return s;
}

wf_status wf_query_path_exists(wf_query* query, wf_poly_ref start_ref, wf_poly_ref end_ref,
                               wf_vec3 start_pos, wf_vec3 end_pos, const wf_query_filter* filter,
                               bool* out_exists) {
    if (out_exists != NULL) {
        *out_exists = false;
    }
    WF_CHECK_ARG(query != NULL && filter != NULL && out_exists != NULL);
    WF_CHECK_ARG(!wf_poly_ref_is_null(start_ref) && !wf_poly_ref_is_null(end_ref));
    WF_CHECK_ARG(wf_v3_is_finite(start_pos) && wf_v3_is_finite(end_pos));
    WF_CHECK_ARG(filter_is_valid(filter));
    wf_status s = wf_mesh_check_poly(query->mesh, start_ref);
    if (s == WF_OK) {
        s = wf_mesh_check_poly(query->mesh, end_ref);
    }
    if (s != WF_OK) {
        return s;
    }
    search_goal g;
    memset(&g, 0, sizeof g);
    g.kind = SEARCH_TO_POLY;
    g.end_ref = end_ref;
    g.end_pos = end_pos;
    g.h_scale = H_SCALE;
    g.stop_on_reach = true;
    uint32_t goal_node;
    bool out_of_nodes;
    s = run_search(query, filter, &g, start_ref, start_pos, &goal_node, &out_of_nodes);
    if (s == WF_OK) {
        *out_exists = true;
        return WF_OK;
    }
    if (s < 0) {
        return s;
    }
    return out_of_nodes ? WF_PARTIAL : WF_OK;
}

wf_status wf_query_find_path_to_box(wf_query* query, wf_poly_ref start_ref, wf_vec3 start_pos,
                                    wf_vec3 box_min, wf_vec3 box_max, const wf_query_filter* filter,
                                    wf_poly_ref* path, uint32_t max_path, wf_path_result* out,
                                    wf_vec3* out_goal) {
    clear_result(out);
    WF_CHECK_ARG(query != NULL && filter != NULL && path != NULL && out != NULL &&
                 out_goal != NULL && max_path > 0);
    WF_CHECK_ARG(!wf_poly_ref_is_null(start_ref) && wf_v3_is_finite(start_pos));
    WF_CHECK_ARG(box_is_valid(box_min, box_max));
    WF_CHECK_ARG(filter_is_valid(filter));
    wf_status s = wf_mesh_check_poly(query->mesh, start_ref);
    if (s != WF_OK) {
        return s;
    }
    search_goal g;
    memset(&g, 0, sizeof g);
    g.kind = SEARCH_TO_BOX;
    g.box_min = box_min;
    g.box_max = box_max;
    g.h_scale = H_SCALE;
    uint32_t target;
    bool out_of_nodes;
    s = run_search(query, filter, &g, start_ref, start_pos, &target, &out_of_nodes);
    if (s < 0) {
        return s;
    }
    bool reached = s == WF_OK;
    if (!reached) {
        target = best_reached_node(query, &g);
        out->flags = partial_flags(out_of_nodes);
    }
    const wf_search_node* n = &query->nodes.nodes[target];
    const wf_mesh_tile* tile;
    const wf_tile_poly* poly;
    wf_mesh_resolve_unchecked(query->mesh, n->ref, &tile, &poly);
    // The point of the reached polygon nearest the box centre, pulled into
    // the box (the polygon's bounds overlap it).
    wf_vec3 centre = wf_v3_scale(wf_v3_add(box_min, box_max), 0.5f);
    wf_vec3 goal;
    bool inside;
    wf_mesh_closest_point_on_poly(tile, poly, centre, &goal, &inside);
    if (reached) {
        goal = clamp_to_box(goal, box_min, box_max);
    }
    s = write_path(query, target, path, max_path, out, false);
    if (s >= 0) {
        *out_goal = goal;
        if ((out->flags & WF_PATH_BUFFER_FULL) == 0) {
            out->cost += wf_filter_cost(filter, n->pos, goal, tile, wf_tile_poly_index(tile, poly));
        }
    }
    return s;
}

wf_status wf_query_find_nearest_goal(wf_query* query, wf_poly_ref start_ref, wf_vec3 start_pos,
                                     const wf_poly_ref* goals, uint32_t goal_count,
                                     const wf_query_filter* filter, uint32_t* out_goal_index,
                                     wf_poly_ref* path, uint32_t max_path, wf_path_result* out) {
    clear_result(out);
    WF_CHECK_ARG(query != NULL && filter != NULL && goals != NULL && out_goal_index != NULL &&
                 path != NULL && out != NULL);
    WF_CHECK_ARG(goal_count > 0 && max_path > 0);
    WF_CHECK_ARG(!wf_poly_ref_is_null(start_ref) && wf_v3_is_finite(start_pos));
    WF_CHECK_ARG(filter_is_valid(filter));
    wf_status s = wf_mesh_check_poly(query->mesh, start_ref);
    for (uint32_t i = 0; i < goal_count && s == WF_OK; ++i) {
        WF_CHECK_ARG(!wf_poly_ref_is_null(goals[i]));
        s = wf_mesh_check_poly(query->mesh, goals[i]);
    }
    if (s != WF_OK) {
        return s;
    }
    search_goal g;
    memset(&g, 0, sizeof g);
    g.kind = SEARCH_TO_GOALS;
    g.goals = goals;
    g.goal_count = goal_count;
    // Marking needs a node per goal plus one for the start; when the pool
    // cannot hold them the per-node scan still gives the right answer.
    g.goals_marked = goal_count > NEAREST_GOAL_SCAN_MAX && goal_count < query->nodes.capacity;
    g.h_scale = 0.0f; // Dijkstra: the first goal popped is the cheapest
    uint32_t target;
    bool out_of_nodes;
    s = run_search(query, filter, &g, start_ref, start_pos, &target, &out_of_nodes);
    if (s < 0) {
        return s;
    }
    if (s != WF_OK) {
        if (out_of_nodes) {
            out->flags = partial_flags(true); // unknown beyond the nodes searched
        }
        return WF_ERR_NOT_FOUND;
    }
    wf_poly_ref reached = query->nodes.nodes[target].ref;
    uint32_t index = 0;
    while (goals[index].bits != reached.bits) {
        index++; // the first occurrence when a goal is listed twice
    }
    s = write_path(query, target, path, max_path, out, false);
    if (s >= 0) {
        *out_goal_index = index;
    }
    return s;
}
