// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Tile slot generations for the crowd's corridor ids, and its run checks.
#include "navcore/mesh_slots.h"

#include "navcore/mesh_internal.h"

uint32_t wf_mesh_slot_count(const wf_mesh* mesh) { return mesh->max_tiles; }

uint32_t wf_mesh_slot_generation(const wf_mesh* mesh, uint32_t slot) {
    return slot < mesh->max_tiles ? mesh->tiles[slot].generation : 1u;
}

uint32_t wf_mesh_passing_run(const wf_mesh* mesh, const wf_poly_ref* refs, uint32_t n,
                             const wf_query_filter* filter) {
    // wf_mesh_resolve's tests inline, the filter's masks read once.
    const uint16_t include = filter != NULL ? filter->include_flags : 0u;
    const uint16_t exclude = filter != NULL ? filter->exclude_flags : 0u;
    for (uint32_t k = 0; k < n; ++k) {
        wf_poly_ref ref = refs[k];
        uint32_t slot = wf_poly_ref_tile(ref);
        if (ref.bits == 0 || slot >= mesh->max_tiles) {
            return k;
        }
        const wf_mesh_tile* t = &mesh->tiles[slot];
        uint32_t poly = wf_poly_ref_poly(ref);
        if (!t->in_use || t->generation != wf_poly_ref_generation(ref) ||
            poly >= t->header->poly_count) {
            return k;
        }
        uint16_t flags = t->poly_flags[poly];
        if (filter != NULL && ((flags & include) == 0 || (flags & exclude) != 0)) {
            return k;
        }
    }
    return n;
}
