/*
 * The scheduling state machine; see sched.h.
 *
 * Each task is in one state at a time (running, runnable, sleeping, blocked)
 * since a timestamp; every event that changes the state adds the elapsed time
 * to that state's sum, clipped to the window.  A task first seen being switched
 * out was running since its CPU's previous switch (or the window's start), so
 * the first slice is not lost (never from before its last record elsewhere).
 * Processes: the trace has no thread-group ids, so a task belongs to the
 * process of the task that forked it until it execs a program of its own
 * (threads and non-exec'd children count together; what a child did before its
 * exec stays with the process it leaves).
 */
#include "sched.h"

#include <stdlib.h>
#include <string.h>

#include "util/die.h"

static uint64_t span(const struct sa_analysis *a, uint64_t lo, uint64_t hi)
{
	if (lo < a->start)
		lo = a->start;
	if (hi > a->to)
		hi = a->to;
	return hi > lo ? hi - lo : 0;
}

/* [lo, hi) clipped to the window; false when nothing is left. */
static bool clip(const struct sa_analysis *a, uint64_t *lo, uint64_t *hi)
{
	if (*lo < a->start)
		*lo = a->start;
	if (*hi > a->to)
		*hi = a->to;
	return *hi > *lo;
}

static bool in_window(const struct sa_analysis *a, uint64_t ts)
{
	return ts >= a->start && ts <= a->to;
}

void sa_init(struct sa_analysis *a, uint64_t from, uint64_t to)
{
	memset(a, 0, sizeof(*a));
	a->from = from;
	a->to = to ? to : UINT64_MAX;
}

static void set_comm(char *dst, const char *src)
{
	if (!src || !*src)
		return;
	const char *slash = strrchr(src, '/');
	if (slash && slash[1])
		src = slash + 1;
	snprintf(dst, SA_COMM, "%s", src);
}

static struct sa_proc *proc_new(struct sa_analysis *a, int pid, const char *comm)
{
	struct sa_proc *p = xcalloc(1, sizeof(*p));
	p->pid = pid;
	set_comm(p->comm, comm);
	p->next = a->proc_list;
	a->proc_list = p;
	a->nprocs++;
	return p;
}

/* Before a process's running count changes: credit the histogram up to ts. */
static void proc_tick(struct sa_analysis *a, struct sa_proc *p, uint64_t ts)
{
	if (!p->active) {
		p->active = true;
		p->first_ts = ts < a->start ? a->start : ts;
		p->last_change = p->first_ts;
	}
	int k = p->running > SA_PAR_MAX ? SA_PAR_MAX : p->running;
	p->hist[k] += span(a, p->last_change, ts);
	if (ts > p->last_change)
		p->last_change = ts;
	if (ts > p->last_ts)
		p->last_ts = ts;
}

/*
 * A task first seen being switched out ran since before its process's first
 * activity: the process's wall time starts there, and that stretch had one
 * thread running (the earlier ones' overlap with later activity is not known).
 */
static void proc_backdate(struct sa_analysis *a, struct sa_proc *p, uint64_t since)
{
	if (since < a->start)
		since = a->start;
	if (!p->active) {
		proc_tick(a, p, since);
		return;
	}
	if (since >= p->first_ts)
		return;
	p->hist[p->running + 1 > SA_PAR_MAX ? SA_PAR_MAX : p->running + 1] += p->first_ts - since;
	p->first_ts = since;
}

static struct sa_task *task_get(struct sa_analysis *a, int tid, const char *comm)
{
	struct sa_task *t = tidmap_get(&a->tasks, tid);
	if (t) {
		/* Events carry the current comm: it changes at exec and with prctl(PR_SET_NAME). */
		if (comm && *comm && strncmp(t->comm, comm, SA_COMM - 1) != 0) {
			snprintf(t->comm, SA_COMM, "%s", comm);
			if (t->proc && t->proc->pid == tid)
				memcpy(t->proc->comm, t->comm, SA_COMM);
		}
		return t;
	}
	t = xcalloc(1, sizeof(*t));
	t->tid = tid;
	t->cpu = -1;
	t->ready_cpu = -1;
	t->seen_cpu = -1;
	t->sys_nr = SA_WHY_NOSYS;
	t->sleep_nr = SA_WHY_UNTRACED;
	set_comm(t->comm, comm);
	t->next = a->task_list;
	a->task_list = t;
	tidmap_put(&a->tasks, tid, t);
	return t;
}

/* A task seen before any fork: a process of its own. */
static void task_attach(struct sa_analysis *a, struct sa_task *t)
{
	if (t->proc)
		return;
	t->proc = proc_new(a, t->tid, t->comm);
	t->proc->nthreads++;
}

struct sa_task *sa_task_find(const struct sa_analysis *a, int tid)
{
	return tidmap_get(&a->tasks, tid);
}

