// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Builds a tile blob from a polygon mesh: validates the input, lays out the
// sections, finds shared edges, builds the bounding-volume tree, checksums.
// Works inside the output buffer only (its run-time section is scratch
// during the build), so the tile cache can build without allocating.
#include <math.h>
#include <string.h>

#include "navcore/alloc.h"
#include "navcore/check.h"
#include "navcore/tile_blob_size.h"
#include "navcore/tile_format.h"

typedef struct tile_layout {
    uint32_t ground_polys;
    uint32_t total_polys;
    uint32_t total_verts;
    uint32_t detail_meshes;
    uint32_t bv_nodes;
    uint32_t max_links;
    uint32_t
        offsets[8]; // verts, polys, detail meshes, detail verts, detail tris, bv, offmesh, runtime
    uint64_t size;
} tile_layout;

static uint64_t align_up(uint64_t v) {
    return (v + WF_TILE_SECTION_ALIGN - 1u) & ~(uint64_t)(WF_TILE_SECTION_ALIGN - 1u);
}

static bool finite3(const float* v) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

static uint32_t poly_vertex_count(const uint16_t* p) {
    uint32_t n = 0;
    while (n < WF_MAX_VERTS_PER_POLY && p[n] != WF_NULL_INDEX) {
        n++;
    }
    return n;
}

/// How far off a tile bound an edge may lie and still be on it.
static float border_eps(const wf_tile_build_desc* d) {
    return 1e-4f * fmaxf(1.0f, fmaxf(d->bmax.x - d->bmin.x, d->bmax.z - d->bmin.z));
}

// An edge lying on one of the tile's x or z bounds: a potential portal.
// Returns the side, or -1. eps is border_eps(d), made once per tile.
static int border_side(const float* a, const float* b, const wf_tile_build_desc* d, float eps) {
    if (fabsf(a[0] - d->bmax.x) <= eps && fabsf(b[0] - d->bmax.x) <= eps)
        return WF_SIDE_POS_X;
    if (fabsf(a[2] - d->bmax.z) <= eps && fabsf(b[2] - d->bmax.z) <= eps)
        return WF_SIDE_POS_Z;
    if (fabsf(a[0] - d->bmin.x) <= eps && fabsf(b[0] - d->bmin.x) <= eps)
        return WF_SIDE_NEG_X;
    if (fabsf(a[2] - d->bmin.z) <= eps && fabsf(b[2] - d->bmin.z) <= eps)
        return WF_SIDE_NEG_Z;
    return -1;
}

