// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// World obstacles: one id for an obstacle queued in every class's tile
// cache, all or nothing, and the table that maps it to each cache's id.
#include <string.h>

#include "navcore/alloc.h"
#include "navcore/bytes.h"
#include "navcore/check.h"
#include "runtime/world_internal.h"
#include "tilecache/obstacle_room.h"

static uint64_t* class_ids(const wf_world* w, uint32_t slot) {
    return &w->obstacle_class_ids[(size_t)slot * w->class_count];
}

/// True when every class has room for `obstacles` new obstacles and
/// `requests` queued requests.
static bool every_class_has_room(const wf_world* w, uint32_t obstacles, uint32_t requests) {
    for (uint32_t c = 0; c < w->class_count; ++c) {
        uint32_t free_obstacles, free_requests;
        wf_tilecache_obstacle_room(w->classes[c].tc, &free_obstacles, &free_requests);
        if (free_obstacles < obstacles || free_requests < requests) {
            return false;
        }
    }
    return true;
}

wf_status wf_world_add_obstacle(wf_world* w, const wf_obstacle_desc* desc, wf_obstacle_id* out_id) {
    WF_CHECK_ARG(w != NULL && desc != NULL && out_id != NULL);
    WF_CHECK_OR(!w->stepping, WF_ERR_BUSY);
    if (w->class_count == 1) {
        return wf_tilecache_add_obstacle(w->classes[0].tc, desc, out_id);
    }
    if (w->obstacle_ids.live_count >= w->max_obstacles || !every_class_has_room(w, 1, 1)) {
        return WF_ERR_CAPACITY;
    }
    uint64_t ids[WF_WORLD_MAX_CLASSES] = {0};
    bool any = false;
    for (uint32_t c = 0; c < w->class_count; ++c) {
        wf_obstacle_id id;
        wf_status s = wf_tilecache_add_obstacle(w->classes[c].tc, desc, &id);
        if (s == WF_ERR_INVALID_ARG) {
            return s; // the shape is checked alike by every class: the first refuses
        }
        if (s == WF_OK) {
            ids[c] = id.bits;
            any = true;
        }
        // WF_ERR_NOT_FOUND: this class's tiles are out of reach (the room
        // was checked, so no other error is left).
    }
    if (!any) {
        return WF_ERR_NOT_FOUND;
    }
    uint64_t world_id;
    wf_status s = wf_id_pool_add(&w->obstacle_ids, &world_id);
    WF_ASSERT(s == WF_OK); // the count was checked
    (void)s;
    memcpy(class_ids(w, wf_id_index(world_id)), ids, sizeof(uint64_t) * w->class_count);
    out_id->bits = world_id;
    return WF_OK;
}

wf_status wf_world_remove_obstacle(wf_world* w, wf_obstacle_id id) {
    WF_CHECK_ARG(w != NULL && id.bits != 0);
    WF_CHECK_OR(!w->stepping, WF_ERR_BUSY);
    if (w->class_count == 1) {
        return wf_tilecache_remove_obstacle(w->classes[0].tc, id);
    }
    uint32_t slot;
    wf_status s = wf_id_pool_find(&w->obstacle_ids, id.bits, &slot);
    if (s != WF_OK) {
        return s;
    }
    if (!every_class_has_room(w, 0, 1)) {
        return WF_ERR_CAPACITY;
    }
    uint64_t* ids = class_ids(w, slot);
    for (uint32_t c = 0; c < w->class_count; ++c) {
        if (ids[c] != 0) {
            s = wf_tilecache_remove_obstacle(w->classes[c].tc, (wf_obstacle_id){ids[c]});
            WF_ASSERT(s == WF_OK);
            ids[c] = 0;
        }
    }
    s = wf_id_pool_remove(&w->obstacle_ids, id.bits);
    return s;
}

