/*
 * NULL + offset: which struct member was read through a NULL pointer.
 *
 * The faulting instruction (the Code: bytes at the marker, else the symbol
 * file's bytes at the fault) is decoded with capstone; its memory operand's
 * displacement should equal the faulting address, and its base register is
 * the pointer that was NULL.  The DWARF of the faulting function (libdw)
 * then says which variable or parameter lives in that register at that pc;
 * if its type points to a struct, the member at the offset is the answer.
 * When no variable is tracked in that register (optimised away, or the
 * instruction is not known), the structs the function's variables point to
 * that have a member starting exactly at the offset are offered instead,
 * marked as a guess from the offset alone.
 */
#include <capstone/capstone.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oops/symtab.h"
#include "util/die.h"

/* Deeper nesting than this is a loop in bad DWARF, not a struct. */
#define MAX_DEPTH 8

/* ---- the faulting instruction ------------------------------------------ */

/* DWARF register numbers of x86_64's general registers (the psABI's table). */
static const char *const x86_dwarf_regs[][2] = {
	{ "rax", "eax" }, { "rdx", "edx" }, { "rcx", "ecx" }, { "rbx", "ebx" },
	{ "rsi", "esi" }, { "rdi", "edi" }, { "rbp", "ebp" }, { "rsp", "esp" },
	{ "r8", "r8d" }, { "r9", "r9d" }, { "r10", "r10d" }, { "r11", "r11d" },
	{ "r12", "r12d" }, { "r13", "r13d" }, { "r14", "r14d" }, { "r15", "r15d" },
};

static int dwarf_regno(const char *name, bool arm64)
{
	if (arm64) {
		int n;
		char c;
		if (!strcmp(name, "sp") || !strcmp(name, "wsp"))
			return 31;
		if (!strcmp(name, "fp"))
			return 29;
		if (!strcmp(name, "lr"))
			return 30;
		if ((name[0] == 'x' || name[0] == 'w') && sscanf(name + 1, "%d%c", &n, &c) == 1 &&
		    n >= 0 && n <= 30)
			return n;
		return -1;
	}
	for (size_t i = 0; i < sizeof(x86_dwarf_regs) / sizeof(x86_dwarf_regs[0]); i++)
		if (!strcmp(name, x86_dwarf_regs[i][0]) || !strcmp(name, x86_dwarf_regs[i][1]))
			return (int)i;
	return -1;
}

/* The instruction bytes at the fault: the log's (what ran), else the file's. */
static size_t fault_bytes(const struct oops_report *r, const struct oops_symsrc *s, uint64_t link,
			  const uint8_t **bytes)
{
	if (r->has_code) {
		*bytes = r->code.bytes + r->code.marker;
		return r->code.nbytes - r->code.marker;
	}
	return oops_symsrc_bytes(s, link, bytes);
}

/*
 * The base register (DWARF number and name) of the faulting instruction's
 * memory operand whose displacement is off; -1 when there is none.
 */
static int fault_base_reg(const struct oops_report *r, const struct oops_symsrc *s, uint64_t link,
			  uint64_t off, char *name, size_t namesz)
{
	const uint8_t *bytes;
	size_t n = fault_bytes(r, s, link, &bytes);
	bool arm64 = r->has_code ? r->code.arm64 : r->arch && !strcmp(r->arch, "arm64");
	csh h;
	if (!n || cs_open(arm64 ? CS_ARCH_ARM64 : CS_ARCH_X86,
			  arm64 ? CS_MODE_LITTLE_ENDIAN : CS_MODE_64, &h) != CS_ERR_OK)
		return -1;
	cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
	cs_insn *insn;
	int reg = -1;
	if (cs_disasm(h, bytes, n < 16 ? n : 16, link, 1, &insn) == 1) {
		const cs_detail *d = insn[0].detail;
		unsigned base = 0;
		int nops = arm64 ? d->arm64.op_count : d->x86.op_count;
		for (int i = 0; i < nops && !base; i++) {
			if (arm64 && d->arm64.operands[i].type == ARM64_OP_MEM &&
			    d->arm64.operands[i].mem.disp == (int64_t)off)
				base = d->arm64.operands[i].mem.base;
			else if (!arm64 && d->x86.operands[i].type == X86_OP_MEM &&
				 d->x86.operands[i].mem.index == X86_REG_INVALID &&
				 d->x86.operands[i].mem.disp == (int64_t)off)
				base = d->x86.operands[i].mem.base;
		}
		const char *rn = base ? cs_reg_name(h, base) : NULL;
		if (rn && (reg = dwarf_regno(rn, arm64)) >= 0)
			snprintf(name, namesz, "%s", rn);
		cs_free(insn, 1);
	}
	cs_close(&h);
	return reg;
}