static wf_status check_desc(const wf_tile_build_desc* d) {
    WF_CHECK_ARG(d != NULL);
    WF_CHECK_ARG(wf_v3_is_finite(d->bmin) && wf_v3_is_finite(d->bmax));
    WF_CHECK_ARG(d->bmin.x <= d->bmax.x && d->bmin.y <= d->bmax.y && d->bmin.z <= d->bmax.z);
    WF_CHECK_ARG(d->poly_count == 0 || (d->polys != NULL && d->verts != NULL));
    WF_CHECK_ARG(d->offmesh_link_count == 0 || d->offmesh_links != NULL);
    if ((uint64_t)d->vert_count + 2u * (uint64_t)d->offmesh_link_count > 0xfffeu ||
        (uint64_t)d->poly_count + d->offmesh_link_count > WF_MAX_POLYS_PER_TILE ||
        d->poly_count + d->offmesh_link_count > 0x7ffeu) {
        return WF_ERR_CAPACITY; // poly indices + 1 must fit the 15-bit neighbour field
    }
    for (uint32_t i = 0; i < d->vert_count; ++i) {
        WF_CHECK_ARG(finite3(&d->verts[3 * i]));
    }
    for (uint32_t i = 0; i < d->poly_count; ++i) {
        const uint16_t* p = &d->polys[i * WF_MAX_VERTS_PER_POLY];
        uint32_t n = poly_vertex_count(p);
        WF_CHECK_ARG(n >= 3);
        for (uint32_t k = 0; k < WF_MAX_VERTS_PER_POLY; ++k) {
            WF_CHECK_ARG(k < n ? p[k] < d->vert_count : p[k] == WF_NULL_INDEX);
        }
        if (d->areas != NULL) {
            WF_CHECK_ARG(d->areas[i] < WF_MAX_AREAS);
        }
        if (d->neighbours != NULL) {
            const uint16_t* nb = &d->neighbours[i * WF_MAX_VERTS_PER_POLY];
            for (uint32_t k = 0; k < n; ++k) {
                bool portal = (nb[k] & WF_PORTAL_EDGE) != 0 && nb[k] != WF_NULL_INDEX;
                WF_CHECK_ARG(nb[k] == WF_NULL_INDEX || nb[k] < d->poly_count ||
                             (portal && (nb[k] & ~WF_PORTAL_EDGE) < 4u));
            }
        }
    }
    if (d->detail_meshes != NULL) {
        WF_CHECK_ARG(d->detail_vert_count == 0 || d->detail_verts != NULL);
        WF_CHECK_ARG(d->detail_tri_count == 0 || d->detail_tris != NULL);
        for (uint32_t i = 0; i < d->detail_vert_count; ++i) {
            WF_CHECK_ARG(finite3(&d->detail_verts[3 * i]));
        }
        for (uint32_t i = 0; i < d->poly_count; ++i) {
            const uint32_t* m = &d->detail_meshes[4 * i];
            uint32_t nv = poly_vertex_count(&d->polys[i * WF_MAX_VERTS_PER_POLY]);
            WF_CHECK_ARG(m[1] <= 255u && m[3] <= 255u && m[1] + nv <= 255u);
            WF_CHECK_ARG((uint64_t)m[0] + m[1] <= d->detail_vert_count);
            WF_CHECK_ARG((uint64_t)m[2] + m[3] <= d->detail_tri_count);
            for (uint32_t t = 0; t < m[3]; ++t) {
                const uint8_t* tri = &d->detail_tris[4 * (m[2] + t)];
                for (int k = 0; k < 3; ++k) {
                    WF_CHECK_ARG(tri[k] < nv + m[1]);
                }
            }
        }
    }
    for (uint32_t i = 0; i < d->offmesh_link_count; ++i) {
        const wf_offmesh_link_desc* o = &d->offmesh_links[i];
        WF_CHECK_ARG(wf_v3_is_finite(o->start) && wf_v3_is_finite(o->end));
        WF_CHECK_ARG(isfinite(o->radius) && o->radius >= 0.0f && o->area < WF_MAX_AREAS);
        // The start must lie in this tile: that is where the link is stored.
        WF_CHECK_ARG(o->start.x >= d->bmin.x && o->start.x <= d->bmax.x &&
                     o->start.z >= d->bmin.z && o->start.z <= d->bmax.z);
    }
    WF_CHECK_ARG(isfinite(d->walkable_height) && isfinite(d->walkable_radius) &&
                 isfinite(d->walkable_climb));
    return WF_OK;
}

static uint32_t count_links(const wf_tile_build_desc* d) {
    uint64_t links = 0;
    const float eps = border_eps(d);
    for (uint32_t i = 0; i < d->poly_count; ++i) {
        const uint16_t* p = &d->polys[i * WF_MAX_VERTS_PER_POLY];
        uint32_t n = poly_vertex_count(p);
        for (uint32_t k = 0; k < n; ++k) {
            bool portal;
            if (d->neighbours != NULL) {
                uint16_t nb = d->neighbours[i * WF_MAX_VERTS_PER_POLY + k];
                portal = nb != WF_NULL_INDEX && (nb & WF_PORTAL_EDGE) != 0;
            } else {
                uint32_t next = k + 1u < n ? k + 1u : 0u;
                portal = border_side(&d->verts[3 * p[k]], &d->verts[3 * p[next]], d, eps) >= 0;
            }
            links += portal ? WF_TILE_LINKS_PER_PORTAL : 1u;
        }
    }
    links += (uint64_t)d->offmesh_link_count * WF_TILE_LINKS_PER_OFFMESH;
    links += WF_TILE_FOREIGN_LANDING_LINKS;
    return links > 0x7fffffffu ? 0x7fffffffu : (uint32_t)links;
}

