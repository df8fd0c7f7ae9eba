// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Proximity grid: a counting sort of the items by the hashed cell of their
// position, rebuilt every update into memory allocated once.
#include "crowd/proximity_grid.h"

#include <math.h>
#include <string.h>

#include "navcore/alloc.h"
#include "navcore/check.h"

#define GRID_MIN_BUCKETS 64u
#define GRID_MAX_ITEMS (1u << 30) // keeps 2 * max_items and the bucket count in 32 bits
#define GRID_NO_BUCKET UINT32_MAX

/// Integer cell coordinate of v, clamped into int32 (NaN goes to the
/// minimum: such an item is stored but fails every box test).
static int32_t grid_cell(float v, float inv_cell_size) {
    float f = floorf(v * inv_cell_size);
    if (!(f > -2147483648.0f)) {
        return INT32_MIN;
    }
    if (f >= 2147483648.0f) {
        return INT32_MAX;
    }
    return (int32_t)f;
}

static uint32_t grid_bucket(int32_t cx, int32_t cz, uint32_t mask) {
    // Mixed so that the low bits (all the mask keeps) depend on every bit.
    uint32_t h = (uint32_t)cx * 0x8da6b343u ^ (uint32_t)cz * 0xd8163841u;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    return h & mask;
}

static bool grid_inside(wf_vec3 p, float min_x, float min_z, float max_x, float max_z) {
    return p.x >= min_x && p.x <= max_x && p.z >= min_z && p.z <= max_z;
}

static void grid_free_arrays(wf_proximity_grid* g) {
    if (g->borrowed) {
        return;
    }
    WF_FREE_ARRAY(&g->allocator, g->bucket_start, uint32_t, (size_t)g->bucket_count + 1u);
    WF_FREE_ARRAY(&g->allocator, g->items, uint32_t, g->max_items);
    WF_FREE_ARRAY(&g->allocator, g->item_cell, int32_t, 2u * (size_t)g->max_items);
    WF_FREE_ARRAY(&g->allocator, g->item_xz, float, 2u * (size_t)g->max_items);
    WF_FREE_ARRAY(&g->allocator, g->item_y, float, 2u * (size_t)g->max_items);
    WF_FREE_ARRAY(&g->allocator, g->item_bucket, uint32_t, g->max_items);
}

static bool grid_args_valid(uint32_t max_items, float cell_size) {
    return max_items >= 1u && max_items <= GRID_MAX_ITEMS && cell_size > 0.0f &&
           isfinite(cell_size) && isfinite(1.0f / cell_size);
}

static uint32_t grid_buckets(uint32_t max_items) {
    uint32_t buckets = GRID_MIN_BUCKETS;
    while (buckets < 2u * max_items) {
        buckets <<= 1u;
    }
    return buckets;
}

static wf_proximity_grid grid_start(uint32_t max_items, float cell_size) {
    wf_proximity_grid g;
    memset(&g, 0, sizeof g);
    g.cell_size = cell_size;
    g.inv_cell_size = 1.0f / cell_size;
    g.max_items = max_items;
    g.bucket_count = grid_buckets(max_items);
    return g;
}

wf_status wf_proximity_grid_create(wf_proximity_grid* grid, const wf_allocator* allocator,
                                   uint32_t max_items, float cell_size) {
    WF_CHECK_ARG(grid != NULL);
    WF_CHECK_ARG(grid_args_valid(max_items, cell_size));
    wf_proximity_grid g = grid_start(max_items, cell_size);
    WF_CHECK_ARG(wf_allocator_resolve(allocator, &g.allocator) == WF_OK);
    uint32_t buckets = g.bucket_count;
    g.bucket_start = WF_ALLOC_ARRAY(&g.allocator, uint32_t, (size_t)buckets + 1u);
    g.items = WF_ALLOC_ARRAY(&g.allocator, uint32_t, max_items);
    g.item_cell = WF_ALLOC_ARRAY(&g.allocator, int32_t, 2u * (size_t)max_items);
    g.item_xz = WF_ALLOC_ARRAY(&g.allocator, float, 2u * (size_t)max_items);
    g.item_y = WF_ALLOC_ARRAY(&g.allocator, float, 2u * (size_t)max_items);
    g.item_bucket = WF_ALLOC_ARRAY(&g.allocator, uint32_t, max_items);
    if (g.bucket_start == NULL || g.items == NULL || g.item_cell == NULL || g.item_bucket == NULL ||
        g.item_xz == NULL || g.item_y == NULL) {
        grid_free_arrays(&g);
        return WF_ERR_OUT_OF_MEMORY;
    }
    // Zeroed offsets: every bucket empty until the first build.
    *grid = g;
    return WF_OK;
}

