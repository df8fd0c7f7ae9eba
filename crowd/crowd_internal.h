// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The crowd's storage: one array per agent field (struct of arrays), so a
// phase touches only the fields it needs and writes only its agent's slot.
#ifndef WF_CROWD_INTERNAL_H
#define WF_CROWD_INTERNAL_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "crowd/agent_fields.h"
#include "crowd/avoidance.h"
#include "crowd/corridor.h"
#include "crowd/local_boundary.h"
#include "crowd/movers.h"
#include "crowd/path_queue.h"
#include "crowd/proximity_grid.h"
#include "navcore/id_pool.h"
#include "wayfarer/crowd.h"

/// Events one agent can cause in one update: each kind at most once, and
/// ARRIVED and STOPPED_SHORT (two ends of one request) count as one kind,
/// so one slot a kind and the buffer is never cut.
#define WF_CROWD_EVENTS_PER_AGENT 6u
_Static_assert(WF_CROWD_EVENTS_PER_AGENT == WF_CROWD_EVENT_STOPPED_SHORT,
               "one event slot per kind, arrivals sharing one");
// event_log keeps kind + 1 in 3 bits per slot (crowd.c).
_Static_assert(WF_CROWD_EVENT_STOPPED_SHORT + 1 <= 7 && WF_CROWD_EVENTS_PER_AGENT * 3 <= 32,
               "an agent's event kinds fit event_log's 32 bits");

/// Per-agent flags (agent_flags).
enum {
    AGENT_NEEDS_QUICK = 1u << 0,       ///< a new search starts with a quick slice this update
    AGENT_NEEDS_REPLAN = 1u << 1,      ///< corridor cut: queue a search from its end
    AGENT_QUEUED = 1u << 2,            ///< in the path queue (or its search is running)
    AGENT_NOTIFY_RESULT = 1u << 3,     ///< the result callback is due
    AGENT_NOTIFY_BLOCKED = 1u << 4,    ///< the blocked callback is due
    AGENT_NOTIFY_DONE = 1u << 5,       ///< the done callback is due
    AGENT_IS_REPLAN = 1u << 6,         ///< the running search repairs a broken path
    AGENT_FOLLOW = 1u << 7,            ///< done returned true: keep following
    AGENT_DONE_SENT = 1u << 8,         ///< done reported for this arrival
    AGENT_WANTS_OFFMESH = 1u << 9,     ///< at an off-mesh link start
    AGENT_WAITS_OFFMESH = 1u << 10,    ///< that link is busy: wait
    AGENT_STUCK_REPLANNED = 1u << 11,  ///< stuck once: replanned; next time blocked
    AGENT_CONTINUE_BLOCKED = 1u << 12, ///< blocked, but moves on along what is valid
    AGENT_STOPPED_SHORT = 1u << 13,    ///< arrived short of its target (it was taken)
    AGENT_RETURNING = 1u << 14,        ///< arrived, pushed off its spot, stuck: others make way
    AGENT_PINCH_GO = 1u << 15,         ///< admitted to the single-file passage ahead
    AGENT_WAITS_PINCH = 1u << 16,      ///< the passage ahead is the other side's: wait
    AGENT_PINCH_LEAD = 1u << 17,       ///< admitted and nearest the passage's mouth: others yield
    /// Blocked by others and reported (one BLOCKED per blockage): set
    /// until it walks freely again, arrives or gets a new request.
    AGENT_BLOCK_SENT = 1u << 18,
    /// While AGENT_BLOCK_SENT: brisk steps on in a row (0-15) towards
    /// freeing it (crowd_update.c, walks_free).
    AGENT_FREE_STEPS = 15u << 19,
    /// Arrived: its spot was moved off its target to share the room with a
    /// neighbour whose target crowds it (shared_spot.c); back on it after.
    AGENT_SHARES_SPOT = 1u << 23,
};
#define AGENT_FREE_STEPS_SHIFT 19u

/// A single-file passage found on an agent's corridor (bottleneck.c): the
/// portal from polygon `from` to `to`, its midpoint and the unit direction
/// across it (from -> to), on the ground plane. from.bits == 0: none.
typedef struct wf_crowd_passage {
    wf_poly_ref from, to;
    float mid_x, mid_z, axis_x, axis_z;
    uint8_t at;  ///< the portal's index on the corridor (from = polygon `at`)
    uint8_t run; ///< narrow portals in a row from it (1: the portal alone)
    bool lane;   ///< the run is a one-lane stretch longer than a doorway's depth
} wf_crowd_passage;

/// This update's passage ahead of an agent (its wf_crowd_passage is in
/// pinch_found): the agent's distance to the portal's midpoint, the table
/// entries and the sides it joined.
typedef struct wf_crowd_pinch {
    uint32_t entry[2];
    float dist;
    uint8_t side[2];
    bool ahead;     ///< a passage lies ahead, within reach (else the rest is stale)
    bool both_ways; ///< agents come to it from both sides this update
    uint8_t lane;   ///< one-lane stretch: 0 none, 1 walks in one, 2 about to enter one
} wf_crowd_pinch;

