// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Reading the shared scenario data for path tests (include after cmocka.h):
// whole files, and the Polyanya arena's expected any-angle answers
// (../shared/testdata/polyanya/expected/arena_euclidean.tsv).
#ifndef WF_TESTS_SUPPORT_TEST_SCENARIOS_H
#define WF_TESTS_SUPPORT_TEST_SCENARIOS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The whole file with a NUL after it, or NULL when it cannot be opened.
static inline char* test_read_all(const char* path, size_t* out_size) {
    *out_size = 0;
    FILE* f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char* data = malloc((size_t)size + 1);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    data[size] = '\0';
    *out_size = (size_t)size;
    return data;
}

/// One arena scenario row: start, goal (grid corners) and the optimum.
typedef struct arena_row {
    float sx, sy, gx, gy;
    double euclidean;
} arena_row;

/// Reads the expected answers of the TSV at path (at most max rows).
static inline size_t test_read_arena_rows(const char* path, arena_row* rows, size_t max) {
    size_t size = 0;
    char* text = test_read_all(path, &size);
    assert_non_null(text);
    size_t count = 0;
    for (char* line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        int bucket;
        double octile;
        arena_row r;
        if (line[0] != '#' && sscanf(line, "%d %f %f %f %f %lf %lf", &bucket, &r.sx, &r.sy, &r.gx,
                                     &r.gy, &octile, &r.euclidean) == 7) {
            assert_true(count < max);
            rows[count++] = r;
        }
    }
    free(text);
    return count;
}

#endif
