// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The cache file: build parameters, world bounds, the obstacle set and every
// compressed layer, with checksums; loading checks everything before it
// trusts it.
#include <math.h>
#include <string.h>

#include "navcore/alloc.h"
#include "navcore/bytes.h"
#include "navcore/check.h"
#include "navcore/hash.h"
#include "navcore/log.h"
#include "tilecache/tilecache_internal.h"

/*
 * Layout, little-endian:
 *   header (HEADER_BYTES):
 *     0 magic "WFTC"   4 version   8 checksum (header, directory,
 *     obstacle and link sections, this field read as 0)   12 codec id   16 file size
 *     (u64)   24 layer count   28 tiles x   32 tiles z   36 zero
 *     36 link section bytes (version 3; 0 in 1 and 2: none)
 *     40 params (PARAM_WORDS words)   112 world origin xyz, world max xyz
 *     136 obstacle count   140 obstacle section bytes (0: none)
 *   directory: per layer tile x, tile z, layer, raw size, compressed size,
 *     checksum of the compressed bytes (DIR_BYTES each)
 *   obstacle section: id pool bytes (u32), the id pool's own save format,
 *     then per live obstacle in slot order its id (u64) and desc
 *     (OBSTACLE_BYTES, then 3 floats per prism point), zero-padded to
 *     DATA_ALIGN. Absent while the pool is as created (a cache that never
 *     had an obstacle saves as version 1 did, but for the version).
 *   link section (version 3, absent when the cache has no link): count
 *     (u32), zero (u32), then per link in user_id order start xyz, end
 *     xyz, radius, flags (bit 0 bidirectional), area, poly flags, user_id
 *     (LINK_BYTES), zero-padded to DATA_ALIGN. Loading lands each link
 *     again on the loaded layers (the same layers: the same landing).
 *   area section (version 4, absent in 1-3: every area's flags 0): the
 *     params' area_flags, WF_MAX_AREAS u16 (AREA_BYTES). Saved as version
 *     4 only when some area has flags, so other caches stay version 3.
 *   data: each layer's compressed bytes, zero-padded to DATA_ALIGN.
 * Floats are stored as their bits, so a loaded cache builds exactly what
 * the saved one did, and obstacle descs come back bit for bit.
 *
 * Queued obstacle requests are saved as if applied: every live obstacle is
 * loaded live and applied, so wf_tilecache_build_navmesh stamps it, and an
 * obstacle whose removal was queued is gone.
 */
#define FILE_MAGIC 0x43544657u // "WFTC"
#define FILE_VERSION 3u
#define HEADER_BYTES 144u
#define CHECKSUM_AT 8u
#define PARAMS_AT 40u
#define PARAM_WORDS 18u
#define BOUNDS_AT 112u
#define OBSTACLE_COUNT_AT 136u
#define OBSTACLE_SECTION_AT 140u
/// id, shape, flags, area, vert count, position, radius, height, half
/// extents, yaw; prism points follow.
#define OBSTACLE_BYTES 60u
#define OBSTACLE_PAINT 1u
#define LINK_SECTION_AT 36u
#define LINK_BYTES 44u
#define LINK_BIDIRECTIONAL 1u
#define DIR_BYTES 24u
#define FILE_VERSION_AREAS 4u
#define AREA_BYTES (2u * WF_MAX_AREAS)
#define DATA_ALIGN 8u

static size_t pad(size_t n) { return (n + DATA_ALIGN - 1u) & ~(size_t)(DATA_ALIGN - 1u); }

static bool all_zero(const unsigned char* p, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        if (p[i] != 0) {
            return false;
        }
    }
    return true;
}

/* ---------------------------------------------------------------------------
 * Obstacle section
 */

/// True while the id pool is as wf_id_pool_create leaves it (every slot at
/// generation 1, free, listed in slot order): no id was ever handed out,
/// so restoring a fresh pool is exact and the section is left out.
static bool pool_untouched(const wf_id_pool* pool) {
    if (pool->slots == NULL) {
        return true;
    }
    if (pool->live_count != 0 || pool->free_head != 0 || pool->free_tail != pool->capacity - 1u) {
        return false;
    }
    for (uint32_t i = 0; i < pool->capacity; ++i) {
        if (pool->slots[i] != 1u || (i + 1u < pool->capacity && pool->next_free[i] != i + 1u)) {
            return false;
        }
    }
    return true;
}

/// Prism points stored for a desc: the outline of a prism, none otherwise.
static uint32_t stored_points(const wf_obstacle_desc* d) {
    return d->shape == WF_OBSTACLE_PRISM ? d->vert_count : 0u;
}

