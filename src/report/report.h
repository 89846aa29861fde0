/*
 * The report engine: reads a trace.dat with the tracefile reader and prints its
 * events as trace-cmd report does (libtraceevent's printer is the reference), as
 * JSON lines, or as counts (--stat).  Streaming: one event in memory at a time.
 */
#ifndef TRACEKIT_REPORT_REPORT_H
#define TRACEKIT_REPORT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum rp_mode {
	RP_TEXT,	/* trace-cmd report's lines */
	RP_JSON,	/* one object per event */
	RP_STAT,	/* events per type and per CPU, lost events */
};

struct rp_options {
	const char *input;		/* trace.dat path (when ninputs is 0) */
	/* Several files, merged on one clock (a host's and its guests'); each line is
	 * prefixed with its file's name, as trace-cmd report -i A -i B does. */
	const char *const *inputs;
	int ninputs;
	const char *const *filters;	/* trace-cmd -F filters: "sched_switch: next_pid == 1" */
	int nfilters;
	const bool *cpus;		/* NULL: every CPU; else cpus[i] for i < ncpus */
	int ncpus;
	bool has_from, has_to;
	double from, to;		/* seconds of the trace's timestamps */
	enum rp_mode mode;
};

/*
 * 0 on success; -1 and a one-line message in err (naming the input) on
 * failure; -2 and a message when a -F filter does not fit the file (its
 * syntax, an unknown event or field: the user's mistake, exit status 2).
 */
int rp_run(const struct rp_options *o, FILE *out, char *err, size_t errlen);
/* --syscalls: the syscall events as strace's lines (syscalls.c); same contract. */
int rp_syscalls(const struct rp_options *o, FILE *out, char *err, size_t errlen);

struct tep_handle;
struct tep_record;
struct tep_event;
struct trace_seq;

/* The text line of one event, as trace-cmd report prints it (no newline). */
void rp_format_line(struct tep_handle *tep, struct tep_record *rec, struct tep_event *ev,
		    int cpu, bool ts_usecs, struct trace_seq *s);
/* The JSON object of one event (no newline). */
void rp_format_json(struct tep_handle *tep, struct tep_record *rec, struct tep_event *ev,
		    int cpu, struct trace_seq *s);

#endif
