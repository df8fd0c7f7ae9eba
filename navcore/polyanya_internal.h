// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Shared by the Polyanya importer's two halves: parsing (polyanya_parse.c)
// and cutting into tiles (polyanya_import.c).
#ifndef WF_NAVCORE_POLYANYA_INTERNAL_H
#define WF_NAVCORE_POLYANYA_INTERNAL_H

#include "wayfarer/navmesh.h"

/// A piece whose doubled area is below this fraction of its squared extent
/// is a sliver thinner than float precision: rejected in the input, dropped
/// after clipping.
#define PY_DEGENERATE_RATIO 1e-7

typedef struct py_pt {
    float x, z;
} py_pt;

typedef struct py_source {
    uint32_t vert_count;
    uint32_t poly_count;
    py_pt* verts;         ///< world x, z
    uint32_t* poly_first; ///< poly_count + 1 offsets into poly_verts
    uint32_t* poly_verts;
    size_t poly_verts_cap;
    uint32_t max_poly_verts;
} py_source;

/// Grows *ptr (elem bytes each) to hold at least need elements.
bool py_reserve(const wf_allocator* a, void** ptr, size_t* cap, size_t need, size_t elem,
                size_t align);
#define PY_RESERVE(a, arr, cap, need, type)                                                        \
    py_reserve((a), (void**)&(arr), &(cap), (need), sizeof(type), _Alignof(type))

/// Twice the signed area on XZ, positive for Wayfarer's counter-clockwise.
double py_area2(const py_pt* p, uint32_t n);
double py_extent(const py_pt* p, uint32_t n);
bool py_is_degenerate(double area2, double extent);
void py_source_free(py_source* s, const wf_allocator* a);

/// Parses Polyanya .mesh v2 text (not NUL-terminated) into world-space
/// vertices (x scaled, file y -> z) and validated counter-clockwise convex
/// polygons. WF_ERR_BAD_DATA / WF_ERR_VERSION with the line in the log; on
/// error *out may hold partial arrays: free with py_source_free.
wf_status wf_polyanya_parse(const char* text, size_t size, const wf_logger* logger,
                            const wf_allocator* allocator, float scale, py_source* out);

#endif
