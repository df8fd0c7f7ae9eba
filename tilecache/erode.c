// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Area marking on the compact heightfield: erosion of the walkable area by
// the agent radius, and convex volumes that paint an area id.
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "navcore/check.h"
#include "tilecache/heightfield.h"

/// Chamfer weights of the distance transform: 2 per straight step and 3 per
/// diagonal step approximate 2 x the Euclidean distance in cells.
#define STEP_STRAIGHT 2u
#define STEP_DIAGONAL 3u
#define FAR_AWAY 0xffffu

static inline uint32_t neighbour_index(const wf_compact_heightfield* chf, int32_t x, int32_t z,
                                       const wf_compact_span* s, int dir) {
    size_t nc = (size_t)(x + wf_dir_dx[dir]) + (size_t)(z + wf_dir_dz[dir]) * (size_t)chf->width;
    return chf->cell_index[nc] + wf_compact_get_con(s, dir);
}

/// Whether none of the four 6-bit links is WF_NOT_CONNECTED (all ones).
static inline bool has_all_links(uint32_t con) {
    // A field is 0x3f when all six of its bits are set: AND each bit with
    // the five above it and look at the fields' lowest bits.
    uint32_t all = con & (con >> 1) & (con >> 2) & (con >> 3) & (con >> 4) & (con >> 5);
    return (all & 0x041041u) == 0u;
}

/// Span t is inside the walkable area (not an erosion seed): walkable,
/// linked all round, and its four neighbours (from the compact build's
/// link table) walkable too.
static inline bool inside_linked(const uint8_t* areas, const wf_compact_span* spans,
                                 const uint32_t* links, uint32_t t) {
    const uint32_t* l = &links[4u * (size_t)t];
    return areas[t] != WF_AREA_NULL && has_all_links(spans[t].con) &&
           ((areas[l[0]] != WF_AREA_NULL) & (areas[l[1]] != WF_AREA_NULL) &
            (areas[l[2]] != WF_AREA_NULL) & (areas[l[3]] != WF_AREA_NULL));
}

static inline void relax(uint16_t* dist, uint32_t target, uint32_t source, uint32_t step) {
    uint32_t d = (uint32_t)dist[source] + step;
    if (d > FAR_AWAY) {
        d = FAR_AWAY;
    }
    if (d < dist[target]) {
        dist[target] = (uint16_t)d;
    }
}

/// Relaxes span i at (x, z) from its neighbour in direction `straight`
/// (step 2) and from that neighbour's neighbour in direction `turn`, the
/// diagonal (step 3).
static inline void relax_pair(const wf_compact_heightfield* chf, uint16_t* dist, int32_t x,
                              int32_t z, uint32_t i, int straight, int turn) {
    const wf_compact_span* s = &chf->spans[i];
    if (wf_compact_get_con(s, straight) == WF_NOT_CONNECTED) {
        return;
    }
    uint32_t ni = neighbour_index(chf, x, z, s, straight);
    relax(dist, i, ni, STEP_STRAIGHT);
    const wf_compact_span* ns = &chf->spans[ni];
    if (wf_compact_get_con(ns, turn) == WF_NOT_CONNECTED) {
        return;
    }
    int32_t nx = x + wf_dir_dx[straight];
    int32_t nz = z + wf_dir_dz[straight];
    relax(dist, i, neighbour_index(chf, nx, nz, ns, turn), STEP_DIAGONAL);
}

/// Below this threshold (a radius of 1 or 2 cells) the transform needs no
/// passes: a distance under 4 is a seed (0), a seed one straight step away
/// (2) or one diagonal step away (3), as any two steps cost 4 or more. The
/// passes take each diagonal through one particular straight neighbour
/// (-x then -z, -z then +x, +x then +z, +z then -x), so the same ones are
/// looked at here; the result is the transform's, bit for bit.
#define SHORT_REACH (2u * STEP_STRAIGHT)

/// Whether cell (x, z) lies in the field.
static inline bool in_field(int32_t width, int32_t depth, int32_t x, int32_t z) {
    return x >= 0 && z >= 0 && x < width && z < depth;
}

/// Sets WF_AREA_NULL on the spans of cell c whose link in direction dir is
/// the span with in-cell index k (links are one-way: a span need not link
/// back to the span that links to it, so the spans are read, not assumed).
static inline void clear_linking(const wf_compact_heightfield* chf, uint8_t* areas, size_t c,
                                 int dir, uint32_t k) {
    for (uint32_t i = chf->cell_index[c], end = i + chf->cell_count[c]; i < end; ++i) {
        if (wf_compact_get_con(&chf->spans[i], dir) == k) {
            areas[i] = WF_AREA_NULL;
        }
    }
}

