#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
#
# What holds nav_test500's non-arrivers that stand against a wall on open
# floor (bench/nav_miss_places.py's "against a wall" class; docs/benchmarks.md
# "wall19"). Needs the trace's wall_nx / wall_nz (the nearest wall's normal,
# from the wall to the agent) and corner_wall (the steering point's distance
# to a wall). Each such agent's rows of the last 20 s with the agent under
# 0.3 m from a wall are read; the agent goes in the first class that holds
# in at least 30 % of them:
#   - at a corner: the point it steers to is on a wall (a navmesh vertex,
#     under 0.1 m from an edge) and within 1 m: rounding a pillar or jamb;
#   - pushed in: a walker within 2 m on its open side (beyond the agent from
#     the wall) coming the other way (desired velocities over 120 degrees
#     apart);
#   - wants into the wall: its desired velocity points into the wall
#     (cos > 0.3 with the wall's inward normal);
#   - along the wall, walker ahead: desired along the wall and a walker
#     within 2 m ahead of it (any direction);
#   - along the wall, alone: the rest.
# Also prints, over all those rows: the share where the steering point is on
# a wall, the desired speed and the speed, and the share where the agent
# moves under 0.5 m/s while wanting over 1 m/s.
import collections
import math
import statistics
import sys

from trace_rows import num as f, read_trace, rows_at_time

WINDOW = 20.0



def unit(x, z):
    n = math.hypot(x, z)
    return (x / n, z / n) if n > 1e-6 else None


def features(r, same_time):
    x, z = f(r, "x"), f(r, "z")
    n = (f(r, "wall_nx"), f(r, "wall_nz"))
    d = unit(f(r, "desired_x"), f(r, "desired_z"))
    into = -(d[0] * n[0] + d[1] * n[1]) if d else 0.0
    cx, cz = f(r, "corner_x"), f(r, "corner_z")
    corner_d = math.hypot(cx - x, cz - z)
    cw = f(r, "corner_wall")
    at_corner = 0 <= cw < 0.1 and corner_d < 1.0
    corner_on_wall = 0 <= cw < 0.1
    pushed = ahead = False
    for o in same_time:
        if o is r:
            continue
        ox, oz = f(o, "x") - x, f(o, "z") - z
        dist = math.hypot(ox, oz)
        if dist >= 2.0 or dist < 1e-6:
            continue
        od = unit(f(o, "desired_x"), f(o, "desired_z"))
        if d and od and d[0] * od[0] + d[1] * od[1] < -0.5 and ox * n[0] + oz * n[1] > 0.0:
            pushed = True
        if d and (ox * d[0] + oz * d[1]) / dist > 0.5:
            ahead = True
    return dict(into=into, at_corner=at_corner, corner_on_wall=corner_on_wall,
                pushed=pushed, ahead=ahead, corner_d=corner_d,
                speed=f(r, "speed"), want=f(r, "desired_speed"))


def main(path):
    by, end = read_trace(path)
    at_time = rows_at_time(by)
    classes = collections.Counter()
    rows_all = []
    examples = collections.defaultdict(list)
    for (seed, agent), rows in by.items():
        run = end[seed]
        last = rows[-1]
        if f(last, "t") < run - 0.05 or f(last, "path_left") < 0 or last["target_state"] in "45":
            continue
        past = [r for r in rows if f(r, "t") >= run - WINDOW]
        if sum(r["partial"] != "0" for r in past) * 2 > len(past):
            continue
        known = [f(r, "distance") for r in past]
        if statistics.median(known) < 2.5:
            continue
        widths = [f(r, "width") for r in past if f(r, "width") >= 0]
        if widths and statistics.median(widths) < 2.4:
            continue
        walled = [r for r in past if 0 <= f(r, "wall") < 0.3]
        if len(walled) * 2 <= len(past):
            continue
        fs = [features(r, at_time[(seed, r["t"])]) for r in walled]
        rows_all += fs
        share = lambda k: sum(1 for x in fs if x[k]) / len(fs)
        if share("at_corner") >= 0.3:
            why = "at a corner (steering point on a wall, within 1 m)"
        elif share("pushed") >= 0.3:
            why = "pushed in (oncoming walker within 2 m on its open side)"
        elif sum(1 for x in fs if x["into"] > 0.3) / len(fs) >= 0.3:
            why = "wants into the wall (desired into it, cos > 0.3)"
        elif share("ahead") >= 0.3:
            why = "along the wall, a walker ahead within 2 m"
        else:
            why = "along the wall, nobody ahead"
        classes[why] += 1
        examples[why].append((seed, agent))
    total = sum(classes.values())
    print("wall agents: %d (rows %d)" % (total, len(rows_all)))
    for why, k in classes.most_common():
        print("| %s | %d | %.0f %% | e.g. %s |" % (why, k, 100.0 * k / total, examples[why][:4]))
    m = len(rows_all)
    print("rows: steering point on a wall %.0f %%, within 1 m of it %.0f %%, pushed %.0f %%, "
          "desired into the wall (cos > 0.3) %.0f %%, walker ahead %.0f %%" % (
              100.0 * sum(x["corner_on_wall"] for x in rows_all) / m,
              100.0 * sum(x["at_corner"] for x in rows_all) / m,
              100.0 * sum(x["pushed"] for x in rows_all) / m,
              100.0 * sum(x["into"] > 0.3 for x in rows_all) / m,
              100.0 * sum(x["ahead"] for x in rows_all) / m))
    print("rows: median speed %.2f, median wanted %.2f, stalled (< 0.5 wanting > 1) %.0f %%, "
          "median m to the steering point %.2f" % (
              statistics.median(x["speed"] for x in rows_all),
              statistics.median(x["want"] for x in rows_all),
              100.0 * sum(x["speed"] < 0.5 and x["want"] > 1 for x in rows_all) / m,
              statistics.median(x["corner_d"] for x in rows_all)))


if __name__ == "__main__":
    main(sys.argv[1])
