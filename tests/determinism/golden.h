// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Shared by the golden-hash tests (header only): FNV-1a 64 over the raw
// bits of the observable state (agents, navmesh tiles), the demo level's
// world on a given worker count, and the check against a pinned hash.
#ifndef WF_TESTS_GOLDEN_H
#define WF_TESTS_GOLDEN_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wayfarer/crowd.h"
#include "wayfarer/navmesh.h"

/// The pinned hashes hold where they were taken: x86-64 (SSE2 floats, no
/// x87 excess precision; the project builds with -ffp-contract=off). Other
/// targets check only that worker counts agree, and say so (exit 77).
#if defined(__x86_64__) || defined(_M_X64)
#define GOLDEN_PINNED 1
#else
#define GOLDEN_PINNED 0
#endif

#define GOLDEN_FNV_START 14695981039346656037ull

static inline uint64_t golden_fnv(uint64_t h, const void* data, size_t size) {
    const unsigned char* p = data;
    for (size_t i = 0; i < size; ++i) {
        h = (h ^ p[i]) * 1099511628211ull;
    }
    return h;
}

static inline uint64_t golden_u32(uint64_t h, uint32_t v) { return golden_fnv(h, &v, sizeof v); }

static inline uint64_t golden_vec3(uint64_t h, wf_vec3 v) {
    // Field by field: raw float bits, no padding.
    h = golden_fnv(h, &v.x, sizeof v.x);
    h = golden_fnv(h, &v.y, sizeof v.y);
    return golden_fnv(h, &v.z, sizeof v.z);
}

/// Every agent in slot order: id, mode, target state, position, velocity,
/// desired velocity, target, polygon, corridor (refs, partial), corners.
static inline uint64_t golden_crowd(uint64_t h, const wf_crowd* crowd) {
    static wf_agent_id ids[4096];
    static wf_poly_ref corridor[4096];
    uint32_t n = wf_crowd_get_agents(crowd, ids, 4096);
    h = golden_u32(h, n);
    for (uint32_t k = 0; k < n; ++k) {
        wf_agent_state s;
        memset(&s, 0, sizeof s);
        if (wf_crowd_get_agent(crowd, ids[k], &s) != WF_OK) {
            abort();
        }
        h = golden_fnv(h, &ids[k].bits, sizeof ids[k].bits);
        h = golden_u32(h, (uint32_t)s.mode);
        h = golden_u32(h, (uint32_t)s.target_state);
        h = golden_vec3(h, s.position);
        h = golden_vec3(h, s.velocity);
        h = golden_vec3(h, s.desired_velocity);
        h = golden_vec3(h, s.target);
        h = golden_fnv(h, &s.poly.bits, sizeof s.poly.bits);
        h = golden_u32(h, s.corridor_count);
        uint32_t count = 0;
        if (wf_crowd_get_corridor(crowd, ids[k], corridor, 4096, &count) != WF_OK ||
            count != s.corridor_count) {
            abort();
        }
        for (uint32_t c = 0; c < count; ++c) {
            h = golden_fnv(h, &corridor[c].bits, sizeof corridor[c].bits);
        }
        h = golden_u32(h, s.corridor_partial ? 1u : 0u);
        h = golden_u32(h, s.corner_count);
        for (uint32_t c = 0; c < s.corner_count; ++c) {
            h = golden_vec3(h, s.corners[c].pos);
            h = golden_fnv(h, &s.corners[c].ref.bits, sizeof s.corners[c].ref.bits);
            h = golden_u32(h, s.corners[c].flags);
        }
    }
    return h;
}

/// The whole navmesh as wf_mesh_save writes it: every tile's slot,
/// generation and blob (vertices, polygons, detail) and its run-time state.
static inline uint64_t golden_mesh(uint64_t h, const wf_mesh* mesh) {
    size_t size = 0;
    if (wf_mesh_save_size(mesh, &size) != WF_OK) {
        abort();
    }
    void* bytes = malloc(size);
    if (bytes == NULL || wf_mesh_save(mesh, bytes, size) != WF_OK) {
        abort();
    }
    h = golden_fnv(h, bytes, size);
    free(bytes);
    return h;
}

/// Prints both hashes (so an intended change can be pinned from the log)
/// and whether they match; on a target without pinned hashes, true.
static inline bool golden_matches(const char* what, uint64_t got, uint64_t expected) {
    printf("%s: got 0x%016" PRIx64 "ull, pinned 0x%016" PRIx64 "ull%s\n", what, got, expected,
           GOLDEN_PINNED ? "" : " (not compared on this target)");
    return !GOLDEN_PINNED || got == expected;
}

/// Runs a scene on 1, 2 and 4 workers; true when all three give the same
/// hash, which goes to *out (the one-worker hash otherwise).
static inline bool golden_same_for_workers(uint64_t (*run)(uint32_t workers), uint64_t* out) {
    const uint32_t workers[] = {1, 2, 4};
    bool same = true;
    for (size_t k = 0; k < sizeof workers / sizeof workers[0]; ++k) {
        uint64_t h = run(workers[k]);
        printf("%u workers: 0x%016" PRIx64 "\n", workers[k], h);
        if (k == 0) {
            *out = h;
        }
        same = same && h == *out;
    }
    return same;
}

/// main's exit status: cmocka's, or 77 (skipped) when everything ran but
/// the pinned hashes were not compared on this target.
static inline int golden_exit(int failures) {
    if (failures == 0 && !GOLDEN_PINNED) {
        printf("golden hashes are pinned for x86-64 only: worker counts compared, "
               "pinned hashes skipped\n");
        return 77;
    }
    return failures;
}

#endif
