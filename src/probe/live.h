/*
 * `tracekit probe trace`: probes for one run of a command (or, with
 * --ptrace, one running process), their hits printed live as the kernel's
 * trace lines, everything removed at the end.  Two backends: the kernel's
 * uprobes (live.c) and the ptrace engine (live_ptrace.c).
 */
#ifndef TRACEKIT_PROBE_LIVE_H
#define TRACEKIT_PROBE_LIVE_H

#include <stdbool.h>

struct pl_options {
	char **specs;		/* probe definitions */
	int nspecs;
	char **argv;		/* COMMAND (NULL with pid) */
	int pid;		/* --ptrace -p PID: attach to it instead */
	bool json;		/* one JSON object per event */
};

/* Trace; returns the exit status for tracekit (the command's, 1 on a failure of ours). */
int pl_run(const struct pl_options *o);
/* The same with the ptrace engine (no root, no tracefs); user probes only. */
int pl_run_ptrace(const struct pl_options *o);

#endif
