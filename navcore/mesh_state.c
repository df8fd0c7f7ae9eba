// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Saving and restoring: per-tile run-time state (poly flags and areas) and
// the whole mesh (tile blobs with their slots and generations, so poly refs
// saved by a game stay valid after loading).
#include <string.h>

#include "navcore/alloc.h"
#include "navcore/bytes.h"
#include "navcore/check.h"
#include "navcore/hash.h"
#include "navcore/log.h"
#include "navcore/mesh_internal.h"
#include "navcore/mesh_replace.h"

#define TILE_STATE_MAGIC 0x53544657u // "WFTS"
#define TILE_STATE_VERSION 1u
#define TILE_STATE_HEADER 28u  // magic, version, x, z, layer, poly count, checksum
#define MESH_MAGIC 0x534d4657u // "WFMS"
#define MESH_VERSION 1u
#define MESH_HEADER 48u      // magic, version, size, checksum, origin, w, d, max, count, pad
#define MESH_TILE_HEADER 16u // slot, generation, blob size, state size

// Byte-wise FNV-1a 32 with the checksum field (4 bytes at skip_at) as
// zero, folded.
static uint32_t hash_bytes(const unsigned char* p, size_t n, uint32_t skip_at) {
    uint32_t h = wf_fnv1a32_zeroed(p, n, skip_at, 4u);
    return h ^ (h >> 16);
}

static wf_status resolve_tile(const wf_mesh* mesh, wf_tile_ref tile, const wf_mesh_tile** out) {
    return wf_mesh_resolve_tile(mesh, tile, out);
}

static size_t state_size(const wf_mesh_tile* t) {
    return TILE_STATE_HEADER + 3u * (size_t)t->header->poly_count;
}

wf_status wf_mesh_tile_state_size(const wf_mesh* mesh, wf_tile_ref tile, size_t* out_size) {
    WF_CHECK_ARG(mesh != NULL && out_size != NULL);
    const wf_mesh_tile* t;
    wf_status s = resolve_tile(mesh, tile, &t);
    if (s == WF_OK) {
        *out_size = state_size(t);
    }
    return s;
}

static void write_state(const wf_mesh_tile* t, unsigned char* out) {
    const wf_tile_header* h = t->header;
    wf_bytes_put_u32(out + 0, TILE_STATE_MAGIC);
    wf_bytes_put_u32(out + 4, TILE_STATE_VERSION);
    wf_bytes_put_u32(out + 8, (uint32_t)h->tile_x);
    wf_bytes_put_u32(out + 12, (uint32_t)h->tile_z);
    wf_bytes_put_u32(out + 16, (uint32_t)h->layer);
    wf_bytes_put_u32(out + 20, h->poly_count);
    unsigned char* p = out + TILE_STATE_HEADER;
    for (uint32_t i = 0; i < h->poly_count; ++i, p += 3) {
        p[0] = (unsigned char)t->poly_flags[i];
        p[1] = (unsigned char)(t->poly_flags[i] >> 8);
        p[2] = t->poly_areas[i];
    }
    wf_bytes_put_u32(out + 24, hash_bytes(out, state_size(t), 24));
}

wf_status wf_mesh_store_tile_state(const wf_mesh* mesh, wf_tile_ref tile, void* out, size_t size) {
    WF_CHECK_ARG(mesh != NULL && out != NULL);
    const wf_mesh_tile* t;
    wf_status s = resolve_tile(mesh, tile, &t);
    if (s != WF_OK) {
        return s;
    }
    if (size < state_size(t)) {
        return WF_ERR_CAPACITY;
    }
    write_state(t, out);
    return WF_OK;
}

static wf_status check_state(const wf_mesh_tile* t, const unsigned char* in, size_t size) {
    const wf_tile_header* h = t->header;
    if (size < TILE_STATE_HEADER || wf_bytes_get_u32(in) != TILE_STATE_MAGIC) {
        return WF_ERR_BAD_DATA;
    }
    if (wf_bytes_get_u32(in + 4) != TILE_STATE_VERSION) {
        return WF_ERR_VERSION;
    }
    if ((int32_t)wf_bytes_get_u32(in + 8) != h->tile_x ||
        (int32_t)wf_bytes_get_u32(in + 12) != h->tile_z ||
        (int32_t)wf_bytes_get_u32(in + 16) != h->layer ||
        wf_bytes_get_u32(in + 20) != h->poly_count || size != state_size(t) ||
        wf_bytes_get_u32(in + 24) != hash_bytes(in, size, 24)) {
        return WF_ERR_BAD_DATA;
    }
    for (uint32_t i = 0; i < h->poly_count; ++i) {
        if (in[TILE_STATE_HEADER + 3u * i + 2u] >= WF_MAX_AREAS) {
            return WF_ERR_BAD_DATA;
        }
    }
    return WF_OK;
}

