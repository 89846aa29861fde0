/*
 * syzkaller-compatible titles and guilty frames.  The report is viewed as
 * syzkaller views it: from the headline on, lines of other printk callers and
 * "? " frames left out, cut before the next report when the log has no caller
 * ids, and a panic or lockdep splat that panic_on_warn/oops printing adds
 * after a long enough report left out too.  Then the group of the headline's
 * header picks the format whose title matches earliest (syz_table.c), and
 * its stack recipe picks the frame.
 */
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "oops/oops.h"
#include "oops/syz.h"
#include "util/die.h"
#include "util/strbuf.h"

#define MAXCAP 12
#define SYZ_MAX_LINES 3000	/* lines of the log a report is looked for in, from its headline */

/* ---- compiled regexes, cached by the address of their source -------------- */

struct rx_slot {
	const void *key;
	regex_t re;
	bool ok;
};
static struct rx_slot rx_cache[1024];
#define RX_SLOTS (sizeof(rx_cache) / sizeof(rx_cache[0]))

/* The slot of key: its own, or the free one it gets; NULL when the cache is full. */
static struct rx_slot *rx_slot(const void *key)
{
	size_t h = ((uintptr_t)key >> 3) % RX_SLOTS;
	for (size_t n = 0; n < RX_SLOTS; n++) {
		struct rx_slot *s = &rx_cache[(h + n) % RX_SLOTS];
		if (s->key == key || !s->key)
			return s;
	}
	return NULL;
}

static const regex_t *rx_compiled(struct rx_slot *s, const void *key, const char *src)
{
	if (!s)
		return NULL;
	if (!s->key) {
		s->key = key;
		s->ok = regcomp(&s->re, src, REG_EXTENDED) == 0;
	}
	return s->ok ? &s->re : NULL;
}

static const regex_t *rx(const char *src)
{
	return rx_compiled(rx_slot(src), src, src);
}

/* A regex of alternatives: list joined by '|', plus extra; cached by key. */
static const regex_t *rx_alternatives(const void *key, const char *const *list, const char *extra)
{
	struct rx_slot *s = rx_slot(key);
	if (!s || s->key)
		return rx_compiled(s, key, NULL);
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; list && list[i]; i++)
		sb_printf(&sb, "%s(%s)", sb.len ? "|" : "", list[i]);
	if (extra)
		sb_printf(&sb, "%s(%s)", sb.len ? "|" : "", extra);
	const regex_t *re = rx_compiled(s, key, sb_str(&sb));
	sb_free(&sb);
	return re;
}

static bool rx_match(const regex_t *re, const char *s, regmatch_t *m, size_t nm)
{
	return re && regexec(re, s, nm, m, 0) == 0;
}

/* ---- headers ----------------------------------------------------------- */

const struct syz_group *syz_match_header(const char *line)
{
	for (size_t i = 0; i < syz_ngroups; i++) {
		const struct syz_group *g = &syz_groups[i];
		if (!strstr(line, g->header))
			continue;
		if (g->suppress && rx_match(rx(g->suppress), line, NULL, 0))
			continue;
		return g;
	}
	return NULL;
}

bool syz_header_stands_alone(const char *line, const struct syz_group *g)
{
	const char *h = strstr(line, g->header);
	size_t n = strlen(g->header);
	if (!h)
		return false;
	return g->header[n - 1] != ':' || h[n] == ' ' || h[n] == '\0';
}

enum oops_kind syz_line_kind(const char *line, const struct syz_group *g)
{
	for (size_t k = 0; k < g->nformats; k++)
		if (g->formats[k].kind != OK_NONE && rx_match(rx(g->formats[k].title), line, NULL, 0))
			return g->formats[k].kind;
	return OK_OTHER;
}

bool syz_is_continuation(const char *line)
{
	for (size_t i = 0; syz_report_continuations[i]; i++)
		if (strstr(line, syz_report_continuations[i]))
			return true;
	return false;
}

/* ---- the view ------------------------------------------------------------ */

struct view {
	const char **v;
	size_t n;		/* up to the next report when lines carry no caller id */
};

