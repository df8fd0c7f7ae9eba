#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
# The replay viewer in a real browser: records the small replay (the
# tools_replay test program), opens replay.html in headless Chromium, and
# checks that the first paint shows the navmesh and the agents (pixels of
# the screenshot, png_check.py), that the page decoded its data (the DOM's
# data-drawn mark) and that the console shows no error.
#
#     viewer_test.sh TOOLS_REPLAY_EXE WORK_DIR
# Exit 77 (meson: skipped) without Chromium (Debian package 'chromium') or
# python3. $CHROMIUM names another browser binary.
set -u
exe=$1
work=$2
here=$(cd "$(dirname "$0")" && pwd)

chrome=""
for c in "${CHROMIUM:-}" /usr/bin/chromium /usr/bin/chromium-browser; do
    if [ -n "$c" ] && [ -x "$c" ]; then
        chrome=$c
        break
    fi
done
if [ -z "$chrome" ]; then
    echo "SKIP: no Chromium (/usr/bin/chromium or /usr/bin/chromium-browser)"
    exit 77
fi
if ! command -v python3 > /dev/null; then
    echo "SKIP: no python3"
    exit 77
fi

mkdir -p "$work"
if ! "$exe" "$work" > "$work/replay_test.log" 2>&1; then
    cat "$work/replay_test.log"
    echo "FAIL: the replay test program failed"
    exit 1
fi
html="$work/replay.html"
[ -s "$html" ] || { echo "FAIL: $html was not written"; exit 1; }

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
# A fresh profile each time; no GPU, no sandbox (root in CI); virtual time
# lets the page run its first 2 s before the capture.
flags=(--headless --disable-gpu --no-sandbox --no-first-run --no-default-browser-check
       --user-data-dir="$profile" --hide-scrollbars --window-size=1024,768
       --force-device-scale-factor=1 --virtual-time-budget=2000
       --enable-logging=stderr --v=0)
url="file://$html"

rm -f "$work/viewer.png"
timeout 120 "$chrome" "${flags[@]}" --screenshot="$work/viewer.png" "$url" \
    > "$work/chromium_screenshot.log" 2>&1
timeout 120 "$chrome" "${flags[@]}" --dump-dom "$url" \
    > "$work/viewer_dom.html" 2> "$work/chromium_dom.log"

# Again at the last frame, coloured by time in place, one layer shown,
# every path drawn and agent 3 selected (its trail and path).
timeout 120 "$chrome" "${flags[@]}" --dump-dom "$url#frame=99&paused&colour=still&layer=0&paths&select=3" \
    > "$work/viewer_dom_modes.html" 2> "$work/chromium_dom_modes.log"

status=0
# Chromium logs every console message at one level ('INFO:CONSOLE(line)
# "message"', uncaught exceptions as "Uncaught ..."), so console.error
# cannot be told apart: the viewer writes nothing to the console, and any
# console line fails.
if grep -E ":CONSOLE[:(]|Uncaught" "$work/chromium_screenshot.log" "$work/chromium_dom.log" \
    "$work/chromium_dom_modes.log"; then
    echo "FAIL: console output or errors (above)"
    status=1
fi
if grep -q 'data-error=' "$work/viewer_dom.html"; then
    grep -o 'data-error="[^"]*"' "$work/viewer_dom.html"
    echo "FAIL: the page reported an error"
    status=1
fi
if ! grep -q 'data-drawn="100"' "$work/viewer_dom.html"; then
    echo "FAIL: the page did not decode and draw its 100 frames (no data-drawn=\"100\" in the DOM)"
    status=1
fi
# The page decoded every agent's path records (the meta's count), and the
# modes page shows the time-in-place legend and agent 3 with its path.
records=$(grep -o '"pathRecords":[0-9]*' "$html" | cut -d: -f2)
if [ -z "$records" ] || ! grep -q "data-paths=\"$records\"" "$work/viewer_dom.html"; then
    echo "FAIL: the page did not decode the $records path records (data-paths)"
    status=1
fi
for want in 'data-drawn="100"' 'in place 60 s or more' 'agent 3 (id' 'on layer 0' \
            '<option value="0">layer 0</option>'; do
    if ! grep -qF "$want" "$work/viewer_dom_modes.html"; then
        echo "FAIL: the page with #colour=still&layer=0&select=3 lacks: $want"
        status=1
    fi
done
# Agent 3's path as the page decoded it, against the independent reader.
want=$(python3 "$here/replay_check.py" "$html" --print-path 3 | tail -n 1)
if ! grep -qF "$want" "$work/viewer_dom_modes.html"; then
    echo "FAIL: the page does not show agent 3's path as recorded: $want"
    status=1
fi
if grep -q 'data-error=' "$work/viewer_dom_modes.html"; then
    grep -o 'data-error="[^"]*"' "$work/viewer_dom_modes.html"
    echo "FAIL: the page reported an error in the colour and layer modes"
    status=1
fi
if [ ! -s "$work/viewer.png" ]; then
    cat "$work/chromium_screenshot.log"
    echo "FAIL: no screenshot"
    exit 1
fi
python3 "$here/png_check.py" "$work/viewer.png" || status=1
[ "$status" -eq 0 ] && echo "OK: $work/viewer.png"
exit "$status"
