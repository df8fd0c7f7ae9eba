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
    uint8_t area;  ///< WF_AREA_NULL when the top is not walkable
    uint32_t next; ///< next span up in the same column, WF_NO_SPAN ends
} wf_span;

typedef struct wf_heightfield {
    int32_t width, depth; ///< cells, border included
    float bmin[3], bmax[3];
    float cs, ch;
    /// The frame this field is a window of: rasterization works in the
    /// cells of a larger field (a tile with its border: frame_bmin to
    /// frame_bmax, frame_width x frame_depth cells) and keeps only this
    /// field's, which start at frame cell window_first. So a piece of a tile
    /// gets the very spans the whole tile would give those cells
    /// (span_pieces.h). wf_heightfield_init makes a field its own frame.
    float frame_bmin[3], frame_bmax[3];
    int32_t frame_width, frame_depth;
    int32_t window_first[2]; ///< x, z
    uint32_t* columns;       ///< first span per cell (lowest)
    wf_span* spans;
    uint32_t span_count, span_capacity;
    uint32_t free_span; ///< recycled spans after merges
} wf_heightfield;

/// Allocates columns and a span pool of span_capacity from the arena
/// (WF_ERR_CAPACITY, nothing kept, when the arena is too small).
wf_status wf_heightfield_init(wf_heightfield* hf, wf_arena* arena, int32_t width, int32_t depth,
                              const float* bmin, const float* bmax, float cs, float ch,
                              uint32_t span_capacity);
/// Makes hf a window of a frame (see wf_heightfield): hf's cell (0, 0) is
/// the frame's cell (first_x, first_z) of frame_width x frame_depth cells
/// from frame_bmin to frame_bmax.
void wf_heightfield_set_frame(wf_heightfield* hf, const float* frame_bmin, const float* frame_bmax,
                              int32_t frame_width, int32_t frame_depth, int32_t first_x,
                              int32_t first_z);
/// Adds a solid span, merging with the spans it overlaps or touches; the
/// merged top takes the area of the highest top (when tops are within
/// merge_climb: a walkable area over WF_AREA_NULL, else the larger id).
/// WF_ERR_CAPACITY when the pool is full (the column is left unchanged).
wf_status wf_heightfield_add_span(wf_heightfield* hf, int32_t x, int32_t z, uint16_t smin,
                                  uint16_t smax, uint8_t area, int32_t merge_climb);

/// Area precedence when two tops meet: any walkable id beats WF_AREA_NULL,
/// and among walkable ids the larger one wins (as in Recast, where the null
/// area is 0 and a plain max does the same).
static inline uint8_t wf_span_merge_area(uint8_t a, uint8_t b) {
    if (a == WF_AREA_NULL) {
        return b;
    }
    if (b == WF_AREA_NULL) {
        return a;
    }
    return a > b ? a : b;
}

/// wf_heightfield_add_span for callers that already checked the arguments
/// (cell = x + z * width, smin < smax, merge_climb >= 0). Inline so the
/// rasterizer's per-cell loop does not pay a call and the checks: most
/// insertions go into an empty column or merge with the one span there.
/// One walk: spans wholly below are skipped; a span that overlaps or
/// touches is reused for the merge and the others it swallows are freed; a
/// new slot is only needed when nothing overlaps, and then the column has
/// not been changed yet, so a full pool leaves it as it was.
static inline wf_status wf_heightfield_insert_span(wf_heightfield* hf, size_t cell, uint16_t smin,
                                                   uint16_t smax, uint8_t area,
                                                   int32_t merge_climb) {
    wf_span* spans = hf->spans;
    uint32_t* link = &hf->columns[cell];
    uint32_t s = *link;
    while (s != WF_NO_SPAN && spans[s].smax < smin) {
        link = &spans[s].next;
        s = *link;
    }
    if (s == WF_NO_SPAN || spans[s].smin > smax) {
        uint32_t slot = hf->free_span;
        if (slot != WF_NO_SPAN) {
            hf->free_span = spans[slot].next;
        } else if (hf->span_count < hf->span_capacity) {
            slot = hf->span_count++;
        } else {
            return WF_ERR_CAPACITY;
        }
        spans[slot] = (wf_span){.smin = smin, .smax = smax, .area = area, .next = s};
        *link = slot;
        return WF_OK;
    }
    // The first overlapping span is kept for the merge; the merged top
    // belongs to the higher surface, and tops within the merge climb are
    // one surface where the stronger area wins.
    wf_span* keep = &spans[s];
    const uint16_t new_min = keep->smin < smin ? keep->smin : smin;
    int32_t diff = (int32_t)keep->smax - (int32_t)smax;
    uint8_t new_area = area;
    if (diff > merge_climb) {
        new_area = keep->area;
    } else if (diff >= -merge_climb) {
        new_area = wf_span_merge_area(area, keep->area);
    }
    uint16_t new_max = keep->smax > smax ? keep->smax : smax;
    // Spans above it that the merged span reaches are swallowed.
    uint32_t next = keep->next;
    while (next != WF_NO_SPAN && spans[next].smin <= new_max) {
        wf_span* cur = &spans[next];
        diff = (int32_t)cur->smax - (int32_t)new_max;
        if (diff > merge_climb) {
            new_area = cur->area;
        } else if (diff >= -merge_climb) {
            new_area = wf_span_merge_area(new_area, cur->area);
        }
        if (cur->smax > new_max) {
            new_max = cur->smax;
        }
        const uint32_t after = cur->next;
        cur->next = hf->free_span; // back to the free list
        hf->free_span = next;
        next = after;
    }
    keep->next = next;
    keep->smin = new_min;
    keep->smax = new_max;
    keep->area = new_area;
    return WF_OK;
}

