/*
 * The vCPU accounting of sched_guest.h on hand-built transitions whose answers are worked
 * out in the comments.
 */
#include <stdbool.h>
#include <stdint.h>

#include "analysis/sched_guest.h"
#include "tk_test.h"

static const struct sg_task *find(const struct sg_guest *g, int pid)
{
	for (int i = 0; i < g->ntask; i++)
		if (g->task[i].pid == pid)
			return &g->task[i];
	return NULL;
}

/* One transition of a scripted recording: host switch, guest run/queue/sleep. */
struct step {
	char what;		/* 'h' host switch a->b, 'r' run, 'q' queue, 's' sleep */
	int a, b;		/* prev and next pid; or pid and vCPU */
	uint64_t ts;
};

/*
 * Feed steps in order, starting the window at from (0: none) before the first step at or
 * after it, and stopping before the first step after to (0: none).
 */
static void replay(struct sg_guest *g, const struct step *st, int n, uint64_t from,
		   uint64_t to)
{
	bool started = !from;

	for (int i = 0; i < n && (!to || st[i].ts <= to); i++) {
		if (!started && st[i].ts >= from) {
			sg_window_start(g, from);
			started = true;
		}
		switch (st[i].what) {
		case 'h': sg_host_switch(g, st[i].a, st[i].b, st[i].ts); break;
		case 'r': sg_guest_run(g, st[i].a, "app", st[i].b, st[i].ts); break;
		case 'q': sg_guest_queue(g, st[i].a, "app", st[i].b, st[i].ts); break;
		case 's': sg_guest_sleep(g, st[i].a, st[i].ts); break;
		}
	}
}

/* The first test's transitions (its comment), for the windows' tests. */
static const struct step first_case[] = {
	{ 'h', 1, 501, 1000 }, { 'r', 7, 0, 2000 }, { 'h', 501, 1, 3000 },
	{ 'h', 1, 501, 4500 }, { 'q', 7, 0, 5000 }, { 'h', 501, 1, 6000 },
	{ 'q', 7, 1, 6400 }, { 's', 7, 0, 7000 },
};
#define FIRST_CASE_N ((int)(sizeof(first_case) / sizeof(first_case[0])))

/*
 * Two vCPUs run by host threads 501 and 502; guest task 7 on vCPU 0:
 *   1000  host: 501 on                  vCPU 0's thread known, running
 *   2000  guest: 7 runs on vCPU 0
 *   3000  host: 501 off (preempted)     7 keeps "running" in the guest's eyes
 *   4500  host: 501 on                  1500 off while 7 was on the vCPU
 *   5000  guest: 7 preempted, runnable on vCPU 0
 *   6000  host: 501 off
 *   6400  guest: 7 migrated, queued on vCPU 1 (502 state unknown: not counted)
 *   7000  guest: 7 sleeps                400 more on vCPU 0 (6000-6400)
 *   8000  end
 * 7 waited 1900 for its vCPUs, was attached 5000.
 */
static void test_task_waits_while_its_vcpu_thread_is_off(void)
{
	static const int pids[2] = { 501, 502 };
	struct sg_guest g;

	CHECK(sg_init(&g, 2, pids) == 0);
	replay(&g, first_case, FIRST_CASE_N, 0, 0);
	sg_end(&g, 8000, 8000);
	const struct sg_task *t = find(&g, 7);
	CHECK(t != NULL);
	CHECK_INT(t->waited, 1900);
	CHECK_INT(t->attached, 5000);
	CHECK_STR(t->comm, "app");
	/* vCPU 0's thread: on 1000-3000 and 4500-6000, off 3000-4500 and 6000-8000. */
	CHECK_INT(g.vcpu[0].on_total, 3500);
	CHECK_INT(g.vcpu[0].off_total, 3500);
	CHECK(!g.vcpu[1].known);
	sg_free(&g);
}

/*
 * The host's recording ends at 5000, the guest's at 9000: vCPU 0's thread went off at
 * 4000; the task stays on it to the end, but only 4000-5000 is known off.
 */
static void test_off_time_stops_where_the_host_recording_ends(void)
{
	static const int pids[1] = { 900 };
	struct sg_guest g;

	CHECK(sg_init(&g, 1, pids) == 0);
	sg_host_switch(&g, 0, 900, 1000);
	sg_guest_run(&g, 3, "w", 0, 2000);
	sg_host_switch(&g, 900, 0, 4000);
	sg_end(&g, 9000, 5000);
	CHECK_INT(find(&g, 3)->waited, 1000);
	CHECK_INT(find(&g, 3)->attached, 7000);
	sg_free(&g);
}

/*
 * The host's recording goes on past the guest's: vCPU 0's thread is off from 6000 to 9000,
 * after the guest's last event (5000), with task 4 still on the vCPU then.  None of that
 * is the task's: it is charged up to 5000 only (off 3000-5000).
 */
static void test_host_time_past_the_guest_is_not_charged(void)
{
	static const int pids[1] = { 300 };
	struct sg_guest g;

	CHECK(sg_init(&g, 1, pids) == 0);
	sg_host_switch(&g, 0, 300, 1000);
	sg_guest_seen(&g, 2000);
	sg_guest_run(&g, 4, "t", 0, 2000);
	sg_host_switch(&g, 300, 0, 3000);
	sg_guest_seen(&g, 5000);
	sg_host_switch(&g, 0, 300, 6000);
	sg_host_switch(&g, 300, 0, 7000);
	sg_end(&g, 5000, 9000);
	CHECK_INT(find(&g, 4)->waited, 2000);
	CHECK_INT(find(&g, 4)->attached, 3000);
	CHECK_INT(g.vcpu[0].off_total, 3000 + 2000);	/* 3000-6000, 7000-9000 */
	sg_free(&g);
}

