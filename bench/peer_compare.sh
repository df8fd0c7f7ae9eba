#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
#
# Side by side with recastnavigation on the same work (docs/benchmarks.md,
# "Side by side with recastnavigation"): the same Recast demo meshes and
# settings, the same start/end pairs (dumped by our side, kept where both
# sides find a complete path), the same obstacle and crowd points, both
# sides built here with the same compiler at the same -O level, the two
# drivers run interleaved for N rounds. Nothing of recastnavigation enters
# this repository: pass the path of a local source checkout; the script
# compiles its sources itself with our compiler and -O level (into --work,
# default build-peer/, which git ignores), so both sides match.
#
#   bench/peer_compare.sh PATH_TO_RECASTNAVIGATION [--rounds N] [--opt 2|3]
#       [--work DIR] [--pairs N] [--nodes N] [--agents N] [--frames N]
#       [--callgrind] [--cg-frames N] [--skip-crowd] [--clock wall|cpu]
#   bench/peer_compare.sh --ours-only [--opt 2|3] [--work DIR] [--pairs N] [--nodes N]
#   bench/peer_compare.sh PATH_TO_RECASTNAVIGATION --demo-scene A-B [--agents N] [--frames N]
#   bench/peer_compare.sh PATH_TO_RECASTNAVIGATION --scenes A-B
#
# --scenes A-B: instead of the rounds, every scene of `wayfarer scenarios`
# but the demo, as its runs A..B have them (`--export`: the same triangles,
# starts and targets; formations shaken 0.15 m when more than one run), 60 s
# on both crowds at RecastDemo's agent settings (ours HIGH, the goals'
# preset, and ULTRA, which samples as Detour's "high"); per scene the
# share of agents within 0.6 m of their target by 60 s, the paired
# differences, and the bodies' overlaps after 2 s.
#
# --demo-scene A-B: instead of the rounds, the demo's generated level of
# each seed A..B (static: no doors, crates or vehicles), AGENTS people
# (default 1,000) from random points of our navmesh to a first target each
# and no other, FRAMES frames (default 1,000, the demo's), both crowds at
# RecastDemo's agent settings (ours HIGH, the issue 14 goals' preset;
# Detour's "high", which samples as our ULTRA). Per seed: the share of the people whose target a free
# agent reaches in time (shortest path x 1.25 at 3.5 m/s) that came within
# 0.6 m of it, and the bodies' overlaps after 2 s; then the means and the
# paired difference.
#
# --ours-only: no recastnavigation checkout needed: builds our side, makes
# the pairs with our filter alone (every pair complete on ours has been
# complete on Detour's on these meshes: 1,637 / 540 / 1,999 at the
# defaults) and prints our instructions per find_path + straight path as
# the --callgrind table counts them (valgrind).
# --clock cpu: time with each thread's CPU time instead of the wall clock
# (a loaded machine's waits for a core left out; the 2-worker obstacle row
# then counts the caller's thread only, so it is left out).
# --nodes: search nodes of both sides' path queries (2048, RecastDemo's).
# --callgrind: also instructions per query, per layer build, per cache
# build and per crowd agent-frame (valgrind; no noise). --rounds 0 with
# --callgrind gives the instruction counts alone.
#
# Without a path it prints this and exits 77 (skipped). Needs gcc/g++,
# meson, ninja, python3; --callgrind needs valgrind.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
usage() { awk 'NR < 4 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"; }

recast=""
rounds=5
opt=2
work="$repo/build-peer"
pairs=2000
agents=1000
frames=300
callgrind=0
cg_frames=60
nodes=2048
clock=wall
skip_crowd=0
ours_only=0
demo_seeds=""
scene_seeds=""
frames_given=0
while [ $# -gt 0 ]; do
    case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --opt) opt=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --pairs) pairs=$2; shift 2 ;;
    --agents) agents=$2; shift 2 ;;
    --frames) frames=$2; frames_given=1; shift 2 ;;
    --demo-scene) demo_seeds=$2; shift 2 ;;
    --scenes) scene_seeds=$2; shift 2 ;;
    --callgrind) callgrind=1; shift ;;
    --cg-frames) cg_frames=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --clock) clock=$2; shift 2 ;;
    --skip-crowd) skip_crowd=1; shift ;;
    --ours-only) ours_only=1; shift ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "unknown option $1" >&2; usage; exit 2 ;;
    *) recast=$1; shift ;;
    esac