static struct sa_cpu *cpu_get(struct sa_analysis *a, int cpu)
{
	if (cpu < 0)
		cpu = 0;
	if (cpu >= a->ncpus) {
		int n = cpu + 1;
		a->cpus = xrealloc(a->cpus, sizeof(*a->cpus) * (size_t)n);
		memset(a->cpus + a->ncpus, 0, sizeof(*a->cpus) * (size_t)(n - a->ncpus));
		a->ncpus = n;
	}
	return &a->cpus[cpu];
}

/* Close the task's current state at ts, adding its time to the right sum. */
static void task_account(struct sa_analysis *a, struct sa_task *t, uint64_t ts)
{
	uint64_t d = span(a, t->since, ts), lo = t->since, hi = ts;

	if (a->hooks && a->hooks->task_span && t->state >= SA_RUNNING && t->state <= SA_BLOCKED &&
	    clip(a, &lo, &hi))
		a->hooks->task_span(a->hooks->ctx, t->tid, t->state,
				    t->state == SA_RUNNING ? t->cpu : -1, lo, hi);
	if ((t->state == SA_SLEEP || t->state == SA_BLOCKED) && t->proc) {
		struct sa_why w = { .kind = SA_WHY_SLEEP, .nr = t->sleep_nr, .addr = t->sleep_addr,
				    .joined = t->sleep_joined, .ns = d };
		sa_why_add(t->proc, &w);
		if (sa_why_cause(&w) == SA_CAUSE_JOIN)
			t->join_ns += d;
	}
	switch (t->state) {
	case SA_RUNNING: t->run_ns += d; break;
	case SA_RUNNABLE: t->wait_ns += d; break;
	case SA_SLEEP: t->sleep_ns += d; break;
	case SA_BLOCKED: t->blocked_ns += d; break;
	default: break;
	}
	t->since = ts;
}

static void task_set_running(struct sa_analysis *a, struct sa_task *t, bool running, uint64_t ts)
{
	bool was = t->state == SA_RUNNING;
	if (was == running)
		return;
	proc_tick(a, t->proc, ts);
	t->proc->running += running ? 1 : -1;
	if (t->proc->running < 0)
		t->proc->running = 0;
}

/* pid ran on c over [lo, hi) (clipped to the window here). */
static void cpu_credit(struct sa_analysis *a, struct sa_cpu *c, int pid, uint64_t lo, uint64_t hi)
{
	if (pid <= 0 || !clip(a, &lo, &hi))
		return;
	uint64_t d = hi - lo;
	if (a->hooks && a->hooks->cpu_slice)
		a->hooks->cpu_slice(a->hooks->ctx, (int)(c - a->cpus), lo, hi, pid);
	c->busy_ns += d;
	uint64_t *ns = tidmap_get(&c->ran, pid);
	if (!ns) {
		ns = xcalloc(1, sizeof(*ns));
		tidmap_put(&c->ran, pid, ns);
	}
	*ns += d;
}

static void keep_latency(struct sa_proc *p, const struct sa_lat *l)
{
	int i;

	if (p->ntop < SA_TOP)
		i = p->ntop++;
	else if (p->top[SA_TOP - 1].ns < l->ns)
		i = SA_TOP - 1;
	else
		return;
	p->top[i] = *l;
	for (; i > 0 && p->top[i - 1].ns < p->top[i].ns; i--) {
		struct sa_lat tmp = p->top[i - 1];
		p->top[i - 1] = p->top[i];
		p->top[i] = tmp;
	}
}

/*
 * pthread_join (and C11 thrd_join) wait on the thread's tid word, which holds the
 * tid until the kernel clears it at the thread's exit: a futex wait expecting a
 * value that is the tid of another task in the trace is a wait for that task.
 */
static int joined_tid(const struct sa_analysis *a, const struct sa_task *t)
{
	uint64_t v = t->sys_arg3;
	if (v == 0 || v > 0x7fffffff || (int)v == t->tid)
		return 0;
	const struct sa_task *o = sa_task_find(a, (int)v);
	return o && o->proc == t->proc ? (int)v : 0;
}

