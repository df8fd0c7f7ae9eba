// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
/*
 * Crowd: many agents moving over one navmesh, every frame, on all cores.
 *
 *     wf_crowd_desc desc = {.mesh = mesh, .max_agents = 1000, .max_agent_radius = 0.6f,
 *                           .jobs = jobs};
 *     wf_crowd* crowd;
 *     if (wf_crowd_create(&desc, &crowd) != WF_OK) ...
 *     wf_agent_params p = wf_agent_params_defaults();   // radius 0.6, speed 3.5, ...
 *     wf_agent_id a;
 *     wf_status s = wf_crowd_add_agent(crowd, spawn, &p, &a);
 *     s = wf_crowd_request_move(crowd, a, target, &callbacks, game_object);
 *     each frame: wf_crowd_update(crowd, dt, &profile);
 *
 * The update runs in phases; each phase is a parallel loop over the agents
 * that reads what earlier phases wrote and writes only the agent's own
 * slot, so the same inputs give bit-identical agents for any worker count.
 * Callbacks run on the calling thread, in agent order, at one point of the
 * update (after paths were served, before steering).
 *
 * Threads: one thread owns the crowd. Calling into it from a callback
 * returns WF_ERR_BUSY (except the read-only getters).
 */
#ifndef WAYFARER_CROWD_H
#define WAYFARER_CROWD_H

#include "wayfarer/base.h"
#include "wayfarer/jobs.h"
#include "wayfarer/navmesh.h"
#include "wayfarer/query.h"
#include "wayfarer/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wf_crowd wf_crowd;

typedef struct wf_agent_id {
    uint64_t bits;
} wf_agent_id;

/* ---------------------------------------------------------------------------
 * Avoidance presets
 */

/// Velocity-sampling avoidance. Candidate velocities are scored by
///   weight_desired * |v - desired| / max_speed
/// + weight_current * |v - current| / max_speed
/// + weight_side * (how far v turns to the preset's side, 0..1)
/// + weight_impact / time to the first impact (agents and walls);
/// the cheapest wins. adaptive_divisions > 0 picks the adaptive pattern
/// (rings of samples around a centre, then around the best so far at half
/// the radius, adaptive_depth passes in all);
/// otherwise grid_size x grid_size samples.
typedef struct wf_avoidance_params {
    float weight_desired; ///< stay close to the desired velocity
    float weight_current; ///< stay close to the current velocity (smoothness)
    float weight_side;    ///< prefer passing on one side (right)
    float weight_impact;  ///< avoid early impacts
    float horizon_time;   ///< s: impacts later than this do not count
    float velocity_bias;  ///< 0..1: the pattern is centred at desired * bias
    /// Fraction of the full sampling range kept when the first impact at
    /// the desired velocity is beyond horizon_time (the range widens to the
    /// full range as the impact becomes imminent). 1 = always full range.
    float min_range_scale;
    uint8_t adaptive_divisions; ///< samples per ring, 1..32 (0: grid pattern)
    uint8_t adaptive_rings;     ///< 1..4
    uint8_t adaptive_depth;     ///< passes, 1..5 (1: no refinement)
    uint8_t grid_size;          ///< grid pattern: samples per side, 3..64
} wf_avoidance_params;

typedef enum wf_avoidance_quality {
    WF_AVOIDANCE_LOW = 0,
    WF_AVOIDANCE_MEDIUM = 1,
    WF_AVOIDANCE_HIGH = 2,
    WF_AVOIDANCE_ULTRA = 3,
} wf_avoidance_quality;

/// The built-in presets (also the crowd's presets 0..3 when the desc gives none).
WF_API wf_avoidance_params wf_avoidance_preset(wf_avoidance_quality quality);

/* ---------------------------------------------------------------------------
 * The crowd
 */

