/*
 * The scheduling state machine on hand-built event streams whose answers are
 * worked out in the comments.
 */
#include <stdint.h>
#include <string.h>

#include "analysis/sched.h"
#include "tk_test.h"

#define R 0		/* prev_state: still runnable (yield) */
#define RP 0x100	/* prev_state: preempted ("R+") */
#define S 1
#define D 2

static void sw(struct sa_analysis *a, uint64_t ts, int cpu, int prev, long state, int next)
{
	struct sa_event e = { .kind = SA_SWITCH, .ts = ts, .cpu = cpu, .pid = prev, .pid2 = next,
			      .state = state, .comm = "app", .comm2 = "app" };
	sa_feed(a, &e);
}

static void ev(struct sa_analysis *a, enum sa_kind k, uint64_t ts, int cpu, int pid, int pid2)
{
	struct sa_event e = { .kind = k, .ts = ts, .cpu = cpu, .pid = pid, .pid2 = pid2,
			      .cpu2 = pid2, .comm = "app", .comm2 = "app" };
	sa_feed(a, &e);
}

/*
 * One CPU, two threads of process 100:
 *   1000  idle -> 100            100 runs
 *   2000  100 forks 101, 101 woken (new)
 *   5000  100 preempted -> 101   100 ran 4000; 101 waited 3000 (a wakeup latency)
 *   9000  101 sleeps -> 100      101 ran 4000; 100 waited 4000 (after a preemption)
 *  10000  101 woken              101 slept 1000
 *  12000  100 blocks (D) -> 101  100 ran 3000; 101 waited 2000 (a wakeup latency)
 *  13000  101 sleeps -> idle     101 ran 1000
 *  15000  end                    100 blocked 3000, 101 slept 2000
 */
static void feed_two_threads(struct sa_analysis *a)
{
	sw(a, 1000, 0, 0, R, 100);
	ev(a, SA_FORK, 2000, 0, 100, 101);
	ev(a, SA_WAKEUP_NEW, 2000, 0, 101, 0);
	sw(a, 5000, 0, 100, RP, 101);
	sw(a, 9000, 0, 101, S, 100);
	ev(a, SA_WAKEUP, 10000, 0, 101, 0);
	sw(a, 12000, 0, 100, D, 101);
	sw(a, 13000, 0, 101, S, 0);
	sa_finish(a, 15000);
}

static void test_task_states_sum_to_known_times(void)
{
	struct sa_analysis a;
	sa_init(&a, 0, 0);
	feed_two_threads(&a);
	struct sa_task *t = sa_task_find(&a, 100);
	CHECK(t != NULL);
	CHECK_INT(t->run_ns, 7000);
	CHECK_INT(t->wait_ns, 4000);
	CHECK_INT(t->sleep_ns, 0);
	CHECK_INT(t->blocked_ns, 3000);
	CHECK_INT(t->switches, 2);
	CHECK_INT(t->involuntary, 1);
	CHECK_INT(t->max_wait_ns, 4000);
	CHECK_INT(t->nlat, 0);
	t = sa_task_find(&a, 101);
	CHECK_INT(t->run_ns, 5000);
	CHECK_INT(t->wait_ns, 5000);
	CHECK_INT(t->sleep_ns, 3000);
	CHECK_INT(t->blocked_ns, 0);
	CHECK_INT(t->switches, 2);
	CHECK_INT(t->involuntary, 0);
	CHECK_INT(t->max_wait_ns, 3000);
	sa_free(&a);
}

static void test_wakeup_latency_percentiles(void)
{
	struct sa_analysis a;
	struct sa_sum s;
	sa_init(&a, 0, 0);
	feed_two_threads(&a);
	sa_sum_task(sa_task_find(&a, 101), &s);
	CHECK_INT(s.nlat, 2);
	CHECK_INT(s.lat_avg, 2500);
	CHECK_INT(s.lat_p50, 2000);
	CHECK_INT(s.lat_p99, 3000);
	CHECK_INT(s.lat_max, 3000);
	sa_free(&a);
}

static void test_process_sums_threads_and_parallelism_is_one(void)
{
	struct sa_analysis a;
	struct sa_sum s;
	sa_init(&a, 0, 0);
	feed_two_threads(&a);
	struct sa_proc *p = sa_task_find(&a, 101)->proc;
	CHECK(p == sa_task_find(&a, 100)->proc);
	CHECK_INT(p->pid, 100);
	sa_sum_proc(&a, p, &s);
	CHECK_INT(s.threads, 2);
	CHECK_INT(s.run_ns, 12000);
	CHECK_INT(s.wait_ns, 9000);
	CHECK_INT(s.switches, 4);
	CHECK_INT(s.involuntary, 1);
	CHECK_INT(s.max_wait_ns, 4000);
	CHECK_INT(s.nlat, 2);
	CHECK_INT(s.wall_ns, 12000);		/* 1000 .. 13000 */
	CHECK(s.parallelism > 0.999 && s.parallelism < 1.001);
	CHECK_INT(p->hist[0], 0);
	CHECK_INT(p->hist[1], 12000);
	CHECK_INT(p->hist[2], 0);
	sa_free(&a);
}

static void test_longest_latency_names_the_cpu_holder(void)
{
	struct sa_analysis a;
	sa_init(&a, 0, 0);
	feed_two_threads(&a);
	struct sa_proc *p = sa_task_find(&a, 100)->proc;
	CHECK_INT(p->ntop, 2);
	CHECK_INT(p->top[0].ns, 3000);
	CHECK_INT(p->top[0].holder, 100);
	CHECK_INT(p->top[0].ts, 5000);
	CHECK_INT(p->top[1].ns, 2000);
	CHECK_INT(p->top[1].holder, 100);
	sa_free(&a);
}

static void test_cpu_busy_time(void)
{
	struct sa_analysis a;
	sa_init(&a, 0, 0);
	feed_two_threads(&a);
	CHECK_INT(a.ncpus, 1);
	CHECK_INT(a.cpus[0].busy_ns, 12000);
	CHECK_INT(a.cpus[0].switches, 5);
	CHECK_INT(sa_window(&a), 14000);	/* 1000 .. 15000 */
	CHECK_INT(*(uint64_t *)tidmap_get(&a.cpus[0].ran, 100), 7000);
	CHECK_INT(*(uint64_t *)tidmap_get(&a.cpus[0].ran, 101), 5000);
	sa_free(&a);
}

