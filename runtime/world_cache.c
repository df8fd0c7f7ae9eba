// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The multi-class cache file: a class table (name, agent sizes, where its
// bytes lie) in front of one tile cache file per class.
#include <string.h>

#include "navcore/bytes.h"
#include "navcore/check.h"
#include "navcore/hash.h"
#include "runtime/world_internal.h"

/*
 *   0 magic "WFMC"   4 version (1)   8 class count (1..8)   12 reserved (0)
 *  16 per class, 64 bytes: name (32, NUL-padded), agent radius, height,
 *     climb (f32), reserved (u32, 0), offset and size of its tile cache
 *     file (u64, from the file's start)
 *  16 + 64 n: checksum (FNV-1a 64 of the bytes before it), then the class
 *     files in class order, back to back, to the end of the file.
 */

#define CACHE_MAGIC 0x434d4657u     // "WFMC"
#define TILECACHE_MAGIC 0x43544657u // "WFTC", a single-class file
#define CACHE_VERSION 1u
#define CACHE_FIXED 16u
#define CACHE_ROW 64u

static size_t table_size(uint32_t classes) { return CACHE_FIXED + CACHE_ROW * classes + 8u; }

wf_status wf_world_cache_get_classes(const void* data, size_t size, wf_world_cache_class* out,
                                     uint32_t max, uint32_t* out_count) {
    WF_CHECK_ARG(data != NULL && out_count != NULL && (out != NULL || max == 0));
    *out_count = 0;
    const unsigned char* p = data;
    if (size < CACHE_FIXED) {
        return WF_ERR_BAD_DATA;
    }
    if (wf_bytes_get_u32(p) == TILECACHE_MAGIC) {
        return WF_OK; // a plain tile cache file: wf_tilecache_load checks it
    }
    if (wf_bytes_get_u32(p) != CACHE_MAGIC) {
        return WF_ERR_BAD_DATA;
    }
    if (wf_bytes_get_u32(p + 4) != CACHE_VERSION) {
        return WF_ERR_VERSION;
    }
    uint32_t n = wf_bytes_get_u32(p + 8);
    if (n == 0 || n > WF_WORLD_MAX_CLASSES || size < table_size(n)) {
        return WF_ERR_BAD_DATA;
    }
    size_t head = table_size(n);
    if (wf_fnv1a64(WF_FNV64_OFFSET, p, head - 8u) != wf_bytes_get_u64(p + head - 8u)) {
        return WF_ERR_BAD_DATA;
    }
    uint64_t expect = head;
    for (uint32_t c = 0; c < n; ++c) {
        const unsigned char* row = p + CACHE_FIXED + CACHE_ROW * c;
        uint64_t offset = wf_bytes_get_u64(row + 48), bytes = wf_bytes_get_u64(row + 56);
        // Back to back and in bounds; each name NUL-terminated, not empty.
        if (offset != expect || bytes == 0 || bytes > size - offset || row[0] == '\0' ||
            memchr(row, '\0', WF_WORLD_CLASS_NAME_MAX + 1) == NULL) {
            return WF_ERR_BAD_DATA;
        }
        expect = offset + bytes;
        if (c < max) {
            wf_world_cache_class* k = &out[c];
            memset(k, 0, sizeof *k);
            memcpy(k->name, row, WF_WORLD_CLASS_NAME_MAX + 1);
            k->agent_radius = wf_bytes_get_f32(row + 32);
            k->agent_height = wf_bytes_get_f32(row + 36);
            k->agent_climb = wf_bytes_get_f32(row + 40);
            k->data = p + offset;
            k->size = (size_t)bytes;
        }
    }
    if (expect != size) {
        return WF_ERR_BAD_DATA;
    }
    *out_count = n;
    return WF_OK;
}

wf_status wf_world_cache_write_size(const wf_tilecache* const* caches, uint32_t count,
                                    size_t* out_size) {
    WF_CHECK_ARG(caches != NULL && out_size != NULL);
    WF_CHECK_ARG(count >= 1 && count <= WF_WORLD_MAX_CLASSES);
    *out_size = 0;
    size_t total = table_size(count);
    for (uint32_t c = 0; c < count; ++c) {
        WF_CHECK_ARG(caches[c] != NULL);
        size_t bytes;
        wf_status s = wf_tilecache_save_size(caches[c], &bytes);
        if (s != WF_OK) {
            return s;
        }
        total += bytes;
    }
    *out_size = total;
    return WF_OK;
}

