// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Off-mesh links kept by the tile cache: checked and landed on the stored
// layers when added, kept in user_id order with the entry their start lands
// in, handed to that layer's every rebuild, removed by id.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "navcore/alloc.h"
#include "navcore/check.h"
#include "navcore/log.h"
#include "tilecache/tilecache_internal.h"

/* ---------------------------------------------------------------------------
 * Landing: which stored layer a point lies on
 */

/// Decompresses entry `index` into the arena (not reset: the caller's marks
/// decide what is kept). The cache's own layers need only the trusted parse.
static wf_status open_layer(const wf_tilecache* tc, uint32_t index, wf_arena* arena,
                            wf_layer* out) {
    const wf_tilecache_entry* e = &tc->entries[index];
    unsigned char* raw = wf_arena_alloc(arena, e->info.raw_bytes, WF_TILECACHE_BLOB_ALIGN);
    if (raw == NULL) {
        return WF_ERR_CAPACITY;
    }
    wf_status s = tc->codec.decompress(e->data, e->info.compressed_bytes, raw, e->info.raw_bytes,
                                       tc->codec.user);
    if (s == WF_OK) {
        s = wf_layer_deserialize_trusted(raw, e->info.raw_bytes, tc->params.cell_size,
                                         tc->params.cell_height, out);
    }
    return s;
}

/// Best squared distance from pos to a walkable cell of the layer within
/// radius (XZ; the cell under pos when radius is 0) and the vertical
/// tolerance; INFINITY when none.
static float layer_landing(const wf_layer* l, wf_vec3 pos, float radius, float tolerance) {
    float cs = l->cs;
    float fx0 = floorf((pos.x - radius - l->bmin[0]) / cs);
    float fx1 = floorf((pos.x + radius - l->bmin[0]) / cs);
    float fz0 = floorf((pos.z - radius - l->bmin[2]) / cs);
    float fz1 = floorf((pos.z + radius - l->bmin[2]) / cs);
    if (fx1 < 0.0f || fz1 < 0.0f || fx0 >= (float)l->width || fz0 >= (float)l->depth) {
        return INFINITY;
    }
    int32_t x0 = fx0 < 0.0f ? 0 : (int32_t)fx0, z0 = fz0 < 0.0f ? 0 : (int32_t)fz0;
    int32_t x1 = fx1 >= (float)l->width ? (int32_t)l->width - 1 : (int32_t)fx1;
    int32_t z1 = fz1 >= (float)l->depth ? (int32_t)l->depth - 1 : (int32_t)fz1;
    float best = INFINITY;
    for (int32_t z = z0; z <= z1; ++z) {
        for (int32_t x = x0; x <= x1; ++x) {
            size_t c = (size_t)x + (size_t)z * l->width;
            if (l->heights[c] == WF_LAYER_EMPTY || l->areas[c] == WF_AREA_NULL) {
                continue;
            }
            float cx0 = l->bmin[0] + (float)x * cs, cz0 = l->bmin[2] + (float)z * cs;
            float dx = fmaxf(fmaxf(cx0 - pos.x, pos.x - (cx0 + cs)), 0.0f);
            float dz = fmaxf(fmaxf(cz0 - pos.z, pos.z - (cz0 + cs)), 0.0f);
            float dxz = dx * dx + dz * dz;
            float y = l->bmin[1] + (float)(l->hmin + l->heights[c]) * l->ch;
            float dy = fabsf(y - pos.y);
            if (dxz > radius * radius || dy > tolerance) {
                continue;
            }
            best = fminf(best, dxz + dy * dy);
        }
    }
    return best;
}

/// Tile holding pos on the cache's grid; false outside it.
static bool tile_of(const wf_tilecache* tc, wf_vec3 pos, int32_t* out_x, int32_t* out_z) {
    float tw = (float)tc->params.tile_size * tc->params.cell_size;
    float fx = floorf((pos.x - tc->origin.x) / tw), fz = floorf((pos.z - tc->origin.z) / tw);
    if (!(fx >= 0.0f && fz >= 0.0f && fx < (float)tc->tiles_x && fz < (float)tc->tiles_z)) {
        return false;
    }
    *out_x = (int32_t)fx;
    *out_z = (int32_t)fz;
    return true;
}

