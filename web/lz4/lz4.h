// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The three calls of liblz4 the tile cache's codec makes (tilecache/codec_lz4.c),
// for the WebAssembly build, where no system liblz4 exists: the same LZ4
// block format, so cache files move freely between native and web builds.
// The compressor is a plain greedy one (its bytes may differ from liblz4's;
// any LZ4 decoder reads them); the decoder checks every bound.
#ifndef WF_WEB_LZ4_H
#define WF_WEB_LZ4_H

#define LZ4_MAX_INPUT_SIZE 0x7E000000

/// Worst-case compressed size of isize bytes (0 when isize is out of range).
int LZ4_compressBound(int isize);
/// Compresses one block; returns its size, or 0 when dst_capacity is too small.
int LZ4_compress_default(const char* src, char* dst, int src_size, int dst_capacity);
/// Decodes one block; returns the bytes written, or a negative number for a
/// damaged block or one that does not fit dst_capacity.
int LZ4_decompress_safe(const char* src, char* dst, int compressed_size, int dst_capacity);

#endif