/// Bytes of the obstacle section (a multiple of DATA_ALIGN; 0 when left out).
static size_t obstacle_section_size(const wf_tilecache* tc, uint32_t* out_count) {
    const wf_id_pool* pool = &tc->obstacle_ids;
    *out_count = 0;
    if (pool_untouched(pool)) {
        return 0;
    }
    size_t n = 4u + wf_id_pool_save_size(pool);
    for (uint32_t slot = 0; slot < pool->capacity; ++slot) {
        if (wf_id_pool_id_at(pool, slot) != 0) {
            n += OBSTACLE_BYTES + 12u * (size_t)stored_points(&tc->obstacles[slot].desc);
            (*out_count)++;
        }
    }
    return pad(n);
}

static void put_obstacle(unsigned char* p, uint64_t id, const wf_obstacle_desc* d) {
    wf_bytes_put_u64(p, id);
    wf_bytes_put_u32(p + 8, (uint32_t)d->shape);
    wf_bytes_put_u32(p + 12, d->paint ? OBSTACLE_PAINT : 0u);
    wf_bytes_put_u32(p + 16, d->area);
    wf_bytes_put_u32(p + 20, d->vert_count);
    const float f[9] = {d->position.x,     d->position.y,     d->position.z,
                        d->radius,         d->height,         d->half_extents.x,
                        d->half_extents.y, d->half_extents.z, d->yaw};
    for (int i = 0; i < 9; ++i) {
        wf_bytes_put_f32(p + 24 + 4 * i, f[i]);
    }
    p += OBSTACLE_BYTES;
    for (uint32_t i = 0; i < stored_points(d); ++i, p += 12) {
        wf_bytes_put_f32(p, d->verts[i].x);
        wf_bytes_put_f32(p + 4, d->verts[i].y);
        wf_bytes_put_f32(p + 8, d->verts[i].z);
    }
}

/// Pool state, then each live obstacle in slot order (into zeroed bytes, so
/// the padding is zero).
static void save_obstacles(const wf_tilecache* tc, unsigned char* p) {
    const wf_id_pool* pool = &tc->obstacle_ids;
    size_t pool_bytes = wf_id_pool_save_size(pool);
    wf_bytes_put_u32(p, (uint32_t)pool_bytes);
    wf_id_pool_save(pool, p + 4);
    p += 4u + pool_bytes;
    for (uint32_t slot = 0; slot < pool->capacity; ++slot) {
        uint64_t id = wf_id_pool_id_at(pool, slot);
        if (id != 0) {
            const wf_obstacle_desc* d = &tc->obstacles[slot].desc;
            put_obstacle(p, id, d);
            p += OBSTACLE_BYTES + 12u * (size_t)stored_points(d);
        }
    }
}

/// One obstacle of `left` bytes: its id and desc; *out_size the bytes used.
/// The desc is checked as wf_tilecache_add_obstacle checks it.
static wf_status get_obstacle(const unsigned char* p, size_t left, uint64_t* out_id,
                              wf_obstacle_desc* d, size_t* out_size) {
    if (left < OBSTACLE_BYTES) {
        return WF_ERR_BAD_DATA;
    }
    memset(d, 0, sizeof *d);
    uint32_t shape = wf_bytes_get_u32(p + 8), flags = wf_bytes_get_u32(p + 12);
    uint32_t area = wf_bytes_get_u32(p + 16);
    if (shape > (uint32_t)WF_OBSTACLE_PRISM || (flags & ~OBSTACLE_PAINT) != 0 || area > 255u) {
        return WF_ERR_BAD_DATA;
    }
    *out_id = wf_bytes_get_u64(p);
    d->shape = (wf_obstacle_shape)shape;
    d->paint = (flags & OBSTACLE_PAINT) != 0;
    d->area = (uint8_t)area;
    d->vert_count = wf_bytes_get_u32(p + 20);
    d->position =
        wf_v3(wf_bytes_get_f32(p + 24), wf_bytes_get_f32(p + 28), wf_bytes_get_f32(p + 32));
    d->radius = wf_bytes_get_f32(p + 36);
    d->height = wf_bytes_get_f32(p + 40);
    d->half_extents =
        wf_v3(wf_bytes_get_f32(p + 44), wf_bytes_get_f32(p + 48), wf_bytes_get_f32(p + 52));
    d->yaw = wf_bytes_get_f32(p + 56);
    uint32_t points = stored_points(d);
    if (points > WF_OBSTACLE_MAX_VERTS || (left - OBSTACLE_BYTES) / 12u < points) {
        return WF_ERR_BAD_DATA;
    }
    p += OBSTACLE_BYTES;
    for (uint32_t i = 0; i < points; ++i, p += 12) {
        d->verts[i] = wf_v3(wf_bytes_get_f32(p), wf_bytes_get_f32(p + 4), wf_bytes_get_f32(p + 8));
    }
    *out_size = OBSTACLE_BYTES + 12u * (size_t)points;
    return wf_obstacle_desc_check(d) == WF_OK ? WF_OK : WF_ERR_BAD_DATA;
}

