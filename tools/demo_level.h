// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The built-in demo level: generated triangles, deterministic from a seed.
// Open ground with crate spots, a building of several floors joined by
// ramps, rooms with doors, and a bridge between the building and a tower.
#ifndef WF_TOOLS_DEMO_LEVEL_H
#define WF_TOOLS_DEMO_LEVEL_H

#include <stdint.h>

#include "wayfarer/tilecache.h"

#define DEMO_MAX_DOORS 64u
#define DEMO_MAX_SPOTS 256u
#define DEMO_MAX_ROOMS 32u
/// demo_door.rooms: the doorway leads outside (open ground, the bridge).
#define DEMO_OUTSIDE UINT32_MAX

/// A doorway: the box obstacle that closes it (axis-aligned or turned by
/// yaw about Y), centred in the opening.
typedef struct demo_door {
    wf_vec3 center;
    wf_vec3 half_extents;
    float yaw;
    /// Walkable points on the floor 1.5 m either side of the opening, and
    /// the room each lies in (index into demo_level.rooms, or DEMO_OUTSIDE).
    wf_vec3 sides[2];
    uint32_t rooms[2];
    uint32_t floor;
} demo_door;

/// A room of the building: its floor area (inside the walls) at floor height.
typedef struct demo_room {
    wf_vec3 center;       ///< on the floor, clear of ramps and stairwells
    wf_vec3 half_extents; ///< x and z: inside the walls; y: 0
    uint32_t floor;       ///< 0 = ground
} demo_room;

typedef struct demo_level {
    float* verts; ///< vert_count * 3
    uint32_t vert_count;
    uint32_t* tris; ///< tri_count * 3, counter-clockwise seen from above
    uint32_t tri_count;
    demo_door doors[DEMO_MAX_DOORS];
    uint32_t door_count;
    /// Open-ground points where crates may be dropped (on the walkable
    /// surface, away from doors and ramps).
    wf_vec3 crate_spots[DEMO_MAX_SPOTS];
    uint32_t crate_spot_count;
    wf_vec3 bmin, bmax;
    uint32_t floors; ///< storeys of the building (ground included)
    demo_room rooms[DEMO_MAX_ROOMS];
    uint32_t room_count;
    wf_vec3 bridge_mid; ///< middle of the bridge, on its deck
    wf_vec3 tower_top;  ///< middle of the tower's top platform
} demo_level;

/// Generates the level for a seed (the same seed gives the same bytes).
/// 0 on success, non-zero when out of memory.
int demo_level_generate(uint64_t seed, demo_level* out);
void demo_level_free(demo_level* level);
/// The triangles as a wf_geom (valid while the level lives).
wf_geom demo_level_geom(const demo_level* level);
/// Writes the triangles as a Wavefront OBJ file; 0 on success.
int demo_level_write_obj(const demo_level* level, const char* path);

#endif
