// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The interface navcore offers the tile cache for committing tiles it has
// just built: a cheaper add, and the slot a replaced tile goes back to.
// Only tilecache/update.c may use it (besides navcore itself); everyone
// else adds tiles through wayfarer/navmesh.h.
#ifndef WF_NAVCORE_MESH_COMMIT_H
#define WF_NAVCORE_MESH_COMMIT_H

#include "wayfarer/navmesh.h"

/// wf_mesh_add_tile for a blob the library has just built itself (the tile
/// cache's commit): the structure is still checked, but not the checksum,
/// which only guards bytes that travelled or were stored (debug builds
/// check it anyway). Not for blobs from outside. requested as for
/// wf_mesh_add_tile.
wf_status wf_mesh_add_built_tile(wf_mesh* mesh, void* data, size_t size, uint32_t flags,
                                 wf_tile_ref requested, wf_tile_ref* out_tile);

/// The ref a free slot's next tile gets (its current generation): a
/// replaced tile re-added there keeps its slot, so which slot a tile gets
/// never depends on the order tiles were committed in.
wf_tile_ref wf_mesh_free_slot_ref(const wf_mesh* mesh, uint32_t slot);

#endif
