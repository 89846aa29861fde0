/*
 * tracekit view's engine: the JSON string escaping that keeps trace strings from
 * becoming markup, and whole pages written from trace-cmd-made fixtures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/view.h"
#include "tk_test.h"
#include "util/strbuf.h"

static const char *fixtures;

static char *escaped(const char *s, size_t n)
{
	static struct strbuf sb;

	sb_reset(&sb);
	vw_json_str(&sb, s, n);
	return sb.buf;
}

static void test_markup_becomes_escapes(void)
{
	const char *xss = "</script><script>alert(1)</script>";

	CHECK_STR(escaped(xss, strlen(xss)),
		  "\"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e\"");
	CHECK_STR(escaped("a&b", 3), "\"a\\u0026b\"");
}

static void test_quotes_backslashes_controls(void)
{
	CHECK_STR(escaped("say \"hi\"\\", 9), "\"say \\\"hi\\\"\\\\\"");
	CHECK_STR(escaped("a\nb\t\x01", 5), "\"a\\u000ab\\u0009\\u0001\"");
	CHECK_STR(escaped("", 0), "\"\"");
}

/* Bytes past ASCII (a comm is bytes, not UTF-8) are Latin-1 escapes: always valid JSON. */
static void test_bytes_past_ascii(void)
{
	CHECK_STR(escaped("\xc3\xa9\xff\x7f", 4), "\"\\u00c3\\u00a9\\u00ff\\u007f\"");
}

/* The length given, not the NUL: fields are fixed-size arrays. */
static void test_length_not_nul(void)
{
	CHECK_STR(escaped("abc\0def", 7), "\"abc\\u0000def\"");
	CHECK_STR(escaped("abcdef", 2), "\"ab\"");
}

static char *page_of(const char *name, long max_events, int *rc)
{
	char path[4096], err[1024], *buf = NULL;
	size_t len = 0;
	struct vw_options o = { .input = path, .max_events = max_events };

	snprintf(path, sizeof(path), "%s/%s", fixtures, name);
	FILE *f = open_memstream(&buf, &len);
	*rc = vw_write_html(&o, f, err, sizeof(err));
	fclose(f);
	if (*rc < 0)
		fprintf(stderr, "%s: %s\n", name, err);
	return buf;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* Each fixture gives a page with exactly its own two script elements and all its events. */
static void test_fixture_pages(void)
{
	static const char *const names[] = { "tracecmd-v6.dat", "tracecmd-v7.dat",
		"tracecmd-mixed-v6.dat", "tracecmd-mixed-v7zstd.dat" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int rc;
		char *page = page_of(names[i], VW_DEFAULT_MAX_EVENTS, &rc);
		CHECK_INT(rc, 0);
		CHECK_INT(count(page, "<script"), 2);
		CHECK_INT(count(page, "</script"), 2);
		CHECK(strstr(page, "\"kept\":") != NULL);
		/* total == kept below the cap */
		const char *t = strstr(page, "\"total\":"), *k = strstr(page, "\"kept\":");
		CHECK(t && k && atol(t + 8) == atol(k + 7) && atol(t + 8) > 0);
		free(page);
	}
}

/* Past the cap: that many events kept, the total still counted. */
static void test_event_cap(void)
{
	int rc;
	char *page = page_of("tracecmd-v7.dat", 5, &rc);
	const char *t = strstr(page, "\"total\":"), *k = strstr(page, "\"kept\":");

	CHECK_INT(rc, 0);
	CHECK(t && atol(t + 8) > 5);
	CHECK(k && atol(k + 7) == 5);
	free(page);
}

static void test_missing_file_is_an_error(void)
{
	int rc;
	char *page = page_of("no-such-file.dat", 10, &rc);

	CHECK_INT(rc, -1);
	free(page);
}

int main(int argc, char **argv)
{
	static const struct tk_case cases[] = {
		TK_CASE(test_markup_becomes_escapes), TK_CASE(test_quotes_backslashes_controls),
		TK_CASE(test_bytes_past_ascii), TK_CASE(test_length_not_nul),
		TK_CASE(test_fixture_pages), TK_CASE(test_event_cap),
		TK_CASE(test_missing_file_is_an_error),
	};

	fixtures = argc > 1 ? argv[1] : "tests/fixtures";
	int rc = tk_run(cases, sizeof(cases) / sizeof(cases[0]));
	return rc;
}
