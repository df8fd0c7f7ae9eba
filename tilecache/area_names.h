// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Area name tables (OBJ `usemtl`/`g` names -> area ids and flags): the
// rules both the OBJ loader and wf_tilecache_params_set_areas apply.
#ifndef WF_TILECACHE_AREA_NAMES_H
#define WF_TILECACHE_AREA_NAMES_H

#include "wayfarer/tilecache.h"

/// WF_OK, or WF_ERR_INVALID_ARG after logging "<who>: area_names[i]...: rule".
wf_status wf_area_names_check(const wf_area_name* names, uint32_t count, const char* who,
                              const wf_logger* logger);

/// Index of the row named text[0..len), or -1.
int32_t wf_area_names_find(const wf_area_name* names, uint32_t count, const char* text, size_t len);

#endif
