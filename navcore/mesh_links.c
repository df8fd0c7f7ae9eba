// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The links that stitch a navmesh's polygons together: inside a tile,
// across tile borders (portals to side neighbours, seams between layers of
// one cell) and along off-mesh links; made when a tile is added, undone in
// its neighbours when it is removed (mesh.c places and frees the slots).
#include <math.h>
#include <string.h>

#include "navcore/geometry.h"
#include "navcore/mesh_links.h"

#define NOT_A_PORTAL 0xffu
/// Link side of a seam between two layers of one grid cell.
#define LAYER_SEAM 4u

// Links given back are reused first, then fresh ones in index order: the
// same order a free list chained 0, 1, 2, ... at add time gives, without
// writing every link of the tile when it is added.
static uint32_t alloc_link(wf_mesh_tile* t) {
    uint32_t k = t->link_free;
    if (k != WF_NULL_LINK) {
        t->link_free = t->links[k].next;
    } else if (t->link_fresh < t->header->max_link_count) {
        k = t->link_fresh++;
    } else {
        t->links_missing++;
    }
    return k;
}

/// Whether link l is walked before a new link to `to` over `edge` in a
/// polygon of the tile in slot `own`. A polygon's links are kept in this
/// order, a function of the links alone, not of when the tiles around were
/// added: a mesh loaded from a save (tiles linked in slot order) walks them
/// as the live one did, however its tiles were rebuilt, so searches break
/// ties alike and a restored crowd goes on as the saved one. The order is
/// the one tiles added once in slot order gave when links were pushed in
/// front: links into other tiles first, the higher slot first (linked
/// later), then the polygon's own tile's, off-mesh links before edges in
/// edge order; ties by target ref, the higher first (docs/navmesh.md).
static bool walked_before(const wf_tile_link* l, uint32_t own, wf_poly_ref to, uint8_t edge) {
    uint32_t ls = wf_poly_ref_tile((wf_poly_ref){l->ref}), ts = wf_poly_ref_tile(to);
    if ((ls == own) != (ts == own)) {
        return ls != own;
    }
    if (ls != ts) {
        return ls > ts;
    }
    if (l->edge != edge) {
        if (ls != own) {
            return l->edge > edge;
        }
        return l->edge == 0xffu || (edge != 0xffu && l->edge < edge);
    }
    return l->ref > to.bits;
}

static void add_link(const wf_mesh* mesh, wf_mesh_tile* t, uint32_t poly, wf_poly_ref to,
                     uint8_t edge, uint8_t side, uint8_t bmin, uint8_t bmax) {
    uint32_t k = alloc_link(t);
    if (k == WF_NULL_LINK) {
        return;
    }
    wf_tile_link* l = &t->links[k];
    l->ref = to.bits;
    l->edge = edge;
    l->side = side;
    l->bmin = bmin;
    l->bmax = bmax;
    uint32_t own = (uint32_t)(t - mesh->tiles);
    uint32_t* at = &t->first_link[poly];
    while (*at != WF_NULL_LINK && walked_before(&t->links[*at], own, to, edge)) {
        at = &t->links[*at].next;
    }
    l->next = *at;
    *at = k;
}

// Removes every link of t's polygons [first, end) that points into tile
// slot `target`.
static void unlink_target(wf_mesh_tile* t, uint32_t target, uint32_t first, uint32_t end) {
    for (uint32_t p = first; p < end; ++p) {
        uint32_t* at = &t->first_link[p];
        while (*at != WF_NULL_LINK) {
            uint32_t k = *at;
            if (wf_poly_ref_tile((wf_poly_ref){t->links[k].ref}) == target) {
                *at = t->links[k].next;
                t->links[k].next = t->link_free;
                t->link_free = k;
            } else {
                at = &t->links[k].next;
            }
        }
    }
}

static inline float min_f(float a, float b) { return a < b ? a : b; }
static inline float max_f(float a, float b) { return a > b ? a : b; }

