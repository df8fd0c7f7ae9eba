#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
# The `wayfarer` command line as a user meets it: help and version on
# stdout with exit 0, usage errors on stderr with exit 2, errors that name
# what is wrong, outputs checked before the work, progress without '\r'
# into a log, JSON summaries (null, not a sentinel, for what was not
# measured), and a replay that is the same bytes for the same seed.
#
#     cli.sh WAYFARER_EXE WORK_DIR VERSION
set -u
exe=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$2
version=$3
failures=0

rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

# run EXPECTED_STATUS ARGS...: runs the command into out.txt / err.txt.
run() {
    local want=$1
    shift
    "$exe" "$@" > out.txt 2> err.txt
    local rc=$?
    if [ "$rc" -ne "$want" ]; then
        echo "FAIL: wayfarer $*: exit $rc, expected $want"
        sed 's/^/  stderr: /' err.txt | head -n 5
        failures=$((failures + 1))
        return 1
    fi
    return 0
}
# expect FILE PATTERN WHAT: grep -E, or a failure naming WHAT.
expect() {
    if ! grep -qE -- "$2" "$1"; then
        echo "FAIL: $3: no /$2/ in $1:"
        sed 's/^/  /' "$1" | head -n 5
        failures=$((failures + 1))
    fi
}
reject() {
    if grep -qE -- "$2" "$1"; then
        echo "FAIL: $3: /$2/ in $1"
        failures=$((failures + 1))
    fi
}
empty() {
    if [ -s "$1" ]; then
        echo "FAIL: $2: $1 is not empty:"
        sed 's/^/  /' "$1" | head -n 5
        failures=$((failures + 1))
    fi
}
json_ok() {
    if command -v python3 > /dev/null && ! python3 -m json.tool "$1" > /dev/null; then
        echo "FAIL: $2: not JSON:"
        cat "$1"
        failures=$((failures + 1))
    fi
}

# Help and version: stdout, exit 0, nothing on stderr.
run 0 --help && expect out.txt '^usage: wayfarer <command>' "--help" && empty err.txt "--help"
expect out.txt '^  crowd FILE.wfc' "--help lists every command"
run 0 -h && expect out.txt '^usage: wayfarer' "-h"
run 0 --version && expect out.txt "^wayfarer $version\$" "--version" && empty err.txt "--version"
for cmd in demo build info scen check obstacles crowd scenarios; do
    run 0 "$cmd" --help && expect out.txt "^usage: wayfarer $cmd " "$cmd --help" &&
        empty err.txt "$cmd --help"
    # Only that command's help, not the whole list.
    [ "$(grep -c '^usage:' out.txt)" -eq 1 ] || {
        echo "FAIL: $cmd --help prints more than its own usage"
        failures=$((failures + 1))
    }
    run 0 help "$cmd" && expect out.txt "^usage: wayfarer $cmd " "help $cmd"
done
# Usage errors: stderr, exit 2, the command's synopsis and where its help is.
run 2 && expect err.txt '^usage: wayfarer' "no command" && empty out.txt "no command"
run 2 fly && expect err.txt 'unknown command fly' "unknown command"
run 2 crowd --agents 5 && expect err.txt 'a cache file is required' "crowd without a cache" &&
    expect err.txt 'wayfarer crowd --help' "crowd's usage error points at its help"
run 2 build x.obj -o x.wfc --wide 3 && expect err.txt 'unknown option --wide' "build, unknown option"
run 2 build x.obj -o x.wfc --tile-size wide &&
    expect err.txt -- '--tile-size wide: needs a whole number' "build, bad number"

# A level: two rooms joined by a bridge.
printf 'v 0 0 0\nv 0 0 10\nv 10 0 10\nv 10 0 0\nv 14 0 0\nv 14 0 10\nv 24 0 10\nv 24 0 0\nv 10 0 4\nv 10 0 6\nv 14 0 6\nv 14 0 4\nf 1 2 3 4\nf 5 6 7 8\nf 9 10 11 12\n' > rooms.obj
run 0 build rooms.obj -o rooms.wfc --json && json_ok out.txt "build --json" &&
    expect out.txt '"walkable_area_m2": [0-9.]+' "build --json, area in m2" &&
    expect out.txt '"build_ms": ' "build --json, time in ms"
