/* Classic BPF programs (seccomp filters) as strace prints them: BPF_STMT/BPF_JUMP lines. */
#ifndef TRACEKIT_SYSCALLS_PRINT_BPF_FILTER_H
#define TRACEKIT_SYSCALLS_PRINT_BPF_FILTER_H

#include "decoder.h"

/* Bytes of instructions a decoder copies at most: BPF_MAXINSNS of them. */
#define SC_BPF_FILTER_MAX (4096u * 8u)

/*
 * The struct sock_fprog at addr: {len=N, filter=ADDR} without -v, the
 * instructions with it, RET values as seccomp actions (SECCOMP_RET_ERRNO|0x1).
 * Its spec: MEM_BYTES_IN(a, 16) and MEM_DEREF_IN(a, 8, SC_BPF_FILTER_MAX).
 */
void p_seccomp_fprog(struct sc_call *c, uint64_t addr);

#endif
