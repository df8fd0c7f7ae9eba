// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Velocity-sampling avoidance (crowd/avoidance.c): the desired velocity when
// nothing is near, the speed limit, passing on the right, static neighbours,
// walls, priorities, range adaption, determinism, the grid pattern and the
// parameter checks.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "crowd/avoidance.h"
#include "wayfarer/rng.h"

#define MAX_SPEED 3.5f
#define RADIUS 0.6f

static wf_avoid_agent make_agent(float x, float z, float dvx, float dvz) {
    wf_avoid_agent a;
    memset(&a, 0, sizeof a);
    a.pos = wf_v3(x, 0.0f, z);
    a.desired_vel = wf_v3(dvx, 0.0f, dvz);
    a.vel = a.desired_vel;
    a.radius = RADIUS;
    a.max_speed = MAX_SPEED;
    return a;
}

static wf_avoid_neighbour as_neighbour(const wf_avoid_agent* a) {
    wf_avoid_neighbour n;
    memset(&n, 0, sizeof n);
    n.pos = a->pos;
    n.vel = a->vel;
    n.radius = a->radius;
    n.rank = a->rank;
    return n;
}

static wf_avoidance_params high(void) { return wf_avoidance_preset(WF_AVOIDANCE_HIGH); }

/// Time until two circles (radius sum rsum) touch, p from self to the other,
/// v self's velocity relative to the other; INFINITY when they never do.
/// Written independently of the library (plain quadratic).
static float time_to_impact(wf_vec3 p, wf_vec3 v, float rsum) {
    float a = v.x * v.x + v.z * v.z;
    float b = v.x * p.x + v.z * p.z;
    float c = p.x * p.x + p.z * p.z - rsum * rsum;
    if (c <= 0.0f) {
        return 0.0f;
    }
    float disc = b * b - a * c;
    if (a <= 0.0f || b <= 0.0f || disc <= 0.0f) {
        return INFINITY;
    }
    return (b - sqrtf(disc)) / a;
}

/// Reciprocal impact time of self choosing v against a neighbour (equal
/// priorities: each takes half).
static float reciprocal_impact(const wf_avoid_agent* self, wf_vec3 v, const wf_avoid_neighbour* n) {
    wf_vec3 p = wf_v3_sub(n->pos, self->pos);
    wf_vec3 vr = wf_v3_sub(wf_v3_sub(wf_v3_scale(v, 2.0f), self->vel), n->vel);
    return time_to_impact(p, vr, self->radius + n->radius);
}

static float speed(wf_vec3 v) { return sqrtf(v.x * v.x + v.z * v.z); }

static void test_no_obstacles_gives_desired(void** state) {
    (void)state;
    wf_avoidance_params p = high();
    wf_avoid_agent self = make_agent(1.0f, 2.0f, 1.25f, -2.5f);
    self.vel = wf_v3(0.0f, 0.0f, 0.0f);
    uint32_t samples = 99u;
    wf_vec3 v = wf_avoidance_sample(&p, &self, NULL, 0u, NULL, 0u, &samples);
    assert_true(wf_v3_equal(v, wf_v3(1.25f, 0.0f, -2.5f)));
    assert_int_equal(samples, 0u);

    // Obstacles out of reach within the horizon change nothing either.
    wf_avoid_neighbour far = {.pos = wf_v3(200.0f, 0.0f, 0.0f), .radius = RADIUS};
    wf_vec3 wall[2] = {wf_v3(-300.0f, 0.0f, 100.0f), wf_v3(300.0f, 0.0f, 100.0f)};
    v = wf_avoidance_sample(&p, &self, &far, 1u, wall, 1u, &samples);
    assert_true(wf_v3_equal(v, wf_v3(1.25f, 0.0f, -2.5f)));
    assert_int_equal(samples, 0u);

    // A desired velocity above max_speed is clamped (direction kept).
    self.desired_vel = wf_v3(0.0f, 5.0f, 10.0f);
    v = wf_avoidance_sample(&p, &self, NULL, 0u, NULL, 0u, NULL);
    assert_true(fabsf(v.z - MAX_SPEED) <= 1e-5f);
    assert_true(v.x == 0.0f && v.y == 0.0f);
}