/* ---- types ---------------------------------------------------------------- */

static bool type_of(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute a;
	return dwarf_formref_die(dwarf_attr_integrate(die, DW_AT_type, &a), out) != NULL;
}

/* Through typedefs and qualifiers; the last typedef's name kept for anonymous structs. */
static bool peel(Dwarf_Die *t, const char **typedef_name)
{
	for (int i = 0; i < 16; i++) {
		int tag = dwarf_tag(t);
		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type && tag != DW_TAG_volatile_type &&
		    tag != DW_TAG_restrict_type && tag != DW_TAG_atomic_type)
			return true;
		if (tag == DW_TAG_typedef && typedef_name)
			*typedef_name = dwarf_diename(t);
		if (!type_of(t, t))
			return false;
	}
	return false;
}

static bool is_aggregate(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type || tag == DW_TAG_class_type;
}

/* The struct a variable of pointer type points to, and its name ("struct foo"). */
static bool pointee_struct(Dwarf_Die *var, Dwarf_Die *st, struct strbuf *name)
{
	Dwarf_Die t;
	const char *tdname = NULL;
	if (!type_of(var, &t) || !peel(&t, NULL) || dwarf_tag(&t) != DW_TAG_pointer_type ||
	    !type_of(&t, st) || !peel(st, &tdname) || !is_aggregate(dwarf_tag(st)) ||
	    dwarf_hasattr(st, DW_AT_declaration))
		return false;
	const char *tag = dwarf_tag(st) == DW_TAG_union_type ? "union" : "struct";
	if (dwarf_diename(st))
		sb_printf(name, "%s %s", tag, dwarf_diename(st));
	else
		sb_add(name, tdname ? tdname : tag);
	return true;
}

static bool member_offset(Dwarf_Die *m, bool in_union, Dwarf_Word *off)
{
	Dwarf_Attribute a;
	if (dwarf_formudata(dwarf_attr(m, DW_AT_data_member_location, &a), off) == 0)
		return true;
	Dwarf_Op *ops;
	size_t nops;
	if (dwarf_attr(m, DW_AT_data_member_location, &a) && dwarf_getlocation(&a, &ops, &nops) == 0 &&
	    nops == 1 && ops[0].atom == DW_OP_plus_uconst) {
		*off = ops[0].number;
		return true;
	}
	if (dwarf_formudata(dwarf_attr(m, DW_AT_data_bit_offset, &a), off) == 0) {
		*off /= 8;
		return true;
	}
	*off = 0;	/* a union's members all start at 0 */
	return in_union;
}

/*
 * The member of aggregate st holding byte off, as a path ("flags",
 * "stats.rx[2]"), descending into nested structs and arrays.  *start is the
 * offset where the innermost named piece begins.
 */
