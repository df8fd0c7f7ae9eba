// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Words of a line in the tool's small text formats (the link file, the
// area file): blank-separated, numbers checked whole.
#ifndef WF_TOOLS_TEXT_WORDS_H
#define WF_TOOLS_TEXT_WORDS_H

#include <stdbool.h>
#include <stddef.h>

/// The next line at *p before text_end, without its `#` comment: sets
/// [*start, *end) and advances *p past the newline; false at the end.
bool text_line_next(const char** p, const char* text_end, const char** start, const char** end);
/// The next word at *p before end (skipping blanks and CR); *len 0 at the
/// end of the line. Advances *p past it.
const char* text_word_next(const char** p, const char* end, size_t* len);
/// True when the word is exactly s.
bool text_word_is(const char* w, size_t len, const char* s);
/// A finite float within +-1e30 (the tile cache's coordinates are far
/// inside), nothing after it.
bool text_word_float(const char* w, size_t len, float* out);
/// An unsigned integer at most max: decimal, or hex after 0x (flags read
/// better as bits); never octal, never signed.
bool text_word_uint(const char* w, size_t len, unsigned long max, unsigned long* out);

#endif
