// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Crowd save and restore: the whole state as one checksummed blob; path
// searches in progress are replayed on load, since a query's A* state is
// not data.
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "crowd/crowd_internal.h"
#include "navcore/bytes.h"
#include "navcore/check.h"
#include "navcore/hash.h"

/*
 * Format, version 2 (1 also saved a derivable stuck distance). Header words and the scalar, queue count and search
 * sections are little-endian (navcore/bytes.h); the agent and queue arrays
 * are the host's raw bytes, which is why the blob is for the same build on
 * the same kind of machine: the layout words (byte order mark, struct sizes)
 * reject any other with WF_ERR_VERSION.
 *
 *   header, HEADER_SIZE bytes:
 *      0  magic "WFCR"                 4  version
 *      8  total size (u64)            16  checksum (u64)
 *     24  layout, 8 x u32: byte order mark (host order), sizeof
 *         wf_agent_params, wf_crowd_result, wf_straight_point,
 *         wf_crowd_offmesh, wf_vec3, WF_CROWD_MAX_CORNERS,
 *         WF_LOCAL_BOUNDARY_MAX_POLYS
 *     56  capacities, 9 x u32: max_agents, max_corridor, max_neighbours,
 *         max_walls, queue capacity, searches, nodes per search, filters,
 *         avoidance presets (all must equal the loading crowd's)
 *     92  section count (SECTION_COUNT)
 *     96  section sizes, SECTION_COUNT x u64
 *   sections, in this order:
 *     scalars   time (f64 bits), frame, next request sequence number,
 *               tiles_changed, queue count
 *     ids       the id pool, as wf_id_pool_save writes it
 *     agents    each SAVED array of agent_fields.h whole (every slot, live
 *               or not) in the table's order, then per agent its corridor's count,
 *               pos and target (the polys pointer is rebuilt, not saved)
 *     queue     heap (queue capacity), key and heap_pos (max_agents), raw
 *     searches  per search slot, SEARCH_RECORD bytes: agent, agent id,
 *               budget, used, status, expansions since begin, then the
 *               begin's start and end refs, positions and filter (with
 *               its path mode)
 *
 * Checksum: 64-bit FNV-1a (offset 14695981039346656037, prime
 * 1099511628211) over every byte of the blob with the checksum field read as
 * zeros, so any damaged byte, header included, gives WF_ERR_BAD_DATA before
 * the version is looked at.
 *
 * Searches in progress are restored by replay (wf_query_begin_path with
 * the recorded arguments, then as many expansions as were done), so the
 * restored crowd matches the saved one bit for bit when the mesh is the
 * same as when those searches began. A search that ran across a mesh
 * change (flags or tiles changed while it ran) replays over the mesh as it
 * is now; a search the mesh cannot replay at all (refs stale: not the
 * saved mesh) is dropped and its agent queued again.
 *
 * Not saved: callbacks and their user pointers (code: NULL after a load,
 * see wf_crowd_set_callbacks), the last update's events (none after a
 * load), and what every update rebuilds before reading it (worker queries
 * and buffers, the proximity grid, per-update agent lists and events).
 */

#define MAGIC 0x52434657u // "WFCR"
#define VERSION 4u
#define BYTE_ORDER_MARK 0x01020304u
#define SECTION_COUNT 5u
#define LAYOUT_WORDS 8u
#define CAPACITY_WORDS 9u
#define OFF_SIZE 8u
#define OFF_CHECKSUM 16u
#define OFF_LAYOUT 24u
#define OFF_CAPACITIES (OFF_LAYOUT + 4u * LAYOUT_WORDS)
#define OFF_SECTION_COUNT (OFF_CAPACITIES + 4u * CAPACITY_WORDS)
#define OFF_SECTIONS (OFF_SECTION_COUNT + 4u)
#define HEADER_SIZE (OFF_SECTIONS + 8u * SECTION_COUNT)

enum { SEC_SCALARS, SEC_IDS, SEC_AGENTS, SEC_QUEUE, SEC_SEARCHES };

