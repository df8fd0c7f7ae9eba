# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
"""Every source, header, script and meson file names its copyright holder
and licence in two SPDX lines near its top (after a #! line at most), so
a file copied out of the tree still says whose it is and under what terms:

  // SPDX-FileCopyrightText: 2026 The Wayfarer authors   (or # ...)
  // SPDX-License-Identifier: MIT

Checked: *.c, *.h, *.py, *.sh, *.in, meson.build and meson_options.txt at
the source root and under the project's folders (build folders and test
data are not walked). Prints each file without the lines and fails.

usage: check_spdx.py SOURCE_ROOT
       check_spdx.py --self-test
"""
import os
import sys
import tempfile

SKIP = 77

FOLDERS = ("navcore", "tilecache", "crowd", "runtime", "tools", "include", "tests", "bench",
           "fuzz", "web")
SUFFIXES = (".c", ".h", ".py", ".sh", ".in")
NAMES = ("meson.build", "meson_options.txt")
LINES = ("SPDX-FileCopyrightText: 2026 The Wayfarer authors", "SPDX-License-Identifier: MIT")
HEAD = 5  # the lines must be among the first few


def checked(name):
    return name in NAMES or name.endswith(SUFFIXES)


def files(root):
    """Relative paths of the files to check, sorted."""
    found = [n for n in os.listdir(root) if checked(n) and os.path.isfile(os.path.join(root, n))]
    for folder in FOLDERS:
        for base, dirs, names in os.walk(os.path.join(root, folder)):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            found += [os.path.relpath(os.path.join(base, n), root) for n in names if checked(n)]
    return sorted(found)


def missing(root):
    """'path: what is missing' for each checked file without both lines."""
    out = []
    for rel in files(root):
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            head = [f.readline().strip() for _ in range(HEAD)]
        for line in LINES:
            if not any(h in ("// " + line, "# " + line) for h in head):
                out.append("%s: no '%s' line" % (rel, line))
    return out


def self_test():
    """The check fails on a file without the lines and passes on one with."""
    good_c = "// %s\n// %s\nint x;\n" % LINES
    good_meson = "# %s\n# %s\nproject('x', 'c')\n" % LINES
    cases = {
        "navcore/a.c": (good_c, False),
        "meson.build": (good_meson, False),
        "tests/b.sh": ("#!/bin/sh\n# %s\n# %s\n" % LINES, False),
        "tests/c.h": ("#pragma once\n", True),
        "crowd/meson.build": ("crowd_sources = files('a.c')\n", True),
        "meson_options.txt": ("# %s\noption('x', type : 'boolean')\n" % LINES[0], True),
        "tools/d.py": ("# %s\n# SPDX-License-Identifier: GPL-3.0\n" % LINES[0], True),
        "tools/e.txt": ("not checked\n", False),
    }
    failures = 0
    for rel, (text, bad) in sorted(cases.items()):
        with tempfile.TemporaryDirectory() as root:
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            got = missing(root)
            if bool(got) != bad:
                failures += 1
                print("self-test: %s: %s" % (rel, got or "passed, should fail"))
    print("self-test: %d of %d cases right" % (len(cases) - failures, len(cases)))
    return 1 if failures else 0


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) != 2 or not os.path.isdir(os.path.join(argv[1], "navcore")):
        print("check_spdx: source root not found: skipped")
        return SKIP
    found = missing(argv[1])
    for m in found:
        print(m)
    if found:
        print("check_spdx: %d line(s) missing; start each file with the two SPDX lines "
              "(tests/house/check_spdx.py)" % len(found))
        return 1
    print("check_spdx: all %d files carry both SPDX lines" % len(files(argv[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
