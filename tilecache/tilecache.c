// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The tile cache object: parameters, creation with its per-worker scratch
// and the run-time state of obstacles and updates, and what it reports
// (stats, layer info, the matching mesh desc).
#include <math.h>
#include <string.h>

#include "navcore/alloc.h"
#include "navcore/check.h"
#include "navcore/log.h"
#include "tilecache/layer_to_tile.h"
#include "tilecache/tilecache_internal.h"
#include "tilecache/tilecache_replace.h"

/// Erosion radius limit (cells): distances are kept in a byte.
#define MAX_RADIUS_CELLS 64.0f
/// Tile blob staging per worker: a guess per layer cell (the Recast demo
/// levels' blobs stay under 1.5 bytes per cell); a larger blob is built
/// again after the parallel loop at its reported size.
#define STAGING_BYTES_PER_CELL 4u
#define STAGING_MIN_BYTES ((size_t)8 << 10)

wf_tilecache_params wf_tilecache_params_recast_demo(void) {
    wf_tilecache_params p;
    memset(&p, 0, sizeof p);
    p.cell_size = 0.3f;
    p.cell_height = 0.2f;
    p.agent_height = 2.0f;
    p.agent_radius = 0.6f;
    p.agent_climb = 0.9f;
    p.agent_max_slope = 45.0f;
    p.tile_size = 48;
    // The demo's region sizes 8 and 20 are sides: areas of 64 and 400 cells.
    p.min_region_area = 64;
    p.merge_region_area = 400;
    p.max_edge_length = 12.0f;
    p.max_simplification_error = 1.3f;
    p.max_verts_per_poly = 6;
    return p;
}

bool wf_tilecache_bounds_unset(const wf_tilecache_params* p) {
    return p->bmin.x == 0.0f && p->bmin.y == 0.0f && p->bmin.z == 0.0f && p->bmax.x == 0.0f &&
           p->bmax.y == 0.0f && p->bmax.z == 0.0f;
}

/// Tiles the bounds need, in doubles (no overflow for any finite bounds).
static double bounds_tiles(const wf_tilecache_params* p) {
    double width = (double)p->tile_size * p->cell_size;
    double tx = ceil(((double)p->bmax.x - p->bmin.x) / width);
    double tz = ceil(((double)p->bmax.z - p->bmin.z) / width);
    return (tx < 1.0 ? 1.0 : tx) * (tz < 1.0 ? 1.0 : tz);
}

static bool within_coord_limit(wf_vec3 v) {
    return fabsf(v.x) <= WF_TILECACHE_MAX_COORD && fabsf(v.y) <= WF_TILECACHE_MAX_COORD &&
           fabsf(v.z) <= WF_TILECACHE_MAX_COORD;
}