/// Restores the id pool and the live obstacles, each live and applied (the
/// next navmesh build stamps it). tc is fresh and is destroyed on failure.
static wf_status load_obstacles(wf_tilecache* tc, const unsigned char* p, size_t size,
                                uint32_t count) {
    if (size == 0) {
        return WF_OK; // the pool as created (check_layout: no obstacles)
    }
    size_t pool_bytes = wf_bytes_get_u32(p);
    if (pool_bytes > size - 4u) {
        return WF_ERR_BAD_DATA;
    }
    wf_status s = wf_id_pool_load(&tc->obstacle_ids, p + 4, pool_bytes);
    if (s != WF_OK) {
        // CAPACITY: saved with more slots than the desc's max_obstacles.
        return s == WF_ERR_CAPACITY || s == WF_ERR_OUT_OF_MEMORY ? s : WF_ERR_BAD_DATA;
    }
    size_t at = 4u + pool_bytes;
    uint32_t previous = 0;
    for (uint32_t k = 0; k < count; ++k) {
        uint64_t id = 0;
        uint32_t slot = 0;
        size_t used = 0;
        wf_obstacle_desc desc;
        s = get_obstacle(p + at, size - at, &id, &desc, &used);
        // Each live id once, in slot order.
        if (s != WF_OK || wf_id_pool_find(&tc->obstacle_ids, id, &slot) != WF_OK ||
            (k > 0 && slot <= previous)) {
            return WF_ERR_BAD_DATA;
        }
        // Stamped as wf_tilecache_add_obstacle does; it touched a tile then.
        wf_obstacle_record* r = &tc->obstacles[slot];
        r->desc = desc;
        wf_obstacle_make_stamp(&desc, tc->params.agent_radius, tc->params.agent_climb, &r->stamp);
        if (!wf_tilecache_bounds_touch_tiles(tc, r->stamp.bmin, r->stamp.bmax)) {
            return WF_ERR_BAD_DATA;
        }
        r->state = WF_OBSTACLE_LIVE;
        r->applied = true;
        previous = slot;
        at += used;
    }
    if (count != tc->obstacle_ids.live_count || size - at >= DATA_ALIGN ||
        !all_zero(p + at, size - at)) {
        return WF_ERR_BAD_DATA;
    }
    return WF_OK;
}

/* ---------------------------------------------------------------------------
 * Link section
 */

static size_t link_section_size(const wf_tilecache* tc) {
    return tc->link_count == 0 ? 0u : pad(8u + (size_t)tc->link_count * LINK_BYTES);
}

static void save_links(const wf_tilecache* tc, unsigned char* p) {
    wf_bytes_put_u32(p, tc->link_count);
    p += 8;
    for (uint32_t i = 0; i < tc->link_count; ++i, p += LINK_BYTES) {
        const wf_offmesh_link_desc* d = &tc->links[i].desc;
        const float f[7] = {d->start.x, d->start.y, d->start.z, d->end.x,
                            d->end.y,   d->end.z,   d->radius};
        for (int k = 0; k < 7; ++k) {
            wf_bytes_put_f32(p + 4 * k, f[k]);
        }
        wf_bytes_put_u32(p + 28, d->bidirectional ? LINK_BIDIRECTIONAL : 0u);
        wf_bytes_put_u32(p + 32, d->area);
        wf_bytes_put_u32(p + 36, d->flags);
        wf_bytes_put_u32(p + 40, d->user_id);
    }
}

