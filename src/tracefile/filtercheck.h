/*
 * The -F filters of report (and of any verb reading a trace file that takes
 * them) checked against the file before use.  libtraceevent turns a field it
 * does not know into "false" without a word, so a typo silently filters out
 * everything; here an unknown event or field is an error that names it and
 * what the file has instead.
 */
#ifndef TRACEKIT_TRACEFILE_FILTERCHECK_H
#define TRACEKIT_TRACEFILE_FILTERCHECK_H

#include <stddef.h>

struct tep_handle;
struct tep_event_filter;

/*
 * filter in trace-cmd's syntax ("EVENT[,EVENT...][: EXPRESSION]", EVENT
 * being "name", "system/name" or a regular expression): 0 when every event
 * matches one in tep and every name in the expression is a field of one of
 * them (or COMM, CPU); else -1 and one line in err:
 *   -F 'sched_switch: nxt_pid > 0': sched:sched_switch has no field 'nxt_pid'
 *   (its fields, closest first: next_pid, prev_pid, ...)
 */
int tf_filter_check(struct tep_handle *tep, const char *filter, char *err, size_t errlen);

/* All filters checked, then compiled into one libtraceevent filter; NULL and err on failure. */
struct tep_event_filter *tf_filter_make(struct tep_handle *tep, const char *const *filters, int n,
					char *err, size_t errlen);

#endif