#define SCALARS_SIZE 28u // time 8, frame 4, sequence 8, tiles_changed 4, queue count 4
#define CORRIDOR_RECORD (4u + 2u * sizeof(wf_vec3))
// Search record: agent 0, id 4, budget 12, used 16, status 20, expansions
// 24, start ref 32, end ref 40, start pos 48, end pos 60, filter 72
// (area costs, then include | exclude << 16, then the path mode).
#define SEARCH_FILTER_AT 72u
#define SEARCH_MODE_AT (SEARCH_FILTER_AT + 4u * WF_MAX_AREAS + 4u)
#define SEARCH_RECORD (SEARCH_MODE_AT + 4u)

/// Every flag crowd_internal.h defines (a load rejects others).
#define AGENT_FLAGS_ALL                                                                            \
    (AGENT_NEEDS_QUICK | AGENT_NEEDS_REPLAN | AGENT_QUEUED | AGENT_NOTIFY_RESULT |                \
     AGENT_NOTIFY_BLOCKED | AGENT_NOTIFY_DONE | AGENT_IS_REPLAN | AGENT_FOLLOW |                   \
     AGENT_DONE_SENT | AGENT_WANTS_OFFMESH | AGENT_WAITS_OFFMESH | AGENT_STUCK_REPLANNED |        \
     AGENT_CONTINUE_BLOCKED | AGENT_STOPPED_SHORT)

/* ---------------------------------------------------------------------------
 * What is saved
 */

/// The per-agent arrays saved as raw bytes: agent_fields.h's SAVED fields,
/// in its order. Each has an index AR_<field> (the field's own name, so the
/// table stays the one list).
#define AR_INDEX(name, type, count, keep, check) AR_INDEX_##keep(name)
#define AR_INDEX_SAVED(name) AR_##name,
#define AR_INDEX_VIEW(name)
#define AR_INDEX_CODE(name)
#define AR_INDEX_SCRATCH(name)
enum { WF_CROWD_AGENT_FIELDS(AR_INDEX) AR_COUNT };
#undef AR_INDEX

typedef struct span {
    void* data;
    size_t size;
} span;

