// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The world's whole state as one blob: every class's tile cache, navmesh
// and crowd, and the obstacle table; a restore replaces it in place.
#include <string.h>

#include "navcore/alloc.h"
#include "navcore/bytes.h"
#include "navcore/check.h"
#include "navcore/hash.h"
#include "navcore/mesh_replace.h"
#include "runtime/world_internal.h"
#include "tilecache/tilecache_replace.h"

/*
 *   0 magic "WFWD"   4 version   8 steps run   16 class count
 *  20 reserved (0)   24 obstacle table bytes   32 checksum (FNV-1a 64 of
 *  the blob with this field zero)   40 per class: tile cache, mesh and
 *  crowd bytes (u64 each)   then the obstacle table, then each class's
 *  three sections in class order.
 */

#define WORLD_MAGIC 0x44574657u // "WFWD"
#define WORLD_VERSION 2u
#define WORLD_FIXED 40u
#define WORLD_CHECKSUM_AT 32u

static size_t header_size(uint32_t classes) { return WORLD_FIXED + 24u * (size_t)classes; }

static uint64_t world_checksum(const unsigned char* blob, size_t size) {
    return wf_fnv1a64_zeroed(blob, size, WORLD_CHECKSUM_AT, 8u);
}

/// Runs every tile cache until each request is applied and each rebuild
/// committed: the saved navmeshes then match the saved obstacles.
static wf_status finish_tiles(wf_world* w) {
    const wf_tilecache_budget none = {0, 0};
    for (uint32_t c = 0; c < w->class_count; ++c) {
        bool done = false;
        for (int k = 0; k < 1000 && !done; ++k) {
            wf_tilecache_update_result r;
            wf_status s = wf_tilecache_update(w->classes[c].tc, w->classes[c].mesh, &none, &r);
            if (s < 0) {
                return s;
            }
            s = wf_world_forward_changes(w, c, &r);
            if (s != WF_OK) {
                return s;
            }
            done = r.up_to_date;
        }
        if (!done) {
            return WF_ERR_BUSY; // builds that never finish: a broken job system
        }
    }
    return WF_OK;
}

typedef struct sections {
    size_t tc[WF_WORLD_MAX_CLASSES], mesh[WF_WORLD_MAX_CLASSES], crowd[WF_WORLD_MAX_CLASSES];
    size_t obstacles;
    size_t total;
} sections;

static wf_status section_sizes(wf_world* w, sections* out) {
    out->obstacles = wf_world_obstacles_save_size(w);
    out->total = header_size(w->class_count) + out->obstacles;
    for (uint32_t c = 0; c < w->class_count; ++c) {
        const world_class* k = &w->classes[c];
        wf_status s = wf_tilecache_save_size(k->tc, &out->tc[c]);
        if (s == WF_OK) {
            s = wf_mesh_save_size(k->mesh, &out->mesh[c]);
        }
        if (s == WF_OK) {
            s = wf_crowd_save_size(k->crowd, &out->crowd[c]);
        }
        if (s != WF_OK) {
            return s;
        }
        out->total += out->tc[c] + out->mesh[c] + out->crowd[c];
    }
    return WF_OK;
}

wf_status wf_world_save_size(wf_world* w, size_t* out_size) {
    WF_CHECK_ARG(w != NULL && out_size != NULL);
    WF_CHECK_OR(!w->stepping, WF_ERR_BUSY);
    *out_size = 0;
    wf_status s = finish_tiles(w);
    sections sz;
    if (s == WF_OK) {
        s = section_sizes(w, &sz);
    }
    if (s == WF_OK) {
        *out_size = sz.total;
    }
    return s;
}

