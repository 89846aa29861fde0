/*
 * -F filters checked against the file's events (see filtercheck.h).  The
 * event part is matched the way libtraceevent's tep_filter_add_filter_str()
 * matches it (each comma-separated name a case-insensitive regular
 * expression anchored at both ends, against the system or the name, or
 * "system/name"); the expression is split into tokens only far enough to
 * find the names in it: quoted strings and numbers are skipped.
 */
#include "tracefile/filtercheck.h"

#include <ctype.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "util/editdist.h"
#include "util/strbuf.h"

struct matched {
	struct tep_event **ev;
	int n;
};

static char *trimmed(const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return strndup(s, len);
}

static bool anchored_regex(regex_t *re, const char *pattern)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "^%s$", pattern);
	return regcomp(re, buf, REG_ICASE | REG_NOSUB) == 0;
}

/* The closest "system:name" events of the file to spec, "a, b or c". */
static void closest_events(struct tep_handle *tep, const char *spec, char *out, size_t outlen)
{
	struct tep_event **all = tep_list_events(tep, TEP_EVENT_SORT_ID);
	const char *want = strchr(spec, '/') ? strchr(spec, '/') + 1 : spec;
	struct closest c;

	closest_init(&c, strlen(want) / 2 + 2);
	for (int i = 0; all && all[i]; i++)
		closest_offer(&c, want, strlen(want), all[i]->name);
	closest_join(&c, out, outlen);
	closest_free(&c);
}

/* Add the events one comma-separated spec names; -1 with err when none matches. */
static int match_spec(struct tep_handle *tep, const char *filter, const char *spec,
		      struct matched *m, char *err, size_t errlen)
{
	char *slash = strchr(spec, '/');
	char *sys = slash ? strndup(spec, (size_t)(slash - spec)) : NULL;
	const char *name = slash ? slash + 1 : spec;
	regex_t sre, nre;
	int found = 0;
	bool sre_ok = !sys || anchored_regex(&sre, sys), nre_ok = anchored_regex(&nre, name);
	struct tep_event **all = tep_list_events(tep, TEP_EVENT_SORT_ID);

	for (int i = 0; sre_ok && nre_ok && all && all[i]; i++) {
		struct tep_event *e = all[i];
		bool hit = sys ? !regexec(&sre, e->system, 0, NULL, 0) &&
				 !regexec(&nre, e->name, 0, NULL, 0)
			       : !regexec(&nre, e->system, 0, NULL, 0) ||
				 !regexec(&nre, e->name, 0, NULL, 0);
		if (!hit)
			continue;
		m->ev = realloc(m->ev, sizeof(*m->ev) * (size_t)(m->n + 1));
		if (!m->ev)
			abort();
		m->ev[m->n++] = e;
		found++;
	}
	if (sys && sre_ok)
		regfree(&sre);
	if (nre_ok)
		regfree(&nre);
	free(sys);
	if (found)
		return 0;
	char near[256];
	closest_events(tep, spec, near, sizeof(near));
	snprintf(err, errlen, "-F '%s': no event '%s' in this file%s%s%s", filter, spec,
		 near[0] ? " (did you mean " : " ('tracekit report --stat' lists its events)",
		 near, near[0] ? "?)" : "");
	return -1;
}

static bool has_field(const struct matched *m, const char *name)
{
	if (!strcmp(name, "COMM") || !strcmp(name, "CPU"))
		return true;
	for (int i = 0; i < m->n; i++)
		if (tep_find_any_field(m->ev[i], name))
			return true;
	return false;
}

struct ranked {
	const char *name;
	size_t dist;
};

static int by_dist(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->dist != y->dist)
		return x->dist < y->dist ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* "a, b, c": the event's own fields, the closest to want first. */
