/*
 * The C expression parser of probe arguments (see cexpr.h): a base and a
 * chain of ->member, .member and [N].
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/cexpr.h"
#include "util/die.h"

#define CX_MAX_STEPS 64
#define CX_MAX_IDENT 128

static bool ident_start(int ch)
{
	return isalpha(ch) || ch == '_';
}

static bool ident_char(int ch)
{
	return isalnum(ch) || ch == '_';
}

bool cx_starts(const char *p, size_t len)
{
	if (len == 0)
		return false;
	if (ident_start((unsigned char)p[0]))
		return true;
	return len >= 8 && !memcmp(p, "$current", 8) && (len == 8 || !ident_char((unsigned char)p[8]));
}

struct cxp {
	const char *s, *p, *end;
	int *errpos;
	char *msg;
	size_t msglen;
};

static int fail(struct cxp *c, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct cxp *c, const char *at, const char *fmt, ...)
{
	va_list ap;
	*c->errpos = (int)(at - c->s);
	va_start(ap, fmt);
	vsnprintf(c->msg, c->msglen, fmt, ap);
	va_end(ap);
	return -1;
}

/* An identifier at c->p, copied into *out. */
static int ident(struct cxp *c, const char *what, char **out)
{
	const char *q = c->p;
	if (q >= c->end || !ident_start((unsigned char)*q))
		return fail(c, q, "expected %s name here", what);
	while (q < c->end && ident_char((unsigned char)*q))
		q++;
	if (q - c->p > CX_MAX_IDENT)
		return fail(c, c->p, "%s name longer than %d characters", what, CX_MAX_IDENT);
	*out = xstrndup(c->p, (size_t)(q - c->p));
	c->p = q;
	return 0;
}

static int number(struct cxp *c, uint64_t *out)
{
	const char *q = c->p;
	char buf[24];
	if (q >= c->end || !isdigit((unsigned char)*q))
		return fail(c, q, "expected an index (a number) after '['");
	while (q < c->end && isalnum((unsigned char)*q))
		q++;
	size_t n = (size_t)(q - c->p);
	if (n >= sizeof(buf))
		return fail(c, c->p, "index too long");
	memcpy(buf, c->p, n);
	buf[n] = '\0';
	char *e;
	errno = 0;
	unsigned long long v = strtoull(buf, &e, 0);
	if (errno || *e || v > (1u << 20))
		return fail(c, c->p, "bad index '%s' (a number from 0 to %u)", buf, 1u << 20);
	*out = v;
	c->p = q;
	return 0;
}

static int step(struct cxp *c, struct cx_expr *e)
{
	struct cx_step st = { .col = (int)(c->p - c->s) };
	if (e->nsteps == CX_MAX_STEPS)
		return fail(c, c->p, "more than %d members and indexes", CX_MAX_STEPS);
	if (c->end - c->p >= 2 && c->p[0] == '-' && c->p[1] == '>') {
		st.kind = CX_ARROW;
		c->p += 2;
		if (ident(c, "member", &st.name) < 0)
			return -1;
	} else if (*c->p == '.') {
		st.kind = CX_DOT;
		c->p++;
		if (ident(c, "member", &st.name) < 0)
			return -1;
	} else if (*c->p == '[') {
		st.kind = CX_INDEX;
		c->p++;
		if (number(c, &st.index) < 0)
			return -1;
		if (c->p >= c->end || *c->p != ']')
			return fail(c, c->p, "missing ']' after the index");
		c->p++;
	} else {
		return fail(c, c->p, "unexpected '%c' (members are ->name or .name, indexes [N])",
			    *c->p);
	}
	e->steps = xrealloc(e->steps, (e->nsteps + 1) * sizeof(*e->steps));
	e->steps[e->nsteps++] = st;
	return 0;
}

int cx_parse(const char *p, size_t len, struct cx_expr *e, int *errpos, char *msg, size_t msglen)
{
	struct cxp c = { p, p, p + len, errpos, msg, msglen };
	memset(e, 0, sizeof(*e));
	*errpos = 0;
	if (len >= 8 && !memcmp(p, "$current", 8)) {
		e->base = CX_CURRENT;
		c.p += 8;
	} else if (len >= 7 && !memcmp(p, "$retval", 7)) {
		e->base = CX_RETVAL;
		c.p += 7;
	} else if (len > 0 && *p == '$') {
		fail(&c, p, "unknown variable (C expressions take $retval and $current)");
		goto bad;
	} else {
		e->base = CX_VAR;
		if (ident(&c, "variable", &e->var) < 0)
			goto bad;
	}
	while (c.p < c.end)
		if (step(&c, e) < 0)
			goto bad;
	if (e->base == CX_CURRENT && (e->nsteps == 0 || e->steps[0].kind != CX_ARROW)) {
		fail(&c, c.p, "$current is a pointer to the task: name a member, $current->comm");
		goto bad;
	}
	e->text = xstrndup(p, len);
	return 0;
bad:
	cx_free(e);
	return -1;
}

void cx_free(struct cx_expr *e)
{
	for (size_t i = 0; i < e->nsteps; i++)
		free(e->steps[i].name);
	free(e->steps);
	free(e->var);
	free(e->text);
	memset(e, 0, sizeof(*e));
}

void cx_default_name(const struct cx_expr *e, char *out, size_t outlen)
{
	size_t last = e->nsteps;
	while (last > 0 && e->steps[last - 1].kind == CX_INDEX)
		last--;
	const char *name = last ? e->steps[last - 1].name : e->base == CX_VAR ? e->var : NULL;
	if (!name) {
		if (outlen)
			out[0] = '\0';
		return;
	}
	int n = snprintf(out, outlen, "%s", name);
	for (size_t i = last; i < e->nsteps && n >= 0 && (size_t)n < outlen; i++)
		n += snprintf(out + n, outlen - (size_t)n, "_%llu", (unsigned long long)e->steps[i].index);
}

void cx_prefix(const struct cx_expr *e, size_t n, char *out, size_t outlen)
{
	size_t len = n < e->nsteps ? (size_t)e->steps[n].col : strlen(e->text);
	snprintf(out, outlen, "%.*s", (int)len, e->text);
}
