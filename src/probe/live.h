/*
 * `tracekit probe trace` on the kernel backend: probes made for one run of a
 * command, their events printed live, everything removed at the end.
 */
#ifndef TRACEKIT_PROBE_LIVE_H
#define TRACEKIT_PROBE_LIVE_H

#include <stdbool.h>

struct pl_options {
	char **specs;		/* probe definitions */
	int nspecs;
	char **argv;		/* COMMAND */
	bool json;		/* one JSON object per event */
};

/* Trace; returns the exit status for tracekit (the command's, 1 on a failure of ours). */
int pl_run(const struct pl_options *o);

#endif
