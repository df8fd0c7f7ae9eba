#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
#
# Where a default-mode path query's instructions go (docs/benchmarks.md,
# query18): builds bench_peer_wayfarer at -O2 with debug info (build-prof/,
# meson release, -Dtests=false), takes a callgrind profile with
# --dump-instr=yes of `paths MESH PAIRS 1` on each Recast mesh (one round
# plus the driver's snapping pass: two find_path + straight path per pair),
# collecting inside find_path and the straight path only, and prints
# bench/query_profile.py's parts per query.
#
#   bench/query_profile.sh [--pairs DIR] [--work DIR] [MESH...]
#
# --pairs: the pair files bench/peer_compare.sh --ours-only made (default
# build-peer/files; made there with it if missing). MESH: dungeon nav_test
# undulating by default. Needs valgrind, addr2line, python3.
set -euo pipefail

for tool in valgrind addr2line python3 meson ninja; do
    command -v "$tool" > /dev/null || { echo "query_profile.sh: needs $tool (not found)" >&2; exit 1; }
done

repo=$(cd "$(dirname "$0")/.." && pwd)
pairs="$repo/build-peer/files"
work="$repo/build-prof"
meshes_wanted=()
while [ $# -gt 0 ]; do
    case "$1" in
    --pairs) pairs=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    -h | --help) sed -n '4,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) meshes_wanted+=("$1"); shift ;;
    esac
done
[ ${#meshes_wanted[@]} -gt 0 ] || meshes_wanted=(dungeon nav_test undulating)
data=${WF_TESTDATA_DIR:-$repo/../shared/testdata}
meshes="$data/recast/meshes"
[ -f "$meshes/nav_test.obj" ] || { echo "$meshes/nav_test.obj missing: skipped"; exit 77; }
if [ ! -f "$pairs/dungeon.pairs" ]; then
    bash "$repo/bench/peer_compare.sh" --ours-only >/dev/null
fi
if [ ! -f "$work/build.ninja" ]; then
    meson setup "$work" "$repo" --buildtype=release -Dtests=false >/dev/null
fi
meson configure "$work" -Doptimization=2 -Db_ndebug=true -Ddebug=true >/dev/null
ninja -C "$work" -j2 bench/bench_peer_wayfarer >/dev/null
bin="$work/bench/bench_peer_wayfarer"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for lv in "${meshes_wanted[@]}"; do
    n=$(wc -l <"$pairs/$lv.pairs")
    valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file="$out/$lv.cg" \
        --toggle-collect=wf_query_find_path --toggle-collect=wf_query_find_straight_path \
        "$bin" paths "$meshes/$lv.obj" "$pairs/$lv.pairs" 1 2048 >/dev/null 2>&1
    echo "== $lv ($n pairs, $((2 * n)) queries)"
    python3 "$repo/bench/query_profile.py" "$out/$lv.cg" "$bin" "$repo/navcore/path_search.c"
done