#define WF_CROWD_MAX_FILTERS 16u
#define WF_CROWD_MAX_AVOIDANCE_PRESETS 8u
/// Corners kept per agent (the next ones on its string-pulled path).
#define WF_CROWD_MAX_CORNERS 4u
/// Most neighbours (max_neighbours) and wall segments (max_walls) per agent.
#define WF_CROWD_MAX_NEIGHBOURS 32u
#define WF_CROWD_MAX_WALLS 32u
/// Most agents a crowd is made for (max_agents).
#define WF_CROWD_MAX_AGENTS (1u << 24)
/// Most obstacles agents only avoid a crowd is made for (max_movers).
#define WF_CROWD_MAX_MOVERS 1024u

typedef struct wf_crowd_desc {
    const wf_mesh* mesh;    ///< required; the crowd reads it during wf_crowd_update only
    uint32_t max_agents;    ///< required, 1..WF_CROWD_MAX_AGENTS
    float max_agent_radius; ///< required, > 0: agents may not be wider
    wf_job_system jobs;     ///< all zero: inline
    wf_allocator allocator;
    wf_logger logger;
    /// Query filters agents pick by index (filter_count 0: one default filter).
    /// A filter with path_mode WF_PATH_MODE_EXACT gives its agents exact
    /// shortest paths (every search, sliced or quick, in that mode); it must
    /// have every area cost 1 (else WF_ERR_INVALID_ARG), and with it every
    /// crowd query carries exact mode's storage (wf_query_desc).
    const wf_query_filter* filters;
    uint32_t filter_count; ///< <= WF_CROWD_MAX_FILTERS
    /// Avoidance presets by index (count 0: low, medium, high, ultra).
    const wf_avoidance_params* avoidance;
    uint32_t avoidance_count; ///< <= WF_CROWD_MAX_AVOIDANCE_PRESETS
    uint32_t max_corridor;    ///< polygons per agent corridor; 0 = 256
    uint32_t max_neighbours;  ///< per agent; 0 = 6
    uint32_t max_walls;       ///< wall segments per agent; 0 = 8
    /// Path queue: pending requests (0 = max_agents, so every agent can wait
    /// at once), searches running side by side (0 = 2; each holds a query of
    /// max_search_nodes nodes, about 530 KB at 4096), A* node expansions
    /// per update for all of them together (0 = 4096), nodes per search
    /// (0 = 4096), expansions a new request gets at once, during the update
    /// that takes it (0 = 32: short paths complete without the queue).
    uint32_t max_queued_paths;
    uint32_t max_searches;
    uint32_t path_iterations_per_update;
    uint32_t max_search_nodes;
    uint32_t quick_search_iterations;
    /// Corridor polygons checked ahead each update (0 = 10).
    uint32_t peek_ahead;
    /// Topology optimizations (short local re-searches) per update (0 = 8).
    uint32_t max_topology_per_update;
    /// Collision resolution passes (0 = 4); two more follow that move only
    /// agents still in a contact deeper than 0.08 m (docs/crowd.md).
    uint32_t collision_iterations;
    /// Seconds without progress before an agent replans, and again before
    /// its request reports blocked (0 = 2 s).
    float stuck_time;
    /// Routes around crowds: the crowd's path searches (default mode) cost
    /// a polygon at its area cost times 1 + crowding_cost x (agents standing
    /// in it per square metre, polygons under 1 m^2 counted as 1 m^2),
    /// counted every 15 updates. 0 (the default): off. At 2, a door's
    /// polygon with one agent per square metre costs three times its length,
    /// so later agents take a free door when the detour is shorter than
    /// that. 0..1000.
    float crowding_cost;
    /// Ways round a jam for agents held up in it: when crowding_cost is 0,
    /// an agent that has gained nothing on its next corner for a quarter of
    /// a second, with no single-file passage (a doorway it must queue for)
    /// among its corridor's next polygons, prices crowding at this cost in
    /// its short local re-searches (WF_AGENT_OPTIMIZE_TOPOLOGY, every half
    /// second) only: it may step round a knot onto a free way to the same
    /// corridor. Full path searches stay shortest. With crowding_cost > 0
    /// every search is priced at that cost and this one is not used.
    /// 0 = 8 (the default); below zero (e.g. -1) = off; at most 1000.
    float stuck_crowding_cost;
    /// Lanes by direction: an agent's short local re-searches
    /// (WF_AGENT_OPTIMIZE_TOPOLOGY, every half second), when no single-file
    /// passage lies among its corridor's next polygons, price a polygon at
    /// its cost times (its crowding factor where crowding prices the
    /// search, else 1) + flow_cost x the walkers there coming against its
    /// way (the sum of their unit desired velocities, each weighted from a
    /// quarter when it walks at the speed it wants to in full when it
    /// stands, projected on the line from the agent to its corridor's end,
    /// where negative; arrived agents walking back to their spots not
    /// counted), times the share of the polygon's walkers going one way
    /// (that sum's length over their number: a lane, not an even mix), times
    /// 3 m^2 / its area where larger (room to pass), nothing in polygons
    /// under 1.5 m^2 (smaller than a body); counted before each update's
    /// re-searches: streams meeting head-on take different lanes where
    /// there are several. Full path searches stay shortest. 0 = 16 (the
    /// default, docs/crowd.md, "Lanes by direction"); below zero (e.g. -1)
    /// = off; at most 1000.
    float flow_cost;
    /// Obstacles agents only avoid (wf_crowd_add_mover) live at once:
    /// 0 = 16, at most WF_CROWD_MAX_MOVERS.
    uint32_t max_movers;
    /// Stamped into every agent id (bits 24..31 of its slot part), so the
    /// ids of crowds sharing a game never alias: a crowd refuses another
    /// tag's id as WF_ERR_STALE_REF. The world gives each agent class its
    /// index here. 0..WF_CROWD_MAX_ID_TAG; 0 = untagged (ids as before).
    uint32_t id_tag;
} wf_crowd_desc;

