// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The area file: `name NAME AREA FLAGS` and `volume AREA FLAGS YMIN YMAX
// X Z X Z X Z ...` lines, `#` comments, blank lines (docs/formats.md).
// Every area's flags are given wherever it is used and must agree, so the
// file reads the same in any order.
#include "tools/areas_file.h"
#include "tools/text_words.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Most rows of each kind (far above a level's, bounds the memory).
#define AREAS_FILE_MAX_ROWS (1u << 16)
#define LINE_MAX_CHARS 4096u

typedef struct name_row {
    char name[WF_AREA_NAME_MAX + 1];
    uint8_t area;
    uint16_t flags;
    size_t line;
} name_row;

typedef struct volume_row {
    wf_vec3 points[AREAS_FILE_MAX_POINTS];
    uint32_t point_count;
    float min_y, max_y;
    uint8_t area;
} volume_row;

typedef struct parse_state {
    name_row* names;
    uint32_t name_count, name_capacity;
    volume_row* volumes;
    uint32_t volume_count, volume_capacity;
    uint16_t area_flags[WF_MAX_AREAS];
    size_t area_line[WF_MAX_AREAS]; ///< where each area's flags were first given; 0 none
} parse_state;

/// A why that names an earlier line (it outlives the parse; the tool is
/// one-threaded).
static char g_message[160];

/// AREA FLAGS, checked against the flags the area had on earlier lines.
static const char* parse_area_flags(parse_state* s, const char** p, const char* end, size_t line,
                                    uint8_t* out_area) {
    size_t len;
    const char* w = text_word_next(p, end, &len);
    unsigned long area, flags;
    if (!text_word_uint(w, len, WF_MAX_AREAS - 1u, &area)) {
        return "the area must be a whole number 0..63";
    }
    w = text_word_next(p, end, &len);
    if (!text_word_uint(w, len, 0xffff, &flags)) {
        return "the flags must be a whole number 0..65535 (decimal or 0x hex)";
    }
    uint16_t resolved = flags != 0 ? (uint16_t)flags : 1u; // 0 = 1, as in the params
    if (s->area_line[area] != 0 && s->area_flags[area] != resolved) {
        snprintf(g_message, sizeof g_message, "area %lu has flags %u on line %zu, not %u", area,
                 (unsigned)s->area_flags[area], s->area_line[area], (unsigned)resolved);
        return g_message;
    }
    if (s->area_line[area] == 0) {
        s->area_line[area] = line;
        s->area_flags[area] = resolved;
    }
    *out_area = (uint8_t)area;
    return NULL;
}

static bool grow(void** items, uint32_t* capacity, uint32_t count, size_t stride) {
    if (count < *capacity) {
        return true;
    }
    uint32_t grown = *capacity ? 2u * *capacity : 16u;
    void* n = realloc(*items, (size_t)grown * stride);
    if (n == NULL) {
        return false;
    }
    *items = n;
    *capacity = grown;
    return true;
}

static const char* parse_name(parse_state* s, const char* p, const char* end, size_t line) {
    size_t len;
    const char* w = text_word_next(&p, end, &len);
    if (len == 0) {
        return "a name line is `name NAME AREA FLAGS`";
    }
    if (len > WF_AREA_NAME_MAX) {
        return "the name is longer than 63 bytes";
    }
    for (uint32_t i = 0; i < s->name_count; ++i) {
        if (text_word_is(w, len, s->names[i].name)) {
            snprintf(g_message, sizeof g_message, "the name '%.63s' is on line %zu already",
                     s->names[i].name, s->names[i].line);
            return g_message;
        }
    }
    if (s->name_count == AREAS_FILE_MAX_ROWS) {
        return "more than 65536 names";
    }
    if (!grow((void**)&s->names, &s->name_capacity, s->name_count, sizeof(name_row))) {
        return "out of memory";
    }
    name_row* row = &s->names[s->name_count];
    memcpy(row->name, w, len);
    row->name[len] = '\0';
    row->line = line;
    const char* why = parse_area_flags(s, &p, end, line, &row->area);
    if (why != NULL) {
        return why;
    }
    row->flags = s->area_flags[row->area];
    if (text_word_next(&p, end, &len), len != 0) {
        return "unexpected words after the flags";
    }
    s->name_count++;
    return NULL;
}

