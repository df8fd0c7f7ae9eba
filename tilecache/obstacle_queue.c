// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The cache's obstacle set: add, remove and move queue requests for the
// next update (see the rule at wf_obstacle_request), and which tiles and
// layers a stamp's bounds touch.
#include <math.h>
#include <string.h>

#include "navcore/check.h"
#include "tilecache/obstacle_room.h"
#include "tilecache/tilecache_internal.h"

/* ---------------------------------------------------------------------------
 * Tiles and layers under bounds
 */

/// Tile index range along one axis, clamped to [0, count - 1]; computed in
/// double so bounds far outside the world cannot overflow the cast.
static bool axis_tiles(float lo, float hi, float origin, double tile, int32_t count, int32_t* out0,
                       int32_t* out1) {
    double t0 = floor(((double)lo - origin) / tile);
    double t1 = floor(((double)hi - origin) / tile);
    if (count <= 0 || t1 < 0.0 || t0 > (double)count - 1.0) {
        return false;
    }
    *out0 = t0 > 0.0 ? (int32_t)t0 : 0;
    *out1 = t1 < (double)count - 1.0 ? (int32_t)t1 : count - 1;
    return true;
}

bool wf_tilecache_tile_range(const wf_tilecache* tc, const float bmin[3], const float bmax[3],
                             int32_t* out_x0, int32_t* out_z0, int32_t* out_x1, int32_t* out_z1) {
    double tile = (double)tc->params.tile_size * tc->params.cell_size;
    return axis_tiles(bmin[0], bmax[0], tc->origin.x, tile, tc->tiles_x, out_x0, out_x1) &&
           axis_tiles(bmin[2], bmax[2], tc->origin.z, tile, tc->tiles_z, out_z0, out_z1);
}

/// First entry at or after tile (x, z) in the (z, x, layer) order.
static uint32_t lower_entry(const wf_tilecache* tc, int32_t z, int32_t x) {
    uint32_t lo = 0, hi = tc->entry_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2u;
        const wf_tilecache_layer_info* info = &tc->entries[mid].info;
        bool before = info->tile_z < z || (info->tile_z == z && info->tile_x < x);
        if (before) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return lo;
}

void wf_tilecache_row_entries(const wf_tilecache* tc, int32_t z, int32_t x0, int32_t x1,
                              uint32_t* out_first, uint32_t* out_end) {
    uint32_t first = lower_entry(tc, z, x0);
    uint32_t end = first;
    // Rows are short next to the entry count: walk instead of a second search.
    while (end < tc->entry_count && tc->entries[end].info.tile_z == z &&
           tc->entries[end].info.tile_x <= x1) {
        end++;
    }
    *out_first = first;
    *out_end = end;
}

bool wf_tilecache_bounds_touch_layer(const wf_tilecache_entry* entry, const float bmin[3],
                                     const float bmax[3]) {
    // The cells' XZ box, not the tile's: a layer holding a corner of its
    // tile is not rebuilt for an obstacle in another corner.
    const wf_tilecache_layer_info* info = &entry->info;
    return bmin[0] <= entry->cells_max[0] && bmax[0] >= entry->cells_min[0] &&
           bmin[2] <= entry->cells_max[1] && bmax[2] >= entry->cells_min[1] &&
           bmin[1] <= info->bmax.y && bmax[1] >= info->bmin.y;
}

bool wf_tilecache_bounds_touch_tiles(const wf_tilecache* tc, const float bmin[3],
                                     const float bmax[3]) {
    int32_t x0, z0, x1, z1;
    if (tc->entry_count == 0 || !wf_tilecache_tile_range(tc, bmin, bmax, &x0, &z0, &x1, &z1)) {
        return false;
    }
    for (int32_t z = z0; z <= z1; ++z) {
        uint32_t first = lower_entry(tc, z, x0);
        if (first < tc->entry_count && tc->entries[first].info.tile_z == z &&
            tc->entries[first].info.tile_x <= x1) {
            return true;
        }
    }
    return false;
}

/* ---------------------------------------------------------------------------
 * Requests
 */

static wf_obstacle_request* push_request(wf_tilecache* tc, wf_request_kind kind, uint32_t slot) {
    uint32_t at = (tc->request_head + tc->request_count) % tc->max_requests;
    tc->request_count++;
    wf_obstacle_request* r = &tc->requests[at];
    memset(r, 0, sizeof *r);
    r->kind = (uint8_t)kind;
    r->slot = slot;
    return r;
}

/// What a remove or move must keep of the obstacle's old state (the record
/// may be reused before the update applies the request).
static void keep_old(wf_obstacle_request* r, const wf_obstacle_record* rec) {
    memcpy(r->old_bmin, rec->stamp.bmin, sizeof r->old_bmin);
    memcpy(r->old_bmax, rec->stamp.bmax, sizeof r->old_bmax);
    r->was_applied = rec->applied;
}

static bool queue_full(const wf_tilecache* tc) { return tc->request_count >= tc->max_requests; }

static void make_stamp(const wf_tilecache* tc, const wf_obstacle_desc* desc,
                       wf_obstacle_stamp* out) {
    wf_obstacle_make_stamp(desc, tc->params.agent_radius, tc->params.agent_climb, out);
}

