/*
 * The function tracers (function, function_graph) on an ftrace session:
 * where they can run (a private instance, else the borrowed top level),
 * their filters checked against available_filter_functions, their options,
 * and pid tracking through set_ftrace_pid + function-fork.
 */
#ifndef TRACEKIT_FTRACE_FUNCTIONS_H
#define TRACEKIT_FTRACE_FUNCTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct ft_session;

/* trace-cmd record's function options. */
struct ft_func_options {
	const char *tracer;	/* -p: "function", "function_graph"; NULL: none */
	const char **filters;	/* -l: set_ftrace_filter patterns (globs, FUNC:mod:MODULE) */
	int nfilters;
	const char **notrace;	/* -n: set_ftrace_notrace */
	int nnotrace;
	const char **graph;	/* -g: set_graph_function */
	int ngraph;
	int max_graph_depth;	/* --max-graph-depth; 0: unlimited */
	const char **opts;	/* -O: "func_stack_trace", "nofuncgraph-irqs" ... */
	int nopts;
};

/*
 * A session where tracer can run: a private instance when this kernel lets
 * one run it, else the top level (see toplevel.h).  NULL with one line in
 * err naming the missing kernel option or the refusal (EPERM, lockdown);
 * errno EINVAL when tracer is no tracer this kernel has nor one we know of
 * (a mistyped -p: the caller's usage error).
 */
struct ft_session *ft_function_session(const char *tracer, char *err, size_t errlen);

/*
 * The filters, graph settings, options, pids (set_ftrace_pid and, with
 * follow, function-fork), and last the tracer itself.  A filter that matches
 * no function is refused with the closest names.
 */
int ft_function_setup(struct ft_session *s, const struct ft_func_options *fo,
		      const pid_t *pids, int npids, bool follow, char *err, size_t errlen);

/*
 * Whether pattern (a glob, "FUNC:mod:MODULE", "*:mod:MODULE") matches a
 * traceable function; else -1 with err naming the closest ones.  The list is
 * read from available_filter_functions once per process.
 */
int ft_function_check(const char *pattern, const char *opt, char *err, size_t errlen);

/* Why writing tracer to dir/current_tracer failed with errno e, as one line. */
void ft_tracer_refusal(const char *tracer, const char *dir, int e, char *err, size_t errlen);

#endif
