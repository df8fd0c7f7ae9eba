#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
# The CMake package as a CMake user meets it: the library installed with
# `meson install --destdir` into a staging folder, this folder's CMake
# project configured with CMAKE_PREFIX_PATH pointing into the stage
# (find_package(wayfarer CONFIG REQUIRED), no pkg-config), the README's
# example built against wayfarer::wayfarer and wayfarer::wayfarer_static,
# and both run on the level the README makes: their output must be the one
# the README shows. Also checks that the version file refuses a newer or
# another major version.
#
#     run.sh SOURCE_ROOT BUILD_DIR WORK_DIR CC SANITIZE
# Exit 77 (meson: skipped) without cmake.
set -u
src=$1
build=$2
work=$3
cc=$4
sanitize=$5

fail() {
    echo "FAIL: $*"
    exit 1
}

if ! command -v cmake > /dev/null; then
    echo "SKIP: no cmake"
    exit 77
fi
rm -rf "$work"
mkdir -p "$work"
example=$(sed -n '/<!-- example -->/,/<!-- \/example -->/p' "$src/README.md" | grep -v '^<!--' | grep -v '^```')
[ -n "$example" ] || fail "README.md has no example between <!-- example --> and <!-- /example -->"
printf '%s\n' "$example" > "$work/example.c"

meson install -C "$build" --destdir "$work/stage" --no-rebuild --quiet > "$work/install.log" 2>&1 ||
    { cat "$work/install.log"; fail "meson install --destdir"; }
config=$(find "$work/stage" -name wayfarerConfig.cmake | head -n 1)
[ -n "$config" ] || fail "no wayfarerConfig.cmake in the staged install"
[ -f "$(dirname "$config")/wayfarerConfigVersion.cmake" ] || fail "no wayfarerConfigVersion.cmake"
header=$(find "$work/stage" -path '*/include/wayfarer/wayfarer.h' | head -n 1)
prefix=$(dirname "$(dirname "$(dirname "$header")")")
bindir=$(find "$work/stage" -type d -name bin | head -n 1)
[ -x "$bindir/wayfarer" ] || fail "no installed wayfarer command"

# The compiler meson used, its first word the program and the rest flags;
# a compiler cache in front of it (meson picks ccache up by itself) goes to
# CMake as a launcher, since CMake takes one program as the compiler.
read -r -a cc_words <<< "$cc"
launcher=()
case "$(basename "${cc_words[0]}")" in
    ccache | sccache)
        launcher=(-DCMAKE_C_COMPILER_LAUNCHER="${cc_words[0]}")
        cc_words=("${cc_words[@]:1}") ;;
esac
flags="${cc_words[*]:1}"
if [ "$sanitize" != "none" ] && [ -n "$sanitize" ]; then
    flags="$flags -fsanitize=$sanitize"
fi
cmake -S "$src/tests/cmake_consumer" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF \
    "${launcher[@]}" -DCMAKE_C_COMPILER="${cc_words[0]}" -DCMAKE_C_FLAGS="$flags" -DCMAKE_BUILD_TYPE=Release \
    -DEXAMPLE_SOURCE="$work/example.c" > "$work/cmake.log" 2>&1 ||
    { cat "$work/cmake.log"; fail "cmake could not configure the consumer"; }
grep -q "wayfarer .* from $work/stage" "$work/cmake.log" ||
    { cat "$work/cmake.log"; fail "find_package found a wayfarer outside the stage"; }
cmake --build "$work/cmake-build" > "$work/build.log" 2>&1 ||
    { cat "$work/build.log"; fail "the README example does not build with the CMake package"; }
[ -x "$work/cmake-build/example_static" ] || fail "no wayfarer::wayfarer_static target (default_library=both)"

# The shared one must really be shared, and the static one must not need it.
ldd "$work/cmake-build/example" | grep -q libwayfarer ||
    fail "example is not linked to libwayfarer.so"
if ldd "$work/cmake-build/example_static" | grep -q libwayfarer; then
    fail "example_static needs libwayfarer.so"
fi

"$bindir/wayfarer" demo --export-level "$work/level.obj" > /dev/null || fail "demo --export-level"
"$bindir/wayfarer" build "$work/level.obj" -o "$work/level.wfc" > /dev/null 2>&1 || fail "build"
sed -n '/<!-- example-output -->/,/<!-- \/example-output -->/p' "$src/README.md" | grep -v '^<!--' |
    grep -v '^```' > "$work/readme_output.txt"
[ -s "$work/readme_output.txt" ] || fail "README.md shows no example output"
# No LD_LIBRARY_PATH (meson sets one to the build tree): CMake gives the
# program an RPATH to the staged library.
ldd_stage=$(env -u LD_LIBRARY_PATH ldd "$work/cmake-build/example" | grep libwayfarer)
case "$ldd_stage" in
    *"$work/stage"*) ;;
    *) fail "example does not load the staged libwayfarer: $ldd_stage" ;;
esac
for exe in example example_static; do
    (cd "$work" && env -u LD_LIBRARY_PATH "./cmake-build/$exe" level.wfc > "$exe.txt" 2>&1) || {
        cat "$work/$exe.txt"
        fail "$exe exited with status $?"
    }
    diff -u "$work/readme_output.txt" "$work/$exe.txt" || fail "$exe's output differs from the README's"
done

# The version file: 0.MINOR asks for this minor, a newer or 1.x is refused.
version_dir=$(dirname "$config")
printf 'include("%s/wayfarerConfigVersion.cmake")\nmessage("${PACKAGE_VERSION_COMPATIBLE}")\n' \
    "$version_dir" > "$work/check_version.cmake"
check_version() {
    cmake -DPACKAGE_FIND_VERSION="$1" -DPACKAGE_FIND_VERSION_MAJOR="${1%%.*}" \
        -DPACKAGE_FIND_VERSION_MINOR="$(echo "$1" | cut -d. -f2)" -P "$work/check_version.cmake"
}
ours=$(sed -n 's/^set(PACKAGE_VERSION "\(.*\)")$/\1/p' "$version_dir/wayfarerConfigVersion.cmake")
[ -n "$ours" ] || fail "the version file names no version"
major=${ours%%.*}
minor=$(echo "$ours" | cut -d. -f2)
[ "$(check_version "$ours" 2>&1)" = "TRUE" ] || fail "version $ours refused for itself"
[ "$(check_version "$major.$((minor + 1))" 2>&1)" = "FALSE" ] || fail "a newer minor version accepted"
[ "$(check_version "$((major + 1)).0" 2>&1)" = "FALSE" ] || fail "another major version accepted"
echo "ok: find_package(wayfarer $ours) from the stage; shared and static examples print the README's output"
