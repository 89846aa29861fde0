/*
 * The fast text printer (fastprint.h).  An event format compiles into a program:
 * the print fmt cut into literal text and conversions, each conversion with its
 * argument turned into a small tree (numbers) or string source, mirroring what
 * libtraceevent's pretty printer does with the same parsed arguments: values read
 * unsigned at the field's size, cast by the conversion's length modifier, then
 * printed with the conversion.  Whatever is not mirrored here (pointers %p, '*'
 * widths, typecasts, bitmasks, helper functions, other plugins' handlers) keeps the
 * event on the reference printer, so the output never guesses.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "report/fastprint.h"
#include "report/report.h"

#define MAX_ID 65536
#define COMM_CACHE 1024

enum { N_CONST, N_FIELD, N_BIN, N_TERN };

struct node {
	int kind;
	uint64_t val;		/* N_CONST */
	unsigned off, size;	/* N_FIELD: bytes read unsigned */
	char op[3];		/* N_BIN */
	struct node *l, *r, *c;	/* N_BIN: l op r; N_TERN: c ? l : r */
};

enum { S_ATOM, S_FIELD, S_DYN, S_SYMBOL, S_FLAGS, S_TERN };

struct sym {
	long long val;
	const char *str;
};

struct strsrc {
	int kind;
	const char *atom;		/* S_ATOM */
	unsigned off, size;		/* S_FIELD: char array; S_DYN: the __data_loc word */
	unsigned rel;			/* S_DYN: __rel_loc base, 0 otherwise */
	struct node *num;		/* S_SYMBOL, S_FLAGS, S_TERN (condition) */
	struct sym *syms;
	int nsyms;
	const char *delim;
	struct strsrc *a, *b;		/* S_TERN */
};

enum { ST_LIT, ST_NUM, ST_STR };

struct step {
	int kind;
	char *lit;			/* ST_LIT */
	size_t litlen;
	char fmt[32];			/* the conversion as written */
	int ls;				/* length modifier: -2 hh, -1 h, 0, 1 l, 2 ll */
	bool simple;			/* %[-0][width][lengths](d|i|u|x|X): formatted here */
	bool left, zero;
	int width;
	char conv;
	struct node *num;		/* ST_NUM */
	struct strsrc *str;		/* ST_STR */
};

enum { P_GENERIC, P_STEPS, P_SWITCH, P_WAKEUP };

struct prog {
	int kind;
	unsigned need;			/* the record size every fixed field fits in */
	unsigned pid_off, pid_size;	/* common_pid */
	const char *name;
	size_t namelen;
	struct step *steps;
	int nsteps;
	/* sched plugin: fields by role, NULL when absent */
	struct tep_format_field *pid, *comm, *prio, *state, *npid, *ncomm, *nprio, *success, *tcpu;
	/*
	 * The plugin's letter for each prev_state bit (0: none).  Its versions differ
	 * (a fixed "SDTtZXxW", or letters taken from the format), so they are learnt from
	 * the plugin itself on the first sched_switch.
	 */
	char states[32];
	bool calibrated;
};

struct comm_slot {
	int pid;
	unsigned gen;
	const char *comm;
	size_t len;
};

struct rp_fast {
	struct tep_handle *tep;
	bool ts_usecs;
	bool usable;			/* the file's byte order is ours */
	struct prog **progs;		/* by event id */
	struct trace_seq s;		/* for the reference printer */
	unsigned gen;
	struct comm_slot comms[COMM_CACHE];
	/* what the compile tried to allocate, freed at the end */
	void **owned;
	size_t nowned, capowned;
	int ncompiled, ngeneric;
	char generic_names[512];
};

/* ---- small allocations owned by the printer ---- */

static void *own(struct rp_fast *f, size_t n)
{
	void *p;

	if (f->nowned == f->capowned) {
		size_t cap = f->capowned ? f->capowned * 2 : 64;
		void **o = realloc(f->owned, cap * sizeof(*o));
		if (!o)
			return NULL;
		f->owned = o;
		f->capowned = cap;
	}
	p = calloc(1, n);
	if (p)
		f->owned[f->nowned++] = p;
	return p;
}

/* ---- compiling ---- */

struct cc {
	struct rp_fast *f;
	struct tep_event *ev;
	struct prog *p;
};

static void need(struct cc *c, unsigned off, unsigned size)
{
	if (off + size > c->p->need)
		c->p->need = off + size;
}

static struct tep_format_field *field_of(struct cc *c, struct tep_print_arg *a)
{
	if (!a->field.field)
		a->field.field = tep_find_any_field(c->ev, a->field.name);
	return a->field.field;
}

