#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
# The web tests, for meson (suite 'web') and CI:
#   web/test/run.sh node|chromium BUILD_DIR [WAYFARER_TOOL]
# builds the wasm module into BUILD_DIR (web/build.sh, incremental), then
# node: runs web/test/*.test.mjs with node's test runner;
# chromium: opens BUILD_DIR/viewer.html#test in headless Chromium
# (chromium_test.mjs), whose scripted obstacle drop must write PASS into the
# page (#test-result).
# Exits 77 (skipped) when emcc, node or chromium is not installed.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mode="$1"
out="$2"
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
tool="${3:-}"
command -v emcc >/dev/null && command -v node >/dev/null || {
    echo "web: emcc or node not installed: skipped"
    exit 77
}
browser=""
if [ "$mode" = chromium ]; then
    browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
    [ -n "$browser" ] || {
        echo "web: chromium not installed: skipped"
        exit 77
    }
fi
# The viewer embeds the demo level, exported by the native tool.
if [ -n "$tool" ] && [ -x "$tool" ] && [ -z "${WF_LEVEL_OBJ:-}" ]; then
    mkdir -p "$out"
    "$tool" demo --export-level "$out/level.obj" >/dev/null && export WF_LEVEL_OBJ="$out/level.obj"
    # A cache file of it from the native build (system liblz4), for the
    # test that native and wasm cache files load both ways.
    "$tool" build "$out/level.obj" -o "$out/level.wfc" >/dev/null 2>&1 && export WF_WAYFARER="$tool"
fi
"$here/../build.sh" "$out" || exit 1
case "$mode" in
node)
    WF_WEB_BUILD="$out" node --test --test-reporter=tap "$here"/*.test.mjs
    ;;
chromium)
    [ -f "$out/viewer.html" ] || {
        echo "web: no viewer.html (no level: build the native wayfarer tool)"
        exit 77
    }
    # The DevTools protocol on a pipe (chromium_test.mjs) waits for the page.
    node "$here/chromium_test.mjs" "$browser" "$out/viewer.html" "$out/chromium-profile" 300
    ;;
*)
    echo "usage: run.sh node|chromium BUILD_DIR [WAYFARER_TOOL]"
    exit 2
    ;;
esac