// Links inside the tile, and on the way the polygon range with portal edges
// of each side.
static void connect_internal(const wf_mesh* mesh, wf_mesh_tile* t) {
    wf_poly_ref base = wf_mesh_tile_base(mesh, t);
    uint32_t ground = t->header->poly_count - t->header->offmesh_count;
    uint32_t first[4] = {0, 0, 0, 0}, end[4] = {0, 0, 0, 0};
    for (uint32_t i = 0; i < ground; ++i) {
        const wf_tile_poly* p = &t->polys[i];
        // Reverse edge order so links come out in edge order when walked.
        for (uint32_t k = p->vert_count; k-- > 0;) {
            uint16_t nb = p->neighbours[k];
            if (nb & WF_PORTAL_EDGE) {
                uint32_t side = nb & 3u; // validated: below 4
                first[side] = end[side] == 0 ? i : first[side];
                end[side] = i + 1u;
            } else if (nb != 0) {
                wf_poly_ref to = {base.bits | (uint32_t)(nb - 1u)};
                add_link(mesh, t, i, to, (uint8_t)k, NOT_A_PORTAL, 0, 255);
            }
        }
    }
    for (int side = 0; side < 4; ++side) {
        t->portal_polys[side][0] = (uint16_t)first[side];
        t->portal_polys[side][1] = (uint16_t)end[side];
    }
}

/// Candidate polygons of `other` near an edge: its BV tree queried with the
/// edge's box (padded by `pad` across and `pad_y` vertically), in polygon
/// order so links come out in the same order as a full scan would give.
/// Returns false when more overlap than `cap`: the caller scans every polygon.
enum { EDGE_CANDIDATES = 48 };
static bool edge_candidates(const wf_mesh* mesh, const wf_mesh_tile* other, wf_vec3 a, wf_vec3 b,
                            float pad, float pad_y, uint32_t* out, uint32_t* out_count) {
    wf_vec3 lo = wf_v3(min_f(a.x, b.x) - pad, min_f(a.y, b.y) - pad_y, min_f(a.z, b.z) - pad);
    wf_vec3 hi = wf_v3(max_f(a.x, b.x) + pad, max_f(a.y, b.y) + pad_y, max_f(a.z, b.z) + pad);
    wf_poly_ref found[EDGE_CANDIDATES];
    uint32_t n = wf_mesh_tile_polys_in_box(mesh, other, lo, hi, found, EDGE_CANDIDATES);
    if (n > EDGE_CANDIDATES) {
        return false;
    }
    for (uint32_t i = 0; i < n; ++i) { // insertion sort: n is small
        uint32_t v = wf_poly_ref_poly(found[i]), at = i;
        while (at > 0 && out[at - 1] > v) {
            out[at] = out[at - 1];
            at--;
        }
        out[at] = v;
    }
    *out_count = n;
    return true;
}

// Portal edges run along the tile border: z for the X sides, x for the Z sides.
static bool along_z(int side) { return side == WF_SIDE_POS_X || side == WF_SIDE_NEG_X; }

static float edge_height_at(wf_vec3 a, wf_vec3 b, int side, float u) {
    float ua = along_z(side) ? a.z : a.x;
    float ub = along_z(side) ? b.z : b.x;
    float t = fabsf(ub - ua) > 1e-9f ? (u - ua) / (ub - ua) : 0.0f;
    return a.y + (b.y - a.y) * t;
}

static uint8_t edge_param(wf_vec3 a, wf_vec3 b, int side, float u) {
    float ua = along_z(side) ? a.z : a.x;
    float ub = along_z(side) ? b.z : b.x;
    float t = fabsf(ub - ua) > 1e-9f ? (u - ua) / (ub - ua) : 0.0f;
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    return (uint8_t)lrintf(t * 255.0f);
}

/// A portal edge of a tile: its ends and its interval along the border.
typedef struct portal_edge {
    wf_vec3 a, b;
    float lo, hi;
    uint32_t poly, edge;
} portal_edge;

