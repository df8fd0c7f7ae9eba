#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
#
# What nav_test500's agents that never arrive are doing in the last 20 s of
# the run (docs/benchmarks.md, "nav_test500's non-arrivers by what stops
# them"). Make the trace with
#   wayfarer scenarios --scene nav_test500 --runs N --trace FILE --trace-every 1
# then: bench/nav_stall_causes.py FILE. Needs the trace's near columns (agents
# within 1.5 m, how many of them hold their spots, the nearest one).
# Each agent that never arrived is put in one class: no path, stopped short
# (ARRIVED, not within 0.6 m), BLOCKED at the end, else the state most of
# its trace rows of the last 20 s were in:
#   - stalled (wants over 1 m/s, moves under 0.5 m/s): with nobody within
#     1.5 m (against geometry, or kept off by agents further out), beside an
#     arrived agent holding its spot, with 1-2 walkers within 1.5 m, or in a
#     jam of 3 or more;
#   - moving (0.5 m/s or more): along the velocity it wants (cos > 0.7),
#     sideways, or against it (cos < 0);
#   - not wanting to walk (under 1 m/s wanted: waiting, giving way).
# Then, over those agents' rows of the last 20 s: whether the velocity they
# want points at the point they steer to (a wrong or flip-flopping
# corridor would not), how far that point is, and their walked distance
# against their gain along the shortest path.
import collections
import math
import statistics
import sys

from trace_rows import num as f, read_trace

WINDOW = 20.0



def row_state(r):
    if f(r, "desired_speed") <= 1.0:
        return "not wanting to walk (wants <= 1 m/s)"
    if f(r, "speed") < 0.5:
        if f(r, "nearest") >= 1.5:
            return "stalled, nobody within 1.5 m"
        if int(r["near_holders"]) > 0:
            return "stalled beside an arrived agent holding its spot"
        if int(r["near"]) <= 2:
            return "stalled, 1-2 walkers within 1.5 m"
        return "stalled in a jam of 3 or more within 1.5 m"
    vx, vz, dx, dz = f(r, "velocity_x"), f(r, "velocity_z"), f(r, "desired_x"), f(r, "desired_z")
    cos = (vx * dx + vz * dz) / (math.hypot(vx, vz) * math.hypot(dx, dz))
    if cos > 0.7:
        return "moving along the velocity it wants (cos > 0.7)"
    if cos > 0.0:
        return "moving sideways to it"
    return "moving against it (cos < 0)"


def main(path):
    by, end = read_trace(path)
    agents, rows_by = collections.Counter(), collections.Counter()
    aim, corner_far = collections.Counter(), collections.Counter()
    walked, gained, stalled_alone_nearest = [], [], []
    total = 0
    for (seed, _), rows in by.items():
        total += 1
        run = end[seed]
        last = rows[-1]
        if f(last, "t") < run - 0.05:
            continue  # arrived
        if f(last, "path_left") < 0:
            agents["no path from where it stands"] += 1
            continue
        if last["target_state"] == "4":
            agents["stopped short (ARRIVED, over 0.6 m off)"] += 1
            continue
        if last["target_state"] == "5":
            agents["BLOCKED at the end"] += 1
            continue
        past = [r for r in rows if f(r, "t") >= run - WINDOW]
        states = collections.Counter(row_state(r) for r in past)
        agents[states.most_common(1)[0][0]] += 1
        rows_by.update(states)
        gained.append(f(past[0], "path_left") - f(last, "path_left"))
        walked.append(sum(math.hypot(f(b, "x") - f(a, "x"), f(b, "z") - f(a, "z"))
                          for a, b in zip(past, past[1:])))
        for r in past:
            cx, cz = f(r, "corner_x") - f(r, "x"), f(r, "corner_z") - f(r, "z")
            dx, dz = f(r, "desired_x"), f(r, "desired_z")
            lc, ld = math.hypot(cx, cz), math.hypot(dx, dz)
            corner_far["under 1.5 m" if lc < 1.5 else "1.5-4 m" if lc < 4.0 else "over 4 m"] += 1
            if lc > 0.05 and ld > 0.5:
                cos = (cx * dx + cz * dz) / (lc * ld)
                aim["towards it (cos > 0.7)" if cos > 0.7 else "elsewhere"] += 1
            if row_state(r) == "stalled, nobody within 1.5 m":
                stalled_alone_nearest.append(f(r, "nearest"))
    missed = sum(agents.values())
    print("agents: %d over %d runs, never arrived: %d (%.1f %%)" %
          (total, len(end), missed, 100.0 * missed / max(total, 1)))
    print("| class (state most of its last %.0f s) | agents | share |" % WINDOW)
    for why, k in agents.most_common():
        print("| %s | %d | %.1f %% |" % (why, k, 100.0 * k / max(missed, 1)))
    n = sum(rows_by.values())
    print("their trace rows of the last %.0f s:" % WINDOW)
    for why, k in rows_by.most_common():
        print("| %s | %.1f %% |" % (why, 100.0 * k / max(n, 1)))
    n = sum(aim.values())
    print("desired velocity against the point steered to: %s" %
          ", ".join("%s %.1f %%" % (k, 100.0 * v / max(n, 1)) for k, v in aim.most_common()))
    n = sum(corner_far.values())
    print("point steered to: %s" %
          ", ".join("%s %.1f %%" % (k, 100.0 * v / max(n, 1)) for k, v in corner_far.most_common()))
    if walked:
        print("last %.0f s, median walked %.1f m, median gained along the shortest path %.1f m" %
              (WINDOW, statistics.median(walked), statistics.median(gained)))
    if stalled_alone_nearest:
        under2 = sum(d < 2.0 for d in stalled_alone_nearest)
        print("stalled with nobody within 1.5 m: nearest agent under 2 m in %.1f %% of those rows" %
              (100.0 * under2 / len(stalled_alone_nearest)))


if __name__ == "__main__":
    main(sys.argv[1])