size_t wf_proximity_grid_storage_bytes(uint32_t max_items) {
    if (max_items < 1u || max_items > GRID_MAX_ITEMS) {
        return 0;
    }
    return ((size_t)grid_buckets(max_items) + 1u) * sizeof(uint32_t) +
           (size_t)max_items * (2u * sizeof(uint32_t) + 2u * sizeof(int32_t) + 4u * sizeof(float));
}

wf_status wf_proximity_grid_create_in(wf_proximity_grid* grid, void* storage, uint32_t max_items,
                                      float cell_size) {
    WF_CHECK_ARG(grid != NULL && storage != NULL && ((uintptr_t)storage & 3u) == 0);
    WF_CHECK_ARG(grid_args_valid(max_items, cell_size));
    wf_proximity_grid g = grid_start(max_items, cell_size);
    g.borrowed = true;
    uint32_t* at = storage;
    g.bucket_start = at;
    at += (size_t)g.bucket_count + 1u;
    g.items = at;
    at += max_items;
    g.item_bucket = at;
    at += max_items;
    g.item_cell = (int32_t*)at;
    at += 2u * (size_t)max_items;
    g.item_xz = (float*)at;
    at += 2u * (size_t)max_items;
    g.item_y = (float*)at;
    *grid = g;
    return WF_OK;
}

void wf_proximity_grid_destroy(wf_proximity_grid* grid) {
    if (grid == NULL || grid->bucket_start == NULL) {
        return;
    }
    grid_free_arrays(grid);
    memset(grid, 0, sizeof *grid);
}

size_t wf_proximity_grid_memory_bytes(const wf_proximity_grid* grid) {
    if (grid == NULL || grid->bucket_start == NULL || grid->borrowed) {
        return 0;
    }
    return wf_proximity_grid_storage_bytes(grid->max_items);
}

