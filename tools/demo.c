// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// `wayfarer demo`: the generated level (or one from a file), a crowd that
// keeps walking to new targets while doors open and close and crates drop
// and go, a progress line, a summary, and an HTML replay to look at.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/crowd_scenes.h"
#include "tools/demo_level.h"
#include "tools/replay.h"
#include "tools/tool.h"
#include "tools/tri_builder.h"
#include "wayfarer/query.h"
#include "wayfarer/rng.h"
#include "wayfarer/world.h"

#define DEMO_DT (1.0f / 30.0f)
/// A door changes every this many seconds (one of them, at random).
#define DOOR_PERIOD_S 2.0f
/// A crate drops every this many seconds and stays this long.
#define CRATE_PERIOD_S 0.5f
#define CRATE_LIFE_S 8.0f
#define CRATE_RADIUS 0.8f
#define CRATE_HEIGHT 1.2f
#define MAX_CRATES 32u
/// The boulder agents only avoid: size and rolling speed (m/s).
#define BOULDER_RADIUS 1.0f
#define BOULDER_SPEED 2.5f
/// Rebuilt tiles committed per frame at most (a door or crate touches a few).
#define DEMO_TILE_COMMITS 8u
/// The second agent class: vehicles among the people, their size (m) and
/// how many by default (none above VEHICLE_MAX_PEOPLE people: each class
/// sees every agent of the other as a mover, WF_CROWD_MAX_MOVERS at most,
/// 16 kept for the boulder and the game's own).
#define VEHICLE_RADIUS 1.2f
#define VEHICLE_HEIGHT 2.5f
#define VEHICLE_SPEED 2.0f
#define DEFAULT_VEHICLES 8u
#define VEHICLE_MAX_PEOPLE (WF_CROWD_MAX_MOVERS - 16u)
/// Frames kept in the replay at most (longer runs keep every Nth frame).
#define REPLAY_FRAMES 1000u

typedef struct demo_options {
    uint32_t agents, frames, seed, workers;
    uint32_t vehicles;        ///< agents of the second class
    bool vehicles_given;      ///< --vehicles on the command line
    const char* level;        ///< NULL: generated
    const char* out;          ///< HTML replay
    const char* svg;          ///< optional SVG snapshot
    const char* export_level; ///< write the generated level as OBJ and stop
    bool quiet;
    bool json;    ///< the summary as one JSON object
    bool timings; ///< keep the milliseconds in the replay
} demo_options;

typedef struct crate {
    wf_obstacle_id id;
    wf_obstacle_desc desc;
    float dropped_at;
} crate;

typedef struct demo_state {
    wf_world* world;
    wf_query* query;
    wf_query* vehicle_query; ///< on the vehicles' navmesh (class 1), or NULL
    wf_rng vehicle_rng;      ///< their own stream: the people's run is the same
    wf_rng rng;
    demo_level level;
    bool generated;
    wf_obstacle_id doors[DEMO_MAX_DOORS];
    wf_obstacle_desc door_descs[DEMO_MAX_DOORS];
    crate crates[MAX_CRATES];
    uint32_t crate_count;
    uint32_t obstacles_applied; ///< adds and removes requested
    wf_obstacle_desc standing[DEMO_MAX_DOORS + MAX_CRATES];
    /// A boulder agents only avoid (no tile rebuild): it rolls back and
    /// forth along a straight walkable stretch, set on the crowd each frame.
    wf_mover_id boulder[WF_WORLD_MAX_CLASSES]; ///< one per class's crowd
    wf_vec3 boulder_ends[2];
} demo_state;

