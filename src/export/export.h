/*
 * The exporters: a trace.dat as Chrome Trace Event JSON (chrome://tracing,
 * ui.perfetto.dev) or as Perfetto's protobuf trace (ui.perfetto.dev,
 * trace_processor).  Both read the file twice: a first pass learns task names
 * and every CPU's context-switch times, so the second pass writes each CPU slice
 * whole at its start and the output comes out in time order, streaming.
 */
#ifndef TRACEKIT_EXPORT_EXPORT_H
#define TRACEKIT_EXPORT_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/tidmap.h"

enum ex_format { EX_CHROME, EX_PERFETTO };

/* "chrome" or "perfetto": 0 and *f set, -1 for anything else. */
int ex_parse_format(const char *name, enum ex_format *f);

/*
 * Export input's events (those the -F filters match, when n > 0) to output
 * (created or truncated): 0; -1 and one line in err; -2 and err when a filter
 * does not fit the file (a usage error).
 */
int ex_run(const char *input, const char *const *filters, int n, enum ex_format f,
	   const char *output, char *err, size_t errlen);

/*
 * The same for several files merged on one clock (a host's and its guests'): each
 * machine's processes and CPUs apart (see writers.h).  One file: ex_run.
 */
int ex_run_files(const char *const *inputs, int ninputs, const char *const *filters, int n,
		 enum ex_format f, const char *output, char *err, size_t errlen);

/* ---- shared by the exporters (scan.c) ---- */

struct tep_event;
struct tep_record;
struct tf_reader;

/* One CPU as the first pass saw it. */
struct ex_cpu {
	bool seen;
	uint64_t first_ts;
	uint64_t *sw;		/* the times of its sched_switch events, in order */
	size_t nsw, cap;
	int first_prev_pid;	/* who ran before its first switch (0: idle or no switch) */
	char first_prev_comm[32];
};

struct ex_scan {
	struct tidmap names;	/* tid -> comm (char *), the last name seen */
	struct tidmap tgids;	/* tid -> its process, from the file's saved tgids */
	struct ex_cpu *cpu;
	int ncpus;
	uint64_t first_ts, last_ts;
	unsigned long long events;
};

int ex_scan(struct tf_reader *r, struct ex_scan *s, char *err, size_t errlen);
void ex_scan_free(struct ex_scan *s);
const char *ex_name(const struct ex_scan *s, int tid);
/* The process a thread belongs to: the file's saved tgid, else the thread itself. */
int ex_tgid(const struct ex_scan *s, int tid);

/* Field access: false when the event has no such field (or it does not fit the record). */
bool ex_num(struct tep_event *ev, struct tep_record *rec, const char *name, long long *v);
bool ex_str(struct tep_event *ev, struct tep_record *rec, const char *name, char *buf, size_t n);

enum ex_kind {
	EXK_SWITCH,	/* sched:sched_switch */
	EXK_WAKE,	/* sched:sched_waking, sched_wakeup, sched_wakeup_new */
	EXK_BEGIN,	/* a syscall's (or a function_graph call's) entry: a slice opens on the thread */
	EXK_END,	/* a syscall's (or a function_graph call's) exit */
	EXK_INSTANT,	/* anything else */
};

/* What an event becomes; name gets the slice's name (syscall) or "system:event". */
enum ex_kind ex_classify(struct tep_event *ev, struct tep_record *rec, char *name, size_t n);

/*
 * Per-thread syscall nesting, so an exit whose entry came before the trace began
 * is written as an instant, never as a slice end with no start.  Returns the kind
 * to write: EXK_BEGIN, EXK_END or EXK_INSTANT.
 */
enum ex_kind ex_nest(struct tidmap *depth, int tid, enum ex_kind k);

#endif