/// Largest wf_crowd_desc.id_tag.
#define WF_CROWD_MAX_ID_TAG 255u

/// The desc with every field left zero set to its default (NULL: all
/// defaults). mesh and max_agent_radius have none: they stay as given.
WF_API wf_crowd_desc wf_crowd_desc_defaults(const wf_crowd_desc* desc);

/// Errors: WF_ERR_INVALID_ARG for a desc outside the ranges above (the
/// logger says which field), WF_ERR_OUT_OF_MEMORY.
WF_NODISCARD WF_API wf_status wf_crowd_create(const wf_crowd_desc* desc, wf_crowd** out);
/// Destroys the crowd (NULL is fine). No callback runs.
WF_API void wf_crowd_destroy(wf_crowd* crowd);

typedef struct wf_crowd_stats {
    uint32_t agent_count; ///< live agents
    uint32_t max_agents;
    uint32_t paths_queued; ///< requests waiting for a search
    /// Bytes the crowd holds from its allocator, its queries included;
    /// fixed at creation (steady frames allocate nothing).
    size_t memory_bytes;
} wf_crowd_stats;
/// All zero for NULL.
WF_API wf_crowd_stats wf_crowd_get_stats(const wf_crowd* crowd);

/* ---------------------------------------------------------------------------
 * Agents
 */

typedef enum wf_agent_update_flags {
    WF_AGENT_ANTICIPATE_TURNS = 1,    ///< slow down and turn early at corners
    WF_AGENT_AVOIDANCE = 2,           ///< velocity sampling against neighbours and walls
    WF_AGENT_SEPARATION = 4,          ///< push away from close neighbours
    WF_AGENT_OPTIMIZE_VISIBILITY = 8, ///< shortcut the corridor by raycast
    WF_AGENT_OPTIMIZE_TOPOLOGY = 16,  ///< short local re-searches of the corridor
    WF_AGENT_ALL = 31,
} wf_agent_update_flags;