done
for range in "$demo_seeds" "$scene_seeds"; do
    if [ -n "$range" ] && ! [[ "$range" =~ ^[0-9]+-[0-9]+$ ]]; then
        echo "--demo-scene and --scenes take seeds as A-B (e.g. 1-10), not $range" >&2
        exit 2
    fi
done
if [ -z "$recast" ] && [ $ours_only = 0 ]; then
    usage
    echo "no recastnavigation path given: skipped"
    exit 77
fi
if [ $ours_only = 1 ]; then
    data=${WF_TESTDATA_DIR:-$repo/../shared/testdata}
    meshes="$data/recast/meshes"
    [ -f "$meshes/nav_test.obj" ] || { echo "$meshes/nav_test.obj missing: skipped"; exit 77; }
    mkdir -p "$work/files"
    work=$(cd "$work" && pwd)
    echo "# building Wayfarer (meson release, -O$opt) in $work/wayfarer" >&2
    if [ ! -f "$work/wayfarer/build.ninja" ]; then
        meson setup "$work/wayfarer" "$repo" --buildtype=release -Dtests=false >/dev/null
    fi
    meson configure "$work/wayfarer" -Doptimization="$opt" -Db_ndebug=true >/dev/null
    ninja -C "$work/wayfarer" -j2 bench/bench_peer_wayfarer >/dev/null
    ours="$work/wayfarer/bench/bench_peer_wayfarer"
    files="$work/files"
    count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
    for lv in dungeon nav_test undulating; do
        o="$meshes/$lv.obj"
        "$ours" points "$o" $((2 * pairs)) 1 "$files/$lv.points" >/dev/null
        paste -d' ' - - <"$files/$lv.points" >"$files/$lv.candidates"
        "$ours" filter "$o" "$files/$lv.candidates" "$files/$lv.pairs" "$nodes" >/dev/null
        n=$(wc -l <"$files/$lv.pairs")
        a=$(count "$ours" paths "$o" "$files/$lv.pairs" 1 "$nodes")
        b=$(count "$ours" paths "$o" "$files/$lv.pairs" 3 "$nodes")
        echo "paths $lv wayfarer $(((b - a) / (2 * n))) ($n pairs)"
    done
    exit 0
fi
recast=$(cd "$recast" && pwd)
for d in Recast Detour DetourCrowd DetourTileCache RecastDemo/Contrib/fastlz; do
    [ -d "$recast/$d" ] || { echo "$recast/$d missing: not a recastnavigation checkout" >&2; exit 2; }
done
data=${WF_TESTDATA_DIR:-$repo/../shared/testdata}
meshes="$data/recast/meshes"
[ -f "$meshes/nav_test.obj" ] || { echo "$meshes/nav_test.obj missing: skipped"; exit 77; }
mkdir -p "$work"
work=$(cd "$work" && pwd)

# --- Both sides at the same -O level, same compiler ---------------------
cflags="-O$opt -DNDEBUG"
echo "# building Wayfarer (meson release, -O$opt) in $work/wayfarer" >&2
if [ ! -f "$work/wayfarer/build.ninja" ]; then
    meson setup "$work/wayfarer" "$repo" --buildtype=release -Dtests=false >/dev/null
fi
# meson 1.0: buildtype wins over -Doptimization at setup; configure sets it.
meson configure "$work/wayfarer" -Doptimization="$opt" -Db_ndebug=true >/dev/null
ninja -C "$work/wayfarer" -j2 bench/bench_peer_wayfarer >/dev/null
ours="$work/wayfarer/bench/bench_peer_wayfarer"

