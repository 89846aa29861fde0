/*
 * The reset engine: remove what tracekit runs that are gone left behind, in
 * the order that never breaks a run still going:
 *   with --all, the runs still going (owners of tracekit instances and probe
 *   run groups) are sent SIGTERM and waited for, so they clean up and keep
 *   their data as on Ctrl-C -> the instances (and a killed record's staging
 *   files) of owners that are gone -> the top level a killed function_graph
 *   recording borrowed -> probe groups (with --all, those of probe add too) ->
 *   stale user-event session files.
 * The work is the modules' (ftrace/registry.c, ftrace/toplevel.c,
 * probe/kernel.c, record/ust.c); this file puts it in order, and says through
 * struct rs_report what it did, which `tracekit reset` (cli/cmd_reset.c) prints.
 */
#ifndef TRACEKIT_RESET_RESET_H
#define TRACEKIT_RESET_RESET_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "ftrace/registry.h"
#include "probe/kernel.h"

struct rs_options {
	bool all;	/* everything tracekit made; runs still going are stopped first */
	pid_t only;	/* only the instances (and staging files) of this run; 0: all runs */
};

/* What was done, as it is done; arg is each function's last argument. */
struct rs_report {
	ft_reset_fn instance;	/* an instance or staging files removed, kept or failed */
	pk_reset_fn probe;	/* a probe group or event */
	void (*ust)(const char *path, const char *why, void *arg);	/* a session file removed */
	void (*stopping)(pid_t pid, void *arg);	/* --all: SIGTERM sent to a run still going */
	void (*stopped)(pid_t pid, void *arg);	/* ...and it stopped within the wait */
	/*
	 * The borrowed top level: restored (what: the settings), or kept because
	 * its owner still runs (restored false).
	 */
	void (*toplevel)(bool restored, pid_t owner, bool alive, const char *what, void *arg);
	void *arg;
};

/* The runs --all asked to stop. */
struct rs_stopped {
	pid_t pid[64];
	int n;
};

/*
 * Reset as o says; stopped receives the pids sent SIGTERM (a report function
 * tells with rs_was_stopped() an owner that did not stop).  0, or -1 with err
 * (no tracefs, a registry that cannot be read).
 */
int rs_reset(const struct rs_options *o, const struct rs_report *rep, struct rs_stopped *stopped,
	     char *err, size_t errlen);

bool rs_was_stopped(const struct rs_stopped *s, pid_t pid);

#endif