static bool num_size_ok(unsigned size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

/* A number libtraceevent's atom rule gives without a symbol lookup. */
static bool atom_value(const char *atom, uint64_t *v)
{
	char *end;

	*v = strtoull(atom, &end, 0);
	return *v != 0 || (end != atom && atom[0] >= '0' && atom[0] <= '9');
}

static struct node *num_arg(struct cc *c, struct tep_print_arg *a);

static struct node *index_arg(struct cc *c, struct tep_print_arg *a, struct node *n)
{
	struct tep_print_arg *l = a->op.left, *r = a->op.right;
	struct tep_format_field *fld;
	uint64_t idx;

	if (!l || !r || l->type != TEP_PRINT_FIELD || r->type != TEP_PRINT_ATOM ||
	    !atom_value(r->atom.atom, &idx) || !(fld = field_of(c, l)) ||
	    !num_size_ok((unsigned)fld->elementsize) || idx > 4096)
		return NULL;
	n->kind = N_FIELD;
	n->off = (unsigned)fld->offset + (unsigned)idx * (unsigned)fld->elementsize;
	n->size = (unsigned)fld->elementsize;
	need(c, n->off, n->size);
	return n;
}

static bool known_op(const char *op)
{
	static const char *const ops[] = { "!=", "|", "||", "&", "&&", "<", "<<", "<=", ">",
					   ">>", ">=", "==", "-", "+", "/", "%", "*" };

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(op, ops[i]))
			return true;
	return false;
}

static struct node *op_arg(struct cc *c, struct tep_print_arg *a, struct node *n)
{
	const char *op = a->op.op;

	if (!strcmp(op, "["))
		return index_arg(c, a, n);
	if (!a->op.left || !a->op.right)
		return NULL;
	if (!strcmp(op, "?")) {
		struct tep_print_arg *r = a->op.right;
		if (r->type != TEP_PRINT_OP || strcmp(r->op.op, ":") || !r->op.left ||
		    !r->op.right)
			return NULL;
		n->kind = N_TERN;
		n->c = num_arg(c, a->op.left);
		n->l = num_arg(c, r->op.left);
		n->r = num_arg(c, r->op.right);
		return n->c && n->l && n->r ? n : NULL;
	}
	if (!known_op(op) || strlen(op) > 2)
		return NULL;
	n->kind = N_BIN;
	strcpy(n->op, op);
	n->l = num_arg(c, a->op.left);
	n->r = num_arg(c, a->op.right);
	return n->l && n->r ? n : NULL;
}

static struct node *num_arg(struct cc *c, struct tep_print_arg *a)
{
	struct node *n = own(c->f, sizeof(*n));
	struct tep_format_field *fld;

	if (!n || !a)
		return NULL;
	switch (a->type) {
	case TEP_PRINT_ATOM:
		n->kind = N_CONST;
		return atom_value(a->atom.atom, &n->val) ? n : NULL;
	case TEP_PRINT_FIELD:
		fld = field_of(c, a);
		if (!fld || !num_size_ok((unsigned)fld->size))
			return NULL;
		n->kind = N_FIELD;
		n->off = (unsigned)fld->offset;
		n->size = (unsigned)fld->size;
		need(c, n->off, n->size);
		return n;
	case TEP_PRINT_OP:
		return op_arg(c, a, n);
	default:
		return NULL;
	}
}

/* libtraceevent's reading of a __print_symbolic/__print_flags value. */
static long long flag_value(const char *s)
{
	static const struct { const char *name; long long v; } names[] = {
		{ "HI_SOFTIRQ", 0 }, { "TIMER_SOFTIRQ", 1 }, { "NET_TX_SOFTIRQ", 2 },
		{ "NET_RX_SOFTIRQ", 3 }, { "BLOCK_SOFTIRQ", 4 }, { "IRQ_POLL_SOFTIRQ", 5 },
		{ "TASKLET_SOFTIRQ", 6 }, { "SCHED_SOFTIRQ", 7 }, { "HRTIMER_SOFTIRQ", 8 },
		{ "RCU_SOFTIRQ", 9 }, { "HRTIMER_NORESTART", 0 }, { "HRTIMER_RESTART", 1 },
	};

	if (s[0] >= '0' && s[0] <= '9')
		return (long long)strtoull(s, NULL, 0);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(names[i].name, s))
			return names[i].v;
	return -1;
}

static bool syms_of(struct cc *c, struct tep_print_flag_sym *list, struct strsrc *s)
{
	int n = 0;

	for (struct tep_print_flag_sym *p = list; p; p = p->next)
		n++;
	s->syms = own(c->f, sizeof(*s->syms) * (size_t)(n + 1));
	if (!s->syms)
		return false;
	for (struct tep_print_flag_sym *p = list; p; p = p->next, s->nsyms++) {
		s->syms[s->nsyms].val = flag_value(p->value);
		s->syms[s->nsyms].str = p->str;
	}
	return true;
}

static struct strsrc *str_arg(struct cc *c, struct tep_print_arg *a)
{
	struct strsrc *s = own(c->f, sizeof(*s));
	struct tep_format_field *fld;

