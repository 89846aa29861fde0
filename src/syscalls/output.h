/*
 * Where trace lines go and how they are framed, as strace frames them:
 * "[pid N] " (or "N " with -o and -f), timestamps (-t -tt -ttt -r), the
 * return value at column 40, " <unfinished ...>" when another thread speaks
 * in the middle of a call, "<... read resumed>" when it comes back.
 *
 * A call's line is held in memory from entry to exit and written whole, so
 * one write per line, and -f output from several threads never tears.
 */
#ifndef TRACEKIT_SYSCALLS_OUTPUT_H
#define TRACEKIT_SYSCALLS_OUTPUT_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "session.h"

struct sc_output;

struct sc_output *out_open(const struct sc_options *o, char *err, size_t errlen);
/* Flush and close; returns -1 if anything could not be written (a full disk). */
int out_close(struct sc_output *w);

/* Whether lines carry "[pid N] ": more than one thread is traced (or -o with -f). */
void out_set_multi(struct sc_output *w, bool multi);

/*
 * Before tracekit sleeps waiting for the tracees: everything printed so far,
 * the first half of a call in flight included, goes out now (as strace's
 * lines do), so a blocked call shows and nothing is lost if we are killed.
 */
void out_flush(struct sc_output *w);

/* -Y: note tid's command name now, for lines printed after it is gone. */
void out_remember_comm(struct sc_output *w, pid_t tid);

/* -n and -i: the syscall number and address the next line's leader shows. */
void out_set_lead(struct sc_output *w, long nr, uint64_t ip);
#define SC_IP_UNKNOWN UINT64_MAX	/* out_set_lead's ip of a gone process: -i prints ?s */

/* A call's first half.  text is "name(args-read-at-entry". */
void out_call_entry(struct sc_output *w, pid_t tid, const struct timespec *real,
		    const struct timespec *mono, const char *text);
/*
 * A call's second half: rest is the exit arguments and ")", ret is " = 3"
 * with whatever follows.  name is used for "<... name resumed>".
 */
void out_call_exit(struct sc_output *w, pid_t tid, const struct timespec *real,
		   const struct timespec *mono, const char *name, const char *rest, const char *ret);
/* A call that will not return (the thread died in it). */
void out_call_gone(struct sc_output *w, pid_t tid, const char *name, bool no_return);
/* We let go of tid inside a call: its open line ends " <detached ...>". */
void out_call_detached(struct sc_output *w, pid_t tid);
/* A thread's execve made it the leader: its open line ends " <pid changed to LEADER ...>". */
void out_call_pid_changed(struct sc_output *w, pid_t tid, pid_t leader);
/* Whole lines: "--- SIGCHLD {...} ---", "+++ exited with 0 +++". */
void out_event(struct sc_output *w, pid_t tid, const struct timespec *real,
	       const struct timespec *mono, const char *text);
/* A raw line (JSON), with no prefix. */
void out_raw(struct sc_output *w, pid_t tid, const char *line);
/* Text printed as is after tid's last line (-k frames), no prefix. */
void out_text(struct sc_output *w, pid_t tid, const char *text);
/* The main stream, for the -c summary. */
FILE *out_main(struct sc_output *w);

#endif