void wf_proximity_grid_build(wf_proximity_grid* grid, const wf_vec3* positions,
                             const float* half_heights, const uint8_t* active, uint32_t count) {
    WF_ASSERT(grid != NULL && grid->bucket_start != NULL);
    WF_ASSERT(count <= grid->max_items);
    WF_ASSERT(positions != NULL || count == 0);
    if (grid == NULL || grid->bucket_start == NULL) {
        return;
    }
    if (count > grid->max_items) {
        count = grid->max_items;
    }
    if (positions == NULL) {
        count = 0;
    }
    const uint32_t mask = grid->bucket_count - 1u;
    const float inv = grid->inv_cell_size;
    uint32_t* start = grid->bucket_start;

    // The cells the active items span: one bucket each when they fit.
    int64_t lo_x = INT32_MAX, lo_z = INT32_MAX, hi_x = INT32_MIN, hi_z = INT32_MIN;
    for (uint32_t i = 0; i < count; ++i) {
        if (active != NULL && active[i] == 0) {
            continue;
        }
        int32_t cx = grid_cell(positions[i].x, inv), cz = grid_cell(positions[i].z, inv);
        // Kept by item until the slots are filled (then item_cell is by slot).
        grid->item_cell[2u * i] = cx;
        grid->item_cell[2u * i + 1u] = cz;
        lo_x = cx < lo_x ? cx : lo_x;
        hi_x = cx > hi_x ? cx : hi_x;
        lo_z = cz < lo_z ? cz : lo_z;
        hi_z = cz > hi_z ? cz : hi_z;
    }
    grid->dense = false;
    if (lo_x <= hi_x) {
        uint64_t w = (uint64_t)(hi_x - lo_x) + 1u, d = (uint64_t)(hi_z - lo_z) + 1u;
        if (w <= grid->bucket_count && d <= grid->bucket_count && w * d <= grid->bucket_count) {
            grid->dense = true;
            grid->min_x = (int32_t)lo_x;
            grid->min_z = (int32_t)lo_z;
            grid->width = (uint32_t)w;
            grid->depth = (uint32_t)d;
        }
    }
    const uint32_t used = grid->dense ? grid->width * grid->depth : grid->bucket_count;
    memset(start, 0, ((size_t)used + 1u) * sizeof *start);

    // Count per bucket.
    uint32_t n = 0;
    for (uint32_t i = 0; i < count; ++i) {
        if (active != NULL && active[i] == 0) {
            grid->item_bucket[i] = GRID_NO_BUCKET;
            continue;
        }
        int32_t cx = grid->item_cell[2u * i], cz = grid->item_cell[2u * i + 1u];
        uint32_t b = grid->dense
                         ? (uint32_t)(cz - grid->min_z) * grid->width + (uint32_t)(cx - grid->min_x)
                         : grid_bucket(cx, cz, mask);
        grid->item_bucket[i] = b;
        start[b]++;
        n++;
    }
    // Inclusive prefix sums: start[b] = end of bucket b.
    uint32_t sum = 0;
    for (uint32_t b = 0; b < used; ++b) {
        sum += start[b];
        start[b] = sum;
    }
    start[used] = sum;
    // Filled back to front, so each bucket ends ascending and start[b]
    // comes down to the bucket's first slot.
    for (uint32_t i = count; i-- > 0;) {
        uint32_t b = grid->item_bucket[i];
        if (b == GRID_NO_BUCKET) {
            continue;
        }
        uint32_t slot = --start[b];
        grid->items[slot] = i;
        if (!grid->dense) {
            // A hashed bucket mixes cells: queries tell them apart by these.
            grid->item_cell[2u * slot] = grid_cell(positions[i].x, inv);
            grid->item_cell[2u * slot + 1u] = grid_cell(positions[i].z, inv);
        }
        grid->item_xz[2u * slot] = positions[i].x;
        grid->item_xz[2u * slot + 1u] = positions[i].z;
        grid->item_y[2u * slot] = positions[i].y;
        grid->item_y[2u * slot + 1u] = half_heights != NULL ? half_heights[i] : 0.0f;
    }
    grid->item_count = n;
    grid->build_count = count;
    grid->has_heights = half_heights != NULL;
}

/// Dense layout: the slots [*first, *end) of the items in cells x0..x1 of
/// row z, clipped to the cells the grid spans (empty when outside).
static void dense_run(const wf_proximity_grid* g, int64_t z, int64_t x0, int64_t x1,
                      uint32_t* first, uint32_t* end) {
    int64_t lo = x0 > g->min_x ? x0 : g->min_x;
    int64_t hi = x1 < (int64_t)g->min_x + g->width - 1 ? x1 : (int64_t)g->min_x + g->width - 1;
    if (z < g->min_z || z >= (int64_t)g->min_z + g->depth || lo > hi) {
        *first = *end = 0;
        return;
    }
    uint32_t row = (uint32_t)(z - g->min_z) * g->width;
    *first = g->bucket_start[row + (uint32_t)(lo - g->min_x)];
    *end = g->bucket_start[row + (uint32_t)(hi - g->min_x) + 1u];
}

/// Inserts index into the ascending out[0..*kept) holding the smallest
/// indices seen so far (at most max_out of them).
static void grid_keep(uint32_t* out, uint32_t max_out, uint32_t* kept, uint32_t index) {
    uint32_t k = *kept;
    if (k == max_out) {
        if (k == 0 || index > out[k - 1u]) {
            return;
        }
        k--; // the largest drops out
    } else {
        (*kept)++;
    }
    while (k > 0 && out[k - 1u] > index) {
        out[k] = out[k - 1u];
        k--;
    }
    out[k] = index;
}

