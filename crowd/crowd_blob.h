// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The crowd save blob's layout, shared by the writer (crowd_save.c) and the
// loader (crowd_restore.c): offsets, sections and the arrays saved raw.
#ifndef WF_CROWD_BLOB_H
#define WF_CROWD_BLOB_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "crowd/crowd_internal.h"
#include "navcore/bytes.h"
#include "navcore/hash.h"

/*
 * Format, version VERSION below (1 also saved a derivable stuck distance;
 * 3 added the search's path mode, 4 the arrival rules' state, 5 the movers
 * section). Version 4 still loads (OLD_VERSION: five sections, no movers:
 * the crowd's movers are removed); older ones give WF_ERR_VERSION. Header words and
 * the scalar, queue count and search sections are little-endian (navcore/bytes.h); the agent and queue arrays
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
 *     movers    as wf_movers_save writes it (movers.h): max_movers (must
 *               equal the loading crowd's, else WF_ERR_CAPACITY), live
 *               count, then per slot generation, position, velocity,
 *               radius, height
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
#define VERSION 5u
#define OLD_VERSION 4u
#define BYTE_ORDER_MARK 0x01020304u
#define SECTION_COUNT 6u
#define OLD_SECTION_COUNT 5u
#define LAYOUT_WORDS 8u
#define CAPACITY_WORDS 9u
#define OFF_SIZE 8u
#define OFF_CHECKSUM 16u
#define OFF_LAYOUT 24u
#define OFF_CAPACITIES (OFF_LAYOUT + 4u * LAYOUT_WORDS)
#define OFF_SECTION_COUNT (OFF_CAPACITIES + 4u * CAPACITY_WORDS)
#define OFF_SECTIONS (OFF_SECTION_COUNT + 4u)
#define HEADER_SIZE (OFF_SECTIONS + 8u * SECTION_COUNT)
#define OLD_HEADER_SIZE (OFF_SECTIONS + 8u * OLD_SECTION_COUNT)

enum { SEC_SCALARS, SEC_IDS, SEC_AGENTS, SEC_QUEUE, SEC_SEARCHES, SEC_MOVERS };

#define SCALARS_SIZE 28u // time 8, frame 4, sequence 8, tiles_changed 4, queue count 4
#define CORRIDOR_RECORD (4u + 2u * sizeof(wf_vec3))
// Search record: agent 0, id 4, budget 12, used 16, status 20, expansions
// 24, start ref 32, end ref 40, start pos 48, end pos 60, filter 72
// (area costs, then include | exclude << 16, then the path mode).
#define SEARCH_FILTER_AT 72u
#define SEARCH_MODE_AT (SEARCH_FILTER_AT + 4u * WF_MAX_AREAS + 4u)
#define SEARCH_RECORD (SEARCH_MODE_AT + 4u)

/* ---------------------------------------------------------------------------
 * What is saved
 */

/// The per-agent arrays saved as raw bytes: agent_fields.h's SAVED fields,
/// in its order. Each has an index AR_<field> (the field's own name, so the
/// table stays the one list).
#define AR_INDEX(name, type, count, keep, check) AR_INDEX_##keep(name)
#define AR_INDEX_SAVED(name) AR_##name,
#define AR_INDEX_REFS(name) AR_##name,
#define AR_INDEX_VIEW(name)
#define AR_INDEX_CODE(name)
#define AR_INDEX_SCRATCH(name)
enum { WF_CROWD_AGENT_FIELDS(AR_INDEX) AR_COUNT };
#undef AR_INDEX

typedef struct span {
    void* data;
    size_t size;  ///< bytes in the blob
    bool as_refs; ///< data holds 32-bit ids, the blob their 64-bit refs
} span;

#define AR_SPAN(name, type, count, keep, check) AR_SPAN_##keep(name, type, count)
#define AR_SPAN_SAVED(name, type, count)                                                           \
    out[AR_##name] = (span){(void*)c->name, (size_t)(count) * sizeof(type), false};
#define AR_SPAN_REFS(name, type, count)                                                            \
    out[AR_##name] = (span){(void*)c->name, (size_t)(count) * sizeof(wf_poly_ref), true};
#define AR_SPAN_VIEW(name, type, count)
#define AR_SPAN_CODE(name, type, count)
#define AR_SPAN_SCRATCH(name, type, count)

/// Saved by role, not address: pos and displaced swap buffers every update.
static inline void saved_arrays(const wf_crowd* c, span out[AR_COUNT]) {
    size_t n = c->max_agents;
    WF_CROWD_AGENT_FIELDS(AR_SPAN)
}
#undef AR_SPAN

enum { QA_HEAP, QA_KEY, QA_HEAP_POS, QA_COUNT };

static inline void queue_arrays(const wf_crowd* c, span out[QA_COUNT]) {
    const wf_path_queue* q = &c->queue;
    out[QA_HEAP] = (span){(void*)q->heap, (size_t)q->capacity * sizeof *q->heap, false};
    out[QA_KEY] = (span){(void*)q->key, (size_t)q->max_agents * sizeof *q->key, false};
    out[QA_HEAP_POS] =
        (span){(void*)q->heap_pos, (size_t)q->max_agents * sizeof *q->heap_pos, false};
}

static inline size_t spans_size(const span* s, uint32_t count) {
    size_t n = 0;
    for (uint32_t i = 0; i < count; ++i) {
        n += s[i].size;
    }
    return n;
}

/// Section sizes of this crowd (the ids section: its pool's current size).
static inline void section_sizes(const wf_crowd* c, uint64_t out[SECTION_COUNT]) {
    span a[AR_COUNT], q[QA_COUNT];
    saved_arrays(c, a);
    queue_arrays(c, q);
    out[SEC_SCALARS] = SCALARS_SIZE;
    out[SEC_IDS] = wf_id_pool_save_size(&c->ids);
    out[SEC_AGENTS] = spans_size(a, AR_COUNT) + (size_t)c->max_agents * CORRIDOR_RECORD;
    out[SEC_QUEUE] = spans_size(q, QA_COUNT);
    out[SEC_SEARCHES] = (uint64_t)c->queue.search_count * SEARCH_RECORD;
    out[SEC_MOVERS] = wf_movers_save_size(&c->movers);
}

static inline void layout_words(uint32_t out[LAYOUT_WORDS]) {
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

static inline void capacity_words(const wf_crowd* c, uint32_t out[CAPACITY_WORDS]) {
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
static inline uint64_t blob_checksum(const unsigned char* p, size_t n) {
    return wf_fnv1a64_zeroed(p, n, OFF_CHECKSUM, 8u);
}

#endif
