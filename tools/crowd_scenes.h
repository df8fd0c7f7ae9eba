// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The crowd scenario suite of `wayfarer scenarios`: scenes built by name
// (crowd_scenes.c: geometry, navmesh, agent starts and targets) and a
// runner that moves a crowd through one and measures it (crowd_runner.c).
#ifndef WF_TOOLS_CROWD_SCENES_H
#define WF_TOOLS_CROWD_SCENES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "wayfarer/crowd.h"
#include "wayfarer/navmesh.h"
#include "wayfarer/query.h"
#include "wayfarer/rng.h"
#include "wayfarer/tilecache.h"

/// An agent counts as arrived within this distance (2D) of its target, on
/// its target's floor (scene_at_target).
#define SCENE_ARRIVAL_RADIUS 0.6f
/// The RecastDemo crowd's frame.
#define SCENE_DT (1.0f / 30.0f)
/// Seconds between two trace dumps (scene_settings.trace).
#define SCENE_TRACE_SECONDS 10.0f
/// The trace's `near` column counts the agents within this distance (m, 2D).
#define SCENE_TRACE_NEAR 1.5f
/// The trace's wall columns look this far (m).
#define SCENE_TRACE_WALL 3.0f
/// The trace's columns, tab-separated (the first line of a trace file).
#define SCENE_TRACE_HEADER                                                                         \
    "scene\tseed\tt\tagent\tx\ty\tz\ttarget_x\ttarget_y\ttarget_z\tdistance\ttarget_state\t"       \
    "corridor\tpartial\tspeed\tdesired_speed\tstuck_s\tneighbours\tpath_left\tvelocity_x\t"        \
    "velocity_z\tdesired_x\tdesired_z\tcorner_x\tcorner_z\tnear\tnear_holders\tnearest\twall\t"    \
    "width\ttarget_wall\twall_nx\twall_nz\tcorner_wall\n"

/// What a run may change from a scene's own settings.
typedef struct scene_settings {
    float seconds;      ///< 0: the scene's own length (60 s; the demo 1,000 frames)
    uint32_t agents;    ///< 0: the scene's own count (scenes of fixed formations ignore it)
    uint32_t avoidance; ///< avoidance preset index (wf_avoidance_quality), default high
    uint32_t workers;   ///< 0 or 1: inline
    uint32_t seed;      ///< placement seed (random scenes); 0 is a seed like any other
    /// Fixed formations: each start moved by up to this much (m, each axis,
    /// from the seed) before it is put on the navmesh; 0: exactly as drawn.
    float jitter;
    float crowding;       ///< wf_crowd_desc.crowding_cost (0: off)
    float stuck_crowding; ///< wf_crowd_desc.stuck_crowding_cost (0: its default; negative: off)
    float flow;           ///< wf_crowd_desc.flow_cost (0: off)
    /// Optional: after the first frame, every trace_seconds and at the end,
    /// one tab-separated line per agent that has not reached its first
    /// target (scene_run).
    FILE* trace;
    float trace_seconds;  ///< between two dumps (0: SCENE_TRACE_SECONDS)
    const char* testdata; ///< the shared test data folder (NULL: ../shared/testdata)
    /// Optional: scene_build also writes the scene's triangles here as a
    /// Wavefront OBJ (scene_export; the peer comparison's input).
    const char* export_obj;
} scene_settings;

/// scene_build results besides 0.
enum { SCENE_SKIPPED = -1, SCENE_UNKNOWN = -2, SCENE_FAILED = -3 };

/// A built scene: its navmesh and where each agent starts and goes.
typedef struct scene {
    const char* name;
    wf_tilecache* tc;
    wf_mesh* mesh;
    wf_query* query; ///< on mesh, with enough nodes for any path of the scene
    uint32_t agent_count;
    wf_vec3* starts;         ///< on the navmesh (snapped)
    wf_vec3* targets;        ///< on the navmesh (snapped)
    uint32_t starts_on_mesh; ///< starts that lay on the navmesh before snapping (within 5 cm)
    uint32_t targets_on_mesh;
    float seconds; ///< default run length
    /// Targets are replaced on arrival (the demo): a new random reachable one.
    bool retarget;
    wf_rng rng;       ///< for new targets
    float door_width; ///< m, door scenes (0 otherwise)
    /// two_doors: the free door's centre on the wall (x; the wall is z = 0)
    /// and width (0: no second door).
    float second_door_x, second_door_width;
    const char* note;          ///< a remark for the report, or NULL
    char skip_reason[160];     ///< why the scene was skipped (SCENE_SKIPPED)
    wf_poly_ref* path_scratch; ///< scene_path_length's buffers
    wf_straight_point* straight_scratch;
    /// A second query for diagnostics (scene_path_length_aside), made on
    /// first use: searches there leave query, which picks the targets, as
    /// a run without them left it.
    wf_query* aside_query;
} scene;

/// Scene names in suite order.
extern const char* const scene_names[];
extern const uint32_t scene_name_count;

/// Builds a scene: 0, SCENE_UNKNOWN (no such name), SCENE_SKIPPED (its
/// test data is absent: skip_reason says why) or SCENE_FAILED (a message
/// went to stderr). The scene is freed on every failure.
int scene_build(const char* name, const scene_settings* settings, scene* out);
void scene_free(scene* s);
/// `wayfarer scenarios --export DIR`: the scene's triangles as DIR/BASE.obj
/// and its agents as DIR/BASE.points (a start a line, x y z, then a target
/// a line, in agent order), for a crowd other than ours to run the same
/// work (bench/peer_compare.sh --scenes). 0, or the scene_build result
/// (SCENE_SKIPPED: why gets the reason), or SCENE_FAILED when a path is too
/// long or a file cannot be written (a message on stderr).
int scene_export(const char* name, const char* base, const scene_settings* settings,
                 const char* dir, char* why, size_t why_size);

