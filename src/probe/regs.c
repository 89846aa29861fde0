/*
 * The register table: one row per name the kernel's x86 regs_query_register_offset()
 * accepts, in struct user_regs_struct terms (what ptrace hands us).
 */
#include <stdio.h>
#include <string.h>
#include <sys/user.h>

#include "probe/regs.h"
#include "util/editdist.h"

#define R(n, f) { n, offsetof(struct user_regs_struct, f) }

static const struct pd_reg_desc regs[] = {
	R("ax", rax), R("bx", rbx), R("cx", rcx), R("dx", rdx), R("si", rsi), R("di", rdi),
	R("bp", rbp), R("sp", rsp), R("r8", r8), R("r9", r9), R("r10", r10), R("r11", r11),
	R("r12", r12), R("r13", r13), R("r14", r14), R("r15", r15), R("ip", rip),
	R("flags", eflags), R("cs", cs), R("ss", ss), R("orig_ax", orig_rax),
};

#define NREGS (sizeof(regs) / sizeof(regs[0]))

/* SysV x86_64: rdi, rsi, rdx, rcx, r8, r9 (indexes into regs[]). */
static const unsigned arg_regs[] = { 5, 4, 3, 2, 8, 9 };

const struct pd_reg_desc *pd_reg_lookup(const char *name, size_t len)
{
	for (size_t i = 0; i < NREGS; i++)
		if (strlen(regs[i].name) == len && !memcmp(regs[i].name, name, len))
			return &regs[i];
	return NULL;
}

void pd_reg_closest(const char *name, size_t len, char *out, size_t outlen)
{
	struct closest c;
	closest_init(&c, 2);
	/* "rax"/"eax" and "rdi"/"edi" are the usual slips: try without the prefix letter first. */
	if (len == 3 && (name[0] == 'r' || name[0] == 'e') && pd_reg_lookup(name + 1, 2))
		closest_offer(&c, name + 1, 2, pd_reg_lookup(name + 1, 2)->name);
	for (size_t i = 0; i < NREGS; i++)
		closest_offer(&c, name, len, regs[i].name);
	snprintf(out, outlen, "%s", c.n ? c.name[0] : "");
	closest_free(&c);
}

const struct pd_reg_desc *pd_arg_reg(unsigned n)
{
	if (n < 1 || n > sizeof(arg_regs) / sizeof(arg_regs[0]))
		return NULL;
	return &regs[arg_regs[n - 1]];
}

const struct pd_reg_desc *pd_reg_by_offset(unsigned off)
{
	for (size_t i = 0; i < NREGS; i++)
		if (regs[i].offset == off)
			return &regs[i];
	return NULL;
}
