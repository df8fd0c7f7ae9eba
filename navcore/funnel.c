// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Straight paths: string-pulls a polygon corridor into corner points with
// the funnel algorithm ("simple stupid funnel"), restarting at off-mesh
// links and optionally marking portal crossings.
//
// Output conventions:
// - Each point's ref is the polygon entered at it: path[0] for the start,
//   for a corner the corridor polygon that follows it, the link for an
//   off-mesh start, and for the end the last corridor polygon (the one the
//   end lies on, not null).
// - Points closer than WF_FUNNEL_SAME_POINT merge into one: flags are ORed,
//   the later ref wins. So start == end gives a single START|END point.
// - Off-mesh link in the corridor: its near end (flag OFFMESH, ref the link),
//   then its far end (ref the polygon after the link), and the funnel
//   restarts from there.
// - Two consecutive corridor polygons that are not linked (the mesh changed):
//   the path ends at the closest point to end_pos on the last polygon before
//   the break (flag END) and the status is WF_PARTIAL.
// - A path running exactly through a portal vertex may get a corner there
//   even when it does not turn (collinear counts as crossing): harmless.
#include "navcore/check.h"
#include "navcore/geometry.h"
#include "navcore/query_internal.h"

/// Points nearer than this (metres) are one point: portal vertices reached
/// by different routes (interpolated tile border portals, crossings that
/// land on a corner) differ by rounding only.
#define WF_FUNNEL_SAME_POINT 1e-4f

/// Portals the funnel keeps for its rewinds: after a corner it goes back to
/// the portal after the corner's and reads the portals since then again
/// (about 1.6 reads per portal on the Recast meshes), so the newest ones
/// are kept with whether the polygon after each is an off-mesh link.
#define FUNNEL_RING 32u

/// The newest portals read (see FUNNEL_RING); apart from the funnel
/// state, which is zeroed at the start, as this needs no clearing.
typedef struct portal_ring {
    wf_vec3 left[FUNNEL_RING], right[FUNNEL_RING];
    bool link[FUNNEL_RING]; ///< whether the polygon after the portal is an off-mesh link
} portal_ring;

typedef struct funnel {
    const wf_mesh* mesh;
    const wf_node_pool* pool; ///< the query's last search (see search_portal)
    bool pool_current;        ///< its portals hold for this mesh as it is now
    const wf_poly_ref* path;
    uint32_t count;   ///< corridor polygons used (cut at a break)
    uint32_t checked; ///< path[0..checked] are known to be live
    uint32_t options;
    wf_vec3 end; ///< end_pos clamped into path[count - 1]
    wf_vec3 end_pos;
    wf_status error; ///< a stale ref met on the way
    wf_straight_point* points;
    uint32_t max_points;
    uint32_t point_count;
    /// Whether path[link_index[k]] is an off-mesh link, for the two
    /// polygons last asked about (each portal asks about both its sides).
    uint32_t link_index[2];
    bool link_value[2];
    /// Portals [ring_end - FUNNEL_RING, ring_end) are in ring, portal i
    /// at slot i % FUNNEL_RING.
    uint32_t ring_end;
    portal_ring* ring;
} funnel;

static bool same_point_2d(wf_vec3 a, wf_vec3 b) {
    return wf_v2_distance_sq(a, b) < WF_FUNNEL_SAME_POINT * WF_FUNNEL_SAME_POINT;
}

/// Whether path[i] is an off-mesh link, looked up when the two last asked
/// about miss (kept out of the funnel's loop, which mostly hits).
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static bool
poly_is_link_lookup(funnel* f, uint32_t i) {
    const wf_mesh_tile* tile;
    const wf_tile_poly* poly;
    wf_mesh_resolve_unchecked(f->mesh, f->path[i], &tile, &poly);
    f->link_index[i & 1u] = i;
    f->link_value[i & 1u] = wf_poly_type(poly) == WF_POLY_TYPE_OFFMESH;
    return f->link_value[i & 1u];
}

static inline bool poly_is_link(funnel* f, uint32_t i) {
    return f->link_index[i & 1u] == i ? f->link_value[i & 1u] : poly_is_link_lookup(f, i);
}

static uint8_t poly_area(const funnel* f, uint32_t i) {
    const wf_mesh_tile* tile;
    const wf_tile_poly* poly;
    wf_mesh_resolve_unchecked(f->mesh, f->path[i], &tile, &poly);
    return tile->poly_areas[wf_tile_poly_index(tile, poly)];
}

