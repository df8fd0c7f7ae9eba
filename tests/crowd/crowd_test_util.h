// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Shared by the crowd tests: grid levels, a crowd on them, stepping, and a
// hash of every agent's state.
#ifndef WF_TESTS_CROWD_TEST_UTIL_H
#define WF_TESTS_CROWD_TEST_UTIL_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_meshes.h"
#include "wayfarer/crowd.h"
#include "wayfarer/jobs.h"

/// A corridor one cell (1 m) wide along z = 10 from x = 0 to 20: agents of
/// radius 0.6 cannot pass each other in it (stuck and blocked tests).
static inline wf_mesh* crowd_test_single_file_corridor(void) {
    uint8_t blocked[20 * 20];
    for (uint32_t z = 0; z < 20; ++z) {
        for (uint32_t x = 0; x < 20; ++x) {
            blocked[z * 20 + x] = z != 10;
        }
    }
    return test_mesh_grid(2, 2, 10, 1.0f, blocked, NULL, NULL);
}

/// Three tiles in x by tiles_z of cells_per_tile square cells (cell m),
/// cut by a wall one cell thick at column wall_x with one open cell at row
/// door_z: the doorway tests' level (the door's width on the navmesh is
/// one cell, what a tile cache leaves of a wider door eroded by radius).
static inline wf_mesh* crowd_test_door_mesh(uint32_t tiles_z, uint32_t cells_per_tile, float cell,
                                            uint32_t wall_x, uint32_t door_z) {
    uint32_t w = 3u * cells_per_tile, h = tiles_z * cells_per_tile;
    uint8_t* blocked = malloc((size_t)w * h);
    assert_non_null(blocked);
    for (uint32_t z = 0; z < h; ++z) {
        for (uint32_t x = 0; x < w; ++x) {
            blocked[z * w + x] = x == wall_x && z != door_z;
        }
    }
    wf_mesh* mesh = test_mesh_grid(3, tiles_z, cells_per_tile, cell, blocked, NULL, NULL);
    free(blocked);
    return mesh;
}

/// Open floor 30 m x 30 m (3 x 3 tiles of 10 one-metre cells, nothing
/// blocked): the holding and spot tests' ground.
static inline wf_mesh* crowd_test_open_mesh(void) {
    static uint8_t blocked[30 * 30];
    return test_mesh_grid(3, 3, 10, 1.0f, blocked, NULL, NULL);
}

/// A crowd desc over mesh with the documented defaults and quiet logs.
static inline wf_crowd_desc crowd_test_desc(const wf_mesh* mesh, uint32_t max_agents) {
    wf_crowd_desc d;
    memset(&d, 0, sizeof d);
    d.mesh = mesh;
    d.max_agents = max_agents;
    d.max_agent_radius = 0.6f;
    d.logger.quiet = true;
    return d;
}

/// Agent params for a 1 m cell grid: radius 0.4, speed 2, accel 8.
static inline wf_agent_params crowd_test_params(void) {
    wf_agent_params p = wf_agent_params_defaults();
    p.radius = 0.4f;
    p.max_speed = 2.0f;
    p.max_acceleration = 8.0f;
    p.collision_query_range = p.radius * 12.0f;
    p.path_optimization_range = p.radius * 30.0f;
    return p;
}

/// A crowd for max_agents on mesh, run on `jobs` (NULL: inline).
static inline wf_crowd* crowd_test_create(const wf_mesh* mesh, uint32_t max_agents,
                                          const wf_job_system* jobs) {
    wf_crowd_desc d = crowd_test_desc(mesh, max_agents);
    if (jobs != NULL) {
        d.jobs = *jobs;
    }
    wf_crowd* c = NULL;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    return c;
}

/// The two-stream tests' agent: the library's defaults at the scenarios'
/// radius (0.6 m) with the high avoidance preset.
static inline wf_agent_params crowd_test_high_params(void) {
    wf_agent_params p = wf_agent_params_defaults();
    p.radius = 0.6f;
    p.collision_query_range = p.radius * 12.0f;
    p.path_optimization_range = p.radius * 30.0f;
    p.avoidance_preset = WF_AVOIDANCE_HIGH;
    return p;
}

