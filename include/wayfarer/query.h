// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
/*
 * Queries: questions asked of a navmesh (nearest polygon, paths, raycasts,
 * random points, ...).
 *
 * A wf_query owns its search state (node pool, open list) and is used by one
 * thread at a time; create one per thread. Many queries may read one mesh at
 * once while nobody writes it (see navmesh.h).
 *
 *     wf_query* q;
 *     wf_query_create(&(wf_query_desc){.mesh = mesh, .max_nodes = 2048}, &q);
 *     wf_query_filter filter = wf_query_filter_defaults();
 *     wf_poly_ref start, goal; wf_vec3 sp, gp;
 *     wf_query_find_nearest_poly(q, a, extents, &filter, &start, &sp);
 *     wf_query_find_nearest_poly(q, b, extents, &filter, &goal, &gp);
 *     wf_poly_ref corridor[256]; wf_path_result pr;
 *     wf_query_find_path(q, start, goal, sp, gp, &filter, corridor, 256, &pr);
 *     wf_straight_point pts[64]; uint32_t n;
 *     wf_query_find_straight_path(q, sp, gp, corridor, pr.count, pts, 64, 0, &n);
 *
 * Costs: moving between polygons costs distance times the area cost of the
 * polygon being crossed; the filter also includes/excludes polygons by flags.
 * Path searches are A* over polygons whose costs follow the funnel: each
 * node keeps the last corner of the pulled way and the wedge it can leave
 * through, so a corridor costs what the funnel makes of it (docs/navmesh.md);
 * find_straight_path then pulls the path tight through its portals.
 *
 * Path modes (filter.path_mode, for find_path and begin_path; the other
 * searches ignore it): WF_PATH_MODE_DEFAULT is the A* above.
 * WF_PATH_MODE_EXACT finds the shortest path over the surface seen from
 * above (lengths in the XZ plane; heights follow the polygons) with
 * Polyanya: search nodes are intervals of portals seen from a root point,
 * so the corridor it returns is the one the shortest path crosses and
 * wf_query_find_straight_path on it gives that path. result.cost is the
 * path's XZ length. Exact mode needs every area cost to be 1 (else
 * WF_ERR_INVALID_ARG; flags still include and exclude polygons, excluded
 * ones are walls), walks the surface only (off-mesh links are not taken;
 * a link as start or end polygon is WF_ERR_INVALID_ARG), and uses its own
 * storage, sized at creation (wf_query_desc.exact_nodes_per_node). It runs out
 * like the default (WF_PATH_OUT_OF_NODES | WF_PATH_PARTIAL, the path then
 * leads to the reached polygon nearest the goal); update_path counts node
 * expansions as iterations. Other queries do not end an exact sliced
 * search (they use other storage).
 *
 * Every output array has a capacity; when it is too small the result says
 * so (WF_PATH_BUFFER_FULL) and holds what fit, never silently less.
 * Deterministic: same mesh, inputs and seed give the same answer.
 */
#ifndef WAYFARER_QUERY_H
#define WAYFARER_QUERY_H

#include "wayfarer/base.h"
#include "wayfarer/navmesh.h"
#include "wayfarer/rng.h"
#include "wayfarer/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

/// How wf_query_find_path and wf_query_begin_path search (see "Path modes").
typedef enum wf_path_mode {
    WF_PATH_MODE_DEFAULT = 0, ///< A* over polygons, then the funnel: fast, near-shortest
    WF_PATH_MODE_EXACT = 1,   ///< the shortest any-angle path over the surface (Polyanya)
} wf_path_mode;

/// Which polygons a query may use and what crossing them costs.
typedef struct wf_query_filter {
    float area_cost[WF_MAX_AREAS]; ///< multiplier per area id, >= 0 (default 1)
    uint16_t include_flags;        ///< a polygon needs one of these (default 0xffff)
    uint16_t exclude_flags;        ///< and none of these (default 0)
    uint32_t path_mode;            ///< wf_path_mode (default WF_PATH_MODE_DEFAULT)
} wf_query_filter;

/// All areas cost 1, every flag included, none excluded.
WF_API wf_query_filter wf_query_filter_defaults(void);

typedef struct wf_query wf_query;