/* The same stream cut to 2000 .. 10000: times clipped, counts only inside. */
static void test_window_clips_times_and_counts(void)
{
	struct sa_analysis a;
	sa_init(&a, 2000, 10000);
	sw(&a, 1000, 0, 0, R, 100);
	ev(&a, SA_FORK, 2000, 0, 100, 101);
	ev(&a, SA_WAKEUP_NEW, 2000, 0, 101, 0);
	sw(&a, 5000, 0, 100, RP, 101);
	sw(&a, 9000, 0, 101, S, 100);
	ev(&a, SA_WAKEUP, 10000, 0, 101, 0);
	sa_finish(&a, 15000);
	struct sa_task *t = sa_task_find(&a, 100);
	CHECK_INT(t->run_ns, 4000);		/* 2000..5000 and 9000..10000 */
	CHECK_INT(t->wait_ns, 4000);
	CHECK_INT(t->switches, 1);
	t = sa_task_find(&a, 101);
	CHECK_INT(t->run_ns, 4000);
	CHECK_INT(t->wait_ns, 3000);
	CHECK_INT(t->sleep_ns, 1000);
	CHECK_INT(sa_window(&a), 8000);
	CHECK_INT(a.cpus[0].busy_ns, 8000);
	sa_free(&a);
}

/*
 * Two CPUs: 201 runs 0..1000 on CPU 0, 202 runs 500..1000 on CPU 1, both
 * threads of 200: 500 ns with one running, 500 with two; 1500 / 1000 = 1.5.
 */
static void test_parallelism_histogram_two_cpus(void)
{
	struct sa_analysis a;
	struct sa_sum s;
	sa_init(&a, 0, 0);
	ev(&a, SA_FORK, 0, 0, 200, 201);
	ev(&a, SA_FORK, 0, 0, 200, 202);
	sw(&a, 0, 0, 0, R, 201);
	sw(&a, 500, 1, 0, R, 202);
	sw(&a, 1000, 0, 201, S, 0);
	sw(&a, 1000, 1, 202, S, 0);
	sa_finish(&a, 1000);
	struct sa_proc *p = sa_task_find(&a, 201)->proc;
	CHECK_INT(p->pid, 200);
	CHECK_INT(p->hist[1], 500);
	CHECK_INT(p->hist[2], 500);
	sa_sum_proc(&a, p, &s);
	CHECK_INT(s.run_ns, 1500);
	CHECK_INT(s.wall_ns, 1000);
	CHECK(s.parallelism > 1.499 && s.parallelism < 1.501);
	CHECK_INT(s.ncpus, 2);
	sa_free(&a);
}

/* sh (300) forks 301, which execs busy and starts thread 302: busy is its own process. */
static void test_exec_starts_a_process(void)
{
	struct sa_analysis a;
	sa_init(&a, 0, 0);
	ev(&a, SA_FORK, 0, 0, 300, 301);
	struct sa_event e = { .kind = SA_EXEC, .ts = 10, .pid = 301, .comm = "/usr/bin/busy" };
	sa_feed(&a, &e);
	struct sa_event f = { .kind = SA_FORK, .ts = 20, .pid = 301, .pid2 = 302, .comm = "busy",
			      .comm2 = "busy" };
	sa_feed(&a, &f);
	sa_finish(&a, 30);
	struct sa_proc *p = sa_task_find(&a, 302)->proc;
	CHECK(p == sa_task_find(&a, 301)->proc);
	CHECK(p != sa_task_find(&a, 300)->proc);
	CHECK_INT(p->pid, 301);
	CHECK_STR(p->comm, "busy");
	CHECK_STR(sa_task_find(&a, 301)->comm, "busy");
	CHECK_INT(p->nthreads, 2);
	CHECK_INT(sa_task_find(&a, 300)->proc->nthreads, 1);
	sa_free(&a);
}

/* Events carry the current comm: a task renamed (prctl) shows its new name, and so does its process. */
static void test_comm_follows_the_events(void)
{
	struct sa_analysis a;
	sa_init(&a, 0, 0);
	sw(&a, 0, 0, 0, R, 700);
	struct sa_event e = { .kind = SA_SWITCH, .ts = 10, .pid = 700, .pid2 = 0, .state = S,
			      .comm = "worker" };
	sa_feed(&a, &e);
	sa_finish(&a, 20);
	CHECK_STR(sa_task_find(&a, 700)->comm, "worker");
	CHECK_STR(sa_task_find(&a, 700)->proc->comm, "worker");
	sa_free(&a);
}

/* Migrations: from sched_migrate_task when the trace has it, else from CPU changes. */
static void test_migrations_from_events_or_cpu_changes(void)
{
	struct sa_analysis a;
	sa_init(&a, 0, 0);
	sw(&a, 0, 0, 0, R, 400);
	sw(&a, 10, 0, 400, RP, 0);
	sw(&a, 20, 1, 0, R, 400);
	sw(&a, 30, 1, 400, RP, 0);
	sw(&a, 40, 0, 0, R, 400);
	sa_finish(&a, 50);
	CHECK_INT(sa_task_find(&a, 400)->migrations, 2);
	sa_free(&a);

	sa_init(&a, 0, 0);
	sw(&a, 0, 0, 0, R, 400);
	sw(&a, 10, 0, 400, RP, 0);
	ev(&a, SA_MIGRATE, 15, 0, 400, 1);
	sw(&a, 20, 1, 0, R, 400);
	sa_finish(&a, 50);
	CHECK_INT(sa_task_find(&a, 400)->migrations, 1);
	sa_free(&a);
}

/* A task first seen switched out ran since its CPU's previous switch. */
static void test_first_slice_credited_from_cpu_switch(void)
{
	struct sa_analysis a;
	sa_init(&a, 0, 0);
	sw(&a, 100, 1, 0, R, 500);	/* the trace starts at 100 */
	sw(&a, 300, 0, 501, S, 0);	/* CPU 0's first switch: 501 ran 100..300 */
	sa_finish(&a, 300);
	CHECK_INT(sa_task_find(&a, 501)->run_ns, 200);
	CHECK_INT(sa_task_find(&a, 501)->switches, 1);
	sa_free(&a);
}

/*
 * A switch-out read after the task's switch-in on another CPU (equal timestamps,
 * or lost events): the task keeps running where it was last switched in.
 */