static void switch_out(struct sa_analysis *a, struct sa_cpu *c, struct sa_task *t,
		       const struct sa_event *e)
{
	if (t->state == SA_RUNNING && t->cpu != e->cpu && t->cpu >= 0) {
		/* Already switched in elsewhere: this CPU's switch-out came late, nothing to close. */
		if (in_window(a, e->ts))
			t->switches++;
		return;
	}
	if (t->state != SA_RUNNING && t->state != SA_UNKNOWN) {
		/*
		 * Its switch-in is not in the trace although we knew its state: events
		 * were lost (counted or not).  When it started is unknown: no run time.
		 */
		a->gaps++;
		t->since = e->ts;
	} else if (t->state != SA_RUNNING || t->cpu != e->cpu) {
		/*
		 * First seen here: it ran since the CPU's last switch, or the start --
		 * but not before it was last seen elsewhere or its last known state
		 * ended (a thread is on one CPU at a time: its spans never overlap).
		 */
		uint64_t since = c->seen ? c->since : a->start;
		uint64_t elsewhere = t->seen_cpu == e->cpu ? t->other_ts : t->seen_ts;
		if (elsewhere > since)
			since = elsewhere;
		if (t->since > since)
			since = t->since;
		if (since > e->ts)
			since = e->ts;
		t->state = SA_RUNNING;
		t->since = since;
		proc_backdate(a, t->proc, t->since);
		proc_tick(a, t->proc, t->since);	/* the others' count up to its start */
		t->proc->running++;	/* task_set_running() below takes it back */
	}
	task_account(a, t, e->ts);
	if (in_window(a, e->ts))
		t->switches++;
	long st = e->state & SA_STATE_MASK;
	enum sa_state next;
	if (st == 0)
		next = SA_RUNNABLE;
	else if (st & SA_STATE_BLOCKED)
		next = SA_BLOCKED;
	else if (st & SA_STATE_DEAD)
		next = SA_GONE;
	else
		next = SA_SLEEP;
	if (next == SA_GONE && in_window(a, e->ts))
		t->died = true;
	if (next == SA_RUNNABLE && in_window(a, e->ts))
		t->involuntary++;
	if (next == SA_RUNNABLE) {
		t->ready_cpu = e->cpu;
		t->ready_ts = e->ts;
	}
	if (t->state == SA_RUNNING)
		task_set_running(a, t, false, e->ts);
	t->state = next;
	t->woken = false;
	if (next == SA_SLEEP || next == SA_BLOCKED) {
		t->sleep_nr = a->syscalls ? t->sys_nr : SA_WHY_UNTRACED;
		t->sleep_addr = sa_why_is_futex(t->sys_nr) ? t->sys_arg : 0;
		t->sleep_joined = t->sleep_addr ? joined_tid(a, t) : 0;
	}
}

static void record_latency(struct sa_analysis *a, struct sa_task *t, const struct sa_event *e,
			   uint64_t ns)
{
	if (t->nlat == t->caplat) {
		t->caplat = t->caplat ? t->caplat * 2 : 16;
		t->lat = xrealloc(t->lat, t->caplat * sizeof(*t->lat));
	}
	t->lat[t->nlat++] = ns;
	struct sa_lat l = { .ns = ns, .ts = e->ts, .pid = t->tid, .cpu = e->cpu, .holder = e->pid };
	struct sa_task *h = e->pid ? sa_task_find(a, e->pid) : NULL;
	snprintf(l.holder_comm, SA_COMM, "%s", e->pid ? (h ? h->comm : "?") : "<idle>");
	keep_latency(t->proc, &l);
}

/*
 * A runnable wait [t->since, ts] ending on CPU c: each task that ran on c
 * meanwhile (the CPU's last SA_HIST slices, newest first) is charged its overlap; what
 * the kept slices do not reach back to is charged to "older" (-1).
 */
static void charge_wait(struct sa_analysis *a, struct sa_cpu *c, struct sa_task *t, uint64_t ts)
{
	uint64_t lo = t->since, left = span(a, lo, ts);
	for (int k = 0; k < c->nhist && left; k++) {
		const struct sa_slice *s = &c->hist[(c->head - 1 - k + SA_HIST) % SA_HIST];
		if (s->end <= lo)
			break;
		if (s->pid == t->tid)
			continue;	/* it did not hold the CPU while it waited for it */
		uint64_t d = span(a, s->start > lo ? s->start : lo, s->end < ts ? s->end : ts);
		if (d > left)
			d = left;
		struct sa_why w = { .kind = SA_WHY_WAIT, .holder = s->pid, .ns = d };
		sa_why_add(t->proc, &w);
		left -= d;
	}
	struct sa_why rest = { .kind = SA_WHY_WAIT, .holder = -1, .ns = left };
	sa_why_add(t->proc, &rest);
}

static void switch_in(struct sa_analysis *a, struct sa_task *t, const struct sa_event *e)
{
	if (t->state == SA_RUNNABLE) {
		charge_wait(a, cpu_get(a, e->cpu), t, e->ts);
		uint64_t w = e->ts - t->since;
		if (in_window(a, e->ts) && t->since >= a->start) {
			if (w > t->max_wait_ns)
				t->max_wait_ns = w;
			if (t->woken)
				record_latency(a, t, e, w);
		}
	}
	task_account(a, t, e->ts);
	if (t->cpu >= 0 && t->cpu != e->cpu && !a->nevents[SA_MIGRATE] && in_window(a, e->ts))
		t->migrations++;	/* no migrate events: count the CPU changes we see */
	t->cpu = e->cpu;
	if (e->cpu >= 0 && e->cpu < 1024)
		t->cpus[e->cpu / 64] |= 1ull << (e->cpu % 64);
	task_set_running(a, t, true, e->ts);
	t->state = SA_RUNNING;
	t->woken = false;
}