typedef struct wf_agent_params {
    float radius;                  ///< m, > 0, <= the crowd's max_agent_radius
    float height;                  ///< m, > 0
    float max_speed;               ///< m/s, >= 0
    float max_acceleration;        ///< m/s^2, >= 0
    float collision_query_range;   ///< m: neighbours and walls within it (> radius)
    float path_optimization_range; ///< m: visibility shortcuts up to this far
    float separation_weight;       ///< >= 0
    uint32_t update_flags;         ///< wf_agent_update_flags
    uint8_t avoidance_preset;      ///< index into the crowd's presets
    uint8_t filter;                ///< index into the crowd's filters
    /// Higher priority yields less: of two agents in each other's way the
    /// one with lower priority takes the larger share of the avoiding.
    uint8_t priority;
    uint64_t user_data; ///< the game's own value, returned in state
} wf_agent_params;

/// radius 0.6, height 2, speed 3.5, accel 8, query range 12 radii,
/// optimization range 30 radii, separation 2, all flags, preset high (2),
/// filter 0, priority 0.
WF_API wf_agent_params wf_agent_params_defaults(void);

/// Adds an agent standing at the nearest navmesh point to pos.
/// WF_ERR_INVALID_ARG (NaN, bad params), WF_ERR_NOT_FOUND (no polygon
/// near pos), WF_ERR_CAPACITY (max_agents live), WF_ERR_BUSY.
WF_NODISCARD WF_API wf_status wf_crowd_add_agent(wf_crowd* crowd, wf_vec3 pos,
                                                 const wf_agent_params* params,
                                                 wf_agent_id* out_id);
/// Removes an agent; its pending request ends without callbacks.
WF_NODISCARD WF_API wf_status wf_crowd_remove_agent(wf_crowd* crowd, wf_agent_id id);
WF_NODISCARD WF_API wf_status wf_crowd_set_agent_params(wf_crowd* crowd, wf_agent_id id,
                                                        const wf_agent_params* params);
/// Moves an agent to the nearest navmesh point to pos, velocity zero. A
/// running move request continues (its path is searched again).
WF_NODISCARD WF_API wf_status wf_crowd_teleport_agent(wf_crowd* crowd, wf_agent_id id, wf_vec3 pos);
WF_API uint32_t wf_crowd_agent_count(const wf_crowd* crowd);
/// Live agent ids in slot order; returns how many were written.
WF_API uint32_t wf_crowd_get_agents(const wf_crowd* crowd, wf_agent_id* out, uint32_t max);

typedef enum wf_agent_mode {
    WF_AGENT_WALKING = 0, ///< on the surface (with or without a target)
    WF_AGENT_OFFMESH = 1, ///< traversing an off-mesh link
    WF_AGENT_LOST = 2,    ///< its polygon vanished and no surface is near
} wf_agent_mode;

typedef enum wf_target_state {
    WF_TARGET_NONE = 0,
    WF_TARGET_REQUESTED = 1, ///< waiting for its path (moving on a quick partial one)
    WF_TARGET_VALID = 2,     ///< following its path
    WF_TARGET_VELOCITY = 3,  ///< steered by a velocity request
    /// Reached the end of its path (within a quarter radius) or stopped short
    /// of a taken target; holds that spot (walks back when pushed off it)
    /// until a new request or a cancel.
    WF_TARGET_ARRIVED = 4,
    /// Path broken and not repaired, or stuck: stopped, or moving to the last
    /// valid point and retried every stuck_time (VALID again once the way is
    /// found; held up by others, at each retry). A blockage by others is
    /// reported (event, blocked callback) once, until the agent walked free.
    WF_TARGET_BLOCKED = 5,
    WF_TARGET_FAILED = 6, ///< no path at all (rejected or unreachable)
} wf_target_state;