static bool questionable(const struct oops_line *l)
{
	if (!l->prefixed || strstr(l->text, "<EOI>"))
		return false;
	const char *t = l->text;
	size_t n = strlen(t);
	/* powerpc marks them at the end */
	if (n >= 13 && !strcmp(t + n - 13, " (unreliable)"))
		return true;
	while (*t == ' ')
		t++;
	return strstr(l->text, " ? ") || !strncmp(t, "? ", 2);
}

static void build_view(const struct oops_lines *ls, size_t start, struct view *w)
{
	const struct oops_line *head = &ls->v[start];
	/* Without caller ids a report ends where the next one starts. */
	bool cut = !head->caller[0];
	size_t min_lines = strstr(head->text, "BUG: KMSAN:") ? 16 : 22;
	size_t text_lines = 0;
	bool skip_rest = false, cpu_backtrace = false;
	/* No report is that long; the cap keeps a log of many reports from costing n^2. */
	size_t stop = ls->n - start > SYZ_MAX_LINES ? start + SYZ_MAX_LINES : ls->n;
	memset(w, 0, sizeof(*w));
	w->v = xmalloc((stop - start) * sizeof(*w->v));
	for (size_t i = start; i < stop; i++) {
		const struct oops_line *l = &ls->v[i];
		const char *t = l->text;
		if (i > start && cut &&
		    ((syz_match_header(t) && !syz_is_continuation(t)) ||
		     strstr(t, "vmalloc: allocation failure:") ||
		     strstr(t, "FAULT_INJECTION: forcing a failure") ||
		     strstr(t, "FAULT_FLAG_ALLOW_RETRY missing")))
			break;	/* the next report: nothing after it is looked at */
		/* With caller ids, a line of another caller or of none is another message's. */
		if (i > start && head->caller[0] && strcmp(l->caller, head->caller) &&
		    !(cpu_backtrace && l->caller[0] == 'C'))
			continue;
		if (i > start && questionable(l))
			continue;
		text_lines++;
		if (strstr(t, "Disabling lock debugging due to kernel taint")) {
			if (i > start)
				continue;
		} else if (strstr(t, "Sending NMI from CPU")) {
			cpu_backtrace = true;
		} else if ((strstr(t, "Kernel panic - not syncing") ||
			    strstr(t, "WARNING: possible circular locking dependency detected")) &&
			   text_lines > min_lines) {
			skip_rest = true;
			if (i > start)
				continue;
		}
		if (i > start && skip_rest)
			break;
		w->v[w->n++] = t;
	}
}

/* ---- frames -------------------------------------------------------------- */

/*
 * "  [<ffffffff81>] [<..>] func+0x1/0x2": the function, as syzkaller's frame
 * lines; and "func (file.c:12)" as decode_stacktrace.sh prints frames.
 */
static bool frame_line(const char *s, char *fn, size_t fnsz)
{
	while (*s == ' ')
		s++;
	for (int k = 0; k < 2 && *s == '['; k++) {
		const char *e = strchr(s, ']');
		if (!e || e[1] != ' ')
			break;
		s = e + 2;
	}
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
	bool decoded = !strncmp(s + n, " (", 2) && strchr(s + n, ':');
	if (!n || (s[n] != '.' && s[n] != '+' && !decoded))
		return false;
	snprintf(fn, fnsz, "%.*s", (int)n, s);
	return true;
}

struct frames {
	char **v;
	size_t n;
};

static void add_unless_skipped(struct frames *f, const regex_t *skip, const char *s, size_t n);

/* arm: "[<80b10c70>] (memset) from [<8062eec8>] (n_tty_set_termios+0x1c/0x60)": both. */
static bool arm_frame_line(const char *s, struct frames *f, const regex_t *skip)
{
	static const char src[] = "^ *\\[<?[0-9a-fx]+>?\\] \\(([a-zA-Z0-9_.]+)\\) from "
				  "\\[<?[0-9a-fx]+>?\\] \\(([a-zA-Z0-9_]+)[.+]";
	regmatch_t m[3];
	if (!rx_match(rx(src), s, m, 3))
		return false;
	for (int g = 1; g <= 2; g++)
		add_unless_skipped(f, skip, s + m[g].rm_so, (size_t)(m[g].rm_eo - m[g].rm_so));
	return true;
}