/// Two groups of per_side agents meeting head-on, each in `files` files
/// (1.4 m apart along, 1.2 m across, the first 1.5 m from mid_x) centred
/// on z_mid, the west group `offset` towards +z and the east one towards
/// -z; the west group walks to x = 2 mid_x - 1, the east one to x = 1.
/// ids[0, per_side) are the west group's.
static inline void crowd_test_add_files(wf_crowd* c, const wf_agent_params* p, wf_agent_id* ids,
                                        uint32_t per_side, uint32_t files, float mid_x, float z_mid,
                                        float offset) {
    for (uint32_t i = 0; i < 2u * per_side; ++i) {
        bool west = i < per_side;
        uint32_t k = i % per_side;
        float dx = 1.5f + (float)(k / files) * 1.4f;
        float z = z_mid + ((float)(k % files) - 0.5f * (float)(files - 1u)) * 1.2f +
                  (west ? offset : -offset);
        wf_vec3 start = wf_v3(west ? mid_x - dx : mid_x + dx, 0, z);
        wf_vec3 goal = wf_v3(west ? 2.0f * mid_x - 1.0f : 1.0f, 0, z);
        assert_int_equal(wf_crowd_add_agent(c, start, p, &ids[i]), WF_OK);
        assert_int_equal(wf_crowd_request_move(c, ids[i], goal, NULL, NULL), WF_OK);
    }
}

/// The scenario suite's agents (wayfarer scenarios): 0.6 m radius, 3.5 m/s.
static inline wf_agent_params crowd_test_scene_params(void) {
    wf_agent_params p = crowd_test_params();
    p.radius = 0.6f;
    p.max_speed = 3.5f;
    p.collision_query_range = p.radius * 12.0f;
    p.path_optimization_range = p.radius * 30.0f;
    return p;
}

static inline wf_agent_state crowd_test_state(const wf_crowd* crowd, wf_agent_id id) {
    wf_agent_state s;
    memset(&s, 0, sizeof s);
    assert_int_equal(wf_crowd_get_agent(crowd, id, &s), WF_OK);
    return s;
}

static inline float crowd_test_dist2d(wf_vec3 a, wf_vec3 b) {
    float dx = a.x - b.x, dz = a.z - b.z;
    return sqrtf(dx * dx + dz * dz);
}

/// FNV-1a over the bytes of every agent's position, velocity, target state
/// and corridor, in slot order.
static inline uint64_t crowd_test_hash(const wf_crowd* crowd) {
    uint64_t h = 1469598103934665603ull;
    wf_agent_id ids[4096];
    uint32_t n = wf_crowd_get_agents(crowd, ids, 4096);
    static wf_poly_ref corridor[4096];
    for (uint32_t k = 0; k < n; ++k) {
        wf_agent_state s = crowd_test_state(crowd, ids[k]);
        uint32_t count = 0;
        assert_int_equal(wf_crowd_get_corridor(crowd, ids[k], corridor, 4096, &count), WF_OK);
        const unsigned char* parts[4] = {
            (const unsigned char*)&s.position, (const unsigned char*)&s.velocity,
            (const unsigned char*)&s.target_state, (const unsigned char*)corridor};
        size_t sizes[4] = {sizeof s.position, sizeof s.velocity, sizeof s.target_state,
                           sizeof(wf_poly_ref) * s.corridor_count};
        for (int p = 0; p < 4; ++p) {
            for (size_t b = 0; b < sizes[p]; ++b) {
                h = (h ^ parts[p][b]) * 1099511628211ull;
            }
        }
    }
    return h;
}

/// Steps the crowd `seconds` at the scenarios' 30 Hz.
static inline void crowd_test_step(wf_crowd* crowd, float seconds) {
    for (int f = 0; f < (int)(seconds * 30.0f); ++f) {
        assert_int_equal(wf_crowd_update(crowd, 1.0f / 30.0f, NULL), WF_OK);
    }
}

/// The deepest overlap of two of the count agents in ids, all of radius
/// (0 when none touch): the doorway tests' worst-press measure.
static inline float crowd_test_worst_overlap(const wf_crowd* crowd, const wf_agent_id* ids,
                                             uint32_t count, float radius) {
    float worst = 0.0f;
    for (uint32_t i = 0; i < count; ++i) {
        wf_agent_state si = crowd_test_state(crowd, ids[i]);
        for (uint32_t j = i + 1; j < count; ++j) {
            wf_agent_state sj = crowd_test_state(crowd, ids[j]);
            float overlap = 2.0f * radius - crowd_test_dist2d(si.position, sj.position);
            worst = overlap > worst ? overlap : worst;
        }
    }
    return worst;
}