static void on_switch(struct sa_analysis *a, const struct sa_event *e);

/* The CPU's slice [start, end) of pid, kept to share later waits among their holders. */
static void cpu_keep(struct sa_cpu *c, uint64_t start, uint64_t end, int pid)
{
	c->hist[c->head] = (struct sa_slice){ .start = start, .end = end, .pid = pid };
	c->head = (c->head + 1) % SA_HIST;
	if (c->nhist < SA_HIST)
		c->nhist++;
}

/*
 * The slice that ends on c at ts, on the kernel's clock (see sched_check.c):
 * the scheduler's clock is not read again at every switch.  A wakeup that
 * preempts the running task makes the next switch skip the clock update
 * (rq_clock_skip_update), so prev's time ends at the clock's last update -- its
 * last sched_stat_runtime -- and next's starts there; after idle, next's time
 * starts at its wakeup.  That is the kernel's count, slice by slice.
 */
static void kernel_clock_switch(struct sa_analysis *a, struct sa_cpu *c, int prev, int next,
				uint64_t ts)
{
	uint64_t end = ts;

	if (prev > 0) {
		if (c->k_last > c->k_start && c->k_last <= ts)
			end = c->k_last;
		struct sa_task *p = sa_task_find(a, prev);
		if (p)
			p->like_ns += span(a, c->k_start, end);
	}
	c->k_start = end;
	if (prev <= 0 && next > 0 && c->wake_pid == next && c->wake_ts >= c->since &&
	    c->wake_ts <= ts)
		c->k_start = c->wake_ts;
	c->k_last = 0;
}

/*
 * Some kernels (this one under a VM, seen with trace-cmd too) also leave out a
 * task's switch-out: it is switched in and never out while other tasks' events
 * and switches follow on its CPU.  It cannot have run past the first sign that
 * another task (or idle) ran there, so its slice ends at that sign; what it did
 * next is unknown until its next event (no run, wait or sleep is made up).
 */
static void missed_switch_out(struct sa_analysis *a, int cpu, uint64_t ts)
{
	struct sa_cpu *c = cpu_get(a, cpu);
	struct sa_task *t = sa_task_find(a, c->curr);

	kernel_clock_switch(a, c, c->curr, 0, ts);

	cpu_credit(a, c, c->curr, c->since, ts);
	cpu_keep(c, c->since, ts, c->curr);
	if (t && t->state == SA_RUNNING && t->cpu == cpu) {
		task_account(a, t, ts);
		task_set_running(a, t, false, ts);
		t->state = SA_UNKNOWN;
		t->woken = false;
	}
	c->curr = 0;
	c->since = ts;
	a->missed_out++;
	if (cpu >= 0 && cpu < 1024)
		a->missed_out_cpus[cpu / 64] |= 1ull << (cpu % 64);
}

/*
 * Some kernels record no sched_switch when a CPU leaves its idle task (seen on
 * virtual machines; perf sees the same gap).  The task then shows up on a CPU
 * we know idle, being switched out or recording an event, with no switch-in.
 * An idle CPU runs a task as soon as it becomes runnable there, so when we saw
 * that (wakeup, preemption, migration to this CPU) the switch-in is put there;
 * otherwise it is put at the event that shows the task, and the run time
 * before it is unknown (counted, and said).
 */
static void infer_switch_in(struct sa_analysis *a, const struct sa_event *e, int pid,
			    const char *comm)
{
	struct sa_cpu *c = cpu_get(a, e->cpu);
	if ((c->seen && c->curr != 0) || pid <= 0)
		return;
	struct sa_task *t = task_get(a, pid, comm);
	task_attach(a, t);
	if (t->state == SA_RUNNING && t->cpu >= 0 && t->cpu != e->cpu)
		return;		/* its switch-out elsewhere is missing too: switch_out() copes */
	if (!c->seen && t->state == SA_UNKNOWN)
		return;		/* running since the start, for all we know: switch_out() says so */
	uint64_t at = e->ts;
	if (t->state == SA_RUNNABLE && t->ready_cpu == e->cpu && t->ready_ts <= e->ts) {
		/* No switch seen on the CPU yet: it was idle too, or the switch would be here. */
		at = c->seen && c->since > t->ready_ts ? c->since : t->ready_ts;
	} else {
		a->inferred_late++;
		task_account(a, t, at);
		if (t->state == SA_RUNNABLE)	/* how long it waited is not known */
			t->state = SA_UNKNOWN;
	}
	a->inferred++;
	if (e->cpu >= 0 && e->cpu < 1024)
		a->inferred_cpus[e->cpu / 64] |= 1ull << (e->cpu % 64);
	t->woken = false;	/* its wakeup latency is not known */
	struct sa_event sw = { .kind = SA_SWITCH, .ts = at, .cpu = e->cpu, .pid2 = pid,
			       .comm2 = t->comm };
	on_switch(a, &sw);
}

