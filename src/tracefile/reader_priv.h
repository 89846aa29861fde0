/*
 * What the trace.dat reader's two halves share: the reader's state, filled by
 * the layout check (layout.c: the file's structure walked and checked before
 * libtracecmd sees it, and what the walk collects on the way) and used by the
 * event reader (reader.c).  Private to src/tracefile.
 */
#ifndef TRACEKIT_TRACEFILE_READER_PRIV_H
#define TRACEKIT_TRACEFILE_READER_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <trace-cmd/trace-cmd.h>
#include <traceevent/kbuffer.h>

#include "tracefile/pages.h"
#include "tracefile/reader.h"
#include "tracefile/writer.h"
#include "util/tidmap.h"

/* trace-cmd's option ids (trace-cmd.dat.v7(5)). */
enum {
	OPT_DONE = 0,
	OPT_DATE = 1,
	OPT_CPUSTAT = 2,
	OPT_BUFFER = 3,
	OPT_TRACECLOCK = 4,
	OPT_UNAME = 5,
	OPT_OFFSET = 7,
	OPT_PROCMAPS = 10,
	OPT_GUEST = 13,
	OPT_CPUCOUNT = 8,
	OPT_VERSION = 9,
	OPT_TIME_SHIFT = 12,
	OPT_TSC2NSEC = 14,
	OPT_HEADER_INFO = 16,
	OPT_PRINTK = 20,
	OPT_CMDLINES = 21,
	OPT_BUFFER_TEXT = 22,
	/* tracekit's notes (writer.h): NUL-terminated strings back to back. */
	OPT_TRACEKIT_NOTES = TF_OPTION_TRACEKIT_NOTES,
	/* tracekit's saved_tgids: "pid tgid" lines. */
	OPT_TRACEKIT_TGIDS = TF_OPTION_TRACEKIT_TGIDS,
};

#define SEC_FL_COMPRESS 1
#define SEC_STRINGS 15
#define ZSTD_MAX_RATIO 32768	/* zstd's best: a 128 KB run in a 4-byte block */
#define MAX_CPUS 4096
#define MAX_SECTIONS 4096

/* Where one CPU's data of the top-level buffer lies in the file. */
struct cpu_loc {
	uint64_t off, size;
	bool set;
	bool compressed;	/* its flyrecord section's flag (v7) */
};

struct cpu_state {
	struct tep_record *next;	/* generic path: the CPU's next record, read ahead */
	bool selected;
	bool done;
	long long overrun;		/* from its CPUSTAT option, -1 if none */
	struct cpu_loc loc;
	/* fast path: the page stream, the page being read, the current record */
	struct tf_pages *pages;
	struct kbuffer *kbuf;
	void *page;
	bool page_loaded;
	struct tep_record rec;
};

#define TYPE_CACHE 256

struct type_slot {
	int type;
	struct tep_event *event;
};

/* An instance buffer (trace-cmd record -B NAME), read through its own libtracecmd handle. */
struct instance {
	const char *name;		/* libtracecmd's */
	struct tracecmd_input *in;
	struct cpu_state *cpu;		/* next, selected and done only */
	int ncpu;
	bool selected;
};

struct tf_reader {
	const char *path;
	struct instance *inst;
	int ninst;
	bool top_selected;
	struct tracecmd_input *in;
	struct tep_handle *tep;
	struct tf_info info;
	char *clock, *uname, *tracer_version, *compression;
	char **notes;
	int nnotes;
	struct tidmap tgids;		/* pid -> tgid, from the file's saved_tgids */
	struct cpu_state *cpu;
	int ncpu;
	struct tep_record *held;	/* the record handed out last */
	bool started;
	const char *why_generic;	/* NULL: the fast path reads the events */
	int fd;				/* fast path: the file */
	int *heap;			/* fast path: CPUs with an event, least (ts, cpu) first */
	int nheap;
	int last;			/* fast path: the CPU of the event handed out last, or -1 */
	struct type_slot types[TYPE_CACHE];	/* fast path: formats by type id */
	struct tep_event_filter *filter;	/* -F: only events it matches are handed out */
	long long *skipped_missed;	/* per CPU: losses noted on events the filter dropped */
	bool time_shift;		/* a guest's file: TIME_SHIFT corrects its clock */
};

/*
 * layout.c: walk the open file fd's structure (r->path names it in errors): 0 with
 * r's layout fields set (version, page size, CPUs and where their data lies, clock,
 * notes...), or -1 and one line in err.
 */
int tf_layout_check(struct tf_reader *r, int fd, char *err, size_t errlen);

#endif