run 0 build rooms.obj -o rooms.wfc && expect out.txt $'^walkable_area_m2\t' "build lines"
# Off-mesh links: a file of them, generated ones, bad lines and ends off the mesh.
printf '# a teleport between the rooms\nlink 5 3 0 3 20 0 3 radius 0.5 area 2 both\n' > rooms.links
run 0 build rooms.obj -o linked.wfc --links rooms.links --json &&
    expect out.txt '"offmesh_links": 1' "build --links counts them"
run 0 info linked.wfc --json && expect out.txt '"offmesh_links": 1' "info offmesh_links"
run 0 info rooms.wfc --json && expect out.txt '"offmesh_links": 0' "info, no links"
printf 'link 6 3 0 3 20 0 3 flags 0x3\n' > hex.links
run 0 build rooms.obj -o hex.wfc --links hex.links --json &&
    expect out.txt '"offmesh_links": 1' "build --links, flags in hex"
printf 'link 6 3 0 3 20 0 3 flags 0x10000\n' > big.links
run 1 build rooms.obj -o bad.wfc --links big.links && expect err.txt 'big.links:1' \
    "build --links, flags above 16 bits"
run 0 build rooms.obj -o gen.wfc --generate-links --json &&
    expect out.txt '"offmesh_links": [0-9]+' "build --generate-links" &&
    expect err.txt 'generated [0-9]+ drop-downs' "build --generate-links says what it found"
printf 'link 5 3 0 3 20 nan 3\n' > nan.links
run 1 build rooms.obj -o bad.wfc --links nan.links && expect err.txt 'nan.links:1: start and end' \
    "build --links, NaN end"
printf 'link 5 3 0 3 20 9 3\n' > off.links
run 1 build rooms.obj -o bad.wfc --links off.links && expect err.txt 'its end is off the layers' \
    "build --links, end off the navmesh"
printf 'link 5 3 0 3 20 0 3\nlink 5 3 0 4 20 0 4\n' > dup.links
run 1 build rooms.obj -o bad.wfc --links dup.links && expect err.txt 'user_id 5' \
    "build --links, duplicate ids"
printf 'ladder 5 3 0 3 20 0 3\n' > word.links
run 1 build rooms.obj -o bad.wfc --links word.links && expect err.txt 'word.links:1: each line is' \
    "build --links, unknown line"

# Agent classes: one multi-class file, info reports each class; bad classes.
run 0 build rooms.obj -o classes.wfc --class soldier:0.4:1.8 --class tank:1.2:2.5:0.3 --json &&
    json_ok out.txt "build --class --json" &&
    expect out.txt '"classes": \[\{"name": "soldier", "agent_radius": 0.400' "build --class, first" &&
    expect out.txt '\{"name": "tank", "agent_radius": 1.200, "agent_height": 2.500' "build --class, tank" &&
    expect out.txt '"build_cpu_ms": [0-9.]+' "build --class, CPU time per class"
run 0 info classes.wfc --json && json_ok out.txt "info classes --json" &&
    expect out.txt '"classes": \[\{"name": "soldier"' "info classes" &&
    expect out.txt '"name": "tank", "agent_radius": 1.200' "info classes, tank" &&
    expect out.txt '"memory_bytes": [0-9]+' "info classes, memory per class"
run 0 info rooms.wfc --json && reject out.txt '"classes"' "info, a plain file has no classes"
run 2 build rooms.obj -o bad.wfc --class tank:0 && expect err.txt '--class tank:0: each size' \
    "build --class, radius 0"
run 2 build rooms.obj -o bad.wfc --class tank:nan && expect err.txt '--class tank:nan: each size' \
    "build --class, NaN radius"
run 2 build rooms.obj -o bad.wfc --class a:1 --class a:2 && expect err.txt 'two classes of one name' \
    "build --class, a name twice"
run 2 build rooms.obj -o bad.wfc --class a:1 --class b:1 --class c:1 --class d:1 --class e:1 \
    --class f:1 --class g:1 --class h:1 --class i:1 && expect err.txt 'at most 8 classes' \
    "build --class, nine classes"
head -c 40 classes.wfc > cut.wfc
run 1 info cut.wfc && expect err.txt 'class table is damaged' "info, a cut multi-class file"
# crowd, check and obstacles read a multi-class file: the first class, or
# --class NAME; an unknown name lists the file's; --class on a plain file.
run 0 crowd classes.wfc --agents 10 --frames 20 && json_ok out.txt "crowd, multi-class file"
run 0 crowd classes.wfc --class tank --agents 10 --frames 20 && json_ok out.txt "crowd --class tank"
run 0 check classes.wfc && cp out.txt check_first.txt
run 0 check classes.wfc --class soldier && cmp -s out.txt check_first.txt ||
    { echo "FAIL: check: the first class is the default"; failures=$((failures + 1)); }
