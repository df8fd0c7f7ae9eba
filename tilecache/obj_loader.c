// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Wavefront OBJ loader: `v` and `f` lines of untrusted text that is not
// NUL-terminated, polygons fanned into triangles, everything validated.
//
// Winding: triangles keep the file's vertex order. OBJ front faces are
// counter-clockwise seen from outside, so a floor whose normal points +Y is
// counter-clockwise seen from above (wf_v2_triangle_area2 > 0), which is
// what wf_geom and the walkable-slope test expect. Polygon (v0 v1 ... vn)
// becomes (v0 v1 v2) (v0 v2 v3) ... (v0 vn-1 vn).
//
// Areas: with a name table, `usemtl` and `g` lines set the area of the
// faces after them, resolved once per such line (not per face).
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "navcore/alloc.h"
#include "navcore/check.h"
#include "navcore/log.h"
#include "tilecache/area_names.h"
#include "tilecache/geom_data.h"

/// Longest number token: more digits than any float needs means damage.
#define OBJ_MAX_TOKEN 63
/// Vertex and triangle limits: keeps count * 3 inside uint32 indices; a
/// larger count in one mesh is a damaged file, not a level.
#define OBJ_MAX_VERTS (1u << 28)
#define OBJ_MAX_TRIS (1u << 28)
/// Numbers allowed after x y z: w, or the r g b (a) colours some exporters
/// append. More than that is not a vertex line.
#define OBJ_MAX_EXTRA_COORDS 4
/// First capacity of the growing arrays (vertices or triangles).
#define OBJ_MIN_CAPACITY 64u
/// Unknown-name warnings one load logs (a level exported with a hundred
/// unmapped materials says so without flooding the log).
#define OBJ_MAX_NAME_WARNINGS 16u

/// What the current `usemtl` and `g` lines make of the faces below them.
typedef struct obj_area_state {
    const wf_area_name* names; ///< the desc's table (NULL: areas are not kept)
    uint32_t name_count;
    bool reject_unknown;
    const char* material; ///< the `usemtl` name in the text, or NULL
    size_t material_len;
    const char* group; ///< the first `g` name, or NULL
    size_t group_len;
    int32_t material_row, group_row; ///< table rows, -1 none
    uint8_t area;                    ///< of the next faces
    bool unknown;                    ///< named, but by no row
    bool warned;                     ///< about this state
    size_t line;                     ///< of the `usemtl` or `g` that made this state
    uint32_t warnings;
} obj_area_state;

typedef struct obj_parser {
    const char* text; ///< current line, comment removed
    size_t size;
    size_t pos;
    size_t line; ///< 1-based
    const wf_logger* logger;
    wf_geom_data* geom;
    obj_area_state areas;
} obj_parser;

static wf_status obj_fail(const obj_parser* p, wf_status status, const char* format, ...)
    WF_PRINTF_LIKE(3, 4);

static wf_status obj_fail(const obj_parser* p, wf_status status, const char* format, ...) {
    va_list args;
    va_start(args, format);
    wf_log_line_error(p->logger, "obj", p->line, format, args);
    va_end(args);
    return status;
}

static bool obj_is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/// Next blank-separated token of the current line; false at its end.
static bool obj_next_token(obj_parser* p, const char** out, size_t* out_len) {
    while (p->pos < p->size && obj_is_blank(p->text[p->pos])) {
        p->pos++;
    }
    if (p->pos >= p->size) {
        return false;
    }
    size_t start = p->pos;
    while (p->pos < p->size && !obj_is_blank(p->text[p->pos])) {
        p->pos++;
    }
    *out = p->text + start;
    *out_len = p->pos - start;
    return true;
}

/// Grows an array of `stride`-byte items to hold `need`, doubling.
static wf_status obj_reserve(const wf_allocator* a, void** items, uint32_t* capacity, uint32_t need,
                             size_t stride, size_t align) {
    if (need <= *capacity) {
        return WF_OK;
    }
    uint32_t grown = *capacity < OBJ_MIN_CAPACITY ? OBJ_MIN_CAPACITY : *capacity;
    while (grown < need) {
        grown = grown > UINT32_MAX / 2 ? need : grown * 2;
    }
    void* fresh = wf_alloc(a, wf_size_mul(grown, stride), align);
    if (fresh == NULL) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    if (*items != NULL) {
        memcpy(fresh, *items, (size_t)*capacity * stride);
        wf_free(a, *items, (size_t)*capacity * stride, align);
    }
    *items = fresh;
    *capacity = grown;
    return WF_OK;
}