/// Portal between path[i] and path[i + 1] (left/right walking forward):
/// the portal record of path[i]'s first link to path[i + 1], which the mesh
/// keeps as wf_mesh_portal_points gives it (see wf_link_portal), so no
/// geometry is worked out here. WF_ERR_NOT_FOUND if not linked.
static wf_status corridor_portal(const wf_mesh* mesh, const wf_poly_ref* path, uint32_t i,
                                 wf_vec3* out_left, wf_vec3* out_right) {
    const wf_mesh_tile* tile;
    const wf_tile_poly* poly;
    wf_mesh_resolve_unchecked(mesh, path[i], &tile, &poly);
    for (uint32_t k = tile->first_link[wf_tile_poly_index(tile, poly)]; k != WF_NULL_LINK;
         k = tile->links[k].next) {
        if (tile->links[k].ref == path[i + 1].bits) {
            const wf_link_portal* lp = &tile->link_portals[k];
            memcpy(out_left, lp->left, sizeof *out_left);
            memcpy(out_right, lp->right, sizeof *out_right);
            return WF_OK;
        }
    }
    return WF_ERR_NOT_FOUND;
}

static wf_vec3 clamp_to_poly(const wf_mesh* mesh, wf_poly_ref ref, wf_vec3 pos);

/// The portal between path[i] and path[i + 1] as the query's last path
/// search stored it, when that search entered path[i + 1] from path[i] (a
/// corridor it just found): the same wf_mesh_link_portal_counted result,
/// without finding the link again, while no tile has been added or removed
/// since that search.
#if defined(__GNUC__)
__attribute__((always_inline)) // once per portal read, in the funnel's loop
#endif
static inline bool
search_portal(const funnel* f, uint32_t i, wf_vec3* out_left, wf_vec3* out_right) {
    const wf_node_pool* pool = f->pool;
    if (!f->pool_current) {
        return false;
    }
    uint32_t node = wf_node_pool_find(pool, f->path[i + 1]);
    if (node == WF_NO_NODE) {
        return false;
    }
    uint32_t parent = pool->nodes[node].parent;
    if (parent == WF_NO_NODE || pool->nodes[parent].ref.bits != f->path[i].bits) {
        return false;
    }
    *out_left = pool->funnels[node].portal_left;
    *out_right = pool->funnels[node].portal_right;
    return true;
}

/// Portal i of the funnel: the corridor portal, or for the last polygon the
/// end point as a zero-width portal. Polygons are checked as the funnel
/// reaches them, not all up front: a crowd string-pulls long corridors
/// every frame but needs only their first corners. A pair that is not
/// linked ends the corridor there; a stale ref stops the funnel (false).
#if defined(__GNUC__)
__attribute__((always_inline)) // once per portal: no call in the funnel's loop
#endif
static inline bool
funnel_portal(funnel* f, uint32_t i, wf_vec3* out_left, wf_vec3* out_right) {
    if (i + 1 >= f->count) {
        *out_left = f->end;
        *out_right = f->end;
        return true;
    }
    if (i < f->ring_end && f->ring_end - i <= FUNNEL_RING) {
        // Read before (a rewind): path[i + 1] is checked already.
        uint32_t slot = i % FUNNEL_RING;
        *out_left = f->ring->left[slot];
        *out_right = f->ring->right[slot];
        f->link_index[(i + 1) & 1u] = i + 1;
        f->link_value[(i + 1) & 1u] = f->ring->link[slot];
        return true;
    }
    // A portal the last search stored also vouches for path[i + 1]: that
    // search reached it, and no tile came or went since.
    bool stored = search_portal(f, i, out_left, out_right);
    if (i + 1 > f->checked) {
        const wf_mesh_tile* tile;
        const wf_tile_poly* poly;
        if (stored) {
            wf_mesh_resolve_unchecked(f->mesh, f->path[i + 1], &tile, &poly);
        } else {
            wf_status status = wf_mesh_resolve(f->mesh, f->path[i + 1], &tile, &poly);
            if (status != WF_OK) {
                f->error = status;
                return false;
            }
        }
        f->checked = i + 1;
        f->link_index[(i + 1) & 1u] = i + 1;
        f->link_value[(i + 1) & 1u] = wf_poly_type(poly) == WF_POLY_TYPE_OFFMESH;
    }
    if (!stored && corridor_portal(f->mesh, f->path, i, out_left, out_right) != WF_OK) {
        f->count = i + 1;
        f->end = clamp_to_poly(f->mesh, f->path[i], f->end_pos);
        *out_left = f->end;
        *out_right = f->end;
        return true;
    }
    if (i == f->ring_end) {
        uint32_t slot = i % FUNNEL_RING;
        f->ring->left[slot] = *out_left;
        f->ring->right[slot] = *out_right;
        f->ring->link[slot] = poly_is_link(f, i + 1);
        f->ring_end = i + 1;
    }
    return true;
}

