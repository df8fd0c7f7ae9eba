// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The linked library's version.
#include "wayfarer/version.h"
#include "wayfarer/base.h"

const char* wf_version_string(void) { return WF_VERSION_STRING; }
