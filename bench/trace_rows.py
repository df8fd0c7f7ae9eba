# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
#
# Reads a `wayfarer scenarios --trace FILE` trace (tab-separated, a header
# line first) for the trace scripts beside it.
import collections
import math


def read_trace(path):
    """Rows by (seed, agent) in file order, and each seed's last time."""
    lines = open(path).read().splitlines()
    names = lines[0].split("\t")
    by = collections.defaultdict(list)
    end = collections.defaultdict(float)
    for line in lines[1:]:
        r = dict(zip(names, line.split("\t")))
        by[(r["seed"], int(r["agent"]))].append(r)
        end[r["seed"]] = max(end[r["seed"]], float(r["t"]))
    return by, end


def num(r, k):
    """A row's column as a number."""
    return float(r[k])


def rows_at_time(by):
    """The rows of read_trace by (seed, time): who stood where at once."""
    at = collections.defaultdict(list)
    for (seed, _), rows in by.items():
        for r in rows:
            at[(seed, r["t"])].append(r)
    return at


def direction(r):
    """A row's desired direction as a unit (x, z), or None when it barely
    wants to move (desired speed at most 0.3 m/s)."""
    dx, dz = num(r, "desired_x"), num(r, "desired_z")
    n = math.hypot(dx, dz)
    return (dx / n, dz / n) if n > 0.3 else None