static int parse_options(int argc, char** argv, demo_options* o) {
    memset(o, 0, sizeof *o);
    o->agents = 1000;
    o->frames = 1000;
    o->seed = 1;
    o->out = "wayfarer-demo.html";
    o->vehicles = UINT32_MAX;
    for (int i = 1; i < argc; ++i) {
        uint32_t* number = strcmp(argv[i], "--agents") == 0     ? &o->agents
                           : strcmp(argv[i], "--vehicles") == 0 ? &o->vehicles
                           : strcmp(argv[i], "--frames") == 0   ? &o->frames
                           : strcmp(argv[i], "--seed") == 0     ? &o->seed
                           : strcmp(argv[i], "--workers") == 0  ? &o->workers
                                                                : NULL;
        const char** text = strcmp(argv[i], "--level") == 0          ? &o->level
                            : strcmp(argv[i], "--out") == 0          ? &o->out
                            : strcmp(argv[i], "--svg") == 0          ? &o->svg
                            : strcmp(argv[i], "--export-level") == 0 ? &o->export_level
                                                                     : NULL;
        if (strcmp(argv[i], "--quiet") == 0) {
            o->quiet = true;
        } else if (strcmp(argv[i], "--json") == 0) {
            o->json = true;
        } else if (strcmp(argv[i], "--timings") == 0) {
            o->timings = true;
        } else if (number != NULL && i + 1 < argc) {
            if (!parse_count(argv[++i], number)) {
                fprintf(stderr, "wayfarer demo: %s %s: needs a whole number\n", argv[i - 1],
                        argv[i]);
                return usage_error("demo");
            }
        } else if (text != NULL && i + 1 < argc) {
            *text = argv[++i];
        } else if (number != NULL || text != NULL) {
            fprintf(stderr, "wayfarer demo: %s needs a value\n", argv[i]);
            return usage_error("demo");
        } else {
            fprintf(stderr, "wayfarer demo: unknown option %s\n", argv[i]);
            return usage_error("demo");
        }
    }
    if (o->export_level != NULL && o->level != NULL) {
        fprintf(stderr, "wayfarer demo: --export-level writes the generated level; it does not "
                        "go with --level\n");
        return usage_error("demo");
    }
    o->vehicles_given = o->vehicles != UINT32_MAX;
    if (!o->vehicles_given) {
        o->vehicles = o->agents <= VEHICLE_MAX_PEOPLE ? DEFAULT_VEHICLES : 0u;
    }
    if (o->vehicles > 0 && (o->agents > VEHICLE_MAX_PEOPLE || o->vehicles > VEHICLE_MAX_PEOPLE)) {
        fprintf(stderr,
                "wayfarer demo: --vehicles %u with --agents %u: each class sees the other's "
                "agents as movers, so both must be at most %u (or --vehicles 0)\n",
                o->vehicles, o->agents, VEHICLE_MAX_PEOPLE);
        return usage_error("demo");
    }
    return check_run_options("demo", o->agents, o->frames, o->workers);
}

/// `--export-level FILE.obj`: the generated level of the seed as a
/// Wavefront OBJ (what `wayfarer build` and the library read), nothing run.
/// Coordinates in %.9g: the OBJ reads back to the same floats.
static int export_level(const demo_options* o) {
    int rc = check_writable("demo", o->export_level);
    demo_level level;
    if (rc == 0 && demo_level_generate(o->seed, &level) != 0) {
        fprintf(stderr, "wayfarer demo: out of memory\n");
        return EXIT_INPUT;
    }
    if (rc != 0) {
        return rc;
    }
    char comment[160];
    snprintf(comment, sizeof comment,
             "The generated level of `wayfarer demo --seed %u` (doors and crates are\n"
             "obstacles the demo adds at run time, not part of the level).",
             o->seed);
    bool failed = tri_list_write_obj(o->export_level, comment, level.verts, level.vert_count,
                                     level.tris, level.tri_count) != 0;
    if (failed) {
        fprintf(stderr, "wayfarer demo: cannot write %s\n", o->export_level);
        demo_level_free(&level);
        return EXIT_INPUT;
    }
    const report_field fields[] = {
        {"level_file", 0.0, false, o->export_level},
        {"seed", o->seed, true, NULL},
        {"vertices", level.vert_count, true, NULL},
        {"triangles", level.tri_count, true, NULL},
        {"bounds_min_x_m", level.bmin.x, false, NULL},
        {"bounds_min_z_m", level.bmin.z, false, NULL},
        {"bounds_max_x_m", level.bmax.x, false, NULL},
        {"bounds_max_z_m", level.bmax.z, false, NULL},
    };
    print_report(fields, sizeof fields / sizeof fields[0], o->json);
    demo_level_free(&level);
    return 0;
}

