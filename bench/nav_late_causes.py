#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
#
# Where nav_test500's free-but-late agents lost their time (docs/benchmarks.md,
# "late23"). Make the trace with
#   wayfarer scenarios --scene nav_test500 --runs N --trace FILE --trace-every 1
# then: bench/nav_late_causes.py FILE [FILE...]. The agents looked at are the
# non-arrivers that nav_miss_heads.py calls "itself held by nothing near":
# no file ahead of them and nobody, no wall, no holder near at the end.
# Each one's 60 s are split, interval by interval (trace rows), into the
# time a walker at full speed on the shortest path would have needed for the
# ground it gained (path_left before minus after, over max speed) and the
# time it lost; the lost time is split into
#   - slow: (full speed x dt - walked) / full speed, put down to: not
#     wanting to walk (wants under 1 m/s), no corridor, others within 1.5 m,
#     a wall within 0.3 m, wanting less than full speed (corners, the
#     arrival slow-down), else slower than it wants with nobody near;
#   - off the shortest path: (walked - gained) / full speed, put down to
#     others within 1.5 m (dodging) or nobody near (its corridor or its
#     line is longer than the shortest path: the crowding price, a
#     re-search, a wide turn).
# Each agent gets the largest of those as its cause; the table also gives
# the seconds lost by cause over all of them, the seconds it still needed
# at the end at full speed, and its shortest path at the start.
# Then how each one did in the last 10 s (shortest-path metres gained: over
# 15, 5-15, under 5 with the nearest agent within 2.5 m or not), and what
# held the head of its file (nav_miss_heads.py's classes) at the middle of
# its longest stall (rows under 0.6 m/s in a row). Holders are not in the
# trace: a file held by holders 1.5-2.5 m away reads "nothing near" there.
# --class WORDS: the non-arrivers whose file's head (or itself) ends in
# nav_miss_heads.py's class containing WORDS ("crossing", "wall") instead.
import collections
import sys

from nav_miss_heads import walker_ahead, what_holds
from trace_rows import num as f, read_trace, rows_at_time

SPEED = 3.5


def slow_cause(a, b):
    if max(f(a, "corridor"), f(b, "corridor")) == 0:
        return "slow: no corridor"
    want = (f(a, "desired_speed") + f(b, "desired_speed")) / 2
    if want < 1.0:
        return "slow: not wanting to walk"
    if max(int(a["near"]), int(b["near"])) > 0:
        return "slow: others within 1.5 m"
    if 0 <= min(f(a, "wall"), f(b, "wall")) < 0.3:
        return "slow: wall within 0.3 m"
    if want < SPEED - 0.3:
        return "slow: wants less than full speed, nobody near"
    return "slow: slower than it wants, nobody near"


def head_of(r, same):
    head, seen = r, {id(r)}
    while True:
        ahead = walker_ahead(head, same)
        if ahead is None or id(ahead) in seen:
            return head
        seen.add(id(ahead))
        head = ahead


def last_10s(rows, end):
    past = [r for r in rows if f(r, "t") >= end - 10.0]
    gain = f(past[0], "path_left") - f(rows[-1], "path_left")
    if gain > 15:
        return "moving well (over 15 m gained): late from losses before"
    if gain > 5:
        return "moving slowly (5-15 m gained)"
    if min(f(r, "nearest") for r in past[-3:]) < 2.5:
        return "stalled (under 5 m), an agent within 2.5 m"
    return "stalled (under 5 m), nobody within 2.5 m"


def longest_stall(rows, seed, at_time):
    best, i = (0, 0), 0
    while i < len(rows):
        j = i
        while j < len(rows) and f(rows[j], "speed") < 0.6:
            j += 1
        if j - i > best[1] - best[0]:
            best = (i, j)
        i = max(j, i + 1)
    if best[1] == best[0]:
        return "no stall"
    mid = rows[(best[0] + best[1]) // 2]
    same = at_time[(seed, mid["t"])]
    return what_holds(head_of(mid, same), same)


def main(paths, wanted):
    lost = collections.Counter()
    main_cause = collections.Counter()
    agents = 0
    needed, starts, detail = [], [], []
    late, stall = collections.Counter(), collections.Counter()
    for path in paths:
        by, end = read_trace(path)
        at_time = rows_at_time(by)
        for (seed, agent), rows in by.items():
            last = rows[-1]
            if f(last, "t") < end[seed] - 0.05:
                continue  # arrived
            same = at_time[(seed, last["t"])]
            if wanted is None:
                if walker_ahead(last, same) is not None or \
                        what_holds(last, same) != "nothing near (free)":
                    continue
            elif wanted not in what_holds(head_of(last, same), same):
                continue
            agents += 1
            mine = collections.Counter()
            for a, b in zip(rows, rows[1:]):
                dt = f(b, "t") - f(a, "t")
                pa, pb = f(a, "path_left"), f(b, "path_left")
                if pa < 0 or pb < 0:
                    mine["no path"] += dt
                    continue
                walked = ((f(b, "x") - f(a, "x")) ** 2 + (f(b, "z") - f(a, "z")) ** 2) ** 0.5
                gained = pa - pb
                slow = max(0.0, SPEED * dt - walked) / SPEED
                off = max(0.0, walked - gained) / SPEED
                mine[slow_cause(a, b)] += slow
                near = max(int(a["near"]), int(b["near"])) > 0
                mine["off the shortest path: " + ("dodging others" if near else "nobody near")] += off
            lost.update(mine)
            late[last_10s(rows, end[seed])] += 1
            stall[longest_stall(rows, seed, at_time)] += 1
            cause = mine.most_common(1)[0][0] if mine else "none"
            main_cause[cause] += 1
            needed.append(f(last, "path_left") / SPEED)
            starts.append(f(rows[0], "path_left"))
            detail.append((seed, agent, f(rows[0], "path_left"), f(last, "path_left"), cause,
                           ", ".join("%s %.1f" % (k.split(": ")[-1], v)
                                     for k, v in mine.most_common(3))))
    print("%s agents: %d" % (wanted or "free-but-late", agents))
    print("\n| largest loss | agents | seconds lost, all of them |\n|---|--:|--:|")
    for k in sorted(set(lost) | set(main_cause), key=lambda k: -lost[k]):
        print("| %s | %d | %.0f |" % (k, main_cause[k], lost[k]))
    if agents:
        needed.sort()
        starts.sort()
        print("\nseconds still needed at full speed at the end: median %.1f, under 2 s: %d, "
              "under 5 s: %d" % (needed[agents // 2], sum(n < 2 for n in needed),
                                 sum(n < 5 for n in needed)))
        print("shortest path at the start (m): median %.0f, over 150 m: %d, over 180 m: %d" %
              (starts[agents // 2], sum(s > 150 for s in starts), sum(s > 180 for s in starts)))
    print("\n| the last 10 s | agents |\n|---|--:|")
    for k, v in late.most_common():
        print("| %s | %d |" % (k, v))
    print("\n| its longest stall: its file's head held by | agents |\n|---|--:|")
    for k, v in stall.most_common():
        print("| %s | %d |" % (k, v))
    if "-v" in sys.argv:
        for d in detail:
            print("%s a%d start %.0f m, left %.1f m: %s (%s)" % d)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "-v"]
    wanted = None
    if "--class" in args:
        k = args.index("--class")
        wanted = args[k + 1]
        del args[k:k + 2]
    main(args, wanted)