/// The next portal edge of t on `side` from polygon *poly, edge *edge on,
/// in polygon then edge order (the order links are made in); moves the
/// position past it.
static bool next_portal(const wf_mesh_tile* t, int side, uint32_t* poly, uint32_t* edge,
                        portal_edge* out) {
    uint16_t flag = (uint16_t)(WF_PORTAL_EDGE | (uint32_t)side);
    uint32_t end = t->portal_polys[side][1];
    for (uint32_t i = *poly, k = *edge; i < end; ++i, k = 0) {
        const wf_tile_poly* p = &t->polys[i];
        for (; k < p->vert_count; ++k) {
            if (p->neighbours[k] != flag) {
                continue;
            }
            out->a = wf_tile_vertex(t, p->verts[k]);
            out->b = wf_tile_vertex(t, p->verts[(k + 1u) % p->vert_count]);
            float u = along_z(side) ? out->a.z : out->a.x;
            float v = along_z(side) ? out->b.z : out->b.x;
            out->lo = min_f(u, v);
            out->hi = max_f(u, v);
            out->poly = i;
            out->edge = k;
            *poly = i;
            *edge = k + 1u;
            return true;
        }
    }
    *poly = end;
    *edge = 0;
    return false;
}

/// A side's portal edges, listed once per add: every pair of edges facing
/// each other is tested, both ways, from this list. A tile with more than
/// fit (only odd, hand-made tiles) has the rest walked again when needed.
enum { PORTAL_LIST = 64 };
typedef struct portal_list {
    const wf_mesh_tile* tile;
    int side;
    uint32_t count;
    uint32_t resume_poly, resume_edge; ///< where the walk goes on past the list
    bool complete;
    portal_edge items[PORTAL_LIST];
} portal_list;

static void list_portals(const wf_mesh_tile* t, int side, portal_list* l) {
    l->tile = t;
    l->side = side;
    l->count = 0;
    l->resume_poly = t->portal_polys[side][0];
    l->resume_edge = 0;
    l->complete = false;
    while (l->count < PORTAL_LIST) {
        if (!next_portal(t, side, &l->resume_poly, &l->resume_edge, &l->items[l->count])) {
            l->complete = true;
            return;
        }
        l->count++;
    }
    portal_edge probe; // a full list may still be complete
    uint32_t poly = l->resume_poly, edge = l->resume_edge;
    l->complete = !next_portal(t, side, &poly, &edge, &probe);
}

typedef struct portal_cursor {
    const portal_list* list;
    uint32_t index, poly, edge;
    portal_edge walked;
} portal_cursor;

static void cursor_start(portal_cursor* c, const portal_list* l) {
    c->list = l;
    c->index = 0;
    c->poly = l->resume_poly;
    c->edge = l->resume_edge;
}

static const portal_edge* cursor_next(portal_cursor* c) {
    const portal_list* l = c->list;
    if (c->index < l->count) {
        return &l->items[c->index++];
    }
    if (l->complete || !next_portal(l->tile, l->side, &c->poly, &c->edge, &c->walked)) {
        return NULL;
    }
    return &c->walked;
}

/// Whether portal edge x (on `side` of its tile) and edge y of the tile
/// across meet: on the same border line, overlapping by more than a point,
/// at heights an agent can step between. Out: the shared part along x.
static bool portals_meet(const portal_edge* x, const portal_edge* y, int side, float eps,
                         float climb, uint8_t* out_min, uint8_t* out_max) {
    float olo = max_f(x->lo, y->lo), ohi = min_f(x->hi, y->hi);
    if (ohi - olo <= eps) {
        return false; // touching at a point is not a passage
    }
    float border_x = along_z(side) ? x->a.x : x->a.z;
    float border_y = along_z(side) ? y->a.x : y->a.z;
    if (fabsf(border_x - border_y) > eps) {
        return false;
    }
    float mid = (olo + ohi) * 0.5f;
    if (fabsf(edge_height_at(x->a, x->b, side, mid) - edge_height_at(y->a, y->b, side, mid)) >
        climb + eps) {
        return false;
    }
    uint8_t t0 = edge_param(x->a, x->b, side, olo), t1 = edge_param(x->a, x->b, side, ohi);
    *out_min = t0 < t1 ? t0 : t1;
    *out_max = t0 < t1 ? t1 : t0;
    return true;
}

