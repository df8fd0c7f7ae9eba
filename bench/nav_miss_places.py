#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
#
# Where nav_test500's agents that never arrive are at the end of the run,
# and what holds them there (docs/benchmarks.md, "knot13"). Make the trace
# with
#   wayfarer scenarios --scene nav_test500 --runs N --trace FILE --trace-every 1
# then: bench/nav_miss_places.py FILE. Needs the trace's wall columns (wall:
# m to the nearest navmesh edge; width: the walkable width square to the
# velocity the agent wants; target_wall: the target's distance to a wall).
# Each agent that never arrived goes in the first class that fits, judged
# over its trace rows of the last 20 s (medians):
#   - no path / stopped short (ARRIVED, off its spot) / BLOCKED at the end;
#   - path stale: its corridor partial in most rows;
#   - at its target: within 2.5 m of it (split: a holder within 1.5 m or not;
#     target against a wall: target_wall under 0.3 m);
#   - at a door or narrow place: walkable width across its way under 2.4 m
#     (two bodies of 0.6 m side by side need 1.2 m of it);
#   - against a wall: under 0.3 m from a navmesh edge in most rows;
#   - on open floor: the rest, split by the traffic near it (in the first
#     of these that holds in 30 % of its rows): an oncoming walker within 2 m
#     (desired velocities over 120 degrees apart: a two-way knot), a crossing
#     one (60-120), one going its way (a file), a holder within 1.5 m.
# For each class: agents, their median gain along the shortest path in the
# last 20 s, their median path left at the end.
import collections
import math
import statistics
import sys

from trace_rows import direction, num as f, read_trace, rows_at_time

WINDOW = 20.0
NEAR = 2.0


def traffic(r, same_time):
    """Walkers within NEAR of r at its time: (oncoming, crossing, same way)."""
    own = direction(r)
    onc = cross = same = 0
    if own is None:
        return onc, cross, same
    x, z = f(r, "x"), f(r, "z")
    for o in same_time:
        if o is r or math.hypot(f(o, "x") - x, f(o, "z") - z) >= NEAR:
            continue
        d = direction(o)
        if d is None:
            continue
        cos = own[0] * d[0] + own[1] * d[1]
        if cos < -0.5:
            onc += 1
        elif cos < 0.5:
            cross += 1
        else:
            same += 1
    return onc, cross, same


def median(rows, key):
    # -1 marks a value the trace could not work out (off the mesh, or no
    # wanted velocity for the width): left out, not read as narrow.
    known = [f(r, key) for r in rows if f(r, key) >= 0]
    return statistics.median(known) if known else float("inf")


def main(path):
    by, end = read_trace(path)
    at_time = rows_at_time(by)
    agents = collections.Counter()
    gain = collections.defaultdict(list)
    left = collections.defaultdict(list)
    total = 0
    for (seed, _), rows in by.items():
        total += 1
        run = end[seed]
        last = rows[-1]
        if f(last, "t") < run - 0.05:
            continue  # arrived
        past = [r for r in rows if f(r, "t") >= run - WINDOW]
        if f(last, "path_left") < 0:
            why = "no path from where it stands"
        elif last["target_state"] == "4":
            why = "stopped short (ARRIVED, over 0.6 m off)"
        elif last["target_state"] == "5":
            why = "BLOCKED at the end"
        elif sum(r["partial"] != "0" for r in past) * 2 > len(past):
            why = "path stale (corridor partial)"
        elif median(past, "distance") < 2.5:
            holder = sum(int(r["near_holders"]) > 0 for r in past) * 2 > len(past)
            walled = 0 <= f(last, "target_wall") < 0.3
            why = "at its target (within 2.5 m)%s%s" % (
                ", a holder within 1.5 m" if holder else ", no holder near",
                ", target against a wall" if walled else "")
        elif median(past, "width") < 2.4:
            why = "at a door or narrow place (width across its way < 2.4 m)"
        elif sum(0 <= f(r, "wall") < 0.3 for r in past) * 2 > len(past):
            why = "against a wall on open floor (< 0.3 m from the edge)"
        else:
            t = [traffic(r, at_time[(seed, r["t"])]) for r in past]
            onc = sum(x[0] > 0 for x in t) / len(t)
            cross = sum(x[1] > 0 for x in t) / len(t)
            same = sum(x[2] > 0 for x in t) / len(t)
            holders = sum(int(r["near_holders"]) > 0 for r in past) / len(past)
            if onc >= 0.3:
                why = "open floor knot, two-way (an oncoming walker within 2 m in >= 30 % of rows)"
            elif cross >= 0.3:
                why = "open floor knot, crossing walkers within 2 m (>= 30 % of rows)"
            elif same >= 0.3:
                why = "open floor, in a file of walkers going its way"
            elif holders >= 0.3:
                why = "open floor, beside holders"
            else:
                why = "open floor, no walker or holder near in most rows"
        agents[why] += 1
        if len(past) > 1:
            gain[why].append(f(past[0], "path_left") - f(last, "path_left"))
        left[why].append(f(last, "path_left"))
    missed = sum(agents.values())
    runs = len(end)
    print("agents: %d over %d runs, never arrived: %d (%.1f %%)" %
          (total, runs, missed, 100.0 * missed / max(total, 1)))
    print("| where and why (last %.0f s) | agents | per run | points of nav_test500 | "
          "median gain last %.0f s (m) | median path left (m) |" % (WINDOW, WINDOW))
    print("|---|--:|--:|--:|--:|--:|")
    for why, k in agents.most_common():
        g = statistics.median(gain[why]) if gain[why] else float("nan")
        print("| %s | %d | %.1f | %.1f | %.1f | %.1f |" %
              (why, k, k / runs, 100.0 * k / max(total, 1), g, statistics.median(left[why])))


if __name__ == "__main__":
    main(sys.argv[1])
