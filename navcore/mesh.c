// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The tiled navmesh: tile slots with generations, a hash of grid cells,
// adding and removing tiles, and the links that stitch polygons together
// (inside a tile, across tile borders, and along off-mesh links).
#include <math.h>
#include <string.h>

#include "navcore/alloc.h"
#include "navcore/check.h"
#include "navcore/geometry.h"
#include "navcore/log.h"
#include "navcore/mesh_internal.h"

#define DEFAULT_MAX_TILES 1024u
#define GENERATION_MASK ((1u << WF_POLY_REF_GENERATION_BITS) - 1u)
/// Off-mesh end markers kept in a link's bmin.
#define OFFMESH_AT_START 0u
#define OFFMESH_AT_END 255u
#define NOT_A_PORTAL 0xffu
/// Link side of a seam between two layers of one grid cell.
#define LAYER_SEAM 4u

wf_mesh_desc wf_mesh_desc_defaults(const wf_mesh_desc* desc) {
    wf_mesh_desc d;
    memset(&d, 0, sizeof d);
    if (desc != NULL) {
        d = *desc;
    }
    if (d.max_tiles == 0) {
        d.max_tiles = DEFAULT_MAX_TILES;
    }
    return d;
}

static uint32_t cell_hash(int32_t x, int32_t z, uint32_t mask) {
    uint32_t h = (uint32_t)x * 0x8da6b343u + (uint32_t)z * 0xd8163841u;
    return (h ^ (h >> 15)) & mask;
}

wf_status wf_mesh_create(const wf_mesh_desc* desc, wf_mesh** out) {
    WF_CHECK_ARG(desc != NULL && out != NULL);
    wf_mesh_desc d = wf_mesh_desc_defaults(desc);
    const wf_logger* log = &d.logger;
    WF_CHECK_DESC(log, "mesh", d.tile_width > 0.0f && d.tile_width < WF_MAX_TILE_WIDTH,
                  "tile_width must be > 0 and < WF_MAX_TILE_WIDTH");
    WF_CHECK_DESC(log, "mesh", d.tile_depth > 0.0f && d.tile_depth < WF_MAX_TILE_WIDTH,
                  "tile_depth must be > 0 and < WF_MAX_TILE_WIDTH");
    WF_CHECK_DESC(log, "mesh", wf_v3_is_finite(d.origin), "origin must be finite");
    WF_CHECK_DESC(log, "mesh", d.max_tiles <= WF_MAX_TILES, "max_tiles is above WF_MAX_TILES");
    wf_allocator a;
    WF_CHECK_DESC(log, "mesh", wf_allocator_resolve(&d.allocator, &a) == WF_OK,
                  "allocator: alloc and free must be both set or both NULL");
    uint32_t buckets = 1;
    while (buckets < d.max_tiles) {
        buckets <<= 1;
    }
    wf_mesh* m = wf_alloc_zeroed(&a, sizeof *m, _Alignof(wf_mesh));
    if (m == NULL) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    m->tiles = WF_ALLOC_ARRAY(&a, wf_mesh_tile, d.max_tiles);
    m->cell_heads = WF_ALLOC_ARRAY(&a, uint32_t, buckets);
    if (m->tiles == NULL || m->cell_heads == NULL) {
        WF_FREE_ARRAY(&a, m->tiles, wf_mesh_tile, d.max_tiles);
        WF_FREE_ARRAY(&a, m->cell_heads, uint32_t, buckets);
        wf_free(&a, m, sizeof *m, _Alignof(wf_mesh));
        return WF_ERR_OUT_OF_MEMORY;
    }
    m->allocator = a;
    m->logger = d.logger;
    m->origin = d.origin;
    m->tile_width = d.tile_width;
    m->tile_depth = d.tile_depth;
    m->max_tiles = d.max_tiles;
    m->cell_mask = buckets - 1u;
    for (uint32_t i = 0; i < buckets; ++i) {
        m->cell_heads[i] = WF_NO_TILE;
    }
    for (uint32_t i = 0; i < d.max_tiles; ++i) {
        m->tiles[i].generation = 1;
        m->tiles[i].next_free = i + 1u < d.max_tiles ? i + 1u : WF_NO_TILE;
        m->tiles[i].next_in_cell = WF_NO_TILE;
    }
    m->free_head = 0;
    m->free_tail = d.max_tiles - 1u;
    *out = m;
    return WF_OK;
}

