/*
 * tracekit sched's output: which processes to show, then the same facts as
 * tables for people or as one JSON document for programs.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sched_trace.h"
#include "util/die.h"
#include "util/json.h"
#include "util/strbuf.h"

#define MAX_SHOWN 5		/* the busiest processes, when nothing says which */
#define TOP_PER_CPU 5		/* tasks listed per CPU */
#define TOP_WHY 8		/* causes of not running listed per process */
#define TOP_HOLDERS 3		/* tasks named on the "waiting for a CPU" line */
#define MIN_P99 10		/* fewer wakeups than this give no 99th percentile */

struct sel {
	struct sa_proc **p;
	int n;
	const char *why;	/* how they were chosen */
};

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static void sel_add(struct sel *s, struct sa_proc *p)
{
	for (int i = 0; i < s->n; i++)
		if (s->p[i] == p)
			return;
	s->p = xrealloc(s->p, sizeof(*s->p) * (size_t)(s->n + 1));
	s->p[s->n++] = p;
}

static uint64_t proc_run(const struct sa_analysis *a, const struct sa_proc *p)
{
	uint64_t run = p->left.run_ns;
	for (const struct sa_task *t = a->task_list; t; t = t->next)
		if (t->proc == p)
			run += t->run_ns;
	return run;
}

static void sel_busiest(struct st_trace *t, struct sel *s)
{
	int n = t->a.nprocs;
	struct sa_proc **all = xmalloc(sizeof(*all) * (size_t)(n ? n : 1));
	uint64_t *run = xmalloc(sizeof(*run) * (size_t)(n ? n : 1));
	int k = 0;

	for (struct sa_proc *p = t->a.proc_list; p; p = p->next, k++) {
		all[k] = p;
		run[k] = proc_run(&t->a, p);
	}
	for (int shown = 0; shown < MAX_SHOWN && shown < n; shown++) {
		int best = -1;
		for (int i = 0; i < n; i++)
			if (all[i] && run[i] && (best < 0 || run[i] > run[best]))
				best = i;
		if (best < 0)
			break;
		sel_add(s, all[best]);
		all[best] = NULL;
	}
	free(all);
	free(run);
	s->why = "the busiest processes";
}

static bool descends(const struct sa_proc *p, const struct sa_proc *root)
{
	for (int depth = 0; p && depth < 4096; p = p->parent, depth++)
		if (p == root)
			return true;
	return false;
}

#define MAX_TREE 16		/* processes of the command's tree shown, busiest first */

/*
 * The recorded command and every process it started (a shell's children, make's
 * compilers), the busiest first: the verdict is about the one that did the work.
 */
static void sel_tree(struct st_trace *t, struct sa_proc *root, struct sel *s)
{
	static char why[128];
	int n = 0, k = 0;

	for (struct sa_proc *p = t->a.proc_list; p; p = p->next)
		n += descends(p, root);
	struct sa_proc **all = xmalloc(sizeof(*all) * (size_t)n);
	uint64_t *run = xmalloc(sizeof(*run) * (size_t)n);
	for (struct sa_proc *p = t->a.proc_list; p; p = p->next)
		if (descends(p, root)) {
			all[k] = p;
			run[k++] = proc_run(&t->a, p);
		}
	for (int shown = 0; shown < MAX_TREE && shown < n; shown++) {
		int best = -1;
		for (int i = 0; i < n; i++)
			if (all[i] && (best < 0 || run[i] > run[best]))
				best = i;
		sel_add(s, all[best]);
		all[best] = NULL;
	}
	free(all);
	free(run);
	if (n == 1)
		snprintf(why, sizeof(why), "the command recorded");
	else
		snprintf(why, sizeof(why), "the command recorded and the %d processes it started%s, "
			 "busiest first", n - 1, n > MAX_TREE ? " (the busiest shown)" : "");
	s->why = why;
}

static int sel_pids(struct st_trace *t, const char *list, struct sel *s)
{
	for (const char *p = list; *p;) {
		char *end;
		long pid = strtol(p, &end, 10);
		struct sa_task *task = sa_task_find(&t->a, (int)pid);
		if (task && task->proc)
			sel_add(s, task->proc);
		p = *end ? end + 1 : end;
		if (end == p)
			break;
	}
	return s->n;
}

static int choose(struct st_trace *t, const struct st_options *o, struct sel *s, char *err,
		  size_t errlen)
{
	if (o->pid) {
		struct sa_task *task = sa_task_find(&t->a, o->pid);
		if (!task || !task->proc) {
			snprintf(err, errlen, "pid %d is not in %s", o->pid, o->input);
			return -1;
		}
		sel_add(s, task->proc);
		s->why = "--pid";
		return 0;
	}
	if (o->comm) {
		for (struct sa_task *task = t->a.task_list; task; task = task->next)
			if (strcmp(task->comm, o->comm) == 0 && task->proc)
				sel_add(s, task->proc);
		if (!s->n) {
			snprintf(err, errlen, "no task named '%s' in %s", o->comm, o->input);
			return -1;
		}
		s->why = "--comm";
		return 0;
	}
	struct sa_task *cmd = t->command_pid ? sa_task_find(&t->a, t->command_pid) : NULL;
	/* Without fork events the command's threads are not tied to its pid: names do better. */
	if (cmd && cmd->proc && t->has[ST_FORK]) {
		sel_tree(t, cmd->proc, s);
		return 0;
	}
	if (t->command && !t->has[ST_EXEC]) {
		char name[SA_COMM * 16];
		st_command_name(t->command, name, sizeof(name));
		for (struct sa_task *task = t->a.task_list; task; task = task->next)
			if (strncmp(task->comm, name, SA_COMM - 1) == 0 && task->proc)
				sel_add(s, task->proc);
		if (s->n) {
			s->why = "the tasks named like the command recorded (no exec events)";
			return 0;
		}
	}
	if (cmd && cmd->proc) {
		sel_add(s, cmd->proc);
		s->why = "the command recorded";
		return 0;
	}
	if (t->pids && sel_pids(t, t->pids, s)) {
		s->why = "the pids recorded";
		return 0;
	}
	sel_busiest(t, s);
	return 0;
}

