/*
 * x86_64 registers as the kernel's probe grammar names them (%ax, %di, %r8,
 * %ip, %flags...), mapped to their place in struct user_regs_struct, and the
 * function-argument registers of the SysV ABI ($argN).
 */
#ifndef TRACEKIT_PROBE_REGS_H
#define TRACEKIT_PROBE_REGS_H

#include <stddef.h>

struct pd_reg_desc {
	const char *name;	/* "di" */
	unsigned offset;	/* offsetof(struct user_regs_struct, rdi) */
};

const struct pd_reg_desc *pd_reg_lookup(const char *name, size_t len);
/* The closest register name to a misspelt one ("ax" for "rax"), "" if none. */
void pd_reg_closest(const char *name, size_t len, char *out, size_t outlen);
/* The register holding argument n (1..6), NULL beyond (those are on the stack). */
const struct pd_reg_desc *pd_arg_reg(unsigned n);
/* The register at byte offset off of struct user_regs_struct. */
const struct pd_reg_desc *pd_reg_by_offset(unsigned off);

#endif