echo "# building recastnavigation ($cflags, -fno-rtti -fno-exceptions as its CMake) in $work/detour" >&2
obj="$work/detour/obj-O$opt"
mkdir -p "$obj"
inc=""
for d in Recast Detour DetourCrowd DetourTileCache; do inc="$inc -I$recast/$d/Include"; done
inc="$inc -I$recast/RecastDemo/Contrib/fastlz"
export CXXFLAGS_PEER="$cflags -std=c++17 -fno-rtti -fno-exceptions $inc" OBJ_PEER="$obj"
ls "$recast"/{Recast,Detour,DetourCrowd,DetourTileCache}/Source/*.cpp |
    xargs -P 2 -I{} sh -c 'o="$OBJ_PEER/$(basename "{}" .cpp).o"; [ "$o" -nt "{}" ] || g++ $CXXFLAGS_PEER -c "{}" -o "$o"'
gcc $cflags -c "$recast/RecastDemo/Contrib/fastlz/fastlz.c" -o "$obj/fastlz.o"
g++ $CXXFLAGS_PEER -c "$repo/bench/peer/detour_driver.cpp" -o "$work/detour/detour_driver.o"
g++ "$work/detour/detour_driver.o" "$obj"/*.o -o "$work/detour/detour_driver-O$opt"
theirs="$work/detour/detour_driver-O$opt"
commit=$(git -C "$recast" rev-parse --short=8 HEAD 2>/dev/null || echo "${RECAST_COMMIT:-unknown}")
ourcommit=$(git -C "$repo" rev-parse --short=8 HEAD 2>/dev/null || echo unknown)

# --- The scenario suite's scenes, same starts and targets (--scenes) -------
if [ -n "$scene_seeds" ]; then
    ninja -C "$work/wayfarer" -j2 tools/wayfarer >/dev/null
    tool="$work/wayfarer/tools/wayfarer"
    files="$work/scenes"
    rm -rf "$files"
    mkdir -p "$files"
    first=${scene_seeds%-*}
    runs=$((${scene_seeds#*-} - first + 1))
    names=circle32,circle128,crossing,door_1way_1.5,door_1way_2,door_1way_3,door_2way_1.5
    names=$names,door_2way_2,door_2way_3,two_doors,corridor,tjunction,nav_test500
    "$tool" scenarios --scene "$names" --seed "$first" --runs "$runs" --export "$files" \
        --testdata "$data" >"$files/list.txt"
    while IFS=$'\t' read -r base obj points; do
        [ "$obj" = skipped ] && continue
        n=$(($(wc -l <"$points") / 2))
        echo "# $base: $n agents" >&2
        "$ours" scene "$obj" "$points" "$n" 1800 high "$files/$base.ours" \
            >"$files/$base.ours.json" </dev/null
        "$ours" scene "$obj" "$points" "$n" 1800 ultra "$files/$base.ultra" \
            >"$files/$base.ultra.json" </dev/null
        "$theirs" scene "$obj" "$points" "$n" 1800 "$files/$base.theirs" \
            >"$files/$base.theirs.json" </dev/null
    done <"$files/list.txt"
    python3 - "$files" "$scene_seeds" "$commit" "$ourcommit" "$opt" <<'EOF'
import json, statistics, sys
files, seeds, commit, ours, opt = sys.argv[1:]
runs = {}
for line in open(f"{files}/list.txt"):
    base, obj = line.rstrip("\n").split("\t")[:2]
    if obj == "skipped":
        continue
    name = base.rsplit("-", 1)[0]
    t = json.load(open(f"{files}/{base}.theirs.json"))
    o = json.load(open(f"{files}/{base}.ours.json"))
    u = json.load(open(f"{files}/{base}.ultra.json"))
    runs.setdefault(name, []).append((t, o, u))
print(f"# the scenario suite's scenes, seeds {seeds} (formations shaken 0.15 m when more than one),"
      f" the same starts and targets, 60 s; recastnavigation {commit} vs Wayfarer {ours}, both gcc -O{opt}")
print("| scene | agents | runs | Detour arrived at 60 s | Wayfarer HIGH | HIGH - Detour | Wayfarer ULTRA"
      " (Detour's sampling) | ULTRA - Detour | Detour worst overlap, pair-frames > 0.1 m a run |"
      " Wayfarer HIGH / ULTRA worst overlap, pair-frames > 0.1 m a run |")
print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
key = "pair_frames_over_0.1_after_2s"
def paired(rs, k):
    n = rs[0][0]["agents"]
    t = [r[0]["arrived"] / n for r in rs]
    o = [r[k]["arrived"] / n for r in rs]
    d = [b - a for a, b in zip(t, o)]
    se = statistics.stdev(d) / len(d) ** 0.5 if len(d) > 1 else 0.0
    return statistics.mean(t), statistics.mean(o), statistics.mean(d), se
def bodies(rs, k):
    return max(r[k]["worst_overlap_after_2s"] for r in rs), statistics.mean(r[k][key] for r in rs)
for name, rs in runs.items():
    t, o, d, se = paired(rs, 1)
    _, u, du, seu = paired(rs, 2)
    tw, tp = bodies(rs, 0)
    ow, op = bodies(rs, 1)
    uw, up = bodies(rs, 2)
    print(f"| {name} | {rs[0][0]['agents']} | {len(rs)} | {100 * t:.1f} % | {100 * o:.1f} % |"
          f" {100 * d:+.1f} +- {100 * se:.1f} | {100 * u:.1f} % | {100 * du:+.1f} +- {100 * seu:.1f} |"
          f" {tw:.3f} m, {tp:,.0f} | {ow:.3f} / {uw:.3f} m, {op:,.0f} / {up:,.0f} |")
EOF
    exit 0
fi

# --- The demo's level, first targets only (--demo-scene) ----------------
if [ -n "$demo_seeds" ]; then
    [ $frames_given = 1 ] || frames=1000
    ninja -C "$work/wayfarer" -j2 tools/wayfarer >/dev/null
    tool="$work/wayfarer/tools/wayfarer"
    files="$work/demo-scene"
    mkdir -p "$files"
    for s in $(seq "${demo_seeds%-*}" "${demo_seeds#*-}"); do
        echo "# demo level, seed $s" >&2
        "$tool" demo --export-level "$files/demo$s.obj" --seed "$s" >/dev/null
        "$ours" points "$files/demo$s.obj" $((2 * agents)) "$s" "$files/demo$s.points" >/dev/null
        "$ours" scene "$files/demo$s.obj" "$files/demo$s.points" "$agents" "$frames" high \
            "$files/ours$s.txt" >"$files/ours$s.json"
        "$theirs" scene "$files/demo$s.obj" "$files/demo$s.points" "$agents" "$frames" \
            "$files/theirs$s.txt" >"$files/theirs$s.json"
    done
    python3 - "$files" "$demo_seeds" "$agents" "$frames" "$commit" "$ourcommit" "$opt" <<'EOF'
import json, statistics, sys
files, seeds, agents, frames, commit, ours, opt = sys.argv[1:]
a, b = (int(x) for x in seeds.split("-"))
seconds = int(frames) / 30.0
print(f"# the demo's level, seeds {seeds}, {agents} people, first targets only, {frames} frames;"
      f" recastnavigation {commit} vs Wayfarer {ours}, both gcc -O{opt}")
print("| seed | in time for a free agent | Detour arrived | Wayfarer arrived | Detour worst overlap,"
      " pair-frames > 0.1 m | Wayfarer worst overlap, pair-frames > 0.1 m |")
print("|--:|--:|--:|--:|--:|--:|")
diffs, shares = [], {"detour": [], "wayfarer": []}
for s in range(a, b + 1):
    length, ours_at = {}, {}
    for line in open(f"{files}/ours{s}.txt"):
        i, l, f = line.split()
        length[int(i)], ours_at[int(i)] = float(l), int(f)
    theirs_at = {int(i): int(f) for i, f in (l.split() for l in open(f"{files}/theirs{s}.txt"))}
    feasible = [i for i, l in length.items() if 0 <= l and l * 1.25 / 3.5 <= seconds]
    if not feasible:
        continue
    t = sum(theirs_at[i] > 0 for i in feasible) / len(feasible)
    o = sum(ours_at[i] > 0 for i in feasible) / len(feasible)
    shares["detour"].append(t)
    shares["wayfarer"].append(o)
    diffs.append(o - t)
    jt = json.load(open(f"{files}/theirs{s}.json"))
    jo = json.load(open(f"{files}/ours{s}.json"))
    key = "pair_frames_over_0.1_after_2s"
    print(f"| {s} | {len(feasible)} | {100 * t:.1f} % | {100 * o:.1f} % |"
          f" {jt['worst_overlap_after_2s']:.3f} m, {jt[key]} | {jo['worst_overlap_after_2s']:.3f} m, {jo[key]} |")
n = len(diffs)
if n:
    se = statistics.stdev(diffs) / n ** 0.5 if n > 1 else 0.0
    print(f"# means: Detour {100 * statistics.mean(shares['detour']):.2f} %, Wayfarer"
          f" {100 * statistics.mean(shares['wayfarer']):.2f} %, Wayfarer - Detour"
          f" {100 * statistics.mean(diffs):+.2f} +- {100 * se:.2f} points (paired by seed)")
EOF
    exit 0
fi

# --- The same inputs for both sides ---------------------------------------
files="$work/files"
mkdir -p "$files"
levels="dungeon nav_test undulating"
for lv in $levels; do
    o="$meshes/$lv.obj"
    "$ours" points "$o" $((2 * pairs)) 1 "$files/$lv.points" >/dev/null
    paste -d' ' - - <"$files/$lv.points" >"$files/$lv.candidates"
    "$ours" filter "$o" "$files/$lv.candidates" "$files/$lv.ours" "$nodes" >/dev/null
    "$theirs" filter "$o" "$files/$lv.ours" "$files/$lv.pairs" "$nodes" >/dev/null
    echo "# $lv: $(wc -l <"$files/$lv.candidates") candidate pairs, $(wc -l <"$files/$lv.ours") complete on ours, $(wc -l <"$files/$lv.pairs") on both" >&2
done
"$ours" points "$meshes/nav_test.obj" 50 2026 "$files/obstacles.points" >/dev/null
"$ours" points "$meshes/nav_test.obj" $((4 * agents)) 7 "$files/crowd.points" >/dev/null

# --- Interleaved rounds ----------------------------------------------------
export WF_PEER_CLOCK=$clock
results="$work/results.jsonl"
: >"$results"
run() { # side label command...
    local side=$1 label=$2
    shift 2
    local line
    line=$("$@") || { echo "failed: $*" >&2; exit 1; }
    echo "{\"round\":$r,\"label\":\"$label\",\"data\":$line}" >>"$results"
}
for r in $(seq 1 "$rounds"); do
    echo "# round $r of $rounds" >&2
    # Alternate which side goes first, so neither always runs after the other.
    if [ $((r % 2)) -eq 1 ]; then order="ours theirs"; else order="theirs ours"; fi
    for side in $order; do
        bin=$ours
        [ "$side" = theirs ] && bin=$theirs
        for lv in $levels; do
            run "$side" "tiles/$lv" "$bin" tiles "$meshes/$lv.obj" 5
            run "$side" "paths/$lv" "$bin" paths "$meshes/$lv.obj" "$files/$lv.pairs" 5 "$nodes"
        done
        if [ "$side" = ours ]; then
            run ours obstacles/1 "$ours" obstacles "$meshes/nav_test.obj" "$files/obstacles.points" 1 5
            [ "$clock" = cpu ] || run ours obstacles/2 "$ours" obstacles "$meshes/nav_test.obj" "$files/obstacles.points" 2 5
            [ $skip_crowd = 1 ] || run ours crowd "$ours" crowd "$meshes/nav_test.obj" "$files/crowd.points" "$agents" "$frames" 1
        else
            run theirs obstacles/1 "$theirs" obstacles "$meshes/nav_test.obj" "$files/obstacles.points" 5
            [ $skip_crowd = 1 ] || run theirs crowd "$theirs" crowd "$meshes/nav_test.obj" "$files/crowd.points" "$agents" "$frames"
        fi
    done
done

# --- Instructions per query (callgrind: no noise) ------------------------
export WF_PEER_CLOCK=wall
cg="$work/callgrind.txt"
: >"$cg"
if [ $callgrind = 1 ]; then
    count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
    for lv in $levels; do
        n=$(wc -l <"$files/$lv.pairs")
        for side in wayfarer detour; do
            bin=$ours
            [ "$side" = detour ] && bin=$theirs
            a=$(count "$bin" paths "$meshes/$lv.obj" "$files/$lv.pairs" 1 "$nodes")
            b=$(count "$bin" paths "$meshes/$lv.obj" "$files/$lv.pairs" 3 "$nodes")
            echo "paths $lv $side $(((b - a) / (2 * n)))" >>"$cg"
        done
    done
    # Inside the timed functions only: every layer built once (tile), the
    # cache built once (cache; Detour: the tiles' rasterization to
    # compressed layers, as RecastDemo's rasterizeTileLayers).
    tcount() { valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect="$1" "${@:2}" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
    layers() { "$@" | sed -n 's/.*"layers":\([0-9]*\).*/\1/p'; }
    for lv in $levels; do
        o="$meshes/$lv.obj"
        n=$(layers "$ours" tiles "$o" 1)
        echo "tile $lv wayfarer $(($(tcount wf_tilecache_build_tile "$ours" tiles "$o" 1) / n))" >>"$cg"
        echo "cache $lv wayfarer $(tcount wf_tilecache_build_geom "$ours" tiles "$o" 1)" >>"$cg"
        n=$(layers "$theirs" tiles "$o" 1)
        echo "tile $lv detour $(($(tcount '*build_layer_no_commit*' "$theirs" tiles "$o" 1) / n))" >>"$cg"
        echo "cache $lv detour $(tcount '*rasterize_tile*' "$theirs" tiles "$o" 1)" >>"$cg"
    done
    # The update calls of the 50 cylinders (1 worker), add + remove, per round.
    ob="$files/obstacles.points"
    for side in wayfarer detour; do
        if [ $side = wayfarer ]; then
            a=$(tcount wf_tilecache_update "$ours" obstacles "$meshes/nav_test.obj" "$ob" 1 1)
            b=$(tcount wf_tilecache_update "$ours" obstacles "$meshes/nav_test.obj" "$ob" 1 3)
        else
            a=$(tcount 'dtTileCache::update*' "$theirs" obstacles "$meshes/nav_test.obj" "$ob" 1)
            b=$(tcount 'dtTileCache::update*' "$theirs" obstacles "$meshes/nav_test.obj" "$ob" 3)
        fi
        echo "obstacles nav_test $side $(((b - a) / 2))" >>"$cg"
    done
    # The crowd's update calls only: 30 warm-up frames + cg_frames, per agent-frame.
    if [ $skip_crowd = 0 ]; then
        c=$(tcount wf_crowd_update "$ours" crowd "$meshes/nav_test.obj" "$files/crowd.points" "$agents" "$cg_frames" 1)
        echo "crowd nav_test wayfarer $((c / (agents * (cg_frames + 30))))" >>"$cg"
        c=$(tcount 'dtCrowd::update*' "$theirs" crowd "$meshes/nav_test.obj" "$files/crowd.points" "$agents" "$cg_frames")
        echo "crowd nav_test detour $((c / (agents * (cg_frames + 30))))" >>"$cg"
    fi
