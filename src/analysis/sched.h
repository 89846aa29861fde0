/*
 * Scheduling analysis: a per-task state machine over the scheduler's events
 * (switch, wakeup, new task, migration, fork, exec, exit) that sums run,
 * runnable-wait, sleep and blocked time, wakeup latencies, switches and
 * migrations per task, per process and per CPU, and how many threads of each
 * process ran at once.
 *
 * The core takes a plain struct sa_event, so tests build event streams by hand;
 * sched_trace.c turns a trace.dat's events into them.  One pass, memory in
 * proportion to tasks and wakeups, not to events.
 */
#ifndef TRACEKIT_ANALYSIS_SCHED_H
#define TRACEKIT_ANALYSIS_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/tidmap.h"

enum sa_kind {
	SA_SWITCH,	/* pid = prev, pid2 = next, state = prev_state */
	SA_WAKEUP,	/* pid woken (sched_waking or sched_wakeup), cpu2 = target CPU */
	SA_WAKEUP_NEW,	/* pid, a new task made runnable for the first time */
	SA_MIGRATE,	/* pid moved to cpu2 */
	SA_FORK,	/* pid = parent, pid2 = child, comm2 = child's comm */
	SA_EXEC,	/* pid, comm = the new program's file name */
	SA_EXIT,	/* pid */
	SA_RUNS,	/* any other event: only its cur says who ran on cpu */
	SA_SYS_ENTER,	/* pid enters syscall nr (in state), arg = its first argument */
	SA_SYS_EXIT,	/* pid leaves syscall nr (in state) */
	SA_RUNTIME,	/* sched_stat_runtime: pid ran arg ns, by the kernel's count */
	SA_NKINDS
};

struct sa_event {
	enum sa_kind kind;
	uint64_t ts;		/* ns */
	int cpu;		/* where the event was recorded */
	int pid, pid2, cpu2;
	long state;
	const char *comm, *comm2;	/* switch: prev/next comm; fork: parent/child */
	uint64_t arg;
	uint64_t arg3;		/* SA_SYS_ENTER: its third argument (a futex's expected value) */
	bool has_cur;		/* cur is known (records have it, hand-made events may not) */
	int cur;		/* the task running on cpu when the event was recorded */
	int waker;		/* SA_WAKEUP: what made it (enum sa_waker_kind + 1), 0: not known */
};

/* Who woke a task: the context of its sched_waking (flags, and the timer/irq events around). */
enum sa_waker_kind { SA_WK_TASK, SA_WK_TIMER, SA_WK_HARDIRQ, SA_WK_SOFTIRQ, SA_WK_IDLE,
		     SA_WK_N };
const char *sa_waker_name(enum sa_waker_kind k);

struct sa_waker {
	enum sa_waker_kind kind;
	int pid;			/* SA_WK_TASK: the waking task; else the task interrupted (or 0) */
	unsigned long count;
};

/* prev_state bits as sched_switch reports them. */
#define SA_STATE_MASK		0xff
#define SA_STATE_SLEEPING	0x01	/* S */
#define SA_STATE_BLOCKED	0x02	/* D */
#define SA_STATE_DEAD		0x30	/* X, Z */
#define SA_STATE_PREEMPTED	0x100	/* "R+" */

enum sa_state { SA_UNKNOWN, SA_RUNNING, SA_RUNNABLE, SA_SLEEP, SA_BLOCKED, SA_GONE };

#define SA_COMM 16
#define SA_PAR_MAX 64		/* parallelism histogram buckets: 0 .. SA_PAR_MAX (and more) */
#define SA_TOP 5		/* longest wakeup latencies kept per process */

struct sa_lat {
	uint64_t ns, ts;
	int pid, cpu;
	int holder;		/* the task that ran on that CPU just before */
	char holder_comm[SA_COMM];
};

struct sa_proc;

/*
 * Why a process's threads were not on a CPU: each wait for a CPU is charged to
 * the task that held the CPU the thread then got, each sleep or block to the
 * syscall it happened in (and a futex to its word, which names the lock).
 */
enum sa_why_kind { SA_WHY_WAIT, SA_WHY_SLEEP };
#define SA_WHY_NOSYS (-1)	/* slept outside any traced syscall (page fault, preemption...) */
#define SA_WHY_UNTRACED (-2)	/* syscalls were not recorded */
#define SA_WHY_MAX 512		/* causes kept per process; the rest add up in "other" */

struct sa_why {
	enum sa_why_kind kind;
	int holder;			/* WAIT: a task that held the CPU meanwhile (0: idle, -1: older) */
	long nr;			/* SLEEP: syscall number or SA_WHY_* (-3: other) */
	uint64_t addr;			/* SLEEP in futex: the futex word */
	int joined;			/* SLEEP in futex on a word holding this tid: a join */
	const char *sym;		/* SLEEP in futex: the word's symbol, when known (not owned) */
	uint64_t ns;
};

