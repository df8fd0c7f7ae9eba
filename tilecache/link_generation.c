// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Generated off-mesh links (Detour has none): drop-downs from walkable
// edges to lower ground and jumps across gaps, found by probing outward
// from each edge cell of each stored layer, then added as given links.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "navcore/alloc.h"
#include "navcore/check.h"
#include "navcore/log.h"
#include "tilecache/tilecache_internal.h"

#define DEFAULT_FIRST_ID 0x40000000u

typedef struct settings {
    float max_drop; ///< < 0: no drops
    float jump_distance, jump_height;
    float spacing, radius;
    float reach; ///< how far from the edge a drop's landing may be (XZ)
    wf_link_generation_desc desc;
} settings;

static bool finite_non_negative(float v) { return isfinite(v) && v >= 0.0f; }

static wf_status resolve(const wf_tilecache* tc, const wf_link_generation_desc* d, settings* out) {
    const wf_tilecache_params* p = &tc->params;
    if (!isfinite(d->max_drop) || !finite_non_negative(d->max_jump_distance) ||
        !finite_non_negative(d->max_jump_height) || !finite_non_negative(d->spacing) ||
        !finite_non_negative(d->radius) || d->drop_area >= WF_MAX_AREAS ||
        d->jump_area >= WF_MAX_AREAS) {
        wf_log(&tc->logger, WF_LOG_ERROR,
               "tilecache: link generation: distances must be finite and >= 0 (max_drop may be "
               "negative), areas below 64");
        return WF_ERR_INVALID_ARG;
    }
    out->desc = *d;
    out->max_drop = d->max_drop == 0.0f ? 2.0f * p->agent_height : d->max_drop;
    out->jump_distance = d->max_jump_distance;
    out->jump_height = d->max_jump_height > 0.0f ? d->max_jump_height : p->agent_climb;
    float two_cells = 2.0f * p->cell_size;
    out->spacing = d->spacing > 0.0f ? d->spacing : fmaxf(4.0f * p->agent_radius, two_cells);
    out->radius = d->radius > 0.0f ? d->radius : fmaxf(p->agent_radius, two_cells);
    // The ledge's walkable edge and the ground below are each eroded by the
    // agent radius (and a cell): the landing lies about two radii out.
    out->reach = 2.0f * p->agent_radius + 2.0f * two_cells;
    out->desc.drop_flags = d->drop_flags ? d->drop_flags : 1u;
    out->desc.jump_flags = d->jump_flags ? d->jump_flags : 1u;
    out->desc.first_user_id = d->first_user_id ? d->first_user_id : DEFAULT_FIRST_ID;
    return WF_OK;
}

/// Every stored layer, decompressed once (generation reads many of them
/// per edge cell).
typedef struct opened {
    wf_layer* layers;
    unsigned char* raw;
    size_t raw_bytes; ///< of all of them
} opened;

static void close_all(const wf_tilecache* tc, opened* o) {
    wf_free(&tc->allocator, o->raw, o->raw_bytes, WF_TILECACHE_BLOB_ALIGN);
    WF_FREE_ARRAY(&tc->allocator, o->layers, wf_layer, tc->entry_count);
}

static wf_status open_all(const wf_tilecache* tc, opened* o) {
    memset(o, 0, sizeof *o);
    size_t each = ((tc->entry_count > 0 ? tc->entries[0].info.raw_bytes : 0u) + 15u) & ~(size_t)15u;
    o->raw_bytes = each * tc->entry_count;
    o->layers = WF_ALLOC_ARRAY(&tc->allocator, wf_layer, tc->entry_count);
    o->raw = wf_alloc(&tc->allocator, o->raw_bytes, WF_TILECACHE_BLOB_ALIGN);
    if (o->layers == NULL || o->raw == NULL) {
        close_all(tc, o);
        return WF_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < tc->entry_count; ++i) {
        const wf_tilecache_entry* e = &tc->entries[i];
        unsigned char* raw = o->raw + each * i;
        wf_status s = tc->codec.decompress(e->data, e->info.compressed_bytes, raw,
                                           e->info.raw_bytes, tc->codec.user);
        if (s == WF_OK) {
            s = wf_layer_deserialize_trusted(raw, e->info.raw_bytes, tc->params.cell_size,
                                             tc->params.cell_height, &o->layers[i]);
        }
        if (s != WF_OK) {
            close_all(tc, o);
            return WF_ERR_BAD_DATA;
        }
    }
    return WF_OK;
}

static bool cell_walkable(const wf_layer* l, int32_t x, int32_t z) {
    size_t c = (size_t)x + (size_t)z * l->width;
    return l->heights[c] != WF_LAYER_EMPTY && l->areas[c] != WF_AREA_NULL;
}

static float cell_y(const wf_layer* l, int32_t x, int32_t z) {
    return l->bmin[1] + (float)(l->hmin + l->heights[(size_t)x + (size_t)z * l->width]) * l->ch;
}