static void test_never_exceeds_max_speed(void** state) {
    (void)state;
    wf_rng rng = wf_rng_make(20260611u, 3u);
    wf_avoidance_params presets[5];
    for (int q = 0; q < 4; ++q) {
        presets[q] = wf_avoidance_preset((wf_avoidance_quality)q);
    }
    presets[4] = high();
    presets[4].adaptive_divisions = 0;
    presets[4].grid_size = 9;
    presets[4].velocity_bias = 0.0f; // the square reaches past the disc
    for (int iter = 0; iter < 2000; ++iter) {
        wf_avoidance_params p = presets[iter % 5];
        p.min_range_scale = wf_rng_range(&rng, 0.05f, 1.0f);
        wf_avoid_agent self = make_agent(0.0f, 0.0f, wf_rng_range(&rng, -8.0f, 8.0f),
                                         wf_rng_range(&rng, -8.0f, 8.0f));
        self.vel = wf_v3(wf_rng_range(&rng, -4.0f, 4.0f), 0.0f, wf_rng_range(&rng, -4.0f, 4.0f));
        self.max_speed = wf_rng_range(&rng, 0.1f, 6.0f);
        self.rank = (uint32_t)wf_rng_below(&rng, 3u);
        wf_avoid_neighbour nbs[6];
        uint32_t nn = wf_rng_below(&rng, 7u);
        for (uint32_t i = 0; i < nn; ++i) {
            float px = wf_rng_range(&rng, -5.0f, 5.0f), pz = wf_rng_range(&rng, -5.0f, 5.0f);
            float vx = wf_rng_range(&rng, -4.0f, 4.0f), vz = wf_rng_range(&rng, -4.0f, 4.0f);
            nbs[i].pos = wf_v3(px, 0.0f, pz);
            nbs[i].vel = wf_v3(vx, 0.0f, vz);
            nbs[i].radius = wf_rng_range(&rng, 0.2f, 1.0f);
            nbs[i].rank = (uint32_t)wf_rng_below(&rng, 3u);
        }
        wf_vec3 walls[16];
        uint32_t nw = wf_rng_below(&rng, 9u);
        for (uint32_t i = 0; i < 2u * nw; ++i) {
            float x = wf_rng_range(&rng, -6.0f, 6.0f), z = wf_rng_range(&rng, -6.0f, 6.0f);
            walls[i] = wf_v3(x, 0.0f, z);
        }
        uint32_t samples = 0;
        wf_vec3 v = wf_avoidance_sample(&p, &self, nbs, nn, walls, nw, &samples);
        if (!(wf_v3_is_finite(v) && v.y == 0.0f && speed(v) <= self.max_speed * 1.00001f)) {
            fail_msg("case %d: (%g, %g, %g) with max_speed %g", iter, (double)v.x, (double)v.y,
                     (double)v.z, (double)self.max_speed);
        }
    }
}

static void test_head_on_passes_on_the_right(void** state) {
    (void)state;
    wf_avoidance_params p = high();
    // Several headings: "right" must not depend on the world axes.
    static const float headings[][2] = {
        {1.0f, 0.0f}, {0.0f, 1.0f}, {-1.0f, 0.0f}, {0.6f, -0.8f}, {-0.28f, 0.96f}};
    for (size_t h = 0; h < sizeof headings / sizeof headings[0]; ++h) {
        float fx = headings[h][0], fz = headings[h][1];
        wf_avoid_agent a = make_agent(0.0f, 0.0f, fx * 3.0f, fz * 3.0f);
        wf_avoid_agent b = make_agent(fx * 6.0f, fz * 6.0f, -fx * 3.0f, -fz * 3.0f);
        wf_avoid_neighbour nb = as_neighbour(&b), na = as_neighbour(&a);
        wf_vec3 va = wf_avoidance_sample(&p, &a, &nb, 1u, NULL, 0u, NULL);
        wf_vec3 vb = wf_avoidance_sample(&p, &b, &na, 1u, NULL, 0u, NULL);
        // Right of the heading f is (-f.z, f.x) on XZ (facing +X, +Z is right).
        float side_a = -va.x * fz + va.z * fx;
        float side_b = vb.x * fz - vb.z * fx; // b faces -f
        if (!(side_a > 0.1f && side_b > 0.1f)) {
            fail_msg("heading %zu: lateral a %g, b %g (both should go right)", h, (double)side_a,
                     (double)side_b);
        }
        // And the impact comes later than at the desired velocity (or never).
        float before = reciprocal_impact(&a, a.desired_vel, &nb);
        float after = reciprocal_impact(&a, va, &nb);
        assert_true(before < 2.0f);
        assert_true(after > before);
    }
}