const char* wf_tilecache_params_problem(const wf_tilecache_params* p) {
    if (!(isfinite(p->cell_size) && p->cell_size > 0.0f)) {
        return "cell_size must be finite and above 0";
    }
    if (!(isfinite(p->cell_height) && p->cell_height > 0.0f)) {
        return "cell_height must be finite and above 0";
    }
    if (!(isfinite(p->agent_height) && p->agent_height >= 0.0f) ||
        !(isfinite(p->agent_radius) && p->agent_radius >= 0.0f) ||
        !(isfinite(p->agent_climb) && p->agent_climb >= 0.0f)) {
        return "agent_height, agent_radius and agent_climb must be finite and at least 0";
    }
    if (!(p->agent_max_slope >= 0.0f && p->agent_max_slope <= 90.0f)) {
        return "agent_max_slope must be 0..90 degrees";
    }
    if (p->tile_size < 1 || p->tile_size > WF_LAYER_MAX_SIZE) {
        return "tile_size must be 1..255 cells";
    }
    // Every length the build derives stays finite: a tile corner is the
    // origin plus a tile index (below 2^22) times the tile width, and span
    // tops are up to 65535 cell heights (found: cells of 1e37 m made
    // tiles of 4.8e38 m, past FLT_MAX).
    if (!((float)p->tile_size * p->cell_size < WF_MAX_TILE_WIDTH)) {
        return "cell_size: the tile width (tile_size x cell_size) must be below 1e30 m";
    }
    if (!(p->cell_height <= WF_TILECACHE_MAX_COORD)) {
        return "cell_height must be at most 1e30 m";
    }
    // In cells: the compact heightfield keeps free heights in a byte.
    if (ceilf(p->agent_height / p->cell_height) > 255.0f) {
        return "agent_height must be at most 255 cell heights";
    }
    if (floorf(p->agent_climb / p->cell_height) > 255.0f) {
        return "agent_climb must be at most 255 cell heights";
    }
    if (ceilf(p->agent_radius / p->cell_size) > MAX_RADIUS_CELLS) {
        return "agent_radius must be at most 64 cells";
    }
    if (p->max_verts_per_poly < 3 || p->max_verts_per_poly > WF_MAX_VERTS_PER_POLY) {
        return "max_verts_per_poly must be 3..WF_MAX_VERTS_PER_POLY";
    }
    // The build measures edges in cells: a tiny cell must not make that
    // infinite (found by fuzzing cache files).
    if (!(isfinite(p->max_edge_length) && p->max_edge_length >= 0.0f &&
          isfinite(p->max_edge_length / p->cell_size))) {
        return "max_edge_length must be at least 0 and finite in cells";
    }
    if (!(isfinite(p->max_simplification_error) && p->max_simplification_error >= 0.0f)) {
        return "max_simplification_error must be finite and at least 0";
    }
    if (wf_tilecache_bounds_unset(p)) {
        return NULL;
    }
    if (!(wf_v3_is_finite(p->bmin) && wf_v3_is_finite(p->bmax) && p->bmin.x < p->bmax.x &&
          p->bmin.z < p->bmax.z && p->bmin.y <= p->bmax.y)) {
        return "bmin/bmax must be finite, bmin below bmax in x and z and not above it in y";
    }
    if (!within_coord_limit(p->bmin) || !within_coord_limit(p->bmax)) {
        return "bmin/bmax must lie within +-1e30 m";
    }
    if (!(bounds_tiles(p) <= (double)WF_TILECACHE_MAX_TILES)) {
        return "bmin/bmax need more than 4194304 tiles of tile_size x cell_size";
    }
    return NULL;
}

bool wf_tilecache_params_valid(const wf_tilecache_params* p) {
    return wf_tilecache_params_problem(p) == NULL;
}

bool wf_tilecache_bounds_within_limits(wf_vec3 bmin, wf_vec3 bmax) {
    return wf_v3_is_finite(bmin) && wf_v3_is_finite(bmax) && within_coord_limit(bmin) &&
           within_coord_limit(bmax);
}

/* ---------------------------------------------------------------------------
 * Creation
 */

static bool resolve_codec(const wf_layer_codec* in, wf_layer_codec* out) {
    if (in->max_compressed_size == NULL && in->compress == NULL && in->decompress == NULL) {
        *out = wf_layer_codec_lz4();
        return true;
    }
    *out = *in;
    return in->max_compressed_size != NULL && in->compress != NULL && in->decompress != NULL;
}

static size_t align_up(size_t n, size_t a) { return (n + a - 1u) & ~(a - 1u); }

size_t wf_tilecache_full_scratch_bytes(uint32_t tile_size) {
    return align_up(wf_layer_serialized_size(tile_size, tile_size), WF_TILECACHE_BLOB_ALIGN) +
           wf_layer_tile_scratch_size(tile_size, tile_size) + 2u * WF_TILECACHE_BLOB_ALIGN;
}

/// Per-worker scratch: the full bound is for adversarial layers (a
/// checkerboard of heights gives thousands of polygons); real 48 x 48 layers
/// use under 20 KiB. Workers get the WF_TILECACHE_WORKER_SCRATCH budget of a
/// 48 x 48 tile scaled by the tile's cells (never below it, never above
/// the full bound), so the decompressed layer always fits with room to
/// build real layers of any tile size; a layer that needs more is built
/// after the parallel pass in a full-size arena made for it (and counted in
/// the stats). Loading a cache file decompresses into this scratch too.
static size_t tile_scratch_bytes(uint32_t tile_size) {
    size_t full = wf_tilecache_full_scratch_bytes(tile_size);
    size_t cells = (size_t)tile_size * tile_size;
    size_t scaled = cells * WF_TILECACHE_WORKER_SCRATCH / WF_TILECACHE_WORKER_SCRATCH_CELLS;
    size_t budget = scaled > WF_TILECACHE_WORKER_SCRATCH ? scaled : WF_TILECACHE_WORKER_SCRATCH;
    return full < budget ? full : budget;
}

static size_t staging_bytes(uint32_t tile_size) {
    size_t n = (size_t)tile_size * tile_size * STAGING_BYTES_PER_CELL;
    return align_up(n > STAGING_MIN_BYTES ? n : STAGING_MIN_BYTES, WF_TILECACHE_BLOB_ALIGN);
}

