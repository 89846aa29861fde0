/*
 * The recorder's side of user tracepoints (<tracekit/tracepoint.h>): a
 * session directory on tmpfs that the program finds through its environment
 * (or its control file, for -P), a thread draining every thread's ring
 * buffer into staging files, and at the end the events in trace.dat pages,
 * in time order, with their format files: one more "CPU" after the kernel's,
 * holding the user events of every thread (each record's common_pid is its
 * thread).
 */
#ifndef TRACEKIT_RECORD_UST_H
#define TRACEKIT_RECORD_UST_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "ftrace/session.h"
#include "record.h"
#include "tracefile/writer.h"

struct ust_rec;

/* Whether -e spec names user events: its system is not one of the kernel's. */
bool ust_is_user_spec(struct ft_session *s, const char *spec);

/*
 * A session for the user specs among events (NULL and no error when there are
 * none).  Sets the environment the command inherits; writes the control
 * files of the -P pids.  out: the trace file, beside which staging files go;
 * buffer_kb: each thread's ring (0: 4 MB); wait_ms: how long a thread with a
 * full ring waits for room before dropping (-1: 1000 for a command, 0 with -P).
 */
struct ust_rec *ust_rec_start(struct ft_session *s, const struct rec_event *events, int nevents,
			      const pid_t *pids, int npids, const char *clock, const char *out,
			      unsigned buffer_kb, int wait_ms, char *err, size_t errlen);
/* Tracing is over: detach -P pids, drain, write the user pages. -1 with err. */
int ust_rec_stop(struct ust_rec *u, char *err, size_t errlen);
/* Add the user events' formats, comms and the extra CPU to m (valid until ust_rec_free). */
void ust_rec_meta(struct ust_rec *u, struct tf_meta *m);
/*
 * The user CPU's statistics, in per_cpu/cpuN/stats' words, as a CPUSTAT option:
 * what the threads dropped is its overrun, so report --stat and trace-cmd
 * report --stat show the loss from the file.  After ust_rec_meta.
 */
void ust_rec_cpu_stats(struct ust_rec *u, struct tf_writer *w);
/* The kernel's CPU data with the user CPU appended (valid until ust_rec_free). */
const struct tf_cpu_data *ust_rec_cpu_data(struct ust_rec *u, const struct tf_cpu_data *kernel,
					   int nkernel, int *n);
/*
 * The user events' counts and losses on stderr, and with judge_specs a line
 * for each user -e spec that no program announced (nor is a kernel system: a
 * misspelling gets the closest of s's systems).  Returns how many specs
 * matched nothing (0 without judge_specs).
 */
int ust_rec_print_stats(const struct ust_rec *u, struct ft_session *s, const char *output,
			bool quiet, bool judge_specs);
/* How many user events were recorded (0 for no session); after ust_rec_stop. */
unsigned long long ust_rec_events(const struct ust_rec *u);
void ust_rec_free(struct ust_rec *u, bool keep_files);

/*
 * tracekit reset: the session directories of recorders that are gone and the
 * control files of programs that are gone (a SIGKILL skips their cleanup),
 * each removed one passed to removed(path, why, arg).  Returns how many.
 */
int ust_reset_stale(void (*removed)(const char *path, const char *why, void *arg), void *arg);

#endif
