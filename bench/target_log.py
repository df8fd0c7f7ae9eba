# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
#
# Reads a `WF_TARGET_LOG=1 wayfarer scenarios --scene demo` log (stderr) for
# the demo scripts beside it: the demo's agents' speed, its building, and
# the log's lines.

SPEED = 3.5  # the scenarios' max speed (m/s)


def in_building(x, z):
    """Inside the demo's building (its 2 m doorways are single-file)."""
    return -46.0 < x < -4.0 and -16.0 < z < 16.0


def log_lines(path):
    """Each line as a dict: a `target` line by its columns, with new_run set
    on the first target of a run (runs follow one another from t = 0);
    any other line as its tag and fields."""
    last_t = None
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if len(f) < 18 or f[0] != "target":
            yield {"tag": f[0], "fields": f[1:]}
            continue
        row = {
            "tag": "target",
            "fate": f[1],
            "agent": int(f[3]),
            "t": float(f[4]),
            "given_at": float(f[5]),
            "path": float(f[6]),
            "x": float(f[7]),
            "y": float(f[8]),
            "z": float(f[9]),
            "tx": float(f[10]),
            "ty": float(f[11]),
            "tz": float(f[12]),
            "neighbours": int(f[13]),
            "partial": int(f[14]),
            "speed": float(f[15]),
            "desired": float(f[16]),
            "corner": float(f[17]),
        }
        row["new_run"] = row["t"] == 0.0 and (last_t is None or last_t > 0.0)
        last_t = row["t"]
        yield row
