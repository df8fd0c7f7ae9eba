#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
#
# The demo's misses by class, and the most each class could add to the
# free agent's count (docs/benchmarks.md, "demo22"). Make the log with
#   WF_TARGET_LOG=1 wayfarer scenarios --scene demo --runs 10 2> FILE
# then: bench/demo_miss_ceiling.py FILE [SLACK]. Counts the targets in time
# for a free agent (shortest path x SLACK at 3.5 m/s within the time left,
# the scenario's `in_time_alone` count). A miss is given up on BLOCKED (the
# demo hands out a new target) or open at the end; an open one crawled
# (walked its trip slower than the free agent's pace, 3.5 / SLACK m/s, and
# would have made it at that pace) or was late (needed more of the time
# left than a crowd's mean pace allows, so at the pace of reached targets
# it could not be reached). The ceiling of a class is the count if every
# miss in it were reached (the others as they are); for give-ups also with
# the targets handed out after them gone (they exist only because of one).
import collections
import sys

from target_log import SPEED, in_building, log_lines

SECONDS = 1000 / 30.0


def read(path, slack):
    """(given row, end row, handed out after a give-up) of each free agent's target."""
    given, out, cause = {}, [], {}
    for row in log_lines(path):
        if row["tag"] != "target":
            continue
        if row["new_run"]:
            given, cause = {}, {}
        a = row["agent"]
        if row["fate"] == "given":
            row["after"] = cause.pop(a, "first" if row["t"] == 0.0 else "after arrival")
            given[a] = row
            continue
        g = given.pop(a, None)
        if row["fate"] == "blocked":
            cause[a] = "after a give-up"
        elif row["fate"] == "reached":
            cause[a] = "after arrival"
        if g is None or g["path"] * slack > SPEED * (SECONDS - g["t"]):
            continue
        out.append((g, row))
    return out


def route(g):
    a, b = in_building(g["x"], g["z"]), in_building(g["tx"], g["tz"])
    return "outside -> outside" if not (a or b) else "building route"


def route4(g):
    a, b = in_building(g["x"], g["z"]), in_building(g["tx"], g["tz"])
    return {(True, False): "out of the building", (False, True): "into the building",
            (True, True): "within the building"}.get((a, b), "outside -> outside")


def classify(g, e, slack, pace):
    if e["fate"] == "reached":
        return "reached"
    need = g["path"] / (SPEED * (SECONDS - g["t"]))  # share of the time left at full speed
    late = need * pace > 1.0
    if e["fate"] == "blocked":
        return "given up, %s" % ("waiting (desired < 0.5)" if e["desired"] < 0.5 else "pushing")
    if late:
        return "open at the end, late (needs > 1 / crowd pace of the time left)"
    free = SPEED / slack
    done = g["path"] - max(e["path"], 0.0)
    elapsed = e["t"] - g["t"]
    if done < free * elapsed * 0.5:
        return "open at the end, crawled (< half a free agent's pace)"
    return "open at the end, slowed (half to full free pace)"


def main(path, slack):
    rows = read(path, slack)
    reached = [(g, e) for g, e in rows if e["fate"] == "reached"]
    pace = sum((e["t"] - g["t"]) / (g["path"] / SPEED) for g, e in reached if g["path"] > 0) / max(
        len(reached), 1)
    n, r = len(rows), len(reached)
    if n == 0 or n == r:
        sys.exit("demo_miss_ceiling: no misses among %d free agent's targets in %s" % (n, path))
    print("free agent's targets %d, reached %d (%.2f %%), crowd pace on reached %.3f" % (
        n, r, 100.0 * r / n, pace))
    cls = collections.Counter()
    by_route = collections.defaultdict(collections.Counter)
    for g, e in rows:
        c = classify(g, e, slack, pace)
        cls[c] += 1
        by_route[c][route(g)] += 1
    after_gu = [(g, e) for g, e in rows if g["after"] == "after a give-up"]
    fr = sum(1 for g, e in after_gu if e["fate"] == "reached")
    print("\nclass | targets | share of misses | outside->outside / building | ceiling (points)")
    for c, k in sorted(cls.items(), key=lambda kv: -kv[1]):
        if c == "reached":
            continue
        print("%s | %d | %.1f %% | %d / %d | +%.1f" % (c, k, 100.0 * k / (n - r),
              by_route[c]["outside -> outside"], by_route[c]["building route"], 100.0 * k / n))
    gu = sum(k for c, k in cls.items() if c.startswith("given up"))
    print("all give-ups %d: ceiling +%.1f; with the %d targets handed out after a give-up gone "
          "(%d reached): +%.1f" % (gu, 100.0 * gu / n, len(after_gu), fr,
                                    100.0 * (r - fr + gu) / (n - len(after_gu)) - 100.0 * r / n))
    for label, sel in (("need < 50 %", lambda x: x < 0.5), ("need 50-65 %", lambda x: 0.5 <= x < 0.65),
                       ("need >= 65 %", lambda x: x >= 0.65)):
        sub = [(g, e) for g, e in rows if sel(g["path"] / (SPEED * (SECONDS - g["t"])))]
        c = collections.Counter(e["fate"] for g, e in sub)
        print("%s: %d targets, reached %d, blocked %d, open %d; ceiling +%.1f" % (
            label, len(sub), c["reached"], c["blocked"], c["open"],
            100.0 * (len(sub) - c["reached"]) / n))
    for label in ("outside -> outside", "out of the building", "into the building",
                  "within the building"):
        sub = [(g, e) for g, e in rows if route4(g) == label]
        c = collections.Counter(e["fate"] for g, e in sub)
        print("%s: %d targets, reached %d (%.1f %%), blocked %d, open %d; ceiling +%.1f" % (
            label, len(sub), c["reached"], 100.0 * c["reached"] / max(len(sub), 1), c["blocked"],
            c["open"], 100.0 * (len(sub) - c["reached"]) / n))


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 1.25)
