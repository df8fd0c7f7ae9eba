// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Polyanya .mesh (version 2) parsing: a tokenizer over untrusted text that
// is not NUL-terminated, and validation of every vertex and polygon.
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "navcore/alloc.h"
#include "navcore/check.h"
#include "navcore/log.h"
#include "navcore/polyanya_internal.h"

/// Longest number token: anything longer is not a number a mesh needs.
#define PY_MAX_TOKEN 63
/// Reflex turns up to this fraction of the polygon extent are rounding in
/// the file's decimals, not real concavity.
#define PY_CONVEX_TOLERANCE 1e-6

/* ---------------------------------------------------------------------------
 * Small helpers
 */

/// Grows *ptr (elem bytes each) to hold at least need elements.
bool py_reserve(const wf_allocator* a, void** ptr, size_t* cap, size_t need, size_t elem,
                size_t align) {
    if (need <= *cap) {
        return true;
    }
    size_t grown = *cap < 16 ? 16 : *cap;
    while (grown < need) {
        grown = grown > ((size_t)-1) / 4 ? need : grown * 2;
    }
    void* fresh = wf_alloc(a, wf_size_mul(grown, elem), align);
    if (fresh == NULL) {
        return false;
    }
    if (*ptr != NULL) {
        memcpy(fresh, *ptr, *cap * elem);
        wf_free(a, *ptr, *cap * elem, align);
    }
    *ptr = fresh;
    *cap = grown;
    return true;
}

/// Twice the signed area on XZ, positive for Wayfarer's counter-clockwise
/// (the wf_v2_triangle_area2 rule), in double so large inputs stay exact.
double py_area2(const py_pt* p, uint32_t n) {
    double sum = 0.0;
    for (uint32_t i = 0, j = n - 1; i < n; j = i++) {
        sum += (double)p[j].z * (double)p[i].x - (double)p[j].x * (double)p[i].z;
    }
    return sum;
}

double py_extent(const py_pt* p, uint32_t n) {
    float minx = p[0].x, maxx = p[0].x, minz = p[0].z, maxz = p[0].z;
    for (uint32_t i = 1; i < n; ++i) {
        minx = fminf(minx, p[i].x);
        maxx = fmaxf(maxx, p[i].x);
        minz = fminf(minz, p[i].z);
        maxz = fmaxf(maxz, p[i].z);
    }
    return fmax((double)maxx - minx, (double)maxz - minz);
}

bool py_is_degenerate(double area2, double extent) {
    return !(area2 > PY_DEGENERATE_RATIO * extent * extent);
}

/* ---------------------------------------------------------------------------
 * Tokenizer over text that is not NUL-terminated
 */

typedef struct py_reader {
    const char* text;
    size_t size;
    size_t pos;
    uint32_t line;       ///< line of the reading position, 1-based
    uint32_t token_line; ///< line of the last token returned
    const wf_logger* logger;
} py_reader;

static wf_status py_fail(const py_reader* r, uint32_t line, const char* format, ...)
    WF_PRINTF_LIKE(3, 4);

static wf_status py_fail(const py_reader* r, uint32_t line, const char* format, ...) {
    va_list args;
    va_start(args, format);
    wf_log_line_error(r->logger, "polyanya import", line, format, args);
    va_end(args);
    return WF_ERR_BAD_DATA;
}

static bool py_is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static bool py_next_token(py_reader* r, const char** out, size_t* out_len) {
    while (r->pos < r->size && py_is_space(r->text[r->pos])) {
        r->line += r->text[r->pos] == '\n';
        r->pos++;
    }
    if (r->pos >= r->size) {
        return false;
    }
    size_t start = r->pos;
    while (r->pos < r->size && !py_is_space(r->text[r->pos])) {
        r->pos++;
    }
    *out = r->text + start;
    *out_len = r->pos - start;
    r->token_line = r->line;
    return true;
}

/// Reads a decimal integer in [min, max].
static wf_status py_read_int(py_reader* r, const char* what, int64_t min, int64_t max,
                             int64_t* out) {
    const char* tok;
    size_t len;
    if (!py_next_token(r, &tok, &len)) {
        return py_fail(r, r->line, "file ends before %s", what);
    }
    size_t i = 0;
    bool negative = false;
    if (tok[0] == '-' || tok[0] == '+') {
        negative = tok[0] == '-';
        i = 1;
    }
    if (i == len) {
        return py_fail(r, r->token_line, "%s is not an integer", what);
    }
    int64_t value = 0;
    for (; i < len; ++i) {
        if (tok[i] < '0' || tok[i] > '9') {
            return py_fail(r, r->token_line, "%s is not an integer", what);
        }
        if (value > INT64_MAX / 16) {
            return py_fail(r, r->token_line, "%s is out of range", what);
        }
        value = value * 10 + (tok[i] - '0');
    }
    value = negative ? -value : value;
    if (value < min || value > max) {
        return py_fail(r, r->token_line, "%s %lld is out of range [%lld, %lld]", what,
                       (long long)value, (long long)min, (long long)max);
    }
    *out = value;
    return WF_OK;
}