/// An agent's state. Pointers stay valid until the next call that changes
/// the crowd.
typedef struct wf_agent_state {
    wf_agent_params params;
    wf_agent_mode mode;
    wf_target_state target_state;
    wf_vec3 position;
    wf_vec3 velocity;
    wf_vec3 desired_velocity;
    wf_vec3 target;          ///< the target on the navmesh
    wf_poly_ref poly;        ///< polygon the agent stands on
    uint32_t corridor_count; ///< its polygons: wf_crowd_get_corridor
    bool corridor_partial;   ///< the corridor ends short of the target
    wf_straight_point corners[WF_CROWD_MAX_CORNERS];
    uint32_t corner_count;
    uint32_t neighbour_count;
    float path_wait;  ///< s since the request waited for its path (0: none)
    float stuck_time; ///< s without progress
} wf_agent_state;

WF_NODISCARD WF_API wf_status wf_crowd_get_agent(const wf_crowd* crowd, wf_agent_id id,
                                                 wf_agent_state* out);

/// Copies an agent's corridor, the polygons from the one it stands on to
/// the target's, into out[0..max) (the crowd keeps them in 32 bits, so
/// there is no array of refs to point at). *out_count: the corridor's
/// length (wf_agent_state.corridor_count). WF_ERR_CAPACITY when max is
/// smaller (the first max are written); out may be NULL when max is 0.
WF_NODISCARD WF_API wf_status wf_crowd_get_corridor(const wf_crowd* crowd, wf_agent_id id,
                                                    wf_poly_ref* out, uint32_t max,
                                                    uint32_t* out_count);

/* ---------------------------------------------------------------------------
 * Movement requests
 */

typedef struct wf_path_info {
    uint32_t corridor_count; ///< polygons
    bool partial;            ///< the path ends at the reachable point nearest the target
    /// The search's cost to the path's end: metres along the polygons with
    /// the default area costs (a string-pulled path is a little shorter).
    float cost;
    float wait; ///< s from the request to this result
} wf_path_info;

/// Callbacks of a move request; each may be NULL (defaults in brackets).
/// They run on the thread calling wf_crowd_update, in agent order.
typedef struct wf_move_callbacks {
    /// The path is known: true to follow it [true]. Rejecting stops the agent.
    bool (*result)(wf_agent_id agent, const wf_path_info* info, void* user);
    /// The path broke and a repair failed, or the agent stayed stuck (once
    /// per blockage): true to keep moving along what is still valid [true],
    /// false to stop now.
    bool (*blocked)(wf_agent_id agent, void* user);
    /// The agent reached the end of its path (ARRIVED event) or stopped
    /// short of a taken target (STOPPED_SHORT): true to keep following the
    /// target (a follow behaviour: it moves again when the target moves or
    /// it is pushed away) [false: the request ends; the agent holds its
    /// spot, stepping aside for others and walking back].
    bool (*done)(wf_agent_id agent, void* user);
} wf_move_callbacks;

/// Starts moving towards the navmesh point nearest target (replacing any
/// request). callbacks may be NULL. WF_ERR_NOT_FOUND when no polygon is
/// near target, WF_ERR_CAPACITY when the path queue is full (nothing
/// changes: ask again next frame), WF_ERR_INVALID_ARG for NaN.
WF_NODISCARD WF_API wf_status wf_crowd_request_move(wf_crowd* crowd, wf_agent_id id, wf_vec3 target,
                                                    const wf_move_callbacks* callbacks, void* user);
/// Moves the target of a running request (the path is repaired, not
/// searched again, when the new target lies in the corridor's last polygon).
WF_NODISCARD WF_API wf_status wf_crowd_retarget(wf_crowd* crowd, wf_agent_id id, wf_vec3 target);
/// Steers by velocity (no path); avoidance and collisions still apply.
WF_NODISCARD WF_API wf_status wf_crowd_request_velocity(wf_crowd* crowd, wf_agent_id id,
                                                        wf_vec3 velocity);
/// Ends any request; the agent slows to a stop. No callback runs.
WF_NODISCARD WF_API wf_status wf_crowd_cancel_move(wf_crowd* crowd, wf_agent_id id);

/* ---------------------------------------------------------------------------
 * The update
 */

