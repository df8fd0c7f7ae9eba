// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Obstacles agents only avoid (movers): their storage and ids, and the
// hooks the movement phases call. Every hook returns its input unchanged
// while no mover is live, so a crowd without movers runs as before.
#ifndef WF_CROWD_MOVERS_H
#define WF_CROWD_MOVERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crowd/avoidance.h"
#include "navcore/alloc.h"
#include "wayfarer/crowd.h"

/// Movers an agent avoids at once (the nearest).
#define WF_MOVERS_PER_AGENT 8u
/// Clusters passed in a row by one agent's detour.
#define WF_MOVERS_DETOUR_STEPS 3u

typedef struct wf_crowd_movers {
    uint32_t capacity;
    uint32_t live_count;
    /// Per slot: odd while live; bumped on add and on remove, so an id
    /// (generation << 32 | slot + 1) of a freed slot stays stale.
    uint32_t* generation;
    wf_mover* items;
} wf_crowd_movers;

WF_NODISCARD wf_status wf_movers_create(wf_crowd_movers* m, const wf_allocator* a,
                                        uint32_t capacity);
void wf_movers_destroy(wf_crowd_movers* m, const wf_allocator* a);
size_t wf_movers_memory_bytes(const wf_crowd_movers* m);
/// Removes every mover (ids turn stale).
void wf_movers_clear(wf_crowd_movers* m);

/// The save section: capacity, live count, then per slot generation,
/// position, velocity, radius, height (little-endian).
size_t wf_movers_save_size(const wf_crowd_movers* m);
void wf_movers_save(const wf_crowd_movers* m, unsigned char* out);
/// WF_ERR_CAPACITY (saved with another max_movers), WF_ERR_BAD_DATA; does
/// not change m.
wf_status wf_movers_check(const wf_crowd_movers* m, const unsigned char* in, size_t size);
/// Loads bytes that passed wf_movers_check.
void wf_movers_load(wf_crowd_movers* m, const unsigned char* in);

// Hooks (read-only on the crowd: any worker may run them for its agent).

/// Puts the nearest movers (at most WF_MOVERS_PER_AGENT and max) that agent
/// i reaches into out as neighbours that never yield; returns how many.
uint32_t wf_movers_gather(const wf_crowd* c, uint32_t i, wf_avoid_neighbour* out, uint32_t max);
/// Agent i's desired velocity around mover clusters (the silhouette
/// detour) and pushed off movers it nears (separation).
wf_vec3 wf_movers_steer(const wf_crowd* c, uint32_t i, wf_vec3 desired_vel, bool follows_path);
/// Agent i's position put back outside every mover it overlaps.
wf_vec3 wf_movers_resolve(const wf_crowd* c, uint32_t i, wf_vec3 pos);

#endif
