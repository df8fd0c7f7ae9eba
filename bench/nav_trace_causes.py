#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
#
# Why nav_test500's agents are not at their targets at the end of the run
# (docs/crowd.md, "nav_test500: why agents miss"). Make the trace with
#   wayfarer scenarios --scene nav_test500 --runs N --trace FILE --trace-every 5
# then: bench/nav_trace_causes.py FILE. The trace holds every agent until
# its first arrival; an agent whose rows reach the end of the run never
# arrived. Each one is put in one class from its rows:
#   - no path from where it stands (path_left < 0);
#   - too far: its shortest path needs more than the run at 3.5 m/s;
#   - stopped short (ARRIVED, not within 0.6 m) / BLOCKED at the end;
#   - stuck: under 1 m nearer along the shortest path in its last 15 s,
#     split by what it was doing (in a knot of >= 5 neighbours; moving
#     over 1 m/s without progress: oscillating / walking a detour; wanting
#     under 0.5 m/s: waiting; else slow);
#   - on its way: progress, but too slow (mean m/s along the shortest path).
# and by the 8 m cell it ended in (hot spots: a seam, a step, a door).
# Last, how the agents that never arrived moved against the velocity they
# wanted (every row of theirs): along it, sideways, backwards (pushed back
# or dodging), stopped, or not wanting to move.
import collections
import math
import sys

from trace_rows import num as f, read_trace

SPEED = 3.5
WINDOW = 15.0



def main(path):
    by, end = read_trace(path)
    causes, cells, moves = collections.Counter(), collections.Counter(), collections.Counter()
    total = collections.Counter()
    for (seed, _), rows in by.items():
        total[seed] += 1
        run = end[seed]
        last, first = rows[-1], rows[0]
        if f(last, "t") < run - 0.05:
            continue  # arrived
        ts = int(last["target_state"])
        start_left = f(first, "path_left")
        past = [r for r in rows if f(r, "t") >= run - WINDOW]
        gained = f(past[0], "path_left") - f(last, "path_left")
        mean_speed = sum(f(r, "speed") for r in past) / len(past)
        mean_want = sum(f(r, "desired_speed") for r in past) / len(past)
        mean_nb = sum(int(r["neighbours"]) for r in past) / len(past)
        if f(last, "path_left") < 0:
            why = "no path from where it stands"
        elif start_left > SPEED * run:
            why = "too far: shortest path over 3.5 m/s x run"
        elif ts == 4:
            why = "stopped short (ARRIVED, > 0.6 m)"
        elif ts == 5:
            why = "BLOCKED at the end, %s" % ("in a knot" if mean_nb >= 5 else "few neighbours")
        elif gained < 1.0:
            if mean_nb >= 5:
                why = "stuck: in a knot (>= 5 of the 6 neighbours counted)"
            elif mean_speed > 1.0:
                why = "stuck: moving > 1 m/s, no progress (oscillating / detour)"
            elif mean_want < 0.5:
                why = "stuck: waiting (wants < 0.5 m/s)"
            else:
                why = "stuck: wants to walk, barely moves (wall, ledge, seam)"
        else:
            rate = (start_left - f(last, "path_left")) / run
            why = "on its way, too slow: %s m/s along the path, needed %s of the run" % (
                "< 1.5" if rate < 1.5 else ">= 1.5",
                "> 60 %" if start_left > 0.6 * SPEED * run else "<= 60 %")
        causes[why] += 1
        for r in rows:
            nv = math.hypot(f(r, "velocity_x"), f(r, "velocity_z"))
            nd = math.hypot(f(r, "desired_x"), f(r, "desired_z"))
            if nd < 0.3:
                moves["wants under 0.3 m/s"] += 1
            elif nv < 0.2:
                moves["stopped (under 0.2 m/s) though it wants to walk"] += 1
            else:
                cos = (f(r, "velocity_x") * f(r, "desired_x") +
                       f(r, "velocity_z") * f(r, "desired_z")) / (nv * nd)
                moves["along (cos > 0.7)" if cos > 0.7 else
                      "sideways (cos 0..0.7)" if cos > 0.0 else "backwards (cos < 0)"] += 1
        if why.startswith("stuck") or why.startswith("BLOCKED"):
            cells[(int(f(last, "x") // 8) * 8, int(f(last, "z") // 8) * 8)] += 1
    n = sum(total.values())
    missed = sum(causes.values())
    print("agents: %d over %d runs, never arrived: %d (%.1f %%)" % (n, len(total), missed,
                                                                  100.0 * missed / max(n, 1)))
    for why, k in causes.most_common():
        print("%5d  %5.1f %%  %s" % (k, 100.0 * k / max(missed, 1), why))
    rows = sum(moves.values())
    print("how they moved (share of their trace rows):")
    for how, k in moves.most_common():
        print("%5.1f %%  %s" % (100.0 * k / max(rows, 1), how))
    print("stuck / blocked, by 8 m cell (x, z):")
    for cell, k in cells.most_common(12):
        print("%5d  %s" % (k, cell))


if __name__ == "__main__":
    main(sys.argv[1])
