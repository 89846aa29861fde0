/*
 * tracekit view: the trace as one self-contained HTML page.
 *
 * One pass over the reader turns the events into what the page draws: spans of
 * which task ran on each CPU and of each task's state (running, runnable,
 * sleeping, blocked), the events themselves with their field values, and a
 * coarse per-CPU busy overview of the whole trace.  The spans are the ones
 * tracekit sched counts (its analysis rides on the pass and reports them
 * through struct sa_hooks), so the picture and the numbers cannot disagree.
 * function_graph calls become each task's flame chart (view_calls.c).  Past
 * max_events the events and calls stop (the page says so) and the spans feed
 * levels of detail instead (view_lod.c), so a huge trace gives a page of bounded
 * size that still shows every part of it, and the overview covers every event.
 *
 * Everything goes out as one JSON object in a <script type="application/json">
 * element; strings are escaped so that nothing from the trace can end that
 * element (see json_strn_html).  The page's script and style come from
 * assets/ through the header embed.py generates.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "export/view.h"
#include "export/view_assets.h"
#include "export/view_calls.h"
#include "export/view_chunks.h"
#include "export/view_lod.h"
#include "analysis/sched_trace.h"
#include "syscalls/table.h"
#include "tracefile/fields.h"
#include "analysis/sched_guest.h"
#include "tracefile/merge.h"
#include "tracefile/reader.h"
#include "util/die.h"
#include "util/json.h"
#include "util/progress.h"
#include "util/strbuf.h"
#include "util/tidmap.h"

/* The page's state numbers (timeline.js STATES) are sched's. */
_Static_assert(SA_RUNNING == 1 && SA_RUNNABLE == 2 && SA_SLEEP == 3 && SA_BLOCKED == 4,
	       "timeline.js numbers task states as enum sa_state does");

#define OV_BINS 4096	/* per CPU: the overview's resolution */
/*
 * The progress line is looked at every this many events (a power of two), and
 * drawn from twice that on: a trace that big is one whose reading takes a while.
 */
#define PROGRESS_EVENTS 65536

struct task {
	int pid;
	char comm[16];
	uint64_t runtime;
	bool interest;
	bool lod_candidate;	/* no command known: one of the busiest at the cap, levels kept */
	bool tgid_checked;	/* past the cap: its leader's interest looked up (lost forks) */
	struct strbuf spans;	/* "start,end,state," for this task, relative ns */
	uint64_t spans_end;	/* where its last span ended: spans never overlap */
	long sys_nr;		/* the syscall it is in, -1 none */
	uint64_t sys_arg;	/* its first argument, kept for futex (the word) */
	uint64_t sys_since;
	struct strbuf sys;	/* "start,end,nr," syscall spans, relative ns */
	struct strbuf user;	/* "start,end,type," user tracepoints: instants have start == end */
	uint64_t user_open[8];	/* NAME_begin times not yet ended, innermost last */
	int user_depth;
	struct vw_calls_task *calls;	/* function_graph calls, when the trace has them */
	int machine;		/* several files: its file's index (pid is pid_base + its pid) */
};

struct cpu_lane {
	uint64_t spans_end;	/* where its last slice ended */
	uint64_t *busy;		/* OV_BINS bins of busy ns */
};

struct view {
	struct tep_handle *tep;
	struct tf_reader *r;
	uint64_t t0, last;
	uint64_t from, to;	/* the window asked for (0, UINT64_MAX: all), ns */
	bool started;
	long nevents, kept, max_events;
	bool full;		/* past max_events: no more detail */
	struct vw_lod lod;	/* ... but levels of detail from there on */
	int ncpus;
	struct cpu_lane *cpus;
	uint64_t bin_ns;	/* overview bin width, doubles as the trace grows */
	struct tidmap tasks;
	struct vw_calls calls;	/* function names and what the flame chart cuts */
	int *type_of;		/* event id -> index in types, -1 unseen */
	int ntype_of;
	struct strbuf types, events, cpu_spans;
	struct strbuf scratch;
	bool sys_used[1024];	/* syscall numbers in the page: their names go in it too */
	long inferred;		/* switch-ins out of idle the kernel did not record */
	long missed_out;	/* switch-outs it did not record */
	long long lost;		/* events the kernel lost (sched's count) ... */
	unsigned long lost_gaps;	/* ... in this many gaps */
	int ntypes;
	const char *root_comm;	/* basename of the recorded command, or NULL */
	bool have_pids, have_root;
	struct vw_chunks *chunks;	/* --serve: every event and span, for windows */
	struct st_loader *sl;		/* sched's pass: who made each wakeup */
	struct strbuf one;		/* one event's text on its way to the chunks */
	/*
	 * Several files: the machine of the event at hand.  Its tasks' pids are shifted by
	 * pid_base (guests' pids would meet the host's), its CPUs by cpu_base (the lanes
	 * of all machines' CPUs, one after the other), its event ids by machine * 65536.
	 */
	int machine, pid_base, cpu_base;
};

/* Several files: a machine's pids on the page start here (past any kernel's pid_max). */
#define VW_PID_BASE 10000000
#define VW_TYPE_BASE 65536

static void json_cstr(struct strbuf *sb, const char *s)
{
	json_strn_html(sb, s, strlen(s));
}

static struct task *task_get(struct view *v, int pid)
{
	struct task *t = pid > 0 ? tidmap_get(&v->tasks, pid + v->pid_base) : NULL;

	if (t || pid <= 0)
		return t;
	t = xcalloc(1, sizeof(*t));
	t->pid = pid + v->pid_base;
	t->machine = v->machine;
	t->sys_nr = -1;
	const char *comm = tep_data_comm_from_pid(v->tep, pid);
	snprintf(t->comm, sizeof(t->comm), "%s", comm ? comm : "<...>");
	tidmap_put(&v->tasks, t->pid, t);
	return t;
}

static void task_set_comm(struct task *t, const char *comm)
{
	if (t && comm && *comm)
		snprintf(t->comm, sizeof(t->comm), "%s", comm);
}

/* Levels past the cap for the command's tasks, threads whose fork was lost included. */
static bool lod_wanted(struct view *v, struct task *t)
{
	struct task *leader;

	if (!t->interest && !t->tgid_checked && !v->pid_base) {
		int tgid = tf_reader_tgid(v->r, t->pid);
		t->tgid_checked = true;
		if (tgid > 0 && tgid != t->pid && (leader = tidmap_get(&v->tasks, tgid)) &&
		    leader->interest)
			t->interest = true;
	}
	return t->interest || t->lod_candidate;
}

