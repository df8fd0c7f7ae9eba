// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The tiled navmesh: tile slots with generations, a hash of grid cells,
// adding and removing tiles, per-polygon state and lookups. The links that
// stitch polygons together are made and undone in mesh_links.c.
#include <math.h>
#include <string.h>

#include "navcore/alloc.h"
#include "navcore/check.h"
#include "navcore/geometry.h"
#include "navcore/log.h"
#include "navcore/mesh_internal.h"
#include "navcore/mesh_links.h"

#define DEFAULT_MAX_TILES 1024u
#define GENERATION_MASK ((1u << WF_POLY_REF_GENERATION_BITS) - 1u)

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
    if (mesh != NULL && wf_poly_ref_poly(base) == 0 &&
        wf_mesh_resolve(mesh, base, &t, NULL) == WF_OK && index < t->header->poly_count) {
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
    for (uint32_t i = mesh->cell_heads[cell_hash(tile_x, tile_z, mesh->cell_mask)]; i != WF_NO_TILE;
         i = mesh->tiles[i].next_in_cell) {
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
    for (uint32_t i = mesh->cell_heads[cell_hash(tile_x, tile_z, mesh->cell_mask)]; i != WF_NO_TILE;
         i = mesh->tiles[i].next_in_cell) {
        const wf_mesh_tile* t = &mesh->tiles[i];
        if (t->tile_x == tile_x && t->tile_z == tile_z && t->layer == layer) {
            out_tile->bits = wf_mesh_tile_base(mesh, t).bits;
            return WF_OK;
        }
    }
    return WF_ERR_NOT_FOUND;
}

static inline float min_f(float a, float b) { return a < b ? a : b; }
static inline float max_f(float a, float b) { return a > b ? a : b; }

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
    t->link_portals = (wf_link_portal*)rt;
    rt += (size_t)h->max_link_count * sizeof(wf_link_portal);
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

static wf_status add_tile(wf_mesh* mesh, void* data, size_t size, uint32_t flags,
                          wf_tile_ref requested, wf_tile_ref* out_tile, bool built_here) {
    WF_CHECK_ARG(mesh != NULL && data != NULL && out_tile != NULL);
    WF_CHECK_ARG((flags & ~(uint32_t)WF_TILE_MESH_OWNS_DATA) == 0);
    wf_status s =
        built_here ? wf_tile_validate_structure(data, size) : wf_tile_validate(data, size);
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

    uint32_t missing = wf_mesh_link_tile(mesh, t);
    out_tile->bits = wf_mesh_tile_base(mesh, t).bits;
    if (missing > 0) {
        wf_log(&mesh->logger, WF_LOG_WARN,
               "add_tile (%d, %d, %d): %u links did not fit the tiles' link capacity", h->tile_x,
               h->tile_z, h->layer, missing);
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
    wf_mesh_unlink_tile(mesh, t);
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

wf_status wf_mesh_get_offmesh_endpoints(const wf_mesh* mesh, wf_poly_ref previous, wf_poly_ref link,
                                        wf_vec3* out_start, wf_vec3* out_end) {
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
            reversed = t->links[k].bmin == WF_LINK_OFFMESH_AT_END;
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
