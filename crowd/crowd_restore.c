// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Crowd restore: a blob (crowd_blob.h) is checked whole before anything is
// written, then committed; searches in progress are replayed afterwards
// (wf_crowd_replay_searches), since a query's A* state is not data.
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "crowd/crowd_blob.h"
#include "crowd/crowd_phases.h"
#include "navcore/check.h"

/// Every flag crowd_internal.h defines (a load rejects others).
#define AGENT_FLAGS_ALL                                                                            \
    (AGENT_NEEDS_QUICK | AGENT_NEEDS_REPLAN | AGENT_QUEUED | AGENT_NOTIFY_RESULT |                 \
     AGENT_NOTIFY_BLOCKED | AGENT_NOTIFY_DONE | AGENT_IS_REPLAN | AGENT_FOLLOW | AGENT_DONE_SENT | \
     AGENT_WANTS_OFFMESH | AGENT_WAITS_OFFMESH | AGENT_STUCK_REPLANNED | AGENT_CONTINUE_BLOCKED |  \
     AGENT_STOPPED_SHORT | AGENT_RETURNING | AGENT_PINCH_GO | AGENT_WAITS_PINCH |                  \
     AGENT_PINCH_LEAD | AGENT_BLOCK_SENT | AGENT_FREE_STEPS | AGENT_SHARES_SPOT)

/// Where the sections and arrays lie in a blob that passed the header checks.
typedef struct blob_view {
    const unsigned char* scalars;
    const unsigned char* ids;
    size_t ids_size;
    const unsigned char* array[AR_COUNT];
    const unsigned char* corridors;
    const unsigned char* queue[QA_COUNT];
    const unsigned char* searches;
    const unsigned char* movers; ///< NULL: a version 4 blob (no movers)
    size_t movers_size;
} blob_view;

/// Element i of a raw array in the blob (which may be unaligned).
#define GET(var, base, i) memcpy(&(var), (base) + (size_t)(i) * sizeof(var), sizeof(var))

static wf_status check_header(const wf_crowd* c, const unsigned char* in, size_t size,
                              blob_view* v) {
    if (size < OLD_HEADER_SIZE || wf_bytes_get_u32(in) != MAGIC ||
        wf_bytes_get_u64(in + OFF_SIZE) != (uint64_t)size ||
        wf_bytes_get_u64(in + OFF_CHECKSUM) != blob_checksum(in, size)) {
        return WF_ERR_BAD_DATA;
    }
    // Version 4 is version 5 without the movers section.
    uint32_t version = wf_bytes_get_u32(in + 4);
    uint32_t sections = version == OLD_VERSION ? OLD_SECTION_COUNT : SECTION_COUNT;
    size_t header = version == OLD_VERSION ? OLD_HEADER_SIZE : HEADER_SIZE;
    if ((version != VERSION && version != OLD_VERSION) ||
        wf_bytes_get_u32(in + OFF_SECTION_COUNT) != sections) {
        return WF_ERR_VERSION;
    }
    if (size < header) {
        return WF_ERR_BAD_DATA;
    }
    uint32_t layout[LAYOUT_WORDS], caps[CAPACITY_WORDS];
    layout_words(layout);
    capacity_words(c, caps);
    for (uint32_t k = 0; k < LAYOUT_WORDS; ++k) {
        if (wf_bytes_get_u32(in + OFF_LAYOUT + 4u * k) != layout[k]) {
            return WF_ERR_VERSION; // another build or machine
        }
    }
    for (uint32_t k = 0; k < CAPACITY_WORDS; ++k) {
        if (wf_bytes_get_u32(in + OFF_CAPACITIES + 4u * k) != caps[k]) {
            return WF_ERR_CAPACITY;
        }
    }
    // Fixed sections must have this crowd's sizes; the ids take the rest.
    uint64_t want[SECTION_COUNT];
    section_sizes(c, want);
    uint64_t total = header;
    for (uint32_t k = 0; k < sections; ++k) {
        uint64_t got = wf_bytes_get_u64(in + OFF_SECTIONS + 8u * k);
        // The movers section is checked with its capacity (check_body).
        if ((k != SEC_IDS && k != SEC_MOVERS && got != want[k]) || got > size) {
            return WF_ERR_BAD_DATA;
        }
        want[k] = got;
        total += got;
    }
    if (total != size) {
        return WF_ERR_BAD_DATA;
    }
    const unsigned char* p = in + header;
    v->scalars = p;
    p += want[SEC_SCALARS];
    v->ids = p;
    v->ids_size = (size_t)want[SEC_IDS];
    p += want[SEC_IDS];
    span a[AR_COUNT];
    saved_arrays(c, a);
    for (uint32_t k = 0; k < AR_COUNT; ++k) {
        v->array[k] = p;
        p += a[k].size;
    }
    v->corridors = p;
    p += (size_t)c->max_agents * CORRIDOR_RECORD;
    span q[QA_COUNT];
    queue_arrays(c, q);
    for (uint32_t k = 0; k < QA_COUNT; ++k) {
        v->queue[k] = p;
        p += q[k].size;
    }
    v->searches = p;
    p += want[SEC_SEARCHES];
    v->movers = version == OLD_VERSION ? NULL : p;
    v->movers_size = version == OLD_VERSION ? 0 : (size_t)want[SEC_MOVERS];
    return WF_OK;
}

