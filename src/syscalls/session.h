/*
 * A `tracekit syscalls` run: the options (strace's letters), and the ptrace
 * mode that drives src/tracee and prints each call through the decoders.
 */
#ifndef TRACEKIT_SYSCALLS_SESSION_H
#define TRACEKIT_SYSCALLS_SESSION_H

#include <stdbool.h>
#include <sys/types.h>

#include "decoder.h"
#include "filter.h"
#include "tips.h"

/* -t/--timestamps: strftime format (NULL: none) and digits after the second (0, 3, 6, 9). */
struct sc_clock_fmt {
	const char *format;
	int width;
};

/* --quiet= (-q, -qq, -qqq) suppresses these messages. */
enum sc_quiet {
	SC_QUIET_ATTACH = 1 << 0,		/* Process N attached / detached */
	SC_QUIET_EXIT = 1 << 1,			/* +++ exited with N +++ */
	SC_QUIET_PATH_RESOLUTION = 1 << 2,	/* Requested path resolved */
	SC_QUIET_PERSONALITY = 1 << 3,		/* [ Process PID=N runs in ... mode. ] */
	SC_QUIET_THREAD_EXECVE = 1 << 4,	/* +++ superseded by execve in pid N +++ */
};

/* --decode-pids= (-Y, --pidns-translation). */
enum sc_decode_pid { SC_DPID_COMM = 1 << 0, SC_DPID_PIDNS = 1 << 1 };

/* -I: when signals may interrupt tracekit (strace's numbering). */
enum sc_intr { SC_INTR_ANYWHERE = 1, SC_INTR_WAITING, SC_INTR_NEVER, SC_INTR_NEVER_TSTP };

struct sc_options {
	bool follow;		/* -f */
	bool ff;		/* -ff: one output file per process, FILE.PID */
	const char *outfile;	/* -o: a file, or "|cmd" / "!cmd" for a pipe into cmd */
	bool append;		/* -A: -o appends */
	int acolumn;		/* -a: the column of " = ret" (strace: 40) */
	bool detach_on_execve;	/* -b execve */
	int daemonize;		/* -D -DD -DDD: tracer as grandchild, new pgroup, new session */
	int daemonize_long;	/* --daemonize=, merged into daemonize */
	const char *progname;	/* "tracekit", or argv[0] when run as strace: our messages' prefix */
	bool as_strace;		/* run as strace: its wording and exit status where they differ */
	bool debug;		/* -d: tracekit's own debug lines on stderr */
	int version;		/* -V */
	char **env;		/* -E VAR=VAL / -E VAR, in order */
	int nenv;
	bool iflag;		/* -i: instruction pointer */
	bool nflag;		/* -n: syscall number */
	int intr;		/* -I (enum sc_intr), 0: default */
	const char *user;	/* -u */
	unsigned quiet_set;	/* enum sc_quiet bits */
	unsigned decode_pids;	/* enum sc_decode_pid bits */
	bool kvm_vcpu;		/* -e kvm=vcpu: KVM_RUN says the vCPU's exit reason */
	bool out_sep_alone;	/* --output-separately without -f: strace notes it is moot */
	int zflags;		/* -z/-Z given this many times: strace notes only the last counts */
	struct sc_tips tips;	/* --tips */
	const char *columns;	/* -U: summary columns */
	long overhead_ns;	/* -O: per-call overhead subtracted in -c, -1 unset */
	int summary;		/* 1: -c (summary only), 2: -C (lines and summary) */
	bool wall;		/* -w: summary of wall-clock latency */
	const char *sort;	/* -S */
	bool show_time;		/* -T */
	int time_width;		/* -T=PRECISION digits (6) */
	struct sc_clock_fmt ts;	/* -t -tt -ttt --timestamps */
	bool relative;		/* -r */
	int rel_width;		/* -r=PRECISION digits (6) */
	int quiet;		/* -q count (kept for --quiet's messages) */
	const char **paths;	/* -P */
	int npaths;
	bool json;		/* --json */
	bool stack;		/* -k */
	bool seccomp;		/* --seccomp-bpf */
	struct sc_fmt fmt;	/* -s -v -x -y */
	struct sc_filter *filter;
	char **argv;		/* the command, or NULL with -p */
	pid_t *pids;
	int npids;
	bool kernel;		/* --kernel: from the kernel, the program never stops */
	enum sc_ksource { SC_KS_AUTO, SC_KS_BPF, SC_KS_FTRACE } ksource;	/* --kernel=bpf|ftrace */
	unsigned buffer_kb;	/* --buffer-size: the kernel mode's ring buffer, KiB */
};

/* Trace and print; returns the exit status tracekit should exit with. */
int sc_run_ptrace(struct sc_options *o);
/* The same from the kernel's syscall tracepoints (kernel_mode.c). */
int sc_run_kernel(struct sc_options *o);

#endif