void wf_tilecache_free_entries(const wf_allocator* a, wf_tilecache_entry* entries, uint32_t count) {
    if (entries == NULL) {
        return;
    }
    for (uint32_t i = 0; i < count; ++i) {
        wf_free(a, entries[i].data, entries[i].info.compressed_bytes, 1);
    }
    WF_FREE_ARRAY(a, entries, wf_tilecache_entry, count);
}

/// A layer's links, copied for its build (per worker and per build slot).
#define LINK_BUFFER_BYTES ((size_t)WF_TILECACHE_MAX_LINKS_PER_LAYER * sizeof(wf_offmesh_link_desc))

/// Obstacles, requests and build slots: everything updates need, made at
/// creation so that updates never allocate for them.
#define DEFAULT_MAX_OBSTACLES 1024u
#define DEFAULT_MAX_REQUESTS 256u
/// Builds in flight per worker: two keep a worker busy while the caller
/// commits the other's result.
#define BUILDS_PER_WORKER 2u

static void destroy_runtime(wf_tilecache* tc) {
    const wf_allocator* a = &tc->allocator;
    // Builds in flight read the entries and write their slots: wait first.
    wf_tilecache_release_layer_states(tc);
    if (tc->slots != NULL) {
        for (uint32_t i = 0; i < tc->slot_count; ++i) {
            wf_build_slot* slot = &tc->slots[i];
            wf_arena_destroy(&slot->scratch, a);
            wf_free(a, slot->blob, slot->blob_capacity, WF_TILECACHE_BLOB_ALIGN);
            WF_FREE_ARRAY(a, slot->stamps, wf_obstacle_stamp, tc->max_obstacles);
            WF_FREE_ARRAY(a, slot->links, wf_offmesh_link_desc, WF_TILECACHE_MAX_LINKS_PER_LAYER);
        }
        WF_FREE_ARRAY(a, tc->slots, wf_build_slot, tc->slot_count);
    }
    WF_FREE_ARRAY(a, tc->applied_slots, uint32_t, tc->max_obstacles);
    WF_FREE_ARRAY(a, tc->requests, wf_obstacle_request, tc->max_requests);
    WF_FREE_ARRAY(a, tc->obstacles, wf_obstacle_record, tc->max_obstacles);
    wf_id_pool_destroy(&tc->obstacle_ids);
    wf_tilecache_free_links(tc);
}

static wf_status create_runtime(wf_tilecache* tc, const wf_tilecache_desc* desc) {
    const wf_allocator* a = &tc->allocator;
    tc->max_obstacles = desc->max_obstacles;
    tc->max_requests = desc->max_pending_requests;
    uint32_t slots = desc->max_builds_in_flight;
    if (wf_id_pool_create(&tc->obstacle_ids, a, tc->max_obstacles, WF_ID_KIND_OBSTACLE) != WF_OK) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    tc->obstacles = WF_ALLOC_ARRAY(a, wf_obstacle_record, tc->max_obstacles);
    tc->applied_slots = WF_ALLOC_ARRAY(a, uint32_t, tc->max_obstacles);
    tc->requests = WF_ALLOC_ARRAY(a, wf_obstacle_request, tc->max_requests);
    tc->slots = WF_ALLOC_ARRAY(a, wf_build_slot, slots);
    if (tc->slots != NULL) {
        tc->slot_count = slots; // destroy frees the array at its size
    }
    if (tc->obstacles == NULL || tc->applied_slots == NULL || tc->requests == NULL ||
        tc->slots == NULL) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < slots; ++i) {
        wf_build_slot* slot = &tc->slots[i];
        slot->tc = tc;
        slot->stamps = WF_ALLOC_ARRAY(a, wf_obstacle_stamp, tc->max_obstacles);
        slot->links = WF_ALLOC_ARRAY(a, wf_offmesh_link_desc, WF_TILECACHE_MAX_LINKS_PER_LAYER);
        slot->blob = wf_alloc(a, tc->staging_bytes, WF_TILECACHE_BLOB_ALIGN);
        if (slot->blob != NULL) {
            slot->blob_capacity = tc->staging_bytes;
        }
        if (slot->stamps == NULL || slot->links == NULL || slot->blob == NULL ||
            wf_arena_create(&slot->scratch, a, tc->scratch_bytes) != WF_OK) {
            return WF_ERR_OUT_OF_MEMORY;
        }
    }
    return WF_OK;
}