// Links the portal edges of t on `side` (listed in tl) with the facing
// portal edges of neighbour o, both ways: t's links first, then o's, each
// in polygon and edge order on both ends.
static void connect_portals(const wf_mesh* mesh, wf_mesh_tile* t, const portal_list* tl,
                            wf_mesh_tile* o, int side) {
    int opposite = (side + 2) & 3;
    if (o->portal_polys[opposite][0] == o->portal_polys[opposite][1]) {
        return;
    }
    portal_list ol;
    list_portals(o, opposite, &ol);
    wf_poly_ref t_base = wf_mesh_tile_base(mesh, t), o_base = wf_mesh_tile_base(mesh, o);
    float climb = max_f(t->header->walkable_climb, o->header->walkable_climb);
    float eps = 1e-3f * max_f(1.0f, max_f(mesh->tile_width, mesh->tile_depth));
    uint8_t bmin, bmax;
    portal_cursor cx, cy;
    const portal_edge *x, *y;
    for (cursor_start(&cx, tl); (x = cursor_next(&cx)) != NULL;) {
        for (cursor_start(&cy, &ol); (y = cursor_next(&cy)) != NULL;) {
            if (portals_meet(x, y, side, eps, climb, &bmin, &bmax)) {
                add_link(mesh, t, x->poly, (wf_poly_ref){o_base.bits | y->poly}, (uint8_t)x->edge,
                         (uint8_t)side, bmin, bmax);
            }
        }
    }
    for (cursor_start(&cy, &ol); (y = cursor_next(&cy)) != NULL;) {
        for (cursor_start(&cx, tl); (x = cursor_next(&cx)) != NULL;) {
            if (portals_meet(y, x, opposite, eps, climb, &bmin, &bmax)) {
                add_link(mesh, o, y->poly, (wf_poly_ref){t_base.bits | x->poly}, (uint8_t)y->edge,
                         (uint8_t)opposite, bmin, bmax);
            }
        }
    }
}

// Whether an edge's box, padded as edge_candidates pads it, meets a tile's
// bounds: the first thing wf_mesh_tile_polys_in_box checks, done here
// without the call for the many wall edges far from the other layer.
static bool edge_box_meets(wf_vec3 a, wf_vec3 b, const float pad[3], const float* tmin,
                           const float* tmax) {
    return !(max_f(a.x, b.x) + pad[0] < tmin[0] || min_f(a.x, b.x) - pad[0] > tmax[0] ||
             max_f(a.y, b.y) + pad[1] < tmin[1] || min_f(a.y, b.y) - pad[1] > tmax[1] ||
             max_f(a.z, b.z) + pad[2] < tmin[2] || min_f(a.z, b.z) - pad[2] > tmax[2]);
}

