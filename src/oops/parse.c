/*
 * Report splitting and parsing.  A report starts at a headline (kinds.c) and
 * runs to the next one; lines that only continue a report ("Oops: 0000 [#1]"
 * after "BUG: kernel NULL pointer dereference", "Kernel panic - not syncing"
 * after an oops) join the open report.  Inside a report each line goes to the
 * first handler that takes it: stack sections and frames, the CPU/PID line,
 * RIP/pc, Code:, registers, Modules linked in, and the kind-specific lines.
 * A register dump with a user code segment (RIP: 0033) is user space's, not
 * the fault; after "---[ end trace" only the panic lines still count.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "oops/oops.h"
#include "oops/syz.h"
#include "util/die.h"

struct pstate {
	struct oops_report *r;
	struct oops_stack *cur;		/* the stack frames go to, NULL outside a trace */
	enum oops_section section;
	bool user_regs;			/* inside a user-space register dump */
	bool modules_cont;		/* the line after "Modules linked in:" may continue it */
	char caller[16];		/* the headline's printk caller id */
};

static const char *skip_spaces(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static bool hex_after(const char *s, uint64_t *v)
{
	s = skip_spaces(s);
	if (s[0] == '0' && s[1] == 'x')
		s += 2;
	if (!isxdigit((unsigned char)*s))
		return false;
	*v = strtoull(s, NULL, 16);
	return true;
}

const char *oops_section_name(enum oops_section s)
{
	static const char *const names[] = { "", "TASK", "IRQ", "SOFTIRQ", "NMI", "EXCEPTION" };
	return names[s];
}

const struct oops_stack *oops_main_stack(const struct oops_report *r)
{
	return r->nstacks ? &r->stacks[0] : NULL;
}

static struct oops_stack *new_stack(struct oops_report *r, const char *name)
{
	r->stacks = xrealloc(r->stacks, (r->nstacks + 1) * sizeof(*r->stacks));
	struct oops_stack *s = &r->stacks[r->nstacks++];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	return s;
}

static void add_frame(struct oops_stack *s, const struct oops_frame *f)
{
	s->frames = xrealloc(s->frames, (s->nframes + 1) * sizeof(*s->frames));
	s->frames[s->nframes++] = *f;
}

static void push_str(char ***v, size_t *n, const char *s, size_t len)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = strndup(s, len);
}

/* "file.c:123" at s; the file up to the colon, the number after. */
static void src_location(struct oops_report *r, const char *s)
{
	s = skip_spaces(s);
	const char *end = s;
	while (*end && *end != ' ' && *end != '!' && *end != ',')
		end++;
	const char *colon = end;
	while (colon > s && *colon != ':')
		colon--;
	if (colon == s || !isdigit((unsigned char)colon[1]))
		return;
	free(r->src_file);
	r->src_file = strndup(s, (size_t)(colon - s));
	r->src_line = atoi(colon + 1);
}

/* "comm:pid" or "comm/pid" split at the last separator. */
static void comm_pid(struct oops_report *r, const char *s, size_t n, char sep)
{
	const char *p = s + n;
	while (p > s && p[-1] != sep)
		p--;
	if (p == s || !isdigit((unsigned char)*p))
		return;
	if (r->pid < 0)
		r->pid = atoi(p);
	if (!r->comm)
		r->comm = strndup(s, (size_t)(p - 1 - s));
}

static void set_where(struct oops_report *r, const char *s)
{
	const char *end;
	struct oops_sym sym;
	if (r->has_where || oops_parse_sym(s, &sym, &end) < 0)
		return;
	if (!sym.function && !sym.has_addr) {
		oops_sym_free(&sym);
		return;
	}
	r->where = sym;
	r->has_where = true;
}

/* "[#1]" in an Oops line. */
static void oops_count(struct oops_report *r, const char *line)
{
	const char *p = strstr(line, "[#");
	if (p && !r->oops_count)
		r->oops_count = atoi(p + 2);
	if (!r->oops_line)
		r->oops_line = xstrdup(skip_spaces(line));
}

