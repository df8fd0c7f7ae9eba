// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Wall contact: which of an agent's gathered wall segments bound its
// collision pushes, the line it keeps to, and how much of a push its walls
// take (crowd_motion.c's collision passes).
#ifndef WF_CROWD_WALL_CONTACT_H
#define WF_CROWD_WALL_CONTACT_H

#include <stdbool.h>
#include <stdint.h>

#include "wayfarer/vec3.h"

/// Walls come as (start, end) pairs, walls[2k] and walls[2k + 1], wound as
/// the mesh's polygons are: (ez, -ex) of a segment points inwards.

/// Segment a-b's length and unit inward normal (nx, nz); false for a
/// segment of no length (the outputs then untouched).
bool wf_wall_contact_normal(wf_vec3 a, wf_vec3 b, float* len, float* nx, float* nz);

/// Whether wall k (of `count`, length len, inward normal n from
/// wf_wall_contact_normal) holds p: the foot of p on it lies within the segment,
/// or up to WF_CROWD_WALL_END_MARGIN past an end where another of the
/// walls meets it in a concave corner (or goes on in line). A body at a
/// concave corner's vertex stands a hair past both segments' ends, and
/// neither held it (the demo's 0.17-0.21 m presses in a notch, press21);
/// past a convex corner (a door's jamb) the line bounds nothing.
bool wf_wall_contact_holds(const wf_vec3* walls, uint32_t count, uint32_t k, wf_vec3 p, float len,
                           float nx, float nz);

/// The line of the wall nearest to pos (measured square to the segment,
/// among those that hold it: wf_wall_contact_holds), as its inward normal (x, z)
/// and offset (y): wf_wall_contact_room tells how far a point stands inside it.
/// No wall within WF_CROWD_WALL_LINE_REACH: a zero normal and an offset of
/// minus infinity (the collision passes then skip the agent's walls).
wf_vec3 wf_wall_contact_nearest_line(const wf_vec3* walls, uint32_t count, wf_vec3 pos);

/// How far p stands inside a wall line (negative past it; infinite without
/// one).
static inline float wf_wall_contact_room(wf_vec3 line, wf_vec3 p) {
    return p.x * line.x + p.z * line.z - line.y;
}

/// The share of a push along the unit direction (dx, dz) that a body at p
/// cannot give: the push with its part into every wall the body is pinned
/// against (within WF_CROWD_WALL_PINNED of its line, held by it) taken out,
/// over two rounds, leaves g, and 1 - |g|^2 is what it cannot take (one
/// wall: the square of the push's part into it; a push away from or along
/// its walls: 0; in a concave corner of 90 degrees or wider, all of a push
/// between the walls; in a sharper one, most of it: along a 45-degree
/// corner's bisector 0.89, as two rounds leave some).
float wf_wall_contact_blocked_share(const wf_vec3* walls, uint32_t count, wf_vec3 p, float dx,
                                    float dz);

#endif