static void on_switch(struct sa_analysis *a, const struct sa_event *e)
{
	struct sa_cpu *c = cpu_get(a, e->cpu);
	if (c->seen && c->curr > 0 && e->pid != c->curr)
		missed_switch_out(a, e->cpu, e->ts);
	if (e->pid > 0 && (!c->seen || c->curr == 0))
		infer_switch_in(a, e, e->pid, e->comm);
	uint64_t from = c->seen ? c->since : a->start;

	if (!c->seen)
		c->k_start = from;
	kernel_clock_switch(a, c, e->pid, e->pid2, e->ts);
	cpu_credit(a, c, e->pid, from, e->ts);
	cpu_keep(c, from, e->ts, e->pid);
	if (in_window(a, e->ts))
		c->switches++;
	if (e->pid) {
		struct sa_task *prev = task_get(a, e->pid, e->comm);
		task_attach(a, prev);
		switch_out(a, c, prev, e);
	}
	if (e->pid2) {
		struct sa_task *next = task_get(a, e->pid2, e->comm2);
		task_attach(a, next);
		switch_in(a, next, e);
	}
	c->seen = true;
	c->curr = e->pid2;
	c->since = e->ts;
	c->tail = e->pid != e->pid2 ? e->pid : -1;
}

const char *sa_waker_name(enum sa_waker_kind k)
{
	static const char *const names[SA_WK_N] = { "task", "timer", "hardirq", "softirq", "idle" };
	return k < SA_WK_N ? names[k] : "?";
}

/* Count who woke t: a task by its pid, the other kinds as one entry each. */
static void count_waker(struct sa_task *t, const struct sa_event *e)
{
	enum sa_waker_kind k = (enum sa_waker_kind)(e->waker - 1);
	int pid = k == SA_WK_TASK ? e->cur : 0;

	for (size_t i = 0; i < t->nwakers; i++) {
		if (t->wakers[i].kind == k && t->wakers[i].pid == pid) {
			t->wakers[i].count++;
			return;
		}
	}
	t->wakers = xrealloc(t->wakers, (t->nwakers + 1) * sizeof(*t->wakers));
	t->wakers[t->nwakers++] = (struct sa_waker){ .kind = k, .pid = pid, .count = 1 };
}

static void on_wakeup(struct sa_analysis *a, const struct sa_event *e)
{
	if (!e->pid)
		return;
	struct sa_task *t = task_get(a, e->pid, e->comm);
	task_attach(a, t);
	if (t->state == SA_RUNNING || t->state == SA_RUNNABLE)
		return;
	if (e->waker > 0 && e->waker <= SA_WK_N && in_window(a, e->ts))
		count_waker(t, e);
	task_account(a, t, e->ts);
	t->state = SA_RUNNABLE;
	t->woken = true;
	t->since = e->ts;
	t->ready_cpu = e->cpu2;
	t->ready_ts = e->ts;
	if (!t->proc->active)
		proc_tick(a, t->proc, e->ts);
}

static void on_fork(struct sa_analysis *a, const struct sa_event *e)
{
	struct sa_task *parent = task_get(a, e->pid, e->comm);
	task_attach(a, parent);
	struct sa_task *child = task_get(a, e->pid2, e->comm2);
	if (in_window(a, e->ts) && child->state == SA_UNKNOWN && !child->run_ns)
		child->born = true;
	if (child->proc)
		return;		/* seen before its fork event: keep what we have */
	child->proc = parent->proc;
	child->proc->nthreads++;
}

static void add_cpus(uint64_t *dst, const uint64_t *src)
{
	for (int i = 0; i < 16; i++)
		dst[i] |= src[i];
}

/*
 * The task's figures so far stay with the process it leaves at its exec (its
 * causes were charged there already); from here on it counts in its own.
 */
static void leave_process(struct sa_task *t, struct sa_proc *p)
{
	struct sa_left *l = &p->left;

	l->tasks++;
	l->run_ns += t->run_ns;
	l->wait_ns += t->wait_ns;
	l->sleep_ns += t->sleep_ns;
	l->blocked_ns += t->blocked_ns;
	l->join_ns += t->join_ns;
	if (t->max_wait_ns > l->max_wait_ns)
		l->max_wait_ns = t->max_wait_ns;
	l->switches += t->switches;
	l->involuntary += t->involuntary;
	l->migrations += t->migrations;
	add_cpus(l->cpus, t->cpus);
	if (t->nlat) {
		l->lat = xrealloc(l->lat, (l->nlat + t->nlat) * sizeof(*l->lat));
		memcpy(l->lat + l->nlat, t->lat, t->nlat * sizeof(*l->lat));
		l->nlat += t->nlat;
	}
	t->exec_run_ns += t->run_ns;
	t->run_ns = t->wait_ns = t->sleep_ns = t->blocked_ns = t->join_ns = t->max_wait_ns = 0;
	t->switches = t->involuntary = t->migrations = 0;
	t->nlat = 0;
	memset(t->cpus, 0, sizeof(t->cpus));
	if (t->state == SA_RUNNING && t->cpu >= 0 && t->cpu < 1024)
		t->cpus[t->cpu / 64] |= 1ull << (t->cpu % 64);
}

