/*
 * The trace.dat writer: trace-cmd's file format, version 7 (sections) by
 * default or version 6 on request, as documented in trace-cmd.dat.v7(5) and
 * trace-cmd.dat.v6(5).  Debian's libtracecmd keeps its writer private, so
 * this one is ours; trace-cmd report and KernelShark must open its files.
 *
 * The writer gets everything as text or raw bytes the kernel produced; it
 * interprets nothing, so kernel events, probes and user-space events (with
 * their own format text) all go through the same door.
 */
#ifndef TRACEKIT_TRACEFILE_WRITER_H
#define TRACEKIT_TRACEFILE_WRITER_H

#include <stddef.h>
#include <stdint.h>

struct tf_text {
	const char *data;
	size_t len;
};

/* One event format file's text ("name: ...\nID: ...\nformat:..."). */
struct tf_format {
	const char *system;	/* "sched", "ftrace" for the ftrace-internal formats */
	struct tf_text text;
};

/* An option written as given (TRACEID, GUEST, TIME_SHIFT of a host-guest recording). */
struct tf_option {
	uint16_t id;
	const void *data;
	uint32_t len;
};

/* trace-cmd's option ids for the host-guest options (trace-cmd.dat.v7(5)). */
#define TF_OPT_TRACEID 11
#define TF_OPT_TIME_SHIFT 12
#define TF_OPT_GUEST 13

struct tf_meta {
	unsigned page_size;
	int cpus;
	struct tf_text header_page;	/* events/header_page */
	struct tf_text header_event;	/* events/header_event */
	const struct tf_format *formats;
	int nformats;
	struct tf_text kallsyms;	/* /proc/kallsyms (may be empty) */
	struct tf_text printk_formats;	/* printk_formats */
	struct tf_text cmdlines;	/* saved_cmdlines: "pid comm" lines */
	struct tf_text tgids;		/* saved_tgids: "pid tgid" lines */
	const char *clock;		/* trace_clock's selected name: "mono", "local"... */
	const char *uname;		/* "Linux host 6.18 ..." */
	const char *version;		/* tracekit's version */
	/* What was traced, for sched/view: "command=./prog a b", "pids=1,2" ... (may be NULL) */
	const char *const *notes;
	int nnotes;
	/* More options, written after the common ones (may be NULL). */
	const struct tf_option *options;
	int noptions;
};

/* Per-CPU raw ring-buffer pages (as spliced from trace_pipe_raw), each a whole number of pages. */
struct tf_cpu_data {
	int cpu;
	const char *path;	/* a file holding the pages */
	uint64_t offset, size;
};

struct tf_writer;

/*
 * tracekit's notes and the saved_tgids text follow the version string in the
 * VERSION option, each NUL-terminated; the tgids as one TF_NOTE_TGIDS "pid
 * tgid\n..." entry (docs/trace-dat.md).  Files of tracekit 0.x before that
 * used option ids of their own, which readers still accept.
 */
#define TF_NOTE_TGIDS "saved_tgids="
#define TF_OPTION_TRACEKIT_NOTES 0x746b
#define TF_OPTION_TRACEKIT_TGIDS 0x746c

/* version 6 or 7; the file is created or truncated.  NULL and err on failure. */
struct tf_writer *tf_writer_open(const char *path, int version, char *err, size_t errlen);
/* Headers, formats, kallsyms, printk, cmdlines, options: everything before the data. */
int tf_write_meta(struct tf_writer *w, const struct tf_meta *m, char *err, size_t errlen);
/*
 * A CPUSTAT option: the text of per_cpu/cpuN/stats, shown by trace-cmd report
 * --stat.  Version 6: before tf_write_meta; version 7: any time before close.
 */
int tf_add_cpu_stats(struct tf_writer *w, int cpu, const char *text, size_t len, char *err,
		     size_t errlen);
/* The flyrecord data: one entry per CPU (cpus entries, empty ones with size 0). */
int tf_write_cpu_data(struct tf_writer *w, const struct tf_cpu_data *cpus, int n, char *err,
		      size_t errlen);
/* Finish the file (v7: the options section that points at the data); frees w. */
int tf_writer_close(struct tf_writer *w, char *err, size_t errlen);
/*
 * Finish a file that ends after its metadata, as a trace-cmd client streams it
 * to a listener, which appends the data and the options pointing at it (v7: the
 * pending options and the strings section are written); frees w.
 */
int tf_writer_close_meta(struct tf_writer *w, char *err, size_t errlen);

#endif
