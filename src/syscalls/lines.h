/*
 * What both engines print beside calls, and the -P test, in one place: the
 * ptrace mode (ptrace_mode.c) and the kernel mode (kernel_events.c) build the
 * same exit and signal lines, text or JSON, from the same facts.
 */
#ifndef TRACEKIT_SYSCALLS_LINES_H
#define TRACEKIT_SYSCALLS_LINES_H

#include <signal.h>
#include <stdbool.h>
#include <time.h>

#include "decoder.h"

/* -P: does the call name one of paths (a path argument, or a descriptor open on one)? */
bool sc_touches_path(struct sc_call *c, const char *const *paths, int npaths);

/*
 * "+++ exited with 3 +++", "+++ killed by SIGSEGV (core dumped) +++", or with
 * json its object ("time" is real).  code: the exit status, or the signal when killed.
 */
void sc_exit_text(struct strbuf *sb, bool json, const struct timespec *real, pid_t tgid, pid_t tid,
		  bool killed, int code, bool core);

/* "--- SIGCHLD {si_signo=...} ---", or with json its object. */
void sc_signal_text(struct strbuf *sb, bool json, const struct timespec *real, pid_t tgid,
		    pid_t tid, int sig, const siginfo_t *si, const struct sc_fmt *fmt);

#endif
