// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Crowd save: the whole state as one checksummed blob (layout in
// crowd_blob.h; crowd_restore.c reads it back).
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "crowd/crowd_blob.h"
#include "navcore/check.h"

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
    unsigned char
        clean[sizeof(wf_agent_params) + sizeof(wf_crowd_result) + sizeof(wf_straight_point)];
    size_t stride = array == AR_params    ? sizeof(wf_agent_params)
                    : array == AR_result  ? sizeof(wf_crowd_result)
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
        if (a[k].as_refs) {
            const uint32_t* ids = a[k].data;
            for (size_t e = 0; e < a[k].size / sizeof(wf_poly_ref); ++e) {
                wf_poly_ref r = wf_ref_codec_decode(&c->codec, ids[e]);
                memcpy(p + e * sizeof r, &r, sizeof r);
            }
        } else {
            memcpy(p, a[k].data, a[k].size);
            clear_padding(k, p, a[k].size);
        }
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
    wf_movers_save(&c->movers, p);
    p += sizes[SEC_MOVERS];
    WF_ASSERT((size_t)(p - o) == need);
    wf_bytes_put_u64(o + OFF_CHECKSUM, blob_checksum(o, need));
    return WF_OK;
}