static bool member_at(Dwarf_Die *st, Dwarf_Word off, struct strbuf *path, Dwarf_Word *start, int depth)
{
	Dwarf_Die m;
	bool in_union = dwarf_tag(st) == DW_TAG_union_type;
	if (depth > MAX_DEPTH || dwarf_child(st, &m) != 0)
		return false;
	do {
		Dwarf_Word mo;
		Dwarf_Die t;
		Dwarf_Word size;
		if (dwarf_tag(&m) != DW_TAG_member || !member_offset(&m, in_union, &mo) || mo > off ||
		    !type_of(&m, &t) || dwarf_aggregate_size(&t, &size) != 0 || off >= mo + size)
			continue;
		size_t keep = path->len;
		const char *mn = dwarf_diename(&m);
		if (mn)	/* anonymous structs and unions add no name */
			sb_printf(path, "%s%s", path->len ? "." : "", mn);
		*start = mo;
		peel(&t, NULL);
		Dwarf_Word rel = off - mo, sub = 0, esize;
		Dwarf_Die et;
		if (dwarf_tag(&t) == DW_TAG_array_type && type_of(&t, &et) &&
		    dwarf_aggregate_size(&et, &esize) == 0 && esize) {
			sb_printf(path, "[%llu]", (unsigned long long)(rel / esize));
			*start = mo + rel / esize * esize;
			rel %= esize;
			t = et;
			peel(&t, NULL);
		}
		if (is_aggregate(dwarf_tag(&t)) && member_at(&t, rel, path, &sub, depth + 1))
			*start += sub;
		if (path->len > keep)
			return true;
		sb_truncate(path, keep);
	} while (dwarf_siblingof(&m, &m) == 0);
	return false;
}

/* ---- variables ------------------------------------------------------------ */

/* The DWARF register a variable lives in at pc, -1 when not a register there. */
static int var_register(Dwarf_Die *var, Dwarf_Addr pc)
{
	Dwarf_Attribute a;
	Dwarf_Op *exprs[4];
	size_t lens[4];
	if (!dwarf_attr(var, DW_AT_location, &a))
		return -1;
	int n = dwarf_getlocation_addr(&a, pc, exprs, lens, 4);
	for (int i = 0; i < n; i++) {
		if (lens[i] < 1 || (lens[i] > 1 && exprs[i][1].atom != DW_OP_piece))
			continue;
		uint8_t op = exprs[i][0].atom;
		if (op >= DW_OP_reg0 && op <= DW_OP_reg31)
			return op - DW_OP_reg0;
		if (op == DW_OP_regx)
			return (int)exprs[i][0].number;
	}
	return -1;
}

static bool is_var(Dwarf_Die *d)
{
	int tag = dwarf_tag(d);
	return tag == DW_TAG_variable || tag == DW_TAG_formal_parameter;
}

struct candidate {
	char *type;		/* "struct gadget" */
	char *member;
	char *variable;
};

struct search {
	Dwarf_Word off;
	struct candidate *v;
	size_t n;
};

/* A variable pointing to a struct with a member at off (exactly there when exact). */
static bool var_candidate(Dwarf_Die *var, Dwarf_Word off, bool exact, struct candidate *c)
{
	Dwarf_Die st;
	struct strbuf type = STRBUF_INIT, path = STRBUF_INIT;
	Dwarf_Word start = 0;
	bool ok = pointee_struct(var, &st, &type) && member_at(&st, off, &path, &start, 0) &&
		  (!exact || start == off);
	if (ok) {
		Dwarf_Attribute a;	/* an inlined parameter's name is on its abstract origin */
		const char *vn = dwarf_formstring(dwarf_attr_integrate(var, DW_AT_name, &a));
		c->type = xstrdup(sb_str(&type));
		c->member = xstrdup(sb_str(&path));
		c->variable = xstrdup(vn ? vn : "?");
	}
	sb_free(&type);
	sb_free(&path);
	return ok;
}

static void candidate_free(struct candidate *c)
{
	free(c->type);
	free(c->member);
	free(c->variable);
}

