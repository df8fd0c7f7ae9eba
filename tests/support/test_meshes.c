// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Grid test meshes: one square polygon per free cell.
#include "test_meshes.h"

#include <stdlib.h>
#include <string.h>

#include "wayfarer/query.h"

void* test_grid_tile(uint32_t tx, uint32_t tz, uint32_t tiles_x, uint32_t cells_per_tile,
                     float cell_size, const uint8_t* blocked, const uint8_t* areas,
                     const wf_allocator* allocator, size_t* out_size) {
    uint32_t n = cells_per_tile;
    uint32_t stride = tiles_x * n; // global cells per row
    uint32_t vcount = (n + 1) * (n + 1);
    float* verts = malloc(sizeof(float) * 3 * vcount);
    uint16_t* polys = malloc(sizeof(uint16_t) * WF_MAX_VERTS_PER_POLY * n * n);
    uint8_t* poly_areas = malloc(n * n);
    if (verts == NULL || polys == NULL || poly_areas == NULL) {
        free(verts);
        free(polys);
        free(poly_areas);
        return NULL;
    }
    float x0 = (float)(tx * n) * cell_size, z0 = (float)(tz * n) * cell_size;
    for (uint32_t z = 0; z <= n; ++z) {
        for (uint32_t x = 0; x <= n; ++x) {
            float* v = &verts[3 * (z * (n + 1) + x)];
            v[0] = x0 + (float)x * cell_size;
            v[1] = 0.0f;
            v[2] = z0 + (float)z * cell_size;
        }
    }
    uint32_t pc = 0;
    for (uint32_t z = 0; z < n; ++z) {
        for (uint32_t x = 0; x < n; ++x) {
            uint32_t global = (tz * n + z) * stride + tx * n + x;
            if (blocked != NULL && blocked[global]) {
                continue;
            }
            uint16_t* p = &polys[WF_MAX_VERTS_PER_POLY * pc];
            for (int k = 0; k < WF_MAX_VERTS_PER_POLY; ++k) {
                p[k] = WF_NULL_INDEX;
            }
            // Counter-clockwise seen from above with +Z down the page:
            // (x, z) -> (x, z+1) -> (x+1, z+1) -> (x+1, z).
            p[0] = (uint16_t)(z * (n + 1) + x);
            p[1] = (uint16_t)((z + 1) * (n + 1) + x);
            p[2] = (uint16_t)((z + 1) * (n + 1) + x + 1);
            p[3] = (uint16_t)(z * (n + 1) + x + 1);
            poly_areas[pc] = areas != NULL ? areas[global] : 0;
            pc++;
        }
    }
    wf_tile_build_desc d;
    memset(&d, 0, sizeof d);
    d.tile_x = (int32_t)tx;
    d.tile_z = (int32_t)tz;
    d.bmin = wf_v3(x0, -1.0f, z0);
    d.bmax = wf_v3(x0 + (float)n * cell_size, 1.0f, z0 + (float)n * cell_size);
    d.verts = verts;
    d.vert_count = vcount;
    d.polys = polys;
    d.poly_count = pc;
    d.areas = poly_areas;
    d.walkable_height = 2.0f;
    d.walkable_radius = 0.5f;
    d.walkable_climb = 0.5f;
    if (allocator != NULL) {
        d.allocator = *allocator;
    }
    void* data = NULL;
    wf_status s = wf_tile_build(&d, &data, out_size);
    free(verts);
    free(polys);
    free(poly_areas);
    return s == WF_OK ? data : NULL;
}

wf_mesh* test_mesh_grid(uint32_t tiles_x, uint32_t tiles_z, uint32_t cells_per_tile,
                        float cell_size, const uint8_t* blocked, const uint8_t* areas,
                        const wf_allocator* allocator) {
    wf_mesh_desc md;
    memset(&md, 0, sizeof md);
    md.tile_width = (float)cells_per_tile * cell_size;
    md.tile_depth = md.tile_width;
    md.max_tiles = tiles_x * tiles_z + 4;
    if (allocator != NULL) {
        md.allocator = *allocator;
    }
    wf_mesh* mesh = NULL;
    if (wf_mesh_create(&md, &mesh) != WF_OK) {
        return NULL;
    }
    for (uint32_t tz = 0; tz < tiles_z; ++tz) {
        for (uint32_t tx = 0; tx < tiles_x; ++tx) {
            size_t size = 0;
            void* data = test_grid_tile(tx, tz, tiles_x, cells_per_tile, cell_size, blocked, areas,
                                        allocator, &size);
            wf_tile_ref ref;
            if (data == NULL || wf_mesh_add_tile(mesh, data, size, WF_TILE_MESH_OWNS_DATA,
                                                 (wf_tile_ref){0}, &ref) != WF_OK) {
                wf_mesh_destroy(mesh);
                return NULL;
            }
        }
    }
    return mesh;
}

wf_poly_ref test_grid_poly(const wf_mesh* mesh, uint32_t cells_per_tile, uint32_t cx, uint32_t cz) {
    // The centre of the cell lies inside exactly one polygon: ask the mesh.
    wf_query* q = NULL;
    wf_query_desc qd;
    memset(&qd, 0, sizeof qd);
    qd.mesh = mesh;
    qd.max_nodes = 64;
    wf_poly_ref ref = {0};
    if (wf_query_create(&qd, &q) != WF_OK) {
        return ref;
    }
    wf_tile_ref tile;
    int32_t tx = (int32_t)(cx / cells_per_tile), tz = (int32_t)(cz / cells_per_tile);
    if (wf_mesh_find_tile(mesh, tx, tz, 0, &tile) == WF_OK) {
        wf_tile_info info;
        if (wf_mesh_get_tile_info(mesh, tile, &info) == WF_OK) {
            float cell = (info.bmax.x - info.bmin.x) / (float)cells_per_tile;
            wf_vec3 c = wf_v3(((float)cx + 0.5f) * cell, 0.0f, ((float)cz + 0.5f) * cell);
            wf_query_filter f = wf_query_filter_defaults();
            wf_vec3 pt;
            if (wf_query_find_nearest_poly(q, c, wf_v3(cell * 0.25f, 1.0f, cell * 0.25f), &f, &ref,
                                           &pt) != WF_OK) {
                ref.bits = 0;
            }
        }
    }
    wf_query_destroy(q);
    return ref;
}
