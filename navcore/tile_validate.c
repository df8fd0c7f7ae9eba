// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Tile blob validation: every size, offset, count and index is checked
// before the mesh touches the data, so damaged blobs are rejected and
// never read out of bounds.
#include <math.h>
#include <string.h>

#include "navcore/hash.h"
#include "navcore/tile_format.h"
#include "wayfarer/navmesh.h"

// FNV-1a on 32-bit words with a shift per word and a final avalanche: 4x
// fewer multiplies than the byte-wise form; sections are 16-byte aligned so
// the length is whole words. The checksum field itself counts as zero. The
// tile format's own variant (only tile blobs use it), so it stays here.
uint32_t wf_tile_checksum(const unsigned char* data, uint32_t runtime_offset) {
    uint32_t h = WF_FNV32_OFFSET;
    const uint32_t checksum_word = (uint32_t)(offsetof(wf_tile_header, checksum) / 4u);
    for (uint32_t i = 0; i + 4u <= runtime_offset; i += 4u) {
        uint32_t w;
        memcpy(&w, data + i, 4);
        if (i / 4u == checksum_word) {
            w = 0;
        }
        h = (h ^ w) * WF_FNV32_PRIME;
        h ^= h >> 15;
    }
    h ^= h >> 13;
    h *= 0x85ebca6bu;
    h ^= h >> 16;
    return h;
}

static bool finite_floats(const float* v, uint64_t count) {
    for (uint64_t i = 0; i < count; ++i) {
        if (!isfinite(v[i])) {
            return false;
        }
    }
    return true;
}

// A section [offset, offset + bytes) must be aligned, start at or after
// `cursor` and end by `limit`.
static bool section_ok(uint32_t offset, uint64_t bytes, uint64_t* cursor, uint64_t limit) {
    if (offset % WF_TILE_SECTION_ALIGN != 0 || offset < *cursor || offset + bytes > limit) {
        return false;
    }
    *cursor = offset + bytes;
    return true;
}

static bool polys_ok(const wf_tile_header* h, const wf_tile_poly* polys) {
    uint32_t ground = h->poly_count - h->offmesh_count;
    uint32_t ground_verts = h->vert_count - 2u * h->offmesh_count;
    for (uint32_t i = 0; i < h->poly_count; ++i) {
        const wf_tile_poly* p = &polys[i];
        bool offmesh = i >= ground;
        if (wf_poly_type(p) != (offmesh ? WF_POLY_TYPE_OFFMESH : WF_POLY_TYPE_GROUND)) {
            return false;
        }
        if (offmesh ? p->vert_count != 2
                    : (p->vert_count < 3 || p->vert_count > WF_MAX_VERTS_PER_POLY)) {
            return false;
        }
        for (uint32_t k = 0; k < WF_MAX_VERTS_PER_POLY; ++k) {
            if (k >= p->vert_count) {
                if (p->verts[k] != WF_NULL_INDEX || p->neighbours[k] != 0) {
                    return false;
                }
                continue;
            }
            if (offmesh ? p->verts[k] != ground_verts + 2u * (i - ground) + k
                        : p->verts[k] >= ground_verts) {
                return false;
            }
            uint16_t nb = p->neighbours[k];
            if (offmesh && nb != 0) {
                return false;
            }
            if ((nb & WF_PORTAL_EDGE) ? (nb & ~WF_PORTAL_EDGE) >= 4u : nb > ground) {
                return false;
            }
        }
    }
    return true;
}

static bool detail_ok(const wf_tile_header* h, const wf_tile_poly* polys,
                      const wf_tile_detail* meshes, const uint8_t* tris) {
    for (uint32_t i = 0; i < h->detail_mesh_count; ++i) {
        const wf_tile_detail* m = &meshes[i];
        if ((uint64_t)m->vert_base + m->vert_count > h->detail_vert_count ||
            (uint64_t)m->tri_base + m->tri_count > h->detail_tri_count) {
            return false;
        }
        uint32_t limit = polys[i].vert_count + (uint32_t)m->vert_count;
        for (uint32_t t = 0; t < m->tri_count; ++t) {
            const uint8_t* tri = &tris[4u * (m->tri_base + t)];
            if (tri[0] >= limit || tri[1] >= limit || tri[2] >= limit) {
                return false;
            }
        }
    }
    return true;
}

static bool bv_ok(const wf_tile_header* h, const wf_tile_bv_node* nodes) {
    uint32_t ground = h->poly_count - h->offmesh_count;
    for (uint32_t i = 0; i < h->bv_node_count; ++i) {
        int32_t index = nodes[i].index;
        if (index >= 0 ? (uint32_t)index >= ground
                       : (index == INT32_MIN ||
                          (uint64_t)i + (uint32_t)(-index) > h->bv_node_count || index == -1)) {
            return false;
        }
    }
    return true;
}

