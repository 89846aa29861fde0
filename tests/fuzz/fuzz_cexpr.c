/*
 * Fuzz the C expressions of probe args: the parser (cexpr.c) on any text --
 * an expression, or one error at an offset inside it -- and the walk
 * (cwalk.c) of what parses through a small type graph of its own (a struct
 * with an int, a pointer to itself, a char *, a char array, a short array, a
 * bitfield, an embedded struct, a void * and a float), which must end in a
 * fetch tree and a type, or one message.  The fetch tree is then evaluated
 * on a memory that faults everywhere.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/cexpr.h"
#include "probe/cwalk.h"
#include "util/strbuf.h"

enum { T_INT = 1, T_CHAR, T_SHORT, T_FLOAT, T_VOID_PTR, T_CHAR_PTR, T_SELF_PTR, T_SELF, T_INNER,
       T_TAG, T_CODES, T_UINT };

static const struct {
	const char *name;
	uint64_t type, bits;
	unsigned width;
} self_members[] = {
	{ "id", T_INT, 0, 0 }, { "next", T_SELF_PTR, 64, 0 }, { "path", T_CHAR_PTR, 128, 0 },
	{ "tag", T_TAG, 192, 0 }, { "codes", T_CODES, 256, 0 }, { "flags", T_UINT, 320, 3 },
	{ "level", T_UINT, 323, 5 }, { "st", T_INNER, 384, 0 }, { "any", T_VOID_PTR, 512, 0 },
	{ "ratio", T_FLOAT, 576, 0 },
}, inner_members[] = {
	{ "bytes", T_INT, 0, 0 }, { "owner", T_SELF_PTR, 64, 0 },
};

static int fake_type(void *be, uint64_t id, struct cw_type *t)
{
	(void)be;
	memset(t, 0, sizeof(*t));
	t->id = id;
	strcpy(t->name, "t");
	switch (id) {
	case T_INT: t->kind = CW_INT; t->size = 4; t->is_signed = true; return 0;
	case T_UINT: t->kind = CW_INT; t->size = 4; return 0;
	case T_CHAR: t->kind = CW_INT; t->size = 1; t->is_char = true; return 0;
	case T_SHORT: t->kind = CW_INT; t->size = 2; t->is_signed = true; return 0;
	case T_FLOAT: t->kind = CW_FLOAT; t->size = 8; return 0;
	case T_VOID_PTR: t->kind = CW_PTR; t->size = 8; t->target_void = true; return 0;
	case T_CHAR_PTR: t->kind = CW_PTR; t->size = 8; t->target = T_CHAR; return 0;
	case T_SELF_PTR: t->kind = CW_PTR; t->size = 8; t->target = T_SELF; return 0;
	case T_SELF: t->kind = CW_STRUCT; t->size = 80; return 0;
	case T_INNER: t->kind = CW_STRUCT; t->size = 16; return 0;
	case T_TAG: t->kind = CW_ARRAY; t->size = 8; t->target = T_CHAR; t->nelems = 8; return 0;
	case T_CODES: t->kind = CW_ARRAY; t->size = 8; t->target = T_SHORT; t->nelems = 4; return 0;
	case 0: t->kind = CW_VOID; return 0;
	default: return -1;
	}
}

static int fake_member(void *be, const struct cw_type *st, const char *name, struct cw_member *m,
		       struct closest *c)
{
	(void)be;
	size_t n = st->id == T_SELF ? sizeof(self_members) / sizeof(self_members[0])
				    : sizeof(inner_members) / sizeof(inner_members[0]);
	for (size_t i = 0; i < n; i++) {
		const char *mn = st->id == T_SELF ? self_members[i].name : inner_members[i].name;
		if (!strcmp(mn, name)) {
			m->type = st->id == T_SELF ? self_members[i].type : inner_members[i].type;
			m->bit_offset = st->id == T_SELF ? self_members[i].bits : inner_members[i].bits;
			m->bit_size = st->id == T_SELF ? self_members[i].width : inner_members[i].width;
			return 0;
		}
		closest_offer(c, name, strlen(name), mn);
	}
	return -1;
}

static int no_memory(void *opaque, uint64_t addr, void *buf, size_t len)
{
	(void)opaque, (void)addr, (void)buf, (void)len;
	return -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cx_expr e;
	char msg[160], name[256], err[512];
	int pos;
	if (cx_parse((const char *)data, size, &e, &pos, msg, sizeof(msg)) < 0) {
		if (pos < 0 || (size_t)pos > size || !memchr(msg, '\0', sizeof(msg)) || !msg[0])
			abort();
		return 0;
	}
	cx_default_name(&e, name, sizeof(name));
	for (size_t i = 0; i <= e.nsteps; i++)
		cx_prefix(&e, i, name, sizeof(name));
	if (e.base != CX_VAR) {
		cx_free(&e);
		return 0;
	}
	/* the variable: a pointer to the struct in %di, or the struct itself on the stack */
	struct cw_ops ops = { fake_type, fake_member, NULL };
	struct cw_start st = { .fetch = cw_fetch_new(PD_F_REG), .type = T_SELF_PTR, .what = e.var };
	if (e.var[0] & 1) {
		st.in_memory = true;
		st.offs = -64;
		st.type = T_SELF;
	}
	struct pd_arg a = { 0 };
	if (size && (data[0] & 2)) {	/* a type given: string, or a number */
		a.type.given = true;
		a.type.kind = data[0] & 4 ? PD_T_STRING : PD_T_X;
		a.type.size = 8;
	}
	err[0] = '\0';
	if (cw_walk(&ops, &st, &e, &a, err, sizeof(err)) < 0) {
		if (!err[0] || a.fetch)
			abort();
	} else {
		if (!a.fetch)
			abort();
		struct user_regs_struct regs = { 0 };
		struct pd_ctx ctx = { .regs = &regs, .comm = "fuzz", .read = no_memory };
		uint64_t v;
		pd_eval(a.fetch, &ctx, &v);
		cw_fetch_free(a.fetch);
	}
	cw_fetch_free(st.fetch);
	cx_free(&e);
	return 0;
}
