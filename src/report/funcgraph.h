/*
 * The report's look-ahead for function_graph: a funcgraph_entry is held
 * until the next event is read; when that is the same task's exit of the
 * same function, the two print as one leaf line ("func();" with its
 * duration), as trace-cmd report does; otherwise the entry prints nested.
 */
#ifndef TRACEKIT_REPORT_FUNCGRAPH_H
#define TRACEKIT_REPORT_FUNCGRAPH_H

#include <stdbool.h>
#include <stddef.h>

#include <traceevent/event-parse.h>

#include "tracefile/funcgraph.h"
#include "tracefile/reader.h"

struct rp_fg {
	bool held;
	struct tf_event ev;	/* the held entry; its record is rec */
	struct tep_record rec;
	void *data;		/* rec's copied data */
	size_t cap;
	struct fg_event fe;
	int pid;
};

/* Hold ev when it is a funcgraph_entry (copied: the reader reuses its record). */
bool rp_fg_hold(struct rp_fg *h, struct tep_handle *tep, const struct tf_event *ev);
/* Whether next is the held entry's own exit (same task, same function). */
bool rp_fg_is_leaf_exit(const struct rp_fg *h, struct tep_handle *tep, const struct tf_event *next);
void rp_fg_free(struct rp_fg *h);

#endif
