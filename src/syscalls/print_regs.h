/*
 * x86-64 register sets (struct user_regs_struct, struct user_fpregs_struct)
 * as strace prints them for ptrace: only the fields size bytes hold.
 */
#ifndef TRACEKIT_SYSCALLS_PRINT_REGS_H
#define TRACEKIT_SYSCALLS_PRINT_REGS_H

#include "decoder.h"

#define SC_GP_REGS_SIZE 216	/* sizeof(struct user_regs_struct) */
#define SC_FP_REGS_SIZE 512	/* sizeof(struct user_fpregs_struct) */

/* {r15=0x..., r14=...}; the address when size is 0, not a multiple of 8, or not held. */
void p_gp_regs(struct sc_call *c, uint64_t addr, uint64_t size);
/* {cwd=0x37f, ..., st_space=[...], xmm_space=[...], padding=[...]}, the same way. */
void p_fp_regs(struct sc_call *c, uint64_t addr, uint64_t size);

#endif
