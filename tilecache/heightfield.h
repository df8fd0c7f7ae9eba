// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Voxel heightfields of one tile (with its border): the span heightfield
// that rasterization, grids and voxel worlds fill, and the compact
// (open-space) heightfield the walkable filters, erosion and layer split
// work on. All memory comes from the caller's arena.
#ifndef WF_TILECACHE_HEIGHTFIELD_H
#define WF_TILECACHE_HEIGHTFIELD_H

#include "navcore/arena.h"
#include "wayfarer/tilecache.h"

#define WF_NO_SPAN 0xffffffffu
#define WF_SPAN_MAX_HEIGHT 0xffffu
/// Area id of unwalkable spans (walkable areas are 0..63).
#define WF_AREA_NULL 0xffu
/// Neighbour directions: 0 = -x, 1 = +z, 2 = +x, 3 = -z.
#define WF_DIR_COUNT 4
static const int wf_dir_dx[WF_DIR_COUNT] = {-1, 0, 1, 0};
static const int wf_dir_dz[WF_DIR_COUNT] = {0, 1, 0, -1};

/// A solid span [smin, smax) in cell-height units; area of its top surface.
typedef struct wf_span {
    uint16_t smin;
    uint16_t smax;
    uint8_t area;   ///< WF_AREA_NULL when the top is not walkable
    uint32_t next;  ///< next span up in the same column, WF_NO_SPAN ends
} wf_span;

typedef struct wf_heightfield {
    int32_t width, depth; ///< cells, border included
    float bmin[3], bmax[3];
    float cs, ch;
    uint32_t* columns;    ///< first span per cell (lowest)
    wf_span* spans;
    uint32_t span_count, span_capacity;
    uint32_t free_span;   ///< recycled spans after merges
} wf_heightfield;

/// Allocates columns and a span pool of span_capacity from the arena
/// (WF_ERR_CAPACITY, nothing kept, when the arena is too small).
wf_status wf_heightfield_init(wf_heightfield* hf, wf_arena* arena, int32_t width, int32_t depth,
                              const float* bmin, const float* bmax, float cs, float ch,
                              uint32_t span_capacity);
/// Adds a solid span, merging with the spans it overlaps or touches; the
/// merged top takes the area of the highest top (when tops are within
/// merge_climb: a walkable area over WF_AREA_NULL, else the larger id).
/// WF_ERR_CAPACITY when the pool is full (the column is left unchanged).
wf_status wf_heightfield_add_span(wf_heightfield* hf, int32_t x, int32_t z, uint16_t smin,
                                  uint16_t smax, uint8_t area, int32_t merge_climb);

/// Rasterizes triangles (conservatively, by clipping each triangle to the
/// cells it covers). Triangles steeper than max_slope_deg, or facing down
/// (clockwise seen from above), get WF_AREA_NULL. WF_ERR_INVALID_ARG (field
/// untouched) for an index out of range, a non-finite vertex or an area id
/// other than 0..63 and WF_AREA_NULL; WF_ERR_CAPACITY when the span pool
/// runs out (the spans added so far stay, consistent).
wf_status wf_rasterize_triangles(wf_heightfield* hf, const wf_geom* geom, float max_slope_deg,
                                 int32_t merge_climb);

/// Filters (Recast's classic three): low-hanging obstacles become walkable
/// when a walkable span lies within climb below; ledges (a drop of more
/// than climb to a neighbour, or too steep a local range) and spans with
/// less than walkable_height free above become unwalkable.
void wf_filter_low_hanging_obstacles(wf_heightfield* hf, int32_t walkable_climb);
void wf_filter_ledge_spans(wf_heightfield* hf, int32_t walkable_height, int32_t walkable_climb);
void wf_filter_low_height_spans(wf_heightfield* hf, int32_t walkable_height);

/// The open space above walkable spans.
typedef struct wf_compact_span {
    uint16_t y;      ///< floor, cell-height units
    uint16_t region; ///< scratch for the layer split
    uint32_t con;    ///< 4 x 6 bits: index of the neighbour span in that direction's cell, 0x3f none
    uint8_t h;       ///< free height above (clamped at 255)
} wf_compact_span;

#define WF_NOT_CONNECTED 0x3fu

static inline uint32_t wf_compact_get_con(const wf_compact_span* s, int dir) {
    return (s->con >> (dir * 6)) & 0x3fu;
}
static inline void wf_compact_set_con(wf_compact_span* s, int dir, uint32_t i) {
    s->con = (s->con & ~(0x3fu << (dir * 6))) | ((i & 0x3fu) << (dir * 6));
}

typedef struct wf_compact_heightfield {
    int32_t width, depth;
    int32_t border;          ///< border cells on each side
    int32_t walkable_height, walkable_climb;
    float bmin[3], bmax[3];
    float cs, ch;
    uint32_t* cell_index;    ///< first span of each cell
    uint8_t* cell_count;     ///< spans in each cell
    wf_compact_span* spans;
    uint8_t* areas;          ///< per span; WF_AREA_NULL unwalkable
    uint32_t span_count;
} wf_compact_heightfield;

/// Walkable spans with at least walkable_height free space, connected to
/// neighbours whose floor is within walkable_climb. bmax[1] is raised by
/// walkable_height. WF_ERR_CAPACITY when a cell has more than 63 walkable
/// spans (the links hold 6 bits; never in sane input) or the arena is full.
wf_status wf_compact_build(wf_compact_heightfield* chf, wf_arena* arena, const wf_heightfield* hf,
                           int32_t border, int32_t walkable_height, int32_t walkable_climb);

/// Marks spans closer than radius (cells) to an unwalkable border as
/// unwalkable (distance transform). Scratch from the arena, given back;
/// WF_ERR_CAPACITY (nothing changed) when it does not fit.
wf_status wf_erode_walkable_area(wf_compact_heightfield* chf, wf_arena* arena, int32_t radius);

/// Paints the walkable spans whose cell centre lies inside the volume's
/// outline and whose floor (world y) lies in [min_y, max_y] with its area.
/// A malformed volume (fewer than 3 or more than 32 points) is ignored.
void wf_mark_convex_volume(wf_compact_heightfield* chf, const wf_convex_volume* volume);

/// Fills a heightfield directly from a grid or a voxel world (the part of
/// it that falls in hf's bounds).
wf_status wf_heightfield_fill_grid(wf_heightfield* hf, const wf_grid* grid);
wf_status wf_heightfield_fill_voxels(wf_heightfield* hf, const wf_voxels* voxels);

#endif
