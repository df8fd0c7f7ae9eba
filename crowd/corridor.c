// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Path corridor: the polygons from an agent's position to its target, kept
// up to date every frame by local moves, shortcuts and short re-searches
// instead of full path searches. Allocation-free: scratch lives on the
// stack and is bounded by the constants below. Polygons are stored as
// 32-bit ids (crowd/ref_codec.h) and read back as refs: every comparison
// and query below sees the refs the corridor was given.
#include "crowd/corridor.h"
#include "crowd/crowd_tuning.h"
#include "navcore/mesh_slots.h"

#include <string.h>

/// Decodes the head again after ids changed.
static void sync_head(wf_corridor* c) {
    uint32_t n = c->count < WF_CORRIDOR_HEAD ? c->count : WF_CORRIDOR_HEAD;
    for (uint32_t i = 0; i < n; ++i) {
        c->polys[i] = wf_ref_codec_decode(c->codec, c->ids[i]);
    }
}

/// Stores ref at i (the head is the caller's to sync).
static void put(wf_corridor* c, uint32_t i, wf_poly_ref ref) {
    c->ids[i] = wf_ref_codec_encode(c->codec, ref);
}

/// Index of ref in polys[from..count), or UINT32_MAX.
static uint32_t index_of(const wf_poly_ref* polys, uint32_t from, uint32_t count, wf_poly_ref ref) {
    for (uint32_t i = from; i < count; ++i) {
        if (polys[i].bits == ref.bits) {
            return i;
        }
    }
    return UINT32_MAX;
}

/// True when the corridor starts with chain[0..n) (n <= count).
static bool starts_with(const wf_corridor* c, const wf_poly_ref* chain, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i) {
        if (wf_corridor_poly(c, i).bits != chain[i].bits) {
            return false;
        }
    }
    return true;
}

void wf_corridor_init(wf_corridor* c, uint32_t* ids, uint32_t capacity, const wf_ref_codec* codec) {
    memset(c, 0, sizeof *c);
    c->ids = ids;
    c->capacity = capacity;
    c->codec = codec;
}

uint32_t wf_corridor_copy(const wf_corridor* c, wf_poly_ref* out, uint32_t max) {
    uint32_t n = c->count < max ? c->count : max;
    uint32_t h = n < WF_CORRIDOR_HEAD ? n : WF_CORRIDOR_HEAD;
    memcpy(out, c->polys, h * sizeof *out);
    wf_ref_decoder d = wf_ref_decoder_begin(c->codec);
    for (uint32_t i = h; i < n; ++i) {
        out[i] = wf_ref_decoder_next(&d, c->ids[i]);
    }
    return n;
}

void wf_corridor_sync(wf_corridor* c, uint32_t count) {
    c->count = count;
    sync_head(c);
}

/// The corridor polygon furthest along (largest index) that chain holds:
/// its corridor index in *out_i, its chain index in *out_j. False if none.
static bool furthest_shared(const wf_corridor* c, const wf_poly_ref* chain, uint32_t n,
                            uint32_t* out_i, uint32_t* out_j) {
    for (uint32_t i = c->count; i-- > 0;) {
        uint32_t j = index_of(chain, 0, n, wf_corridor_poly(c, i));
        if (j != UINT32_MAX) {
            *out_i = i;
            *out_j = j;
            return true;
        }
    }
    return false;
}

/// The corridor polygon nearest the start (smallest index) that chain
/// holds, as furthest_shared.
static bool first_shared(const wf_corridor* c, const wf_poly_ref* chain, uint32_t n,
                         uint32_t* out_i, uint32_t* out_j) {
    for (uint32_t i = 0; i < c->count; ++i) {
        uint32_t j = index_of(chain, 0, n, wf_corridor_poly(c, i));
        if (j != UINT32_MAX) {
            *out_i = i;
            *out_j = j;
            return true;
        }
    }
    return false;
}

/// Replaces polys[0..rest) by head[0..n): the corridor becomes head then
/// polys[rest..count). The tail is cut at capacity; returns false then.
static bool splice_head(wf_corridor* c, const wf_poly_ref* head, uint32_t n, uint32_t rest) {
    bool fits = true;
    if (n > c->capacity) {
        n = c->capacity;
        fits = false;
    }
    uint32_t tail = c->count - rest;
    if (n + tail > c->capacity) {
        tail = c->capacity - n;
        fits = false;
    }
    memmove(c->ids + n, c->ids + rest, tail * sizeof *c->ids);
    for (uint32_t k = 0; k < n; ++k) {
        put(c, k, head[k]);
    }
    c->count = n + tail;
    sync_head(c);
    return fits;
}

