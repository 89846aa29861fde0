/*
 * User probes' C args through DWARF (elfutils libdw): the probed function,
 * the scopes at the probe's address (parameters and locals), each
 * variable's location there, and its type, which cwalk.c walks.
 *
 * Where a probe goes: perf probe's places.  A function's entry with C args
 * moves past the prologue (dwarf_entry_breakpoints: where the compiler says
 * the arguments have their homes; at -O0 they are not stored yet at the
 * first instruction); FUNC:N is the first statement of line N counted from
 * the line of the function's name; FILE:LINE the first statement of that
 * line.
 *
 * A location becomes a fetch arg when it is one of: a register
 * (DW_OP_regN), memory at a register plus a constant (DW_OP_bregN, and
 * DW_OP_fbreg through the frame base, which at -O0 is the CFA from the
 * call frame info), a static address (DW_OP_addr), a constant
 * (DW_OP_lit/constu + DW_OP_stack_value).  Anything else (a value computed
 * from registers, the value at entry, pieces) is said so, not guessed.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/cexpr.h"
#include "probe/cresolve.h"
#include "probe/cwalk.h"
#include "probe/dwfile.h"
#include "probe/dwtype.h"
#include "probe/elfsym.h"
#include "probe/regs.h"
#include "util/die.h"
#include "util/strbuf.h"

/* ---- the function ---- */

struct func_search {
	const char *name;
	Dwarf_Die die;
	bool found;
	struct closest *c;
};

static int func_cb(Dwarf_Die *die, void *arg)
{
	struct func_search *s = arg;
	const char *n = dwarf_diename(die);
	Dwarf_Addr pc;
	if (!n || dwarf_entrypc(die, &pc) != 0)
		return DWARF_CB_OK;
	if (!strcmp(n, s->name)) {
		s->die = *die;
		s->found = true;
		return DWARF_CB_ABORT;
	}
	closest_offer(s->c, s->name, strlen(s->name), n);
	return DWARF_CB_OK;
}

