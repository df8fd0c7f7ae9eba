#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
#
# What nav_test500's non-arrivers are doing at the end of the run, and who
# holds up the files they stand in (docs/benchmarks.md, "nav21"). Make the
# trace with
#   wayfarer scenarios --scene nav_test500 --runs N --trace FILE --trace-every 1
# then: bench/nav_miss_heads.py [--places] FILE [FILE...]. For each agent
# that never arrived:
#   - its state and speed at the end (standing under 0.3 m/s, slow under 1);
#   - over the last 20 s: the share of rows BLOCKED and standing;
#   - at the last row, the walker ahead of it (within 2 m along its desired
#     velocity, within 1 m of its line), that one's walker ahead, and so on
#     to the head of the file; the head (or the agent itself, with nobody
#     ahead) is put in the first class that fits: an oncoming walker within
#     2 m (desired velocities over 120 degrees apart), a crossing one
#     (60-120), a wall within 0.3 m, a holder within 1.5 m, BLOCKED, else
#     free.
# Holders are not in the trace (only agents not yet at their first target),
# so a file held by a holder reads as "holder" at its head.
# Several traces may be given (their counts add up); with --places, also
# where the heads of each class stand: the 3 m cells (x, z rounded) with
# the most non-arrivers held there, and in how many runs
# (docs/benchmarks.md, "nav22").
import collections
import math
import sys

from trace_rows import direction, num as f, read_trace, rows_at_time

WINDOW = 20.0
NEAR = 2.0


def walker_ahead(r, same_time):
    """The nearest walker in front of r on its line, or None."""
    d = direction(r)
    if d is None:
        return None
    best, best_along = None, NEAR
    for o in same_time:
        if o is r:
            continue
        ox, oz = f(o, "x") - f(r, "x"), f(o, "z") - f(r, "z")
        along = ox * d[0] + oz * d[1]
        across = abs(-ox * d[1] + oz * d[0])
        if 0.2 < along < best_along and across < 1.0:
            best, best_along = o, along
    return best


def what_holds(r, same_time):
    d = direction(r)
    if d is None:
        return "no wish to move"
    oncoming = crossing = 0
    for o in same_time:
        if o is r or math.hypot(f(o, "x") - f(r, "x"), f(o, "z") - f(r, "z")) >= NEAR:
            continue
        e = direction(o)
        if e is None:
            continue
        cos = d[0] * e[0] + d[1] * e[1]
        oncoming += cos < -0.5
        crossing += -0.5 <= cos < 0.5
    if oncoming:
        return "an oncoming walker (two-way knot)"
    if crossing:
        return "a crossing walker"
    if 0 <= f(r, "wall") < 0.3:
        return "a wall within 0.3 m"
    if int(r["near_holders"]) > 0:
        return "a holder within 1.5 m"
    if r["target_state"] == "5":
        return "BLOCKED"
    return "nothing near (free)"


CELL = 3.0


def classify(path, held, state, window, depth, cells):
    """Adds the non-arrivers of one trace to the counters; returns how many
    never arrived and over how many runs."""
    by, end = read_trace(path)
    at_time = rows_at_time(by)
    missed = 0
    for (seed, _), rows in by.items():
        last = rows[-1]
        if f(last, "t") < end[seed] - 0.05:
            continue  # arrived
        missed += 1
        speed = f(last, "speed")
        name = {"2": "VALID", "4": "ARRIVED (stopped short)", "5": "BLOCKED"}
        state[(name.get(last["target_state"], last["target_state"]),
               "standing" if speed < 0.3 else "slow (< 1 m/s)" if speed < 1 else "walking")] += 1
        past = [r for r in rows if f(r, "t") >= end[seed] - WINDOW]
        blocked = sum(r["target_state"] == "5" for r in past) / len(past)
        standing = sum(f(r, "speed") < 0.3 for r in past) / len(past)
        window["BLOCKED in some row of the last 20 s"] += blocked > 0
        window["standing in half the rows of the last 20 s or more"] += standing >= 0.5
        same = at_time[(seed, last["t"])]
        head, n, seen = last, 0, {id(last)}
        while True:
            ahead = walker_ahead(head, same)
            if ahead is None or id(ahead) in seen:
                break
            seen.add(id(ahead))
            head, n = ahead, n + 1
        depth[min(n, 5)] += 1
        what = what_holds(head, same)
        held[("in a file, its head held by " if n else "itself held by ") + what] += 1
        cell = (round(f(head, "x") / CELL) * CELL, round(f(head, "z") / CELL) * CELL)
        cells[what][cell].append(seed)
    return missed, len(end)


def main(paths, places):
    held = collections.Counter()
    state = collections.Counter()
    window = collections.Counter()
    depth = collections.Counter()
    cells = collections.defaultdict(lambda: collections.defaultdict(list))
    missed = runs = 0
    for path in paths:
        m, r = classify(path, held, state, window, depth, cells)
        missed, runs = missed + m, runs + r
    print("never arrived: %d over %d runs" % (missed, runs))
    print("| at the end: state, speed | agents |\n|---|--:|")
    for k, v in sorted(state.items()):
        print("| %s, %s | %d |" % (k[0], k[1], v))
    for k, v in sorted(window.items()):
        print("| %s | %d |" % (k, v))
    print("\n| what holds it at the end | agents | share |\n|---|--:|--:|")
    for k, v in held.most_common():
        print("| %s | %d | %.0f %% |" % (k, v, 100.0 * v / max(missed, 1)))
    print("\nwalkers ahead of it in its file (5: 5 or more):",
          ", ".join("%d: %d" % kv for kv in sorted(depth.items())))
    if not places:
        return
    for what, by_cell in sorted(cells.items(), key=lambda kv: -sum(map(len, kv[1].values()))):
        total = sum(map(len, by_cell.values()))
        top = sorted(by_cell.items(), key=lambda kv: -len(kv[1]))[:5]
        print("\n%s (%d): " % (what, total) + "; ".join(
            "(%g, %g) %d in %d runs" % (c[0], c[1], len(s), len(set(s))) for c, s in top))


if __name__ == "__main__":
    args = sys.argv[1:]
    main([a for a in args if a != "--places"], "--places" in args)