/// Keeps polys[0..keep) and appends tail[0..n), cut at capacity; returns
/// false when cut.
static bool splice_tail(wf_corridor* c, uint32_t keep, const wf_poly_ref* tail, uint32_t n) {
    bool fits = true;
    if (keep + n > c->capacity) {
        n = c->capacity - keep;
        fits = false;
    }
    for (uint32_t k = 0; k < n; ++k) {
        put(c, keep + k, tail[k]);
    }
    c->count = keep + n;
    if (keep < WF_CORRIDOR_HEAD) {
        sync_head(c);
    }
    return fits;
}

/// After the tail was cut the target lies beyond the last polygon: pull
/// it to that polygon's nearest point (a cut corridor still ends at a
/// reachable point; the crowd replans from there).
static void clamp_target(wf_corridor* c, wf_query* query) {
    wf_vec3 p;
    if (wf_query_closest_point_on_poly(query, wf_corridor_last(c), c->target, &p, NULL) == WF_OK) {
        c->target = p;
    }
}

/// True when p lies on ref within WF_CROWD_CORRIDOR_ON_POLY_EPS (XZ); *out_snapped
/// is then p moved onto it.
static bool on_poly(wf_query* query, wf_poly_ref ref, wf_vec3 p, wf_vec3* out_snapped) {
    wf_vec3 q;
    if (wf_query_closest_point_on_poly(query, ref, p, &q, NULL) != WF_OK ||
        wf_v2_distance_sq(p, q) > WF_CROWD_CORRIDOR_ON_POLY_EPS * WF_CROWD_CORRIDOR_ON_POLY_EPS) {
        return false;
    }
    *out_snapped = wf_v3(q.x, p.y, q.z);
    return true;
}

/// Drops polys[0..k). The head's refs that stay move up; only the ids
/// that enter it are decoded (an agent drops polygons every few steps).
static void drop_front(wf_corridor* c, uint32_t k) {
    if (k == 0) {
        return;
    }
    memmove(c->ids, c->ids + k, (c->count - k) * sizeof *c->ids);
    c->count -= k;
    uint32_t n = c->count < WF_CORRIDOR_HEAD ? c->count : WF_CORRIDOR_HEAD;
    uint32_t kept = k < WF_CORRIDOR_HEAD ? WF_CORRIDOR_HEAD - k : 0;
    kept = kept < n ? kept : n;
    if (kept > 0) {
        memmove(c->polys, c->polys + k, kept * sizeof *c->polys);
    }
    for (uint32_t i = kept; i < n; ++i) {
        c->polys[i] = wf_ref_codec_decode(c->codec, c->ids[i]);
    }
}

/// p with the surface height of ref under it; the old height when ref has
/// none there (on an edge the point may fall just outside).
static wf_vec3 on_surface(wf_query* query, wf_poly_ref ref, wf_vec3 p) {
    float h;
    if (wf_query_poly_height(query, ref, p, &h) == WF_OK) {
        p.y = h;
    }
    return p;
}

/// A surface move from ref: on success *out_pos is the end, visited[0..n)
/// the chain from ref to the polygon holding it. When the chain did not
/// fit (WF_PARTIAL) the end is pulled into the last polygon that did, so
/// that it always lies in visited[n - 1].
static bool surface_move(wf_query* query, const wf_query_filter* filter, wf_poly_ref ref,
                         wf_vec3 from, wf_vec3 to, wf_vec3* out_pos, wf_poly_ref* visited,
                         uint32_t* out_n) {
    uint32_t n = 0;
    wf_status s = wf_query_move_along_surface(query, ref, from, to, filter, out_pos, visited,
                                              WF_CROWD_CORRIDOR_MAX_VISITED, &n);
    if (!wf_succeeded(s) || n == 0) {
        return false;
    }
    if (s == WF_PARTIAL) {
        wf_vec3 p;
        if (wf_query_closest_point_on_poly(query, visited[n - 1], *out_pos, &p, NULL) != WF_OK) {
            return false;
        }
        *out_pos = wf_v3(p.x, out_pos->y, p.z);
    }
    *out_n = n;
    return true;
}

void wf_corridor_reset(wf_corridor* c, wf_poly_ref ref, wf_vec3 pos) {
    put(c, 0, ref);
    c->count = 1;
    sync_head(c);
    c->pos = pos;
    c->target = pos;
}