static void test_pass_on_the_right_moves_both_apart(void** state) {
    (void)state;
    // Two agents run the avoidance every step against each other: they
    // must pass without touching, each on its own right.
    wf_avoidance_params p = high();
    wf_avoid_agent a = make_agent(0.0f, 0.0f, 3.0f, 0.0f);
    wf_avoid_agent b = make_agent(12.0f, 0.0f, -3.0f, 0.0f);
    float min_dist = INFINITY;
    const float dt = 0.05f;
    for (int step = 0; step < 120; ++step) {
        wf_avoid_neighbour nb = as_neighbour(&b), na = as_neighbour(&a);
        wf_vec3 va = wf_avoidance_sample(&p, &a, &nb, 1u, NULL, 0u, NULL);
        wf_vec3 vb = wf_avoidance_sample(&p, &b, &na, 1u, NULL, 0u, NULL);
        a.vel = va;
        b.vel = vb;
        a.pos = wf_v3_mad(a.pos, va, dt);
        b.pos = wf_v3_mad(b.pos, vb, dt);
        float d = wf_v2_distance(a.pos, b.pos);
        min_dist = d < min_dist ? d : min_dist;
        if (a.pos.x > b.pos.x) {
            // Passed: a (heading +X) is on the +Z side, its right.
            assert_true(a.pos.z > b.pos.z);
        }
    }
    assert_true(a.pos.x > b.pos.x + 2.0f);
    assert_true(min_dist >= 2.0f * RADIUS * 0.98f);
}

static void test_static_neighbour_ahead_is_avoided(void** state) {
    (void)state;
    wf_avoidance_params p = high();
    wf_avoid_agent a = make_agent(0.0f, 0.0f, 3.0f, 0.0f);
    wf_avoid_neighbour still = {.pos = wf_v3(5.0f, 0.0f, 0.0f), .radius = RADIUS};
    // The first choice already turns away and delays the impact.
    wf_vec3 v = wf_avoidance_sample(&p, &a, &still, 1u, NULL, 0u, NULL);
    assert_true(fabsf(v.z) > 0.1f);
    assert_true(reciprocal_impact(&a, v, &still) > reciprocal_impact(&a, a.desired_vel, &still));
    // And walking on (the neighbour never moves, so it takes none of the
    // avoiding it is credited with) still gets past without touching.
    float min_dist = INFINITY;
    for (int step = 0; step < 100; ++step) {
        v = wf_avoidance_sample(&p, &a, &still, 1u, NULL, 0u, NULL);
        a.vel = v;
        a.pos = wf_v3_mad(a.pos, v, 0.05f);
        float d = wf_v2_distance(a.pos, still.pos);
        min_dist = d < min_dist ? d : min_dist;
    }
    assert_true(a.pos.x > still.pos.x + 1.0f);
    assert_true(min_dist >= 2.0f * RADIUS * 0.95f);
}

/// Walls bound where the centre may go; against them the agent is a circle
/// of the skin's radius.
#define SKIN (RADIUS * WF_AVOID_WALL_SKIN)

