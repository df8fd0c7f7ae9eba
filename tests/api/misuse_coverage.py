# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
"""Every public call has a misuse check: each function declared WF_API in
include/wayfarer/*.h (and, where nm is there, each wf_ function the shared
library exports) must be called in tests/api/misuse.c. Lists the missing
ones and fails; exits 77 (skip) when the headers or misuse.c are not there.

usage: misuse_coverage.py INCLUDE_DIR MISUSE_C [LIBRARY]
"""
import os
import re
import shutil
import subprocess
import sys

SKIP = 77


def declared(include_dir):
    """Names of the functions declared WF_API in the public headers."""
    names = set()
    for entry in sorted(os.listdir(include_dir)):
        if not entry.endswith(".h"):
            continue
        with open(os.path.join(include_dir, entry), encoding="utf-8") as f:
            text = f.read()
        text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
        text = re.sub(r"//[^\n]*", " ", text)
        text = "\n".join(l for l in text.split("\n") if not l.lstrip().startswith("#"))
        # WF_API, the return type, then the name right before the '('.
        for m in re.finditer(r"\bWF_API\b([^;{(]*)\(", text):
            ident = re.findall(r"[A-Za-z_]\w*", m.group(1))
            if ident:
                names.add(ident[-1])
    return names


def exported(library):
    """wf_ functions the library exports (empty when nm is missing)."""
    nm = shutil.which("nm")
    if library is None or nm is None or not os.path.exists(library):
        return set(), "nm or the library is not there: headers only"
    run = subprocess.run([nm, "-D", "--defined-only", library], capture_output=True, text=True)
    if run.returncode != 0:
        return set(), "nm failed: headers only"
    names = set()
    for line in run.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] in ("T", "t") and parts[2].startswith("wf_"):
            names.add(parts[2])
    return names, "and %d exported by %s" % (len(names), os.path.basename(library))


def main(argv):
    if len(argv) < 3 or not os.path.isdir(argv[1]) or not os.path.isfile(argv[2]):
        print("misuse_coverage: headers or misuse.c not found: skipped")
        return SKIP
    names = declared(argv[1])
    if not names:
        print("misuse_coverage: no WF_API declaration found in %s" % argv[1])
        return 1
    symbols, how = exported(argv[3] if len(argv) > 3 else None)
    with open(argv[2], encoding="utf-8") as f:
        misuse = f.read()
    misuse = re.sub(r"/\*.*?\*/", " ", misuse, flags=re.S)
    misuse = re.sub(r"//[^\n]*", " ", misuse)
    called = set(re.findall(r"\b(wf_\w+)\s*\(", misuse))
    missing = sorted((names | symbols) - called)
    undeclared = sorted(symbols - names)
    print("misuse_coverage: %d functions declared WF_API (%s)" % (len(names), how))
    for name in undeclared:
        print("  exported but not declared WF_API in a public header: %s" % name)
    for name in missing:
        print("  no misuse check in misuse.c: %s" % name)
    return 1 if missing or undeclared else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