/* sched's analysis closed a span of tid's state (sa_state: running .. blocked = ST_*). */
static void on_task_span(void *ctx, int tid, enum sa_state state, int cpu, uint64_t a,
			 uint64_t b)
{
	struct view *v = ctx;
	struct task *t = task_get(v, tid);

	if (!t)
		return;
	if (cpu >= 0)
		cpu += v->cpu_base;
	if (a < t->spans_end)
		a = t->spans_end;
	if (b <= a)
		return;
	if (state == SA_RUNNING)
		t->runtime += b - a;
	uint64_t ra = a - v->t0, rb = b - v->t0, cut = v->full ? v->lod.from : rb;
	if (v->chunks)
		vw_chunks_task_span(v->chunks, tid, ra, rb, (int)state, cpu);
	/* Running spans say where: "start,end,state,cpu," (cpu -1 otherwise). */
	if (ra < cut)
		sb_printf(&t->spans, "%llu,%llu,%d,%d,", (unsigned long long)ra,
			  (unsigned long long)(rb < cut ? rb : cut), (int)state, cpu);
	if (v->full && rb > cut && lod_wanted(v, t))
		vw_lod_task(&v->lod, tid, (int)state, ra, rb);
	t->spans_end = b;
}

/* Busy time [a, b) on a CPU's overview bins; the bins widen when the trace outgrows them. */
static void overview_add(struct view *v, struct cpu_lane *c, uint64_t a, uint64_t b)
{
	a -= v->t0;
	b -= v->t0;
	while (b >= v->bin_ns * OV_BINS) {
		for (int i = 0; i < v->ncpus; i++) {
			uint64_t *bz = v->cpus[i].busy;
			for (int k = 0; k < OV_BINS / 2; k++)
				bz[k] = bz[2 * k] + bz[2 * k + 1];
			memset(bz + OV_BINS / 2, 0, OV_BINS / 2 * sizeof(*bz));
		}
		v->bin_ns *= 2;
	}
	while (a < b) {
		uint64_t bin = a / v->bin_ns;
		uint64_t end = (bin + 1) * v->bin_ns;
		if (end > b)
			end = b;
		c->busy[bin] += end - a;
		a = end;
	}
}

/* ... and a slice of pid on a CPU. */
static void on_cpu_slice(void *ctx, int cpu, uint64_t a, uint64_t b, int pid)
{
	struct view *v = ctx;

	cpu += v->cpu_base;
	if (pid > 0)
		pid += v->pid_base;
	if (cpu < 0 || cpu >= v->ncpus)
		return;
	struct cpu_lane *c = &v->cpus[cpu];
	if (a < c->spans_end)
		a = c->spans_end;
	if (b <= a)
		return;
	overview_add(v, c, a, b);
	/* Past the cap, the part before it still in detail, the rest in the levels. */
	uint64_t ra = a - v->t0, rb = b - v->t0, cut = v->full ? v->lod.from : rb;
	if (v->chunks)
		vw_chunks_cpu_span(v->chunks, cpu, ra, rb, pid);
	if (ra < cut)
		sb_printf(&v->cpu_spans, "%d,%llu,%llu,%d,", cpu, (unsigned long long)ra,
			  (unsigned long long)(rb < cut ? rb : cut), pid);
	if (v->full && rb > cut)
		vw_lod_cpu(&v->lod, cpu, ra, rb, pid);
	c->spans_end = b;
}

static long long field_num(struct tf_event *e, const char *name)
{
	unsigned long long val = 0;
	struct tep_format_field *f = tep_find_field(e->event, name);

	if (!f || tep_read_number_field(f, e->record->data, &val) < 0)
		return -1;
	return (long long)val;
}

/* A char-array or __data_loc string field; NULL when absent. */
static const char *field_str(struct tf_event *e, struct tep_format_field *f, int *len)
{
	const char *s;
	return tf_field_string(f, e->record, &s, len) ? s : NULL;
}

static const char *comm_field(struct tf_event *e, const char *name, char *buf)
{
	struct tep_format_field *f = tep_find_field(e->event, name);
	int len;
	const char *s = f ? field_str(e, f, &len) : NULL;

	if (!s)
		return NULL;
	if (len > 15)
		len = 15;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return buf;
}

static bool is_string(struct tep_format_field *f)
{
	return (f->flags & TEP_FIELD_IS_STRING) ||
	       ((f->flags & TEP_FIELD_IS_ARRAY) && strstr(f->type, "char"));
}

static int type_index(struct view *v, struct tep_event *ev)
{
	int key = ev->id + v->machine * VW_TYPE_BASE;

	if (key >= v->ntype_of) {
		int n = key + 64;
		v->type_of = xrealloc(v->type_of, n * sizeof(int));
		for (int i = v->ntype_of; i < n; i++)
			v->type_of[i] = -1;
		v->ntype_of = n;
	}
	if (v->type_of[key] >= 0)
		return v->type_of[key];
	struct strbuf name = STRBUF_INIT;
	sb_printf(&name, "%s:%s", ev->system, ev->name);
	sb_add(&v->types, v->ntypes ? ",[" : "[");
	json_cstr(&v->types, sb_str(&name));
	sb_add(&v->types, ",[");
	int i = 0;
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next, i++) {
		if (i)
			sb_addc(&v->types, ',');
		json_cstr(&v->types, f->name);
	}
	sb_add(&v->types, "]]");
	sb_free(&name);
	v->type_of[key] = v->ntypes;
	return v->ntypes++;
}

/* A fixed array of numbers (sys_enter's args) as "(1, 7ffd2a10, ...)", hex like trace-cmd. */
static bool array_str(struct tf_event *e, struct tep_format_field *f, struct strbuf *out)
{
	int esz = f->elementsize, n = f->arraylen;

	if (esz <= 0 || esz > 8 || n <= 0 || (f->flags & TEP_FIELD_IS_DYNAMIC) ||
	    f->offset + esz * n > e->record->size)
		return false;
	sb_reset(out);
	sb_addc(out, '(');
	for (int i = 0; i < n; i++)
		sb_printf(out, "%s%llx", i ? ", " : "",
			  tep_read_number(e->event->tep, (char *)e->record->data + f->offset + i * esz,
					  esz));
	sb_addc(out, ')');
	return true;
}