run 0 check classes.wfc --class tank && expect out.txt '[0-9]' "check --class tank"
run 0 obstacles classes.wfc --count 4 --class tank && expect out.txt '[0-9]' "obstacles --class tank"
for cmd in crowd check obstacles; do
    run 2 "$cmd" classes.wfc --class plane &&
        expect err.txt "^wayfarer $cmd: --class plane: classes.wfc has no such class \\(it has: soldier tank\\)" \
            "$cmd, an unknown class"
    run 2 "$cmd" rooms.wfc --class tank &&
        expect err.txt "^wayfarer $cmd: --class tank: rooms.wfc is a single-class cache file" \
            "$cmd --class on a plain file"
    run 1 "$cmd" cut.wfc && expect err.txt "^wayfarer $cmd: cut.wfc: a multi-class cache file whose class table is damaged" \
        "$cmd, a cut multi-class file"
done

# Areas: OBJ materials -> areas and flags, a convex volume, and bad files
# (errors name the file and line).
printf 'v 0 0 0\nv 30 0 0\nv 0 0 12\nv 30 0 12\nv 0 0 18\nv 30 0 18\nv 0 0 30\nv 30 0 30\n' > river.obj
printf 'usemtl ground\nf 1 3 4 2\nusemtl water\nf 3 5 6 4\nusemtl ground\nf 5 7 8 6\n' >> river.obj
printf '# the river\nname water 1 0x2\nname ground 0 1\nvolume 3 0x8 -1 1  2 2  2 8  8 8  8 2\n' > river.areas
run 0 build river.obj -o river.wfc --areas river.areas --json &&
    expect out.txt '"area_names": 2, "area_volumes": 1' "build --areas counts names and volumes"
run 0 info river.wfc --json && expect out.txt '"area_polys": "0:[0-9]+ 1:[0-9]+ 3:[0-9]+"' \
    "info area_polys"
run 0 info rooms.wfc --json && expect out.txt '"area_polys": "0:[0-9]+"' "info area_polys, no areas"
printf 'name ground 0 1\n' > partial.areas
run 0 build river.obj -o partial.wfc --areas partial.areas &&
    expect err.txt "line 11: material 'water' is not in the area table" "build --areas, unknown material"
printf 'name water 1 2\n\nname water 2 4\n' > dup.areas
run 1 build river.obj -o bad.wfc --areas dup.areas &&
    expect err.txt "dup.areas:3: the name 'water' is on line 1 already" "build --areas, duplicate name"
printf 'name water 64 2\n' > big.areas
run 1 build river.obj -o bad.wfc --areas big.areas &&
    expect err.txt 'big.areas:1: the area must be a whole number 0..63' "build --areas, area 64"
printf 'name water 1 2\nname lake 1 4\n' > clash.areas
run 1 build river.obj -o bad.wfc --areas clash.areas &&
    expect err.txt 'clash.areas:2: area 1 has flags 2 on line 1, not 4' "build --areas, flags clash"
printf 'water 1 2\n' > word.areas
run 1 build river.obj -o bad.wfc --areas word.areas &&
    expect err.txt 'word.areas:1: each line is' "build --areas, malformed line"
printf 'volume 3 8 -1 1 2 2 2 nan 8 8\n' > nan.areas
run 1 build river.obj -o bad.wfc --areas nan.areas &&
    expect err.txt 'nan.areas:1: the outline' "build --areas, NaN in a volume"
printf '# an arrow head\nvolume 3 8 -1 1 0 0 4 2 0 4 1 2\n' > concave.areas
run 1 build river.obj -o bad.wfc --areas concave.areas &&
    expect err.txt 'concave.areas:2: the outline is not convex' "build --areas, non-convex volume"
printf 'volume 3 8 1 -1 0 0 0 4 4 4\n' > upside.areas
run 1 build river.obj -o bad.wfc --areas upside.areas &&
    expect err.txt 'upside.areas:1: YMIN and YMAX' "build --areas, YMIN above YMAX"
run 0 info rooms.wfc --json && json_ok out.txt "info --json" &&
    expect out.txt '"cell_size_m": 0.300, "cell_height_m": 0.200, "tile_size_cells": ' "info units"