wf_status wf_world_move_obstacle(wf_world* w, wf_obstacle_id id, const wf_obstacle_desc* desc) {
    WF_CHECK_ARG(w != NULL && desc != NULL && id.bits != 0);
    WF_CHECK_OR(!w->stepping, WF_ERR_BUSY);
    if (w->class_count == 1) {
        return wf_tilecache_move_obstacle(w->classes[0].tc, id, desc);
    }
    uint32_t slot;
    wf_status s = wf_id_pool_find(&w->obstacle_ids, id.bits, &slot);
    if (s != WF_OK) {
        return s;
    }
    // A class may need an add (it enters its tiles) or a move and then a
    // remove (it leaves them): room for two requests and one obstacle.
    if (!every_class_has_room(w, 1, 2)) {
        return WF_ERR_CAPACITY;
    }
    // A class that refuses the new place (WF_ERR_NOT_FOUND) keeps nothing
    // of the call, so when every class refuses, nothing has changed.
    uint64_t* ids = class_ids(w, slot);
    uint64_t next[WF_WORLD_MAX_CLASSES] = {0};
    bool any = false;
    for (uint32_t c = 0; c < w->class_count; ++c) {
        wf_tilecache* tc = w->classes[c].tc;
        if (ids[c] != 0) {
            s = wf_tilecache_move_obstacle(tc, (wf_obstacle_id){ids[c]}, desc);
            if (s == WF_ERR_INVALID_ARG) {
                return s; // first class, nothing changed yet (checked alike by all)
            }
            if (s == WF_OK) {
                next[c] = ids[c];
                any = true;
            }
        } else {
            wf_obstacle_id added;
            s = wf_tilecache_add_obstacle(tc, desc, &added);
            if (s == WF_ERR_INVALID_ARG) {
                return s;
            }
            if (s == WF_OK) {
                next[c] = added.bits;
                any = true;
            }
        }
    }
    if (!any) {
        return WF_ERR_NOT_FOUND; // every class refused the place: nothing moved
    }
    for (uint32_t c = 0; c < w->class_count; ++c) {
        if (ids[c] != 0 && next[c] == 0) {
            // Moved off this class's tiles: it leaves this class.
            s = wf_tilecache_remove_obstacle(w->classes[c].tc, (wf_obstacle_id){ids[c]});
            WF_ASSERT(s == WF_OK);
        }
        ids[c] = next[c];
    }
    return WF_OK;
}

wf_status wf_world_get_obstacle(const wf_world* w, wf_obstacle_id id, wf_obstacle_desc* out) {
    WF_CHECK_ARG(w != NULL && out != NULL && id.bits != 0);
    if (w->class_count == 1) {
        return wf_tilecache_get_obstacle(w->classes[0].tc, id, out);
    }
    uint32_t slot;
    wf_status s = wf_id_pool_find(&w->obstacle_ids, id.bits, &slot);
    if (s != WF_OK) {
        return s;
    }
    const uint64_t* ids = class_ids(w, slot);
    for (uint32_t c = 0; c < w->class_count; ++c) {
        if (ids[c] != 0) {
            return wf_tilecache_get_obstacle(w->classes[c].tc, (wf_obstacle_id){ids[c]}, out);
        }
    }
    return WF_ERR_STALE_REF; // unreachable: a live world obstacle is in some class
}

uint32_t wf_world_obstacle_count(const wf_world* w) {
    if (w == NULL) {
        return 0;
    }
    return w->class_count == 1 ? wf_tilecache_obstacle_count(w->classes[0].tc)
                               : w->obstacle_ids.live_count;
}

/* ---------------------------------------------------------------------------
 * Saved table: the id pool's bytes, then max_obstacles x class_count ids.
 */

size_t wf_world_obstacles_save_size(const wf_world* w) {
    if (w->class_count == 1) {
        return 0;
    }
    return wf_id_pool_save_size(&w->obstacle_ids) + (size_t)w->max_obstacles * w->class_count * 8u;
}

void wf_world_obstacles_save(const wf_world* w, unsigned char* out) {
    if (w->class_count == 1) {
        return;
    }
    wf_id_pool_save(&w->obstacle_ids, out);
    out += wf_id_pool_save_size(&w->obstacle_ids);
    size_t n = (size_t)w->max_obstacles * w->class_count;
    for (size_t i = 0; i < n; ++i) {
        wf_bytes_put_u64(out + 8u * i, w->obstacle_class_ids[i]);
    }
}

wf_status wf_world_obstacles_load(const wf_world* w, const unsigned char* data, size_t size,
                                  wf_id_pool* out_pool, uint64_t** out_ids) {
    *out_ids = NULL;
    if (w->class_count == 1) {
        return size == 0 ? WF_OK : WF_ERR_BAD_DATA;
    }
    wf_allocator a = w->allocator;
    size_t pool_bytes = wf_id_pool_save_size(&w->obstacle_ids);
    size_t n = (size_t)w->max_obstacles * w->class_count;
    if (size != pool_bytes + 8u * n) {
        return WF_ERR_BAD_DATA;
    }
    wf_status s = wf_id_pool_create(out_pool, &a, w->max_obstacles, WF_ID_KIND_OBSTACLE);
    if (s != WF_OK) {
        return s;
    }
    s = wf_id_pool_load(out_pool, data, pool_bytes);
    uint64_t* ids = s == WF_OK ? WF_ALLOC_ARRAY(&a, uint64_t, n) : NULL;
    if (s == WF_OK && ids == NULL) {
        s = WF_ERR_OUT_OF_MEMORY;
    }
    if (s != WF_OK) {
        wf_id_pool_destroy(out_pool);
        return s;
    }
    for (size_t i = 0; i < n; ++i) {
        ids[i] = wf_bytes_get_u64(data + pool_bytes + 8u * i);
    }
    *out_ids = ids;
    return WF_OK;
}