static void test_late_switch_out_keeps_task_running(void)
{
	struct sa_analysis a;
	struct sa_sum s;
	sa_init(&a, 0, 0);
	sw(&a, 0, 0, 0, R, 600);
	sw(&a, 100, 1, 0, R, 600);	/* in on CPU 1 ... */
	sw(&a, 100, 0, 600, RP, 0);	/* ... before CPU 0's switch-out is read */
	sa_finish(&a, 300);
	struct sa_task *t = sa_task_find(&a, 600);
	CHECK_INT(t->state, SA_RUNNING);
	CHECK_INT(t->run_ns, 300);
	CHECK_INT(t->proc->hist[1], 300);
	sa_sum_proc(&a, t->proc, &s);
	CHECK(s.parallelism > 0.999 && s.parallelism < 1.001);
	sa_free(&a);
}

/*
 * A switch-out of 800 on a CPU running 700 (700's switch-out and 800's
 * switch-in were not recorded): 700 ran until that switch, the first sign of
 * another task there; 800 is given no run time before it.
 */
static void test_switch_out_of_another_task_ends_the_running_one(void)
{
	struct sa_analysis a;
	struct sa_sum s;
	sa_init(&a, 0, 0);
	sw(&a, 0, 0, 0, R, 800);
	sw(&a, 100, 0, 800, RP, 900);	/* 800 runnable; 900 runs */
	sw(&a, 200, 0, 900, S, 700);
	sw(&a, 400, 0, 800, RP, 0);	/* 700 out and 800 in were not recorded */
	sw(&a, 500, 0, 0, R, 800);
	sa_finish(&a, 600);
	struct sa_task *t = sa_task_find(&a, 800);
	CHECK_INT(a.gaps, 0);
	CHECK_INT(a.missed_out, 1);
	CHECK_INT(sa_task_find(&a, 700)->run_ns, 200);	/* 200..400 */
	CHECK_INT(t->run_ns, 200);	/* 0..100 and 500..600 */
	CHECK_INT(t->switches, 2);
	CHECK_INT(a.cpus[0].busy_ns, 500);	/* idle 400..500 only */
	sa_sum_proc(&a, t->proc, &s);
	CHECK_INT(t->proc->hist[1], 200);
	CHECK_INT(t->proc->hist[0], 400);
	sa_free(&a);
}

static void runs(struct sa_analysis *a, uint64_t ts, int cpu, int cur)
{
	struct sa_event e = { .kind = SA_RUNS, .ts = ts, .cpu = cpu, .has_cur = true, .cur = cur };
	sa_feed(a, &e);
}

/*
 * A kernel that records no switch out of idle: a task woken onto the idle CPU
 * starts there when it was woken; the CPU's idle time stays idle.
 *     0  idle -> 300 on CPU 1
 *   100  300 sleeps -> idle
 *   400  300 woken onto CPU 1 (the idle -> 300 switch is not recorded)
 *   700  300 sleeps -> idle: it ran 400..700, not 100..700
 */
static void test_missing_switch_out_of_idle_starts_at_the_wakeup(void)
{
	struct sa_analysis a;
	sa_init(&a, 0, 0);
	sw(&a, 0, 1, 0, R, 300);
	sw(&a, 100, 1, 300, S, 0);
	struct sa_event w = { .kind = SA_WAKEUP, .ts = 400, .cpu = 1, .pid = 300, .cpu2 = 1,
			      .has_cur = true, .cur = 0 };
	sa_feed(&a, &w);
	sw(&a, 700, 1, 300, S, 0);
	sa_finish(&a, 1000);
	struct sa_task *t = sa_task_find(&a, 300);
	CHECK_INT(t->run_ns, 100 + 300);
	CHECK_INT(t->sleep_ns, 300 + 300);
	CHECK_INT(t->nlat, 0);		/* when it got the CPU is inferred: no latency */
	CHECK_INT(a.cpus[1].busy_ns, 400);
	CHECK_INT(a.inferred, 1);
	CHECK_INT(a.inferred_late, 0);
	CHECK_INT(a.gaps, 0);
	CHECK(a.inferred_cpus[0] == 2);
	sa_free(&a);
}

/* Woken onto another CPU, then seen on this one: it ran from the first record it made here. */
static void test_missing_switch_out_of_idle_without_wakeup_starts_at_first_record(void)
{
	struct sa_analysis a;
	sa_init(&a, 0, 0);
	sw(&a, 0, 1, 0, R, 300);
	sw(&a, 100, 1, 300, S, 0);
	struct sa_event w = { .kind = SA_WAKEUP, .ts = 200, .cpu = 0, .pid = 300, .cpu2 = 0 };
	sa_feed(&a, &w);
	runs(&a, 500, 1, 300);		/* e.g. a syscall event by 300 on CPU 1 */
	runs(&a, 600, 1, 300);
	sw(&a, 700, 1, 300, S, 0);
	sa_finish(&a, 700);
	struct sa_task *t = sa_task_find(&a, 300);
	CHECK_INT(t->run_ns, 100 + 200);
	CHECK_INT(t->max_wait_ns, 0);	/* 200..500 is not known to be a wait */
	CHECK_INT(a.cpus[1].busy_ns, 300);
	CHECK_INT(a.inferred, 1);
	CHECK_INT(a.inferred_late, 1);
	sa_free(&a);
}

/* A new task placed on a CPU with no switch seen yet: it ran from when it was placed there. */
static void test_first_switch_on_a_cpu_missing_starts_at_the_wakeup(void)
{
	struct sa_analysis a;
	sa_init(&a, 0, 0);
	sw(&a, 0, 0, 0, R, 100);
	struct sa_event w = { .kind = SA_WAKEUP_NEW, .ts = 50, .cpu = 0, .pid = 101, .cpu2 = 1,
			      .has_cur = true, .cur = 100 };
	sa_feed(&a, &w);
	runs(&a, 80, 1, 101);
	sw(&a, 250, 1, 101, S, 0);
	sa_finish(&a, 300);
	CHECK_INT(sa_task_find(&a, 101)->run_ns, 200);
	CHECK_INT(a.cpus[1].busy_ns, 200);
	CHECK_INT(a.gaps, 0);
	CHECK_INT(a.inferred, 1);
	sa_free(&a);
}

static void sys(struct sa_analysis *a, enum sa_kind k, uint64_t ts, int pid, long nr, uint64_t arg)
{
	struct sa_event e = { .kind = k, .ts = ts, .cpu = 0, .pid = pid, .state = nr, .arg = arg };
	sa_feed(a, &e);
}

static const struct sa_why *why_find(const struct sa_proc *p, enum sa_why_kind k, int holder,
				     long nr)
{
	for (size_t i = 0; i < p->nwhy; i++)
		if (p->why[i].kind == k && (k == SA_WHY_WAIT ? p->why[i].holder == holder :
					    p->why[i].nr == nr))
			return &p->why[i];
	return NULL;
}