bool wf_corridor_set_path(wf_corridor* c, wf_vec3 target, const wf_poly_ref* path, uint32_t count) {
    if (count == 0) {
        return false;
    }
    bool fits = count <= c->capacity;
    uint32_t n = fits ? count : c->capacity;
    for (uint32_t k = 0; k < n; ++k) {
        put(c, k, path[k]);
    }
    c->count = n;
    sync_head(c);
    c->target = target;
    return fits;
}

bool wf_corridor_merge_path(wf_corridor* c, wf_vec3 target, const wf_poly_ref* path,
                            uint32_t count) {
    if (count == 0 || c->count == 0) {
        return false;
    }
    // Join where the path meets the corridor first: the path replaces
    // everything after that (later shared polygons may be the very part
    // that the replan avoids), and the result repeats no polygon.
    uint32_t i, j;
    if (!first_shared(c, path, count, &i, &j)) {
        return false;
    }
    splice_tail(c, i + 1, path + j + 1, count - j - 1);
    c->target = target;
    return true;
}

uint32_t wf_corridor_find_corners(const wf_corridor* c, wf_query* query, wf_poly_ref* scratch,
                                  wf_straight_point* out, uint32_t max) {
    if (c->count == 0 || max == 0) {
        return 0;
    }
    if (max > WF_CROWD_MAX_CORNERS) {
        max = WF_CROWD_MAX_CORNERS;
    }
    wf_straight_point pts[WF_CROWD_MAX_CORNERS + WF_CROWD_CORRIDOR_EXTRA_POINTS];
    uint32_t n = 0;
    // WF_PARTIAL: more points than asked for, or a corridor broken (the
    // path ends where it breaks); both leave usable leading corners.
    uint32_t count = wf_corridor_copy(c, scratch, c->count);
    wf_status s = wf_query_find_straight_path(query, c->pos, c->target, scratch, count, pts,
                                              max + WF_CROWD_CORRIDOR_EXTRA_POINTS, 0, &n);
    if (!wf_succeeded(s)) {
        return 0;
    }
    const float min_sq = WF_CROWD_CORRIDOR_MIN_CORNER_DIST * WF_CROWD_CORRIDOR_MIN_CORNER_DIST;
    uint32_t first = 0;
    while (first < n && (pts[first].flags & WF_STRAIGHT_OFFMESH) == 0 &&
           wf_v2_distance_sq(pts[first].pos, c->pos) <= min_sq) {
        first++;
    }
    uint32_t written = 0;
    for (uint32_t k = first; k < n && written < max; ++k) {
        out[written++] = pts[k];
        if (pts[k].flags & WF_STRAIGHT_OFFMESH) {
            break; // the agent steers to the link's start; the rest waits
        }
    }
    return written;
}

void wf_corridor_optimize_visibility(wf_corridor* c, wf_vec3 next, float range, wf_query* query,
                                     const wf_query_filter* filter) {
    if (c->count < 2 || !(range > 0.0f) || !wf_v3_is_finite(next)) {
        return;
    }
    float dist = wf_v2_distance(c->pos, next);
    if (dist < WF_CROWD_CORRIDOR_MIN_CORNER_DIST) {
        return;
    }
    wf_vec3 goal = dist > range ? wf_v3_lerp(c->pos, next, range / dist) : next;
    wf_poly_ref visited[WF_CROWD_CORRIDOR_MAX_RAY];
    wf_raycast_hit hit;
    wf_status s = wf_query_raycast(query, c->polys[0], c->pos, goal, filter, visited,
                                   WF_CROWD_CORRIDOR_MAX_RAY, &hit);
    // t is FLT_MAX when the ray reached goal. A wall just short of it (a
    // corner on a vertex) still counts: the polygons walked are a straight
    // walkable strip either way, which is all the shortcut relies on.
    if (!wf_succeeded(s) || hit.visited_count == 0 || hit.t < WF_CROWD_CORRIDOR_MIN_RAY_T) {
        return;
    }
    uint32_t n = hit.visited_count, i, j;
    if (!furthest_shared(c, visited, n, &i, &j) || i == 0) {
        return; // the ray never got past the start along the corridor
    }
    if (j == i && starts_with(c, visited, j + 1)) {
        return; // the corridor already runs straight there
    }
    if ((j + 1) + (c->count - i - 1) > c->capacity) {
        return; // a shortcut that would cut the corridor is no shortcut
    }
    splice_head(c, visited, j + 1, i + 1);
}