fi

# --- Table -------------------------------------------------------------------
python3 - "$results" "$cg" "$commit" "$ourcommit" "$opt" "$rounds" "$nodes" "$clock" <<'EOF'
import json, statistics, sys
res, cg, commit, ours, opt, rounds, nodes, clock = sys.argv[1:]
rows = {}
for line in open(res):
    o = json.loads(line)
    rows.setdefault((o["label"], o["data"]["side"], o["data"].get("workers")), []).append(o["data"])

def fig(label, side, key, workers=None):
    v = [d[key] for d in rows.get((label, side, workers), [])]
    if not v:
        return None, ""
    return statistics.median(v), f"{min(v):.3g}-{max(v):.3g}"

print(f"# recastnavigation {commit} vs Wayfarer {ours}, both gcc -O{opt}, {rounds} interleaved rounds, {nodes} search nodes, {clock} clock;"
      " median of the rounds (spread min-max)")
print("| measure | Detour | Wayfarer | ratio |")
print("|---|--:|--:|--:|")
def row(name, label, key, wkey=None, ours_workers=None, theirs_workers=None, fmt="{:.2f}"):
    t, ts = fig(label, "detour", key, theirs_workers)
    o, os_ = fig(label, "wayfarer", wkey or key, ours_workers)
    if t is None or o is None:
        return
    print(f"| {name} | {fmt.format(t)} ({ts}) | {fmt.format(o)} ({os_}) | {o / t:.2f} |")