/// The one block a scratch allocator hands out: lets wf_id_pool_load
/// (which wants a small work buffer) run without allocating.
typedef struct scratch_block {
    void* data;
    size_t size;
    bool taken;
} scratch_block;

static void* scratch_alloc(size_t size, size_t align, void* user) {
    scratch_block* b = user;
    if (b->taken || size > b->size || (uintptr_t)b->data % align != 0) {
        return NULL;
    }
    b->taken = true;
    return b->data;
}

static void scratch_free(void* ptr, size_t size, size_t align, void* user) {
    (void)ptr;
    (void)size;
    (void)align;
    ((scratch_block*)user)->taken = false;
}

/// The crowd's per-update scratch as the id pool's work buffer (the last
/// update's per-agent events are copied out already; the next update
/// starts them over).
static wf_allocator scratch_allocator(wf_crowd* c, scratch_block* b) {
    b->data = c->update_scratch;
    b->size = wf_crowd_scratch_words(c) * sizeof(uint64_t);
    b->taken = false;
    return (wf_allocator){.alloc = scratch_alloc, .free = scratch_free, .user = b};
}

static bool finite3(wf_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }
static bool finite_f32(float x) { return isfinite(x); }
static bool finite_f64(double x) { return isfinite(x); }
static bool nan3(wf_vec3 v) { return isnan(v.x) || isnan(v.y) || isnan(v.z); }
#define FINITE(x) _Generic((x), float : finite_f32, double : finite_f64, wf_vec3 : finite3)(x)
#define HAS_NAN(x) _Generic((x), wf_vec3 : nan3)(x)

/// Corridor record of agent i.
static void get_corridor(const blob_view* v, uint32_t i, uint32_t* count, wf_vec3* pos,
                         wf_vec3* target) {
    const unsigned char* p = v->corridors + (size_t)i * CORRIDOR_RECORD;
    memcpy(count, p, 4);
    memcpy(pos, p + 4, sizeof *pos);
    memcpy(target, p + 4 + sizeof *pos, sizeof *target);
}

