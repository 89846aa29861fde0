/*
 * The -c table.  Layout facts from strace 6.1: right-aligned numeric
 * columns with minimum widths 6, 11, 11, 9 and 9 that grow to fit the
 * totals, a name column at least 16 wide whose text is not padded, an
 * errors cell left blank for zero, and ties kept in syscall-number order.
 * Times are kept in nanoseconds and turned into floating seconds the way
 * strace turns a timespec, so the printed digits agree with it.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../util/die.h"
#include "summary.h"
#include "table.h"

#define NS_PER_S 1000000000ull

struct counts {
	uint64_t calls, errors;
	uint64_t ns, min_ns, max_ns;
};

enum sort_key { SORT_NOTHING, SORT_TIME, SORT_MIN, SORT_MAX, SORT_AVG, SORT_CALLS,
		SORT_ERRORS, SORT_NAME };

struct sc_summary {
	struct counts c[SC_NR_MAX];
	enum sort_key sort;
	uint64_t overhead_ns;
	bool any;
};

struct sc_summary *sc_summary_new(void)
{
	struct sc_summary *s = xcalloc(1, sizeof(*s));

	s->sort = SORT_TIME;
	return s;
}

void sc_summary_free(struct sc_summary *s)
{
	free(s);
}

void sc_summary_add(struct sc_summary *s, long nr, uint64_t ns, bool failed)
{
	struct counts *c;

	/* like strace, only numbers inside the table are counted */
	if (nr < 0 || nr >= SC_NR_MAX)
		return;
	c = &s->c[nr];
	ns = ns > s->overhead_ns ? ns - s->overhead_ns : 0;
	if (c->calls == 0 || ns < c->min_ns)
		c->min_ns = ns;
	if (ns > c->max_ns)
		c->max_ns = ns;
	c->calls++;
	c->errors += failed;
	c->ns += ns;
	s->any = true;
}

void sc_summary_set_overhead(struct sc_summary *s, uint64_t ns)
{
	s->overhead_ns = ns;
}

static const struct {
	const char *name;
	enum sort_key key;
} sort_names[] = {
	{ "time", SORT_TIME }, { "time-percent", SORT_TIME }, { "time-total", SORT_TIME },
	{ "total-time", SORT_TIME },
	{ "min-time", SORT_MIN }, { "shortest", SORT_MIN }, { "time-min", SORT_MIN },
	{ "max-time", SORT_MAX }, { "longest", SORT_MAX }, { "time-max", SORT_MAX },
	{ "avg-time", SORT_AVG }, { "time-avg", SORT_AVG },
	{ "calls", SORT_CALLS }, { "count", SORT_CALLS },
	{ "errors", SORT_ERRORS }, { "error", SORT_ERRORS },
	{ "name", SORT_NAME }, { "syscall", SORT_NAME }, { "syscall-name", SORT_NAME },
	{ "nothing", SORT_NOTHING }, { "none", SORT_NOTHING },
};

int sc_summary_set_sort(struct sc_summary *s, const char *key, char *err, size_t errlen)
{
	char k[32];
	size_t i;

	/* strace spells each key with '-' and with '_' */
	snprintf(k, sizeof(k), "%s", key);
	for (i = 0; k[i]; i++)
		if (k[i] == '_')
			k[i] = '-';
	if (strlen(key) >= sizeof(k))
		i = sizeof(sort_names) / sizeof(sort_names[0]);
	else
		i = 0;
	for (; i < sizeof(sort_names) / sizeof(sort_names[0]); i++) {
		if (strcmp(sort_names[i].name, k) == 0) {
			s->sort = sort_names[i].key;
			return 0;
		}
	}
	snprintf(err, errlen, "invalid sort key '%s' in -S %s (keys: time, min-time, max-time, "
		 "avg-time, calls, errors, name, nothing)", key, key);
	return -1;
}

/* A nanosecond count as strace's timespec-to-double: seconds plus fraction. */
static double seconds(uint64_t ns)
{
	return (double)(ns / NS_PER_S) + (double)(ns % NS_PER_S) / 1e9;
}

/* Mean time per call, rounded to the nearest nanosecond. */
static uint64_t avg_ns(const struct counts *c)
{
	return (c->ns + c->calls / 2) / c->calls;
}

static const char *name_of(long nr, char *buf, size_t len)
{
	const struct sc_entry *e = sc_by_nr(nr);

	if (e)
		return e->name;
	snprintf(buf, len, "syscall_%#lx", (unsigned long)nr);
	return buf;
}

