/* strbuf: growable text; see strbuf.h.  Allocation failure is fatal. */
#include "strbuf.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "die.h"

void sb_grow(struct strbuf *sb, size_t extra)
{
	if (sb->len + extra + 1 <= sb->cap)
		return;
	size_t cap = sb->cap ? sb->cap : 64;
	while (cap < sb->len + extra + 1)
		cap *= 2;
	sb->buf = xrealloc(sb->buf, cap);
	sb->cap = cap;
	sb->buf[sb->len] = '\0';
}

void sb_addn(struct strbuf *sb, const char *s, size_t n)
{
	sb_grow(sb, n);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_add(struct strbuf *sb, const char *s)
{
	sb_addn(sb, s, strlen(s));
}

/* A conversion the fast path takes: [-0][width][hh|h|l|ll|z|j]{d,i,u,x,s,c}. */
struct conv {
	bool left, zero;
	int width;
	int len;		/* 0, 'H' hh, 'h', 'l', 'L' ll, 'z', 'j' */
	char type;
};

/* Parse one at p (after the '%'); the end of it, or NULL for anything else. */
static const char *parse_conv(const char *p, struct conv *c)
{
	*c = (struct conv){ 0 };
	for (;; p++) {
		if (*p == '-')
			c->left = true;
		else if (*p == '0')
			c->zero = true;
		else
			break;
	}
	while (*p >= '0' && *p <= '9') {
		c->width = c->width * 10 + (*p++ - '0');
		if (c->width > 4096)
			return NULL;
	}
	if (*p == 'h')
		c->len = *++p == 'h' ? (p++, 'H') : 'h';
	else if (*p == 'l')
		c->len = *++p == 'l' ? (p++, 'L') : 'l';
	else if (*p == 'z' || *p == 'j')
		c->len = *p++;
	c->type = *p;
	if (!c->type || !strchr("diuxsc", c->type) ||
	    ((c->zero || c->len) && (c->type == 's' || c->type == 'c')))
		return NULL;
	return p + 1;
}

static void pad(struct strbuf *sb, char with, int n)
{
	for (; n > 0; n--)
		sb_addc(sb, with);
}

/* text[n] under c's width: spaces or zeros (after a sign) before, or spaces after. */
static void put_padded(struct strbuf *sb, const struct conv *c, const char *text, int n)
{
	int fill = c->width - n;
	if (c->left) {
		sb_addn(sb, text, (size_t)n);
		pad(sb, ' ', fill);
	} else if (c->zero) {	/* numbers only: parse_conv refuses 0 with %s and %c */
		int sign = text[0] == '-';
		sb_addn(sb, text, (size_t)sign);
		pad(sb, '0', fill);
		sb_addn(sb, text + sign, (size_t)(n - sign));
	} else {
		pad(sb, ' ', fill);
		sb_addn(sb, text, (size_t)n);
	}
}

static void put_int(struct strbuf *sb, const struct conv *c, va_list *ap)
{
	char tmp[24], *end = tmp + sizeof(tmp), *q = end;
	unsigned long long u;
	bool neg = false;
	if (c->type == 'd' || c->type == 'i') {
		long long v;
		switch (c->len) {
		case 'H': v = (signed char)va_arg(*ap, int); break;
		case 'h': v = (short)va_arg(*ap, int); break;
		case 'l': v = va_arg(*ap, long); break;
		case 'L': v = va_arg(*ap, long long); break;
		case 'z': v = va_arg(*ap, ssize_t); break;
		case 'j': v = va_arg(*ap, intmax_t); break;
		default: v = va_arg(*ap, int); break;
		}
		neg = v < 0;
		u = neg ? 0ull - (unsigned long long)v : (unsigned long long)v;
	} else {
		switch (c->len) {
		case 'H': u = (unsigned char)va_arg(*ap, unsigned); break;
		case 'h': u = (unsigned short)va_arg(*ap, unsigned); break;
		case 'l': u = va_arg(*ap, unsigned long); break;
		case 'L': u = va_arg(*ap, unsigned long long); break;
		case 'z': u = va_arg(*ap, size_t); break;
		case 'j': u = va_arg(*ap, uintmax_t); break;
		default: u = va_arg(*ap, unsigned); break;
		}
	}
	if (c->type == 'x') {
		do
			*--q = "0123456789abcdef"[u & 15];
		while (u >>= 4);
	} else {
		do
			*--q = (char)('0' + u % 10);
		while (u /= 10);
	}
	if (neg)
		*--q = '-';
	put_padded(sb, c, q, (int)(end - q));
}

/*
 * The formats printers use on every line (%d, %-5d, %lu, %s, %#x aside)
 * without vsnprintf, whose setup costs more than the digits: false, with sb
 * as it was, for any format with something else, which vsnprintf then does.
 * tests/unit/test_strbuf.c checks it against snprintf.
 */
static bool fast_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
	size_t start = sb->len;
	va_list aq;
	va_copy(aq, ap);
	for (const char *p = fmt; *p;) {
		const char *pct = strchr(p, '%');
		if (!pct) {
			sb_add(sb, p);
			break;
		}
		sb_addn(sb, p, (size_t)(pct - p));
		if (pct[1] == '%') {
			sb_addc(sb, '%');
			p = pct + 2;
			continue;
		}
		struct conv c;
		p = parse_conv(pct + 1, &c);
		if (!p) {
			va_end(aq);
			sb_truncate(sb, start);
			return false;
		}
		if (c.type == 's') {
			const char *str = va_arg(aq, const char *);
			if (!str)
				str = "(null)";
			put_padded(sb, &c, str, (int)strlen(str));
		} else if (c.type == 'c') {
			char ch = (char)va_arg(aq, int);
			put_padded(sb, &c, &ch, 1);
		} else {
			put_int(sb, &c, &aq);
		}
	}
	va_end(aq);
	return true;
}

void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
	if (fast_vprintf(sb, fmt, ap))
		return;
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(sb->buf ? sb->buf + sb->len : NULL, sb->buf ? sb->cap - sb->len : 0, fmt, ap2);
	va_end(ap2);
	if (n < 0) {
		if (sb->buf)
			sb->buf[sb->len] = '\0';	/* what it may have written is not ours */
		return;
	}
	if (sb->len + (size_t)n + 1 > sb->cap) {
		sb_grow(sb, (size_t)n);
		vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(sb, fmt, ap);
	va_end(ap);
}

void sb_reset(struct strbuf *sb)
{
	sb_truncate(sb, 0);
}

void sb_truncate(struct strbuf *sb, size_t len)
{
	if (len < sb->len) {
		sb->len = len;
		sb->buf[len] = '\0';
	}
}

void sb_free(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}
