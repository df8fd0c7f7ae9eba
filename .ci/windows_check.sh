#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
# Checks a mingw-w64 cross build (.ci/run, step 3c) without running it: the
# staged install holds the DLL, its import library, the static library and
# the CMake package; the DLL exports the public API and nothing else (not
# LZ4) and needs only system DLLs; and tests/cmake_consumer cross-builds the
# README example with CMake against wayfarer::wayfarer and
# wayfarer::wayfarer_static.
#
#     windows_check.sh BUILD_DIR LZ4_PREFIX
set -euo pipefail
build=$(realpath "$1")
lz4=$(realpath "$2")
src=$(realpath "$(dirname "$0")/..")
work="$build/windows-check"
objdump=${CROSS_OBJDUMP:-x86_64-w64-mingw32-objdump}
fail() {
    echo "windows_check: $*"
    exit 1
}

rm -rf "$work"
mkdir -p "$work"
meson install -C "$build" --destdir "$work/stage" --no-rebuild --quiet > "$work/install.log" 2>&1 ||
    { cat "$work/install.log"; fail "meson install --destdir"; }
dll=$(find "$work/stage" -name 'libwayfarer-*.dll' | head -n 1)
[ -n "$dll" ] || fail "no libwayfarer-N.dll in the stage"
prefix=$(dirname "$(dirname "$dll")")
for f in lib/libwayfarer.dll.a lib/libwayfarer.a lib/cmake/wayfarer/wayfarerConfig.cmake \
        lib/pkgconfig/wayfarer.pc include/wayfarer/wayfarer.h bin/wayfarer.exe; do
    [ -f "$prefix/$f" ] || fail "no $f in the stage"
done

"$objdump" -p "$dll" > "$work/dll.txt"
exports=$(sed -n '/\[Ordinal\/Name Pointer\] Table/,/^$/p' "$work/dll.txt" | sed -n 's/^\t\[ *[0-9]*\] \([A-Za-z_][A-Za-z0-9_]*\)$/\1/p')
grep -qx wf_world_create <<< "$exports" || fail "the DLL does not export wf_world_create"
others=$(echo "$exports" | grep -v '^wf_' || true)
[ -z "$others" ] || fail "the DLL exports more than wf_*: $(echo "$others" | head -n 5 | tr '\n' ' ')"
api=$(grep -ho 'WF_API [^(]*[ *]wf_[a-z0-9_]*(' "$src"/include/wayfarer/*.h | grep -o 'wf_[a-z0-9_]*(' | tr -d '(' | sort -u)
missing=$(comm -23 <(echo "$api") <(echo "$exports" | sort -u))
[ -z "$missing" ] || fail "WF_API functions not exported: $(echo "$missing" | head -n 5 | tr '\n' ' ')"
for exe in "$dll" "$prefix/bin/wayfarer.exe"; do
    deps=$("$objdump" -p "$exe" | sed -n 's/^\tDLL Name: //p' | grep -vix 'kernel32.dll\|msvcrt.dll\|ucrtbase.dll\|api-ms-win-crt-.*\.dll\|libwayfarer-[0-9]*\.dll' || true)
    [ -z "$deps" ] || fail "$(basename "$exe") needs non-system DLLs: $deps"
done

# A CMake user cross-building the README example (not run: no Windows here).
sed -n '/<!-- example -->/,/<!-- \/example -->/p' "$src/README.md" | grep -v '^<!--' | grep -v '^```' > "$work/example.c"
PKG_CONFIG_LIBDIR="$lz4/lib/pkgconfig" cmake -S "$src/tests/cmake_consumer" -B "$work/cmake-build" \
    -DCMAKE_SYSTEM_NAME=Windows -DCMAKE_C_COMPILER=x86_64-w64-mingw32-gcc \
    -DCMAKE_FIND_ROOT_PATH="$prefix;$lz4" -DCMAKE_FIND_ROOT_PATH_MODE_PROGRAM=NEVER \
    -DCMAKE_FIND_ROOT_PATH_MODE_PACKAGE=ONLY -DCMAKE_FIND_ROOT_PATH_MODE_INCLUDE=ONLY \
    -DCMAKE_FIND_ROOT_PATH_MODE_LIBRARY=ONLY -DCMAKE_PREFIX_PATH=/ \
    -DEXAMPLE_SOURCE="$work/example.c" > "$work/cmake.log" 2>&1 ||
    { cat "$work/cmake.log"; fail "cmake could not configure the cross consumer"; }
cmake --build "$work/cmake-build" > "$work/cmake-build.log" 2>&1 ||
    { cat "$work/cmake-build.log"; fail "the README example does not cross-build with the CMake package"; }
for exe in example.exe example_static.exe; do
    [ -f "$work/cmake-build/$exe" ] || fail "no $exe"
done
# (Whole outputs into variables: grep -q would close the pipe under pipefail.)
shared_imports=$("$objdump" -p "$work/cmake-build/example.exe")
static_imports=$("$objdump" -p "$work/cmake-build/example_static.exe")
grep -q 'DLL Name: libwayfarer-' <<< "$shared_imports" ||
    fail "example.exe does not import libwayfarer's DLL"
if grep -q 'DLL Name: libwayfarer-' <<< "$static_imports"; then
    fail "example_static.exe imports libwayfarer's DLL"
fi
echo "windows_check: $(echo "$exports" | wc -l) exports, system DLLs only, CMake consumer cross-built"