static size_t runtime_bytes(const wf_tilecache* tc) {
    size_t slot = sizeof(wf_build_slot) + tc->scratch_bytes + tc->staging_bytes +
                  (size_t)tc->max_obstacles * sizeof(wf_obstacle_stamp) + LINK_BUFFER_BYTES;
    // Per obstacle: its record, the id pool's two words, the applied list.
    return (size_t)tc->max_obstacles * (sizeof(wf_obstacle_record) + 3u * sizeof(uint32_t)) +
           (size_t)tc->max_requests * sizeof(wf_obstacle_request) + tc->slot_count * slot +
           wf_tilecache_layer_state_bytes(tc) +
           (size_t)tc->link_capacity * sizeof(wf_tilecache_link);
}

void wf_tilecache_swap_contents(wf_tilecache* a, wf_tilecache* b) {
    // Builds in flight write their slots through slot->tc: none may run
    // while the contents move.
    wf_tilecache_release_layer_states(a);
    wf_tilecache_release_layer_states(b);
    wf_tilecache t = *a;
    *a = *b;
    *b = t;
    for (uint32_t i = 0; a->slots != NULL && i < a->slot_count; ++i) {
        a->slots[i].tc = a;
    }
    for (uint32_t i = 0; b->slots != NULL && i < b->slot_count; ++i) {
        b->slots[i].tc = b;
    }
}

void wf_tilecache_destroy(wf_tilecache* tc) {
    if (tc == NULL) {
        return;
    }
    wf_allocator a = tc->allocator;
    destroy_runtime(tc);
    wf_tilecache_free_entries(&a, tc->entries, tc->entry_count);
    if (tc->workers != NULL) {
        for (uint32_t i = 0; i < tc->worker_count; ++i) {
            wf_arena_destroy(&tc->workers[i].scratch, &a);
            wf_free(&a, tc->workers[i].staging, tc->staging_bytes, WF_TILECACHE_BLOB_ALIGN);
            WF_FREE_ARRAY(&a, tc->workers[i].links, wf_offmesh_link_desc,
                          WF_TILECACHE_MAX_LINKS_PER_LAYER);
        }
        WF_FREE_ARRAY(&a, tc->workers, wf_tilecache_worker, tc->worker_count);
    }
    wf_free(&a, tc, sizeof *tc, _Alignof(wf_tilecache));
}

wf_tilecache_desc wf_tilecache_desc_defaults(const wf_tilecache_desc* desc) {
    wf_tilecache_desc d;
    memset(&d, 0, sizeof d);
    if (desc != NULL) {
        d = *desc;
    }
    if (d.codec.max_compressed_size == NULL && d.codec.compress == NULL &&
        d.codec.decompress == NULL) {
        d.codec = wf_layer_codec_lz4();
    }
    if (d.max_obstacles == 0) {
        d.max_obstacles = DEFAULT_MAX_OBSTACLES;
    }
    if (d.max_pending_requests == 0) {
        d.max_pending_requests = DEFAULT_MAX_REQUESTS;
    }
    if (d.max_builds_in_flight == 0) {
        d.max_builds_in_flight = BUILDS_PER_WORKER * wf_jobs_worker_count(&d.jobs);
    }
    if (d.max_tiles == 0) {
        d.max_tiles = WF_TILECACHE_DEFAULT_MAX_TILES;
    }
    if (d.max_cells == 0) {
        d.max_cells = WF_TILECACHE_DEFAULT_MAX_CELLS;
    }
    if (d.max_triangle_refs == 0) {
        d.max_triangle_refs = WF_TILECACHE_DEFAULT_MAX_TRIANGLE_REFS;
    }
    if (d.max_navmesh_bytes == 0) {
        d.max_navmesh_bytes = WF_TILECACHE_DEFAULT_MAX_NAVMESH_BYTES;
    }
    if (d.max_links == 0) {
        d.max_links = WF_TILECACHE_DEFAULT_MAX_LINKS;
    }
    return d;
}

