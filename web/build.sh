#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
# Builds the library to WebAssembly with Emscripten (emcc 3.1.6, Debian's):
#   web/build.sh [OUT]          (OUT default: build-web)
# writes OUT/wayfarer.wasm, OUT/wayfarer.js + .d.ts (the ES module, copied
# beside it) and, when a level is at hand, OUT/viewer.html: the live viewer
# as one self-contained file (module, wasm and level inlined). The level is
# WF_LEVEL_OBJ if set, else exported by a native `wayfarer` found in
# build/tools or build-release/tools (`wayfarer demo --export-level`).
# The sources are the ones the modules' meson.build files list, compiled
# with the project's flags, single-threaded (one worker: no thread starts),
# with web/lz4 in place of the system liblz4.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
out="${1:-build-web}"
case "$out" in /*) ;; *) out="$root/$out" ;; esac
mkdir -p "$out/gen/wayfarer"

# Debian's nodejs finds its packaged modules (emcc's acorn) itself; a
# node from elsewhere needs the path.
export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"

version=$(sed -n "s/^ *version *: *'\([0-9.]*\)'.*/\1/p" "$root/meson.build" | head -n 1)
IFS=. read -r major minor patch <<<"$version"
sed -e "s/@WF_VERSION_MAJOR@/$major/" -e "s/@WF_VERSION_MINOR@/$minor/" \
    -e "s/@WF_VERSION_PATCH@/$patch/" -e "s/@WF_VERSION_STRING@/$version/" \
    "$root/include/wayfarer/version.h.in" >"$out/gen/wayfarer/version.h"

sources=()
for module in navcore tilecache crowd runtime; do
    while read -r f; do
        sources+=("$root/$module/$f")
    done < <(python3 - "$root/$module/meson.build" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
# Every 'x.c' inside the module's `<module>_sources = files(...)` list.
m = re.search(r"_sources\s*=\s*files\((.*?)\)", text, re.S)
for name in re.findall(r"'([^']+\.c)'", m.group(1) if m else ""):
    print(name)
PY
)
done
sources+=("$here/lz4/lz4_block.c" "$here/wayfarer_js.c")

cflags=(-std=c11 -O3 -DNDEBUG -ffp-contract=off -fno-math-errno -fvisibility=hidden -Wall -Wextra
        -Wno-unused-parameter -I"$root" -I"$root/include" -I"$out/gen" -I"$here/lz4")
# Avoidance's SSE2 kernel through Emscripten's SSE2-on-wasm-SIMD headers:
# the same bits as the scalar kernel (checked: equal agent hashes after 200
# frames of 300 agents), twice as fast; needs wasm SIMD (Chrome 91, Firefox
# 89, Safari 16.4, node 16.4). WF_WEB_SIMD=0: the scalar kernel only.
if [ "${WF_WEB_SIMD:-1}" = 1 ]; then
    cflags+=(-msimd128 -msse2)
else
    cflags+=(-DWF_AVOID_NO_SIMD)
fi
# A standalone module (no Emscripten JS glue: wayfarer.js instantiates it
# with a few imports), growable memory, the wfjs_* calls exported.
ldflags=(--no-entry -sSTANDALONE_WASM=1 -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=33554432
         -sMAXIMUM_MEMORY=2147483648 -sTOTAL_STACK=1048576 -sERROR_ON_UNDEFINED_SYMBOLS=0 -sWARN_ON_UNDEFINED_SYMBOLS=0
         -sEXPORTED_FUNCTIONS=_malloc,_free)

objdir="$out/obj"
# Objects are rebuilt when their source or a header it includes is newer
# (emcc's dependency files), or all of them when the
# flags changed since the last build in this folder.
if [ "$(cat "$out/flags" 2>/dev/null)" != "${cflags[*]}" ]; then
    rm -rf "$objdir"
fi
mkdir -p "$objdir"
printf '%s' "${cflags[*]}" >"$out/flags"
objects=()
for src in "${sources[@]}"; do
    rel=${src#"$root"/}
    objects+=("$objdir/${rel//\//_}.o")
done
# Two compiles at a time (the build machines have two cores).
printf '%s\n' "${sources[@]}" | xargs -P 2 -I{} sh -c '
    src="$1"; shift; root="$1"; shift; objdir="$1"; shift
    rel=${src#"$root"/}; obj="$objdir/$(echo "$rel" | tr / _).o"
    stale=0
    [ -f "$obj" ] && [ -f "$obj.d" ] || stale=1
    if [ "$stale" = 0 ]; then
        # Any file the object was compiled from (its headers too) newer than it.
        for dep in $(sed -e "s/^[^:]*://" -e "s/\\\\$//" "$obj.d"); do
            if [ "$dep" -nt "$obj" ]; then stale=1; break; fi
        done
    fi
    if [ "$stale" = 1 ]; then emcc "$@" -MMD -MF "$obj.d" -c "$src" -o "$obj"; fi
' _ {} "$root" "$objdir" "${cflags[@]}"
relink=0
[ -f "$out/wayfarer.wasm" ] || relink=1
for obj in "${objects[@]}"; do
    [ "$obj" -nt "$out/wayfarer.wasm" ] && relink=1
done
if [ "$relink" = 1 ]; then
    emcc "${objects[@]}" "${ldflags[@]}" -O3 -o "$out/wayfarer.wasm"
fi

cp "$here/wayfarer.js" "$here/wayfarer.d.ts" "$out/"

level="${WF_LEVEL_OBJ:-}"
if [ -z "$level" ]; then
    for tool in "$root/build/tools/wayfarer" "$root/build-release/tools/wayfarer"; do
        if [ -x "$tool" ] && "$tool" demo --export-level "$out/level.obj" >/dev/null; then
            level="$out/level.obj"
            break
        fi
    done
fi
if [ -n "$level" ]; then
    python3 "$here/inline_viewer.py" "$here/viewer.html" "$here/wayfarer.js" "$out/wayfarer.wasm" \
        "$level" "$out/viewer.html"
    echo "web: $out/viewer.html"
else
    echo "web: no level (set WF_LEVEL_OBJ or build the native tool): viewer.html not made"
fi
echo "web: $out/wayfarer.wasm"
