// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// 2D grid input: the Moving AI .map reader, and filling a tile's span
// heightfield from a walkable grid (one thin floor span per walkable cell).
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "navcore/alloc.h"
#include "navcore/check.h"
#include "navcore/log.h"
#include "tilecache/heightfield.h"

/// Largest side of a .map grid. The biggest Moving AI benchmark maps are a
/// few thousand cells wide; anything past this is a damaged header.
#define MOVINGAI_MAX_SIDE (1u << 16)
/// Longest header line worth quoting in an error message.
#define MOVINGAI_QUOTE 32

struct wf_grid_data {
    wf_allocator allocator;
    uint32_t width, depth;
    float cell_size;
    uint8_t* walkable; ///< width * depth, row-major by z
};

/* ---------------------------------------------------------------------------
 * Moving AI .map reader
 */

typedef struct map_reader {
    const char* text;
    size_t size;
    size_t pos;
    size_t line; ///< line of the last line returned, 1-based
    const wf_logger* logger;
} map_reader;

static wf_status map_fail(const map_reader* r, const char* format, ...) WF_PRINTF_LIKE(2, 3);

static wf_status map_fail(const map_reader* r, const char* format, ...) {
    va_list args;
    va_start(args, format);
    wf_log_line_error(r->logger, "movingai map", r->line, format, args);
    va_end(args);
    return WF_ERR_BAD_DATA;
}

/// Next line without its newline and without a trailing '\r' (CRLF files).
static bool map_next_line(map_reader* r, const char** out, size_t* out_len) {
    if (r->pos >= r->size) {
        return false;
    }
    const char* start = r->text + r->pos;
    const char* newline = memchr(start, '\n', r->size - r->pos);
    size_t len = newline != NULL ? (size_t)(newline - start) : r->size - r->pos;
    r->pos += newline != NULL ? len + 1 : len;
    r->line++;
    if (len > 0 && start[len - 1] == '\r') {
        len--;
    }
    *out = start;
    *out_len = len;
    return true;
}

static bool map_is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/// Splits a header line into `keyword value` (value may be empty).
static void map_split(const char* s, size_t len, const char** key, size_t* key_len,
                      const char** value, size_t* value_len) {
    size_t i = 0;
    while (i < len && map_is_blank(s[i])) {
        i++;
    }
    size_t k = i;
    while (i < len && !map_is_blank(s[i])) {
        i++;
    }
    *key = s + k;
    *key_len = i - k;
    while (i < len && map_is_blank(s[i])) {
        i++;
    }
    size_t end = len;
    while (end > i && map_is_blank(s[end - 1])) {
        end--;
    }
    *value = s + i;
    *value_len = end - i;
}

static bool map_word_is(const char* s, size_t len, const char* word) {
    return len == strlen(word) && memcmp(s, word, len) == 0;
}

/// A decimal side length in 1..MOVINGAI_MAX_SIDE; 0 when it is not one.
static uint32_t map_parse_side(const char* s, size_t len) {
    if (len == 0) {
        return 0;
    }
    uint64_t value = 0;
    for (size_t i = 0; i < len; ++i) {
        if (s[i] < '0' || s[i] > '9') {
            return 0;
        }
        value = value * 10 + (uint64_t)(s[i] - '0');
        if (value > MOVINGAI_MAX_SIDE) {
            return 0;
        }
    }
    return (uint32_t)value;
}

/// Reads `type octile`, `height H`, `width W` (either order) and `map`.
static wf_status map_read_header(map_reader* r, uint32_t* out_width, uint32_t* out_depth) {
    bool has_type = false;
    uint32_t width = 0, depth = 0;
    const char* line;
    size_t len;
    for (;;) {
        if (!map_next_line(r, &line, &len)) {
            r->line++; // name the line that is missing
            return map_fail(r, "file ends inside the header (needs type, height, width, map)");
        }
        const char *key, *value;
        size_t key_len, value_len;
        map_split(line, len, &key, &key_len, &value, &value_len);
        int quoted = (int)(key_len < MOVINGAI_QUOTE ? key_len : MOVINGAI_QUOTE);
        if (map_word_is(key, key_len, "type")) {
            if (has_type || !map_word_is(value, value_len, "octile")) {
                return map_fail(r, "expected one 'type octile' line");
            }
            has_type = true;
        } else if (map_word_is(key, key_len, "height") || map_word_is(key, key_len, "width")) {
            bool is_height = key[0] == 'h';
            uint32_t* side = is_height ? &depth : &width;
            if (*side != 0) {
                return map_fail(r, "'%.*s' given twice", quoted, key);
            }
            *side = map_parse_side(value, value_len);
            if (*side == 0) {
                return map_fail(r, "'%.*s' must be a whole number in 1..%u", quoted, key,
                                MOVINGAI_MAX_SIDE);
            }
        } else if (map_word_is(key, key_len, "map")) {
            if (!has_type || width == 0 || depth == 0 || value_len != 0) {
                return map_fail(r, "'map' must follow the type, height and width lines");
            }
            *out_width = width;
            *out_depth = depth;
            return WF_OK;
        } else {
            return map_fail(r, "unexpected header line '%.*s'", quoted, key);
        }
    }
}