/* The function tracers' addresses (func, ip, parent_ip) as the kernel's function names. */
static bool kernel_function(struct tf_event *e, struct tep_format_field *f, struct strbuf *sb)
{
	unsigned long long addr;
	const char *name;

	if (strcmp(e->event->system, "ftrace") ||
	    (strcmp(f->name, "func") && strcmp(f->name, "ip") && strcmp(f->name, "parent_ip")) ||
	    tep_read_number_field(f, e->record->data, &addr) < 0 ||
	    !(name = tep_find_function(e->event->tep, addr)))
		return false;
	json_strn_html(sb, name, strlen(name));
	return true;
}

/* The events that wake a task: sched_wake_idle_without_ipi shares their prefix, not their meaning. */
static bool is_wakeup(const char *name)
{
	return !strcmp(name, "sched_waking") || !strcmp(name, "sched_wakeup") ||
	       !strcmp(name, "sched_wakeup_new");
}

/* The event as the page's "[time,cpu,pid,type,fields...]", appended to sb. */
static void event_json(struct view *v, struct strbuf *sb, struct tf_event *e, int pid)
{
	sb_printf(sb, "[%llu,%d,%d,%d", (unsigned long long)(e->ts - v->t0),
		  e->cpu + v->cpu_base, pid > 0 ? pid + v->pid_base : pid,
		  e->event ? type_index(v, e->event) : -1);
	for (struct tep_format_field *f = e->event ? e->event->format.fields : NULL; f;
	     f = f->next) {
		unsigned long long val;
		int len;
		const char *s;

		sb_addc(sb, ',');
		if (is_string(f) && (s = field_str(e, f, &len))) {
			json_strn_html(sb, s, len);
		} else if (kernel_function(e, f, sb)) {
			/* named: a 64-bit address is no exact JSON number anyway */
		} else if (!(f->flags & TEP_FIELD_IS_ARRAY) &&
			   tep_read_number_field(f, e->record->data, &val) == 0) {
			if (f->flags & TEP_FIELD_IS_SIGNED)
				sb_printf(sb, "%lld", (long long)val);
			else
				sb_printf(sb, "%llu", val);
		} else if ((f->flags & TEP_FIELD_IS_ARRAY) && array_str(e, f, &v->scratch)) {
			json_strn_html(sb, sb_str(&v->scratch), v->scratch.len);
		} else {
			sb_add(sb, "null");
		}
	}
	/*
	 * A wakeup says who made it after its fields (task, timer, hardirq, softirq,
	 * idle): the task its interrupt hit is not its waker.
	 */
	int wk = v->sl && e->event && is_wakeup(e->event->name) ? st_waker_of(v->sl, e) : 0;
	if (wk > 0 && wk <= SA_WK_N)
		sb_printf(sb, ",\"%s\"", sa_waker_name((enum sa_waker_kind)(wk - 1)));
	sb_addc(sb, ']');
}

static void emit_event(struct view *v, struct tf_event *e, int pid)
{
	if (v->kept)
		sb_add(&v->events, ",\n");
	event_json(v, &v->events, e, pid);
	v->kept++;
}

/* Task names from the events that carry them; the states come from sched's hooks. */
static void on_switch(struct view *v, struct tf_event *e)
{
	char buf[16];

	task_set_comm(task_get(v, (int)field_num(e, "prev_pid")), comm_field(e, "prev_comm", buf));
	task_set_comm(task_get(v, (int)field_num(e, "next_pid")), comm_field(e, "next_comm", buf));
}

static void on_wake(struct view *v, struct tf_event *e)
{
	char buf[16];

	task_set_comm(task_get(v, (int)field_num(e, "pid")), comm_field(e, "comm", buf));
}

/* A sys_enter's first argument: raw_syscalls' args[0], or the field after __syscall_nr. */
static uint64_t first_arg(struct tf_event *e)
{
	struct tep_format_field *f = tep_find_field(e->event, "args");

	if (!f) {
		f = tep_find_field(e->event, "__syscall_nr");
		f = f ? f->next : NULL;
	}
	int sz = !f ? 0 : (f->flags & TEP_FIELD_IS_ARRAY) ? (int)f->elementsize : (int)f->size;
	if (sz <= 0 || sz > 8 || f->offset + sz > e->record->size)
		return 0;
	/* User addresses stay below 2^53: exact as JSON numbers. */
	return tep_read_number(e->event->tep, (char *)e->record->data + f->offset, sz) &
	       ((1ull << 53) - 1);
}

/* raw_syscalls:sys_enter/exit (id) or syscalls:sys_enter_NAME/exit_NAME (__syscall_nr). */
static void on_syscall(struct view *v, struct tf_event *e, int pid, bool enter)
{
	struct task *t = task_get(v, pid);
	if (!t)
		return;
	long long nr = field_num(e, "id");
	if (nr < 0)
		nr = field_num(e, "__syscall_nr");
	if (nr >= 0 && nr < 1024 && (!v->full || v->chunks))
		v->sys_used[nr] = true;	/* the page names every syscall of its events */
	if (enter) {
		t->sys_nr = nr;
		t->sys_since = e->ts;
		t->sys_arg = sa_why_is_futex(nr) ? first_arg(e) : 0;
		return;
	}
	if (v->chunks && t->sys_nr >= 0 && t->sys_nr == nr && nr < 1024 && e->ts >= v->t0)
		vw_chunks_sys_span(v->chunks, pid, (t->sys_since > v->t0 ? t->sys_since : v->t0) -
				   v->t0, e->ts - v->t0, (long)nr, t->sys_arg);
	/* Kept for every task: any task can be given a lane on the page. */
	if (t->sys_nr >= 0 && t->sys_nr == nr && !v->full && nr < 1024 && e->ts >= v->t0) {
		if (t->sys_since < v->t0)
			t->sys_since = v->t0;
		sb_printf(&t->sys, "%llu,%llu,%lld,%llu,", (unsigned long long)(t->sys_since - v->t0),
			  (unsigned long long)(e->ts - v->t0), nr, (unsigned long long)t->sys_arg);
		v->sys_used[nr] = true;
	}
	t->sys_nr = -1;
}

static void on_fork(struct view *v, struct tf_event *e)
{
	char buf[16];
	struct task *p = task_get(v, (int)field_num(e, "parent_pid"));
	struct task *c = task_get(v, (int)field_num(e, "child_pid"));

	task_set_comm(c, comm_field(e, "child_comm", buf));
	if (p && c && p->interest)
		c->interest = true;
}