/* Every variable of the function's tree, inlined callees' included; one per struct.member. */
static void collect(struct search *s, Dwarf_Die *scope, int depth)
{
	Dwarf_Die d;
	if (depth > 32 || dwarf_child(scope, &d) != 0)
		return;
	do {
		struct candidate c;
		if (is_var(&d) && var_candidate(&d, s->off, true, &c)) {
			bool seen = false;
			for (size_t i = 0; i < s->n && !seen; i++)
				seen = !strcmp(s->v[i].type, c.type) && !strcmp(s->v[i].member, c.member);
			if (seen) {
				candidate_free(&c);
			} else {
				s->v = xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
				s->v[s->n++] = c;
			}
		} else if (dwarf_haschildren(&d)) {
			collect(s, &d, depth + 1);
		}
	} while (dwarf_siblingof(&d, &d) == 0);
}

/* The variable in register reg at pc, from the innermost scope out to the function. */
static bool in_register(Dwarf_Die *chain, int n, Dwarf_Addr pc, int reg, Dwarf_Word off,
			struct candidate *c)
{
	for (int i = 0; i < n; i++) {
		Dwarf_Die d;
		if (dwarf_child(&chain[i], &d) == 0) {
			do {
				if (is_var(&d) && var_register(&d, pc) == reg && var_candidate(&d, off, false, c))
					return true;
			} while (dwarf_siblingof(&d, &d) == 0);
		}
		if (dwarf_tag(&chain[i]) == DW_TAG_subprogram)
			break;
	}
	return false;
}

static struct oops_null_member *make_result(struct candidate *c, const char *reg)
{
	struct oops_null_member *m = xcalloc(1, sizeof(*m));
	m->type = c->type;
	m->member = c->member;
	m->variable = c->variable;
	m->reg = reg ? xstrdup(reg) : NULL;
	return m;
}

void oops_name_null_member(struct oops_report *r, const struct oops_symsrc *s, uint64_t link)
{
	if (!s->mod || !r->has_address || r->address >= 0x10000)
		return;
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(s->mod, link, &bias);
	Dwarf_Die *scopes = NULL, *chain = NULL;
	if (!cu || dwarf_getscopes(cu, link - bias, &scopes) <= 0)
		return;
	/* The concrete chain (inlined scopes, then the function), as in oops_symsrc_lines. */
	Dwarf_Die inner = scopes[0];
	free(scopes);
	int n = dwarf_getscopes_die(&inner, &chain);
	int fn = 0;
	while (fn < n && dwarf_tag(&chain[fn]) != DW_TAG_subprogram)
		fn++;
	if (fn == n) {
		free(chain);
		return;
	}
	char regname[16];
	int reg = fault_base_reg(r, s, link, r->address, regname, sizeof(regname));
	struct candidate c;
	if (reg >= 0 && in_register(chain, fn + 1, link - bias, reg, r->address, &c)) {
		r->null_member = make_result(&c, regname);
	} else if (r->address) {	/* NULL + 0 is the start of every struct: no guess */
		struct search sr = { .off = r->address };
		collect(&sr, &chain[fn], 0);
		if (sr.n) {
			r->null_member = make_result(&sr.v[0], NULL);
			r->null_member->others = xcalloc(sr.n, sizeof(char *));
			for (size_t i = 1; i < sr.n; i++) {
				struct strbuf o = STRBUF_INIT;
				sb_printf(&o, "%s.%s (variable %s)", sr.v[i].type, sr.v[i].member,
					  sr.v[i].variable);
				r->null_member->others[r->null_member->nothers++] = xstrdup(sb_str(&o));
				sb_free(&o);
				candidate_free(&sr.v[i]);
			}
		}
		free(sr.v);
	}
	free(chain);
}

void oops_null_member_free(struct oops_null_member *m)
{
	if (!m)
		return;
	free(m->type);
	free(m->member);
	free(m->variable);
	free(m->reg);
	for (size_t i = 0; i < m->nothers; i++)
		free(m->others[i]);
	free(m->others);
	free(m);
}
