// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Layout of the tile cache object, shared by the cache itself (tilecache.c)
// and its file format (cache_file.c), and the internal figures the
// benchmark reads.
#ifndef WF_TILECACHE_TILECACHE_INTERNAL_H
#define WF_TILECACHE_TILECACHE_INTERNAL_H

#include "navcore/arena.h"
#include "tilecache/layer.h"
#include "wayfarer/tilecache.h"

/// Most tiles one cache covers: bounds that need more are a mistake.
#define WF_TILECACHE_MAX_TILES (1u << 22)

/// One stored layer: what it holds and its compressed bytes.
typedef struct wf_tilecache_entry {
    wf_tilecache_layer_info info; ///< raw_bytes / compressed_bytes are the sizes
    unsigned char* data;          ///< compressed_bytes, from the cache's allocator
} wf_tilecache_entry;

/// Per-worker memory of the layer -> tile step, allocated at creation so
/// that step never allocates scratch.
typedef struct wf_tilecache_worker {
    wf_arena scratch;       ///< decompressed layer + tile builder scratch
    unsigned char* staging; ///< tile blob before it is copied out at its exact size
} wf_tilecache_worker;

struct wf_tilecache {
    wf_tilecache_params params; ///< as given (bounds may be all zero)
    wf_layer_codec codec;       ///< resolved (LZ4 when the desc's was zero)
    wf_job_system jobs;
    uint32_t max_layers;
    wf_allocator allocator;     ///< resolved
    wf_logger logger;
    /// World bounds of the last build (or of the params before any build):
    /// tile (0, 0) starts at origin.
    wf_vec3 origin, world_max;
    int32_t tiles_x, tiles_z;
    wf_tilecache_entry* entries; ///< in tile order (z, then x), then layer
    uint32_t entry_count;
    uint32_t worker_count;
    wf_tilecache_worker* workers;
    size_t scratch_bytes; ///< per worker
    size_t staging_bytes; ///< per worker
    double build_ms;
    uint32_t oversize_layers; ///< layers of the last navmesh pass built outside worker scratch
    size_t build_high_water; ///< largest per-tile build arena use of the last build
};

/// Finite, positive sizes and every limit the build relies on.
/// Tile blobs and their staging are 16-byte aligned (the tile format's sections).
#define WF_TILECACHE_BLOB_ALIGN 16u

bool wf_tilecache_params_valid(const wf_tilecache_params* params);
/// True when the params leave the world bounds to the input.
bool wf_tilecache_bounds_unset(const wf_tilecache_params* params);
/// Scratch per worker for layer -> tile builds (the budget for
/// 48 x 48 tiles is 64 KiB).
#define WF_TILECACHE_WORKER_SCRATCH ((size_t)64 << 10)
/// Scratch that builds any layer of this tile size, however hostile.
size_t wf_tilecache_full_scratch_bytes(uint32_t tile_size);
/// Wall clock in milliseconds, for build statistics.
double wf_tilecache_now_ms(void);

/// Info of a decompressed layer (XZ of its tile, Y of its floors).
void wf_tilecache_layer_info_from(const wf_layer* layer, uint32_t raw_bytes,
                                  uint32_t compressed_bytes, wf_tilecache_layer_info* out);

/// Frees entries[0..count) and the array itself.
void wf_tilecache_free_entries(const wf_allocator* allocator, wf_tilecache_entry* entries,
                               uint32_t count);

/// FNV-1a over bytes, continuing from h (start with 2166136261).
static inline uint32_t wf_tilecache_hash(const unsigned char* p, size_t n, uint32_t h) {
    for (size_t i = 0; i < n; ++i) {
        h = (h ^ p[i]) * 16777619u;
    }
    return h;
}

#endif
