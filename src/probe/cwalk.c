/*
 * The walk of a C expression through a type graph (see cwalk.h).
 *
 * The state is where the value reached so far lives: in a register (or a
 * constant) -- a fetch giving the value --, or in memory at base + offs.
 * "->" and "[N]" on a pointer load the pointer (one +OFFS(...) more) and
 * start a new base; "." and "[N]" on an array only move offs.  The last
 * value is read as the kernel's fetch args read: +OFFS(base):TYPE, and a
 * string at an address (+OFFS(base):string reads the string at base+OFFS,
 * so a char * member is +0(+OFFS(base)):string, a char array member
 * +OFFS(base):string).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/cwalk.h"
#include "util/die.h"

#define CW_MAX_DEREF 16		/* the kernel's FETCH_INSN_MAX nesting */
#define CW_MAX_ARRAY 64		/* the kernel's MAX_ARRAY_LEN */

struct pd_fetch *cw_fetch_new(enum pd_fetch_op op)
{
	struct pd_fetch *f = xcalloc(1, sizeof(*f));
	f->op = op;
	return f;
}

void cw_fetch_free(struct pd_fetch *f)
{
	while (f) {
		struct pd_fetch *child = f->child;
		free(f->sym);
		free(f);
		f = child;
	}
}

struct walk {
	const struct cw_ops *ops;
	const struct cx_expr *e;
	bool in_memory;
	struct pd_fetch *f;	/* value, or base (NULL: absolute address offs) */
	int64_t offs;
	unsigned derefs;
	char *err;
	size_t errlen;
};

static int depth(const struct pd_fetch *f)
{
	int n = 0;
	for (; f; f = f->child)
		n += f->op == PD_F_DEREF;
	return n;
}

/* The fetch reading what lies at base + offs (the state's memory). */
static struct pd_fetch *at_memory(struct walk *w)
{
	struct pd_fetch *d;
	if (!w->f) {
		d = cw_fetch_new(PD_F_SYM);
		d->addr = (uint64_t)w->offs;
		d->resolved = true;
		d->sym = xstrdup(w->e->var ? w->e->var : "addr");
	} else {
		d = cw_fetch_new(PD_F_DEREF);
		d->offs = w->offs;
		d->child = w->f;
	}
	w->f = NULL;
	w->offs = 0;
	return d;
}

/* The current value as a fetch (for a pointer about to be followed). */
static struct pd_fetch *value(struct walk *w)
{
	if (w->in_memory)
		return at_memory(w);
	struct pd_fetch *f = w->f;
	w->f = NULL;
	return f;
}