/* What each missing event costs the analysis. */
static const char *const cost[ST_NEVENTS] = {
	[ST_WAKEUP] = "no wakeup latencies: sleep runs until the task is on a CPU again",
	[ST_WAKEUP_NEW] = "new tasks' first wait for a CPU is not seen",
	[ST_MIGRATE] = "migrations counted as CPU changes between runs",
	[ST_FORK] = "threads started during the trace are not grouped with their process",
	[ST_EXEC] = "the recorded command is not found by its exec; processes keep their forker's",
	[ST_EXIT] = "no effect on the figures",
	[ST_RUNTIME] = "run time is from switches only, not checked against the kernel's count",
};

static bool missing(const struct st_trace *t, int i)
{
	if (i == ST_WAKING)
		return false;	/* sched_wakeup stands in */
	if (i == ST_WAKEUP)
		return !t->has[ST_WAKING] && !t->has[ST_WAKEUP];
	return !t->has[i];
}

static int cmp_task(const void *x, const void *y)
{
	const struct sa_task *a = *(struct sa_task *const *)x, *b = *(struct sa_task *const *)y;
	return a->tid - b->tid;
}

/* The process's tasks by tid; *n of them. */
static struct sa_task **threads_of(const struct sa_analysis *a, const struct sa_proc *p, int *n)
{
	struct sa_task **v = NULL;
	*n = 0;
	for (struct sa_task *t = a->task_list; t; t = t->next) {
		if (t->proc != p)
			continue;
		v = xrealloc(v, sizeof(*v) * (size_t)(*n + 1));
		v[(*n)++] = t;
	}
	if (*n)
		qsort(v, (size_t)*n, sizeof(*v), cmp_task);
	return v;
}

static const char *comm_of(const struct sa_analysis *a, int pid)
{
	struct sa_task *t = sa_task_find(a, pid);
	return t && t->comm[0] ? t->comm : "?";
}

