/*
 * eBPF programs (BPF_PROG_LOAD's insns) as strace prints them with -v:
 * [{code=BPF_JMP|BPF_K|BPF_EXIT, dst_reg=BPF_REG_0, src_reg=BPF_REG_0, off=0, imm=0}].
 */
#ifndef TRACEKIT_SYSCALLS_PRINT_EBPF_H
#define TRACEKIT_SYSCALLS_PRINT_EBPF_H

#include "decoder.h"

#define EBPF_INSN_SIZE 8u	/* struct bpf_insn */
#define EBPF_MAX_INSNS 4096u	/* BPF_MAXINSNS: more print as "..." */

/* count instructions at addr; without -v only the address. */
void pn_ebpf_insns(struct sc_call *c, uint64_t addr, uint64_t count);

#endif
