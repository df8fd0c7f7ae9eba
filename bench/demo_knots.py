#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
#
# Where the demo's knots hold agents (docs/benchmarks.md, demo21).
#   WF_TARGET_LOG=1 wayfarer scenarios --scene demo --runs N 2> LOG
#   bench/demo_knots.py LOG
# maps the in-time outside -> outside targets given up on BLOCKED on the
# ground east of the building (2 m cells) with the way each was headed;
#   wayfarer scenarios --scene demo --runs N --trace TRACE --trace-every 2.5
#   bench/demo_knots.py --trace TRACE
# counts the points that ground agents stuck over 2 s steer to (their next
# corner, to the metre): a door mouth, a wall's or the tower's corner.
import collections
import sys

from target_log import in_building, log_lines

X0, X1, Z0, Z1 = -12, 20, -30, 12  # the ground east of the building, the tower's west end


def give_up_map(path):
    cells = collections.Counter()
    heading = collections.Counter()
    given = {}
    total = 0
    for r in log_lines(path):
        if r["tag"] != "target":
            continue
        if r["fate"] == "given":
            given[r["agent"]] = r
            continue
        g = given.get(r["agent"])
        if r["fate"] != "blocked" or g is None:
            continue
        if in_building(g["x"], g["z"]) or in_building(r["tx"], r["tz"]) or r["y"] > 1.5:
            continue
        total += 1
        x, z = r["x"], r["z"]
        if not (X0 <= x < X1 and Z0 <= z < Z1):
            continue
        cells[(int((x - X0) // 2), int((z - Z0) // 2))] += 1
        dx, dz = r["tx"] - x, r["tz"] - z
        if abs(dx) > abs(dz):
            heading["+x (east)" if dx > 0 else "-x (west)"] += 1
        else:
            heading["+z (south)" if dz > 0 else "-z (north)"] += 1
    inside = sum(cells.values())
    print("outside -> outside targets given up on BLOCKED on the ground: %d, in the map %d" % (total, inside))
    print("2 m cells, x %d..%d (columns), z %d..%d (rows)" % (X0, X1, Z0, Z1))
    for zi in range((Z1 - Z0) // 2):
        line = "".join("%3d" % cells[(xi, zi)] if cells[(xi, zi)] else "  ." for xi in range((X1 - X0) // 2))
        print("%5d %s" % (Z0 + 2 * zi, line))
    print("    x " + "".join("%3d" % (X0 + 2 * xi) for xi in range((X1 - X0) // 2)))
    print("headed (to the target): " + ", ".join("%s %d" % kv for kv in heading.most_common()))


def stuck_corners(path, top=20):
    rows = (line.rstrip("\n").split("\t") for line in open(path))
    header = next(rows)
    col = {name: k for k, name in enumerate(header)}
    points = collections.Counter()
    ground = strip = 0
    for r in rows:
        if r[0] != "demo" or float(r[col["t"]]) < 5.0:
            continue
        x, y, z = float(r[col["x"]]), float(r[col["y"]]), float(r[col["z"]])
        if y > 1.5 or float(r[col["stuck_s"]]) < 2.0:
            continue
        ground += 1
        if not (-4.0 <= x <= 10.0 and -20.0 <= z <= 14.0):
            continue
        strip += 1
        points[(round(float(r[col["corner_x"]])), round(float(r[col["corner_z"]])))] += 1
    print("ground agents stuck over 2 s (t >= 5 s): %d, east of the building (x -4..10, z -20..14): %d" % (ground, strip))
    print("the point they steer to (x, z), agent-samples:")
    for (x, z), n in points.most_common(top):
        print("  %4d %4d  %d" % (x, z, n))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--trace":
        stuck_corners(sys.argv[2])
    elif len(sys.argv) == 2:
        give_up_map(sys.argv[1])
    else:
        sys.exit("usage: demo_knots.py TARGET_LOG | --trace TRACE")
