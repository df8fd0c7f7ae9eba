#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
"""Where a default-mode path query's instructions go, by part of the search.

Reads a callgrind profile taken with --dump-instr=yes (bench/query_profile.sh
takes one of `bench_peer_wayfarer paths` on an -O2 -g build) and gives each
instruction to the innermost function of its inline chain (addr2line -i)
that this script knows: most of the search is inlined into search_step, so
callgrind's own per-function figures put nearly all of it there, and its
per-line figures put the vec3.h helpers apart from their callers. Lines of
expand() itself go to the named ranges of its body (found by the comments
and statements that open them, so the ranges follow edits of the file).

  bench/query_profile.py PROFILE BINARY [PATH_SEARCH_C]

Per query means per call of wf_query_find_path in the profile (each with
its straight path). Prints instructions per query and the share of each
part, then expand()'s body by range.
"""
import collections
import re
import subprocess
import sys

# Innermost known function -> part. Anything else goes by its caller.
PARTS = {
    "window_point": "entry point: aim (window_point, aim_point)",
    "aim_point": "entry point: aim (window_point, aim_point)",
    "entry_point": "entry point: the rest (sides, costs, distances)",
    "straight_cost": "entry point: the rest (sides, costs, distances)",
    "wedge_pass_side": "bends through the memo",
    "wedge_replay": "bends through the memo",
    "portals_after": "bends through the memo",
    "wedge_narrow": "bends through the memo",
    "wedge_bend": "bends on the node's own portal",
    "wedge_pass": "end point (bend to the end)",
    "beyond_left": "end point (bend to the end)",
    "beyond_right": "end point (bend to the end)",
    "wedge_narrow_fresh": "narrowing through the fresh portal",
    "ray_on_portal": "narrowing through the fresh portal",
    "wedge_sides_of": "expansion set-up",
    "layer_of": "expansion set-up",
    "covers_window": "later layers and seeds",
    "covers_window_early": "later layers and seeds",
    "dominated": "later layers and seeds",
    "dominated_apex": "later layers and seeds",
    "may_seed": "later layers and seeds",
    "shadow_of": "later layers and seeds",
    "covers": "later layers and seeds",
    "reach_cost": "later layers and seeds",
    "wf_node_pool_add_shadow": "later layers and seeds",
    "wf_node_pool_get": "node pool (hash, new nodes)",
    "wf_node_pool_find": "node pool (hash, new nodes)",
    "wf_open_list_push": "open list (heap)",
    "wf_open_list_pop": "open list (heap)",
    "wf_open_list_update": "open list (heap)",
    "wf_open_key": "open list (heap)",
    "turned_down": "relax test",
    "is_ancestor": "relax test",
    "search_start": "start, clear, write_path",
    "wf_node_pool_clear": "start, clear, write_path",
    "write_path": "start, clear, write_path",
    "straight_corridor": "straight walk before a search",
    "wf_query_find_straight_path": "straight path (funnel.c)",
    "wf_mesh_closest_point_on_poly": "straight path (funnel.c)",
    "poly_height_of": "straight path (funnel.c)",
}

# expand()'s body: (name, regex of the first line of the range), in order.
EXPAND_RANGES = [
    ("set-up (wedge copy, layer, k, target)", r"wf_node_pool\* pool = &q->nodes;"),
    ("link walk, repeat / parent / pocket skips", r"for \(uint32_t k = tile->first_link"),
    ("resolve, filter, reaches_end", r"const wf_mesh_tile\* next_tile;"),
    ("dead-end test", r"uint32_t back = next_tile->first_link"),
    ("node pool get, layers", r"uint32_t next = wf_node_pool_get"),
    ("bound tests (apex, corner)", r"float least = 0.0f;"),
    ("portal, k_next, narrowing call", r"wf_vec3 left = wf_v3\(lp->left"),
    ("bend branch", r"if \(side != 0\) \{"),
    ("dominated, restart, early cover", r"if \(in_shadow && !reaches_end &&$"),
    ("entry point call, end point, total", r"float cost, distance, est_cost, est_distance;"),
    ("relax test, seeds", r"if \(turned_down\(pool, n, next, current, total\)\)"),
    ("node and funnel writes", r"n->pos = pos;"),
    ("open / held / push", r"if \(\(n->flags & WF_NODE_OPEN\) == 0\) \{"),
]


