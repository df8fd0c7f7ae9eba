// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Tile slot generations for the crowd's corridor ids.
#include "navcore/mesh_slots.h"

#include "navcore/mesh_internal.h"

uint32_t wf_mesh_slot_count(const wf_mesh* mesh) { return mesh->max_tiles; }

uint32_t wf_mesh_slot_generation(const wf_mesh* mesh, uint32_t slot) {
    return slot < mesh->max_tiles ? mesh->tiles[slot].generation : 1u;
}