static wf_status compute_layout(const wf_tile_build_desc* d, tile_layout* l) {
    memset(l, 0, sizeof *l);
    l->ground_polys = d->poly_count;
    l->total_polys = d->poly_count + d->offmesh_link_count;
    l->total_verts = d->vert_count + 2u * d->offmesh_link_count;
    l->detail_meshes = d->detail_meshes != NULL ? d->poly_count : 0u;
    l->bv_nodes = d->poly_count > 0 ? 2u * d->poly_count - 1u : 0u;
    l->max_links = count_links(d);
    uint64_t sizes[8] = {
        (uint64_t)l->total_verts * 12u,
        (uint64_t)l->total_polys * sizeof(wf_tile_poly),
        (uint64_t)l->detail_meshes * sizeof(wf_tile_detail),
        l->detail_meshes ? (uint64_t)d->detail_vert_count * 12u : 0u,
        l->detail_meshes ? (uint64_t)d->detail_tri_count * 4u : 0u,
        (uint64_t)l->bv_nodes * sizeof(wf_tile_bv_node),
        (uint64_t)d->offmesh_link_count * sizeof(wf_tile_offmesh),
        wf_tile_runtime_size(l->total_polys, l->max_links),
    };
    uint64_t at = align_up(sizeof(wf_tile_header));
    for (int i = 0; i < 8; ++i) {
        l->offsets[i] = (uint32_t)at;
        at = align_up(at + sizes[i]);
        if (at > 0x7fffffffu) {
            return WF_ERR_CAPACITY; // blob sizes are 32-bit
        }
    }
    l->size = at;
    return WF_OK;
}

wf_status wf_tile_build_size(const wf_tile_build_desc* desc, size_t* out_size) {
    WF_CHECK_ARG(out_size != NULL);
    wf_status s = check_desc(desc);
    if (s != WF_OK) {
        return s;
    }
    tile_layout l;
    s = compute_layout(desc, &l);
    if (s == WF_OK) {
        *out_size = (size_t)l.size;
    }
    return s;
}

/* Shared edges: sort (min vertex, max vertex) edge records, equal keys are
 * the two sides of one edge. The records live in the run-time section. */
typedef struct edge_record {
    uint32_t key; // min vertex << 16 | max vertex
    uint32_t poly;
    uint32_t edge;
    uint32_t unused;
} edge_record;

static bool edge_after(const edge_record* x, const edge_record* y) {
    if (x->key != y->key)
        return x->key > y->key;
    if (x->poly != y->poly)
        return x->poly > y->poly;
    return x->edge > y->edge;
}

// In-place heap sort: the C library's qsort may allocate (glibc does for
// large arrays), and building a tile must not touch the heap.
static void sort_edges(edge_record* e, uint32_t count) {
    for (uint32_t phase = 0; phase < 2; ++phase) {
        uint32_t n = count;
        uint32_t start = phase == 0 ? count / 2 : count;
        while (phase == 0 ? start-- > 0 : n-- > 1) {
            uint32_t root = phase == 0 ? start : 0;
            if (phase == 1) {
                edge_record t = e[0];
                e[0] = e[n];
                e[n] = t;
            }
            for (;;) {
                uint32_t child = 2 * root + 1;
                if (child >= n)
                    break;
                if (child + 1 < n && edge_after(&e[child + 1], &e[child]))
                    child++;
                if (!edge_after(&e[child], &e[root]))
                    break;
                edge_record t = e[root];
                e[root] = e[child];
                e[child] = t;
                root = child;
            }
        }
    }
}

static void find_neighbours(const wf_tile_build_desc* d, wf_tile_poly* polys, void* scratch) {
    edge_record* edges = scratch;
    uint32_t count = 0;
    for (uint32_t i = 0; i < d->poly_count; ++i) {
        wf_tile_poly* p = &polys[i];
        for (uint32_t k = 0; k < p->vert_count; ++k) {
            uint32_t a = p->verts[k], b = p->verts[k + 1u < p->vert_count ? k + 1u : 0u];
            edges[count++] = (edge_record){(a < b ? a : b) << 16 | (a < b ? b : a), i, k, 0};
            p->neighbours[k] = 0;
        }
    }
    sort_edges(edges, count);
    const float eps = border_eps(d);
    for (uint32_t i = 0; i + 1 < count; ++i) {
        // Exactly two polygons on an edge connect; a third would be
        // non-manifold input, and is left as a wall.
        if (edges[i].key == edges[i + 1].key && edges[i].poly != edges[i + 1].poly &&
            (i + 2 >= count || edges[i + 2].key != edges[i].key) &&
            (i == 0 || edges[i - 1].key != edges[i].key)) {
            polys[edges[i].poly].neighbours[edges[i].edge] = (uint16_t)(edges[i + 1].poly + 1u);
            polys[edges[i + 1].poly].neighbours[edges[i + 1].edge] = (uint16_t)(edges[i].poly + 1u);
        }
    }
    for (uint32_t i = 0; i < d->poly_count; ++i) {
        wf_tile_poly* p = &polys[i];
        for (uint32_t k = 0; k < p->vert_count; ++k) {
            if (p->neighbours[k] == 0) {
                uint32_t next = k + 1u < p->vert_count ? k + 1u : 0u;
                int side =
                    border_side(&d->verts[3 * p->verts[k]], &d->verts[3 * p->verts[next]], d, eps);
                if (side >= 0) {
                    p->neighbours[k] = (uint16_t)(WF_PORTAL_EDGE | (uint32_t)side);
                }
            }
        }
    }
}