def self_costs(path):
    """Instruction address -> self cost (call lines' inclusive costs left out)."""
    costs = collections.Counter()
    addr = line = 0
    after_calls = False
    calls = 0
    names = {}  # callgrind's compressed ids: "(12) name" once, "(12)" after
    fn_called = None

    def pos(tok, cur):
        if tok == "*":
            return cur
        if tok[0] in "+-":
            return cur + int(tok, 0)
        return int(tok, 0)

    with open(path) as f:
        for raw in f:
            if raw.startswith(("fn=", "cfn=")):
                m = re.match(r"c?fn=\((\d+)\)\s*(\S*)", raw)
                if m and m.group(2):
                    names[m.group(1)] = m.group(2)
                if raw.startswith("cfn=") and m:
                    fn_called = names.get(m.group(1))
                continue
            if raw.startswith("calls="):
                after_calls = True
                if fn_called == "wf_query_find_path":
                    calls += int(raw.split()[0][6:])
                continue
            if not raw or raw[0] not in "0123456789+-*":
                continue
            t = raw.split()
            addr = pos(t[0], addr)
            if len(t) > 2:
                line = pos(t[1], line)
            if after_calls:
                after_calls = False
                continue
            costs[addr] += int(t[-1])
    return costs, calls


def inline_chains(binary, addrs):
    out = subprocess.run(
        ["addr2line", "-a", "-i", "-f", "-e", binary] + [hex(a) for a in addrs],
        capture_output=True, text=True, check=True).stdout.split("\n")
    chains, cur, i = {}, None, 0
    while i < len(out):
        if out[i].startswith("0x"):
            cur = int(out[i], 16)
            chains[cur] = []
            i += 1
        elif out[i] and i + 1 < len(out):
            chains[cur].append((out[i].split(".")[0], out[i + 1]))
            i += 2
        else:
            i += 1
    return chains


def expand_starts(source):
    lines = open(source).read().split("\n")
    begin = next(i for i, s in enumerate(lines) if re.match(r".*static inline bool expand\(", s))
    starts = []
    for name, pat in EXPAND_RANGES:
        n = next(i for i in range(begin, len(lines)) if re.search(pat, lines[i].strip()))
        starts.append((n + 1, name))
    return starts


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        sys.exit(2)
    profile, binary = sys.argv[1], sys.argv[2]
    source = sys.argv[3] if len(sys.argv) > 3 else "navcore/path_search.c"
    costs, calls = self_costs(profile)
    if calls == 0:
        sys.exit("no calls of wf_query_find_path in the profile")
    queries = float(calls)
    chains = inline_chains(binary, sorted(costs))
    starts = expand_starts(source)
    parts, body = collections.Counter(), collections.Counter()
    for a, c in costs.items():
        part = None
        for fn, loc in chains.get(a, []):
            if fn in PARTS:
                part = PARTS[fn]
                break
            if fn == "expand":
                part = "expand's own lines (below)"
                m = re.search(r"path_search\.c:(\d+)", loc)
                n = int(m.group(1)) if m else 0
                name = "(before the ranges)"
                for first, nm in starts:
                    if n >= first:
                        name = nm
                body[name] += c
                break
            if fn == "search_step":
                part = "search loop (pick, pop, resolve, goal test)"
                break
            if "funnel.c" in loc:
                part = "straight path (funnel.c)"
                break
        if part is None:
            chain = chains.get(a, [])
            part = "other: " + (chain[-1][0] if chain else "?")
        parts[part] += c
    total = sum(costs.values())
    print(f"profile: {total:,} instructions, {calls} find_path calls: "
          f"{total / queries:,.0f} per query")
    for name, c in parts.most_common():
        print(f"{c / queries:9,.0f}  {100.0 * c / total:5.1f} %  {name}")
    print("expand's own lines:")
    for name, c in body.most_common():
        print(f"{c / queries:9,.0f}  {100.0 * c / total:5.1f} %  {name}")


if __name__ == "__main__":
    main()