/* The recorded command's first exec marks the root of the tasks of interest. */
static void on_exec(struct view *v, struct tf_event *e, int pid)
{
	struct tep_format_field *f = tep_find_field(e->event, "filename");
	int len;
	const char *s = f ? field_str(e, f, &len) : NULL;
	struct task *t = task_get(v, pid);

	if (!s || !t || v->have_root || !v->root_comm)
		return;
	const char *base = memrchr(s, '/', len);
	base = base ? base + 1 : s;
	if ((size_t)(s + len - base) == strlen(v->root_comm) &&
	    !memcmp(base, v->root_comm, s + len - base)) {
		t->interest = true;
		v->have_root = true;
	}
}

/*
 * A user tracepoint (docs/tracepoints.md) on its thread's lane: an instant, or
 * with NAME_begin ... NAME_end a slice (nested up to 8 deep).
 */
static void on_user(struct view *v, struct tf_event *e, int pid)
{
	struct task *t = task_get(v, pid);
	const char *name = e->event->name;
	size_t len = strlen(name);
	uint64_t ts = e->ts - v->t0, start = ts;

	if (!t || v->full)
		return;
	t->interest = true;
	if (len > 6 && !strcmp(name + len - 6, "_begin")) {
		if (t->user_depth < 8) {
			t->user_open[t->user_depth++] = ts;
			return;
		}
	} else if (len > 4 && !strcmp(name + len - 4, "_end") && t->user_depth > 0) {
		start = t->user_open[--t->user_depth];
	}
	sb_printf(&t->user, "%llu,%llu,%d,", (unsigned long long)start, (unsigned long long)ts,
		  type_index(v, e->event));
}

static int cmp_runtime(const void *a, const void *b);

/*
 * No command or pids known: the page's task lanes will be the busiest tasks of the
 * whole trace, not known until its end; the busiest so far get levels meanwhile.
 */
static void lod_candidates(struct view *v)
{
	size_t n = 0, i = 0;

	tidmap_foreach(&v->tasks, s) {
		if (((struct task *)s->val)->interest)
			return;
		n++;
	}
	struct task **all = xcalloc(n ? n : 1, sizeof(*all));
	tidmap_foreach(&v->tasks, s)
		all[i++] = s->val;
	qsort(all, n, sizeof(*all), cmp_runtime);
	for (i = 0; i < n && i < LOD_TASKS; i++)
		all[i]->lod_candidate = all[i]->runtime > 0;
	free(all);
}

static void on_event(struct view *v, struct tf_event *e)
{
	int pid = tep_data_pid(v->tep, e->record);

	if (!v->started) {
		v->t0 = e->ts > v->from ? e->ts : v->from;
		v->started = true;
	}
	/* Before --from: only what the states and names need, nothing shown. */
	bool shown = e->ts >= v->t0;
	if (shown) {
		v->last = e->ts;
		v->nevents++;
		if (!v->full && v->kept >= v->max_events) {
			v->full = true;
			vw_lod_init(&v->lod, v->ncpus, e->ts - v->t0);
			lod_candidates(v);
		}
		if (!v->full)
			emit_event(v, e, pid);
		if (v->chunks) {
			sb_reset(&v->one);
			event_json(v, &v->one, e, pid);
			vw_chunks_event(v->chunks, e->ts - v->t0, v->one.buf, v->one.len);
		}
	}
	if (!e->event)
		return;
	if (e->event->id >= TF_USER_EVENT_ID_BASE) {
		on_user(v, e, pid);
		return;
	}
	/* function_graph calls: slices for the flame chart under the task's lane. */
	struct task *t = pid > 0 && !strcmp(e->event->system, "ftrace") ? task_get(v, pid) : NULL;
	if (t && vw_calls_event(&v->calls, &t->calls, e->event, e->record, e->ts, v->t0,
				!v->full))
		return;
	const char *name = e->event->name;
	if (strstr(e->event->system, "syscalls") &&
	    (!strncmp(name, "sys_enter", 9) || !strncmp(name, "sys_exit", 8)))
		on_syscall(v, e, pid, name[4] == 'e' && name[5] == 'n');
	else if (!strcmp(name, "sched_switch"))
		on_switch(v, e);
	else if (!strcmp(name, "sched_waking") || !strcmp(name, "sched_wakeup") ||
		 !strcmp(name, "sched_wakeup_new"))
		on_wake(v, e);
	else if (!strcmp(name, "sched_process_fork"))
		on_fork(v, e);
	else if (!strcmp(name, "sched_process_exec"))
		on_exec(v, e, pid);
}

/* "command=./prog a" -> "prog"; "pids=1,2" marks those tasks. */
static void read_notes(struct view *v, struct tf_reader *r, struct strbuf *meta, char **root)
{
	for (int i = 0; i < tf_reader_nnotes(r); i++) {
		const char *n = tf_reader_note(r, i);
		const char *eq = strchr(n, '=');
		if (!eq)
			continue;
		sb_addc(meta, ',');
		json_strn_html(meta, n, eq - n);
		sb_addc(meta, ':');
		json_cstr(meta, eq + 1);
		if (!strncmp(n, "command=", 8)) {
			size_t len = strcspn(eq + 1, " ");
			char *cmd = strndup(eq + 1, len);
			char *base = strrchr(cmd, '/');
			*root = xstrdup(base ? base + 1 : cmd);
			free(cmd);
			/* exec's filename is the full path, comm only 15 bytes: compare the path's base. */
			v->root_comm = *root;
		} else if (!strncmp(n, "command_pid=", 12)) {
			/* Exact, where the exec event may be lost on a busy machine. */
			struct task *t = task_get(v, atoi(eq + 1));
			if (t) {
				t->interest = true;
				v->have_root = true;
			}
		} else if (!strncmp(n, "pids=", 5)) {
			for (const char *p = eq + 1; *p;) {
				char *end;
				struct task *t = task_get(v, (int)strtol(p, &end, 10));
				if (end == p)
					break;
				if (t)
					t->interest = true;
				v->have_pids = true;
				p = end + strspn(end, ",");
			}
		}
	}
}

static size_t calls_len(const struct task *t)
{
	return t->calls ? t->calls->slices.len : 0;
}

/* Longest running first; without sched events, most function calls first. */
static int cmp_runtime(const void *a, const void *b)
{
	const struct task *x = *(struct task *const *)a, *y = *(struct task *const *)b;

	if (x->runtime != y->runtime)
		return x->runtime < y->runtime ? 1 : -1;
	if (calls_len(x) != calls_len(y))
		return calls_len(x) < calls_len(y) ? 1 : -1;
	return x->pid - y->pid;
}

