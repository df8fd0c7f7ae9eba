// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Reading a whole test data file.
#ifndef WF_TEST_FILES_H
#define WF_TEST_FILES_H

#include <stddef.h>

/// The file's bytes with a '\0' after them (text parsers may use it as a
/// string), size in *out_size; NULL when it is absent or cannot be read
/// (tests then skip). The caller frees it.
char* test_read_file(const char* path, size_t* out_size);

#endif