typedef struct wf_query_desc {
    const wf_mesh* mesh; ///< required; must outlive the query
    uint32_t max_nodes;  ///< search nodes (polygons one search may touch); 0 = 2048, at most 2^24
    /// Exact mode's storage, in max_nodes units: 0 = 4 interval nodes (and
    /// one turning point) per max_nodes, about 600 bytes per max_nodes;
    /// WF_QUERY_NO_EXACT = none (an exact search is then WF_ERR_CAPACITY):
    /// for queries that never search in exact mode, such as a crowd's
    /// whose filters do not ask for it.
    uint32_t exact_nodes_per_node;
    wf_allocator allocator;
    wf_logger logger; ///< told which desc rule a refused create broke
} wf_query_desc;

/// wf_query_desc.exact_nodes_per_node: no storage for exact mode.
#define WF_QUERY_NO_EXACT 0xffffffffu

/// The desc with every field left zero set to its default (NULL: all
/// defaults; mesh stays as given).
WF_API wf_query_desc wf_query_desc_defaults(const wf_query_desc* desc);
/// Errors: WF_ERR_INVALID_ARG (no mesh, max_nodes above 2^24, too much
/// exact storage: the logger says which), WF_ERR_OUT_OF_MEMORY.
WF_NODISCARD WF_API wf_status wf_query_create(const wf_query_desc* desc, wf_query** out);
WF_API void wf_query_destroy(wf_query* query);

typedef struct wf_query_stats {
    uint32_t max_nodes; ///< search nodes, as resolved from the desc
    /// Bytes the query holds from its allocator (node pool, hash, open
    /// list, exact-mode nodes); fixed at creation.
    size_t memory_bytes;
} wf_query_stats;
/// All zero for NULL.
WF_API wf_query_stats wf_query_get_stats(const wf_query* query);
/// The mesh the query reads (wf_query_desc.mesh); NULL for NULL.
WF_API const wf_mesh* wf_query_get_mesh(const wf_query* query);

/* ---------------------------------------------------------------------------
 * Points and polygons
 */

/// Polygon nearest to `center` among those overlapping the box center +-
/// half_extents; out_point is the closest point on it. Points exactly on a
/// shared edge or vertex pick the polygon with the lowest ref.
/// WF_ERR_NOT_FOUND when no polygon passes the filter inside the box.
WF_NODISCARD WF_API wf_status wf_query_find_nearest_poly(wf_query* query, wf_vec3 center,
                                                         wf_vec3 half_extents,
                                                         const wf_query_filter* filter,
                                                         wf_poly_ref* out_ref, wf_vec3* out_point);

/// Up to `max` polygons overlapping a box; out_count is how many were written,
/// WF_PARTIAL if more overlapped than fit.
WF_NODISCARD WF_API wf_status wf_query_find_polys_in_box(wf_query* query, wf_vec3 center,
                                                         wf_vec3 half_extents,
                                                         const wf_query_filter* filter,
                                                         wf_poly_ref* out_refs, uint32_t max,
                                                         uint32_t* out_count);

/// Closest point to `pos` on a polygon (with detail height); out_inside
/// (optional) tells whether pos lies over the polygon seen from above.
WF_NODISCARD WF_API wf_status wf_query_closest_point_on_poly(wf_query* query, wf_poly_ref ref,
                                                             wf_vec3 pos, wf_vec3* out_point,
                                                             bool* out_inside);

/// Surface height of a polygon at pos.x/pos.z; WF_ERR_NOT_FOUND if the
/// point is not over the polygon.
WF_NODISCARD WF_API wf_status wf_query_poly_height(wf_query* query, wf_poly_ref ref, wf_vec3 pos,
                                                   float* out_height);

/* ---------------------------------------------------------------------------
 * Paths
 */

typedef enum wf_path_flags {
    WF_PATH_PARTIAL = 1,      ///< the goal was not reached: path ends nearest to it
    WF_PATH_OUT_OF_NODES = 2, ///< the node pool ran out (implies partial)
    WF_PATH_BUFFER_FULL = 4,  ///< the output array was too small: path cut
} wf_path_flags;

typedef struct wf_path_result {
    uint32_t count; ///< refs written
    uint32_t flags; ///< wf_path_flags
    float cost;     ///< cost of the search to the last polygon
} wf_path_result;

/// A* from start to end polygon. WF_OK for a complete path, WF_PARTIAL when
/// out->flags has WF_PATH_PARTIAL or WF_PATH_BUFFER_FULL (the path then
/// leads to the reached polygon nearest the goal). It skips dead ends on the
/// way, so finding that there is no path takes a second search (with them,
/// for that nearest polygon); the sliced search below does it in one.
WF_NODISCARD WF_API wf_status wf_query_find_path(wf_query* query, wf_poly_ref start_ref,
                                                 wf_poly_ref end_ref, wf_vec3 start_pos,
                                                 wf_vec3 end_pos, const wf_query_filter* filter,
                                                 wf_poly_ref* path, uint32_t max_path,
                                                 wf_path_result* out);