# Errors that name what is wrong.
run 1 build rooms.wfc -o again.wfc && expect err.txt 'rooms.wfc is a tile cache already' "build CACHE"
[ ! -e again.wfc ] || { echo "FAIL: build CACHE wrote a file"; failures=$((failures + 1)); }
printf 'v 0 0 0\nv 1 0 0\n' > nofaces.obj
run 1 build nofaces.obj -o nofaces.wfc && expect err.txt "nofaces.obj: no faces" "build, no faces"
for bad in "--cell-size -1 cell_size" "--cell-height 0 cell_height" "--agent-climb -2 agent_climb" \
           "--max-slope 95 agent_max_slope" "--tile-size 300 tile_size"; do
    set -- $bad
    run 2 build rooms.obj -o bad.wfc "$1" "$2" &&
        expect err.txt "^wayfarer build: $1 $2: .*$3" "build $1 $2 names the setting"
    [ ! -e bad.wfc ] || { echo "FAIL: build $1 $2 wrote a file"; failures=$((failures + 1)); }
done
for cmd in info check obstacles crowd; do
    run 1 "$cmd" rooms.obj && expect err.txt "^wayfarer $cmd: rooms.obj is a Wavefront OBJ, not a tile cache" \
        "$cmd OBJ"
done
head -c 100 rooms.wfc > cut.wfc
run 1 info cut.wfc && expect err.txt '^wayfarer info: cut.wfc: not a tile cache it can read: .+' \
    "info, a cut cache"
printf 'hello\n' > level.txt
run 1 demo --level level.txt --frames 5 --quiet &&
    expect err.txt 'level.txt: neither a Wavefront OBJ .* nor a tile cache' "demo --level TXT"
cp rooms.obj broken.wfc
run 1 demo --level broken.wfc --frames 5 --quiet &&
    expect err.txt 'broken.wfc: cannot make the world: .*cache' "demo --level, a bad cache"
# A second agent class: vehicles among the people, from a multi-class cache too.
run 0 demo --agents 30 --vehicles 3 --frames 30 --quiet --json --out v.html && json_ok out.txt "demo vehicles" &&
    expect out.txt '"vehicles": 3' "demo --vehicles places them" &&
    expect out.txt '"classes": \[\{"name": "people".*\{"name": "vehicles", "agent_radius": 1.200' \
        "demo classes, sizes" &&
    expect out.txt '"memory_bytes": [0-9]+, "build_ms": [0-9.]+\}\]' "demo classes, memory and time"
# Issue 14's goal counted in the demo itself (demo17): targets in time at
# full speed, the part a free agent reaches (path x 1.25), how they ended.
run 0 demo --agents 60 --vehicles 0 --frames 600 --quiet --json --out it.html &&
    json_ok out.txt "demo in-time counts" &&
    expect out.txt '"in_time_targets": [1-9][0-9]*, "in_time_reached": [0-9]+, "in_time_blocked": [0-9]+, "in_time_blocked_partial": [0-9]+, "in_time_alone_targets": [0-9]+, "in_time_alone_reached": [0-9]+' \
        "demo in-time counts" &&
    if command -v python3 > /dev/null && ! python3 -c '
import json, sys
d = json.load(open("out.txt"))
t, r, b, bp = d["in_time_targets"], d["in_time_reached"], d["in_time_blocked"], d["in_time_blocked_partial"]
at, ar = d["in_time_alone_targets"], d["in_time_alone_reached"]
sys.exit(not (at < t and r + b <= t and ar <= at and ar <= r and bp <= b and r <= d["arrivals"]))'; then
        echo "FAIL: demo in-time counts are not consistent:"
        cat out.txt
        failures=$((failures + 1))
    fi
run 0 demo --level classes.wfc --agents 10 --vehicles 2 --frames 20 --quiet --out v.html &&
    expect out.txt $'^vehicles\t2' "demo on a multi-class cache"
run 2 demo --level rooms.wfc --agents 10 --vehicles 2 --frames 20 --quiet --out v.html &&
    expect err.txt 'holds one agent class' "demo --vehicles on a one-class cache"
run 2 demo --agents 2000 --vehicles 2 --frames 5 --quiet --out v.html &&
    expect err.txt 'both must be at most 1008' "demo --vehicles with too many people"
# Outputs are checked before the run: no progress line, no summary.
run 1 demo --agents 50 --frames 300 --out /nonexistent/x.html &&
    expect err.txt 'cannot write /nonexistent/x.html' "demo --out unwritable" &&
    reject err.txt 'frame' "demo --out unwritable ran the simulation" && empty out.txt "demo --out"