/*
 * Causes, on feed_two_threads (one CPU): 101's waits end when it takes the CPU
 * from 100 (3000 + 2000), 100's when it takes it from 101 (4000).  Without
 * syscall events the sleeps (101: 1000 + 2000) and 100's block (3000) have no
 * syscall.
 */
static void test_off_cpu_causes_without_syscalls(void)
{
	struct sa_analysis a;
	sa_init(&a, 0, 0);
	feed_two_threads(&a);
	struct sa_proc *p = sa_task_find(&a, 100)->proc;
	CHECK(sa_task_find(&a, 101)->proc == p);
	const struct sa_why *w100 = why_find(p, SA_WHY_WAIT, 100, 0);
	const struct sa_why *w101 = why_find(p, SA_WHY_WAIT, 101, 0);
	const struct sa_why *sl = why_find(p, SA_WHY_SLEEP, 0, SA_WHY_UNTRACED);
	CHECK(w100 && w101 && sl);
	CHECK_INT(w100->ns, 5000);	/* 101 waited behind 100 */
	CHECK_INT(w101->ns, 4000);	/* 100 waited behind 101 */
	CHECK_INT(sl->ns, 1000 + 2000 + 3000);
	sa_why_sort(p);
	CHECK_INT(p->why[0].ns, 6000);
	sa_free(&a);
}

/* A wait is shared among the tasks that held the CPU meanwhile, by overlap. */
static void test_wait_charged_to_each_holder(void)
{
	struct sa_analysis a;
	sa_init(&a, 0, 0);
	sw(&a, 0, 0, 0, R, 100);
	ev(&a, SA_WAKEUP, 10, 0, 200, 0);	/* 200 waits from 10 ... */
	sw(&a, 30, 0, 100, RP, 300);		/* ... behind 100 until 30, then 300 */
	sw(&a, 50, 0, 300, S, 200);		/* ... and gets the CPU at 50 */
	sa_finish(&a, 60);
	struct sa_proc *p = sa_task_find(&a, 200)->proc;
	const struct sa_why *h100 = why_find(p, SA_WHY_WAIT, 100, 0);
	const struct sa_why *h300 = why_find(p, SA_WHY_WAIT, 300, 0);
	CHECK(h100 && h300);
	CHECK_INT(h100->ns, 20);
	CHECK_INT(h300->ns, 20);
	CHECK(why_find(p, SA_WHY_WAIT, -1, 0) == NULL);
	sa_free(&a);
}

/* A sleep inside futex is charged to the futex word; one in read to read. */
static void test_off_cpu_causes_name_the_syscall_and_futex(void)
{
	struct sa_analysis a;
	sa_init(&a, 0, 0);
	sw(&a, 0, 0, 0, R, 100);
	sys(&a, SA_SYS_ENTER, 10, 100, 202, 0x7f0010);	/* futex(0x7f0010, ...) */
	sw(&a, 20, 0, 100, S, 0);
	ev(&a, SA_WAKEUP, 120, 0, 100, 0);
	sw(&a, 130, 0, 0, R, 100);
	sys(&a, SA_SYS_EXIT, 140, 100, 202, 0);
	sys(&a, SA_SYS_ENTER, 150, 100, 0, 3);		/* read(3, ...) */
	sw(&a, 160, 0, 100, S, 0);
	ev(&a, SA_WAKEUP, 200, 0, 100, 0);
	sw(&a, 200, 0, 0, R, 100);
	sys(&a, SA_SYS_EXIT, 210, 100, 0, 0);
	sw(&a, 230, 0, 100, S, 0);			/* outside any syscall */
	sa_finish(&a, 260);
	struct sa_proc *p = sa_task_find(&a, 100)->proc;
	const struct sa_why *fx = why_find(p, SA_WHY_SLEEP, 0, 202);
	const struct sa_why *rd = why_find(p, SA_WHY_SLEEP, 0, 0);
	const struct sa_why *no = why_find(p, SA_WHY_SLEEP, 0, SA_WHY_NOSYS);
	CHECK(fx && rd && no);
	CHECK_INT(fx->ns, 100);
	CHECK(fx->addr == 0x7f0010);
	CHECK_INT(rd->ns, 40);
	CHECK_INT(no->ns, 30);
	CHECK(a.syscalls);
	char label[160];
	sa_why_label(&a, p, fx, label, sizeof(label));
	CHECK_STR(label, "sleeping in futex on 0x7f0010 (a lock or condition)");
	sa_why_label(&a, p, rd, label, sizeof(label));
	CHECK_STR(label, "sleeping or blocked in read");
	sa_free(&a);
}

/*
 * Switched in and never out (seen on this VM's kernel): another task's events
 * on the CPU end its slice.
 *     0  idle -> 68 on CPU 1
 *   100  an event by 70 on CPU 1: 68 ran 0..100, 70 runs from here (not known before)
 *   300  70 sleeps -> idle
 *   900  end: 68 is not credited 100..900
 */
static void test_event_of_another_task_ends_a_slice_never_switched_out(void)
{
	struct sa_analysis a;
	sa_init(&a, 0, 0);
	sw(&a, 0, 1, 0, R, 68);
	runs(&a, 100, 1, 70);
	sw(&a, 300, 1, 70, S, 0);
	sa_finish(&a, 900);
	struct sa_task *t68 = sa_task_find(&a, 68), *t70 = sa_task_find(&a, 70);
	CHECK_INT(t68->run_ns, 100);
	CHECK_INT(t68->state, SA_UNKNOWN);
	CHECK_INT(t68->proc->running, 0);
	CHECK_INT(t70->run_ns, 200);
	CHECK_INT(a.cpus[1].busy_ns, 300);
	CHECK_INT(a.missed_out, 1);
	CHECK(a.missed_out_cpus[0] == 2);
	CHECK_INT(a.inferred, 1);
	CHECK_INT(a.inferred_late, 1);
	sa_free(&a);
}

/* An event recorded by idle (an interrupt on an idle CPU) ends the slice too. */
static void test_idle_event_ends_a_slice_never_switched_out(void)
{
	struct sa_analysis a;
	sa_init(&a, 0, 0);
	sw(&a, 0, 0, 0, R, 68);
	runs(&a, 50, 0, 68);		/* 68 still there */
	runs(&a, 250, 0, 0);		/* idle: 68 left before */
	ev(&a, SA_WAKEUP, 400, 1, 68, 0);	/* woken: its sleep since 250 is not known */
	sw(&a, 450, 0, 0, R, 68);
	sa_finish(&a, 500);
	struct sa_task *t = sa_task_find(&a, 68);
	CHECK_INT(t->run_ns, 250 + 50);
	CHECK_INT(t->sleep_ns + t->blocked_ns, 0);
	CHECK_INT(t->wait_ns, 50);
	CHECK_INT(a.cpus[0].busy_ns, 300);
	CHECK_INT(a.missed_out, 1);
	sa_free(&a);
}