// Seams between layers of one grid cell: a wall edge of t that lies on a
// wall edge of another layer's tile o (collinear on XZ, overlapping, at
// heights within climb) is where the layer split cut walkable ground in two;
// link it so paths cross between floors inside a tile.
static void connect_layer_seams(const wf_mesh* mesh, wf_mesh_tile* t, const wf_mesh_tile* o) {
    wf_poly_ref other_base = wf_mesh_tile_base(mesh, o);
    float climb = max_f(t->header->walkable_climb, o->header->walkable_climb);
    float eps = 1e-3f * max_f(1.0f, max_f(mesh->tile_width, mesh->tile_depth));
    // Every edge's padded box lies in t's vertex bounds padded the same way:
    // when those miss o's bounds, so does every candidate query below.
    const float* omin = o->header->bmin;
    const float* omax = o->header->bmax;
    float pad[3] = {eps, climb + eps, eps};
    for (int a = 0; a < 3; ++a) {
        if (t->vert_max[a] + pad[a] < omin[a] || t->vert_min[a] - pad[a] > omax[a]) {
            return;
        }
    }
    uint32_t ground = t->header->poly_count - t->header->offmesh_count;
    uint32_t other_ground = o->header->poly_count - o->header->offmesh_count;
    for (uint32_t i = 0; i < ground; ++i) {
        const wf_tile_poly* p = &t->polys[i];
        for (uint32_t k = 0; k < p->vert_count; ++k) {
            if (p->neighbours[k] != 0) {
                continue;
            }
            wf_vec3 a = wf_tile_vertex(t, p->verts[k]);
            wf_vec3 b = wf_tile_vertex(t, p->verts[(k + 1) % p->vert_count]);
            if (!edge_box_meets(a, b, pad, omin, omax)) {
                continue; // the candidate query would find nothing
            }
            float len = wf_v2_distance(a, b);
            if (len <= eps) {
                continue;
            }
            uint32_t cand[EDGE_CANDIDATES], cand_count = 0;
            bool listed = edge_candidates(mesh, o, a, b, eps, climb + eps, cand, &cand_count);
            uint32_t count = listed ? cand_count : other_ground;
            for (uint32_t ci = 0; ci < count; ++ci) {
                uint32_t j = listed ? cand[ci] : ci;
                const wf_tile_poly* q = &o->polys[j];
                for (uint32_t e = 0; e < q->vert_count; ++e) {
                    if (q->neighbours[e] != 0) {
                        continue;
                    }
                    wf_vec3 c = wf_tile_vertex(o, q->verts[e]);
                    wf_vec3 d = wf_tile_vertex(o, q->verts[(e + 1) % q->vert_count]);
                    // Collinear: both ends of q's edge on the line through a, b.
                    if (fabsf(wf_v2_triangle_area2(a, b, c)) > eps * len ||
                        fabsf(wf_v2_triangle_area2(a, b, d)) > eps * len) {
                        continue;
                    }
                    float tc = wf_edge_param_2d(c, a, b), td = wf_edge_param_2d(d, a, b);
                    float t0 = fmaxf(0.0f, fminf(tc, td)), t1 = fminf(1.0f, fmaxf(tc, td));
                    if ((t1 - t0) * len <= eps) {
                        continue; // touching at a point is not a passage
                    }
                    float tm = (t0 + t1) * 0.5f;
                    wf_vec3 mine = wf_v3_lerp(a, b, tm);
                    float um = wf_edge_param_2d(mine, c, d);
                    float theirs = c.y + (d.y - c.y) * um;
                    if (fabsf(mine.y - theirs) > climb + eps) {
                        continue;
                    }
                    uint8_t b0 = (uint8_t)lrintf(t0 * 255.0f), b1 = (uint8_t)lrintf(t1 * 255.0f);
                    add_link(mesh, t, i, (wf_poly_ref){other_base.bits | j}, (uint8_t)k, LAYER_SEAM,
                             b0, b1);
                }
            }
        }
    }
}

// Nearest ground polygon of tile t to pos within the link's radius.
static bool nearest_land(const wf_mesh* mesh, const wf_mesh_tile* t, wf_vec3 pos, float radius,
                         uint32_t* out_poly) {
    float climb = t->header->walkable_climb;
    wf_vec3 ext = wf_v3(radius, fmaxf(climb, radius), radius);
    enum { CANDIDATES = 64 };
    wf_poly_ref found[CANDIDATES];
    uint32_t n = wf_mesh_tile_polys_in_box(mesh, t, wf_v3_sub(pos, ext), wf_v3_add(pos, ext), found,
                                           CANDIDATES);
    // More candidates than the buffer holds (a huge radius over fine
    // polygons): look at every ground polygon instead of dropping some.
    bool scan_all = n > CANDIDATES;
    uint32_t count = scan_all ? t->header->poly_count - t->header->offmesh_count : n;
    float best = INFINITY;
    bool ok = false;
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t index = scan_all ? i : wf_poly_ref_poly(found[i]);
        const wf_tile_poly* p = &t->polys[index];
        wf_vec3 c;
        bool inside;
        wf_mesh_closest_point_on_poly(t, p, pos, &c, &inside);
        float dxz = wf_v2_distance_sq(c, pos), dy = fabsf(c.y - pos.y);
        if (dxz > radius * radius + 1e-6f || dy > fmaxf(climb, radius) + 1e-4f) {
            continue;
        }
        float d = dxz + dy * dy;
        if (d < best || (d == best && ok && index < *out_poly)) {
            best = d;
            *out_poly = index;
            ok = true;
        }
    }
    return ok;
}