/// Reads the links (in strictly increasing user_id order, each desc valid)
/// and lands them on the loaded layers. tc is fresh and is destroyed on
/// failure.
static wf_status load_links(wf_tilecache* tc, const unsigned char* p, size_t size) {
    if (size == 0) {
        return WF_OK;
    }
    uint32_t count = wf_bytes_get_u32(p);
    if (wf_bytes_get_u32(p + 4) != 0 || count == 0 || count > (size - 8u) / LINK_BYTES ||
        pad(8u + (size_t)count * LINK_BYTES) != size ||
        !all_zero(p + 8u + (size_t)count * LINK_BYTES, size - 8u - (size_t)count * LINK_BYTES)) {
        return WF_ERR_BAD_DATA;
    }
    if (count > tc->max_links) {
        wf_log(&tc->logger, WF_LOG_ERROR, "tilecache: the cache file has %u links, max_links %u",
               count, tc->max_links);
        return WF_ERR_CAPACITY;
    }
    wf_offmesh_link_desc* links = WF_ALLOC_ARRAY(&tc->allocator, wf_offmesh_link_desc, count);
    if (links == NULL) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    wf_status s = WF_OK;
    const unsigned char* q = p + 8;
    for (uint32_t i = 0; i < count && s == WF_OK; ++i, q += LINK_BYTES) {
        wf_offmesh_link_desc* d = &links[i];
        d->start = wf_v3(wf_bytes_get_f32(q), wf_bytes_get_f32(q + 4), wf_bytes_get_f32(q + 8));
        d->end =
            wf_v3(wf_bytes_get_f32(q + 12), wf_bytes_get_f32(q + 16), wf_bytes_get_f32(q + 20));
        d->radius = wf_bytes_get_f32(q + 24);
        uint32_t flags = wf_bytes_get_u32(q + 28), area = wf_bytes_get_u32(q + 32);
        uint32_t poly_flags = wf_bytes_get_u32(q + 36);
        d->bidirectional = (flags & LINK_BIDIRECTIONAL) != 0;
        d->area = (uint8_t)area;
        d->flags = (uint16_t)poly_flags;
        d->user_id = wf_bytes_get_u32(q + 40);
        if ((flags & ~LINK_BIDIRECTIONAL) != 0 || area >= WF_MAX_AREAS || poly_flags > 0xffffu ||
            (i > 0 && d->user_id <= links[i - 1u].user_id) ||
            wf_tilecache_link_desc_check(d) != WF_OK) {
            s = WF_ERR_BAD_DATA;
        }
    }
    if (s == WF_OK) {
        s = wf_tilecache_insert_links(tc, links, count);
        // Saved links landed on these layers when they were added.
        s = s == WF_ERR_OUT_OF_MEMORY || s == WF_ERR_CAPACITY || s == WF_OK ? s : WF_ERR_BAD_DATA;
    }
    WF_FREE_ARRAY(&tc->allocator, links, wf_offmesh_link_desc, count);
    return s;
}

/* ---------------------------------------------------------------------------
 * Area section: the params' area flags (version 4)
 */

static size_t area_section_size(const wf_tilecache_params* p) {
    for (uint32_t a = 0; a < WF_MAX_AREAS; ++a) {
        if (p->area_flags[a] != 0) {
            return AREA_BYTES;
        }
    }
    return 0;
}

static void put_area_flags(unsigned char* p, const wf_tilecache_params* v) {
    for (uint32_t a = 0; a < WF_MAX_AREAS; ++a) {
        p[2u * a] = (unsigned char)(v->area_flags[a] & 0xffu);
        p[2u * a + 1u] = (unsigned char)(v->area_flags[a] >> 8);
    }
}

static void get_area_flags(const unsigned char* p, wf_tilecache_params* v) {
    for (uint32_t a = 0; a < WF_MAX_AREAS; ++a) {
        v->area_flags[a] = (uint16_t)(p[2u * a] | (p[2u * a + 1u] << 8));
    }
}

/* ---------------------------------------------------------------------------
 * Saving
 */

wf_status wf_tilecache_save_size(const wf_tilecache* tc, size_t* out_size) {
    WF_CHECK_ARG(tc != NULL && out_size != NULL);
    uint32_t obstacles;
    size_t n = HEADER_BYTES + (size_t)tc->entry_count * DIR_BYTES +
               obstacle_section_size(tc, &obstacles) + link_section_size(tc) +
               area_section_size(&tc->params);
    for (uint32_t i = 0; i < tc->entry_count; ++i) {
        n += pad(tc->entries[i].info.compressed_bytes);
    }
    *out_size = n;
    return WF_OK;
}

