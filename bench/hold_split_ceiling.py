#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
"""How many holders that end a little off their targets (LO-HI m, default
0.6-0.8) a settled placement among crowded spots could bring within 0.6 m:
reads the ARR lines of `WF_OFFSPOT_LOG=1 wayfarer scenarios ...` (stderr;
tools/crowd_runner.c, log_offspot: every agent that arrived, its target,
end position, radius and nearest wall) and, per off holder:

  touch     the arrived agent nearest its end position touches it (< 1.25
            times the radii's sum... taken as 2r + 0.05 m)
  chain     its target lies within two radii of another arrived target
            (held_bound.py's groups); the rest are off for other reasons
  split     a symmetric split places it within 0.6 m: its group's spots
            start on their targets, pairs nearer than two radii are pushed
            apart half each, each is drawn back within CAP of its target
            and onto the mesh side of its nearest wall, ROUNDS rounds (as
            shared_spot.c's knot_spot, but over the whole chain and with
            every spot, also those 0.9-1.2 m apart); counted when it ends
            within 0.6 m of its target and no body of the group overlaps
            it by more than 0.02 m
  any       some placement of its group keeps it and every other within
            0.6 m, bodies clear (held_bound.py's feasible): the ceiling

usage: bench/hold_split_ceiling.py FILE [LO HI]
"""
import collections
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import held_bound as hb  # noqa: E402

CAP = float(os.environ.get("SPLIT_CAP", "0.54"))
ROUNDS = int(os.environ.get("SPLIT_ROUNDS", "12"))


def split(ts, r, walls):
    ps = [list(t) for t in ts]
    n = len(ps)
    for _ in range(ROUNDS):
        m = [[0.0, 0.0] for _ in range(n)]
        for a in range(n):
            for b in range(a + 1, n):
                dx, dz = ps[a][0] - ps[b][0], ps[a][1] - ps[b][1]
                d = math.hypot(dx, dz)
                if d >= 2 * r or d < 1e-4:
                    continue
                lack = (2 * r - d) / d * 0.5
                m[a][0] += dx * lack
                m[a][1] += dz * lack
                m[b][0] -= dx * lack
                m[b][1] -= dz * lack
        for k in range(n):
            x, z = ps[k][0] + m[k][0], ps[k][1] + m[k][1]
            w = walls[k]
            if w:
                hx, hz, nx, nz = w
                inside = (x - hx) * nx + (z - hz) * nz
                if inside < 0.0:
                    x, z = x - nx * inside, z - nz * inside
            ox, oz = x - ts[k][0], z - ts[k][1]
            off = math.hypot(ox, oz)
            s = CAP / off if off > CAP else 1.0
            ps[k] = [ts[k][0] + ox * s, ts[k][1] + oz * s]
    return ps


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    lo, hi = (float(argv[1]), float(argv[2])) if len(argv) > 2 else (0.6, 0.8)
    runs = hb.read_arrivals([argv[0]])
    c = collections.Counter()
    for key, rows in sorted(runs.items()):
        r = max(x[4] for x in rows)
        ts = [(x[0], x[1]) for x in rows]
        ends = [(x[2], x[3]) for x in rows]
        member = {}
        for g in hb.groups(ts, r):
            for k in g:
                member[k] = g
        for i, row in enumerate(rows):
            off = math.dist(ts[i], ends[i])
            if off > hb.GOAL:
                c["off"] += 1
            if not (lo < off <= hi):
                continue
            c["case"] += 1
            near = min(math.dist(ends[i], ends[j]) for j in range(len(rows)) if j != i)
            c["touch"] += near < 2 * r + 0.05
            g = member.get(i)
            if g is None:
                continue
            c["chain"] += 1
            gts = [ts[k] for k in g]
            gw = [rows[k][5] for k in g]
            ps = split(gts, r, gw)
            a = g.index(i)
            ok = math.dist(ps[a], gts[a]) <= hb.GOAL and all(
                math.dist(ps[a], ps[b]) >= 2 * r - 0.02 for b in range(len(g)) if b != a)
            c["split"] += ok
            c["size%d" % min(len(g), 5)] += 1
            c["split_size%d" % min(len(g), 5)] += ok
            c["any"] += hb.forced_misses(gts, r, gw) == 0
    print(f"off {c['off']}; {lo}-{hi} m off: {c['case']}, touching {c['touch']}, "
          f"target in a chain {c['chain']}, symmetric split within 0.6 m {c['split']}, "
          f"some placement of the whole chain {c['any']}")
    print("chain size (5 = 5+): " + ", ".join(
        f"{s}: {c['split_size%d' % s]}/{c['size%d' % s]}" for s in range(2, 6)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