/// The world: generated level, an OBJ file or a cache file.
static int make_world(const demo_options* o, demo_state* d, tool_log* log) {
    wf_world_desc wd;
    memset(&wd, 0, sizeof wd);
    wd.worker_count = o->workers;
    wd.crowd.max_agents = o->agents;
    wd.max_obstacles = DEMO_MAX_DOORS + MAX_CRATES + 16u;
    wd.max_pending_requests = 2u * (DEMO_MAX_DOORS + MAX_CRATES);
    wd.logger = tool_logger(log);
    // People (the level's agent size) and vehicles: two classes, two navmeshes.
    const wf_world_class_desc classes[2] = {{.name = "people", .max_agents = o->agents},
                                            {.name = "vehicles",
                                             .agent_radius = VEHICLE_RADIUS,
                                             .agent_height = VEHICLE_HEIGHT,
                                             .max_agents = o->vehicles}};
    log->hold = true; // a failure is said below with the reason logged
    char* file = NULL;
    size_t size = 0;
    wf_geom_data* geom = NULL;
    wf_geom view;
    int rc = 0;
    if (o->level == NULL) {
        if (demo_level_generate(o->seed, &d->level) != 0) {
            fprintf(stderr, "wayfarer demo: out of memory\n");
            return EXIT_INPUT;
        }
        d->generated = true;
        view = demo_level_geom(&d->level);
        wd.geom = &view;
        wd.classes = o->vehicles > 0 ? classes : NULL;
        wd.class_count = o->vehicles > 0 ? 2u : 0u;
    } else if ((rc = read_file(o->level, &file, &size)) != 0) {
        return rc;
    } else if (level_kind_of(o->level, file, size) == LEVEL_UNKNOWN) {
        fprintf(stderr,
                "wayfarer demo: --level %s: neither a Wavefront OBJ (FILE.obj) nor a "
                "tile cache (FILE.wfc, from `wayfarer build`)\n",
                o->level);
        free(file);
        return EXIT_INPUT;
    } else if (level_kind_of(o->level, file, size) == LEVEL_OBJ) {
        wf_geom_load_desc ld = {.logger = wd.logger};
        wf_status s = wf_geom_load_obj(file, size, &ld, &geom);
        if (s != WF_OK) {
            fprintf(stderr, "wayfarer demo: --level %s: not a Wavefront OBJ it can read: %s\n",
                    o->level, log->last_error[0] != '\0' ? log->last_error : wf_status_string(s));
            free(file);
            return EXIT_INPUT;
        }
        view = wf_geom_data_view(geom);
        wd.geom = &view;
        wd.classes = o->vehicles > 0 ? classes : NULL;
        wd.class_count = o->vehicles > 0 ? 2u : 0u;
    } else {
        // A multi-class file gives its classes (vehicles go in the second);
        // a plain one holds the people's only.
        uint32_t file_classes = 0;
        if (wf_world_cache_get_classes(file, size, NULL, 0, &file_classes) == WF_OK &&
            file_classes < 2 && o->vehicles_given && o->vehicles > 0) {
            fprintf(stderr,
                    "wayfarer demo: --level %s holds one agent class: vehicles need a "
                    "second (wayfarer build --class people:R --class vehicles:R), or "
                    "--vehicles 0\n",
                    o->level);
            free(file);
            return EXIT_USAGE;
        }
        wd.cache_data = file;
        wd.cache_size = size;
        wd.crowd.max_agents = o->agents > o->vehicles ? o->agents : o->vehicles;
    }
    wf_status s = wf_world_create(&wd, &d->world);
    wf_geom_data_destroy(geom);
    free(file);
    if (s != WF_OK) {
        fprintf(stderr, "wayfarer demo: %s%s: cannot make the world: %s\n",
                o->level != NULL ? "--level " : "the generated level",
                o->level != NULL ? o->level : "",
                log->last_error[0] != '\0' ? log->last_error : wf_status_string(s));
        return EXIT_INPUT;
    }
    log->hold = false;
    if (wf_mesh_get_stats(wf_world_mesh(d->world)).poly_count == 0) {
        fprintf(stderr, "wayfarer demo: %s: no walkable area (the navmesh has no polygon)\n",
                o->level != NULL ? o->level : "the generated level");
        return EXIT_INPUT;
    }
    if (d->generated) {
        // The generated level's ledges (ramp sides, the bridge, the tower)
        // as drop-down links, in the mesh before the first frame.
        wf_tilecache* tc = wf_world_tilecache(d->world);
        wf_link_generation_desc g = {0};
        wf_tilecache_budget b = {0, 0};
        wf_tilecache_update_result r;
        if (wf_tilecache_generate_links(tc, &g, NULL) != WF_OK ||
            wf_tilecache_update(tc, wf_world_mesh(d->world), &b, &r) < 0) {
            fprintf(stderr, "wayfarer demo: the generated level's links: %s\n", log->last_error);
        }
    }
    wf_query_desc qd = {.mesh = wf_world_mesh(d->world)};
    s = wf_query_create(&qd, &d->query);
    if (s == WF_OK && wf_world_class_count(d->world) > 1) {
        wf_query_desc vd = {.mesh = wf_world_class_mesh(d->world, 1)};
        s = wf_query_create(&vd, &d->vehicle_query);
    }
    if (s != WF_OK) {
        fprintf(stderr, "wayfarer demo: cannot make the query: %s\n", wf_status_string(s));
        return EXIT_INPUT;
    }
    return 0;
}

static bool random_point(demo_state* d, wf_vec3* out) {
    const wf_query_filter f = wf_query_filter_defaults();
    wf_poly_ref ref;
    return wf_query_find_random_point(d->query, &f, &d->rng, &ref, out) == WF_OK;
}

static uint32_t standing_obstacles(demo_state* d) {
    uint32_t n = 0;
    for (uint32_t k = 0; d->generated && k < d->level.door_count; ++k) {
        if (d->doors[k].bits != 0) {
            d->standing[n++] = d->door_descs[k];
        }
    }
    for (uint32_t k = 0; k < d->crate_count; ++k) {
        d->standing[n++] = d->crates[k].desc;
    }
    return n;
}

