#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
"""How arrived agents came to end off their targets: reads the W lines that
`WF_WATCH_LOG=1 WF_OFFSPOT_LOG=1 wayfarer scenarios ...` writes to stderr
(tools/crowd_runner.c, log_watch: every frame of the last 8 s, every
arrived agent more than 0.3 m off its target, with the agent on its way
nearest it) and the OFF lines (log_offspot), and prints

  - agent-frames by how the holder moves against its target (away / back /
    still, 0.3 m/s) and how near the nearest walker is (touch < 1.3 m,
    near < 2 m, far);
  - with --cases CAUSE[,CAUSE] [N]: the last seconds of N agents off at the
    end of those causes (bench/offspot_causes.py), every 0.2 s: off, speed,
    wanted speed, stuck time, and the nearest walker's distance and speed,
    where the holder and its spot lie ahead of / beside that walker's motion
    (ahead > 0: the walker is coming on).

usage: bench/offspot_watch.py FILE [--cases passer 8]
"""
import collections
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import offspot_causes as oc  # noqa: E402


def runs_of(path):
    runs, cur, prev = [], None, None
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if f[0] == "W":
            if prev != "W" and (cur is None or cur["ended"]):
                cur = {"w": collections.defaultdict(list), "off": [], "ended": False}
                runs.append(cur)
            cur["w"][int(f[2])].append(f)
        elif f[0] in ("OFF", "ARR", "SPOT") and cur is not None:
            cur["ended"] = True
            if f[0] == "OFF":
                cur["off"].append(f)
        prev = f[0]
    return runs


def motion_table(runs):
    c = collections.Counter()
    for r in runs:
        for ws in r["w"].values():
            for f in ws:
                dx, dz, vx, vz = map(float, f[3:7])
                off = math.hypot(dx, dz)
                away = (vx * dx + vz * dz) / off
                k = "away" if away > 0.3 else ("back" if away < -0.3 else "still")
                bd = float(f[14])
                w = "touch" if bd < 1.3 else ("near" if bd < 2.0 else "far")
                c[(k, w)] += 1
    print("| holder | walker touch | near | far |")
    print("|---|--:|--:|--:|")
    for k in ("away", "back", "still"):
        print(f"| {k} | " + " | ".join(str(c[(k, w)]) for w in ("touch", "near", "far")) + " |")


def cases(runs, want, count):
    shown = 0
    for ri, r in enumerate(runs):
        for o in r["off"]:
            if len(o) < 28 or oc.cause(o) not in want:
                continue
            i = int(o[3])
            print(f"run {ri} agent {i} cause {oc.cause(o)} off {o[4]} since-left {o[5]}")
            for w in r["w"][i][::6][-14:]:
                t = float(w[1])
                dx, dz, vx, vz, ux, uz = map(float, w[3:9])
                px, pz, wx, wz, bd, stuck = map(float, w[10:16])
                ws = math.hypot(wx, wz)
                nan = float("nan")
                a = l = ta = tl = nan
                if ws > 0.05:
                    hx, hz = dx - px, dz - pz
                    a, l = (hx * wx + hz * wz) / ws, (hx * wz - hz * wx) / ws
                    ta, tl = (-px * wx - pz * wz) / ws, (-px * wz + pz * wx) / ws
                print(f"  t{t:5.1f} off{math.hypot(dx, dz):5.2f} v{math.hypot(vx, vz):4.2f}"
                      f" want{math.hypot(ux, uz):4.2f} stuck{stuck:4.1f} | walker {w[9]}"
                      f" d{bd:4.2f} v{ws:4.2f} holder ahead{a:+5.2f} beside{l:+5.2f}"
                      f" spot ahead{ta:+5.2f} beside{tl:+5.2f}")
            shown += 1
            if shown >= count:
                return


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    runs = runs_of(argv[0])
    motion_table(runs)
    if len(argv) > 2 and argv[1] == "--cases":
        cases(runs, set(argv[2].split(",")), int(argv[3]) if len(argv) > 3 else 8)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
