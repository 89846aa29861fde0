/*
 * tracekit view's engine: the JSON string escaping that keeps trace strings from
 * becoming markup (util/json.c's JSON_HTML; test_json.c has the rest of the rule),
 * and whole pages written from trace-cmd-made fixtures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/view.h"
#include "export/view_lod.h"
#include "tk_test.h"
#include "util/json.h"
#include "util/strbuf.h"

static const char *fixtures;

static char *escaped(const char *s, size_t n)
{
	static struct strbuf sb;

	sb_reset(&sb);
	json_strn_html(&sb, s, n);
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

/* The levels' JSON, for the checks below. */
static char *lod_json(struct vw_lod *l)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	vw_lod_write(l, f);
	fclose(f);
	return text;
}

/* A bin's task is the one that ran most of it, though another ran last and first. */
static void test_lod_bin_task_and_busy(void)
{
	struct vw_lod l;

	vw_lod_init(&l, 2, 5000);
	vw_lod_cpu(&l, 0, 5000, 5200, 11);	/* bin 0: 11 200 ns, 22 300, 11 300 */
	vw_lod_cpu(&l, 0, 5200, 5500, 22);
	vw_lod_cpu(&l, 0, 5500, 5800, 11);
	vw_lod_cpu(&l, 0, 5900, 6700, 22);	/* 100 in bin 0, all 700 of bin 1's */
	vw_lod_cpu(&l, 1, 4000, 5250, 33);	/* clipped to the levels' start */
	CHECK(vw_lod_task(&l, 11, 1, 5000, 5600));
	CHECK(vw_lod_task(&l, 11, 3, 5600, 6000));
	char *j = lod_json(&l);
	CHECK(strstr(j, "{\"from\":5000,\"levels\":[\n{\"bin\":1000,\"n\":2,") == j);
	CHECK(strstr(j, "{\"busy\":[900,700],\"task\":[11,22]}") != NULL);
	CHECK(strstr(j, "{\"busy\":[250,0],\"task\":[33,0]}") != NULL);
	/* 600 ns running, 400 sleeping: 5 and 4 ninths (rounded) as digits. */
	CHECK(strstr(j, "\"11\":[5040,0]") != NULL);
	/* The next level: one bin of 8000 ns, 22 ran most (1100 ns against 500). */
	CHECK(strstr(j, "{\"bin\":8000,\"n\":1,\"cpus\":[{\"busy\":[200],\"task\":[22]}") != NULL);
	free(j);
	vw_lod_free(&l);
}

/* A trace past the finest bins widens them: the busy time and the tasks stay. */
static void test_lod_widens(void)
{
	struct vw_lod l;

	vw_lod_init(&l, 1, 0);
	long n = l.nbins;
	vw_lod_cpu(&l, 0, 0, 600, 7);
	vw_lod_cpu(&l, 0, 1000, 1300, 8);
	vw_lod_cpu(&l, 0, 1300, 1400, 7);
	vw_lod_cpu(&l, 0, (uint64_t)n * 1000, (uint64_t)n * 1000 + 10, 9);
	CHECK_INT(l.bin_ns, 2000);
	CHECK_INT(l.cpu[0].busy[0], 1000);
	CHECK_INT(l.cpu[0].top[0], 7);
	CHECK_INT(l.cpu[0].top_ns[0], 600);
	CHECK_INT(l.cpu[0].busy[n / 2], 10);
	free(lod_json(&l));	/* closes the bin being filled */
	CHECK_INT(l.cpu[0].top[n / 2], 9);
	vw_lod_free(&l);
}

/* The budget: 2^16 bins a lane, fewer past 32 CPUs (2^21 CPU cells), 16 task lanes. */
static void test_lod_budget(void)
{
	struct vw_lod l;

	CHECK_INT(vw_lod_bins(2), 1 << 16);
	CHECK_INT(vw_lod_bins(64), 1 << 15);
	CHECK_INT(vw_lod_bins(8192), 1024);
	vw_lod_init(&l, 1, 0);
	for (int pid = 1; pid <= LOD_TASKS; pid++)
		CHECK(vw_lod_task(&l, pid, 2, 0, 10));
	CHECK(!vw_lod_task(&l, LOD_TASKS + 1, 2, 0, 10));
	vw_lod_free(&l);
}

int main(int argc, char **argv)
{
	static const struct tk_case cases[] = {
		TK_CASE(test_markup_becomes_escapes), TK_CASE(test_quotes_backslashes_controls),
		TK_CASE(test_fixture_pages), TK_CASE(test_event_cap),
		TK_CASE(test_missing_file_is_an_error), TK_CASE(test_lod_bin_task_and_busy),
		TK_CASE(test_lod_widens), TK_CASE(test_lod_budget),
	};

	fixtures = argc > 1 ? argv[1] : "tests/fixtures";
	int rc = tk_run(cases, sizeof(cases) / sizeof(cases[0]));
	return rc;
}
