/*
 * The fast text printer of tracekit report: trace-cmd report's line, byte for
 * byte, without libtraceevent's generic printer for the common event formats.
 *
 * Each event format is compiled once, on its first event, into a list of steps
 * from its print fmt and libtraceevent's parsed argument tree (fields, numbers,
 * __get_str, __print_symbolic, __print_flags, array items, arithmetic and ?:).
 * sched_switch and sched_wakeup(_new) print as libtraceevent's sched_switch plugin
 * prints them (and register the comms it registers).  Anything not compiled, and
 * any record too short for its format, goes through rp_format_line (the reference).
 */
#ifndef TRACEKIT_REPORT_FASTPRINT_H
#define TRACEKIT_REPORT_FASTPRINT_H

#include <stdbool.h>
#include <stddef.h>

struct tep_handle;
struct tep_record;
struct tep_event;
struct rp_fast;

/* Growing output text. */
struct rp_buf {
	char *p;
	size_t len, cap;
};

/* Append n bytes: 0, or -1 when out of memory. */
int rp_buf_put(struct rp_buf *b, const char *s, size_t n);

struct rp_fast *rp_fast_new(struct tep_handle *tep, bool ts_usecs);
void rp_fast_free(struct rp_fast *f);

/* Append the event's line (no newline) to b: 0, or -1 when out of memory. */
int rp_fast_line(struct rp_fast *f, struct tep_record *rec, struct tep_event *ev, int cpu,
		 struct rp_buf *b);

/* How many formats were compiled and how many fell back; names of the latter. */
void rp_fast_summary(const struct rp_fast *f, char *out, size_t len);

#endif
