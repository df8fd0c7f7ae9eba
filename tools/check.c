// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// `wayfarer check`: loads a tile cache, builds its navmesh and runs the
// navmesh integrity check (wayfarer/mesh_check.h) on it, optionally again
// after obstacles dropped across tile seams have been carved; prints one
// JSON report with every failure and exits 0 only when all is clean.
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/tool.h"
#include "wayfarer/mesh_check.h"
#include "wayfarer/query.h"
#include "wayfarer/rng.h"

/// Update calls allowed until every obstacle's tiles are rebuilt.
#define MAX_UPDATE_CALLS 100000u
#define OBSTACLE_RADIUS 1.0f
#define OBSTACLE_HEIGHT 2.0f

static const char* issue_name(wf_mesh_issue_kind kind) {
    switch (kind) {
    case WF_MESH_ISSUE_SEAM_BLOCKED:
        return "seam_blocked";
    case WF_MESH_ISSUE_ONE_WAY_LINK:
        return "one_way_link";
    case WF_MESH_ISSUE_LOOSE_OFFMESH:
        return "loose_offmesh_link";
    case WF_MESH_ISSUE_NOT_CONVEX:
        return "not_convex";
    }
    return "unknown";
}

typedef struct printer {
    uint32_t printed;
    uint32_t max_printed;
} printer;

static void print_issue(const wf_mesh_issue* issue, void* user) {
    printer* p = user;
    if (p->printed == p->max_printed) {
        return;
    }
    printf("%s\n    {\"kind\": \"%s\", \"from\": [%.3f, %.3f, %.3f], \"to\": [%.3f, %.3f, %.3f], "
           "\"poly\": \"%llx\", \"other\": \"%llx\", \"t\": %.4f}",
           p->printed > 0 ? "," : "", issue_name(issue->kind), issue->a.x, issue->a.y, issue->a.z,
           issue->b.x, issue->b.y, issue->b.z, (unsigned long long)issue->ref.bits,
           (unsigned long long)issue->other.bits, issue->t);
    p->printed++;
}

/// Runs the check and prints its report as the JSON object `name`.
static wf_status run_check(wf_query* q, const wf_mesh_check_desc* base, uint32_t max_printed,
                           const char* name, bool first, wf_mesh_check_report* r) {
    printer p = {0, max_printed};
    wf_mesh_check_desc d = *base;
    d.on_issue = print_issue;
    d.user = &p;
    printf("%s  \"%s\": {\n  \"failures\": [", first ? "" : ",\n", name);
    wf_status st = wf_query_check_mesh(q, &d, r);
    if (st != WF_OK) {
        printf("]}");
        return st;
    }
    printf("%s],\n  \"seam_probes\": %u, \"seam_blocked\": %u, \"seam_grazing\": %u, "
           "\"seam_offset\": %u, \"links_checked\": %u, "
           "\"one_way_links\": %u, \"loose_offmesh_links\": %u, \"polys_checked\": %u, "
           "\"non_convex_polys\": %u, \"failures_total\": %u, \"failures_listed\": %u}",
           p.printed > 0 ? "\n  " : "", r->seam_probes, r->seam_blocked, r->seam_grazing,
           r->seam_offset, r->links_checked, r->one_way_links, r->loose_offmesh_links,
           r->polys_checked, r->non_convex_polys, r->issue_count, p.printed);
    return WF_OK;
}

/// Drops `count` cylinders centred on tile seams at random walkable points
/// (a random point, moved onto its tile's nearest border), then updates
/// until every touched tile is rebuilt.
static int carve_across_seams(wf_tilecache* tc, wf_mesh* mesh, wf_query* q, uint32_t count,
                              uint64_t seed) {
    wf_rng rng = wf_rng_make(seed, 0);
    wf_query_filter filter = wf_query_filter_defaults();
    wf_mesh_desc md = wf_tilecache_mesh_desc(tc);
    uint32_t added = 0;
    for (uint32_t tries = 0; added < count && tries < 100u * count; ++tries) {
        wf_poly_ref ref;
        wf_vec3 p;
        if (wf_query_find_random_point(q, &filter, &rng, &ref, &p) != WF_OK) {
            break;
        }
        float fx = (p.x - md.origin.x) / md.tile_width, fz = (p.z - md.origin.z) / md.tile_depth;
        float bx = roundf(fx), bz = roundf(fz);
        if (fabsf(fx - bx) * md.tile_width < fabsf(fz - bz) * md.tile_depth) {
            p.x = md.origin.x + bx * md.tile_width;
        } else {
            p.z = md.origin.z + bz * md.tile_depth;
        }
        wf_obstacle_desc d;
        memset(&d, 0, sizeof d);
        d.shape = WF_OBSTACLE_CYLINDER;
        d.position = p;
        d.radius = OBSTACLE_RADIUS;
        d.height = OBSTACLE_HEIGHT;
        wf_obstacle_id id;
        wf_status st = wf_tilecache_add_obstacle(tc, &d, &id);
        if (st == WF_OK) {
            added++;
        } else if (st != WF_ERR_NOT_FOUND) {
            fprintf(stderr, "wayfarer check: obstacle not added: %s\n", wf_status_string(st));
            return EXIT_INPUT;
        }
    }
    wf_tilecache_update_result r = {0};
    for (uint32_t calls = 0; !r.up_to_date; ++calls) {
        wf_status st = wf_tilecache_update(tc, mesh, &(wf_tilecache_budget){0}, &r);
        if (st < 0 || calls == MAX_UPDATE_CALLS) {
            fprintf(stderr, "wayfarer check: the update failed: %s\n", wf_status_string(st));
            return EXIT_INPUT;
        }
    }
    return 0;
}