/* The idle task (pid 0) and vCPUs beyond the map are not counted; a vCPU with no thread neither. */
static void test_idle_and_unmapped_vcpus_count_nothing(void)
{
	static const int pids[2] = { 0, 40 };
	struct sg_guest g;

	CHECK(sg_init(&g, 2, pids) == 0);
	sg_guest_run(&g, 0, "swapper/0", 0, 100);
	sg_guest_run(&g, 9, "x", 5, 100);
	CHECK_INT(g.ntask, 0);
	sg_guest_run(&g, 9, "x", 0, 100);
	sg_host_switch(&g, 40, 41, 150);	/* another vCPU's thread */
	sg_end(&g, 300, 300);
	CHECK_INT(find(&g, 9)->waited, 0);
	CHECK_INT(find(&g, 9)->attached, 200);
	sg_free(&g);
}

/* Many tasks queued on one vCPU share its off time, each its own part. */
static void test_queued_tasks_each_see_the_off_time_while_queued(void)
{
	static const int pids[1] = { 77 };
	struct sg_guest g;

	CHECK(sg_init(&g, 1, pids) == 0);
	sg_host_switch(&g, 77, 1, 0);		/* off from 0 */
	sg_guest_queue(&g, 10, "a", 0, 100);
	sg_guest_queue(&g, 11, "b", 0, 300);
	sg_host_switch(&g, 1, 77, 400);		/* on */
	sg_guest_run(&g, 10, "a", 0, 500);
	sg_host_switch(&g, 77, 1, 600);		/* off again */
	sg_guest_sleep(&g, 11, 700);
	sg_end(&g, 1000, 1000);
	CHECK_INT(find(&g, 10)->waited, 300 + 400);	/* 100-400, 600-1000 */
	CHECK_INT(find(&g, 11)->waited, 100 + 100);	/* 300-400, 600-700 */
	sg_free(&g);
}

/*
 * The first test's transitions with --from 4000: before it the states are set (vCPU 0's
 * thread off since 3000, 7 on vCPU 0 since 2000), from it the times count:
 *   4000-4500  off while 7 is on it      500
 *   6000-6400  off while 7 queued there  400
 * 7 waited 900; it was attached 3000 (4000-6400 on vCPU 0, 6400-7000 queued on vCPU 1,
 * whose thread's state is unknown); vCPU 0's thread: on 4500-6000, off 4000-4500 and
 * 6000-8000.
 */
static void test_window_start_keeps_states_drops_earlier_time(void)
{
	static const int pids[2] = { 501, 502 };
	struct sg_guest g;

	CHECK(sg_init(&g, 2, pids) == 0);
	replay(&g, first_case, FIRST_CASE_N, 4000, 0);
	sg_end(&g, 8000, 8000);
	const struct sg_task *t = find(&g, 7);
	CHECK(t != NULL);
	CHECK_INT(t->waited, 900);
	CHECK_INT(t->attached, 3000);
	CHECK_INT(g.vcpu[0].on_total, 1500);
	CHECK_INT(g.vcpu[0].off_total, 500 + 2000);
	sg_free(&g);
}

/*
 * Split at 5500 (--to 5500, then --from 5500) the first test's figures add up to the
 * whole: waited 1500 before and 400 after (1900), attached 3500 and 1500 (5000).
 */
static void test_windows_split_add_up(void)
{
	static const int pids[2] = { 501, 502 };
	struct sg_guest a, b;

	CHECK(sg_init(&a, 2, pids) == 0);
	replay(&a, first_case, FIRST_CASE_N, 0, 5500);
	sg_end(&a, 5500, 5500);				/* --to 5500: both go on past it */
	CHECK_INT(find(&a, 7)->waited, 1500);
	CHECK_INT(find(&a, 7)->attached, 3500);
	CHECK(sg_init(&b, 2, pids) == 0);
	replay(&b, first_case, FIRST_CASE_N, 5500, 0);
	sg_end(&b, 8000, 8000);
	CHECK_INT(find(&b, 7)->waited, 400);
	CHECK_INT(find(&b, 7)->attached, 1500);
	CHECK_INT(a.vcpu[0].off_total + b.vcpu[0].off_total, 3500);
	CHECK_INT(a.vcpu[0].on_total + b.vcpu[0].on_total, 3500);
	sg_free(&a);
	sg_free(&b);
}

TK_MAIN(TK_CASE(test_task_waits_while_its_vcpu_thread_is_off),
	 TK_CASE(test_window_start_keeps_states_drops_earlier_time),
	 TK_CASE(test_windows_split_add_up),
	 TK_CASE(test_off_time_stops_where_the_host_recording_ends),
	 TK_CASE(test_host_time_past_the_guest_is_not_charged),
	 TK_CASE(test_idle_and_unmapped_vcpus_count_nothing),
	 TK_CASE(test_queued_tasks_each_see_the_off_time_while_queued))
