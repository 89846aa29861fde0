/*
 * The scheduling analysis over a trace.dat: reads the file once, turns its
 * sched events into struct sa_event for the state machine, and keeps what the
 * file says about itself (which events it has, what `tracekit record` traced).
 */
#ifndef TRACEKIT_ANALYSIS_SCHED_TRACE_H
#define TRACEKIT_ANALYSIS_SCHED_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/sched.h"

/* The events the analysis reads, in the order of the "missing" report. */
enum st_event {
	ST_SWITCH, ST_WAKING, ST_WAKEUP, ST_WAKEUP_NEW, ST_MIGRATE, ST_FORK, ST_EXEC, ST_EXIT,
	ST_RUNTIME, ST_NEVENTS
};

struct st_options {
	const char *input;
	int pid;			/* 0: not given */
	const char *comm;		/* NULL: not given */
	bool has_from, has_to;
	double from, to;		/* seconds, the trace's timestamps */
	bool json;
	const char *const *filters;	/* -F: only the events they match are analysed */
	int nfilters;
};

struct st_trace {
	struct sa_analysis a;
	bool has[ST_NEVENTS];		/* the file has the event's format */
	bool use_waking;		/* wakeups from sched_waking (else sched_wakeup) */
	char *command;			/* record's "command=" note, or NULL */
	char *pids;			/* record's "pids=" note, or NULL */
	char *follow;			/* record's "follow=" note, or NULL */
	char *maps;			/* record's "maps=" note (where the command's files are) */
	char **names;			/* symbols found for futex words (sa_why.sym points here) */
	int nnames;
	int command_pid;		/* the pid that exec'd the command, 0 when not found */
	long long lost;			/* events the kernel lost (-1 per CPU that did not count) */
	bool has_hrtimer, has_irq, has_softirq;	/* the events that tell a timer's wakeups */
	int cpus;
};

extern const char *const st_event_names[ST_NEVENTS];

/* The program name of a "command=" note: its first word without the directory. */
void st_command_name(const char *command, char *buf, size_t len);

/* 0, or -1 with a one-line message in err. */
/* --from/--to's seconds as the trace's nanoseconds (clamped). */
uint64_t st_ns_of_seconds(double secs);

/* 0; -1 and err; -2 and err when a -F filter does not fit the file (a usage error). */
int st_load(struct st_trace *t, const struct st_options *o, char *err, size_t errlen);

/*
 * The same analysis inside another pass over an open reader (tracekit view's):
 * st_begin once (NULL with err when the file cannot be analysed), st_feed with
 * every event in order, st_end with the last timestamp.  st_free as always.
 */
struct tf_reader;
struct tf_event;
struct st_loader;
struct st_loader *st_begin(struct st_trace *t, const struct st_options *o, struct tf_reader *r,
			   char *err, size_t errlen);
void st_feed(struct st_loader *l, const struct tf_event *ev);
/*
 * Who made the wakeup ev (enum sa_waker_kind + 1; 0: not known), from its context
 * flags and the timer and irq events fed so far: call it before st_feed(ev).
 */
int st_waker_of(struct st_loader *l, const struct tf_event *ev);
void st_end(struct st_loader *l, uint64_t last);
void st_free(struct st_trace *t);

/* Name the futex words of p's lock waits from the file's "maps" note (sched_sym.c). */
void st_name_locks(struct st_trace *t, struct sa_proc *p);

/* Text for people or JSON: 0, or -1 with err (a pid or comm not in the trace). */
int st_print(struct st_trace *t, const struct st_options *o, FILE *out, char *err, size_t errlen);

#endif
