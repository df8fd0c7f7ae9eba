// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The tools' triangle list (tri_builder.h).
#include "tools/tri_builder.h"

#include <stdio.h>
#include <stdlib.h>

uint32_t tri_builder_vert(tri_builder* b, float x, float y, float z) {
    if (b->failed) {
        return 0;
    }
    if (b->vert_count == b->vert_cap) {
        uint32_t cap = b->vert_cap != 0u ? 2u * b->vert_cap : 4096u;
        float* v = realloc(b->verts, sizeof *v * 3u * cap);
        if (v == NULL) {
            b->failed = true;
            return 0;
        }
        b->verts = v;
        b->vert_cap = cap;
    }
    float* v = &b->verts[3u * b->vert_count];
    v[0] = x;
    v[1] = y;
    v[2] = z;
    return b->vert_count++;
}

void tri_builder_tri(tri_builder* b, uint32_t i0, uint32_t i1, uint32_t i2) {
    if (b->failed) {
        return;
    }
    const float* p = &b->verts[3u * i0];
    const float* q = &b->verts[3u * i1];
    const float* r = &b->verts[3u * i2];
    float e0[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]};
    float e1[3] = {r[0] - p[0], r[1] - p[1], r[2] - p[2]};
    float n[3] = {e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2],
                  e0[0] * e1[1] - e0[1] * e1[0]};
    if (!(n[0] * n[0] + n[1] * n[1] + n[2] * n[2] > 1e-8f)) {
        return;
    }
    if (b->tri_count == b->tri_cap) {
        uint32_t cap = b->tri_cap != 0u ? 2u * b->tri_cap : 4096u;
        uint32_t* t = realloc(b->tris, sizeof *t * 3u * cap);
        if (t == NULL) {
            b->failed = true;
            return;
        }
        b->tris = t;
        b->tri_cap = cap;
    }
    uint32_t* t = &b->tris[3u * b->tri_count++];
    t[0] = i0;
    t[1] = i1;
    t[2] = i2;
}

void tri_builder_quad(tri_builder* b, uint32_t i0, uint32_t i1, uint32_t i2, uint32_t i3) {
    tri_builder_tri(b, i0, i1, i2);
    tri_builder_tri(b, i0, i2, i3);
}

int tri_list_write_obj(const char* path, const char* comment, const float* verts,
                       uint32_t vert_count, const uint32_t* tris, uint32_t tri_count) {
    FILE* f = fopen(path, "wb");
    if (f == NULL) {
        return 1;
    }
    bool bad = false;
    for (const char* line = comment; line != NULL && *line != '\0' && !bad;) {
        const char* end = line;
        while (*end != '\0' && *end != '\n') {
            ++end;
        }
        bad = fprintf(f, "# %.*s\n", (int)(end - line), line) < 0;
        line = *end == '\n' ? end + 1 : end;
    }
    for (uint32_t i = 0; i < vert_count && !bad; ++i) {
        const float* v = &verts[3u * i];
        // %.9g: the floats come back exactly.
        bad = fprintf(f, "v %.9g %.9g %.9g\n", (double)v[0], (double)v[1], (double)v[2]) < 0;
    }
    for (uint32_t i = 0; i < tri_count && !bad; ++i) {
        const uint32_t* t = &tris[3u * i];
        bad = fprintf(f, "f %u %u %u\n", t[0] + 1u, t[1] + 1u, t[2] + 1u) < 0;
    }
    bad = fclose(f) != 0 || bad;
    return bad ? 1 : 0;
}
