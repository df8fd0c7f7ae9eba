// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// What the tile cache offers the world for restoring in place: a loaded
// cache takes the place of a live one, so pointers the game holds stay valid.
#ifndef WF_TILECACHE_TILECACHE_REPLACE_H
#define WF_TILECACHE_TILECACHE_REPLACE_H

#include "wayfarer/tilecache.h"

/// Exchanges the contents of two tile caches made with the same desc
/// (allocator, job system). Builds in flight in either finish first and
/// are dropped (their layers stay dirty). Cannot fail.
void wf_tilecache_swap_contents(wf_tilecache* a, wf_tilecache* b);

#endif