uint32_t wf_proximity_grid_query(const wf_proximity_grid* grid, const wf_vec3* positions,
                                 float min_x, float min_z, float max_x, float max_z, uint32_t* out,
                                 uint32_t max_out) {
    WF_ASSERT(grid != NULL && (out != NULL || max_out == 0));
    if (grid == NULL || grid->item_count == 0 || !(min_x <= max_x && min_z <= max_z)) {
        return 0;
    }
    WF_ASSERT(positions != NULL);
    if (out == NULL) {
        max_out = 0;
    }
    const float inv = grid->inv_cell_size;
    int32_t cx0 = grid_cell(min_x, inv), cx1 = grid_cell(max_x, inv);
    int32_t cz0 = grid_cell(min_z, inv), cz1 = grid_cell(max_z, inv);
    uint64_t span_x = (uint64_t)((int64_t)cx1 - cx0) + 1u;
    uint64_t span_z = (uint64_t)((int64_t)cz1 - cz0) + 1u;
    uint32_t total = 0, kept = 0;

    // (Spans compared first: their product could overflow.)
    if (span_x >= grid->build_count || span_z >= grid->build_count ||
        span_x * span_z >= grid->build_count) {
        // More cells than items: one pass over the items, already in order.
        for (uint32_t i = 0; i < grid->build_count; ++i) {
            if (grid->item_bucket[i] != GRID_NO_BUCKET &&
                grid_inside(positions[i], min_x, min_z, max_x, max_z)) {
                if (kept < max_out) {
                    out[kept++] = i;
                }
                total++;
            }
        }
        return total;
    }

    if (grid->dense) {
        for (int64_t cz = cz0; cz <= cz1; ++cz) {
            uint32_t s, e;
            dense_run(grid, cz, cx0, cx1, &s, &e);
            for (; s < e; ++s) {
                uint32_t i = grid->items[s];
                if (grid_inside(positions[i], min_x, min_z, max_x, max_z)) {
                    total++;
                    grid_keep(out, max_out, &kept, i);
                }
            }
        }
        return total;
    }
    const uint32_t mask = grid->bucket_count - 1u;
    for (int64_t cz = cz0; cz <= cz1; ++cz) {
        for (int64_t cx = cx0; cx <= cx1; ++cx) {
            uint32_t b = grid_bucket((int32_t)cx, (int32_t)cz, mask);
            for (uint32_t s = grid->bucket_start[b], e = grid->bucket_start[b + 1u]; s < e; ++s) {
                // Only this cell's items: another cell hashed here is
                // visited (or not) under its own coordinates.
                if (grid->item_cell[2u * s] != cx || grid->item_cell[2u * s + 1u] != cz) {
                    continue;
                }
                uint32_t i = grid->items[s];
                if (!grid_inside(positions[i], min_x, min_z, max_x, max_z)) {
                    continue;
                }
                total++;
                grid_keep(out, max_out, &kept, i);
            }
        }
    }
    return total;
}

/// Inserts (d2, item) into the k nearest so far, kept sorted.
static void nearest_keep(uint32_t* out, float* out_d2, uint32_t k, uint32_t* kept, uint32_t item,
                         float d2) {
    uint32_t n = *kept;
    if (n == k) {
        if (k == 0 || d2 > out_d2[n - 1u] || (d2 == out_d2[n - 1u] && item > out[n - 1u])) {
            return;
        }
        n--; // the furthest drops out
    } else {
        (*kept)++;
    }
    while (n > 0 && (out_d2[n - 1u] > d2 || (out_d2[n - 1u] == d2 && out[n - 1u] > item))) {
        out[n] = out[n - 1u];
        out_d2[n] = out_d2[n - 1u];
        n--;
    }
    out[n] = item;
    out_d2[n] = d2;
}

/// A nearest query in progress.
typedef struct nearest_query {
    const wf_proximity_grid* grid;
    wf_vec3 center;
    float half_height, r2;
    uint32_t self;
    wf_proximity_accept_fn* accept;
    void* context;
    uint32_t* out;
    float* out_d2;
    uint32_t k, kept;
} nearest_query;

