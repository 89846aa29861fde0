/*
 * The kernel backend: probe_defs as the kernel's own dynamic events
 * (uprobe_events here; kprobe_events where the kernel has it), through
 * libtracefs, and the registry of what tracekit made.
 *
 * Probe events are global, not per tracefs instance, so:
 *   - a run (probe trace, record --probe) makes its probes in a group of its
 *     own, "tracekit_<pid>_<n>", noted in the registry before it is made, and
 *     removes the group on every exit path; reset removes groups whose owner
 *     is gone (SIGKILL);
 *   - `probe add` makes persistent probes, noted in the registry so that
 *     `probe del` and `reset` remove exactly those, never someone else's.
 */
#ifndef TRACEKIT_PROBE_KERNEL_H
#define TRACEKIT_PROBE_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

#include "probe/probe_def.h"

#define PK_REGISTRY_DIR "/run/tracekit/probes"
#define PK_RUN_GROUP_PREFIX "tracekit_"

/*
 * 0 when this kernel can take def (user probes: uprobe_events; kernel
 * probes: kprobe_events), else -1 with one line: for kprobes on a kernel
 * without them, what works instead.
 */
int pk_supported(const struct probe_def *def, char *err, size_t errlen);

/*
 * Parse, resolve and create one probe from its spec in group (NULL: the
 * spec's, else the default) under event (NULL: the spec's, else the default).
 * The created group/event names are written to out_group/out_event.  The
 * kernel's refusal comes back in err with its reason from error_log.
 */
int pk_create_spec(const char *spec, const char *group, char *out_group, size_t glen,
		   char *out_event, size_t elen, char *err, size_t errlen);

/*
 * The line pk_create_spec() would write to kprobe_events/uprobe_events for
 * spec (probe add -n -v), and what a user should know about it in notes
 * (one line each: a probe moved past a prologue, $current->pid from the
 * event).  Nothing is made; no tracefs needed.  -1 with err.
 */
struct strbuf;
int pk_spec_line(const char *spec, struct strbuf *line, struct strbuf *notes, char *err,
		 size_t errlen);

/* Remove one event, or with event NULL every probe event of group. */
int pk_remove(const char *group, const char *event, char *err, size_t errlen);

/* A fresh run group "tracekit_<pid>_<n>", registered with its owner; -1 with err. */
int pk_run_group_new(char *group, size_t len, char *err, size_t errlen);
/* Remove the run group's probes and its registry note. */
void pk_run_group_end(const char *group);

/* Persistent probes made by `probe add`. */
int pk_registry_add(const char *group, const char *event, const char *spec);
bool pk_registry_has(const char *group, const char *event);
void pk_registry_del(const char *group, const char *event);

struct pk_probe {
	char *group, *event;
	char *definition;	/* the kernel's line for it */
	char *spec;		/* the spec given to probe add, NULL if not tracekit's */
	bool persistent;	/* made by probe add */
	bool run;		/* in a run group */
	bool kernel;		/* a kprobe (kprobe_events), else a uprobe */
};

/* Every probe event on the system (uprobe_events, kprobe_events); -1 with err. */
int pk_list(struct pk_probe **out, size_t *n, char *err, size_t errlen);
void pk_list_free(struct pk_probe *list, size_t n);

enum pk_reset_action { PK_RESET_REMOVED, PK_RESET_KEPT, PK_RESET_FAILED };
typedef void (*pk_reset_fn)(enum pk_reset_action act, const char *what, const char *why, void *arg);
/*
 * Remove run groups whose owner is gone (never one of a live run); with all,
 * the persistent probes probe add made too.  Told about each.  Returns how many
 * were removed, or -1 with err when tracefs cannot be read.
 */
int pk_reset(bool all, pk_reset_fn fn, void *arg, char *err, size_t errlen);

#endif