typedef enum wf_crowd_phase {
    WF_CROWD_PHASE_VALIDATE = 0, ///< corridors checked ahead, replans queued
    WF_CROWD_PHASE_PATHS,        ///< quick searches and the path queue
    WF_CROWD_PHASE_CALLBACKS,    ///< path results applied, callbacks
    WF_CROWD_PHASE_TOPOLOGY,     ///< budgeted local re-searches
    WF_CROWD_PHASE_GRID,         ///< proximity grid
    WF_CROWD_PHASE_NEIGHBOURS,   ///< neighbours and wall boundary
    WF_CROWD_PHASE_CORNERS,      ///< corners, visibility shortcuts, off-mesh triggers
    WF_CROWD_PHASE_STEERING,     ///< desired velocity and separation
    WF_CROWD_PHASE_AVOIDANCE,
    WF_CROWD_PHASE_INTEGRATE,
    WF_CROWD_PHASE_COLLISIONS,
    WF_CROWD_PHASE_SURFACE, ///< move along the surface, corridor follows
    WF_CROWD_PHASE_EVENTS,  ///< arrivals, off-mesh traversal, stuck checks
    WF_CROWD_PHASE_COUNT
} wf_crowd_phase;

typedef struct wf_crowd_profile {
    double phase_us[WF_CROWD_PHASE_COUNT];
    double total_us;
    uint32_t paths_completed; ///< requests whose path was found this update
    uint32_t path_iterations; ///< A* expansions spent (quick + queue)
    uint32_t paths_queued;    ///< still waiting at the end of the update
    uint32_t replans;         ///< corridors repaired or searched again
    uint32_t topology_optimizations;
    uint32_t avoidance_samples; ///< velocity candidates scored
    uint32_t lost_agents;       ///< agents with no surface under them
} wf_crowd_profile;

/// Advances the crowd by dt seconds (0 < dt <= 1). profile may be NULL.
/// WF_ERR_INVALID_ARG for a bad dt, WF_ERR_BUSY from inside a callback.
WF_NODISCARD WF_API wf_status wf_crowd_update(wf_crowd* crowd, float dt, wf_crowd_profile* profile);

/// Tiles replaced or removed since the last update (their old refs): the
/// next update checks every corridor that crosses them in full, not only
/// the polygons just ahead. Calling it is optional: peek-ahead alone still
/// finds every change before an agent gets there.
WF_NODISCARD WF_API wf_status wf_crowd_tiles_changed(wf_crowd* crowd, const wf_tile_ref* old_tiles,
                                                     uint32_t count);

typedef enum wf_crowd_event_kind {
    WF_CROWD_EVENT_ARRIVED = 0,
    WF_CROWD_EVENT_BLOCKED = 1,
    WF_CROWD_EVENT_REPLANNED = 2,
    WF_CROWD_EVENT_OFFMESH_START = 3,
    WF_CROWD_EVENT_OFFMESH_END = 4,
    WF_CROWD_EVENT_LOST = 5, ///< the surface under the agent vanished
    /// Instead of ARRIVED: the agent came within two radii of its target
    /// but got no nearer for the stuck time (another agent stands there, or
    /// the target is against a wall); done runs as for an arrival.
    WF_CROWD_EVENT_STOPPED_SHORT = 6,
} wf_crowd_event_kind;

typedef struct wf_crowd_event {
    wf_agent_id agent;
    wf_crowd_event_kind kind;
    wf_poly_ref ref; ///< off-mesh link for the off-mesh events
} wf_crowd_event;

/// Events of the last update in agent order; valid until the next update
/// begins (from a callback inside an update: none).
/// Never cut: the buffer holds every event an update can make.
WF_API const wf_crowd_event* wf_crowd_events(const wf_crowd* crowd, uint32_t* out_count);