static void parse_headline(struct oops_report *r, const char *line)
{
	uint64_t v;
	const char *p;
	switch (r->kind) {
	case OK_NULL_DEREF:
	case OK_PAGE_FAULT:
		if ((p = strstr(line, "address")) && (p = strpbrk(p, " :")) &&
		    hex_after(p + (*p == ':' ? 1 : 0), &v)) {
			r->address = v;
			r->has_address = true;
		} else if ((p = strstr(line, " at ")) && hex_after(p + 4, &v)) {
			r->address = v;
			r->has_address = true;
		}
		break;
	case OK_GPF:
		if ((p = strstr(line, "non-canonical address")) && hex_after(p + 21, &v)) {
			r->address = v;
			r->has_address = true;
		}
		oops_count(r, line);
		break;
	case OK_BUG:
		if ((p = strstr(line, "kernel BUG at ")))
			src_location(r, p + 14);
		else if ((p = strstr(line, "BUG: ")) && !strstr(line, "Internal error"))
			r->detail = xstrdup(p + 5);
		break;
	case OK_INVALID_OPCODE:
	case OK_DIVIDE:
	case OK_OOPS:
		oops_count(r, line);
		break;
	case OK_WARNING:
		if ((p = strstr(line, "CPU: ")))
			r->cpu = atoi(p + 5);
		if ((p = strstr(line, "PID: ")))
			r->pid = atoi(p + 5);
		if ((p = strstr(line, " at "))) {
			if (strstr(line, "WARNING: CPU:") || starts(skip_spaces(line), "WARNING: at ")) {
				src_location(r, p + 4);
				const char *sp = strchr(skip_spaces(p + 4), ' ');
				if (sp)
					set_where(r, sp);
			} else {	/* "WARNING: file.c:12 at func+0x1/0x2, CPU#1: comm/123" */
				src_location(r, strchr(line, ':') + 1);
				set_where(r, p + 4);
				if ((p = strstr(line, ", CPU#"))) {
					r->cpu = atoi(p + 6);
					const char *c = strstr(p, ": ");
					if (c)
						comm_pid(r, c + 2, strlen(c + 2), '/');
				}
			}
		}
		break;
	case OK_KASAN:
	case OK_KCSAN:
	case OK_KFENCE:
		p = strchr(line, ':') + 1;
		p = skip_spaces(strchr(p, ':') + 1);
		{
			const char *in = strstr(p, " in ");
			r->detail = strndup(p, in ? (size_t)(in - p) : strlen(p));
			if (in && r->kind != OK_KCSAN)
				set_where(r, in + 4);
			else if (in) {	/* "data-race in a / b": the first function */
				struct oops_sym sym;
				const char *end;
				if (oops_parse_sym(in + 4, &sym, &end) == 0 && sym.function) {
					r->where = sym;
					r->has_where = true;
					r->where.has_offset = false;
				} else {
					oops_sym_free(&sym);
				}
			}
		}
		break;
	case OK_UBSAN:
		p = skip_spaces(strchr(line, ':') + 1);
		{
			const char *in = strstr(p, " in ");
			r->detail = strndup(p, in ? (size_t)(in - p) : strlen(p));
			if (in)
				src_location(r, in + 4);
		}
		break;
	case OK_LOCKDEP:
		r->detail = xstrdup(skip_spaces(strchr(line, ':') + 1));
		break;
	case OK_SOFT_LOCKUP:
		if ((p = strstr(line, "CPU#")))
			r->cpu = atoi(p + 4);
		if ((p = strstr(line, "stuck for "))) {
			const char *e = strchr(p, '!');
			r->detail = strndup(p, e ? (size_t)(e - p) : strlen(p));
		}
		if ((p = strrchr(line, '[')) && strchr(p, ']'))
			comm_pid(r, p + 1, (size_t)(strchr(p, ']') - p - 1), ':');
		break;
	case OK_HARD_LOCKUP:
		if ((p = strstr(line, "on cpu ")))
			r->cpu = atoi(p + 7);
		break;
	case OK_RCU_STALL:
		r->detail = xstrdup(skip_spaces(line));
		break;
	case OK_HUNG_TASK:
		if ((p = strstr(line, "INFO: task ")) && strstr(p, " blocked for")) {
			const char *s = p + 11, *e = strstr(p, " blocked for");
			comm_pid(r, s, (size_t)(e - s), ':');
			const char *d = e + 1;
			const char *dot = strrchr(d, '.');
			r->detail = strndup(d, dot ? (size_t)(dot - d) : strlen(d));
		}
		break;
	case OK_MIGHT_SLEEP:
		if ((p = strstr(line, " at ")))
			src_location(r, p + 4);
		break;
	case OK_ATOMIC_SLEEP:
		if ((p = strstr(line, "atomic: "))) {
			const char *s = p + 8, *e = strrchr(s, '/');
			if (e)
				comm_pid(r, s, (size_t)(e - s), '/');
		}
		break;
	case OK_PANIC:
		if ((p = strstr(line, "not syncing")) && (p = strchr(p, ':')))
			r->panic_msg = xstrdup(skip_spaces(p + 1));
		break;
	case OK_MEMLEAK:
	case OK_OTHER:
	case OK_NONE:
		break;
	}
}

