// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Voxel-world input: each heightfield column takes the cube column under its
// centre, and every vertical run of solid cubes becomes one solid span. The
// walkable filters downstream decide where an agent can stand (free space
// above a top, climb between neighbouring tops), as for triangles.
#include <math.h>

#include "navcore/alloc.h"
#include "navcore/check.h"
#include "tilecache/heightfield.h"

/// Float noise allowed when a cube face lands on a cell-height step: with
/// cube 1 and ch 0.2f, 3 / 0.2f is 14.9999998 steps and means step 15.
#define VOXEL_STEP_TOLERANCE 1e-4

static bool voxel_area_is_valid(uint8_t area) { return area <= 63 || area == WF_AREA_NULL; }

/// The cube index along one axis under world coordinate w, or -1 outside.
static int64_t voxel_cell_at(double w, double origin, double cube_size, uint32_t count) {
    double c = floor((w - origin) / cube_size);
    return c >= 0.0 && c < (double)count ? (int64_t)c : -1;
}

/// Index of cube (x, y, z) in solid[] / areas[].
static size_t voxel_index(const wf_voxels* v, size_t x, size_t y, size_t z) {
    return x + z * v->size_x + y * (size_t)v->size_x * v->size_z;
}

/// Adds the solid cubes [y_begin, y_end) of one cube column as one span.
/// Bottoms round down and tops round up (to the nearest step within the
/// tolerance), so the span covers the cubes, like a conservative rasterizer;
/// a top exactly at hf->bmin becomes step 1, as for grids and triangles.
static wf_status voxel_add_run(wf_heightfield* hf, const wf_voxels* v, int32_t x, int32_t z,
                               uint32_t y_begin, uint32_t y_end, uint8_t area) {
    const double ch = hf->ch;
    double bottom = ((double)v->origin.y + (double)y_begin * v->cube_size - hf->bmin[1]) / ch;
    double top = ((double)v->origin.y + (double)y_end * v->cube_size - hf->bmin[1]) / ch;
    double limit = ((double)hf->bmax[1] - hf->bmin[1]) / ch;
    if (top < -VOXEL_STEP_TOLERANCE || bottom > limit + VOXEL_STEP_TOLERANCE) {
        return WF_OK; // entirely below or above this heightfield
    }
    double smin = floor(bottom + VOXEL_STEP_TOLERANCE);
    double smax = ceil(top - VOXEL_STEP_TOLERANCE);
    smin = smin < 0.0 ? 0.0 : smin > WF_SPAN_MAX_HEIGHT - 1 ? WF_SPAN_MAX_HEIGHT - 1 : smin;
    smax = smax < smin + 1.0 ? smin + 1.0 : smax > WF_SPAN_MAX_HEIGHT ? WF_SPAN_MAX_HEIGHT : smax;
    return wf_heightfield_add_span(hf, x, z, (uint16_t)smin, (uint16_t)smax, area, 0);
}

wf_status wf_heightfield_fill_voxels(wf_heightfield* hf, const wf_voxels* voxels) {
    WF_CHECK_ARG(hf != NULL && voxels != NULL);
    WF_CHECK_ARG(hf->columns != NULL && hf->width > 0 && hf->depth > 0);
    WF_CHECK_ARG(isfinite(hf->cs) && hf->cs > 0.0f && isfinite(hf->ch) && hf->ch > 0.0f);
    WF_CHECK_ARG(isfinite(hf->bmin[0]) && isfinite(hf->bmin[1]) && isfinite(hf->bmin[2]) &&
                 isfinite(hf->bmax[1]));
    const wf_voxels* v = voxels;
    WF_CHECK_ARG(v->size_x > 0 && v->size_y > 0 && v->size_z > 0 && v->solid != NULL);
    WF_CHECK_ARG(wf_size_mul(wf_size_mul(v->size_x, v->size_z), v->size_y) != (size_t)-1);
    WF_CHECK_ARG(isfinite(v->cube_size) && v->cube_size > 0.0f);
    WF_CHECK_ARG(isfinite(v->origin.x) && isfinite(v->origin.y) && isfinite(v->origin.z));

    const double cs = hf->cs;
    // First pass: validate the area ids this heightfield will read, so bad
    // input fails before anything is added.
    if (v->areas != NULL) {
        for (int32_t z = 0; z < hf->depth; ++z) {
            int64_t vz =
                voxel_cell_at(hf->bmin[2] + (z + 0.5) * cs, v->origin.z, v->cube_size, v->size_z);
            for (int32_t x = 0; x < hf->width && vz >= 0; ++x) {
                int64_t vx = voxel_cell_at(hf->bmin[0] + (x + 0.5) * cs, v->origin.x, v->cube_size,
                                           v->size_x);
                for (uint32_t y = 0; y < v->size_y && vx >= 0; ++y) {
                    size_t i = voxel_index(v, (size_t)vx, y, (size_t)vz);
                    WF_CHECK_ARG(v->solid[i] == 0 || voxel_area_is_valid(v->areas[i]));
                }
            }
        }
    }

    for (int32_t z = 0; z < hf->depth; ++z) {
        int64_t vz =
            voxel_cell_at(hf->bmin[2] + (z + 0.5) * cs, v->origin.z, v->cube_size, v->size_z);
        for (int32_t x = 0; x < hf->width && vz >= 0; ++x) {
            int64_t vx =
                voxel_cell_at(hf->bmin[0] + (x + 0.5) * cs, v->origin.x, v->cube_size, v->size_x);
            if (vx < 0) {
                continue;
            }
            // Runs of stacked cubes go in as one span (what merging cube by
            // cube would give); the run's top takes its highest cube's area.
            uint32_t y = 0;
            while (y < v->size_y) {
                if (v->solid[voxel_index(v, (size_t)vx, y, (size_t)vz)] == 0) {
                    y++;
                    continue;
                }
                uint32_t begin = y;
                while (y < v->size_y && v->solid[voxel_index(v, (size_t)vx, y, (size_t)vz)] != 0) {
                    y++;
                }
                size_t top_cube = voxel_index(v, (size_t)vx, y - 1, (size_t)vz);
                uint8_t area = v->areas != NULL ? v->areas[top_cube] : 0;
                wf_status st = voxel_add_run(hf, v, x, z, begin, y, area);
                if (st != WF_OK) {
                    return st;
                }
            }
        }
    }
    return WF_OK;
}
