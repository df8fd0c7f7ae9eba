// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Layer -> navmesh tile: runs regions, contours and the polygon mesh in the
// caller's scratch arena, then writes the tile blob with wf_tile_build_into
// (navcore/tile_blob_writer.c).
#include "tilecache/layer_to_tile.h"

#include <math.h>
#include <string.h>

#include "navcore/alloc.h"
#include "navcore/check.h"
#include "navcore/tile_blob_size.h"
#include "tilecache/polymesh.h"

static size_t max_size(size_t a, size_t b) { return a > b ? a : b; }

/// The float arrays wf_tile_build_desc wants, made last.
static size_t desc_size(uint32_t width, uint32_t depth) {
    size_t cells = (size_t)width * depth;
    size_t verts = wf_layer_contours_max_verts(width, depth);
    verts = verts < 0xfffeu ? verts : 0xfffeu;
    return verts * 3u * sizeof(float) + 2u * cells * sizeof(uint16_t) + 2u * WF_SCRATCH_ALIGN_SLACK;
}

/// Each step keeps some arrays for the next and frees the rest, so the
/// bound is what the earlier steps keep plus the most a later step needs
/// at once. Each step states both (next to its allocations) for the worst
/// layer of that size: every cell a region of its own (4 contacts per
/// cell), one outline vertex per region edge (4 per cell in all, 2A + 2
/// for a region of A cells), 2 polygons per cell. Hostile layers (a
/// checkerboard of heights and areas) need most of it; real layers use a
/// few percent (arena->high_water tells).
size_t wf_layer_tile_scratch_size(uint32_t width, uint32_t depth) {
    if (width == 0 || depth == 0 || width > WF_LAYER_MAX_SIZE || depth > WF_LAYER_MAX_SIZE) {
        return 0;
    }
    size_t mesh = wf_layer_polymesh_kept_size(width, depth) +
                  max_size(wf_layer_polymesh_temp_size(width, depth), desc_size(width, depth));
    size_t contours = wf_layer_contours_kept_size(width, depth) +
                      max_size(wf_layer_contours_temp_size(width, depth), mesh);
    return wf_layer_regions_kept_size(width, depth) +
           max_size(wf_layer_regions_temp_size(width, depth), contours);
}

static bool finite_non_negative(float v) { return isfinite(v) && v >= 0.0f; }

static wf_status check_input(const wf_layer* layer, const wf_layer_tile_params* p) {
    WF_CHECK_ARG(layer->width > 0 && layer->width <= WF_LAYER_MAX_SIZE);
    WF_CHECK_ARG(layer->depth > 0 && layer->depth <= WF_LAYER_MAX_SIZE);
    WF_CHECK_ARG(layer->heights != NULL && layer->areas != NULL && layer->cons != NULL);
    WF_CHECK_ARG(isfinite(layer->cs) && layer->cs > 0.0f && isfinite(layer->ch) &&
                 layer->ch > 0.0f);
    for (int k = 0; k < 3; ++k) {
        WF_CHECK_ARG(isfinite(layer->bmin[k]) && isfinite(layer->bmax[k]));
    }
    WF_CHECK_ARG(layer->bmin[0] < layer->bmax[0] && layer->bmin[2] < layer->bmax[2]);
    WF_CHECK_ARG(p->max_verts_per_poly == 0 ||
                 (p->max_verts_per_poly >= 3 && p->max_verts_per_poly <= WF_MAX_VERTS_PER_POLY));
    WF_CHECK_ARG(finite_non_negative(p->max_edge_length) &&
                 finite_non_negative(p->max_simplification_error));
    WF_CHECK_ARG(isfinite(p->walkable_height) && isfinite(p->walkable_radius) &&
                 isfinite(p->walkable_climb));
    return WF_OK;
}

// World positions of the mesh vertices; the far tile edge takes bmax
// exactly so that neighbouring tiles' border vertices coincide.
static void world_verts(const wf_layer* layer, const wf_layer_polymesh* mesh, float* out,
                        float* out_y_lo, float* out_y_hi) {
    uint32_t y_hi = 0;
    for (uint32_t i = 0; i < mesh->vert_count; ++i) {
        const wf_polymesh_vertex* v = &mesh->verts[i];
        out[3 * i + 0] =
            v->x == layer->width ? layer->bmax[0] : layer->bmin[0] + (float)v->x * layer->cs;
        out[3 * i + 1] = layer->bmin[1] + (float)(layer->hmin + v->y) * layer->ch;
        out[3 * i + 2] =
            v->z == layer->depth ? layer->bmax[2] : layer->bmin[2] + (float)v->z * layer->cs;
        y_hi = v->y > y_hi ? v->y : y_hi;
    }
    // The layer's own range (vertices lie at or above hmin), widened to the
    // vertices in case the two disagree, with a cell height of margin.
    uint32_t hi = layer->hmin + y_hi > layer->hmax ? layer->hmin + y_hi : layer->hmax;
    *out_y_lo = layer->bmin[1] + ((float)layer->hmin - 1.0f) * layer->ch;
    *out_y_hi = layer->bmin[1] + ((float)hi + 1.0f) * layer->ch;
}