static void put_params(unsigned char* p, const wf_tilecache_params* v) {
    const float f[6] = {v->cell_size,    v->cell_height, v->agent_height,
                        v->agent_radius, v->agent_climb, v->agent_max_slope};
    for (int i = 0; i < 6; ++i) {
        wf_bytes_put_f32(p + 4 * i, f[i]);
    }
    wf_bytes_put_u32(p + 24, v->tile_size);
    wf_bytes_put_u32(p + 28, v->min_region_area);
    wf_bytes_put_u32(p + 32, v->merge_region_area);
    wf_bytes_put_f32(p + 36, v->max_edge_length);
    wf_bytes_put_f32(p + 40, v->max_simplification_error);
    wf_bytes_put_u32(p + 44, v->max_verts_per_poly);
    const float b[6] = {v->bmin.x, v->bmin.y, v->bmin.z, v->bmax.x, v->bmax.y, v->bmax.z};
    for (int i = 0; i < 6; ++i) {
        wf_bytes_put_f32(p + 48 + 4 * i, b[i]);
    }
}

static void get_params(const unsigned char* p, wf_tilecache_params* v) {
    memset(v, 0, sizeof *v);
    v->cell_size = wf_bytes_get_f32(p);
    v->cell_height = wf_bytes_get_f32(p + 4);
    v->agent_height = wf_bytes_get_f32(p + 8);
    v->agent_radius = wf_bytes_get_f32(p + 12);
    v->agent_climb = wf_bytes_get_f32(p + 16);
    v->agent_max_slope = wf_bytes_get_f32(p + 20);
    v->tile_size = wf_bytes_get_u32(p + 24);
    v->min_region_area = wf_bytes_get_u32(p + 28);
    v->merge_region_area = wf_bytes_get_u32(p + 32);
    v->max_edge_length = wf_bytes_get_f32(p + 36);
    v->max_simplification_error = wf_bytes_get_f32(p + 40);
    v->max_verts_per_poly = wf_bytes_get_u32(p + 44);
    v->bmin = wf_v3(wf_bytes_get_f32(p + 48), wf_bytes_get_f32(p + 52), wf_bytes_get_f32(p + 56));
    v->bmax = wf_v3(wf_bytes_get_f32(p + 60), wf_bytes_get_f32(p + 64), wf_bytes_get_f32(p + 68));
}

/// Checksum of header, directory and obstacle section (everything before
/// the layer data), the checksum field read as zero.
static uint32_t header_checksum(const unsigned char* p, size_t data_start) {
    return wf_fnv1a32_zeroed(p, data_start, CHECKSUM_AT, 4u);
}

wf_status wf_tilecache_save(const wf_tilecache* tc, void* out, size_t size) {
    WF_CHECK_ARG(tc != NULL && out != NULL);
    size_t need;
    wf_status s = wf_tilecache_save_size(tc, &need);
    if (s != WF_OK) {
        return s;
    }
    if (size < need) {
        return WF_ERR_CAPACITY;
    }
    unsigned char* o = out;
    memset(o, 0, need);
    wf_bytes_put_u32(o, FILE_MAGIC);
    size_t area_bytes = area_section_size(&tc->params);
    wf_bytes_put_u32(o + 4, area_bytes > 0 ? FILE_VERSION_AREAS : FILE_VERSION);
    wf_bytes_put_u32(o + 12, tc->codec.id);
    wf_bytes_put_u64(o + 16, (uint64_t)need);
    wf_bytes_put_u32(o + 24, tc->entry_count);
    wf_bytes_put_u32(o + 28, (uint32_t)tc->tiles_x);
    wf_bytes_put_u32(o + 32, (uint32_t)tc->tiles_z);
    put_params(o + PARAMS_AT, &tc->params);
    const float b[6] = {tc->origin.x,    tc->origin.y,    tc->origin.z,
                        tc->world_max.x, tc->world_max.y, tc->world_max.z};
    for (int i = 0; i < 6; ++i) {
        wf_bytes_put_f32(o + BOUNDS_AT + 4 * i, b[i]);
    }
    uint32_t obstacles;
    size_t section = obstacle_section_size(tc, &obstacles);
    wf_bytes_put_u32(o + OBSTACLE_COUNT_AT, obstacles);
    wf_bytes_put_u32(o + OBSTACLE_SECTION_AT, (uint32_t)section);
    size_t dir = HEADER_BYTES, dir_end = HEADER_BYTES + (size_t)tc->entry_count * DIR_BYTES;
    if (section > 0) {
        save_obstacles(tc, o + dir_end);
    }
    size_t links = link_section_size(tc);
    wf_bytes_put_u32(o + LINK_SECTION_AT, (uint32_t)links);
    if (links > 0) {
        save_links(tc, o + dir_end + section);
    }
    section += links; // the checksum covers both sections
    if (area_bytes > 0) {
        put_area_flags(o + dir_end + section, &tc->params);
        section += area_bytes; // and the area section
    }
    size_t at = dir_end + section;
    for (uint32_t i = 0; i < tc->entry_count; ++i, dir += DIR_BYTES) {
        const wf_tilecache_entry* e = &tc->entries[i];
        wf_bytes_put_u32(o + dir, (uint32_t)e->info.tile_x);
        wf_bytes_put_u32(o + dir + 4, (uint32_t)e->info.tile_z);
        wf_bytes_put_u32(o + dir + 8, (uint32_t)e->info.layer);
        wf_bytes_put_u32(o + dir + 12, e->info.raw_bytes);
        wf_bytes_put_u32(o + dir + 16, e->info.compressed_bytes);
        wf_bytes_put_u32(o + dir + 20,
                         wf_fnv1a32(WF_FNV32_OFFSET, e->data, e->info.compressed_bytes));
        memcpy(o + at, e->data, e->info.compressed_bytes);
        at += pad(e->info.compressed_bytes);
    }
    wf_bytes_put_u32(o + CHECKSUM_AT, header_checksum(o, dir_end + section));
    return WF_OK;
}