/* Without a known command or pids, the busiest few tasks get lanes. */
static void pick_busiest(struct view *v)
{
	size_t n = 0, i = 0;

	tidmap_foreach(&v->tasks, s)
		n++;
	struct task **all = xcalloc(n ? n : 1, sizeof(*all));
	tidmap_foreach(&v->tasks, s)
		all[i++] = s->val;
	qsort(all, n, sizeof(*all), cmp_runtime);
	for (i = 0; i < n && i < 8; i++)
		if (all[i]->runtime || calls_len(all[i]))
			all[i]->interest = true;
	free(all);
}

/*
 * What a served page is (view --serve): the overview (window.ka < 0: the levels
 * of detail of the whole trace) or chunks ka..kb in full detail.
 */
struct served_page {
	int ka, kb;
	int max_chunks;		/* the most chunks a window may hold */
};

/* The lanes the page shows, once the pass is over. */
static void pick_lanes(struct view *v)
{
	bool any = false;

	tidmap_foreach(&v->tasks, s)
		any |= ((struct task *)s->val)->interest;
	if (!any)
		pick_busiest(v);
	/* Levels only for the lanes the page shows. */
	tidmap_foreach(&v->tasks, s) {
		struct task *t = s->val;
		if (v->full && t->lod_candidate && !t->interest)
			vw_lod_drop_task(&v->lod, t->pid);
	}
}

static int finish(struct view *v, FILE *out, const char *meta, const char *sched_text,
		  const struct served_page *sp)
{
	uint64_t end = v->last;
	bool window = sp && sp->ka >= 0;

	fprintf(out, "{\"v\":1,\"t0\":%llu,\"end\":%llu,\"cpus\":%d,\"total\":%ld,\"kept\":%ld,"
		"\"cap\":%ld%s,\n\"types\":[%s],\n\"tasks\":[", (unsigned long long)v->t0,
		(unsigned long long)(end - v->t0), v->ncpus, v->nevents,
		window ? vw_chunks_events(v->chunks, sp->ka, sp->kb) : v->kept, v->max_events,
		meta, sb_str(&v->types));
	struct strbuf sb = STRBUF_INIT;
	tidmap_foreach(&v->tasks, s) {
		struct task *t = s->val;
		sb_printf(&sb, "%s[%d,", sb.len ? "," : "", t->pid);
		json_cstr(&sb, t->comm);
		sb_printf(&sb, ",%d,%llu]", t->interest, (unsigned long long)t->runtime);
	}
	fprintf(out, "%s],\n", sb_str(&sb));
	if (!window) {
		fputs("\"taskSpans\":{", out);
		sb_reset(&sb);
		tidmap_foreach(&v->tasks, s) {
			struct task *t = s->val;
			if (!t->spans.len)
				continue;
			sb_printf(&sb, "%s\"%d\":[%.*s]", sb.len ? "," : "", t->pid,
				  (int)t->spans.len - 1, sb_str(&t->spans));
		}
		fprintf(out, "%s},\n\"sysSpans\":{", sb_str(&sb));
		sb_reset(&sb);
		tidmap_foreach(&v->tasks, s) {
			struct task *t = s->val;
			if (!t->sys.len)
				continue;
			sb_printf(&sb, "%s\"%d\":[%.*s]", sb.len ? "," : "", t->pid,
				  (int)t->sys.len - 1, sb_str(&t->sys));
		}
		fprintf(out, "%s},\n", sb_str(&sb));
	}
	fputs("\"userMarks\":{", out);
	sb_reset(&sb);
	tidmap_foreach(&v->tasks, s) {
		struct task *t = s->val;
		if (!t->interest || !t->user.len || window)
			continue;
		sb_printf(&sb, "%s\"%d\":[%.*s]", sb.len ? "," : "", t->pid, (int)t->user.len - 1,
			  sb_str(&t->user));
	}
	fprintf(out, "%s},\n\"fgCalls\":{", sb_str(&sb));
	sb_reset(&sb);
	tidmap_foreach(&v->tasks, s) {
		struct vw_calls_task *c = ((struct task *)s->val)->calls;
		if (!c || !c->slices.len || window)
			continue;
		sb_printf(&sb, "%s\"%d\":[%.*s]", sb.len ? "," : "", ((struct task *)s->val)->pid,
			  (int)c->slices.len - 1, sb_str(&c->slices));
	}
	fprintf(out, "%s}", sb_str(&sb));
	vw_calls_meta(&v->calls, out);
	fprintf(out, ",\n\"sysNames\":{");
	for (int nr = 0, k = 0; nr < 1024; nr++) {
		const struct sc_entry *se = v->sys_used[nr] ? sc_by_nr(nr) : NULL;
		if (v->sys_used[nr])
			fprintf(out, "%s\"%d\":\"%s\"", k++ ? "," : "", nr,
				se && se->name ? se->name : "?");
	}
	fprintf(out, "},\n\"inferredSwitchIns\":%ld,\"missedSwitchOuts\":%ld,\"lostEvents\":%lld,"
		"\"lostGaps\":%lu,\n\"sched\":", v->inferred, v->missed_out, v->lost, v->lost_gaps);
	fputs(sched_text ? sched_text : "\"\"", out);
	if (sp) {
		fprintf(out, ",\n\"serve\":{\"maxChunks\":%d,\"window\":", sp->max_chunks);
		if (window)
			fprintf(out, "[%d,%d]", sp->ka, sp->kb);
		else
			fputs("null", out);
		fputs(",\"starts\":", out);
		vw_chunks_starts_json(v->chunks, out);
		fputc('}', out);
	}
	if (!window)
		fprintf(out, ",\n\"cpuSpans\":[%.*s]",
			(int)(v->cpu_spans.len ? v->cpu_spans.len - 1 : 0), sb_str(&v->cpu_spans));
	fprintf(out, ",\n\"overview\":{\"bin\":%llu,\"busy\":[", (unsigned long long)v->bin_ns);
	for (int c = 0; c < v->ncpus; c++) {
		fputs(c ? ",[" : "[", out);
		/* Per-mille busy per bin keeps the overview small. */
		for (int k = 0; k < OV_BINS; k++)
			fprintf(out, "%s%llu", k ? "," : "",
				(unsigned long long)(v->cpus[c].busy[k] * 1000 / v->bin_ns));
		fputc(']', out);
	}
	fputs("]},\n\"lod\":", out);
	if (v->full && !window)
		vw_lod_write(&v->lod, out);
	else
		fputs("null", out);
	int rc = 0;
	if (window) {
		fputs(",\n", out);
		rc = vw_chunks_write(v->chunks, sp->ka, sp->kb, out);
		fputc('}', out);
	} else {
		fprintf(out, ",\n\"events\":[\n%s]}", sb_str(&v->events));
	}
	sb_free(&sb);
	return rc;
}

