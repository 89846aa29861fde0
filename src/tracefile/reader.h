/*
 * The trace.dat reader: opens files of trace-cmd's format (version 6, version 7,
 * zstd-compressed version 7; ours and trace-cmd's alike) and yields their events
 * in time order across CPUs, one at a time, so memory stays bounded whatever the
 * size of the trace.
 *
 * Before libtracecmd sees a file, the reader walks its layout (headers, sections,
 * options, per-CPU data) and checks every size and offset against the file, so a
 * truncated or corrupt file gets one clear error naming the section and offset
 * instead of a crash inside the library.
 *
 * Events carry libtraceevent's record and event format, so printers, filters and
 * analyses use the tep_* API on them.
 */
#ifndef TRACEKIT_TRACEFILE_READER_H
#define TRACEKIT_TRACEFILE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tep_handle;
struct tep_record;
struct tep_event;

struct tf_reader;

/* One event.  Valid until the next tf_reader_next() or tf_reader_close(). */
struct tf_event {
	struct tep_record *record;
	struct tep_event *event;	/* NULL when the file has no format for its id */
	int cpu;
	uint64_t ts;			/* the trace clock's units (ns for ns clocks) */
	/* Events the kernel lost on this CPU just before this one: a count, -1 when it
	 * lost some but did not count them, 0 when none. */
	long long missed;
	/* The buffer it was recorded in: NULL for the top-level one, else the instance's
	 * name (trace-cmd record -B NAME). */
	const char *buffer;
	/* Of several files read as one (merge.h): the file's index; 0 for a lone reader. */
	int machine;
};

/* What the file says about itself.  Strings are never NULL ("" when absent). */
struct tf_info {
	int version;			/* 6 or 7 */
	const char *compression;	/* "none", "zstd" ... */
	int cpus;
	unsigned page_size;
	const char *clock;		/* "local", "mono" ... */
	const char *uname;
	const char *tracer_version;	/* the recorder's version string */
	bool ts_usecs;			/* timestamps are ns, printed as seconds.usecs */
	/* The CPU slot holding user tracepoint events (tracekit record -e app:*, note
	 * "user_cpu=N"); the kernel's CPUs are the ones below it.  -1: none. */
	int user_cpu;
};

/* Event ids of user tracepoints in tracekit's files start here (above the kernel's). */
#define TF_USER_EVENT_ID_BASE 60000

/* NULL and a one-line message in err (naming the file) on failure. */
struct tf_reader *tf_reader_open(const char *path, char *err, size_t errlen);
void tf_reader_close(struct tf_reader *r);

/*
 * Only events matching these -F filters (trace-cmd's "EVENT[: EXPRESSION]"
 * syntax, checked by tf_filter_check) are handed out from now on; losses
 * noted on dropped events move to the next event of their CPU.  0, or -1
 * and one line in err naming the bad filter.
 */
int tf_reader_set_filters(struct tf_reader *r, const char *const *filters, int n,
			  char *err, size_t errlen);

const struct tf_info *tf_reader_info(const struct tf_reader *r);
struct tep_handle *tf_reader_tep(struct tf_reader *r);

/* tracekit's notes on what was recorded ("command=./prog a", "pids=1,2"): n of them. */
int tf_reader_nnotes(const struct tf_reader *r);
const char *tf_reader_note(const struct tf_reader *r, int i);
/* The thread group (process) of a pid from the file's saved_tgids (tracekit's
 * recordings have them); 0 when the file does not say. */
int tf_reader_tgid(const struct tf_reader *r, int pid);

/*
 * Lost events the recorder saw per CPU (the overrun counts of per_cpu/cpuN/stats
 * kept in the file); -1 when the file does not say.
 */
long long tf_reader_cpu_overrun(const struct tf_reader *r, int cpu);

/*
 * Buffers: a file may hold, besides the top-level buffer, instance buffers
 * (trace-cmd record -B NAME); every one is read, merged in time order.  The
 * instances' names, n of them (the top-level one has none).
 */
int tf_reader_ninstances(const struct tf_reader *r);
const char *tf_reader_instance(const struct tf_reader *r, int i);

/*
 * The buffers every reader opened afterwards reads (the CLI's -B NAME and --top,
 * as trace-cmd names them): the instances named, and the top-level buffer when
 * top; n == 0 and !top: all (the default).  A name the file lacks fails its open.
 * The strings must outlive the readers.
 */
void tf_reader_choose_buffers(const char *const *names, int n, bool top);

/* Read only these CPUs (mask[cpu] true); NULL reads them all.  Before the first next(). */
int tf_reader_select_cpus(struct tf_reader *r, const bool *mask, int n);

/*
 * Whether events come from the fast path (our page reader) rather than libtracecmd;
 * when not, *why (if why is non-NULL) says what in the file or environment is the
 * reason.  Setting TRACEKIT_REPORT_GENERIC=1 in the environment forces libtracecmd.
 */
bool tf_reader_fast(const struct tf_reader *r, const char **why);

/*
 * Whether the record the reader holds next for CPU cpu (top-level buffer) comes after
 * events the kernel lost there; then *ts is its time and *missed the loss (-1: not
 * counted).  The gap is known before the other CPUs' events from during it are handed
 * out.  False when not known yet (the CPU of the event handed out last, on the fast
 * path; a record a filter will skip carries its loss to the next one, unseen here).
 */
bool tf_reader_gap_ahead(const struct tf_reader *r, int cpu, uint64_t *ts, long long *missed);

/* The next event in time order: 1 and *ev filled, 0 at the end, -1 and err on error. */
int tf_reader_next(struct tf_reader *r, struct tf_event *ev, char *err, size_t errlen);

#endif