/* ---------------------------------------------------------------------------
 * Loading
 */

/// Header fields and directory: sizes, counts, order, padding, checksum.
static wf_status check_layout(const unsigned char* in, size_t size, wf_tilecache_params* params,
                              const wf_logger* logger) {
    if (size < HEADER_BYTES || wf_bytes_get_u32(in) != FILE_MAGIC) {
        return WF_ERR_BAD_DATA;
    }
    // Version 1 is this layout without obstacles (its words 136..143 are
    // zero), version 2 without links (its word 36 is zero).
    uint32_t version = wf_bytes_get_u32(in + 4);
    if (version != FILE_VERSION_AREAS && version != FILE_VERSION && version != 2u &&
        version != 1u) {
        return WF_ERR_VERSION;
    }
    uint32_t count = wf_bytes_get_u32(in + 24);
    uint32_t obstacles = wf_bytes_get_u32(in + OBSTACLE_COUNT_AT);
    size_t section = wf_bytes_get_u32(in + OBSTACLE_SECTION_AT);
    size_t links = wf_bytes_get_u32(in + LINK_SECTION_AT);
    if (wf_bytes_get_u64(in + 16) != (uint64_t)size || (version < 3u && links != 0) ||
        count > (size - HEADER_BYTES) / DIR_BYTES) {
        return WF_ERR_BAD_DATA;
    }
    size_t dir_end = HEADER_BYTES + (size_t)count * DIR_BYTES;
    // No section: no pool, no obstacle. A section holds at least its pool
    // size word and the pool's header, and every obstacle's fixed part.
    bool no_section = section == 0 && obstacles == 0;
    if (!no_section && (version == 1u || section % DATA_ALIGN != 0 || section < 32u ||
                        section > size - dir_end || obstacles > section / OBSTACLE_BYTES)) {
        return WF_ERR_BAD_DATA;
    }
    // The link section: at least its count words and one link.
    if (links != 0 &&
        (links % DATA_ALIGN != 0 || links < 8u + LINK_BYTES || links > size - dir_end - section)) {
        return WF_ERR_BAD_DATA;
    }
    section += links;
    size_t areas = version == FILE_VERSION_AREAS ? AREA_BYTES : 0u;
    if (areas > size - dir_end - section) {
        return WF_ERR_BAD_DATA;
    }
    section += areas;
    if (wf_bytes_get_u32(in + CHECKSUM_AT) != header_checksum(in, dir_end + section)) {
        return WF_ERR_BAD_DATA;
    }
    get_params(in + PARAMS_AT, params);
    if (areas > 0) {
        get_area_flags(in + dir_end + section - areas, params);
    }
    int32_t tiles_x = (int32_t)wf_bytes_get_u32(in + 28);
    int32_t tiles_z = (int32_t)wf_bytes_get_u32(in + 32);
    // The params as create checks them: every derived size finite (a
    // 144-byte file with 1e37 m cells once made an infinite tile width).
    const char* problem = wf_tilecache_params_problem(params);
    if (problem != NULL) {
        wf_log(logger, WF_LOG_ERROR, "tilecache: the cache file's params: %s", problem);
        return WF_ERR_BAD_DATA;
    }
    if (tiles_x < 0 || tiles_z < 0 ||
        (int64_t)tiles_x * tiles_z > (int64_t)WF_TILECACHE_MAX_TILES) {
        return WF_ERR_BAD_DATA;
    }
    // Tiles are found by position in floats: an origin so far away (in
    // tile widths) that a tile's corners round into its neighbours cannot
    // be a real level (found by fuzzing). The tile width is below 1e30, so
    // 65536 of them are finite.
    float tile_width = (float)params->tile_size * params->cell_size;
    for (int i = 0; i < 3; ++i) {
        float lo = wf_bytes_get_f32(in + BOUNDS_AT + 4 * i);
        float hi = wf_bytes_get_f32(in + BOUNDS_AT + 12 + 4 * i);
        if (!(fabsf(lo) <= WF_TILECACHE_MAX_COORD) || !(fabsf(hi) <= WF_TILECACHE_MAX_COORD) ||
            lo > hi ||
            (i != 1 && !(fabsf(lo) < tile_width * 65536.0f && fabsf(hi) < tile_width * 65536.0f))) {
            return WF_ERR_BAD_DATA;
        }
    }
    // Directory: in tile order (z, x, layer) without repeats, each layer
    // exactly one tile's size, data laid out back to back to the end.
    size_t raw_size = wf_layer_serialized_size(params->tile_size, params->tile_size);
    size_t at = dir_end + section;
    int64_t previous = -1;
    for (uint32_t i = 0; i < count; ++i) {
        const unsigned char* d = in + HEADER_BYTES + (size_t)i * DIR_BYTES;
        int32_t tx = (int32_t)wf_bytes_get_u32(d), tz = (int32_t)wf_bytes_get_u32(d + 4);
        int32_t layer = (int32_t)wf_bytes_get_u32(d + 8);
        uint32_t raw = wf_bytes_get_u32(d + 12), packed = wf_bytes_get_u32(d + 16);
        if (tx < 0 || tx >= tiles_x || tz < 0 || tz >= tiles_z || layer < 0 ||
            layer >= (int32_t)WF_LAYER_MAX_SIZE) {
            return WF_ERR_BAD_DATA;
        }
        int64_t key = ((int64_t)tz * tiles_x + tx) * (int64_t)WF_LAYER_MAX_SIZE + layer;
        if (key <= previous || raw != raw_size || packed == 0 || packed > size - at ||
            pad(packed) > size - at || !all_zero(in + at + packed, pad(packed) - packed)) {
            return WF_ERR_BAD_DATA;
        }
        previous = key;
        at += pad(packed);
    }
    return at == size ? WF_OK : WF_ERR_BAD_DATA;
}