/* "CPU: 5 PID: 48 Comm: kworker/5:0 Kdump: loaded Tainted: G   W   E   6.4.0-rc3+ #49" */
static void parse_cpu_line(struct oops_report *r, const char *line)
{
	const char *p;
	if (r->kernel)
		return;
	if ((p = strstr(line, "CPU: ")) && r->cpu < 0)
		r->cpu = atoi(p + 5);
	if ((p = strstr(line, "PID: ")) && r->pid < 0)
		r->pid = atoi(p + 5);
	else if ((p = strstr(line, "Pid: ")) && r->pid < 0)	/* pre-3.x: "Pid: 1, comm: init" */
		r->pid = atoi(p + 5);
	if (strstr(line, "Kdump: loaded"))
		r->kdump_loaded = true;
	const char *tainted = strstr(line, " Tainted: ");
	const char *not = strstr(line, "Not tainted");
	const char *comm = strstr(line, "Comm: ");
	if (!comm)
		comm = strstr(line, "comm: ");
	const char *comm_end = tainted ? tainted : not;
	const char *kd = strstr(line, " Kdump: ");
	if (kd && (!comm_end || kd < comm_end))
		comm_end = kd;
	if (comm && comm_end && comm_end > comm + 6 && !r->comm) {
		size_t n = (size_t)(comm_end - (comm + 6));
		while (n && comm[6 + n - 1] == ' ')
			n--;
		r->comm = strndup(comm + 6, n);
	}
	const char *rest = NULL;
	if (tainted) {
		struct strbuf t = STRBUF_INIT;
		p = tainted + 10;
		/* Letters (or blanks for flags not set) up to the release, which starts with a digit. */
		while (*p && !isdigit((unsigned char)*p)) {
			if (isupper((unsigned char)*p))
				sb_addc(&t, *p);
			else if (*p != ' ')
				break;
			p++;
		}
		r->taint = xstrdup(sb_str(&t));
		sb_free(&t);
		rest = p;
	} else if (not) {
		r->taint = xstrdup("");
		rest = not + 11;
	}
	if (!rest)
		return;
	rest = skip_spaces(rest);
	const char *sp = strchr(rest, ' ');
	r->kernel = strndup(rest, sp ? (size_t)(sp - rest) : strlen(rest));
	if (sp && *skip_spaces(sp))
		r->kernel_build = xstrdup(skip_spaces(sp));
}

static void parse_modules(struct oops_report *r, const char *s)
{
	for (s = skip_spaces(s); *s; s = skip_spaces(s)) {
		const char *e = s;
		while (*e && *e != ' ' && *e != '(' && *e != '[')
			e++;
		if (e > s)
			push_str(&r->modules, &r->nmodules, s, (size_t)(e - s));
		while (*e && *e != ' ')
			e++;
		s = e;
	}
}