/// Offers the items in slots [s, e) to the query; with check_cell only
/// those of cell (cx, cz) (a hashed bucket mixes cells).
static inline void nearest_scan(nearest_query* q, uint32_t s, uint32_t e, bool check_cell,
                                int64_t cx, int64_t cz) {
    const wf_proximity_grid* grid = q->grid;
    for (; s < e; ++s) {
        if (check_cell && (grid->item_cell[2u * s] != cx || grid->item_cell[2u * s + 1u] != cz)) {
            continue;
        }
        float dx = grid->item_xz[2u * s] - q->center.x;
        float dz = grid->item_xz[2u * s + 1u] - q->center.z;
        float d2 = dx * dx + dz * dz;
        uint32_t i = grid->items[s];
        if (d2 > q->r2 || i == q->self) {
            continue;
        }
        uint32_t k = q->k;
        if (q->kept == k &&
            (d2 > q->out_d2[k - 1u] || (d2 == q->out_d2[k - 1u] && i > q->out[k - 1u]))) {
            continue; // not nearer than the k kept: skip the other tests
        }
        if (grid->has_heights && fabsf(grid->item_y[2u * s] - q->center.y) >=
                                     q->half_height + grid->item_y[2u * s + 1u]) {
            continue; // another floor
        }
        if (q->accept == NULL || q->accept(i, q->context)) {
            nearest_keep(q->out, q->out_d2, k, &q->kept, i, d2);
        }
    }
}