static void release_data(wf_mesh* mesh, wf_mesh_tile* t) {
    if (t->flags & WF_TILE_MESH_OWNS_DATA) {
        wf_free(&mesh->allocator, t->data, t->size, WF_TILE_SECTION_ALIGN);
    }
}

void wf_mesh_destroy(wf_mesh* mesh) {
    if (mesh == NULL) {
        return;
    }
    for (uint32_t i = 0; i < mesh->max_tiles; ++i) {
        if (mesh->tiles[i].in_use) {
            release_data(mesh, &mesh->tiles[i]);
        }
    }
    wf_allocator a = mesh->allocator;
    WF_FREE_ARRAY(&a, mesh->tiles, wf_mesh_tile, mesh->max_tiles);
    WF_FREE_ARRAY(&a, mesh->cell_heads, uint32_t, mesh->cell_mask + 1u);
    wf_free(&a, mesh, sizeof *mesh, _Alignof(wf_mesh));
}

wf_status wf_mesh_resolve(const wf_mesh* mesh, wf_poly_ref ref, const wf_mesh_tile** out_tile,
                          const wf_tile_poly** out_poly) {
    if (ref.bits == 0) {
        return WF_ERR_INVALID_ARG;
    }
    uint32_t slot = wf_poly_ref_tile(ref);
    if (slot >= mesh->max_tiles) {
        return WF_ERR_STALE_REF;
    }
    const wf_mesh_tile* t = &mesh->tiles[slot];
    uint32_t poly = wf_poly_ref_poly(ref);
    if (!t->in_use || t->generation != wf_poly_ref_generation(ref) ||
        poly >= t->header->poly_count) {
        return WF_ERR_STALE_REF;
    }
    *out_tile = t;
    if (out_poly != NULL) {
        *out_poly = &t->polys[poly];
    }
    return WF_OK;
}

wf_status wf_mesh_resolve_tile(const wf_mesh* mesh, wf_tile_ref tile,
                               const wf_mesh_tile** out_tile) {
    wf_poly_ref ref = {tile.bits};
    if (ref.bits == 0 || wf_poly_ref_poly(ref) != 0) {
        return WF_ERR_INVALID_ARG;
    }
    uint32_t slot = wf_poly_ref_tile(ref);
    if (slot >= mesh->max_tiles || !mesh->tiles[slot].in_use ||
        mesh->tiles[slot].generation != wf_poly_ref_generation(ref)) {
        return WF_ERR_STALE_REF;
    }
    *out_tile = &mesh->tiles[slot];
    return WF_OK;
}

wf_status wf_mesh_check_poly(const wf_mesh* mesh, wf_poly_ref ref) {
    WF_CHECK_ARG(mesh != NULL);
    const wf_mesh_tile* t;
    const wf_tile_poly* p;
    return wf_mesh_resolve(mesh, ref, &t, &p);
}

wf_poly_ref wf_mesh_poly_ref(const wf_mesh* mesh, wf_tile_ref tile, uint32_t index) {
    wf_poly_ref r = {0};
    const wf_mesh_tile* t;
    wf_poly_ref base = {tile.bits};
    if (mesh != NULL && wf_poly_ref_poly(base) == 0 && wf_mesh_resolve(mesh, base, &t, NULL) == WF_OK &&
        index < t->header->poly_count) {
        r.bits = tile.bits | index;
    }
    return r;
}