/* Order for -S: larger first for numbers, alphabetical for names; 0 for a tie. */
static int compare(const struct sc_summary *s, long a, long b)
{
	const struct counts *x = &s->c[a], *y = &s->c[b];
	uint64_t u, v;
	char ba[32], bb[32];

	switch (s->sort) {
	case SORT_NAME:
		return strcmp(name_of(a, ba, sizeof(ba)), name_of(b, bb, sizeof(bb)));
	case SORT_TIME: u = x->ns; v = y->ns; break;
	case SORT_MIN: u = x->min_ns; v = y->min_ns; break;
	case SORT_MAX: u = x->max_ns; v = y->max_ns; break;
	case SORT_AVG: u = avg_ns(x); v = avg_ns(y); break;
	case SORT_CALLS: u = x->calls; v = y->calls; break;
	case SORT_ERRORS: u = x->errors; v = y->errors; break;
	default: return 0;
	}
	return u < v ? 1 : u > v ? -1 : 0;
}

/* The counted syscall numbers in -S order; insertion sort keeps ties in number order. */
static size_t sorted_rows(const struct sc_summary *s, long *rows)
{
	size_t n = 0;

	for (long nr = 0; nr < SC_NR_MAX; nr++) {
		size_t i = n++;

		if (!s->c[nr].calls) {
			n--;
			continue;
		}
		while (i > 0 && compare(s, rows[i - 1], nr) > 0) {
			rows[i] = rows[i - 1];
			i--;
		}
		rows[i] = nr;
	}
	return n;
}

struct totals {
	uint64_t calls, errors, ns, max_avg_ns;
	size_t name_max;
};

struct widths {
	int secs, usecs, calls, errors, name;
};

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

static struct widths column_widths(const struct sc_summary *s, const long *rows, size_t n,
				   struct totals *t)
{
	struct widths w;
	char buf[32];

	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < n; i++) {
		const struct counts *c = &s->c[rows[i]];
		size_t len = strlen(name_of(rows[i], buf, sizeof(buf)));

		t->calls += c->calls;
		t->errors += c->errors;
		t->ns += c->ns;
		if (avg_ns(c) > t->max_avg_ns)
			t->max_avg_ns = avg_ns(c);
		if (len > t->name_max)
			t->name_max = len;
	}
	w.secs = max_int(11, snprintf(NULL, 0, "%.6f", seconds(t->ns)));
	w.usecs = max_int(11, snprintf(NULL, 0, "%" PRIu64,
				       (uint64_t)(seconds(t->max_avg_ns) * 1e6)));
	w.calls = max_int(9, snprintf(NULL, 0, "%" PRIu64, t->calls));
	w.errors = max_int(9, snprintf(NULL, 0, "%" PRIu64, t->errors));
	w.name = max_int(16, (int)t->name_max + 1);
	return w;
}

static void dashes(FILE *out, int n)
{
	while (n-- > 0)
		fputc('-', out);
}

static void rule(FILE *out, const struct widths *w)
{
	dashes(out, 6);
	fputc(' ', out);
	dashes(out, w->secs);
	fputc(' ', out);
	dashes(out, w->usecs);
	fputc(' ', out);
	dashes(out, w->calls);
	fputc(' ', out);
	dashes(out, w->errors);
	fputc(' ', out);
	dashes(out, w->name);
	fputc('\n', out);
}

/* One line; a zero error count prints as blanks (strace's "%.0u"). */
static void row(FILE *out, const struct widths *w, double percent, double secs, uint64_t usecs,
		uint64_t calls, uint64_t errors, const char *name)
{
	fprintf(out, "%6.2f %*.6f %*" PRIu64 " %*" PRIu64 " %*.0" PRIu64 " %s\n", percent,
		w->secs, secs, w->usecs, usecs, w->calls, calls, w->errors, errors, name);
}

void sc_summary_print(const struct sc_summary *s, FILE *out)
{
	long *rows;
	size_t n;
	struct totals t;
	struct widths w;
	char buf[32];

	if (!s->any)
		return;
	rows = xcalloc(SC_NR_MAX, sizeof(*rows));
	n = sorted_rows(s, rows);
	w = column_widths(s, rows, n, &t);
	fprintf(out, "%6s %*s %*s %*s %*s %s\n", "% time", w.secs, "seconds", w.usecs,
		"usecs/call", w.calls, "calls", w.errors, "errors", "syscall");
	rule(out, &w);
	for (size_t i = 0; i < n; i++) {
		const struct counts *c = &s->c[rows[i]];
		double pct = 100.0 * seconds(c->ns);

		/* a zero share stays zero even when the total is zero */
		if (pct != 0.0)
			pct /= seconds(t.ns);
		row(out, &w, pct, seconds(c->ns), (uint64_t)(seconds(avg_ns(c)) * 1e6), c->calls,
		    c->errors, name_of(rows[i], buf, sizeof(buf)));
	}
	rule(out, &w);
	row(out, &w, 100.0, seconds(t.ns), (uint64_t)(seconds(t.ns) / (double)t.calls * 1e6),
	    t.calls, t.errors, "total");
	free(rows);
}
