/*
 * Translation of a probe_def to the kernel's definition syntax (see
 * translate.h for the rewrites and why each is needed).
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "probe/regs.h"
#include "probe/translate.h"
#include "util/strbuf.h"

static bool is_string_type(const struct pd_type *t)
{
	return t->kind == PD_T_STRING || t->kind == PD_T_USTRING;
}

static bool is_memory(const struct pd_fetch *f)
{
	return f->op == PD_F_DEREF || f->op == PD_F_MEM || f->op == PD_F_SYM || f->op == PD_F_FILEOFF;
}

static void put_offs(struct strbuf *out, int64_t offs)
{
	if (offs < 0)
		sb_printf(out, "-%" PRIu64, (uint64_t)0 - (uint64_t)offs);
	else
		sb_printf(out, "+%" PRId64, offs);
}

static void put_fetch(const struct probe_def *def, const struct pd_fetch *f, struct strbuf *out)
{
	const struct pd_reg_desc *r;
	bool user = def->target == PD_USER;

	switch (f->op) {
	case PD_F_REG:
		sb_printf(out, "%%%s", f->reg_name);
		break;
	case PD_F_MEM:
		sb_printf(out, "@0x%" PRIx64, f->addr);
		break;
	case PD_F_SYM:
		if (user) {
			/* uprobes: @+X reads at (probe address - probe file offset) + X */
			sb_printf(out, "@+0x%" PRIx64, f->addr - (def->vaddr - def->file_offset));
		} else {
			sb_printf(out, "@%s", f->sym);
			if (f->offs)
				put_offs(out, f->offs);
		}
		break;
	case PD_F_FILEOFF:
		sb_printf(out, "@+0x%" PRIx64, (uint64_t)f->offs);
		break;
	case PD_F_STACKN:
		sb_printf(out, "$stack%u", f->n);
		break;
	case PD_F_STACK:
		sb_add(out, "$stack");
		break;
	case PD_F_RETVAL:
		sb_add(out, "$retval");
		break;
	case PD_F_COMM:
		sb_add(out, "$comm");
		break;
	case PD_F_ARGN:
		r = pd_arg_reg(f->n);
		if (r)
			sb_printf(out, "%%%s", r->name);
		else	/* at entry [sp] is the return address: argument 7 is above it */
			sb_printf(out, "+%u(%%sp)", 8 * (f->n - 6));
		break;
	case PD_F_IMM:
		sb_printf(out, "\\0x%" PRIx64, f->imm);
		break;
	case PD_F_DEREF:
		sb_addc(out, f->offs < 0 ? '-' : '+');
		if (f->user && !user)
			sb_addc(out, 'u');
		sb_printf(out, "%" PRIu64 "(", f->offs < 0 ? (uint64_t)0 - (uint64_t)f->offs
							   : (uint64_t)f->offs);
		put_fetch(def, f->child, out);
		sb_addc(out, ')');
		break;
	}
}

static void put_type(const struct probe_def *def, const struct pd_type *t, struct strbuf *out)
{
	switch (t->kind) {
	case PD_T_U:
	case PD_T_S:
	case PD_T_X:
		sb_printf(out, "%c%u", t->kind == PD_T_U ? 'u' : t->kind == PD_T_S ? 's' : 'x',
			  t->size * 8);
		break;
	case PD_T_CHAR:
		sb_add(out, "char");
		break;
	case PD_T_STRING:
		sb_add(out, "string");
		break;
	case PD_T_USTRING:
		sb_add(out, "ustring");
		break;
	case PD_T_SYMBOL:
		/* %pS of a user address means nothing to the kernel: tracekit names it */
		sb_add(out, def->target == PD_USER ? "x64" : "symbol");
		break;
	case PD_T_BITFIELD:
		sb_printf(out, "b%u@%u/%u", t->bf_width, t->bf_offset, t->size * 8);
		break;
	}
	if (t->array)
		sb_printf(out, "[%u]", t->array);
}

