// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The budgeted update: applies queued obstacle requests, marks the layers
// they touch dirty, rebuilds dirty layers in build slots (background tasks
// on the job system, or inline; the rebuild itself is layer_rebuild.c) and
// commits finished tiles into the mesh.
#include <string.h>

#include "navcore/alloc.h"
#include "navcore/check.h"
#include "navcore/clock.h"
#include "navcore/log.h"
#include "navcore/mesh_commit.h"
#include "tilecache/tilecache_internal.h"

/* ---------------------------------------------------------------------------
 * Per-layer state: made at the first update after a build, so that later
 * updates never allocate for it.
 */

size_t wf_tilecache_layer_state_bytes(const wf_tilecache* tc) {
    size_t n = (size_t)tc->layer_state_count *
                   (sizeof(wf_layer_state) + sizeof(wf_tilecache_changed_tile)) +
               tc->tile_first_count * sizeof(uint32_t);
    for (uint32_t i = 0; tc->layer_states != NULL && i < tc->layer_state_count; ++i) {
        n += tc->layer_states[i].blob_capacity;
    }
    return n;
}

/// Waits for a slot's build and forgets its result.
static void drop_slot(wf_tilecache* tc, wf_build_slot* slot) {
    if (slot->busy) {
        wf_jobs_wait_task(&tc->jobs, &slot->task);
    }
    slot->busy = false;
    slot->ready = false;
}

void wf_tilecache_drop_builds(wf_tilecache* tc) {
    for (uint32_t i = 0; tc->slots != NULL && i < tc->slot_count; ++i) {
        drop_slot(tc, &tc->slots[i]);
    }
}

void wf_tilecache_free_layer_states(const wf_allocator* a, wf_layer_state* states, uint32_t count,
                                    wf_tilecache_changed_tile* changed, uint32_t* tile_first,
                                    size_t tile_first_count) {
    for (uint32_t i = 0; states != NULL && i < count; ++i) {
        wf_free(a, states[i].blob, states[i].blob_capacity, WF_TILECACHE_BLOB_ALIGN);
    }
    WF_FREE_ARRAY(a, states, wf_layer_state, count);
    WF_FREE_ARRAY(a, changed, wf_tilecache_changed_tile, count);
    WF_FREE_ARRAY(a, tile_first, uint32_t, tile_first_count);
}

void wf_tilecache_release_layer_states(wf_tilecache* tc) {
    wf_tilecache_drop_builds(tc);
    wf_tilecache_free_layer_states(&tc->allocator, tc->layer_states, tc->layer_state_count,
                                   tc->changed, tc->tile_first_entry, tc->tile_first_count);
    tc->layer_states = NULL;
    tc->changed = NULL;
    tc->tile_first_entry = NULL;
    tc->layer_state_count = 0;
    tc->tile_first_count = 0;
}

wf_status wf_tilecache_make_layer_states(wf_tilecache* tc) {
    if (tc->layer_states != NULL || tc->entry_count == 0) {
        return WF_OK;
    }
    const wf_allocator* a = &tc->allocator;
    uint32_t n = tc->entry_count;
    size_t tiles = (size_t)tc->tiles_x * (size_t)tc->tiles_z;
    wf_layer_state* states = WF_ALLOC_ARRAY(a, wf_layer_state, n);
    wf_tilecache_changed_tile* changed = WF_ALLOC_ARRAY(a, wf_tilecache_changed_tile, n);
    uint32_t* first = WF_ALLOC_ARRAY(a, uint32_t, tiles + 1u);
    if (states == NULL || changed == NULL || first == NULL) {
        WF_FREE_ARRAY(a, states, wf_layer_state, n);
        WF_FREE_ARRAY(a, changed, wf_tilecache_changed_tile, n);
        WF_FREE_ARRAY(a, first, uint32_t, tiles + 1u);
        return WF_ERR_OUT_OF_MEMORY;
    }
    // Entries are sorted by tile (z, then x): counts, then prefix sums.
    for (uint32_t i = 0; i < n; ++i) {
        const wf_tilecache_layer_info* info = &tc->entries[i].info;
        WF_ASSERT(info->tile_x >= 0 && info->tile_x < tc->tiles_x && info->tile_z >= 0 &&
                  info->tile_z < tc->tiles_z);
        first[(size_t)info->tile_z * (size_t)tc->tiles_x + (size_t)info->tile_x + 1u]++;
    }
    for (size_t t = 0; t < tiles; ++t) {
        first[t + 1u] += first[t];
    }
    tc->layer_states = states;
    tc->changed = changed;
    tc->tile_first_entry = first;
    tc->layer_state_count = n;
    tc->tile_first_count = tiles + 1u;
    return WF_OK;
}

