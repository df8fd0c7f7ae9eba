// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// 32-bit poly refs for corridors: the split and the generations that moved.
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
    uint32_t p = rest > 28u                               ? 20u
                 : rest > WF_REF_CODEC_MIN_POLY_BITS + 8u ? rest - 8u
                                                          : WF_REF_CODEC_MIN_POLY_BITS;
    *tile_bits = t;
    *poly_bits = p;
    *salt_bits = rest - p;
    return true;
}

void wf_ref_codec_init(wf_ref_codec* k, const wf_mesh* mesh) {
    k->mesh = mesh;
    k->generations = NULL;
    k->max_tiles = wf_mesh_slot_count(mesh);
    bool ok = wf_ref_codec_split(k->max_tiles, &k->poly_bits, &k->tile_bits, &k->salt_bits);
    (void)ok;
}

wf_poly_ref wf_ref_codec_decode_moved(const wf_ref_codec* k, uint32_t id, uint32_t gen) {
    uint32_t poly = id & ((1u << k->poly_bits) - 1u);
    uint32_t slot = (id >> k->poly_bits) & ((1u << k->tile_bits) - 1u);
    if (k->salt_bits > 0) {
        // Generations run 1..65535 then 1 again: as k = gen - 1 they cycle
        // through 65535 values, so a step across the wrap moves the low
        // bits by one more than it moves k.
        uint32_t mask = (1u << k->salt_bits) - 1u;
        int32_t base = (int32_t)gen - 1;
        int32_t d = (int32_t)(((id >> (k->poly_bits + k->tile_bits)) - (uint32_t)base) & mask);
        if (d >= (int32_t)(mask / 2u + 1u)) {
            d -= (int32_t)mask + 1;
        }
        int32_t at = base + d;
        at = at < 0 ? at + 65536 : at >= 65535 ? at - 65536 : at;
        gen = (uint32_t)at + 1u;
    }
    return wf_poly_ref_make(gen, slot, poly);
}

void wf_ref_codec_copy_generations(wf_ref_codec* k, uint16_t* table, uint32_t capacity) {
    k->generations = NULL;
    if (table == NULL || k->max_tiles > capacity) {
        return;
    }
    for (uint32_t slot = 0; slot < k->max_tiles; ++slot) {
        table[slot] = (uint16_t)wf_mesh_slot_generation(k->mesh, slot);
    }
    k->generations = table;
}