/* A continuation of "Modules linked in:": module names only. */
static bool looks_like_modules(const char *s)
{
	if (*s != ' ' || strchr(s, '+') || strchr(s, ':') || strchr(s, '<'))
		return false;
	for (s = skip_spaces(s); *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_- ()[]", *s))
			return false;
	return true;
}

static bool section_marker(struct pstate *st, const char *s)
{
	static const struct {
		const char *text;
		enum oops_section section;
		bool end_of_trace;
	} markers[] = {
		{ "<TASK>", OS_TASK, false }, { "</TASK>", OS_TASK, true },
		{ "<IRQ>", OS_IRQ, false }, { "</IRQ>", OS_TASK, false },
		{ "<EOI>", OS_TASK, false }, { "<SOFTIRQ>", OS_SOFTIRQ, false },
		{ "</SOFTIRQ>", OS_TASK, false }, { "<NMI>", OS_NMI, false },
		{ "</NMI>", OS_TASK, false }, { "<#DF>", OS_EXCEPTION, false },
		{ "</#DF>", OS_TASK, false }, { "<#MC>", OS_EXCEPTION, false },
		{ "</#MC>", OS_TASK, false }, { "<#DB>", OS_EXCEPTION, false },
		{ "</#DB>", OS_TASK, false },
	};
	for (size_t i = 0; i < sizeof(markers) / sizeof(markers[0]); i++) {
		if (strcmp(s, markers[i].text) != 0)
			continue;
		if (!st->cur)
			return true;
		st->section = markers[i].section;
		if (markers[i].end_of_trace)
			st->cur = NULL;
		return true;
	}
	return false;
}

static bool stack_header(struct pstate *st, const char *s)
{
	static const char *const headers[] = { "Call Trace:", "Call trace:", "Allocated by task ",
		"Freed by task ", "Last potentially related work creation:",
		"Second to last potentially related work creation:", "Last call_rcu():",
		"Second to last call_rcu():", "Backtrace:" };
	for (size_t i = 0; i < sizeof(headers) / sizeof(headers[0]); i++) {
		if (!starts(s, headers[i]))
			continue;
		struct oops_report *r = st->r;
		bool call = i < 2;
		/* A second "Call Trace:" (another task's, an NMI backtrace) gets its own stack. */
		if (call && r->nstacks && r->stacks[0].nframes == 0 && st->cur == &r->stacks[0])
			return true;
		char name[128];
		snprintf(name, sizeof(name), "%s", s);
		size_t n = strlen(name);
		if (n && name[n - 1] == ':')
			name[n - 1] = '\0';
		if (call && r->nstacks == 0)
			snprintf(name, sizeof(name), "Call Trace");
		st->cur = new_stack(r, name);
		st->section = OS_NONE;
		st->user_regs = false;
		return true;
	}
	return false;
}

/* RIP/pc lines: the faulting location, unless user space's. */
static bool rip_line(struct pstate *st, const char *s)
{
	struct oops_report *r = st->r;
	const char *v = NULL;
	if (starts(s, "RIP: ") || starts(s, "EIP: ")) {
		if (!r->arch)
			r->arch = xstrdup(s[0] == 'R' ? "x86_64" : "i386");
		v = skip_spaces(s + 5);
		/* "0010:func+..." kernel; "0033:0x7f..." (or 0023, 002b) user.  The segment is
		 * read only when all four digits are there: a cut line may end after "RIP: 0". */
		if (strspn(v, "0123456789abcdefABCDEF") == 4 && v[4] == ':') {
			unsigned cs = (unsigned)strtoul(v, NULL, 16);
			v += 5;
			if ((cs & 3) == 3) {
				st->user_regs = true;
				return true;
			}
		}
		st->user_regs = false;
	} else if (starts(s, "pc : ") || starts(s, "PC is at ")) {
		if (!r->arch)
			r->arch = xstrdup("arm64");
		v = s + (s[0] == 'p' ? 5 : 9);
		st->user_regs = false;
	} else if (starts(s, "IP: ")) {
		v = s + 4;
	} else {
		return false;
	}
	set_where(r, v);
	return true;
}

static bool kasan_line(struct oops_report *r, const char *s)
{
	const char *p;
	uint64_t v;
	if (starts(s, "KASAN: ") && (p = strstr(s, " in range ["))) {
		if (hex_after(p + 11, &r->range_lo) && (p = strchr(p + 11, '-')) &&
		    hex_after(p + 1, &r->range_hi))
			r->has_range = true;
		if (!r->detail)
			r->detail = strndup(s + 7, (size_t)(strstr(s, " in range") - (s + 7)));
		return true;
	}
	if ((starts(s, "Read of size ") || starts(s, "Write of size ")) && (p = strstr(s, " at addr "))) {
		if (!r->kasan_access)
			r->kasan_access = strndup(s, s[0] == 'R' ? 4 : 5);
		r->kasan_size = strtoull(strstr(s, "size ") + 5, NULL, 10);
		if (hex_after(p + 9, &v) && !r->has_address) {
			r->address = v;
			r->has_address = true;
		}
		if ((p = strstr(s, " by task ")))
			comm_pid(r, p + 9, strlen(p + 9), '/');
		return true;
	}
	return false;
}

static bool is_reg_line(const char *s)
{
	struct oops_report scratch = { 0 };
	bool regs = oops_parse_regs(&scratch, s);
	free(scratch.regs);
	return regs;
}

static void parse_line(struct pstate *st, const char *line)
{
	struct oops_report *r = st->r;
	const char *s = skip_spaces(line);
	const char *p;

	if (starts(s, "Kernel panic - not syncing")) {
		if (!r->panic_msg && (p = strchr(s + 20, ':')))
			r->panic_msg = xstrdup(skip_spaces(p + 1));
		return;
	}
	if (starts(s, "Kernel Offset: ")) {
		if (starts(s + 15, "disabled"))
			r->kaslr_disabled = true;
		else if (hex_after(s + 15, &r->kaslr_offset))
			r->has_kaslr = true;
		return;
	}
	if (r->ended)
		return;
	if (starts(s, "---[ end trace")) {
		r->ended = true;
		st->cur = NULL;
		return;
	}
	if (st->modules_cont) {
		st->modules_cont = false;
		if (looks_like_modules(line)) {
			parse_modules(r, line);
			st->modules_cont = true;
			return;
		}
	}
	if (section_marker(st, s) || stack_header(st, s))
		return;
	if (rip_line(st, s))
		return;
	if (st->user_regs) {
		if (starts(s, "Code: ") || is_reg_line(s))
			return;
		st->user_regs = false;
	}
	if (st->cur) {
		struct oops_frame f;
		if (oops_parse_frame(line, &f) == 0) {
			f.section = st->section;
			add_frame(st->cur, &f);
			return;
		}
		/* A kernel register dump inside the trace is the interrupted context's. */
		if (is_reg_line(s))
			return;
		st->cur = NULL;
	}
	if (starts(s, "CPU: ") || starts(s, "Pid: ") || (starts(s, "Not tainted") && !r->taint) ||
	    (starts(s, "Tainted: ") && !r->taint)) {
		char buf[1024];
		snprintf(buf, sizeof(buf), "%s%s", s[0] == 'N' || s[0] == 'T' ? " " : "", s);
		parse_cpu_line(r, buf);
		return;
	}
	if (starts(s, "Hardware name: ")) {
		if (!r->hardware)
			r->hardware = xstrdup(s + 15);
		return;
	}
	if (starts(s, "Workqueue: ")) {
		if (!r->workqueue)
			r->workqueue = xstrdup(s + 11);
		return;
	}
	if (starts(s, "Code: ")) {
		if (!r->has_code && oops_parse_code(s + 6, &r->code, r->arch && !strcmp(r->arch, "arm64")) == 0)
			r->has_code = true;
		return;
	}
	if (starts(s, "Modules linked in:")) {
		if (!r->nmodules)
			parse_modules(r, s + 18);
		st->modules_cont = true;
		return;
	}
	if (starts(s, "#PF: error_code(")) {
		r->pf_code = strtoull(s + 16, NULL, 16);
		r->has_pf_code = true;
		return;
	}
	if (starts(s, "ESR = ") && hex_after(s + 6, &r->esr)) {
		r->has_esr = true;
		return;
	}
	if (starts(s, "Internal error: ") || starts(s, "Oops: ") || starts(s, "invalid opcode: ") ||
	    starts(s, "divide error: ") || starts(s, "Oops - ")) {
		oops_count(r, s);
		if (starts(s, "Internal error: ") && (p = strstr(s, ": ")) && (p = strchr(p + 2, ':'))) {
			r->has_esr = r->has_esr || hex_after(p + 1, &r->esr);
			if (!r->arch)
				r->arch = xstrdup("arm64");
		}
		return;
	}
	if (kasan_line(r, s))
		return;
	if (starts(s, "in_atomic(): ") && (p = strstr(s, " pid: "))) {
		if (r->pid < 0)
			r->pid = atoi(p + 6);
		if (!r->comm && (p = strstr(s, " name: ")))
			r->comm = xstrdup(p + 7);
		return;
	}
	if (starts(s, "task:") && (p = strstr(s, " pid:"))) {	/* hung task details */
		if (r->pid < 0)
			r->pid = atoi(p + 5);
		if (!r->comm)
			r->comm = strndup(s + 5, strcspn(s + 5, " "));
		return;
	}
	if (starts(s, "NMI backtrace for cpu ") && r->cpu < 0) {
		r->cpu = atoi(s + 22);
		return;
	}
	if (starts(s, "Linux version ") && !r->kernel) {
		const char *v = s + 14;
		r->kernel = strndup(v, strcspn(v, " "));
		return;
	}
	if (oops_parse_regs(r, s)) {
		if (!r->arch && (s[0] == 'x' || starts(s, "sp ")))
			r->arch = xstrdup("arm64");
	}
}

static struct oops_report *new_report(struct oops_reports *rs, enum oops_kind kind, const char *line)
{
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? 2 * rs->cap : 4;
		rs->v = xrealloc(rs->v, rs->cap * sizeof(*rs->v));
	}
	struct oops_report *r = &rs->v[rs->n++];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->cpu = r->pid = -1;
	r->headline = xstrdup(skip_spaces(line));
	parse_headline(r, line);
	return r;
}

