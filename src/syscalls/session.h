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

enum sc_tstamp { SC_TS_NONE, SC_TS_SEC, SC_TS_USEC, SC_TS_EPOCH };

struct sc_options {
	bool follow;		/* -f */
	bool ff;		/* -ff: one output file per process, FILE.PID */
	const char *outfile;	/* -o */
	int summary;		/* 1: -c (summary only), 2: -C (lines and summary) */
	bool wall;		/* -w: summary of wall-clock latency */
	const char *sort;	/* -S */
	bool show_time;		/* -T */
	enum sc_tstamp tstamp;	/* -t -tt -ttt */
	bool relative;		/* -r */
	int quiet;		/* -q: no attach/detach messages; -qq: no exit lines either */
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