static void frames_add(struct frames *f, const char *s, size_t n)
{
	f->v = xrealloc(f->v, (f->n + 1) * sizeof(*f->v));
	f->v[f->n++] = strndup(s, n);
}

static void frames_clear(struct frames *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->v[i]);
	free(f->v);
	f->v = NULL;
	f->n = 0;
}

static void add_unless_skipped(struct frames *f, const regex_t *skip, const char *s, size_t n)
{
	char fn[256];
	snprintf(fn, sizeof(fn), "%.*s", (int)n, s);
	if (!rx_match(skip, fn, NULL, 0))
		frames_add(f, s, n);
}

/* The shortest name after taking one syscall-wrapper prefix off. */
static const char *stripped(const char *fn)
{
	const char *best = fn;
	for (size_t i = 0; syz_strip_prefixes[i]; i++) {
		size_t n = strlen(syz_strip_prefixes[i]);
		if (!strncmp(fn, syz_strip_prefixes[i], n) && strlen(fn + n) < strlen(best))
			best = fn + n;
	}
	return best;
}

/* Stalls: the frame above the first dispatcher (syscall entry, work item ...). */
static long stall_frame(const struct frames *f, const char **name)
{
	static const char key = 0;
	const regex_t *anchors = rx_alternatives(&key, syz_stall_anchors, NULL);
	long prev = 0;
	for (size_t i = 0; i < f->n; i++) {
		const char *fn = stripped(f->v[i]);
		if (rx_match(anchors, fn, NULL, 0)) {
			if (strstr(fn, "smp_call_function")) {
				*name = "smp_call_function";
				return (long)i;
			}
			*name = stripped(f->v[prev]);
			return prev;
		}
		prev = (long)i;
	}
	return -1;
}

/* Hung tasks: the waits on RCU or RTNL are grouped; else the first frame not waiting. */
static long hang_frame(const struct frames *f, const char **name)
{
	static const char *const waits[] = { "sched", "_lock", "_slowlock", "down", "rwsem", "completion",
		"kthread", "wait", "synchronize", "context_switch", "__switch_to", "cancel_delayed_work",
		"rcu_barrier" };
	for (size_t i = 0; i < f->n; i++) {
		const char *fn = stripped(f->v[i]);
		if (strstr(fn, "rtnl_lock")) {
			*name = fn;
			return (long)i;
		}
		if (strstr(fn, "synchronize_rcu") || strstr(fn, "synchronize_srcu") ||
		    strstr(fn, "synchronize_net") || strstr(fn, "synchronize_sched")) {
			*name = "synchronize_rcu";
			return (long)i;
		}
	}
	for (size_t i = 0; i < f->n; i++) {
		const char *fn = stripped(f->v[i]);
		bool wait = false;
		for (size_t k = 0; k < sizeof(waits) / sizeof(waits[0]) && !wait; k++)
			wait = strstr(fn, waits[k]) != NULL;
		if (!wait) {
			*name = fn;
			return (long)i;
		}
	}
	return -1;
}

struct result {
	char *canonical[3];	/* per stack segment: the name the title uses */
	char *raw[3];		/* the frame as printed */
	size_t n;
	bool ok;
};

static void take_key_frame(const struct syz_format *fmt, struct frames *f, struct result *res)
{
	const char *name = NULL;
	long idx = -1;
	if (fmt->extract == SYZ_STALL)
		idx = stall_frame(f, &name);
	else if (fmt->extract == SYZ_HANG)
		idx = hang_frame(f, &name);
	else if (f->n)
		idx = 0, name = stripped(f->v[0]);
	if (res->n < 3) {
		res->canonical[res->n] = xstrdup(idx >= 0 ? name : "corrupted");
		res->raw[res->n] = idx >= 0 ? xstrdup(f->v[idx]) : NULL;
		res->n++;
	}
	if (idx < 0)
		res->ok = false;
	frames_clear(f);
}

