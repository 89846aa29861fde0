/*
 * The fetch-arg evaluator: what the kernel's probe handlers do with an
 * event's args, done in user space for the ptrace backend.  A fetch tree is
 * evaluated against one hit (registers, memory reader), and each arg is
 * printed as the kernel's trace output prints its type, so both backends
 * print the same line for the same hit.
 *
 * Memory fetches (@ADDR, @SYM, +OFFS(...)) are evaluated to an address and
 * read with the arg's own size, like the kernel's last dereference: a u8 at
 * the last byte of a mapping reads fine.
 */
#include <inttypes.h>
#include <string.h>

#include "probe/probe_def.h"
#include "probe/regs.h"
#include "util/strbuf.h"

#define PD_MAX_STRING 4096	/* the kernel's MAX_STRING_SIZE (PATH_MAX), NUL included */
#define FAULT_TEXT "(fault)"	/* the kernel's FAULT_STRING */

static uint64_t reg_value(const struct pd_ctx *ctx, unsigned off)
{
	uint64_t v;
	memcpy(&v, (const char *)ctx->regs + off, sizeof(v));
	return v;
}

static int read_u64(const struct pd_ctx *ctx, uint64_t addr, uint64_t *val)
{
	return ctx->read(ctx->opaque, addr, val, sizeof(*val)) < 0 ? -1 : 0;
}

static bool is_memory(const struct pd_fetch *f)
{
	return f->op == PD_F_DEREF || f->op == PD_F_MEM || f->op == PD_F_SYM || f->op == PD_F_FILEOFF;
}

/* The address a memory fetch reads from; -1 when it cannot be known (a fault below it). */
static int fetch_addr(const struct pd_fetch *f, const struct pd_ctx *ctx, uint64_t *addr)
{
	uint64_t base;
	switch (f->op) {
	case PD_F_MEM:
		*addr = f->addr;
		return 0;
	case PD_F_SYM:
	case PD_F_FILEOFF:
		if (!f->resolved)
			return -1;
		*addr = f->addr + ctx->load_bias;
		return 0;
	case PD_F_DEREF:
		if (pd_eval(f->child, ctx, &base) < 0)
			return -1;
		*addr = base + (uint64_t)f->offs;
		return 0;
	default:
		return -1;
	}
}

int pd_eval(const struct pd_fetch *f, const struct pd_ctx *ctx, uint64_t *val)
{
	const struct pd_reg_desc *r;
	uint64_t sp, addr;

	switch (f->op) {
	case PD_F_REG:
		*val = reg_value(ctx, f->reg);
		return 0;
	case PD_F_STACK:
		*val = ctx->regs->rsp;
		return 0;
	case PD_F_STACKN:
		return read_u64(ctx, ctx->regs->rsp + 8ull * f->n, val);
	case PD_F_RETVAL:
		if (!ctx->is_return)
			return -1;
		*val = ctx->retval;
		return 0;
	case PD_F_ARGN:
		r = pd_arg_reg(f->n);
		if (r) {
			*val = reg_value(ctx, r->offset);
			return 0;
		}
		/* At entry [sp] is the return address; argument 7 is the word above it. */
		sp = ctx->regs->rsp;
		return read_u64(ctx, sp + 8ull * (f->n - 6), val);
	case PD_F_IMM:
		*val = f->imm;
		return 0;
	case PD_F_COMM:
		return -1;	/* a string, not a number */
	case PD_F_MEM:
	case PD_F_SYM:
	case PD_F_FILEOFF:
	case PD_F_DEREF:
		if (fetch_addr(f, ctx, &addr) < 0)
			return -1;
		return read_u64(ctx, addr, val);
	}
	return -1;
}

/* A NUL-terminated string at addr, read page by page so a string near a mapping's end is whole. */
static int read_string(const struct pd_ctx *ctx, uint64_t addr, struct strbuf *out)
{
	char chunk[256];
	size_t total = 0;
	while (total < PD_MAX_STRING - 1) {
		size_t want = sizeof(chunk);
		size_t to_page = 4096 - ((addr + total) & 4095);
		if (want > to_page)
			want = to_page;
		if (want > PD_MAX_STRING - 1 - total)
			want = PD_MAX_STRING - 1 - total;
		/* A reader that cannot cross the end of what it maps gets smaller reads. */
		while (ctx->read(ctx->opaque, addr + total, chunk, want) < 0)
			if ((want /= 2) == 0)
				return -1;
		char *nul = memchr(chunk, '\0', want);
		size_t n = nul ? (size_t)(nul - chunk) : want;
		sb_addn(out, chunk, n);
		total += n;
		if (nul)
			break;
	}
	return 0;
}

static void print_string_at(const struct pd_ctx *ctx, uint64_t addr, struct strbuf *out)
{
	size_t mark = out->len;
	sb_addc(out, '"');
	if (read_string(ctx, addr, out) < 0) {
		sb_truncate(out, mark);
		sb_add(out, FAULT_TEXT);
		return;
	}
	sb_addc(out, '"');
}

