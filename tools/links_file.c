// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The off-mesh link file: one `link ID SX SY SZ EX EY EZ [radius R]
// [area A] [flags F] [both]` per line, `#` comments, blank lines.
#include "tools/links_file.h"
#include "tools/text_words.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/// Most links one file may list (far above a level's, bounds the memory).
#define LINKS_FILE_MAX (1u << 20)
#define LINE_MAX_CHARS 1024u

/// One `link` line (after the keyword); NULL when fine, else why not.
static const char* parse_link(const char* p, const char* end, float radius,
                              wf_offmesh_link_desc* d) {
    memset(d, 0, sizeof *d);
    d->radius = radius;
    d->flags = 1;
    size_t len;
    const char* w = text_word_next(&p, end, &len);
    unsigned long id;
    if (!text_word_uint(w, len, 0xffffffffUL, &id)) {
        return "the id must be a whole number 0..4294967295";
    }
    d->user_id = (uint32_t)id;
    float v[6];
    for (int k = 0; k < 6; ++k) {
        w = text_word_next(&p, end, &len);
        if (!text_word_float(w, len, &v[k])) {
            return "start and end need 3 finite numbers each";
        }
    }
    d->start = wf_v3(v[0], v[1], v[2]);
    d->end = wf_v3(v[3], v[4], v[5]);
    for (;;) {
        w = text_word_next(&p, end, &len);
        if (len == 0) {
            return NULL;
        }
        unsigned long n;
        if (text_word_is(w, len, "both")) {
            d->bidirectional = true;
            continue;
        }
        const char* key = w;
        size_t key_len = len;
        w = text_word_next(&p, end, &len);
        if (text_word_is(key, key_len, "radius")) {
            if (!text_word_float(w, len, &d->radius) || d->radius < 0.0f) {
                return "radius needs a finite number >= 0";
            }
        } else if (text_word_is(key, key_len, "area")) {
            if (!text_word_uint(w, len, 63, &n)) {
                return "area needs a whole number 0..63";
            }
            d->area = (uint8_t)n;
        } else if (text_word_is(key, key_len, "flags")) {
            if (!text_word_uint(w, len, 0xffff, &n)) {
                return "flags needs a whole number 0..65535";
            }
            d->flags = (uint16_t)n;
        } else {
            return "unknown word (radius, area, flags or both)";
        }
    }
}

size_t links_file_parse(const char* text, size_t size, float default_radius,
                        wf_offmesh_link_desc** out, uint32_t* out_count, const char** why) {
    *out = NULL;
    *out_count = 0;
    *why = NULL;
    uint32_t capacity = 0, count = 0;
    wf_offmesh_link_desc* links = NULL;
    const char* p = text;
    const char* text_end = text + size;
    size_t line = 0;
    while (p < text_end) {
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
        } else if (!text_word_is(w, len, "link")) {
            *why = "each line is `link ID SX SY SZ EX EY EZ [radius R] [area A] [flags F] [both]`";
        } else if (count == LINKS_FILE_MAX) {
            *why = "more than 1048576 links";
        }
        if (*why == NULL && count == capacity) {
            uint32_t grown = capacity ? 2u * capacity : 64u;
            wf_offmesh_link_desc* n = realloc(links, grown * sizeof *n);
            if (n == NULL) {
                *why = "out of memory";
            } else {
                links = n;
                capacity = grown;
            }
        }
        if (*why == NULL) {
            *why = parse_link(at, end, default_radius, &links[count]);
        }
        if (*why != NULL) {
            free(links);
            return line;
        }
        count++;
    }
    *out = links;
    *out_count = count;
    return 0;
}
