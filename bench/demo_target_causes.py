#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
#
# What becomes of the demo's in-time targets (docs/benchmarks.md, "The
# demo's in-time targets: where they are lost"). Make the log with
#   WF_TARGET_LOG=1 wayfarer scenarios --scene demo --runs 3 2> FILE
# then: bench/demo_target_causes.py FILE. Every target that was reachable at
# full speed in the time left when it was given ends reached, given up on a
# BLOCKED event (the demo then gives a new one) or open at the end. Three
# tables: by how much of the time left its path needed at full speed; by
# whether it leads into or out of the building (x -46..-4, z -16..16; its
# 2 m doorways are single-file for 0.6 m agents); and the BLOCKED ones by
# what the agent did when it was given up, where it stood and how far its
# first corner was.
import collections
import sys

from target_log import SPEED, in_building, log_lines


def place(x, y, z):
    if in_building(x, z):
        return "building, floor %d" % (0 if y < 2.0 else (1 if y < 5.5 else 2))
    if (6.0 <= x <= 34.0 and 4.0 <= z <= 12.0) or y > 1.5:
        return "tower, its ramp, bridge"
    if -4.0 <= x <= 12.0 and -22.0 <= z <= 22.0:
        return "ground east of the building"
    return "other open ground"


def read(path):
    """Each target's (given line, last line); runs follow one another."""
    runs, given, targets = 0, {}, []
    for row in log_lines(path):
        if row["tag"] != "target":
            continue
        runs += row["new_run"]  # a run's first targets
        if row["fate"] == "given":
            given[row["agent"]] = row
        elif row["agent"] in given:
            targets.append((given.pop(row["agent"]), row))
    return runs, targets


def share(counter):
    n = sum(counter.values())
    return n, counter["reached"], 100.0 * counter["reached"] / n if n else 0.0


def main(path, seconds):
    runs, targets = read(path)
    print("runs: %d, in-time targets: %d (%.1f a run)" % (runs, len(targets), len(targets) / max(runs, 1)))
    by_need = collections.defaultdict(collections.Counter)
    by_way = collections.defaultdict(collections.Counter)
    blocked = collections.Counter()
    where = collections.Counter()
    for g, end in targets:
        need = g["path"] / (SPEED * (seconds - g["t"]))
        inside, bound = in_building(g["x"], g["z"]), in_building(g["tx"], g["tz"])
        bucket = min(int(need * 5.0), 4)
        by_need[bucket][end["fate"]] += 1
        by_need[bucket]["crossing"] += inside != bound
        by_need[bucket]["crossing reached"] += inside != bound and end["fate"] == "reached"
        way = ("building" if inside else "outside") + " -> " + ("building" if bound else "outside")
        by_way[way][end["fate"]] += 1
        if end["fate"] != "blocked":
            continue
        if end["desired"] < 0.5:
            what = "waiting (wanted < 0.5 m/s)"
        elif end["speed"] < 0.5:
            what = "held up (wanted speed, moved < 0.5 m/s)"
        else:
            what = "moving >= 0.5 m/s, no nearer its corner"
        blocked[(inside != bound, what)] += 1
        where[(inside != bound, place(end["x"], end["y"], end["z"]))] += 1
    print("\npath needed, share of the time left at full speed | targets | reached | blocked | open"
          " | crossing the building's wall: targets, reached")
    for k in sorted(by_need):
        c = by_need[k]
        n = c["reached"] + c["blocked"] + c["open"]
        print("%.1f-%.1f | %d | %d (%.1f %%) | %d | %d | %d, %d" % (
            k / 5.0, (k + 1) / 5.0, n, c["reached"], 100.0 * c["reached"] / n, c["blocked"], c["open"],
            c["crossing"], c["crossing reached"]))
    print("\nfrom -> to | targets | reached | blocked | open")
    for way in sorted(by_way):
        c = by_way[way]
        n, reached, pct = share(c)
        print("%s | %d | %d (%.1f %%) | %d | %d" % (way, n, reached, pct, c["blocked"], c["open"]))
    print("\ngiven up on BLOCKED (crosses the building's wall?), what the agent did | targets")
    for (cross, what), n in sorted(blocked.items()):
        print("%s, %s | %d" % ("crossing" if cross else "not crossing", what, n))
    print("\ngiven up on BLOCKED, where | targets")
    for (cross, at), n in sorted(where.items()):
        print("%s, %s | %d" % ("crossing" if cross else "not crossing", at, n))
    ends = [end for _, end in targets if end["fate"] == "blocked"]
    print("\nBLOCKED with a partial corridor: %d" % sum(1 for end in ends if end["partial"]))
    if ends:
        corners = sorted(end["corner"] for end in ends)
        print("BLOCKED: distance to the point steered to (m), median %.1f, within 2 m %d of %d" % (
            corners[len(corners) // 2], sum(1 for d in corners if d <= 2.0), len(corners)))


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 1000 / 30.0)
