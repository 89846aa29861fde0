/*
 * strace's -e expressions, parsed into number sets over the syscall table.
 *
 * A set is a bitmap plus an "inverted" flag, so "!open" and "all" cost
 * nothing and a number the bitmap never saw (an unknown syscall, a large
 * fd) answers by the flag alone: an unknown syscall is traced under the
 * default "all", as strace does.  The grammar follows strace(1) 6.x; where
 * strace would only say "invalid system call", we say why and how to fix it.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/die.h"
#include "util/editdist.h"
#include "decoder.h"
#include "filter.h"
#include "table.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- number sets --------------------------------------------------------- */

struct nset {
	uint64_t *w;
	size_t nw;
	bool inv;	/* membership flipped: "!LIST", "all" */
};

static bool nset_has(const struct nset *s, long n)
{
	bool in = n >= 0 && (size_t)n / 64 < s->nw && (s->w[n / 64] >> (n % 64) & 1);

	return in != s->inv;
}

static void nset_add(struct nset *s, long n)
{
	size_t need = (size_t)n / 64 + 1;

	if (need > s->nw) {
		s->w = xrealloc(s->w, need * sizeof(*s->w));
		memset(s->w + s->nw, 0, (need - s->nw) * sizeof(*s->w));
		s->nw = need;
	}
	s->w[n / 64] |= 1ull << (n % 64);
}

static void nset_free(struct nset *s)
{
	free(s->w);
	*s = (struct nset){ 0 };
}

/* Replace *dst by *src, taking its memory. */
static void nset_move(struct nset *dst, struct nset *src)
{
	nset_free(dst);
	*dst = *src;
	*src = (struct nset){ 0 };
}

static bool nset_is_all(const struct nset *s)
{
	for (size_t i = 0; i < s->nw; i++)
		if (s->w[i])
			return false;
	return s->inv;
}

/* ---- the filter ---------------------------------------------------------- */

#define WHEN_INF 0xffff		/* "no last invocation", as in strace's when= */

struct inject_rule {
	struct sc_inject act;
	unsigned first, last, step;	/* invocations first, first+step, ... up to last */
};

struct sc_inject_counts {
	uint32_t n[SC_NR_MAX];
};

struct sc_filter {
	struct nset qual[SC_QUAL_RAW + 1];
	struct nset signals, status, reads, writes;
	struct inject_rule *rules;
	size_t nrules;
	int rule_of[SC_NR_MAX];		/* index into rules, -1: not injected */
	struct sc_inject_counts counts;
};

struct sc_filter *sc_filter_new(void)
{
	struct sc_filter *f = xcalloc(1, sizeof(*f));

	/* strace's defaults: trace, abbreviate and be verbose for all; raw for none */
	f->qual[SC_QUAL_TRACE].inv = true;
	f->qual[SC_QUAL_ABBREV].inv = true;
	f->qual[SC_QUAL_VERBOSE].inv = true;
	f->signals.inv = true;
	f->status.inv = true;
	for (size_t i = 0; i < SC_NR_MAX; i++)
		f->rule_of[i] = -1;
	return f;
}

void sc_filter_free(struct sc_filter *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(f->qual); i++)
		nset_free(&f->qual[i]);
	nset_free(&f->signals);
	nset_free(&f->status);
	nset_free(&f->reads);
	nset_free(&f->writes);
	for (size_t i = 0; i < f->nrules; i++) {
		free(f->rules[i].act.poke_enter);
		free(f->rules[i].act.poke_exit);
	}
	free(f->rules);
	free(f);
}

/* ---- errors -------------------------------------------------------------- */

struct ctx {
	const char *expr;	/* the whole -e argument, for messages */
	char *err;
	size_t errlen;
	const char *val;	/* the part after QUAL= */
	const char *inject;	/* "inject" or "fault" while parsing their options, else NULL */
	bool help;		/* a usage error strace follows with its -h hint */
};

bool sc_filter_strace_wording;

/*
 * strace's own words for the error (its test suite checks them): the thing
 * refused and nothing else, and "invalid inject argument 'VALUE'" for
 * anything wrong in inject= or fault= but their syscall set.
 */
static void strace_wording(struct ctx *c, const char *what)
{
	const char *q;
	if (c->inject)
		snprintf(c->err, c->errlen, "invalid %s argument '%s'", c->inject, c->val);
	else if (strncmp(what, "empty ", 6) == 0 && (q = strstr(what, " list")))
		snprintf(c->err, c->errlen, "invalid %.*s '%s'", (int)(q - what - 6), what + 6, c->val);
	else if (strncmp(what, "no system calls", 15) == 0)
		snprintf(c->err, c->errlen, "invalid system call ''");
	else if (strncmp(what, "unknown class ", 14) == 0)
		snprintf(c->err, c->errlen, "invalid system call %s", what + 14);
	else if (strncmp(what, "unknown qualifier", 17) == 0)
		snprintf(c->err, c->errlen, "invalid system call '%s'", c->expr);
	else
		snprintf(c->err, c->errlen, "%s", what);
}

