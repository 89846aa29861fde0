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

#include "util/die.h"
#include "summary.h"
#include "table.h"

#define NS_PER_S 1000000000ull

struct counts {
	uint64_t calls, errors;
	uint64_t ns, min_ns, max_ns;
};

/* -U: the columns, in the order given; strace's defaults without it. */
enum column { COL_END, COL_PCT, COL_TOTAL, COL_MIN, COL_MAX, COL_AVG, COL_CALLS, COL_ERRORS,
	      COL_NAME, COL_COUNT };

static const enum column default_columns[] = {
	COL_PCT, COL_TOTAL, COL_AVG, COL_CALLS, COL_ERRORS, COL_NAME, COL_END,
};

enum sort_key { SORT_NOTHING, SORT_TIME, SORT_MIN, SORT_MAX, SORT_AVG, SORT_CALLS,
		SORT_ERRORS, SORT_NAME };

struct sc_summary {
	struct counts c[SC_NR_MAX];
	enum sort_key sort;
	uint64_t overhead_ns;
	bool any;
	enum column columns[COL_COUNT + 1];	/* -U, ending with COL_END */
};

struct sc_summary *sc_summary_new(void)
{
	struct sc_summary *s = xcalloc(1, sizeof(*s));

	s->sort = SORT_TIME;
	memcpy(s->columns, default_columns, sizeof(default_columns));
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

static const struct {
	const char *label;
	int min_width;
} col_desc[COL_COUNT] = {
	[COL_PCT] = { "% time", 6 }, [COL_TOTAL] = { "seconds", 11 },
	[COL_MIN] = { "shortest", 8 }, [COL_MAX] = { "longest", 7 },
	[COL_AVG] = { "usecs/call", 11 }, [COL_CALLS] = { "calls", 9 },
	[COL_ERRORS] = { "errors", 9 }, [COL_NAME] = { "syscall", 16 },
};

static const struct {
	const char *name;
	enum column col;
} col_names[] = {
	{ "time", COL_PCT }, { "time-percent", COL_PCT },
	{ "time-total", COL_TOTAL }, { "total-time", COL_TOTAL },
	{ "min-time", COL_MIN }, { "shortest", COL_MIN }, { "time-min", COL_MIN },
	{ "max-time", COL_MAX }, { "longest", COL_MAX }, { "time-max", COL_MAX },
	{ "avg-time", COL_AVG }, { "time-avg", COL_AVG },
	{ "calls", COL_CALLS }, { "count", COL_CALLS },
	{ "errors", COL_ERRORS }, { "error", COL_ERRORS },
	{ "name", COL_NAME }, { "syscall", COL_NAME }, { "syscall-name", COL_NAME },
	{ "none", COL_END }, { "nothing", COL_END },
};


static int find_column(const char *tok)
{
	char k[32];
	snprintf(k, sizeof(k), "%s", tok);
	for (char *p = k; *p; p++)
		if (*p == '_')
			*p = '-';
	for (size_t i = 0; strlen(tok) < sizeof(k) && i < sizeof(col_names) / sizeof(col_names[0]); i++)
		if (strcmp(col_names[i].name, k) == 0)
			return (int)col_names[i].col;
	return -1;
}

int sc_summary_set_columns(struct sc_summary *s, const char *list, char *err, size_t errlen)
{
	enum column cols[COL_COUNT + 1];
	bool seen[COL_COUNT] = { false };
	size_t n = 0;
	char *copy = xstrdup(list), *rest = copy, *tok;
	int rc = 0;
	/* strsep, not strtok: an empty name ("time,,name") is an error, as in strace */
	while (!rc && (tok = strsep(&rest, ","))) {
		int c = find_column(tok);
		if (c < 0) {
			snprintf(err, errlen, "unknown column name: '%s'", tok);
			rc = -1;
		} else if (c != COL_END && seen[c]) {
			/* strace's words, with what is left of the list from there */
			snprintf(err, errlen, "call summary column has been provided more than once: "
				 "'%s' (-U option residual: '%s')", tok, list + (tok - copy));
			rc = -1;
		} else if (c != COL_END) {
			seen[c] = true;
			cols[n++] = (enum column)c;
		}
	}
	free(copy);
	if (rc)
		return rc;
	/* the name is always there: a table of numbers without it says nothing */
	if (!seen[COL_NAME])
		cols[n++] = COL_NAME;
	cols[n] = COL_END;
	memcpy(s->columns, cols, sizeof(cols[0]) * (n + 1));
	return 0;
}

struct totals {
	uint64_t calls, errors, ns, max_avg_ns;
	uint64_t min_ns, min_max_ns, max_ns;	/* over all rows: least min, greatest min, greatest max */
	size_t name_max;
};

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

/* Totals over the rows, and each column's width for them. */
static void column_widths(const struct sc_summary *s, const long *rows, size_t n,
			  struct totals *t, int *w)
{
	char buf[32];