static int find_function(struct dwf *d, const char *name, Dwarf_Die *out, const char *path,
			 char *err, size_t errlen)
{
	struct closest c;
	closest_init(&c, strlen(name) / 2 + 1);
	struct func_search s = { .name = name, .c = &c };
	Dwarf_Off off = 0, next;
	size_t hsize;
	while (!s.found && dwarf_nextcu(d->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		if (dwarf_offdie(d->dw, off + hsize, &cu))
			dwarf_getfuncs(&cu, func_cb, &s, 0);
		off = next;
	}
	if (s.found) {
		*out = s.die;
		closest_free(&c);
		return 0;
	}
	char hint[256];
	closest_join(&c, hint, sizeof(hint));
	closest_free(&c);
	return es_fail(err, errlen, "no function '%s' in the debug info of %s%s%s%s", name, path,
		       hint[0] ? " (did you mean " : "", hint, hint[0] ? "?)" : "");
}

/* ---- the place ---- */

/* The lowest statement address of line `line` of `file` within function f (NULL: any). */
static int line_addr(Dwarf_Die *cu, Dwarf_Die *f, const char *file, int line, Dwarf_Addr *out,
		     int *nearest)
{
	Dwarf_Lines *lines;
	size_t n;
	bool found = false;
	int best = 0;
	if (dwarf_getsrclines(cu, &lines, &n) != 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a;
		int ln;
		bool stmt;
		if (dwarf_lineaddr(l, &a) || dwarf_lineno(l, &ln) || dwarf_linebeginstatement(l, &stmt))
			continue;
		if (!stmt || (f && dwarf_haspc(f, a) <= 0))
			continue;
		const char *src = dwarf_linesrc(l, NULL, NULL);
		if (file && src && strcmp(src, file))
			continue;
		if (ln == line) {
			if (!found || a < *out)
				*out = a;
			found = true;
		} else if (ln > line && (best == 0 || ln < best)) {
			best = ln;
		}
	}
	*nearest = best;
	return found ? 0 : -1;
}

static int place_func_line(struct probe_def *def, Dwarf_Die *f, Dwarf_Addr *pc, char *err,
			   size_t errlen)
{
	int decl;
	Dwarf_Die cu;
	if (dwarf_decl_line(f, &decl) != 0 || !dwarf_diecu(f, &cu, NULL, NULL))
		return es_fail(err, errlen, "%s has no line information in its debug info",
			       def->symbol);
	int line = decl + (int)def->src_line, nearest = 0;
	if (line_addr(&cu, f, dwarf_decl_file(f), line, pc, &nearest) < 0) {
		if (nearest)
			return es_fail(err, errlen, "%s:%u (line %d of %s) has no code of %s; the next "
				       "line with code is %s:%d", def->symbol, def->src_line, line,
				       dwarf_decl_file(f), def->symbol, def->symbol, nearest - decl);
		return es_fail(err, errlen, "%s:%u (line %d) is past the code of %s", def->symbol,
			       def->src_line, line, def->symbol);
	}
	return 0;
}

static int place_file_line(struct dwf *d, struct probe_def *def, Dwarf_Addr *pc, char *err,
			   size_t errlen)
{
	Dwarf_Line **srcs = NULL;
	size_t n = 0;
	if (dwarf_getsrc_file(d->dw, def->src_file, (int)def->src_line, 0, &srcs, &n) != 0 ||
	    n == 0) {
		free(srcs);
		return es_fail(err, errlen, "no code at %s:%u in the debug info of %s (a comment, "
			       "a blank line, or a file not compiled in)", def->src_file,
			       def->src_line, def->path);
	}
	bool found = false;
	int other = 0;
	for (size_t i = 0; i < n; i++) {
		Dwarf_Addr a;
		int ln;
		if (dwarf_lineaddr(srcs[i], &a) || dwarf_lineno(srcs[i], &ln))
			continue;
		if (ln != (int)def->src_line) {
			other = ln;
			continue;
		}
		if (!found || a < *pc)
			*pc = a;
		found = true;
	}
	free(srcs);
	if (!found)
		return es_fail(err, errlen, "no code at %s:%u in %s; the nearest line with code is "
			       "%s:%d", def->src_file, def->src_line, def->path, def->src_file, other);
	return 0;
}

/* ---- locations ---- */

static const char *const dwarf_regs[] = {
	"ax", "dx", "cx", "bx", "si", "di", "bp", "sp",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
};

static struct pd_fetch *reg_fetch(unsigned dwreg)
{
	if (dwreg >= sizeof(dwarf_regs) / sizeof(dwarf_regs[0]))
		return NULL;
	const struct pd_reg_desc *r = pd_reg_lookup(dwarf_regs[dwreg], strlen(dwarf_regs[dwreg]));
	if (!r)
		return NULL;
	struct pd_fetch *f = cw_fetch_new(PD_F_REG);
	f->reg = r->offset;
	snprintf(f->reg_name, sizeof(f->reg_name), "%s", r->name);
	return f;
}

static const char *op_name(unsigned atom, char *buf, size_t len)
{
	switch (atom) {
	case DW_OP_entry_value:
	case DW_OP_GNU_entry_value:
		return "DW_OP_entry_value";
	case DW_OP_piece:
		return "DW_OP_piece";
	case DW_OP_stack_value:
		return "DW_OP_stack_value";
	case DW_OP_implicit_value:
		return "DW_OP_implicit_value";
	case DW_OP_implicit_pointer:
	case DW_OP_GNU_implicit_pointer:
		return "DW_OP_implicit_pointer";
	default:
		snprintf(buf, len, "DW_OP 0x%x", atom);
		return buf;
	}
}

/* Register + offset (the CFA, a frame base) from a one-op location. */
static int reg_plus(const Dwarf_Op *ops, size_t n, unsigned *reg, int64_t *off)
{
	if (n != 1)
		return -1;
	if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		*reg = (unsigned)(ops[0].atom - DW_OP_breg0);
		*off = (int64_t)ops[0].number;
		return 0;
	}
	if (ops[0].atom == DW_OP_bregx) {
		*reg = (unsigned)ops[0].number;
		*off = (int64_t)ops[0].number2;
		return 0;
	}
	if (ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31) {
		*reg = (unsigned)(ops[0].atom - DW_OP_reg0);
		*off = 0;
		return 0;
	}
	return -1;
}

