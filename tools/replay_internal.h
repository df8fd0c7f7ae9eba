// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The replay's recorded state, shared by its two writers: the HTML page
// (replay.c) and the SVG picture (replay_svg.c). Tools-private.
#ifndef WF_TOOLS_REPLAY_INTERNAL_H
#define WF_TOOLS_REPLAY_INTERNAL_H

#include <stdio.h>

#include "tools/replay.h"

#define STATE_ABSENT 0xffu
/// Obstacle sets take at most this many bytes (then the last set repeats).
#define OBSTACLE_BYTES_MAX (64u << 20)
/// Bytes of one encoded shape at most (a prism of 32 points).
#define SHAPE_BYTES_MAX (2u + 4u * WF_OBSTACLE_MAX_VERTS)

/// Paths take at most this many bytes (then the paths stop changing).
#define PATH_BYTES_MAX (64u << 20)
/// Bytes of one path record at most: column gap, count, reuse, corners,
/// target.
#define PATH_RECORD_MAX (5u + 2u + 4u * WF_CROWD_MAX_CORNERS + 4u)

/// An agent's path ahead as last recorded.
typedef struct path_rec {
    int16_t corners[WF_CROWD_MAX_CORNERS][2];
    int16_t target[2];
    uint8_t corner_count;
    bool recorded;
} path_rec;

typedef struct stats_rec {
    float ms[3];
    uint32_t counts[5];
} stats_rec;

typedef struct mesh_poly {
    uint8_t vert_count;
    uint8_t layer;
    int16_t y;
    int16_t xz[WF_MAX_VERTS_PER_POLY][2];
} mesh_poly;

typedef struct offmesh_rec {
    int16_t a[2], b[2];
    uint8_t bidirectional;
} offmesh_rec;

struct replay {
    replay_desc desc;
    char* title;
    // Quantization (fixed by replay_set_mesh, or by the first frame).
    bool quant_fixed;
    double origin[3];
    double unit;
    float bmin[3], bmax[3];
    // The mesh.
    mesh_poly* polys;
    uint32_t poly_count;
    offmesh_rec* offmesh;
    uint32_t offmesh_count;
    // Agent columns: an id gets the next column the first time it is seen.
    uint64_t* col_ids;
    uint16_t* col_radius;
    uint32_t col_count;
    uint32_t* hash; ///< column + 1 per slot, 0 = empty (open addressing)
    uint32_t hash_mask;
    uint32_t agents_dropped; ///< ids seen when every column was taken
    // Frames: [frame][column].
    int16_t* pos; ///< 3 per column: x, y, z
    uint8_t* state;
    uint8_t* layer; ///< tile layer under the agent (the previous one when off the mesh)
    // Paths: per frame the records of the columns whose path changed, in
    // column order, encoded as in the page; frame f's are
    // path_bytes[path_offset[f], path_offset[f + 1]), path_changes[f] of them.
    path_rec* path_last; ///< per column
    path_rec* path_prev; ///< per column: the record before path_last
    uint8_t* path_bytes;
    size_t path_size, path_cap;
    size_t* path_offset;
    uint32_t* path_changes;
    uint64_t path_records;
    bool paths_truncated;
    uint8_t* path_scratch; ///< one frame's records (max_agents * PATH_RECORD_MAX)
    stats_rec* stats;
    uint32_t* obstacle_set;                     ///< per frame
    uint32_t frame_count;                       ///< kept
    uint64_t calls;                             ///< replay_add_frame calls
    uint32_t pending_arrivals, pending_replans; ///< of frames skipped by the stride
    // Obstacle sets, each encoded as in the page; offsets into obstacle_bytes.
    uint8_t* obstacle_bytes;
    size_t obstacle_size, obstacle_cap;
    size_t* set_offsets; ///< set i = [set_offsets[i], set_offsets[i + 1])
    uint32_t set_count, set_cap;
    uint8_t* scratch; ///< one set being encoded
    size_t scratch_cap;
    bool obstacles_truncated;
};

/// The polygons' XZ extent in units (all zero without polygons).
void replay_poly_extent(const replay* r, int16_t lo[2], int16_t hi[2]);
/// Sets used[l] for each layer some polygon is on; returns how many.
uint32_t replay_layers(const replay* r, bool used[256]);

/// Text for HTML or SVG: <, >, & and " escaped.
void replay_write_html_text(FILE* f, const char* s);

#endif
