#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
"""How many of the holding misses no placement of the bodies could avoid:
reads the ARR lines that `WF_OFFSPOT_LOG=1 wayfarer scenarios ...` writes
to stderr (every agent that arrived: scene, seed, agent, target x z, end
position x z, radius, target's distance to a wall; tools/crowd_runner.c,
log_offspot) and, per run, groups the arrived agents whose targets lie
closer than two radii (chains of them). For each group it looks for
positions that keep every body clear of the others (centres at least the
radii's sum apart) within SCENE_ARRIVAL_RADIUS (0.6 m) of each target and
on the mesh side of the wall nearest the target (taken as a straight
line: the centres stay on the mesh, which is already shrunk by the agent
radius), by alternating projections from many starts; where none is found
it drops agents one at a time (the one with most conflicts) until one is.
Other walls and agents outside the group are ignored, so the count is
about a lower bound on the misses geometry forces.

usage: bench/held_bound.py FILE [FILE...]
"""
import collections
import math
import random
import sys

GOAL = float(__import__("os").environ.get("HELD_GOAL", "0.6"))
SLACK = 0.01  # bodies may touch within this (m)


def feasible(ts, r, walls=None, tries=40, iters=400):
    n = len(ts)
    if n <= 1:
        return True
    rng = random.Random(n)
    need = 2 * r - SLACK
    for t in range(tries):
        ps = [[x + rng.uniform(-GOAL, GOAL), z + rng.uniform(-GOAL, GOAL)] for x, z in ts]
        for _ in range(iters):
            worst = 0.0
            for a in range(n):
                for b in range(a + 1, n):
                    dx, dz = ps[b][0] - ps[a][0], ps[b][1] - ps[a][1]
                    d = math.hypot(dx, dz)
                    if d < need:
                        worst = max(worst, need - d)
                        if d < 1e-9:
                            dx, dz, d = rng.uniform(-1, 1), rng.uniform(-1, 1), 1.0
                            d = math.hypot(dx, dz)
                        m = (need - d) / 2 / d
                        ps[a][0] -= dx * m
                        ps[a][1] -= dz * m
                        ps[b][0] += dx * m
                        ps[b][1] += dz * m
            for k, (x, z) in enumerate(ts):
                if walls and walls[k]:
                    hx, hz, nx, nz = walls[k]
                    inside = (ps[k][0] - hx) * nx + (ps[k][1] - hz) * nz
                    if inside < 0.0:
                        worst = max(worst, -inside)
                        ps[k][0] -= nx * inside
                        ps[k][1] -= nz * inside
                dx, dz = ps[k][0] - x, ps[k][1] - z
                d = math.hypot(dx, dz)
                if d > GOAL:
                    worst = max(worst, d - GOAL)
                    ps[k][0] = x + dx * GOAL / d
                    ps[k][1] = z + dz * GOAL / d
            if worst < 1e-4:
                return True
    return False


def forced_misses(ts, r, walls):
    ts, walls = list(ts), list(walls)
    dropped = 0
    while not feasible(ts, r, walls):
        # Drop the target with the most others within two radii.
        counts = [sum(math.dist(a, b) < 2 * r for b in ts) for a in ts]
        k = counts.index(max(counts))
        ts.pop(k)
        walls.pop(k)
        dropped += 1
    return dropped


def groups(agents, r):
    n = len(agents)
    seen = [False] * n
    for s in range(n):
        if seen[s]:
            continue
        seen[s] = True
        stack, g = [s], []
        while stack:
            a = stack.pop()
            g.append(a)
            for b in range(n):
                if not seen[b] and math.dist(agents[a], agents[b]) < 2 * r:
                    seen[b] = True
                    stack.append(b)
        if len(g) > 1:
            yield g


def read_arrivals(paths):
    """The ARR lines of the logs at paths, per (scene, run): a list of
    (x, z, end x, end z, radius, wall or None), wall = (hx, hz, nx, nz) the
    nearest wall within 3 m with its normal towards the mesh."""
    runs = collections.defaultdict(list)
    for path in paths:
        with open(path) as f:
            for line in f:
                if line.startswith("ARR\t"):
                    p = line.rstrip("\n").split("\t")
                    x = [float(v) for v in p[4:]]
                    wall = None
                    if len(x) >= 10 and 0.0 <= x[5] < 3.0 and x[8] * x[8] + x[9] * x[9] > 0.5:
                        hx, hz, nx, nz = x[6:10]
                        n = math.hypot(nx, nz)
                        nx, nz = nx / n, nz / n
                        if (x[0] - hx) * nx + (x[1] - hz) * nz < 0.0:
                            nx, nz = -nx, -nz  # the target's side is the mesh's
                        wall = (hx, hz, nx, nz)
                    runs[(p[1], int(p[2]))].append((x[0], x[1], x[2], x[3], x[4], wall))
    return runs


def main(paths):
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    runs = read_arrivals(paths)
    total = collections.Counter()
    for (scene, seed), rows in sorted(runs.items()):
        r = max(x[4] for x in rows)
        ts = [(x[0], x[1]) for x in rows]
        off = sum(math.dist((x[0], x[1]), (x[2], x[3])) > GOAL for x in rows)
        forced = in_groups = off_in_groups = 0
        for g in groups(ts, r):
            in_groups += len(g)
            off_in_groups += sum(math.dist(ts[k], (rows[k][2], rows[k][3])) > GOAL for k in g)
            forced += forced_misses([ts[k] for k in g], r, [rows[k][5] for k in g])
        total[(scene, "arrived")] += len(rows)
        total[(scene, "off")] += off
        total[(scene, "forced")] += forced
        total[(scene, "grouped")] += in_groups
        total[(scene, "off_grouped")] += off_in_groups
    print("| scene | arrived | off | held % | targets within 2 radii of another | of them off | forced misses | held % at best |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|")
    for scene in sorted({k[0] for k in total}):
        a, o, f = total[(scene, "arrived")], total[(scene, "off")], total[(scene, "forced")]
        print(f"| {scene} | {a} | {o} | {100 * (a - o) / a:.1f} | {total[(scene, 'grouped')]} | "
              f"{total[(scene, 'off_grouped')]} | {f} | {100 * (a - f) / a:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