/* ---------------------------------------------------------------------------
 * Debug API (drawing agents; steering never needs it)
 *
 * wf_crowd_get_agent gives position, velocity (actual), desired velocity,
 * the corridor polygons and the corners. Below: the neighbours as ids, and
 * for one watched agent the candidate velocities avoidance scored in the
 * last update. Watching changes no result and allocates nothing per
 * update: the candidate buffer is sized at create for the largest preset.
 */

/// The agent's neighbours of the last update, nearest first (at most the
/// desc's max_neighbours). Writes min(count, max) ids; *out_count gets the
/// full count. WF_ERR_CAPACITY when max is below it (the first max
/// written), WF_ERR_STALE_REF / WF_ERR_WRONG_KIND, WF_ERR_INVALID_ARG
/// (NULL crowd or out_count, null id, out NULL with max > 0).
WF_NODISCARD WF_API wf_status wf_crowd_get_agent_neighbours(const wf_crowd* crowd, wf_agent_id id,
                                                            wf_agent_id* out, uint32_t max,
                                                            uint32_t* out_count);

/// One candidate velocity of the watched agent and its avoidance score
/// (lower is better; the chosen velocity is the first with the lowest).
typedef struct wf_avoidance_candidate {
    wf_vec3 velocity; ///< on XZ, y = 0
    float score;
} wf_avoidance_candidate;

/// What avoidance did for the watched agent in the last update.
typedef struct wf_avoidance_debug {
    wf_agent_id agent;
    /// Avoidance ran for it in the last update (walking, WF_AGENT_AVOIDANCE
    /// set). False: the fields below are zero.
    bool sampled;
    wf_vec3 desired_velocity; ///< avoidance's input
    wf_vec3 chosen_velocity;  ///< its output, before acceleration limits
    /// Candidates scored; 0 when nothing was within reach (the desired
    /// velocity was taken as it is).
    uint32_t candidate_count;
} wf_avoidance_debug;

/// Watches one agent: from the next update on, avoidance records its
/// candidates and scores. A null id stops watching. WF_ERR_STALE_REF /
/// WF_ERR_WRONG_KIND (nothing changes), WF_ERR_BUSY inside wf_crowd_update,
/// WF_ERR_INVALID_ARG (NULL crowd).
WF_NODISCARD WF_API wf_status wf_crowd_set_debug_agent(wf_crowd* crowd, wf_agent_id id);

/// The watched agent's last avoidance: *out_info, and min(count, max)
/// candidates in scoring order into out; *out_count gets the full count.
/// WF_ERR_NOT_FOUND when no agent is watched or no update ran since
/// watching began, WF_ERR_STALE_REF when the watched agent was removed,
/// WF_ERR_CAPACITY when max is below the count (the first max written),
/// WF_ERR_BUSY inside wf_crowd_update, WF_ERR_INVALID_ARG (NULL crowd,
/// out_info or out_count, out NULL with max > 0). Nothing is written on
/// an error other than WF_ERR_CAPACITY.
WF_NODISCARD WF_API wf_status wf_crowd_get_avoidance_debug(const wf_crowd* crowd,
                                                           wf_avoidance_debug* out_info,
                                                           wf_avoidance_candidate* out,
                                                           uint32_t max, uint32_t* out_count);

/* ---------------------------------------------------------------------------
 * Obstacles agents only avoid ("movers")
 *
 * Things that move too often to carve into the navmesh (a rolling boulder,
 * a vehicle, the player): upright cylinders the game places every frame,
 * which agents avoid like neighbours that never yield. No tile is rebuilt
 * and no path search knows of them. Each update, for every walking agent:
 *   - steering: when a mover cluster (movers whose circles, grown by the
 *     agent's radius, overlap) stands on the line to the next corner, the
 *     agent heads for the cluster's silhouette tangent on the shorter side
 *     whose way is not cut by a wall (up to 3 clusters in a row); with
 *     both sides walled off it heads on and waits (avoidance stops it), and
 *     its stuck timer replans and reports blocked as for any jam.
 *     Separation also pushes it off movers it nears;
 *   - avoidance: the nearest 8 movers within collision_query_range join its
 *     neighbours with their velocity; the agent takes the whole avoiding
 *     (half against another agent);
 *   - collisions: each pass puts it back outside every mover (movers are
 *     not pushed); only the navmesh edge (a mover pressing an agent into a
 *     wall) can leave an overlap.
 * A mover touches agents whose height range [y, y + height] overlaps its
 * own. The crowd does not move movers: the game sets position and velocity
 * (velocity is the prediction avoidance uses). Movers are saved and
 * restored with the crowd.
 *
 * Threads: like the agent calls, on the thread that owns the crowd and not
 * inside wf_crowd_update (WF_ERR_BUSY; wf_crowd_get_mover is a read-only
 * getter). Capacity is fixed at creation (max_movers); nothing allocates.
 */