/* Bounding-volume tree: median split on the longest axis, stored in
 * depth-first order; an inner node's negative index skips its subtree. */
static bool bv_item_after(const wf_tile_bv_node* a, const wf_tile_bv_node* b, int axis) {
    uint32_t ca = (uint32_t)a->bmin[axis] + a->bmax[axis];
    uint32_t cb = (uint32_t)b->bmin[axis] + b->bmax[axis];
    return ca != cb ? ca > cb : a->index > b->index;
}

static void bv_sift_down(wf_tile_bv_node* items, uint32_t root, uint32_t count, int axis) {
    for (;;) {
        uint32_t child = 2 * root + 1;
        if (child >= count) {
            return;
        }
        if (child + 1 < count && bv_item_after(&items[child + 1], &items[child], axis)) {
            child++;
        }
        if (!bv_item_after(&items[child], &items[root], axis)) {
            return;
        }
        wf_tile_bv_node t = items[root];
        items[root] = items[child];
        items[child] = t;
        root = child;
    }
}

// Heap sort by centre along an axis (qsort has no context argument in C11,
// and tiles build on several workers at once, so no global may carry it).
static void sort_items(wf_tile_bv_node* items, uint32_t count, int axis) {
    for (uint32_t start = count / 2; start-- > 0;) {
        bv_sift_down(items, start, count, axis);
    }
    for (uint32_t end = count; end-- > 1;) {
        wf_tile_bv_node t = items[0];
        items[0] = items[end];
        items[end] = t;
        bv_sift_down(items, 0, end, axis);
    }
}

static void bv_build(wf_tile_bv_node* items, uint32_t begin, uint32_t end, wf_tile_bv_node* nodes,
                     uint32_t* node_count) {
    uint32_t index = (*node_count)++;
    wf_tile_bv_node* node = &nodes[index];
    if (end - begin == 1) {
        *node = items[begin];
        return;
    }
    wf_tile_bv_node box = items[begin];
    for (uint32_t i = begin + 1; i < end; ++i) {
        for (int k = 0; k < 3; ++k) {
            box.bmin[k] = items[i].bmin[k] < box.bmin[k] ? items[i].bmin[k] : box.bmin[k];
            box.bmax[k] = items[i].bmax[k] > box.bmax[k] ? items[i].bmax[k] : box.bmax[k];
        }
    }
    int axis = 0;
    int ext[3];
    for (int k = 0; k < 3; ++k) {
        ext[k] = box.bmax[k] - box.bmin[k];
    }
    if (ext[2] > ext[axis])
        axis = 2;
    if (ext[1] > ext[axis])
        axis = 1;
    sort_items(items + begin, end - begin, axis);
    uint32_t mid = begin + (end - begin) / 2;
    bv_build(items, begin, mid, nodes, node_count);
    bv_build(items, mid, end, nodes, node_count);
    memcpy(node->bmin, box.bmin, sizeof box.bmin);
    memcpy(node->bmax, box.bmax, sizeof box.bmax);
    node->index = -(int32_t)(*node_count - index); // skip this whole subtree
}

static uint16_t quantize(float v, float lo, float q, bool round_up) {
    float f = (v - lo) * q;
    f = round_up ? ceilf(f) : floorf(f);
    f = f < 0.0f ? 0.0f : (f > 65535.0f ? 65535.0f : f);
    return (uint16_t)f;
}

