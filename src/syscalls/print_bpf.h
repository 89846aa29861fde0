/*
 * Classic BPF programs (socket filters) as strace prints them:
 * [BPF_STMT(BPF_LD|BPF_B|BPF_ABS, SKF_AD_OFF+SKF_AD_PROTOCOL), BPF_JUMP(...)].
 */
#ifndef TRACEKIT_SYSCALLS_PRINT_BPF_H
#define TRACEKIT_SYSCALLS_PRINT_BPF_H

#include "decoder.h"

#define BPF_INSN_SIZE 8u	/* struct sock_filter */
#define BPF_MAX_INSNS 4096u	/* BPF_MAXINSNS */

/* count instructions at addr; without -v only the address. */
void pn_sock_filters(struct sc_call *c, uint64_t addr, uint64_t count);

#endif
