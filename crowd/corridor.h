// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Path corridor: the polygons from an agent's position to its target. The
// agent moves inside it, the corridor follows (polygons passed drop off
// the front), and it is repaired locally instead of searched again.
//
// Nothing here allocates; scratch is on the stack (at most 32 refs) or
// the caller's (a whole corridor's refs).
// Functions taking a query use its search state: they end any sliced path
// search running on that query (run path requests on another query).
// polys[0] must be a ground polygon, never an off-mesh link (the crowd
// steps over links with wf_corridor_move_over_offmesh).
#ifndef WF_CROWD_CORRIDOR_H
#define WF_CROWD_CORRIDOR_H

#include <stdbool.h>
#include <stdint.h>

#include "crowd/ref_codec.h"
#include "wayfarer/crowd.h"

/// Polygons at the corridor's start also kept as full refs: polys[0] is
/// read by every step; the rest are decoded when read (wf_corridor_poly,
/// wf_corridor_copy), which gives the refs a kept copy would hold.
#define WF_CORRIDOR_HEAD 1u

/// One agent's corridor: the crowd owns the id array (32-bit refs, see
/// crowd/ref_codec.h: half of what 64-bit refs take at 256 polygons an
/// agent); every change goes through the functions below, which keep the
/// head's full refs in step. Read polygons past the head with
/// wf_corridor_poly.
typedef struct wf_corridor {
    uint32_t* ids; ///< ids[0] holds pos, ids[count - 1] holds target
    const wf_ref_codec* codec;
    uint32_t count; ///< >= 1 once reset
    uint32_t capacity;
    wf_vec3 pos;
    wf_vec3 target;
    wf_poly_ref polys[WF_CORRIDOR_HEAD]; ///< the first min(count, HEAD) polygons
} wf_corridor;

/// An empty corridor over ids[0..capacity) (capacity >= 2).
void wf_corridor_init(wf_corridor* c, uint32_t* ids, uint32_t capacity, const wf_ref_codec* codec);

/// Polygon i (< count).
static inline wf_poly_ref wf_corridor_poly(const wf_corridor* c, uint32_t i) {
    return i < WF_CORRIDOR_HEAD ? c->polys[i] : wf_ref_codec_decode(c->codec, c->ids[i]);
}

/// The last polygon (count >= 1).
static inline wf_poly_ref wf_corridor_last(const wf_corridor* c) {
    return wf_corridor_poly(c, c->count - 1u);
}

/// A 64-bit hash of the first n (<= count) polygons, read from their ids
/// (one id stands for one ref): equal hashes of equal n mean, but for a
/// 2^-64 chance, the same polygons.
static inline uint64_t wf_corridor_head_hash(const wf_corridor* c, uint32_t n) {
    uint64_t h = 0xcbf29ce484222325ull ^ n;
    for (uint32_t k = 0; k < n; ++k) {
        h = (h ^ c->ids[k]) * 0x9e3779b97f4a7c15ull;
        h ^= h >> 29;
    }
    return h;
}

/// Copies the first min(count, max) polygons to out; returns how many.
uint32_t wf_corridor_copy(const wf_corridor* c, wf_poly_ref* out, uint32_t max);

/// Takes count ids written into ids directly (a load) and decodes the head.
void wf_corridor_sync(wf_corridor* c, uint32_t count);

/// One polygon: pos and target in ref.
void wf_corridor_reset(wf_corridor* c, wf_poly_ref ref, wf_vec3 pos);

/// Replaces the path (path[0] must be the polygon holding pos, count >= 1);
/// the target is clamped into the last polygon by the caller. Returns
/// false when the path was longer than the capacity (then it is cut, the
/// target kept as given: the caller clamps it into the new last polygon).
bool wf_corridor_set_path(wf_corridor* c, wf_vec3 target, const wf_poly_ref* path, uint32_t count);

/// Joins a path searched from a polygon further along the corridor (a
/// replan) or from where the agent stood when it asked (it has moved
/// since): the corridor is kept up to its first polygon that the path
/// contains (where the path joins it: polys[k] == path[0] for a replan,
/// polys[0] for an agent that moved along the path), and the path follows
/// from that polygon on; the rest of the old corridor is dropped, so the
/// result repeats no polygon. target becomes the target. Returns false
/// (corridor unchanged) when they share no polygon. A result longer than
/// the capacity is cut (count == capacity, the target kept as given: the
/// caller sees wf_corridor_last != path's last and clamps it).
bool wf_corridor_merge_path(wf_corridor* c, wf_vec3 target, const wf_poly_ref* path,
                            uint32_t count);

/// The next corners of the string-pulled corridor (at most max, <=
/// WF_CROWD_MAX_CORNERS), skipping leading corners closer than 0.01 m (XZ)
/// to pos unless they start an off-mesh link, and ending at the first
/// off-mesh link start (WF_STRAIGHT_OFFMESH). Returns the count: 0 when
/// pos is at the target, or when the corridor holds a stale polygon.
/// scratch: room for capacity refs (the whole corridor is handed to the
/// string pull).
uint32_t wf_corridor_find_corners(const wf_corridor* c, wf_query* query, wf_poly_ref* scratch,
                                  wf_straight_point* out, uint32_t max);

