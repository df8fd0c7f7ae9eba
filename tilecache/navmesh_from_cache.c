// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Layers -> navmesh tiles, all at once: a parallel pass that rebuilds each
// layer's tile (layer_rebuild.c) in per-worker scratch, then adds the
// tiles in layer order; and one layer's tile into a caller buffer.
#include <stdatomic.h>
#include <string.h>

#include "navcore/alloc.h"
#include "navcore/check.h"
#include "navcore/log.h"
#include "tilecache/tilecache_internal.h"

typedef struct layer_blob {
    wf_status status;
    void* data;
    size_t size; ///< blob size, or on WF_ERR_CAPACITY the size it needs
} layer_blob;

typedef struct navmesh_job {
    const wf_tilecache* tc;
    layer_blob* blobs;
    uint32_t* applied; ///< slots of the applied obstacles (NULL if none)
    uint32_t applied_count;
    /// Per worker, room for every applied obstacle's stamp.
    wf_obstacle_stamp* stamps;
    /// Blob bytes claimed so far (each blob's size is added before it is
    /// allocated); once past max_navmesh_bytes `over` is set and the layers
    /// not yet built are skipped. Whether the pass goes over does not
    /// depend on the worker count: it does when the blobs' sum is past the
    /// limit.
    atomic_ullong bytes;
    atomic_bool over;
} navmesh_job;

/// Claims `size` blob bytes; false (and `over` set) when that passes the
/// cache's max_navmesh_bytes.
static bool claim_bytes(navmesh_job* job, size_t size) {
    unsigned long long total =
        atomic_fetch_add_explicit(&job->bytes, (unsigned long long)size, memory_order_relaxed) +
        size;
    if (total > job->tc->max_navmesh_bytes) {
        atomic_store_explicit(&job->over, true, memory_order_relaxed);
        return false;
    }
    return true;
}

static bool is_over(navmesh_job* job) {
    return atomic_load_explicit(&job->over, memory_order_relaxed);
}

/// The applied obstacles touching layer `index`, gathered into the
/// worker's part of the job's stamp buffer.
static uint32_t job_stamps(const navmesh_job* job, uint32_t index, uint32_t worker,
                           const wf_obstacle_stamp** out) {
    *out = NULL;
    if (job->applied_count == 0) {
        return 0;
    }
    wf_obstacle_stamp* mine = job->stamps + (size_t)worker * job->applied_count;
    *out = mine;
    return wf_tilecache_gather_stamps(job->tc, job->applied, job->applied_count, index, mine);
}

static void navmesh_fn(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    navmesh_job* job = context;
    const wf_tilecache* tc = job->tc;
    wf_tilecache_worker* w = &tc->workers[worker];
    for (uint32_t i = begin; i < end; ++i) {
        layer_blob* b = &job->blobs[i];
        b->size = 0;
        if (is_over(job)) {
            b->status = WF_ERR_CAPACITY; // the whole pass is refused: skip the work
            continue;
        }
        const wf_obstacle_stamp* stamps;
        uint32_t stamp_count = job_stamps(job, i, worker, &stamps);
        uint32_t link_count = wf_tilecache_gather_links(tc, i, w->links);
        b->status =
            wf_tilecache_rebuild_layer(tc, i, stamps, stamp_count, w->links, link_count,
                                       &w->scratch, w->staging, tc->staging_bytes, &b->size);
        if (b->status == WF_OK && !claim_bytes(job, b->size)) {
            b->status = WF_ERR_CAPACITY;
        } else if (b->status == WF_OK) {
            b->data = wf_alloc(&tc->allocator, b->size, WF_TILECACHE_BLOB_ALIGN);
            if (b->data == NULL) {
                b->status = WF_ERR_OUT_OF_MEMORY;
            } else {
                memcpy(b->data, w->staging, b->size);
            }
        }
    }
}

