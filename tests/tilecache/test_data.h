// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Reading the shared test data (../shared/testdata) for the tile cache's
// data tests; a missing file makes the test skip, not fail.
#ifndef WF_TESTS_TILECACHE_TEST_DATA_H
#define WF_TESTS_TILECACHE_TEST_DATA_H

#include <stdio.h>
#include <stdlib.h>

/// The whole file with a NUL after it, or NULL when it cannot be read.
static inline char* test_data_read(const char* path, size_t* out_size) {
    FILE* f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    char* data = NULL;
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        data = malloc((size_t)size + 1u);
    }
    if (data != NULL && fread(data, 1, (size_t)size, f) != (size_t)size) {
        free(data);
        data = NULL;
    }
    fclose(f);
    if (data != NULL) {
        data[size] = '\0';
        *out_size = (size_t)size;
    }
    return data;
}

#endif
