// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// A scene over the ten runs of `wayfarer scenarios --runs 10 --seed S`
// (seeds S..S+9, formations jittered 0.15 m), for the crowd tests that
// judge a scene the way docs/benchmarks.md does. Include after cmocka.h.
#ifndef WF_TESTS_TOOLS_TEN_RUNS_H
#define WF_TESTS_TOOLS_TEN_RUNS_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tools/crowd_scenes.h"

typedef struct ten_runs {
    double arrived_60; ///< mean share arrived by 60 s
    double holding;    ///< of the arrived agents, those within the arrival radius at the end
    double worst;      ///< worst overlap after the first 2 s (m)
} ten_runs;

static inline ten_runs over_ten_runs(const char* scene_name, uint32_t first_seed) {
    ten_runs r = {0.0, 0.0, 0.0};
    uint32_t arrived = 0, within = 0;
    for (uint32_t seed = first_seed; seed < first_seed + 10u; ++seed) {
        scene_settings st;
        memset(&st, 0, sizeof st);
        st.avoidance = WF_AVOIDANCE_HIGH;
        st.seed = seed;
        st.jitter = 0.15f; // as `--runs` jitters formations
        st.testdata = WF_TESTDATA_DIR;
        scene s;
        scene_metrics m;
        assert_int_equal(scene_build(scene_name, &st, &s), 0);
        assert_int_equal(scene_run(&s, &st, &m), 0);
        scene_free(&s);
        r.arrived_60 += m.arrived_60 / 10.0;
        arrived += m.arrived;
        within += m.arrived_within_at_end;
        r.worst = m.worst_overlap_after_2s > r.worst ? m.worst_overlap_after_2s : r.worst;
    }
    assert_true(arrived > 0u);
    r.holding = (double)within / (double)arrived;
    printf("%s, seeds %u-%u: arrived %.1f %%, holding %.1f %%, worst overlap %.3f m\n", scene_name,
           first_seed, first_seed + 9u, 100.0 * r.arrived_60, 100.0 * r.holding, r.worst);
    return r;
}

#endif