/// A layer that did not fit the worker's scratch or staging: built again,
/// serially, in a full-size arena and straight into a blob of its own size.
static void build_large_blob(wf_tilecache* tc, navmesh_job* job, uint32_t index, layer_blob* b) {
    const wf_obstacle_stamp* stamps;
    uint32_t stamp_count = job_stamps(job, index, 0, &stamps);
    wf_offmesh_link_desc* links = tc->workers[0].links; // serial: worker 0's buffer is free
    uint32_t link_count = wf_tilecache_gather_links(tc, index, links);
    wf_arena big;
    size_t full = wf_tilecache_full_scratch_bytes(tc->params.tile_size);
    if (wf_arena_create(&big, &tc->allocator, full) != WF_OK) {
        b->status = WF_ERR_OUT_OF_MEMORY;
        return;
    }
    size_t need = b->size;
    if (need == 0) { // the scratch ran out before the blob size was known
        b->status = wf_tilecache_rebuild_layer(tc, index, stamps, stamp_count, links, link_count,
                                               &big, NULL, 0, &need);
        if (b->status != WF_ERR_CAPACITY || need == 0) {
            wf_arena_destroy(&big, &tc->allocator);
            return; // a real failure (or no tile), reported as such
        }
    }
    if (!claim_bytes(job, need)) {
        wf_arena_destroy(&big, &tc->allocator);
        b->status = WF_ERR_CAPACITY;
        return;
    }
    b->data = wf_alloc(&tc->allocator, need, WF_TILECACHE_BLOB_ALIGN);
    if (b->data == NULL) {
        wf_arena_destroy(&big, &tc->allocator);
        b->status = WF_ERR_OUT_OF_MEMORY;
        return;
    }
    b->status = wf_tilecache_rebuild_layer(tc, index, stamps, stamp_count, links, link_count, &big,
                                           b->data, need, &b->size);
    wf_arena_destroy(&big, &tc->allocator);
    if (b->status != WF_OK || b->size != need) {
        wf_free(&tc->allocator, b->data, need, WF_TILECACHE_BLOB_ALIGN);
        b->data = NULL;
        b->status = b->status == WF_OK ? WF_ERR_BAD_DATA : b->status;
    }
}

static void free_blobs(const wf_tilecache* tc, layer_blob* blobs, uint32_t from) {
    for (uint32_t i = from; i < tc->entry_count; ++i) {
        wf_free(&tc->allocator, blobs[i].data, blobs[i].size, WF_TILECACHE_BLOB_ALIGN);
    }
    WF_FREE_ARRAY(&tc->allocator, blobs, layer_blob, tc->entry_count);
}

/// Adds the blobs in layer order, replacing tiles at the same place.
static wf_status add_blobs(wf_tilecache* tc, wf_mesh* mesh, layer_blob* blobs) {
    wf_status result = WF_OK;
    for (uint32_t i = 0; i < tc->entry_count; ++i) {
        const wf_tilecache_layer_info* info = &tc->entries[i].info;
        wf_tile_ref old;
        if (wf_mesh_find_tile(mesh, info->tile_x, info->tile_z, info->layer, &old) == WF_OK) {
            wf_status r = wf_mesh_remove_tile(mesh, old, NULL, NULL);
            if (r != WF_OK) {
                free_blobs(tc, blobs, i);
                return r;
            }
        }
        if (blobs[i].status == WF_ERR_NOT_FOUND) {
            continue; // no walkable polygon: no tile
        }
        wf_tile_ref added;
        wf_status s = wf_mesh_add_tile(mesh, blobs[i].data, blobs[i].size, WF_TILE_MESH_OWNS_DATA,
                                       (wf_tile_ref){0}, &added);
        if (s < 0) {
            free_blobs(tc, blobs, i);
            return s;
        }
        blobs[i].data = NULL; // the mesh owns it now
        result = s == WF_PARTIAL ? WF_PARTIAL : result;
    }
    free_blobs(tc, blobs, tc->entry_count);
    return result;
}

/// The mesh's tile grid is the cache's: points just inside the near and
/// far corners of a layer's tile fall into that tile's cell.
static bool mesh_matches_at(const wf_tilecache* tc, const wf_mesh* mesh,
                            const wf_tilecache_layer_info* info) {
    float tw = (float)tc->params.tile_size * tc->params.cell_size, eps = 1e-3f * tw;
    for (int k = 0; k < 2; ++k) {
        float dx = k == 0 ? eps : tw - eps;
        int32_t x, z;
        wf_mesh_tile_at(mesh,
                        wf_v3(tc->origin.x + (float)info->tile_x * tw + dx, 0.0f,
                              tc->origin.z + (float)info->tile_z * tw + dx),
                        &x, &z);
        if (x != info->tile_x || z != info->tile_z) {
            return false;
        }
    }
    return true;
}

bool wf_tilecache_mesh_matches(const wf_tilecache* tc, const wf_mesh* mesh) {
    if (tc == NULL || mesh == NULL) {
        return false;
    }
    return tc->entry_count == 0 ||
           (mesh_matches_at(tc, mesh, &tc->entries[0].info) &&
            mesh_matches_at(tc, mesh, &tc->entries[tc->entry_count - 1].info));
}

