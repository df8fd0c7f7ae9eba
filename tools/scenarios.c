// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// `wayfarer scenarios`: the crowd scenario suite (crowd_scenes.h), every
// scene or the named ones, as one JSON object or a table.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/crowd_scenes.h"
#include "tools/tool.h"

#define MAX_SELECTED 64u

typedef struct scenario_options {
    scene_settings settings;
    const char* selected[MAX_SELECTED];
    uint32_t selected_count;
    const char* avoidance;
    const char* trace;      ///< --trace FILE, or NULL
    const char* export_dir; ///< --export DIR, or NULL
    bool json;
    uint32_t runs; ///< runs per scene (seeds in turn, formations jittered when > 1)
} scenario_options;

/// Formations of --runs are shaken by up to this much (m, each axis), so
/// each run is a different start of the same scene.
#define RUNS_JITTER 0.15f
/// Most --runs.
#define MAX_RUNS 100u

/// Of the arrived, the share still within the arrival radius at the end.
static double held_share(const scene_metrics* m) {
    return m->arrived > 0 ? (double)m->arrived_within_at_end / m->arrived : 0.0;
}

/// Adds run k of n into the mean: shares and times averaged, counts
/// averaged (rounded), the worst overlaps and times the worst of any run.
static void add_run(scene_metrics* mean, const scene_metrics* m, uint32_t k, uint32_t n) {
    if (k == 0) {
        *mean = *m;
        mean->held_share = held_share(m);
        if (n == 1) {
            return;
        }
        memset(mean, 0, sizeof *mean);
    }
    double w = 1.0 / n;
    mean->agents = m->agents;
    mean->frames = m->frames;
    mean->seconds = m->seconds;
#define MEAN(f) mean->f += m->f * w
    MEAN(arrived_10);
    MEAN(arrived_30);
    MEAN(arrived_60);
    MEAN(arrival_time_mean);
    MEAN(path_ratio_mean);
    MEAN(standing_agent_seconds);
    MEAN(us_per_agent_frame);
    MEAN(in_time_alone_slowdown);
#undef MEAN
    mean->arrival_time_max = fmax(mean->arrival_time_max, m->arrival_time_max);
    mean->path_ratio_max = fmax(mean->path_ratio_max, m->path_ratio_max);
    mean->worst_overlap = fmax(mean->worst_overlap, m->worst_overlap);
    mean->worst_overlap_after_2s = fmax(mean->worst_overlap_after_2s, m->worst_overlap_after_2s);
    // Counts: summed here, divided (rounded) after the last run.
    mean->reachable += m->reachable;
    mean->arrived += m->arrived;
    mean->never_arrived += m->never_arrived;
    mean->overlap_pair_frames += m->overlap_pair_frames;
    mean->overlap_pair_frames_after_2s += m->overlap_pair_frames_after_2s;
    mean->blocked_events += m->blocked_events;
    mean->arrival_events += m->arrival_events;
    mean->arrival_events_far += m->arrival_events_far;
    mean->stopped_short_events += m->stopped_short_events;
    mean->within_at_end += m->within_at_end;
    mean->arrived_within_at_end += m->arrived_within_at_end;
    mean->arrivals_total += m->arrivals_total;
    mean->ever_arrived += m->ever_arrived;
    mean->first_feasible += m->first_feasible;
    mean->first_feasible_arrived += m->first_feasible_arrived;
    mean->second_door_agents += m->second_door_agents;
    mean->in_time_targets += m->in_time_targets;
    mean->in_time_reached += m->in_time_reached;
    mean->in_time_blocked += m->in_time_blocked;
    mean->in_time_agents += m->in_time_agents;
    mean->in_time_agents_arrived += m->in_time_agents_arrived;
    mean->in_time_alone_targets += m->in_time_alone_targets;
    mean->in_time_alone_reached += m->in_time_alone_reached;
    mean->in_time_alone_agents += m->in_time_alone_agents;
    mean->in_time_alone_agents_arrived += m->in_time_alone_agents_arrived;
    if (k + 1 == n) {
        mean->held_share = held_share(mean); // the runs' sums, not yet rounded
        uint32_t* counts[] = {&mean->reachable,
                              &mean->arrived,
                              &mean->never_arrived,
                              &mean->blocked_events,
                              &mean->arrival_events,
                              &mean->arrival_events_far,
                              &mean->stopped_short_events,
                              &mean->within_at_end,
                              &mean->arrived_within_at_end,
                              &mean->arrivals_total,
                              &mean->ever_arrived,
                              &mean->first_feasible,
                              &mean->first_feasible_arrived,
                              &mean->second_door_agents,
                              &mean->in_time_targets,
                              &mean->in_time_reached,
                              &mean->in_time_blocked,
                              &mean->in_time_agents,
                              &mean->in_time_agents_arrived,
                              &mean->in_time_alone_targets,
                              &mean->in_time_alone_reached,
                              &mean->in_time_alone_agents,
                              &mean->in_time_alone_agents_arrived};
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
            *counts[c] = (uint32_t)((*counts[c] + n / 2) / n);
        }
        mean->overlap_pair_frames = (mean->overlap_pair_frames + n / 2) / n;
        mean->overlap_pair_frames_after_2s = (mean->overlap_pair_frames_after_2s + n / 2) / n;
    }
}