/* ---------------------------------------------------------------------------
 * Requests -> dirty layers
 */

/// Bumps the version of every layer the bounds touch.
static void dirty_bounds(wf_tilecache* tc, const float bmin[3], const float bmax[3]) {
    if (tc->layer_states == NULL) {
        return;
    }
    // The tile range is widened a hair so that rounding never drops a tile;
    // the exact closed-interval test per layer decides (the same one that
    // picks a build's stamps).
    float pad = 1e-3f * (float)tc->params.tile_size * tc->params.cell_size;
    float lo[3] = {bmin[0] - pad, bmin[1], bmin[2] - pad};
    float hi[3] = {bmax[0] + pad, bmax[1], bmax[2] + pad};
    int32_t x0, z0, x1, z1;
    if (!wf_tilecache_tile_range(tc, lo, hi, &x0, &z0, &x1, &z1)) {
        return;
    }
    for (int32_t z = z0; z <= z1; ++z) {
        size_t row = (size_t)z * (size_t)tc->tiles_x;
        uint32_t end = tc->tile_first_entry[row + (size_t)x1 + 1u];
        for (uint32_t i = tc->tile_first_entry[row + (size_t)x0]; i < end; ++i) {
            if (wf_tilecache_bounds_touch_layer(&tc->entries[i], bmin, bmax)) {
                tc->layer_states[i].dirty_version++;
            }
        }
    }
}

/// Applies every queued request in order (see the rule at
/// wf_obstacle_request: the past comes from the request, never the record).
static uint32_t apply_requests(wf_tilecache* tc) {
    uint32_t count = tc->request_count;
    for (uint32_t k = 0; k < count; ++k) {
        const wf_obstacle_request* r = &tc->requests[(tc->request_head + k) % tc->max_requests];
        if (r->slot >= tc->max_obstacles) {
            WF_ASSERT(r->slot < tc->max_obstacles);
            continue;
        }
        if ((r->kind == WF_REQUEST_REMOVE || r->kind == WF_REQUEST_MOVE) && r->was_applied) {
            dirty_bounds(tc, r->old_bmin, r->old_bmax);
        }
        wf_obstacle_record* rec = &tc->obstacles[r->slot];
        if ((r->kind == WF_REQUEST_ADD || r->kind == WF_REQUEST_MOVE) &&
            rec->state == WF_OBSTACLE_LIVE) {
            dirty_bounds(tc, rec->stamp.bmin, rec->stamp.bmax);
            rec->applied = true;
        }
    }
    tc->request_head = count > 0 ? (tc->request_head + count) % tc->max_requests : 0;
    tc->request_count = 0;
    return count;
}

/* ---------------------------------------------------------------------------
 * Builds
 */

/// The background task: reads only its slot and the cache's fixed data.
static void build_fn(void* context) {
    wf_build_slot* slot = context;
    slot->blob_size = 0;
    slot->status = wf_tilecache_rebuild_layer(
        slot->tc, slot->layer, slot->stamps, slot->stamp_count, slot->links, slot->link_count,
        &slot->scratch, slot->blob, slot->blob_capacity, &slot->blob_size);
}

