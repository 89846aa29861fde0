/*
 * The -c / -C summary: calls, errors and time per syscall, printed as
 * strace 6.1 prints it, column for column.
 *
 * What "time" is belongs to the caller.  strace -c sums the system CPU time
 * each call consumed and strace -w the wall-clock time from syscall entry
 * to syscall exit.  tracekit measures the time between the entry stop and
 * the exit stop in both cases (it has no per-call CPU time), so without -w
 * our numbers are what strace -c -w would say: blocking calls such as
 * wait4 or nanosleep count their whole wait.
 */
#ifndef TRACEKIT_SYSCALLS_SUMMARY_H
#define TRACEKIT_SYSCALLS_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct sc_summary;

struct sc_summary *sc_summary_new(void);
void sc_summary_free(struct sc_summary *s);

/* Count one finished call of nr that took ns nanoseconds. */
void sc_summary_add(struct sc_summary *s, long nr, uint64_t ns, bool failed);

/*
 * -S: time (time-percent, time-total, total-time), min-time (shortest,
 * time-min), max-time (longest, time-max), avg-time (time-avg), calls
 * (count), errors (error), name (syscall, syscall-name), nothing (none);
 * '_' may stand for '-'.  The default is time.  Returns 0, or -1 with a
 * message (no prefix, no newline) in err.
 */
int sc_summary_set_sort(struct sc_summary *s, const char *key, char *err, size_t errlen);

/*
 * -U: the columns to print, in order: time-percent (time), total-time
 * (time-total), min-time (shortest, time-min), max-time (longest,
 * time-max), avg-time (time-avg), calls (count), errors (error), name
 * (syscall, syscall-name); '_' may stand for '-'.  The name column is
 * added at the end when not given.  0, or -1 with a message in err.
 */
int sc_summary_set_columns(struct sc_summary *s, const char *list, char *err, size_t errlen);

/* -O: subtract this much from every call's time (never below zero). */
void sc_summary_set_overhead(struct sc_summary *s, uint64_t ns);

/* The table, header to total line; nothing when no call was counted. */
void sc_summary_print(const struct sc_summary *s, FILE *out);

#endif