/// Reads a finite decimal number.
static wf_status py_read_number(py_reader* r, const char* what, double* out) {
    const char* tok;
    size_t len;
    if (!py_next_token(r, &tok, &len)) {
        return py_fail(r, r->line, "file ends before %s", what);
    }
    if (len > PY_MAX_TOKEN) {
        return py_fail(r, r->token_line, "%s is not a number", what);
    }
    char buffer[PY_MAX_TOKEN + 1];
    memcpy(buffer, tok, len);
    buffer[len] = '\0';
    char* end = NULL;
    double value = strtod(buffer, &end);
    if (end != buffer + len || !isfinite(value)) {
        return py_fail(r, r->token_line, "%s is not a finite number", what);
    }
    *out = value;
    return WF_OK;
}

/* ---------------------------------------------------------------------------
 * Parsing: world-space vertices and validated, counter-clockwise polygons
 */

void py_source_free(py_source* s, const wf_allocator* a) {
    WF_FREE_ARRAY(a, s->verts, py_pt, s->vert_count);
    WF_FREE_ARRAY(a, s->poly_first, uint32_t, (size_t)s->poly_count + 1);
    WF_FREE_ARRAY(a, s->poly_verts, uint32_t, s->poly_verts_cap);
}

/// Orients polygon `index` counter-clockwise and checks that it is convex,
/// wound once, without spikes or zero-length edges, and not degenerate.
static wf_status py_check_polygon(const py_reader* r, uint32_t line, uint32_t index,
                                  const py_pt* verts, uint32_t* ids, uint32_t n, py_pt* scratch) {
    for (uint32_t i = 0; i < n; ++i) {
        scratch[i] = verts[ids[i]];
    }
    double extent = py_extent(scratch, n);
    double area2 = py_area2(scratch, n);
    if (area2 < 0.0) {
        for (uint32_t i = 0; i < n / 2; ++i) {
            uint32_t t = ids[i];
            ids[i] = ids[n - 1 - i];
            ids[n - 1 - i] = t;
            py_pt p = scratch[i];
            scratch[i] = scratch[n - 1 - i];
            scratch[n - 1 - i] = p;
        }
        area2 = -area2;
    }
    if (py_is_degenerate(area2, extent)) {
        return py_fail(r, line, "polygon %u is degenerate (no area)", index);
    }
    // Convex and simple: every turn is left (up to rounding), no turn is a
    // spike, and the turns add up to one full revolution.
    const double pi = 3.14159265358979323846;
    double turning = 0.0;
    for (uint32_t i = 0; i < n; ++i) {
        py_pt a = scratch[(i + n - 1) % n], b = scratch[i], c = scratch[(i + 1) % n];
        double e1x = (double)b.x - a.x, e1z = (double)b.z - a.z;
        double e2x = (double)c.x - b.x, e2z = (double)c.z - b.z;
        double len1 = sqrt(e1x * e1x + e1z * e1z);
        if (len1 == 0.0) {
            return py_fail(r, line, "polygon %u has a zero-length edge", index);
        }
        double cross = e1z * e2x - e1x * e2z;
        double dot = e1x * e2x + e1z * e2z;
        if (cross < -PY_CONVEX_TOLERANCE * extent * len1) {
            return py_fail(r, line, "polygon %u is not convex", index);
        }
        double angle = atan2(cross, dot);
        if (fabs(angle) > pi - 1e-6) {
            return py_fail(r, line, "polygon %u folds back on itself", index);
        }
        turning += angle;
    }
    if (fabs(turning - 2.0 * pi) > 1e-3) {
        return py_fail(r, line, "polygon %u is not convex (winds %.2f times)", index,
                       turning / (2.0 * pi));
    }
    return WF_OK;
}