bool wf_tilecache_find_landing(const wf_tilecache* tc, wf_vec3 pos, float radius,
                               uint32_t* out_entry) {
    int32_t tx, tz;
    if (tc->entry_count == 0 || !tile_of(tc, pos, &tx, &tz)) {
        return false;
    }
    uint32_t first, end;
    wf_tilecache_row_entries(tc, tz, tx, tx, &first, &end);
    // A cell height of slack: polygons lie on the cell tops, rounded.
    float tolerance = fmaxf(tc->params.agent_climb, radius) + tc->params.cell_height;
    wf_arena* arena = &tc->workers[0].scratch;
    float best = INFINITY;
    for (uint32_t i = first; i < end; ++i) {
        wf_arena_mark mark = wf_arena_get_mark(arena);
        wf_layer layer;
        if (open_layer(tc, i, arena, &layer) == WF_OK) {
            float d = layer_landing(&layer, pos, radius, tolerance);
            if (d < best) { // ties keep the lower layer
                best = d;
                *out_entry = i;
            }
        }
        wf_arena_reset_to(arena, mark);
    }
    return best < INFINITY;
}

/* ---------------------------------------------------------------------------
 * The table
 */

wf_status wf_tilecache_link_desc_check(const wf_offmesh_link_desc* d) {
    if (!wf_v3_is_finite(d->start) || !wf_v3_is_finite(d->end) || !isfinite(d->radius) ||
        d->radius < 0.0f || d->area >= WF_MAX_AREAS || fabsf(d->start.x) > WF_TILECACHE_MAX_COORD ||
        fabsf(d->start.y) > WF_TILECACHE_MAX_COORD || fabsf(d->start.z) > WF_TILECACHE_MAX_COORD ||
        fabsf(d->end.x) > WF_TILECACHE_MAX_COORD || fabsf(d->end.y) > WF_TILECACHE_MAX_COORD ||
        fabsf(d->end.z) > WF_TILECACHE_MAX_COORD) {
        return WF_ERR_INVALID_ARG;
    }
    return WF_OK;
}

/// Index of user_id in the table, or where it would go (*found false).
static uint32_t find_id(const wf_tilecache* tc, uint32_t user_id, bool* found) {
    uint32_t lo = 0, hi = tc->link_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2u;
        if (tc->links[mid].desc.user_id < user_id) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    *found = lo < tc->link_count && tc->links[lo].desc.user_id == user_id;
    return lo;
}

static int compare_ids(const void* a, const void* b) {
    uint32_t x = ((const wf_tilecache_link*)a)->desc.user_id;
    uint32_t y = ((const wf_tilecache_link*)b)->desc.user_id;
    return x < y ? -1 : (x > y ? 1 : 0);
}

/// Room for `need` links: the table doubles (from 64, up to max_links),
/// so it costs what the links need, not max_links; an add within the room
/// already there allocates nothing.
static wf_status ensure_table(wf_tilecache* tc, uint32_t need) {
    if (need <= tc->link_capacity) {
        return WF_OK;
    }
    uint32_t grown = tc->link_capacity > 0 ? tc->link_capacity : 64u;
    while (grown < need) {
        grown = grown > UINT32_MAX / 2u ? UINT32_MAX : 2u * grown;
    }
    grown = grown < tc->max_links ? grown : tc->max_links;
    wf_tilecache_link* table = WF_ALLOC_ARRAY(&tc->allocator, wf_tilecache_link, grown);
    if (table == NULL) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    if (tc->link_count > 0) {
        memcpy(table, tc->links, (size_t)tc->link_count * sizeof *table);
    }
    WF_FREE_ARRAY(&tc->allocator, tc->links, wf_tilecache_link, tc->link_capacity);
    tc->links = table;
    tc->link_capacity = grown;
    return WF_OK;
}