void wf_mesh_tile_at(const wf_mesh* mesh, wf_vec3 pos, int32_t* out_x, int32_t* out_z) {
    float fx = 0.0f, fz = 0.0f;
    if (mesh != NULL) {
        fx = floorf((pos.x - mesh->origin.x) / mesh->tile_width);
        fz = floorf((pos.z - mesh->origin.z) / mesh->tile_depth);
        // Clamp so NaN or far-away points give a valid (empty) cell.
        fx = fx > 1e9f ? 1e9f : (fx < -1e9f ? -1e9f : (isnan(fx) ? 0.0f : fx));
        fz = fz > 1e9f ? 1e9f : (fz < -1e9f ? -1e9f : (isnan(fz) ? 0.0f : fz));
    }
    if (out_x != NULL) {
        *out_x = (int32_t)fx;
    }
    if (out_z != NULL) {
        *out_z = (int32_t)fz;
    }
}

uint32_t wf_mesh_tiles_at(const wf_mesh* mesh, int32_t tile_x, int32_t tile_z,
                          const wf_mesh_tile** out, uint32_t max) {
    uint32_t n = 0;
    for (uint32_t i = mesh->cell_heads[cell_hash(tile_x, tile_z, mesh->cell_mask)];
         i != WF_NO_TILE; i = mesh->tiles[i].next_in_cell) {
        const wf_mesh_tile* t = &mesh->tiles[i];
        if (t->tile_x == tile_x && t->tile_z == tile_z) {
            if (n < max) {
                out[n] = t;
            }
            n++;
        }
    }
    return n;
}

wf_status wf_mesh_find_tile(const wf_mesh* mesh, int32_t tile_x, int32_t tile_z, int32_t layer,
                            wf_tile_ref* out_tile) {
    WF_CHECK_ARG(mesh != NULL && out_tile != NULL);
    for (uint32_t i = mesh->cell_heads[cell_hash(tile_x, tile_z, mesh->cell_mask)];
         i != WF_NO_TILE; i = mesh->tiles[i].next_in_cell) {
        const wf_mesh_tile* t = &mesh->tiles[i];
        if (t->tile_x == tile_x && t->tile_z == tile_z && t->layer == layer) {
            out_tile->bits = wf_mesh_tile_base(mesh, t).bits;
            return WF_OK;
        }
    }
    return WF_ERR_NOT_FOUND;
}

/* ---- links ---- */

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

