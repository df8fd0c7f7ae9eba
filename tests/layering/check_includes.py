# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
"""The house rule on includes (docs/architecture.md): a module reaches
another only through its public header or a narrow interface named for the
crossing, never through its internal headers.

Checked: every #include in the library modules (navcore, tilecache, crowd,
runtime), in tools/ and in the public headers. A file may include
  - anything in its own folder,
  - the public headers, wayfarer/*.h,
  - navcore's shared helpers (SHARED_HELPERS: navcore is the ground floor,
    every module may use them),
  - a named interface header, from the files INTERFACES lists for it;
the public headers include only wayfarer/*.h. tools/ is built the way a
game is: it includes only wayfarer/*.h (and its own folder), not even the
shared helpers. tests/, fuzz/ and bench/ are
white-box and not checked (bench says so where it reads an internal).
Prints file:line for each other include and fails.

usage: check_includes.py SOURCE_ROOT
       check_includes.py --self-test
"""
import os
import re
import sys
import tempfile

SKIP = 77

MODULES = ("navcore", "tilecache", "crowd", "runtime", "tools")
PUBLIC = "include/wayfarer"

# navcore's base helpers: allocation, checks, logs, byte order, arenas, id
# pools, the format checksums and the monotonic clock.
SHARED_HELPERS = {
    "navcore/alloc.h",
    "navcore/arena.h",
    "navcore/bytes.h",
    "navcore/check.h",
    "navcore/clock.h",
    "navcore/hash.h",
    "navcore/id_pool.h",
    "navcore/log.h",
}

# Interfaces written for one crossing: header -> the files that may use it.
INTERFACES = {
    "navcore/mesh_commit.h": {"tilecache/update.c"},
    "navcore/tile_blob_size.h": {"tilecache/layer_to_tile.c"},
    "navcore/mesh_replace.h": {"runtime/world_save.c"},
    "navcore/mesh_slots.h": {"crowd/ref_codec.h", "crowd/corridor.c"},
    "tilecache/tilecache_replace.h": {"runtime/world_save.c"},
    "tilecache/obstacle_room.h": {"runtime/world_obstacles.c"},
}

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def module_of(rel):
    """The module a repository path belongs to ('' for none)."""
    if rel.startswith(PUBLIC + "/"):
        return "wayfarer"
    top = rel.split("/", 1)[0]
    return top if top in MODULES else ""


def target_of(root, rel_file, quote, name):
    """Repository path an include names, or None for a system header."""
    if name.startswith("wayfarer/"):
        return PUBLIC + "/" + name[len("wayfarer/"):]
    # "x.h" is looked up beside the file first; then from the root ('.' is
    # on the include path), where a module's folder decides even for a
    # file that is not there.
    if quote == '"':
        beside = os.path.normpath(os.path.join(os.path.dirname(rel_file), name))
        beside = beside.replace(os.sep, "/")
        explicit = name.startswith(("./", "../"))
        if not beside.startswith("../") and (explicit or
                                             os.path.exists(os.path.join(root, beside))):
            return beside
    norm = os.path.normpath(name).replace(os.sep, "/")
    if not norm.startswith("../") and (os.path.exists(os.path.join(root, norm)) or
                                       module_of(norm)):
        return norm
    return None


def violations(root):
    found = []
    folders = list(MODULES) + [PUBLIC]
    for folder in folders:
        top = os.path.join(root, folder)
        if not os.path.isdir(top):
            continue
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames.sort()
            for fn in sorted(filenames):
                if not fn.endswith((".c", ".h", ".h.in")):
                    continue
                path = os.path.join(dirpath, fn)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                own = module_of(rel)
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        target = target_of(root, rel, m.group(1), m.group(2))
                        if target is None:
                            continue
                        theirs = module_of(target)
                        if theirs in ("", own):
                            continue
                        if theirs == "wayfarer":
                            continue
                        if own == "wayfarer":
                            why = "a public header includes only wayfarer/*.h"
                        elif own == "tools":
                            why = "tools/ includes only the public headers"
                        elif target in SHARED_HELPERS:
                            continue
                        elif target in INTERFACES:
                            if rel in INTERFACES[target]:
                                continue
                            why = "interface for %s only" % ", ".join(sorted(INTERFACES[target]))
                        else:
                            why = "internal header of %s" % theirs
                        found.append("%s:%d: includes %s (%s)" % (rel, number, m.group(2), why))
    return found


def self_test():
    """The check fails on each kind of crossing and passes on allowed ones."""
    cases = {
        "crowd/a.c": ('#include "navcore/query_internal.h"\n', True),
        "runtime/b.c": ('#include "tilecache/tilecache_internal.h"\n', True),
        "tools/c.c": ('#include "../navcore/mesh_internal.h"\n', True),
        "tools/h.c": ('#include "navcore/clock.h"\n', True),
        "tools/i.c": ('#include "tools/tool.h"\n#include "wayfarer/crowd.h"\n', False),
        "tilecache/d.c": ('#include "navcore/mesh_commit.h"\n', True),
        "include/wayfarer/e.h": ('#include "navcore/check.h"\n', True),
        "navcore/f.c": ('#  include <crowd/crowd_internal.h>\n', True),
        "tilecache/update.c": ('#include "navcore/mesh_commit.h"\n', False),
        "crowd/g.c": ('#include "navcore/check.h"\n#include "crowd/g.h"\n'
                      '#include "wayfarer/crowd.h"\n#include <stdio.h>\n', False),
    }
    failures = 0
    for rel, (text, bad) in sorted(cases.items()):
        with tempfile.TemporaryDirectory() as root:
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            got = violations(root)
            if bool(got) != bad:
                failures += 1
                print("self-test: %s: %s" % (rel, got or "passed, should fail"))
    print("self-test: %d of %d cases right" % (len(cases) - failures, len(cases)))
    return 1 if failures else 0


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) != 2 or not os.path.isdir(os.path.join(argv[1], "navcore")):
        print("check_includes: source root not found: skipped")
        return SKIP
    found = violations(argv[1])
    for v in found:
        print(v)
    if found:
        print("check_includes: %d include(s) cross a module's wall; use the public "
              "header or a named interface (tests/layering/check_includes.py)" % len(found))
        return 1
    print("check_includes: every include of navcore, tilecache, crowd, runtime, tools and "
          "the public headers is allowed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
