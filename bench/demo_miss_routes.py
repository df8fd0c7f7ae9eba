#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
#
# Where the demo's honest misses are (docs/benchmarks.md, "demo20"): the
# targets a free agent reaches in the time left (shortest path x SLACK at
# 3.5 m/s, the scenario's `in_time_alone` count), split by how they were
# handed out, by route (in or out of the building), by path length and by
# how much of the time left they need. Make the log with
#   WF_TARGET_LOG=1 wayfarer scenarios --scene demo --runs 10 2> FILE
# then: bench/demo_miss_routes.py FILE [SLACK]. Where the log also has
# "BLK" lines (agent, the crowd's flags in hex when it reported BLOCKED: a
# logging switch demo20 measured with, not in the crowd), the give-ups are
# split by single-file passage (waiting its turn, admitted, neither).
import collections
import sys

from target_log import SPEED, in_building, log_lines

SECONDS = 1000 / 30.0
WAITS_PINCH, PINCH_GO = 1 << 16, 1 << 15


def route(g, e=None):
    a, b = in_building(g["x"], g["z"]), in_building(g["tx"], g["tz"])
    return {(True, False): "building -> outside", (False, True): "outside -> building",
            (True, True): "within the building"}.get((a, b), "outside -> outside")


def read(path):
    """(given row, end row) of every in-time target, with runs and BLK flags."""
    given, out, runs = {}, [], 0
    ended_at, flags = {}, {}
    for row in log_lines(path):
        if row["tag"] == "BLK":
            flags[int(row["fields"][0])] = int(row["fields"][1], 16)
            continue
        if row["tag"] != "target":
            continue
        if row["new_run"]:
            given, ended_at, runs = {}, {}, runs + 1
        a = row["agent"]
        if row["fate"] == "given":
            if row["t"] == 0.0:
                row["after"] = "first target (t = 0)"
            elif a in ended_at and ended_at[a][0] == row["t"]:
                row["after"] = "after one " + ended_at[a][1]
            else:
                row["after"] = "after a target not in time"
            given[a] = row
        else:
            ended_at[a] = (row["t"], row["fate"])
            row["flags"] = flags.pop(a, None) if row["fate"] == "blocked" else None
            if a in given:
                out.append((given.pop(a), row))
    return out, runs


def table(title, rows, key, order=None):
    c = collections.defaultdict(collections.Counter)
    for g, e in rows:
        c[key(g, e)][e["fate"]] += 1
    print("\n" + title + " | targets | reached % | given up on BLOCKED % | on its way at the end %")
    for k in order or sorted(c, key=lambda k: -sum(c[k].values())):
        n = sum(c[k].values())
        if n:
            print("%s | %d | %.1f | %.1f | %.1f" % (k, n, 100.0 * c[k]["reached"] / n,
                                                  100.0 * c[k]["blocked"] / n,
                                                  100.0 * c[k]["open"] / n))


def main(path, slack):
    rows, runs = read(path)
    honest = [(g, e) for g, e in rows if g["path"] * slack <= SPEED * (SECONDS - g["t"])]
    reached = sum(1 for _, e in honest if e["fate"] == "reached")
    print("%d runs; in time for a free agent (slack %.2f): %d, reached %d (%.1f %%), missed %d"
          % (runs, slack, len(honest), reached, 100.0 * reached / max(len(honest), 1),
             len(honest) - reached))
    table("handed out", honest, lambda g, e: g["after"])
    table("route", honest, route)
    misses = collections.Counter(route(g) for g, e in honest if e["fate"] != "reached")
    print("\nmisses by route, a run: " + ", ".join(
        "%s %.1f (%.1f %%)" % (k, n / runs, 100.0 * n / (len(honest) - reached))
        for k, n in misses.most_common()))
    lengths = ["< 10 m", "10-25 m", "25-50 m", ">= 50 m"]
    table("shortest path", honest, lambda g, e: lengths[(g["path"] >= 10) + (g["path"] >= 25) +
                                                        (g["path"] >= 50)], lengths)
    shares = ["< 25 %", "25-50 %", "50-65 %", "65-80 %"]

    def share(g, e):
        s = g["path"] / SPEED / (SECONDS - g["t"])
        return shares[(s >= 0.25) + (s >= 0.5) + (s >= 0.65)]

    table("time left the path needs at full speed", honest, share, shares)
    blocked = [e for _, e in honest if e["fate"] == "blocked"]
    logged = [e for e in blocked if e["flags"] is not None]
    if logged:
        c = collections.Counter(
            "waiting its turn at a single-file passage" if e["flags"] & WAITS_PINCH else
            ("admitted to a single-file passage" if e["flags"] & PINCH_GO else
             "no single-file passage ahead") for e in logged)
        print("\ngiven up on BLOCKED (%d), by passage | targets | share" % len(logged))
        for k, n in c.most_common():
            print("%s | %d | %.1f %%" % (k, n, 100.0 * n / len(logged)))


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 1.25)