/* "WHAT in -e EXPR (HINT)"; returns -1 for the caller to pass on. */
static int fail(struct ctx *c, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct ctx *c, const char *hint, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (c->errlen && sc_filter_strace_wording)
		strace_wording(c, what);
	else if (c->errlen)
		snprintf(c->err, c->errlen, "%s in -e %s%s%s%s", what, c->expr,
			 hint ? " (" : "", hint ? hint : "", hint ? ")" : "");
	return -1;
}

/* strtoll as strace reads numbers: the whole string, 0..max. */
static long long parse_uint(const char *s, unsigned long long max, const char *endings,
			    char **endp)
{
	char *end;
	long long v;

	if (!*s)
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || v < 0 || (unsigned long long)v > max || errno == ERANGE)
		return -1;
	if (*end && (!endings || !strchr(endings, *end)))
		return -1;
	if (endp)
		*endp = end;
	return v;
}

/* ---- syscall sets -------------------------------------------------------- */

static const struct syscall_class {
	const char *name;
	unsigned mask;		/* any of these bits; 0 with "all": every syscall */
	const char *extra;	/* a syscall strace counts in but our bits do not carry */
} classes[] = {
	{ "%desc", SC_DESC }, { "%file", SC_FILE }, { "%memory", SC_MEMORY },
	{ "%process", SC_PROCESS }, { "%creds", SC_CREDS }, { "%signal", SC_SIGNAL },
	{ "%ipc", SC_IPC }, { "%net", SC_NETWORK }, { "%network", SC_NETWORK },
	{ "%stat", SC_STAT }, { "%lstat", SC_LSTAT }, { "%fstat", SC_FSTAT },
	{ "%%stat", SC_STAT | SC_LSTAT | SC_FSTAT },
	{ "%statfs", SC_STATFS }, { "%fstatfs", SC_FSTATFS },
	/* ustat is statfs-like to strace, yet neither %statfs nor %fstatfs */
	{ "%%statfs", SC_STATFS | SC_FSTATFS, "ustat" },
	{ "%pure", SC_PURE }, { "%clock", SC_CLOCK },
	/* the spellings from before the %, still accepted by strace */
	{ "all", 0 }, { "desc", SC_DESC }, { "file", SC_FILE }, { "memory", SC_MEMORY },
	{ "process", SC_PROCESS }, { "signal", SC_SIGNAL }, { "ipc", SC_IPC },
	{ "network", SC_NETWORK },
};

#define CLASS_LIST "classes: %file %desc %process %network %signal %ipc %memory %creds " \
		   "%clock %stat %lstat %fstat %%stat %statfs %fstatfs %%statfs %pure"

static int add_class(const char *tok, struct nset *s)
{
	const struct syscall_class *cl = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(classes); i++)
		if (strcasecmp(classes[i].name, tok) == 0)
			cl = &classes[i];
	if (!cl)
		return 0;
	for (int nr = 0; nr < sc_table_len; nr++) {
		const struct sc_entry *e = sc_by_nr(nr);

		if (e && (cl->mask == 0 ? true : (e->classes & cl->mask) != 0))
			nset_add(s, nr);
	}
	if (cl->extra && sc_by_name(cl->extra))
		nset_add(s, sc_by_name(cl->extra)->nr);
	return 1;
}

static int add_regex(struct ctx *c, const char *re, struct nset *s)
{
	regex_t preg;
	char msg[128];
	int found = 0, rc = regcomp(&preg, re, REG_EXTENDED | REG_NOSUB);

	if (rc) {
		regerror(rc, &preg, msg, sizeof(msg));
		return fail(c, "a POSIX extended regular expression after '/'",
			    "invalid regular expression '%s': %s", re, msg);
	}
	for (int nr = 0; nr < sc_table_len; nr++) {
		const struct sc_entry *e = sc_by_nr(nr);

		if (e && regexec(&preg, e->name, 0, NULL, 0) == 0) {
			nset_add(s, nr);
			found = 1;
		}
	}
	regfree(&preg);
	return found;
}

static int add_number(const char *tok, struct nset *s)
{
	long long nr = parse_uint(tok, INT_MAX, NULL, NULL);

	if (nr < 0 || nr >= sc_table_len)
		return 0;
	nset_add(s, (long)nr);
	return 1;
}

static size_t edit_distance(const char *a, const char *b)
{
	return edit_distance_n(a, strlen(a), b, strlen(b));
}

