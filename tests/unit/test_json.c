/*
 * util/json.c, the JSON string escaper every --json printer, the view and the
 * Chrome export share: ASCII out, UTF-8 read as text, other bytes U+FFFD.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tk_test.h"
#include "util/json.h"
#include "util/strbuf.h"

static char *esc(const char *s, size_t n)
{
	static struct strbuf sb;

	sb_reset(&sb);
	json_strn(&sb, s, n);
	return sb.buf;
}

#define ESC(lit) esc(lit, sizeof(lit) - 1)

static void test_ascii_as_is(void)
{
	CHECK_STR(ESC(""), "\"\"");
	CHECK_STR(ESC("sleep 0.1 <a&b>"), "\"sleep 0.1 <a&b>\"");
}

static void test_quotes_backslashes_controls(void)
{
	CHECK_STR(ESC("say \"hi\"\\"), "\"say \\\"hi\\\"\\\\\"");
	CHECK_STR(ESC("a\nb\t\x01\x1f"), "\"a\\u000ab\\u0009\\u0001\\u001f\"");
	CHECK_STR(ESC("del\x7f"), "\"del\\u007f\"");
}

/* The length given, not the NUL: a part of a longer text may hold one. */
static void test_length_not_nul(void)
{
	CHECK_STR(esc("abc\0def", 7), "\"abc\\u0000def\"");
	CHECK_STR(esc("abcdef", 2), "\"ab\"");
}

/* Well-formed UTF-8 is the text it spells, one \u escape per code point. */
static void test_utf8_is_text(void)
{
	CHECK_STR(ESC("caf\xc3\xa9"), "\"caf\\u00e9\"");			/* U+00E9 */
	CHECK_STR(ESC("\xc2\x80\xdf\xbf"), "\"\\u0080\\u07ff\"");		/* 2-byte ends */
	CHECK_STR(ESC("\xe2\x82\xac\xef\xbf\xbf"), "\"\\u20ac\\uffff\"");	/* 3-byte */
	CHECK_STR(ESC("\xe0\xa0\x80\xed\x9f\xbf"), "\"\\u0800\\ud7ff\"");	/* its edges */
	/* Past U+FFFF: a surrogate pair, as JSON writes it. */
	CHECK_STR(ESC("\xf0\x9f\x98\x80"), "\"\\ud83d\\ude00\"");		/* U+1F600 */
	CHECK_STR(ESC("\xf0\x90\x80\x80\xf4\x8f\xbf\xbf"), "\"\\ud800\\udc00\\udbff\\udfff\"");
}

/* Each byte that is not part of a well-formed sequence is one U+FFFD. */
static void test_invalid_utf8_is_replacement(void)
{
	CHECK_STR(ESC("\xff"), "\"\\ufffd\"");
	CHECK_STR(ESC("a\x80z"), "\"a\\ufffdz\"");			/* lone continuation */
	CHECK_STR(ESC("\xc3("), "\"\\ufffd(\"");				/* cut before ASCII */
	CHECK_STR(ESC("x\xc3"), "\"x\\ufffd\"");				/* cut at the end */
	CHECK_STR(ESC("\xe2\x82"), "\"\\ufffd\\ufffd\"");		/* cut 3-byte */
	CHECK_STR(ESC("\xc0\xaf"), "\"\\ufffd\\ufffd\"");		/* overlong '/' */
	CHECK_STR(ESC("\xe0\x80\xaf"), "\"\\ufffd\\ufffd\\ufffd\"");	/* overlong, 3 bytes */
	CHECK_STR(ESC("\xf0\x80\x80\xaf"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	CHECK_STR(ESC("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");	/* a surrogate, U+D800 */
	CHECK_STR(ESC("\xf4\x90\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");	/* past U+10FFFF */
	CHECK_STR(ESC("\xf5\xfe"), "\"\\ufffd\\ufffd\"");
	/* A bad byte does not swallow the good text after it. */
	CHECK_STR(ESC("\xff\xc3\xa9\xe2\x82\xac"), "\"\\ufffd\\u00e9\\u20ac\"");
}

/* Whatever the input, the output is printable ASCII: never invalid UTF-8. */
static void test_every_byte_gives_ascii(void)
{
	char all[512];

	for (int i = 0; i < 256; i++) {
		all[2 * i] = (char)i;
		all[2 * i + 1] = (char)(255 - i);
	}
	const char *out = esc(all, sizeof(all));
	for (const char *p = out; *p; p++)
		CHECK(*p >= 0x20 && *p < 0x7f);
}

static void test_html_flag(void)
{
	struct strbuf sb = STRBUF_INIT;

	json_strn_html(&sb, "</script>&caf\xc3\xa9", 15);
	CHECK_STR(sb_str(&sb), "\"\\u003c/script\\u003e\\u0026caf\\u00e9\"");
	sb_free(&sb);
}

/* The FILE writer gives the same bytes. */
static void test_file_writer(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	json_fputs(f, "a\"\xc3\xa9\xff");
	json_fputn(f, "b\0c", 3);
	fclose(f);
	CHECK_STR(buf, "\"a\\\"\\u00e9\\ufffd\"\"b\\u0000c\"");
	free(buf);
}

int main(void)
{
	static const struct tk_case cases[] = {
		TK_CASE(test_ascii_as_is), TK_CASE(test_quotes_backslashes_controls),
		TK_CASE(test_length_not_nul), TK_CASE(test_utf8_is_text),
		TK_CASE(test_invalid_utf8_is_replacement), TK_CASE(test_every_byte_gives_ascii),
		TK_CASE(test_html_flag), TK_CASE(test_file_writer),
	};
	return tk_run(cases, sizeof(cases) / sizeof(cases[0]));
}