/// Copies into the slot what its build needs, so the caller may change
/// obstacles while it runs. `applied` lists the applied obstacles.
static void prepare_slot(wf_tilecache* tc, wf_build_slot* slot, uint32_t layer, uint32_t applied) {
    slot->layer = layer;
    slot->version = tc->layer_states[layer].dirty_version;
    slot->stamp_count =
        wf_tilecache_gather_stamps(tc, tc->applied_slots, applied, layer, slot->stamps);
    slot->link_count = wf_tilecache_gather_links(tc, layer, slot->links);
    slot->status = WF_OK;
    slot->blob_size = 0;
    slot->order = tc->build_order++;
    tc->layer_states[layer].in_flight = true;
}

/// A layer that needs more scratch or blob than a slot has: built on the
/// calling thread in a full-size arena, into a blob of its own size (the
/// only allocations an update makes for builds).
static wf_status build_oversize(wf_tilecache* tc, const wf_build_slot* slot,
                                unsigned char** out_blob, size_t* out_size) {
    tc->update_oversize_layers++;
    wf_arena big;
    if (wf_arena_create(&big, &tc->allocator,
                        wf_tilecache_full_scratch_bytes(tc->params.tile_size)) != WF_OK) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    size_t need = slot->blob_size; // known when only the blob did not fit
    wf_status s = WF_ERR_CAPACITY;
    if (need == 0) {
        s = wf_tilecache_rebuild_layer(tc, slot->layer, slot->stamps, slot->stamp_count,
                                       slot->links, slot->link_count, &big, NULL, 0, &need);
    }
    unsigned char* blob = NULL;
    if (s == WF_ERR_CAPACITY && need > 0) {
        blob = wf_alloc(&tc->allocator, need, WF_TILECACHE_BLOB_ALIGN);
        s = blob == NULL ? WF_ERR_OUT_OF_MEMORY
                         : wf_tilecache_rebuild_layer(tc, slot->layer, slot->stamps,
                                                      slot->stamp_count, slot->links,
                                                      slot->link_count, &big, blob, need, out_size);
        if (s == WF_OK && *out_size != need) {
            s = WF_ERR_BAD_DATA; // the same build twice must give the same size
        }
    } else if (s == WF_OK || s == WF_ERR_CAPACITY) {
        s = WF_ERR_BAD_DATA; // a blob of size 0 cannot be
    }
    wf_arena_destroy(&big, &tc->allocator);
    if (s != WF_OK) {
        wf_free(&tc->allocator, blob, need, WF_TILECACHE_BLOB_ALIGN);
        return s; // WF_ERR_NOT_FOUND: no polygon left
    }
    *out_blob = blob;
    return WF_OK;
}

/* ---------------------------------------------------------------------------
 * One update call
 */

typedef struct update_run {
    wf_tilecache* tc;
    wf_mesh* mesh;
    double start_ms;
    uint32_t max_time_us, max_commits;
    uint32_t commits;
    uint32_t waited;  ///< builds this call waited for or ran itself
    uint32_t rebuilt; ///< builds collected that are current
    uint32_t changed_count;
    uint32_t cursor;    ///< layers below it have been considered for a build
    uint32_t fill;      ///< no time limit: layers [cursor, fill) are the window
    uint32_t in_window; ///< dirty layers in the window (each building or built)
    bool listed;        ///< tc->applied_slots holds this call's applied obstacles
    uint32_t applied;   ///< their count
    wf_status status;   ///< first failure, else WF_PARTIAL if a tile lost links
} update_run;

/// The obstacle set is fixed once the requests are applied: the applied
/// obstacles are listed once per call, not scanned again for every build.
static uint32_t applied_list(update_run* run) {
    if (!run->listed) {
        run->applied = wf_tilecache_list_applied(run->tc, run->tc->applied_slots);
        run->listed = true;
    }
    return run->applied;
}