static void test_wall_ahead_is_not_entered(void** state) {
    (void)state;
    wf_avoidance_params p = high();
    // A wall across the way at x = 3, the goal straight through it.
    wf_vec3 wall[2] = {wf_v3(3.0f, 0.0f, -10.0f), wf_v3(3.0f, 0.0f, 10.0f)};
    wf_avoid_agent a = make_agent(0.0f, 0.0f, 3.5f, 0.0f);
    wf_vec3 v = wf_avoidance_sample(&p, &a, NULL, 0u, wall, 1u, NULL);
    assert_true(v.x < 3.0f); // slows down at once
    float max_x = -INFINITY;
    for (int step = 0; step < 100; ++step) {
        v = wf_avoidance_sample(&p, &a, NULL, 0u, wall, 1u, NULL);
        a.vel = v;
        a.pos = wf_v3_mad(a.pos, v, 0.05f);
        max_x = a.pos.x > max_x ? a.pos.x : max_x;
    }
    // Up to the edge (the navmesh is eroded already), not across it.
    assert_true(max_x <= 3.0f - SKIN * 0.9f);
    assert_true(max_x >= 3.0f - RADIUS);

    // Already touching the wall and pushing into it: the choice does not
    // move further in.
    wf_avoid_agent t = make_agent(3.0f - 0.5f * SKIN, 0.0f, 3.5f, 0.0f);
    v = wf_avoidance_sample(&p, &t, NULL, 0u, wall, 1u, NULL);
    assert_true(v.x <= 0.0f);

    // Moving straight along a wall's line at its end (a door post).
    wf_vec3 post[2] = {wf_v3(0.0f, 0.0f, 1.0f), wf_v3(0.0f, 0.0f, 5.0f)};
    wf_avoid_agent d = make_agent(0.0f, 0.0f, 0.0f, 3.0f);
    float toi_before = time_to_impact(wf_v3(0.0f, 0.0f, 1.0f), d.desired_vel, SKIN);
    v = wf_avoidance_sample(&p, &d, NULL, 0u, post, 1u, NULL);
    float toi_after = time_to_impact(wf_v3(0.0f, 0.0f, 1.0f), v, SKIN);
    assert_true(toi_after > toi_before * 2.0f);
}

/// A doorway 0.8 m wide on the navmesh (2 m in the level, eroded by 0.6
/// on each side), narrower than the agent: the wall faces either side of
/// it and the door posts' sides. The agent in the opening, both posts
/// within its radius, must still walk on through.
static void test_doorway_narrower_than_the_agent_is_entered(void** state) {
    (void)state;
    wf_avoidance_params p = high();
    wf_vec3 walls[8] = {
        wf_v3(-5.0f, 0.0f, 1.0f), wf_v3(-0.4f, 0.0f, 1.0f), // face, left
        wf_v3(-0.4f, 0.0f, 1.0f), wf_v3(-0.4f, 0.0f, 2.5f), // post, left
        wf_v3(0.4f, 0.0f, 1.0f),  wf_v3(5.0f, 0.0f, 1.0f),  // face, right
        wf_v3(0.4f, 0.0f, 2.5f),  wf_v3(0.4f, 0.0f, 1.0f),  // post, right
    };
    const float starts[3][2] = {{0.0f, 0.7f}, {0.15f, 0.9f}, {-0.3f, 1.2f}};
    for (int k = 0; k < 3; ++k) {
        wf_avoid_agent a = make_agent(starts[k][0], starts[k][1], 0.0f, MAX_SPEED);
        a.vel = wf_v3(0.0f, 0.0f, 0.0f);
        for (int step = 0; step < 40; ++step) {
            wf_vec3 v = wf_avoidance_sample(&p, &a, NULL, 0u, walls, 4u, NULL);
            a.vel = v;
            a.pos = wf_v3_mad(a.pos, v, 0.05f);
            assert_true(a.pos.x > -0.4f && a.pos.x < 0.4f); // never through a post
        }
        assert_true(a.pos.z > 2.5f); // through, in 2 s
    }
}