/// Rasterizes triangles (conservatively, by clipping each triangle to the
/// cells it covers). Triangles steeper than max_slope_deg, or facing down
/// (clockwise seen from above), get WF_AREA_NULL. WF_ERR_INVALID_ARG (field
/// untouched) for an index out of range, a non-finite vertex or an area id
/// other than 0..63 and WF_AREA_NULL; WF_ERR_CAPACITY when the span pool
/// runs out (the spans added so far stay, consistent).
wf_status wf_rasterize_triangles(wf_heightfield* hf, const wf_geom* geom, float max_slope_deg,
                                 int32_t merge_climb);

/// The same for input the caller already validated as above (the tile
/// cache checks a mesh once per build, not once per tile): the final area
/// of triangles [first, end) (slope and facing applied), out_areas[t] for
/// triangle t ...
void wf_rasterize_classify(const wf_geom* geom, float max_slope_deg, uint32_t first, uint32_t end,
                           uint8_t* out_areas);
/// ... then the triangles list[0 .. count) with those areas, in list order.
/// WF_ERR_CAPACITY as above.
wf_status wf_rasterize_triangle_list(wf_heightfield* hf, const wf_geom* geom, const uint8_t* areas,
                                     const uint32_t* list, uint32_t count, int32_t merge_climb);

/// Filters (Recast's classic three): low-hanging obstacles become walkable
/// when a walkable span lies within climb below; ledges (a drop of more
/// than climb to a neighbour, or too steep a local range) and spans with
/// less than walkable_height free above become unwalkable.
void wf_filter_low_hanging_obstacles(wf_heightfield* hf, int32_t walkable_climb);
void wf_filter_ledge_spans(wf_heightfield* hf, int32_t walkable_height, int32_t walkable_climb);
void wf_filter_low_height_spans(wf_heightfield* hf, int32_t walkable_height);

/// The span heightfield flattened: per cell a run of spans in one array,
/// each as its top (the floor an agent stands on) and the bottom of the
/// span above (its ceiling, WF_SPAN_MAX_HEIGHT at the column's top). The
/// tile cache build filters and compacts this form: contiguous runs read
/// far faster than the linked columns when every span probes four
/// neighbour columns. Filled from a wf_heightfield; arrays in an arena.
typedef struct wf_span_columns {
    int32_t width, depth;
    uint32_t* first;   ///< cells + 1: spans of cell c are [first[c], first[c + 1])
    uint16_t* bottom;  ///< per cell: smin of its lowest span (WF_SPAN_MAX_HEIGHT if none)
    uint16_t* floor;   ///< per span: smax
    uint16_t* ceiling; ///< per span: smin of the span above, WF_SPAN_MAX_HEIGHT if none
    uint8_t* area;     ///< per span
    uint32_t span_count;
} wf_span_columns;

/// Empty columns for width x depth cells and up to `spans` spans (at least
/// one): the arrays in the arena, width and depth set, no span yet.
/// WF_ERR_CAPACITY (nothing kept) when the arena is too small.
wf_status wf_span_columns_alloc(wf_span_columns* cols, wf_arena* arena, int32_t width,
                                int32_t depth, size_t spans);
/// WF_ERR_CAPACITY (nothing kept) when the arena is too small.
wf_status wf_span_columns_build(wf_span_columns* cols, wf_arena* arena, const wf_heightfield* hf);
/// The filters above on the flattened form, all in one pass and with the
/// same result as running them one after the other: low-hanging obstacles
/// and ledges only when `ledges` is set (see fill_heightfield in
/// cache_from_input.c), low ceilings always.
void wf_filter_span_columns(wf_span_columns* cols, int32_t walkable_height, int32_t walkable_climb,
                            bool ledges);

/// The open space above walkable spans.
typedef struct wf_compact_span {
    uint16_t y;      ///< floor, cell-height units
    uint16_t region; ///< scratch for the layer split
    uint32_t con; ///< 4 x 6 bits: index of the neighbour span in that direction's cell, 0x3f none
    uint8_t h;    ///< free height above (clamped at 255)
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
    int32_t border; ///< border cells on each side
    int32_t walkable_height, walkable_climb;
    float bmin[3], bmax[3];
    float cs, ch;
    uint32_t* cell_index; ///< first span of each cell
    uint8_t* cell_count;  ///< spans in each cell
    wf_compact_span* spans;
    uint8_t* areas; ///< per span; WF_AREA_NULL unwalkable
    /// 4 per span: in each direction the index in `spans` of the span that
    /// con links to, WF_NO_SPAN for none. The builders below fill it with
    /// con, so the layer split reads links without re-deriving them (and
    /// trusts the cell ranges of such a field); NULL when a caller fills
    /// the field by hand (then con alone counts and the ranges are checked).
    uint32_t* links;
    uint32_t span_count;
} wf_compact_heightfield;

/// Walkable spans with at least walkable_height free space, connected to
/// neighbours whose floor is within walkable_climb. bmax[1] is raised by
/// walkable_height. WF_ERR_CAPACITY when a cell has more than 63 walkable
/// spans (the links hold 6 bits; never in sane input) or the arena is full.
wf_status wf_compact_build(wf_compact_heightfield* chf, wf_arena* arena, const wf_heightfield* hf,
                           int32_t border, int32_t walkable_height, int32_t walkable_climb);

/// wf_compact_build from filtered span columns (the same result as from
/// the heightfield they were flattened from, filtered alike).
wf_status wf_compact_build_columns(wf_compact_heightfield* chf, wf_arena* arena,
                                   const wf_span_columns* cols, const wf_heightfield* hf,
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
