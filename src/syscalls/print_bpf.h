/*
 * Classic BPF programs (socket and seccomp filters) as strace prints them:
 * [BPF_STMT(BPF_LD|BPF_B|BPF_ABS, SKF_AD_OFF+SKF_AD_PROTOCOL), BPF_JUMP(...)],
 * a seccomp filter's BPF_RET values as actions (SECCOMP_RET_ERRNO|0x1).
 */
#ifndef TRACEKIT_SYSCALLS_PRINT_BPF_H
#define TRACEKIT_SYSCALLS_PRINT_BPF_H

#include "decoder.h"

#define BPF_INSN_SIZE 8u	/* struct sock_filter */
#define BPF_MAX_INSNS 4096u	/* BPF_MAXINSNS */

/* Bytes of instructions a decoder copies at most: BPF_MAXINSNS of them. */
#define SC_BPF_FILTER_MAX (BPF_MAX_INSNS * BPF_INSN_SIZE)

/* count instructions at addr; without -v only the address. */
void pn_sock_filters(struct sc_call *c, uint64_t addr, uint64_t count);

/*
 * The seccomp struct sock_fprog at addr: {len=N, filter=ADDR} without -v,
 * the instructions with it.  Its spec: MEM_BYTES_IN(a, 16) and
 * MEM_DEREF_IN(a, 8, SC_BPF_FILTER_MAX).
 */
void p_seccomp_fprog(struct sc_call *c, uint64_t addr);

#endif