wf_status wf_tilecache_create(const wf_tilecache_desc* desc_in, wf_tilecache** out) {
    WF_CHECK_ARG(desc_in != NULL && out != NULL);
    const wf_tilecache_desc resolved = wf_tilecache_desc_defaults(desc_in);
    const wf_tilecache_desc* desc = &resolved;
    const wf_logger* log = &desc->logger;
    const char* problem = wf_tilecache_params_problem(&desc->params);
    if (problem != NULL) {
        wf_log(log, WF_LOG_ERROR, "tilecache: params: %s", problem);
    }
    WF_CHECK_ARG(problem == NULL);
    WF_CHECK_DESC(log, "tilecache", desc->jobs.enqueue == NULL || desc->jobs.wait != NULL,
                  "jobs: enqueue without wait");
    _Static_assert(WF_TILECACHE_MAX_OBSTACLES <= WF_ID_POOL_MAX_CAPACITY, "obstacle ids");
    WF_CHECK_DESC(log, "tilecache", desc->max_obstacles <= WF_TILECACHE_MAX_OBSTACLES,
                  "max_obstacles is above WF_TILECACHE_MAX_OBSTACLES");
    WF_CHECK_DESC(log, "tilecache", desc->max_tiles <= WF_TILECACHE_MAX_TILES,
                  "max_tiles is above WF_TILECACHE_MAX_TILES");
    WF_CHECK_DESC(log, "tilecache", desc->max_links <= WF_TILECACHE_MAX_LINKS,
                  "max_links is above WF_TILECACHE_MAX_LINKS");
    wf_allocator a;
    WF_CHECK_DESC(log, "tilecache", wf_allocator_resolve(&desc->allocator, &a) == WF_OK,
                  "allocator: alloc and free must be both set or both NULL");
    wf_layer_codec codec;
    WF_CHECK_DESC(log, "tilecache", resolve_codec(&desc->codec, &codec),
                  "codec: max_compressed_size, compress and decompress must all be set");
    wf_tilecache* tc = wf_alloc_zeroed(&a, sizeof *tc, _Alignof(wf_tilecache));
    if (tc == NULL) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    tc->params = desc->params;
    tc->codec = codec;
    tc->jobs = desc->jobs;
    tc->max_layers = desc->max_layers;
    tc->max_tiles = desc->max_tiles;
    tc->max_cells = desc->max_cells;
    tc->max_triangle_refs = desc->max_triangle_refs;
    tc->max_navmesh_bytes = desc->max_navmesh_bytes;
    tc->max_links = desc->max_links;
    tc->allocator = a;
    tc->logger = desc->logger;
    tc->origin = desc->params.bmin;
    tc->world_max = desc->params.bmax;
    tc->scratch_bytes = tile_scratch_bytes(desc->params.tile_size);
    tc->staging_bytes = staging_bytes(desc->params.tile_size);
    uint32_t workers = wf_jobs_worker_count(&desc->jobs);
    tc->workers = WF_ALLOC_ARRAY(&a, wf_tilecache_worker, workers);
    if (tc->workers == NULL) {
        wf_tilecache_destroy(tc);
        return WF_ERR_OUT_OF_MEMORY;
    }
    tc->worker_count = workers;
    for (uint32_t i = 0; i < workers; ++i) {
        wf_tilecache_worker* w = &tc->workers[i];
        w->staging = wf_alloc(&a, tc->staging_bytes, WF_TILECACHE_BLOB_ALIGN);
        w->links = WF_ALLOC_ARRAY(&a, wf_offmesh_link_desc, WF_TILECACHE_MAX_LINKS_PER_LAYER);
        if (w->staging == NULL || w->links == NULL ||
            wf_arena_create(&w->scratch, &a, tc->scratch_bytes) != WF_OK) {
            wf_tilecache_destroy(tc);
            return WF_ERR_OUT_OF_MEMORY;
        }
    }
    if (create_runtime(tc, desc) != WF_OK) {
        wf_tilecache_destroy(tc);
        return WF_ERR_OUT_OF_MEMORY;
    }
    *out = tc;
    return WF_OK;
}

/* ---------------------------------------------------------------------------
 * Queries
 */

wf_mesh_desc wf_tilecache_mesh_desc(const wf_tilecache* tc) {
    wf_mesh_desc md;
    memset(&md, 0, sizeof md);
    if (tc == NULL) {
        return md;
    }
    md.origin = tc->origin;
    md.tile_width = (float)tc->params.tile_size * tc->params.cell_size;
    md.tile_depth = md.tile_width;
    uint32_t slots = tc->max_layers != 0 ? tc->max_layers : tc->entry_count;
    md.max_tiles = slots > 0 ? slots : 1;
    // build_navmesh hands the mesh blobs from this allocator to free.
    md.allocator = tc->allocator;
    md.logger = tc->logger;
    return md;
}