static const char *plural(long n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* ---- text ---- */

/* How far the run time from switches is from the kernel's own count, or why it is not checked. */
static void text_check(struct st_trace *t, FILE *f)
{
	struct sa_check c;

	if (!t->has[ST_RUNTIME])
		return;		/* said among the missing events */
	sa_runtime_check(&t->a, &c);
	if (!c.compared) {
		fprintf(f, "note: run time not checked against sched_stat_runtime: no thread's whole "
			"life (fork to exit) is in the trace\n");
		return;
	}
	const struct sa_task *w = sa_task_find(&t->a, c.worst_tid);
	const struct sa_task *r = sa_task_find(&t->a, c.worst_raw_tid);
	fprintf(f, "run time checked against the kernel's sched_stat_runtime for %lu %s whose "
		"whole life is in the trace: ", c.compared, plural((long)c.compared, "thread",
								 "threads"));
	if (c.disagree)
		fprintf(f, "%lu off by more than 2%% and 1 ms", c.disagree);
	else
		fprintf(f, "all within 2%% or 1 ms");
	fprintf(f, " on the kernel's clock (farthest %s:%d, %+.2f%%, %+.3f ms); switch to switch, "
		"farthest %s:%d, %+.2f%%, %+.3f ms\n", w ? w->comm : "?", c.worst_tid, c.worst_pct,
		(double)c.worst_ns / 1e6, r ? r->comm : "?", c.worst_raw_tid, c.worst_raw_pct,
		(double)c.worst_raw_ns / 1e6);
}

static void text_header(struct st_trace *t, const struct st_options *o, FILE *f)
{
	const struct sa_analysis *a = &t->a;

	fprintf(f, "%s: %d CPUs, %.6f .. %.6f s (%.3f ms)\n", o->input, t->cpus,
		(double)a->start / 1e9, (double)a->end / 1e9, ms(sa_window(a)));
	fprintf(f, "wakeups from %s\n", t->use_waking ? "sched_waking" :
		t->has[ST_WAKEUP] ? "sched_wakeup" : "(none)");
	for (int i = 0; i < ST_NEVENTS; i++)
		if (missing(t, i))
			fprintf(f, "missing sched:%s%s: %s\n", i == ST_WAKEUP ? "sched_waking and sched:" : "",
				st_event_names[i], cost[i]);
	/* A window without switches still has the state carried in from the switches before it. */
	if (!t->a.switches_read)
		fputs("no sched_switch events in the window or in the buffers read (see -B, --top; "
		      "tracekit report --stat lists each buffer's events): which task ran where is "
		      "not known, so no figures are given\n", f);
	if (t->follow && strcmp(t->follow, "system") != 0)
		fputs("note: recorded with -F or -p: only switches involving the traced tasks exist, "
		      "so per-CPU figures and other tasks are incomplete\n", f);
	for (int i = 0; i < o->nfilters; i++)
		fprintf(f, "note: only the events -F '%s' matches are analysed: events it drops "
			"are as if never recorded\n", o->filters[i]);
	if (t->lost) {
		fprintf(f, "warning: the kernel lost %lld events (%lu gap%s, CPU", t->lost,
			t->a.lost_gaps, t->a.lost_gaps == 1 ? "" : "s");
		for (int c = 0, k = 0; c < 1024; c++)
			if (t->a.lost_cpus[c / 64] & (1ull << (c % 64)))
				fprintf(f, "%s %d", k++ ? "," : "", c);
		fputs("): what ran in a gap is not known; a slice ends at its CPU's last event "
		      "before it, and nothing is counted inside it\n", f);
	}
	if (t->a.gaps)
		fprintf(f, "warning: %lu switch-outs of tasks whose switch-in is not in the trace "
			"(events lost, or not recorded by the kernel); their run time before is not "
			"counted\n", t->a.gaps);
	if (!t->a.switches_read)
		return;		/* what follows is of figures not given */
	if (t->a.inferred) {
		fprintf(f, "note: the kernel recorded no switch out of idle for %lu switch-in%s (CPU",
			t->a.inferred, t->a.inferred == 1 ? "" : "s");
		for (int c = 0, k = 0; c < 1024; c++)
			if (t->a.inferred_cpus[c / 64] & (1ull << (c % 64)))
				fprintf(f, "%s %d", k++ ? "," : "", c);
		fprintf(f, "); %lu placed where the task became runnable there", t->a.inferred -
			t->a.inferred_late);
		if (t->a.inferred_late)
			fprintf(f, ", %lu at its first event there (run time before unknown, not "
				"counted)", t->a.inferred_late);
		fputs("\n", f);
	}
	if (t->a.missed_out) {
		fprintf(f, "note: the kernel recorded no switch-out for %lu slice%s (CPU",
			t->a.missed_out, t->a.missed_out == 1 ? "" : "s");
		for (int c = 0, k = 0; c < 1024; c++)
			if (t->a.missed_out_cpus[c / 64] & (1ull << (c % 64)))
				fprintf(f, "%s %d", k++ ? "," : "", c);
		fputs("); each ends at the first event of another task (or idle) there\n", f);
	}
	text_check(t, f);
	if (!t->has_hrtimer)
		fputs("note: no timer:hrtimer_expire_entry/exit events: wakeups in interrupts are "
		      "told hardirq or softirq, not timer (tracekit record -e sched adds them)\n", f);
}


static void text_row(FILE *f, const char *label, const struct sa_sum *s)
{
	char p99[16] = "-", avg[16] = "-", max[16] = "-";

	if (s->nlat) {
		snprintf(avg, sizeof(avg), "%.3f", ms(s->lat_avg));
		snprintf(max, sizeof(max), "%.3f", ms(s->lat_max));
	}
	if (s->nlat >= MIN_P99)
		snprintf(p99, sizeof(p99), "%.3f", ms(s->lat_p99));
	fprintf(f, "  %-22s %9.3f %9.3f %9.3f %9.3f %7lu %6lu %5lu %4d %9.3f %7zu %8s %8s "
		"%8s\n", label, ms(s->run_ns), ms(s->wait_ns), ms(s->sleep_ns), ms(s->blocked_ns),
		s->switches, s->involuntary, s->migrations, s->ncpus, ms(s->max_wait_ns), s->nlat,
		avg, p99, max);
}

static void text_parallelism(const struct sa_proc *p, const struct sa_sum *s, FILE *f)
{
	uint64_t total = 0;
	int top = 0;

	for (int k = 0; k <= SA_PAR_MAX; k++) {
		total += p->hist[k];
		if (p->hist[k])
			top = k;
	}
	fprintf(f, "  parallelism %.2f (run %.3f ms over %.3f ms wall, %d %s)\n",
		s->parallelism, ms(s->run_ns), ms(s->wall_ns), s->threads,
		plural(s->threads, "thread", "threads"));
	for (int k = 0; total && k <= top; k++) {
		double pc = 100.0 * (double)p->hist[k] / (double)total;
		fprintf(f, "    %2d%s running %9.3f ms %5.1f%% ", k, k == SA_PAR_MAX ? "+" : " ",
			ms(p->hist[k]), pc);
		for (int i = 0; i < (int)(pc / 2.5); i++)
			fputc('#', f);
		fputc('\n', f);
	}
	uint64_t all = s->run_ns + s->wait_ns + s->sleep_ns + s->blocked_ns;
	if (all && s->threads > 1 && s->parallelism < s->threads - 0.5)
		fprintf(f, "  thread time: %.0f%% on a CPU, %.0f%% waiting for a CPU, %.0f%% sleeping, "
			"%.0f%% blocked\n", 100.0 * (double)s->run_ns / (double)all,
			100.0 * (double)s->wait_ns / (double)all, 100.0 * (double)s->sleep_ns / (double)all,
			100.0 * (double)s->blocked_ns / (double)all);
}

/* One line of the causes: a cause, or all the waits for a CPU together. */
struct why_line {
	uint64_t ns;
	bool last;		/* a join: the others' time, shown after the real causes */
	char text[400];
};

static int cmp_line(const void *x, const void *y)
{
	const struct why_line *a = x, *b = y;
	if (a->last != b->last)
		return a->last ? 1 : -1;
	return a->ns < b->ns ? 1 : a->ns > b->ns ? -1 : 0;
}

/* "cc1:14483 92.8 ms, ..., and 5 more": the biggest holders of the CPUs p waited for. */
static void holders(struct st_trace *t, struct sa_proc *p, char *buf, size_t len)
{
	size_t n = 0, at = 0, shown = 0;
	uint64_t own = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < p->nwhy; i++) {	/* sorted: longest first */
		const struct sa_why *w = &p->why[i];
		if (w->kind != SA_WHY_WAIT)
			continue;
		n++;
		const struct sa_task *h = w->holder > 0 ? sa_task_find(&t->a, w->holder) : NULL;
		if (h && h->proc == p)
			own += w->ns;
		if (shown == TOP_HOLDERS || at >= len)
			continue;
		if (w->holder > 0)
			at += snprintf(buf + at, len - at, "%s%s:%d%s %.1f ms", shown ? ", " : "",
				       h ? h->comm : "?", w->holder, h && h->proc == p ?
				       " (same process)" : "", ms(w->ns));
		else
			at += snprintf(buf + at, len - at, "%s%s %.1f ms", shown ? ", " : "",
				       w->holder ? "older holders" : "an idle CPU waking", ms(w->ns));
		shown++;
	}
	if (n > shown && at < len)
		at += snprintf(buf + at, len - at, " and %zu more", n - shown);
	if (own && at < len)
		snprintf(buf + at, len - at, "; %.1f ms of it behind its own threads (same process)",
			 ms(own));
}