static double elapsed_us(const update_run* run) { return (wf_clock_ms() - run->start_ms) * 1e3; }

/// Time remains, or nothing has been done yet: every call makes progress,
/// so a tiny budget is overshot by at most one layer's build.
static bool keep_going(const update_run* run) {
    return run->max_time_us == 0 || elapsed_us(run) < (double)run->max_time_us ||
           run->commits + run->waited == 0;
}

static bool may_commit(const update_run* run) {
    return run->max_commits == 0 || run->commits < run->max_commits;
}

static void note_failure(update_run* run, wf_status s) {
    if (s < 0 && run->status >= 0) {
        run->status = s;
    } else if (s == WF_PARTIAL && run->status == WF_OK) {
        run->status = WF_PARTIAL;
    }
}

static bool is_dirty(const wf_layer_state* ls) { return ls->dirty_version != ls->built_version; }

/// The next dirty layer without a build, in layer order.
static bool next_dirty(update_run* run, uint32_t* out_layer) {
    const wf_tilecache* tc = run->tc;
    for (; run->cursor < tc->layer_state_count; ++run->cursor) {
        const wf_layer_state* ls = &tc->layer_states[run->cursor];
        if (is_dirty(ls) && !ls->in_flight) {
            *out_layer = run->cursor++;
            return true;
        }
    }
    return false;
}

/// A finished build: kept for its commit when the layer was not touched
/// since it started, else dropped (the layer gets built again).
static void settle(update_run* run, wf_build_slot* slot) {
    wf_layer_state* ls = &run->tc->layer_states[slot->layer];
    if (slot->version == ls->dirty_version) {
        slot->ready = true;
        run->rebuilt++;
        return;
    }
    ls->in_flight = false;
    run->cursor = slot->layer < run->cursor ? slot->layer : run->cursor;
}

/// Room for a blob in the layer's own memory: at least a build slot's blob
/// buffer (every blob a slot builds fits it, so later commits never grow
/// it: steady state allocates nothing), with headroom for oversize layers.
static size_t first_capacity(const wf_tilecache* tc, size_t size) {
    size_t n = size + size / 2u;
    n = n > tc->staging_bytes ? n : tc->staging_bytes;
    return (n + WF_TILECACHE_BLOB_ALIGN - 1u) & ~(size_t)(WF_TILECACHE_BLOB_ALIGN - 1u);
}