static bool names_ok(const char* const* names, uint32_t count) {
    for (uint32_t c = 0; c < count; ++c) {
        size_t n = names[c] != NULL ? strlen(names[c]) : 0u;
        if (n == 0 || n > WF_WORLD_CLASS_NAME_MAX) {
            return false;
        }
        for (uint32_t k = 0; k < c; ++k) {
            if (strcmp(names[k], names[c]) == 0) {
                return false;
            }
        }
    }
    return true;
}

wf_status wf_world_cache_write(const wf_tilecache* const* caches, const char* const* names,
                               uint32_t count, void* out, size_t size) {
    WF_CHECK_ARG(out != NULL && names != NULL);
    size_t total;
    wf_status s = wf_world_cache_write_size(caches, count, &total);
    if (s != WF_OK) {
        return s;
    }
    WF_CHECK_ARG(names_ok(names, count));
    if (size < total) {
        return WF_ERR_CAPACITY;
    }
    unsigned char* p = out;
    size_t head = table_size(count);
    memset(p, 0, head);
    wf_bytes_put_u32(p, CACHE_MAGIC);
    wf_bytes_put_u32(p + 4, CACHE_VERSION);
    wf_bytes_put_u32(p + 8, count);
    size_t at = head;
    for (uint32_t c = 0; c < count; ++c) {
        const wf_tilecache_params* tp = wf_tilecache_get_params(caches[c]);
        size_t bytes;
        s = wf_tilecache_save_size(caches[c], &bytes);
        if (s == WF_OK) {
            s = wf_tilecache_save(caches[c], p + at, bytes);
        }
        if (s != WF_OK) {
            return s;
        }
        unsigned char* row = p + CACHE_FIXED + CACHE_ROW * c;
        memcpy(row, names[c], strlen(names[c]));
        wf_bytes_put_f32(row + 32, tp->agent_radius);
        wf_bytes_put_f32(row + 36, tp->agent_height);
        wf_bytes_put_f32(row + 40, tp->agent_climb);
        wf_bytes_put_u64(row + 48, at);
        wf_bytes_put_u64(row + 56, bytes);
        at += bytes;
    }
    wf_bytes_put_u64(p + head - 8u, wf_fnv1a64(WF_FNV64_OFFSET, p, head - 8u));
    return WF_OK;
}

/// The world's caches and names, for the two calls above.
static void world_parts(const wf_world* w, const wf_tilecache** caches, const char** names) {
    for (uint32_t c = 0; c < w->class_count; ++c) {
        caches[c] = w->classes[c].tc;
        names[c] = w->classes[c].name;
    }
}

wf_status wf_world_save_cache_size(const wf_world* w, size_t* out_size) {
    WF_CHECK_ARG(w != NULL && out_size != NULL);
    if (w->class_count == 1) {
        *out_size = 0;
        return wf_tilecache_save_size(w->classes[0].tc, out_size);
    }
    const wf_tilecache* caches[WF_WORLD_MAX_CLASSES];
    const char* names[WF_WORLD_MAX_CLASSES];
    world_parts(w, caches, names);
    return wf_world_cache_write_size(caches, w->class_count, out_size);
}

wf_status wf_world_save_cache(const wf_world* w, void* out, size_t size) {
    WF_CHECK_ARG(w != NULL && out != NULL);
    if (w->class_count == 1) {
        size_t need;
        wf_status s = wf_tilecache_save_size(w->classes[0].tc, &need);
        if (s != WF_OK) {
            return s;
        }
        return size < need ? WF_ERR_CAPACITY : wf_tilecache_save(w->classes[0].tc, out, size);
    }
    const wf_tilecache* caches[WF_WORLD_MAX_CLASSES];
    const char* names[WF_WORLD_MAX_CLASSES];
    world_parts(w, caches, names);
    return wf_world_cache_write(caches, names, w->class_count, out, size);
}