/* Why its threads were off a CPU: the biggest causes, inside the window. */
static void text_why(struct st_trace *t, struct sa_proc *p, FILE *f)
{
	char label[160], who[300];
	size_t n = 0;

	sa_why_sort(p);
	st_name_locks(t, p);
	if (!p->nwhy)
		return;
	struct why_line *v = xcalloc(p->nwhy + 1, sizeof(*v));
	uint64_t cpu = 0;
	for (size_t i = 0; i < p->nwhy; i++) {
		const struct sa_why *w = &p->why[i];
		if (w->kind == SA_WHY_WAIT) {
			cpu += w->ns;
			continue;
		}
		sa_why_label(&t->a, p, w, label, sizeof(label));
		v[n].ns = w->ns;
		v[n].last = sa_why_cause(w) == SA_CAUSE_JOIN;
		snprintf(v[n++].text, sizeof(v->text), "%s", label);
	}
	if (cpu) {
		holders(t, p, who, sizeof(who));
		v[n].ns = cpu;
		snprintf(v[n++].text, sizeof(v->text), "waiting for a CPU held by %s", who);
	}
	qsort(v, n, sizeof(*v), cmp_line);
	fputs("  time its threads were off a CPU, by cause (waits for other threads last):\n", f);
	for (size_t i = 0; i < n && i < TOP_WHY; i++)
		fprintf(f, "    %9.3f ms  %s\n", ms(v[i].ns), v[i].text);
	if (n > TOP_WHY)
		fprintf(f, "    (%zu more %s: --json lists them)\n", n - TOP_WHY,
			plural((long)(n - TOP_WHY), "cause", "causes"));
	free(v);
}

static int cmp_waker(const void *x, const void *y)
{
	const struct sa_waker *a = x, *b = y;
	if (a->count != b->count)
		return a->count < b->count ? 1 : -1;
	return a->kind != b->kind ? (int)a->kind - (int)b->kind : a->pid - b->pid;
}

/* A task's wakers, most frequent first (sorted in place: the order is of no other use). */
static void sort_wakers(struct sa_task *k)
{
	if (k->nwakers > 1)
		qsort(k->wakers, k->nwakers, sizeof(*k->wakers), cmp_waker);
}

#define TOP_WAKERS 4

/* "woken by: timer 25, sched4:122 10, idle 2": who made each thread's wakeups. */
static void text_wakers(struct st_trace *t, struct sa_task **v, int n, FILE *f)
{
	bool any = false;

	for (int i = 0; i < n; i++) {
		struct sa_task *k = v[i];
		if (!k->nwakers)
			continue;
		if (!any)
			fputs("  woken by (from each wakeup's context):\n", f);
		any = true;
		sort_wakers(k);
		fprintf(f, "    %s:%d ", k->comm, k->tid);
		for (size_t w = 0; w < k->nwakers && w < TOP_WAKERS; w++) {
			const struct sa_waker *x = &k->wakers[w];
			if (x->kind == SA_WK_TASK)
				fprintf(f, "%s %s:%d %lu", w ? "," : "", comm_of(&t->a, x->pid), x->pid,
					x->count);
			else
				fprintf(f, "%s %s %lu", w ? "," : "", sa_waker_name(x->kind), x->count);
		}
		if (k->nwakers > TOP_WAKERS)
			fprintf(f, " and %zu more", k->nwakers - TOP_WAKERS);
		fputc('\n', f);
	}
}