static void test_lower_priority_yields_more(void** state) {
    (void)state;
    wf_avoidance_params p = high();
    wf_avoid_agent low = make_agent(0.0f, 0.0f, 3.0f, 0.0f);
    wf_avoid_agent hi = make_agent(6.0f, 0.0f, -3.0f, 0.0f);
    low.rank = 1;
    hi.rank = 5;
    wf_avoid_neighbour n_low = as_neighbour(&low), n_hi = as_neighbour(&hi);
    wf_vec3 v_low = wf_avoidance_sample(&p, &low, &n_hi, 1u, NULL, 0u, NULL);
    wf_vec3 v_hi = wf_avoidance_sample(&p, &hi, &n_low, 1u, NULL, 0u, NULL);
    float dev_low = wf_v2_distance(v_low, low.desired_vel);
    float dev_hi = wf_v2_distance(v_hi, hi.desired_vel);
    assert_true(dev_low > dev_hi * 1.2f);

    // Same priorities: the same deviation (mirror-symmetric setup).
    hi.rank = low.rank;
    n_hi = as_neighbour(&hi);
    wf_vec3 v_a = wf_avoidance_sample(&p, &low, &n_hi, 1u, NULL, 0u, NULL);
    wf_vec3 v_b = wf_avoidance_sample(&p, &hi, &n_low, 1u, NULL, 0u, NULL);
    assert_true(fabsf(wf_v2_distance(v_a, low.desired_vel) - wf_v2_distance(v_b, hi.desired_vel)) <
                1e-4f);
}

/// Deviation from the desired velocity against a static neighbour straight
/// ahead whose impact at the desired velocity is `impact` seconds away.
static float deviation_for_impact(const wf_avoidance_params* p, float impact) {
    wf_avoid_agent a = make_agent(0.0f, 0.0f, 3.0f, 0.0f);
    // Reciprocal closing speed at the desired velocity: 2 x 3 - 3 = 3 m/s.
    wf_avoid_neighbour n = {.pos = wf_v3(2.0f * RADIUS + 3.0f * impact, 0.0f, 0.0f),
                            .radius = RADIUS};
    wf_vec3 v = wf_avoidance_sample(p, &a, &n, 1u, NULL, 0u, NULL);
    return wf_v2_distance(v, a.desired_vel);
}

static void test_range_narrows_when_impact_is_far(void** state) {
    (void)state;
    wf_avoidance_params narrow = high();
    narrow.min_range_scale = 0.1f;
    wf_avoidance_params full = narrow;
    full.min_range_scale = 1.0f;
    // Impact at 2.4 s of a 2.5 s horizon: range 0.1 + 0.9 x 0.04 = 0.136.
    // Every sample then lies within 3 x max_speed x (1 - bias) x 0.136 of
    // the desired velocity (centre offset plus radius x (1 + 1/2 + ...)).
    float far_narrow = deviation_for_impact(&narrow, 2.4f);
    float far_full = deviation_for_impact(&full, 2.4f);
    float bound = 3.0f * MAX_SPEED * (1.0f - narrow.velocity_bias) * 0.136f;
    assert_true(far_narrow <= bound);
    assert_true(far_narrow < far_full);
    // Imminent: the range opens up again and the agent deviates more.
    float near_narrow = deviation_for_impact(&narrow, 0.3f);
    assert_true(near_narrow > bound);
    assert_true(far_narrow < near_narrow);
}

static void test_deterministic_bits(void** state) {
    (void)state;
    wf_avoidance_params p = wf_avoidance_preset(WF_AVOIDANCE_ULTRA);
    wf_avoid_agent a = make_agent(0.3f, -0.2f, 2.9f, 1.1f);
    a.vel = wf_v3(2.1f, 0.0f, 0.4f);
    wf_avoid_neighbour nbs[3] = {
        {.pos = wf_v3(4.0f, 0.0f, 1.0f), .vel = wf_v3(-2.0f, 0.0f, 0.0f), .radius = 0.5f},
        {.pos = wf_v3(2.0f, 0.0f, -1.5f),
         .vel = wf_v3(0.0f, 0.0f, 1.0f),
         .radius = 0.7f,
         .rank = 2},
        {.pos = wf_v3(0.9f, 0.0f, 0.1f), .vel = wf_v3(0.0f, 0.0f, 0.0f), .radius = 0.6f},
    };
    wf_vec3 walls[4] = {wf_v3(-2.0f, 0.0f, 2.0f), wf_v3(6.0f, 0.0f, 2.0f), wf_v3(6.0f, 0.0f, 2.0f),
                        wf_v3(6.0f, 0.0f, -3.0f)};
    uint32_t s1 = 0, s2 = 0;
    wf_vec3 v1 = wf_avoidance_sample(&p, &a, nbs, 3u, walls, 2u, &s1);
    // A copy of every input elsewhere in memory: the same bits.
    wf_avoidance_params p2 = p;
    wf_avoid_agent a2 = a;
    wf_avoid_neighbour nbs2[3];
    wf_vec3 walls2[4];
    memcpy(nbs2, nbs, sizeof nbs);
    memcpy(walls2, walls, sizeof walls);
    wf_vec3 v2 = wf_avoidance_sample(&p2, &a2, nbs2, 3u, walls2, 2u, &s2);
    assert_memory_equal(&v1, &v2, sizeof v1);
    assert_int_equal(s1, s2);
    // Adaptive sample count: the centre, then rings x divisions per pass.
    assert_int_equal(s1, 1u + 7u * 3u * 3u);
}

