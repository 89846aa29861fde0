/*
 * Pids as decoders print them: the number the tracee passed or got, and with
 * --pidns-translation (-Y: the command name) what that number means here.
 */
#ifndef TRACEKIT_SYSCALLS_PRINT_PID_H
#define TRACEKIT_SYSCALLS_PRINT_PID_H

#include <sys/types.h>

#include "decoder.h"

/* Which id of a process a number is: each has its own NS line in /proc/PID/status. */
enum sc_pid_type { SC_PT_TID, SC_PT_TGID, SC_PT_PGID, SC_PT_SID };

/*
 * The id that the PID namespace of tracee (a tid as the tracer numbers it)
 * calls id, as the tracer's namespace numbers it; 0 when unknown.
 */
int sc_pid_translate(pid_t tracee, int id, enum sc_pid_type type);

/* A task's ids at one PID namespace level (the namespace's inode number). */
struct sc_pid_level {
	unsigned long ns;
	int id[4];		/* by enum sc_pid_type; 0: none at this level */
};

/*
 * What the trace said of task tid's ids (the kernel mode's BPF program reads
 * them at its calls), lv[0] at its own level, then up: pids are translated
 * from these first, so a process gone from /proc by the time its line prints
 * still is.  The latest word on an id wins.
 */
void sc_pid_learn(pid_t tid, const struct sc_pid_level *lv, size_t n);
/*
 * A wait4/waitid that returned (its exit memory fetched) reaped a child: what
 * sc_pid_learn said of it is forgotten, as /proc forgets it, so the lines
 * are the ptrace mode's (which looks when the call returns).
 */
void sc_pid_reaped(struct sc_call *c);

/* The number /proc knows tid (ours) by: they differ when /proc is an outer namespace's. */
pid_t sc_pid_proc(pid_t tid);

/* 2, or 2 /\* 1234 in strace's PID NS *\/ with --pidns-translation, 2<comm> with -Y. */
void p_pid(struct sc_call *c, int pid, enum sc_pid_type type);
/* kill's and wait4's first argument: a process, or -pgid for a process group. */
void p_pid_tgid_pgid(struct sc_call *c, int pid);
/* An int holding a pid at addr ([2 /\* ... *\/]); the address when not held. */
void p_pid_at(struct sc_call *c, uint64_t addr, enum sc_pid_type type);

#endif