/// Cost scale of a polygon: a factor (clamped to at least 1) on its area
/// cost, for costs that change while the game runs without touching the
/// mesh (a crowd's crowding). Called from the thread searching; it must
/// answer the same for a polygon while one search lasts.
typedef float (*wf_poly_cost_fn)(const void* user, wf_poly_ref poly);

/// Sets (fn != NULL) or clears the cost scale the query's default-mode path
/// searches apply (find_path, the sliced search; exact mode ignores it, as
/// it has no costs). Searches then stay exact in cost (the heuristic and
/// pruning use the filter's costs, which the scale only raises).
WF_API void wf_query_set_cost_scale(wf_query* query, wf_poly_cost_fn fn, const void* user);

/// Landmark tables for exact mode: for a few landmark points spread to the
/// mesh's far ends, the shortest distance to every polygon vertex. Exact
/// searches of a query the table is set on bound the rest of each path by
/// the triangle inequality through the landmarks (never above the true
/// length: the paths found are the same), which prunes much of what the
/// straight line to the goal lets through on meshes of rooms and doors.
typedef struct wf_exact_landmarks wf_exact_landmarks;

typedef struct wf_exact_landmarks_desc {
    const wf_mesh* mesh;     ///< required; the table is for this mesh only
    uint32_t landmark_count; ///< 1..16 (8 is a good start)
    /// false: a tile added or removed after the build turns the table off
    /// (searches fall back to the straight-line bound) until it is built
    /// again. true: the caller promises the mesh only loses walkable area
    /// after the build (obstacles added, none that was there removed; the
    /// table built without obstacles): distances then only grow and the
    /// table's bounds still hold for the vertices that remain.
    bool valid_after_changes;
    wf_allocator allocator; ///< for the table and the build's storage; zero = malloc
} wf_exact_landmarks_desc;

/// Measures the table: one exact search from each landmark that runs until
/// nothing is open (each walks the whole mesh: on a 512 x 512 Moving AI
/// rooms map, 8 landmarks cost as much as 250 exact queries). The table
/// takes about 20 + 8 x landmark_count bytes per tile vertex, allocated
/// here and never per query; while it runs, the build also holds an exact
/// search's storage for 16 (32, 64 when that runs out) nodes per vertex.
/// Errors: WF_ERR_INVALID_ARG (no mesh or
/// out, landmark_count outside 1..16, an allocator with only one of its
/// functions set), WF_ERR_NOT_FOUND (no ground
/// polygon), WF_ERR_CAPACITY (more than 2^24 vertices, or a search out of
/// its nodes), WF_ERR_OUT_OF_MEMORY.
WF_NODISCARD WF_API wf_status wf_exact_landmarks_build(const wf_exact_landmarks_desc* desc,
                                                       wf_exact_landmarks** out);
/// Frees a table (NULL is ignored); no query may still use it.
WF_API void wf_exact_landmarks_destroy(wf_exact_landmarks* table);
/// Bytes the table holds; 0 for NULL.
WF_API size_t wf_exact_landmarks_memory_bytes(const wf_exact_landmarks* table);
/// Sets (table != NULL; it must outlive its use) or clears the landmarks
/// the query's exact searches use from their next begin_path on.
/// WF_ERR_INVALID_ARG: no query, or a table of another mesh.
WF_NODISCARD WF_API wf_status wf_query_set_exact_landmarks(wf_query* query,
                                                           const wf_exact_landmarks* table);

/// Time-sliced find_path: begin, then update until it stops returning
/// WF_IN_PROGRESS, then finish. The mesh must not change in between unless
/// the caller accepts that update returns WF_ERR_STALE_REF for a search
/// whose polygons disappeared. The filter is copied.
WF_NODISCARD WF_API wf_status wf_query_begin_path(wf_query* query, wf_poly_ref start_ref,
                                                  wf_poly_ref end_ref, wf_vec3 start_pos,
                                                  wf_vec3 end_pos, const wf_query_filter* filter);
/// Runs at most max_iterations node expansions (of the main search: the
/// extra ways per polygon the default mode keeps for path quality are not
/// counted, and *out_iterations counts alike). WF_IN_PROGRESS, WF_OK
/// (goal found), WF_PARTIAL (search over without reaching the goal),
/// WF_ERR_STALE_REF (mesh changed under it), WF_ERR_INVALID_ARG (no search).
WF_NODISCARD WF_API wf_status wf_query_update_path(wf_query* query, uint32_t max_iterations,
                                                   uint32_t* out_iterations);