/* The slices and spans the analysis reports to a drawer are the times it counts. */
struct drawn {
	uint64_t cpu_ns[2], run_ns, other_ns;
	int nslices;
	uint64_t last_end[2];
	bool ordered;
};

static void on_slice(void *ctx, int cpu, uint64_t start, uint64_t end, int pid)
{
	struct drawn *d = ctx;
	(void)pid;
	d->ordered &= start >= d->last_end[cpu] && end > start;
	d->last_end[cpu] = end;
	d->cpu_ns[cpu] += end - start;
	d->nslices++;
}

static void on_span(void *ctx, int tid, enum sa_state st, int cpu, uint64_t start, uint64_t end)
{
	struct drawn *d = ctx;
	d->ordered &= st == SA_RUNNING ? cpu == 0 || cpu == 1 : cpu == -1;
	if (tid == 68 && st == SA_RUNNING)
		d->run_ns += end - start;
	else if (tid == 68)
		d->other_ns += end - start;
}

static void test_hooks_report_what_is_counted(void)
{
	struct sa_analysis a;
	struct drawn d = { .ordered = true };
	struct sa_hooks h = { .ctx = &d, .cpu_slice = on_slice, .task_span = on_span };
	sa_init(&a, 0, 0);
	a.hooks = &h;
	sw(&a, 0, 1, 0, R, 68);
	runs(&a, 100, 1, 70);
	sw(&a, 300, 1, 70, S, 0);
	sw(&a, 350, 0, 0, R, 68);
	sw(&a, 400, 0, 68, S, 0);
	ev(&a, SA_WAKEUP, 600, 0, 68, 0);
	sa_finish(&a, 900);
	struct sa_task *t = sa_task_find(&a, 68);
	CHECK(d.ordered);
	CHECK_INT(d.cpu_ns[1], a.cpus[1].busy_ns);
	CHECK_INT(d.cpu_ns[0], a.cpus[0].busy_ns);
	CHECK_INT(d.run_ns, t->run_ns);
	CHECK_INT(d.run_ns, 150);
	CHECK_INT(d.other_ns, t->sleep_ns + t->wait_ns);
	CHECK_INT(d.nslices, 3);
	sa_free(&a);
}

static void futex_wait(struct sa_analysis *a, uint64_t ts, int pid, uint64_t word, uint64_t val)
{
	struct sa_event e = { .kind = SA_SYS_ENTER, .ts = ts, .cpu = 0, .pid = pid, .state = 202,
			      .arg = word, .arg3 = val };
	sa_feed(a, &e);
}

/*
 * Process 100 with a thread 101: 100 waits in futex on a word holding 101
 * (pthread_join), 101 on a word holding 2 (a contended mutex).  The first is a
 * join on 101, the second a lock; both futex, told apart by the value.
 */
static void test_join_is_told_from_a_lock(void)
{
	struct sa_analysis a;
	sa_init(&a, 0, 0);
	sw(&a, 0, 0, 0, R, 100);
	ev(&a, SA_FORK, 5, 0, 100, 101);
	futex_wait(&a, 10, 100, 0x7f00990, 101);	/* join: the word holds 101 */
	sw(&a, 20, 0, 100, S, 101);
	futex_wait(&a, 30, 101, 0x5500c0, 2);		/* mutex_lock, contended */
	sw(&a, 40, 0, 101, S, 0);
	ev(&a, SA_WAKEUP, 90, 0, 101, 0);
	sw(&a, 90, 0, 0, R, 101);
	sw(&a, 95, 0, 101, 0x10, 0);			/* 101 exits */
	ev(&a, SA_WAKEUP, 100, 0, 100, 0);
	sa_finish(&a, 120);
	struct sa_proc *p = sa_task_find(&a, 100)->proc;
	const struct sa_why *join = NULL, *lock = NULL;
	for (size_t i = 0; i < p->nwhy; i++) {
		if (sa_why_cause(&p->why[i]) == SA_CAUSE_JOIN)
			join = &p->why[i];
		if (sa_why_cause(&p->why[i]) == SA_CAUSE_LOCK)
			lock = &p->why[i];
	}
	CHECK(join && lock);
	CHECK_INT(join->joined, 101);
	CHECK_INT(join->ns, 80);	/* 20..100 */
	CHECK_INT(lock->joined, 0);
	CHECK_INT(lock->ns, 50);	/* 40..90 */
	CHECK_INT(sa_task_find(&a, 100)->join_ns, 80);
	CHECK_INT(sa_task_find(&a, 101)->join_ns, 0);
	char label[160];
	sa_why_label(&a, p, join, label, sizeof(label));
	CHECK_STR(label, "waiting for thread app:101 to exit (a join, futex on 0x7f00990)");
	struct sa_why named = *lock;
	named.sym = "lock";
	sa_why_label(&a, p, &named, label, sizeof(label));
	CHECK_STR(label, "sleeping on the lock `lock` (futex on 0x5500c0)");
	CHECK_STR(sa_cause_name(sa_why_cause(lock)), "lock");
	sa_free(&a);
}

/* A futex value that is no thread of the process (a condition's sequence number) is no join. */
static void test_futex_value_of_no_sibling_is_no_join(void)
{
	struct sa_analysis a;
	sa_init(&a, 0, 0);
	sw(&a, 0, 0, 0, R, 100);
	sw(&a, 1, 1, 0, R, 300);			/* 300: another process */
	futex_wait(&a, 10, 100, 0x5500c8, 300);
	sw(&a, 20, 0, 100, S, 0);
	sa_finish(&a, 50);
	struct sa_proc *p = sa_task_find(&a, 100)->proc;
	CHECK(p->nwhy == 1 && p->why[0].joined == 0);
	CHECK_INT(sa_why_cause(&p->why[0]), SA_CAUSE_LOCK);
	sa_free(&a);
}