static void text_proc(struct st_trace *t, struct sa_proc *p, FILE *f)
{
	struct sa_sum s;
	char label[64];
	int n;

	sa_sum_proc(&t->a, p, &s);
	int own = s.threads - p->left.tasks;
	fprintf(f, "\nprocess %s (pid %d), %d %s", p->comm, p->pid, own,
		plural(own, "thread", "threads"));
	if (p->left.tasks)
		fprintf(f, ", and %d %s until %s exec", p->left.tasks,
			plural(p->left.tasks, "child", "children"),
			p->left.tasks == 1 ? "its" : "their");
	fputc('\n', f);
	fprintf(f, "  %-22s %9s %9s %9s %9s %7s %6s %5s %4s %9s %7s %26s\n", "", "", "", "", "",
		"", "", "", "", "", "", "wakeup latency (ms)");
	fprintf(f, "  %-22s %9s %9s %9s %9s %7s %6s %5s %4s %9s %7s %8s %8s %8s\n", "task",
		"run ms", "wait ms", "sleep ms", "block ms", "switch", "invol", "migr", "cpus",
		"maxwait", "wakeups", "avg", "p99", "max");
	text_row(f, "all threads", &s);
	struct sa_task **v = threads_of(&t->a, p, &n);
	for (int i = 0; i < n; i++) {
		struct sa_sum ts;
		sa_sum_task(v[i], &ts);
		snprintf(label, sizeof(label), "%s:%d", v[i]->comm, v[i]->tid);
		text_row(f, label, &ts);
	}
	if (p->left.tasks) {
		struct sa_sum ls;
		sa_sum_left(p, &ls);
		snprintf(label, sizeof(label), "children before exec");
		text_row(f, label, &ls);
	}
	text_wakers(t, v, n, f);
	free(v);
	text_parallelism(p, &s, f);
	text_why(t, p, f);
	if (p->ntop)
		fputs("  longest wakeup latencies:\n", f);
	for (int i = 0; i < p->ntop; i++) {
		const struct sa_lat *l = &p->top[i];
		fprintf(f, "    %9.3f ms  %s:%d on CPU %d at %.6f, the CPU ran %s:%d before it\n",
			ms(l->ns), comm_of(&t->a, l->pid), l->pid, l->cpu, (double)l->ts / 1e9,
			l->holder_comm, l->holder);
	}
}

struct ran {
	int pid;
	uint64_t ns;
};

static int cmp_ran(const void *x, const void *y)
{
	const struct ran *a = x, *b = y;
	return a->ns < b->ns ? 1 : a->ns > b->ns ? -1 : a->pid - b->pid;
}

/* The tasks that ran on a CPU, most run time first; *n of them. */
static struct ran *ran_on(const struct sa_cpu *c, int *n)
{
	struct ran *v = xmalloc(sizeof(*v) * (c->ran.n ? c->ran.n : 1));
	*n = 0;
	tidmap_foreach(&c->ran, s)
		v[(*n)++] = (struct ran){ s->tid, *(uint64_t *)s->val };
	qsort(v, (size_t)*n, sizeof(*v), cmp_ran);
	return v;
}

static double pct_of(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

static void text_cpus(struct st_trace *t, FILE *f)
{
	uint64_t w = sa_window(&t->a);

	fprintf(f, "\n  %-4s %6s %6s %8s  %s\n", "cpu", "busy%", "idle%", "switches",
		"who ran there (share of the window)");
	for (int i = 0; i < t->a.ncpus; i++) {
		const struct sa_cpu *c = &t->a.cpus[i];
		int n;
		struct ran *v = ran_on(c, &n);
		fprintf(f, "  %-4d %6.1f %6.1f %8lu  ", i, pct_of(c->busy_ns, w),
			100.0 - pct_of(c->busy_ns, w), c->switches);
		for (int k = 0; k < n && k < TOP_PER_CPU; k++)
			fprintf(f, "%s%s:%d %.1f%%", k ? ", " : "", comm_of(&t->a, v[k].pid), v[k].pid,
				pct_of(v[k].ns, w));
		if (n > TOP_PER_CPU)
			fprintf(f, ", %d more", n - TOP_PER_CPU);
		fputc('\n', f);
		free(v);
	}
}

/* The two tasks outside p that p's threads waited behind longest, by name: "python3 and protoc". */
static void behind(struct st_trace *t, struct sa_proc *p, char *buf, size_t len)
{
	const char *names[2] = { NULL, NULL };
	uint64_t own = 0, others = 0;
	int n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < p->nwhy; i++) {	/* sorted: longest first */
		const struct sa_why *w = &p->why[i];
		const struct sa_task *h = w->kind == SA_WHY_WAIT && w->holder > 0 ?
					  sa_task_find(&t->a, w->holder) : NULL;
		if (!h)
			continue;
		if (h->proc == p) {
			own += w->ns;
			continue;
		}
		others += w->ns;
		if (n < 2 && (!n || strcmp(names[0], h->comm) != 0))
			names[n++] = h->comm;
	}
	/*
	 * The biggest share leads: a program whose threads mostly waited behind each
	 * other is told so first, whoever else held a CPU for a moment.
	 */
	if (own && own >= others)
		snprintf(buf, len, ", mostly behind each other%s%s%s%s",
			 n ? " (then " : "", n ? names[0] : "", n == 2 ? " and " : "",
			 n ? (n == 2 ? names[1] : "") : "");
	else if (n == 2)
		snprintf(buf, len, ", mostly behind %s and %s%s", names[0], names[1],
			 own ? " (and each other)" : "");
	else if (n == 1)
		snprintf(buf, len, ", mostly behind %s%s", names[0], own ? " and each other" : "");
	if (own && own >= others && n)
		strncat(buf, ")", len - strlen(buf) - 1);
}

/*
 * One line that says what limited the process: how many CPUs its threads kept
 * busy on average, where most of the rest of their time went, and the lock they
 * slept on longest.  Time waiting for other threads to exit (joins) is left out:
 * it is the others' time again.
 */