static void fields_closest_first(struct tep_event *e, const char *want, struct strbuf *sb)
{
	struct tep_format_field **f = tep_event_fields(e);
	int n = 0;

	while (f && f[n])
		n++;
	struct ranked *r = calloc((size_t)n + 1, sizeof(*r));
	if (!r)
		abort();
	for (int i = 0; i < n; i++)
		r[i] = (struct ranked){ f[i]->name, edit_distance_n(want, strlen(want), f[i]->name,
								     strlen(f[i]->name)) };
	qsort(r, (size_t)n, sizeof(*r), by_dist);
	for (int i = 0; i < n; i++)
		sb_printf(sb, "%s%s", i ? ", " : "", r[i].name);
	free(r);
	free(f);
}

/* The next name in expr from *p (quoted strings and numbers skipped); NULL at the end. */
static char *next_name(const char **p)
{
	const char *s = *p;

	while (*s) {
		if (*s == '"' || *s == '\'') {
			char q = *s++;
			while (*s && *s != q)
				s += s[0] == '\\' && s[1] ? 2 : 1;
			if (*s)
				s++;
		} else if (isdigit((unsigned char)*s)) {
			while (isalnum((unsigned char)*s) || *s == '_' || *s == '.')
				s++;
		} else if (isalpha((unsigned char)*s) || *s == '_') {
			const char *start = s;
			while (isalnum((unsigned char)*s) || *s == '_')
				s++;
			*p = s;
			return strndup(start, (size_t)(s - start));
		} else {
			s++;
		}
	}
	*p = s;
	return NULL;
}

static int check_names(const char *filter, const char *expr, const struct matched *m,
		       char *err, size_t errlen)
{
	const char *p = expr;
	int ret = 0;

	for (char *name; ret == 0 && (name = next_name(&p)); free(name)) {
		if (has_field(m, name))
			continue;
		struct strbuf sb = STRBUF_INIT;
		struct tep_event *e = m->ev[0];
		fields_closest_first(e, name, &sb);
		if (m->n == 1)
			snprintf(err, errlen, "-F '%s': %s:%s has no field '%s' (its fields, closest "
				 "first: %s)", filter, e->system, e->name, name,
				 sb.len ? sb_str(&sb) : "none");
		else
			snprintf(err, errlen, "-F '%s': none of its %d events has a field '%s' "
				 "(%s:%s's fields, closest first: %s)", filter, m->n, name,
				 e->system, e->name, sb.len ? sb_str(&sb) : "none");
		sb_free(&sb);
		ret = -1;
	}
	return ret;
}

/*
 * A control character (a tab too) or a byte above ASCII, even inside a
 * string, throws libtraceevent 1.7's filter tokenizer off: it returns no
 * token, which its parser dereferences, or splits a string and frees twice.
 */
static int check_chars(const char *filter, char *err, size_t errlen)
{
	for (const unsigned char *p = (const unsigned char *)filter; *p; p++) {
		if (*p < 0x20 || *p >= 0x7f) {
			snprintf(err, errlen, "-F: byte 0x%02x at position %d: a filter is plain ASCII "
				 "text", *p, (int)(p - (const unsigned char *)filter) + 1);
			return -1;
		}
	}
	return 0;
}

/*
 * The expression grammar libtraceevent 1.7 accepts, checked before it parses:
 * its parser dereferences a missing token or frees twice on many malformed
 * expressions ("a ==", "a == 1 &&", "a > 0 && !b", "(a + 1) > 2", an open
 * string), so only well-formed ones reach it:
 *
 *	expr  := and ('||' and)*
 *	and   := unary ('&&' unary)*
 *	unary := '!' '(' expr ')' | '(' expr ')' | NAME OP VALUE
 *	OP    := == != < > <= >= =~ !~ ~ &
 *	VALUE := NUMBER | -NUMBER | "STRING" | 'STRING'
 */
#define MAX_CLAUSES 64

struct parse {
	const char *filter, *p;
	char *err;
	size_t errlen;
	int depth;
	const char *clause[MAX_CLAUSES][2];	/* each FIELD OP VALUE: start, end */
	int nclauses;
};

static void skip_space(struct parse *x)
{
	while (isspace((unsigned char)*x->p))
		x->p++;
}