/// A passage in the per-update table (bottleneck.c): its key (that of the
/// agent `owner`: the polygon beyond its portal, or the portal itself), up
/// to two sides (the polygon an agent of the side comes from), per side its
/// agent nearest the mouth and its admitted agent nearest it (infinite:
/// none), and the side with the way. Keys and sides name an agent rather
/// than hold polygon refs: 68 bytes an entry.
typedef struct wf_crowd_pinch_entry {
    uint32_t owner;
    uint32_t side_agent[2];
    uint32_t nearest_slot[2], go_slot[2];
    float nearest[2], go_nearest[2];
    float go_stuck[2]; ///< the stuck timer of the side's admitted agent nearest the mouth
    float waited[2];   ///< longest a waiting agent of the side has stood (its stuck timer)
    uint8_t sides, holder;
    bool closed;     ///< the holder admits nobody new: the other side waited its turn
    bool portal;     ///< keyed by the portal (else by the polygon beyond it)
    uint8_t lane_at; ///< a portal of the owner's one-lane run (its index in it); 0xff: not
} wf_crowd_pinch_entry;

/// What the last finished search gave (for the result callback).
typedef struct wf_crowd_result {
    uint32_t corridor_count;
    bool partial;
    float cost;
    float wait;
} wf_crowd_result;

/// Off-mesh traversal.
typedef struct wf_crowd_offmesh {
    wf_vec3 start, end;
    float t, duration;
    wf_poly_ref link;
} wf_crowd_offmesh;

/// A worker's profile counters, on cache lines of their own: each worker
/// adds to its own once a block, and counters of two workers on one line
/// made every such add take the line from the other core.
typedef struct wf_crowd_worker_tally {
    _Alignas(64) double phase_us[WF_CROWD_PHASE_COUNT]; ///< thread time per phase
    uint32_t iterations; ///< A* expansions, then avoidance samples (profile)
} wf_crowd_worker_tally;

struct wf_crowd {
    wf_allocator allocator;
    wf_logger logger;
    wf_job_system jobs;
    const wf_mesh* mesh;
    wf_id_pool ids;
    bool busy; ///< inside wf_crowd_update

    uint32_t max_agents;
    float max_agent_radius;
    uint32_t max_corridor, max_neighbours, max_walls;
    uint32_t quick_iterations, peek_ahead, max_topology, collision_iterations;
    float stuck_time;
    wf_query_filter filters[WF_CROWD_MAX_FILTERS];
    uint32_t filter_count;
    wf_avoidance_params presets[WF_CROWD_MAX_AVOIDANCE_PRESETS];
    uint32_t preset_count;
    /// Avoidance's scoring code: AUTO (zero) unless a test pins one
    /// (wf_crowd_set_avoidance_kernel).
    wf_avoid_kernel avoid_kernel;
    wf_vec3 search_extents; ///< half box for nearest-poly lookups
    double time;            ///< seconds simulated
    uint32_t frame;         ///< updates run
    uint64_t next_request_seq;

    // Agents, by slot: one array per field of agent_fields.h.
#define WF_CROWD_DECLARE_FIELD(name, type, count, keep, check) type* name;
    WF_CROWD_AGENT_FIELDS(WF_CROWD_DECLARE_FIELD)
#undef WF_CROWD_DECLARE_FIELD

    // Per worker: a query for local work (quick searches, surface moves).
    uint32_t worker_count;
    wf_query** worker_queries;
    wf_poly_ref* worker_paths;           ///< max_corridor refs per worker (also corridor scratch)
    wf_crowd_worker_tally* worker_tally; ///< profile counters, one per worker

    wf_path_queue queue;
    wf_proximity_grid grid;
    bool tiles_changed; ///< check whole corridors in the next update
    // Corridors hold 32-bit ids (crowd/ref_codec.h): the split for the
    // mesh's tile slots; generations are read from the mesh.
    wf_ref_codec codec;
    uint16_t* generations;        ///< the codec's copy during an update (ref_codec.h)
    uint32_t generation_capacity; ///< slots it holds: the mesh's at create, 0 above 4096

    // update_scratch (agent_fields.h) holds three things whose lives never
    // overlap, in update order: the passage table (wf_crowd_order_pinches
    // only); per agent the inputs the steps from the grid to the collision
    // passes read of each other (written by the grid's inputs pass and
    // integration, each before it is read) and the proximity grid (built
    // after the passages, queried by steering only); the event list,
    // written at the end of the update from event_log and read until the
    // next one begins.
    wf_crowd_pinch_entry* pinch_table; ///< two keys an agent at most
    uint32_t* rank;                    ///< right of way this update
    wf_vec3* intent;    ///< desired velocity of the last update (steering overwrites desired_vel)
    wf_vec3* wall_line; ///< nearest wall in collisions: x,z inward, y offset
    wf_crowd_event* agent_events; ///< the last update's events (event_count of them)
    uint32_t event_count;
    // Crowding (crowding.c): a table polygon ref -> cost factor (the
    // crowding_keys / crowding_scale fields), refreshed every
    // WF_CROWD_CROWDING_FRAMES updates when crowding_cost or
    // stuck_crowding_cost is above 0; its factors are built from
    // crowding_cost when that prices every search, else from
    // stuck_crowding_cost (held-up agents' local re-searches only).
    float crowding_cost;
    float stuck_crowding_cost;  ///< 0: off
    float flow_cost;            ///< lanes by direction (crowding.c's flow table); 0: off
    uint32_t crowding_capacity; ///< a power of two, at least twice max_agents
    uint32_t pinch_capacity;    ///< passage table's hash slots (bottleneck.c): crowding_capacity