bool wf_corridor_optimize_topology(wf_corridor* c, wf_query* query, const wf_query_filter* filter,
                                   uint32_t max_iterations, wf_poly_ref* scratch) {
    if (c->count < 3 || max_iterations == 0) {
        return false;
    }
    wf_status s =
        wf_query_begin_path(query, c->polys[0], wf_corridor_last(c), c->pos, c->target, filter);
    if (s != WF_OK) {
        return false;
    }
    // Still in progress is fine: the partial finish takes what it reached.
    // Finish runs whatever update said, so the search always ends.
    wf_status searched = wf_query_update_path(query, max_iterations, NULL);
    wf_poly_ref res[WF_CROWD_CORRIDOR_MAX_LOCAL];
    wf_path_result pr;
    uint32_t count = wf_corridor_copy(c, scratch, c->count);
    s = wf_query_finish_partial_path(query, scratch, count, res, WF_CROWD_CORRIDOR_MAX_LOCAL, &pr);
    if (!wf_succeeded(searched) || !wf_succeeded(s) || pr.count == 0 ||
        res[0].bits != c->polys[0].bits) {
        return false;
    }
    // The result leads to the furthest corridor polygon the search reached
    // (when cut, to an earlier one on it): A*'s way there replaces the
    // corridor's way there.
    uint32_t i, j;
    if (!furthest_shared(c, res, pr.count, &i, &j) || i == 0) {
        return false;
    }
    if (j == i && starts_with(c, res, j + 1)) {
        return false; // the corridor is already the search's best
    }
    if ((j + 1) + (c->count - i - 1) > c->capacity) {
        return false;
    }
    splice_head(c, res, j + 1, i + 1);
    return true;
}

bool wf_corridor_move_position(wf_corridor* c, wf_vec3 npos, wf_query* query,
                               const wf_query_filter* filter) {
    if (c->count == 0 || !wf_v3_is_finite(npos)) {
        return false;
    }
    wf_poly_ref visited[WF_CROWD_CORRIDOR_MAX_VISITED];
    uint32_t n = 0;
    wf_vec3 result;
    if (!surface_move(query, filter, c->polys[0], c->pos, npos, &result, visited, &n)) {
        return false;
    }
    // Merge start moved: the furthest corridor polygon walked over is
    // where the corridor picks up again. visited[0] is polys[0], so a
    // match always exists.
    uint32_t i = 0, j = 0;
    if (n > 1) {
        furthest_shared(c, visited, n, &i, &j);
    }
    // A point on an edge lies in both polygons, and the search may have
    // taken the one behind (or one off the corridor, for an agent sliding
    // along its border). Counted in the corridor polygon ahead instead:
    // the straight path from a start on the first portal would turn back
    // to that portal's end, and the move after would undo this one.
    uint32_t last = i + WF_CROWD_CORRIDOR_EDGE_LOOKAHEAD;
    last = last < c->count - 1 ? last : c->count - 1;
    uint32_t first = j + 1 == n ? i + 1 : i; // off the corridor: i too
    for (uint32_t k = last + 1; k-- > first;) {
        wf_vec3 snapped;
        if (on_poly(query, wf_corridor_poly(c, k), result, &snapped)) {
            drop_front(c, k);
            c->pos = on_surface(query, c->polys[0], snapped);
            return true;
        }
    }
    if (j + 1 == n) {
        drop_front(c, i);
    } else {
        // Off the corridor: the walk from polys[i] to the agent, reversed,
        // leads back to it.
        wf_poly_ref head[WF_CROWD_CORRIDOR_MAX_VISITED];
        uint32_t h = n - j;
        for (uint32_t k = 0; k < h; ++k) {
            head[k] = visited[n - 1 - k];
        }
        if (!splice_head(c, head, h, i + 1)) {
            clamp_target(c, query);
        }
    }
    c->pos = on_surface(query, c->polys[0], result);
    return true;
}

bool wf_corridor_move_target(wf_corridor* c, wf_vec3 ntarget, wf_query* query,
                             const wf_query_filter* filter) {
    if (c->count == 0 || !wf_v3_is_finite(ntarget)) {
        return false;
    }
    wf_poly_ref visited[WF_CROWD_CORRIDOR_MAX_VISITED];
    uint32_t n = 0;
    wf_vec3 result;
    if (!surface_move(query, filter, wf_corridor_last(c), c->target, ntarget, &result, visited,
                      &n)) {
        return false;
    }
    // Merge end moved: the corridor is kept up to the first of its
    // polygons the target walked over (it may walk back along it), then
    // the walk follows. visited[0] is the last polygon, so one matches.
    uint32_t i = c->count - 1, j = 0;
    bool cut = false;
    if (n > 1 && first_shared(c, visited, n, &i, &j)) {
        cut = !splice_tail(c, i + 1, visited + j + 1, n - j - 1);
    }
    c->target = on_surface(query, wf_corridor_last(c), result);
    if (cut) {
        clamp_target(c, query);
    }
    return true;
}

