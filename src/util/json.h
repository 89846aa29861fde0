/*
 * JSON string literals: the one escaping rule every --json printer shares
 * (quote, backslash, control and non-ASCII bytes as \u00XX).
 */
#ifndef TRACEKIT_UTIL_JSON_H
#define TRACEKIT_UTIL_JSON_H

#include "util/strbuf.h"

#include <stddef.h>

/* Append s as a JSON string literal. */
void json_str(struct strbuf *sb, const char *s);

/* The same for the n bytes at s (a part of a longer text). */
void json_strn(struct strbuf *sb, const char *s, size_t n);

#endif
