#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
"""Why arrived agents end off their targets: reads the OFF lines that
`WF_OFFSPOT_LOG=1 wayfarer scenarios ...` writes to stderr (one per agent
that arrived but stands more than 0.6 m off its target at the end of a
run; tools/crowd_runner.c, log_offspot) and prints a table per scene:

  off       agents off at the end (all runs summed)
  recent    of those, off for less than the last 5 s (pushed off lately)
  passers   walking back with an agent on its way within 1.5 m
  behind    walking back, no agent on its way near, 2+ holders within 1.5 m
  standing  not walking back (wants under 0.05 m/s: its spot is taken by a
            neighbour whose spot overlaps, or it stopped short)
  stuck5    stuck timer 5 s or more (walking back, getting no nearer)
  overlap   its target lies within 1.2 m of an arrived agent's target

Then, from the occupant columns (runner lines with 27 fields), one cause
per agent, the first that applies, by who stands nearest its target:

  pair      an arrived agent within 1.2 m of its target, exactly one
            arrived target within 1.2 m and that one within 0.9 m
            (shared_spot.c's pairs)
  knot      an arrived agent there, two or more arrived targets within 0.9 m
  crowded   an arrived agent there, two or more arrived targets within
            1.2 m, at most one of them within 0.9 m (circle128's ring)
  near      an arrived agent there, one arrived target 0.9-1.2 m away
  holder    an arrived agent there whose own target is further than 1.2 m
            (itself pushed off onto this one)
  passer    an agent on its way there, moving (0.2 m/s or more)
  parked    an agent on its way there, standing
  free      nobody within 1.2 m of its target: off for less than 5 s
            (free-recent) or longer (free-old)

usage: bench/offspot_causes.py FILE [FILE...]
"""
import collections
import sys


def rows(path):
    with open(path) as f:
        for line in f:
            if line.startswith("OFF\t"):
                yield line.rstrip("\n").split("\t")


def classify(rs):
    want = lambda r: float(r[9])
    return (
        len(rs),
        sum(float(r[5]) < 5.0 for r in rs),
        sum(want(r) >= 0.05 and int(r[12]) > 0 for r in rs),
        sum(want(r) >= 0.05 and int(r[12]) == 0 and int(r[13]) >= 2 for r in rs),
        sum(want(r) < 0.05 for r in rs),
        sum(float(r[10]) >= 5.0 for r in rs),
        sum(int(r[19]) > 0 for r in rs),
    )


CAUSES = ("pair", "knot", "crowded", "near", "holder", "passer", "parked", "free-recent", "free-old")


def cause(r):
    occ_d, occ_state = float(r[21]), int(r[22])
    overlaps, pairs, spots_apart = int(r[19]), int(r[20]), float(r[25])
    if occ_d < 1.2 and occ_state == ARRIVED:
        if spots_apart >= 1.2:
            return "holder"
        if pairs >= 2:
            return "knot"
        if overlaps >= 2:
            return "crowded"
        return "pair" if pairs == 1 else "near"
    if occ_d < 1.2:
        return "passer" if float(r[24]) >= 0.2 else "parked"
    return "free-recent" if float(r[5]) < 5.0 else "free-old"


ARRIVED = 4  # WF_TARGET_ARRIVED


def main(paths):
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    for path in paths:
        by_scene = collections.defaultdict(list)
        for r in rows(path):
            by_scene[r[1]].append(r)
        print(f"# {path}")
        print("| scene | off | recent | passers | behind | standing | stuck5 | overlap |")
        print("|---|--:|--:|--:|--:|--:|--:|--:|")
        for scene, rs in by_scene.items():
            print(f"| {scene} | " + " | ".join(str(x) for x in classify(rs)) + " |")
        print()
        print("| scene | off | " + " | ".join(CAUSES) + " |")
        print("|---|--:|" + "--:|" * len(CAUSES))
        for scene, rs in by_scene.items():
            rs = [r for r in rs if len(r) >= 28]
            counts = collections.Counter(cause(r) for r in rs)
            print(f"| {scene} | {len(rs)} | " + " | ".join(str(counts[k]) for k in CAUSES) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