for lv in ["dungeon", "nav_test", "undulating"]:
    row(f"{lv}: find_path + straight path, µs (best of 5 in a run)", f"paths/{lv}", "us_best")
    row(f"{lv}: find_path + straight path, µs (median of 5 in a run)", f"paths/{lv}", "us_median")
for lv in ["dungeon", "nav_test", "undulating"]:
    row(f"{lv}: cache build (layers), ms", f"tiles/{lv}", "cache_build_ms_median")
for lv in ["dungeon", "nav_test", "undulating"]:
    row(f"{lv}: per-layer tile build, no commit, one pass, mean µs", f"tiles/{lv}", "tile_us_mean")
    row(f"{lv}: per-layer tile build, no commit, one pass, p95 µs", f"tiles/{lv}", "tile_us_p95")
row("nav_test 50 cylinders add, no budget: Detour 1 thread vs ours 1 worker, ms", "obstacles/1",
    "add_ms_median", ours_workers=1, theirs_workers=1, fmt="{:.3f}")
t, _ = fig("obstacles/1", "detour", "add_ms_median", 1)
o, os_ = fig("obstacles/2", "wayfarer", "add_ms_median", 2)
if t and o:
    print(f"| nav_test 50 cylinders add, no budget: Detour 1 thread vs ours 2 workers, ms | {t:.3f} | {o:.3f} ({os_}) | {o / t:.2f} |")
