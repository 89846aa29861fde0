/*
 * ftrace session: one private tracefs instance, "tracekit-<pid>-<n>", set up
 * for one recording and removed on every exit path.  The top-level buffer
 * is never touched.  Built on libtracefs.
 *
 * Every function returns 0 (or a pointer) on success and -1 (or NULL) with
 * one line in the caller's err buffer on failure, naming what failed and how
 * to fix it:  "tracefs is not mounted and cannot be mounted at
 * /sys/kernel/tracing (run as root, or mount -t tracefs nodev /sys/kernel/tracing)".
 */
#ifndef TRACEKIT_FTRACE_SESSION_H
#define TRACEKIT_FTRACE_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct tep_handle;
struct ft_session;

/* Find tracefs (mount it if needed), create a fresh instance, note it in the reset registry. */
struct ft_session *ft_session_new(char *err, size_t errlen);
/*
 * The top-level buffer instead, for what the kernel allows only there
 * (function_graph on 6.1): every file written is saved first and restored by
 * ft_session_destroy (src/ftrace/toplevel.h); purpose names the run to a
 * second tracekit that is refused meanwhile.
 */
struct ft_session *ft_session_new_top(const char *purpose, char *err, size_t errlen);
bool ft_session_is_top(const struct ft_session *s);
/*
 * Where the run stages per-CPU data (record's OUTPUT.cpuN, an absolute path):
 * noted beside the instance in the registry, or in the top level's state
 * file, so that `tracekit reset` after a SIGKILL removes the files too.
 */
int ft_session_note_output(struct ft_session *s, const char *output);
/* Stop tracing and remove the instance (events, filters, pids go with it). Safe on NULL. */
void ft_session_destroy(struct ft_session *s);

/* The tracefs mount point ("/sys/kernel/tracing") and the instance's directory in it. */
const char *ft_tracefs_dir(const struct ft_session *s);
const char *ft_instance_dir(const struct ft_session *s);
const char *ft_instance_name(const struct ft_session *s);
/* Number of possible CPUs (per_cpu/cpuN directories). */
int ft_cpu_count(const struct ft_session *s);

/*
 * Enable events: "sched:sched_switch", "sched" (a whole system), globs such as
 * "sched:sched_wak*" or "syscalls:sys_enter_*".  An unknown event's error
 * names the closest existing ones.
 */
int ft_enable_events(struct ft_session *s, const char *spec, char *err, size_t errlen);
/* The kernel's filter syntax on the events of spec; a bad filter's error carries error_log's text. */
int ft_set_filter(struct ft_session *s, const char *spec, const char *filter, char *err, size_t errlen);
/* Events enabled so far, "system:event" each, in the order they were enabled. */
int ft_enabled_events(const struct ft_session *s, char ***list);	/* free with ft_free_list */

int ft_set_clock(struct ft_session *s, const char *clock, char *err, size_t errlen);	/* "mono", "local"... */
int ft_set_buffer_kb(struct ft_session *s, unsigned kb_per_cpu, char *err, size_t errlen);
/* How full a CPU's buffer gets before a reader polling it is woken; -1 if the kernel has no such file. */
int ft_set_buffer_percent(struct ft_session *s, unsigned percent);
/* Instance options: "record-tgid", "event-fork", "stacktrace", "userstacktrace". */
int ft_set_option(struct ft_session *s, const char *option, bool on, char *err, size_t errlen);
/* Trace only these pids (set_event_pid); with follow, their future children too (event-fork). */
int ft_set_pids(struct ft_session *s, const pid_t *pids, int n, bool follow, char *err, size_t errlen);

int ft_tracing_on(struct ft_session *s, bool on, char *err, size_t errlen);
/* Any file of the session (saved first at the top level); err names the file and value. */
int ft_write(struct ft_session *s, const char *rel, const char *val, char *err, size_t errlen);

/* Text of instance files the trace file needs: "per_cpu/cpu0/stats", "saved_cmdlines"... (malloc'd). */
char *ft_read_file(const struct ft_session *s, const char *rel, size_t *len);
/* Same for top-level tracefs files: "events/header_page", "events/sched/sched_switch/format". */
char *ft_read_top_file(const struct ft_session *s, const char *rel, size_t *len);

/* A libtraceevent handle with the formats of every event on this system (cached in the session). */
struct tep_handle *ft_tep(struct ft_session *s);

void ft_free_list(char **list, int n);

/* ---- the reset registry: what tracekit made and must remove after a SIGKILL ---- */

/* Remove every tracekit-* instance whose recording process is gone (all with force). Returns count. */
int ft_reset(bool force, char *err, size_t errlen);

#endif