wf_status wf_tilecache_build_navmesh(wf_tilecache* tc, wf_mesh* mesh) {
    WF_CHECK_ARG(tc != NULL && mesh != NULL);
    if (tc->entry_count == 0) {
        return WF_OK;
    }
    WF_CHECK_ARG(wf_tilecache_mesh_matches(tc, mesh));
    layer_blob* blobs = WF_ALLOC_ARRAY(&tc->allocator, layer_blob, tc->entry_count);
    if (blobs == NULL) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    // The applied obstacles are stamped as an update would, so a fresh
    // build equals what updates converge to.
    navmesh_job job = {tc, blobs, NULL, wf_tilecache_list_applied(tc, NULL), NULL, 0, false};
    atomic_init(&job.bytes, 0u);
    atomic_init(&job.over, false);
    size_t stamp_slots = (size_t)job.applied_count * tc->worker_count;
    if (job.applied_count > 0) {
        job.applied = WF_ALLOC_ARRAY(&tc->allocator, uint32_t, job.applied_count);
        job.stamps = WF_ALLOC_ARRAY(&tc->allocator, wf_obstacle_stamp, stamp_slots);
        if (job.applied == NULL || job.stamps == NULL) {
            WF_FREE_ARRAY(&tc->allocator, job.applied, uint32_t, job.applied_count);
            WF_FREE_ARRAY(&tc->allocator, job.stamps, wf_obstacle_stamp, stamp_slots);
            WF_FREE_ARRAY(&tc->allocator, blobs, layer_blob, tc->entry_count);
            return WF_ERR_OUT_OF_MEMORY;
        }
        wf_tilecache_list_applied(tc, job.applied);
    }
    wf_status s = wf_jobs_parallel_for(&tc->jobs, tc->entry_count, 1, navmesh_fn, &job);
    tc->oversize_layers = 0;
    // Over the byte limit in the parallel pass (every layer that fitted its
    // worker was counted): refused whatever else failed.
    bool over = is_over(&job);
    for (uint32_t i = 0; s == WF_OK && !over && i < tc->entry_count; ++i) {
        if (blobs[i].status == WF_ERR_CAPACITY) {
            tc->oversize_layers++;
            build_large_blob(tc, &job, i, &blobs[i]);
        }
        over = is_over(&job);
        // The first failure in layer order; an empty layer is no failure.
        if (blobs[i].status != WF_OK && blobs[i].status != WF_ERR_NOT_FOUND) {
            s = blobs[i].status;
        }
    }
    if (over) {
        // A crafted cache file of 196 layers whose areas alternate per
        // cell once made a 612 MB navmesh from 72 KB.
        wf_log(&tc->logger, WF_LOG_ERROR,
               "tilecache: the navmesh tiles need more than max_navmesh_bytes %llu "
               "(%llu claimed when building stopped, %u layers)",
               (unsigned long long)tc->max_navmesh_bytes,
               (unsigned long long)atomic_load(&job.bytes), tc->entry_count);
        s = WF_ERR_CAPACITY;
    }
    WF_FREE_ARRAY(&tc->allocator, job.applied, uint32_t, job.applied_count);
    WF_FREE_ARRAY(&tc->allocator, job.stamps, wf_obstacle_stamp, stamp_slots);
    if (s != WF_OK) {
        free_blobs(tc, blobs, 0);
        return s;
    }
    return add_blobs(tc, mesh, blobs);
}

wf_status wf_tilecache_build_tile(wf_tilecache* tc, uint32_t layer_index, void* buffer,
                                  size_t buffer_size, size_t* out_size) {
    WF_CHECK_ARG(tc != NULL && out_size != NULL && (buffer != NULL || buffer_size == 0));
    WF_CHECK_ARG(((uintptr_t)buffer & (WF_TILECACHE_BLOB_ALIGN - 1u)) == 0);
    if (layer_index >= tc->entry_count) {
        return WF_ERR_NOT_FOUND;
    }
    *out_size = 0;
    wf_offmesh_link_desc* links = tc->workers[0].links;
    uint32_t link_count = wf_tilecache_gather_links(tc, layer_index, links);
    wf_status s =
        wf_tilecache_rebuild_layer(tc, layer_index, NULL, 0, links, link_count,
                                   &tc->workers[0].scratch, buffer, buffer_size, out_size);
    if (s == WF_ERR_CAPACITY && *out_size == 0) {
        // The worker scratch was too small for this layer: use a full one.
        wf_arena big;
        if (wf_arena_create(&big, &tc->allocator,
                            wf_tilecache_full_scratch_bytes(tc->params.tile_size)) != WF_OK) {
            return WF_ERR_OUT_OF_MEMORY;
        }
        s = wf_tilecache_rebuild_layer(tc, layer_index, NULL, 0, links, link_count, &big, buffer,
                                       buffer_size, out_size);
        wf_arena_destroy(&big, &tc->allocator);
    }
    return s;
}