/* WARN() text and the like: the lines between "cut here" (or a ==== rule) and the headline. */
static void take_message(struct oops_report *r, const struct oops_lines *ls, size_t head)
{
	size_t from = head;
	for (size_t k = 1; k <= 8 && k <= head; k++) {
		const char *t = ls->v[head - k].text;
		if (strstr(t, "[ cut here ]") || starts(t, "=====")) {
			from = head - k + 1;
			break;
		}
	}
	for (size_t i = from; i < head; i++)
		if (ls->v[i].text[0])
			push_str(&r->message, &r->nmessage, ls->v[i].text, strlen(ls->v[i].text));
}

static bool follows(const struct oops_report *open, enum oops_kind k)
{
	if (!open || open->ended)
		return k == OK_PANIC && open && !open->panic_msg;
	const struct oops_kind_info *ki = oops_kind_info(open->kind);
	switch (k) {
	case OK_PANIC:
		return !open->panic_msg;
	case OK_OOPS:
		return !open->oops_line && (ki->cls == OC_OOPS);
	case OK_INVALID_OPCODE:
		return open->kind == OK_BUG && !open->oops_line;
	case OK_BUG:	/* "Internal error: Oops - BUG" after "kernel BUG at" */
		return open->kind == OK_BUG && !open->oops_line;
	default:
		return false;
	}
}

