#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
# The README's example as a user meets it: the library installed with
# `meson install --destdir` into a staging folder, the example's code taken
# verbatim from README.md (between the example markers), compiled against
# the staged install with pkg-config (a sysroot, as the README says), and
# run on the level the README makes (`wayfarer demo --export-level`, then
# `wayfarer build`, both the installed command). Checks that the runner
# walked to its target past the crate and that the visitor's path was
# partial (WF_PARTIAL) and it stopped away from its unreachable target,
# and that the output is the one the README shows.
#
#     readme_example.sh SOURCE_ROOT BUILD_DIR WORK_DIR CC SANITIZE
# Exit 77 (meson: skipped) without pkg-config.
set -u
src=$1
build=$2
work=$3
cc=$4
sanitize=$5

fail() {
    echo "FAIL: $*"
    [ -f "$work/out.txt" ] && cat "$work/out.txt"
    exit 1
}

if ! command -v pkg-config > /dev/null; then
    echo "SKIP: no pkg-config (the README's requirements list it)"
    exit 77
fi
rm -rf "$work"
mkdir -p "$work"
example=$(sed -n '/<!-- example -->/,/<!-- \/example -->/p' "$src/README.md" | grep -v '^<!--' | grep -v '^```')
[ -n "$example" ] || fail "README.md has no example between <!-- example --> and <!-- /example -->"
printf '%s\n' "$example" > "$work/example.c"

meson install -C "$build" --destdir "$work/stage" --no-rebuild --quiet > "$work/install.log" 2>&1 ||
    { cat "$work/install.log"; fail "meson install --destdir"; }
pc=$(find "$work/stage" -name wayfarer.pc | head -n 1)
[ -n "$pc" ] || fail "no wayfarer.pc in the staged install"
pcdir=$(dirname "$pc")
libdir=$(dirname "$pcdir")
bindir=$(find "$work/stage" -type d -name bin | head -n 1)
[ -x "$bindir/wayfarer" ] || fail "no installed wayfarer command"

# The README's staged-install lines: the sysroot puts the stage in front of
# the paths the .pc file names.
flags=$(PKG_CONFIG_SYSROOT_DIR="$work/stage" PKG_CONFIG_PATH="$pcdir" \
        pkg-config --cflags --libs wayfarer) || fail "pkg-config --cflags --libs wayfarer"
case "$flags" in
    *"$work/stage"*) ;;
    *) fail "pkg-config flags do not point into the stage: $flags" ;;
esac
extra=""
if [ "$sanitize" != "none" ] && [ -n "$sanitize" ]; then
    extra="-fsanitize=$sanitize"
fi
# shellcheck disable=SC2086 # the flags are words
$cc -std=c11 -Wall -Wextra -Werror $extra "$work/example.c" -o "$work/example" $flags ||
    fail "the README example does not compile against the installed library"

"$bindir/wayfarer" demo --export-level "$work/level.obj" > /dev/null || fail "demo --export-level"
"$bindir/wayfarer" build "$work/level.obj" -o "$work/level.wfc" > /dev/null 2>&1 || fail "build"
(cd "$work" && LD_LIBRARY_PATH="$libdir" ./example level.wfc > out.txt 2>&1) ||
    fail "the example exited with status $?"
cat "$work/out.txt"

walked() { sed -n "s/^$1: walked \\([0-9.]*\\) m, ends \\([0-9.]*\\) m from its target\$/\\1 \\2/p" "$work/out.txt"; }
read -r runner_m runner_left <<< "$(walked runner)"
read -r visitor_m visitor_left <<< "$(walked visitor)"
[ -n "${runner_m:-}" ] && [ -n "${visitor_m:-}" ] || fail "no 'walked' lines"
grep -q '^runner: full path' "$work/out.txt" || fail "the runner's path is not full"
grep -q '^runner: at the end of its path' "$work/out.txt" || fail "the runner did not arrive"
grep -q '^visitor: partial (WF_PARTIAL' "$work/out.txt" || fail "the visitor's path is not partial"
# The runner crosses the level (80 m in a straight line, more round the
# crate) and ends at its target; the visitor walks but cannot get there.
awk -v m="$runner_m" -v left="$runner_left" 'BEGIN { exit !(m >= 80 && left < 1) }' ||
    fail "the runner walked $runner_m m and ends $runner_left m from its target"
awk -v m="$visitor_m" -v left="$visitor_left" 'BEGIN { exit !(m >= 20 && left > 2) }' ||
    fail "the visitor walked $visitor_m m and ends $visitor_left m from its target"
# Results are the same bits on every machine and build: the output the
# README shows is the output.
sed -n '/<!-- example-output -->/,/<!-- \/example-output -->/p' "$src/README.md" | grep -v '^<!--' |
    grep -v '^```' > "$work/readme_output.txt"
[ -s "$work/readme_output.txt" ] || fail "README.md shows no example output"
diff -u "$work/readme_output.txt" "$work/out.txt" || fail "the output differs from the README's"
echo "ok: runner $runner_m m, visitor $visitor_m m (partial, $visitor_left m short)"
