// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Pockets of a tile: ground polygons that can be left only back through
// one polygon (rooms behind a door, dead-end strips). A default path
// search does not step into a pocket that does not hold its goal: every
// way out of it comes back through the polygon it entered from.
#include "navcore/mesh_links.h"

/// Tiles with more ground polygons are not numbered (the work arrays live
/// on the stack; no pocket is then ever reported there).
#define POCKET_MAX_POLYS 1024u

/// A parent walk longer than this does not label a link into a pocket
/// (the link is relaxed as any other: only a missed shortcut).
#define POCKET_WALK_MAX 64u

#define NO_POLY 0xffffu

/// Index of a ground polygon of t that link `ref` reaches and that links
/// back to `from` (links inside a tile come in pairs; a one-way one is
/// treated as a way out), or NO_POLY.
static uint32_t paired_ground(const wf_mesh_tile* t, uint64_t base, uint32_t ground, uint64_t ref,
                              uint32_t from) {
    const uint64_t poly_mask = (1u << WF_POLY_REF_POLY_BITS) - 1u;
    if ((ref & ~poly_mask) != base || (uint32_t)(ref & poly_mask) >= ground) {
        return NO_POLY;
    }
    uint32_t w = (uint32_t)(ref & poly_mask);
    for (uint32_t k = t->first_link[w]; k != WF_NULL_LINK; k = t->links[k].next) {
        if (t->links[k].ref == (base | from)) {
            return w;
        }
    }
    return NO_POLY;
}

void wf_mesh_number_pockets(const wf_mesh* mesh, wf_mesh_tile* t) {
    const uint32_t count = t->header->poly_count;
    const uint32_t ground = count - t->header->offmesh_count;
    for (uint32_t p = 0; p < count; ++p) {
        for (uint32_t k = t->first_link[p]; k != WF_NULL_LINK; k = t->links[k].next) {
            wf_link_portal* lp = &t->link_portals[k];
            lp->pocket = 0;
            lp->number = 0;
            lp->pocket_size = 0;
        }
    }
    if (ground > POCKET_MAX_POLYS) {
        return;
    }
    const uint64_t base = wf_mesh_tile_base(mesh, t).bits;
    // Depth-first numbering from 1 (0: not numbered), over the paired links
    // between ground polygons; a polygon with any other link (another tile,
    // an off-mesh link, a one-way link) leads out: low 0.
    uint16_t number[POCKET_MAX_POLYS], low[POCKET_MAX_POLYS], parent[POCKET_MAX_POLYS],
        last[POCKET_MAX_POLYS];
    uint32_t at[POCKET_MAX_POLYS];
    for (uint32_t p = 0; p < ground; ++p) {
        number[p] = 0;
    }
    uint16_t next_number = 0;
    for (uint32_t root = 0; root < ground; ++root) {
        if (number[root] != 0) {
            continue;
        }
        number[root] = low[root] = ++next_number;
        parent[root] = NO_POLY;
        at[root] = t->first_link[root];
        uint32_t v = root;
        while (v != NO_POLY) {
            uint32_t k = at[v];
            if (k != WF_NULL_LINK) {
                at[v] = t->links[k].next;
                uint32_t w = paired_ground(t, base, ground, t->links[k].ref, v);
                if (w == NO_POLY) {
                    low[v] = 0;
                } else if (number[w] == 0) {
                    parent[w] = (uint16_t)v;
                    number[w] = low[w] = ++next_number;
                    at[w] = t->first_link[w];
                    v = w;
                } else if (w != parent[v] && number[w] < low[v]) {
                    low[v] = number[w];
                }
                continue;
            }
            last[v] = next_number; // v's subtree: [number[v], last[v]]
            uint32_t u = parent[v];
            if (u != NO_POLY && low[v] < low[u]) {
                low[u] = low[v];
            }
            v = u;
        }
    }
    // (Links to the parent are skipped above: one to it could only make
    // low the parent's number, which the pocket test below allows.)
    for (uint32_t p = 0; p < ground; ++p) {
        for (uint32_t k = t->first_link[p]; k != WF_NULL_LINK; k = t->links[k].next) {
            wf_link_portal* lp = &t->link_portals[k];
            lp->number = number[p];
            uint32_t w = paired_ground(t, base, ground, t->links[k].ref, p);
            if (w == NO_POLY || number[w] <= number[p]) {
                continue;
            }
            // w lies below p: the child c of p whose subtree holds it is a
            // pocket when nothing in that subtree leads above p.
            uint32_t c = w, steps = 0;
            while (parent[c] != p && parent[c] != NO_POLY && steps++ < POCKET_WALK_MAX) {
                c = parent[c];
            }
            if (parent[c] == p && low[c] >= number[p]) {
                lp->pocket = 1;
                lp->number = number[c];
                lp->pocket_size = (uint32_t)(last[c] - number[c] + 1u);
            }
        }
    }
}

uint32_t wf_mesh_pocket_number(const wf_mesh* mesh, wf_poly_ref ref) {
    const wf_mesh_tile* tile;
    const wf_tile_poly* poly;
    wf_mesh_resolve_unchecked(mesh, ref, &tile, &poly);
    for (uint32_t k = tile->first_link[wf_tile_poly_index(tile, poly)]; k != WF_NULL_LINK;
         k = tile->links[k].next) {
        if (tile->link_portals[k].pocket == 0) {
            return tile->link_portals[k].number;
        }
    }
    return 0;
}