	if (!s || !a)
		return NULL;
	switch (a->type) {
	case TEP_PRINT_ATOM:
		s->kind = S_ATOM;
		s->atom = a->atom.atom;
		return s;
	case TEP_PRINT_FIELD:
		fld = field_of(c, a);
		/* A long-sized non-array is printed as a pointer: not here. */
		if (!fld || !(fld->flags & TEP_FIELD_IS_ARRAY) || fld->size <= 0)
			return NULL;
		s->kind = S_FIELD;
		s->off = (unsigned)fld->offset;
		s->size = (unsigned)fld->size;
		need(c, s->off, s->size);
		return s;
	case TEP_PRINT_STRING:
		fld = a->string.field ? a->string.field : tep_find_any_field(c->ev, a->string.string);
		if (!fld || (fld->size != 4 && fld->size != 2))
			return NULL;
		s->kind = S_DYN;
		s->off = (unsigned)fld->offset;
		s->size = (unsigned)fld->size;
		if (fld->flags & TEP_FIELD_IS_RELATIVE)
			s->rel = (unsigned)(fld->offset + fld->size);
		need(c, s->off, s->size);
		return s;
	case TEP_PRINT_SYMBOL:
		s->kind = S_SYMBOL;
		s->num = num_arg(c, a->symbol.field);
		return s->num && syms_of(c, a->symbol.symbols, s) ? s : NULL;
	case TEP_PRINT_FLAGS:
		s->kind = S_FLAGS;
		s->delim = a->flags.delim;
		s->num = num_arg(c, a->flags.field);
		return s->num && syms_of(c, a->flags.flags, s) ? s : NULL;
	case TEP_PRINT_OP:
		if (strcmp(a->op.op, "?") || !a->op.right || a->op.right->type != TEP_PRINT_OP)
			return NULL;
		s->kind = S_TERN;
		s->num = num_arg(c, a->op.left);
		s->a = str_arg(c, a->op.right->op.left);
		s->b = str_arg(c, a->op.right->op.right);
		return s->num && s->a && s->b ? s : NULL;
	default:
		return NULL;
	}
}

static struct step *add_step(struct cc *c, int kind)
{
	struct prog *p = c->p;
	struct step *st = realloc(p->steps, sizeof(*st) * (size_t)(p->nsteps + 1));

	if (!st)
		return NULL;
	p->steps = st;
	st = &st[p->nsteps++];
	memset(st, 0, sizeof(*st));
	st->kind = kind;
	return st;
}

/* Literal text up to the next conversion, with the escapes libtraceevent undoes. */
static const char *compile_text(struct cc *c, const char *f)
{
	struct step *st = add_step(c, ST_LIT);
	char *out;
	size_t n = 0;

	if (!st || !(out = own(c->f, strlen(f) + 1)))
		return NULL;
	for (; *f; f++) {
		if (*f == '\\' && f[1]) {
			f++;
			out[n++] = *f == 'n' ? '\n' : *f == 't' ? '\t' : *f == 'r' ? '\r' : *f;
		} else if (*f == '%') {
			if (f[1] != '%')
				break;
			out[n++] = '%';
			f++;
		} else {
			out[n++] = *f;
		}
	}
	st->lit = out;
	st->litlen = n;
	return f;
}

/* Is "%[-0][width][hlLzZ]*(d|i|u|x|X)" what the conversion is? */
static void simple_conv(struct step *st)
{
	const char *p = st->fmt + 1;

	for (; *p == '-' || *p == '0'; p++) {
		if (*p == '-')
			st->left = true;
		else
			st->zero = true;
	}
	for (; *p >= '0' && *p <= '9'; p++)
		st->width = st->width * 10 + (*p - '0');
	while (*p && strchr("hlLzZ", *p))
		p++;
	st->conv = *p;
	st->simple = p[0] && strchr("diuxX", p[0]) && !p[1] && st->width < 64;
}

/* One conversion at f ('%'); its argument is *arg.  The text after it, or NULL. */
static const char *compile_conv(struct cc *c, const char *f, struct tep_print_arg **arg)
{
	const char *start = f;
	struct step *st;
	int ls = 0;

	for (f++; *f; f++) {
		if (*f == 'h')
			ls--;
		else if (*f == 'l')
			ls++;
		else if (*f == 'L')
			ls = 2;
		else if (*f == 'z' || *f == 'Z')
			ls = 1;
		else if (!strchr("#.0123456789-+", *f))
			break;
	}
	if (!*f || !*arg || f - start > 30 || ls < -2 || ls > 2)
		return NULL;
	if (strchr("cduixXo", *f)) {
		st = add_step(c, ST_NUM);
		if (!st || !(st->num = num_arg(c, *arg)))
			return NULL;
	} else if (*f == 's') {
		st = add_step(c, ST_STR);
		if (!st || !(st->str = str_arg(c, *arg)))
			return NULL;
	} else {
		return NULL;	/* %p, '*' widths and the unknown */
	}
	memcpy(st->fmt, start, (size_t)(f + 1 - start));
	st->ls = ls;
	if (st->kind == ST_NUM)
		simple_conv(st);
	*arg = (*arg)->next;
	return f + 1;
}

static bool compile_steps(struct cc *c)
{
	const char *f = c->ev->print_fmt.format;
	struct tep_print_arg *arg = c->ev->print_fmt.args;

	if (!f)
		return false;
	while (f && *f) {
		if (*f == '%' && f[1] != '%')
			f = compile_conv(c, f, &arg);
		else
			f = compile_text(c, f);
	}
	return f != NULL;
}