/// Adds the scenes of a comma list; false for an unknown name.
static bool select_scenes(scenario_options* o, char* list) {
    for (char* name = strtok(list, ","); name != NULL; name = strtok(NULL, ",")) {
        const char* known = NULL;
        for (uint32_t k = 0; k < scene_name_count && known == NULL; ++k) {
            known = strcmp(name, scene_names[k]) == 0 ? scene_names[k] : NULL;
        }
        if (known == NULL) {
            fprintf(stderr, "wayfarer scenarios: unknown scene %s (known:", name);
            for (uint32_t k = 0; k < scene_name_count; ++k) {
                fprintf(stderr, " %s", scene_names[k]);
            }
            fprintf(stderr, ")\n");
            return false;
        }
        if (o->selected_count == MAX_SELECTED) {
            fprintf(stderr, "wayfarer scenarios: more than %u scenes named\n", MAX_SELECTED);
            return false;
        }
        o->selected[o->selected_count++] = known;
    }
    return true;
}

static int parse_options(int argc, char** argv, scenario_options* o) {
    memset(o, 0, sizeof *o);
    o->settings.avoidance = WF_AVOIDANCE_HIGH;
    o->settings.seed = 1;
    o->avoidance = "high";
    for (int i = 1; i < argc; ++i) {
        const char* opt = argv[i];
        uint32_t* number = strcmp(opt, "--agents") == 0    ? &o->settings.agents
                           : strcmp(opt, "--workers") == 0 ? &o->settings.workers
                           : strcmp(opt, "--seed") == 0    ? &o->settings.seed
                           : strcmp(opt, "--runs") == 0    ? &o->runs
                                                           : NULL;
        bool takes_value = number != NULL || strcmp(opt, "--scene") == 0 ||
                           strcmp(opt, "--seconds") == 0 || strcmp(opt, "--avoidance") == 0 ||
                           strcmp(opt, "--testdata") == 0 || strcmp(opt, "--crowding") == 0 ||
                           strcmp(opt, "--stuck-crowding") == 0 || strcmp(opt, "--flow") == 0 ||
                           strcmp(opt, "--trace") == 0 || strcmp(opt, "--trace-every") == 0 ||
                           strcmp(opt, "--export") == 0;
        if (strcmp(opt, "--json") == 0) {
            o->json = true;
            continue;
        }
        if (!takes_value) {
            fprintf(stderr, "wayfarer scenarios: unknown option %s\n", opt);
            return usage_error("scenarios");
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "wayfarer scenarios: %s needs a value\n", opt);
            return usage_error("scenarios");
        }
        char* value = argv[++i];
        double seconds = 0.0;
        if (number != NULL) {
            if (!parse_count(value, number)) {
                fprintf(stderr, "wayfarer scenarios: %s needs a whole number\n", opt);
                return usage_error("scenarios");
            }
        } else if (strcmp(opt, "--scene") == 0) {
            if (!select_scenes(o, value)) {
                return usage_error("scenarios");
            }
        } else if (strcmp(opt, "--seconds") == 0) {
            if (!parse_double(value, &seconds) || seconds <= 0.0 || seconds > 3600.0) {
                fprintf(stderr, "wayfarer scenarios: --seconds needs a number in (0, 3600]\n");
                return usage_error("scenarios");
            }
            o->settings.seconds = (float)seconds;
        } else if (strcmp(opt, "--crowding") == 0) {
            double cost = 0.0;
            if (!parse_double(value, &cost) || !(cost >= 0.0 && cost <= 1000.0)) {
                fprintf(stderr, "wayfarer scenarios: --crowding needs a number in [0, 1000]\n");
                return usage_error("scenarios");
            }
            o->settings.crowding = (float)cost;
        } else if (strcmp(opt, "--stuck-crowding") == 0) {
            double cost = 0.0;
            if (!parse_double(value, &cost) || !(cost >= -1.0 && cost <= 1000.0)) {
                fprintf(stderr,
                        "wayfarer scenarios: --stuck-crowding needs a number in [-1, 1000]\n");
                return usage_error("scenarios");
            }
            o->settings.stuck_crowding = (float)cost;
        } else if (strcmp(opt, "--flow") == 0) {
            double cost = 0.0;
            if (!parse_double(value, &cost) || !(cost >= -1.0 && cost <= 1000.0)) {
                fprintf(stderr, "wayfarer scenarios: --flow needs a number in [-1, 1000]\n");
                return usage_error("scenarios");
            }
            o->settings.flow = (float)cost;
        } else if (strcmp(opt, "--testdata") == 0) {
            o->settings.testdata = value;
        } else if (strcmp(opt, "--trace") == 0) {
            o->trace = value;
        } else if (strcmp(opt, "--export") == 0) {
            if (value[0] == '\0') {
                fprintf(stderr, "wayfarer scenarios: --export needs a folder\n");
                return usage_error("scenarios");
            }
            o->export_dir = value;
        } else if (strcmp(opt, "--trace-every") == 0) {
            double every = 0.0;
            if (!parse_double(value, &every) || !(every > 0.0 && every <= 3600.0)) {
                fprintf(stderr, "wayfarer scenarios: --trace-every needs a number in (0, 3600]\n");
                return usage_error("scenarios");
            }
            o->settings.trace_seconds = (float)every;
        } else {
            static const char* presets[4] = {"low", "medium", "high", "ultra"};
            uint32_t found = 4;
            for (uint32_t k = 0; k < 4u; ++k) {
                found = strcmp(value, presets[k]) == 0 ? k : found;
            }
            if (found == 4) {
                fprintf(stderr, "wayfarer scenarios: --avoidance is low, medium, high or ultra\n");
                return usage_error("scenarios");
            }
            o->settings.avoidance = found;
            o->avoidance = presets[found];
        }
    }
    if (o->settings.agents > WF_CROWD_MAX_AGENTS) {
        fprintf(stderr, "wayfarer scenarios: --agents at most %u\n", WF_CROWD_MAX_AGENTS);
        return usage_error("scenarios");
    }
    if (o->settings.workers > 64u) {
        fprintf(stderr, "wayfarer scenarios: --workers at most 64\n");
        return usage_error("scenarios");
    }
    if (o->runs > MAX_RUNS) {
        fprintf(stderr, "wayfarer scenarios: --runs at most 100\n");
        return usage_error("scenarios");
    }
    o->runs = o->runs > 0 ? o->runs : 1u;
    if (o->selected_count == 0) {
        for (uint32_t k = 0; k < scene_name_count; ++k) {
            o->selected[o->selected_count++] = scene_names[k];
        }
    }
    return 0;
}

