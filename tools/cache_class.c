// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// One class of a multi-class cache file (build --class) for the commands
// that read a single tile cache (crowd, check, obstacles): the public class
// table reader finds it; a plain cache file goes through whole.
#include <stdio.h>
#include <string.h>

#include "tools/tool.h"
#include "wayfarer/world.h"

int cache_pick_class(const char* command, const char* path, const char* data, size_t size,
                     const char* class_name, const char** out_data, size_t* out_size) {
    *out_data = data;
    *out_size = size;
    wf_world_cache_class classes[WF_WORLD_MAX_CLASSES];
    uint32_t count = 0;
    wf_status st = wf_world_cache_get_classes(data, size, classes, WF_WORLD_MAX_CLASSES, &count);
    if (st == WF_ERR_VERSION || (st != WF_OK && size >= 4 && memcmp(data, "WFMC", 4) == 0)) {
        fprintf(stderr, "wayfarer %s: %s: a multi-class cache file %s (%s)\n", command, path,
                st == WF_ERR_VERSION ? "of another version" : "whose class table is damaged",
                wf_status_string(st));
        return EXIT_INPUT;
    }
    if (st != WF_OK || count == 0) {
        if (class_name != NULL) {
            fprintf(stderr,
                    "wayfarer %s: --class %s: %s is a single-class cache file (build --class "
                    "makes one with classes)\n",
                    command, class_name, path);
            return EXIT_USAGE;
        }
        return 0;
    }
    uint32_t pick = 0;
    if (class_name != NULL) {
        pick = count;
        for (uint32_t i = 0; i < count && i < WF_WORLD_MAX_CLASSES; ++i) {
            if (strcmp(classes[i].name, class_name) == 0) {
                pick = i;
                break;
            }
        }
        if (pick == count) {
            fprintf(stderr, "wayfarer %s: --class %s: %s has no such class (it has:", command,
                    class_name, path);
            for (uint32_t i = 0; i < count && i < WF_WORLD_MAX_CLASSES; ++i) {
                fprintf(stderr, " %s", classes[i].name);
            }
            fprintf(stderr, ")\n");
            return EXIT_USAGE;
        }
    }
    *out_data = classes[pick].data;
    *out_size = classes[pick].size;
    return 0;
}