static bool field_need(struct cc *c, struct tep_format_field *fld)
{
	if (!fld)
		return true;
	need(c, (unsigned)fld->offset, (unsigned)fld->size);
	return true;
}

static bool compile_sched(struct cc *c)
{
	struct prog *p = c->p;
	struct tep_event *ev = c->ev;

	if (!strcmp(ev->name, "sched_switch")) {
		p->kind = P_SWITCH;
		p->pid = tep_find_field(ev, "prev_pid");
		p->comm = tep_find_any_field(ev, "prev_comm");
		p->prio = tep_find_field(ev, "prev_prio");
		p->state = tep_find_any_field(ev, "prev_state");
		p->npid = tep_find_field(ev, "next_pid");
		p->ncomm = tep_find_any_field(ev, "next_comm");
		p->nprio = tep_find_field(ev, "next_prio");
		if (!p->pid || !p->comm || !p->prio || !p->state || !p->npid || !p->ncomm ||
		    !p->nprio || !num_size_ok((unsigned)p->state->size))
			return false;
	} else {
		p->kind = P_WAKEUP;
		p->pid = tep_find_field(ev, "pid");
		p->comm = tep_find_any_field(ev, "comm");
		p->prio = tep_find_field(ev, "prio");
		p->success = tep_find_field(ev, "success");
		p->tcpu = tep_find_field(ev, "target_cpu");
		if (!p->pid)
			return false;
	}
	struct tep_format_field *nums[] = { p->pid, p->prio, p->npid, p->nprio, p->success,
					    p->tcpu };
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		if (nums[i] && !num_size_ok((unsigned)nums[i]->size))
			return false;
	struct tep_format_field *all[] = { p->pid, p->comm, p->prio, p->state, p->npid,
					   p->ncomm, p->nprio, p->success, p->tcpu };
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		field_need(c, all[i]);
	return true;
}

static bool is_sched_plugin_event(struct tep_event *ev)
{
	return !strcmp(ev->system, "sched") && (!strcmp(ev->name, "sched_switch") ||
	       !strcmp(ev->name, "sched_wakeup") || !strcmp(ev->name, "sched_wakeup_new"));
}

static bool compile_event(struct cc *c)
{
	struct tep_event *ev = c->ev;
	struct tep_format_field *pid = tep_find_common_field(ev, "common_pid");

	if (!c->f->usable || !pid || !num_size_ok((unsigned)pid->size))
		return false;
	if (ev->flags & (TEP_EVENT_FL_FAILED | TEP_EVENT_FL_ISBPRINT | TEP_EVENT_FL_PRINTRAW |
			 TEP_EVENT_FL_NOHANDLE))
		return false;
	c->p->pid_off = (unsigned)pid->offset;
	c->p->pid_size = (unsigned)pid->size;
	need(c, c->p->pid_off, c->p->pid_size);
	if (ev->handler)
		return is_sched_plugin_event(ev) && compile_sched(c);
	c->p->kind = P_STEPS;
	return compile_steps(c);
}

/* ---- printing ---- */

static uint64_t read_num(const unsigned char *d, unsigned size)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	switch (size) {
	case 1: memcpy(&u8, d, 1); return u8;
	case 2: memcpy(&u16, d, 2); return u16;
	case 4: memcpy(&u32, d, 4); return u32;
	default: memcpy(&u64, d, 8); return u64;
	}
}

static uint64_t eval(const struct node *n, const unsigned char *d)
{
	uint64_t l, r;

	switch (n->kind) {
	case N_CONST:
		return n->val;
	case N_FIELD:
		return read_num(d + n->off, n->size);
	case N_TERN:
		return eval(n->c, d) ? eval(n->l, d) : eval(n->r, d);
	}
	l = eval(n->l, d);
	r = eval(n->r, d);
	switch (n->op[0]) {
	case '!': return l != r;
	case '|': return n->op[1] ? l || r : (l | r);
	case '&': return n->op[1] ? l && r : (l & r);
	case '<': return n->op[1] == '<' ? l << r : n->op[1] == '=' ? l <= r : l < r;
	case '>': return n->op[1] == '>' ? l >> r : n->op[1] == '=' ? l >= r : l > r;
	case '=': return l == r;
	case '-': return l - r;
	case '+': return l + r;
	case '/': return r ? l / r : 0;
	case '%': return r ? l % r : 0;
	default: return l * r;
	}
}