int cmd_check(int argc, char** argv) {
    const char* path = NULL;
    const char* class_name = NULL;
    uint32_t obstacles = 0, seed = 1, max_printed = 1000;
    double offset = 0.0, spacing = 0.0, climb = 0.0;
    for (int i = 1; i < argc; ++i) {
        const char* o = argv[i];
        if (o[0] != '-') {
            if (path != NULL) {
                fprintf(stderr, "wayfarer check: one cache file only (%s)\n", o);
                return usage_error("check");
            }
            path = o;
            continue;
        }
        const char* v = i + 1 < argc ? argv[++i] : NULL;
        bool ok = v != NULL;
        if (ok && strcmp(o, "--class") == 0) {
            class_name = v;
            continue;
        }
        if (ok && strcmp(o, "--obstacles") == 0) {
            ok = parse_count(v, &obstacles);
        } else if (ok && strcmp(o, "--seed") == 0) {
            ok = parse_count(v, &seed);
        } else if (ok && strcmp(o, "--max-failures") == 0) {
            ok = parse_count(v, &max_printed);
        } else if (ok && strcmp(o, "--offset") == 0) {
            ok = parse_double(v, &offset) && offset > 0.0 && offset <= FLT_MAX;
        } else if (ok && strcmp(o, "--spacing") == 0) {
            ok = parse_double(v, &spacing) && spacing > 0.0 && spacing <= FLT_MAX;
        } else if (ok && strcmp(o, "--max-climb") == 0) {
            ok = parse_double(v, &climb) && climb > 0.0 && climb <= FLT_MAX;
        } else {
            fprintf(stderr, "wayfarer check: unknown option %s\n", o);
            return usage_error("check");
        }
        if (!ok) {
            fprintf(stderr, "wayfarer check: %s needs a positive number (a float)\n", o);
            return usage_error("check");
        }
    }
    if (path == NULL) {
        fprintf(stderr, "wayfarer check: a cache file is required\n");
        return usage_error("check");
    }
    char* data = NULL;
    size_t size = 0;
    int rc = read_file(path, &data, &size);
    if (rc != 0) {
        return rc;
    }
    const char* cache = NULL;
    size_t cache_size = 0;
    rc = cache_pick_class("check", path, data, size, class_name, &cache, &cache_size);
    if (rc != 0) {
        free(data);
        return rc;
    }
    wf_tilecache* tc = NULL;
    tool_log log = {.command = "check", .hold = true};
    wf_status st = wf_tilecache_load(&(wf_tilecache_desc){.logger = tool_logger(&log)}, cache,
                                     cache_size, &tc);
    if (st != WF_OK) {
        report_cache_error("check", path, cache, cache_size, st, &log);
        free(data);
        return EXIT_INPUT;
    }
    free(data);
    log.hold = false;
    wf_mesh* mesh = NULL;
    wf_query* q = NULL;
    double ms = 0.0;
    rc = cache_navmesh(tc, &mesh, &ms);
    if (rc == 0 && wf_query_create(&(wf_query_desc){.mesh = mesh}, &q) != WF_OK) {
        fprintf(stderr, "wayfarer check: out of memory\n");
        rc = EXIT_INPUT;
    }
    wf_mesh_check_desc desc = {
        .seam_offset = (float)offset, .seam_spacing = (float)spacing, .max_climb = (float)climb};
    if (rc == 0 && climb == 0.0) {
        desc.max_climb = wf_tilecache_get_params(tc)->agent_climb;
    }
    wf_mesh_check_report built = {0}, carved = {0};
    if (rc == 0) {
        printf("{\n  \"file\": ");
        print_json_string(stdout, path);
        printf(",\n");
        st = run_check(q, &desc, max_printed, "built", true, &built);
        if (st == WF_OK && obstacles > 0) {
            rc = carve_across_seams(tc, mesh, q, obstacles, seed);
            if (rc == 0) {
                st = run_check(q, &desc, max_printed, "with_obstacles", false, &carved);
            }
        }
        uint32_t failures = built.issue_count + carved.issue_count;
        printf(",\n  \"obstacles\": %u,\n  \"clean\": %s\n}\n", obstacles,
               st == WF_OK && rc == 0 && failures == 0 ? "true" : "false");
        if (st != WF_OK) {
            fprintf(stderr, "wayfarer check: %s\n", wf_status_string(st));
            rc = EXIT_USAGE;
        } else if (rc == 0 && failures > 0) {
            rc = EXIT_CHECK;
        }
    }
    wf_query_destroy(q);
    wf_mesh_destroy(mesh);
    wf_tilecache_destroy(tc);
    return rc;
}