/// Slot of a live obstacle id: WF_ERR_STALE_REF, WF_ERR_WRONG_KIND (the
/// pool checks the id's kind tag).
static wf_status find_slot(const wf_tilecache* tc, wf_obstacle_id id, uint32_t* out_slot) {
    return wf_id_pool_find(&tc->obstacle_ids, id.bits, out_slot);
}

/* ---------------------------------------------------------------------------
 * Public API
 */

wf_status wf_tilecache_add_obstacle(wf_tilecache* tc, const wf_obstacle_desc* desc,
                                    wf_obstacle_id* out_id) {
    WF_CHECK_ARG(tc != NULL && desc != NULL && out_id != NULL);
    WF_CHECK_ARG(wf_obstacle_desc_check(desc) == WF_OK);
    wf_obstacle_stamp stamp;
    make_stamp(tc, desc, &stamp);
    if (!wf_tilecache_bounds_touch_tiles(tc, stamp.bmin, stamp.bmax)) {
        return WF_ERR_NOT_FOUND;
    }
    if (queue_full(tc) || tc->obstacle_ids.live_count >= tc->obstacle_ids.capacity) {
        return WF_ERR_CAPACITY;
    }
    uint64_t id;
    wf_status s = wf_id_pool_add(&tc->obstacle_ids, &id);
    if (s != WF_OK) {
        return s;
    }
    uint32_t slot = wf_id_index(id);
    wf_obstacle_record* rec = &tc->obstacles[slot];
    rec->desc = *desc;
    rec->stamp = stamp;
    rec->state = WF_OBSTACLE_LIVE;
    rec->applied = false;
    push_request(tc, WF_REQUEST_ADD, slot);
    out_id->bits = id;
    return WF_OK;
}

wf_status wf_tilecache_remove_obstacle(wf_tilecache* tc, wf_obstacle_id id) {
    WF_CHECK_ARG(tc != NULL && id.bits != 0);
    uint32_t slot;
    wf_status s = find_slot(tc, id, &slot);
    if (s != WF_OK) {
        return s;
    }
    if (queue_full(tc)) {
        return WF_ERR_CAPACITY;
    }
    wf_obstacle_record* rec = &tc->obstacles[slot];
    s = wf_id_pool_remove(&tc->obstacle_ids, id.bits);
    if (s != WF_OK) {
        return s;
    }
    keep_old(push_request(tc, WF_REQUEST_REMOVE, slot), rec);
    rec->state = WF_OBSTACLE_FREE;
    rec->applied = false;
    return WF_OK;
}

wf_status wf_tilecache_move_obstacle(wf_tilecache* tc, wf_obstacle_id id,
                                     const wf_obstacle_desc* desc) {
    WF_CHECK_ARG(tc != NULL && desc != NULL && id.bits != 0);
    uint32_t slot;
    wf_status s = find_slot(tc, id, &slot);
    if (s != WF_OK) {
        return s;
    }
    WF_CHECK_ARG(wf_obstacle_desc_check(desc) == WF_OK);
    wf_obstacle_stamp stamp;
    make_stamp(tc, desc, &stamp);
    if (!wf_tilecache_bounds_touch_tiles(tc, stamp.bmin, stamp.bmax)) {
        return WF_ERR_NOT_FOUND;
    }
    if (queue_full(tc)) {
        return WF_ERR_CAPACITY;
    }
    wf_obstacle_record* rec = &tc->obstacles[slot];
    keep_old(push_request(tc, WF_REQUEST_MOVE, slot), rec);
    rec->desc = *desc;
    rec->stamp = stamp;
    rec->applied = false;
    return WF_OK;
}

wf_status wf_tilecache_get_obstacle(const wf_tilecache* tc, wf_obstacle_id id,
                                    wf_obstacle_desc* out) {
    WF_CHECK_ARG(tc != NULL && out != NULL && id.bits != 0);
    uint32_t slot;
    wf_status s = find_slot(tc, id, &slot);
    if (s != WF_OK) {
        return s;
    }
    *out = tc->obstacles[slot].desc;
    return WF_OK;
}

uint32_t wf_tilecache_obstacle_count(const wf_tilecache* tc) {
    return tc != NULL ? tc->obstacle_ids.live_count : 0;
}

uint32_t wf_tilecache_get_obstacles(const wf_tilecache* tc, wf_obstacle_id* out, uint32_t max) {
    if (tc == NULL) {
        return 0;
    }
    if (out == NULL) {
        max = 0;
    }
    uint32_t written = 0;
    for (uint32_t slot = 0; slot < tc->max_obstacles && written < max; ++slot) {
        uint64_t id = wf_id_pool_id_at(&tc->obstacle_ids, slot);
        if (id != 0) {
            out[written++].bits = id;
        }
    }
    return tc->obstacle_ids.live_count;
}

void wf_tilecache_obstacle_room(const wf_tilecache* tc, uint32_t* out_obstacles,
                                uint32_t* out_requests) {
    *out_obstacles = tc->obstacle_ids.capacity - tc->obstacle_ids.live_count;
    *out_requests = tc->max_requests - tc->request_count;
}