/// Writes the path found (or the best partial one) and ends the search.
WF_NODISCARD WF_API wf_status wf_query_finish_path(wf_query* query, wf_poly_ref* path,
                                                   uint32_t max_path, wf_path_result* out);
/// Ends the search with the path to the furthest polygon of `existing` (a
/// previous corridor) that the search visited, for replanning: the result
/// joins the old corridor's prefix with the new search.
WF_NODISCARD WF_API wf_status wf_query_finish_partial_path(wf_query* query,
                                                           const wf_poly_ref* existing,
                                                           uint32_t existing_count,
                                                           wf_poly_ref* path, uint32_t max_path,
                                                           wf_path_result* out);

/// True when end is reachable from start under the filter (a full search,
/// no path built). WF_PARTIAL + false when nodes ran out before deciding.
WF_NODISCARD WF_API wf_status wf_query_path_exists(wf_query* query, wf_poly_ref start_ref,
                                                   wf_poly_ref end_ref, wf_vec3 start_pos,
                                                   wf_vec3 end_pos, const wf_query_filter* filter,
                                                   bool* out_exists);

/// Path to the nearest point inside an axis-aligned box: the search stops
/// at the first polygon that overlaps it. out_goal is the point reached.
WF_NODISCARD WF_API wf_status wf_query_find_path_to_box(wf_query* query, wf_poly_ref start_ref,
                                                        wf_vec3 start_pos, wf_vec3 box_min,
                                                        wf_vec3 box_max,
                                                        const wf_query_filter* filter,
                                                        wf_poly_ref* path, uint32_t max_path,
                                                        wf_path_result* out, wf_vec3* out_goal);

/// Dijkstra from one start to the cheapest of many goal polygons: one search
/// for any number of goals. out_goal_index is the index into goals.
/// WF_ERR_NOT_FOUND when none is reachable.
WF_NODISCARD WF_API wf_status wf_query_find_nearest_goal(
    wf_query* query, wf_poly_ref start_ref, wf_vec3 start_pos, const wf_poly_ref* goals,
    uint32_t goal_count, const wf_query_filter* filter, uint32_t* out_goal_index, wf_poly_ref* path,
    uint32_t max_path, wf_path_result* out);

/* ---------------------------------------------------------------------------
 * Straight paths
 */

typedef enum wf_straight_flags {
    WF_STRAIGHT_START = 1,   ///< the start point
    WF_STRAIGHT_END = 2,     ///< the end point
    WF_STRAIGHT_OFFMESH = 4, ///< the start of an off-mesh link
} wf_straight_flags;

typedef enum wf_straight_options {
    WF_STRAIGHT_AREA_CROSSINGS = 1, ///< add a point where the area id changes
    WF_STRAIGHT_ALL_CROSSINGS = 2,  ///< add a point at every portal
} wf_straight_options;

typedef struct wf_straight_point {
    wf_vec3 pos;
    wf_poly_ref ref; ///< polygon (or off-mesh link) entered at this point
    uint32_t flags;  ///< wf_straight_flags
} wf_straight_point;

/// String-pulls a corridor (from find_path) into corners with the funnel
/// algorithm. start_pos/end_pos are clamped into the first/last polygon.
/// WF_PARTIAL when the points did not fit in max_points (then the last one
/// written is the furthest corner that fit), or when two polygons of the
/// corridor are not linked (the corners end in the first of them).
/// WF_ERR_STALE_REF for a stale first or last polygon, or one the funnel
/// reaches before max_points are written (polygons beyond are not read, so
/// asking for a few corners of a long corridor costs a few portals).
WF_NODISCARD WF_API wf_status wf_query_find_straight_path(wf_query* query, wf_vec3 start_pos,
                                                          wf_vec3 end_pos, const wf_poly_ref* path,
                                                          uint32_t path_count,
                                                          wf_straight_point* out_points,
                                                          uint32_t max_points, uint32_t options,
                                                          uint32_t* out_count);

/* ---------------------------------------------------------------------------
 * Local queries
 */

typedef struct wf_raycast_hit {
    float t;         ///< 0..1 along the ray where it hit a wall; FLT_MAX if it did not
    wf_vec3 normal;  ///< unit wall normal (XZ), facing back towards the ray's start
    uint32_t edge;   ///< edge of the last visited polygon that was hit; 0xffffffff: none
    float path_cost; ///< cost along the visited polygons
    uint32_t visited_count;
} wf_raycast_hit;

