/*
 * The reset registry and the tracefs lookups the ftrace files share.
 *
 * A SIGKILLed recording cannot remove its instance, so before an instance is
 * made its name is written to the registry: one file per instance under
 * FT_REGISTRY_DIR, holding the owner's pid and start time (the start time
 * tells a live owner from a later process that got the same pid).
 * `tracekit reset` removes the instances whose owner is gone.
 */
#ifndef TRACEKIT_FTRACE_REGISTRY_H
#define TRACEKIT_FTRACE_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define FT_REGISTRY_DIR "/run/tracekit/instances"
/* Every instance tracekit makes is named FT_INSTANCE_PREFIX "<pid>-<n>". */
#define FT_INSTANCE_PREFIX "tracekit-"

/*
 * The tracefs mount point, mounting tracefs if needed; NULL with a line in err
 * ("tracefs needs root ...", "tracefs is not mounted ...").
 */
const char *ft_tracefs_root(char *err, size_t errlen);

/*
 * The last entry of a tracefs error_log as one line for err: the kernel's
 * message and where in the command it stopped.  log is modified.
 */
void ft_error_log_line(char *log, char *out, size_t outlen);

/*
 * Write all of value to the tracefs file at path (truncated first; "" just
 * clears it).  The list files (set_ftrace_filter, set_graph_function...) take
 * one name per write() and say so with a short count: the rest is written
 * again until none is left.  0, or -1 with errno.
 */
int ft_write_file(const char *path, const char *value);

/* A process's start time (clock ticks since boot), telling it from a later one with its pid; 0 if gone. */
unsigned long long ftr_start_time(pid_t pid);

/* Note that the current process owns instance name; 0, or -1 with errno. */
int ftr_register(const char *name);
/*
 * Note beside name where its run writes per-CPU data (record's OUTPUT.cpuN
 * temporary files), so that reset of a killed run removes them too.
 */
int ftr_note_output(const char *name, const char *output);
/* As ftr_note_output, for a recording and its guests' files (record -A): n at most 17. */
#define FTR_MAX_OUTPUTS 17
int ftr_note_outputs(const char *name, const char *const *outputs, int n);
enum ft_reset_action {
	FT_RESET_REMOVED,	/* the instance is gone */
	FT_RESET_KEPT,		/* its owner still runs (without force) */
	FT_RESET_FAILED,	/* rmdir refused; why says how */
	FT_RESET_FILES,		/* a killed recording's raw per-CPU files removed; name: "OUT.cpu*" */
};

/*
 * Remove a killed recording's files beside output (OUTPUT.cpuN, .part,
 * .recover), telling fn (when not NULL) with FT_RESET_FILES.
 */
typedef void (*ft_reset_fn)(enum ft_reset_action act, const char *name, const char *why,
			    void *arg);
void ftr_remove_outputs(const char *output, ft_reset_fn fn, void *arg);
/* Forget name (its instance is gone). */
void ftr_unregister(const char *name);

/*
 * The owner of an instance: from its registry file, else from the pid in its
 * name.  Returns the pid (0 if unknown) and sets *alive when that very
 * process still runs.
 */
pid_t ftr_owner(const char *name, bool *alive);


/* ft_reset_fn (above) is told about each instance reset looked at; why is a short phrase ("owner pid 12 is gone"). */

/*
 * ft_reset() with a narrower prefix (which must start with FT_INSTANCE_PREFIX)
 * and a report of each instance.  Returns the number removed, or -1 with a
 * line in err when tracefs cannot be read at all.
 */
int ft_reset_prefix(const char *prefix, bool force, ft_reset_fn fn, void *arg,
		    char *err, size_t errlen);

#endif