static int cfa_at(struct dwf *d, Dwarf_Addr pc, unsigned *reg, int64_t *off)
{
	Dwarf_CFI *cfis[] = { d->cfi_dbg, d->cfi_eh };
	for (size_t i = 0; i < 2; i++) {
		Dwarf_Frame *fr;
		Dwarf_Op *ops;
		size_t n;
		if (!cfis[i] || dwarf_cfi_addrframe(cfis[i], pc, &fr) != 0)
			continue;
		int rc = dwarf_frame_cfa(fr, &ops, &n) == 0 ? reg_plus(ops, n, reg, off) : -1;
		free(fr);
		if (rc == 0)
			return 0;
	}
	return -1;
}

/* The frame base of the function fn at pc as register + offset. */
static int frame_base(struct dwf *d, Dwarf_Die *fn, Dwarf_Addr pc, unsigned *reg, int64_t *off,
		      char *why, size_t len)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n;
	if (!dwarf_attr_integrate(fn, DW_AT_frame_base, &a) ||
	    dwarf_getlocation_addr(&a, pc, &ops, &n, 1) != 1)
		return snprintf(why, len, "its function has no frame base here"), -1;
	if (n == 1 && ops[0].atom == DW_OP_call_frame_cfa) {
		if (cfa_at(d, pc, reg, off) == 0)
			return 0;
		return snprintf(why, len, "the frame's address (CFA) at this place is not a "
				"register plus a constant"), -1;
	}
	if (reg_plus(ops, n, reg, off) == 0)
		return 0;
	return snprintf(why, len, "its frame base is an expression a fetch arg cannot express"), -1;
}

/*
 * The variable's location at pc as a walk start.  0; 1 when it has none
 * there (optimised out) or one a fetch arg cannot express, why saying which.
 */
static int location(struct dwf *d, Dwarf_Die *var, Dwarf_Die *fn, Dwarf_Addr pc,
		    struct cw_start *st, char *why, size_t len)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n;
	char buf[32];
	if (!dwarf_attr_integrate(var, DW_AT_location, &a)) {
		if (dwarf_attr_integrate(var, DW_AT_const_value, &a)) {
			Dwarf_Word v;
			if (dwarf_formudata(&a, &v) == 0) {
				st->fetch = cw_fetch_new(PD_F_IMM);
				st->fetch->imm = v;
				return 0;
			}
		}
		return snprintf(why, len, "optimised out (the compiler kept no location for it)"), 1;
	}
	int rc = dwarf_getlocation_addr(&a, pc, &ops, &n, 1);
	if (rc <= 0 || n == 0)
		return snprintf(why, len, "optimised out at this place (no location for it here)"), 1;
	unsigned reg;
	int64_t off;
	if (n == 1 && ops[0].atom == DW_OP_fbreg) {
		if (frame_base(d, fn, pc, &reg, &off, why, len) < 0)
			return 1;
		st->in_memory = true;
		st->fetch = reg_fetch(reg);
		st->offs = off + (int64_t)ops[0].number;
	} else if (n == 1 && ops[0].atom == DW_OP_addr) {
		st->in_memory = true;
		st->offs = (int64_t)ops[0].number;
		return 0;
	} else if (n == 1 && ((ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31) ||
			      ops[0].atom == DW_OP_regx)) {
		reg = ops[0].atom == DW_OP_regx ? (unsigned)ops[0].number
						 : (unsigned)(ops[0].atom - DW_OP_reg0);
		st->fetch = reg_fetch(reg);
	} else if (reg_plus(ops, n, &reg, &off) == 0) {
		st->in_memory = true;
		st->fetch = reg_fetch(reg);
		st->offs = off;
	} else if (n == 2 && ops[1].atom == DW_OP_stack_value &&
		   ((ops[0].atom >= DW_OP_lit0 && ops[0].atom <= DW_OP_lit31) ||
		    ops[0].atom == DW_OP_constu || ops[0].atom == DW_OP_consts)) {
		st->fetch = cw_fetch_new(PD_F_IMM);
		st->fetch->imm = ops[0].atom == DW_OP_constu || ops[0].atom == DW_OP_consts
					 ? ops[0].number : (Dwarf_Word)(ops[0].atom - DW_OP_lit0);
		return 0;
	} else {
		const char *what = op_name(ops[0].atom, buf, sizeof(buf));
		for (size_t i = 1; i < n; i++)
			if (ops[i].atom == DW_OP_stack_value || ops[i].atom == DW_OP_piece ||
			    ops[i].atom == DW_OP_entry_value || ops[i].atom == DW_OP_GNU_entry_value)
				what = op_name(ops[i].atom, buf, sizeof(buf));
		if (ops[0].atom == DW_OP_entry_value || ops[0].atom == DW_OP_GNU_entry_value)
			return snprintf(why, len, "at this place only its value at the function's "
					"entry is known (DW_OP_entry_value): a fetch arg cannot express "
					"it; probe the entry"), 1;
		return snprintf(why, len, "its location here (%s, %zu operations) is one a fetch arg "
				"cannot express", what, n), 1;
	}
	if (!st->fetch)
		return snprintf(why, len, "it is in a register fetch args do not name (DWARF "
				"register %u)", reg), 1;
	return 0;
}