// Off-mesh links of tile `owner` whose end lands in tile `land` (possibly
// the same tile): link the link to its landing polygon and back.
static void connect_offmesh_ends(const wf_mesh* mesh, wf_mesh_tile* owner, wf_mesh_tile* land) {
    int32_t lx = land->header->tile_x, lz = land->header->tile_z;
    wf_poly_ref owner_base = wf_mesh_tile_base(mesh, owner);
    wf_poly_ref land_base = wf_mesh_tile_base(mesh, land);
    for (uint32_t i = 0; i < owner->header->offmesh_count; ++i) {
        const wf_tile_offmesh* o = &owner->offmesh[i];
        wf_vec3 end = wf_v3(o->pos[3], o->pos[4], o->pos[5]);
        int32_t ex, ez;
        wf_mesh_tile_at(mesh, end, &ex, &ez);
        uint32_t poly;
        if (ex != lx || ez != lz || !nearest_land(mesh, land, end, o->radius, &poly)) {
            continue;
        }
        add_link(mesh, owner, o->poly, (wf_poly_ref){land_base.bits | poly}, 0xff, NOT_A_PORTAL,
                 WF_LINK_OFFMESH_AT_END, WF_LINK_OFFMESH_AT_END);
        if (o->flags & WF_OFFMESH_BIDIRECTIONAL) {
            add_link(mesh, land, poly, (wf_poly_ref){owner_base.bits | o->poly}, 0xff, NOT_A_PORTAL,
                     WF_LINK_OFFMESH_AT_END, WF_LINK_OFFMESH_AT_END);
        }
    }
}

static void connect_offmesh_starts(const wf_mesh* mesh, wf_mesh_tile* t) {
    wf_poly_ref base = wf_mesh_tile_base(mesh, t);
    for (uint32_t i = 0; i < t->header->offmesh_count; ++i) {
        const wf_tile_offmesh* o = &t->offmesh[i];
        uint32_t poly;
        if (!nearest_land(mesh, t, wf_v3(o->pos[0], o->pos[1], o->pos[2]), o->radius, &poly)) {
            continue;
        }
        add_link(mesh, t, o->poly, (wf_poly_ref){base.bits | poly}, 0xff, NOT_A_PORTAL,
                 WF_LINK_OFFMESH_AT_START, WF_LINK_OFFMESH_AT_START);
        add_link(mesh, t, poly, (wf_poly_ref){base.bits | o->poly}, 0xff, NOT_A_PORTAL,
                 WF_LINK_OFFMESH_AT_START, WF_LINK_OFFMESH_AT_START);
    }
}

/// The tiles of the 3 x 3 cells around a tile (itself included), looked
/// up once per add: cell c (dz = c / 3 - 1, dx = c % 3 - 1) holds
/// tiles[first[c] .. first[c + 1]), in hash chain order.
enum { AROUND_CELLS = 9, AROUND_CENTRE = 4 };
typedef struct tiles_around {
    const wf_mesh_tile* tiles[AROUND_CELLS * WF_MAX_LAYERS_PER_CELL];
    uint32_t first[AROUND_CELLS + 1];
} tiles_around;

static void gather_around(const wf_mesh* mesh, int32_t x, int32_t z, tiles_around* out) {
    uint32_t n = 0;
    for (uint32_t c = 0; c < AROUND_CELLS; ++c) {
        out->first[c] = n;
        uint32_t m = wf_mesh_tiles_at(mesh, x + (int32_t)(c % 3u) - 1, z + (int32_t)(c / 3u) - 1,
                                      &out->tiles[n], WF_MAX_LAYERS_PER_CELL);
        n += m < WF_MAX_LAYERS_PER_CELL ? m : WF_MAX_LAYERS_PER_CELL;
    }
    out->first[AROUND_CELLS] = n;
}

