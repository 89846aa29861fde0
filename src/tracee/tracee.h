/*
 * tracee: run or attach to processes under ptrace and report what they do.
 *
 * The engine owns process control only: PTRACE_SEIZE with syscall-good,
 * clone/fork/vfork/exec/exit events, the wait loop, group-stops (LISTEN),
 * signal re-injection, seccomp-filtered stops, detaching cleanly.  What an
 * event means (decoding, printing) is the caller's, through on_event.
 */
#ifndef TRACEKIT_TRACEE_H
#define TRACEKIT_TRACEE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>

enum tr_kind {
	TR_SYSCALL_ENTRY,	/* nr and args valid */
	TR_SYSCALL_EXIT,	/* nr (from the entry), ret valid */
	TR_SIGNAL,		/* a signal is about to be delivered: sig, si */
	TR_GROUP_STOP,		/* stopped by sig (SIGSTOP, SIGTSTP, ...) */
	TR_EXEC,		/* execve succeeded; old_tid is the thread that called it */
	TR_EXITED,		/* status: exit code */
	TR_KILLED,		/* sig, core */
	TR_NEW,			/* a new thread or process joined the trace */
	TR_DETACHED,		/* let go (Ctrl-C on -p) */
	TR_READY,		/* with ready_events: a thread's first stop under trace (seized, new child) */
	TR_STRAY_EXIT,		/* a child we never traced ended (a CLONE_PARENT child of the command) */
	TR_STRANGER,		/* a process we never asked for stopped (CLONE_PTRACE without follow): let go */
};

struct tr_event {
	enum tr_kind kind;
	pid_t tid;
	pid_t tgid;
	pid_t old_tid;
	long nr;
	uint64_t args[6];
	int64_t ret;
	int sig;
	bool core;
	int status;
	siginfo_t si;
	struct timespec ts;	/* CLOCK_REALTIME at the stop, for -t */
	struct timespec mono;	/* CLOCK_MONOTONIC at the stop, for -T, -r, -c */
	uint64_t ip, sp;	/* user registers at the stop, for -k */
	struct timeval stime;	/* system CPU time of the stopped process (wait4), for -c */
};

/* What the caller wants done with a syscall, decided at its entry stop. */
struct tr_action {
	bool skip;		/* do not run the syscall... */
	int64_t retval;		/* ...and make it return this (-errno for errors) */
	int signal;		/* deliver this signal at exit (0: none) */
	unsigned delay_enter_us, delay_exit_us;
	bool quiet_exit;	/* nothing is wanted of the exit: not read, not reported */
};

struct tracer;

struct tr_options {
	bool follow;			/* -f: trace children and threads */
	bool seccomp;			/* --seccomp-bpf: stop only on filtered syscalls */
	const int *seccomp_nrs;		/* the syscalls to stop on */
	int seccomp_n;
	/* Called for every event; returning non-zero stops tracing (detach all). */
	int (*on_event)(struct tracer *t, const struct tr_event *ev, struct tr_action *act, void *ctx);
	void *ctx;
	/* Breakpoint engines (probes) want no syscall stops and the SIGTRAPs: */
	bool no_syscalls;		/* restart with PTRACE_CONT, never PTRACE_SYSCALL */
	bool exitkill;			/* spawned tracees die with the tracer (PTRACE_O_EXITKILL) */
	bool ready_events;		/* report TR_READY */
	/*
	 * A SIGTRAP stopped tid (si: its siginfo).  Return TR_TRAP_CONT or
	 * TR_TRAP_STEP when it was the caller's (the thread is restarted with
	 * PTRACE_CONT or PTRACE_SINGLESTEP, the signal dropped), 0 to deliver it.
	 */
	int (*on_trap)(struct tracer *t, pid_t tid, pid_t tgid, const siginfo_t *si, void *ctx);
	/*
	 * Detaching: called once with tid 0 after every thread was interrupted,
	 * then for each thread at its last stop (status as waitpid gave it),
	 * before PTRACE_DETACH, so the caller can put back what it changed.
	 */
	void (*on_detach)(struct tracer *t, pid_t tid, pid_t tgid, int status, void *ctx);
	/* tracer_spawn: the command's environment (NULL: ours) and user (NULL: ours). */
	char *const *envp;
	const char *user;
	/* Called before the tracer sleeps in waitpid (no stop is pending), e.g. to flush output. */
	void (*on_idle)(void *ctx);
	/* Let go of a process when it execs, past the command's own exec (strace -b execve). */
	bool detach_on_exec;
};

enum { TR_TRAP_CONT = 1, TR_TRAP_STEP = 2 };

/* The PTRACE_O_* options each traced thread gets. */
unsigned long tracer_ptrace_options(const struct tr_options *o);
/* Fork and exec argv under trace; NULL and a message in err on failure. */
struct tracer *tracer_spawn(char *const argv[], const struct tr_options *o, char *err, size_t errlen);
/*
 * strace -D (mode 1), -DD (2: tracer in its own process group), -DDD (3:
 * its own session): this process execs argv, a grandchild traces it.
 * Returns the tracer in the grandchild only.
 */
struct tracer *tracer_spawn_daemonized(char *const argv[], const struct tr_options *o, int mode,
				       char *err, size_t errlen);
/* Seize every thread of each pid; NULL and a message in err on failure. */
struct tracer *tracer_attach(const pid_t *pids, int n, const struct tr_options *o, char *err, size_t errlen);
/* Seize these processes too (strace -p PID COMMAND): how many were, in order; why not in err. */
int tracer_attach_more(struct tracer *t, const pid_t *pids, int n, char *err, size_t errlen);
/*
 * Run until every tracee is gone or tracer_stop() was called (from a signal
 * handler: it only sets a flag).  Returns the exit status strace would:
 * the first child's exit code, 128+signal if it was killed, 0 after detach.
 */
int tracer_run(struct tracer *t);
void tracer_stop(struct tracer *t);
void tracer_free(struct tracer *t);

/* Read tracee memory (process_vm_readv, /proc/pid/mem fallback); bytes read or -1. */
long tracer_read(void *tid_as_ptr, uint64_t addr, void *buf, size_t len);
/*
 * tracer_read through a one-page cache, for a caller that calls
 * tracer_read_cache_reset() whenever a thread may have run or its memory
 * changed (at every stop, after writing to it).
 */
long tracer_read_cached(void *tid_as_ptr, uint64_t addr, void *buf, size_t len);
void tracer_read_cache_reset(void);
/* The signal that killed the spawned command, 0 if it exited (or was not spawned). */
int tracer_term_signal(const struct tracer *t);
/* The command's pid (spawned, or the -D process), 0 with attach. */
pid_t tracer_command(const struct tracer *t);
/* Number of tracees still traced. */
int tracer_count(const struct tracer *t);
/* True when tid is the only thread and process being traced (no [pid N] needed). */
bool tracer_single(const struct tracer *t);

/*
 * Find cmd on PATH as execvp would, so a typo is reported before a fork and
 * the program is exec'd by its path (one execve, as strace shows it).
 * 0, or -1 with errno.
 */
int tr_resolve(const char *cmd, char *out, size_t len);

#endif