/// Shortcut: when the surface is straight walkable from pos towards
/// `next` (a point further along, e.g. a corner two ahead; clamped to
/// `range` from pos), i.e. a surface ray from polys[0] gets at least 99 %
/// of the way, the polygons the ray walked up to the furthest corridor
/// polygon it crossed replace the corridor's head before that polygon.
/// Nothing happens when it would not change the corridor or would cut it
/// at capacity.
void wf_corridor_optimize_visibility(wf_corridor* c, wf_vec3 next, float range, wf_query* query,
                                     const wf_query_filter* filter);

/// A short local re-search (max_iterations expansions) from polys[0]
/// towards target. Its path to the furthest corridor polygon it reached
/// replaces the corridor up to that polygon, when that path differs from
/// the corridor's (A* found a better way there). Returns true when the
/// corridor changed. Needs count >= 3. scratch: room for capacity refs.
bool wf_corridor_optimize_topology(wf_corridor* c, wf_query* query, const wf_query_filter* filter,
                                   uint32_t max_iterations, wf_poly_ref* scratch);

/// Moves pos towards npos along the surface (sliding along walls). The
/// furthest corridor polygon walked over stays; everything before it is
/// dropped, and when the agent ended off the corridor the walk from that
/// polygon to the agent's polygon (reversed) becomes the head. An end on
/// the edge to the next corridor polygon (within 0.1 mm) counts as in that
/// polygon: an agent sliding along a portal keeps going forward. pos gets
/// the surface height of polys[0] (the old height when there is none).
/// Returns false when the start polygon is not valid (then nothing moves).
bool wf_corridor_move_position(wf_corridor* c, wf_vec3 npos, wf_query* query,
                               const wf_query_filter* filter);

/// Moves the target towards ntarget along the surface from the last
/// polygon: the corridor is kept up to the first of its polygons the move
/// walked over, then the walk follows (the target's polygon last).
/// False when the last polygon is not valid (nothing moves).
bool wf_corridor_move_target(wf_corridor* c, wf_vec3 ntarget, wf_query* query,
                             const wf_query_filter* filter);

/// Count of polygons from the start (at most max_look_ahead) that are
/// valid and pass the filter, up to the first that does not:
/// == min(count, max_look_ahead) when all do.
uint32_t wf_corridor_valid_ahead(const wf_corridor* c, uint32_t max_look_ahead, const wf_mesh* mesh,
                                 const wf_query_filter* filter);

/// Cuts the corridor after its first `keep` polygons (keep >= 1; 0 counts
/// as 1) and moves the target to the point of polys[keep - 1] nearest the
/// old target. keep >= count changes nothing.
void wf_corridor_trim(wf_corridor* c, uint32_t keep, wf_query* query);

/// The agent stands in ref at pos (found again after being pushed off):
/// c->pos = pos; ref == polys[0]: nothing else; ref further on in the
/// corridor: the polygons before it are dropped. Otherwise ref is put in
/// front of the old start (assumed adjacent: when it is not, the corridor
/// has a gap there, find_corners stops at it, and the caller replans); a
/// full corridor loses its last polygon for it (the target then lies past
/// the end).
void wf_corridor_fix_start(wf_corridor* c, wf_poly_ref ref, wf_vec3 pos);

/// When polys[1] is the off-mesh link `link` (and polys[2] the polygon it
/// lands in), the corridor advances past it: out_refs = {old polys[0],
/// polys[2]} (the polygons before and after the link), out_start/out_end
/// its endpoints in the direction of travel (entered from old polys[0]);
/// the link and old polys[0] are dropped, so polys[0] is the landing
/// polygon, and pos becomes out_end. Outputs may be NULL. Returns false
/// (nothing changes) when link is not polys[1], the corridor ends at it,
/// or the link is stale.
bool wf_corridor_move_over_offmesh(wf_corridor* c, wf_poly_ref link, const wf_mesh* mesh,
                                   wf_poly_ref out_refs[2], wf_vec3* out_start, wf_vec3* out_end);

/// True when a polygon (or off-mesh link) is live and passes the filter:
/// (flags & include) != 0 and (flags & exclude) == 0. Null refs fail; a
/// NULL filter checks liveness only.
bool wf_poly_passes(const wf_mesh* mesh, wf_poly_ref ref, const wf_query_filter* filter);

/// Whether every one of ids[0..n) (ids of codec) passes as wf_poly_passes
/// (true for n == 0); decoded and checked in runs, one mesh call a run.
bool wf_polys_pass(const wf_mesh* mesh, const wf_ref_codec* codec, const uint32_t* ids, uint32_t n,
                   const wf_query_filter* filter);

#endif