/// The erosion for thresholds up to SHORT_REACH, from the seeds alone
/// (dist: 0 for a seed, FAR_AWAY otherwise). A span is eroded when it is a
/// seed, when its straight neighbour in some direction d is one, or when
/// that neighbour's neighbour in direction turn[d] is one (the diagonals
/// the passes take: -x then -z, +z then -x, +x then +z, -z then +x). Seeds
/// are the edges of the walkable area, far fewer than its spans, so this
/// works from each seed outwards: the spans whose link in d reaches the
/// seed, and the spans linking in d to a span that links in turn[d] to it.
/// Erosion only clears areas and the seeds are read from dist, so the
/// order of the seeds changes nothing.
/// With `from_links` (a field with a link table) there is no dist: each
/// span is tested as a seed where it stands, on `before`, the areas as they
/// were before any clearing (the same test as the seed pass), so finding
/// the seeds and clearing around them is one pass. Forced inline so that
/// `from_links` is a constant in each of the two uses.
__attribute__((always_inline)) static inline void
erode_short_from(wf_compact_heightfield* chf, const uint16_t* dist, const uint8_t* before,
                 uint32_t threshold, bool from_links) {
    const bool reach = threshold > STEP_STRAIGHT; // steps of 2 and 3 count
    const int32_t width = chf->width, depth = chf->depth;
    const ptrdiff_t w = width;
    const ptrdiff_t off[WF_DIR_COUNT] = {-1, w, 1, -w};
    static const int turn[WF_DIR_COUNT] = {3, 0, 1, 2};
    // In locals: the area stores are bytes, which may alias chf's fields.
    const uint32_t* cell_index = chf->cell_index;
    const uint8_t* cell_count = chf->cell_count;
    uint8_t* areas = chf->areas;
    const uint32_t* links = chf->links;
    const wf_compact_span* spans = chf->spans;
    for (int32_t z = 0; z < depth; ++z) {
        for (int32_t x = 0; x < width; ++x) {
            const ptrdiff_t c = (ptrdiff_t)x + (ptrdiff_t)z * w;
            const uint32_t begin = cell_index[c], end = begin + cell_count[c];
            for (uint32_t t = begin; t < end; ++t) {
                if (from_links) {
                    if (inside_linked(before, spans, links, t)) {
                        continue; // inside the area: not a seed
                    }
                } else if (dist[t] != 0) {
                    continue;
                }
                areas[t] = WF_AREA_NULL;
                if (!reach) {
                    continue;
                }
                const uint32_t k = t - begin;
                for (int d = 0; d < WF_DIR_COUNT; ++d) {
                    // Straight: spans of the cell behind t (seen along d).
                    int32_t sx = x - wf_dir_dx[d], sz = z - wf_dir_dz[d];
                    if (in_field(width, depth, sx, sz)) {
                        clear_linking(chf, areas, (size_t)(c - off[d]), d, k);
                    }
                    // Diagonal: spans m of the cell behind t along turn[d]
                    // that link to t, then the spans behind m along d.
                    const int e = turn[d];
                    int32_t mx = x - wf_dir_dx[e], mz = z - wf_dir_dz[e];
                    int32_t ix = mx - wf_dir_dx[d], iz = mz - wf_dir_dz[d];
                    if (!in_field(width, depth, mx, mz) || !in_field(width, depth, ix, iz)) {
                        continue;
                    }
                    const ptrdiff_t mc = c - off[e];
                    const uint32_t mbegin = cell_index[mc], mend = mbegin + cell_count[mc];
                    for (uint32_t m = mbegin; m < mend; ++m) {
                        if (wf_compact_get_con(&chf->spans[m], e) == k) {
                            clear_linking(chf, areas, (size_t)(mc - off[d]), d, m - mbegin);
                        }
                    }
                }
            }
        }
    }
}

static void erode_short(wf_compact_heightfield* chf, const uint16_t* dist, uint32_t threshold) {
    erode_short_from(chf, dist, NULL, threshold, false);
}

static void erode_short_linked(wf_compact_heightfield* chf, const uint8_t* before,
                               uint32_t threshold) {
    erode_short_from(chf, NULL, before, threshold, true);
}

