// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Shared by the libFuzzer targets and the seed corpus generator: a logger
// that formats and drops, checksum repair for every checksummed format, a
// round of queries over a mesh, and the small fixtures (level, mesh, crowd,
// world) that the seeds were made from and that the targets load into.
#ifndef WF_FUZZ_COMMON_H
#define WF_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "wayfarer/wayfarer.h"

/// libFuzzer's entry point, defined once per target.
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

/// Aborts (a crash libFuzzer reports) when an invariant of the library's
/// contract does not hold, e.g. a loader returning a status it never should.
#define FUZZ_REQUIRE(cond) ((cond) ? (void)0 : fuzz_fail(#cond, __FILE__, __LINE__))
void fuzz_fail(const char* what, const char* file, int line);
/// True for the statuses a loader may answer bad input with.
bool fuzz_is_rejection(wf_status s);

/// Formats every message (so the formatting runs on fuzzed text) and drops it.
wf_logger fuzz_logger(void);
/// FNV-1a 64 of the input: seeds the per-input choices of the queries.
uint64_t fuzz_seed(const uint8_t* data, size_t size);
/// A malloc'd copy of exactly size bytes (at least 1 allocated), so ASan
/// catches a read past the end; malloc gives 16-byte alignment.
unsigned char* fuzz_copy(const uint8_t* data, size_t size);

/*
 * Checksum repair. The formats carry checksums that a mutation almost
 * always breaks; each target runs an input as it is and, when these
 * change anything, once more with every checksum it can reach recomputed,
 * so the validation and use behind the checksum is fuzzed too. They only
 * read inside [0, size) and leave fields they cannot locate alone.
 */
void fuzz_fix_tile(unsigned char* p, size_t size);
void fuzz_fix_tile_state(unsigned char* p, size_t size);
void fuzz_fix_mesh_save(unsigned char* p, size_t size);
void fuzz_fix_cache_file(unsigned char* p, size_t size);
void fuzz_fix_crowd_save(unsigned char* p, size_t size);
void fuzz_fix_world_save(unsigned char* p, size_t size);
/// The cache file rebuilt with each layer that decompresses (default
/// codec) given its layer hash again and compressed anew, so mutations of a
/// layer's content get past both checksums; directory, sizes and header
/// checksum follow. NULL when the header or directory cannot be followed.
unsigned char* fuzz_reencode_cache_file(const unsigned char* p, size_t size, size_t* out_size);
/// Serialized layer (WFLY, decompressed): its word hash at offset 44.
void fuzz_fix_layer(unsigned char* p, size_t size);

/// Runs each query kind a few times over the mesh's polygons (nearest
/// poly, paths, straight paths, raycasts, surface moves, circles, walls,
/// random points), choices drawn from seed.
void fuzz_exercise_mesh(const wf_mesh* mesh, uint64_t seed);

/* Fixtures: the same bytes in make_corpus and in the targets. */

/// The tiny level: an 8 x 8 m grid (0.5 m cells) with a wall and a gap,
/// built with 0.25 m cells into 2 x 2 tiles of 4 m.
wf_tilecache_params fuzz_level_params(void);
wf_grid fuzz_level_grid(void);
/// Obstacle capacity of the level's caches and world (the id pool saved
/// in cache files and world saves is this big).
#define FUZZ_MAX_OBSTACLES 8u
/// The level's tile cache (desc with the fuzz logger), or NULL.
wf_tilecache* fuzz_level_cache(void);
/// The level's cache file bytes (malloc'd), or NULL.
unsigned char* fuzz_level_cache_file(size_t* out_size);
/// The level's navmesh built from its cache, or NULL.
wf_mesh* fuzz_level_mesh(void);
/// Crowd capacities of the crowd and world seeds (mesh left NULL).
wf_crowd_desc fuzz_crowd_desc(void);
/// A world over the level's cache file with fuzz_crowd_desc, one worker.
wf_world* fuzz_level_world(void);
/// Agent parameters of the seeds (fit max_agent_radius).
wf_agent_params fuzz_agent_params(void);

/// The layer target's cell sizes (those of fuzz_level_params).
#define FUZZ_LAYER_CS 0.25f
#define FUZZ_LAYER_CH 0.25f

#endif