#define AR_SPAN(name, type, count, keep, check) AR_SPAN_##keep(name, type, count)
#define AR_SPAN_SAVED(name, type, count)                                                          \
    out[AR_##name] = (span){(void*)c->name, (size_t)(count) * sizeof(type)};
#define AR_SPAN_VIEW(name, type, count)
#define AR_SPAN_CODE(name, type, count)
#define AR_SPAN_SCRATCH(name, type, count)

/// Saved by role, not address: pos and displaced swap buffers every update.
static void saved_arrays(const wf_crowd* c, span out[AR_COUNT]) {
    size_t n = c->max_agents;
    WF_CROWD_AGENT_FIELDS(AR_SPAN)
}
#undef AR_SPAN

enum { QA_HEAP, QA_KEY, QA_HEAP_POS, QA_COUNT };

static void queue_arrays(const wf_crowd* c, span out[QA_COUNT]) {
    const wf_path_queue* q = &c->queue;
    out[QA_HEAP] = (span){(void*)q->heap, (size_t)q->capacity * sizeof *q->heap};
    out[QA_KEY] = (span){(void*)q->key, (size_t)q->max_agents * sizeof *q->key};
    out[QA_HEAP_POS] = (span){(void*)q->heap_pos, (size_t)q->max_agents * sizeof *q->heap_pos};
}

static size_t spans_size(const span* s, uint32_t count) {
    size_t n = 0;
    for (uint32_t i = 0; i < count; ++i) {
        n += s[i].size;
    }
    return n;
}

/// Section sizes of this crowd (the ids section: its pool's current size).
static void section_sizes(const wf_crowd* c, uint64_t out[SECTION_COUNT]) {
    span a[AR_COUNT], q[QA_COUNT];
    saved_arrays(c, a);
    queue_arrays(c, q);
    out[SEC_SCALARS] = SCALARS_SIZE;
    out[SEC_IDS] = wf_id_pool_save_size(&c->ids);
    out[SEC_AGENTS] = spans_size(a, AR_COUNT) + (size_t)c->max_agents * CORRIDOR_RECORD;
    out[SEC_QUEUE] = spans_size(q, QA_COUNT);
    out[SEC_SEARCHES] = (uint64_t)c->queue.search_count * SEARCH_RECORD;
}

static void layout_words(uint32_t out[LAYOUT_WORDS]) {
    uint32_t mark = BYTE_ORDER_MARK;
    unsigned char raw[4];
    memcpy(raw, &mark, 4); // stored in host order: another byte order reads it differently
    out[0] = wf_bytes_get_u32(raw);
    out[1] = (uint32_t)sizeof(wf_agent_params);
    out[2] = (uint32_t)sizeof(wf_crowd_result);
    out[3] = (uint32_t)sizeof(wf_straight_point);
    out[4] = (uint32_t)sizeof(wf_crowd_offmesh);
    out[5] = (uint32_t)sizeof(wf_vec3);
    out[6] = WF_CROWD_MAX_CORNERS;
    out[7] = WF_LOCAL_BOUNDARY_MAX_POLYS;
}

static void capacity_words(const wf_crowd* c, uint32_t out[CAPACITY_WORDS]) {
    out[0] = c->max_agents;
    out[1] = c->max_corridor;
    out[2] = c->max_neighbours;
    out[3] = c->max_walls;
    out[4] = c->queue.capacity;
    out[5] = c->queue.search_count;
    out[6] = c->queue.max_nodes;
    out[7] = c->filter_count;
    out[8] = c->preset_count;
}

/// The blob's checksum: its bytes with the checksum field as zeros.
static uint64_t blob_checksum(const unsigned char* p, size_t n) {
    return wf_fnv1a64_zeroed(p, n, OFF_CHECKSUM, 8u);
}

/* ---------------------------------------------------------------------------
 * Save
 */

wf_status wf_crowd_save_size(const wf_crowd* c, size_t* out_size) {
    WF_CHECK_ARG(c != NULL && out_size != NULL);
    *out_size = 0;
    WF_CHECK_OR(!c->busy, WF_ERR_BUSY);
    uint64_t sizes[SECTION_COUNT];
    section_sizes(c, sizes);
    size_t n = HEADER_SIZE;
    for (uint32_t k = 0; k < SECTION_COUNT; ++k) {
        n += (size_t)sizes[k];
    }
    *out_size = n;
    return WF_OK;
}

static void put_vec3(unsigned char* p, wf_vec3 v) {
    wf_bytes_put_f32(p, v.x);
    wf_bytes_put_f32(p + 4, v.y);
    wf_bytes_put_f32(p + 8, v.z);
}

static wf_vec3 get_vec3(const unsigned char* p) {
    return wf_v3(wf_bytes_get_f32(p), wf_bytes_get_f32(p + 4), wf_bytes_get_f32(p + 8));
}

static void write_search(const wf_path_search* s, unsigned char* p) {
    wf_bytes_put_u32(p + 0, s->agent);
    wf_bytes_put_u64(p + 4, s->agent_id);
    wf_bytes_put_u32(p + 12, s->budget);
    wf_bytes_put_u32(p + 16, s->used);
    wf_bytes_put_u32(p + 20, (uint32_t)(int32_t)s->status);
    wf_bytes_put_u64(p + 24, s->iterations);
    wf_bytes_put_u64(p + 32, s->begin_start.bits);
    wf_bytes_put_u64(p + 40, s->begin_end.bits);
    put_vec3(p + 48, s->begin_start_pos);
    put_vec3(p + 60, s->begin_end_pos);
    for (uint32_t a = 0; a < WF_MAX_AREAS; ++a) {
        wf_bytes_put_f32(p + SEARCH_FILTER_AT + 4u * a, s->begin_filter.area_cost[a]);
    }
    wf_bytes_put_u32(p + SEARCH_FILTER_AT + 4u * WF_MAX_AREAS,
                     (uint32_t)s->begin_filter.include_flags |
                         ((uint32_t)s->begin_filter.exclude_flags << 16));
    wf_bytes_put_u32(p + SEARCH_MODE_AT, s->begin_filter.path_mode);
}

/// Struct padding of the records saved raw holds whatever the stack had
/// when a record was assigned (compound literals, the caller's params): it
/// is zeroed in the blob, field by field, so the same state always saves to
/// the same bytes (found by the fuzz corpus generator: two runs saved
/// different corners).
#define KEEP_FIELD(type, field)                                                                    \
    memcpy(clean + offsetof(type, field), rec + offsetof(type, field), sizeof(((type*)0)->field))
static void clear_padding(uint32_t array, unsigned char* p, size_t size) {
    unsigned char clean[sizeof(wf_agent_params) + sizeof(wf_crowd_result) +
                        sizeof(wf_straight_point)];
    size_t stride = array == AR_params   ? sizeof(wf_agent_params)
                    : array == AR_result ? sizeof(wf_crowd_result)
                    : array == AR_corners ? sizeof(wf_straight_point)
                                          : 0;
    for (size_t at = 0; stride != 0 && at + stride <= size; at += stride) {
        const unsigned char* rec = p + at;
        memset(clean, 0, stride);
        if (array == AR_params) {
            KEEP_FIELD(wf_agent_params, radius);
            KEEP_FIELD(wf_agent_params, height);
            KEEP_FIELD(wf_agent_params, max_speed);
            KEEP_FIELD(wf_agent_params, max_acceleration);
            KEEP_FIELD(wf_agent_params, collision_query_range);
            KEEP_FIELD(wf_agent_params, path_optimization_range);
            KEEP_FIELD(wf_agent_params, separation_weight);
            KEEP_FIELD(wf_agent_params, update_flags);
            KEEP_FIELD(wf_agent_params, avoidance_preset);
            KEEP_FIELD(wf_agent_params, filter);
            KEEP_FIELD(wf_agent_params, priority);
            KEEP_FIELD(wf_agent_params, user_data);
        } else if (array == AR_result) {
            KEEP_FIELD(wf_crowd_result, corridor_count);
            KEEP_FIELD(wf_crowd_result, partial);
            KEEP_FIELD(wf_crowd_result, cost);
            KEEP_FIELD(wf_crowd_result, wait);
        } else {
            KEEP_FIELD(wf_straight_point, pos);
            KEEP_FIELD(wf_straight_point, ref);
            KEEP_FIELD(wf_straight_point, flags);
        }
        memcpy(p + at, clean, stride);
    }
}
#undef KEEP_FIELD

wf_status wf_crowd_save(const wf_crowd* c, void* out, size_t size) {
    WF_CHECK_ARG(c != NULL && out != NULL);
    WF_CHECK_OR(!c->busy, WF_ERR_BUSY);
    size_t need;
    wf_status st = wf_crowd_save_size(c, &need);
    if (st != WF_OK) {
        return st;
    }
    if (size < need) {
        return WF_ERR_CAPACITY;
    }
    unsigned char* o = out;
    memset(o, 0, need);
    uint64_t sizes[SECTION_COUNT];
    section_sizes(c, sizes);
    uint32_t layout[LAYOUT_WORDS], caps[CAPACITY_WORDS];
    layout_words(layout);
    capacity_words(c, caps);
    wf_bytes_put_u32(o, MAGIC);
    wf_bytes_put_u32(o + 4, VERSION);
    wf_bytes_put_u64(o + OFF_SIZE, need);
    for (uint32_t k = 0; k < LAYOUT_WORDS; ++k) {
        wf_bytes_put_u32(o + OFF_LAYOUT + 4u * k, layout[k]);
    }
    for (uint32_t k = 0; k < CAPACITY_WORDS; ++k) {
        wf_bytes_put_u32(o + OFF_CAPACITIES + 4u * k, caps[k]);
    }
    wf_bytes_put_u32(o + OFF_SECTION_COUNT, SECTION_COUNT);
    for (uint32_t k = 0; k < SECTION_COUNT; ++k) {
        wf_bytes_put_u64(o + OFF_SECTIONS + 8u * k, sizes[k]);
    }
    unsigned char* p = o + HEADER_SIZE;

    uint64_t time_bits;
    memcpy(&time_bits, &c->time, sizeof time_bits);
    wf_bytes_put_u64(p, time_bits);
    wf_bytes_put_u32(p + 8, c->frame);
    wf_bytes_put_u64(p + 12, c->next_request_seq);
    wf_bytes_put_u32(p + 20, c->tiles_changed ? 1u : 0u);
    wf_bytes_put_u32(p + 24, c->queue.count);
    p += SCALARS_SIZE;

    wf_id_pool_save(&c->ids, p);
    p += sizes[SEC_IDS];

    span a[AR_COUNT];
    saved_arrays(c, a);
    for (uint32_t k = 0; k < AR_COUNT; ++k) {
        memcpy(p, a[k].data, a[k].size);
        clear_padding(k, p, a[k].size);
        p += a[k].size;
    }
    for (uint32_t i = 0; i < c->max_agents; ++i, p += CORRIDOR_RECORD) {
        const wf_corridor* cor = &c->corridor[i];
        memcpy(p, &cor->count, 4);
        memcpy(p + 4, &cor->pos, sizeof(wf_vec3));
        memcpy(p + 4 + sizeof(wf_vec3), &cor->target, sizeof(wf_vec3));
    }

    span q[QA_COUNT];
    queue_arrays(c, q);
    for (uint32_t k = 0; k < QA_COUNT; ++k) {
        memcpy(p, q[k].data, q[k].size);
        p += q[k].size;
    }
    for (uint32_t k = 0; k < c->queue.search_count; ++k, p += SEARCH_RECORD) {
        write_search(&c->queue.searches[k], p);
    }
    WF_ASSERT((size_t)(p - o) == need);
    wf_bytes_put_u64(o + OFF_CHECKSUM, blob_checksum(o, need));
    return WF_OK;
}

/* ---------------------------------------------------------------------------
 * Load: everything is checked before anything is written
 */

/// Where the sections and arrays lie in a blob that passed the header checks.
typedef struct blob_view {
    const unsigned char* scalars;
    const unsigned char* ids;
    size_t ids_size;
    const unsigned char* array[AR_COUNT];
    const unsigned char* corridors;
    const unsigned char* queue[QA_COUNT];
    const unsigned char* searches;
} blob_view;

/// Element i of a raw array in the blob (which may be unaligned).
#define GET(var, base, i) memcpy(&(var), (base) + (size_t)(i) * sizeof(var), sizeof(var))

static wf_status check_header(const wf_crowd* c, const unsigned char* in, size_t size,
                              blob_view* v) {
    if (size < HEADER_SIZE || wf_bytes_get_u32(in) != MAGIC ||
        wf_bytes_get_u64(in + OFF_SIZE) != (uint64_t)size ||
        wf_bytes_get_u64(in + OFF_CHECKSUM) != blob_checksum(in, size)) {
        return WF_ERR_BAD_DATA;
    }
    if (wf_bytes_get_u32(in + 4) != VERSION ||
        wf_bytes_get_u32(in + OFF_SECTION_COUNT) != SECTION_COUNT) {
        return WF_ERR_VERSION;
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
    uint64_t total = HEADER_SIZE;
    for (uint32_t k = 0; k < SECTION_COUNT; ++k) {
        uint64_t got = wf_bytes_get_u64(in + OFF_SECTIONS + 8u * k);
        if ((k != SEC_IDS && got != want[k]) || got > size) {
            return WF_ERR_BAD_DATA;
        }
        want[k] = got;
        total += got;
    }
    if (total != size) {
        return WF_ERR_BAD_DATA;
    }
    const unsigned char* p = in + HEADER_SIZE;
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
    b->data = c->agent_events;
    b->size = (size_t)c->max_agents * WF_CROWD_EVENTS_PER_AGENT * sizeof(wf_crowd_event);
    b->taken = false;
    return (wf_allocator){.alloc = scratch_alloc, .free = scratch_free, .user = b};
}

static bool finite3(wf_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }
static bool finite_f32(float x) { return isfinite(x); }
static bool finite_f64(double x) { return isfinite(x); }
static bool nan3(wf_vec3 v) { return isnan(v.x) || isnan(v.y) || isnan(v.z); }
#define FINITE(x) _Generic((x), float: finite_f32, double: finite_f64, wf_vec3: finite3)(x)
#define HAS_NAN(x) _Generic((x), wf_vec3: nan3)(x)

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
    if (active != (live ? 1u : 0u) || count > c->max_corridor ||
        corners > WF_CROWD_MAX_CORNERS || neighbours > c->max_neighbours ||
        walls > c->max_walls || bpolys > WF_LOCAL_BOUNDARY_MAX_POLYS) {
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
    for (uint32_t k = 0; k < count; ++k) {
        wf_poly_ref ref;
        GET(ref, v->array[AR_corridor_polys], (size_t)i * c->max_corridor + k);
        if (ref.bits == 0) {
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

/// Runs a search again from its begin for as many expansions as it had
/// done; false when the mesh answers differently (not the saved one).
static bool replay_search(wf_path_search* s) {
    if (wf_query_begin_path(s->query, s->begin_start, s->begin_end, s->begin_start_pos,
                            s->begin_end_pos, &s->begin_filter) != WF_OK) {
        return false;
    }
    uint64_t left = s->iterations;
    wf_status st = WF_IN_PROGRESS;
    do {
        uint32_t step = left > UINT32_MAX ? UINT32_MAX : (uint32_t)left;
        uint32_t used = 0;
        st = wf_query_update_path(s->query, step, &used);
        if (used != step) {
            return false;
        }
        left -= step;
    } while (left > 0 && st == WF_IN_PROGRESS);
    return st == WF_IN_PROGRESS;
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
    for (uint32_t k = 0; k < AR_COUNT; ++k) {
        memcpy(a[k].data, v->array[k], a[k].size);
    }
    for (uint32_t i = 0; i < c->max_agents; ++i) {
        wf_corridor* cor = &c->corridor[i];
        get_corridor(v, i, &cor->count, &cor->pos, &cor->target);
        cor->polys = c->corridor_polys + (size_t)i * c->max_corridor;
        cor->capacity = c->max_corridor;
    }
    // Code and user pointers are the caller's to set again.
#define CLEAR_CODE(name, type, count, keep, check) CLEAR_CODE_##keep(name, type, count)
#define CLEAR_CODE_CODE(name, type, count) memset(c->name, 0, (size_t)(count) * sizeof(type));
#define CLEAR_CODE_SAVED(name, type, count)
#define CLEAR_CODE_VIEW(name, type, count)
#define CLEAR_CODE_SCRATCH(name, type, count)
    size_t n = c->max_agents;
    WF_CROWD_AGENT_FIELDS(CLEAR_CODE)
#undef CLEAR_CODE
    memset(c->agent_event_count, 0, c->max_agents);
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
}

/// Searches in progress continue where they were: replayed on their own
/// queries. One the mesh answers differently for (it is not the saved
/// mesh) is dropped and its agent asks again, as when the mesh changes
/// under a running search.
static void replay_searches(wf_crowd* c) {
    wf_path_queue* q = &c->queue;
    for (uint32_t k = 0; k < q->search_count; ++k) {
        wf_path_search* s = &q->searches[k];
        if (s->agent == WF_PATH_QUEUE_NONE || replay_search(s)) {
            continue;
        }
        uint32_t i = s->agent;
        uint32_t budget = s->budget;
        wf_path_queue_drop_search(q, k);
        s->budget = budget;
        c->tiles_changed = true; // the mesh differs: check whole corridors
        if (wf_path_queue_push(q, i, q->key[i])) {
            c->agent_flags[i] |= AGENT_QUEUED | AGENT_NEEDS_QUICK;
        } else {
            // Queue full: the replan step queues it when there is room.
            c->agent_flags[i] &= ~(uint32_t)AGENT_QUEUED;
            c->agent_flags[i] |= AGENT_NEEDS_REPLAN;
        }
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
    replay_searches(c);
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
