/*
 * tracekit calls: a function_graph recording read into per-function
 * statistics (calls, total and self time, average, p99, max) and a call tree
 * (inclusive and self time per path, one subtree per process name).
 *
 * Durations are the kernel's own (funcgraph_exit's rettime - calltime), the
 * very numbers trace-cmd report prints.  Self time is a call's duration less
 * its children's, found from the exits' depths alone, so a call whose entry
 * came before the recording started still counts.
 */
#ifndef TRACEKIT_ANALYSIS_CALLS_H
#define TRACEKIT_ANALYSIS_CALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum calls_by { CALLS_BY_ALL, CALLS_BY_PROCESS, CALLS_BY_THREAD };

struct calls_options {
	const char *input;
	enum calls_by by;	/* rows per function, or per function and process/thread */
	int top;		/* rows of the function table (0: all) */
	double min_percent;	/* call tree: paths under this share of their process are cut */
	bool folded;		/* folded stacks instead of the tables */
	bool json;
};

/* One row: a function (within one process or thread with --by). */
struct calls_fn {
	uint64_t func;
	const char *name;	/* kallsyms name, or NULL (then func in hex) */
	int key;		/* pid or tgid with --by, else 0 */
	const char *comm;	/* the key's command name */
	uint64_t calls, total, self, max;
	uint64_t *durs;		/* every call's duration, for p99 */
	size_t ndurs, cap;
};

/* A call-tree node: a function reached by one path (the root's children are processes). */
struct calls_node {
	uint64_t func;
	const char *name;	/* function name, or the process name under the root */
	struct calls_node *parent, *child, *next;
	uint64_t calls, total, self;
};

struct calls {
	struct calls_fn **fns;	/* hash table, cap slots */
	size_t nfns, cap;
	struct calls_node root;
	uint64_t events, exits, lost;
	int tasks;
	char **strings;		/* names copied out of the reader */
	size_t nstrings;
};

/* Read o->input; 0, or -1 with err naming the file (no function_graph events is an error). */
int calls_load(struct calls *c, const struct calls_options *o, char *err, size_t errlen);
void calls_free(struct calls *c);

/* The rows sorted by total time, longest first (n set); free the array only. */
struct calls_fn **calls_sorted(const struct calls *c, size_t *n);
uint64_t calls_p99(struct calls_fn *f);

int calls_print_text(struct calls *c, const struct calls_options *o, FILE *out);
int calls_print_folded(struct calls *c, FILE *out);
int calls_print_json(struct calls *c, const struct calls_options *o, FILE *out);

#endif