static uint32_t build_bv_tree(const wf_tile_build_desc* d, const wf_tile_header* h,
                              const float* verts, const wf_tile_poly* polys, void* scratch,
                              wf_tile_bv_node* nodes) {
    wf_tile_bv_node* items = scratch;
    for (uint32_t i = 0; i < d->poly_count; ++i) {
        const wf_tile_poly* p = &polys[i];
        float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (uint32_t k = 0; k < p->vert_count; ++k) {
            const float* v = &verts[3 * p->verts[k]];
            for (int a = 0; a < 3; ++a) {
                lo[a] = fminf(lo[a], v[a]);
                hi[a] = fmaxf(hi[a], v[a]);
            }
        }
        if (d->detail_meshes != NULL) { // detail vertices may rise above the polygon
            const uint32_t* m = &d->detail_meshes[4 * i];
            for (uint32_t k = 0; k < m[1]; ++k) {
                const float* v = &d->detail_verts[3 * (m[0] + k)];
                lo[1] = fminf(lo[1], v[1]);
                hi[1] = fmaxf(hi[1], v[1]);
            }
        }
        for (int a = 0; a < 3; ++a) {
            items[i].bmin[a] = quantize(lo[a], h->bmin[a], h->bv_quant, false);
            items[i].bmax[a] = quantize(hi[a], h->bmin[a], h->bv_quant, true);
        }
        items[i].index = (int32_t)i;
    }
    uint32_t count = 0;
    if (d->poly_count > 0) {
        bv_build(items, 0, d->poly_count, nodes, &count);
    }
    return count;
}

size_t wf_tile_blob_size(const void* blob) { return ((const wf_tile_header*)blob)->data_size; }