/// What a probe point holds: the nearest-in-height landing of each kind.
typedef struct probe {
    bool level;      ///< ground within climb of the edge (no gap here)
    bool drop, jump; ///< a landing of that kind
    wf_vec3 drop_at, jump_at;
} probe;

static void look_at(const wf_tilecache* tc, const opened* o, const settings* st,
                    const wf_layer* from, wf_vec3 pos, float y0, probe* out) {
    memset(out, 0, sizeof *out);
    float tw = (float)tc->params.tile_size * tc->params.cell_size;
    int32_t tx = (int32_t)floorf((pos.x - tc->origin.x) / tw);
    int32_t tz = (int32_t)floorf((pos.z - tc->origin.z) / tw);
    if (tx < 0 || tz < 0 || tx >= tc->tiles_x || tz >= tc->tiles_z || abs(tx - from->tile_x) > 1 ||
        abs(tz - from->tile_z) > 1) {
        return; // a link ends in its start's tile or one around it
    }
    uint32_t first, end;
    wf_tilecache_row_entries(tc, tz, tx, tx, &first, &end);
    float climb = tc->params.agent_climb;
    float best_drop = INFINITY, best_jump = INFINITY;
    for (uint32_t i = first; i < end; ++i) {
        const wf_layer* l = &o->layers[i];
        int32_t x = (int32_t)floorf((pos.x - l->bmin[0]) / l->cs);
        int32_t z = (int32_t)floorf((pos.z - l->bmin[2]) / l->cs);
        if (x < 0 || z < 0 || x >= (int32_t)l->width || z >= (int32_t)l->depth ||
            !cell_walkable(l, x, z)) {
            continue;
        }
        float y = cell_y(l, x, z), dy = y - y0;
        wf_vec3 at = wf_v3(l->bmin[0] + ((float)x + 0.5f) * l->cs, y,
                           l->bmin[2] + ((float)z + 0.5f) * l->cs);
        if (fabsf(dy) <= climb) {
            out->level = true;
        }
        if (st->max_drop > 0.0f && dy < -climb && dy >= -st->max_drop && -dy < best_drop) {
            best_drop = -dy; // the highest ground below: the shortest fall
            out->drop = true;
            out->drop_at = at;
        }
        if (fabsf(dy) <= st->jump_height && fabsf(dy) < best_jump) {
            best_jump = fabsf(dy);
            out->jump = true;
            out->jump_at = at;
        }
    }
}

typedef struct found_links {
    wf_offmesh_link_desc* links;
    bool* is_drop; ///< per link: a drop-down (else a jump)
    uint32_t count, capacity;
} found_links;

static void free_found(const wf_tilecache* tc, found_links* f) {
    WF_FREE_ARRAY(&tc->allocator, f->links, wf_offmesh_link_desc, f->capacity);
    WF_FREE_ARRAY(&tc->allocator, f->is_drop, bool, f->capacity);
}

static wf_status push(const wf_tilecache* tc, found_links* f, const wf_offmesh_link_desc* d,
                      bool is_drop) {
    if (f->count == f->capacity) {
        uint32_t grown = f->capacity ? 2u * f->capacity : 256u;
        wf_offmesh_link_desc* n = WF_ALLOC_ARRAY(&tc->allocator, wf_offmesh_link_desc, grown);
        bool* k = WF_ALLOC_ARRAY(&tc->allocator, bool, grown);
        if (n == NULL || k == NULL) {
            WF_FREE_ARRAY(&tc->allocator, n, wf_offmesh_link_desc, grown);
            WF_FREE_ARRAY(&tc->allocator, k, bool, grown);
            return WF_ERR_OUT_OF_MEMORY;
        }
        if (f->count > 0) {
            memcpy(n, f->links, f->count * sizeof *n);
            memcpy(k, f->is_drop, f->count * sizeof *k);
        }
        free_found(tc, f);
        f->links = n;
        f->is_drop = k;
        f->capacity = grown;
    }
    f->is_drop[f->count] = is_drop;
    f->links[f->count++] = *d;
    return WF_OK;
}

/// A link of this kind starts within spacing of `start` in this layer
/// already (links [from, count) are this layer's).
static bool crowded(const found_links* f, uint32_t from, wf_vec3 start, bool drop, float spacing) {
    for (uint32_t i = from; i < f->count; ++i) {
        const wf_offmesh_link_desc* d = &f->links[i];
        if (f->is_drop[i] == drop && wf_v2_distance_sq(d->start, start) < spacing * spacing) {
            return true;
        }
    }
    return false;
}