/* One scalar of type t whose raw bytes are in v (little endian, t->size of them). */
static void print_scalar(const struct pd_type *t, uint64_t v, const struct pd_ctx *ctx,
			 struct strbuf *out)
{
	unsigned bits = t->size * 8;
	if (bits && bits < 64)		/* strings (size 0) keep the whole address */
		v &= (1ull << bits) - 1;
	switch (t->kind) {
	case PD_T_U:
		sb_printf(out, "%" PRIu64, v);
		break;
	case PD_T_S:
		if (bits < 64 && (v >> (bits - 1)) & 1)
			v |= ~0ull << bits;
		sb_printf(out, "%" PRId64, (int64_t)v);
		break;
	case PD_T_X:
		sb_printf(out, "0x%" PRIx64, v);
		break;
	case PD_T_CHAR:
		sb_printf(out, "'%c'", (char)v);
		break;
	case PD_T_SYMBOL:
		if (!ctx->symbolize || ctx->symbolize(ctx->opaque, v, out) < 0)
			sb_printf(out, "0x%" PRIx64, v);
		break;
	case PD_T_BITFIELD:
		v >>= t->bf_offset;
		if (t->bf_width < 64)
			v &= (1ull << t->bf_width) - 1;
		sb_printf(out, "%" PRIu64, v);
		break;
	case PD_T_STRING:
	case PD_T_USTRING:
		print_string_at(ctx, v, out);
		break;
	}
}

static bool is_string(const struct pd_type *t)
{
	return t->kind == PD_T_STRING || t->kind == PD_T_USTRING;
}

/* Element i of a memory arg: strings are pointers (8 bytes), scalars their own size. */
static int read_elem(const struct pd_ctx *ctx, uint64_t addr, const struct pd_type *t, unsigned i,
		     uint64_t *v)
{
	unsigned size = is_string(t) ? 8 : t->size;
	*v = 0;
	return ctx->read(ctx->opaque, addr + (uint64_t)i * size, v, size) < 0 ? -1 : 0;
}

/*
 * A value that could not be read: the kernel stores 0 for a number (and
 * prints it by its type) and "(fault)" only for a string; so do we.
 */
static void print_fault(const struct pd_type *t, const struct pd_ctx *ctx, struct strbuf *out)
{
	if (is_string(t))
		sb_add(out, FAULT_TEXT);
	else if (t->kind == PD_T_SYMBOL)
		sb_add(out, "0x0");
	else
		print_scalar(t, 0, ctx, out);
}

static void print_arg(const struct pd_arg *a, const struct pd_ctx *ctx, struct strbuf *out)
{
	const struct pd_fetch *f = a->fetch;
	const struct pd_type *t = &a->type;
	uint64_t v, addr;

	if (f->op == PD_F_COMM) {
		sb_printf(out, "\"%s\"", ctx->comm ? ctx->comm : "");
		return;
	}
	if (!is_memory(f)) {
		if (pd_eval(f, ctx, &v) < 0)
			print_fault(t, ctx, out);
		else
			print_scalar(t, v, ctx, out);	/* for strings, v is the string's address */
		return;
	}
	/* an address that cannot be known (a fault below it) faults each element */
	bool bad = fetch_addr(f, ctx, &addr) < 0;
	if (is_string(t) && !t->array) {
		if (bad)
			sb_add(out, FAULT_TEXT);
		else
			print_string_at(ctx, addr, out);	/* the last dereference reads the text */
		return;
	}
	unsigned n = t->array ? t->array : 1;
	if (t->array)
		sb_addc(out, '{');
	for (unsigned i = 0; i < n; i++) {
		if (i)
			sb_addc(out, ',');
		if (bad || read_elem(ctx, addr, t, i, &v) < 0)
			print_fault(t, ctx, out);
		else
			print_scalar(t, v, ctx, out);
	}
	if (t->array)
		sb_addc(out, '}');
}

void pd_format_args(const struct probe_def *def, const struct pd_ctx *ctx, struct strbuf *out)
{
	for (size_t i = 0; i < def->nargs; i++) {
		if (!def->args[i].fetch)	/* a C arg not resolved, or the event's pid */
			continue;
		sb_printf(out, " %s=", def->args[i].name);
		print_arg(&def->args[i], ctx, out);
	}
}

void pd_format_head(const struct probe_def *def, const struct pd_ctx *ctx, struct strbuf *out)
{
	if (def->kind == PD_RETURN || ctx->is_return)
		sb_printf(out, "(0x%" PRIx64 " <- 0x%" PRIx64 ")", ctx->ret_ip, ctx->func);
	else
		sb_printf(out, "(0x%" PRIx64 ")", (uint64_t)ctx->regs->rip);
}
