/*
 * The probe definition grammar: one parser for the kernel and the ptrace
 * backends, the kernel's kprobe_events/uprobe_events syntax (see
 * probe_def.h).  Every error carries the 1-based column where the problem
 * starts, so the CLI can say "column 23: unknown type 'u9'".
 *
 * The parser is a cursor over the spec text; each piece (head, place, arg,
 * fetch, type) is one function that advances it or fails with a column.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/cexpr.h"
#include "probe/probe_def.h"
#include "probe/regs.h"
#include "util/die.h"

#define PD_MAX_ARRAY 64		/* the kernel's MAX_ARRAY_LEN */
#define PD_MAX_ARGS 128		/* the kernel's MAX_TRACE_ARGS */
#define PD_MAX_DEREF 16		/* nesting of +OFFS(...) the kernel accepts (FETCH_INSN_MAX) */
#define PD_MAX_NAME 64		/* MAX_EVENT_NAME_LEN */

struct cursor {
	const char *spec;	/* the whole text, for columns */
	const char *p;
	struct pd_error *err;
};

static int col_of(const struct cursor *c, const char *at)
{
	return (int)(at - c->spec) + 1;
}

static int fail_at(struct cursor *c, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail_at(struct cursor *c, const char *at, const char *fmt, ...)
{
	va_list ap;
	c->err->col = col_of(c, at);
	va_start(ap, fmt);
	vsnprintf(c->err->msg, sizeof(c->err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

static bool is_ident_start(int ch)
{
	return isalpha(ch) || ch == '_';
}

static bool is_ident(int ch)
{
	return isalnum(ch) || ch == '_';
}

/* The end of the current whitespace-separated word. */
static const char *word_end(const char *p)
{
	while (*p && !isspace((unsigned char)*p))
		p++;
	return p;
}

/*
 * An unsigned number in C syntax (0x hex, 0 octal, decimal) spanning
 * exactly [p, end); -1 when it does not, or overflows.
 */
static int parse_unum(const char *p, const char *end, uint64_t *out)
{
	if (p >= end || !isdigit((unsigned char)*p))
		return -1;
	char buf[32];
	size_t n = (size_t)(end - p);
	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	char *e;
	errno = 0;
	unsigned long long v = strtoull(buf, &e, 0);
	if (errno || *e)
		return -1;
	*out = v;
	return 0;
}

/* The extent of a number token: digits, letters (hex, 0x). */
static const char *num_end(const char *p)
{
	while (isalnum((unsigned char)*p))
		p++;
	return p;
}

/* ---- head: p|r[MAXACTIVE][:[GRP/]EVENT] ---- */

static int check_name(struct cursor *c, const char *s, const char *end, const char *what)
{
	if (s == end)
		return fail_at(c, s, "empty %s name", what);
	if (!is_ident_start((unsigned char)*s))
		return fail_at(c, s, "%s name must start with a letter or '_'", what);
	for (const char *q = s; q < end; q++)
		if (!is_ident((unsigned char)*q))
			return fail_at(c, q, "bad character '%c' in %s name (letters, digits, '_')",
				       *q, what);
	if (end - s >= PD_MAX_NAME)
		return fail_at(c, s, "%s name longer than %d characters", what, PD_MAX_NAME - 1);
	return 0;
}

static int parse_head(struct cursor *c, struct probe_def *def)
{
	const char *p = c->p;
	if (*p == 'p')
		def->kind = PD_ENTRY;
	else if (*p == 'r')
		def->kind = PD_RETURN;
	else if (*p == '\0')
		return fail_at(c, p, "empty probe definition (p:GROUP/EVENT PATH:SYMBOL ARGS...)");
	else
		return fail_at(c, p, "a probe starts with 'p' (entry) or 'r' (return), not '%c'", *p);
	p++;
	if (isdigit((unsigned char)*p)) {
		const char *ne = num_end(p);
		uint64_t v;
		if (def->kind != PD_RETURN)
			return fail_at(c, p, "MAXACTIVE is for return probes only (r%.*s)",
				       (int)(ne - p), p);
		if (parse_unum(p, ne, &v) < 0 || v == 0 || v > 4096)
			return fail_at(c, p, "MAXACTIVE must be a number from 1 to 4096");
		def->maxactive = (unsigned)v;
		p = ne;
	}
	if (*p == ':') {
		p++;
		const char *we = word_end(p);
		const char *slash = memchr(p, '/', (size_t)(we - p));
		const char *ev = p;
		if (slash) {
			if (check_name(c, p, slash, "group") < 0)
				return -1;
			def->group = xstrndup(p, (size_t)(slash - p));
			ev = slash + 1;
		}
		if (ev < we) {	/* "p:grp/" leaves the event to the default */
			if (check_name(c, ev, we, "event") < 0)
				return -1;
			def->event = xstrndup(ev, (size_t)(we - ev));
		}
		p = we;
	} else if (*p && !isspace((unsigned char)*p)) {
		return fail_at(c, p, "expected ':' or a space after '%c', got '%c'", *c->p, *p);
	}
	c->p = p;
	return 0;
}

/* ---- place ---- */

/* SYM[+OFFS] or a number, in [p, end): the common tail of kernel and user places. */
static int parse_sym_offs(struct cursor *c, const char *p, const char *end, struct probe_def *def,
			  bool user)
{
	if (p == end)
		return fail_at(c, p, user ? "missing symbol or offset after PATH:"
				       : "missing probe place (SYMBOL[+OFFS] or ADDRESS)");
	if (isdigit((unsigned char)*p)) {
		if (parse_unum(p, end, &def->address) < 0)
			return fail_at(c, p, "bad %s '%.*s' (a number such as 0x1139)",
				       user ? "offset" : "address", (int)(end - p), p);
		def->has_address = true;
		return 0;
	}
	const char *plus = p;
	/* C++ symbols may hold ':' and '(' ; the offset is the last "+N". */
	const char *last_plus = NULL;
	for (const char *q = p; q < end; q++)
		if (*q == '+')
			last_plus = q;
	plus = last_plus ? last_plus : end;
	if (plus == p)
		return fail_at(c, p, "missing symbol before '+'");
	if (!is_ident_start((unsigned char)*p) && *p != '.')
		return fail_at(c, p, "bad symbol '%.*s' (a name, or a number for an address)",
			       (int)(plus - p), p);
	def->symbol = xstrndup(p, (size_t)(plus - p));
	if (plus < end) {
		uint64_t v;
		if (parse_unum(plus + 1, end, &v) < 0 || v > INT64_MAX)
			return fail_at(c, plus + 1, "bad offset '%.*s' after '+' (a number such as 0x10)",
				       (int)(end - plus - 1), plus + 1);
		def->offset = (int64_t)v;
	}
	if (def->kind == PD_RETURN && def->offset != 0)
		return fail_at(c, plus + 1, "a return probe goes on a function's entry (+0), not +%lld",
			       (long long)def->offset);
	return 0;
}

/*
 * perf probe's FUNC:N (line N of FUNC, counted from the line of its name)
 * and FILE:LINE (FILE has a '.'): 1 when [p, end) is one (def filled), 0
 * when it is not, -1 on an error.
 */
static int parse_line_place(struct cursor *c, const char *p, const char *end,
			    struct probe_def *def)
{
	const char *colon = NULL;
	for (const char *q = p; q < end; q++)
		if (*q == ':')
			colon = q;
	if (!colon || colon == p || colon + 1 == end || colon[-1] == ':')
		return 0;
	for (const char *q = colon + 1; q < end; q++)
		if (!isdigit((unsigned char)*q))
			return 0;
	uint64_t n;
	if (parse_unum(colon + 1, end, &n) < 0 || n > 10000000)
		return fail_at(c, colon + 1, "bad line number '%.*s'", (int)(end - colon - 1),
			       colon + 1);
	if (def->kind == PD_RETURN)
		return fail_at(c, colon, "a return probe goes on a function, not on a line");
	if (memchr(p, '.', (size_t)(colon - p))) {
		def->src_file = xstrndup(p, (size_t)(colon - p));
		if (n == 0)
			return fail_at(c, colon + 1, "lines of a file count from 1");
	} else {
		if (!is_ident_start((unsigned char)*p))
			return fail_at(c, p, "bad function '%.*s' before ':LINE'", (int)(colon - p), p);
		def->symbol = xstrndup(p, (size_t)(colon - p));
	}
	def->src_line = (unsigned)n;
	def->has_line = true;
	return 1;
}

static int parse_place(struct cursor *c, struct probe_def *def)
{
	const char *p = c->p;
	while (isspace((unsigned char)*p))
		p++;
	const char *end = word_end(p);
	if (p == end)
		return fail_at(c, p, "missing probe place (PATH:SYMBOL[+OFFS], PATH:OFFSET, or SYMBOL)");
	c->p = end;
	/* The kernel's other spelling of a return probe: p PLACE%return. */
	static const char ret_suffix[] = "%return";
	size_t rl = sizeof(ret_suffix) - 1;
	if ((size_t)(end - p) > rl && !memcmp(end - rl, ret_suffix, rl)) {
		def->kind = PD_RETURN;
		end -= rl;
	}
	const char *colon = memchr(p, ':', (size_t)(end - p));
	const char *slash = memchr(p, '/', (size_t)(end - p));
	/* A path has a '/' before its ':'; "MOD:SYM" has none. */
	if (colon && slash && slash < colon) {
		def->target = PD_USER;
		if (colon == p)
			return fail_at(c, p, "missing path before ':'");
		def->path = xstrndup(p, (size_t)(colon - p));
		const char *q = colon + 1;
		if (*q == '%') {
			const char *c2 = memchr(q, ':', (size_t)(end - q));
			if (!c2)
				return fail_at(c, q, "a USDT place is PATH:%%PROVIDER:NAME");
			if (check_name(c, q + 1, c2, "USDT provider") < 0 ||
			    check_name(c, c2 + 1, end, "USDT probe") < 0)
				return -1;
			def->usdt_provider = xstrndup(q + 1, (size_t)(c2 - q - 1));
			def->usdt_name = xstrndup(c2 + 1, (size_t)(end - c2 - 1));
			return 0;
		}
		if (parse_line_place(c, q, end, def) != 0)
			return def->has_line ? 0 : -1;
		return parse_sym_offs(c, q, end, def, true);
	}
	if (slash)
		return fail_at(c, p, "'%.*s' looks like a path: a user probe is PATH:SYMBOL or PATH:OFFSET",
			       (int)(end - p), p);
	def->target = PD_KERNEL;
	if (colon) {
		if (check_name(c, p, colon, "module") < 0)
			return -1;
		def->module = xstrndup(p, (size_t)(colon - p));
		p = colon + 1;
	}
	return parse_sym_offs(c, p, end, def, false);
}

/* ---- fetch args ---- */

static void fetch_free(struct pd_fetch *f)
{
	while (f) {
		struct pd_fetch *child = f->child;
		free(f->sym);
		free(f);
		f = child;
	}
}

static struct pd_fetch *new_fetch(struct cursor *c, const char *at, enum pd_fetch_op op)
{
	struct pd_fetch *f = xcalloc(1, sizeof(*f));
	f->op = op;
	f->col = col_of(c, at);
	return f;
}

/* A decimal index after a $var ("$stack3", "$arg2"), exactly to end. */
static int parse_index(const char *p, const char *end, unsigned max, unsigned *out)
{
	uint64_t v;
	if (p == end)
		return -1;
	for (const char *q = p; q < end; q++)
		if (!isdigit((unsigned char)*q))
			return -1;
	if (parse_unum(p, end, &v) < 0 || v > max)
		return -1;
	*out = (unsigned)v;
	return 0;
}

static int parse_fetch(struct cursor *c, const char *p, const char *end, struct probe_def *def,
		       int depth, struct pd_fetch **out);

static int parse_var(struct cursor *c, const char *p, const char *end, struct probe_def *def,
		     struct pd_fetch **out)
{
	const char *v = p + 1;
	size_t n = (size_t)(end - v);
	if (n == 6 && !memcmp(v, "retval", 6)) {
		if (def->kind != PD_RETURN)
			return fail_at(c, p, "$retval is only for return probes (r:)");
		*out = new_fetch(c, p, PD_F_RETVAL);
		return 0;
	}
	if (n == 4 && !memcmp(v, "comm", 4)) {
		*out = new_fetch(c, p, PD_F_COMM);
		return 0;
	}
	if (n == 5 && !memcmp(v, "stack", 5)) {
		*out = new_fetch(c, p, PD_F_STACK);
		return 0;
	}
	unsigned idx;
	if (n > 5 && !memcmp(v, "stack", 5)) {
		if (parse_index(v + 5, end, 1024, &idx) < 0)
			return fail_at(c, v + 5, "bad stack index '%.*s' ($stackN, N from 0 to 1024)",
				       (int)(end - v - 5), v + 5);
		*out = new_fetch(c, p, PD_F_STACKN);
		(*out)->n = idx;
		return 0;
	}
	if (n > 3 && !memcmp(v, "arg", 3)) {
		if (parse_index(v + 3, end, 128, &idx) < 0 || idx == 0)
			return fail_at(c, v + 3, "bad argument number '%.*s' ($argN, N from 1)",
				       (int)(end - v - 3), v + 3);
		if (def->kind == PD_RETURN)
			return fail_at(c, p, "$arg%u is gone at return: fetch it with an entry probe", idx);
		*out = new_fetch(c, p, PD_F_ARGN);
		(*out)->n = idx;
		return 0;
	}
	return fail_at(c, p, "unknown variable '%.*s' ($retval, $comm, $stack, $stackN, $argN)",
		       (int)(end - p), p);
}

static int parse_reg(struct cursor *c, const char *p, const char *end, struct pd_fetch **out)
{
	const struct pd_reg_desc *r = pd_reg_lookup(p + 1, (size_t)(end - p - 1));
	if (!r) {
		char near[64];
		pd_reg_closest(p + 1, (size_t)(end - p - 1), near, sizeof(near));
		return fail_at(c, p, "unknown register '%.*s'%s%s%s", (int)(end - p), p,
			       near[0] ? " (did you mean %" : "", near, near[0] ? "?)" : "");
	}
	*out = new_fetch(c, p, PD_F_REG);
	(*out)->reg = r->offset;
	snprintf((*out)->reg_name, sizeof((*out)->reg_name), "%s", r->name);
	return 0;
}

/* @ADDR, @+FILEOFFS, @SYM[+|-OFFS] */
static int parse_mem(struct cursor *c, const char *p, const char *end, struct pd_fetch **out)
{
	const char *q = p + 1;
	uint64_t v;
	if (q == end)
		return fail_at(c, q, "missing address after '@' (@ADDR, @SYMBOL, @+OFFSET)");
	if (*q == '+') {
		if (parse_unum(q + 1, end, &v) < 0 || v > INT64_MAX)
			return fail_at(c, q + 1, "bad file offset '%.*s' after '@+'", (int)(end - q - 1),
				       q + 1);
		*out = new_fetch(c, p, PD_F_FILEOFF);
		(*out)->offs = (int64_t)v;
		return 0;
	}
	if (isdigit((unsigned char)*q)) {
		if (parse_unum(q, end, &v) < 0)
			return fail_at(c, q, "bad address '%.*s' after '@'", (int)(end - q), q);
		*out = new_fetch(c, p, PD_F_MEM);
		(*out)->addr = v;
		return 0;
	}
	if (!is_ident_start((unsigned char)*q) && *q != '.')
		return fail_at(c, q, "bad symbol after '@' (@ADDR, @SYMBOL[+|-OFFS], @+OFFSET)");
	const char *s = q;
	while (s < end && *s != '+' && *s != '-')
		s++;
	int64_t offs = 0;
	if (s < end) {
		if (parse_unum(s + 1, end, &v) < 0 || v > INT64_MAX)
			return fail_at(c, s + 1, "bad offset '%.*s' after the symbol", (int)(end - s - 1),
				       s + 1);
		offs = *s == '-' ? -(int64_t)v : (int64_t)v;
	}
	*out = new_fetch(c, p, PD_F_SYM);
	(*out)->sym = xstrndup(q, (size_t)(s - q));
	(*out)->offs = offs;
	return 0;
}

/* +|-[u]OFFS(FETCHARG) */
static int parse_deref(struct cursor *c, const char *p, const char *end, struct probe_def *def,
		       int depth, struct pd_fetch **out)
{
	const char *q = p + 1;
	bool user = false;
	if (*q == 'u') {
		user = true;
		q++;
	}
	const char *paren = q;
	while (paren < end && *paren != '(')
		paren++;
	if (paren == end)
		return fail_at(c, p, "missing '(' in a dereference (+OFFS(FETCHARG))");
	uint64_t v;
	if (parse_unum(q, paren, &v) < 0 || v > INT64_MAX)
		return fail_at(c, q, "bad offset '%.*s' in a dereference (+OFFS(FETCHARG))",
			       (int)(paren - q), q);
	if (end[-1] != ')')
		return fail_at(c, end, "missing ')' closing the dereference at column %d", col_of(c, paren));
	if (depth >= PD_MAX_DEREF)
		return fail_at(c, p, "dereferences nested deeper than %d", PD_MAX_DEREF);
	struct pd_fetch *child = NULL;
	if (parse_fetch(c, paren + 1, end - 1, def, depth + 1, &child) < 0)
		return -1;
	if (child->op == PD_F_COMM) {
		fetch_free(child);
		return fail_at(c, paren + 1, "$comm cannot be dereferenced");
	}
	*out = new_fetch(c, p, PD_F_DEREF);
	(*out)->offs = *p == '-' ? -(int64_t)v : (int64_t)v;
	(*out)->user = user;
	(*out)->child = child;
	return 0;
}

static int parse_fetch(struct cursor *c, const char *p, const char *end, struct probe_def *def,
		       int depth, struct pd_fetch **out)
{
	*out = NULL;
	if (p >= end)
		return fail_at(c, p, "missing fetch argument (%%REG, @ADDR, $stackN, $retval, $comm, "
			       "$argN, +OFFS(...))");
	switch (*p) {
	case '%':
		return parse_reg(c, p, end, out);
	case '@':
		return parse_mem(c, p, end, out);
	case '$':
		return parse_var(c, p, end, def, out);
	case '+':
	case '-':
		return parse_deref(c, p, end, def, depth, out);
	case '\\': {
		uint64_t v;
		const char *q = p + 1;
		bool neg = *q == '-';
		if (neg)
			q++;
		if (parse_unum(q, end, &v) < 0)
			return fail_at(c, p + 1, "bad immediate '%.*s' (\\NUMBER)", (int)(end - p - 1),
				       p + 1);
		*out = new_fetch(c, p, PD_F_IMM);
		(*out)->imm = neg ? (uint64_t)-(int64_t)v : v;
		return 0;
	}
	default:
		return fail_at(c, p, "unknown fetch argument '%.*s' (%%REG, @ADDR, @SYM, $stackN, $stack, "
			       "$retval, $comm, $argN, +|-[u]OFFS(FETCHARG), \\IMM)", (int)(end - p), p);
	}
}

/* ---- types ---- */

static const char types_hint[] = "u8..u64, s8..s64, x8..x64, char, string, ustring, symbol, "
				 "b<W>@<O>/<S>, TYPE[N]";

static int parse_bitfield(struct cursor *c, const char *p, const char *end, struct pd_type *t)
{
	/* b<W>@<O>/<S> */
	unsigned w, o, s;
	const char *at = memchr(p, '@', (size_t)(end - p));
	const char *sl = at ? memchr(at, '/', (size_t)(end - at)) : NULL;
	if (!at || !sl)
		return fail_at(c, p, "a bitfield is b<WIDTH>@<OFFSET>/<CONTAINER BITS>, e.g. b4@2/32");
	if (parse_index(p + 1, at, 64, &w) < 0 || parse_index(at + 1, sl, 63, &o) < 0 ||
	    parse_index(sl + 1, end, 64, &s) < 0)
		return fail_at(c, p, "a bitfield is b<WIDTH>@<OFFSET>/<CONTAINER BITS>, e.g. b4@2/32");
	if (s != 8 && s != 16 && s != 32 && s != 64)
		return fail_at(c, sl + 1, "bitfield container must be 8, 16, 32 or 64 bits, not %u", s);
	if (w == 0 || w + o > s)
		return fail_at(c, p + 1, "bitfield of %u bits at bit %u does not fit in %u bits", w, o, s);
	t->kind = PD_T_BITFIELD;
	t->bf_width = w;
	t->bf_offset = o;
	t->size = s / 8;
	return 0;
}

static int parse_type(struct cursor *c, const char *p, const char *end, struct pd_type *t)
{
	static const struct {
		const char *name;
		enum pd_type_kind kind;
		unsigned size;
	} names[] = {
		{ "char", PD_T_CHAR, 1 }, { "string", PD_T_STRING, 0 },
		{ "ustring", PD_T_USTRING, 0 }, { "symbol", PD_T_SYMBOL, 8 },
	};
	memset(t, 0, sizeof(*t));
	t->given = true;
	if (p == end)
		return fail_at(c, p, "missing type after ':' (%s)", types_hint);
	const char *br = memchr(p, '[', (size_t)(end - p));
	const char *tend = br ? br : end;
	if (br) {
		if (end[-1] != ']')
			return fail_at(c, end, "missing ']' closing the array size");
		if (parse_index(br + 1, end - 1, PD_MAX_ARRAY, &t->array) < 0 || t->array == 0)
			return fail_at(c, br + 1, "array size must be 1 to %d", PD_MAX_ARRAY);
	}
	if (*p == 'b' && tend - p > 1 && isdigit((unsigned char)p[1])) {
		if (parse_bitfield(c, p, tend, t) < 0)
			return -1;
		if (br)
			return fail_at(c, br, "bitfields cannot be arrays");
		return 0;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i].name) == (size_t)(tend - p) &&
		    !memcmp(names[i].name, p, (size_t)(tend - p))) {
			t->kind = names[i].kind;
			t->size = names[i].size;
			return 0;
		}
	if (*p == 'u' || *p == 's' || *p == 'x') {
		unsigned bits;
		if (parse_index(p + 1, tend, 64, &bits) == 0 &&
		    (bits == 8 || bits == 16 || bits == 32 || bits == 64)) {
			t->kind = *p == 'u' ? PD_T_U : *p == 's' ? PD_T_S : PD_T_X;
			t->size = bits / 8;
			return 0;
		}
	}
	return fail_at(c, p, "unknown type '%.*s' (%s)", (int)(tend - p), p, types_hint);
}

/* ---- one argument: [NAME=]FETCHARG[:TYPE] ---- */

static bool is_memory_fetch(const struct pd_fetch *f)
{
	return f->op == PD_F_DEREF || f->op == PD_F_MEM || f->op == PD_F_SYM || f->op == PD_F_FILEOFF;
}

/*
 * An arg in C (cexpr.h): an identifier, $current, or, in perf probe's
 * syntax, $retval (typed from the function's return type).
 */
static bool is_cexpr(const struct probe_def *def, const char *p, const char *end)
{
	size_t n = (size_t)(end - p);
	if (cx_starts(p, n))
		return true;
	return def->cform && n >= 7 && !memcmp(p, "$retval", 7);
}

/*
 * A default name an earlier argument already has (r->path beside r->next->path) takes
 * the first free suffix, path_1, path_2...: the user named neither, so neither is
 * refused.  A name the user gave is kept and checked by check_unique_names.
 */
static void unique_name(const struct probe_def *def, size_t index, char *name, size_t len)
{
	char base[PD_MAX_NAME + 16];
	snprintf(base, sizeof(base), "%s", name);
	for (int n = 1;; n++) {
		bool taken = false;
		for (size_t j = 0; j < index && !taken; j++)
			taken = def->args[j].name && !strcmp(def->args[j].name, name);
		if (!taken || n > 99)
			return;
		snprintf(name, len, "%.*s_%d", PD_MAX_NAME - 4, base, n);
	}
}

static int parse_carg(struct cursor *c, const char *f, const char *fend, const char *colon,
		      const char *end, struct probe_def *def, struct pd_arg *a, size_t index,
		      bool named)
{
	struct cx_expr e;
	char msg[160];
	int pos;
	if (cx_parse(f, (size_t)(fend - f), &e, &pos, msg, sizeof(msg)) < 0)
		return fail_at(c, f + pos, "%s", msg);
	a->cexpr = xmalloc(sizeof(*a->cexpr));
	*a->cexpr = e;
	if (e.base == CX_RETVAL && def->kind != PD_RETURN)
		return fail_at(c, f, "$retval is only for return probes (FUNC%%return, r:)");
	if (e.base == CX_CURRENT && def->target == PD_USER)
		return fail_at(c, f, "$current is the kernel's running task: for kernel probes only");
	if (!named) {
		char name[PD_MAX_NAME + 16];
		cx_default_name(&e, name, sizeof(name));
		if (!name[0] || strlen(name) >= PD_MAX_NAME)
			snprintf(name, sizeof(name), "arg%zu", index + 1);
		unique_name(def, index, name, sizeof(name));
		free(a->name);
		a->name = xstrdup(name);
	}
	if (colon && parse_type(c, colon + 1, end, &a->type) < 0)
		return -1;
	return 0;
}

static int parse_arg(struct cursor *c, const char *p, const char *end, struct probe_def *def,
		     struct pd_arg *a, size_t index)
{
	a->col = col_of(c, p);
	a->text = xstrndup(p, (size_t)(end - p));
	const char *f = p;
	const char *eq = NULL;
	for (const char *q = p; q < end && is_ident(*q); q++)
		if (q[1] == '=') {
			eq = q + 1;
			break;
		}
	if (eq) {
		if (check_name(c, p, eq, "argument") < 0)
			return -1;
		a->name = xstrndup(p, (size_t)(eq - p));
		f = eq + 1;
	} else if (*p == '=') {
		return fail_at(c, p, "empty argument name before '='");
	} else {
		char buf[24];
		snprintf(buf, sizeof(buf), "arg%zu", index + 1);
		a->name = xstrdup(buf);
	}
	/* The type starts at the first ':' outside parentheses. */
	const char *colon = NULL;
	int depth = 0;
	for (const char *q = f; q < end; q++) {
		if (*q == '(')
			depth++;
		else if (*q == ')')
			depth--;
		else if (*q == ':' && depth == 0) {
			colon = q;
			break;
		}
	}
	const char *fend = colon ? colon : end;
	if (is_cexpr(def, f, fend))
		return parse_carg(c, f, fend, colon, end, def, a, index, eq != NULL);
	if (parse_fetch(c, f, fend, def, 0, &a->fetch) < 0)
		return -1;
	if (colon) {
		if (parse_type(c, colon + 1, end, &a->type) < 0)
			return -1;
	} else if (a->fetch->op == PD_F_COMM) {
		a->type.kind = PD_T_STRING;
	} else {
		a->type.kind = PD_T_X;	/* the kernel's default: x64 on 64-bit */
		a->type.size = 8;
	}
	bool str = a->type.kind == PD_T_STRING || a->type.kind == PD_T_USTRING;
	if (a->fetch->op == PD_F_COMM && a->type.given && !str)
		return fail_at(c, colon + 1, "$comm is a string: use :string or no type");
	if (a->type.array && !is_memory_fetch(a->fetch))
		return fail_at(c, f, "an array needs a memory fetch (+OFFS(...), @ADDR, @SYM)");
	return 0;
}

/* Reject two args with one name, as the kernel does (the event's fields must differ). */
static int check_unique_names(struct cursor *c, const struct probe_def *def)
{
	for (size_t i = 0; i < def->nargs; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(def->args[i].name, def->args[j].name)) {
				c->err->col = def->args[i].col;
				snprintf(c->err->msg, sizeof(c->err->msg),
					 "argument name '%s' used twice", def->args[i].name);
				return -1;
			}
	return 0;
}

/*
 * The kernel's grammar starts with p or r (rN), alone or before ':'; perf
 * probe's starts with the place itself (vfs_read, ./app:handle).  A second
 * word holding a '/' is a user place (a C arg has none): then the first
 * word was meant as a head, and its errors are a head's.
 */
static bool has_head(const char *p)
{
	const char *w2 = word_end(p);
	while (isspace((unsigned char)*w2))
		w2++;
	if (*p != 'p' && *p != 'r')
		return *p == '\0' || (!memchr(p, '/', (size_t)(word_end(p) - p)) &&
				       memchr(w2, '/', (size_t)(word_end(w2) - w2)));
	const char *h = p + 1;
	if (*p == 'r')
		while (isdigit((unsigned char)*h))
			h++;
	if (*h == ':' || *h == '\0' || isspace((unsigned char)*h))
		return true;
	return !memchr(p, '/', (size_t)(word_end(p) - p)) &&
	       memchr(w2, '/', (size_t)(word_end(w2) - w2));
}

int pd_parse(const char *spec, struct probe_def *def, struct pd_error *err)
{
	struct cursor c = { spec, spec, err };
	memset(def, 0, sizeof(*def));
	memset(err, 0, sizeof(*err));
	while (isspace((unsigned char)*c.p))
		c.p++;
	if (has_head(c.p)) {
		if (parse_head(&c, def) < 0)
			goto fail;
	} else {
		def->cform = true;
		def->kind = PD_ENTRY;
	}
	if (parse_place(&c, def) < 0)
		goto fail;
	for (;;) {
		while (isspace((unsigned char)*c.p))
			c.p++;
		if (!*c.p)
			break;
		const char *end = word_end(c.p);
		if (def->nargs == PD_MAX_ARGS) {
			fail_at(&c, c.p, "more than %d arguments", PD_MAX_ARGS);
			goto fail;
		}
		def->args = xrealloc(def->args, (def->nargs + 1) * sizeof(*def->args));
		struct pd_arg *a = &def->args[def->nargs++];
		memset(a, 0, sizeof(*a));
		if (parse_arg(&c, c.p, end, def, a, def->nargs - 1) < 0)
			goto fail;
		c.p = end;
	}
	if (check_unique_names(&c, def) < 0)
		goto fail;
	def->text = xstrdup(spec);
	return 0;
fail:
	pd_free(def);
	return -1;
}

void pd_free(struct probe_def *def)
{
	for (size_t i = 0; i < def->nargs; i++) {
		free(def->args[i].name);
		free(def->args[i].text);
		fetch_free(def->args[i].fetch);
		if (def->args[i].cexpr) {
			cx_free(def->args[i].cexpr);
			free(def->args[i].cexpr);
		}
	}
	free(def->args);
	free(def->group);
	free(def->event);
	free(def->path);
	free(def->usdt_provider);
	free(def->usdt_name);
	free(def->module);
	free(def->symbol);
	free(def->text);
	free(def->src_file);
	free(def->note);
	memset(def, 0, sizeof(*def));
}

void pd_error_line(const char *spec, const struct pd_error *err, char *out, size_t outlen)
{
	snprintf(out, outlen, "'%s': column %d: %s", spec, err->col, err->msg);
}

const char *pd_default_group(const struct probe_def *def)
{
	return def->target == PD_USER ? "uprobes" : "kprobes";
}