typedef struct wf_mover_id {
    uint64_t bits;
} wf_mover_id;

typedef struct wf_mover {
    wf_vec3 position; ///< centre of its base
    wf_vec3 velocity; ///< m/s on XZ (y ignored)
    float radius;     ///< m, finite, > 0
    float height;     ///< m, finite, > 0
} wf_mover;

/// Adds a mover. WF_ERR_INVALID_ARG (NULL, a non-finite field, radius or
/// height <= 0), WF_ERR_CAPACITY (max_movers live), WF_ERR_BUSY.
WF_NODISCARD WF_API wf_status wf_crowd_add_mover(wf_crowd* crowd, const wf_mover* mover,
                                                 wf_mover_id* out_id);
/// Places a mover (each frame, before wf_crowd_update). WF_ERR_INVALID_ARG
/// (a non-finite position or velocity, the null id), WF_ERR_STALE_REF (an
/// id that is not live), WF_ERR_BUSY; on an error nothing changes.
WF_NODISCARD WF_API wf_status wf_crowd_set_mover(wf_crowd* crowd, wf_mover_id id, wf_vec3 position,
                                                 wf_vec3 velocity);
/// Removes a mover (its id turns stale). Errors as wf_crowd_set_mover.
WF_NODISCARD WF_API wf_status wf_crowd_remove_mover(wf_crowd* crowd, wf_mover_id id);
/// A live mover's state. WF_ERR_INVALID_ARG (NULL, the null id),
/// WF_ERR_STALE_REF.
WF_NODISCARD WF_API wf_status wf_crowd_get_mover(const wf_crowd* crowd, wf_mover_id id,
                                                 wf_mover* out);

/* ---------------------------------------------------------------------------
 * Save and restore
 *
 * The crowd's whole state (agents and their ids, corridors, requests, the
 * path queue and the searches in progress) as bytes, for save games: a
 * crowd restored over the same navmesh (same tiles, ids and generations,
 * e.g. from wf_mesh_load) continues bit-identically to the one saved.
 * Callbacks and their user pointers are code, not data: they are not
 * saved; wf_crowd_set_callbacks attaches them again after a restore.
 * The bytes are for the same build of the library on the same kind of
 * machine (not a portable file format).
 */

WF_NODISCARD WF_API wf_status wf_crowd_save_size(const wf_crowd* crowd, size_t* out_size);
WF_NODISCARD WF_API wf_status wf_crowd_save(const wf_crowd* crowd, void* out, size_t size);
/// Replaces the crowd's state with a saved one. The crowd must have been
/// created with the same capacities (else WF_ERR_CAPACITY); damaged or
/// truncated bytes give WF_ERR_BAD_DATA, another format WF_ERR_VERSION;
/// on any error the crowd is unchanged. Allocates nothing.
WF_NODISCARD WF_API wf_status wf_crowd_restore(wf_crowd* crowd, const void* data, size_t size);
/// Attaches callbacks to an agent's running request (after a restore).
WF_NODISCARD WF_API wf_status wf_crowd_set_callbacks(wf_crowd* crowd, wf_agent_id id,
                                                     const wf_move_callbacks* callbacks,
                                                     void* user);

#ifdef __cplusplus
}
#endif

#endif