/* What kind of cause: for --json and the verdict. */
enum sa_cause { SA_CAUSE_CPU, SA_CAUSE_LOCK, SA_CAUSE_JOIN, SA_CAUSE_IO, SA_CAUSE_SLEEP,
		SA_CAUSE_SYSCALL };
enum sa_cause sa_why_cause(const struct sa_why *w);
const char *sa_cause_name(enum sa_cause c);

struct sa_task {
	int tid;
	char comm[SA_COMM];
	struct sa_proc *proc;
	enum sa_state state;
	int cpu;			/* where it runs or last ran; -1 unknown */
	uint64_t since;			/* start of the current state */
	bool woken;			/* runnable because of a wakeup, not a preemption */
	int ready_cpu;			/* where it last became runnable (-1 unknown) ... */
	uint64_t ready_ts;		/* ... and when: bounds a missing switch-in */
	uint64_t run_ns, wait_ns, sleep_ns, blocked_ns, max_wait_ns;
	uint64_t join_ns;		/* of sleep_ns: waiting for another thread's exit */
	uint64_t exec_run_ns;		/* run time before its exec, left with its parent's process */
	uint64_t seen_ts;		/* the last event showing it on a CPU (seen_cpu) ... */
	int seen_cpu;
	uint64_t other_ts;		/* ... and the last one on the CPU before that one */
	uint64_t kernel_ns;		/* sum of its sched_stat_runtime in the window */
	unsigned long kernel_chunks;	/* how many of them */
	uint64_t like_ns;		/* its slices on the kernel's clock (sched_check.c) */
	struct sa_waker *wakers;	/* who woke it, by kind (and task), in no order */
	size_t nwakers;
	bool born, died;		/* its fork (or first wakeup) and its exit are in the window */
	unsigned long switches, involuntary, migrations;
	uint64_t *lat;			/* wakeup latencies, ns */
	size_t nlat, caplat;
	uint64_t cpus[16];		/* CPUs it ran on: a bitmap of the first 1024 */
	long sys_nr;			/* the syscall it is in: number, or SA_WHY_NOSYS */
	uint64_t sys_arg, sys_arg3;
	long sleep_nr;			/* the syscall its current sleep started in */
	uint64_t sleep_addr;
	int sleep_joined;		/* a futex word holding a thread's tid: waits for its exit */
	struct sa_task *next;		/* all tasks, newest first */
};

/*
 * What tasks did in a process before they exec'd a program of their own (a
 * forked `sh` child before its exec of `mkdir`): it stays the process's, so the
 * process's figures, its causes and its parallelism tell of the same tasks.
 */
struct sa_left {
	int tasks;
	uint64_t run_ns, wait_ns, sleep_ns, blocked_ns, join_ns, max_wait_ns;
	unsigned long switches, involuntary, migrations;
	uint64_t cpus[16];
	uint64_t *lat;
	size_t nlat;
};

struct sa_proc {
	int pid;			/* the task that exec'd it, or the oldest task seen */
	struct sa_proc *parent;		/* the process it was forked from (NULL: not seen) */
	char comm[SA_COMM];
	int nthreads, running;
	bool active;			/* first_ts is set */
	uint64_t first_ts, last_ts, last_change;
	uint64_t hist[SA_PAR_MAX + 1];	/* ns with k of its threads on a CPU */
	struct sa_lat top[SA_TOP];	/* longest wakeup latencies, longest first */
	int ntop;
	struct sa_why *why;		/* causes of not running, in no order */
	size_t nwhy, capwhy;
	struct sa_left left;		/* of tasks that exec'd away */
	struct sa_proc *next;
};

#define SA_HIST 256		/* slices per CPU kept to share a wait among its holders */

struct sa_slice {
	uint64_t start, end;
	int pid;			/* 0: idle */
};

struct sa_cpu {
	bool seen;			/* a switch was seen: curr is known */
	struct sa_slice hist[SA_HIST];	/* the last slices, a ring; head is the next to fill */
	int head, nhist;
	int curr;
	int tail;			/* prev of the last switch while its records may follow it */
	/*
	 * The current slice on the kernel's clock, which the scheduler updates at
	 * its own moments (each gives curr a sched_stat_runtime): k_start where it
	 * began, k_last curr's last sched_stat_runtime here (0: none yet), and the
	 * last wakeup made for this CPU (pid, ts).
	 */
	uint64_t k_start, k_last, wake_ts;
	int wake_pid;
	uint64_t since;
	uint64_t last_ts;		/* its last event: where a loss of events cuts its slice */
	uint64_t busy_ns;
	unsigned long switches;
	struct tidmap ran;		/* pid -> uint64_t * run ns on this CPU (not idle) */
};

/*
 * What the analysis decided, as it decides it, for a consumer that draws it
 * (tracekit view): each CPU's slices of one task, each task's spans of one
 * state, in time order per CPU and per task.  Any hook may be NULL.
 */
