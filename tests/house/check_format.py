# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
"""Every C source and header is formatted as the root .clang-format says.

The tree was formatted with clang-format 14; other major versions format
some constructs differently, so with another version (or none) this skips
(exit 77) instead of failing on the tool's changes rather than the code's.
Prints each file that differs and how to fix it.

usage: check_format.py SOURCE_ROOT
"""
import os
import re
import shutil
import subprocess
import sys

SKIP = 77
MAJOR = 14
FOLDERS = ("navcore", "tilecache", "crowd", "runtime", "tools", "include", "tests", "bench",
           "fuzz", "web")


def sources(root):
    out = []
    for folder in FOLDERS:
        for base, dirs, names in os.walk(os.path.join(root, folder)):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            out += [os.path.join(base, n) for n in names if n.endswith((".c", ".h"))]
    return sorted(out)


def main():
    root = sys.argv[1]
    tool = shutil.which("clang-format-%d" % MAJOR) or shutil.which("clang-format")
    if tool is None:
        print("check_format: no clang-format: skipped")
        return SKIP
    version = subprocess.run([tool, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"version (\d+)", version)
    if m is None or int(m.group(1)) != MAJOR:
        print("check_format: %s is not clang-format %d: skipped" % (version.strip(), MAJOR))
        return SKIP
    files = sources(root)
    # One run over all files: --dry-run names each change as a warning.
    run = subprocess.run([tool, "--style=file", "--dry-run"] + files, capture_output=True,
                         text=True, cwd=root)
    bad = sorted({os.path.relpath(line.split(":")[0], root)
                  for line in run.stderr.splitlines() if "warning:" in line})
    if run.returncode != 0 and not bad:
        print(run.stderr)
        return 1
    for path in bad:
        print("check_format: %s is not formatted" % path)
    if bad:
        print("check_format: run `clang-format -i` on them (clang-format %d)" % MAJOR)
        return 1
    print("check_format: %d files formatted" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