static bool reserve(struct rp_buf *b, size_t n)
{
	if (b->len + n <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : 1 << 16;
	while (cap < b->len + n)
		cap *= 2;
	char *p = realloc(b->p, cap);
	if (!p)
		return false;
	b->p = p;
	b->cap = cap;
	return true;
}

/* Most pieces are a few bytes: fixed-size copies beat a call to memcpy. */
static inline void copy_small(char *d, const char *s, size_t n)
{
	if (n >= 8 && n <= 16) {
		memcpy(d, s, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 4 && n < 8) {
		memcpy(d, s, 4);
		memcpy(d + n - 4, s + n - 4, 4);
	} else if (n < 4) {
		for (size_t i = 0; i < n; i++)
			d[i] = s[i];
	} else {
		memcpy(d, s, n);
	}
}

static inline bool put(struct rp_buf *b, const char *s, size_t n)
{
	if (b->len + n > b->cap && !reserve(b, n))
		return false;
	copy_small(b->p + b->len, s, n);
	b->len += n;
	return true;
}

int rp_buf_put(struct rp_buf *b, const char *s, size_t n)
{
	return put(b, s, n) ? 0 : -1;
}

static bool put_c(struct rp_buf *b, char c)
{
	return put(b, &c, 1);
}

static bool put_s(struct rp_buf *b, const char *s)
{
	return put(b, s, strlen(s));
}

static bool put_pad(struct rp_buf *b, char c, int n)
{
	if (n <= 0)
		return true;
	if (!reserve(b, (size_t)n))
		return false;
	memset(b->p + b->len, c, (size_t)n);
	b->len += (size_t)n;
	return true;
}

/* The digits of mag in base 10 or 16, written backwards ending at end; their count. */
static inline int digits(char *end, uint64_t mag, int base, bool upper)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	const char *hex = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char *p = end;

	if (base == 16) {
		do {
			*--p = hex[mag & 15];
			mag >>= 4;
		} while (mag);
		return (int)(end - p);
	}
	while (mag >= 100) {
		unsigned i = (unsigned)(mag % 100) * 2;
		mag /= 100;
		*--p = pairs[i + 1];
		*--p = pairs[i];
	}
	if (mag >= 10) {
		*--p = pairs[mag * 2 + 1];
		*--p = pairs[mag * 2];
	} else {
		*--p = (char)('0' + mag);
	}
	return (int)(end - p);
}

/* An integer as printf's %[-0][width](d|u|x|X) prints it. */
static bool put_int(struct rp_buf *b, uint64_t mag, bool neg, int base, bool upper, int width,
		    bool left, bool zero)
{
	char tmp[24];
	int n = digits(tmp + sizeof(tmp), mag, base, upper), len = n + neg;
	const char *d = tmp + sizeof(tmp) - n;

	if (!width || width <= len) {
		if (neg && !put_c(b, '-'))
			return false;
		return put(b, d, (size_t)n);
	}
	if (left) {
		if ((neg && !put_c(b, '-')) || !put(b, d, (size_t)n))
			return false;
		return put_pad(b, ' ', width - len);
	}
	if (zero) {
		if (neg && !put_c(b, '-'))
			return false;
		if (!put_pad(b, '0', width - len))
			return false;
	} else {
		if (!put_pad(b, ' ', width - len) || (neg && !put_c(b, '-')))
			return false;
	}
	return put(b, d, (size_t)n);
}

/* The value cast as libtraceevent casts it for the length modifier, then printed. */
static bool put_num(struct rp_buf *b, const struct step *st, uint64_t v)
{
	int bits = st->ls == -2 ? 8 : st->ls == -1 ? 16 : st->ls == 0 ? 32 : 64;
	uint64_t mask = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
	char tmp[128];
	int n;

	if (st->simple) {
		bool sgn = st->conv == 'd' || st->conv == 'i';
		uint64_t u = v & mask;
		bool neg = sgn && (u >> (bits - 1)) & 1;
		if (neg)
			u = (~u + 1) & mask;
		return put_int(b, u, neg, st->conv == 'x' || st->conv == 'X' ? 16 : 10,
			       st->conv == 'X', st->width, st->left, st->zero);
	}
	switch (st->ls) {
	case -2: n = snprintf(tmp, sizeof(tmp), st->fmt, (char)v); break;
	case -1: n = snprintf(tmp, sizeof(tmp), st->fmt, (short)v); break;
	case 0: n = snprintf(tmp, sizeof(tmp), st->fmt, (int)v); break;
	case 1: n = snprintf(tmp, sizeof(tmp), st->fmt, (long)v); break;
	default: n = snprintf(tmp, sizeof(tmp), st->fmt, (long long)v); break;
	}
	if (n < 0 || (size_t)n >= sizeof(tmp))
		return false;
	/* As trace_seq_printf: every byte printf made, a %c of 0 included. */
	return put(b, tmp, (size_t)n);
}

static bool put_fmt_str(struct rp_buf *b, const struct step *st, const char *s, size_t len)
{
	char tmp[512];
	int n;

	if (!strcmp(st->fmt, "%s"))
		return put(b, s, len);
	n = snprintf(tmp, sizeof(tmp), st->fmt, s);
	if (n < 0 || (size_t)n >= sizeof(tmp))
		return false;
	return put(b, tmp, (size_t)n);
}

struct rec {
	const unsigned char *d;
	unsigned size;
};

/* Text of a string source; false sends the event to the reference printer. */
static bool put_str(struct rp_buf *b, const struct step *st, const struct strsrc *s,
		    const struct rec *r)
{
	char one[512];
	const char *str;
	uint64_t v;

	switch (s->kind) {
	case S_ATOM:
		return put_fmt_str(b, st, s->atom, strlen(s->atom));
	case S_FIELD: {
		size_t len = strnlen((const char *)r->d + s->off, s->size);
		if (!strcmp(st->fmt, "%s"))
			return put(b, (const char *)r->d + s->off, len);
		if (len >= sizeof(one))
			return false;
		memcpy(one, r->d + s->off, len);
		one[len] = '\0';
		return put_fmt_str(b, st, one, len);
	}
	case S_DYN: {
		uint64_t w = read_num(r->d + s->off, s->size);
		unsigned o = (unsigned)(w & 0xffff);
		unsigned l = s->size == 2 ? r->size - o : (unsigned)((w >> 16) & 0xffff);
		if (o > r->size || o + l > r->size)
			return false;
		if (!l)
			return true;
		o += s->rel;
		if (o >= r->size)
			return false;
		str = (const char *)r->d + o;
		const char *nul = memchr(str, '\0', r->size - o);
		if (!nul)
			return false;
		return put_fmt_str(b, st, str, (size_t)(nul - str));
	}
	case S_SYMBOL:
		v = eval(s->num, r->d);
		for (int i = 0; i < s->nsyms; i++)
			if ((long long)v == s->syms[i].val)
				return put_fmt_str(b, st, s->syms[i].str, strlen(s->syms[i].str));
		return put_s(b, "0x") && put_int(b, v, false, 16, false, 0, false, false);
	case S_FLAGS: {
		bool printed = false;
		v = eval(s->num, r->d);
		for (int i = 0; i < s->nsyms; i++) {
			long long fv = s->syms[i].val;
			if (!v && fv < 0)
				return put_fmt_str(b, st, s->syms[i].str, strlen(s->syms[i].str));
			if (fv > 0 && (v & (uint64_t)fv) == (uint64_t)fv) {
				if (printed && s->delim && !put_s(b, s->delim))
					return false;
				if (!put_fmt_str(b, st, s->syms[i].str, strlen(s->syms[i].str)))
					return false;
				printed = true;
				v &= ~(uint64_t)fv;
			}
		}
		if (!v)
			return true;
		if (printed && s->delim && !put_s(b, s->delim))
			return false;
		return put_s(b, "0x") && put_int(b, v, false, 16, false, 0, false, false);
	}
	default:
		return put_str(b, st, eval(s->num, r->d) ? s->a : s->b, r);
	}
}

static bool run_steps(const struct prog *p, const struct rec *r, struct rp_buf *b)
{
	for (int i = 0; i < p->nsteps; i++) {
		const struct step *st = &p->steps[i];
		bool ok;
		switch (st->kind) {
		case ST_LIT:
			ok = put(b, st->lit, st->litlen);
			break;
		case ST_NUM:
			ok = put_num(b, st, eval(st->num, r->d));
			break;
		default:
			ok = put_str(b, st, st->str, r);
			break;
		}
		if (!ok)
			return false;
	}
	return true;
}

static void forget_comms(struct rp_fast *f)
{
	f->gen++;
}

/* The comm as the plugin prints it ("%.*s"), registered for pid as the plugin does. */
static bool put_comm_saved(struct rp_fast *f, struct rp_buf *b,
			   const struct tep_format_field *fld, const struct rec *r, uint64_t pid)
{
	char comm[256];
	size_t len = strnlen((const char *)r->d + fld->offset, (size_t)fld->size);

	if (len >= sizeof(comm))
		return false;
	memcpy(comm, r->d + fld->offset, len);
	comm[len] = '\0';
	tep_register_comm(f->tep, comm, (int)pid);
	forget_comms(f);
	return put(b, comm, len);
}

static uint64_t fval(const struct tep_format_field *fld, const struct rec *r)
{
	return read_num(r->d + fld->offset, (unsigned)fld->size);
}

static bool put_ll(struct rp_buf *b, long long v)
{
	return put_int(b, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0, 10, false, 0, false, false);
}

static bool put_state(struct rp_buf *b, const struct prog *p, uint64_t val)
{
	bool found = false;

	for (int i = 0; i < 32; i++) {
		/* The plugin tests (1 << i), an int: bit 31 is sign-extended. */
		uint64_t bit = i == 31 ? 0xffffffff80000000ull : (uint64_t)1 << i;
		if (!p->states[i] || !(val & bit))
			continue;
		if (found && !put_c(b, '|'))
			return false;
		found = true;
		if (!put_c(b, p->states[i]))
			return false;
	}
	return found || put_c(b, 'R');
}

static void set_num(unsigned char *d, const struct tep_format_field *fld, uint64_t v)
{
	uint8_t u8 = (uint8_t)v;
	uint16_t u16 = (uint16_t)v;
	uint32_t u32 = (uint32_t)v;

	switch (fld->size) {
	case 1: memcpy(d + fld->offset, &u8, 1); break;
	case 2: memcpy(d + fld->offset, &u16, 2); break;
	case 4: memcpy(d + fld->offset, &u32, 4); break;
	default: memcpy(d + fld->offset, &v, 8); break;
	}
}

/*
 * Learn the plugin's prev_state letters: print a copy of this record through the
 * plugin with one bit set at a time.  The comms it registers are this record's,
 * which printing the record registers anyway.
 */
static bool calibrate(struct rp_fast *f, struct prog *p, struct tep_event *ev,
		      const struct tep_record *rec)
{
	struct tep_record copy = *rec;
	struct trace_seq s;
	unsigned char *d = malloc((size_t)rec->size);
	char prefix[64];
	size_t plen = strnlen((const char *)rec->data + p->comm->offset, (size_t)p->comm->size);
	bool ok = d != NULL;

	if (!ok)
		return false;
	memcpy(d, rec->data, (size_t)rec->size);
	copy.data = d;
	plen += (size_t)snprintf(prefix, sizeof(prefix), ":%lld [%d] ",
				 (long long)read_num(d + p->pid->offset, (unsigned)p->pid->size),
				 (int)read_num(d + p->prio->offset, (unsigned)p->prio->size));
	trace_seq_init(&s);
	for (int i = 0; i < 32 && ok; i++) {
		set_num(d, p->state, (uint64_t)1 << i);
		trace_seq_reset(&s);
		ev->handler(&s, &copy, ev, ev->context);
		trace_seq_terminate(&s);
		const char *arrow = s.len > plen ? strstr(s.buffer + plen, " ==> ") : NULL;
		if (!arrow || (arrow - s.buffer != (long)plen + 1))
			ok = false;
		else if (s.buffer[plen] != 'R')
			p->states[i] = s.buffer[plen];
	}
	trace_seq_destroy(&s);
	free(d);
	forget_comms(f);
	p->calibrated = true;
	return ok;
}

static bool run_switch(struct rp_fast *f, const struct prog *p, const struct rec *r,
		       struct rp_buf *b)
{
	uint64_t pid = fval(p->pid, r), npid = fval(p->npid, r);

	return put_comm_saved(f, b, p->comm, r, pid) && put_c(b, ':') &&
	       put_ll(b, (long long)pid) && put_s(b, " [") &&
	       put_ll(b, (int)fval(p->prio, r)) && put_s(b, "] ") &&
	       put_state(b, p, fval(p->state, r)) && put_s(b, " ==> ") &&
	       put_comm_saved(f, b, p->ncomm, r, npid) && put_c(b, ':') &&
	       put_ll(b, (long long)npid) && put_s(b, " [") &&
	       put_ll(b, (int)fval(p->nprio, r)) && put_c(b, ']');
}

static bool run_wakeup(struct rp_fast *f, const struct prog *p, const struct rec *r,
		       struct rp_buf *b)
{
	uint64_t pid = fval(p->pid, r);

	if (p->comm && !(put_comm_saved(f, b, p->comm, r, pid) && put_c(b, ':')))
		return false;
	if (!put_ll(b, (long long)pid))
		return false;
	if (p->prio && !(put_s(b, " [") && put_ll(b, (long long)fval(p->prio, r)) &&
			 put_c(b, ']')))
		return false;
	if (p->success && !(put_s(b, " success=") && put_ll(b, (long long)fval(p->success, r))))
		return false;
	if (p->tcpu && !(put_s(b, " CPU:") &&
			 put_int(b, fval(p->tcpu, r), false, 10, false, 3, false, true)))
		return false;
	return true;
}

static const char *comm_of(struct rp_fast *f, int pid, size_t *len)
{
	struct comm_slot *c = &f->comms[(unsigned)pid % COMM_CACHE];

	if (c->gen != f->gen || c->pid != pid || !c->comm) {
		c->pid = pid;
		c->gen = f->gen;
		c->comm = tep_data_comm_from_pid(f->tep, pid);
		c->len = strlen(c->comm);
	}
	*len = c->len;
	return c->comm;
}

/* "%16s-%-5d [%03d] %6.1000d: NAME: " and the padding to 20 columns. */
static bool put_header(struct rp_fast *f, const struct prog *p, const struct tep_record *rec,
		       int cpu, struct rp_buf *b)
{
	static const char spaces[] = "                    ";
	int pid = (int)read_num((const unsigned char *)rec->data + p->pid_off, p->pid_size);
	size_t clen;
	const char *comm = comm_of(f, pid, &clen);

	if (!reserve(b, 128 + clen + p->namelen))
		return false;
	if (clen < 16)
		put_pad(b, ' ', (int)(16 - clen));
	put(b, comm, clen);
	put_c(b, '-');
	put_ll(b, pid);
	/* %-5d */
	if (pid >= 0 && pid < 10000)
		put_pad(b, ' ', pid < 10 ? 4 : pid < 100 ? 3 : pid < 1000 ? 2 : 1);
	else if (pid < 0 && pid > -1000)
		put_pad(b, ' ', pid > -10 ? 3 : pid > -100 ? 2 : 1);
	put_s(b, " [");
	put_int(b, (uint64_t)cpu, false, 10, false, 3, false, true);
	if (f->ts_usecs) {
		uint64_t t = (rec->ts + 500) / 1000;
		put_s(b, "] ");
		put_int(b, t / 1000000, false, 10, false, 5, false, false);
		put_c(b, '.');
		put_int(b, t % 1000000, false, 10, false, 6, false, true);
	} else {
		uint64_t p10 = 1000000000000ull;
		put_c(b, ']');
		put_int(b, rec->ts / p10, false, 10, false, 5, false, false);
		put_c(b, '.');
		put_int(b, rec->ts % p10, false, 10, false, 12, false, true);
	}
	put_s(b, ": ");
	put(b, p->name, p->namelen);
	put_s(b, ": ");
	if (p->namelen < 20)
		put(b, spaces, 20 - p->namelen);
	return true;
}

static bool put_missed(struct rp_buf *b, const struct tep_record *rec, int cpu)
{
	char tmp[96];
	int n;

	if (rec->missed_events > 0)
		n = snprintf(tmp, sizeof(tmp), "CPU:%d [%lld EVENTS DROPPED]\n", cpu,
			     rec->missed_events);
	else
		n = snprintf(tmp, sizeof(tmp), "CPU:%d [EVENTS DROPPED]\n", cpu);
	return put(b, tmp, (size_t)n);
}

static void note_generic(struct rp_fast *f, struct tep_event *ev)
{
	size_t used = strlen(f->generic_names);

	f->ngeneric++;
	if (used + strlen(ev->name) + 3 < sizeof(f->generic_names))
		snprintf(f->generic_names + used, sizeof(f->generic_names) - used, "%s%s",
			 used ? ", " : "", ev->name);
}

static struct prog *prog_of(struct rp_fast *f, struct tep_event *ev)
{
	struct prog *p;
	struct cc c;

	if (ev->id < 0 || ev->id >= MAX_ID)
		return NULL;
	if (f->progs[ev->id])
		return f->progs[ev->id];
	p = own(f, sizeof(*p));
	if (!p)
		return NULL;
	p->name = ev->name;
	p->namelen = strlen(ev->name);
	c = (struct cc){ .f = f, .ev = ev, .p = p };
	if (!compile_event(&c)) {
		p->kind = P_GENERIC;
		note_generic(f, ev);
	} else {
		f->ncompiled++;
	}
	f->progs[ev->id] = p;
	return p;
}

static int reference_line(struct rp_fast *f, struct tep_record *rec, struct tep_event *ev,
			  int cpu, struct rp_buf *b)
{
	trace_seq_reset(&f->s);
	rp_format_line(f->tep, rec, ev, cpu, f->ts_usecs, &f->s);
	/* Plugins' handlers may register comms: the cache must not outlive that. */
	forget_comms(f);
	if (f->s.state != TRACE_SEQ__GOOD)
		return -1;
	return put(b, f->s.buffer, f->s.len) ? 0 : -1;
}

int rp_fast_line(struct rp_fast *f, struct tep_record *rec, struct tep_event *ev, int cpu,
		 struct rp_buf *b)
{
	struct prog *p = ev ? prog_of(f, ev) : NULL;
	struct rec r = { .d = rec->data, .size = rec->size > 0 ? (unsigned)rec->size : 0 };
	size_t start = b->len;
	bool ok;

	if (!p || p->kind == P_GENERIC || r.size < p->need)
		return reference_line(f, rec, ev, cpu, b);
	ok = (!rec->missed_events || put_missed(b, rec, cpu)) && put_header(f, p, rec, cpu, b);
	/* After the header, as in the reference: the comm table's first use comes first. */
	if (ok && p->kind == P_SWITCH && !p->calibrated && !calibrate(f, p, ev, rec)) {
		p->kind = P_GENERIC;
		f->ncompiled--;
		note_generic(f, ev);
		ok = false;
	}
	if (ok && p->kind == P_STEPS)
		ok = run_steps(p, &r, b);
	else if (ok && p->kind == P_SWITCH)
		ok = run_switch(f, p, &r, b);
	else if (ok)
		ok = run_wakeup(f, p, &r, b);
	if (!ok) {
		b->len = start;
		return reference_line(f, rec, ev, cpu, b);
	}
	if (b->len > start && b->p[b->len - 1] == '\n')
		b->len--;
	return 0;
}

struct rp_fast *rp_fast_new(struct tep_handle *tep, bool ts_usecs)
{
	struct rp_fast *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->tep = tep;
	f->ts_usecs = ts_usecs;
	f->gen = 1;
	f->usable = tep_is_file_bigendian(tep) == tep_is_local_bigendian(tep);
	f->progs = calloc(MAX_ID, sizeof(*f->progs));
	if (!f->progs) {
		free(f);
		return NULL;
	}
	trace_seq_init(&f->s);
	return f;
}

void rp_fast_free(struct rp_fast *f)
{
	if (!f)
		return;
	for (int i = 0; i < MAX_ID; i++)
		if (f->progs[i])
			free(f->progs[i]->steps);
	for (size_t i = 0; i < f->nowned; i++)
		free(f->owned[i]);
	free(f->owned);
	free(f->progs);
	trace_seq_destroy(&f->s);
	free(f);
}

void rp_fast_summary(const struct rp_fast *f, char *out, size_t len)
{
	snprintf(out, len, "%d formats compiled, %d on the reference printer%s%s", f->ncompiled,
		 f->ngeneric, f->ngeneric ? ": " : "", f->generic_names);
}
