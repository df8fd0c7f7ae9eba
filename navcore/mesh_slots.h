// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// A tile slot's current generation, for the crowd's 32-bit corridor ids
// (crowd/ref_codec.h): they keep a generation's low bits and read the rest
// from the mesh, so they follow a mesh whose contents are swapped. And the
// check the crowd makes of runs of decoded ids every update (corridors
// ahead, wall polygons): one call for a run instead of one a polygon.
#ifndef WF_NAVCORE_MESH_SLOTS_H
#define WF_NAVCORE_MESH_SLOTS_H

#include <stdint.h>

#include "wayfarer/navmesh.h"
#include "wayfarer/query.h"

/// The mesh's tile slots (max_tiles).
uint32_t wf_mesh_slot_count(const wf_mesh* mesh);

/// The slot's generation (in use or not; never 0); 1 past max_tiles.
uint32_t wf_mesh_slot_generation(const wf_mesh* mesh, uint32_t slot);

/// How many refs the crowd decodes and checks a call (a stack buffer).
#define WF_MESH_RUN 16u

/// How many of refs[0..n), from the first, are live polygons (or off-mesh
/// links) whose flags pass filter ((flags & include) != 0 and (flags &
/// exclude) == 0; NULL: liveness only): n when all do. A null ref fails.
/// mesh must not be NULL (the crowd's always has one).
/// The same verdict, ref by ref, as wf_mesh_get_poly_flags == WF_OK and
/// the filter test on its flags.
uint32_t wf_mesh_passing_run(const wf_mesh* mesh, const wf_poly_ref* refs, uint32_t n,
                             const wf_query_filter* filter);

#endif