wf_status wf_tile_build_into(const wf_tile_build_desc* desc, void* buffer, size_t buffer_size) {
    wf_status s = check_desc(desc);
    if (s != WF_OK) {
        return s;
    }
    WF_CHECK_ARG(buffer != NULL && ((uintptr_t)buffer & 7u) == 0);
    tile_layout l;
    s = compute_layout(desc, &l);
    if (s != WF_OK) {
        return s;
    }
    if (buffer_size < l.size) {
        return WF_ERR_CAPACITY;
    }
    const wf_tile_build_desc* d = desc;
    unsigned char* base = buffer;
    // The run-time section serves as scratch below and is cleared last.
    memset(base, 0, l.offsets[7]);
    wf_tile_header* h = buffer;
    h->magic = WF_TILE_MAGIC;
    h->version = WF_TILE_VERSION;
    h->data_size = (uint32_t)l.size;
    h->tile_x = d->tile_x;
    h->tile_z = d->tile_z;
    h->layer = d->layer;
    h->user_id = d->user_id;
    h->bmin[0] = d->bmin.x, h->bmin[1] = d->bmin.y, h->bmin[2] = d->bmin.z;
    h->bmax[0] = d->bmax.x, h->bmax[1] = d->bmax.y, h->bmax[2] = d->bmax.z;
    h->walkable_height = d->walkable_height;
    h->walkable_radius = d->walkable_radius;
    h->walkable_climb = d->walkable_climb;
    float extent =
        fmaxf(fmaxf(d->bmax.x - d->bmin.x, d->bmax.y - d->bmin.y), d->bmax.z - d->bmin.z);
    h->bv_quant = 65534.0f / fmaxf(extent, 1e-3f);
    h->vert_count = l.total_verts;
    h->poly_count = l.total_polys;
    h->offmesh_count = d->offmesh_link_count;
    h->detail_mesh_count = l.detail_meshes;
    h->detail_vert_count = l.detail_meshes ? d->detail_vert_count : 0u;
    h->detail_tri_count = l.detail_meshes ? d->detail_tri_count : 0u;
    h->max_link_count = l.max_links;
    h->verts_offset = l.offsets[0];
    h->polys_offset = l.offsets[1];
    h->detail_meshes_offset = l.offsets[2];
    h->detail_verts_offset = l.offsets[3];
    h->detail_tris_offset = l.offsets[4];
    h->bv_offset = l.offsets[5];
    h->offmesh_offset = l.offsets[6];
    h->runtime_offset = l.offsets[7];

    float* verts = (float*)(base + h->verts_offset);
    if (d->vert_count > 0) {
        memcpy(verts, d->verts, sizeof(float) * 3u * d->vert_count);
    }
    wf_tile_poly* polys = (wf_tile_poly*)(base + h->polys_offset);
    for (uint32_t i = 0; i < d->poly_count; ++i) {
        const uint16_t* src = &d->polys[i * WF_MAX_VERTS_PER_POLY];
        wf_tile_poly* p = &polys[i];
        p->vert_count = (uint8_t)poly_vertex_count(src);
        for (uint32_t k = 0; k < WF_MAX_VERTS_PER_POLY; ++k) {
            p->verts[k] = src[k];
            uint16_t nb = d->neighbours != NULL ? d->neighbours[i * WF_MAX_VERTS_PER_POLY + k]
                                                : WF_NULL_INDEX;
            if (k >= p->vert_count || nb == WF_NULL_INDEX) {
                p->neighbours[k] = 0;
            } else if (nb & WF_PORTAL_EDGE) {
                p->neighbours[k] = nb;
            } else {
                p->neighbours[k] = (uint16_t)(nb + 1u);
            }
        }
        p->flags = d->flags != NULL ? d->flags[i] : 1u;
        p->area_and_type = (uint8_t)((d->areas != NULL ? d->areas[i] : 0u) |
                                     (WF_POLY_TYPE_GROUND << WF_POLY_TYPE_SHIFT));
    }
    void* scratch = base + h->runtime_offset; // rewritten by the mesh on add
    if (d->neighbours == NULL) {
        find_neighbours(d, polys, scratch);
    }
    // Off-mesh links: two vertices and one polygon each, after the ground.
    wf_tile_offmesh* offmesh = (wf_tile_offmesh*)(base + h->offmesh_offset);
    for (uint32_t i = 0; i < d->offmesh_link_count; ++i) {
        const wf_offmesh_link_desc* o = &d->offmesh_links[i];
        uint32_t v = d->vert_count + 2u * i;
        float* pv = &verts[3u * v];
        pv[0] = o->start.x, pv[1] = o->start.y, pv[2] = o->start.z;
        pv[3] = o->end.x, pv[4] = o->end.y, pv[5] = o->end.z;
        wf_tile_poly* p = &polys[d->poly_count + i];
        for (uint32_t k = 0; k < WF_MAX_VERTS_PER_POLY; ++k) {
            p->verts[k] = WF_NULL_INDEX;
        }
        p->verts[0] = (uint16_t)v;
        p->verts[1] = (uint16_t)(v + 1u);
        p->vert_count = 2;
        p->flags = o->flags;
        p->area_and_type = (uint8_t)(o->area | (WF_POLY_TYPE_OFFMESH << WF_POLY_TYPE_SHIFT));
        wf_tile_offmesh* t = &offmesh[i];
        memcpy(t->pos, pv, sizeof t->pos);
        t->radius = o->radius;
        t->poly = (uint16_t)(d->poly_count + i);
        t->flags = o->bidirectional ? WF_OFFMESH_BIDIRECTIONAL : 0u;
        t->user_id = o->user_id;
    }
    if (l.detail_meshes) {
        wf_tile_detail* dm = (wf_tile_detail*)(base + h->detail_meshes_offset);
        for (uint32_t i = 0; i < d->poly_count; ++i) {
            const uint32_t* m = &d->detail_meshes[4 * i];
            dm[i].vert_base = m[0];
            dm[i].vert_count = (uint8_t)m[1];
            dm[i].tri_base = m[2];
            dm[i].tri_count = (uint8_t)m[3];
        }
        if (d->detail_vert_count > 0) {
            memcpy(base + h->detail_verts_offset, d->detail_verts,
                   sizeof(float) * 3u * d->detail_vert_count);
        }
        if (d->detail_tri_count > 0) {
            memcpy(base + h->detail_tris_offset, d->detail_tris, 4u * (size_t)d->detail_tri_count);
        }
    }
    h->bv_node_count =
        build_bv_tree(d, h, verts, polys, scratch, (wf_tile_bv_node*)(base + h->bv_offset));
    memset(scratch, 0, (size_t)(l.size - h->runtime_offset));
    h->checksum = wf_tile_checksum(base, h->runtime_offset);
    return WF_OK;
}

wf_status wf_tile_build(const wf_tile_build_desc* desc, void** out_data, size_t* out_size) {
    WF_CHECK_ARG(desc != NULL && out_data != NULL && out_size != NULL);
    wf_allocator a;
    WF_CHECK_ARG(wf_allocator_resolve(&desc->allocator, &a) == WF_OK);
    size_t size = 0;
    wf_status s = wf_tile_build_size(desc, &size);
    if (s != WF_OK) {
        return s;
    }
    void* data = wf_alloc(&a, size, WF_TILE_SECTION_ALIGN);
    if (data == NULL) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    s = wf_tile_build_into(desc, data, size);
    if (s != WF_OK) {
        wf_free(&a, data, size, WF_TILE_SECTION_ALIGN);
        return s;
    }
    *out_data = data;
    *out_size = size;
    return WF_OK;
}

void wf_tile_free(void* data, size_t size, const wf_allocator* allocator) {
    wf_allocator a;
    if (data == NULL || wf_allocator_resolve(allocator, &a) != WF_OK) {
        return;
    }
    wf_free(&a, data, size, WF_TILE_SECTION_ALIGN);
}