/// Replaces the layer's tile in the mesh by `blob` (NULL: no tile now).
static wf_status commit_tile(update_run* run, uint32_t layer, const unsigned char* blob,
                             size_t size) {
    wf_tilecache* tc = run->tc;
    wf_layer_state* ls = &tc->layer_states[layer];
    const wf_tilecache_layer_info* info = &tc->entries[layer].info;
    // Memory first, so that a failure to get it leaves the mesh as it was
    // (an add that fails after the removal leaves the layer without a tile,
    // logged; it is rebuilt when an obstacle touches it again).
    unsigned char* grown = NULL;
    size_t grown_capacity = 0;
    if (blob != NULL && size > ls->blob_capacity) {
        grown_capacity = first_capacity(tc, size);
        grown = wf_alloc(&tc->allocator, grown_capacity, WF_TILECACHE_BLOB_ALIGN);
        if (grown == NULL) {
            return WF_ERR_OUT_OF_MEMORY;
        }
    }
    wf_tile_ref old = {0};
    if (wf_mesh_find_tile(run->mesh, info->tile_x, info->tile_z, info->layer, &old) == WF_OK) {
        wf_status r = wf_mesh_remove_tile(run->mesh, old, NULL, NULL);
        if (r != WF_OK) {
            wf_free(&tc->allocator, grown, grown_capacity, WF_TILECACHE_BLOB_ALIGN);
            return r;
        }
    } else {
        old.bits = 0;
    }
    // The old tile is out of the mesh: its memory may be reused.
    if (grown != NULL) {
        wf_free(&tc->allocator, ls->blob, ls->blob_capacity, WF_TILECACHE_BLOB_ALIGN);
        ls->blob = grown;
        ls->blob_capacity = grown_capacity;
    }
    wf_tile_ref added = {0};
    wf_status s = WF_OK;
    if (blob != NULL) {
        memcpy(ls->blob, blob, size);
        // Built by this cache moments ago: the mesh skips the checksum.
        // Back into the old tile's slot (a new generation): slots then do
        // not depend on the order builds finished in.
        wf_tile_ref slot =
            old.bits != 0
                ? wf_mesh_free_slot_ref(run->mesh, wf_poly_ref_tile((wf_poly_ref){old.bits}))
                : (wf_tile_ref){0};
        s = wf_mesh_add_built_tile(run->mesh, ls->blob, size, 0, slot, &added);
        if (s < 0) {
            wf_log(&tc->logger, WF_LOG_ERROR, "tilecache: tile (%d, %d, %d) not added: %s",
                   info->tile_x, info->tile_z, info->layer, wf_status_string(s));
            added.bits = 0;
        }
    }
    WF_ASSERT(run->changed_count < tc->layer_state_count);
    if (run->changed_count < tc->layer_state_count) {
        wf_tilecache_changed_tile* c = &tc->changed[run->changed_count++];
        c->tile_x = info->tile_x;
        c->tile_z = info->tile_z;
        c->layer = info->layer;
        c->old_tile = old;
        c->new_tile = added;
    }
    run->commits++;
    return s;
}

/// Commits a ready slot and frees it. A failed build or add is reported
/// and the layer keeps what the mesh has (it is not retried until touched
/// again); only a lack of memory leaves the layer dirty for a later call.
static void commit_slot(update_run* run, wf_build_slot* slot) {
    wf_tilecache* tc = run->tc;
    wf_layer_state* ls = &tc->layer_states[slot->layer];
    unsigned char* big = NULL;
    size_t size = slot->blob_size;
    wf_status s = slot->status;
    if (s == WF_ERR_CAPACITY) {
        s = build_oversize(tc, slot, &big, &size);
    }
    bool done = true;
    if (s == WF_OK || s == WF_ERR_NOT_FOUND) {
        const unsigned char* blob = s == WF_OK ? (big != NULL ? big : slot->blob) : NULL;
        s = commit_tile(run, slot->layer, blob, size);
        done = s != WF_ERR_OUT_OF_MEMORY;
    } else {
        const wf_tilecache_layer_info* info = &tc->entries[slot->layer].info;
        wf_log(&tc->logger, WF_LOG_ERROR, "tilecache: layer (%d, %d, %d) not rebuilt: %s",
               info->tile_x, info->tile_z, info->layer, wf_status_string(s));
        done = s != WF_ERR_OUT_OF_MEMORY;
    }
    if (big != NULL) {
        wf_free(&tc->allocator, big, size, WF_TILECACHE_BLOB_ALIGN);
    }
    note_failure(run, s);
    if (done) {
        ls->built_version = slot->version;
    }
    ls->in_flight = false;
    slot->ready = false;
}

/// Step 1: builds that finished since the last look.
static void collect_finished(update_run* run) {
    wf_tilecache* tc = run->tc;
    for (uint32_t i = 0; i < tc->slot_count; ++i) {
        wf_build_slot* slot = &tc->slots[i];
        if (slot->busy && wf_jobs_task_is_done(&slot->task)) {
            wf_jobs_wait_task(&tc->jobs, &slot->task);
            slot->busy = false;
            settle(run, slot);
        }
    }
}