wf_status wf_grid_load_movingai(const char* text, size_t size, float cell_size,
                                const wf_geom_load_desc* desc, wf_grid_data** out) {
    WF_CHECK_ARG(out != NULL);
    *out = NULL;
    WF_CHECK_ARG(text != NULL || size == 0);
    WF_CHECK_ARG(isfinite(cell_size) && cell_size > 0.0f);
    wf_geom_load_desc defaults = {0};
    if (desc == NULL) {
        desc = &defaults;
    }
    wf_allocator allocator;
    WF_CHECK_ARG(wf_allocator_resolve(&desc->allocator, &allocator) == WF_OK);

    map_reader r = {.text = text, .size = size, .logger = &desc->logger};
    uint32_t width = 0, depth = 0;
    wf_status st = map_read_header(&r, &width, &depth);
    if (st != WF_OK) {
        return st;
    }
    // Each row needs at least width bytes: a header that promises more
    // cells than the file holds is rejected before anything is allocated.
    if ((uint64_t)width * depth > (uint64_t)(size - r.pos)) {
        return map_fail(&r, "%u x %u cells cannot fit in the %zu bytes left", width, depth,
                        size - r.pos);
    }
    size_t cells = (size_t)width * depth;
    wf_grid_data* g = wf_alloc_zeroed(&allocator, sizeof *g, _Alignof(wf_grid_data));
    uint8_t* walkable = wf_alloc(&allocator, cells, 1);
    if (g == NULL || walkable == NULL) {
        wf_free(&allocator, g, sizeof *g, _Alignof(wf_grid_data));
        wf_free(&allocator, walkable, cells, 1);
        wf_log(&desc->logger, WF_LOG_ERROR, "movingai map: out of memory for %zu cells", cells);
        return WF_ERR_OUT_OF_MEMORY;
    }
    st = WF_OK;
    const char* line;
    size_t len;
    for (uint32_t z = 0; z < depth && st == WF_OK; ++z) {
        if (!map_next_line(&r, &line, &len)) {
            r.line++; // name the line that is missing
            st = map_fail(&r, "file ends after %u of %u rows", z, depth);
        } else if (len != width) {
            st = map_fail(&r, "row %u has %zu cells, expected %u", z, len, width);
        } else {
            for (uint32_t x = 0; x < width; ++x) {
                char c = line[x];
                walkable[(size_t)z * width + x] = c == '.' || c == 'G' || c == 'S';
            }
        }
    }
    // Only blank lines may follow the rows (a trailing newline or two).
    while (st == WF_OK && map_next_line(&r, &line, &len)) {
        for (size_t i = 0; i < len && st == WF_OK; ++i) {
            if (!map_is_blank(line[i])) {
                st = map_fail(&r, "more rows than the height %u", depth);
            }
        }
    }
    if (st != WF_OK) {
        wf_free(&allocator, g, sizeof *g, _Alignof(wf_grid_data));
        wf_free(&allocator, walkable, cells, 1);
        return st;
    }
    g->allocator = allocator;
    g->width = width;
    g->depth = depth;
    g->cell_size = cell_size;
    g->walkable = walkable;
    *out = g;
    return WF_OK;
}

void wf_grid_data_destroy(wf_grid_data* grid) {
    if (grid == NULL) {
        return;
    }
    wf_allocator a = grid->allocator;
    wf_free(&a, grid->walkable, (size_t)grid->width * grid->depth, 1);
    wf_free(&a, grid, sizeof *grid, _Alignof(wf_grid_data));
}

wf_grid wf_grid_data_view(const wf_grid_data* grid) {
    wf_grid view = {0};
    if (grid != NULL) {
        view.width = grid->width;
        view.depth = grid->depth;
        view.cell_size = grid->cell_size;
        view.walkable = grid->walkable;
    }
    return view;
}

/* ---------------------------------------------------------------------------
 * Grid -> span heightfield
 */

/// Float noise allowed when a height lands on a cell-height step: 2.0000001
/// steps is step 2, not 3.
#define GRID_STEP_TOLERANCE 1e-4

