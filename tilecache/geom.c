// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Triangle mesh input: the owned mesh's lifetime and view, and the bounds
// of any mesh view.
#include <math.h>

#include "navcore/alloc.h"
#include "tilecache/geom_data.h"

void wf_geom_data_destroy(wf_geom_data* geom) {
    if (geom == NULL) {
        return;
    }
    wf_allocator a = geom->allocator;
    WF_FREE_ARRAY(&a, geom->verts, float, (size_t)geom->vert_capacity * 3);
    WF_FREE_ARRAY(&a, geom->tris, uint32_t, (size_t)geom->tri_capacity * 3);
    WF_FREE_ARRAY(&a, geom->tri_areas, uint8_t, geom->tri_area_capacity);
    wf_free(&a, geom, sizeof *geom, _Alignof(wf_geom_data));
}

wf_geom wf_geom_data_view(const wf_geom_data* geom) {
    wf_geom view = {0};
    if (geom != NULL) {
        view.verts = geom->verts;
        view.vert_count = geom->vert_count;
        view.tris = geom->tris;
        view.tri_count = geom->tri_count;
        view.tri_areas = geom->tri_areas; // NULL without an area table: every triangle area 0
    }
    return view;
}

bool wf_geom_bounds(const wf_geom* geom, wf_vec3* out_min, wf_vec3* out_max) {
    if (geom == NULL || geom->vert_count == 0 || geom->verts == NULL || out_min == NULL ||
        out_max == NULL) {
        return false;
    }
    float lo[3] = {INFINITY, INFINITY, INFINITY};
    float hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t i = 0; i < geom->vert_count; ++i) {
        const float* v = geom->verts + (size_t)i * 3;
        for (int k = 0; k < 3; ++k) {
            if (!isfinite(v[k])) {
                return false;
            }
            lo[k] = fminf(lo[k], v[k]);
            hi[k] = fmaxf(hi[k], v[k]);
        }
    }
    *out_min = (wf_vec3){lo[0], lo[1], lo[2]};
    *out_max = (wf_vec3){hi[0], hi[1], hi[2]};
    return true;
}
