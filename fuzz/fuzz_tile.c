// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Fuzz target: a navmesh tile blob. wf_tile_validate, then wf_mesh_add_tile
// into a mesh whose grid matches the blob's bounds; a tile that is added
// gets a neighbour (a copy moved one tile along +x, so portals stitch), is
// queried, has its state stored and restored, is removed and added back
// at its old slot, and the mesh is saved and loaded again.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "navcore/tile_format.h"

static float axis_size(float lo, float hi) {
    float w = hi - lo;
    return isfinite(w) && w > 1e-3f && w < 1e20f ? w : 1.0f;
}

static bool section_inside(uint32_t offset, uint64_t bytes, size_t size) {
    return offset <= size && bytes <= size - offset;
}

static void shift_x(unsigned char* blob, uint32_t offset, uint64_t count, size_t stride,
                    size_t size, float dx) {
    if (!section_inside(offset, count * stride, size)) {
        return;
    }
    for (uint64_t i = 0; i < count; ++i) {
        float x;
        memcpy(&x, blob + offset + i * stride, 4);
        x += dx;
        memcpy(blob + offset + i * stride, &x, 4);
    }
}

/// The blob moved one tile along +x: tile x, bounds and every x coordinate.
static unsigned char* neighbour_of(const unsigned char* blob, size_t size, float width) {
    wf_tile_header h;
    memcpy(&h, blob, sizeof h);
    if (h.tile_x > INT32_MAX - 8) {
        return NULL;
    }
    unsigned char* n = fuzz_copy(blob, size);
    h.tile_x += 1;
    h.bmin[0] += width;
    h.bmax[0] += width;
    memcpy(n, &h, sizeof h);
    shift_x(n, h.verts_offset, h.vert_count, 12, size, width);
    shift_x(n, h.detail_verts_offset, h.detail_vert_count, 12, size, width);
    shift_x(n, h.offmesh_offset, h.offmesh_count, sizeof(wf_tile_offmesh), size, width);
    shift_x(n, h.offmesh_offset + 12, h.offmesh_count, sizeof(wf_tile_offmesh), size, width);
    memset(n + h.runtime_offset, 0, size - h.runtime_offset);
    fuzz_fix_tile(n, size);
    return n;
}

static void state_round_trip(wf_mesh* mesh, wf_tile_ref tile) {
    size_t state_size = 0;
    FUZZ_REQUIRE(wf_mesh_tile_state_size(mesh, tile, &state_size) == WF_OK);
    unsigned char* state = malloc(state_size);
    FUZZ_REQUIRE(state != NULL);
    FUZZ_REQUIRE(wf_mesh_store_tile_state(mesh, tile, state, state_size) == WF_OK);
    FUZZ_REQUIRE(wf_mesh_restore_tile_state(mesh, tile, state, state_size) == WF_OK);
    free(state);
}

static void save_and_load(const wf_mesh* mesh, uint64_t seed) {
    size_t size = 0;
    FUZZ_REQUIRE(wf_mesh_save_size(mesh, &size) == WF_OK);
    unsigned char* bytes = malloc(size);
    FUZZ_REQUIRE(bytes != NULL);
    FUZZ_REQUIRE(wf_mesh_save(mesh, bytes, size) == WF_OK);
    wf_mesh_desc d;
    memset(&d, 0, sizeof d);
    d.logger = fuzz_logger();
    wf_mesh* loaded = NULL;
    wf_status s = wf_mesh_load(&d, bytes, size, &loaded);
    FUZZ_REQUIRE(s == WF_OK); // a mesh the library built must load back
    (void)seed;
    wf_mesh_destroy(loaded);
    free(bytes);
}

static void run(const uint8_t* data, size_t size, uint64_t seed) {
    unsigned char* blob = fuzz_copy(data, size);
    wf_status valid = wf_tile_validate(blob, size);
    FUZZ_REQUIRE(valid == WF_OK || valid == WF_ERR_BAD_DATA || valid == WF_ERR_VERSION);

    wf_mesh_desc md;
    memset(&md, 0, sizeof md);
    md.tile_width = 1.0f;
    md.tile_depth = 1.0f;
    md.max_tiles = 8;
    md.logger = fuzz_logger();
    if (size >= sizeof(wf_tile_header)) {
        wf_tile_header h;
        memcpy(&h, blob, sizeof h);
        md.tile_width = axis_size(h.bmin[0], h.bmax[0]);
        md.tile_depth = axis_size(h.bmin[2], h.bmax[2]);
        wf_vec3 origin = wf_v3(h.bmin[0] - (float)h.tile_x * md.tile_width, 0.0f,
                               h.bmin[2] - (float)h.tile_z * md.tile_depth);
        if (isfinite(origin.x) && isfinite(origin.z)) {
            md.origin = origin;
        }
    }
    wf_mesh* mesh = NULL;
    FUZZ_REQUIRE(wf_mesh_create(&md, &mesh) == WF_OK);
    wf_tile_ref tile = {0};
    wf_status added = wf_mesh_add_tile(mesh, blob, size, 0, (wf_tile_ref){0}, &tile);
    unsigned char* neighbour = NULL;
    if (valid != WF_OK) {
        FUZZ_REQUIRE(added == valid);
    } else {
        FUZZ_REQUIRE(added == WF_OK || added == WF_PARTIAL || added == WF_ERR_BAD_DATA);
    }
    if (wf_succeeded(added)) {
        neighbour = neighbour_of(data, size, md.tile_width);
        wf_tile_ref second = {0};
        wf_status s2 = neighbour != NULL
                           ? wf_mesh_add_tile(mesh, neighbour, size, 0, (wf_tile_ref){0}, &second)
                           : WF_ERR_NOT_FOUND;
        fuzz_exercise_mesh(mesh, seed);
        state_round_trip(mesh, tile);
        save_and_load(mesh, seed);
        // Remove and re-add at the same slot and generation: old refs live again.
        void* back = NULL;
        size_t back_size = 0;
        FUZZ_REQUIRE(wf_mesh_remove_tile(mesh, tile, &back, &back_size) == WF_OK);
        FUZZ_REQUIRE(back == blob && back_size == size);
        wf_tile_ref again;
        wf_status s3 = wf_mesh_add_tile(mesh, blob, size, 0, tile, &again);
        FUZZ_REQUIRE(wf_succeeded(s3) && again.bits == tile.bits);
        fuzz_exercise_mesh(mesh, seed ^ 1u);
        if (wf_succeeded(s2)) {
            FUZZ_REQUIRE(wf_mesh_remove_tile(mesh, second, NULL, NULL) == WF_OK);
        }
    }
    wf_mesh_destroy(mesh);
    free(neighbour);
    free(blob);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    uint64_t seed = fuzz_seed(data, size);
    run(data, size, seed);
    unsigned char* fixed = fuzz_copy(data, size);
    fuzz_fix_tile(fixed, size);
    if (size > 0 && memcmp(fixed, data, size) != 0) {
        run(fixed, size, seed);
    }
    free(fixed);
    return 0;
}
