/*
 * JSON string literals: the one escaping rule every --json printer, the view's
 * page and the Chrome export share.
 *
 * The output is 7-bit ASCII whatever the input, so it stays the same text in a
 * terminal, a log or a page whose charset is lost:
 *   - quote and backslash are escaped with a backslash;
 *   - control bytes (below 0x20, and 0x7f) are \u00XX;
 *   - a well-formed UTF-8 sequence is its code point, \uXXXX (a surrogate pair
 *     above U+FFFF): a comm or a path "café" reads back as "café";
 *   - every other byte (a stray continuation byte, a cut or overlong sequence, a
 *     surrogate, 0xf5-0xff) is \ufffd, one per byte.
 *
 * Why: JSON text is Unicode (RFC 8259), the kernel's and a tracee's strings are
 * bytes, and nearly always UTF-8.  Taking each byte as Latin-1 (\u00XX, as
 * before) turned every non-ASCII name into other text ("cafÃ©") with no sign of
 * it.  Bytes that are not UTF-8 have no faithful JSON string: as \u00XX they
 * would pass for real characters, and as lone surrogates (\udcXX) strict parsers
 * reject the line.  U+FFFD is what Unicode prescribes for ill-formed input and
 * what browsers, Python, Go and Rust show for it: the reader sees that a byte
 * there was not text, and how many.
 */
#ifndef TRACEKIT_UTIL_JSON_H
#define TRACEKIT_UTIL_JSON_H

#include "util/strbuf.h"

#include <stddef.h>
#include <stdio.h>

/* Where the escaped text goes: n bytes at s, a run at a time. */
typedef void json_sink_fn(void *sink, const char *s, size_t n);

enum json_flags {
	JSON_HTML = 1,	/* also <, > and & as \u00XX: nothing can end an HTML script element */
};

/* The n bytes at s as a JSON string literal, quotes included, through put. */
void json_escape(const char *s, size_t n, unsigned flags, json_sink_fn *put, void *sink);

/* Append s as a JSON string literal. */
void json_str(struct strbuf *sb, const char *s);

/* The same for the n bytes at s (a part of a longer text; a NUL is \u0000). */
void json_strn(struct strbuf *sb, const char *s, size_t n);

/* json_strn with JSON_HTML: for JSON inside a page. */
void json_strn_html(struct strbuf *sb, const char *s, size_t n);

/* The same written to f. */
void json_fputn(FILE *f, const char *s, size_t n);
void json_fputs(FILE *f, const char *s);

#endif
