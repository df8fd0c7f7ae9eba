#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
# Cross-builds LZ4 (the library's one third-party dependency) for 64-bit
# Windows, since Debian has no mingw-w64 package of it: Debian's own source
# package of lz4 (apt-get source, signature and hashes checked by apt, with a
# private apt configuration so the system's sources are left alone), its
# lib/*.c compiled with x86_64-w64-mingw32-gcc into a static liblz4.a, and a
# liblz4.pc beside it. Nothing of LZ4 enters this repository.
#
#     cross/build_lz4.sh PREFIX WORK_DIR
# then: meson setup ... --cross-file cross/x86_64-w64-mingw32.ini \
#           -Dpkg_config_path=PREFIX/lib/pkgconfig
set -euo pipefail
prefix=$(realpath -m "$1")
work=$(realpath -m "$2")
cc=${CROSS_CC:-x86_64-w64-mingw32-gcc}
ar=${CROSS_AR:-x86_64-w64-mingw32-ar}
suite=${LZ4_SUITE:-$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")}

if [ -f "$prefix/lib/pkgconfig/liblz4.pc" ] && [ -f "$prefix/lib/liblz4.a" ]; then
    echo "build_lz4: $prefix already has liblz4"
    exit 0
fi
rm -rf "$work"
mkdir -p "$work/apt/lists/partial" "$work/apt/cache/archives/partial" "$work/src"
echo "deb-src http://deb.debian.org/debian $suite main" > "$work/apt/sources.list"
apt_opts=(-o "Dir::Etc::SourceList=$work/apt/sources.list" -o "Dir::Etc::SourceParts=$work/apt/none"
          -o "Dir::State::Lists=$work/apt/lists" -o "Dir::Cache=$work/apt/cache"
          -o "APT::Sandbox::User=root" -qq)
apt-get "${apt_opts[@]}" update
(cd "$work/src" && apt-get "${apt_opts[@]}" source --download-only lz4)
orig=$(find "$work/src" -maxdepth 1 -name 'lz4_*.orig.tar.*' | head -n 1)
[ -n "$orig" ] || { echo "build_lz4: no lz4 source tarball"; exit 1; }
version=$(basename "$orig" | sed 's/^lz4_\(.*\)\.orig\.tar\..*$/\1/')
tar -xf "$orig" -C "$work/src"
lib=$(find "$work/src" -mindepth 2 -maxdepth 2 -type d -name lib | head -n 1)
[ -f "$lib/lz4.c" ] || { echo "build_lz4: no lib/lz4.c in $orig"; exit 1; }

mkdir -p "$work/obj" "$prefix/lib/pkgconfig" "$prefix/include"
objs=()
for c in lz4.c lz4hc.c lz4frame.c xxhash.c; do
    "$cc" -O2 -c "$lib/$c" -o "$work/obj/${c%.c}.o"
    objs+=("$work/obj/${c%.c}.o")
done
rm -f "$prefix/lib/liblz4.a"
"$ar" rcs "$prefix/lib/liblz4.a" "${objs[@]}"
cp "$lib/lz4.h" "$lib/lz4hc.h" "$lib/lz4frame.h" "$prefix/include/"
cat > "$prefix/lib/pkgconfig/liblz4.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: lz4
Description: LZ4 $version from Debian's source package, cross-built for x86_64-w64-mingw32
Version: $version
Libs: -L\${libdir} -llz4
Cflags: -I\${includedir}
PC
echo "build_lz4: LZ4 $version in $prefix"