static int write_page(FILE *out, struct view *v, const char *meta, const char *sched_text,
		      const struct served_page *sp)
{
	int rc;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n"
	      "<title>tracekit view</title>\n<style>\n", out);
	fputs(vw_asset_timeline_css, out);
	fputs("</style></head>\n<body>\n<script type=\"application/json\" id=\"tk-data\">\n", out);
	rc = finish(v, out, meta, sched_text, sp);
	fputs("\n</script>\n<script>\n", out);
	fputs(vw_asset_machines_js, out);
	fputs(vw_asset_timeline_js, out);
	fputs("</script>\n</body></html>\n", out);
	return rc;
}

static void view_free(struct view *v)
{
	tidmap_foreach(&v->tasks, s) {
		struct task *t = s->val;
		sb_free(&t->spans);
		sb_free(&t->sys);
		sb_free(&t->user);
		vw_calls_task_free(t->calls);
		free(t);
	}
	tidmap_free(&v->tasks);
	vw_calls_free(&v->calls);
	if (v->full)
		vw_lod_free(&v->lod);
	for (int c = 0; c < v->ncpus; c++)
		free(v->cpus[c].busy);
	free(v->cpus);
	free(v->type_of);
	sb_free(&v->types);
	sb_free(&v->events);
	sb_free(&v->cpu_spans);
	sb_free(&v->scratch);
}

/*
 * What `tracekit sched` prints for the file, as a JSON string for the page (the
 * same story as the timeline, in numbers), or why there is none.  The analysis
 * was fed during the page's own pass (loaded), or could not start (err).
 */
static char *sched_summary(struct st_trace *t, const struct st_options *o, bool loaded,
			   const char *why)
{
	char err[512], *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	snprintf(err, sizeof(err), "%s", why);
	if (!loaded || st_print(t, o, f, err, sizeof(err)) < 0)
		fprintf(f, "no scheduling summary: %s\n", err);
	fclose(f);
	struct strbuf sb = STRBUF_INIT;
	json_strn_html(&sb, text, len);
	free(text);
	return sb.buf;	/* the caller frees it */
}

/*
 * What sched knows of the futex words the tasks slept on, for the page's
 * tooltips: {"ADDR":"the lock `lock`" or "a join: thread T exits"}.
 */
static void futex_names(struct st_trace *st, struct strbuf *meta)
{
	char label[160];
	int n = 0;

	sb_add(meta, ",\"futexNames\":{");
	for (struct sa_proc *p = st->a.proc_list; p; p = p->next) {
		st_name_locks(st, p);
		for (size_t i = 0; i < p->nwhy; i++) {
			const struct sa_why *w = &p->why[i];
			if (w->kind != SA_WHY_SLEEP || !sa_why_is_futex(w->nr) || !w->addr ||
			    (!w->joined && !w->sym))
				continue;
			const struct sa_task *j = w->joined ? sa_task_find(&st->a, w->joined) : NULL;
			if (w->joined)
				snprintf(label, sizeof(label), "a join: waits for %s:%d to exit",
					 j ? j->comm : "?", w->joined);
			else
				snprintf(label, sizeof(label), "the lock `%s`", w->sym);
			sb_printf(meta, "%s\"%llu\":", n++ ? "," : "",
				  (unsigned long long)(w->addr & ((1ull << 53) - 1)));
			json_cstr(meta, label);
		}
	}
	sb_addc(meta, '}');
}

/* One pass over a file: what its page, or a served window, is written from. */
struct vw_served {
	struct view v;
	struct strbuf meta;
	char *root, *sched;
	struct tf_reader *r;
	int max_chunks;
};

static void pass_free(struct vw_served *p)
{
	free(p->root);
	free(p->sched);
	sb_free(&p->meta);
	vw_chunks_free(p->v.chunks);
	sb_free(&p->v.one);
	view_free(&p->v);
	if (p->r)
		tf_reader_close(p->r);
}