/* The module a frame of the report's stacks was printed with. */
static const char *frame_module(const struct oops_report *r, const char *fn)
{
	if (r->has_where && r->where.function && !strcmp(r->where.function, fn))
		return r->where.module;
	for (size_t i = 0; i < r->nstacks; i++)
		for (size_t j = 0; j < r->stacks[i].nframes; j++) {
			const struct oops_sym *s = &r->stacks[i].frames[j].sym;
			if (s->function && !strcmp(s->function, fn))
				return s->module;
		}
	return NULL;
}

/*
 * syzkaller's title and guilty frame replace ours when its tables know the
 * report.  A headline they do not know ("Watchdog detected hard LOCKUP", a
 * bare "Oops: 0000") yields to the first line of the report they know, as
 * syzkaller titles a log by its first header.
 */
static void syz_retitle(struct oops_report *r, const struct oops_lines *ls, size_t end)
{
	struct syz_title t;
	size_t i = r->first_line;
	while (i < end && !syz_match_header(ls->v[i].text))
		i++;
	if (i >= end || !syz_title_report(ls, i, r->guilty, &t))
		return;
	/* Our catch-all kinds ("BUG: anything") take the kind syzkaller's title names. */
	bool generic = r->kind == OK_OTHER || (r->kind == OK_BUG && r->detail);
	if (generic && t.kind != OK_NONE)
		r->kind = t.kind;
	free(r->title);
	r->title = t.title;
	t.title = NULL;
	if (t.frame) {
		const char *mod = frame_module(r, t.frame);
		free(r->guilty);
		free(r->guilty_module);
		r->guilty_module = mod ? xstrdup(mod) : NULL;
		r->guilty = t.frame;
		t.frame = NULL;
	}
	syz_title_free(&t);
}

static void finish(struct oops_report *r, const struct oops_lines *ls, size_t end)
{
	oops_choose_guilty(r);
	syz_retitle(r, ls, end);
	oops_decide_verdict(r);
}

/* A line that names a report: ours, or one only syzkaller's tables know. */
static enum oops_kind headline_kind(const char *text, bool *follower, bool open, const char **head)
{
	*head = text;
	enum oops_kind k = oops_match_headline(text, follower);
	const struct syz_group *g = syz_match_header(text);
	if (k != OK_NONE && !g) {
		/* A header syzkaller suppresses ("WARNING: /etc/ssh/moduli ...") is no report. */
		for (size_t i = 0; i < syz_ngroups; i++)
			if (strstr(text, syz_groups[i].header))
				return OK_NONE;
	}
	if (k == OK_NONE && g && syz_header_stands_alone(text, g) &&
	    !(open && syz_is_continuation(text))) {
		*follower = false;
		*head = strstr(text, g->header);	/* what comes before is another message's */
		return syz_line_kind(text, g);
	}
	return k;
}