/// One layer: checksum, decompression to its exact size, a valid layer of
/// the directory's tile; then keeps a copy of the compressed bytes.
static wf_status load_layer(wf_tilecache* tc, const unsigned char* dir, const unsigned char* bytes,
                            wf_tilecache_entry* out) {
    uint32_t raw_size = wf_bytes_get_u32(dir + 12), size = wf_bytes_get_u32(dir + 16);
    if (wf_fnv1a32(WF_FNV32_OFFSET, bytes, size) != wf_bytes_get_u32(dir + 20) ||
        size > tc->codec.max_compressed_size(raw_size, tc->codec.user)) {
        return WF_ERR_BAD_DATA;
    }
    wf_arena* arena = &tc->workers[0].scratch;
    wf_arena_reset(arena);
    unsigned char* raw = wf_arena_alloc(arena, raw_size, 16);
    // The scratch holds a layer of the params' tile size (tile_scratch_bytes).
    WF_ASSERT(raw != NULL);
    if (raw == NULL) {
        return WF_ERR_CAPACITY;
    }
    if (tc->codec.decompress(bytes, size, raw, raw_size, tc->codec.user) != WF_OK) {
        return WF_ERR_BAD_DATA;
    }
    wf_layer layer;
    wf_status s =
        wf_layer_deserialize(raw, raw_size, tc->params.cell_size, tc->params.cell_height, &layer);
    if (s != WF_OK) {
        return s == WF_ERR_VERSION ? s : WF_ERR_BAD_DATA;
    }
    if (layer.tile_x != (int32_t)wf_bytes_get_u32(dir) ||
        layer.tile_z != (int32_t)wf_bytes_get_u32(dir + 4) ||
        layer.layer != (int32_t)wf_bytes_get_u32(dir + 8) || layer.width != tc->params.tile_size ||
        layer.depth != tc->params.tile_size) {
        return WF_ERR_BAD_DATA;
    }
    out->data = wf_alloc(&tc->allocator, size, 1);
    if (out->data == NULL) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    memcpy(out->data, bytes, size);
    unsigned char* data = out->data;
    wf_tilecache_entry_from(&layer, raw_size, size, out);
    out->data = data;
    return WF_OK;
}