row("nav_test 50 cylinders remove, no budget, 1 worker, ms", "obstacles/1", "remove_ms_median",
    ours_workers=1, theirs_workers=1, fmt="{:.3f}")
row("crowd nav_test, µs per agent-frame, 1 worker", "crowd", "us_per_agent_frame",
    ours_workers=1, theirs_workers=1)
row("crowd memory, bytes per agent, ours at our defaults", "crowd", "bytes_per_agent",
    ours_workers=1, theirs_workers=1, fmt="{:.0f}")
row("crowd memory, bytes per agent, same capacities (one search of the path queue's nodes)", "crowd",
    "bytes_per_agent", wkey="bytes_per_agent_same_caps", ours_workers=1, theirs_workers=1,
    fmt="{:.0f}")
for side in ["detour", "wayfarer"]:
    for lv in ["dungeon", "nav_test", "undulating"]:
        d = rows.get((f"paths/{lv}", side, None), [{}])[0]
        t = rows.get((f"tiles/{lv}", side, None), [{}])[0]
        print(f"# {side} {lv}: {d.get('pairs')} pairs, corridor {d.get('corridor_mean')} polys,"
              f" {d.get('corners_mean')} corners; {t.get('layers')} layers, {t.get('compressed_bytes')} bytes")
    for k in ["obstacles/1", "obstacles/2", "crowd"]:
        for w in [1, 2]:
            d = rows.get((k, side, w))
            if d:
                print(f"# {side} {k}: {json.dumps(d[0])}")
cgs = {}
for line in open(cg):
    what, lv, side, n = line.split()
    cgs[(what, lv, side)] = int(n)
if cgs:
    print()
    print("| callgrind, instructions | Detour | Wayfarer | ratio |")
    print("|---|--:|--:|--:|")
    names = {"paths": "per find_path + straight path", "tile": "per layer tile build (no commit)",
             "cache": "cache build (layers), millions", "crowd": "crowd update per agent-frame",
             "obstacles": "50 cylinders added and removed (update calls, 1 worker), millions"}
    for what in ["paths", "tile", "cache", "obstacles", "crowd"]:
        for lv in ["dungeon", "nav_test", "undulating"]:
            t, o = cgs.get((what, lv, "detour")), cgs.get((what, lv, "wayfarer"))
            if t is None or o is None:
                continue
            if what in ("cache", "obstacles"):
                t, o = t / 1e6, o / 1e6
            print(f"| {lv}: {names[what]} | {t:,.1f} | {o:,.1f} | {o / t:.2f} |")
EOF
echo "# raw results: $results" >&2