/// Length (m) of the shortest path between two navmesh points (find_path
/// and find_straight_path); negative when there is no complete path.
float scene_path_length(scene* s, wf_vec3 from, wf_vec3 to);
/// scene_path_length on the scene's second query (aside_query), for logs
/// that must not change the run; negative also when it cannot be made.
float scene_path_length_aside(scene* s, wf_vec3 from, wf_vec3 to);
/// Distance (m) from a navmesh point to the nearest wall of the mesh, at
/// most max (on the second query, as scene_path_length_aside); negative
/// when p is off the mesh. A search that ran out of nodes answers for the
/// part it searched (its nearest wall, or max when that part held none).
float scene_wall_distance(scene* s, wf_vec3 p, float max);
/// The same, with the nearest wall's point and normal (into the mesh).
float scene_wall_near(scene* s, wf_vec3 p, float max, wf_vec3* hit, wf_vec3* normal);
/// The walkable width (m) at p square to dir: a ray to either side, each
/// at most max long (on the second query); negative when p is off the mesh.
float scene_width_across(scene* s, wf_vec3 p, wf_vec3 dir, float max);

/// What one run measured.
typedef struct scene_metrics {
    uint32_t agents, frames;
    float seconds;
    uint32_t reachable; ///< agents with a complete path to their first target
    double arrived_10, arrived_30, arrived_60; ///< shares whose first arrival came by then
    uint32_t arrived;                          ///< agents that reached their first target
    uint32_t never_arrived;
    double arrival_time_mean, arrival_time_max; ///< s, of the arrived
    double path_ratio_mean, path_ratio_max;     ///< walked / shortest, of the arrived
    uint64_t overlap_pair_frames; ///< pairs overlapping by more than 0.1 m, summed over frames
    uint64_t overlap_pair_frames_after_2s;
    double worst_overlap, worst_overlap_after_2s; ///< m (0: never touched)
    double standing_agent_seconds;                ///< speed < 0.1 m/s while not arrived
    uint32_t blocked_events, arrival_events;
    uint32_t arrival_events_far;    ///< ARRIVED events further than the arrival radius
    uint32_t stopped_short_events;  ///< STOPPED_SHORT events (the target was taken)
    uint32_t within_at_end;         ///< agents within the arrival radius of their target at the end
    uint32_t arrived_within_at_end; ///< of the arrived, those still within it at the end
    /// arrived_within_at_end / arrived, pooled over the runs before their
    /// counts are rounded to a mean (a 40-agent scene's rounded counts move
    /// the share by up to 2 points); 0 when none arrived.
    double held_share;
    uint32_t second_door_agents; ///< two_doors: agents that went through the free door
    double us_per_agent_frame;   ///< wall time of wf_crowd_update only
    /// Targets replaced on arrival (the demo): every arrival, the agents
    /// that ever arrived, and first targets reachable in the run's time at
    /// full speed with how many of those were reached.
    uint32_t arrivals_total;
    uint32_t ever_arrived;
    uint32_t first_feasible, first_feasible_arrived;
    /// Issue 14's demo goal, target by target: every target an agent was
    /// given (its first, and each new one after an arrival or a BLOCKED
    /// event) whose shortest path from where the agent stood was at most
    /// max speed x the time left; how many of those it reached, how many
    /// it gave up on a BLOCKED event; the agents given at least one such
    /// target and those that reached one.
    uint32_t in_time_targets, in_time_reached, in_time_blocked;
    uint32_t in_time_agents, in_time_agents_arrived;
    /// The same goal counted honestly: targets a free agent reaches in the
    /// time left, its shortest path x SCENE_FREE_SLACK at max speed (the
    /// targets above count as before, none is dropped from them); how many
    /// of those were reached, and their mean time taken over the ideal
    /// (path / max speed): the crowd's slowdown; the agents given one and
    /// those that reached one.
    uint32_t in_time_alone_targets, in_time_alone_reached;
    uint32_t in_time_alone_agents, in_time_alone_agents_arrived;
    double in_time_alone_slowdown;
} scene_metrics;

/// A free agent's time to its target over the ideal (shortest path at max
/// speed): acceleration, corners, ramps. Measured on the demo level with
/// 10 agents, 100 runs: their mean is 1.05, the 90th percentile 1.15, and
/// they reach 98.9 % of the targets this slack leaves in (docs/benchmarks.md,
/// "demo17").
#define SCENE_FREE_SLACK 1.25f

/// Whether a target whose shortest path is length m (< 0: none) fits the
/// time left at max_speed with the given slack (1: no slack).
bool scene_in_time(float length, float max_speed, float time_left, float slack);

/// Whether an agent of this height standing at p is at its target: within
/// SCENE_ARRIVAL_RADIUS of it across the floor and less than its height
/// above or below it, so that one walking a floor above or below (the
/// demo's building, bridges) is not counted as arrived.
bool scene_at_target(wf_vec3 p, wf_vec3 target, float height);

/// Runs a built scene: 0, or non-zero with a message on stderr.
int scene_run(scene* s, const scene_settings* settings, scene_metrics* out);

#endif