/* A new program: the task leaves its parent's process and starts its own. */
static void on_exec(struct sa_analysis *a, const struct sa_event *e)
{
	struct sa_task *t = task_get(a, e->pid, NULL);
	task_attach(a, t);
	set_comm(t->comm, e->comm);
	if (t->proc->pid == t->tid) {
		set_comm(t->proc->comm, e->comm);
		return;
	}
	bool running = t->state == SA_RUNNING;
	task_account(a, t, e->ts);
	leave_process(t, t->proc);
	if (running)
		task_set_running(a, t, false, e->ts);
	t->proc->nthreads--;
	t->state = running ? SA_UNKNOWN : t->state;
	struct sa_proc *parent = t->proc;
	t->proc = proc_new(a, t->tid, e->comm);
	t->proc->parent = parent;
	t->proc->nthreads++;
	if (running) {
		task_set_running(a, t, true, e->ts);
		t->state = SA_RUNNING;
	}
}

/* pid was on cpu at ts (the records' current task, its switches, its runtime chunks). */
static void task_seen(struct sa_analysis *a, int pid, int cpu, uint64_t ts)
{
	struct sa_task *t = pid > 0 ? sa_task_find(a, pid) : NULL;

	if (!t || ts < t->seen_ts)
		return;
	if (cpu != t->seen_cpu) {
		t->other_ts = t->seen_ts;
		t->seen_cpu = cpu;
	}
	t->seen_ts = ts;
}

/*
 * sched_switch is recorded inside __schedule() before the CPU changes tasks, so
 * records made after it by the rest of the switch (function_graph's returns
 * from the tracepoint, finish_task_switch's callees on some kernels) still name
 * prev as the current task.  They are the switch's tail, not a sign that prev
 * ran again (or that next, or idle, left the CPU): the tail lasts until the
 * first record of another task there, or until prev is woken (after that, a
 * record of it means its switch-in was lost).
 */
static bool switch_tail(struct sa_analysis *a, const struct sa_event *e)
{
	struct sa_cpu *c = cpu_get(a, e->cpu);

	if (!c->seen || c->tail < 0)
		return false;
	const struct sa_task *t = e->cur > 0 ? sa_task_find(a, e->cur) : NULL;
	bool woken = t && t->state == SA_RUNNABLE && t->woken && t->ready_ts >= c->since;
	if (e->cur == c->tail && e->cur != c->curr && !woken) {
		a->tail_records++;
		return true;
	}
	c->tail = -1;
	return false;
}

/*
 * A ring buffer that overflowed leaves a gap in its CPU's events: whatever ran and
 * switched there meanwhile is unknown.  The running task is not drawn across the
 * gap to the next switch: its slice ends at the CPU's last event, its state is
 * unknown from there, and the CPU starts again at ts as if idle, so the next task
 * seen there is inferred running from ts at the earliest (infer_switch_in).
 */
void sa_lost(struct sa_analysis *a, int cpu, uint64_t ts)
{
	if (!a->started)
		return;		/* nothing known yet: nothing to cut */
	struct sa_cpu *c = cpu_get(a, cpu);
	uint64_t end = c->last_ts > c->since ? c->last_ts : c->since;

	if (end > ts)
		end = ts;
	a->lost_gaps++;
	if (cpu >= 0 && cpu < 1024)
		a->lost_cpus[cpu / 64] |= 1ull << (cpu % 64);
	if (c->seen && c->curr > 0) {
		struct sa_task *t = sa_task_find(a, c->curr);
		kernel_clock_switch(a, c, c->curr, 0, end);
		cpu_credit(a, c, c->curr, c->since, end);
		cpu_keep(c, c->since, end, c->curr);
		if (t && t->state == SA_RUNNING && t->cpu == cpu) {
			task_account(a, t, end);
			task_set_running(a, t, false, end);
			t->state = SA_UNKNOWN;
			t->woken = false;
		}
	}
	c->seen = true;
	c->curr = 0;
	c->since = ts;
	c->tail = -1;
	c->k_start = ts;
	c->k_last = 0;
}

