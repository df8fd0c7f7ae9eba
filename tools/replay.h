// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Replay recording for the viewer: the navmesh's polygons once, then per
// frame every agent's position, state and layer, the obstacles, every
// agent's path ahead (recorded when it changes) and the frame's figures;
// written as one self-contained HTML file (data and viewer inline, no
// network) or one frame as SVG.
#ifndef WF_TOOLS_REPLAY_H
#define WF_TOOLS_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wayfarer/crowd.h"
#include "wayfarer/navmesh.h"
#include "wayfarer/tilecache.h"

/// A path ahead (corners and target) is recorded again only when a point
/// moved more than this (metres) or the corner count changed: paths are
/// stored as changes, and a corner creeping by a centimetre is not one.
#define REPLAY_PATH_TOLERANCE 0.05f

typedef struct replay replay;

typedef struct replay_desc {
    uint32_t max_agents;
    uint32_t max_frames;   ///< frames recorded at most (later ones are counted, not kept)
    uint32_t frame_stride; ///< keep every Nth frame (0 or 1 = all)
    float dt;              ///< seconds per step
    const char* title;
    /// Keep the frame, tiles and crowd milliseconds. They differ from run
    /// to run; without them (the default) the same run writes the same
    /// bytes, and the page shows "-" for them.
    bool timings;
} replay_desc;

/// Per-frame figures shown by the viewer.
typedef struct replay_stats {
    double frame_ms;
    double tiles_ms;
    double crowd_ms;
    uint32_t arrivals; ///< this frame
    uint32_t replans;
    uint32_t blocked;
    uint32_t obstacles; ///< live obstacles
    uint32_t paths_queued;
} replay_stats;

/// NULL when out of memory.
replay* replay_create(const replay_desc* desc);
void replay_destroy(replay* r);

/// The navmesh as it is now (call once at the start; polygons keep their
/// tile layer so the viewer can tell layers apart).
int replay_set_mesh(replay* r, const wf_mesh* mesh);

/// Records one frame: the agents `ids` (position, state, the layer of the
/// tile under them in `mesh`, which may be NULL for layer 0, and their
/// corners and target where these changed), the obstacles standing (their
/// descs), the figures. 0 on success (a frame past max_frames is counted,
/// not kept).
int replay_add_frame(replay* r, const wf_crowd* crowd, const wf_mesh* mesh, const wf_agent_id* ids,
                     uint32_t count, const wf_obstacle_desc* obstacles, uint32_t obstacle_count,
                     const replay_stats* stats);
/// The same for the agents of a world's classes: each id is read from the
/// crowd of its class (crowds[class], the class in the id's slot bits
/// 24..31, wf_world.h); the viewer rings agents of classes above 0.
int replay_add_frame_classes(replay* r, const wf_crowd* const* crowds, uint32_t crowd_count,
                             const wf_mesh* mesh, const wf_agent_id* ids, uint32_t count,
                             const wf_obstacle_desc* obstacles, uint32_t obstacle_count,
                             const replay_stats* stats);

/// The whole replay as one HTML file; returns 0 on success.
int replay_write_html(const replay* r, const char* path);
/// The last recorded frame as an SVG picture (mesh, obstacles, agents).
int replay_write_svg(const replay* r, const char* path);
/// Bytes the data would take inline (for the summary).
size_t replay_data_bytes(const replay* r);

#endif