static bool verdict(struct st_trace *t, struct sa_proc *p, char *buf, size_t len)
{
	struct sa_sum s;
	uint64_t by[SA_CAUSE_SYSCALL + 1] = { 0 }, join = 0;
	const struct sa_why *lock = NULL;
	int workers = 0;
	char extra[200] = "", what[400];

	join = p->left.join_ns;

	sa_sum_proc(&t->a, p, &s);
	sa_why_sort(p);
	st_name_locks(t, p);
	for (const struct sa_task *k = t->a.task_list; k; k = k->next)
		if (k->proc == p) {
			uint64_t wall = k->run_ns + k->wait_ns + k->sleep_ns + k->blocked_ns;
			workers += k->join_ns * 2 < wall;
			join += k->join_ns;
		}
	for (size_t i = 0; i < p->nwhy; i++) {
		enum sa_cause c = sa_why_cause(&p->why[i]);
		if (c == SA_CAUSE_JOIN)
			continue;
		by[c] += p->why[i].ns;
		if (c == SA_CAUSE_LOCK && !lock)
			lock = &p->why[i];
	}
	uint64_t all = s.run_ns + s.wait_ns + s.sleep_ns + s.blocked_ns - join;
	if (!all)
		return false;
	int top = SA_CAUSE_CPU;
	for (int c = 1; c <= SA_CAUSE_SYSCALL; c++)
		if (by[c] > by[top])
			top = c;
	if (s.run_ns >= by[top]) {
		snprintf(what, sizeof(what), "%.0f%% of their time they ran",
			 100.0 * (double)s.run_ns / (double)all);
	} else if (top == SA_CAUSE_CPU) {
		behind(t, p, extra, sizeof(extra));
		snprintf(what, sizeof(what), "%.0f%% of their time they waited for a CPU%s",
			 100.0 * (double)by[top] / (double)all, extra);
	} else {
		static const char *const verbs[] = {
			[SA_CAUSE_LOCK] = "slept on locks", [SA_CAUSE_IO] = "waited for I/O",
			[SA_CAUSE_SLEEP] = "slept", [SA_CAUSE_SYSCALL] = "were blocked in syscalls",
		};
		snprintf(what, sizeof(what), "%.0f%% of their time they %s",
			 100.0 * (double)by[top] / (double)all, verbs[top]);
	}
	if (lock && lock->sym)
		snprintf(extra, sizeof(extra), "; %.0f ms on the lock `%s`", ms(lock->ns), lock->sym);
	else if (lock)
		snprintf(extra, sizeof(extra), "; %.0f ms on the lock at 0x%llx", ms(lock->ns),
			 (unsigned long long)lock->addr);
	else
		extra[0] = '\0';
	char name[SA_COMM + 16];
	if (p->comm[0])
		snprintf(name, sizeof(name), "%s", p->comm);
	else
		snprintf(name, sizeof(name), "pid %d", p->pid);	/* no event named it */
	snprintf(buf, len, "%d %s of %s reached %.2f CPUs on average: %s%s", workers,
		 plural(workers, "thread", "threads"), name, s.parallelism, what, extra);
	return true;
}

static void text_verdict(struct st_trace *t, struct sa_proc *p, FILE *f)
{
	char line[800];

	if (verdict(t, p, line, sizeof(line)))
		fprintf(f, "%s\n", line);
}

static void print_text(struct st_trace *t, const struct st_options *o, struct sel *s, FILE *f)
{
	if (!t->a.switches_read) {
		text_header(t, o, f);	/* it says why nothing follows */
		return;
	}
	if (s->n)
		text_verdict(t, s->p[0], f);
	text_header(t, o, f);
	fprintf(f, "showing %s\n", s->why);
	for (int i = 0; i < s->n; i++)
		text_proc(t, s->p[i], f);
	text_cpus(t, f);
}

/* ---- JSON ---- */

static void js_sum(struct strbuf *b, const struct sa_sum *s)
{
	sb_printf(b, "\"runtime_ms\":%.6f,\"wait_ms\":%.6f,\"sleep_ms\":%.6f,\"blocked_ms\":%.6f,"
		  "\"switches\":%lu,\"involuntary_switches\":%lu,\"migrations\":%lu,\"cpus_used\":%d,"
		  "\"max_wait_ms\":%.6f,\"wakeup_latency_ms\":{\"count\":%zu,\"avg\":%.6f,"
		  "\"p50\":%.6f,\"p99\":", ms(s->run_ns), ms(s->wait_ns), ms(s->sleep_ns),
		  ms(s->blocked_ns), s->switches, s->involuntary, s->migrations, s->ncpus,
		  ms(s->max_wait_ns), s->nlat, ms(s->lat_avg), ms(s->lat_p50));
	/* A 99th percentile of fewer than MIN_P99 samples is just the maximum: none given. */
	if (s->nlat >= MIN_P99)
		sb_printf(b, "%.6f", ms(s->lat_p99));
	else
		sb_add(b, "null");
	sb_printf(b, ",\"max\":%.6f},\"parallelism\":%.4f", ms(s->lat_max), s->parallelism);
}

/* The thread's run time by the kernel's count, when the file has it. */
static void js_kernel(struct st_trace *t, const struct sa_task *k, struct strbuf *b)
{
	sb_add(b, ",\"kernel_runtime_ms\":");
	if (!t->has[ST_RUNTIME]) {
		sb_add(b, "null");
		return;
	}
	sb_printf(b, "%.6f,\"whole_life\":%s,\"kernel_clock_runtime_ms\":%.6f,"
		  "\"runtime_diff_pct\":", ms(k->kernel_ns), k->born && k->died ? "true" : "false",
		  ms(k->like_ns));
	if (k->kernel_ns)
		sb_printf(b, "%.4f,\"kernel_clock_diff_pct\":%.4f", sa_task_diff_pct(k),
			  sa_task_like_diff_pct(k));
	else
		sb_add(b, "null,\"kernel_clock_diff_pct\":null");
}

