/*
 * function_graph calls on the view page (a flame chart under each task's
 * lane): each funcgraph_exit closes a slice named by the function, from the
 * time of its funcgraph_entry (the newest open entry of the same function and
 * kernel depth) to the exit's, so the calls nest on the trace clock like
 * everything else on the page.  Its row is how many calls were open around
 * it: the kernel's depth field can repeat inside an open call (an interrupt
 * that came in it), the open calls cannot.  The slice also carries the
 * kernel's own duration (rettime - calltime, the one trace-cmd report and
 * tracekit calls print), which the page shows: the two clocks may differ
 * (under qemu's TCG by a lot).  A call entered before the recording starts
 * at its exit less that duration, at the kernel's depth.  A call whose exit
 * is not in the file (still running, or lost) is not drawn.  Calls deeper
 * than VW_CALLS_DEPTH levels are counted but not drawn.
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

#define VW_CALLS_STACK 64	/* open calls followed per task; deeper ones are cut */

struct vw_calls_open {
	uint64_t ts, func;
	int depth;	/* the kernel's */
};

/*
 * One task's open calls and its slices: "start,end,row,function,duration,"
 * (relative ns; function: index in fgFuncs; duration: the kernel's, ns).
 */
struct vw_calls_task {
	struct vw_calls_open open[VW_CALLS_STACK];
	int nopen;
	long skipped;	/* entries past VW_CALLS_STACK, their exits still to come */
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
 * ev/rec at ts (absolute ns), if it is a funcgraph event: an entry is noted
 * in *t (allocated on first use), an exit adds its slice, relative to t0,
 * unless keep is false (past the page's event cap).  Returns whether it was
 * a funcgraph event.
 */
bool vw_calls_event(struct vw_calls *c, struct vw_calls_task **t, struct tep_event *ev,
		    struct tep_record *rec, uint64_t ts, uint64_t t0, bool keep);

/* ,"fgFuncs":[...],"fgDepth":N,"fgCut":N for the page's data object. */
void vw_calls_meta(const struct vw_calls *c, FILE *out);

void vw_calls_task_free(struct vw_calls_task *t);
void vw_calls_free(struct vw_calls *c);

#endif