static void apply_state(wf_mesh_tile* t, const unsigned char* in) {
    const unsigned char* p = in + TILE_STATE_HEADER;
    for (uint32_t i = 0; i < t->header->poly_count; ++i, p += 3) {
        t->poly_flags[i] = (uint16_t)(p[0] | (p[1] << 8));
        t->poly_areas[i] = p[2];
    }
}

wf_status wf_mesh_restore_tile_state(wf_mesh* mesh, wf_tile_ref tile, const void* data,
                                     size_t size) {
    WF_CHECK_ARG(mesh != NULL && data != NULL);
    const wf_mesh_tile* t;
    wf_status s = resolve_tile(mesh, tile, &t);
    if (s != WF_OK) {
        return s;
    }
    s = check_state(t, data, size);
    if (s == WF_OK) {
        apply_state((wf_mesh_tile*)t, data);
    }
    return s;
}

/*
 * Whole mesh, little-endian:
 *   header (MESH_HEADER bytes): magic, version, total size, checksum,
 *     origin xyz, tile width, tile depth, max tiles, tile count, 0
 *   per tile: slot, generation, blob size, state size, blob, state
 *   (blobs padded to 16 bytes so they can be used in place when aligned)
 */
static size_t pad16(size_t n) { return (n + 15u) & ~(size_t)15u; }

wf_status wf_mesh_save_size(const wf_mesh* mesh, size_t* out_size) {
    WF_CHECK_ARG(mesh != NULL && out_size != NULL);
    size_t n = MESH_HEADER;
    for (uint32_t i = 0; i < mesh->max_tiles; ++i) {
        const wf_mesh_tile* t = &mesh->tiles[i];
        if (t->in_use) {
            n += MESH_TILE_HEADER + pad16(t->size) + pad16(state_size(t));
        }
    }
    *out_size = n;
    return WF_OK;
}

wf_status wf_mesh_save(const wf_mesh* mesh, void* out, size_t size) {
    WF_CHECK_ARG(mesh != NULL && out != NULL);
    size_t need;
    wf_status s = wf_mesh_save_size(mesh, &need);
    if (s != WF_OK) {
        return s;
    }
    if (size < need) {
        return WF_ERR_CAPACITY;
    }
    unsigned char* o = out;
    memset(o, 0, need);
    wf_bytes_put_u32(o + 0, MESH_MAGIC);
    wf_bytes_put_u32(o + 4, MESH_VERSION);
    wf_bytes_put_u32(o + 8, (uint32_t)need);
    wf_bytes_put_f32(o + 16, mesh->origin.x);
    wf_bytes_put_f32(o + 20, mesh->origin.y);
    wf_bytes_put_f32(o + 24, mesh->origin.z);
    wf_bytes_put_f32(o + 28, mesh->tile_width);
    wf_bytes_put_f32(o + 32, mesh->tile_depth);
    wf_bytes_put_u32(o + 36, mesh->max_tiles);
    wf_bytes_put_u32(o + 40, mesh->tile_count);
    size_t at = MESH_HEADER;
    for (uint32_t i = 0; i < mesh->max_tiles; ++i) {
        const wf_mesh_tile* t = &mesh->tiles[i];
        if (!t->in_use) {
            continue;
        }
        wf_bytes_put_u32(o + at, i);
        wf_bytes_put_u32(o + at + 4, t->generation);
        wf_bytes_put_u32(o + at + 8, (uint32_t)t->size);
        wf_bytes_put_u32(o + at + 12, (uint32_t)state_size(t));
        at += MESH_TILE_HEADER;
        memcpy(o + at, t->data, t->size);
        // The run-time section holds pointers-free but mesh-specific links:
        // zero it so saves are reproducible and independent of load order.
        memset(o + at + t->header->runtime_offset, 0, t->size - t->header->runtime_offset);
        at += pad16(t->size);
        write_state(t, o + at);
        at += pad16(state_size(t));
    }
    wf_bytes_put_u32(o + 12, hash_bytes(o, need, 12));
    return WF_OK;
}

void wf_mesh_swap_contents(wf_mesh* a, wf_mesh* b) {
    wf_mesh t = *a;
    *a = *b;
    *b = t;
    uint32_t next = (a->change_count > b->change_count ? a->change_count : b->change_count) + 1u;
    a->change_count = next;
    b->change_count = next;
}