static int failw(struct walk *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int failw(struct walk *w, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(w->err, w->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int describe(struct walk *w, uint64_t id, struct cw_type *t, const char *what)
{
	if (w->ops->type(w->ops->be, id, t) < 0)
		return failw(w, "the type of %s is not known to the debug info", what);
	return 0;
}

/* Follow the pointer the state holds: the pointee is at the loaded value + 0. */
static int follow(struct walk *w, const char *what)
{
	if (depth(w->f) + (w->in_memory ? 1 : 0) >= CW_MAX_DEREF)
		return failw(w, "%s: more than %d pointers followed (the kernel's limit)", what,
			     CW_MAX_DEREF - 1);
	struct pd_fetch *v = value(w);
	w->in_memory = true;
	w->f = v;
	w->offs = 0;
	return 0;
}

static int member(struct walk *w, const struct cw_type *st, const struct cx_step *s,
		  const char *what, uint64_t *cur, struct cw_member *m)
{
	struct closest c;
	closest_init(&c, strlen(s->name) / 2 + 2);
	if (w->ops->member(w->ops->be, st, s->name, m, &c) < 0) {
		char hint[256];
		closest_join(&c, hint, sizeof(hint));
		closest_free(&c);
		(void)what;
		if (hint[0])
			return failw(w, "%s has no member %s; did you mean %s?", st->name, s->name,
				     hint);
		return failw(w, "%s has no member %s", st->name, s->name);
	}
	closest_free(&c);
	*cur = m->type;
	return 0;
}

/* The container of a bitfield: the member type's size, aligned, holding all its bits. */
static void bitfield_type(struct walk *w, const struct cw_member *m, unsigned tsize,
			  struct pd_type *t)
{
	uint64_t bit = m->bit_offset;
	unsigned size = tsize == 1 || tsize == 2 || tsize == 4 || tsize == 8 ? tsize : 8;
	uint64_t cont = (bit / 8) & ~(uint64_t)(size - 1);
	if (bit - cont * 8 + m->bit_size > size * 8u) {
		/* straddles its natural container: take the smallest from its first byte */
		cont = bit / 8;
		for (size = 1; size < 8 && bit - cont * 8 + m->bit_size > size * 8u; size *= 2)
			;
	}
	w->offs += (int64_t)cont;
	t->kind = PD_T_BITFIELD;
	t->size = size;
	t->bf_width = m->bit_size;
	t->bf_offset = (unsigned)(bit - cont * 8);
}

static bool scalar_size(unsigned s)
{
	return s == 1 || s == 2 || s == 4 || s == 8;
}

static int scalar_type(struct walk *w, const struct cw_type *t, struct pd_type *out,
		       const char *what)
{
	switch (t->kind) {
	case CW_INT:
	case CW_ENUM:
		if (!scalar_size(t->size))
			return failw(w, "%s is %s of %u bytes: fetch args read 1, 2, 4 or 8", what,
				     t->name, t->size);
		out->kind = t->is_signed ? PD_T_S : PD_T_U;
		out->size = t->size;
		return 0;
	case CW_PTR:
		out->kind = PD_T_X;
		out->size = 8;
		return 0;
	case CW_FLOAT:
		return failw(w, "%s is %s: fetch args have no floating point type (give one, "
			     "e.g. :x%u, to see its bits)", what, t->name, t->size * 8);
	case CW_STRUCT:
		return failw(w, "%s is %s: name one of its members (%s.MEMBER)", what, t->name, what);
	default:
		return failw(w, "%s is %s: it has no value a fetch arg can read", what, t->name);
	}
}

/* The end of the walk: the fetch and the type of the last value. */
static int finish(struct walk *w, uint64_t cur, const struct cw_member *bf, struct pd_arg *a,
		  const char *what)
{
	struct cw_type t, el;
	if (describe(w, cur, &t, what) < 0)
		return -1;
	bool str = a->type.given && (a->type.kind == PD_T_STRING || a->type.kind == PD_T_USTRING);
	if (str) {
		if (t.kind == CW_ARRAY && w->in_memory) {
			a->fetch = at_memory(w);
			return 0;
		}
		if (t.kind != CW_PTR && t.kind != CW_INT)
			return failw(w, "%s is %s: a string is read at a pointer or a char array",
				     what, t.name);
		struct pd_fetch *d = cw_fetch_new(PD_F_DEREF);
		d->child = value(w);
		a->fetch = d;
		return 0;
	}
	if (a->type.given) {
		if (t.kind == CW_STRUCT && !w->in_memory)
			return failw(w, "%s is %s held in registers: name a member", what, t.name);
		a->fetch = w->in_memory ? at_memory(w) : value(w);
		if (a->type.array && !w->in_memory && a->fetch->op != PD_F_DEREF &&
		    a->fetch->op != PD_F_SYM)
			return failw(w, "%s is in a register: an array needs memory", what);
		return 0;
	}
	if (bf && bf->bit_size) {
		if (!w->in_memory)
			return failw(w, "%s: a bitfield of a value in registers cannot be read", what);
		bitfield_type(w, bf, t.size, &a->type);
		a->fetch = at_memory(w);
		return 0;
	}
	if (t.kind == CW_PTR && !t.target_void) {
		if (describe(w, t.target, &el, what) < 0)
			return -1;
		if (el.kind == CW_INT && el.is_char) {
			a->type.kind = PD_T_STRING;
			struct pd_fetch *d = cw_fetch_new(PD_F_DEREF);
			d->child = value(w);
			a->fetch = d;
			return 0;
		}
	}
	if (t.kind == CW_ARRAY) {
		if (!w->in_memory)
			return failw(w, "%s is an array held in registers: it cannot be read", what);
		if (describe(w, t.target, &el, what) < 0)
			return -1;
		if (el.kind == CW_INT && el.is_char) {
			a->type.kind = PD_T_STRING;
			a->fetch = at_memory(w);
			return 0;
		}
		if (scalar_type(w, &el, &a->type, what) < 0)
			return -1;
		if (t.nelems == 0 || t.nelems > CW_MAX_ARRAY)
			return failw(w, "%s is %s: fetch args read arrays of 1 to %d elements; take "
				     "elements with %s[N]", what, t.name, CW_MAX_ARRAY, what);
		a->type.array = (unsigned)t.nelems;
		a->fetch = at_memory(w);
		return 0;
	}
	if (scalar_type(w, &t, &a->type, what) < 0)
		return -1;
	a->fetch = w->in_memory ? at_memory(w) : value(w);
	return 0;
}

int cw_walk(const struct cw_ops *ops, struct cw_start *start, const struct cx_expr *e,
	    struct pd_arg *a, char *err, size_t errlen)
{
	struct walk w = { ops, e, start->in_memory, start->fetch, start->offs, 0, err, errlen };
	uint64_t cur = start->type;
	struct cw_member m = { 0 }, *bf = NULL;
	char what[256];
	struct cw_type t;
	start->fetch = NULL;

	for (size_t i = 0; i < e->nsteps; i++) {
		const struct cx_step *s = &e->steps[i];
		cx_prefix(e, i, what, sizeof(what));
		if (bf) {
			failw(&w, "%s is a bitfield: it has no members or elements", what);
			goto fail;
		}
		if (describe(&w, cur, &t, what) < 0)
			goto fail;
		switch (s->kind) {
		case CX_ARROW:
			if (t.kind == CW_STRUCT) {
				failw(&w, "%s is %s, not a pointer: use %s.%s", what, t.name, what,
				      s->name);
				goto fail;
			}
			if (t.kind != CW_PTR || t.target_void) {
				failw(&w, "%s is %s, not a pointer to a struct", what, t.name);
				goto fail;
			}
			if (follow(&w, what) < 0)
				goto fail;
			if (describe(&w, t.target, &t, what) < 0)
				goto fail;
			if (t.kind != CW_STRUCT) {
				failw(&w, "%s points to %s, not to a struct", what, t.name);
				goto fail;
			}
			break;
		case CX_DOT:
			if (t.kind == CW_PTR) {
				failw(&w, "%s is %s, a pointer: use %s->%s", what, t.name, what, s->name);
				goto fail;
			}
			if (t.kind != CW_STRUCT) {
				failw(&w, "%s is %s, not a struct", what, t.name);
				goto fail;
			}
			if (!w.in_memory) {
				failw(&w, "%s is a struct held in registers: its members cannot be "
				      "read", what);
				goto fail;
			}
			break;
		case CX_INDEX: {
			struct cw_type el;
			if (t.kind == CW_ARRAY) {
				if (!w.in_memory) {
					failw(&w, "%s is an array held in registers", what);
					goto fail;
				}
				if (t.nelems && s->index >= t.nelems) {
					failw(&w, "%s[%" PRIu64 "]: %s has %" PRIu64 " elements", what,
					      s->index, what, t.nelems);
					goto fail;
				}
			} else if (t.kind == CW_PTR && !t.target_void) {
				if (follow(&w, what) < 0)
					goto fail;
			} else {
				failw(&w, "%s is %s: only arrays and pointers take [N]", what, t.name);
				goto fail;
			}
			if (describe(&w, t.target, &el, what) < 0)
				goto fail;
			if (el.size == 0) {
				failw(&w, "%s: the size of %s is not known", what, el.name);
				goto fail;
			}
			w.offs += (int64_t)(s->index * el.size);
			cur = t.target;
			continue;
		}
		}
		/* ->name or .name on the struct t, at base + offs */
		if (member(&w, &t, s, what, &cur, &m) < 0)
			goto fail;
		if (m.bit_size) {
			/* read from the struct's start: the container is found at the end */
			bf = &m;
			continue;
		}
		w.offs += (int64_t)(m.bit_offset / 8);
	}
	cx_prefix(e, e->nsteps, what, sizeof(what));
	if (finish(&w, cur, bf, a, what) < 0)
		goto fail;
	cw_fetch_free(w.f);
	return 0;
fail:
	cw_fetch_free(w.f);
	return -1;
}