uint32_t wf_proximity_grid_nearest(const wf_proximity_grid* grid, const wf_vec3* positions,
                                   wf_vec3 center, float half_height, float range, uint32_t self,
                                   wf_proximity_accept_fn* accept, void* context, uint32_t* out,
                                   float* out_d2, uint32_t k) {
    WF_ASSERT(grid != NULL && positions != NULL && (out != NULL || k == 0));
    if (grid == NULL || grid->item_count == 0 || k == 0 || !(range >= 0.0f) ||
        !wf_v3_is_finite(center)) {
        return 0;
    }
    const float inv = grid->inv_cell_size;
    const float r2 = range * range;
    int32_t cx0 = grid_cell(center.x - range, inv), cx1 = grid_cell(center.x + range, inv);
    int32_t cz0 = grid_cell(center.z - range, inv), cz1 = grid_cell(center.z + range, inv);
    uint64_t span_x = (uint64_t)((int64_t)cx1 - cx0) + 1u;
    uint64_t span_z = (uint64_t)((int64_t)cz1 - cz0) + 1u;
    uint32_t kept = 0;
    if (span_x >= grid->build_count || span_z >= grid->build_count ||
        span_x * span_z >= grid->build_count) {
        // More cells than items: every item once (the order does not
        // matter: the answer is ordered by distance, then index).
        for (uint32_t s = 0; s < grid->item_count; ++s) {
            uint32_t i = grid->items[s];
            float dx = grid->item_xz[2u * s] - center.x, dz = grid->item_xz[2u * s + 1u] - center.z;
            float d2 = dx * dx + dz * dz;
            if (d2 > r2 || i == self ||
                (grid->has_heights && fabsf(grid->item_y[2u * s] - center.y) >=
                                          half_height + grid->item_y[2u * s + 1u])) {
                continue;
            }
            if (accept == NULL || accept(i, context)) {
                nearest_keep(out, out_d2, k, &kept, i, d2);
            }
        }
        return kept;
    }
    // Rings of cells outwards from the centre's cell: once the k kept are
    // all nearer than any cell not yet visited can be, the rest cannot
    // change the answer (dense crowds stop after a ring or two).
    nearest_query q = {grid, center, half_height, r2, self, accept, context, out, out_d2, k, 0};
    const uint32_t mask = grid->bucket_count - 1u;
    const int32_t ccx = grid_cell(center.x, inv), ccz = grid_cell(center.z, inv);
    int64_t max_ring = (int64_t)(span_x > span_z ? span_x : span_z);
    if (grid->dense) {
        // Only the cells the grid spans hold items: the box clipped to them.
        int64_t gx1 = (int64_t)grid->min_x + grid->width - 1;
        int64_t gz1 = (int64_t)grid->min_z + grid->depth - 1;
        int64_t bx0 = cx0 > grid->min_x ? cx0 : grid->min_x, bx1 = cx1 < gx1 ? cx1 : gx1;
        int64_t bz0 = cz0 > grid->min_z ? cz0 : grid->min_z, bz1 = cz1 < gz1 ? cz1 : gz1;
        if (bx0 > bx1 || bz0 > bz1) {
            return 0;
        }
        int64_t reach[4] = {ccx - bx0, bx1 - ccx, ccz - bz0, bz1 - ccz};
        max_ring = 0;
        for (int e = 0; e < 4; ++e) {
            max_ring = reach[e] > max_ring ? reach[e] : max_ring;
        }
    }
    for (int64_t ring = 0; ring <= max_ring; ++ring) {
        bool any = false;
        if (grid->dense) {
            // A ring is its top and bottom rows (one run of slots each) and
            // the two end cells of each row between them.
            any = true;
            for (int64_t cz = (int64_t)ccz - ring; cz <= (int64_t)ccz + ring; ++cz) {
                if (cz < cz0 || cz > cz1) {
                    continue;
                }
                bool edge_row = cz == (int64_t)ccz - ring || cz == (int64_t)ccz + ring;
                uint32_t s, e;
                if (edge_row) {
                    dense_run(grid, cz, (int64_t)ccx - ring > cx0 ? (int64_t)ccx - ring : cx0,
                              (int64_t)ccx + ring < cx1 ? (int64_t)ccx + ring : cx1, &s, &e);
                    nearest_scan(&q, s, e, false, 0, 0);
                    continue;
                }
                if ((int64_t)ccx - ring >= cx0) {
                    dense_run(grid, cz, (int64_t)ccx - ring, (int64_t)ccx - ring, &s, &e);
                    nearest_scan(&q, s, e, false, 0, 0);
                }
                if ((int64_t)ccx + ring <= cx1) {
                    dense_run(grid, cz, (int64_t)ccx + ring, (int64_t)ccx + ring, &s, &e);
                    nearest_scan(&q, s, e, false, 0, 0);
                }
            }
        } else {
            for (int64_t cz = (int64_t)ccz - ring; cz <= (int64_t)ccz + ring; ++cz) {
                if (cz < cz0 || cz > cz1) {
                    continue;
                }
                bool edge_row = cz == (int64_t)ccz - ring || cz == (int64_t)ccz + ring;
                int64_t step = edge_row || ring == 0 ? 1 : 2 * ring;
                for (int64_t cx = (int64_t)ccx - ring; cx <= (int64_t)ccx + ring; cx += step) {
                    if (cx < cx0 || cx > cx1) {
                        continue;
                    }
                    any = true;
                    uint32_t b = grid_bucket((int32_t)cx, (int32_t)cz, mask);
                    nearest_scan(&q, grid->bucket_start[b], grid->bucket_start[b + 1u], true, cx,
                                 cz);
                }
            }
        }
        if (!any && ring > 0) {
            break; // the box is covered
        }
        if (q.kept == k) {
            // Nearest point of any cell outside this ring's square.
            float lo_x = (float)((int64_t)ccx - ring) * grid->cell_size;
            float hi_x = (float)((int64_t)ccx + ring + 1) * grid->cell_size;
            float lo_z = (float)((int64_t)ccz - ring) * grid->cell_size;
            float hi_z = (float)((int64_t)ccz + ring + 1) * grid->cell_size;
            float gap = center.x - lo_x;
            gap = hi_x - center.x < gap ? hi_x - center.x : gap;
            gap = center.z - lo_z < gap ? center.z - lo_z : gap;
            gap = hi_z - center.z < gap ? hi_z - center.z : gap;
            gap -= grid->cell_size * 1e-3f; // cell edges are rounded: keep a margin
            if (gap > 0.0f && out_d2[k - 1u] < gap * gap) {
                break;
            }
        }
    }
    return q.kept;
}
