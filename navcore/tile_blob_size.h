// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The interface navcore offers the tile cache's layer builder
// (tilecache/layer_to_tile.c, its only user besides navcore): the size of a
// blob wf_tile_build_into has just written, without the blob's layout.
#ifndef WF_NAVCORE_TILE_BLOB_SIZE_H
#define WF_NAVCORE_TILE_BLOB_SIZE_H

#include <stddef.h>

/// Bytes of the tile blob at `blob`, as its header says: for a blob that
/// wf_tile_build_into returned WF_OK for (no checks).
size_t wf_tile_blob_size(const void* blob);

#endif
