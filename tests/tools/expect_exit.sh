#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
# A command that must fail in one known way: exactly this exit status (not
# any failure: an abort or a sanitizer report exits otherwise), this
# message on stderr, and nothing on stdout.
#
#     expect_exit.sh STATUS PATTERN COMMAND [ARGS...]
set -u
want=$1
pattern=$2
shift 2
err=$(mktemp)
out=$(mktemp)
trap 'rm -f "$err" "$out"' EXIT
"$@" > "$out" 2> "$err"
rc=$?
cat "$err"
if [ "$rc" -ne "$want" ]; then
    echo "FAIL: exit $rc, expected $want"
    exit 1
fi
if ! grep -qE -- "$pattern" "$err"; then
    echo "FAIL: no /$pattern/ on stderr"
    exit 1
fi
if grep -qE 'runtime error|Sanitizer|wayfarer: check failed:' "$err"; then
    echo "FAIL: a sanitizer report or a failed check"
    exit 1
fi
if [ -s "$out" ]; then
    echo "FAIL: output on stdout:"
    cat "$out"
    exit 1
fi