/// Steps the crowd until each of the count agents in ids (at most 64) has
/// got through a wall between x = west_face and east_face to its goal's
/// side, clear of the wall by radius; returns the frames (max_frames when
/// not) and, in out_overlap, the worst overlap of two agents of that
/// radius seen after the first second (doorway tests).
static inline int crowd_test_run_through_wall(wf_crowd* crowd, const wf_agent_id* ids,
                                              const wf_vec3* goals, uint32_t count, float west_face,
                                              float east_face, float radius, int max_frames,
                                              float* out_overlap) {
    bool reached[64] = {false};
    assert_true(count <= 64u);
    float worst = 0.0f;
    for (int f = 0; f < max_frames; ++f) {
        assert_int_equal(wf_crowd_update(crowd, 1.0f / 30.0f, NULL), WF_OK);
        bool all = true;
        for (uint32_t i = 0; i < count; ++i) {
            wf_agent_state si = crowd_test_state(crowd, ids[i]);
            reached[i] |= goals[i].x > east_face ? si.position.x > east_face + radius
                                                 : si.position.x < west_face - radius;
            all &= reached[i];
        }
        if (f >= 30) {
            float now = crowd_test_worst_overlap(crowd, ids, count, radius);
            worst = now > worst ? now : worst;
        }
        if (all) {
            *out_overlap = worst;
            return f + 1;
        }
    }
    *out_overlap = worst;
    return max_frames;
}

/// A room x 4..15, z 10..17 and a corridor one cell wide at x = 9 from
/// z = 0 into it (the returning-holder tests).
static inline wf_mesh* crowd_test_room_mesh(void) {
    static uint8_t blocked[20 * 20];
    for (uint32_t z = 0; z < 20; ++z) {
        for (uint32_t x = 0; x < 20; ++x) {
            bool room = x >= 4 && x <= 15 && z >= 10 && z <= 17;
            blocked[z * 20 + x] = !(room || (x == 9 && z < 10));
        }
    }
    return test_mesh_grid(2, 2, 10, 1.0f, blocked, NULL, NULL);
}

/// A crowd of rows x cols agents in single file in the room's corridor,
/// each sent to a spot of a grid from (8, first_z), step_x and step_z
/// apart: the first in line gets the spot nearest the door.
static inline wf_crowd* crowd_test_fill_room(wf_mesh* mesh, uint32_t rows, uint32_t cols,
                                             float first_z, float step_x, float step_z,
                                             wf_agent_id* id, wf_vec3* spot) {
    wf_crowd_desc d = crowd_test_desc(mesh, rows * cols);
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    for (uint32_t k = 0; k < rows * cols; ++k) {
        uint32_t row = k / cols, col = k % cols;
        spot[k] = wf_v3(8.0f + step_x * (float)col, 0, first_z + step_z * (float)row);
        assert_int_equal(wf_crowd_add_agent(c, wf_v3(9.5f, 0, 9.0f - 0.8f * (float)k), &p, &id[k]),
                         WF_OK);
        assert_int_equal(wf_crowd_request_move(c, id[k], spot[k], NULL, NULL), WF_OK);
    }
    return c;
}

/// What crowd_test_press_row measured.
typedef struct crowd_test_press {
    float worst;     ///< worst overlap of two neighbours in the row after 1 s
    float settled;   ///< the same after 1.5 s (a first impact over)
    wf_vec3 first;   ///< the first agent's position at the end
    float first_low; ///< its lowest x or z over the run (0 at most)
} crowd_test_press;