static wf_status parse(py_reader* r, const wf_allocator* a, float scale, py_source* s) {
    const char* tok;
    size_t len;
    if (!py_next_token(r, &tok, &len) || len != 4 || memcmp(tok, "mesh", 4) != 0) {
        return py_fail(r, r->line, "missing \"mesh\" header");
    }
    int64_t version;
    wf_status st = py_read_int(r, "version", INT64_MIN / 16, INT64_MAX / 16, &version);
    if (st != WF_OK) {
        return st;
    }
    if (version != 2) {
        wf_log(r->logger, WF_LOG_ERROR,
               "polyanya import: line %u: mesh format version %lld is not supported (only 2)",
               r->token_line, (long long)version);
        return WF_ERR_VERSION;
    }
    // Every record takes at least two bytes, so larger counts are lies that
    // would only make us allocate.
    int64_t max_count = (int64_t)(r->size / 2 < INT32_MAX ? r->size / 2 : INT32_MAX);
    int64_t vert_count, poly_count;
    if ((st = py_read_int(r, "vertex count", 0, max_count, &vert_count)) != WF_OK ||
        (st = py_read_int(r, "polygon count", 0, max_count, &poly_count)) != WF_OK) {
        return st;
    }
    s->verts = WF_ALLOC_ARRAY(a, py_pt, (size_t)vert_count);
    if (s->verts == NULL) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    s->vert_count = (uint32_t)vert_count;
    s->poly_first = WF_ALLOC_ARRAY(a, uint32_t, (size_t)poly_count + 1);
    if (s->poly_first == NULL) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    s->poly_count = (uint32_t)poly_count;

    for (uint32_t v = 0; v < s->vert_count; ++v) {
        double x, y;
        int64_t n, p;
        if ((st = py_read_number(r, "vertex x", &x)) != WF_OK ||
            (st = py_read_number(r, "vertex y", &y)) != WF_OK) {
            return st;
        }
        s->verts[v].x = (float)(x * scale);
        s->verts[v].z = (float)(y * scale);
        if (!isfinite(s->verts[v].x) || !isfinite(s->verts[v].z)) {
            return py_fail(r, r->token_line, "vertex %u is out of float range", v);
        }
        if ((st = py_read_int(r, "vertex neighbour count", 0, max_count, &n)) != WF_OK) {
            return st;
        }
        for (int64_t i = 0; i < n; ++i) {
            if ((st = py_read_int(r, "vertex neighbour", -1, poly_count - 1, &p)) != WF_OK) {
                return st;
            }
        }
    }

    // Stamps catch a vertex listed twice in one polygon in O(n).
    uint32_t* stamp = WF_ALLOC_ARRAY(a, uint32_t, s->vert_count);
    py_pt* scratch = WF_ALLOC_ARRAY(a, py_pt, s->vert_count);
    if (stamp == NULL || scratch == NULL) {
        WF_FREE_ARRAY(a, stamp, uint32_t, s->vert_count);
        WF_FREE_ARRAY(a, scratch, py_pt, s->vert_count);
        return WF_ERR_OUT_OF_MEMORY;
    }
    size_t total = 0;
    for (uint32_t p = 0; p < s->poly_count && st == WF_OK; ++p) {
        int64_t n, value;
        s->poly_first[p] = (uint32_t)total;
        if ((st = py_read_int(r, "polygon vertex count", 3, vert_count, &n)) != WF_OK) {
            break;
        }
        uint32_t line = r->token_line;
        if (total + (size_t)n > UINT32_MAX ||
            !PY_RESERVE(a, s->poly_verts, s->poly_verts_cap, total + (size_t)n, uint32_t)) {
            st = WF_ERR_OUT_OF_MEMORY;
            break;
        }
        uint32_t* ids = &s->poly_verts[total];
        for (int64_t i = 0; i < n && st == WF_OK; ++i) {
            if ((st = py_read_int(r, "polygon vertex", 0, vert_count - 1, &value)) != WF_OK) {
                break;
            }
            ids[i] = (uint32_t)value;
            if (stamp[ids[i]] == p + 1) {
                st = py_fail(r, r->token_line, "polygon %u lists vertex %u twice", p, ids[i]);
            }
            stamp[ids[i]] = p + 1;
        }
        for (int64_t i = 0; i < n && st == WF_OK; ++i) {
            st = py_read_int(r, "polygon neighbour", -1, poly_count - 1, &value);
        }
        if (st == WF_OK) {
            st = py_check_polygon(r, line, p, s->verts, ids, (uint32_t)n, scratch);
        }
        total += (size_t)n;
        s->max_poly_verts = (uint32_t)n > s->max_poly_verts ? (uint32_t)n : s->max_poly_verts;
    }
    s->poly_first[s->poly_count] = (uint32_t)total;
    WF_FREE_ARRAY(a, stamp, uint32_t, s->vert_count);
    WF_FREE_ARRAY(a, scratch, py_pt, s->vert_count);
    if (st == WF_OK && py_next_token(r, &tok, &len)) {
        st = py_fail(r, r->token_line, "unexpected text after the last polygon");
    }
    return st;
}

wf_status wf_polyanya_parse(const char* text, size_t size, const wf_logger* logger,
                            const wf_allocator* allocator, float scale, py_source* out) {
    py_reader r = {text, size, 0, 1, 1, logger};
    memset(out, 0, sizeof *out);
    return parse(&r, allocator, scale, out);
}