void sa_feed(struct sa_analysis *a, const struct sa_event *e)
{
	if (!a->started) {
		a->started = true;
		a->start = e->ts > a->from ? e->ts : a->from;
		a->first_ts = e->ts;
	}
	if (e->ts > a->last_ts)
		a->last_ts = e->ts;
	cpu_get(a, e->cpu)->last_ts = e->ts;
	if (e->ts > a->end)
		a->end = e->ts;
	if (e->kind >= SA_NKINDS)
		return;
	if (in_window(a, e->ts))
		a->nevents[e->kind]++;
	if (e->kind == SA_SWITCH)
		a->switches_read++;
	if (e->kind != SA_SWITCH && e->has_cur && !switch_tail(a, e)) {
		struct sa_cpu *c = cpu_get(a, e->cpu);
		if (c->seen && c->curr > 0 && e->cur != c->curr)
			missed_switch_out(a, e->cpu, e->ts);
		if (e->cur > 0)
			infer_switch_in(a, e, e->cur, NULL);
	}
	if (e->kind != SA_SWITCH && e->has_cur && e->cur > 0)
		task_seen(a, e->cur, e->cpu, e->ts);
	switch (e->kind) {
	case SA_SWITCH:
		on_switch(a, e);
		task_seen(a, e->pid, e->cpu, e->ts);
		task_seen(a, e->pid2, e->cpu, e->ts);
		break;
	case SA_WAKEUP: {
		struct sa_cpu *c = cpu_get(a, e->cpu2);
		c->wake_pid = e->pid;
		c->wake_ts = e->ts;
		on_wakeup(a, e);
		break;
	}
	case SA_WAKEUP_NEW: {
		struct sa_task *t = task_get(a, e->pid, e->comm);
		if (in_window(a, e->ts) && t->state == SA_UNKNOWN && !t->run_ns)
			t->born = true;
		struct sa_cpu *c = cpu_get(a, e->cpu2);
		c->wake_pid = e->pid;
		c->wake_ts = e->ts;
		on_wakeup(a, e);
		break;
	}
	case SA_RUNTIME: {
		struct sa_task *t = task_get(a, e->pid, e->comm);
		task_attach(a, t);
		if (in_window(a, e->ts)) {
			t->kernel_ns += e->arg;
			t->kernel_chunks++;
		}
		struct sa_cpu *c = cpu_get(a, e->cpu);
		if (c->seen && c->curr == e->pid)
			c->k_last = e->ts;
		/* Not a sign of where pid ran (task_seen): the scheduler updates remote tasks too. */
		break;
	}
	case SA_MIGRATE: {
		struct sa_task *t = task_get(a, e->pid, e->comm);
		task_attach(a, t);
		if (in_window(a, e->ts) && t->cpu != e->cpu2)
			t->migrations++;
		if (t->state != SA_RUNNING) {
			t->ready_cpu = e->cpu2;
			t->ready_ts = e->ts;
		}
		break;
	}
	case SA_FORK: on_fork(a, e); break;
	case SA_EXEC: on_exec(a, e); break;
	case SA_SYS_ENTER:
	case SA_SYS_EXIT: {
		struct sa_task *t = task_get(a, e->pid, NULL);
		task_attach(a, t);
		t->sys_nr = e->kind == SA_SYS_ENTER ? e->state : SA_WHY_NOSYS;
		t->sys_arg = e->arg;
		t->sys_arg3 = e->arg3;
		a->syscalls = true;
		break;
	}
	case SA_EXIT:
		if (e->pid > 0 && in_window(a, e->ts))
			task_get(a, e->pid, NULL)->died = true;
		break;
	case SA_RUNS:
	case SA_NKINDS: break;
	}
}

void sa_finish(struct sa_analysis *a, uint64_t end)
{
	if (end > a->to)
		end = a->to;
	if (!a->started)
		a->start = end;
	a->end = end;
	for (struct sa_task *t = a->task_list; t; t = t->next) {
		if (t->state == SA_RUNNING)
			proc_tick(a, t->proc, end);
		task_account(a, t, end);
	}
	for (int i = 0; i < a->ncpus; i++) {
		struct sa_cpu *c = &a->cpus[i];
		if (c->seen) {
			cpu_credit(a, c, c->curr, c->since, end);
			c->k_last = 0;	/* still running: its last chunk is not written yet */
			kernel_clock_switch(a, c, c->curr, 0, end);
		}
	}
	for (struct sa_proc *p = a->proc_list; p; p = p->next)
		if (p->active && p->running)
			p->last_ts = end;
}

void sa_free(struct sa_analysis *a)
{
	for (struct sa_task *t = a->task_list, *n; t; t = n) {
		n = t->next;
		free(t->lat);
		free(t->wakers);
		free(t);
	}
	for (struct sa_proc *p = a->proc_list, *n; p; p = n) {
		n = p->next;
		free(p->why);
		free(p->left.lat);
		free(p);
	}
	for (int i = 0; i < a->ncpus; i++) {
		tidmap_foreach(&a->cpus[i].ran, s)
			free(s->val);
		tidmap_free(&a->cpus[i].ran);
	}
	free(a->cpus);
	tidmap_free(&a->tasks);
	memset(a, 0, sizeof(*a));
}

