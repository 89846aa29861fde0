/*
 * Kernel probes' C args through BTF (libbpf's BTF API): the function's
 * FUNC_PROTO gives its parameters' names and types and its return type;
 * cwalk.c walks the members.  At a function's entry parameter N is in the
 * N-th argument register (x86_64: di si dx cx r8 r9, then the stack), as
 * $argN is.
 *
 * $current: kprobe fetch args of 6.1 cannot reach the running task (there
 * is no $current, and the per-CPU current_task is not a symbol fetch args
 * can follow portably), so only what the event itself carries is offered:
 * $current->comm is $comm, $current->pid the event's pid.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "probe/cexpr.h"
#include "probe/cresolve.h"
#include "probe/cwalk.h"
#include "probe/regs.h"
#include "util/die.h"

#define BTF_SYSFS_DIR "/sys/kernel/btf"

const char *pd_btf_vmlinux_path(void)
{
	const char *p = getenv("TRACEKIT_BTF");
	return p && *p ? p : BTF_SYSFS_DIR "/vmlinux";
}

/* vmlinux's BTF, loaded once per process (it is big) and kept. */
static struct btf *vmlinux(char *err, size_t errlen)
{
	static struct btf *v;
	if (v)
		return v;
	v = btf__parse(pd_btf_vmlinux_path(), NULL);
	if (!v) {
		snprintf(err, errlen, "cannot read the kernel's BTF from %s: %s (C expressions in "
			 "kernel probes need CONFIG_DEBUG_INFO_BTF; write raw fetch args instead)",
			 pd_btf_vmlinux_path(), strerror(errno));
		return NULL;
	}
	return v;
}

static const struct btf_type *peel(const struct btf *b, __u32 *id)
{
	const struct btf_type *t = btf__type_by_id(b, *id);
	while (t && (btf_is_typedef(t) || btf_is_mod(t) || btf_is_decl_tag(t))) {
		*id = t->type;
		t = btf__type_by_id(b, *id);
	}
	return t;
}

static void type_name(const struct btf *b, __u32 id, char *out, size_t outlen, int depth)
{
	const struct btf_type *t = btf__type_by_id(b, id);
	if (id == 0 || !t) {
		snprintf(out, outlen, "void");
		return;
	}
	const char *name = btf__name_by_offset(b, t->name_off);
	char inner[64];
	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT:
		snprintf(out, outlen, "struct %s", name && *name ? name : "(anonymous)");
		return;
	case BTF_KIND_UNION:
		snprintf(out, outlen, "union %s", name && *name ? name : "(anonymous)");
		return;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		snprintf(out, outlen, "enum %s", name && *name ? name : "(anonymous)");
		return;
	case BTF_KIND_PTR:
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
		if (depth > 4) {
			snprintf(out, outlen, "...");
			return;
		}
		type_name(b, t->type, inner, sizeof(inner), depth + 1);
		if (btf_is_ptr(t))
			snprintf(out, outlen, "%s *", inner);
		else
			snprintf(out, outlen, "%s", inner);
		return;
	case BTF_KIND_ARRAY:
		type_name(b, btf_array(t)->type, inner, sizeof(inner), depth + 1);
		snprintf(out, outlen, "%s[%u]", inner, btf_array(t)->nelems);
		return;
	case BTF_KIND_FUNC_PROTO:
		snprintf(out, outlen, "a function");
		return;
	default:
		snprintf(out, outlen, "%s", name && *name ? name : "(anonymous)");
	}
}

static int btf_type(void *be, uint64_t id64, struct cw_type *out)
{
	const struct btf *b = be;
	__u32 id = (__u32)id64;
	memset(out, 0, sizeof(*out));
	type_name(b, id, out->name, sizeof(out->name), 0);
	if (id == 0) {
		out->kind = CW_VOID;
		return 0;
	}
	const struct btf_type *t = peel(b, &id);
	if (!t)
		return -1;
	out->id = id;
	switch (btf_kind(t)) {
	case BTF_KIND_INT: {
		__u8 enc = btf_int_encoding(t);
		const char *n = btf__name_by_offset(b, t->name_off);
		out->kind = CW_INT;
		out->size = t->size;
		out->is_signed = enc & BTF_INT_SIGNED;
		out->is_char = t->size == 1 && ((enc & BTF_INT_CHAR) || (n && strstr(n, "char")));
		return 0;
	}
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		out->kind = CW_ENUM;
		out->size = t->size;
		out->is_signed = btf_kflag(t);
		return 0;
	case BTF_KIND_PTR: {
		__u32 tid = t->type;
		out->kind = CW_PTR;
		out->size = 8;
		out->target = t->type;
		out->target_void = tid == 0 || (peel(b, &tid), tid == 0);
		return 0;
	}
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		out->kind = CW_STRUCT;
		out->size = t->size;
		return 0;
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = btf_array(t);
		__s64 sz = btf__resolve_size(b, id);
		out->kind = CW_ARRAY;
		out->size = sz > 0 ? (unsigned)sz : 0;
		out->target = a->type;
		out->nelems = a->nelems;
		return 0;
	}
	case BTF_KIND_FLOAT:
		out->kind = CW_FLOAT;
		out->size = t->size;
		return 0;
	default:
		out->kind = CW_OTHER;
		return 0;
	}
}