/// Results of layers touched again since their build started.
static void drop_stale(wf_tilecache* tc) {
    for (uint32_t i = 0; i < tc->slot_count; ++i) {
        wf_build_slot* slot = &tc->slots[i];
        if (slot->ready && slot->version != tc->layer_states[slot->layer].dirty_version) {
            slot->ready = false;
            tc->layer_states[slot->layer].in_flight = false;
        }
    }
}

/// Step 3: ready results, in layer order, within the budget.
static void commit_ready(update_run* run) {
    wf_tilecache* tc = run->tc;
    while (may_commit(run) && keep_going(run)) {
        wf_build_slot* first = NULL;
        for (uint32_t i = 0; i < tc->slot_count; ++i) {
            wf_build_slot* slot = &tc->slots[i];
            if (slot->ready && (first == NULL || slot->layer < first->layer)) {
                first = slot;
            }
        }
        if (first == NULL) {
            return;
        }
        commit_slot(run, first);
    }
}

/// Step 4 with workers: every free slot gets the next dirty layer.
static void start_builds(update_run* run) {
    wf_tilecache* tc = run->tc;
    for (uint32_t i = 0; i < tc->slot_count; ++i) {
        wf_build_slot* slot = &tc->slots[i];
        uint32_t layer;
        if (slot->busy || slot->ready) {
            continue;
        }
        if (!next_dirty(run, &layer)) {
            return;
        }
        prepare_slot(tc, slot, layer, applied_list(run));
        wf_status s = wf_jobs_submit(&tc->jobs, &slot->task, build_fn, slot);
        if (s != WF_OK) {
            WF_ASSERT(s == WF_OK); // the slot's task was released when it was collected
            tc->layer_states[layer].in_flight = false;
            note_failure(run, s);
            return;
        }
        slot->busy = true;
    }
}

/// The next build to finish: one already done (oldest first), else the
/// newest. Workers take builds oldest first, so the newest is the one most
/// likely still queued, and waiting for a queued build runs it on this
/// thread: the caller builds too instead of blocking on a worker's build.
static wf_build_slot* next_to_wait(wf_tilecache* tc) {
    wf_build_slot* done = NULL;
    wf_build_slot* newest = NULL;
    for (uint32_t i = 0; i < tc->slot_count; ++i) {
        wf_build_slot* slot = &tc->slots[i];
        if (!slot->busy) {
            continue;
        }
        if (wf_jobs_task_is_done(&slot->task) && (done == NULL || slot->order < done->order)) {
            done = slot;
        }
        if (newest == NULL || slot->order > newest->order) {
            newest = slot;
        }
    }
    return done != NULL ? done : newest;
}

/// Step 5 with workers: take a finished build (or wait for one), commit
/// it, start the next dirty layer, while the budget lasts. Each wait lasts
/// at most one layer's build.
static void wait_and_commit(update_run* run) {
    wf_tilecache* tc = run->tc;
    while (may_commit(run) && keep_going(run)) {
        wf_build_slot* slot = next_to_wait(tc);
        if (slot == NULL) {
            return;
        }
        wf_jobs_wait_task(&tc->jobs, &slot->task);
        slot->busy = false;
        run->waited++;
        settle(run, slot);
        if (slot->ready) {
            commit_slot(run, slot); // part of the build just waited for
        }
        start_builds(run);
    }
}

/// No workers to build on: builds run on the calling thread.
static bool runs_inline(const wf_tilecache* tc) {
    return tc->jobs.enqueue == NULL || wf_jobs_worker_count(&tc->jobs) <= 1;
}

/// Waits for every build still running (started by a call with a time
/// limit) and keeps or drops each as settle decides.
static void wait_all(update_run* run) {
    wf_tilecache* tc = run->tc;
    for (uint32_t i = 0; i < tc->slot_count; ++i) {
        wf_build_slot* slot = &tc->slots[i];
        if (slot->busy) {
            wf_jobs_wait_task(&tc->jobs, &slot->task);
            slot->busy = false;
            run->waited++;
            settle(run, slot);
        }
    }
}

