// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// What the tile cache tells the world before it queues one obstacle in
// several caches: whether each has room, so the world's call is all or none.
#ifndef WF_TILECACHE_OBSTACLE_ROOM_H
#define WF_TILECACHE_OBSTACLE_ROOM_H

#include "wayfarer/tilecache.h"

/// Free obstacle slots and free places in the request queue.
void wf_tilecache_obstacle_room(const wf_tilecache* tc, uint32_t* out_obstacles,
                                uint32_t* out_requests);

#endif
