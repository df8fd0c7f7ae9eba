// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Read-only views of the mesh for renderers and tools: a polygon's edges
// and what lies across each. Navigation never needs these; they read the
// same blob fields the queries do, so what is drawn is what is searched.
#include <string.h>

#include "navcore/check.h"
#include "navcore/mesh_internal.h"

/// Fills one edge of polygon p (index e) from its stored neighbour and links.
static void describe_edge(const wf_mesh* mesh, const wf_mesh_tile* t, const wf_tile_poly* p,
                          uint32_t e, wf_poly_edge* out) {
    uint32_t next = e + 1u < p->vert_count ? e + 1u : 0u;
    memset(out, 0, sizeof *out); // padding too: edges compare and hash bytewise
    out->start = wf_tile_vertex(t, p->verts[e]);
    out->end = wf_tile_vertex(t, p->verts[next]);
    out->side = 0xffu;
    uint16_t nei = p->neighbours[e];
    if (nei != 0u && !(nei & WF_PORTAL_EDGE)) {
        out->kind = WF_EDGE_INTERNAL;
        out->neighbour_count = 1;
        wf_poly_ref base = wf_mesh_tile_base(mesh, t);
        out->neighbour.bits = base.bits | (uint64_t)(nei - 1u);
        return;
    }
    // A border edge, or a wall another layer may be seamed to: its links
    // (made when the other tile was added) say what is across now.
    for (uint32_t k = t->first_link[wf_tile_poly_index(t, p)]; k != WF_NULL_LINK;
         k = t->links[k].next) {
        const wf_tile_link* l = &t->links[k];
        if (l->edge != e) {
            continue;
        }
        if (out->neighbour_count++ == 0u) {
            out->neighbour.bits = l->ref;
        }
    }
    if (nei == 0u) {
        out->kind = out->neighbour_count > 0u ? WF_EDGE_LAYER_SEAM : WF_EDGE_WALL;
        return;
    }
    out->side = (uint8_t)(nei & 0xffu);
    out->kind = out->neighbour_count > 0u ? WF_EDGE_TILE_PORTAL : WF_EDGE_UNLINKED_PORTAL;
}

wf_status wf_mesh_get_poly_edges(const wf_mesh* mesh, wf_poly_ref ref, wf_poly_edge* out,
                                 uint32_t max, uint32_t* out_count) {
    WF_CHECK_ARG(mesh != NULL && out_count != NULL && (out != NULL || max == 0u));
    const wf_mesh_tile* t;
    const wf_tile_poly* p;
    wf_status s = wf_mesh_resolve(mesh, ref, &t, &p);
    if (s != WF_OK) {
        return s;
    }
    if (wf_poly_type(p) == WF_POLY_TYPE_OFFMESH) {
        return WF_ERR_WRONG_KIND;
    }
    uint32_t count = p->vert_count;
    uint32_t written = count < max ? count : max;
    for (uint32_t e = 0; e < written; ++e) {
        describe_edge(mesh, t, p, e, &out[e]);
    }
    *out_count = count;
    return written == count ? WF_OK : WF_ERR_CAPACITY;
}