    // Debug watch (crowd_debug.c): one agent's avoidance candidates, into a
    // buffer sized at create for the largest preset.
    uint64_t debug_id;     ///< watched agent, 0: none
    uint32_t debug_slot;   ///< its slot this update (WF_CROWD_NO_DEBUG: none)
    bool debug_recorded;   ///< an update ran since the watch began
    bool debug_sampled;    ///< avoidance ran for it in that update
    wf_vec3 debug_desired; ///< avoidance's input
    wf_vec3 debug_chosen;  ///< and output
    wf_avoid_record debug_record;

    wf_crowd_movers movers; ///< obstacles agents only avoid (movers.c)
};

#define WF_CROWD_NO_DEBUG 0xffffffffu

/// update_scratch's size in 8-byte words: the largest of a full event list
/// (every agent every kind), the passage table, and the steps' inputs with
/// the proximity grid. (The table's hash slots keep their own array: they
/// are freed entry by entry after use, cheaper than clearing them all.)
static inline size_t wf_crowd_scratch_words(const wf_crowd* c) {
    size_t n = c->max_agents;
    size_t events = n * WF_CROWD_EVENTS_PER_AGENT * sizeof(wf_crowd_event);
    size_t pinches = n * 2u * sizeof(wf_crowd_pinch_entry);
    size_t steps = n * (sizeof(uint32_t) + 2u * sizeof(wf_vec3)) +
                   wf_proximity_grid_storage_bytes(c->max_agents);
    size_t bytes = events > pinches ? events : pinches;
    bytes = bytes > steps ? bytes : steps;
    return (bytes + sizeof(uint64_t) - 1u) / sizeof(uint64_t);
}

/// Where a crowd's bytes go (docs/crowd.md, "Where every byte goes"):
/// every block it holds from its allocator, by owner; total is
/// wf_crowd_stats.memory_bytes.
typedef struct wf_crowd_memory {
    size_t crowd;        ///< the wf_crowd struct
    size_t agent_arrays; ///< agent_fields.h's arrays (corridors included)
    size_t ids;          ///< the agent id pool
    size_t path_queue;   ///< waiting line, search slots, their queries and paths
    size_t grid;         ///< proximity grid
    size_t workers;      ///< per worker: a query, a path buffer, profile counters
    size_t debug;        ///< the debug watch's candidate buffer
    size_t movers;       ///< obstacles agents only avoid
    size_t generations;  ///< the tile slots' generations, copied for updates
    size_t total;
} wf_crowd_memory;

wf_crowd_memory wf_crowd_get_memory(const wf_crowd* c);

/// Resolves the watched agent's slot before an update's phases
/// (crowd_debug.c); clears the last record.
void wf_crowd_debug_begin_update(wf_crowd* c);

/// Filter and preset of an agent.
static inline const wf_query_filter* wf_crowd_filter(const wf_crowd* c, uint32_t i) {
    return &c->filters[c->params[i].filter];
}

/// A filter the crowd can search with: finite, non-negative area costs,
/// a known path mode, and every cost 1 in exact mode (exact on lengths, it
/// takes no costs). Checked at create and on loading a saved search.
static inline bool wf_crowd_filter_is_valid(const wf_query_filter* f) {
    if (f->path_mode > WF_PATH_MODE_EXACT) {
        return false;
    }
    bool exact = f->path_mode == WF_PATH_MODE_EXACT;
    for (uint32_t a = 0; a < WF_MAX_AREAS; ++a) {
        float cost = f->area_cost[a];
        if (!isfinite(cost) || cost < 0.0f || (exact && cost != 1.0f)) {
            return false;
        }
    }
    return true;
}

/// Agent params the crowd accepts (add, set, and a load's live agents).
bool wf_crowd_params_valid(const wf_crowd* c, const wf_agent_params* p);

/// Internal, for tests: the avoidance kernel this crowd runs (every kernel
/// gives the same bits; the determinism suite proves it on whole scenes).
/// WF_ERR_INVALID_ARG when this build or processor lacks it; not while
/// updating.
wf_status wf_crowd_set_avoidance_kernel(wf_crowd* c, wf_avoid_kernel kernel);

void wf_crowd_push_event(wf_crowd* c, uint32_t i, wf_crowd_event_kind kind, wf_poly_ref ref);
/// Appends agent i's events of this update, in the order sent, to the list
/// wf_crowd_events gives (in the update scratch, free by then) from
/// position count, and empties its log; returns the new count. Called in
/// slot order at the end of an update.
uint32_t wf_crowd_list_events_of(wf_crowd* c, uint32_t i, uint32_t count);

#endif
