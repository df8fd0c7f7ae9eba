// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The off-mesh link file `wayfarer build --links` reads (docs/formats.md).
#ifndef WF_TOOLS_LINKS_FILE_H
#define WF_TOOLS_LINKS_FILE_H

#include <stddef.h>

#include "wayfarer/navmesh.h"

/// Parses the text into a malloc'ed array (*out, *out_count; free it).
/// Returns 0, or the 1-based number of the first bad line (*out NULL);
/// why says what is wrong with it.
size_t links_file_parse(const char* text, size_t size, float default_radius,
                        wf_offmesh_link_desc** out, uint32_t* out_count, const char** why);

#endif