wf_tilecache_stats wf_tilecache_get_stats(const wf_tilecache* tc) {
    wf_tilecache_stats st;
    memset(&st, 0, sizeof st);
    if (tc == NULL) {
        return st;
    }
    st.layer_count = tc->entry_count;
    st.memory_bytes = sizeof *tc + (size_t)tc->entry_count * sizeof(wf_tilecache_entry) +
                      (size_t)tc->worker_count * (sizeof(wf_tilecache_worker) + tc->scratch_bytes +
                                                  tc->staging_bytes + LINK_BUFFER_BYTES);
    for (uint32_t i = 0; i < tc->entry_count; ++i) {
        const wf_tilecache_layer_info* info = &tc->entries[i].info;
        bool new_tile = i == 0 || info->tile_x != tc->entries[i - 1].info.tile_x ||
                        info->tile_z != tc->entries[i - 1].info.tile_z;
        st.tile_count += new_tile;
        st.raw_bytes += info->raw_bytes;
        st.compressed_bytes += info->compressed_bytes;
        st.walkable_cells += info->walkable_cells;
        st.memory_bytes += info->compressed_bytes;
    }
    st.memory_bytes += runtime_bytes(tc);
    st.walkable_area = (double)st.walkable_cells * tc->params.cell_size * tc->params.cell_size;
    st.build_ms = tc->build_ms;
    st.build_cells = tc->build_cells;
    st.triangle_refs = tc->triangle_refs;
    st.triangle_cells = tc->triangle_cells;
    st.scratch_bytes_per_worker = tc->scratch_bytes;
    st.oversize_layers = tc->oversize_layers;
    return st;
}

void wf_tilecache_layer_info_from(const wf_layer* l, uint32_t raw_bytes, uint32_t compressed_bytes,
                                  wf_tilecache_layer_info* out) {
    memset(out, 0, sizeof *out);
    out->tile_x = l->tile_x;
    out->tile_z = l->tile_z;
    out->layer = l->layer;
    out->width = l->width;
    out->depth = l->depth;
    for (uint32_t i = 0; i < l->width * l->depth; ++i) {
        out->walkable_cells += l->heights[i] != WF_LAYER_EMPTY && l->areas[i] != WF_AREA_NULL;
    }
    out->raw_bytes = raw_bytes;
    out->compressed_bytes = compressed_bytes;
    out->bmin = wf_v3(l->bmin[0], l->bmin[1] + (float)l->hmin * l->ch, l->bmin[2]);
    out->bmax = wf_v3(l->bmax[0], l->bmin[1] + (float)l->hmax * l->ch, l->bmax[2]);
}

void wf_tilecache_entry_from(const wf_layer* l, uint32_t raw_bytes, uint32_t compressed_bytes,
                             wf_tilecache_entry* out) {
    memset(out, 0, sizeof *out);
    wf_tilecache_layer_info_from(l, raw_bytes, compressed_bytes, &out->info);
    uint32_t x0 = l->width, z0 = l->depth, x1 = 0, z1 = 0;
    for (uint32_t z = 0; z < l->depth; ++z) {
        for (uint32_t x = 0; x < l->width; ++x) {
            if (l->heights[x + z * l->width] != WF_LAYER_EMPTY) {
                x0 = x < x0 ? x : x0;
                x1 = x > x1 ? x : x1;
                z0 = z < z0 ? z : z0;
                z1 = z > z1 ? z : z1;
            }
        }
    }
    if (x0 > x1 || z0 > z1) { // no cell (not built so): the tile's square
        x0 = z0 = 0;
        x1 = l->width > 0 ? l->width - 1u : 0u;
        z1 = l->depth > 0 ? l->depth - 1u : 0u;
    }
    out->cells_min[0] = l->bmin[0] + (float)x0 * l->cs;
    out->cells_min[1] = l->bmin[2] + (float)z0 * l->cs;
    out->cells_max[0] = l->bmin[0] + (float)(x1 + 1u) * l->cs;
    out->cells_max[1] = l->bmin[2] + (float)(z1 + 1u) * l->cs;
}

uint32_t wf_tilecache_layer_count(const wf_tilecache* tc) {
    return tc != NULL ? tc->entry_count : 0;
}

wf_status wf_tilecache_get_layer_info(const wf_tilecache* tc, uint32_t index,
                                      wf_tilecache_layer_info* out) {
    WF_CHECK_ARG(tc != NULL && out != NULL);
    if (index >= tc->entry_count) {
        return WF_ERR_NOT_FOUND;
    }
    *out = tc->entries[index].info;
    return WF_OK;
}

const wf_tilecache_params* wf_tilecache_get_params(const wf_tilecache* tc) {
    return tc != NULL ? &tc->params : NULL;
}
