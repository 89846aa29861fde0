/*
 * `tracekit record`: set up a private ftrace instance, run or follow the
 * program, record every CPU's buffer, and write a trace.dat.  The CLI fills
 * struct rec_options; everything else is here.
 */
#ifndef TRACEKIT_RECORD_RECORD_H
#define TRACEKIT_RECORD_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "ftrace/functions.h"

struct net_agent_session;

struct rec_event {
	const char *spec;	/* "sched:sched_switch", "sched", "syscalls:sys_enter_*" */
	const char *filter;	/* -f after this -e, or NULL */
};

/* One -A HOST:PORT and what follows it up to the next -A: a guest (trace-cmd's form). */
struct rec_guest_arg {
	const char *agent;		/* HOST:PORT */
	const char *name;		/* --name */
	char **argv;			/* the options after -A, for the guest */
	int argc;
	int pid;			/* --guest-pid: qemu's pid, for the vCPU threads */
};

struct rec_options {
	struct rec_event *events;	/* none: the scheduling set */
	int nevents;
	const char *output;		/* -o, default "trace.dat" */
	unsigned buffer_kb;		/* -b: per CPU; 0 keeps the kernel's */
	const char *clock;		/* -C, default "mono" */
	pid_t *pids;			/* -P */
	int npids;
	bool follow_command;		/* -F: only COMMAND and its descendants */
	bool kernel_stack;		/* -T */
	bool user_stack;		/* --user-stack */
	double duration;		/* --duration S; 0: none */
	uint64_t max_bytes;		/* --max-size; 0: none */
	int file_version;		/* 6 or 7 */
	bool quiet;
	int user_wait_ms;		/* --user-wait MS; -1: the default (ust.h) */
	char **argv;			/* COMMAND, or NULL */
	char **probes;			/* --probe SPEC: made in a group of this recording's own */
	int nprobes;
	const char *recover;		/* --recover FILE: assemble FILE from its kept per-CPU files */
	struct ft_func_options func;	/* -p function|function_graph, -l, -n, -g, -O */
	const char *net;		/* -N HOST:PORT: stream to a listener, no local file */
	bool net_tcp;			/* -t: the pages over TCP (else UDP, as trace-cmd) */
	/* each -A HOST:PORT: an agent records a guest beside this recording (guest.h) */
	struct rec_guest_arg *guests;
	int nguests;
	int tsync_interval_ms;		/* --tsync-interval */
	/* tracekit agent: record for this host instead of a file (net/agent.h) */
	struct net_agent_session *agent_link;
};

/* Record; returns the exit status for tracekit (the command's, like trace-cmd). */
int rec_run(const struct rec_options *o);
/* The last rec_run was stopped by Ctrl-C or SIGTERM (the agent then stops serving too). */
bool rec_interrupted(void);

#endif