static const char stack_start_src[] =
	"Call [Tt]race|Allocated:|Allocated by task [0-9]+:|Freed:|Freed by task [0-9]+:"
	"|[^k] backtrace( \\(crc [0-9a-fA-F]*\\))?:|Backtrace:|Uninit was stored to memory at"
	"|status: [0-9a-f]{16} badaddr: [0-9a-f]{16} cause: [0-9a-f]{16}";
static const char corrupted_src[] =
	"^( \\[<?(0x)?[0-9a-f]+>?\\])? should_fail(slab)?(\\.[a-z0-9.]+)?\\+0x";

static void part_frames(const struct syz_part *p, const char *line, const regmatch_t *m,
			struct frames *f, const regex_t *skip)
{
	int groups[] = { p->fn, p->fn2 };
	for (size_t i = 0; i < 2; i++) {
		int g = groups[i];
		if (g && m[g].rm_so >= 0)
			add_unless_skipped(f, skip, line + m[g].rm_so, (size_t)(m[g].rm_eo - m[g].rm_so));
	}
}

/* syzkaller's walk: parts in order over the lines from the title on; STACK takes frames. */
static void walk_parts(const struct syz_format *fmt, const struct syz_part *parts, size_t nparts,
		       const char *const *lines, size_t nlines, const regex_t *skip, struct result *res)
{
	const regex_t *stack_start = rx(stack_start_src), *corrupted = rx(corrupted_src);
	struct frames f = { 0 };
	size_t li = 0;
	int nstacks = 0;
	regmatch_t m[MAXCAP];
	memset(res, 0, sizeof(*res));
	res->ok = true;
	for (size_t pi = 0;; pi++) {
		if (pi == nparts || (!parts[pi].re && nstacks > 0))
			take_key_frame(fmt, &f, res);
		if (pi == nparts)
			break;
		const struct syz_part *p = &parts[pi];
		if (!p->re) {
			nstacks++;
			while (li < nlines) {
				const char *ln = lines[li++];
				if (rx_match(corrupted, ln, NULL, 0)) {
					res->ok = false;
					break;
				}
				if (rx_match(stack_start, ln, NULL, 0))
					break;
				if (pi + 1 < nparts && parts[pi + 1].re &&
				    rx_match(rx(parts[pi + 1].re), ln, m, MAXCAP)) {
					part_frames(&parts[pi + 1], ln, m, &f, skip);
					pi++;
					break;
				}
				char fn[256];
				if (frame_line(ln, fn, sizeof(fn)))
					add_unless_skipped(&f, skip, fn, strlen(fn));
				else
					arm_frame_line(ln, &f, skip);
			}
		} else {
			while (li < nlines) {
				const char *ln = lines[li++];
				if (rx_match(corrupted, ln, NULL, 0)) {
					res->ok = false;
					break;
				}
				if (rx_match(rx(p->re), ln, m, MAXCAP)) {
					part_frames(p, ln, m, &f, skip);
					break;
				}
			}
		}
	}
	frames_clear(&f);
}

static void result_free(struct result *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->canonical[i]);
		free(r->raw[i]);
	}
	memset(r, 0, sizeof(*r));
}

/* ---- titles ---------------------------------------------------------------- */

struct caps {
	char *v[MAXCAP * 3];
	size_t n;
};

static void caps_add(struct caps *c, const char *line, const regmatch_t *m, size_t nsub)
{
	for (size_t i = 1; i <= nsub && i < MAXCAP && c->n < sizeof(c->v) / sizeof(c->v[0]); i++)
		c->v[c->n++] = m[i].rm_so >= 0 ? strndup(line + m[i].rm_so, (size_t)(m[i].rm_eo - m[i].rm_so))
					       : xstrdup("");
}

static void caps_free(struct caps *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i]);
	c->n = 0;
}