static const char* parse_volume(parse_state* s, const char* p, const char* end, size_t line) {
    if (s->volume_count == AREAS_FILE_MAX_ROWS) {
        return "more than 65536 volumes";
    }
    if (!grow((void**)&s->volumes, &s->volume_capacity, s->volume_count, sizeof(volume_row))) {
        return "out of memory";
    }
    volume_row* v = &s->volumes[s->volume_count];
    memset(v, 0, sizeof *v);
    const char* why = parse_area_flags(s, &p, end, line, &v->area);
    if (why != NULL) {
        return why;
    }
    size_t len;
    const char* w = text_word_next(&p, end, &len);
    bool heights = text_word_float(w, len, &v->min_y);
    w = text_word_next(&p, end, &len);
    heights = heights && text_word_float(w, len, &v->max_y);
    if (!heights || v->min_y > v->max_y) {
        return "YMIN and YMAX must be finite numbers, YMIN <= YMAX";
    }
    for (;;) {
        w = text_word_next(&p, end, &len);
        if (len == 0) {
            break;
        }
        if (v->point_count == AREAS_FILE_MAX_POINTS) {
            return "more than 32 points";
        }
        float x, z;
        if (!text_word_float(w, len, &x)) {
            return "the outline's X and Z must be finite numbers";
        }
        w = text_word_next(&p, end, &len);
        if (len == 0) {
            return "the outline's numbers come in X Z pairs";
        }
        if (!text_word_float(w, len, &z)) {
            return "the outline's X and Z must be finite numbers";
        }
        v->points[v->point_count++] = wf_v3(x, 0.0f, z);
    }
    if (v->point_count < 3) {
        return "a volume needs 3..32 outline points (X Z pairs)";
    }
    if (!wf_convex_outline_valid(v->points, v->point_count)) {
        return "the outline is not convex (or repeats a point, or has three in a line)";
    }
    s->volume_count++;
    return NULL;
}

/// The parsed rows as the arrays the API takes.
static bool finish(parse_state* s, areas_file* out) {
    size_t text = 0;
    for (uint32_t i = 0; i < s->name_count; ++i) {
        text += strlen(s->names[i].name) + 1u;
    }
    out->names = calloc(s->name_count + 1u, sizeof *out->names);
    out->name_text = calloc(text + 1u, 1);
    out->volumes = calloc(s->volume_count + 1u, sizeof *out->volumes);
    out->points = calloc((size_t)s->volume_count * AREAS_FILE_MAX_POINTS + 1u, sizeof(wf_vec3));
    if (out->names == NULL || out->name_text == NULL || out->volumes == NULL ||
        out->points == NULL) {
        return false;
    }
    char* at = out->name_text;
    for (uint32_t i = 0; i < s->name_count; ++i) {
        size_t len = strlen(s->names[i].name);
        memcpy(at, s->names[i].name, len + 1u);
        out->names[i] = (wf_area_name){at, s->names[i].area, s->names[i].flags};
        at += len + 1u;
    }
    out->name_count = s->name_count;
    for (uint32_t i = 0; i < s->volume_count; ++i) {
        const volume_row* v = &s->volumes[i];
        wf_vec3* points = out->points + (size_t)i * AREAS_FILE_MAX_POINTS;
        memcpy(points, v->points, v->point_count * sizeof(wf_vec3));
        out->volumes[i] = (wf_convex_volume){points, v->point_count, v->min_y, v->max_y, v->area};
    }
    out->volume_count = s->volume_count;
    for (uint32_t a = 0; a < WF_MAX_AREAS; ++a) {
        out->area_flags[a] = s->area_line[a] != 0 ? s->area_flags[a] : 0u;
    }
    return true;
}

size_t areas_file_parse(const char* text, size_t size, areas_file* out, const char** why) {
    memset(out, 0, sizeof *out);
    *why = NULL;
    parse_state s;
    memset(&s, 0, sizeof s);
    const char* p = text;
    const char* text_end = text + size;
    size_t line = 0, bad_line = 0;
    while (p < text_end && bad_line == 0) {
        line++;
        const char *at, *end;
        text_line_next(&p, text_end, &at, &end);
        size_t len;
        const char* w = text_word_next(&at, end, &len);
        if (len == 0) {
            continue;
        }
        if ((size_t)(end - w) > LINE_MAX_CHARS) {
            *why = "line too long";
        } else if (text_word_is(w, len, "name")) {
            *why = parse_name(&s, at, end, line);
        } else if (text_word_is(w, len, "volume")) {
            *why = parse_volume(&s, at, end, line);
        } else {
            *why = "each line is `name NAME AREA FLAGS` or `volume AREA FLAGS YMIN YMAX X Z X Z "
                   "X Z ...`";
        }
        bad_line = *why != NULL ? line : 0;
    }
    if (bad_line == 0 && !finish(&s, out)) {
        *why = "out of memory";
        bad_line = line > 0 ? line : 1;
    }
    free(s.names);
    free(s.volumes);
    if (bad_line != 0) {
        areas_file_free(out);
    }
    return bad_line;
}

void areas_file_free(areas_file* f) {
    free(f->names);
    free(f->name_text);
    free(f->volumes);
    free(f->points);
    memset(f, 0, sizeof *f);
}