/// A slot for a build of `layer`: a free one, else one whose ready result
/// is for a later layer (dropped: that layer is built again when its turn
/// comes). NULL when every slot holds a build of an earlier layer.
static wf_build_slot* slot_for(wf_tilecache* tc, uint32_t layer) {
    wf_build_slot* later = NULL;
    for (uint32_t i = 0; i < tc->slot_count; ++i) {
        wf_build_slot* slot = &tc->slots[i];
        if (!slot->busy && !slot->ready) {
            return slot;
        }
        if (slot->ready && slot->layer > layer && (later == NULL || slot->layer > later->layer)) {
            later = slot;
        }
    }
    if (later != NULL) {
        later->ready = false;
        tc->layer_states[later->layer].in_flight = false;
    }
    return later;
}

/// The slot building or holding `layer`'s result, if any.
static wf_build_slot* slot_of(wf_tilecache* tc, uint32_t layer) {
    for (uint32_t i = 0; i < tc->slot_count; ++i) {
        wf_build_slot* slot = &tc->slots[i];
        if ((slot->busy || slot->ready) && slot->layer == layer) {
            return slot;
        }
    }
    return NULL;
}

/// Gives every free slot the next dirty layer past the window (layers
/// [cursor, fill)), as long as the window holds fewer dirty layers than
/// the commits left allow: a call never builds past what it may commit.
static void fill_window(update_run* run, bool on_workers) {
    wf_tilecache* tc = run->tc;
    uint32_t want = run->max_commits == 0 ? UINT32_MAX : run->max_commits - run->commits;
    while (run->in_window < want && run->fill < tc->layer_state_count) {
        uint32_t layer = run->fill;
        wf_layer_state* ls = &tc->layer_states[layer];
        if (!is_dirty(ls)) {
            run->fill++;
            continue;
        }
        if (!ls->in_flight) {
            wf_build_slot* slot = slot_for(tc, layer);
            if (slot == NULL) {
                return; // every slot holds a layer of the window: commit first
            }
            prepare_slot(tc, slot, layer, applied_list(run));
            if (on_workers && wf_jobs_submit(&tc->jobs, &slot->task, build_fn, slot) == WF_OK) {
                slot->busy = true;
            } else {
                build_fn(slot); // no workers (or no task): built here, in turn
                run->waited++;
                settle(run, slot);
            }
        }
        run->in_window++;
        run->fill++;
    }
}

/// Waits until `head`'s build is done. Meanwhile this thread runs the
/// newest build still pending: workers take builds oldest first, so the
/// newest is the one most likely still queued (waiting for it runs it
/// here), and the head, the oldest, is most likely already on a worker.
static void finish_head(update_run* run, wf_build_slot* head) {
    wf_tilecache* tc = run->tc;
    while (head->busy && !wf_jobs_task_is_done(&head->task)) {
        wf_build_slot* newest = NULL;
        for (uint32_t i = 0; i < tc->slot_count; ++i) {
            wf_build_slot* slot = &tc->slots[i];
            if (slot->busy && !wf_jobs_task_is_done(&slot->task) &&
                (newest == NULL || slot->order > newest->order)) {
                newest = slot;
            }
        }
        if (newest == NULL || newest == head) {
            break;
        }
        wf_jobs_wait_task(&tc->jobs, &newest->task);
        newest->busy = false;
        run->waited++;
        settle(run, newest);
    }
    if (head->busy) {
        wf_jobs_wait_task(&tc->jobs, &head->task);
        head->busy = false;
        run->waited++;
        settle(run, head);
    }
}