/* The other kinds, by syscall. */
static void test_cause_kinds_by_syscall(void)
{
	static const struct { long nr; enum sa_cause c; } cases[] = {
		{ 0, SA_CAUSE_IO }, { 7, SA_CAUSE_IO }, { 232, SA_CAUSE_IO }, { 35, SA_CAUSE_SLEEP },
		{ 230, SA_CAUSE_SLEEP }, { 61, SA_CAUSE_JOIN }, { 247, SA_CAUSE_JOIN },
		{ 202, SA_CAUSE_LOCK }, { 39, SA_CAUSE_SYSCALL }, { SA_WHY_NOSYS, SA_CAUSE_SLEEP },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sa_why w = { .kind = SA_WHY_SLEEP, .nr = cases[i].nr };
		CHECK_INT(sa_why_cause(&w), cases[i].c);
	}
	struct sa_why cpu = { .kind = SA_WHY_WAIT, .holder = 5 };
	CHECK_STR(sa_cause_name(sa_why_cause(&cpu)), "cpu");
}

/* Hand-made events that do not say who ran infer nothing. */
static void test_events_without_current_task_infer_nothing(void)
{
	struct sa_analysis a;
	sa_init(&a, 0, 0);
	sw(&a, 0, 1, 0, R, 300);
	sw(&a, 100, 1, 300, S, 0);
	struct sa_event e = { .kind = SA_RUNS, .ts = 300, .cpu = 1, .cur = 300 };
	sa_feed(&a, &e);
	sa_finish(&a, 400);
	CHECK_INT(a.inferred, 0);
	CHECK_INT(sa_task_find(&a, 300)->run_ns, 100);
	sa_free(&a);
}

/* A running span of a task, as the page draws it: [start, end) on a CPU. */
struct ran_spans {
	int tid, n;
	uint64_t start[8], end[8];
};

static void on_ran(void *ctx, int tid, enum sa_state st, int cpu, uint64_t start, uint64_t end)
{
	struct ran_spans *r = ctx;
	(void)cpu;
	if (tid == r->tid && st == SA_RUNNING && r->n < 8) {
		r->start[r->n] = start;
		r->end[r->n++] = end;
	}
}

/*
 * funcgraph-fsync.dat's case: function_graph records after `dd D ==> swapper/0`
 * still name dd (the rest of __schedule), then the idle CPU wakes it.  dd ran
 * 0..1000 and 1500..1800: the records at 1002..1006 are its switch's tail, not
 * a switch-in, and nothing is drawn running between 1000 and 1500.
 */
static void test_records_after_own_switch_out_are_its_tail(void)
{
	struct sa_analysis a;
	struct ran_spans r = { .tid = 136 };
	struct sa_hooks h = { .ctx = &r, .task_span = on_ran };
	sa_init(&a, 0, 0);
	a.hooks = &h;
	sw(&a, 0, 0, 0, R, 136);
	sw(&a, 1000, 0, 136, D, 0);
	runs(&a, 1002, 0, 136);
	runs(&a, 1006, 0, 136);
	struct sa_event w = { .kind = SA_WAKEUP, .ts = 1490, .cpu = 0, .pid = 136, .cpu2 = 0,
			      .has_cur = true, .cur = 0 };
	sa_feed(&a, &w);
	sw(&a, 1500, 0, 0, R, 136);
	runs(&a, 1600, 0, 136);
	sw(&a, 1800, 0, 136, D, 0);
	sa_finish(&a, 2000);
	struct sa_task *t = sa_task_find(&a, 136);
	CHECK_INT(t->run_ns, 1000 + 300);
	CHECK_INT(t->blocked_ns, 490 + 200);
	CHECK_INT(a.inferred, 0);
	CHECK_INT(a.missed_out, 0);
	CHECK_INT(a.tail_records, 2);
	CHECK_INT(r.n, 2);
	CHECK_INT(r.end[0], 1000);
	CHECK_INT(r.start[1], 1500);
	sa_free(&a);
}

/* The tail of a switch to another task is not that task leaving the CPU either. */
static void test_tail_of_a_preemption_keeps_next_running(void)
{
	struct sa_analysis a;
	sa_init(&a, 0, 0);
	sw(&a, 0, 0, 0, R, 10);
	sw(&a, 100, 0, 10, RP, 20);
	runs(&a, 103, 0, 10);		/* 10's records after its switch-out */
	runs(&a, 150, 0, 20);
	sw(&a, 400, 0, 20, S, 0);
	sa_finish(&a, 500);
	CHECK_INT(sa_task_find(&a, 20)->run_ns, 300);
	CHECK_INT(sa_task_find(&a, 10)->run_ns, 100);
	CHECK_INT(sa_task_find(&a, 10)->wait_ns, 400);
	CHECK_INT(a.missed_out, 0);
	sa_free(&a);
}

/*
 * tracecmd-v7zstd.dat's case: a thread running when the trace starts, first seen
 * switched out.  Its first slice counts, so its process's wall time starts there
 * too: one thread never reaches more than one CPU.
 */
static void test_first_slice_starts_the_process_wall_time(void)
{
	struct sa_analysis a;
	struct sa_sum s;
	sa_init(&a, 0, 0);
	runs(&a, 100, 1, 7);		/* another CPU's event starts the window */
	sw(&a, 400, 0, 50, RP, 60);
	sw(&a, 500, 0, 60, RP, 50);
	sw(&a, 900, 0, 50, RP, 60);
	sa_finish(&a, 1000);
	struct sa_task *t = sa_task_find(&a, 50);
	CHECK_INT(t->run_ns, 300 + 400);
	sa_sum_proc(&a, t->proc, &s);
	CHECK_INT(s.wall_ns, 800);
	CHECK(s.parallelism <= 1.0);
	CHECK_INT(t->proc->hist[1], 700);
	sa_free(&a);
}

static void stat_runtime(struct sa_analysis *a, uint64_t ts, int cpu, int pid, uint64_t ns)
{
	struct sa_event e = { .kind = SA_RUNTIME, .ts = ts, .cpu = cpu, .pid = pid, .arg = ns,
			      .has_cur = true, .cur = pid };
	sa_feed(a, &e);
}

/*
 * The kernel's clock: 11 wakes 12 at 1000 and is preempted, but the switch
 * comes at 1400 (a non-preemptible stretch).  The scheduler skipped its clock
 * update at that switch, so the kernel charged 1000..1400 to 12
 * (sched_stat_runtime 11: 900 in all, 12: 1100).  Switch to switch 11 ran
 * 1300, 12 700; on the kernel's clock 900 and 1100, as the kernel says.
 */