run 1 demo --agents 50 --frames 300 --svg /nonexistent/x.svg --out ok.html &&
    expect err.txt 'cannot write /nonexistent/x.svg' "demo --svg unwritable"
run 1 build rooms.obj -o /nonexistent/x.wfc && expect err.txt 'cannot write /nonexistent/x.wfc' \
    "build -o unwritable" && reject err.txt 'building' "build -o unwritable built"

# crowd takes the cache as an argument too; an unmeasured gap is null.
run 0 crowd rooms.wfc --agents 10 --frames 20 && json_ok out.txt "crowd LEVEL.wfc" &&
    expect out.txt '"min_separation_m": [0-9.]+' "crowd, measured gap"
run 0 crowd --cache rooms.wfc --agents 10 --frames 20 --gap-every 0 &&
    expect out.txt '"min_separation_m": null' "crowd --gap-every 0"

# Nothing to measure is null too: no arrival in one second, no arrival time.
run 0 scenarios --scene circle32 --seconds 1 --json && json_ok out.txt "scenarios --json" &&
    expect out.txt '"arrived": 0, .*"arrival_time_mean_s": null, "arrival_time_max_s": null' \
        "scenarios, no arrival time without an arrival"

# The demo's in-time shares per run too (paired comparisons, demo18), one per
# run, none with one run.
run 0 scenarios --scene demo --agents 30 --seconds 2 --runs 2 --json &&
    json_ok out.txt "scenarios demo --runs 2" &&
    expect out.txt '"runs_in_time_share": \[[01]\.[0-9]{4}, [01]\.[0-9]{4}\]' \
        "scenarios demo, in-time share per run" &&
    expect out.txt '"runs_in_time_alone_share": \[[01]\.[0-9]{4}, [01]\.[0-9]{4}\]' \
        "scenarios demo, free agent's share per run"
run 0 scenarios --scene demo --agents 30 --seconds 2 --json &&
    reject out.txt 'runs_in_time_share' "scenarios demo, one run: no per-run shares"

# Progress into a log: one line per report, no carriage return.
run 0 demo --level rooms.wfc --agents 10 --frames 30 --out p.html &&
    expect err.txt '^wayfarer demo: frame 30/30' "demo progress" &&
    [ "$(grep -c 'wayfarer demo: frame' err.txt)" -eq 10 ] ||
    { echo "FAIL: demo progress is not 10 lines"; failures=$((failures + 1)); }
if grep -q $'\r' err.txt; then
    echo "FAIL: demo progress into a file has a carriage return"
    failures=$((failures + 1))
fi
expect out.txt $'^frame_ms_mean\t' "demo summary lines"
run 0 demo --level rooms.wfc --agents 10 --frames 30 --out p.html --json --quiet &&
    json_ok out.txt "demo --json" && empty err.txt "demo --quiet" &&
    expect out.txt '"replay_file": "p.html", "replay_data_bytes": [0-9]+' "demo --json replay"

# The same seed writes the same replay and picture, for any worker count;
# another seed does not.
run 0 demo --agents 60 --frames 60 --seed 4 --quiet --out a.html --svg a.svg
run 0 demo --agents 60 --frames 60 --seed 4 --quiet --workers 2 --out b.html --svg b.svg
run 0 demo --agents 60 --frames 60 --seed 5 --quiet --out c.html
if ! cmp -s a.html b.html || ! cmp -s a.svg b.svg; then
    echo "FAIL: the same seed wrote different replays"
    failures=$((failures + 1))
fi
if cmp -s a.html c.html; then
    echo "FAIL: seeds 4 and 5 wrote the same replay"
    failures=$((failures + 1))
fi
expect a.html '"timings":false' "the replay says it has no timings"
run 0 demo --agents 60 --frames 60 --seed 4 --quiet --timings --out t.html &&
    expect t.html '"timings":true' "demo --timings"

# The generated level exported: an OBJ that builds and that demo runs on.
run 0 demo --export-level level.obj --seed 2 --json && json_ok out.txt "export-level --json" &&
    expect out.txt '"triangles": [1-9][0-9]*' "export-level counts"
expect level.obj '^f [0-9]+ [0-9]+ [0-9]+$' "the exported level has faces"
run 0 build level.obj -o level.wfc
run 0 demo --level level.wfc --agents 20 --frames 10 --quiet --out l.html
run 2 demo --export-level x.obj --level rooms.obj && expect err.txt 'does not go with --level' \
    "export-level with --level"

if [ "$failures" -gt 0 ]; then
    echo "$failures failures"
    exit 1
fi
echo "ok"