static int syntax(struct parse *x, const char *want)
{
	skip_space(x);
	if (*x->p)
		snprintf(x->err, x->errlen, "-F '%s': %s at position %d, not '%.12s'", x->filter,
			 want, (int)(x->p - x->filter) + 1, x->p);
	else
		snprintf(x->err, x->errlen, "-F '%s': %s at its end", x->filter, want);
	return -1;
}

static bool eat(struct parse *x, const char *tok)
{
	skip_space(x);
	if (strncmp(x->p, tok, strlen(tok)) != 0)
		return false;
	x->p += strlen(tok);
	return true;
}

static int parse_value(struct parse *x)
{
	skip_space(x);
	if (*x->p == '"' || *x->p == '\'') {
		const char *open = x->p;
		char q = *x->p++;
		while (*x->p && *x->p != q)
			x->p += x->p[0] == '\\' && x->p[1] ? 2 : 1;
		if (!*x->p) {
			snprintf(x->err, x->errlen, "-F '%s': the string at position %d has no closing %c",
				 x->filter, (int)(open - x->filter) + 1, q);
			return -1;
		}
		x->p++;
		return 0;
	}
	if (*x->p == '-')
		x->p++;
	if (!isdigit((unsigned char)*x->p))
		return syntax(x, "expected a number or a quoted string");
	while (isalnum((unsigned char)*x->p))
		x->p++;
	return 0;
}

static int parse_compare(struct parse *x)
{
	static const char *const ops[] = { "==", "!=", "<=", ">=", "=~", "!~", "<", ">", "~", "&" };

	skip_space(x);
	if (!isalpha((unsigned char)*x->p) && *x->p != '_')
		return syntax(x, "expected a field name");
	if (x->nclauses == MAX_CLAUSES)
		return syntax(x, "too many comparisons (split the filter into several -F)");
	const char *start = x->p;
	while (isalnum((unsigned char)*x->p) || *x->p == '_')
		x->p++;
	skip_space(x);
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (strncmp(x->p, ops[i], strlen(ops[i])) || !strncmp(x->p, "&&", 2))
			continue;
		if (!eat(x, ops[i]) || parse_value(x) < 0)
			return -1;
		x->clause[x->nclauses][0] = start;
		x->clause[x->nclauses++][1] = x->p;
		return 0;
	}
	return syntax(x, "expected a comparison (==, !=, <, >, <=, >=, ~, =~, !~, &)");
}

static int parse_or(struct parse *x);

static int parse_unary(struct parse *x)
{
	bool not = eat(x, "!");

	if (eat(x, "(")) {
		if (++x->depth > 64)
			return syntax(x, "parentheses nest too deep");
		if (parse_or(x) < 0)
			return -1;
		x->depth--;
		return eat(x, ")") ? 0 : syntax(x, "expected ')'");
	}
	return not ? syntax(x, "expected '(' after '!'") : parse_compare(x);
}

static int parse_and(struct parse *x)
{
	do {
		if (parse_unary(x) < 0)
			return -1;
	} while (eat(x, "&&"));
	return 0;
}

static int parse_or(struct parse *x)
{
	do {
		if (parse_and(x) < 0)
			return -1;
	} while (eat(x, "||"));
	return 0;
}

/*
 * Each comparison alone through libtraceevent's parser: an error in the
 * right operand of && or || makes it free the left one twice ("a > 0 &&
 * comm > \"sh\""), an error in a lone comparison does not.
 */