/// Doors open and close, crates drop and go: obstacle requests for the
/// next step.
static void change_the_world(demo_state* d, uint32_t frame) {
    wf_world* w = d->world; // its obstacles reach every class
    float now = (float)frame * DEMO_DT;
    uint32_t door_every = (uint32_t)(DOOR_PERIOD_S / DEMO_DT);
    if (d->generated && d->level.door_count > 0 && frame % door_every == door_every / 2u) {
        uint32_t k = wf_rng_next_u32(&d->rng) % d->level.door_count;
        if (d->doors[k].bits != 0) {
            if (wf_world_remove_obstacle(w, d->doors[k]) == WF_OK) {
                d->doors[k].bits = 0;
                d->obstacles_applied++;
            }
        } else {
            wf_obstacle_desc od;
            memset(&od, 0, sizeof od);
            od.shape =
                fabsf(d->level.doors[k].yaw) > 0.0f ? WF_OBSTACLE_ORIENTED_BOX : WF_OBSTACLE_BOX;
            od.position = d->level.doors[k].center;
            od.half_extents = d->level.doors[k].half_extents;
            od.yaw = d->level.doors[k].yaw;
            if (wf_world_add_obstacle(w, &od, &d->doors[k]) == WF_OK) {
                d->door_descs[k] = od;
                d->obstacles_applied++;
            }
        }
    }
    // Crates past their time go first (oldest first), then a new one drops.
    while (d->crate_count > 0 && now - d->crates[0].dropped_at > CRATE_LIFE_S) {
        if (wf_world_remove_obstacle(w, d->crates[0].id) == WF_OK) {
            d->obstacles_applied++;
        }
        memmove(&d->crates[0], &d->crates[1], sizeof(crate) * (d->crate_count - 1u));
        d->crate_count--;
    }
    uint32_t crate_every = (uint32_t)(CRATE_PERIOD_S / DEMO_DT);
    if (frame % crate_every == 0 && d->crate_count < MAX_CRATES) {
        wf_vec3 at;
        if (d->generated && d->level.crate_spot_count > 0) {
            at = d->level.crate_spots[wf_rng_next_u32(&d->rng) % d->level.crate_spot_count];
        } else if (!random_point(d, &at)) {
            return;
        }
        crate* c = &d->crates[d->crate_count];
        memset(&c->desc, 0, sizeof c->desc);
        c->desc.shape = WF_OBSTACLE_CYLINDER;
        c->desc.position = at;
        c->desc.radius = CRATE_RADIUS;
        c->desc.height = CRATE_HEIGHT;
        if (wf_world_add_obstacle(w, &c->desc, &c->id) == WF_OK) {
            c->dropped_at = now;
            d->crate_count++;
            d->obstacles_applied++;
        }
    }
}

/// Picks the boulder's stretch: from a random point as far as the navmesh
/// lets it roll (up to 20 m) towards another.
static void place_boulder(demo_state* d) {
    const wf_query_filter f = wf_query_filter_defaults();
    wf_poly_ref ref;
    wf_vec3 a, b;
    wf_raycast_hit hit;
    // Its own random stream: the rest of the run draws what it drew before.
    wf_rng rng = wf_rng_split(&d->rng, 5u);
    if (wf_query_find_random_point(d->query, &f, &rng, &ref, &a) != WF_OK ||
        wf_query_find_random_point(d->query, &f, &rng, &ref, &b) != WF_OK) {
        return;
    }
    wf_vec3 dir = wf_v3_sub(b, a);
    dir.y = 0.0f;
    float len = wf_v3_length(dir);
    if (len < 1e-3f) {
        return;
    }
    b = wf_v3_mad(a, dir, 20.0f / len);
    if (wf_query_raycast(d->query, ref, a, b, &f, NULL, 0, &hit) != WF_OK) {
        return;
    }
    float t = hit.t < 1.0f ? hit.t : 1.0f;
    d->boulder_ends[0] = a;
    d->boulder_ends[1] = wf_v3_lerp(a, b, t * 0.9f);
    wf_mover m = {.position = a, .radius = BOULDER_RADIUS, .height = BOULDER_RADIUS * 2.0f};
    for (uint32_t c = 0; c < wf_world_class_count(d->world); ++c) {
        if (wf_crowd_add_mover(wf_world_class_crowd(d->world, c), &m, &d->boulder[c]) != WF_OK) {
            d->boulder[c].bits = 0;
        }
    }
}