/* name in struct id, through anonymous members; the bit offset adds up. */
static int find_member(const struct btf *b, __u32 id, const char *name, uint64_t base,
		       struct cw_member *out, struct closest *c, int depth)
{
	const struct btf_type *t = peel(b, &id);
	if (!t || !btf_is_composite(t) || depth > 8)
		return -1;
	const struct btf_member *m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, m++) {
		const char *n = btf__name_by_offset(b, m->name_off);
		uint64_t off = base + btf_member_bit_offset(t, (__u32)i);
		if (!n || !*n) {
			if (find_member(b, m->type, name, off, out, c, depth + 1) == 0)
				return 0;
			continue;
		}
		if (!strcmp(n, name)) {
			out->type = m->type;
			out->bit_offset = off;
			out->bit_size = btf_member_bitfield_size(t, (__u32)i);
			return 0;
		}
		if (c)
			closest_offer(c, name, strlen(name), n);
	}
	return -1;
}

static int btf_member(void *be, const struct cw_type *st, const char *name, struct cw_member *out,
		      struct closest *c)
{
	return find_member(be, (__u32)st->id, name, 0, out, c, 0);
}

/* The BTF of module mod (split on vmlinux's); NULL when it has none. */
static struct btf *module_btf(const char *mod, struct btf *base)
{
	char path[512];
	snprintf(path, sizeof(path), BTF_SYSFS_DIR "/%s", mod);
	return btf__parse_split(path, base);
}

/*
 * The function's FUNC_PROTO: in vmlinux, in the named module, or in any
 * module's BTF.  *owner is the BTF it was found in (vmlinux's or a module's,
 * which the caller frees when it is not base).
 */
static const struct btf_type *find_func(struct probe_def *def, struct btf *base,
					struct btf **owner, char *err, size_t errlen)
{
	__s32 id = -1;
	struct btf *b = base;
	if (def->module) {
		b = module_btf(def->module, base);
		if (!b) {
			snprintf(err, errlen, "module %s has no BTF (no " BTF_SYSFS_DIR "/%s): C "
				 "expressions need it", def->module, def->module);
			return NULL;
		}
	}
	id = btf__find_by_name_kind(b, def->symbol, BTF_KIND_FUNC);
	DIR *d = id < 0 && !def->module ? opendir(BTF_SYSFS_DIR) : NULL;
	struct dirent *de;
	while (d && id < 0 && (de = readdir(d))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "vmlinux"))
			continue;
		struct btf *m = module_btf(de->d_name, base);
		if (!m)
			continue;
		id = btf__find_by_name_kind(m, def->symbol, BTF_KIND_FUNC);
		if (id >= 0)
			b = m;
		else
			btf__free(m);
	}
	if (d)
		closedir(d);
	if (id < 0) {
		struct closest c;
		char hint[256];
		closest_init(&c, strlen(def->symbol) / 3 + 1);
		for (__u32 i = 1; i < btf__type_cnt(base); i++) {
			const struct btf_type *t = btf__type_by_id(base, i);
			if (btf_is_func(t))
				closest_offer(&c, def->symbol, strlen(def->symbol),
					      btf__name_by_offset(base, t->name_off));
		}
		closest_join(&c, hint, sizeof(hint));
		closest_free(&c);
		snprintf(err, errlen, "no function '%s' in the kernel's BTF%s%s%s (a static function "
			 "the compiler inlined or renamed has none)", def->symbol,
			 hint[0] ? " (did you mean " : "", hint, hint[0] ? "?)" : "");
		if (b != base)
			btf__free(b);
		return NULL;
	}
	*owner = b;
	const struct btf_type *fn = btf__type_by_id(b, (__u32)id);
	return btf__type_by_id(b, fn->type);
}

static struct pd_fetch *reg_fetch(const struct pd_reg_desc *r)
{
	struct pd_fetch *f = cw_fetch_new(PD_F_REG);
	f->reg = r->offset;
	snprintf(f->reg_name, sizeof(f->reg_name), "%s", r->name);
	return f;
}

/* $current->X: what the event itself carries. */
static int current_arg(struct pd_arg *a, char *err, size_t errlen)
{
	const struct cx_expr *e = a->cexpr;
	const char *m = e->steps[0].name;
	if (e->nsteps == 1 && !strcmp(m, "comm")) {
		if (a->type.given && a->type.kind != PD_T_STRING)
			return snprintf(err, errlen, "$current->comm is a string: use :string or no "
					"type"), -1;
		a->fetch = cw_fetch_new(PD_F_COMM);
		a->type.kind = PD_T_STRING;
		return 0;
	}
	if (e->nsteps == 1 && !strcmp(m, "pid")) {
		if (a->type.given)
			return snprintf(err, errlen, "$current->pid comes from the event's pid: it "
					"takes no type"), -1;
		a->from_event_pid = true;
		a->type.kind = PD_T_S;
		a->type.size = 4;
		return 0;
	}
	snprintf(err, errlen, "$current->%s: kprobe fetch args cannot reach the running task "
		 "(there is no $current in kprobe_events); only $current->comm and $current->pid, "
		 "which the event itself carries, can be had", e->text + strlen("$current->"));
	return -1;
}