/* The captures of the title line, cont, after and after2; false when one fails. */
static bool format_captures(const struct syz_format *f, const struct view *w, size_t lim, size_t at,
			    struct caps *c)
{
	regmatch_t m[MAXCAP];
	const regex_t *re = rx(f->title);
	if (!rx_match(re, w->v[at], m, MAXCAP))
		return false;
	caps_add(c, w->v[at], m, re->re_nsub);
	if (f->cont) {
		re = rx(f->cont);
		if (!rx_match(re, w->v[at], m, MAXCAP))
			return false;
		caps_add(c, w->v[at], m, re->re_nsub);
	}
	const char *afters[] = { f->after, f->after2 };
	size_t li = at + 1;
	for (size_t k = 0; k < 2 && afters[k]; k++) {
		re = rx(afters[k]);
		while (li < lim && !rx_match(re, w->v[li], m, MAXCAP))
			li++;
		if (li >= lim)
			return false;
		caps_add(c, w->v[li], m, re->re_nsub);
		li++;
	}
	return true;
}

static void format_title(const char *fmt, char **args, size_t nargs, struct strbuf *out)
{
	for (const char *p = fmt; *p; p++) {
		if (*p == '%' && p[1] >= '1' && p[1] <= '9') {
			size_t i = (size_t)(p[1] - '1');
			sb_add(out, i < nargs ? args[i] : "%!v(MISSING)");
			p++;
		} else {
			sb_addc(out, *p);
		}
	}
}

/* Go-style replace-all with \1..\9 in repl, repeated until nothing changes. */
static void replace_all(struct strbuf *s, const char *src, const char *repl)
{
	const regex_t *re = rx(src);
	if (!re)
		return;
	for (int round = 0; round < 16; round++) {
		struct strbuf out = STRBUF_INIT;
		const char *p = sb_str(s);
		regmatch_t m[10];
		bool changed = false;
		while (*p && regexec(re, p, 10, m, p == sb_str(s) ? 0 : REG_NOTBOL) == 0 && m[0].rm_eo > 0) {
			sb_addn(&out, p, (size_t)m[0].rm_so);
			for (const char *r = repl; *r; r++) {
				if (*r == '\\' && r[1] >= '0' && r[1] <= '9') {
					int g = r[1] - '0';
					if (m[g].rm_so >= 0)
						sb_addn(&out, p + m[g].rm_so, (size_t)(m[g].rm_eo - m[g].rm_so));
					r++;
				} else {
					sb_addc(&out, *r);
				}
			}
			changed = true;
			p += m[0].rm_eo;
		}
		sb_add(&out, p);
		bool same = !strcmp(sb_str(&out), sb_str(s));
		sb_reset(s);
		sb_add(s, sb_str(&out));
		sb_free(&out);
		if (!changed || same)
			break;
	}
}

/*
 * What syzkaller does to every title: C++ names demangled, no addresses,
 * numbers, line numbers or offsets.
 */
static char *sanitize(const char *title)
{
	struct strbuf s = STRBUF_INIT;
	char *demangled = oops_demangle_names(title);
	sb_add(&s, demangled);
	free(demangled);
	replace_all(&s, "syz-executor\\.?[0-9]+((/|:)[0-9]+)?", "syz-executor");
	replace_all(&s, "syzkaller[0-9]+((/|:)[0-9]+)?", "syzkaller");
	replace_all(&s, "([^a-zA-Z0-9])(0x)?[0-9a-f]{6,}", "\\1ADDR");
	replace_all(&s, "[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}", "IP");
	replace_all(&s, "(\\.[a-zA-Z0-9_]+)(:[0-9]+)+", "\\1:LINE");
	replace_all(&s, "([a-zA-Z][a-zA-Z0-9_.]+)\\+0x[0-9a-z]+/0x[0-9a-z]+", "\\1");
	replace_all(&s, "CPU#[0-9]+", "CPU");
	replace_all(&s, "([^0-9A-Za-z_])([0-9]+)([^0-9A-Za-z_]|$)", "\\1NUM\\3");
	replace_all(&s, "[0-9]{7,}", "NUM");
	struct strbuf out = STRBUF_INIT;
	char prev = ' ';
	const char *p = sb_str(&s);
	for (size_t i = 0; p[i] && i < 120; i++) {
		char c = p[i] == '\t' ? ' ' : p[i];
		if ((unsigned char)c < 0x20 || (unsigned char)c >= 0x7f)
			continue;
		if (c == ' ' && prev == ' ')
			continue;
		sb_addc(&out, c);
		prev = c;
	}
	while (out.len && sb_str(&out)[out.len - 1] == ' ')
		sb_truncate(&out, out.len - 1);
	char *r = xstrdup(sb_str(&out));
	sb_free(&out);
	sb_free(&s);
	return r;
}