/// The boulder's place and velocity at a frame (a ping-pong at its speed).
static void roll_boulder(demo_state* d, uint32_t frame) {
    wf_vec3 a = d->boulder_ends[0], b = d->boulder_ends[1];
    float len = wf_v3_distance(a, b);
    if (len < 0.1f) {
        return;
    }
    float run = fmodf((float)frame * DEMO_DT * BOULDER_SPEED, 2.0f * len);
    bool back = run > len;
    float u = (back ? 2.0f * len - run : run) / len;
    wf_vec3 vel = wf_v3_scale(wf_v3_sub(b, a), (back ? -BOULDER_SPEED : BOULDER_SPEED) / len);
    for (uint32_t c = 0; c < wf_world_class_count(d->world); ++c) {
        wf_crowd* crowd = wf_world_class_crowd(d->world, c);
        if (d->boulder[c].bits != 0 &&
            wf_crowd_set_mover(crowd, d->boulder[c], wf_v3_lerp(a, b, u), vel) != WF_OK) {
            d->boulder[c].bits = 0;
        }
    }
}

/// A random point on the vehicles' navmesh.
static bool vehicle_point(demo_state* d, wf_vec3* out) {
    const wf_query_filter f = wf_query_filter_defaults();
    wf_poly_ref ref;
    return d->vehicle_query != NULL &&
           wf_query_find_random_point(d->vehicle_query, &f, &d->vehicle_rng, &ref, out) == WF_OK;
}

/// The vehicles: class 1, wider and slower than the people.
static uint32_t place_vehicles(demo_state* d, uint32_t count, wf_agent_id* ids) {
    wf_crowd* crowd = wf_world_class_crowd(d->world, 1);
    if (crowd == NULL) {
        return 0;
    }
    wf_world_class_info info;
    if (wf_world_get_class(d->world, 1, &info) != WF_OK) {
        return 0;
    }
    wf_agent_params p = wf_agent_params_defaults();
    p.radius = info.max_agent_radius;
    p.height = info.agent_height;
    p.max_speed = VEHICLE_SPEED;
    p.max_acceleration = 4.0f;
    p.collision_query_range = p.radius * 8.0f;
    p.path_optimization_range = p.radius * 20.0f;
    p.priority = 2; // people yield to them
    uint32_t placed = 0;
    for (uint32_t i = 0; i < count; ++i) {
        wf_vec3 at, to;
        if (!vehicle_point(d, &at) || !vehicle_point(d, &to) ||
            wf_crowd_add_agent(crowd, at, &p, &ids[placed]) != WF_OK) {
            continue;
        }
        if (wf_crowd_request_move(crowd, ids[placed], to, NULL, NULL) == WF_OK) {
            placed++;
        }
    }
    return placed;
}

/// Each class's sizes, memory and build time as a JSON array (malloc'd).
static char* classes_json(const wf_world* w) {
    uint32_t count = wf_world_class_count(w);
    size_t room = 384u * count + 8u, at = 0;
    char* out = malloc(room);
    for (uint32_t c = 0; c < count && out != NULL; ++c) {
        wf_world_class_info k;
        if (wf_world_get_class(w, c, &k) != WF_OK) {
            continue;
        }
        at += (size_t)snprintf(out + at, room - at,
                               "%s{\"name\": \"%s\", \"agent_radius\": %.3f, "
                               "\"agent_height\": %.3f, \"memory_bytes\": %zu, \"build_ms\": %.3f}",
                               at == 0 ? "[" : ", ", k.name, k.agent_radius, k.agent_height,
                               k.tilecache_bytes + k.mesh_bytes + k.crowd_bytes, k.build_ms);
    }
    if (out != NULL) {
        snprintf(out + at, room - at, at == 0 ? "[]" : "]");
    }
    return out;
}

/// Issue 14's goal in the demo itself (docs/benchmarks.md, "demo17"): the
/// people's targets whose shortest path fits the time left at full speed
/// (the scenarios' old count), and with a free agent's slack
/// (SCENE_FREE_SLACK), and how they ended.
#define LENGTH_POLYS 4096u
#define LENGTH_POINTS 1024u

typedef struct in_time_count {
    wf_query* query; ///< its own: the targets' query gives what it gave before
    wf_poly_ref* polys;
    wf_straight_point* points;
    uint8_t* state; ///< per person: 0 not in time, 1 in time, 2 also for a free agent
    uint32_t targets, reached, blocked, blocked_partial, alone_targets, alone_reached;
} in_time_count;

static float demo_path_length(in_time_count* c, wf_vec3 from, wf_vec3 to) {
    const wf_query_filter f = wf_query_filter_defaults();
    const wf_vec3 ext = {1.0f, 2.0f, 1.0f};
    wf_poly_ref a, b;
    wf_vec3 pa, pb;
    wf_path_result r;
    uint32_t n = 0;
    if (wf_query_find_nearest_poly(c->query, from, ext, &f, &a, &pa) != WF_OK ||
        wf_query_find_nearest_poly(c->query, to, ext, &f, &b, &pb) != WF_OK ||
        wf_query_find_path(c->query, a, b, pa, pb, &f, c->polys, LENGTH_POLYS, &r) != WF_OK ||
        (r.flags & WF_PATH_PARTIAL) != 0 ||
        wf_query_find_straight_path(c->query, pa, pb, c->polys, r.count, c->points, LENGTH_POINTS,
                                    0, &n) != WF_OK) {
        return -1.0f;
    }
    float length = 0.0f;
    for (uint32_t k = 1; k < n; ++k) {
        length += wf_v3_distance(c->points[k].pos, c->points[k - 1].pos);
    }
    return length;
}

