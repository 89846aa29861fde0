/* JSON string literals; see json.h for the rule and why. */
#include "util/json.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/*
 * The length of the well-formed UTF-8 sequence at s (2 to 4 bytes, the
 * Unicode standard's table 3-7: no overlong form, no surrogate, nothing past
 * U+10FFFF) and its code point in *cp; 0 when s does not start one.
 */
static size_t utf8_seq(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		*cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		*cp = s[0] & 0x0f;
		if (s[0] == 0xe0)
			lo = 0xa0;	/* below: overlong */
		else if (s[0] == 0xed)
			hi = 0x9f;	/* above: surrogates */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		*cp = s[0] & 0x07;
		if (s[0] == 0xf0)
			lo = 0x90;	/* below: overlong */
		else if (s[0] == 0xf4)
			hi = 0x8f;	/* above: past U+10FFFF */
	} else {
		return 0;
	}
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if (i > 1 && (s[i] < 0x80 || s[i] > 0xbf))
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	return len;
}

static void put_u(json_sink_fn *put, void *sink, uint32_t u)
{
	static const char hex[] = "0123456789abcdef";
	char esc[6] = { '\\', 'u', hex[u >> 12 & 15], hex[u >> 8 & 15], hex[u >> 4 & 15], hex[u & 15] };

	put(sink, esc, sizeof(esc));
}

void json_escape(const char *s, size_t n, unsigned flags, json_sink_fn *put, void *sink)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t run = 0;	/* start of the bytes that go out as they are */

	put(sink, "\"", 1);
	for (size_t i = 0; i < n;) {
		unsigned char ch = p[i];
		bool markup = (flags & JSON_HTML) && (ch == '<' || ch == '>' || ch == '&');
		if (ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\' && !markup) {
			i++;
			continue;
		}
		if (run < i)
			put(sink, s + run, i - run);
		if (ch == '"' || ch == '\\') {
			char esc[2] = { '\\', (char)ch };
			put(sink, esc, 2);
			i++;
		} else if (ch < 0x80) {
			put_u(put, sink, ch);
			i++;
		} else {
			uint32_t cp;
			size_t len = utf8_seq(p + i, n - i, &cp);
			if (!len) {
				put_u(put, sink, 0xfffd);
				i++;
			} else if (cp > 0xffff) {
				cp -= 0x10000;
				put_u(put, sink, 0xd800 | cp >> 10);
				put_u(put, sink, 0xdc00 | (cp & 0x3ff));
				i += len;
			} else {
				put_u(put, sink, cp);
				i += len;
			}
		}
		run = i;
	}
	if (run < n)
		put(sink, s + run, n - run);
	put(sink, "\"", 1);
}

static void put_strbuf(void *sink, const char *s, size_t n)
{
	sb_addn(sink, s, n);
}

static void put_file(void *sink, const char *s, size_t n)
{
	fwrite(s, 1, n, sink);
}

void json_str(struct strbuf *sb, const char *s)
{
	json_strn(sb, s, strlen(s));
}

void json_strn(struct strbuf *sb, const char *s, size_t n)
{
	json_escape(s, n, 0, put_strbuf, sb);
}

void json_strn_html(struct strbuf *sb, const char *s, size_t n)
{
	json_escape(s, n, JSON_HTML, put_strbuf, sb);
}

void json_fputn(FILE *f, const char *s, size_t n)
{
	json_escape(s, n, 0, put_file, f);
}

void json_fputs(FILE *f, const char *s)
{
	json_fputn(f, s, strlen(s));
}