static void test_runtime_checked_on_the_kernels_clock(void)
{
	struct sa_analysis a;
	struct sa_check c;
	sa_init(&a, 0, 0);
	ev(&a, SA_FORK, 0, 0, 1, 11);
	ev(&a, SA_FORK, 0, 0, 1, 12);
	sw(&a, 100, 0, 0, R, 11);
	stat_runtime(&a, 500, 0, 11, 400);	/* a tick */
	struct sa_event w = { .kind = SA_WAKEUP, .ts = 1000, .cpu = 0, .pid = 12, .cpu2 = 0,
			      .has_cur = true, .cur = 11 };
	stat_runtime(&a, 1000, 0, 11, 500);	/* the wakeup's clock update */
	sa_feed(&a, &w);
	sw(&a, 1400, 0, 11, RP, 12);		/* no chunk for 11: the update was skipped */
	stat_runtime(&a, 2100, 0, 12, 1100);
	sw(&a, 2100, 0, 12, 0x20, 0);
	struct sa_event x = { .kind = SA_EXIT, .ts = 2100, .cpu = 0, .pid = 11 };
	sa_feed(&a, &x);
	sa_finish(&a, 2200);
	struct sa_task *t11 = sa_task_find(&a, 11), *t12 = sa_task_find(&a, 12);
	CHECK_INT(t11->run_ns, 1300);
	CHECK_INT(t12->run_ns, 700);
	CHECK_INT(t11->like_ns, 900);
	CHECK_INT(t12->like_ns, 1100);
	CHECK_INT(t12->kernel_ns, 1100);
	CHECK(sa_task_checkable(t12));
	CHECK(sa_task_checkable(t11));
	sa_runtime_check(&a, &c);
	CHECK_INT(c.compared, 2);
	CHECK_INT(c.disagree, 0);
	CHECK(sa_task_diff_pct(t11) > 44 && sa_task_like_diff_pct(t11) == 0);
	sa_free(&a);
}

/*
 * The farthest thread named is one the check failed: 21 ran 100 ms and the kernel
 * counted 110 ms (off by 10 ms), 22 ran 0.2 ms and the kernel counted 1 ms (-80%,
 * but within the 1 ms tolerance).
 */
static void test_runtime_check_names_a_thread_that_is_off(void)
{
	struct sa_analysis a;
	struct sa_check c;
	sa_init(&a, 0, 0);
	ev(&a, SA_FORK, 0, 0, 1, 21);
	ev(&a, SA_FORK, 0, 0, 1, 22);
	sw(&a, 1000, 0, 0, R, 21);
	sw(&a, 1000, 1, 0, R, 22);
	sw(&a, 201000, 1, 22, 0x20, 0);
	stat_runtime(&a, 201000, 1, 22, 1000000);
	struct sa_event x22 = { .kind = SA_EXIT, .ts = 201000, .cpu = 1, .pid = 22 };
	sa_feed(&a, &x22);
	stat_runtime(&a, 100001000, 0, 21, 110000000);
	sw(&a, 100001000, 0, 21, 0x20, 0);
	struct sa_event x21 = { .kind = SA_EXIT, .ts = 100001000, .cpu = 0, .pid = 21 };
	sa_feed(&a, &x21);
	sa_finish(&a, 100002000);
	sa_runtime_check(&a, &c);
	CHECK_INT(c.compared, 2);
	CHECK_INT(c.disagree_raw, 1);
	CHECK_INT(c.worst_raw_tid, 21);
	sa_free(&a);
}

/*
 * Who woke 30: its sibling 31 twice (a task), a timer once, the idle loop once;
 * a wakeup of a task already runnable is no wakeup and counts for nobody.
 */
static void test_wakers_by_kind(void)
{
	struct sa_analysis a;
	sa_init(&a, 0, 0);
	sw(&a, 0, 0, 0, R, 30);
	const struct { uint64_t ts; int kind, cur; } wakes[] = {
		{ 200, SA_WK_TASK, 31 }, { 400, SA_WK_TIMER, 31 }, { 410, SA_WK_TIMER, 0 },
		{ 600, SA_WK_IDLE, 0 }, { 800, SA_WK_TASK, 31 },
	};
	for (size_t i = 0; i < sizeof(wakes) / sizeof(wakes[0]); i++) {
		if (i != 2)
			sw(&a, wakes[i].ts - 50, 0, 30, S, wakes[i].cur);
		struct sa_event w = { .kind = SA_WAKEUP, .ts = wakes[i].ts, .cpu = 0, .pid = 30,
				      .cpu2 = 0, .has_cur = true, .cur = wakes[i].cur,
				      .waker = wakes[i].kind + 1 };
		sa_feed(&a, &w);
		if (i != 1)
			sw(&a, wakes[i].ts + 10, 0, wakes[i].cur, wakes[i].cur ? RP : R, 30);
	}
	sa_finish(&a, 1000);
	struct sa_task *t = sa_task_find(&a, 30);
	unsigned long task31 = 0, timer = 0, idle = 0, other = 0;
	for (size_t i = 0; i < t->nwakers; i++) {
		const struct sa_waker *w = &t->wakers[i];
		if (w->kind == SA_WK_TASK && w->pid == 31)
			task31 += w->count;
		else if (w->kind == SA_WK_TIMER)
			timer += w->count;
		else if (w->kind == SA_WK_IDLE)
			idle += w->count;
		else
			other += w->count;
	}
	CHECK_INT(task31, 2);
	CHECK_INT(timer, 1);
	CHECK_INT(idle, 1);
	CHECK_INT(other, 0);
	CHECK(!strcmp(sa_waker_name(SA_WK_SOFTIRQ), "softirq"));
	sa_free(&a);
}


/* A task's spans as drawn: the earliest start of any of them. */
static void on_first_span(void *ctx, int tid, enum sa_state st, int cpu, uint64_t start,
			  uint64_t end)
{
	uint64_t *first = ctx;
	(void)st, (void)cpu, (void)end;
	if (tid == 70 && start < *first)
		*first = start;
}

/*
 * A task first seen switched out on CPU 0 (the CPU's first switch, at 800; the
 * trace starts at 100) while its own sched_stat_runtime at 500 shows it on CPU 1
 * (no switch seen there): it ran on CPU 0 from 500 at the earliest, not from
 * the start -- one CPU at a time.
 */
static void test_first_seen_switch_out_not_before_it_ran_elsewhere(void)
{
	struct sa_analysis a;
	struct sa_sum s;
	uint64_t first = UINT64_MAX;
	struct sa_hooks h = { .ctx = &first, .task_span = on_first_span };
	sa_init(&a, 0, 0);
	a.hooks = &h;
	runs(&a, 100, 2, 5);		/* the trace starts */
	stat_runtime(&a, 500, 1, 70, 400);
	sw(&a, 800, 0, 70, S, 0);
	sa_finish(&a, 900);
	struct sa_task *t = sa_task_find(&a, 70);
	CHECK_INT(t->run_ns, 300);
	CHECK_INT(first, 500);
	sa_sum_proc(&a, t->proc, &s);
	CHECK(s.parallelism <= 1.0);
	sa_free(&a);
}

