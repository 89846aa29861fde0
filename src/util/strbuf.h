/*
 * strbuf: a growable, always NUL-terminated text buffer.  Every printer in
 * tracekit builds its line here first, so a line is written out whole (one
 * write per line keeps -f output from different threads from tearing).
 */
#ifndef TRACEKIT_UTIL_STRBUF_H
#define TRACEKIT_UTIL_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
};

#define STRBUF_INIT { NULL, 0, 0 }

void sb_grow(struct strbuf *sb, size_t extra);
void sb_add(struct strbuf *sb, const char *s);
void sb_addn(struct strbuf *sb, const char *s, size_t n);
/* Inline: printers add one character at a time on every line. */
static inline void sb_addc(struct strbuf *sb, char c)
{
	if (sb->len + 2 > sb->cap)
		sb_grow(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}
void sb_printf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap);
void sb_reset(struct strbuf *sb);
void sb_truncate(struct strbuf *sb, size_t len);
void sb_free(struct strbuf *sb);
/* The text, "" for a buffer never written. */
static inline const char *sb_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

#endif
