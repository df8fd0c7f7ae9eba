// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The area file `wayfarer build --areas` reads (docs/formats.md): OBJ
// material and group names -> area ids and flags, and convex area volumes.
#ifndef WF_TOOLS_AREAS_FILE_H
#define WF_TOOLS_AREAS_FILE_H

#include <stddef.h>

#include "wayfarer/tilecache.h"

/// Most points of one `volume` line (wf_convex_volume's limit).
#define AREAS_FILE_MAX_POINTS 32u

/// A parsed area file; every array malloc'ed (areas_file_free).
typedef struct areas_file {
    wf_area_name* names; ///< rows for wf_geom_load_desc.area_names
    uint32_t name_count;
    wf_convex_volume* volumes; ///< for wf_tilecache_build_geom
    uint32_t volume_count;
    uint16_t area_flags[WF_MAX_AREAS]; ///< for wf_tilecache_params.area_flags (0: not named)
    char* name_text;                   ///< the names' characters
    wf_vec3* points;                   ///< the volumes' outlines
} areas_file;

/// Parses the text. Returns 0, or the 1-based number of the first bad line
/// (*out then empty); why says what is wrong with it.
size_t areas_file_parse(const char* text, size_t size, areas_file* out, const char** why);
void areas_file_free(areas_file* f);

#endif