/* Who woke the thread: [{kind, pid, comm, count}], pid and comm null but for a task. */
static void js_wakers(struct st_trace *t, struct sa_task *k, struct strbuf *b)
{
	sort_wakers(k);
	sb_add(b, ",\"wakers\":[");
	for (size_t w = 0; w < k->nwakers; w++) {
		const struct sa_waker *x = &k->wakers[w];
		sb_printf(b, "%s{\"kind\":\"%s\",\"pid\":", w ? "," : "", sa_waker_name(x->kind));
		if (x->kind == SA_WK_TASK) {
			sb_printf(b, "%d,\"comm\":", x->pid);
			json_str(b, comm_of(&t->a, x->pid));
		} else {
			sb_add(b, "null,\"comm\":null");
		}
		sb_printf(b, ",\"count\":%lu}", x->count);
	}
	sb_addc(b, ']');
}

/* The run-time check over all tasks (see sched_check.c), or what run time rests on without it. */
static void js_check(struct st_trace *t, struct strbuf *b)
{
	struct sa_check c;

	sb_add(b, ",\"runtime_check\":{\"event\":");
	if (!t->has[ST_RUNTIME]) {
		sb_printf(b, "null,\"inferred_switch_ins\":%lu,\"inferred_switch_outs\":%lu,"
			  "\"note\":\"no sched_stat_runtime in the file: run time is from switches "
			  "only, not checked\"}", t->a.inferred, t->a.missed_out);
		return;
	}
	sa_runtime_check(&t->a, &c);
	sb_printf(b, "\"sched_stat_runtime\",\"tasks_with_runtime\":%lu,\"threads_compared\":%lu,"
		  "\"threads_off\":%lu,\"threads_off_switch_to_switch\":%lu,\"worst_tid\":",
		  c.with_runtime, c.compared, c.disagree, c.disagree_raw);
	if (c.compared)
		sb_printf(b, "%d,\"worst_diff_pct\":%.4f,\"worst_diff_ms\":%.6f,"
			  "\"worst_switch_to_switch_tid\":%d,\"worst_switch_to_switch_diff_pct\":%.4f,"
			  "\"worst_switch_to_switch_diff_ms\":%.6f}", c.worst_tid, c.worst_pct,
			  (double)c.worst_ns / 1e6, c.worst_raw_tid, c.worst_raw_pct,
			  (double)c.worst_raw_ns / 1e6);
	else
		sb_add(b, "null}");
}

static void js_why(struct st_trace *t, struct sa_proc *p, struct strbuf *b)
{
	char label[160];

	sa_why_sort(p);
	st_name_locks(t, p);
	sb_add(b, ",\"off_cpu_causes\":[");
	for (size_t i = 0; i < p->nwhy; i++) {
		const struct sa_why *w = &p->why[i];
		sa_why_label(&t->a, p, w, label, sizeof(label));
		sb_printf(b, "%s{\"ms\":%.6f,\"cause\":\"%s\",\"kind\":\"%s\",", i ? "," : "",
			  ms(w->ns), w->kind == SA_WHY_WAIT ? "wait" : "sleep",
			  sa_cause_name(sa_why_cause(w)));
		if (w->kind == SA_WHY_WAIT) {
			const struct sa_task *h = w->holder > 0 ? sa_task_find(&t->a, w->holder) : NULL;
			sb_printf(b, "\"holder_pid\":%d,\"same_process\":%s,", w->holder,
				  h && h->proc == p ? "true" : "false");
		} else {
			const char *name = sa_why_syscall(w->nr);
			sb_add(b, "\"syscall\":");
			if (name)
				json_str(b, name);
			else
				sb_add(b, "null");
			if (sa_why_is_futex(w->nr)) {
				sb_printf(b, ",\"futex\":\"0x%llx\",\"symbol\":", (unsigned long long)w->addr);
				if (w->sym)
					json_str(b, w->sym);
				else
					sb_add(b, "null");
			}
			if (w->joined)
				sb_printf(b, ",\"joined_tid\":%d", w->joined);
			sb_addc(b, ',');
		}
		sb_add(b, "\"label\":");
		json_str(b, label);
		sb_addc(b, '}');
	}
	sb_addc(b, ']');
}