/// Cell of `around` across each side (WF_SIDE_POS_X, POS_Z, NEG_X, NEG_Z).
static const uint32_t side_cell[4] = {5, 7, 3, 1};

static uint32_t links_missing_around(wf_mesh_tile* t, const tiles_around* around) {
    uint32_t missing = t->links_missing;
    for (uint32_t i = 0; i < around->first[AROUND_CELLS]; ++i) {
        wf_mesh_tile* o = (wf_mesh_tile*)around->tiles[i];
        missing += o->links_missing;
        o->links_missing = 0;
    }
    t->links_missing = 0;
    return missing;
}

/// Tile slot of every link (see refresh_poly_portals).
#define ALL_SLOTS 0xffffffffu

/// The portal records of polygon p's links (those into tile slot `only`,
/// or all), as the default path search reads them: the union portal of
/// the polygon's links to one ground neighbour, and which of those links
/// repeat an earlier one.
static void refresh_poly_portals(const wf_mesh* mesh, wf_mesh_tile* t, uint32_t p, uint32_t only) {
    const wf_tile_poly* poly = &t->polys[p];
    wf_poly_ref from = {wf_mesh_tile_base(mesh, t).bits | p};
    bool from_ground = wf_poly_type(poly) == WF_POLY_TYPE_GROUND;
    for (uint32_t k = t->first_link[p]; k != WF_NULL_LINK; k = t->links[k].next) {
        const wf_tile_link* link = &t->links[k];
        wf_poly_ref to = wf_poly_ref_from_u64(link->ref);
        if (only != ALL_SLOTS && wf_poly_ref_tile(to) != only) {
            continue;
        }
        const wf_mesh_tile* to_tile;
        const wf_tile_poly* to_poly;
        wf_mesh_resolve_unchecked(mesh, to, &to_tile, &to_poly);
        uint32_t count = 1, repeat = 0;
        if (from_ground && wf_poly_type(to_poly) == WF_POLY_TYPE_GROUND) {
            bool passed = false;
            for (uint32_t j = t->first_link[p]; j != WF_NULL_LINK; j = t->links[j].next) {
                if (j == k) {
                    passed = true;
                } else if (t->links[j].ref == link->ref) {
                    count++;
                    repeat |= passed ? 0u : 1u;
                }
            }
        }
        wf_vec3 left, right;
        wf_mesh_link_portal_counted(from, t, poly, link, to_tile, to_poly, count, &left, &right);
        wf_link_portal* lp = &t->link_portals[k];
        memcpy(lp->left, &left, sizeof lp->left);
        memcpy(lp->right, &right, sizeof lp->right);
        lp->repeat = repeat;
    }
}

/// The portal records of t's polygons [first, end), links into `only`.
static void refresh_portals(const wf_mesh* mesh, wf_mesh_tile* t, uint32_t first, uint32_t end,
                            uint32_t only) {
    for (uint32_t p = first; p < end; ++p) {
        refresh_poly_portals(mesh, t, p, only);
    }
}

/// The polygons of o (at offset dx, dz from t's cell) that can link to t.
/// Besides off-mesh links (its own, or the back links of t's bidirectional
/// ones landing there), a side neighbour links to t only from its portal
/// edges facing t, a diagonal one not at all: without off-mesh links on
/// either tile, only those polygons need a look. False when none can.
static bool polys_linking_to(const wf_mesh_tile* o, const wf_mesh_tile* t, int32_t dx, int32_t dz,
                             uint32_t* first, uint32_t* end) {
    bool offmesh = o->offmesh_count > 0 || t->offmesh_count > 0;
    if (offmesh || (dx == 0 && dz == 0)) {
        *first = 0;
        *end = o->header->poly_count;
        return true;
    }
    if (dx != 0 && dz != 0) {
        return false;
    }
    int facing = dx > 0 ? WF_SIDE_NEG_X
                        : (dx < 0 ? WF_SIDE_POS_X : (dz > 0 ? WF_SIDE_NEG_Z : WF_SIDE_POS_Z));
    *first = o->portal_polys[facing][0];
    *end = o->portal_polys[facing][1];
    return true;
}

