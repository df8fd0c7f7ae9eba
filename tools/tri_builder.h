// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// A growing list of vertices and triangles, for levels the tools make
// (the demo level, the crowd scenes). Out of memory sets `failed` and later
// calls do nothing; the caller frees verts and tris.
#ifndef WF_TOOLS_TRI_BUILDER_H
#define WF_TOOLS_TRI_BUILDER_H

#include <stdbool.h>
#include <stdint.h>

typedef struct tri_builder {
    float* verts;
    uint32_t vert_count, vert_cap;
    uint32_t* tris;
    uint32_t tri_count, tri_cap;
    bool failed;
} tri_builder;

/// Adds a vertex; its index (0 after a failure).
uint32_t tri_builder_vert(tri_builder* b, float x, float y, float z);
/// A triangle; degenerate ones (zero area) are dropped.
void tri_builder_tri(tri_builder* b, uint32_t i0, uint32_t i1, uint32_t i2);
/// Two triangles i0-i1-i2 and i0-i2-i3.
void tri_builder_quad(tri_builder* b, uint32_t i0, uint32_t i1, uint32_t i2, uint32_t i3);

/// Writes triangles (3 floats a vertex, 3 indices a triangle) as a
/// Wavefront OBJ file after a comment (lines, each written after "# "; NULL
/// for none); 0 on success, 1 when the file cannot be written.
int tri_list_write_obj(const char* path, const char* comment, const float* verts,
                       uint32_t vert_count, const uint32_t* tris, uint32_t tri_count);

#endif