static void test_refinement_converges(void** state) {
    (void)state;
    // A neighbour in reach but not in the way: the best velocity is the
    // desired one, off every sample of the first pass. Each refinement
    // halves the radius around the best, so more depth lands closer.
    wf_avoid_agent a = make_agent(0.0f, 0.0f, 2.0f, 0.7f);
    wf_avoid_neighbour behind = {.pos = wf_v3(-3.0f, 0.0f, 0.0f), .radius = RADIUS};
    wf_avoidance_params p = high();
    p.min_range_scale = 1.0f;
    float dev[5];
    for (uint8_t depth = 1; depth <= 5; ++depth) {
        p.adaptive_depth = depth;
        uint32_t samples = 0;
        wf_vec3 v = wf_avoidance_sample(&p, &a, &behind, 1u, NULL, 0u, &samples);
        assert_int_equal(samples, 1u + 7u * 2u * depth);
        dev[depth - 1] = wf_v2_distance(v, a.desired_vel);
    }
    assert_true(dev[4] < dev[0] * 0.5f);
    assert_true(dev[4] < 0.05f * MAX_SPEED);
    for (int i = 1; i < 5; ++i) {
        assert_true(dev[i] <= dev[i - 1]);
    }
}

static void test_grid_pattern(void** state) {
    (void)state;
    wf_avoidance_params p = high();
    p.adaptive_divisions = 0;
    p.grid_size = 15;
    p.velocity_bias = 0.0f;
    p.min_range_scale = 1.0f;
    assert_true(wf_avoidance_params_valid(&p));
    wf_avoid_agent a = make_agent(0.0f, 0.0f, 3.0f, 0.0f);
    wf_avoid_agent b = make_agent(6.0f, 0.0f, -3.0f, 0.0f);
    wf_avoid_neighbour nb = as_neighbour(&b);
    uint32_t samples = 0;
    wf_vec3 v = wf_avoidance_sample(&p, &a, &nb, 1u, NULL, 0u, &samples);
    // The square of side 2 x max_speed around 0 loses its corners to the disc.
    assert_true(samples > 100u && samples < 15u * 15u);
    assert_true(speed(v) <= MAX_SPEED * 1.00001f);
    assert_true(v.z > 0.1f); // right
    assert_true(reciprocal_impact(&a, v, &nb) > reciprocal_impact(&a, a.desired_vel, &nb));
}

static void test_overlap_prefers_separating(void** state) {
    (void)state;
    wf_avoidance_params p = high();
    // Already overlapping a neighbour ahead-left and wanting to go on.
    wf_avoid_agent a = make_agent(0.0f, 0.0f, 3.0f, 0.0f);
    wf_avoid_neighbour n = {.pos = wf_v3(0.8f, 0.0f, -0.4f), .radius = RADIUS};
    wf_vec3 v = wf_avoidance_sample(&p, &a, &n, 1u, NULL, 0u, NULL);
    // Reciprocal closing velocity along the line of centres is not positive.
    wf_vec3 vr = wf_v3_sub(wf_v3_scale(v, 2.0f), a.vel);
    assert_true(wf_v2_dot(vr, n.pos) <= 0.0f);
}