wf_status wf_erode_walkable_area(wf_compact_heightfield* chf, wf_arena* arena, int32_t radius) {
    WF_CHECK_ARG(chf != NULL && arena != NULL && chf->cell_index != NULL);
    // Distances saturate at FAR_AWAY, so the threshold must stay below it.
    WF_CHECK_ARG(radius >= 0 && radius < (int32_t)(FAR_AWAY / STEP_STRAIGHT));
    if (radius == 0 || chf->span_count == 0) {
        return WF_OK;
    }

    wf_arena_mark mark = wf_arena_get_mark(arena);
    const uint32_t threshold = (uint32_t)radius * STEP_STRAIGHT;
    if (threshold <= SHORT_REACH && chf->links != NULL) {
        // Seeds found and cleared around in one pass, on a copy of the
        // areas as they were.
        uint8_t* before = WF_ARENA_ARRAY(arena, uint8_t, chf->span_count);
        if (before == NULL) {
            return WF_ERR_CAPACITY;
        }
        memcpy(before, chf->areas, chf->span_count);
        erode_short_linked(chf, before, threshold);
        wf_arena_reset_to(arena, mark);
        return WF_OK;
    }
    uint16_t* dist = WF_ARENA_ARRAY(arena, uint16_t, chf->span_count);
    if (dist == NULL) {
        return WF_ERR_CAPACITY;
    }

    const ptrdiff_t off[WF_DIR_COUNT] = {-1, chf->width, 1, -(ptrdiff_t)chf->width};
    // Seeds: unwalkable spans and walkable ones missing a walkable
    // neighbour in any of the four directions (the edge of the area).
    const size_t seed_width = (size_t)chf->width;
    const int32_t seed_depth = chf->depth;
    const uint32_t* seed_index = chf->cell_index;
    const uint8_t* seed_count = chf->cell_count;
    const wf_compact_span* seed_spans = chf->spans;
    const uint8_t* seed_areas = chf->areas;
    if (chf->links != NULL) {
        // The compact build's link table names the neighbours directly:
        // one flat pass over the spans, no cells.
        const uint32_t* links = chf->links;
        for (uint32_t i = 0, n = chf->span_count; i < n; ++i) {
            dist[i] = inside_linked(seed_areas, seed_spans, links, i) ? (uint16_t)FAR_AWAY : 0u;
        }
    }
    // A hand-filled field: the neighbours from the cells and con.
    for (int32_t z = 0; chf->links == NULL && z < seed_depth; ++z) {
        for (size_t x = 0; x < seed_width; ++x) {
            size_t c = x + (size_t)z * seed_width;
            for (uint32_t i = seed_index[c], end = i + seed_count[c]; i < end; ++i) {
                const uint32_t con = seed_spans[i].con;
                // All four links present (no 0x3f field) before any lookup;
                // then all four neighbours exist and are read at once.
                bool inside = seed_areas[i] != WF_AREA_NULL && has_all_links(con);
                if (inside) {
                    inside = (seed_areas[seed_index[c + (size_t)off[0]] + (con & 0x3fu)] !=
                              WF_AREA_NULL) &
                             (seed_areas[seed_index[c + (size_t)off[1]] + ((con >> 6) & 0x3fu)] !=
                              WF_AREA_NULL) &
                             (seed_areas[seed_index[c + (size_t)off[2]] + ((con >> 12) & 0x3fu)] !=
                              WF_AREA_NULL) &
                             (seed_areas[seed_index[c + (size_t)off[3]] + ((con >> 18) & 0x3fu)] !=
                              WF_AREA_NULL);
                }
                dist[i] = inside ? (uint16_t)FAR_AWAY : 0u;
            }
        }
    }

    if (threshold <= SHORT_REACH) {
        erode_short(chf, dist, threshold);
        wf_arena_reset_to(arena, mark);
        return WF_OK;
    }

    // Two-pass chamfer distance transform (Borgefors): forward from -x
    // (and -x-z) and -z (and +x-z), then backward from +x (and +x+z) and
    // +z (and -x+z).
    for (int32_t z = 0; z < chf->depth; ++z) {
        for (int32_t x = 0; x < chf->width; ++x) {
            size_t c = (size_t)x + (size_t)z * (size_t)chf->width;
            for (uint32_t i = chf->cell_index[c], end = i + chf->cell_count[c]; i < end; ++i) {
                if (dist[i] == 0) {
                    continue; // a seed: nothing is closer
                }
                relax_pair(chf, dist, x, z, i, 0, 3);
                relax_pair(chf, dist, x, z, i, 3, 2);
            }
        }
    }
    for (int32_t z = chf->depth - 1; z >= 0; --z) {
        for (int32_t x = chf->width - 1; x >= 0; --x) {
            size_t c = (size_t)x + (size_t)z * (size_t)chf->width;
            for (uint32_t i = chf->cell_index[c], end = i + chf->cell_count[c]; i < end; ++i) {
                if (dist[i] == 0) {
                    continue;
                }
                relax_pair(chf, dist, x, z, i, 2, 1);
                relax_pair(chf, dist, x, z, i, 1, 0);
            }
        }
    }

    for (uint32_t i = 0; i < chf->span_count; ++i) {
        if (dist[i] < threshold) {
            chf->areas[i] = WF_AREA_NULL;
        }
    }
    wf_arena_reset_to(arena, mark);
    return WF_OK;
}