/*
 * sh (10) forks 11, which waits for a CPU, runs as sh, execs mkdir, exits:
 *      0  idle -> 10 on CPU 0
 *    100  10 forks 11, 11 runnable (new) for CPU 1, which runs 20 (another process)
 *    150  20 sleeps -> 11 on CPU 1: 11 waited 50 behind 20
 *    300  11 execs mkdir
 *    500  11 exits -> idle
 *    600  10 sleeps -> idle
 * Before its exec 11 is sh's: sh ran 600 + 150, waited 50 (its cause), with up to
 * two tasks at once; mkdir ran 200 in its 200 of wall time -- not 350 in 200.
 */
static void test_exec_leaves_the_time_before_it_to_the_parent(void)
{
	struct sa_analysis a;
	struct sa_sum s;
	sa_init(&a, 0, 0);
	sw(&a, 0, 0, 0, R, 10);
	sw(&a, 0, 1, 0, R, 20);
	struct sa_event f = { .kind = SA_FORK, .ts = 100, .cpu = 0, .pid = 10, .pid2 = 11,
			      .comm = "sh", .comm2 = "sh" };
	sa_feed(&a, &f);
	struct sa_event w = { .kind = SA_WAKEUP_NEW, .ts = 100, .cpu = 0, .pid = 11, .cpu2 = 1 };
	sa_feed(&a, &w);
	sw(&a, 150, 1, 20, S, 11);
	struct sa_event x = { .kind = SA_EXEC, .ts = 300, .cpu = 1, .pid = 11,
			      .comm = "/usr/bin/mkdir" };
	sa_feed(&a, &x);
	sw(&a, 500, 1, 11, 0x10, 0);
	sw(&a, 600, 0, 10, S, 0);
	sa_finish(&a, 700);
	struct sa_proc *sh = sa_task_find(&a, 10)->proc, *mk = sa_task_find(&a, 11)->proc;
	CHECK(sh != mk);
	sa_sum_proc(&a, mk, &s);
	CHECK_INT(s.run_ns, 200);
	CHECK_INT(s.wait_ns, 0);
	CHECK_INT(s.wall_ns, 200);
	CHECK(s.parallelism <= 1.0);
	sa_sum_proc(&a, sh, &s);
	CHECK_INT(s.run_ns, 750);
	CHECK_INT(s.wait_ns, 50);
	CHECK_INT(s.threads, 2);
	CHECK(s.parallelism <= s.threads);
	uint64_t causes = 0;
	for (size_t i = 0; i < sh->nwhy; i++)
		if (sh->why[i].kind == SA_WHY_WAIT)
			causes += sh->why[i].ns;
	CHECK_INT(causes, s.wait_ns);
	CHECK_INT(sh->hist[2], 150);
	for (size_t i = 0; i < mk->nwhy; i++)
		CHECK(mk->why[i].kind != SA_WHY_WAIT);
	/* The kernel's count covers its whole life: before the exec too. */
	CHECK_INT(sa_task_find(&a, 11)->run_ns + sa_task_find(&a, 11)->exec_run_ns, 350);
	sa_free(&a);
}

/*
 * 80 runs on CPU 0 from 100; its last record there is at 200; events were lost
 * before 900; its switch-out at 1000 comes after the gap.  It ran 100..200 as far
 * as anyone knows: not 100..1000 across the gap.
 */
static void test_lost_events_cut_the_slice(void)
{
	struct sa_analysis a;
	sa_init(&a, 0, 0);
	sw(&a, 100, 0, 0, R, 80);
	runs(&a, 200, 0, 80);
	sa_lost(&a, 0, 900);
	sw(&a, 1000, 0, 80, S, 0);
	sa_finish(&a, 1100);
	CHECK_INT(sa_task_find(&a, 80)->run_ns, 100);
	CHECK_INT(a.cpus[0].busy_ns, 100);
	CHECK_INT(a.lost_gaps, 1);
	CHECK(a.lost_cpus[0] == 1);
	sa_free(&a);
}

TK_MAIN(TK_CASE(test_lost_events_cut_the_slice), TK_CASE(test_first_seen_switch_out_not_before_it_ran_elsewhere),
	TK_CASE(test_exec_leaves_the_time_before_it_to_the_parent),
	TK_CASE(test_missing_switch_out_of_idle_starts_at_the_wakeup),
	TK_CASE(test_records_after_own_switch_out_are_its_tail),
	TK_CASE(test_tail_of_a_preemption_keeps_next_running),
	TK_CASE(test_first_slice_starts_the_process_wall_time),
	TK_CASE(test_runtime_checked_on_the_kernels_clock),
	TK_CASE(test_runtime_check_names_a_thread_that_is_off), TK_CASE(test_wakers_by_kind),
	TK_CASE(test_missing_switch_out_of_idle_without_wakeup_starts_at_first_record),
	TK_CASE(test_events_without_current_task_infer_nothing),
	TK_CASE(test_off_cpu_causes_without_syscalls),
	TK_CASE(test_wait_charged_to_each_holder),
	TK_CASE(test_off_cpu_causes_name_the_syscall_and_futex),
	TK_CASE(test_first_switch_on_a_cpu_missing_starts_at_the_wakeup),
	TK_CASE(test_task_states_sum_to_known_times), TK_CASE(test_wakeup_latency_percentiles),
	TK_CASE(test_process_sums_threads_and_parallelism_is_one),
	TK_CASE(test_longest_latency_names_the_cpu_holder), TK_CASE(test_cpu_busy_time),
	TK_CASE(test_window_clips_times_and_counts), TK_CASE(test_parallelism_histogram_two_cpus),
	TK_CASE(test_exec_starts_a_process), TK_CASE(test_migrations_from_events_or_cpu_changes),
	TK_CASE(test_first_slice_credited_from_cpu_switch),
	TK_CASE(test_late_switch_out_keeps_task_running), TK_CASE(test_comm_follows_the_events),
	TK_CASE(test_switch_out_of_another_task_ends_the_running_one),
	TK_CASE(test_event_of_another_task_ends_a_slice_never_switched_out),
	TK_CASE(test_idle_event_ends_a_slice_never_switched_out),
	TK_CASE(test_hooks_report_what_is_counted), TK_CASE(test_join_is_told_from_a_lock),
	TK_CASE(test_futex_value_of_no_sibling_is_no_join), TK_CASE(test_cause_kinds_by_syscall))