	memset(t, 0, sizeof(*t));
	t->min_ns = UINT64_MAX;
	for (size_t i = 0; i < n; i++) {
		const struct counts *c = &s->c[rows[i]];
		size_t len = strlen(name_of(rows[i], buf, sizeof(buf)));

		t->calls += c->calls;
		t->errors += c->errors;
		t->ns += c->ns;
		if (avg_ns(c) > t->max_avg_ns)
			t->max_avg_ns = avg_ns(c);
		if (c->min_ns < t->min_ns)
			t->min_ns = c->min_ns;
		if (c->min_ns > t->min_max_ns)
			t->min_max_ns = c->min_ns;
		if (c->max_ns > t->max_ns)
			t->max_ns = c->max_ns;
		if (len > t->name_max)
			t->name_max = len;
	}
	for (int c = 0; c < COL_COUNT; c++)
		w[c] = col_desc[c].min_width;
	w[COL_TOTAL] = max_int(11, snprintf(NULL, 0, "%.6f", seconds(t->ns)));
	w[COL_MIN] = max_int(8, snprintf(NULL, 0, "%" PRIu64 ".000000", (uint64_t)(t->min_max_ns / NS_PER_S)));
	w[COL_MAX] = max_int(7, snprintf(NULL, 0, "%" PRIu64 ".000000", (uint64_t)(t->max_ns / NS_PER_S)));
	w[COL_AVG] = max_int(11, snprintf(NULL, 0, "%" PRIu64,
					  (uint64_t)(seconds(t->max_avg_ns) * 1e6)));
	w[COL_CALLS] = max_int(9, snprintf(NULL, 0, "%" PRIu64, t->calls));
	w[COL_ERRORS] = max_int(9, snprintf(NULL, 0, "%" PRIu64, t->errors));
	w[COL_NAME] = max_int(16, (int)t->name_max + 1);
}

static void rule(const struct sc_summary *s, FILE *out, const int *w)
{
	const enum column *columns = s->columns;
	for (int i = 0; columns[i] != COL_END; i++) {
		if (i)
			fputc(' ', out);
		for (int j = 0; j < w[columns[i]]; j++)
			fputc('-', out);
	}
	fputc('\n', out);
}

/* One row's values; the name column is padded unless it is the last. */
struct row_vals {
	double percent, secs, min, max;
	uint64_t usecs, calls, errors;
	const char *name;
};

static void row(const struct sc_summary *s, FILE *out, const int *w, const struct row_vals *v)
{
	const enum column *columns = s->columns;
	for (int i = 0; columns[i] != COL_END; i++) {
		enum column c = columns[i];
		if (i)
			fputc(' ', out);
		switch (c) {
		case COL_PCT: fprintf(out, "%*.2f", w[c], v->percent); break;
		case COL_TOTAL: fprintf(out, "%*.6f", w[c], v->secs); break;
		case COL_MIN: fprintf(out, "%*.6f", w[c], v->min); break;
		case COL_MAX: fprintf(out, "%*.6f", w[c], v->max); break;
		case COL_AVG: fprintf(out, "%*" PRIu64, w[c], v->usecs); break;
		case COL_CALLS: fprintf(out, "%*" PRIu64, w[c], v->calls); break;
		/* a zero error count prints as blanks (strace's "%.0u") */
		case COL_ERRORS: fprintf(out, "%*.0" PRIu64, w[c], v->errors); break;
		case COL_NAME:
			if (columns[i + 1] == COL_END)
				fputs(v->name, out);
			else
				fprintf(out, "%-*s", w[c], v->name);
			break;
		default: break;
		}
	}
	fputc('\n', out);
}

void sc_summary_print(const struct sc_summary *s, FILE *out)
{
	long *rows;
	size_t n;
	struct totals t;
	int w[COL_COUNT];
	char buf[32];

	if (!s->any)
		return;
	rows = xcalloc(SC_NR_MAX, sizeof(*rows));
	n = sorted_rows(s, rows);
	column_widths(s, rows, n, &t, w);
	const enum column *columns = s->columns;
	for (int i = 0; columns[i] != COL_END; i++) {
		enum column c = columns[i];
		if (i)
			fputc(' ', out);
		if (c != COL_NAME)
			fprintf(out, "%*s", w[c], col_desc[c].label);
		else if (columns[i + 1] == COL_END)
			fputs(col_desc[c].label, out);
		else
			fprintf(out, "%-*s", w[c], col_desc[c].label);
	}
	fputc('\n', out);
	rule(s, out, w);
	for (size_t i = 0; i < n; i++) {
		const struct counts *c = &s->c[rows[i]];
		struct row_vals v = {
			.percent = 100.0 * seconds(c->ns), .secs = seconds(c->ns),
			.min = seconds(c->min_ns), .max = seconds(c->max_ns),
			.usecs = (uint64_t)(seconds(avg_ns(c)) * 1e6), .calls = c->calls,
			.errors = c->errors, .name = name_of(rows[i], buf, sizeof(buf)),
		};
		/* a zero share stays zero even when the total is zero */
		if (v.percent != 0.0)
			v.percent /= seconds(t.ns);
		row(s, out, w, &v);
	}
	rule(s, out, w);
	struct row_vals tot = {
		.percent = 100.0, .secs = seconds(t.ns), .min = seconds(t.min_ns),
		.max = seconds(t.max_ns), .usecs = (uint64_t)(seconds(t.ns) / (double)t.calls * 1e6),
		.calls = t.calls, .errors = t.errors, .name = "total",
	};
	row(s, out, w, &tot);
	free(rows);
}
