// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The owned triangle mesh behind wf_geom_data, shared by geom.c (view,
// destroy) and the loaders that fill it.
#ifndef WF_TILECACHE_GEOM_DATA_H
#define WF_TILECACHE_GEOM_DATA_H

#include "wayfarer/tilecache.h"

struct wf_geom_data {
    wf_allocator allocator; ///< resolved; frees everything below
    float* verts;           ///< vert_capacity * 3
    uint32_t vert_count, vert_capacity;
    uint32_t* tris; ///< tri_capacity * 3
    uint32_t tri_count, tri_capacity;
    uint8_t* tri_areas; ///< tri_area_capacity; NULL when loaded without an area table
    uint32_t tri_area_capacity;
};

#endif