static void test_params_valid(void** state) {
    (void)state;
    for (int q = 0; q < 4; ++q) {
        wf_avoidance_params p = wf_avoidance_preset((wf_avoidance_quality)q);
        assert_true(wf_avoidance_params_valid(&p));
        p.adaptive_divisions = 0; // the presets' grid size is valid too
        assert_true(wf_avoidance_params_valid(&p));
    }
    assert_false(wf_avoidance_params_valid(NULL));

    const wf_avoidance_params good = high();
    wf_avoidance_params p;
    float* weights[] = {&p.weight_desired, &p.weight_current, &p.weight_side, &p.weight_impact};
    for (size_t i = 0; i < 4; ++i) {
        p = good;
        *weights[i] = NAN;
        assert_false(wf_avoidance_params_valid(&p));
        p = good;
        *weights[i] = -0.5f;
        assert_false(wf_avoidance_params_valid(&p));
        p = good;
        *weights[i] = INFINITY;
        assert_false(wf_avoidance_params_valid(&p));
        p = good;
        *weights[i] = 0.0f; // zero weights are fine
        assert_true(wf_avoidance_params_valid(&p));
    }
    p = good;
    p.horizon_time = 0.0f;
    assert_false(wf_avoidance_params_valid(&p));
    p = good;
    p.horizon_time = NAN;
    assert_false(wf_avoidance_params_valid(&p));
    p = good;
    p.horizon_time = INFINITY;
    assert_false(wf_avoidance_params_valid(&p));
    p = good;
    p.velocity_bias = -0.01f;
    assert_false(wf_avoidance_params_valid(&p));
    p = good;
    p.velocity_bias = 1.01f;
    assert_false(wf_avoidance_params_valid(&p));
    p = good;
    p.velocity_bias = NAN;
    assert_false(wf_avoidance_params_valid(&p));
    p = good;
    p.velocity_bias = 1.0f;
    assert_true(wf_avoidance_params_valid(&p));
    p = good;
    p.min_range_scale = 0.0f;
    assert_false(wf_avoidance_params_valid(&p));
    p = good;
    p.min_range_scale = 1.5f;
    assert_false(wf_avoidance_params_valid(&p));
    p = good;
    p.min_range_scale = NAN;
    assert_false(wf_avoidance_params_valid(&p));
    p = good;
    p.min_range_scale = 1.0f;
    assert_true(wf_avoidance_params_valid(&p));
    p = good;
    p.adaptive_divisions = 33;
    assert_false(wf_avoidance_params_valid(&p));
    p = good;
    p.adaptive_divisions = 32;
    assert_true(wf_avoidance_params_valid(&p));
    p = good;
    p.adaptive_rings = 0;
    assert_false(wf_avoidance_params_valid(&p));
    p = good;
    p.adaptive_rings = 5;
    assert_false(wf_avoidance_params_valid(&p));
    p = good;
    p.adaptive_depth = 0;
    assert_false(wf_avoidance_params_valid(&p));
    p = good;
    p.adaptive_depth = 6;
    assert_false(wf_avoidance_params_valid(&p));
    // The grid's bounds apply only to the grid pattern, and the other way round.
    p = good;
    p.grid_size = 0;
    assert_true(wf_avoidance_params_valid(&p));
    p = good;
    p.adaptive_divisions = 0;
    p.grid_size = 2;
    assert_false(wf_avoidance_params_valid(&p));
    p.grid_size = 65;
    assert_false(wf_avoidance_params_valid(&p));
    p = good;
    p.adaptive_divisions = 0;
    p.grid_size = 64;
    p.adaptive_rings = 0;
    assert_true(wf_avoidance_params_valid(&p));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_obstacles_gives_desired),
        cmocka_unit_test(test_never_exceeds_max_speed),
        cmocka_unit_test(test_head_on_passes_on_the_right),
        cmocka_unit_test(test_pass_on_the_right_moves_both_apart),
        cmocka_unit_test(test_static_neighbour_ahead_is_avoided),
        cmocka_unit_test(test_wall_ahead_is_not_entered),
        cmocka_unit_test(test_doorway_narrower_than_the_agent_is_entered),
        cmocka_unit_test(test_lower_priority_yields_more),
        cmocka_unit_test(test_range_narrows_when_impact_is_far),
        cmocka_unit_test(test_deterministic_bits),
        cmocka_unit_test(test_refinement_converges),
        cmocka_unit_test(test_grid_pattern),
        cmocka_unit_test(test_overlap_prefers_separating),
        cmocka_unit_test(test_params_valid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