/// A figure for JSON, or null where there was nothing to measure (no
/// arrival: no arrival time, no path ratio), never a number that reads as one.
static void json_number(char out[32], bool measured, double value, int decimals) {
    if (measured && isfinite(value)) {
        snprintf(out, 32, "%.*f", decimals, value);
    } else {
        snprintf(out, 32, "null");
    }
}

/// Each run's arrivals at 60 s and holding, for comparisons seed by seed
/// (printed with --json when there are several runs).
typedef struct run_figures {
    uint32_t count;
    double arrived_60[MAX_RUNS];
    double held_share[MAX_RUNS];
    double in_time[MAX_RUNS];       ///< the demo: in-time targets reached, share
    double in_time_alone[MAX_RUNS]; ///< the demo: the free agent's count, share
    double deep_after_2s[MAX_RUNS]; ///< pair-frames deeper than 0.1 m after 2 s (not rounded)
} run_figures;

static void print_json_runs(const char* key, const double* v, uint32_t n) {
    printf(",\n     \"%s\": [", key);
    for (uint32_t k = 0; k < n; ++k) {
        printf("%s%.4f", k > 0 ? ", " : "", v[k]);
    }
    printf("]");
}

static void print_json_scene(const scene* s, const scene_metrics* m, const run_figures* runs,
                             bool first) {
    char times[2][32], ratios[2][32];
    json_number(times[0], m->arrived > 0, m->arrival_time_mean, 3);
    json_number(times[1], m->arrived > 0, m->arrival_time_max, 3);
    json_number(ratios[0], m->path_ratio_max > 0.0, m->path_ratio_mean, 4);
    json_number(ratios[1], m->path_ratio_max > 0.0, m->path_ratio_max, 4);
    printf("%s\n    {\"name\": \"%s\", \"agents\": %u, \"frames\": %u, \"seconds\": %.3f, "
           "\"starts_on_mesh\": %u, \"targets_on_mesh\": %u, \"reachable\": %u,",
           first ? "" : ",", s->name, m->agents, m->frames, m->seconds, s->starts_on_mesh,
           s->targets_on_mesh, m->reachable);
    if (s->door_width > 0.0f) {
        printf(" \"door_width_m\": %.2f, \"door_connects\": %s,", s->door_width,
               m->reachable == m->agents ? "true" : "false");
    }
    printf("\n     \"arrived_10s\": %.4f, \"arrived_30s\": %.4f, \"arrived_60s\": %.4f, "
           "\"arrived\": %u, \"never_arrived\": %u, \"arrival_time_mean_s\": %s, "
           "\"arrival_time_max_s\": %s, \"path_ratio_mean\": %s, \"path_ratio_max\": %s,\n"
           "     \"overlap_pair_frames\": %llu, \"overlap_pair_frames_after_2s\": %llu, "
           "\"worst_overlap_m\": %.4f, \"worst_overlap_after_2s_m\": %.4f, "
           "\"standing_agent_s\": %.2f, \"blocked_events\": %u, \"arrival_events\": %u, "
           "\"arrival_events_far\": %u, \"stopped_short_events\": %u, \"within_at_end\": %u, "
           "\"arrived_within_at_end\": %u, \"held_share\": %.4f, \"us_per_agent_frame\": %.4f",
           m->arrived_10, m->arrived_30, m->arrived_60, m->arrived, m->never_arrived, times[0],
           times[1], ratios[0], ratios[1], (unsigned long long)m->overlap_pair_frames,
           (unsigned long long)m->overlap_pair_frames_after_2s, m->worst_overlap,
           m->worst_overlap_after_2s, m->standing_agent_seconds, m->blocked_events,
           m->arrival_events, m->arrival_events_far, m->stopped_short_events, m->within_at_end,
           m->arrived_within_at_end, m->held_share, m->us_per_agent_frame);
    if (s->second_door_width > 0.0f) {
        printf(", \"second_door_agents\": %u", m->second_door_agents);
    }
    if (runs->count > 1) {
        print_json_runs("runs_arrived_60s", runs->arrived_60, runs->count);
        print_json_runs("runs_held_share", runs->held_share, runs->count);
        print_json_runs("runs_deep_after_2s", runs->deep_after_2s, runs->count);
    }
    if (s->retarget) {
        printf(
            ",\n     \"arrivals_total\": %u, \"ever_arrived\": %u, \"ever_arrived_share\": %.4f, "
            "\"first_target_feasible\": %u, \"first_target_feasible_arrived\": %u",
            m->arrivals_total, m->ever_arrived,
            m->agents > 0 ? (double)m->ever_arrived / m->agents : 0.0, m->first_feasible,
            m->first_feasible_arrived);
        printf(",\n     \"in_time_targets\": %u, \"in_time_reached\": %u, \"in_time_blocked\": %u, "
               "\"in_time_agents\": %u, \"in_time_agents_arrived\": %u, "
               "\"in_time_agents_arrived_share\": %.4f",
               m->in_time_targets, m->in_time_reached, m->in_time_blocked, m->in_time_agents,
               m->in_time_agents_arrived,
               m->in_time_agents > 0 ? (double)m->in_time_agents_arrived / m->in_time_agents : 0.0);
        printf(",\n     \"in_time_alone_targets\": %u, \"in_time_alone_reached\": %u, "
               "\"in_time_alone_share\": %.4f, \"in_time_alone_slowdown\": %.3f, "
               "\"free_slack\": %.2f, \"in_time_alone_agents\": %u, "
               "\"in_time_alone_agents_arrived\": %u",
               m->in_time_alone_targets, m->in_time_alone_reached,
               m->in_time_alone_targets > 0
                   ? (double)m->in_time_alone_reached / m->in_time_alone_targets
                   : 0.0,
               m->in_time_alone_slowdown, (double)SCENE_FREE_SLACK, m->in_time_alone_agents,
               m->in_time_alone_agents_arrived);
        if (runs->count > 1) {
            // Per run, for paired differences between builds (demo18).
            print_json_runs("runs_in_time_share", runs->in_time, runs->count);
            print_json_runs("runs_in_time_alone_share", runs->in_time_alone, runs->count);
        }
    }
    if (s->note != NULL) {
        printf(", \"note\": ");
        print_json_string(stdout, s->note);
    }
    printf("}");
}