/* The syscall name closest to a misspelt one, within two edits, or NULL. */
static const char *closest_name(const char *tok)
{
	const char *best = NULL;
	size_t best_d = 3;

	for (int nr = 0; nr < sc_table_len; nr++) {
		const struct sc_entry *e = sc_by_nr(nr);
		size_t d = e ? edit_distance(tok, e->name) : SIZE_MAX;

		if (d < best_d) {
			best_d = d;
			best = e->name;
		}
	}
	return best;
}

static int unknown_syscall(struct ctx *c, const char *tok)
{
	char hint[160];
	const char *near = closest_name(tok);

	if (tok[0] == '%')
		return fail(c, CLASS_LIST, "unknown class '%s'", tok);
	if (near)
		snprintf(hint, sizeof(hint), "did you mean '%s'? names are as in man 2 syscalls",
			 near);
	else
		snprintf(hint, sizeof(hint), "names are as in man 2 syscalls; "
			 "a leading '?' ignores unknown names");
	return fail(c, hint, "invalid system call '%s'", tok);
}

/* Strip strace's personality suffix: @64 is ours, @32 and @x32 are not traced. */
static int strip_personality(struct ctx *c, char *tok, bool *foreign)
{
	char *at = strrchr(tok, '@');

	*foreign = false;
	if (!at)
		return 0;
	if (strcmp(at + 1, "64") == 0) {
		*at = '\0';
		return 0;
	}
	if (strcmp(at + 1, "32") == 0 || strcmp(at + 1, "x32") == 0) {
		*foreign = true;
		return 0;
	}
	c->help = true;
	if (sc_filter_strace_wording)
		return fail(c, NULL, "incorrect personality designator '%s' in qualification '%s'",
			    at + 1, tok);
	return fail(c, "personalities are @64, @32 and @x32",
		    "unknown personality '%s' in '%s'", at + 1, tok);
}

/* One list item into s: 0 when done, -1 with the message written. */
/*
 * Names strace knows from its i386 table only: valid in trace= (they select
 * nothing in an x86_64 process), not typos.
 */
static const char *const i386_only[] = {
	"_llseek", "_newselect", "bdflush", "break", "chown32", "clock_adjtime64",
	"clock_getres_time64", "clock_gettime64", "clock_nanosleep_time64", "clock_settime64",
	"fadvise64_64", "fchown32", "fcntl64", "fstat64", "fstatat64", "fstatfs64", "ftime",
	"ftruncate64", "futex_time64", "getegid32", "geteuid32", "getgid32", "getgroups32",
	"getresgid32", "getresuid32", "getuid32", "gtty", "idle", "io_pgetevents_time64", "ipc",
	"lchown32", "lock", "lstat64", "mmap2", "mpx", "mq_timedreceive_time64",
	"mq_timedsend_time64", "nice", "oldfstat", "oldlstat", "oldolduname", "oldstat",
	"olduname", "ppoll_time64", "prof", "profil", "pselect6_time64", "readdir",
	"recvmmsg_time64", "rt_sigtimedwait_time64", "sched_rr_get_interval_time64",
	"semtimedop_time64", "sendfile64", "setfsgid32", "setfsuid32", "setgid32", "setgroups32",
	"setregid32", "setresgid32", "setresuid32", "setreuid32", "setuid32", "sgetmask",
	"sigaction", "signal", "sigpending", "sigprocmask", "sigreturn", "sigsuspend",
	"socketcall", "ssetmask", "stat64", "statfs64", "stime", "stty", "timer_gettime64",
	"timer_settime64", "timerfd_gettime64", "timerfd_settime64", "truncate64", "ugetrlimit",
	"ulimit", "umount", "utimensat_time64", "vm86", "vm86old", "waitpid",
};

static bool i386_name(const char *tok)
{
	for (size_t i = 0; i < ARRAY_SIZE(i386_only); i++)
		if (strcmp(i386_only[i], tok) == 0)
			return true;
	return false;
}

static int add_syscall_token(struct ctx *c, char *tok, struct nset *s)
{
	bool tolerant = false, foreign;
	int found;

	while (*tok == '?') {
		tok++;
		tolerant = true;
	}
	if (strip_personality(c, tok, &foreign) < 0)
		return -1;
	if (foreign) {
		/* strace takes them; in an x86_64 process they select nothing */
		if (tolerant || sc_filter_strace_wording)
			return 0;
		return fail(c, "tracekit traces x86_64 (@64) system calls only",
			    "system call '%s' of another personality", tok);
	}
	if (isdigit((unsigned char)*tok))
		found = add_number(tok, s);
	else if (*tok == '/')
		found = add_regex(c, tok + 1, s);
	else
		found = add_class(tok, s);
	if (found < 0)
		return -1;
	if (!found && !isdigit((unsigned char)*tok) && *tok != '/' && sc_by_name(tok)) {
		nset_add(s, sc_by_name(tok)->nr);
		found = 1;
	}
	if (found || tolerant || i386_name(tok))
		return 0;
	if (isdigit((unsigned char)*tok))
		return fail(c, "numbers are x86_64 syscall numbers below the table's end",
			    "invalid system call number '%s'", tok);
	if (*tok == '/')
		return fail(c, "a leading '?' accepts a pattern that matches nothing",
			    "no system call matches '%s'", tok + 1);
	return unknown_syscall(c, tok);
}

