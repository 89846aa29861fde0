/*
 * tracekit latency TRACER: one of the kernel's latency tracers (irqsoff,
 * preemptoff, preemptirqsoff, wakeup, wakeup_rt, wakeup_dl, hwlat, osnoise,
 * timerlat) run for a while: its maximum latency (tracing_max_latency) and
 * the trace the kernel kept of it.  In a private instance where the tracer
 * allows one, else on the borrowed top level (src/ftrace/toplevel.h).
 */
#ifndef TRACEKIT_TRACERS_LATENCY_H
#define TRACEKIT_TRACERS_LATENCY_H

#include <stdbool.h>
#include <stddef.h>

struct tr_latency {
	unsigned long max_us;	/* tracing_max_latency */
	char *trace;		/* the trace file's text (the kept maximum's trace) */
	bool top_level;		/* measured on the top level */
	int status;		/* the command's exit status */
};

/* The kernel option a latency tracer needs; NULL for a name that is no latency tracer. */
const char *tr_latency_config(const char *tracer);
/* Names of the latency tracers, "irqsoff, preemptoff, ..." */
const char *tr_latency_names(void);

int tr_latency_measure(const char *tracer, char **argv, double duration, struct tr_latency *out,
		       char *err, size_t errlen);
void tr_latency_free(struct tr_latency *l);

#endif
