// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The replay recorder (tools/replay.c): a crowd of 50 on a small grid for
// 100 frames with a few obstacles, written as HTML and SVG, and the files
// checked (no network reference, the data inline, sane sizes). The files
// stay in the output directory for the browser test (viewer_test.sh).
//
//     tools_replay [OUT_DIR] [--big]
// OUT_DIR: where replay.html / replay.svg go (else $WF_REPLAY_OUT, else .).
// --big: also records 1000 agents x 1000 frames and prints the sizes.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "../crowd/crowd_test_util.h"
#include "tools/replay.h"

#define DT (1.0f / 30.0f)

static const char* out_dir = ".";
static bool run_big = false;

static double now_ms(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static uint32_t next_random(uint32_t* s) {
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static float random_in(uint32_t* s, float lo, float hi) {
    return lo + (hi - lo) * (float)(next_random(s) & 0xffffu) / 65535.0f;
}

static char* read_all(const char* path, size_t* out_size) {
    FILE* f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char* data = n >= 0 ? malloc((size_t)n + 1u) : NULL;
    if (data != NULL && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    if (data != NULL) {
        data[n] = 0;
        *out_size = (size_t)n;
    }
    return data;
}

static void out_path(char* buf, size_t size, const char* name) {
    snprintf(buf, size, "%s/%s", out_dir, name);
}

/// A walled grid level, a crowd wandering to random cells (a new target on
/// every arrival), recorded frame by frame with the obstacles in `obs`
/// standing from frame obs_from[i] to obs_to[i].
typedef struct scenario {
    uint32_t tiles, agents, frames, stride, max_frames;
    const wf_obstacle_desc* obs;
    const uint32_t* obs_from;
    const uint32_t* obs_to;
    uint32_t obs_count;
    uint32_t remove_at; ///< frame at which agent 10 leaves (0: never)
} scenario;

static replay* record(const scenario* sc, double* out_ms) {
    const uint32_t cells = 10, side = sc->tiles * cells;
    uint8_t* blocked = calloc((size_t)side * side, 1);
    assert_non_null(blocked);
    // A wall down the middle with two gaps, so paths bend.
    for (uint32_t z = 0; z < side; ++z) {
        blocked[z * side + side / 2] = z != side / 4 && z != 3 * side / 4;
    }
    wf_mesh* mesh = test_mesh_grid(sc->tiles, sc->tiles, cells, 1.0f, blocked, NULL, NULL);
    assert_non_null(mesh);
    wf_crowd_desc cd = crowd_test_desc(mesh, sc->agents);
    wf_crowd* crowd = NULL;
    assert_int_equal(wf_crowd_create(&cd, &crowd), WF_OK);
    wf_agent_params p = crowd_test_params();
    wf_agent_id* ids = malloc(sizeof *ids * sc->agents);
    assert_non_null(ids);
    uint32_t seed = 12345, count = 0;
    while (count < sc->agents) {
        uint32_t cx = next_random(&seed) % side, cz = next_random(&seed) % side;
        if (blocked[cz * side + cx]) {
            continue;
        }
        wf_vec3 at = wf_v3((float)cx + 0.5f, 0, (float)cz + 0.5f);
        assert_int_equal(wf_crowd_add_agent(crowd, at, &p, &ids[count]), WF_OK);
        wf_vec3 goal = wf_v3(random_in(&seed, 0.5f, (float)side - 0.5f), 0,
                             random_in(&seed, 0.5f, (float)side - 0.5f));
        wf_status s = wf_crowd_request_move(crowd, ids[count], goal, NULL, NULL);
        assert_true(s == WF_OK || s == WF_ERR_NOT_FOUND || s == WF_ERR_CAPACITY);
        count++;
    }
    replay_desc rd = {.max_agents = sc->agents,
                      .max_frames = sc->max_frames,
                      .frame_stride = sc->stride,
                      .dt = DT,
                      .title = "replay test <50 agents> & co"};
    replay* r = replay_create(&rd);
    assert_non_null(r);
    assert_int_equal(replay_set_mesh(r, mesh), 0);
    wf_obstacle_desc* standing = malloc(sizeof *standing * (sc->obs_count + 1u));
    assert_non_null(standing);
    double record_ms = 0.0;
    for (uint32_t f = 0; f < sc->frames; ++f) {
        if (sc->remove_at != 0 && f == sc->remove_at && count > 10) {
            assert_int_equal(wf_crowd_remove_agent(crowd, ids[10]), WF_OK);
            memmove(&ids[10], &ids[11], sizeof *ids * (count - 11u));
            count--;
        }
        wf_crowd_profile prof;
        double t0 = now_ms();
        assert_int_equal(wf_crowd_update(crowd, DT, &prof), WF_OK);
        double crowd_ms = now_ms() - t0;
        uint32_t n_events = 0, arrivals = 0;
        const wf_crowd_event* ev = wf_crowd_events(crowd, &n_events);
        for (uint32_t i = 0; i < n_events; ++i) {
            if (ev[i].kind == WF_CROWD_EVENT_ARRIVED ||
                ev[i].kind == WF_CROWD_EVENT_STOPPED_SHORT) {
                arrivals++;
                wf_vec3 goal = wf_v3(random_in(&seed, 0.5f, (float)side - 0.5f), 0,
                                     random_in(&seed, 0.5f, (float)side - 0.5f));
                wf_status s = wf_crowd_request_move(crowd, ev[i].agent, goal, NULL, NULL);
                assert_true(s == WF_OK || s == WF_ERR_NOT_FOUND || s == WF_ERR_CAPACITY);
            }
        }
        uint32_t standing_count = 0;
        for (uint32_t i = 0; i < sc->obs_count; ++i) {
            if (f >= sc->obs_from[i] && f < sc->obs_to[i]) {
                standing[standing_count++] = sc->obs[i];
            }
        }
        uint32_t blocked_agents = 0;
        for (uint32_t i = 0; i < count; ++i) {
            blocked_agents += crowd_test_state(crowd, ids[i]).target_state == WF_TARGET_BLOCKED;
        }
        replay_stats st = {.frame_ms = crowd_ms + 0.1,
                           .tiles_ms = 0.1,
                           .crowd_ms = crowd_ms,
                           .arrivals = arrivals,
                           .replans = prof.replans,
                           .blocked = blocked_agents,
                           .obstacles = standing_count,
                           .paths_queued = prof.paths_queued};
        double r0 = now_ms();
        assert_int_equal(
            replay_add_frame(r, crowd, mesh, ids, count, standing, standing_count, &st), 0);
        record_ms += now_ms() - r0;
    }
    *out_ms = record_ms;
    free(standing);
    free(ids);
    wf_crowd_destroy(crowd);
    wf_mesh_destroy(mesh);
    free(blocked);
    return r;
}

static bool contains(const char* text, const char* what) { return strstr(text, what) != NULL; }

static const wf_obstacle_desc small_obstacles[] = {
    {.shape = WF_OBSTACLE_CYLINDER, .position = {6.0f, 0, 6.0f}, .radius = 1.0f, .height = 1.0f},
    {.shape = WF_OBSTACLE_BOX, .position = {22.0f, 0, 8.0f}, .half_extents = {1.5f, 1.0f, 0.5f}},
    {.shape = WF_OBSTACLE_ORIENTED_BOX,
     .paint = true,
     .area = 5,
     .position = {15.0f, 0, 7.5f},
     .half_extents = {0.2f, 1.0f, 0.6f},
     .yaw = 0.4f},
    {.shape = WF_OBSTACLE_PRISM,
     .position = {8.0f, 0, 22.0f},
     .height = 1.0f,
     .verts = {{7.0f, 0, 21.0f}, {9.5f, 0, 21.5f}, {8.0f, 0, 23.5f}},
     .vert_count = 3},
};
static const uint32_t small_from[] = {0, 0, 30, 60};
static const uint32_t small_to[] = {80, 1000, 1000, 1000};

static void test_small_crowd_html_and_svg(void** state) {
    (void)state;
    scenario sc = {.tiles = 3,
                   .agents = 50,
                   .frames = 100,
                   .stride = 1,
                   .max_frames = 100,
                   .obs = small_obstacles,
                   .obs_from = small_from,
                   .obs_to = small_to,
                   .obs_count = 4,
                   .remove_at = 50};
    double ms;
    replay* r = record(&sc, &ms);
    char html_path[1024], svg_path[1024];
    out_path(html_path, sizeof html_path, "replay.html");
    out_path(svg_path, sizeof svg_path, "replay.svg");
    assert_int_equal(replay_write_html(r, html_path), 0);
    assert_int_equal(replay_write_svg(r, svg_path), 0);
    size_t data_bytes = replay_data_bytes(r);
    replay_destroy(r);

    size_t html_size = 0, svg_size = 0;
    char* html = read_all(html_path, &html_size);
    char* svg = read_all(svg_path, &svg_size);
    assert_non_null(html);
    assert_non_null(svg);
    printf("50 agents x 100 frames: html %zu bytes (data %zu in base64), svg %zu bytes, "
           "recording %.2f ms\n",
           html_size, data_bytes, svg_size, ms);
    // Self-contained: nothing fetched from anywhere.
    assert_false(contains(html, "http://"));
    assert_false(contains(html, "https://"));
    assert_false(contains(html, "<link rel=\"stylesheet\""));
    assert_false(contains(html, "src="));
    assert_true(contains(html, "<!DOCTYPE html>"));
    assert_true(contains(html, "<canvas id=\"view\""));
    assert_true(contains(html, "<script id=\"meta\" type=\"application/json\">"));
    assert_true(contains(html, "<script id=\"data\""));
    assert_true(contains(html, "\"frames\":100,"));
    assert_true(contains(html, "\"columns\":50,"));
    assert_true(contains(html, "\"polys\":"));
    assert_true(contains(html, "\"obstacleSets\":4,")); // 2, 3, 4, then 3 standing
    // Every agent's path ahead, recorded when it changes: at least once per
    // agent, far fewer than once per agent and frame.
    assert_true(contains(html, "\"version\":2,"));
    assert_true(contains(html, "\"layers\":[0],"));
    assert_true(contains(html, "\"pathsTruncated\":false"));
    const char* records_at = strstr(html, "\"pathRecords\":");
    assert_non_null(records_at);
    unsigned long records = strtoul(records_at + strlen("\"pathRecords\":"), NULL, 10);
    printf("path records: %lu for 50 agents x 100 frames\n", records);
    assert_true(records >= 50u && records < 50u * 100u / 4u);
    // The title is escaped in both places it goes.
    assert_true(contains(html, "replay test &lt;50 agents&gt; &amp; co"));
    assert_true(contains(html, "replay test \\u003c50 agents\\u003e \\u0026 co"));
    assert_false(contains(html, "<50 agents>"));
    assert_true(data_bytes > 1000);
    assert_true(data_bytes < html_size);
    assert_true(html_size > 20000 && html_size < 1000000);
    // The SVG: one picture with polygons (mesh, boxes), circles (agents, crate).
    assert_true(strncmp(svg, "<svg ", 5) == 0);
    assert_true(contains(svg, "xmlns=\"http://www.w3.org/2000/svg\""));
    assert_true(contains(svg, "<polygon "));
    assert_true(contains(svg, "<circle "));
    assert_true(contains(svg, "#00c8ff") || contains(svg, "#00e060") || contains(svg, "#ffd400"));
    assert_true(strcmp(svg + svg_size - 7, "</svg>\n") == 0);
    // A shown title, a legend, a scale bar; the painted box hatched apart
    // from the carved ones.
    assert_true(contains(svg, "<text id=\"title\""));
    assert_true(contains(svg, "<g id=\"legend\""));
    assert_true(contains(svg, "<g id=\"scale\""));
    assert_true(contains(svg, "class=\"painted\" fill=\"url(#paint)\""));
    assert_true(contains(svg, "class=\"carved\""));
    assert_true(svg_size > 10000 && svg_size < 1000000);
    size_t circles = 0;
    for (const char* p = svg; (p = strstr(p, "<circle ")) != NULL; ++p) {
        circles++;
    }
    assert_int_equal(circles, 49u); // 49 agents (one left at frame 50), the crate is gone
    free(html);
    free(svg);
}

static void test_stride_and_frame_limit(void** state) {
    (void)state;
    scenario sc = {.tiles = 2,
                   .agents = 20,
                   .frames = 50,
                   .stride = 3,
                   .max_frames = 10,
                   .obs = small_obstacles,
                   .obs_from = small_from,
                   .obs_to = small_to,
                   .obs_count = 2};
    double ms;
    replay* r = record(&sc, &ms);
    char path[1024];
    out_path(path, sizeof path, "replay_stride.html");
    assert_int_equal(replay_write_html(r, path), 0);
    replay_destroy(r);
    size_t size = 0;
    char* html = read_all(path, &size);
    assert_non_null(html);
    assert_true(contains(html, "\"frames\":10,"));     // kept: 0, 3, ..., 27
    assert_true(contains(html, "\"framesSeen\":50,")); // counted
    assert_true(contains(html, "\"stride\":3,"));
    assert_true(contains(html, "\"obstacleSets\":1,"));
    free(html);
}

static void test_empty_and_bad_arguments(void** state) {
    (void)state;
    assert_null(replay_create(NULL));
    assert_null(replay_create(&(replay_desc){.max_agents = 0, .max_frames = 5}));
    assert_null(replay_create(&(replay_desc){.max_agents = 5, .max_frames = 0}));
    replay* r = replay_create(&(replay_desc){.max_agents = 4, .max_frames = 4});
    assert_non_null(r);
    assert_int_equal(replay_set_mesh(r, NULL), -1);
    assert_int_equal(replay_add_frame(r, NULL, NULL, NULL, 0, NULL, 0, NULL), -1);
    // Nothing recorded: still a valid (empty) page and picture.
    char path[1024];
    out_path(path, sizeof path, "replay_empty.html");
    assert_int_equal(replay_write_html(r, path), 0);
    out_path(path, sizeof path, "replay_empty.svg");
    assert_int_equal(replay_write_svg(r, path), 0);
    assert_int_equal(replay_write_html(r, "/no-such-dir/x.html"), -1);
    replay_destroy(r);
    replay_destroy(NULL);
}

/// One square tile of 10 x 10 m at height y on a layer.
static void add_square_tile(wf_mesh* mesh, int32_t layer, float y, float lo, float hi) {
    const float verts[12] = {lo, y, lo, lo, y, hi, hi, y, hi, hi, y, lo};
    const uint16_t polys[WF_MAX_VERTS_PER_POLY] = {0, 1, 2, 3, WF_NULL_INDEX, WF_NULL_INDEX};
    wf_tile_build_desc d = {.layer = layer,
                            .bmin = {0, y - 0.5f, 0},
                            .bmax = {10, y + 0.5f, 10},
                            .verts = verts,
                            .vert_count = 4,
                            .polys = polys,
                            .poly_count = 1,
                            .walkable_height = 2,
                            .walkable_radius = 0.4f,
                            .walkable_climb = 0.5f};
    void* blob = NULL;
    size_t size = 0;
    assert_int_equal(wf_tile_build(&d, &blob, &size), WF_OK);
    wf_tile_ref ref;
    assert_int_equal(
        wf_mesh_add_tile(mesh, blob, size, WF_TILE_MESH_OWNS_DATA, (wf_tile_ref){0}, &ref), WF_OK);
}

static void test_layers_keep_their_colour(void** state) {
    (void)state;
    // A floor and a balcony above part of it, in one grid cell.
    wf_mesh* mesh = NULL;
    wf_mesh_desc md = {.tile_width = 10, .tile_depth = 10, .max_tiles = 4};
    md.logger.quiet = true;
    assert_int_equal(wf_mesh_create(&md, &mesh), WF_OK);
    add_square_tile(mesh, 0, 0.0f, 0.0f, 10.0f);
    add_square_tile(mesh, 1, 4.0f, 2.0f, 6.0f);
    replay* r = replay_create(&(replay_desc){.max_agents = 1, .max_frames = 1});
    assert_non_null(r);
    assert_int_equal(replay_set_mesh(r, mesh), 0);
    char path[1024];
    out_path(path, sizeof path, "replay_layers.svg");
    assert_int_equal(replay_write_svg(r, path), 0);
    out_path(path, sizeof path, "replay_layers.html");
    assert_int_equal(replay_write_html(r, path), 0);
    replay_destroy(r);
    wf_mesh_destroy(mesh);
    size_t size = 0;
    out_path(path, sizeof path, "replay_layers.svg");
    char* svg = read_all(path, &size);
    assert_non_null(svg);
    // Layer 0 (hue 210) first, then layer 1 (hue 35) two bands higher on top.
    const char* floor = strstr(svg, "hsl(210,22%,52%)");
    const char* balcony = strstr(svg, "hsl(35,22%,64%)");
    assert_non_null(floor);
    assert_non_null(balcony);
    assert_true(floor < balcony);
    assert_true(contains(svg, "points=\"2.00,2.00 2.00,6.00 6.00,6.00 6.00,2.00\""));
    free(svg);
    out_path(path, sizeof path, "replay_layers.html");
    char* html = read_all(path, &size);
    assert_non_null(html);
    assert_true(contains(html, "\"polys\":2,"));
    assert_true(contains(html, "\"frames\":0,"));
    free(html);
}

/// 1000 agents x 1000 frames on a 100 m grid (with --big only: ~a minute).
static void test_big(void** state) {
    (void)state;
    if (!run_big) {
        skip();
    }
    scenario sc = {.tiles = 10,
                   .agents = 1000,
                   .frames = 1000,
                   .stride = 1,
                   .max_frames = 1000,
                   .obs = small_obstacles,
                   .obs_from = small_from,
                   .obs_to = small_to,
                   .obs_count = 4};
    double ms;
    double t0 = now_ms();
    replay* r = record(&sc, &ms);
    double t1 = now_ms();
    char path[1024];
    out_path(path, sizeof path, "replay_big.html");
    assert_int_equal(replay_write_html(r, path), 0);
    double t2 = now_ms();
    out_path(path, sizeof path, "replay_big.svg");
    assert_int_equal(replay_write_svg(r, path), 0);
    size_t data = replay_data_bytes(r);
    replay_destroy(r);
    out_path(path, sizeof path, "replay_big.html");
    size_t size = 0;
    char* html = read_all(path, &size);
    assert_non_null(html);
    const char* raw = strstr(html, "\"rawBytes\":");
    printf("1000 agents x 1000 frames: html %zu bytes, data %zu (base64), %.40s; "
           "run %.0f ms (recording %.0f ms), write %.0f ms\n",
           size, data, raw != NULL ? raw : "", t1 - t0, ms, t2 - t1);
    assert_true(size < 10u * 1000u * 1000u);
    free(html);
}

int main(int argc, char** argv) {
    const char* env = getenv("WF_REPLAY_OUT");
    if (env != NULL && env[0] != 0) {
        out_dir = env;
    }
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--big") == 0) {
            run_big = true;
        } else {
            out_dir = argv[i];
        }
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_crowd_html_and_svg),
        cmocka_unit_test(test_stride_and_frame_limit),
        cmocka_unit_test(test_empty_and_bad_arguments),
        cmocka_unit_test(test_layers_keep_their_colour),
        cmocka_unit_test(test_big),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