void wf_tilecache_free_links(wf_tilecache* tc) {
    WF_FREE_ARRAY(&tc->allocator, tc->links, wf_tilecache_link, tc->link_capacity);
    tc->links = NULL;
    tc->link_count = 0;
    tc->link_capacity = 0;
}

/// Checks link i and lands both its ends; *out_entry the start's layer.
static wf_status land_link(const wf_tilecache* tc, const wf_offmesh_link_desc* d, uint32_t i,
                           uint32_t* out_entry) {
    const wf_logger* logger = &tc->logger;
    if (wf_tilecache_link_desc_check(d) != WF_OK) {
        wf_log(logger, WF_LOG_ERROR,
               "tilecache: link %u (user_id %u): ends must be finite, radius finite and >= 0, "
               "area below 64",
               i, d->user_id);
        return WF_ERR_INVALID_ARG;
    }
    int32_t sx, sz, ex, ez;
    bool start_in = tile_of(tc, d->start, &sx, &sz), end_in = tile_of(tc, d->end, &ex, &ez);
    if (start_in && end_in && (abs(ex - sx) > 1 || abs(ez - sz) > 1)) {
        wf_log(logger, WF_LOG_ERROR,
               "tilecache: link %u (user_id %u): its end is beyond the tiles around its start's", i,
               d->user_id);
        return WF_ERR_INVALID_ARG;
    }
    uint32_t end_entry;
    if (!start_in || !wf_tilecache_find_landing(tc, d->start, d->radius, out_entry)) {
        wf_log(logger, WF_LOG_ERROR, "tilecache: link %u (user_id %u): its start is off the layers",
               i, d->user_id);
        return WF_ERR_NOT_FOUND;
    }
    if (!end_in || !wf_tilecache_find_landing(tc, d->end, d->radius, &end_entry)) {
        wf_log(logger, WF_LOG_ERROR, "tilecache: link %u (user_id %u): its end is off the layers",
               i, d->user_id);
        return WF_ERR_NOT_FOUND;
    }
    return WF_OK;
}

void wf_tilecache_dirty_layer(wf_tilecache* tc, uint32_t index) {
    if (tc->layer_states != NULL && index < tc->layer_state_count) {
        tc->layer_states[index].dirty_version++;
    }
}

/// Links per layer after the fresh ones (the table's last `fresh`): none
/// above WF_TILECACHE_MAX_LINKS_PER_LAYER. Counts only the layers of fresh
/// links, so one add costs a pass over the table per new link's layer.
static bool layers_have_room(const wf_tilecache* tc, uint32_t fresh) {
    uint32_t old = tc->link_count, total = old + fresh;
    for (uint32_t i = old; i < total; ++i) {
        uint32_t entry = tc->links[i].entry;
        bool seen = false;
        for (uint32_t j = old; j < i && !seen; ++j) {
            seen = tc->links[j].entry == entry;
        }
        if (seen) {
            continue;
        }
        uint32_t n = 0;
        for (uint32_t j = 0; j < total; ++j) {
            n += tc->links[j].entry == entry;
        }
        if (n > WF_TILECACHE_MAX_LINKS_PER_LAYER) {
            return false;
        }
    }
    return true;
}

