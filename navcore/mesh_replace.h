// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// What navcore offers the world for restoring in place: a loaded mesh takes
// the place of a live one, so pointers the game holds stay valid.
#ifndef WF_NAVCORE_MESH_REPLACE_H
#define WF_NAVCORE_MESH_REPLACE_H

#include "wayfarer/navmesh.h"

/// Exchanges the contents of two meshes (same allocator). Both change
/// counters move past either's, so what a query kept from a search on
/// the old contents is never reused on the new. Cannot fail.
void wf_mesh_swap_contents(wf_mesh* a, wf_mesh* b);

#endif