/// The counts and indices every slot must keep in range (live or not: a
/// removed agent's slot keeps its last values), and for live agents the
/// enums, flags, params and the floats that steer them.
static bool check_agent(const wf_crowd* c, const blob_view* v, uint32_t i, bool live) {
    uint8_t active, mode, ts, corners, neighbours, walls, bpolys;
    GET(active, v->array[AR_active], i);
    GET(corners, v->array[AR_corner_count], i);
    GET(neighbours, v->array[AR_neighbour_count], i);
    GET(walls, v->array[AR_wall_count], i);
    GET(bpolys, v->array[AR_boundary_poly_count], i);
    uint32_t count;
    wf_vec3 cpos, ctarget;
    get_corridor(v, i, &count, &cpos, &ctarget);
    if (active != (live ? 1u : 0u) || count > c->max_corridor || corners > WF_CROWD_MAX_CORNERS ||
        neighbours > c->max_neighbours || walls > c->max_walls ||
        bpolys > WF_LOCAL_BOUNDARY_MAX_POLYS) {
        return false;
    }
    for (uint32_t k = 0; k < neighbours; ++k) {
        uint32_t other;
        GET(other, v->array[AR_neighbours], (size_t)i * c->max_neighbours + k);
        if (other >= c->max_agents) {
            return false;
        }
    }
    if (!live) {
        return true; // the update skips free slots
    }
    uint32_t flags;
    wf_agent_params params;
    GET(mode, v->array[AR_mode], i);
    GET(ts, v->array[AR_target_state], i);
    GET(flags, v->array[AR_agent_flags], i);
    GET(params, v->array[AR_params], i);
    wf_poly_ref target_ref;
    GET(target_ref, v->array[AR_target_ref], i);
    if (mode > WF_AGENT_LOST || ts > WF_TARGET_FAILED || (flags & ~(uint32_t)AGENT_FLAGS_ALL) ||
        count == 0 || !wf_crowd_params_valid(c, &params) || !finite3(cpos) || !finite3(ctarget) ||
        target_ref.bits == 0) {
        return false;
    }
    // A live agent's corridor and target are polygons (stale ones are the
    // update's to repair); a null ref is no polygon of any mesh and would
    // reach the path searches as misuse.
    // Corridors keep 32-bit ids for the mesh as it is (crowd/ref_codec.h).
    wf_ref_codec codec;
    wf_ref_codec_init(&codec, c->mesh);
    if (codec.max_tiles > WF_REF_CODEC_MAX_TILES) {
        return false;
    }
    for (uint32_t k = 0; k < count; ++k) {
        wf_poly_ref ref;
        GET(ref, v->array[AR_corridor_ids], (size_t)i * c->max_corridor + k);
        if (ref.bits == 0 || wf_ref_codec_encode(&codec, ref) == WF_REF_CODEC_NULL) {
            return false;
        }
    }
    // The result record is handed to the result callback; its bool may only
    // hold 0 or 1 (read as a byte: any other value is no bool at all).
    const unsigned char* result = v->array[AR_result] + (size_t)i * sizeof(wf_crowd_result);
    float cost, wait;
    memcpy(&cost, result + offsetof(wf_crowd_result, cost), sizeof cost);
    memcpy(&wait, result + offsetof(wf_crowd_result, wait), sizeof wait);
    if (result[offsetof(wf_crowd_result, partial)] > 1u || !isfinite(cost) || !isfinite(wait)) {
        return false;
    }
    // The table's FINITE and NOT_NAN fields.
#define CHECK_FIELD(name, type, count, keep, check) CHECK_##keep##_##check(name, type)
#define CHECK_SAVED_FINITE(name, type)                                                             \
    {                                                                                              \
        type x;                                                                                    \
        GET(x, v->array[AR_##name], i);                                                            \
        if (!FINITE(x)) {                                                                          \
            return false;                                                                          \
        }                                                                                          \
    }
#define CHECK_SAVED_NOT_NAN(name, type)                                                            \
    {                                                                                              \
        type x;                                                                                    \
        GET(x, v->array[AR_##name], i);                                                            \
        if (HAS_NAN(x)) {                                                                          \
            return false;                                                                          \
        }                                                                                          \
    }
#define CHECK_SAVED_NONE(name, type)
#define CHECK_SAVED_CUSTOM(name, type)
#define CHECK_VIEW_NONE(name, type)
#define CHECK_REFS_CUSTOM(name, type)
#define CHECK_REFS_NONE(name, type)
#define CHECK_CODE_NONE(name, type)
#define CHECK_SCRATCH_NONE(name, type)
    WF_CROWD_AGENT_FIELDS(CHECK_FIELD)
#undef CHECK_FIELD
    wf_crowd_offmesh om;
    GET(om, v->array[AR_offmesh], i);
    if (!finite3(om.start) || !finite3(om.end) || !isfinite(om.t) || !isfinite(om.duration) ||
        om.duration < 0.0f) {
        return false;
    }
    for (uint32_t k = 0; k < corners; ++k) {
        wf_straight_point pt;
        GET(pt, v->array[AR_corners], (size_t)i * WF_CROWD_MAX_CORNERS + k);
        if (!finite3(pt.pos)) {
            return false;
        }
    }
    for (uint32_t k = 0; k < 2u * walls; ++k) {
        wf_vec3 x;
        GET(x, v->array[AR_walls], (size_t)i * c->max_walls * 2u + k);
        if (!finite3(x)) {
            return false;
        }
    }
    return true;
}

/// The heap: entries are live agents, heap_pos inverts it, parents come
/// first, and every key predates the next sequence number.
static bool check_queue(const wf_crowd* c, const blob_view* v, const wf_id_pool* ids) {
    const wf_path_queue* q = &c->queue;
    uint32_t count = wf_bytes_get_u32(v->scalars + 24);
    uint64_t next_seq = wf_bytes_get_u64(v->scalars + 12);
    if (count > q->capacity) {
        return false;
    }
    for (uint32_t k = 0; k < count; ++k) {
        uint32_t a, pos;
        uint64_t key;
        GET(a, v->queue[QA_HEAP], k);
        if (a >= c->max_agents || wf_id_pool_id_at(ids, a) == 0) {
            return false;
        }
        GET(pos, v->queue[QA_HEAP_POS], a);
        GET(key, v->queue[QA_KEY], a);
        if (pos != k || key >= next_seq) {
            return false;
        }
        if (k > 0) {
            uint32_t parent;
            uint64_t parent_key;
            GET(parent, v->queue[QA_HEAP], (k - 1u) / 2u);
            GET(parent_key, v->queue[QA_KEY], parent);
            if (key < parent_key || (key == parent_key && a < parent)) {
                return false;
            }
        }
    }
    for (uint32_t a = 0; a < c->max_agents; ++a) {
        uint32_t pos, back;
        GET(pos, v->queue[QA_HEAP_POS], a);
        if (pos == WF_PATH_QUEUE_NONE) {
            continue;
        }
        if (pos >= count) {
            return false;
        }
        GET(back, v->queue[QA_HEAP], pos);
        if (back != a) {
            return false;
        }
    }
    return true;
}

static wf_vec3 get_vec3(const unsigned char* p) {
    return wf_v3(wf_bytes_get_f32(p), wf_bytes_get_f32(p + 4), wf_bytes_get_f32(p + 8));
}

static void read_search(const unsigned char* p, wf_path_search* s) {
    s->agent = wf_bytes_get_u32(p + 0);
    s->agent_id = wf_bytes_get_u64(p + 4);
    s->budget = wf_bytes_get_u32(p + 12);
    s->used = wf_bytes_get_u32(p + 16);
    s->status = (wf_status)(int32_t)wf_bytes_get_u32(p + 20);
    s->iterations = wf_bytes_get_u64(p + 24);
    s->begin_start.bits = wf_bytes_get_u64(p + 32);
    s->begin_end.bits = wf_bytes_get_u64(p + 40);
    s->begin_start_pos = get_vec3(p + 48);
    s->begin_end_pos = get_vec3(p + 60);
    for (uint32_t a = 0; a < WF_MAX_AREAS; ++a) {
        s->begin_filter.area_cost[a] = wf_bytes_get_f32(p + SEARCH_FILTER_AT + 4u * a);
    }
    uint32_t f = wf_bytes_get_u32(p + SEARCH_FILTER_AT + 4u * WF_MAX_AREAS);
    s->begin_filter.include_flags = (uint16_t)f;
    s->begin_filter.exclude_flags = (uint16_t)(f >> 16);
    s->begin_filter.path_mode = wf_bytes_get_u32(p + SEARCH_MODE_AT);
}

/// Running searches: each serves a distinct live agent (by the id it began
/// for) that is not also waiting in the heap, and holds arguments
/// wf_query_begin_path accepts. Between updates a search is running or
/// free: serve_queue applies and drops finished ones in the same update.
static bool check_searches(const wf_crowd* c, const blob_view* v, const wf_id_pool* ids) {
    for (uint32_t k = 0; k < c->queue.search_count; ++k) {
        wf_path_search s;
        read_search(v->searches + (size_t)k * SEARCH_RECORD, &s);
        if (s.agent == WF_PATH_QUEUE_NONE) {
            continue;
        }
        uint32_t pos;
        if (s.agent >= c->max_agents) {
            return false;
        }
        GET(pos, v->queue[QA_HEAP_POS], s.agent);
        if (s.status != WF_IN_PROGRESS || s.agent_id == 0 ||
            wf_id_pool_id_at(ids, s.agent) != s.agent_id || pos != WF_PATH_QUEUE_NONE ||
            s.begin_start.bits == 0 || s.begin_end.bits == 0 || !finite3(s.begin_start_pos) ||
            !finite3(s.begin_end_pos)) {
            return false;
        }
        if (!wf_crowd_filter_is_valid(&s.begin_filter)) {
            return false;
        }
        for (uint32_t j = 0; j < k; ++j) {
            if (wf_bytes_get_u32(v->searches + (size_t)j * SEARCH_RECORD) == s.agent) {
                return false;
            }
        }
    }
    return true;
}

static wf_status check_body(wf_crowd* c, const blob_view* v) {
    if (v->movers != NULL) {
        wf_status ms = wf_movers_check(&c->movers, v->movers, v->movers_size);
        if (ms != WF_OK) {
            return ms;
        }
    }
    uint64_t time_bits = wf_bytes_get_u64(v->scalars);
    double time;
    memcpy(&time, &time_bits, sizeof time);
    if (!isfinite(time) || time < 0.0 || wf_bytes_get_u32(v->scalars + 20) > 1u) {
        return WF_ERR_BAD_DATA;
    }
    // The id pool goes into a copy whose slots live in the crowd's scratch
    // arrays (same count and size), so wf_id_pool_load checks it without
    // touching the real pool; its answers then vet the agents.
    wf_id_pool ids = c->ids;
    ids.slots = c->scratch_agents;
    ids.next_free = (uint32_t*)(void*)c->half_height;
    scratch_block block;
    ids.allocator = scratch_allocator(c, &block);
    wf_status st = wf_id_pool_load(&ids, v->ids, v->ids_size);
    if (st != WF_OK) {
        return st == WF_ERR_VERSION ? WF_ERR_VERSION : WF_ERR_BAD_DATA;
    }
    if (wf_id_pool_save_size(&ids) != v->ids_size) {
        return WF_ERR_BAD_DATA; // saved with fewer slots
    }
    for (uint32_t i = 0; i < c->max_agents; ++i) {
        if (!check_agent(c, v, i, wf_id_pool_id_at(&ids, i) != 0)) {
            return WF_ERR_BAD_DATA;
        }
    }
    if (!check_queue(c, v, &ids) || !check_searches(c, v, &ids)) {
        return WF_ERR_BAD_DATA;
    }
    // Crowding factors are at least 1 (a lookup clamps others, but a save
    // that holds them was not written by a crowd).
    for (uint32_t k = 0; k < c->crowding_capacity; ++k) {
        uint64_t key;
        float scale;
        GET(key, v->array[AR_crowding_keys], k);
        GET(scale, v->array[AR_crowding_scale], k);
        if (key != 0 && !(scale >= 1.0f && isfinite(scale))) {
            return WF_ERR_BAD_DATA;
        }
    }
    return WF_OK;
}

/// Writes a checked blob into the crowd; nothing here can fail.
static void commit(wf_crowd* c, const blob_view* v) {
    uint64_t time_bits = wf_bytes_get_u64(v->scalars);
    memcpy(&c->time, &time_bits, sizeof c->time);
    c->frame = wf_bytes_get_u32(v->scalars + 8);
    c->next_request_seq = wf_bytes_get_u64(v->scalars + 12);
    c->tiles_changed = wf_bytes_get_u32(v->scalars + 20) != 0;

    // The same bytes passed in check_body: this load succeeds.
    wf_allocator own = c->ids.allocator;
    scratch_block block;
    c->ids.allocator = scratch_allocator(c, &block);
    wf_status st = wf_id_pool_load(&c->ids, v->ids, v->ids_size);
    c->ids.allocator = own;
    WF_ASSERT(st == WF_OK);
    (void)st;

    span a[AR_COUNT];
    saved_arrays(c, a);
    // Ids for the mesh as it is now (a world restore swaps in a mesh that
    // may have other tile slots).
    wf_ref_codec_init(&c->codec, c->mesh);
    for (uint32_t k = 0; k < AR_COUNT; ++k) {
        if (a[k].as_refs) {
            uint32_t* ids = a[k].data;
            for (size_t e = 0; e < a[k].size / sizeof(wf_poly_ref); ++e) {
                wf_poly_ref r;
                memcpy(&r, v->array[k] + e * sizeof r, sizeof r);
                ids[e] = wf_ref_codec_encode(&c->codec, r);
            }
        } else {
            memcpy(a[k].data, v->array[k], a[k].size);
        }
    }
    for (uint32_t i = 0; i < c->max_agents; ++i) {
        wf_corridor* cor = &c->corridor[i];
        wf_vec3 pos, target;
        uint32_t count;
        get_corridor(v, i, &count, &pos, &target);
        wf_corridor_init(cor, c->corridor_ids + (size_t)i * c->max_corridor, c->max_corridor,
                         &c->codec);
        cor->pos = pos;
        cor->target = target;
        wf_corridor_sync(cor, count);
    }
    // Code and user pointers are the caller's to set again.
#define CLEAR_CODE(name, type, count, keep, check) CLEAR_CODE_##keep(name, type, count)
#define CLEAR_CODE_CODE(name, type, count) memset(c->name, 0, (size_t)(count) * sizeof(type));
#define CLEAR_CODE_SAVED(name, type, count)
#define CLEAR_CODE_VIEW(name, type, count)
#define CLEAR_CODE_REFS(name, type, count)
#define CLEAR_CODE_SCRATCH(name, type, count)
    size_t n = c->max_agents;
    WF_CROWD_AGENT_FIELDS(CLEAR_CODE)
#undef CLEAR_CODE
    memset(c->event_log, 0, sizeof(uint32_t) * c->max_agents);
    c->event_count = 0;

    span q[QA_COUNT];
    queue_arrays(c, q);
    for (uint32_t k = 0; k < QA_COUNT; ++k) {
        memcpy(q[k].data, v->queue[k], q[k].size);
    }
    c->queue.count = wf_bytes_get_u32(v->scalars + 24);
    for (uint32_t k = 0; k < c->queue.search_count; ++k) {
        wf_path_search* s = &c->queue.searches[k];
        read_search(v->searches + (size_t)k * SEARCH_RECORD, s);
        memset(&s->result, 0, sizeof s->result);
    }
    if (v->movers != NULL) {
        wf_movers_load(&c->movers, v->movers);
    } else {
        wf_movers_clear(&c->movers);
    }
}

wf_status wf_crowd_restore(wf_crowd* c, const void* data, size_t size) {
    WF_CHECK_ARG(c != NULL && (data != NULL || size == 0));
    WF_CHECK_OR(!c->busy, WF_ERR_BUSY);
    blob_view v;
    wf_status st = check_header(c, data, size, &v);
    if (st == WF_OK) {
        st = check_body(c, &v);
    }
    if (st != WF_OK) {
        return st;
    }
    commit(c, &v);
    wf_crowd_replay_searches(c);
    return WF_OK;
}

wf_status wf_crowd_set_callbacks(wf_crowd* c, wf_agent_id id, const wf_move_callbacks* callbacks,
                                 void* user) {
    WF_CHECK_ARG(c != NULL);
    WF_CHECK_OR(!c->busy, WF_ERR_BUSY);
    uint32_t i;
    wf_status st = wf_id_pool_find(&c->ids, id.bits, &i);
    if (st != WF_OK) {
        return st;
    }
    if (callbacks != NULL) {
        c->callbacks[i] = *callbacks;
    } else {
        memset(&c->callbacks[i], 0, sizeof c->callbacks[i]);
    }
    c->callback_user[i] = user;
    return WF_OK;
}
