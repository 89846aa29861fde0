/*
 * function_graph's events as trace-cmd report prints them: funcgraph_entry
 * as "func() {" (or, when its exit follows at once, the leaf "func();" with
 * the duration), funcgraph_exit as "}" with the duration and its overhead
 * marker (+ over 10 us, ! over 100 us, # over 1 ms, $ over 1 s).
 *
 * libtracecmd's own handlers for these events look ahead through its own
 * iterator, which tracekit's readers do not use (they would crash), so every
 * reader registers these instead; the report's look-ahead is its own
 * (fg_set_leaf before printing an entry whose exit came next).
 */
#ifndef TRACEKIT_TRACEFILE_FUNCGRAPH_H
#define TRACEKIT_TRACEFILE_FUNCGRAPH_H

#include <stdbool.h>
#include <stdint.h>

struct tep_handle;
struct tep_record;
struct tep_event;

/* Our handlers for ftrace:funcgraph_entry and funcgraph_exit on tep. */
void fg_register(struct tep_handle *tep);

/* The exit record the next printed entry is the leaf of (NULL: print it nested). */
void fg_set_leaf(struct tep_handle *tep, struct tep_record *exit_rec);

/* One graph event's fields. */
struct fg_event {
	bool entry;		/* funcgraph_entry, else funcgraph_exit */
	uint64_t func;
	int depth;
	uint64_t calltime, rettime;	/* exit only */
};

/*
 * Deeper than any kernel nests calls (6.1 follows 50): a depth past it is a
 * corrupt record, which would have the printer indent for billions of columns.
 */
#define FG_MAX_DEPTH 1024

/*
 * Whether ev is ftrace:funcgraph_entry or funcgraph_exit (with a depth of
 * FG_MAX_DEPTH at most), and its fields.  Readers that build call trees
 * (calls, view, export) use this.
 */
bool fg_parse(struct tep_event *ev, struct tep_record *rec, struct fg_event *out);

#endif