/// A person got a new target at from with left seconds to go.
static void count_given(in_time_count* c, uint32_t i, wf_vec3 from, wf_vec3 to, float left,
                        float speed) {
    if (c->query == NULL) {
        return;
    }
    float length = demo_path_length(c, from, to);
    bool in_time = scene_in_time(length, speed, left, 1.0f);
    bool alone = scene_in_time(length, speed, left, SCENE_FREE_SLACK);
    c->state[i] = alone ? 2u : (in_time ? 1u : 0u);
    c->targets += in_time;
    c->alone_targets += alone;
}

/// A person's request ended (arrived, stopped short or blocked).
static void count_ended(in_time_count* c, uint32_t i, wf_crowd_event_kind kind, bool partial) {
    if (c->query == NULL || c->state[i] == 0u) {
        return;
    }
    if (kind == WF_CROWD_EVENT_BLOCKED) {
        c->blocked++;
        c->blocked_partial += partial;
    } else {
        c->reached++;
        c->alone_reached += c->state[i] == 2u;
    }
    c->state[i] = 0u;
}

static int compare_doubles(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

int cmd_demo(int argc, char** argv) {
    demo_options o;
    int rc = parse_options(argc, argv, &o);
    if (rc != 0) {
        return rc;
    }
    if (o.export_level != NULL) {
        return export_level(&o);
    }
    // The outputs are checked before the run that leads to them.
    if ((rc = check_writable("demo", o.out)) != 0 ||
        (o.svg != NULL && (rc = check_writable("demo", o.svg)) != 0)) {
        return rc;
    }
    demo_state* d = calloc(1, sizeof *d);
    wf_agent_id* ids = calloc((size_t)o.agents + o.vehicles, sizeof *ids);
    double* frame_ms = calloc(o.frames, sizeof *frame_ms);
    if (d == NULL || ids == NULL || frame_ms == NULL) {
        fprintf(stderr, "wayfarer demo: out of memory\n");
        free(d);
        free(ids);
        free(frame_ms);
        return EXIT_INPUT;
    }
    d->rng = wf_rng_make(o.seed, 3u);
    d->vehicle_rng = wf_rng_make(o.seed, 11u);
    tool_log log = {.command = "demo"};
    rc = make_world(&o, d, &log);
    in_time_count itc = {0};
    if (rc == 0) {
        itc.polys = malloc(sizeof *itc.polys * LENGTH_POLYS);
        itc.points = malloc(sizeof *itc.points * LENGTH_POINTS);
        itc.state = calloc((size_t)o.agents + 1u, sizeof *itc.state);
        wf_query_desc qd = {.mesh = wf_world_mesh(d->world)};
        if (itc.polys == NULL || itc.points == NULL || itc.state == NULL ||
            wf_query_create(&qd, &itc.query) != WF_OK) {
            itc.query = NULL; // no count, the demo runs as before
        }
    }
    replay* rp = NULL;
    wf_crowd* crowd = rc == 0 ? wf_world_crowd(d->world) : NULL;
    uint32_t placed = 0, vehicles = 0;
    if (rc == 0) {
        wf_agent_params p = wf_agent_params_defaults();
        const wf_tilecache_params* tp = wf_tilecache_get_params(wf_world_tilecache(d->world));
        p.radius = cache_agent_radius(tp);
        p.height = tp->agent_height;
        p.collision_query_range = p.radius * 12.0f;
        p.path_optimization_range = p.radius * 30.0f;
        for (uint32_t i = 0; i < o.agents; ++i) {
            wf_vec3 at, to;
            p.priority = (uint8_t)(i % 3u);
            if (!random_point(d, &at) || !random_point(d, &to) ||
                wf_crowd_add_agent(crowd, at, &p, &ids[placed]) != WF_OK) {
                continue;
            }
            if (wf_crowd_request_move(crowd, ids[placed], to, NULL, NULL) == WF_OK) {
                count_given(&itc, placed, at, to, (float)o.frames * DEMO_DT, p.max_speed);
                placed++;
            }
        }
        place_boulder(d);
        vehicles = place_vehicles(d, o.vehicles, ids + placed);
        if (placed == 0) {
            fprintf(stderr, "wayfarer demo: no agent could be placed on the navmesh\n");
            rc = EXIT_INPUT;
        }
        replay_desc rd = {.max_agents = placed + vehicles,
                          .max_frames = REPLAY_FRAMES,
                          .frame_stride = (o.frames + REPLAY_FRAMES - 1u) / REPLAY_FRAMES,
                          .dt = DEMO_DT,
                          .title = "Wayfarer demo",
                          .timings = o.timings};
        rp = rc == 0 ? replay_create(&rd) : NULL;
        if (rc == 0 && (rp == NULL || replay_set_mesh(rp, wf_world_mesh(d->world)) != 0)) {
            fprintf(stderr, "wayfarer demo: out of memory for the replay\n");
            rc = EXIT_INPUT;
        }
    }
    uint64_t arrivals = 0, replans = 0, blocked = 0;
    double tiles_ms = 0.0, crowd_ms = 0.0, phase_ms[WF_CROWD_PHASE_COUNT] = {0};
    // A budget in tiles, not microseconds: a time budget commits a different
    // number of tiles on a slower or busier machine, and the same seed
    // must give the same run (and the same replay file).
    const wf_world_budget budget = {.tile_time_us = 0, .tile_commits = DEMO_TILE_COMMITS};
    for (uint32_t f = 0; f < o.frames && rc == 0; ++f) {
        change_the_world(d, f);
        roll_boulder(d, f);
        wf_world_report report;
        double t0 = now_ms();
        wf_status s = wf_world_step(d->world, DEMO_DT, &budget, &report);
        frame_ms[f] = now_ms() - t0;
        if (s != WF_OK) {
            fprintf(stderr, "wayfarer demo: step failed: %s\n", wf_status_string(s));
            rc = EXIT_CHECK;
            break;
        }
        crowd = wf_world_crowd(d->world);
        tiles_ms += report.tiles_us * 1e-3;
        crowd_ms += report.crowd_us * 1e-3;
        for (int k = 0; k < WF_CROWD_PHASE_COUNT; ++k) {
            phase_ms[k] += report.crowd.phase_us[k] * 1e-3;
        }
        replans += report.crowd.replans;
        uint32_t n, frame_arrivals = 0, frame_blocked = 0;
        const wf_crowd_event* e = wf_crowd_events(crowd, &n);
        for (uint32_t k = 0; k < n; ++k) {
            bool arrived =
                e[k].kind == WF_CROWD_EVENT_ARRIVED || e[k].kind == WF_CROWD_EVENT_STOPPED_SHORT;
            if (!arrived && e[k].kind != WF_CROWD_EVENT_BLOCKED) {
                continue;
            }
            frame_arrivals += arrived;
            frame_blocked += e[k].kind == WF_CROWD_EVENT_BLOCKED;
            uint32_t i = 0;
            while (i < placed && ids[i].bits != e[k].agent.bits) {
                ++i;
            }
            wf_agent_state ast;
            bool known = i < placed && wf_crowd_get_agent(crowd, e[k].agent, &ast) == WF_OK;
            if (known) {
                count_ended(&itc, i, e[k].kind, ast.corridor_partial);
            }
            wf_vec3 to;
            if (random_point(d, &to)) {
                wf_status r = wf_crowd_request_move(crowd, e[k].agent, to, NULL, NULL);
                // A full queue: the agent asks again on its next event.
                if (r == WF_OK && known) {
                    count_given(&itc, i, ast.position, to, (float)(o.frames - f - 1u) * DEMO_DT,
                                ast.params.max_speed);
                }
            }
        }
        // Vehicles drive on to a new target when they arrive or are blocked.
        wf_crowd* vehicle_crowd = wf_world_class_crowd(d->world, 1);
        e = vehicle_crowd != NULL ? wf_crowd_events(vehicle_crowd, &n) : NULL;
        for (uint32_t k = 0; e != NULL && k < n; ++k) {
            wf_vec3 to;
            if ((e[k].kind == WF_CROWD_EVENT_ARRIVED || e[k].kind == WF_CROWD_EVENT_STOPPED_SHORT ||
                 e[k].kind == WF_CROWD_EVENT_BLOCKED) &&
                vehicle_point(d, &to)) {
                wf_status r = wf_crowd_request_move(vehicle_crowd, e[k].agent, to, NULL, NULL);
                (void)r;
            }
        }
        arrivals += frame_arrivals;
        blocked += frame_blocked;
        replay_stats st = {.frame_ms = frame_ms[f],
                           .tiles_ms = report.tiles_us * 1e-3,
                           .crowd_ms = report.crowd_us * 1e-3,
                           .arrivals = frame_arrivals,
                           .replans = report.crowd.replans,
                           .blocked = frame_blocked,
                           .obstacles = wf_world_obstacle_count(d->world),
                           .paths_queued = report.crowd.paths_queued};
        uint32_t standing = standing_obstacles(d);
        const wf_crowd* crowds[2] = {crowd, wf_world_class_crowd(d->world, 1)};
        if (replay_add_frame_classes(rp, crowds, crowds[1] != NULL ? 2u : 1u,
                                     wf_world_mesh(d->world), ids, placed + vehicles, d->standing,
                                     standing, &st) != 0) {
            rc = EXIT_INPUT;
        }
        if (!o.quiet && (f + 1u) % (o.frames / 10u > 0 ? o.frames / 10u : 1u) == 0) {
            // Redrawn in place on a terminal; a log gets one line each.
            bool tty = stderr_is_terminal();
            fprintf(stderr, "%swayfarer demo: frame %u/%u, %.2f ms, %llu arrivals%s",
                    tty ? "\r" : "", f + 1u, o.frames, frame_ms[f], (unsigned long long)arrivals,
                    !tty || f + 1u == o.frames ? "\n" : "");
        }
    }
    if (rc == 0) {
        const char* failed = replay_write_html(rp, o.out) != 0                   ? o.out
                             : o.svg != NULL && replay_write_svg(rp, o.svg) != 0 ? o.svg
                                                                                 : NULL;
        if (failed != NULL) {
            fprintf(stderr, "wayfarer demo: cannot write %s\n", failed);
            rc = EXIT_INPUT;
        }
    }
    if (rc == 0) {
        double mean = 0.0;
        for (uint32_t f = 0; f < o.frames; ++f) {
            mean += frame_ms[f] / o.frames;
        }
        qsort(frame_ms, o.frames, sizeof(double), compare_doubles);
        static const char* names[WF_CROWD_PHASE_COUNT] = {
            "phase_validate_ms",  "phase_paths_ms",      "phase_callbacks_ms",  "phase_topology_ms",
            "phase_grid_ms",      "phase_neighbours_ms", "phase_corners_ms",    "phase_steering_ms",
            "phase_avoidance_ms", "phase_integrate_ms",  "phase_collisions_ms", "phase_surface_ms",
            "phase_events_ms"};
        wf_job_system jobs = wf_world_jobs(d->world);
        report_field fields[23 + WF_CROWD_PHASE_COUNT];
        size_t n = 0;
        fields[n++] = (report_field){"level", 0.0, false, o.level != NULL ? o.level : "generated"};
        fields[n++] = (report_field){"seed", o.seed, true, NULL};
        fields[n++] = (report_field){"agents", placed, true, NULL};
        fields[n++] = (report_field){"vehicles", vehicles, true, NULL};
        fields[n++] = (report_field){"frames", o.frames, true, NULL};
        fields[n++] = (report_field){"workers", wf_jobs_worker_count(&jobs), true, NULL};
        fields[n++] = (report_field){"frame_ms_mean", mean, false, NULL};
        fields[n++] = (report_field){"frame_ms_p95", frame_ms[(size_t)ceil(0.95 * o.frames) - 1u],
                                     false, NULL};
        fields[n++] = (report_field){"tiles_ms_mean", tiles_ms / o.frames, false, NULL};
        fields[n++] = (report_field){"crowd_ms_mean", crowd_ms / o.frames, false, NULL};
        for (int k = 0; k < WF_CROWD_PHASE_COUNT; ++k) {
            fields[n++] = (report_field){names[k], phase_ms[k] / o.frames, false, NULL};
        }
        fields[n++] = (report_field){"arrivals", (double)arrivals, true, NULL};
        fields[n++] = (report_field){"replans", (double)replans, true, NULL};
        fields[n++] = (report_field){"blocked", (double)blocked, true, NULL};
        fields[n++] = (report_field){"obstacle_changes", d->obstacles_applied, true, NULL};
        if (itc.query != NULL) {
            // Reached: the crowd's ARRIVED or STOPPED_SHORT (the demo's arrivals).
            fields[n++] = (report_field){"in_time_targets", itc.targets, true, NULL};
            fields[n++] = (report_field){"in_time_reached", itc.reached, true, NULL};
            fields[n++] = (report_field){"in_time_blocked", itc.blocked, true, NULL};
            fields[n++] =
                (report_field){"in_time_blocked_partial", itc.blocked_partial, true, NULL};
            fields[n++] = (report_field){"in_time_alone_targets", itc.alone_targets, true, NULL};
            fields[n++] = (report_field){"in_time_alone_reached", itc.alone_reached, true, NULL};
        }
        fields[n++] = (report_field){"replay_file", 0.0, false, o.out};
        fields[n++] =
            (report_field){"replay_data_bytes", (double)replay_data_bytes(rp), true, NULL};
        char* class_json = classes_json(d->world);
        print_report_with(fields, n, o.json, class_json != NULL ? "classes" : NULL, class_json);
        free(class_json);
    }
    replay_destroy(rp);
    wf_query_destroy(itc.query);
    free(itc.polys);
    free(itc.points);
    free(itc.state);
    wf_query_destroy(d->query);
    wf_query_destroy(d->vehicle_query);
    wf_world_destroy(d->world);
    if (d->generated) {
        demo_level_free(&d->level);
    }
    free(d);
    free(ids);
    free(frame_ms);
    return rc;
}