uint64_t sa_window(const struct sa_analysis *a)
{
	return a->end > a->start ? a->end - a->start : 0;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

/* Nearest rank: the smallest sample with at least p of them at or below it. */
static uint64_t pct(const uint64_t *v, size_t n, unsigned p)
{
	size_t rank = (n * p + 99) / 100;
	return v[rank ? rank - 1 : 0];
}

static void add_lats(struct sa_sum *s, uint64_t *v, size_t n)
{
	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_u64);
	uint64_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += v[i];
	s->nlat = n;
	s->lat_avg = total / n;
	s->lat_p50 = pct(v, n, 50);
	s->lat_p99 = pct(v, n, 99);
	s->lat_max = v[n - 1];
}

static void add_task(struct sa_sum *s, const struct sa_task *t, uint64_t *cpus)
{
	s->threads++;
	s->run_ns += t->run_ns;
	s->wait_ns += t->wait_ns;
	s->sleep_ns += t->sleep_ns;
	s->blocked_ns += t->blocked_ns;
	if (t->max_wait_ns > s->max_wait_ns)
		s->max_wait_ns = t->max_wait_ns;
	s->switches += t->switches;
	s->involuntary += t->involuntary;
	s->migrations += t->migrations;
	for (int i = 0; i < 16; i++)
		cpus[i] |= t->cpus[i];
}

static int popcount(const uint64_t *cpus)
{
	int n = 0;
	for (int i = 0; i < 16; i++)
		n += __builtin_popcountll(cpus[i]);
	return n;
}

void sa_sum_task(const struct sa_task *t, struct sa_sum *s)
{
	uint64_t cpus[16] = { 0 };

	memset(s, 0, sizeof(*s));
	add_task(s, t, cpus);
	s->ncpus = popcount(cpus);
	uint64_t *v = xmalloc((t->nlat ? t->nlat : 1) * sizeof(*v));
	if (t->nlat)
		memcpy(v, t->lat, t->nlat * sizeof(*v));
	add_lats(s, v, t->nlat);
	free(v);
	s->wall_ns = t->run_ns + t->wait_ns + t->sleep_ns + t->blocked_ns;
	s->parallelism = s->wall_ns ? (double)t->run_ns / (double)s->wall_ns : 0;
}

void sa_sum_left(const struct sa_proc *p, struct sa_sum *s)
{
	const struct sa_left *l = &p->left;

	memset(s, 0, sizeof(*s));
	s->threads = l->tasks;
	s->run_ns = l->run_ns;
	s->wait_ns = l->wait_ns;
	s->sleep_ns = l->sleep_ns;
	s->blocked_ns = l->blocked_ns;
	s->max_wait_ns = l->max_wait_ns;
	s->switches = l->switches;
	s->involuntary = l->involuntary;
	s->migrations = l->migrations;
	s->ncpus = popcount(l->cpus);
	uint64_t *v = xmalloc((l->nlat ? l->nlat : 1) * sizeof(*v));
	if (l->nlat)
		memcpy(v, l->lat, l->nlat * sizeof(*v));
	add_lats(s, v, l->nlat);
	free(v);
	s->wall_ns = s->run_ns + s->wait_ns + s->sleep_ns + s->blocked_ns;
}

void sa_sum_proc(const struct sa_analysis *a, const struct sa_proc *p, struct sa_sum *s)
{
	uint64_t cpus[16] = { 0 };
	size_t n = 0;

	memset(s, 0, sizeof(*s));
	for (const struct sa_task *t = a->task_list; t; t = t->next)
		if (t->proc == p) {
			add_task(s, t, cpus);
			n += t->nlat;
		}
	const struct sa_left *l = &p->left;
	s->threads += l->tasks;
	s->run_ns += l->run_ns;
	s->wait_ns += l->wait_ns;
	s->sleep_ns += l->sleep_ns;
	s->blocked_ns += l->blocked_ns;
	if (l->max_wait_ns > s->max_wait_ns)
		s->max_wait_ns = l->max_wait_ns;
	s->switches += l->switches;
	s->involuntary += l->involuntary;
	s->migrations += l->migrations;
	add_cpus(cpus, l->cpus);
	n += l->nlat;
	s->ncpus = popcount(cpus);
	uint64_t *v = xmalloc((n ? n : 1) * sizeof(*v));
	size_t k = 0;
	if (l->nlat) {
		memcpy(v, l->lat, l->nlat * sizeof(*v));
		k = l->nlat;
	}
	for (const struct sa_task *t = a->task_list; t; t = t->next)
		if (t->proc == p && t->nlat) {
			memcpy(v + k, t->lat, t->nlat * sizeof(*v));
			k += t->nlat;
		}
	add_lats(s, v, n);
	free(v);
	s->wall_ns = p->active && p->last_ts > p->first_ts ? p->last_ts - p->first_ts : 0;
	s->parallelism = s->wall_ns ? (double)s->run_ns / (double)s->wall_ns : 0;
}