/* The latest report whose headline the printk caller printed; NULL without caller ids. */
static struct oops_report *report_of_caller(struct oops_reports *rs, const struct oops_lines *ls,
					    const char *caller)
{
	if (!caller[0])
		return NULL;
	for (size_t i = rs->n; i-- > 0;)
		if (!strcmp(ls->v[rs->v[i].first_line].caller, caller))
			return &rs->v[i];
	return NULL;
}

size_t oops_parse(struct oops_reports *rs, const struct oops_lines *ls)
{
	struct pstate st = { 0 };
	struct oops_report *open = NULL;
	memset(rs, 0, sizeof(*rs));
	for (size_t i = 0; i < ls->n; i++) {
		const struct oops_line *l = &ls->v[i];
		bool follower;
		const char *head;
		enum oops_kind k = headline_kind(l->text, &follower, open != NULL, &head);
		/* A panic line printed by the task of an earlier report (caller ids) is that report's. */
		struct oops_report *own = follower ? report_of_caller(rs, ls, l->caller) : NULL;
		if (own && own != open && follows(own, k)) {
			struct pstate own_st = { .r = own };
			parse_line(&own_st, l->text);
			continue;
		}
		if (k != OK_NONE && (!follower || !follows(open, k))) {
			open = new_report(rs, k, head);
			open->first_line = i;
			memset(&st, 0, sizeof(st));
			st.r = open;
			snprintf(st.caller, sizeof(st.caller), "%s", l->caller);
			take_message(open, ls, i);
			continue;
		}
		if (!open)
			continue;
		/*
		 * A panic stops the machine, whoever printed it: one whose caller started no
		 * report (panic_on_warn's from an interrupt on another CPU) ends the open one.
		 */
		if (k == OK_PANIC && follower && !own && follows(open, k)) {
			struct pstate panic_st = { .r = open };
			parse_line(&panic_st, l->text);
			continue;
		}
		/* With printk caller ids, other tasks' and CPUs' lines are not this report's. */
		if (st.caller[0] && l->caller[0] && strcmp(st.caller, l->caller) != 0)
			continue;
		st.r = open = &rs->v[rs->n - 1];
		parse_line(&st, l->text);
	}
	for (size_t i = 0; i < rs->n; i++)
		finish(&rs->v[i], ls, i + 1 < rs->n ? rs->v[i + 1].first_line : ls->n);
	const struct oops_report *panicked = NULL;
	for (size_t i = rs->n; i-- > 0;) {
		if (rs->v[i].panic_msg)
			panicked = &rs->v[i];
		else if (panicked)
			oops_verdict_panicked_later(&rs->v[i], panicked);
	}
	return rs->n;
}

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void free_report(struct oops_report *r)
{
	free(r->headline);
	free(r->detail);
	free(r->title);
	free(r->arch);
	oops_sym_free(&r->where);
	free(r->src_file);
	free(r->comm);
	free(r->kernel);
	free(r->kernel_build);
	free(r->hardware);
	free(r->taint);
	free(r->workqueue);
	free(r->oops_line);
	free(r->kasan_access);
	free(r->regs);
	free(r->code.bytes);
	for (size_t i = 0; i < r->nstacks; i++) {
		for (size_t j = 0; j < r->stacks[i].nframes; j++)
			oops_frame_free(&r->stacks[i].frames[j]);
		free(r->stacks[i].frames);
		free(r->stacks[i].name);
	}
	free(r->stacks);
	free_strv(r->modules, r->nmodules);
	free_strv(r->message, r->nmessage);
	free(r->panic_msg);
	free(r->guilty);
	free(r->guilty_module);
	free(r->verdict);
	free(r->verdict_reason);
	free(r->where_file);
	oops_loc_free(r->where_inlined, r->where_ninlined);
	free(r->symbols_note);
	free(r->code_from);
	oops_null_member_free(r->null_member);
}

void oops_reports_free(struct oops_reports *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		free_report(&rs->v[i]);
	free(rs->v);
	memset(rs, 0, sizeof(*rs));
}
