/*
 * The run time the analysis drew from switches, checked against the kernel's
 * own count: the sum of each task's sched_stat_runtime events.  Only tasks
 * whose whole life is in the window are compared, since only for them does the
 * window hold every chunk the kernel accounted (a chunk is reported when the
 * scheduler updates the task's clock: at a tick, a switch, a wakeup, so a task
 * running across the window's edge has a chunk reaching outside it).
 *
 * Like with like: the kernel does not read its clock at every switch.  When a
 * wakeup preempts the running task it skips the next update (the switch
 * follows at once, it assumes), so the stretch from that wakeup to the real
 * switch -- long on a slow or non-preemptible kernel, milliseconds under qemu
 * TCG -- is charged to the task switched in, and after idle the woken task's
 * time starts at its wakeup.  The switches are right about who was on the CPU;
 * the comparison is made on the same slices moved to the kernel's clock
 * (like_ns, kept by sched.c), and both differences are reported.
 */
#include "sched.h"

#include <string.h>

/* Agreement the issue asks for: within 2% or 1 ms, whichever is looser. */
#define SA_AGREE_PCT 2.0
#define SA_AGREE_NS 1000000ull

bool sa_task_checkable(const struct sa_task *t)
{
	return t->born && t->died && t->kernel_chunks > 0;
}

static double diff_pct(uint64_t ns, uint64_t kernel)
{
	if (!kernel)
		return ns ? 100.0 : 0.0;
	return 100.0 * ((double)ns - (double)kernel) / (double)kernel;
}

/* Its whole life's run time: before its exec too (counted in its parent's process). */
static uint64_t life_run(const struct sa_task *t)
{
	return t->run_ns + t->exec_run_ns;
}

double sa_task_diff_pct(const struct sa_task *t)
{
	return diff_pct(life_run(t), t->kernel_ns);
}

double sa_task_like_diff_pct(const struct sa_task *t)
{
	return diff_pct(t->like_ns, t->kernel_ns);
}

static uint64_t absdiff(uint64_t x, uint64_t y)
{
	return x > y ? x - y : y - x;
}

static bool agrees(uint64_t ns, uint64_t kernel)
{
	double pct = diff_pct(ns, kernel);
	return absdiff(ns, kernel) <= SA_AGREE_NS || (pct <= SA_AGREE_PCT && pct >= -SA_AGREE_PCT);
}

bool sa_task_agrees(const struct sa_task *t)
{
	return agrees(t->like_ns, t->kernel_ns);
}

/*
 * Whether a thread off by pct (off: outside the tolerance) is farther than the
 * farthest so far: one that is off before any that agrees, whatever the percentages
 * (a short thread's 80% of 0.8 ms agrees; 3% of 100 ms does not).
 */
static bool farther(double pct, bool off, double worst, bool worst_off)
{
	double a = pct < 0 ? -pct : pct;
	return off != worst_off ? off : a > worst;
}

void sa_runtime_check(const struct sa_analysis *a, struct sa_check *c)
{
	double worst = -1, worst_raw = -1;
	bool worst_off = false, worst_raw_off = false;

	memset(c, 0, sizeof(*c));
	for (const struct sa_task *t = a->task_list; t; t = t->next) {
		if (t->kernel_chunks)
			c->with_runtime++;
		if (!sa_task_checkable(t))
			continue;
		c->compared++;
		bool off = !agrees(t->like_ns, t->kernel_ns), off_raw = !agrees(life_run(t), t->kernel_ns);
		c->disagree += off;
		c->disagree_raw += off_raw;
		double pct = sa_task_like_diff_pct(t), raw = sa_task_diff_pct(t);
		if (farther(pct, off, worst, worst_off)) {
			worst = pct < 0 ? -pct : pct;
			worst_off = off;
			c->worst_tid = t->tid;
			c->worst_pct = pct;
			c->worst_ns = (int64_t)t->like_ns - (int64_t)t->kernel_ns;
		}
		if (farther(raw, off_raw, worst_raw, worst_raw_off)) {
			worst_raw = raw < 0 ? -raw : raw;
			worst_raw_off = off_raw;
			c->worst_raw_tid = t->tid;
			c->worst_raw_pct = raw;
			c->worst_raw_ns = (int64_t)life_run(t) - (int64_t)t->kernel_ns;
		}
	}
}