/* Read the file once (p->v.chunks set: every event and span into them too): 0, -1, -2. */
static int view_pass(const struct vw_options *o, struct vw_served *p, char *err, size_t errlen)
{
	struct view *v = &p->v;
	struct tf_event e;
	int rc = -1, got;

	v->max_events = o->max_events;
	v->bin_ns = 1000;
	v->from = o->has_from ? (uint64_t)(o->from * 1e9 + 0.5) : 0;
	v->to = o->has_to ? (uint64_t)(o->to * 1e9 + 0.5) : UINT64_MAX;
	struct tf_reader *r = p->r = tf_reader_open(o->input, err, errlen);
	if (!r)
		return -1;
	if (tf_reader_set_filters(r, o->filters, o->nfilters, err, errlen) < 0)
		return -2;
	v->tep = tf_reader_tep(r);
	v->r = r;
	const struct tf_info *info = tf_reader_info(r);
	v->ncpus = info->cpus > 0 ? info->cpus : 1;
	if (info->user_cpu > 0)
		v->ncpus = info->user_cpu;	/* user events go on their threads' lanes */
	v->cpus = xcalloc(v->ncpus, sizeof(*v->cpus));
	for (int c = 0; c < v->ncpus; c++)
		v->cpus[c].busy = xcalloc(OV_BINS, sizeof(uint64_t));
	sb_add(&p->meta, ",\"clock\":");
	json_cstr(&p->meta, info->clock);
	sb_add(&p->meta, ",\"file\":");
	json_cstr(&p->meta, o->input);
	sb_add(&p->meta, ",\"notes\":{\"_\":0");
	read_notes(v, r, &p->meta, &p->root);
	sb_addc(&p->meta, '}');
	/* The sched summary's analysis rides on this pass: the file is read once. */
	struct st_options so = { .input = o->input, .has_from = o->has_from, .has_to = o->has_to,
				 .from = o->from, .to = o->to };
	struct st_trace st;
	char why[512] = "";
	struct st_loader *sl = st_begin(&st, &so, r, why, sizeof(why));
	struct sa_hooks hooks = { .ctx = v, .cpu_slice = on_cpu_slice, .task_span = on_task_span };
	if (sl)
		st.a.hooks = &hooks;
	v->sl = sl;
	/* A big trace takes seconds: a line on a terminal says how far the reading got. */
	struct progress prog;
	uint64_t nread = 0, first_ts = 0;
	progress_init(&prog, o->quiet, 0.25);
	while ((got = tf_reader_next(r, &e, err, errlen)) > 0) {
		if (!nread++)
			first_ts = e.ts;
		if (!(nread & (PROGRESS_EVENTS - 1)) && nread >= 2 * PROGRESS_EVENTS &&
		    (nread == 2 * PROGRESS_EVENTS || progress_due(&prog)))
			progress_show(&prog, "tracekit: view: reading %s: %llu events, %.1f s into "
				      "the trace", o->input, (unsigned long long)nread,
				      (double)(e.ts - first_ts) / 1e9);
		if (e.ts > v->to) {
			/* The trace goes on past --to: every state seen lasts until then. */
			v->last = v->to;
			break;
		}
		on_event(v, &e);
		if (sl)
			st_feed(sl, &e);
	}
	progress_done(&prog);
	if (sl) {
		st_end(sl, v->last);
		v->sl = NULL;
		v->inferred = (long)st.a.inferred;
		v->missed_out = (long)st.a.missed_out;
		v->lost = st.lost;
		v->lost_gaps = st.a.lost_gaps;
	}
	if (got < 0)
		goto out;
	if (!v->nevents) {
		snprintf(err, errlen, "%s: no events in the %s", o->input,
			 o->has_from || o->has_to ? "window --from/--to (see tracekit report --stat)" :
			 "trace");
		goto out;
	}
	if (v->chunks && vw_chunks_finish(v->chunks) < 0) {
		snprintf(err, errlen, "%s: cannot write the window cache: %s", o->input,
			 strerror(errno));
		goto out;
	}
	/* Threads whose fork event was lost still belong to their process (saved tgids). */
	tidmap_foreach(&v->tasks, s) {
		struct task *t = s->val, *leader;
		int tgid = tf_reader_tgid(r, t->pid);
		if (!t->interest && tgid > 0 && tgid != t->pid &&
		    (leader = tidmap_get(&v->tasks, tgid)) && leader->interest)
			t->interest = true;
	}
	pick_lanes(v);
	p->sched = sched_summary(&st, &so, sl != NULL, why);
	if (sl)
		futex_names(&st, &p->meta);
	rc = 0;
out:
	st_free(&st);
	return rc;
}

/* ---- several files: a host's and its guests' ---- */

/* The machine whose event or spans come next. */
static void use_machine(struct view *v, struct tf_merge *m, int i, const int *cpu_base)
{
	v->machine = i;
	v->pid_base = i * VW_PID_BASE;
	v->cpu_base = cpu_base[i];
	v->r = tf_merge_machine(m, i)->r;
	v->tep = tf_reader_tep(v->r);
}

static int cmp_task_runtime(const void *a, const void *b)
{
	return cmp_runtime(a, b);
}

/*
 * The lanes of several machines: each guest's vCPU threads on the host, and per
 * machine the tasks of its recorded command or else its busiest few.
 */
static void pick_lanes_multi(struct view *v, struct tf_merge *m)
{
	for (int i = 0; i < tf_merge_nmachines(m); i++) {
		size_t n = 0;
		bool any = false;
		tidmap_foreach(&v->tasks, s) {
			struct task *t = s->val;
			n += t->machine == i;
			any |= t->machine == i && t->interest;
		}
		if (any)
			continue;
		struct task **all = xcalloc(n ? n : 1, sizeof(*all));
		size_t k = 0;
		tidmap_foreach(&v->tasks, s)
			if (((struct task *)s->val)->machine == i)
				all[k++] = s->val;
		qsort(all, n, sizeof(*all), cmp_task_runtime);
		for (k = 0; k < n && k < 4; k++)
			if (all[k]->runtime || calls_len(all[k]))
				all[k]->interest = true;
		free(all);
	}
	for (int i = 0; i < tf_merge_nmachines(m); i++) {
		const struct tf_machine *g = tf_merge_machine(m, i);
		for (int k = 0; g->host >= 0 && k < g->nvcpu; k++) {
			struct task *t = g->vcpu_pid[k] > 0 ?
				tidmap_get(&v->tasks, g->vcpu_pid[k] + g->host * VW_PID_BASE) : NULL;
			if (t)
				t->interest = true;
		}
	}
}

/* The page's "machines" and "vcpus": what the page's machine groups are drawn from. */
static void machines_meta(struct tf_merge *m, const int *cpu_base, const int *ncpus,
			  struct strbuf *meta)
{
	sb_add(meta, ",\"machines\":[");
	for (int i = 0; i < tf_merge_nmachines(m); i++) {
		const struct tf_machine *x = tf_merge_machine(m, i);
		sb_add(meta, i ? ",{\"name\":" : "{\"name\":");
		json_cstr(meta, x->name);
		sb_add(meta, ",\"file\":");
		json_cstr(meta, x->path);
		sb_printf(meta, ",\"cpu0\":%d,\"ncpus\":%d,\"pidBase\":%d,\"host\":%d,"
			  "\"vcpuMap\":", cpu_base[i], ncpus[i], i * VW_PID_BASE, x->host);
		if (x->vcpu_map_from)
			json_cstr(meta, x->vcpu_map_from);
		else
			sb_add(meta, "null");
		sb_addc(meta, '}');
	}
	sb_add(meta, "],\"vcpus\":[");
	int n = 0;
	for (int i = 0; i < tf_merge_nmachines(m); i++) {
		const struct tf_machine *g = tf_merge_machine(m, i);
		for (int k = 0; g->host >= 0 && k < g->nvcpu && k < ncpus[i]; k++) {
			if (g->vcpu_pid[k] <= 0)
				continue;
			sb_printf(meta, "%s{\"machine\":%d,\"vcpu\":%d,\"cpu\":%d,\"hostPid\":%d}",
				  n++ ? "," : "", i, k, cpu_base[i] + k,
				  g->vcpu_pid[k] + g->host * VW_PID_BASE);
		}
	}
	sb_addc(meta, ']');
}

/* What tracekit sched says of the files together (each machine, the vCPU waits). */
static char *sched_summary_multi(const struct vw_options *o)
{
	struct st_options so = { .input = o->inputs[0], .has_from = o->has_from,
				 .has_to = o->has_to, .from = o->from, .to = o->to };
	char err[512], *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	if (sg_report(&so, o->inputs, o->ninputs, f, err, sizeof(err)) < 0)
		fprintf(f, "no scheduling summary: %s\n", err);
	fclose(f);
	struct strbuf sb = STRBUF_INIT;
	json_strn_html(&sb, text, len);
	free(text);
	return sb.buf;
}

