/*
 * The syzkaller development set (tests/fixtures/syzkaller): every report
 * syzkaller's own tests parse, each with the title syzkaller gives it.  The
 * whole set is replayed through the parser and four figures are printed:
 *
 *   guilty  the function our title names equals the one syzkaller's names,
 *           on the uncorrupted reports whose title names a function (>= 95%)
 *   title   our title equals syzkaller's, on the uncorrupted reports (>= 90%)
 *   panic   PANICKED reports whose first report has verdict "panic" (all)
 *   found   titled reports in which a report was found at all (all)
 *
 * Usage: test-oops-syzkaller DIR [-v]; -v lists every miss.  Exits 1 below a
 * target.  A file without a TITLE is a log syzkaller finds no report in; it
 * counts for information only (we may well find a warning syzkaller ignores),
 * as do the titles of the reports syzkaller marks corrupted.
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oops/oops.h"
#include "util/strbuf.h"

struct expect {
	char title[512];
	bool corrupted, panicked;
	const char *log;	/* after the header's blank line */
};

struct tally {
	int guilty_ok, guilty_n, title_ok, title_n, panic_ok, panic_n, found_ok, found_n;
	int corrupt_ok, corrupt_n, none_ok, none_n;	/* for information, no target */
};

static bool verbose;

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sb_addn(&sb, buf, n);
	fclose(f);
	*len = sb.len;
	char *s = strdup(sb_str(&sb));
	sb_free(&sb);
	return s;
}

/* Header lines "KEY: value" up to the first blank line. */
static void read_header(char *text, struct expect *e)
{
	memset(e, 0, sizeof(*e));
	char *p = text;
	while (*p && *p != '\n') {
		char *eol = strchr(p, '\n');
		size_t n = eol ? (size_t)(eol - p) : strlen(p);
		if (!strncmp(p, "TITLE: ", 7))
			snprintf(e->title, sizeof(e->title), "%.*s", (int)(n - 7), p + 7);
		else if (!strncmp(p, "CORRUPTED: Y", 12))
			e->corrupted = true;
		else if (!strncmp(p, "PANICKED: Y", 11))
			e->panicked = true;
		p = eol ? eol + 1 : p + n;
	}
	e->log = *p ? p + 1 : p;
}

/* The function a title names: the word after its last " in " ("a / b": a). */
static bool title_function(const char *title, char *out, size_t outsz)
{
	const char *in = NULL;
	for (const char *p = strstr(title, " in "); p; p = strstr(p + 1, " in "))
		in = p;
	if (!in)
		return false;
	in += 4;
	size_t n = strcspn(in, " /");
	if (!n || !strcmp(in, "corrupted"))
		return false;
	snprintf(out, outsz, "%.*s", (int)n, in);
	return true;
}

static void miss(const char *file, const char *what, const char *got, const char *want)
{
	if (verbose)
		printf("  %-4s %-7s got: %s\n              want: %s\n", file, what, got ? got : "(none)",
		       want);
}

static void check_file(const char *dir, const char *name, struct tally *t)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	size_t len;
	char *text = slurp(path, &len);
	if (!text)
		return;
	struct expect e;
	read_header(text, &e);
	struct oops_lines ls = { 0 };
	struct oops_reports rs;
	oops_lines_from_text(&ls, e.log, strlen(e.log));
	oops_parse(&rs, &ls);
	const struct oops_report *r = rs.n ? &rs.v[0] : NULL;
	if (!e.title[0]) {
		t->none_n++;
		t->none_ok += r == NULL;
		goto out;
	}
	if (e.corrupted) {
		t->corrupt_n++;
		t->corrupt_ok += r && r->title && !strcmp(r->title, e.title);
	}

	t->found_n++;
	t->found_ok += r != NULL;
	if (!r)
		miss(name, "found", NULL, e.title);
	if (e.panicked) {
		bool ok = r && r->verdict && !strcmp(r->verdict, "panic");
		t->panic_n++;
		t->panic_ok += ok;
		if (!ok)
			miss(name, "panic", r ? r->verdict : NULL, "panic");
	}
	if (!e.corrupted) {
		bool ok = r && r->title && !strcmp(r->title, e.title);
		t->title_n++;
		t->title_ok += ok;
		if (!ok)
			miss(name, "title", r ? r->title : NULL, e.title);
		char want[256], got[256];
		if (title_function(e.title, want, sizeof(want))) {
			ok = r && r->title && title_function(r->title, got, sizeof(got)) &&
			     !strcmp(got, want);
			t->guilty_n++;
			t->guilty_ok += ok;
			if (!ok)
				miss(name, "guilty", r ? r->guilty : NULL, want);
		}
	}
out:
	oops_reports_free(&rs);
	oops_lines_free(&ls);
	free(text);
}

static int by_number(const void *a, const void *b)
{
	return atoi(*(char *const *)a) - atoi(*(char *const *)b);
}

static double pct(int ok, int n)
{
	return n ? 100.0 * ok / n : 100.0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s DIR [-v]\n", argv[0]);
		return 2;
	}
	verbose = argc > 2 && !strcmp(argv[2], "-v");
	DIR *d = opendir(argv[1]);
	if (!d) {
		fprintf(stderr, "%s: cannot open the development set\n", argv[1]);
		return 1;
	}
	char **names = NULL;
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d)))
		if (de->d_name[0] >= '0' && de->d_name[0] <= '9') {
			names = realloc(names, (n + 1) * sizeof(*names));
			names[n++] = strdup(de->d_name);
		}
	closedir(d);
	qsort(names, n, sizeof(*names), by_number);
	struct tally t = { 0 };
	for (size_t i = 0; i < n; i++) {
		check_file(argv[1], names[i], &t);
		free(names[i]);
	}
	free(names);

	double g = pct(t.guilty_ok, t.guilty_n), ti = pct(t.title_ok, t.title_n);
	printf("%zu files\n", n);
	printf("guilty frame as syzkaller's: %d/%d = %.1f%% (target 95%%)\n", t.guilty_ok, t.guilty_n, g);
	printf("title identical:             %d/%d = %.1f%% (target 90%%)\n", t.title_ok, t.title_n, ti);
	printf("PANICKED with verdict panic: %d/%d\n", t.panic_ok, t.panic_n);
	printf("a report found:              %d/%d\n", t.found_ok, t.found_n);
	printf("for information: corrupted reports' titles identical %d/%d; logs with no report "
	       "where syzkaller finds none %d/%d\n", t.corrupt_ok, t.corrupt_n, t.none_ok, t.none_n);
	bool ok = g >= 95.0 && ti >= 90.0 && t.panic_ok == t.panic_n && t.found_ok == t.found_n;
	printf("%s\n", ok ? "PASS" : "FAIL: below target");
	return ok ? 0 : 1;
}