/// Clamps pos onto a polygon (an off-mesh link: onto its segment).
static wf_vec3 clamp_to_poly(const wf_mesh* mesh, wf_poly_ref ref, wf_vec3 pos) {
    const wf_mesh_tile* tile;
    const wf_tile_poly* poly;
    wf_mesh_resolve_unchecked(mesh, ref, &tile, &poly);
    wf_vec3 out;
    bool inside;
    wf_mesh_closest_point_on_poly(tile, poly, pos, &out, &inside);
    return out;
}

/// Appends a point, merging it into the previous one when they coincide.
/// False when it does not fit.
static bool append_point(funnel* f, wf_vec3 pos, uint32_t flags, wf_poly_ref ref) {
    if (f->point_count > 0) {
        wf_straight_point* last = &f->points[f->point_count - 1];
        if (same_point_2d(last->pos, pos) && fabsf(last->pos.y - pos.y) < WF_FUNNEL_SAME_POINT) {
            last->flags |= flags;
            last->ref = ref;
            return true;
        }
    }
    if (f->point_count == f->max_points) {
        return false;
    }
    f->points[f->point_count++] = (wf_straight_point){.pos = pos, .ref = ref, .flags = flags};
    return true;
}

/// Where segment a-b crosses portal (left, right) in XZ, with the height
/// interpolated along the portal. False when they are parallel.
static bool portal_crossing(wf_vec3 a, wf_vec3 b, wf_vec3 left, wf_vec3 right, wf_vec3* out) {
    wf_vec3 d = wf_v3_sub(b, a);
    wf_vec3 e = wf_v3_sub(right, left);
    float den = wf_v2_perp(d, e);
    if (fabsf(den) < 1e-12f) {
        return false;
    }
    float s = wf_v2_perp(d, wf_v3_sub(a, left)) / den;
    s = s < 0.0f ? 0.0f : (s > 1.0f ? 1.0f : s);
    *out = wf_v3_lerp(left, right, s);
    return true;
}

/// Appends the crossings of segment a-b with portals [first, last) that the
/// options ask for, then b itself.
static bool append_segment(funnel* f, wf_vec3 a, uint32_t first, uint32_t last, wf_vec3 b,
                           uint32_t flags, wf_poly_ref ref) {
    uint32_t wanted = WF_STRAIGHT_AREA_CROSSINGS | WF_STRAIGHT_ALL_CROSSINGS;
    if ((f->options & wanted) != 0 && !same_point_2d(a, b)) {
        for (uint32_t j = first; j < last; ++j) {
            if (poly_is_link(f, j) || poly_is_link(f, j + 1)) {
                continue; // links are handled as their own points
            }
            if ((f->options & WF_STRAIGHT_ALL_CROSSINGS) == 0 &&
                poly_area(f, j) == poly_area(f, j + 1)) {
                continue;
            }
            wf_vec3 left, right, cross;
            (void)funnel_portal(f, j, &left, &right); // visited already: live
            if (portal_crossing(a, b, left, right, &cross) &&
                !append_point(f, cross, 0, f->path[j + 1])) {
                return false;
            }
        }
    }
    return append_point(f, b, flags, ref);
}

/// Whether p stays on the inner side of the funnel's other edge apex->side
/// (sign: -1 inner is the right, +1 the left). A p exactly on that edge's
/// line counts as inside when it is no further than `side`: the funnel then
/// closes to a straight line through p instead of turning at a corner that
/// lies beyond p (a goal on the line of a portal edge).
#if defined(__GNUC__)
__attribute__((always_inline)) // twice per portal, in the funnel's loop
#endif
static inline bool
stays_inside(wf_vec3 apex, wf_vec3 side, wf_vec3 p, float inner_sign) {
    float area = wf_v2_triangle_area2(apex, side, p);
    if (area != 0.0f) {
        return area * inner_sign > 0.0f;
    }
    return wf_v2_distance_sq(apex, p) <= wf_v2_distance_sq(apex, side);
}