static void param_names(const struct btf *b, const struct btf_type *proto, char *out, size_t len)
{
	const struct btf_param *p = btf_params(proto);
	size_t n = 0;
	out[0] = '\0';
	for (int i = 0; i < btf_vlen(proto) && n < len; i++, p++)
		n += (size_t)snprintf(out + n, len - n, "%s%s", i ? ", " : "",
				      btf__name_by_offset(b, p->name_off));
}

static int resolve_arg(struct probe_def *def, struct btf *b, const struct btf_type *proto,
		       struct pd_arg *a, char *err, size_t errlen)
{
	const struct cx_expr *e = a->cexpr;
	struct cw_ops ops = { btf_type, btf_member, b };
	struct cw_start st = { 0 };
	char names[512];

	if (e->base == CX_CURRENT)
		return current_arg(a, err, errlen);
	if (e->base == CX_RETVAL) {
		if (def->kind != PD_RETURN)
			return snprintf(err, errlen, "$retval is only for return probes (%s%%return)",
					def->symbol), -1;
		if (proto->type == 0)
			return snprintf(err, errlen, "%s returns void: there is no $retval",
					def->symbol), -1;
		st.fetch = cw_fetch_new(PD_F_RETVAL);
		st.type = proto->type;
		st.what = "$retval";
		return cw_walk(&ops, &st, e, a, err, errlen);
	}
	const struct btf_param *p = btf_params(proto);
	int n = btf_vlen(proto), i;
	for (i = 0; i < n; i++, p++)
		if (!strcmp(btf__name_by_offset(b, p->name_off), e->var))
			break;
	if (i == n) {
		struct closest c;
		char hint[256];
		closest_init(&c, strlen(e->var) / 2 + 2);
		p = btf_params(proto);
		for (int j = 0; j < n; j++, p++)
			closest_offer(&c, e->var, strlen(e->var), btf__name_by_offset(b, p->name_off));
		closest_join(&c, hint, sizeof(hint));
		closest_free(&c);
		param_names(b, proto, names, sizeof(names));
		if (hint[0])
			snprintf(err, errlen, "%s has no parameter %s; did you mean %s? (its parameters: "
				 "%s)", def->symbol, e->var, hint, names);
		else
			snprintf(err, errlen, "%s has no parameter %s (its parameters: %s; the kernel's "
				 "BTF has no local variables)", def->symbol, e->var,
				 names[0] ? names : "none");
		return -1;
	}
	if (def->kind == PD_RETURN)
		return snprintf(err, errlen, "%s: parameters are gone at return (this kernel keeps "
				"no entry data): probe the entry for them", e->var), -1;
	if (def->offset)
		return snprintf(err, errlen, "%s: BTF knows where parameters are only at the "
				"function's entry, not at %s+%lld", e->var, def->symbol,
				(long long)def->offset), -1;
	const struct pd_reg_desc *r = pd_arg_reg((unsigned)i + 1);
	if (r) {
		st.fetch = reg_fetch(r);
	} else {
		/* at entry [sp] is the return address: the 7th argument is the word above */
		st.in_memory = true;
		st.fetch = reg_fetch(pd_reg_lookup("sp", 2));
		st.offs = 8 * (i + 1 - 6);
	}
	st.type = p->type;
	st.what = e->var;
	return cw_walk(&ops, &st, e, a, err, errlen);
}

int pd_btf_resolve(struct probe_def *def, char *err, size_t errlen)
{
	struct btf *base = vmlinux(err, errlen), *owner = NULL;
	if (!base)
		return -1;
	if (!def->symbol) {
		snprintf(err, errlen, "C expressions need a function's name as the place, not an "
			 "address");
		return -1;
	}
	/* $current's members need no BTF of the function (syscall wrappers have none) */
	const struct btf_type *proto = NULL;
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < def->nargs; i++) {
		struct pd_arg *a = &def->args[i];
		char why[768];
		if (!a->cexpr || a->fetch || a->from_event_pid)
			continue;
		if (a->cexpr->base == CX_CURRENT) {
			rc = current_arg(a, why, sizeof(why));
		} else {
			if (!proto && !(proto = find_func(def, base, &owner, err, errlen)))
				return -1;
			rc = resolve_arg(def, owner, proto, a, why, sizeof(why));
		}
		if (rc < 0)
			snprintf(err, errlen, "'%s': %s", a->text, why);
	}
	if (owner && owner != base)
		btf__free(owner);
	return rc;
}