static void put_arg(const struct probe_def *def, const struct pd_arg *a, struct strbuf *out)
{
	sb_printf(out, " %s=", a->name);
	const struct pd_fetch *f = a->fetch;
	bool wrap = is_string_type(&a->type) && !is_memory(f) && f->op != PD_F_COMM;
	if (wrap)
		sb_add(out, "+0(");
	put_fetch(def, f, out);
	if (wrap)
		sb_addc(out, ')');
	sb_addc(out, ':');
	put_type(def, &a->type, out);
}

/* A C identifier from s: other characters become '_'. */
static void ident(const char *s, size_t n, struct strbuf *out)
{
	for (size_t i = 0; i < n && s[i]; i++)
		sb_addc(out, isalnum((unsigned char)s[i]) ? s[i] : '_');
}

void pd_event_name(const struct probe_def *def, char *out, size_t outlen)
{
	struct strbuf sb = STRBUF_INIT;
	bool ret = def->kind == PD_RETURN;
	if (def->usdt_name) {
		sb_add(&sb, def->usdt_name);
	} else if (def->symbol) {
		const char *paren = strchr(def->symbol, '(');
		size_t n = paren ? (size_t)(paren - def->symbol) : strlen(def->symbol);
		ident(def->symbol, n, &sb);
		if (def->offset)
			sb_printf(&sb, "_%" PRId64, def->offset);
	} else {
		/* the kernel's default: p_<file name up to the first '.', '-' or '_'>_0x<offset> */
		const char *base = def->path ? strrchr(def->path, '/') : NULL;
		base = base ? base + 1 : def->path ? def->path : "kernel";
		sb_printf(&sb, "%c_", ret ? 'r' : 'p');
		ident(base, strcspn(base, ".-_"), &sb);
		sb_printf(&sb, "_0x%" PRIx64, def->address);
		ret = false;
	}
	if (ret)
		sb_add(&sb, "__return");
	if (isdigit((unsigned char)sb_str(&sb)[0]))
		snprintf(out, outlen, "_%s", sb_str(&sb));
	else
		snprintf(out, outlen, "%s", sb_str(&sb));
	/* The kernel's MAX_EVENT_NAME_LEN is 64 with the NUL. */
	if (strlen(out) > 63)
		out[63] = '\0';
	sb_free(&sb);
}

int pd_translate(const struct probe_def *def, const char *group, const char *event,
		 struct strbuf *out, char *err, size_t errlen)
{
	char ev[64];
	if (def->target == PD_USER && !def->resolved) {
		snprintf(err, errlen, "internal: probe '%s' translated before it was resolved",
			 def->text ? def->text : "");
		return -1;
	}
	for (size_t i = 0; i < def->nargs; i++)
		if (!def->args[i].fetch && !def->args[i].from_event_pid) {
			snprintf(err, errlen, "internal: C argument '%s' translated before it was "
				 "resolved", def->args[i].text);
			return -1;
		}
	if (!event) {
		pd_event_name(def, ev, sizeof(ev));
		event = ev;
	}
	if (!group)
		group = pd_default_group(def);
	sb_addc(out, def->kind == PD_RETURN ? 'r' : 'p');
	if (def->maxactive && def->target == PD_KERNEL)
		sb_printf(out, "%u", def->maxactive);
	sb_printf(out, ":%s/%s ", group, event);
	if (def->target == PD_USER) {
		sb_printf(out, "%s:0x%" PRIx64, def->path, def->file_offset);
		if (def->ref_ctr_offset)
			sb_printf(out, "(0x%" PRIx64 ")", def->ref_ctr_offset);
	} else {
		if (def->module)
			sb_printf(out, "%s:", def->module);
		if (def->symbol) {
			sb_add(out, def->symbol);
			if (def->offset)
				sb_printf(out, "+%" PRId64, def->offset);
		} else {
			sb_printf(out, "0x%" PRIx64, def->address);
		}
	}
	pd_translate_args(def, out);
	return 0;
}

void pd_translate_args(const struct probe_def *def, struct strbuf *out)
{
	for (size_t i = 0; i < def->nargs; i++)
		if (def->args[i].fetch)	/* not the event's pid ($current->pid), which has none */
			put_arg(def, &def->args[i], out);
}
