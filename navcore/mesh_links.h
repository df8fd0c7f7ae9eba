// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Stitching (mesh_links.c), as the mesh's add and remove use it: a tile's
// links to itself and to the tiles around it, and taking them back out.
#ifndef WF_NAVCORE_MESH_LINKS_H
#define WF_NAVCORE_MESH_LINKS_H

#include "navcore/mesh_internal.h"

/// Off-mesh end markers kept in a link's bmin (an off-mesh link's links
/// say which end they attach to; reading them tells the travel direction).
#define WF_LINK_OFFMESH_AT_START 0u
#define WF_LINK_OFFMESH_AT_END 255u

/// Links a tile just placed in its slot and grid cell: inside the tile,
/// off-mesh links that start on it, portals to its side neighbours and
/// seams with the other layers of its cell (both directions), off-mesh
/// links that end within the 3 x 3 cells around it (both directions).
/// Returns how many links did not fit the link capacity of this tile and
/// the tiles around it, and clears those counts.
uint32_t wf_mesh_link_tile(const wf_mesh* mesh, wf_mesh_tile* t);

/// Numbers t's ground polygons and marks the links into pockets in its
/// portal records (mesh_pockets.c): after every change to t's links.
/// (Links taken out only close ways, so a removal leaves the marks true.)
void wf_mesh_number_pockets(const wf_mesh* mesh, wf_mesh_tile* t);

/// Where live polygon ref is numbered for the pocket test (a search skips
/// a link into a pocket that does not hold this number): any of its links
/// that does not lead into a pocket carries it; 0 (in no pocket) where
/// every link does (it heads its tile's numbering).
uint32_t wf_mesh_pocket_number(const wf_mesh* mesh, wf_poly_ref ref);

/// Removes every link that points into live tile t from the tiles around
/// it (t is still in its cell; its own links go with its data).
void wf_mesh_unlink_tile(const wf_mesh* mesh, const wf_mesh_tile* t);

#endif
