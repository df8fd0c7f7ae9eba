// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Area name tables: checked once, then looked up by name per `usemtl` and
// `g` line (a linear scan: tables are tens of rows and the lines few).
#include <stdio.h>
#include <string.h>

#include "navcore/check.h"
#include "tilecache/area_names.h"

/// strlen that stops looking past max (strnlen is not C11).
static size_t bounded_length(const char* s, size_t max) {
    size_t n = 0;
    while (n <= max && s[n] != '\0') {
        n++;
    }
    return n;
}

static bool name_valid(const char* name) {
    if (name == NULL) {
        return false;
    }
    size_t len = bounded_length(name, WF_AREA_NAME_MAX);
    if (len == 0 || len > WF_AREA_NAME_MAX) {
        return false;
    }
    for (size_t i = 0; i < len; ++i) {
        unsigned char c = (unsigned char)name[i];
        if (c <= ' ' || c == 0x7f || c == '#') { // a token of an OBJ line
            return false;
        }
    }
    return true;
}

static uint16_t resolved_flags(uint16_t flags) { return flags != 0 ? flags : 1u; }

wf_status wf_area_names_check(const wf_area_name* names, uint32_t count, const char* who,
                              const wf_logger* logger) {
    WF_CHECK_DESC(logger, who, names != NULL || count == 0,
                  "area_names must not be NULL when area_name_count is above 0");
    for (uint32_t i = 0; i < count; ++i) {
        char row[48];
        snprintf(row, sizeof row, "%s: area_names[%u]", who, i);
        WF_CHECK_DESC(logger, row, name_valid(names[i].name),
                      "name must be 1..63 bytes without blanks, control characters or '#'");
        WF_CHECK_DESC(logger, row, names[i].area < WF_MAX_AREAS, "area must be 0..63");
        for (uint32_t j = 0; j < i; ++j) {
            WF_CHECK_DESC(logger, row, strcmp(names[i].name, names[j].name) != 0,
                          "name repeats an earlier row's");
            WF_CHECK_DESC(logger, row,
                          names[i].area != names[j].area ||
                              resolved_flags(names[i].flags) == resolved_flags(names[j].flags),
                          "flags differ from an earlier row's for the same area");
        }
    }
    return WF_OK;
}

int32_t wf_area_names_find(const wf_area_name* names, uint32_t count, const char* text,
                           size_t len) {
    for (uint32_t i = 0; i < count; ++i) {
        if (bounded_length(names[i].name, len) == len && memcmp(names[i].name, text, len) == 0) {
            return (int32_t)i;
        }
    }
    return -1;
}

wf_status wf_tilecache_params_set_areas(wf_tilecache_params* params, const wf_area_name* names,
                                        uint32_t count, const wf_logger* logger) {
    WF_CHECK_DESC(logger, "tilecache_params_set_areas", params != NULL, "params must not be NULL");
    wf_status s = wf_area_names_check(names, count, "tilecache_params_set_areas", logger);
    if (s != WF_OK) {
        return s;
    }
    for (uint32_t i = 0; i < count; ++i) {
        params->area_flags[names[i].area] = resolved_flags(names[i].flags);
    }
    return WF_OK;
}
