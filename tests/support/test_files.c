// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Reading a whole test data file.
#include "test_files.h"

#include <stdio.h>
#include <stdlib.h>

char* test_read_file(const char* path, size_t* out_size) {
    FILE* f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0) {
        n = ftell(f);
    }
    char* data = NULL;
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        data = malloc((size_t)n + 1u);
    }
    if (data != NULL && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    if (data != NULL) {
        data[n] = '\0';
        *out_size = (size_t)n;
    }
    return data;
}