wf_status wf_tilecache_insert_links(wf_tilecache* tc, const wf_offmesh_link_desc* links,
                                    uint32_t count) {
    const wf_logger* logger = &tc->logger;
    if (count == 0) {
        return WF_OK;
    }
    if (count > tc->max_links - tc->link_count) {
        wf_log(logger, WF_LOG_ERROR, "tilecache: %u links, more than max_links %u",
               tc->link_count + count, tc->max_links);
        return WF_ERR_CAPACITY;
    }
    wf_status s = ensure_table(tc, tc->link_count + count);
    if (s == WF_OK && tc->entry_count > 0) {
        s = wf_tilecache_make_layer_states(tc); // made now so that nothing can fail later
    }
    if (s != WF_OK) {
        return s;
    }
    // Landed into the table's free tail; the table proper is untouched
    // until every check passed.
    uint32_t old = tc->link_count;
    wf_tilecache_link* fresh = &tc->links[old];
    for (uint32_t i = 0; i < count; ++i) {
        bool taken;
        (void)find_id(tc, links[i].user_id, &taken);
        if (taken) {
            wf_log(logger, WF_LOG_ERROR, "tilecache: link %u: user_id %u is in the cache already",
                   i, links[i].user_id);
            return WF_ERR_BUSY;
        }
        s = land_link(tc, &links[i], i, &fresh[i].entry);
        if (s != WF_OK) {
            return s;
        }
        fresh[i].desc = links[i];
    }
    if (count > 1) {
        qsort(fresh, count, sizeof *fresh, compare_ids);
        for (uint32_t i = 1; i < count; ++i) {
            if (fresh[i].desc.user_id == fresh[i - 1u].desc.user_id) {
                wf_log(logger, WF_LOG_ERROR, "tilecache: user_id %u is given to two links",
                       fresh[i].desc.user_id);
                return WF_ERR_BUSY;
            }
        }
    }
    if (!layers_have_room(tc, count)) {
        wf_log(logger, WF_LOG_ERROR,
               "tilecache: more than WF_TILECACHE_MAX_LINKS_PER_LAYER (%u) links would start in "
               "one layer",
               WF_TILECACHE_MAX_LINKS_PER_LAYER);
        return WF_ERR_CAPACITY;
    }
    for (uint32_t i = 0; i < count; ++i) {
        wf_tilecache_dirty_layer(tc, fresh[i].entry);
    }
    tc->link_count = old + count;
    if (old > 0) {
        bool in_order = tc->links[old - 1u].desc.user_id < fresh[0].desc.user_id;
        if (!in_order) {
            qsort(tc->links, tc->link_count, sizeof *tc->links, compare_ids);
        }
    }
    return WF_OK;
}

wf_status wf_tilecache_add_links(wf_tilecache* tc, const wf_offmesh_link_desc* links,
                                 uint32_t count) {
    WF_CHECK_ARG(tc != NULL && (links != NULL || count == 0));
    return wf_tilecache_insert_links(tc, links, count);
}

wf_status wf_tilecache_remove_link(wf_tilecache* tc, uint32_t user_id) {
    WF_CHECK_ARG(tc != NULL);
    bool found;
    uint32_t at = tc->links != NULL ? find_id(tc, user_id, &found) : 0;
    if (tc->links == NULL || !found) {
        return WF_ERR_NOT_FOUND;
    }
    wf_status s = wf_tilecache_make_layer_states(tc);
    if (s != WF_OK) {
        return s;
    }
    wf_tilecache_dirty_layer(tc, tc->links[at].entry);
    memmove(&tc->links[at], &tc->links[at + 1u],
            (size_t)(tc->link_count - at - 1u) * sizeof *tc->links);
    tc->link_count--;
    return WF_OK;
}

uint32_t wf_tilecache_link_count(const wf_tilecache* tc) { return tc != NULL ? tc->link_count : 0; }

wf_status wf_tilecache_get_link(const wf_tilecache* tc, uint32_t index, wf_offmesh_link_desc* out,
                                wf_tilecache_layer_info* out_start_layer) {
    WF_CHECK_ARG(tc != NULL && out != NULL);
    if (index >= tc->link_count) {
        return WF_ERR_NOT_FOUND;
    }
    *out = tc->links[index].desc;
    if (out_start_layer != NULL) {
        *out_start_layer = tc->entries[tc->links[index].entry].info;
    }
    return WF_OK;
}

uint32_t wf_tilecache_gather_links(const wf_tilecache* tc, uint32_t index,
                                   wf_offmesh_link_desc* out) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < tc->link_count && n < WF_TILECACHE_MAX_LINKS_PER_LAYER; ++i) {
        if (tc->links[i].entry == index) {
            out[n++] = tc->links[i].desc;
        }
    }
    return n;
}