uint32_t wf_mesh_link_tile(const wf_mesh* mesh, wf_mesh_tile* t) {
    const wf_tile_header* h = t->header;
    connect_internal(mesh, t);
    connect_offmesh_starts(mesh, t);
    tiles_around around;
    gather_around(mesh, h->tile_x, h->tile_z, &around);
    // Portals to the four side neighbours (every layer), both directions.
    portal_list mine;
    for (int side = 0; side < 4; ++side) {
        uint32_t from = around.first[side_cell[side]], to = around.first[side_cell[side] + 1u];
        if (from == to || t->portal_polys[side][0] == t->portal_polys[side][1]) {
            continue; // nothing links across this side
        }
        list_portals(t, side, &mine);
        for (uint32_t i = from; i < to; ++i) {
            connect_portals(mesh, t, &mine, (wf_mesh_tile*)around.tiles[i], side);
        }
    }
    // Seams with the other layers of the same cell, both directions.
    for (uint32_t i = around.first[AROUND_CENTRE]; i < around.first[AROUND_CENTRE + 1u]; ++i) {
        wf_mesh_tile* o = (wf_mesh_tile*)around.tiles[i];
        if (o != t) {
            connect_layer_seams(mesh, t, o);
            connect_layer_seams(mesh, o, t);
        }
    }
    // Off-mesh links may end in this cell or any of the 8 around it.
    for (uint32_t i = 0; i < around.first[AROUND_CELLS]; ++i) {
        wf_mesh_tile* o = (wf_mesh_tile*)around.tiles[i];
        if (o->offmesh_count > 0) {
            connect_offmesh_ends(mesh, o, t);
        }
        if (o != t && t->offmesh_count > 0) {
            connect_offmesh_ends(mesh, t, o);
        }
    }
    // The portal records of every link made here: all of t's, and those of
    // the tiles around that point into t (which polygons can hold them as
    // in wf_mesh_unlink_tile). Made last, as a border portal reads the
    // links back.
    uint32_t slot = (uint32_t)(t - mesh->tiles);
    refresh_portals(mesh, t, 0, h->poly_count, ALL_SLOTS);
    wf_mesh_number_pockets(mesh, t);
    for (uint32_t c = 0; c < AROUND_CELLS; ++c) {
        int32_t dx = (int32_t)(c % 3u) - 1, dz = (int32_t)(c / 3u) - 1;
        for (uint32_t i = around.first[c]; i < around.first[c + 1u]; ++i) {
            wf_mesh_tile* o = (wf_mesh_tile*)around.tiles[i];
            if (o == t) {
                continue;
            }
            uint32_t first, end;
            if (polys_linking_to(o, t, dx, dz, &first, &end)) {
                refresh_portals(mesh, o, first, end, slot);
                wf_mesh_number_pockets(mesh, o);
            }
        }
    }
    return links_missing_around(t, &around);
}

void wf_mesh_unlink_tile(const wf_mesh* mesh, const wf_mesh_tile* t) {
    uint32_t slot = (uint32_t)(t - mesh->tiles);
    const wf_tile_header* h = t->header;
    const wf_mesh_tile* near[WF_MAX_LAYERS_PER_CELL];
    for (int32_t dz = -1; dz <= 1; ++dz) {
        for (int32_t dx = -1; dx <= 1; ++dx) {
            uint32_t n = wf_mesh_tiles_at(mesh, h->tile_x + dx, h->tile_z + dz, near,
                                          WF_MAX_LAYERS_PER_CELL);
            for (uint32_t i = 0; i < n && i < WF_MAX_LAYERS_PER_CELL; ++i) {
                wf_mesh_tile* o = (wf_mesh_tile*)near[i];
                if (o == t) {
                    continue;
                }
                uint32_t first, end;
                if (polys_linking_to(o, t, dx, dz, &first, &end)) {
                    unlink_target(o, slot, first, end);
                }
            }
        }
    }
}