/* ---- one arg ---- */

static void scope_names(Dwarf_Die *scopes, int n, const char *want, struct closest *c,
			struct strbuf *all)
{
	for (int i = 0; i < n; i++) {
		Dwarf_Die ch;
		if (dwarf_child(&scopes[i], &ch) != 0)
			continue;
		do {
			int tag = dwarf_tag(&ch);
			const char *nm = dwarf_diename(&ch);
			if ((tag != DW_TAG_formal_parameter && tag != DW_TAG_variable) || !nm)
				continue;
			closest_offer(c, want, strlen(want), nm);
			sb_printf(all, "%s%s", all->len ? ", " : "", nm);
		} while (dwarf_siblingof(&ch, &ch) == 0);
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram)
			break;
	}
}

static int resolve_arg(struct dwf *d, struct probe_def *def, Dwarf_Die *fn, Dwarf_Die *scopes,
		       int nscopes, Dwarf_Addr pc, struct pd_arg *a, char *err, size_t errlen)
{
	const struct cx_expr *e = a->cexpr;
	struct cw_ops ops = { dwt_type, dwt_member, d->dw };
	struct cw_start st = { 0 };
	Dwarf_Die var, t;
	char why[256];

	if (e->base == CX_RETVAL) {
		st.fetch = cw_fetch_new(PD_F_RETVAL);
		st.type = dwt_type_of(fn, &t) ? dwarf_dieoffset(&t) : 0;
		if (!st.type)
			return es_fail(err, errlen, "%s returns void: there is no $retval",
				       dwarf_diename(fn));
		st.what = "$retval";
		return cw_walk(&ops, &st, e, a, err, errlen);
	}
	int i = dwarf_getscopevar(scopes, nscopes, e->var, 0, NULL, 0, 0, &var);
	if (i < 0) {
		struct closest c;
		struct strbuf all = STRBUF_INIT;
		char hint[256];
		closest_init(&c, strlen(e->var) / 2 + 2);
		scope_names(scopes, nscopes, e->var, &c, &all);
		closest_join(&c, hint, sizeof(hint));
		closest_free(&c);
		if (hint[0])
			es_fail(err, errlen, "no variable %s in scope at this place; did you mean %s? (in scope: %s)",
				e->var, hint, sb_str(&all));
		else
			es_fail(err, errlen, "no variable %s in scope at this place (in scope: %s)", e->var,
				all.len ? sb_str(&all) : "none");
		sb_free(&all);
		return -1;
	}
	if (def->kind == PD_RETURN)
		return es_fail(err, errlen, "%s: variables are gone at return: probe the entry for "
			       "them", e->var);
	if (location(d, &var, fn, pc, &st, why, sizeof(why)) != 0) {
		cw_fetch_free(st.fetch);
		return es_fail(err, errlen, "%s: %s", e->var, why);
	}
	st.type = dwt_type_of(&var, &t) ? dwarf_dieoffset(&t) : 0;
	st.what = e->var;
	return cw_walk(&ops, &st, e, a, err, errlen);
}

/* The function (subprogram) holding pc, for FILE:LINE. */
static int function_at(struct dwf *d, Dwarf_Addr pc, Dwarf_Die *out)
{
	Dwarf_Die cu, *scopes;
	if (!dwarf_addrdie(d->dw, pc, &cu))
		return -1;
	int n = dwarf_getscopes(&cu, pc, &scopes);
	for (int i = 0; i < n; i++)
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram) {
			*out = scopes[i];
			free(scopes);
			return 0;
		}
	free(scopes);
	return -1;
}

