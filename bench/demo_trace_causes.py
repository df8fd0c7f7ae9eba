#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
#
# Why the demo's agents miss their first targets (docs/benchmarks.md, "The
# demo: why agents miss targets they could reach"). Make the trace with
#   wayfarer scenarios --scene demo --runs 3 --trace FILE --trace-every 1
# then: bench/demo_trace_causes.py FILE. Only first targets reachable in
# the run (shortest path at most 3.5 m/s x the run) are counted; each one
# missed is put in one class, from the trace lines of its agent:
#   - given up on BLOCKED (the demo gives a new target then), split by the
#     two seconds before: pushed back (the shortest path left grew by more
#     than 0.3 m while the agent moved against the velocity it wanted),
#     waiting (wanted under 0.5 m/s), slow in a knot (5 or more neighbours),
#     or other;
#   - still on its way at the end, split by its mean progress along the
#     shortest path (m/s) and how much of the run its path needed at full
#     speed;
# and by where it was: in the building, on the tower, its ramp or the
# bridge, in the 26 m of ground east of the building (between it and the
# tower, the gap every north-south route on that side takes), or elsewhere.
import collections
import math
import sys

from trace_rows import read_trace

SPEED = 3.5


def region(r):
    x, y, z = float(r["x"]), float(r["y"]), float(r["z"])
    if -46 < x < -4 and -16 < z < 16:
        return "building"
    if (6 <= x <= 34 and 4 <= z <= 12) or y > 1.5:
        return "tower, its ramp, bridge"
    if -4 <= x <= 12 and -22 <= z <= 22:
        return "ground east of the building"
    return "other open ground"


def main(path):
    by, end = read_trace(path)
    causes, places = collections.Counter(), collections.Counter()
    reachable = 0
    for (seed, _), rows in by.items():
        first = rows[0]
        if float(first["t"]) > 0.1:
            continue
        run = end[seed]
        if not 0.0 <= float(first["path_left"]) <= SPEED * run:
            continue
        reachable += 1
        given_up = next((k for k, r in enumerate(rows) if r["target_x"] != first["target_x"]), None)
        if given_up is None and float(rows[-1]["t"]) < run - 0.05:
            continue  # reached it
        if given_up is not None:
            last = rows[given_up - 1]
            t = float(last["t"])
            window = [r for r in rows[:given_up] if float(r["t"]) >= t - 2.0]
            grew = float(last["path_left"]) - float(window[0]["path_left"])
            against = 0.0
            for r in window:
                vx, vz = float(r["velocity_x"]), float(r["velocity_z"])
                dx, dz = float(r["desired_x"]), float(r["desired_z"])
                nv, nd = math.hypot(vx, vz), math.hypot(dx, dz)
                if nv > 0.05 and nd > 0.05:
                    against += (vx * dx + vz * dz) / (nv * nd) < 0.0
            if float(last["desired_speed"]) < 0.5:
                why = "BLOCKED, waiting (wanted < 0.5 m/s)"
            elif grew > 0.3 and against >= len(window) / 2:
                why = "BLOCKED, pushed back against the way it wanted"
            elif int(last["neighbours"]) >= 5:
                why = "BLOCKED, slow in a knot (>= 5 neighbours)"
            else:
                why = "BLOCKED, other"
        else:
            last = rows[-1]
            progress = (float(first["path_left"]) - float(last["path_left"])) / run
            need = float(first["path_left"]) / (SPEED * run)
            why = "on its way at the end, %s m/s, path needed %s of the run at full speed" % (
                "< 1.5" if progress < 1.5 else ">= 1.5",
                "> 80 %" if need > 0.8 else "<= 80 %",
            )
        causes[why] += 1
        places[(why.split(",")[0], region(last))] += 1
    missed = sum(causes.values())
    print("first targets reachable in the run: %d, missed: %d" % (reachable, missed))
    for why, n in causes.most_common():
        print("%5d  %s" % (n, why))
    print("where:")
    for (kind, place), n in sorted(places.items()):
        print("%5d  %s, %s" % (n, kind, place))


if __name__ == "__main__":
    main(sys.argv[1])
