// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The per-layer rebuild, shared by the navmesh pass (navmesh_from_cache.c)
// and budgeted updates (update.c): decompress a stored layer, stamp the
// applied obstacles that touch it, and build its tile blob
// (layer_to_tile.c). Also which obstacles' stamps a rebuild takes.
#include <string.h>

#include "tilecache/layer_to_tile.h"
#include "tilecache/tilecache_internal.h"

static wf_layer_tile_params layer_tile_params(const wf_tilecache_params* p) {
    wf_layer_tile_params t;
    memset(&t, 0, sizeof t);
    t.walkable_height = p->agent_height;
    t.walkable_radius = p->agent_radius;
    t.walkable_climb = p->agent_climb;
    t.max_edge_length = p->max_edge_length / p->cell_size;
    t.max_simplification_error = p->max_simplification_error;
    t.max_verts_per_poly = p->max_verts_per_poly;
    t.min_region_area = p->min_region_area;
    t.merge_region_area = p->merge_region_area;
    t.area_flags = p->area_flags;
    return t;
}

wf_status wf_tilecache_rebuild_layer(const wf_tilecache* tc, uint32_t index,
                                     const wf_obstacle_stamp* stamps, uint32_t stamp_count,
                                     const wf_offmesh_link_desc* links, uint32_t link_count,
                                     wf_arena* arena, void* out, size_t capacity,
                                     size_t* out_size) {
    const wf_tilecache_entry* e = &tc->entries[index];
    wf_arena_reset(arena);
    unsigned char* raw = wf_arena_alloc(arena, e->info.raw_bytes, WF_TILECACHE_BLOB_ALIGN);
    if (raw == NULL) {
        return WF_ERR_CAPACITY; // entries never exceed the tile size the arena is made for
    }
    wf_status s = tc->codec.decompress(e->data, e->info.compressed_bytes, raw, e->info.raw_bytes,
                                       tc->codec.user);
    wf_layer layer;
    if (s == WF_OK) {
        // Layers in the cache were validated when built or loaded.
        s = wf_layer_deserialize_trusted(raw, e->info.raw_bytes, tc->params.cell_size,
                                         tc->params.cell_height, &layer);
    }
    if (s != WF_OK) {
        return s == WF_ERR_VERSION ? s : WF_ERR_BAD_DATA;
    }
    if (stamp_count > 0) {
        wf_obstacle_stamp_layer(&layer, stamps, stamp_count); // the arena's copy, never the cache
    }
    wf_layer_tile_params params = layer_tile_params(&tc->params);
    params.offmesh_links = links;
    params.offmesh_link_count = link_count;
    return wf_layer_build_tile(&layer, &params, arena, out, capacity, out_size);
}

uint32_t wf_tilecache_list_applied(const wf_tilecache* tc, uint32_t* out) {
    uint32_t n = 0;
    for (uint32_t i = 0; tc->obstacles != NULL && i < tc->max_obstacles; ++i) {
        if (tc->obstacles[i].state == WF_OBSTACLE_LIVE && tc->obstacles[i].applied) {
            if (out != NULL) {
                out[n] = i;
            }
            n++;
        }
    }
    return n;
}

uint32_t wf_tilecache_gather_stamps(const wf_tilecache* tc, const uint32_t* slots,
                                    uint32_t slot_count, uint32_t index, wf_obstacle_stamp* out) {
    const wf_tilecache_entry* entry = &tc->entries[index];
    uint32_t n = 0;
    for (uint32_t i = 0; i < slot_count; ++i) {
        const wf_obstacle_stamp* stamp = &tc->obstacles[slots[i]].stamp;
        if (wf_tilecache_bounds_touch_layer(entry, stamp->bmin, stamp->bmax)) {
            out[n++] = *stamp;
        }
    }
    return n;
}