static bool offmesh_ok(const wf_tile_header* h, const wf_tile_offmesh* links) {
    uint32_t ground = h->poly_count - h->offmesh_count;
    for (uint32_t i = 0; i < h->offmesh_count; ++i) {
        const wf_tile_offmesh* o = &links[i];
        if (o->poly != ground + i || !finite_floats(o->pos, 6) || !isfinite(o->radius) ||
            o->radius < 0.0f || (o->flags & ~WF_OFFMESH_BIDIRECTIONAL) != 0) {
            return false;
        }
    }
    return true;
}

static wf_status validate(const void* data, size_t size, bool check_sum) {
    if (data == NULL || ((uintptr_t)data & 7u) != 0) {
        return WF_ERR_INVALID_ARG; // links hold 64-bit refs: 8-byte alignment
    }
    if (size < sizeof(wf_tile_header)) {
        return WF_ERR_BAD_DATA;
    }
    const unsigned char* base = data;
    const wf_tile_header* h = data;
    if (h->magic != WF_TILE_MAGIC) {
        return WF_ERR_BAD_DATA;
    }
    if (h->version != WF_TILE_VERSION) {
        return WF_ERR_VERSION;
    }
    if (h->data_size != size || h->reserved[0] != 0 || h->reserved[1] != 0) {
        return WF_ERR_BAD_DATA;
    }
    if (h->offmesh_count > h->poly_count || h->poly_count > WF_MAX_POLYS_PER_TILE ||
        h->poly_count > 0x7ffeu || h->vert_count > 0xfffeu ||
        2u * (uint64_t)h->offmesh_count > h->vert_count ||
        (h->detail_mesh_count != 0 && h->detail_mesh_count != h->poly_count - h->offmesh_count) ||
        h->bv_node_count > 2u * (uint64_t)h->poly_count) {
        return WF_ERR_BAD_DATA;
    }
    if (!finite_floats(h->bmin, 3) || !finite_floats(h->bmax, 3) || !isfinite(h->bv_quant) ||
        h->bv_quant <= 0.0f || !isfinite(h->walkable_height) || !isfinite(h->walkable_radius) ||
        !isfinite(h->walkable_climb)) {
        return WF_ERR_BAD_DATA;
    }
    uint64_t cursor = sizeof(wf_tile_header);
    uint64_t limit = size;
    if (!section_ok(h->verts_offset, (uint64_t)h->vert_count * 12u, &cursor, limit) ||
        !section_ok(h->polys_offset, (uint64_t)h->poly_count * sizeof(wf_tile_poly), &cursor,
                    limit) ||
        !section_ok(h->detail_meshes_offset,
                    (uint64_t)h->detail_mesh_count * sizeof(wf_tile_detail), &cursor, limit) ||
        !section_ok(h->detail_verts_offset, (uint64_t)h->detail_vert_count * 12u, &cursor, limit) ||
        !section_ok(h->detail_tris_offset, (uint64_t)h->detail_tri_count * 4u, &cursor, limit) ||
        !section_ok(h->bv_offset, (uint64_t)h->bv_node_count * sizeof(wf_tile_bv_node), &cursor,
                    limit) ||
        !section_ok(h->offmesh_offset, (uint64_t)h->offmesh_count * sizeof(wf_tile_offmesh),
                    &cursor, limit) ||
        !section_ok(h->runtime_offset, wf_tile_runtime_size(h->poly_count, h->max_link_count),
                    &cursor, limit)) {
        return WF_ERR_BAD_DATA;
    }
    if (check_sum && wf_tile_checksum(base, h->runtime_offset) != h->checksum) {
        return WF_ERR_BAD_DATA;
    }
    // The checksum catches accidents; the checks below make even a
    // deliberately forged blob safe to use.
    const float* verts = (const float*)(base + h->verts_offset);
    const wf_tile_poly* polys = (const wf_tile_poly*)(base + h->polys_offset);
    if (!finite_floats(verts, (uint64_t)h->vert_count * 3u) ||
        !finite_floats((const float*)(base + h->detail_verts_offset),
                       (uint64_t)h->detail_vert_count * 3u) ||
        !polys_ok(h, polys) ||
        !detail_ok(h, polys, (const wf_tile_detail*)(base + h->detail_meshes_offset),
                   base + h->detail_tris_offset) ||
        !bv_ok(h, (const wf_tile_bv_node*)(base + h->bv_offset)) ||
        !offmesh_ok(h, (const wf_tile_offmesh*)(base + h->offmesh_offset))) {
        return WF_ERR_BAD_DATA;
    }
    return WF_OK;
}

wf_status wf_tile_validate(const void* data, size_t size) { return validate(data, size, true); }

wf_status wf_tile_validate_structure(const void* data, size_t size) {
    return validate(data, size, false);
}