static void print_table_header(void) {
    printf("%-14s %6s %6s %6s %6s %7s %7s %6s %6s %7s %7s %7s %8s %6s %6s %6s %6s %7s\n", "scene",
           "agents", "arr10", "arr30", "arr60", "t_mean", "t_max", "ratio", "never", "ovl>.1",
           "worst", "worst2s", "stand_s", "block", "arrEv", "short", "held", "us/a/f");
}

static void print_table_scene(const scene* s, const scene_metrics* m) {
    printf("%-14s %6u %5.1f%% %5.1f%% %5.1f%% %7.2f %7.2f %6.3f %6u %7llu %7.3f %7.3f %8.1f "
           "%6u %6u %6u %5.1f%% %7.3f\n",
           s->name, m->agents, 100.0 * m->arrived_10, 100.0 * m->arrived_30, 100.0 * m->arrived_60,
           m->arrival_time_mean, m->arrival_time_max, m->path_ratio_mean, m->never_arrived,
           (unsigned long long)m->overlap_pair_frames, m->worst_overlap, m->worst_overlap_after_2s,
           m->standing_agent_seconds, m->blocked_events, m->arrival_events, m->stopped_short_events,
           100.0 * m->held_share, m->us_per_agent_frame);
    if (s->second_door_width > 0.0f) {
        printf("%-14s through the free door: %u agents\n", "", m->second_door_agents);
    }
    if (s->retarget) {
        printf("%-14s arrivals %u, agents that ever arrived %u (%.1f%%), first targets "
               "reachable in time %u, reached %u\n",
               "", m->arrivals_total, m->ever_arrived,
               m->agents > 0 ? 100.0 * m->ever_arrived / m->agents : 0.0, m->first_feasible,
               m->first_feasible_arrived);
        printf("%-14s targets reachable in the time left %u, reached %u, given up on BLOCKED %u; "
               "agents given one %u, reached one %u (%.1f%%)\n",
               "", m->in_time_targets, m->in_time_reached, m->in_time_blocked, m->in_time_agents,
               m->in_time_agents_arrived,
               m->in_time_agents > 0 ? 100.0 * m->in_time_agents_arrived / m->in_time_agents : 0.0);
        printf("%-14s in time for a free agent (path x %.2f at full speed) %u, reached %u "
               "(%.1f%%; all in-time targets: %.1f%%); crowd's slowdown on those reached %.2fx; "
               "agents given one %u, reached one %u\n",
               "", (double)SCENE_FREE_SLACK, m->in_time_alone_targets, m->in_time_alone_reached,
               m->in_time_alone_targets > 0
                   ? 100.0 * m->in_time_alone_reached / m->in_time_alone_targets
                   : 0.0,
               m->in_time_targets > 0 ? 100.0 * m->in_time_reached / m->in_time_targets : 0.0,
               m->in_time_alone_slowdown, m->in_time_alone_agents, m->in_time_alone_agents_arrived);
    }
}