wf_status wf_world_save(wf_world* w, void* out, size_t size) {
    WF_CHECK_ARG(w != NULL && out != NULL);
    WF_CHECK_OR(!w->stepping, WF_ERR_BUSY);
    wf_status s = finish_tiles(w);
    sections sz;
    if (s == WF_OK) {
        s = section_sizes(w, &sz);
    }
    if (s != WF_OK) {
        return s;
    }
    if (size < sz.total) {
        return WF_ERR_CAPACITY;
    }
    unsigned char* p = out;
    size_t head = header_size(w->class_count);
    memset(p, 0, head);
    wf_bytes_put_u32(p, WORLD_MAGIC);
    wf_bytes_put_u32(p + 4, WORLD_VERSION);
    wf_bytes_put_u64(p + 8, w->frame);
    wf_bytes_put_u32(p + 16, w->class_count);
    wf_bytes_put_u64(p + 24, sz.obstacles);
    unsigned char* at = p + head;
    wf_world_obstacles_save(w, at);
    at += sz.obstacles;
    for (uint32_t c = 0; c < w->class_count && s == WF_OK; ++c) {
        const world_class* k = &w->classes[c];
        unsigned char* row = p + WORLD_FIXED + 24u * c;
        wf_bytes_put_u64(row, sz.tc[c]);
        wf_bytes_put_u64(row + 8, sz.mesh[c]);
        wf_bytes_put_u64(row + 16, sz.crowd[c]);
        s = wf_tilecache_save(k->tc, at, sz.tc[c]);
        if (s == WF_OK) {
            s = wf_mesh_save(k->mesh, at + sz.tc[c], sz.mesh[c]);
        }
        if (s == WF_OK) {
            s = wf_crowd_save(k->crowd, at + sz.tc[c] + sz.mesh[c], sz.crowd[c]);
        }
        at += sz.tc[c] + sz.mesh[c] + sz.crowd[c];
    }
    if (s != WF_OK) {
        return s;
    }
    wf_bytes_put_u64(p + WORLD_CHECKSUM_AT, world_checksum(p, sz.total));
    return WF_OK;
}

/// A class's state loaded aside, before it replaces the live one.
typedef struct loaded_class {
    wf_tilecache* tc;
    wf_mesh* mesh;
    wf_crowd* crowd;
    const unsigned char* crowd_bytes;
    size_t crowd_size;
} loaded_class;

static wf_status load_class(wf_world* w, uint32_t c, const unsigned char* at, uint64_t tc_size,
                            uint64_t mesh_size, uint64_t crowd_size, loaded_class* out) {
    const world_class* k = &w->classes[c];
    wf_status s = wf_tilecache_load(&k->tc_desc, at, (size_t)tc_size, &out->tc);
    if (s == WF_OK) {
        wf_mesh_desc md = wf_tilecache_mesh_desc(out->tc);
        md.allocator = w->allocator;
        s = wf_mesh_load(&md, at + tc_size, (size_t)mesh_size, &out->mesh);
        // Steps rebuild the cache's tiles into this mesh: it must lie on the
        // cache's tile grid (a save that says otherwise is damaged).
        if (s == WF_OK && !wf_tilecache_mesh_matches(out->tc, out->mesh)) {
            s = WF_ERR_BAD_DATA;
        }
    }
    if (s == WF_OK) {
        wf_crowd_desc cd = k->crowd_desc;
        cd.mesh = out->mesh;
        s = wf_crowd_create(&cd, &out->crowd);
    }
    out->crowd_bytes = at + tc_size + mesh_size;
    out->crowd_size = (size_t)crowd_size;
    if (s == WF_OK) {
        s = wf_crowd_restore(out->crowd, out->crowd_bytes, out->crowd_size);
    }
    if (s == WF_OK) {
        s = wf_world_size_changed(w, out->tc);
    }
    return s;
}