/// Probes outward from each edge cell of layer `index`.
static wf_status scan_layer(const wf_tilecache* tc, const opened* o, const settings* st,
                            uint32_t index, found_links* f, wf_link_generation_result* r) {
    const wf_layer* l = &o->layers[index];
    float cs = l->cs;
    float far = fmaxf(st->reach, st->jump_distance);
    int32_t steps = (int32_t)ceilf(far / cs);
    uint32_t from = f->count;
    uint32_t room = WF_TILECACHE_MAX_LINKS_PER_LAYER;
    for (uint32_t i = 0; i < tc->link_count; ++i) {
        room -= tc->links[i].entry == index && room > 0;
    }
    for (int32_t z = 0; z < (int32_t)l->depth; ++z) {
        for (int32_t x = 0; x < (int32_t)l->width; ++x) {
            if (!cell_walkable(l, x, z)) {
                continue;
            }
            uint8_t cons = l->cons[(size_t)x + (size_t)z * l->width];
            for (int d = 0; d < WF_DIR_COUNT; ++d) {
                int32_t nx = x + wf_dir_dx[d], nz = z + wf_dir_dz[d];
                // Tile borders are not searched (the neighbour is in another
                // layer's data); a connected or portal neighbour is no edge.
                if (nx < 0 || nz < 0 || nx >= (int32_t)l->width || nz >= (int32_t)l->depth ||
                    (cons & (0x11u << d)) != 0 || cell_walkable(l, nx, nz)) {
                    continue;
                }
                float y0 = cell_y(l, x, z);
                wf_vec3 start = wf_v3(l->bmin[0] + ((float)x + 0.5f) * cs, y0,
                                      l->bmin[2] + ((float)z + 0.5f) * cs);
                wf_offmesh_link_desc link;
                memset(&link, 0, sizeof link);
                bool made = false, drop = false;
                for (int32_t k = 1; k <= steps && !made; ++k) {
                    float along = (float)k * cs;
                    wf_vec3 pos = wf_v3(start.x + (float)wf_dir_dx[d] * along, y0,
                                        start.z + (float)wf_dir_dz[d] * along);
                    probe p;
                    look_at(tc, o, st, l, pos, y0, &p);
                    if (along <= st->reach && p.level) {
                        break; // ground goes on at this height: no gap, no ledge
                    }
                    if (along <= st->reach && p.drop) {
                        link.end = p.drop_at;
                        link.area = st->desc.drop_area;
                        link.flags = st->desc.drop_flags;
                        made = drop = true;
                    } else if (st->jump_distance > 0.0f && along <= st->jump_distance && p.jump) {
                        link.end = p.jump_at;
                        link.area = st->desc.jump_area;
                        link.flags = st->desc.jump_flags;
                        made = true;
                    }
                }
                if (!made) {
                    continue;
                }
                if (crowded(f, from, start, drop, st->spacing)) {
                    continue;
                }
                if (room == 0) {
                    r->skipped++;
                    continue;
                }
                // Ends in the tile's 3 x 3 block: probes reach at most
                // one tile (the jump distance is checked against it).
                link.start = start;
                link.radius = st->radius;
                link.user_id = st->desc.first_user_id + f->count;
                wf_status s = push(tc, f, &link, drop);
                if (s != WF_OK) {
                    return s;
                }
                room--;
                r->drops += drop;
                r->jumps += !drop;
            }
        }
    }
    return WF_OK;
}

wf_status wf_tilecache_generate_links(wf_tilecache* tc, const wf_link_generation_desc* desc,
                                      wf_link_generation_result* out) {
    WF_CHECK_ARG(tc != NULL && desc != NULL);
    settings st;
    wf_status s = resolve(tc, desc, &st);
    if (s != WF_OK) {
        return s;
    }
    float tw = (float)tc->params.tile_size * tc->params.cell_size;
    if (st.jump_distance > tw) {
        wf_log(&tc->logger, WF_LOG_ERROR,
               "tilecache: link generation: max_jump_distance %g is above the tile width %g "
               "(a link ends at most one tile away)",
               (double)st.jump_distance, (double)tw);
        return WF_ERR_INVALID_ARG;
    }
    wf_link_generation_result r;
    memset(&r, 0, sizeof r);
    if (tc->entry_count == 0) {
        if (out != NULL) {
            *out = r;
        }
        return WF_OK;
    }
    opened o;
    s = open_all(tc, &o);
    if (s != WF_OK) {
        return s;
    }
    found_links f = {NULL, NULL, 0, 0};
    for (uint32_t i = 0; i < tc->entry_count && s == WF_OK; ++i) {
        s = scan_layer(tc, &o, &st, i, &f, &r);
    }
    close_all(tc, &o);
    if (s == WF_OK && (uint64_t)st.desc.first_user_id + f.count > UINT32_MAX + 1ull) {
        s = WF_ERR_INVALID_ARG; // the ids would wrap
    }
    if (s == WF_OK) {
        s = wf_tilecache_insert_links(tc, f.links, f.count);
    }
    free_found(tc, &f);
    if (s == WF_OK && out != NULL) {
        *out = r;
    }
    return s;
}