bool pd_needs_cresolve(const struct probe_def *def)
{
	if (def->has_line)
		return true;
	for (size_t i = 0; i < def->nargs; i++)
		if (def->args[i].cexpr && !def->args[i].fetch && !def->args[i].from_event_pid)
			return true;
	return false;
}

static int place(struct dwf *d, struct probe_def *def, struct es_file *ef, Dwarf_Die *fn,
		 Dwarf_Addr *pc, char *err, size_t errlen)
{
	bool cargs = false;
	for (size_t i = 0; i < def->nargs; i++)
		cargs |= def->args[i].cexpr != NULL;
	if (def->src_file) {
		if (place_file_line(d, def, pc, err, errlen) < 0)
			return -1;
		if (function_at(d, *pc, fn) < 0)
			return es_fail(err, errlen, "%s:%u is in no function of %s", def->src_file,
				       def->src_line, def->path);
		return 0;
	}
	if (!def->symbol) {
		/* PATH:OFFSET or a USDT point: the variables of the function holding it */
		*pc = def->vaddr;
		if (function_at(d, *pc, fn) < 0)
			return es_fail(err, errlen, "0x%" PRIx64 " is in no function of the debug info "
				       "of %s", def->vaddr, def->path);
		return 0;
	}
	if (find_function(d, def->symbol, fn, def->path, err, errlen) < 0)
		return -1;
	if (def->has_line)
		return place_func_line(def, fn, pc, err, errlen);
	*pc = def->vaddr;
	if (!cargs || def->kind == PD_RETURN || def->offset || def->has_address)
		return 0;
	Dwarf_Addr *bk = NULL;
	int n = dwarf_entry_breakpoints(fn, &bk);
	if (n > 0 && bk[0] != def->vaddr) {
		const struct es_sym *s = es_sym_at(ef, bk[0]);
		*pc = bk[0];
		free(def->note);
		def->note = NULL;
		struct strbuf sb = STRBUF_INIT;
		sb_printf(&sb, "probe placed past %s's prologue, at %s+0x%" PRIx64 " (where its "
			  "arguments have their places)", def->symbol, def->symbol,
			  (uint64_t)(bk[0] - (s ? s->value : def->vaddr)));
		def->note = xstrdup(sb_str(&sb));
		sb_free(&sb);
	}
	free(bk);
	return 0;
}

int pd_dwarf_resolve(struct probe_def *def, struct es_file *ef, char *err, size_t errlen)
{
	struct dwf d;
	Dwarf_Die fn, cu, *scopes = NULL;
	Dwarf_Addr pc = 0;
	int rc = -1, n = 0;
	if (dwf_open(&d, def->path, err, errlen) < 0)
		goto out;
	if (place(&d, def, ef, &fn, &pc, err, errlen) < 0)
		goto out;
	if (pc != def->vaddr || def->has_line) {
		const struct es_sym *s = es_sym_at(ef, pc);
		if (s && es_check_boundary(ef, s, pc, err, errlen) < 0)
			goto out;
		if (es_vaddr_to_offset(ef, pc, &def->file_offset) < 0) {
			es_fail(err, errlen, "0x%" PRIx64 " is outside %s's loaded segments", pc,
				def->path);
			goto out;
		}
		def->vaddr = pc;
		if (def->has_line) {
			def->func_vaddr = s ? s->value : pc;
			if (!def->symbol && s)
				def->symbol = xstrdup(s->name);
			if (s)
				def->offset = (int64_t)(pc - s->value);
		}
	}
	if (!dwarf_addrdie(d.dw, pc, &cu)) {
		es_fail(err, errlen, "0x%" PRIx64 " of %s is in no compilation unit of its debug info",
			pc, def->path);
		goto out;
	}
	n = dwarf_getscopes(&cu, pc, &scopes);
	if (n <= 0) {
		es_fail(err, errlen, "no scopes at 0x%" PRIx64 " in the debug info of %s", pc,
			def->path);
		goto out;
	}
	rc = 0;
	for (size_t i = 0; rc == 0 && i < def->nargs; i++) {
		struct pd_arg *a = &def->args[i];
		if (!a->cexpr || a->fetch)
			continue;
		char why[768];
		rc = resolve_arg(&d, def, &fn, scopes, n, pc, a, why, sizeof(why));
		if (rc < 0)
			snprintf(err, errlen, "'%s': %s", a->text, why);
	}
out:
	free(scopes);
	dwf_close(&d);
	return rc;
}
