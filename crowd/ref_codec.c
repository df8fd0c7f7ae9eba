// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// 32-bit poly refs for corridors: the split and the generation table.
#include "crowd/ref_codec.h"

bool wf_ref_codec_split(uint32_t max_tiles, uint32_t* poly_bits, uint32_t* tile_bits,
                        uint32_t* salt_bits) {
    if (max_tiles > WF_REF_CODEC_MAX_TILES) {
        return false;
    }
    uint32_t t = 0;
    while (t < 32u && (1u << t) < max_tiles) {
        t++;
    }
    uint32_t rest = 32u - t;
    uint32_t p = rest > 28u ? 20u : rest > 20u ? rest - 8u : 12u;
    *tile_bits = t;
    *poly_bits = p;
    *salt_bits = rest - p;
    return true;
}

void wf_ref_codec_init(wf_ref_codec* k, uint32_t max_tiles, uint16_t* generations,
                       wf_tile_ref* tiles) {
    k->generations = generations;
    k->tiles = tiles;
    k->max_tiles = max_tiles;
    bool ok = wf_ref_codec_split(max_tiles, &k->poly_bits, &k->tile_bits, &k->salt_bits);
    (void)ok;
    for (uint32_t s = 0; s < max_tiles; ++s) {
        generations[s] = 1u;
    }
}

void wf_ref_codec_refresh(wf_ref_codec* k, const wf_mesh* mesh) {
    uint32_t n = wf_mesh_get_tiles(mesh, k->tiles, k->max_tiles);
    n = n < k->max_tiles ? n : k->max_tiles;
    for (uint32_t i = 0; i < n; ++i) {
        wf_poly_ref base = {k->tiles[i].bits};
        uint32_t slot = wf_poly_ref_tile(base);
        if (slot < k->max_tiles) {
            k->generations[slot] = (uint16_t)wf_poly_ref_generation(base);
        }
    }
}
