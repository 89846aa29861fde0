/*
 * The per-CPU recorder: one thread per CPU moves the instance's ring-buffer
 * pages from per_cpu/cpuN/trace_pipe_raw into a temp file beside the output
 * with splice (no copy through user space), until stopped; then it drains
 * what is left and reads the kernel's per-CPU stats, so every lost event is
 * counted, never silently dropped.
 */
#ifndef TRACEKIT_RECORD_RECORDER_H
#define TRACEKIT_RECORD_RECORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracefile/writer.h"

/* per_cpu/cpuN/stats after the recording, and what we wrote. */
struct rec_cpu_stats {
	int cpu;
	uint64_t entries;	/* events still in the buffer when read (should be 0 after draining) */
	uint64_t overrun;	/* overwritten before we read them: lost */
	uint64_t commit_overrun;
	uint64_t dropped;	/* dropped events: lost */
	uint64_t events;	/* events in the pages we wrote (the kernel's read count, or counted) */
	uint64_t missed;	/* lost between pages, from the page headers when counted */
	uint64_t bytes;		/* bytes of pages we wrote */
};

struct recorder;

/*
 * Start one thread per CPU for the instance at instance_dir, writing to
 * "<out>.cpuN" temp files.  max_bytes (0: none) stops the recording once the
 * data reaches that size.
 */
struct recorder *rec_start(const char *instance_dir, int ncpus, const char *out,
			   unsigned page_size, uint64_t max_bytes, char *err, size_t errlen);
/* Whether the size limit was reached or a write failed (the caller should stop). */
bool rec_should_stop(const struct recorder *r);
/*
 * While recording, for a progress line: the events read so far and those lost
 * (the kernel's per-CPU stats), and the bytes written.
 */
void rec_progress(const struct recorder *r, uint64_t *events, uint64_t *lost, uint64_t *bytes);
/* Drain and join the threads (tracing must be off already). -1 with err on a write error. */
int rec_stop(struct recorder *r, char *err, size_t errlen);
/* After rec_stop: the data per CPU for the writer, and the kernel's stats. */
const struct tf_cpu_data *rec_cpu_data(const struct recorder *r, int *n);
const struct rec_cpu_stats *rec_stats(const struct recorder *r, int *n);
/*
 * The events in size bytes of ring-buffer pages in path (whole pages of ps
 * bytes); the events the page headers say were lost are added to *missed.
 */
uint64_t rec_count_events(const char *path, uint64_t size, unsigned ps, uint64_t *missed);
/* Remove the temp files (after they were written into the trace file) and free. */
void rec_free(struct recorder *r, bool keep_files);

#endif