/// Agent 0 stands at `at` on open 20 m floor (2 x 2 tiles of 1 m cells)
/// and leans along `lean`; `pressers` (1-3) more stand behind it in a row
/// 1.3 m apart along `angle` (radians from -x towards -z) and walk back
/// down the row at `speed`, every agent steered by velocity with avoidance
/// and separation off (nothing but the collision passes keeps them apart),
/// for three seconds at 30 Hz (the wall and corner press tests).
static inline crowd_test_press crowd_test_press_row(wf_vec3 at, wf_vec3 lean, uint32_t pressers,
                                                    float angle, float speed) {
    wf_mesh* mesh = test_mesh_grid(2, 2, 10, 1.0f, NULL, NULL, NULL);
    assert_non_null(mesh);
    wf_crowd_desc d = crowd_test_desc(mesh, 8);
    wf_crowd* c;
    assert_int_equal(wf_crowd_create(&d, &c), WF_OK);
    wf_agent_params p = crowd_test_params();
    p.radius = 0.6f;
    p.max_speed = 3.5f;
    p.update_flags = 0;
    wf_agent_id ids[4];
    assert_true(pressers >= 1 && pressers < 4);
    float dx = cosf(angle), dz = sinf(angle);
    for (uint32_t k = 0; k <= pressers; ++k) {
        float along = 1.3f * (float)k;
        assert_int_equal(
            wf_crowd_add_agent(c, wf_v3(at.x + along * dx, 0, at.z + along * dz), &p, &ids[k]),
            WF_OK);
    }
    crowd_test_press out = {.worst = 0.0f, .settled = 0.0f, .first_low = 0.0f};
    for (int f = 0; f < 3 * 30; ++f) {
        assert_int_equal(wf_crowd_request_velocity(c, ids[0], lean), WF_OK);
        for (uint32_t a = 1; a <= pressers; ++a) {
            assert_int_equal(
                wf_crowd_request_velocity(c, ids[a], wf_v3(-speed * dx, 0, -speed * dz)), WF_OK);
        }
        assert_int_equal(wf_crowd_update(c, 1.0f / 30.0f, NULL), WF_OK);
        for (uint32_t a = 0; a < pressers; ++a) {
            wf_agent_state s0 = crowd_test_state(c, ids[a]), s1 = crowd_test_state(c, ids[a + 1]);
            float overlap = 2.0f * p.radius - crowd_test_dist2d(s0.position, s1.position);
            if (f >= 30 && overlap > out.worst) {
                out.worst = overlap;
            }
            if (f >= 45 && overlap > out.settled) {
                out.settled = overlap;
            }
        }
        out.first = crowd_test_state(c, ids[0]).position;
        out.first_low = fminf(out.first_low, fminf(out.first.x, out.first.z));
    }
    wf_crowd_destroy(c);
    wf_mesh_destroy(mesh);
    return out;
}

/// Two streams along x: ids[0..west) walk east, the rest west. Runs
/// `frames` updates of 1/30 s and returns how many got through: an
/// eastbound agent past east_line, a westbound one past west_line (each
/// counted once); out_overlap: the worst overlap of two agents of `radius`
/// from update `overlap_from` on.
static inline uint32_t crowd_test_run_streams(wf_crowd* c, const wf_agent_id* ids, uint32_t n,
                                              uint32_t west, float east_line, float west_line,
                                              float radius, int frames, int overlap_from,
                                              float* out_overlap) {
    bool* through = calloc(n, sizeof *through);
    assert_non_null(through);
    float worst = 0.0f;
    uint32_t count = 0;
    for (int f = 0; f < frames; ++f) {
        assert_int_equal(wf_crowd_update(c, 1.0f / 30.0f, NULL), WF_OK);
        for (uint32_t i = 0; i < n; ++i) {
            wf_agent_state si = crowd_test_state(c, ids[i]);
            bool done = i < west ? si.position.x > east_line : si.position.x < west_line;
            count += done && !through[i];
            through[i] |= done;
            for (uint32_t j = i + 1; j < n && f >= overlap_from; ++j) {
                wf_agent_state sj = crowd_test_state(c, ids[j]);
                float overlap = 2.0f * radius - crowd_test_dist2d(si.position, sj.position);
                worst = overlap > worst ? overlap : worst;
            }
        }
    }
    free(through);
    *out_overlap = worst;
    return count;
}

/// A crowd run on a job system (NULL: inline) that returns the crowd's
/// hash at its end.
typedef uint64_t (*crowd_test_hashed_run)(const wf_job_system* jobs);

/// Runs `run` inline, then on pools of 2 and 4 workers, and asserts the
/// same hash each time: results never depend on the worker count.
static inline void crowd_test_same_for_workers(crowd_test_hashed_run run) {
    uint64_t inline_hash = run(NULL);
    for (uint32_t workers = 2; workers <= 4; workers += 2) {
        wf_thread_pool* pool = NULL;
        wf_thread_pool_desc pd = {0};
        pd.thread_count = workers - 1u;
        assert_int_equal(wf_thread_pool_create(&pd, &pool), WF_OK);
        wf_job_system jobs = wf_thread_pool_job_system(pool);
        assert_true(run(&jobs) == inline_hash);
        wf_thread_pool_destroy(pool);
    }
}

#endif