uint32_t wf_corridor_valid_ahead(const wf_corridor* c, uint32_t max_look_ahead, const wf_mesh* mesh,
                                 const wf_query_filter* filter) {
    uint32_t n = c->count < max_look_ahead ? c->count : max_look_ahead;
    wf_ref_decoder d = wf_ref_decoder_begin(c->codec);
    // Decoded and checked in runs: one mesh call a run.
    wf_poly_ref run[WF_MESH_RUN];
    for (uint32_t i = 0; i < n;) {
        uint32_t m = n - i < WF_MESH_RUN ? n - i : WF_MESH_RUN;
        for (uint32_t k = 0; k < m; ++k) {
            run[k] =
                i + k < WF_CORRIDOR_HEAD ? c->polys[i + k] : wf_ref_decoder_next(&d, c->ids[i + k]);
        }
        uint32_t ok = wf_mesh_passing_run(mesh, run, m, filter);
        if (ok < m) {
            return i + ok;
        }
        i += m;
    }
    return n;
}

void wf_corridor_trim(wf_corridor* c, uint32_t keep, wf_query* query) {
    if (keep == 0) {
        keep = 1;
    }
    if (keep >= c->count) {
        return;
    }
    c->count = keep;
    clamp_target(c, query);
}

void wf_corridor_fix_start(wf_corridor* c, wf_poly_ref ref, wf_vec3 pos) {
    c->pos = pos;
    if (c->count == 0) {
        put(c, 0, ref);
        c->count = 1;
        sync_head(c);
        c->target = pos;
        return;
    }
    if (c->polys[0].bits == ref.bits) {
        return;
    }
    // Pushed forward along the corridor: drop what it passed. The whole
    // corridor is searched (it is rare): prepending a polygon that also
    // lies further on would make the corridor loop.
    for (uint32_t k = 1; k < c->count; ++k) {
        if (wf_corridor_poly(c, k).bits == ref.bits) {
            drop_front(c, k);
            return;
        }
    }
    // Pushed off it: ref leads into the old start. A full corridor loses
    // its last polygon (the target is then past the end; find_corners
    // clamps the end into the last polygon and the crowd replans).
    if (c->count == c->capacity) {
        c->count--;
    }
    memmove(c->ids + 1, c->ids, c->count * sizeof *c->ids);
    put(c, 0, ref);
    c->count++;
    sync_head(c);
}

bool wf_corridor_move_over_offmesh(wf_corridor* c, wf_poly_ref link, const wf_mesh* mesh,
                                   wf_poly_ref out_refs[2], wf_vec3* out_start, wf_vec3* out_end) {
    // A link is always entered from a polygon and left into one: a link
    // ending the corridor (cut at capacity) cannot be crossed yet.
    if (c->count < 3 || wf_corridor_poly(c, 1).bits != link.bits) {
        return false;
    }
    wf_vec3 start, end;
    if (wf_mesh_get_offmesh_endpoints(mesh, c->polys[0], link, &start, &end) != WF_OK) {
        return false; // stale, or not a link
    }
    if (out_refs != NULL) {
        out_refs[0] = c->polys[0];
        out_refs[1] = wf_corridor_poly(c, 2);
    }
    if (out_start != NULL) {
        *out_start = start;
    }
    if (out_end != NULL) {
        *out_end = end;
    }
    drop_front(c, 2);
    c->pos = end;
    return true;
}

bool wf_poly_passes(const wf_mesh* mesh, wf_poly_ref ref, const wf_query_filter* filter) {
    // Links keep flags like polygons: one lookup answers both liveness
    // (stale refs fail) and the filter.
    return wf_mesh_passing_run(mesh, &ref, 1u, filter) == 1u;
}

bool wf_polys_pass(const wf_mesh* mesh, const wf_ref_codec* codec, const uint32_t* ids, uint32_t n,
                   const wf_query_filter* filter) {
    wf_ref_decoder d = wf_ref_decoder_begin(codec);
    wf_poly_ref run[WF_MESH_RUN];
    for (uint32_t i = 0; i < n;) {
        uint32_t m = n - i < WF_MESH_RUN ? n - i : WF_MESH_RUN;
        for (uint32_t k = 0; k < m; ++k) {
            run[k] = wf_ref_decoder_next(&d, ids[i + k]);
        }
        if (wf_mesh_passing_run(mesh, run, m, filter) < m) {
            return false;
        }
        i += m;
    }
    return true;
}