/// Runs the funnel over portals 0..count-1 (the last one being the end
/// point). Left/right tests use wf_v2_triangle_area2: > 0 means "to the
/// left of" the first two points. False when the output filled up.
static bool run_funnel(funnel* f, wf_vec3 start) {
    wf_vec3 apex = start, left = start, right = start;
    uint32_t apex_next = 0; // first portal not yet passed by the apex
    uint32_t left_index = 0, right_index = 0;
    for (uint32_t i = 0; i < f->count; ++i) {
        wf_vec3 pl, pr;
        if (!funnel_portal(f, i, &pl, &pr)) {
            return false;
        }
        if (i + 1 < f->count && poly_is_link(f, i)) {
            // Leaving an off-mesh link: continue from its far end.
            if (!append_point(f, pl, 0, f->path[i + 1])) {
                return false;
            }
            apex = left = right = pl;
            apex_next = i + 1;
            continue;
        }
        if (i == 0 && i + 1 < f->count && !poly_is_link(f, 1) &&
            wf_dist_point_segment_sq_2d(start, pl, pr, NULL) < 1e-6f) {
            // A start on the first portal has passed it already: narrowing
            // the funnel to it would turn the path back along the portal.
            continue;
        }
        // Right side: narrow it if pr is inside, or turn at the left corner
        // if pr crosses over the left side.
        if (wf_v2_triangle_area2(apex, right, pr) >= 0.0f) {
            // (The usual case first: the three tests only read.)
            if (stays_inside(apex, left, pr, -1.0f) || same_point_2d(apex, right) ||
                same_point_2d(pr, left)) {
                right = pr;
                right_index = i;
            } else {
                if (same_point_2d(pl, left)) {
                    left_index = i; // this portal also ends at the corner: leave by it
                }
                if (!append_segment(f, apex, apex_next, left_index, left, 0,
                                    f->path[left_index + 1])) {
                    return false;
                }
                apex = right = left;
                apex_next = left_index + 1;
                i = left_index; // the loop moves on to the portal after it
                continue;
            }
        }
        if (wf_v2_triangle_area2(apex, left, pl) <= 0.0f) {
            if (stays_inside(apex, right, pl, 1.0f) || same_point_2d(apex, left) ||
                same_point_2d(pl, right)) {
                left = pl;
                left_index = i;
            } else {
                if (same_point_2d(pr, right)) {
                    right_index = i;
                }
                if (!append_segment(f, apex, apex_next, right_index, right, 0,
                                    f->path[right_index + 1])) {
                    return false;
                }
                apex = left = right;
                apex_next = right_index + 1;
                i = right_index;
                continue;
            }
        }
        if (i + 1 < f->count && poly_is_link(f, i + 1)) {
            // Portal onto a link is its near end, a point the agent must
            // reach: the funnel ends there and restarts at the far end.
            if (!append_segment(f, apex, apex_next, i, pl, WF_STRAIGHT_OFFMESH, f->path[i + 1])) {
                return false;
            }
            apex = left = right = pl;
            apex_next = i + 1;
        }
    }
    return append_segment(f, apex, apex_next, f->count - 1, f->end, WF_STRAIGHT_END,
                          f->path[f->count - 1]);
}

wf_status wf_query_find_straight_path(wf_query* query, wf_vec3 start_pos, wf_vec3 end_pos,
                                      const wf_poly_ref* path, uint32_t path_count,
                                      wf_straight_point* out_points, uint32_t max_points,
                                      uint32_t options, uint32_t* out_count) {
    WF_CHECK_ARG(query != NULL && path != NULL && out_points != NULL && out_count != NULL);
    WF_CHECK_ARG(path_count > 0 && max_points > 0);
    WF_CHECK_ARG(wf_v3_is_finite(start_pos) && wf_v3_is_finite(end_pos));
    WF_CHECK_ARG((options & ~(uint32_t)(WF_STRAIGHT_AREA_CROSSINGS | WF_STRAIGHT_ALL_CROSSINGS)) ==
                 0);
    *out_count = 0;
    const wf_mesh* mesh = query->mesh;
    // The first and last polygons now (start and end are clamped into
    // them), the others as the funnel reaches them.
    const uint32_t ends[2] = {0, path_count - 1u};
    for (int k = 0; k < 2; ++k) {
        const wf_mesh_tile* tile;
        const wf_tile_poly* poly;
        wf_status status = wf_mesh_resolve(mesh, path[ends[k]], &tile, &poly);
        if (status != WF_OK) {
            return status;
        }
    }
    portal_ring ring;
    funnel f = {
        .mesh = mesh,
        .pool = &query->nodes,
        .pool_current = query->nodes.funnels_valid && query->nodes.mesh_stamp == mesh->change_count,
        .path = path,
        .count = path_count,
        .checked = 0,
        .options = options,
        .end = clamp_to_poly(mesh, path[path_count - 1u], end_pos),
        .end_pos = end_pos,
        .error = WF_OK,
        .points = out_points,
        .max_points = max_points,
        .link_index = {UINT32_MAX, UINT32_MAX},
        .ring = &ring,
    };
    wf_vec3 start = clamp_to_poly(mesh, path[0], start_pos);
    bool fits = append_point(&f, start, WF_STRAIGHT_START, path[0]) && run_funnel(&f, start);
    if (f.error != WF_OK) {
        *out_count = 0;
        return f.error;
    }
    *out_count = f.point_count;
    return fits && f.count == path_count ? WF_OK : WF_PARTIAL;
}