/// Steps 3 to 5 with no time limit, with or without workers: the dirty
/// layers are committed in layer order, until max_commits tiles are in, as
/// if one thread built them one by one. Builds stream through the slots: a
/// window of the next dirty layers is building while this thread commits
/// the oldest (or builds too while that one is unfinished), and each commit
/// frees a slot for the next layer, so workers never wait for a batch's
/// commits. The window never holds more layers than the commits left
/// allow, so which tiles a call commits, and in which order, depends on
/// the inputs alone: never on the worker count, the slots, the timing or
/// what earlier calls built ahead.
static void commit_in_order(update_run* run) {
    wf_tilecache* tc = run->tc;
    bool on_workers = !runs_inline(tc);
    wait_all(run);
    run->fill = run->cursor;
    run->in_window = 0;
    for (;;) {
        fill_window(run, on_workers);
        if (run->in_window == 0) {
            return;
        }
        uint32_t head = run->cursor;
        while (head < run->fill && !is_dirty(&tc->layer_states[head])) {
            head++;
        }
        WF_ASSERT(head < run->fill);
        wf_build_slot* slot = slot_of(tc, head);
        if (slot != NULL) {
            finish_head(run, slot);
            if (slot->ready) {
                commit_slot(run, slot);
            }
        } else {
            tc->layer_states[head].in_flight = false; // not reachable: nothing holds it
        }
        run->in_window--;
        run->cursor = head + 1u;
        if (!may_commit(run)) {
            return;
        }
    }
}

/// Steps 4 and 5 with no workers: one layer at a time on this thread.
static void build_inline(update_run* run) {
    wf_tilecache* tc = run->tc;
    wf_build_slot* slot = &tc->slots[0];
    uint32_t layer;
    while (may_commit(run) && keep_going(run) && next_dirty(run, &layer)) {
        prepare_slot(tc, slot, layer, applied_list(run));
        build_fn(slot);
        run->waited++;
        settle(run, slot);
        commit_slot(run, slot);
    }
}

static void fill_result(const update_run* run, uint32_t applied, wf_tilecache_update_result* out) {
    const wf_tilecache* tc = run->tc;
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < tc->slot_count; ++i) {
        out->builds_in_flight += tc->slots[i].busy || tc->slots[i].ready;
    }
    for (uint32_t i = 0; i < tc->layer_state_count; ++i) {
        const wf_layer_state* ls = &tc->layer_states[i];
        out->layers_pending += is_dirty(ls) && !ls->in_flight;
    }
    out->up_to_date =
        tc->request_count == 0 && out->builds_in_flight == 0 && out->layers_pending == 0;
    out->requests_applied = applied;
    out->layers_rebuilt = run->rebuilt;
    out->tiles_committed = run->commits;
    out->time_us = elapsed_us(run);
    out->changed = run->changed_count > 0 ? tc->changed : NULL;
    out->changed_count = run->changed_count;
}

wf_status wf_tilecache_update(wf_tilecache* tc, wf_mesh* mesh, const wf_tilecache_budget* budget,
                              wf_tilecache_update_result* out) {
    WF_CHECK_ARG(tc != NULL && mesh != NULL && budget != NULL && out != NULL);
    WF_CHECK_ARG(wf_tilecache_mesh_matches(tc, mesh));
    update_run run;
    memset(&run, 0, sizeof run);
    run.tc = tc;
    run.mesh = mesh;
    run.start_ms = wf_clock_ms();
    run.max_time_us = budget->max_time_us;
    run.max_commits = budget->max_commits;
    wf_status s = wf_tilecache_make_layer_states(tc);
    if (s != WF_OK) {
        return s; // nothing applied: the requests stay queued
    }
    collect_finished(&run);
    uint32_t applied = apply_requests(tc);
    if (tc->layer_states != NULL) {
        drop_stale(tc);
        if (run.max_time_us == 0) {
            commit_in_order(&run);
        } else {
            commit_ready(&run);
            if (runs_inline(tc)) {
                build_inline(&run);
            } else {
                start_builds(&run);
                wait_and_commit(&run);
            }
        }
    }
    fill_result(&run, applied, out);
    return run.status;
}
