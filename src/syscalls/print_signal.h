/*
 * Printing signals the way strace does: names, sets, handlers and siginfo.
 * p_sigset and p_sigset_val themselves are declared in decoder.h.
 */
#ifndef TRACEKIT_SYSCALLS_PRINT_SIGNAL_H
#define TRACEKIT_SYSCALLS_PRINT_SIGNAL_H

#include <signal.h>

#include "decoder.h"

/* The kernel's sigset_t: 64 signals, what rt_* calls take as sigsetsize. */
#define SC_NSIG_BYTES 8

/* A sigset the kernel reads or writes; its size is argument n, at most 8 bytes. */
#define MEM_SIGSET_IN(a, n)	{ .arg = (a), .kind = SC_MEM_BUF, .when = SC_AT_ENTRY,	\
				  .len_src = SC_LEN_ARG, .len_arg = (n), .size = SC_NSIG_BYTES }
#define MEM_SIGSET_OUT(a, n)	{ .arg = (a), .kind = SC_MEM_BUF, .when = SC_AT_EXIT,	\
				  .len_src = SC_LEN_ARG, .len_arg = (n), .size = SC_NSIG_BYTES }

/* The kernel's struct sigaction on x86_64 (not glibc's, whose mask is 128 bytes). */
struct sc_kernel_sigaction {
	uint64_t handler;
	uint64_t flags;
	uint64_t restorer;
	uint64_t mask;
};

/*
 * A signal number: SIGINT, SIGRTMIN for 32, SIGRT_3 for 35, else decimal.
 * print.c's p_signal names 32 SIGRT_0; strace says SIGRTMIN, as this does.
 */
void p_sig(struct sc_call *c, int sig);
/* The name p_sig prints, or NULL when it prints a number. buf holds SIGRT_n. */
const char *sc_sig_str(int sig, char *buf, size_t len);
/* sa_handler: SIG_DFL, SIG_IGN or the address. */
void p_sa_handler(struct sc_call *c, uint64_t handler);
/* A struct sc_kernel_sigaction at addr: {sa_handler=..., sa_mask=[...], ...}. */
void p_kernel_sigaction(struct sc_call *c, uint64_t addr);
/*
 * At exit, an out-parameter of a failed call prints as its address (the
 * kernel wrote nothing); returns true when it did so.
 */
bool p_failed_addr(struct sc_call *c, uint64_t addr);
/* A siginfo_t held in the snapshot at addr, or its address. */
void p_siginfo(struct sc_call *c, uint64_t addr);
/* A siginfo_t value: {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=...}. */
void p_siginfo_val(struct sc_call *c, const siginfo_t *si);

/* The part of a struct sigevent the kernel reads (value, signo, notify, thread fields). */
#define SC_SIGEVENT_SIZE 32
/* A struct sigevent held at addr, as timer_create and mq_notify take it. */
void p_sigevent(struct sc_call *c, uint64_t addr);

#endif