struct sa_hooks {
	void *ctx;
	void (*cpu_slice)(void *ctx, int cpu, uint64_t start, uint64_t end, int pid);
	/* cpu: where it ran (SA_RUNNING), else -1 */
	void (*task_span)(void *ctx, int tid, enum sa_state state, int cpu, uint64_t start,
			  uint64_t end);
};

struct sa_analysis {
	const struct sa_hooks *hooks;	/* NULL: none (set after sa_init) */
	uint64_t from, to;		/* the window asked for (0, UINT64_MAX: all) */
	uint64_t start, end;		/* the window seen: first event (or from) .. end */
	uint64_t first_ts, last_ts;	/* the recording's first and last events, window or not */
	bool started;
	struct tidmap tasks;
	struct sa_task *task_list;
	struct sa_proc *proc_list;
	int nprocs;
	struct sa_cpu *cpus;
	int ncpus;
	unsigned long nevents[SA_NKINDS];
	unsigned long switches_read;	/* sched_switch records fed, in the window or before it */
	unsigned long gaps;		/* switch-outs of tasks not seen switched in */
	bool syscalls;			/* syscall events seen: sleeps have their syscall */
	unsigned long inferred;		/* switch-ins out of idle the kernel did not record */
	unsigned long inferred_late;	/* ... placed at the first event showing the task */
	uint64_t inferred_cpus[16];	/* CPUs where they happened: a bitmap of the first 1024 */
	unsigned long missed_out;	/* switch-outs the kernel did not record, ended at the */
	uint64_t missed_out_cpus[16];	/* first sign of another task on the CPU; where */
	unsigned long tail_records;	/* records of prev after its switch-out (not a switch-in) */
	unsigned long lost_gaps;	/* losses of events on a CPU (sa_lost) ... */
	uint64_t lost_cpus[16];		/* ... and where: a bitmap of the first 1024 */
};

void sa_init(struct sa_analysis *a, uint64_t from, uint64_t to);
void sa_feed(struct sa_analysis *a, const struct sa_event *e);
/*
 * Events were lost on cpu just before ts: the slice running there ends at the CPU's
 * last event before the gap, and the CPU is idle from ts until an event shows a task.
 */
void sa_lost(struct sa_analysis *a, int cpu, uint64_t ts);
/* Closes every open interval at end (the last event's time or --to). */
void sa_finish(struct sa_analysis *a, uint64_t end);
void sa_free(struct sa_analysis *a);

struct sa_task *sa_task_find(const struct sa_analysis *a, int tid);

/* sched_why.c: charge ns to a cause; sort a process's causes, longest first. */
void sa_why_add(struct sa_proc *p, const struct sa_why *w);
void sa_why_sort(struct sa_proc *p);
bool sa_why_is_futex(long nr);
/* The syscall's name, or NULL; a cause as a phrase for people. */
const char *sa_why_syscall(long nr);
struct sa_analysis;
void sa_why_label(const struct sa_analysis *a, const struct sa_proc *p, const struct sa_why *w,
		  char *buf, size_t len);

/* Sums of a process's threads. */
struct sa_sum {
	int threads;
	uint64_t run_ns, wait_ns, sleep_ns, blocked_ns, max_wait_ns;
	unsigned long switches, involuntary, migrations;
	size_t nlat;
	uint64_t lat_avg, lat_p50, lat_p99, lat_max;
	double parallelism;		/* run time / wall time */
	uint64_t wall_ns;
	int ncpus;
};

void sa_sum_task(const struct sa_task *t, struct sa_sum *s);
void sa_sum_proc(const struct sa_analysis *a, const struct sa_proc *p, struct sa_sum *s);
/* Of those, what its forked children did before their exec (p->left). */
void sa_sum_left(const struct sa_proc *p, struct sa_sum *s);
/*
 * sched_check.c: run time from switches against the kernel's sched_stat_runtime sum,
 * for the tasks whose whole life (fork to exit) is in the window.
 */
struct sa_check {
	unsigned long with_runtime;	/* tasks with sched_stat_runtime events */
	unsigned long compared;		/* of those, whole life in the window */
	unsigned long disagree;		/* of those, off by more than 2% and 1 ms (kernel's clock) */
	unsigned long disagree_raw;	/* the same, switch to switch */
	int worst_tid, worst_raw_tid;	/* the farthest off in % (one outside the tolerance first), 0: none compared */
	double worst_pct, worst_raw_pct;	/* (like_ns or run_ns - kernel) / kernel */
	int64_t worst_ns, worst_raw_ns;
};
bool sa_task_checkable(const struct sa_task *t);
double sa_task_diff_pct(const struct sa_task *t);
double sa_task_like_diff_pct(const struct sa_task *t);
bool sa_task_agrees(const struct sa_task *t);
void sa_runtime_check(const struct sa_analysis *a, struct sa_check *c);

/* The window length in ns. */
uint64_t sa_window(const struct sa_analysis *a);

#endif