static int check_clauses(struct tep_handle *tep, const struct parse *x, const char *colon)
{
	int ret = 0;

	for (int i = 0; ret == 0 && i < x->nclauses; i++) {
		struct strbuf sb = STRBUF_INIT;
		struct tep_event_filter *f = tep_filter_alloc(tep);
		if (!f)
			abort();
		sb_addn(&sb, x->filter, (size_t)(colon - x->filter) + 1);
		sb_addn(&sb, x->clause[i][0], (size_t)(x->clause[i][1] - x->clause[i][0]));
		enum tep_errno e = tep_filter_add_filter_str(f, sb_str(&sb));
		if (e < 0) {
			char why[1024];
			tep_filter_strerror(f, e, why, sizeof(why));
			const char *msg = strrchr(why, '\n');
			snprintf(x->err, x->errlen, "-F '%s': '%.*s': %s", x->filter,
				 (int)(x->clause[i][1] - x->clause[i][0]), x->clause[i][0],
				 msg ? msg + 1 : why);
			ret = -1;
		}
		tep_filter_free(f);
		sb_free(&sb);
	}
	return ret;
}

static int check_syntax(struct tep_handle *tep, const char *filter, const char *expr, char *err,
			size_t errlen)
{
	struct parse x = { .filter = filter, .p = expr, .err = err, .errlen = errlen };
	const char *comma = strchr(expr, ',');

	/* libtraceevent splits the event list at every ',' of the filter, wherever it is. */
	if (comma) {
		snprintf(err, errlen, "-F '%s': ',' at position %d: only the event list before ':' "
			 "may hold commas (libtraceevent splits at every one)", filter,
			 (int)(comma - filter) + 1);
		return -1;
	}
	skip_space(&x);
	if (!*x.p)
		return 0;	/* "EVENT:" alone: every event of it */
	if (parse_or(&x) < 0)
		return -1;
	skip_space(&x);
	if (*x.p)
		return syntax(&x, "expected && or ||");
	return check_clauses(tep, &x, expr - 1);
}

/*
 * libtraceevent copies the expression twice (and a caret line) into a
 * 1024-byte error buffer without a bound: a long one overflows it.
 */
#define MAX_FILTER_LEN 400

int tf_filter_check(struct tep_handle *tep, const char *filter, char *err, size_t errlen)
{
	if (strlen(filter) > MAX_FILTER_LEN) {
		snprintf(err, errlen, "-F: a filter of %zu characters: at most %d (split it into "
			 "several -F)", strlen(filter), MAX_FILTER_LEN);
		return -1;
	}
	if (check_chars(filter, err, errlen) < 0)
		return -1;

	const char *colon = strchr(filter, ':');
	size_t elen = colon ? (size_t)(colon - filter) : strlen(filter);
	struct matched m = { NULL, 0 };
	int ret = 0;

	for (size_t at = 0; ret == 0 && at <= elen;) {
		const char *comma = memchr(filter + at, ',', elen - at);
		size_t len = comma ? (size_t)(comma - filter) - at : elen - at;
		char *spec = trimmed(filter + at, len);
		if (!spec)
			abort();
		if (spec[0])
			ret = match_spec(tep, filter, spec, &m, err, errlen);
		free(spec);
		at += len + 1;
	}
	if (ret == 0 && m.n && colon)
		ret = check_names(filter, colon + 1, &m, err, errlen);
	if (ret == 0 && colon)
		ret = check_syntax(tep, filter, colon + 1, err, errlen);
	free(m.ev);
	return ret;
}

struct tep_event_filter *tf_filter_make(struct tep_handle *tep, const char *const *filters, int n,
					char *err, size_t errlen)
{
	struct tep_event_filter *f = tep_filter_alloc(tep);

	if (!f) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	for (int i = 0; i < n; i++) {
		if (tf_filter_check(tep, filters[i], err, errlen) < 0)
			goto fail;
		enum tep_errno ret = tep_filter_add_filter_str(f, filters[i]);
		if (ret < 0) {
			char why[256];
			tep_filter_strerror(f, ret, why, sizeof(why));
			/* libtraceevent's message ends a copy of the filter and a caret line. */
			char *msg = strrchr(why, '\n');
			snprintf(err, errlen, "bad filter '%s': %s (syntax: 'EVENT: FIELD == VALUE')",
				 filters[i], msg ? msg + 1 : why);
			goto fail;
		}
	}
	return f;
fail:
	tep_filter_free(f);
	return NULL;
}
