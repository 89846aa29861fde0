/*
 * A guest's tasks against its vCPUs' host threads: the time a guest task was running or
 * runnable on a vCPU while the host thread that runs that vCPU was not running on the host
 * ("waited for its vCPU on the host").  The guest cannot see that time: to it the task ran,
 * or waited its turn, and the clock moved on.  Only the merged host and guest recordings
 * show it (tracekit sched -i host.dat -i guest.dat).
 *
 * The accounting (sg_*) is fed transitions in time order: a vCPU's host thread going on or
 * off a host CPU, a guest task becoming attached to a vCPU (running on it, or queued there
 * runnable) or detached.  Per vCPU it keeps the host thread's off time as a running total,
 * so a task's share is the total's growth while the task was attached: O(1) per event
 * whatever the number of queued tasks.
 *
 * A vCPU thread's state is unknown until the host's first event about it: that time is not
 * counted (a lower bound, said so by the printers).
 */
#ifndef TRACEKIT_ANALYSIS_SCHED_GUEST_H
#define TRACEKIT_ANALYSIS_SCHED_GUEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/tidmap.h"

struct sg_vcpu {
	int host_pid;		/* the host thread running it; 0 unknown */
	bool known, on;		/* its host thread's state, once the host said */
	uint64_t since;		/* when it last changed */
	uint64_t off_total;	/* off time before `since` (while known) */
	uint64_t on_total;
	uint64_t first, last;	/* the span the host saw it */
	/* its off total at the guest's latest event, taken by the first change after it:
	 * what tasks still on it at the guest's end are charged */
	uint64_t snap_ts, snap_off;
	bool snap;
};

struct sg_task {
	int pid;
	char comm[16];
	int vcpu;		/* attached to this vCPU, or -1 */
	bool running;		/* attached as running (else runnable) */
	uint64_t mark;		/* the vCPU's off total when it attached */
	uint64_t attached_at;
	uint64_t waited;	/* off time of its vCPUs while attached */
	uint64_t attached;	/* time attached (running or runnable) */
};

struct sg_guest {
	struct sg_vcpu *vcpu;
	int nvcpu;
	struct sg_task *task;	/* by first appearance */
	int ntask, cap;
	struct tidmap index;	/* pid -> its index in task, plus one */
	uint64_t guest_last;	/* the guest's latest event so far */
};

/* nvcpu vCPUs, host_pid[i] running vCPU i (0: unknown). */
int sg_init(struct sg_guest *g, int nvcpu, const int *host_pid);
void sg_free(struct sg_guest *g);

/* The host: thread pid went off (on = false) or on a host CPU at ts. */
void sg_host_switch(struct sg_guest *g, int prev_pid, int next_pid, uint64_t ts);

/* The guest: pid runs on vcpu from ts (sched_switch's next), attached running. */
void sg_guest_run(struct sg_guest *g, int pid, const char *comm, int vcpu, uint64_t ts);
/* pid is queued on vcpu from ts, runnable (woken there, preempted, migrated there). */
void sg_guest_queue(struct sg_guest *g, int pid, const char *comm, int vcpu, uint64_t ts);
/* The task of pid, or NULL. */
struct sg_task *sg_task_of(struct sg_guest *g, int pid);
/* The guest had an event at ts: the host's later changes keep what was true then. */
void sg_guest_seen(struct sg_guest *g, uint64_t ts);
/* pid sleeps or exits at ts: off every vCPU. */
void sg_guest_sleep(struct sg_guest *g, int pid, uint64_t ts);
/*
 * --from: the window starts at ts (every transition before it given, none after): the
 * states stay, the times counted so far are dropped, so that only time from ts counts.
 */
void sg_window_start(struct sg_guest *g, uint64_t ts);
/*
 * The end of the recordings at ts, the host's at host_end (its last event): what is still
 * attached is counted up to ts, its vCPU's off time up to host_end (beyond it the host
 * says nothing).
 */
void sg_end(struct sg_guest *g, uint64_t ts, uint64_t host_end);

/* The host thread's off time of vCPU v up to ts (while its state was known). */
uint64_t sg_vcpu_off(const struct sg_vcpu *v, uint64_t ts);

#endif

/*
 * tracekit sched over several files (sched_guest_trace.c): each machine's own analysis
 * (st_load, st_print on its file), then, for each guest with a host among the files, the
 * time its tasks waited for their vCPUs on the host.  0; -1 and err; -2 and err for a
 * usage mistake (a -F no file takes).
 */
struct st_options;
int sg_report(const struct st_options *o, const char *const *paths, int n, FILE *out,
	      char *err, size_t errlen);