/// A decimal number, checked character by character first so strtod never
/// sees inf, nan, hex floats or anything past the token.
static bool obj_parse_float(const char* token, size_t len, float* out) {
    if (len == 0 || len > OBJ_MAX_TOKEN) {
        return false;
    }
    char buffer[OBJ_MAX_TOKEN + 1];
    for (size_t i = 0; i < len; ++i) {
        char c = token[i];
        if (!((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E')) {
            return false;
        }
        buffer[i] = c;
    }
    buffer[len] = '\0';
    char* end = NULL;
    double value = strtod(buffer, &end);
    if (end != buffer + len || !isfinite(value) || !isfinite((float)value)) {
        return false;
    }
    *out = (float)value;
    return true;
}

/// An optionally signed decimal integer; |value| capped just past any valid
/// index so that huge numbers read as out of range, never overflow.
static bool obj_parse_int(const char* s, size_t len, int64_t* out) {
    size_t i = 0;
    bool negative = false;
    if (len > 0 && (s[0] == '-' || s[0] == '+')) {
        negative = s[0] == '-';
        i = 1;
    }
    if (i == len) {
        return false;
    }
    int64_t value = 0;
    for (; i < len; ++i) {
        if (s[i] < '0' || s[i] > '9') {
            return false;
        }
        if (value <= (int64_t)OBJ_MAX_VERTS) {
            value = value * 10 + (s[i] - '0');
        }
    }
    *out = negative ? -value : value;
    return true;
}

static wf_status obj_parse_vertex(obj_parser* p) {
    wf_geom_data* g = p->geom;
    float xyz[3];
    const char* tok;
    size_t len;
    for (int k = 0; k < 3; ++k) {
        if (!obj_next_token(p, &tok, &len)) {
            return obj_fail(p, WF_ERR_BAD_DATA, "vertex has %d coordinates, needs 3", k);
        }
        if (!obj_parse_float(tok, len, &xyz[k])) {
            return obj_fail(p, WF_ERR_BAD_DATA, "vertex coordinate '%.*s' is not a finite number",
                            (int)(len < 32 ? len : 32), tok);
        }
    }
    for (int extra = 0; obj_next_token(p, &tok, &len); ++extra) {
        float ignored;
        if (extra == OBJ_MAX_EXTRA_COORDS || !obj_parse_float(tok, len, &ignored)) {
            return obj_fail(p, WF_ERR_BAD_DATA, "vertex has unexpected data '%.*s'",
                            (int)(len < 32 ? len : 32), tok);
        }
    }
    if (g->vert_count == OBJ_MAX_VERTS) {
        return obj_fail(p, WF_ERR_BAD_DATA, "more than %u vertices", OBJ_MAX_VERTS);
    }
    wf_status st = obj_reserve(&g->allocator, (void**)&g->verts, &g->vert_capacity,
                               g->vert_count + 1, 3 * sizeof(float), _Alignof(float));
    if (st != WF_OK) {
        return obj_fail(p, st, "out of memory for vertex %u", g->vert_count + 1);
    }
    memcpy(g->verts + (size_t)g->vert_count * 3, xyz, sizeof xyz);
    g->vert_count++;
    return WF_OK;
}

/// One face corner: `v`, `v/vt`, `v//vn` or `v/vt/vn`, resolved to a
/// 0-based vertex index. Texture and normal indices are checked for syntax
/// only: the mesh keeps positions alone.
static wf_status obj_parse_corner(obj_parser* p, const char* tok, size_t len, uint32_t* out) {
    size_t part_start[3] = {0, 0, 0};
    size_t part_len[3] = {0, 0, 0};
    int parts = 1;
    for (size_t i = 0; i < len; ++i) {
        if (tok[i] == '/') {
            if (parts == 3) {
                parts = 4;
                break;
            }
            part_start[parts] = i + 1;
            parts++;
        } else {
            part_len[parts - 1]++;
        }
    }
    int64_t index = 0;
    int64_t ignored = 0;
    bool ok = parts <= 3 && obj_parse_int(tok, part_len[0], &index);
    if (ok && parts == 2) {
        ok = obj_parse_int(tok + part_start[1], part_len[1], &ignored);
    }
    if (ok && parts == 3) {
        ok = (part_len[1] == 0 || obj_parse_int(tok + part_start[1], part_len[1], &ignored)) &&
             obj_parse_int(tok + part_start[2], part_len[2], &ignored);
    }
    if (!ok) {
        return obj_fail(p, WF_ERR_BAD_DATA, "face corner '%.*s' is not v, v/vt, v//vn or v/vt/vn",
                        (int)(len < 32 ? len : 32), tok);
    }
    int64_t count = p->geom->vert_count;
    if (index == 0) {
        return obj_fail(p, WF_ERR_BAD_DATA, "vertex index 0 (OBJ indices start at 1)");
    }
    // Positive indices count from the first vertex, negative ones back from
    // the last vertex read so far; both must name a vertex defined above.
    int64_t resolved = index > 0 ? index - 1 : count + index;
    if (resolved < 0 || resolved >= count) {
        return obj_fail(p, WF_ERR_BAD_DATA, "vertex index %lld out of range (%lld vertices so far)",
                        (long long)index, (long long)count);
    }
    *out = (uint32_t)resolved;
    return WF_OK;
}

/// An unknown name on the face's line: an error, or area 0 and a warning.
static wf_status obj_check_face_names(obj_parser* p) {
    obj_area_state* a = &p->areas;
    if (!a->unknown || a->warned) {
        return WF_OK;
    }
    const char* kind = a->material != NULL ? "material" : "group";
    const char* name = a->material != NULL ? a->material : a->group;
    size_t len = a->material != NULL ? a->material_len : a->group_len;
    int shown = (int)(len < 64 ? len : 64);
    // Named at the line that set the name, which is where it is fixed.
    if (a->reject_unknown) {
        wf_log(p->logger, WF_LOG_ERROR,
               "obj: line %zu: %s '%.*s' is not in the area table (its first face: line %zu)",
               a->line, kind, shown, name, p->line);
        return WF_ERR_BAD_DATA;
    }
    a->warned = true;
    if (a->warnings < OBJ_MAX_NAME_WARNINGS) {
        a->warnings++;
        wf_log(p->logger, WF_LOG_WARN,
               "obj: line %zu: %s '%.*s' is not in the area table: its faces get area 0%s", a->line,
               kind, shown, name,
               a->warnings == OBJ_MAX_NAME_WARNINGS ? " (further unknown names not logged)" : "");
    }
    return WF_OK;
}

/// Area ids of the triangles from `first_tri` on (a table was given).
static wf_status obj_set_face_areas(obj_parser* p, uint32_t first_tri) {
    wf_geom_data* g = p->geom;
    wf_status st = obj_reserve(&g->allocator, (void**)&g->tri_areas, &g->tri_area_capacity,
                               g->tri_count, 1, 1);
    if (st != WF_OK) {
        return obj_fail(p, st, "out of memory for triangle areas");
    }
    memset(g->tri_areas + first_tri, p->areas.area, g->tri_count - first_tri);
    return WF_OK;
}

static wf_status obj_parse_face(obj_parser* p) {
    wf_geom_data* g = p->geom;
    uint32_t first_tri = g->tri_count;
    wf_status names_ok = obj_check_face_names(p);
    if (names_ok != WF_OK) {
        return names_ok;
    }
    uint32_t first = 0, previous = 0;
    uint32_t corners = 0;
    const char* tok;
    size_t len;
    while (obj_next_token(p, &tok, &len)) {
        uint32_t index = 0;
        wf_status st = obj_parse_corner(p, tok, len, &index);
        if (st != WF_OK) {
            return st;
        }
        if (corners >= 2) {
            if (g->tri_count == OBJ_MAX_TRIS) {
                return obj_fail(p, WF_ERR_BAD_DATA, "more than %u triangles", OBJ_MAX_TRIS);
            }
            st = obj_reserve(&g->allocator, (void**)&g->tris, &g->tri_capacity, g->tri_count + 1,
                             3 * sizeof(uint32_t), _Alignof(uint32_t));
            if (st != WF_OK) {
                return obj_fail(p, st, "out of memory for triangle %u", g->tri_count + 1);
            }
            uint32_t* t = g->tris + (size_t)g->tri_count * 3;
            t[0] = first;
            t[1] = previous;
            t[2] = index;
            g->tri_count++;
        } else if (corners == 0) {
            first = index;
        }
        previous = index;
        corners = corners < UINT32_MAX ? corners + 1 : corners;
    }
    if (corners < 3) {
        return obj_fail(p, WF_ERR_BAD_DATA, "face has %u vertices, needs at least 3", corners);
    }
    return p->areas.names != NULL ? obj_set_face_areas(p, first_tri) : WF_OK;
}

/// The area of the faces below: the material's row, else the first group
/// name with a row, else 0 (unknown when something was named).
static void obj_resolve_area(obj_area_state* a, size_t line) {
    int32_t row = a->material_row >= 0 ? a->material_row : a->group_row;
    a->area = row >= 0 ? a->names[row].area : 0u;
    a->unknown = row < 0 && (a->material != NULL || a->group != NULL);
    a->warned = false;
    a->line = line;
}

/// `usemtl NAME`: the rest of the line (trimmed) is the name, so a name
/// with blanks is kept whole and matches no row. No name: no material.
static void obj_parse_usemtl(obj_parser* p) {
    obj_area_state* a = &p->areas;
    const char* tok;
    size_t len;
    a->material = NULL;
    a->material_len = 0;
    a->material_row = -1;
    if (obj_next_token(p, &tok, &len)) {
        size_t end = p->size;
        while (end > 0 && obj_is_blank(p->text[end - 1])) {
            end--;
        }
        a->material = tok;
        a->material_len = (size_t)(p->text + end - tok);
        a->material_row = wf_area_names_find(a->names, a->name_count, tok, a->material_len);
    }
    obj_resolve_area(a, p->line);
}

/// `g NAME...`: a face belongs to every group named; `g` alone is the
/// default group (no name).
static void obj_parse_group(obj_parser* p) {
    obj_area_state* a = &p->areas;
    const char* tok;
    size_t len;
    a->group = NULL;
    a->group_len = 0;
    a->group_row = -1;
    while (obj_next_token(p, &tok, &len)) {
        if (a->group == NULL) {
            a->group = tok;
            a->group_len = len;
        }
        if (a->group_row < 0) {
            a->group_row = wf_area_names_find(a->names, a->name_count, tok, len);
        }
    }
    obj_resolve_area(a, p->line);
}

/// One line without its newline; `#` starts a comment anywhere on it.
static wf_status obj_parse_line(obj_parser* p, const char* text, size_t size) {
    const char* hash = memchr(text, '#', size);
    p->text = text;
    p->size = hash != NULL ? (size_t)(hash - text) : size;
    p->pos = 0;
    const char* keyword;
    size_t len;
    if (!obj_next_token(p, &keyword, &len)) {
        return WF_OK; // blank
    }
    bool track_areas = p->areas.names != NULL || p->areas.reject_unknown;
    if (track_areas && len == 6 && memcmp(keyword, "usemtl", 6) == 0) {
        obj_parse_usemtl(p);
        return WF_OK;
    }
    if (track_areas && len == 1 && keyword[0] == 'g') {
        obj_parse_group(p);
        return WF_OK;
    }
    if (len != 1) {
        return WF_OK; // a directive we do not use (vn, vt, mtllib, ...)
    }
    if (keyword[0] == 'v') {
        return obj_parse_vertex(p);
    }
    if (keyword[0] == 'f') {
        return obj_parse_face(p);
    }
    return WF_OK; // s, o, l, p (and g without a table): nothing a walkable surface needs
}

wf_status wf_geom_load_obj(const char* text, size_t size, const wf_geom_load_desc* desc,
                           wf_geom_data** out) {
    WF_CHECK_ARG(out != NULL);
    *out = NULL;
    WF_CHECK_ARG(text != NULL || size == 0);
    wf_geom_load_desc defaults = {0};
    if (desc == NULL) {
        desc = &defaults;
    }
    wf_allocator allocator;
    WF_CHECK_ARG(wf_allocator_resolve(&desc->allocator, &allocator) == WF_OK);
    wf_status checked =
        wf_area_names_check(desc->area_names, desc->area_name_count, "geom_load", &desc->logger);
    if (checked != WF_OK) {
        return checked;
    }

    wf_geom_data* g = wf_alloc_zeroed(&allocator, sizeof *g, _Alignof(wf_geom_data));
    if (g == NULL) {
        wf_log(&desc->logger, WF_LOG_ERROR, "obj: out of memory");
        return WF_ERR_OUT_OF_MEMORY;
    }
    g->allocator = allocator;
    obj_parser p = {.logger = &desc->logger, .geom = g};
    if (desc->area_name_count > 0) {
        p.areas.names = desc->area_names;
        p.areas.name_count = desc->area_name_count;
    }
    p.areas.reject_unknown = desc->reject_unknown_names;
    p.areas.material_row = -1;
    p.areas.group_row = -1;
    size_t pos = 0;
    while (pos < size) {
        p.line++;
        const char* newline = memchr(text + pos, '\n', size - pos);
        size_t end = newline != NULL ? (size_t)(newline - text) : size;
        wf_status st = obj_parse_line(&p, text + pos, end - pos);
        if (st != WF_OK) {
            wf_geom_data_destroy(g);
            return st;
        }
        pos = newline != NULL ? end + 1 : size;
    }
    *out = g;
    return WF_OK;
}