wf_status wf_world_restore(wf_world* w, const void* data, size_t size) {
    WF_CHECK_ARG(w != NULL && (data != NULL || size == 0));
    WF_CHECK_OR(!w->stepping, WF_ERR_BUSY);
    const unsigned char* p = data;
    if (size < WORLD_FIXED || wf_bytes_get_u32(p) != WORLD_MAGIC) {
        return WF_ERR_BAD_DATA;
    }
    if (wf_bytes_get_u32(p + 4) != WORLD_VERSION) {
        return WF_ERR_VERSION;
    }
    uint32_t classes = wf_bytes_get_u32(p + 16);
    if (classes != w->class_count) {
        // Saved by a world of other classes: create the world from the same desc.
        return classes == 0 || classes > WF_WORLD_MAX_CLASSES ? WF_ERR_BAD_DATA : WF_ERR_CAPACITY;
    }
    size_t head = header_size(classes);
    if (size < head || world_checksum(p, size) != wf_bytes_get_u64(p + WORLD_CHECKSUM_AT)) {
        return WF_ERR_BAD_DATA;
    }
    // Every section must lie inside the blob and fill it exactly.
    uint64_t room = size - head;
    uint64_t obstacles = wf_bytes_get_u64(p + 24);
    if (obstacles > room) {
        return WF_ERR_BAD_DATA;
    }
    room -= obstacles;
    uint64_t sizes[WF_WORLD_MAX_CLASSES][3];
    for (uint32_t c = 0; c < classes; ++c) {
        for (int j = 0; j < 3; ++j) {
            sizes[c][j] = wf_bytes_get_u64(p + WORLD_FIXED + 24u * c + 8u * (uint32_t)j);
            if (sizes[c][j] > room) {
                return WF_ERR_BAD_DATA;
            }
            room -= sizes[c][j];
        }
    }
    if (room != 0) {
        return WF_ERR_BAD_DATA;
    }
    // Everything is built aside and only swapped in once all of it loaded:
    // a failure leaves the world as it was.
    const unsigned char* at = p + head;
    wf_id_pool pool;
    uint64_t* ids = NULL;
    wf_status s = wf_world_obstacles_load(w, at, (size_t)obstacles, &pool, &ids);
    at += obstacles;
    loaded_class loaded[WF_WORLD_MAX_CLASSES];
    memset(loaded, 0, sizeof loaded);
    for (uint32_t c = 0; c < classes && s == WF_OK; ++c) {
        s = load_class(w, c, at, sizes[c][0], sizes[c][1], sizes[c][2], &loaded[c]);
        at += sizes[c][0] + sizes[c][1] + sizes[c][2];
    }
    if (s != WF_OK) {
        for (uint32_t c = 0; c < classes; ++c) {
            wf_world_destroy_parts(loaded[c].crowd, loaded[c].mesh, loaded[c].tc);
        }
        if (ids != NULL) {
            WF_FREE_ARRAY(&w->allocator, ids, uint64_t, (size_t)w->max_obstacles * classes);
            wf_id_pool_destroy(&pool);
        }
        return s;
    }
    // All of it loaded: the new contents move into the objects the game
    // holds (wf_world_crowd & co stay valid), and the old ones go. Each
    // crowd restores its bytes a second time, in place, over the swapped
    // mesh: the same checks against the same capacities, so it succeeds.
    for (uint32_t c = 0; c < classes; ++c) {
        world_class* k = &w->classes[c];
        wf_crowd_destroy(loaded[c].crowd);
        wf_tilecache_swap_contents(k->tc, loaded[c].tc);
        wf_mesh_swap_contents(k->mesh, loaded[c].mesh);
        s = wf_crowd_restore(k->crowd, loaded[c].crowd_bytes, loaded[c].crowd_size);
        WF_ASSERT(s == WF_OK);
        wf_world_destroy_parts(NULL, loaded[c].mesh, loaded[c].tc);
    }
    if (ids != NULL) {
        WF_FREE_ARRAY(&w->allocator, w->obstacle_class_ids, uint64_t,
                      (size_t)w->max_obstacles * classes);
        wf_id_pool_destroy(&w->obstacle_ids);
        w->obstacle_ids = pool;
        w->obstacle_class_ids = ids;
    }
    w->frame = wf_bytes_get_u64(p + 8);
    return WF_OK;
}