static void js_proc(struct st_trace *t, struct sa_proc *p, struct strbuf *b)
{
	struct sa_sum s;
	int n;

	sa_sum_proc(&t->a, p, &s);
	sb_printf(b, "{\"pid\":%d,\"comm\":", p->pid);
	json_str(b, p->comm);
	sb_printf(b, ",\"threads\":%d,\"verdict\":", s.threads);
	char line[800];
	if (verdict(t, p, line, sizeof(line)))
		json_str(b, line);
	else
		sb_add(b, "null");
	sb_addc(b, ',');
	js_sum(b, &s);
	if (p->left.tasks) {
		struct sa_sum ls;
		sa_sum_left(p, &ls);
		sb_printf(b, ",\"before_exec\":{\"tasks\":%d,", ls.threads);
		js_sum(b, &ls);
		sb_addc(b, '}');
	} else {
		sb_add(b, ",\"before_exec\":null");
	}
	sb_printf(b, ",\"wall_ms\":%.6f,\"parallelism_hist_ms\":[", ms(s.wall_ns));
	int top = 0;
	for (int k = 0; k <= SA_PAR_MAX; k++)
		if (p->hist[k])
			top = k;
	for (int k = 0; k <= top; k++)
		sb_printf(b, "%s%.6f", k ? "," : "", ms(p->hist[k]));
	sb_addc(b, ']');
	js_why(t, p, b);
	sb_add(b, ",\"syscalls_traced\":");
	sb_add(b, t->a.syscalls ? "true" : "false");
	sb_add(b, ",\"longest_wakeup_latencies\":[");
	for (int i = 0; i < p->ntop; i++) {
		const struct sa_lat *l = &p->top[i];
		sb_printf(b, "%s{\"ms\":%.6f,\"tid\":%d,\"cpu\":%d,\"ts\":%.9f,\"holder_pid\":%d,"
			  "\"holder_comm\":", i ? "," : "", ms(l->ns), l->pid, l->cpu,
			  (double)l->ts / 1e9, l->holder);
		json_str(b, l->holder_comm);
		sb_addc(b, '}');
	}
	sb_add(b, "],\"threads_detail\":[");
	struct sa_task **v = threads_of(&t->a, p, &n);
	for (int i = 0; i < n; i++) {
		struct sa_sum ts;
		sa_sum_task(v[i], &ts);
		sb_printf(b, "%s{\"tid\":%d,\"comm\":", i ? "," : "", v[i]->tid);
		json_str(b, v[i]->comm);
		sb_addc(b, ',');
		js_sum(b, &ts);
		js_kernel(t, v[i], b);
		js_wakers(t, v[i], b);
		sb_addc(b, '}');
	}
	free(v);
	sb_add(b, "]}");
}

static void js_cpus(struct st_trace *t, struct strbuf *b)
{
	uint64_t w = sa_window(&t->a);

	sb_add(b, "\"cpus\":[");
	for (int i = 0; i < t->a.ncpus; i++) {
		const struct sa_cpu *c = &t->a.cpus[i];
		int n;
		struct ran *v = ran_on(c, &n);
		sb_printf(b, "%s{\"cpu\":%d,\"busy_pct\":%.3f,\"idle_pct\":%.3f,\"switches\":%lu,"
			  "\"tasks\":[", i ? "," : "", i, pct_of(c->busy_ns, w),
			  100.0 - pct_of(c->busy_ns, w), c->switches);
		for (int k = 0; k < n; k++) {
			sb_printf(b, "%s{\"pid\":%d,\"comm\":", k ? "," : "", v[k].pid);
			json_str(b, comm_of(&t->a, v[k].pid));
			sb_printf(b, ",\"ms\":%.6f}", ms(v[k].ns));
		}
		sb_add(b, "]}");
		free(v);
	}
	sb_addc(b, ']');
}

static void print_json(struct st_trace *t, struct sel *s, FILE *f)
{
	struct strbuf b = STRBUF_INIT;

	sb_printf(&b, "{\"start\":%.9f,\"end\":%.9f,\"window_ms\":%.6f,\"wakeup_event\":",
		  (double)t->a.start / 1e9, (double)t->a.end / 1e9, ms(sa_window(&t->a)));
	json_str(&b, t->use_waking ? "sched_waking" : t->has[ST_WAKEUP] ? "sched_wakeup" : "");
	sb_add(&b, ",\"follow\":");
	json_str(&b, t->follow ? t->follow : "");
	sb_printf(&b, ",\"complete_cpus\":%s,\"lost_events\":%lld,\"missing_switch_ins\":%lu,"
		  "\"inferred_switch_ins\":%lu,\"inferred_switch_ins_unknown_start\":%lu,"
		  "\"inferred_switch_outs\":%lu,\"switch_tail_records\":%lu,\"switch_events\":%lu,"
		  "\"lost_gaps\":%lu,\"missing_events\":[",
		  !t->follow || !strcmp(t->follow, "system") ? "true" : "false",
		  t->lost, t->a.gaps, t->a.inferred, t->a.inferred_late, t->a.missed_out,
		  t->a.tail_records, t->a.nevents[SA_SWITCH], t->a.lost_gaps);
	for (int i = 0, k = 0; i < ST_NEVENTS; i++) {
		if (!missing(t, i))
			continue;
		sb_add(&b, k++ ? "," : "");
		json_str(&b, st_event_names[i]);
	}
	sb_printf(&b, "],\"waker_events\":{\"hrtimer\":%s,\"irq\":%s,\"softirq\":%s}",
		  t->has_hrtimer ? "true" : "false", t->has_irq ? "true" : "false",
		  t->has_softirq ? "true" : "false");
	js_check(t, &b);
	/* Without a switch nothing says which task ran where: no figures, not made-up ones. */
	bool none = !t->a.switches_read;
	sb_add(&b, ",\"selected_by\":");
	json_str(&b, none ? "nothing: no sched_switch events in the window or the buffers read" :
		 s->why);
	sb_add(&b, ",\"processes\":[");
	for (int i = 0; i < s->n && !none; i++) {
		sb_add(&b, i ? "," : "");
		js_proc(t, s->p[i], &b);
	}
	sb_add(&b, "],");
	if (none)
		sb_add(&b, "\"cpus\":[]");
	else
		js_cpus(t, &b);
	sb_add(&b, "}\n");
	fputs(sb_str(&b), f);
	sb_free(&b);
}

int st_print(struct st_trace *t, const struct st_options *o, FILE *out, char *err, size_t errlen)
{
	struct sel s = { 0 };

	if (choose(t, o, &s, err, errlen) < 0) {
		free(s.p);
		return -1;
	}
	if (o->json)
		print_json(t, &s, out);
	else
		print_text(t, o, &s, out);
	free(s.p);
	return 0;
}
