// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The crowd's debug views for renderers: an agent's neighbours as ids, and
// the avoidance candidates of one watched agent. The watch writes only the
// buffer sized at create, from the one worker that samples that agent, so
// results and the allocation count are the same with or without it.
#include <string.h>

#include "crowd/crowd_internal.h"
#include "navcore/check.h"

wf_status wf_crowd_get_agent_neighbours(const wf_crowd* c, wf_agent_id id, wf_agent_id* out,
                                        uint32_t max, uint32_t* out_count) {
    WF_CHECK_ARG(c != NULL && out_count != NULL && (out != NULL || max == 0u));
    uint32_t i;
    wf_status s = wf_id_pool_find(&c->ids, id.bits, &i);
    if (s != WF_OK) {
        return s;
    }
    const uint32_t* list = c->neighbours + (size_t)i * c->max_neighbours;
    uint32_t count = c->neighbour_count[i];
    uint32_t written = count < max ? count : max;
    for (uint32_t k = 0; k < written; ++k) {
        out[k].bits = wf_id_pool_id_at(&c->ids, list[k]);
    }
    *out_count = count;
    return written == count ? WF_OK : WF_ERR_CAPACITY;
}

wf_status wf_crowd_set_debug_agent(wf_crowd* c, wf_agent_id id) {
    WF_CHECK_ARG(c != NULL);
    WF_CHECK_OR(!c->busy, WF_ERR_BUSY);
    if (id.bits != 0u) {
        uint32_t i;
        wf_status s = wf_id_pool_find(&c->ids, id.bits, &i);
        if (s != WF_OK) {
            return s;
        }
    }
    c->debug_id = id.bits;
    c->debug_recorded = false;
    c->debug_sampled = false;
    c->debug_record.count = 0;
    c->debug_record.scored = 0;
    return WF_OK;
}

void wf_crowd_debug_begin_update(wf_crowd* c) {
    c->debug_slot = WF_CROWD_NO_DEBUG;
    c->debug_sampled = false;
    c->debug_record.count = 0;
    c->debug_record.scored = 0;
    c->debug_desired = wf_v3(0.0f, 0.0f, 0.0f);
    c->debug_chosen = wf_v3(0.0f, 0.0f, 0.0f);
    if (c->debug_id == 0u) {
        return;
    }
    uint32_t i;
    if (wf_id_pool_find(&c->ids, c->debug_id, &i) == WF_OK) {
        c->debug_slot = i;
    }
    c->debug_recorded = true;
}

wf_status wf_crowd_get_avoidance_debug(const wf_crowd* c, wf_avoidance_debug* out_info,
                                       wf_avoidance_candidate* out, uint32_t max,
                                       uint32_t* out_count) {
    WF_CHECK_ARG(c != NULL && out_info != NULL && out_count != NULL && (out != NULL || max == 0u));
    WF_CHECK_OR(!c->busy, WF_ERR_BUSY);
    if (c->debug_id == 0u || !c->debug_recorded) {
        return WF_ERR_NOT_FOUND;
    }
    uint32_t slot;
    wf_status s = wf_id_pool_find(&c->ids, c->debug_id, &slot);
    if (s != WF_OK) {
        return s;
    }
    wf_avoidance_debug info;
    memset(&info, 0, sizeof info);
    info.agent.bits = c->debug_id;
    info.sampled = c->debug_sampled;
    info.desired_velocity = c->debug_desired;
    info.chosen_velocity = c->debug_chosen;
    info.candidate_count = c->debug_record.count;
    *out_info = info;
    uint32_t count = c->debug_record.count;
    uint32_t written = count < max ? count : max;
    if (written > 0u) {
        memcpy(out, c->debug_record.candidates, sizeof *out * written);
    }
    *out_count = count;
    return written == count ? WF_OK : WF_ERR_CAPACITY;
}