/* The pass over several files merged on one clock; each machine has its own analysis. */
static int view_pass_multi(const struct vw_options *o, struct vw_served *p, char *err,
			   size_t errlen)
{
	struct view *v = &p->v;
	int n = o->ninputs, cpu_base[TF_MAX_MACHINES], ncpus[TF_MAX_MACHINES];
	struct st_trace st[TF_MAX_MACHINES];
	struct st_loader *sl[TF_MAX_MACHINES] = { 0 };
	struct sa_hooks hooks = { .ctx = v, .cpu_slice = on_cpu_slice, .task_span = on_task_span };
	struct tf_event e;
	int rc = -1, got;

	memset(st, 0, sizeof(st));
	v->max_events = o->max_events;
	v->bin_ns = 1000;
	v->from = o->has_from ? (uint64_t)(o->from * 1e9 + 0.5) : 0;
	v->to = o->has_to ? (uint64_t)(o->to * 1e9 + 0.5) : UINT64_MAX;
	struct tf_merge *m = tf_merge_open(o->inputs, n, err, errlen);
	if (!m)
		return -1;
	if (tf_merge_find_vcpus(m, err, errlen) < 0) {
		tf_merge_close(m);
		return -1;
	}
	if (tf_merge_set_filters(m, o->filters, o->nfilters, err, errlen) < 0) {
		tf_merge_close(m);
		return -2;
	}
	for (int i = 0; i < n; i++) {
		const struct tf_info *info = tf_reader_info(tf_merge_machine(m, i)->r);
		ncpus[i] = info->cpus > 0 ? info->cpus : 1;
		if (info->user_cpu > 0)
			ncpus[i] = info->user_cpu;
		cpu_base[i] = v->ncpus;
		v->ncpus += ncpus[i];
	}
	v->cpus = xcalloc(v->ncpus, sizeof(*v->cpus));
	for (int c = 0; c < v->ncpus; c++)
		v->cpus[c].busy = xcalloc(OV_BINS, sizeof(uint64_t));
	use_machine(v, m, 0, cpu_base);
	sb_add(&p->meta, ",\"clock\":");
	json_cstr(&p->meta, tf_reader_info(v->r)->clock);
	sb_add(&p->meta, ",\"file\":");
	struct strbuf files = STRBUF_INIT;
	for (int i = 0; i < n; i++)
		sb_printf(&files, "%s%s", i ? " + " : "", o->inputs[i]);
	json_cstr(&p->meta, sb_str(&files));
	sb_free(&files);
	sb_add(&p->meta, ",\"notes\":{\"_\":0");
	read_notes(v, v->r, &p->meta, &p->root);	/* the host's: what it recorded */
	sb_addc(&p->meta, '}');
	machines_meta(m, cpu_base, ncpus, &p->meta);
	for (int i = 0; i < n; i++) {
		struct st_options so = { .input = o->inputs[i], .has_from = o->has_from,
					 .has_to = o->has_to, .from = o->from, .to = o->to };
		char why[512];
		sl[i] = st_begin(&st[i], &so, tf_merge_machine(m, i)->r, why, sizeof(why));
		if (sl[i])
			st[i].a.hooks = &hooks;
	}
	while ((got = tf_merge_next(m, &e, err, errlen)) > 0) {
		if (e.ts > v->to) {
			v->last = v->to;
			break;
		}
		use_machine(v, m, e.machine, cpu_base);
		on_event(v, &e);
		if (sl[e.machine])
			st_feed(sl[e.machine], &e);
	}
	for (int i = 0; i < n; i++) {
		if (!sl[i])
			continue;
		use_machine(v, m, i, cpu_base);
		st_end(sl[i], v->last);
		v->inferred += (long)st[i].a.inferred;
		v->missed_out += (long)st[i].a.missed_out;
	}
	use_machine(v, m, 0, cpu_base);
	if (got < 0)
		goto out;
	if (!v->nevents) {
		snprintf(err, errlen, "%s: no events in the %s", o->inputs[0],
			 o->has_from || o->has_to ? "window --from/--to (see tracekit report --stat)" :
			 "trace");
		goto out;
	}
	pick_lanes_multi(v, m);
	p->sched = sched_summary_multi(o);
	if (sl[0])
		futex_names(&st[0], &p->meta);	/* the host's: the guests' words would meet them */
	rc = 0;
out:
	for (int i = 0; i < n; i++)
		st_free(&st[i]);
	v->r = NULL;
	tf_merge_close(m);
	return rc;
}

int vw_write_html(const struct vw_options *o, FILE *out, char *err, size_t errlen)
{
	struct vw_served p = { .meta = STRBUF_INIT };
	int rc = o->ninputs > 1 ? view_pass_multi(o, &p, err, errlen) : view_pass(o, &p, err, errlen);

	if (rc == 0)
		write_page(out, &p.v, sb_str(&p.meta), p.sched, NULL);
	pass_free(&p);
	return rc;
}

struct vw_served *vw_served_index(const struct vw_options *o, FILE *cache, long chunk_events,
				  int max_chunks, char *err, size_t errlen)
{
	struct vw_served *p = xcalloc(1, sizeof(*p));
	struct vw_options lod = *o;

	lod.max_events = 0;	/* the overview: levels of detail of the whole trace */
	p->max_chunks = max_chunks > 0 ? max_chunks : 1;
	p->v.chunks = vw_chunks_new(cache, chunk_events);
	if (view_pass(&lod, p, err, errlen) < 0) {
		pass_free(p);
		free(p);
		return NULL;
	}
	return p;
}

int vw_served_chunks(const struct vw_served *p)
{
	return vw_chunks_count(p->v.chunks);
}

long vw_served_events(const struct vw_served *p)
{
	return p->v.nevents;
}

int vw_served_page(struct vw_served *p, int ka, int kb, FILE *out)
{
	struct served_page sp = { .ka = ka, .kb = kb, .max_chunks = p->max_chunks };

	if (ka >= 0 && (kb < ka || kb >= vw_served_chunks(p) || kb - ka >= p->max_chunks))
		return -2;
	return write_page(out, &p->v, sb_str(&p->meta), p->sched, &sp);
}

void vw_served_free(struct vw_served *p)
{
	if (!p)
		return;
	pass_free(p);
	free(p);
}
