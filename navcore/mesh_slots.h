// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// A tile slot's current generation, for the crowd's 32-bit corridor ids
// (crowd/ref_codec.h): they keep a generation's low bits and read the rest
// from the mesh, so they follow a mesh whose contents are swapped.
#ifndef WF_NAVCORE_MESH_SLOTS_H
#define WF_NAVCORE_MESH_SLOTS_H

#include <stdint.h>

#include "wayfarer/navmesh.h"

/// The mesh's tile slots (max_tiles).
uint32_t wf_mesh_slot_count(const wf_mesh* mesh);

/// The slot's generation (in use or not; never 0); 1 past max_tiles.
uint32_t wf_mesh_slot_generation(const wf_mesh* mesh, uint32_t slot);

#endif