/* The format of the group matching earliest (line, then column) within lim lines. */
static const struct syz_format *pick_format(const struct syz_group *g, const struct view *w, size_t lim,
					    size_t *at, struct caps *caps, bool *matched)
{
	const struct syz_format *best = NULL;
	size_t best_line = SIZE_MAX, best_col = SIZE_MAX;
	*matched = false;
	for (size_t k = 0; k < g->nformats; k++) {
		const struct syz_format *f = &g->formats[k];
		const regex_t *re = rx(f->title);
		regmatch_t m[1];
		size_t i = 0;
		/* Every title regex holds its group's header: a cheap test first. */
		while (i < lim && !(strstr(w->v[i], g->header) && rx_match(re, w->v[i], m, 1)))
			i++;
		if (i >= lim)
			continue;
		size_t col = (size_t)m[0].rm_so;
		if (i > best_line || (i == best_line && col > best_col) ||
		    (i == best_line && col == best_col && best))
			continue;
		if (i < best_line || col < best_col) {
			best = NULL;
			caps_free(caps);
		}
		best_line = i;
		best_col = col;
		*matched = true;
		struct caps c = { 0 };
		if (!format_captures(f, w, lim, i, &c)) {
			caps_free(&c);
			continue;
		}
		*caps = c;
		best = f;
		*at = i;
	}
	return best;
}

static bool title_in(const struct syz_group *g, const struct view *w, size_t lim, const char *fallback,
		     struct syz_title *t)
{
	struct caps caps = { 0 };
	size_t at = 0;
	bool matched;
	const struct syz_format *f = pick_format(g, w, lim, &at, &caps, &matched);
	if (!f) {
		caps_free(&caps);
		if (!matched)
			return false;
		t->corrupted = true;
		return false;
	}
	struct result res = { .ok = true };
	if (f->nparts) {
		const regex_t *skip = rx_alternatives(f, syz_skip_frames, f->skip);
		walk_parts(f, f->parts, f->nparts, w->v + at, lim - at, skip, &res);
		if (!res.ok && f->nparts2) {
			result_free(&res);
			walk_parts(f, f->parts2, f->nparts2, w->v + at, lim - at, skip, &res);
		}
	}
	char *args[MAXCAP * 3 + 3];
	size_t nargs = 0;
	for (size_t i = 0; i < caps.n; i++)
		args[nargs++] = caps.v[i];
	/* Where the recipe finds no frame syzkaller says "corrupted"; our guilty frame is better. */
	for (size_t i = 0; i < res.n; i++)
		args[nargs++] = !res.raw[i] && fallback ? (char *)stripped(fallback) : res.canonical[i];
	struct strbuf sb = STRBUF_INIT;
	format_title(f->fmt, args, nargs, &sb);
	t->title = sanitize(sb_str(&sb));
	sb_free(&sb);
	t->kind = f->kind;
	t->corrupted = t->corrupted || f->corrupted || !res.ok;
	for (size_t i = res.n; i > 0 && !t->frame; i--)
		if (res.raw[i - 1])
			t->frame = xstrdup(res.raw[i - 1]);
	result_free(&res);
	caps_free(&caps);
	return true;
}

bool syz_title_report(const struct oops_lines *ls, size_t start, const char *fallback,
		      struct syz_title *t)
{
	memset(t, 0, sizeof(*t));
	const struct syz_group *g = syz_match_header(ls->v[start].text);
	if (!g)
		return false;
	struct view w;
	build_view(ls, start, &w);
	if (!title_in(g, &w, w.n, fallback, t)) {
		/* No format fits: the headline from the header on is the title. */
		const char *h = strstr(w.v[0], g->header);
		t->title = sanitize(h);
		t->corrupted = true;
	}
	free(w.v);
	return true;
}

void syz_title_free(struct syz_title *t)
{
	free(t->title);
	free(t->frame);
	memset(t, 0, sizeof(*t));
}