wf_status wf_tilecache_load(const wf_tilecache_desc* desc, const void* data, size_t size,
                            wf_tilecache** out) {
    WF_CHECK_ARG(desc != NULL && out != NULL && (data != NULL || size == 0));
    const unsigned char* in = data;
    wf_tilecache_params params;
    wf_status s = check_layout(in, size, &params, &desc->logger);
    if (s != WF_OK) {
        wf_log(&desc->logger, WF_LOG_ERROR, "tilecache: not a valid cache file (%s)",
               wf_status_string(s));
        return s;
    }
    wf_tilecache_desc d = *desc;
    d.params = params;
    wf_tilecache* tc = NULL;
    s = wf_tilecache_create(&d, &tc);
    if (s != WF_OK) {
        return s;
    }
    if (tc->codec.id != wf_bytes_get_u32(in + 12)) {
        wf_log(&desc->logger, WF_LOG_ERROR, "tilecache: the file's codec %u is not the desc's %u",
               wf_bytes_get_u32(in + 12), tc->codec.id);
        wf_tilecache_destroy(tc);
        return WF_ERR_BAD_DATA;
    }
    uint64_t tiles = (uint64_t)wf_bytes_get_u32(in + 28) * wf_bytes_get_u32(in + 32);
    if (tiles > tc->max_tiles) {
        wf_log(&desc->logger, WF_LOG_ERROR,
               "tilecache: the cache file's grid has %llu tiles, more than max_tiles %u",
               (unsigned long long)tiles, tc->max_tiles);
        wf_tilecache_destroy(tc);
        return WF_ERR_CAPACITY;
    }
    uint32_t count = wf_bytes_get_u32(in + 24);
    if (count > 0) {
        // Zeroed, so a partly loaded array frees cleanly.
        tc->entries = WF_ALLOC_ARRAY(&tc->allocator, wf_tilecache_entry, count);
        if (tc->entries == NULL) {
            wf_tilecache_destroy(tc);
            return WF_ERR_OUT_OF_MEMORY;
        }
        tc->entry_count = count;
    }
    size_t obstacles_at = HEADER_BYTES + (size_t)count * DIR_BYTES;
    size_t section = wf_bytes_get_u32(in + OBSTACLE_SECTION_AT);
    size_t link_bytes = wf_bytes_get_u32(in + LINK_SECTION_AT);
    size_t area_bytes = wf_bytes_get_u32(in + 4) == FILE_VERSION_AREAS ? AREA_BYTES : 0u;
    size_t at = obstacles_at + section + link_bytes + area_bytes;
    for (uint32_t i = 0; i < count && s == WF_OK; ++i) {
        const unsigned char* dir = in + HEADER_BYTES + (size_t)i * DIR_BYTES;
        s = load_layer(tc, dir, in + at, &tc->entries[i]);
        at += pad(wf_bytes_get_u32(dir + 16));
    }
    if (s != WF_OK) {
        if (s == WF_ERR_BAD_DATA || s == WF_ERR_VERSION) {
            wf_log(&desc->logger, WF_LOG_ERROR, "tilecache: a damaged layer in the cache file");
        }
        wf_tilecache_destroy(tc);
        return s;
    }
    tc->tiles_x = (int32_t)wf_bytes_get_u32(in + 28);
    tc->tiles_z = (int32_t)wf_bytes_get_u32(in + 32);
    tc->origin = wf_v3(wf_bytes_get_f32(in + BOUNDS_AT), wf_bytes_get_f32(in + BOUNDS_AT + 4),
                       wf_bytes_get_f32(in + BOUNDS_AT + 8));
    tc->world_max =
        wf_v3(wf_bytes_get_f32(in + BOUNDS_AT + 12), wf_bytes_get_f32(in + BOUNDS_AT + 16),
              wf_bytes_get_f32(in + BOUNDS_AT + 20));
    // After the layers and the tile grid: an obstacle must touch a tile.
    s = load_obstacles(tc, in + obstacles_at, section, wf_bytes_get_u32(in + OBSTACLE_COUNT_AT));
    if (s != WF_OK) {
        wf_log(&desc->logger, WF_LOG_ERROR, "tilecache: the cache file's obstacles: %s",
               wf_status_string(s));
        wf_tilecache_destroy(tc);
        return s;
    }
    // After the layers: each link lands on them again.
    s = load_links(tc, in + obstacles_at + section, link_bytes);
    if (s != WF_OK) {
        wf_log(&desc->logger, WF_LOG_ERROR, "tilecache: the cache file's links: %s",
               wf_status_string(s));
        wf_tilecache_destroy(tc);
        return s;
    }
    *out = tc;
    return WF_OK;
}