/// Crossing-number point-in-polygon test on XZ.
static bool point_in_outline(const wf_vec3* verts, uint32_t count, float px, float pz) {
    bool inside = false;
    for (uint32_t i = 0, j = count - 1; i < count; j = i++) {
        const wf_vec3* a = &verts[i];
        const wf_vec3* b = &verts[j];
        if ((a->z > pz) != (b->z > pz) && px < (b->x - a->x) * (pz - a->z) / (b->z - a->z) + a->x) {
            inside = !inside;
        }
    }
    return inside;
}

void wf_mark_convex_volume(wf_compact_heightfield* chf, const wf_convex_volume* volume) {
    if (chf == NULL || chf->cell_index == NULL || !(chf->cs > 0.0f) || volume == NULL ||
        volume->verts == NULL || volume->vert_count < 3 || volume->vert_count > 32 ||
        !(volume->min_y <= volume->max_y)) {
        return;
    }
    float min_x = volume->verts[0].x, max_x = min_x;
    float min_z = volume->verts[0].z, max_z = min_z;
    for (uint32_t i = 1; i < volume->vert_count; ++i) {
        min_x = fminf(min_x, volume->verts[i].x);
        max_x = fmaxf(max_x, volume->verts[i].x);
        min_z = fminf(min_z, volume->verts[i].z);
        max_z = fmaxf(max_z, volume->verts[i].z);
    }
    if (!(isfinite(min_x) && isfinite(max_x) && isfinite(min_z) && isfinite(max_z))) {
        return;
    }
    // Only the cells under the outline's bounding box need the exact test.
    float x0f = floorf((min_x - chf->bmin[0]) / chf->cs);
    float x1f = floorf((max_x - chf->bmin[0]) / chf->cs);
    float z0f = floorf((min_z - chf->bmin[2]) / chf->cs);
    float z1f = floorf((max_z - chf->bmin[2]) / chf->cs);
    if (x1f < 0.0f || z1f < 0.0f || x0f >= (float)chf->width || z0f >= (float)chf->depth) {
        return;
    }
    int32_t x0 = x0f < 0.0f ? 0 : (int32_t)x0f;
    int32_t z0 = z0f < 0.0f ? 0 : (int32_t)z0f;
    int32_t x1 = x1f >= (float)chf->width ? chf->width - 1 : (int32_t)x1f;
    int32_t z1 = z1f >= (float)chf->depth ? chf->depth - 1 : (int32_t)z1f;

    for (int32_t z = z0; z <= z1; ++z) {
        for (int32_t x = x0; x <= x1; ++x) {
            size_t c = (size_t)x + (size_t)z * (size_t)chf->width;
            float px = chf->bmin[0] + ((float)x + 0.5f) * chf->cs;
            float pz = chf->bmin[2] + ((float)z + 0.5f) * chf->cs;
            bool in_outline = point_in_outline(volume->verts, volume->vert_count, px, pz);
            if (!in_outline) {
                continue;
            }
            for (uint32_t i = chf->cell_index[c]; i < chf->cell_index[c] + chf->cell_count[c];
                 ++i) {
                if (chf->areas[i] == WF_AREA_NULL) {
                    continue;
                }
                float top = chf->bmin[1] + (float)chf->spans[i].y * chf->ch;
                if (top >= volume->min_y && top <= volume->max_y) {
                    chf->areas[i] = volume->area;
                }
            }
        }
    }
}
