// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Poly refs in 32 bits, for the corridors (256 per agent): polygon index,
// tile slot and the low bits of the tile's generation. The split comes from
// the mesh's max_tiles; the full generation comes back from the slot's
// current generation in the mesh.
//
// Exact while a stored ref's generation lies within half the salt's range
// of its slot's current one: a stale polygon (its tile replaced) decodes to
// the ref it was as long as its slot changed fewer than 2^(salt_bits - 1) - 1
// times since (the step from generation 65535 to 1 counts twice).
// Corridors are validated every update (whole corridors after
// wf_crowd_tiles_changed), so stale entries live for an update or so.
#ifndef WF_CROWD_REF_CODEC_H
#define WF_CROWD_REF_CODEC_H

#include <stdbool.h>
#include <stdint.h>

#include "navcore/mesh_slots.h"
#include "wayfarer/navmesh.h"

/// The null ref, and any ref the split cannot hold (a polygon index of
/// 2^poly_bits - 1 or more, a slot past max_tiles).
#define WF_REF_CODEC_NULL UINT32_MAX
/// Polygon index bits never fewer than this: a tile holds at most 0x7ffe
/// polygons (navcore/tile_validate.c), so every polygon of every tile the
/// mesh accepts has an id (index 0x7ffd < 2^15 - 1, the null's index).
#define WF_REF_CODEC_MIN_POLY_BITS 15u
/// Most tile slots a codec can hold (17 bits of slot leave the 15 above).
#define WF_REF_CODEC_MAX_TILES (1u << 17)

/// Most tile slots whose generations a crowd copies for its updates
/// (wf_ref_codec.generations: 2 bytes a slot); a mesh with more is asked.
#define WF_REF_CODEC_TABLE_MAX_TILES 4096u

typedef struct wf_ref_codec {
    const wf_mesh* mesh; ///< where the generations come from
    /// The slots' generations copied from the mesh while it cannot change
    /// (a crowd update), so that a decode reads no function; NULL: ask the
    /// mesh. Decodes give the same refs either way.
    const uint16_t* generations;
    uint32_t max_tiles;
    uint32_t poly_bits, tile_bits, salt_bits;
} wf_ref_codec;

/// The split for max_tiles slots: tile bits enough for every slot, poly
/// bits 32 - tile bits - 8 within [15, 20], the rest salt (12 at one tile,
/// 7 at 1,024 tiles, none at 2^17). False above WF_REF_CODEC_MAX_TILES.
bool wf_ref_codec_split(uint32_t max_tiles, uint32_t* poly_bits, uint32_t* tile_bits,
                        uint32_t* salt_bits);

/// The codec for the mesh as it is now (its max_tiles must be at most
/// WF_REF_CODEC_MAX_TILES). A mesh whose contents are swapped for one of
/// another max_tiles needs a new codec (ids made by the old one are not
/// read by the new one).
void wf_ref_codec_init(wf_ref_codec* k, const wf_mesh* mesh);

static inline uint32_t wf_ref_codec_encode(const wf_ref_codec* k, wf_poly_ref ref) {
    uint32_t poly = wf_poly_ref_poly(ref), slot = wf_poly_ref_tile(ref);
    uint32_t gen = wf_poly_ref_generation(ref);
    if (gen == 0 || poly >= (1u << k->poly_bits) - 1u || slot >= k->max_tiles) {
        return WF_REF_CODEC_NULL;
    }
    uint32_t id = poly | (slot << k->poly_bits);
    if (k->salt_bits > 0) {
        id |= ((gen - 1u) & ((1u << k->salt_bits) - 1u)) << (k->poly_bits + k->tile_bits);
    }
    return id;
}

/// Copies the mesh's generations into table (capacity slots) and decodes
/// from it until wf_ref_codec_init or the next copy; a mesh with more
/// slots than capacity (or table NULL) is asked instead. Call it only when
/// the mesh will not change before the copy is dropped.
void wf_ref_codec_copy_generations(wf_ref_codec* k, uint16_t* table, uint32_t capacity);

/// The generation of a salt that differs from its slot's current one.
wf_poly_ref wf_ref_codec_decode_moved(const wf_ref_codec* k, uint32_t id, uint32_t gen);

/// The current generation of a slot below max_tiles.
static inline uint32_t wf_ref_codec_generation(const wf_ref_codec* k, uint32_t slot) {
    return k->generations != NULL ? k->generations[slot] : wf_mesh_slot_generation(k->mesh, slot);
}

/// The slot an id (not the null id) names.
static inline uint32_t wf_ref_codec_slot(const wf_ref_codec* k, uint32_t id) {
    return (id >> k->poly_bits) & ((1u << k->tile_bits) - 1u);
}

/// Decodes id (not the null id) of slot `slot`, whose current generation
/// is gen.
static inline wf_poly_ref wf_ref_codec_decode_at(const wf_ref_codec* k, uint32_t id, uint32_t slot,
                                                 uint32_t gen) {
    // Most ids carry their slot's current generation: no arithmetic.
    uint32_t salt = k->salt_bits > 0 ? id >> (k->poly_bits + k->tile_bits) : 0u;
    uint32_t want = k->salt_bits > 0 ? (gen - 1u) & ((1u << k->salt_bits) - 1u) : 0u;
    if (salt != want) {
        return wf_ref_codec_decode_moved(k, id, gen);
    }
    return wf_poly_ref_make(gen, slot, id & ((1u << k->poly_bits) - 1u));
}

static inline wf_poly_ref wf_ref_codec_decode(const wf_ref_codec* k, uint32_t id) {
    if (id == WF_REF_CODEC_NULL) {
        return (wf_poly_ref){0};
    }
    uint32_t slot = wf_ref_codec_slot(k, id);
    return wf_ref_codec_decode_at(k, id, slot, wf_ref_codec_generation(k, slot));
}

/// Decodes a run of ids (a corridor's, an agent's wall polygons): the
/// same refs as wf_ref_codec_decode, with the masks read once. Only while
/// the mesh does not change.
typedef struct wf_ref_decoder {
    const wf_ref_codec* codec;
    const uint16_t* generations; ///< the codec's copy, or NULL
    uint32_t poly_bits, poly_mask, tile_mask, salt_mask, salt_shift;
} wf_ref_decoder;

static inline wf_ref_decoder wf_ref_decoder_begin(const wf_ref_codec* k) {
    return (wf_ref_decoder){.codec = k,
                            .generations = k->generations,
                            .poly_bits = k->poly_bits,
                            .poly_mask = (uint32_t)((1ull << k->poly_bits) - 1u),
                            .tile_mask = (uint32_t)((1ull << k->tile_bits) - 1u),
                            .salt_mask = (uint32_t)((1ull << k->salt_bits) - 1u),
                            .salt_shift = k->poly_bits + k->tile_bits};
}

static inline wf_poly_ref wf_ref_decoder_next(const wf_ref_decoder* d, uint32_t id) {
    if (id == WF_REF_CODEC_NULL) {
        return (wf_poly_ref){0};
    }
    uint32_t slot = (id >> d->poly_bits) & d->tile_mask;
    uint32_t gen = d->generations != NULL ? d->generations[slot]
                                          : wf_mesh_slot_generation(d->codec->mesh, slot);
    // salt_shift is 32 without salt: the 64-bit shift gives 0, as the mask.
    if ((uint32_t)((uint64_t)id >> d->salt_shift) != ((gen - 1u) & d->salt_mask)) {
        return wf_ref_codec_decode_moved(d->codec, id, gen);
    }
    return wf_poly_ref_make(gen, slot, id & d->poly_mask);
}

#endif