/// Walks the surface from start (in start_ref) towards end, in the XZ
/// plane, recording visited polygons in `visited` (may be NULL: then
/// visited_count counts them all). Off-mesh links and polygons the filter
/// refuses are walls. A start outside start_ref hits at t = 0. WF_PARTIAL if
/// visited was too small (the walk stopped there; normal is zero).
WF_NODISCARD WF_API wf_status wf_query_raycast(wf_query* query, wf_poly_ref start_ref,
                                               wf_vec3 start, wf_vec3 end,
                                               const wf_query_filter* filter, wf_poly_ref* visited,
                                               uint32_t max_visited, wf_raycast_hit* out);

/// Moves from start towards end staying on the surface, sliding along walls
/// (a breadth-first search limited to the movement's reach). out_pos is the
/// end position (height of the start polygon plane: call poly_height for
/// the exact height), visited the polygons passed, the last one holding
/// out_pos. WF_PARTIAL when visited was too small, or when the search was
/// cut short (node pool, or more than 48 polygons side by side in its
/// frontier): out_pos is then the best point of what was searched.
WF_NODISCARD WF_API wf_status wf_query_move_along_surface(wf_query* query, wf_poly_ref start_ref,
                                                          wf_vec3 start, wf_vec3 end,
                                                          const wf_query_filter* filter,
                                                          wf_vec3* out_pos, wf_poly_ref* visited,
                                                          uint32_t max_visited,
                                                          uint32_t* out_visited_count);

/// Polygons whose edges come within `radius` of center, reached by
/// crossing portals from start_ref (Dijkstra order). parents and costs are
/// optional. WF_PARTIAL when max was too small.
WF_NODISCARD WF_API wf_status wf_query_find_polys_around_circle(
    wf_query* query, wf_poly_ref start_ref, wf_vec3 center, float radius,
    const wf_query_filter* filter, wf_poly_ref* out_refs, wf_poly_ref* out_parents,
    float* out_costs, uint32_t max, uint32_t* out_count);

/// Like polys_around_circle but only polygons that do not overlap each
/// other in height (the local neighbourhood a crowd agent sees), breadth
/// first, without cost ordering.
WF_NODISCARD WF_API wf_status wf_query_find_local_neighbourhood(
    wf_query* query, wf_poly_ref start_ref, wf_vec3 center, float radius,
    const wf_query_filter* filter, wf_poly_ref* out_refs, wf_poly_ref* out_parents, uint32_t max,
    uint32_t* out_count);

/// Wall segments of a polygon: edges with no passable neighbour under the
/// filter, as (start, end) pairs in out_segments[2 * i], out_segments[2*i+1];
/// out_neighbours[i] (optional) is the impassable polygon across, or null.
WF_NODISCARD WF_API wf_status wf_query_get_poly_wall_segments(
    wf_query* query, wf_poly_ref ref, const wf_query_filter* filter, wf_vec3* out_segments,
    wf_poly_ref* out_neighbours, uint32_t max_segments, uint32_t* out_count);

/// Distance from center to the nearest wall within max_radius (searching
/// outward from start_ref). out_distance = max_radius when none is closer.
WF_NODISCARD WF_API wf_status wf_query_find_distance_to_wall(wf_query* query, wf_poly_ref start_ref,
                                                             wf_vec3 center, float max_radius,
                                                             const wf_query_filter* filter,
                                                             float* out_distance,
                                                             wf_vec3* out_hit_pos,
                                                             wf_vec3* out_hit_normal);

/* ---------------------------------------------------------------------------
 * Random points (area-weighted, reproducible from the caller's rng)
 */

/// Uniform over the whole mesh's area (polygons passing the filter).
WF_NODISCARD WF_API wf_status wf_query_find_random_point(wf_query* query,
                                                         const wf_query_filter* filter, wf_rng* rng,
                                                         wf_poly_ref* out_ref, wf_vec3* out_point);

/// Uniform over the polygons reachable from start_ref within radius of
/// center (radius <= 0 or infinite: any reachable polygon).
WF_NODISCARD WF_API wf_status wf_query_find_random_point_around(
    wf_query* query, wf_poly_ref start_ref, wf_vec3 center, float radius,
    const wf_query_filter* filter, wf_rng* rng, wf_poly_ref* out_ref, wf_vec3* out_point);

#ifdef __cplusplus
}
#endif

#endif // WAYFARER_QUERY_H
