# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
"""Every public call has a misuse check: each function declared WF_API in
include/wayfarer/*.h (and, where nm is there, each wf_ function the shared
library exports) must be called in one of the misuse files
(tests/api/misuse_*.c, the shared fixture included). Lists the missing ones
and fails; also fails for a misuse_*.c beside them that is not passed (not
registered in meson.build, so never run). Exits 77 (skip) when the headers
or the misuse files are not there.

usage: misuse_coverage.py INCLUDE_DIR [--library LIBRARY] MISUSE_C...
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


def called_in(paths):
    """wf_ functions called in the files (comments left out)."""
    called = set()
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
        text = re.sub(r"//[^\n]*", " ", text)
        called |= set(re.findall(r"\b(wf_\w+)\s*\(", text))
    return called


def main(argv):
    args = list(argv[1:])
    library = None
    if "--library" in args:
        at = args.index("--library")
        library = args[at + 1] if at + 1 < len(args) else None
        del args[at:at + 2]
    include_dir, sources = (args[0], args[1:]) if args else (None, [])
    if include_dir is None or not os.path.isdir(include_dir) or not sources or \
            not all(os.path.isfile(s) for s in sources):
        print("misuse_coverage: headers or misuse files not found: skipped")
        return SKIP
    # A misuse file beside these that the build does not pass (not
    # registered in tests/api/meson.build) would never run: refuse it.
    given = {os.path.realpath(s) for s in sources}
    folder = os.path.dirname(os.path.realpath(sources[0]))
    unregistered = sorted(e for e in os.listdir(folder)
                          if re.fullmatch(r"misuse_\w+\.c", e) and
                          os.path.join(folder, e) not in given)
    for e in unregistered:
        print("misuse_coverage: %s is not registered in meson.build" % e)
    if unregistered:
        return 1
    names = declared(include_dir)
    if not names:
        print("misuse_coverage: no WF_API declaration found in %s" % include_dir)
        return 1
    symbols, how = exported(library)
    called = called_in(sources)
    missing = sorted((names | symbols) - called)
    undeclared = sorted(symbols - names)
    print("misuse_coverage: %d functions declared WF_API (%s), %d misuse files" %
          (len(names), how, len(sources)))
    for name in undeclared:
        print("  exported but not declared WF_API in a public header: %s" % name)
    for name in missing:
        print("  no misuse check in any misuse file: %s" % name)
    return 1 if missing or undeclared else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