wf_status wf_mesh_load(const wf_mesh_desc* desc, const void* data, size_t size, wf_mesh** out) {
    WF_CHECK_ARG(desc != NULL && out != NULL && (data != NULL || size == 0));
    const unsigned char* in = data;
    if (size < MESH_HEADER || wf_bytes_get_u32(in) != MESH_MAGIC) {
        return WF_ERR_BAD_DATA;
    }
    if (wf_bytes_get_u32(in + 4) != MESH_VERSION) {
        return WF_ERR_VERSION;
    }
    if (wf_bytes_get_u32(in + 8) != size || wf_bytes_get_u32(in + 12) != hash_bytes(in, size, 12)) {
        return WF_ERR_BAD_DATA;
    }
    wf_mesh_desc d = *desc;
    d.origin =
        wf_v3(wf_bytes_get_f32(in + 16), wf_bytes_get_f32(in + 20), wf_bytes_get_f32(in + 24));
    d.tile_width = wf_bytes_get_f32(in + 28);
    d.tile_depth = wf_bytes_get_f32(in + 32);
    d.max_tiles = wf_bytes_get_u32(in + 36);
    uint32_t tile_count = wf_bytes_get_u32(in + 40);
    if (!wf_v3_is_finite(d.origin) || !(d.tile_width > 0.0f) || !(d.tile_depth > 0.0f) ||
        !(d.tile_width < WF_MAX_TILE_WIDTH) || !(d.tile_depth < WF_MAX_TILE_WIDTH) ||
        d.max_tiles == 0 || d.max_tiles > WF_MAX_TILES || tile_count > d.max_tiles) {
        return WF_ERR_BAD_DATA;
    }
    // The slot array is allocated (and filled) for the saved capacity: a
    // caller that loads untrusted saves bounds it (48 bytes could ask for
    // 2^28 slots, tens of GB).
    if (desc->max_tiles != 0 && d.max_tiles > desc->max_tiles) {
        return WF_ERR_CAPACITY;
    }
    wf_mesh* mesh = NULL;
    wf_status s = wf_mesh_create(&d, &mesh);
    if (s != WF_OK) {
        return s;
    }
    size_t at = MESH_HEADER;
    for (uint32_t i = 0; i < tile_count && s == WF_OK; ++i) {
        if (size - at < MESH_TILE_HEADER) {
            s = WF_ERR_BAD_DATA;
            break;
        }
        uint32_t slot = wf_bytes_get_u32(in + at);
        uint32_t generation = wf_bytes_get_u32(in + at + 4);
        size_t blob_size = wf_bytes_get_u32(in + at + 8);
        size_t st_size = wf_bytes_get_u32(in + at + 12);
        at += MESH_TILE_HEADER;
        if (slot >= d.max_tiles || generation == 0 ||
            generation >= (1u << WF_POLY_REF_GENERATION_BITS) || blob_size > size - at ||
            pad16(blob_size) > size - at || st_size > size - at - pad16(blob_size) ||
            pad16(st_size) > size - at - pad16(blob_size)) {
            s = WF_ERR_BAD_DATA;
            break;
        }
        void* blob = wf_alloc(&mesh->allocator, blob_size, WF_TILE_SECTION_ALIGN);
        if (blob == NULL) {
            s = WF_ERR_OUT_OF_MEMORY;
            break;
        }
        memcpy(blob, in + at, blob_size);
        at += pad16(blob_size);
        wf_tile_ref tile;
        s = wf_mesh_add_tile(mesh, blob, blob_size, WF_TILE_MESH_OWNS_DATA,
                             (wf_tile_ref){wf_poly_ref_make(generation, slot, 0).bits}, &tile);
        if (s == WF_PARTIAL) {
            s = WF_OK; // same links as when saved; warned about in the log
        }
        if (s != WF_OK) {
            wf_free(&mesh->allocator, blob, blob_size, WF_TILE_SECTION_ALIGN);
            if (s == WF_ERR_INVALID_ARG || s == WF_ERR_BUSY || s == WF_ERR_CAPACITY) {
                s = WF_ERR_BAD_DATA; // a damaged save, not a caller mistake
            }
            break;
        }
        s = wf_mesh_restore_tile_state(mesh, tile, in + at, st_size);
        at += pad16(st_size);
    }
    if (s == WF_OK && at != size) {
        s = WF_ERR_BAD_DATA;
    }
    if (s != WF_OK) {
        wf_log(&mesh->logger, WF_LOG_WARN, "mesh load: %s", wf_status_string(s));
        wf_mesh_destroy(mesh);
        return s;
    }
    *out = mesh;
    return WF_OK;
}