static bool grid_area_is_valid(uint8_t area) { return area <= 63 || area == WF_AREA_NULL; }

/// The grid cell under world coordinate w, or -1 outside [0, count).
static int64_t grid_cell_at(double w, double origin, double cell_size, uint32_t count) {
    double c = floor((w - origin) / cell_size);
    return c >= 0.0 && c < (double)count ? (int64_t)c : -1;
}

wf_status wf_heightfield_fill_grid(wf_heightfield* hf, const wf_grid* grid) {
    WF_CHECK_ARG(hf != NULL && grid != NULL);
    WF_CHECK_ARG(hf->columns != NULL && hf->width > 0 && hf->depth > 0);
    WF_CHECK_ARG(isfinite(hf->cs) && hf->cs > 0.0f && isfinite(hf->ch) && hf->ch > 0.0f);
    WF_CHECK_ARG(isfinite(hf->bmin[0]) && isfinite(hf->bmin[1]) && isfinite(hf->bmin[2]) &&
                 isfinite(hf->bmax[1]));
    WF_CHECK_ARG(grid->width > 0 && grid->depth > 0 && grid->walkable != NULL);
    WF_CHECK_ARG(wf_size_mul(grid->width, grid->depth) != (size_t)-1);
    WF_CHECK_ARG(isfinite(grid->cell_size) && grid->cell_size > 0.0f);
    WF_CHECK_ARG(isfinite(grid->origin.x) && isfinite(grid->origin.y) && isfinite(grid->origin.z));

    // Column (x, z) samples the grid cell under its centre. First pass:
    // validate the cells this heightfield will read, so a bad height fails
    // before anything is added.
    const double cs = hf->cs, ch = hf->ch;
    for (int32_t z = 0; z < hf->depth; ++z) {
        int64_t gz = grid_cell_at(hf->bmin[2] + (z + 0.5) * cs, grid->origin.z, grid->cell_size,
                                  grid->depth);
        for (int32_t x = 0; x < hf->width && gz >= 0; ++x) {
            int64_t gx = grid_cell_at(hf->bmin[0] + (x + 0.5) * cs, grid->origin.x, grid->cell_size,
                                      grid->width);
            size_t i = (size_t)gz * grid->width + (size_t)(gx >= 0 ? gx : 0);
            if (gx < 0 || grid->walkable[i] == 0) {
                continue;
            }
            WF_CHECK_ARG(grid->heights == NULL || isfinite(grid->heights[i]));
            WF_CHECK_ARG(grid->areas == NULL || grid_area_is_valid(grid->areas[i]));
        }
    }

    // Each walkable cell becomes a one-step span whose top is the smallest
    // cell-height step at or above the cell's height, so the walkable
    // surface sits on the grid height (exactly when it is a whole number of
    // steps above hf->bmin). A floor exactly at bmin gets top 1, as a flat
    // triangle there would; floors below bmin or above bmax add nothing.
    const double top_limit = ((double)hf->bmax[1] - hf->bmin[1]) / ch;
    for (int32_t z = 0; z < hf->depth; ++z) {
        int64_t gz = grid_cell_at(hf->bmin[2] + (z + 0.5) * cs, grid->origin.z, grid->cell_size,
                                  grid->depth);
        for (int32_t x = 0; x < hf->width && gz >= 0; ++x) {
            int64_t gx = grid_cell_at(hf->bmin[0] + (x + 0.5) * cs, grid->origin.x, grid->cell_size,
                                      grid->width);
            size_t i = (size_t)gz * grid->width + (size_t)(gx >= 0 ? gx : 0);
            if (gx < 0 || grid->walkable[i] == 0) {
                continue;
            }
            double height = grid->heights != NULL ? grid->heights[i] : grid->origin.y;
            double steps = (height - hf->bmin[1]) / ch;
            if (steps < -GRID_STEP_TOLERANCE || steps > top_limit + GRID_STEP_TOLERANCE) {
                continue;
            }
            double top = ceil(steps - GRID_STEP_TOLERANCE);
            top = top < 1.0 ? 1.0 : top > WF_SPAN_MAX_HEIGHT ? WF_SPAN_MAX_HEIGHT : top;
            uint16_t smax = (uint16_t)top;
            uint8_t area = grid->areas != NULL ? grid->areas[i] : 0;
            wf_status st = wf_heightfield_add_span(hf, x, z, (uint16_t)(smax - 1), smax, area, 0);
            if (st != WF_OK) {
                return st;
            }
        }
    }
    return WF_OK;
}