static wf_status build(wf_layer* layer, const wf_layer_tile_params* params, wf_arena* scratch,
                       void* out, size_t out_capacity, size_t* out_size) {
    wf_layer_regions regions;
    wf_status s = wf_layer_regions_build(layer, params->min_region_area, params->merge_region_area,
                                         scratch, &regions);
    if (s != WF_OK) {
        return s;
    }
    wf_layer_contours contours;
    s = wf_layer_contours_build(layer, &regions, params->max_simplification_error,
                                params->max_edge_length, scratch, &contours);
    if (s != WF_OK) {
        return s;
    }
    wf_layer_polymesh mesh;
    uint32_t max_verts =
        params->max_verts_per_poly ? params->max_verts_per_poly : (uint32_t)WF_MAX_VERTS_PER_POLY;
    s = wf_layer_polymesh_build(&contours, regions.areas, max_verts, scratch, &mesh);
    if (s != WF_OK) {
        return s;
    }
    if (mesh.poly_count == 0) {
        return WF_ERR_NOT_FOUND;
    }
    float* verts = WF_ARENA_ARRAY(scratch, float, 3u * (size_t)mesh.vert_count);
    uint16_t* flags = NULL; // NULL means all 1
    for (uint32_t i = 0; params->area_flags != NULL && i < mesh.poly_count; ++i) {
        uint16_t f = params->area_flags[mesh.areas[i] % WF_MAX_AREAS];
        f = f != 0 ? f : 1u;
        if (flags == NULL && f != 1u) {
            flags = WF_ARENA_ARRAY(scratch, uint16_t, mesh.poly_count);
            if (flags == NULL) {
                return WF_ERR_CAPACITY;
            }
            for (uint32_t k = 0; k < i; ++k) {
                flags[k] = 1u;
            }
        }
        if (flags != NULL) {
            flags[i] = f;
        }
    }
    if (verts == NULL) {
        return WF_ERR_CAPACITY;
    }
    wf_tile_build_desc d;
    memset(&d, 0, sizeof d);
    d.tile_x = layer->tile_x;
    d.tile_z = layer->tile_z;
    d.layer = layer->layer;
    float y_lo, y_hi;
    world_verts(layer, &mesh, verts, &y_lo, &y_hi);
    // Finite cell sizes and bounds can still overflow here (a cell height
    // of 1e38 from a hostile cache file): such a layer is bad data.
    bool finite = isfinite(y_lo) && isfinite(y_hi);
    for (uint32_t i = 0; i < 3u * mesh.vert_count; ++i) {
        finite &= isfinite(verts[i]) != 0;
    }
    if (!finite) {
        return WF_ERR_BAD_DATA;
    }
    d.bmin = wf_v3(layer->bmin[0], y_lo, layer->bmin[2]);
    d.bmax = wf_v3(layer->bmax[0], y_hi, layer->bmax[2]);
    d.verts = verts;
    d.vert_count = mesh.vert_count;
    d.polys = mesh.polys;
    d.poly_count = mesh.poly_count;
    d.areas = mesh.areas;
    d.flags = flags;
    d.walkable_height = params->walkable_height;
    d.walkable_radius = params->walkable_radius;
    d.walkable_climb = params->walkable_climb;
    d.offmesh_links = params->offmesh_links;
    d.offmesh_link_count = params->offmesh_link_count;
    if (out != NULL) {
        s = wf_tile_build_into(&d, out, out_capacity);
        if (s != WF_ERR_CAPACITY) {
            if (s == WF_OK) {
                *out_size = wf_tile_blob_size(out);
            }
            return s;
        }
    }
    size_t size = 0;
    s = wf_tile_build_size(&d, &size);
    if (s == WF_OK) {
        *out_size = size; // the blob is this big; out is not
        return WF_ERR_CAPACITY;
    }
    return s;
}

wf_status wf_layer_build_tile(wf_layer* layer, const wf_layer_tile_params* params,
                              wf_arena* scratch, void* out, size_t out_capacity, size_t* out_size) {
    WF_CHECK_ARG(layer != NULL && params != NULL && scratch != NULL && out_size != NULL);
    WF_CHECK_ARG(out != NULL || out_capacity == 0);
    WF_CHECK_ARG(((uintptr_t)out & 15u) == 0);
    *out_size = 0;
    wf_status s = check_input(layer, params);
    if (s != WF_OK) {
        return s;
    }
    wf_arena_mark mark = wf_arena_get_mark(scratch);
    s = build(layer, params, scratch, out, out_capacity, out_size);
    wf_arena_reset_to(scratch, mark); // the scratch is the caller's again
    return s;
}