/* Leading '!'s invert what follows; "all" and "none" stand alone. */
static const char *parse_negation(const char *list, struct nset *s)
{
	while (*list == '!') {
		s->inv = !s->inv;
		list++;
	}
	if (strcmp(list, "all") == 0) {
		s->inv = !s->inv;
		return NULL;
	}
	if (strcmp(list, "none") == 0)
		return NULL;
	return list;
}

/* A syscall set as trace= takes it, into *out (untouched on error). */
static int parse_syscall_set(struct ctx *c, const char *list, struct nset *out)
{
	struct nset s = { 0 };
	const char *rest = parse_negation(list, &s);
	char *copy, *save = NULL;
	bool any = false;

	if (rest) {
		copy = xstrdup(rest);
		for (char *tok = strtok_r(copy, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			any = true;
			if (add_syscall_token(c, tok, &s) < 0) {
				free(copy);
				nset_free(&s);
				return -1;
			}
		}
		free(copy);
		if (!any) {
			nset_free(&s);
			return fail(c, "name syscalls or %classes, or say 'none'",
				    "empty system call list");
		}
	}
	nset_move(out, &s);
	return 0;
}

/* ---- signal, status and descriptor sets ---------------------------------- */

static long signal_number(const char *tok)
{
	if (isdigit((unsigned char)*tok))
		return parse_uint(tok, 255, NULL, NULL);
	return sc_sig_by_name(tok);
}

static const char *const status_names[] = {
	[SC_STATUS_SUCCESSFUL] = "successful",
	[SC_STATUS_FAILED] = "failed",
	[SC_STATUS_UNFINISHED] = "unfinished",
	[SC_STATUS_UNAVAILABLE] = "unavailable",
	[SC_STATUS_DETACHED] = "detached",
};

static long status_number(const char *tok)
{
	for (size_t i = 0; i < ARRAY_SIZE(status_names); i++)
		if (strcmp(status_names[i], tok) == 0)
			return (long)i;
	return -1;
}

static long fd_number(const char *tok)
{
	return parse_uint(tok, INT_MAX, NULL, NULL);
}

struct token_kind {
	const char *what;	/* "signal" */
	const char *hint;
	long (*number)(const char *tok);
};

static const struct token_kind signal_kind = {
	"signal", "a name such as SIGINT or INT, or a number", signal_number
};
static const struct token_kind status_kind = {
	"status", "statuses: successful failed unfinished unavailable detached", status_number
};
static const struct token_kind fd_kind = {
	"descriptor", "descriptors are numbers such as 0 or 3", fd_number
};

static int parse_token_set(struct ctx *c, const char *list, const struct token_kind *k,
			   struct nset *out)
{
	struct nset s = { 0 };
	const char *rest = parse_negation(list, &s);
	char *copy, *save = NULL;
	bool any = false;

	if (rest) {
		copy = xstrdup(rest);
		for (char *tok = strtok_r(copy, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			long n = k->number(tok);

			any = true;
			if (n < 0) {
				fail(c, k->hint, "invalid %s '%s'", k->what, tok);
				free(copy);
				nset_free(&s);
				return -1;
			}
			nset_add(&s, n);
		}
		free(copy);
		if (!any)
			return fail(c, k->hint, "empty %s list", k->what);
	}
	nset_move(out, &s);
	return 0;
}

/* ---- inject= and fault= -------------------------------------------------- */

enum {
	HAS_ERROR = 1, HAS_RETVAL = 2, HAS_SIGNAL = 4, HAS_DELAY_ENTER = 8,
	HAS_DELAY_EXIT = 16, HAS_SYSCALL = 32, HAS_POKE_ENTER = 64, HAS_POKE_EXIT = 128,
};

/* when=FIRST[..LAST][+[STEP]]: FIRST and STEP in 1..65535, LAST in FIRST..65534. */
static int parse_when(struct ctx *c, const char *val, struct inject_rule *r)
{
	static const char hint[] = "when=FIRST, FIRST+, FIRST+STEP, FIRST..LAST or "
				   "FIRST..LAST+STEP, "
				   "numbers from 1 to 65535";
	char *end;
	long long v = parse_uint(val, 0xffff, "+.", &end);

	if (v < 1)
		return fail(c, hint, "invalid when='%s'", val);
	r->first = (unsigned)v;
	r->last = WHEN_INF;
	if (*end == '.') {
		if (end[1] != '.')
			return fail(c, hint, "invalid when='%s'", val);
		v = parse_uint(end + 2, 0xffff, "+", &end);
		if (v < r->first || v == WHEN_INF)
			return fail(c, hint, "invalid when='%s'", val);
		r->last = (unsigned)v;
	}
	if (*end == '\0') {
		/* a lone FIRST is that one invocation; FIRST..LAST is every one between */
		r->step = r->last == WHEN_INF ? 0 : 1;
		return 0;
	}
	if (end[1] == '\0') {
		r->step = 1;
		return 0;
	}
	v = parse_uint(end + 1, 0xffff, NULL, NULL);
	if (v < 1)
		return fail(c, hint, "invalid when='%s'", val);
	r->step = (unsigned)v;
	return 0;
}

/*
 * A delay as strace takes it: a number, floating point allowed, with an
 * optional unit s, ms, us or ns (default us).  Stored in microseconds,
 * rounded up.
 */
static int parse_delay(const char *val, unsigned *us)
{
	static const struct { const char *sfx; double ns; } units[] = {
		{ "", 1e3 }, { "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 }, { "ns", 1 },
	};
	size_t float_len = strspn(val, "eE.-+0123456789");
	size_t int_len = strspn(val, "+0123456789");
	char *end = (char *)val;
	double v, ns = -1;

	errno = 0;
	if (float_len > int_len)
		v = strtod(val, &end);
	else
		v = (double)parse_uint(val, LLONG_MAX, "smun", &end);
	if (end == val || errno || v < 0)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (strcmp(end, units[i].sfx) == 0)
			ns = v * units[i].ns;
	if (ns < 0 || ns / 1e3 > UINT_MAX)
		return -1;
	*us = (unsigned)((ns + 999) / 1e3);
	return 0;
}

static int inject_error(struct ctx *c, const char *val, struct inject_rule *r, unsigned *has)
{
	int e;

	if (*has & (HAS_ERROR | HAS_RETVAL))
		return fail(c, "give one error= or retval=", "second error= or retval=");
	e = sc_err_by_name(val);
	if (e < 1)
		return fail(c, "an errno name such as ENOENT, or a number from 1 to 4095",
			    "invalid error '%s'", val);
	r->act.error = e;
	*has |= HAS_ERROR;
	return 0;
}

static int inject_retval(struct ctx *c, const char *val, struct inject_rule *r, unsigned *has)
{
	unsigned long long v;
	char *end;

	if (*has & (HAS_ERROR | HAS_RETVAL))
		return fail(c, "give one error= or retval=", "second error= or retval=");
	errno = 0;
	v = strtoull(val, &end, 0);
	if (end == val || *end || errno)
		return fail(c, "a number, decimal or 0x hexadecimal", "invalid retval '%s'", val);
	r->act.has_retval = true;
	r->act.retval = (int64_t)v;
	*has |= HAS_RETVAL;
	return 0;
}

static int inject_signal(struct ctx *c, const char *val, struct inject_rule *r, unsigned *has)
{
	long sig = signal_number(val);

	if (*has & HAS_SIGNAL)
		return fail(c, "give one signal=", "second signal=");
	if (sig < 1 || sig > 64)
		return fail(c, "a name such as SIGSEGV, or a number from 1 to 64",
			    "invalid signal '%s'", val);
	r->act.signal = (int)sig;
	*has |= HAS_SIGNAL;
	return 0;
}

static int inject_syscall(struct ctx *c, const char *val, struct inject_rule *r, unsigned *has)
{
	const struct sc_entry *e = sc_by_name(val);

	if (*has & HAS_SYSCALL)
		return fail(c, "give one syscall=", "second syscall=");
	if (!e || !(e->classes & SC_PURE))
		return fail(c, "only %pure syscalls such as getpid, which change nothing",
			    "syscall '%s' cannot be injected", val);
	r->act.syscall = e->nr;
	*has |= HAS_SYSCALL;
	return 0;
}

static int inject_delay(struct ctx *c, const char *val, bool enter, struct inject_rule *r,
			unsigned *has)
{
	unsigned flag = enter ? HAS_DELAY_ENTER : HAS_DELAY_EXIT;

	if (*has & flag)
		return fail(c, NULL, "second delay_%s=", enter ? "enter" : "exit");
	if (parse_delay(val, enter ? &r->act.delay_enter_us : &r->act.delay_exit_us) < 0)
		return fail(c, "a time such as 10, 2.5ms or 1s; the default unit is us",
			    "invalid delay '%s'", val);
	*has |= flag;
	return 0;
}

/* The part after "KEY=" when tok starts with it, else NULL. */
/* @argN=HEX[,@argM=HEX...]: N 1..7, each once, HEX an even number of hex digits, at most 2048. */
static bool poke_valid(const char *spec)
{
	if (!*spec)
		return false;
	char *copy = xstrdup(spec), *save = NULL;
	bool ok = true;
	unsigned seen = 0;
	for (char *t = strtok_r(copy, ",", &save); ok && t; t = strtok_r(NULL, ",", &save)) {
		size_t n = strlen(t);
		ok = n > 7 && strncmp(t, "@arg", 4) == 0 && t[4] >= '1' && t[4] <= '7' && t[5] == '=' &&
		     (n - 6) % 2 == 0 && n - 6 <= 2048 && strspn(t + 6, "0123456789abcdefABCDEF") == n - 6 &&
		     !(seen & (1u << (t[4] - '0')));
		if (ok)
			seen |= 1u << (t[4] - '0');
	}
	free(copy);
	return ok;
}

static int inject_poke(struct ctx *c, const char *val, bool enter, struct inject_rule *r,
		       unsigned *has)
{
	unsigned bit = enter ? HAS_POKE_ENTER : HAS_POKE_EXIT;
	if ((*has & bit) || !poke_valid(val))
		return fail(c, "write poke_enter=@argN=HEXBYTES[,@argM=...], N from 1 to 7",
			    "invalid %s '%s'", enter ? "poke_enter" : "poke_exit", val);
	*has |= bit;
	char **dst = enter ? &r->act.poke_enter : &r->act.poke_exit;
	*dst = xstrdup(val);
	return 0;
}

static const char *value_of(const char *tok, const char *key)
{
	size_t n = strlen(key);

	return strncmp(tok, key, n) == 0 && tok[n] == '=' ? tok + n + 1 : NULL;
}

static int inject_token(struct ctx *c, const char *tok, bool fault, struct inject_rule *r,
			unsigned *has)
{
	const char *v;

	if ((v = value_of(tok, "when")))
		return parse_when(c, v, r);
	if ((v = value_of(tok, "syscall")))
		return inject_syscall(c, v, r, has);
	if ((v = value_of(tok, "error")))
		return inject_error(c, v, r, has);
	if (!fault && (v = value_of(tok, "retval")))
		return inject_retval(c, v, r, has);
	if (!fault && (v = value_of(tok, "signal")))
		return inject_signal(c, v, r, has);
	if (!fault && (v = value_of(tok, "delay_enter")))
		return inject_delay(c, v, true, r, has);
	if (!fault && (v = value_of(tok, "delay_exit")))
		return inject_delay(c, v, false, r, has);
	if (!fault && (v = value_of(tok, "poke_enter")))
		return inject_poke(c, v, true, r, has);
	if (!fault && (v = value_of(tok, "poke_exit")))
		return inject_poke(c, v, false, r, has);
	if (fault)
		return fail(c, "fault= takes error=, syscall= and when=; inject= takes more",
			    "unknown fault option '%s'", tok);
	return fail(c, "inject= takes error=, retval=, signal=, syscall=, delay_enter=, "
		    "delay_exit= and when=", "unknown inject option '%s'", tok);
}

static void add_rule(struct sc_filter *f, const struct inject_rule *r, const struct nset *set)
{
	int idx = (int)f->nrules;

	f->rules = xrealloc(f->rules, (f->nrules + 1) * sizeof(*f->rules));
	f->rules[f->nrules++] = *r;
	for (int nr = 0; nr < sc_table_len; nr++) {
		if (nset_has(set, nr)) {
			f->rule_of[nr] = idx;
			f->counts.n[nr] = 0;
		}
	}
}

/* SET:OPTION:OPTION...; fault= is inject= with error=ENOSYS unless told. */
static int parse_inject(struct sc_filter *f, struct ctx *c, const char *arg, bool fault)
{
	struct inject_rule r = { .first = 1, .last = WHEN_INF, .step = 1 };
	struct nset set = { 0 };
	char *copy, *save = NULL, *set_text, *tok;
	unsigned has = 0;
	int rc = -1;

	r.act.syscall = -1;
	if (*arg == '\0' || *arg == ':')
		return fail(c, "write SET:OPTION..., e.g. openat:error=ENOENT",
			    "no system calls to %s", fault ? "fault" : "inject");
	copy = xstrdup(arg);
	set_text = copy;
	char *opts = strchr(copy, ':');
	if (opts)
		*opts++ = '\0';
	/* The set first, as strace: its errors are about system calls, the rest about options. */
	if (parse_syscall_set(c, set_text, &set) < 0)
		goto out;
	c->inject = fault ? "fault" : "inject";
	for (tok = opts ? strtok_r(opts, ":", &save) : NULL; tok; tok = strtok_r(NULL, ":", &save))
		if (inject_token(c, tok, fault, &r, &has) < 0)
			goto out;
	if (!(has & (HAS_ERROR | HAS_RETVAL | HAS_SIGNAL | HAS_DELAY_ENTER | HAS_DELAY_EXIT |
		     HAS_POKE_ENTER | HAS_POKE_EXIT))) {
		if (!fault) {
			fail(c, "add :error=, :retval=, :signal=, :delay_enter= or :delay_exit=",
			     "nothing to inject");
			goto out;
		}
		r.act.error = ENOSYS;
	}
	add_rule(f, &r, &set);
	rc = 0;
out:
	if (rc < 0) {
		free(r.act.poke_enter);
		free(r.act.poke_exit);
	}
	nset_free(&set);
	free(copy);
	return rc;
}

/* ---- one -e argument ----------------------------------------------------- */

enum qual_kind { Q_SYSCALLS, Q_SIGNAL, Q_STATUS, Q_READ, Q_WRITE, Q_INJECT, Q_FAULT };

static const struct qualifier {
	const char *name;
	enum qual_kind kind;
	enum sc_qual set;
} qualifiers[] = {
	{ "trace", Q_SYSCALLS, SC_QUAL_TRACE }, { "t", Q_SYSCALLS, SC_QUAL_TRACE },
	{ "abbrev", Q_SYSCALLS, SC_QUAL_ABBREV }, { "a", Q_SYSCALLS, SC_QUAL_ABBREV },
	{ "verbose", Q_SYSCALLS, SC_QUAL_VERBOSE }, { "v", Q_SYSCALLS, SC_QUAL_VERBOSE },
	{ "raw", Q_SYSCALLS, SC_QUAL_RAW }, { "x", Q_SYSCALLS, SC_QUAL_RAW },
	{ "signal", Q_SIGNAL }, { "signals", Q_SIGNAL }, { "s", Q_SIGNAL },
	{ "status", Q_STATUS },
	{ "read", Q_READ }, { "reads", Q_READ }, { "r", Q_READ },
	{ "write", Q_WRITE }, { "writes", Q_WRITE }, { "w", Q_WRITE },
	{ "inject", Q_INJECT }, { "fault", Q_FAULT },
};

/* strace qualifiers we do not implement: refused by name rather than misread. */
static const char *const unsupported[] = {
	"quiet", "silent", "silence", "q", "decode-fd", "decode-fds",
	"decode-pid", "decode-pids", "secontext",
};

static const struct qualifier *find_qualifier(const char *expr, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(qualifiers); i++)
		if (strlen(qualifiers[i].name) == len &&
		    strncmp(qualifiers[i].name, expr, len) == 0)
			return &qualifiers[i];
	return NULL;
}

/* A word before '=' that is no qualifier: a syscall name never holds '='. */
static int bad_qualifier(struct ctx *c, const char *expr, size_t len)
{
	/* run as strace: the words of a strace built without SELinux support */
	if (sc_filter_strace_wording && len == 9 && !strncmp(expr, "secontext", 9)) {
		snprintf(c->err, c->errlen, "SELinux context printing (--secontext option) is not "
			 "supported by this build of strace");
		return -1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(unsupported); i++)
		if (strlen(unsupported[i]) == len && strncmp(unsupported[i], expr, len) == 0)
			return fail(c, "tracekit does not implement it yet",
				    "strace's qualifier '%.*s' is not supported", (int)len, expr);
	return fail(c, "qualifiers: trace abbrev verbose raw signal status read write inject "
		    "fault", "unknown qualifier '%.*s'", (int)len, expr);
}

static int parse_expr(struct sc_filter *f, struct ctx *c);

int sc_filter_parse(struct sc_filter *f, const char *expr, char *err, size_t errlen)
{
	struct ctx c = { expr, err, errlen, NULL, NULL, false };
	int rc = parse_expr(f, &c);
	if (rc < 0 && c.help)
		rc = -2;
	/* Errors quote the input: keep them one printable line whatever was typed. */
	for (char *p = err; rc < 0 && errlen && *p; p++)
		if ((unsigned char)*p < ' ' || *p == 0x7f)
			*p = '?';
	return rc;
}

static int parse_expr(struct sc_filter *f, struct ctx *c)
{
	const char *expr = c->expr;
	size_t len = strcspn(expr, "=");
	const struct qualifier *q = expr[len] ? find_qualifier(expr, len) : NULL;
	const char *val = q ? expr + len + 1 : expr;

	c->val = val;
	if (c->errlen)
		c->err[0] = '\0';
	if (!q && expr[len])
		return bad_qualifier(c, expr, len);
	switch (q ? q->kind : Q_SYSCALLS) {
	case Q_SYSCALLS:
		return parse_syscall_set(c, val, &f->qual[q ? q->set : SC_QUAL_TRACE]);
	case Q_SIGNAL:
		return parse_token_set(c, val, &signal_kind, &f->signals);
	case Q_STATUS:
		return parse_token_set(c, val, &status_kind, &f->status);
	case Q_READ:
		return parse_token_set(c, val, &fd_kind, &f->reads);
	case Q_WRITE:
		return parse_token_set(c, val, &fd_kind, &f->writes);
	case Q_INJECT:
		return parse_inject(f, c, val, false);
	case Q_FAULT:
		return parse_inject(f, c, val, true);
	}
	return -1;
}

/* ---- queries ------------------------------------------------------------- */

bool sc_filter_traced(const struct sc_filter *f, long nr)
{
	/* As strace: a number no syscall has is always shown (syscall_0x1c3(...)). */
	const struct sc_entry *e = sc_by_nr(nr);
	if (!e || !e->name)
		return true;
	return nset_has(&f->qual[SC_QUAL_TRACE], nr);
}

bool sc_filter_in(const struct sc_filter *f, enum sc_qual q, long nr)
{
	return nset_has(&f->qual[q], nr);
}

bool sc_filter_signal(const struct sc_filter *f, int sig)
{
	return nset_has(&f->signals, sig);
}

bool sc_filter_dump_fd(const struct sc_filter *f, bool write, int fd)
{
	return nset_has(write ? &f->writes : &f->reads, fd);
}

static bool nset_any(const struct nset *s)
{
	if (s->inv)
		return true;
	for (size_t i = 0; i < s->nw; i++)
		if (s->w[i])
			return true;
	return false;
}

bool sc_filter_dumps(const struct sc_filter *f)
{
	return f && (nset_any(&f->reads) || nset_any(&f->writes));
}

bool sc_filter_status_kind(const struct sc_filter *f, enum sc_status st)
{
	return nset_has(&f->status, st);
}

bool sc_filter_status(const struct sc_filter *f, int64_t ret, bool finished)
{
	if (!finished)
		return sc_filter_status_kind(f, SC_STATUS_UNFINISHED);
	if (ret < 0 && ret > -4096)
		return sc_filter_status_kind(f, SC_STATUS_FAILED);
	return sc_filter_status_kind(f, SC_STATUS_SUCCESSFUL);
}

bool sc_filter_status_all(const struct sc_filter *f)
{
	for (long st = 0; st < (long)ARRAY_SIZE(status_names); st++)
		if (!nset_has(&f->status, st))
			return false;
	return true;
}

bool sc_filter_injects(const struct sc_filter *f, long nr)
{
	return nr >= 0 && nr < SC_NR_MAX && f->rule_of[nr] >= 0;
}

int sc_filter_traced_list(const struct sc_filter *f, int *nrs, int max)
{
	int n = 0;

	for (int nr = 0; nr < sc_table_len; nr++) {
		if (!sc_by_nr(nr) || !(sc_filter_traced(f, nr) || sc_filter_injects(f, nr)))
			continue;
		if (n < max)
			nrs[n] = nr;
		n++;
	}
	return n;
}

/* Whether invocation k (from 1) is one that when= picks. */
static bool when_picks(const struct inject_rule *r, uint32_t k)
{
	if (k < r->first || (r->last != WHEN_INF && k > r->last))
		return false;
	if (r->step == 0)
		return k == r->first;
	return (k - r->first) % r->step == 0;
}

struct sc_inject_counts *sc_inject_counts_new(void)
{
	return xcalloc(1, sizeof(struct sc_inject_counts));
}

void sc_inject_counts_free(struct sc_inject_counts *c)
{
	free(c);
}

const struct sc_inject *sc_filter_inject_counted(const struct sc_filter *f,
						 struct sc_inject_counts *c, long nr)
{
	const struct inject_rule *r;

	if (!sc_filter_injects(f, nr))
		return NULL;
	r = &f->rules[f->rule_of[nr]];
	/* counting stops at the top: when= numbers end at 65535 anyway */
	if (c->n[nr] < UINT32_MAX)
		c->n[nr]++;
	return when_picks(r, c->n[nr]) ? &r->act : NULL;
}

const struct sc_inject *sc_filter_inject(struct sc_filter *f, long nr)
{
	return sc_filter_inject_counted(f, &f->counts, nr);
}

bool sc_filter_traces_all(const struct sc_filter *f)
{
	return nset_is_all(&f->qual[SC_QUAL_TRACE]);
}
