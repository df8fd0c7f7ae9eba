#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
#
# Every in-time target the demo misses, in one class (docs/benchmarks.md,
# "demo17"). Make the log with
#   WF_TARGET_LOG=1 wayfarer scenarios --scene demo --runs 10 2> FILE
# then: bench/demo_miss_table.py FILE [SLACK]. A target is in time (the
# scenario's old count) when its shortest path is at most 3.5 m/s x the time
# left when it was given; with SLACK (default 1.25, what a free agent needs:
# acceleration, corners, ramps) it is also "in time for a lone agent" when
# SLACK x that path fits. Classes of a miss:
#   - beyond a lone agent: needed more than 1 / SLACK of the time left;
#   - on its way at the end: by the shortest path left (seconds at full
#     speed) and whether it still walked (>= 0.5 m/s) or stood in a knot;
#   - given up on BLOCKED (the demo then gives a new target): what the
#     agent did (waiting, held up, jostled) and where;
#   - a stale or failed path: the corridor was partial when it ended.
# Obstacles that appear: the scene is static (doors open, no crates), so
# none; `wayfarer demo` adds them.
import collections
import sys

SPEED = 3.5


def place(x, y, z):
    if -46.0 < x < -4.0 and -16.0 < z < 16.0:
        return "in the building"
    if (6.0 <= x <= 34.0 and 4.0 <= z <= 12.0) or y > 1.5:
        return "tower, its ramp, bridge"
    if -4.0 <= x <= 12.0 and -22.0 <= z <= 4.0:
        return "ground at the building's east door (x -4..12, z -22..4)"
    if -4.0 <= x <= 12.0 and 4.0 < z <= 22.0:
        return "the gap under the bridge (x -4..12, z 4..22)"
    return "other open ground"


def read(path):
    """(given row, end row) of every in-time target; runs one after another."""
    given, out, last = {}, [], None
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if len(f) < 18 or f[0] != "target":
            continue
        row = {"fate": f[1], "agent": int(f[3]), "t": float(f[4]), "path": float(f[6]),
               "x": float(f[7]), "y": float(f[8]), "z": float(f[9]), "partial": int(f[14]),
               "speed": float(f[15]), "desired": float(f[16])}
        if row["t"] == 0.0 and (last is None or last > 0.0):
            given = {}  # a new run
        last = row["t"]
        if row["fate"] == "given":
            given[row["agent"]] = row
        elif row["agent"] in given:
            out.append((given.pop(row["agent"]), row))
    return out


def classify(g, end, seconds, slack):
    if end["partial"]:
        return "a stale or failed path (partial corridor)"
    if g["path"] * slack > SPEED * (seconds - g["t"]):
        return "beyond a lone agent (needed > %.0f %% of the time left)" % (100.0 / slack)
    if end["fate"] == "open":
        left = end["path"] / SPEED
        when = "<= 2 s" if left <= 2.0 else ("2-6 s" if left <= 6.0 else "> 6 s")
        how = "walking" if end["speed"] >= 0.5 else "standing in a knot"
        return "on its way at the end, %s, %s of path left" % (how, when)
    if end["fate"] == "blocked":
        if end["desired"] < 0.5:
            what = "waiting its turn"
        elif end["speed"] < 0.5:
            what = "held up"
        else:
            what = "jostled, no nearer"
        return "given up on BLOCKED, %s" % what
    return "ended otherwise (%s)" % end["fate"]


def main(path, seconds, slack):
    targets = read(path)
    misses = [(g, e) for g, e in targets if e["fate"] != "reached"]
    honest = [(g, e) for g, e in targets if g["path"] * slack <= SPEED * (seconds - g["t"])]
    print("in-time targets %d, reached %d (%.1f %%)" % (
        len(targets), len(targets) - len(misses), 100.0 * (len(targets) - len(misses)) / len(targets)))
    hr = sum(1 for _, e in honest if e["fate"] == "reached")
    print("in time for a lone agent (slack %.2f): %d, reached %d (%.1f %%)" % (
        slack, len(honest), hr, 100.0 * hr / max(len(honest), 1)))
    classes = collections.Counter(classify(g, e, seconds, slack) for g, e in misses)
    print("\nmissed, class | targets | share of misses")
    for c, n in sorted(classes.items(), key=lambda kv: -kv[1]):
        print("%s | %d | %.1f %%" % (c, n, 100.0 * n / len(misses)))
    where = collections.Counter()
    for g, e in misses:
        c = classify(g, e, seconds, slack)
        if c.startswith("given up") or "standing" in c:
            where[place(e["x"], e["y"], e["z"])] += 1
    print("\njammed (BLOCKED, or standing at the end), where | targets")
    for w, n in sorted(where.items(), key=lambda kv: -kv[1]):
        print("%s | %d" % (w, n))


if __name__ == "__main__":
    main(sys.argv[1], 1000 / 30.0, float(sys.argv[2]) if len(sys.argv) > 2 else 1.25)