/// --export DIR: each selected scene's triangles and agents for each run
/// (seeds and formations as the runs would have them), nothing run.
static int export_scenes(const scenario_options* o) {
    for (uint32_t k = 0; k < o->selected_count; ++k) {
        for (uint32_t run = 0; run < o->runs; ++run) {
            scene_settings settings = o->settings;
            settings.seed = o->settings.seed + run;
            settings.jitter = o->runs > 1 ? RUNS_JITTER : 0.0f;
            char base[256];
            snprintf(base, sizeof base, "%s-%u", o->selected[k], settings.seed);
            char why[160] = "";
            int rc = scene_export(o->selected[k], base, &settings, o->export_dir, why, sizeof why);
            if (rc == SCENE_SKIPPED) {
                printf("%s\tskipped\n", base);
                fprintf(stderr, "wayfarer scenarios: %s skipped: %s\n", o->selected[k], why);
                break;
            }
            if (rc != 0) {
                return EXIT_INPUT; // the message went to stderr
            }
            printf("%s\t%s/%s.obj\t%s/%s.points\n", base, o->export_dir, base, o->export_dir, base);
        }
    }
    return 0;
}

int cmd_scenarios(int argc, char** argv) {
    scenario_options o;
    int rc = parse_options(argc, argv, &o);
    if (rc != 0) {
        return rc;
    }
    if (o.export_dir != NULL) {
        return export_scenes(&o);
    }
    if (o.trace != NULL) {
        o.settings.trace = fopen(o.trace, "w");
        if (o.settings.trace == NULL) {
            fprintf(stderr, "wayfarer scenarios: cannot write %s\n", o.trace);
            return EXIT_INPUT;
        }
        fputs(SCENE_TRACE_HEADER, o.settings.trace);
    }
    if (o.json) {
        printf("{\"avoidance\": \"%s\", \"workers\": %u, \"seed\": %u, \"runs\": %u, \"dt\": %.6f, "
               "\"arrival_radius_m\": %.2f, \"scenes\": [",
               o.avoidance, o.settings.workers > 0 ? o.settings.workers : 1u, o.settings.seed,
               o.runs, SCENE_DT, SCENE_ARRIVAL_RADIUS);
    } else {
        printf("avoidance %s, %u worker(s), seed %u, %u run(s)%s; arrival = within %.1f m (2D)\n",
               o.avoidance, o.settings.workers > 0 ? o.settings.workers : 1u, o.settings.seed,
               o.runs, o.runs > 1 ? " (means; formations jittered 0.15 m, seeds in turn)" : "",
               SCENE_ARRIVAL_RADIUS);
        print_table_header();
    }
    uint32_t printed = 0;
    for (uint32_t k = 0; k < o.selected_count && rc == 0; ++k) {
        scene_metrics mean;
        memset(&mean, 0, sizeof mean);
        run_figures per_run;
        per_run.count = 0;
        for (uint32_t run = 0; run < o.runs && rc == 0; ++run) {
            scene_settings settings = o.settings;
            settings.seed = o.settings.seed + run;
            settings.jitter = o.runs > 1 ? RUNS_JITTER : 0.0f;
            scene s;
            int built = scene_build(o.selected[k], &settings, &s);
            if (built == SCENE_SKIPPED) {
                if (o.json) {
                    printf("%s\n    {\"name\": \"%s\", \"skipped\": ", printed > 0 ? "," : "",
                           s.name);
                    print_json_string(stdout, s.skip_reason);
                    printf("}");
                } else {
                    printf("%-14s skipped: %s\n", s.name, s.skip_reason);
                }
                printed++;
                break;
            }
            if (built != 0) {
                rc = EXIT_INPUT;
                break;
            }
            scene_metrics m;
            rc = scene_run(&s, &settings, &m);
            if (rc == 0) {
                add_run(&mean, &m, run, o.runs);
                per_run.arrived_60[per_run.count] = m.arrived_60;
                per_run.deep_after_2s[per_run.count] = (double)m.overlap_pair_frames_after_2s;
                per_run.in_time[per_run.count] =
                    m.in_time_targets > 0 ? (double)m.in_time_reached / m.in_time_targets : 0.0;
                per_run.in_time_alone[per_run.count] =
                    m.in_time_alone_targets > 0
                        ? (double)m.in_time_alone_reached / m.in_time_alone_targets
                        : 0.0;
                per_run.held_share[per_run.count++] = held_share(&m);
            }
            if (rc == 0 && run + 1 == o.runs) {
                if (o.json) {
                    print_json_scene(&s, &mean, &per_run, printed == 0);
                } else {
                    print_table_scene(&s, &mean);
                }
                printed++;
            }
            fflush(stdout);
            scene_free(&s);
        }
    }
    if (o.json) {
        printf("\n]}\n");
    }
    if (o.settings.trace != NULL && fclose(o.settings.trace) != 0 && rc == 0) {
        fprintf(stderr, "wayfarer scenarios: cannot write %s\n", o.trace);
        rc = EXIT_INPUT;
    }
    return rc;
}