static void add_link(wf_mesh_tile* t, uint32_t poly, wf_poly_ref to, uint8_t edge, uint8_t side,
                     uint8_t bmin, uint8_t bmax) {
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
    l->next = t->first_link[poly];
    t->first_link[poly] = k;
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
                add_link(t, i, to, (uint8_t)k, NOT_A_PORTAL, 0, 255);
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
                add_link(t, x->poly, (wf_poly_ref){o_base.bits | y->poly}, (uint8_t)x->edge,
                         (uint8_t)side, bmin, bmax);
            }
        }
    }
    for (cursor_start(&cy, &ol); (y = cursor_next(&cy)) != NULL;) {
        for (cursor_start(&cx, tl); (x = cursor_next(&cx)) != NULL;) {
            if (portals_meet(y, x, opposite, eps, climb, &bmin, &bmax)) {
                add_link(o, y->poly, (wf_poly_ref){t_base.bits | x->poly}, (uint8_t)y->edge,
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
                    add_link(t, i, (wf_poly_ref){other_base.bits | j}, (uint8_t)k, LAYER_SEAM, b0,
                             b1);
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
        add_link(owner, o->poly, (wf_poly_ref){land_base.bits | poly}, 0xff, NOT_A_PORTAL,
                 OFFMESH_AT_END, OFFMESH_AT_END);
        if (o->flags & WF_OFFMESH_BIDIRECTIONAL) {
            add_link(land, poly, (wf_poly_ref){owner_base.bits | o->poly}, 0xff, NOT_A_PORTAL,
                     OFFMESH_AT_END, OFFMESH_AT_END);
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
        add_link(t, o->poly, (wf_poly_ref){base.bits | poly}, 0xff, NOT_A_PORTAL, OFFMESH_AT_START,
                 OFFMESH_AT_START);
        add_link(t, poly, (wf_poly_ref){base.bits | o->poly}, 0xff, NOT_A_PORTAL, OFFMESH_AT_START,
                 OFFMESH_AT_START);
    }
}

static void init_tile(wf_mesh* mesh, wf_mesh_tile* t, unsigned char* data, size_t size,
                      uint32_t flags) {
    const wf_tile_header* h = (const wf_tile_header*)data;
    t->data = data;
    t->size = size;
    t->flags = flags;
    t->header = h;
    t->tile_x = h->tile_x;
    t->tile_z = h->tile_z;
    t->layer = h->layer;
    t->offmesh_count = h->offmesh_count;
    t->verts = (const float*)(data + h->verts_offset);
    t->polys = (const wf_tile_poly*)(data + h->polys_offset);
    t->detail_meshes = (const wf_tile_detail*)(data + h->detail_meshes_offset);
    t->detail_verts = (const float*)(data + h->detail_verts_offset);
    t->detail_tris = data + h->detail_tris_offset;
    t->bv_nodes = (const wf_tile_bv_node*)(data + h->bv_offset);
    t->offmesh = (const wf_tile_offmesh*)(data + h->offmesh_offset);
    unsigned char* rt = data + h->runtime_offset;
    t->links = (wf_tile_link*)rt;
    rt += (size_t)h->max_link_count * sizeof(wf_tile_link);
    t->first_link = (uint32_t*)rt;
    rt += (size_t)h->poly_count * 4u;
    t->poly_flags = (uint16_t*)rt;
    rt += (size_t)h->poly_count * 2u;
    t->poly_areas = rt;
    t->link_free = WF_NULL_LINK; // links are handed out from link_fresh up
    t->link_fresh = 0;
    t->links_missing = 0;
    for (uint32_t p = 0; p < h->poly_count; ++p) {
        t->first_link[p] = WF_NULL_LINK;
        t->poly_flags[p] = t->polys[p].flags;
        t->poly_areas[p] = (uint8_t)wf_poly_area(&t->polys[p]);
    }
    // Bounds of the ground polygons' vertices (the off-mesh ends come last).
    uint32_t ground_verts = h->vert_count - 2u * h->offmesh_count;
    for (int a = 0; a < 3; ++a) {
        t->vert_min[a] = ground_verts > 0 ? INFINITY : 0.0f;
        t->vert_max[a] = ground_verts > 0 ? -INFINITY : 0.0f;
    }
    for (uint32_t v = 0; v < ground_verts; ++v) {
        for (int a = 0; a < 3; ++a) {
            t->vert_min[a] = min_f(t->vert_min[a], t->verts[3u * v + (uint32_t)a]);
            t->vert_max[a] = max_f(t->vert_max[a], t->verts[3u * v + (uint32_t)a]);
        }
    }
    (void)mesh;
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

static wf_status add_tile(wf_mesh* mesh, void* data, size_t size, uint32_t flags,
                          wf_tile_ref requested, wf_tile_ref* out_tile, bool built_here) {
    WF_CHECK_ARG(mesh != NULL && data != NULL && out_tile != NULL);
    WF_CHECK_ARG((flags & ~(uint32_t)WF_TILE_MESH_OWNS_DATA) == 0);
    wf_status s = built_here ? wf_tile_validate_structure(data, size) : wf_tile_validate(data, size);
    WF_ASSERT(!built_here || s != WF_OK ||
              wf_tile_checksum(data, ((const wf_tile_header*)data)->runtime_offset) ==
                  ((const wf_tile_header*)data)->checksum);
    if (s != WF_OK) {
        wf_log(&mesh->logger, WF_LOG_WARN, "add_tile: rejected blob (%s)", wf_status_string(s));
        return s;
    }
    const wf_tile_header* h = data;
    // Tile coordinates must stay far from overflow in neighbour arithmetic.
    if (!(h->tile_x > INT32_MIN + 2 && h->tile_x < INT32_MAX - 2 && h->tile_z > INT32_MIN + 2 &&
          h->tile_z < INT32_MAX - 2)) {
        return WF_ERR_BAD_DATA;
    }
    uint32_t layers_here = 0;
    for (uint32_t i = mesh->cell_heads[cell_hash(h->tile_x, h->tile_z, mesh->cell_mask)];
         i != WF_NO_TILE; i = mesh->tiles[i].next_in_cell) {
        const wf_mesh_tile* o = &mesh->tiles[i];
        if (o->tile_x == h->tile_x && o->tile_z == h->tile_z) {
            if (o->layer == h->layer) {
                return WF_ERR_BUSY;
            }
            layers_here++;
        }
    }
    if (layers_here >= WF_MAX_LAYERS_PER_CELL) {
        return WF_ERR_CAPACITY; // stitching looks at this many layers per cell
    }
    uint32_t slot;
    uint32_t generation;
    if (requested.bits != 0) {
        wf_poly_ref r = {requested.bits};
        slot = wf_poly_ref_tile(r);
        generation = wf_poly_ref_generation(r);
        WF_CHECK_ARG(wf_poly_ref_poly(r) == 0 && generation != 0 && slot < mesh->max_tiles);
        if (mesh->tiles[slot].in_use) {
            return WF_ERR_BUSY;
        }
        uint32_t* at = &mesh->free_head;
        uint32_t before = WF_NO_TILE;
        while (*at != slot) {
            before = *at;
            at = &mesh->tiles[*at].next_free; // the slot is free, so it is on the list
        }
        *at = mesh->tiles[slot].next_free;
        if (mesh->free_tail == slot) {
            mesh->free_tail = before;
        }
    } else {
        if (mesh->free_head == WF_NO_TILE) {
            return WF_ERR_CAPACITY;
        }
        slot = mesh->free_head;
        mesh->free_head = mesh->tiles[slot].next_free;
        if (mesh->free_head == WF_NO_TILE) {
            mesh->free_tail = WF_NO_TILE;
        }
        generation = mesh->tiles[slot].generation;
    }
    wf_mesh_tile* t = &mesh->tiles[slot];
    t->generation = generation;
    t->in_use = true;
    t->next_free = WF_NO_TILE;
    init_tile(mesh, t, data, size, flags);
    uint32_t bucket = cell_hash(h->tile_x, h->tile_z, mesh->cell_mask);
    t->next_in_cell = mesh->cell_heads[bucket];
    mesh->cell_heads[bucket] = slot;
    mesh->tile_count++;
    mesh->change_count++;

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
    out_tile->bits = wf_mesh_tile_base(mesh, t).bits;
    uint32_t missing = links_missing_around(t, &around);
    if (missing > 0) {
        wf_log(&mesh->logger, WF_LOG_WARN,
               "add_tile (%d, %d, %d): %u links did not fit the tiles' link capacity",
               h->tile_x, h->tile_z, h->layer, missing);
        return WF_PARTIAL;
    }
    return WF_OK;
}

wf_status wf_mesh_add_tile(wf_mesh* mesh, void* data, size_t size, uint32_t flags,
                           wf_tile_ref requested, wf_tile_ref* out_tile) {
    return add_tile(mesh, data, size, flags, requested, out_tile, false);
}

wf_status wf_mesh_add_built_tile(wf_mesh* mesh, void* data, size_t size, uint32_t flags,
                                 wf_tile_ref requested, wf_tile_ref* out_tile) {
    return add_tile(mesh, data, size, flags, requested, out_tile, true);
}

wf_tile_ref wf_mesh_free_slot_ref(const wf_mesh* mesh, uint32_t slot) {
    wf_tile_ref r = {0};
    if (slot < mesh->max_tiles && !mesh->tiles[slot].in_use) {
        r.bits = wf_poly_ref_make(mesh->tiles[slot].generation, slot, 0).bits;
    }
    return r;
}

wf_status wf_mesh_remove_tile(wf_mesh* mesh, wf_tile_ref tile, void** out_data, size_t* out_size) {
    WF_CHECK_ARG(mesh != NULL);
    const wf_mesh_tile* ct;
    wf_status s = wf_mesh_resolve_tile(mesh, tile, &ct);
    if (s != WF_OK) {
        return s;
    }
    wf_mesh_tile* t = (wf_mesh_tile*)ct;
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
                // Besides off-mesh links (its own, or the back links of this
                // tile's bidirectional ones landing there), a side neighbour
                // links here only from its portal edges facing this tile, a
                // diagonal one not at all: without off-mesh links on either
                // tile, only those polygons need a look.
                bool offmesh = o->offmesh_count > 0 || t->offmesh_count > 0;
                if (!offmesh && dx != 0 && dz != 0) {
                    continue;
                }
                if (!offmesh && (dx != 0 || dz != 0)) {
                    int facing = dx > 0 ? WF_SIDE_NEG_X
                                        : (dx < 0 ? WF_SIDE_POS_X
                                                  : (dz > 0 ? WF_SIDE_NEG_Z : WF_SIDE_POS_Z));
                    unlink_target(o, slot, o->portal_polys[facing][0], o->portal_polys[facing][1]);
                } else {
                    unlink_target(o, slot, 0, o->header->poly_count);
                }
            }
        }
    }
    uint32_t* at = &mesh->cell_heads[cell_hash(h->tile_x, h->tile_z, mesh->cell_mask)];
    while (*at != slot) {
        at = &mesh->tiles[*at].next_in_cell;
    }
    *at = t->next_in_cell;
    if (out_data != NULL) {
        *out_data = (t->flags & WF_TILE_MESH_OWNS_DATA) ? NULL : t->data;
    }
    if (out_size != NULL) {
        *out_size = (t->flags & WF_TILE_MESH_OWNS_DATA) ? 0 : t->size;
    }
    release_data(mesh, t);
    uint32_t next_generation = (t->generation + 1u) & GENERATION_MASK;
    memset(t, 0, sizeof *t);
    t->generation = next_generation == 0 ? 1u : next_generation;
    t->next_in_cell = WF_NO_TILE;
    // Freed slots go to the back: a stale ref's slot is reused as late as possible.
    t->next_free = WF_NO_TILE;
    if (mesh->free_tail == WF_NO_TILE) {
        mesh->free_head = slot;
    } else {
        mesh->tiles[mesh->free_tail].next_free = slot;
    }
    mesh->free_tail = slot;
    mesh->tile_count--;
    mesh->change_count++;
    return WF_OK;
}

wf_status wf_mesh_get_tile_info(const wf_mesh* mesh, wf_tile_ref tile, wf_tile_info* out) {
    WF_CHECK_ARG(mesh != NULL && out != NULL);
    const wf_mesh_tile* t;
    wf_status s = wf_mesh_resolve_tile(mesh, tile, &t);
    if (s != WF_OK) {
        return s;
    }
    const wf_tile_header* h = t->header;
    out->tile_x = h->tile_x;
    out->tile_z = h->tile_z;
    out->layer = h->layer;
    out->bmin = wf_v3(h->bmin[0], h->bmin[1], h->bmin[2]);
    out->bmax = wf_v3(h->bmax[0], h->bmax[1], h->bmax[2]);
    out->poly_count = h->poly_count - h->offmesh_count;
    out->offmesh_link_count = h->offmesh_count;
    out->vert_count = h->vert_count - 2u * h->offmesh_count;
    out->user_id = h->user_id;
    out->data_size = t->size;
    return WF_OK;
}

uint32_t wf_mesh_get_tiles(const wf_mesh* mesh, wf_tile_ref* out, uint32_t max) {
    if (mesh == NULL) {
        return 0;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < mesh->max_tiles; ++i) {
        if (mesh->tiles[i].in_use) {
            if (n < max && out != NULL) {
                out[n].bits = wf_mesh_tile_base(mesh, &mesh->tiles[i]).bits;
            }
            n++;
        }
    }
    return n;
}

static wf_status resolve_ground(const wf_mesh* mesh, wf_poly_ref ref, wf_mesh_tile** out_tile,
                                uint32_t* out_index) {
    const wf_mesh_tile* t;
    const wf_tile_poly* p;
    wf_status s = wf_mesh_resolve(mesh, ref, &t, &p);
    if (s == WF_OK) {
        *out_tile = (wf_mesh_tile*)t;
        *out_index = wf_tile_poly_index(t, p);
    }
    return s;
}

wf_status wf_mesh_set_poly_flags(wf_mesh* mesh, wf_poly_ref ref, uint16_t flags) {
    WF_CHECK_ARG(mesh != NULL);
    wf_mesh_tile* t;
    uint32_t i;
    wf_status s = resolve_ground(mesh, ref, &t, &i);
    if (s == WF_OK) {
        t->poly_flags[i] = flags;
    }
    return s;
}

wf_status wf_mesh_get_poly_flags(const wf_mesh* mesh, wf_poly_ref ref, uint16_t* out_flags) {
    WF_CHECK_ARG(mesh != NULL && out_flags != NULL);
    wf_mesh_tile* t;
    uint32_t i;
    wf_status s = resolve_ground(mesh, ref, &t, &i);
    if (s == WF_OK) {
        *out_flags = t->poly_flags[i];
    }
    return s;
}

wf_status wf_mesh_set_poly_area(wf_mesh* mesh, wf_poly_ref ref, uint8_t area) {
    WF_CHECK_ARG(mesh != NULL && area < WF_MAX_AREAS);
    wf_mesh_tile* t;
    uint32_t i;
    wf_status s = resolve_ground(mesh, ref, &t, &i);
    if (s == WF_OK) {
        t->poly_areas[i] = area;
    }
    return s;
}

wf_status wf_mesh_get_poly_area(const wf_mesh* mesh, wf_poly_ref ref, uint8_t* out_area) {
    WF_CHECK_ARG(mesh != NULL && out_area != NULL);
    wf_mesh_tile* t;
    uint32_t i;
    wf_status s = resolve_ground(mesh, ref, &t, &i);
    if (s == WF_OK) {
        *out_area = t->poly_areas[i];
    }
    return s;
}

wf_status wf_mesh_get_poly_surface(const wf_mesh* mesh, wf_poly_ref ref, float* out_m2) {
    WF_CHECK_ARG(mesh != NULL && out_m2 != NULL);
    const wf_mesh_tile* t;
    const wf_tile_poly* p;
    wf_status s = wf_mesh_resolve(mesh, ref, &t, &p);
    if (s != WF_OK) {
        return s;
    }
    // Shoelace over the outline on XZ.
    float twice = 0.0f;
    for (uint32_t k = 0; k < p->vert_count; ++k) {
        const float* a = &t->verts[3u * p->verts[k]];
        const float* b = &t->verts[3u * p->verts[k + 1u < p->vert_count ? k + 1u : 0u]];
        twice += a[0] * b[2] - b[0] * a[2];
    }
    *out_m2 = wf_poly_type(p) == WF_POLY_TYPE_OFFMESH ? 0.0f : fabsf(twice) * 0.5f;
    return WF_OK;
}

bool wf_mesh_is_offmesh_link(const wf_mesh* mesh, wf_poly_ref ref) {
    const wf_mesh_tile* t;
    const wf_tile_poly* p;
    return mesh != NULL && wf_mesh_resolve(mesh, ref, &t, &p) == WF_OK &&
           wf_poly_type(p) == WF_POLY_TYPE_OFFMESH;
}

static const wf_tile_offmesh* offmesh_of(const wf_mesh_tile* t, const wf_tile_poly* p) {
    uint32_t ground = t->header->poly_count - t->header->offmesh_count;
    return &t->offmesh[wf_tile_poly_index(t, p) - ground];
}

wf_status wf_mesh_get_offmesh_user_id(const wf_mesh* mesh, wf_poly_ref ref, uint32_t* out_user_id) {
    WF_CHECK_ARG(mesh != NULL && out_user_id != NULL);
    const wf_mesh_tile* t;
    const wf_tile_poly* p;
    wf_status s = wf_mesh_resolve(mesh, ref, &t, &p);
    if (s != WF_OK) {
        return s;
    }
    if (wf_poly_type(p) != WF_POLY_TYPE_OFFMESH) {
        return WF_ERR_INVALID_ARG;
    }
    *out_user_id = offmesh_of(t, p)->user_id;
    return WF_OK;
}

wf_status wf_mesh_get_offmesh_endpoints(const wf_mesh* mesh, wf_poly_ref previous,
                                        wf_poly_ref link, wf_vec3* out_start, wf_vec3* out_end) {
    WF_CHECK_ARG(mesh != NULL && out_start != NULL && out_end != NULL);
    const wf_mesh_tile* t;
    const wf_tile_poly* p;
    wf_status s = wf_mesh_resolve(mesh, link, &t, &p);
    if (s != WF_OK) {
        return s;
    }
    if (wf_poly_type(p) != WF_POLY_TYPE_OFFMESH) {
        return WF_ERR_INVALID_ARG;
    }
    wf_vec3 a = wf_tile_vertex(t, p->verts[0]), b = wf_tile_vertex(t, p->verts[1]);
    // Travelling from the end side when `previous` is the end's landing polygon.
    bool reversed = false;
    for (uint32_t k = t->first_link[wf_tile_poly_index(t, p)]; k != WF_NULL_LINK;
         k = t->links[k].next) {
        if (t->links[k].ref == previous.bits) {
            reversed = t->links[k].bmin == OFFMESH_AT_END;
            break;
        }
    }
    *out_start = reversed ? b : a;
    *out_end = reversed ? a : b;
    return WF_OK;
}

wf_status wf_mesh_get_poly_outline(const wf_mesh* mesh, wf_poly_ref ref, wf_poly_outline* out) {
    WF_CHECK_ARG(mesh != NULL && out != NULL);
    const wf_mesh_tile* t;
    const wf_tile_poly* p;
    wf_status s = wf_mesh_resolve(mesh, ref, &t, &p);
    if (s != WF_OK) {
        return s;
    }
    wf_poly_outline o;
    memset(&o, 0, sizeof o);
    o.vert_count = wf_tile_poly_vertices(t, p, o.verts);
    o.is_offmesh_link = wf_poly_type(p) == WF_POLY_TYPE_OFFMESH;
    o.is_bidirectional =
        o.is_offmesh_link && (offmesh_of(t, p)->flags & WF_OFFMESH_BIDIRECTIONAL) != 0;
    *out = o;
    return WF_OK;
}

wf_mesh_stats wf_mesh_get_stats(const wf_mesh* mesh) {
    wf_mesh_stats st;
    memset(&st, 0, sizeof st);
    if (mesh == NULL) {
        return st;
    }
    st.tile_count = mesh->tile_count;
    st.max_tiles = mesh->max_tiles;
    st.memory_bytes = sizeof *mesh + sizeof(wf_mesh_tile) * (size_t)mesh->max_tiles +
                      sizeof(uint32_t) * ((size_t)mesh->cell_mask + 1u);
    for (uint32_t i = 0; i < mesh->max_tiles; ++i) {
        const wf_mesh_tile* t = &mesh->tiles[i];
        if (t->in_use) {
            st.poly_count += t->header->poly_count - t->header->offmesh_count;
            if (t->flags & WF_TILE_MESH_OWNS_DATA) {
                st.memory_bytes += t->size;
            }
        }
    }
    return st;
}
