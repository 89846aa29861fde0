/*
 * function_graph calls on the view page (a flame chart under each task's
 * lane): each funcgraph_exit is a slice at its depth, named by the function,
 * ending at the exit's time and as long as the kernel measured the call
 * (rettime - calltime, the duration trace-cmd report and tracekit calls
 * print), so the page, report and calls agree.  A call whose exit is not in
 * the file (still running, or lost) is not drawn.  Calls deeper than
 * VW_CALLS_DEPTH levels are counted but not drawn.
 */
#ifndef TRACEKIT_EXPORT_VIEW_CALLS_H
#define TRACEKIT_EXPORT_VIEW_CALLS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/strbuf.h"

#define VW_CALLS_DEPTH 24	/* the page draws this many levels at most */

struct tep_event;
struct tep_record;

/* One task's slices: "start,end,depth,function," (relative ns, function: index in fgFuncs). */
struct vw_calls_task {
	struct strbuf slices;
};

/* The functions named on the page (address -> index in fgFuncs) and what was cut. */
struct vw_calls {
	uint64_t *addr;	/* open addressing, 0 empty */
	int *index;
	size_t cap, n;
	struct strbuf names;	/* JSON strings, comma-separated */
	long cut;	/* calls deeper than VW_CALLS_DEPTH */
	long slices;
};

/*
 * ev/rec at ts (absolute ns), if it is a funcgraph event: an exit adds its
 * slice to *t (allocated on first use), relative to t0, unless keep is false
 * (past the page's event cap).  Returns whether it was a funcgraph event.
 */
bool vw_calls_event(struct vw_calls *c, struct vw_calls_task **t, struct tep_event *ev,
		    struct tep_record *rec, uint64_t ts, uint64_t t0, bool keep);

/* ,"fgFuncs":[...],"fgDepth":N,"fgCut":N for the page's data object. */
void vw_calls_meta(const struct vw_calls *c, FILE *out);

void vw_calls_task_free(struct vw_calls_task *t);
void vw_calls_free(struct vw_calls *c);

#endif
